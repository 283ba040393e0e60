"""A database written by the table manager before ``bot/`` was reshaped still resumes.

``tests/fixtures/old_main_tables.db`` was written on 2026-12-01 by the code of main at
commit 5784239 (``tests/fixtures/make_old_db.py``, never to be re-run) and
``old_main_tables.json`` says what it held: five unfinished tables (Telegram mid-hand with
a human to move and a front-end note, Discord with a human away, Discord waiting, Discord
in the countdown, the terminal in hand 2), the stakes of the started matches in escrow
and the rules an admin set for the Telegram chat. These tests open a copy with today's
code, through the manager's and the storage's public API only.
"""

from __future__ import annotations

import json
import shutil
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from conftest import RecordingPort

# Everything this test takes from the project, in one place (rename here after a reshape).
from bot.core import ComeBack, ManualClock, MatchEnded, PlayerRef, PressButton, TableManager
from storage import MatchClosedError, Storage, open_storage

FIXTURES = Path(__file__).parent / "fixtures"
OLD_DB = FIXTURES / "old_main_tables.db"
OLD = json.loads((FIXTURES / "old_main_tables.json").read_text())
TABLES = {t["name"]: t for t in OLD["tables"]}
PLAYERS = {
    (p["platform"], p["user_id"]): PlayerRef(
        p["platform"], p["user_id"], p["display_name"], p["language"]
    )
    for p in OLD["players"]
}
AT_TURN = [name for name, t in TABLES.items() if t["move_payload"] is not None]


@dataclass
class Resumed:
    manager: TableManager
    storage: Storage
    clock: ManualClock


async def open_copy(tmp_path: Path) -> Storage:
    copy = tmp_path / "old_main_tables.db"
    shutil.copyfile(OLD_DB, copy)
    return await open_storage(copy)


@pytest.fixture
async def resumed(tmp_path: Path) -> AsyncIterator[Resumed]:
    """Today's manager started on a copy of the old database, at the old clock's time."""
    storage = await open_copy(tmp_path)
    clock = ManualClock(OLD["clock"])
    manager = TableManager(
        storage,
        clock=clock,
        seed=OLD["manager"]["seed"],
        robot_delay=0.0,
        hand_pause=0.0,
        robot_level=OLD["manager"]["robot_level"],
    )
    await manager.start()
    yield Resumed(manager, storage, clock)
    await manager.stop()
    await storage.close()


def player(key: list[str]) -> PlayerRef:
    return PLAYERS[(key[0], key[1])]


def restored(manager: TableManager, table_id: str) -> dict[str, Any]:
    """The fields of ``old_main_tables.json`` the live manager can say about a table."""
    state = manager.table_state(table_id)
    assert state is not None, f"table {table_id} was not restored"
    match = manager.match_of(table_id)
    turn_seat = state.seats[state.turn] if state.turn is not None else None
    to_move = turn_seat.player if turn_seat and turn_seat.player and not turn_seat.away else None
    return {
        "table_id": table_id,
        "label": state.label,
        "platform": state.chat.platform,
        "chat": {
            "platform": state.chat.platform,
            "chat_id": state.chat.chat_id,
            "channel_id": state.chat.channel_id,
            "thread_id": state.chat.thread_id,
            "language": state.chat.language,
        },
        "phase": state.phase,
        "target": state.rules.target,
        "stake": state.rules.stake,
        "turn_seconds": state.rules.turn_seconds,
        "hand_number": state.hand_number,
        "move_number": state.move_number,
        "score": list(match.score) if match is not None else None,
        "turn": state.turn,
        "deadline": state.deadline,
        "seats": [
            {
                "seat": info.seat,
                "player": list(info.player.key) if info.player else None,
                "name": info.name,
                "is_robot": info.is_robot,
                "robot_level": info.robot_level,
                "away": info.away,
                "back_by": info.back_by,
            }
            for info in state.seats
        ],
        "humans": [list(info.player.key) for info in state.seats if info.player is not None],
        "human_seats": [info.seat for info in state.seats if info.player is not None],
        "to_move": list(to_move.key) if to_move else None,
    }


def as_written(table: dict[str, Any]) -> dict[str, Any]:
    """The JSON's description of a table without what only the old run could say."""
    return {k: v for k, v in table.items() if k not in ("name", "move_payload", "stakes", "notes")}


async def balances(manager: TableManager) -> dict[tuple[str, str], int]:
    return {key: await manager.balance(p) for key, p in PLAYERS.items()}


async def play_everything_out(resumed: Resumed) -> None:
    """Advance the clock from deadline to deadline until no table is left: robots move,
    humans' turns time out (a robot plays for them) until every match is over."""
    manager, clock = resumed.manager, resumed.clock
    for _ in range(20_000):
        if not manager.tables():
            break
        deadline = clock.next_deadline()
        assert deadline is not None, f"stuck: no timer armed for {manager.tables()}"
        await clock.advance(max(0.0, deadline - clock.now()))
    assert manager.tables() == []
    await manager.idle()


# ------------------------------------------------------------------------ the file


def test_the_old_database_is_one_small_self_contained_file():
    assert OLD_DB.stat().st_size < 1_000_000
    leftovers = [OLD_DB.with_name(OLD_DB.name + s) for s in ("-wal", "-shm", "-journal")]
    assert [p.name for p in leftovers if p.exists()] == []
    assert sorted(TABLES) == [
        "discord_away",
        "discord_countdown",
        "discord_waiting",
        "telegram_turn",
        "terminal_hand2",
    ]


async def test_the_stakes_the_old_code_took_are_held_in_escrow_in_a_whole_ledger(tmp_path):
    storage = await open_copy(tmp_path)
    try:
        assert await storage.check_ledger() == []
        ids = {(p["platform"], p["user_id"]): p["player_id"] for p in OLD["players"]}
        wallets = {
            key: [(e.kind, e.amount, e.match_id) for e in await storage.wallet_history(pid)]
            for key, pid in ids.items()
        }
        # each player's account was opened with $1,000; the humans of a started match
        # paid its stake into the match's escrow, the others paid nothing yet
        assert wallets == {
            (key[0], key[1]): [("stake", -stake, table["table_id"])] * (stake > 0)
            + [("open", 1000, None)]
            for table in OLD["tables"]
            for key in table["humans"]
            for stake in [table["stakes"][f"{key[0]}:{key[1]}"]]
        }
        assert {key: await storage.balance(pid) for key, pid in ids.items()} == {
            (p["platform"], p["user_id"]): p["balance"] for p in OLD["players"]
        }
    finally:
        await storage.close()


# ------------------------------------------------------------------------ restored


async def test_every_unfinished_table_is_restored_as_the_old_code_left_it(resumed):
    manager = resumed.manager
    assert sorted(manager.tables()) == sorted(t["table_id"] for t in OLD["tables"])
    for table in OLD["tables"]:
        assert restored(manager, table["table_id"]) == as_written(table), table["name"]


async def test_the_players_keep_their_ids_and_balances(resumed):
    manager = resumed.manager
    assert {key: await manager.player_id(p) for key, p in PLAYERS.items()} == {
        (p["platform"], p["user_id"]): p["player_id"] for p in OLD["players"]
    }
    assert await balances(manager) == {
        (p["platform"], p["user_id"]): p["balance"] for p in OLD["players"]
    }


async def test_the_rules_the_admin_set_for_the_chat_are_still_there_and_at_its_table(resumed):
    rules = OLD["chat_rules"]
    stored = await resumed.storage.get_chat_rules(rules["chat"])
    assert stored is not None
    assert (stored.chat, stored.preset, stored.overrides) == (
        "telegram:-1001234567890",
        "venezolano",
        {"target": 150},
    )
    state = resumed.manager.table_state(TABLES["telegram_turn"]["table_id"])
    assert state is not None
    assert state.rules.target == 150


async def test_the_front_end_note_of_the_telegram_board_is_kept(resumed):
    manager = resumed.manager
    notes = {
        name: manager.front_end_note(t["table_id"], "telegram.board") for name, t in TABLES.items()
    }
    assert notes == {
        "telegram_turn": {"chat_id": -1001234567890, "message_id": 4242, "thread_id": None},
        "discord_away": None,
        "discord_waiting": None,
        "discord_countdown": None,
        "terminal_hand2": None,
    }


async def test_the_player_who_left_before_the_restart_can_still_come_back(resumed):
    table = TABLES["discord_away"]
    [away] = [s for s in table["seats"] if s["away"]]
    assert resumed.clock.now() < away["back_by"]
    reply = await resumed.manager.handle(ComeBack(player(away["player"]), None, table["table_id"]))
    assert reply.ok, reply.refusal
    state = resumed.manager.table_state(table["table_id"])
    assert state is not None
    assert (state.seats[away["seat"]].away, state.seats[away["seat"]].back_by) == (False, None)


# ------------------------------------------------------------------ the old buttons


@pytest.mark.parametrize("name", AT_TURN)
async def test_the_move_button_sent_before_the_restart_plays_once_then_is_stale(resumed, name):
    table = TABLES[name]
    manager, table_id = resumed.manager, table["table_id"]
    at_turn = player(table["to_move"])
    payload = table["move_payload"]
    assert payload.startswith(f"dm1:m:{table_id}:{table['hand_number']}:{table['move_number']}:")

    pressed = await manager.handle(PressButton(at_turn, payload))
    assert pressed.ok, pressed.refusal
    after = manager.table_state(table_id)
    assert after is not None
    assert (after.hand_number, after.move_number, after.turn) == (
        table["hand_number"],
        table["move_number"] + 1,
        (table["turn"] + 1) % 4,
    )

    again = await manager.handle(PressButton(at_turn, payload))
    assert again.refusal is not None
    assert again.refusal.reason == "stale"
    unchanged = manager.table_state(table_id)
    assert unchanged is not None
    assert unchanged.move_number == table["move_number"] + 1


def test_there_is_a_move_button_for_each_started_table_at_a_human_turn():
    assert AT_TURN == ["telegram_turn", "discord_away", "terminal_hand2"]
    assert [TABLES[n]["move_payload"] for n in AT_TURN] == [
        "dm1:m:5dbtpes9:1:6:20l",
        "dm1:m:sk2b8ced:1:8:21l",
        "dm1:m:ctmes8f6:2:3:22r",
    ]


# ------------------------------------------------------------------------ the end


async def test_every_table_plays_to_its_end_and_the_money_adds_up(resumed):
    manager, storage = resumed.manager, resumed.storage
    before = await balances(manager)
    recorder = RecordingPort()
    manager.register("*", recorder)
    await play_everything_out(resumed)

    ids = {name: t["table_id"] for name, t in TABLES.items()}
    assert {name: manager.table_state(tid) for name, tid in ids.items()} == dict.fromkeys(ids)
    matches = {name: manager.match_of(tid) for name, tid in ids.items()}
    assert {name: m is not None and m.is_over for name, m in matches.items()} == dict.fromkeys(
        ids, True
    )
    winner = {name: m.winner_team for name, m in matches.items() if m is not None}

    # each human paid the stake once (at the old start, or at the start after the restart)
    # and each human of the winning team was paid twice the stake, unless a robot still
    # played their seat when the match ended (nobody presses here: their turns ran out;
    # rules.md, "The house"); nothing else moved
    ended = {e.table_id: e for e in recorder.of(MatchEnded)}
    expected = dict(before)
    for name, table in TABLES.items():
        seats = ended[ids[name]].seats
        for key, seat in zip(table["humans"], table["human_seats"], strict=True):
            stake = table["stake"]
            still_to_pay = stake - table["stakes"][f"{key[0]}:{key[1]}"]
            paid = seat % 2 == winner[name] and not seats[seat].away
            expected[(key[0], key[1])] += 2 * stake * paid - still_to_pay
    assert await balances(manager) == expected
    assert await storage.check_ledger() == []

    # no escrow stays open: every match was settled, so a refund of any is refused
    refused = []
    for tid in ids.values():
        with pytest.raises(MatchClosedError) as closed:
            await storage.refund(tid, now=resumed.clock.now())
        refused.append(closed.value.state)
    assert refused == ["settled"] * len(ids)
    assert await storage.check_ledger() == []
