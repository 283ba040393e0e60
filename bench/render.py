"""Picture speed and size (issue 4's benchmark).

Measures, in one run, the median wall time of:
- ``board (28 tiles)``: :func:`render.board_png` for the full 28-tile snake;
- ``board (mid-game)``: a 12-tile line with passes;
- ``hand``: :func:`render.hand_png` for a seat on its turn;
- ``board (cubano)``, ``board (3 players)``, ``hand (14 tiles, 1 vs 1)``: the formats'
  pictures (double-nine partnership; three players each for themselves; a hand grown
  by drawing);
- ``hand result`` and ``match result``;
- ``leaderboard``, ``bracket (8)``, ``bracket (16)``, ``standings (Swiss, 12)`` and
  ``standings (arena, 20)``: the lists and the tournament pictures (issues 14 and 32);
- ``floor``: Pillow encoding a blank RGB image of the board's size as PNG with default
  settings (the least any PNG of that size costs).

Also the first (cold-cache) board time and the PNG sizes. Targets: board (28 tiles)
<= 3x the floor, board PNG <= 150 KB. Run: ``python bench/render.py [--runs N]``.
"""

from __future__ import annotations

import os
import sys

# Run as a script, this file's folder comes first on sys.path and this file's name
# would shadow the render package; drop it.
sys.path[:] = [p for p in sys.path if os.path.abspath(p or ".") != os.path.dirname(__file__)]

import argparse  # noqa: E402
import dataclasses  # noqa: E402
import io  # noqa: E402
import statistics  # noqa: E402
import time  # noqa: E402
from collections.abc import Callable  # noqa: E402

from PIL import Image  # noqa: E402


def median_ms(fn: Callable[[], object], runs: int) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1000


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=50, help="timed runs per figure (default 50)")
    args = parser.parse_args()

    start = time.perf_counter()
    from engine.views import public_view, seat_view
    from render import (
        board_png,
        bracket_png,
        hand_png,
        hand_result_png,
        match_result_png,
        standings_png,
        tournament_standings_png,
    )
    from render.board import BOARD_SIZE
    from render.samples import (
        cuban_match,
        find_match,
        finished_match,
        format_facts,
        full_line_view,
        one_against_one_match,
        play,
        sample_arena_standings,
        sample_bracket,
        sample_bracket_sixteen,
        sample_facts,
        sample_standings,
        sample_swiss_standings,
        three_player_match,
    )

    facts = sample_facts()
    full = full_line_view()
    board_png(full, facts)  # the first picture: cold caches
    cold_ms = (time.perf_counter() - start) * 1000

    import random

    from engine.match import Match
    from engine.rules import find_preset

    mid = public_view(
        play(Match.new(find_preset("venezolano"), random.Random(5)), random.Random(5), 12)
    )
    turn = find_match(lambda m: len(m.hand.line) >= 6 and not m.hand.is_over)
    hand_view = seat_view(turn, turn.hand.turn)
    done = finished_match()
    done_view = public_view(done)
    cuban = public_view(cuban_match())
    cuban_facts = format_facts(cuban.rules, cuban)
    three = public_view(three_player_match())
    three_facts = format_facts(three.rules, three)
    grown_match = one_against_one_match()
    grown = seat_view(grown_match, grown_match.hand.tile_counts().index(14))
    grown_facts = format_facts(grown.rules, grown)
    blank = Image.new("RGB", BOARD_SIZE)
    leaderboard = sample_standings()
    eight = sample_bracket()
    sixteen = sample_bracket_sixteen()
    swiss = sample_swiss_standings()
    arena = sample_arena_standings()
    arena_rows = tuple(
        dataclasses.replace(row, place=i + 1) for i, row in enumerate((arena.rows * 2)[:20])
    )
    arena_full = dataclasses.replace(arena, rows=arena_rows)

    def floor() -> bytes:
        buffer = io.BytesIO()
        blank.save(buffer, "PNG")
        return buffer.getvalue()

    for fn in (lambda: board_png(full, facts), lambda: hand_png(hand_view, facts), floor):
        fn()  # warm every cache before timing
    pictures: dict[str, Callable[[], bytes]] = {
        "board (28 tiles)": lambda: board_png(full, facts),
        "board (mid-game)": lambda: board_png(mid, facts),
        "hand": lambda: hand_png(hand_view, facts),
        "board (cubano)": lambda: board_png(cuban, cuban_facts),
        "board (3 players)": lambda: board_png(three, three_facts),
        "hand (14 tiles, 1 vs 1)": lambda: hand_png(grown, grown_facts),
        "hand result": lambda: hand_result_png(done_view, facts),
        "match result": lambda: match_result_png(done_view, facts, {0: 20, 2: 20}),
        "leaderboard": lambda: standings_png(leaderboard),
        "bracket (8)": lambda: bracket_png(eight),
        "bracket (16)": lambda: bracket_png(sixteen),
        "standings (Swiss, 12)": lambda: tournament_standings_png(swiss),
        "standings (arena, 20)": lambda: tournament_standings_png(arena_full),
        "floor (blank PNG encode)": floor,
    }
    # each picture's median time and its PNG's size
    figures = {name: (median_ms(draw, args.runs), len(draw())) for name, draw in pictures.items()}
    print(f"median of {args.runs} runs, board {BOARD_SIZE[0]}x{BOARD_SIZE[1]}")
    for name, (ms, size) in figures.items():
        print(f"  {name:<26} {ms:8.2f} ms   {size / 1024:7.1f} KB")
    print(f"  {'first board (cold caches)':<26} {cold_ms:8.2f} ms   (imports, fonts, sprites)")
    board_ms, board_size = figures["board (28 tiles)"]
    floor_ms = figures["floor (blank PNG encode)"][0]
    ratio = board_ms / floor_ms
    ok_time = ratio <= 3.0
    ok_size = board_size <= 150 * 1024
    print(f"board / floor = {ratio:.2f}x (target <= 3x): {'ok' if ok_time else 'MISSED'}")
    print(
        f"board PNG = {board_size / 1024:.1f} KB (target <= 150 KB): {'ok' if ok_size else 'MISSED'}"
    )
    return 0 if ok_time and ok_size else 1


if __name__ == "__main__":
    sys.exit(main())
