"""Mutes, reports, bans and the admins' log in storage (storage/moderation.py, issue 33),
run against SQLite and PostgreSQL as tests/test_storage_tournaments.py does; the ledger
is checked after each."""

from __future__ import annotations

import pytest

from storage.base import (
    DuplicateReportError,
    ModerationEntry,
    PlayerResult,
    Report,
    ReportClosedError,
    StakedResult,
    Storage,
    UnknownPlayerError,
    UnknownReportError,
)

CHAT = "telegram:-100"
OTHER = "discord:7"
RECORD = {"rules": {"preset": "venezolano", "target": 100}, "hands": [{"moves": ["6-6"]}]}


async def make_players(store: Storage, count: int) -> list[int]:
    return [
        (await store.ensure_player("telegram", str(100 + i), f"Jugador {i}", now=0.0)).id
        for i in range(count)
    ]


# ------------------------------------------------------------------ mutes


async def test_a_mute_is_kept_once_until_unmuted(store: Storage) -> None:
    ana, beto, caro = await make_players(store, 3)
    assert await store.mute(ana, beto, now=1.0) is True
    assert await store.mute(ana, beto, now=2.0) is False
    assert await store.mute(caro, beto, now=3.0) is True
    assert await store.muted_by([ana, beto, caro], beto) == [ana, caro]
    assert await store.muted_players(ana) == [beto]
    assert await store.unmute(ana, beto) is True
    assert await store.unmute(ana, beto) is False
    assert await store.muted_by([ana, caro], beto) == [caro]
    assert await store.muted_by([], beto) == []


async def test_muting_yourself_or_a_stranger_is_refused(store: Storage) -> None:
    (ana,) = await make_players(store, 1)
    with pytest.raises(ValueError, match="themself"):
        await store.mute(ana, ana, now=1.0)
    with pytest.raises(UnknownPlayerError):
        await store.mute(ana, 9999, now=1.0)
    assert await store.muted_players(ana) == []


# ------------------------------------------------------------------ reports


async def test_a_report_is_stored_with_its_match_and_listed_while_open(store: Storage) -> None:
    ana, beto = await make_players(store, 2)
    report = await store.file_report(CHAT, ana, beto, "abusive_name", "m1", now=5.0)
    assert report == Report(report.id, CHAT, ana, beto, "abusive_name", "m1", "open", 5.0)
    assert await store.open_reports(CHAT) == [report]
    assert await store.open_reports(OTHER) == []
    assert await store.get_report(report.id) == report
    assert await store.get_report(report.id + 1) is None


async def test_a_second_open_report_of_the_same_pair_in_the_chat_is_refused(
    store: Storage,
) -> None:
    ana, beto = await make_players(store, 2)
    first = await store.file_report(CHAT, ana, beto, "other", None, now=5.0)
    with pytest.raises(DuplicateReportError) as raised:
        await store.file_report(CHAT, ana, beto, "abusive_emotes", None, now=6.0)
    assert raised.value.report_id == first.id
    elsewhere = await store.file_report(OTHER, ana, beto, "other", None, now=7.0)
    assert [r.id for r in await store.open_reports(CHAT)] == [first.id]
    assert [r.id for r in await store.open_reports(OTHER)] == [elsewhere.id]


async def test_reporting_yourself_is_refused(store: Storage) -> None:
    (ana,) = await make_players(store, 1)
    with pytest.raises(ValueError, match="themself"):
        await store.file_report(CHAT, ana, ana, "other", None, now=5.0)
    assert await store.open_reports(CHAT) == []


async def test_a_dismissed_report_closes_once_and_is_logged(store: Storage) -> None:
    ana, beto, admin = await make_players(store, 3)
    report = await store.file_report(CHAT, ana, beto, "other", None, now=5.0)
    dismissed = await store.dismiss_report(CHAT, report.id, admin, now=6.0)
    assert (dismissed.state, dismissed.closed_at, dismissed.closed_by) == ("dismissed", 6.0, admin)
    assert await store.open_reports(CHAT) == []
    with pytest.raises(ReportClosedError):
        await store.dismiss_report(CHAT, report.id, admin, now=7.0)
    with pytest.raises(UnknownReportError):
        await store.dismiss_report(OTHER, report.id, admin, now=7.0)
    (entry,) = await store.moderation_log(CHAT)
    assert entry == ModerationEntry(entry.id, CHAT, admin, "dismiss", beto, report.id, 6.0)


# ------------------------------------------------------------------ bans


async def test_a_ban_closes_the_players_open_reports_and_an_unban_lifts_it(
    store: Storage,
) -> None:
    ana, beto, caro, admin = await make_players(store, 4)
    first = await store.file_report(CHAT, ana, beto, "playing_to_lose", "m1", now=5.0)
    await store.file_report(CHAT, caro, beto, "abusive_name", None, now=6.0)
    other = await store.file_report(CHAT, ana, caro, "other", None, now=6.5)
    assert await store.ban(CHAT, beto, admin, now=7.0, report_id=first.id) is True
    assert await store.ban(CHAT, beto, admin, now=7.5) is False
    assert await store.open_reports(CHAT) == [other]
    assert await store.banned_among(CHAT, [ana, beto, caro]) == {beto}
    assert await store.banned_among(OTHER, [beto]) == set()
    assert await store.banned_players(CHAT) == [beto]
    with pytest.raises(ReportClosedError):
        await store.ban(CHAT, beto, admin, now=8.0, report_id=first.id)
    assert await store.unban(CHAT, beto, admin, now=9.0) is True
    assert await store.unban(CHAT, beto, admin, now=9.5) is False
    assert await store.banned_among(CHAT, [beto]) == set()
    assert [(e.action, e.player_id, e.report_id) for e in await store.moderation_log(CHAT)] == [
        ("unban", beto, None),
        ("ban", beto, None),
        ("ban", beto, first.id),
    ]


async def test_a_ban_by_a_report_about_someone_else_is_refused(store: Storage) -> None:
    ana, beto, caro, admin = await make_players(store, 4)
    report = await store.file_report(CHAT, ana, beto, "other", None, now=5.0)
    with pytest.raises(UnknownReportError):
        await store.ban(CHAT, caro, admin, now=6.0, report_id=report.id)
    assert await store.banned_players(CHAT) == []
    assert await store.moderation_log(CHAT) == []


# ------------------------------------------------------------------ the report channel


async def test_a_servers_report_channel_is_set_replaced_and_cleared(store: Storage) -> None:
    assert await store.report_channel(OTHER) is None
    await store.set_report_channel(OTHER, "55")
    await store.set_report_channel(OTHER, "56")
    assert await store.report_channel(OTHER) == "56"
    await store.set_report_channel(OTHER, None)
    assert await store.report_channel(OTHER) is None


# ------------------------------------------------------------------ staked results


async def test_staked_results_list_each_humans_side_in_settled_matches_of_the_chat(
    store: Storage,
) -> None:
    ana, beto = await make_players(store, 2)
    await store.stake("m1", [ana, beto], 10, now=1.0)
    await store.finish_match(
        "m1",
        CHAT,
        winners=[beto],
        record=RECORD,
        results=[PlayerResult(ana, 0, False), PlayerResult(beto, 1, True)],
        now=2.0,
    )
    await store.stake("m2", [ana, beto], 10, now=3.0)
    await store.refund("m2", now=4.0)  # a cancelled match moves no money between them
    assert await store.staked_results(CHAT) == [
        StakedResult("m1", ana, 0, False, 10),
        StakedResult("m1", beto, 1, True, 10),
    ]
    assert await store.staked_results(OTHER) == []
