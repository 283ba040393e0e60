"""A chat's tournament run by the core (bot/core/tournaments/service.py): sign-up, the
fees held, each pairing's table with its seats kept, no-shows, results, the next round,
the prizes paid once, a cancel refunding everything, and a restart in the middle."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from conftest import RecordingPort
from hypothesis import example, given, settings
from hypothesis import strategies as st

from bot.core import (
    CancelTournament,
    ChatRef,
    CreateTournament,
    JoinTournament,
    Leave,
    LeaveTournament,
    Partners,
    PlayerRef,
    PlayNow,
    PressButton,
    RefusalReason,
    SeatKept,
    StartTournament,
    TableChanged,
    TableClosed,
    TableManager,
    TournamentKind,
    TournamentNews,
    TournamentStatus,
    TournamentUpdate,
    encode_action,
)
from bot.core.clock import ManualClock
from storage.base import Storage

CHAT = ChatRef("test", "-100", language="es")
ADMIN = PlayerRef("test", "9", "Admin")
PLAYERS = [
    PlayerRef("test", str(i), name) for i, name in enumerate(("Ana", "Beto", "Carla", "Dani"), 1)
]


async def _signed(
    manager: TableManager, kind: TournamentKind, players: list[PlayerRef], **options: int | str
) -> None:
    """An admin opens a tournament of one against one and ``players`` sign up."""
    create = CreateTournament(
        ADMIN,
        CHAT,
        kind,
        is_admin=True,
        preset="uno-contra-uno",
        **options,  # type: ignore[arg-type]
    )
    assert (await manager.handle(create)).ok
    for player in players:
        assert (await manager.handle(JoinTournament(player, CHAT))).ok


async def _running(
    make_manager: Callable[..., TableManager],
    clock: ManualClock,
    kind: TournamentKind,
    players: list[PlayerRef],
    *,
    now: bool = False,
    **options: int | str,
) -> TableManager:
    """A manager whose chat's tournament of ``players`` has started: by an admin
    (``now``) or when sign-up closed."""
    manager = make_manager()
    await manager.start()
    await _signed(manager, kind, players, **options)
    if now:
        assert (await manager.handle(StartTournament(ADMIN, CHAT, is_admin=True))).ok
    else:
        await clock.advance(10 * 60)
    await manager.idle()
    return manager


async def _balances(manager: TableManager, players: list[PlayerRef]) -> list[int]:
    return [await manager.balance(p) for p in players]


def _open_tables(manager: TableManager) -> list[TableChanged]:
    states = [manager.table_state(t) for t in manager.tables()]
    return [s for s in states if s is not None]


async def test_sign_up_is_free_and_only_an_admin_opens_cancels_or_starts(
    make_manager, clock: ManualClock
) -> None:
    manager = make_manager()
    await manager.start()
    refused = await manager.handle(CreateTournament(PLAYERS[0], CHAT, TournamentKind.SWISS))
    assert refused.refusal is not None and refused.refusal.reason is RefusalReason.NOT_ADMIN
    bad = await manager.handle(
        CreateTournament(ADMIN, CHAT, TournamentKind.SWISS, is_admin=True, fee=7)
    )
    assert bad.refusal is not None and bad.refusal.reason is RefusalReason.BAD_TOURNAMENT
    assert bad.refusal.params == {"option": "fee", "allowed": "0, 10, 25, 50, 100, 250, 500"}
    await _signed(manager, TournamentKind.SWISS, PLAYERS[:2], fee=10)
    again = await manager.handle(JoinTournament(PLAYERS[0], CHAT))
    assert again.refusal is not None and again.refusal.reason is RefusalReason.ALREADY_SIGNED
    assert await _balances(manager, PLAYERS[:2]) == [1000, 1000]  # nothing paid at sign-up
    assert (await manager.handle(LeaveTournament(PLAYERS[1], CHAT))).ok
    view = manager.tournament_here(CHAT)
    assert view is not None and view.signed == ("Ana",) and view.status is TournamentStatus.SIGNUP
    second = await manager.handle(
        CreateTournament(ADMIN, CHAT, TournamentKind.ARENA, is_admin=True)
    )
    assert second.refusal is not None
    assert second.refusal.reason is RefusalReason.TOURNAMENT_EXISTS
    start = await manager.handle(StartTournament(PLAYERS[0], CHAT))
    assert start.refusal is not None and start.refusal.reason is RefusalReason.NOT_ADMIN
    await manager.stop()


async def test_a_knockout_holds_the_fees_plays_its_tables_and_pays_the_prizes_once(
    make_manager, clock: ManualClock, recorder: RecordingPort, memory_storage: Storage
) -> None:
    manager = await _running(make_manager, clock, TournamentKind.KNOCKOUT, PLAYERS, fee=10)
    assert await _balances(manager, PLAYERS) == [990, 990, 990, 990]
    tables = _open_tables(manager)
    assert len(tables) == 2 and all(t.phase == "waiting" for t in tables)
    kept = [[s.reserved_for for s in t.seats if s.reserved_for is not None] for t in tables]
    assert sorted(p.display_name for pair in kept for p in pair) == ["Ana", "Beto", "Carla", "Dani"]
    (first, second), empty = kept[0], [p.display_name for p in kept[1]]
    # the first pairing plays: both sit, then the second leaves and the first after him
    # (the last one to leave loses the match); nobody sits at the other table
    for player in (first, second):
        assert (await manager.handle(PlayNow(player, CHAT))).ok
    await clock.advance(5)  # the countdown: the match starts
    await manager.handle(Leave(second, CHAT))
    await manager.handle(Leave(first, CHAT))
    await manager.idle()
    await clock.advance(120)  # the other table's seats stayed empty: a double loss
    await manager.idle()
    closed = recorder.of(TableClosed)
    assert sorted(c.reason.value for c in closed) == ["no_humans", "no_show"]
    ended = recorder.last(TournamentUpdate, news=TournamentNews.FINISHED).view
    assert ended.status is TournamentStatus.FINISHED and manager.tournament_here(CHAT) is None
    # the winner of the only match played is alone in the final: the champion; the three
    # out in round 1 share 2nd-4th (docs/tournaments.md, "Knockout: places")
    assert [(p.number, sorted(p.names), p.prize) for p in ended.places] == [
        (1, [second.display_name], 24),
        (2, sorted([first.display_name, *empty]), 16),  # $6, $5 and $5
    ]
    names = [p.display_name for p in PLAYERS]
    balances = dict(zip(names, await _balances(manager, PLAYERS), strict=True))
    assert balances[second.display_name] == 990 + 24
    assert sum(balances.values()) == 4000  # no dollar lost or created
    assert await memory_storage.check_ledger() == []
    assert await memory_storage.open_tournament_escrows() == []
    await manager.stop()


async def test_a_swiss_of_no_shows_plays_every_round_and_ends_with_the_fees_paid_back_out(
    make_manager, clock: ManualClock, recorder: RecordingPort, memory_storage: Storage
) -> None:
    manager = await _running(
        make_manager, clock, TournamentKind.SWISS, PLAYERS[:3], fee=25, rounds=2, now=True
    )
    for _ in range(2):  # each round: one table, one bye; nobody sits
        assert len(_open_tables(manager)) == 1
        await clock.advance(120)
        await manager.idle()
    rounds = [u.view.round for u in recorder.of(TournamentUpdate, news=TournamentNews.ROUND)]
    assert rounds == [1, 2]
    ended = recorder.last(TournamentUpdate, news=TournamentNews.FINISHED).view
    assert sum(p.prize for p in ended.places) == 75
    assert sum(await _balances(manager, PLAYERS[:3])) == 3000
    assert await memory_storage.check_ledger() == []
    await manager.stop()


async def test_an_arena_pairs_whoever_is_free_until_its_time_is_up(
    make_manager, clock: ManualClock, recorder: RecordingPort
) -> None:
    manager = await _running(
        make_manager, clock, TournamentKind.ARENA, PLAYERS, fee=0, minutes=15, now=True
    )
    opened = 0
    while manager.tournament_here(CHAT) is not None:
        opened += len(_open_tables(manager))
        await clock.advance(120)  # every table a double no-show: everyone free again
        await manager.idle()
    # 15 minutes of 2-minute tables: paired at 0, 2, ..., 14 minutes, two tables each
    assert opened == 16
    ended = recorder.last(TournamentUpdate, news=TournamentNews.FINISHED).view
    assert [p.number for p in ended.places] == [1, 2, 3, 4] and ended.pool == 0
    await manager.stop()


async def test_a_cancelled_tournament_refunds_every_fee_and_its_tables_close(
    make_manager, clock: ManualClock, recorder: RecordingPort, memory_storage: Storage
) -> None:
    manager = await _running(make_manager, clock, TournamentKind.KNOCKOUT, PLAYERS, fee=50)
    assert await _balances(manager, PLAYERS) == [950, 950, 950, 950]
    cancel = await manager.handle(CancelTournament(ADMIN, CHAT, is_admin=True))
    assert cancel.ok
    await manager.idle()
    assert await _balances(manager, PLAYERS) == [1000, 1000, 1000, 1000]
    told = recorder.last(TournamentUpdate, news=TournamentNews.CANCELLED).view
    assert told.refunded == 200
    await clock.advance(120)  # its tables close as no-shows and are scored by nobody
    await manager.idle()
    assert manager.tables() == [] and manager.tournament_here(CHAT) is None
    assert await memory_storage.check_ledger() == []
    assert await memory_storage.open_tournament_escrows() == []
    await manager.stop()


async def test_too_few_entrants_at_the_start_cancel_it_and_nothing_is_paid(
    make_manager, clock: ManualClock, recorder: RecordingPort
) -> None:
    manager = await _running(make_manager, clock, TournamentKind.SWISS, PLAYERS[:1], fee=10)
    assert recorder.last(TournamentUpdate).news is TournamentNews.TOO_FEW
    assert await _balances(manager, PLAYERS[:1]) == [1000]
    assert manager.tournament_here(CHAT) is None
    await manager.stop()


async def test_a_tournament_survives_a_restart_mid_round_and_finishes_after_it(
    make_manager, clock: ManualClock, memory_storage: Storage
) -> None:
    manager = await _running(make_manager, clock, TournamentKind.KNOCKOUT, PLAYERS[:2], fee=10)
    assert len(_open_tables(manager)) == 1
    await manager.stop()

    recorder = RecordingPort()
    again = make_manager(port=recorder)
    await again.start()
    assert again.tournament_here(CHAT) is not None and len(_open_tables(again)) == 1
    await clock.advance(120)  # nobody came: a double loss in the final, both share 1st
    await again.idle()
    ended = recorder.last(TournamentUpdate, news=TournamentNews.FINISHED).view
    assert [(p.number, len(p.names), p.prize) for p in ended.places] == [(1, 2, 20)]
    assert await _balances(again, PLAYERS[:2]) == [1000, 1000]
    assert await memory_storage.open_tournament_escrows() == []
    await again.stop()


async def test_two_players_who_name_each_other_play_as_partners_and_the_rest_are_drawn(
    make_manager, clock: ManualClock
) -> None:
    manager = make_manager()
    await manager.start()
    create = CreateTournament(ADMIN, CHAT, TournamentKind.KNOCKOUT, is_admin=True, fee=10)
    assert (await manager.handle(create)).ok
    ana, beto, carla, dani = PLAYERS
    for player, partner in ((ana, beto), (carla, ana), (beto, ana), (dani, None)):
        assert (await manager.handle(JoinTournament(player, CHAT, partner))).ok
    assert (await manager.handle(StartTournament(ADMIN, CHAT, is_admin=True))).ok
    await manager.idle()
    (table,) = _open_tables(manager)  # two partnerships: one table of four
    kept = {s.seat: s.reserved_for.display_name for s in table.seats if s.reserved_for}
    partners = [sorted((kept[0], kept[2])), sorted((kept[1], kept[3]))]
    assert sorted(partners) == [["Ana", "Beto"], ["Carla", "Dani"]]
    await manager.stop()


STEPS = st.lists(
    st.one_of(
        st.tuples(st.just("join"), st.integers(0, 5)),
        st.tuples(st.just("leave"), st.integers(0, 5)),
        st.tuples(st.just("start"), st.just(0)),
        st.tuples(st.just("cancel"), st.just(0)),
        st.tuples(st.just("wait"), st.integers(1, 3)),
        st.tuples(st.just("restart"), st.just(0)),
    ),
    max_size=12,
)


@settings(max_examples=20, deadline=None)
@example(  # fees held, a restart mid-round, then played out and paid
    kind=TournamentKind.SWISS,
    fee=25,
    steps=[("join", 0), ("join", 1), ("join", 2), ("start", 0), ("restart", 0), ("wait", 1)],
)
@example(  # fees held, a restart, then cancelled: refunded
    kind=TournamentKind.KNOCKOUT,
    fee=500,
    steps=[("join", 0), ("join", 1), ("start", 0), ("restart", 0), ("cancel", 0)],
)
@given(
    kind=st.sampled_from(list(TournamentKind)),
    fee=st.sampled_from((0, 10, 25, 500)),
    steps=STEPS,
)
async def test_no_dollar_is_lost_or_created_whatever_players_admins_and_crashes_do(
    kind: TournamentKind, fee: int, steps: list[tuple[str, int]]
) -> None:
    """Sign-ups, leaves, an early start, a cancel, time passing and restarts in any
    order, then the tournament played out: the ledger sums to zero at every step, and at
    the end every fee was paid out or refunded (no tournament escrow left open)."""
    from storage import open_storage

    storage = await open_storage(":memory:")
    clock = ManualClock()
    people = [PlayerRef("test", str(i), f"P{i}") for i in range(1, 7)]

    def build() -> TableManager:
        return TableManager(
            storage, clock=clock, seed=3, robot_delay=0.0, hand_pause=0.0, robot_level="aprendiz"
        )

    manager = build()
    try:
        await manager.start()
        options = {"minutes": 15} if kind is TournamentKind.ARENA else {"rounds": 2}
        create = CreateTournament(
            ADMIN, CHAT, kind, is_admin=True, preset="uno-contra-uno", fee=fee,
            **options,  # type: ignore[arg-type]
        )  # fmt: skip
        assert (await manager.handle(create)).ok
        for action, value in steps:
            if action == "join":
                await manager.handle(JoinTournament(people[value], CHAT))
            elif action == "leave":
                await manager.handle(LeaveTournament(people[value], CHAT))
            elif action == "start":
                await manager.handle(StartTournament(ADMIN, CHAT, is_admin=True))
            elif action == "cancel":
                await manager.handle(CancelTournament(ADMIN, CHAT, is_admin=True))
            elif action == "wait":
                await clock.advance(value * 120)
            else:  # the bot stops and starts again on the same database
                await manager.stop()
                manager = build()
                await manager.start()
            await manager.idle()
            assert await storage.check_ledger() == []
        for _ in range(40):  # played out: every table a no-show
            if manager.tournament_here(CHAT) is None:
                break
            await clock.advance(120)
            await manager.idle()
        assert manager.tournament_here(CHAT) is None
        assert await storage.open_tournament_escrows() == []
        assert await storage.check_ledger() == []
        balances = [await manager.balance(p) for p in people]
        assert sum(balances) == 1000 * len(people)
    finally:
        await manager.stop()
        await storage.close()


async def test_a_player_who_gets_up_before_the_match_keeps_their_seat_kept_for_them(
    make_manager, clock: ManualClock
) -> None:
    manager = await _running(
        make_manager, clock, TournamentKind.SWISS, PLAYERS[:2], fee=10, rounds=1, now=True
    )
    ana = PLAYERS[0]
    assert (await manager.handle(PlayNow(ana, CHAT))).ok
    assert (await manager.handle(Leave(ana, CHAT))).ok  # the only one seated gets up
    (table,) = _open_tables(manager)  # not closed as empty: the no-show rule decides
    kept = sorted(s.reserved_for.display_name for s in table.seats if s.reserved_for)
    assert kept == ["Ana", "Beto"]  # nobody else can take Ana's seat
    stranger = PlayerRef("test", "77", "Zoe")
    taken = await manager.handle(PlayNow(stranger, CHAT))
    assert taken.table_id != table.table_id
    await manager.stop()


async def test_a_tournament_table_an_admin_closes_is_opened_again_for_the_same_pairing(
    make_manager, clock: ManualClock, recorder: RecordingPort
) -> None:
    from bot.core import CloseTable

    manager = await _running(
        make_manager, clock, TournamentKind.SWISS, PLAYERS[:2], fee=10, rounds=1, now=True
    )
    (first,) = _open_tables(manager)
    closed = await manager.handle(CloseTable(ADMIN, CHAT, label=first.label, is_admin=True))
    assert closed.ok
    await manager.idle()
    (again,) = _open_tables(manager)
    assert again.table_id != first.table_id
    assert sorted(s.reserved_for.display_name for s in again.seats if s.reserved_for) == [
        "Ana",
        "Beto",
    ]
    await clock.advance(120)  # then nobody comes: a double loss, and the Swiss ends
    await manager.idle()
    assert recorder.last(TournamentUpdate).news is TournamentNews.FINISHED
    await manager.stop()


async def test_a_tournament_is_found_by_its_id_live_and_after_it_finished_but_not_a_made_up_one(
    make_manager, clock: ManualClock, recorder: RecordingPort
) -> None:
    manager = make_manager()
    await manager.start()
    await _signed(manager, TournamentKind.KNOCKOUT, PLAYERS[:2], fee=10)
    await clock.advance(10 * 60)
    await manager.idle()
    here = manager.tournament_here(CHAT)
    assert here is not None
    live = await manager.tournament_view(here.id)
    assert live is not None and live.status is TournamentStatus.RUNNING
    assert [p.table_id for p in live.pairings] == manager.tables()
    # Ana sits, Beto never comes: Ana wins the final by his no-show
    assert (await manager.handle(PlayNow(PLAYERS[0], CHAT))).ok
    await clock.advance(120)
    await manager.idle()
    assert manager.tournament_here(CHAT) is None
    ended = await manager.tournament_view(here.id)  # read back from storage's snapshot
    assert ended is not None and ended.status is TournamentStatus.FINISHED
    assert [(p.number, p.names, p.prize) for p in ended.places] == [
        (1, ("Ana",), 14),
        (2, ("Beto",), 6),
    ]
    assert ended.pairings == ()
    assert await manager.tournament_view("nosuchid") is None
    await manager.stop()


async def test_a_cancelled_tournament_is_still_found_by_its_id_with_the_fees_it_refunded(
    make_manager, clock: ManualClock
) -> None:
    manager = await _running(make_manager, clock, TournamentKind.SWISS, PLAYERS[:2], fee=25)
    here = manager.tournament_here(CHAT)
    assert here is not None
    assert (await manager.handle(CancelTournament(ADMIN, CHAT, is_admin=True))).ok
    await manager.idle()
    cancelled = await manager.tournament_view(here.id)  # read back from storage
    assert cancelled is not None and cancelled.status is TournamentStatus.CANCELLED
    assert (cancelled.refunded, cancelled.pairings, cancelled.places) == (50, (), ())
    await manager.stop()


async def test_a_finished_tournament_a_crash_left_open_in_storage_is_closed_by_the_restart(
    make_manager, clock: ManualClock, memory_storage: Storage, monkeypatch: pytest.MonkeyPatch
) -> None:
    manager = make_manager()
    await manager.start()
    await _signed(manager, TournamentKind.KNOCKOUT, PLAYERS[:2], fee=10)
    await clock.advance(10 * 60)
    await manager.idle()
    here = manager.tournament_here(CHAT)
    assert here is not None

    async def crash(*args: object, **kwargs: object) -> None:
        raise ConnectionError("the process died here")

    monkeypatch.setattr(memory_storage, "finish_tournament", crash)
    assert (await manager.handle(PlayNow(PLAYERS[0], CHAT))).ok
    await clock.advance(120)  # paid and saved as finished; storage never closed it
    await manager.idle()
    await manager.stop()
    assert await memory_storage.live_tournament_ids() == [here.id]
    monkeypatch.undo()

    again = make_manager()
    await again.start()
    assert again.tournament_here(CHAT) is None
    assert await memory_storage.live_tournament_ids() == []
    ana = await again.player_id(PLAYERS[0])
    assert [t.place for t in await memory_storage.player_tournaments(ana)] == [1]
    assert await _balances(again, PLAYERS[:2]) == [1004, 996]
    await again.stop()


async def test_a_malformed_tournament_snapshot_is_dropped_and_the_others_resume(
    make_manager, clock: ManualClock, memory_storage: Storage
) -> None:
    manager = await _running(make_manager, clock, TournamentKind.SWISS, PLAYERS[:2], fee=10)
    await manager.stop()
    await memory_storage.save_tournament("broken01", "test:-200", {"id": "broken01"}, now=1.0)
    again = make_manager()
    await again.start()  # the broken one is logged and left alone; nothing else changes
    assert again.tournament_here(CHAT) is not None
    assert again.tournament_here(ChatRef("test", "-200")) is None
    assert await _balances(again, PLAYERS[:2]) == [990, 990]
    await again.stop()


async def test_one_table_of_a_round_is_featured_and_the_others_are_played_privately(
    make_manager, clock: ManualClock, recorder: RecordingPort
) -> None:
    manager = await _running(make_manager, clock, TournamentKind.KNOCKOUT, PLAYERS, now=True)
    featured, private = _open_tables(manager)
    # the chat sees one board: the first table opened; the other is played privately
    # (docs/tournaments.md, "Within the platforms' limits")
    assert (featured.private, private.private) == (False, True)
    seated = [s.reserved_for for s in private.seats if s.reserved_for is not None]
    told = recorder.of(SeatKept)
    assert [(k.table_id, k.to, k.seat, k.opponents, k.wait_seconds) for k in told] == [
        (private.table_id, seated[0], 0, (seated[1].display_name,), 120.0),
        (private.table_id, seated[1], 1, (seated[0].display_name,), 120.0),
    ]
    assert {k.tournament for k in told} == {""} and {k.label for k in told} == {private.label}
    # the button of that private message seats its player, wherever it is pressed
    sit = encode_action("sit", private.table_id)
    assert (await manager.handle(PressButton(seated[1], sit))).ok
    state = manager.table_state(private.table_id)
    assert state is not None and state.seats[1].player == seated[1]
    outsider = next(p for p in PLAYERS if p not in seated)  # a seat kept for another
    foreign = await manager.handle(PressButton(outsider, sit))
    assert foreign.refusal is not None and foreign.refusal.reason is RefusalReason.TABLE_FULL
    await manager.stop()


async def test_an_arenas_live_standings_are_shown_at_most_once_a_minute(
    make_manager, clock: ManualClock, recorder: RecordingPort
) -> None:
    manager = await _running(
        make_manager, clock, TournamentKind.ARENA, PLAYERS, fee=0, minutes=15, now=True
    )
    shown: list[int] = []  # STANDINGS events so far, every 30 s of the arena
    for _ in range(10):
        await clock.advance(30)
        await manager.idle()
        shown.append(len(recorder.of(TournamentUpdate, news=TournamentNews.STANDINGS)))
    # both tables end at 2:00 (double no-shows): shown at once for the first result,
    # the second waits a minute (3:00); at 4:00 two more: once at once, once at 5:00
    assert shown == [0, 0, 0, 1, 1, 2, 2, 3, 3, 4]
    live = recorder.last(TournamentUpdate, news=TournamentNews.STANDINGS).view
    assert len(live.standings) == 4 and live.status is TournamentStatus.RUNNING
    await manager.stop()


# ------------------------------------------------------------ the done-when runs


def _field(count: int) -> list[PlayerRef]:
    return [PlayerRef("test", str(100 + i), f"J{i + 1:02d}") for i in range(count)]


async def _play_open_tables(
    manager: TableManager, clock: ManualClock, *, absent: frozenset[str] = frozenset()
) -> list[tuple[str, ...]]:
    """Every open tournament table is played: its players sit with the button of their
    private message (``absent`` keys never come), the match starts, then they leave one
    by one, the second side last (the last to leave loses: the first side wins). The
    players of each table, in seat order."""
    tables = _open_tables(manager)
    for state in tables:
        for info in state.seats:
            kept = info.reserved_for
            if kept is not None and kept.key not in absent:
                sit = encode_action("sit", state.table_id)
                assert (await manager.handle(PressButton(kept, sit))).ok
    await clock.advance(5)  # the countdowns: the matches start
    for state in tables:
        seats = [i.reserved_for for i in state.seats if i.reserved_for is not None]
        present = [p for p in seats if p.key not in absent]
        if len(present) < len(seats):
            continue  # a no-show: the table waits out its 2 minutes
        by_side = sorted(range(len(seats)), key=lambda s: state.rules.side_of(s) != 0)
        for seat in by_side:  # the first side leaves first: the second side loses
            await manager.handle(Leave(seats[seat], CHAT, state.table_id))
    await manager.idle()
    if absent:
        await clock.advance(120)
        await manager.idle()
    return [tuple(i.reserved_for.key for i in s.seats if i.reserved_for) for s in tables]


async def _money_balances(
    manager: TableManager, storage: Storage, players: list[PlayerRef]
) -> None:
    """Nothing lost or created: every balance, the house's none, no escrow left."""
    assert sum(await _balances(manager, players)) == 1000 * len(players)
    assert await storage.check_ledger() == []
    assert await storage.open_tournament_escrows() == []


async def test_a_9_player_swiss_of_4_rounds_gives_4_byes_repeats_no_pairing_and_pays_once(
    make_manager, clock: ManualClock, recorder: RecordingPort, memory_storage: Storage
) -> None:
    players = _field(9)
    manager = await _running(
        make_manager, clock, TournamentKind.SWISS, players, fee=10, rounds=4, now=True
    )
    pairings: list[frozenset[str]] = []
    byes: list[str] = []
    while manager.tournament_here(CHAT) is not None:
        played = await _play_open_tables(manager, clock)
        assert len(played) == 4  # 8 at tables, one bye a round
        seated = {k for table in played for k in table}
        (bye,) = {p.key for p in players} - seated
        byes.append(bye)
        pairings += [frozenset(table) for table in played]
    assert len(pairings) == 16 and len(set(pairings)) == 16  # no pairing twice
    assert len(byes) == 4 and len(set(byes)) == 4  # nobody has two byes
    ended = recorder.last(TournamentUpdate, news=TournamentNews.FINISHED).view
    assert [p.prize for p in ended.places if p.prize] == [54, 27, 9]  # 60/30/10 of $90
    await _money_balances(manager, memory_storage, players)
    assert len(recorder.of(TournamentUpdate, news=TournamentNews.FINISHED)) == 1
    await manager.stop()


async def test_a_20_minute_arena_of_12_players_pairs_them_until_the_end_and_pays_once(
    make_manager, clock: ManualClock, recorder: RecordingPort, memory_storage: Storage
) -> None:
    players = _field(12)
    manager = await _running(
        make_manager, clock, TournamentKind.ARENA, players, fee=25, minutes=20, now=True
    )
    matches = 0
    while manager.tournament_here(CHAT) is not None:
        tables = await _play_open_tables(manager, clock)
        matches += len(tables)
        await clock.advance(60)  # a minute between the waves of pairings
        await manager.idle()
    # a wave of 6 tables every 65 s (the 5 s countdown, then a minute) while it runs
    assert matches == 6 * 20
    ended = recorder.last(TournamentUpdate, news=TournamentNews.FINISHED).view
    assert len(ended.places) == 12
    assert [p.prize for p in ended.places if p.prize] == [180, 90, 30]  # of $300
    await _money_balances(manager, memory_storage, players)
    await manager.stop()


async def test_a_16_pair_knockout_with_one_no_show_plays_to_its_paid_end(
    make_manager, clock: ManualClock, recorder: RecordingPort, memory_storage: Storage
) -> None:
    players = _field(32)
    manager = make_manager()
    await manager.start()
    create = CreateTournament(
        ADMIN, CHAT, TournamentKind.KNOCKOUT, is_admin=True, preset="venezolano", fee=10
    )
    assert (await manager.handle(create)).ok
    for player in players:
        assert (await manager.handle(JoinTournament(player, CHAT))).ok
    assert (await manager.handle(StartTournament(ADMIN, CHAT, is_admin=True))).ok
    await manager.idle()
    rounds: list[int] = []
    absent = frozenset({players[5].key})  # never sits: their pair loses round 1
    while manager.tournament_here(CHAT) is not None:
        played = await _play_open_tables(
            manager, clock, absent=absent if not rounds else frozenset()
        )
        rounds.append(len(played))
    assert rounds == [8, 4, 2, 1]  # 16 pairs: 8 tables, then 4, 2 and the final
    closed = [c.reason.value for c in recorder.of(TableClosed)]
    assert closed.count("no_show") == 1
    ended = recorder.last(TournamentUpdate, news=TournamentNews.FINISHED).view
    # 60/30/10 of $320 (3rd-4th shared), each pair's share split between its players
    assert [(p.number, p.prize) for p in ended.places if p.prize] == [(1, 192), (2, 96), (3, 32)]
    # the pair of the player who never came went out in round 1: 9th-16th
    assert next(p.number for p in ended.places if "J06" in p.names) == 9
    await _money_balances(manager, memory_storage, players)
    await manager.stop()


async def test_a_knockout_killed_mid_round_one_resumes_its_round_and_then_its_final(
    make_manager, clock: ManualClock, memory_storage: Storage
) -> None:
    manager = await _running(
        make_manager, clock, TournamentKind.KNOCKOUT, PLAYERS, fee=10, now=True
    )
    assert len(_open_tables(manager)) == 2
    # a crash: nothing stopped, the next process starts from storage
    recorder = RecordingPort()
    again = make_manager(port=recorder)
    await again.start()
    assert len(_open_tables(again)) == 2
    first = await _play_open_tables(again, clock)
    assert sorted(len(t) for t in first) == [2, 2]  # the round resumed: both semi-finals
    (final,) = await _play_open_tables(again, clock)
    # the first side of each table won (its players left first): they meet in the final
    assert set(final) == {first[0][0], first[1][0]}
    assert again.tournament_here(CHAT) is None
    await _money_balances(again, memory_storage, PLAYERS)
    await again.stop()


# ------------------------------------------------------------ partners drawn each round


async def _drawn(
    make_manager: Callable[..., TableManager], kind: TournamentKind, players: list[PlayerRef],
    **options: int,
) -> TableManager:  # fmt: skip
    """A running tournament in partnerships whose partners are drawn each round."""
    manager = make_manager()
    await manager.start()
    create = CreateTournament(
        ADMIN, CHAT, kind, is_admin=True, preset="venezolano", fee=10,
        partners=Partners.EACH_ROUND, **options,
    )  # fmt: skip
    assert (await manager.handle(create)).ok
    for player in players:
        assert (await manager.handle(JoinTournament(player, CHAT))).ok
    assert (await manager.handle(StartTournament(ADMIN, CHAT, is_admin=True))).ok
    await manager.idle()
    return manager


def _partnerships(tables: list[tuple[str, ...]]) -> list[frozenset[str]]:
    """Each table's two partnerships: seats 0 and 2, seats 1 and 3."""
    return [frozenset(t[side::2]) for t in tables for side in (0, 1)]


async def test_a_swiss_of_10_players_draws_new_partners_each_round_and_pays_players_once(
    make_manager, clock: ManualClock, recorder: RecordingPort, memory_storage: Storage
) -> None:
    players = _field(10)
    manager = await _drawn(make_manager, TournamentKind.SWISS, players, rounds=3)
    partnerships: list[frozenset[str]] = []
    rested: list[frozenset[str]] = []
    while manager.tournament_here(CHAT) is not None:
        played = await _play_open_tables(manager, clock)
        assert len(played) == 2  # 8 players at two tables, a partnership of 2 rests
        partnerships += _partnerships(played)
        rested.append(frozenset(p.key for p in players) - {k for t in played for k in t})
    assert len(partnerships) == 12 and len(set(partnerships)) == 12  # never a partner twice
    assert [len(r) for r in rested] == [2, 2, 2]
    assert len(frozenset().union(*rested)) == 6  # nobody rests twice
    ended = recorder.last(TournamentUpdate, news=TournamentNews.FINISHED).view
    assert ended.partners is Partners.EACH_ROUND
    assert len(ended.places) == 10 and all(len(p.names) == 1 for p in ended.places)
    assert [p.prize for p in ended.places if p.prize] == [60, 30, 10]  # of $100, to players
    await _money_balances(manager, memory_storage, players)
    await manager.stop()


async def test_an_arena_of_12_players_changes_partners_after_every_match(
    make_manager, clock: ManualClock, recorder: RecordingPort, memory_storage: Storage
) -> None:
    players = _field(12)
    manager = await _drawn(make_manager, TournamentKind.ARENA, players, minutes=20)
    last: dict[str, str] = {}
    waves = 0
    while manager.tournament_here(CHAT) is not None:
        tables = await _play_open_tables(manager, clock)
        assert len(tables) == 3  # everyone seated, four to a table
        for a, b in map(tuple, _partnerships(tables)):
            assert last.get(a) != b  # a new partner every match
            last[a], last[b] = b, a
        waves += 1
        await clock.advance(60)
        await manager.idle()
    assert waves == 20
    ended = recorder.last(TournamentUpdate, news=TournamentNews.FINISHED).view
    assert len(ended.places) == 12
    assert [p.prize for p in ended.places if p.prize] == [72, 36, 12]  # of $120
    await _money_balances(manager, memory_storage, players)
    await manager.stop()


async def test_partners_drawn_each_round_are_refused_for_a_knockout_and_one_against_one(
    make_manager,
) -> None:
    manager = make_manager()
    await manager.start()
    for kind, preset in ((TournamentKind.KNOCKOUT, ""), (TournamentKind.SWISS, "uno-contra-uno")):
        create = CreateTournament(
            ADMIN, CHAT, kind, is_admin=True, preset=preset, partners=Partners.EACH_ROUND
        )
        reply = await manager.handle(create)
        assert reply.refusal is not None
        assert reply.refusal.reason is RefusalReason.DRAWN_PARTNERS
    assert manager.tournament_here(CHAT) is None
    await manager.stop()


async def test_a_swiss_with_drawn_partners_resumes_mid_round_after_a_restart(
    make_manager, clock: ManualClock, memory_storage: Storage
) -> None:
    players = _field(8)
    manager = await _drawn(make_manager, TournamentKind.SWISS, players, rounds=2)
    await _play_open_tables(manager, clock)  # round 1
    before = {frozenset(s.seats[i].reserved_for.key for i in (0, 2)) for s in _open_tables(manager)}
    await manager.stop()

    recorder = RecordingPort()
    again = make_manager(port=recorder)
    await again.start()
    after = {frozenset(s.seats[i].reserved_for.key for i in (0, 2)) for s in _open_tables(again)}
    assert len(after) == 2 and after == before  # round 2 as it was paired, not again
    await _play_open_tables(again, clock)
    ended = recorder.last(TournamentUpdate, news=TournamentNews.FINISHED).view
    assert ended.partners is Partners.EACH_ROUND and len(ended.places) == 8
    await _money_balances(again, memory_storage, players)
    await again.stop()
