"""The run-time table's views (a mixin of :class:`~dealerbot.tables.table.Table`): the
snapshot :mod:`.projection` builds them from, plus the mixed-games line (:mod:`.mixing`)."""

from __future__ import annotations

import dataclasses
from collections import deque

from dealerbot.store.seats import SeatRow
from dealerbot.store.tables import TableStatus

from . import errors, projection
from .config import TableConfig
from .display import PlayerView, TableView
from .hand import LiveHand
from .mixing import Mixer
from .projection import TableSnapshot
from .topups import TopUps


class TableViews:
    guild_id: int
    channel_id: int
    id: int
    config: TableConfig
    status: TableStatus
    closed: bool
    button_seat: int | None
    seats: dict[int, SeatRow]
    hand: LiveHand | None
    next_hand_at: float | None
    last_actions: deque[str]
    games: Mixer
    top_ups: TopUps

    def seat_of(self, user_id: int) -> SeatRow:
        seat = self.seats.get(user_id)
        if seat is None:
            raise errors.NotSeatedError()
        return seat

    def snapshot(self) -> TableSnapshot:
        """The values the views are built from (so :mod:`.projection` never sees a Table)."""
        return TableSnapshot(
            self.guild_id,
            self.channel_id,
            self.id,
            self.config,
            self.status,
            self.closed,
            self.button_seat,
            tuple(self.seats.values()),
            self.hand,
            self.next_hand_at,
            tuple(self.last_actions),
        )

    def view(self) -> TableView:
        """The public view: only up cards, never a face-down one."""
        view = projection.table_view(self.snapshot())
        if self.top_ups.queued:  # shown on his seat line: "+50 next hand"
            seats = tuple(
                dataclasses.replace(seat, queued=self.top_ups.queued.get(seat.user_id, 0))
                for seat in view.seats
            )
            view = dataclasses.replace(view, seats=seats)
        games = self.games.view(self.config)
        if games is None:
            return view
        stakes = view.stakes
        if self.hand is None and games.next_game is not None:  # between hands: the next game
            game = games.next_game
            stakes = dataclasses.replace(stakes, variant=game, title=game.title)
        return dataclasses.replace(view, games=games, stakes=stakes)

    def player_view(self, user_id: int) -> PlayerView:
        """His own view: the public one plus his cards and, on his turn, his options."""
        view = projection.player_view(self.snapshot(), self.seat_of(user_id))
        return dataclasses.replace(view, table=self.view())
