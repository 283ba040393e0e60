"""The table's screens as text: the board's caption, a player's hand caption, and the
results of a hand and of a match, in the reader's language.

Phrased from values the table manager computed (scores, points, payouts): nothing here
decides a rule, a score or an amount. Front ends show these beside the pictures.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.core.commands import PlayerRef
from bot.core.events import (
    ChatRulesChanged,
    EmoteShown,
    Event,
    HandEnded,
    MatchEnded,
    SeatAbandoned,
    SeatGivenBack,
    SeatInfo,
    SeatTakenByRobot,
    TableChanged,
    TableClosed,
    TurnReminder,
    YourTiles,
)
from bot.present.i18n import emote_label, isolate, time_left_text, translator, whole_minutes
from bot.present.labels import (
    LANGUAGE_LABELS,
    move_text,
    rules_text,
    score_line,
    seat_name,
    team_names,
)
from bot.present.texts import GROUP_CLOSES, abandoned_text, closed_text
from engine.hand import Termination
from render import net_dollars

__all__ = [
    "CAPTION_LIMIT",
    "back_at_table_text",
    "board_caption",
    "board_text",
    "challenge_lines",
    "chat_notice",
    "emote_text",
    "hand_caption",
    "hand_ended_text",
    "match_ended_caption",
    "match_money_line",
    "my_tables_text",
    "robot_took_seat_private_text",
    "robot_took_seat_text",
    "rules_changed_text",
    "turn_reminder_text",
]

CAPTION_LIMIT = 1024
"""The longest caption a screen gets (Telegram's photo caption limit, the smallest)."""

TEXT_LIMIT = 4096
"""The longest text a screen gets (Telegram's message limit)."""


def board_caption(event: TableChanged, language: str, *, emote: str | None = None) -> str:
    """The board's caption: table, phase, whose turn and time left, score, last move."""
    _ = translator(language)
    seats = event.seats
    lines: list[str] = []
    if event.phase == "waiting" and event.challenge:  # a reto waiting for its answer
        lines.append(_("Table {label} · challenge", label=event.label))
        lines.extend(challenge_lines(event, language))
    elif event.phase == "waiting":
        free = sum(1 for s in seats if s.is_open)
        lines.append(_("Table {label} · waiting for players", label=event.label))
        names = [s.name for s in seats if not s.is_open]
        if names:
            lines.append(_("Players: {names}", names=", ".join(names)))
        lines.append(_.ngettext("{n} free seat", "{n} free seats", free))
        if event.seconds_left is not None:
            lines.append(_("Robots fill the table in {seconds} s", seconds=event.seconds_left))
        lines.append(_("Press a seat button or send /jugar."))
    elif event.phase == "countdown":
        lines.append(_("Table {label} · starting", label=event.label))
        if event.rules.sides == 2:  # two partnerships, or one against one
            partnership = event.rules.partnership
            lines.append(
                _(
                    "{team0} against {team1}",
                    team0=team_names(seats, 0, language, partnership=partnership),
                    team1=team_names(seats, 1, language, partnership=partnership),
                )
            )
        else:  # each for themselves, three or four
            everyone = (seat_name(seats, seat, language) for seat in range(len(seats)))
            lines.append(_("Players: {names}", names=", ".join(everyone)))
        if event.seconds_left is not None:
            lines.append(_("The match starts in {seconds} s", seconds=event.seconds_left))
    else:
        view = event.view
        header = _("Table {label}", label=event.label)
        if event.hand_number:
            header += " · " + _("Hand {hand}", hand=event.hand_number)
        header += " · " + _("Match to {target}", target=event.rules.target)
        lines.append(header)
        score = view.match_score if view is not None else (0,) * event.rules.sides
        lines.append(score_line(seats, score, language, partnership=event.rules.partnership))
        if event.phase == "ended":
            lines.append(_("The match is over."))
        elif event.turn is not None and (view is None or view.outcome is None):
            if event.seconds_left is not None and event.rules.is_slow:  # hours, not seconds
                lines.append(
                    _(
                        "Turn: {name} ({left} left)",
                        name=seat_name(seats, event.turn, language),
                        left=time_left_text(event.seconds_left, language),
                    )
                )
            elif event.seconds_left is not None:
                lines.append(
                    _(
                        "Turn: {name} ({seconds} s)",
                        name=seat_name(seats, event.turn, language),
                        seconds=event.seconds_left,
                    )
                )
            else:
                lines.append(_("Turn: {name}", name=seat_name(seats, event.turn, language)))
        if view is not None and view.last_move is not None:
            seat, move = view.last_move
            lines.append(
                _(
                    "Last: {name} {move}",
                    name=seat_name(seats, seat, language),
                    move=move_text(move, language),
                )
            )
    if emote:
        lines.append("💬 " + emote)
    return "\n".join(lines)[:CAPTION_LIMIT]


def challenge_lines(event: TableChanged, language: str) -> list[str]:
    """A challenge waiting for its answer: who challenges whom, and the time to answer
    ("Ana reta a Beto a uno contra uno.", "Beto: acepta o rechaza en 120 s.")."""
    _ = translator(language)
    seats = event.seats
    challenger = next((s.name for s in seats if not s.is_open), "")
    challenged = next((s.reserved_for.display_name for s in seats if s.reserved_for), "")
    lines = [
        _(
            "{challenger} challenges {challenged} to one against one.",
            challenger=challenger,
            challenged=challenged,
        )
    ]
    if event.seconds_left is not None:
        lines.append(
            _(
                "{challenged}: accept or decline within {seconds} s.",
                challenged=challenged,
                seconds=event.seconds_left,
            )
        )
    return lines


def board_text(event: TableChanged, language: str, *, emote: str | None = None) -> str:
    """The board without its picture (where pictures cannot be sent): the caption, then
    the line of play left to right (``[6|6][6|4]``) and how many tiles each seat holds."""
    _ = translator(language)
    lines = [board_caption(event, language, emote=emote)]
    view = event.view
    if view is not None:
        line = "".join(f"[{p.left}|{p.right}]" for p in view.line)
        lines.append(_("Line: {line}", line=line or _("(empty)")))
        counts = ", ".join(
            f"{seat_name(event.seats, seat, language)} {count}"
            for seat, count in enumerate(view.tile_counts)
        )
        lines.append(_("Tiles left: {counts}", counts=counts))
    return "\n".join(lines)[:TEXT_LIMIT]


def hand_caption(
    event: YourTiles,
    language: str,
    *,
    group: str,
    seconds_left: int | None = None,
    match_over: bool = False,
) -> str:
    """The private hand picture's caption; it names the table and the group.

    It says only what stays true until the next time it is shown: whose turn it is
    goes on the board (the player's own turn is shown anew), and once the hand is over
    (``event`` the last tiles shown) or the match (``match_over``) it says so.
    """
    _ = translator(language)
    where = _("Table {label} in {group}", label=event.label, group=group)
    if match_over:
        return where + "\n" + _("The match is over.")
    if event.is_your_turn:
        if seconds_left is not None and event.view.rules.is_slow:  # a slow table: hours
            left = time_left_text(seconds_left, language)
            return where + "\n" + _("Your turn! You have {left}.", left=left)
        if seconds_left is not None:
            return where + "\n" + _("Your turn! You have {seconds} s.", seconds=seconds_left)
        return where + "\n" + _("Your turn!")
    return where + "\n" + _("Your tiles (hand {hand}).", hand=event.hand_number)


def chat_notice(
    event: Event, language: str, *, server: bool, back: str, anonymous: bool = False
) -> str | None:
    """What a table's chat is told of ``event`` as a message of its own, or None: a robot
    taking a seat (``back``: how a player comes back there), a seat abandoned, a player
    back, a table closed early (:data:`bot.present.texts.GROUP_CLOSES`), the chat's rules
    changed (``server``: a Discord server, else a Telegram group; ``anonymous``: by an
    administrator writing as the group). The one home of which events the chat reads."""
    if isinstance(event, SeatTakenByRobot):
        return robot_took_seat_text(event, language, back=back)
    if isinstance(event, SeatAbandoned):
        return abandoned_text(event, language)
    if isinstance(event, SeatGivenBack):
        return back_at_table_text(event, language)
    if isinstance(event, TableClosed) and event.reason in GROUP_CLOSES:
        return closed_text(event, language)
    if isinstance(event, ChatRulesChanged):
        return rules_changed_text(event, language, server=server, anonymous=anonymous)
    return None


def rules_changed_text(
    event: ChatRulesChanged, language: str, *, server: bool, anonymous: bool = False
) -> str:
    """What a chat is told when its admins change its rules or language: who did it (an
    administrator, when ``anonymous``: writing as the group), then the rule set, one
    option a line. ``server``: the chat is a Discord server, else a Telegram group."""
    _ = translator(language)
    name = _("An administrator") if anonymous else event.by.display_name
    lines = []
    if event.language is not None:
        chosen = LANGUAGE_LABELS[event.language]
        if server:
            lines.append(
                _("{name} set this server's language: {language}.", name=name, language=chosen)
            )
        else:
            lines.append(
                _("{name} set this group's language: {language}.", name=name, language=chosen)
            )
    if event.rules_changed:
        if server:
            lines.append(_("{name} changed this server's rules.", name=name))
        else:
            lines.append(_("{name} changed this group's rules.", name=name))
        lines.append(rules_text(event.rules, event.preset, event.overrides, language))
    return "\n".join(lines)


def robot_took_seat_text(event: SeatTakenByRobot, language: str, *, back: str) -> str:
    """The chat is told a robot plays a player's seat now, and for how long they may come
    back (``back``: how, on the platform: ``"/volver"``, the board's button)."""
    return translator(language)(
        "A robot plays for {name} now; they can come back within {minutes} min ({back}).",
        name=event.player.display_name,
        minutes=whole_minutes(event.seconds),
        back=back,
    )


def robot_took_seat_private_text(event: SeatTakenByRobot, label: str, language: str) -> str:
    """The player is told privately a robot plays their seat at table ``label``."""
    return translator(language)(
        "A robot plays for you at table {label}. Come back within {minutes} min to keep "
        "your seat and your stake.",
        label=label,
        minutes=whole_minutes(event.seconds),
    )


def back_at_table_text(event: SeatGivenBack, language: str) -> str:
    """ "Ana volvió a la mesa." """
    return translator(language)("{name} is back at the table.", name=event.player.display_name)


def emote_text(event: EmoteShown, language: str) -> str:
    """An emote as the chat reads it: "Ana: ¡Buena!"."""
    return translator(language)(
        "{name}: {emote}",
        name=isolate(event.player.display_name),
        emote=emote_label(event.name, language),
    )


def my_tables_text(
    tables: Sequence[tuple[TableChanged, str]], player: PlayerRef, language: str, *, play: str
) -> str:
    """``/mesas``: a player's tables, one a line, each with where it is (``place``, as
    the front end names it) and whose turn it is: "Mesa 2 · Amigos · lenta · te toca
    (quedan 6 horas)" (rules.md, "Slow tables"); without any, how to sit (``play``: the
    platform's command)."""
    _ = translator(language)
    if not tables:
        return _("You have no table now. {play} sits you at one.", play=play)
    lines = []
    for event, place in tables:
        parts = [_("Table {label}", label=event.label), place]
        if event.rules.is_slow:
            parts.append(_("slow"))
        seat = event.turn
        if event.phase in ("waiting", "countdown"):
            parts.append(_("waiting for players"))
        elif seat is None:
            parts.append(_("between hands"))
        elif (who := event.seats[seat].player) is not None and who.key == player.key:
            if event.seconds_left is not None and event.rules.is_slow:
                left = time_left_text(event.seconds_left, language)
                parts.append(_("your turn ({left} left)", left=left))
            else:
                parts.append(_("your turn"))
        else:
            parts.append(_("{name} to play", name=seat_name(event.seats, seat, language)))
        lines.append(" · ".join(parts))
    return "\n".join(lines)[:TEXT_LIMIT]


def turn_reminder_text(event: TurnReminder, group: str, language: str) -> str:
    """A slow table's reminder, privately: "Mesa 2 en Amigos: tu turno sigue esperando;
    te quedan 6 horas." (rules.md, "Slow tables")."""
    return translator(language)(
        "Table {label} in {group}: your turn is still waiting; {left} left.",
        label=event.label,
        group=group,
        left=time_left_text(event.seconds, language),
    )


def hand_ended_text(event: HandEnded, seats: Sequence[SeatInfo], label: str, language: str) -> str:
    """``"Hand 2: domino by Ana. Ana y Luis win 24 points. Score: 24 – 34"``."""
    _ = translator(language)
    outcome = event.outcome
    if outcome.end is Termination.DOMINO:
        closer = outcome.winner_seat if outcome.winner_seat is not None else outcome.last_seat
        how = _("domino by {name}", name=seat_name(seats, closer, language))
        if outcome.capicua:
            how += " " + _("(capicúa!)")
    else:
        how = _("blocked (tranca)")
    partnership = event.view.rules.partnership
    if outcome.winner_team is None:
        result = _("Nobody scores.")
    elif partnership:
        team = outcome.winner_team
        result = _.ngettext(
            "{team} win {n} point.",
            "{team} win {n} points.",
            event.hand_points[team],
            team=team_names(seats, team, language),
        )
    else:  # a side is one seat (rules.md, "Formats")
        result = _.ngettext(
            "{name} wins {n} point.",
            "{name} wins {n} points.",
            event.hand_points[outcome.winner_team],
            name=seat_name(seats, outcome.winner_team, language),
        )
    return _(
        "Table {label} · hand {hand}: {how}. {result} Score: {score}",
        label=label,
        hand=event.hand_number,
        how=how,
        result=result,
        score=" – ".join(map(str, event.score)),
    )


def match_ended_caption(event: MatchEnded, label: str, language: str) -> str:
    """Who won, the final score and what each human received."""
    _ = translator(language)
    score = " – ".join(map(str, event.score))
    if event.view.rules.partnership:
        team = team_names(event.seats, event.winner_team, language)
        first = _(
            "Table {label}: {team} win the match {score}!", label=label, team=team, score=score
        )
    else:  # a side is one seat (rules.md, "Formats")
        name = seat_name(event.seats, event.winner_team, language)
        first = _(
            "Table {label}: {name} wins the match {score}!", label=label, name=name, score=score
        )
    lines = [first]
    money = match_money_line(event, language)
    if money:
        lines.append(money)
    return "\n".join(lines)[:CAPTION_LIMIT]


def match_money_line(event: MatchEnded, language: str) -> str:
    """What each human won or lost, on the results picture's base: net of the stake
    (``render.net_dollars``), e.g. "Resultado neto (apuesta $10): Beto +$10, Ana −$10";
    empty without a stake or a human. A seat that abandoned shows its lost stake."""
    stake = event.view.rules.stake
    humans = [seat for seat in event.seats if seat.player is not None]
    if not stake or not humans:
        return ""
    results = ", ".join(
        f"{seat.name} {net_dollars(stake, event.payouts.get(seat.seat, 0))}" for seat in humans
    )
    return translator(language)(
        "Net result (stake ${stake}): {results}", stake=stake, results=results
    )
