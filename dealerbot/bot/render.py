"""Text and embeds built from the table service's views and events; no I/O, no rules.

Every public message is built from :class:`~dealerbot.tables.TableView` (up cards
only) or from showdown events; down cards reach text only through the functions named
``private_*``, whose results go to one player's DM or ephemeral answer.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import lru_cache

import discord

from dealerbot.tables import (
    ALL_CARDS,
    Card,
    ChoiceView,
    GuildEconomy,
    LeaderboardEntry,
    LeaderboardPage,
    PlayerView,
    TableConfig,
    TableView,
    Wallet,
)
from dealerbot.tables import events as ev

from . import render_games
from .discord_limits import EMBED_FIELD_VALUE

HIDDEN = "🂠"  # a face-down card in public: the count is public, the card is not
COLOR_PLAYING = discord.Colour.dark_green()
COLOR_WAITING = discord.Colour.blurple()
COLOR_RESULT = discord.Colour.gold()
COLOR_CLOSED = discord.Colour.dark_grey()
COLOR_PRIVATE = discord.Colour.teal()


PRETTY = tuple(card.pretty for card in ALL_CARDS)  # rendered on every table edit


NAME_CHARS = 32  # the table service cleans and cuts names to this; others are cut here


@lru_cache(maxsize=8192)
def name_text(name: str) -> str:
    """A name made safe for Markdown (no formatting, no mass mentions): cut at a character
    boundary first, escaped after, so a cut never falls inside an escape."""
    return line_text(name[:NAME_CHARS]) or "?"


def line_text(text: str) -> str:
    """A line made safe for Markdown, never cut (an action line keeps its action)."""
    return discord.utils.escape_mentions(discord.utils.escape_markdown(text))


def cards_text(cards: Iterable[Card | None]) -> str:
    return " ".join(HIDDEN if card is None else PRETTY[card] for card in cards)


def timestamp(seconds: float, style: str = "R") -> str:
    """A Discord timestamp that every reader sees in his own time zone."""
    return f"<t:{int(seconds)}:{style}>"


def stakes_text(view: TableView) -> str:
    s = view.stakes
    return (
        f"{s.small_bet}/{s.big_bet} fixed limit · ante {s.ante} · bring-in {s.bring_in}\n"
        f"buy-in {s.min_buy_in}–{s.max_buy_in} · {s.seats} seats"
    )


def config_stakes_text(config: TableConfig) -> str:
    return (
        f"{config.small_bet}/{config.big_bet} fixed limit · ante {config.ante} · "
        f"bring-in {config.bring_in}"
    )


def closed_embed(event: ev.TableClosed, names: dict[int, str]) -> discord.Embed:
    lines = [
        f"{name_text(names.get(user, str(user)))}: {chips} chips back to the wallet"
        for user, chips in event.cashed_out
    ]
    return discord.Embed(
        title="Table closed",
        description="\n".join(lines) or "No one was seated.",
        colour=COLOR_CLOSED,
    )


# --- private views (DMs and ephemeral answers only) ------------------------------------


def _split_cards(cards: Sequence[Card], face_up: Sequence[bool]) -> tuple[str, str]:
    down = [c for c, up in zip(cards, face_up, strict=True) if not up]
    up = [c for c, up in zip(cards, face_up, strict=True) if up]
    return cards_text(down), cards_text(up)


def private_cards_embed(
    event: ev.PrivateCards,
    *,
    number: int | None,
    where: str,
    variant_title: str | None,
    link: str | None = None,
    commitment: str | None = None,
) -> discord.Embed:
    """The DM a player gets on 3rd street (two down and the door card) and on 7th (all seven).

    It repeats the hand's whole deck commitment, so the player keeps his own copy of what
    was promised before the first card (docs/fairness.md), with how to check it afterwards."""
    hand = f"hand #{number}" if number is not None else "this hand"
    down, up = _split_cards(event.cards, event.face_up)
    if event.street >= 7:
        title = f"Your seven cards — {hand}"
        body = f"`{cards_text(event.cards)}`\nDown: `{down}` · Up: `{up}`"
        if event.made:
            body += f"\nYou have: **{event.made}**"
        if event.low:
            body += f" · low: **{event.low}**"
    else:
        title = f"Your cards — {hand}"
        body = f"Down: `{down}` · Door card: `{up}`"
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


def private_player_text(view: PlayerView) -> str:
    """The answer to ``/stud cards`` and the "My cards" button (ephemeral)."""
    if view.hand_id is None or not view.cards:
        return "You are not in a hand right now; your cards arrive when the next one is dealt."
    down, up = _split_cards(view.cards, view.face_up)
    number = view.table.hand_number
    text = f"**Hand #{number}** — down: `{down}`" + (f" · up: `{up}`" if up else "")
    if view.options:
        text += "\nIt is your turn: " + ", ".join(o.label for o in view.options) + "."
    return text


# --- wallets, leaderboard, rules, config ------------------------------------------------


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
    config: TableConfig, has_table: bool, view: TableView | None = None
) -> discord.Embed:
    """The rules of the game in play (between hands: the next), and, at a mixed table,
    the rotation."""
    game = view.stakes.variant if view is not None else config.variant
    games = view.games if view is not None else None
    embed = discord.Embed(
        title=game.title, description=render_games.rules_text(game), colour=COLOR_WAITING
    )
    if config.mixed:
        now = f"\nNow: {render_games.game_line(games)}." if games is not None else ""
        text = f"{render_games.settings_text(config)}.{now}\n{render_games.MIXED_RULES}"
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
    if not has_table:
        embed.set_footer(text="No table in this channel yet: /stud join opens one.")
    return embed


def config_embed(
    config: TableConfig, economy: GuildEconomy, *, scope: str, changed: Sequence[str] = ()
) -> discord.Embed:
    title = "Settings changed" if changed else "Settings"
    embed = discord.Embed(title=f"{title} ({scope})", colour=COLOR_WAITING)
    embed.add_field(
        name="Game", value=render_games.settings_text(config)[:EMBED_FIELD_VALUE], inline=False
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
        name="Server economy",
        value=f"starting chips {economy.starting_chips} · daily bonus {economy.daily_chips}",
        inline=False,
    )
    if changed:
        embed.set_footer(text="Changed: " + ", ".join(changed) + ". They apply from the next hand.")
    return embed


STAKE_KEYS = frozenset({"ante", "bring_in", "small_bet"})
GAME_KEYS = frozenset({"variant", "game", "games", "hands_per_game", "choice_seconds"})


def change_notice(config: TableConfig, changed: Sequence[str], by: str) -> str:
    """``From the next hand: Seven Card Stud Hi/Lo, 10/20 fixed limit, changed by alice``."""
    parts = []
    if GAME_KEYS & set(changed):
        parts.append(render_games.settings_text(config))
    if STAKE_KEYS & set(changed):
        parts.append(config_stakes_text(config))
    if {"min_buyin", "max_buyin"} & set(changed):
        parts.append(f"buy-in {config.min_buyin}–{config.max_buyin}")
    if "seats" in changed:
        parts.append(f"{config.seats} seats")
    if "turn_seconds" in changed:
        parts.append(f"{config.turn_seconds} s to act")
    return f"From the next hand: {', '.join(parts) or 'new settings'}, changed by {name_text(by)}."
