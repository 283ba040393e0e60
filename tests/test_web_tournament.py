"""A tournament's public page on the web table's server (bot/web/server.py,
bot/web/tournament.py; issue 32): its tables with their spectator links, its picture, its
places and prizes once over, and the 404 page of an id nobody knows, in Spanish and in
English. Tournaments are run through the core's commands on the injected clock."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator

import pytest
from conftest import RecordingPort
from test_web_server import ANA, BEA, GROUP, Site, open_site

import bot.web.server
from bot.core import (
    CancelTournament,
    CreateTournament,
    JoinTournament,
    PlayerRef,
    PlayNow,
    StartTournament,
    TournamentKind,
)
from bot.present.facts import tournament_picture
from bot.web.tournament import reader_language
from render import BracketFacts, TournamentStandingsFacts, tournament_png
from storage.base import Storage

ADMIN = PlayerRef("telegram", "9", "Admin")
CARLA = PlayerRef("telegram", "44", "Carla")
DANI = PlayerRef("telegram", "45", "Dani")
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


@pytest.fixture
async def site(recorder: RecordingPort, memory_storage: Storage) -> AsyncIterator[Site]:
    async with open_site(recorder, memory_storage) as opened:
        await opened.manager.start()
        yield opened


async def signed_up(site: Site, *players: PlayerRef, fee: int = 10) -> str:
    """A one-against-one knockout, "Copa del viernes", opened in the group; ``players``
    sign up. Its id."""
    create = CreateTournament(
        ADMIN,
        GROUP,
        TournamentKind.KNOCKOUT,
        is_admin=True,
        preset="uno-contra-uno",
        fee=fee,
        name="Copa del viernes",
    )
    assert (await site.manager.handle(create)).ok
    for player in players:
        assert (await site.manager.handle(JoinTournament(player, GROUP))).ok
    view = site.manager.tournament_here(GROUP)
    assert view is not None
    return view.id


async def started(site: Site, *players: PlayerRef) -> str:
    """A knockout of ``players`` started by the admin: its first round's tables open."""
    tournament_id = await signed_up(site, *players)
    assert (await site.manager.handle(StartTournament(ADMIN, GROUP, is_admin=True))).ok
    await site.manager.idle()
    return tournament_id


async def finished(site: Site) -> str:
    """Ana against Bea for $10 each: Ana sits, Bea never comes, Ana wins by her no-show."""
    tournament_id = await started(site, ANA, BEA)
    assert (await site.manager.handle(PlayNow(ANA, GROUP))).ok
    await site.clock.advance(120)
    await site.manager.idle()
    assert site.manager.tournament_here(GROUP) is None
    return tournament_id


async def get(site: Site, path: str, language: str | None = None) -> tuple[int, str, str]:
    """Status, content type and text of ``path``, the browser asking for ``language``."""
    headers = {"Accept-Language": language} if language else {}
    async with site.session.get(site.url + path, headers=headers) as response:
        return response.status, response.content_type, await response.text()


def watch_links(html: str) -> list[str]:
    return re.findall(r'<a class="watch" href="([^"]+)">', html)


def list_items(html: str, section: str) -> list[str]:
    """The text of each line of a section of the page (tags dropped)."""
    found = re.search(rf'<section class="sheet" id="{section}">(.*?)</section>', html, re.S)
    assert found is not None, section
    lines = re.findall(r"<li>(.*?)</li>", found.group(1), re.S)
    return [" ".join(re.sub(r"<[^>]+>", " ", line).split()) for line in lines]


async def test_a_running_tournaments_page_lists_its_tables_with_watch_links_and_its_picture(
    site: Site,
) -> None:
    tournament_id = await started(site, ANA, BEA, CARLA, DANI)
    tables = site.manager.tables()
    assert len(tables) == 2
    status, kind, html = await get(site, f"/torneo/{tournament_id}")
    assert (status, kind) == (200, "text/html")
    assert '<html lang="es">' in html
    assert "<h1>Copa del viernes</h1>" in html
    assert '<p class="about">Eliminatoria · Uno contra uno</p>' in html
    assert '<p class="money">Cuota $10 · bolsa $40</p>' in html
    assert '<p class="state">En juego: ronda 1.</p>' in html
    assert f'<img id="picture" src="{tournament_id}.png?lang=es" alt="El cuadro">' in html
    assert sorted(watch_links(html)) == sorted(site.web.watch_url(t) for t in tables)
    labels = {t: site.manager.table_state(t).label for t in tables}  # type: ignore[union-attr]
    pairings = [
        f"Mesa {labels[p.table_id]} {' contra '.join((p.first[0], p.second[0]))} Mirar la mesa"
        for p in site.manager.tournament_here(GROUP).pairings  # type: ignore[union-attr]
    ]
    assert list_items(html, "tables") == pairings
    assert '<meta http-equiv="refresh" content="30">' in html  # it may change: it reloads
    # it only shows: no script, no form, no button
    assert "<script" not in html and "<form" not in html and "<button" not in html


async def test_a_tournaments_picture_is_a_png_drawn_once_for_the_same_facts(
    site: Site, monkeypatch: pytest.MonkeyPatch
) -> None:
    tournament_id = await started(site, ANA, BEA, CARLA, DANI)
    drawn: list[BracketFacts | TournamentStandingsFacts] = []

    def counting(facts: BracketFacts | TournamentStandingsFacts) -> bytes:
        drawn.append(facts)
        return tournament_png(facts)

    monkeypatch.setattr(bot.web.server, "tournament_png", counting)
    bodies = []
    for _ in range(2):
        async with site.session.get(f"{site.url}/torneo/{tournament_id}.png") as response:
            assert (response.status, response.content_type) == (200, "image/png")
            bodies.append(await response.read())
    view = site.manager.tournament_here(GROUP)
    assert view is not None
    facts = tournament_picture(view, "es")
    assert facts is not None
    assert bodies == [tournament_png(facts)] * 2 and bodies[0].startswith(PNG_SIGNATURE)
    assert drawn == [facts]  # the second page got the first drawing
    async with site.session.get(f"{site.url}/torneo/{tournament_id}.png?lang=en") as response:
        assert response.status == 200
    assert drawn == [facts, tournament_picture(view, "en")]


async def test_a_tournament_in_sign_up_shows_who_signed_and_no_picture_yet(site: Site) -> None:
    tournament_id = await signed_up(site, ANA, BEA)
    status, _, html = await get(site, f"/torneo/{tournament_id}")
    assert status == 200
    assert '<p class="state">Inscripción abierta: empieza en 10 minutos.</p>' in html
    assert '<h2>2 jugadores inscritos</h2>\n<p class="names">Ana, Bea</p>' in html
    assert "<img" not in html and 'id="tables"' not in html
    async with site.session.get(f"{site.url}/torneo/{tournament_id}.png") as response:
        assert response.status == 404


async def test_a_finished_tournaments_page_shows_its_places_and_prizes(site: Site) -> None:
    tournament_id = await finished(site)
    status, _, html = await get(site, f"/torneo/{tournament_id}")
    assert status == 200
    assert '<p class="state">El torneo terminó.</p>' in html
    assert "<h2>Puestos finales</h2>" in html
    assert list_items(html, "places") == ["1. Ana $14", "2. Bea $6"]
    assert 'id="tables"' not in html and watch_links(html) == []
    assert 'http-equiv="refresh"' not in html  # over: nothing will change
    status, _, english = await get(site, f"/torneo/{tournament_id}?lang=en")
    assert '<p class="state">The tournament is over.</p>' in english
    assert "<h2>Final places</h2>" in english
    assert list_items(english, "places") == ["1. Ana $14", "2. Bea $6"]
    async with site.session.get(f"{site.url}/torneo/{tournament_id}.png") as response:
        assert (response.status, response.content_type) == (200, "image/png")


async def test_a_cancelled_tournaments_page_says_so_and_changes_no_more(site: Site) -> None:
    tournament_id = await started(site, ANA, BEA)
    cancel = CancelTournament(ADMIN, GROUP, is_admin=True)
    assert (await site.manager.handle(cancel)).ok
    await site.manager.idle()
    status, _, html = await get(site, f"/torneo/{tournament_id}")
    assert status == 200
    assert '<p class="state">Cancelado: se devolvieron todas las cuotas.</p>' in html
    assert '<p class="money">Cuota $10 · bolsa $20</p>' in html
    assert 'id="tables"' not in html and watch_links(html) == []
    assert 'http-equiv="refresh"' not in html


async def test_an_unknown_tournament_is_a_404_page_in_spanish_and_in_english(
    site: Site, memory_storage: Storage
) -> None:
    for path in ("/torneo/nosuchid", "/torneo/NO-SUCH", "/torneo/x%27%3Cb%3E"):
        status, kind, html = await get(site, path)
        assert (status, kind) == (404, "text/html")
        assert '<html lang="es">' in html
        assert "<h1>Torneo no encontrado</h1>" in html
        assert "<p>Este torneo no existe o ya no se muestra.</p>" in html
    for path, language in (
        ("/torneo/nosuchid", "en-GB,en;q=0.9"),
        ("/torneo/nosuchid?lang=en", None),
    ):
        status, _, html = await get(site, path, language)
        assert status == 404 and '<html lang="en">' in html
        assert "<h1>Tournament not found</h1>" in html
        assert "<p>This tournament does not exist or is no longer shown.</p>" in html
    async with site.session.get(f"{site.url}/torneo/nosuchid.png") as response:
        assert response.status == 404
    # nothing was made by asking
    assert await memory_storage.get_tournament("nosuchid") is None
    assert await memory_storage.live_tournament_ids() == []
    assert site.manager.tables() == []


def test_the_readers_language_is_the_query_then_the_browsers_first_we_speak_else_spanish() -> None:
    assert reader_language("en", "es-ES") == "en"
    assert reader_language(None, "fr-FR, en-US;q=0.8, es;q=0.5") == "en"
    assert reader_language(None, "es;q=0.4, en;q=0.9") == "en"
    assert reader_language(None, "en;q=0, de") == "es"
    assert reader_language(None, "en;q=nonsense") == "es"
    assert reader_language(None, None) == "es"
    assert reader_language("xx", "en") == "es"  # a language asked for, and not spoken


DEALT = [
    ["6-6", "6-5", "5-5", "4-1", "3-0", "2-2", "1-0"],
    ["6-4", "6-3", "5-4", "5-3", "4-4", "2-1", "0-0"],
    ["6-2", "6-1", "5-2", "5-1", "4-3", "3-3", "1-1"],
    ["6-0", "5-0", "4-2", "4-0", "3-2", "3-1", "2-0"],
]
MOVES = ["6-6", "6-4", "6-2", "4-2 right", "2-2", "2-1", "5-1", "5-0", "1-0", "pass", "5-2",
         "3-1", "5-5", "6-3", "6-1", "pass", "4-1", "4-4", "4-3", "3-2", "6-5", "pass",
         "pass", "6-0", "3-0"]  # fmt: skip
"""records.md's example hand: Ana dominoes with 3-0, 23 points to her partnership."""


async def recorded(storage: Storage, *, target: int = 50) -> str:
    """A match of Ana, Bea and Carla with a robot at seat 3 as the bot records it."""
    ids = [await site_player(storage, p) for p in (ANA, BEA, CARLA)]
    record = {
        "rules": {"preset": "venezolano", "target": target},
        "hands": [{"deal": DEALT, "starter": 0, "moves": MOVES}],
        "seats": [*({"player": i, "moves": 6} for i in ids), {"robot": "aprendiz", "moves": 6}],
    }
    await storage.record_match("k3m9x2ab", "telegram:-100", record, [], now=50.0)
    return "k3m9x2ab"


async def site_player(storage: Storage, player: PlayerRef) -> int:
    stored = await storage.ensure_player(
        player.platform, player.user_id, player.display_name, now=1.0
    )
    return stored.id


def texts_of(html: str, tag: str) -> list[str]:
    return [
        " ".join(re.sub(r"<[^>]+>", " ", t).split())
        for t in re.findall(rf"<{tag}>(.*?)</{tag}>", html)
    ]


async def test_a_finished_matchs_record_page_shows_who_played_each_deal_and_every_move(
    site: Site, memory_storage: Storage
) -> None:
    match_id = await recorded(memory_storage)
    status, kind, html = await get(site, f"/partida/{match_id}")
    assert (status, kind) == (200, "text/html")
    assert f"<h1>Partida {match_id}</h1>" in html
    assert '<p class="about">Venezolano</p>' in html
    assert '<p class="money">Ana y Carla contra Bea y Robot Bit</p>' in html
    assert "<h2>Mano 1</h2>" in html
    assert '<p class="state">Dominó de Ana. Ana y Carla ganan 23 puntos.</p>' in html
    dealt, *moves = texts_of(html, "li")[:2], texts_of(html, "li")[4:]
    assert dealt == [
        "Ana: [1|0] [2|2] [3|0] [4|1] [5|5] [6|5] [6|6]",
        "Bea: [0|0] [2|1] [4|4] [5|3] [5|4] [6|3] [6|4]",
    ]
    (played,) = moves
    assert len(played) == len(MOVES)
    assert played[:4] == [
        "Ana: 6-6",
        "Bea: 6-4 por la derecha",
        "Carla: 6-2 por la izquierda",
        "Robot Bit: 4-2 por la derecha",
    ]
    assert played[9] == "Bea: paso" and played[-1] == "Ana: 3-0 por la izquierda"
    # the record's page only shows: no script, no form, nothing that plays
    assert "<script" not in html and "<form" not in html and "<button" not in html
    _, _, english = await get(site, f"/partida/{match_id}?lang=en")
    assert "<h1>Match k3m9x2ab</h1>" in english and "<h2>Hand 1</h2>" in english
    assert site.web.record_url(match_id) == f"{site.web.public_url}/partida/{match_id}"


async def test_an_unknown_or_unreadable_match_is_a_404_page(
    site: Site, memory_storage: Storage
) -> None:
    broken = await recorded(memory_storage, target=7)  # a target no rule book allows
    for path in ("/partida/nosuchid", "/partida/x%27%3Cb%3E", f"/partida/{broken}"):
        status, kind, html = await get(site, path)
        assert (status, kind) == (404, "text/html")
        assert "<h1>Partida no encontrada</h1>" in html
        assert "<p>Ninguna partida terminada tiene este código.</p>" in html
