"""Point discord.py at the emulator (process-wide class attributes, so restore after).

discord.py builds every REST URL (webhooks and interaction callbacks included) from
`discord.http.Route.BASE`, and a non-sharded client connects straight to
`DiscordWebSocket.DEFAULT_GATEWAY` (a `yarl.URL`; discord.py appends
`?v=10&encoding=json&compress=…` with `with_query`) without asking GET /gateway/bot.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator

import discord.gateway
import discord.http
import yarl


def point_discord_py_at(api_base: str, gateway_url: str) -> None:
    """Send discord.py's REST calls to `api_base` and its gateway to `gateway_url`."""
    discord.http.Route.BASE = api_base.rstrip("/")
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(gateway_url)


@contextlib.contextmanager
def discord_py_pointed_at(api_base: str, gateway_url: str) -> Iterator[None]:
    """`point_discord_py_at` for the duration of a block, then restore the old values."""
    old_base = discord.http.Route.BASE
    old_gateway = discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY
    point_discord_py_at(api_base, gateway_url)
    try:
        yield
    finally:
        discord.http.Route.BASE = old_base
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = old_gateway
