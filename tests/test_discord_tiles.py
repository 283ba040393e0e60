"""Tiles by DM or ephemerally (bot/discord/tiles.py), through the real discord.py and the
fake Discord."""

from __future__ import annotations

from storage.memory import MemoryStorage
from tests.fake_discord import (
    FakeDiscord,
    Harness,
    play_until_closed,
    seat_and_fill,
)


async def test_dms_closed_in_the_middle_of_a_match_fall_back_to_the_my_tiles_button(
    fake: FakeDiscord, harness: Harness
) -> None:
    ana = fake.add_user("Ana")
    board = await seat_and_fill(fake, harness, ana)
    dm = await fake.wait_until(lambda: (m := fake.last_dm(ana)) and m.custom_ids() and m)
    fake.dms_closed.add(ana.id)  # she closes her DMs now
    await fake.answered(await fake.click(ana, dm, dm.custom_ids()[0]))
    await harness.idle()
    await fake.wait_until(lambda: str(ana.id) in harness.front.port.dms_closed)
    tiles = next(i for i in board.custom_ids() if i.startswith("dm1:t:"))
    press = await fake.click(ana, board, tiles)
    (shown,) = await fake.replied(press)
    assert shown.ephemeral and shown.file_bytes().startswith(b"\x89PNG")
    presses = await play_until_closed(fake, harness, {ana.id: lambda: shown})
    assert presses and all(not p.followups for p in presses)


async def test_a_turn_that_times_out_takes_the_buttons_off_the_dm(
    fake: FakeDiscord, harness: Harness
) -> None:
    ana = fake.add_user("Ana")
    await seat_and_fill(fake, harness, ana)
    dm = await fake.wait_until(lambda: (m := fake.last_dm(ana)) and m.custom_ids() and m)
    table = harness.manager.tables()[0]
    before = len(harness.manager.match_of(table).hand.history)
    await harness.clock.advance(46)  # the 45 s turn runs out: a robot plays that move
    await harness.idle()
    await fake.wait_until(lambda: not dm.custom_ids())
    match = harness.manager.match_of(table)
    assert len(match.hand.history) > before or match.hand_number > 1
    assert dm.content.startswith("Tus fichas en la mesa 1")


async def test_private_messages_of_a_table_in_a_thread_or_a_forum_post_name_the_thread(
    fake: FakeDiscord,
) -> None:
    guild = fake.add_guild("Club")
    channel = fake.channel_of(guild)
    thread = fake.add_thread(guild, channel, "Torneo del viernes")
    forum = fake.add_channel(guild, "partidas", forum=True)
    post = fake.add_thread(guild, forum, "Mesa de Beto")
    ana, beto = fake.add_user("Ana"), fake.add_user("Beto")
    harness = await Harness(fake, MemoryStorage()).start()
    try:
        for user, where in ((ana, thread), (beto, post)):
            await fake.replied(await fake.slash(user, guild, "domino", "jugar", channel_id=where))
            await harness.idle()
            board = next(m for m in fake.messages_in(where) if m.embeds)
            robots = next(i for i in board.custom_ids() if i.startswith("dm1:r:"))
            await fake.answered(await fake.click(user, board, robots))
        await harness.idle()
        for user, place in (
            (ana, "Club · #domino › Torneo del viernes"),
            (beto, "Club · #partidas › Mesa de Beto"),
        ):
            sat, *tiles = fake.dms_to(user)
            assert f"mesa 1 ({place})." in sat.content
            assert len(tiles) >= 1
            assert [f"mesa 1 ({place})" in m.content for m in tiles] == [True] * len(tiles)
    finally:
        await harness.stop()
