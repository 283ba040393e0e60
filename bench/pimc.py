"""The anchor to beat (issue 15): determinized Monte Carlo with 100 deals per decision.

Our own copy of the published-style baseline of robots.md ("Monte Carlo
(determinization)"), kept apart from ``engine/robots`` so that tuning ``maestro`` never
moves the yardstick:

- deal the hidden tiles to the other three seats at random, respecting each seat's tile
  count and the numbers its passes prove it lacks (hard voids; most constrained tiles
  first, each to a seat with probability proportional to its free places, retrying on a
  dead end, backtracking as the last resort);
- for each legal move, play every sampled deal to the end with the heuristic of
  robots.md for all four seats (the same deals for every candidate);
- pick the move with the best mean points for the robot's team (ties: the first move in
  the engine's order).

In the other formats of rules.md (2, 3 or 4 seats, individual or partnership play,
double-six or double-nine, a boneyard under ``pass`` or ``draw``) the same anchor plays
through :class:`FormatAnchor`: 100 deals of the unseen tiles (the other hands **and** the
boneyard, in a random draw order), each seat getting its public tile count and no tile
showing a number its passes prove it lacks (draw-proven voids are not used: the anchor
stays the plain baseline); each legal tile move is valued by the mean points, for the
robot's side, of a heuristic playout of every deal (drawing from the sampled boneyard
until a tile fits), with no match bonus. Its sampler and playout are frozen copies here,
not :mod:`engine.robots.formats`, so tuning maestro never moves the yardstick.

It sees only its seat's :class:`~engine.views.SeatView` and draws every random number from
the generator it is given, so the same view and seed give the same move. Importing this
module registers it as the level ``pimc100`` for :func:`engine.robots.make_robot` (and so
for :func:`bot.commands.simulate.run_duplicates`).
"""

from __future__ import annotations

import random
from typing import Final

from engine.hand import Scoring, is_capicua
from engine.moves import Move, Side
from engine.robots.base import Robot, legal_or_raise, register_level
from engine.rules import Boneyard, Rules
from engine.tiles import ALL_TILES, NUMBER_MASKS, PIPS, TileSet, mask_of, pips_of_any_mask
from engine.views import SeatView

__all__ = [
    "ANCHOR_LEVEL",
    "Dealer",
    "FormatAnchor",
    "PimcRobot",
    "anchor_playout",
    "deal_hidden",
    "heuristic_move",
    "playout",
]

ANCHOR_LEVEL: Final[str] = "pimc100"
SAMPLES: Final[int] = 100
FULL: Final[int] = (1 << 28) - 1
DOUBLE_BONUS: Final[int] = 4
KEPT_ALIVE_BONUS: Final[int] = 3
RETRIES: Final[int] = 200
SEARCH_BUDGET: Final[int] = 20_000

_HIGH: Final[tuple[int, ...]] = tuple(t.high for t in ALL_TILES)
_LOW: Final[tuple[int, ...]] = tuple(t.low for t in ALL_TILES)
_OTHER: Final[tuple[tuple[int, ...], ...]] = tuple(
    tuple(t.other(n) if t.has(n) else -1 for n in range(7)) for t in ALL_TILES
)
_BASE: Final[tuple[int, ...]] = tuple(
    PIPS[i] + (DOUBLE_BONUS if _HIGH[i] == _LOW[i] else 0) for i in range(28)
)
_OPEN: Final[tuple[int, ...]] = tuple(
    NUMBER_MASKS[a] | NUMBER_MASKS[b] for a in range(7) for b in range(7)
)
_CAPICUA: Final[tuple[bool, ...]] = tuple(
    is_capicua(t, a, b) for t in ALL_TILES for a in range(7) for b in range(7)
)
_MEMO: dict[int, tuple[int, int, int] | None] = {}
_MEMO_LIMIT: Final[int] = 200_000


_OPTIONS: Final[tuple[tuple[tuple[int, int, tuple[int, int, int]], ...], ...]] = tuple(
    tuple(
        (_BASE[i], _OPEN[7 * nl + nr], (i, nl, nr))
        for nl, nr in (
            ((left, _OTHER[i][right]),)
            if left == right
            else ((_OTHER[i][left], right), (left, _OTHER[i][right]))
        )
        if nl >= 0 and nr >= 0
    )
    for i in range(28)
    for left in range(7)
    for right in range(7)
)
"""``_OPTIONS[49 * i + 7 * left + right]``: tile ``i``'s placements on those ends, left
before right, as ``(pips + double bonus, tiles fitting the new ends, the move)``."""


def heuristic_move(hand: int, left: int, right: int) -> tuple[int, int, int] | None:
    """robots.md's heuristic on bit masks: ``(tile index, new left, new right)``, or None
    for a pass. A move scores the tile's pips, +4 for a double, +3 for every other tile in
    hand still fitting an open end after it; ties go to the first move (tiles ascending,
    left before right)."""
    ends = left * 7 + right
    key = hand | (ends << 28)
    if key in _MEMO:
        return _MEMO[key]
    fits = hand & _OPEN[ends]
    best: tuple[int, int, int] | None = None
    top = -1
    while fits:
        bit = fits & -fits
        fits ^= bit
        rest = hand ^ bit
        for base, company, move in _OPTIONS[49 * (bit.bit_length() - 1) + ends]:
            score = base + KEPT_ALIVE_BONUS * (rest & company).bit_count()
            if score > top:
                top, best = score, move
    if len(_MEMO) >= _MEMO_LIMIT:
        _MEMO.clear()
    _MEMO[key] = best
    return best


def _points(hands: list[int], team: int, capicua: bool, sc: Scoring) -> int:
    """Signed points for team 0 when ``team`` wins (-1: a tied tranca)."""
    if team < 0:
        return 0
    pips = [sum(PIPS[i] for i in range(28) if h >> i & 1) for h in hands]
    points = sc.points(pips[0], pips[1], pips[2], pips[3], team, capicua)
    return points if team == 0 else -points


def _tranca(hands: list[int], sc: Scoring) -> int:
    pips = [sum(PIPS[i] for i in range(28) if h >> i & 1) for h in hands]
    return _points(hands, sc.blocked_team(pips[0], pips[1], pips[2], pips[3]), False, sc)


def playout(hands: list[int], left: int, right: int, turn: int, sc: Scoring) -> int:
    """The heuristic for all four seats to the hand's end (``hands`` is consumed).

    Returns:
        The hand's points signed for team 0 (rules.md, "Points": a domino scores for the
        player's team, a tranca as ``blocked_winner`` says).
    """
    remaining = hands[0] | hands[1] | hands[2] | hands[3]
    if not remaining & _OPEN[left * 7 + right]:
        return _tranca(hands, sc)
    while True:
        choice = heuristic_move(hands[turn], left, right)
        if choice is None:
            turn = (turn + 1) & 3
            continue
        i, nl, nr = choice
        bit = 1 << i
        hands[turn] ^= bit
        if not hands[turn]:
            return _points(hands, turn & 1, _CAPICUA[i * 49 + left * 7 + right], sc)
        remaining ^= bit
        left, right = nl, nr
        if not remaining & _OPEN[left * 7 + right]:
            return _tranca(hands, sc)
        turn = (turn + 1) & 3


def _void_masks(view: SeatView) -> list[int]:
    """Per seat, the tiles its passes prove it does not hold."""
    masks = [0, 0, 0, 0]
    for seat, numbers in enumerate(view.numbers_lacking()):
        for n in numbers:
            masks[seat] |= NUMBER_MASKS[n]
    return masks


class Dealer:
    """Deals of the tiles ``view.seat`` cannot see, consistent with the tile counts and
    the passes (hard voids)."""

    def __init__(self, view: SeatView) -> None:
        self.me = view.seat
        self.mine = mask_of(view.tiles)
        self.counts = list(view.tile_counts)
        hidden = FULL & ~view.played_mask() & ~self.mine
        voids = _void_masks(view)
        others = [(self.me + k) & 3 for k in (1, 2, 3)]
        groups = []
        mask = hidden
        while mask:
            bit = mask & -mask
            mask ^= bit
            seats = tuple(s for s in others if not voids[s] & bit)
            groups.append((bit.bit_length() - 1, seats))
        groups.sort(key=lambda g: len(g[1]))
        self.groups = groups

    def deal(self, rng: random.Random) -> list[int]:
        """One consistent deal: four hand masks by seat (the seat's own tiles included).

        Raises:
            ValueError: no deal fits (the view contradicts itself).
        """
        for _ in range(RETRIES):
            hands = [0, 0, 0, 0]
            hands[self.me] = self.mine
            cap = self.counts[:]
            for index, seats in self.groups:
                total = sum(cap[s] for s in seats)
                if not total:
                    break
                r = rng.random() * total
                chosen = seats[-1]
                for s in seats:
                    if r < cap[s]:
                        chosen = s
                        break
                    r -= cap[s]
                while not cap[chosen]:  # float rounding at the top end
                    chosen = seats[seats.index(chosen) - 1]
                cap[chosen] -= 1
                hands[chosen] |= 1 << index
            else:
                return hands
        found = _backtrack(self.groups, self.counts[:], self.me, self.mine, rng)
        if found is None:
            raise ValueError("no deal of the hidden tiles fits the passes and tile counts")
        return found


def deal_hidden(view: SeatView, rng: random.Random) -> list[int]:
    """One deal of the tiles ``view.seat`` cannot see (see :class:`Dealer`)."""
    return Dealer(view).deal(rng)


def _backtrack(
    groups: list[tuple[int, tuple[int, ...]]],
    cap: list[int],
    me: int,
    mine: int,
    rng: random.Random,
) -> list[int] | None:
    hands = [0, 0, 0, 0]
    hands[me] = mine
    budget = [SEARCH_BUDGET]

    def rec(k: int) -> bool:
        if k == len(groups):
            return True
        budget[0] -= 1
        if budget[0] < 0:
            return False
        index, seats = groups[k]
        order = list(seats)
        rng.shuffle(order)
        for s in order:
            if cap[s]:
                cap[s] -= 1
                hands[s] |= 1 << index
                if rec(k + 1):
                    return True
                cap[s] += 1
                hands[s] ^= 1 << index
        return False

    return hands if rec(0) else None


class PimcRobot(Robot):
    """Flat determinized Monte Carlo over heuristic playouts (the issue 15 anchor).

    Args:
        samples: deals of the hidden tiles per decision.
    """

    def __init__(self, samples: int = SAMPLES) -> None:
        self.samples = samples
        self.level = f"pimc{samples}"

    def choose(self, view: SeatView, rng: random.Random) -> Move:
        if not view.rules.is_classic:
            return FormatAnchor(view).choose(rng, self.samples)
        moves = legal_or_raise(view)
        if len(moves) == 1 or len(view.tiles) == 1:
            return moves[0]
        plans = []
        for move in moves:
            tile = move.tile
            assert tile is not None  # a pass is the only move when nothing fits
            i = tile.index
            if view.ends is None:
                plans.append((i, _HIGH[i], _LOW[i]))
            elif move.side is Side.LEFT:
                plans.append((i, _OTHER[i][view.ends[0]], view.ends[1]))
            else:
                plans.append((i, view.ends[0], _OTHER[i][view.ends[1]]))
        sc = Scoring(view.rules)
        sign = 1 if view.seat & 1 == 0 else -1
        nxt = (view.seat + 1) & 3
        totals = [0] * len(moves)
        dealer = Dealer(view)
        for _ in range(self.samples):
            hands = dealer.deal(rng)
            mine = hands[view.seat]
            for j, (i, nl, nr) in enumerate(plans):
                h = hands[:]
                h[view.seat] = mine ^ (1 << i)
                totals[j] += sign * playout(h, nl, nr, nxt, sc)
        best = max(range(len(moves)), key=lambda j: totals[j])
        return moves[best]


# -- every other format (rules.md, "More ways to play: formats") ---------------------------

_F_TILES: Final = sorted(TileSet.DOUBLE_NINE.tiles, key=lambda t: t.index)
_F_NM: Final[tuple[int, ...]] = TileSet.DOUBLE_NINE.number_masks
_F_HIGH: Final[tuple[int, ...]] = tuple(t.high for t in _F_TILES)
_F_LOW: Final[tuple[int, ...]] = tuple(t.low for t in _F_TILES)
_F_BASE: Final[tuple[int, ...]] = tuple(
    h + lo + (DOUBLE_BONUS if h == lo else 0) for h, lo in zip(_F_HIGH, _F_LOW, strict=True)
)


def _f_other(i: int, number: int) -> int:
    return _F_LOW[i] if _F_HIGH[i] == number else _F_HIGH[i]


def _f_best(hand: int, left: int, right: int) -> tuple[int, int, int] | None:
    """robots.md's heuristic on double-nine index masks: ``(tile, new left, new right)``
    (ties: tiles ascending, left before right; equal ends: the right side only)."""
    fits = hand & (_F_NM[left] | _F_NM[right])
    best = None
    top = -1
    while fits:
        bit = fits & -fits
        fits ^= bit
        i = bit.bit_length() - 1
        rest = hand ^ bit
        if left == right:
            options = [(left, _f_other(i, right))]
        else:
            options = []
            if _F_HIGH[i] == left or _F_LOW[i] == left:
                options.append((_f_other(i, left), right))
            if _F_HIGH[i] == right or _F_LOW[i] == right:
                options.append((left, _f_other(i, right)))
        for nl, nr in options:
            score = _F_BASE[i] + KEPT_ALIVE_BONUS * (rest & (_F_NM[nl] | _F_NM[nr])).bit_count()
            if score > top:
                top, best = score, (i, nl, nr)
    return best


def anchor_playout(
    hands: list[int], boneyard: list[int], left: int, right: int, turn: int, rules: Rules
) -> tuple[int, int]:
    """The heuristic for every seat to the hand's end (``hands`` is consumed): a seat
    with nothing that fits draws (under ``draw``) from ``boneyard`` in order until a tile
    fits, else passes; ``(winning side, points)``, ``(-1, 0)`` for a tied tranca."""
    sc = Scoring(rules)
    n = len(hands)
    draws = rules.boneyard is Boneyard.DRAW
    k = 0
    passes = 0
    while True:
        hand = hands[turn]
        open_ = _F_NM[left] | _F_NM[right]
        while draws and not hand & open_ and k < len(boneyard):
            hand |= 1 << boneyard[k]
            k += 1
        hands[turn] = hand
        choice = _f_best(hand, left, right)
        if choice is None:
            passes += 1
            if passes >= n:
                pips = [pips_of_any_mask(h) for h in hands]
                side = sc.blocked_side(pips)
                return (side, sc.side_points(pips, side, False)) if side >= 0 else (-1, 0)
            turn = (turn + 1) % n
            continue
        passes = 0
        i, nl, nr = choice
        hand ^= 1 << i
        hands[turn] = hand
        if not hand:
            capicua = _F_HIGH[i] != _F_LOW[i] and bool((1 << i) & _F_NM[left] & _F_NM[right])
            pips = [pips_of_any_mask(h) for h in hands]
            side = turn & 1 if rules.partnership else turn
            return side, sc.side_points(pips, side, capicua)
        left, right = nl, nr
        turn = (turn + 1) % n


class FormatAnchor:
    """The anchor's knowledge of one view in a format other than today's game: the
    unseen tiles, the seats' counts, the boneyard's count and the pass-proven voids."""

    def __init__(self, view: SeatView) -> None:
        rules = view.rules
        self.view = view
        self.rules = rules
        self.n = rules.players
        self.me = view.seat
        self.mine = mask_of(view.tiles)
        self.unseen = rules.tile_set.full_mask & ~view.played_mask() & ~self.mine
        self.counts = list(view.tile_counts)[: self.n]
        voids = [0] * self.n
        for seat, numbers in enumerate(view.numbers_lacking()[: self.n]):
            for number in numbers:
                voids[seat] |= _F_NM[number]
        # a pass under `pass` (nothing left to draw) lasts the hand; under `draw` a seat
        # that passed had nothing to draw either, so its voids last as well
        voids[self.me] = 0
        self.voids = voids

    def deal(self, rng: random.Random) -> tuple[list[int], list[int]]:
        """``(hands by seat, boneyard in draw order)``: each other seat its count of
        tiles it may hold (the most constrained first), the rest to the boneyard; after
        50 dead ends the voids are ignored."""
        others = [s for s in range(self.n) if s != self.me]
        for attempt in range(51):
            strict = attempt < 50
            remaining = self.unseen
            hands = [0] * self.n
            hands[self.me] = self.mine
            ok = True
            for s in sorted(
                others, key=lambda s: (remaining & ~self.voids[s]).bit_count() - self.counts[s]
            ):
                pool = remaining & ~self.voids[s] if strict else remaining
                allowed = [i for i in range(pool.bit_length()) if pool >> i & 1]
                if len(allowed) < self.counts[s]:
                    ok = False
                    break
                mask = 0
                for i in rng.sample(allowed, self.counts[s]):
                    mask |= 1 << i
                hands[s] = mask
                remaining &= ~mask
            if ok:
                rest = [i for i in range(remaining.bit_length()) if remaining >> i & 1]
                rng.shuffle(rest)
                return hands, rest
        raise ValueError("no deal of the unseen tiles fits the counts")  # pragma: no cover

    def choose(self, rng: random.Random, samples: int) -> Move:
        """The legal move with the best mean points for the seat's side over ``samples``
        deals (the same deals for every move; ties: the engine's first move)."""
        view = self.view
        moves = legal_or_raise(view, any_format=True)
        if len(moves) == 1 or len(view.tiles) == 1:
            return moves[0]
        rules = self.rules
        me_side = self.me & 1 if rules.partnership else self.me
        sides = rules.sides
        nxt = (self.me + 1) % self.n
        plans = []
        for move in moves:
            tile = move.tile
            assert tile is not None  # draw and pass come alone
            if view.ends is None:
                nl, nr = tile.high, tile.low
            elif move.side is Side.LEFT:
                nl, nr = tile.other(view.ends[0]), view.ends[1]
            else:
                nl, nr = view.ends[0], tile.other(view.ends[1])
            plans.append((tile.index, nl, nr))
        totals = [0.0] * len(moves)
        for _ in range(samples):
            hands, bone = self.deal(rng)
            for j, (i, nl, nr) in enumerate(plans):
                h = hands[:]
                h[self.me] ^= 1 << i
                if not h[self.me]:  # pragma: no cover - one tile left returns above
                    continue
                side, points = anchor_playout(h, bone, nl, nr, nxt, rules)
                if side == me_side:
                    totals[j] += points
                elif side >= 0:
                    totals[j] -= points if sides == 2 else points / (sides - 1)
        best = max(range(len(moves)), key=lambda j: totals[j])
        return moves[best]


register_level(ANCHOR_LEVEL, PimcRobot)
