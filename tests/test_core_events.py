"""Replies and refusals (bot.core.events)."""

from __future__ import annotations

from bot.core import PlayerRef, Refusal, RefusalReason, Reply


def test_a_reply_is_ok_unless_it_carries_a_refusal():
    assert Reply().ok
    refusal = Refusal(to=PlayerRef("t", "1", "A"), reason=RefusalReason.STALE)
    assert not Reply(refusal=refusal).ok
    assert RefusalReason("stale") is RefusalReason.STALE
