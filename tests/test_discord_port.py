"""The Discord port (bot/discord/port.py): manager events to board edits, DMs, ephemeral
tiles and channel messages."""

from __future__ import annotations

from typing import Any

from bot.core import Event, PlayerRef, Refusal, RefusalReason, TableChanged
from bot.discord.messages import board_embed, team_names
from tests.fake_discord import (
    FakeDiscord,
    FakeMessage,
    FakeUser,
    Harness,
    play_until_closed,
)


class Recorder:
    """A second port that only counts what the manager sent."""

    def __init__(self) -> None:
        self.events: list[Event] = []

    async def deliver(self, event: Event) -> None:
        self.events.append(event)


def channel(fake: FakeDiscord) -> int:
    return fake.channel_of(next(iter(fake.guilds)))


def board_of(fake: FakeDiscord) -> FakeMessage:
    return next(m for m in fake.messages_in(channel(fake)) if m.embeds)


async def seat_and_fill(fake: FakeDiscord, harness: Harness, user: FakeUser) -> FakeMessage:
    guild = next(iter(fake.guilds))
    await fake.replied(await fake.slash(user, guild, "domino", "jugar"))
    await harness.idle()
    board = board_of(fake)
    robots = next(i for i in board.custom_ids() if i.startswith("dm1:r:"))
    await fake.answered(await fake.click(user, board, robots))
    await harness.idle()
    return board


async def test_bursts_of_table_changes_are_coalesced_into_fewer_board_edits(
    fake: FakeDiscord, harness: Harness
) -> None:
    recorder = Recorder()
    harness.manager.register("*", recorder)
    ana = fake.add_user("Ana")
    board = await seat_and_fill(fake, harness, ana)
    await play_until_closed(fake, harness, {ana.id: lambda: fake.last_dm(ana)})
    changes = sum(1 for e in recorder.events if isinstance(e, TableChanged))
    edits = len(fake.requests_to("PATCH", f"/channels/{channel(fake)}/messages/{board.id}"))
    assert 0 < edits < changes
    # The picture was uploaded again only with new states, never without the embed.
    assert board.embeds[0]["image"]["url"] == "attachment://mesa.png"


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


async def test_a_refusal_outside_any_command_reaches_the_player_by_dm_or_in_the_channel(
    fake: FakeDiscord, harness: Harness
) -> None:
    ana = fake.add_user("Ana")
    await seat_and_fill(fake, harness, ana)
    table = harness.manager.tables()[0]
    port = harness.front.port
    player = PlayerRef("discord", str(ana.id), "Ana")
    broke = Refusal(
        to=player,
        reason=RefusalReason.INSUFFICIENT_FUNDS,
        params={"balance": 3, "stake": 10},
        table_id=table,
    )
    said = "Necesitas $10 para sentarte y tienes $3."
    await port.deliver(broke)
    assert fake.last_dm(ana).content.startswith(said)
    fake.dms_closed.add(ana.id)
    await port.deliver(broke)
    assert fake.messages_in(channel(fake))[-1].content.startswith("Ana: " + said)


async def test_leaving_mid_match_and_coming_back_are_announced(
    fake: FakeDiscord, harness: Harness
) -> None:
    ana, beto = fake.add_user("Ana"), fake.add_user("Beto")
    guild = next(iter(fake.guilds))
    await fake.replied(await fake.slash(beto, guild, "domino", "jugar"))
    board = await seat_and_fill(fake, harness, ana)
    await fake.replied(await fake.slash(ana, guild, "domino", "salir"))
    await harness.idle()
    said = [m.content for m in fake.messages_in(channel(fake))]
    assert any(s.startswith("Un robot juega ahora por Ana.") for s in said)
    assert "Volver" in board.labels()
    assert "Ana (ausente)" in board.text()
    back = next(i for i in board.custom_ids() if i.startswith("dm1:b:"))
    press = await fake.answered(await fake.click(ana, board, back))
    await harness.idle()
    assert not press.followups
    assert any(m.content == "Ana volvió." for m in fake.messages_in(channel(fake)))
    assert "(ausente)" not in board.text()


async def test_the_board_embed_names_whose_turn_the_time_left_and_the_score(
    fake: FakeDiscord, harness: Harness
) -> None:
    ana = fake.add_user("Ana", locale="en-US")
    await seat_and_fill(fake, harness, ana)
    state = harness.manager.table_state(harness.manager.tables()[0])
    embed = board_embed(state, "en").to_dict()
    assert embed["title"] == "Table 1 · venezolano"
    deadline = int(state.deadline)
    assert embed["description"] == f"{state.seats[state.turn].name} to play · <t:{deadline}:R>"
    fields: dict[str, Any] = {f["name"]: f["value"] for f in embed["fields"]}
    assert fields["Score (to 100)"].count("**0**") == 2
    assert team_names(state.seats, 0) == f"{state.seats[0].name} / {state.seats[2].name}"
    spanish = board_embed(state, "es").to_dict()
    assert spanish["footer"]["text"] == "Apuesta: $10"


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
