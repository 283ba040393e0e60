"""Buttons: every one carries a table manager payload, matched by one persistent item.

A button's ``custom_id`` is the payload of :func:`bot.core.encode_press` /
:func:`bot.core.encode_action` (table, hand number, move number and move code, at most
64 characters, inside Discord's 100). :class:`PressItem` is a ``DynamicItem`` whose
template matches every payload, so a press is understood by any process of the bot,
including one started after the message was sent: buttons survive restarts. Nothing here
decides anything: the payload goes to the manager as :class:`bot.core.PressButton`.

Views are built from plain buttons and stopped before sending so discord.py does not keep
one view per message in memory; only :class:`PressItem` answers the presses.
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable, Sequence
from typing import Any

import discord

from bot.core import (
    EMOTES,
    FRIEND_PATTERN,
    MODERATION_PATTERN,
    PRESS_PREFIX,
    TOURNAMENT_JOIN,
    FriendAction,
    FriendUpdate,
    ModerationAction,
    ModerationPress,
    TableChanged,
    YourTiles,
    decode_moderation,
    encode_action,
    encode_friend,
    encode_moderation,
)
from bot.discord.i18n import texts
from bot.present.i18n import emote_label
from bot.present.labels import friend_action_label, join_label, kept_seat_label, report_action_label
from bot.present.live import link_label
from bot.present.moves import move_buttons

__all__ = [
    "ACTIVITY_ID",
    "FriendItem",
    "JoinItem",
    "ModerationItem",
    "OnPress",
    "PressItem",
    "board_view",
    "custom_ids",
    "friend_item",
    "friend_view",
    "join_item",
    "join_view",
    "link_button",
    "moderation_item",
    "moves_view",
    "press_item",
    "report_view",
    "static_view",
    "tiles_view",
    "tournament_link_view",
]

MAX_CUSTOM_ID = 100
_ROW_SIZE = 5
PRESS_TEMPLATE = r"dm1:[a-z]:[^\s]{1,90}"

ACTIVITY_ID = "dm-activity"
"""The custom id of "play in Discord": answered by launching the web table's Activity
(the interaction callback LAUNCH_ACTIVITY), not by the manager."""

OnPress = Callable[[discord.Interaction[Any], str], Awaitable[None]]
"""What a press becomes: ``on_press(interaction, payload)``."""


class PressItem(discord.ui.DynamicItem[discord.ui.Button[Any]], template=PRESS_TEMPLATE):
    """Any button of this bot; its press is handed, raw, to the table manager.

    This class only recognises the payloads; :func:`press_item` makes the class the bot
    registers, bound to the handler the presses go to.
    """

    def __init__(self, payload: str, *, label: str | None = None) -> None:
        super().__init__(discord.ui.Button(label=label or payload, custom_id=payload))
        self.payload = payload

    @classmethod
    def matches(cls, custom_id: str) -> re.Match[str] | None:
        """Whether ``custom_id`` is one of this bot's payloads (by shape only)."""
        return cls.__discord_ui_compiled_template__.fullmatch(custom_id)

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> PressItem:
        return cls(match.group(0))


def custom_ids(message: discord.Message) -> set[str]:
    """The custom ids of the components on ``message``."""
    found: set[str] = set()
    stack: list[Any] = list(message.components)
    while stack:
        component = stack.pop()
        custom_id = getattr(component, "custom_id", None)
        if custom_id:
            found.add(custom_id)
        stack.extend(getattr(component, "children", []))
    return found


def press_item(on_press: OnPress) -> type[PressItem]:
    """The :class:`PressItem` whose presses go to ``on_press`` (for ``add_dynamic_items``)."""

    class BoundPressItem(PressItem, template=PRESS_TEMPLATE):
        async def callback(self, interaction: discord.Interaction[Any]) -> None:
            await on_press(interaction, self.payload)

    return BoundPressItem


def static_view(rows: Sequence[Sequence[discord.ui.Button[Any]]]) -> discord.ui.View:
    """A view of ``rows`` of buttons that discord.py will not track (see module doc)."""
    view = discord.ui.View(timeout=None)
    for row_number, row in enumerate(rows[:5]):
        for button in row[:_ROW_SIZE]:
            button.row = row_number
            view.add_item(button)
    view.stop()
    return view


def _button(
    payload: str, label: str, style: discord.ButtonStyle = discord.ButtonStyle.secondary
) -> discord.ui.Button[Any]:
    assert payload.startswith(PRESS_PREFIX) and len(payload) <= MAX_CUSTOM_ID
    return discord.ui.Button(label=label[:80], custom_id=payload, style=style)


def link_button(url: str, label: str) -> discord.ui.Button[Any]:
    """A button that opens ``url`` (the web table), no interaction involved."""
    return discord.ui.Button(label=label[:80], url=url, style=discord.ButtonStyle.link)


def board_view(
    event: TableChanged, language: str, *, watch_url: str | None = None, activity: bool = False
) -> discord.ui.View | None:
    """The board's buttons for the table's phase (None once the table is over).

    Waiting or counting down: one button per open seat, robots now, leave. Playing: my
    tiles (for members without DMs), come back (when a seat is away), leave, the web
    table's spectator link (``watch_url``, when the web table runs), "play in Discord"
    (``activity``: the web table is also a Discord Activity), and the emotes.
    Ended: a rematch.
    """
    _ = texts(language)
    table = event.table_id
    rows: list[list[discord.ui.Button[Any]]] = []
    if event.challenge:  # a reto: the challenged member accepts (sits) or declines
        kept = next(seat for seat in event.seats if seat.reserved_for is not None)
        rows.append(
            [
                _button(
                    encode_action("sit", table, kept.seat),
                    _("Accept"),
                    discord.ButtonStyle.success,
                ),
                _button(encode_action("decline", table), _("Decline"), discord.ButtonStyle.danger),
                _button(encode_action("leave", table), _("Leave")),
            ]
        )
    elif event.phase in ("waiting", "countdown"):
        seats = [
            _button(
                encode_action("sit", table, seat.seat),
                _("Sit: seat {number}", number=seat.seat + 1),
                discord.ButtonStyle.primary,
            )
            for seat in event.seats
            if seat.is_open
        ]
        if seats:
            rows.append(seats)
        controls = [_button(encode_action("leave", table), _("Leave"), discord.ButtonStyle.danger)]
        if any(seat.is_open for seat in event.seats) and not event.tournament:
            controls.insert(0, _button(encode_action("robots", table), _("Robots now")))
        rows.append(controls)
    elif event.phase == "playing":
        controls = [
            _button(encode_action("tiles", table), _("My tiles"), discord.ButtonStyle.primary)
        ]
        if any(seat.away for seat in event.seats):
            controls.append(
                _button(encode_action("back", table), _("Come back"), discord.ButtonStyle.success)
            )
        controls.append(_button(encode_action("leave", table), _("Leave")))
        if watch_url is not None:
            controls.append(link_button(watch_url, link_label("watch", language)))
        if activity:
            controls.append(
                discord.ui.Button(
                    label=_("Play in Discord"),
                    custom_id=ACTIVITY_ID,
                    style=discord.ButtonStyle.success,
                    emoji="🎮",
                )
            )
        rows.append(controls)
        emotes = [
            _button(encode_action("emote", table, name), emote_label(name, language))
            for name in EMOTES
        ]
        rows += [emotes[i : i + _ROW_SIZE] for i in range(0, len(emotes), _ROW_SIZE)]
    elif event.phase == "ended":
        rows.append(
            [_button(encode_action("again", table), _("Rematch"), discord.ButtonStyle.success)]
        )
    return static_view(rows) if rows else None


def moves_view(event: YourTiles, *, open_url: str | None = None) -> discord.ui.View | None:
    """One button per legal move (labels and payloads from the manager), and the web
    table's personal link (``open_url``, when the web table runs); None when neither."""
    link = [[link_button(open_url, link_label("open", event.to.language))]] if open_url else []
    if not event.moves:
        return static_view(link) if link else None
    # Same order as the hand picture: highest tile first, the pass last.
    order = {tile: index for index, tile in enumerate(event.view.tiles)}
    choices = sorted(
        move_buttons(event),
        key=lambda c: (c[0].move.is_pass, -order.get(c[0].move.tile, -1) if c[0].move.tile else 0),
    )
    buttons = [
        _button(
            choice.payload,
            label,
            discord.ButtonStyle.secondary if choice.move.is_pass else discord.ButtonStyle.success,
        )
        for choice, label in choices
    ]
    rows = [buttons[i : i + _ROW_SIZE] for i in range(0, len(buttons), _ROW_SIZE)]
    return static_view(rows[:4] + link)


def tiles_view(table_id: str, language: str) -> discord.ui.View:
    """A lone "my tiles" button (offered to a member whose DMs are closed)."""
    _ = texts(language)
    return static_view(
        [[_button(encode_action("tiles", table_id), _("My tiles"), discord.ButtonStyle.primary)]]
    )


class JoinItem(discord.ui.DynamicItem[discord.ui.Button[Any]], template=TOURNAMENT_JOIN):
    """The "Inscribirme" button under a tournament's news; :func:`join_item` binds it."""

    def __init__(self, label: str = "?") -> None:
        super().__init__(discord.ui.Button(label=label, custom_id=TOURNAMENT_JOIN, emoji="✍️"))

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> JoinItem:
        return cls()


OnJoin = Callable[[discord.Interaction[Any]], Awaitable[None]]


def join_item(on_press: OnJoin) -> type[JoinItem]:
    """The :class:`JoinItem` whose presses go to ``on_press``."""

    class BoundJoinItem(JoinItem, template=TOURNAMENT_JOIN):
        async def callback(self, interaction: discord.Interaction[Any]) -> None:
            await on_press(interaction)

    return BoundJoinItem


def tournament_link_view(url: str, language: str) -> discord.ui.View:
    """ "See the tournament" under a tournament's picture: its page on the web table."""
    return static_view([[link_button(url, link_label("tournament", language))]])


def kept_seat_view(table_id: str, language: str) -> discord.ui.View:
    """ "Take my seat" under a tournament's private "your table" DM."""
    label = "🪑 " + kept_seat_label(language)
    return static_view(
        [[_button(encode_action("sit", table_id), label, discord.ButtonStyle.success)]]
    )


def join_view(language: str) -> discord.ui.View:
    """The sign-up button under a tournament's news while sign-up is open."""
    view = discord.ui.View(timeout=None)
    view.add_item(
        discord.ui.Button(label=join_label(language)[:80], custom_id=TOURNAMENT_JOIN, emoji="✍️")
    )
    view.stop()  # answered by JoinItem, not by this view
    return view


class FriendItem(PressItem, template=FRIEND_PATTERN):
    """A friends button (accept or decline a request, take an invitation's seat; its
    payload is :func:`bot.core.encode_friend`'s); :func:`friend_item` binds it. A press
    item of its own pattern: ``matches`` and ``from_custom_id`` are :class:`PressItem`'s."""


def friend_item(on_press: OnPress) -> type[FriendItem]:
    """The :class:`FriendItem` whose presses go to ``on_press(interaction, payload)``."""

    class BoundFriendItem(FriendItem, template=FRIEND_PATTERN):
        async def callback(self, interaction: discord.Interaction[Any]) -> None:
            await on_press(interaction, self.payload)

    return BoundFriendItem


_FRIEND_BUTTONS: dict[str, tuple[FriendAction, discord.ButtonStyle]] = {
    "accept_friend": (FriendAction.ACCEPT, discord.ButtonStyle.success),
    "decline_friend": (FriendAction.DECLINE, discord.ButtonStyle.danger),
    "take_invite": (FriendAction.SIT, discord.ButtonStyle.primary),
}


def friend_view(event: FriendUpdate, actions: Sequence[str]) -> discord.ui.View | None:
    """A friends DM's buttons (:class:`bot.present.screens.FriendScreen`'s actions);
    None without any."""
    row: list[discord.ui.Button[Any]] = []
    for action in actions:
        kind, style = _FRIEND_BUTTONS[action]
        arg = event.invite if kind is FriendAction.SIT else event.friend_id
        label = friend_action_label(action, event.to.language)
        row.append(
            discord.ui.Button(label=label[:80], custom_id=encode_friend(kind, arg), style=style)
        )
    return static_view([row]) if row else None


class ModerationItem(discord.ui.DynamicItem[discord.ui.Button[Any]], template=MODERATION_PATTERN):
    """A report's "Descartar" or "Vetar" button; :func:`moderation_item` binds it."""

    def __init__(self, press: ModerationPress | None = None) -> None:
        super().__init__(discord.ui.Button(label="?", custom_id="dmm:d:1:0"))
        self.press = press

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> ModerationItem:
        return cls(decode_moderation(match.group(0)))


OnModeration = Callable[[discord.Interaction[Any], ModerationPress], Awaitable[None]]


def moderation_item(on_press: OnModeration) -> type[ModerationItem]:
    """The :class:`ModerationItem` whose presses go to ``on_press``."""

    class BoundModerationItem(ModerationItem, template=MODERATION_PATTERN):
        async def callback(self, interaction: discord.Interaction[Any]) -> None:
            if self.press is not None:
                await on_press(interaction, self.press)

    return BoundModerationItem


def report_view(
    report_id: int, guild_id: str, language: str, record_url: str | None = None
) -> discord.ui.View:
    """ "Descartar" and "Vetar" under a report the admins receive (issue 33), and "Ver
    la partida" opening the match's record on the web table when there is one."""
    row: list[discord.ui.Button[Any]] = [
        discord.ui.Button(
            label=report_action_label(action.value, language)[:80],
            custom_id=encode_moderation(action, report_id, guild_id),
            style=style,
        )
        for action, style in (
            (ModerationAction.DISMISS, discord.ButtonStyle.secondary),
            (ModerationAction.BAN, discord.ButtonStyle.danger),
        )
    ]
    if record_url:
        row.append(link_button(record_url, link_label("record", language)))
    return static_view([row])
