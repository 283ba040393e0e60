"""The link commands in the core (bot/core/links.py, issue 33; docs/players.md): a code
given on one platform and accepted on the other makes one player; refusals change
nothing; a seated identity cannot link; unlinking leaves the wallet with the other."""

from __future__ import annotations

from collections.abc import Callable

from conftest import RecordingPort
from test_manager import seat_with_robots

from bot.core import (
    AcceptLinkCode,
    ChatRef,
    GiveLinkCode,
    LinkInfo,
    MatchStarted,
    OpenTable,
    PlayerRef,
    RefusalReason,
    TableManager,
    Unlink,
)
from bot.core.clock import ManualClock
from storage.base import LINK_CODE_ALPHABET, LINK_CODE_LENGTH, LINK_CODE_SECONDS, Storage

ANA_T = PlayerRef("telegram", "1", "Ana")
ANA_D = PlayerRef("discord", "9", "Ana D")
GROUP = ChatRef("telegram", "-100")


async def code_of(manager: TableManager, player: PlayerRef = ANA_T) -> str:
    reply = await manager.handle(GiveLinkCode(player))
    assert reply.link is not None
    return reply.link.code


async def test_a_code_is_six_plain_characters_for_ten_minutes_to_give_on_the_other_platform(
    make_manager: Callable[..., TableManager],
) -> None:
    reply = await make_manager().handle(GiveLinkCode(ANA_T))
    assert reply.link is not None
    assert reply.link == LinkInfo(code=reply.link.code, minutes=10, platform="discord")
    assert len(reply.link.code) == LINK_CODE_LENGTH
    assert set(reply.link.code) <= set(LINK_CODE_ALPHABET)


async def test_a_telegram_code_accepted_on_discord_makes_one_wallet(
    make_manager: Callable[..., TableManager], memory_storage: Storage
) -> None:
    manager = make_manager()
    assert [await manager.balance(ANA_T), await manager.balance(ANA_D)] == [1000, 1000]
    code = await code_of(manager)
    reply = await manager.handle(AcceptLinkCode(ANA_D, code.lower()))
    assert (reply.refusal, reply.link) == (None, LinkInfo(platform="telegram", balance=2000))
    assert [await manager.balance(ANA_T), await manager.balance(ANA_D)] == [2000, 2000]
    assert await manager.player_id(ANA_T) == await manager.player_id(ANA_D)
    assert await memory_storage.check_ledger() == []


async def test_bad_codes_are_refused_with_their_reason_and_nothing_changes(
    make_manager: Callable[..., TableManager], clock: ManualClock
) -> None:
    manager = make_manager()
    code = await code_of(manager)
    wrong = await manager.handle(AcceptLinkCode(ANA_D, "ZZZZZZ"))
    own = await manager.handle(AcceptLinkCode(ANA_T, code))
    await clock.advance(LINK_CODE_SECONDS)
    late = await manager.handle(AcceptLinkCode(ANA_D, code))
    assert [r.refusal.reason for r in (wrong, own, late) if r.refusal is not None] == [
        RefusalReason.LINK_UNKNOWN_CODE,
        RefusalReason.LINK_SAME_PLATFORM,
        RefusalReason.LINK_EXPIRED_CODE,
    ]
    assert own.refusal is not None and own.refusal.params == {"platform": "telegram"}
    assert [await manager.balance(ANA_T), await manager.balance(ANA_D)] == [1000, 1000]
    fresh = await code_of(manager)
    assert (await manager.handle(AcceptLinkCode(ANA_D, fresh))).ok
    used = await manager.handle(AcceptLinkCode(ANA_D, fresh))
    assert used.refusal is not None and used.refusal.reason is RefusalReason.LINK_USED_CODE


async def test_a_seated_identity_cannot_link_or_unlink(
    make_manager: Callable[..., TableManager],
) -> None:
    manager = make_manager()
    code = await code_of(manager)
    assert (await manager.handle(OpenTable(ANA_T, GROUP))).ok
    seated = await manager.handle(AcceptLinkCode(ANA_D, code))
    assert seated.refusal is not None and seated.refusal.reason is RefusalReason.LINK_SEATED
    leaving = await manager.handle(Unlink(ANA_T))
    assert leaving.refusal is not None and leaving.refusal.reason is RefusalReason.LINK_SEATED


async def test_unlinking_keeps_the_wallet_on_the_other_platform_and_starts_this_one_at_zero(
    make_manager: Callable[..., TableManager], memory_storage: Storage
) -> None:
    manager = make_manager()
    await manager.handle(AcceptLinkCode(ANA_D, await code_of(manager)))
    reply = await manager.handle(Unlink(ANA_D))
    assert (reply.refusal, reply.link) == (None, LinkInfo(platform="telegram", balance=0))
    assert [await manager.balance(ANA_T), await manager.balance(ANA_D)] == [2000, 0]
    again = await manager.handle(Unlink(ANA_D))
    assert again.refusal is not None and again.refusal.reason is RefusalReason.LINK_NOT_LINKED
    assert await memory_storage.check_ledger() == []


async def test_the_terminal_cannot_link(make_manager: Callable[..., TableManager]) -> None:
    reply = await make_manager().handle(GiveLinkCode(PlayerRef("terminal", "local", "Yo")))
    assert reply.refusal is not None
    assert (reply.refusal.reason, reply.refusal.params) == (
        RefusalReason.LINK_NOT_LINKABLE,
        {"platform": "terminal"},
    )


async def two_processes_after_a_link(
    make_manager: Callable[..., TableManager], *, listening: bool
) -> tuple[TableManager, TableManager]:
    """Telegram's process and Discord's, on one database: Ana's Telegram player is the
    older; Discord's process knows her Discord player; Discord gives the code and
    Telegram accepts it, so the Discord player Discord's process knows is merged away."""
    on_telegram, on_discord = make_manager(), make_manager()
    if listening:
        await on_telegram.start(platforms=None)
        await on_discord.start(platforms=None)
    await on_telegram.player_id(ANA_T)
    assert await on_discord.balance(ANA_D) == 1000
    reply = await on_telegram.handle(AcceptLinkCode(ANA_T, await code_of(on_discord, ANA_D)))
    assert reply.link == LinkInfo(platform="discord", balance=2000)
    return on_telegram, on_discord


async def test_another_process_hears_of_a_link_and_shows_the_one_wallet_at_once(
    make_manager: Callable[..., TableManager],
) -> None:
    on_telegram, on_discord = await two_processes_after_a_link(make_manager, listening=True)
    assert await on_discord.balance(ANA_D) == 2000
    assert await on_discord.player_id(ANA_D) == await on_telegram.player_id(ANA_T)


async def test_a_process_that_missed_the_notice_still_stakes_from_the_one_wallet(
    make_manager: Callable[..., TableManager],
    clock: ManualClock,
    memory_storage: Storage,
    recorder: RecordingPort,
) -> None:
    on_telegram, on_discord = await two_processes_after_a_link(make_manager, listening=False)
    merged = await on_discord.player_id(ANA_D)  # its cache: the merged player
    survivor = await on_telegram.player_id(ANA_T)
    assert merged != survivor
    table_id = await seat_with_robots(on_discord, clock, ANA_D, ChatRef("discord", "guild-1"))
    [started] = [e for e in recorder.events if isinstance(e, MatchStarted)]
    assert started.table_id == table_id
    assert started.stakes == {survivor: 10}
    stake = 10
    assert await memory_storage.balance(survivor) == 2000 - stake
    assert await memory_storage.balance(merged) == 0
    assert await on_discord.player_id(ANA_D) == survivor
    assert await memory_storage.check_ledger() == []
