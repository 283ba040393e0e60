"""Mute, report and moderation on Telegram through the fake server and the real PTB
front end (issue 33): a mute hides the muted player's phrases from the board, a report
reaches the group's admins privately with its buttons, an admin bans and the banned
player is refused a seat; bad input is refused with a sentence and changes nothing."""

from __future__ import annotations

from typing import Any

from fake_telegram import TelegramWorld

from bot.core import ChatRef, encode_action

GROUP = -1003301


def _private_texts(world: TelegramWorld, user_id: int, mark: int) -> list[str]:
    return [
        c.params["text"]
        for c in world.fake.calls[mark:]
        if c.method == "sendMessage" and c.chat_id == user_id
    ]


def _caption(world: TelegramWorld, board: dict[str, Any]) -> str:
    return str(world.fake.message(GROUP, board["message_id"])["caption"])


async def test_a_muted_players_phrases_leave_the_board_until_unmuted() -> None:
    async with TelegramWorld() as world:
        ana = world.fake.add_user(3001, "Ana")
        beto = world.fake.add_user(3002, "Beto")
        group = world.fake.add_group(GROUP, "Dominó")
        for user in (ana, beto):
            await world.command(group, user, "/jugar")
            await world.settle()
        (table_id,) = world.manager.tables()
        board = world.fake.calls_to("sendPhoto", chat_id=GROUP)[-1].result

        mark = len(world.fake.calls)
        await world.answering(group, ana, "/silenciar", beto, "¡les gano!")
        assert _private_texts(world, ana.id, mark) == [
            "Silenciaste a Beto: sus frases ya no te llegan. Nadie se entera."
        ]
        assert len(world.fake.calls_to("deleteMessage", chat_id=GROUP)) == 1  # kept private
        press = await world.press(beto, board, encode_action("emote", table_id, "buena"))
        assert not press.params.get("show_alert")
        await world.settle()
        assert "💬 Beto" not in _caption(world, board)

        mark = len(world.fake.calls)
        await world.answering(group, ana, "/silenciar quitar", beto, "¡les gano!")
        assert _private_texts(world, ana.id, mark) == ["Vuelves a oír a Beto."]
        await world.clock.advance(6)  # one phrase every 5 seconds
        await world.press(beto, board, encode_action("emote", table_id, "buena"))
        await world.settle()
        assert "💬 Beto" in _caption(world, board)


async def test_a_report_reaches_the_admins_who_ban_and_the_player_is_refused_a_seat() -> None:
    async with TelegramWorld() as world:
        jefa = world.fake.add_user(3101, "Jefa")
        quiet = world.fake.add_user(3102, "Callado", started=False)  # an admin: never /start
        ana = world.fake.add_user(3103, "Ana")
        beto = world.fake.add_user(3104, "Beto")
        group = world.fake.add_group(GROUP, "Dominó", admins={jefa.id, quiet.id})

        mark = len(world.fake.calls)
        await world.answering(group, ana, "/reportar nombre", beto, "soy el mejor")
        await world.settle()
        assert _private_texts(world, ana.id, mark) == [
            "Gracias: tu reporte sobre Beto llegó a los administradores de este grupo."
        ]
        (report,) = [
            c for c in world.fake.calls[mark:] if c.method == "sendMessage" and c.chat_id == jefa.id
        ]
        assert report.params["text"] == "Reporte 1: Ana reportó a Beto por nombre ofensivo."
        assert [b["callback_data"] for b in report.buttons()] == [
            f"dmm:d:1:{GROUP}",
            f"dmm:b:1:{GROUP}",
        ]
        assert [b["text"] for b in report.buttons()] == ["Descartar", "Vetar"]
        assert _private_texts(world, quiet.id, mark) == []

        mark = len(world.fake.calls)
        await world.command(group, ana, "/reportar frases @nadie")
        await world.settle()
        assert _private_texts(world, ana.id, mark) == [
            "No conozco a ese jugador: responde a uno de sus mensajes o nómbralo."
        ]
        not_admin = await world.press(beto, report.result, f"dmm:b:1:{GROUP}")
        assert not_admin.params["text"] == "Solo los administradores de este grupo pueden moderar."
        forged = await world.press(jefa, report.result, f"dmm:b:99:{GROUP}")
        assert forged.params["text"] == "No hay un reporte número 99 en este grupo."
        banned = await world.press(jefa, report.result, f"dmm:b:1:{GROUP}")
        assert banned.params["text"] == (
            "Reporte 1: el jugador quedó vetado en las mesas de este grupo."
        )
        stale = await world.press(jefa, report.result, f"dmm:d:1:{GROUP}")
        assert stale.params["text"] == "El reporte número 1 ya fue atendido."

        refused = await world.reply_to(group, beto, "/jugar")
        assert refused.params["text"] == "Estás vetado en las mesas de este grupo."
        assert world.manager.tables() == []

        mark = len(world.fake.calls)
        await world.command(group, jefa, "/moderar")
        await world.settle()
        assert _private_texts(world, jefa.id, mark) == [
            "No hay reportes abiertos.\nVetados: Beto.\nÚltimas acciones:\nJefa vetó a Beto."
        ]
        unbanned = await world.reply_to(group, jefa, "/moderar perdonar @beto")
        assert unbanned.params["text"] == (
            "No conozco a ese jugador: responde a uno de sus mensajes o nómbralo."
        )
        mark = len(world.fake.calls)
        await world.answering(group, jefa, "/moderar perdonar", beto, "perdón")
        answer = [
            c.params["text"]
            for c in world.fake.calls[mark:]
            if c.method == "sendMessage" and c.chat_id == GROUP and c.params.get("text") != "perdón"
        ]
        assert answer == ["Beto puede volver a sentarse en las mesas de este grupo."]


async def test_non_admins_cannot_moderate_and_nobody_reports_themself() -> None:
    async with TelegramWorld() as world:
        ana = world.fake.add_user(3201, "Ana")
        group = world.fake.add_group(GROUP, "Dominó")
        refused = await world.reply_to(group, ana, "/moderar")
        assert refused.params["text"] == "Solo los administradores de este grupo pueden moderar."
        mark = len(world.fake.calls)
        await world.answering(group, ana, "/reportar otro", ana, "yo mismo")
        assert _private_texts(world, ana.id, mark) == ["No puedes hacerte eso a ti mismo."]
        desk = await world.manager.moderation_desk(ChatRef("telegram", str(GROUP)))
        assert desk.reports == ()
