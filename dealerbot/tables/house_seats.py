"""House players at cash tables (issue 20): who sits, who leaves, how they act, what is said.

A table's settings say how many house players may sit (``house_players``) and while fewer
than how many seats are taken they do (``house_fill_to``). :func:`plan` is the one rule:
with no member seated, or at a tournament table, no house player sits (they never play
among themselves, never in a tournament); otherwise as many as bring the seats taken up to
``house_fill_to``, at most ``house_players``, leaving every seat a member waits for. The
run-time table applies it between hands only (a house player joins before a deal and
leaves when a hand is over), through :func:`rebalance`.

A house player is a seat like a member's, with a reserved id (negative: never a Discord id,
:mod:`dealerbot.store.validate`), a fixed name marked ``(house)`` (:func:`house_name`) and
the house bankroll's chips (:mod:`dealerbot.store.house`): it buys in from the bankroll and
cashes out to it, a ledger row each. It acts through the table's own command path (the
lock, the hand log), after a delay drawn from the house's own random source, deciding with
:func:`dealerbot.house.decide` from a :class:`~dealerbot.house.Situation` built only from
its seat's engine view (:func:`player_view`) and the public actions. Each decision draws
on a ``random.Random`` seeded from the service's seed, the hand and the action number, so
it depends on nothing else (not on other tables, not on a restart) and never touches the
deck's randomness. The decision's reason names the seat's own down cards: it is never
logged nor sent.
"""

from __future__ import annotations

import hashlib
import logging
import random
from collections.abc import Awaitable, Callable, Iterable, Mapping, Sequence
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass, field
from functools import partial
from typing import Any, Protocol

from dealerbot.engine import player_view
from dealerbot.house import Decision, HouseStyle, Situation, decide
from dealerbot.store import house as house_db
from dealerbot.store import seats as seats_db
from dealerbot.store import tables as tables_db
from dealerbot.store import wallets as wallets_db
from dealerbot.store.db import Database
from dealerbot.store.errors import InsufficientChips, StoreError
from dealerbot.store.house import HouseBook
from dealerbot.store.seats import CashOut, SeatRow
from dealerbot.store.tables import TableStatus

from . import errors, hand_loop, settings
from . import events as out
from .errors import check_ids, is_int, store_errors_as_table_errors
from .hand_log import LiveHand
from .hand_loop import Ctx, Step
from .limits import CHIPS, HOUSE_BOOK_DAYS
from .seating import HOUSE_MARK, free_house_id, free_seat, house_name, is_house_user, plan
from .settings import TableConfig
from .timers import Clock, Timer
from .turns import RETRY_SECONDS
from .views import PlayerView

log = logging.getLogger(__name__)

__all__ = [
    "HOUSE_MARK",
    "HouseBank",
    "HouseDeps",
    "HouseSeats",
    "HouseStyle",
    "Promised",
    "Rebalanced",
    "house_name",
    "house_rules",
    "house_seed",
    "is_house_user",
    "plan",
    "rebalance",
]

# --- randomness and style --------------------------------------------------------------


def house_seed(rng: random.Random) -> int:
    """The house's seed, from the service's random source without drawing from it (a seeded
    ``random.Random``: its state hashed; the deal's draws stay as they were), or one draw
    where the source has no state to read (``secrets.SystemRandom``)."""
    if isinstance(rng, random.SystemRandom):  # no state to read: its getstate() refuses
        return rng.getrandbits(64)
    return int.from_bytes(hashlib.sha256(repr(rng.getstate()).encode()).digest()[:8], "big")


@dataclass(frozen=True, slots=True)
class HouseDeps:
    """What every table's house players share: the style (delays, bluffs, samples) and
    the house's seed."""

    style: HouseStyle = field(default_factory=HouseStyle)
    seed: int = 0

    @classmethod
    def of(cls, style: HouseStyle | None, rng: random.Random) -> HouseDeps:
        """The service's: ``style`` (None: the default) and a seed from ``rng``."""
        return cls(style if style is not None else HouseStyle(), house_seed(rng))

    def turn_random(self, hand_id: int, seq: int) -> random.Random:
        """The random source of one house decision (its delay first, then the strategy)."""
        return random.Random(f"house:{self.seed}:{hand_id}:{seq}")

    def delay(self, hand_id: int, seq: int) -> float:
        """Seconds the house player waits before acting on (hand, seq)."""
        low, high = self.style.delay_range
        return self.turn_random(hand_id, seq).uniform(low, high)

    def decision(self, live: LiveHand, seat_no: int) -> Decision:
        """The house seat's decision from its own view and the public actions only."""
        rng = self.turn_random(live.id, live.seq)
        low, high = self.style.delay_range
        rng.uniform(low, high)  # the delay's draw, as :meth:`delay` made it
        view = player_view(live.state, seat_no)
        return decide(Situation.from_view(view, seat_no, live.public_actions), rng, self.style)


# --- who sits (the rule: :func:`.seating.house_plan`) ----------------------------------


@dataclass(frozen=True, slots=True)
class Promised:
    """A member waiting for a house player's seat: he sits when the hand ends."""

    user_id: int
    name: str
    buy_in: int


@dataclass(slots=True)
class HouseSeats:
    """A table's house state in memory: members promised a seat (lost on a restart: the
    member presses again), whether this is a tournament table (no house seat ever), and
    whether the bankroll was short at the last attempt to seat a house player."""

    promised: dict[int, Promised] = field(default_factory=dict)
    tournament: bool = False
    short: bool = False

    def promise(self, promise: Promised) -> str:
        """A member will take a house player's seat when this hand ends; what to tell him."""
        self.promised[promise.user_id] = promise
        return (
            f"Every seat is taken: a house player gives you its seat when this hand ends, "
            f"with {promise.buy_in:,} chips from your wallet."
        )


@dataclass(slots=True)
class Rebalanced:
    """What :func:`rebalance` did: cash-outs (house players stood up), the seats taken
    (members promised one, then house players) and promised members who could not sit."""

    left: list[CashOut] = field(default_factory=list)
    seated: list[SeatRow] = field(default_factory=list)
    failed: list[tuple[Promised, str]] = field(default_factory=list)
    short: bool = False


async def rebalance(
    db: Database,
    table_id: int,
    config: TableConfig,
    seats: Sequence[SeatRow],
    house: HouseSeats,
) -> Rebalanced:
    """Between hands: stand up the house players :func:`plan` sends away, seat the members
    promised a seat, then seat house players from the bankroll (one transaction each)."""
    done = Rebalanced()
    current = {s.user_id: s for s in seats}
    waiting = [p for p in house.promised.values() if p.user_id not in current]
    decided = plan(config, current.values(), tournament=house.tournament, waiting=len(waiting))
    for user in decided.leave:
        done.left.append(await seats_db.stand_up(db, table_id, user))
        del current[user]
    for promise in waiting:
        try:
            seat_no = free_seat(config, (s.seat_no for s in current.values()))
            seat = await seats_db.sit_down(
                db,
                table_id,
                promise.user_id,
                promise.name,
                promise.buy_in,
                seat_no=seat_no,
                time_bank_seconds=config.time_bank_seconds,
            )
        except (errors.TableError, StoreError) as refused:
            done.failed.append((promise, _why(refused)))
            continue
        current[seat.user_id] = seat
        done.seated.append(seat)
    house.promised.clear()
    decided = plan(config, current.values(), tournament=house.tournament)
    for _ in range(decided.join):
        house_id = free_house_id(current.values())
        if house_id is None:
            break
        seat_no = free_seat(config, (s.seat_no for s in current.values()))
        try:
            seat = await house_db.sit_down_house(
                db,
                table_id,
                house_id,
                house_name(house_id),
                config.min_buyin,
                seat_no=seat_no,
                time_bank_seconds=0,
            )
        except InsufficientChips:
            done.short = True
            break
        current[seat.user_id] = seat
        done.seated.append(seat)
    return done


def _why(refused: Exception) -> str:
    if isinstance(refused, InsufficientChips):
        return (
            f"your wallet holds {refused.available:,} chips, short of the "
            f"{refused.needed:,} you asked to buy in with"
        )
    return str(refused)


# --- at a run-time table ------------------------------------------------------------------


class _TableDeps(Protocol):
    db: Database
    clock: Clock
    house: HouseDeps


class HouseTable(Protocol):
    """What this module needs of a run-time table (:class:`~.table.Table`)."""

    id: int
    guild_id: int
    channel_id: int
    status: TableStatus
    closed: bool
    config: TableConfig
    seats: dict[int, SeatRow]
    hand: LiveHand | None
    house: HouseSeats
    house_timer: Timer

    @property
    def deps(self) -> _TableDeps: ...

    def locked(self) -> AbstractAsyncContextManager[None]: ...
    def emit(self, event: out.TableEvent) -> None: ...
    def touch(self) -> None: ...
    def remember(self, seat: SeatRow) -> None: ...
    def schedule_start(self) -> None: ...
    def player_view(self, user_id: int) -> PlayerView: ...
    def _left(self, cash: CashOut, name: str) -> None: ...
    async def _step(self, run: Callable[[Ctx, LiveHand, Step], Awaitable[None]]) -> None: ...


def house_to_act(live: LiveHand | None) -> int | None:
    """The seat of the house player to act, if one is."""
    seat_no = live.state.seat_to_act if live is not None else None
    if live is None or seat_no is None or not is_house_user(live.players[seat_no].user_id):
        return None
    return seat_no


def arm_turn(table: HouseTable, hand_id: int, seq: int) -> bool:
    """A house player is to act on (hand, seq): it thinks for its delay, then acts (no turn
    clock runs for it). False when the seat to act is a member's."""
    if house_to_act(table.hand) is None:
        return False
    at = table.deps.clock.now() + table.deps.house.delay(hand_id, seq)
    table.house_timer.arm(at, partial(on_turn, table, hand_id, seq))
    return True


async def on_turn(table: HouseTable, hand_id: int, seq: int) -> None:
    """The delay is over: the house player decides and acts through the table's own path
    (its lock, :func:`.hand_loop.act`, the hand log), as a member's click does."""
    async with table.locked():
        live = table.hand
        if table.closed or live is None or live.id != hand_id or live.seq != seq:
            return
        seat_no = house_to_act(live)
        if seat_no is None:
            return
        user_id = live.players[seat_no].user_id
        try:
            kind = table.deps.house.decision(live, seat_no).option.kind  # its reason stays here
            await table._step(partial(hand_loop.act, user_id=user_id, kind=kind))
        except Exception:
            log.exception("table %s hand %s: a house player could not act", table.id, hand_id)
            if table.hand is live and live.seq == seq:
                retry = table.deps.clock.now() + RETRY_SECONDS
                table.house_timer.arm(retry, partial(on_turn, table, hand_id, seq))


async def rebalance_table(table: HouseTable) -> None:
    """Between hands: house players leave, members promised a seat sit, house players join,
    as :func:`plan` says (nothing during a hand or when closing); then the next deal."""
    if table.closed or table.status is not TableStatus.OPEN or table.hand is not None:
        return
    names = {seat.user_id: seat.display_name for seat in table.seats.values()}
    with store_errors_as_table_errors():
        done = await rebalance(
            table.deps.db, table.id, table.config, tuple(table.seats.values()), table.house
        )
    ids = (table.guild_id, table.channel_id)
    for cash in done.left:
        table.seats.pop(cash.user_id, None)
        table._left(cash, names.get(cash.user_id, str(cash.user_id)))
    for seat in done.seated:
        table.remember(seat)
        table.emit(
            out.PlayerJoined(*ids, seat.user_id, seat.display_name, seat.seat_no, seat.stack)
        )
    for promise, why in done.failed:
        log.info("table %s: user %s could not take the seat promised", table.id, promise.user_id)
        table.emit(out.SeatNotTaken(*ids, promise.user_id, why))
    table.house.short = done.short
    if done.left or done.seated:
        table.touch()
    table.schedule_start()


def full_with_house(table: HouseTable) -> bool:
    """Every seat is taken, one at least by a house player (who can give it to a member)."""
    return len(table.seats) >= table.config.seats and any(map(is_house_user, table.seats))


async def seat_member(table: HouseTable, user_id: int, name: str, amount: int) -> PlayerView:
    """A member wants a seat at a table full with house players: between hands one stands
    up for him now; during a hand he is promised its seat when the hand ends
    (:class:`~.errors.SeatPromisedError` tells him so). His wallet must hold ``amount``."""
    db = table.deps.db
    wallet = await wallets_db.find_wallet(db, table.guild_id, user_id)
    if wallet is None:  # a new wallet starts with the server's starting chips
        held = (await settings.economy(db, table.guild_id)).starting_chips
    else:
        held = wallet.chips
    if held < amount:
        raise errors.InsufficientFundsError(
            f"You need {amount:,} chips but your wallet holds {held:,}."
        )
    promise = Promised(user_id, name, amount)
    if table.hand is not None:
        raise errors.SeatPromisedError(table.house.promise(promise))
    table.house.promised[user_id] = promise
    await rebalance_table(table)
    if user_id not in table.seats:
        raise errors.TableFullError("No seat could be freed for you; try again.")
    return table.player_view(user_id)


# --- what is said ------------------------------------------------------------------------


def house_rules(config: TableConfig, seats: Iterable[SeatRow], style: HouseStyle) -> str:
    """The ``/stud rules`` paragraph on house players: which seats are theirs and how they
    play (plain text; the front end marks the names)."""
    rows = sorted((s for s in seats if is_house_user(s.user_id)), key=lambda s: s.seat_no)
    if config.house_players == 0 and not rows:
        return "No house players at this table: every seat is a member's."
    if rows:
        listed = ", ".join(f"{s.display_name} in seat {s.seat_no + 1}" for s in rows)
        who = f"House players now: {listed}."
    else:
        who = "No house player is seated now."
    low, high = style.delay_range
    most = (
        "one house player"
        if config.house_players == 1
        else (f"up to {config.house_players} house players")
    )
    return (
        f"{who} This table seats {most} while fewer than {config.house_fill_to} seats are "
        "taken, only with a member seated; one gives its seat to a member when a hand ends. "
        f"House players are the server's own, marked {HOUSE_MARK}: they play with chips from "
        "the house bankroll, never in a tournament, and are on no leaderboard. Each decides "
        "from what its own seat may see (its cards, every up card, the actions so far): on "
        "3rd street by its starting hand, later by its made hand against the boards, with a "
        "quick simulation of its chances when a decision is close; it bets good hands, folds "
        f"beaten ones and bluffs now and then (about {style.bluff_rate:.0%} of the times its "
        f"board looks the strongest). It never sees another player's down cards or the "
        f"deck, takes {low:g}-{high:g} seconds to act and never times out."
    )


# --- the bankroll (``service.house``) ----------------------------------------------------


class HouseBank:
    """``service.house``: a guild's house bankroll, its result and its funding, and what
    ``/stud rules`` says of a table's house players. ``command`` and ``tables``: the
    service's, so that a fund lets the guild's loaded tables seat house players (under
    their locks)."""

    def __init__(
        self,
        db: Database,
        house: HouseDeps,
        command: Callable[[int, int], AbstractAsyncContextManager[Any]],
        tables: Mapping[tuple[int, int], HouseTable],
    ) -> None:
        self.db = db
        self.style = house.style
        self._command = command  # the service's: a table's lock, then its events delivered
        self._tables = tables  # the service's loaded tables, by (guild, channel)

    async def _reseat(self, guild_id: int) -> None:
        """The guild's loaded tables seat house players now (the bankroll was funded)."""
        for (guild, channel), table in list(self._tables.items()):
            if guild == guild_id:
                async with self._command(guild, channel) as ref:
                    if ref.table is table:
                        await rebalance_table(table)

    async def rules(self, guild_id: int, channel_id: int) -> str:
        """Which seats of this channel's table are house players and how they play."""
        check_ids(guild_id, channel_id)
        with store_errors_as_table_errors():
            config = await settings.table_config(self.db, guild_id, channel_id)
            record = await tables_db.find_table(self.db, guild_id, channel_id)
            open_now = record is not None and record.status is not TableStatus.CLOSED
            seats = await seats_db.get_seats(self.db, record.id) if open_now and record else []
        return house_rules(config, seats, self.style)

    async def book(self, guild_id: int, days: int = 30) -> HouseBook:
        """The bankroll's balance, its players' chips at tables, what was funded, and the
        result by day and game (``/stud-admin house``)."""
        check_ids(guild_id)
        if days not in HOUSE_BOOK_DAYS:
            raise errors.TableError(
                f"Days must be a whole number from {HOUSE_BOOK_DAYS.low} to {HOUSE_BOOK_DAYS.high}."
            )
        with store_errors_as_table_errors():
            return await house_db.book(self.db, guild_id, days=days)

    async def fund(self, guild_id: int, amount: Any, note: str = "") -> HouseBook:
        """Add chips to the bankroll from nothing (``/stud-admin house fund``), as an admin
        grant: one ledger row. The caller checks permissions."""
        check_ids(guild_id)
        if not is_int(amount) or amount not in CHIPS:
            raise errors.AmountError(
                f"The house fund must be a whole number of chips from {CHIPS.low:,} to "
                f"{CHIPS.high:,}, not {amount!r}."
            )
        if not isinstance(note, str):
            raise errors.TableError("The note must be text.")
        with store_errors_as_table_errors():
            await house_db.fund(self.db, guild_id, amount, note=note)
        await self._reseat(guild_id)  # tables waiting for the bankroll seat house players
        with store_errors_as_table_errors():
            return await house_db.book(self.db, guild_id)
