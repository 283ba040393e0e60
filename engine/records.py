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
from engine.hand import HandOutcome, HandState, deal_problem, opening_of, redeal_seat
from engine.match import Match
from engine.moves import DRAW, PASS, Move, Side
from engine.rules import Boneyard, Rules
from engine.tiles import Tile, TileSet

__all__ = [
    "HandRecord",
    "MatchRecord",
    "match_from_record",
    "read_record",
    "record_of",
    "replay",
    "replay_summary",
]

_HAND_KEYS = frozenset({"deal", "boneyard", "starter", "moves"})


@dataclass(frozen=True, slots=True)
class HandRecord:
    """One hand of a record: the deal by seat, the opener (None: the rules decide), the
    moves as written, and the boneyard in draw order (None: not written, the undealt
    tiles in ascending order; records.md, "Formats and hidden information")."""

    deal: tuple[tuple[Tile, ...], ...]
    starter: int | None
    moves: tuple[str, ...]
    boneyard: tuple[Tile, ...] | None = None


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
    hands_data = data.get("hands")
    if not isinstance(hands_data, list) or not hands_data:
        raise RecordError("'hands' must be a non-empty list")
    hands = tuple(_read_hand(h, n, rules) for n, h in enumerate(hands_data, 1))
    extra = {k: v for k, v in data.items() if k not in ("rules", "hands")}
    return MatchRecord(rules, data["rules"], hands, extra)


def _tiles(data: object, what: str, number: int, tile_set: TileSet) -> tuple[Tile, ...]:
    if not isinstance(data, list):
        raise RecordError(f"{what} is not a list of tiles", hand=number)
    tiles = []
    for text in data:
        try:
            tiles.append(Tile.parse(text, tile_set))
        except InvalidMoveError:
            where = "the deal" if what.startswith("the deal") else "the boneyard"
            raise RecordError(f"unknown tile {text!r} in {where}", hand=number) from None
    return tuple(tiles)


def _read_hand(data: object, number: int, rules: Rules) -> HandRecord:
    if not isinstance(data, Mapping):
        raise RecordError("a hand is an object with 'deal' and 'moves'", hand=number)
    unknown = sorted(set(data) - _HAND_KEYS)
    if unknown:
        raise RecordError(f"unknown field '{unknown[0]}'", hand=number)
    classic = rules.is_classic
    players = rules.players
    deal_data = data.get("deal")
    if not isinstance(deal_data, list) or len(deal_data) != players:
        if classic:
            raise RecordError("'deal' must be four lists of seven tiles", hand=number)
        raise RecordError(
            f"'deal' must be {players} lists of {rules.hand_tiles} tiles", hand=number
        )
    deal = [
        _tiles(hand, f"the deal of seat {seat}", number, rules.tile_set)
        for seat, hand in enumerate(deal_data)
    ]
    boneyard = None
    if "boneyard" in data:
        boneyard = _tiles(data["boneyard"], "'boneyard'", number, rules.tile_set)
    problem = deal_problem(deal) if classic else deal_problem(deal, rules, boneyard)
    if classic and not problem and boneyard:
        problem = "the boneyard is not the 0 tiles left undealt"
    if problem:
        raise RecordError(problem, hand=number)
    starter = data.get("starter")
    if starter is not None and (
        isinstance(starter, bool) or not isinstance(starter, int) or not 0 <= starter < players
    ):
        raise RecordError(f"starter must be a seat 0..{players - 1}, not {starter!r}", hand=number)
    moves = data.get("moves", [])
    if not isinstance(moves, list):
        raise RecordError("'moves' must be a list", hand=number)
    for index, move in enumerate(moves, 1):
        if not isinstance(move, str):
            raise RecordError(f"a move is text, not {move!r}", hand=number, move=index)
    return HandRecord(tuple(deal), starter, tuple(moves), boneyard)


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
            holder, tile = opening_of(rules, hand.deal)
            if hand.starter is not None and hand.starter != holder:
                raise RecordError(
                    f"starter {hand.starter} contradicts double_six (seat {holder} holds {tile})",
                    hand=number,
                )
            return Match.start(rules, hand.deal, holder, boneyard=hand.boneyard)
        if hand.starter is None:
            raise RecordError(
                f"'starter' is required when first_starter is {rules.first_starter}",
                hand=number,
            )
        return Match.start(rules, hand.deal, hand.starter, boneyard=hand.boneyard)
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
    return match.next_hand_with(hand.deal, expected, boneyard=hand.boneyard)


def _play_moves(match: Match, moves: Sequence[str], number: int) -> Match:
    mirror = False
    tile_set = match.rules.tile_set
    for index, text in enumerate(moves, 1):
        state = match.hand
        if state.is_over:
            raise RecordError(
                f"a move after the hand ended ({_ended(state.outcome)})", hand=number, move=index
            )
        drawn: Tile | None = None
        try:
            if text.startswith("draw "):
                # A private record may name the drawn tile (records.md): it is checked.
                drawn = Tile.parse(text[5:], tile_set)
                move = DRAW
            else:
                move = Move.parse(text, tile_set)
        except InvalidMoveError as exc:
            raise RecordError(str(exc), hand=number, move=index) from None
        if move.tile is not None:
            # A player with no legal move passes automatically (records.md); a player
            # who must draw does not: a draw is always written.
            while state.legal_moves() == [PASS]:
                match = match.apply(PASS)
                state = match.hand
            if state.ends is None:
                mirror = _opens_mirrored(text)
                move = Move(move.tile)
            else:
                move = _engine_move(move, state.ends, mirror)
        try:
            if move.draw:
                _check_draw(state, drawn, number, index)
            match = match.apply(move)
        except IllegalMoveError as exc:
            raise RecordError(_phrase(exc, mirror, text, state), hand=number, move=index) from None
    return match


def _check_draw(state: HandState, drawn: Tile | None, number: int, index: int) -> None:
    """A draw that names its tile must name the boneyard's next one (checked after the
    draw itself is found legal: :meth:`HandState.resolve` raises first)."""
    state.resolve(DRAW)
    if drawn is not None:
        actual = state.boneyard[state.drawn]
        if actual != drawn:
            raise RecordError(
                f"seat {state.turn} draws {actual} from the boneyard, not {drawn}",
                hand=number,
                move=index,
            )


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


def _phrase(exc: IllegalMoveError, mirror: bool, text: str, state: HandState) -> str:
    detail = exc.detail
    ends = detail.get("ends")
    if isinstance(ends, tuple):
        left, right = (ends[1], ends[0]) if mirror else ends
    reason = exc.reason
    tile = detail.get("tile")
    if reason == "not_held":
        return f"seat {exc.seat} does not hold {Move.parse(text, state.rules.tile_set).tile}"
    if reason == "does_not_fit":
        return f"{tile} fits neither end (ends {left} and {right})"
    if reason == "side_missing":
        return f"{tile} fits both ends ({left} and {right}): its side (left or right) is required"
    if reason == "side_does_not_fit":
        side = text.split(" ")[1]
        return f"{tile} does not fit the {side} end (ends {left} and {right})"
    if reason == "must_open_with":
        return f"seat {exc.seat} must open with {tile} (double_six)"
    if reason == "cannot_draw":
        return _cannot_draw(exc, mirror, state)
    return str(exc)


def _cannot_draw(exc: IllegalMoveError, mirror: bool, state: HandState) -> str:
    seat = exc.seat
    if state.rules.boneyard is not Boneyard.DRAW:
        return f"seat {seat} cannot draw: the boneyard rule is pass (nobody draws)"
    if state.ends is None:
        return f"seat {seat} cannot draw: it opens the hand with a tile"
    if state.can_play(state.turn):
        first = next(m.tile for m in state.legal_moves() if m.tile is not None)
        left, right = (state.ends[1], state.ends[0]) if mirror else state.ends
        number = left if first.has(left) else right
        return f"seat {seat} cannot draw: it holds {first} for the {number} end"
    return f"seat {seat} cannot draw: the boneyard is empty"


def replay_summary(match: Match) -> dict[str, Any]:
    """The ``domino replay`` output for a replayed match (records.md)."""
    hands = []
    score = [0] * match.rules.sides
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
                    "pips_left": [state.pips(s) for s in range(state.players)],
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
    """Write ``match`` (finished or not) as a records.md record: the private record,
    which holds every hidden fact (each deal, the boneyard in draw order, each drawn
    tile as ``"draw 3-5"``; records.md, "Formats and hidden information").

    Passes are written explicitly; a side is written only where it is needed to
    reproduce the placement. ``extra`` top-level fields (e.g. ``table``) are kept.
    Today's format writes exactly the records it always wrote.
    """
    hands = []
    for state in match.hands:
        hand: dict[str, Any] = {
            "deal": [[str(t) for t in tiles] for tiles in state.deal],
            "starter": state.starter,
            "moves": _moves_of(state, private=True),
        }
        if state.boneyard:
            hand = {
                "deal": hand["deal"],
                "boneyard": [str(t) for t in state.boneyard],
                "starter": state.starter,
                "moves": hand["moves"],
            }
        hands.append(hand)
    return {"rules": match.rules.to_spec(), "hands": hands, **extra}


def _moves_of(state: HandState, *, private: bool) -> list[str]:
    """A hand's moves in records.md notation: every pass and draw written; a draw
    names its tile only in a private record."""
    moves = []
    ends: tuple[int, int] | None = None
    drawn = 0
    for _seat, move in state.history:
        tile = move.tile
        if move.draw:
            moves.append(f"draw {state.boneyard[drawn]}" if private else "draw")
            drawn += 1
            continue
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
    return moves


def match_from_record(record: MatchRecord | str | bytes | Mapping[str, Any]) -> Match:
    """The match a record describes (same as :func:`replay`), for resuming a table."""
    return replay(record)
