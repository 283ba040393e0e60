"""Least-penalty pairing of a ranked list, on networkx's maximum-weight matching.

Both the Swiss and the arena pair by a penalty per pair of entrants (lower is better);
this module finds the perfect pairing of least total penalty with
:func:`networkx.max_weight_matching` (Edmonds' blossom algorithm, exact on integer
weights). Its cost grows with the number of candidate pairs, so it starts with the
pairs at most ``window`` apart in the given order and widens the window (doubling it, up
to every pair) while the pairing found is not perfect or holds a pair at or above the
``avoid`` penalty (a repeat in a Swiss, an immediate rematch in an arena). Lichess's arena
bounds its matching for the same reason (groups of at most 100 players; lila's
``arena/PairingSystem.scala``). docs/tournaments.md, "Pairing 256 entrants".
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import networkx as nx

__all__ = ["Matched", "pair_least_penalty"]


@dataclass(frozen=True, slots=True)
class Matched:
    """A perfect pairing of the positions ``0 .. count - 1``.

    Attributes:
        pairs: ``(i, j)`` with ``i < j``, sorted by ``i``.
        spare: the position left out (the bye, or who waits), for an odd count; else
            ``None``.
    """

    pairs: tuple[tuple[int, int], ...]
    spare: int | None


def pair_least_penalty(
    count: int,
    penalty: Callable[[int, int], int],
    spare_penalty: Callable[[int], int | None],
    *,
    window: int,
    avoid: int,
) -> Matched:
    """Pair positions ``0 .. count - 1`` with the least total penalty.

    Args:
        count: how many positions (entrants), at least 2, in the order whose neighbours
            are the likely partners (the standings, or the Swiss pairing order).
        penalty: ``penalty(i, j)`` for ``i < j``: a non-negative integer.
        spare_penalty: for an odd count, the penalty of leaving ``i`` out, or ``None``
            if ``i`` may not be left out (at least one position must be allowed).
        window: the first candidate pairs are those at most this far apart (at least 1);
            the spare's first candidates are the ``window`` allowed positions of least
            spare penalty.
        avoid: a chosen pair with at least this penalty makes the window widen, until it
            covers every pair (then the pairing is the exact least-penalty one).

    Returns:
        The pairing, every position in one pair or left out as the spare.

    Raises:
        ValueError: an odd count where ``spare_penalty`` allows no position.
    """
    width = max(1, window)
    while True:
        matched = _match(count, penalty, spare_penalty, width)
        if matched is not None and (
            width >= count or all(penalty(i, j) < avoid for i, j in matched.pairs)
        ):
            return matched
        if width >= count:
            # Every pair is a candidate: only a spare with no allowed position fails.
            raise ValueError("no position may be left out of an odd count")
        width *= 2


def _match(
    count: int,
    penalty: Callable[[int, int], int],
    spare_penalty: Callable[[int], int | None],
    width: int,
) -> Matched | None:
    """The least-penalty perfect pairing among pairs at most ``width`` apart, or ``None``."""
    edges: list[tuple[int, int, int]] = [
        (i, j, penalty(i, j)) for i in range(count) for j in range(i + 1, min(count, i + width + 1))
    ]
    spare = count  # the node standing for "left out"
    if count % 2:
        allowed = [(cost, i) for i in range(count) if (cost := spare_penalty(i)) is not None]
        edges += [(i, spare, cost) for cost, i in sorted(allowed)[:width]]
    ceiling = max(cost for _, _, cost in edges) + 1
    graph: nx.Graph[int] = nx.Graph()
    # Integer nodes and weights: networkx then computes exactly, and the same input
    # always gives the same matching (no string hashing involved).
    graph.add_nodes_from(range(count + count % 2))
    graph.add_weighted_edges_from((i, j, ceiling - cost) for i, j, cost in edges)
    matching = nx.max_weight_matching(graph, maxcardinality=True)
    if 2 * len(matching) < count + count % 2:
        return None
    pairs = sorted((min(a, b), max(a, b)) for a, b in matching)
    left_out = next((i for i, j in pairs if j == spare), None)
    return Matched(tuple((i, j) for i, j in pairs if j != spare), left_out)
