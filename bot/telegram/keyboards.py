"""Inline keyboards: the board's buttons, a player's move buttons, links and the /config menu.

Every table button carries a payload made by the core (``bot.core.encode_press`` /
``encode_action``), so the table manager can check it; the /config menu carries the
adapter's own ``dmc:`` data (:mod:`bot.telegram.links`). Labels come from the catalogs.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, TypeVar

from telegram import (
    InlineKeyboardButton,
    InlineKeyboardMarkup,
    KeyboardButton,
    ReplyKeyboardMarkup,
    WebAppInfo,
)

from bot.core import (
    EMOTES,
    TOURNAMENT_JOIN,
    FriendAction,
    FriendUpdate,
    ModerationAction,
    Ranking,
    TableChanged,
    YourTiles,
    encode_action,
    encode_analysis,
    encode_friend,
    encode_moderation,
)
from bot.present.analysis import analysis_button
from bot.present.i18n import emote_label, translator
from bot.present.labels import (
    friend_action_label,
    join_label,
    kept_seat_label,
    option_label,
    preset_label,
    rematch_label,
    report_action_label,
    value_label,
)
from bot.present.live import link_label
from bot.present.moves import move_buttons, typed_move_label
from bot.present.standings import RANKING_LABELS
from bot.telegram.links import TopPress, encode_config, encode_top
from engine.rules import EVERY_PRESET_NAME, OPTION_VALUES, Rules

__all__ = [
    "MENU_CHOICES",
    "back_keyboard",
    "board_keyboard",
    "config_keyboard",
    "friend_keyboard",
    "hand_keyboard",
    "join_keyboard",
    "link_keyboard",
    "next_choice",
    "rematch_keyboard",
    "report_keyboard",
    "top_keyboard",
    "tournament_keyboard",
    "turn_keyboard",
    "web_app_keyboard",
]

B = TypeVar("B", InlineKeyboardButton, KeyboardButton)

EMOTES_PER_ROW = 3
MOVES_PER_ROW = 3


def _rows(buttons: Sequence[B], width: int) -> list[list[B]]:
    return [list(buttons[i : i + width]) for i in range(0, len(buttons), width)]


def board_keyboard(
    event: TableChanged,
    language: str,
    *,
    mini_app_url: str | None = None,
    watch_url: str | None = None,
) -> InlineKeyboardMarkup | None:
    """The board's buttons for the table's phase.

    Waiting: one "sit" button per open seat (named after the partner across, if any) and
    "robots now". Countdown: the open seats, if any. Playing: the emotes and "my tiles",
    and with the web table its links: open the Mini App (``mini_app_url``) and watch
    (``watch_url``). Ended: none (the result message carries the rematch button).
    """
    _ = translator(language, "telegram")
    rows: list[list[InlineKeyboardButton]] = []
    if event.challenge:  # a reto: the challenged player accepts (sits) or declines
        core = translator(language)
        kept = next(info for info in event.seats if info.reserved_for is not None)
        rows.append(
            [
                InlineKeyboardButton(
                    "✅ " + core("Accept"),
                    callback_data=encode_action("sit", event.table_id, kept.seat),
                ),
                InlineKeyboardButton(
                    "❌ " + core("Decline"), callback_data=encode_action("decline", event.table_id)
                ),
            ]
        )
    elif event.phase in ("waiting", "countdown"):
        sit = []
        for info in event.seats:
            if not info.is_open:
                continue
            # the partner across, in partnership play (rules.md, "Formats")
            partner = event.seats[(info.seat + 2) % 4] if event.rules.partnership else None
            if info.reserved_for is not None:
                label = _("Seat for {name}", name=info.reserved_for.display_name)
            elif partner is not None and not partner.is_open:
                label = _("Sit with {name}", name=partner.name)
            else:
                label = _("Sit at seat {number}", number=info.seat + 1)
            sit.append(
                InlineKeyboardButton(
                    label, callback_data=encode_action("sit", event.table_id, info.seat)
                )
            )
        rows.extend(_rows(sit, 2))
        if event.phase == "waiting" and not event.tournament:  # a tournament's: no robot
            rows.append(
                [
                    InlineKeyboardButton(
                        "🤖 " + _("Robots now"),
                        callback_data=encode_action("robots", event.table_id),
                    )
                ]
            )
    elif event.phase == "playing":
        emotes = [
            InlineKeyboardButton(
                emote_label(name, language),
                callback_data=encode_action("emote", event.table_id, name),
            )
            for name in EMOTES
        ]
        rows.extend(_rows(emotes, EMOTES_PER_ROW))
        rows.append(
            [
                InlineKeyboardButton(
                    "🁢 " + _("My tiles"), callback_data=encode_action("tiles", event.table_id)
                ),
                InlineKeyboardButton(
                    "↩ " + _("Back to my seat"), callback_data=encode_action("back", event.table_id)
                ),
            ]
        )
        web = []
        if mini_app_url is not None:
            web.append(InlineKeyboardButton("📱 " + link_label("open", language), url=mini_app_url))
        if watch_url is not None:
            web.append(InlineKeyboardButton("👀 " + link_label("watch", language), url=watch_url))
        if web:
            rows.append(web)
    return InlineKeyboardMarkup(rows) if rows else None


def hand_keyboard(
    event: YourTiles, *, web_app_url: str | None = None
) -> InlineKeyboardMarkup | None:
    """The buttons under a private hand picture that is not a turn: with the web table, a
    ``web_app`` button opening it."""
    return None if web_app_url is None else web_app_keyboard(web_app_url, event.to.language)


def web_app_keyboard(url: str, language: str) -> InlineKeyboardMarkup:
    """A ``web_app`` button opening the web table at ``url`` (private chats only:
    Telegram signs who opens it; not from a reply keyboard, whose Mini App gets no
    signed user)."""
    label = "📱 " + link_label("open", language)
    return InlineKeyboardMarkup([[InlineKeyboardButton(label, web_app=WebAppInfo(url=url))]])


def turn_keyboard(event: YourTiles, place: str | None = None) -> ReplyKeyboardMarkup:
    """The reply keyboard of a turn message: one button per legal move (both sides when a
    tile fits both ends differently), each sending its label as the player's message
    (:mod:`bot.telegram.moves`); hidden by Telegram once pressed. With a ``place`` (the
    player sits at several tables) each label names it too (``"Amigos · 6-4"``)."""
    _ = translator(event.to.language, "telegram")
    buttons = [
        KeyboardButton(label if place is None else typed_move_label(place, label))
        for _choice, label in move_buttons(event)
    ]
    return ReplyKeyboardMarkup(
        _rows(buttons, MOVES_PER_ROW),
        resize_keyboard=True,
        one_time_keyboard=True,
        input_field_placeholder=_("Your move"),
    )


def link_keyboard(url: str, language: str) -> InlineKeyboardMarkup:
    """A single button opening the private chat with the bot (a deep link)."""
    _ = translator(language, "telegram")
    return InlineKeyboardMarkup(
        [[InlineKeyboardButton("🔒 " + _("Open my private chat"), url=url)]]
    )


def tournament_keyboard(url: str, language: str) -> InlineKeyboardMarkup:
    """ "See the tournament" under a tournament's picture: its page on the web table."""
    label = "🏆 " + link_label("tournament", language)
    return InlineKeyboardMarkup([[InlineKeyboardButton(label, url=url)]])


def back_keyboard(table_id: str, language: str) -> InlineKeyboardMarkup:
    """ "Come back" for a player a robot plays for."""
    _ = translator(language, "telegram")
    return InlineKeyboardMarkup(
        [
            [
                InlineKeyboardButton(
                    "↩ " + _("Back to my seat"), callback_data=encode_action("back", table_id)
                )
            ]
        ]
    )


def analysis_keyboard(table_id: str, hand: int, language: str) -> InlineKeyboardMarkup:
    """ "¿Qué debí jugar?" under the result of hand number ``hand`` (each presser gets
    their own analysis of that hand)."""
    label = "🔍 " + analysis_button(language)
    return InlineKeyboardMarkup(
        [[InlineKeyboardButton(label, callback_data=encode_analysis(table_id, hand))]]
    )


def rematch_keyboard(table_id: str, language: str) -> InlineKeyboardMarkup:
    """ "Play again" under a match result: the same seats at a new table."""
    label = "🔁 " + rematch_label(language)
    return InlineKeyboardMarkup(
        [[InlineKeyboardButton(label, callback_data=encode_action("again", table_id))]]
    )


def kept_seat_keyboard(table_id: str, language: str) -> InlineKeyboardMarkup:
    """ "Take my seat" under a tournament's private "your table" message."""
    label = "🪑 " + kept_seat_label(language)
    return InlineKeyboardMarkup(
        [[InlineKeyboardButton(label, callback_data=encode_action("sit", table_id))]]
    )


_FRIEND_BUTTONS: dict[str, tuple[FriendAction, str]] = {
    "accept_friend": (FriendAction.ACCEPT, "✅ "),
    "decline_friend": (FriendAction.DECLINE, "✖️ "),
    "take_invite": (FriendAction.SIT, "🪑 "),
}


def friend_keyboard(event: FriendUpdate, actions: Sequence[str]) -> InlineKeyboardMarkup | None:
    """A friends message's buttons (:class:`bot.present.screens.FriendScreen`'s actions):
    accept and decline a request (its payload names the requester), or take the seat an
    invitation keeps (its payload names the invitation); None without any."""
    language = event.to.language
    row = []
    for action in actions:
        kind, mark = _FRIEND_BUTTONS[action]
        arg = event.invite if kind is FriendAction.SIT else event.friend_id
        label = mark + friend_action_label(action, language)
        row.append(InlineKeyboardButton(label, callback_data=encode_friend(kind, arg)))
    return InlineKeyboardMarkup([row]) if row else None


def report_keyboard(
    report_id: int, chat_id: str, language: str, record_url: str | None = None
) -> InlineKeyboardMarkup:
    """ "Descartar" and "Vetar" under a report an admin receives (issue 33), and "Ver la
    partida" opening the match's record on the web table when there is one."""
    row = [
        InlineKeyboardButton(
            report_action_label(action.value, language),
            callback_data=encode_moderation(action, report_id, chat_id),
        )
        for action in (ModerationAction.DISMISS, ModerationAction.BAN)
    ]
    link = [InlineKeyboardButton("🔎 " + link_label("record", language), url=record_url)]
    return InlineKeyboardMarkup([row, link] if record_url else [row])


def join_keyboard(language: str) -> InlineKeyboardMarkup:
    """ "Sign me up" under a tournament's news while sign-up is open."""
    label = "✍️ " + join_label(language)
    return InlineKeyboardMarkup([[InlineKeyboardButton(label, callback_data=TOURNAMENT_JOIN)]])


MENU_CHOICES: dict[str, tuple[Any, ...]] = {
    "target": (50, 100, 150, 200, 300, 500),
    "counting": ("opponents", "all"),
    "first_starter": ("double_six", "random", "draw"),
    "next_starter": ("rotate", "winner"),
    "blocked_winner": ("team", "individual"),
    "redeal_doubles": (None, 4, 5),
    "capicua_bonus": (0, 10, 20, 25, 30),
    "turn_seconds": (15, 30, 45, 60, 90, 120),
    "forced_move_seconds": (None, 0, 1, 2, 3, 5),
    "stake": (0, 5, 10, 20, 50, 100),
}
"""The values the /config menu steps through, per option (a subset of rules.md's
"The options"; any allowed value can be typed: ``/config meta=150``)."""


def next_choice(option: str, current: Any) -> Any:
    """The menu value after ``current`` for ``option`` (wrapping round).

    Raises:
        KeyError: ``option`` is not a menu option.
    """
    choices = MENU_CHOICES[option]
    if current in choices:
        return choices[(choices.index(current) + 1) % len(choices)]
    return choices[0]


def config_keyboard(
    rules: Rules, preset: str, overrides: Mapping[str, Any], language: str
) -> InlineKeyboardMarkup:
    """The /config menu: the presets (current one ticked), each option with its value
    (a press steps it to the next value), and "close"."""
    _ = translator(language, "telegram")
    presets = [
        InlineKeyboardButton(
            ("✓ " if name == preset and not overrides else "") + preset_label(name, language),
            callback_data=encode_config("preset", name),
        )
        for name in EVERY_PRESET_NAME
    ]
    rows = _rows(presets, 2)
    values = rules.model_dump()
    options = []
    for option in OPTION_VALUES:
        if option not in MENU_CHOICES:
            continue
        label = f"{option_label(option, language)}: {value_label(values[option], language)}"
        options.append(InlineKeyboardButton(label, callback_data=encode_config("option", option)))
    rows.extend(_rows(options, 1))  # one a row: a label is never cut off
    rows.append([InlineKeyboardButton(_("Close"), callback_data=encode_config("close"))])
    return InlineKeyboardMarkup(rows)


def top_keyboard(
    ranking: Ranking, everyone: bool, *, group: bool, language: str, format: str = ""
) -> InlineKeyboardMarkup:
    """The /top list's switches: the four lists (the one shown ticked), two a row so a
    label is never cut on a phone, and, in a group, this group's players or everyone's;
    each keeps the list's ``format``."""
    _ = translator(language, "telegram")
    label = translator(language)
    lists = [
        InlineKeyboardButton(
            ("✓ " if name is ranking else "") + label(RANKING_LABELS[name]),
            callback_data=encode_top(TopPress(name.value, everyone, format)),
        )
        for name in Ranking
    ]
    rows = _rows(lists, 2)
    if group:
        rows.append(
            [
                InlineKeyboardButton(
                    ("✓ " if scope_everyone == everyone else "") + text,
                    callback_data=encode_top(TopPress(ranking.value, scope_everyone, format)),
                )
                for scope_everyone, text in ((False, _("This group")), (True, _("Global")))
            ]
        )
    return InlineKeyboardMarkup(rows)
