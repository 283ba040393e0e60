"""The web table under load (issue 16): N tables x 4 seated pages on one process.

A server process runs the table manager (memory storage, the system clock, no robots:
four humans per table) and the web table on 127.0.0.1; this process opens one websocket
per seat (4 N pages) with signed seat links, then at human pace (each table moves once
every ``--pace`` seconds) the page whose turn it is presses its first legal move, and
the time from the press to the moment all four pages of that table hold the new table
state is measured. Printed: press -> all four pages updated (median, p95, p99), moves
measured, the server's memory per connection (RSS before and after the pages connected).

Targets: median <= 50 ms, p99 <= 250 ms at 250 tables x 4 pages.

Also printed first (issue 31): the page's weight, each file and all of them gzipped
(target <= 150 KB without pictures), and its first paint in headless Chromium on loopback
(target <= 1 s; skipped without Playwright and Chromium, or with ``--no-paint``).

Run: ``python bench/web.py [--tables 250] [--seconds 30] [--pace 3] [--no-paint]``
"""

from __future__ import annotations

import argparse
import asyncio
import gzip
import json
import multiprocessing as mp
import os
import random
import shutil
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import aiohttp


def _rss_kib() -> int:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def _server(tables: int, conn: Any) -> None:
    """The bot's side: tables of four humans, the web table; answers RSS on request."""

    async def main() -> None:
        from bot.core import ChatRef, PlayerRef, PlayNow, TableManager
        from bot.web.auth import WebAuth, link_secret
        from bot.web.server import WebTable
        from storage import open_storage

        storage = await open_storage(":memory:")
        manager = TableManager(
            storage, seed=1, robot_delay=0.0, countdown_seconds=0.5, hand_pause=0.5
        )
        auth = WebAuth(telegram_token=None, secret=link_secret("bench"), clock=time.time)
        web = WebTable(manager, auth, public_url="http://127.0.0.1:1", clock=time.time)
        port = await web.start("127.0.0.1", 0)
        web.public_url = web.origin = f"http://127.0.0.1:{port}"
        links = []
        for t in range(tables):
            chat = ChatRef("bench", f"group-{t}")
            seats = []
            for s in range(4):
                player = PlayerRef("bench", f"{t}-{s}", f"P{t}-{s}")
                reply = await manager.handle(PlayNow(player, chat))
                assert reply.ok, reply.refusal
                seats.append(auth.seat_link(player, str(reply.table_id)))
            links.append(seats)
        await asyncio.sleep(1.5)  # every countdown ends
        conn.send({"port": port, "links": links, "rss": _rss_kib()})
        loop = asyncio.get_running_loop()
        while True:
            message = await loop.run_in_executor(None, conn.recv)
            if message == "rss":
                conn.send(_rss_kib())
            elif message == "stop":
                break
        await web.stop()
        await manager.stop()
        await storage.close()

    if os.environ.get("BENCH_PROFILE"):  # where the server's time goes
        import cProfile

        cProfile.runctx("asyncio.run(main())", globals(), locals(), os.environ["BENCH_PROFILE"])
    else:
        asyncio.run(main())


class Seat:
    def __init__(self, table: int, socket: aiohttp.ClientWebSocketResponse) -> None:
        self.table = table
        self.socket = socket
        self.move = 0
        self.hand: dict[str, Any] | None = None


class Seen:
    """When each table's pages got each move's state; wakes whoever waits for all four."""

    def __init__(self) -> None:
        self.times: dict[tuple[int, int], list[float]] = {}
        self.waiters: dict[tuple[int, int], asyncio.Event] = {}

    def add(self, key: tuple[int, int]) -> None:
        got = self.times.setdefault(key, [])
        got.append(time.perf_counter())
        if len(got) == 4 and key in self.waiters:
            self.waiters.pop(key).set()

    async def all_four(self, key: tuple[int, int], timeout: float) -> float | None:
        """When the fourth page got ``key``'s state (None after ``timeout`` seconds)."""
        if len(self.times.get(key, [])) < 4:
            event = self.waiters.setdefault(key, asyncio.Event())
            try:
                await asyncio.wait_for(event.wait(), timeout)
            except TimeoutError:
                return None
        return max(self.times[key][:4])


async def _reader(seat: Seat, seen: Seen) -> None:
    async for message in seat.socket:
        if message.type is not aiohttp.WSMsgType.TEXT:
            break
        frame = json.loads(message.data)
        if frame["type"] == "table":
            seat.move = frame["move"]
            seen.add((seat.table, frame["move"]))
        elif frame["type"] == "hand":
            seat.hand = frame


async def _client(port: int, links: list[list[str]], seconds: float, pace: float) -> list[float]:
    url = f"ws://127.0.0.1:{port}/ws"
    origin = f"http://127.0.0.1:{port}"
    seen = Seen()
    latencies: list[float] = []
    connector = aiohttp.TCPConnector(limit=0)
    async with aiohttp.ClientSession(connector=connector) as session:
        tables: list[list[Seat]] = []
        readers = []
        for t, seat_links in enumerate(links):
            seats = []
            for link in seat_links:
                socket = await session.ws_connect(url, origin=origin, max_msg_size=0)
                await socket.send_str(json.dumps({"hello": {"seat": link}}))
                seat = Seat(t, socket)
                seats.append(seat)
                readers.append(asyncio.create_task(_reader(seat, seen)))
            tables.append(seats)
        await asyncio.sleep(2.0)
        print(f"{len(links) * 4} pages connected", flush=True)

        async def play(seats: list[Seat], rng: random.Random) -> None:
            await asyncio.sleep(rng.uniform(0, pace))
            end = time.perf_counter() + seconds
            while time.perf_counter() < end:
                mover = next((s for s in seats if s.hand and s.hand["your_turn"]
                              and s.hand["moves"]), None)  # fmt: skip
                if mover is None or mover.hand is None:
                    await asyncio.sleep(0.1)
                    continue
                move = mover.hand["move"]
                payload = mover.hand["moves"][0]["payload"]
                mover.hand = None
                start = time.perf_counter()
                await mover.socket.send_str(json.dumps({"press": payload}))
                done = await seen.all_four((seats[0].table, move + 1), 5.0)
                if done is not None:
                    latencies.append(done - start)
                await asyncio.sleep(rng.uniform(0.5 * pace, 1.5 * pace))

        rng = random.Random(7)
        await asyncio.gather(*(play(seats, random.Random(rng.random())) for seats in tables))
        for task in readers:
            task.cancel()
    return latencies


def page_weight() -> None:
    """Print each static file's size and gzipped size, and the page's total."""
    from bot.web.server import _STATIC

    static = Path(__file__).resolve().parent.parent / "bot" / "web" / "static"
    sizes = {}
    for name in _STATIC:
        body = (static / name).read_bytes()
        sizes[name] = (len(body), len(gzip.compress(body, compresslevel=9)))
    page = [name for name in _STATIC if name != "activity.js"]  # Discord's loads it too
    for label, names in (("page weight", page), ("inside Discord", [*page, "activity.js"])):
        total = sum(sizes[n][0] for n in names)
        zipped = sum(sizes[n][1] for n in names)
        parts = ", ".join(f"{n} {sizes[n][0] / 1024:.1f} KB ({sizes[n][1] / 1024:.1f} gz)"
                          for n in names)  # fmt: skip
        verdict = "OK" if zipped <= 150 * 1024 else "MISSED"
        print(f"{label}: {total / 1024:.1f} KB, {zipped / 1024:.1f} KB gzipped "
              f"(target <= 150 KB: {verdict}): {parts}")  # fmt: skip


async def first_paint() -> None:
    """Print the first contentful paint of a spectator's page in headless Chromium."""
    try:
        from playwright.async_api import async_playwright
    except ImportError:
        print("first paint: skipped (no Playwright)")
        return
    chromium = shutil.which("chromium") or "/usr/bin/chromium"
    if not Path(chromium).exists():
        print("first paint: skipped (no Chromium)")
        return
    from bot.core import ChatRef, FillWithRobots, PlayerRef, PlayNow, TableManager
    from bot.web.auth import WebAuth, link_secret
    from bot.web.server import WebTable
    from storage import open_storage

    storage = await open_storage(":memory:")
    manager = TableManager(storage, seed=1, robot_delay=0.0, countdown_seconds=0.0)
    auth = WebAuth(telegram_token=None, secret=link_secret("bench"), clock=time.time)
    web = WebTable(manager, auth, public_url="http://127.0.0.1:1", clock=time.time)
    port = await web.start("127.0.0.1", 0)
    web.public_url = web.origin = f"http://127.0.0.1:{port}"
    ana = PlayerRef("telegram", "1", "Ana")
    chat = ChatRef("telegram", "-1")
    reply = await manager.handle(PlayNow(ana, chat))
    await manager.handle(FillWithRobots(ana, chat))
    url = web.seat_url(ana, reply.table_id or "")
    paints = []
    async with async_playwright() as p:
        browser = await p.chromium.launch(executable_path=chromium, args=["--headless=new"])
        for _ in range(5):
            page = await browser.new_page(viewport={"width": 390, "height": 844})
            await page.goto(url)
            await page.wait_for_selector("#board rect")
            paint = await page.evaluate(
                "() => performance.getEntriesByName('first-contentful-paint')[0]?.startTime"
            )
            board = await page.evaluate("() => performance.now()")
            paints.append((paint or 0.0, board))
            await page.close()
        await browser.close()
    await web.stop()
    await manager.stop()
    await storage.close()
    paint = statistics.median(p for p, _ in paints)
    board = statistics.median(b for _, b in paints)
    verdict = "OK" if board <= 1000 else "MISSED"
    print(f"first paint: {paint:.0f} ms, board drawn by {board:.0f} ms (median of 5 loads, "
          f"loopback; target <= 1 s: {verdict})")  # fmt: skip


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=250)
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--pace", type=float, default=3.0, help="seconds between a table's moves")
    parser.add_argument("--no-paint", action="store_true", help="skip the browser's first paint")
    args = parser.parse_args()
    page_weight()
    if not args.no_paint:
        asyncio.run(first_paint())
    print(f"{args.tables} tables x 4 pages, {args.seconds:.0f} s, a move per table every "
          f"~{args.pace:.1f} s; {os.cpu_count()} CPU(s), load {os.getloadavg()[0]:.1f}")  # fmt: skip
    ctx = mp.get_context("spawn")
    parent, child = ctx.Pipe()
    server = ctx.Process(target=_server, args=(args.tables, child), daemon=True)
    server.start()
    ready = parent.recv()
    latencies = asyncio.run(
        _client_with_rss(ready["port"], ready["links"], args.seconds, args.pace, parent, ready)
    )
    parent.send("stop")
    server.join(timeout=30)
    if not latencies:
        print("no move was measured")
        return 1
    latencies.sort()
    ms = [x * 1000 for x in latencies]
    p = lambda q: ms[min(len(ms) - 1, int(q * len(ms)))]  # noqa: E731
    median = statistics.median(ms)
    print(f"press -> all four pages updated: median {median:.1f} ms, p95 {p(0.95):.1f} ms, "
          f"p99 {p(0.99):.1f} ms over {len(ms)} moves "
          f"(targets: median <= 50 ms, p99 <= 250 ms: "
          f"{'OK' if median <= 50 and p(0.99) <= 250 else 'MISSED'})")  # fmt: skip
    return 0


async def _client_with_rss(
    port: int, links: list[list[str]], seconds: float, pace: float, conn: Any, ready: Any
) -> list[float]:
    task = asyncio.create_task(_client(port, links, seconds, pace))
    await asyncio.sleep(2.5 + len(links) * 0.004)
    loop = asyncio.get_running_loop()
    await loop.run_in_executor(None, conn.send, "rss")
    rss = await loop.run_in_executor(None, conn.recv)
    pages = len(links) * 4
    print(f"server memory: {ready['rss'] / 1024:.1f} MiB before the pages, {rss / 1024:.1f} MiB "
          f"with {pages} connected: {(rss - ready['rss']) / pages:.1f} KiB per connection")  # fmt: skip
    return await task


if __name__ == "__main__":
    raise SystemExit(main())
