"""The ``/domino`` commands and button presses (bot/discord/cog.py, config.py, presses.py), through the real
discord.py and the fake Discord: answers, refusals, the DMs-closed fallback, admin rights."""

from __future__ import annotations

import json

import pytest

from bot.core import ROBOT_NAMES
from storage.base import Storage
from tests.fake_discord import (
    EPHEMERAL,
    ErrorLog,
    FakeDiscord,
    FakeMessage,
    Harness,
    play_until_closed,
)


def guild_of(fake: FakeDiscord) -> int:
    return next(iter(fake.guilds))


def board_of(fake: FakeDiscord) -> FakeMessage:
    return next(m for m in fake.messages_in(fake.channel_of(guild_of(fake))) if m.embeds)


async def test_jugar_seats_the_member_and_answers_only_to_them(
    fake: FakeDiscord, harness: Harness
) -> None:
    ana = fake.add_user("Ana")
    inter = await fake.slash(ana, guild_of(fake), "domino", "jugar")
    (reply,) = await fake.replied(inter)
    assert inter.callback_type == 5  # deferred first, answered after the manager's work
    assert inter.callbacks[0]["data"]["flags"] == EPHEMERAL
    assert reply.ephemeral
    assert "Te sentaste en la mesa 1" in reply.text()
    assert "Tus fichas llegarán por mensaje directo." in reply.text()
    # The DM check: a short DM naming the server and table.
    assert "mesa 1 (Club · #domino)" in fake.last_dm(ana).content
    await harness.idle()
    assert "1. Ana" in board_of(fake).text()


async def test_a_second_jugar_in_the_same_server_is_refused_ephemerally(
    fake: FakeDiscord, harness: Harness
) -> None:
    ana = fake.add_user("Ana")
    await fake.replied(await fake.slash(ana, guild_of(fake), "domino", "jugar"))
    inter = await fake.slash(ana, guild_of(fake), "domino", "jugar")
    (reply,) = await fake.replied(inter)
    assert reply.ephemeral
    assert "Ya tienes asiento en la mesa 1" in reply.text()
    await harness.idle()
    assert sum(1 for m in fake.messages_in(fake.channel_of(guild_of(fake))) if m.embeds) == 1


async def test_closed_dms_get_an_ephemeral_notice_and_a_my_tiles_button_that_plays_a_match(
    fake: FakeDiscord, harness: Harness
) -> None:
    eva = fake.add_user("Eva", dms_closed=True)
    inter = await fake.slash(eva, guild_of(fake), "domino", "jugar")
    (reply,) = await fake.replied(inter)
    assert reply.ephemeral
    assert "No puedo enviarte mensajes directos" in reply.text()
    assert reply.labels() == ["Mis fichas"]
    assert fake.dms_to(eva) == []
    # Robots now, from the board.
    await harness.idle()
    board = board_of(fake)
    robots = next(i for i in board.custom_ids() if i.startswith("dm1:r:"))
    await fake.answered(await fake.click(eva, board, robots))
    await harness.idle()
    # "Mis fichas" answers with the tiles and the move buttons, ephemerally.
    tiles = await fake.click(eva, reply, reply.custom_ids()[0])
    (shown,) = await fake.replied(tiles)
    assert shown.ephemeral
    assert shown.file_bytes().startswith(b"\x89PNG")
    assert "Tus fichas en la mesa 1" in shown.content or "Tu turno" in shown.content
    # The ephemeral message is refreshed in place turn after turn until the match ends.
    presses = await play_until_closed(fake, harness, {eva.id: lambda: shown})
    assert presses and shown.edits >= len(presses)
    assert all(not p.followups for p in presses)  # no refusal along the way
    assert fake.dms_to(eva) == []


async def test_mesa_with_robots_everywhere_starts_the_match_at_once(
    fake: FakeDiscord, harness: Harness
) -> None:
    ana = fake.add_user("Ana")
    inter = await fake.slash(
        ana,
        guild_of(fake),
        "domino",
        "mesa",
        options={"reglas": "dominicano", "robots": "all", "nivel": "aprendiz"},
    )
    await fake.replied(inter)
    await harness.idle()
    board = board_of(fake)
    assert "Mesa 1 · Dominicano" in board.text()
    assert sum(name in board.text() for name in ROBOT_NAMES) >= 3
    assert "Mis fichas" in board.labels()
    assert fake.last_dm(ana) is not None


async def test_salir_from_a_waiting_table_closes_its_board(
    fake: FakeDiscord, harness: Harness
) -> None:
    ana = fake.add_user("Ana")
    await fake.replied(await fake.slash(ana, guild_of(fake), "domino", "jugar"))
    reply = await fake.replied(await fake.slash(ana, guild_of(fake), "domino", "levantarse"))
    assert reply[0].ephemeral
    await harness.idle()
    board = board_of(fake)
    assert "Esta mesa se cerró." in board.text()
    assert board.custom_ids() == []


async def test_saldo_top_and_historial_after_a_match(fake: FakeDiscord, harness: Harness) -> None:
    ana = fake.add_user("Ana")
    guild = guild_of(fake)
    start = await fake.replied(await fake.slash(ana, guild, "domino", "saldo"))
    assert "Tu saldo: $1000" in start[0].text()
    empty = await fake.replied(await fake.slash(ana, guild, "domino", "historial"))
    assert "Aún no tienes partidas terminadas aquí." in empty[0].text()
    await fake.replied(await fake.slash(ana, guild, "domino", "mesa", options={"robots": "all"}))
    await play_until_closed(fake, harness, {ana.id: lambda: fake.last_dm(ana)})
    saldo = await fake.replied(await fake.slash(ana, guild, "domino", "saldo"))
    assert saldo[0].ephemeral
    assert "Partidas: 1" in saldo[0].text()
    top = await fake.replied(await fake.slash(ana, guild, "domino", "top"))
    assert not top[0].ephemeral  # a ranking is for the whole channel
    assert "1. Ana" in top[0].text()
    history = await fake.replied(await fake.slash(ana, guild, "domino", "historial"))
    assert history[0].ephemeral
    record = json.loads(history[0].file_bytes())
    assert len(record["hands"]) >= 1
    assert history[0].attachments[0]["filename"].endswith(".json")


async def test_ayuda_lists_the_commands_ephemerally(fake: FakeDiscord, harness: Harness) -> None:
    ana = fake.add_user("Ana", locale="en-US")
    inter = await fake.slash(ana, guild_of(fake), "domino", "ayuda")
    (reply,) = await fake.replied(inter)
    assert inter.callback_type == 4 and reply.ephemeral
    # An English client gets English text.
    assert "Dominoes for four, in two partnerships." in reply.text()
    assert "/domino-config" in reply.text()
    assert "`/domino-close`: admins close a stuck table now; every stake is refunded." in (
        reply.text()
    )
    assert "`/domino leave`" in reply.text() and "levantarse" not in reply.text()


async def test_mesa_reserves_the_seats_of_invited_members_and_mentions_them(
    fake: FakeDiscord, harness: Harness
) -> None:
    ana, beto = fake.add_user("Ana"), fake.add_user("Beto")
    guild = guild_of(fake)
    inter = await fake.slash(ana, guild, "domino", "mesa", options={"enfrente": beto})
    await fake.replied(inter)
    await harness.idle()
    channel = fake.channel_of(guild)
    invite = await fake.wait_until(
        lambda: [m for m in fake.messages_in(channel) if m.content.startswith("Ana invita")]
    )
    assert invite[0].content.startswith(f"Ana invita a <@{beto.id}> a la mesa 1")
    create = next(
        r
        for r in fake.requests_to("POST", f"/channels/{channel}/messages")
        if (r.json.get("content") or "").startswith("Ana invita")
    )
    assert [int(u) for u in create.json["allowed_mentions"]["users"]] == [beto.id]
    board = board_of(fake)
    assert "3. (para Beto)" in board.text()
    # Beto sits in his reserved seat from the board.
    seat = next(i for i in board.custom_ids() if i.startswith("dm1:s:") and i.endswith(":2"))
    (reply,) = await fake.replied(await fake.click(beto, board, seat))
    assert reply.ephemeral and "Te sentaste en la mesa 1" in reply.text()
    await harness.idle()
    assert "3. Beto" in board.text()


async def test_a_command_that_fails_tells_the_member_and_logs_the_error(
    memory_storage: Storage,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    fake = FakeDiscord()
    await fake.start()
    guild = fake.add_guild("Club")
    ana = fake.add_user("Ana")
    with ErrorLog() as errors:
        harness = await Harness(fake, memory_storage).start()
        try:

            async def broken(player: object) -> int:
                raise RuntimeError("storage is down")

            monkeypatch.setattr(harness.manager, "balance", broken)
            (reply,) = await fake.replied(await fake.slash(ana, guild, "domino", "saldo"))
            assert reply.ephemeral
            assert reply.text() == "Algo salió mal; inténtalo de nuevo."
        finally:
            await harness.stop()
    await fake.close()
    assert [m for m in errors.messages() if "storage is down" in m or "/domino saldo failed" in m]
    assert len(errors.records) == 1


async def test_a_command_that_no_longer_exists_is_said_so_without_an_error(
    fake: FakeDiscord, harness: Harness
) -> None:
    ana = fake.add_user("Ana")
    bob = fake.add_user("Bob", locale="en-US")
    gone = await fake.slash(ana, guild_of(fake), "domino", "retar", stale=True)
    (reply,) = await fake.replied(gone)
    assert reply.ephemeral
    assert reply.text() == (
        "Ese comando ya no existe (el bot se actualizó). `/domino ayuda` muestra los de "
        "ahora; Discord puede tardar un minuto en refrescar su menú."
    )
    old = await fake.slash(bob, guild_of(fake), "dominó-viejo", stale=True)
    (reply,) = await fake.replied(old)
    assert reply.text() == (
        "That command no longer exists (the bot was updated). `/domino help` lists the "
        "current ones; Discord may take a minute to refresh its menu."
    )
    # The fixture fails the test on any ERROR line: a stale command is no failure.


async def test_a_member_seated_in_one_channel_is_sent_to_it_from_another_of_the_server(
    memory_storage: Storage,
    fake: FakeDiscord,
) -> None:
    guild = fake.add_guild("Club", channels=("mesa-1", "mesa-2"))
    first, second = fake.channel_of(guild, 0), fake.channel_of(guild, 1)
    ana, beto = fake.add_user("Ana"), fake.add_user("Beto")
    harness = await Harness(fake, memory_storage).start()
    try:
        await fake.replied(await fake.slash(ana, guild, "domino", "jugar", channel_id=first))
        await fake.replied(await fake.slash(beto, guild, "domino", "jugar", channel_id=second))
        await harness.idle()
        elsewhere = (
            f"Ya tienes asiento en la mesa 1, en <#{first}>. Termínala o levántate primero: "
            "una mesa a la vez."
        )
        for command in ("jugar", "mesa"):
            inter = await fake.slash(ana, guild, "domino", command, channel_id=second)
            (reply,) = await fake.replied(inter)
            assert reply.ephemeral and reply.text() == elsewhere
        # Beto's board in #mesa-2: Ana's press on a free seat there says the same.
        board = next(m for m in fake.messages_in(second) if m.embeds)
        sit = next(i for i in board.custom_ids() if i.startswith("dm1:s:"))
        (reply,) = await fake.replied(await fake.click(ana, board, sit))
        assert reply.ephemeral and reply.text() == elsewhere
        # In her own channel, "here" is right.
        inter = await fake.slash(ana, guild, "domino", "jugar", channel_id=first)
        (reply,) = await fake.replied(inter)
        assert reply.text() == "Ya tienes asiento en la mesa 1 aquí."
        # /domino robots where she has no table: no table here, and nothing filled.
        inter = await fake.slash(ana, guild, "domino", "robots", channel_id=second)
        (reply,) = await fake.replied(inter)
        assert reply.text() == "No tienes mesa aquí."
        await harness.idle()
        tables = [harness.manager.table_state(t) for t in harness.manager.tables()]
        assert [(t.phase, [s.name for s in t.seats]) for t in tables if t is not None] == [
            ("waiting", ["Ana", "", "", ""]),
            ("waiting", ["Beto", "", "", ""]),
        ]
    finally:
        await harness.stop()


async def test_leaving_mid_match_says_the_stake_is_forfeited_in_english_too(
    fake: FakeDiscord, harness: Harness
) -> None:
    """Issue 27, items 2 and 10: leaving a started match abandons it; the member is told
    the stake is lost (in their language) and the channel who left."""
    bob = fake.add_user("Bob", locale="en-US")
    ana = fake.add_user("Ana")
    guild = guild_of(fake)
    await fake.replied(await fake.slash(bob, guild, "domino", "jugar"))
    await fake.replied(await fake.slash(ana, guild, "domino", "jugar"))
    await harness.idle()
    board = board_of(fake)
    robots = next(i for i in board.custom_ids() if i.startswith("dm1:r:"))
    await fake.answered(await fake.click(ana, board, robots))
    await harness.idle()
    table = harness.manager.tables()[0]
    (reply,) = await fake.replied(await fake.slash(bob, guild, "domino", "levantarse"))
    assert reply.text() == (
        "You left table 1: your stake ($10) is forfeited and a robot plays your seat to the end."
    )
    await harness.idle()
    said = [m.content for m in fake.messages_in(fake.channel_of(guild))]
    assert (
        "Bob dejó la partida: pierde su apuesta ($10) y un robot juega su asiento hasta el final."
    ) in said
    state = harness.manager.table_state(table)
    assert state is not None and state.seats[0].away and state.seats[0].back_by is None
    # The board's "Leave" button says the same, in the member's language.
    leave = next(i for i in board.custom_ids() if i.startswith("dm1:x:"))
    press = await fake.click(ana, board, leave)
    (said_to_ana,) = await fake.replied(press)
    assert said_to_ana.text() == (  # the last human: nobody is left to play on
        "Te levantaste de la mesa 1: pierdes tu apuesta ($10) y, sin nadie más en la mesa, "
        "la partida termina."
    )
    assert state.seats[0].player is not None
    assert await harness.manager.balance(state.seats[0].player) == 990
    assert await harness.storage.check_ledger() == []
