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
import json
import os
import shutil
import socket
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest
from conftest import wait_until
from test_web_server import tile_lists
from web_support import sign_init_data

from bot.web.auth import WebAuth, link_secret
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
    """Every websocket frame a page received, decoded."""

    def __init__(self, page: Any) -> None:
        self.frames: list[dict[str, Any]] = []
        page.on("websocket", self._socket)

    def _socket(self, ws: Any) -> None:
        ws.on("framereceived", lambda payload: self.frames.append(json.loads(payload)))

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
    """Tap the first playable tile, and the first end when it fits both; with no tile
    that fits, the pass button (the deal is the bot's own, so either can come)."""
    playable = page.locator("#tiles .tile.playable")
    if await playable.count():
        await playable.first.click()
    ends = page.locator("#ends button")
    if await ends.count() and await ends.first.is_visible():
        await ends.first.click()


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
