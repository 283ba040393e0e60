"""Telegram adapter latency: a move pressed -> the next player's turn, and -> the board's edit.

Four humans play through their turn keyboards against the fake Bot API server
(tests/fake_telegram.py) with the real python-telegram-bot, the real table manager
(in-memory storage, manual clock) and the real renderer. A press sends the button's label
as the player's message and needs no answer (bot/telegram/moves.py), so for each press the
clock starts when the fake hands that message to the bot (getUpdates) and stops when the
bot sends the next player their turn (a picture with its keyboard: what the press
answers, privately) and when it edits the group's board. A press that ends a hand has no
next turn until the pause is over: it counts for the board only. Presses are made one at
a time, so each figure is one press's latency, not a throughput.

Telegram's flood limits are switched off in the rate limiter here (they would hold a
group's board to about 20 edits a minute; the adapter then skips to the newest board).

Targets (issue 7): median <= 50 ms to the answer, <= 150 ms to the board's edit (the
answer was then a callback answer; it now includes drawing the next hand's picture).

    python bench/telegram.py [--moves 200] [--seed 7]
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import time
from pathlib import Path

# This file is named like the ``telegram`` package: take bench/ off the path, put the repo on.
_HERE = Path(__file__).resolve().parent
sys.path[:] = [entry for entry in sys.path if Path(entry or ".").resolve() != _HERE]
sys.path.insert(0, str(_HERE.parent))

from tests.fake_telegram import TelegramWorld  # noqa: E402

GROUP = -1009000
BOARD_EDITS = ("editMessageMedia", "editMessageCaption")


async def _open_table(world: TelegramWorld, users: list, group: object) -> str:
    await world.command(group, users[0], "/mesa meta=500")  # type: ignore[arg-type]
    await world.settle()
    for user in users[1:]:
        await world.command(group, user, "/jugar")  # type: ignore[arg-type]
        await world.settle()
    tables = world.manager.tables_of(world.front._player(users[0]))
    assert len(tables) == 1, tables
    return tables[0]


async def run(moves: int, seed: int) -> dict[str, float]:
    answer_ms: list[float] = []
    board_ms: list[float] = []
    async with TelegramWorld(seed=seed) as world:
        users = [
            world.fake.add_user(3000 + i, name)
            for i, name in enumerate(("Ana", "Bea", "Ciro", "Dani"))
        ]
        group = world.fake.add_group(GROUP, "Bench")
        table_id = await _open_table(world, users, group)
        matches = 1
        started = time.perf_counter()
        presses = 0
        while presses < moves:
            await world.settle()
            if world.manager.table_state(table_id) is None:
                table_id = await _open_table(world, users, group)
                matches += 1
                continue
            turn = next(((u, m) for u in users if (m := world.turn_message(u)) is not None), None)
            if turn is None:
                when = world.clock.next_deadline()
                assert when is not None, "stuck"
                await world.clock.advance(max(0.0, when - world.clock.now()))
                continue
            user, _message = turn
            label = world.move_labels(user)[0]
            board_id = world.front._boards[table_id].message_id
            hand = world.manager.table_state(table_id).hand_number  # type: ignore[union-attr]
            mark = len(world.fake.calls)
            update_id = world.fake.press_key(user, label)
            edit = await world.fake.wait_for(
                BOARD_EDITS,
                lambda c, b=board_id: c.chat_id == GROUP and c.params.get("message_id") == b,
                after=mark,
            )
            served = world.fake.served[update_id]
            board_ms.append((edit.at - served) * 1000)
            state = world.manager.table_state(table_id)
            presses += 1
            if state is None or state.hand_number != hand or state.view.outcome is not None:  # type: ignore[union-attr]
                continue  # the hand (or the match) ended: no next turn to wait for
            turn_sent = await world.fake.wait_for(
                "sendPhoto",
                lambda c: (
                    (c.chat_id or 0) > 0 and "keyboard" in (c.params.get("reply_markup") or {})
                ),
                after=mark,
            )
            answer_ms.append((turn_sent.at - served) * 1000)
        elapsed = time.perf_counter() - started
        stats = world.front.stats
    return {
        "moves": presses,
        "matches": matches,
        "answer_median": statistics.median(answer_ms),
        "answer_p90": statistics.quantiles(answer_ms, n=10)[-1],
        "board_median": statistics.median(board_ms),
        "board_p90": statistics.quantiles(board_ms, n=10)[-1],
        "seconds": elapsed,
        "render_ms_per_move": stats.render_seconds * 1000 / max(1, presses),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--moves", type=int, default=200)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args(argv)
    result = asyncio.run(run(args.moves, args.seed))
    print(f"moves pressed:                  {result['moves']} ({result['matches']} match(es))")
    print(
        f"press -> next player's turn:    median {result['answer_median']:.1f} ms, "
        f"p90 {result['answer_p90']:.1f} ms   (target <= 50 ms)"
    )
    print(
        f"press -> board edited:          median {result['board_median']:.1f} ms, "
        f"p90 {result['board_p90']:.1f} ms   (target <= 150 ms)"
    )
    print(f"render time (incl. queue):      {result['render_ms_per_move']:.1f} ms per move")
    print(f"wall time:                      {result['seconds']:.1f} s")
    ok = result["answer_median"] <= 50 and result["board_median"] <= 150
    print("targets met" if ok else "targets NOT met")
    return 0


if __name__ == "__main__":
    sys.exit(main())
