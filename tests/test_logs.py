"""Logging (bot/logs.py): one line per event, secrets never written."""

from __future__ import annotations

import io
import logging
from collections.abc import Iterator

import pytest

from bot.logs import RedactingFormatter, setup_logging

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
    levels = {n: logging.getLogger(n).level for n in ("httpx", "discord.gateway")}
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
def test_request_urls_of_http_clients_stay_quiet_even_at_debug() -> None:
    stream = io.StringIO()
    setup_logging("DEBUG", [TOKEN], stream)
    assert logging.getLogger("httpx").getEffectiveLevel() == logging.WARNING
    logging.getLogger("httpx").info("HTTP Request: POST .../bot%s/getUpdates", TOKEN)
    logging.getLogger("domino.test").debug("debug lines are shown")
    assert "getUpdates" not in stream.getvalue()
    assert "debug lines are shown" in stream.getvalue()
