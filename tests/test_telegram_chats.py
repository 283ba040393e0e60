"""A group's own life, through the fake Bot API server and the real python-telegram-bot:
it becomes a supergroup."""

from __future__ import annotations

from bot.core import ChatRef
from bot.present.labels import rules_text
from tests.fake_telegram import TelegramWorld

BASIC_GROUP = -5001
SUPERGROUP = -1005001


def _texts(world: TelegramWorld, chat_id: int, after: int = 0) -> list[str]:
    return [
        c.params["text"]
        for c in world.fake.calls[after:]
        if c.method == "sendMessage" and c.chat_id == chat_id and c.ok
    ]


async def test_a_group_upgraded_to_a_supergroup_takes_its_table_rules_and_history_along_once() -> (
    None
):
    async with TelegramWorld() as world:
        boss = world.fake.add_user(1001, "Ana")
        group = world.fake.add_group(BASIC_GROUP, "Dominó", admins={1001}, supergroup=False)
        await world.reply_to(group, boss, "/config meta=50")
        first = await world.table_with_robots(boss, group)
        await world.play_out(first, {0: boss})
        table_id = await world.table_with_robots(boss, group)
        await world.settle()

        mark = len(world.fake.calls)
        supergroup = world.fake.migrate(BASIC_GROUP, SUPERGROUP, boss)
        await world.settle()

        # The board is posted again in the supergroup; nothing is sent to the old id.
        (board,) = [c for c in world.fake.calls_to("sendPhoto", chat_id=SUPERGROUP) if c.ok]
        assert (board.caption() or "").startswith("Mesa 1 · Mano 1 · Partida a 50\n")
        assert world.manager.table_state(table_id).chat.chat_id == str(SUPERGROUP)
        assert world.manager.front_end_note(table_id, "telegram.board") == {
            "chat_id": SUPERGROUP,
            "message_id": board.result["message_id"],
            "title": "Dominó",
        }
        rules = await world.reply_to(supergroup, boss, "/reglas")
        info = await world.manager.chat_rules(ChatRef("telegram", str(SUPERGROUP)))
        assert (info.rules.target, info.set_by_admins) == (50, True)
        assert rules.params["text"] == rules_text(info.rules, info.preset, info.overrides, "es")
        tiles = await world.reply_to(supergroup, boss, "/fichas")
        assert tiles.params["text"] == "Tus fichas están en nuestro chat privado."
        again = await world.reply_to(supergroup, boss, "/jugar")
        assert again.params["text"] == "Ya tienes asiento en la mesa 1 aquí."
        assert world.manager.tables() == [table_id]
        history = await world.command(supergroup, boss, "/historial")
        document = await world.fake.wait_for("sendDocument", after=history)
        assert document.ok and document.chat_id == SUPERGROUP
        assert (await world.storage.get_chat_rules(f"telegram:{SUPERGROUP}")) is not None
        assert (await world.storage.get_chat_rules(f"telegram:{BASIC_GROUP}")) is None

        # After a restart every result still goes to the supergroup.
        await world.restart()
        await world.play_out(table_id, {0: boss})
        await world.settle()
        assert [c.method for c in world.fake.calls[mark:] if c.chat_id == BASIC_GROUP] == []
        assert any("mano 1" in t for t in _texts(world, SUPERGROUP))
        results = [c for c in world.fake.calls_to("sendPhoto", chat_id=SUPERGROUP) if c.ok]
        assert "ganan la partida" in (results[-1].caption() or "")
        assert [m.chat for m in await world.storage.match_records()] == [
            f"telegram:{SUPERGROUP}",
            f"telegram:{SUPERGROUP}",
        ]


async def test_a_bot_added_to_a_group_greets_it_once_with_how_to_start() -> None:
    async with TelegramWorld() as world:
        ana = world.fake.add_user(1001, "Ana")
        group = world.fake.add_group(-1007001, "Dominó")
        world.fake.add_bot(group, ana)
        await world.settle()
        assert _texts(world, group.id) == [
            "¡Hola! Aquí se juega dominó por parejas, de a cuatro. Envía /jugar para sentarte "
            "a una mesa: los robots ocupan los asientos libres y tus fichas llegan a un chat "
            "privado conmigo. /ayuda explica el resto."
        ]


async def test_a_bot_removed_from_a_group_closes_its_tables_once_refunds_and_tells_players_privately() -> (
    None
):
    async with TelegramWorld() as world:
        ana = world.fake.add_user(1001, "Ana")
        group = world.fake.add_group(-1007001, "Dominó")
        table_id = await world.table_with_robots(ana, group)
        player = world.front._player(ana)
        assert await world.manager.balance(player) == 990  # the stake is held
        mark = len(world.fake.calls)
        world.fake.kick_bot(group, ana)
        await world.settle()
        for _ in range(20):  # time passes: nothing more is tried in the group
            await world.clock.advance(5)
            await world.settle()

        assert world.manager.tables() == []
        assert await world.manager.balance(player) == 1000  # refunded, not abandoned
        assert _texts(world, ana.id, mark) == [
            "La mesa 1 (Dominó) se cerró: el bot ya no puede usar su chat. Nadie pierde: se "
            "devolvieron las apuestas."
        ]
        assert [c.method for c in world.fake.calls[mark:] if c.chat_id == group.id] == []
        (notice,) = [c for c in world.fake.calls[mark:] if c.method == "sendMessage"]
        assert notice.params["reply_markup"] == {"remove_keyboard": True}  # no move left to make
        assert world.move_labels(ana) == []
        assert world.manager.table_state(table_id) is None


async def test_a_group_that_answers_bot_was_kicked_closes_its_tables_once_without_errors() -> None:
    async with TelegramWorld() as world:
        ana = world.fake.add_user(1001, "Ana")
        group = world.fake.add_group(-1007001, "Dominó")
        await world.table_with_robots(ana, group)
        player = world.front._player(ana)
        world.fake.kicked.add(group.id)  # removed while the bot was not listening
        mark = len(world.fake.calls)
        for _ in range(20):
            await world.clock.advance(5)
            await world.settle()

        assert world.manager.tables() == []
        assert await world.manager.balance(player) == 1000
        tried = [c for c in world.fake.calls[mark:] if c.chat_id == group.id]
        assert [c.status for c in tried] == [403]  # one refused request, then silence
        assert _texts(world, ana.id, mark) == [
            "La mesa 1 (Dominó) se cerró: el bot ya no puede usar su chat. Nadie pierde: se "
            "devolvieron las apuestas."
        ]
        assert world.errors == []
