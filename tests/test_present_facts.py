"""The pictures' facts built from the core's seats (bot/present/facts.py)."""

from __future__ import annotations

from bot.core import SeatInfo
from bot.present.facts import table_facts

SEATS = (
    SeatInfo(seat=0, name="Ana"),
    SeatInfo(seat=1, name="Robot (Experto)", is_robot=True),
    SeatInfo(seat=2, name="Luis"),
    SeatInfo(seat=3, name="Bea"),
)


def test_the_picture_names_the_table_with_its_word_and_number_in_the_readers_language() -> None:
    """Issue 13, item 27: the picture's table label is a phrase of the catalogs, never a
    bare number (render draws it as given)."""
    assert table_facts(SEATS, "7", "es").table_label == "Mesa 7"
    assert table_facts(SEATS, "7", "en").table_label == "Table 7"
    assert table_facts(SEATS, "", "es").table_label == ""
