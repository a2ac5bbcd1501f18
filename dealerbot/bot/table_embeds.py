"""The table's public messages: the live table, each hand's result, the table-closed notice.

The live table is laid out for a phone: the game in the title, one line a seat, built from
the public :class:`~dealerbot.tables.TableView` only (up cards), the turn's options, the
hand's actions (:mod:`.hand_story`) and the dealer's notes (time bank, timeouts).

A result names the winner first: ``carol wins 54 with Two pair, tens and deuces``; in
Hi/Lo ``alice wins the high (43) with ... · bob wins the low (43) with 8-7-5-2-A`` or
``alice scoops 86 with ...``; side pots by name and amount (``Side pot (50)``). Each shown
hand shows all its cards: the five that play (and the five of the low), then the others
after the words "not playing", each group apart (text cards in a code span of their own:
there the suits stay text on every phone; picture cards side by side, never in a code
span); the actions are one line per street. Cards are drawn by the table's deck
(:func:`~.markup.cards_shown`); a message whose picture cards would pass Discord's limits
is drawn with text cards instead. No I/O, no rules.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import discord

from dealerbot.tables import GamesView, SeatView, TablePhase, TableView, returned_text
from dealerbot.tables import events as ev

from .discord_limits import EMBED_FIELD_VALUE, EMBED_TEXT_BUDGET, EMBED_TITLE
from .games_text import choice_text, game_line, short_title
from .hand_story import Act, fit, live_lines, summary_lines
from .markup import (
    COLOR_CLOSED,
    COLOR_PLAYING,
    COLOR_RESULT,
    COLOR_WAITING,
    TEXT_FACES,
    CardFaces,
    cards_shown,
    command_hint,
    fitted,
    line_text,
    name_text,
    timestamp,
    who,
)

# --- the live table ----------------------------------------------------------------------

COMMITMENT_SHOWN = 12  # hex digits of the deck commitment in the footer
LAST_ACTIONS_SHOWN = 8  # without the hand's own action log (a resumed hand)


def stakes_text(view: TableView) -> str:
    s = view.stakes
    return (
        f"{s.small_bet}/{s.big_bet} fixed limit · ante {s.ante} · bring-in {s.bring_in}\n"
        f"buy-in {s.min_buy_in}–{s.max_buy_in} · {s.seats} seats"
    )


def heading(view: TableView) -> str:
    """``Stud Hi/Lo · 5/10 · hand #5`` (``waiting``, ``closed`` between hands);
    ``Dealer's choice · waiting`` while the button player picks the game."""
    s = view.stakes
    choosing = view.games is not None and view.games.choice is not None
    if choosing and view.hand_id is None and view.status is not TablePhase.CLOSED:
        return "Dealer's choice · waiting"
    base = f"{short_title(s)} · {s.small_bet}/{s.big_bet}"
    if view.status is TablePhase.CLOSED:
        return f"{base} · table closed"
    if view.hand_id is not None and view.hand_number is not None:
        return f"{base} · hand #{view.hand_number}"
    return f"{base} · waiting"


def games_field(games: GamesView) -> str:
    """``Razz — hand 3 of 8, then Stud Hi/Lo``, the last pick, and a pick waiting."""
    lines = [game_line(games)]
    if games.note and games.choice is None:  # a new pick makes the last one's note old
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
    elif seat.sitting_out:  # still in the hand: he finishes it first
        flags.append("sits out next hand" if seat.in_hand else "sitting out")
    if seat.leaving:
        flags.append("leaving")
    if playing and not seat.in_hand and not flags:
        flags.append("next hand")
    return flags


def seat_line(
    seat: SeatView, playing: bool, faces: CardFaces = TEXT_FACES, mark: str | None = None
) -> str:
    """``▶ **alice** · 95 · `🂠 🂠 K♠` · bet 5`` (no seat number: in stud it means nothing);
    a queued top-up follows the stack: ``**bob** · 40 · +100 next hand · ...``; ``mark``
    (the relay's, e.g. ``cards: My cards`` for a player whose DMs are closed) too."""
    marker = "▶" if seat.to_act else "•"
    parts = [f"{marker} **{name_text(seat.name)}**", f"{seat.stack}"]
    if mark:
        parts.append(mark)
    if seat.queued:  # a top-up asked for during the hand
        parts.append(f"+{seat.queued} next hand")
    if seat.in_hand and seat.cards:
        parts.append(cards_shown(seat.cards, faces))
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
        return f"This table is closed. {command_hint('stud join')} opens it again."
    ready, needed = view.ready_players, view.players_needed  # the service's count and rule
    if view.next_hand_at is not None:
        return f"Dealing {timestamp(view.next_hand_at)}."
    if ready < needed:
        join = command_hint("stud join")
        return f"Waiting for players ({ready} ready, {needed} needed): {join}."
    return f"Ready: {command_hint('stud start')} deals a hand."


SOMEONE = "a player"  # a seat with no name known (seats carry no numbers at the table)


def side_pot_name(index: int, pots: int) -> str:
    """``Main pot``, then ``Side pot`` (one) or ``Side pot 1``, ``Side pot 2``..."""
    if index == 0:
        return "Main pot"
    return "Side pot" if pots == 2 else f"Side pot {index}"


def pot_field(view: TableView) -> str:
    """The pot; while someone is all-in, the main pot and each side pot with who is in it
    (``Main pot 60: alice, bob, carol``), as PokerStars shows them."""
    if not view.pots:
        return str(view.pot)
    names = {seat.seat: seat.name for seat in view.seats}
    lines = [str(view.pot)]
    for index, pot in enumerate(view.pots):
        label = side_pot_name(index, len(view.pots))
        who = ", ".join(name_text(names.get(seat, SOMEONE)) for seat in pot.seats)
        lines.append(f"{label} {pot.amount}: {who}")
    return "\n".join(lines)


def turn_text(view: TableView, turn: ev.Turn | None, notes: Sequence[str] = ()) -> str:
    if view.to_act_user is None:
        text = "Dealing…"
    else:
        names = {seat.user_id: seat.name for seat in view.seats}
        text = who(view.to_act_user, names.get(view.to_act_user, "?"))
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
    acts: Sequence[Act] | None = None,
    notes: Sequence[str] = (),
    faces: CardFaces = TEXT_FACES,
    marks: Mapping[int, str] | None = None,
) -> discord.Embed:
    """The public table. ``acts``: this hand's actions (None: unknown, e.g. after a restart);
    ``notes``: what the dealer did in this hand (time bank, timeouts), newest last;
    ``marks``: a word after some players' stacks (by user id);
    ``faces``: the table's deck."""
    return fitted(lambda shown: _table_embed(view, turn, acts, notes, shown, marks or {}), faces)


def _table_embed(
    view: TableView,
    turn: ev.Turn | None,
    acts: Sequence[Act] | None,
    notes: Sequence[str],
    faces: CardFaces,
    marks: Mapping[int, str],
) -> discord.Embed:
    playing = view.hand_id is not None and view.status in (TablePhase.PLAYING, TablePhase.CLOSING)
    colour = (
        COLOR_PLAYING
        if playing
        else COLOR_CLOSED
        if view.status is TablePhase.CLOSED
        else COLOR_WAITING
    )
    seats = [seat_line(seat, playing, faces, marks.get(seat.user_id)) for seat in view.seats]
    empty = f"*No one is seated. {command_hint('stud join')} to sit down.*"
    embed = discord.Embed(title=heading(view), description="\n".join(seats) or empty, colour=colour)
    games = view.games
    if games is not None:  # a mixed game: which, hand k of n, what next (and a pick)
        embed.add_field(name="Game", value=games_field(games), inline=False)
    if not playing:
        embed.add_field(name="Stakes", value=stakes_text(view), inline=False)
        embed.add_field(name="Next hand", value=waiting_text(view), inline=False)
        return embed
    embed.add_field(name="Pot", value=pot_field(view)[:EMBED_FIELD_VALUE], inline=True)
    if view.community is not None:
        community = cards_shown([view.community], faces)
        embed.add_field(name="Community card", value=community, inline=True)
    embed.add_field(
        name="To act", value=turn_text(view, turn, notes[-2:])[:EMBED_FIELD_VALUE], inline=False
    )
    if acts is not None:
        lines = live_lines(acts, view.street, name_text)
    else:
        lines = [line_text(t) for t in view.last_actions[-LAST_ACTIONS_SHOWN:]]
    if lines:
        embed.add_field(name="Actions", value=fit(lines), inline=False)
    s = view.stakes
    footer = f"ante {s.ante} · bring-in {s.bring_in}"
    if view.commitment:
        footer += f" · deck {short_commitment(view.commitment)}"
    embed.set_footer(text=footer)
    return embed


# --- a hand's result ---------------------------------------------------------------------

MAX_TITLE_WINNERS = 3


def pot_label(pot: ev.PotWon, pots: int) -> str:
    if pots <= 1:
        return ""
    return f"Main pot ({pot.amount})" if pot.index == 0 else f"Side pot ({pot.amount})"


def _shown_by_seat(showdown: ev.Showdown) -> dict[int, ev.ShownHand]:
    return {hand.seat: hand for hand in showdown.shown}


def pot_text(
    pot: ev.PotWon, split_low: bool, names: Mapping[int, str], shown: Mapping[int, ev.ShownHand]
) -> str:
    """Who won this pot, winner first, with the hand that won it."""
    chips = dict(pot.shares)

    def who(seat: int) -> str:
        return f"**{name_text(names.get(seat, SOMEONE))}**"

    def high_of(seat: int) -> str:
        hand = shown.get(seat)
        return f" with {hand.high}" if hand is not None else ""

    def low_of(seat: int) -> str:
        hand = shown.get(seat)
        return f" with {hand.low}" if hand is not None and hand.low else ""

    if not shown:
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
    """Who took chips from the main pot, biggest share first: the title names them (a
    small side pot does not share the title; its line says who took it)."""
    showdown = ended.showdown
    if showdown is None or not showdown.pots:
        return []
    names = {p.seat: p.name for p in ended.players}
    names.update(dict(showdown.names))
    main = min(showdown.pots, key=lambda pot: pot.index)
    won: dict[int, int] = {}
    for seat, amount in main.shares:
        won[seat] = won.get(seat, 0) + amount
    order = sorted(won, key=lambda seat: -won[seat])
    return [names.get(seat, SOMEONE) for seat in order]


def result_title(ended: ev.HandEnded) -> str:
    """``Stud · hand #5 — carol wins`` (``alice and bob win``)."""
    base = f"{short_title(ended.variant)} · hand #{ended.number}"
    names = [name_text(n) for n in winners(ended)]
    if not names:
        return f"{base} — result"
    if len(names) == 1:
        return f"{base} — {names[0]} wins"[:EMBED_TITLE]
    if len(names) > MAX_TITLE_WINNERS:
        return f"{base} — {len(names)} players share the main pot"
    return f"{base} — {', '.join(names[:-1])} and {names[-1]} win"[:EMBED_TITLE]


NOT_PLAYING = "not playing"  # the cards of a shown hand in neither five


def shown_line(hand: ev.ShownHand, split_low: bool, faces: CardFaces = TEXT_FACES) -> str:
    """A shown hand: the five that play (all its cards if unknown) and its name, the low
    (Hi/Lo), then the cards that play in neither."""
    five = hand.high_cards or hand.cards
    text = f"**{name_text(hand.name)}** {cards_shown(five, faces)} {hand.high}"
    if split_low:
        if hand.low_cards:
            text += f" · low {cards_shown(hand.low_cards, faces)} {hand.low}"
        else:
            text += " · no low"
    if hand.idle_cards:
        text += f" · {NOT_PLAYING} {cards_shown(hand.idle_cards, faces)}"
    return text


def result_lines(ended: ev.HandEnded, faces: CardFaces = TEXT_FACES) -> list[str]:
    split_low = ended.variant.rules.split_low
    lines: list[str] = []
    showdown = ended.showdown
    if showdown is not None and showdown.pots:
        names = {p.seat: p.name for p in ended.players}
        names.update(dict(showdown.names))
        shown = _shown_by_seat(showdown)
        count = len(showdown.pots)
        for pot in showdown.pots:
            label = pot_label(pot, count)
            text = pot_text(pot, split_low, names, shown)
            lines.append(f"{label}: {text}" if label else text)
    if showdown is not None and showdown.shown:
        lines.append("")
        lines.extend(shown_line(hand, split_low, faces) for hand in showdown.shown)
        if showdown.community is not None:
            lines.append(f"Community card: {cards_shown([showdown.community], faces)}")
    if ended.returned:  # R7.5: the part of a bet nobody called went back
        seats = {p.seat: p.name for p in ended.players}
        lines.extend(
            returned_text(name_text(seats.get(seat, SOMEONE)), chips)
            for seat, chips in ended.returned
        )
    if ended.results:
        users = {player.user_id: player.name for player in ended.players}
        changes = ", ".join(
            f"{name_text(users.get(user, str(user)))} {delta:+d}" for user, delta in ended.results
        )
        lines.append(f"**Chips** {changes}")
    return lines


def result_text(ended: ev.HandEnded, faces: CardFaces) -> str:
    """The result's lines within the description's budget: with text cards when picture
    cards would not fit (a cut would split an emoji's markup), cut only as text."""
    text = "\n".join(result_lines(ended, faces))
    if faces.pictures and len(text) > EMBED_TEXT_BUDGET:
        text = "\n".join(result_lines(ended, TEXT_FACES))
    return text[:EMBED_TEXT_BUDGET]


def result_embed(
    ended: ev.HandEnded, acts: Sequence[Act] | None = None, faces: CardFaces = TEXT_FACES
) -> discord.Embed:
    """The result that replaces the hand's table message, its cards in the table's deck."""
    return fitted(lambda shown: _result_embed(ended, acts, shown), faces)


def _result_embed(
    ended: ev.HandEnded, acts: Sequence[Act] | None, faces: CardFaces
) -> discord.Embed:
    deck = short_commitment(ended.commitment)
    footer = f"Hand #{ended.number} · id {ended.hand_id} · deck {deck}"
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
        title=result_title(ended),
        description=result_text(ended, faces) or "The hand is over.",
        colour=COLOR_RESULT,
    )
    if acts:
        lines = summary_lines(acts, name_text)
    else:
        lines = [line_text(t) for t in ended.last_actions]
    if lines:
        embed.add_field(name="Actions", value=fit(lines), inline=False)
    embed.set_footer(text=footer)  # its buttons give the file and the proof; the id is there
    return embed


# --- the table closed --------------------------------------------------------------------


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
