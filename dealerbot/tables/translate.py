"""Turn engine events into service events.

Public service events are made only from engine events whose ``private_to`` is None;
a face-down :class:`~dealerbot.engine.events.CardDealt` feeds nothing but the owner's
:class:`~dealerbot.tables.events.PrivateCards`. This is the one place where the two
streams are split, and the leak test in tests/tables checks it over many hands.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from dealerbot.engine import events as ev
from dealerbot.engine.cards import Card
from dealerbot.engine.state import HandState

from . import events as out

# Face-up pattern of a player's cards in dealing order (R2.2, R2.3): down, down, up x4, down.
DEALT_FACE_UP = (False, False, True, True, True, True, False)
PRIVATE_STREETS = frozenset({3, 7})


@dataclass(frozen=True, slots=True)
class Player:
    user_id: int
    name: str


@dataclass(slots=True)
class Translation:
    """Service events for one engine step, plus what the table must act on."""

    events: list[out.TableEvent] = field(default_factory=list)
    actions: list[str] = field(default_factory=list)  # lines for the public "last actions"
    shown: list[out.ShownHand] = field(default_factory=list)
    pots: list[out.PotWon] = field(default_factory=list)
    ended: bool = False
    cancelled_reason: str | None = None


def action_text(name: str, kind: ev.ActionKind, amount: int, to: int, all_in: bool) -> str:
    return f"{name}: {ev.LegalAction(kind, amount, to, all_in).label}"


def translate(
    guild_id: int,
    channel_id: int,
    hand_id: int,
    players: Mapping[int, Player],
    engine_events: Sequence[ev.Event],
    state: HandState,
    seq: int | None = None,
    auto: str | None = None,
) -> Translation:
    """Service events for ``engine_events`` (what one ``start_hand`` or ``apply`` returned).

    ``state`` is the state after those events (used for the private card lists),
    ``seq`` the number of the action applied, ``auto`` why the service acted.
    """
    result = Translation()
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
        if street in PRIVATE_STREETS:
            for seat in dict.fromkeys(down_seats):
                cards = state.cards_of(seat)[:street]
                player = players[seat]
                emit(
                    out.PrivateCards(
                        guild_id,
                        channel_id,
                        player.user_id,
                        hand_id,
                        street,
                        cards,
                        DEALT_FACE_UP[: len(cards)],
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
            result.actions.append(text)
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
            result.actions.append(f"{name}: {event.amount} uncalled returned")
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
                    event.seat, player.user_id, player.name, event.cards, event.high, event.low
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
        emit(
            out.Showdown(
                guild_id,
                channel_id,
                hand_id,
                tuple(result.shown),
                tuple(result.pots),
                state.community,
                tuple((seat, players[seat].name) for seat in state.labels),
            )
        )
    return result
