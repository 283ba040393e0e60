"""The robots' play in every format other than today's (rules.md, "More ways to play:
formats"; robots.md, "Every format").

Today's game (partnership double-six, 4 × 7 tiles, no boneyard) keeps its own fast code
(:mod:`engine.robots.knowledge`, :mod:`engine.robots.playout`, the exact endgame of
:mod:`engine.robots.endgame`); this module plays 2, 3 or 4 seats, individual or
partnership play, double-six or double-nine, with a boneyard under ``pass`` or ``draw``.
It works on bit masks of the tiles' indices in :data:`engine.tiles.TileSet.DOUBLE_NINE`
order (the 28 double-six tiles are its first 28), with the same heuristic as today's
game (pips, +4 for a double, +3 per other tile still fitting an open end).

Honest information: a seat knows its own tiles, the line, every seat's tile count, the
boneyard's count and the history. The unseen tiles (the other hands **and** the
boneyard) are dealt at random by :meth:`FormatKnowledge.sample`, respecting the counts
and the voids the history reveals:

- a pass on ends ``l``/``r`` proves the seat holds neither number, for the rest of the
  hand (a pass means nothing could be drawn, so its hand never grows again);
- a draw on ends ``l``/``r`` proves the seat held neither number; the seat draws until a
  tile fits and must play it, so once its run of draws ends (with that play, or with a
  pass) nothing it still holds shows ``l`` or ``r``. A later draw by the seat brings
  tiles that may show them, so such a void is kept only while the seat has not drawn
  again (a sound, not a complete, use of what it saw).

The formats' maestro is Monte Carlo over heuristic playouts with more deals and a
match-aware value (the opponents' model of today's maestro is here too,
:func:`format_observations`, :func:`observation_weight`, but off: it measured no gain,
robots.md "Every format"), and once nothing can be
drawn and few tiles are left it solves each deal exactly (:func:`solve_endgame`, its own
search on these masks, not :mod:`engine.robots.endgame`), within a budget of positions
(:data:`ENDGAME_NODES`). In individual play of 3 or 4 seats its exact search lets every
other seat play for itself (:func:`solve_maxn`) and cheap decisions take more deals
(:func:`playout_samples`, :data:`ENDGAME_EXTRA_NODES`).
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from typing import Final

from engine.hand import Scoring
from engine.moves import Move, Side, ends_after
from engine.rules import Boneyard, Rules
from engine.tiles import TileSet, mask_of, pips_of_any_mask
from engine.views import SeatView

__all__ = [
    "FormatKnowledge",
    "Observation",
    "format_heuristic_move",
    "format_observations",
    "format_playout",
    "format_values",
    "observation_weight",
    "playout_samples",
    "softmax_share",
    "solve_endgame",
    "solve_maxn",
]

_TILES: Final = TileSet.DOUBLE_NINE.tiles
_NM: Final[tuple[int, ...]] = TileSet.DOUBLE_NINE.number_masks
_HIGH: Final[tuple[int, ...]] = tuple(t.high for t in sorted(_TILES, key=lambda t: t.index))
_LOW: Final[tuple[int, ...]] = tuple(t.low for t in sorted(_TILES, key=lambda t: t.index))
_BASE: Final[tuple[int, ...]] = tuple(
    h + lo + (4 if h == lo else 0) for h, lo in zip(_HIGH, _LOW, strict=True)
)
"""The move score's part that depends on the tile only: pips, +4 for a double."""

ENDGAME_TILES: Final[dict[int, int]] = {2: 10, 3: 12, 4: 16}
"""By number of seats: maestro solves a deal exactly (instead of a heuristic playout)
when the hands hold at most this many tiles in all and nothing can be drawn (robots.md,
"Every format"). Two seats get fewer: the search is deeper per tile there (12 tiles in
1-vs-1 cost up to 1.1 s of CPU for one decision; 10 stay under 70 ms)."""

ENDGAME_SAMPLES: Final[int] = 60
"""Deals per decision when maestro solves them exactly."""

ENDGAME_NODES: Final[int] = 40_000
"""The exact search's budget per decision, in positions searched: once it is spent (and
at least :data:`ENDGAME_MIN_SAMPLES` deals are solved) no further deal is started, so a
decision's worst case is bounded (one 1-vs-1 decision took 688 ms of CPU without it)."""

ENDGAME_MIN_SAMPLES: Final[int] = 15
"""The deals solved whatever the budget (too few would decide on luck)."""

ENDGAME_EXTRA_NODES: Final[int] = 5_000
"""With ``each_for_self`` (:func:`format_values`), deals beyond :data:`ENDGAME_SAMPLES` are
started only while fewer positions than this were searched in the decision: small
endgames get many deals, large ones no more than before."""

_MAX_SCORE: Final = 200
"""Above any heuristic score (pips 18 + 4 + 3 per tile of a hand of at most 21 tiles)."""

MATCH_BONUS: Final[float] = 60.0
"""What reaching the target is worth beyond the points (as
:func:`engine.robots.montecarlo.match_utility`)."""


def _bits(mask: int) -> list[int]:
    out = []
    while mask:
        bit = mask & -mask
        mask ^= bit
        out.append(bit.bit_length() - 1)
    return out


def _other(i: int, number: int) -> int:
    """The other half of tile ``i`` from ``number`` (which it must show)."""
    return _LOW[i] if _HIGH[i] == number else _HIGH[i]


def score_move(hand: int, i: int, new_left: int, new_right: int) -> int:
    """The heuristic's score of playing tile ``i`` from ``hand`` leaving these ends:
    pips, +4 for a double, +3 per other tile of the hand fitting a new end."""
    rest = hand & ~(1 << i)
    return _BASE[i] + 3 * (rest & (_NM[new_left] | _NM[new_right])).bit_count()


def _placements(i: int, left: int, right: int) -> list[tuple[int, int, int]]:
    """Tile ``i``'s placements on ends ``left``/``right`` as ``(side, new left, new
    right)`` (side 0 left, 1 right; equal ends give the right side only), in the
    engine's order (left before right)."""
    if left == right:
        return [(1, left, _other(i, right))] if _HIGH[i] == right or _LOW[i] == right else []
    out = []
    if _HIGH[i] == left or _LOW[i] == left:
        out.append((0, _other(i, left), right))
    if _HIGH[i] == right or _LOW[i] == right:
        out.append((1, left, _other(i, right)))
    return out


def _best(hand: int, left: int, right: int) -> tuple[int, int, int] | None:
    """The heuristic's ``(tile, new left, new right)`` on open ends, None if nothing fits."""
    fits = hand & (_NM[left] | _NM[right])
    best = None
    top = -1
    while fits:
        bit = fits & -fits
        fits ^= bit
        i = bit.bit_length() - 1
        for _side, nl, nr in _placements(i, left, right):
            s = score_move(hand, i, nl, nr)
            if s > top:
                top, best = s, (i, nl, nr)
    return best


def _side_of(rules: Rules, seat: int) -> int:
    return seat & 1 if rules.partnership else seat


def format_playout(
    hands: list[int],
    boneyard: list[int],
    left: int,
    right: int,
    turn: int,
    rules: Rules,
    sc: Scoring,
) -> tuple[int, int]:
    """Play the heuristic for every seat to the hand's end (``hands`` is consumed).

    Args:
        hands: each seat's mask (one per player).
        boneyard: the boneyard's tile indices in draw order (drawn only under ``draw``).
        left, right: the open ends (the line is open).
        turn: the seat to move.
        rules: the rule set (players, partnership, boneyard rule).
        sc: its scoring.

    Returns:
        ``(side, points)``: the winning side (team, or seat in individual play) and its
        points, or ``(-1, 0)`` for a tied tranca (rules.md, "Scoring in individual play").
    """
    n = len(hands)
    draws = rules.boneyard is Boneyard.DRAW
    k = 0
    passes = 0
    nm = _NM
    while True:
        hand = hands[turn]
        open_ = nm[left] | nm[right]
        if not hand & open_:
            while draws and k < len(boneyard) and not hand & open_:
                hand |= 1 << boneyard[k]
                k += 1
            hands[turn] = hand
        choice = _best(hand, left, right)
        if choice is None:
            passes += 1
            if passes >= n:
                pips = [pips_of_any_mask(h) for h in hands]
                side = sc.blocked_side(pips)
                return (side, sc.side_points(pips, side, False)) if side >= 0 else (-1, 0)
            turn = turn + 1 if turn + 1 < n else 0
            continue
        passes = 0
        i, nl, nr = choice
        hand &= ~(1 << i)
        hands[turn] = hand
        if not hand:
            capicua = _HIGH[i] != _LOW[i] and bool((1 << i) & nm[left] & nm[right])
            pips = [pips_of_any_mask(h) for h in hands]
            side = _side_of(rules, turn)
            return side, sc.side_points(pips, side, capicua)
        left, right = nl, nr
        turn = turn + 1 if turn + 1 < n else 0


class FormatKnowledge:
    """What a seat knows of the current hand in any format, and deals of the unseen
    tiles consistent with it (see the module docstring).

    Attributes:
        seat: the seat (to move); rules: the rule set; players: how many seats.
        mine: mask of the seat's tiles; unseen: mask of the tiles in the other hands
            and the boneyard.
        counts: tiles held per seat; boneyard: tiles in the boneyard.
        forbidden: per seat, the mask of tiles it cannot hold (its voids).
        score: the match score before this hand, by side.
    """

    __slots__ = (
        "boneyard",
        "counts",
        "forbidden",
        "mine",
        "players",
        "rules",
        "score",
        "seat",
        "unseen",
    )

    def __init__(self, view: SeatView) -> None:
        rules = view.rules
        self.seat = view.seat
        self.rules = rules
        self.players = n = rules.players
        self.mine = mask_of(view.tiles)
        self.unseen = rules.tile_set.full_mask & ~view.played_mask() & ~self.mine
        self.counts = list(view.tile_counts)[:n]
        self.boneyard = view.boneyard_count
        self.score = view.score
        self.forbidden = self._voids(view)
        hidden = sum(c for s, c in enumerate(self.counts) if s != self.seat) + self.boneyard
        if hidden != self.unseen.bit_count():  # pragma: no cover - a view is consistent
            raise ValueError(f"the view hides {self.unseen.bit_count()} tiles, not {hidden}")

    def _voids(self, view: SeatView) -> list[int]:
        """Per seat, the numbers its passes and finished runs of draws prove it lacks
        now (a void from before a later draw of the seat is dropped)."""
        n = self.players
        events: list[tuple[int, int, int]] = []  # (seat, numbers mask, run)
        last_draw_run = [-1] * n
        ends: tuple[int, int] | None = None
        run = -1
        prev = -1
        for seat, move in view.history:
            if seat != prev:
                run += 1
                prev = seat
            tile = move.tile
            if tile is None:
                if ends is not None:
                    events.append((seat, _NM[ends[0]] | _NM[ends[1]], run))
                if move.draw:
                    last_draw_run[seat] = run
                continue
            ends = ends_after(ends, tile, move.side)
        forbidden = [0] * n
        for seat, numbers, at in events:
            if last_draw_run[seat] <= at:
                forbidden[seat] |= numbers
        forbidden[self.seat] = 0
        return forbidden

    def sample(self, rng: random.Random) -> tuple[list[int], list[int]]:
        """One deal of the unseen tiles: ``(hands, boneyard)``, the hands' masks by seat
        (this seat's own tiles at its place) and the boneyard's tile indices in a random
        draw order. Each other seat gets its count of tiles it may hold (most
        constrained seat first, uniformly among its allowed tiles, retrying on a dead
        end); the rest is the boneyard. If 50 tries fail the voids are ignored."""
        others = [s for s in range(self.players) if s != self.seat]
        for attempt in range(51):
            strict = attempt < 50
            remaining = self.unseen
            hands = [0] * self.players
            hands[self.seat] = self.mine
            order = sorted(
                others,
                key=lambda s: (remaining & ~self.forbidden[s]).bit_count() - self.counts[s],
            )
            ok = True
            for s in order:
                allowed = _bits(remaining & ~self.forbidden[s] if strict else remaining)
                if len(allowed) < self.counts[s]:
                    ok = False
                    break
                mask = 0
                for i in rng.sample(allowed, self.counts[s]):
                    mask |= 1 << i
                hands[s] = mask
                remaining &= ~mask
            if ok:
                rest = _bits(remaining)
                rng.shuffle(rest)
                return hands, rest
        raise ValueError("no deal of the unseen tiles fits the counts")  # pragma: no cover


Observation = tuple[int, int, int, int, int]
"""``(seat, left, right, tile index, later)``: another seat played tile ``index`` on open
ends ``left``/``right``; ``later`` is the mask of the tiles it played after that."""


def format_observations(view: SeatView) -> list[Observation]:
    """The other seats' free choices this hand, for the opponents' model: every tile they
    played on open ends, except the opening (the rules name it) and a tile played right
    after drawing (the rules force it), and only while the seat drew nothing after it
    (its hand then was its hand now plus what it played since, which a deal gives)."""
    seat_me = view.seat
    found: list[tuple[int, int, int, int, int]] = []  # (seat, left, right, index, position)
    played: list[tuple[int, int, int]] = []  # (seat, index, position)
    last_draw = [-1] * view.rules.players
    ends: tuple[int, int] | None = None
    previous: tuple[int, Move] | None = None
    for k, (seat, move) in enumerate(view.history):
        tile = move.tile
        if tile is None:
            if move.draw:
                last_draw[seat] = k
        else:
            forced = previous is not None and previous[0] == seat and previous[1].draw
            if seat != seat_me and ends is not None and not forced:
                found.append((seat, ends[0], ends[1], tile.index, k))
            played.append((seat, tile.index, k))
            ends = ends_after(ends, tile, move.side)
        previous = (seat, move)
    out: list[Observation] = []
    for seat, left, right, index, k in found:
        if last_draw[seat] > k:
            continue
        later = 0
        for who, i, at in played:
            if who == seat and at > k:
                later |= 1 << i
        out.append((seat, left, right, index, later))
    return out


def _tile_scores(hand: int, left: int, right: int) -> tuple[int, list[tuple[int, int]]]:
    """The heuristic's score of each tile of ``hand`` fitting ``left``/``right`` (the
    better of its placements) and the best of them."""
    fits = hand & (_NM[left] | _NM[right])
    out = []
    top = -1
    while fits:
        bit = fits & -fits
        fits ^= bit
        i = bit.bit_length() - 1
        best = -1
        for _side, nl, nr in _placements(i, left, right):
            s = score_move(hand, i, nl, nr)
            if s > best:
                best = s
        out.append((i, best))
        if best > top:
            top = best
    return top, out


def observation_weight(hands: list[int], obs: list[Observation], exp: list[float]) -> float:
    """How likely the other seats' plays ``obs`` are under the deal ``hands`` if each
    plays the heuristic with softmax noise (``exp[d]`` the weight of a move ``d`` points
    below the best: ``exp(-inference * d)``)."""
    w = 1.0
    for seat, left, right, index, later in obs:
        top, scores = _tile_scores(hands[seat] | later | (1 << index), left, right)
        w *= softmax_share(top, scores, index, exp)
    return w


def softmax_share(
    top: int, scores: Sequence[tuple[int, int]], index: int, exp: Sequence[float]
) -> float:
    """The chance the softmax-heuristic player picks tile ``index`` among ``scores``
    (``(tile index, score)``, the best ``top``); 1.0 with fewer than two choices."""
    if len(scores) < 2:
        return 1.0
    z = 0.0
    chosen = 0.0
    for i, score in scores:
        e = exp[top - score]
        z += e
        if i == index:
            chosen = e
    return chosen / z


def _new_ends(view: SeatView, move: Move) -> tuple[int, int]:
    tile = move.tile
    assert tile is not None
    if view.ends is None:
        return tile.high, tile.low
    left, right = view.ends
    if move.side is Side.LEFT:
        return tile.other(left), right
    return left, tile.other(right)


def format_heuristic_move(view: SeatView, moves: list[Move]) -> Move:
    """``jugador`` in any format: the legal move with the best heuristic score (ties: the
    first in the engine's order)."""
    hand = mask_of(view.tiles)
    best, top = moves[0], -1
    for move in moves:
        if move.tile is None:
            return move
        nl, nr = _new_ends(view, move)
        s = score_move(hand, move.tile.index, nl, nr)
        if s > top:
            best, top = move, s
    return best


def side_utility(know: FormatKnowledge, match_aware: bool) -> Callable[[int, int], float]:
    """What a hand's result ``(side, points)`` is worth to the seat's side: its points
    when it wins; the winner's points when another side wins (split among the other
    players in individual play of 3 or 4); with ``match_aware`` a bonus of
    :data:`MATCH_BONUS` for reaching the target (rules.md, "Match")."""
    rules = know.rules
    me = _side_of(rules, know.seat)
    sides = rules.sides
    score = know.score
    target = rules.target

    def utility(side: int, points: int) -> float:
        if side < 0:
            return 0.0
        v = float(points)
        if match_aware and score[side] + points >= target:
            v += MATCH_BONUS
        if side == me:
            return v
        return -v if sides == 2 else -v / (sides - 1)

    return utility


def playout_samples(samples: int, budget: int, max_samples: int, moves: int, tiles: int) -> int:
    """Deals for a decision valued by playouts: ``samples``, or with a ``budget`` (tile
    moves played out per decision) as many as it pays for, between ``samples`` and
    ``max_samples``, for ``moves`` candidates and playouts of about ``tiles`` tiles
    (cheap decisions get more deals; counting tiles, not time, keeps it deterministic)."""
    if not budget:
        return samples
    return max(samples, min(max_samples, budget // (max(moves, 1) * max(tiles, 1))))


def format_values(
    view: SeatView,
    moves: list[Move],
    rng: random.Random,
    samples: int,
    match_aware: bool,
    endgame: bool = False,
    inference: float = 0.0,
    *,
    budget: int = 0,
    max_samples: int = 0,
    each_for_self: bool = False,
) -> list[float]:
    """The mean value of each legal move (tile moves) over ``samples`` deals of the
    unseen tiles, each played out with the heuristic (the same deals for every move).
    With ``endgame``, once nothing can be drawn and the hands hold at most
    :data:`ENDGAME_TILES` tiles (by seats), each deal is solved exactly (:func:`solve_endgame`)
    over at most :data:`ENDGAME_SAMPLES` deals. With ``inference`` (an inverse
    temperature per point of heuristic score), each deal is weighted by how likely the
    other seats' plays are under it (:func:`observation_weight`).

    With a ``budget`` (tile moves per decision, :func:`playout_samples`) a decision
    valued by playouts takes up to ``max_samples`` deals when it is cheap. With
    ``each_for_self`` (individual play of 3 or 4 only) the exact search is
    :func:`solve_maxn`, every other seat playing for itself instead of against the
    robot, and it takes up to ``max_samples`` deals within :data:`ENDGAME_NODES`."""
    know = FormatKnowledge(view)
    obs = format_observations(view) if inference else []
    exp = [math.exp(-inference * d) for d in range(_MAX_SCORE)] if obs else []
    rules = view.rules
    sc = Scoring(rules)
    util = side_utility(know, match_aware)
    seat = view.seat
    n = know.players
    nxt = seat + 1 if seat + 1 < n else 0
    plan = []
    for move in moves:
        assert move.tile is not None
        nl, nr = _new_ends(view, move)
        i = move.tile.index
        capicua = view.ends is not None and not move.tile.is_double
        capicua = capicua and move.tile.has(view.ends[0]) and move.tile.has(view.ends[1])  # type: ignore[index]
        plan.append((1 << i, nl, nr, capicua))
    exact = (
        endgame
        and (rules.boneyard is not Boneyard.DRAW or know.boneyard == 0)
        and sum(know.counts) <= ENDGAME_TILES[n]
    )
    maxn = exact and each_for_self and not rules.partnership and n > 2
    if maxn:
        samples = max(ENDGAME_SAMPLES, max_samples)
    elif exact:
        samples = min(samples, ENDGAME_SAMPLES)
    else:
        tiles = sum(know.counts) + (know.boneyard if rules.boneyard is Boneyard.DRAW else 0)
        samples = playout_samples(samples, budget, max_samples, len(moves), tiles)
    me = _side_of(rules, seat)
    totals = [0.0] * len(moves)
    weights = 0.0
    searched = [0]
    for k in range(samples):
        if exact and k >= ENDGAME_MIN_SAMPLES and searched[0] >= ENDGAME_NODES:
            break  # the budget is spent: the deals solved so far decide
        if maxn and k >= ENDGAME_SAMPLES and searched[0] >= ENDGAME_EXTRA_NODES:
            break  # more deals only while the search is cheap
        hands, bone = know.sample(rng)
        w = observation_weight(hands, obs, exp) if obs else 1.0
        weights += w
        mine = hands[seat]
        memo: dict[tuple[int, ...], tuple[int, int]] = {}
        for j, (bit, nl, nr, capicua) in enumerate(plan):
            h = hands[:]
            h[seat] = mine & ~bit
            if not h[seat]:
                pips = [pips_of_any_mask(x) for x in h]
                side = _side_of(rules, seat)
                totals[j] += w * util(side, sc.side_points(pips, side, capicua))
                continue
            if maxn:
                side, points = solve_maxn(h, nl, nr, nxt, 0, sc, util, seat, memo, searched)
                totals[j] += w * util(side, points)
                continue
            if exact:
                totals[j] += w * solve_endgame(
                    h, nl, nr, nxt, 0, rules, sc, util, me, nodes=searched
                )
                continue
            side, points = format_playout(h, bone, nl, nr, nxt, rules, sc)
            totals[j] += w * util(side, points)
    return [t / (weights or 1.0) for t in totals]


def solve_endgame(
    hands: list[int],
    left: int,
    right: int,
    turn: int,
    passes: int,
    rules: Rules,
    sc: Scoring,
    utility: Callable[[int, int], float],
    me: int,
    alpha: float = -1e9,
    beta: float = 1e9,
    nodes: list[int] | None = None,
) -> float:
    """The exact value, for side ``me``, of a position where nothing can be drawn (the
    boneyard is empty or the rule is ``pass``): every seat of side ``me`` maximizes
    ``utility(side, points)`` of the hand's result, every other seat minimizes it (a
    paranoid search: in individual play of 3 or 4 the others are taken as allies).
    Alpha-beta, tiles tried by the heuristic's score first. ``hands`` is not changed.

    Args:
        hands: each seat's mask; left, right: the open ends; turn: the seat to move;
        passes: consecutive passes before this move (``players`` of them is a tranca).
        nodes: if given, ``nodes[0]`` counts the positions searched (the caller's budget).
    """
    if nodes is not None:
        nodes[0] += 1
    n = len(hands)
    hand = hands[turn]
    fits = hand & (_NM[left] | _NM[right])
    maximize = _side_of(rules, turn) == me
    if not fits:
        if passes + 1 >= n:
            pips = [pips_of_any_mask(h) for h in hands]
            side = sc.blocked_side(pips)
            return utility(side, sc.side_points(pips, side, False)) if side >= 0 else 0.0
        nxt = turn + 1 if turn + 1 < n else 0
        return solve_endgame(
            hands, left, right, nxt, passes + 1, rules, sc, utility, me, alpha, beta, nodes
        )
    options = []
    for i in _bits(fits):
        for _side, nl, nr in _placements(i, left, right):
            options.append((score_move(hand, i, nl, nr), i, nl, nr))
    options.sort(key=lambda o: -o[0])
    best = -1e9 if maximize else 1e9
    nxt = turn + 1 if turn + 1 < n else 0
    for _score, i, nl, nr in options:
        rest = hand & ~(1 << i)
        if not rest:
            capicua = _HIGH[i] != _LOW[i] and bool((1 << i) & _NM[left] & _NM[right])
            h = hands[:]
            h[turn] = rest
            pips = [pips_of_any_mask(x) for x in h]
            side = _side_of(rules, turn)
            value = utility(side, sc.side_points(pips, side, capicua))
        else:
            h = hands[:]
            h[turn] = rest
            value = solve_endgame(h, nl, nr, nxt, 0, rules, sc, utility, me, alpha, beta, nodes)
        if maximize:
            if value > best:
                best = value
            if best > alpha:
                alpha = best
        else:
            if value < best:
                best = value
            if best < beta:
                beta = best
        if alpha >= beta:
            break
    return best


def solve_maxn(
    hands: list[int],
    left: int,
    right: int,
    turn: int,
    passes: int,
    sc: Scoring,
    utility: Callable[[int, int], float],
    me: int,
    memo: dict[tuple[int, ...], tuple[int, int]],
    nodes: list[int] | None = None,
) -> tuple[int, int]:
    """The hand's result ``(side, points)`` (``(-1, 0)``: a tied tranca) when, in
    individual play, every seat plays for itself with every hand known (max-n): seat
    ``me`` picks the move whose result is worth most by ``utility``, every other seat the
    move worth most to it: its points when it wins, 0 for a tied tranca, minus the
    winner's points shared among the losers otherwise (the margin it is scored by). Ties:
    the heuristic's best move first. Position nothing can be drawn in; ``hands`` is not
    changed.

    Args:
        hands: each seat's mask; left, right: the open ends; turn: the seat to move;
        passes: consecutive passes before this move (``players`` of them is a tranca).
        memo: the results of positions already solved (shared by the candidate moves of
            one deal).
        nodes: if given, ``nodes[0]`` counts the positions searched (the caller's budget).
    """
    key = (*hands, left, right, turn, passes)
    found = memo.get(key)
    if found is not None:
        return found
    if nodes is not None:
        nodes[0] += 1
    n = len(hands)
    hand = hands[turn]
    fits = hand & (_NM[left] | _NM[right])
    nxt = turn + 1 if turn + 1 < n else 0
    if not fits:
        if passes + 1 >= n:
            pips = [pips_of_any_mask(h) for h in hands]
            side = sc.blocked_side(pips)
            result = (side, sc.side_points(pips, side, False)) if side >= 0 else (-1, 0)
        else:
            result = solve_maxn(hands, left, right, nxt, passes + 1, sc, utility, me, memo, nodes)
        memo[key] = result
        return result
    options = []
    for i in _bits(fits):
        for _side, nl, nr in _placements(i, left, right):
            options.append((score_move(hand, i, nl, nr), i, nl, nr))
    options.sort(key=lambda o: -o[0])
    share = n - 1
    best = (-1, 0)
    top = -1e9
    for _score, i, nl, nr in options:
        h = hands[:]
        h[turn] = rest = hand & ~(1 << i)
        if not rest:
            capicua = _HIGH[i] != _LOW[i] and bool((1 << i) & _NM[left] & _NM[right])
            pips = [pips_of_any_mask(x) for x in h]
            result = (turn, sc.side_points(pips, turn, capicua))
        else:
            result = solve_maxn(h, nl, nr, nxt, 0, sc, utility, me, memo, nodes)
        side, points = result
        if turn == me:
            value = utility(side, points)
        elif side < 0:
            value = 0.0
        else:
            value = points if side == turn else -points / share
        if value > top:
            top, best = value, result
    memo[key] = best
    return best
