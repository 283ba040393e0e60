from __future__ import annotations

import dataclasses

import pytest

from engine.rules import find_any_preset, find_preset
from render import SeatFacts, TableFacts
from render.facts import check_facts


def test_table_facts_default_to_spanish_with_no_timer() -> None:
    facts = TableFacts((SeatFacts("a"), SeatFacts("b"), SeatFacts("c"), SeatFacts("d")))
    assert facts.language == "es" and facts.seconds_left is None and facts.table_label == ""
    assert facts.seats[1] == SeatFacts("b", is_robot=False, away=False)


def test_facts_are_frozen_and_hashable() -> None:
    seat = SeatFacts("Ana", is_robot=True)
    with pytest.raises(dataclasses.FrozenInstanceError):
        seat.name = "Eva"  # type: ignore[misc]
    facts = TableFacts((seat, seat, seat, seat), seconds_left=5)
    assert hash(facts) == hash(TableFacts((seat, seat, seat, seat), seconds_left=5))


def test_the_boneyard_count_is_none_unless_given_and_never_negative() -> None:
    seats = (SeatFacts("a"), SeatFacts("b"), SeatFacts("c"), SeatFacts("d"))
    assert TableFacts(seats).boneyard is None
    assert TableFacts(seats, boneyard=0).boneyard == 0
    assert TableFacts(seats, boneyard=12).boneyard == 12
    with pytest.raises(ValueError, match="boneyard"):
        TableFacts(seats, boneyard=-1)


def _seats(n: int) -> tuple[SeatFacts, ...]:
    return tuple(SeatFacts(name) for name in ("a", "b", "c", "d", "e")[:n])


def test_the_seats_and_sides_come_from_the_facts_partnership_at_four_alone_at_two_or_three() -> (
    None
):
    four, three, two = TableFacts(_seats(4)), TableFacts(_seats(3)), TableFacts(_seats(2))
    assert (four.players, four.is_partnership, four.sides) == (4, True, 2)
    assert (three.players, three.is_partnership, three.sides) == (3, False, 3)
    assert (two.players, two.is_partnership, two.sides) == (2, False, 2)
    alone = TableFacts(_seats(4), partnership=False)
    assert (alone.players, alone.is_partnership, alone.sides) == (4, False, 4)
    assert [four.side_of(s) for s in range(4)] == [0, 1, 0, 1]
    assert [alone.side_of(s) for s in range(4)] == [0, 1, 2, 3]
    assert [three.side_of(s) for s in range(3)] == [0, 1, 2]


def test_a_table_of_one_or_five_seats_or_partners_at_three_is_refused() -> None:
    with pytest.raises(ValueError, match="2 to 4 seats, not 1"):
        TableFacts(_seats(1))
    with pytest.raises(ValueError, match="2 to 4 seats, not 5"):
        TableFacts(_seats(5))
    with pytest.raises(ValueError, match="partnership play needs 4 seats, not 3"):
        TableFacts(_seats(3), partnership=True)


def test_facts_are_checked_against_the_rules_seats_and_partnership() -> None:
    check_facts(TableFacts(_seats(4)), find_preset("venezolano"))
    check_facts(TableFacts(_seats(2)), find_any_preset("uno-contra-uno"))
    check_facts(TableFacts(_seats(4), partnership=False), find_any_preset("individual"))
    with pytest.raises(ValueError, match=r"facts give 4 seats \(partnership\), the rules 2"):
        check_facts(TableFacts(_seats(4)), find_any_preset("uno-contra-uno"))
    with pytest.raises(ValueError, match=r"4 seats \(partnership\), the rules 4 \(individual\)"):
        check_facts(TableFacts(_seats(4)), find_any_preset("individual"))
