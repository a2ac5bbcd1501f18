"""Embeds for ``/stud stats`` and the winnings leaderboard (values in, embeds out)."""

from __future__ import annotations

from typing import Any

import discord

from dealerbot.tables import PERIOD_TITLES, StatsReport, WinningsEntry, WinningsPage

from .discord_limits import EMBED_FIELD_VALUE
from .render import COLOR_RESULT

PERIOD_NOTES = {
    "day": "UTC day",
    "week": "UTC week from Monday",
    "month": "UTC calendar month",
    "all": "all time",
}


def _pct(value: float | None, part: int, whole: int) -> str:
    if value is None:
        return "—"
    return f"{value:.0f}% ({part:,} of {whole:,})"


def stats_embed(report: StatsReport, name: str) -> discord.Embed:
    """One player's numbers for a period (and game)."""
    game = f" · {report.variant.title}" if report.variant is not None else ""
    embed = discord.Embed(
        title=f"Stats of {name}"[:200] + f" · {PERIOD_TITLES[report.period]}{game}",
        colour=COLOR_RESULT,
    )
    if report.hands == 0:
        embed.description = "No finished hands in this period."
        return embed
    hands = report.hands
    fields: list[tuple[str, str]] = [
        ("Hands played", f"{hands:,}"),
        ("Net chips", f"{report.net:+,}"),
        ("Hands won", _pct(100.0 * report.won_hands / hands, report.won_hands, hands)),
        ("3rd street entry", _pct(report.entered_third_pct, report.entered_third, hands)),
        (
            "3rd street completion/raise",
            _pct(report.raised_third_pct, report.raised_third, hands),
        ),
        ("Saw 7th street", _pct(report.saw_seventh_pct, report.saw_seventh, hands)),
        ("Went to showdown", _pct(report.showdown_pct, report.showdowns, hands)),
        (
            "Won at showdown",
            _pct(report.won_showdown_pct, report.won_showdowns, report.showdowns),
        ),
        ("Biggest pot won", f"{report.biggest_win:,} chips"),
    ]
    best = "\n".join(f"{hand.name} (razz)" if hand.low else hand.name for hand in report.best_hands)
    fields.append(("Best hand shown", best or "None shown yet"))
    for title, value in fields:
        embed.add_field(name=title, value=value[:EMBED_FIELD_VALUE], inline=True)
    embed.set_footer(text="Won at showdown: of showdowns; other shares: of hands played.")
    return embed


def winnings_embed(page: WinningsPage, viewer_id: int, own: WinningsEntry | None) -> discord.Embed:
    """Players ranked by net chips won at the tables in the period."""
    lines = [
        f"**#{e.rank}** <@{e.user_id}> — {e.net:+,} chips in {e.hands:,} hands"
        + (" ← you" if e.user_id == viewer_id else "")
        for e in page.entries
    ]
    title = f"Leaderboard · winnings {PERIOD_TITLES[page.period]}"
    embed = discord.Embed(
        title=title,
        description="\n".join(lines) or "No hand has been played in this period yet.",
        colour=COLOR_RESULT,
    )
    mine = "No hands in this period." if own is None else f"#{own.rank} with {own.net:+,} chips"
    embed.add_field(name="You", value=mine, inline=False)
    embed.set_footer(
        text=f"Page {page.page} of {max(page.pages, 1)} · {page.total_players} players · "
        f"{PERIOD_NOTES[page.period.value]} · chips won at the tables only"
    )
    return embed


def is_leaderboard(message: Any) -> bool:
    """Whether a message the bot sent is a leaderboard (its first embed's title says so)."""
    embeds = getattr(message, "embeds", None) or []
    return bool(embeds) and str(embeds[0].title or "").startswith("Leaderboard")
