"""A hand's result, winner first: who won what with which hand, then the hands and actions.

``carol wins 54 with Two pair, tens and deuces``; in Hi/Lo ``alice wins the high (43)
with ... · bob wins the low (43) with 8-7-5-2-A`` or ``alice scoops 86 with ...``; side
pots by name and amount (``Side pot (50)``). Each shown hand shows all its cards: the
five that play (and the five of the low), then the others after the words "not playing",
in a code span of their own (in a code span the suits stay text on every phone, and a
strike-through would not reach inside one); the actions are one line per street. No I/O.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import discord

from dealerbot.tables import events as ev

from . import action_log
from .discord_limits import EMBED_TEXT_BUDGET, EMBED_TITLE
from .render import COLOR_CLOSED, COLOR_RESULT, cards_text, line_text, name_text
from .render_games import short_title
from .render_table import short_commitment

MAX_TITLE_WINNERS = 3


def pot_label(pot: ev.PotWon, pots: int) -> str:
    if pots <= 1:
        return ""
    return f"Main pot ({pot.amount})" if pot.index == 0 else f"Side pot ({pot.amount})"


def _hands(showdown: ev.Showdown) -> dict[int, ev.ShownHand]:
    return {hand.seat: hand for hand in showdown.shown}


def pot_text(
    pot: ev.PotWon, split_low: bool, names: Mapping[int, str], hands: Mapping[int, ev.ShownHand]
) -> str:
    """Who won this pot, winner first, with the hand that won it."""
    chips = dict(pot.shares)

    def who(seat: int) -> str:
        return f"**{name_text(names.get(seat, f'seat {seat + 1}'))}**"

    def high_of(seat: int) -> str:
        hand = hands.get(seat)
        return f" with {hand.high}" if hand is not None else ""

    def low_of(seat: int) -> str:
        hand = hands.get(seat)
        return f" with {hand.low}" if hand is not None and hand.low else ""

    if not hands:
        return " · ".join(f"{who(seat)} wins {amount} uncontested" for seat, amount in pot.shares)
    if not split_low or not pot.low_winners:
        tail = " (no qualifying low)" if split_low else ""
        best = pot.high_winners or pot.low_winners  # razz: the whole pot to the low (R14.1)
        if len(best) == 1:
            seat = best[0]
            verb = "scoops" if split_low else "wins"
            return f"{who(seat)} {verb} {chips.get(seat, pot.amount)}{high_of(seat)}{tail}"
        return (
            " · ".join(
                f"{who(seat)} splits for {chips.get(seat, 0)}{high_of(seat)}" for seat in best
            )
            + tail
        )
    if pot.high_winners == pot.low_winners and len(pot.high_winners) == 1:
        seat = pot.high_winners[0]
        return (
            f"{who(seat)} scoops {chips.get(seat, pot.amount)}{high_of(seat)}"
            f" and the low{low_of(seat)}"
        )
    parts = []
    for seat, amount in pot.shares:
        high, low = seat in pot.high_winners, seat in pot.low_winners
        if high and low:
            parts.append(f"{who(seat)} wins the high and the low ({amount}){high_of(seat)}")
        elif high:
            parts.append(f"{who(seat)} wins the high ({amount}){high_of(seat)}")
        else:
            parts.append(f"{who(seat)} wins the low ({amount}){low_of(seat)}")
    return " · ".join(parts)


def winners(ended: ev.HandEnded) -> list[str]:
    """Everyone who took chips from a pot, biggest share first."""
    showdown = ended.showdown
    if showdown is None:
        return []
    names = {p.seat: p.name for p in ended.players}
    names.update(dict(showdown.names))
    won: dict[int, int] = {}
    for pot in showdown.pots:
        for seat, amount in pot.shares:
            won[seat] = won.get(seat, 0) + amount
    order = sorted(won, key=lambda seat: -won[seat])
    return [names.get(seat, f"seat {seat + 1}") for seat in order]


def title(ended: ev.HandEnded) -> str:
    """``Stud · hand #5 — carol wins`` (``alice and bob win``)."""
    base = f"{short_title(ended.variant)} · hand #{ended.number}"
    names = [name_text(n) for n in winners(ended)]
    if not names:
        return f"{base} — result"
    if len(names) == 1:
        return f"{base} — {names[0]} wins"[:EMBED_TITLE]
    if len(names) > MAX_TITLE_WINNERS:
        return f"{base} — {len(names)} players share the pots"
    return f"{base} — {', '.join(names[:-1])} and {names[-1]} win"[:EMBED_TITLE]


NOT_PLAYING = "not playing"  # the cards of a shown hand in neither five


def shown_line(hand: ev.ShownHand, split_low: bool) -> str:
    """A shown hand: the five that play (all its cards if unknown) and its name, the low
    (Hi/Lo), then the cards that play in neither."""
    five = hand.high_cards or hand.cards
    text = f"**{name_text(hand.name)}** `{cards_text(five)}` {hand.high}"
    if split_low:
        if hand.low_cards:
            text += f" · low `{cards_text(hand.low_cards)}` {hand.low}"
        else:
            text += " · no low"
    if hand.idle_cards:
        text += f" · {NOT_PLAYING} `{cards_text(hand.idle_cards)}`"
    return text


def result_lines(ended: ev.HandEnded) -> list[str]:
    split_low = ended.variant.rules.split_low
    lines: list[str] = []
    showdown = ended.showdown
    if showdown is not None and showdown.pots:
        names = {p.seat: p.name for p in ended.players}
        names.update(dict(showdown.names))
        hands = _hands(showdown)
        count = len(showdown.pots)
        for pot in showdown.pots:
            label = pot_label(pot, count)
            text = pot_text(pot, split_low, names, hands)
            lines.append(f"{label}: {text}" if label else text)
    if showdown is not None and showdown.shown:
        lines.append("")
        lines.extend(shown_line(hand, split_low) for hand in showdown.shown)
        if showdown.community is not None:
            lines.append(f"Community card: `{showdown.community.pretty}`")
    if ended.results:
        users = {player.user_id: player.name for player in ended.players}
        changes = ", ".join(
            f"{name_text(users.get(user, str(user)))} {delta:+d}" for user, delta in ended.results
        )
        lines.append(f"**Chips** {changes}")
    return lines


def result_embed(
    ended: ev.HandEnded, acts: Sequence[action_log.Act] | None = None
) -> discord.Embed:
    """The result that replaces the hand's table message."""
    footer = f"Hand #{ended.number} · deck {short_commitment(ended.commitment)}"
    if ended.cancelled:
        embed = discord.Embed(
            title=f"{short_title(ended.variant)} · hand #{ended.number} — cancelled",
            description=f"{ended.reason or 'The hand could not go on'}. "
            "Every chip put in went back.",
            colour=COLOR_CLOSED,
        )
        embed.set_footer(text=footer)
        return embed
    embed = discord.Embed(
        title=title(ended),
        description="\n".join(result_lines(ended))[:EMBED_TEXT_BUDGET] or "The hand is over.",
        colour=COLOR_RESULT,
    )
    if acts:
        lines = action_log.summary_lines(acts, name_text)
    else:
        lines = [line_text(t) for t in ended.last_actions]
    if lines:
        embed.add_field(name="Actions", value=action_log.fit(lines), inline=False)
    embed.add_field(  # the id a player types to get this hand's history or its proof
        name="Hand id",
        value=f"{ended.hand_id} · /stud hand id:{ended.hand_id} · /stud verify id:{ended.hand_id}",
        inline=False,
    )
    embed.set_footer(text=footer)
    return embed
