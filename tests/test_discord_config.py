"""``/domino-config`` (bot/discord/config.py), through the real discord.py and the fake
Discord: admin rights, what is sent to the core and the rules shown after."""

from __future__ import annotations

from bot.present.labels import option_word
from storage.base import Storage
from tests.fake_discord import (
    FakeDiscord,
    Harness,
    seat_and_fill,
)


def guild_of(fake: FakeDiscord) -> int:
    return next(iter(fake.guilds))


async def test_a_member_without_manage_server_cannot_change_the_rules(
    fake: FakeDiscord, harness: Harness
) -> None:
    beto = fake.add_user("Beto")
    inter = await fake.slash(
        beto, guild_of(fake), "domino-config", options={"reglas": "internacional"}
    )
    (reply,) = await fake.replied(inter)
    assert reply.ephemeral
    assert "Solo los administradores" in reply.text()
    assert await harness.storage.get_chat_rules(f"discord:{guild_of(fake)}") is None


async def test_an_admin_changes_the_servers_rules_and_the_channel_is_told(
    fake: FakeDiscord, harness: Harness
) -> None:
    admin = fake.add_user("Admin", admin=True)
    inter = await fake.slash(
        admin,
        guild_of(fake),
        "domino-config",
        options={"reglas": "internacional", "tiempo": 30, "automatica": -1},
    )
    (reply,) = await fake.replied(inter)
    assert reply.ephemeral
    assert "• Segundos por turno: 30 *" in reply.text()
    stored = await harness.storage.get_chat_rules(f"discord:{guild_of(fake)}")
    assert stored is not None and stored.preset == "internacional"
    assert stored.rules().turn_seconds == 30
    await harness.idle()
    said = fake.messages_in(fake.channel_of(guild_of(fake)))
    # the same words as a Telegram group's: who changed them, then the rule set
    told = [m.content for m in said if m.content.startswith("Admin cambió las reglas")]
    assert told and told[0].splitlines()[:2] == [
        "Admin cambió las reglas del servidor.",
        "Reglas: Internacional",
    ]
    # /domino reglas shows them.
    rules = await fake.replied(await fake.slash(admin, guild_of(fake), "domino", "reglas"))
    assert "• Partida a: 200\n" in rules[0].text()


async def test_without_a_preset_only_the_options_typed_change_the_servers_rules(
    fake: FakeDiscord, harness: Harness
) -> None:
    admin = fake.add_user("Admin", admin=True)
    guild = guild_of(fake)
    options = {"reglas": "internacional", "tiempo": 30}
    await fake.replied(await fake.slash(admin, guild, "domino-config", options=options))
    (reply,) = await fake.replied(
        await fake.slash(admin, guild, "domino-config", options={"meta": 300})
    )
    # The core merged the target over the server's preset and turn; the answer shows the
    # merged rules it keeps.
    assert "• Partida a: 300 *" in reply.text()
    assert "• Segundos por turno: 30 *" in reply.text()
    stored = await harness.storage.get_chat_rules(f"discord:{guild}")
    assert stored is not None and stored.preset == "internacional"
    assert stored.rules().turn_seconds == 30 and stored.rules().target == 300


async def test_a_member_without_manage_server_is_told_the_servers_admins_decide(
    fake: FakeDiscord, harness: Harness
) -> None:
    beto = fake.add_user("Beto")
    bob = fake.add_user("Bob", locale="en-US")
    inter = await fake.slash(beto, guild_of(fake), "domino-config", options={"meta": 50})
    (reply,) = await fake.replied(inter)
    assert reply.text() == (
        "Solo los administradores del servidor (Gestionar servidor) pueden cambiar sus reglas."
    )
    (reply,) = await fake.replied(
        await fake.slash(bob, guild_of(fake), "domino-config", options={"meta": 50})
    )
    assert reply.text() == "Only this server's administrators (Manage Server) can change its rules."


async def test_domino_cerrar_is_refused_for_a_match_that_moves_and_for_an_admin_playing_it(
    fake: FakeDiscord, harness: Harness
) -> None:
    """Issue 27, item 3: an admin sat, left and closed her own table to get her stake back;
    a live match is closed only when stuck, and never by an admin who plays in it."""
    from bot.core import PlayerRef

    guild = guild_of(fake)
    boss = fake.add_user("Jefa", admin=True)
    await seat_and_fill(fake, harness, boss)
    [table_id] = harness.manager.tables()
    (own,) = await fake.replied(await fake.slash(boss, guild, "domino-cerrar"))
    assert own.text() == (
        "Juegas en la mesa 1 (o dejaste su partida): puede cerrarla otro administrador, y "
        "solo si se quedó trabada."
    )
    other = fake.add_user("Admin", admin=True)
    (busy,) = await fake.replied(await fake.slash(other, guild, "domino-cerrar"))
    assert busy.text() == (
        "La mesa 1 está en juego: un administrador solo puede cerrar una partida empezada "
        "cuando lleva 10 minutos sin ninguna jugada."
    )
    assert harness.manager.tables() == [table_id]
    assert await harness.manager.balance(PlayerRef("discord", str(boss.id), "Jefa")) == 990


async def test_an_admin_closes_a_stuck_table_its_stakes_come_back_and_the_channel_is_told(
    memory_storage: Storage,
    fake: FakeDiscord,
) -> None:
    fake.add_guild("Club")
    harness = await Harness(fake, memory_storage, stuck_seconds=0).start()  # all stuck
    try:
        await _close_a_stuck_table(fake, harness)
    finally:
        await harness.stop()


async def _close_a_stuck_table(fake: FakeDiscord, harness: Harness) -> None:
    from bot.core import PlayerRef

    guild = guild_of(fake)
    beto = fake.add_user("Beto")
    await seat_and_fill(fake, harness, beto)
    [table_id] = harness.manager.tables()
    player = PlayerRef("discord", str(beto.id), "Beto")
    assert await harness.manager.balance(player) == 990
    member = await fake.slash(beto, guild, "domino-cerrar")
    (refused,) = await fake.replied(member)
    assert refused.ephemeral
    assert refused.text() == (
        "Solo los administradores del servidor (Gestionar servidor) pueden cerrar sus mesas."
    )
    assert harness.manager.tables() == [table_id]
    admin = fake.add_user("Admin", admin=True)
    label = harness.manager.table_state(table_id).label
    (done,) = await fake.replied(
        await fake.slash(admin, guild, "domino-cerrar", options={"mesa": int(label)})
    )
    assert done.ephemeral
    assert done.text() == f"Cerraste la mesa {label}; se devolvieron todas las apuestas."
    await harness.idle()
    assert harness.manager.tables() == []
    assert await harness.manager.balance(player) == 1000
    said = [m.content for m in fake.messages_in(fake.channel_of(guild))]
    assert "Un administrador cerró la mesa; se devolvieron las apuestas." in said
    assert await harness.storage.check_ledger() == []


async def test_the_servers_language_chosen_in_domino_config_speaks_on_the_board_and_in_the_channel(
    fake: FakeDiscord, harness: Harness
) -> None:
    """Issue 13, item 12: group texts were always Spanish (the server's locale is es-ES);
    the admins' choice wins for the channel, each member's locale for what only they see."""
    from tests.fake_discord import board_message

    admin = fake.add_user("Admin", admin=True)
    ana = fake.add_user("Ana")
    guild = guild_of(fake)
    (reply,) = await fake.replied(
        await fake.slash(admin, guild, "domino-config", options={"idioma": "en"})
    )
    assert reply.ephemeral and reply.text() == "Hecho."
    assert await harness.storage.get_chat_language(f"discord:{guild}") == "en"
    assert await harness.storage.get_chat_rules(f"discord:{guild}") is None
    await harness.idle()
    said = [m.content for m in fake.messages_in(fake.channel_of(guild))]
    assert said == ["Admin set this server's language: English."]

    (seated,) = await fake.replied(await fake.slash(ana, guild, "domino", "jugar"))
    assert seated.ephemeral and seated.text().startswith("Te sentaste en la mesa 1")
    await harness.idle()
    embed = board_message(fake).embeds[0]
    assert embed["title"] == "Table 1 · Venezuelan"
    assert embed["description"].startswith("Waiting for players: 3 free seats.")


async def test_the_config_options_are_named_in_the_glossarys_words(
    fake: FakeDiscord, harness: Harness
) -> None:
    """Issue 13, item 28: Spanish members saw "preset", "redoblar" and "forzada"."""
    (config,) = [c for c in fake.commands[None] if c["name"] == "domino-config"]
    names = [o["name"] for o in config["options"]]
    assert {"reglas", "reparto", "automatica"} <= set(names)
    assert not {"preset", "redoblar", "forzada"} & set(names)
    english = {o["name"]: o.get("name_localizations", {}).get("en-US") for o in config["options"]}
    assert (english["reglas"], english["reparto"], english["automatica"]) == (
        "preset",
        "redeal",
        "auto",
    )
    # issue 30: the same words as everywhere else (Telegram's /config, the refusals)
    assert english["tiempo"] == "turn" and "turno" not in names
    for option in ("target", "counting", "turn_seconds", "stake", "preset"):
        assert option_word(option, "es") in names
        assert english[option_word(option, "es")] == option_word(option, "en")


async def test_an_admin_makes_the_server_slow_and_a_turn_between_the_two_paces_is_refused(
    fake: FakeDiscord, harness: Harness
) -> None:
    admin = fake.add_user("Admin", admin=True)
    guild = guild_of(fake)
    between = await fake.slash(admin, guild, "domino-config", options={"tiempo": 600})
    (refused,) = await fake.replied(between)
    assert refused.ephemeral
    assert "un número del 10 al 120 o un número del 3600 al 86400" in refused.text()
    assert await harness.storage.get_chat_rules(f"discord:{guild}") is None
    slow = await fake.slash(admin, guild, "domino-config", options={"tiempo": 43200})
    (reply,) = await fake.replied(slow)
    assert "• Segundos por turno: 43200 *" in reply.text()
    stored = await harness.storage.get_chat_rules(f"discord:{guild}")
    assert stored is not None and stored.rules().is_slow
