"""The screens answering a command: what a refusal says, the sentence confirming an
accepted command or press to its actor, and the help's line on the formats, in the
reader's language (one home per phrase)."""

from __future__ import annotations

from collections.abc import Callable, Mapping

from bot.core.commands import (
    AcceptLinkCode,
    AnswerFriend,
    AskFriend,
    BanPlayer,
    Challenge,
    CloseTable,
    Command,
    DismissReport,
    FriendPress,
    GiveLinkCode,
    InviteFriend,
    JoinTournament,
    Leave,
    LeaveTournament,
    Mute,
    OpenTable,
    PlayNow,
    Rematch,
    RemoveFriend,
    ReportPlayer,
    SetChatRules,
    SetReportChannel,
    SitAt,
    UnbanPlayer,
    Unlink,
)
from bot.core.events import ModerationDesk, Refusal, Reply
from bot.core.vocabulary import FriendNews, PressKind, RefusalReason
from bot.present.i18n import N_, isolate, refusal_text, time_left_text, translator
from bot.present.labels import (
    allowed_text,
    option_word,
    platform_label,
    preset_label,
    report_reason_label,
    report_reason_words,
    tournament_option_word,
)

__all__ = [
    "ModerationCommand",
    "bad_rules_text",
    "confirmation",
    "formats_help",
    "friend_done_text",
    "left_text",
    "link_in_private_text",
    "link_text",
    "moderation_desk_text",
    "moderation_done",
    "refused",
    "report_usage",
    "rules_changed_text",
    "seated_text",
]


def refused(
    refusal: Refusal,
    language: str | None = None,
    typed: Mapping[str, str] | None = None,
    *,
    place: str = "",
) -> str:
    """A refusal as a sentence, in ``language`` or the refused player's.

    ``typed``: for refused rules (``bad_rules``), what the admin typed for each option
    (``{"target": "meta=7"}``), so the sentence names it in their words; without it
    each option is named by the word a player of ``language`` types.
    ``place`` is how the front end names where the refusal's table is (e.g. a Discord
    channel mention): a seat already taken at a table elsewhere in the chat (rules.md,
    "The house": one table at a time per chat) is said with it.
    """
    language = language or refusal.to.language
    params = refusal.params
    if "platform" in params:  # a platform named in a sentence: its proper name
        params = {**params, "platform": platform_label(str(params["platform"]))}
    if refusal.reason is RefusalReason.BAD_RULES:
        return bad_rules_text(refusal, language, typed or {})
    if refusal.reason is RefusalReason.UNKNOWN_REASON:  # the words this player types
        reasons = ", ".join(report_reason_words(language))
        return refusal_text(refusal.reason, {**params, "reasons": reasons}, language)
    if refusal.reason is RefusalReason.BAD_TOURNAMENT:  # the option in the admin's word
        option = tournament_option_word(str(params.get("option", "")), language)
        return refusal_text(refusal.reason, {**params, "option": option}, language)
    if refusal.reason is RefusalReason.ALREADY_SEATED and params.get("elsewhere"):
        _ = translator(language)
        if place:
            return _(
                "You already have a seat at table {label}, in {place}. Finish or leave it "
                "first: one table at a time.",
                label=params.get("label", ""),
                place=place,
            )
        return _(
            "You already have a seat at table {label}. Finish or leave it first: one table "
            "at a time.",
            label=params.get("label", ""),
        )
    return refusal_text(refusal.reason, params, language)


def bad_rules_text(refusal: Refusal, language: str, typed: Mapping[str, str]) -> str:
    """Every bad option of a ``bad_rules`` refusal, one a line, in the admin's words:
    "meta=7 no vale: meta puede ser 50, 100, 150, 200, 300 o 500."."""
    _ = translator(language)
    names = str(refusal.params.get("options") or refusal.params.get("option") or "").split()
    lines = []
    for option in names:
        word = option_word(option, language)
        allowed = allowed_text(option, language)
        if option in typed:
            lines.append(
                _(
                    "{typed} is not valid: {option} can be {allowed}.",
                    typed=typed[option],
                    option=word,
                    allowed=allowed,
                )
            )
        else:
            lines.append(_("{option} can be {allowed}.", option=word, allowed=allowed))
    return "\n".join(lines) or _("That cannot be done now.")


def seated_text(reply: Reply, language: str) -> str:
    """ "You sit at table 3, seat 2." after a seating command."""
    seat = (reply.seat or 0) + 1
    return translator(language)(
        "You sit at table {label}, seat {seat}.", label=reply.label, seat=seat
    )


def left_text(reply: Reply, language: str) -> str:
    """ "You left table 3." after ``Leave`` before the match started; leaving a started
    match says the stake is forfeited (``Reply.forfeited``) and the robot plays on."""
    _ = translator(language)
    if reply.forfeited is None:
        return _("You left table {label}.", label=reply.label)
    if reply.match_ended:  # nobody was left to play on
        if reply.forfeited:
            return _(
                "You left table {label}: your stake (${stake}) is forfeited, and with no "
                "player left the match ends.",
                label=reply.label,
                stake=reply.forfeited,
            )
        return _("You left table {label}: with no player left the match ends.", label=reply.label)
    if reply.forfeited:
        return _(
            "You left table {label}: your stake (${stake}) is forfeited and a robot plays "
            "your seat to the end.",
            label=reply.label,
            stake=reply.forfeited,
        )
    return _("You left table {label}: a robot plays your seat to the end.", label=reply.label)


def rules_changed_text(reply: Reply, language: str) -> str:
    """ "Rules changed: Venezolano." after ``SetChatRules``."""
    return translator(language)(
        "Rules changed: {preset}.", preset=preset_label(reply.preset, language)
    )


def formats_help(language: str, play: str) -> str:
    """The help's line on the other formats, ``play`` the platform's command
    (``"/jugar"``, ``"/domino jugar formato:"``; rules.md, "Formats at the tables")."""
    return translator(language)(
        "Other ways to play: {play} 1v1 (one against one, drawing from the boneyard), "
        "individual (each for themselves) or cubano (double-nine).",
        play=play,
    )


_SEATING: tuple[type[Command] | PressKind, ...] = (
    PlayNow,
    Challenge,
    OpenTable,
    SitAt,
    Rematch,
    PressKind.SIT,
    PressKind.AGAIN,
)


def confirmation(done: type[Command] | PressKind, reply: Reply, language: str) -> str:
    """The short sentence confirming an accepted command (or button press) to the actor;
    empty when nothing needs saying (a move, an emote: the table shows it)."""
    if not reply.ok:
        return ""
    if done in _SEATING:
        return seated_text(reply, language)
    if done in (Leave, PressKind.LEAVE):
        return left_text(reply, language)
    if done is SetChatRules:
        return rules_changed_text(reply, language)
    if done is JoinTournament:
        return translator(language)("You are signed up for the tournament.")
    if done is LeaveTournament:
        return translator(language)("You left the tournament.")
    if done in (GiveLinkCode, AcceptLinkCode, Unlink):
        return link_text(done, reply, language)
    if done is CloseTable:
        return translator(language)(
            "You closed table {label}; every stake was refunded.", label=reply.label
        )
    if done in (AskFriend, AnswerFriend, RemoveFriend, FriendPress):
        return friend_done_text(done, reply, language)
    return ""


def friend_done_text(
    done: type[Command] | PressKind, reply: Reply, language: str, *, invite_seconds: float = 0
) -> str:
    """The sentence confirming a friends command or button (docs/friends.md); the
    friend's name is ``reply.label`` (for a seat taken, the table's number).
    ``invite_seconds``: how long an invitation keeps its seat (``InviteFriend``)."""
    _ = translator(language)
    name = reply.label
    if done is InviteFriend:
        return _(
            "I told {name}: seat {seat} waits for them {left}.",
            name=name,
            seat=(reply.seat or 0) + 1,
            left=time_left_text(invite_seconds, language),
        )
    if done is FriendPress and reply.table_id is not None:  # an invitation's seat taken
        return seated_text(reply, language)
    if done is AskFriend and reply.friend is FriendNews.REQUESTED:
        return _("I sent {name} your friend request.", name=name)
    if done is RemoveFriend:
        return _("{name} is no longer on your friends list.", name=name)
    if reply.friend is FriendNews.ACCEPTED and done is AskFriend:
        return _("{name} had asked you too: you are friends now.", name=name)
    if reply.friend is FriendNews.ACCEPTED:
        return _("You and {name} are friends now.", name=name)
    return _("You declined {name}'s friend request.", name=name)


ModerationCommand = Mute | ReportPlayer | DismissReport | BanPlayer | UnbanPlayer | SetReportChannel


def moderation_done(command: ModerationCommand, language: str) -> str:
    """The sentence confirming an accepted mute, report or admin action (issue 33)."""
    _ = translator(language)
    match command:
        case Mute(target=target, mute=True):
            return _(
                "You muted {name}: their phrases no longer reach you. Nobody is told.",
                name=isolate(target.display_name),
            )
        case Mute(target=target):
            return _("You hear {name} again.", name=isolate(target.display_name))
        case ReportPlayer(target=target):
            return _(
                "Thank you: your report about {name} went to this group's admins.",
                name=isolate(target.display_name),
            )
        case DismissReport(report_id=number):
            return _("Report {number} dismissed.", number=number)
        case BanPlayer(target=None, report_id=number):
            return _(
                "Report {number}: the player is banned from this group's tables.",
                number=number,
            )
        case BanPlayer(target=target) if target is not None:
            return _(
                "{name} is banned from this group's tables.", name=isolate(target.display_name)
            )
        case UnbanPlayer(target=target):
            return _(
                "{name} may sit at this group's tables again.", name=isolate(target.display_name)
            )
        case SetReportChannel(channel_id=None):
            return _("Reports will reach the admins by private message.")
        case SetReportChannel():
            return _("Reports will be posted in this channel.")
    return ""


def report_usage(command: str, language: str) -> str:
    """How to report: ``command`` the platform's (``/reportar``), and the reasons'
    words."""
    return translator(language)(
        "Answer a message of the player with {command} and a reason: {reasons}.",
        command=command,
        reasons=", ".join(report_reason_words(language)),
    )


_LOG_LINES = {
    "dismiss": N_("{admin} dismissed report {number} about {name}."),
    "ban": N_("{admin} banned {name}."),
    "unban": N_("{admin} lifted the ban of {name}."),
}
"""A line of the admins' log, by action (``bot.core.ModerationAction``)."""


def _percent(value: float) -> int:
    return round(value * 100)


def moderation_desk_text(
    desk: ModerationDesk,
    language: str,
    record_url: Callable[[str], str | None] | None = None,
) -> str:
    """What a chat's admins read (issue 33): the open reports with the match's record
    (``record_url``: its page on the web table, when it runs; else its id) and the
    analysis of the reported player's moves, the chip-dumping flags, who is banned, and
    the last actions."""
    _ = translator(language)
    lines = [_("Open reports:") if desk.reports else _("No open reports.")]
    for report in desk.reports:
        line = _(
            "{number}. {reporter} reported {reported} for {reason}.",
            number=report.id,
            reporter=isolate(report.reporter),
            reported=isolate(report.reported),
            reason=report_reason_label(report.reason, language),
        )
        if report.match_id:
            url = record_url(report.match_id) if record_url is not None else None
            line += " " + _("Match record: {match}.", match=url or report.match_id)
        else:
            line += " " + _("No match shared.")
        if report.accuracy is not None:
            line += " " + _(
                "Their moves matched the maestro's in {percent} out of 100 choices.",
                percent=_percent(report.accuracy),
            )
        lines.append(line)
    if desk.flags:
        lines.append(_("Money flowing one way (to check, nothing was done):"))
        for flag in desk.flags:
            lines.append(
                _(
                    "{loser} lost {lost} of {matches} staked matches to {winner} (${dollars}).",
                    loser=isolate(flag.loser),
                    lost=flag.lost,
                    matches=flag.matches,
                    winner=isolate(flag.winner),
                    dollars=flag.dollars,
                )
            )
    if desk.accuracy_flags:
        lines.append(_("Moves far from the maestro's against one opponent (to check):"))
        for drop in desk.accuracy_flags:
            lines.append(
                _(
                    "{player} against {opponent}: {against} of 100 choices like the maestro "
                    "in {matches} matches, {usual} of 100 in the others.",
                    player=isolate(drop.player),
                    opponent=isolate(drop.opponent),
                    against=_percent(drop.against),
                    matches=drop.matches,
                    usual=_percent(drop.usual),
                )
            )
    if desk.banned:
        lines.append(_("Banned: {names}.", names=", ".join(isolate(n) for n in desk.banned)))
    if desk.log:
        lines.append(_("Last actions:"))
        for entry in desk.log:
            lines.append(
                _(
                    _LOG_LINES[entry.action.value],
                    admin=isolate(entry.admin),
                    name=isolate(entry.player),
                    number=entry.report_id or "",
                )
            )
    return "\n".join(lines)


_ACCEPT_COMMANDS: dict[tuple[str, str], str] = {
    ("telegram", "es"): "/vincular {code}",
    ("telegram", "en"): "/link {code}",
    ("discord", "es"): "/domino vincular codigo:{code}",
    ("discord", "en"): "/domino link code:{code}",
}
"""What a player types to accept a code, by platform and language (docs/players.md)."""


def link_text(done: type[Command], reply: Reply, language: str) -> str:
    """The answer to a link command (docs/players.md): the code and where to enter it;
    the accounts linked and the balance they now share; the account unlinked."""
    _ = translator(language)
    link = reply.link
    if link is None:
        return ""
    where = platform_label(link.platform)
    if done is GiveLinkCode:
        lang = "en" if language == "en" else "es"
        typed = _ACCEPT_COMMANDS.get((link.platform, lang), "{code}").format(code=link.code)
        return _(
            "Your link code is {code}. On {platform}, send {typed} within {minutes} minutes; "
            "it works once. Your two accounts then become one player: one balance, one "
            "rating, one history.",
            code=link.code,
            platform=where,
            typed=typed,
            minutes=link.minutes,
        )
    if done is AcceptLinkCode:
        return _(
            "Linked with your {platform} account: you are one player now. Your balance: "
            "${balance}.",
            platform=where,
            balance=link.balance,
        )
    return _(
        "This account is unlinked: it starts again with ${balance}. Your balance, "
        "ratings and history stay with your {platform} account.",
        platform=where,
        balance=link.balance,
    )


def link_in_private_text(language: str) -> str:
    """Why a link code is not given in a group: it is asked for privately."""
    return translator(language)(
        "Ask for your link code in a private chat with me: it is yours alone."
    )
