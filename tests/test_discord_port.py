"""The Discord port (bot/discord/port.py): manager events to board edits, DMs, ephemeral
tiles and channel messages."""

from __future__ import annotations

import logging
from collections.abc import Callable

import pytest

from bot.core import Event, MatchEnded, PlayerRef, Refusal, RefusalReason, TableChanged
from bot.present.facts import table_facts
from render import board_png
from storage.base import Storage
from tests.fake_discord import (
    FakeDiscord,
    FakeMessage,
    FakeUser,
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


async def test_leaving_mid_match_is_announced_with_the_stake_lost_and_coming_back_is_refused(
    fake: FakeDiscord, harness: Harness
) -> None:
    """Issue 27, item 2: leaving a started match abandons it; the board's "Come back"
    says why the seat is not given back."""
    ana, beto = fake.add_user("Ana"), fake.add_user("Beto")
    guild = next(iter(fake.guilds))
    await fake.replied(await fake.slash(beto, guild, "domino", "jugar"))
    board = await seat_and_fill(fake, harness, ana)
    await fake.replied(await fake.slash(ana, guild, "domino", "levantarse"))
    await harness.idle()
    said = [m.content for m in fake.messages_in(channel(fake))]
    assert (
        "Ana dejó la partida: pierde su apuesta ($10) y un robot juega su asiento hasta el final."
    ) in said
    assert not any(s.startswith("Un robot juega ahora por Ana.") for s in said)
    back = next(i for i in board.custom_ids() if i.startswith("dm1:b:"))
    (refused,) = await fake.replied(await fake.click(ana, board, back))
    assert refused.text() == (
        "Dejaste esa partida: perdiste tu apuesta ($10) y un robot juega tu asiento hasta el final."
    )
    await harness.idle()
    assert not any(m.content == "Ana volvió." for m in fake.messages_in(channel(fake)))


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
    assert board.embeds[0]["description"] == f"Le toca a Ana · <t:{int(state.deadline)}:R>"
    # The picture shows the position and whose turn it is, never a number of seconds that
    # would stand still while the embed's timestamp counts down.
    assert board.file_bytes() == board_png(state.view, table_facts(state.seats, state.label, "es"))


def turn_dm(fake: FakeDiscord, *users: FakeUser) -> tuple[FakeUser, FakeMessage] | None:
    """The player whose last DM shows move buttons, and that DM."""
    for user in users:
        message = fake.last_dm(user)
        if message is not None and any(i.startswith("dm1:m:") for i in message.custom_ids()):
            return user, message
    return None


async def balance(harness: Harness, user: FakeUser) -> int:
    player = PlayerRef("discord", str(user.id), user.name)
    return int(await harness.storage.balance(await harness.manager.player_id(player)))


async def start_two_humans(fake: FakeDiscord, harness: Harness, guild: int) -> list[FakeUser]:
    ana, bob = fake.add_user("Ana"), fake.add_user("Bob", locale="en-US")
    for user in (ana, bob):
        await fake.replied(await fake.slash(user, guild, "domino", "jugar"))
    await harness.idle()
    board = next(m for m in fake.messages_in(fake.channel_of(guild)) if m.embeds)
    robots = next(i for i in board.custom_ids() if i.startswith("dm1:r:"))
    await fake.answered(await fake.click(ana, board, robots))
    await harness.idle()
    assert [await balance(harness, u) for u in (ana, bob)] == [990, 990]  # stakes taken
    return [ana, bob]


def unreachable_lines(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [r.getMessage() for r in caplog.records if "unreachable" in r.getMessage()]


REFUNDED = {
    "es": "La mesa 1 (Club · #domino) se cerró: el bot ya no puede usar su chat. Nadie pierde: "
    "se devolvieron las apuestas.",
    "en": "Table 1 (Club · #domino) closed: the bot can no longer use its chat. Nobody lost: "
    "stakes were refunded.",
}


@pytest.mark.parametrize(
    "lose_it",
    [
        pytest.param(lambda fake, channel: fake.delete_channel(channel), id="deleted-10003"),
        pytest.param(
            lambda fake, channel: fake.forbidden_channels.__setitem__(channel, 50013),
            id="rights-taken-50013",
        ),
    ],
)
async def test_a_channel_the_bot_can_no_longer_use_closes_its_table_once_refunded_and_told_by_dm(
    fake: FakeDiscord,
    harness: Harness,
    caplog: pytest.LogCaptureFixture,
    lose_it: Callable[[FakeDiscord, int], None],
) -> None:
    caplog.set_level(logging.WARNING)
    guild = next(iter(fake.guilds))
    ana, bob = await start_two_humans(fake, harness, guild)
    user, dm = await fake.wait_until(lambda: turn_dm(fake, ana, bob))
    table = harness.manager.tables()[0]
    lose_it(fake, channel(fake))
    since = len(fake.requests)
    move = next(i for i in dm.custom_ids() if i.startswith("dm1:m:"))
    await fake.answered(await fake.click(user, dm, move))
    await harness.idle()
    await fake.settle()
    assert harness.manager.tables() == []
    assert [await balance(harness, u) for u in (ana, bob)] == [1000, 1000]
    assert fake.last_dm(ana).content == REFUNDED["es"]
    assert fake.last_dm(bob).content == REFUNDED["en"]
    assert dm.custom_ids() == []  # the turn's buttons went with the table
    # One failed board update closed the table: nothing posted or retried there after.
    tried = [r for r in fake.requests[since:] if r.path.startswith(f"/channels/{channel(fake)}")]
    assert [r.method for r in tried] == ["PATCH"]
    assert unreachable_lines(caplog) == [
        f"discord chat {guild} channel {channel(fake)} unreachable: closed {table}, stakes refunded"
    ]


async def test_removed_from_a_server_its_tables_close_refunded_and_other_servers_play_on(
    memory_storage: Storage, fake: FakeDiscord, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.WARNING)
    club = fake.add_guild("Club", channels=("domino", "otra"))
    other = fake.add_guild("Otro")
    harness = await Harness(fake, memory_storage).start()
    try:
        ana, bob = await start_two_humans(fake, harness, club)
        dani = fake.add_user("Dani")  # waiting alone in #otra (table 2): no stake taken yet
        await fake.replied(
            await fake.slash(dani, club, "domino", "jugar", channel_id=fake.channel_of(club, 1))
        )
        carla = fake.add_user("Carla")
        await fake.replied(await fake.slash(carla, other, "domino", "jugar"))
        await harness.idle()
        playing = harness.manager.tables()
        assert len(playing) == 3
        since = len(fake.requests)
        await fake.remove_bot_from(club)
        await fake.wait_until(lambda: len(harness.manager.tables()) == 1)
        await harness.idle()
        await fake.settle()
        (left,) = harness.manager.tables()
        state = harness.manager.table_state(left)
        assert state is not None and state.chat.chat_id == str(other)
        assert [await balance(harness, u) for u in (ana, bob, dani)] == [1000, 1000, 1000]
        assert fake.last_dm(ana).content == REFUNDED["es"]
        assert fake.last_dm(bob).content == REFUNDED["en"]
        assert fake.last_dm(dani).content == (
            "La mesa 2 (Club · #otra) se cerró: el bot ya no puede usar su chat. No se cobró nada."
        )
        # Nothing more was tried in the server the bot left.
        club_channels = {fake.channel_of(club, 0), fake.channel_of(club, 1)}
        assert [r for r in fake.requests[since:] if channel_in(r.path) in club_channels] == []
        assert unreachable_lines(caplog) == [
            f"discord chat {club} unreachable: closed {', '.join(playing[:2])}, stakes refunded"
        ]
    finally:
        await harness.stop()


def channel_in(path: str) -> int | None:
    parts = path.strip("/").split("/")
    return int(parts[1]) if parts[0] == "channels" and parts[1].isdigit() else None
