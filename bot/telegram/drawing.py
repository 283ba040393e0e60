"""The board and the hands: pictures sent and edited in place by background workers.

* **The board**: one photo message per table in its group (and forum topic), with a
  caption and inline buttons, edited in place (editMessageMedia when the picture changes,
  editMessageCaption otherwise). Only the newest state is drawn when the game runs faster
  than Telegram lets a group be edited (:class:`bot.telegram.sender.Latest`). Until the
  match starts the photo is the waiting table (``render.waiting_png``). Where the message
  is is kept as a note with the table (``set_front_end_note``), so after a restart a
  resumed table keeps editing the same message. A new hand's deal waits a few seconds
  for the opener's tile (:data:`DEAL_SPACINGS`) and is drawn with it.
* **The tiles**: a private photo per own turn (so Telegram notifies the player)
  carrying a reply keyboard with one button per legal move. A button sends its label as
  the player's message (:mod:`bot.telegram.moves` turns it into the move), so a move
  costs no callback answer, and the keyboard hides itself once pressed: nothing is
  edited or deleted afterwards. Between turns the tiles are sent only when asked for
  (/fichas, the board's "my tiles"): a dealt hand's message would be replaced by the
  player's turn message a few seconds later. A move is one turn message and one board
  edit (docs/capacity.md).
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import math
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor

from telegram import (
    InlineKeyboardMarkup,
    InputMediaPhoto,
    MessageEntity,
    ReplyKeyboardMarkup,
    ReplyKeyboardRemove,
    User,
)
from telegram.error import ChatMigrated, Forbidden, TelegramError

import bot.core as p
from bot.core.bus import JsonValue
from bot.pacing import BOARD_SPACING, PRIVATE_GAP
from bot.present.facts import board_facts, hand_facts, table_facts
from bot.present.i18n import isolate, language_of
from bot.present.screens import board_caption, board_text, hand_caption
from bot.telegram.keyboards import board_keyboard, hand_keyboard, link_keyboard, turn_keyboard
from bot.telegram.links import JoinLink
from bot.telegram.sender import NOT_MODIFIED, Latest, is_gone, is_photo_refused, send
from bot.telegram.shared import BOARD_NOTE, HAND_NOTE, PLATFORM, Board, Hand, Shared

__all__ = ["DEAL_SPACINGS", "Drawing"]

log = logging.getLogger(__name__)

HandKey = tuple[str, str]  # (user id, table id)
HandState = tuple[p.YourTiles | None, bool]
"""(tiles to show, or None when the table is gone; sent even if already shown: a
command asked for them)."""
ReplyMarkup = InlineKeyboardMarkup | ReplyKeyboardMarkup | ReplyKeyboardRemove


DEAL_SPACINGS = 1.2
"""A new hand's deal (from the second hand on) waits up to this many board spacings (6 s)
for the opener's first tile before the board shows it alone. Meanwhile the board keeps
the finished hand, whose result was just posted; when the tile comes in time the deal and
the tile are one edit. The dealt board is a message the next one replaces a few seconds
later: one request a hand saved (docs/capacity.md)."""

DEAL_POLL = 0.05  # seconds between two looks for the opener's tile while a deal waits


class Drawing:
    """Draws boards and hands (newest state first) for the front end's port.

    Args:
        shared: the front end's shared state.
        board_spacing: the fewest seconds between two edits of one board (0: none).
        private_gap: the seconds between two requests made at once in one private chat.
    """

    def __init__(
        self,
        shared: Shared,
        *,
        board_spacing: float = BOARD_SPACING,
        private_gap: float = PRIVATE_GAP,
    ) -> None:
        self.s = shared
        self.board_spacing = board_spacing
        self.private_gap = private_gap
        self._edited: dict[str, float] = {}  # table -> loop time of its board's last edit
        self._hurry = asyncio.Event()  # stopping: boards shown at once, no spacing
        self._private_free: dict[int, float] = {}  # private chat -> loop time of its next slot
        self.boards: Latest[None] = Latest(self._show_board)
        self.hands: Latest[HandState] = Latest(self._show_hand)
        self._pool = ThreadPoolExecutor(1, thread_name_prefix="telegram-render")

    # ------------------------------------------------------------------ scheduling
    def board(self, table_id: str) -> None:
        """Draw the table's board again (its newest state) soon."""
        self.boards.put(table_id, None)

    def tiles(self, event: p.YourTiles, *, force: bool = False) -> None:
        """Show a player's tiles; ``force`` sends them anew (a command asked for them)."""
        self.hands.put((event.to.user_id, event.table_id), (event, force))

    def private_events(self, reply: p.Reply) -> None:
        """The private tiles a command's reply carries."""
        for event in reply.events:
            if isinstance(event, p.YourTiles):
                self.tiles(event, force=True)

    def forget_hands(self, table_id: str) -> None:
        """The table is gone: forget its players' hand messages (a reply-keyboard press
        left behind is answered by the core: no table waits for it)."""
        for key in list(self.s.hands):
            if key[1] == table_id:
                self.hands.put(key, (None, True))

    def hurry(self) -> None:
        """The bot is stopping: every board waiting for its spacing is shown at once."""
        self._hurry.set()

    @property
    def busy(self) -> bool:
        return self.boards.busy or self.hands.busy

    async def idle(self) -> None:
        await self.boards.idle()
        await self.hands.idle()

    async def close(self) -> None:
        await self.boards.close()
        await self.hands.close()

    def shutdown(self) -> None:
        self._pool.shutdown(wait=False)

    # ------------------------------------------------------------------ boards
    def board_for(self, table_id: str, chat: p.ChatRef) -> Board:
        board = self.s.boards.get(table_id)
        if board is None:
            board = Board(
                self.s.chat_id(chat),
                int(chat.thread_id) if chat.thread_id else None,
                language_of(chat.language),
            )
            # A table resumed after a restart keeps editing the board message it had.
            note = self.s.manager.front_end_note(table_id, BOARD_NOTE)
            if isinstance(note, dict):
                chat_id, message_id = note.get("chat_id"), note.get("message_id")
                title = note.get("title")
                if isinstance(chat_id, int) and isinstance(message_id, int):
                    board.chat_id, board.message_id = chat_id, message_id
                    board.text = note.get("text") is True
                    title = title if isinstance(title, str) else ""
                    board.noted = (chat_id, message_id, title, board.text)
                if isinstance(title, str) and title:
                    self.s.titles.setdefault(board.chat_id, title)
            self.s.boards[table_id] = board
        return board

    async def _note_board(self, table_id: str, board: Board) -> None:
        """Keep where the board message is, and the group's title, with the table (they
        survive a restart)."""
        if board.message_id is None:
            return
        title = self.s.titles.get(board.chat_id, "")
        where = (board.chat_id, board.message_id, title, board.text)
        if where == board.noted:
            return
        note: dict[str, JsonValue] = {"chat_id": board.chat_id, "message_id": board.message_id}
        if title:
            note["title"] = title
        if board.text:
            note["text"] = True
        try:
            await self.s.manager.set_front_end_note(table_id, BOARD_NOTE, note)
        except Exception:  # a note not kept only costs a new board after a restart
            log.warning("could not keep the board note of table %s", table_id, exc_info=True)
            return
        board.noted = where

    def _hand_slot(self, key: HandKey) -> Hand:
        """A player's hand messages for a table; after a restart, what the note kept (so
        the turn or the hand already shown is not sent twice)."""
        slot = self.s.hands.get(key)
        if slot is None:
            slot = self.s.hands[key] = Hand()
            note = self.s.manager.front_end_note(key[1], HAND_NOTE.format(user_id=key[0]))
            if isinstance(note, list) and len(note) == 2:
                hand, move = note
                if isinstance(hand, int) and isinstance(move, int):
                    slot.shown = slot.noted = (hand, move)
        return slot

    async def _note_hand(self, key: HandKey, slot: Hand) -> None:
        """Keep what the player's last hand message showed with the table (not sent again
        after a restart)."""
        if slot.shown is None or slot.shown == slot.noted:
            return
        try:
            await self.s.manager.set_front_end_note(
                key[1], HAND_NOTE.format(user_id=key[0]), list(slot.shown)
            )
        except Exception:  # a note not kept only costs a hand message sent again after a restart
            log.warning("could not keep the hand note of table %s", key[1], exc_info=True)
            return
        slot.noted = slot.shown

    async def render(self, function: Callable[..., bytes], *args: object) -> bytes:
        loop = asyncio.get_running_loop()
        started = loop.time()
        png = await loop.run_in_executor(self._pool, function, *args)
        self.s.stats.render_seconds += loop.time() - started
        return png

    async def _show_board(self, table_id: str, _state: None) -> None:
        from render import board_png, waiting_png

        s = self.s
        board = s.boards.get(table_id)
        if board is None or board.event is None:
            return
        if board.chat_id in s.gone or board.hidden:  # removed from the group, or private
            if board.closed:
                s.boards.pop(table_id, None)
            return
        if self.board_spacing > 0 and board.message_id is not None:
            # too soon after the last edit: wait, and show whatever is newest by then
            wait = self._edited.get(table_id, -math.inf) + self.board_spacing
            wait -= asyncio.get_running_loop().time()
            if wait > 0 and not self._hurry.is_set():
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self._hurry.wait(), wait)
            if (
                not self._hurry.is_set()
                and _fresh_deal(board)
                and await self._newer(table_id, DEAL_SPACINGS * self.board_spacing)
            ):
                return  # the opener's tile came: it is shown with the deal, in one edit
        event = board.event
        emote = None
        if board.emote is not None:
            if board.emote[1] >= s.now():
                emote = board.emote[0]
            else:
                board.emote = None
        caption = board_caption(event, board.language, emote=emote)
        text = board_text(event, board.language, emote=emote)
        closed = board.closed
        markup = (
            None
            if closed
            else board_keyboard(
                event,
                board.language,
                mini_app_url=s.mini_app_url(event.table_id),
                watch_url=s.watch_url(event.table_id),
            )
        )
        if closed and event.phase != "ended":
            caption += "\n" + s.t(board.language)("This table is closed.")
            text += "\n" + s.t(board.language)("This table is closed.")
        draw: Callable[[], bytes]
        picture: tuple[object, ...]
        if event.view is None:  # seats still filling, or the countdown: no hand yet
            starting = event.phase == "countdown"
            facts = board_facts(event, board.language)  # with the seconds to the timer
            picture = ("waiting", event.rules, facts, starting)
            draw = functools.partial(waiting_png, event.rules, facts, starting=starting)
        else:
            facts = table_facts(event.seats, event.label, board.language, view=event.view)
            picture = ("board", event.view, facts)
            draw = functools.partial(board_png, event.view, facts)
        markup_key = markup.to_dict() if markup is not None else None
        changed = (
            board.message_id is None
            or (not board.text and picture != board.picture)
            or (text if board.text else caption) != board.caption
            or markup_key != board.markup
        )
        for _attempt in range(3):
            try:
                if board.text:
                    await self._show_text(board, text, markup, markup_key)
                elif board.message_id is None:
                    png = await self.render(draw)
                    message = await send(
                        lambda png=png: s.bot.send_photo(  # type: ignore[misc]
                            board.chat_id,
                            png,
                            caption=caption,
                            reply_markup=markup,
                            message_thread_id=board.thread_id,
                        )
                    )
                    board.message_id = message.message_id
                    s.stats.board_sends += 1
                elif picture != board.picture:
                    png = await self.render(draw)
                    result = await send(
                        lambda png=png: s.bot.edit_message_media(  # type: ignore[misc]
                            InputMediaPhoto(png, caption=caption),
                            chat_id=board.chat_id,
                            message_id=board.message_id,
                            reply_markup=markup,
                        )
                    )
                    s.stats.board_edits += result is not NOT_MODIFIED
                elif caption != board.caption or markup_key != board.markup:
                    await send(
                        lambda: s.bot.edit_message_caption(
                            chat_id=board.chat_id,
                            message_id=board.message_id,
                            caption=caption,
                            reply_markup=markup,
                        )
                    )
                    s.stats.board_edits += 1
            except ChatMigrated as error:  # the group became a supergroup: new id
                s.spawn(s.migrate(board.chat_id, error.new_chat_id))
                s.migrated[board.chat_id] = error.new_chat_id
                board.chat_id = error.new_chat_id
                board.message_id = None
                continue
            except TelegramError as error:
                if is_gone(error) and board.message_id is not None:
                    board.message_id = None  # someone deleted it: post a new board
                    continue
                if is_photo_refused(error) and not board.text:
                    self._lose_photos(board)
                    continue
                if s.lost(board.chat_id, error):
                    break
                s.stats.failures += 1
                raise
            board.picture, board.markup = picture, markup_key
            board.caption = text if board.text else caption
            if changed:
                self._edited[table_id] = asyncio.get_running_loop().time()
            break
        if closed:
            s.boards.pop(table_id, None)
            self._edited.pop(table_id, None)
        else:
            await self._note_board(table_id, board)

    async def _newer(self, table_id: str, seconds: float) -> bool:
        """Wait up to ``seconds`` for a newer state of the table's board; True if one came
        (the board's worker shows it next)."""
        loop = asyncio.get_running_loop()
        until = loop.time() + seconds
        while not self.boards.pending(table_id):
            left = until - loop.time()
            if left <= 0 or self._hurry.is_set():
                return False
            await asyncio.sleep(min(left, DEAL_POLL))
        return True

    async def _show_text(
        self,
        board: Board,
        text: str,
        markup: InlineKeyboardMarkup | None,
        markup_key: dict[str, object] | None,
    ) -> None:
        """The board as a text message (the bot may not send pictures in its group)."""
        s = self.s
        if board.message_id is None:
            message = await send(
                lambda: s.bot.send_message(
                    board.chat_id, text, reply_markup=markup, message_thread_id=board.thread_id
                )
            )
            board.message_id = message.message_id
            s.stats.board_sends += 1
        elif text != board.caption or markup_key != board.markup:
            await send(
                lambda: s.bot.edit_message_text(
                    text, chat_id=board.chat_id, message_id=board.message_id, reply_markup=markup
                )
            )
            s.stats.board_edits += 1

    def _lose_photos(self, board: Board) -> None:
        """The bot may no longer send pictures in the board's group: the board goes on as
        text (the picture, which can no longer follow the game, is deleted), and the
        group's admins are told once which right is missing."""
        s = self.s
        old = board.message_id
        board.text, board.message_id, board.caption, board.picture = True, None, None, None
        if old is not None:
            s.spawn(self._delete(board.chat_id, old))
        if board.chat_id in s.no_photos:
            return
        s.no_photos.add(board.chat_id)
        log.warning("chat %s: no right to send photos; its boards are shown as text", board.chat_id)
        thread = board.thread_id
        chat = p.ChatRef(PLATFORM, str(board.chat_id), thread_id=str(thread) if thread else None)
        s.group_text(
            chat,
            s.t(board.language)(
                "Admins: I may no longer send photos in this group, so the board is shown as "
                "text. Give me back the right to send photos to see the table's picture again."
            ),
        )

    # ------------------------------------------------------------------ hands
    async def _show_hand(self, key: HandKey, state: HandState) -> None:
        from render import hand_png

        s = self.s
        event, force = state
        if event is None:  # the table is gone: forget its hand messages
            s.hands.pop(key, None)
            return
        slot = self._hand_slot(key)
        turn = event.is_your_turn and bool(event.moves)
        shown = (event.hand_number, event.move_number if turn else -1)
        if not force and (not turn or shown == slot.shown):
            return  # tiles between turns are shown when asked for; a turn once
        language = event.to.language
        seconds = None
        if event.is_your_turn and event.deadline is not None:
            seconds = max(0, round(event.deadline - s.now()))
        board = self.board_for(event.table_id, event.chat)
        group = await s.title(board.chat_id)
        markup: ReplyMarkup | None
        if turn:
            several = len(s.manager.tables_of(event.to)) > 1
            markup = turn_keyboard(event, (group or "Telegram") if several else None)
        else:
            markup = hand_keyboard(event, web_app_url=s.web_app_url(event.table_id))
        caption = hand_caption(event, language, group=group or "Telegram", seconds_left=seconds)
        png = await self.render(hand_png, event.view, hand_facts(event, seconds))
        user_id = int(event.to.user_id)
        if not await self._paced(user_id, lambda: not force and self.hands.pending(key)):
            return  # a newer state of this hand waits: it is shown instead, in this slot
        # the one notifying message of a turn, unless the player asked for none (/avisos)
        silent = turn and not await self._notifies(event.to)
        try:
            await send(
                lambda: s.bot.send_photo(
                    user_id,
                    png,
                    caption=caption,
                    reply_markup=markup,
                    disable_notification=silent or None,
                )
            )
        except Forbidden:
            s.reachable.discard(user_id)
            if not slot.warned and board is not None:
                slot.warned = True
                await self._warn_unreachable(event, board)
            elif turn and board is not None:  # every later turn of theirs: a short ping
                self._ping_unreachable(event, board)
            return
        except TelegramError:
            s.stats.failures += 1
            raise
        finally:
            self._private_done(user_id)
        s.stats.hand_sends += 1
        s.reachable.add(user_id)
        if turn:
            s.keyboards.add(user_id)  # kept by their client until removed
        slot.shown = shown
        await self._note_hand(key, slot)

    async def _notifies(self, player: p.PlayerRef) -> bool:
        """Whether ``player``'s turn message notifies them (their /avisos); True when
        their setting cannot be read: a turn is never missed for that."""
        try:
            return await self.s.manager.turn_notifications(player) is not p.Notifications.NONE
        except Exception:
            log.warning("could not read the notifications of %s", player.user_id, exc_info=True)
            return True

    async def private_reply(self, user_id: int, text: str, markup: ReplyMarkup | None) -> None:
        """A short answer in a player's private chat (a move typed or pressed that cannot
        be played), in that chat's next request slot."""
        await self._paced(user_id)
        try:
            await self.s.private_text(user_id, text, markup)
        finally:
            self._private_done(user_id)

    def _private_slot(self, user_id: int) -> float:
        """Reserve the next request slot of a private chat (``private_gap`` apart);
        returns the seconds to wait for it."""
        now = asyncio.get_running_loop().time()
        at = max(now, self._private_free.get(user_id, 0.0))
        self._private_free[user_id] = at + self.private_gap
        if len(self._private_free) > 10_000:  # forget chats whose slots are long past
            self._private_free = {k: v for k, v in self._private_free.items() if v > now}
        return at - now

    async def _paced(self, user_id: int, outdated: Callable[[], bool] = lambda: False) -> bool:
        """Wait for the next request slot of ``user_id``'s private chat and take it;
        False (no slot taken) when what was to be sent became ``outdated`` meanwhile."""
        if self.private_gap <= 0:
            return True
        loop = asyncio.get_running_loop()
        while (wait := self._private_free.get(user_id, 0.0) - loop.time()) > 0:
            await asyncio.sleep(wait)
            if outdated():
                return False
        self._private_slot(user_id)
        return True

    def _private_done(self, user_id: int) -> None:
        """A request in ``user_id``'s private chat just ended: the next waits a whole gap
        from now (from when Telegram had it, not from when it was sent)."""
        if self.private_gap > 0:
            done = asyncio.get_running_loop().time() + self.private_gap
            self._private_free[user_id] = max(self._private_free.get(user_id, 0.0), done)

    async def _delete(self, chat_id: int, message_id: int) -> None:
        try:
            await send(lambda: self.s.bot.delete_message(chat_id, message_id))
        except TelegramError:
            log.info("could not delete message %s in %s", message_id, chat_id)
        finally:
            if chat_id > 0:  # a private chat's: its next request waits a gap from now
                self._private_done(chat_id)

    async def _warn_unreachable(self, event: p.YourTiles, board: Board) -> None:
        _ = self.s.t(board.language)
        thread = board.thread_id
        url = self.s.link(JoinLink(board.chat_id, thread))
        chat = p.ChatRef(PLATFORM, str(board.chat_id), thread_id=str(thread) if thread else None)
        self.s.group_text(
            chat,
            _(
                "{name}, I cannot send you your tiles: open our private chat (a robot plays "
                "for you when your time runs out).",
                name=event.to.display_name,
            ),
            link_keyboard(url, board.language),
        )

    def _ping_unreachable(self, event: p.YourTiles, board: Board) -> None:
        """One short line in the group naming (and notifying) a player whose turn it is
        while their private chat stays closed (after :meth:`_warn_unreachable`)."""
        name = isolate(event.to.display_name)
        text = self.s.t(board.language)(
            "{name}, it is your turn: open our private chat to see your tiles.",
            name=event.to.display_name,
        )
        thread = board.thread_id
        chat = p.ChatRef(PLATFORM, str(board.chat_id), thread_id=str(thread) if thread else None)
        start = text.find(name)
        mention = (
            [
                MessageEntity(
                    MessageEntity.TEXT_MENTION,
                    _utf16(text[:start]),
                    _utf16(name),
                    user=User(int(event.to.user_id), event.to.display_name, is_bot=False),
                )
            ]
            if start >= 0
            else None
        )
        self.s.group_text(chat, text, entities=mention)


def _utf16(text: str) -> int:
    """The length of ``text`` in UTF-16 code units (how Telegram counts entity offsets)."""
    return len(text.encode("utf-16-le")) // 2


def _fresh_deal(board: Board) -> bool:
    """The board's newest state is a new hand (not the match's first) with no tile yet,
    not drawn yet."""
    event = board.event
    view = event.view if event is not None else None
    drawn = board.picture[1] if board.picture and board.picture[0] == "board" else None
    return (
        view is not None
        and not board.closed
        and view.hand_number > 1
        and not view.history
        and view.outcome is None
        and getattr(drawn, "hand_number", None) != view.hand_number
    )
