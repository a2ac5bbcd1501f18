"""Settings: defaults, .env file, environment precedence, clear errors for bad values."""

from __future__ import annotations

from pathlib import Path

import pytest

from dealerbot.settings import Settings, SettingsError, load_settings


def test_defaults_without_any_configuration(tmp_path: Path) -> None:
    s = load_settings({}, env_file=tmp_path / "missing.env")
    assert s == Settings(
        discord_token=None,
        database_path=Path("dealerbot.sqlite3"),
        log_level="INFO",
        dev_guild_id=None,
        discord_api_base="https://discord.com/api/v10",
        discord_gateway_url="wss://gateway.discord.gg",
    )
    with pytest.raises(SettingsError, match="DISCORD_TOKEN"):
        s.require_token()
    with pytest.raises(SettingsError, match="DISCORD_TOKEN"):
        load_settings({}, env_file=None, require_token=True)


def test_env_file_and_environment_precedence(tmp_path: Path) -> None:
    env_file = tmp_path / ".env"
    env_file.write_text(
        "DISCORD_TOKEN=from-file\nDATABASE_PATH=file.sqlite3\nLOG_LEVEL=debug\n"
        "DEV_GUILD_ID=123456789012345678\nDISCORD_API_BASE=http://127.0.0.1:8080/api/\n",
        encoding="utf-8",
    )
    s = load_settings({"DATABASE_PATH": "env.sqlite3", "DISCORD_TOKEN": ""}, env_file=env_file)
    assert s.database_path == Path("env.sqlite3")  # the environment wins
    assert s.discord_token == "from-file"  # an empty value counts as unset
    assert s.log_level == "DEBUG"
    assert s.dev_guild_id == 123456789012345678
    assert s.discord_api_base == "http://127.0.0.1:8080/api"
    assert s.require_token() == "from-file"


@pytest.mark.parametrize(
    ("env", "message"),
    [
        ({"LOG_LEVEL": "loud"}, "LOG_LEVEL must be one of DEBUG, INFO"),
        ({"DEV_GUILD_ID": "abc"}, "DEV_GUILD_ID must be a server id"),
        ({"DEV_GUILD_ID": "0"}, "DEV_GUILD_ID must be a server id"),
        ({"DISCORD_API_BASE": "discord.com/api"}, "DISCORD_API_BASE must be a https or http URL"),
        ({"DISCORD_GATEWAY_URL": "https://gateway"}, "DISCORD_GATEWAY_URL must be a wss or ws"),
        ({"DISCORD_GATEWAY_URL": "wss://"}, "DISCORD_GATEWAY_URL"),
    ],
)
def test_bad_values_name_the_variable(env: dict[str, str], message: str) -> None:
    with pytest.raises(SettingsError) as info:
        load_settings(env, env_file=None)
    assert message in str(info.value)


def test_settings_are_frozen() -> None:
    s = load_settings({}, env_file=None)
    with pytest.raises(AttributeError):
        s.log_level = "DEBUG"  # type: ignore[misc]


def test_rest_budget_is_a_share_of_discords_global_limit(tmp_path: Path) -> None:
    missing = tmp_path / "missing.env"
    assert load_settings({}, env_file=missing).rest_budget == 45
    assert load_settings({"REST_BUDGET": "1"}, env_file=missing).rest_budget == 1
    assert load_settings({"REST_BUDGET": "50"}, env_file=missing).rest_budget == 50
    for bad in ("0", "51", "-3", "22.5", "many", "9" * 5000):
        with pytest.raises(SettingsError, match=r"REST_BUDGET must be .* from 1 to 50"):
            load_settings({"REST_BUDGET": bad}, env_file=missing)


def test_turn_alert_seconds(tmp_path: Path) -> None:
    missing = tmp_path / "missing.env"
    assert load_settings({}, env_file=missing).turn_alert_seconds == 10.0
    assert load_settings({"TURN_ALERT_SECONDS": "0"}, env_file=missing).turn_alert_seconds == 0
    assert load_settings({"TURN_ALERT_SECONDS": "2.5"}, env_file=missing).turn_alert_seconds == 2.5
    for bad in ("-1", "soon", "3601"):
        with pytest.raises(SettingsError, match="TURN_ALERT_SECONDS"):
            load_settings({"TURN_ALERT_SECONDS": bad}, env_file=missing)
