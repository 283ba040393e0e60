"""Friends on Discord through the fake gateway and REST API with the real discord.py
(issue 33; bot/discord/friends.py): /domino-amigo agregar sends a request by DM with its
buttons, accepted with one; /domino-amigo lista says where the friend plays; an
invitation's DM button seats the friend; an expired one is refused; bad input is
answered with a sentence and nothing changes."""

from __future__ import annotations

from storage.base import Storage
from tests.fake_discord import FakeDiscord, FakeMessage, FakeUser, Harness


async def _slash(
    fake: FakeDiscord, user: FakeUser, guild: int, *path: str, **options: object
) -> str:
    """``user`` runs ``/path`` with ``options``; the bot's one (ephemeral) answer."""
    (answer,) = await fake.replied(await fake.slash(user, guild, *path, options=options or None))
    assert answer.ephemeral
    return answer.content


async def _dm_after(fake: FakeDiscord, user: FakeUser, seen: int) -> FakeMessage:
    """The first DM to ``user`` after the ``seen`` they had."""
    found: list[FakeMessage] = await fake.wait_until(lambda: fake.dms_to(user)[seen:] or None)
    return found[0]


async def _members(fake: FakeDiscord, harness: Harness, guild: int) -> tuple[FakeUser, FakeUser]:
    """Ana and Beto, each a player already (they asked for their balance)."""
    ana, beto = fake.add_user("Ana"), fake.add_user("Beto")
    for user in (ana, beto):
        await fake.replied(await fake.slash(user, guild, "domino", "saldo"))
    await harness.idle()
    return ana, beto


async def _befriend(
    fake: FakeDiscord, harness: Harness, guild: int, ana: FakeUser, beto: FakeUser
) -> None:
    seen = len(fake.dms_to(beto))
    await _slash(fake, ana, guild, "domino-amigo", "agregar", miembro=beto)
    await harness.idle()
    asked = await _dm_after(fake, beto, seen)
    (accepted,) = await fake.replied(await fake.click(beto, asked, asked.custom_ids()[0]))
    assert accepted.content == "Ana y tú ya son amigos."
    await harness.idle()


async def test_two_members_become_friends_and_one_invites_the_other_to_a_table(
    memory_storage: Storage, fake: FakeDiscord
) -> None:
    guild = fake.add_guild("Club")
    harness = await Harness(fake, memory_storage, fill_seconds=600.0).start()
    try:
        ana, beto = await _members(fake, harness, guild)
        ana_id = (await memory_storage.find_player("discord", str(ana.id))).id  # type: ignore[union-attr]
        seen = len(fake.dms_to(beto))
        assert await _slash(fake, ana, guild, "domino-amigo", "agregar", miembro=beto) == (
            "Le envié tu solicitud de amistad a Beto."
        )
        await harness.idle()
        asked = await _dm_after(fake, beto, seen)
        assert asked.content == "Ana te envió una solicitud de amistad."
        assert asked.custom_ids() == [f"dmf:a:{ana_id}", f"dmf:d:{ana_id}"]
        assert asked.labels() == ["Aceptar", "Rechazar"]
        seen_ana = len(fake.dms_to(ana))
        (accepted,) = await fake.replied(await fake.click(beto, asked, f"dmf:a:{ana_id}"))
        assert accepted.content == "Ana y tú ya son amigos."
        await harness.idle()
        told = await _dm_after(fake, ana, seen_ana)
        assert told.content == "Beto aceptó tu solicitud de amistad: ya son amigos."
        (stale,) = await fake.replied(await fake.click(beto, asked, f"dmf:a:{ana_id}"))
        assert stale.content == "No tienes ninguna solicitud de amistad pendiente de Ana."

        await fake.replied(await fake.slash(beto, guild, "domino", "jugar"))
        await harness.idle()
        listed = await _slash(fake, ana, guild, "domino-amigo", "lista")
        assert listed == "Tus amigos:\n• Beto: en la mesa 1 de Club · #domino"
        await fake.replied(await fake.slash(beto, guild, "domino", "levantarse"))
        await fake.replied(await fake.slash(ana, guild, "domino", "jugar"))
        await harness.idle()

        seen = len(fake.dms_to(beto))
        assert await _slash(fake, ana, guild, "domino-amigo", "invitar", miembro=beto) == (
            "Avisé a Beto: le guardo el asiento 3 durante 2 minutos."
        )
        await harness.idle()
        invited = await _dm_after(fake, beto, seen)
        assert invited.content == (
            "Ana te invita a la mesa 1 en Club · #domino. Tu asiento te espera 2 minutos."
        )
        assert invited.labels() == ["Sentarme"]
        (seated,) = await fake.replied(await fake.click(beto, invited, invited.custom_ids()[0]))
        assert seated.content == "Te sentaste en la mesa 1, asiento 3."
        await harness.idle()
        (table_id,) = harness.manager.tables()
        state = harness.manager.table_state(table_id)
        assert state.seats[2].player.user_id == str(beto.id)
    finally:
        await harness.stop()


async def test_an_invitation_nobody_took_in_two_minutes_is_refused(
    memory_storage: Storage, fake: FakeDiscord
) -> None:
    guild = fake.add_guild("Club")
    harness = await Harness(fake, memory_storage, fill_seconds=600.0).start()
    try:
        ana, beto = await _members(fake, harness, guild)
        await _befriend(fake, harness, guild, ana, beto)
        await fake.replied(await fake.slash(ana, guild, "domino", "jugar"))
        seen = len(fake.dms_to(beto))
        await _slash(fake, ana, guild, "domino-amigo", "invitar", miembro=beto)
        await harness.idle()
        invited = await _dm_after(fake, beto, seen)
        await harness.clock.advance(120)
        await harness.idle()
        (table_id,) = harness.manager.tables()
        assert harness.manager.table_state(table_id).seats[2].reserved_for is None
        (late,) = await fake.replied(await fake.click(beto, invited, invited.custom_ids()[0]))
        assert late.content == "Esa invitación venció: el asiento se guardó 2 min y ya está libre."
        assert harness.manager.table_state(table_id).seats[2].player is None
    finally:
        await harness.stop()


async def test_bad_friend_commands_get_a_sentence_and_change_nothing(
    memory_storage: Storage, fake: FakeDiscord
) -> None:
    guild = fake.add_guild("Club")
    harness = await Harness(fake, memory_storage).start()
    try:
        ana, beto = await _members(fake, harness, guild)
        stranger = fake.add_user("Nadie")
        closed = fake.add_user("Carla", dms_closed=True)
        await fake.replied(await fake.slash(closed, guild, "domino", "jugar"))  # DMs found closed
        await harness.idle()
        amigo = ("domino-amigo",)
        assert await _slash(fake, ana, guild, *amigo, "agregar", miembro=ana) == (
            "No puedes ser tu propio amigo."
        )
        assert await _slash(fake, ana, guild, *amigo, "agregar", miembro=stranger) == (
            "Nadie todavía no ha jugado conmigo: cuando juegue, podrás enviarle una solicitud."
        )
        assert await _slash(fake, ana, guild, *amigo, "agregar", miembro=closed) == (
            "No puedo enviarle mensajes directos a Carla (los tiene cerrados para este "
            "servidor), así que nunca lo vería."
        )
        assert await _slash(fake, ana, guild, *amigo, "invitar", miembro=beto) == (
            "Beto no está en tu lista de amigos."
        )
        assert await _slash(fake, ana, guild, *amigo, "quitar", miembro=beto) == (
            "Beto no está en tu lista de amigos."
        )
        assert await _slash(fake, beto, guild, *amigo, "aceptar", miembro=ana) == (
            "No tienes ninguna solicitud de amistad pendiente de Ana."
        )
        await _slash(fake, ana, guild, *amigo, "agregar", miembro=beto)
        assert await _slash(fake, ana, guild, *amigo, "agregar", miembro=beto) == (
            "Ya le enviaste una solicitud a Beto; espera su respuesta."
        )
        assert await _slash(fake, beto, guild, *amigo, "rechazar", miembro=ana) == (
            "Rechazaste la solicitud de amistad de Ana."
        )
        assert await _slash(fake, ana, guild, *amigo, "lista") == (
            "Todavía no tienes amigos aquí. `/domino-amigo agregar` envía una solicitud de amistad."
        )
        await harness.idle()
    finally:
        await harness.stop()
