"""How many 4-human tables one bot token serves within the platforms' limits (issue 17).

N tables at once, each in its own group (Telegram) or server (Discord), four scripted
humans per table who press a move button 2-6 s (uniformly) after their turn's message
reaches them, one match per table (``/mesa meta=50``: a short match). Everything goes
through the fakes (tests/fake_telegram.py, tests/fake_discord.py) with the platforms'
documented limits ON: Telegram 30 messages/s per bot, 20/min per group, 1/s per private
chat (429 + retry_after, absorbed by PTB's AIORateLimiter set as frontend.py sets it,
max_retries=3); Discord 50 requests/s global and 5 per 5 s per channel and route (the
real rate-limit headers, so discord.py's own limiter paces itself; the bot keeps under
the global limit with its pacer, bot/discord/pacer.py, as frontend.py sets it).

**Compressed time.** So that a run takes about a minute, time runs ``--compress`` (C)
times faster than a human's: think times are divided by C, the manager's clock runs C
times faster (turn timers, pauses between hands), and every platform limit is applied at
that same scale (30*C messages per real second, a group's 20 per 60/C s...; the rate
limiters in the bot are scaled alike). Latencies are measured in real seconds and
printed multiplied by C (player's seconds), so the bot's own processing time is
multiplied by C too: the figures are pessimistic by that much. Pictures are not drawn
(``--render stub``, the default: a tiny PNG stands in for each) because drawing is CPU
work that compressed time would also multiply by C; ``--render real`` draws them.

**Two processes.** The bot (the table manager and the platform's front end, as
``domino run`` builds them) runs in a process of its own, started by this script with
``--serve``; the fake server, the scripted players and the measuring run in this one. So
each has a core, as the bot and Telegram's or Discord's servers would, and the figures are
the bot's, not the bench's own CPU (docs/capacity.md: in one process, 104 Telegram tables
at time x2 measured the bench). The CPU seconds each process used are printed.

Printed per platform: requests per move (every request but getUpdates, the gateway and
429s; a move as records.md counts it, a tile or a pass, counted by the bot; per tile
beside it), private messages per player per match (messages created in a player's private
chat or DMs), press -> answer p95 (Discord: the interaction callback; Telegram, where a
move is a reply-keyboard press that needs no answer: the private message the press
causes, the next player's turn message, within a hand), press -> group board p95 (the
first board edit showing the move made), 429s (by limit), each process's CPU, the pace
(moves a table's players press, a tile or Paso, a minute of its own play time), and
the largest N that keeps the answer p95 <= 1 s and the board p95 <= 6 s, against the
tables the limits allow at the players' own pace (the first run's, or ``--pace``; a run
that the bot slows has a slower pace).

    nice -n 10 python bench/capacity.py [--platform telegram|discord|both]
        [--tables 20,48,56] [--compress 2] [--meta 50] [--seed 7] [--render stub|real]
        [--pace 14.5] [--dump 'latencies-{platform}-{n}.json']
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import json
import logging
import math
import random
import re
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

# Run as a script, bench/ comes first on sys.path (bench/telegram.py and bench/discord.py
# would shadow the libraries): drop it and put the repository root on it instead.
_HERE = Path(__file__).resolve().parent
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != _HERE]
sys.path.insert(0, str(_HERE.parent))

from bot.core.clock import SystemClock, _Timer  # noqa: E402

MOVE = "dm1:m:"
ANSWER_TARGET = 1.0  # s, p95 press -> answer
BOARD_TARGET = 6.0  # s, p95 press -> group board
TG_MESSAGE_METHODS = ("sendMessage", "sendPhoto", "sendDocument", "sendMediaGroup")
HAND_RESULT = re.compile(r"Mesa \S+ · mano \d+: ")  # a hand's result in the group (Spanish)


class ScaledClock(SystemClock):
    """The system clock running ``scale`` times faster (timers fire ``scale`` times sooner)."""

    def __init__(self, scale: float) -> None:
        super().__init__()
        self.scale = scale
        self._t0 = time.time()

    def now(self) -> float:
        return self._t0 + (time.time() - self._t0) * self.scale

    def call_at(self, when: float, callback: Any) -> _Timer:
        timer = _Timer(when)
        delay = max(0.0, (when - self.now()) / self.scale)
        timer.handle = asyncio.get_running_loop().call_later(delay, self._fire, timer, callback)
        return timer


def stub_renders() -> None:
    """Every picture becomes a few distinct bytes with a PNG header (no drawing)."""
    import render

    counter = itertools.count()

    def stub(*_args: Any, **_kwargs: Any) -> bytes:
        return b"\x89PNG\r\n\x1a\n" + str(next(counter)).encode()

    for name in (
        "board_png",
        "hand_png",
        "hand_result_png",
        "match_result_png",
        "waiting_png",
        "standings_png",
        "profile_png",
    ):
        setattr(render, name, stub)


def p95(values: list[float]) -> float:
    if not values:
        return math.nan
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, math.ceil(0.95 * len(ordered)) - 1)]


@dataclass
class Result:
    platform: str
    tables: int
    presses: int = 0  # moves the scripted players pressed (a tile or Paso; the pace)
    tiles: int = 0  # tiles played at the tables (players, robots, timers), as the bot counts
    passes: int = 0  # passes (Paso, pressed or played by a timer), as the bot counts
    requests: int = 0
    refused: int = 0  # 429s
    private_messages: int = 0
    private_requests: int = 0
    players: int = 0
    answer: list[float] = field(default_factory=list)  # player's seconds
    board: list[float] = field(default_factory=list)
    finished: int = 0
    seconds: float = 0.0  # real seconds of the run
    kinds: dict[str, int] = field(default_factory=dict)  # requests per kind
    scale: float = 1.0
    limited: int = 0  # requests the global limit counts (Telegram: messages; Discord: all
    # but the interaction callbacks and follow-ups)
    global_rate: float = 1.0  # that limit, per second
    unplayable: int = 0  # presses answered as not playable (Telegram)
    refused_by: dict[str, int] = field(default_factory=dict)  # 429s by the limit met
    fetched: list[float] = field(default_factory=list)  # Telegram: press -> getUpdates
    # handed it to the bot (player's seconds), the part of the answer before the bot has it
    cpu_bot: float = 0.0  # CPU seconds of the bot's process during the run
    cpu_bench: float = 0.0  # CPU seconds of this process (fakes, players) during the run

    spans: dict[int, list[float]] = field(default_factory=dict)  # table -> [first move's
    # perf_counter, last press's, presses]

    @property
    def moves(self) -> int:
        """Moves as records.md counts them: tiles and passes."""
        return self.tiles + self.passes

    def moved(self, table: int, at: float) -> None:
        """A player pressed a move at ``table`` (at ``at``, perf_counter)."""
        self.presses += 1
        span = self.spans.setdefault(table, [at, at, 0])
        span[1], span[2] = at, span[2] + 1

    @property
    def pace(self) -> float:
        """Moves pressed a minute per table while its match is played (from its first press
        to its last, pauses between hands included), in player's time."""
        minutes = sum(last - first for first, last, _ in self.spans.values()) * self.scale / 60
        presses = sum(n - 1 for _, _, n in self.spans.values())  # the presses after the first
        return presses / minutes if minutes > 0 else 0.0

    @property
    def bound(self) -> float:
        """Tables the global limit allows at this pace and cost per move."""
        return self.bound_at(self.pace)

    def bound_at(self, pace: float) -> float:
        """Tables the global limit allows at ``pace`` (moves pressed a minute per table) and this
        run's cost per press."""
        per_table = self.limited / max(1, self.presses) * pace / 60  # per second
        return self.global_rate / per_table if per_table else math.inf

    def count(self, kind: str) -> None:
        self.requests += 1
        self.kinds[kind] = self.kinds.get(kind, 0) + 1

    def breakdown(self) -> str:
        moves = max(1, self.moves)
        ordered = sorted(self.kinds.items(), key=lambda item: -item[1])
        return (
            f"        {self.tiles} tiles and {self.passes} passes; pace {self.pace:.1f} "
            f"moves pressed/min/table; global limit counts {self.limited / moves:.2f} "
            f"requests/move -> bound {self.bound:.0f} tables\n"
            "        per move: "
            + ", ".join(f"{k} {v / moves:.2f}" for k, v in ordered)
            + (f"\n        429s by limit: {self.refused_by}" if self.refused_by else "")
            + (
                f"\n        press -> update fetched by the bot p95 {p95(self.fetched):.2f} s"
                if self.fetched
                else ""
            )
            + f"\n        CPU: bot {self.cpu_bot / max(1e-9, self.seconds):.0%}, fakes and "
            f"players {self.cpu_bench / max(1e-9, self.seconds):.0%} of a core"
        )

    @property
    def ok(self) -> bool:
        return (
            self.finished == self.tables
            and p95(self.answer) <= ANSWER_TARGET
            and p95(self.board) <= BOARD_TARGET
        )

    def line(self) -> str:
        per_move = self.requests / max(1, self.moves)
        per_tile = self.requests / max(1, self.tiles)
        return (
            f"  N={self.tables:3d}  moves {self.moves:5d}  req/move {per_move:4.2f} "
            f"(per tile {per_tile:4.2f})  "
            f"private msgs/player/match {self.private_messages / max(1, self.players):5.1f} "
            f"(requests {self.private_requests / max(1, self.players):5.1f})  "
            f"answer p95 {p95(self.answer):5.2f} s  board p95 {p95(self.board):5.2f} s  "
            f"429s {self.refused:4d}  finished {self.finished}/{self.tables}  "
            f"({self.seconds:.0f} s real)  {'ok' if self.ok else 'OVER'}"
        )


@dataclass
class Press:
    at: float  # perf_counter at the press
    presser: str  # the presser's display name
    answered: float | None = None
    update_id: int | None = None  # Telegram: the press's update
    presser_id: int = 0  # Discord: the presser's user id


# ---------------------------------------------------------------------------- the bot


async def serve(config: dict[str, Any]) -> None:
    """The bot's process (``--serve``): the table manager and one front end pointed at the
    fake, until its stdin closes. Prints ``ready`` once started, then every 0.2 s a JSON
    line ``{"tables": live tables, "full": tables with four seated, "cpu": CPU seconds,
    "tiles": tiles played, "passes": passes}``."""
    from bot.core import TableManager
    from storage import open_storage

    scale = float(config["scale"])
    clock = ScaledClock(scale)
    storage = await open_storage(":memory:")
    moves = MoveCounter()
    manager = TableManager(
        storage, clock=clock, seed=config["seed"], robot_level="novato", ports={"*": moves}
    )
    front: Any
    if config["platform"] == "telegram":
        from bot.pacing import BOARD_SPACING, PRIVATE_GAP
        from bot.telegram import TelegramFrontEnd
        from bot.telegram.sender import rate_limiter

        front = TelegramFrontEnd(
            config["token"],
            manager,
            storage,
            base_url=config["base_url"],
            base_file_url=config["base_file_url"],
            rate_limiter=rate_limiter(scale),
            poll_timeout=1,
            board_spacing=BOARD_SPACING / scale,
            private_gap=PRIVATE_GAP / scale,
        )
        await manager.start()
        await front.start()
    else:
        from bot.discord import DiscordFrontEnd
        from bot.discord.pacer import GlobalPacer

        front = DiscordFrontEnd(
            "fake-token",
            manager,
            storage,
            api_base_url=config["api_base_url"],
            gateway_url=config["gateway_url"],
            guild_ready_timeout=0.01,
            pacer=GlobalPacer(time_scale=scale),
        )
        await front.start()
        await manager.start()
    print("ready", flush=True)
    loop = asyncio.get_running_loop()
    closed = loop.run_in_executor(None, sys.stdin.readline)  # "" when the bench closes it
    while not closed.done():
        live = manager.tables()
        full = sum(_full(manager, t) for t in live)
        line = {
            "tables": len(live),
            "full": full,
            "cpu": time.process_time(),
            "tiles": moves.tiles,
            "passes": moves.passes,
        }
        print(json.dumps(line), flush=True)
        await asyncio.wait([closed], timeout=0.2)
    if config["platform"] == "telegram":
        await front.stop()
        await manager.stop()
    else:
        await manager.stop()
        await front.stop()
    await storage.close()


class MoveCounter:
    """A port that counts the moves played at every table: tiles and passes."""

    def __init__(self) -> None:
        self.tiles = 0
        self.passes = 0

    async def deliver(self, event: Any) -> None:
        from bot.core import MovePlayed

        if isinstance(event, MovePlayed):
            if event.move.is_pass:
                self.passes += 1
            else:
                self.tiles += 1


class BotProcess:
    """The bot in a process of its own (:func:`serve`), watched through its status lines."""

    def __init__(self, config: dict[str, Any]) -> None:
        self.config = config
        self.tables = 0  # live tables
        self.full = 0  # tables with four seated
        self.cpu = 0.0  # CPU seconds so far
        self.tiles = 0  # tiles played so far, every table
        self.passes = 0  # passes so far
        self._process: asyncio.subprocess.Process | None = None
        self._reader: asyncio.Task[None] | None = None

    async def start(self) -> None:
        self._process = await asyncio.create_subprocess_exec(
            sys.executable,
            __file__,
            "--serve",
            json.dumps(self.config),
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
        )
        assert self._process.stdout is not None
        line = await asyncio.wait_for(self._process.stdout.readline(), 60)
        if line.strip() != b"ready":
            raise RuntimeError(f"the bot's process did not start: {line!r}")
        self._reader = asyncio.create_task(self._read())

    async def _read(self) -> None:
        assert self._process is not None and self._process.stdout is not None
        async for line in self._process.stdout:
            status = json.loads(line)
            self.tables, self.full, self.cpu = status["tables"], status["full"], status["cpu"]
            self.tiles, self.passes = status["tiles"], status["passes"]

    async def until(self, condition: Callable[[BotProcess], bool], timeout: float) -> None:
        """Wait until ``condition(self)`` holds; fail after ``timeout`` seconds."""
        await _until(lambda: condition(self), timeout)

    async def stop(self) -> None:
        if self._process is None:
            return
        assert self._process.stdin is not None
        self._process.stdin.close()
        try:
            await asyncio.wait_for(self._process.wait(), 30)
        except TimeoutError:
            self._process.kill()
            await self._process.wait()
        if self._reader is not None:
            await self._reader


# ---------------------------------------------------------------------------- Telegram


SETUP_SECONDS = 120.0  # real seconds to open and fill the tables, plus one per table


async def _until(condition: Callable[[], bool], timeout: float = SETUP_SECONDS) -> None:
    """Wait (polling) until ``condition`` holds; fail after ``timeout`` seconds."""
    deadline = time.perf_counter() + timeout
    while not condition():
        if time.perf_counter() > deadline:
            raise AssertionError("the tables were not set up in time")
        await asyncio.sleep(0.05)


def _full(manager: Any, table_id: str) -> bool:
    state = manager.table_state(table_id)
    return state is None or sum(not info.is_open for info in state.seats) == 4


async def run_telegram(
    tables: int,
    scale: float,
    meta: int,
    seed: int,
    timeout: float,
    think: tuple[float, float],
    render: str,
) -> Result:
    from tests.fake_telegram import _MESSAGE_METHODS, Call, FakeTelegram, TelegramLimits

    rng = random.Random(seed)
    limits = TelegramLimits(time_scale=scale, client_pad=0.1)
    fake = FakeTelegram(limits=limits)
    await fake.start()
    bot = BotProcess(
        {
            "platform": "telegram",
            "scale": scale,
            "seed": seed,
            "token": fake.token,
            "base_url": fake.base_url,
            "base_file_url": fake.base_file_url,
            "render": render,
        }
    )
    await bot.start()
    result = Result("telegram", tables, scale=scale, global_rate=limits.overall_per_second)
    loop = asyncio.get_running_loop()
    names: dict[int, str] = {}  # user id -> name
    table_of: dict[int, int] = {}  # user id or group id -> table index
    groups: dict[int, Any] = {}
    users: dict[int, Any] = {}
    offered: dict[int, int] = {}  # user -> the turn message whose press is scheduled
    waiting: dict[int, list[Press]] = {}  # table -> presses whose board is not seen yet
    answering: dict[int, list[Press]] = {}  # table -> presses whose next turn is not sent yet
    boards: dict[int, int] = {}  # group id -> board message id
    tasks: set[asyncio.Task[None]] = set()
    counting = False

    async def press_later(user: Any, message_id: int, label: str) -> None:
        await asyncio.sleep(rng.uniform(*think) / scale)
        shown = fake.keyboards.get(user.id)
        if shown is None or shown[1] != message_id:
            return  # that keyboard is gone (a timer played for them)
        update_id = fake.press_key(user, label)
        press = Press(time.perf_counter(), names[user.id], update_id=update_id)
        waiting.setdefault(table_of[user.id], []).append(press)
        answering.setdefault(table_of[user.id], []).append(press)
        if counting:
            result.moved(table_of[user.id], press.at)

    def observe(call: Call) -> None:
        chat = call.chat_id if isinstance(call.chat_id, int) else None
        first = call.method == "sendPhoto" and chat is not None and chat < 0
        if first and chat not in boards and call.ok and isinstance(call.result, dict):
            boards[chat] = call.result["message_id"]  # the table's first photo: its board
        if not counting:
            return
        if call.method != "getUpdates":
            if call.status == 429:
                result.refused += 1
            else:
                where = "" if chat is None else (" group" if chat < 0 else " private")
                result.count(call.method + where)
                result.limited += call.method in _MESSAGE_METHODS
        if call.status != 200 or chat is None:
            return
        if chat > 0:
            result.private_requests += 1
            if call.method in TG_MESSAGE_METHODS:
                result.private_messages += 1
            if call.method == "sendMessage":  # only a move that cannot be played is answered
                result.presses -= 1
                result.unplayable += 1
            markup = call.params.get("reply_markup")
            if not isinstance(markup, dict) or "keyboard" not in markup:
                return
            # a turn message: the answer to the press before it at this table, and the
            # next press of its player
            for press in answering.pop(table_of[chat], []):
                result.answer.append((call.at - press.at) * scale)
                served = fake.served.get(press.update_id or -1)
                if served is not None:
                    result.fetched.append((served - press.at) * scale)
            labels = [b["text"] for row in markup["keyboard"] for b in row]
            if isinstance(call.result, dict) and offered.get(chat) != call.result["message_id"]:
                offered[chat] = call.result["message_id"]
                task = loop.create_task(press_later(users[chat], offered[chat], labels[0]))
                tasks.add(task)
                task.add_done_callback(tasks.discard)
            return
        if call.method == "sendMessage" and HAND_RESULT.match(call.params.get("text", "")):
            answering.pop(table_of[chat], None)  # the hand ended: no next turn to wait for
            return
        if call.params.get("message_id") != boards.get(chat) or not call.method.startswith("edit"):
            return
        caption = call.caption() or call.params.get("text") or ""
        pending = waiting.get(table_of[chat], [])
        for press in list(pending):
            if call.at < press.at:
                continue
            if re.search(rf"Le toca a {re.escape(press.presser)}\b", caption):
                continue  # still the presser's turn: not this move's board
            result.board.append((call.at - press.at) * scale)
            pending.remove(press)

    fake.observers.append(observe)
    try:
        # Every table opened, then every table filled, without waiting for the boards
        # (tables already seated play meanwhile in real time): the matches start together.
        seated: list[list[Any]] = []
        for t in range(tables):
            group = fake.add_group(-1_000_100_000 - t, f"Mesa {t}")
            groups[group.id] = group
            table_of[group.id] = t
            people = []
            for i in range(4):
                user_id = 10_000 + 10 * t + i
                name = f"T{t}{'ABCD'[i]}"
                people.append(fake.add_user(user_id, name))
                names[user_id], table_of[user_id] = name, t
                users[user_id] = people[-1]
            seated.append(people)
            fake.send_text(group, people[0], f"/mesa meta={meta}")
        await bot.until(lambda b: b.tables == tables, SETUP_SECONDS + tables)
        for t, people in enumerate(seated):
            for person in people[1:]:
                fake.send_text(groups[-1_000_100_000 - t], person, "/jugar")
        await bot.until(lambda b: b.full == tables, SETUP_SECONDS + tables)
        counting = True
        result.players = 4 * tables
        started, cpu_bot, cpu_bench = time.perf_counter(), bot.cpu, time.process_time()
        tiles, passes = bot.tiles, bot.passes
        deadline = started + timeout
        while time.perf_counter() < deadline and bot.tables:
            await asyncio.sleep(0.2)
        result.finished = tables - bot.tables
        result.refused_by = dict(limits.refused_by)
        await asyncio.sleep(0.5)
        result.seconds = time.perf_counter() - started
        result.cpu_bot, result.cpu_bench = bot.cpu - cpu_bot, time.process_time() - cpu_bench
        result.tiles, result.passes = bot.tiles - tiles, bot.passes - passes
    finally:
        counting = False
        for task in list(tasks):
            task.cancel()
        await bot.stop()
        await fake.stop()
    return result


# ---------------------------------------------------------------------------- Discord


async def run_discord(
    tables: int,
    scale: float,
    meta: int,
    seed: int,
    timeout: float,
    think: tuple[float, float],
    render: str,
) -> Result:
    from tests.fake_discord import DiscordLimits, FakeDiscord, Request

    rng = random.Random(seed)
    fake = FakeDiscord()
    fake.limits = DiscordLimits(time_scale=scale)
    await fake.start()
    bot = BotProcess(
        {
            "platform": "discord",
            "scale": scale,
            "seed": seed,
            "api_base_url": fake.api_base_url,
            "gateway_url": fake.gateway_url,
            "render": render,
        }
    )
    await bot.start()
    result = Result("discord", tables, scale=scale, global_rate=fake.limits.global_per_second)
    loop = asyncio.get_running_loop()
    names: dict[int, str] = {}
    table_of: dict[int, int] = {}  # user id or channel id -> table
    offered: dict[int, tuple[int, tuple[str, ...]]] = {}
    presses: dict[str, Press] = {}  # interaction token -> press
    waiting: dict[int, list[Press]] = {}
    boards: dict[int, int] = {}  # channel -> board message id
    tasks: set[asyncio.Task[None]] = set()
    counting = False

    async def press_later(user_id: int, message_id: int, custom_id: str) -> None:
        await asyncio.sleep(rng.uniform(*think) / scale)
        message = fake.messages.get(message_id)
        if message is None:
            return
        press = Press(time.perf_counter(), names[user_id], presser_id=user_id)
        inter = await fake.click(fake.users[user_id], message, custom_id)
        presses[inter.token] = press
        waiting.setdefault(table_of[user_id], []).append(press)

    def offer(user_id: int, message_id: int) -> None:
        message = fake.messages.get(message_id)
        if message is None:
            return
        ids = tuple(i for i in message.custom_ids() if i.startswith(MOVE))
        if ids and offered.get(user_id) != (message_id, ids):
            offered[user_id] = (message_id, ids)
            task = loop.create_task(press_later(user_id, message_id, ids[0]))
            tasks.add(task)
            task.add_done_callback(tasks.discard)

    def observe(req: Request) -> None:
        parts = req.path.strip("/").split("/")
        if parts[:1] == ["channels"] and len(parts) == 3 and req.method == "POST":
            channel = int(parts[1])
            if channel in table_of and channel not in boards:
                made = [
                    m for m in fake.channel_messages.get(channel, []) if fake.messages[m].embeds
                ]
                if made:
                    boards[channel] = made[0]  # the table's first embed: its board
        if not counting:
            return
        if req.status == 429:
            result.refused += 1
            return
        if parts[0] == "channels" and len(parts) >= 3:
            where = "dm" if int(parts[1]) in fake.dm_users else "channel"
            item = "/{id}" if len(parts) > 3 else ""
            result.count(f"{req.method} {where} messages{item}")
        else:
            tail = "{token}" if parts[0] == "webhooks" else parts[-1]
            result.count(f"{req.method} {parts[0]}/{tail}")
        result.limited += parts[0] not in ("interactions", "webhooks")
        if parts[0] == "interactions" and parts[-1] == "callback":
            press = presses.get(parts[2])
            if press is not None and press.answered is None:
                press.answered = req.at
                result.answer.append((req.at - press.at) * scale)
                result.moved(table_of[int(press.presser_id)], press.at)
            return
        if parts[0] != "channels" or len(parts) < 3 or parts[2] != "messages":
            return
        channel = int(parts[1])
        if channel in fake.dm_users:
            user_id = fake.dm_users[channel]
            result.private_requests += 1
            if req.method == "POST" and len(parts) == 3:
                result.private_messages += 1
                newest = fake.channel_messages.get(channel, [])
                if newest:
                    offer(user_id, newest[-1])
            elif req.method == "PATCH" and len(parts) == 4:
                offer(user_id, int(parts[3]))
            return
        if channel not in table_of:
            return
        if req.method != "PATCH" or len(parts) != 4 or int(parts[3]) != boards.get(channel):
            return
        text = fake.messages[boards[channel]].text()
        pending = waiting.get(table_of[channel], [])
        for press in list(pending):
            if press.answered is None or req.at < press.answered:
                continue
            if re.search(rf"Le toca a {re.escape(press.presser)}\b", text):
                continue  # still the presser's turn: not this move's board
            result.board.append((req.at - press.at) * scale)
            pending.remove(press)

    fake.observers.append(observe)
    try:
        await fake.wait_until(lambda: fake.commands.get(None), timeout=30)
        for t in range(tables):
            guild = fake.add_guild(f"Club {t}")
            channel = fake.channel_of(guild)
            table_of[channel] = t
            people = []
            for i in range(4):
                person = fake.add_user(f"T{t}{'ABCD'[i]}")
                names[person.id], table_of[person.id] = person.name, t
                people.append(person)
            people[0].permissions |= 1 << 5
            config = await fake.slash(
                people[0], guild, "domino-config", options={"reglas": "venezolano", "meta": meta}
            )
            await fake.replied(config, timeout=30)
            for person in people:
                await fake.replied(await fake.slash(person, guild, "domino", "jugar"), timeout=30)
        await bot.until(lambda b: b.full == tables, SETUP_SECONDS + tables)
        counting = True
        result.players = 4 * tables
        # the tables started as the fourth player sat: offer the turns already shown
        for user_id in names:
            channel = fake.dm_channels.get(user_id)
            if channel is not None and fake.channel_messages.get(channel):
                offer(user_id, fake.channel_messages[channel][-1])
        refused_before = (fake.limits.refused, fake.limits.refused_global)
        started, cpu_bot, cpu_bench = time.perf_counter(), bot.cpu, time.process_time()
        tiles, passes = bot.tiles, bot.passes
        deadline = started + timeout
        while time.perf_counter() < deadline and bot.tables:
            await asyncio.sleep(0.2)
        result.finished = tables - bot.tables
        refused = fake.limits.refused - refused_before[0]
        refused_global = fake.limits.refused_global - refused_before[1]
        result.refused_by = {"global": refused_global, "route": refused - refused_global}
        await asyncio.sleep(0.5)
        result.seconds = time.perf_counter() - started
        result.cpu_bot, result.cpu_bench = bot.cpu - cpu_bot, time.process_time() - cpu_bench
        result.tiles, result.passes = bot.tiles - tiles, bot.passes - passes
    finally:
        counting = False
        for task in list(tasks):
            task.cancel()
        await bot.stop()
        await fake.close()
    return result


# ---------------------------------------------------------------------------- main

RUNNERS: dict[str, Callable[..., Any]] = {"telegram": run_telegram, "discord": run_discord}


async def search(platform: str, counts: list[int], args: argparse.Namespace) -> None:
    print(f"{platform} (time x{args.compress:g}, limits at that scale, render {args.render}):")
    best, natural, bound = 0, args.pace, math.inf
    for n in counts:
        result = await RUNNERS[platform](
            n,
            args.compress,
            args.meta,
            args.seed,
            args.timeout,
            (args.think_min, args.think_max),
            args.render,
        )
        print(result.line(), flush=True)
        print(result.breakdown(), flush=True)
        if args.dump:
            latencies = {"answer": result.answer, "board": result.board, "fetched": result.fetched}
            Path(args.dump.format(platform=platform, n=n)).write_text(json.dumps(latencies))
        # The players' own pace is the first run's (its bot is not yet what slows them),
        # unless given: a run that slows the bot slows its pace, and so raises its bound.
        natural = natural or result.pace
        bound = min(bound, result.bound_at(natural))
        if not result.ok:
            break
        best = n
    print(
        f"  largest N with answer p95 <= {ANSWER_TARGET:g} s and board p95 <= "
        f"{BOARD_TARGET:g} s: {best if best else 'none of those tried'}; the limits allow "
        f"{bound:.0f} tables at the players' own pace ({natural:.1f} moves pressed/min/table): "
        f"{best / bound:.0%} of it",
        flush=True,
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--platform", choices=("telegram", "discord", "both"), default="both")
    parser.add_argument("--tables", default="5,10,20,40", help="the N to try, in order")
    parser.add_argument("--compress", type=float, default=5.0, help="time compression factor")
    parser.add_argument("--meta", type=int, default=50, help="points to win a match")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--timeout", type=float, default=240.0, help="real seconds per run")
    parser.add_argument("--think-min", type=float, default=2.0)
    parser.add_argument("--think-max", type=float, default=6.0)
    parser.add_argument("--render", choices=("stub", "real"), default="stub")
    parser.add_argument(
        "--pace",
        type=float,
        help="moves a minute per table the players press when the bot never holds them up "
        "(for the bound; default: the first run's)",
    )
    parser.add_argument(
        "--dump", help="write each run's latencies (JSON) to this path ({platform}, {n})"
    )
    parser.add_argument("--serve", help=argparse.SUPPRESS)  # the bot's process (JSON config)
    args = parser.parse_args()
    logging.basicConfig(level=logging.CRITICAL)
    if args.serve:
        config = json.loads(args.serve)
        if config["render"] == "stub":
            stub_renders()
        asyncio.run(serve(config))
        return
    counts = [int(n) for n in args.tables.split(",")]
    platforms = ("telegram", "discord") if args.platform == "both" else (args.platform,)
    for platform in platforms:
        asyncio.run(search(platform, counts, args))


if __name__ == "__main__":
    main()
