"""The core's events as Telegram messages (the front end's :class:`bot.core.Port` side).

Boards and hands are drawn by background workers (:mod:`bot.telegram.drawing`); group
messages are queued to their chat's worker (in order per chat, never awaited here: a
group's flood limit must not hold up the table's next events, such as a player's private
turn). A player the bot cannot write to privately is never dealt in: they are unseated
and given a deep link.
"""

from __future__ import annotations

import functools
import logging

from telegram import InlineKeyboardMarkup, ReplyKeyboardRemove
from telegram.error import TelegramError

import bot.core as p
from bot.present.facts import table_facts
from bot.present.replies import refused
from bot.present.screens import (
    CAPTION_LIMIT,
    Action,
    BoardScreen,
    ClosedScreen,
    EmoteScreen,
    Notice,
    Reader,
    RefusalScreen,
    ReportScreen,
    ResultScreen,
    Screen,
    SeasonScreen,
    SeatedScreen,
    TilesScreen,
    TournamentScreen,
    TurnGone,
    chat_of,
    names_place,
    screens,
)
from bot.telegram.commands import command_word
from bot.telegram.drawing import Drawing
from bot.telegram.keyboards import (
    analysis_keyboard,
    back_keyboard,
    join_keyboard,
    link_keyboard,
    rematch_keyboard,
    report_keyboard,
    tournament_keyboard,
    web_app_keyboard,
)
from bot.telegram.links import JoinLink
from bot.telegram.sender import is_photo_refused, send
from bot.telegram.shared import ANONYMOUS_ADMIN_ID, PLATFORM, Shared
from bot.telegram.standings import Lists
from render import BracketFacts, TournamentStandingsFacts

__all__ = ["EMOTE_SECONDS", "TelegramPort"]

log = logging.getLogger(__name__)

EMOTE_SECONDS = 8.0
"""How long an emote stays in the board's caption (seconds of the manager's clock)."""


class TelegramPort:
    """Shows each manager event: a board or hand redrawn, or a message to a group or a player."""

    def __init__(self, shared: Shared, drawing: Drawing) -> None:
        self.s = shared
        self.drawing = drawing
        self.lists = Lists(shared, drawing.render)

    async def deliver(self, event: p.Event) -> None:
        """Show each of ``event``'s screens (:func:`bot.present.screens.screens`)."""
        s = self.s
        chat = chat_of(event)
        board = s.boards.get(event.table_id or "")
        language = chat.language if chat is not None else ""
        place = ""
        if chat is not None and names_place(event):
            place = await s.title(s.chat_id(chat)) or "Telegram"
        reader = Reader(
            language,
            back=command_word("back", language),
            label=board.label if board is not None else event.table_id or "",
            seats=board.event.seats if board is not None and board.event is not None else None,
            place=place,
            anonymous=str(ANONYMOUS_ADMIN_ID),  # an admin writing as the group
        )
        for screen in screens(event, reader):
            await self._show(screen)

    async def _show(self, screen: Screen) -> None:
        """One screen as Telegram widgets: the board's photo and caption (edited in
        place), a hand by private message, a group message, a private one."""
        s, drawing = self.s, self.drawing
        match screen:
            case BoardScreen(event=event):
                board = drawing.board_for(event.table_id, event.chat)
                board.language = event.chat.language  # the admins may change it mid-table
                board.event = event
                board.label = event.label
                drawing.board(event.table_id)
            case TilesScreen(event=tiles):
                drawing.tiles(tiles)
            case EmoteScreen(event=emote, text=text):  # in the board's caption a while
                shown = s.boards.get(emote.table_id)
                if shown is not None and shown.event is not None:
                    shown.emote = (text, s.now() + EMOTE_SECONDS)
                    drawing.board(emote.table_id)
            case ResultScreen(event=p.MatchEnded() as ended, text=text):
                self._match_ended(ended, text)
            case ResultScreen(event=p.HandEnded() as hand, text=text):
                language = hand.chat.language
                markup = analysis_keyboard(hand.table_id, hand.hand_number, language)
                s.group_text(hand.chat, text, markup)
            case Notice(to=None):
                s.group_text(screen.chat, screen.text)
            case Notice(to=p.PlayerRef() as to) if to.platform == PLATFORM:
                keys: InlineKeyboardMarkup | ReplyKeyboardRemove | None = None
                if Action.BACK in screen.actions:
                    keys = back_keyboard(screen.table_id, to.language)
                elif not s.manager.tables_of(to):  # no move of theirs waits anywhere now
                    keys = ReplyKeyboardRemove()
                await s.private_text(int(to.user_id), screen.text, keys)
            case ClosedScreen(event=closed):
                self._table_closed(closed)
            case TurnGone(player=player, table_id=table_id, label=label, left=left):
                if not self._elsewhere(player, table_id):
                    await s.no_turn_coming(player, "left" if left else "ended", label)
            case SeatedScreen(event=seated):
                await self._check_seated(seated)
            case RefusalScreen(event=refusal):
                if refusal.to.platform == PLATFORM:
                    await s.private_text(int(refusal.to.user_id), refused(refusal))
            case SeasonScreen(event=season):
                self.lists.season_ended(season)
            case ReportScreen(event=filed, text=text):
                await self._tell_admins(filed, text)
            case TournamentScreen(event=update, text=text, actions=actions, picture=None):
                language = update.chat.language
                keys = join_keyboard(language) if Action.JOIN in actions else None
                s.group_text(update.chat, text, keys)
            case TournamentScreen(event=update, text=text, picture=facts) if facts is not None:
                if s.chat_id(update.chat) not in s.gone:
                    url = s.tournament_url(update.view.id)
                    keys = tournament_keyboard(url, update.chat.language) if url else None
                    send = functools.partial(self._send_picture, update.chat, text, facts, keys)
                    s.to_group(update.chat, send)

    async def _tell_admins(self, filed: p.ReportFiled, text: str) -> None:
        """A report, privately to each of the group's admins who started the bot (the
        others cannot be written to first: Telegram's rule), with its buttons."""
        s, chat = self.s, filed.chat
        try:
            admins = await send(lambda: s.bot.get_chat_administrators(int(chat.chat_id)))
        except TelegramError:
            log.warning("could not list the admins of %s", chat.chat_id, exc_info=True)
            return
        keys = report_keyboard(filed.report.id, chat.chat_id, chat.language)
        for member in admins:
            if member.user.is_bot or not await s.can_reach(member.user.id):
                continue
            await s.private_text(member.user.id, text, keys)

    def _match_ended(self, event: p.MatchEnded, caption: str) -> None:
        board = self.s.boards.get(event.table_id)
        if board is not None and board.event is not None:
            # The final position, as the match result says it (the last move ended it).
            board.event = p.ended_board(board.event, event)
            self.drawing.board(event.table_id)
        if self.s.chat_id(event.chat) in self.s.gone:
            return
        label = board.label if board else event.table_id
        self.s.to_group(event.chat, functools.partial(self._send_result, event, label, caption))

    def _table_closed(self, event: p.TableClosed) -> None:
        s = self.s
        self.drawing.forget_hands(event.table_id)
        board = s.boards.get(event.table_id)
        if board is not None:
            board.closed = event.reason
            self.drawing.board(event.table_id)

    async def _check_seated(self, event: p.PlayerSeated) -> None:
        """Nobody is dealt in whom the bot cannot reach privately: such a player is
        unseated (before the match) and given the deep link."""
        s = self.s
        if event.player.platform != PLATFORM:
            return
        user_id = int(event.player.user_id)
        if await s.can_reach(user_id):
            url = s.web_app_url(event.table_id)
            if url is not None:  # the web table runs: its Mini App button, once per seat
                language = event.player.language
                state = s.manager.table_state(event.table_id)
                text = s.t(language)(
                    "You can also play table {label} from the web page:",
                    label=state.label if state is not None else "",
                )
                await s.private_text(user_id, text, web_app_keyboard(url, language))
            return
        await s.manager.handle(p.Leave(event.player, event.chat, event.table_id))
        thread = int(event.chat.thread_id) if event.chat.thread_id else None
        url = s.link(JoinLink(int(event.chat.chat_id), thread, event.table_id, event.seat))
        s.group_text(
            event.chat,
            s.unreachable_text(event.player.display_name, event.chat.language),
            link_keyboard(url, event.chat.language),
        )

    def _elsewhere(self, player: p.PlayerRef, table_id: str) -> bool:
        """Whether ``player`` sits at a live table other than ``table_id``."""
        return any(t != table_id for t in self.s.manager.tables_of(player))

    async def _send_picture(
        self,
        chat: p.ChatRef,
        text: str,
        facts: BracketFacts | TournamentStandingsFacts,
        keys: InlineKeyboardMarkup | None,
    ) -> None:
        """A tournament's bracket or standings with its text as the caption (the text
        after it, when longer than a caption may be; the text alone where photos are
        refused); ``keys`` (its page's link, with the web table) under the last of them."""
        from render import tournament_png

        s = self.s
        thread = int(chat.thread_id) if chat.thread_id else None
        fits = len(text) <= CAPTION_LIMIT
        try:
            if s.chat_id(chat) not in s.no_photos:
                png = await self.drawing.render(tournament_png, facts)
                try:
                    await s.to_chat(
                        chat,
                        lambda chat_id: s.bot.send_photo(
                            chat_id,
                            png,
                            caption=text if fits else None,
                            message_thread_id=thread,
                            reply_markup=keys if fits else None,
                        ),
                    )
                    if fits:
                        return
                except TelegramError as error:
                    if not is_photo_refused(error):
                        raise
            await s.to_chat(
                chat,
                lambda chat_id: s.bot.send_message(
                    chat_id, text, message_thread_id=thread, reply_markup=keys
                ),
            )
        except TelegramError as error:
            if s.lost(s.chat_id(chat), error):
                return
            s.stats.failures += 1
            log.warning("could not send a tournament's picture", exc_info=True)

    async def _send_result(self, event: p.MatchEnded, label: str, caption: str) -> None:
        from render import match_result_png

        s = self.s
        facts = table_facts(event.seats, label, event.chat.language, view=event.view)
        markup = rematch_keyboard(event.table_id, event.chat.language)
        thread = int(event.chat.thread_id) if event.chat.thread_id else None
        try:
            if s.chat_id(event.chat) not in s.no_photos:
                png = await self.drawing.render(
                    match_result_png, event.view, facts, dict(event.payouts)
                )
                try:
                    await s.to_chat(
                        event.chat,
                        lambda chat_id: s.bot.send_photo(
                            chat_id,
                            png,
                            caption=caption,
                            reply_markup=markup,
                            message_thread_id=thread,
                        ),
                    )
                    return
                except TelegramError as error:
                    if not is_photo_refused(error):
                        raise
            await s.to_chat(  # no photos there: the result as text
                event.chat,
                lambda chat_id: s.bot.send_message(
                    chat_id, caption, reply_markup=markup, message_thread_id=thread
                ),
            )
        except TelegramError as error:
            if s.lost(s.chat_id(event.chat), error):
                return
            s.stats.failures += 1
            log.warning("could not send the match result", exc_info=True)
