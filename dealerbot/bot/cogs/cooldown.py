"""A per-key cooldown for commands that post in public (``/stud table``: one post per
channel every ``TABLE_REPOST_COOLDOWN`` seconds, so twenty calls are not twenty posts)."""

from __future__ import annotations

import math
from typing import Any

import discord

from ..errors import UserError


class Cooldown:
    """At most one use per key every ``seconds``, by the clock the caller passes."""

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        self._last: dict[int, float] = {}

    def take(self, key: int, now: float) -> None:
        """Use it now, or refuse with how long to wait."""
        wait = self._last.get(key, -math.inf) + self.seconds - now
        if wait > 0:
            raise UserError(
                f"The table was posted here moments ago; try again in {math.ceil(wait)} s."
            )
        self._last[key] = now


def is_admin(interaction: discord.Interaction[Any]) -> bool:
    """Manage Server (or Administrator) in this channel: what ``/stud-admin`` needs."""
    perms = interaction.permissions
    return bool(perms.manage_guild or perms.administrator)
