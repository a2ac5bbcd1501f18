"""The projection: what front ends see of a table, built from values only.

Two outputs. The views (:func:`table_view`, :func:`player_view`) are built from a
:class:`TableSnapshot`: cards enter the public view only through the engine's public view
and only where the card's face-up flag is set, so a face-down card can never reach it
(R8.1, R8.2). The events (:func:`translate`) turn engine events into service events:
public ones are made only from engine events whose ``private_to`` is None; a face-down
:class:`~dealerbot.engine.events.CardDealt` feeds nothing but the owner's
:class:`~dealerbot.tables.events.PrivateCards`. This is the one place where the two streams
are split, and the leak test in tests/tables checks it over many hands.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from dealerbot.engine import LAST_STREET, Card, HandState, dealt_face_up, has_down_card, public_view
from dealerbot.engine import events as ev
from dealerbot.engine import player_view as engine_player_view
from dealerbot.store.hands import HandRecord
from dealerbot.store.seats import SeatRow
from dealerbot.store.tables import TableStatus

from . import events as out
from .config import TableConfig
from .display import OptionView, PlayerView, SeatView, StakesView, TablePhase, TableView
from .events import AutoReason
from .hand import Ended, LiveHand, Player
from .showing import last_street_names, shown_parts


@dataclass(frozen=True, slots=True)
class TableSnapshot:
    """A table's state at one instant, as values: what the views are built from."""

    guild_id: int
    channel_id: int
    table_id: int
    config: TableConfig
    status: TableStatus
    closed: bool
    button_seat: int | None
    seats: tuple[SeatRow, ...]
    hand: LiveHand | None
    next_hand_at: float | None
    last_actions: tuple[str, ...]


def _stakes_view(table: TableSnapshot) -> StakesView:
    config = table.hand.config if table.hand is not None else table.config
    return StakesView(
        config.variant,
        config.variant.title,
        config.ante,
        config.bring_in,
        config.small_bet,
        config.big_bet,
        config.min_buyin,
        config.max_buyin,
        config.seats,
        float(config.turn_seconds),
        float(config.between_hands_seconds),
    )


def table_view(table: TableSnapshot) -> TableView:
    """The public view: only up cards (by their face-up flags), never a face-down one."""
    live = table.hand
    hand_seats = {}
    street = None
    pot = 0
    community = None
    to_act_seat = None
    if live is not None:
        hand_view = public_view(live.state)
        hand_seats = {seat.seat: seat for seat in hand_view.seats}
        street, pot, community = hand_view.street, hand_view.pot, hand_view.community
        to_act_seat = hand_view.to_act
    seats = []
    for seat in sorted(table.seats, key=lambda s: s.seat_no):
        in_hand = live is not None and live.seat_by_user.get(seat.user_id) == seat.seat_no
        hand_seat = hand_seats.get(seat.seat_no) if in_hand else None
        if hand_seat is not None:
            seats.append(
                SeatView(
                    seat.seat_no,
                    seat.user_id,
                    seat.display_name,
                    hand_seat.stack,
                    tuple(card.card if card.face_up else None for card in hand_seat.cards),
                    hand_seat.bet,
                    True,
                    hand_seat.folded,
                    hand_seat.all_in,
                    seat.sitting_out,
                    seat.leave_after_hand,
                    live is not None and live.state.button_seat == seat.seat_no,
                    to_act_seat == seat.seat_no,
                )
            )
        else:
            seats.append(
                SeatView(
                    seat.seat_no,
                    seat.user_id,
                    seat.display_name,
                    seat.stack,
                    (),
                    0,
                    False,
                    False,
                    False,
                    seat.sitting_out,
                    seat.leave_after_hand,
                    live is None and table.button_seat == seat.seat_no,
                    False,
                )
            )
    status = (
        TablePhase.CLOSED
        if table.closed
        else TablePhase.CLOSING
        if table.status is TableStatus.CLOSING
        else TablePhase.PLAYING
        if live is not None
        else TablePhase.WAITING
    )
    to_act_user = (
        live.players[to_act_seat].user_id if live is not None and to_act_seat is not None else None
    )
    return TableView(
        table.guild_id,
        table.channel_id,
        table.table_id,
        _stakes_view(table),
        tuple(seats),
        status,
        live.id if live is not None else None,
        live.record.number if live is not None else None,
        live.record.commitment if live is not None else None,
        street,
        pot,
        community,
        to_act_seat,
        to_act_user,
        live.deadline if live is not None and to_act_seat is not None else None,
        live.seq if live is not None and to_act_seat is not None else None,
        table.next_hand_at,
        tuple(table.last_actions),
    )


def player_view(table: TableSnapshot, seat: SeatRow) -> PlayerView:
    """The public view plus the player's own cards (``seat``'s) and, on his turn, his options."""
    user_id = seat.user_id
    live = table.hand
    public = table_view(table)
    seat_no = live.seat_by_user.get(user_id) if live is not None else None
    if live is None or seat_no is None:
        return PlayerView(
            public,
            user_id,
            seat.seat_no,
            seat.stack,
            (),
            (),
            (),
            None,
            None,
            seat.time_bank_seconds,
        )
    mine = engine_player_view(live.state, seat_no)
    own = next(s for s in mine.seats if s.seat == seat_no)
    cards = tuple(c.card for c in own.cards if c.card is not None)
    face_up = tuple(c.face_up for c in own.cards if c.card is not None)
    my_turn = live.state.seat_to_act == seat_no
    options = tuple(OptionView.of(option) for option in mine.legal.options) if my_turn else ()
    return PlayerView(
        public,
        user_id,
        seat_no,
        own.stack,
        cards,
        face_up,
        options,
        live.id,
        live.seq if my_turn else None,
        seat.time_bank_seconds,
    )


# Face-up pattern of a player's cards in dealing order, from the variant's street table.
DEALT_FACE_UP = dealt_face_up()


@dataclass(slots=True)
class Translation:
    """Service events for one engine step, plus what the table must act on."""

    events: list[out.TableEvent] = field(default_factory=list)
    actions: list[str] = field(default_factory=list)  # lines for the public "last actions"
    shown: list[out.ShownHand] = field(default_factory=list)
    pots: list[out.PotWon] = field(default_factory=list)
    ended: bool = False
    cancelled_reason: str | None = None
    showdown: out.Showdown | None = None  # also in ``events``


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
    auto: AutoReason | None = None,
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
    guild_id: int, channel_id: int, ended: Ended, last_actions: tuple[str, ...]
) -> out.HandEnded:
    """The end of a hand with its whole public story (see :class:`events.HandEnded`)."""
    record = ended.record
    results, stacks = hand_results(record, ended.players, ended.state)
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
    )
