"""A server's tournament on Discord through the fake gateway and REST API with the real
discord.py (issue 32): /domino-torneo opens it (Manage Server only), members sign up with
the command and the button under its news, it starts with the fees held, its table is
played one against one to the end, and the prizes are paid."""

from __future__ import annotations

from test_discord_frontend import ActivityLinks, balances

from storage.base import Storage
from tests.fake_discord import FakeDiscord, Harness, play_until_closed


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
