from __future__ import annotations

import dataclasses

import pytest

from render import SeatFacts, TableFacts


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
