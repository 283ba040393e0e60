"""The live table as page data (bot/present/live.py)."""

from __future__ import annotations

from test_manager import ANA, CHAT, seat_with_robots, wait_for_turn

from bot.core import OpenTable, PressButton, Refusal, RefusalReason, RobotSeat, ShowMyTiles
from bot.present.live import (
    BOARD,
    PAGE_TEXTS,
    board_geometry,
    hand_state,
    link_label,
    page_refusal,
    page_texts,
    table_state,
)
from bot.present.moves import move_buttons
from render.board import board_layout, seat_panels
from render.canvas import SIDE_COLORS


async def test_the_public_state_holds_the_boards_own_layout_and_no_hand(make_manager, clock):
    manager = make_manager()
    table_id = await seat_with_robots(manager, clock)
    for _ in range(6):
        await wait_for_turn(manager, clock, table_id, 0)
        tiles = (await manager.handle(ShowMyTiles(ANA, None, table_id))).events[0]
        await manager.handle(PressButton(ANA, tiles.moves[0].payload))
    event = manager.table_state(table_id)
    assert event is not None and event.view is not None
    state = table_state(event, "es", now=clock.now())
    layout = board_layout(event.view)
    assert [(t["x"], t["y"], t["w"], t["h"], t["a"], t["b"]) for t in state["line"]["tiles"]] == [
        (b.rect.x0, b.rect.y0, b.rect.width, b.rect.height, b.first, b.second) for b in layout.tiles
    ]
    assert [e["number"] for e in state["line"]["ends"]] == [e.number for e in layout.ends]
    assert [s["tiles"] for s in state["seats"]] == list(event.view.tile_counts)
    assert state["seats"][0]["name"] == "Ana" and state["seats"][1]["robot"] is True
    assert (state["table"], state["move"], state["turn"]) == (
        table_id,
        event.move_number,
        event.turn,
    )
    assert state["now"] == clock.now() and state["board"] is BOARD
    assert state["caption"].startswith("Mesa ")
    lacking = event.view.numbers_lacking()
    for seat in state["seats"]:
        numbers = sorted(lacking[seat["seat"]])
        expected = f"sin {', '.join(map(str, numbers))}" if numbers else ""
        assert seat["lacks"] == expected
    assert "playable" not in state and "moves" not in state  # no seat's tiles or moves


async def test_a_three_seat_individual_table_gives_each_seat_its_side_place_and_score(
    make_manager, clock
):
    manager = make_manager()
    robot = RobotSeat("aprendiz")
    reply = await manager.handle(
        OpenTable(
            ANA,
            CHAT,
            preset="individual",
            overrides={"players": 3, "boneyard": "draw"},
            right=robot,
            left=robot,
            formats=True,
        )
    )
    assert reply.ok, reply.refusal
    await wait_for_turn(manager, clock, reply.table_id, 0)
    event = manager.table_state(reply.table_id)
    assert event is not None and event.view is not None
    state = table_state(event, "es", now=clock.now())
    names = [seat["name"] for seat in state["seats"]]
    assert [seat["team"] for seat in state["seats"]] == [0, 1, 2]
    assert state["teams"] == names and names[0] == "Ana"
    assert (state["players"], state["partnership"]) == (3, False)
    assert state["score"] == [0, 0, 0]
    assert state["board"] is board_geometry(3)
    assert state["board"]["places"] == {"0": "bottom", "1": "right", "2": "left"}
    assert state["board"]["panels"] == {str(s): box for s, box in seat_panels(3).items()}
    assert state["board"]["colors"]["teams"] == SIDE_COLORS
    left = event.view.boneyard_count
    assert (state["boneyard"], state["boneyard_text"]) == (left, f"Pozo: {left}")
    assert left + sum(event.view.tile_counts) + len(event.view.line) == 28  # every tile


async def test_todays_game_has_no_boneyard_on_the_page(make_manager, clock):
    manager = make_manager()
    table_id = await seat_with_robots(manager, clock)
    await wait_for_turn(manager, clock, table_id, 0)
    event = manager.table_state(table_id)
    assert event is not None
    state = table_state(event, "es", now=clock.now())
    assert (state["boneyard"], state["boneyard_text"], state["players"]) == (None, "", 4)
    assert state["teams"][0].startswith("Ana y ") and " y " in state["teams"][1]
    assert [seat["team"] for seat in state["seats"]] == [0, 1, 0, 1]


async def test_a_seats_state_offers_the_same_moves_and_labels_as_the_buttons(make_manager, clock):
    manager = make_manager()
    table_id = await seat_with_robots(manager, clock)
    await wait_for_turn(manager, clock, table_id, 0)
    (tiles,) = (await manager.handle(ShowMyTiles(ANA, None, table_id))).events
    state = hand_state(tiles, now=5.0)
    assert state["tiles"] == [str(t) for t in tiles.view.tiles]
    assert [(m["payload"], m["label"]) for m in state["moves"]] == [
        (choice.payload, label) for choice, label in move_buttons(tiles)
    ]
    assert state["playable"] == [str(t) for t in tiles.view.playable_tiles()]
    assert (state["seat"], state["your_turn"], state["move"]) == (0, True, tiles.move_number)


def test_the_page_has_every_word_in_both_languages() -> None:
    spanish, english = page_texts("es"), page_texts("en")
    assert (
        set(spanish)
        == set(english)
        == {
            *PAGE_TEXTS,
            "emote_labels",
            "again",
            "analysis",
            "analysing",
        }
    )
    assert (spanish["analysis"], spanish["analysing"]) == (
        "¿Qué debí jugar?",
        "Analizando tu última mano…",
    )
    assert (spanish["again"], english["again"]) == ("Jugar otra vez", "Play again")
    assert (spanish["ended"], english["ended"]) == ("Partida terminada", "Match over")
    assert spanish["your_turn"] == "Te toca" and english["your_turn"] == "Your turn"
    assert spanish["denied_expired"] == "Este enlace caducó; pide uno nuevo al bot."
    assert all(spanish[k] for k in PAGE_TEXTS)
    assert spanish["emote_labels"]["buena"] == "¡Buena!"
    assert (link_label("open", "es"), link_label("watch", "en")) == (
        "Abrir la mesa",
        "Watch the table",
    )
    assert CHAT.key  # the page speaks the player's language, whatever the group's


def test_a_stale_press_is_refused_in_the_pages_words_and_others_in_the_chats() -> None:
    stale = Refusal(to=ANA, reason=RefusalReason.STALE)
    assert page_refusal(stale, "es") == "Esa jugada ya se hizo o ya no vale."
    assert page_refusal(stale, "en") == "That move was already made or is no longer valid."
    turn = Refusal(to=ANA, reason=RefusalReason.NOT_YOUR_TURN)
    assert page_refusal(turn, "es") == "No te toca."
