"""Ratings, seasons and profiles on Discord (bot/discord/standings.py, the season option
of ``/domino-config`` and the season's end in port.py; issue 14), through the real
discord.py and the fake Discord."""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import pytest_asyncio

from bot.core import ChatRef, Ranking, decode_analysis
from bot.discord.standings import parse_top, top_custom_id, top_view
from bot.discord_http import point_discord_at
from bot.present.standings import season_name
from storage import open_storage
from storage.base import Storage
from storage.ratings import SeasonPeriod
from tests.fake_discord import (
    ErrorLog,
    FakeDiscord,
    FakeMessage,
    FakeUser,
    Harness,
    play_until_closed,
)

PICTURES = Path("/tmp/dc-pics")
NAMES = ("Ana", "Beto", "Caro", "Dani")
DAY = 86_400.0
JANUARY = season_name("2027-01", "es")  # the eager clock starts on 15 January 2027


def keep(name: str, data: bytes) -> None:
    """Keep a picture to look at (/tmp/dc-pics)."""
    PICTURES.mkdir(parents=True, exist_ok=True)
    (PICTURES / name).write_bytes(data)


def png(message: FakeMessage) -> bytes:
    data = message.file_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    return data


async def four_humans_finish_a_match(fake: FakeDiscord, harness: Harness) -> list[FakeUser]:
    """Ana, Beto, Caro and Dani sit with ``/domino jugar`` and play a match to 50 points."""
    guild = next(iter(fake.guilds))
    people = [fake.add_user(name) for name in NAMES]
    people[0].permissions |= 1 << 5  # Ana manages the server
    await fake.replied(
        await fake.slash(
            people[0], guild, "domino-config", options={"reglas": "venezolano", "meta": 50}
        )
    )
    for person in people:
        await fake.replied(await fake.slash(person, guild, "domino", "jugar"))
    await play_until_closed(fake, harness, {p.id: (lambda p=p: fake.last_dm(p)) for p in people})
    return people


@dataclass
class Finished:
    """A fake Discord and a bot on it, after Ana, Beto, Caro and Dani's one match."""

    fake: FakeDiscord
    harness: Harness
    people: list[FakeUser]


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def played_once() -> AsyncIterator[Finished]:
    """One four-human match, played once for the tests that only read what it left (its
    ratings, season table, profiles and hand results): a match takes seconds to play."""
    fake = FakeDiscord()
    await fake.start()
    with ErrorLog() as errors:
        fake.add_guild("Club")
        storage = await open_storage(":memory:")
        harness = await Harness(fake, storage).start()
        people = await four_humans_finish_a_match(fake, harness)
        yield Finished(fake, harness, people)
        point_discord_at(fake.api_base_url, fake.gateway_url)
        await harness.stop()
        await storage.close()
    await fake.close()
    assert errors.messages() == []


@pytest_asyncio.fixture(loop_scope="module")
async def finished(played_once: Finished) -> Finished:
    """:func:`played_once`, with discord.py pointed at its fake again (a test between
    may have pointed it at its own, or back at Discord)."""
    point_discord_at(played_once.fake.api_base_url, played_once.fake.gateway_url)
    return played_once


def server(fake: FakeDiscord) -> ChatRef:
    return ChatRef("discord", str(next(iter(fake.guilds))))


@pytest.mark.asyncio(loop_scope="module")
async def test_a_four_human_match_on_discord_rates_all_four_and_fills_the_season_table(
    finished: Finished,
) -> None:
    fake, harness, people = finished.fake, finished.harness, finished.people
    storage = harness.storage
    for person in people:
        player = await storage.find_player("discord", str(person.id))
        assert player is not None
        rating = await storage.player_rating(player.id)
        assert rating is not None and rating.matches == 1 and rating.provisional
    season = await harness.manager.standings(Ranking.SEASON, server(fake))
    assert season.season == "2027-01"
    assert sorted(row.display_name for row in season.rows) == sorted(NAMES)
    assert all(row.matches == 1 for row in season.rows)


@pytest.mark.asyncio(loop_scope="module")
async def test_top_sends_the_picture_with_the_players_as_text_and_its_buttons_switch_the_list_in_place(
    finished: Finished,
) -> None:
    fake, people = finished.fake, finished.people
    guild = next(iter(fake.guilds))
    inter = await fake.slash(people[1], guild, "domino", "top")
    (top,) = await fake.replied(inter)
    assert not top.ephemeral  # a ranking is for the whole channel
    assert top.attachments[0]["filename"] == "top.png"
    keep("top-rating.png", png(top))
    lines = top.content.split("\n")
    assert lines[0] == "Rating · Club"
    assert sorted(line.split(" — ")[0][3:] for line in lines[1:5]) == sorted(NAMES)
    assert lines[5] == "? = provisional (menos de 10 partidas puntuadas)"
    assert top.labels() == ["Rating", "Temporada", "Saldo", "Parejas", "Todos"]
    assert top.custom_ids() == [
        "dmtop:rating:s",
        "dmtop:season:s",
        "dmtop:balance:s",
        "dmtop:pairs:s",
        "dmtop:rating:g",
    ]
    pressed = await fake.click(people[2], top, "dmtop:season:s")
    await fake.wait_until(lambda: top.edits == 1)
    assert pressed.callback_type == 6  # a silent "got it", then the same message edited
    assert top.content.split("\n")[0] == f"Temporada de {JANUARY} · Club"
    assert len([line for line in top.content.split("\n") if " — " in line]) == 4
    assert top.custom_ids()[1] == "dmtop:season:s"
    assert [b.get("disabled", False) for b in top.buttons()] == [False, True, False, False, False]
    keep("top-season.png", png(top))
    everyone = await fake.click(people[2], top, "dmtop:season:g")
    await fake.wait_until(lambda: top.edits == 2)
    assert everyone.callback_type == 6
    assert top.content.split("\n")[0] == f"Temporada de {JANUARY} · todos"
    assert top.labels()[-1] == "Este servidor"
    tops = [m for m in fake.messages_in(fake.channel_of(guild)) if "top.png" in str(m.attachments)]
    assert tops == [top]  # the presses sent nothing new


async def test_a_forged_top_button_is_refused_and_the_list_stays_as_it_was(
    fake: FakeDiscord, harness: Harness
) -> None:
    ana = fake.add_user("Ana")
    guild = next(iter(fake.guilds))
    (top,) = await fake.replied(await fake.slash(ana, guild, "domino", "top"))
    before = (top.content, top.custom_ids(), top.edits)
    forged = await fake.click(ana, top, "dmtop:money:s")
    (reply,) = await fake.replied(forged)
    assert reply.ephemeral
    assert reply.text() == "Ese botón no es válido."
    assert (top.content, top.custom_ids(), top.edits) == before


@pytest.mark.asyncio(loop_scope="module")
async def test_perfil_with_a_member_shows_that_members_profile(finished: Finished) -> None:
    fake, people = finished.fake, finished.people
    guild = next(iter(fake.guilds))
    inter = await fake.slash(people[0], guild, "domino", "perfil", options={"miembro": people[3]})
    (profile,) = await fake.replied(inter)
    assert not profile.ephemeral
    assert profile.content.split("\n")[0].startswith("Dani — ")
    assert "Partidas: 1" in profile.content
    assert profile.attachments[0]["filename"] == "perfil.png"
    keep("perfil-dani.png", png(profile))
    mine = await fake.replied(await fake.slash(people[1], guild, "domino", "perfil"))
    assert mine[0].content.split("\n")[0].startswith("Beto — ")


async def test_the_config_season_option_stores_a_weekly_season(
    fake: FakeDiscord, harness: Harness
) -> None:
    ana = fake.add_user("Ana", admin=True)
    guild = next(iter(fake.guilds))
    inter = await fake.slash(ana, guild, "domino-config", options={"temporada": "semanal"})
    (reply,) = await fake.replied(inter)
    assert reply.ephemeral
    assert reply.text() == "Cada temporada de este servidor ahora es semanal."
    assert await harness.storage.season_period(server(fake).key) is SeasonPeriod.WEEKLY


async def test_the_season_option_is_refused_to_a_member_who_cannot_manage_the_server(
    fake: FakeDiscord, harness: Harness
) -> None:
    beto = fake.add_user("Beto")
    guild = next(iter(fake.guilds))
    inter = await fake.slash(beto, guild, "domino-config", options={"temporada": "semanal"})
    (reply,) = await fake.replied(inter)
    assert reply.ephemeral
    assert await harness.storage.season_period(server(fake).key) is SeasonPeriod.MONTHLY


async def test_a_season_end_posts_the_final_standings_once_where_the_board_was(
    fake: FakeDiscord, harness: Harness
) -> None:
    await four_humans_finish_a_match(fake, harness)
    guild = next(iter(fake.guilds))
    channel = fake.channel_of(guild)
    await harness.clock.advance(20 * DAY)  # into February 2027
    await harness.manager.start(platforms={"discord"})  # this process owns the tables
    assert await harness.manager.announce_season_finals() == 1
    await harness.idle()
    assert await harness.manager.announce_season_finals() == 0
    await harness.idle()
    await fake.settle()
    finals = [m for m in fake.messages_in(channel) if "Terminó la temporada" in m.content]
    assert len(finals) == 1
    lines = finals[0].content.split("\n")
    assert lines[0] == (
        f"Terminó la temporada ({JANUARY}). Empieza una nueva: {season_name('2027-02', 'es')}."
    )
    assert len(lines) == 4  # the podium
    assert finals[0].attachments[0]["filename"] == "temporada.png"
    keep("temporada-final.png", png(finals[0]))


async def test_without_a_board_the_season_end_goes_to_the_first_channel_the_bot_may_post_in(
    memory_storage: Storage,
    fake: FakeDiscord,
) -> None:
    guild = fake.add_guild("Club", channels=("general", "domino"))
    first = await Harness(fake, memory_storage).start()
    try:
        await four_humans_finish_a_match(fake, first)
    finally:
        await first.stop()
    # A new process knows of no board: the first text channel it may post in gets it.
    second = await Harness(fake, first.storage, clock=first.clock).start()
    try:
        await second.clock.advance(20 * DAY)
        await second.manager.start(platforms={"discord"})
        assert await second.manager.announce_season_finals() == 1
        await second.idle()
        await fake.settle()
        general = fake.channel_of(guild, 0)
        finals = [m for m in fake.messages_in(general) if "Terminó la temporada" in m.content]
        assert len(finals) == 1
    finally:
        await second.stop()


def test_a_top_buttons_custom_id_names_its_list_and_scope_and_nothing_else_parses() -> None:
    assert top_custom_id(Ranking.PAIRS, True) == "dmtop:pairs:g"
    assert parse_top("dmtop:pairs:g") == (Ranking.PAIRS, True, "")
    assert parse_top("dmtop:season:s") == (Ranking.SEASON, False, "")
    # a format's list keeps its format (docs/ratings.md, "Formats")
    assert top_custom_id(Ranking.RATING, False, "cubano") == "dmtop:rating:s:cubano"
    assert parse_top("dmtop:rating:s:cubano") == (Ranking.RATING, False, "cubano")
    assert parse_top("dmtop:rating:s:trio") is None
    assert parse_top("dmtop:money:s") is None
    assert parse_top("dmtop:rating:x") is None
    assert parse_top("dm1:a:T1:sit:0") is None


def test_the_top_view_in_english_names_the_lists_and_offers_this_server_from_everyones() -> None:
    view = top_view(Ranking.BALANCE, True, "en", server=True)
    labels = [getattr(item, "label", "") for item in view.children]
    assert labels == ["Rating", "Season", "Balance", "Pairs", "This server"]
    alone = top_view(Ranking.RATING, True, "en", server=False)
    assert len(alone.children) == 4


@pytest.mark.asyncio(loop_scope="module")
async def test_every_hand_result_offers_each_member_their_own_analysis_privately(
    finished: Finished,
) -> None:
    fake, people = finished.fake, finished.people
    guild = next(iter(fake.guilds))
    results = [
        m for m in fake.messages_in(fake.channel_of(guild))
        if any(i.startswith("dma:") for i in m.custom_ids())
    ]  # fmt: skip
    assert results and results[0].labels() == ["¿Qué debí jugar?"]
    custom_id = results[0].custom_ids()[0]
    press = decode_analysis(custom_id)
    assert press is not None and press.hand == 1  # the first result's own hand
    pressed = await fake.click(people[2], results[0], custom_id)
    (answer,) = await fake.replied(pressed, timeout=30)
    assert answer.ephemeral
    assert answer.content.startswith("Mano ")
    assert "precisión" in answer.content or "no tuviste ninguna elección" in answer.content
    if answer.attachments:  # a costly move: the board at that moment
        assert answer.attachments[0]["filename"] == "jugada.png"
        keep("jugada.png", png(answer))
    stranger = fake.add_user("Zoe")
    refused = await fake.click(stranger, results[0], custom_id)
    (no,) = await fake.replied(refused, timeout=30)
    assert no.ephemeral and no.content == "No tienes asiento en esa mesa."


async def test_the_rating_picture_names_discords_own_help_command(
    memory_storage: Storage, fake: FakeDiscord
) -> None:
    import render

    drawn: list[Any] = []

    def standings_png(facts: Any) -> bytes:
        drawn.append(facts)
        return render.standings_png(facts)

    guild = fake.add_guild("Club")
    ana = fake.add_user("Ana")
    renderers = {
        "render_board": render.board_png,
        "render_hand": render.hand_png,
        "render_hand_result": render.hand_result_png,
        "render_match_result": render.match_result_png,
        "render_waiting": render.waiting_png,
        "render_standings": standings_png,
        "render_profile": render.profile_png,
    }
    harness = await Harness(fake, memory_storage).start(render=renderers)
    try:
        await fake.replied(await fake.slash(ana, guild, "domino", "top"))
        assert [f.subtitle for f in drawn] == ["Rating por parejas (openskill); ver /domino ayuda"]
    finally:
        await harness.stop()
