"""Player and chat references (bot.core.commands): who and where a command is."""

from __future__ import annotations

from bot.core import ChatRef, PlayerRef


def test_the_chat_key_is_what_storage_uses_and_the_place_includes_channel_and_topic():
    chat = ChatRef("discord", "98765", channel_id="111")
    assert chat.key == "discord:98765"
    assert chat.place != ChatRef("discord", "98765", channel_id="222").place
    assert ChatRef("telegram", "-100", thread_id="7").key == "telegram:-100"


def test_a_player_is_known_by_platform_and_user_id_whatever_their_name():
    assert PlayerRef("telegram", "5", "Ana").key == PlayerRef("telegram", "5", "Ana M.", "en").key
    assert PlayerRef("telegram", "5", "Ana").key != PlayerRef("discord", "5", "Ana").key
