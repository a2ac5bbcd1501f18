"""``dealerbot emoji sync``: the card art uploaded as the application's own emoji.

An application owns up to 2,000 emoji of its own, usable in every server it is in (in
text, embeds and buttons, with no extra permission). This command logs in with the bot
token over REST only (no gateway, no table), lists the application's emoji first, and
uploads only the card emoji that are missing, one at a time (discord.py waits out a 429),
so a second run uploads nothing. It refuses to start when the uploads would pass the
2,000, saying how many are free. ``--remove`` deletes the card emoji: only the names the
card art makes (:func:`dealerbot.card_art.is_ours`), never an operator's own emoji.

Exit codes: 0 done, 1 Discord refused (or could not be reached, or has no room), 2 bad
settings (the CLI's SettingsError).
"""

from __future__ import annotations

import asyncio
import sys
from collections.abc import Sequence
from dataclasses import dataclass

import discord

from dealerbot.bot.client import intents, point_discord_at
from dealerbot.card_art import EmojiArt, emoji_set, is_ours
from dealerbot.card_art.emoji_limits import IMAGE_BYTES, PER_APPLICATION, name_problem
from dealerbot.runner import failure_line
from dealerbot.settings import Settings


@dataclass(frozen=True, slots=True)
class Existing:
    """One emoji the application owns already: its id and name."""

    id: int
    name: str


@dataclass(frozen=True, slots=True)
class Plan:
    """What a run will do, decided from the listing before any change."""

    upload: tuple[EmojiArt, ...] = ()
    remove: tuple[Existing, ...] = ()
    already: int = 0  # card emoji there already
    others: int = 0  # emoji of the application's that are not ours


class NoGo(Exception):
    """The run must not start; the message says why and what to do."""


def plan_upload(existing: Sequence[Existing], art: Sequence[EmojiArt]) -> Plan:
    """The card emoji missing from ``existing``; NoGo when there is no room for them all
    (counting every emoji the application owns) or when one would break Discord's rules."""
    for item in art:
        problem = name_problem(item.name)
        if problem is None and len(item.png) > IMAGE_BYTES:
            problem = f"its image is {len(item.png)} bytes, over Discord's {IMAGE_BYTES}"
        if problem is not None:
            raise NoGo(f"card emoji {item.name}: {problem}; this is a bug in dealerbot")
    names = {e.name for e in existing}
    missing = tuple(a for a in art if a.name not in names)
    free = max(PER_APPLICATION - len(existing), 0)
    if len(missing) > free:
        raise NoGo(
            f"the application owns {len(existing)} emoji of Discord's {PER_APPLICATION}: "
            f"{free} free, and the card art needs {len(missing)} more; remove some of "
            "the application's emoji in the Developer Portal (nothing was uploaded)"
        )
    ours = sum(1 for e in existing if is_ours(e.name))
    return Plan(upload=missing, already=len(art) - len(missing), others=len(existing) - ours)


def plan_remove(existing: Sequence[Existing]) -> Plan:
    """The card emoji to delete: only names the card art makes."""
    ours = tuple(e for e in existing if is_ours(e.name))
    return Plan(remove=ours, others=len(existing) - len(ours))


@dataclass
class Done:
    """What has been done so far (told even when Discord stops the run half-way)."""

    uploaded: int = 0
    removed: int = 0

    def line(self, plan: Plan) -> str:
        return f"uploaded {self.uploaded}, already there {plan.already}, removed {self.removed}"


async def _run(settings: Settings, remove: bool, done: Done) -> Plan:
    discord.VoiceClient.warn_nacl = False  # no voice here: no warnings about its libraries
    discord.VoiceClient.warn_dave = False
    client = discord.Client(intents=intents())  # the bot's own; the gateway is never opened
    async with client:
        await client.login(settings.require_token())
        emojis = {e.id: e for e in await client.fetch_application_emojis()}
        listing = [Existing(e.id, e.name) for e in emojis.values()]
        if remove:
            plan = plan_remove(listing)
            for existing in plan.remove:
                await emojis[existing.id].delete()
                done.removed += 1
            return plan
        plan = plan_upload(listing, emoji_set())
        for art in plan.upload:  # one at a time: the emoji routes have their own limits
            await client.create_application_emoji(name=art.name, image=art.png)
            done.uploaded += 1
        return plan


def sync_emoji(settings: Settings, *, remove: bool = False) -> int:
    """``dealerbot emoji sync [--remove]``: 0 done, 1 refused or unreachable."""
    point_discord_at(settings)
    done = Done()
    try:
        plan = asyncio.run(_run(settings, remove, done))
    except NoGo as error:
        print(f"dealerbot: emoji sync: {error}", file=sys.stderr)
        return 1
    except discord.HTTPException as error:
        so_far = f"uploaded {done.uploaded}, removed {done.removed} before that"
        print(
            f"dealerbot: emoji sync: Discord refused (HTTP {error.status}, code {error.code}: "
            f"{error.text or 'no detail'}); {so_far}",
            file=sys.stderr,
        )
        return 1
    except Exception as error:
        line = failure_line(error, settings)
        if line is None:
            raise
        print(f"dealerbot: {line}", file=sys.stderr)
        return 1
    print(f"emoji sync{' --remove' if remove else ''}: {done.line(plan)}")
    if plan.others:
        print(f"left alone: {plan.others} emoji of the application's that are not dealerbot's")
    return 0
