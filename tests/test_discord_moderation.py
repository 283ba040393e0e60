"""Mute, report and moderation on Discord through the fake gateway and REST API with the
real discord.py (issue 33): ``/domino silenciar`` hides a member's phrases from the
channel, ``/domino reportar`` reaches the server's admins (by DM, or in the channel they
chose with ``/domino-moderar canal``), an admin bans with the report's button and the
banned member is refused a seat; bad input is refused with a sentence."""

from __future__ import annotations

from bot.core import encode_action
from storage.base import Storage
from tests.fake_discord import FakeDiscord, Harness


async def test_a_muted_members_phrases_leave_the_channel_until_unmuted(
    memory_storage: Storage, fake: FakeDiscord
) -> None:
    guild = fake.add_guild("Club")
    ana, beto = fake.add_user("Ana"), fake.add_user("Beto")
    harness = await Harness(fake, memory_storage).start()
    channel = fake.channel_of(guild)
    try:
        for person in (ana, beto):
            await fake.replied(await fake.slash(person, guild, "domino", "jugar"))
        await harness.idle()
        (table_id,) = harness.manager.tables()
        board = next(m for m in fake.messages_in(channel) if m.embeds)
        (muted,) = await fake.replied(
            await fake.slash(ana, guild, "domino", "silenciar", options={"miembro": beto})
        )
        assert muted.ephemeral
        assert muted.content == "Silenciaste a Beto: sus frases ya no te llegan. Nadie se entera."
        emote = encode_action("emote", table_id, "buena")
        await fake.answered(await fake.click(beto, board, emote))
        await harness.idle()
        assert [m.content for m in fake.messages_in(channel) if "¡Buena!" in m.content] == []

        options = {"miembro": beto, "quitar": True}
        (heard,) = await fake.replied(
            await fake.slash(ana, guild, "domino", "silenciar", options=options)
        )
        assert heard.content == "Vuelves a oír a Beto."
        await harness.clock.advance(6)  # one phrase every 5 seconds
        await fake.answered(await fake.click(beto, board, emote))
        await harness.idle()
        assert [m.content for m in fake.messages_in(channel) if "¡Buena!" in m.content] == [
            "Beto: ¡Buena!"
        ]
    finally:
        await harness.stop()


async def test_a_report_reaches_the_owner_who_bans_and_the_member_is_refused_a_seat(
    memory_storage: Storage, fake: FakeDiscord
) -> None:
    guild = fake.add_guild("Club")
    fake.users[fake.owner.id] = fake.owner  # the server's owner can be written to
    admin = fake.add_user("Admin", admin=True)
    ana, beto = fake.add_user("Ana"), fake.add_user("Beto")
    harness = await Harness(fake, memory_storage).start()
    try:
        options = {"miembro": beto, "motivo": "abusive_name"}
        (thanks,) = await fake.replied(
            await fake.slash(ana, guild, "domino", "reportar", options=options)
        )
        assert thanks.ephemeral and thanks.content == (
            "Gracias: tu reporte sobre Beto llegó a los administradores de este grupo."
        )
        report = await fake.wait_until(lambda: fake.last_dm(fake.owner))
        assert report.content == "Reporte 1: Ana reportó a Beto por nombre ofensivo."
        assert report.custom_ids() == [f"dmm:d:1:{guild}", f"dmm:b:1:{guild}"]
        assert report.labels() == ["Descartar", "Vetar"]
        (again,) = await fake.replied(
            await fake.slash(ana, guild, "domino", "reportar", options=options)
        )
        assert again.content == "Ya reportaste a Beto: los administradores tienen tu reporte."

        (not_admin,) = await fake.replied(await fake.click(beto, report, f"dmm:b:1:{guild}"))
        assert not_admin.content == (
            "Solo los administradores de este servidor (Gestionar servidor) pueden moderar."
        )
        (banned,) = await fake.replied(await fake.click(fake.owner, report, f"dmm:b:1:{guild}"))
        assert banned.content == "Reporte 1: el jugador quedó vetado en las mesas de este grupo."
        (stale,) = await fake.replied(await fake.click(fake.owner, report, f"dmm:d:1:{guild}"))
        assert stale.content == "El reporte número 1 ya fue atendido."

        (refused,) = await fake.replied(await fake.slash(beto, guild, "domino", "jugar"))
        assert refused.content == "Estás vetado en las mesas de este grupo."
        assert harness.manager.tables() == []

        (desk,) = await fake.replied(await fake.slash(admin, guild, "domino-moderar", "ver"))
        assert desk.content == (
            "No hay reportes abiertos.\nVetados: Beto.\nÚltimas acciones:\nOwner vetó a Beto."
        )
        (forgiven,) = await fake.replied(
            await fake.slash(admin, guild, "domino-moderar", "perdonar", options={"miembro": beto})
        )
        assert forgiven.content == "Beto puede volver a sentarse en las mesas de este grupo."
    finally:
        await harness.stop()


async def test_reports_go_to_the_channel_an_admin_chose_and_only_admins_moderate(
    memory_storage: Storage, fake: FakeDiscord
) -> None:
    guild = fake.add_guild("Club", channels=("domino", "moderacion"))
    admin = fake.add_user("Admin", admin=True)
    ana, beto = fake.add_user("Ana"), fake.add_user("Beto")
    fake.users[fake.owner.id] = fake.owner
    harness = await Harness(fake, memory_storage).start()
    reports = fake.channel_of(guild, 1)
    try:
        (refused,) = await fake.replied(
            await fake.slash(ana, guild, "domino-moderar", "canal", channel_id=reports)
        )
        assert refused.content == (
            "Solo los administradores de este servidor (Gestionar servidor) pueden moderar."
        )
        (chosen,) = await fake.replied(
            await fake.slash(admin, guild, "domino-moderar", "canal", channel_id=reports)
        )
        assert chosen.content == "Los reportes se publicarán en este canal."
        (myself,) = await fake.replied(
            await fake.slash(
                ana, guild, "domino", "reportar", options={"miembro": ana, "motivo": "other"}
            )
        )
        assert myself.content == "No puedes hacerte eso a ti mismo."
        options = {"miembro": beto, "motivo": "left_on_purpose"}
        await fake.replied(await fake.slash(ana, guild, "domino", "reportar", options=options))
        posted = await fake.wait_until(lambda: fake.messages_in(reports))
        assert [m.content for m in posted] == [
            "Reporte 1: Ana reportó a Beto por dejar la mesa a propósito."
        ]
        assert fake.dms_to(fake.owner) == []
        (dismissed,) = await fake.replied(await fake.click(admin, posted[0], f"dmm:d:1:{guild}"))
        assert dismissed.content == "Reporte 1 descartado."
        (unknown,) = await fake.replied(
            await fake.slash(admin, guild, "domino-moderar", "descartar", options={"numero": 7})
        )
        assert unknown.content == "No hay un reporte número 7 en este grupo."
    finally:
        await harness.stop()
