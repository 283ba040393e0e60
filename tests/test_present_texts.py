"""The phrases of the core's events (bot/present/texts.py): a seat abandoned."""

from __future__ import annotations

from dataclasses import replace

from bot.core import (
    ChatRef,
    FriendNews,
    FriendUpdate,
    PlayerRef,
)


def test_the_table_is_told_who_abandoned_and_that_the_stake_is_lost() -> None:
    from bot.core import SeatAbandoned
    from bot.core.vocabulary import AwayReason
    from bot.present.texts import abandoned_text

    chat = ChatRef("telegram", "-1")
    ana = PlayerRef("telegram", "1", "Ana")

    def said(reason: AwayReason, stake: int, language: str) -> str:
        event = SeatAbandoned(
            table_id="t", chat=chat, seat=0, player=ana, reason=reason, stake=stake
        )
        return abandoned_text(event, language)

    assert said(AwayReason.LEFT, 10, "es") == (
        "Ana dejó la partida: pierde su apuesta ($10) y un robot juega su asiento hasta el final."
    )
    assert said(AwayReason.MISSED_TURNS, 10, "en") == (
        "Ana did not come back in time: their stake ($10) is forfeited and a robot plays their "
        "seat to the end."
    )
    assert said(AwayReason.LEFT, 0, "en") == (
        "Ana left the match: a robot plays their seat to the end."
    )
    assert said(AwayReason.MISSED_TURNS, 0, "es") == (
        "Ana no volvió a tiempo: un robot juega su asiento hasta el final."
    )


def test_the_table_is_not_told_a_robot_plays_on_for_the_last_human_who_abandons() -> None:
    from bot.core import SeatAbandoned
    from bot.core.vocabulary import AwayReason
    from bot.present.texts import abandoned_text

    chat = ChatRef("telegram", "-1")
    ana = PlayerRef("telegram", "1", "Ana")

    def said(reason: AwayReason, stake: int, language: str) -> str:
        event = SeatAbandoned(
            table_id="t", chat=chat, seat=0, player=ana, reason=reason, stake=stake, last=True
        )
        return abandoned_text(event, language)

    assert said(AwayReason.LEFT, 10, "es") == "Ana dejó la partida: pierde su apuesta ($10)."
    assert said(AwayReason.LEFT, 0, "en") == "Ana left the match."
    assert said(AwayReason.MISSED_TURNS, 10, "en") == (
        "Ana did not come back in time: their stake ($10) is forfeited."
    )
    assert said(AwayReason.MISSED_TURNS, 0, "es") == "Ana no volvió a tiempo."


# ---------------------------------------------------------------------- friends (issue 33)


def _friend_news(
    news: FriendNews, table_id: str = "", label: str = "", seconds: int = 0
) -> FriendUpdate:
    return FriendUpdate(
        table_id=table_id,
        chat=ChatRef("telegram", "-100"),
        to=PlayerRef("telegram", "1", "Ana"),
        news=news,
        friend="Beto",
        friend_id=2,
        invite="x" if table_id else "",
        label=label,
        seconds=seconds,
    )


def test_a_friend_who_accepted_and_an_invitation_without_its_place_read_naturally() -> None:
    from bot.present.texts import friend_text

    accepted = _friend_news(FriendNews.ACCEPTED)
    assert friend_text(accepted, "", "es") == (
        "Beto aceptó tu solicitud de amistad: ya son amigos."
    )
    invited = _friend_news(FriendNews.INVITED, table_id="t1", label="4", seconds=90)
    assert friend_text(invited, "", "en") == (
        "Beto invites you to table 4. Your seat waits for you 2 minutes."
    )


def test_a_banned_player_leaving_the_table_is_told_with_the_stake() -> None:
    from bot.core import ChatRef, PlayerRef, SeatAbandoned
    from bot.core.vocabulary import AwayReason
    from bot.present.texts import abandoned_text

    chat = ChatRef("telegram", "-1")
    ana = PlayerRef("telegram", "1", "Ana")
    event = SeatAbandoned(
        table_id="t", chat=chat, seat=0, player=ana, reason=AwayReason.BANNED, stake=10
    )
    assert abandoned_text(event, "es") == (
        "Ana está vetado en las mesas de este grupo: pierde su apuesta ($10)."
    )
    free = replace(event, stake=0)
    assert abandoned_text(free, "en") == "Ana is banned from this group's tables."


def test_a_report_is_told_to_the_admins_with_its_match() -> None:
    from bot.core import ChatRef, ReportFiled, ReportInfo, ReportReason
    from bot.present.texts import report_filed_text

    info = ReportInfo(7, "Ana", "Beto", ReportReason.LEFT_ON_PURPOSE, "abc123", 1.0)
    event = ReportFiled(table_id="", chat=ChatRef("telegram", "-1"), report=info)
    assert report_filed_text(event, "es") == (
        "Reporte 7: Ana reportó a Beto por dejar la mesa a propósito.\n"
        "Registro de la partida: abc123."
    )
    assert report_filed_text(replace(event, report=replace(info, match_id=None)), "en") == (
        "Report 7: Ana reported Beto for leaving on purpose."
    )
