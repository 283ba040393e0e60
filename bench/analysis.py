"""'¿Qué debí jugar?' cost (issue 15): CPU seconds to analyse one seat's hand.

Analyses every finished hand of every record in ``tests/records`` and of ``--matches``
simulated robot matches, for each seat, and prints the CPU time per hand (median, p95,
max) against the target of 2 s on one core.

Run: ``python bench/analysis.py [--matches 20]``
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.match import Match
from engine.records import replay
from engine.robots import make_robot
from engine.robots.analysis import analyze_hand
from engine.rules import find_preset
from engine.views import seat_view


def simulated(seed: int) -> Match:
    """A match of jugador robots (a fast, plausible player) to its end."""
    rng = random.Random(seed)
    robot = make_robot("jugador")
    match = Match.new(find_preset("venezolano"), rng)
    while not match.is_over:
        if match.hand.is_over:
            match = match.next_hand(rng)
            continue
        seat = match.hand.turn
        match = match.apply(robot.choose(seat_view(match, seat), rng), seat)
    return match


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=20)
    args = parser.parse_args()
    root = Path(__file__).resolve().parent.parent / "tests" / "records"
    matches = [replay(p.read_text()) for p in sorted(root.glob("*.json"))
               if not p.name.endswith(".expected.json")]  # fmt: skip
    matches += [simulated(seed) for seed in range(args.matches)]
    times = []
    for match in matches:
        for index, hand in enumerate(match.hands):
            if hand.outcome is None:
                continue
            for seat in range(4):
                start = time.process_time()
                analyze_hand(match, index, seat)
                times.append(time.process_time() - start)
    times.sort()
    p95 = times[int(0.95 * (len(times) - 1))]
    print(f"{len(times)} seat-hands analysed: CPU median {statistics.median(times):.2f} s, "
          f"p95 {p95:.2f} s, max {times[-1]:.2f} s (target: 2 s on one core: "
          f"{'OK' if times[-1] <= 2.0 else 'MISSED'})")  # fmt: skip
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
