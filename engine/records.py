"""Match records and their replay (records.md).

A record is JSON: ``{"rules": ..., "hands": [{"deal", "starter", "moves"}, ...]}``.
:func:`read_record` checks its shape, :func:`replay` plays it through the engine and
returns the final :class:`~engine.match.Match`, :func:`replay_summary` gives the
``domino replay`` output, and :func:`record_of` writes a match back. Every problem is a
:class:`~engine.errors.RecordError` whose text names the hand and move (records.md).
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from engine.errors import IllegalMoveError, InvalidMoveError, RecordError, RulesError
from engine.hand import SIX_SIX, HandOutcome, deal_problem, redeal_seat
from engine.match import Match
from engine.moves import PASS, Move, Side
from engine.rules import Rules
from engine.tiles import Tile

__all__ = [
    "HandRecord",
    "MatchRecord",
    "match_from_record",
    "read_record",
    "record_of",
    "replay",
    "replay_summary",
]

_HAND_KEYS = frozenset({"deal", "starter", "moves"})


@dataclass(frozen=True, slots=True)
class HandRecord:
    """One hand of a record: the deal by seat, the opener (None: the rules decide) and
    the moves as written."""

    deal: tuple[tuple[Tile, ...], ...]
    starter: int | None
    moves: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class MatchRecord:
    """A parsed record: its rule set, the ``rules`` value as written, and its hands."""

    rules: Rules
    rules_spec: object
    hands: tuple[HandRecord, ...]
    extra: Mapping[str, Any]


def read_record(source: str | bytes | Mapping[str, Any]) -> MatchRecord:
    """Parse a record from JSON text or an already-decoded object (shape checks only).

    Raises:
        RecordError: not JSON, bad rules, or a malformed hand.
    """
    if isinstance(source, (str, bytes)):
        try:
            data = json.loads(source)
        except (ValueError, UnicodeDecodeError) as exc:
            raise RecordError(f"not JSON ({exc})") from None
    else:
        data = source
    if not isinstance(data, Mapping):
        raise RecordError("a record is a JSON object with 'rules' and 'hands'")
    if "rules" not in data:
        raise RecordError("'rules' is missing")
    try:
        rules = Rules.from_spec(data["rules"])
    except RulesError as exc:
        raise RecordError(f"rules: {exc}") from None
    if not rules.is_classic:
        # Draws carry hidden information; records of the other formats are not
        # written yet (rules.md, "Formats").
        raise RecordError(
            f"rules: records of {rules.format_name} are not supported yet"
            " (only partnership double-six)"
        )
    hands_data = data.get("hands")
    if not isinstance(hands_data, list) or not hands_data:
        raise RecordError("'hands' must be a non-empty list")
    hands = tuple(_read_hand(h, n) for n, h in enumerate(hands_data, 1))
    extra = {k: v for k, v in data.items() if k not in ("rules", "hands")}
    return MatchRecord(rules, data["rules"], hands, extra)


def _read_hand(data: object, number: int) -> HandRecord:
    if not isinstance(data, Mapping):
        raise RecordError("a hand is an object with 'deal' and 'moves'", hand=number)
    unknown = sorted(set(data) - _HAND_KEYS)
    if unknown:
        raise RecordError(f"unknown field '{unknown[0]}'", hand=number)
    deal_data = data.get("deal")
    if not isinstance(deal_data, list) or len(deal_data) != 4:
        raise RecordError("'deal' must be four lists of seven tiles", hand=number)
    deal: list[tuple[Tile, ...]] = []
    for seat, hand in enumerate(deal_data):
        if not isinstance(hand, list):
            raise RecordError(f"the deal of seat {seat} is not a list of tiles", hand=number)
        tiles = []
        for text in hand:
            try:
                tiles.append(Tile.parse(text))
            except InvalidMoveError:
                raise RecordError(f"unknown tile {text!r} in the deal", hand=number) from None
        deal.append(tuple(tiles))
    problem = deal_problem(deal)
    if problem:
        raise RecordError(problem, hand=number)
    starter = data.get("starter")
    if starter is not None and (
        isinstance(starter, bool) or not isinstance(starter, int) or not 0 <= starter <= 3
    ):
        raise RecordError(f"starter must be a seat 0..3, not {starter!r}", hand=number)
    moves = data.get("moves", [])
    if not isinstance(moves, list):
        raise RecordError("'moves' must be a list", hand=number)
    for index, move in enumerate(moves, 1):
        if not isinstance(move, str):
            raise RecordError(f"a move is text, not {move!r}", hand=number, move=index)
    return HandRecord(tuple(deal), starter, tuple(moves))


def replay(record: MatchRecord | str | bytes | Mapping[str, Any]) -> Match:
    """Play a record through the engine and return the match as it stands at its end.

    Raises:
        RecordError: the first problem, naming hand and move (records.md).
    """
    if not isinstance(record, MatchRecord):
        record = read_record(record)
    rules = record.rules
    match: Match | None = None
    for number, hand in enumerate(record.hands, 1):
        if match is not None:
            if not match.hand.is_over:
                raise RecordError(f"hand {number - 1} did not finish", hand=number)
            if match.is_over:
                raise RecordError("the match already ended", hand=number)
        seat = redeal_seat(rules, hand.deal)
        if seat is not None:
            raise RecordError(
                f"seat {seat} was dealt {sum(t.is_double for t in hand.deal[seat])} doubles:"
                f" the redeal rule (redeal_doubles {rules.redeal_doubles}) annuls this deal",
                hand=number,
            )
        match = _start_hand(rules, match, hand, number)
        match = _play_moves(match, hand.moves, number)
    assert match is not None
    return match


def _start_hand(rules: Rules, match: Match | None, hand: HandRecord, number: int) -> Match:
    if match is None:
        if rules.first_starter == "double_six":
            holder = next(s for s in range(4) if SIX_SIX in hand.deal[s])
            if hand.starter is not None and hand.starter != holder:
                raise RecordError(
                    f"starter {hand.starter} contradicts double_six (seat {holder} holds 6-6)",
                    hand=number,
                )
            return Match.start(rules, hand.deal, holder)
        if hand.starter is None:
            raise RecordError(
                f"'starter' is required when first_starter is {rules.first_starter}",
                hand=number,
            )
        return Match.start(rules, hand.deal, hand.starter)
    expected = match.next_starter()
    if hand.starter is not None and hand.starter != expected:
        why = (
            f"next_starter {rules.next_starter}"
            if rules.next_starter == "rotate"
            or match.hand.outcome is None
            or match.hand.outcome.winner_seat is None
            else "next_starter winner"
        )
        raise RecordError(
            f"starter {hand.starter} contradicts {why} (seat {expected} opens)", hand=number
        )
    return match.next_hand_with(hand.deal, expected)


def _play_moves(match: Match, moves: Sequence[str], number: int) -> Match:
    mirror = False
    for index, text in enumerate(moves, 1):
        state = match.hand
        if state.is_over:
            raise RecordError(
                f"a move after the hand ended ({_ended(state.outcome)})", hand=number, move=index
            )
        try:
            move = Move.parse(text)
        except InvalidMoveError as exc:
            raise RecordError(str(exc), hand=number, move=index) from None
        if move.tile is not None:
            # A player with no legal move passes automatically (records.md).
            while not state.can_play(state.turn):
                match = match.apply(PASS)
                state = match.hand
            if state.ends is None:
                mirror = _opens_mirrored(text)
                move = Move(move.tile)
            else:
                move = _engine_move(move, state.ends, mirror)
        try:
            match = match.apply(move)
        except IllegalMoveError as exc:
            raise RecordError(_phrase(exc, mirror, text), hand=number, move=index) from None
    return match


# -- orientation -------------------------------------------------------------------
#
# The engine lays the opening tile high-low (its left end shows the higher number).
# records.md opens the line as the first tile is written, so a record whose first tile
# is written low-high sees the engine's line mirrored: its left end is the engine's
# right. These two functions are the only place that maps a record's ends to the
# engine's (record_of writes the opener high-low, so its records are never mirrored).


def _opens_mirrored(text: str) -> bool:
    """Whether a record's first tile (``text``, already read as a move) is written
    low-high, so that the record's left and right are the engine's right and left."""
    first, second = text.split(" ")[0].split("-")
    return int(first) < int(second)


def _engine_move(move: Move, ends: tuple[int, int], mirror: bool) -> Move:
    """The engine's move for a record's move after the opening, on the engine's
    ``ends``: a side names the record's end, and a tile without a side on equal ends
    goes on the record's right end (records.md); any other side-less tile is left to
    the engine (the only end it fits, or the side-missing error)."""
    tile = move.tile
    if tile is None:
        return move
    if move.side is not None:
        return Move(tile, move.side.opposite) if mirror else move
    left, right = ends
    if left == right and tile.has(left):
        return Move(tile, Side.LEFT if mirror else Side.RIGHT)
    return move


def _ended(outcome: HandOutcome | None) -> str:
    assert outcome is not None
    if outcome.end.value == "domino":
        return f"domino by seat {outcome.last_seat}"
    return "blocked"


def _phrase(exc: IllegalMoveError, mirror: bool, text: str) -> str:
    detail = exc.detail
    ends = detail.get("ends")
    if isinstance(ends, tuple):
        left, right = (ends[1], ends[0]) if mirror else ends
    reason = exc.reason
    tile = detail.get("tile")
    if reason == "not_held":
        return f"seat {exc.seat} does not hold {Move.parse(text).tile}"
    if reason == "does_not_fit":
        return f"{tile} fits neither end (ends {left} and {right})"
    if reason == "side_missing":
        return f"{tile} fits both ends ({left} and {right}): its side (left or right) is required"
    if reason == "side_does_not_fit":
        side = text.split(" ")[1]
        return f"{tile} does not fit the {side} end (ends {left} and {right})"
    if reason == "must_open_with":
        return f"seat {exc.seat} must open with {tile} (double_six)"
    return str(exc)


def replay_summary(match: Match) -> dict[str, Any]:
    """The ``domino replay`` output for a replayed match (records.md)."""
    hands = []
    score = [0, 0]
    for state in match.hands:
        outcome = state.outcome
        if outcome is None:
            hands.append(
                {
                    "end": "unfinished",
                    "winner_team": None,
                    "winner_seat": None,
                    "points": 0,
                    "capicua": False,
                    "pips_left": [state.pips(s) for s in range(4)],
                    "score": list(score),
                }
            )
            continue
        if outcome.winner_team is not None:
            score[outcome.winner_team] += outcome.points
        hands.append(
            {
                "end": outcome.end.value,
                "winner_team": outcome.winner_team,
                "winner_seat": outcome.winner_seat,
                "points": outcome.points,
                "capicua": outcome.capicua,
                "pips_left": list(outcome.pips_left),
                "score": list(score),
            }
        )
    return {
        "hands": hands,
        "score": list(match.score),
        "winner_team": match.winner_team,
        "finished": match.is_over,
    }


def record_of(match: Match, **extra: Any) -> dict[str, Any]:
    """Write ``match`` (finished or not) as a records.md record.

    Passes are written explicitly; a side is written only where it is needed to
    reproduce the placement. ``extra`` top-level fields (e.g. ``table``) are kept.

    Raises:
        RecordError: the match is not partnership double-six (records of the other
            formats, with their hidden draws, are not written yet).
    """
    if not match.rules.is_classic:
        raise RecordError(
            f"records of {match.rules.format_name} are not supported yet"
            " (only partnership double-six)"
        )
    hands = []
    for state in match.hands:
        moves = []
        ends: tuple[int, int] | None = None
        for _seat, move in state.history:
            tile = move.tile
            if tile is None:
                moves.append("pass")
                continue
            if ends is None:
                moves.append(str(tile))
                ends = (tile.high, tile.low)
                continue
            left, right = ends
            both = tile.has(left) and tile.has(right)
            needs_side = (both and left != right) or (left == right and move.side is Side.LEFT)
            moves.append(move.text(with_side=needs_side))
            if move.side is Side.LEFT:
                ends = (tile.other(left), right)
            else:
                ends = (left, tile.other(right))
        hands.append(
            {
                "deal": [[str(t) for t in hand] for hand in state.deal],
                "starter": state.starter,
                "moves": moves,
            }
        )
    return {"rules": match.rules.to_spec(), "hands": hands, **extra}


def match_from_record(record: MatchRecord | str | bytes | Mapping[str, Any]) -> Match:
    """The match a record describes (same as :func:`replay`), for resuming a table."""
    return replay(record)
