"""Settings (bot/config.py): the environment and an optional ``.env`` file, empty values,
bad values named by their variable, tokens that never show."""

from __future__ import annotations

from pathlib import Path

import pytest
from pydantic import ValidationError

from bot.config import Settings, load_settings

NAMES = (
    "DOMINO_DB",
    "DOMINO_LOG_LEVEL",
    "DOMINO_ROBOT_LEVEL",
    "DOMINO_ROBOT_DELAY",
    "DOMINO_HAND_PAUSE",
    "DOMINO_COUNTDOWN_SECONDS",
    "DOMINO_DEFAULT_PRESET",
    "TELEGRAM_TOKEN",
    "TELEGRAM_API_BASE_URL",
    "TELEGRAM_FILE_BASE_URL",
    "DISCORD_TOKEN",
    "DISCORD_TEST_GUILD",
    "DISCORD_SHARDS",
    "DISCORD_SHARD_COUNT",
    "DISCORD_SHARD_IDS",
    "DISCORD_API_BASE_URL",
    "DOMINO_WEB_URL",
    "DOMINO_WEB_HOST",
    "DOMINO_WEB_PORT",
    "DOMINO_WEB_SECRET",
    "TELEGRAM_WEBAPP",
    "DISCORD_GATEWAY_URL",
)
TELEGRAM = "123456:ABC-telegram-secret"
DISCORD = "MTA.discord.secret"


@pytest.fixture(autouse=True)
def clean_environment(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """No setting from the machine running the tests, and no ``.env`` of the checkout."""
    for name in NAMES:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.chdir(tmp_path)


def errors_of(info: pytest.ExceptionInfo[ValidationError]) -> dict[str, str]:
    return {str(e["loc"][0]): e["msg"] for e in info.value.errors()}


def test_without_any_setting_the_defaults_host_nothing() -> None:
    settings = load_settings(None)
    assert settings.db == Path("domino.db")
    assert settings.log_level == "INFO"
    assert settings.robot_level == "experto"
    assert settings.robot_delay == 1.0
    assert (settings.hand_pause, settings.countdown_seconds) == (4.0, 5.0)
    assert settings.default_preset == "venezolano"
    assert settings.platforms == []
    assert settings.secrets() == []


def test_settings_come_from_the_environment(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("DOMINO_DB", str(tmp_path / "data" / "d.db"))
    monkeypatch.setenv("DOMINO_LOG_LEVEL", " debug ")
    monkeypatch.setenv("DOMINO_ROBOT_DELAY", "0.5")
    monkeypatch.setenv("DOMINO_HAND_PAUSE", "0")
    monkeypatch.setenv("DOMINO_COUNTDOWN_SECONDS", "2.5")
    monkeypatch.setenv("DOMINO_ROBOT_LEVEL", "maestro")
    monkeypatch.setenv("DOMINO_DEFAULT_PRESET", "dominicano")
    monkeypatch.setenv("DISCORD_TOKEN", DISCORD)
    monkeypatch.setenv("DISCORD_SHARD_COUNT", "4")
    monkeypatch.setenv("DISCORD_SHARD_IDS", " 3, 1 ")
    monkeypatch.setenv("DISCORD_TEST_GUILD", "987654321")
    monkeypatch.setenv("TELEGRAM_API_BASE_URL", "http://localhost:8081/bot")
    settings = load_settings(None)
    assert settings.db == tmp_path / "data" / "d.db"
    assert settings.log_level == "DEBUG"
    assert settings.robot_delay == 0.5
    assert (settings.hand_pause, settings.countdown_seconds) == (0.0, 2.5)
    assert settings.robot_level == "maestro"
    assert settings.default_preset == "dominicano"
    assert settings.platforms == ["discord"]
    assert settings.discord_shard_count == 4
    assert settings.discord_shard_ids == (1, 3)
    assert settings.discord_test_guild == 987654321
    assert settings.telegram_api_base_url == "http://localhost:8081/bot"


def test_a_dotenv_file_is_read_and_the_environment_wins_over_it(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    env_file = tmp_path / "bot.env"
    env_file.write_text(
        f"# the bot's settings\nTELEGRAM_TOKEN={TELEGRAM}\nDOMINO_ROBOT_LEVEL=novato\n"
        "DOMINO_LOG_LEVEL=WARNING\n",
        encoding="utf-8",
    )
    settings = load_settings(env_file)
    assert settings.platforms == ["telegram"]
    assert settings.telegram_token is not None
    assert settings.telegram_token.get_secret_value() == TELEGRAM
    assert settings.robot_level == "novato"
    monkeypatch.setenv("DOMINO_ROBOT_LEVEL", "jugador")
    assert load_settings(env_file).robot_level == "jugador"


def test_the_dotenv_of_the_working_directory_is_the_default(tmp_path: Path) -> None:
    (tmp_path / ".env").write_text(f"DISCORD_TOKEN={DISCORD}\n", encoding="utf-8")
    assert load_settings().platforms == ["discord"]


def test_a_missing_dotenv_file_is_no_error(tmp_path: Path) -> None:
    assert load_settings(tmp_path / "nowhere.env").platforms == []


def test_empty_values_mean_not_set(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in (
        "TELEGRAM_TOKEN",
        "DISCORD_TOKEN",
        "DISCORD_SHARDS",
        "DISCORD_SHARD_COUNT",
        "DISCORD_SHARD_IDS",
        "DISCORD_TEST_GUILD",
        "DISCORD_API_BASE_URL",
        "TELEGRAM_FILE_BASE_URL",
    ):
        monkeypatch.setenv(name, "  ")
    settings = load_settings(None)
    assert settings.platforms == []
    assert settings.discord_shard_count is None
    assert settings.discord_shard_ids is None
    assert settings.discord_test_guild is None
    assert settings.discord_api_base_url is None
    assert settings.telegram_file_base_url is None


def test_spaces_and_line_ends_pasted_around_a_token_are_dropped(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("TELEGRAM_TOKEN", f"  {TELEGRAM}\r\n")
    settings = load_settings(None)
    assert settings.telegram_token is not None
    assert settings.telegram_token.get_secret_value() == TELEGRAM


@pytest.mark.parametrize(
    ("name", "value", "words"),
    [
        ("DOMINO_LOG_LEVEL", "loud", "DEBUG, INFO, WARNING or ERROR"),
        ("DOMINO_ROBOT_LEVEL", "genio", "novato, aprendiz, jugador, experto, maestro"),
        ("DOMINO_ROBOT_DELAY", "11", "less than or equal to 10"),
        ("DOMINO_ROBOT_DELAY", "-1", "greater than or equal to 0"),
        ("DOMINO_ROBOT_DELAY", "soon", "valid number"),
        ("DOMINO_HAND_PAUSE", "61", "less than or equal to 60"),
        ("DOMINO_COUNTDOWN_SECONDS", "-1", "greater than or equal to 0"),
        ("DOMINO_DEFAULT_PRESET", "chino", "venezolano, internacional, espanol, dominicano"),
        ("DISCORD_SHARDS", "0", "greater than or equal to 1"),
        ("DISCORD_SHARD_COUNT", "0", "greater than or equal to 1"),
        ("DISCORD_SHARD_IDS", "0;1", "shard numbers separated by commas, e.g. 0,1"),
        ("DISCORD_SHARD_IDS", "0,,1", "shard numbers separated by commas, e.g. 0,1"),
        ("DISCORD_SHARD_IDS", "1", "needs DISCORD_SHARD_COUNT"),
        ("DISCORD_TEST_GUILD", "my server", "valid integer"),
    ],
)
def test_a_bad_value_is_refused_naming_its_variable_and_what_it_may_be(
    monkeypatch: pytest.MonkeyPatch, name: str, value: str, words: str
) -> None:
    monkeypatch.setenv(name, value)
    with pytest.raises(ValidationError) as info:
        load_settings(None)
    errors = errors_of(info)
    assert list(errors) == [name]
    assert words in errors[name]


def test_every_bad_value_is_reported_at_once(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DOMINO_LOG_LEVEL", "loud")
    monkeypatch.setenv("DISCORD_SHARDS", "-3")
    with pytest.raises(ValidationError) as info:
        load_settings(None)
    assert set(errors_of(info)) == {"DOMINO_LOG_LEVEL", "DISCORD_SHARDS"}


def test_discord_shards_is_still_read_as_the_old_name_of_the_shard_count(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("DISCORD_SHARDS", "3")
    assert load_settings(None).discord_shard_count == 3
    monkeypatch.setenv("DISCORD_SHARD_COUNT", "3")
    assert load_settings(None).discord_shard_count == 3


def test_the_shard_count_under_both_names_must_agree(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DISCORD_SHARDS", "2")
    monkeypatch.setenv("DISCORD_SHARD_COUNT", "3")
    with pytest.raises(ValidationError) as info:
        load_settings(None)
    assert errors_of(info) == {
        "DISCORD_SHARD_COUNT": "Value error, differs from DISCORD_SHARDS=2, its old name: keep one"
    }


def test_without_shard_ids_every_shard_is_served(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DISCORD_SHARD_COUNT", "2")
    settings = load_settings(None)
    assert (settings.discord_shard_count, settings.discord_shard_ids) == (2, None)


def test_shard_ids_may_come_with_the_count_under_its_old_name(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("DISCORD_SHARDS", "2")
    monkeypatch.setenv("DISCORD_SHARD_IDS", "1")
    settings = load_settings(None)
    assert (settings.discord_shard_count, settings.discord_shard_ids) == (2, (1,))


@pytest.mark.parametrize(
    ("ids", "message"),
    [
        ("0,2", "Value error, shard ids go from 0 to 1 (DISCORD_SHARD_COUNT=2), not 2"),
        ("1,1", "Value error, a shard id is given twice in 1,1"),
    ],
)
def test_shard_ids_outside_the_count_or_repeated_are_refused(
    monkeypatch: pytest.MonkeyPatch, ids: str, message: str
) -> None:
    monkeypatch.setenv("DISCORD_SHARD_COUNT", "2")
    monkeypatch.setenv("DISCORD_SHARD_IDS", ids)
    with pytest.raises(ValidationError) as info:
        load_settings(None)
    assert errors_of(info) == {"DISCORD_SHARD_IDS": message}


def test_shard_ids_without_a_count_say_which_setting_is_missing(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("DISCORD_SHARD_IDS", "0,1")
    with pytest.raises(ValidationError) as info:
        load_settings(None)
    assert errors_of(info) == {
        "DISCORD_SHARD_IDS": "Value error, needs DISCORD_SHARD_COUNT, the number of shards of "
        "the whole bot (e.g. DISCORD_SHARD_COUNT=2 with DISCORD_SHARD_IDS=0 here and 1 elsewhere)"
    }


def test_the_old_shard_setting_stays_out_of_a_dump(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DISCORD_SHARDS", "2")
    settings = load_settings(None)
    assert "discord_shards_old_name" not in settings.model_dump()
    assert "discord_shards_old_name" not in repr(settings)
    assert settings.model_dump()["discord_shard_count"] == 2


def test_tokens_never_show_in_repr_str_or_a_dump(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TELEGRAM_TOKEN", TELEGRAM)
    monkeypatch.setenv("DISCORD_TOKEN", DISCORD)
    settings = load_settings(None)
    shown = [repr(settings), str(settings), settings.model_dump_json(), str(settings.model_dump())]
    for text in shown:
        assert TELEGRAM not in text and DISCORD not in text
        assert "**********" in text
    assert settings.platforms == ["telegram", "discord"]
    assert sorted(settings.secrets()) == sorted([TELEGRAM, DISCORD])


def test_a_validation_error_never_repeats_a_token(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TELEGRAM_TOKEN", TELEGRAM)
    monkeypatch.setenv("DOMINO_ROBOT_DELAY", "fast")
    with pytest.raises(ValidationError) as info:
        load_settings(None)
    assert TELEGRAM not in str(info.value)


def test_settings_can_be_built_directly_with_the_variable_names() -> None:
    settings = Settings(DOMINO_DB="x.db", DOMINO_ROBOT_DELAY=0)  # type: ignore[call-arg]
    assert settings.db == Path("x.db") and settings.robot_delay == 0


def test_a_postgresql_url_in_domino_db_stays_whole() -> None:
    url = "postgresql://bot:pw@db.example:5432/domino"
    settings = Settings(DOMINO_DB=f" {url} ")  # type: ignore[call-arg]
    assert settings.db == url
    assert Settings(DOMINO_DB="postgres://bot@db/domino").db == "postgres://bot@db/domino"  # type: ignore[call-arg]


def test_the_web_table_needs_an_https_address_and_is_off_without_one(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    assert load_settings(None).web_url is None
    monkeypatch.setenv("DOMINO_WEB_URL", "https://mesa.example.com/")
    monkeypatch.setenv("DOMINO_WEB_PORT", "9000")
    settings = load_settings(None)
    assert (settings.web_url, settings.web_host, settings.web_port) == (
        "https://mesa.example.com",
        "127.0.0.1",
        9000,
    )
    monkeypatch.setenv("DOMINO_WEB_URL", "http://mesa.example.com")
    with pytest.raises(ValidationError) as info:
        load_settings(None)
    assert "https" in errors_of(info)["DOMINO_WEB_URL"]
    monkeypatch.setenv("DOMINO_WEB_URL", "http://127.0.0.1:8080")
    assert load_settings(None).web_url == "http://127.0.0.1:8080"


def test_the_web_secret_is_redacted_like_the_tokens(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DOMINO_WEB_SECRET", "s3cret-key")
    settings = load_settings(None)
    assert "s3cret-key" not in repr(settings)
    assert "s3cret-key" in settings.secrets()


def test_the_lease_times_default_to_5_20_and_5_seconds_and_are_settings(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from bot.core.ownership import LeaseTimes

    assert Settings(_env_file=None).lease_times() == LeaseTimes(5.0, 20.0, 5.0)
    monkeypatch.setenv("DOMINO_LEASE_HEARTBEAT_SECONDS", "0.5")
    monkeypatch.setenv("DOMINO_LEASE_TAKEOVER_SECONDS", "2")
    monkeypatch.setenv("DOMINO_STANDBY_SECONDS", "0.25")
    assert Settings(_env_file=None).lease_times() == LeaseTimes(0.5, 2.0, 0.25)


def test_the_wait_for_unsent_messages_at_stop_defaults_to_3_seconds_and_is_a_setting(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    assert Settings(_env_file=None).stop_wait_seconds == 3.0
    monkeypatch.setenv("DOMINO_STOP_WAIT_SECONDS", "0.5")
    assert Settings(_env_file=None).stop_wait_seconds == 0.5
    monkeypatch.setenv("DOMINO_STOP_WAIT_SECONDS", "-1")
    with pytest.raises(ValidationError):
        Settings(_env_file=None)


def test_telegram_pacing_defaults_to_its_limits_and_is_a_setting(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    settings = Settings(_env_file=None)
    assert (settings.telegram_board_spacing, settings.telegram_private_gap) == (5.0, 1.0)
    monkeypatch.setenv("DOMINO_TELEGRAM_BOARD_SPACING", "0")
    monkeypatch.setenv("DOMINO_TELEGRAM_PRIVATE_GAP", "0")
    settings = Settings(_env_file=None)
    assert (settings.telegram_board_spacing, settings.telegram_private_gap) == (0.0, 0.0)
    monkeypatch.setenv("DOMINO_TELEGRAM_PRIVATE_GAP", "11")
    with pytest.raises(ValidationError):
        Settings(_env_file=None)


def test_a_takeover_time_not_above_the_heartbeat_is_refused(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("DOMINO_LEASE_HEARTBEAT_SECONDS", "5")
    monkeypatch.setenv("DOMINO_LEASE_TAKEOVER_SECONDS", "5")
    with pytest.raises(ValidationError) as refused:
        Settings(_env_file=None)
    assert "must be more than DOMINO_LEASE_HEARTBEAT_SECONDS (5)" in str(refused.value)


def test_the_discord_activitys_id_and_secret_go_together_and_the_secret_is_redacted(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("DISCORD_CLIENT_ID", "1234")
    with pytest.raises(ValidationError) as alone:
        load_settings(env_file=None)
    assert "DISCORD_CLIENT_ID and DISCORD_CLIENT_SECRET go together" in str(alone.value)
    monkeypatch.setenv("DISCORD_CLIENT_SECRET", " s3cret \n")
    settings = load_settings(env_file=None)
    assert settings.discord_client_id == "1234"
    assert settings.discord_client_secret is not None
    assert settings.discord_client_secret.get_secret_value() == "s3cret"
    assert "s3cret" in settings.secrets()
