"""What one member reads in private, or asked for: his cards, what his commands and seat
clicks did, his wallet, the leaderboards and stats, the rules and the settings.

Down cards reach text only through the functions named ``private_*``, whose results go to
one player's DM or ephemeral answer. The words of a seat change (join, leave, add chips)
are shared by the ``/stud`` commands and the seat buttons. Values from
:mod:`dealerbot.tables` in, text and embeds out; no I/O, no rules.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from typing import Any

import discord

from dealerbot.tables import (
    PERIOD_TITLES,
    Card,
    ChoiceView,
    GuildEconomy,
    HouseBook,
    LeaderboardEntry,
    LeaderboardPage,
    LeaveOutcome,
    PlayerView,
    StatsReport,
    TableConfig,
    TableView,
    Variant,
    Wallet,
    WinningsEntry,
    WinningsPage,
    changed_text,
)
from dealerbot.tables import events as ev

from . import games_text
from .discord_limits import EMBED_FIELD_VALUE
from .markup import (
    COLOR_PRIVATE,
    COLOR_RESULT,
    COLOR_WAITING,
    TEXT_FACES,
    CardFaces,
    cards_shown,
    fitted,
    house_marked,
    name_text,
    timestamp,
)

# --- his cards (DMs and ephemeral answers only) ----------------------------------------


def _split_cards(
    cards: Sequence[Card], face_up: Sequence[bool], faces: CardFaces
) -> tuple[str, str]:
    down = [c for c, up in zip(cards, face_up, strict=True) if not up]
    up = [c for c, up in zip(cards, face_up, strict=True) if up]
    return cards_shown(down, faces), cards_shown(up, faces)


def private_cards_embed(
    event: ev.PrivateCards,
    *,
    number: int | None,
    where: str,
    variant_title: str | None,
    link: str | None = None,
    commitment: str | None = None,
    faces: CardFaces = TEXT_FACES,
) -> discord.Embed:
    """The DM a player gets on 3rd street (two down and the door card) and on 7th (all seven),
    in the player's own deck (``faces``).

    It repeats the hand's whole deck commitment, so the player keeps his own copy of what
    was promised before the first card (docs/fairness.md), with how to check it afterwards."""
    return fitted(
        lambda shown: _cards_embed(event, number, where, variant_title, link, commitment, shown),
        faces,
    )


def _cards_embed(
    event: ev.PrivateCards,
    number: int | None,
    where: str,
    variant_title: str | None,
    link: str | None,
    commitment: str | None,
    faces: CardFaces,
) -> discord.Embed:
    hand = f"hand #{number}" if number is not None else "this hand"
    down, up = _split_cards(event.cards, event.face_up, faces)
    if event.street >= 7:
        title = f"Your seven cards — {hand}"
        body = f"{cards_shown(event.cards, faces)}\nDown: {down} · Up: {up}"
        if event.made:
            body += f"\nYou have: **{event.made}**"
        if event.low:
            body += f" · low: **{event.low}**"
    else:
        title = f"Your cards — {hand}"
        body = f"Down: {down} · Door card: {up}"
    embed = discord.Embed(title=title, description=body, colour=COLOR_PRIVATE)
    if link:
        where = f"{where} · [go to the table]({link})"
    embed.add_field(name="Table", value=where, inline=False)
    if commitment:
        check = f"After the hand: `/stud verify id:{event.hand_id}`"
        embed.add_field(name="Deck commitment", value=f"`{commitment}`\n{check}", inline=False)
    if variant_title:
        embed.set_footer(text=variant_title)
    return embed


def private_player_text(view: PlayerView, faces: CardFaces = TEXT_FACES) -> str:
    """The answer to ``/stud cards`` and the "My cards" button (ephemeral), in the
    player's own deck (``faces``)."""
    if view.hand_id is None or not view.cards:
        return "You are not in a hand right now; your cards arrive when the next one is dealt."
    down, up = _split_cards(view.cards, view.face_up, faces)
    number = view.table.hand_number
    text = f"**Hand #{number}** — down: {down}" + (f" · up: {up}" if any(view.face_up) else "")
    if view.options:
        text += "\nIt is your turn: " + ", ".join(o.label for o in view.options) + "."
    return text


# --- what a seat command or button did ---------------------------------------------------


def joined_text(view: PlayerView) -> str:
    text = f"You sit down with {view.stack} chips."
    if view.table.hand_id is not None:
        text += " You are dealt in from the next hand."
    return text


def leave_text(outcome: LeaveOutcome) -> str:
    """What leaving does, said as it is done (the dealer plays out a hand in progress)."""
    if outcome.left_now:
        text = f"You left the table; {outcome.cashed_out} chips went to your wallet."
    else:
        text = (
            "You leave when this hand ends. Until then the dealer plays your hand for you: "
            "it checks when it can and folds to any bet. Your chips then go to your wallet."
        )
    if outcome.dropped_top_up:  # it was for this seat's next deal, which he will not play
        text += f" Your queued {outcome.dropped_top_up} chips stay in your wallet."
    return text


def add_chips_text(amount: int, view: PlayerView) -> str:
    """Added now, or (during a hand) queued: the chips move just before the next deal."""
    if view.table.hand_id is not None:
        return (
            f"Queued: {amount} chips join your stack before the next deal "
            "(nothing leaves your wallet until this hand is over)."
        )
    return f"Added {amount} chips; you have {view.stack} at the table."


# --- wallets, leaderboards, stats, rules, settings ---------------------------------------


def balance_text(user_id: int, wallet: Wallet, rank: LeaderboardEntry | None, own: bool) -> str:
    who = "You have" if own else f"<@{user_id}> has"
    text = f"{who} **{wallet.chips}** chips in the wallet"
    if wallet.table_chips:
        text += f" and **{wallet.table_chips}** on tables (net worth {wallet.net_worth})"
    text += "."
    if rank is not None:
        text += f" Rank #{rank.rank}."
    return text


def leaderboard_embed(
    page: LeaderboardPage, viewer_id: int, own: LeaderboardEntry | None
) -> discord.Embed:
    lines = [
        f"**#{e.rank}** <@{e.user_id}> — {e.net_worth} chips"
        + (f" ({e.table_chips} on tables)" if e.table_chips else "")
        + (" ← you" if e.user_id == viewer_id else "")
        for e in page.entries
    ]
    embed = discord.Embed(
        title="Leaderboard",
        description="\n".join(lines) or "No one has chips yet: `/stud join` or `/stud daily`.",
        colour=COLOR_RESULT,
    )
    if own is not None:
        embed.add_field(name="You", value=f"#{own.rank} with {own.net_worth} chips", inline=False)
    else:
        embed.add_field(name="You", value="Not ranked yet.", inline=False)
    embed.set_footer(
        text=f"Page {page.page} of {max(page.pages, 1)} · {page.total_players} players"
    )
    return embed


def choosing_text(choice: ChoiceView) -> str:
    """The answer to "deal now" while the button player is choosing the game."""
    return (
        f"The hand is dealt once {name_text(choice.name)} (on the button) chooses the game, "
        f"or {timestamp(choice.deadline)} when their time runs out."
    )


def rules_embed(
    config: TableConfig,
    has_table: bool,
    view: TableView | None = None,
    faces: CardFaces = TEXT_FACES,
    house: str | None = None,
) -> discord.Embed:
    """The rules of the game in play (between hands: the next), with example hands in the
    reader's deck (``faces``), and, at a mixed table, the rotation; ``house``: the service's
    words on this table's house players (issue 20)."""
    game = view.stakes.variant if view is not None else config.variant
    games = view.games if view is not None else None
    embed = discord.Embed(
        title=game.title, description=games_text.rules_text(game), colour=COLOR_WAITING
    )
    shown = [f"{cards_shown(cards, faces)} {what}" for what, cards in games_text.examples(game)]
    if shown:
        embed.add_field(name="Examples", value="\n".join(shown), inline=False)
    if config.mixed:
        now = f"\nNow: {games_text.game_line(games)}." if games is not None else ""
        text = f"{games_text.game_mode_text(config)}.{now}\n{games_text.MIXED_RULES}"
        embed.add_field(name="Games", value=text[:EMBED_FIELD_VALUE], inline=False)
    embed.add_field(name="Stakes", value=config_stakes_text(config), inline=False)
    embed.add_field(
        name="Table",
        value=(
            f"buy-in {config.min_buyin}–{config.max_buyin} · {config.seats} seats · "
            f"{config.turn_seconds} s to act"
        ),
        inline=False,
    )
    if house is not None:
        embed.add_field(
            name="House players", value=house_marked(house)[:EMBED_FIELD_VALUE], inline=False
        )
    if not has_table:
        embed.set_footer(text="No table in this channel yet: /stud join opens one.")
    return embed


HOUSE_DAYS_SHOWN = 14  # lines of the house's result by day and game in one answer


def house_embed(book: HouseBook, funded_now: int | None = None) -> discord.Embed:
    """``/stud-admin house``: the bankroll's balance, its players' chips at tables, what was
    funded, and the house players' result by day and game (newest first)."""
    title = "House bankroll funded" if funded_now is not None else "House bankroll"
    embed = discord.Embed(title=title, colour=COLOR_WAITING)
    lines = [
        f"Balance: **{book.balance:,}** chips",
        f"At tables now: {book.at_tables:,} chips",
        f"Funded in all: {book.funded:,} chips",
    ]
    if funded_now is not None:
        lines.insert(0, f"Added {funded_now:,} chips.")
    embed.description = "\n".join(lines)
    rows = [
        f"{_day_text(day.day)} · {_variant_title(day.variant)}: {day.net:+,} chips in "
        f"{day.hands:,} hands"
        for day in book.days[:HOUSE_DAYS_SHOWN]
    ]
    if len(book.days) > HOUSE_DAYS_SHOWN:
        rows.append(f"… and {len(book.days) - HOUSE_DAYS_SHOWN} more")
    embed.add_field(
        name=f"Result by day and game ({book.net:+,} chips)" if rows else "Result",
        value="\n".join(rows)[:EMBED_FIELD_VALUE] if rows else "No house hands played yet.",
        inline=False,
    )
    return embed


def _day_text(day: int) -> str:
    """A stats day (days since 1970-01-01, UTC) as ``2026-12-02``."""
    return (dt.date(1970, 1, 1) + dt.timedelta(days=day)).isoformat()


def _variant_title(variant: str) -> str:
    try:
        return games_text.short_title(Variant(variant))
    except ValueError:
        return variant


def config_embed(
    config: TableConfig, economy: GuildEconomy, *, scope: str, changed: Sequence[str] = ()
) -> discord.Embed:
    title = "Settings changed" if changed else "Settings"
    embed = discord.Embed(title=f"{title} ({scope})", colour=COLOR_WAITING)
    embed.add_field(
        name="Game", value=games_text.game_mode_text(config)[:EMBED_FIELD_VALUE], inline=False
    )
    embed.add_field(name="Stakes", value=config_stakes_text(config), inline=False)
    embed.add_field(
        name="Table",
        value=(
            f"buy-in {config.min_buyin}–{config.max_buyin} · {config.seats} seats · "
            f"{config.turn_seconds} s to act"
        ),
        inline=False,
    )
    embed.add_field(
        name="House players",
        value=(
            f"up to {config.house_players} · while fewer than {config.house_fill_to} seats "
            "are taken"
            if config.house_players
            else "none"
        ),
        inline=False,
    )
    embed.add_field(name="Cards", value=f"{config.deck.value}: {config.deck.words}", inline=False)
    embed.add_field(
        name="Server economy",
        value=f"starting chips {economy.starting_chips} · daily bonus {economy.daily_chips}",
        inline=False,
    )
    if changed:
        embed.set_footer(text=f"{changed_text(changed)} They apply from the next hand.")
    return embed


STAKE_KEYS = frozenset({"ante", "bring_in", "small_bet"})
GAME_KEYS = frozenset({"variant", "game", "games", "hands_per_game", "choice_seconds"})


def change_notice(config: TableConfig, changed: Sequence[str], by: str) -> str:
    """``From the next hand: Seven Card Stud Hi/Lo, 10/20 fixed limit, changed by alice``."""
    parts = []
    if GAME_KEYS & set(changed):
        parts.append(games_text.game_mode_text(config))
    if STAKE_KEYS & set(changed):
        parts.append(config_stakes_text(config))
    if {"min_buyin", "max_buyin"} & set(changed):
        parts.append(f"buy-in {config.min_buyin}–{config.max_buyin}")
    if "seats" in changed:
        parts.append(f"{config.seats} seats")
    if "turn_seconds" in changed:
        parts.append(f"{config.turn_seconds} s to act")
    if "deck" in changed:
        parts.append(f"cards: {config.deck.value} ({config.deck.words})")
    if {"house_players", "house_fill_to"} & set(changed):
        parts.append(
            f"up to {config.house_players} house players while fewer than "
            f"{config.house_fill_to} seats are taken"
        )
    return f"From the next hand: {', '.join(parts) or 'new settings'}, changed by {name_text(by)}."


def config_stakes_text(config: TableConfig) -> str:
    return (
        f"{config.small_bet}/{config.big_bet} fixed limit · ante {config.ante} · "
        f"bring-in {config.bring_in}"
    )


# --- stats (``/stud stats``) and the winnings board ------------------------------------

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
