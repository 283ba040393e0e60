"""``domino render-demo``: write the sample pictures so anyone can look at them.

Writes the board (empty line, one tile, mid-game, the full 28-tile snake, long names,
every pass marker, a tranca), hand pictures and result pictures as PNG files.
"""

from __future__ import annotations

import argparse
from pathlib import Path

HELP = "write sample board, hand and result pictures (PNG) to a folder"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--out", default="render-demo", help="folder to write into (default ./render-demo)"
    )
    parser.add_argument(
        "--language",
        "--lang",
        choices=("es", "en"),
        default="es",
        help="picture language (default es)",
    )


def run(args: argparse.Namespace) -> int:
    from render.samples import demo_pictures

    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    for name, data in demo_pictures(args.language):
        path = out / name
        path.write_bytes(data)
        print(f"{path}  {len(data) // 1024} KB")
    return 0
