"""Who a web page belongs to (bot/web/auth.py): Mini App initData, seat and spectator links."""

from __future__ import annotations

import pytest
from web_support import sign_init_data

from bot.core import PlayerRef
from bot.web.auth import (
    INIT_DATA_MAX_AGE,
    SEAT_LINK_MAX_AGE,
    AuthError,
    AuthFailure,
    WebAuth,
    link_secret,
)

TOKEN = "123456:TEST-TOKEN"
NOW = 1_796_083_200.0
# A known vector: initData for user 42 "Ana Pérez", signed with TOKEN (Telegram's
# algorithm, computed once by hand from the documentation and pinned here).
KNOWN = (
    "auth_date=1796083200&query_id=AAHdF6IQAAAAAN0XohDhrOrc&start_param=t1&user=%7B%22id"
    "%22%3A42%2C%22first_name%22%3A%22Ana%22%2C%22last_name%22%3A%22P%C3%A9rez%22%2C%22"
    "language_code%22%3A%22es%22%7D"
    "&hash=6d3a0d8a4f6ab876fe5092b0ffb206cfbbb5fba1e9353ab6729673d759b7fa92"
)
ANA = PlayerRef("discord", "77", "Ana", "en")


def auth(now: float = NOW, token: str | None = TOKEN) -> WebAuth:
    return WebAuth(telegram_token=token, secret=link_secret(TOKEN), clock=lambda: now)


def failure(call: object) -> AuthFailure:
    with pytest.raises(AuthError) as caught:
        call()  # type: ignore[operator]
    return caught.value.failure


def test_a_known_init_data_vector_names_its_telegram_user_and_table() -> None:
    seat = auth().telegram(KNOWN)
    assert seat.player == PlayerRef("telegram", "42", "Ana Pérez", "es")
    assert seat.table_id == "t1"


def test_init_data_signed_with_another_token_is_forged() -> None:
    forged = sign_init_data("999:OTHER", user_id=42, first_name="Ana", auth_date=NOW)
    assert failure(lambda: auth().telegram(forged)) is AuthFailure.FORGED


def test_init_data_with_a_changed_field_is_forged() -> None:
    tampered = KNOWN.replace("start_param=t1", "start_param=t2")
    assert failure(lambda: auth().telegram(tampered)) is AuthFailure.FORGED
    assert failure(lambda: auth().telegram("")) is AuthFailure.FORGED
    assert failure(lambda: auth().telegram("no=hash")) is AuthFailure.FORGED


def test_init_data_older_than_a_day_has_expired() -> None:
    assert auth(NOW + INIT_DATA_MAX_AGE).telegram(KNOWN).table_id == "t1"
    late = auth(NOW + INIT_DATA_MAX_AGE + 1)
    assert failure(lambda: late.telegram(KNOWN)) is AuthFailure.EXPIRED


def test_without_a_telegram_token_every_init_data_is_refused() -> None:
    assert failure(lambda: auth(token=None).telegram(KNOWN)) is AuthFailure.FORGED


def test_fresh_init_data_from_the_test_signer_is_accepted_in_english() -> None:
    data = sign_init_data(TOKEN, user_id=5, first_name="Bob", auth_date=NOW, language="en-US")
    seat = auth().telegram(data)
    assert seat.player == PlayerRef("telegram", "5", "Bob", "en")
    assert seat.table_id is None


def test_a_seat_link_opens_its_table_as_its_player_until_it_expires() -> None:
    token = auth().seat_link(ANA, "t9")
    assert auth(NOW + SEAT_LINK_MAX_AGE).seat(token).player == ANA
    assert auth().seat(token).table_id == "t9"
    late = auth(NOW + SEAT_LINK_MAX_AGE + 1)
    assert failure(lambda: late.seat(token)) is AuthFailure.EXPIRED


def test_a_seat_link_changed_by_one_character_or_signed_by_another_key_is_forged() -> None:
    token = auth().seat_link(ANA, "t9")
    flipped = token[:-1] + ("A" if token[-1] != "A" else "B")
    assert failure(lambda: auth().seat(flipped)) is AuthFailure.FORGED
    other = WebAuth(telegram_token=None, secret=b"another key", clock=lambda: NOW)
    assert failure(lambda: other.seat(token)) is AuthFailure.FORGED
    assert failure(lambda: auth().seat("")) is AuthFailure.MALFORMED
    assert failure(lambda: auth().seat("x" * 2000)) is AuthFailure.MALFORMED


def test_a_spectator_link_is_not_a_seat_link() -> None:
    watch = auth().watch_link("t9")
    assert auth(NOW + 10 * SEAT_LINK_MAX_AGE).watch(watch).table_id == "t9"
    assert auth().watch(watch).player is None
    assert failure(lambda: auth().seat(watch)) is AuthFailure.FORGED
    seat = auth().seat_link(ANA, "t9")
    assert failure(lambda: auth().watch(seat)) is AuthFailure.FORGED


def test_the_link_key_is_the_configured_secret_or_derived_from_the_tokens() -> None:
    assert link_secret(TOKEN, configured="s3cret") == b"s3cret"
    assert link_secret(TOKEN, None) == link_secret(TOKEN)
    assert link_secret(TOKEN) != link_secret("other")
    assert len(link_secret(TOKEN)) == 32
    with pytest.raises(ValueError, match="DOMINO_WEB_SECRET"):
        link_secret(None, None)
