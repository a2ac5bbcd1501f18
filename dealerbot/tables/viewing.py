"""Build the public table view and a player's own view from a table's state.

Cards enter the public view only through the engine's public view and only where the
card's face-up flag is set, so a face-down card can never reach it (R8.1, R8.2).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from dealerbot.engine.views import player_view as engine_player_view
from dealerbot.engine.views import public_view
from dealerbot.store.tables import TableStatus

from .views import OptionView, PlayerView, SeatView, StakesView, TableView

if TYPE_CHECKING:
    from .table import Table


def _stakes_view(table: Table) -> StakesView:
    config = table.hand.config if table.hand is not None else table.config
    return StakesView(
        config.variant.value,
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


def table_view(table: Table) -> TableView:
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
    for seat in sorted(table.seats.values(), key=lambda s: s.seat_no):
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
        "closed"
        if table.closed
        else "closing"
        if table.status is TableStatus.CLOSING
        else "playing"
        if live is not None
        else "waiting"
    )
    to_act_user = (
        live.players[to_act_seat].user_id if live is not None and to_act_seat is not None else None
    )
    return TableView(
        table.guild_id,
        table.channel_id,
        table.id,
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


def player_view_of(table: Table, user_id: int) -> PlayerView:
    """The public view plus the player's own cards and, on his turn, his options."""
    seat = table.seat_of(user_id)
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
