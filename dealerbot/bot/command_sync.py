"""What the bot says when Discord refuses its command list (HTTP 400, code 50035).

Discord checks the whole bulk overwrite and refuses all of it for one bad field (an
option's range past what Discord carries, a name too long): nothing is registered, and the
server keeps the list it had, none on a first sync. Nothing an operator sets causes that:
the command list is dealerbot's own, so the words say it is a bug to report, with
Discord's own path and message for each field it refused.
"""

from __future__ import annotations

import discord
from discord import app_commands

INVALID_FORM_BODY = 50035
BUG = "This is a bug in dealerbot, not in your setup: please report it with these lines."


def refused(error: BaseException) -> bool:
    """Discord refused the command list itself (not the network, not a permission)."""
    return (
        isinstance(error, discord.HTTPException)
        and error.status == 400
        and error.code == INVALID_FORM_BODY
    )


def details(error: discord.HTTPException) -> list[str]:
    """Discord's path and message for each refused field (``In 0.options.3...: ...``), then
    discord.py's reading of the path as commands and options, when it has one."""
    first, *fields = (error.text or "").splitlines()
    lines = [f"  Discord: {line}" for line in fields if line.strip()]
    if not lines:
        lines = [f"  Discord: {first or 'no detail'}"]
    if isinstance(error, app_commands.CommandSyncFailure):
        _, *named = str(error).splitlines()
        lines += [f"  (discord.py: {line.strip()})" for line in named if line.strip()]
    return lines


def _why(error: discord.HTTPException) -> str:
    first = (error.text or "").partition("\n")[0] or "no message"
    return f"HTTP {error.status}, code {error.code}: {first}"


def sync_text(error: discord.HTTPException, where: str) -> str:
    """``dealerbot sync``: what was refused, that nothing changed, and what to report."""
    return "\n".join(
        [
            f"Discord refused the slash commands {where} ({_why(error)}); nothing was "
            "published: the commands there stay as they were.",
            BUG,
            *details(error),
        ]
    )


def startup_text(error: discord.HTTPException, guild_id: int, kept: int | None) -> str:
    """At start (``DEV_GUILD_ID``): the same, and what the server is left with (``kept``:
    the commands it still has from an earlier sync; None: they could not be listed)."""
    where = f"server {guild_id} (DEV_GUILD_ID)"
    if kept == 0:
        state = f"dealerbot has NO slash commands on {where}"
    elif kept is None:
        state = f"dealerbot's slash commands were NOT registered on {where} (it may have none)"
    else:
        state = (
            f"dealerbot's slash commands were NOT updated on {where}: it keeps the {kept} "
            "commands of an earlier sync, which may not match this version"
        )
    return "\n".join(
        [
            f"{state}. Discord refused the command list ({_why(error)}).",
            BUG,
            *details(error),
            "The bot keeps running: the tables in play and their buttons still work, but no "
            "slash command works there until a fixed dealerbot syncs.",
        ]
    )
