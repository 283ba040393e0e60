"""A chat's rules (bot.core.chat_rules): the default preset, admins' changes, and what a
player may choose for their own table."""

from __future__ import annotations

import pytest
from core_parts import ANA, CHAT, build_parts

from bot.core import ChatRulesChanged, SetChatRules
from bot.core.events import Refused
from bot.core.vocabulary import RefusalReason
from engine.rules import find_preset


@pytest.fixture
def parts(memory_storage, clock):
    return build_parts(memory_storage, clock)


def admin(preset=None, **overrides) -> SetChatRules:
    return SetChatRules(ANA, CHAT, preset, overrides, is_admin=True)


async def test_a_chat_whose_admins_never_chose_plays_the_managers_default_preset(
    make_manager,
):
    manager = make_manager(default_preset="Español")
    info = await manager.chat_rules(CHAT)
    assert (info.chat, info.preset, info.overrides) == ("test:group-1", "espanol", {})
    assert info.rules == find_preset("espanol")
    assert info.set_by_admins is False


async def test_a_preset_starts_again_from_that_preset(parts):
    await parts.rules.set(admin("venezolano", stake=50, turn_seconds=30))
    reply = await parts.rules.set(admin("dominicano"))
    assert reply.preset == "dominicano"
    info = await parts.rules.of_chat(CHAT)
    assert (info.preset, info.overrides) == ("dominicano", {})
    assert info.rules == find_preset("dominicano")
    assert info.set_by_admins is True


async def test_options_alone_merge_over_the_current_preset_and_options(parts):
    await parts.rules.set(admin("internacional", stake=50))
    await parts.rules.set(admin(turn_seconds=30))
    info = await parts.rules.of_chat(CHAT)
    assert (info.preset, info.overrides) == ("internacional", {"stake": 50, "turn_seconds": 30})
    assert info.rules == find_preset("internacional", stake=50, turn_seconds=30)


async def test_options_alone_on_a_chat_without_rules_merge_over_the_default(parts):
    await parts.rules.set(admin(stake=20))
    info = await parts.rules.of_chat(CHAT)
    assert (info.preset, info.overrides) == ("venezolano", {"stake": 20})


async def test_an_invalid_option_refuses_bad_rules_naming_it_and_stores_nothing(parts):
    with pytest.raises(Refused) as refused:
        await parts.rules.set(admin("venezolano", stake=5000))
    assert refused.value.reason is RefusalReason.BAD_RULES
    assert refused.value.params["option"] == "stake"
    assert refused.value.params["allowed"] == "0..1000"
    with pytest.raises(Refused) as unknown:
        await parts.rules.set(admin(colour="red"))
    assert (unknown.value.reason, unknown.value.params["option"]) == (
        RefusalReason.BAD_RULES,
        "colour",
    )
    assert (await parts.rules.of_chat(CHAT)).set_by_admins is False


async def test_only_admins_change_a_chats_rules(parts):
    with pytest.raises(Refused) as refused:
        await parts.rules.set(SetChatRules(ANA, CHAT, "dominicano", {}, is_admin=False))
    assert refused.value.reason is RefusalReason.NOT_ADMIN
    assert (await parts.rules.of_chat(CHAT)).set_by_admins is False


async def test_a_change_is_announced_to_the_chat(parts):
    await parts.rules.set(admin("venezolano", stake=50))
    changed = (await parts.events()).last(ChatRulesChanged)
    assert (changed.chat, changed.by, changed.preset) == (CHAT, ANA, "venezolano")
    assert changed.overrides == {"stake": 50}
    assert changed.rules == find_preset("venezolano", stake=50)


async def test_a_player_chooses_any_preset_and_options_while_admins_never_chose(parts):
    rules = await parts.rules.for_table(CHAT, "internacional", {"stake": 0})
    assert rules == find_preset("internacional", stake=0)
    assert await parts.rules.for_table(CHAT, None, {}) == find_preset("venezolano")


async def test_players_may_change_only_the_timers_once_admins_set_rules(parts):
    await parts.rules.set(admin("dominicano", stake=50))
    rules = await parts.rules.for_table(CHAT, None, {"turn_seconds": 20, "forced_move_seconds": 2})
    assert rules == find_preset("dominicano", stake=50, turn_seconds=20, forced_move_seconds=2)
    same_preset = await parts.rules.for_table(CHAT, "Dominicano", {"turn_seconds": 20})
    assert same_preset == find_preset("dominicano", stake=50, turn_seconds=20)
    with pytest.raises(Refused) as stake:
        await parts.rules.for_table(CHAT, None, {"stake": 0})
    assert (stake.value.reason, stake.value.params) == (
        RefusalReason.RULES_LOCKED,
        {"option": "stake"},
    )
    with pytest.raises(Refused) as preset:
        await parts.rules.for_table(CHAT, "venezolano", {})
    assert (preset.value.reason, preset.value.params) == (
        RefusalReason.RULES_LOCKED,
        {"option": "preset"},
    )


async def test_a_players_bad_timer_is_refused_bad_rules(parts):
    with pytest.raises(Refused) as refused:
        await parts.rules.for_table(CHAT, None, {"turn_seconds": 5})
    assert (refused.value.reason, refused.value.params["option"]) == (
        RefusalReason.BAD_RULES,
        "turn_seconds",
    )


async def test_a_refusal_of_bad_rules_names_every_bad_option_and_stores_nothing(parts):
    """Issue 13, item 13: only the first error was reported."""
    with pytest.raises(Refused) as refused:
        await parts.rules.set(admin(target=7, counting="all", turn_seconds="abc", stake=99999))
    assert refused.value.reason is RefusalReason.BAD_RULES
    assert refused.value.params["options"] == "target turn_seconds stake"
    assert refused.value.params["option"] == "target"
    assert (await parts.rules.of_chat(CHAT)).set_by_admins is False


async def test_the_language_its_admins_chose_is_every_commands_chat_language_and_leaves_the_rules(
    make_manager,
):
    """Issue 13, item 12: one precedence rule: the admins' choice, else the front end's."""
    from dataclasses import replace

    from bot.core import PlayNow

    manager = make_manager()
    reply = await manager.handle(SetChatRules(ANA, CHAT, is_admin=True, language="en"))
    assert reply.ok
    info = await manager.chat_rules(CHAT)
    assert (info.language, info.set_by_admins) == ("en", False)
    seated = await manager.handle(PlayNow(ANA, replace(CHAT, language="es")))
    assert seated.ok
    state = manager.table_state(seated.table_id)
    assert state is not None and state.chat.language == "en"
    await manager.handle(SetChatRules(ANA, CHAT, is_admin=True, language="es"))
    state = manager.table_state(seated.table_id)
    assert state is not None and state.chat.language == "es"  # live tables follow
    bad = await manager.handle(SetChatRules(ANA, CHAT, is_admin=True, language="fr"))
    assert bad.refusal is not None and bad.refusal.reason is RefusalReason.BAD_RULES
    assert (await manager.chat_rules(CHAT)).language == "es"
