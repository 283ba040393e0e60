"""A server's tournament on Discord through the fake gateway and REST API with the real
discord.py (issue 32): /domino-torneo opens it (Manage Server only), members sign up with
the command and the button under its news, it starts with the fees held, its table is
played one against one to the end, and the prizes are paid."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from test_discord_frontend import ActivityLinks, balances

from bot.core import Leave, encode_action
from storage.base import Storage
from tests.fake_discord import FakeDiscord, FakeUser, Harness, play_until_closed, turn_finder


async def test_a_knockout_is_opened_joined_played_to_the_end_and_paid(
    memory_storage: Storage, fake: FakeDiscord
) -> None:
    guild = fake.add_guild("Club")
    admin = fake.add_user("Admin", admin=True)
    ana, beto = fake.add_user("Ana"), fake.add_user("Beto")
    harness = await Harness(fake, memory_storage).start()
    channel = fake.channel_of(guild)
    try:
        options = {"tipo": "knockout", "reglas": "uno-contra-uno", "cuota": 10, "nombre": "Copa"}
        refused = await fake.replied(
            await fake.slash(ana, guild, "domino-torneo", "crear", options=options)
        )
        assert refused[0].content == (
            "Solo los administradores de este servidor (Gestionar servidor) pueden abrir, "
            "empezar o cancelar un torneo."
        )
        await fake.replied(
            await fake.slash(admin, guild, "domino-torneo", "crear", options=options)
        )
        await harness.idle()
        news = await fake.wait_until(
            lambda: [m for m in fake.messages_in(channel) if m.content.startswith("Admin abrió")]
        )
        assert news[0].content.splitlines()[0] == (
            "Admin abrió Copa: eliminatoria, Uno contra uno, cuota $10."
        )
        assert news[0].custom_ids() == ["dmj"]
        (joined,) = await fake.replied(await fake.click(ana, news[0], "dmj"))
        assert joined.content == "Quedaste inscrito en el torneo." and joined.ephemeral
        (beto_joined,) = await fake.replied(
            await fake.slash(beto, guild, "domino-torneo", "unirme")
        )
        assert beto_joined.content == "Quedaste inscrito en el torneo." and beto_joined.ephemeral
        await fake.replied(await fake.slash(admin, guild, "domino-torneo", "empezar"))
        await harness.idle()
        assert await balances(memory_storage, [ana, beto]) == [990, 990]
        (table_id,) = harness.manager.tables()
        for person in (ana, beto):  # each sits at the seat kept for them
            await fake.replied(await fake.slash(person, guild, "domino", "jugar"))
        await harness.idle()
        presses = await play_until_closed(
            fake, harness, {p.id: (lambda p=p: fake.last_dm(p)) for p in (ana, beto)}
        )
        assert {p.user.id for p in presses} == {ana.id, beto.id}
        # two places: 70/30 of the $20 pool (docs/tournaments.md, "Prize split")
        assert sorted(await balances(memory_storage, [ana, beto])) == [996, 1004]
        await harness.idle()
        over = await fake.wait_until(
            lambda: [m for m in fake.messages_in(channel) if m.content.startswith("Copa terminó")]
        )
        lines = over[0].content.splitlines()
        assert lines[1] in ("1. Ana ($14)", "1. Beto ($14)") and lines[2].endswith(" ($6)")
        assert await memory_storage.check_ledger() == []
        assert table_id not in harness.manager.tables()
    finally:
        await harness.stop()


def _club(fake: FakeDiscord) -> tuple[int, FakeUser, list[FakeUser]]:
    """A server "Club" with its admin and four members: Ana, Beto, Carla and Dani."""
    guild = fake.add_guild("Club")
    admin = fake.add_user("Admin", admin=True)
    return guild, admin, [fake.add_user(name) for name in ("Ana", "Beto", "Carla", "Dani")]


async def _signed_up(
    fake: FakeDiscord, guild: int, admin: FakeUser, people: list[FakeUser], options: dict[str, Any]
) -> None:
    """The admin opens a tournament of ``options``; each of ``people`` signs up."""
    await fake.replied(await fake.slash(admin, guild, "domino-torneo", "crear", options=options))
    for person in people:
        await fake.replied(await fake.slash(person, guild, "domino-torneo", "unirme"))


async def _play_until(
    fake: FakeDiscord, harness: Harness, people: list[FakeUser], done: Callable[[], bool]
) -> None:
    """Press each of ``people``'s move buttons as their DMs show them, until ``done``."""
    clicked: dict[int, tuple[int, tuple[str, ...]]] = {}
    find = turn_finder(
        fake, harness, {p.id: (lambda p=p: fake.last_dm(p)) for p in people}, clicked
    )
    for _ in range(2000):
        found = await fake.wait_until(lambda: "done" if done() else find(), timeout=10)
        if found == "done":
            await harness.idle()
            return
        user, message = found
        ids = [i for i in message.custom_ids() if i.startswith("dm1:m:")]
        clicked[user.id] = (message.id, tuple(ids))
        await fake.answered(await fake.click(user, message, ids[0]))
    raise AssertionError("the tables did not close")


class PageLinks(ActivityLinks):
    """The web table's links as the Discord front end asks for them (not an Activity)."""

    in_discord = False


async def test_with_the_web_table_a_rounds_picture_links_the_tournaments_page(
    memory_storage: Storage, fake: FakeDiscord
) -> None:
    guild = fake.add_guild("Club")
    admin = fake.add_user("Admin", admin=True)
    ana, beto = fake.add_user("Ana"), fake.add_user("Beto")
    harness = await Harness(fake, memory_storage).start(links=PageLinks())
    channel = fake.channel_of(guild)
    try:
        options = {"tipo": "knockout", "reglas": "uno-contra-uno", "nombre": "Copa"}
        await fake.replied(
            await fake.slash(admin, guild, "domino-torneo", "crear", options=options)
        )
        for person in (ana, beto):
            await fake.replied(await fake.slash(person, guild, "domino-torneo", "unirme"))
        await fake.replied(await fake.slash(admin, guild, "domino-torneo", "empezar"))
        await harness.idle()
        (picture,) = await fake.wait_until(
            lambda: [m for m in fake.messages_in(channel) if m.content.startswith("Copa · ronda 1")]
        )
        (tournament,) = await memory_storage.live_tournament_ids()
        assert [(b["label"], b["url"]) for b in picture.buttons()] == [
            ("Ver el torneo", f"https://mesa.example/torneo/{tournament}")
        ]
        assert [a["filename"] for a in picture.attachments] == ["torneo.png"]
    finally:
        await harness.stop()


async def test_the_channel_shows_one_featured_board_and_the_other_table_plays_by_dm(
    memory_storage: Storage, fake: FakeDiscord
) -> None:
    guild, admin, people = _club(fake)
    harness = await Harness(fake, memory_storage).start()
    channel = fake.channel_of(guild)
    try:
        options = {"tipo": "knockout", "reglas": "uno-contra-uno", "nombre": "Copa"}
        await _signed_up(fake, guild, admin, people, options)
        await fake.replied(await fake.slash(admin, guild, "domino-torneo", "empezar"))
        await harness.idle()
        states = [harness.manager.table_state(t) for t in harness.manager.tables()]
        featured, private = (s for s in states if s is not None)
        assert (featured.private, private.private) == (False, True)
        kept = {int(i.reserved_for.user_id) for i in private.seats if i.reserved_for}
        for person in people:
            if person.id not in kept:  # the featured table's players sit from the channel
                await fake.replied(await fake.slash(person, guild, "domino", "jugar"))
                continue
            told = fake.last_dm(person)
            assert told is not None and told.content.startswith(
                f"Copa: tu mesa es la {private.label}, contra "
            )
            sit = encode_action("sit", private.table_id)
            assert (told.labels(), told.custom_ids()) == (["🪑 Sentarme"], [sit])
            await fake.answered(await fake.click(person, told, sit))
        await harness.idle()
        table = f"Mesa {private.label}"

        def first_hand_told() -> bool:
            return any(
                m.content.startswith(f"{table} · mano 1: ")
                for person in people
                for m in fake.dms_to(person)
            )

        await _play_until(fake, harness, people, first_hand_told)
        for state in (private, featured):  # then everyone leaves: the last to go loses
            for info in state.seats:
                assert info.reserved_for is not None
                await harness.manager.handle(Leave(info.reserved_for, state.chat, state.table_id))
        await harness.idle()
        (final,) = [s for t in harness.manager.tables() if (s := harness.manager.table_state(t))]
        assert not final.private  # the only table of its round: the channel's
        boards = [m.embeds[0]["title"] for m in fake.messages_in(channel) if m.embeds]
        assert [b.split(" · ")[0] for b in boards] == ["Mesa 1", f"Mesa {final.label}"]
        said = [m.content for m in fake.messages_in(channel)]
        assert not [s for s in said if s.startswith(f"Mesa {private.label} ·")]
        for person in people:  # the private table's results went to its players
            results = [m.content for m in fake.dms_to(person) if m.content.startswith(table)]
            heads = [r.split(":")[0] for r in results]
            assert heads == ([f"{table} · mano 1"] if person.id in kept else [])
        await fake.replied(await fake.slash(admin, guild, "domino-torneo", "cancelar"))
        await harness.idle()
    finally:
        await harness.stop()


async def test_an_arenas_live_standings_are_one_message_edited_in_place(
    memory_storage: Storage, fake: FakeDiscord
) -> None:
    guild, admin, people = _club(fake)
    harness = await Harness(fake, memory_storage).start()
    channel = fake.channel_of(guild)
    try:
        options = {"tipo": "arena", "reglas": "uno-contra-uno", "minutos": 15, "nombre": "Arena"}
        await _signed_up(fake, guild, admin, people, options)
        await harness.idle()
        # the sign-up sheet: one message, edited at each sign-up, its button kept
        (sheet,) = [m for m in fake.messages_in(channel) if " se inscribió." in m.content]
        assert sheet.content == "Dani se inscribió.\n4 jugadores inscritos: Ana, Beto, Carla, Dani"
        assert (sheet.edits, sheet.custom_ids()) == (3, ["dmj"])
        await fake.replied(await fake.slash(admin, guild, "domino-torneo", "empezar"))
        await harness.idle()
        for _ in range(3):  # nobody sits: every 2 minutes both tables end as no-shows
            await harness.clock.advance(120)
            await harness.idle()
        (standings,) = [
            m for m in fake.messages_in(channel) if m.content.startswith("Arena · clasificación")
        ]
        # posted at 2:00, edited at 3:00, 4:00, 5:00 and 6:00: one message
        assert standings.edits == 4
        assert standings.content.splitlines()[0] == "Arena · clasificación, quedan 9 minutos"
        assert len(standings.attachments) == 1
    finally:
        await harness.stop()


async def test_an_arena_with_partners_drawn_each_round_is_opened_with_the_companeros_option(
    memory_storage: Storage, fake: FakeDiscord
) -> None:
    guild = fake.add_guild("Club")
    admin = fake.add_user("Admin", admin=True)
    harness = await Harness(fake, memory_storage).start()
    channel = fake.channel_of(guild)
    try:
        knockout = {"tipo": "knockout", "companeros": "each_round", "nombre": "Copa"}
        (refused,) = await fake.replied(
            await fake.slash(admin, guild, "domino-torneo", "crear", options=knockout)
        )
        assert refused.content == (
            "Los compañeros por sorteo cada ronda son para un suizo o una arena en parejas."
        )
        arena = {"tipo": "arena", "companeros": "each_round", "cuota": 10, "nombre": "Rueda"}
        await fake.replied(await fake.slash(admin, guild, "domino-torneo", "crear", options=arena))
        await harness.idle()
        news = await fake.wait_until(
            lambda: [m for m in fake.messages_in(channel) if m.content.startswith("Admin abrió")]
        )
        assert news[0].content.splitlines()[0] == (
            "Admin abrió Rueda: arena, compañeros por sorteo cada ronda, Venezolano, cuota $10."
        )
    finally:
        await harness.stop()
