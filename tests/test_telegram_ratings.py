"""Ratings, top lists, profiles and seasons on Telegram (issue 14), end to end: the real
python-telegram-bot against the fake Bot API server, a real table manager on a manual
clock with in-memory storage.

The pictures the fake received are written to ``/tmp/tg-pics/`` to be looked at."""

from __future__ import annotations

import json
import threading
from collections.abc import AsyncIterator, Callable
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path
from typing import Any, ParamSpec, TypeVar

import pytest
import pytest_asyncio
from telegram import MessageEntity, User

from bot.core import ChatRef, Ranking
from bot.core.ownership import LeaseTimes
from storage.ratings import SeasonPeriod, season_bounds, season_key
from tests.fake_telegram import Call, TelegramWorld

GROUP = -1003000
PICTURES = Path("/tmp/tg-pics")

P = ParamSpec("P")
T = TypeVar("T")


class HeldSearch(ThreadPoolExecutor):
    """An analysis executor whose searches wait for :attr:`release`: the press must be
    answered, and other updates served, while the search is still under way."""

    def __init__(self) -> None:
        super().__init__(max_workers=1)
        self.release = threading.Event()

    def submit(self, fn: Callable[P, T], /, *args: P.args, **kwargs: P.kwargs) -> Future[T]:
        def held() -> T:
            self.release.wait(timeout=60)
            return fn(*args, **kwargs)

        return super().submit(held)


def _keep(world: TelegramWorld, call: Call, name: str) -> None:
    """Write the photo ``call`` sent (or put in place) where a person can look at it."""
    result = call.result
    assert isinstance(result, dict)
    file_id = result["photo"][-1]["file_id"]
    PICTURES.mkdir(parents=True, exist_ok=True)
    (PICTURES / f"{name}.png").write_bytes(world.fake.files[file_id])


def _button(call_or_message: Call | dict[str, Any], text: str) -> str:
    """The callback data of the button whose label ends with ``text``."""
    if isinstance(call_or_message, Call):
        buttons = call_or_message.buttons()
    else:
        rows = (call_or_message.get("reply_markup") or {}).get("inline_keyboard") or []
        buttons = [b for row in rows for b in row]
    (data,) = [b["callback_data"] for b in buttons if b["text"].endswith(text)]
    return str(data)


async def _four_humans_play(world: TelegramWorld) -> list[User]:
    """Ana, Beto, Caro and Dani play a match to 50 in the group, through buttons."""
    users = [
        world.fake.add_user(3000 + i, name)
        for i, name in enumerate(("Ana", "Beto", "Caro", "Dani"))
    ]
    group = world.fake.add_group(GROUP, "Club Dominó", admins={3000})
    await world.command(group, users[0], "/mesa meta=50")
    await world.settle()
    for user in users[1:]:
        await world.command(group, user, "/jugar")
        await world.settle()
    (table_id,) = world.manager.tables_of(world.front._player(users[0]))
    state = world.manager.table_state(table_id)
    assert state is not None
    by_id = {str(u.id): u for u in users}
    seats = {i.seat: by_id[i.player.user_id] for i in state.seats if i.player is not None}
    assert len(seats) == 4
    await world.play_out(table_id, seats)
    await world.settle()
    return users


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def played_once() -> AsyncIterator[tuple[TelegramWorld, list[User]]]:
    """One four-human match, played once for the tests that only read what it left (its
    ratings, lists and profiles): a match takes seconds to play."""
    async with TelegramWorld() as world:
        yield world, await _four_humans_play(world)


async def _top(world: TelegramWorld, user: User, text: str = "/top") -> Call:
    group = world.fake.groups[GROUP]
    mark = await world.command(group, user, text)
    return await world.fake.wait_for("sendPhoto", lambda c: c.chat_id == GROUP, after=mark)


@pytest.mark.asyncio(loop_scope="module")
async def test_a_match_of_four_humans_rates_all_four_in_the_group_and_the_season(
    played_once: tuple[TelegramWorld, list[User]],
) -> None:
    world, users = played_once

    chat = ChatRef("telegram", str(GROUP))
    for user in users:
        player_id = await world.manager.player_id(world.front._player(user))
        rating = await world.storage.player_rating(player_id)
        assert rating is not None and rating.matches == 1 and rating.provisional
    season = await world.manager.standings(Ranking.SEASON, chat)
    assert sorted(row.display_name for row in season.rows) == ["Ana", "Beto", "Caro", "Dani"]
    assert all(row.matches == 1 for row in season.rows)


@pytest.mark.asyncio(loop_scope="module")
async def test_top_sends_the_rating_picture_with_the_players_in_its_caption(
    played_once: tuple[TelegramWorld, list[User]],
) -> None:
    world, users = played_once
    photo = await _top(world, users[1])
    _keep(world, photo, "top-rating")

    caption = photo.caption() or ""
    assert caption.splitlines()[0] == "Rating · Club Dominó"
    names = [line.split(". ", 1)[1].split(" — ")[0] for line in caption.splitlines()[1:5]]
    assert sorted(names) == ["Ana", "Beto", "Caro", "Dani"]
    for user in users:
        assert f". {user.first_name} — " in caption
    labels = [b["text"] for b in photo.buttons()]
    assert labels == ["✓ Rating", "Temporada", "Saldo", "Parejas", "✓ Este grupo", "Global"]
    assert all(len(b["callback_data"].encode()) <= 64 for b in photo.buttons())


@pytest.mark.asyncio(loop_scope="module")
async def test_the_season_and_global_switches_of_the_asker_edit_the_same_message(
    played_once: tuple[TelegramWorld, list[User]],
) -> None:
    world, users = played_once
    photo = await _top(world, users[0])
    message_id = photo.result["message_id"]

    mark = len(world.fake.calls)
    answer = await world.press(users[0], photo.result, _button(photo, "Temporada"))
    assert not answer.params.get("show_alert")
    season = await world.fake.wait_for("editMessageMedia", after=mark)
    _keep(world, season, "top-season")
    assert season.params["message_id"] == message_id
    assert (season.caption() or "").startswith("Temporada ")
    assert (season.caption() or "").splitlines()[0].endswith(" · Club Dominó")
    assert [b["text"] for b in season.buttons()][:2] == ["Rating", "✓ Temporada"]

    mark = len(world.fake.calls)
    stored = world.fake.message(GROUP, message_id)
    await world.press(users[0], stored, _button(stored, "Global"))
    everyone = await world.fake.wait_for("editMessageMedia", after=mark)
    _keep(world, everyone, "top-season-global")
    assert everyone.params["message_id"] == message_id
    assert (everyone.caption() or "").splitlines()[0].endswith(" · todos")
    assert [b["text"] for b in everyone.buttons()][4:] == ["Este grupo", "✓ Global"]
    later = world.fake.calls[world.fake.calls.index(photo) + 1 :]
    assert [c for c in later if c.method == "sendPhoto" and c.chat_id == GROUP] == []


@pytest.mark.asyncio(loop_scope="module")
async def test_the_pairs_and_balance_lists_are_pictures_too(
    played_once: tuple[TelegramWorld, list[User]],
) -> None:
    world, users = played_once
    pairs = await _top(world, users[0], "/top parejas")
    _keep(world, pairs, "top-pairs")
    balance = await _top(world, users[0], "/top balance")
    _keep(world, balance, "top-balance")

    assert (pairs.caption() or "").splitlines()[0] == "Parejas · Club Dominó"
    assert (balance.caption() or "").splitlines()[0] == "Saldo · Club Dominó"
    assert "✓ Parejas" in [b["text"] for b in pairs.buttons()]


async def test_an_unknown_list_word_is_answered_with_the_lists_there_are() -> None:
    async with TelegramWorld() as world:
        ana = world.fake.add_user(3000, "Ana")
        group = world.fake.add_group(GROUP, "Club Dominó")
        answer = await world.reply_to(group, ana, "/top goles")

        assert answer.params["text"] == (
            "No conozco esa lista: goles. Prueba /top rating, /top temporada, /top saldo o "
            "/top parejas."
        )


@pytest.mark.asyncio(loop_scope="module")
async def test_a_forged_or_misplaced_list_switch_is_refused_and_changes_nothing(
    played_once: tuple[TelegramWorld, list[User]],
) -> None:
    world, users = played_once
    photo = await _top(world, users[0])
    before = world.fake.message(GROUP, photo.result["message_id"])

    mark = len(world.fake.calls)
    forged = await world.press(users[0], photo.result, "dmt:z:q")
    alone = world.fake.private_chat(users[0])
    sent = await world.command(alone, users[0], "/top")
    private = await world.fake.wait_for("sendPhoto", lambda c: c.chat_id == users[0].id, after=sent)
    misplaced = await world.press(users[0], private.result, "dmt:r:c")
    await world.settle()

    assert forged.params["show_alert"] is True
    assert misplaced.params["show_alert"] is True
    assert misplaced.params["text"] == "Ese botón no es válido."
    assert world.fake.message(GROUP, photo.result["message_id"]) == before
    assert [c.method for c in world.fake.calls[mark:] if c.method.startswith("edit")] == []
    # In a private chat the list is everyone's, with no switch for a group.
    assert (private.caption() or "").splitlines()[0] == "Rating · todos"
    assert [b["text"] for b in private.buttons()] == [
        "✓ Rating",
        "Temporada",
        "Saldo",
        "Parejas",
    ]


@pytest.mark.asyncio(loop_scope="module")
async def test_perfil_as_a_reply_shows_the_other_players_profile(
    played_once: tuple[TelegramWorld, list[User]],
) -> None:
    world, users = played_once
    group = world.fake.groups[GROUP]
    said = world.fake.user_message(group, users[3], "¿otra?")
    mark = await world.command(group, users[0], "/perfil", reply_to=said)
    photo = await world.fake.wait_for("sendPhoto", lambda c: c.chat_id == GROUP, after=mark)
    _keep(world, photo, "profile-reply")

    assert (photo.caption() or "").startswith("Dani — ")
    assert "Partidas: 1" in (photo.caption() or "")


@pytest.mark.asyncio(loop_scope="module")
async def test_perfil_names_a_user_by_text_mention_and_explains_an_unknown_username(
    played_once: tuple[TelegramWorld, list[User]],
) -> None:
    world, users = played_once
    group = world.fake.groups[GROUP]
    text = "/perfil Caro"
    mention = MessageEntity(MessageEntity.TEXT_MENTION, 8, 4, user=users[2])
    mark = await world.command(group, users[0], text, entities=[mention])
    photo = await world.fake.wait_for("sendPhoto", lambda c: c.chat_id == GROUP, after=mark)
    text = "/perfil @nadie"
    unknown = MessageEntity(MessageEntity.MENTION, 8, 6)
    mark = await world.command(group, users[0], text, entities=[unknown])
    answer = await world.fake.wait_for("sendMessage", lambda c: c.chat_id == GROUP, after=mark)

    assert (photo.caption() or "").startswith("Caro — ")
    assert answer.params["text"] == (
        "Todavía no conozco a @nadie. Responde a uno de sus mensajes con /perfil para ver "
        "su perfil."
    )


async def test_perfil_of_a_player_who_never_played_shows_an_empty_history() -> None:
    async with TelegramWorld() as world:
        eva = world.fake.add_user(3100, "Eva", language_code="en")
        alone = world.fake.private_chat(eva)
        mark = await world.command(alone, eva, "/profile")
        photo = await world.fake.wait_for("sendPhoto", lambda c: c.chat_id == eva.id, after=mark)
        _keep(world, photo, "profile-new")

        assert (photo.caption() or "").splitlines()[0] == "Eva — Not rated yet"


async def test_config_temporada_semanal_stores_weekly_seasons_for_the_group() -> None:
    async with TelegramWorld() as world:
        boss = world.fake.add_user(3000, "Ana")
        group = world.fake.add_group(GROUP, "Club Dominó", admins={3000})
        answer = await world.reply_to(group, boss, "/config temporada=semanal")
        summary = await world.reply_to(group, boss, "/config")

        assert answer.params["text"] == "Desde ahora, la temporada de este grupo es semanal."
        assert await world.storage.season_period(f"telegram:{GROUP}") is SeasonPeriod.WEEKLY
        assert summary.params["text"].splitlines()[-1] == (
            "Temporada: semanal (/config temporada=semanal|mensual|trimestral)."
        )


async def test_config_season_is_for_admins_only() -> None:
    async with TelegramWorld() as world:
        world.fake.add_user(3000, "Ana")
        beto = world.fake.add_user(3001, "Beto")
        group = world.fake.add_group(GROUP, "Club Dominó", admins={3000})
        answer = await world.reply_to(group, beto, "/config season=weekly")

        assert answer.params["text"] == "Solo los administradores del grupo pueden usar /config."
        assert await world.storage.season_period(f"telegram:{GROUP}") is SeasonPeriod.MONTHLY


HOURLY_LEASES = LeaseTimes(heartbeat=3600.0, takeover=7200.0, standby=3600.0)
"""Leases renewed (and season ends looked for) once an hour: a test that moves the clock a
month on fires 744 heartbeats instead of 535,000 at the default 5 s."""


async def test_a_season_end_posts_the_final_standings_picture_once() -> None:
    async with TelegramWorld(platforms=["telegram"], lease_times=HOURLY_LEASES) as world:
        await _four_humans_play(world)
        now = world.clock.now()
        end = season_bounds(season_key(SeasonPeriod.MONTHLY, now))[1]
        mark = len(world.fake.calls)
        await world.clock.advance(end - now + 60)
        await world.manager.announce_season_finals()
        await world.settle()
        await world.manager.announce_season_finals()
        await world.settle()

        finals = [c for c in world.fake.calls[mark:] if c.method == "sendPhoto"]
        assert len(finals) == 1
        assert finals[0].chat_id == GROUP
        _keep(world, finals[0], "season-final")
        caption = finals[0].caption() or ""
        assert caption.splitlines()[0] == (
            "Terminó la temporada (enero de 2027). Empieza una nueva: febrero de 2027."
        )
        for name in ("Ana", "Beto", "Caro"):
            assert f". {name} — " in caption


async def test_a_past_season_is_shown_by_its_key_or_as_the_previous_one() -> None:
    async with TelegramWorld(platforms=["telegram"], lease_times=HOURLY_LEASES) as world:
        users = await _four_humans_play(world)
        now = world.clock.now()
        played = season_key(SeasonPeriod.MONTHLY, now)
        await world.clock.advance(season_bounds(played)[1] - now + 3600)
        await world.settle()  # the season's end was announced meanwhile (a photo too)
        group = world.fake.groups[GROUP]
        for text in ("/top temporada anterior", f"/top temporada {played}"):
            mark = await world.command(group, users[1], text)
            photo = await world.fake.wait_for(
                "sendPhoto",
                lambda c: c.chat_id == GROUP and (c.caption() or "").startswith("Temporada"),
                after=mark,
            )
            caption = photo.caption() or ""
            assert caption.splitlines()[0].startswith("Temporada de enero de 2027")
            assert "Ana" in caption and "Dani" in caption
        mark = await world.command(group, users[1], "/top temporada 2019-01")
        answer = await world.fake.wait_for("sendMessage", lambda c: c.chat_id == GROUP, after=mark)
        assert answer.params["text"] == (
            f"Aquí no hay temporada 2019-01. Temporadas jugadas: {played}. "
            f"Prueba /top temporada {played}."
        )


async def test_an_english_group_asking_for_a_previous_season_that_is_not_there_is_told_in_english() -> (
    None
):
    async with TelegramWorld() as world:
        boss = world.fake.add_user(1001, "Boss", language_code="en")
        group = world.fake.add_group(GROUP, "Dominoes", admins={1001})
        await world.reply_to(group, boss, "/config idioma=en")
        for words in ("/top season previous", "/top temporada anterior"):
            answer = await world.reply_to(group, boss, words)
            assert answer.params["text"] == (
                "There is no earlier season here yet. /top season shows this one."
            )
        spanish = world.fake.add_group(GROUP - 1, "Dominó")
        answer = await world.reply_to(spanish, boss, "/top temporada anterior")
        assert answer.params["text"] == (
            "Aquí todavía no hay una temporada anterior. /top temporada muestra la actual."
        )


async def test_what_should_i_have_played_answers_a_hand_of_a_one_against_one_match() -> None:
    search = HeldSearch()
    search.release.set()  # nothing held here: the answer comes as soon as it is searched
    async with TelegramWorld(platforms=["telegram"], analysis_executor=search) as world:
        ana = world.fake.add_user(3000, "Ana")
        group = world.fake.add_group(GROUP, "Duelo")
        table_id = await world.table_with_robots(ana, group, "/mesa 1v1 meta=50")
        state = world.manager.table_state(table_id)
        assert state is not None and state.rules.players == 2
        await world.play_out(table_id, {0: ana})
        await world.settle()
        results = _results(world)
        assert results and all(m["text"].startswith("Mesa 1 · mano ") for m in results)
        mark = len(world.fake.calls)
        query = world.fake.press(ana, results[0], _button(results[0], "¿Qué debí jugar?"))
        answer = await world.fake.answer_to(query, timeout=20)
        assert answer.params.get("text") == "Analizando…"
        sent = await world.fake.wait_for(
            ("sendPhoto", "sendMessage"), lambda c: c.chat_id == ana.id, after=mark, timeout=20
        )
        text = _said(sent)
        # the hand the button sits under, though the match went on after it
        assert len(results) >= 2 and text.startswith("Mano 1:")
        assert "precisión" in text or "no tuviste ninguna elección" in text
    search.shutdown()


def _results(world: TelegramWorld) -> list[dict[str, Any]]:
    """The hand results in the group: the messages with the analysis button."""
    return [
        m for m in world.fake.messages_in(GROUP)
        if "🔍" in json.dumps((m.get("reply_markup") or {}), ensure_ascii=False)
    ]  # fmt: skip


def _said(call: Call) -> str:
    return (call.caption() if call.method == "sendPhoto" else call.params["text"]) or ""


async def test_what_should_i_have_played_answers_under_the_hand_and_with_a_command() -> None:
    search = HeldSearch()
    async with TelegramWorld(platforms=["telegram"], analysis_executor=search) as world:
        users = await _four_humans_play(world)
        group = world.fake.groups[GROUP]
        results = _results(world)
        assert results, "every hand's result carries the analysis button"
        data = _button(results[0], "¿Qué debí jugar?")
        assert data.startswith("dma:")
        mark = len(world.fake.calls)
        query = world.fake.press(users[0], results[0], data)
        answer = await world.fake.answer_to(query, timeout=20)
        assert answer.params.get("text") == "Analizando…"
        assert not answer.params.get("show_alert")
        # the search is still held: other updates are served meanwhile, nothing sent yet
        top = await _top(world, users[1])
        private = ("sendPhoto", "sendMessage")
        assert [
            c for c in world.fake.calls[mark:] if c.method in private and c.chat_id == users[0].id
        ] == []
        search.release.set()
        sent = await world.fake.wait_for(
            private, lambda c: c.chat_id == users[0].id, after=mark, timeout=20
        )
        calls = world.fake.calls
        assert calls.index(answer) < calls.index(top) < calls.index(sent)
        text = _said(sent)
        assert text.startswith("Mano ")
        assert "precisión" in text or "no tuviste ninguna elección" in text
        forged = world.fake.press(users[0], results[0], "dma:no-such-table")
        refused = await world.fake.answer_to(forged, timeout=20)
        assert refused.params.get("show_alert") is True
        mark = await world.command(group, users[1], "/analisis")
        answer = await world.fake.wait_for(
            private, lambda c: c.chat_id == GROUP, after=mark, timeout=20
        )
        assert _said(answer).startswith("Mano ")
    search.shutdown()


async def test_the_analysis_button_asks_a_player_it_cannot_write_to_to_open_the_private_chat() -> (
    None
):
    search = HeldSearch()
    async with TelegramWorld(platforms=["telegram"], analysis_executor=search) as world:
        ana = world.fake.add_user(3100, "Ana")
        group = world.fake.add_group(GROUP, "Club Dominó", admins={3100})
        await world.command(group, ana, "/jugar")
        await world.settle()
        await world.command(group, ana, "/robots")
        await world.settle()
        while not _results(world):
            labels = world.move_labels(ana)
            if labels:
                await world.play(ana, labels[0])
            else:
                when = world.clock.next_deadline()
                assert when is not None
                await world.clock.advance(max(0.0, when - world.clock.now()))
            await world.settle()
        world.fake.started.discard(ana.id)  # Ana blocked the bot after the hand
        world.front.shared.reachable.discard(ana.id)
        mark = len(world.fake.calls)
        query = world.fake.press(ana, _results(world)[0], _button(_results(world)[0], "jugar?"))
        answer = await world.fake.answer_to(query, timeout=20)
        assert answer.params.get("show_alert") is True
        assert answer.params.get("text") == (
            "Todavía no puedo escribirte en privado. Abre nuestro chat privado, toca Iniciar y "
            "vuelve a tocar este botón."
        )
        search.release.set()
        await world.settle()
        sent = [c for c in world.fake.calls[mark:] if c.method in ("sendPhoto", "sendMessage")]
        assert [c for c in sent if c.chat_id == ana.id] == []
    search.shutdown()


async def test_perfil_at_username_without_a_mention_entity_finds_a_player_seen_before() -> None:
    async with TelegramWorld() as world:
        ana = world.fake.add_user(3000, "Ana")
        caro = world.fake.add_user(3002, "Caro", username="caro_d")
        group = world.fake.add_group(GROUP, "Club Dominó")
        await world.reply_to(group, caro, "/saldo")  # the bot sees @caro_d
        mark = await world.command(group, ana, "/perfil @Caro_D")  # no entity with it
        photo = await world.fake.wait_for("sendPhoto", lambda c: c.chat_id == GROUP, after=mark)

        assert (photo.caption() or "").startswith("Caro — ")


async def test_perfil_at_username_finds_a_player_after_a_restart_from_the_database() -> None:
    """Issue 27.13: the username is kept with the player, not only in the process."""
    async with TelegramWorld() as world:
        ana = world.fake.add_user(3000, "Ana", username="ana")
        beto = world.fake.add_user(3001, "Beto")
        group = world.fake.add_group(GROUP, "Club Dominó")
        await world.reply_to(group, ana, "/saldo")  # her first command: she is a player now
        await world.settle()
        await world.restart()  # a new front end on the same storage: nobody seen yet
        assert world.front.shared.usernames == {}

        mark = await world.command(group, beto, "/perfil @ana")  # typed, no entity
        photo = await world.fake.wait_for("sendPhoto", lambda c: c.chat_id == GROUP, after=mark)

        assert (photo.caption() or "").startswith("Ana — ")


@pytest.mark.asyncio(loop_scope="module")
async def test_a_switch_pressed_by_another_member_sends_them_the_list_and_leaves_the_groups(
    played_once: tuple[TelegramWorld, list[User]],
) -> None:
    world, users = played_once
    photo = await _top(world, users[0])
    message_id = photo.result["message_id"]
    before = world.fake.message(GROUP, message_id)

    mark = len(world.fake.calls)
    answer = await world.press(users[2], photo.result, _button(photo, "Temporada"))
    mine = await world.fake.wait_for("sendPhoto", lambda c: c.chat_id == users[2].id, after=mark)
    await world.settle()

    assert not answer.params.get("show_alert")
    assert (mine.caption() or "").startswith("Temporada ")
    assert world.fake.message(GROUP, message_id) == before
    assert [c.method for c in world.fake.calls[mark:] if c.chat_id == GROUP] == []
    # Without a private chat, the list comes as a new reply in the group instead.
    world.fake.started.discard(users[3].id)
    try:
        mark = len(world.fake.calls)
        await world.press(users[3], photo.result, _button(photo, "Saldo"))
        reply = await world.fake.wait_for("sendPhoto", lambda c: c.chat_id == GROUP, after=mark)
        await world.settle()
        assert (reply.caption() or "").startswith("Saldo · Club Dominó")
        assert reply.params["reply_parameters"]["message_id"] == message_id
        assert world.fake.message(GROUP, message_id) == before
    finally:
        world.fake.started.add(users[3].id)  # the module's world is shared
