"""Mixed games (R15.1): which game the next hand is, and a table's rotation at run time.

The policy is pure (values in, values out, no clock and no database): a fixed game, a
rotation (``mix``: N hands of each game in list order) or dealer's choice (the button player
picks the game for the next N hands). The engine deals one variant per hand and never hears
of rotations. :class:`TableGames` holds one table's rotation in memory, loads and stores it
(so a restart resumes it) and the pending dealer's choice, stored too (a restart between
a pick and its deal deals the pick; one during the wait waits on, same deadline); the
run-time table asks :meth:`TableGames.before_deal` before each deal and deals
:meth:`TableGames.next_game`. Each offer has a number (``pick_id``): a press that names an
older one is refused, so an old dealer's-choice button never counts for the current pick.
The table's settings reach this module as :class:`GameSettings` (what
:class:`~.settings.TableConfig` holds of its games), since the settings themselves are
built on :class:`GameMode`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Protocol

from dealerbot.engine import Variant, next_button
from dealerbot.store import rotations as rotations_db
from dealerbot.store.db import Database
from dealerbot.store.rotations import PickRow, RotationRow
from dealerbot.store.seats import SeatRow

from .errors import TableError, is_int
from .views import ChoiceView, GamesView

DEFAULT_HANDS_PER_GAME = 8  # within limits.HANDS_PER_GAME
DEFAULT_CHOICE_SECONDS = 20  # within limits.CHOICE_SECONDS
DEFAULT_ROTATION = (Variant.STUD, Variant.RAZZ, Variant.STUD8)


class GameMode(StrEnum):
    """The table's ``game`` setting: one game, a rotation (mix), or dealer's choice."""

    STUD = "stud"
    STUD8 = "stud8"
    RAZZ = "razz"
    MIX = "mix"
    CHOICE = "choice"

    @property
    def fixed(self) -> Variant | None:
        """The one game this mode deals, or None for mix and choice."""
        return None if self in (GameMode.MIX, GameMode.CHOICE) else Variant(self.value)


@dataclass(frozen=True, slots=True)
class Rotation:
    """Where a table is in its rotation: the game being played and hands dealt in it."""

    game: Variant
    hands_played: int = 0
    chosen: bool = False  # dealer's choice: the current stint was picked (or its pick lapsed)


@dataclass(frozen=True, slots=True)
class NextHand:
    """The game of the hand about to be dealt, and the rotation to store with it."""

    game: Variant
    rotation: Rotation


def parse_games(text: str | Sequence[str | Variant]) -> tuple[Variant, ...]:
    """``"stud, razz, stud8"`` (or a sequence) into games; ValueError names what is allowed."""
    items = text.replace(",", " ").split() if isinstance(text, str) else list(text)
    games: list[Variant] = []
    for item in items:
        if isinstance(item, Variant):
            games.append(item)
            continue
        try:
            games.append(Variant(item.strip().lower()))
        except ValueError:
            raise ValueError(f"unknown game {item!r} in the list: choose {allowed()}") from None
    if not games:
        raise ValueError(f"the list of games is empty: name one or more of {allowed()}")
    twice = sorted({g.value for g in games if games.count(g) > 1})
    if twice:
        raise ValueError(f"name each game once in the list ({', '.join(twice)} twice)")
    return tuple(games)


def allowed() -> str:
    return ", ".join(repr(v.value) for v in Variant)


def games_text(games: Sequence[Variant]) -> str:
    """Stored form: ``stud,razz,stud8``."""
    return ",".join(g.value for g in games)


def choice_due(mode: GameMode, games: Sequence[Variant], n: int, rotation: Rotation) -> bool:
    """Dealer's choice: the button player picks when a stint of ``n`` hands is over
    (or none was picked yet). Only when there is something to choose among."""
    if mode is not GameMode.CHOICE or len(set(games)) < 2:
        return False
    return not rotation.chosen or rotation.hands_played >= n


def next_hand(
    mode: GameMode, games: Sequence[Variant], n: int, rotation: Rotation | None
) -> NextHand:
    """The next hand's game. Fixed: always that game. Mix: ``n`` hands of each game in
    list order, wrapping (a game no longer in the list restarts at the list's first).
    Choice: the current game until a pick (:func:`chosen`) starts a new stint."""
    fixed = mode.fixed
    if fixed is not None:
        return _play(fixed, rotation)
    current = rotation if rotation is not None else Rotation(games[0])
    if mode is GameMode.MIX:
        if current.game not in games:
            return _play(games[0], None)
        if current.hands_played >= n:
            index = games.index(current.game)
            return _play(games[(index + 1) % len(games)], None)
        return _play(current.game, current)
    if current.chosen and current.hands_played >= n:  # choice due but not made: same game
        current = Rotation(current.game, 0, current.chosen)
    return _play(current.game, current)


def chosen(game: Variant | None, rotation: Rotation | None, fallback: Variant) -> Rotation:
    """The rotation after the button player's pick (None: the time ran out, the game
    in play continues for a new stint)."""
    keep = rotation.game if rotation is not None else fallback
    return Rotation(game if game is not None else keep, 0, True)


def _play(game: Variant, rotation: Rotation | None) -> NextHand:
    played = rotation.hands_played if rotation is not None and rotation.game is game else 0
    chosen_flag = rotation.chosen if rotation is not None and rotation.game is game else False
    return NextHand(game, Rotation(game, played + 1, chosen_flag))


@dataclass(frozen=True, slots=True)
class Upcoming:
    """What the table tells players: this game, hand k of n, then what."""

    game: Variant
    hand: int  # 1-based, within the current stint (0 before its first hand)
    of: int
    then: Variant | None  # None: dealer's choice decides (or the game is fixed)


def upcoming(
    mode: GameMode, games: Sequence[Variant], n: int, rotation: Rotation | None
) -> Upcoming | None:
    """For mix and choice: the game in play (or about to be), its hand count, what follows."""
    if mode.fixed is not None:
        return None
    current = rotation if rotation is not None else Rotation(games[0])
    if mode is GameMode.MIX:
        if current.game not in games:
            return Upcoming(games[0], 0, n, None if len(games) == 1 else games[1 % len(games)])
        index = games.index(current.game)
        return Upcoming(
            current.game, min(current.hands_played, n), n, games[(index + 1) % len(games)]
        )
    return Upcoming(current.game, min(current.hands_played, n), n, None)


# --- a table's rotation at run time -------------------------------------------------------


class ChoiceError(TableError):
    """A dealer's-choice press that is not allowed (not his pick, none pending, bad game)."""


class GameSettings(Protocol):
    """What the rotation reads of a table's settings (:class:`~.settings.TableConfig`)."""

    @property
    def variant(self) -> Variant: ...

    @property
    def game(self) -> GameMode: ...

    @property
    def games(self) -> tuple[Variant, ...]: ...

    @property
    def hands_per_game(self) -> int: ...

    @property
    def choice_seconds(self) -> int: ...

    @property
    def mixed(self) -> bool: ...


class TableGames:
    """One table's rotation, loaded on first use, stored after each deal."""

    def __init__(self) -> None:
        self.rotation: Rotation | None = None
        self.loaded = False
        self.pending: ChoiceView | None = None
        self.note: str | None = None
        self.pick_id = 0  # the number of the table's latest dealer's-choice offer
        self._stored: PickRow | None = None  # an offer read back, shown once settings are known
        self._waiting_row = False  # the database holds an offer still waiting

    async def load(self, db: Database, table_id: int) -> None:
        if self.loaded:
            return
        row = await rotations_db.get_rotation(db, table_id)
        if row is not None:
            self.rotation = Rotation(Variant(row.game), row.hands_played, row.chosen)
        pick = await rotations_db.get_pick(db, table_id)
        if pick is not None:
            self.pick_id = pick.pick_id
            self._stored = pick if pick.waiting else None
            self._waiting_row = pick.waiting
        self.loaded = True

    def _pending(self, config: GameSettings) -> ChoiceView | None:
        """The offer waiting for its answer (one read back after a restart included)."""
        stored, self._stored = self._stored, None
        if self.pending is None and stored is not None and stored.deadline is not None:
            assert stored.user_id is not None and stored.seat_no is not None
            self.pending = ChoiceView(
                user_id=stored.user_id,
                name=stored.name or str(stored.user_id),
                seat=stored.seat_no,
                options=tuple(dict.fromkeys(config.games)),
                deadline=stored.deadline,
                pick_id=stored.pick_id,
            )
        return self.pending

    async def settings_changed(
        self, db: Database, table_id: int, old: GameSettings, new: GameSettings
    ) -> None:
        """A new game, list or N: the rotation starts afresh from the next hand (dealer's
        choice keeps the game in play until the next pick)."""
        if (old.game, old.games) == (new.game, new.games):
            return
        async with db.transaction():
            await rotations_db.reset_rotation(db, table_id)
            await rotations_db.end_pick(db, table_id)  # its number stays: old buttons stay old
        keep = self.rotation.game if self.rotation is not None else old.variant
        self.rotation = None
        self.pending = None
        self._stored = None
        self._waiting_row = False
        self.note = None
        if new.game is GameMode.CHOICE and keep in new.games:
            self.rotation = Rotation(keep, 0, False)
        self.loaded = True

    async def before_deal(
        self,
        db: Database,
        table_id: int,
        config: GameSettings,
        seats: Sequence[SeatRow],
        button: int | None,
        now: float,
    ) -> ChoiceView | None:
        """The pick to wait for before dealing (None: deal now), stored when it is new. A
        pick whose time ran out keeps the game in play for a new stint (the deal's
        :meth:`dealt` ends it in the database)."""
        pending = self._pending(config)
        if pending is not None:
            if now < pending.deadline:
                return pending
            game = self._current(config)
            self.rotation = chosen(None, self.rotation, game)
            self.pending = None
            self.note = f"{pending.name} did not choose in time: {game.title} continues"
            return None
        if config.game is not GameMode.CHOICE or not seats:
            return None
        rotation = self.rotation if self.rotation is not None else Rotation(self._current(config))
        if not choice_due(config.game, config.games, config.hands_per_game, rotation):
            return None
        seat_no = next_button(button, [seat.seat_no for seat in seats])
        chooser = next(seat for seat in seats if seat.seat_no == seat_no)
        options = tuple(dict.fromkeys(config.games))
        offer = ChoiceView(
            user_id=chooser.user_id,
            name=chooser.display_name,
            seat=seat_no,
            options=options,
            deadline=now + config.choice_seconds,
            pick_id=self.pick_id + 1,
        )
        row = PickRow(offer.pick_id, offer.user_id, offer.seat, offer.name, offer.deadline)
        await rotations_db.put_pick(db, table_id, row)
        self.pick_id, self.pending, self._waiting_row = offer.pick_id, offer, True
        return offer

    async def choose(
        self,
        db: Database,
        table_id: int,
        config: GameSettings,
        user_id: int,
        game: str,
        pick_id: object = None,
    ) -> Variant:
        """The button player's pick, stored with the rotation before it counts; refused for
        anyone else, when none is waiting, or when ``pick_id`` (the pick a button belongs
        to; None: the one waiting now) is not the pick waiting now."""
        pending = self._pending(config)
        if pick_id is not None and (
            pending is None or not is_int(pick_id) or pick_id != pending.pick_id
        ):
            raise ChoiceError(
                "That button is from an earlier pick of the game, which is over; "
                "use the newest table message."
            )
        if pending is None:
            raise ChoiceError("No game is being chosen at this table now.")
        if user_id != pending.user_id:
            raise ChoiceError(
                f"Only {pending.name}, on the button, chooses the next game; it is dealt "
                "when they choose or their time runs out."
            )
        try:
            picked = Variant(game)
        except ValueError:
            picked = None
        if picked is None or picked not in pending.options:
            names = ", ".join(v.title for v in pending.options)
            raise ChoiceError(f"Choose one of the table's games: {names}.")
        rotation = chosen(picked, self.rotation, picked)
        row = RotationRow(rotation.game.value, rotation.hands_played, rotation.chosen)
        async with db.transaction():  # a restart before the deal deals this pick
            await rotations_db.put_rotation(db, table_id, row)
            await rotations_db.end_pick(db, table_id)
        self.rotation, self.pending, self._waiting_row = rotation, None, False
        self.note = f"{pending.name} chose {picked.title}"
        return picked

    def next_game(self, config: GameSettings) -> NextHand:
        """The game of the hand about to be dealt, and the rotation to store with it."""
        return next_hand(config.game, config.games, config.hands_per_game, self.rotation)

    async def dealt(
        self, db: Database, table_id: int, config: GameSettings, rotation: Rotation
    ) -> None:
        """Store where the rotation stands (a table dealing one game has nothing to store:
        a change to a mixed game starts its rotation afresh), in the deal's transaction; an
        offer that lapsed before this deal ends with it."""
        if self._waiting_row and self.pending is None:
            await rotations_db.end_pick(db, table_id)
            self._waiting_row = False
        if config.mixed:
            await rotations_db.put_rotation(
                db,
                table_id,
                RotationRow(rotation.game.value, rotation.hands_played, rotation.chosen),
            )
        self.rotation = rotation

    def view(self, config: GameSettings) -> GamesView | None:
        """For mix and choice tables (None for a table dealing one game)."""
        now = upcoming(config.game, config.games, config.hands_per_game, self.rotation)
        if now is None:
            return None
        return GamesView(
            mode=config.game,
            games=config.games,
            game=now.game,
            hand=now.hand,
            of=now.of,
            then=now.then,
            choice=self._pending(config),
            note=self.note,
            next_game=self.next_game(config).game,
        )

    def _current(self, config: GameSettings) -> Variant:
        if self.rotation is not None and self.rotation.game in config.games:
            return self.rotation.game
        return config.games[0] if config.variant not in config.games else config.variant
