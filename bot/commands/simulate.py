"""``domino simulate``: compare two robot levels on duplicate deals (robots.md, "Measuring").

Every deal is played twice with the teams swapping seats (where the first tile is free the
opener also rotates); ``--matches`` plays whole matches on the same deal sequences in both
seatings instead. Prints a rich progress bar, then a table: A's points per hand over B with
a 95 % interval, hands won, matches won, and each level's decision times.

``--preset`` also takes the format presets (``uno-contra-uno``, ``individual``,
``cubano``; rules.md, "Formats"): in individual play each deal is played once per seat,
A at that seat and B at every other. Without ``--a``/``--b`` it prints the **ladder**:
each level against the one below it (:data:`LADDER`), one row per rung.
"""

from __future__ import annotations

import argparse
import multiprocessing
import time
from collections.abc import Callable, Iterator

from engine.robots import LEVELS, Robot, make_robot
from engine.robots.arena import DealResult, Tally, duplicate_deal, duplicate_match
from engine.rules import EVERY_PRESET_NAME, Rules, find_any_preset

__all__ = ["HELP", "LADDER", "add_arguments", "ladder_table", "run", "run_duplicates"]

HELP = "compare two robot levels on duplicate deals"

_WORKER: dict[str, object] = {}

LADDER: tuple[tuple[str, str], ...] = tuple(
    (LEVELS[k + 1], LEVELS[k]) for k in range(len(LEVELS) - 1)
)
"""The ladder's rungs as ``(A, B)``: each level against the one below it."""
_TIME_ROWS = (
    ("median", "median"),
    ("p95", "p95"),
    ("p99", "p99"),
    ("max", "max"),
    ("first_median", "first decision of a hand: median"),
    ("first_p99", "first decision of a hand: p99"),
    ("choice_median", "with a choice (2+ legal moves): median"),
    ("choice_p99", "with a choice (2+ legal moves): p99"),
)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--a", choices=LEVELS, help="level of team A (omit both: the ladder)")
    parser.add_argument("--b", choices=LEVELS, help="level of team B (omit both: the ladder)")
    parser.add_argument(
        "--preset",
        default="venezolano",
        choices=EVERY_PRESET_NAME,
        help="a table preset or a format preset (rules.md, 'Formats')",
    )
    parser.add_argument("--deals", type=int, default=200, help="duplicate deals (or matches)")
    parser.add_argument(
        "--matches", action="store_true", help="play whole matches to the preset's target"
    )
    parser.add_argument("--seed", default="1", help="seed of the deal sequence")
    parser.add_argument("--jobs", type=int, default=1, help="worker processes (2: both cores)")
    parser.add_argument(
        "--clock",
        choices=("wall", "cpu"),
        default="wall",
        help="decision times in wall time, or in this process's CPU time (not inflated "
        "by other programs' load)",
    )
    parser.add_argument("--quiet", action="store_true", help="no progress bar")


def _init_worker(preset: str, a: str, b: str, matches: bool, seed: str, clock: str) -> None:
    _WORKER.update(
        clock=time.process_time if clock == "cpu" else time.perf_counter,
        rules=find_any_preset(preset),
        a=a,
        b=b,
        matches=matches,
        seed=seed,
        robots={a: make_robot(a), b: make_robot(b)},
    )


def _work(index: int) -> DealResult:
    rules: Rules = _WORKER["rules"]  # type: ignore[assignment]
    robots: dict[str, Robot] = _WORKER["robots"]  # type: ignore[assignment]
    play = duplicate_match if _WORKER["matches"] else duplicate_deal
    clock: Callable[[], float] = _WORKER["clock"]  # type: ignore[assignment]
    return play(rules, str(_WORKER["a"]), str(_WORKER["b"]), _WORKER["seed"], index, robots, clock)


def run_duplicates(
    preset: str,
    a: str,
    b: str,
    deals: int,
    *,
    matches: bool = False,
    seed: str = "1",
    jobs: int = 1,
    clock: str = "wall",
    on_result: Callable[[Tally], None] | None = None,
) -> Tally:
    """Play ``deals`` duplicate deals (or match pairs) of A against B and tally them.

    Args:
        preset: rule preset name.
        a, b: robot levels.
        deals: how many deals (match pairs with ``matches``).
        matches: play whole matches instead of single hands.
        seed: the deal sequence's seed (same seed, same deals for any pair of levels).
        jobs: worker processes.
        clock: ``"wall"`` or ``"cpu"`` (see ``--clock``).
        on_result: called with the running tally after each deal.
    """
    tally = Tally()
    init = (preset, a, b, matches, seed, clock)
    results: Iterator[DealResult]
    if jobs <= 1:
        _init_worker(*init)
        results = (_work(i) for i in range(deals))
        for r in results:
            tally.add(r)
            if on_result is not None:
                on_result(tally)
        return tally
    ctx = multiprocessing.get_context("fork")
    with ctx.Pool(jobs, initializer=_init_worker, initargs=init) as pool:
        for r in pool.imap_unordered(_work, range(deals), chunksize=4):
            tally.add(r)
            if on_result is not None:
                on_result(tally)
    return tally


def _fmt_ms(value: float) -> str:
    return "-" if value != value else f"{value:.2f}"


def result_table(tally: Tally, args: argparse.Namespace) -> object:
    """A rich table of ``tally`` (see module docstring)."""
    from rich.table import Table

    mean, half = tally.margin()
    title = (
        f"{args.a} (A) vs {args.b} (B) — {args.preset}, {tally.deals} "
        f"{'match pairs' if args.matches else 'duplicate deals'}, seed {args.seed}"
    )
    table = Table(title=title, caption=f"decision times: {args.clock} clock")
    table.add_column("measure")
    table.add_column("value", justify="right")
    table.add_row("A's points per hand over B", f"{mean:+.2f} ± {half:.2f} (95 %)")
    table.add_row("interval", f"[{mean - half:+.2f}, {mean + half:+.2f}]")
    played = max(tally.hands, 1)
    table.add_row(
        "hands won A / B / tied",
        f"{tally.a_hands} / {tally.b_hands} / {tally.hands - tally.a_hands - tally.b_hands}"
        f"  ({100 * tally.a_hands / played:.1f} % / {100 * tally.b_hands / played:.1f} %)",
    )
    table.add_row("points A / B", f"{tally.a_points} / {tally.b_points}")
    if args.matches:
        total = max(tally.a_matches + tally.b_matches, 1)
        table.add_row(
            "matches won A / B",
            f"{tally.a_matches} / {tally.b_matches}  ({100 * tally.a_matches / total:.1f} % A)",
        )
    levels = list(dict.fromkeys((args.a, args.b)))
    times = Table(title="decision time (ms)")
    times.add_column("measure")
    for level in levels:
        times.add_column(level, justify="right")
    stats = [tally.timing(level) for level in levels]
    times.add_row("decisions", *(str(int(t["n"])) for t in stats))
    for key, label in _TIME_ROWS:
        times.add_row(label, *(_fmt_ms(t[key]) for t in stats))
    from rich.console import Group

    return Group(table, times)


def ladder_table(rungs: list[tuple[str, str, Tally]], args: argparse.Namespace) -> object:
    """A rich table of the ladder: one row per rung (A over B per hand with its 95 %
    interval, hands won, A's decision times: all, and those with a choice)."""
    from rich.table import Table

    unit = "match pairs" if args.matches else "duplicate deals"
    table = Table(
        title=f"ladder — {args.preset}, {args.deals} {unit} per rung, seed {args.seed}",
        caption=f"decision times: {args.clock} clock",
    )
    for column in ("A", "B", "A's points per hand over B (95 %)", "hands won A / B"):
        table.add_column(column)
    table.add_column("A ms per decision: median / p99", justify="right")
    table.add_column("A ms with a choice: median / p99", justify="right")
    for a, b, tally in rungs:
        mean, half = tally.margin()
        timing = tally.timing(a)
        table.add_row(
            a,
            b,
            f"{mean:+.2f} ± {half:.2f}",
            f"{tally.a_hands} / {tally.b_hands}",
            f"{_fmt_ms(timing['median'])} / {_fmt_ms(timing['p99'])}",
            f"{_fmt_ms(timing['choice_median'])} / {_fmt_ms(timing['choice_p99'])}",
        )
    return table


def run(args: argparse.Namespace) -> int:
    from rich.console import Console
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        SpinnerColumn,
        TaskID,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )

    console = Console()
    if args.deals < 1 or args.jobs < 1:
        Console(stderr=True).print(
            "[red]domino simulate: --deals and --jobs must be at least 1[/red]"
        )
        return 2
    if (args.a is None) != (args.b is None):
        Console(stderr=True).print(
            "[red]domino simulate: give both --a and --b, or neither (the ladder)[/red]"
        )
        return 2
    pairs = list(LADDER) if args.a is None else [(args.a, args.b)]
    unit = "match pairs" if args.matches else "deals"
    rungs: list[tuple[str, str, Tally]] = []
    with Progress(
        SpinnerColumn(),
        TextColumn("[bold]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("{task.fields[margin]}"),
        TimeElapsedColumn(),
        TimeRemainingColumn(),
        console=console,
        disable=args.quiet,
    ) as progress:
        for a, b in pairs:
            task = progress.add_task(f"{a} vs {b} ({unit})", total=args.deals, margin="")

            def update(tally: Tally, task: TaskID = task) -> None:
                mean, half = tally.margin()
                text = f"A {mean:+.2f} ± {half:.2f}" if half == half else f"A {mean:+.2f}"
                progress.update(task, completed=tally.deals, margin=text)

            tally = run_duplicates(
                args.preset,
                a,
                b,
                args.deals,
                matches=args.matches,
                seed=str(args.seed),
                jobs=args.jobs,
                clock=args.clock,
                on_result=update,
            )
            rungs.append((a, b, tally))
    if args.a is None:
        console.print(ladder_table(rungs, args))
        return 0
    console.print(result_table(tally, args))
    return 0
