"""Top lists, profiles and season finals as Telegram photos (issue 14; docs/ratings.md).

What a list or a profile holds is the core's (``manager.standings``, ``manager.profile``);
the picture's facts and the caption (the same rows as text, for screen readers) are the
presentation layer's (:mod:`bot.present.standings`). Here they become a photo with its
caption and, for a list, the switches (:func:`bot.telegram.keyboards.top_keyboard`); a
press on a switch edits that same message. Where the bot may not send photos, the caption
goes as a text message instead.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from telegram import CallbackQuery, InlineKeyboardMarkup, InputMediaPhoto, Message
from telegram.error import Forbidden, TelegramError

import bot.core as p
from bot.core.analysis import AnalysisReply
from bot.present.analysis import analysis_picture, analysis_text
from bot.present.screens import CAPTION_LIMIT
from bot.present.standings import (
    profile_caption,
    profile_facts,
    season_ended_text,
    standings_caption,
    standings_facts,
)
from bot.telegram.commands import help_command
from bot.telegram.keyboards import top_keyboard
from bot.telegram.links import TopPress
from bot.telegram.sender import is_photo_refused, send
from bot.telegram.shared import Shared

__all__ = ["Lists", "Screen"]

log = logging.getLogger(__name__)

TOP_ROWS = 10
"""Players (or pairs) a /top list shows."""


@dataclass(frozen=True, slots=True)
class Screen:
    """A photo to show: its picture, its caption and its buttons."""

    png: bytes
    caption: str
    markup: InlineKeyboardMarkup | None = None


class Lists:
    """Sends and edits the top lists, the profiles and the season finals."""

    def __init__(self, shared: Shared, render: Callable[..., Awaitable[bytes]]) -> None:
        self.s = shared
        self.render = render  # Drawing.render: Pillow off the event loop

    # ------------------------------------------------------------------ screens
    async def top_screen(
        self,
        ranking: p.Ranking,
        group: p.ChatRef | None,
        *,
        everyone: bool,
        asker: p.PlayerRef | None,
        language: str,
        season: str | None = None,
        format: str = "",
    ) -> Screen:
        """The list ``ranking`` of ``group``'s players (everyone's when ``everyone`` or in
        a private chat, ``group`` None), the asker highlighted, with its switches;
        ``season`` a past season of the season list (the current one when None);
        ``format`` a format's own list (``core.Standings.format``)."""
        from render import standings_png

        scope = None if everyone else group
        standings = await self.s.manager.standings(
            ranking, scope, asker=asker, season=season, limit=TOP_ROWS, format=format
        )
        title = self.s.titles.get(self.s.chat_id(group)) if group is not None else None
        facts = standings_facts(
            standings, language, chat_title=title, help_command=help_command(language)
        )
        caption = standings_caption(standings, language, chat_title=title)
        markup = top_keyboard(
            ranking,
            everyone or group is None,
            group=group is not None,
            language=language,
            format=format,
        )
        return Screen(await self.render(standings_png, facts), caption[:CAPTION_LIMIT], markup)

    async def profile_screen(
        self, player: p.PlayerRef, chat: p.ChatRef | None, language: str, format: str = ""
    ) -> Screen:
        """``player``'s profile (the season shown is ``chat``'s; the global one in private;
        the ratings ``format``'s)."""
        from render import profile_png

        profile = await self.s.manager.profile(player, chat, format)
        caption = profile_caption(profile, language)
        png = await self.render(profile_png, profile_facts(profile, language))
        return Screen(png, caption[:CAPTION_LIMIT])

    # ------------------------------------------------------------------ sending
    async def analysis_screen(self, found: AnalysisReply, language: str) -> Screen | str:
        """A player's analysis: the board at the costliest decision with the text as its
        caption, or the text alone when no move cost anything."""
        from render import board_png

        text = analysis_text(found, language)
        picture = analysis_picture(found, language)
        if picture is None:
            return text
        return Screen(await self.render(board_png, *picture), text[:CAPTION_LIMIT])

    async def send_private(self, user_id: int, screen: Screen | str) -> bool:
        """Send a screen to a player's private chat; False when they cannot be written to."""
        s = self.s
        if isinstance(screen, str):
            return await s.private_text(user_id, screen)
        try:
            await send(lambda: s.bot.send_photo(user_id, screen.png, caption=screen.caption))
        except Forbidden:
            s.reachable.discard(user_id)
            return False
        except TelegramError:
            s.stats.failures += 1
            log.warning("could not send a picture to user %s", user_id, exc_info=True)
            return False
        s.reachable.add(user_id)
        return True

    async def reply(self, message: Message, screen: Screen) -> Message | None:
        """Answer ``message`` with ``screen``: a photo, or its caption as text where the
        bot may not send photos."""
        s = self.s
        if message.chat.id not in s.no_photos:
            try:
                return await send(
                    lambda: message.reply_photo(
                        screen.png, caption=screen.caption, reply_markup=screen.markup
                    )
                )
            except TelegramError as error:
                if not is_photo_refused(error):
                    s.stats.failures += 1
                    log.warning("could not send a picture to %s", message.chat.id, exc_info=True)
                    return None
        return await s.reply(message, screen.caption, screen.markup)

    async def edit(self, message: Message, screen: Screen) -> None:
        """Show ``screen`` on ``message`` (the same photo message, or its text)."""
        try:
            if message.photo:
                media = InputMediaPhoto(screen.png, caption=screen.caption)
                await send(lambda: message.edit_media(media, reply_markup=screen.markup))
            else:
                await send(lambda: message.edit_text(screen.caption, reply_markup=screen.markup))
        except TelegramError:
            self.s.stats.failures += 1
            log.warning("could not edit the list in %s", message.chat.id, exc_info=True)

    # ------------------------------------------------------------------ presses
    async def on_press(
        self,
        query: CallbackQuery,
        press: TopPress,
        player: p.PlayerRef,
        chat: p.ChatRef | None,
        answer: Callable[[str | None, bool], Awaitable[None]],
    ) -> None:
        """A switch of a /top list: the same message shows the list pressed (the presser
        highlighted) when it is the presser's own (a private chat, or a group's list they
        asked for); in a group, anyone else gets the list for themselves, privately (else
        as a new reply), so no member flips everyone's list or spends the group's edits.
        A switch that cannot be on that message changes nothing."""
        s = self.s
        message = query.message
        if not isinstance(message, Message) or (chat is None and not press.everyone):
            await answer(s.t(player.language)("That button is not valid."), True)
            return
        await answer(None, False)  # at once: drawing takes a moment
        language = player.language if chat is None else (await s.manager.chat_rules(chat)).language
        screen = await self.top_screen(
            p.Ranking(press.ranking),
            chat,
            everyone=press.everyone,
            asker=player,
            language=language,
            format=press.format,
        )
        user_id = query.from_user.id
        if chat is None or s.lists_asked.get((message.chat.id, message.message_id)) == user_id:
            await self.edit(message, screen)
            return
        # theirs alone: privately without switches (a group's list there has none), or
        # a new reply in the group that they may switch in place
        if await s.can_reach(user_id) and await self.send_private(user_id, screen):
            return
        sent = await self.reply(message, screen)
        if sent is not None:
            s.list_asked(sent.chat.id, sent.message_id, user_id)

    # ------------------------------------------------------------------ season finals
    def season_ended(self, event: p.SeasonEnded) -> None:
        """The group's final standings, queued to its worker (a group the bot can no
        longer use is skipped, and found out like any other)."""
        if self.s.chat_id(event.chat) in self.s.gone:
            return
        self.s.to_group(event.chat, lambda: self._send_final(event))

    async def _send_final(self, event: p.SeasonEnded) -> None:
        from render import standings_png

        s, chat = self.s, event.chat
        language = chat.language
        standings = p.Standings(p.Ranking.SEASON, chat, event.season, rows=event.rows, final=True)
        title = s.titles.get(s.chat_id(chat))
        caption = season_ended_text(event, language)[:CAPTION_LIMIT]
        thread = int(chat.thread_id) if chat.thread_id else None
        try:
            if s.chat_id(chat) not in s.no_photos:
                png = await self.render(
                    standings_png,
                    standings_facts(
                        standings, language, chat_title=title, help_command=help_command(language)
                    ),
                )
                try:
                    await s.to_chat(
                        chat,
                        lambda chat_id: s.bot.send_photo(
                            chat_id, png, caption=caption, message_thread_id=thread
                        ),
                    )
                    return
                except TelegramError as error:
                    if not is_photo_refused(error):
                        raise
            text = caption + "\n\n" + standings_caption(standings, language, chat_title=title)
            await s.to_chat(
                chat,
                lambda chat_id: s.bot.send_message(chat_id, text, message_thread_id=thread),
            )
        except TelegramError as error:
            if s.lost(s.chat_id(chat), error):
                return
            s.stats.failures += 1
            log.warning("could not send the season's final standings", exc_info=True)
