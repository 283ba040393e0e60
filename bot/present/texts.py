"""The phrases of the core's events that the screens are built from (a table closed
early, a seat abandoned), in the reader's language. Only the presentation layer reads
this module: front ends show screens (:mod:`bot.present.screens`), not phrases."""

from __future__ import annotations

from bot.core.events import SeatAbandoned, TableClosed
from bot.core.vocabulary import AwayReason, CloseReason
from bot.present.i18n import translator

__all__ = ["GROUP_CLOSES", "abandoned_text", "closed_text"]


def abandoned_text(event: SeatAbandoned, language: str) -> str:
    """What a table is told when one of its humans abandons the match: left on purpose,
    or not back within the 5 minutes; the stake forfeited and the robot playing on."""
    _ = translator(language)
    name = event.player.display_name
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
    }
)
"""The early closes a table's chat is told about (:func:`closed_text`); an unreachable
chat's players are told privately, and an empty or finished table says it all itself."""


def closed_text(event: TableClosed, language: str) -> str:
    """Why a table closed early (empty for a finished match: its result says it all)."""
    _ = translator(language)
    if event.reason is CloseReason.EMPTY:
        return _("The table closed before the match started; nothing was paid.")
    if event.reason is CloseReason.NO_HUMANS:
        return _("The table closed: every player left the match; their stakes stay in the pot.")
    if event.reason is CloseReason.CANCELLED:
        return _("The table closed; stakes were refunded.")
    if event.reason is CloseReason.UNREACHABLE:
        return _(
            "Table {label} closed: the bot can no longer use its chat. Nobody lost: "
            "stakes were refunded.",
            label=event.label,
        )
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
    return ""
