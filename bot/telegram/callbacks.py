"""Button presses: a table button goes to the core as ``PressButton`` (the core decodes
and checks its untrusted data); the admins' /config menu sends ``SetChatRules`` with just
the change pressed. Every press is answered (a short alert for a refusal) before any
slow work.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable

from telegram import CallbackQuery, Message, Update
from telegram.error import TelegramError
from telegram.ext import ContextTypes

import bot.core as p
from bot.core.analysis import AnalysisReply
from bot.present.labels import rules_text
from bot.present.replies import ModerationCommand, confirmation, moderation_done, refused
from bot.telegram.drawing import Drawing
from bot.telegram.friends import Friends
from bot.telegram.keyboards import MENU_CHOICES, config_keyboard, next_choice
from bot.telegram.links import ConfigPress, JoinLink, decode_config, decode_top
from bot.telegram.sender import send
from bot.telegram.shared import PLATFORM, Shared
from bot.telegram.standings import Lists
from engine.rules import EVERY_PRESET_NAME, OptionValue

__all__ = ["ALERT_LIMIT", "Callbacks"]

log = logging.getLogger(__name__)

ALERT_LIMIT = 200  # answerCallbackQuery text length


class Callbacks:
    """Answers button presses (PTB's ``CallbackQueryHandler`` calls :meth:`on_callback`)."""

    def __init__(self, shared: Shared, drawing: Drawing) -> None:
        self.s = shared
        self.drawing = drawing
        self.lists = Lists(shared, drawing.render)
        self.friends = Friends(
            shared, lambda name: shared.manager.player_by_username(PLATFORM, name)
        )

    async def _answer(
        self,
        query: CallbackQuery,
        text: str | None = None,
        *,
        alert: bool = False,
        url: str | None = None,
    ) -> None:
        try:
            await send(
                lambda: query.answer(
                    text=text[:ALERT_LIMIT] if text else None, show_alert=alert, url=url
                )
            )
        except TelegramError:
            log.warning("could not answer callback %s", query.id, exc_info=True)

    async def _on_moderation(
        self, query: CallbackQuery, player: p.PlayerRef, press: p.ModerationPress
    ) -> None:
        """A report's button, pressed in an admin's private chat: the presser must
        administer the report's group now (issue 33); the core refuses a closed report."""
        s, language = self.s, player.language
        chat = p.ChatRef(PLATFORM, press.chat_id)
        if not await s.is_admin_of(int(press.chat_id), query.from_user.id):
            text = s.t(language)("Only this group's administrators can moderate.")
            await self._answer(query, text, alert=True)
            return
        command: ModerationCommand
        if press.action is p.ModerationAction.DISMISS:
            command = p.DismissReport(player, chat, press.report_id, is_admin=True)
        else:
            command = p.BanPlayer(player, chat, None, is_admin=True, report_id=press.report_id)
        reply = await s.manager.handle(command)
        if reply.refusal is not None:
            await self._answer(query, refused(reply.refusal, language), alert=True)
            return
        await self._answer(query, moderation_done(command, language), alert=True)

    async def on_callback(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """A button press: answered at once (an alert when refused), then shown."""
        s = self.s
        query = update.callback_query
        if query is None:
            return
        user = query.from_user
        player = s.player(user)
        s.seen(user)
        message = query.message
        chat = s.chat_ref(message) if message is not None else None
        top = decode_top(query.data)
        if top is not None:

            async def answer(text: str | None, alert: bool) -> None:
                await self._answer(query, text, alert=alert)

            await self.lists.on_press(query, top, player, chat, answer)
            return
        analysis = p.decode_analysis(query.data)
        if analysis is not None:
            await self._on_analysis(query, user.id, player, analysis)
            return
        if _is_friend_press(query.data):

            async def answer_friend(text: str | None, alert: bool) -> None:
                await self._answer(query, text, alert=alert)

            await self.friends.on_press(query, player, chat, answer_friend)
            return
        moderation = p.decode_moderation(query.data)
        if moderation is not None:
            await self._on_moderation(query, player, moderation)
            return
        config = decode_config(query.data)
        if config is not None:
            await self._on_config(query, player, chat, config)
            return
        if query.data == p.TOURNAMENT_JOIN and chat is not None:  # signs up in this group
            joined = await s.manager.handle(p.JoinTournament(player, chat))
            if joined.refusal is not None:
                await self._answer(query, refused(joined.refusal, player.language), alert=True)
            else:
                await self._answer(query, confirmation(p.JoinTournament, joined, player.language))
            return
        data = query.data or ""
        try:
            press = p.decode_press(data)
        except p.ForgedPress:
            press = None  # the core refuses it with its own words
        if (
            press is not None
            and press.kind == "sit"
            and chat is not None
            and not await s.can_reach(user.id)
        ):
            seat = int(press.code) if press.code else None
            thread = int(chat.thread_id) if chat.thread_id else None
            url = s.link(JoinLink(int(chat.chat_id), thread, press.table_id, seat))
            await self._answer(query, url=url)
            return
        reply = await s.manager.handle(p.PressButton(player, data, chat))
        if reply.refusal is not None:
            await self._answer(query, refused(reply.refusal, player.language), alert=True)
        else:
            done = confirmation(press.kind, reply, player.language) if press else ""
            await self._answer(query, done or None)
        self.drawing.private_events(reply)

    async def _on_analysis(
        self, query: CallbackQuery, user_id: int, player: p.PlayerRef, press: p.AnalysisPress
    ) -> None:
        """ "¿Qué debí jugar?" under a hand's result: answered at once ("Analysing…"; an
        alert when refused or when the presser cannot be written to), the presser's own
        analysis of that hand sent to their private chat once the search is done."""
        s = self.s
        _ = s.t(player.language)
        search = s.manager.start_analysis(player, None, press.table_id, press.hand)
        if isinstance(search, p.Refusal):
            await self._answer(query, refused(search, player.language), alert=True)
            return
        if not await s.can_reach(user_id):
            search.cancel()
            await self._answer(
                query,
                _(
                    "I cannot write to you privately yet. Open our private chat, press Start, "
                    "then press this button again."
                ),
                alert=True,
            )
            return
        await self._answer(query, _("Analysing…"))
        s.spawn(self._send_analysis(search, user_id, player.language))

    async def _send_analysis(
        self, search: Awaitable[AnalysisReply], user_id: int, language: str
    ) -> None:
        """The analysis, once found, to the presser's private chat (a background task, so
        the press was answered and other updates go on meanwhile)."""
        screen = await self.lists.analysis_screen(await search, language)
        await self.lists.send_private(user_id, screen)

    async def _on_config(
        self, query: CallbackQuery, player: p.PlayerRef, chat: p.ChatRef | None, press: ConfigPress
    ) -> None:
        s = self.s
        _ = s.t(player.language)
        message = query.message
        if chat is None or not isinstance(message, Message):
            await self._answer(query, _("This menu works in groups only."), alert=True)
            return
        if not await s.is_admin(message, query.from_user):
            await self._answer(
                query, _("Only this group's administrators can change its rules."), alert=True
            )
            return
        if press.action == "close":
            await self._answer(query)
            try:
                await send(lambda: message.edit_reply_markup(reply_markup=None))
            except TelegramError:
                log.warning("could not close the menu", exc_info=True)
            return
        change = await self._change(player, chat, press)
        if change is None:
            await self._answer(query, _("That button is not valid."), alert=True)
            return
        reply = await s.manager.handle(change)
        if reply.refusal is not None:
            await self._answer(query, refused(reply.refusal, player.language), alert=True)
            return
        await self._answer(query, _("Saved."))
        info = await s.manager.chat_rules(chat)  # the menu is in the group: its language
        text = (
            s.t(info.language)("Rules of this group (press to change):")
            + "\n"
            + rules_text(info.rules, info.preset, info.overrides, info.language)
        )
        markup = config_keyboard(info.rules, info.preset, info.overrides, info.language)
        try:
            await send(lambda: message.edit_text(text, reply_markup=markup))
        except TelegramError:
            log.warning("could not update the menu", exc_info=True)

    async def _change(
        self, player: p.PlayerRef, chat: p.ChatRef, press: ConfigPress
    ) -> p.SetChatRules | None:
        """Just the change a menu button stands for (None for a forged button): a preset
        starts again from it; an option steps to its next value (the core merges it)."""
        if press.action == "preset":
            if press.name not in EVERY_PRESET_NAME:
                return None
            return p.SetChatRules(player, chat, press.name, {}, is_admin=True)
        if press.name not in MENU_CHOICES:
            return None
        current = (await self.s.manager.chat_rules(chat)).rules
        value: OptionValue = next_choice(press.name, getattr(current, press.name))
        return p.SetChatRules(player, chat, None, {press.name: value}, is_admin=True)


def _is_friend_press(data: str | None) -> bool:
    """Whether ``data`` is a friends button's (by shape; the core checks the rest)."""
    try:
        p.decode_friend(data)
    except p.ForgedPress:
        return False
    return True
