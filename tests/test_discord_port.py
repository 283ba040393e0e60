"""The Discord port (bot/discord/port.py): manager events to board edits, DMs, ephemeral
tiles and channel messages."""

from __future__ import annotations

from bot.core import Event, MatchEnded, PlayerRef, Refusal, RefusalReason, TableChanged
from bot.present.facts import table_facts
from render import board_png
from tests.fake_discord import (
    FakeDiscord,
    FakeMessage,
    Harness,
    play_until_closed,
    seat_and_fill,
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


async def test_the_final_board_shows_the_position_after_the_winning_tile_and_no_turn(
    fake: FakeDiscord, harness: Harness
) -> None:
    recorder = Recorder()
    harness.manager.register("*", recorder)
    ana = fake.add_user("Ana")
    board = await seat_and_fill(fake, harness, ana)
    await play_until_closed(fake, harness, {ana.id: lambda: fake.last_dm(ana)})
    await fake.settle()
    (ended,) = [e for e in recorder.events if isinstance(e, MatchEnded)]
    last_board = [e for e in recorder.events if isinstance(e, TableChanged)][-1]
    assert ended.view.outcome is not None and last_board.view != ended.view
    final = board_png(ended.view, table_facts(ended.seats, last_board.label, "es"))
    assert board.file_bytes() == final
    assert board.embeds[0]["image"]["url"] == "attachment://mesa.png"
    assert board.embeds[0]["description"] == "La partida terminó."
    assert board.labels() == ["Revancha"]


async def test_the_board_counts_the_turn_down_live_and_its_picture_holds_no_frozen_seconds(
    fake: FakeDiscord, harness: Harness
) -> None:
    ana = fake.add_user("Ana")
    board = await seat_and_fill(fake, harness, ana)
    await fake.wait_until(lambda: (m := fake.last_dm(ana)) and m.custom_ids())
    await harness.idle()
    await fake.settle()
    table = harness.manager.tables()[0]
    state = harness.manager.table_state(table)
    assert state is not None and state.view is not None and state.deadline is not None
    assert state.seats[state.turn or 0].name == "Ana"
    assert board.embeds[0]["description"] == f"Juega Ana · <t:{int(state.deadline)}:R>"
    # The picture shows the position and whose turn it is, never a number of seconds that
    # would stand still while the embed's timestamp counts down.
    assert board.file_bytes() == board_png(state.view, table_facts(state.seats, state.label, "es"))
