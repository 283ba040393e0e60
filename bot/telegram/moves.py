"""Moves sent as private messages: a turn keyboard's button (its label) or the same typed.

A turn message carries a reply keyboard (:func:`bot.telegram.keyboards.turn_keyboard`);
pressing a button sends its label as the player's own message, e.g. ``"6-4 izq."``. The
label is matched against the moves the core offers the player now (``ShowMyTiles`` at
each of their tables, so nothing is remembered here and a restart changes nothing), and
the matching move's payload goes to the core as ``PressButton``, which checks it like
any button. A move needs no answer (the keyboard hides itself, the board shows the
move); only a text that cannot be played is answered, in the player's private chat.
Other private chat (no move named, no turn waiting) is left alone. A move typed or
pressed by a player with no table (a turn keyboard kept after its table ended or they
left) is told why, and the keyboard removed.
"""

from __future__ import annotations

from telegram import ReplyKeyboardRemove, Update, User
from telegram.constants import ChatType
from telegram.ext import ContextTypes

import bot.core as p
from bot.core.vocabulary import RefusalReason
from bot.present.moves import choices_named, move_key, short_place
from bot.present.replies import refused
from bot.telegram.drawing import Drawing
from bot.telegram.keyboards import turn_keyboard
from bot.telegram.shared import Shared
from engine.tiles import TileSet

__all__ = ["Moves"]


TOP_PIP = max(tile_set.top for tile_set in TileSet)
"""The highest pip of any tile set (9): a typed tile is read before its table is known."""


class Moves:
    """Plays the move a private message names (PTB's ``MessageHandler`` calls
    :meth:`on_text` for private text that is not a command)."""

    def __init__(self, shared: Shared, drawing: Drawing) -> None:
        self.s = shared
        self.drawing = drawing

    async def _turns(self, player: p.PlayerRef) -> list[tuple[p.YourTiles, str | None]]:
        """The player's tiles at each of their tables where it is their turn now, with
        the place their buttons name when they sit at several tables."""
        tables = self.s.manager.tables_of(player)
        turns: list[tuple[p.YourTiles, str | None]] = []
        for table_id in tables:
            reply = await self.s.manager.handle(p.ShowMyTiles(player, None, table_id))
            for event in reply.events:
                if isinstance(event, p.YourTiles) and event.is_your_turn and event.moves:
                    place = None
                    if len(tables) > 1:
                        place = await self.s.title(self.s.chat_id(event.chat)) or "Telegram"
                    turns.append((event, place))
        return turns

    def _no_seat_to_play(self, player: p.PlayerRef) -> bool:
        """Whether ``player`` plays no seat now: no table, or they left and a robot plays
        for them at each."""
        tables = self.s.manager.tables_of(player)
        if tables and self.s.farewells.get(int(player.user_id)) != "left":
            return False
        for table_id in tables:
            state = self.s.manager.table_state(table_id)
            seats = state.seats if state is not None else ()
            mine = [i for i in seats if i.player is not None and i.player.key == player.key]
            if not mine or not all(i.away for i in mine):
                return False
        return True

    async def on_text(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """A private message: the move it names is played, or the player told why not
        (in the background, so the front end's ``idle`` waits for it)."""
        message = update.message
        if message is None or message.text is None or message.from_user is None:
            return
        if message.chat.type != ChatType.PRIVATE:
            return
        self.s.spawn(self._play(message.from_user, message.text))

    async def _play(self, user: User, text: str) -> None:
        self.s.seen(user)
        player = self.s.player(user)
        typed = move_key(text, TOP_PIP)  # the table's own tiles are checked below
        turns = await self._turns(player)
        if typed is None and not turns:
            return  # not a move, and no move is waiting: not ours to answer
        found = [
            (tiles, place, choice)
            for tiles, place in turns
            if typed is not None and typed.place in (None, short_place(place or ""))
            for choice in choices_named(tiles, typed)
        ]
        if len(found) == 1:
            reply = await self.s.manager.handle(p.PressButton(player, found[0][2].payload, None))
            if reply.refusal is not None:  # the turn went on meanwhile (a robot, a double press)
                await self._say(player, user.id, refused(reply.refusal, player.language))
            self.drawing.private_events(reply)
            return
        if typed is None:  # their turn waits and they wrote something else: how to move
            hint = self.s.t(player.language)(
                "Choose your move with the buttons, or type it: 6-4, 6-4 izq., paso."
            )
            await self._say(player, user.id, hint, turns)
            return
        if not turns and self._no_seat_to_play(player):
            # a turn keyboard kept after its table: why no move waits, and it goes
            await self._say(player, user.id, self.s.farewell(user.id, player.language), [])
            return
        if not turns:
            reason, params = RefusalReason.NOT_YOUR_TURN, {}
        elif len(found) > 1:
            reason = RefusalReason.WHICH_TABLE
            params = {"labels": ", ".join(sorted({place or "" for _, place, _ in found}))}
        else:
            reason, params = RefusalReason.ILLEGAL_MOVE, {}
        refusal = p.Refusal(to=player, reason=reason, params=params)
        await self._say(player, user.id, refused(refusal, player.language), turns)

    async def _say(
        self,
        player: p.PlayerRef,
        user_id: int,
        text: str,
        turns: list[tuple[p.YourTiles, str | None]] | None = None,
    ) -> None:
        """Say why a move could not be played, with the keyboard of a turn still waiting
        (so the next press can be right), or none left when no turn waits."""
        if turns is None:
            turns = await self._turns(player)
        markup = turn_keyboard(*turns[0]) if turns else ReplyKeyboardRemove()
        await self.drawing.private_reply(user_id, text, markup)
