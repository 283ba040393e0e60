"""Robot strength and speed figures (issues 3 and 15; robots.md, "Measuring").

Plays duplicate deals under a preset (default ``venezolano``, 2,000 deals, both cores) for
each pair of the ladder and prints A's points per hand over B with its 95 % interval,
hands won, and A's decision times (median, p95, p99, first decision of a hand), next to
the figures the issues ask for. ``pimc100`` is the anchor of issue 15 (``bench/pimc.py``:
flat determinized Monte Carlo, 100 deals per decision, heuristic playouts).

With ``--protocol`` team A is played through ``domino robot`` (``bench/protocol.py``), and
its decision times are the child process's CPU time per answer (and wall time around it).

    python bench/robots.py                       # the ladder and the anchor rows
    python bench/robots.py --deals 500 --pairs maestro:pimc100 --jobs 1 --clock cpu
    python bench/robots.py --deals 200 --pairs maestro:pimc100 --jobs 1 --protocol
    nice -n 10 python bench/robots.py --preset cubano --deals 1000 --seed formats \
        --pairs maestro:pimc100 --jobs 1 --clock cpu   # issue 29, each format
"""

from __future__ import annotations

import argparse
import os
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), os.pardir))

from bench.pimc import ANCHOR_LEVEL
from bench.protocol import SUFFIX, ProtocolRobot
from bot.commands.simulate import run_duplicates
from engine.robots.arena import Tally, _percentile, duplicate_deal
from engine.robots.base import Robot, register_level
from engine.rules import FORMAT_PRESET_NAMES, find_any_preset

TARGETS = {
    # (a, b): (min points per hand, min lower end of the 95 % interval, max median ms,
    # max p99 ms)
    ("jugador", "novato"): (4.5, None, None, None),
    ("experto", "jugador"): (4.0, None, 10.0, None),
    ("maestro", "jugador"): (6.5, None, 25.0, 150.0),
    ("maestro", ANCHOR_LEVEL): (2.0, 1.0, 25.0, 150.0),
}
MIN_ANCHOR_DEALS = 2000
FORMAT_TARGETS = {
    # issue 29, for every other format: the interval's lower end above 0 on 1,000+ deals
    ("maestro", ANCHOR_LEVEL): (None, 0.0, 25.0, 150.0),
}
MIN_FORMAT_ANCHOR_DEALS = 1000
DEFAULT_PAIRS = (
    f"jugador:novato,experto:jugador,maestro:jugador,{ANCHOR_LEVEL}:jugador,maestro:{ANCHOR_LEVEL}"
)


def _ms(values: list[float], q: float) -> float:
    return _percentile(sorted(values), q) * 1000


def _protocol_times(robot: ProtocolRobot) -> dict[str, float]:
    """The child's CPU and wall times per answer, as :meth:`Tally.timing` keys them."""
    chosen = [c for c, choice in zip(robot.cpu, robot.choice, strict=True) if choice]
    first = [c for c, is_first in zip(robot.cpu, robot.first, strict=True) if is_first]
    return {
        "n": float(len(robot.cpu)),
        "median": _ms(robot.cpu, 0.5),
        "p95": _ms(robot.cpu, 0.95),
        "p99": _ms(robot.cpu, 0.99),
        "max": max(robot.cpu, default=float("nan")) * 1000,
        "first_median": _ms(first, 0.5),
        "first_p99": _ms(first, 0.99),
        "choice_median": _ms(chosen, 0.5),
        "choice_p99": _ms(chosen, 0.99),
        "wall_median": _ms(robot.wall, 0.5),
        "wall_p99": _ms(robot.wall, 0.99),
    }


def _run_seats(args: argparse.Namespace, a: str, b: str) -> Tally:
    """``run_duplicates`` in this process for a format preset with ``--players`` seats
    (the same deals and seeds: ``duplicate_deal`` of ``seed`` and the deal's index)."""
    rules = find_any_preset(args.preset, players=args.players)
    clock = time.process_time if args.clock == "cpu" else time.perf_counter
    tally = Tally()
    robots: dict[str, Robot] = {}
    for index in range(args.deals):
        tally.add(duplicate_deal(rules, a, b, args.seed, index, robots, clock=clock))
    return tally


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=2000)
    parser.add_argument("--preset", default="venezolano")
    parser.add_argument("--seed", default="bench")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--clock", choices=("wall", "cpu"), default="wall")
    parser.add_argument(
        "--players",
        type=int,
        default=None,
        help="play a format preset with this many seats (e.g. 3 with uno-contra-uno: "
        "3-seat individual play with draw; one process)",
    )
    parser.add_argument(
        "--pairs",
        default=DEFAULT_PAIRS,
        help="comma-separated A:B level pairs",
    )
    parser.add_argument(
        "--protocol",
        action="store_true",
        help="play team A through `domino robot` (one child process; implies --jobs 1)",
    )
    args = parser.parse_args()
    if args.protocol:
        args.jobs = 1
    seats = f" with {args.players} seats" if args.players else ""
    print(f"preset {args.preset}{seats}, {args.deals} duplicate deals, seed {args.seed!r}, "
          f"{args.jobs} job(s), {os.cpu_count()} CPU(s), {args.clock} clock, "
          f"load average {os.getloadavg()[0]:.1f}")  # fmt: skip
    ok = True
    for pair in args.pairs.split(","):
        a, b = pair.split(":")
        served = None
        level_a = a
        if args.protocol:
            served = ProtocolRobot(a)
            level_a = a + SUFFIX
            register_level(level_a, lambda robot=served: robot)
        start = time.perf_counter()
        if args.players is None:
            tally: Tally = run_duplicates(
                args.preset,
                level_a,
                b,
                args.deals,
                seed=args.seed,
                jobs=args.jobs,
                clock=args.clock,
            )
        else:
            tally = _run_seats(args, level_a, b)
        wall = time.perf_counter() - start
        mean, half = tally.margin()
        t = tally.timing(level_a)
        if served is not None:
            served.close()
            t = _protocol_times(served)
        won = 100 * tally.a_hands / max(tally.hands, 1)
        how = " (A through domino robot)" if served is not None else ""
        print(f"\n{a} vs {b}{how}: {mean:+.2f} ± {half:.2f} points per hand "
              f"[{mean - half:+.2f}, {mean + half:+.2f}], A wins {won:.1f} % of hands "
              f"({tally.hands} hands, {wall:.0f} s)")  # fmt: skip
        print(f"  {a} decisions: {int(t['n'])}, median {t['median']:.2f} ms, "
              f"p95 {t['p95']:.2f} ms, p99 {t['p99']:.2f} ms, max {t['max']:.1f} ms; "
              f"first decision of a hand: median {t['first_median']:.2f} ms, "
              f"p99 {t['first_p99']:.2f} ms; with a choice (more than one legal move): "
              f"median {t['choice_median']:.2f} ms, p99 {t['choice_p99']:.2f} ms")  # fmt: skip
        if served is not None:
            print(f"  (times above: the child's CPU per answer; wall clock per answer: "
                  f"median {t['wall_median']:.2f} ms, p99 {t['wall_p99']:.2f} ms)")  # fmt: skip
        fmt = args.preset in FORMAT_PRESET_NAMES
        if fmt:
            target = FORMAT_TARGETS.get((a, b))
        else:
            target = TARGETS.get((a, b)) if args.preset == "venezolano" else None
        if target:
            need, low, med, p99 = target
            checks = [] if need is None else [(f"margin >= {need:+.1f}", mean >= need)]
            if low is not None:  # the anchor's margin counts on 2,000+ (formats 1,000+) deals
                least = MIN_FORMAT_ANCHOR_DEALS if fmt else MIN_ANCHOR_DEALS
                checks.append((f"at least {least} deals", args.deals >= least))
            if low is not None:
                checks.append((f"interval's lower end > {low:+.1f}", mean - half > low))
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
