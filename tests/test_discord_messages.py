"""Texts and embeds of the Discord front end (bot/discord/messages.py)."""

from __future__ import annotations

from typing import Any

from bot.core import ChatRulesInfo
from bot.discord.messages import board_embed, rules_embed
from bot.present.labels import team_names
from engine.rules import find_preset
from tests.fake_discord import (
    FakeDiscord,
    Harness,
    seat_and_fill,
)


def test_the_rules_embed_names_every_option_in_spanish() -> None:
    info = ChatRulesInfo("discord:1", "espanol", {}, find_preset("espanol"), True)
    embed = rules_embed("Reglas del servidor", info, "es").to_dict()
    lines = embed["description"].split("\n")
    assert lines[0] == "Reglas: Español"
    assert "• Partida a: 300" in lines
    assert "• Puntos que cuentan: de todos" in lines
    assert "• Única jugada automática tras: 3" in lines
    assert len(lines) == 11


async def test_the_board_embed_names_whose_turn_the_time_left_and_the_score(
    fake: FakeDiscord, harness: Harness
) -> None:
    ana = fake.add_user("Ana", locale="en-US")
    await seat_and_fill(fake, harness, ana)
    state = harness.manager.table_state(harness.manager.tables()[0])
    embed = board_embed(state, "en").to_dict()
    assert embed["title"] == "Table 1 · Venezuelan"
    deadline = int(state.deadline)
    assert embed["description"] == f"{state.seats[state.turn].name} to play · <t:{deadline}:R>"
    fields: dict[str, Any] = {f["name"]: f["value"] for f in embed["fields"]}
    assert fields["Score (to 100)"].count("**0**") == 2
    assert fields["Score (to 100)"].startswith(
        f"{team_names(state.seats, 0, 'en')}: **0**\n{team_names(state.seats, 1, 'en')}: **0**"
    )
    assert team_names(state.seats, 0, "en") == f"{state.seats[0].name} and {state.seats[2].name}"
    spanish = board_embed(state, "es").to_dict()
    assert spanish["footer"]["text"] == "Apuesta: $10"
