"""Settings from the environment and an optional ``.env`` file, validated once at start.

The environment wins over ``.env`` (so a deployment can override a file), and an empty value
counts as unset at either level (``.env.example`` ships ``DISCORD_TOKEN=``).
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from dotenv import dotenv_values

from dealerbot.shard_settings import parse_shards
from dealerbot.store.dburl import DatabaseUrlError, parse_target
from dealerbot.store.validate import is_id

LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")
DEFAULT_DATABASE_PATH = "dealerbot.sqlite3"
DEFAULT_API_BASE = "https://discord.com/api/v10"
DEFAULT_GATEWAY_URL = "wss://gateway.discord.gg"
# Discord's global limit is 50 requests/s per bot token; one process keeps a margin under it.
DISCORD_GLOBAL_PER_SECOND = 50
DEFAULT_REST_BUDGET = 45


class SettingsError(ValueError):
    """A missing or malformed setting; the message names the variable and what it needs."""


@dataclass(frozen=True, slots=True)
class Settings:
    discord_token: str | None
    database_path: Path
    log_level: str = "INFO"
    dev_guild_id: int | None = None
    discord_api_base: str = DEFAULT_API_BASE
    discord_gateway_url: str = DEFAULT_GATEWAY_URL
    table_repost_cooldown: float = 30.0  # TABLE_REPOST_COOLDOWN: seconds between /stud table
    turn_alert_seconds: float = 10.0  # TURN_ALERT_SECONDS: a turn's wait before its DM alert
    log_secrets: bool = False  # LOG_SECRETS=1: development only, lets cards reach DEBUG logs
    database_url: str | None = None  # DATABASE_URL; unset: SQLite at database_path
    shard_count: int | None = None  # SHARD_COUNT; unset: discord.py decides, all shards here
    shard_ids: tuple[int, ...] | None = None  # SHARD_IDS: this process's shards
    # REST_BUDGET: this process's share of Discord's global 50 requests/s, which is per bot
    # token across every process (README: Running several processes).
    rest_budget: int = DEFAULT_REST_BUDGET

    @property
    def database(self) -> str:
        """What to open: DATABASE_URL, else the SQLite file DATABASE_PATH."""
        return self.database_url or str(self.database_path)

    @property
    def database_display(self) -> str:
        """The database for messages: the file, or the URL without its password."""
        return parse_target(self.database).display

    def require_token(self) -> str:
        """The bot token, or a SettingsError that says where to put it."""
        if not self.discord_token:
            raise SettingsError(
                "DISCORD_TOKEN is not set: put the bot token in .env (see .env.example) "
                "or in the environment"
            )
        return self.discord_token


def _url(name: str, value: str, schemes: tuple[str, ...]) -> str:
    scheme, sep, rest = value.partition("://")
    if not sep or scheme not in schemes or not rest.strip("/"):
        raise SettingsError(f"{name} must be a {' or '.join(schemes)} URL, not {value!r}")
    return value.rstrip("/")


def load_settings(
    environ: Mapping[str, str] | None = None,
    *,
    env_file: str | Path | None = ".env",
    require_token: bool = False,
) -> Settings:
    """Read and validate settings; ``environ`` defaults to ``os.environ``."""
    values: dict[str, str] = {}
    if env_file is not None and Path(env_file).is_file():
        values.update({k: v for k, v in dotenv_values(env_file).items() if v and v.strip()})
    source = os.environ if environ is None else environ
    values.update({k: v for k, v in source.items() if v.strip()})

    def get(name: str) -> str | None:
        value = values.get(name, "").strip()
        return value or None

    level = (get("LOG_LEVEL") or "INFO").upper()
    if level not in LOG_LEVELS:
        raise SettingsError(f"LOG_LEVEL must be one of {', '.join(LOG_LEVELS)}, not {level!r}")

    guild_text = get("DEV_GUILD_ID")
    dev_guild: int | None = None
    if guild_text is not None:
        if not guild_text.isdigit() or not is_id(int(guild_text)):
            raise SettingsError(
                f"DEV_GUILD_ID must be a server id (a positive whole number), not {guild_text!r}"
            )
        dev_guild = int(guild_text)

    database_url = get("DATABASE_URL")
    if database_url is not None:
        try:
            parse_target(database_url)
        except DatabaseUrlError as exc:
            raise SettingsError(
                f"DATABASE_URL: {exc}; set it to sqlite:///file or "
                "postgresql://user:password@host:5432/dbname"
            ) from None

    try:
        shard_count, shard_ids = parse_shards(get("SHARD_COUNT"), get("SHARD_IDS"))
    except ValueError as exc:
        raise SettingsError(str(exc)) from None

    cooldown_text = get("TABLE_REPOST_COOLDOWN") or "30"
    try:
        cooldown = float(cooldown_text)
    except ValueError:
        cooldown = -1.0
    if not 0 <= cooldown <= 86_400:
        raise SettingsError(
            f"TABLE_REPOST_COOLDOWN must be seconds from 0 to 86400, not {cooldown_text!r}"
        )

    alert_text = get("TURN_ALERT_SECONDS") or "10"
    try:
        alert = float(alert_text)
    except ValueError:
        alert = -1.0
    if not 0 <= alert <= 3600:
        raise SettingsError(
            f"TURN_ALERT_SECONDS must be seconds from 0 (no alerts) to 3600, not {alert_text!r}"
        )

    budget_text = get("REST_BUDGET") or str(DEFAULT_REST_BUDGET)
    budget = int(budget_text) if budget_text.isdigit() and len(budget_text) <= 3 else 0
    if not 1 <= budget <= DISCORD_GLOBAL_PER_SECOND:
        raise SettingsError(
            f"REST_BUDGET must be requests per second from 1 to {DISCORD_GLOBAL_PER_SECOND} "
            f"(Discord's limit per bot token; several processes share it), not {budget_text!r}"
        )

    settings = Settings(
        discord_token=get("DISCORD_TOKEN"),
        database_path=Path(get("DATABASE_PATH") or DEFAULT_DATABASE_PATH),
        log_level=level,
        dev_guild_id=dev_guild,
        discord_api_base=_url(
            "DISCORD_API_BASE", get("DISCORD_API_BASE") or DEFAULT_API_BASE, ("https", "http")
        ),
        discord_gateway_url=_url(
            "DISCORD_GATEWAY_URL", get("DISCORD_GATEWAY_URL") or DEFAULT_GATEWAY_URL, ("wss", "ws")
        ),
        table_repost_cooldown=cooldown,
        turn_alert_seconds=alert,
        log_secrets=get("LOG_SECRETS") == "1",
        database_url=database_url,
        shard_count=shard_count,
        shard_ids=shard_ids,
        rest_budget=budget,
    )
    if require_token:
        settings.require_token()
    return settings
