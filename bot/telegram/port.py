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

from telegram import ReplyKeyboardRemove
from telegram.error import TelegramError

import bot.core as p
from bot.present.facts import table_facts
from bot.present.replies import refused
from bot.present.screens import (
    chat_notice,
    emote_text,
    hand_ended_text,
    match_ended_caption,
    robot_took_seat_private_text,
    turn_reminder_text,
)
from bot.present.texts import closed_text
from bot.telegram.commands import command_word
from bot.telegram.drawing import Drawing
from bot.telegram.keyboards import (
    analysis_keyboard,
    back_keyboard,
    link_keyboard,
    rematch_keyboard,
    web_app_keyboard,
)
from bot.telegram.links import JoinLink
from bot.telegram.sender import is_photo_refused
from bot.telegram.shared import ANONYMOUS_ADMIN_ID, PLATFORM, Board, Shared
from bot.telegram.standings import Lists

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
        s, drawing = self.s, self.drawing
        board: Board | None
        if isinstance(event, p.TableChanged):
            board = drawing.board_for(event.table_id, event.chat)
            board.language = event.chat.language  # the admins may change it mid-table
            board.event = event
            board.label = event.label
            drawing.board(event.table_id)
        elif isinstance(event, p.YourTiles):
            drawing.tiles(event)
        elif isinstance(event, p.EmoteShown):
            board = s.boards.get(event.table_id)
            if board is not None and board.event is not None:
                board.emote = (emote_text(event, board.language), s.now() + EMOTE_SECONDS)
                drawing.board(event.table_id)
        elif isinstance(event, p.HandEnded):
            board = s.boards.get(event.table_id)
            if board is not None and board.event is not None:  # names for the result
                text = hand_ended_text(event, board.event.seats, board.label, event.chat.language)
                markup = analysis_keyboard(event.table_id, event.hand_number, event.chat.language)
                s.group_text(event.chat, text, markup)
        elif isinstance(event, p.MatchEnded):
            self._match_ended(event)
        elif isinstance(event, p.SeatTakenByRobot):
            await self._seat_taken(event)
        elif isinstance(event, p.PlayerSeated):
            await self._check_seated(event)
        elif isinstance(event, p.TableClosed):
            self._table_closed(event)
            if event.reason is p.CloseReason.UNREACHABLE:
                for human in event.humans:  # the group cannot be told: each player is
                    if human.platform == PLATFORM:
                        # and a move keyboard left from the table goes, unless another waits
                        done = None if s.manager.tables_of(human) else ReplyKeyboardRemove()
                        text = closed_text(event, human.language)
                        await s.private_text(int(human.user_id), text, done)
            # Nobody has a turn coming at it: a turn keyboard left from it goes.
            why = "left" if event.reason is p.CloseReason.NO_HUMANS else "ended"
            for human in event.humans:
                if not self._elsewhere(human, event.table_id):
                    await s.no_turn_coming(human, why, event.label)
        elif isinstance(event, p.SeasonEnded):
            self.lists.season_ended(event)
        elif isinstance(event, p.TurnReminder) and event.player.platform == PLATFORM:
            # a slow table: half the turn's time is gone (rules.md, "Slow tables")
            group = await s.title(s.chat_id(event.chat)) or "Telegram"
            text = turn_reminder_text(event, group, event.player.language)
            await s.private_text(int(event.player.user_id), text)
        elif isinstance(event, p.Refusal) and event.to.platform == PLATFORM:
            await s.private_text(int(event.to.user_id), refused(event))
        if isinstance(event, p.Refusal):
            return
        language = event.chat.language
        anonymous = isinstance(event, p.ChatRulesChanged) and event.by.user_id == str(
            ANONYMOUS_ADMIN_ID  # an admin writing as the group
        )
        back = command_word("back", language)
        notice = chat_notice(event, language, server=False, back=back, anonymous=anonymous)
        if notice is not None:
            s.group_text(event.chat, notice)

    def _match_ended(self, event: p.MatchEnded) -> None:
        board = self.s.boards.get(event.table_id)
        if board is not None and board.event is not None:
            # The final position, as the match result says it (the last move ended it).
            board.event = p.ended_board(board.event, event)
            self.drawing.board(event.table_id)
        label = board.label if board else event.table_id
        if self.s.chat_id(event.chat) in self.s.gone:
            return
        self.s.to_group(event.chat, functools.partial(self._send_result, event, label))

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

    async def _seat_taken(self, event: p.SeatTakenByRobot) -> None:
        s = self.s
        if event.reason is p.AwayReason.LEFT and not self._elsewhere(event.player, event.table_id):
            board = s.boards.get(event.table_id)
            await s.no_turn_coming(event.player, "left", board.label if board else "")
        if event.player.platform == PLATFORM:
            language = event.player.language
            board = s.boards.get(event.table_id)
            label = board.label if board else event.table_id
            await s.private_text(
                int(event.player.user_id),
                robot_took_seat_private_text(event, label, language),
                back_keyboard(event.table_id, language),
            )

    async def _send_result(self, event: p.MatchEnded, label: str) -> None:
        from render import match_result_png

        s = self.s
        caption = match_ended_caption(event, label, event.chat.language)
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
