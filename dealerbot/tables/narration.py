"""Narration: how the table tells a hand, from the engine's events to the service's.

:func:`narrate` turns the engine events of one ``start_hand`` or ``apply`` into service
events: public ones are made only from engine events whose ``private_to`` is None; a
face-down :class:`~dealerbot.engine.events.CardDealt` feeds nothing but the owner's
:class:`~dealerbot.tables.events.PrivateCards`. This is the one place where the events are
split into public and private, and the leak test in tests/tables checks it over many hands
(the views are split in :mod:`.projection`). It also writes the public action lines, what a
shown hand reads as (the five cards that play, then the others; the name of the made hand,
in razz the low: "7-5-4-2-A (Seven low)") and the end of a hand's whole public story
(:func:`hand_ended`). Only hands shown at showdown are read here: a folded hand never is.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from dealerbot.engine import (
    LAST_STREET,
    Card,
    HandState,
    Rank,
    best_high,
    best_low,
    best_razz,
    dealt_face_up,
    has_down_card,
)
from dealerbot.engine import events as ev
from dealerbot.store.hands import HandRecord

from . import events as out
from .events import AutoReason
from .hand_log import Ended, Player
from .settings import TableConfig

LAST_ACTIONS = 8
"""Public action lines a table keeps (and a resumed hand gets back)."""

# Face-up pattern of a player's cards in dealing order, from the variant's street table.
DEALT_FACE_UP = dealt_face_up()


@dataclass(slots=True)
class Narration:
    """Service events for one engine step, plus what the table must act on."""

    events: list[out.TableEvent] = field(default_factory=list)
    action_lines: list[str] = field(default_factory=list)  # the public "last actions"
    shown: list[out.ShownHand] = field(default_factory=list)
    pots: list[out.PotWon] = field(default_factory=list)
    ended: bool = False
    cancelled_reason: str | None = None
    showdown: out.Showdown | None = None  # also in ``events``


def returned_text(name: str, amount: int) -> str:
    """``12 returned to bob``: the uncalled part of a bet, given back (R7.5)."""
    return f"{amount} returned to {name}"


def action_text(name: str, kind: ev.ActionKind, amount: int, to: int, all_in: bool) -> str:
    return f"{name}: {ev.LegalAction(kind, amount, to, all_in).label}"


def narrate(
    guild_id: int,
    channel_id: int,
    hand_id: int,
    players: Mapping[int, Player],
    engine_events: Sequence[ev.Event],
    state: HandState,
    seq: int | None = None,
    auto: AutoReason | None = None,
) -> Narration:
    """Service events for ``engine_events`` (what one ``start_hand`` or ``apply`` returned).

    ``state`` is the state after those events (used for the private card lists),
    ``seq`` the number of the action applied, ``auto`` why the service acted.
    """
    result = Narration()
    emit = result.events.append
    street: int | None = None
    up_cards: list[tuple[int, Card]] = []
    community: Card | None = None
    down_seats: list[int] = []

    def flush() -> None:
        nonlocal street, community
        if street is None:
            return
        emit(out.StreetDealt(guild_id, channel_id, hand_id, street, tuple(up_cards), community))
        if has_down_card(street):
            for seat in dict.fromkeys(down_seats):
                cards = state.cards_of(seat)[:street]
                player = players[seat]
                made = last_street_names(state, cards) if street == LAST_STREET else (None, None)
                emit(
                    out.PrivateCards(
                        guild_id,
                        channel_id,
                        player.user_id,
                        hand_id,
                        street,
                        cards,
                        DEALT_FACE_UP[: len(cards)],
                        *made,
                    )
                )
        street, community = None, None
        up_cards.clear()
        down_seats.clear()

    for event in engine_events:
        if isinstance(event, ev.CardDealt):
            if event.private_to is None:
                up_cards.append((event.seat, event.card))
            else:
                down_seats.append(event.seat)
            continue
        if isinstance(event, ev.CommunityCardDealt):
            community = event.card
            continue
        flush()
        if isinstance(event, ev.StreetStarted):
            street = event.street
        elif isinstance(event, ev.AntePosted):
            emit(
                out.AntePosted(
                    guild_id,
                    channel_id,
                    hand_id,
                    event.seat,
                    players[event.seat].user_id,
                    event.amount,
                    event.all_in,
                )
            )
        elif isinstance(event, ev.ActionTaken):
            player = players[event.seat]
            text = action_text(player.name, event.kind, event.amount, event.to, event.all_in)
            result.action_lines.append(text)
            emit(
                out.ActionTaken(
                    guild_id,
                    channel_id,
                    hand_id,
                    seq if seq is not None else -1,
                    event.seat,
                    player.user_id,
                    player.name,
                    event.kind,
                    event.amount,
                    event.to,
                    event.all_in,
                    event.street,
                    text,
                    auto,
                )
            )
        elif isinstance(event, ev.UncalledReturned):
            name = players[event.seat].name
            result.action_lines.append(returned_text(name, event.amount))
        elif isinstance(event, ev.CardsExposed):
            emit(
                out.CardsExposed(
                    guild_id,
                    channel_id,
                    hand_id,
                    event.seat,
                    players[event.seat].user_id,
                    event.cards,
                )
            )
        elif isinstance(event, ev.HandShown):
            player = players[event.seat]
            result.shown.append(
                out.ShownHand(
                    event.seat,
                    player.user_id,
                    player.name,
                    event.cards,
                    event.high,
                    event.low,
                    *shown_parts(event),
                )
            )
        elif isinstance(event, ev.PotAwarded):
            result.pots.append(
                out.PotWon(
                    event.index, event.amount, event.high_winners, event.low_winners, event.shares
                )
            )
        elif isinstance(event, ev.HandCancelled):
            result.cancelled_reason = event.reason
        elif isinstance(event, ev.HandEnded):
            result.ended = True
    flush()
    if result.ended and result.cancelled_reason is None:
        result.showdown = out.Showdown(
            guild_id,
            channel_id,
            hand_id,
            tuple(result.shown),
            tuple(result.pots),
            state.community,
            tuple((seat, players[seat].name) for seat in state.labels),
        )
        emit(result.showdown)
    return result


def hand_results(
    record: HandRecord, players: Mapping[int, Player], state: HandState | None
) -> tuple[tuple[tuple[int, int], ...], tuple[tuple[int, int], ...]]:
    """(user id, net chips) for everyone dealt in, and (seat, stack) after the hand."""
    if state is not None and state.result is not None and not state.result.cancelled:
        finals = state.result.final_stacks
        results = tuple(
            (players[seat].user_id, finals[seat] - start)
            for seat, start in zip(state.labels, state.start_stacks, strict=True)
        )
        return results, tuple(sorted(finals.items()))
    return (
        tuple((p.user_id, 0) for p in players.values()),
        tuple((s.seat_no, s.stack) for s in record.seats),
    )


def hand_ended(
    guild_id: int,
    channel_id: int,
    ended: Ended,
    last_actions: tuple[str, ...],
    actions: tuple[out.ActionTaken, ...] = (),
) -> out.HandEnded:
    """The end of a hand with its whole public story (see :class:`events.HandEnded`)."""
    record = ended.record
    results, stacks = hand_results(record, ended.players, ended.state)
    result = ended.state.result if ended.state is not None else None
    returned = tuple(sorted(result.returned.items())) if result is not None else ()
    return out.HandEnded(
        guild_id,
        channel_id,
        record.id,
        record.number,
        results,
        stacks,
        ended.cancelled is not None,
        ended.cancelled,
        record.commitment,
        TableConfig.from_row(record.config).variant,
        tuple(
            out.SeatedPlayer(s.seat_no, s.user_id, s.display_name, s.stack) for s in record.seats
        ),
        ended.showdown,
        last_actions,
        actions,
        returned,
    )


# --- what a shown or dealt hand reads as ------------------------------------------------

ACE_LOW = 1


def high_five(cards: Sequence[Card]) -> tuple[Card, ...]:
    """The best high five (display order), or () with fewer than five cards."""
    if not 5 <= len(cards) <= 7:
        return ()
    return best_high(cards).cards


def low_five(cards: Sequence[Card]) -> tuple[Card, ...]:
    """The five cards of the best eight-or-better low, high to low; () when none qualifies."""
    if len(cards) < 5:
        return ()
    low = best_low(cards)
    if low is None:
        return ()
    return _cards_of_ranks(cards, low.ranks)


def razz_five(cards: Sequence[Card]) -> tuple[Card, ...]:
    """The five cards of the best ace-to-five low (razz), high to low; () unless 5 to 7."""
    if not 5 <= len(cards) <= 7:
        return ()
    return _cards_of_ranks(cards, best_razz(cards).ranks)


def _cards_of_ranks(cards: Sequence[Card], ranks: Sequence[int]) -> tuple[Card, ...]:
    """One card for each ace-low rank wanted (a pair's two ranks take two cards), in order."""
    picked: list[Card] = []
    left = list(cards)
    for wanted in ranks:
        for card in left:
            if _low_value(card) == wanted:
                picked.append(card)
                left.remove(card)
                break
    return tuple(picked)


def made_hand(
    cards: Sequence[Card], split_low: bool, lowball: bool = False
) -> tuple[str | None, str | None]:
    """The name of the high hand (and, in Hi/Lo, the low or "no low"; in razz the ace-to-five
    low alone) of 5 to 7 cards."""
    if not 5 <= len(cards) <= 7:
        return None, None
    if lowball:  # razz: the pot is played for the low alone, named as razz players read it
        return str(best_razz(cards)), None
    high = best_high(cards).name
    if not split_low:
        return high, None
    low = best_low(cards)
    return high, low.name if low is not None else "no low"


def _low_value(card: Card) -> int:
    return ACE_LOW if card.rank is Rank.ACE else int(card.rank)


def playing_fives(shown: ev.HandShown) -> tuple[tuple[Card, ...], tuple[Card, ...]]:
    """The five cards that play for the high and for the low of a shown hand (in razz the
    five of the ace-to-five low, as the hand that plays: it is what ``shown.high`` names)."""
    cards = shown.playing_cards
    if shown.lowball:
        return razz_five(cards), ()
    return high_five(cards), low_five(cards) if shown.split_low else ()


def not_playing(cards: Sequence[Card], *fives: Sequence[Card]) -> tuple[Card, ...]:
    """The cards of ``cards`` in none of ``fives``, in their order (dealing order); none
    when no five is known (the cards are then shown as they are)."""
    if not any(fives):
        return ()
    playing = {card for five in fives for card in five}
    return tuple(card for card in cards if card not in playing)


def shown_parts(
    shown: ev.HandShown,
) -> tuple[tuple[Card, ...], tuple[Card, ...], tuple[Card, ...]]:
    """What a shown hand shows: the high five (razz: the low five), the five of the low
    (Hi/Lo) and the cards, community card included, that play in neither."""
    high, low = playing_fives(shown)
    return high, low, not_playing(shown.playing_cards, high, low)


def last_street_names(state: HandState, cards: Sequence[Card]) -> tuple[str | None, str | None]:
    """A player's made hand (and low) on the last street, the community card counted."""
    rules = state.variant.rules
    playing = (*cards, state.community) if state.community is not None else tuple(cards)
    return made_hand(playing, rules.split_low, rules.lowball)
