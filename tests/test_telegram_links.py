"""Deep-link payloads and /config callback data: made strictly, read strictly."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.telegram.links import (
    ConfigPress,
    JoinLink,
    decode_config,
    decode_start,
    deep_link,
    encode_config,
    encode_start,
)

LINKS = st.builds(
    JoinLink,
    chat_id=st.integers(-(10**15), -1),
    thread_id=st.none() | st.integers(1, 10**9),
    table_id=st.none() | st.from_regex(r"[0-9a-z]{1,16}", fullmatch=True),
    seat=st.none() | st.integers(0, 3),
).filter(lambda link: link.table_id is not None or link.seat is None)


@settings(max_examples=60, deadline=None)
@given(LINKS)
def test_every_join_link_reads_back_as_itself_within_telegrams_limits(link: JoinLink) -> None:
    payload = encode_start(link)
    assert len(payload) <= 64
    assert all(c.isalnum() or c in "_-" for c in payload)
    assert decode_start(payload) == link


@settings(max_examples=80, deadline=None)
@given(st.text(max_size=80))
def test_random_text_is_never_read_as_a_join_link_unless_it_is_exactly_one(text: str) -> None:
    link = decode_start(text)
    if link is not None:
        assert encode_start(link) == text


@pytest.mark.parametrize(
    "payload",
    [
        "",
        "j_",
        "j_abc",
        "s_-100_table_9",
        "s_-100_TABLE_1",
        "x_-100",
        "j_-100_0",
        "j_-100 ",
        None,
        5,
    ],
)
def test_malformed_start_payloads_are_refused(payload: object) -> None:
    assert decode_start(payload) is None


def test_a_deep_link_opens_the_bot_with_its_payload() -> None:
    payload = encode_start(JoinLink(-100123, 5, "ab12", 2))
    assert payload == "s_-100123_ab12_2_5"
    assert deep_link("domino_bot", payload) == "https://t.me/domino_bot?start=s_-100123_ab12_2_5"


def test_config_presses_read_back_and_anything_else_is_refused() -> None:
    assert decode_config(encode_config("preset", "dominicano")) == ConfigPress(
        "preset", "dominicano"
    )
    assert decode_config(encode_config("option", "turn_seconds")) == ConfigPress(
        "option", "turn_seconds"
    )
    assert decode_config(encode_config("close")) == ConfigPress("close")
    for data in (
        "dmc:",
        "dmc:p:",
        "dmc:p:Dominicano",
        "dmc:o:x y",
        "dm1:m:a:1:1:p",
        "dmc:x:1",
        None,
    ):
        assert decode_config(data) is None
    with pytest.raises(ValueError):
        encode_config("preset", "no such preset!")


def test_top_switches_read_back_exactly_fit_64_bytes_and_anything_else_is_refused() -> None:
    from bot.core import Ranking
    from bot.telegram.links import TopPress, decode_top, encode_top

    for ranking in Ranking:
        for everyone in (False, True):
            for format in ("", "uno-contra-uno", "individual", "cubano"):
                press = TopPress(ranking.value, everyone, format)
                data = encode_top(press)
                assert len(data.encode()) <= 64
                assert decode_top(data) == press
    assert encode_top(TopPress("rating", False, "cubano")) == "dmt:r:c:cubano"
    for forged in (
        "dmt:r:c:trio",
        "dmt:z:c",
        "dmt:r:x",
        "dmt:r:c:1",
        "dmt:r",
        "dmc:x",
        "",
        None,
        7,
        "dmt:r:c" * 20,
    ):
        assert decode_top(forged) is None
