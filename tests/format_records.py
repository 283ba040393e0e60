"""Match records of every format, played by the engine, as the bot stores them.

A match of a preset is played to its end with random legal moves from a seed
(``engine.match``), written by ``engine.records.record_of`` with what the bot adds
(records.md, "What the bot adds": ``seats``, ``score``, ``winner_team``), and each human's
:class:`~storage.base.PlayerResult` with ``team`` = the seat's side (``rules.side_of``),
as the core records a finished table. Used by the ratings' tests (storage.ratings and
the storages).
"""

from __future__ import annotations

import random
from typing import Any

from engine.match import Match
from engine.records import record_of
from engine.rules import Rules, find_any_preset
from storage.base import PlayerResult

TIED_THREE = ("uno-contra-uno", {"players": 3}, 7)
"""A three-player individual match (draw) whose seed 7 ends 0-145-0: seat 1 wins, seats 0
and 2 tie on 0 points."""


def played(rules: Rules, seed: int) -> Match:
    """A finished match of ``rules``, random legal moves from ``seed``."""
    rng = random.Random(seed)
    match = Match.new(rules, rng)
    while not (match.hand.is_over and match.is_over):
        if match.hand.is_over:
            match = match.next_hand(rng)
        else:
            match = match.apply(rng.choice(match.hand.legal_moves()))
    return match


def stored_record(
    preset: str,
    seats: list[int | str],
    seed: int = 1,
    *,
    absent: tuple[int, ...] = (),
    **overrides: Any,
) -> tuple[dict[str, Any], list[PlayerResult], Match]:
    """(record, results, match) of a finished match of ``preset`` (with ``overrides``):
    ``seats`` names each seat's player id or robot level; a seat of ``absent`` had most
    of its moves made by a robot."""
    rules = find_any_preset(preset, **overrides)
    assert len(seats) == rules.players
    match = played(rules, seed)
    winner = match.winner_team
    assert winner is not None
    record = record_of(match)
    record["seats"] = [
        {"player": s, "moves": 20, "robot_moves": 15 if i in absent else 0}
        if isinstance(s, int)
        else {"robot": s, "moves": 20}
        for i, s in enumerate(seats)
    ]
    record["score"] = list(match.score)
    record["winner_team"] = winner
    results = [
        PlayerResult(s, rules.side_of(i), rules.side_of(i) == winner)
        for i, s in enumerate(seats)
        if isinstance(s, int)
    ]
    return record, results, match
