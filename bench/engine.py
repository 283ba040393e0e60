"""Random-playout full hands per second on one core (issue 2's benchmark).

Measures, in one run:
- ``engine (public API)``: :class:`engine.hand.HandState` with ``legal_moves`` /
  ``apply`` (immutable states, what adapters and records use);
- ``engine (fast path)``: :class:`engine.fast.FastHand.random_playout` (bit masks, what
  robots use for their rollouts), dealing included;
- the PyPI ``dominoes`` package (``Game.new`` + random ``valid_moves``), if installed;
- OpenSpiel's ``python_team_dominoes`` (chance deal + random legal actions), if installed;
- ``engine (public API, P)`` for each format preset P (rules.md, "Formats": the boneyard,
  draws and individual scoring on :class:`engine.hand.HandState`);
- ``engine (fast path, P)``: the formats' bit-mask playout the robots roll out with
  (:func:`engine.robots.formats.format_playout`: every seat plays the heuristic, draws
  from the boneyard as the rule says), dealing and the opening included. ``FastHand``
  itself plays only today's partnership double-six.

Prints hands per second and the ratios. Targets: fast path >= 5x ``dominoes`` and
>= 30x OpenSpiel. Run: ``python bench/engine.py [--seconds S]``.
"""

from __future__ import annotations

import os
import sys

# Run as a script, this file's folder comes first on sys.path and its name would shadow
# the engine package; drop it.
sys.path[:] = [p for p in sys.path if os.path.abspath(p or ".") != os.path.dirname(__file__)]

import argparse  # noqa: E402
import random  # noqa: E402
import time  # noqa: E402
from collections.abc import Callable  # noqa: E402

from engine.fast import FastHand  # noqa: E402
from engine.hand import HandState, deal_tiles, first_hand  # noqa: E402
from engine.rules import FORMAT_PRESETS, PRESETS, Rules  # noqa: E402
from engine.tiles import Tile  # noqa: E402

RULES = PRESETS["venezolano"]
_TILE_BITS = [1 << i for i in range(28)]
SIX_SIX = Tile(6, 6)


def public_api_hand(rng: random.Random) -> None:
    deal = deal_tiles(rng, RULES)
    starter = next(s for s in range(4) if SIX_SIX in deal[s])
    hand = HandState.start(RULES, deal, starter, opening_tile=SIX_SIX)
    choice = rng.choice
    while hand.outcome is None:
        hand = hand.apply(choice(hand.legal_moves()))


def format_hand(rules: Rules) -> Callable[[random.Random], None]:
    """A random hand of a format through the public API (deal, boneyard, draws)."""

    def play(rng: random.Random) -> None:
        first = first_hand(rules, rng)
        hand = HandState.start(
            rules,
            first.deal,
            first.starter,
            opening_tile=first.opening_tile,
            boneyard=first.boneyard,
        )
        choice = rng.choice
        while hand.outcome is None:
            hand = hand.apply(choice(hand.legal_moves()))

    return play


def format_fast_hand(rules: Rules) -> Callable[[random.Random], None]:
    """A hand of a format on the robots' bit-mask playout (deal, opening, draws)."""
    from engine.hand import Scoring
    from engine.robots.formats import format_playout
    from engine.tiles import mask_of

    scoring = Scoring(rules)

    def play(rng: random.Random) -> None:
        first = first_hand(rules, rng)
        hands = [mask_of(h) for h in first.deal]
        opening = first.opening_tile or max(first.deal[first.starter], key=lambda t: t.pips)
        hands[first.starter] &= ~(1 << opening.index)
        boneyard = [t.index for t in first.boneyard]
        turn = first.starter + 1 if first.starter + 1 < rules.players else 0
        format_playout(hands, boneyard, opening.high, opening.low, turn, rules, scoring)

    return play


def fast_hand(rng: random.Random) -> None:
    tiles = _TILE_BITS[:]
    rng.shuffle(tiles)
    hands = [sum(tiles[0:7]), sum(tiles[7:14]), sum(tiles[14:21]), sum(tiles[21:28])]
    six_six = 1 << SIX_SIX.index
    starter = next(s for s in range(4) if hands[s] & six_six)
    fast = FastHand(hands, turn=starter)
    fast.play(SIX_SIX.index, 1)
    fast.random_playout(rng.random)
    fast.result(RULES)


def dominoes_hand(rng: random.Random) -> None:
    import dominoes

    game = dominoes.Game.new()
    choice = rng.choice
    while game.result is None:
        game.make_move(*choice(game.valid_moves))


def openspiel_hand(rng: random.Random) -> None:
    state = _OPENSPIEL_GAME.new_initial_state()
    choice = rng.choice
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(choice(outcomes)[0])
        else:
            state.apply_action(choice(state.legal_actions()))


_OPENSPIEL_GAME = None


def measure(name: str, fn: Callable[[random.Random], None], seconds: float) -> float:
    rng = random.Random(1)
    for _ in range(3):
        fn(rng)
    count = 0
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        for _ in range(20):
            fn(rng)
        count += 20
        now = time.perf_counter()
        if now >= deadline:
            break
    rate = count / (now - start)
    print(f"{name:<36} {rate:>12,.0f} hands/s")
    return rate


def main() -> None:
    global _OPENSPIEL_GAME
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="time per measure (s)")
    args = parser.parse_args()
    print("random-playout full hands per second, one core\n")
    public = measure("engine (public API)", public_api_hand, args.seconds)
    fast = measure("engine (fast path)", fast_hand, args.seconds)
    for name, rules in FORMAT_PRESETS.items():
        measure(f"engine (public API, {name})", format_hand(rules), args.seconds)
        measure(f"engine (fast path, {name})", format_fast_hand(rules), args.seconds)
    other: dict[str, float] = {}
    try:
        import dominoes  # noqa: F401

        other["dominoes (PyPI)"] = measure("dominoes (PyPI)", dominoes_hand, args.seconds)
    except ImportError:
        print(f"{'dominoes (PyPI)':<36} not installed (pip install -e '.[bench]')")
    try:
        import pyspiel
        from open_spiel.python.games import team_dominoes  # noqa: F401

        _OPENSPIEL_GAME = pyspiel.load_game("python_team_dominoes")
        other["OpenSpiel team_dominoes"] = measure(
            "OpenSpiel team_dominoes", openspiel_hand, args.seconds
        )
    except ImportError:
        print(f"{'OpenSpiel team_dominoes':<36} not installed (pip install -e '.[bench]')")
    print()
    targets = {"dominoes (PyPI)": 5.0, "OpenSpiel team_dominoes": 30.0}
    for name, rate in other.items():
        target = targets[name]
        ratio = fast / rate
        verdict = "meets" if ratio >= target else "BELOW"
        print(f"fast path  vs {name:<24} {ratio:8.1f}x  (target {target:.0f}x: {verdict})")
        print(f"public API vs {name:<24} {public / rate:8.1f}x  (for reference; no target)")


if __name__ == "__main__":
    main()
