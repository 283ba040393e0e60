"""Keyboards: board buttons per phase, one reply button per legal move, the /config menu."""

from __future__ import annotations

import random

from bot.core import (
    ChatRef,
    MoveChoice,
    PlayerRef,
    SeatInfo,
    TableChanged,
    YourTiles,
    decode_press,
    encode_press,
)
from bot.telegram.keyboards import (
    MENU_CHOICES,
    board_keyboard,
    config_keyboard,
    hand_keyboard,
    next_choice,
    tournament_keyboard,
    turn_keyboard,
)
from bot.telegram.links import decode_config, encode_config
from engine.match import Match
from engine.rules import OPTION_VALUES, Rules, find_preset
from engine.views import public_view, seat_view
from render import move_labels

CHAT = ChatRef("telegram", "-100", language="es")
ANA = PlayerRef("telegram", "1", "Ana")


def _seats(*names: str) -> tuple[SeatInfo, SeatInfo, SeatInfo, SeatInfo]:
    seats = []
    for seat, name in enumerate(names):
        player = PlayerRef("telegram", str(seat + 1), name) if name else None
        seats.append(SeatInfo(seat=seat, name=name, player=player))
    return (seats[0], seats[1], seats[2], seats[3])


def _event(phase: str, seats: tuple[SeatInfo, ...]) -> TableChanged:
    return TableChanged(
        table_id="t1",
        chat=CHAT,
        label="1",
        phase=phase,  # type: ignore[arg-type]
        rules=find_preset("venezolano"),
        seats=seats,  # type: ignore[arg-type]
    )


def _data(markup: object) -> list[str]:
    return [b.callback_data for row in markup.inline_keyboard for b in row]  # type: ignore[attr-defined]


def test_a_waiting_board_offers_each_open_seat_named_by_the_partner_and_robots_now() -> None:
    markup = board_keyboard(_event("waiting", _seats("Ana", "", "", "Leo")), "es")
    assert markup is not None
    labels = [b.text for row in markup.inline_keyboard for b in row]
    assert "Sentarme con Leo" in labels  # seat 1 sits across from seat 3
    assert "Sentarme con Ana" in labels  # seat 2 sits across from seat 0
    presses = [decode_press(d) for d in _data(markup)]
    assert [(p.kind, p.code) for p in presses] == [("sit", "1"), ("sit", "2"), ("robots", "")]


def test_a_playing_board_offers_emotes_and_my_tiles_and_an_ended_board_nothing() -> None:
    markup = board_keyboard(_event("playing", _seats("A", "B", "C", "D")), "en")
    assert markup is not None
    kinds = [decode_press(d).kind for d in _data(markup)]
    assert kinds.count("emote") == 8 and "tiles" in kinds and "back" in kinds
    assert board_keyboard(_event("ended", _seats("A", "B", "C", "D")), "es") is None


def test_a_turn_has_one_reply_button_per_legal_move_named_as_the_hand_picture_names_it() -> None:
    match = Match.new(find_preset("internacional"), random.Random(3))
    for _ in range(5):
        match = match.apply(match.hand.legal_moves()[0])
    seat = match.hand.turn
    view = seat_view(match, seat)
    moves = view.legal_moves()
    choices = tuple(MoveChoice(m, m.code(), encode_press("t1", 1, 6, m.code())) for m in moves)
    base = dict(
        table_id="t1",
        chat=CHAT,
        to=ANA,
        seat=seat,
        view=view,
        moves=choices,
        hand_number=1,
        move_number=6,
        deadline=None,
        seats=_seats("A", "B", "C", "D"),
    )
    turn = YourTiles(is_your_turn=True, **base)  # type: ignore[arg-type]
    markup = turn_keyboard(turn)
    labels = [b.text for row in markup.keyboard for b in row]
    assert labels == [label for _move, label in move_labels(view, "es")]
    assert len(labels) == len(choices)
    assert all(len(row) <= 3 for row in markup.keyboard)
    assert markup.one_time_keyboard is True and markup.resize_keyboard is True
    assert markup.input_field_placeholder == "Tu jugada"
    assert public_view(match).turn == seat
    # a player at two tables sees where each move is played
    placed = turn_keyboard(turn, "Los amigos del dominó")
    assert [b.text for row in placed.keyboard for b in row] == [
        f"Los amigos del domin · {label}" for label in labels
    ]
    # between turns: no move buttons, and with the web table a Mini App button only
    idle = YourTiles(is_your_turn=False, **base)  # type: ignore[arg-type]
    assert hand_keyboard(idle) is None
    url = "https://mesa.example/?t=t1"
    web = hand_keyboard(idle, web_app_url=url)
    assert web is not None and [[b.web_app.url for b in row] for row in web.inline_keyboard] == [
        [url]
    ]
    assert web.inline_keyboard[0][0].text == "📱 Abrir la mesa"


def test_a_playing_board_links_the_mini_app_and_the_spectator_page_with_the_web_table() -> None:
    event = _event("playing", _seats("A", "B", "C", "D"))
    markup = board_keyboard(
        event, "es", mini_app_url="https://t.me/bot/mesa?startapp=t1", watch_url="https://w/?w=x"
    )
    assert markup is not None
    assert [(b.text, b.url) for b in markup.inline_keyboard[-1]] == [
        ("📱 Abrir la mesa", "https://t.me/bot/mesa?startapp=t1"),
        ("👀 Mirar la mesa", "https://w/?w=x"),
    ]
    plain = board_keyboard(event, "es")
    assert plain is not None and all(b.url is None for row in plain.inline_keyboard for b in row)


def test_a_tournaments_picture_links_its_page_in_the_chats_language() -> None:
    url = "https://mesa.example/torneo/abc123"
    spanish, english = tournament_keyboard(url, "es"), tournament_keyboard(url, "en")
    assert [[(b.text, b.url) for b in row] for row in spanish.inline_keyboard] == [
        [("🏆 Ver el torneo", url)]
    ]
    assert english.inline_keyboard[0][0].text == "🏆 See the tournament"


def test_the_config_menu_lists_presets_and_options_with_their_values() -> None:
    rules = find_preset("dominicano")
    markup = config_keyboard(rules, "dominicano", {}, "es")
    data = [decode_config(d) for d in _data(markup)]
    assert all(d is not None for d in data)
    labels = [b.text for row in markup.inline_keyboard for b in row]
    assert "✓ Dominicano" in labels and "Español" in labels  # issue 13, item 28: not espanol
    assert any(label.startswith("Partida a: 200") for label in labels)
    options = [
        row
        for row in markup.inline_keyboard
        if str(row[0].callback_data).startswith(encode_config("option", "target")[:6])
    ]
    assert options and all(len(row) == 1 for row in options)  # long labels are never cut
    assert {d.name for d in data if d and d.action == "option"} == set(MENU_CHOICES)


def test_every_menu_value_is_a_valid_rule_value_and_stepping_wraps_round() -> None:
    for option, choices in MENU_CHOICES.items():
        assert option in OPTION_VALUES
        for value in choices:
            Rules.build(**{option: value})
    assert next_choice("target", 100) == 150
    assert next_choice("target", 500) == 50
    assert next_choice("stake", 7) == 0  # a typed value off the menu starts it again


def test_a_friend_requests_keyboard_names_the_asker_and_an_invitations_names_itself() -> None:
    from bot.core import ChatRef, FriendNews, FriendUpdate, PlayerRef
    from bot.telegram.keyboards import friend_keyboard

    to = PlayerRef("telegram", "2", "Beto", "en")
    asked = FriendUpdate(
        table_id="", chat=ChatRef("telegram", ""), to=to, news=FriendNews.REQUESTED,
        friend="Ana", friend_id=12,
    )  # fmt: skip
    markup = friend_keyboard(asked, ["accept_friend", "decline_friend"])
    assert markup is not None
    assert [(b.text, b.callback_data) for b in markup.inline_keyboard[0]] == [
        ("✅ Accept", "dmf:a:12"),
        ("✖️ Decline", "dmf:d:12"),
    ]
    invited = FriendUpdate(
        table_id="t1", chat=ChatRef("telegram", "-1"), to=to, news=FriendNews.INVITED,
        friend="Ana", friend_id=12, invite="abc123", label="1", seconds=120,
    )  # fmt: skip
    markup = friend_keyboard(invited, ["take_invite"])
    assert markup is not None
    assert [(b.text, b.callback_data) for b in markup.inline_keyboard[0]] == [
        ("🪑 Take my seat", "dmf:i:abc123")
    ]
    assert friend_keyboard(invited, []) is None


def test_a_report_offers_dismiss_and_ban_and_with_the_web_table_the_matchs_record() -> None:
    from bot.telegram.keyboards import report_keyboard

    plain = report_keyboard(3, "-100", "es")
    linked = report_keyboard(3, "-100", "es", "https://domino.example/partida/m1")
    assert [[b.text for b in row] for row in plain.inline_keyboard] == [["Descartar", "Vetar"]]
    assert [[b.text for b in row] for row in linked.inline_keyboard] == [
        ["Descartar", "Vetar"],
        ["🔎 Ver la partida"],
    ]
    assert linked.inline_keyboard[1][0].url == "https://domino.example/partida/m1"
