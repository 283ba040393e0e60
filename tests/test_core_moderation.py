"""Mute, report and moderation in the core (bot/core/moderation.py, issue 33): a mute
hides the muted player's phrases, a report reaches the admins with the match it is
about, admins dismiss, ban (a seat refused; at a live table a robot at the end of the
hand, the stake forfeited) and unban, every action logged; the chip-dumping flags."""

from __future__ import annotations

import json
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from conftest import RecordingPort, run_table

from bot.core import (
    BanPlayer,
    ChatRef,
    CollusionFlag,
    DismissReport,
    Emote,
    EmoteShown,
    FillWithRobots,
    ModerationAction,
    Mute,
    PlayerRef,
    PlayNow,
    RefusalReason,
    Reply,
    ReportFiled,
    ReportPlayer,
    ReportReason,
    SeatAbandoned,
    TableManager,
    UnbanPlayer,
)
from bot.core.clock import ManualClock
from bot.core.moderation import ChipFlow, accuracy_drop_flags, chip_dumping_flags
from bot.core.vocabulary import AwayReason
from bot.present.screens import EmoteScreen, Reader, screens
from storage.base import PlayerResult, StakedResult, Storage

CHAT = ChatRef("test", "-100")
ANA = PlayerRef("test", "1", "Ana")
BETO = PlayerRef("test", "2", "Beto")
ADMIN = PlayerRef("test", "9", "Admin")
RECORD = {"rules": {"preset": "venezolano", "target": 100}, "hands": [{"moves": ["6-6"]}]}


def _reason(reply: Reply) -> RefusalReason | None:
    return None if reply.refusal is None else reply.refusal.reason


async def _table_of_two(manager: TableManager) -> str:
    """Ana and Beto at one table of this chat, still seating."""
    first = await manager.handle(PlayNow(ANA, CHAT))
    assert (await manager.handle(PlayNow(BETO, CHAT))).table_id == first.table_id
    assert first.table_id is not None
    return first.table_id


# ------------------------------------------------------------------ mute


async def test_a_muted_players_phrase_carries_who_muted_them_and_no_chat_shows_it(
    make_manager: Callable[..., TableManager], recorder: RecordingPort
) -> None:
    manager = make_manager()
    await manager.start()
    table_id = await _table_of_two(manager)
    assert (await manager.handle(Mute(ANA, BETO))).ok
    assert (await manager.handle(Emote(BETO, "buena", CHAT, table_id))).ok
    await manager.idle()
    muted = recorder.last(EmoteShown)
    assert muted.muted_by == frozenset({ANA.key})
    assert screens(muted, Reader("es")) == []
    assert screens(muted, Reader("es", me=ANA)) == []
    assert [type(s) for s in screens(muted, Reader("es", me=BETO))] == [EmoteScreen]
    await manager.handle(Emote(ANA, "buena", CHAT, table_id))  # Ana is not muted by Beto
    await manager.idle()
    assert recorder.last(EmoteShown).muted_by == frozenset()
    await manager.stop()


async def test_an_unmuted_players_phrase_reaches_the_chat_again(
    make_manager: Callable[..., TableManager], recorder: RecordingPort, clock: ManualClock
) -> None:
    manager = make_manager()
    await manager.start()
    table_id = await _table_of_two(manager)
    await manager.handle(Mute(ANA, BETO))
    assert (await manager.handle(Mute(ANA, BETO, mute=False))).ok
    await manager.handle(Emote(BETO, "gracias", CHAT, table_id))
    await manager.idle()
    shown = recorder.last(EmoteShown)
    assert shown.muted_by == frozenset()
    (screen,) = screens(shown, Reader("es"))
    assert isinstance(screen, EmoteScreen)
    await manager.stop()


async def test_muting_yourself_is_refused(make_manager: Callable[..., TableManager]) -> None:
    manager = make_manager()
    assert _reason(await manager.handle(Mute(ANA, ANA))) is RefusalReason.SELF_REPORT


# ------------------------------------------------------------------ report


async def test_a_report_reaches_the_admins_with_the_table_the_two_share(
    make_manager: Callable[..., TableManager], recorder: RecordingPort
) -> None:
    manager = make_manager()
    await manager.start()
    table_id = await _table_of_two(manager)
    assert (await manager.handle(ReportPlayer(ANA, CHAT, BETO, "abusive_emotes"))).ok
    await manager.idle()
    filed = recorder.last(ReportFiled)
    assert (filed.chat.key, filed.channel_id) == (CHAT.key, None)
    report = filed.report
    assert (report.reporter, report.reported, report.reason, report.match_id) == (
        "Ana",
        "Beto",
        ReportReason.ABUSIVE_EMOTES,
        table_id,
    )
    await manager.stop()


async def test_a_report_without_a_shared_match_names_none(
    make_manager: Callable[..., TableManager], recorder: RecordingPort
) -> None:
    manager = make_manager()
    await manager.handle(ReportPlayer(ANA, CHAT, BETO, "abusive_name"))
    await manager.idle()
    assert recorder.last(ReportFiled).report.match_id is None


async def test_a_report_names_the_last_finished_match_the_two_played_in_the_chat(
    make_manager: Callable[..., TableManager], recorder: RecordingPort, memory_storage: Storage
) -> None:
    manager = make_manager()
    ana, beto = await manager.player_id(ANA), await manager.player_id(BETO)
    record = {**RECORD, "seats": [{"player": ana}, {"player": beto}]}
    results = [PlayerResult(ana, 0, True), PlayerResult(beto, 1, False)]
    await memory_storage.finish_match(
        "m1", CHAT.key, winners=[ana], record=record, results=results, now=1.0
    )
    await manager.handle(ReportPlayer(ANA, CHAT, BETO, "playing_to_lose"))
    await manager.idle()
    assert recorder.last(ReportFiled).report.match_id == "m1"


async def test_bad_reports_are_refused_and_nothing_is_filed(
    make_manager: Callable[..., TableManager], recorder: RecordingPort
) -> None:
    manager = make_manager()
    assert _reason(await manager.handle(ReportPlayer(ANA, CHAT, ANA, "other"))) is (
        RefusalReason.SELF_REPORT
    )
    unknown = await manager.handle(ReportPlayer(ANA, CHAT, BETO, "ugly"))
    assert unknown.refusal is not None and unknown.refusal.reason is RefusalReason.UNKNOWN_REASON
    assert unknown.refusal.params == {
        "reasons": "abusive_name, abusive_emotes, left_on_purpose, playing_to_lose, other"
    }
    assert (await manager.handle(ReportPlayer(ANA, CHAT, BETO, "other"))).ok
    again = await manager.handle(ReportPlayer(ANA, CHAT, BETO, "abusive_name"))
    assert again.refusal is not None and again.refusal.reason is RefusalReason.ALREADY_REPORTED
    assert again.refusal.params == {"name": "Beto"}
    await manager.idle()
    assert len(recorder.of(ReportFiled)) == 1
    desk = await manager.moderation_desk(CHAT)
    assert [r.reason for r in desk.reports] == [ReportReason.OTHER]


# ------------------------------------------------------------------ the admins


async def test_only_admins_dismiss_and_a_dismissed_report_is_stale(
    make_manager: Callable[..., TableManager], recorder: RecordingPort
) -> None:
    manager = make_manager()
    await manager.handle(ReportPlayer(ANA, CHAT, BETO, "other"))
    await manager.idle()
    number = recorder.last(ReportFiled).report.id
    assert _reason(await manager.handle(DismissReport(BETO, CHAT, number))) is (
        RefusalReason.NOT_ADMIN
    )
    assert (await manager.handle(DismissReport(ADMIN, CHAT, number, is_admin=True))).ok
    stale = await manager.handle(DismissReport(ADMIN, CHAT, number, is_admin=True))
    assert stale.refusal is not None and stale.refusal.reason is RefusalReason.REPORT_CLOSED
    elsewhere = ChatRef("test", "-200")
    other = await manager.handle(DismissReport(ADMIN, elsewhere, number, is_admin=True))
    assert other.refusal is not None and other.refusal.reason is RefusalReason.UNKNOWN_REPORT
    desk = await manager.moderation_desk(CHAT)
    assert desk.reports == ()
    assert [(e.admin, e.action, e.player, e.report_id) for e in desk.log] == [
        ("Admin", ModerationAction.DISMISS, "Beto", number)
    ]


async def test_a_ban_by_report_refuses_the_player_a_seat_until_unbanned(
    make_manager: Callable[..., TableManager], recorder: RecordingPort
) -> None:
    manager = make_manager()
    await manager.handle(ReportPlayer(ANA, CHAT, BETO, "abusive_name"))
    await manager.idle()
    number = recorder.last(ReportFiled).report.id
    banned = await manager.handle(BanPlayer(ADMIN, CHAT, report_id=number, is_admin=True))
    assert banned.ok
    assert _reason(await manager.handle(PlayNow(BETO, CHAT))) is RefusalReason.BANNED
    assert (await manager.handle(PlayNow(BETO, ChatRef("test", "-200")))).ok  # another chat
    assert _reason(
        await manager.handle(BanPlayer(ADMIN, CHAT, report_id=number, is_admin=True))
    ) is (RefusalReason.REPORT_CLOSED)
    desk = await manager.moderation_desk(CHAT)
    assert (desk.reports, desk.banned) == ((), ("Beto",))
    assert _reason(await manager.handle(UnbanPlayer(ANA, CHAT, BETO))) is RefusalReason.NOT_ADMIN
    assert (await manager.handle(UnbanPlayer(ADMIN, CHAT, BETO, is_admin=True))).ok
    again = await manager.handle(UnbanPlayer(ADMIN, CHAT, BETO, is_admin=True))
    assert again.refusal is not None and again.refusal.reason is RefusalReason.NOT_BANNED
    assert (await manager.handle(PlayNow(BETO, CHAT))).ok
    desk = await manager.moderation_desk(CHAT)
    assert [(e.action, e.player) for e in desk.log] == [
        (ModerationAction.UNBAN, "Beto"),
        (ModerationAction.BAN, "Beto"),
    ]
    await manager.stop()


async def test_a_ban_without_a_player_or_a_report_names_nobody(
    make_manager: Callable[..., TableManager],
) -> None:
    manager = make_manager()
    refused = await manager.handle(BanPlayer(ADMIN, CHAT, is_admin=True))
    assert _reason(refused) is RefusalReason.UNKNOWN_PLAYER


async def test_a_banned_player_at_a_live_table_is_replaced_at_the_end_of_the_hand(
    make_manager: Callable[..., TableManager], recorder: RecordingPort, clock: ManualClock
) -> None:
    manager = make_manager()
    await manager.start()
    table_id = await _table_of_two(manager)
    await manager.handle(FillWithRobots(ANA, CHAT))
    await clock.advance(5)  # the countdown: stakes taken, the first hand dealt
    assert await manager.balance(BETO) == 990
    assert (await manager.handle(BanPlayer(ADMIN, CHAT, BETO, is_admin=True))).ok
    state = manager.table_state(table_id)
    assert state is not None and not any(s.away for s in state.seats)  # the hand goes on
    await run_table(
        manager,
        clock,
        table_id,
        [ANA, BETO],
        until=lambda: bool(recorder.of(SeatAbandoned)),
    )
    await manager.idle()
    (left,) = recorder.of(SeatAbandoned)
    assert (left.player, left.reason, left.stake, left.last) == (BETO, AwayReason.BANNED, 10, False)
    state = manager.table_state(table_id)
    assert state is not None and state.seats[left.seat].away
    await run_table(manager, clock, table_id, [ANA])
    assert await manager.balance(BETO) == 990  # the stake forfeited, never paid back
    await manager.stop()


# ------------------------------------------------------------------ chip dumping


def _match(match_id: str, loser: int, winner: int, stake: int = 10) -> list[StakedResult]:
    return [
        StakedResult(match_id, loser, 0, False, stake),
        StakedResult(match_id, winner, 1, True, stake),
    ]


def test_money_flowing_one_way_in_five_of_five_matches_is_flagged() -> None:
    results = [r for i in range(5) for r in _match(f"m{i}", 1, 2)]
    assert chip_dumping_flags(results) == [ChipFlow(1, 2, 5, 5, 50)]


def test_four_matches_or_an_even_record_are_not_flagged() -> None:
    four = [r for i in range(4) for r in _match(f"m{i}", 1, 2)]
    assert chip_dumping_flags(four) == []
    even = [r for i in range(3) for r in _match(f"a{i}", 1, 2)] + [
        r for i in range(2) for r in _match(f"b{i}", 2, 1)
    ]
    assert chip_dumping_flags(even) == []


def test_four_of_five_lost_is_flagged_and_partners_are_not_opponents() -> None:
    results = [r for i in range(4) for r in _match(f"m{i}", 1, 2)] + _match("m9", 2, 1)
    partners = [StakedResult(f"p{i}", pid, 0, True, 10) for i in range(5) for pid in (3, 4)]
    assert chip_dumping_flags(results + partners) == [ChipFlow(1, 2, 5, 4, 40)]


async def test_a_chip_dumping_pattern_reaches_the_admins_desk(
    make_manager: Callable[..., TableManager], memory_storage: Storage
) -> None:
    manager = make_manager()
    ana, beto = await manager.player_id(ANA), await manager.player_id(BETO)
    for number in range(5):  # Ana loses every staked match to Beto
        match_id = f"dump{number}"
        await memory_storage.stake(match_id, [ana, beto], 10, now=float(number))
        await memory_storage.finish_match(
            match_id,
            CHAT.key,
            winners=[beto],
            record=RECORD,
            results=[PlayerResult(ana, 0, False), PlayerResult(beto, 1, True)],
            now=float(number) + 0.5,
        )
    desk = await manager.moderation_desk(CHAT)
    assert desk.flags == (CollusionFlag("Ana", "Beto", 5, 5, 50),)
    assert (await manager.balance(ANA), await manager.balance(BETO)) == (950, 1050)


async def test_the_desk_shows_the_reported_players_accuracy_in_the_match_of_the_report(
    make_manager: Callable[..., TableManager], memory_storage: Storage
) -> None:
    with ThreadPoolExecutor(1) as pool:
        manager = make_manager(analysis_executor=pool)
        ana, beto = await manager.player_id(ANA), await manager.player_id(BETO)
        record = json.loads((Path(__file__).parent / "records" / "tranca_tie.json").read_text())
        record["seats"] = [{"player": ana}, {"player": beto}, {"player": None}, {"player": None}]
        results = [PlayerResult(ana, 0, True), PlayerResult(beto, 1, False)]
        await memory_storage.finish_match(
            "m1", CHAT.key, winners=[ana], record=record, results=results, now=1.0
        )
        await manager.handle(ReportPlayer(ANA, CHAT, BETO, "playing_to_lose"))
        desk = await manager.moderation_desk(CHAT)
        (report,) = desk.reports
        assert (report.match_id, report.accuracy) == ("m1", 2 / 3)  # seat 1's choices
        assert (await manager.moderation_desk(CHAT, analyse=False)).reports[0].accuracy is None


# ------------------------------------------------------------------ accuracy far below usual


def _accuracies(player: int, values: dict[str, float]) -> dict[tuple[str, int], float]:
    return {(match_id, player): value for match_id, value in values.items()}


def test_a_player_far_less_accurate_against_one_opponent_is_flagged() -> None:
    results = [r for i in range(3) for r in _match(f"a{i}", 1, 2)] + [
        r for i in range(3) for r in _match(f"c{i}", 1, 3)
    ]
    accuracy = _accuracies(1, {"a0": 0.3, "a1": 0.4, "a2": 0.2, "c0": 0.9, "c1": 0.8, "c2": 0.7})
    (flag,) = accuracy_drop_flags(results, accuracy)
    assert (flag.player, flag.opponent, flag.matches) == (1, 2, 3)
    assert (round(flag.against, 6), round(flag.usual, 6)) == (0.3, 0.8)


def test_a_small_drop_or_too_few_matches_is_not_flagged() -> None:
    results = [r for i in range(3) for r in _match(f"a{i}", 1, 2)] + [
        r for i in range(3) for r in _match(f"c{i}", 1, 3)
    ]
    close = _accuracies(1, {"a0": 0.7, "a1": 0.6, "a2": 0.6, "c0": 0.9, "c1": 0.8, "c2": 0.7})
    assert accuracy_drop_flags(results, close) == []
    few = _accuracies(1, {"a0": 0.1, "a1": 0.1, "c0": 0.9, "c1": 0.9, "c2": 0.9})
    assert accuracy_drop_flags(results, few) == []


async def test_the_desk_flags_a_player_who_plays_far_worse_against_one_opponent(
    make_manager: Callable[..., TableManager], memory_storage: Storage
) -> None:
    manager = make_manager()
    carla = PlayerRef("test", "3", "Carla")
    ids = {p.display_name: await manager.player_id(p) for p in (ANA, BETO, carla)}
    opponents = [("Ana", 0.2), ("Ana", 0.3), ("Ana", 0.1), ("Carla", 0.9), ("Carla", 0.8)]
    opponents.append(("Carla", 0.7))
    for number, (name, accuracy) in enumerate(opponents):
        beto, other = ids["Beto"], ids[name]
        record = {**RECORD, "seats": [{"player": beto}, {"player": other}]}
        record["accuracy"] = accuracy  # what the stand-in analysis below answers
        match_id = f"x{number}"
        await memory_storage.stake(match_id, [beto, other], 10, now=float(number))
        await memory_storage.finish_match(
            match_id,
            CHAT.key,
            winners=[other],
            record=record,
            results=[PlayerResult(beto, 0, False), PlayerResult(other, 1, True)],
            now=float(number) + 0.5,
        )

    async def stand_in(record: dict[str, object], seat: int) -> float | None:
        return float(record["accuracy"]) if seat == 0 else None  # type: ignore[arg-type]

    manager.wiring.moderation.analyst.match_accuracy = stand_in
    desk = await manager.moderation_desk(CHAT)
    (flag,) = desk.accuracy_flags
    assert (flag.player, flag.opponent, flag.matches) == ("Beto", "Ana", 3)
    assert (round(flag.against, 6), round(flag.usual, 6)) == (0.2, 0.8)
    assert desk.flags == ()  # three losses to each: not money flowing one way
    assert (await manager.moderation_desk(CHAT, analyse=False)).accuracy_flags == ()
