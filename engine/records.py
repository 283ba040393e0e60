"""Match records and their replay (records.md).

A record is JSON: ``{"rules": ..., "hands": [{"deal", "starter", "moves"}, ...]}``,
in every format of rules.md ("More ways to play: formats"). Records keep hidden
information apart (records.md, "Formats and hidden information"):

* the **private** record holds every fact: each deal, the boneyard in draw order
  (``"boneyard"``) and each draw's tile (``"draw 3-5"``). :func:`read_record` checks its
  shape, :func:`replay` plays it through the engine and returns the final
  :class:`~engine.match.Match`, :func:`replay_summary` gives the ``domino replay``
  output, and :func:`record_of` writes a match back;
* the **public** record (``"public": true``) holds what the table saw: no deal, no
  boneyard, a draw written ``"draw"``, and the pips shown at each hand's end.
  :func:`public_record_of` writes it and :func:`replay_public` checks it as far as
  the public facts allow.

:func:`check_record` is ``domino replay``: either kind. Every problem is a
:class:`~engine.errors.RecordError` whose text names the hand and move (records.md).
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from engine.errors import IllegalMoveError, InvalidMoveError, RecordError, RulesError
from engine.hand import (
    HandOutcome,
    HandState,
    Scoring,
    deal_problem,
    is_capicua,
    opening_of,
    redeal_seat,
    tranca_seat,
)
from engine.match import Match
from engine.moves import DRAW, PASS, Move, Side
from engine.rules import Boneyard, Rules
from engine.tiles import Tile, TileSet, tiles_of

__all__ = [
    "HandRecord",
    "MatchRecord",
    "check_record",
    "is_public",
    "match_from_record",
    "public_record_of",
    "read_record",
    "record_of",
    "replay",
    "replay_public",
    "replay_summary",
]

_HAND_KEYS = frozenset({"deal", "boneyard", "starter", "moves"})


@dataclass(frozen=True, slots=True)
class HandRecord:
    """One hand of a record: the deal by seat, the opener (None: the rules decide), the
    moves as written, and the boneyard in draw order (None: not written, the undealt
    tiles in ascending order; records.md, "Formats and hidden information")."""

    deal: tuple[tuple[Tile, ...], ...]
    starter: int | None
    moves: tuple[str, ...]
    boneyard: tuple[Tile, ...] | None = None


@dataclass(frozen=True, slots=True)
class MatchRecord:
    """A parsed record: its rule set, the ``rules`` value as written, and its hands."""

    rules: Rules
    rules_spec: object
    hands: tuple[HandRecord, ...]
    extra: Mapping[str, Any]


def read_record(source: str | bytes | Mapping[str, Any]) -> MatchRecord:
    """Parse a record from JSON text or an already-decoded object (shape checks only).

    Raises:
        RecordError: not JSON, bad rules, or a malformed hand.
    """
    data = _decode(source)
    rules = _rules_of(data)
    if is_public(data):
        raise RecordError(
            "a public record hides the deals: it is checked (domino replay), not played"
            " move by move"
        )
    hands_data = data.get("hands")
    if not isinstance(hands_data, list) or not hands_data:
        raise RecordError("'hands' must be a non-empty list")
    hands = tuple(_read_hand(h, n, rules) for n, h in enumerate(hands_data, 1))
    extra = {k: v for k, v in data.items() if k not in ("rules", "hands")}
    return MatchRecord(rules, data["rules"], hands, extra)


def _tiles(data: object, what: str, number: int, tile_set: TileSet) -> tuple[Tile, ...]:
    if not isinstance(data, list):
        raise RecordError(f"{what} is not a list of tiles", hand=number)
    tiles = []
    for text in data:
        try:
            tiles.append(Tile.parse(text, tile_set))
        except InvalidMoveError:
            where = "the deal" if what.startswith("the deal") else "the boneyard"
            raise RecordError(f"unknown tile {text!r} in {where}", hand=number) from None
    return tuple(tiles)


def _read_hand(data: object, number: int, rules: Rules) -> HandRecord:
    if not isinstance(data, Mapping):
        raise RecordError("a hand is an object with 'deal' and 'moves'", hand=number)
    unknown = sorted(set(data) - _HAND_KEYS)
    if unknown:
        raise RecordError(f"unknown field '{unknown[0]}'", hand=number)
    classic = rules.is_classic
    players = rules.players
    deal_data = data.get("deal")
    if not isinstance(deal_data, list) or len(deal_data) != players:
        if classic:
            raise RecordError("'deal' must be four lists of seven tiles", hand=number)
        raise RecordError(
            f"'deal' must be {players} lists of {rules.hand_tiles} tiles", hand=number
        )
    deal = [
        _tiles(hand, f"the deal of seat {seat}", number, rules.tile_set)
        for seat, hand in enumerate(deal_data)
    ]
    boneyard = None
    if "boneyard" in data:
        boneyard = _tiles(data["boneyard"], "'boneyard'", number, rules.tile_set)
    problem = deal_problem(deal) if classic else deal_problem(deal, rules, boneyard)
    if classic and not problem and boneyard:
        problem = "the boneyard is not the 0 tiles left undealt"
    if problem:
        raise RecordError(problem, hand=number)
    starter = data.get("starter")
    if starter is not None and (
        isinstance(starter, bool) or not isinstance(starter, int) or not 0 <= starter < players
    ):
        raise RecordError(f"starter must be a seat 0..{players - 1}, not {starter!r}", hand=number)
    moves = data.get("moves", [])
    if not isinstance(moves, list):
        raise RecordError("'moves' must be a list", hand=number)
    for index, move in enumerate(moves, 1):
        if not isinstance(move, str):
            raise RecordError(f"a move is text, not {move!r}", hand=number, move=index)
    return HandRecord(tuple(deal), starter, tuple(moves), boneyard)


def replay(record: MatchRecord | str | bytes | Mapping[str, Any]) -> Match:
    """Play a record through the engine and return the match as it stands at its end.

    Raises:
        RecordError: the first problem, naming hand and move (records.md).
    """
    if not isinstance(record, MatchRecord):
        record = read_record(record)
    rules = record.rules
    match: Match | None = None
    for number, hand in enumerate(record.hands, 1):
        if match is not None:
            if not match.hand.is_over:
                raise RecordError(f"hand {number - 1} did not finish", hand=number)
            if match.is_over:
                raise RecordError("the match already ended", hand=number)
        seat = redeal_seat(rules, hand.deal)
        if seat is not None:
            raise RecordError(
                f"seat {seat} was dealt {sum(t.is_double for t in hand.deal[seat])} doubles:"
                f" the redeal rule (redeal_doubles {rules.redeal_doubles}) annuls this deal",
                hand=number,
            )
        match = _start_hand(rules, match, hand, number)
        match = _play_moves(match, hand.moves, number)
    assert match is not None
    return match


def _start_hand(rules: Rules, match: Match | None, hand: HandRecord, number: int) -> Match:
    if match is None:
        if rules.first_starter == "double_six":
            holder, tile = opening_of(rules, hand.deal)
            if hand.starter is not None and hand.starter != holder:
                raise RecordError(
                    f"starter {hand.starter} contradicts double_six (seat {holder} holds {tile})",
                    hand=number,
                )
            return Match.start(rules, hand.deal, holder, boneyard=hand.boneyard)
        if hand.starter is None:
            raise RecordError(
                f"'starter' is required when first_starter is {rules.first_starter}",
                hand=number,
            )
        return Match.start(rules, hand.deal, hand.starter, boneyard=hand.boneyard)
    expected = match.next_starter()
    if hand.starter is not None and hand.starter != expected:
        why = (
            f"next_starter {rules.next_starter}"
            if rules.next_starter == "rotate"
            or match.hand.outcome is None
            or match.hand.outcome.winner_seat is None
            else "next_starter winner"
        )
        raise RecordError(
            f"starter {hand.starter} contradicts {why} (seat {expected} opens)", hand=number
        )
    return match.next_hand_with(hand.deal, expected, boneyard=hand.boneyard)


def _play_moves(match: Match, moves: Sequence[str], number: int) -> Match:
    mirror = False
    tile_set = match.rules.tile_set
    for index, text in enumerate(moves, 1):
        state = match.hand
        if state.is_over:
            raise RecordError(
                f"a move after the hand ended ({_ended(state.outcome)})", hand=number, move=index
            )
        drawn: Tile | None = None
        try:
            if text.startswith("draw "):
                # A private record may name the drawn tile (records.md): it is checked.
                drawn = Tile.parse(text[5:], tile_set)
                move = DRAW
            else:
                move = Move.parse(text, tile_set)
        except InvalidMoveError as exc:
            raise RecordError(str(exc), hand=number, move=index) from None
        if move.tile is not None:
            # A player with no legal move passes automatically (records.md); a player
            # who must draw does not: a draw is always written.
            while not state.can_play(state.turn) and not state.drawable:
                match = match.apply(PASS)
                state = match.hand
            if state.ends is None:
                mirror = _opens_mirrored(text)
                move = Move(move.tile)
            else:
                move = _engine_move(move, state.ends, mirror)
        try:
            if move.draw:
                _check_draw(state, drawn, number, index)
            match = match.apply(move)
        except IllegalMoveError as exc:
            raise RecordError(_phrase(exc, mirror, text, state), hand=number, move=index) from None
    return match


def _check_draw(state: HandState, drawn: Tile | None, number: int, index: int) -> None:
    """A draw that names its tile must name the boneyard's next one (checked after the
    draw itself is found legal: :meth:`HandState.resolve` raises first)."""
    state.resolve(DRAW)
    if drawn is not None:
        actual = state.boneyard[state.drawn]
        if actual != drawn:
            raise RecordError(
                f"seat {state.turn} draws {actual} from the boneyard, not {drawn}",
                hand=number,
                move=index,
            )


# -- orientation -------------------------------------------------------------------
#
# The engine lays the opening tile high-low (its left end shows the higher number).
# records.md opens the line as the first tile is written, so a record whose first tile
# is written low-high sees the engine's line mirrored: its left end is the engine's
# right. These two functions are the only place that maps a record's ends to the
# engine's (record_of writes the opener high-low, so its records are never mirrored).


def _opens_mirrored(text: str) -> bool:
    """Whether a record's first tile (``text``, already read as a move) is written
    low-high, so that the record's left and right are the engine's right and left."""
    first, second = text.split(" ")[0].split("-")
    return int(first) < int(second)


def _engine_move(move: Move, ends: tuple[int, int], mirror: bool) -> Move:
    """The engine's move for a record's move after the opening, on the engine's
    ``ends``: a side names the record's end, and a tile without a side on equal ends
    goes on the record's right end (records.md); any other side-less tile is left to
    the engine (the only end it fits, or the side-missing error)."""
    tile = move.tile
    if tile is None:
        return move
    if move.side is not None:
        return Move(tile, move.side.opposite) if mirror else move
    left, right = ends
    if left == right and tile.has(left):
        return Move(tile, Side.LEFT if mirror else Side.RIGHT)
    return move


def _ended(outcome: HandOutcome | None) -> str:
    assert outcome is not None
    if outcome.end.value == "domino":
        return f"domino by seat {outcome.last_seat}"
    return "blocked"


def _phrase(exc: IllegalMoveError, mirror: bool, text: str, state: HandState) -> str:
    detail = exc.detail
    ends = detail.get("ends")
    if isinstance(ends, tuple):
        left, right = (ends[1], ends[0]) if mirror else ends
    reason = exc.reason
    tile = detail.get("tile")
    if reason == "not_held":
        return f"seat {exc.seat} does not hold {Move.parse(text, state.rules.tile_set).tile}"
    if reason == "does_not_fit":
        return f"{tile} fits neither end (ends {left} and {right})"
    if reason == "side_missing":
        return f"{tile} fits both ends ({left} and {right}): its side (left or right) is required"
    if reason == "side_does_not_fit":
        side = text.split(" ")[1]
        return f"{tile} does not fit the {side} end (ends {left} and {right})"
    if reason == "must_open_with":
        return f"seat {exc.seat} must open with {tile} (double_six)"
    if reason == "cannot_draw":
        return _cannot_draw(exc, mirror, state)
    return str(exc)


def _cannot_draw(exc: IllegalMoveError, mirror: bool, state: HandState) -> str:
    seat = exc.seat
    if state.rules.boneyard is not Boneyard.DRAW:
        return f"seat {seat} cannot draw: the boneyard rule is pass (nobody draws)"
    if state.ends is None:
        return f"seat {seat} cannot draw: it opens the hand with a tile"
    if state.can_play(state.turn):
        first = next(m.tile for m in state.legal_moves() if m.tile is not None)
        left, right = (state.ends[1], state.ends[0]) if mirror else state.ends
        number = left if first.has(left) else right
        return f"seat {seat} cannot draw: it holds {first} for the {number} end"
    return f"seat {seat} cannot draw: the boneyard is empty"


def replay_summary(match: Match) -> dict[str, Any]:
    """The ``domino replay`` output for a replayed match (records.md)."""
    hands = []
    score = [0] * match.rules.sides
    for state in match.hands:
        outcome = state.outcome
        if outcome is None:
            hands.append(
                {
                    "end": "unfinished",
                    "winner_team": None,
                    "winner_seat": None,
                    "points": 0,
                    "capicua": False,
                    "pips_left": [state.pips(s) for s in range(state.players)],
                    "score": list(score),
                }
            )
            continue
        if outcome.winner_team is not None:
            score[outcome.winner_team] += outcome.points
        hands.append(
            {
                "end": outcome.end.value,
                "winner_team": outcome.winner_team,
                "winner_seat": outcome.winner_seat,
                "points": outcome.points,
                "capicua": outcome.capicua,
                "pips_left": list(outcome.pips_left),
                "score": list(score),
            }
        )
    return {
        "hands": hands,
        "score": list(match.score),
        "winner_team": match.winner_team,
        "finished": match.is_over,
    }


def record_of(match: Match, **extra: Any) -> dict[str, Any]:
    """Write ``match`` (finished or not) as a records.md record: the private record,
    which holds every hidden fact (each deal, the boneyard in draw order, each drawn
    tile as ``"draw 3-5"``; records.md, "Formats and hidden information").

    Passes are written explicitly; a side is written only where it is needed to
    reproduce the placement. ``extra`` top-level fields (e.g. ``table``) are kept.
    Today's format writes exactly the records it always wrote.
    """
    hands = []
    for state in match.hands:
        hand: dict[str, Any] = {
            "deal": [[str(t) for t in tiles] for tiles in state.deal],
            "starter": state.starter,
            "moves": _moves_of(state, private=True),
        }
        if state.boneyard:
            hand = {
                "deal": hand["deal"],
                "boneyard": [str(t) for t in state.boneyard],
                "starter": state.starter,
                "moves": hand["moves"],
            }
        hands.append(hand)
    return {"rules": match.rules.to_spec(), "hands": hands, **extra}


def _moves_of(state: HandState, *, private: bool) -> list[str]:
    """A hand's moves in records.md notation: every pass and draw written; a draw
    names its tile only in a private record."""
    moves = []
    ends: tuple[int, int] | None = None
    drawn = 0
    for _seat, move in state.history:
        tile = move.tile
        if move.draw:
            moves.append(f"draw {state.boneyard[drawn]}" if private else "draw")
            drawn += 1
            continue
        if tile is None:
            moves.append("pass")
            continue
        if ends is None:
            moves.append(str(tile))
            ends = (tile.high, tile.low)
            continue
        left, right = ends
        both = tile.has(left) and tile.has(right)
        needs_side = (both and left != right) or (left == right and move.side is Side.LEFT)
        moves.append(move.text(with_side=needs_side))
        if move.side is Side.LEFT:
            ends = (tile.other(left), right)
        else:
            ends = (left, tile.other(right))
    return moves


def match_from_record(record: MatchRecord | str | bytes | Mapping[str, Any]) -> Match:
    """The match a record describes (same as :func:`replay`), for resuming a table."""
    return replay(record)


# -- public records --------------------------------------------------------------------
#
# A public record shows only what the whole table saw (records.md, "The public record"):
# no deal, no boneyard, and a draw without its tile. Its replay cannot play the hands
# through HandState (the tiles in hand are hidden), so it follows the line, the tile
# counts and the boneyard's count, and scores each hand from the pips the players showed
# at its end, through the engine's one scoring home (Scoring, tranca_seat, is_capicua).

_PUBLIC_HAND_KEYS = frozenset({"starter", "moves", "pips_left"})


def is_public(source: Mapping[str, Any]) -> bool:
    """Whether a decoded record is a public record (``"public": true``)."""
    return source.get("public") is True


def public_record_of(match: Match, **extra: Any) -> dict[str, Any]:
    """Write ``match`` as a public record (records.md, "The public record"): for each
    hand its opener, its moves with every draw written ``"draw"`` (never its tile), and,
    once it is over, the pips each seat showed. No deal and no boneyard.
    """
    hands = []
    for state in match.hands:
        hand: dict[str, Any] = {
            "starter": state.starter,
            "moves": _moves_of(state, private=False),
        }
        if state.outcome is not None:
            hand["pips_left"] = list(state.outcome.pips_left)
        hands.append(hand)
    return {"rules": match.rules.to_spec(), "public": True, "hands": hands, **extra}


def _rules_of(data: Mapping[str, Any]) -> Rules:
    """A decoded record's rule set (records.md, ``rules``).

    Raises:
        RecordError: missing, or not a rule set.
    """
    if "rules" not in data:
        raise RecordError("'rules' is missing")
    try:
        return Rules.from_spec(data["rules"])
    except RulesError as exc:
        raise RecordError(f"rules: {exc}") from None


def _decode(source: str | bytes | Mapping[str, Any]) -> Mapping[str, Any]:
    if isinstance(source, (str, bytes)):
        try:
            data = json.loads(source)
        except (ValueError, UnicodeDecodeError) as exc:
            raise RecordError(f"not JSON ({exc})") from None
    else:
        data = source
    if not isinstance(data, Mapping):
        raise RecordError("a record is a JSON object with 'rules' and 'hands'")
    return data


def check_record(source: str | bytes | Mapping[str, Any]) -> dict[str, Any]:
    """The ``domino replay`` output of a record of either kind: a private record is
    replayed in full (:func:`replay`), a public one as far as the public facts allow
    (:func:`replay_public`).

    Raises:
        RecordError: the first problem, naming hand and move (records.md).
    """
    data = _decode(source)
    if is_public(data):
        return replay_public(data)
    return replay_summary(replay(data))


@dataclass
class _PublicHand:
    """The public state of a hand being checked."""

    rules: Rules
    starter: int
    counts: list[int]
    boneyard: int
    ends: tuple[int, int] | None = None
    played: int = 0  # mask of the tiles on the line
    line_pips: int = 0
    passes: int = 0
    order: int = 0
    last_placed: list[int] | None = None
    last_tile: Tile | None = None
    ends_before_last: tuple[int, int] | None = None
    domino_seat: int | None = None
    last_seat: int = 0


def replay_public(source: str | bytes | Mapping[str, Any]) -> dict[str, Any]:
    """Check a public record and score it (records.md, "The public record"): the same
    output as :func:`replay_summary`, with ``pips_left`` null for an unfinished hand.

    What it checks without the hidden tiles: the rules; every tile is of the set, is on
    the line once and fits where it is written; the turn order, with every pass and draw
    written; draws only under ``draw`` while the boneyard holds tiles, and no pass while
    it does; no seat plays more tiles than it was dealt and drew; a hand ends at a
    domino and a finished hand shows pips that the tiles off the line can hold; openers
    after the first hand; the match's end.

    Raises:
        RecordError: the first problem, naming hand and move (records.md).
    """
    data = _decode(source)
    rules = _rules_of(data)
    hands_data = data.get("hands")
    if not isinstance(hands_data, list) or not hands_data:
        raise RecordError("'hands' must be a non-empty list")
    scoring = Scoring(rules)
    score = [0] * rules.sides
    summaries: list[dict[str, Any]] = []
    next_starter: int | None = None
    finished = False
    for number, hand_data in enumerate(hands_data, 1):
        if summaries and summaries[-1]["end"] == "unfinished":
            raise RecordError(f"hand {number - 1} did not finish", hand=number)
        if finished:
            raise RecordError("the match already ended", hand=number)
        summary = _public_hand(rules, scoring, hand_data, number, next_starter)
        winner = summary["winner_team"]
        if winner is not None:
            score[winner] += summary["points"]
        summary["score"] = list(score)
        summaries.append(summary)
        if summary["end"] != "unfinished":
            top = max(score)
            finished = top >= rules.target and score.count(top) == 1
            seat = summary["winner_seat"]
            if rules.next_starter == "winner" and seat is not None:
                next_starter = seat
            else:
                next_starter = (summary.pop("_starter") + 1) % rules.players
        summary.pop("_starter", None)
    return {
        "hands": summaries,
        "score": list(score),
        "winner_team": score.index(max(score)) if finished else None,
        "finished": finished,
    }


def _public_hand(
    rules: Rules, scoring: Scoring, data: object, number: int, expected: int | None
) -> dict[str, Any]:
    if not isinstance(data, Mapping):
        raise RecordError("a hand is an object with 'starter' and 'moves'", hand=number)
    unknown = sorted(set(data) - _PUBLIC_HAND_KEYS)
    if unknown:
        why = " (a public record hides it)" if unknown[0] in ("deal", "boneyard") else ""
        raise RecordError(f"unknown field '{unknown[0]}'{why}", hand=number)
    players = rules.players
    starter = data.get("starter", expected)
    if starter is None:
        raise RecordError(
            "'starter' is required in a public record's first hand (the deal is hidden)",
            hand=number,
        )
    if isinstance(starter, bool) or not isinstance(starter, int) or not 0 <= starter < players:
        raise RecordError(f"starter must be a seat 0..{players - 1}, not {starter!r}", hand=number)
    if expected is not None and starter != expected:
        raise RecordError(
            f"starter {starter} contradicts next_starter (seat {expected} opens)", hand=number
        )
    moves = data.get("moves", [])
    if not isinstance(moves, list):
        raise RecordError("'moves' must be a list", hand=number)
    size = len(rules.tile_set.tiles)
    state = _PublicHand(
        rules,
        starter,
        [rules.hand_tiles] * players,
        size - rules.hand_tiles * players,
        last_placed=[-1] * players,
    )
    turn = starter
    for index, text in enumerate(moves, 1):
        if not isinstance(text, str):
            raise RecordError(f"a move is text, not {text!r}", hand=number, move=index)
        if state.domino_seat is not None:
            raise RecordError(
                f"a move after the hand ended (domino by seat {state.domino_seat})",
                hand=number,
                move=index,
            )
        problem = _public_move(state, turn, text, first=number == 1 and expected is None)
        if problem:
            raise RecordError(problem, hand=number, move=index)
        state.last_seat = turn
        if text != "draw" and state.domino_seat is None:
            turn = (turn + 1) % players
    return _public_outcome(state, scoring, data.get("pips_left"), number)


def _public_move(state: _PublicHand, turn: int, text: str, *, first: bool) -> str | None:
    """Check one move of a public record and apply it to ``state``; the problem, or
    None."""
    rules = state.rules
    if text.startswith("draw "):
        return "a public record never names a drawn tile (write 'draw')"
    try:
        move = Move.parse(text, rules.tile_set)
    except InvalidMoveError as exc:
        return str(exc)
    tile = move.tile
    if move.draw or tile is None:
        if state.ends is None:
            return f"seat {turn} opens the hand, cannot {'draw' if move.draw else 'pass'}"
        drawable = state.boneyard if rules.boneyard is Boneyard.DRAW else 0
        if move.draw:
            if rules.boneyard is not Boneyard.DRAW:
                return f"seat {turn} cannot draw: the boneyard rule is pass (nobody draws)"
            if not drawable:
                return f"seat {turn} cannot draw: the boneyard is empty"
            state.boneyard -= 1
            state.counts[turn] += 1
            state.ends_before_last = None
            return None
        if drawable:
            return f"seat {turn} must draw from the boneyard ({drawable} left), cannot pass"
        state.passes += 1
        if state.passes >= rules.players:
            return "every seat passed in a row: the hand was over (blocked) before this pass"
        return None
    if state.played & tile.mask:
        return f"{tile} is already on the line"
    if state.ends is None:
        if (
            first
            and rules.is_classic
            and rules.first_starter == "double_six"
            and tile != Tile(6, 6)
        ):
            return f"seat {turn} must open with 6-6 (double_six)"
        a, b = (int(x) for x in text.split(" ")[0].split("-"))
        after = (a, b)
    else:
        left, right = state.ends
        on_left, on_right = tile.has(left), tile.has(right)
        if not on_left and not on_right:
            return f"{tile} fits neither end (ends {left} and {right})"
        side = move.side
        if side is None:
            if on_left and on_right and left != right:
                return (
                    f"{tile} fits both ends ({left} and {right}):"
                    " its side (left or right) is required"
                )
            side = Side.RIGHT if on_right else Side.LEFT
        elif (side is Side.LEFT and not on_left) or (side is Side.RIGHT and not on_right):
            return f"{tile} does not fit the {side.value} end (ends {left} and {right})"
        after = (tile.other(left), right) if side is Side.LEFT else (left, tile.other(right))
    if state.counts[turn] == 0:
        return f"seat {turn} has no tile left to play"
    state.ends_before_last = state.ends
    state.ends = after
    state.played |= tile.mask
    state.line_pips += tile.pips
    state.counts[turn] -= 1
    assert state.last_placed is not None
    state.last_placed[turn] = state.order
    state.order += 1
    state.passes = 0
    state.last_tile = tile
    if state.counts[turn] == 0:
        state.domino_seat = turn
    return None


def _public_outcome(
    state: _PublicHand, scoring: Scoring, pips_data: object, number: int
) -> dict[str, Any]:
    rules = state.rules
    players = rules.players
    if pips_data is None:
        if state.domino_seat is not None:
            raise RecordError(
                f"seat {state.domino_seat} went out: the hand is over and 'pips_left' is required",
                hand=number,
            )
        return {
            "end": "unfinished",
            "winner_team": None,
            "winner_seat": None,
            "points": 0,
            "capicua": False,
            "pips_left": None,
            "_starter": state.starter,
        }
    if (
        not isinstance(pips_data, list)
        or len(pips_data) != players
        or not all(isinstance(p, int) and not isinstance(p, bool) and p >= 0 for p in pips_data)
    ):
        raise RecordError(f"'pips_left' must be {players} pip counts, one per seat", hand=number)
    pips = list(pips_data)
    if state.ends is None:
        raise RecordError("a hand with 'pips_left' has no tile on the line", hand=number)
    if state.domino_seat is None and (state.boneyard and rules.boneyard is Boneyard.DRAW):
        raise RecordError(
            f"the hand cannot be blocked while the boneyard holds {state.boneyard} tiles to draw",
            hand=number,
        )
    for seat in range(players):
        if state.counts[seat] == 0 and pips[seat] != 0:
            raise RecordError(f"seat {seat} holds no tile but shows {pips[seat]} pips", hand=number)
    off_line = rules.tile_set.full_mask & ~state.played
    off_pips = sum(t.pips for t in tiles_of(off_line))
    total = sum(pips)
    if (state.boneyard == 0 and total != off_pips) or total > off_pips:
        held = sum(state.counts)
        raise RecordError(
            f"the pips left ({total}) cannot be those of the {held} tiles held"
            f" ({off_pips} pips are off the line)",
            hand=number,
        )
    if state.domino_seat is not None:
        seat = state.domino_seat
        side = rules.side_of(seat)
        assert state.last_tile is not None
        before = state.ends_before_last
        capicua = before is not None and is_capicua(state.last_tile, *before)
        points = scoring.side_points(pips, side, capicua)
        end, winner_team, winner_seat = "domino", side, seat
    else:
        capicua = False
        winner = scoring.blocked_side(pips)
        if winner < 0:
            end, winner_team, winner_seat, points = "blocked", None, None, 0
        else:
            assert state.last_placed is not None
            seat = tranca_seat(winner, pips, state.last_placed) if rules.partnership else winner
            points = scoring.side_points(pips, winner, False)
            end, winner_team, winner_seat = "blocked", winner, seat
    return {
        "end": end,
        "winner_team": winner_team,
        "winner_seat": winner_seat,
        "points": points,
        "capicua": capicua,
        "pips_left": pips,
        "_starter": state.starter,
    }
