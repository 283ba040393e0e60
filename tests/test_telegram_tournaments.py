"""A group's tournament on Telegram through the fake server and the real PTB front end
(issue 32): an admin opens it with /torneo, players sign up with the button and the
command, it starts with the fees held, each pairing's table opens with its seats kept,
the match is played to its end and the prizes are paid; a cancel refunds every fee."""

from __future__ import annotations

from typing import Any

from fake_telegram import TelegramLimits, TelegramWorld

from bot.core import encode_action

GROUP = -1003001


def _group_texts(world: TelegramWorld, mark: int) -> list[str]:
    """What the group read after ``mark``: messages, and the pictures' captions."""
    return [
        c.params["text"] if c.method == "sendMessage" else c.params["caption"]
        for c in world.fake.calls[mark:]
        if c.method in ("sendMessage", "sendPhoto") and c.chat_id == GROUP
    ]


def _with_join_button(world: TelegramWorld, mark: int) -> dict[str, Any]:
    """The last group message after ``mark`` offering the "Inscribirme" button."""
    for call in reversed(world.fake.calls[mark:]):
        markup = call.params.get("reply_markup") if call.method == "sendMessage" else None
        if call.chat_id == GROUP and markup and "dmj" in str(markup):
            return call.result
    raise AssertionError("no message with the sign-up button")


async def test_a_knockout_is_opened_joined_played_and_paid_in_a_group() -> None:
    async with TelegramWorld() as world:
        ana = world.fake.add_user(4001, "Ana")
        beto = world.fake.add_user(4002, "Beto")
        group = world.fake.add_group(GROUP, "Torneos", admins={4001})
        for user in (ana, beto):  # both have started the bot: it can write to them
            await world.command(world.fake.private_chat(user), user, "/start")
        mark = await world.command(
            group, ana, "/torneo crear eliminatoria 1v1 cuota=10 nombre=Copa del viernes"
        )
        await world.settle()
        opened = _group_texts(world, mark)
        assert opened == [
            "Ana abrió Copa del viernes: eliminatoria, Uno contra uno, cuota $10.\n"
            "Las inscripciones cierran en 10 minutos. Premios: 60/30/10 por ciento de la bolsa."
        ]
        refused = await world.reply_to(group, beto, "/torneo empezar")
        assert refused.params["text"] == (
            "Solo los administradores de este grupo pueden abrir, empezar o cancelar un torneo."
        )
        answer = await world.press(beto, _with_join_button(world, mark), "dmj")
        assert answer.params.get("text") == "Quedaste inscrito en el torneo."
        await world.settle()  # the sign-up sheet is posted, with the button
        (sheet,) = [
            c for c in world.fake.calls[mark:] if c.params.get("text", "").startswith("Beto se")
        ]
        assert sheet.params["text"] == "Beto se inscribió.\n1 jugador inscrito: Beto"
        assert [b["callback_data"] for b in sheet.buttons()] == ["dmj"]
        mark = await world.command(group, ana, "/torneo unirme")
        await world.settle()
        assert _group_texts(world, mark) == ["Quedaste inscrito en el torneo."]
        (edited,) = world.fake.calls_to("editMessageText", chat_id=GROUP)  # the sheet
        assert edited.params["message_id"] == sheet.result["message_id"]
        assert edited.params["text"] == "Ana se inscribió.\n2 jugadores inscritos: Beto, Ana"
        assert [b["callback_data"] for b in edited.buttons()] == ["dmj"]
        mark = await world.command(group, beto, "/torneo")
        await world.settle()
        (status,) = _group_texts(world, mark)
        assert status.splitlines()[1:] == [
            "2 jugadores inscritos: Beto, Ana",
            "Empieza en 10 minutos.",
        ]

        mark = await world.command(group, ana, "/torneo empezar")
        await world.settle()
        # the table's own board is a picture too ("Mesa 1 · torneo"): here the news
        started = [t for t in _group_texts(world, mark) if not t.startswith("Mesa 1 ·")]
        assert started[0] == "Copa del viernes empieza: 2 participantes, una bolsa de $20."
        assert started[1].splitlines()[0] == "Copa del viernes · ronda 1"
        assert started[1].splitlines()[1] in (
            "Mesa 1: Ana contra Beto",
            "Mesa 1: Beto contra Ana",
        )
        pictures = [
            c
            for c in world.fake.calls[mark:]
            if c.method == "sendPhoto" and c.params["caption"].startswith("Copa del viernes ·")
        ]
        assert len(pictures) == 1  # the round's news goes with the bracket picture
        player_ids = [world.front._player(u) for u in (ana, beto)]
        assert [await world.manager.balance(p) for p in player_ids] == [990, 990]

        # both sit at the kept seats; Ana leaves for good (a robot plays her seat), then
        # Beto: the last to leave loses the match (rules.md, "The house")
        for user in (ana, beto):
            await world.command(group, user, "/jugar")
            await world.settle()
        await world.clock.advance(1)
        await world.settle()
        mark = len(world.fake.calls)
        for user in (ana, beto):
            await world.command(group, user, "/levantarse")
            await world.settle()
        await world.manager.idle()
        await world.settle()
        over = [t for t in _group_texts(world, mark) if "terminó" in t]
        # two places: 70/30 of the $20 pool (docs/tournaments.md, "Prize split")
        assert over == ["Copa del viernes terminó.\n1. Ana ($14)\n2. Beto ($6)"]
        assert [await world.manager.balance(p) for p in player_ids] == [1004, 996]
        places = await world.storage.player_tournaments(
            await world.manager.player_id(player_ids[0])
        )
        assert [(p.name, p.place, p.entrants) for p in places] == [("Copa del viernes", 1, 2)]
        mark = await world.command(group, beto, "/perfil")
        profile = await world.fake.wait_for(
            "sendPhoto", lambda c: c.chat_id == GROUP, after=mark, timeout=10
        )
        assert "Torneos: 2.º de 2 en Copa del viernes" in profile.params["caption"].splitlines()


async def test_an_admin_cancels_a_running_tournament_and_every_fee_comes_back() -> None:
    async with TelegramWorld() as world:
        ana = world.fake.add_user(4101, "Ana")
        beto = world.fake.add_user(4102, "Beto")
        group = world.fake.add_group(GROUP, "Torneos", admins={4101})
        await world.command(group, ana, "/torneo crear suizo 1v1 cuota=50 rondas=2")
        for user in (ana, beto):
            await world.command(group, user, "/torneo unirme")
        await world.command(group, ana, "/torneo empezar")
        await world.settle()
        players = [world.front._player(u) for u in (ana, beto)]
        assert [await world.manager.balance(p) for p in players] == [950, 950]
        mark = await world.command(group, ana, "/torneo cancelar")
        await world.manager.idle()
        await world.settle()
        assert "Ana canceló el torneo; se devolvieron todas las cuotas ($100)." in _group_texts(
            world, mark
        )
        assert [await world.manager.balance(p) for p in players] == [1000, 1000]
        assert await world.storage.check_ledger() == []


class PageLinks:
    """The web table's links as the Telegram front end asks for them."""

    public_url = "https://mesa.example"
    in_discord = False

    def seat_url(self, player: Any, table_id: str) -> str:
        return f"{self.public_url}/?s={table_id}"

    def watch_url(self, table_id: str) -> str:
        return f"{self.public_url}/?w={table_id}"

    def tournament_url(self, tournament_id: str) -> str:
        return f"{self.public_url}/torneo/{tournament_id}"


async def test_with_the_web_table_a_rounds_picture_links_the_tournaments_page() -> None:
    async with TelegramWorld(links=PageLinks()) as world:
        ana = world.fake.add_user(4001, "Ana")
        beto = world.fake.add_user(4002, "Beto")
        group = world.fake.add_group(GROUP, "Torneos", admins={4001})
        for user in (ana, beto):
            await world.command(world.fake.private_chat(user), user, "/start")
        await world.command(group, ana, "/torneo crear eliminatoria 1v1 nombre=Copa")
        for user in (ana, beto):
            await world.command(group, user, "/torneo unirme")
        await world.settle()
        mark = await world.command(group, ana, "/torneo empezar")
        await world.settle()
        (picture,) = [
            c
            for c in world.fake.calls[mark:]
            if c.method == "sendPhoto" and c.params["caption"].startswith("Copa ·")
        ]
        (tournament,) = await world.storage.live_tournament_ids()
        assert picture.params["reply_markup"] == {
            "inline_keyboard": [
                [{"text": "🏆 Ver el torneo", "url": f"https://mesa.example/torneo/{tournament}"}]
            ]
        }


def _group_requests(world: TelegramWorld, mark: int) -> list[str]:
    """Every request after ``mark`` that puts or changes a message in the group (what
    its 20 a minute count), as "method: first line"."""
    out = []
    for call in world.fake.calls[mark:]:
        if call.chat_id != GROUP or not call.method.startswith(("send", "edit", "delete")):
            continue
        said = call.params.get("text") or call.params.get("caption") or ""
        out.append(f"{call.method}: {said.splitlines()[0] if said else ''}")
    return out


async def test_a_16_table_round_is_played_privately_and_the_group_sees_one_featured_board() -> None:
    limits = TelegramLimits(time_scale=60.0)  # a minute of Telegram's in a second
    async with TelegramWorld(limits=limits) as world:
        users = [world.fake.add_user(5001 + i, f"J{i + 1:02d}") for i in range(32)]
        group = world.fake.add_group(GROUP, "Torneos", admins={5001})
        for user in users:
            await world.command(world.fake.private_chat(user), user, "/start")
        await world.command(group, users[0], "/torneo crear eliminatoria 1v1 nombre=Copa")
        for user in users:
            await world.command(group, user, "/torneo unirme")
        await world.settle()

        mark = await world.command(group, users[0], "/torneo empezar")
        await world.settle()
        # the round's news with its bracket, and one featured board: 3 of the 20 (the
        # two pictures are drawn side by side: either may be sent first)
        assert sorted(_group_requests(world, mark)) == [
            "sendMessage: Copa empieza: 32 participantes.",
            "sendPhoto: Copa · ronda 1",
            "sendPhoto: Mesa 1 · torneo",
        ]
        # everyone else is told privately where to sit, with the button that seats them
        states = [s for t in world.manager.tables() if (s := world.manager.table_state(t))]
        assert [s.private for s in states] == [False] + [True] * 15
        for state in states[1:]:
            sit = encode_action("sit", state.table_id)
            for info in state.seats:
                kept = info.reserved_for
                assert kept is not None
                (told,) = [
                    c
                    for c in world.fake.calls[mark:]
                    if c.method == "sendMessage" and c.chat_id == int(kept.user_id)
                ]
                assert told.params["text"].startswith(f"Copa: tu mesa es la {state.label}, contra ")
                assert told.buttons() == [{"text": "🪑 Sentarme", "callback_data": sit}]
        mark = len(world.fake.calls)
        for state in states[1:]:
            for info in state.seats:
                assert info.reserved_for is not None
                user = next(u for u in users if str(u.id) == info.reserved_for.user_id)
                told = world.fake.messages_in(user.id)[-1]
                answer = await world.press(user, told, encode_action("sit", state.table_id))
                said = f"Te sentaste en la mesa {state.label}, asiento {info.seat + 1}."
                assert answer.params.get("text") == said
        await world.settle()
        await world.clock.advance(5)  # the countdown: fifteen matches begin
        await world.settle()
        seated = [world.manager.table_state(s.table_id) for s in states[1:]]
        assert [s.phase if s else None for s in seated] == ["playing"] * 15
        # thirty players sat down and fifteen matches began: not one request in the group
        assert _group_requests(world, mark) == []
        assert limits.refused == 0
        mark = await world.command(group, users[0], "/torneo cancelar")
        await world.settle()
        # a free tournament's cancel refunds nothing, and says so in fewer words
        assert _group_requests(world, mark) == ["sendMessage: J01 canceló Copa."]


async def test_an_arenas_live_standings_are_one_picture_edited_in_place() -> None:
    async with TelegramWorld() as world:
        users = [
            world.fake.add_user(5101 + i, name)
            for i, name in enumerate(("Ana", "Beto", "Carla", "Dani"))
        ]
        group = world.fake.add_group(GROUP, "Torneos", admins={5101})
        await world.command(group, users[0], "/torneo crear arena 1v1 minutos=15 nombre=Arena")
        for user in users:
            await world.command(group, user, "/torneo unirme")
        await world.command(group, users[0], "/torneo empezar")
        await world.settle()
        mark = len(world.fake.calls)
        for _ in range(3):  # nobody sits: every 2 minutes both tables end as no-shows
            await world.clock.advance(120)
            await world.settle()
        standings = [
            c
            for c in world.fake.calls[mark:]
            if c.method in ("sendPhoto", "editMessageMedia")
            and c.chat_id == GROUP
            and (c.caption() or "").startswith("Arena · ")
        ]
        # posted with the first result (2:00), then edited in place at most once a
        # minute: 3:00, 4:00, 5:00 and 6:00
        assert [(c.method, (c.caption() or "").splitlines()[0]) for c in standings] == [
            ("sendPhoto", "Arena · clasificación, quedan 13 minutos"),
            ("editMessageMedia", "Arena · clasificación, quedan 12 minutos"),
            ("editMessageMedia", "Arena · clasificación, quedan 11 minutos"),
            ("editMessageMedia", "Arena · clasificación, quedan 10 minutos"),
            ("editMessageMedia", "Arena · clasificación, quedan 9 minutos"),
        ]
        posted = standings[0].result["message_id"]
        assert {c.params["message_id"] for c in standings[1:]} == {posted}
        assert (standings[0].caption() or "").splitlines()[1:] == [
            "1. Ana · 0 pts",
            "2. Beto · 0 pts",
            "3. Carla · 0 pts",
            "4. Dani · 0 pts",
        ]


async def test_a_swiss_with_partners_drawn_each_round_seats_new_partnerships_every_round() -> None:
    async with TelegramWorld() as world:
        users = [world.fake.add_user(6001 + i, f"J{i + 1}") for i in range(8)]
        group = world.fake.add_group(GROUP, "Torneos", admins={6001})
        for user in users:
            await world.command(world.fake.private_chat(user), user, "/start")
        mark = await world.command(group, users[0], "/torneo crear eliminatoria sorteo")
        assert _group_texts(world, mark) == [
            "Los compañeros por sorteo cada ronda son para un suizo o una arena en parejas."
        ]
        mark = await world.command(
            group, users[0], "/torneo crear suizo sorteo rondas=2 nombre=Rueda"
        )
        await world.settle()
        assert _group_texts(world, mark)[0].splitlines()[0] == (
            "J1 abrió Rueda: suizo, compañeros por sorteo cada ronda, Venezolano, sin cuota."
        )
        for user in users:
            await world.command(group, user, "/torneo unirme")
        await world.settle()
        mark = await world.command(group, users[0], "/torneo empezar")
        await world.settle()
        (news,) = [t for t in _group_texts(world, mark) if t.startswith("Rueda · ronda 1")]
        # each player an entrant; round 1 partners the upper half of the seeds with the
        # lower, and the best seeded partnerships meet at table 1
        assert news.splitlines()[1:3] == [
            "Mesa 1: J1 y J5 contra J2 y J6",
            "Mesa 2: J3 y J7 contra J4 y J8",
        ]
        told = {
            u.first_name: c.params["text"]
            for u in users
            for c in world.fake.calls[mark:]
            if c.method == "sendMessage" and c.chat_id == u.id and "tu mesa" in c.params["text"]
        }
        assert told == {
            "J3": "Rueda: tu mesa es la 2, con J7 de compañero, contra J4 y J8. Siéntate ya: "
            "un asiento vacío dentro de 2 min pierde la partida.",
            "J7": "Rueda: tu mesa es la 2, con J3 de compañero, contra J4 y J8. Siéntate ya: "
            "un asiento vacío dentro de 2 min pierde la partida.",
            "J4": "Rueda: tu mesa es la 2, con J8 de compañero, contra J3 y J7. Siéntate ya: "
            "un asiento vacío dentro de 2 min pierde la partida.",
            "J8": "Rueda: tu mesa es la 2, con J4 de compañero, contra J3 y J7. Siéntate ya: "
            "un asiento vacío dentro de 2 min pierde la partida.",
        }
        await world.command(group, users[0], "/torneo cancelar")
        await world.settle()
