"""Chips added during a hand: queued, and moved from the wallet just before the next deal.

``/stud addchips`` (or Rebuy) during a hand is not refused: the amount is checked now
(table stakes, the wallet's balance) and queued, in memory for the table view
(``+50 next hand``) and as a row (store/topups.py) so a restart does not forget it. When
the hand is settled, each queued top-up moves wallet chips to the stack in one store
transaction (its ledger row, and its queue row deleted), before the next hand is
scheduled; a table loaded with no hand left to settle applies them at once. Nothing moves
before that: the chips stay in the wallet, so a crash never half-moves one. A top-up that
no longer fits (the stack grew past the maximum, the wallet shrank) is cut to what fits
or dropped, and logged; a closing table drops the queue.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable

from dealerbot.store import errors as store_errors
from dealerbot.store import seats as seats_db
from dealerbot.store import topups as topups_db
from dealerbot.store import wallets as wallets_db
from dealerbot.store.db import Database
from dealerbot.store.seats import SeatRow

from . import errors
from .config import TableConfig
from .seating import check_top_up

log = logging.getLogger(__name__)


class TopUps:
    """One table's queued top-ups: user id -> chips, applied after the hand in play."""

    def __init__(self) -> None:
        self.queued: dict[int, int] = {}

    async def load(
        self,
        db: Database,
        table_id: int,
        config: TableConfig,
        seats: Iterable[SeatRow],
        between_hands: bool,
    ) -> dict[int, SeatRow]:
        """The queue kept before a restart; applied now ``between_hands`` (no hand to settle
        first), else after the resumed hand. The seats that changed, by user id."""
        self.queued = await topups_db.queued_top_ups(db, table_id)
        if not between_hands or not self.queued:
            return {}
        return await self.apply(db, table_id, config, seats)

    async def queue(
        self, db: Database, guild_id: int, config: TableConfig, seat: SeatRow, amount: int
    ) -> SeatRow:
        """Check and queue ``amount`` for ``seat``; the seat is returned unchanged."""
        already = self.queued.get(seat.user_id, 0)
        check_top_up(config, seat.stack + already, amount)
        wallet = await wallets_db.find_wallet(db, guild_id, seat.user_id)
        available = wallet.chips if wallet is not None else 0
        if already + amount > available:
            raise errors.InsufficientFundsError(
                f"You need {already + amount:,} chips but your wallet holds {available:,}."
            )
        await topups_db.set_queued_top_up(db, seat.table_id, seat.user_id, already + amount)
        self.queued[seat.user_id] = already + amount
        return seat

    async def apply(
        self, db: Database, table_id: int, config: TableConfig, seats: Iterable[SeatRow]
    ) -> dict[int, SeatRow]:
        """Move the queued chips (between hands); the seats that changed, by user id."""
        queued, self.queued = self.queued, {}
        by_user = {seat.user_id: seat for seat in seats}
        changed: dict[int, SeatRow] = {}
        for user_id, asked in queued.items():
            seat = by_user.get(user_id)
            if seat is None:
                continue  # he left: nothing was moved
            amount = min(asked, max(0, config.max_buyin - seat.stack))
            if amount <= 0:
                log.info("table %s: queued top-up of user %s no longer fits", table_id, user_id)
                continue
            try:
                changed[user_id] = await seats_db.add_chips(
                    db, table_id, user_id, amount, queued=True
                )
            except store_errors.StoreError as error:
                log.info(
                    "table %s: queued top-up of user %s dropped (%s)", table_id, user_id, error
                )
        if queued:  # the ones applied went with their chips; the rest are dropped
            await topups_db.drop_queued_top_ups(db, table_id)
        return changed

    async def drop(self, db: Database, table_id: int) -> None:
        """The table closes: no next deal, so nothing queued will move."""
        self.queued = {}
        await topups_db.drop_queued_top_ups(db, table_id)
