"""Money at a table (bot.core.settlement): the funds check, stakes all or none, forfeits,
the finish and the refund, on the in-memory storage."""

from __future__ import annotations

import random

import pytest
from core_parts import ANA, BETO, CARLA, CHAT, build_parts
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.core import ComeBack, Leave, MatchEnded, PlayerUnseated, Refusal, TableClosed
from bot.core.clock import ManualClock
from bot.core.commands import PlayerRef
from bot.core.events import Refused
from bot.core.settlement import abandoned_winner, player_results, winner_share
from bot.core.table import Seat
from bot.core.vocabulary import AwayReason, CloseReason, Phase, RefusalReason
from engine.match import Match
from engine.rules import find_any_preset, find_preset
from storage import open_storage
from storage.base import MatchClosedError
from storage.ratings import NEW_SKILL


@pytest.fixture
def parts(memory_storage, clock):
    return build_parts(memory_storage, clock)


async def seated_table(parts, *, stake: int = 10):
    """A live table: Beto at seat 0 (team 0), Ana at seat 1 (team 1), robots at 2 and 3."""
    table = parts.lobby.new_table(CHAT, find_preset("venezolano", stake=stake, target=50))
    for seat, player in ((0, BETO), (1, ANA)):
        table.seats[seat].player = player
        table.seats[seat].player_id = await parts.core.player_id(player)
    for seat in (2, 3):
        table.seats[seat].robot_level = "aprendiz"
    parts.core.tables[table.id] = table
    return table


def finished_match(rules) -> Match:
    """A whole match played by the engine alone (the first legal move each time): with
    this deal, team 1 (seats 1 and 3) wins."""
    match = Match.new(rules, random.Random(1))
    while not match.is_over:
        if match.hand.is_over:
            match = match.next_hand(random.Random(100 + match.hand_number))
        else:
            match = match.apply(match.hand.legal_moves()[0])
    return match


async def test_a_player_who_can_pay_is_let_through_and_one_who_cannot_is_refused(
    parts, memory_storage
):
    ana = await parts.core.player_id(ANA)
    await parts.settlement.check_funds(ana, 1000, "t1")
    await memory_storage.stake("elsewhere", [ana], 1000, now=parts.core.clock.now())
    with pytest.raises(Refused) as refused:
        await parts.settlement.check_funds(ana, 1000, "t1")
    assert refused.value.reason is RefusalReason.INSUFFICIENT_FUNDS
    assert (refused.value.table_id, refused.value.params) == ("t1", {"balance": 100, "stake": 1000})
    await parts.settlement.check_funds(ana, 0, "t1")  # a free table needs nothing


async def test_stakes_are_taken_from_every_human_and_never_from_robots(parts, memory_storage):
    table = await seated_table(parts)
    ana, beto = table.seats[1].player_id, table.seats[0].player_id
    assert await parts.settlement.take_stakes(table) is True
    assert table.stakes == {beto: 10, ana: 10}
    assert await memory_storage.balance(ana) == 990
    assert await memory_storage.balance(beto) == 990


async def test_stakes_are_all_or_none_and_who_cannot_pay_is_unseated_and_told(
    parts, memory_storage
):
    table = await seated_table(parts, stake=1000)
    ana, beto = table.seats[1].player_id, table.seats[0].player_id
    await memory_storage.stake("elsewhere", [beto], 1000, now=parts.core.clock.now())
    assert await parts.settlement.take_stakes(table) is False
    assert table.stakes == {}
    assert await memory_storage.balance(ana) == 1000
    assert await memory_storage.balance(beto) == 100  # the due top-up, nothing taken
    assert table.seats[0] == Seat()
    assert table.seats[1].player == ANA
    events = await parts.events()
    told = events.last(Refusal)
    assert (told.to, told.reason, told.table_id) == (BETO, "insufficient_funds", table.id)
    assert told.params == {"balance": 100, "stake": 1000}
    assert [(e.seat, e.player) for e in events.of(PlayerUnseated)] == [(0, BETO)]


async def test_a_forfeited_stake_stays_in_the_pot_when_the_table_is_cancelled(
    parts, memory_storage
):
    table = await seated_table(parts)
    ana, beto = table.seats[1].player_id, table.seats[0].player_id
    await parts.settlement.take_stakes(table)
    await parts.settlement.forfeit(table, 1)
    state = table.seats[1]
    assert (state.forfeited, state.away, state.back_by) == (True, True, None)
    await parts.settlement.close(table, CloseReason.CANCELLED)
    closed = (await parts.events()).last(TableClosed)
    assert closed.refunds == {beto: 10}
    assert await memory_storage.balance(ana) == 990
    assert await memory_storage.balance(beto) == 1000
    assert await memory_storage.check_ledger() == []


async def test_cancelling_a_started_table_refunds_every_stake(parts, memory_storage):
    table = await seated_table(parts)
    ana, beto = table.seats[1].player_id, table.seats[0].player_id
    await parts.settlement.take_stakes(table)
    await memory_storage.save_table(table.id, table.snapshot(), now=parts.core.clock.now())
    await parts.settlement.close(table, CloseReason.CANCELLED)
    closed = (await parts.events()).last(TableClosed)
    assert (closed.reason, closed.refunds) == (CloseReason.CANCELLED, {beto: 10, ana: 10})
    assert await memory_storage.balance(ana) == 1000
    assert await memory_storage.balance(beto) == 1000
    assert (table.closed, table.phase) == (True, Phase.ENDED)
    assert table.id not in parts.core.tables
    assert table.id in parts.core.ended
    assert await memory_storage.load_tables() == []


async def test_a_table_every_human_abandoned_closes_and_pays_nobody(parts, memory_storage):
    table = await seated_table(parts)
    ana, beto = table.seats[1].player_id, table.seats[0].player_id
    await parts.settlement.take_stakes(table)
    await parts.settlement.forfeit(table, 0)
    await parts.settlement.forfeit(table, 1)
    await parts.settlement.close(table, CloseReason.NO_HUMANS)
    closed = (await parts.events()).last(TableClosed)
    assert (closed.reason, closed.refunds) == (CloseReason.NO_HUMANS, {})
    assert await memory_storage.balance(ana) == 990
    assert await memory_storage.balance(beto) == 990
    assert await memory_storage.check_ledger() == []
    with pytest.raises(MatchClosedError):  # the pot is closed: nothing left to refund
        await memory_storage.refund(table.id, now=parts.core.clock.now())


def match_under_way(rules, moves: int = 9) -> Match:
    """The engine's match above after its first ``moves`` moves (the first hand goes on)."""
    match = Match.new(rules, random.Random(1))
    for _ in range(moves):
        match = match.apply(match.hand.legal_moves()[0])
    assert not match.hand.is_over
    return match


async def test_the_last_human_abandoning_loses_the_match_and_an_earlier_opponent_gains_nothing(
    parts, memory_storage
):
    """Issue 27 follow-up: Beto (team 0) abandons first, then Ana (team 1), the last
    human: the match is recorded as played so far, lost by Ana's team; Beto's team wins
    but he abandoned too, so his rating does not move; nobody is paid."""
    table = await seated_table(parts)
    ana, beto = table.seats[1].player_id, table.seats[0].player_id
    await parts.settlement.take_stakes(table)
    table.phase = Phase.PLAYING
    table.match = match_under_way(table.rules)
    await parts.settlement.forfeit(table, 0)
    await parts.settlement.forfeit(table, 1)
    await parts.settlement.abandoned(table, 1)
    events = await parts.events()
    assert events.last(TableClosed).reason is CloseReason.NO_HUMANS
    assert not events.of(MatchEnded)
    (stored,) = await memory_storage.match_records(player_id=ana)
    assert (stored.record["abandoned_by"], stored.record["winner_team"]) == (1, 0)
    assert len(stored.record["hands"]) == 1 and len(stored.record["hands"][0]["moves"]) == 9
    ana_stats, beto_stats = [await memory_storage.player_stats(p) for p in (ana, beto)]
    assert (ana_stats.matches_played, ana_stats.matches_won) == (1, 0)
    assert (beto_stats.matches_played, beto_stats.matches_won) == (1, 1)
    ana_rating = await memory_storage.player_rating(ana)
    beto_rating = await memory_storage.player_rating(beto)
    assert ana_rating.mu < NEW_SKILL.mu
    assert (beto_rating.mu, beto_rating.sigma) == (NEW_SKILL.mu, NEW_SKILL.sigma)
    assert (beto_rating.matches, beto_rating.wins) == (1, 1)
    assert [await memory_storage.balance(p) for p in (ana, beto)] == [990, 990]
    assert await memory_storage.check_ledger() == []
    assert (await memory_storage.rebuild_ratings(write=False)).differences == ()


async def test_closing_an_empty_table_refunds_nothing(parts):
    table = await seated_table(parts)
    await parts.settlement.take_stakes(table)
    await parts.settlement.close(table, CloseReason.EMPTY)
    assert (await parts.events()).last(TableClosed).refunds == {}


async def test_finish_pays_the_winners_through_storage_and_tells_payouts_and_balances(
    parts, memory_storage
):
    table = await seated_table(parts)
    ana, beto = table.seats[1].player_id, table.seats[0].player_id
    await parts.settlement.take_stakes(table)
    table.phase = Phase.PLAYING
    table.match = finished_match(table.rules)
    assert table.match.winner_team == 1
    await parts.settlement.finish(table)
    events = await parts.events()
    ended = events.last(MatchEnded)
    assert (ended.winner_team, ended.score) == (1, table.match.score)
    assert ended.winners == (ANA,)
    assert ended.payouts == {1: 20}  # the robot at seat 3 is never paid
    assert ended.payouts_by_player == {ana: 20}
    assert ended.balances == {beto: 990, ana: 1010}
    assert events.last(TableClosed).reason is CloseReason.FINISHED
    assert parts.core.matches_finished == 1
    assert (await memory_storage.player_stats(ana)).matches_won == 1
    assert (await memory_storage.player_stats(beto)).matches_won == 0
    assert await memory_storage.check_ledger() == []


async def winning_table_with_carla(parts):
    """Beto at seat 0, Ana at 1 and Carla across from her at 3 (team 1, who win the
    finished match), a robot at 2; stakes taken, the match over."""
    table = await seated_table(parts)
    table.seats[3] = Seat(player=CARLA, player_id=await parts.core.player_id(CARLA))
    await parts.settlement.take_stakes(table)
    table.phase = Phase.PLAYING
    table.match = finished_match(table.rules)
    assert table.match.winner_team == 1
    return table


async def test_a_leaver_is_never_paid_when_the_robot_wins_and_the_partner_still_is(
    parts, memory_storage
):
    """Issue 27, item 2: leaving on purpose pays nothing even when the robot playing the
    seat wins; the leaver's partner is paid as ever and no dollar is lost or created."""
    table = await winning_table_with_carla(parts)
    ana, beto, carla = (table.seats[i].player_id for i in (1, 0, 3))
    reply = await parts.lobby.leave(Leave(ANA, CHAT, table.id))
    assert reply.forfeited == 10
    await parts.settlement.finish(table)
    ended = (await parts.events()).last(MatchEnded)
    assert ended.winners == (CARLA,)
    assert ended.payouts == {3: 20}
    assert ended.payouts_by_player == {carla: 20}
    balances = [await memory_storage.balance(p) for p in (ana, beto, carla)]
    assert balances == [990, 990, 1010]
    assert await memory_storage.check_ledger() == []


async def test_a_seat_a_robot_still_plays_at_the_end_is_not_paid_its_stake_is_forfeited(
    parts, memory_storage
):
    """Issue 27, item 2: the 5 minutes to come back keep the seat, not the payout: a
    player not back when the match ends is paid nothing, even when their team wins."""
    table = await winning_table_with_carla(parts)
    ana, carla = table.seats[1].player_id, table.seats[3].player_id
    parts.session.go_away(table, 1, AwayReason.MISSED_TURNS)
    await parts.settlement.finish(table)
    ended = (await parts.events()).last(MatchEnded)
    assert ended.payouts_by_player == {carla: 20}
    assert (await memory_storage.balance(ana), await memory_storage.balance(carla)) == (990, 1010)
    assert table.seats[1].forfeited is True and 1 not in table.away_timers
    assert await memory_storage.check_ledger() == []


async def test_a_player_back_before_the_end_is_paid(parts, memory_storage):
    table = await winning_table_with_carla(parts)
    ana = table.seats[1].player_id
    parts.session.go_away(table, 1, AwayReason.MISSED_TURNS)
    await parts.session.come_back(ComeBack(ANA, CHAT, table.id))
    await parts.settlement.finish(table)
    assert (await parts.events()).last(MatchEnded).payouts == {1: 20, 3: 20}
    assert await memory_storage.balance(ana) == 1010
    assert await memory_storage.check_ledger() == []


async def test_player_results_name_each_seated_human_and_no_robot(parts):
    table = await seated_table(parts)
    match = finished_match(table.rules)
    results = player_results(table, match)
    ana, beto = table.seats[1].player_id, table.seats[0].player_id
    assert [(r.player_id, r.team, r.won_match) for r in results] == [
        (beto, 0, False),
        (ana, 1, True),
    ]
    assert results[0].hands_won + results[1].hands_won == sum(
        1 for o in match.outcomes if o.winner_team is not None
    )


# -- money in the formats (rules.md, "Money in the formats") ---------------------------


async def format_table(parts, preset: str, humans: dict, **overrides):
    """A live table of a format preset: ``humans`` maps seats to players, robots in the
    other seats; stakes of $10 taken."""
    rules = find_any_preset(preset, stake=10, **overrides)
    table = parts.lobby.new_table(CHAT, rules)
    assert len(table.seats) == rules.players
    for seat in range(rules.players):
        if seat in humans:
            table.seats[seat].player = humans[seat]
            table.seats[seat].player_id = await parts.core.player_id(humans[seat])
        else:
            table.seats[seat].robot_level = "aprendiz"
    parts.core.tables[table.id] = table
    assert await parts.settlement.take_stakes(table)
    table.phase = Phase.PLAYING
    return table


def format_match_won_by(rules, side: int) -> Match:
    """A whole match of ``rules`` played by the engine (the first legal move each time)
    from the first deal seed that makes ``side`` the winner."""
    for seed in range(200):
        match = Match.new(rules, random.Random(seed))
        while not match.is_over:
            if match.hand.is_over:
                match = match.next_hand(random.Random(f"{seed}:{match.hand_number}"))
            else:
                match = match.apply(match.hand.legal_moves()[0])
        if match.winner_team == side:
            return match
    raise AssertionError(f"no deal of 200 is won by side {side}")


async def test_one_against_one_won_by_the_human_pays_two_stakes_the_house_paying_the_robots(
    parts, memory_storage
):
    table = await format_table(parts, "uno-contra-uno", {0: ANA})
    ana = table.seats[0].player_id
    table.match = format_match_won_by(table.rules, 0)
    await parts.settlement.finish(table)
    ended = (await parts.events()).last(MatchEnded)
    assert (ended.winner_team, ended.winners, ended.payouts) == (0, (ANA,), {0: 20})
    assert ended.balances == {ana: 1010}
    assert await memory_storage.balance(ana) == 1010
    assert await memory_storage.check_ledger() == []
    # a format's match never moves today's ratings (its own list is issue 29's to come)
    assert await memory_storage.player_rating(ana) is None
    assert (await memory_storage.rating_history(ana)) == []


async def test_one_against_one_lost_by_the_human_costs_the_stake(parts, memory_storage):
    table = await format_table(parts, "uno-contra-uno", {0: ANA})
    ana = table.seats[0].player_id
    table.match = format_match_won_by(table.rules, 1)
    await parts.settlement.finish(table)
    ended = (await parts.events()).last(MatchEnded)
    assert (ended.winner_team, ended.winners, ended.payouts) == (1, (), {})
    assert await memory_storage.balance(ana) == 990
    assert await memory_storage.check_ledger() == []


async def test_one_against_one_between_two_humans_moves_the_stake_from_loser_to_winner(
    parts, memory_storage
):
    table = await format_table(parts, "uno-contra-uno", {0: ANA, 1: BETO})
    ana, beto = table.seats[0].player_id, table.seats[1].player_id
    table.match = format_match_won_by(table.rules, 1)
    await parts.settlement.finish(table)
    assert (await parts.events()).last(MatchEnded).payouts_by_player == {beto: 20}
    assert [await memory_storage.balance(p) for p in (ana, beto)] == [990, 1010]
    assert await memory_storage.check_ledger() == []


async def test_three_player_individual_pays_the_winner_three_stakes(parts, memory_storage):
    table = await format_table(parts, "individual", {0: ANA, 1: BETO}, players=3)
    ana, beto = table.seats[0].player_id, table.seats[1].player_id
    table.match = format_match_won_by(table.rules, 1)
    await parts.settlement.finish(table)
    ended = (await parts.events()).last(MatchEnded)
    assert (ended.winners, ended.payouts) == ((BETO,), {1: 30})
    assert [await memory_storage.balance(p) for p in (ana, beto)] == [990, 1020]
    results = {r.player_id: (r.team, r.won_match) for r in player_results(table, table.match)}
    assert results == {ana: (0, False), beto: (1, True)}
    assert await memory_storage.check_ledger() == []


async def test_cubano_pays_each_winning_partner_two_stakes(parts, memory_storage):
    table = await format_table(parts, "cubano", {0: ANA, 1: BETO, 2: CARLA})
    ana, beto, carla = (table.seats[s].player_id for s in (0, 1, 2))
    table.match = format_match_won_by(table.rules, 0)
    await parts.settlement.finish(table)
    ended = (await parts.events()).last(MatchEnded)
    assert ended.payouts == {0: 20, 2: 20}
    assert [await memory_storage.balance(p) for p in (ana, beto, carla)] == [1010, 990, 1010]
    assert await memory_storage.check_ledger() == []


async def test_a_format_match_its_last_human_abandons_is_lost_by_them_and_pays_nobody(
    parts, memory_storage
):
    table = await format_table(parts, "individual", {1: ANA}, players=3)
    ana = table.seats[1].player_id
    match = Match.new(table.rules, random.Random(1))
    for _ in range(4):
        match = match.apply(match.hand.legal_moves()[0])
    table.match = match
    await parts.settlement.forfeit(table, 1)
    await parts.settlement.abandoned(table, 1)
    (stored,) = await memory_storage.match_records(player_id=ana)
    assert (stored.record["abandoned_by"], stored.record["winner_team"]) == (1, 0)
    assert (await memory_storage.player_stats(ana)).matches_won == 0
    assert await memory_storage.balance(ana) == 990
    assert await memory_storage.check_ledger() == []


def test_the_winner_share_is_two_stakes_with_partners_and_one_per_seat_alone():
    shares = {p: winner_share(find_any_preset(p)) for p in ("uno-contra-uno", "individual")}
    assert shares == {"uno-contra-uno": 2, "individual": 4}
    assert winner_share(find_any_preset("cubano")) == 2
    assert winner_share(find_any_preset("individual", players=3)) == 3
    assert winner_share(find_preset("venezolano")) == 2


def test_an_abandoned_individual_match_goes_to_the_other_seat_with_the_most_points():
    rules = find_any_preset("individual")
    match = Match(rules, Match.new(rules, random.Random(1)).hands, (5, 30, 30, 10))
    assert abandoned_winner(match, 0) == 1  # 30 and 30: the lower seat
    assert abandoned_winner(match, 1) == 2
    partners = Match(find_preset("venezolano"), match.hands[:0], (0, 0))
    assert abandoned_winner(partners, 3) == 0


FORMATS = ("uno-contra-uno", "individual", "individual3", "cubano", "venezolano")


@settings(max_examples=25, deadline=None)
@given(
    preset=st.sampled_from(FORMATS),
    seats=st.sets(st.integers(0, 3), min_size=1, max_size=4),
    winner_seat=st.integers(0, 3),
    leaver=st.integers(-1, 3),
)
async def test_every_format_settles_to_a_ledger_that_sums_to_zero_with_escrows_closed(
    preset, seats, winner_seat, leaver
):
    """Any humans, any winner, one of them abandoning or not: no dollar created or lost,
    the winners' humans paid their share, and the escrow closed."""
    storage = await open_storage(":memory:")
    try:
        parts = build_parts(storage, ManualClock())
        overrides = {"players": 3} if preset == "individual3" else {}
        name = "individual" if preset == "individual3" else preset
        rules = find_any_preset(name, **overrides)
        players = [PlayerRef("test", str(s), f"P{s}") for s in range(4)]
        # humans on sides 0 and 1: storage's check of a result's team takes sides above
        # 1 once the ratings of the formats land (storage.common.check_results)
        humans = {s: players[s] for s in seats if s < rules.players and rules.side_of(s) < 2}
        if not humans:
            return
        table = await format_table(parts, name, humans, **overrides)
        table.match = format_match_won_by(rules, rules.side_of(winner_seat % rules.players))
        left = leaver if leaver in humans and len(humans) > 1 else None
        if left is not None:
            await parts.settlement.forfeit(table, left)
        await parts.settlement.finish(table)
        assert await storage.check_ledger() == []
        ended = (await parts.events()).last(MatchEnded)
        paid = [s for s in humans if rules.side_of(s) == ended.winner_team and s != left]
        assert ended.payouts == {s: winner_share(rules) * 10 for s in paid}
        for s, player in humans.items():
            balance = await storage.balance(await parts.core.player_id(player))
            assert balance == 990 + (winner_share(rules) * 10 if s in paid else 0)
        with pytest.raises(MatchClosedError):  # the escrow is closed: nothing to refund
            await storage.refund(table.id, now=parts.core.clock.now())
    finally:
        await storage.close()
