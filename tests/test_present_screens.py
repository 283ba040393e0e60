"""The table's screens as text: board captions, hand results, match results."""

from __future__ import annotations

import random
from dataclasses import replace

from bot.core import (
    AwayReason,
    ChatRef,
    EmoteShown,
    HandEnded,
    MatchEnded,
    PlayerRef,
    Refusal,
    RefusalReason,
    SeatAbandoned,
    SeatGivenBack,
    SeatInfo,
    SeatKept,
    SeatTakenByRobot,
    TableChanged,
    TableClosed,
)
from bot.core.vocabulary import CloseReason
from bot.present.screens import (
    CAPTION_LIMIT,
    Action,
    BoardScreen,
    ClosedScreen,
    EmoteScreen,
    Notice,
    Reader,
    RefusalScreen,
    ResultScreen,
    TurnGone,
    board_caption,
    my_tables_text,
    names_place,
    screens,
)
from bot.present.texts import (
    back_at_table_text,
    emote_text,
    hand_ended_text,
    match_ended_caption,
    robot_took_seat_private_text,
    robot_took_seat_text,
)
from engine.match import Match
from engine.rules import find_any_preset, find_preset
from engine.views import public_view

CHAT = ChatRef("telegram", "-100")
WINNER, POINTS = 1, 12
"""The first hand of ``_played`` (seed 11): a domino by the second partnership, 12 points."""
SEATS = (
    SeatInfo(seat=0, name="Ana", player=PlayerRef("telegram", "1", "Ana")),
    SeatInfo(seat=1, name="Robot (Experto)", is_robot=True),
    SeatInfo(seat=2, name="Luis", player=PlayerRef("telegram", "2", "Luis")),
    SeatInfo(seat=3, name="Bea", player=PlayerRef("telegram", "3", "Bea")),
)


def _played(moves: int) -> Match:
    match = Match.new(find_preset("venezolano"), random.Random(11))
    for _ in range(moves):
        if match.hand.is_over:
            break
        match = match.apply(match.hand.legal_moves()[0])
    return match


def _first_hand_ended() -> HandEnded:
    """The end of ``_played``'s first hand at table "t"."""
    match = _played(200)
    outcome = match.hand.outcome
    assert outcome is not None
    return HandEnded(
        table_id="t", chat=CHAT, hand_number=1, outcome=outcome, hand_points=(0, 0),
        score=match.score, view=public_view(match),
    )  # fmt: skip


def test_the_playing_caption_says_whose_turn_time_left_score_and_last_move() -> None:
    match = _played(3)
    view = public_view(match)
    event = TableChanged(
        table_id="t",
        chat=CHAT,
        label="4",
        phase="playing",
        rules=match.hand.rules,
        seats=SEATS,
        view=view,
        hand_number=1,
        move_number=4,
        seconds_left=45,
        turn=view.turn,
    )
    caption = board_caption(event, "es", emote="Ana: ¡Buena!")
    assert caption.startswith("Mesa 4 · Mano 1 · Partida a 100")
    assert "🔵 Ana y Luis: 0 – 🔴 Robot (Experto) y Bea: 0" in caption
    assert f"Le toca a {SEATS[view.turn].name} (45 s)" in caption
    seat, move = view.last_move  # type: ignore[misc]
    assert f"Última jugada: {SEATS[seat].name} {move.tile}" in caption
    assert caption.endswith("💬 Ana: ¡Buena!")
    english = board_caption(event, "en")
    assert english.startswith("Table 4 · Hand 1 · Match to 100")


def test_the_waiting_caption_counts_free_seats_and_the_robot_timer() -> None:
    seats = (SEATS[0], SeatInfo(seat=1), SeatInfo(seat=2), SeatInfo(seat=3))
    event = TableChanged(
        table_id="t",
        chat=CHAT,
        label="2",
        phase="waiting",
        rules=find_preset("venezolano"),
        seats=seats,
        seconds_left=120,
    )
    caption = board_caption(event, "es")
    assert "\n3 asientos libres\n" in caption and "120 s" in caption
    assert "Jugadores: Ana" in caption
    assert len(board_caption(event, "es", emote="x" * 2000)) == CAPTION_LIMIT


def test_hand_and_match_results_say_who_won_what_the_manager_computed() -> None:
    match = _played(200)
    assert match.hand.is_over
    outcome = match.hand.outcome
    assert outcome is not None
    points = [0, 0]
    if outcome.winner_team is not None:
        points[outcome.winner_team] = outcome.points
    ended = HandEnded(
        table_id="t",
        chat=CHAT,
        hand_number=1,
        outcome=outcome,
        hand_points=(points[0], points[1]),
        score=match.score,
        view=public_view(match),
    )
    text = hand_ended_text(ended, SEATS, "4", "es")
    assert (outcome.winner_team, outcome.points) == (WINNER, POINTS)
    assert text.startswith("Mesa 4 · mano 1:")
    assert f"Marcador: {match.score[0]} – {match.score[1]}" in text
    assert f"ganan {POINTS} puntos. Marcador" in text

    result = MatchEnded(
        table_id="t",
        chat=CHAT,
        winner_team=0,
        score=(100, 35),
        winners=(),
        payouts={0: 20, 2: 20},
        payouts_by_player={},
        balances={},
        record={},
        view=public_view(match),
        seats=SEATS,
    )
    caption = match_ended_caption(result, "4", "es")
    assert "¡Ana y Luis ganan la partida 100 – 35!" in caption
    # one base with the results picture: net of the stake, every human (issue 27, item 10)
    assert caption.endswith("\nResultado neto (apuesta $10): Ana +$10, Luis +$10, Bea −$10")


def test_every_sentence_of_the_present_layer_is_in_both_core_catalogs_with_its_placeholders() -> (
    None
):
    import ast
    import re
    from pathlib import Path

    import bot.present
    from bot.present.i18n import _catalog

    package = Path(bot.present.__file__).parent
    msgids: set[str] = set()
    for name in sorted(p.name for p in package.glob("*.py")):
        for node in ast.walk(ast.parse((package / name).read_text())):
            if (
                isinstance(node, ast.Call)
                and node.args
                and isinstance(node.args[0], ast.Constant)
                and isinstance(node.args[0].value, str)
                and (
                    (isinstance(node.func, ast.Name) and node.func.id in ("_", "N_"))
                    or isinstance(node.func, ast.Call)
                )
            ):
                msgids.add(node.args[0].value)
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Attribute)
                and node.func.attr == "ngettext"
            ):
                singular, plural = (arg.value for arg in node.args[:2])  # type: ignore[attr-defined]
                msgids.add(singular)
                assert set(re.findall(r"\{(\w+)\}", singular)) <= set(
                    re.findall(r"\{(\w+)\}", plural)
                )
    assert len(msgids) > 40
    spanish, english = _catalog("es", "core"), _catalog("en", "core")
    for msgid in msgids:
        assert msgid in spanish and msgid in english, msgid
        places = set(re.findall(r"\{(\w+)\}", msgid))
        assert set(re.findall(r"\{(\w+)\}", spanish[msgid])) == places, msgid


def _waiting(free: int) -> TableChanged:
    seats = tuple(SEATS[i] if i >= free else SeatInfo(seat=i) for i in range(4))
    return TableChanged(
        table_id="t",
        chat=CHAT,
        label="2",
        phase="waiting",
        rules=find_preset("venezolano"),
        seats=seats,  # type: ignore[arg-type]
    )


def _hand_won(points: int) -> HandEnded:
    match = _played(200)
    assert match.hand.outcome is not None and match.hand.outcome.winner_team == 1
    return HandEnded(
        table_id="t",
        chat=CHAT,
        hand_number=1,
        outcome=match.hand.outcome,
        hand_points=(0, points),
        score=(0, points),
        view=public_view(match),
    )


def test_one_free_seat_and_one_point_are_said_in_the_singular_in_both_languages() -> None:
    """Issue 13, item 24: "1 asientos libres" (plural forms through the catalogs)."""
    assert "\n1 asiento libre\n" in board_caption(_waiting(1), "es")
    assert "\n1 free seat\n" in board_caption(_waiting(1), "en")
    assert "\n2 asientos libres\n" in board_caption(_waiting(2), "es")
    team = "Robot (Experto) y Bea"
    assert f"{team} ganan 1 punto." in hand_ended_text(_hand_won(1), SEATS, "4", "es")
    assert f"{team} ganan 24 puntos." in hand_ended_text(_hand_won(24), SEATS, "4", "es")
    english = "Robot (Experto) and Bea win 1 point."
    assert english in hand_ended_text(_hand_won(1), SEATS, "4", "en")


def _format_hand(preset: str, players: int, seed: int) -> Match:
    """A hand of a format preset played to its end by each seat's first legal move."""
    match = Match.new(find_any_preset(preset, players=players), random.Random(seed))
    while not match.hand.is_over:
        match = match.apply(match.hand.legal_moves()[0])
    return match


THREE = (
    SeatInfo(seat=0, name="Ana", player=PlayerRef("telegram", "1", "Ana")),
    SeatInfo(seat=1, name="Robot Chispa", is_robot=True),
    SeatInfo(seat=2, name="Luis", player=PlayerRef("telegram", "2", "Luis")),
)


def test_individual_play_names_each_player_as_a_side_of_their_own() -> None:
    """rules.md, "Formats": in individual play a side is one seat; the captions and
    results name that player (and a verb in the singular) and give every side's score."""
    match = _format_hand("individual", 3, seed=5)
    outcome = match.hand.outcome
    assert outcome is not None and outcome.winner_team is not None
    points = [0, 0, 0]
    points[outcome.winner_team] = outcome.points
    ended = HandEnded(
        table_id="t",
        chat=CHAT,
        hand_number=1,
        outcome=outcome,
        hand_points=tuple(points),  # type: ignore[arg-type]
        score=tuple(points),  # type: ignore[arg-type]
        view=public_view(match),
    )
    winner = THREE[outcome.winner_team].name
    text = hand_ended_text(ended, THREE, "4", "es")
    score = " – ".join(map(str, points))
    assert text.endswith(f"{winner} gana {outcome.points} puntos. Marcador: {score}")
    assert f"{winner} wins {outcome.points} points. Score: {score}" in hand_ended_text(
        ended, THREE, "4", "en"
    )
    board = TableChanged(
        table_id="t",
        chat=CHAT,
        label="4",
        phase="playing",
        rules=match.hand.rules,
        seats=THREE,
        view=public_view(match),
        hand_number=1,
        move_number=9,
        turn=None,
    )
    expected = f"🔵 Ana: {points[0]} – 🔴 Robot Chispa: {points[1]} – 🟣 Luis: {points[2]}"
    assert expected in board_caption(board, "es").splitlines()
    countdown = TableChanged(
        table_id="t", chat=CHAT, label="4", phase="countdown", rules=match.hand.rules, seats=THREE
    )
    assert "Jugadores: Ana, Robot Chispa, Luis" in board_caption(countdown, "es").splitlines()
    result = MatchEnded(
        table_id="t",
        chat=CHAT,
        winner_team=2,
        score=(40, 12, 104),  # type: ignore[arg-type]
        winners=(THREE[2].player,),  # type: ignore[arg-type]
        payouts={2: 30},
        payouts_by_player={},
        balances={},
        record={},
        view=public_view(match),
        seats=THREE,
    )
    caption = match_ended_caption(result, "4", "es")
    assert caption.startswith("Mesa 4: ¡Luis gana la partida 40 – 12 – 104!")


def test_one_against_one_is_one_player_against_the_other() -> None:
    match = _format_hand("uno-contra-uno", 2, seed=2)
    countdown = TableChanged(
        table_id="t",
        chat=CHAT,
        label="1",
        phase="countdown",
        rules=match.hand.rules,
        seats=THREE[:2],
    )
    assert "Ana contra Robot Chispa" in board_caption(countdown, "es").splitlines()


def _slow_event(seconds_left: int) -> TableChanged:
    match = Match.new(find_preset("venezolano", turn_seconds=43200), random.Random(11))
    view = public_view(match)
    return TableChanged(
        table_id="t",
        chat=CHAT,
        label="2",
        phase="playing",
        rules=match.hand.rules,
        seats=SEATS,
        view=view,
        hand_number=1,
        move_number=1,
        seconds_left=seconds_left,
        turn=view.turn,
    )


def test_a_slow_tables_caption_says_the_time_left_in_hours() -> None:
    event = _slow_event(6 * 3600)
    name = SEATS[event.turn].name  # type: ignore[index]
    assert f"Le toca a {name} (quedan 6 horas)" in board_caption(event, "es")
    assert f"Turn: {name} (6 hours left)" in board_caption(event, "en")


def test_my_tables_lists_each_table_with_its_place_pace_and_whose_turn_it_is() -> None:
    slow = _slow_event(6 * 3600)
    ana = SEATS[0].player
    assert ana is not None
    mine = replace(slow, turn=0)
    waiting = replace(slow, label="3", phase="waiting", turn=None, rules=find_preset("venezolano"))
    text = my_tables_text([(mine, "Amigos"), (waiting, "Amigos")], ana, "es", play="/jugar")
    assert text.splitlines() == [
        "Mesa 2 · Amigos · lenta · te toca (quedan 6 horas)",
        "Mesa 3 · Amigos · esperando jugadores",
    ]
    theirs = replace(slow, turn=2)
    assert my_tables_text([(theirs, "Amigos")], ana, "es", play="/jugar") == (
        "Mesa 2 · Amigos · lenta · Le toca a Luis"
    )
    assert my_tables_text([], ana, "en", play="/play") == (
        "You have no table now. /play sits you at one."
    )


def test_the_away_back_and_emote_texts_are_one_phrase_for_every_platform() -> None:
    ana = SEATS[0].player
    assert ana is not None
    taken = SeatTakenByRobot(
        table_id="t", chat=CHAT, seat=0, player=ana, reason=AwayReason.MISSED_TURNS,
        back_by=1300.0, seconds=300,
    )  # fmt: skip
    assert robot_took_seat_text(taken, "es", back="/volver") == (
        "Un robot juega ahora por Ana; puede volver antes de 5 min (/volver)."
    )
    assert robot_took_seat_text(taken, "en", back="the Come back button") == (
        "A robot plays for Ana now; they can come back within 5 min (the Come back button)."
    )
    assert robot_took_seat_private_text(taken, "2", "es") == (
        "Un robot juega por ti en la mesa 2. Vuelve antes de 5 min para conservar tu asiento"
        " y tu apuesta."
    )
    back = SeatGivenBack(table_id="t", chat=CHAT, seat=0, player=ana)
    assert back_at_table_text(back, "es") == "Ana volvió a la mesa."
    emote = EmoteShown(table_id="t", chat=CHAT, seat=0, player=ana, name="buena")
    assert emote_text(emote, "es") == "Ana: ¡Buena!"


def test_the_chat_is_told_of_the_events_that_need_a_message_of_their_own_and_no_other() -> None:
    ana = SEATS[0].player
    assert ana is not None
    group = Reader("es", back="/volver", label="1", seats=SEATS)
    taken = SeatTakenByRobot(
        table_id="t", chat=CHAT, seat=0, player=ana, reason=AwayReason.LEFT, back_by=1.0,
        seconds=300,
    )  # fmt: skip
    assert screens(taken, group) == [
        Notice(CHAT, "t", robot_took_seat_text(taken, "es", back="/volver")),
        TurnGone(ana, "t", "1", left=True),
        Notice(CHAT, "t", robot_took_seat_private_text(taken, "1", "es"), ana, (Action.BACK,)),
    ]
    back = SeatGivenBack(table_id="t", chat=CHAT, seat=0, player=ana)
    assert screens(back, group) == [Notice(CHAT, "t", "Ana volvió a la mesa.")]
    declined = TableClosed(
        table_id="t", chat=CHAT, label="1", reason=CloseReason.DECLINED, humans=(ana,)
    )
    said = "El reto de la mesa 1 fue rechazado; nadie pagó nada."
    assert screens(declined, group) == [
        ClosedScreen(declined, said),
        Notice(CHAT, "t", said),
        TurnGone(ana, "t", "1", left=False),
    ]
    empty = replace(declined, reason=CloseReason.EMPTY)  # the board says it: no notice
    assert [type(s) for s in screens(empty, group)] == [ClosedScreen, TurnGone]
    emote = EmoteShown(table_id="t", chat=CHAT, seat=0, player=ana, name="buena")
    assert screens(emote, group) == [EmoteScreen(emote, "Ana: ¡Buena!")]


def test_a_table_the_bot_cannot_reach_tells_each_player_privately_naming_the_chat() -> None:
    ana, luis = SEATS[0].player, SEATS[2].player
    assert ana is not None and luis is not None
    english = replace(luis, language="en")
    gone = TableClosed(
        table_id="t", chat=CHAT, label="1", reason=CloseReason.UNREACHABLE,
        humans=(ana, english), refunds={1: 10, 2: 10},
    )  # fmt: skip
    assert names_place(gone)
    shown = screens(gone, Reader("es", label="1", place="Amigos"))
    notices = [s for s in shown if isinstance(s, Notice)]
    assert notices == [
        Notice(
            CHAT,
            "t",
            "La mesa 1 (Amigos) se cerró: el bot ya no puede usar su chat. Nadie pierde: se "
            "devolvieron las apuestas.",
            ana,
        ),
        Notice(
            CHAT,
            "t",
            "Table 1 (Amigos) closed: the bot can no longer use its chat. Nobody lost: stakes "
            "were refunded.",
            english,
        ),
    ]  # privately, each in their own language; the chat itself is told nothing


def test_a_hand_result_needs_the_seats_names_and_offers_the_analysis() -> None:
    ended = _first_hand_ended()
    assert screens(ended, Reader("es", label="4")) == []  # restored mid-hand: no names
    (result,) = screens(ended, Reader("es", label="4", seats=SEATS))
    assert result == ResultScreen(
        ended, hand_ended_text(ended, SEATS, "4", "es"), (Action.ANALYSIS,)
    )


def test_a_page_is_not_told_in_the_third_person_that_its_own_player_left() -> None:
    ana = SEATS[0].player
    assert ana is not None
    left = SeatAbandoned(
        table_id="t", chat=CHAT, seat=0, player=ana, reason=AwayReason.LEFT, stake=10
    )
    assert screens(left, Reader("es", me=ana)) == []
    others = screens(left, Reader("es", me=SEATS[2].player))
    assert others == [
        Notice(
            CHAT,
            "t",
            "Ana dejó la partida: pierde su apuesta ($10) y un robot juega su asiento hasta "
            "el final.",
        )
    ]


def test_a_board_and_a_refusal_are_screens_of_their_own() -> None:
    board = TableChanged(
        table_id="t", chat=CHAT, label="1", phase="waiting", seats=SEATS,
        rules=find_preset("venezolano"),
    )  # fmt: skip
    assert screens(board, Reader("es")) == [BoardScreen(board)]
    ana = SEATS[0].player
    assert ana is not None
    refusal = Refusal(to=ana, reason=RefusalReason.NOT_YOUR_TURN)
    assert screens(refusal, Reader("")) == [RefusalScreen(refusal)]


def test_a_table_played_privately_tells_its_players_what_the_chat_would_read() -> None:
    ana, luis, bea = (s.player for s in SEATS if s.player is not None)
    english = replace(luis, language="en")
    seats = tuple(replace(s, player=english) if s.player == luis else s for s in SEATS)
    board = TableChanged(
        table_id="t", chat=CHAT, label="3", phase="waiting", seats=seats,
        rules=find_preset("venezolano"), tournament=True, private=True,
    )  # fmt: skip
    private = Reader("es", label="3", seats=seats, private=True)
    # its board is kept for what the front end knows of the table, and drawn nowhere
    assert screens(board, Reader("es")) == [BoardScreen(board, shown=False)]
    back = SeatGivenBack(table_id="t", chat=CHAT, seat=0, player=ana)
    assert screens(back, private) == [
        Notice(CHAT, "t", "Ana volvió a la mesa.", ana),
        Notice(CHAT, "t", "Ana is back at the table.", english),
        Notice(CHAT, "t", "Ana volvió a la mesa.", bea),
    ]  # each player privately, in their own language; the chat is told nothing
    emote = EmoteShown(table_id="t", chat=CHAT, seat=0, player=ana, name="buena")
    assert screens(emote, private) == []  # the web table shows it
    ended = _first_hand_ended()
    shown = screens(ended, private)
    assert shown == [
        Notice(CHAT, "t", hand_ended_text(ended, seats, "3", "es"), ana),
        Notice(CHAT, "t", hand_ended_text(ended, seats, "3", "en"), english),
        Notice(CHAT, "t", hand_ended_text(ended, seats, "3", "es"), bea),
    ]
    page = Reader("es", label="3", seats=seats, private=True, me=ana)  # the web table
    assert screens(emote, page) == [EmoteScreen(emote, "Ana: ¡Buena!")]


def test_a_seat_kept_at_a_private_table_is_told_to_its_player_with_a_button() -> None:
    ana = SEATS[0].player
    assert ana is not None
    kept = SeatKept(
        table_id="t", chat=CHAT, to=ana, seat=0, label="7", tournament="Copa",
        opponents=("Luis", "Bea"), wait_seconds=120.0,
    )  # fmt: skip
    assert screens(kept, Reader("es")) == [
        Notice(
            CHAT,
            "t",
            "Copa: tu mesa es la 7, contra Luis y Bea. Siéntate ya: un asiento vacío dentro "
            "de 2 min pierde la partida.",
            ana,
            (Action.SIT,),
        )
    ]


# ---------------------------------------------------------------------- friends (issue 33)


def test_a_friend_request_is_a_private_screen_with_accept_and_decline() -> None:
    from bot.core import FriendNews, FriendUpdate
    from bot.present.screens import Action, FriendScreen

    beto = PlayerRef("telegram", "2", "Beto", "en")
    event = FriendUpdate(
        table_id="",
        chat=ChatRef("telegram", ""),
        to=beto,
        news=FriendNews.REQUESTED,
        friend="Ana",
        friend_id=1,
    )
    assert screens(event, Reader("es")) == [
        FriendScreen(
            event, "Ana sent you a friend request.", (Action.ACCEPT_FRIEND, Action.DECLINE_FRIEND)
        )
    ]


def test_an_invitation_names_its_table_and_place_and_offers_the_seat() -> None:
    from bot.core import FriendNews, FriendUpdate
    from bot.present.screens import Action, FriendScreen, names_place

    event = FriendUpdate(
        table_id="t1",
        chat=ChatRef("telegram", "-100"),
        to=PlayerRef("telegram", "2", "Beto"),
        news=FriendNews.INVITED,
        friend="Ana",
        friend_id=1,
        invite="abc",
        label="2",
        seconds=120,
    )
    assert names_place(event) is True
    assert screens(event, Reader("es", place="Amigos")) == [
        FriendScreen(
            event,
            "Ana te invita a la mesa 2 en Amigos. Tu asiento te espera 2 minutos.",
            (Action.TAKE_INVITE,),
        )
    ]


def test_the_friends_list_says_where_each_friend_is_and_who_waits_for_an_answer() -> None:
    from bot.core import FriendInfo, FriendsView, Presence
    from bot.present.screens import friends_text

    chat = ChatRef("telegram", "-100")
    view = FriendsView(
        (
            FriendInfo(2, "Beto", Presence.TABLE, chat, "t1", "2", None),
            FriendInfo(3, "Carla", Presence.SLOW_TABLE, ChatRef("discord", "9"), "t2", "1"),
            FriendInfo(4, "Dani", Presence.SEEN, seen_at=1_000.0),
            FriendInfo(5, "Eva", Presence.NEVER),
        ),
        ("Fede",),
        1_300.0,
    )
    assert friends_text(view, {"t1": "Amigos"}, "es", ask="/amigo").splitlines() == [
        "Tus amigos:",
        "• Beto: en la mesa 2 de Amigos",
        "• Carla: en la mesa lenta 1 de Discord",
        "• Dani: última vez hace 5 minutos",
        "• Eva: sin actividad reciente",
        "Esperan tu respuesta: Fede.",
    ]
    empty = FriendsView((), (), 0.0)
    assert friends_text(empty, {}, "en", ask="/friend @name") == (
        "You have no friends here yet. /friend @name sends a friend request."
    )


def test_a_muted_phrase_reaches_no_chat_and_no_page_of_whoever_muted_it() -> None:
    from bot.core import EmoteShown

    chat = ChatRef("telegram", "-1")
    ana, beto = PlayerRef("telegram", "1", "Ana"), PlayerRef("telegram", "2", "Beto")
    heard = EmoteShown(table_id="t", chat=chat, seat=1, player=beto, name="buena")
    muted = replace(heard, muted_by=frozenset({ana.key}))
    assert screens(heard, Reader("es")) == [EmoteScreen(heard, "Beto: ¡Buena!")]
    assert screens(muted, Reader("es")) == []
    assert screens(muted, Reader("es", me=ana)) == []
    assert screens(muted, Reader("es", me=beto)) == [EmoteScreen(muted, "Beto: ¡Buena!")]


def test_a_report_is_one_screen_for_the_admins_with_dismiss_and_ban() -> None:
    from bot.core import ReportFiled, ReportInfo, ReportReason
    from bot.present.screens import Action, ReportScreen

    info = ReportInfo(2, "Ana", "Beto", ReportReason.ABUSIVE_EMOTES, None, 1.0)
    event = ReportFiled(table_id="", chat=ChatRef("discord", "5"), report=info, channel_id="9")
    assert screens(event, Reader("en", server=True)) == [
        ReportScreen(event, "Report 2: Ana reported Beto for abusive phrases.")
    ]
    assert ReportScreen(event, "").actions == (Action.DISMISS, Action.BAN)


def test_a_tournament_table_everyone_left_says_who_lost_not_where_stakes_went() -> None:
    ana = SEATS[0].player
    assert ana is not None
    left = TableClosed(
        table_id="t", chat=CHAT, label="1", reason=CloseReason.NO_HUMANS, humans=(ana,),
        tournament=True,
    )  # fmt: skip
    said = "La mesa se cerró: todos dejaron la partida; quien se fue último la perdió."
    assert screens(left, Reader("es", label="1"))[:2] == [
        ClosedScreen(left, said),
        Notice(CHAT, "t", said),
    ]
