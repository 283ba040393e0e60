"""The web table's server (bot/web/server.py) through real websockets on 127.0.0.1:
authentication, a whole match played from a page, privacy on the wire, bad frames,
floods and foreign origins."""

from __future__ import annotations

import asyncio
import contextlib
import json
import re
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from typing import Any

import aiohttp
import pytest
from conftest import RecordingPort
from web_support import sign_init_data

from bot.core import (
    ChatRef,
    FillWithRobots,
    HandEnded,
    MatchEnded,
    PlayerRef,
    PlayNow,
    TableManager,
)
from bot.core.clock import ManualClock
from bot.present.analysis import analysis_text
from bot.web.activity import DiscordActivity
from bot.web.auth import WebAuth, link_secret
from bot.web.server import BURST, WebTable
from storage.base import Storage

TOKEN = "123456:TEST-TOKEN"
GROUP = ChatRef("telegram", "-100", language="es")
ANA = PlayerRef("telegram", "42", "Ana")
BEA = PlayerRef("telegram", "43", "Bea")


@dataclass
class Page:
    """One page's websocket and every frame it received."""

    socket: aiohttp.ClientWebSocketResponse
    frames: list[dict[str, Any]] = field(default_factory=list)

    async def send(self, message: dict[str, Any]) -> None:
        await self.socket.send_str(json.dumps(message))

    async def drain(self, pause: float = 0.2) -> None:
        """Read every frame that arrives within ``pause`` seconds of the last one."""
        while True:
            try:
                message = await self.socket.receive(timeout=pause)
            except TimeoutError:
                return
            if message.type is not aiohttp.WSMsgType.TEXT:
                return
            self.frames.append(json.loads(message.data))

    async def next(self, timeout: float = 10.0) -> dict[str, Any]:
        """Wait for the next frame (a busy machine may take a while)."""
        message = await self.socket.receive(timeout=timeout)
        assert message.type is aiohttp.WSMsgType.TEXT, message
        frame: dict[str, Any] = json.loads(message.data)
        self.frames.append(frame)
        return frame

    def of(self, kind: str) -> list[dict[str, Any]]:
        return [f for f in self.frames if f.get("type") == kind]


@dataclass
class Site:
    manager: TableManager
    web: WebTable
    clock: ManualClock
    url: str
    session: aiohttp.ClientSession
    recorder: RecordingPort

    async def open(self, hello: dict[str, str] | None, *, origin: str | None = None) -> Page:
        socket = await self.session.ws_connect(
            self.url.replace("http", "ws") + "/ws", origin=origin or self.web.origin
        )
        page = Page(socket)
        if hello is not None:
            await page.send({"hello": hello})
            await page.next()
            await page.drain()
        return page


@pytest.fixture
async def site(recorder: RecordingPort, memory_storage: Storage) -> AsyncIterator[Site]:
    async with open_site(recorder, memory_storage) as opened:
        yield opened


@contextlib.asynccontextmanager
async def open_site(
    recorder: RecordingPort,
    storage: Storage,
    *,
    hand_pause: float = 0.0,
    activity: DiscordActivity | None = None,
) -> AsyncIterator[Site]:
    """A table manager on an injected clock (robots move at once) and its web table on a
    free port of 127.0.0.1; ``hand_pause``: seconds between a hand's end and the next;
    ``activity``: the page is also a Discord Activity."""
    clock = ManualClock(1_796_083_200.0)
    manager = TableManager(storage, clock=clock, seed=3, robot_delay=0.0, hand_pause=hand_pause,
                           robot_level="aprendiz")  # fmt: skip
    manager.register("*", recorder)
    auth = WebAuth(telegram_token=TOKEN, secret=link_secret(TOKEN), clock=clock.now)
    web = WebTable(
        manager, auth, public_url="http://127.0.0.1:1", clock=clock.now, activity=activity
    )
    port = await web.start("127.0.0.1", 0)
    web.public_url = url = f"http://127.0.0.1:{port}"
    web.origin = url
    async with aiohttp.ClientSession() as session:
        yield Site(manager, web, clock, url, session, recorder)
    await web.stop()
    await manager.stop()


async def started_table(site: Site, *players: PlayerRef) -> str:
    """A table in the group with ``players`` seated and robots in the other seats, started."""
    reply = await site.manager.handle(PlayNow(players[0], GROUP))
    for player in players[1:]:
        assert (await site.manager.handle(PlayNow(player, GROUP))).ok
    assert (await site.manager.handle(FillWithRobots(players[0], GROUP))).ok
    await site.clock.advance(site.manager.times.countdown_seconds)
    assert reply.table_id is not None
    return reply.table_id


async def test_the_page_is_served_with_its_script_and_styles(site: Site) -> None:
    async with site.session.get(site.url + "/") as response:
        assert response.status == 200
        assert "static/app.js" in await response.text()
    for name, kind in (("app.js", "text/javascript"), ("style.css", "text/css")):
        async with site.session.get(f"{site.url}/static/{name}") as response:
            assert response.status == 200 and response.content_type == kind
    async with site.session.get(site.url + "/static/../server.py") as response:
        assert response.status == 404


async def test_a_mini_app_user_gets_the_table_and_their_own_tiles(site: Site) -> None:
    table_id = await started_table(site, ANA)
    data = sign_init_data(TOKEN, user_id=42, first_name="Ana", auth_date=site.clock.now())
    page = await site.open({"init_data": data})
    welcome, table, hand = page.frames[:3]
    assert welcome["type"] == "welcome" and welcome["you"] == {
        "name": "Ana",
        "seated": True,
        "seat": 0,
    }
    assert welcome["texts"]["your_turn"] == "Te toca"
    assert (table["type"], table["table"], table["phase"]) == ("table", table_id, "playing")
    assert table["seats"][0]["name"] == "Ana"
    state = site.manager.match_of(table_id)
    assert state is not None
    assert hand["type"] == "hand" and hand["seat"] == 0
    assert hand["tiles"] == [str(t) for t in state.hand.tiles(0)]


async def test_forged_or_expired_init_data_is_refused_and_shows_nothing(site: Site) -> None:
    await started_table(site, ANA)
    forged = sign_init_data("999:OTHER", user_id=42, first_name="Ana", auth_date=site.clock.now())
    old = sign_init_data(TOKEN, user_id=42, first_name="Ana", auth_date=site.clock.now() - 90000)
    for hello, reason in (({"init_data": forged}, "forged"), ({"init_data": old}, "expired")):
        page = await site.open(hello)
        [denied] = page.frames
        assert (denied["type"], denied["reason"]) == ("denied", reason)
        assert (
            denied["text"]
            == {
                "forged": "Este enlace no es válido.",
                "expired": "Este enlace caducó; pide uno nuevo al bot.",
            }[reason]
        )
        await page.send({"press": "anything"})
        assert await page.next() == {"type": "error", "error": "hello first"}


async def play_to_the_end(
    site: Site, table_id: str, players: tuple[Page, ...], others: tuple[Page, ...] = ()
) -> None:
    """Each player's page presses its first legal move on its turns until the match ends."""
    pages = players + others
    for _ in range(2000):
        if site.recorder.of(MatchEnded, table_id=table_id):
            break
        await asyncio.gather(*(page.drain(0.01) for page in pages))
        for page in players:
            hands = page.of("hand")
            if hands and hands[-1]["your_turn"] and hands[-1]["moves"]:
                hands[-1]["your_turn"] = False  # pressed once
                await page.send({"press": hands[-1]["moves"][0]["payload"]})
        await site.clock.advance(1.0)
    await asyncio.gather(*(page.drain(0.1) for page in pages))
    assert site.recorder.of(MatchEnded, table_id=table_id)


async def test_a_whole_match_played_from_a_page_never_shows_a_hidden_tile_to_others(
    site: Site,
) -> None:
    table_id = await started_table(site, ANA, BEA)
    ana = await site.open({"seat": site.web.auth.seat_link(ANA, table_id)})
    watcher = await site.open({"watch": site.web.auth.watch_link(table_id)})
    bea = await site.open({"seat": site.web.auth.seat_link(BEA, table_id)})
    await play_to_the_end(site, table_id, (ana, bea), (watcher,))
    [ended] = site.recorder.of(MatchEnded, table_id=table_id)
    # every hand's end and the match's end reach the pages, and the last table they see is
    # the final position: ended, nobody's turn, the final score (the winning tile on it)
    hands = len(ended.record["hands"])
    for page in (ana, watcher, bea):
        results = page.of("result")
        assert [(r["kind"], r["hand"]) for r in results] == [
            *(("hand", n) for n in range(1, hands + 1)),
            ("match", hands),
        ]
        final = page.of("table")[-1]
        assert (final["phase"], final["turn"], final["deadline"]) == ("ended", None, None)
        assert final["score"] == list(ended.score)
        assert final["outcome"] is not None
        assert f"{ended.score[0]} – {ended.score[1]}" in results[-1]["text"]
        assert results[-1]["winner_team"] == ended.winner_team
        assert len(final["line"]["tiles"]) == len(ended.view.line)
    # privacy: a spectator never receives a hand; each player only their own seat's
    assert {f["type"] for f in watcher.frames} <= {"welcome", "table", "result", "notice", "emote"}
    assert {f["seat"] for f in ana.of("hand")} == {0}
    assert {f["seat"] for f in bea.of("hand")} == {1}  # the next free seat
    assert site.manager.table_state(table_id) is None  # the table closed after its match
    for frame in watcher.frames + ana.frames + bea.frames:
        if frame["type"] == "table":
            assert all(isinstance(s["tiles"], int) for s in frame["seats"])
    # every tile a page was sent is one its own seat was dealt in that hand
    deals = site.recorder.of(MatchEnded, table_id=table_id)[0].record["hands"]
    for page, seat in ((ana, 0), (bea, 1)):
        for frame in page.of("hand"):
            assert set(frame["tiles"]) <= set(deals[frame["hand"] - 1]["deal"][seat])
    # no list of tiles, as a hand would be, but the hands turned up once each hand ended
    assert tile_lists(unrevealed(watcher.frames)) == []
    revealed = [[[str(t) for t in tiles] for tiles in e.hands]
                for e in site.recorder.of(HandEnded, table_id=table_id)]  # fmt: skip
    shown = [[seat["tiles"] for seat in r["hands"]] for r in watcher.of("result") if "hands" in r]
    assert shown == revealed and len(shown) == len(deals)


def unrevealed(frames: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The frames without the hands a hand's end turns up (public once it ended)."""
    return [{k: v for k, v in f.items() if k != "hands"} for f in frames]


def tile_lists(value: object) -> list[list[str]]:
    """Every list of tile names (``"6-4"``) anywhere inside ``value``."""
    if isinstance(value, dict):
        return [found for v in value.values() for found in tile_lists(v)]
    if isinstance(value, list):
        if value and all(isinstance(v, str) and re.fullmatch(r"[0-6]-[0-6]", v) for v in value):
            return [value]
        return [found for v in value for found in tile_lists(v)]
    return []


async def test_a_press_from_a_spectator_or_a_stale_press_changes_nothing(site: Site) -> None:
    table_id = await started_table(site, ANA)
    watcher = await site.open({"watch": site.web.auth.watch_link(table_id)})
    await watcher.send({"press": "m|x"})
    assert await watcher.next() == {"type": "error", "error": "spectator"}
    ana = await site.open({"seat": site.web.auth.seat_link(ANA, table_id)})
    before = site.manager.match_of(table_id)
    await ana.send({"press": "forged-payload"})
    answer = await ana.next()
    assert answer["type"] == "refused" and answer["text"]
    assert site.manager.match_of(table_id) == before
    for bad in (
        "not json",
        json.dumps([1]),
        json.dumps({"press": 5}),
        json.dumps({"a": 1, "b": 2}),
    ):
        await ana.socket.send_str(bad)
        assert await ana.next() == {"type": "error", "error": "malformed"}
    assert site.manager.match_of(table_id) == before


async def test_a_move_pressed_twice_is_played_once_and_the_second_is_refused_in_page_words(
    site: Site,
) -> None:
    table_id = await started_table(site, ANA)
    ana = await site.open({"seat": site.web.auth.seat_link(ANA, table_id)})
    for _ in range(50):
        if ana.of("hand")[-1]["your_turn"]:
            break
        await site.clock.advance(1.0)
        await ana.drain(0.05)
    turn = ana.of("hand")[-1]
    assert turn["your_turn"] is True
    before = site.manager.table_state(table_id)
    assert before is not None
    payload = turn["moves"][0]["payload"]
    await ana.send({"press": payload})
    await ana.send({"press": payload})
    await ana.drain()
    assert ana.of("refused") == [{"type": "refused", "text": "Esa jugada ya se hizo o ya no vale."}]
    after = site.manager.table_state(table_id)
    assert after is not None and after.view is not None and before.view is not None
    assert len(after.view.history) > len(before.view.history)  # the first press played
    assert [s for s, _ in after.view.history].count(0) == [s for s, _ in before.view.history].count(
        0
    ) + 1


async def test_play_again_from_the_page_opens_the_rematch_and_the_page_follows_it(
    site: Site,
) -> None:
    table_id = await started_table(site, ANA)
    ana = await site.open({"seat": site.web.auth.seat_link(ANA, table_id)})
    await play_to_the_end(site, table_id, (ana,))
    assert ana.of("table")[-1]["phase"] == "ended"
    await ana.send({"again": True})
    await ana.drain()
    [moved] = ana.of("moved")
    new_id = moved["table"]
    assert new_id != table_id
    assert moved["you"] == {"name": "Ana", "seated": True, "seat": 0}
    table = ana.of("table")[-1]
    assert (table["table"], table["phase"]) == (new_id, "countdown")  # robots sit again
    assert table["seats"][0]["name"] == "Ana"
    state = site.manager.table_state(new_id)
    assert state is not None and state.seats[0].player == ANA
    # pressed again, it asks for a rematch of the new table, which has not ended
    await ana.send({"again": True})
    await ana.drain()
    assert ana.of("refused")[-1]["text"] == "Esa partida aún no terminó."
    assert len(ana.of("moved")) == 1


async def test_after_a_hand_a_seated_page_asks_what_it_should_have_played(site: Site) -> None:
    table_id = await started_table(site, ANA)
    ana = await site.open({"seat": site.web.auth.seat_link(ANA, table_id)})
    await ana.send({"analysis": True})  # no hand of hers has ended yet
    await ana.drain()
    assert ana.of("refused")[-1]["text"] == (
        "Aún no ha terminado ninguna mano tuya: pídelo de nuevo al acabar esta."
    )
    for _ in range(300):
        if ana.of("result"):
            break
        hands = ana.of("hand")
        if hands and hands[-1]["your_turn"] and hands[-1]["moves"]:
            hands[-1]["your_turn"] = False
            await ana.send({"press": hands[-1]["moves"][0]["payload"]})
        await site.clock.advance(1.0)
        await ana.drain(0.01)
    assert ana.of("result")[0]["kind"] == "hand"
    await ana.send({"analysis": True})
    assert (await ana.next())["type"] == "analysing"
    while not ana.of("analysis"):
        await ana.next(timeout=60)
    [analysis] = ana.of("analysis")
    found = await site.manager.analyze(ANA, None, table_id)
    assert analysis["text"] == analysis_text(found, "es")
    assert analysis["text"].startswith("Mano 1")


async def test_a_page_from_another_origin_cannot_connect(site: Site) -> None:
    with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
        await site.open(None, origin="https://evil.example")
    assert refused.value.status == 403


async def test_a_flooding_page_is_cut_off_and_the_table_goes_on(site: Site) -> None:
    table_id = await started_table(site, ANA)
    ana = await site.open({"seat": site.web.auth.seat_link(ANA, table_id)})
    for _ in range(3 * BURST + 5):
        await ana.send({"emote": "bien"})
    await ana.drain(0.2)
    closed = await ana.socket.receive(timeout=1)
    assert closed.type in (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSED)
    assert ana.socket.close_code == 1008
    assert site.manager.table_state(table_id) is not None
    again = await site.open({"seat": site.web.auth.seat_link(ANA, table_id)})
    assert again.of("table")[0]["table"] == table_id


async def test_frames_past_the_rate_are_answered_once_and_the_page_may_send_again_later(
    site: Site,
) -> None:
    table_id = await started_table(site, ANA)
    ana = await site.open({"seat": site.web.auth.seat_link(ANA, table_id)})
    ana.frames.clear()
    for _ in range(BURST + 2):  # the hello took one token: the last three are over
        await ana.send({"press": "forged-payload"})
    await ana.drain()
    texts = [f["text"] for f in ana.of("refused")]
    too_fast = "Demasiado rápido: espera un momento y vuelve a intentarlo."
    assert texts.count(too_fast) == 1 and len(texts) == BURST
    await site.clock.advance(1.0)  # five more a second
    await ana.send({"press": "forged-payload"})
    await ana.drain()
    assert ana.of("refused")[-1]["text"] != too_fast
    assert len(ana.of("refused")) == BURST + 1


async def test_a_reconnecting_page_gets_the_table_as_it_is_now(site: Site) -> None:
    table_id = await started_table(site, ANA)
    link = site.web.auth.seat_link(ANA, table_id)
    first = await site.open({"seat": link})
    await first.socket.close()
    await site.clock.advance(60.0)  # Ana's turn ran out meanwhile, or robots moved
    again = await site.open({"seat": link})
    table = again.of("table")[-1]
    state = site.manager.table_state(table_id)
    assert state is not None and table["move"] == state.move_number
    assert again.of("hand")[-1]["move"] == state.move_number


async def test_a_mini_app_opened_from_a_private_chat_finds_the_table_its_address_names(
    site: Site,
) -> None:
    table_id = await started_table(site, ANA)
    data = sign_init_data(TOKEN, user_id=42, first_name="Ana", auth_date=site.clock.now())
    page = await site.open({"init_data": data, "table": table_id})
    assert page.of("table")[0]["table"] == table_id
    assert page.of("hand")[0]["seat"] == 0
    other = await site.open({"seat": "x", "table": table_id})
    assert other.frames[0]["type"] == "denied" and other.frames[0]["reason"] == "malformed"


async def test_leaving_from_the_page_says_the_stake_is_forfeited_and_the_partner_is_told(
    site: Site,
) -> None:
    """Issue 27, items 2 and 10: the web table's leave abandons the started match like any
    front end's, and says so with the same sentences."""
    table_id = await started_table(site, ANA, BEA)
    ana = await site.open(
        {
            "init_data": sign_init_data(
                TOKEN, user_id=42, first_name="Ana", auth_date=site.clock.now()
            )
        }
    )
    bea = await site.open(
        {
            "init_data": sign_init_data(
                TOKEN, user_id=43, first_name="Bea", auth_date=site.clock.now()
            )
        }
    )
    await ana.send({"leave": True})
    await ana.drain()
    await bea.drain()
    assert {
        "type": "notice",
        "text": (
            "Te levantaste de la mesa 1: pierdes tu apuesta ($10) y un robot juega tu asiento "
            "hasta el final."
        ),
    } in ana.of("notice")
    assert {
        "type": "notice",
        "text": (
            "Ana dejó la partida: pierde su apuesta ($10) y un robot juega su asiento hasta el final."
        ),
    } in bea.of("notice")
    assert [f["text"] for f in ana.of("notice")] == [
        "Te levantaste de la mesa 1: pierdes tu apuesta ($10) y un robot juega tu asiento "
        "hasta el final."
    ]  # not also the sentence told to the others
    assert await site.manager.balance(ANA) == 990
    assert table_id in site.manager.tables()
