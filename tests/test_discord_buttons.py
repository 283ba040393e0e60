"""Buttons (bot/discord/buttons.py): custom ids, the persistent item, and every kind of bad
press (stale, repeated, foreign, forged, on an ended table) refused ephemerally with
nothing changed."""

from __future__ import annotations

import asyncio
import re
from typing import Any

from bot.core import EMOTES, PlayerRef, ShowMyTiles, encode_action, encode_press
from bot.discord.buttons import PressItem, board_view, moves_view
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


def test_every_payload_the_bot_makes_fits_a_custom_id_and_matches_the_item() -> None:
    template = PressItem.__discord_ui_compiled_template__  # type: ignore[attr-defined]
    longest_table = "z" * 16
    payloads = [encode_press(longest_table, 999_999, 999_999, "66l")] + [
        encode_action(kind, longest_table, arg)
        for kind, arg in [
            ("sit", 3),
            ("sit", ""),
            ("robots", ""),
            ("tiles", ""),
            ("back", ""),
            ("leave", ""),
            ("again", ""),
        ]
        + [("emote", name) for name in EMOTES]
    ]
    for payload in payloads:
        assert len(payload) <= 100
        assert re.fullmatch(template, payload), payload


async def test_board_buttons_follow_the_tables_phase(fake: FakeDiscord, harness: Harness) -> None:
    ana = fake.add_user("Ana")
    guild = next(iter(fake.guilds))
    await fake.replied(await fake.slash(ana, guild, "domino", "jugar"))
    await harness.idle()
    table = harness.manager.tables()[0]
    waiting = harness.manager.table_state(table)
    view = board_view(waiting, "es")
    labels = [item.label for item in view.children]
    assert labels == [
        "Sentarme: asiento 2",
        "Sentarme: asiento 3",
        "Sentarme: asiento 4",
        "Robots ya",
        "Salir",
    ]
    assert view.is_finished()  # discord.py keeps no view per message: PressItem answers
    english = board_view(waiting, "en")
    assert [item.label for item in english.children][-2:] == ["Robots now", "Leave"]


async def test_move_buttons_carry_the_managers_payloads_highest_tile_first(
    fake: FakeDiscord, harness: Harness
) -> None:
    ana = fake.add_user("Ana")
    await start_with_robots(fake, harness, ana)
    dm = await my_turn(fake, ana)
    reply = await harness.manager.handle(
        ShowMyTiles(PlayerRef("discord", str(ana.id), "Ana"), table_id=harness.manager.tables()[0])
    )
    (tiles,) = reply.events
    assert set(dm.custom_ids()) == {choice.payload for choice in tiles.moves}
    view = moves_view(tiles)
    assert view is not None and view.is_finished()
    codes = [item.custom_id.rsplit(":", 1)[1] for item in view.children]
    pips = [(int(c[0]), int(c[1])) for c in codes if c != "p"]
    assert pips == sorted(pips, reverse=True)
    assert [item.label for item in view.children] == dm.labels()


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
    again = await fake.click(ana, dm, old_id)  # the same button, one move later
    message = await refusal(fake, again)
    assert message.text() in (said("stale"), said("not_your_turn"))
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
    mine = [
        m for seat, m in harness.manager.match_of(table).hand.history[len(before) :] if seat == 0
    ]
    assert len(mine) >= 1 and mine[0].code() == button.rsplit(":", 1)[1]


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
    assert (await refusal(fake, unknown)).text() == said("table_gone")
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
