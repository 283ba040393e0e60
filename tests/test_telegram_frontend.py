"""The Telegram front end, driven end to end: the real python-telegram-bot against the fake
Bot API server (tests/fake_telegram.py), a real table manager on a manual clock with
SQLite on ``:memory:``, robots without delay."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest
from conftest import wait_until
from telegram import Chat, User

from bot.core import encode_action, encode_analysis, encode_press
from bot.present.facts import board_facts
from storage.base import Storage
from tests.fake_telegram import NOT_MODIFIED, Call, TelegramWorld

GROUP = -1001000
OTHER_GROUP = -1002000


def _buttons(message: dict[str, Any]) -> list[dict[str, Any]]:
    rows = (message.get("reply_markup") or {}).get("inline_keyboard") or []
    return [b for row in rows for b in row]


async def test_one_human_and_three_robots_play_a_whole_match_through_buttons() -> None:
    async with TelegramWorld() as world:
        ana = world.fake.add_user(1001, "Ana")
        group = world.fake.add_group(GROUP, "Dominó", admins={1001})
        table_id = await world.table_with_robots(ana, group)
        presses = await world.play_out(table_id, {0: ana})
        await world.settle()

        assert presses >= 7  # at least one hand's worth of Ana's own moves
        # A move is a reply-keyboard press: nothing to answer, nothing said back to Ana;
        # at the end, one silent line takes her turn keyboard away.
        assert world.fake.calls_to("answerCallbackQuery") == []
        said = [c.params["text"] for c in world.fake.calls_to("sendMessage", chat_id=ana.id)]
        assert said == ["La mesa 1 terminó: ya no hay jugadas allí."]
        # One board photo, edited in place, plus the match result photo.
        photos = world.fake.calls_to("sendPhoto", chat_id=GROUP)
        assert len(photos) == 2
        board_id = photos[0].result["message_id"]
        edits = world.fake.calls_to("editMessageMedia", chat_id=GROUP)
        assert len(edits) > presses
        assert all(e.params["message_id"] == board_id for e in edits)
        assert "🔁" in photos[1].buttons()[0]["text"]
        assert "ganan la partida" in (photos[1].caption() or "")
        # Hand results are short messages; the board ends without buttons.
        texts = [c.params["text"] for c in world.fake.calls_to("sendMessage", chat_id=GROUP)]
        assert any("mano 1" in t for t in texts)
        assert "reply_markup" not in world.fake.message(GROUP, board_id)
        # Ana's tiles came privately, with one button per legal move.
        assert world.fake.calls_to("sendPhoto", chat_id=ana.id)
        assert world.manager.tables() == []
        assert not world.front._boards and not world.front._hands  # nothing kept for it
        # "Play again" opens a new table with the same seats, and a new board.
        again = await world.press(ana, photos[1].result, photos[1].buttons()[0]["callback_data"])
        assert not again.params.get("show_alert"), again.params
        await world.settle()
        assert len(world.manager.tables()) == 1
        assert len(world.fake.calls_to("sendPhoto", chat_id=GROUP)) == 3


async def test_four_humans_play_a_whole_match_through_buttons() -> None:
    async with TelegramWorld() as world:
        table_id, seats = await world.four_humans(
            GROUP, "Cuatro", "/mesa meta=50", first_id=2000, join="/play"
        )
        users = list(seats.values())
        assert len(seats) == 4
        presses = await world.play_out(table_id, seats)
        await world.settle()

        assert presses >= 14
        assert len(world.fake.calls_to("sendPhoto", chat_id=GROUP)) == 2
        for user in users:
            # Everyone saw their tiles privately and got their share in the result.
            assert world.fake.calls_to("sendPhoto", chat_id=user.id)
        assert not any(
            a.params.get("show_alert") for a in world.fake.calls_to("answerCallbackQuery")
        )


async def test_stale_foreign_repeated_and_forged_presses_are_refused_and_change_nothing() -> None:
    async with TelegramWorld() as world:
        ana = world.fake.add_user(1001, "Ana")
        eve = world.fake.add_user(1002, "Eva")
        group = world.fake.add_group(GROUP, "Dominó")
        table_id = await world.table_with_robots(ana, group)
        # Let the robots move until it is Ana's turn.
        await world.until_turn(ana)
        labels = world.move_labels(ana)
        label = labels[0]
        before = world.manager.table_state(table_id)
        assert before is not None
        board = world.fake.calls_to("sendPhoto", chat_id=GROUP)[0].result

        # Eva has no seat: her typed move is refused in her private chat, keyboard removed.
        mark = await world.command(world.fake.private_chat(eve), eve, label)
        await world.settle()
        (foreign,) = [c for c in world.fake.calls[mark:] if c.chat_id == eve.id]
        assert foreign.params["text"] == "Ahora no tienes mesa: no te espera ninguna jugada."
        assert foreign.params["reply_markup"] == {"remove_keyboard": True}
        # Forged and stale callback data (the inline route of a move) are refused too.
        forged = await world.press(ana, board, "dm1:m:" + table_id + ":1:1:99")
        garbage = await world.press(ana, board, "not-a-payload")
        stale = encode_press(table_id, before.hand_number, max(1, before.move_number - 1), "p")
        old = await world.press(ana, board, stale)
        for answer in (forged, garbage, old):
            assert answer.params.get("show_alert") is True
            assert answer.params.get("text")
        # A tile Ana does not hold, typed: refused, her keyboard given back.
        match = world.manager.match_of(table_id)
        assert match is not None and before.turn is not None
        held = {str(t) for t in match.hand.tiles(before.turn)}
        missing = next(f"{a}-{b}" for a in range(7) for b in range(a + 1) if f"{a}-{b}" not in held)
        mark = await world.command(world.fake.private_chat(ana), ana, missing)
        await world.settle()
        (illegal,) = [c for c in world.fake.calls[mark:] if c.chat_id == ana.id]
        assert illegal.params["text"] == "Esa jugada no vale ahora."
        keyboard = illegal.params["reply_markup"]["keyboard"]
        assert [b["text"] for row in keyboard for b in row] == labels == world.move_labels(ana)
        after = world.manager.table_state(table_id)
        assert after is not None and after.move_number == before.move_number

        mark = await world.play(ana, label)
        assert [
            c for c in world.fake.calls[mark:] if c.method == "sendMessage" and c.chat_id == ana.id
        ] == []
        assert world.move_labels(ana) == []  # the one-time keyboard hid itself
        # The same label again (typed: the keyboard is gone): not her turn any more.
        mark = await world.command(world.fake.private_chat(ana), ana, label)
        await world.settle()
        (repeated,) = [c for c in world.fake.calls[mark:] if c.chat_id == ana.id]
        assert repeated.params["text"] == "No te toca."
        final = world.manager.table_state(table_id)
        assert final is not None and final.move_number == before.move_number + 1


async def test_a_player_who_never_started_the_bot_gets_a_deep_link_and_is_seated_after_start() -> (
    None
):
    async with TelegramWorld() as world:
        bea = world.fake.add_user(1003, "Bea", started=False)
        group = world.fake.add_group(GROUP, "Dominó")
        answer = await world.reply_to(group, bea, "/jugar")
        (button,) = answer.buttons()
        assert button["url"].startswith("https://t.me/domino_test_bot?start=j_")
        assert world.manager.tables() == []  # nobody is seated who cannot get tiles

        payload = button["url"].split("start=", 1)[1]
        private = world.fake.private_chat(bea)
        welcome = await world.reply_to(private, bea, f"/start {payload}")
        assert "Dominó" in welcome.params["text"]
        await world.settle()
        (table_id,) = world.manager.tables_of(world.front._player(bea))
        state = world.manager.table_state(table_id)
        assert state is not None and state.seats[0].name == "Bea"
        assert world.fake.calls_to("sendPhoto", chat_id=GROUP)


async def test_the_sit_button_sends_a_newcomer_to_the_private_chat_first() -> None:
    async with TelegramWorld() as world:
        ana = world.fake.add_user(1001, "Ana")
        bea = world.fake.add_user(1003, "Bea", started=False)
        group = world.fake.add_group(GROUP, "Dominó")
        await world.command(group, ana, "/jugar")
        await world.settle()
        (board,) = world.fake.calls_to("sendPhoto", chat_id=GROUP)
        sit = next(b for b in board.buttons() if b["callback_data"].startswith("dm1:s:"))
        answer = await world.press(bea, board.result, sit["callback_data"])
        assert answer.params["url"].startswith("https://t.me/domino_test_bot?start=s_")
        (table_id,) = world.manager.tables()
        state = world.manager.table_state(table_id)
        assert state is not None and sum(not s.is_open for s in state.seats) == 1

        payload = answer.params["url"].split("start=", 1)[1]
        await world.reply_to(world.fake.private_chat(bea), bea, f"/start {payload}")
        await world.settle()
        state = world.manager.table_state(table_id)
        assert state is not None and {s.name for s in state.seats if s.player} == {"Ana", "Bea"}


async def test_a_deep_link_to_a_group_the_player_left_is_refused() -> None:
    async with TelegramWorld() as world:
        bea = world.fake.add_user(1003, "Bea")
        world.fake.add_group(GROUP, "Dominó")
        answer = await world.reply_to(world.fake.private_chat(bea), bea, f"/start j_{OTHER_GROUP}")
        assert "no es válido" in answer.params["text"]
        assert world.manager.tables() == []


async def test_config_is_refused_to_a_non_admin_and_changes_the_rules_for_an_admin() -> None:
    async with TelegramWorld() as world:
        boss = world.fake.add_user(1001, "Jefa")
        pepe = world.fake.add_user(1002, "Pepe")
        group = world.fake.add_group(GROUP, "Dominó", admins={1001})

        refusal = await world.reply_to(group, pepe, "/config dominicano")
        assert "administradores" in refusal.params["text"]
        assert await world.storage.get_chat_rules(f"telegram:{GROUP}") is None
        assert world.fake.calls_to("getChatMember")

        menu = await world.reply_to(group, boss, "/config")
        presets = [b for b in menu.buttons() if b["callback_data"].startswith("dmc:p:")]
        assert {b["callback_data"] for b in presets} >= {"dmc:p:internacional", "dmc:p:dominicano"}
        denied = await world.press(pepe, menu.result, "dmc:p:dominicano")
        assert denied.params.get("show_alert") is True
        assert await world.storage.get_chat_rules(f"telegram:{GROUP}") is None

        saved = await world.press(boss, menu.result, "dmc:p:dominicano")
        assert not saved.params.get("show_alert")
        stored = await world.storage.get_chat_rules(f"telegram:{GROUP}")
        assert stored is not None and stored.preset == "dominicano"
        await world.press(boss, menu.result, "dmc:o:target")
        stored = await world.storage.get_chat_rules(f"telegram:{GROUP}")
        assert stored is not None and stored.rules().target == 300
        forged = await world.press(boss, menu.result, "dmc:o:nonsense")
        assert forged.params.get("show_alert") is True

        words = await world.reply_to(group, boss, "/config internacional meta=150")
        assert "150" in words.params["text"]
        rules = await world.reply_to(group, pepe, "/reglas")
        assert "Reglas: Internacional" in rules.params["text"]


async def test_config_sends_only_what_the_admin_typed_and_the_core_merges_it() -> None:
    async with TelegramWorld(default_preset="internacional") as world:
        boss = world.fake.add_user(1001, "Jefa")
        group = world.fake.add_group(GROUP, "Dominó", admins={1001})

        private = await world.reply_to(world.fake.private_chat(boss), boss, "/reglas")
        assert private.params["text"].splitlines()[0] == "Reglas: Internacional"
        shown = await world.reply_to(group, boss, "/reglas")
        assert shown.params["text"].splitlines()[0] == "Reglas: Internacional"

        await world.reply_to(group, boss, "/config dominicano meta=150")
        await world.reply_to(group, boss, "/config tiempo=60")
        stored = await world.storage.get_chat_rules(f"telegram:{GROUP}")
        assert stored is not None and stored.preset == "dominicano"
        assert dict(stored.overrides) == {"target": 150, "turn_seconds": 60}

        menu = await world.reply_to(group, boss, "/config")
        await world.press(boss, menu.result, "dmc:o:target")
        stored = await world.storage.get_chat_rules(f"telegram:{GROUP}")
        assert stored is not None and stored.preset == "dominicano"
        assert stored.overrides["turn_seconds"] == 60 and stored.overrides["target"] != 150

        await world.reply_to(group, boss, "/config venezolano")
        stored = await world.storage.get_chat_rules(f"telegram:{GROUP}")
        assert stored is not None and stored.preset == "venezolano"
        assert dict(stored.overrides) == {}


async def test_two_tables_in_two_groups_have_a_board_each() -> None:
    async with TelegramWorld() as world:
        ana = world.fake.add_user(1001, "Ana")
        leo = world.fake.add_user(1002, "Leo")
        first = world.fake.add_group(GROUP, "Uno")
        second = world.fake.add_group(OTHER_GROUP, "Dos")
        await world.command(first, ana, "/jugar")
        await world.command(second, leo, "/jugar")
        await world.settle()
        assert len(world.manager.tables()) == 2
        (one,) = world.fake.calls_to("sendPhoto", chat_id=GROUP)
        (two,) = world.fake.calls_to("sendPhoto", chat_id=OTHER_GROUP)
        assert "Ana" in (one.caption() or "") and "Leo" not in (one.caption() or "")
        assert "Leo" in (two.caption() or "")
        # Ana sits at a table in the second group too: every private message names it.
        await world.command(second, ana, "/jugar")
        await world.settle()
        assert len(world.manager.tables_of(world.front._player(ana))) == 2
        (two_again,) = world.fake.calls_to("sendPhoto", chat_id=OTHER_GROUP)
        assert "Ana" in (world.fake.message(OTHER_GROUP, two_again.result["message_id"])["caption"])


async def test_a_table_in_a_forum_topic_lives_in_its_topic() -> None:
    async with TelegramWorld() as world:
        ana = world.fake.add_user(1001, "Ana")
        forum = world.fake.add_group(GROUP, "Foro", is_forum=True)
        await world.command(forum, ana, "/jugar", thread_id=77)
        await world.settle()
        (board,) = world.fake.calls_to("sendPhoto", chat_id=GROUP)
        assert board.params["message_thread_id"] == 77
        bea = world.fake.add_user(1003, "Bea", started=False)
        mark = await world.command(forum, bea, "/jugar", thread_id=77)
        link = await world.fake.wait_for("sendMessage", after=mark)
        assert link.params["message_thread_id"] == 77
        assert link.buttons()[0]["url"].endswith(f"start=j_{GROUP}_77")
        payload = link.buttons()[0]["url"].split("start=", 1)[1]
        await world.reply_to(world.fake.private_chat(bea), bea, f"/start {payload}")
        await world.settle()
        (table_id,) = world.manager.tables()
        state = world.manager.table_state(table_id)
        assert state is not None and {s.name for s in state.seats if s.player} == {"Ana", "Bea"}
        assert len(world.fake.calls_to("sendPhoto", chat_id=GROUP)) == 1  # same table, same board


async def test_failed_sends_are_retried_or_skipped_and_never_stop_a_table() -> None:
    async with TelegramWorld() as world:
        ana = world.fake.add_user(1001, "Ana")
        group = world.fake.add_group(GROUP, "Dominó")
        world.fake.fail("editMessageMedia", network=True)
        world.fake.fail(
            "editMessageMedia", status=429, description="Too Many Requests", retry_after=1
        )
        world.fake.fail("editMessageMedia", status=400, description=NOT_MODIFIED)
        world.fake.fail("sendMessage", status=500, description="Internal Server Error", times=2)
        table_id = await world.table_with_robots(ana, group, "/mesa meta=50")
        presses = await world.play_out(table_id, {0: ana})
        assert presses > 0
        assert not world.fake.failures  # every injected failure was met
        assert world.manager.tables() == []
        world.allow_errors()


async def test_a_hand_that_cannot_be_sent_privately_lets_the_table_go_on() -> None:
    async with TelegramWorld() as world:
        ana = world.fake.add_user(1001, "Ana")
        group = world.fake.add_group(GROUP, "Dominó")
        table_id = await world.table_with_robots(ana, group, "/mesa meta=50")
        world.fake.started.discard(ana.id)  # Ana blocked the bot after sitting down
        for _ in range(400):
            if world.manager.table_state(table_id) is None:
                break
            when = world.clock.next_deadline()
            assert when is not None
            await world.clock.advance(max(0.0, when - world.clock.now()))
            await world.settle()
        assert world.manager.table_state(table_id) is None  # robots played for her
        warnings = [
            c
            for c in world.fake.calls_to("sendMessage", chat_id=GROUP)
            if c.buttons() and "url" in c.buttons()[0]
        ]
        assert len(warnings) == 1


async def test_history_balance_top_rules_and_help_answer_in_the_groups_language_in_a_group() -> (
    None
):
    async with TelegramWorld() as world:
        ana = world.fake.add_user(1001, "Ana")
        sam = world.fake.add_user(1005, "Sam", language_code="en")
        group = world.fake.add_group(GROUP, "Dominó")
        empty = await world.reply_to(group, ana, "/historial")
        assert "ninguna partida" in empty.params["text"]
        table_id = await world.table_with_robots(ana, group, "/mesa meta=50")
        await world.play_out(table_id, {0: ana})
        await world.settle()

        mark = await world.command(group, ana, "/historial")
        document = await world.fake.wait_for("sendDocument", after=mark)
        ((part, data),) = document.files.items()
        record = json.loads(data)
        assert record["hands"] and document.filenames[part].endswith(".json")

        balance = await world.reply_to(group, ana, "/saldo")
        assert "$" in balance.params["text"]
        mark = await world.command(group, ana, "/top")
        top = await world.fake.wait_for("sendPhoto", lambda c: c.chat_id == GROUP, after=mark)
        assert "Ana" in (top.caption() or "")
        rules = await world.reply_to(group, sam, "/rules")
        assert "Reglas: Venezolano" in rules.params["text"]
        in_group = await world.reply_to(group, sam, "/help")
        spanish = await world.reply_to(group, ana, "/ayuda")
        assert in_group.params["text"] == spanish.params["text"]
        english = await world.reply_to(world.fake.private_chat(sam), sam, "/help")
        assert english.params["text"] != spanish.params["text"]
        assert "partnerships" in english.params["text"]


async def test_menus_are_set_per_language_and_emotes_show_on_the_board() -> None:
    async with TelegramWorld() as world:
        menus = world.fake.calls_to("setMyCommands")
        assert {m.params.get("language_code") for m in menus} == {None, "en"}
        spanish = next(m for m in menus if "language_code" not in m.params)
        english = next(m for m in menus if m.params.get("language_code") == "en")
        assert "jugar" in {c["command"] for c in spanish.params["commands"]}
        assert "play" in {c["command"] for c in english.params["commands"]}

        ana = world.fake.add_user(1001, "Ana")
        group = world.fake.add_group(GROUP, "Dominó")
        table_id = await world.table_with_robots(ana, group)
        (board,) = world.fake.calls_to("sendPhoto", chat_id=GROUP)
        answer = await world.press(ana, board.result, encode_action("emote", table_id, "hola"))
        assert not answer.params.get("show_alert")
        await world.settle()
        caption = world.fake.message(GROUP, board.result["message_id"])["caption"]
        assert "💬 Ana" in caption
        too_soon = await world.press(ana, board.result, encode_action("emote", table_id, "buena"))
        assert too_soon.params.get("show_alert") is True


async def test_a_table_is_built_with_robots_and_a_partner_invited_by_reply() -> None:
    async with TelegramWorld() as world:
        ana = world.fake.add_user(1001, "Ana")
        leo = world.fake.add_user(1002, "Leo")
        group = world.fake.add_group(GROUP, "Dominó")
        mesa = "/mesa derecha=robot izquierda=robot:novato"
        await world.answering(group, ana, mesa, leo, "¿jugamos?")
        (table_id,) = world.manager.tables()
        state = world.manager.table_state(table_id)
        assert state is not None
        assert [s.is_robot for s in state.seats] == [False, True, False, True]
        assert state.seats[2].reserved_for is not None
        (board,) = world.fake.calls_to("sendPhoto", chat_id=GROUP)
        seat = next(b for b in board.buttons() if b["text"] == "Asiento para Leo")
        refused = await world.press(
            world.fake.add_user(1003, "Eva"), board.result, seat["callback_data"]
        )
        assert refused.params.get("show_alert") is True
        taken = await world.press(leo, board.result, seat["callback_data"])
        assert not taken.params.get("show_alert")
        await world.clock.advance(0)
        await world.settle()
        state = world.manager.table_state(table_id)
        assert state is not None and state.phase == "playing"
        assert state.seats[2].name == "Leo"


async def test_a_player_who_leaves_a_started_match_is_told_the_stake_is_forfeited_for_good() -> (
    None
):
    """Issue 27, items 2 and 10: /salir mid-match abandons it: the player and the group
    are told the stake is lost, and coming back is refused, naming why."""
    async with TelegramWorld() as world:
        ana = world.fake.add_user(1001, "Ana")
        leo = world.fake.add_user(1002, "Leo")
        group = world.fake.add_group(GROUP, "Dominó")
        await world.command(group, leo, "/jugar")
        table_id = await world.table_with_robots(ana, group)
        mark = len(world.fake.calls)
        await world.command(group, ana, "/salir")
        await world.settle()
        said = [c.params.get("text") for c in world.fake.calls[mark:] if c.method == "sendMessage"]
        assert (
            "Te levantaste de la mesa 1: pierdes tu apuesta ($10) y un robot juega tu asiento "
            "hasta el final."
        ) in said
        assert (
            "Ana dejó la partida: pierde su apuesta ($10) y un robot juega su asiento hasta el "
            "final."
        ) in said
        assert await world.manager.balance(world.front._player(ana)) == 990
        back = await world.reply_to(group, ana, "/volver")
        assert back.params["text"] == (
            "Dejaste esa partida: perdiste tu apuesta ($10) y un robot juega tu asiento hasta "
            "el final."
        )
        state = world.manager.table_state(table_id)
        assert state is not None
        (seat,) = [s for s in state.seats if s.name == "Ana"]
        assert seat.away and seat.back_by is None
        assert await world.storage.check_ledger() == []


async def test_a_player_whose_turns_ran_out_comes_back_with_the_button() -> None:
    async with TelegramWorld(missed_turns_limit=1, robot_delay=1.0) as world:
        ana = world.fake.add_user(1001, "Ana")
        leo = world.fake.add_user(1002, "Leo")
        group = world.fake.add_group(GROUP, "Dominó")
        await world.command(group, leo, "/jugar")
        table_id = await world.table_with_robots(ana, group)
        seat = next(s.seat for s in world.manager.table_state(table_id).seats if s.name == "Ana")
        while not world.manager.table_state(table_id).seats[seat].away:  # a lost connection
            await world.clock.advance(max(0.0, world.clock.next_deadline() - world.clock.now()))
            await world.settle()
        notices = [c.params["text"] for c in world.fake.calls_to("sendMessage", chat_id=GROUP)]
        assert any("Un robot juega ahora por Ana" in t for t in notices)
        private = next(
            c
            for c in reversed(world.fake.calls_to("sendMessage", chat_id=ana.id))
            if c.buttons()
            and c.buttons()[0].get("callback_data") == encode_action("back", table_id)
        )
        back = await world.press(ana, private.result, private.buttons()[0]["callback_data"])
        assert not back.params.get("show_alert")
        await world.settle()
        notices = [c.params["text"] for c in world.fake.calls_to("sendMessage", chat_id=GROUP)]
        assert any("Ana volvió a la mesa" in t for t in notices)
        state = world.manager.table_state(table_id)
        assert state is not None and not state.seats[seat].away


async def test_after_a_restart_the_board_is_edited_in_place_and_the_turn_keyboard_still_works() -> (
    None
):
    from telegram.ext import AIORateLimiter

    from bot.core import TableManager
    from bot.telegram import TelegramFrontEnd

    async with TelegramWorld() as world:
        ana = world.fake.add_user(1001, "Ana")
        group = world.fake.add_group(GROUP, "Dominó")
        table_id = await world.table_with_robots(ana, group)
        await world.until_turn(ana)
        label = world.move_labels(ana)[0]
        turns = len(world.fake.calls_to("sendPhoto", chat_id=ana.id))
        (board,) = world.fake.calls_to("sendPhoto", chat_id=GROUP)
        board_id = board.result["message_id"]
        await world.front.stop()
        await world.manager.stop()
        edits = len(world.fake.calls_to("editMessageMedia", chat_id=GROUP))

        world.manager = TableManager(
            world.storage, clock=world.clock, seed=world.seed, **world.manager_options
        )
        world.front = TelegramFrontEnd(
            world.fake.token,
            world.manager,
            world.storage,
            base_url=world.fake.base_url,
            base_file_url=world.fake.base_file_url,
            rate_limiter=AIORateLimiter(overall_max_rate=0, group_max_rate=0),
            poll_timeout=5,
        )
        await world.manager.start()  # resumed tables wait for the front end to start
        await world.front.start()
        await world.settle()
        # The resumed table found its board message in the manager's note: no new board.
        assert len(world.fake.calls_to("sendPhoto", chat_id=GROUP)) == 1
        assert world.manager.front_end_note(table_id, "telegram.board") == {
            "chat_id": GROUP,
            "message_id": board_id,
            "title": "Dominó",
        }

        # Ana's turn message was not sent again: her client still shows its keyboard.
        assert len(world.fake.calls_to("sendPhoto", chat_id=ana.id)) == turns
        before = world.manager.table_state(table_id)
        assert before is not None
        mark = await world.play(ana, label)
        assert [c for c in world.fake.calls[mark:] if c.method == "sendMessage"] == []
        after = world.manager.table_state(table_id)
        assert after is not None and after.move_number == before.move_number + 1
        await world.settle()
        redrawn = world.fake.calls_to("editMessageMedia", chat_id=GROUP)[edits:]
        assert redrawn and all(e.params["message_id"] == board_id for e in redrawn)
        assert len(world.fake.calls_to("sendPhoto", chat_id=GROUP)) == 1


async def test_a_refused_token_is_reported_and_never_holds_up_the_manager(
    memory_storage: Storage,
) -> None:
    import asyncio

    import pytest
    from telegram.error import InvalidToken

    from bot.core import ChatRef, PlayerRef, PlayNow, TableManager
    from bot.core.clock import ManualClock
    from bot.telegram import TelegramFrontEnd
    from tests.fake_telegram import FakeTelegram

    async with FakeTelegram() as fake:
        manager = TableManager(memory_storage, clock=ManualClock(), seed=1, robot_delay=0)
        front = TelegramFrontEnd(
            "999:wrong", manager, manager.storage, base_url=fake.base_url, poll_timeout=1
        )
        with pytest.raises(InvalidToken):
            await front.start()
        reply = await manager.handle(
            PlayNow(PlayerRef("telegram", "1", "Ana"), ChatRef("telegram", str(GROUP)))
        )
        assert reply.ok
        await front.stop()
        await asyncio.wait_for(manager.stop(), 5)  # the waiting deliveries were released
        assert fake.calls_to("getMe")[0].status == 401
        assert not fake.calls_to("sendPhoto")


async def test_my_tiles_come_privately_from_the_command_and_the_board_button() -> None:
    async with TelegramWorld() as world:
        ana = world.fake.add_user(1001, "Ana")
        group = world.fake.add_group(GROUP, "Dominó")
        table_id = await world.table_with_robots(ana, group)
        sent = len(world.fake.calls_to("sendPhoto", chat_id=ana.id))
        answer = await world.reply_to(group, ana, "/fichas")
        assert answer.params["text"] == "Tus fichas están en nuestro chat privado."
        await world.settle()
        photos = world.fake.calls_to("sendPhoto", chat_id=ana.id)
        assert len(photos) == sent + 1
        assert (photos[-1].caption() or "").startswith("Mesa 1 en Dominó")
        (board,) = world.fake.calls_to("sendPhoto", chat_id=GROUP)
        pressed = await world.press(ana, board.result, encode_action("tiles", table_id))
        assert not pressed.params.get("show_alert")
        await world.settle()
        assert len(world.fake.calls_to("sendPhoto", chat_id=ana.id)) == sent + 2
        stranger = world.fake.add_user(1009, "Zoe")
        refused = await world.press(stranger, board.result, encode_action("tiles", table_id))
        assert refused.params.get("show_alert") is True


async def test_a_board_follows_its_group_when_it_becomes_a_supergroup() -> None:
    async with TelegramWorld() as world:
        ana = world.fake.add_user(1001, "Ana")
        group = world.fake.add_group(GROUP, "Dominó")
        world.fake.add_group(OTHER_GROUP, "Dominó")  # the same group, migrated
        table_id = await world.table_with_robots(ana, group, "/mesa meta=50")
        await world.until_turn(ana)
        world.fake.fail(
            "editMessageMedia",
            description="Bad Request: group chat was upgraded to a supergroup chat",
            migrate_to=OTHER_GROUP,
            chat_id=GROUP,
        )
        await world.play(ana, world.move_labels(ana)[0])
        (moved,) = world.fake.calls_to("sendPhoto", chat_id=OTHER_GROUP)
        assert world.front._boards[table_id].chat_id == OTHER_GROUP
        assert moved.result["message_id"] == world.front._boards[table_id].message_id
        await world.play_out(table_id, {0: ana})  # results go to the supergroup too
        assert len(world.fake.calls_to("sendPhoto", chat_id=OTHER_GROUP)) == 2
        assert world.fake.calls_to("sendMessage", chat_id=OTHER_GROUP)


async def test_a_waiting_table_shows_the_waiting_picture_until_the_match_starts() -> None:
    from render import waiting_png

    async with TelegramWorld() as world:
        ana = world.fake.add_user(1001, "Ana")
        leo = world.fake.add_user(1002, "Leo")
        group = world.fake.add_group(GROUP, "Dominó")
        await world.command(group, ana, "/jugar")
        await world.settle()
        (table_id,) = world.manager.tables_of(world.front._player(ana))
        state = world.manager.table_state(table_id)
        assert state is not None and state.phase == "waiting" and state.view is None
        (sent,) = world.fake.calls_to("sendPhoto", chat_id=GROUP)
        # Ana sits, three seats free, the robots' timer runs: the waiting picture, no board.
        assert sent.files["photo"] == waiting_png(state.rules, board_facts(state, "es"))
        facts = board_facts(state, "es")
        assert [s.is_open for s in facts.seats] == [False, True, True, True]
        assert facts.seconds_left is not None and facts.seconds_left > 0

        await world.command(group, leo, "/jugar")
        await world.settle()
        state = world.manager.table_state(table_id)
        assert state is not None and state.phase == "waiting"
        edit = world.fake.calls_to("editMessageMedia", chat_id=GROUP)[-1]
        assert edit.params["message_id"] == sent.result["message_id"]
        assert edit.files[edit.params["media"]["media"][len("attach://") :]] == waiting_png(
            state.rules, board_facts(state, "es")
        )

        await world.command(group, ana, "/robots")  # full: the countdown, still no hand
        await world.settle()
        state = world.manager.table_state(table_id)
        assert state is not None and state.phase == "countdown"
        edit = world.fake.calls_to("editMessageMedia", chat_id=GROUP)[-1]
        media = edit.files[edit.params["media"]["media"][len("attach://") :]]
        assert media == waiting_png(state.rules, board_facts(state, "es"), starting=True)

        await world.clock.advance(10)  # the match starts: the board, in the same message
        await world.settle()
        state = world.manager.table_state(table_id)
        assert state is not None and state.view is not None
        assert len(world.fake.calls_to("sendPhoto", chat_id=GROUP)) == 1
        edit = world.fake.calls_to("editMessageMedia", chat_id=GROUP)[-1]
        assert edit.params["message_id"] == sent.result["message_id"]
        media = edit.files[edit.params["media"]["media"][len("attach://") :]]
        assert all(
            media != waiting_png(state.rules, board_facts(state, "es"), starting=s)
            for s in (False, True)
        )
        assert media.startswith(b"\x89PNG")


async def test_a_board_deleted_during_a_restart_is_posted_anew_and_noted() -> None:
    from telegram.ext import AIORateLimiter

    from bot.core import TableManager
    from bot.telegram import TelegramFrontEnd

    async with TelegramWorld() as world:
        ana = world.fake.add_user(1001, "Ana")
        leo = world.fake.add_user(1002, "Leo")
        group = world.fake.add_group(GROUP, "Dominó")
        await world.command(group, ana, "/jugar")
        await world.settle()
        (table_id,) = world.manager.tables_of(world.front._player(ana))
        (first,) = world.fake.calls_to("sendPhoto", chat_id=GROUP)
        old_id = first.result["message_id"]
        assert world.manager.front_end_note(table_id, "telegram.board") == {
            "chat_id": GROUP,
            "message_id": old_id,
            "title": "Dominó",
        }
        await world.front.stop()
        await world.manager.stop()
        del world.fake.messages[(GROUP, old_id)]  # an admin deleted the board meanwhile

        world.manager = TableManager(
            world.storage, clock=world.clock, seed=world.seed, **world.manager_options
        )
        world.front = TelegramFrontEnd(
            world.fake.token,
            world.manager,
            world.storage,
            base_url=world.fake.base_url,
            base_file_url=world.fake.base_file_url,
            rate_limiter=AIORateLimiter(overall_max_rate=0, group_max_rate=0),
            poll_timeout=5,
        )
        await world.manager.start()
        await world.front.start()
        await world.settle()
        await world.command(group, leo, "/jugar")
        await world.settle()
        photos = world.fake.calls_to("sendPhoto", chat_id=GROUP)
        assert len(photos) == 2  # the edit found no message: a new board
        new_id = photos[-1].result["message_id"]
        assert new_id != old_id
        assert world.manager.front_end_note(table_id, "telegram.board") == {
            "chat_id": GROUP,
            "message_id": new_id,
            "title": "Dominó",
        }


async def test_a_slow_group_never_holds_up_a_players_private_tiles() -> None:
    async with TelegramWorld() as world:
        ana = world.fake.add_user(1001, "Ana")
        group = world.fake.add_group(GROUP, "Dominó", admins={1001})
        table_id = await world.table_with_robots(ana, group)
        # The group's messages (the hand's result) hang, as when its flood limit is spent.
        gate = world.fake.hold("sendMessage", chat_id=GROUP)
        start = len(world.fake.calls)
        for _ in range(500):
            await world.fake.drained()
            await asyncio.wait_for(world.manager.idle(), 5)  # delivery never waits for a group
            if world.manager.match_of(table_id).hand.is_over:
                break
            await asyncio.wait_for(world.front.idle(), 5)
            labels = world.move_labels(ana)
            if labels:
                world.fake.press_key(ana, labels[0])
            else:
                await world.clock.advance(max(0.0, world.clock.next_deadline() - world.clock.now()))
        held = await world.fake.wait_for("sendMessage", lambda c: c.chat_id == GROUP, after=start)
        mark = len(world.fake.calls)
        await world.clock.advance(0)  # the next hand is dealt: Ana's new tiles come at once
        tiles = await world.fake.wait_for(
            ("sendPhoto", "editMessageMedia"), lambda c: c.chat_id == ana.id, after=mark
        )
        assert tiles.result is not None and held.result is None  # the group still waits
        assert world.manager.match_of(table_id).hand_number == 2
        gate.set()
        await world.settle()
        assert held.result is not None and "mano 1" in held.params["text"]


async def test_after_a_crash_the_player_to_move_plays_on_with_the_keyboard_they_have() -> None:
    async with TelegramWorld() as world:
        ana = world.fake.add_user(1001, "Ana")
        group = world.fake.add_group(GROUP, "Dominó")
        table_id = await world.table_with_robots(ana, group)
        await world.until_turn(ana)
        label = world.move_labels(ana)[0]

        mark = await world.restart(crash=True)
        await world.settle()

        # The turn was noted with the table: its message is not sent twice.
        assert [c for c in world.fake.calls[mark:] if c.chat_id == ana.id] == []
        before = world.manager.table_state(table_id)
        assert before is not None and before.turn == 0
        moved = await world.play(ana, label)
        assert [c for c in world.fake.calls[moved:] if c.method == "sendMessage"] == []
        after = world.manager.table_state(table_id)
        assert after is not None and after.move_number == before.move_number + 1


async def test_after_a_crash_private_hands_keep_their_group_and_are_not_sent_twice() -> None:
    async with TelegramWorld() as world:
        ana = world.fake.add_user(1001, "Ana")
        first = world.fake.add_group(GROUP, "Uno")
        second = world.fake.add_group(OTHER_GROUP, "Dos")
        one = await world.table_with_robots(ana, first)
        await world.command(second, ana, "/jugar")
        await world.settle()
        await world.command(second, ana, "/robots")
        await world.clock.advance(0)
        await world.settle()
        two = next(t for t in world.manager.tables_of(world.front._player(ana)) if t != one)
        for _ in range(50):  # play on until Ana is to move at one of her tables
            if world.turn_message(ana) is not None:
                break
            await world.clock.advance(0)
            await world.settle()
        assert world.turn_message(ana) is not None
        photos = [m for m in world.fake.messages_in(ana.id) if "photo" in m]
        captions = {m["caption"].splitlines()[0] for m in photos}
        assert captions == {"Mesa 1 en Uno", "Mesa 1 en Dos"}

        mark = await world.restart(crash=True)
        await world.settle()

        assert [c for c in world.fake.calls[mark:] if c.chat_id == ana.id] == []
        # Her keyboard names the table of each move (she sits at two), and it plays.
        turns = [
            t
            for t in (one, two)
            if world.manager.table_state(t).turn == 0
            and world.manager.table_state(t).phase == "playing"
        ]
        labels = world.move_labels(ana)
        assert labels and len({label.split(" · ")[0] for label in labels}) == 1
        assert labels[0].split(" · ")[0] in ("Uno", "Dos")
        moves = {t: world.manager.table_state(t).move_number for t in turns}
        played = await world.play(ana, labels[0])
        assert [
            c
            for c in world.fake.calls[played:]
            if c.method == "sendMessage" and c.chat_id == ana.id
        ] == []
        assert sum(world.manager.table_state(t).move_number - n for t, n in moves.items()) == 1


async def test_private_messages_are_one_per_own_turn_never_edited_nor_deleted() -> None:
    import re

    async with TelegramWorld() as world:
        ana = world.fake.add_user(1001, "Ana")
        group = world.fake.add_group(GROUP, "Dominó")
        table_id = await world.table_with_robots(ana, group, "/mesa meta=50")
        presses = await world.play_out(table_id, {0: ana})
        await world.settle()

        # Besides the probe made when she sat down, only her turns: no dealt hand (her
        # turn's message shows it a few seconds later), nothing edited or deleted; at the
        # end one silent line that takes her turn keyboard away.
        private = [c for c in world.fake.calls if c.chat_id == ana.id]
        assert [c.method for c in private].count("sendChatAction") == 1
        *turns, last = [c for c in private if c.method != "sendChatAction"]
        assert last.params["reply_markup"] == {"remove_keyboard": True}
        assert last.params["disable_notification"] is True
        assert {c.method for c in turns} == {"sendPhoto"}
        assert len(turns) == presses  # one notification per own turn, each one pressed
        for call in turns:
            where, what = (call.caption() or "").split("\n")
            assert where == "Mesa 1 en Dominó"
            assert re.fullmatch(r"¡Te toca! Tienes \d+ s\.", what), what
            markup = call.params["reply_markup"]
            assert markup["one_time_keyboard"] is True and markup["resize_keyboard"] is True
            assert markup["input_field_placeholder"] == "Tu jugada"


async def test_a_group_that_refuses_photos_gets_a_text_board_and_its_admins_are_told_once() -> None:
    async with TelegramWorld() as world:
        ana = world.fake.add_user(1001, "Ana")
        group = world.fake.add_group(GROUP, "Dominó")
        table_id = await world.table_with_robots(ana, group, "/mesa meta=50")
        (photo_board,) = world.fake.calls_to("sendPhoto", chat_id=GROUP)
        refused = "Bad Request: not enough rights to send photos to the chat"
        for method in ("sendPhoto", "editMessageMedia"):
            world.fake.fail(method, description=refused, chat_id=GROUP, times=10**6)
        mark = len(world.fake.calls)
        await world.play_out(table_id, {0: ana})
        await world.settle()

        texts = [c for c in world.fake.calls[mark:] if c.method == "sendMessage" and c.ok]
        notes = [c for c in texts if c.params["text"].startswith("Administradores:")]
        assert [c.params["text"] for c in notes] == [
            "Administradores: ya no puedo enviar fotos en este grupo, así que el tablero se "
            "muestra como texto. Devuélvanme el permiso de enviar fotos para volver a ver el "
            "dibujo de la mesa."
        ]
        assert (GROUP, photo_board.result["message_id"]) not in world.fake.messages  # deleted
        edits = world.fake.calls_to("editMessageText", chat_id=GROUP)
        (board_id,) = {e.params["message_id"] for e in edits}
        (board,) = [c for c in texts if c.result["message_id"] == board_id]
        assert board.params["text"].startswith("Mesa 1 · Mano ")
        final = world.fake.message(GROUP, board_id)
        lines = final["text"].split("\n")
        assert "La partida terminó." in lines
        assert any(line.startswith("En la mesa: [") for line in lines)
        assert "reply_markup" not in final
        assert len(edits) > 3
        (result,) = [c for c in texts if "ganan la partida" in c.params["text"]]
        assert result.buttons()[0]["text"].startswith("🔁")
        assert world.errors == []


async def test_joining_through_the_deep_link_says_once_where_you_sat() -> None:
    async with TelegramWorld() as world:
        bea = world.fake.add_user(1003, "Bea", started=False)
        group = world.fake.add_group(GROUP, "Dominó")
        answer = await world.reply_to(group, bea, "/jugar")
        payload = answer.buttons()[0]["url"].split("start=", 1)[1]
        private = world.fake.private_chat(bea)
        welcome = await world.reply_to(private, bea, f"/start {payload}")
        assert welcome.params["text"] == (
            "Te sentaste en la mesa 1, asiento 1, en Dominó. Tus fichas llegarán aquí."
        )
        await world.settle()
        texts = [c.params["text"] for c in world.fake.calls_to("sendMessage", chat_id=bea.id)]
        assert texts == [welcome.params["text"]]


async def test_a_deep_link_to_a_table_that_never_existed_says_it_does_not_exist() -> None:
    async with TelegramWorld() as world:
        bea = world.fake.add_user(1003, "Bea")
        world.fake.add_group(GROUP, "Dominó")
        private = world.fake.private_chat(bea)
        answer = await world.reply_to(private, bea, f"/start s_{GROUP}_nosuch_a")
        assert answer.params["text"] == "Esa mesa no existe."
        assert world.manager.tables() == []


async def test_a_table_line_too_long_to_echo_whole_is_answered_with_the_echo_cut() -> None:
    async with TelegramWorld() as world:
        ana = world.fake.add_user(1001, "Ana")
        group = world.fake.add_group(GROUP, "Dominó")
        words = " ".join(f"palabra{i}" for i in range(500))  # about 4,400 characters
        answer = await world.reply_to(group, ana, f"/mesa {words}")
        text = answer.params["text"]
        assert answer.ok and len(text) < 400
        assert text.startswith("No entiendo: palabra0, palabra1, ")
        assert "…. Ejemplo: /mesa" in text
        assert world.manager.tables() == []


async def test_an_anonymous_admins_rule_change_is_announced_as_an_administrators() -> None:
    async with TelegramWorld() as world:
        group = world.fake.add_group(GROUP, "Dominó")
        mark = len(world.fake.calls)
        world.fake.anonymous_admin_says(group, "/config meta=150")
        await world.settle()
        stored = await world.storage.get_chat_rules(f"telegram:{GROUP}")
        assert stored is not None and stored.rules().target == 150
        texts = [
            c.params["text"]
            for c in world.fake.calls[mark:]
            if c.method == "sendMessage" and c.chat_id == GROUP
        ]
        announced = [t for t in texts if "cambió las reglas" in t]
        assert [t.split("\n")[0] for t in announced] == [
            "Un administrador cambió las reglas del grupo."
        ]


async def test_a_player_renamed_mid_match_is_shown_by_the_new_name_on_the_board() -> None:
    async with TelegramWorld() as world:
        ana = world.fake.add_user(1001, "Ana")
        group = world.fake.add_group(GROUP, "Dominó")
        table_id = await world.table_with_robots(ana, group)
        await world.until_turn(ana)
        anita = world.fake.add_user(1001, "Anita")  # she renamed herself on Telegram
        mark = await world.play(anita, world.move_labels(ana)[0])
        assert [c for c in world.fake.calls[mark:] if c.method == "sendMessage"] == []
        (board,) = world.fake.calls_to("sendPhoto", chat_id=GROUP)
        caption = world.fake.message(GROUP, board.result["message_id"])["caption"]
        assert caption.split("\n")[1].startswith("🔵 Anita y Robot ")
        assert world.manager.table_state(table_id).seats[0].name == "Anita"


async def test_cerrar_is_refused_for_a_match_that_moves_and_for_an_admin_playing_in_it() -> None:
    """Issue 27, item 3: closing refunds every stake, so an admin may not call off a
    match being played, nor one of their own; the refusal says why."""
    async with TelegramWorld() as world:
        boss = world.fake.add_user(1001, "Jefa")
        pepe = world.fake.add_user(1002, "Pepe")
        group = world.fake.add_group(GROUP, "Dominó", admins={1001, 1002})
        table_id = await world.table_with_robots(pepe, group)
        refused = await world.reply_to(group, boss, "/cerrar")
        assert refused.params["text"] == (
            "La mesa 1 está en juego: un administrador solo puede cerrar una partida empezada "
            "cuando lleva 10 minutos sin ninguna jugada."
        )
        own = await world.reply_to(group, pepe, "/cerrar")
        assert own.params["text"] == (
            "Juegas en la mesa 1 (o dejaste su partida): puede cerrarla otro administrador, y "
            "solo si se quedó trabada."
        )
        assert world.manager.tables() == [table_id]
        assert await world.manager.balance(world.front._player(pepe)) == 990


async def test_an_admin_closes_a_stuck_table_with_cerrar_and_every_stake_comes_back() -> None:
    async with TelegramWorld(stuck_seconds=0) as world:  # every match counts as stuck
        boss = world.fake.add_user(1001, "Jefa")
        pepe = world.fake.add_user(1002, "Pepe")
        group = world.fake.add_group(GROUP, "Dominó", admins={1001})
        table_id = await world.table_with_robots(pepe, group)
        player = world.front._player(pepe)
        assert await world.manager.balance(player) == 990

        refusal = await world.reply_to(group, pepe, "/cerrar")
        assert (
            refusal.params["text"] == "Solo los administradores del grupo pueden cerrar una mesa."
        )
        assert world.manager.tables() == [table_id]

        label = world.manager.table_state(table_id).label
        done = await world.reply_to(group, boss, f"/cerrar {label}")
        assert done.params["text"] == (
            f"Cerraste la mesa {label}; se devolvieron todas las apuestas."
        )
        await world.settle()
        assert world.manager.tables() == []
        assert await world.manager.balance(player) == 1000
        said = [m.get("text") for m in world.fake.messages_in(GROUP)]
        assert "Un administrador cerró la mesa; se devolvieron las apuestas." in said
        assert await world.storage.check_ledger() == []


async def test_config_reports_every_bad_option_in_the_words_the_admin_typed() -> None:
    """Issue 13, item 13: ``meta=7`` was refused as "La opción target…", one error only."""
    async with TelegramWorld() as world:
        boss = world.fake.add_user(1001, "Jefa")
        group = world.fake.add_group(GROUP, "Dominó", admins={1001})
        refusal = await world.reply_to(group, boss, "/config meta=7 tiempo=abc apuesta=99999")
        assert refusal.params["text"] == (
            "meta=7 no vale: meta puede ser 50, 100, 150, 200, 300 o 500.\n"
            "tiempo=abc no vale: tiempo puede ser un número del 10 al 120 o un número del 3600 al 86400.\n"
            "apuesta=99999 no vale: apuesta puede ser un número del 0 al 1000."
        )
        english = await world.reply_to(group, boss, "/config target=7 counting=some")
        assert english.params["text"] == (
            "target=7 no vale: meta puede ser 50, 100, 150, 200, 300 o 500.\n"
            "counting=some no vale: conteo puede ser rivales o todos."
        )
        await world.settle()
        assert await world.storage.get_chat_rules(f"telegram:{GROUP}") is None


async def test_config_with_words_posts_the_rule_list_once() -> None:
    """Issue 13, item 13: ``/config meta=500`` posted the 12-line rule list twice."""
    async with TelegramWorld() as world:
        boss = world.fake.add_user(1001, "Jefa")
        group = world.fake.add_group(GROUP, "Dominó", admins={1001})
        await world.command(group, boss, "/config meta=500")
        await world.settle()
        said = [c.params["text"] for c in world.fake.calls_to("sendMessage", chat_id=GROUP)]
        assert len(said) == 1
        assert said[0].splitlines()[:3] == [
            "Jefa cambió las reglas del grupo.",
            "Reglas: Venezolano",
            "• Partida a: 500 *",
        ]


async def test_option_values_typed_in_spanish_words_are_accepted() -> None:
    """Issue 13, item 28: ``conteo=todos`` (the player's words) as well as ``counting=all``."""
    async with TelegramWorld() as world:
        boss = world.fake.add_user(1001, "Jefa")
        group = world.fake.add_group(GROUP, "Dominó", admins={1001})
        await world.reply_to(group, boss, "/config conteo=todos salida=sorteo reparto=4")
        stored = await world.storage.get_chat_rules(f"telegram:{GROUP}")
        assert stored is not None
        assert dict(stored.overrides) == {
            "counting": "all",
            "first_starter": "draw",
            "redeal_doubles": 4,
        }
        await world.reply_to(group, boss, "/config counting=opponents siguiente=ganador")
        stored = await world.storage.get_chat_rules(f"telegram:{GROUP}")
        assert stored is not None
        assert stored.overrides["counting"] == "opponents"
        assert stored.overrides["next_starter"] == "winner"


async def test_a_group_set_to_english_speaks_english_there_and_each_players_language_in_private() -> (
    None
):
    """Issue 13, item 12: group texts were always Spanish; one precedence rule: group
    messages in the group's language (its admins' choice), private ones in the player's."""
    async with TelegramWorld() as world:
        boss = world.fake.add_user(1001, "Jefa")
        ana = world.fake.add_user(1002, "Ana")
        group = world.fake.add_group(GROUP, "Dominó", admins={1001})
        told = await world.reply_to(group, boss, "/config idioma=en")
        assert told.params["text"] == "Jefa set this group's language: English."
        assert await world.storage.get_chat_language(f"telegram:{GROUP}") == "en"
        assert await world.storage.get_chat_rules(f"telegram:{GROUP}") is None  # rules untouched

        help_text = (await world.reply_to(group, ana, "/ayuda")).params["text"]
        for command in ("/play", "/table", "/leave", "/back", "/tiles", "/config"):
            assert command in help_text
        for spanish in ("/jugar", "/mesa", "/salir", "/volver", "meta="):
            assert spanish not in help_text
        assert "target=200 right=robot" in help_text
        refused = await world.reply_to(group, ana, "/mesa bogus")
        assert refused.params["text"] == (
            "I do not understand: bogus. Example: /table international target=200 "
            "right=robot across=robot"
        )

        await world.reply_to(world.fake.private_chat(ana), ana, "/start")
        mark = await world.command(group, ana, "/jugar")
        board = await world.fake.wait_for("sendPhoto", lambda c: c.chat_id == GROUP, after=mark)
        await world.settle()
        caption = world.fake.message(GROUP, board.result["message_id"])["caption"]
        assert caption.startswith("Table 1 · waiting for players")
        assert "3 free seats" in caption and caption.endswith("Press a seat button or send /play.")
        hello = await world.reply_to(world.fake.private_chat(ana), ana, "/start")
        assert hello.params["text"].startswith("¡Hola!")

        back = await world.reply_to(group, boss, "/config idioma=es")
        assert back.params["text"] == "Jefa puso el idioma del grupo: Español."


async def test_a_player_who_gets_up_mid_match_is_answered_before_the_group_is_told_of_the_robot() -> (
    None
):
    """Issue 13, item 2: the two replies arrived in reverse order."""
    async with TelegramWorld() as world:
        pepe = world.fake.add_user(1002, "Pepe")
        group = world.fake.add_group(GROUP, "Dominó")
        table_id = await world.table_with_robots(pepe, group)
        mark = len(world.fake.calls)
        await world.command(group, pepe, "/levantarse")
        await world.settle()
        said = [
            (c.chat_id, c.params["text"])
            for c in world.fake.calls[mark:]
            if c.method == "sendMessage" and c.ok
        ]
        assert said == [
            (
                GROUP,
                "Te levantaste de la mesa 1: pierdes tu apuesta ($10) y, sin nadie más en la "
                "mesa, la partida termina.",
            ),
            (pepe.id, "Te levantaste de la mesa 1: allí no te espera ninguna jugada."),
            (GROUP, "Pepe dejó la partida: pierde su apuesta ($10)."),
            (
                GROUP,
                "La mesa se cerró: todos dejaron la partida; sus apuestas se quedan en el bote.",
            ),
        ]
        # the table's only human abandoned it: it ends, unpaid (issue 27, item 2)
        assert table_id not in world.manager.tables()
        assert await world.manager.balance(world.front._player(pepe)) == 990


async def _play_to_hand_end(world: TelegramWorld, table_id: str, users: list[User]) -> int:
    """Every move of the hand in play pressed at once by whoever has a keyboard; returns
    the hand's number once it is over."""
    while True:
        await world.settle()
        state = world.manager.table_state(table_id)
        assert state is not None and state.view is not None
        if state.view.outcome is not None:
            return state.view.hand_number
        user = next(u for u in users if world.move_labels(u))
        await world.play(user, world.move_labels(user)[0])


def _board_captions(world: TelegramWorld, since: int) -> list[str]:
    return [
        c.caption() or ""
        for c in world.fake.calls[since:]
        if c.method == "editMessageMedia" and c.chat_id == GROUP
    ]


async def test_a_new_hands_deal_is_drawn_with_the_openers_tile_or_alone_when_they_are_slow() -> (
    None
):
    async with TelegramWorld() as world:
        table_id, seats = await world.four_humans(GROUP, "Cuatro", "/mesa meta=500", first_id=2100)
        users = list(seats.values())
        await world.clock.advance(0)  # the countdown: the match starts
        drawing = world.front.drawing
        assert await _play_to_hand_end(world, table_id, users) == 1

        # The opener plays while the deal waits (up to 1.2 board spacings): one edit shows
        # the new hand with its first tile; the dealt board alone is never drawn.
        drawing.board_spacing = 0.5
        await asyncio.sleep(0.6)  # the last edit is a spacing ago: only the deal's wait holds
        mark = len(world.fake.calls)
        await world.clock.advance(0)  # the pause between hands is over: hand 2 is dealt
        opener = await wait_until(
            lambda: next((u for u in users if world.move_labels(u)), None), timeout=2.0
        )
        await world.play(opener, world.move_labels(opener)[0])
        hand_2 = [c for c in _board_captions(world, mark) if "Mano 2" in c]
        assert hand_2 and all("Última jugada: " in c for c in hand_2), hand_2
        assert "Última jugada: " + opener.first_name in hand_2[0]

        # An opener who takes longer than the wait: the deal is drawn alone, then the tile.
        drawing.board_spacing = 0.0
        assert await _play_to_hand_end(world, table_id, users) == 2
        drawing.board_spacing = 0.1
        mark = len(world.fake.calls)
        await world.clock.advance(0)
        await world.settle()  # the wait runs out: nobody has played
        (dealt,) = _board_captions(world, mark)
        assert "Mano 3" in dealt and "Última jugada" not in dealt
        opener = next(u for u in users if world.move_labels(u))
        assert f"Le toca a {opener.first_name}" in dealt
        await world.play(opener, world.move_labels(opener)[0])
        assert "Última jugada: " + opener.first_name in _board_captions(world, mark)[-1]


async def test_an_anonymous_admins_jugar_is_told_to_write_as_themselves_and_seats_nobody() -> None:
    async with TelegramWorld() as world:
        group = world.fake.add_group(GROUP, "Dominó")
        for text in ("/jugar", "/saldo"):
            mark = len(world.fake.calls)
            world.fake.anonymous_admin_says(group, text)
            await world.settle()
            (answer,) = [c for c in world.fake.calls[mark:] if c.method == "sendMessage"]
            assert answer.chat_id == GROUP
            assert answer.params["text"] == (
                "Escribes como el grupo (administrador anónimo), así que no sé quién eres. "
                "Para jugar, escribe como tú mismo."
            )
        assert world.manager.tables() == []


async def test_an_unknown_private_command_is_answered_with_the_help() -> None:
    async with TelegramWorld() as world:
        ana = world.fake.add_user(1001, "Ana")
        answer = await world.reply_to(world.fake.private_chat(ana), ana, "/foo bar")
        text = answer.params["text"]
        assert text.startswith("No conozco /foo.\n\nDominó de cuatro, por parejas.")
        assert "/jugar" in text


async def test_a_forged_analysis_button_naming_no_table_says_it_does_not_exist() -> None:
    async with TelegramWorld() as world:
        ana = world.fake.add_user(1001, "Ana")
        group = world.fake.add_group(GROUP, "Dominó")
        await world.table_with_robots(ana, group)
        board = world.fake.calls_to("sendPhoto", chat_id=GROUP)[0].result
        answer = await world.press(ana, board, encode_analysis("nosuchtable", None))
        assert answer.params["text"] == "Esa mesa no existe."
        assert answer.params["show_alert"] is True


async def test_a_right_to_left_name_is_isolated_so_the_sentence_keeps_its_order() -> None:
    async with TelegramWorld() as world:
        mohamed = world.fake.add_user(1001, "محمد")
        ana = world.fake.add_user(1002, "Ana")
        group = world.fake.add_group(GROUP, "Dominó")
        arabic = await world.reply_to(group, mohamed, "/saldo")
        latin = await world.reply_to(group, ana, "/saldo")
        assert arabic.params["text"] == "\u2068محمد\u2069, tu saldo: $1000"
        assert latin.params["text"] == "Ana, tu saldo: $1000"


async def test_a_player_whose_private_chat_is_closed_is_pinged_in_the_group_on_every_turn() -> None:
    async with TelegramWorld(missed_turns_limit=99) as world:
        ana = world.fake.add_user(1001, "Ana")
        group = world.fake.add_group(GROUP, "Dominó")
        await world.table_with_robots(ana, group, "/mesa meta=50")
        world.fake.started.discard(ana.id)  # Ana blocked the bot after sitting down
        refused = []
        for _ in range(400):
            refused = [c for c in world.fake.calls_to("sendPhoto", chat_id=ana.id) if not c.ok]
            if len(refused) >= 3:
                break
            when = world.clock.next_deadline()
            assert when is not None
            await world.clock.advance(max(0.0, when - world.clock.now()))
            await world.settle()
        assert len(refused) == 3  # three of her turns could not be sent to her
        said = [
            c
            for c in world.fake.calls_to("sendMessage", chat_id=GROUP)
            if "Ana" in c.params["text"] and "chat privado" in c.params["text"]
        ]
        # The first time the warning with the link; every later turn one short line.
        assert [bool(c.buttons()) for c in said] == [True, False, False]
        for ping in said[1:]:
            assert ping.params["text"] == (
                "Ana, te toca: abre nuestro chat privado para ver tus fichas."
            )
            (mention,) = ping.params["entities"]
            assert mention["type"] == "text_mention" and mention["user"]["id"] == ana.id
            assert (mention["offset"], mention["length"]) == (0, 3)


async def test_hurry_shows_a_board_waiting_for_its_spacing_at_once() -> None:
    async with TelegramWorld() as world:
        ana = world.fake.add_user(1001, "Ana")
        group = world.fake.add_group(GROUP, "Dominó")
        table_id = await world.table_with_robots(ana, group)
        await world.until_turn(ana)
        world.front.drawing.board_spacing = 600.0  # the next edit would wait 10 minutes
        mark = len(world.fake.calls)
        world.fake.press_key(ana, world.move_labels(ana)[0])
        await world.fake.drained()
        await world.manager.idle()
        await world.front.drawing.hands.idle()
        assert world.front.drawing.boards.unshown() == [table_id]  # waiting for its spacing
        board_edits = [
            c
            for c in world.fake.calls[mark:]
            if c.method == "editMessageMedia" and c.chat_id == GROUP
        ]
        assert board_edits == []
        assert world.front.unsent() == "1 board(s) (chats -1001000)"

        world.front.hurry()
        await asyncio.wait_for(world.front.idle(), 5.0)  # bounds a failure only

        board_edits = [
            c
            for c in world.fake.calls[mark:]
            if c.method == "editMessageMedia" and c.chat_id == GROUP
        ]
        assert [c.ok for c in board_edits] == [True]  # shown at once, not 10 minutes later
        assert world.front.unsent() == "nothing"


async def test_stopping_waits_no_longer_than_the_setting_counted_from_the_first_hurry(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """The run's flush and the front end's stop share one ``DOMINO_STOP_WAIT_SECONDS``:
    once it has passed since the first :meth:`hurry`, ``stop`` waits no more (it was
    waiting it a second time)."""
    async with TelegramWorld() as world:
        ana = world.fake.add_user(1001, "Ana")
        group = world.fake.add_group(GROUP, "Dominó")
        await world.table_with_robots(ana, group)
        await world.until_turn(ana)
        gate = world.fake.hold("editMessageMedia", chat_id=GROUP)  # the group board hangs
        mark = len(world.fake.calls)
        world.fake.press_key(ana, world.move_labels(ana)[0])
        await world.fake.drained()
        await world.manager.idle()
        await world.fake.wait_for("editMessageMedia", lambda c: c.chat_id == GROUP, after=mark)
        await world.front.drawing.hands.idle()
        world.front.stop_wait = 3600.0  # an hour: a wait of it would fail the test's bound
        world.front.hurry()  # the run's flush started; its hour is over (moved back):
        world.front._stop_by = asyncio.get_running_loop().time() - 1.0
        with caplog.at_level("WARNING", logger="bot.telegram.frontend"):
            await asyncio.wait_for(world.front.stop(), 30.0)  # bounds a failure only
        lines = [r.getMessage() for r in caplog.records if r.name == "bot.telegram.frontend"]
        assert lines == [f"stopping after 0 s with 1 board(s) (chats {GROUP}) still unsent"]
        gate.set()


async def test_avisos_ninguno_sends_the_turn_message_silently_and_en_cada_turno_notifies_again() -> (
    None
):
    """Issue 27.6: one notifying message per own turn, unless the player asked for none."""
    async with TelegramWorld() as world:
        ana = world.fake.add_user(1001, "Ana")
        group = world.fake.add_group(GROUP, "Dominó")
        private = world.fake.private_chat(ana)
        told = await world.reply_to(private, ana, "/avisos ninguno")
        assert told.params["text"] == (
            "Sin avisos: tus mensajes de turno llegan en silencio, con tus fichas."
        )
        await world.table_with_robots(ana, group)
        await world.until_turn(ana)
        turn = world.fake.calls_to("sendPhoto", chat_id=ana.id)[-1]
        assert "keyboard" in (turn.markup() or {})  # the turn message
        assert turn.params["disable_notification"] is True

        told = await world.reply_to(private, ana, "/avisos en cada turno")
        assert told.params["text"] == "Tu mensaje de turno te avisará en cada uno de tus turnos."
        before = len(world.fake.calls_to("sendPhoto", chat_id=ana.id))
        await world.play(ana, world.move_labels(ana)[0])
        await world.until_turn(ana)
        sent = world.fake.calls_to("sendPhoto", chat_id=ana.id)[before:]
        assert [
            ("keyboard" in (c.markup() or {}), "disable_notification" in c.params) for c in sent
        ] == [(True, False)]


async def test_avisos_without_a_choice_says_how_it_is_and_a_wrong_choice_changes_nothing() -> None:
    async with TelegramWorld() as world:
        ana = world.fake.add_user(1001, "Ana", language_code="en")
        private = world.fake.private_chat(ana)
        told = await world.reply_to(private, ana, "/notifications")
        assert told.params["text"] == (
            "Your turn message will notify you on each of your turns.\n"
            "Choose “every turn” or “none”."
        )
        told = await world.reply_to(private, ana, "/notifications sometimes")
        assert told.params["text"] == "Choose “every turn” or “none”."
        assert await world.manager.turn_notifications(world.front._player(ana)) == "turn"
        await world.reply_to(private, ana, "/notifications none")
        assert await world.manager.turn_notifications(world.front._player(ana)) == "none"
        menus = {
            c.params.get("language_code"): [
                (m["command"], m["description"]) for m in c.params["commands"]
            ]
            for c in world.fake.calls_to("setMyCommands")
        }
        assert ("avisos", "Un aviso en cada uno de tus turnos, o ninguno") in menus[None]
        assert ("notifications", "A notification on each of your turns, or none") in menus["en"]


class DrawWhenOffered:
    """A player who presses "Robar" whenever it is offered, else the first button; counts
    the draws."""

    def __init__(self) -> None:
        self.count = 0

    def __call__(self, labels: list[str]) -> str:
        if "Robar" in labels:
            self.count += 1
            return "Robar"
        return labels[0]


async def _balances(world: TelegramWorld, users: list[User]) -> list[int]:
    out = []
    for user in users:
        player = await world.storage.find_player("telegram", str(user.id))
        assert player is not None
        out.append(await world.storage.balance(player.id))
    return out


async def test_two_players_play_a_whole_one_against_one_match_from_jugar_1v1_to_the_paid_end() -> (
    None
):
    async with TelegramWorld() as world:
        ana = world.fake.add_user(3001, "Ana")
        beto = world.fake.add_user(3002, "Beto")
        group = world.fake.add_group(GROUP, "Duelo")
        await world.command(group, ana, "/jugar 1v1")
        await world.settle()
        await world.command(group, beto, "/jugar uno contra uno")
        await world.settle()
        (table_id,) = world.manager.tables_of(world.front._player(ana))
        state = world.manager.table_state(table_id)
        assert state is not None
        assert state.rules.format_key == "double_six individual 2 draw"
        assert [s.player.display_name for s in state.seats if s.player] == ["Ana", "Beto"]
        draws = DrawWhenOffered()
        presses = await world.play_out(table_id, {0: ana, 1: beto}, choose=draws)
        await world.settle()

        assert presses >= 7 and draws.count  # both played, and someone drew from the boneyard
        result = world.fake.calls_to("sendPhoto", chat_id=GROUP)[-1]
        caption = result.caption() or ""
        winner = "Ana" if "Ana gana la partida" in caption else "Beto"
        assert f"Mesa 1: ¡{winner} gana la partida" in caption
        loser = "Beto" if winner == "Ana" else "Ana"
        assert "Resultado neto (apuesta $10): " in caption
        assert f"{winner} +$10" in caption and f"{loser} −$10" in caption
        # every human stakes $10; the winner receives the stake times the seats ($20)
        balances = await _balances(world, [ana, beto])
        assert balances == ([1010, 990] if winner == "Ana" else [990, 1010])
        texts = [c.params["text"] for c in world.fake.calls_to("sendMessage", chat_id=GROUP)]
        hands = [t for t in texts if t.startswith("Mesa 1 · mano ")]
        assert hands and all(" gana " in t or "Nadie anota" in t for t in hands)
        assert world.manager.tables() == []
        # the format's own list and profile (docs/ratings.md, "Formats")
        shown, switches = [], []
        for asked in ("/top 1v1", "/perfil 1v1", "/top"):
            mark = await world.command(group, ana, asked)
            call = await world.fake.wait_for(
                "sendPhoto", lambda c: c.chat_id == GROUP, after=mark, timeout=10
            )
            shown.append((call.caption() or "").splitlines())
            switches.append([b["callback_data"] for b in call.buttons()])
        # the list's switches keep its format
        assert switches[0] and all(data.endswith(":uno-contra-uno") for data in switches[0])
        assert not any(data.endswith(":uno-contra-uno") for data in switches[2])
        top, profile, today = shown
        assert top[0] == "Rating · Duelo · Uno contra uno"
        assert [line.split(" — ")[0] for line in top[1:3]] == (
            ["1. Ana", "2. Beto"] if winner == "Ana" else ["1. Beto", "2. Ana"]
        )
        assert profile[0].startswith("Ana — ") and profile[0].endswith(
            " (provisional) · Uno contra uno"
        )
        assert today == ["Rating · Duelo", "Aquí nadie ha jugado aún una partida puntuada."]


async def test_jugar_with_a_word_naming_no_format_is_answered_with_the_formats_and_seats_nobody() -> (
    None
):
    async with TelegramWorld() as world:
        ana = world.fake.add_user(3001, "Ana")
        group = world.fake.add_group(GROUP, "Duelo")
        await world.command(group, ana, "/jugar /start")  # a player's first words: private
        answer = await world.reply_to(group, ana, "/jugar trio")
        assert answer.params["text"] == "formato puede ser 1v1, individual o cubano."
        assert world.manager.tables() == []


async def test_a_cuban_double_nine_partnership_match_with_robots_is_played_to_the_paid_end() -> (
    None
):
    async with TelegramWorld() as world:
        ana = world.fake.add_user(3001, "Ana")
        group = world.fake.add_group(GROUP, "Cubanos")
        table_id = await world.table_with_robots(ana, group, "/jugar cubano")
        state = world.manager.table_state(table_id)
        assert state is not None and state.rules.format_key == "double_nine partnership"
        tiles = await world.until_turn(ana)
        assert tiles["chat"]["id"] == ana.id
        presses = await world.play_out(table_id, {0: ana})
        await world.settle()
        assert presses >= 10  # ten tiles a hand
        caption = world.fake.calls_to("sendPhoto", chat_id=GROUP)[-1].caption() or ""
        assert "ganan la partida" in caption and "Ana " in caption
        (balance,) = await _balances(world, [ana])
        assert balance == (1010 if "Ana +$10" in caption else 990)


async def test_three_players_each_for_themselves_drawing_from_the_boneyard_play_to_the_paid_end() -> (
    None
):
    async with TelegramWorld() as world:
        ana = world.fake.add_user(3001, "Ana")
        beto = world.fake.add_user(3002, "Beto")
        group = world.fake.add_group(GROUP, "Trío")
        await world.command(group, ana, "/mesa individual jugadores=3 pozo=robar derecha=robot")
        await world.settle()
        await world.command(group, beto, "/jugar individual jugadores=3")  # not a format word
        await world.settle()
        answer = world.fake.calls_to("sendMessage", chat_id=GROUP)[-1].params["text"]
        assert answer == "formato puede ser 1v1, individual o cubano."
        await world.command(group, beto, "/jugar")  # the chat's own game: not this table
        await world.settle()
        (table_id,) = world.manager.tables_of(world.front._player(ana))
        state = world.manager.table_state(table_id)
        assert state is not None
        assert state.rules.format_key == "double_six individual 3 draw"
        assert [s.player.display_name if s.player else None for s in state.seats] == [
            "Ana",
            None,
            None,
        ]
        await world.command(group, beto, "/levantarse")
        await world.settle()
        sit = next(
            b["callback_data"]
            for b in _buttons(world.fake.message(GROUP, world.front._boards[table_id].message_id))
            if b["callback_data"].endswith(":2")
        )
        board = world.fake.message(GROUP, world.front._boards[table_id].message_id)
        assert not (await world.press(beto, board, sit)).params.get("show_alert")
        await world.settle()
        draws = DrawWhenOffered()
        presses = await world.play_out(table_id, {0: ana, 2: beto}, choose=draws)
        await world.settle()
        assert presses >= 7 and draws.count
        caption = world.fake.calls_to("sendPhoto", chat_id=GROUP)[-1].caption() or ""
        assert "gana la partida" in caption
        balances = await _balances(world, [ana, beto])
        # the winner receives the stake times the three seats ($30): +$20 net, or a robot won
        assert sorted(balances) in ([990, 1020], [990, 990])
        assert ("Ana +$20" in caption) == (balances[0] == 1020)


async def _challenge(world: TelegramWorld, group: Chat, by: User, to: User) -> Call:
    """``by`` answers a message of ``to`` with /reto; returns the challenge's board."""
    await world.answering(group, by, "/reto", to, "¿un mano a mano?")
    return world.fake.calls_to("sendPhoto", chat_id=GROUP)[-1]


async def test_a_challenge_answered_with_reto_is_accepted_by_the_challenged_and_played() -> None:
    async with TelegramWorld() as world:
        ana = world.fake.add_user(3001, "Ana")
        beto = world.fake.add_user(3002, "Beto")
        eva = world.fake.add_user(3003, "Eva")
        group = world.fake.add_group(GROUP, "Retos")
        board = await _challenge(world, group, ana, beto)
        assert (board.caption() or "").splitlines()[:2] == [
            "Mesa 1 · reto",
            "Ana reta a Beto a uno contra uno.",
        ]
        assert [b["text"] for b in board.buttons()] == ["✅ Aceptar", "❌ Rechazar"]
        accept, decline = (b["callback_data"] for b in board.buttons())
        foreign = await world.press(eva, board.result, decline)  # not hers to decline
        assert foreign.params == {
            "callback_query_id": foreign.params["callback_query_id"],
            "text": "Ese reto es para otro jugador.",
            "show_alert": True,
        }
        taken = await world.press(eva, board.result, accept)  # nor to accept
        assert taken.params.get("show_alert") is True
        accepted = await world.press(beto, board.result, accept)
        assert not accepted.params.get("show_alert")
        await world.clock.advance(0)
        await world.settle()
        (table_id,) = world.manager.tables()
        state = world.manager.table_state(table_id)
        assert state is not None and state.phase == "playing"
        assert [s.name for s in state.seats] == ["Ana", "Beto"]
        await world.play_out(table_id, {0: ana, 1: beto}, choose=DrawWhenOffered())
        await world.settle()
        assert sorted(await _balances(world, [ana, beto])) == [990, 1010]


async def test_a_challenge_declined_closes_its_table_and_the_group_is_told() -> None:
    async with TelegramWorld() as world:
        ana = world.fake.add_user(3001, "Ana")
        beto = world.fake.add_user(3002, "Beto")
        group = world.fake.add_group(GROUP, "Retos")
        board = await _challenge(world, group, ana, beto)
        decline = board.buttons()[1]["callback_data"]
        declined = await world.press(beto, board.result, decline)
        assert not declined.params.get("show_alert")
        await world.settle()
        assert world.manager.tables() == []
        said = [c.params["text"] for c in world.fake.calls_to("sendMessage", chat_id=GROUP)]
        assert said[-1] == "El reto de la mesa 1 fue rechazado; nadie pagó nada."
        assert await _balances(world, [ana]) == [1000]  # Beto never sat: no player yet
        alone = await world.reply_to(group, ana, "/reto")  # answering nobody
        assert alone.params["text"] == (
            "Responde con /reto a un mensaje del jugador al que retas, o nómbralo."
        )


async def test_a_player_at_a_live_table_and_two_slow_ones_lists_them_and_is_reminded() -> None:
    async with TelegramWorld() as world:
        ana = world.fake.add_user(3001, "Ana")
        group = world.fake.add_group(GROUP, "Lejos")
        live = await world.table_with_robots(ana, group)
        slow: list[str] = []
        for _ in range(2):
            await world.command(group, ana, "/mesa lenta robot")
            await world.settle()
            await world.clock.advance(0)
            await world.settle()
            mine = world.manager.tables_of(world.front._player(ana))
            slow += [t for t in mine if t != live and t not in slow]
        assert sorted(world.manager.tables_of(world.front._player(ana))) == sorted([*slow, live])
        states = [world.manager.table_state(t) for t in slow]
        assert all(s is not None and s.rules.turn_seconds == 12 * 3600 for s in states)
        listed = await world.reply_to(group, ana, "/mesas")
        lines = listed.params["text"].splitlines()
        assert sorted(line.split(" · ")[0] for line in lines) == ["Mesa 1", "Mesa 2", "Mesa 3"]
        assert sum(" · lenta · " in line for line in lines) == 2

        # a slow table's turn: half its 12 hours later Ana is reminded privately
        def anas_slow_turn() -> str | None:
            for table_id in slow:
                state = world.manager.table_state(table_id)
                if state is not None and state.turn == 0:
                    return table_id
            return None

        while anas_slow_turn() is None:
            await world.clock.advance(max(0.0, world.clock.next_deadline() - world.clock.now()))
            await world.settle()
        waiting = world.manager.table_state(anas_slow_turn() or "")
        assert waiting is not None and waiting.deadline is not None
        mark = len(world.fake.calls)
        await world.clock.advance(waiting.deadline - 6 * 3600 - world.clock.now())
        await world.settle()
        reminders = [
            c.params["text"]
            for c in world.fake.calls[mark:]
            if c.method == "sendMessage"
            and c.chat_id == ana.id
            and "sigue esperando" in c.params["text"]
        ]
        # this one, and the other slow table's if Ana's turn there came as early
        assert f"Mesa {waiting.label} en Lejos: tu turno sigue esperando; quedan 6 horas." in (
            reminders
        )
        labels = {world.manager.table_state(t).label for t in slow}  # type: ignore[union-attr]
        assert {r.split(" en ")[0] for r in reminders} <= {f"Mesa {label}" for label in labels}


async def test_a_slow_table_survives_a_restart_mid_hand_and_its_player_is_reminded() -> None:
    """Issue 30: a slow table's deadline is stored, not slept on: after a restart in the
    middle of Ana's 12-hour turn the table is back with the same deadline, and at half
    time she is reminded privately, the group named (asked of Telegram anew)."""
    async with TelegramWorld() as world:
        ana = world.fake.add_user(3001, "Ana")
        group = world.fake.add_group(GROUP, "Lejos")
        await world.command(group, ana, "/mesa lenta robot")
        await world.settle()
        (table_id,) = world.manager.tables_of(world.front._player(ana))
        while (state := world.manager.table_state(table_id)) is None or state.turn != 0:
            await world.clock.advance(max(0.0, world.clock.next_deadline() - world.clock.now()))
            await world.settle()
        deadline = state.deadline
        assert deadline is not None and state.rules.turn_seconds == 12 * 3600
        await world.clock.advance(3600)  # an hour into her turn the bot stops and starts
        await world.restart()
        resumed = world.manager.table_state(table_id)
        assert resumed is not None and (resumed.turn, resumed.deadline) == (0, deadline)

        mark = len(world.fake.calls)
        await world.clock.advance(deadline - 6 * 3600 - world.clock.now() - 1)
        await world.settle()
        assert [c for c in world.fake.calls[mark:] if c.chat_id == ana.id] == []
        await world.clock.advance(1)
        await world.settle()
        (reminder,) = [
            c.params["text"]
            for c in world.fake.calls[mark:]
            if c.method == "sendMessage" and c.chat_id == ana.id
        ]
        label = resumed.label
        assert reminder == f"Mesa {label} en Lejos: tu turno sigue esperando; quedan 6 horas."
        assert world.manager.table_state(table_id).turn == 0  # type: ignore[union-attr]
