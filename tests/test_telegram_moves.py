"""Moves sent as private messages (bot/telegram/moves.py): a turn keyboard's button, or
the same move typed, through the real python-telegram-bot and the fake Bot API server."""

from __future__ import annotations

from telegram import User

from bot.core import ShowMyTiles, YourTiles
from bot.present.moves import move_buttons
from tests.fake_telegram import TelegramWorld

GROUP = -1001000
OTHER_GROUP = -1002000


def _said(world: TelegramWorld, user: User, mark: int) -> list[str]:
    return [c.params["text"] for c in world.fake.calls[mark:] if c.chat_id == user.id]


def _typed(label: str) -> str:
    """The move of a button as a player would type it: "6-4 izq." -> "4 6 izquierda"."""
    if label == "Paso":
        return "pasar"
    tile, _, side = label.partition(" ")
    high, low = tile.split("-")
    words = {"izq.": "izquierda", "der.": "derecha", "": ""}[side]
    return f"{low} {high} {words}".strip()


async def test_a_move_typed_in_any_usual_form_is_played_without_an_answer() -> None:
    async with TelegramWorld() as world:
        ana = world.fake.add_user(1001, "Ana")
        group = world.fake.add_group(GROUP, "Dominó")
        table_id = await world.table_with_robots(ana, group)
        last = None
        for _ in range(3):
            # her next turn (a typed move leaves the keyboard up, as Telegram does)
            for _step in range(50):
                message = world.turn_message(ana)
                if message is not None and message["message_id"] != last:
                    break
                await world.clock.advance(0)
                await world.settle()
            assert message is not None and message["message_id"] != last
            last = message["message_id"]
            label = world.move_labels(ana)[-1]
            before = world.manager.table_state(table_id)
            assert before is not None
            mark = await world.command(world.fake.private_chat(ana), ana, _typed(label))
            await world.settle()
            after = world.manager.table_state(table_id)
            assert after is not None and after.move_number > before.move_number
            assert _said(world, ana, mark) == []


async def test_private_chat_that_names_no_move_is_left_alone_when_no_turn_waits() -> None:
    async with TelegramWorld() as world:
        ana = world.fake.add_user(1001, "Ana")
        chat = world.fake.private_chat(ana)
        mark = await world.command(chat, ana, "hola, ¿cómo se juega?")
        await world.settle()
        assert _said(world, ana, mark) == []
        mark = await world.command(chat, ana, "6-4")  # a move, but no table: told so
        await world.settle()
        assert _said(world, ana, mark) == ["Ahora no tienes mesa: no te espera ninguna jugada."]


async def test_a_text_that_names_no_move_during_her_turn_gets_how_to_move_and_her_keyboard() -> (
    None
):
    async with TelegramWorld() as world:
        ana = world.fake.add_user(1001, "Ana")
        group = world.fake.add_group(GROUP, "Dominó")
        table_id = await world.table_with_robots(ana, group)
        await world.until_turn(ana)
        labels = world.move_labels(ana)
        before = world.manager.table_state(table_id)
        assert before is not None
        mark = await world.command(world.fake.private_chat(ana), ana, "¿y ahora qué?")
        await world.settle()
        (answer,) = [c for c in world.fake.calls[mark:] if c.chat_id == ana.id]
        assert answer.params["text"] == (
            "Elige tu jugada con los botones, o escríbela: 6-4, 6-4 izq., paso."
        )
        assert world.move_labels(ana) == labels
        assert world.manager.table_state(table_id).move_number == before.move_number


async def test_a_player_with_turns_at_two_tables_says_where_and_an_unplaced_move_is_asked_about() -> (
    None
):
    async with TelegramWorld() as world:
        ana = world.fake.add_user(1001, "Ana")
        uno = world.fake.add_group(GROUP, "Uno")
        dos = world.fake.add_group(OTHER_GROUP, "Dos")
        one = await world.table_with_robots(ana, uno)
        two = await world.table_with_robots(ana, dos)
        player = world.front._player(ana)

        def waiting() -> list[str]:
            out = []
            for t in (one, two):
                state = world.manager.table_state(t)
                if state is not None and state.phase == "playing":
                    seat = next(i.seat for i in state.seats if i.player == player)
                    if state.turn == seat:
                        out.append(t)
            return out

        async def offered() -> dict[str, set[str]]:
            out = {}
            for t in waiting():
                (tiles,) = (await world.manager.handle(ShowMyTiles(player, None, t))).events
                assert isinstance(tiles, YourTiles)
                out[t] = {label for _choice, label in move_buttons(tiles)}
            return out

        # Ana's turn waits at one table while the other plays on; she plays on (with her
        # keyboard) until both wait for her with a move they have in common.
        for _ in range(400):
            if len(waiting()) == 2:
                moves = await offered()
                if moves[one] & moves[two]:
                    break
                await world.play(ana, world.move_labels(ana)[0])
            await world.clock.advance(0)
            await world.settle()
        assert len(waiting()) == 2
        labels = world.move_labels(ana)
        place = labels[0].split(" · ")[0]
        assert place in ("Uno", "Dos") and all(x.startswith(place + " · ") for x in labels)
        moves = await offered()
        common = moves[one] & moves[two]
        assert common
        numbers = {t: world.manager.table_state(t).move_number for t in (one, two)}
        # A move both hands offer, typed without its place: she is asked which table.
        mark = await world.command(world.fake.private_chat(ana), ana, sorted(common)[0])
        await world.settle()
        assert _said(world, ana, mark) == ["Hay varias mesas aquí (Dos, Uno); di cuál."]
        assert {t: world.manager.table_state(t).move_number for t in (one, two)} == numbers
        # With its place (her keyboard's button), the same move is played at that table.
        there = one if place == "Uno" else two
        mark = await world.command(
            world.fake.private_chat(ana), ana, f"{place} · {sorted(common)[0]}"
        )
        await world.settle()
        assert _said(world, ana, mark) == []
        numbers[there] += 1
        assert {t: world.manager.table_state(t).move_number for t in (one, two)} == numbers


async def test_the_turn_keyboard_goes_when_the_match_ends_and_a_kept_button_says_why() -> None:
    async with TelegramWorld() as world:
        ana = world.fake.add_user(1001, "Ana")
        group = world.fake.add_group(GROUP, "Dominó")
        table_id = await world.table_with_robots(ana, group, "/mesa meta=50")
        await world.until_turn(ana)
        old_label = world.move_labels(ana)[0]
        await world.play_out(table_id, {0: ana})
        await world.settle()

        assert world.manager.tables() == []
        assert world.fake.kept_labels(ana) == []  # nothing left under her text field
        (gone,) = [
            c
            for c in world.fake.calls_to("sendMessage", chat_id=ana.id)
            if c.params.get("reply_markup") == {"remove_keyboard": True}
        ]
        assert gone.params["text"] == "La mesa 1 terminó: ya no hay jugadas allí."
        assert gone.params["disable_notification"] is True
        # A button pressed anyway (an old keyboard, typed again): why, and none given back.
        mark = await world.command(world.fake.private_chat(ana), ana, old_label)
        await world.settle()
        assert _said(world, ana, mark) == ["Tu mesa terminó: ya no hay jugadas."]


async def test_the_turn_keyboard_goes_when_the_player_leaves_during_her_turn() -> None:
    async with TelegramWorld() as world:
        ana = world.fake.add_user(1001, "Ana")
        group = world.fake.add_group(GROUP, "Dominó")
        await world.table_with_robots(ana, group)
        await world.until_turn(ana)
        label = world.move_labels(ana)[0]
        assert world.fake.kept_labels(ana) != []
        await world.command(group, ana, "/levantarse")
        await world.settle()

        assert world.fake.kept_labels(ana) == []
        texts = [c.params["text"] for c in world.fake.calls_to("sendMessage", chat_id=ana.id)]
        assert "Te levantaste de la mesa 1: allí no te espera ninguna jugada." in texts
        mark = await world.command(world.fake.private_chat(ana), ana, label)
        await world.settle()
        assert _said(world, ana, mark) == ["Te levantaste de tu mesa: no te espera ninguna jugada."]
