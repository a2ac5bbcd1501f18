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
    GuildEconomy,
    LeaderboardEntry,
    LeaderboardPage,
    PlayerView,
    SeatView,
    TableConfig,
    TablePhase,
    TableView,
    Wallet,
)
from dealerbot.tables import events as ev

HIDDEN = "🂠"  # a face-down card in public: the count is public, the card is not
LAST_ACTIONS_SHOWN = 5
COLOR_PLAYING = discord.Colour.dark_green()
COLOR_WAITING = discord.Colour.blurple()
COLOR_RESULT = discord.Colour.gold()
COLOR_CLOSED = discord.Colour.dark_grey()
COLOR_PRIVATE = discord.Colour.teal()

STREET_NAMES = {3: "3rd street", 4: "4th street", 5: "5th street", 6: "6th street", 7: "7th street"}


PRETTY = tuple(card.pretty for card in ALL_CARDS)  # rendered on every table edit


@lru_cache(maxsize=8192)
def name_text(name: str) -> str:
    """A display name made safe for Markdown (no formatting, no mass mentions)."""
    return discord.utils.escape_mentions(discord.utils.escape_markdown(name))[:64] or "?"


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


# --- the table message ---------------------------------------------------------------


def _seat_status(seat: SeatView, playing: bool) -> list[str]:
    flags = []
    if seat.folded:
        flags.append("folded")
    if seat.all_in:
        flags.append("all-in")
    if seat.sitting_out:
        flags.append("sitting out")
    if seat.leaving:
        flags.append("leaving")
    if playing and not seat.in_hand and not seat.sitting_out and not seat.leaving:
        flags.append("next hand")
    return flags


def seat_line(seat: SeatView, playing: bool) -> str:
    marker = "▶" if seat.to_act else "•"
    parts = [f"{marker} **{name_text(seat.name)}** ({seat.seat + 1})", f"{seat.stack} chips"]
    if seat.in_hand and seat.cards:
        parts.append(f"`{cards_text(seat.cards)}`")
    if seat.bet:
        parts.append(f"bet {seat.bet}")
    flags = _seat_status(seat, playing)
    if flags:
        parts.append("*" + ", ".join(flags) + "*")
    line = " · ".join(parts)
    return f"~~{line}~~" if seat.folded else line


def table_embed(view: TableView, turn: ev.Turn | None) -> discord.Embed:
    """The public table: seats, pot, street, stakes, whose turn, the last actions."""
    playing = view.hand_id is not None and view.status in (TablePhase.PLAYING, TablePhase.CLOSING)
    if playing:
        title = f"{view.stakes.title} — hand #{view.hand_number}"
        colour = COLOR_PLAYING
    elif view.status is TablePhase.CLOSED:
        title = f"{view.stakes.title} — table closed"
        colour = COLOR_CLOSED
    else:
        title = f"{view.stakes.title} — waiting"
        colour = COLOR_WAITING
    seats = [seat_line(seat, playing) for seat in view.seats]
    description = "\n".join(seats) if seats else "*No one is seated. Use `/stud join`.*"
    embed = discord.Embed(title=title, description=description, colour=colour)
    if playing:
        street = STREET_NAMES.get(view.street or 0, "—")
        embed.add_field(name="Pot", value=str(view.pot), inline=True)
        embed.add_field(name="Street", value=street, inline=True)
        if view.community is not None:
            embed.add_field(name="Community card", value=f"`{view.community.pretty}`", inline=True)
        embed.add_field(name="Stakes", value=stakes_text(view), inline=False)
        embed.add_field(name="To act", value=turn_text(view, turn), inline=False)
    else:
        embed.add_field(name="Stakes", value=stakes_text(view), inline=False)
        embed.add_field(name="Next hand", value=waiting_text(view), inline=False)
    if view.last_actions:
        lines = [name_text(text) for text in view.last_actions[-LAST_ACTIONS_SHOWN:]]
        embed.add_field(name="Last actions", value="\n".join(lines)[:1024], inline=False)
    if view.hand_number is not None and view.commitment:
        embed.set_footer(text=f"Hand #{view.hand_number} · deck commitment {view.commitment}")
    return embed


def turn_text(view: TableView, turn: ev.Turn | None) -> str:
    if view.to_act_user is None:
        return "Dealing…"
    text = f"<@{view.to_act_user}>"
    if turn is not None and turn.to_call:
        text += f" · {turn.to_call} to call"
    if view.deadline is not None:
        text += f" · time runs out {timestamp(view.deadline)}"
    return text


def waiting_text(view: TableView) -> str:
    if view.status is TablePhase.CLOSING:
        return "The table closes after this hand."
    if view.status is TablePhase.CLOSED:
        return "This table is closed. `/stud join` opens it again."
    ready = sum(1 for s in view.seats if not s.sitting_out and not s.leaving and s.stack > 0)
    if view.next_hand_at is not None:
        return f"Dealing {timestamp(view.next_hand_at)}."
    if ready < 2:
        return f"Waiting for players ({ready} ready, 2 needed): `/stud join`."
    return "Ready: `/stud start` deals a hand."


# --- the result -------------------------------------------------------------------


def _pot_label(index: int) -> str:
    return "Main pot" if index == 0 else f"Side pot {index}"


def _share_text(
    ended: ev.HandEnded, names: dict[int, str], pot: ev.PotWon, seat: int, chips: int
) -> str:
    text = f"**{name_text(names.get(seat, f'seat {seat + 1}'))}** {chips}"
    if ended.variant.rules.split_low and pot.low_winners:
        tags = []
        if seat in pot.high_winners:
            tags.append("high")
        if seat in pot.low_winners:
            tags.append("low")
        text += f" ({' and '.join(tags)})"
    return text


def _result_lines(ended: ev.HandEnded) -> list[str]:
    split_low = ended.variant.rules.split_low
    names = {player.seat: player.name for player in ended.players}
    lines: list[str] = []
    showdown = ended.showdown
    if showdown is not None and showdown.shown:
        lines.append("**Showdown**")
        for hand in showdown.shown:
            text = f"**{name_text(hand.name)}** `{cards_text(hand.cards)}` — {hand.high}"
            if split_low:
                text += f" · low: {hand.low or 'no low'}"
            lines.append(text)
        if showdown.community is not None:
            lines.append(f"Community card: `{showdown.community.pretty}`")
    if showdown is not None and showdown.pots:
        names.update(dict(showdown.names))
        lines.append("**Pots**")
        for pot in showdown.pots:
            shares = ", ".join(_share_text(ended, names, pot, s, c) for s, c in pot.shares)
            text = f"{_pot_label(pot.index)} {pot.amount}: {shares}"
            if not showdown.shown:
                text += " (uncontested)"
            elif split_low and not pot.low_winners:
                text += " (no qualifying low)"
            lines.append(text)
    if ended.results:
        users = {player.user_id: player.name for player in ended.players}
        changes = ", ".join(
            f"{name_text(users.get(user, str(user)))} {delta:+d}" for user, delta in ended.results
        )
        lines.append(f"**Chips** {changes}")
    return lines


def result_embed(ended: ev.HandEnded) -> discord.Embed:
    """Every shown hand with its name (and low), who won each pot, and the chip changes."""
    footer = f"Hand #{ended.number} · deck commitment {ended.commitment}"
    if ended.cancelled:
        embed = discord.Embed(
            title=f"Hand #{ended.number} — cancelled",
            description=f"{ended.reason or 'The hand could not go on'}. "
            "Every chip put in went back.",
            colour=COLOR_CLOSED,
        )
        embed.set_footer(text=footer)
        return embed
    embed = discord.Embed(
        title=f"Hand #{ended.number} — result",
        description="\n".join(_result_lines(ended))[:4000] or "The hand is over.",
        colour=COLOR_RESULT,
    )
    if ended.last_actions:
        recent = "\n".join(name_text(t) for t in ended.last_actions[-LAST_ACTIONS_SHOWN:])
        embed.add_field(name="Last actions", value=recent[:1024], inline=False)
    embed.set_footer(text=footer)
    return embed


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
    event: ev.PrivateCards, *, number: int | None, where: str, variant_title: str | None
) -> discord.Embed:
    """The DM a player gets on 3rd street (two down and the door card) and on 7th (all seven)."""
    hand = f"hand #{number}" if number is not None else "this hand"
    down, up = _split_cards(event.cards, event.face_up)
    if event.street >= 7:
        title = f"Your seven cards — {hand}"
        body = f"`{cards_text(event.cards)}`\nDown: `{down}` · Up: `{up}`"
    else:
        title = f"Your cards — {hand}"
        body = f"Down: `{down}` · Door card: `{up}`"
    embed = discord.Embed(title=title, description=body, colour=COLOR_PRIVATE)
    embed.add_field(name="Table", value=where, inline=False)
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


RULES_COMMON = (
    "Each player antes, gets two cards face down and one face up. The lowest up card "
    "brings in; then four more streets (three up, the last down), a betting round on each. "
    "Fixed limit: small bets on 3rd and 4th street, big bets from 5th; one bet and three "
    "raises per round."
)
RULES_STUD = (
    "Best five-card high hand of seven wins. From 4th street the best showing hand acts "
    "first; an open pair on 4th street allows the big bet."
)
RULES_STUD8 = (
    "The pot is split between the best high hand and the best low of five different "
    "ranks 8 or lower (aces low; straights and flushes do not spoil a low). With no "
    "qualifying low the high hand takes all."
)


def rules_embed(config: TableConfig, has_table: bool) -> discord.Embed:
    summary = RULES_STUD8 if config.variant.rules.split_low else RULES_STUD
    embed = discord.Embed(
        title=config.variant.title,
        description=f"{RULES_COMMON}\n\n{summary}",
        colour=COLOR_WAITING,
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
    if not has_table:
        embed.set_footer(text="No table in this channel yet: /stud join opens one.")
    return embed


def config_embed(
    config: TableConfig, economy: GuildEconomy, *, scope: str, changed: Sequence[str] = ()
) -> discord.Embed:
    title = "Settings changed" if changed else "Settings"
    embed = discord.Embed(title=f"{title} ({scope})", colour=COLOR_WAITING)
    embed.add_field(name="Game", value=config.variant.title, inline=False)
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
        embed.set_footer(
            text="Changed: " + ", ".join(changed) + ". Stakes apply from the next hand."
        )
    return embed
