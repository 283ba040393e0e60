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

from telegram import InlineKeyboardMarkup, InputMediaPhoto, ReplyKeyboardRemove
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
    FriendScreen,
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
    friend_keyboard,
    join_keyboard,
    kept_seat_keyboard,
    link_keyboard,
    rematch_keyboard,
    report_keyboard,
    tournament_keyboard,
    web_app_keyboard,
)
from bot.telegram.links import JoinLink
from bot.telegram.sender import is_gone, is_photo_refused, send
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
        # (chat id, tournament id, sheet) -> the message edited in place
        self.edited: dict[tuple[int, str, str], int] = {}
        # a text sheet's newest text and buttons, and the text its message shows
        self.sheets: dict[tuple[int, str, str], tuple[str, InlineKeyboardMarkup | None]] = {}
        self.shown: dict[tuple[int, str, str], str] = {}

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
            private=board is not None and board.event is not None and board.event.private,
        )
        for screen in screens(event, reader):
            await self._show(screen)

    async def _show(self, screen: Screen) -> None:
        """One screen as Telegram widgets: the board's photo and caption (edited in
        place), a hand by private message, a group message, a private one."""
        s, drawing = self.s, self.drawing
        match screen:
            case BoardScreen(event=event, shown=drawn):
                board = drawing.board_for(event.table_id, event.chat)
                board.language = event.chat.language  # the admins may change it mid-table
                board.event = event
                board.label = event.label
                board.hidden = not drawn
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
                elif Action.SIT in screen.actions:
                    keys = kept_seat_keyboard(screen.table_id, to.language)
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
            case FriendScreen(event=friend, text=text, actions=actions) if (
                friend.to.platform == PLATFORM
            ):
                friend_keys = friend_keyboard(friend, actions)
                await s.private_text(int(friend.to.user_id), text, friend_keys)
            case ReportScreen(event=filed, text=text):
                await self._tell_admins(filed, text)
            case TournamentScreen(event=update, text=text, actions=actions, picture=None):
                language = update.chat.language
                keys = join_keyboard(language) if Action.JOIN in actions else None
                if screen.edit is None:
                    s.group_text(update.chat, text, keys)
                elif s.chat_id(update.chat) not in s.gone:  # one message kept up to date
                    sheet = (s.chat_id(update.chat), update.view.id, screen.edit.value)
                    self.sheets[sheet] = (text, keys)
                    s.to_group(update.chat, functools.partial(self._show_sheet, update.chat, sheet))
            case TournamentScreen(event=update, text=text, picture=facts) if facts is not None:
                if s.chat_id(update.chat) not in s.gone:
                    url = s.tournament_url(update.view.id)
                    keys = tournament_keyboard(url, update.chat.language) if url else None
                    # an arena's live standings: the same message, edited in place
                    edit = (update.view.id, screen.edit.value) if screen.edit else None
                    send = functools.partial(
                        self._send_picture, update.chat, text, facts, keys, edit
                    )
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
        match_id = filed.report.match_id
        record_url = s.record_url(match_id) if match_id else None
        keys = report_keyboard(filed.report.id, chat.chat_id, chat.language, record_url)
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
        key: tuple[str, str] | None = None,
    ) -> None:
        """A tournament's bracket or standings with its text as the caption (the text
        after it, when longer than a caption may be; the text alone where photos are
        refused); ``keys`` (its page's link, with the web table) under the last of them.
        ``key``: the message posted under this key before is edited in place instead."""
        from render import tournament_png

        s = self.s
        thread = int(chat.thread_id) if chat.thread_id else None
        fits = len(text) <= CAPTION_LIMIT
        try:
            if s.chat_id(chat) not in s.no_photos:
                png = await self.drawing.render(tournament_png, facts)
                edited = None if key is None else self.edited.get((s.chat_id(chat), *key))
                if edited is not None and await self._edit_picture(
                    chat, edited, png, text[:CAPTION_LIMIT], keys
                ):
                    return
                try:
                    sent = await s.to_chat(
                        chat,
                        lambda chat_id: s.bot.send_photo(
                            chat_id,
                            png,
                            caption=text if fits else None,
                            message_thread_id=thread,
                            reply_markup=keys if fits else None,
                        ),
                    )
                    if key is not None:
                        self.edited[(s.chat_id(chat), *key)] = sent.message_id
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

    async def _show_sheet(self, chat: p.ChatRef, key: tuple[int, str, str]) -> None:
        """A tournament's text sheet (the sign-up list) as it is now: its message edited
        in place, or posted when there is none yet (or it was deleted). Several changes
        waiting in the group's queue are shown by one request: the newest."""
        s = self.s
        text, keys = self.sheets[key]
        if self.shown.get(key) == text:
            return  # an earlier job of the queue showed this already
        thread = int(chat.thread_id) if chat.thread_id else None
        message_id = self.edited.get(key)
        try:
            if message_id is not None:
                try:
                    await s.to_chat(
                        chat,
                        lambda chat_id: s.bot.edit_message_text(
                            text, chat_id=chat_id, message_id=message_id, reply_markup=keys
                        ),
                    )
                except TelegramError as error:
                    if not is_gone(error):
                        raise
                    message_id = None
            if message_id is None:
                sent = await s.to_chat(
                    chat,
                    lambda chat_id: s.bot.send_message(
                        chat_id, text, reply_markup=keys, message_thread_id=thread
                    ),
                )
                self.edited[key] = sent.message_id
            self.shown[key] = text
        except TelegramError as error:
            if s.lost(s.chat_id(chat), error):
                return
            s.stats.failures += 1
            log.warning("could not show a tournament's sheet", exc_info=True)

    async def _edit_picture(
        self,
        chat: p.ChatRef,
        message_id: int,
        png: bytes,
        caption: str,
        keys: InlineKeyboardMarkup | None,
    ) -> bool:
        """Put ``png`` and ``caption`` on a picture message posted before; False when it
        is gone (someone deleted it: it is posted anew)."""
        s = self.s
        try:
            await s.to_chat(
                chat,
                lambda chat_id: s.bot.edit_message_media(
                    InputMediaPhoto(png, caption=caption),
                    chat_id=chat_id,
                    message_id=message_id,
                    reply_markup=keys,
                ),
            )
        except TelegramError as error:
            if is_gone(error):
                return False
            raise
        return True

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
