"""The Discord Activity's OAuth2 on the server's side (bot/web/activity.py), against the
fake Discord's OAuth2 endpoints (tests/fake_discord.py)."""

from __future__ import annotations

import pytest

from bot.core import PlayerRef
from bot.core.clock import ManualClock
from bot.web.activity import IDENTITY_SECONDS, DiscordActivity
from bot.web.auth import AuthError, AuthFailure
from tests.fake_discord import FakeDiscord


def activity_of(
    fake: FakeDiscord, clock: ManualClock, *, secret: str | None = None
) -> DiscordActivity:
    return DiscordActivity(
        str(fake.application_id),
        secret or fake.client_secret,
        api_base=fake.api_base_url,
        clock=clock.now,
    )


async def test_a_code_is_exchanged_once_for_a_token_that_names_its_discord_member(
    fake: FakeDiscord,
) -> None:
    clock = ManualClock(1_796_083_200.0)
    activity = activity_of(fake, clock)
    ana = fake.add_user("Ana", locale="en-US")
    code = fake.authorize(ana)
    token = await activity.exchange(code)
    assert fake.access_tokens[token] == ana.id
    assert await activity.player(token) == PlayerRef("discord", str(ana.id), "Ana", "en")
    with pytest.raises(AuthError) as reused:
        await activity.exchange(code)  # Discord takes each code once
    assert reused.value.failure is AuthFailure.FORGED
    await activity.close()


async def test_made_up_codes_and_tokens_and_a_wrong_secret_are_refused(fake: FakeDiscord) -> None:
    clock = ManualClock(1_796_083_200.0)
    activity = activity_of(fake, clock)
    for bad, failure in (("", AuthFailure.MALFORMED), ("x" * 500, AuthFailure.MALFORMED),
                         ("made-up", AuthFailure.FORGED)):  # fmt: skip
        with pytest.raises(AuthError) as refused:
            await activity.exchange(bad)
        assert refused.value.failure is failure
        with pytest.raises(AuthError) as refused:
            await activity.player(bad)
        assert refused.value.failure is failure
    wrong = activity_of(fake, clock, secret="not-the-secret")
    with pytest.raises(AuthError) as refused:
        await wrong.exchange(fake.authorize(fake.add_user("Bea")))
    assert refused.value.failure is AuthFailure.FORGED
    await activity.close()
    await wrong.close()


async def test_a_tokens_owner_is_asked_of_discord_again_only_after_a_while(
    fake: FakeDiscord,
) -> None:
    clock = ManualClock(1_796_083_200.0)
    activity = activity_of(fake, clock)
    ana = fake.add_user("Ana")
    token = await activity.exchange(fake.authorize(ana))
    await activity.player(token)
    await activity.player(token)  # a reconnecting page: not asked again
    assert fake.identity_asks == 1
    del fake.access_tokens[token]  # Discord revokes it
    assert (await activity.player(token)).user_id == str(ana.id)  # still trusted a while
    await clock.advance(IDENTITY_SECONDS + 1)
    with pytest.raises(AuthError):
        await activity.player(token)
    assert fake.identity_asks == 2
    await activity.close()


def test_the_activitys_pages_come_from_discords_own_origin_for_the_application() -> None:
    activity = DiscordActivity("1234", "s", clock=lambda: 0.0)
    assert activity.origin == "https://1234.discordsays.com"
    assert activity.api_base == "https://discord.com/api/v10"
