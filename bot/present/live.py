"""The live table as data for a page (the web front end; issue 16).

:func:`table_state` turns the public :class:`~bot.core.events.TableChanged` into a JSON
object: seats, tile counts, pass markers, scores, whose turn and its deadline, the last
move, the caption, and the line already laid out by the board picture's own geometry
(:func:`render.board.board_layout`), so the page draws the same snake with the same
colours and never lays out tiles itself. :func:`hand_state` does the same for one seat's
private :class:`~bot.core.events.YourTiles`: its tiles and its legal moves with the
button payloads and labels every other front end uses.

The public state is built from public fields only (never a seat's tiles), so whatever
reads it can be shown to anyone; only :func:`hand_state` holds hidden tiles.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Protocol

from bot.core.commands import PlayerRef
from bot.core.events import (
    EmoteShown,
    HandEnded,
    MatchEnded,
    RecordView,
    Refusal,
    SeatInfo,
    TableChanged,
    TournamentView,
    YourTiles,
)
from bot.core.tournaments.model import TournamentKind
from bot.core.vocabulary import EMOTES, RefusalReason, TournamentStatus
from bot.present.analysis import ANALYSING, analysis_button, move_phrase
from bot.present.facts import boneyard_count, tournament_picture
from bot.present.i18n import N_, emote_label, language_of, time_left_text, translator
from bot.present.labels import (
    move_text,
    preset_label,
    rematch_label,
    seat_name,
    team_names,
    tournament_kind_label,
)
from bot.present.moves import move_buttons
from bot.present.narration import tiles_text
from bot.present.replies import refused
from bot.present.screens import board_caption
from bot.present.texts import (
    entrant_names,
    hand_ended_text,
    hand_outcome_texts,
    match_ended_caption,
)
from engine.errors import RecordError
from engine.records import replay
from render.board import PLACES, TABLE_AREA, board_layout, seat_panels
from render.canvas import (
    BACKGROUND,
    GOLD,
    MUTED,
    PANEL,
    PASS_RED,
    SIDE_COLORS,
    TABLE,
    TABLE_EDGE,
    WHITE,
)
from render.sprites import FACE, HIGHLIGHT, PIP_SPOTS, TILE_LOOKS
from render.strings import text as picture_text

__all__ = [
    "BOARD",
    "PAGE_TEXTS",
    "RECORD_PAGE_TEXTS",
    "TOURNAMENT_PAGE_TEXTS",
    "RecordHand",
    "RecordPage",
    "TableLinks",
    "TournamentPage",
    "TournamentPlaceLine",
    "TournamentTableLine",
    "board_geometry",
    "emote_state",
    "hand_state",
    "link_label",
    "page_refusal",
    "page_texts",
    "record_missing_page",
    "record_page",
    "result_state",
    "table_state",
    "tournament_missing_page",
    "tournament_page",
]


def board_geometry(players: int) -> dict[str, Any]:
    """The board's coordinate space, colours and pip patterns (the pictures' own) for a
    table of ``players`` seats (2..4): the page scales it to fit and draws the same tiles.
    ``panels`` and ``places`` are each seat's panel box and place around the table
    (``render.board.seat_panels``, ``PLACES``); ``sides`` the colour of each side (the
    partnerships', or each seat's in individual play)."""
    return _GEOMETRY[players]


def _geometry(players: int) -> dict[str, Any]:
    return {
        "width": 960,
        "height": 960,
        "area": [TABLE_AREA.x0, TABLE_AREA.y0, TABLE_AREA.x1, TABLE_AREA.y1],
        "colors": {
            "background": BACKGROUND,
            "table": TABLE,
            "table_edge": TABLE_EDGE,
            "panel": PANEL,
            "white": WHITE,
            "muted": MUTED,
            "gold": GOLD,
            "pass": PASS_RED,
            "teams": SIDE_COLORS,
            "face": TILE_LOOKS[FACE],
            "highlight": TILE_LOOKS[HIGHLIGHT],
        },
        "pips": {str(n): spots for n, spots in PIP_SPOTS.items()},
        "panels": {str(seat): box for seat, box in seat_panels(players).items()},
        "places": {str(seat): place for seat, place in enumerate(PLACES[players])},
    }


_GEOMETRY: dict[int, dict[str, Any]] = {players: _geometry(players) for players in PLACES}

BOARD: dict[str, Any] = _GEOMETRY[4]
"""Today's four-seat board (:func:`board_geometry` of 4)."""

Json = dict[str, Any]


def _line(event: TableChanged) -> Json:
    view = event.view
    if view is None or not view.line:
        return {"short": 0, "tiles": [], "ends": []}
    layout = board_layout(view)
    return {
        "short": layout.short,
        "tiles": [
            {
                "x": box.rect.x0,
                "y": box.rect.y0,
                "w": box.rect.width,
                "h": box.rect.height,
                "vertical": box.vertical,
                "a": box.first,
                "b": box.second,
                "seat": box.placement.seat,
                "order": box.placement.order,
            }
            for box in layout.tiles
        ],
        "ends": [
            {"side": mark.side.value, "number": mark.number, "x": mark.x, "y": mark.y}
            for mark in layout.ends
        ],
    }


def _score(event: TableChanged) -> tuple[int, ...]:
    """The running score by side: after a hand's end, with its points."""
    view = event.view
    if view is None:
        return (0,) * event.rules.sides
    return view.match_score if view.outcome is not None else view.score


def table_state(event: TableChanged, language: str, *, now: float) -> Json:
    """The table everyone may see (a spectator, or any seat), as a JSON object.

    ``now`` (epoch seconds) is the server's time, so the page counts the deadline down
    against its own clock.
    """
    lang = language_of(language)
    view = event.view
    rules = event.rules
    lacking = view.numbers_lacking() if view is not None else (frozenset(),) * rules.players
    seats = []
    for info in event.seats[: rules.players]:
        numbers = sorted(lacking[info.seat])
        seats.append(
            {
                "seat": info.seat,
                "team": rules.side_of(info.seat),
                "name": seat_name(event.seats, info.seat, lang) if not info.is_open else "",
                "open": info.is_open,
                "robot": info.is_robot,
                "away": info.away,
                "back_by": info.back_by,  # None once the seat was left for good
                "tiles": view.tile_counts[info.seat] if view is not None else 0,
                "lacks": (
                    picture_text(lang, "lacks", nums=", ".join(map(str, numbers)))
                    if numbers
                    else ""
                ),
            }
        )
    last = None
    if view is not None and view.last_move is not None:
        seat, move = view.last_move
        last = {"seat": seat, "move": move_text(move, lang)}
    left = boneyard_count(view)
    outcome = None
    if view is not None and view.outcome is not None:
        outcome = {
            "winner_team": view.outcome.winner_team,
            "points": view.outcome.points,
            "end": view.outcome.end.value,
        }
    return {
        "type": "table",
        "table": event.table_id,
        "label": event.label,
        "phase": str(event.phase),
        "language": lang,
        "seats": seats,
        "players": rules.players,
        "partnership": rules.partnership,
        "teams": [
            team_names(event.seats, side, lang, partnership=rules.partnership)
            for side in range(rules.sides)
        ],
        "score": list(_score(event)),
        "target": rules.target,
        # the tiles left to draw ("Pozo: 12"), or None where nobody draws
        "boneyard": left,
        "boneyard_text": "" if left is None else picture_text(lang, "boneyard", n=left),
        "hand": event.hand_number,
        "move": event.move_number,
        "turn": event.turn,
        "deadline": event.deadline,
        "now": now,
        "last": last,
        "outcome": outcome,
        "caption": board_caption(event, lang),
        "board": board_geometry(rules.players),
        "line": _line(event),
    }


def hand_state(event: YourTiles, *, now: float) -> Json:
    """One seat's private state: its tiles and legal moves (the same payloads and labels
    as the buttons of the other front ends). Send it to that seat's player only."""
    moves = [
        {
            "payload": choice.payload,
            "label": label,
            "tile": None if choice.move.tile is None else str(choice.move.tile),
            "side": None if choice.move.side is None else choice.move.side.value,
        }
        for choice, label in move_buttons(event)
    ]
    return {
        "type": "hand",
        "table": event.table_id,
        "seat": event.seat,
        "tiles": [str(tile) for tile in event.view.tiles],
        "playable": [str(tile) for tile in event.view.playable_tiles()],
        "moves": moves,
        "your_turn": event.is_your_turn,
        "hand": event.hand_number,
        "move": event.move_number,
        "deadline": event.deadline,
        "now": now,
    }


def emote_state(event: EmoteShown, language: str) -> Json:
    """An emote shown at the table (who and what), for the page to pop up."""
    lang = language_of(language)
    return {
        "type": "emote",
        "table": event.table_id,
        "seat": event.seat,
        "name": event.player.display_name,
        "text": emote_label(event.name, lang),
    }


def result_state(event: HandEnded | MatchEnded, board: TableChanged | None, language: str) -> Json:
    """A hand's or the match's end as the page shows it until the next hand: the same
    sentence the chats get (who closed it, the points, the score; the winners and the
    money), ``kind`` ``"hand"`` or ``"match"``; a hand's end also turns every seat's
    tiles left up, with their pips. ``board`` is the table's latest state (its
    label and seats name the teams)."""
    lang = language_of(language)
    label = board.label if board is not None else ""
    if isinstance(event, MatchEnded):
        return {
            "type": "result",
            "kind": "match",
            "table": event.table_id,
            "winner_team": event.winner_team,
            "hand": board.hand_number if board is not None else 0,
            "text": match_ended_caption(event, label, lang),
        }
    seats = board.seats if board is not None else ()
    names = {info.seat: seat_name(seats, info.seat, lang) for info in seats if not info.is_open}
    return {
        "type": "result",
        "kind": "hand",
        "table": event.table_id,
        "hand": event.hand_number,
        "text": hand_ended_text(event, seats, label, lang),
        # the tiles each seat had left, turned up to be counted (public once it ended)
        "hands": [
            {
                "seat": seat,
                "name": names.get(seat, ""),
                "tiles": [str(tile) for tile in tiles],
                "pips": sum(tile.pips for tile in tiles),
            }
            for seat, tiles in enumerate(event.hands)
        ],
    }


_PAGE_REFUSALS: dict[RefusalReason, str] = {
    RefusalReason.STALE: "stale",
}
"""Refusals a page says in its own words (a chat's "that button is no longer valid"
speaks of buttons a page does not have)."""


def page_refusal(refusal: Refusal, language: str) -> str:
    """A refused action as the page says it: its own words where a chat's would not fit
    (:data:`_PAGE_REFUSALS`), else the chats' sentence."""
    key = _PAGE_REFUSALS.get(refusal.reason)
    if key is None:
        return refused(refusal, language)
    return translator(language_of(language))(PAGE_TEXTS[key])


PAGE_TEXTS: dict[str, str] = {
    "your_turn": N_("Your turn"),
    "waiting": N_("Waiting for the others"),
    "spectator": N_("You are watching: only the public table is shown."),
    "leave": N_("Leave the table"),
    "back": N_("Take my seat back"),
    "robot_plays": N_("A robot plays for you until you come back."),
    "robot_ends": N_("You left: a robot plays your seat until the end of the match."),
    "which_end": N_("This tile fits both ends: tap the end."),
    "left": N_("left"),
    "right": N_("right"),
    "offline": N_("Connection lost; reconnecting…"),
    "gone": N_("This table is over or does not exist."),
    "denied_forged": N_("This link is not valid."),
    "denied_expired": N_("This link has expired; ask the bot for a new one."),
    "denied_malformed": N_("This link is not valid."),
    "tiles": N_("Your tiles"),
    "score": N_("Score"),
    "target": N_("to {target}"),
    "seconds": N_("{seconds} s"),
    "hours": N_("{hours} h"),  # a slow table's turn (rules.md, "Slow tables")
    "robot": N_("robot"),
    "away": N_("away"),
    "emotes": N_("Emotes"),
    "ended": N_("Match over"),
    "stale": N_("That move was already made or is no longer valid."),
    "too_fast": N_("Too fast: wait a moment and try again."),
}
"""The page's own words (buttons, states), sent once with the welcome."""


def page_texts(language: str) -> dict[str, Any]:
    """Every word the page shows of its own, in ``language``, and the emotes' labels."""
    _ = translator(language_of(language))
    texts: dict[str, Any] = {key: _(msgid) for key, msgid in PAGE_TEXTS.items()}
    texts["emote_labels"] = {name: emote_label(name, language) for name in EMOTES}
    texts["again"] = rematch_label(language)
    texts["analysis"] = analysis_button(language)
    texts["analysing"] = translator(language_of(language))(ANALYSING)
    return texts


class TableLinks(Protocol):
    """What a chat front end asks of the web table (``bot.web.server.WebTable``) to
    offer it: links, never a decision."""

    def seat_url(self, player: PlayerRef, table_id: str) -> str:
        """A personal, signed, expiring link opening ``table_id`` as ``player``."""
        ...

    def watch_url(self, table_id: str) -> str:
        """The table's public spectator link."""
        ...

    def tournament_url(self, tournament_id: str) -> str:
        """A tournament's public page (its bracket or standings, its tables to watch)."""
        ...

    def record_url(self, match_id: str) -> str:
        """A finished match's record page (each hand's deal and moves)."""
        ...

    @property
    def public_url(self) -> str:
        """The page's own address (a Telegram ``web_app`` button opens it)."""
        ...

    @property
    def in_discord(self) -> bool:
        """Whether the page is also a Discord Activity (boards offer to play there)."""
        ...


LINK_LABELS: dict[str, str] = {
    "open": N_("Open the table"),
    "watch": N_("Watch the table"),
    "tournament": N_("See the tournament"),
    "record": N_("See the match"),
}


def link_label(kind: str, language: str) -> str:
    """The label of a web table link button: ``"open"`` (a seat's), ``"watch"`` or
    ``"tournament"`` (a tournament's page)."""
    return translator(language_of(language))(LINK_LABELS[kind])


# ---------------------------------------------------------------- a tournament's page

TOURNAMENT_PAGE_TEXTS: dict[str, str] = {
    "tables": N_("Tables in play"),
    "no_tables": N_("No table is being played right now."),
    "places": N_("Final places"),
    "bracket": N_("The bracket"),
    "standings": N_("The standings"),
    "only_watch": N_("Only to watch: players sign up and play in the chat."),
    "finished": N_("The tournament is over."),
    "cancelled": N_("Cancelled: every entry fee held was refunded."),
    "missing_title": N_("Tournament not found"),
    "missing": N_("This tournament does not exist or is no longer shown."),
}
"""A tournament page's own words (issue 32: the web table's page of a tournament)."""


@dataclass(frozen=True, slots=True)
class TournamentTableLine:
    """A table in play on a tournament's page: its id (the page links its spectator
    link), its label ("Mesa 2") and its pairing ("Ana contra Beto")."""

    table_id: str
    label: str
    pairing: str


@dataclass(frozen=True, slots=True)
class TournamentPlaceLine:
    """A final place on a tournament's page: "1.", the names, the prize ("$14", or ""
    when none)."""

    place: str
    names: str
    prize: str


@dataclass(frozen=True, slots=True)
class TournamentPage:
    """A tournament's public page in one language, every word phrased: the web table's
    server lays it out (links and markup) and adds nothing of its own.

    Attributes:
        language: the page's language; title: the tournament's name.
        about: its kind and rules ("Eliminatoria · uno contra uno"); money: the entry
            fee and the pool; status: where it is (sign-up, the round in play, over).
        live: it may still change (sign-up or in play), so the page refreshes itself.
        picture_alt: what its picture shows (the bracket, the standings), "" when it
            has none yet (before the start).
        tables_title, tables, no_tables: the tables in play (while it runs).
        watch: the spectator link's label.
        places_title, places: the final places and prizes (once it ended).
        signed_title, signed: who signed up (during sign-up).
        note: that the page only shows (no button on it plays).
    """

    language: str
    title: str
    about: str
    money: str
    status: str
    live: bool
    picture_alt: str
    tables_title: str
    tables: tuple[TournamentTableLine, ...]
    no_tables: str
    watch: str
    places_title: str
    places: tuple[TournamentPlaceLine, ...]
    signed_title: str
    signed: tuple[str, ...]
    note: str


def _tournament_status(view: TournamentView, language: str) -> str:
    _ = translator(language)
    if view.status is TournamentStatus.SIGNUP:
        left = time_left_text(view.seconds_left, language)
        return _("Sign-up is open: it starts in {left}.", left=left)
    if view.status is TournamentStatus.FINISHED:
        return _(TOURNAMENT_PAGE_TEXTS["finished"])
    if view.status is TournamentStatus.CANCELLED:
        return _(TOURNAMENT_PAGE_TEXTS["cancelled"])
    if view.kind is TournamentKind.ARENA:
        return _("In play: {left} to go.", left=time_left_text(view.seconds_left, language))
    if view.kind is TournamentKind.SWISS:
        return _("In play: round {round} of {rounds}.", round=view.round, rounds=view.rounds)
    return _("In play: round {round}.", round=view.round)


def tournament_page(view: TournamentView, language: str) -> TournamentPage:
    """Tournament ``view`` as its public page shows it, in ``language``: its name, kind,
    status, what its picture shows, the tables in play, the final places with their
    prizes, and who signed up while sign-up is open."""
    lang = language_of(language)
    _ = translator(lang)
    kind = tournament_kind_label(view.kind, view.partners, lang)
    running = view.status is TournamentStatus.RUNNING
    picture_alt = ""
    if tournament_picture(view, lang) is not None:
        which = "bracket" if view.kind is TournamentKind.KNOCKOUT else "standings"
        picture_alt = _(TOURNAMENT_PAGE_TEXTS[which])
    signing = view.status is TournamentStatus.SIGNUP
    return TournamentPage(
        language=lang,
        title=view.name or _("The tournament"),
        about=f"{kind[:1].upper()}{kind[1:]} · {preset_label(view.preset, lang)}",
        money=_("Entry fee ${fee} · pool ${pool}", fee=view.fee, pool=view.pool),
        status=_tournament_status(view, lang),
        live=signing or running,
        picture_alt=picture_alt,
        tables_title=_(TOURNAMENT_PAGE_TEXTS["tables"]) if running else "",
        tables=tuple(
            TournamentTableLine(
                pairing.table_id,
                _("Table {label}", label=pairing.label),
                _(
                    "{team0} against {team1}",
                    team0=entrant_names(pairing.first, lang),
                    team1=entrant_names(pairing.second, lang),
                ),
            )
            for pairing in view.pairings
            if pairing.table_id
        ),
        no_tables=_(TOURNAMENT_PAGE_TEXTS["no_tables"]),
        watch=link_label("watch", lang),
        places_title=_(TOURNAMENT_PAGE_TEXTS["places"]) if view.places else "",
        places=tuple(
            TournamentPlaceLine(
                f"{place.number}.",
                entrant_names(place.names, lang),
                f"${place.prize}" if place.prize else "",
            )
            for place in view.places
        ),
        signed_title=(
            _.ngettext("{n} player signed up", "{n} players signed up", len(view.signed))
            if signing
            else ""
        ),
        signed=view.signed if signing else (),
        note=_(TOURNAMENT_PAGE_TEXTS["only_watch"]),
    )


def tournament_missing_page(language: str) -> tuple[str, str]:
    """The page of a tournament nobody knows (a forged or old id): its title and its
    sentence, in ``language``."""
    _ = translator(language_of(language))
    return _(TOURNAMENT_PAGE_TEXTS["missing_title"]), _(TOURNAMENT_PAGE_TEXTS["missing"])


log = logging.getLogger(__name__)

RECORD_PAGE_TEXTS: dict[str, str] = {
    "missing_title": N_("Match not found"),
    "missing": N_("No finished match has this id."),
    "dealt": N_("Dealt"),
    "moves": N_("Moves"),
    "unfinished": N_("The match did not end: every human left it."),
}
"""A match record's page's own words (issue 33: the admins' link from a report)."""


@dataclass(frozen=True, slots=True)
class RecordHand:
    """One hand on a match record's page: its title ("Mano 2"), each seat's tiles as
    dealt ("Ana: [6|6] [6|5] …"), every move in order ("Beto: [6|4] por la
    izquierda", "Carla: paso") and how it ended ("dominó de Ana. Ana y Carla ganan 34
    puntos.")."""

    title: str
    deal: tuple[str, ...]
    moves: tuple[str, ...]
    result: str


@dataclass(frozen=True, slots=True)
class RecordPage:
    """A finished match's record as its page shows it, every word phrased.

    Attributes:
        language: the page's language; title: "Partida <id>".
        about: the rules ("Venezolano"); players: who played, by side; result: who won
            the match and the final score (or that it did not end).
        dealt, moves: the headings of each hand's two lists.
        hands: each hand, the first first.
    """

    language: str
    title: str
    about: str
    players: str
    result: str
    dealt: str
    moves: str
    hands: tuple[RecordHand, ...]


def _record_preset(record: Mapping[str, object]) -> str | None:
    rules = record.get("rules")
    if isinstance(rules, str):
        return rules
    if isinstance(rules, Mapping):
        preset = rules.get("preset")
        return preset if isinstance(preset, str) else None
    return None


def record_page(view: RecordView, language: str) -> RecordPage | None:
    """Match ``view``'s record as its page shows it, in ``language`` (the hands replayed
    from the record: engine.records); None for a stored record that does not replay
    (logged)."""
    lang = language_of(language)
    _ = translator(lang)
    try:
        match = replay(dict(view.record))
    except RecordError as exc:
        log.warning("the record of match %s does not replay: %s", view.match_id, exc)
        return None
    rules = match.rules
    seats = tuple(
        SeatInfo(seat=i, name=view.names[i] if i < len(view.names) else "")
        for i in range(rules.players)
    )
    sides = [
        team_names(seats, side, lang, partnership=rules.partnership) for side in range(rules.sides)
    ]
    hands = []
    for number, hand in enumerate(match.hands, start=1):
        outcome = hand.outcome
        result = ""
        if outcome is not None:
            points = [
                outcome.points if side == outcome.winner_team else 0 for side in range(rules.sides)
            ]
            how, scored = hand_outcome_texts(outcome, points, seats, rules.partnership, lang)
            result = f"{how[:1].upper()}{how[1:]}. {scored}"
        hands.append(
            RecordHand(
                title=_("Hand {hand}", hand=number),
                deal=tuple(
                    f"{seat_name(seats, seat, lang)}: {tiles_text(tuple(tiles))}"
                    for seat, tiles in enumerate(hand.deal)
                ),
                moves=tuple(
                    f"{seat_name(seats, seat, lang)}: {move_phrase(move, lang)}"
                    for seat, move in hand.history
                ),
                result=result,
            )
        )
    score = " – ".join(map(str, match.score))
    winner = match.winner_side
    if winner is None:
        ended = _(RECORD_PAGE_TEXTS["unfinished"]) + f" ({score})"
    elif rules.partnership:
        ended = _("{team} won the match {score}.", team=sides[winner], score=score)
    else:
        ended = _("{name} won the match {score}.", name=sides[winner], score=score)
    return RecordPage(
        language=lang,
        title=_("Match {match}", match=view.match_id),
        about=preset_label(_record_preset(view.record), lang),
        players=(
            _("{first} against {second}", first=sides[0], second=sides[1])
            if len(sides) == 2
            else " · ".join(sides)
        ),
        result=ended,
        dealt=_(RECORD_PAGE_TEXTS["dealt"]),
        moves=_(RECORD_PAGE_TEXTS["moves"]),
        hands=tuple(hands),
    )


def record_missing_page(language: str) -> tuple[str, str]:
    """The page of a match nobody finished under that id: its title and its sentence."""
    _ = translator(language_of(language))
    return _(RECORD_PAGE_TEXTS["missing_title"]), _(RECORD_PAGE_TEXTS["missing"])
