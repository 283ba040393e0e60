"""``domino run`` end to end (bot/app.py): the real command in a subprocess, Telegram and
Discord both pointed at the local fakes (tests/fake_telegram.py, tests/fake_discord.py)
that run in the test's event loop; a SQLite database in ``tmp_path``.

One match on each platform at the same time, SIGTERM in the middle of a hand (exit 0,
tables snapshotted), a new process that resumes both tables and plays them to the end
(results in the database, balances settled); a refused token or an unreachable platform
is reported once and the other platform keeps playing; no token appears in the log.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
import signal
import sys
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from aiohttp import web
from conftest import wait_until

from engine.records import replay
from storage.sqlite import SqliteStorage
from tests.fake_discord import FakeDiscord, FakeMessage, FakeUser
from tests.fake_telegram import FakeTelegram

TELEGRAM_TOKEN = "777000:AAE-telegram-SECRET-token-for-tests"
DISCORD_TOKEN = "MTIz.discord-SECRET-token.for-tests"
GROUP = -1001234
MOVE = "dm1:m:"


# ---------------------------------------------------------------------------- the process


class BotProcess:
    """``python -m bot.cli run`` with ``env``; its stdout and stderr go to a file (a pipe
    the test stopped reading would freeze the bot on its next log line)."""

    count = 0

    def __init__(self, env: dict[str, str], cwd: Path) -> None:
        self.env = env
        self.cwd = cwd
        BotProcess.count += 1
        self.path = cwd / f"bot-{BotProcess.count}.log"
        self.proc: asyncio.subprocess.Process | None = None

    async def start(self) -> BotProcess:
        with self.path.open("wb") as out:
            self.proc = await asyncio.create_subprocess_exec(
                sys.executable,
                "-m",
                "bot.cli",
                "run",
                env=self.env,
                cwd=self.cwd,
                stdin=asyncio.subprocess.DEVNULL,
                stdout=out,
                stderr=asyncio.subprocess.STDOUT,
            )
        return self

    @property
    def log(self) -> str:
        return self.path.read_text("utf-8", "replace")

    @property
    def lines(self) -> list[str]:
        return self.log.splitlines()

    async def wait_for_line(self, pattern: str, *, timeout: float = 30.0) -> str:
        """The first log line matching the regex ``pattern``."""
        regex = re.compile(pattern)
        assert self.proc is not None
        proc = self.proc

        def found() -> str | bool | None:
            line = next((line for line in self.lines if regex.search(line)), None)
            return line if line is not None else proc.returncode is not None

        try:
            line = await wait_until(found, timeout=timeout, every=0.05)
        except AssertionError:
            raise AssertionError(f"no line /{pattern}/ within {timeout} s:\n{self.log}") from None
        if not isinstance(line, str):
            raise AssertionError(f"exited before /{pattern}/:\n{self.log}")
        return line

    async def stop(self, sig: int = signal.SIGTERM, *, timeout: float = 30.0) -> int:
        """Send ``sig`` and wait for the exit code."""
        assert self.proc is not None
        if self.proc.returncode is None:
            self.proc.send_signal(sig)
        return await self.wait(timeout=timeout)

    async def wait(self, *, timeout: float = 30.0) -> int:
        assert self.proc is not None
        try:
            return await asyncio.wait_for(self.proc.wait(), timeout)
        except TimeoutError:
            self.proc.kill()
            await self.proc.wait()
            raise AssertionError(f"the bot did not exit within {timeout} s") from None

    async def kill(self) -> None:
        if self.proc is not None and self.proc.returncode is None:
            self.proc.kill()
            await self.proc.wait()


def bot_env(tmp_path: Path, **settings: str) -> dict[str, str]:
    """The environment of the bot: ours without any setting of the bot, plus ``settings``."""
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("TELEGRAM_", "DISCORD_", "DOMINO_"))
    }
    env.update(
        {
            "DOMINO_DB": str(tmp_path / "domino.db"),
            "DOMINO_ROBOT_DELAY": "0",
            # no wall-clock pause before a match's first deal or between hands
            "DOMINO_COUNTDOWN_SECONDS": "0",
            "DOMINO_HAND_PAUSE": "0",
            "DOMINO_ROBOT_LEVEL": "novato",
            "DOMINO_LOG_LEVEL": "DEBUG",
            # short leases (defaults 5, 20 and 5 s): a takeover within seconds
            "DOMINO_LEASE_HEARTBEAT_SECONDS": "0.5",
            "DOMINO_LEASE_TAKEOVER_SECONDS": "4",  # 2 s was lost under a loaded CI
            "DOMINO_STANDBY_SECONDS": "0.5",
            # no pacing of Telegram's requests (the fake server has no flood limits)
            "DOMINO_TELEGRAM_BOARD_SPACING": "0",
            "DOMINO_TELEGRAM_PRIVATE_GAP": "0",
            "PYTHONUNBUFFERED": "1",
        }
    )
    env.update(settings)
    return env


def telegram_env(fake: FakeTelegram, token: str = TELEGRAM_TOKEN) -> dict[str, str]:
    return {
        "TELEGRAM_TOKEN": token,
        "TELEGRAM_API_BASE_URL": fake.base_url,
        "TELEGRAM_FILE_BASE_URL": fake.base_file_url,
    }


def discord_env(
    fake: FakeDiscord | None, token: str = DISCORD_TOKEN, **urls: str
) -> dict[str, str]:
    env = {"DISCORD_TOKEN": token}
    if fake is not None:
        env.update(
            {"DISCORD_API_BASE_URL": fake.api_base_url, "DISCORD_GATEWAY_URL": fake.gateway_url}
        )
    env.update(urls)
    return env


@contextlib.asynccontextmanager
async def running(env: dict[str, str], cwd: Path) -> AsyncIterator[BotProcess]:
    process = await BotProcess(env, cwd).start()
    try:
        yield process
    except BaseException:
        quiet = ("httpcore", "aiosqlite", "discord.http", "discord.gateway")
        lines = [line for line in process.lines if not any(q in line for q in quiet)]
        print("--- the bot's log (without the chattiest libraries) ---", *lines[-150:], sep="\n")
        raise
    finally:
        await process.kill()


# ---------------------------------------------------------------------------- the fakes


@pytest.fixture
async def telegram() -> AsyncIterator[FakeTelegram]:
    fake = FakeTelegram(token=TELEGRAM_TOKEN)
    await fake.start()
    yield fake
    await fake.stop()


@pytest.fixture
async def discord_fake() -> AsyncIterator[FakeDiscord]:
    fake = FakeDiscord()
    await fake.start()
    yield fake
    await fake.close()


class TelegramPlayer:
    """A human on the fake Telegram who presses the first move button of the keyboard
    their client shows."""

    def __init__(self, fake: FakeTelegram, user: Any) -> None:
        self.fake = fake
        self.user = user

    def turn(self) -> str | None:
        """The first move button Ana sees now, if her turn keyboard is shown."""
        labels = self.fake.keyboard_labels(self.user)
        return labels[0] if labels else None

    def press(self, label: str) -> int:
        """Press ``label`` (the keyboard hides); returns the index of the next call."""
        mark = len(self.fake.calls)
        self.fake.press_key(self.user, label)
        return mark

    async def answered(self, mark: int, *, timeout: float = 20.0) -> bool:
        """Wait for what the bot did with the press made at ``mark``: True when it was
        played (Ana's next tiles came, or the match ended), False when Ana was told it
        cannot be played (with her keyboard again)."""

        def said() -> list[Any]:
            later = self.fake.calls[mark:]
            return [c for c in later if c.method == "sendMessage" and c.chat_id == self.user.id]

        def shown() -> bool:
            later = self.fake.calls[mark:]
            tiles = any(c.method == "sendPhoto" and c.chat_id == self.user.id for c in later)
            return tiles or self.match_ended() or bool(said())

        await wait_until(shown, timeout=timeout)
        return not said()

    async def played(self, mark: int, *, timeout: float = 20.0) -> None:
        """Wait until the move pressed at ``mark`` was played, and fail if it was not."""
        assert await self.answered(mark, timeout=timeout), "the press was refused"

    async def play(self, moves: int) -> None:
        """Make ``moves`` moves by pressing buttons. A press refused because the table
        moved on under it (a process taking over resumed it from its last save) is
        pressed again from the keyboard that came with the refusal, as a player would."""
        for _ in range(moves):
            for _attempt in range(3):
                label = await wait_until(self.turn)
                if await self.answered(self.press(label)):
                    break
            else:
                raise AssertionError("three presses in a row were refused")

    def match_ended(self) -> bool:
        return any(
            "ganan la partida" in (call.caption() or "")
            for call in self.fake.calls_to("sendPhoto", chat_id=GROUP)
        )

    async def play_to_the_end(self, *, timeout: float = 60.0) -> int:
        presses = 0
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while not self.match_ended():
            left = deadline - loop.time()
            assert left > 0, "the Telegram match did not end"
            label = await wait_until(lambda: self.turn() or self.match_ended(), timeout=left)
            if isinstance(label, str):
                self.press(label)
                presses += 1
        return presses


class DiscordPlayer:
    """A human on the fake Discord who clicks the first move button of their last DM."""

    def __init__(self, fake: FakeDiscord, user: FakeUser, guild: int) -> None:
        self.fake = fake
        self.user = user
        self.guild = guild
        self.pressed: set[str] = set()

    def turn(self) -> tuple[FakeMessage, str] | None:
        message = self.fake.last_dm(self.user)
        if message is None:
            return None
        ids = [i for i in message.custom_ids() if i.startswith(MOVE)]
        if ids and ids[0] not in self.pressed:
            return message, ids[0]
        return None

    async def play(self, moves: int) -> None:
        for _ in range(moves):
            message, custom_id = await wait_until(self.turn)
            self.pressed.add(custom_id)
            inter = await self.fake.click(self.user, message, custom_id)
            await self.fake.answered(inter, timeout=20)
            assert not inter.followups

    def match_ended(self) -> bool:
        channel = self.fake.channel_of(self.guild)
        return any("ganan la partida" in m.content for m in self.fake.messages_in(channel))

    async def play_to_the_end(self, *, timeout: float = 60.0) -> int:
        presses = 0
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while not self.match_ended():
            left = deadline - loop.time()
            assert left > 0, "the Discord match did not end"
            found = await wait_until(lambda: self.turn() or self.match_ended(), timeout=left)
            if found is True:
                continue
            message, custom_id = found
            self.pressed.add(custom_id)
            inter = await self.fake.click(self.user, message, custom_id)
            await self.fake.answered(inter, timeout=20)
            presses += 1
        return presses


async def open_telegram_table(fake: FakeTelegram, user: Any) -> None:
    """``/mesa meta=50 conteo=all robot``: a short match (a domino counts every hand's
    pips, 50 points win) with robots in the three other seats."""
    fake.send_command(fake.groups[GROUP], user, "/mesa meta=50 conteo=all robot")
    await fake.wait_for("sendPhoto", lambda c: c.chat_id == GROUP, timeout=20)


async def open_discord_table(fake: FakeDiscord, admin: FakeUser, guild: int) -> None:
    """The server's admin makes matches short (a domino counts every hand's pips, 50
    points win), then opens a table with robots in the three other seats."""
    await wait_until(lambda: fake.commands.get(None))
    options = {"reglas": "venezolano", "meta": 50, "conteo": "all"}
    config = await fake.slash(admin, guild, "domino-config", options=options)
    await fake.replied(config, timeout=20)
    table = await fake.slash(admin, guild, "domino", "mesa", options={"robots": "all"})
    await fake.replied(table, timeout=20)


# ---------------------------------------------------------------------------- the tests


async def test_both_platforms_play_survive_a_sigterm_mid_hand_and_finish_after_a_restart(
    tmp_path: Path, telegram: FakeTelegram, discord_fake: FakeDiscord
) -> None:
    ana = telegram.add_user(1001, "Ana")
    telegram.add_group(GROUP, "Dominó", admins={1001})
    guild = discord_fake.add_guild("Club")
    beto = discord_fake.add_user("Beto", admin=True)
    env = bot_env(tmp_path, **telegram_env(telegram), **discord_env(discord_fake))
    tg_player = TelegramPlayer(telegram, ana)
    dc_player = DiscordPlayer(discord_fake, beto, guild)
    logs: list[str] = []

    async with running(env, tmp_path) as first:
        await first.wait_for_line(r"hosting telegram, discord")
        await asyncio.gather(
            open_telegram_table(telegram, ana), open_discord_table(discord_fake, beto, guild)
        )
        # Both matches run at once: each human makes two moves; the robots play on until
        # it is Ana's turn again (on Discord the signal comes wherever the robots are).
        await asyncio.gather(tg_player.play(2), dc_player.play(2))
        pending = await wait_until(tg_player.turn)
        assert await first.stop() == 0
        logs.append(first.log)
    assert "every table is saved" in first.log

    db = tmp_path / "domino.db"
    storage = await SqliteStorage.open(db)
    try:
        snapshots = await storage.load_tables()
        assert sorted(s["chat"]["platform"] for s in snapshots) == ["discord", "telegram"]
        for snapshot in snapshots:
            assert snapshot["phase"] == "playing"
            assert snapshot["record"] is not None
    finally:
        await storage.close()

    # Ana presses her button while the bot is down: Telegram keeps the update for it.
    mark = tg_player.press(pending)

    async with running(env, tmp_path) as second:
        await second.wait_for_line(r"hosting telegram, discord")
        await tg_player.played(mark, timeout=30)  # the move was played
        # Each human has a move to make within seconds (robots move at once): nobody
        # waits for a turn timer because the shutdown lost their buttons.
        await asyncio.gather(
            wait_until(tg_player.turn, timeout=15), wait_until(dc_player.turn, timeout=15)
        )
        presses = await asyncio.gather(tg_player.play_to_the_end(), dc_player.play_to_the_end())
        assert all(p > 0 for p in presses)
        await asyncio.sleep(0.5)
        assert await second.stop() == 0
        logs.append(second.log)

    storage = await SqliteStorage.open(db)
    try:
        assert await storage.load_tables() == []
        records = {r.chat.split(":")[0]: r.record for r in await storage.match_records()}
        assert set(records) == {"telegram", "discord"}
        humans = {"telegram": ("1001", "Ana"), "discord": (str(beto.id), "Beto")}
        for platform, (user_id, name) in humans.items():
            match = replay(records[platform])  # the stored record is whole and valid
            assert match.is_over and max(match.score) >= 50
            # The human opened the table: seat 0, team 0. Stake 10; a win pays twice it.
            player = await storage.ensure_player(platform, user_id, name, now=0.0)
            expected = 1010 if match.winner_team == 0 else 990
            assert await storage.balance(player.id) == expected, (platform, match.score)
        assert await storage.check_ledger() == []
    finally:
        await storage.close()
    text = "\n".join(logs)
    assert TELEGRAM_TOKEN not in text and DISCORD_TOKEN not in text
    assert TELEGRAM_TOKEN.split(":")[1] not in text
    # One line per event with table and player ids; a player's tiles never: not in the
    # events, nor in the move buttons the libraries would dump at DEBUG.
    events = [
        line.split(" domino.events: ")[1]
        for line in text.splitlines()
        if " domino.events: " in line
    ]
    assert any(line.startswith("MovePlayed table=") and " move=" in line for line in events)
    tiles_shown = [line for line in events if line.startswith("YourTiles ")]
    assert any(" to=telegram:1001 " in line for line in tiles_shown)
    assert not any(re.search(r"\d-\d", line) for line in tiles_shown)
    assert MOVE not in text


GROUP_PACED = 120.0
"""Seconds to wait for a group message the bot holds back: it keeps to Telegram's 20
messages a minute per group (bot/telegram/sender.py), and a tournament's sign-ups, seats
and results in one group go past that within seconds here."""


async def test_a_tournament_killed_mid_round_resumes_in_the_next_process_and_pays_once(
    tmp_path: Path, telegram: FakeTelegram
) -> None:
    users = [
        telegram.add_user(2001 + i, name) for i, name in enumerate(("Ana", "Beto", "Carla", "Dani"))
    ]
    group = telegram.add_group(GROUP, "Torneos", admins={2001})
    env = bot_env(tmp_path, **telegram_env(telegram))

    def group_said(text: str) -> bool:
        return any(
            text in (c.params.get("text") or c.caption() or "")
            for c in telegram.calls
            if c.chat_id == GROUP and c.method in ("sendMessage", "sendPhoto")
        )

    async with running(env, tmp_path) as first:
        await first.wait_for_line(r"hosting telegram")
        for user in users:
            telegram.send_command(telegram.private_chat(user), user, "/start")
        telegram.send_command(
            group, users[0], "/torneo crear eliminatoria 1v1 cuota=10 nombre=Copa"
        )
        await wait_until(lambda: group_said("Ana abrió Copa"), timeout=30)
        (opened,) = [c for c in telegram.calls if "Ana abrió Copa" in (c.params.get("text") or "")]
        for user in users:  # the "Inscribirme" button: no message of its own in the group
            await telegram.answer_to(telegram.press(user, opened.result, "dmj"))
        telegram.send_command(group, users[0], "/torneo empezar")
        await wait_until(lambda: group_said("Copa · ronda 1"), timeout=30)
        await first.kill()  # kill -9 in the middle of round 1: nothing saved at exit

    async with running(env, tmp_path) as second:
        await second.wait_for_line(r"hosting telegram")
        for user in users:  # each sits at the seat kept for them, then gets up
            telegram.send_command(group, user, "/jugar")
        await asyncio.sleep(1.0)
        for user in users:
            telegram.send_command(group, user, "/levantarse")
        await wait_until(lambda: group_said("Copa · ronda 2"), timeout=GROUP_PACED)
        for user in users:  # the final's two: the others are told they have no table
            telegram.send_command(group, user, "/jugar")
        await asyncio.sleep(1.0)
        for user in users:
            telegram.send_command(group, user, "/levantarse")
        await wait_until(lambda: group_said("Copa terminó."), timeout=GROUP_PACED)
        assert await second.stop() == 0

    storage = await SqliteStorage.open(tmp_path / "domino.db")
    try:
        ids = [(await storage.find_player("telegram", str(u.id))) for u in users]
        balances = [await storage.balance(p.id) for p in ids if p is not None]
        # $40 in fees: 60/30/10, the two out in round 1 sharing the third place's $4
        assert sorted(balances) == [992, 992, 1002, 1014]
        assert await storage.check_ledger() == []
        assert await storage.open_tournament_escrows() == []
        assert await storage.load_tournaments() == []
    finally:
        await storage.close()
    assert (
        sum(
            1
            for c in telegram.calls
            if "Copa terminó." in (c.caption() or c.params.get("text") or "")
        )
        == 1
    )


@contextlib.asynccontextmanager
async def refusing_discord() -> AsyncIterator[str]:
    """A stand-in for Discord on 127.0.0.1 that refuses every token (401 Unauthorized,
    as Discord answers ``GET /users/@me`` with a bad token); yields its API base URL."""

    async def unauthorized(request: web.Request) -> web.Response:
        return web.json_response({"message": "401: Unauthorized", "code": 0}, status=401)

    app = web.Application()
    app.router.add_route("*", "/{tail:.*}", unauthorized)
    runner = web.AppRunner(app, access_log=None)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
    try:
        yield f"http://127.0.0.1:{port}/api/v10"
    finally:
        await runner.cleanup()


async def telegram_table_in_play(db: Path) -> dict[str, Any]:
    """A Telegram table of four robots in the middle of its match, snapshotted in ``db``
    as a stopped bot leaves it; returns the snapshot."""
    from bot.core import ChatRef, TableManager
    from bot.core.clock import ManualClock
    from storage import open_storage

    storage = await open_storage(db)
    try:
        manager = TableManager(storage, clock=ManualClock(time.time()), seed=7)
        await manager.start()
        await manager.open_robot_table(ChatRef("telegram", str(GROUP)), levels=["novato"] * 4)
        await manager.stop()
        (snapshot,) = await storage.load_tables()
        return snapshot
    finally:
        await storage.close()


async def test_a_refused_telegram_token_is_reported_once_and_discord_still_plays(
    tmp_path: Path, telegram: FakeTelegram, discord_fake: FakeDiscord
) -> None:
    bad = "424242:refused-TELEGRAM-token"
    guild = discord_fake.add_guild("Club")
    beto = discord_fake.add_user("Beto")
    env = bot_env(tmp_path, **telegram_env(telegram, bad), **discord_env(discord_fake))
    stored = await telegram_table_in_play(Path(env["DOMINO_DB"]))
    async with running(env, tmp_path) as bot:
        await bot.wait_for_line(r"hosting discord$")
        help_reply = await discord_fake.slash(beto, guild, "domino", "ayuda")
        (answer,) = await discord_fake.replied(help_reply, timeout=20)
        assert "domino" in answer.text().lower()
        assert await bot.stop() == 0
    # Telegram's table was not restored (its robots would have played it to the end
    # within that time): its snapshot waits, untouched, for a start with Telegram.
    storage = await SqliteStorage.open(Path(env["DOMINO_DB"]))
    try:
        assert await storage.load_tables() == [stored]
    finally:
        await storage.close()
    errors = [line for line in bot.lines if " ERROR " in line]
    assert len(errors) == 1, errors
    assert "Telegram: TELEGRAM_TOKEN was refused" in errors[0]
    assert all(c.status == 401 for c in telegram.calls)  # it never got further
    assert bad not in bot.log and bad.split(":")[1] not in bot.log
    assert DISCORD_TOKEN not in bot.log


async def test_a_refused_discord_token_is_reported_once_and_telegram_still_plays(
    tmp_path: Path, telegram: FakeTelegram
) -> None:
    ana = telegram.add_user(1001, "Ana")
    group = telegram.add_group(GROUP, "Dominó")
    async with refusing_discord() as api:
        env = bot_env(
            tmp_path,
            **telegram_env(telegram),
            **discord_env(None, DISCORD_API_BASE_URL=api, DISCORD_GATEWAY_URL="ws://127.0.0.1:9/"),
        )
        async with running(env, tmp_path) as bot:
            await bot.wait_for_line(r"hosting telegram$")
            telegram.send_command(group, ana, "/ayuda")
            answer = await telegram.wait_for("sendMessage", lambda c: c.chat_id == GROUP)
            assert "/jugar" in answer.params["text"]
            assert await bot.stop() == 0
    errors = [line for line in bot.lines if " ERROR " in line]
    assert len(errors) == 1, errors
    assert "Discord: DISCORD_TOKEN was refused" in errors[0]
    assert DISCORD_TOKEN not in bot.log and TELEGRAM_TOKEN not in bot.log


async def test_when_no_platform_can_start_the_bot_says_so_and_exits_1(
    tmp_path: Path, telegram: FakeTelegram
) -> None:
    env = bot_env(tmp_path, **telegram_env(telegram, "1:not-the-token"))
    async with running(env, tmp_path) as bot:
        assert await bot.wait() == 1
    assert "Telegram: TELEGRAM_TOKEN was refused" in bot.log
    assert "no platform could start" in bot.log
    assert "1:not-the-token" not in bot.log


async def test_a_second_bot_on_the_same_database_refuses_to_run_the_tables_the_first_runs(
    tmp_path: Path, telegram: FakeTelegram
) -> None:
    telegram.add_group(GROUP, "Dominó")
    env = bot_env(tmp_path, DOMINO_ROBOT_DELAY="10", **telegram_env(telegram))
    stored = await telegram_table_in_play(Path(env["DOMINO_DB"]))
    async with running(env, tmp_path) as first:
        await first.wait_for_line(r"hosting telegram$")
        async with running(env, tmp_path) as second:
            assert await second.wait() == 1
        assert "another process (" in second.log
        assert "runs the telegram tables on this database" in second.log
        assert "hosting" not in second.log
        assert await first.stop() == 0
    # the table was played by the first bot only, and it is still there for the next start
    storage = await SqliteStorage.open(Path(env["DOMINO_DB"]))
    try:
        [snapshot] = await storage.load_tables()
        assert snapshot["table_id"] == stored["table_id"]
        assert await storage.tables_claim("telegram") is None
        assert await storage.check_ledger() == []
    finally:
        await storage.close()


# ---------------------------------------------------------------- several processes (issue 17)


@contextlib.asynccontextmanager
async def active_and_standby(
    env: dict[str, str], cwd: Path, platform: str = "telegram"
) -> AsyncIterator[tuple[BotProcess, BotProcess]]:
    """Two ``domino run`` on one database: bot-a hosts ``platform``, then bot-b starts,
    finds the lease held and waits as a standby, neither connecting nor playing."""
    async with running({**env, "DOMINO_INSTANCE": "bot-a"}, cwd) as first:
        await first.wait_for_line(rf"hosting {platform}$")
        async with running({**env, "DOMINO_INSTANCE": "bot-b"}, cwd) as second:
            await second.wait_for_line(rf"standby for {platform}: another process \(bot-a:")
            yield first, second


async def telegram_tables_of(dsn: str) -> list[dict[str, Any]]:
    from storage.postgres import PostgresStorage

    storage = await PostgresStorage.open(dsn)
    try:
        return await storage.load_tables()
    finally:
        await storage.close()


def ana_on_postgres(
    telegram: FakeTelegram, tmp_path: Path, dsn: str
) -> tuple[Any, TelegramPlayer, dict[str, str]]:
    """Ana, admin of the group, playing on Telegram; the bots' environment on ``dsn``."""
    ana = telegram.add_user(1001, "Ana")
    telegram.add_group(GROUP, "Dominó", admins={1001})
    return (
        ana,
        TelegramPlayer(telegram, ana),
        bot_env(tmp_path, DOMINO_DB=dsn, **telegram_env(telegram)),
    )


async def one_match_paid_once(dsn: str) -> dict[str, Any]:
    """Check the database after the match: no table left, one record that replays move
    for move (no double move), Ana paid once, the ledger whole; returns the record."""
    from storage.postgres import PostgresStorage

    storage = await PostgresStorage.open(dsn)
    try:
        assert await storage.load_tables() == []
        [stored] = await storage.match_records()
        match = replay(stored.record)
        assert match.is_over and max(match.score) >= 50
        player_row = await storage.ensure_player("telegram", "1001", "Ana", now=0.0)
        assert await storage.balance(player_row.id) == (1010 if match.winner_team == 0 else 990)
        assert await storage.check_ledger() == []
        return stored.record
    finally:
        await storage.close()


async def test_two_processes_on_postgresql_one_killed_mid_hand_the_other_resumes_within_30_s(
    tmp_path: Path, telegram: FakeTelegram, postgres_dsn: str
) -> None:
    import asyncpg

    ana, player, base = ana_on_postgres(telegram, tmp_path, postgres_dsn)
    async with active_and_standby(base, tmp_path) as (first, second):
        await open_telegram_table(telegram, ana)
        await player.play(2)
        label = await wait_until(player.turn)
        [before] = await telegram_tables_of(postgres_dsn)
        moves_before = len(before["record"]["hands"][-1]["moves"])

        await first.kill()  # kill -9 mid-hand: nothing saved, nothing released
        killed_at = time.monotonic()
        mark = player.press(label)  # Telegram keeps it for whoever polls
        await second.wait_for_line(r"telegram: taking over as the active process", timeout=40)
        await player.played(mark, timeout=40)  # her move was played
        took = time.monotonic() - killed_at
        print(f"kill -9 -> the pressed move played by the other process: {took:.1f} s")
        assert took <= 30.0, f"the table resumed {took:.1f} s after the kill"
        assert await player.play_to_the_end(timeout=90) > 0
        await asyncio.sleep(0.5)
        assert await second.stop() == 0
    assert "lost the telegram lease" not in second.log

    record = await one_match_paid_once(postgres_dsn)
    # the hand in play at the kill went on from where the dead process left it
    hand = record["hands"][len(before["record"]["hands"]) - 1]["moves"]
    assert hand[:moves_before] == before["record"]["hands"][-1]["moves"]
    conn = await asyncpg.connect(postgres_dsn)
    try:
        # no dollar lost or created: every account sums to zero with the house; the
        # lease's fencing token went up once for each owner (bot-a, then bot-b) and the
        # second released it when it stopped
        assert await conn.fetchval("SELECT SUM(balance) FROM accounts") == 0
        claim = await conn.fetchrow(
            "SELECT owner, fence FROM table_claims WHERE platform = 'telegram'"
        )
        assert (claim["owner"], claim["fence"]) == ("", 2)
        assert await conn.fetchval("SELECT COUNT(*) FROM matches") == 1
    finally:
        await conn.close()


async def test_a_process_stalled_past_its_lease_is_fenced_out_and_exits_when_it_wakes(
    tmp_path: Path, telegram: FakeTelegram, postgres_dsn: str
) -> None:
    ana, player, base = ana_on_postgres(telegram, tmp_path, postgres_dsn)
    async with active_and_standby(base, tmp_path) as (first, second):
        await open_telegram_table(telegram, ana)
        await player.play(1)
        assert first.proc is not None
        first.proc.send_signal(signal.SIGSTOP)  # a process that hangs, not one that died
        try:
            await second.wait_for_line(r"telegram: taking over as the active process", timeout=40)
            await player.play(2)  # played by the second
        finally:
            woken = len(telegram.calls)
            first.proc.send_signal(signal.SIGCONT)
        # the first wakes up still believing it owns the table: its next write or
        # heartbeat meets the fence; it stops at once, and a supervisor's restart would
        # make it a standby
        assert await first.wait(timeout=30) == 1
        assert "lost the telegram lease to another process" in first.log
        # it dropped its table unsaved and says so, never "every table is saved"
        assert "stopped; 1 tables were left unsaved to the process that took" in first.log
        assert "every table is saved" not in first.log
        # it answered nothing it had fetched before it stopped: Ana's keyboard stays
        told = [c.params.get("text") for c in telegram.calls[woken:] if c.chat_id == ana.id]
        assert "Ahora no tienes mesa: no te espera ninguna jugada." not in told
        assert await player.play_to_the_end(timeout=90) > 0
        await asyncio.sleep(0.5)
        assert await second.stop() == 0

    await one_match_paid_once(postgres_dsn)


async def test_two_processes_split_the_discord_shards_and_a_dm_press_reaches_the_tables_one(
    tmp_path: Path, discord_fake: FakeDiscord, postgres_dsn: str
) -> None:
    from storage.postgres import PostgresStorage

    zero = discord_fake.add_guild("Club Cero", shard=(0, 2))
    one = discord_fake.add_guild("Club Uno", shard=(1, 2))
    beto = discord_fake.add_user("Beto", admin=True)
    base = bot_env(
        tmp_path, DOMINO_DB=postgres_dsn, DISCORD_SHARD_COUNT="2", **discord_env(discord_fake)
    )
    async with (
        running({**base, "DISCORD_SHARD_IDS": "0", "DOMINO_INSTANCE": "bot-0"}, tmp_path) as p0,
        running({**base, "DISCORD_SHARD_IDS": "1", "DOMINO_INSTANCE": "bot-1"}, tmp_path) as p1,
    ):
        await p0.wait_for_line(r"hosting discord$")
        await p1.wait_for_line(r"hosting discord$")
        # a table in the server of shard 1: played by the second process; Beto's move
        # buttons come by DM, whose presses Discord hands to the first (shard 0) only
        await open_discord_table(discord_fake, beto, one)
        player = DiscordPlayer(discord_fake, beto, one)
        await player.play(2)
        assert await player.play_to_the_end(timeout=90) > 0
        await asyncio.sleep(0.5)
        assert await p0.stop() == 0
        assert await p1.stop() == 0
    assert zero != one
    storage = await PostgresStorage.open(postgres_dsn)
    try:
        [stored] = await storage.match_records()
        assert stored.chat == f"discord:{one}"
        assert replay(stored.record).is_over
        assert await storage.check_ledger() == []
    finally:
        await storage.close()
    # every move press reached the first process and was played by the second
    assert "MovePlayed table=" in p1.log
    assert "MovePlayed table=" not in p0.log


async def test_a_standby_takes_discord_over_from_a_killed_process_and_answers_its_servers(
    tmp_path: Path, discord_fake: FakeDiscord, postgres_dsn: str
) -> None:
    guild = discord_fake.add_guild("Club")
    beto = discord_fake.add_user("Beto", admin=True)
    base = bot_env(tmp_path, DOMINO_DB=postgres_dsn, **discord_env(discord_fake))
    async with active_and_standby(base, tmp_path, "discord") as (first, second):
        assert len(discord_fake.identifies) == 1  # the standby did not connect
        await open_discord_table(discord_fake, beto, guild)
        player = DiscordPlayer(discord_fake, beto, guild)
        await player.play(1)
        # killed at Beto's next turn, its buttons out (a press answered but not yet played
        # when killed is lost, and its buttons stay: the test's player never presses one
        # twice, so it would wait for the turn to run out)
        await wait_until(player.turn)
        await first.kill()
        killed_at = time.monotonic()
        await second.wait_for_line(r"discord: taking over as the active process", timeout=40)
        await second.wait_for_line(r"hosting discord$", timeout=40)
        assert time.monotonic() - killed_at <= 30.0
        # the table resumed in the second process: Beto's next buttons come from it
        assert await player.play_to_the_end(timeout=90) > 0
        await asyncio.sleep(0.5)
        assert await second.stop() == 0
    from storage.postgres import PostgresStorage

    storage = await PostgresStorage.open(postgres_dsn)
    try:
        assert await storage.load_tables() == []
        [stored] = await storage.match_records()
        assert replay(stored.record).is_over
        assert await storage.check_ledger() == []
    finally:
        await storage.close()


async def test_a_standby_stops_cleanly_on_sigterm_and_the_active_process_plays_on(
    tmp_path: Path, telegram: FakeTelegram, postgres_dsn: str
) -> None:
    ana, player, base = ana_on_postgres(telegram, tmp_path, postgres_dsn)
    async with active_and_standby(base, tmp_path) as (first, second):
        assert await second.stop() == 0
        assert "stopped; every table is saved" in second.log
        assert "hosting" not in second.log
        await open_telegram_table(telegram, ana)
        await player.play(1)  # the first never noticed
        assert first.proc is not None and first.proc.returncode is None
        assert await first.stop() == 0


async def test_a_short_postgresql_outage_keeps_the_active_process_and_its_standby_running(
    tmp_path: Path,
    telegram: FakeTelegram,
    own_server: Any,
) -> None:
    """Issue 28: the server really stopped and started (``pg_ctl``) shorter than the
    takeover time: the active process keeps its lease (its missed renewals are retried)
    and plays on; the standby waits the outage out instead of exiting."""
    from tests.postgres_server import pg_ctl

    dsn = await own_server.create_database()
    ana, player, base = ana_on_postgres(telegram, tmp_path, dsn)
    base["DOMINO_LEASE_TAKEOVER_SECONDS"] = "8"  # longer than the outage below
    async with active_and_standby(base, tmp_path) as (first, second):
        await open_telegram_table(telegram, ana)
        await player.play(1)
        pg_ctl(own_server, "stop")
        try:
            await first.wait_for_line(r"could not renew the table leases .*; retrying")
            await second.wait_for_line(r"standby for telegram: the database cannot be reached")
        finally:
            pg_ctl(own_server, "start")
        await player.play(1)  # the first still hosts the table after the outage
        assert first.proc is not None and first.proc.returncode is None
        assert second.proc is not None and second.proc.returncode is None
        assert await second.stop() == 0
        assert await first.stop() == 0
    assert "lost the telegram lease" not in first.log
    assert "taking over" not in second.log
    await own_server.drop_database(dsn)


async def test_the_heartbeat_file_is_touched_only_while_the_leases_hold(tmp_path: Path) -> None:
    """``domino doctor --health`` (the image's health check) reads this file: it goes
    stale while the last lease renewal failed (the database unreachable)."""
    from types import SimpleNamespace

    from bot.app import _heartbeat

    for healthy in (False, True):
        path = tmp_path / f"beat-{healthy}"
        stop = asyncio.Event()
        manager = SimpleNamespace(leases=SimpleNamespace(healthy=healthy))
        task = asyncio.create_task(_heartbeat(path, stop, manager))  # type: ignore[arg-type]
        await asyncio.sleep(0.01)
        stop.set()
        await task
        assert path.exists() is healthy


async def test_stopping_logs_what_telegram_still_holds_when_its_server_does_not_answer_in_time(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """SIGTERM's flush waits at most ``DOMINO_STOP_WAIT_SECONDS`` (here 0.01 s), then says
    which kind, which chats and how many sends are left (issue 27.9)."""
    from bot.app import _flush
    from tests.fake_telegram import TelegramWorld

    async with TelegramWorld() as world:
        ana = world.fake.add_user(1001, "Ana")
        group = world.fake.add_group(GROUP, "Dominó")
        await world.table_with_robots(ana, group)
        await world.until_turn(ana)
        gate = world.fake.hold("editMessageMedia", chat_id=GROUP)  # the group board hangs
        mark = len(world.fake.calls)
        world.fake.press_key(ana, world.move_labels(ana)[0])
        await world.fake.drained()
        await world.manager.idle()
        await world.fake.wait_for(
            "editMessageMedia", lambda c: c.chat_id == GROUP, after=mark
        )  # bounds a failure only
        await world.front.drawing.hands.idle()  # her tiles are sent; only the board is not

        with caplog.at_level("WARNING", logger="domino.run"):
            await _flush("telegram", world.front, 0.01)

        lines = [r.getMessage() for r in caplog.records if r.name == "domino.run"]
        assert lines == [f"telegram: stopping with 1 board(s) (chats {GROUP}) still unsent"]
        gate.set()
