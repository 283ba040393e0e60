"""Button presses (bot/discord/presses.py), through the real discord.py and the fake
Discord: stale, doubled, foreign, forged and late presses, emotes."""

from __future__ import annotations

import asyncio
from typing import Any

from bot.present.i18n import refusal_text
from tests.fake_discord import (
    EPHEMERAL,
    FakeDiscord,
    FakeMessage,
    FakeUser,
    Harness,
    play_until_closed,
)


async def start_with_robots(fake: FakeDiscord, harness: Harness, user: FakeUser) -> str:
    guild = next(iter(fake.guilds))
    await fake.replied(await fake.slash(user, guild, "domino", "mesa", options={"robots": "all"}))
    await harness.idle()
    return harness.manager.tables()[0]


async def my_turn(fake: FakeDiscord, user: FakeUser) -> FakeMessage:
    return await fake.wait_until(lambda: (m := fake.last_dm(user)) and m.custom_ids() and m)


def history(harness: Harness, table: str) -> tuple[Any, ...]:
    match = harness.manager.match_of(table)
    return (match.hand_number, match.hand.history)


def said(reason: str) -> str:
    """The manager's sentence for a refusal, in Spanish (the core catalog)."""
    return refusal_text(reason, {}, "es")


async def refusal(fake: FakeDiscord, inter: Any) -> FakeMessage:
    (message,) = await fake.replied(inter)
    assert message.ephemeral and message.flags & EPHEMERAL
    return message


async def test_a_stale_press_is_refused_ephemerally_and_changes_nothing(
    fake: FakeDiscord, harness: Harness
) -> None:
    ana = fake.add_user("Ana")
    table = await start_with_robots(fake, harness, ana)
    dm = await my_turn(fake, ana)
    old_id = dm.custom_ids()[0]
    await fake.answered(await fake.click(ana, dm, old_id))
    await harness.idle()
    after = history(harness, table)
    state = harness.manager.table_state(table)
    # seed 7: the three robots have moved and it is Ana's turn again, four moves later
    assert (state.phase, state.turn, state.hand_number, state.move_number) == ("playing", 0, 1, 6)
    again = await fake.click(ana, dm, old_id)  # the same button, a round later
    message = await refusal(fake, again)
    assert message.text() == said("stale")
    await harness.idle()
    assert history(harness, table) == after


async def test_two_quick_presses_of_the_same_button_play_once(
    fake: FakeDiscord, harness: Harness
) -> None:
    ana = fake.add_user("Ana")
    table = await start_with_robots(fake, harness, ana)
    dm = await my_turn(fake, ana)
    button = dm.custom_ids()[0]
    before = harness.manager.match_of(table).hand.history
    first, second = await asyncio.gather(fake.click(ana, dm, button), fake.click(ana, dm, button))
    await fake.answered(first)
    await fake.answered(second)
    await harness.idle()
    refused = [p for p in (first, second) if p.followups]
    assert len(refused) == 1
    assert refused[0].followups[0].ephemeral
    assert refused[0].followups[0].text() == said("stale")
    played = harness.manager.match_of(table).hand.history[len(before) :]
    # Ana's one move, then the three robots' (it is her turn again, unpressed)
    assert [seat for seat, _ in played] == [0, 1, 2, 3]
    assert played[0][1].code() == button.rsplit(":", 1)[1]


async def test_a_press_by_someone_not_seated_is_refused(
    fake: FakeDiscord, harness: Harness
) -> None:
    ana = fake.add_user("Ana")
    intruder = fake.add_user("Intruso")
    table = await start_with_robots(fake, harness, ana)
    dm = await my_turn(fake, ana)
    before = history(harness, table)
    press = await fake.click(intruder, dm, dm.custom_ids()[0])
    message = await refusal(fake, press)
    assert message.text() == said("not_seated")
    await harness.idle()
    assert history(harness, table) == before


async def test_a_forged_payload_is_refused(fake: FakeDiscord, harness: Harness) -> None:
    ana = fake.add_user("Ana")
    table = await start_with_robots(fake, harness, ana)
    dm = await my_turn(fake, ana)
    before = history(harness, table)
    forged = f"dm1:m:{table}:1:1:77"  # no such tile
    press = await fake.click(ana, dm, forged)
    message = await refusal(fake, press)
    assert message.text() == said("forged")
    unknown = await fake.click(ana, dm, "dm1:m:nosuchtable:1:1:66")
    assert (await refusal(fake, unknown)).text() == refusal_text("table_gone", {"unknown": 1}, "es")
    await harness.idle()
    assert history(harness, table) == before


async def test_a_press_after_the_table_ended_says_so(fake: FakeDiscord, harness: Harness) -> None:
    ana = fake.add_user("Ana")
    await start_with_robots(fake, harness, ana)
    first = await my_turn(fake, ana)
    button = first.custom_ids()[0]
    await play_until_closed(fake, harness, {ana.id: lambda: fake.last_dm(ana)})
    press = await fake.click(ana, first, button)
    message = await refusal(fake, press)
    assert message.text() == said("table_gone")


async def test_an_emote_button_shows_the_emote_in_the_channel(
    fake: FakeDiscord, harness: Harness
) -> None:
    ana = fake.add_user("Ana")
    await start_with_robots(fake, harness, ana)
    channel = fake.channel_of(next(iter(fake.guilds)))
    board = next(m for m in fake.messages_in(channel) if m.embeds)
    emote = next(i for i in board.custom_ids() if i.endswith(":buena"))
    press = await fake.answered(await fake.click(ana, board, emote))
    assert press.callback_type == 6
    await harness.idle()
    assert any(m.content == "Ana: ¡Buena!" for m in fake.messages_in(channel))
    too_soon = await fake.click(ana, board, emote)
    assert (await refusal(fake, too_soon)).text().startswith("Espera ")


async def test_a_forged_move_pressed_on_the_board_is_refused_and_leaves_the_board_as_it_is(
    fake: FakeDiscord, harness: Harness
) -> None:
    ana = fake.add_user("Ana")
    table = await start_with_robots(fake, harness, ana)
    await my_turn(fake, ana)
    await harness.idle()
    await fake.settle()
    channel = fake.channel_of(next(iter(fake.guilds)))
    board = next(m for m in fake.messages_in(channel) if m.embeds)
    buttons, edits, before = board.custom_ids(), board.edits, history(harness, table)
    # Well formed, so it reaches the manager, but no button of this move was ever sent.
    press = await fake.click(ana, board, f"dm1:m:{table}:9:9:66")
    message = await refusal(fake, press)
    assert press.callback_type == 6  # a silent "got it", never an edit of the board
    assert message.text() == said("stale")
    await harness.idle()
    await fake.settle()
    assert (board.custom_ids(), board.edits) == (buttons, edits)
    assert history(harness, table) == before


async def test_a_forged_move_pressed_on_the_dm_leaves_its_move_buttons(
    fake: FakeDiscord, harness: Harness
) -> None:
    ana = fake.add_user("Ana")
    table = await start_with_robots(fake, harness, ana)
    dm = await my_turn(fake, ana)
    buttons = dm.custom_ids()
    message = await refusal(fake, await fake.click(ana, dm, f"dm1:m:{table}:9:9:66"))
    assert message.text() == said("stale")
    await harness.idle()
    assert dm.custom_ids() == buttons


async def test_a_button_id_this_bot_never_made_is_refused_ephemerally_and_changes_nothing(
    fake: FakeDiscord, harness: Harness
) -> None:
    ana = fake.add_user("Ana")
    table = await start_with_robots(fake, harness, ana)
    dm = await my_turn(fake, ana)
    await harness.idle()
    await fake.settle()
    channel = fake.channel_of(next(iter(fake.guilds)))
    board = next(m for m in fake.messages_in(channel) if m.embeds)
    buttons, before = board.custom_ids(), history(harness, table)
    for custom_id in ("hola", "xx1:m:abc:1:1:66", "dm1"):
        press = await fake.click(ana, board, custom_id)
        assert (await refusal(fake, press)).text() == said("forged")
    assert (await refusal(fake, await fake.click(ana, dm, "menu:open"))).text() == said("forged")
    await harness.idle()
    assert board.custom_ids() == buttons
    assert history(harness, table) == before
