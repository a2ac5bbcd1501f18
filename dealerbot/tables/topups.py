"""Chips added during a hand: queued, and moved from the wallet just before the next deal.

``/stud addchips`` (or Rebuy) during a hand is not refused: the amount is checked now
(table stakes, the wallet's balance) and queued, in memory for the table view
(``+50 next hand``) and as a row (store/topups.py) so a restart does not forget it. When
the hand is settled, each queued top-up moves wallet chips to the stack in one store
transaction (its ledger row, and its queue row deleted), before the next hand is
scheduled; a table loaded with no hand left to settle applies them at once. Nothing moves
before that: the chips stay in the wallet, so a crash never half-moves one. A top-up that
no longer fits (the stack grew past the maximum, the wallet shrank) is cut to what fits
or dropped; a closing table drops the queue, and a player who leaves drops his own (it was
for that seat: it must not land on the next one he takes). Whatever is dropped or cut, the
player is told where those chips are (:class:`~.events.TopUpDropped`): still in his wallet.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable

from dealerbot.store import errors as store_errors
from dealerbot.store import seats as seats_db
from dealerbot.store import topups as topups_db
from dealerbot.store import wallets as wallets_db
from dealerbot.store.db import Database
from dealerbot.store.seats import SeatRow

from . import errors
from . import events as out
from .errors import as_table_error
from .seating import check_top_up
from .settings import TableConfig

log = logging.getLogger(__name__)


class TopUps:
    """One table's queued top-ups: user id -> chips, applied after the hand in play."""

    def __init__(
        self, emit: Callable[[out.TableEvent], None], guild_id: int, channel_id: int
    ) -> None:
        """``emit``: the table's outbox, for what a player is told about his queued chips."""
        self.queued: dict[int, int] = {}
        self._emit, self._where = emit, (guild_id, channel_id)

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
                continue  # he left: nothing was moved (and he was told when he left)
            amount = min(asked, max(0, config.max_buyin - seat.stack))
            if amount <= 0:
                self._tell(user_id, asked, 0, full_text(asked, config.max_buyin))
                continue
            try:
                changed[user_id] = await seats_db.add_chips(
                    db, table_id, user_id, amount, queued=True
                )
            except store_errors.StoreError as error:
                log.info(
                    "table %s: queued top-up of user %s dropped (%s)", table_id, user_id, error
                )
                self._tell(user_id, asked, 0, refused_text(asked, as_table_error(error)))
                continue
            if amount < asked:
                self._tell(user_id, asked, amount, cut_text(asked, amount, config.max_buyin))
        if queued:  # the ones applied went with their chips; the rest are dropped
            await topups_db.drop_queued_top_ups(db, table_id)
        return changed

    async def forget(self, db: Database, table_id: int, user_id: int) -> int:
        """He leaves: his queued top-up is dropped (the chips never left his wallet); the
        chips it held, for the answer that tells him."""
        dropped = self.queued.pop(user_id, 0)
        if dropped:
            await topups_db.drop_queued_top_up(db, table_id, user_id)
        return dropped

    async def drop(self, db: Database, table_id: int) -> None:
        """The table closes: no next deal, so nothing queued will move."""
        queued, self.queued = self.queued, {}
        await topups_db.drop_queued_top_ups(db, table_id)
        for user_id, asked in queued.items():
            self._tell(user_id, asked, 0, closed_text(asked))

    def _tell(self, user_id: int, asked: int, added: int, text: str) -> None:
        self._emit(out.TopUpDropped(*self._where, user_id, asked, added, text))


def full_text(asked: int, most: int) -> str:
    return (
        f"Your queued {asked:,} chips were not added: your stack already holds this table's "
        f"maximum of {most:,}. Nothing left your wallet."
    )


def cut_text(asked: int, added: int, most: int) -> str:
    return (
        f"Only {added:,} of your queued {asked:,} chips were added (a stack holds at most "
        f"{most:,} here); the other {asked - added:,} stay in your wallet."
    )


def refused_text(asked: int, why: errors.TableError) -> str:
    reason = str(why).rstrip(".")
    reason = reason[:1].lower() + reason[1:]
    return f"Your queued {asked:,} chips were not added ({reason}). Nothing left your wallet."


def closed_text(asked: int) -> str:
    return (
        f"Your queued {asked:,} chips were not added: the table closes with no next deal. "
        "Nothing left your wallet."
    )
