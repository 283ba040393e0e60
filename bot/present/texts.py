"""The phrases of the core's events that the screens are built from (a table closed
early, a seat abandoned), in the reader's language. Only the presentation layer reads
this module: front ends show screens (:mod:`bot.present.screens`), not phrases."""

from __future__ import annotations

from collections.abc import Sequence

from bot.core.events import (
    ChatRulesChanged,
    EmoteShown,
    FriendUpdate,
    HandEnded,
    MatchEnded,
    ReportFiled,
    SeatAbandoned,
    SeatGivenBack,
    SeatInfo,
    SeatKept,
    SeatTakenByRobot,
    TableClosed,
    TournamentUpdate,
    TournamentView,
    TurnReminder,
)
from bot.core.tournaments.prizes import SPLITS
from bot.core.vocabulary import AwayReason, CloseReason, FriendNews, TournamentNews
from bot.present.i18n import emote_label, isolate, time_left_text, translator, whole_minutes
from bot.present.labels import (
    LANGUAGE_LABELS,
    preset_label,
    report_reason_label,
    rules_text,
    seat_name,
    team_names,
    tournament_kind_label,
)
from engine.hand import HandOutcome, Termination
from render import net_dollars

__all__ = [
    "CAPTION_LIMIT",
    "GROUP_CLOSES",
    "abandoned_text",
    "back_at_table_text",
    "closed_text",
    "emote_text",
    "entrant_names",
    "friend_text",
    "hand_ended_text",
    "hand_outcome_texts",
    "match_ended_caption",
    "match_money_line",
    "report_filed_text",
    "robot_took_seat_private_text",
    "robot_took_seat_text",
    "rules_changed_text",
    "tournament_round_text",
    "tournament_text",
    "turn_reminder_text",
    "unreachable_text",
]

CAPTION_LIMIT = 1024
"""The longest caption a screen gets (Telegram's photo caption limit, the smallest)."""

TEXT_LIMIT = 4096
"""The longest text a message gets (Telegram's message limit)."""


def abandoned_text(event: SeatAbandoned, language: str) -> str:
    """What a table is told when one of its humans abandons the match: left on purpose,
    or not back within the 5 minutes; the stake forfeited and the robot playing on."""
    _ = translator(language)
    name = event.player.display_name
    if event.reason is AwayReason.BANNED:  # issue 33: the admins banned them
        if event.stake:
            return _(
                "{name} is banned from this group's tables: their stake (${stake}) is forfeited.",
                name=name,
                stake=event.stake,
            )
        return _("{name} is banned from this group's tables.", name=name)
    if event.last:  # the table closes next and says why; no robot plays on
        if event.reason is AwayReason.LEFT:
            if event.stake:
                return _(
                    "{name} left the match: their stake (${stake}) is forfeited.",
                    name=name,
                    stake=event.stake,
                )
            return _("{name} left the match.", name=name)
        if event.stake:
            return _(
                "{name} did not come back in time: their stake (${stake}) is forfeited.",
                name=name,
                stake=event.stake,
            )
        return _("{name} did not come back in time.", name=name)
    if event.reason is AwayReason.LEFT:
        if event.stake:
            return _(
                "{name} left the match: their stake (${stake}) is forfeited and a robot "
                "plays their seat to the end.",
                name=name,
                stake=event.stake,
            )
        return _("{name} left the match: a robot plays their seat to the end.", name=name)
    if event.stake:
        return _(
            "{name} did not come back in time: their stake (${stake}) is forfeited and a "
            "robot plays their seat to the end.",
            name=name,
            stake=event.stake,
        )
    return _("{name} did not come back in time: a robot plays their seat to the end.", name=name)


GROUP_CLOSES = frozenset(
    {
        CloseReason.NO_HUMANS,
        CloseReason.CANCELLED,
        CloseReason.BY_ADMIN,
        CloseReason.DECLINED,
        CloseReason.EXPIRED,
        CloseReason.NO_SHOW,
    }
)
"""The early closes a table's chat is told about (:func:`closed_text`); an unreachable
chat's players are told privately, and an empty or finished table says it all itself."""


def closed_text(event: TableClosed, language: str) -> str:
    """Why a table closed early (empty for a finished match: its result says it all)."""
    _ = translator(language)
    if event.reason is CloseReason.EMPTY:
        return _("The table closed before the match started; nothing was paid.")
    if event.reason is CloseReason.NO_HUMANS and event.tournament:  # no stake to keep
        return _("The table closed: every player left the match; the last to leave lost it.")
    if event.reason is CloseReason.NO_HUMANS:
        return _("The table closed: every player left the match; their stakes stay in the pot.")
    if event.reason is CloseReason.CANCELLED:
        return _("The table closed; stakes were refunded.")
    if event.reason is CloseReason.UNREACHABLE:
        return unreachable_text(event, "", language)
    if event.reason is CloseReason.BY_ADMIN:
        return _("An administrator closed the table; stakes were refunded.")
    if event.reason is CloseReason.DECLINED:
        return _(
            "The challenge at table {label} was declined; nothing was paid.", label=event.label
        )
    if event.reason is CloseReason.EXPIRED:
        return _(
            "Nobody took up the challenge at table {label} in time; the table closed and "
            "nothing was paid.",
            label=event.label,
        )
    if event.reason is CloseReason.NO_SHOW:
        return _(
            "Table {label} closed: a seat stayed empty, and its player loses the match.",
            label=event.label,
        )
    return ""


def unreachable_text(event: TableClosed, place: str, language: str) -> str:
    """What each player of a table is told privately when it closed because the bot can
    no longer use its chat (deleted, the bot removed, a right taken away): ``place`` the
    chat as the platform names it ("Amigos", "Club · #domino"), "" when unknown."""
    _ = translator(language)
    label = event.label or event.table_id
    if place and event.refunds:
        return _(
            "Table {label} ({place}) closed: the bot can no longer use its chat. Nobody "
            "lost: stakes were refunded.",
            label=label,
            place=place,
        )
    if place:
        return _(
            "Table {label} ({place}) closed: the bot can no longer use its chat. Nothing was paid.",
            label=label,
            place=place,
        )
    if event.refunds:
        return _(
            "Table {label} closed: the bot can no longer use its chat. Nobody lost: "
            "stakes were refunded.",
            label=label,
        )
    return _(
        "Table {label} closed: the bot can no longer use its chat. Nothing was paid.", label=label
    )


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
    how, result = hand_outcome_texts(
        event.outcome, event.hand_points, seats, event.view.rules.partnership, language
    )
    return _(
        "Table {label} · hand {hand}: {how}. {result} Score: {score}",
        label=label,
        hand=event.hand_number,
        how=how,
        result=result,
        score=" – ".join(map(str, event.score)),
    )


def hand_outcome_texts(
    outcome: HandOutcome,
    hand_points: Sequence[int],
    seats: Sequence[SeatInfo],
    partnership: bool,
    language: str,
) -> tuple[str, str]:
    """How a hand ended and who scored: ``("domino by Ana", "Ana y Luis win 24
    points.")`` (a hand's message, a match record's page)."""
    _ = translator(language)
    if outcome.end is Termination.DOMINO:
        closer = outcome.winner_seat if outcome.winner_seat is not None else outcome.last_seat
        how = _("domino by {name}", name=seat_name(seats, closer, language))
        if outcome.capicua:
            how += " " + _("(capicúa!)")
    else:
        how = _("blocked (tranca)")
    if outcome.winner_team is None:
        result = _("Nobody scores.")
    elif partnership:
        team = outcome.winner_team
        result = _.ngettext(
            "{team} win {n} point.",
            "{team} win {n} points.",
            hand_points[team],
            team=team_names(seats, team, language),
        )
    else:  # a side is one seat (rules.md, "Formats")
        result = _.ngettext(
            "{name} wins {n} point.",
            "{name} wins {n} points.",
            hand_points[outcome.winner_team],
            name=seat_name(seats, outcome.winner_team, language),
        )
    return how, result


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


def tournament_text(event: TournamentUpdate, language: str) -> str:
    """What a tournament's chat is told of ``event`` (docs/tournaments.md, "What the chat
    sees"), or "" for news it is not told of as a message (a single result: the
    standings come with the next round)."""
    _ = translator(language)
    view, news = event.view, event.news
    name = view.name or _("the tournament")  # within a sentence
    title = view.name or _("The tournament")  # at its start
    by = event.player.display_name if event.player is not None else ""
    if news is TournamentNews.OPENED:
        kind = tournament_kind_label(view.kind, view.partners, language)
        preset = preset_label(view.preset, language)
        left = time_left_text(view.seconds_left, language)
        if not view.fee:  # nothing paid, nothing won: no pool to share
            return "\n".join(
                [
                    _(
                        "{by} opened {name}: {kind}, {format}, free.",
                        by=by,
                        name=name,
                        kind=kind,
                        format=preset,
                    ),
                    _("Sign-up closes in {left}.", left=left),
                ]
            )
        return "\n".join(
            [
                _(
                    "{by} opened {name}: {kind}, {format}, entry fee ${fee}.",
                    by=by,
                    name=name,
                    kind=kind,
                    format=preset,
                    fee=view.fee,
                ),
                _(
                    "Sign-up closes in {left}. Prizes: {split} percent of the pool.",
                    left=left,
                    split="/".join(map(str, SPLITS[max(SPLITS)])),
                ),
            ]
        )
    if news in (TournamentNews.JOINED, TournamentNews.LEFT):  # the sign-up sheet, edited
        said = (
            _("{name} signed up.", name=by)
            if news is TournamentNews.JOINED
            else _("{name} left the tournament.", name=by)
        )
        return (said + "\n" + signed_text(view, language))[:TEXT_LIMIT]
    if news is TournamentNews.STARTED:
        lines = [
            _.ngettext(
                "{name} starts: {n} entrant, a pool of ${pool}.",
                "{name} starts: {n} entrants, a pool of ${pool}.",
                view.entrants,
                name=title,
                pool=view.pool,
            )
            if view.pool
            else _.ngettext(
                "{name} starts: {n} entrant.",
                "{name} starts: {n} entrants.",
                view.entrants,
                name=title,
            )
        ]
        if view.dropped:
            lines.append(
                _("Not entered (could not pay the fee): {names}.", names=", ".join(view.dropped))
            )
        return "\n".join(lines)
    if news is TournamentNews.ROUND:  # the tables just opened (an arena's, a few at a time)
        return tournament_round_text(view, language, only=event.opened)
    if news is TournamentNews.STANDINGS:  # an arena's, edited in place as results come
        lines = [
            _(
                "{name} · standings, {left} to go",
                name=title,
                left=time_left_text(view.seconds_left, language),
            )
        ]
        lines.extend(
            _(
                "{place}. {names} · {score} pts",
                place=row.place,
                names=entrant_names(row.names, language),
                score=row.score,
            )
            for row in view.standings[:5]
        )
        return "\n".join(lines)[:TEXT_LIMIT]
    if news is TournamentNews.FINISHED:
        lines = [_("{name} is over.", name=title)]
        for place in view.places[:8]:
            line = _(
                "{place}. {names}", place=place.number, names=entrant_names(place.names, language)
            )
            if place.prize:
                line += f" (${place.prize})"
            lines.append(line)
        return "\n".join(lines)[:TEXT_LIMIT]
    if news is TournamentNews.CANCELLED:
        if not view.refunded:  # nothing was held: a free tournament, or before its start
            return _("{by} cancelled {name}.", by=by, name=name)
        return _(
            "{by} cancelled {name}; every entry fee held was refunded (${refunded}).",
            by=by,
            name=name,
            refunded=view.refunded,
        )
    if news is TournamentNews.TOO_FEW:
        return _("{name} did not start: too few entrants. Nothing was paid.", name=title)
    return ""


def entrant_names(names: Sequence[str], language: str) -> str:
    """An entrant's players: "Ana", or "Ana y Luis"."""
    if len(names) == 2:
        return translator(language)("{first} and {second}", first=names[0], second=names[1])
    return ", ".join(names)


def signed_text(view: TournamentView, language: str) -> str:
    """Who signed up so far: "3 jugadores inscritos: Ana, Beto, Carla" (the sign-up
    sheet edited in place, ``/torneo``)."""
    _ = translator(language)
    if not view.signed:
        return _("Nobody has signed up yet.")
    count = _.ngettext("{n} player signed up", "{n} players signed up", len(view.signed))
    return count + ": " + ", ".join(view.signed)


def seat_kept_text(event: SeatKept, language: str) -> str:
    """A tournament table played privately: where ``event.to`` sits, against whom, and
    how long the seat waits (docs/tournaments.md, "Within the platforms' limits")."""
    _ = translator(language)
    said = {
        "name": event.tournament or _("The tournament"),
        "label": event.label,
        "opponents": entrant_names(event.opponents, language),
        "minutes": whole_minutes(event.wait_seconds),
    }
    if event.partners:
        return _(
            "{name}: your table is number {label}, with {partner} as your partner, against "
            "{opponents}. Sit down now: a seat still empty in {minutes} min loses the match.",
            partner=entrant_names(event.partners, language),
            **said,
        )
    return _(
        "{name}: your table is number {label}, against {opponents}. Sit down now: a seat "
        "still empty in {minutes} min loses the match.",
        **said,
    )


def _standing_lines(view: TournamentView, language: str) -> list[str]:
    """The top of a Swiss's or an arena's standings, after round 1."""
    _ = translator(language)
    if not view.standings or view.round <= 1:
        return []
    lines = [_("Standings:")]
    for row in view.standings[:5]:
        lines.append(
            _(
                "{place}. {names} · {score} pts",
                place=row.place,
                names=entrant_names(row.names, language),
                score=row.score,
            )
        )
    return lines


def tournament_round_text(view: TournamentView, language: str, *, only: Sequence[str] = ()) -> str:
    """The round in play: each table's pairing (``only`` these labels, when given), the
    no-show rule, and the standings."""
    _ = translator(language)
    title = view.name or _("The tournament")
    lines = [_("{name} · round {round}", name=title, round=view.round)]
    lines.extend(
        _(
            "Table {label}: {first} against {second}",
            label=pairing.label,
            first=entrant_names(pairing.first, language),
            second=entrant_names(pairing.second, language),
        )
        for pairing in view.pairings
        if not only or pairing.label in only
    )
    if view.pairings:
        lines.append(
            _(
                "Sit at your table now: a seat still empty in {minutes} min loses the match.",
                minutes=whole_minutes(view.wait_seconds),
            )
        )
    lines.extend(_standing_lines(view, language))
    return "\n".join(lines)[:TEXT_LIMIT]


def friend_text(event: FriendUpdate, place: str, language: str) -> str:
    """What one player is told about friends (docs/friends.md): a request waiting for
    their answer, a request of theirs accepted, or an invitation to a table (``place``:
    the chat as its platform names it, "" when unknown) and how long its seat waits."""
    _ = translator(language)
    name = event.friend
    if event.news is FriendNews.REQUESTED:
        return _("{name} sent you a friend request.", name=name)
    if event.news is FriendNews.ACCEPTED:
        return _("{name} accepted your friend request: you are friends now.", name=name)
    left = time_left_text(event.seconds, language)
    if place:
        return _(
            "{name} invites you to table {label} in {place}. Your seat waits for you {left}.",
            name=name,
            label=event.label,
            place=place,
            left=left,
        )
    return _(
        "{name} invites you to table {label}. Your seat waits for you {left}.",
        name=name,
        label=event.label,
        left=left,
    )


def report_filed_text(event: ReportFiled, language: str) -> str:
    """What a chat's admins are told of a report (issue 33): who reported whom, why,
    and the match it is about."""
    _ = translator(language)
    report = event.report
    reason = report_reason_label(report.reason, language)
    text = _(
        "Report {number}: {reporter} reported {reported} for {reason}.",
        number=report.id,
        reporter=isolate(report.reporter),
        reported=isolate(report.reported),
        reason=reason,
    )
    if report.match_id:
        text += "\n" + _("Match record: {match}.", match=report.match_id)
    return text
