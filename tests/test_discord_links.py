"""One player on both platforms through both fakes with the real libraries (issue 33;
docs/players.md): a code Telegram gave in a private chat is accepted with
``/domino vincular codigo:``, after which /saldo on Telegram and on Discord show one merged
balance; bad codes are refused in a sentence; ``/domino desvincular`` starts the Discord
account again at $0 and leaves the wallet on Telegram. One storage serves the two front ends, as one database serves ``domino run``'s processes."""

from __future__ import annotations

import re

from fake_telegram import TelegramWorld

from tests.fake_discord import FakeDiscord, Harness, eager_clock

CODE = re.compile(r"Tu código para vincular es ([A-Z0-9]{6})\.")


async def test_a_code_from_telegram_accepted_on_discord_makes_one_balance_on_both(
    fake: FakeDiscord,
) -> None:
    async with TelegramWorld() as world:
        ana_t = world.fake.add_user(4001, "Ana")
        private = world.fake.private_chat(ana_t)
        await world.command(private, ana_t, "/start")
        before_t = await world.reply_to(private, ana_t, "/saldo")
        guild = fake.add_guild("Club")  # before the bot starts: READY lists it
        ana_d = fake.add_user("Ana")
        # the Discord process's clock reads the same time as Telegram's
        harness = await Harness(fake, world.storage, clock=eager_clock(world.clock.now())).start()
        try:
            (before_d,) = await fake.replied(await fake.slash(ana_d, guild, "domino", "saldo"))
            given = await world.reply_to(private, ana_t, "/vincular")
            found = CODE.match(given.params["text"])
            assert found is not None
            code = found.group(1)
            assert given.params["text"] == (
                f"Tu código para vincular es {code}. En Discord, envía /domino vincular "
                f"codigo:{code} antes de 10 minutos; sirve una sola vez. Tus dos cuentas "
                "pasan a ser un solo jugador: un saldo, un rating, un historial."
            )
            (wrong,) = await fake.replied(
                await fake.slash(ana_d, guild, "domino", "vincular", options={"codigo": "ZZZ999"})
            )
            assert wrong.content == (
                "Ese código no existe: revísalo o pide uno nuevo en tu otra plataforma."
            )
            (linked,) = await fake.replied(
                await fake.slash(ana_d, guild, "domino", "vincular", options={"codigo": code})
            )
            assert linked.ephemeral
            assert linked.content == (
                "Vinculada con tu cuenta de Telegram: ahora eres un solo jugador. Tu saldo: $2000."
            )
            (reused,) = await fake.replied(
                await fake.slash(ana_d, guild, "domino", "vincular", options={"codigo": code})
            )
            assert reused.content == "Ese código ya se usó: pide uno nuevo en tu otra plataforma."
            after_t = await world.reply_to(private, ana_t, "/saldo")
            (after_d,) = await fake.replied(await fake.slash(ana_d, guild, "domino", "saldo"))
            assert [before_t.params["text"], after_t.params["text"]] == [
                "Ana, tu saldo: $1000",
                "Ana, tu saldo: $2000",
            ]
            assert before_d.content.splitlines()[0] == "Tu saldo: $1000"
            assert after_d.content.splitlines()[0] == "Tu saldo: $2000"
            assert await world.storage.check_ledger() == []

            (unlinked,) = await fake.replied(
                await fake.slash(ana_d, guild, "domino", "desvincular")
            )
            assert unlinked.content == (
                "Esta cuenta quedó desvinculada: empieza de nuevo con $0. Tu saldo, tus "
                "ratings y tu historial se quedan con tu cuenta de Telegram."
            )
            (alone,) = await fake.replied(await fake.slash(ana_d, guild, "domino", "saldo"))
            assert alone.content.splitlines()[0] == "Tu saldo: $0"
            kept = await world.reply_to(private, ana_t, "/saldo")
            assert kept.params["text"] == "Ana, tu saldo: $2000"
            assert await world.storage.check_ledger() == []
        finally:
            await harness.stop()
