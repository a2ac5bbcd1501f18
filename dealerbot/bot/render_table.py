"""The live table message, laid out for a phone: the game in the title, one line a seat.

Built from the public :class:`~dealerbot.tables.TableView` only (up cards), the turn's
options, the hand's actions (:mod:`.action_log`) and the dealer's notes (time bank,
timeouts). No I/O, no rules.
"""

from __future__ import annotations

from collections.abc import Sequence

import discord

from dealerbot.tables import GamesView, SeatView, TablePhase, TableView
from dealerbot.tables import events as ev

from . import action_log, mentions
from .discord_limits import EMBED_FIELD_VALUE
from .render import (
    COLOR_CLOSED,
    COLOR_PLAYING,
    COLOR_WAITING,
    cards_text,
    line_text,
    name_text,
    timestamp,
)
from .render_games import choice_text, game_line, short_title

COMMITMENT_SHOWN = 12  # hex digits of the deck commitment in the footer
LAST_ACTIONS_SHOWN = 8  # without the hand's own action log (a resumed hand)


def stakes_text(view: TableView) -> str:
    s = view.stakes
    return (
        f"{s.small_bet}/{s.big_bet} fixed limit · ante {s.ante} · bring-in {s.bring_in}\n"
        f"buy-in {s.min_buy_in}–{s.max_buy_in} · {s.seats} seats"
    )


def heading(view: TableView) -> str:
    """``Stud Hi/Lo · 5/10 · hand #5`` (``waiting``, ``closed`` between hands)."""
    s = view.stakes
    base = f"{short_title(s)} · {s.small_bet}/{s.big_bet}"
    if view.status is TablePhase.CLOSED:
        return f"{base} · table closed"
    if view.hand_id is not None and view.hand_number is not None:
        return f"{base} · hand #{view.hand_number}"
    return f"{base} · waiting"


def games_text(games: GamesView) -> str:
    """``Razz — hand 3 of 8, then Stud Hi/Lo``, the last pick, and a pick waiting."""
    lines = [game_line(games)]
    if games.note:
        lines.append(f"*{line_text(games.note)}.*")
    if games.choice is not None:
        lines.append(choice_text(games.choice, games.game, timestamp(games.choice.deadline)))
    return "\n".join(lines)[:EMBED_FIELD_VALUE]


def short_commitment(commitment: str) -> str:
    return commitment[:COMMITMENT_SHOWN] + "…" if len(commitment) > COMMITMENT_SHOWN else commitment


def busted(seat: SeatView) -> bool:
    """No chips and not in the hand being played: he cannot be dealt in until he rebuys."""
    return seat.stack <= 0 and not seat.in_hand


def seat_flags(seat: SeatView, playing: bool) -> list[str]:
    flags = []
    if seat.folded:
        flags.append("folded")
    if seat.all_in:
        flags.append("all-in")
    if busted(seat):
        flags.append("busted")
    elif seat.sitting_out:
        flags.append("sitting out")
    if seat.leaving:
        flags.append("leaving")
    if playing and not seat.in_hand and not flags:
        flags.append("next hand")
    return flags


def seat_line(seat: SeatView, playing: bool) -> str:
    """``▶ **alice** · 95 · `🂠 🂠 K♠` · bet 5`` (no seat number: in stud it means nothing);
    a queued top-up follows the stack: ``**bob** · 40 · +100 next hand · ...``."""
    marker = "▶" if seat.to_act else "•"
    parts = [f"{marker} **{name_text(seat.name)}**", f"{seat.stack}"]
    if seat.queued:  # a top-up asked for during the hand
        parts.append(f"+{seat.queued} next hand")
    if seat.in_hand and seat.cards:
        parts.append(f"`{cards_text(seat.cards)}`")
    if seat.bet:
        parts.append(f"bet {seat.bet}")
    flags = seat_flags(seat, playing)
    if flags:
        parts.append("*" + ", ".join(flags) + "*")
    line = " · ".join(parts)
    return f"~~{line}~~" if seat.folded else line


def waiting_text(view: TableView) -> str:
    if view.status is TablePhase.CLOSING:
        return "The table closes after this hand."
    if view.status is TablePhase.CLOSED:
        return f"This table is closed. {mentions.command('stud join')} opens it again."
    ready, needed = view.ready_players, view.players_needed  # the service's count and rule
    if view.next_hand_at is not None:
        return f"Dealing {timestamp(view.next_hand_at)}."
    if ready < needed:
        join = mentions.command("stud join")
        return f"Waiting for players ({ready} ready, {needed} needed): {join}."
    return f"Ready: {mentions.command('stud start')} deals a hand."


def turn_text(view: TableView, turn: ev.Turn | None, notes: Sequence[str] = ()) -> str:
    if view.to_act_user is None:
        text = "Dealing…"
    else:
        text = f"<@{view.to_act_user}>"
        if turn is not None and turn.to_call:
            text += f" · {turn.to_call} to call"
        if view.deadline is not None:
            text += f" · time runs out {timestamp(view.deadline)}"
    for note in notes:
        text += f"\n{note}"
    return text


def table_embed(
    view: TableView,
    turn: ev.Turn | None,
    acts: Sequence[action_log.Act] | None = None,
    notes: Sequence[str] = (),
) -> discord.Embed:
    """The public table. ``acts``: this hand's actions (None: unknown, e.g. after a restart);
    ``notes``: what the dealer did in this hand (time bank, timeouts), newest last."""
    playing = view.hand_id is not None and view.status in (TablePhase.PLAYING, TablePhase.CLOSING)
    colour = (
        COLOR_PLAYING
        if playing
        else COLOR_CLOSED
        if view.status is TablePhase.CLOSED
        else COLOR_WAITING
    )
    seats = [seat_line(seat, playing) for seat in view.seats]
    empty = f"*No one is seated. {mentions.command('stud join')} to sit down.*"
    embed = discord.Embed(title=heading(view), description="\n".join(seats) or empty, colour=colour)
    games = view.games
    if games is not None:  # a mixed game: which, hand k of n, what next (and a pick)
        embed.add_field(name="Game", value=games_text(games), inline=False)
    if not playing:
        embed.add_field(name="Stakes", value=stakes_text(view), inline=False)
        embed.add_field(name="Next hand", value=waiting_text(view), inline=False)
        return embed
    embed.add_field(name="Pot", value=str(view.pot), inline=True)
    if view.community is not None:
        embed.add_field(name="Community card", value=f"`{view.community.pretty}`", inline=True)
    embed.add_field(
        name="To act", value=turn_text(view, turn, notes[-2:])[:EMBED_FIELD_VALUE], inline=False
    )
    if acts is not None:
        lines = action_log.live_lines(acts, view.street, name_text)
    else:
        lines = [line_text(t) for t in view.last_actions[-LAST_ACTIONS_SHOWN:]]
    if lines:
        embed.add_field(name="Actions", value=action_log.fit(lines), inline=False)
    s = view.stakes
    footer = f"ante {s.ante} · bring-in {s.bring_in}"
    if view.commitment:
        footer += f" · deck {short_commitment(view.commitment)}"
    embed.set_footer(text=footer)
    return embed
