"""Button payloads (bot.core.buttons): what the core encodes decodes to the same press,
and anything else is forged."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.core import EMOTES, ForgedPress, Press, decode_press, encode_action, encode_press
from engine.moves import PASS, Move, Side
from engine.tiles import ALL_TILES

TABLE_IDS = st.text(alphabet="0123456789abcdefghijklmnopqrstuvwxyz", min_size=1, max_size=16)
CODES = st.sampled_from(
    ["p"]
    + [Move(t).code() for t in ALL_TILES]
    + [Move(t, side).code() for t in ALL_TILES for side in Side]
)


@settings(max_examples=60)
@given(TABLE_IDS, st.integers(0, 999_999), st.integers(0, 999_999), CODES)
def test_a_move_payload_decodes_to_what_was_encoded_and_fits_telegram(table, hand, move, code):
    payload = encode_press(table, hand, move, code)
    assert len(payload.encode()) <= 64  # Telegram's callback data limit (Discord: 100)
    assert decode_press(payload) == Press("move", table, hand, move, code)


def test_every_table_button_round_trips():
    assert decode_press(encode_action("sit", "t1", 2)) == Press("sit", "t1", 0, 0, "2")
    assert decode_press(encode_action("sit", "t1")) == Press("sit", "t1", 0, 0, "")
    for name in EMOTES:
        assert decode_press(encode_action("emote", "t1", name)).code == name
    for kind in ("robots", "tiles", "back", "leave", "again"):
        assert decode_press(encode_action(kind, "abc")).kind == kind


@pytest.mark.parametrize(
    "payload",
    [
        "",
        "hello",
        "dm2:m:abc:1:1:64",  # another version
        "dm1:z:abc:",  # unknown kind
        "dm1:m:abc:1:1:a4",  # no such tile
        "dm1:m:abc:1:1:dd",  # no such draw
        "dm1:m:abc:1:1:64x",  # no such side
        "dm1:m:abc:-1:1:64",  # negative number
        "dm1:m:abc:01:1:64",  # numbers are written plainly
        "dm1:m:abc:1:1",  # missing the code
        "dm1:m:abc:1:1:64:extra",
        "dm1:m:ABC:1:1:64",  # table ids are lower case
        "dm1:m::1:1:64",
        "dm1:s:abc:4",  # seats are 0..3
        "dm1:e:abc:insult",  # not an emote
        "dm1:m:" + "a" * 60 + ":1:1:64",  # too long
    ],
)
def test_a_payload_this_bot_did_not_make_is_forged(payload):
    with pytest.raises(ForgedPress):
        decode_press(payload)


def test_a_payload_that_is_not_text_is_forged():
    with pytest.raises(ForgedPress):
        decode_press(b"dm1:m:abc:1:1:64")
    with pytest.raises(ForgedPress):
        decode_press(None)


def test_encoding_refuses_what_it_could_not_decode():
    with pytest.raises(ValueError):
        encode_press("Bad Id", 1, 1, "64")
    with pytest.raises(ValueError):
        encode_action("move", "abc")
    with pytest.raises(ValueError):
        encode_action("emote", "abc", "nope")


def test_a_move_code_from_a_payload_is_an_engine_move_code():
    press = decode_press(encode_press("abc", 1, 3, "p"))
    assert Move.from_code(press.code) == PASS


@pytest.mark.parametrize("code", ["d", "98r", "77", "90l"])
def test_a_draw_and_a_double_nine_tile_are_move_codes(code):
    """A draw (``d``) and the tiles of double-nine (rules.md, "Formats"); whether the
    table plays them is the table's to say."""
    assert decode_press(encode_press("abc", 1, 1, code)).code == code


# ---------------------------------------------------------------------- friends (issue 33)


def test_a_friends_payload_reads_back_as_its_action_and_argument():
    from bot.core import FriendAction, FriendPressed, decode_friend, encode_friend

    assert encode_friend(FriendAction.ACCEPT, 42) == "dmf:a:42"
    assert decode_friend("dmf:a:42") == FriendPressed(FriendAction.ACCEPT, "42")
    assert decode_friend("dmf:d:7").player_id == 7
    assert decode_friend(encode_friend(FriendAction.SIT, "k3x9ab")) == FriendPressed(
        FriendAction.SIT, "k3x9ab"
    )


@pytest.mark.parametrize(
    "payload", [None, "", "dmf:a:", "dmf:a:0", "dmf:a:abc", "dmf:x:1", "dm1:a:1", "dmf:i:A-B"]
)
def test_a_payload_that_is_not_a_friends_button_of_ours_is_forged(payload):
    from bot.core import decode_friend

    with pytest.raises(ForgedPress):
        decode_friend(payload)


def test_encoding_a_friends_payload_refuses_what_it_could_not_decode():
    from bot.core import FriendAction, encode_friend

    with pytest.raises(ValueError, match="cannot encode"):
        encode_friend(FriendAction.ACCEPT, "ana")


def test_a_report_button_carries_its_action_number_and_chat_both_ways() -> None:
    from bot.core import ModerationAction, ModerationPress, decode_moderation, encode_moderation

    payload = encode_moderation(ModerationAction.BAN, 12, "-1001234567890")
    assert payload == "dmm:b:12:-1001234567890"
    assert decode_moderation(payload) == ModerationPress(ModerationAction.BAN, 12, "-1001234567890")
    assert decode_moderation("dmm:d:1:1200000000000000003") == ModerationPress(
        ModerationAction.DISMISS, 1, "1200000000000000003"
    )
    for forged in (
        "dmm:x:1:5",
        "dmm:b:0:5",
        "dmm:b:1:",
        "dmm:b:1:5:6",
        None,
        "dmm:b:1:" + "9" * 60,
    ):
        assert decode_moderation(forged) is None
    with pytest.raises(ValueError):
        encode_moderation(ModerationAction.UNBAN, 1, "5")
