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
import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from dealerbot.engine import player_view
from dealerbot.house import Decision, HouseStyle, Situation, decide
from dealerbot.store import house as house_db
from dealerbot.store import seats as seats_db
from dealerbot.store.db import Database
from dealerbot.store.errors import InsufficientChips, StoreError
from dealerbot.store.house import HouseBook
from dealerbot.store.seats import CashOut, SeatRow
from dealerbot.store.validate import HOUSE_PLAYER_IDS, is_house_player_id

from . import errors
from .errors import check_ids, is_int, store_errors_as_table_errors
from .hand_log import LiveHand
from .limits import CHIPS, HOUSE_BOOK_DAYS
from .seating import HOUSE_MARK, free_seat
from .settings import TableConfig

__all__ = [
    "HOUSE_MARK",
    "HOUSE_NAMES",
    "HouseBank",
    "HouseDeps",
    "HousePlan",
    "HouseSeats",
    "Promised",
    "Rebalanced",
    "house_name",
    "house_rules",
    "house_seed",
    "is_house_user",
    "plan",
    "rebalance",
]

HOUSE_NAMES = ("Ace", "Bea", "Cy", "Dot", "Eve", "Flo", "Gus", "Hal")
"""One name per house id (:data:`~dealerbot.store.validate.HOUSE_PLAYER_IDS`), in order."""
assert len(HOUSE_NAMES) == len(HOUSE_PLAYER_IDS)


def is_house_user(user_id: object) -> bool:
    """Whether this seat's user id is a house player's (front ends: mark it, DM nobody)."""
    return is_house_player_id(user_id)


def house_name(user_id: int) -> str:
    """``"Ace (house)"``: the name a house player's seat shows everywhere."""
    return f"{HOUSE_NAMES[HOUSE_PLAYER_IDS.index(user_id)]} {HOUSE_MARK}"


# --- randomness and style --------------------------------------------------------------


def house_seed(rng: random.Random) -> int:
    """The house's seed, from the service's random source without drawing from it (a seeded
    ``random.Random``: its state hashed; the deal's draws stay as they were), or one draw
    where the source has no state to read (``secrets.SystemRandom``)."""
    try:
        state = rng.getstate()
    except NotImplementedError:
        return rng.getrandbits(64)
    return int.from_bytes(hashlib.sha256(repr(state).encode()).digest()[:8], "big")


@dataclass(frozen=True, slots=True)
class HouseDeps:
    """What every table's house players share: the style (delays, bluffs, samples) and
    the house's seed."""

    style: HouseStyle = field(default_factory=HouseStyle)
    seed: int = 0

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


# --- who sits ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class HousePlan:
    """What the table does between hands: house seats to stand up (user ids) and how many
    house players to seat."""

    leave: tuple[int, ...]
    join: int


def plan(
    config: TableConfig, seats: Iterable[SeatRow], *, tournament: bool = False, waiting: int = 0
) -> HousePlan:
    """The one rule for house seats (see the module's docstring); ``waiting``: members
    promised a seat, who sit before any house player does. A busted house player leaves
    (another may take its place with a fresh buy-in)."""
    rows = list(seats)
    members = sum(1 for s in rows if not is_house_user(s.user_id)) + waiting
    house = sorted(
        (s for s in rows if is_house_user(s.user_id)),
        key=lambda s: HOUSE_PLAYER_IDS.index(s.user_id),
    )
    if tournament or members == 0:
        target = 0
    else:
        room = config.seats - members
        target = max(0, min(config.house_players, config.house_fill_to - members, room))
    playing = [s for s in house if s.stack > 0]
    kept = playing[:target]
    leave = tuple(s.user_id for s in house if s not in kept)
    return HousePlan(leave, target - len(kept))


def free_house_id(seats: Iterable[SeatRow]) -> int | None:
    """The first house id not seated at this table."""
    taken = {s.user_id for s in seats}
    return next((user for user in HOUSE_PLAYER_IDS if user not in taken), None)


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
    """``service.house``: a guild's house bankroll, its result and its funding."""

    def __init__(self, db: Database) -> None:
        self.db = db

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
            return await house_db.book(self.db, guild_id)
