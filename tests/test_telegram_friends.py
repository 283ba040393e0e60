"""Friends on Telegram through the fake server and the real PTB front end (issue 33;
bot/telegram/friends.py): a request by @username told privately with its buttons,
accepted with one; /amigos saying where the friend plays; an invitation whose button
seats the friend; an expired one refused; bad input answered with a sentence and
nothing changed."""

from __future__ import annotations

from typing import Any

from fake_telegram import Call, TelegramWorld
from telegram import Chat, User

GROUP = -1003301


def _private(world: TelegramWorld, user: User, mark: int) -> list[Call]:
    """The bot's messages to ``user``'s private chat after ``mark``."""
    return [
        c
        for c in world.fake.calls[mark:]
        if c.method == "sendMessage" and c.chat_id == user.id and c.ok
    ]


def _buttons(call: Call) -> list[tuple[str, str]]:
    return [(b["text"], b["callback_data"]) for b in call.buttons()]


async def _said(world: TelegramWorld, chat: Chat, user: User, text: str) -> str:
    """``user`` says ``text`` in ``chat``; the bot's answer there."""
    answer = await world.reply_to(chat, user, text)
    await world.settle()
    return str(answer.params["text"])


async def _players(world: TelegramWorld) -> tuple[User, User, Chat]:
    """Ana and Beto, who started the bot and played here once (each is a player)."""
    ana = world.fake.add_user(5001, "Ana", username="ana")
    beto = world.fake.add_user(5002, "Beto", username="beto")
    group = world.fake.add_group(GROUP, "Amigos")
    for user in (ana, beto):
        await world.command(world.fake.private_chat(user), user, "/start")
        await world.command(group, user, "/saldo")
    await world.settle()
    return ana, beto, group


async def _friends(world: TelegramWorld, ana: User, beto: User, group: Chat) -> None:
    mark = len(world.fake.calls)
    assert await _said(world, group, ana, "/amigo @beto") == (
        "Le envié tu solicitud de amistad a Beto."
    )
    (asked,) = _private(world, beto, mark)
    answer = await world.press(beto, asked.result, _buttons(asked)[0][1])
    assert answer.params.get("text") == "Ana y tú ya son amigos."
    await world.settle()


async def test_two_players_become_friends_and_one_invites_the_other_to_a_table() -> None:
    async with TelegramWorld(fill_seconds=600.0) as world:
        ana, beto, group = await _players(world)
        ana_id = await world.manager.player_id(world.front._player(ana))
        mark = len(world.fake.calls)
        assert await _said(world, group, ana, "/amigo @beto") == (
            "Le envié tu solicitud de amistad a Beto."
        )
        (asked,) = _private(world, beto, mark)
        assert asked.params["text"] == "Ana te envió una solicitud de amistad."
        assert _buttons(asked) == [
            ("✅ Aceptar", f"dmf:a:{ana_id}"),
            ("✖️ Rechazar", f"dmf:d:{ana_id}"),
        ]
        mark = len(world.fake.calls)
        answer = await world.press(beto, asked.result, f"dmf:a:{ana_id}")
        assert answer.params.get("text") == "Ana y tú ya son amigos."
        await world.settle()
        (told,) = _private(world, ana, mark)
        assert told.params["text"] == "Beto aceptó tu solicitud de amistad: ya son amigos."
        edits = [c for c in world.fake.calls[mark:] if c.method == "editMessageReplyMarkup"]
        assert [c.chat_id for c in edits] == [beto.id]  # the buttons are gone
        again = await world.press(beto, asked.result, f"dmf:a:{ana_id}")  # a stale press
        assert (
            again.params.get("text") == "No tienes ninguna solicitud de amistad pendiente de Ana."
        )

        await world.command(group, beto, "/jugar")
        await world.settle()
        assert await _said(world, group, ana, "/amigos") == (
            "Tus amigos:\n• Beto: en la mesa 1 de Amigos"
        )
        await world.command(group, beto, "/levantarse")
        await world.command(group, ana, "/jugar")
        await world.settle()

        mark = len(world.fake.calls)
        assert await _said(world, group, ana, "/amigo invitar @beto") == (
            "Avisé a Beto: le guardo el asiento 3 durante 2 minutos."
        )
        (invited,) = _private(world, beto, mark)
        assert invited.params["text"] == (
            "Ana te invita a la mesa 1 en Amigos. Tu asiento te espera 2 minutos."
        )
        ((label, data),) = _buttons(invited)
        assert label == "🪑 Sentarme"
        seated = await world.press(beto, invited.result, data)
        assert seated.params.get("text") == "Te sentaste en la mesa 1, asiento 3."
        await world.settle()
        (table_id,) = world.manager.tables_of(world.front._player(ana))
        state = world.manager.table_state(table_id)
        assert state is not None and state.seats[2].player == world.front._player(beto)


async def test_an_invitation_nobody_took_in_two_minutes_is_refused_and_its_seat_is_free() -> None:
    async with TelegramWorld(fill_seconds=600.0) as world:
        ana, beto, group = await _players(world)
        await _friends(world, ana, beto, group)
        await world.command(group, ana, "/jugar")
        await world.settle()
        mark = await world.command(group, ana, "/amigo invitar @beto")
        await world.settle()
        (invited,) = _private(world, beto, mark)
        await world.clock.advance(120)
        await world.settle()
        (table_id,) = world.manager.tables_of(world.front._player(ana))
        state = world.manager.table_state(table_id)
        assert state is not None and state.seats[2].reserved_for is None
        late = await world.press(beto, invited.result, _buttons(invited)[0][1])
        assert late.params.get("text") == (
            "Esa invitación venció: el asiento se guardó 2 min y ya está libre."
        )
        assert late.params.get("show_alert") is True
        assert world.manager.tables_of(world.front._player(beto)) == []


async def test_bad_friend_commands_get_a_sentence_and_change_nothing() -> None:
    async with TelegramWorld() as world:
        ana, beto, group = await _players(world)
        carla = world.fake.add_user(5003, "Carla", username="carla", started=False)
        await world.command(group, carla, "/saldo")
        await world.settle()
        assert await _said(world, group, ana, "/amigo @nadie") == (
            "Todavía no conozco a @nadie. Responde a uno de sus mensajes con /amigo."
        )
        assert await _said(world, group, ana, "/amigo @ana") == "No puedes ser tu propio amigo."
        assert await _said(world, group, ana, "/amigo") == (
            "Di a quién: /amigo @nombre, o responde a uno de sus mensajes con /amigo. Luego "
            "/amigo aceptar, rechazar, quitar o invitar @nombre; /amigos muestra tus amigos."
        )
        assert await _said(world, group, ana, "/amigo @carla") == (
            "Todavía no puedo escribirle a Carla en privado: primero tiene que abrir un chat "
            "privado conmigo y tocar Iniciar."
        )
        assert await _said(world, group, ana, "/amigo invitar @beto") == (
            "Beto no está en tu lista de amigos."
        )
        assert await _said(world, group, ana, "/amigo @beto") == (
            "Le envié tu solicitud de amistad a Beto."
        )
        assert await _said(world, group, ana, "/amigo @beto") == (
            "Ya le enviaste una solicitud a Beto; espera su respuesta."
        )
        assert await _said(world, group, beto, "/amigo aceptar @ana") == ("Ana y tú ya son amigos.")
        assert await _said(world, group, ana, "/amigo @beto") == "Beto y tú ya son amigos."
        assert await _said(world, group, ana, "/amigo invitar @beto") == ("No tienes mesa aquí.")
        forged: dict[str, Any] = world.fake.user_message(group, ana, "x")
        answer = await world.press(ana, forged, "dmf:i:zzzz")
        assert answer.params.get("text") == "Esa invitación ya no es válida."
        assert await _said(world, group, ana, "/amigo quitar @beto") == (
            "Beto ya no está en tu lista de amigos."
        )
        assert await _said(world, group, ana, "/amigos") == (
            "Todavía no tienes amigos aquí. /amigo @… envía una solicitud de amistad."
        )


async def test_answering_a_players_message_with_amigo_sends_them_the_request() -> None:
    async with TelegramWorld() as world:
        ana, beto, group = await _players(world)
        mark = len(world.fake.calls)
        await world.answering(group, ana, "/amigo", beto, "¿otra partida?")
        answers = [
            c.params["text"]
            for c in world.fake.calls[mark:]
            if c.method == "sendMessage" and c.chat_id == GROUP
        ]
        assert answers == ["Le envié tu solicitud de amistad a Beto."]
        (asked,) = _private(world, beto, mark)
        assert asked.params["text"] == "Ana te envió una solicitud de amistad."
        mark = len(world.fake.calls)
        declined = await world.press(beto, asked.result, _buttons(asked)[1][1])
        assert declined.params.get("text") == "Rechazaste la solicitud de amistad de Ana."
        await world.settle()
        assert _private(world, ana, mark) == []  # a declined request is not told
        assert await _said(world, group, ana, "/amigos") == (
            "Todavía no tienes amigos aquí. /amigo @… envía una solicitud de amistad."
        )
