"""Buttons (bot/discord/buttons.py): custom ids, the persistent item, and every kind of bad
press (stale, repeated, foreign, forged, on an ended table) refused ephemerally with
nothing changed."""

from __future__ import annotations

import re
from dataclasses import replace

from bot.core import EMOTES, PlayerRef, ShowMyTiles, encode_action, encode_press
from bot.discord.buttons import PressItem, board_view, moves_view
from tests.fake_discord import (
    FakeDiscord,
    Harness,
)
from tests.test_discord_presses import my_turn, start_with_robots


def test_every_payload_the_bot_makes_fits_a_custom_id_and_matches_the_item() -> None:
    template = PressItem.__discord_ui_compiled_template__  # type: ignore[attr-defined]
    longest_table = "z" * 16
    payloads = [encode_press(longest_table, 999_999, 999_999, "66l")] + [
        encode_action(kind, longest_table, arg)
        for kind, arg in [
            ("sit", 3),
            ("sit", ""),
            ("robots", ""),
            ("tiles", ""),
            ("back", ""),
            ("leave", ""),
            ("again", ""),
        ]
        + [("emote", name) for name in EMOTES]
    ]
    for payload in payloads:
        assert len(payload) <= 100
        assert re.fullmatch(template, payload), payload


async def test_board_buttons_follow_the_tables_phase(fake: FakeDiscord, harness: Harness) -> None:
    ana = fake.add_user("Ana")
    guild = next(iter(fake.guilds))
    await fake.replied(await fake.slash(ana, guild, "domino", "jugar"))
    await harness.idle()
    table = harness.manager.tables()[0]
    waiting = harness.manager.table_state(table)
    view = board_view(waiting, "es")
    labels = [item.label for item in view.children]
    assert labels == [
        "Sentarme: asiento 2",
        "Sentarme: asiento 3",
        "Sentarme: asiento 4",
        "Robots ya",
        "Levantarme",
    ]
    assert view.is_finished()  # discord.py keeps no view per message: PressItem answers
    english = board_view(waiting, "en")
    assert [item.label for item in english.children][-2:] == ["Robots now", "Leave"]


async def test_move_buttons_carry_the_managers_payloads_highest_tile_first(
    fake: FakeDiscord, harness: Harness
) -> None:
    ana = fake.add_user("Ana")
    await start_with_robots(fake, harness, ana)
    dm = await my_turn(fake, ana)
    reply = await harness.manager.handle(
        ShowMyTiles(PlayerRef("discord", str(ana.id), "Ana"), table_id=harness.manager.tables()[0])
    )
    (tiles,) = reply.events
    assert set(dm.custom_ids()) == {choice.payload for choice in tiles.moves}
    view = moves_view(tiles)
    assert view is not None and view.is_finished()
    codes = [item.custom_id.rsplit(":", 1)[1] for item in view.children]
    pips = [(int(c[0]), int(c[1])) for c in codes if c != "p"]
    assert pips == sorted(pips, reverse=True)
    assert [item.label for item in view.children] == dm.labels()


async def test_with_the_web_table_the_board_links_spectators_and_the_tiles_link_their_player(
    fake: FakeDiscord, harness: Harness
) -> None:
    ana = fake.add_user("Ana")
    await start_with_robots(fake, harness, ana)
    await my_turn(fake, ana)
    table = harness.manager.tables()[0]
    playing = harness.manager.table_state(table)
    view = board_view(playing, "es", watch_url="https://mesa.example/?w=TOKEN")
    links = [item for item in view.children if getattr(item, "url", None)]
    assert [(b.label, b.url) for b in links] == [("Mirar la mesa", "https://mesa.example/?w=TOKEN")]
    player = PlayerRef("discord", str(ana.id), "Ana")
    (tiles,) = (await harness.manager.handle(ShowMyTiles(player, table_id=table))).events
    moves = moves_view(tiles, open_url="https://mesa.example/?s=SEAT")
    assert moves is not None
    assert moves.children[-1].url == "https://mesa.example/?s=SEAT"
    assert moves.children[-1].label == "Abrir la mesa"
    assert len(moves.children) == len(tiles.moves) + 1
    waiting_turn = replace(tiles, moves=())
    only_link = moves_view(waiting_turn, open_url="https://mesa.example/?s=SEAT")
    assert only_link is not None and [b.url for b in only_link.children] == [
        "https://mesa.example/?s=SEAT"
    ]
    assert moves_view(waiting_turn) is None


def test_a_friends_dm_carries_its_buttons_with_the_cores_payloads() -> None:
    from bot.core import ChatRef, FriendNews, FriendUpdate
    from bot.discord.buttons import FriendItem, friend_view

    to = PlayerRef("discord", "2", "Beto")
    asked = FriendUpdate(
        table_id="", chat=ChatRef("discord", ""), to=to, news=FriendNews.REQUESTED,
        friend="Ana", friend_id=12,
    )  # fmt: skip
    view = friend_view(asked, ["accept_friend", "decline_friend"])
    assert view is not None
    assert [(b.label, b.custom_id) for b in view.children] == [  # type: ignore[attr-defined]
        ("Aceptar", "dmf:a:12"),
        ("Rechazar", "dmf:d:12"),
    ]
    assert FriendItem.matches("dmf:i:abc123") is not None
    assert FriendItem.matches("dm1:s:abc:1") is None
    assert friend_view(asked, []) is None


def test_a_report_with_the_web_table_links_the_matchs_record_page() -> None:
    from bot.discord.buttons import report_view

    view = report_view(3, "900", "es", "https://domino.example/partida/m1")
    labels = [(getattr(b, "label", None), getattr(b, "url", None)) for b in view.children]
    assert labels[2] == ("Ver la partida", "https://domino.example/partida/m1")
    assert len(report_view(3, "900", "es").children) == 2
