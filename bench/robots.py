"""Robot strength and speed figures (issue 3; robots.md, "Measuring").

Plays duplicate deals under a preset (default ``venezolano``, 2,000 deals, both cores) for
each pair of the ladder and prints A's points per hand over B with its 95 % interval,
hands won, and A's decision times (median, p95, p99, first decision of a hand), next to
the figures the issue asks for.

    python bench/robots.py                       # the three pairs of the issue
    python bench/robots.py --deals 500 --pairs maestro:jugador
"""

from __future__ import annotations

import argparse
import os
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), os.pardir))

from bot.commands.simulate import run_duplicates

TARGETS = {
    # (a, b): (min points per hand, max median ms, max p99 ms)
    ("jugador", "novato"): (4.5, None, None),
    ("experto", "jugador"): (4.0, 10.0, None),
    ("maestro", "jugador"): (6.5, 25.0, 150.0),
}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=2000)
    parser.add_argument("--preset", default="venezolano")
    parser.add_argument("--seed", default="bench")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--clock", choices=("wall", "cpu"), default="wall")
    parser.add_argument(
        "--pairs",
        default="jugador:novato,experto:jugador,maestro:jugador",
        help="comma-separated A:B level pairs",
    )
    args = parser.parse_args()
    print(f"preset {args.preset}, {args.deals} duplicate deals, seed {args.seed!r}, "
          f"{args.jobs} job(s), {os.cpu_count()} CPU(s), {args.clock} clock, "
          f"load average {os.getloadavg()[0]:.1f}")  # fmt: skip
    ok = True
    for pair in args.pairs.split(","):
        a, b = pair.split(":")
        start = time.perf_counter()
        tally = run_duplicates(
            args.preset, a, b, args.deals, seed=args.seed, jobs=args.jobs, clock=args.clock
        )
        wall = time.perf_counter() - start
        mean, half = tally.margin()
        t = tally.timing(a)
        won = 100 * tally.a_hands / max(tally.hands, 1)
        print(f"\n{a} vs {b}: {mean:+.2f} ± {half:.2f} points per hand "
              f"[{mean - half:+.2f}, {mean + half:+.2f}], A wins {won:.1f} % of hands "
              f"({tally.hands} hands, {wall:.0f} s)")  # fmt: skip
        print(f"  {a} decisions: {int(t['n'])}, median {t['median']:.2f} ms, "
              f"p95 {t['p95']:.2f} ms, p99 {t['p99']:.2f} ms, max {t['max']:.1f} ms; "
              f"first decision of a hand: median {t['first_median']:.2f} ms, "
              f"p99 {t['first_p99']:.2f} ms; with a choice (more than one legal move): "
              f"median {t['choice_median']:.2f} ms, p99 {t['choice_p99']:.2f} ms")  # fmt: skip
        target = TARGETS.get((a, b)) if args.preset == "venezolano" else None
        if target:
            need, med, p99 = target
            checks = [(f"margin >= {need:+.1f}", mean >= need)]
            if med is not None:
                checks.append((f"median <= {med:.0f} ms", t["median"] <= med))
            if p99 is not None:
                checks.append((f"p99 <= {p99:.0f} ms", t["p99"] <= p99))
            for label, passed in checks:
                ok &= passed
                print(f"  target {label}: {'met' if passed else 'NOT met'}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
