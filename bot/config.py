"""The bot's settings, read from the environment and an optional ``.env`` file.

Every setting is documented here and in the README's configuration table. Tokens are
:class:`pydantic.SecretStr`, so they never show in a ``repr``, a log line or an error.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

from pydantic import (
    AliasChoices,
    Field,
    SecretStr,
    ValidationInfo,
    field_validator,
    model_validator,
)
from pydantic_settings import BaseSettings, NoDecode, SettingsConfigDict

from bot.core.ownership import LeaseTimes
from bot.discord_shards import served_shards
from bot.pacing import BOARD_SPACING, PRIVATE_GAP
from engine.rules import PRESET_NAMES
from storage import is_postgres_url

__all__ = ["Settings", "load_settings"]

LEVELS = ("novato", "aprendiz", "jugador", "experto", "maestro")


class Settings(BaseSettings):
    """Configuration of ``domino run`` / ``domino doctor``.

    Attributes:
        db: the database (``DOMINO_DB``): a SQLite file (default ``domino.db`` in the
            working directory), or a ``postgresql://user:password@host/database`` URL
            (kept as a string) for PostgreSQL.
        log_level: ``DOMINO_LOG_LEVEL``: DEBUG, INFO, WARNING or ERROR.
        robot_level: ``DOMINO_ROBOT_LEVEL``: the level of robots that fill seats.
        robot_delay: ``DOMINO_ROBOT_DELAY``: seconds a robot waits before moving (the same
            for every move, so its speed tells nothing; robots.md "Table manners").
        hand_pause: ``DOMINO_HAND_PAUSE``: seconds (0–60) between a hand's result and the
            next deal.
        countdown_seconds: ``DOMINO_COUNTDOWN_SECONDS``: seconds (0–60) from a full table
            to its first deal.
        default_preset: ``DOMINO_DEFAULT_PRESET``: rules of a chat whose admins chose none.
        instance: ``DOMINO_INSTANCE``: this process's name in the table leases and logs
            (default: the host name); give each process of a multi-process deployment
            its own (README, "More than one machine").
        lease_heartbeat_seconds: ``DOMINO_LEASE_HEARTBEAT_SECONDS`` (default 5): how often
            a running process renews its table leases (and retries a failed renewal).
        lease_takeover_seconds: ``DOMINO_LEASE_TAKEOVER_SECONDS`` (default 20): a lease
            not renewed for this long is taken over by a standby, and dropped by its
            holder (more than the heartbeat).
        standby_seconds: ``DOMINO_STANDBY_SECONDS`` (default 5): how often a standby
            looks whether a lease it waits for became free.
        stop_wait_seconds: ``DOMINO_STOP_WAIT_SECONDS`` (default 3, 0–60): on SIGTERM
            or Ctrl-C, how long each platform may take to send what it still holds (a
            turn's buttons, the newest board); what is still unsent then is logged.
        telegram_board_spacing: ``DOMINO_TELEGRAM_BOARD_SPACING`` (default 5, 0–60): the
            fewest seconds between two edits of a group's board on Telegram (its limit of
            20 messages a minute per group; the moves made meanwhile come in one edit).
        telegram_private_gap: ``DOMINO_TELEGRAM_PRIVATE_GAP`` (default 1, 0–10): seconds
            between two requests in one private chat on Telegram (its one message a
            second there). Lower values are for a self-hosted test server only.
        telegram_token: ``TELEGRAM_TOKEN`` from BotFather; Telegram is off without it.
        telegram_api_base_url: ``TELEGRAM_API_BASE_URL``: a self-hosted Bot API server
            (e.g. ``http://localhost:8081/bot``); empty for Telegram's own.
        telegram_file_base_url: ``TELEGRAM_FILE_BASE_URL``: its file URL.
        discord_token: ``DISCORD_TOKEN`` of the application's bot; Discord is off
            without it.
        discord_test_guild: ``DISCORD_TEST_GUILD``: sync the slash commands to this
            server only (instant, for testing) instead of globally.
        discord_shard_count: ``DISCORD_SHARD_COUNT`` (also read under its old name
            ``DISCORD_SHARDS``): the number of shards of the whole bot; empty lets
            Discord choose (and this process opens them all).
        discord_shard_ids: ``DISCORD_SHARD_IDS``: the shards this process connects,
            e.g. ``0,1`` (sorted; each below the count, which it needs); empty for all.
            Several processes split a bot's servers this way (bot/discord_shards.py).
        discord_api_base_url: ``DISCORD_API_BASE_URL``: a REST proxy (e.g.
            ``http://proxy:8080/api/v10``); empty for Discord's own.
        discord_gateway_url: ``DISCORD_GATEWAY_URL``: a gateway proxy (``ws://...``).
        discord_client_id, discord_client_secret: ``DISCORD_CLIENT_ID`` (the
            application's id) and ``DISCORD_CLIENT_SECRET`` (its OAuth2 secret): with
            ``DOMINO_WEB_URL``, the web table is also a Discord Activity (README, "The web
            table inside Discord"); both or neither.
        web_url: ``DOMINO_WEB_URL``: the public https address of the web table (README,
            "The web table"); the web table is off without it.
        web_host, web_port: ``DOMINO_WEB_HOST`` (default 127.0.0.1, behind a reverse
            proxy) and ``DOMINO_WEB_PORT`` (default 8080) it listens on.
        web_secret: ``DOMINO_WEB_SECRET``: the key that signs seat links; derived from
            the bot tokens when empty (links then survive restarts, not token changes).
        telegram_webapp: ``TELEGRAM_WEBAPP``: the Mini App's short name given to
            BotFather (``/newapp``), for the board's "open the table" link in groups.
    """

    model_config = SettingsConfigDict(env_file=".env", env_file_encoding="utf-8", extra="ignore")

    db: Path | str = Field(Path("domino.db"), validation_alias=AliasChoices("DOMINO_DB"))
    log_level: str = Field("INFO", validation_alias=AliasChoices("DOMINO_LOG_LEVEL"))
    robot_level: str = Field("experto", validation_alias=AliasChoices("DOMINO_ROBOT_LEVEL"))
    robot_delay: float = Field(
        1.0, ge=0, le=10, validation_alias=AliasChoices("DOMINO_ROBOT_DELAY")
    )
    hand_pause: float = Field(4.0, ge=0, le=60, validation_alias=AliasChoices("DOMINO_HAND_PAUSE"))
    countdown_seconds: float = Field(
        5.0, ge=0, le=60, validation_alias=AliasChoices("DOMINO_COUNTDOWN_SECONDS")
    )
    default_preset: str = Field(
        "venezolano", validation_alias=AliasChoices("DOMINO_DEFAULT_PRESET")
    )
    instance: str | None = Field(
        None, pattern=r"^[A-Za-z0-9._-]{1,64}$", validation_alias=AliasChoices("DOMINO_INSTANCE")
    )
    lease_heartbeat_seconds: float = Field(
        5.0, gt=0, le=600, validation_alias=AliasChoices("DOMINO_LEASE_HEARTBEAT_SECONDS")
    )
    lease_takeover_seconds: float = Field(
        20.0, gt=0, le=3600, validation_alias=AliasChoices("DOMINO_LEASE_TAKEOVER_SECONDS")
    )
    standby_seconds: float = Field(
        5.0, gt=0, le=600, validation_alias=AliasChoices("DOMINO_STANDBY_SECONDS")
    )
    stop_wait_seconds: float = Field(
        3.0, ge=0, le=60, validation_alias=AliasChoices("DOMINO_STOP_WAIT_SECONDS")
    )
    telegram_board_spacing: float = Field(
        BOARD_SPACING, ge=0, le=60, validation_alias=AliasChoices("DOMINO_TELEGRAM_BOARD_SPACING")
    )
    telegram_private_gap: float = Field(
        PRIVATE_GAP, ge=0, le=10, validation_alias=AliasChoices("DOMINO_TELEGRAM_PRIVATE_GAP")
    )
    telegram_token: SecretStr | None = Field(None, validation_alias=AliasChoices("TELEGRAM_TOKEN"))
    telegram_api_base_url: str | None = Field(
        None, validation_alias=AliasChoices("TELEGRAM_API_BASE_URL")
    )
    telegram_file_base_url: str | None = Field(
        None, validation_alias=AliasChoices("TELEGRAM_FILE_BASE_URL")
    )
    discord_token: SecretStr | None = Field(None, validation_alias=AliasChoices("DISCORD_TOKEN"))
    discord_test_guild: int | None = Field(
        None, validation_alias=AliasChoices("DISCORD_TEST_GUILD")
    )
    # DISCORD_SHARDS is the old name of DISCORD_SHARD_COUNT, still read because deployed .env
    # files use it; a field of its own so that an error names the variable that was set.
    discord_shards_old_name: int | None = Field(
        None, ge=1, exclude=True, repr=False, validation_alias=AliasChoices("DISCORD_SHARDS")
    )
    discord_shard_count: int | None = Field(
        None, ge=1, validate_default=True, validation_alias=AliasChoices("DISCORD_SHARD_COUNT")
    )
    discord_shard_ids: Annotated[tuple[int, ...] | None, NoDecode] = Field(
        None, validate_default=True, validation_alias=AliasChoices("DISCORD_SHARD_IDS")
    )
    discord_api_base_url: str | None = Field(
        None, validation_alias=AliasChoices("DISCORD_API_BASE_URL")
    )
    discord_gateway_url: str | None = Field(
        None, validation_alias=AliasChoices("DISCORD_GATEWAY_URL")
    )
    discord_client_id: str | None = Field(None, validation_alias=AliasChoices("DISCORD_CLIENT_ID"))
    discord_client_secret: SecretStr | None = Field(
        None, validation_alias=AliasChoices("DISCORD_CLIENT_SECRET")
    )

    web_url: str | None = Field(None, validation_alias=AliasChoices("DOMINO_WEB_URL"))
    web_host: str = Field("127.0.0.1", validation_alias=AliasChoices("DOMINO_WEB_HOST"))
    web_port: int = Field(8080, ge=1, le=65535, validation_alias=AliasChoices("DOMINO_WEB_PORT"))
    web_secret: SecretStr | None = Field(None, validation_alias=AliasChoices("DOMINO_WEB_SECRET"))
    telegram_webapp: str | None = Field(None, validation_alias=AliasChoices("TELEGRAM_WEBAPP"))

    @field_validator("web_url")
    @classmethod
    def _web_url(cls, value: str | None) -> str | None:
        if value is None or not value.strip():
            return None
        url = value.strip().rstrip("/")
        if not (url.startswith("https://") or url.startswith("http://127.0.0.1")
                or url.startswith("http://localhost")):  # fmt: skip
            raise ValueError("must be an https:// address (http only for localhost)")
        return url

    @field_validator(
        "instance",
        "web_secret",
        "telegram_webapp",
        "telegram_token",
        "discord_token",
        "telegram_api_base_url",
        "telegram_file_base_url",
        "discord_api_base_url",
        "discord_gateway_url",
        "discord_client_id",
        "discord_client_secret",
        "discord_test_guild",
        "discord_shards_old_name",
        "discord_shard_count",
        mode="before",
    )
    @classmethod
    def _empty_is_none(cls, value: object) -> object:
        # An empty value means "not set"; spaces or a line end pasted around a token
        # would make the platform refuse it.
        if isinstance(value, str):
            return value.strip() or None
        return value

    @field_validator("discord_shard_count")
    @classmethod
    def _shard_count(cls, value: int | None, info: ValidationInfo) -> int | None:
        old_name = info.data.get("discord_shards_old_name")
        if value is None:
            return old_name
        if old_name is not None and old_name != value:
            raise ValueError(f"differs from DISCORD_SHARDS={old_name}, its old name: keep one")
        return value

    @field_validator("discord_shard_ids", mode="before")
    @classmethod
    def _shard_ids_list(cls, value: object) -> object:
        # "0,1" in the environment; pydantic-settings would read a list as JSON.
        if not isinstance(value, str):
            return value
        if not value.strip():
            return None
        parts = [part.strip() for part in value.split(",")]
        if not all(part.isascii() and part.isdigit() for part in parts):
            raise ValueError("must be shard numbers separated by commas, e.g. 0,1")
        return [int(part) for part in parts]

    @field_validator("discord_shard_ids")
    @classmethod
    def _shard_ids(
        cls, value: tuple[int, ...] | None, info: ValidationInfo
    ) -> tuple[int, ...] | None:
        if value is None or "discord_shard_count" not in info.data:
            return value  # all shards, or the count's own error is reported
        return served_shards(value, info.data["discord_shard_count"])

    @field_validator("lease_takeover_seconds")
    @classmethod
    def _takeover(cls, value: float, info: ValidationInfo) -> float:
        heartbeat = info.data.get("lease_heartbeat_seconds")
        if heartbeat is not None and value <= heartbeat:
            raise ValueError(f"must be more than DOMINO_LEASE_HEARTBEAT_SECONDS ({heartbeat:g})")
        return value

    def lease_times(self) -> LeaseTimes:
        """The lease timings these settings name (``bot.core.ownership.LeaseTimes``)."""
        return LeaseTimes(
            heartbeat=self.lease_heartbeat_seconds,
            takeover=self.lease_takeover_seconds,
            standby=self.standby_seconds,
        )

    @field_validator("db", mode="before")
    @classmethod
    def _db(cls, value: object) -> object:
        # A path collapses the "//" of a URL: a PostgreSQL URL stays a string.
        if isinstance(value, str):
            return value.strip() if is_postgres_url(value.strip()) else Path(value)
        return value

    @field_validator("log_level")
    @classmethod
    def _level(cls, value: str) -> str:
        level = value.strip().upper()
        if level not in ("DEBUG", "INFO", "WARNING", "ERROR"):
            raise ValueError("must be DEBUG, INFO, WARNING or ERROR")
        return level

    @field_validator("robot_level")
    @classmethod
    def _robot_level(cls, value: str) -> str:
        if value not in LEVELS:
            raise ValueError(f"must be one of {', '.join(LEVELS)}")
        return value

    @field_validator("default_preset")
    @classmethod
    def _preset(cls, value: str) -> str:
        if value not in PRESET_NAMES:
            raise ValueError(f"must be one of {', '.join(PRESET_NAMES)}")
        return value

    @model_validator(mode="after")
    def _activity_pair(self) -> Settings:
        if (self.discord_client_id is None) != (self.discord_client_secret is None):
            raise ValueError(
                "DISCORD_CLIENT_ID and DISCORD_CLIENT_SECRET go together (the Discord "
                "Activity needs both)"
            )
        return self

    def secrets(self) -> list[str]:
        """The token values, for redacting them from every log line."""
        out = []
        tokens = (self.telegram_token, self.discord_token, self.web_secret)
        for token in (*tokens, self.discord_client_secret):
            if token is not None and token.get_secret_value():
                out.append(token.get_secret_value())
        return out

    @property
    def platforms(self) -> list[str]:
        """The platforms whose token is set."""
        names = []
        if self.telegram_token is not None:
            names.append("telegram")
        if self.discord_token is not None:
            names.append("discord")
        return names


def load_settings(env_file: str | Path | None = ".env", *, db: str | None = None) -> Settings:
    """Read the settings (environment first, then ``env_file`` if it exists); ``db``, when
    given, is the database instead of ``DOMINO_DB`` (a command's ``--db``).

    Raises:
        pydantic.ValidationError: a setting has a bad value (the message names it).
    """
    settings = Settings(_env_file=env_file)
    if db is None:
        return settings
    return settings.model_copy(update={"db": Settings._db(db)})
