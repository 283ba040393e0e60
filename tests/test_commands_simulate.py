from __future__ import annotations

import argparse

from bot.cli import SUBCOMMANDS, main
from bot.commands.simulate import LADDER, add_arguments, result_table, run_duplicates


def test_simulate_is_a_registered_subcommand() -> None:
    assert SUBCOMMANDS["simulate"][0] == "bot.commands.simulate"


def test_two_workers_play_the_same_deals_as_one() -> None:
    one = run_duplicates("venezolano", "jugador", "novato", 12, seed="t", jobs=1)
    two = run_duplicates("venezolano", "jugador", "novato", 12, seed="t", jobs=2)
    assert sorted(one.margins) == sorted(two.margins)
    assert (one.a_hands, one.b_hands) == (two.a_hands, two.b_hands)


def test_the_progress_callback_sees_every_deal() -> None:
    seen: list[int] = []
    run_duplicates(
        "internacional", "aprendiz", "novato", 5, seed="p", on_result=lambda t: seen.append(t.deals)
    )
    assert seen == [1, 2, 3, 4, 5]


def test_simulate_prints_the_margin_hands_matches_and_times(capsys) -> None:  # type: ignore[no-untyped-def]
    code = main(
        ["simulate", "--a", "jugador", "--b", "novato", "--deals", "2", "--matches", "--quiet",
         "--preset", "dominicano", "--seed", "4"]
    )  # fmt: skip
    out = capsys.readouterr().out
    assert code == 0
    for words in ("points per hand", "hands won", "matches won", "median", "p99", "first"):
        assert words in out


def test_the_table_names_both_levels() -> None:
    parser = argparse.ArgumentParser()
    add_arguments(parser)
    args = parser.parse_args(["--a", "aprendiz", "--b", "novato", "--deals", "3"])
    tally = run_duplicates("venezolano", "aprendiz", "novato", 3, seed="x")
    from rich.console import Console

    console = Console(record=True, width=120)
    console.print(result_table(tally, args))
    text = console.export_text()
    assert "aprendiz" in text and "novato" in text


def test_bad_counts_are_refused() -> None:
    assert main(["simulate", "--a", "jugador", "--b", "novato", "--deals", "0", "--quiet"]) == 2


def test_a_format_preset_is_played_once_per_seating() -> None:
    duel = run_duplicates("uno-contra-uno", "jugador", "novato", 3, seed="f")
    alone = run_duplicates("individual", "jugador", "novato", 3, seed="f")
    assert (duel.deals, duel.hands, alone.deals, alone.hands) == (3, 6, 3, 12)


def test_without_levels_simulate_prints_the_ladder_of_a_format(capsys) -> None:  # type: ignore[no-untyped-def]
    code = main(["simulate", "--preset", "cubano", "--deals", "1", "--quiet", "--seed", "l"])
    out = capsys.readouterr().out
    assert code == 0
    assert "ladder — cubano, 1 duplicate deals per rung" in out
    for a, b in LADDER:
        assert any(a in line and b in line for line in out.splitlines())


def test_one_level_without_the_other_is_refused() -> None:
    assert main(["simulate", "--a", "jugador", "--deals", "1", "--quiet"]) == 2
