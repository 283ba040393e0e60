"""The web table in a real browser (issue 16): headless Chromium driven by Playwright
against ``domino run`` with the fake Telegram (tests/fake_telegram.py).

Ana opens the Mini App (initData signed with the fake's token, as Telegram would), plays
by tapping her tiles, and both her page and the group's board in the fake follow; forged
and expired initData are refused; a spectator's page receives no hidden tile.

Needs Debian's ``chromium`` (``.ci/run`` installs it and sets DOMINO_REQUIRE_BROWSER=1,
which turns a missing browser into a failure instead of a skip).
"""

from __future__ import annotations

import asyncio
import io
import json
import os
import re
import shutil
import socket
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest
from conftest import RecordingPort, wait_until
from test_web_server import (
    ANA,
    BEA,
    TOKEN,
    Site,
    open_site,
    started_table,
    tile_lists,
    unrevealed,
)
from web_support import sign_init_data

from bot.commands.play import LOCAL_HOST, LocalWeb
from bot.core import (
    ChatRef,
    CreateTournament,
    FillWithRobots,
    JoinTournament,
    MatchEnded,
    OpenTable,
    PlayerRef,
    PlayNow,
    RobotSeat,
    StartTournament,
    TournamentKind,
)
from bot.terminal import play
from bot.web.activity import DiscordActivity
from bot.web.auth import WebAuth, link_secret
from storage.base import Storage
from tests.fake_discord import FakeDiscord, FakeUser
from tests.fake_telegram import FakeTelegram
from tests.test_app import (
    GROUP,
    TELEGRAM_TOKEN,
    bot_env,
    open_telegram_table,
    running,
    telegram_env,
)

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
ARGS = [
    "--headless=new",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
SHOTS = Path(os.environ.get("DOMINO_SCREENSHOTS", "/tmp/domino-web-shots"))

playwright_api = pytest.importorskip("playwright.async_api")
if not Path(CHROMIUM).exists():
    if os.environ.get("DOMINO_REQUIRE_BROWSER"):
        raise RuntimeError(f"no Chromium at {CHROMIUM}: .ci/run installs Debian's chromium")
    pytest.skip("no Chromium here (apt-get install chromium)", allow_module_level=True)


@pytest.fixture
async def telegram() -> AsyncIterator[FakeTelegram]:
    fake = FakeTelegram(token=TELEGRAM_TOKEN)
    await fake.start()
    yield fake
    await fake.stop()


@pytest.fixture
async def browser() -> AsyncIterator[Any]:
    async with playwright_api.async_playwright() as p:
        chromium = await p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield chromium
        await chromium.close()


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Frames:
    """Every websocket frame a page received, decoded, and every frame it sent."""

    def __init__(self, page: Any) -> None:
        self.frames: list[dict[str, Any]] = []
        self.sent: list[dict[str, Any]] = []
        page.on("websocket", self._socket)

    def _socket(self, ws: Any) -> None:
        ws.on("framereceived", lambda payload: self.frames.append(json.loads(payload)))
        ws.on("framesent", lambda payload: self.sent.append(json.loads(payload)))

    def sent_presses(self) -> list[str]:
        return [f["press"] for f in self.sent if "press" in f]

    def of(self, kind: str) -> list[dict[str, Any]]:
        return [f for f in self.frames if f.get("type") == kind]


def board_updates(fake: FakeTelegram) -> int:
    """How many times the group's board picture was sent or redrawn."""
    return sum(
        len(fake.calls_to(method, chat_id=GROUP)) for method in ("sendPhoto", "editMessageMedia")
    )


def buttons_in(fake: FakeTelegram, chat_id: int) -> list[dict[str, Any]]:
    """Every button of the latest keyboard of each message in a chat."""
    found = []
    for message in fake.messages_in(chat_id):
        rows = (message.get("reply_markup") or {}).get("inline_keyboard") or []
        found += [button for row in rows for button in row]
    return found


def button_of(fake: FakeTelegram, chat_id: int, kind: str) -> dict[str, Any] | None:
    """The last button of ``kind`` (``"web_app"``, ``"url"``) in a chat, or None."""
    found = [b for b in buttons_in(fake, chat_id) if kind in b]
    return found[-1] if found else None


MY_TURN = "#tiles .tile.playable, #ends button"
"""What a turn shows: a playable tile, or the pass button when no tile fits."""


async def tap_my_turn(page: Any) -> None:
    """Tap the first playable tile, and the first end when it fits both (the page then
    asks which end: its note shows); with no tile that fits, the pass (or draw) button
    (the deal is the bot's own, so either can come). One tap is one move: an end button
    is pressed only when the page asks for it, never a pass button of the next turn that
    the robots' quick replies may already have brought."""
    playable = page.locator("#tiles .tile.playable")
    if await playable.count():
        await playable.first.click()
        if await page.locator("#ends p").count():
            await page.locator("#ends button").first.click()
        return
    await page.locator("#ends button").first.click()


async def test_a_player_plays_from_the_mini_app_and_the_group_board_follows(
    tmp_path: Path, telegram: FakeTelegram, browser: Any
) -> None:
    ana = telegram.add_user(1001, "Ana")
    telegram.add_group(GROUP, "Dominó", admins={1001})
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    env = bot_env(
        tmp_path,
        **telegram_env(telegram),
        DOMINO_WEB_URL=url,
        DOMINO_WEB_HOST="127.0.0.1",
        DOMINO_WEB_PORT=str(port),
        TELEGRAM_WEBAPP="mesa",
    )
    SHOTS.mkdir(parents=True, exist_ok=True)
    async with running(env, tmp_path) as bot:
        await bot.wait_for_line("web table at")
        await open_telegram_table(telegram, ana)
        init_data = sign_init_data(TELEGRAM_TOKEN, user_id=1001, first_name="Ana",
                                   auth_date=time.time())  # fmt: skip
        # Ana's private hand message carries the Mini App button (Telegram opens its page
        # with the signed initData in the fragment)
        web_app = await wait_until(lambda: button_of(telegram, ana.id, "web_app"), timeout=60)
        assert web_app["web_app"]["url"].startswith(f"{url}/?t=")
        phone = await browser.new_page(viewport={"width": 390, "height": 844})
        frames = Frames(phone)
        await phone.goto(f"{web_app['web_app']['url']}#tgWebAppData={quote(init_data)}")
        await phone.wait_for_selector("#board rect")
        await wait_until(lambda: any(f.get("phase") == "playing" for f in frames.of("table")),
                         timeout=60)  # fmt: skip
        table_id = frames.of("table")[-1]["table"]
        taps = 0
        while taps < 3:
            await phone.wait_for_selector(MY_TURN, timeout=60000)
            before_board, before_move = board_updates(telegram), frames.of("table")[-1]["move"]
            await tap_my_turn(phone)
            taps += 1
            await wait_until(lambda b=before_move: frames.of("table")[-1]["move"] > b, timeout=30)
            await wait_until(lambda b=before_board: board_updates(telegram) > b, timeout=30)
        await phone.screenshot(path=str(SHOTS / "mini-app-390x844.png"), full_page=True)
        assert await phone.locator("#hand").is_visible()
        assert "Ana" in (await phone.locator("#board").inner_html())

        desktop = await browser.new_page(viewport={"width": 1280, "height": 800})
        await desktop.goto(f"{url}/#tgWebAppData={quote(init_data)}")
        await desktop.wait_for_selector("#tiles .tile")
        await desktop.screenshot(path=str(SHOTS / "mini-app-1280x800.png"))

        # the group board links to the Mini App at this table, and to the spectator page
        board_links = [b["url"] for b in buttons_in(telegram, GROUP) if "url" in b]
        assert f"https://t.me/domino_test_bot/mesa?startapp={table_id}" in board_links
        [watch_link] = [link for link in board_links if link.startswith(f"{url}/?w=")]
        auth = WebAuth(telegram_token=None, secret=link_secret(TELEGRAM_TOKEN), clock=time.time)
        assert auth.watch(watch_link.split("?w=", 1)[1]).table_id == table_id
        # a spectator: the public table only, no hidden tile on the wire
        watcher = await browser.new_page(viewport={"width": 390, "height": 844})
        watched = Frames(watcher)
        await watcher.goto(watch_link)
        await watcher.wait_for_selector("#board rect")
        await asyncio.sleep(1.0)
        assert await watcher.locator("#hand").is_hidden()
        assert watched.of("table") and not watched.of("hand")
        assert tile_lists(watched.frames) == []
        await watcher.screenshot(path=str(SHOTS / "spectator-390x844.png"))

        # forged and expired initData are refused with a sentence, and show no table
        for token, age, sentence in (
            ("999:OTHER-TOKEN", 0.0, "Este enlace no es válido."),
            (TELEGRAM_TOKEN, 2 * 24 * 3600.0, "Este enlace caducó; pide uno nuevo al bot."),
        ):
            bad = sign_init_data(token, user_id=1001, first_name="Ana", auth_date=time.time() - age)
            page = await browser.new_page(viewport={"width": 390, "height": 844})
            refused = Frames(page)
            await page.goto(f"{url}/#tgWebAppData={quote(bad)}")
            await wait_until(lambda r=refused: r.of("denied"), timeout=20)
            await wait_until(lambda p=page: True, timeout=1)
            assert (await page.locator("#status").inner_text()).strip() == sentence
            assert not refused.of("table") and not refused.of("hand")
        assert "tgWebAppData" not in bot.log and init_data[:40] not in bot.log


@pytest.mark.parametrize("inside", ["telegram", "discord"])
async def test_a_whole_match_is_played_on_a_phone_page_to_its_end_and_its_result_stays(
    recorder: RecordingPort, memory_storage: Storage, browser: Any, fake: FakeDiscord, inside: str
) -> None:
    """Issue 31: as a Telegram Mini App (signed initData) and as a Discord Activity (the
    SDK's login in a stand-in for Discord's frame), the page shows every hand's end until
    the next hand, the match's end with the final position, score and money, and offers
    a rematch; a double tap sends one move; a spectator sees the same end; screenshots."""
    activity = DiscordActivity(
        str(fake.application_id), fake.client_secret, api_base=fake.api_base_url,
        clock=lambda: 1_796_083_200.0,
    )  # fmt: skip
    async with open_site(recorder, memory_storage, hand_pause=3.0, activity=activity) as site:
        screen = await browser.new_page(viewport={"width": 360, "height": 640})
        frames = Frames(screen)
        if inside == "telegram":
            table_id = await started_table(site, ANA)
            data = sign_init_data(TOKEN, user_id=42, first_name="Ana", auth_date=site.clock.now())
            # Telegram's light theme, as it passes it to a Mini App
            theme = json.dumps({"bg_color": "#ffffff", "secondary_bg_color": "#efeff4",
                                "text_color": "#000000", "hint_color": "#707579",
                                "accent_text_color": "#168acd"})  # fmt: skip
            await screen.goto(
                f"{site.url}/?t={table_id}#tgWebAppData={quote(data)}"
                f"&tgWebAppThemeParams={quote(theme)}"
            )
            phone: Any = screen
            background = "getComputedStyle(document.body).backgroundColor"
            assert await screen.evaluate(background) == "rgb(255, 255, 255)"
            turn = "getComputedStyle(document.getElementById('turn')).color"
            assert await screen.evaluate(turn) == "rgb(22, 138, 205)"  # the theme's accent
        else:
            ana = fake.add_user("Ana")
            player = PlayerRef("discord", str(ana.id), "Ana")
            table_id = await started_table_in(site, player, ChatRef("discord", "900", "901"))
            await screen.set_content(discord_frame(site, fake, ana, "900", "901"))
            handle = await screen.wait_for_selector("#activity")
            phone = await handle.content_frame()
        await play_a_whole_match_on_a_phone(site, browser, table_id, screen, phone, frames, inside)


# what the page shows at one moment: the hand's result on screen, and how many tiles it
# offers to play
SEEN = """() => [!document.getElementById("result").hidden,
                 document.querySelectorAll("#tiles .tile.playable").length]"""


async def started_table_in(site: Site, player: PlayerRef, chat: ChatRef) -> str:
    """A table in ``chat`` with ``player`` seated and robots in the other seats, started."""
    reply = await site.manager.handle(PlayNow(player, chat))
    assert (await site.manager.handle(FillWithRobots(player, chat))).ok
    await site.clock.advance(site.manager.times.countdown_seconds)
    assert reply.table_id is not None
    return reply.table_id


def discord_frame(site: Site, fake: FakeDiscord, user: FakeUser, guild: str, channel: str) -> str:
    """The stand-in for Discord's client around the Activity, for ``user`` in ``channel``."""
    query = f"frame_id=f1&instance_id=i-42&platform=mobile&guild_id={guild}&channel_id={channel}"
    profile = {"id": str(user.id), "username": "ana", "discriminator": "0",
               "global_name": user.name, "avatar": None, "public_flags": 0}  # fmt: skip
    return DISCORD_FRAME % {"src": f"{site.url}/?{query}", "user": json.dumps(profile),
                            "code": fake.authorize(user), "client": fake.application_id}  # fmt: skip


async def play_a_whole_match_on_a_phone(
    site: Site, browser: Any, table_id: str, screen: Any, phone: Any, frames: Frames, inside: str
) -> None:
    """Plays Ana's seat from ``phone`` (the page, or the Activity's frame on ``screen``)."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    watcher = await browser.new_page(viewport={"width": 390, "height": 844})
    watched = Frames(watcher)
    await watcher.goto(f"{site.url}/?w={site.web.auth.watch_link(table_id)}")
    await phone.wait_for_selector("#board rect")
    shot_mid = shot_hand = False
    seen: list[tuple[bool, int]] = []
    for _ in range(3000):
        if site.recorder.of(MatchEnded, table_id=table_id):
            break
        tiles = phone.locator("#tiles .tile.playable")
        if await tiles.count():
            if not shot_mid:
                await screen.screenshot(path=str(SHOTS / f"{inside}-mid-hand-360x640.png"))
                shot_mid = True
            sent = len(frames.sent)
            await tiles.first.dblclick()  # a double tap: one move
            await asyncio.sleep(0.05)
            assert len(frames.sent) - sent <= 1
        ends = phone.locator("#ends button")
        if await ends.count() and await ends.first.is_visible():
            await ends.first.click()
        result_shown, playable = await phone.evaluate(SEEN)
        seen.append((result_shown, playable))
        if result_shown and not shot_hand:
            # "¿Qué debí jugar?" on the page: the maestro's analysis of Ana's hand
            await phone.locator("#analyse").click()
            await phone.wait_for_function(
                "document.getElementById('analysis').textContent.startsWith('Mano ')"
            )
            await screen.screenshot(path=str(SHOTS / f"{inside}-hand-end-360x640.png"))
            shot_hand = True
        await site.clock.advance(1.0)
        await asyncio.sleep(0.01)
    [ended] = site.recorder.of(MatchEnded, table_id=table_id)
    # while a hand's end is shown, nothing is offered to play (not even the tile Ana held
    # before her domino); it was shown at every hand's end
    assert [playable for shown, playable in seen if shown] == [0] * sum(s for s, _ in seen)
    assert sum(shown for shown, _ in seen) >= len(ended.record["hands"]) - 1
    await phone.wait_for_selector("#match-result:not([hidden])")
    await phone.wait_for_selector("#again:not([hidden])")
    await screen.screenshot(path=str(SHOTS / f"{inside}-match-end-360x640.png"))
    score = f"{ended.score[0]} – {ended.score[1]}"
    assert score in await phone.locator("#match-result").inner_text()
    points = [await phone.locator(f"#team{team} .points").inner_text() for team in (0, 1)]
    assert points == [str(ended.score[0]), str(ended.score[1])]
    winner = phone.locator(f"#team{ended.winner_team}")
    assert "winner" in (await winner.get_attribute("class") or "")
    assert (await phone.locator("#score").inner_text()).strip() == "a 100"
    assert (await phone.locator("#turn").inner_text()).strip() == "Partida terminada"
    assert await phone.locator("#hand-result").inner_text()  # the last hand's end stays
    assert await phone.locator("#leave").is_hidden()
    assert await phone.locator("#tiles .tile.playable").count() == 0
    assert len(frames.sent_presses()) == len(set(frames.sent_presses()))  # none sent twice
    assert all(f["type"] != "refused" for f in frames.frames)
    await watcher.wait_for_selector("#match-result:not([hidden])")
    await watcher.screenshot(path=str(SHOTS / f"{inside}-spectator-end-390x844.png"))
    assert score in await watcher.locator("#match-result").inner_text()
    assert tile_lists(unrevealed(watched.frames)) == []  # only hands turned up at their end
    left = watcher.locator("#hands-left .left")
    assert await left.count() == 4  # the last hand's, every seat's tiles turned up
    # the rematch button opens the same seats at a new table, and the page follows it
    await phone.locator("#again").click()
    await wait_until(lambda: frames.of("moved"), timeout=10)
    new_id = frames.of("moved")[0]["table"]
    await wait_until(lambda: frames.of("table")[-1]["table"] == new_id, timeout=10)
    assert await phone.locator("#result").is_hidden()
    assert site.manager.table_state(new_id) is not None
    # an error page: a forged link, in words
    error = await browser.new_page(viewport={"width": 360, "height": 640})
    await error.goto(f"{site.url}/?s=forged")
    await error.wait_for_function("document.getElementById('status').textContent.length > 0")
    assert (await error.locator("#status").inner_text()).strip() == "Este enlace no es válido."
    await error.screenshot(path=str(SHOTS / "error-360x640.png"))
    # the server goes away: the phone says so at the top of its screen, scrolled or not
    await screen.mouse.wheel(0, 2000)
    await site.web.stop()
    await phone.wait_for_selector("#status.offline")
    box = await phone.locator("#status").bounding_box()
    assert box is not None and box["y"] >= 0 and box["y"] + box["height"] <= 640
    assert (
        await phone.locator("#status").inner_text()
    ).strip() == "Se perdió la conexión; reconectando…"
    await screen.screenshot(path=str(SHOTS / f"{inside}-offline-360x640.png"))


async def test_a_player_who_left_is_offered_no_move_and_one_whose_time_ran_out_the_way_back(
    recorder: RecordingPort, memory_storage: Storage, browser: Any
) -> None:
    # robots move at once: with Ana gone and Bea away a whole hand is played in one step
    # of the clock, so the pause between hands is long enough to look at Bea's page
    async with open_site(recorder, memory_storage, hand_pause=120.0) as site:
        table_id = await started_table(site, ANA, BEA)
        pages = {}
        for player in (ANA, BEA):
            page = await browser.new_page(viewport={"width": 360, "height": 640})
            await page.goto(f"{site.url}/?s={site.web.auth.seat_link(player, table_id)}")
            await page.wait_for_selector("#board rect")
            pages[player.display_name] = page
        ana, bea = pages["Ana"], pages["Bea"]
        for _ in range(60):
            if await ana.locator("#tiles .tile.playable, #ends button").count():
                break
            await site.clock.advance(1.0)
            await asyncio.sleep(0.02)
        assert (await ana.locator("#turn").inner_text()).startswith("Te toca")
        # Ana leaves on her turn: a robot plays her seat to the end; no way back
        await ana.locator("#leave").click()
        await ana.wait_for_function(
            "document.getElementById('hand-title').textContent.startsWith('Te levantaste')"
        )
        assert await ana.locator("#tiles .tile.playable").count() == 0
        assert await ana.locator("#ends button").count() == 0
        assert not (await ana.locator("#turn").inner_text()).startswith("Te toca")
        assert await ana.locator("#back").is_hidden()
        assert await ana.locator("#leave").is_hidden()
        await ana.screenshot(path=str(SHOTS / "left-360x640.png"))
        # Bea lets her turns run out: a robot plays for her until she takes her seat back
        for _ in range(600):
            if await bea.locator("#back").is_visible():
                break
            await site.clock.advance(1.0)
            await asyncio.sleep(0.02)
        assert (await bea.locator("#back").inner_text()).strip() == "Volver a mi puesto"
        title = (await bea.locator("#hand-title").inner_text()).strip()
        assert title == "Un robot juega por ti hasta que vuelvas."
        assert await bea.locator("#tiles .tile.playable").count() == 0
        await bea.locator("#back").click()
        await bea.wait_for_selector("#back", state="hidden")
        assert await bea.locator("#leave").is_visible()


async def test_domino_play_web_opens_the_terminals_match_in_the_browser_and_both_stay_in_step(
    memory_storage: Storage, browser: Any
) -> None:
    """Issue 31: ``domino play --web``: the terminal's match on a page served on
    127.0.0.1 with a link signed for this run, played from the page to the end; the
    terminal prints every move the page made and the same result."""
    opened: list[str] = []
    # robots move at once here, so the page presses faster than a person could
    web = LocalWeb(browser=lambda url: opened.append(url) is None, rate=1000.0)
    read, write = os.pipe()  # the keyboard: nothing is typed, the page plays
    out = io.StringIO()
    with os.fdopen(read, "r") as stdin:
        task = asyncio.create_task(
            play(memory_storage, stdin=stdin, stdout=out, seed=3, level="aprendiz", companion=web)
        )
        try:
            await wait_until(lambda: opened, timeout=30)
            [url] = opened
            assert url.startswith(f"http://{LOCAL_HOST}:") and "/?s=" in url
            phone = await browser.new_page(viewport={"width": 360, "height": 640})
            frames = Frames(phone)
            await phone.goto(url)
            await phone.wait_for_selector("#board rect")
            over = "#match-result:not([hidden])"
            for _ in range(1000):  # each of my turns, until the match's end shows
                await phone.wait_for_selector(f"{MY_TURN}, {over}", timeout=30000)
                if await phone.locator(over).count():
                    break
                await tap_my_turn(phone)
                # the press answered (the page sends nothing more until then)
                await phone.wait_for_function("!document.querySelector('#hand.waiting')")
            await phone.screenshot(path=str(SHOTS / "play-web-end-360x640.png"), full_page=True)
            code = await asyncio.wait_for(task, timeout=60)
        finally:
            os.close(write)
            if not task.done():
                task.cancel()
    assert code == 0
    text = out.getvalue()
    assert f"La mesa en tu navegador: {url}" in text
    mine = [line for line in text.splitlines() if line.startswith(("  Juegas ", "  Pasas"))]
    assert len(mine) == len(frames.sent_presses()) > 0  # each press, printed once
    # the same final score on the page and in the terminal
    found = re.search(r"\d+ – \d+", await phone.locator("#match-result").inner_text())
    assert found is not None and f"partida {found.group(0)}" in text
    assert text.rstrip().splitlines()[-1].startswith("Tu saldo: $")
    assert web.web is None  # stopped with the match


async def test_a_one_against_one_match_is_played_on_the_page_drawing_from_the_boneyard_to_its_end(
    memory_storage: Storage, browser: Any
) -> None:
    """Issue 30: ``domino play --preset uno-contra-uno --web``: two seats facing each
    other, the boneyard's count, "Robar" when no tile fits, each player's own score, and
    the match to its end from the page; the terminal prints every press the page made."""
    opened: list[str] = []
    web = LocalWeb(browser=lambda url: opened.append(url) is None, rate=1000.0)
    read, write = os.pipe()
    out = io.StringIO()
    boneyards: set[str] = set()
    with os.fdopen(read, "r") as stdin:
        task = asyncio.create_task(
            play(
                memory_storage,
                stdin=stdin,
                stdout=out,
                seed=3,
                level="aprendiz",
                companion=web,
                preset="uno-contra-uno",
            )
        )
        try:
            await wait_until(lambda: opened, timeout=30)
            phone = await browser.new_page(viewport={"width": 360, "height": 640})
            frames = Frames(phone)
            await phone.goto(opened[0])
            await phone.wait_for_selector("#board rect")
            over = "#match-result:not([hidden])"
            for _ in range(1000):
                await phone.wait_for_selector(f"{MY_TURN}, {over}", timeout=30000)
                if await phone.locator(over).count():
                    break
                boneyards.add(await phone.locator("#score").inner_text())
                await tap_my_turn(phone)
                await phone.wait_for_function("!document.querySelector('#hand.waiting')")
            await phone.screenshot(
                path=str(SHOTS / "one-against-one-end-360x640.png"), full_page=True
            )
            code = await asyncio.wait_for(task, timeout=60)
        finally:
            os.close(write)
            if not task.done():
                task.cancel()
    assert code == 0
    tables = frames.of("table")
    assert {len(table["seats"]) for table in tables} == {2}
    assert tables[-1]["teams"] == ["Tú", tables[-1]["seats"][1]["name"]]
    assert tables[-1]["board"]["places"] == {"0": "bottom", "1": "top"}
    assert await phone.locator("#teams .team").count() == 2
    # the boneyard's count was shown while there were tiles to draw
    assert any(re.search(r"Pozo: 1[0-4]$", text) for text in boneyards)
    text = out.getvalue()
    drew = [line for line in text.splitlines() if line.startswith("  Robas ")]
    mine = [line for line in text.splitlines() if line.startswith(("  Juegas ", "  Pasas"))]
    assert len(mine) + len(drew) == len(frames.sent_presses()) and drew
    result = await phone.locator("#match-result").inner_text()
    found = re.search(r"(\d+) – (\d+)", result)
    assert found is not None and max(map(int, found.groups())) >= 100
    assert f"Marcador final: Tú {found.group(1)}, Rival {found.group(2)}" in text
    assert "gana la partida" in result


# A stand-in for Discord's client around an Activity: it hosts the page in an iframe with
# the query Discord adds, and answers the Embedded App SDK's postMessage protocol as the
# client does (HANDSHAKE -> READY; AUTHORIZE -> a code; AUTHENTICATE -> the user), noting
# every command it was sent. Its origin is opaque ("null"), which the SDK accepts.
DISCORD_FRAME = """<!doctype html><html><body style="margin:0">
<iframe id="activity" src="%(src)s" style="border:0;width:360px;height:640px"></iframe>
<script>
window.seen = [];
const frame = document.getElementById("activity");
const user = %(user)s;
window.addEventListener("message", (event) => {
  if (event.source !== frame.contentWindow || !Array.isArray(event.data)) return;
  const [opcode, body] = event.data;
  const reply = (payload) => frame.contentWindow.postMessage([1, payload], "*");
  if (opcode === 0) {
    window.seen.push("HANDSHAKE " + body.client_id);
    reply({cmd: "DISPATCH", evt: "READY", nonce: null, data: {v: 1,
           config: {api_endpoint: "//discord.com/api", environment: "production"},
           user: {id: user.id, username: user.username, discriminator: "0"}}});
  } else if (opcode === 1 && body.cmd === "AUTHORIZE") {
    window.seen.push("AUTHORIZE " + body.args.scope.join(","));
    reply({cmd: "AUTHORIZE", evt: null, nonce: body.nonce, data: {code: "%(code)s"}});
  } else if (opcode === 1 && body.cmd === "AUTHENTICATE") {
    window.seen.push("AUTHENTICATE");
    reply({cmd: "AUTHENTICATE", evt: null, nonce: body.nonce, data: {
      access_token: body.args.access_token, user, scopes: ["identify"],
      expires: "2030-01-01T00:00:00.000Z",
      application: {id: "%(client)s", name: "Dominó", description: ""}}});
  } else if (opcode === 1) {
    window.seen.push(body.cmd);
  }
});
</script></body></html>"""


async def test_inside_discord_the_activity_logs_in_with_oauth2_and_plays_the_channels_table(
    recorder: RecordingPort, memory_storage: Storage, browser: Any, fake: FakeDiscord
) -> None:
    """Issue 31: the same page as a Discord Activity: the SDK's handshake, authorize, the
    server's code exchange with (the fake) Discord, authenticate; the player is who
    Discord says, at the table of the channel the Activity was opened in."""
    ana = fake.add_user("Ana")
    guild, channel = "900", "901"
    activity = DiscordActivity(
        str(fake.application_id), fake.client_secret, api_base=fake.api_base_url,
        clock=lambda: 1_796_083_200.0,
    )  # fmt: skip
    async with open_site(recorder, memory_storage, activity=activity) as site:
        player = PlayerRef("discord", str(ana.id), "Ana")
        chat = ChatRef("discord", guild, channel_id=channel)
        reply = await site.manager.handle(PlayNow(player, chat))
        await site.manager.handle(FillWithRobots(player, chat))
        await site.clock.advance(site.manager.times.countdown_seconds)
        query = (
            f"frame_id=f1&instance_id=i-42&platform=desktop&guild_id={guild}&channel_id={channel}"
        )
        user = {"id": str(ana.id), "username": "ana", "discriminator": "0",
                "global_name": "Ana", "avatar": None, "public_flags": 0}  # fmt: skip
        code = fake.authorize(ana)
        discord = await browser.new_page(viewport={"width": 360, "height": 640})
        frames = Frames(discord)
        html = DISCORD_FRAME % {"src": f"{site.url}/?{query}", "user": json.dumps(user),
                                "code": code, "client": fake.application_id}  # fmt: skip
        await discord.set_content(html)
        page = discord.frame_locator("#activity")
        await page.locator("#board rect").first.wait_for()
        welcome = frames.of("welcome")[0]
        assert welcome["you"] == {"name": "Ana", "seated": True, "seat": 0}
        assert welcome["table"] == reply.table_id
        assert await discord.evaluate("window.seen") == [
            f"HANDSHAKE {fake.application_id}",
            "AUTHORIZE identify",
            "AUTHENTICATE",
        ]
        assert code not in fake.oauth_codes  # exchanged by the server, once
        # Ana plays from inside Discord
        for _ in range(60):
            if await page.locator("#tiles .tile.playable, #ends button").count():
                break
            await site.clock.advance(1.0)
            await asyncio.sleep(0.02)
        before = site.manager.table_state(reply.table_id or "")
        assert before is not None
        await page.locator("#tiles .tile.playable, #ends button").first.click()
        ends = page.locator("#ends button")
        if await ends.count():  # the tile fitted both ends: the first end
            await ends.first.click()
        await wait_until(
            lambda: (
                (s := site.manager.table_state(reply.table_id or "")) is not None
                and s.move_number > before.move_number
            ),
            timeout=10,
        )
        await discord.screenshot(path=str(SHOTS / "discord-activity-360x640.png"))
        # an access token Discord does not know is refused, in words
        forged = await browser.new_page(viewport={"width": 360, "height": 640})
        bad = DISCORD_FRAME % {"src": f"{site.url}/?{query}", "user": json.dumps(user),
                               "code": "made-up", "client": fake.application_id}  # fmt: skip
        await forged.set_content(bad)
        await forged.wait_for_function("window.seen.includes('AUTHORIZE identify')")
        assert await forged.evaluate("window.seen") == [
            f"HANDSHAKE {fake.application_id}",
            "AUTHORIZE identify",
        ]  # the exchange failed: no AUTHENTICATE, no table
        status = forged.frame_locator("#activity").locator("#status")
        await status.wait_for()
        assert (await status.inner_text()).strip() == "—"


async def test_a_slow_tables_turn_is_shown_on_the_page_in_hours(
    recorder: RecordingPort, memory_storage: Storage, browser: Any
) -> None:
    async with open_site(recorder, memory_storage) as site:
        robot = RobotSeat()
        reply = await site.manager.handle(
            OpenTable(
                ANA, ChatRef("telegram", "-100", language="es"), overrides={"turn_seconds": 12 * 3600}, right=robot, across=robot,
                left=robot,
            )
        )  # fmt: skip
        table_id = reply.table_id
        assert table_id is not None
        await site.clock.advance(site.manager.times.countdown_seconds)
        for _ in range(60):  # robots move at once up to Ana's 12-hour turn
            state = site.manager.table_state(table_id)
            if state is not None and state.turn == 0:
                break
            await site.clock.advance(1.0)
        page = await browser.new_page(viewport={"width": 360, "height": 640})
        await page.goto(f"{site.url}/?s={site.web.auth.seat_link(ANA, table_id)}")
        await page.wait_for_function(
            "document.getElementById('turn').textContent.startsWith('Te toca · ')"
        )
        assert (await page.locator("#turn").inner_text()).strip() == "Te toca · 12 h"


async def test_a_tournaments_page_on_a_phone_shows_its_picture_and_a_watch_link_per_table(
    recorder: RecordingPort, memory_storage: Storage, browser: Any
) -> None:
    chat = ChatRef("telegram", "-100", language="es")
    carla, dani = PlayerRef("telegram", "44", "Carla"), PlayerRef("telegram", "45", "Dani")
    admin = PlayerRef("telegram", "9", "Admin")
    async with open_site(recorder, memory_storage) as site:
        await site.manager.start()
        create = CreateTournament(
            admin, chat, TournamentKind.KNOCKOUT, is_admin=True,
            preset="uno-contra-uno", fee=10, name="Copa del viernes",
        )  # fmt: skip
        assert (await site.manager.handle(create)).ok
        for player in (ANA, BEA, carla, dani):
            assert (await site.manager.handle(JoinTournament(player, chat))).ok
        assert (await site.manager.handle(StartTournament(admin, chat, is_admin=True))).ok
        await site.manager.idle()
        view = site.manager.tournament_here(chat)
        assert view is not None
        # a Spanish-speaking phone (the page follows the browser's Accept-Language)
        page = await browser.new_page(viewport={"width": 360, "height": 640}, locale="es-ES")
        await page.goto(site.web.tournament_url(view.id))
        picture = page.locator("#picture")
        await picture.wait_for()
        await page.wait_for_function(
            "document.getElementById('picture').complete"
            " && document.getElementById('picture').naturalWidth > 0"
        )
        box = await picture.bounding_box()
        assert box is not None and box["width"] == 480  # readable; it scrolls sideways
        watch = page.locator("#tables a.watch")
        hrefs = [await watch.nth(i).get_attribute("href") for i in range(await watch.count())]
        assert sorted(hrefs) == sorted(site.web.watch_url(t) for t in site.manager.tables())
        assert [(await watch.nth(i).inner_text()).strip() for i in range(2)] == [
            "Mirar la mesa"
        ] * 2
        # nothing runs a script or overflows the phone's width
        assert await page.evaluate("document.scripts.length") == 0
        width = await page.evaluate("document.documentElement.scrollWidth")
        assert width == 360
        SHOTS.mkdir(parents=True, exist_ok=True)
        await page.screenshot(path=str(SHOTS / "tournament-360x640.png"), full_page=True)
        await page.screenshot(path="/tmp/tournament-page.png")
