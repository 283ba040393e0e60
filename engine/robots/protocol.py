"""The robot protocol (robot-protocol.md): one JSON request per line, one answer per line.

A request gives what one seat can see: ``rules``, ``seat``, ``hand`` (its tiles now),
``starter``, ``moves`` (the hand so far, as in a record: records.md) and optionally
``score``. :func:`read_request` turns it into a :class:`~engine.views.SeatView` (or raises
:class:`ProtocolError` with one line saying why); :func:`answer` and :func:`serve` speak
the protocol for a robot.

Passes may be left out of ``moves``. Without the other hands, who played a tile is not
always written down, so the moves are replayed as the one reading that fits the seat's
hand, the tile counts and the numbers the passing seats lack (a seat plays when it can;
a seat passes only where it then holds nothing that fits).

The formats (robot-protocol.md, "Formats"): ``rules`` names the format, ``score`` has
one total per side, ``boneyard`` may give the boneyard's count, and every pass and draw
is written (a draw as ``draw``, never its tile), so the turn order is read straight off
the moves. Every robot level plays every format (robots.md, "Every format").

Orientation: the opening tile ``a-b`` puts ``a`` on the left (records.md). The engine
draws an opening with its high half on the left, so when a request opens low-high the
line is mirrored internally and every side is swapped on the way in and out.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from typing import IO, Any

from engine.errors import DominoError, RulesError
from engine.hand import Placement, opening_of
from engine.moves import DRAW, PASS, Move, Side
from engine.robots.base import Robot
from engine.rules import Boneyard, Rules
from engine.tiles import NUMBER_MASKS, Tile, TileSet, mask_of
from engine.views import SeatView

__all__ = [
    "FIELDS",
    "ProtocolError",
    "answer",
    "move_text",
    "read_request",
    "serve",
]

FIELDS = ("rules", "seat", "hand", "starter", "moves", "score", "boneyard")
SIX_SIX = Tile(6, 6)
_READ_LIMIT = 50_000


class ProtocolError(ValueError):
    """A request the robot cannot answer; the message is the error line's text."""


@dataclass
class _Step:
    """One written move, checked: the tile, its record side and the ends it leaves."""

    tile: Tile | None
    side: Side | None = None  # record orientation; None for the opening and for a pass
    ends_before: tuple[int, int] | None = None  # record orientation
    ends_after: tuple[int, int] | None = None
    draw: bool = False  # a draw from the boneyard (the formats; no tile is written)


def _played(
    tile: Tile,
    side: Side | None,
    text: str,
    ends: tuple[int, int] | None,
    seen: set[Tile],
    hand_mask: int,
    where: str,
) -> tuple[_Step, tuple[int, int]]:
    """``tile`` (written ``text``) played: the opening when ``ends`` is None, as written
    (``a-b`` puts ``a`` on the left), else placed on ``side`` (:func:`_placed`); added to
    ``seen``. Returns the checked step and the ends it leaves.

    Raises:
        ProtocolError: the tile is already on the line or in the seat's hand, or does not
            fit (``where`` names the move).
    """
    if tile in seen:
        raise ProtocolError(f"{where}: {tile} is already on the line")
    if hand_mask & tile.mask:
        raise ProtocolError(f"{where}: {tile} is in the seat's hand, so it cannot be played")
    seen.add(tile)
    if ends is None:
        a, b = (int(x) for x in text.split(" ")[0].split("-"))
        return _Step(tile, None, None, (a, b)), (a, b)
    return _placed(tile, side, ends, where)


def _placed(
    tile: Tile, side: Side | None, ends: tuple[int, int], where: str
) -> tuple[_Step, tuple[int, int]]:
    """``tile`` played on the line whose ends are ``ends`` (record orientation), on
    ``side`` (None: the only end it fits, or either when both ends are equal): the
    checked step and the ends it leaves.

    Raises:
        ProtocolError: it fits neither end, fits both different ends without a side, or
            does not fit the side given (``where`` names the move).
    """
    left, right = ends
    on_left, on_right = tile.has(left), tile.has(right)
    if not on_left and not on_right:
        raise ProtocolError(f"{where}: {tile} fits neither end (ends {left} and {right})")
    if side is None:
        if on_left and on_right and left != right:
            raise ProtocolError(
                f"{where}: {tile} fits both ends ({left} and {right}): the side is required"
            )
        side = Side.RIGHT if on_right else Side.LEFT
    elif (side is Side.LEFT and not on_left) or (side is Side.RIGHT and not on_right):
        raise ProtocolError(
            f"{where}: {tile} does not fit the {side.value} end (ends {left} and {right})"
        )
    after = (tile.other(left), right) if side is Side.LEFT else (left, tile.other(right))
    return _Step(tile, side, ends, after), after


@dataclass
class _Reading:
    """A reading of the moves: who played each step and the passes left out."""

    seats: list[int] = field(default_factory=list)  # per step (pass steps included)
    auto: list[tuple[int, int, tuple[int, int]]] = field(default_factory=list)
    # (step index before which, seat, ends) for passes left out
    turn: int = 0


def _field(obj: dict[str, Any], name: str) -> Any:
    if name not in obj:
        raise ProtocolError(f"missing field '{name}'")
    return obj[name]


def _seat(value: Any, name: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= 3:
        raise ProtocolError(f"'{name}' must be a seat 0..3, not {json.dumps(value)}")
    return value


def _tile(text: Any, where: str) -> Tile:
    if not isinstance(text, str):
        raise ProtocolError(f'{where}: a tile is written like "6-4", not {json.dumps(text)}')
    try:
        return Tile.parse(text)
    except DominoError:
        raise ProtocolError(f"{where}: unknown tile '{text}'") from None


def _check_moves(raw: Any, hand_mask: int) -> list[_Step]:
    """Parse the moves and check every tile against the ends (who played is not needed)."""
    if not isinstance(raw, list):
        raise ProtocolError("'moves' must be a list of moves")
    steps: list[_Step] = []
    ends: tuple[int, int] | None = None
    seen: set[Tile] = set()
    for k, text in enumerate(raw, start=1):
        where = f"move {k}"
        if not isinstance(text, str):
            raise ProtocolError(f'{where}: a move is text like "6-4", not {json.dumps(text)}')
        try:
            move = Move.parse(text)
        except DominoError:
            raise ProtocolError(
                f"{where}: cannot read '{text}' (a tile, a tile and left/right, or pass)"
            ) from None
        if ends is not None and ends[0] == -1:
            raise ProtocolError(f"{where}: moves after the hand ended")
        tile = move.tile
        if tile is None:
            if ends is None:
                raise ProtocolError(f"{where}: nobody can pass before the opening tile")
            if len(steps) >= 3 and all(st.tile is None for st in steps[-3:]):
                raise ProtocolError(f"{where}: a fourth pass in a row (the hand would be over)")
            steps.append(_Step(None, None, ends, ends))
            continue
        step, ends = _played(tile, move.side, text, ends, seen, hand_mask, where)
        steps.append(step)
        seen_mask = mask_of(seen)
        open_mask = NUMBER_MASKS[ends[0]] | NUMBER_MASKS[ends[1]]
        if not open_mask & ~seen_mask & ((1 << 28) - 1):  # a tranca
            if k == len(raw):
                raise ProtocolError("the hand has ended (blocked: no tile left fits the ends)")
            ends = (-1, -1)  # nothing may follow
    return steps


def _feasible(hidden: int, caps: dict[int, int], forbidden: dict[int, int]) -> bool:
    """Can the hidden tiles be dealt to the seats of ``caps`` (Hall's condition)?"""
    if hidden.bit_count() != sum(caps.values()) or any(c < 0 for c in caps.values()):
        return False
    seats = list(caps)
    allowed = {s: hidden & ~forbidden[s] for s in seats}
    for subset in range(1, 1 << len(seats)):
        chosen = [s for i, s in enumerate(seats) if subset >> i & 1]
        outside = 0
        for s in seats:
            if s not in chosen:
                outside |= allowed[s]
        only_inside = hidden & ~outside
        if only_inside.bit_count() > sum(caps[s] for s in chosen):
            return False
    return True


def _read(steps: list[_Step], me: int, hand_mask: int, starter: int) -> tuple[_Reading | None, str]:
    """Find who played each step (depth first: playing before passing); or a reason."""
    n_hand = hand_mask.bit_count()
    played_tiles = 0
    for st in steps:
        if st.tile is not None:
            played_tiles |= st.tile.mask
    hidden = ((1 << 28) - 1) & ~played_tiles & ~hand_mask
    best_reason: list[tuple[int, str]] = [
        (-1, "the moves do not fit the turn order and the seat's hand")
    ]

    def fail(reason: str, depth: int) -> None:
        if depth > best_reason[0][0]:
            best_reason[0] = (depth, reason)

    def ok_void(seat: int, tile: Tile, voids: list[int]) -> bool:
        return not tile.mask & voids[seat]

    nodes = [0]

    def search(
        k: int, turn: int, counts: list[int], voids: list[int], passes: int, reading: _Reading
    ) -> _Reading | None:
        nodes[0] += 1
        if nodes[0] > _READ_LIMIT:
            fail("the moves are too ambiguous to read: write the passes out", 10_000)
            return None
        if k == len(steps):
            # after the moves it is `me`'s turn; seats in between pass (nothing fits)
            ends = steps[-1].ends_after if steps else None
            extra = []
            t = turn
            while t != me:
                if ends is None:
                    fail(f"it is seat {t}'s turn to open, not seat {me}'s", k)
                    return None
                extra.append((k, t, ends))
                t = (t + 1) & 3
            v = voids[:]
            for _k, t2, pass_ends in extra:
                v[t2] |= NUMBER_MASKS[pass_ends[0]] | NUMBER_MASKS[pass_ends[1]]
            if passes + len(extra) >= 4:
                fail("the passes say nobody can play: the hand has ended", k)
                return None
            if counts[me] != 7 - n_hand:
                tiles = "tile" if n_hand == 1 else "tiles"
                fail(
                    f"seat {me} holds {n_hand} {tiles} but played {counts[me]} "
                    f"(7 are dealt; the moves do not fit its turns)",
                    k,
                )
                return None
            caps = {s: 7 - counts[s] for s in range(4) if s != me}
            if not _feasible(hidden, caps, {s: v[s] for s in caps}):
                fail("the passes and tile counts leave no possible hands for the other seats", k)
                return None
            return _Reading(reading.seats[:], reading.auto + extra, me)
        st = steps[k]
        if st.tile is None:  # an explicit pass by the seat to move
            e = st.ends_before
            assert e is not None
            open_mask = NUMBER_MASKS[e[0]] | NUMBER_MASKS[e[1]]
            if turn == me and hand_mask & open_mask:
                fail(f"move {k + 1}: seat {me} cannot pass, it holds a tile that fits", k)
                return None
            if passes >= 3:
                fail(f"move {k + 1}: a fourth pass in a row (the hand would have ended)", k)
                return None
            v = voids[:]
            v[turn] |= open_mask
            reading.seats.append(turn)
            found = search(k + 1, (turn + 1) & 3, counts, v, passes + 1, reading)
            reading.seats.pop()
            return found
        tile = st.tile
        # reading 1: the seat to move plays this tile
        limit = 7 - n_hand if turn == me else 7
        if counts[turn] < limit and ok_void(turn, tile, voids):
            c = counts[:]
            c[turn] += 1
            if c[turn] == 7:
                if k + 1 < len(steps):
                    fail(f"move {k + 2}: moves after the hand ended (seat {turn} went out)", k + 1)
                else:
                    fail(f"the hand has ended (seat {turn} played its last tile)", k + 1)
            else:
                reading.seats.append(turn)
                found = search(k + 1, (turn + 1) & 3, c, voids, 0, reading)
                reading.seats.pop()
                if found is not None:
                    return found
        elif turn == me and counts[turn] >= limit:
            fail(f"move {k + 1}: seat {me} would play more tiles than it was dealt", k)
        # reading 2: the seat to move passed (left out), then the next seat moves
        e = st.ends_before
        if e is None:
            fail(f"move {k + 1}: it is seat {turn}'s turn to open", k)
            return None
        open_mask = NUMBER_MASKS[e[0]] | NUMBER_MASKS[e[1]]
        if turn == me and hand_mask & open_mask:
            fail(f"move {k + 1}: it is seat {me}'s turn and it holds a tile that fits", k)
            return None
        if passes >= 3:
            fail(f"move {k + 1}: {tile} does not fit the turn order", k)
            return None
        v = voids[:]
        v[turn] |= open_mask
        reading.auto.append((k, turn, e))
        found = search(k, (turn + 1) & 3, counts, v, passes + 1, reading)
        reading.auto.pop()
        return found

    result = search(0, starter, [0, 0, 0, 0], [0, 0, 0, 0], 0, _Reading())
    return result, best_reason[0][1]


def read_request(obj: Any) -> tuple[SeatView, bool]:
    """Check a decoded request and build the seat's view.

    Returns:
        ``(view, mirrored)``: ``mirrored`` when the request's line is the engine's mirror
        image (its opening tile written low-high), so answer sides must be swapped.

    Raises:
        ProtocolError: the request is malformed or inconsistent (the message says why).
    """
    if not isinstance(obj, dict):
        raise ProtocolError("a request is a JSON object with " + ", ".join(FIELDS))
    for name in obj:
        if name not in FIELDS:
            raise ProtocolError(f"unknown field '{name}' (fields: {', '.join(FIELDS)})")
    try:
        rules = Rules.from_spec(_field(obj, "rules"))
    except RulesError as exc:
        raise ProtocolError(f"rules: {exc}") from None
    if not rules.is_classic:
        return _read_format_request(obj, rules)
    if obj.get("boneyard", 0) != 0:
        raise ProtocolError("'boneyard' must be 0: today's game deals every tile")
    me = _seat(_field(obj, "seat"), "seat")
    starter = _seat(_field(obj, "starter"), "starter")
    raw_hand = _field(obj, "hand")
    if not isinstance(raw_hand, list):
        raise ProtocolError("'hand' must be a list of tiles")
    hand = [_tile(t, "hand") for t in raw_hand]
    if len(set(hand)) != len(hand):
        raise ProtocolError("hand: a tile is listed twice")
    if not hand:
        raise ProtocolError("the hand has ended (the seat holds no tiles)")
    if len(hand) > 7:
        raise ProtocolError(f"hand: {len(hand)} tiles, a hand has at most 7")
    score_raw = obj.get("score", [0, 0])
    if (
        not isinstance(score_raw, list)
        or len(score_raw) != 2
        or not all(isinstance(x, int) and not isinstance(x, bool) and x >= 0 for x in score_raw)
    ):
        raise ProtocolError("'score' must be two points totals, like [0, 0]")
    score = (score_raw[0], score_raw[1])
    hand_mask = mask_of(hand)
    steps = _check_moves(_field(obj, "moves"), hand_mask)
    reading, reason = _read(steps, me, hand_mask, starter)
    if reading is None:
        raise ProtocolError(reason)
    return _build_view(rules, me, starter, hand, score, steps, reading)


def _build_view(
    rules: Rules,
    me: int,
    starter: int,
    hand: list[Tile],
    score: tuple[int, ...],
    steps: list[_Step],
    reading: _Reading,
) -> tuple[SeatView, bool]:
    mirrored = False
    if steps and steps[0].tile is not None:
        first = steps[0]
        assert first.ends_after is not None and first.tile is not None
        mirrored = first.ends_after[0] != first.tile.high

    def flip(side: Side) -> Side:
        return side.opposite if mirrored else side

    auto_before: dict[int, list[int]] = {}
    for k, seat, _e in reading.auto:
        auto_before.setdefault(k, []).append(seat)
    history: list[tuple[int, Move]] = []
    line: list[Placement] = []
    counts = [7, 7, 7, 7]
    order = 0
    ends: tuple[int, int] | None = None  # engine orientation
    for k, st in enumerate([*steps, None]):
        for seat in auto_before.get(k, []):
            history.append((seat, PASS))
        if st is None:
            break
        seat = reading.seats[k]
        if st.tile is None:
            history.append((seat, DRAW if st.draw else PASS))
            continue
        tile = st.tile
        counts[seat] -= 1
        if ends is None:
            line.append(Placement(tile, tile.high, tile.low, seat, order))
            ends = (tile.high, tile.low)
            history.append((seat, Move(tile)))
        else:
            assert st.side is not None
            side = flip(st.side)
            left, right = ends
            if side is Side.LEFT:
                other = tile.other(left)
                line.insert(0, Placement(tile, other, left, seat, order))
                ends = (other, right)
            else:
                other = tile.other(right)
                line.append(Placement(tile, right, other, seat, order))
                ends = (left, other)
            history.append((seat, Move(tile, side)))
        order += 1
    counts[me] = len(hand)
    opening = None
    if (
        not steps
        and rules.first_starter == "double_six"
        and score == (0, 0)
        and SIX_SIX in hand
        and me == starter
    ):
        opening = SIX_SIX
    view = SeatView(
        rules=rules,
        hand_number=1,
        starter=starter,
        opening_tile=opening,
        line=tuple(line),
        ends=ends,
        turn=me,
        tile_counts=(counts[0], counts[1], counts[2], counts[3]),
        history=tuple(history),
        score=score,  # type: ignore[arg-type]  # one total per side (a seat in the formats)
        outcome=None,
        match_score=score,  # type: ignore[arg-type]
        seat=me,
        tiles=tuple(sorted(hand)),
    )
    return view, mirrored


# -- the formats (rules.md, "More ways to play: formats") ------------------------------
#
# A request of another format than today's writes every pass and every draw (the turn
# order is then read straight off the moves: a tile or a pass passes the turn on, a
# draw keeps it), never names a drawn tile, and may give the boneyard's count.


def _format_seat(value: Any, name: str, players: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < players:
        raise ProtocolError(f"'{name}' must be a seat 0..{players - 1}, not {json.dumps(value)}")
    return value


def _format_tile(text: Any, where: str, tile_set: TileSet) -> Tile:
    if not isinstance(text, str):
        raise ProtocolError(f'{where}: a tile is written like "6-4", not {json.dumps(text)}')
    try:
        return Tile.parse(text, tile_set)
    except DominoError:
        raise ProtocolError(f"{where}: unknown tile '{text}'") from None


def _read_format_request(obj: dict[str, Any], rules: Rules) -> tuple[SeatView, bool]:
    """:func:`read_request` for a format other than partnership double-six."""
    players = rules.players
    tile_set = rules.tile_set
    me = _format_seat(_field(obj, "seat"), "seat", players)
    starter = _format_seat(_field(obj, "starter"), "starter", players)
    raw_hand = _field(obj, "hand")
    if not isinstance(raw_hand, list):
        raise ProtocolError("'hand' must be a list of tiles")
    hand = [_format_tile(t, "hand", tile_set) for t in raw_hand]
    if len(set(hand)) != len(hand):
        raise ProtocolError("hand: a tile is listed twice")
    if not hand:
        raise ProtocolError("the hand has ended (the seat holds no tiles)")
    sides = rules.sides
    score_raw = obj.get("score", [0] * sides)
    if (
        not isinstance(score_raw, list)
        or len(score_raw) != sides
        or not all(isinstance(x, int) and not isinstance(x, bool) and x >= 0 for x in score_raw)
    ):
        zeros = ", ".join(["0"] * sides)
        raise ProtocolError(f"'score' must be {sides} points totals, like [{zeros}]")
    hand_mask = mask_of(hand)
    raw_moves = _field(obj, "moves")
    if not isinstance(raw_moves, list):
        raise ProtocolError("'moves' must be a list of moves")
    undealt = len(tile_set.tiles) - rules.hand_tiles * players
    counts = [rules.hand_tiles] * players
    steps: list[_Step] = []
    seats: list[int] = []
    seen: set[Tile] = set()
    ends: tuple[int, int] | None = None
    draws = passes = 0
    turn = starter
    for k, text in enumerate(raw_moves, start=1):
        where = f"move {k}"
        if not isinstance(text, str):
            raise ProtocolError(f'{where}: a move is text like "6-4", not {json.dumps(text)}')
        if text.startswith("draw "):
            raise ProtocolError(f"{where}: a request never names a drawn tile (write 'draw')")
        try:
            move = Move.parse(text, tile_set)
        except DominoError:
            raise ProtocolError(
                f"{where}: cannot read '{text}' (a tile, a tile and left/right, pass or draw)"
            ) from None
        tile = move.tile
        left_to_draw = undealt - draws if rules.boneyard is Boneyard.DRAW else 0
        if tile is None:
            if ends is None:
                what = "draw" if move.draw else "pass"
                raise ProtocolError(f"{where}: nobody can {what} before the opening tile")
            if move.draw:
                if rules.boneyard is not Boneyard.DRAW:
                    raise ProtocolError(f"{where}: nobody draws: the boneyard rule is pass")
                if not left_to_draw:
                    raise ProtocolError(f"{where}: seat {turn} cannot draw: the boneyard is empty")
                draws += 1
                counts[turn] += 1
                steps.append(_Step(None, None, ends, ends, draw=True))
                seats.append(turn)
                _check_blocked(tile_set, ends, seen, undealt - draws, k, len(raw_moves))
                continue
            if left_to_draw:
                raise ProtocolError(
                    f"{where}: seat {turn} must draw from the boneyard ({left_to_draw} left),"
                    " cannot pass"
                )
            passes += 1
            if passes >= players:
                raise ProtocolError(f"{where}: every seat passed in a row (the hand would be over)")
            steps.append(_Step(None, None, ends, ends))
            seats.append(turn)
            turn = (turn + 1) % players
            continue
        step, ends = _played(tile, move.side, text, ends, seen, hand_mask, where)
        steps.append(step)
        seats.append(turn)
        counts[turn] -= 1
        if counts[turn] == 0:
            if k == len(raw_moves):
                raise ProtocolError(f"the hand has ended (seat {turn} played its last tile)")
            raise ProtocolError(f"move {k + 1}: moves after the hand ended (seat {turn} went out)")
        left_out = undealt - draws if rules.boneyard is Boneyard.DRAW else undealt
        _check_blocked(tile_set, ends, seen, left_out, k, len(raw_moves))
        passes = 0
        turn = (turn + 1) % players
    if turn != me:
        if ends is None:
            raise ProtocolError(f"it is seat {turn}'s turn to open, not seat {me}'s")
        raise ProtocolError(
            f"it is seat {turn}'s turn, not seat {me}'s (every pass and draw is written)"
        )
    if counts[me] != len(hand):
        tiles = "tile" if len(hand) == 1 else "tiles"
        raise ProtocolError(
            f"seat {me} holds {len(hand)} {tiles} but the moves leave it {counts[me]}"
            f" ({rules.hand_tiles} dealt, plus its draws, less its tiles played)"
        )
    boneyard = undealt - draws
    if "boneyard" in obj and obj["boneyard"] != boneyard:
        raise ProtocolError(
            f"'boneyard' is {json.dumps(obj['boneyard'])}, but the moves leave {boneyard}"
            " tiles in it"
        )
    score = tuple(score_raw)
    reading = _Reading(seats, [], me)
    view, mirrored = _build_view(rules, me, starter, hand, score, steps, reading)
    opening = None
    if not steps and rules.first_starter == "double_six" and not any(score) and me == starter:
        opening = opening_of(rules, [hand])[1]
    drawable = boneyard if rules.boneyard is Boneyard.DRAW else 0
    view = replace(
        view,
        opening_tile=opening,
        tile_counts=tuple(counts),  # type: ignore[arg-type]  # one count per seat
        boneyard_count=boneyard,
        drawable=drawable,
    )
    return view, mirrored


def _check_blocked(
    tile_set: TileSet, ends: tuple[int, int], seen: set[Tile], hidden_out: int, k: int, n: int
) -> None:
    """A tranca the request's moves show: every tile is dealt or drawn (``hidden_out``,
    the tiles out of every hand, is 0) and each tile showing an open end is on the line."""
    if hidden_out:
        return
    masks = tile_set.number_masks
    if not (masks[ends[0]] | masks[ends[1]]) & ~mask_of(seen):
        if k == n:
            raise ProtocolError("the hand has ended (blocked: no tile left fits the ends)")
        raise ProtocolError(f"move {k + 1}: moves after the hand ended (blocked)")


def move_text(view: SeatView, move: Move, mirrored: bool) -> str:
    """``move`` in records.md notation for the request's orientation: a side only where
    the tile fits both ends with different numbers."""
    tile = move.tile
    if move.draw:
        return "draw"
    if tile is None:
        return "pass"
    if view.ends is None or move.side is None:
        return str(tile)
    left, right = view.ends
    if left != right and tile.has(left) and tile.has(right):
        side = move.side.opposite if mirrored else move.side
        return f"{tile} {side.value}"
    return str(tile)


def answer(line: str, robot: Robot, seed: object = None) -> dict[str, str]:
    """The answer object for one request line (never raises).

    With a ``seed`` the robot's generator is seeded from it and the request, so the same
    request always gets the same answer.
    """
    try:
        try:
            obj = json.loads(line)
        except (json.JSONDecodeError, UnicodeDecodeError, RecursionError) as exc:
            return {"error": f"not valid JSON: {exc}"}
        view, mirrored = read_request(obj)
        rng = random.Random(f"{seed}|{line.strip()}") if seed is not None else random.Random()
        move = robot.choose(view, rng)
        return {"move": move_text(view, move, mirrored)}
    except ProtocolError as exc:
        return {"error": str(exc)}
    except Exception as exc:  # the robot never dies on a request
        return {"error": f"internal error: {type(exc).__name__}: {exc}"}


def serve(robot: Robot, lines: Iterable[str], out: IO[str], seed: object = None) -> int:
    """Answer each request line of ``lines`` on ``out`` (flushed per line) until the end.

    Blank lines are skipped. Returns the number of answers written.
    """
    n = 0
    for line in lines:
        if not line.strip():
            continue
        out.write(json.dumps(answer(line, robot, seed), ensure_ascii=False) + "\n")
        out.flush()
        n += 1
    return n
