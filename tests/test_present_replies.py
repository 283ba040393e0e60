"""The screens answering a command (bot/present/replies.py): refusals and confirmations."""

from __future__ import annotations

from bot.core import (
    PlayerRef,
    Refusal,
    RefusalReason,
)
from bot.present.replies import bad_rules_text, refused


def test_leaving_a_started_match_says_the_stake_is_forfeited_in_both_languages() -> None:
    """Issue 27, item 10: every front end's leave confirmation comes from here."""
    from bot.core import Leave, Reply
    from bot.core.vocabulary import PressKind
    from bot.present.replies import confirmation

    free = Reply(table_id="t", label="3", seat=0)
    paid = Reply(table_id="t", label="3", seat=0, forfeited=10)
    unstaked = Reply(table_id="t", label="3", seat=0, forfeited=0)
    assert confirmation(Leave, free, "es") == "Te levantaste de la mesa 3."
    assert confirmation(PressKind.LEAVE, paid, "es") == (
        "Te levantaste de la mesa 3: pierdes tu apuesta ($10) y un robot juega tu asiento "
        "hasta el final."
    )
    assert confirmation(Leave, paid, "en") == (
        "You left table 3: your stake ($10) is forfeited and a robot plays your seat to the end."
    )
    assert confirmation(Leave, unstaked, "es") == (
        "Te levantaste de la mesa 3: un robot juega tu asiento hasta el final."
    )


def test_the_last_human_leaving_is_told_the_match_ends_and_no_robot_plays_on() -> None:
    from bot.core import Leave, Reply
    from bot.present.replies import confirmation

    paid = Reply(table_id="t", label="3", seat=0, forfeited=10, match_ended=True)
    unstaked = Reply(table_id="t", label="3", seat=0, forfeited=0, match_ended=True)
    assert confirmation(Leave, paid, "es") == (
        "Te levantaste de la mesa 3: pierdes tu apuesta ($10) y, sin nadie más en la mesa, "
        "la partida termina."
    )
    assert confirmation(Leave, unstaked, "en") == (
        "You left table 3: with no player left the match ends."
    )


def test_an_admin_refused_closing_a_live_match_is_told_why() -> None:
    from bot.present.i18n import refusal_text

    assert refusal_text("not_stuck", {"label": "2", "seconds": 600}, "es") == (
        "La mesa 2 está en juego: un administrador solo puede cerrar una partida empezada "
        "cuando lleva 10 minutos sin ninguna jugada."
    )
    assert refusal_text("admin_plays", {"label": "2"}, "en") == (
        "You play at table 2 (or left its match): another administrator can close it, and "
        "only when it is stuck."
    )
    assert refusal_text("left_match", {"stake": 10}, "es") == (
        "Dejaste esa partida: perdiste tu apuesta ($10) y un robot juega tu asiento hasta el final."
    )


def test_a_bad_preset_is_answered_with_the_presets_by_name() -> None:
    """Issue 30: the refusal read "preset puede ser ." with an empty list."""
    refusal = Refusal(
        to=PlayerRef("telegram", "1", "Ana"),
        reason=RefusalReason.BAD_RULES,
        params={"option": "preset"},
    )
    assert bad_rules_text(refusal, "es", {"preset": "reglas=xyz"}) == (
        "reglas=xyz no vale: reglas puede ser Venezolano, Internacional, Español, Dominicano, "
        "Uno contra uno, Individual o Cubano (doble nueve)."
    )
    assert bad_rules_text(refusal, "en", {}) == (
        "preset can be Venezuelan, International, Spanish, Dominican, One against one, "
        "Individual play or Cuban (double-nine)."
    )


def test_a_format_nobody_knows_is_answered_with_the_words_players_type_for_formats() -> None:
    refusal = Refusal(
        to=PlayerRef("telegram", "1", "Ana"),
        reason=RefusalReason.BAD_RULES,
        params={"option": "format", "allowed": "uno-contra-uno, individual, cubano"},
    )
    assert refused(refusal, "es") == "formato puede ser 1v1, individual o cubano."
    assert refused(refusal, "en") == "format can be 1v1, individual or cubano."


def test_friends_commands_are_confirmed_with_the_friends_name() -> None:
    from bot.core import (
        AnswerFriend,
        AskFriend,
        FriendNews,
        FriendPress,
        InviteFriend,
        RemoveFriend,
        Reply,
    )
    from bot.present.replies import confirmation, friend_done_text

    sent = Reply(label="Beto", friend=FriendNews.REQUESTED)
    assert confirmation(AskFriend, sent, "es") == "Le envié tu solicitud de amistad a Beto."
    mutual = Reply(label="Beto", friend=FriendNews.ACCEPTED)
    assert confirmation(AskFriend, mutual, "es") == (
        "Beto también te lo había pedido: ya son amigos."
    )
    assert confirmation(FriendPress, mutual, "es") == "Beto y tú ya son amigos."
    assert confirmation(AnswerFriend, Reply(label="Beto"), "en") == (
        "You declined Beto's friend request."
    )
    assert confirmation(RemoveFriend, Reply(label="Beto"), "es") == (
        "Beto ya no está en tu lista de amigos."
    )
    invited = Reply(table_id="t1", label="Beto", seat=2, friend=FriendNews.INVITED)
    assert friend_done_text(InviteFriend, invited, "es", invite_seconds=120) == (
        "Avisé a Beto: le guardo el asiento 3 durante 2 minutos."
    )


def test_a_friends_refusal_is_a_clear_sentence_with_the_name() -> None:
    from bot.core import PlayerRef, Refusal, RefusalReason

    ana = PlayerRef("telegram", "1", "Ana")
    cases = {
        RefusalReason.FRIEND_SELF: "No puedes ser tu propio amigo.",
        RefusalReason.ALREADY_FRIENDS: "Beto y tú ya son amigos.",
        RefusalReason.FRIEND_REQUEST_WAITS: "Ya le enviaste una solicitud a Beto; espera su respuesta.",
        RefusalReason.NOT_FRIENDS: "Beto no está en tu lista de amigos.",
        RefusalReason.INVITE_GONE: "Esa invitación ya no es válida.",
        RefusalReason.INVITE_NOT_YOURS: "Esa invitación es para otra persona.",
    }
    for reason, sentence in cases.items():
        assert refused(Refusal(to=ana, reason=reason, params={"name": "Beto"})) == sentence
    expired = Refusal(to=ana, reason=RefusalReason.INVITE_EXPIRED, params={"seconds": 120})
    assert refused(expired) == "Esa invitación venció: el asiento se guardó 2 min y ya está libre."


# ------------------------------------------------------------------ moderation (issue 33)


def test_moderation_answers_name_the_player_in_both_languages() -> None:
    from bot.core import BanPlayer, ChatRef, DismissReport, Mute, ReportPlayer, UnbanPlayer
    from bot.present.replies import moderation_done

    chat = ChatRef("telegram", "-1")
    ana, beto = PlayerRef("telegram", "1", "Ana"), PlayerRef("telegram", "2", "Beto")
    assert moderation_done(Mute(ana, beto), "es") == (
        "Silenciaste a Beto: sus frases ya no te llegan. Nadie se entera."
    )
    assert moderation_done(Mute(ana, beto, False), "en") == "You hear Beto again."
    assert moderation_done(ReportPlayer(ana, chat, beto, "other"), "en") == (
        "Thank you: your report about Beto went to this group's admins."
    )
    assert moderation_done(DismissReport(ana, chat, 4), "es") == "Reporte 4 descartado."
    assert moderation_done(BanPlayer(ana, chat, beto), "es") == (
        "Beto está vetado en las mesas de este grupo."
    )
    assert moderation_done(BanPlayer(ana, chat, None, report_id=4), "en") == (
        "Report 4: the player is banned from this group's tables."
    )
    assert moderation_done(UnbanPlayer(ana, chat, beto), "en") == (
        "Beto may sit at this group's tables again."
    )


def test_an_unknown_report_reason_lists_the_words_the_reader_types() -> None:
    refusal = Refusal(
        to=PlayerRef("telegram", "1", "Ana", "en"),
        reason=RefusalReason.UNKNOWN_REASON,
        params={"reasons": "abusive_name, other"},
    )
    assert refused(refusal, "es") == "Di por qué: nombre, frases, abandono, perder, otro."
    assert refused(refusal) == "Say why: name, phrases, leaving, losing, other."


def test_the_desk_lists_reports_flags_bans_and_the_log() -> None:
    from bot.core import (
        AccuracyFlag,
        CollusionFlag,
        ModerationAction,
        ModerationDesk,
        ModerationEntryInfo,
        ReportInfo,
        ReportReason,
    )
    from bot.present.replies import moderation_desk_text

    desk = ModerationDesk(
        reports=(
            ReportInfo(3, "Ana", "Beto", ReportReason.PLAYING_TO_LOSE, "m1", 1.0, 0.25),
            ReportInfo(4, "Caro", "Beto", ReportReason.OTHER, None, 2.0),
        ),
        flags=(CollusionFlag("Beto", "Dani", 5, 5, 50),),
        banned=("Eli",),
        log=(ModerationEntryInfo("Jefa", ModerationAction.DISMISS, "Eli", 2, 3.0),),
        accuracy_flags=(AccuracyFlag("Beto", "Dani", 3, 0.2, 0.8),),
    )
    assert moderation_desk_text(desk, "es").splitlines() == [
        "Reportes abiertos:",
        "3. Ana reportó a Beto por jugar para perder. Registro de la partida: m1. Sus jugadas "
        "coincidieron con las del maestro en 25 de cada 100 decisiones.",
        "4. Caro reportó a Beto por otro motivo. Sin partida en común.",
        "Dinero que corre en un solo sentido (para revisar, no se hizo nada):",
        "Beto perdió 5 de 5 partidas con apuesta contra Dani ($50).",
        "Jugadas muy lejos de las del maestro contra un rival (para revisar):",
        "Beto contra Dani: 20 de cada 100 decisiones como el maestro en 3 partidas, 80 de "
        "cada 100 en las demás.",
        "Vetados: Eli.",
        "Últimas acciones:",
        "Jefa descartó el reporte 2 sobre Eli.",
    ]
    empty = ModerationDesk((), (), (), ())
    assert moderation_desk_text(empty, "en") == "No open reports."
    # with the web table, the match's record is its page's link
    linked = moderation_desk_text(
        desk, "en", lambda match: f"https://domino.example/partida/{match}"
    )
    assert linked.splitlines()[1].startswith(
        "3. Ana reported Beto for playing to lose. Match record: https://domino.example/partida/m1."
    )


def test_the_report_usage_names_the_command_and_the_reasons() -> None:
    from bot.present.replies import report_usage

    assert report_usage("/report", "en") == (
        "Answer a message of the player with /report and a reason: name, phrases, leaving, "
        "losing, other."
    )
