"""Discord front end latency through the fake Discord (issue 8, "Performance").

One member plays against three robots (zero think time) on the real discord.py client
connected to ``tests/fake_discord.py`` on 127.0.0.1; matches follow one another until
``--moves`` move presses were made. For every press it measures, from the moment the fake
sends ``INTERACTION_CREATE``:

- **callback**: until the interaction callback reaches the fake (Discord's 3-second
  acknowledgement; target median <= 50 ms);
- **board edit**: until the first edit of the table's board message after the press
  (target median <= 150 ms).

Run: ``python bench/discord.py [--moves 200]``. Prints the figures; asserts nothing.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import statistics
import sys
import time
from pathlib import Path

# This file is named like the library: keep its folder off the import path so that
# ``import discord`` finds discord.py, and put the repository root on it instead.
_HERE = Path(__file__).resolve().parent
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != _HERE]
sys.path.insert(0, str(_HERE.parent))

from bot.core import Leave, PlayerRef  # noqa: E402
from storage import open_storage  # noqa: E402
from tests.fake_discord import FakeDiscord, FakeMessage, Harness  # noqa: E402


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


async def run(moves: int) -> dict[str, list[float]]:
    fake = FakeDiscord()
    await fake.start()
    guild = fake.add_guild("Bench")
    channel = fake.channel_of(guild)
    ana = fake.add_user("Ana")
    storage = await open_storage(":memory:")
    harness = await Harness(fake, storage).start()
    callbacks: list[float] = []
    boards: list[float] = []
    try:
        while len(callbacks) < moves:
            before = {m.id for m in fake.messages_in(channel)}
            inter = await fake.slash(ana, guild, "domino", "mesa", options={"robots": "all"})
            await fake.replied(inter)
            # this table's board: a new message (the last match's board stays in the channel)
            board: FakeMessage = await fake.wait_until(
                lambda before=before: next(
                    (
                        m
                        for m in reversed(fake.messages_in(channel))
                        if m.embeds and m.id not in before
                    ),
                    None,
                )
            )
            board_path = f"/channels/{channel}/messages/{board.id}"
            clicked: list[tuple[int, tuple[str, ...]]] = []

            def next_turn(clicked: list[tuple[int, tuple[str, ...]]] = clicked) -> object:
                if not harness.manager.tables():
                    return "done"
                dm = fake.last_dm(ana)
                if dm is None:
                    return None
                ids = tuple(i for i in dm.custom_ids() if i.startswith("dm1:m:"))
                return (dm, ids) if ids and (dm.id, ids) not in clicked[-1:] else None

            while len(callbacks) < moves:
                found = await fake.wait_until(next_turn, timeout=30)
                if found == "done":
                    break
                dm, ids = found  # type: ignore[misc]
                clicked.append((dm.id, ids))
                press = await fake.click(ana, dm, ids[0])
                await fake.answered(press)
                edit = await fake.wait_until(
                    lambda press=press, board_path=board_path: next(
                        (
                            r
                            for r in reversed(fake.requests)
                            if r.method == "PATCH" and r.path == board_path and r.at > press.sent_at
                        ),
                        None,
                    ),
                    timeout=30,
                )
                assert press.callback_at is not None
                callbacks.append(press.callback_at - press.sent_at)
                boards.append(edit.at - press.sent_at)
            await harness.idle()
            while harness.manager.tables():  # finish the match if --moves ran out
                player = PlayerRef("discord", str(ana.id), "Ana")
                await harness.manager.handle(Leave(player, table_id=harness.manager.tables()[0]))
                await harness.idle()
    finally:
        await harness.stop()
        await fake.close()
        await storage.close()
    return {"callback": callbacks, "board": boards}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--moves", type=int, default=200, help="move presses to time")
    args = parser.parse_args()
    logging.basicConfig(level=logging.ERROR)
    started = time.perf_counter()
    figures = asyncio.run(run(args.moves))
    elapsed = time.perf_counter() - started
    print(
        f"Discord adapter through the fake: {len(figures['callback'])} move presses in {elapsed:.1f} s"
    )
    for name, target, label in (
        ("callback", 50, "INTERACTION_CREATE -> interaction callback"),
        ("board", 150, "INTERACTION_CREATE -> board message edit"),
    ):
        values = [v * 1000 for v in figures[name]]
        median = statistics.median(values)
        print(
            f"  {label}: median {median:.1f} ms, p90 {percentile(values, 0.9):.1f} ms, "
            f"max {max(values):.1f} ms (target median <= {target} ms: "
            f"{'met' if median <= target else 'NOT met'})"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
