"""Calling off at once: a table whose channel is gone (the hand called off, every seat
cashed out now), and a Sit & Go (:func:`cancel_tournament`: the host's cancel, or its
channel gone).

A deleted channel (or a server that removed the bot) can never show a table again, so
waiting for the hand to end would strand its chips. :func:`abandon` does in one
transaction what crash recovery does for a hand it cannot rebuild (the hand is
cancelled, every committed chip stays on its stack with a refund ledger row), then
cashes every seat out to its wallet and closes the table. The result says, for each
player, where the chips went, in words a front end can send privately. A channel held by
a Sit & Go has it cancelled first (its pool back to the players), then its cash table closed.
"""

from __future__ import annotations

from collections.abc import Callable
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass
from enum import StrEnum
from typing import Protocol

from dealerbot.store import seats as seats_db
from dealerbot.store import tables as tables_db
from dealerbot.store import tournament_play as play_db
from dealerbot.store.db import Database
from dealerbot.store.tables import TableStatus
from dealerbot.tournament import Stack, cancel_split

from . import events as out
from . import hand_log, narration, recovery
from .errors import store_errors_as_table_errors
from .hand_log import CashOutPlan, CashOuts, Ended
from .table import Table
from .tournament_table import TournamentTable


class TableRef(Protocol):
    table: Table | None


Command = Callable[[int, int], AbstractAsyncContextManager[TableRef]]


class ClosedBecause(StrEnum):
    """Why a table was closed without waiting for its hand."""

    CHANNEL_DELETED = "channel_deleted"  # the channel was deleted
    CHANNEL_UNREACHABLE = "channel_unreachable"  # Discord says the channel is unknown
    BOT_REMOVED = "bot_removed"  # the server removed the bot

    @property
    def text(self) -> str:
        return _REASONS[self]


_REASONS = {
    ClosedBecause.CHANNEL_DELETED: "its channel was deleted",
    ClosedBecause.CHANNEL_UNREACHABLE: "its channel no longer exists for the dealer",
    ClosedBecause.BOT_REMOVED: "the dealer was removed from the server",
}


@dataclass(frozen=True, slots=True)
class Abandoned:
    """A table closed at once: who got how many chips back, and the hand called off."""

    guild_id: int
    channel_id: int
    table_id: int
    because: ClosedBecause
    cashed_out: tuple[tuple[int, int], ...]  # (user id, chips to the wallet)
    hand_number: int | None  # the hand called off, if one was being played

    def notice_for(self, user_id: int) -> str:
        """What one player is told privately about his chips."""
        chips = dict(self.cashed_out).get(user_id, 0)
        text = f"The stud table in <#{self.channel_id}> was closed: {self.because.text}."
        if self.hand_number is not None:
            text += (
                f" Hand #{self.hand_number} was called off and every chip bet in it "
                "went back to its owner."
            )
        text += f" Your {chips:,} chips from the table went back to your wallet"
        if self.because is ClosedBecause.BOT_REMOVED:
            text += " (it stays there for when the dealer comes back)."
        else:
            text += "; `/stud balance` shows it."
        return text


async def abandon(table: Table, because: ClosedBecause) -> Abandoned:
    """Call off the hand (refunding it), cash every seat out and close, in one transaction.

    Called with the table's lock held; the table's timers stop and its events (the
    cancelled hand, players leaving, the table closed) go out as for any close.
    """
    if isinstance(table, TournamentTable):
        parked = await cancel_tournament(table, because.text)
        if parked is None:  # no cash table was loaded: nobody seated at one
            await seats_db.close_table(table.deps.db, table.id)
            return Abandoned(table.guild_id, table.channel_id, table.id, because, (), None)
        table = parked
    db = table.deps.db
    live = table.hand
    table.turn_timer.cancel()
    table.start_timer.cancel()
    reason = f"the table was closed: {because.text}"
    async with db.transaction():
        await tables_db.set_table_status(db, table.id, TableStatus.CLOSING)
        if live is not None:
            committed = recovery.committed_by_user(live.state, live.players)
            leavers = tuple(s.user_id for s in table.seats.values() if s.leave_after_hand)
            done = await hand_log.cancel(
                db, live.id, reason, committed, CashOutPlan(table.id, leavers, closing=True)
            )
        else:
            done = CashOuts((), tuple(await seats_db.close_table(db, table.id)))
    table.status = TableStatus.CLOSING
    if live is not None:
        await table._after_settle(Ended(live.record, live.players, None, reason, done))
    else:
        await table._after_cash_outs(done)
    cashed = tuple((c.user_id, c.amount) for c in done.leavers + done.closing)
    number = live.record.number if live is not None else None
    return Abandoned(table.guild_id, table.channel_id, table.id, because, cashed, number)


class Abandoner:
    """The service's facet for closing tables at once (``service.closing``)."""

    def __init__(self, db: Database, command: Command) -> None:
        self._db = db
        self._command = command

    async def abandon(
        self, guild_id: int, channel_id: int | None, because: ClosedBecause
    ) -> list[Abandoned]:
        """Close the channel's table at once; with no channel, every table of the server."""
        if channel_id is None:
            rows = await tables_db.list_tables(
                self._db, guild_id=guild_id, statuses=(TableStatus.OPEN, TableStatus.CLOSING)
            )
            channels = [row.channel_id for row in rows]
        else:  # most deleted channels never held a table: no lock, no lease for them
            record = await tables_db.find_table(self._db, guild_id, channel_id)
            channels = [] if record is None or record.status is TableStatus.CLOSED else [channel_id]
        done: list[Abandoned] = []
        for channel in channels:
            async with self._command(guild_id, channel) as ref:
                if ref.table is not None and not ref.table.closed:
                    done.append(await abandon(ref.table, because))
        return done


async def cancel_tournament(tour: TournamentTable, reason: str) -> Table | None:
    """Call the Sit & Go off in one transaction (the hand being played called off first, its
    chips back to their stacks), the pool back to the players, announced; the channel's
    cash table deals again. Returns it (None: none was loaded)."""
    db = tour.deps.db
    live = tour.hand
    tour.stop_timers()
    text = reason.strip() or "cancelled"
    async with db.transaction():
        if live is not None:
            committed = recovery.committed_by_user(live.state, live.players)
            why = f"the Sit & Go was cancelled ({text}); every chip bet goes back"
            await hand_log.cancel(db, live.id, why, committed, tour.book)
        if tour.row.started_at is None:
            shares = dict.fromkeys(tour.entries, tour.rules.buy_in)
        else:
            left = [e for e in tour.entries.values() if e.place is None and e.stack > 0]
            stacks = [Stack(e.user_id, e.seat_no or 0, e.stack) for e in left]
            button = tour.button_seat if tour.button_seat is not None else tour.row.button_seat
            shares = cancel_split(tour.row.pool, stacks, button or 0) if stacks else {}
        with store_errors_as_table_errors():
            await play_db.cancel_tournament(db, tour.row.id, shares, text)
    if live is not None:
        tour.hand = None
        ended = Ended(live.record, live.players, None, why, CashOuts((), ()))
        story = (tuple(tour.last_actions), tuple(tour.hand_actions))
        tour.emit(narration.hand_ended(tour.guild_id, tour.channel_id, ended, *story))
    await tour.reload()
    names = {e.user_id: e.display_name for e in tour.entries.values()}
    paid = ", ".join(f"{names[u]} {c:,}" for u, c in sorted(shares.items(), key=lambda i: -i[1]))
    tour.notice(
        out.TournamentNoticeKind.CANCELLED,
        f"Sit & Go #{tour.row.id} is cancelled ({text}). Back to the wallets: {paid or 'nothing'}.",
    )
    tour.touch()
    return tour.release_channel()
