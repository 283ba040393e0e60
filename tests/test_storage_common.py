"""Rules both storages share (storage/common.py): settlement plans, validation, JSON."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.errors import RulesError
from storage.base import OPENING_BALANCE, PlayerResult
from storage.common import (
    HOUSE,
    canonical_chat_rules,
    check_results,
    escrow_account,
    plan_forfeit,
    plan_opening,
    plan_refund,
    plan_settlement,
    plan_stake,
    plan_top_up,
    player_account,
    to_json,
)

STATUSES = st.sampled_from(["held", "held", "forfeited"])


@settings(max_examples=60, deadline=None)
@given(
    stake=st.integers(0, 1000),
    holders=st.dictionaries(st.integers(1, 8), STATUSES, max_size=4),
    winners=st.lists(st.integers(1, 10), max_size=4),
)
def test_a_settlement_sums_to_zero_and_empties_the_escrow(
    stake: int, holders: dict[int, str], winners: list[int]
) -> None:
    plan = plan_settlement("m", stake, holders, winners)
    assert sum(amount for _, amount in plan.entries) == 0
    held = stake * sum(status == "held" for status in holders.values())
    assert dict(plan.entries).get(escrow_account("m"), 0) == -held
    paid = {pid for pid, status in holders.items() if status == "held" and pid in winners}
    assert plan.amounts == {pid: 2 * stake for pid in paid}
    for pid in paid:
        assert dict(plan.entries).get(player_account(pid), 0) == 2 * stake
    assert all(amount != 0 for _, amount in plan.entries)


@settings(max_examples=60, deadline=None)
@given(
    stake=st.integers(0, 1000),
    holders=st.dictionaries(st.integers(1, 8), STATUSES, max_size=4),
    winner=st.integers(1, 10),
    share=st.integers(2, 4),
)
def test_a_settlement_of_individual_play_pays_its_share_and_sums_to_zero(
    stake: int, holders: dict[int, str], winner: int, share: int
) -> None:
    plan = plan_settlement("m", stake, holders, [winner], share)
    assert sum(amount for _, amount in plan.entries) == 0
    paid = holders.get(winner) == "held"
    assert plan.amounts == ({winner: share * stake} if paid else {})


def test_the_winner_of_one_against_one_with_a_robot_gets_two_stakes_the_house_paying_one() -> None:
    plan = plan_settlement("m", 10, {5: "held"}, [5], 2)
    assert dict(plan.entries) == {escrow_account("m"): -10, HOUSE: -10, "player:5": 20}
    three = plan_settlement("m", 10, {5: "held", 6: "held"}, [6], 3)
    assert dict(three.entries) == {escrow_account("m"): -20, HOUSE: -10, "player:6": 30}
    assert three.statuses == {5: "lost", 6: "paid"}


def test_winners_are_paid_in_seat_order_and_losers_marked_lost() -> None:
    plan = plan_settlement("m", 10, {4: "held", 2: "held", 7: "forfeited"}, [2, 4, 7])
    assert list(plan.amounts) == [4, 2]
    assert plan.statuses == {4: "paid", 2: "paid"}
    assert dict(plan.entries) == {
        escrow_account("m"): -20,
        HOUSE: -20,
        "player:4": 20,
        "player:2": 20,
    }
    lost = plan_settlement("m", 10, {4: "held", 2: "held"}, [2])
    assert lost.statuses == {4: "lost", 2: "paid"}


def test_a_refund_returns_only_held_stakes() -> None:
    plan = plan_refund("m", 15, {1: "held", 2: "forfeited", 3: "held"})
    assert plan.amounts == {1: 15, 3: 15}
    assert dict(plan.entries) == {escrow_account("m"): -30, "player:1": 15, "player:3": 15}
    assert plan_refund("m", 0, {1: "held"}).entries == []


def test_every_money_movement_is_one_keyed_plan_that_sums_to_zero() -> None:
    plans = [
        plan_opening(3),
        plan_top_up(3, 95, match_id="m", now=7.0),
        plan_top_up(3, 95, match_id=None, now=7.0),
        plan_stake("m", 10, [3, 4]),
        plan_forfeit("m", 10, 4),
        plan_settlement("m", 10, {3: "held", 4: "forfeited"}, [3]),
        plan_refund("m", 10, {3: "held", 4: "forfeited"}),
    ]
    assert [(p.key, p.kind, p.match_id) for p in plans] == [
        ("open:3", "open", None),
        ("top_up:stake:m:3", "top_up", "m"),
        ("top_up:at:3:7.0", "top_up", None),
        ("stake:m", "stake", "m"),
        ("forfeit:m:4", "forfeit", "m"),
        ("settle:m", "payout", "m"),
        ("refund:m", "refund", "m"),
    ]
    assert all(sum(amount for _, amount in p.entries) == 0 for p in plans)
    assert dict(plans[0].entries) == {HOUSE: -OPENING_BALANCE, "player:3": OPENING_BALANCE}
    assert dict(plans[3].entries) == {"player:3": -10, "player:4": -10, escrow_account("m"): 20}
    assert plans[3].statuses == {3: "held", 4: "held"}
    assert dict(plans[4].entries) == {escrow_account("m"): -10, HOUSE: 10}
    assert (plans[4].amounts, plans[4].statuses) == ({}, {4: "forfeited"})
    assert plan_stake("m", 0, [3]).entries == []


def test_chat_rules_get_the_canonical_preset_and_validated_values() -> None:
    assert canonical_chat_rules(" ESPAÑOL ", {"redeal_doubles": "none"}) == (
        "espanol",
        {"redeal_doubles": None},
    )
    with pytest.raises(RulesError):
        canonical_chat_rules("venezolano", {"name": "x"})


def test_match_results_are_checked_before_anything_is_written() -> None:
    check_results("m", "c:1", [PlayerResult(1, 0, True), PlayerResult(2, 1, False)])
    with pytest.raises(ValueError, match="chat"):
        check_results("m", "", [])
    with pytest.raises(ValueError, match="hands_won"):
        check_results("m", "c:1", [PlayerResult(1, 0, True, hands_won=True)])  # type: ignore[arg-type]


def test_json_refuses_what_it_cannot_round_trip() -> None:
    assert to_json({"a": [1, "ñ"]}) == '{"a":[1,"ñ"]}'
    with pytest.raises(TypeError):
        to_json({"a": float("nan")})
    with pytest.raises(TypeError):
        to_json({"a": b"bytes"})
