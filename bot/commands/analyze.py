"""``domino analyze FILE|- [--seat N] [--hand H]``: '¿Qué debí jugar?' for a match record.

For every finished hand (or hand ``H``) and every seat (or seat ``N``), each decision with
a real choice: the maestro's value of every legal move from that seat's information at
that moment (expected points of the seat's team minus the opponents' over the rest of the
hand), the move played, what it cost against the best, and the hand's accuracy
(``engine.robots.analysis``). One JSON object on standard output, exit 0; an invalid
record exits 2 with the reason on standard error, as ``domino replay`` does.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from bot.commands.replay import read_match
from engine.robots.analysis import HandAnalysis, analyze_hand

HELP = "what should have been played: the maestro's analysis of a record (JSON)"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", metavar="FILE", help="the record (JSON), or - for standard input")
    parser.add_argument("--seat", type=int, choices=range(4), help="only this seat (0-3)")
    parser.add_argument("--hand", type=int, help="only this hand (from 1)")


def hand_json(analysis: HandAnalysis) -> dict[str, Any]:
    """A hand's analysis as JSON (moves in records.md notation, values in points)."""
    return {
        "hand": analysis.hand,
        "seat": analysis.seat,
        "accuracy": None if analysis.accuracy is None else round(analysis.accuracy, 3),
        "points_lost": round(analysis.lost, 2),
        "decisions": [
            {
                "move": d.number,
                "played": d.played.text(),
                "best": d.best.move.text(),
                "cost": round(d.cost, 2),
                "values": [{"move": v.move.text(), "value": v.value} for v in d.values],
            }
            for d in analysis.decisions
        ],
    }


def run(args: argparse.Namespace) -> int:
    match = read_match(args.file)
    if match is None:
        return 2
    finished = [i for i, hand in enumerate(match.hands) if hand.outcome is not None]
    if args.hand is not None:
        if args.hand - 1 not in finished:
            print(f"record: no finished hand {args.hand}", file=sys.stderr)
            return 2
        finished = [args.hand - 1]
    seats = [args.seat] if args.seat is not None else [0, 1, 2, 3]
    hands = [hand_json(analyze_hand(match, i, seat)) for i in finished for seat in seats]
    json.dump({"hands": hands}, sys.stdout, ensure_ascii=False)
    sys.stdout.write("\n")
    return 0
