"""Logging (bot/logs.py): one line per event, secrets never written."""

from __future__ import annotations

import io
import logging
import re
from collections.abc import Callable, Iterator

import pytest

from bot.core import (
    ChatRef,
    FillWithRobots,
    MovePlayed,
    PlayerRef,
    PlayNow,
    PressButton,
    TableChanged,
    TableManager,
    YourTiles,
)
from bot.core.clock import ManualClock
from bot.logs import QUIET_LIBRARIES, EventLog, RedactingFormatter, setup_logging
from tests.conftest import RecordingPort

TOKEN = "123456:AAE-secret-token"
OTHER = "MTA.discord.secret"


def record(message: str, *args: object, exc: BaseException | None = None) -> logging.LogRecord:
    exc_info = (type(exc), exc, exc.__traceback__) if exc is not None else None
    return logging.LogRecord("httpx", logging.INFO, __file__, 1, message, args, exc_info)


def test_a_secret_in_the_message_or_its_arguments_becomes_stars() -> None:
    formatter = RedactingFormatter([TOKEN, OTHER], fmt="%(name)s: %(message)s")
    line = formatter.format(
        record("POST https://api.telegram.org/bot%s/getMe -> %s", TOKEN, f"x{OTHER}y")
    )
    assert line == "httpx: POST https://api.telegram.org/bot***/getMe -> x***y"


def test_a_secret_in_a_traceback_becomes_stars() -> None:
    try:
        raise RuntimeError(f"login failed for {TOKEN}")
    except RuntimeError as exc:
        line = RedactingFormatter([TOKEN]).format(record("could not start", exc=exc))
    assert "Traceback" in line and "RuntimeError: login failed for ***" in line
    assert TOKEN not in line


def test_a_url_encoded_secret_becomes_stars_too() -> None:
    line = RedactingFormatter([TOKEN]).format(record("GET /bot123456%3AAAE-secret-token/x"))
    assert "123456%3AAAE" not in line and "/bot***/x" in line


def test_the_longer_secret_wins_where_secrets_overlap() -> None:
    formatter = RedactingFormatter(["abc", "abcdef"], fmt="%(message)s")
    assert formatter.format(record("abcdef abc")) == "*** ***"


def test_empty_secrets_change_nothing() -> None:
    formatter = RedactingFormatter(["", ""], fmt="%(message)s")
    assert formatter.format(record("table t1: seat 2 played 6-4")) == (
        "table t1: seat 2 played 6-4"
    )


@pytest.fixture
def root_logging() -> Iterator[None]:
    """Put the root logger back as it was."""
    root = logging.getLogger()
    level, handlers = root.level, list(root.handlers)
    levels = {n: logging.getLogger(n).level for n in ("httpx", *QUIET_LIBRARIES)}
    yield
    for handler in list(root.handlers):
        if handler not in handlers:
            root.removeHandler(handler)
    root.setLevel(level)
    for name, value in levels.items():
        logging.getLogger(name).setLevel(value)


@pytest.mark.usefixtures("root_logging")
def test_setup_logging_writes_one_line_per_event_at_the_level_and_redacts() -> None:
    stream = io.StringIO()
    setup_logging("WARNING", [TOKEN], stream)
    log = logging.getLogger("domino.test")
    log.info("hidden at WARNING")
    log.warning("table %s: token %s", "t1", TOKEN)
    lines = stream.getvalue().splitlines()
    assert len(lines) == 1
    assert lines[0].endswith(" WARNING domino.test: table t1: token ***")


@pytest.mark.usefixtures("root_logging")
def test_setting_up_twice_replaces_the_handler_instead_of_doubling_lines() -> None:
    first, second = io.StringIO(), io.StringIO()
    setup_logging("INFO", [], first)
    setup_logging("INFO", [OTHER], second)
    logging.getLogger("domino.test").info("once %s", OTHER)
    assert first.getvalue() == ""
    assert second.getvalue().count("once ***") == 1


@pytest.mark.usefixtures("root_logging")
def test_request_dumps_of_the_libraries_stay_quiet_even_at_debug() -> None:
    stream = io.StringIO()
    setup_logging("DEBUG", [TOKEN], stream)
    assert logging.getLogger("httpx").getEffectiveLevel() == logging.WARNING
    logging.getLogger("httpx").info("HTTP Request: POST .../bot%s/getUpdates", TOKEN)
    logging.getLogger("telegram.ext.ExtBot").debug("sendPhoto with dm1:m:t:1:3:64l 6-4")
    logging.getLogger("discord.http").debug("POST .../messages with 6-4 buttons")
    logging.getLogger("telegram.ext.Application").info("Application started")
    logging.getLogger("domino.test").debug("debug lines are shown")
    out = stream.getvalue()
    assert "getUpdates" not in out and "6-4" not in out
    assert "Application started" in out and "debug lines are shown" in out


@pytest.mark.usefixtures("root_logging")
def test_discords_voice_warnings_are_dropped_and_its_other_warnings_kept() -> None:
    stream = io.StringIO()
    setup_logging("INFO", [], stream)
    setup_logging("INFO", [], stream)  # set up twice: one filter
    client = logging.getLogger("discord.client")
    client.warning("PyNaCl is not installed, voice will NOT be supported")
    client.warning("davey is not installed, voice will NOT be supported")
    client.warning("Shard ID %s has stopped responding to the gateway.", 0)
    lines = stream.getvalue().splitlines()
    assert len(lines) == 1
    assert lines[0].endswith(
        " WARNING discord.client: Shard ID 0 has stopped responding to the gateway."
    )
    assert len(client.filters) == 1


async def test_every_manager_event_becomes_one_line_with_its_table_and_players(
    make_manager: Callable[..., TableManager], clock: ManualClock, recorder: RecordingPort
) -> None:
    stream = io.StringIO()
    logger = logging.getLogger("domino.events.test")
    handler = logging.StreamHandler(stream)
    handler.setFormatter(logging.Formatter("%(message)s"))
    logger.addHandler(handler)
    logger.setLevel(logging.INFO)
    logger.propagate = False
    try:
        manager = make_manager()
        manager.register("*", EventLog(logger))
        ana = PlayerRef("telegram", "1001", "Ana")
        chat = ChatRef("telegram", "-100")
        reply = await manager.handle(PlayNow(ana, chat))
        assert reply.ok
        await manager.handle(FillWithRobots(ana, chat))
        pressed: set[str] = set()
        for _ in range(50):  # the countdown, the deal, Ana's first moves and the robots'
            if len(recorder.of(MovePlayed)) >= 6:
                break
            turns = [t for t in recorder.of(YourTiles, is_your_turn=True) if t.moves]
            if turns and turns[-1].moves[0].payload not in pressed:
                pressed.add(turns[-1].moves[0].payload)
                assert (await manager.handle(PressButton(ana, turns[-1].moves[0].payload))).ok
                continue
            deadline = clock.next_deadline()
            assert deadline is not None
            await clock.advance(max(0.0, deadline - clock.now()))
        await manager.idle()
        await manager.stop()
    finally:
        logger.removeHandler(handler)
    lines = stream.getvalue().splitlines()
    assert len(lines) == len(recorder.events)
    assert [line.split()[0] for line in lines] == [type(e).__name__ for e in recorder.events]
    table_id = recorder.of(TableChanged)[0].table_id
    assert "PlayerSeated table=" + table_id + " chat=telegram:-100 player=telegram:1001" in (
        stream.getvalue()
    )
    tiles = [line for line in lines if line.startswith("YourTiles ")]
    assert tiles and all(" to=telegram:1001 " in line for line in tiles)
    assert not any(re.search(r"\d-\d", line) for line in tiles)  # no tile of her hand
    played = [line for line in lines if line.startswith("MovePlayed ")]
    assert played and all(re.search(r" move=(\d-\d|pass)", line) for line in played)
