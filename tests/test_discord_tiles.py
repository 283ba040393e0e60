"""Tiles by DM or ephemerally (bot/discord/tiles.py), through the real discord.py and the
fake Discord."""

from __future__ import annotations

from typing import Any

from storage.base import Storage
from tests.fake_discord import (
    FakeDiscord,
    FakeMessage,
    FakeUser,
    Harness,
    board_message,
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
    memory_storage: Storage,
    fake: FakeDiscord,
) -> None:
    guild = fake.add_guild("Club")
    channel = fake.channel_of(guild)
    thread = fake.add_thread(guild, channel, "Torneo del viernes")
    forum = fake.add_channel(guild, "partidas", forum=True)
    post = fake.add_thread(guild, forum, "Mesa de Beto")
    ana, beto = fake.add_user("Ana"), fake.add_user("Beto")
    harness = await Harness(fake, memory_storage).start()
    try:
        for user, where in ((ana, thread), (beto, post)):
            await fake.replied(await fake.slash(user, guild, "domino", "jugar", channel_id=where))
            await harness.idle()
            board = next(m for m in fake.messages_in(where) if m.embeds)
            robots = next(i for i in board.custom_ids() if i.startswith("dm1:r:"))
            await fake.answered(await fake.click(user, board, robots))
        await harness.idle()
        for user, label, place in (
            (ana, 1, "Club · #domino › Torneo del viernes"),
            (beto, 2, "Club · #partidas › Mesa de Beto"),
        ):
            # the "you sit" DM became the first tiles; then one DM per own turn
            dms = fake.dms_to(user)
            assert len(dms) >= 1
            assert [f"mesa {label} ({place})" in m.content for m in dms] == [True] * len(dms)
    finally:
        await harness.stop()


def pings(fake: FakeDiscord, user: FakeUser) -> list[FakeMessage]:
    """The channel messages mentioning ``user`` (their "your turn" with DMs closed)."""
    channel = fake.channel_of(next(iter(fake.guilds)))
    return [m for m in fake.messages_in(channel) if m.content.startswith(f"<@{user.id}>")]


def ping_request(fake: FakeDiscord, user: FakeUser) -> dict[str, Any]:
    channel = fake.channel_of(next(iter(fake.guilds)))
    sent = fake.requests_to("POST", f"/channels/{channel}/messages")
    return next(r.json for r in sent if (r.json.get("content") or "").startswith(f"<@{user.id}>"))


async def test_a_member_with_closed_dms_is_mentioned_on_their_turn_until_they_have_moved(
    fake: FakeDiscord, harness: Harness
) -> None:
    eva = fake.add_user("Eva", dms_closed=True)
    board = await seat_and_fill(fake, harness, eva)
    table = harness.manager.tables()[0]
    (ping,) = await fake.wait_until(lambda: pings(fake, eva))
    state = harness.manager.table_state(table)
    assert state is not None and state.deadline is not None
    assert ping.content == (
        f"<@{eva.id}>, te toca en la mesa 1: juega <t:{int(state.deadline)}:R>. Tus mensajes "
        "directos están cerrados: toca «Mis fichas» para ver tus fichas aquí."
    )
    assert ping.labels() == ["Mis fichas"] and ping.custom_ids() == [f"dm1:t:{table}:"]
    # The mention notifies her, and only her.
    assert ping_request(fake, eva)["allowed_mentions"] == {"parse": [], "users": [eva.id]}
    # Her tiles, ephemerally, from the mention's button; she moves from them.
    (shown,) = await fake.replied(await fake.click(eva, ping, f"dm1:t:{table}:"))
    assert shown.ephemeral and shown.content.startswith("Tu turno en la mesa 1")
    moves = [i for i in shown.custom_ids() if i.startswith("dm1:m:")]
    press = await fake.answered(await fake.click(eva, shown, moves[0]))
    await harness.idle()
    await fake.settle()
    assert not press.followups
    # Moved: that mention is gone; her next turn is a new mention (her ephemeral tiles
    # are refreshed too, but an edit notifies nobody).
    assert fake.messages.get(ping.id) is None
    (again,) = await fake.wait_until(lambda: pings(fake, eva))
    assert again.id != ping.id
    assert again.content.startswith(f"<@{eva.id}>, te toca en la mesa 1: juega <t:")
    assert board.embeds and fake.dms_to(eva) == []


async def test_an_expired_tiles_token_brings_a_mention_with_a_fresh_my_tiles_button(
    fake: FakeDiscord, harness: Harness
) -> None:
    eva = fake.add_user("Eva", dms_closed=True)
    await seat_and_fill(fake, harness, eva)
    table = harness.manager.tables()[0]
    (ping,) = await fake.wait_until(lambda: pings(fake, eva))
    (shown,) = await fake.replied(await fake.click(eva, ping, f"dm1:t:{table}:"))
    moves = [i for i in shown.custom_ids() if i.startswith("dm1:m:")]
    # Fifteen minutes later her tiles message can no longer be edited ("Unknown Webhook").
    fake.tokens_expired_for.add(eva.id)
    await fake.answered(await fake.click(eva, shown, moves[0]))
    await harness.idle()
    (again,) = await fake.wait_until(lambda: pings(fake, eva))
    assert again.id != ping.id
    assert again.content.startswith(f"<@{eva.id}>, te toca en la mesa 1: juega <t:")
    assert again.custom_ids() == [f"dm1:t:{table}:"]
    # The turn is hers until she moves or her time runs out: no robot moved for her.
    state = harness.manager.table_state(table)
    assert state is not None and state.seats[state.turn or 0].name == "Eva"
    fake.tokens_expired_for.clear()
    (fresh,) = await fake.replied(await fake.click(eva, again, f"dm1:t:{table}:"))
    assert fresh.ephemeral and fresh.content.startswith("Tu turno en la mesa 1")


async def test_a_players_dm_channel_is_opened_once_even_after_discord_py_forgets_it(
    fake: FakeDiscord, harness: Harness
) -> None:
    ana = fake.add_user("Ana")
    await seat_and_fill(fake, harness, ana)
    await fake.wait_until(lambda: (m := fake.last_dm(ana)) and m.custom_ids() and m)
    client = harness.front.bot
    # discord.py keeps only the 128 newest DM channels: past that, Ana's is forgotten.
    client._connection._private_channels.clear()
    client._connection._private_channels_by_user.clear()
    desk = harness.front.port.desk
    first = await desk.dm_user(str(ana.id))
    sent = await first.send("hola")
    again = await desk.dm_user(str(ana.id))
    await again.send("otra vez")
    assert first.id == again.id == fake.dm_channels[ana.id]
    assert sent.channel.id == fake.dm_channels[ana.id]
    assert [m.content for m in fake.dms_to(ana)[-2:]] == ["hola", "otra vez"]
    assert len(fake.requests_to("POST", "/users/@me/channels")) == 1


SILENT = 1 << 12
"""Discord's SUPPRESS_NOTIFICATIONS message flag."""


def dm_posts(fake: FakeDiscord, user: FakeUser) -> list[dict[str, Any]]:
    """The new messages the bot sent to ``user``'s DMs (each may notify them)."""
    channel = fake.dm_channels[user.id]
    return [r.json for r in fake.requests_to("POST", f"/channels/{channel}/messages")]


async def test_a_whole_match_sends_one_notifying_dm_per_own_turn_and_edits_the_rest(
    fake: FakeDiscord, harness: Harness
) -> None:
    ana = fake.add_user("Ana")
    ana.permissions |= 1 << 5  # she manages the server: a short match
    guild = next(iter(fake.guilds))
    await fake.replied(
        await fake.slash(ana, guild, "domino-config", options={"reglas": "venezolano", "meta": 50})
    )
    board = await seat_and_fill(fake, harness, ana)
    table = next(i.split(":")[2] for i in board.custom_ids())
    presses = await play_until_closed(fake, harness, {ana.id: lambda: fake.last_dm(ana)})
    match = harness.manager.match_of(table)
    assert match is not None and match.hand_number > 1
    posts = dm_posts(fake, ana)
    # "You sit at table 1", then exactly one DM per own turn (each turn was a press).
    assert len(posts) == 1 + len(presses)
    assert posts[0]["content"].startswith("Te sentaste en la mesa 1 (Club")
    assert [p["content"].startswith("Tu turno en la mesa 1") for p in posts[1:]] == [True] * len(
        presses
    )
    assert [p.get("flags", 0) & SILENT for p in posts] == [0] * len(posts)
    # A new hand's tiles edited her last DM instead of coming as a new one.
    assert any(m.content.startswith("Tus fichas en la mesa 1") for m in fake.dms_to(ana))


async def test_a_member_with_closed_dms_is_mentioned_on_every_own_turn_of_a_whole_match(
    fake: FakeDiscord, harness: Harness
) -> None:
    eva = fake.add_user("Eva", dms_closed=True)
    eva.permissions |= 1 << 5  # she manages the server: a short match
    guild = next(iter(fake.guilds))
    await fake.replied(
        await fake.slash(eva, guild, "domino-config", options={"reglas": "venezolano", "meta": 50})
    )
    await seat_and_fill(fake, harness, eva)
    table = harness.manager.tables()[0]
    (ping,) = await fake.wait_until(lambda: pings(fake, eva))
    (shown,) = await fake.replied(await fake.click(eva, ping, f"dm1:t:{table}:"))
    # She plays the whole match from her ephemeral tiles message, which stays alive.
    presses = await play_until_closed(fake, harness, {eva.id: lambda: shown})
    channel = fake.channel_of(guild)
    mentions = [
        r.json["content"]
        for r in fake.requests_to("POST", f"/channels/{channel}/messages")
        if (r.json.get("content") or "").startswith(f"<@{eva.id}>")
    ]
    # One mention per own turn (each turn was a press), each gone once she moved.
    assert len(mentions) == len(presses) > 1
    assert [m.startswith(f"<@{eva.id}>, te toca en la mesa 1: juega <t:") for m in mentions] == [
        True
    ] * len(mentions)
    assert pings(fake, eva) == []


async def test_a_player_who_chose_no_notifications_gets_their_turns_by_silent_edits(
    fake: FakeDiscord, harness: Harness
) -> None:
    ana = fake.add_user("Ana")
    ana.permissions |= 1 << 5  # she manages the server: a short match
    guild = next(iter(fake.guilds))
    await fake.replied(
        await fake.slash(ana, guild, "domino-config", options={"reglas": "venezolano", "meta": 50})
    )
    (said,) = await fake.replied(
        await fake.slash(ana, guild, "domino", "avisos", options={"modo": "none"})
    )
    assert said.ephemeral and said.content == (
        "Sin avisos: tu mensaje directo de fichas se actualiza en su sitio, sin notificarte, "
        "también en tus turnos."
    )
    player = await harness.storage.find_player("discord", str(ana.id))
    assert await harness.storage.player_notifications(player.id) == "none"
    await seat_and_fill(fake, harness, ana)
    presses = await play_until_closed(fake, harness, {ana.id: lambda: fake.last_dm(ana)})
    # Her whole match in one DM: "you sit at table 1", edited into every turn since.
    assert len(presses) > 1
    assert [p["content"][:23] for p in dm_posts(fake, ana)] == ["Te sentaste en la mesa "]
    (only,) = fake.dms_to(ana)
    assert only.edits >= len(presses)
    # She turns them back on: her next match notifies her on each turn again.
    (said,) = await fake.replied(
        await fake.slash(ana, guild, "domino", "avisos", options={"modo": "turn"})
    )
    assert said.content == "Un mensaje directo te avisará en cada uno de tus turnos."
    assert await harness.storage.player_notifications(player.id) == "turn"


async def test_a_tiles_dm_that_is_gone_is_sent_again_silently(
    fake: FakeDiscord, harness: Harness
) -> None:
    ana = fake.add_user("Ana")
    guild = next(iter(fake.guilds))
    await fake.replied(await fake.slash(ana, guild, "domino", "avisos", options={"modo": "none"}))
    await fake.replied(await fake.slash(ana, guild, "domino", "jugar"))
    await harness.idle()
    (sat,) = fake.dms_to(ana)
    del fake.messages[sat.id]  # the "you sit" DM is gone before her tiles come
    fake.channel_messages[sat.channel_id].remove(sat.id)
    board = board_message(fake)
    robots = next(i for i in board.custom_ids() if i.startswith("dm1:r:"))
    await fake.answered(await fake.click(ana, board, robots))
    await harness.idle()
    (tiles,) = await fake.wait_until(lambda: fake.dms_to(ana))
    assert tiles.content.startswith(("Tus fichas en la mesa 1", "Tu turno en la mesa 1"))
    assert tiles.flags & SILENT == SILENT
    assert [p.get("flags", 0) & SILENT for p in dm_posts(fake, ana)] == [0, SILENT]
