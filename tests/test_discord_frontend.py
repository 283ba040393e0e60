"""The Discord front end end to end: the real discord.py against tests/fake_discord.py.

Whole matches (one human with three robots; four humans), the restart between two clicks
with the old buttons still working, command sync, intents and sharding: two processes
splitting the shards, each reached only by its own servers (and DMs by shard 0).
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import discord
import pytest
from conftest import wait_until

from bot.core import PlayerRef, TableManager
from bot.discord import DiscordFrontEnd, intents
from bot.discord.buttons import ACTIVITY_ID
from bot.discord_shards import shard_of
from bot.present.facts import board_facts
from storage.base import Storage
from storage.sqlite import SqliteStorage
from tests.fake_discord import (
    LAUNCH_ACTIVITY,
    FakeDiscord,
    FakeMessage,
    Harness,
    board_message,
    eager_clock,
    play_until_closed,
    seat_and_fill,
)


def boards(fake: FakeDiscord, channel_id: int) -> list[FakeMessage]:
    return [m for m in fake.messages_in(channel_id) if m.embeds]


async def seat_with_robots(fake: FakeDiscord, user: Any, guild: int) -> FakeMessage:
    """``/domino jugar`` then the board's "Robots ya": the match starts at once."""
    inter = await fake.slash(user, guild, "domino", "jugar")
    await fake.replied(inter)
    board = await fake.wait_until(lambda: boards(fake, fake.channel_of(guild)))
    robots = next(i for i in board[0].custom_ids() if i.startswith("dm1:r:"))
    await fake.answered(await fake.click(user, board[0], robots))
    return board[0]


async def test_commands_are_synced_globally_at_start_up(
    memory_storage: Storage, fake: FakeDiscord
) -> None:
    fake.add_guild("Club")
    harness = await Harness(fake, memory_storage).start()
    try:
        names = {c["name"]: c for c in fake.commands[None]}
        assert set(names) == {
            "domino",
            "domino-config",
            "domino-cerrar",
            "domino-torneo",
            "domino-amigo",
            "domino-moderar",
        }
        subcommands = {o["name"] for o in names["domino"]["options"]}
        assert subcommands == {
            "jugar",
            "mesa",
            "mesas",
            "reto",
            "robots",
            "levantarse",
            "fichas",
            "saldo",
            "top",
            "perfil",
            "avisos",
            "reglas",
            "historial",
            "ayuda",
            "silenciar",
            "reportar",
            "vincular",
            "desvincular",
        }
        assert int(names["domino-config"]["default_member_permissions"]) == 1 << 5  # Manage Server
        assert int(names["domino-cerrar"]["default_member_permissions"]) == 1 << 5
    finally:
        await harness.stop()


async def test_commands_sync_to_the_test_guild_when_one_is_configured(
    memory_storage: Storage, fake: FakeDiscord
) -> None:
    guild = fake.add_guild("Pruebas")
    harness = await Harness(fake, memory_storage).start(test_guild=guild)
    try:
        assert None not in fake.commands
        assert {c["name"] for c in fake.commands[guild]} == {
            "domino",
            "domino-config",
            "domino-cerrar",
            "domino-torneo",
            "domino-amigo",
            "domino-moderar",
        }
    finally:
        await harness.stop()


async def test_a_configured_gateway_wins_over_the_one_rest_advertises(
    memory_storage: Storage, fake: FakeDiscord
) -> None:
    # Behind a gateway proxy, REST may still name Discord's own gateway.
    fake.add_guild("Club")
    fake.advertised_gateway = "ws://127.0.0.1:9/not-here"
    harness = await Harness(fake, memory_storage).start()
    try:
        assert fake.gateway_connections == 1
        assert harness.front.bot.is_ready()
    finally:
        await harness.stop()


async def test_start_returns_after_its_timeout_while_the_gateway_keeps_trying(
    memory_storage: Storage,
    fake: FakeDiscord,
) -> None:
    fake.add_guild("Club")
    fake.hold_ready = True
    harness = await Harness(fake, memory_storage).start(ready_timeout=0.2)
    try:
        assert not harness.front.bot.is_ready()
        assert fake.identifies == [] and fake.gateway_connections == 1
    finally:
        await harness.stop()


async def test_a_refused_token_fails_start_with_login_failure(
    memory_storage: Storage, fake: FakeDiscord
) -> None:
    fake.add_guild("Club")
    fake.valid_token = "the-real-token"
    harness = Harness(fake, memory_storage)
    with pytest.raises(discord.LoginFailure):
        await harness.start()
    await harness.stop()
    assert fake.gateway_connections == 0


async def test_the_bot_asks_only_for_the_guilds_intent(
    memory_storage: Storage, fake: FakeDiscord
) -> None:
    fake.add_guild("Club")
    harness = await Harness(fake, memory_storage).start()
    try:
        assert intents().value == 1
        assert fake.identifies[0]["intents"] == 1
    finally:
        await harness.stop()


async def test_a_configured_shard_count_opens_one_gateway_session_per_shard(
    memory_storage: Storage, fake: FakeDiscord, monkeypatch: pytest.MonkeyPatch
) -> None:
    fake.add_guild("Club")
    fake.add_guild("Otro")

    async def no_wait(self: Any, shard_id: int | None, *, initial: bool = False) -> None:
        return None  # discord.py waits 5 s between identifies; the fake does not need it

    from bot.discord import DominoBot

    monkeypatch.setattr(DominoBot, "before_identify_hook", no_wait)
    harness = await Harness(fake, memory_storage).start(shard_count=2)
    try:
        assert sorted(tuple(i["shard"]) for i in fake.identifies) == [(0, 2), (1, 2)]
        assert len(harness.front.bot.guilds) == 2
        assert harness.front.served_shards == (0, 1)
    finally:
        await harness.stop()


async def test_without_a_shard_count_every_shard_discord_recommends_is_served_as_shard_0(
    memory_storage: Storage, fake: FakeDiscord, monkeypatch: pytest.MonkeyPatch
) -> None:
    # discord.py asks GET /gateway/bot for the count and opens every shard: this process
    # alone is the whole bot, named by its shard 0.
    fake.add_guild("Club", shard=(0, 2))
    fake.add_guild("Otro", shard=(1, 2))
    fake.recommended_shards = 2

    async def no_wait(self: Any, shard_id: int | None, *, initial: bool = False) -> None:
        return None

    from bot.discord import DominoBot

    monkeypatch.setattr(DominoBot, "before_identify_hook", no_wait)
    harness = await Harness(fake, memory_storage).start()
    try:
        assert [i["shard"] for i in fake.identifies] == [[0, 2], [1, 2]]
        assert len(harness.front.bot.guilds) == 2
        assert (harness.front.shard_count, harness.front.served_shards) == (None, (0,))
    finally:
        await harness.stop()


async def test_shard_ids_without_a_shard_count_are_refused_before_connecting(
    memory_storage: Storage,
) -> None:
    with pytest.raises(ValueError, match="needs DISCORD_SHARD_COUNT"):
        DiscordFrontEnd("fake-token", TableManager(memory_storage), memory_storage, shard_ids=[1])


class Process:
    """One ``domino run`` process of a sharded bot on the fake: its harness, the server on
    its shard, and the interactions that reached its discord.py client (by server; None
    for a DM)."""

    def __init__(self, harness: Harness, server: int) -> None:
        self.harness = harness
        self.server = server
        self.interactions: list[int | None] = []

        async def record(interaction: discord.Interaction[Any]) -> None:
            self.interactions.append(interaction.guild_id)

        harness.front.bot.add_listener(record, "on_interaction")

    @property
    def guilds(self) -> set[int]:
        return {guild.id for guild in self.harness.front.bot.guilds}


@pytest.fixture
async def processes(
    fake: FakeDiscord, memory_storage: Storage
) -> AsyncIterator[tuple[Process, Process]]:
    """Two processes on one database splitting two shards, [0] and [1] of 2, with a server
    on each shard: "Club Cero" and "Club Uno"."""
    zero = fake.add_guild("Club Cero", shard=(0, 2))
    one = fake.add_guild("Club Uno", shard=(1, 2))
    storage = memory_storage
    first = await Harness(fake, storage, seed=1).start(shard_count=2, shard_ids=[0])
    second = await Harness(fake, storage, seed=2).start(shard_count=2, shard_ids=[1])
    yield Process(first, zero), Process(second, one)
    await first.stop(last=False)
    await second.stop()


async def test_each_process_connects_only_its_shard_and_sees_only_its_servers(
    fake: FakeDiscord, processes: tuple[Process, Process]
) -> None:
    first, second = processes
    assert [i["shard"] for i in fake.identifies] == [[0, 2], [1, 2]]
    assert (shard_of(first.server, 2), shard_of(second.server, 2)) == (0, 1)
    assert first.harness.front.served_shards == (0,)
    assert second.harness.front.served_shards == (1,)
    assert first.guilds == {first.server}
    assert second.guilds == {second.server}


async def test_a_server_joined_later_reaches_only_the_process_of_its_shard(
    fake: FakeDiscord, processes: tuple[Process, Process]
) -> None:
    first, second = processes
    joined = fake.add_guild("Club Nuevo", shard=(1, 2))
    await fake.add_bot_to(joined)
    await wait_until(lambda: joined in second.guilds)
    assert first.guilds == {first.server}
    assert second.guilds == {second.server, joined}


async def test_a_slash_command_in_a_server_of_shard_1_is_answered_by_the_second_process_only(
    fake: FakeDiscord, processes: tuple[Process, Process]
) -> None:
    first, second = processes
    ana = fake.add_user("Ana")
    balance = await fake.slash(ana, second.server, "domino", "saldo")
    [reply] = await fake.replied(balance)
    assert balance.delivered_to == [(1, 2)]
    assert (first.interactions, second.interactions) == ([], [second.server])
    assert reply.text() == "Tu saldo: $1000"
    other = await fake.slash(ana, first.server, "domino", "saldo")
    [reply] = await fake.replied(other)
    assert other.delivered_to == [(0, 2)]
    assert (first.interactions, second.interactions) == ([first.server], [second.server])
    assert reply.text() == "Tu saldo: $1000"


async def test_a_board_and_its_buttons_in_a_server_of_shard_1_belong_to_the_second_process(
    fake: FakeDiscord, processes: tuple[Process, Process]
) -> None:
    first, second = processes
    ana = fake.add_user("Ana")
    board = await seat_with_robots(fake, ana, second.server)
    await second.harness.idle()
    press = next(i for i in fake.interactions.values() if i.original is board)
    assert press.delivered_to == [(1, 2)]
    assert press.callback_type == 6  # deferred: the board is edited in place
    assert (first.interactions, second.interactions) == ([], [second.server, second.server])
    table = board_table(board)
    assert second.harness.manager.table_state(table).view is not None  # the match is on
    assert first.harness.manager.table_state(table) is None
    assert first.harness.manager.tables() == []


async def test_a_move_pressed_in_a_dm_reaches_shard_0_and_is_relayed_to_the_tables_process(
    fake: FakeDiscord, processes: tuple[Process, Process]
) -> None:
    # Discord sends direct messages, and so their interactions, through shard 0 only: the
    # first process gets the press on tiles of a table the second one plays, and relays
    # it (bot.discord.relay); the second answers it and plays the move.
    first, second = processes
    ana = fake.add_user("Ana")
    board = await seat_with_robots(fake, ana, second.server)
    table_id = board_table(board)
    manager = second.harness.manager
    tiles = await fake.wait_until(lambda: (m := fake.last_dm(ana)) and m.custom_ids() and m)
    before = manager.table_state(table_id).move_number
    press = await fake.answered(await fake.click(ana, tiles, tiles.custom_ids()[0]))
    assert press.delivered_to == [(0, 2)]
    assert press.callback_type == 7  # its buttons taken off the DM: the move was taken
    assert not press.followups  # no refusal
    await wait_until(lambda: manager.table_state(table_id).move_number > before)
    assert first.interactions == []  # the first process never handled it itself
    assert second.interactions == [second.server, second.server, None]
    assert first.harness.manager.tables() == []


async def test_a_dm_press_of_a_table_no_process_has_is_refused_where_it_arrived(
    fake: FakeDiscord, processes: tuple[Process, Process]
) -> None:
    first, second = processes
    ana = fake.add_user("Ana")
    board = await seat_with_robots(fake, ana, second.server)
    tiles = await fake.wait_until(lambda: (m := fake.last_dm(ana)) and m.custom_ids() and m)
    # the table closes before the press: no process has it, nobody takes the relay
    await second.harness.manager.chat_unreachable("discord", str(second.server))
    assert second.harness.manager.table_state(board_table(board)) is None
    press = await fake.answered(await fake.click(ana, tiles, tiles.custom_ids()[0]), timeout=10)
    assert first.interactions == [None]  # answered by the first after TAKEN_WAIT
    assert second.interactions == [second.server, second.server]
    assert press.callback_type == 7
    await wait_until(lambda: bool(press.followups))
    # the first process never knew the table: to it, the table does not exist
    assert press.followups[0].content == "Esa mesa no existe."


async def test_one_human_and_three_robots_play_a_whole_match(
    memory_storage: Storage, fake: FakeDiscord
) -> None:
    guild = fake.add_guild("Club de Dominó")
    channel = fake.channel_of(guild)
    ana = fake.add_user("Ana")
    storage = memory_storage
    harness = await Harness(fake, storage).start()
    try:
        board = await seat_with_robots(fake, ana, guild)
        presses = await play_until_closed(fake, harness, {ana.id: lambda: fake.last_dm(ana)})
        # Every press was answered at once by taking the buttons off its DM.
        assert presses and all(p.callback_type == 7 for p in presses)
        assert all(not p.followups for p in presses)
        # One board message for the whole match, edited in place, ending with a rematch
        # (how many edits depends on the pace: played at machine speed, the global pacer
        # merges moves into fewer edits, tests/test_discord_pacer.py).
        assert boards(fake, channel) == [board]
        assert board.edits >= 1
        assert "La partida terminó." in board.text()
        assert board.labels() == ["Revancha"]
        assert board.file_bytes().startswith(b"\x89PNG")
        # Hand results and the match result as short messages with pictures.
        results = [m for m in fake.messages_in(channel) if not m.embeds]
        assert any("ganan la partida" in m.content for m in results)
        assert all(m.file_bytes().startswith(b"\x89PNG") for m in results)
        hands = [m for m in results if m.content.startswith("Mesa 1 · mano ")]
        assert len(hands) == harness.manager.match_of(board_table(board)).hand_number
        # Tiles came by DM, naming the server, channel and table.
        dms = fake.dms_to(ana)
        assert all("Club de Dominó · #domino" in m.content for m in dms)
        dm_channel = fake.dm_channels[ana.id]
        turns = [
            r.json["content"]
            for r in fake.requests_to("POST", f"/channels/{dm_channel}/messages")
            if r.json["content"].startswith("Tu turno")
        ]
        assert len(turns) == len(presses)
        assert turns[0].startswith("Tu turno en la mesa 1 (Club de Dominó · #domino): juega <t:")
        # Only the last DM with a move could still hold buttons: older ones were cleared.
        assert all(not m.custom_ids() for m in dms[:-1])
        # The stake moved through the manager: the balance is no longer $1,000.
        player = await storage.ensure_player("discord", str(ana.id), "Ana", now=0)
        assert await storage.balance(player.id) != 1000
    finally:
        await harness.stop()


def board_table(board: FakeMessage) -> str:
    return next(i.split(":")[2] for i in board.custom_ids())


async def test_four_humans_play_a_whole_match(memory_storage: Storage, fake: FakeDiscord) -> None:
    guild = fake.add_guild("Club")
    channel = fake.channel_of(guild)
    people = [fake.add_user(name) for name in ("Ana", "Beto", "Caro", "Dani")]
    people[0].permissions |= 1 << 5  # Ana manages the server
    harness = await Harness(fake, memory_storage).start()
    try:
        # A short match: the server's admin sets the target to 50 points first.
        config = await fake.slash(
            people[0], guild, "domino-config", options={"reglas": "venezolano", "meta": 50}
        )
        await fake.replied(config)
        for person in people:
            reply = await fake.replied(await fake.slash(person, guild, "domino", "jugar"))
            assert reply[0].ephemeral
        presses = await play_until_closed(
            fake, harness, {p.id: (lambda p=p: fake.last_dm(p)) for p in people}
        )
        board = boards(fake, channel)
        assert len(board) == 1
        assert "La partida terminó." in board[0].text()
        # Every seat played: each human pressed moves.
        assert {p.user.id for p in presses} == {p.id for p in people}
        ended = [m for m in fake.messages_in(channel) if "ganan la partida" in m.content]
        assert len(ended) == 1
        # one base with the results picture: net of the stake (issue 27, item 10)
        assert "\nResultado neto (apuesta $10): " in ended[0].content
        assert "cobra" not in ended[0].content
    finally:
        await harness.stop()


async def test_old_buttons_still_work_after_a_restart_between_two_clicks(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    guild = fake.add_guild("Club")
    channel = fake.channel_of(guild)
    ana = fake.add_user("Ana")
    path = tmp_path / "domino.db"
    storage = await SqliteStorage.open(path)
    clock = eager_clock()
    first = await Harness(fake, storage, clock=clock).start()
    try:
        board = await seat_with_robots(fake, ana, guild)
        dm = await fake.wait_until(lambda: (m := fake.last_dm(ana)) and m.custom_ids() and m)
        await fake.answered(await fake.click(ana, dm, dm.custom_ids()[0]))
        await first.idle()
        before = await fake.wait_until(lambda: (m := fake.last_dm(ana)) and m.custom_ids() and m)
        table = board_table(board)
        moves_before = len(first.manager.match_of(table).hand.history)
    finally:
        await first.stop()
        await storage.close()
    looked_up = len(fake.requests_to("GET", f"/channels/{channel}/messages"))
    # A new process: new client, new manager, same database, same Discord.
    storage = await SqliteStorage.open(path)
    second = await Harness(fake, storage, clock=eager_clock(clock.now())).start()
    try:
        assert fake.gateway_connections == 2
        press = await fake.answered(await fake.click(ana, before, before.custom_ids()[0]))
        assert press.callback_type == 7  # the buttons go at once
        await second.idle()
        assert not press.followups  # no refusal: the move was played
        match = second.manager.match_of(table)
        assert len(match.hand.history) > moves_before or match.hand_number > 1
        # The resumed table kept editing its board message instead of posting a new one:
        # the manager's note said where it is, without reading the channel's history.
        assert boards(fake, channel) == [board]
        assert second.manager.front_end_note(table, "discord.board") == {
            "channel_id": channel,
            "message_id": board.id,
        }
        assert len(fake.requests_to("GET", f"/channels/{channel}/messages")) == looked_up
        presses = await play_until_closed(fake, second, {ana.id: lambda: fake.last_dm(ana)})
        assert presses
        assert "La partida terminó." in board.text()
    finally:
        await second.stop()
        await storage.close()


async def test_a_waiting_table_shows_the_waiting_picture_until_the_match_starts(
    memory_storage: Storage,
    fake: FakeDiscord,
) -> None:
    from bot.discord.port import BOARD_FILE
    from render import waiting_png

    guild = fake.add_guild("Club")
    channel = fake.channel_of(guild)
    ana, beto = fake.add_user("Ana"), fake.add_user("Beto")
    harness = await Harness(fake, memory_storage).start()
    try:
        await fake.replied(await fake.slash(ana, guild, "domino", "jugar"))
        (board,) = await fake.wait_until(lambda: boards(fake, channel))
        table = board_table(board)
        await harness.idle()
        state = harness.manager.table_state(table)
        assert state is not None and state.phase == "waiting" and state.view is None
        facts = board_facts(state, state.chat.language)
        assert [s.is_open for s in facts.seats] == [False, True, True, True]
        # Ana sits, three seats free: the waiting picture, shown in the embed.
        assert board.file_bytes() == waiting_png(state.rules, facts)
        assert board.embeds[0]["image"]["url"] == f"attachment://{BOARD_FILE}"

        await fake.replied(await fake.slash(beto, guild, "domino", "jugar"))
        await harness.idle()
        await fake.settle()
        state = harness.manager.table_state(table)
        assert state is not None and state.phase == "waiting"
        assert board.file_bytes() == waiting_png(
            state.rules, board_facts(state, state.chat.language)
        )

        robots = next(i for i in board.custom_ids() if i.startswith("dm1:r:"))
        await fake.answered(await fake.click(ana, board, robots))
        await harness.idle()
        await fake.settle()
        state = harness.manager.table_state(table)
        assert state is not None and state.view is not None  # the match is on
        assert boards(fake, channel) == [board]
        assert board.file_bytes().startswith(b"\x89PNG")
        assert board.file_bytes() != waiting_png(
            state.rules, board_facts(state, state.chat.language), starting=True
        )
    finally:
        await harness.stop()


async def test_a_table_saved_before_notes_finds_its_board_in_the_channel_history(
    memory_storage: Storage,
    fake: FakeDiscord,
) -> None:
    guild = fake.add_guild("Club")
    channel = fake.channel_of(guild)
    ana = fake.add_user("Ana")
    storage = memory_storage
    clock = eager_clock()
    first = await Harness(fake, storage, clock=clock).start()
    try:
        await fake.replied(await fake.slash(ana, guild, "domino", "jugar"))
        (board,) = await fake.wait_until(lambda: boards(fake, channel))
        await first.idle()
        table = board_table(board)
    finally:
        await first.stop()
    # The snapshot as a version without front-end notes wrote it.
    [data] = await storage.load_tables()
    del data["notes"]
    await storage.save_table(table, data, now=clock.now())
    looked_up = len(fake.requests_to("GET", f"/channels/{channel}/messages"))
    second = await Harness(fake, storage, clock=eager_clock(clock.now())).start()
    try:
        await fake.replied(await fake.slash(fake.add_user("Beto"), guild, "domino", "jugar"))
        await second.idle()
        await fake.settle()
        assert len(fake.requests_to("GET", f"/channels/{channel}/messages")) == looked_up + 1
        assert boards(fake, channel) == [board]  # found and edited, not posted anew
        assert "Beto" in board.text()
        # From now on the note says where the board is.
        assert second.manager.front_end_note(table, "discord.board") == {
            "channel_id": channel,
            "message_id": board.id,
        }
    finally:
        await second.stop()


async def test_after_a_restart_the_turn_player_keeps_their_turn_dm_and_gets_no_second_one(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    guild = fake.add_guild("Club")
    ana = fake.add_user("Ana")
    path = tmp_path / "domino.db"
    storage = await SqliteStorage.open(path)
    clock = eager_clock()
    first = await Harness(fake, storage, clock=clock).start()
    try:
        board = await seat_with_robots(fake, ana, guild)
        turn = await fake.wait_until(lambda: (m := fake.last_dm(ana)) and m.custom_ids() and m)
        await first.idle()
        table = board_table(board)
        buttons = turn.custom_ids()
    finally:
        await first.stop()
        await storage.close()
    dm_channel = fake.dm_channels[ana.id]
    sent = len(fake.requests_to("POST", f"/channels/{dm_channel}/messages"))
    dms = fake.dms_to(ana)
    # The bot was down for a minute: her turn's deadline moves by as much.
    storage = await SqliteStorage.open(path)
    second = await Harness(fake, storage, clock=eager_clock(clock.now() + 60)).start()
    try:
        await second.idle()
        await fake.settle()
        assert fake.dms_to(ana) == dms
        assert len(fake.requests_to("POST", f"/channels/{dm_channel}/messages")) == sent
        state = second.manager.table_state(table)
        assert state is not None and state.deadline is not None
        assert turn.custom_ids() == buttons
        assert turn.content == (
            f"Tu turno en la mesa 1 (Club · #domino): juega <t:{int(state.deadline)}:R>."
        )
        press = await fake.answered(await fake.click(ana, turn, buttons[0]))
        await second.idle()
        assert press.callback_type == 7 and not press.followups
    finally:
        await second.stop()
        await storage.close()


async def test_after_a_restart_no_player_gets_their_tiles_dm_a_second_time(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    guild = fake.add_guild("Club")
    ana, bob = fake.add_user("Ana"), fake.add_user("Bob")
    path = tmp_path / "domino.db"
    storage = await SqliteStorage.open(path)
    clock = eager_clock()
    first = await Harness(fake, storage, clock=clock).start()
    try:
        for user in (ana, bob):
            await fake.replied(await fake.slash(user, guild, "domino", "jugar"))
        await first.idle()
        board = boards(fake, fake.channel_of(guild))[0]
        robots = next(i for i in board.custom_ids() if i.startswith("dm1:r:"))
        await fake.answered(await fake.click(ana, board, robots))
        # one of the two is to move; the other holds tiles without buttons
        await fake.wait_until(
            lambda: any((m := fake.last_dm(u)) and m.custom_ids() for u in (ana, bob))
        )
        await first.idle()
        await fake.settle()
    finally:
        await first.stop()
        await storage.close()
    waiting = next(u for u in (ana, bob) if not fake.last_dm(u).custom_ids())
    assert fake.last_dm(waiting).attachments[0]["filename"].startswith("fichas-")
    before = {u.id: len(fake.dms_to(u)) for u in (ana, bob)}
    storage = await SqliteStorage.open(path)
    second = await Harness(fake, storage, clock=eager_clock(clock.now() + 60)).start()
    try:
        await second.idle()
        await fake.settle()
        assert {u.id: len(fake.dms_to(u)) for u in (ana, bob)} == before
    finally:
        await second.stop()
        await storage.close()


async def test_tables_in_two_channels_of_one_server_have_different_numbers(
    memory_storage: Storage,
    fake: FakeDiscord,
) -> None:
    guild = fake.add_guild("Club")
    first = fake.channel_of(guild)
    second = fake.add_channel(guild, "domino-2")
    ana, beto = fake.add_user("Ana"), fake.add_user("Beto")
    harness = await Harness(fake, memory_storage).start()
    try:
        for user, where in ((ana, first), (beto, second)):
            (sat,) = await fake.replied(
                await fake.slash(user, guild, "domino", "jugar", channel_id=where)
            )
            assert sat.ephemeral
        await harness.idle()
        titles = [
            next(m for m in fake.messages_in(c) if m.embeds).embeds[0]["title"]
            for c in (first, second)
        ]
        assert titles == ["Mesa 1 · Venezolano", "Mesa 2 · Venezolano"]
    finally:
        await harness.stop()


async def test_after_a_restart_a_player_who_moved_gets_their_last_dm_edited_not_a_new_one(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    guild = fake.add_guild("Club")
    ana, bob = fake.add_user("Ana"), fake.add_user("Bob")
    path = tmp_path / "domino.db"
    storage = await SqliteStorage.open(path)
    clock = eager_clock()
    first = await Harness(fake, storage, clock=clock).start()

    def turn() -> tuple[Any, FakeMessage] | None:
        for user in (ana, bob):
            message = fake.last_dm(user)
            if message is not None and any(i.startswith("dm1:m:") for i in message.custom_ids()):
                return user, message
        return None

    try:
        for user in (ana, bob):
            await fake.replied(await fake.slash(user, guild, "domino", "jugar"))
        await first.idle()
        board = boards(fake, fake.channel_of(guild))[0]
        robots = next(i for i in board.custom_ids() if i.startswith("dm1:r:"))
        await fake.answered(await fake.click(ana, board, robots))
        moved = None  # press moves until the other one is to move after someone moved
        while True:
            user, message = await fake.wait_until(turn)
            if moved is not None and user is not moved:
                break
            move = next(i for i in message.custom_ids() if i.startswith("dm1:m:"))
            await fake.answered(await fake.click(user, message, move))
            await first.idle()
            moved = user
        await fake.settle()
    finally:
        await first.stop()
        await storage.close()
    # The one who moved holds fewer tiles than their last DM shows.
    waiting = moved
    shown = fake.last_dm(waiting).attachments[0]["filename"]
    posted = len(fake.requests_to("POST", f"/channels/{fake.dm_channels[waiting.id]}/messages"))
    storage = await SqliteStorage.open(path)
    second = await Harness(fake, storage, clock=eager_clock(clock.now() + 60)).start()
    try:
        await second.idle()
        await fake.settle()
        dm_channel = fake.dm_channels[waiting.id]
        assert len(fake.requests_to("POST", f"/channels/{dm_channel}/messages")) == posted
        last = fake.last_dm(waiting)
        assert last.content.startswith("Tus fichas en la mesa 1 (Club · #domino)")
        assert last.custom_ids() == []
        assert last.attachments[0]["filename"] != shown  # edited to the tiles held now
    finally:
        await second.stop()
        await storage.close()


class ActivityLinks:
    """The web table as the Discord front end sees it, as a Discord Activity too."""

    public_url = "https://mesa.example"
    in_discord = True

    def seat_url(self, player: Any, table_id: str) -> str:
        return f"{self.public_url}/?s={table_id}"

    def watch_url(self, table_id: str) -> str:
        return f"{self.public_url}/?w={table_id}"

    def tournament_url(self, tournament_id: str) -> str:
        return f"{self.public_url}/torneo/{tournament_id}"


async def test_with_the_activity_the_board_offers_to_play_in_discord_and_launches_it(
    fake: FakeDiscord, memory_storage: Storage
) -> None:
    fake.add_guild("Club")
    harness = await Harness(fake, memory_storage).start(links=ActivityLinks())
    try:
        ana = fake.add_user("Ana")
        board = await seat_and_fill(fake, harness, ana)
        board = await fake.wait_until(
            lambda: (b := board_message(fake)) and ACTIVITY_ID in b.custom_ids() and b
        )
        [button] = [c for row in board.components for c in row["components"]
                    if c.get("custom_id") == ACTIVITY_ID]  # fmt: skip
        assert (button["label"], button["emoji"]["name"]) == ("Jugar en Discord", "🎮")
        inter = await fake.answered(await fake.click(ana, board, ACTIVITY_ID))
        assert inter.callbacks == [{"type": LAUNCH_ACTIVITY}]
        # nothing else happened: no command reached the table
        assert harness.manager.tables_of(PlayerRef("discord", str(ana.id), "Ana"))
    finally:
        await harness.stop()


async def balances(storage: Storage, people: list[Any]) -> list[int]:
    """Each member's balance now, in dollars."""
    out = []
    for person in people:
        player = await storage.find_player("discord", str(person.id))
        assert player is not None
        out.append(await storage.balance(player.id))
    return out


async def test_two_members_play_a_whole_one_against_one_match_chosen_with_formato(
    memory_storage: Storage, fake: FakeDiscord
) -> None:
    guild = fake.add_guild("Club")
    channel = fake.channel_of(guild)
    ana, beto = fake.add_user("Ana"), fake.add_user("Beto")
    harness = await Harness(fake, memory_storage).start()
    try:
        for person in (ana, beto):
            inter = await fake.slash(
                person, guild, "domino", "jugar", options={"formato": "uno-contra-uno"}
            )
            assert (await fake.replied(inter))[0].ephemeral
        (table_id,) = harness.manager.tables()
        state = harness.manager.table_state(table_id)
        assert state is not None and state.rules.format_key == "double_six individual 2 draw"
        presses = await play_until_closed(
            fake, harness, {p.id: (lambda p=p: fake.last_dm(p)) for p in (ana, beto)}
        )
        assert {p.user.id for p in presses} == {ana.id, beto.id}
        ended = [m for m in fake.messages_in(channel) if "gana la partida" in m.content]
        assert len(ended) == 1
        winner, loser = (ana, beto) if "¡Ana gana la partida" in ended[0].content else (beto, ana)
        assert f"¡{winner.name} gana la partida" in ended[0].content
        assert f"{winner.name} +$10, {loser.name} −$10" in ended[0].content or (
            f"{loser.name} −$10, {winner.name} +$10" in ended[0].content
        )
        hands = [m for m in fake.messages_in(channel) if m.content.startswith("Mesa 1 · mano ")]
        assert hands and all(m.file_bytes().startswith(b"\x89PNG") for m in hands)
        assert await balances(memory_storage, [winner, loser]) == [1010, 990]
        # the format's own list and profile (docs/ratings.md, "Formats")
        options = {"formato": "uno-contra-uno"}
        (top,) = await fake.replied(await fake.slash(ana, guild, "domino", "top", options=options))
        lines = top.content.splitlines()
        assert lines[0] == "Rating · Club · Uno contra uno"
        assert [line.split(" — ")[0] for line in lines[1:3]] == [
            f"1. {winner.name}",
            f"2. {loser.name}",
        ]
        (profile,) = await fake.replied(
            await fake.slash(ana, guild, "domino", "perfil", options=options)
        )
        assert profile.content.splitlines()[0].endswith(" (provisional) · Uno contra uno")
    finally:
        await harness.stop()


async def test_a_cuban_double_nine_match_with_robots_is_played_to_its_end_on_discord(
    memory_storage: Storage, fake: FakeDiscord
) -> None:
    guild = fake.add_guild("Club")
    channel = fake.channel_of(guild)
    ana = fake.add_user("Ana")
    harness = await Harness(fake, memory_storage).start()
    try:
        inter = await fake.slash(ana, guild, "domino", "jugar", options={"formato": "cubano"})
        await fake.replied(inter)
        board = await fake.wait_until(lambda: boards(fake, channel))
        robots = next(i for i in board[0].custom_ids() if i.startswith("dm1:r:"))
        await fake.answered(await fake.click(ana, board[0], robots))
        (table_id,) = harness.manager.tables()
        state = harness.manager.table_state(table_id)
        assert state is not None and state.rules.format_key == "double_nine partnership"
        presses = await play_until_closed(fake, harness, {ana.id: lambda: fake.last_dm(ana)})
        assert len(presses) >= 10
        ended = [m for m in fake.messages_in(channel) if "ganan la partida" in m.content]
        assert len(ended) == 1 and "Resultado neto (apuesta $10): Ana " in ended[0].content
    finally:
        await harness.stop()


async def test_three_members_each_for_themselves_drawing_from_the_boneyard_play_to_the_end(
    memory_storage: Storage, fake: FakeDiscord
) -> None:
    guild = fake.add_guild("Club")
    channel = fake.channel_of(guild)
    people = [fake.add_user(name) for name in ("Ana", "Beto", "Caro")]
    harness = await Harness(fake, memory_storage).start()
    try:
        options = {"reglas": "individual", "jugadores": 3, "pozo": "draw"}
        inter = await fake.slash(people[0], guild, "domino", "mesa", options=options)
        await fake.replied(inter)
        (table_id,) = harness.manager.tables()
        state = harness.manager.table_state(table_id)
        assert state is not None and state.rules.format_key == "double_six individual 3 draw"
        board = (await fake.wait_until(lambda: boards(fake, channel)))[0]
        for person in people[1:]:  # each sits at a seat of the board
            sit = next(i for i in board.custom_ids() if i.startswith("dm1:s:"))
            await fake.answered(await fake.click(person, board, sit))
            await harness.idle()
            board = boards(fake, channel)[0]
        presses = await play_until_closed(
            fake, harness, {p.id: (lambda p=p: fake.last_dm(p)) for p in people}
        )
        assert {p.user.id for p in presses} == {p.id for p in people}
        ended = [m for m in fake.messages_in(channel) if "gana la partida" in m.content]
        assert len(ended) == 1
        # the pot of three stakes to the winner
        assert sorted(await balances(memory_storage, people)) == [990, 990, 1020]
    finally:
        await harness.stop()


async def test_a_challenge_with_reto_is_declined_by_the_member_challenged_only(
    memory_storage: Storage, fake: FakeDiscord
) -> None:
    guild = fake.add_guild("Club")
    channel = fake.channel_of(guild)
    ana, beto, eva = (fake.add_user(name) for name in ("Ana", "Beto", "Eva"))
    harness = await Harness(fake, memory_storage).start()
    try:
        inter = await fake.slash(ana, guild, "domino", "reto", options={"miembro": beto})
        await fake.replied(inter)
        board = (await fake.wait_until(lambda: boards(fake, channel)))[0]
        assert board.labels() == ["Aceptar", "Rechazar", "Levantarme"]
        assert "Ana reta a Beto a uno contra uno. Vence <t:" in board.text()
        accept, decline, _leave = board.custom_ids()
        foreign = await fake.replied(await fake.click(eva, board, decline))
        assert foreign[0].ephemeral and foreign[0].content == "Ese reto es para otro jugador."
        await fake.answered(await fake.click(beto, board, decline))
        await harness.idle()
        assert harness.manager.tables() == []
        said = [m.content for m in fake.messages_in(channel) if not m.embeds]
        assert "El reto de la mesa 1 fue rechazado; nadie pagó nada." in said
        assert accept.startswith("dm1:s:")
        # a bot is never challenged (it would never answer)
        robot = fake.add_user("Robotín")
        robot.bot = True
        options = {"miembro": robot}
        (refused,) = await fake.replied(
            await fake.slash(ana, guild, "domino", "reto", options=options)
        )
        assert refused.ephemeral and refused.content == "Reta a un miembro, no a un bot."
        assert harness.manager.tables() == []
    finally:
        await harness.stop()


async def test_a_challenge_accepted_on_discord_is_played_one_against_one_to_the_paid_end(
    memory_storage: Storage, fake: FakeDiscord
) -> None:
    guild = fake.add_guild("Club")
    ana, beto = fake.add_user("Ana"), fake.add_user("Beto")
    harness = await Harness(fake, memory_storage).start()
    try:
        inter = await fake.slash(ana, guild, "domino", "reto", options={"miembro": beto})
        await fake.replied(inter)
        board = (await fake.wait_until(lambda: boards(fake, fake.channel_of(guild))))[0]
        await fake.answered(await fake.click(beto, board, board.custom_ids()[0]))
        presses = await play_until_closed(
            fake, harness, {p.id: (lambda p=p: fake.last_dm(p)) for p in (ana, beto)}
        )
        assert {p.user.id for p in presses} == {ana.id, beto.id}
        assert sorted(await balances(memory_storage, [ana, beto])) == [990, 1010]
    finally:
        await harness.stop()


async def test_a_slow_table_opened_with_lenta_is_listed_by_mesas_with_whose_turn_it_is(
    memory_storage: Storage, fake: FakeDiscord
) -> None:
    guild = fake.add_guild("Club")
    ana = fake.add_user("Ana")
    harness = await Harness(fake, memory_storage).start()
    try:
        options = {"lenta": True, "robots": "all"}
        await fake.replied(await fake.slash(ana, guild, "domino", "mesa", options=options))
        await harness.idle()
        (table_id,) = harness.manager.tables()
        state = harness.manager.table_state(table_id)
        assert state is not None and state.rules.turn_seconds == 12 * 3600
        (listed,) = await fake.replied(await fake.slash(ana, guild, "domino", "mesas"))
        assert listed.ephemeral
        assert listed.content.startswith("Mesa 1 · Club · #")
        assert " · lenta · " in listed.content
    finally:
        await harness.stop()
