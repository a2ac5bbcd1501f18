"""The projection: a table's views (:mod:`.views`) built from a snapshot of its values.

:func:`table_view` and :func:`player_view` read a :class:`TableSnapshot` only, never the
run-time table. Cards enter the public view only through the engine's public view and only
where the card's face-up flag is set, so a face-down card can never reach it (R8.1, R8.2);
the player's view adds his own cards through the engine's view for his seat. The events are
split into public and private in :mod:`.narration`; the leak test in tests/tables checks
both over many hands.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass, field

from dealerbot.engine import HandView, public_view
from dealerbot.engine import player_view as engine_player_view
from dealerbot.store.seats import SeatRow
from dealerbot.store.tables import TableStatus
from dealerbot.store.validate import is_house_player_id

from .events import ActionTaken
from .hand_log import LiveHand
from .settings import TableConfig
from .views import GamesView, OptionView, PlayerView, SeatView, StakesView, TablePhase, TableView


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
    queued: Mapping[int, int] = field(default_factory=dict)  # top-ups for the next deal
    games: GamesView | None = None  # mixed games: the rotation or dealer's choice
    actions: tuple[ActionTaken, ...] = ()  # the hand's actions (the last hand's between)


def _stakes_view(table: TableSnapshot) -> StakesView:
    config = table.hand.config if table.hand is not None else table.config
    return StakesView(
        variant=config.variant,
        title=config.variant.title,
        ante=config.ante,
        bring_in=config.bring_in,
        small_bet=config.small_bet,
        big_bet=config.big_bet,
        min_buy_in=config.min_buyin,
        max_buy_in=config.max_buyin,
        seats=config.seats,
        turn_seconds=float(config.turn_seconds),
        delay_seconds=float(config.between_hands_seconds),
    )


def _phase(table: TableSnapshot) -> TablePhase:
    if table.closed:
        return TablePhase.CLOSED
    if table.status is TableStatus.CLOSING:
        return TablePhase.CLOSING
    return TablePhase.PLAYING if table.hand is not None else TablePhase.WAITING


def _seat_views(
    table: TableSnapshot, hand: HandView | None, to_act_seat: int | None
) -> tuple[SeatView, ...]:
    """Every occupied seat, in seat order: in the hand, its part of the engine's public view."""
    live = table.hand
    hand_seats = {seat.seat: seat for seat in hand.seats} if hand is not None else {}
    seats = []
    for seat in sorted(table.seats, key=lambda s: s.seat_no):
        in_hand = live is not None and live.seat_by_user.get(seat.user_id) == seat.seat_no
        hand_seat = hand_seats.get(seat.seat_no) if in_hand else None
        queued = table.queued.get(seat.user_id, 0)  # shown on his seat line: "+50 next hand"
        if live is not None and hand_seat is not None:
            seats.append(
                SeatView(
                    seat=seat.seat_no,
                    user_id=seat.user_id,
                    name=seat.display_name,
                    stack=hand_seat.stack,
                    cards=tuple(card.card if card.face_up else None for card in hand_seat.cards),
                    bet=hand_seat.bet,
                    in_hand=True,
                    folded=hand_seat.folded,
                    all_in=hand_seat.all_in,
                    sitting_out=seat.sitting_out,
                    leaving=seat.leave_after_hand,
                    button=live.state.button_seat == seat.seat_no,
                    to_act=to_act_seat == seat.seat_no,
                    queued=queued,
                    is_house=is_house_player_id(seat.user_id),
                )
            )
        else:
            seats.append(
                SeatView(
                    seat=seat.seat_no,
                    user_id=seat.user_id,
                    name=seat.display_name,
                    stack=seat.stack,
                    cards=(),
                    bet=0,
                    in_hand=False,
                    folded=False,
                    all_in=False,
                    sitting_out=seat.sitting_out,
                    leaving=seat.leave_after_hand,
                    button=live is None and table.button_seat == seat.seat_no,
                    to_act=False,
                    queued=queued,
                    is_house=is_house_player_id(seat.user_id),
                )
            )
    return tuple(seats)


def table_view(table: TableSnapshot) -> TableView:
    """The public view: only up cards (by their face-up flags), never a face-down one."""
    live = table.hand
    stakes = _stakes_view(table)
    games = table.games
    if live is None and games is not None and games.next_game is not None:
        stakes = dataclasses.replace(stakes, variant=games.next_game, title=games.next_game.title)
    if live is None:
        return TableView(
            guild_id=table.guild_id,
            channel_id=table.channel_id,
            table_id=table.table_id,
            stakes=stakes,
            seats=_seat_views(table, None, None),
            status=_phase(table),
            hand_id=None,
            hand_number=None,
            commitment=None,
            street=None,
            pot=0,
            community=None,
            to_act_seat=None,
            to_act_user=None,
            deadline=None,
            seq=None,
            next_hand_at=table.next_hand_at,
            last_actions=table.last_actions,
            games=games,
            actions=table.actions,
        )
    hand = public_view(live.state)
    to_act = hand.to_act
    return TableView(
        guild_id=table.guild_id,
        channel_id=table.channel_id,
        table_id=table.table_id,
        stakes=stakes,
        seats=_seat_views(table, hand, to_act),
        status=_phase(table),
        hand_id=live.id,
        hand_number=live.record.number,
        commitment=live.record.commitment,
        street=hand.street,
        pot=hand.pot,
        community=hand.community,
        to_act_seat=to_act,
        to_act_user=live.players[to_act].user_id if to_act is not None else None,
        deadline=live.deadline if to_act is not None else None,
        seq=live.seq if to_act is not None else None,
        next_hand_at=table.next_hand_at,
        last_actions=table.last_actions,
        games=games,
        actions=table.actions,
    )


def player_view(table: TableSnapshot, seat: SeatRow) -> PlayerView:
    """The public view plus the player's own cards (``seat``'s) and, on his turn, his options."""
    public = table_view(table)
    live = table.hand
    seat_no = live.seat_by_user.get(seat.user_id) if live is not None else None
    if live is None or seat_no is None:
        return PlayerView(
            table=public,
            user_id=seat.user_id,
            seat=seat.seat_no,
            stack=seat.stack,
            cards=(),
            face_up=(),
            options=(),
            hand_id=None,
            seq=None,
            time_bank=seat.time_bank_seconds,
        )
    mine = engine_player_view(live.state, seat_no)
    own = next(s for s in mine.seats if s.seat == seat_no)
    my_turn = live.state.seat_to_act == seat_no
    return PlayerView(
        table=public,
        user_id=seat.user_id,
        seat=seat_no,
        stack=own.stack,
        cards=tuple(c.card for c in own.cards if c.card is not None),
        face_up=tuple(c.face_up for c in own.cards if c.card is not None),
        options=tuple(OptionView.of(option) for option in mine.legal.options) if my_turn else (),
        hand_id=live.id,
        seq=live.seq if my_turn else None,
        time_bank=seat.time_bank_seconds,
    )
