"""A table's mixed games at run time: the game of each hand, dealer's choice, and what the
table shows about them (R15.1).

The policy is :mod:`.games` (pure); this holds the table's rotation in memory, loads and
stores it (so a restart resumes it) and the pending dealer's choice. The run-time table
asks :meth:`Mixer.before_deal` before each deal and deals with :meth:`Mixer.hand_config`.
"""

from __future__ import annotations

from collections.abc import Sequence

from dealerbot.engine import Variant, next_button
from dealerbot.store import rotations as rotations_db
from dealerbot.store.db import Database
from dealerbot.store.rotations import RotationRow
from dealerbot.store.seats import SeatRow

from . import games
from .config import TableConfig
from .display import ChoiceView, GamesView
from .errors import TableError
from .games import GameMode, Rotation


class ChoiceError(TableError):
    """A dealer's-choice press that is not allowed (not his pick, none pending, bad game)."""


class Mixer:
    """One table's rotation, loaded on first use, stored after each deal."""

    def __init__(self) -> None:
        self.rotation: Rotation | None = None
        self.loaded = False
        self.pending: ChoiceView | None = None
        self.note: str | None = None

    async def load(self, db: Database, table_id: int) -> None:
        if self.loaded:
            return
        row = await rotations_db.get_rotation(db, table_id)
        if row is not None:
            self.rotation = Rotation(Variant(row.game), row.hands_played, row.chosen)
        self.loaded = True

    async def settings_changed(
        self, db: Database, table_id: int, old: TableConfig, new: TableConfig
    ) -> None:
        """A new game, list or N: the rotation starts afresh from the next hand (dealer's
        choice keeps the game in play until the next pick)."""
        if (old.game, old.games) == (new.game, new.games):
            return
        await rotations_db.reset_rotation(db, table_id)
        keep = self.rotation.game if self.rotation is not None else old.variant
        self.rotation = None
        self.pending = None
        self.note = None
        if new.game is GameMode.CHOICE and keep in new.games:
            self.rotation = Rotation(keep, 0, False)
        self.loaded = True

    def before_deal(
        self, config: TableConfig, seats: Sequence[SeatRow], button: int | None, now: float
    ) -> ChoiceView | None:
        """The pick to wait for before dealing (None: deal now). A pick whose time ran out
        keeps the game in play for a new stint."""
        pending = self.pending
        if pending is not None:
            if now < pending.deadline:
                return pending
            game = self._current(config)
            self.rotation = games.chosen(None, self.rotation, game)
            self.pending = None
            self.note = f"{pending.name} did not choose in time: {game.title} continues"
            return None
        if config.game is not GameMode.CHOICE or not seats:
            return None
        rotation = self.rotation if self.rotation is not None else Rotation(self._current(config))
        if not games.choice_due(config.game, config.games, config.hands_per_game, rotation):
            return None
        seat_no = next_button(button, [seat.seat_no for seat in seats])
        chooser = next(seat for seat in seats if seat.seat_no == seat_no)
        options = tuple(dict.fromkeys(config.games))
        self.pending = ChoiceView(
            chooser.user_id, chooser.display_name, seat_no, options, now + config.choice_seconds
        )
        return self.pending

    def choose(self, config: TableConfig, user_id: int, game: str) -> Variant:
        """The button player's pick; refused for anyone else, or when none is waiting."""
        pending = self.pending
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
        self.rotation = games.chosen(picked, self.rotation, picked)
        self.pending = None
        self.note = f"{pending.name} chose {picked.title}"
        return picked

    def hand_config(self, config: TableConfig) -> tuple[TableConfig, Rotation]:
        """The settings of the hand about to be dealt, and the rotation to store with it."""
        nxt = games.next_hand(config.game, config.games, config.hands_per_game, self.rotation)
        return config.replace(variant=nxt.game), nxt.rotation

    async def dealt(
        self, db: Database, table_id: int, config: TableConfig, rotation: Rotation
    ) -> None:
        """Store where the rotation stands (a table dealing one game has nothing to store:
        a change to a mixed game starts its rotation afresh)."""
        if config.mixed:
            await rotations_db.put_rotation(
                db,
                table_id,
                RotationRow(rotation.game.value, rotation.hands_played, rotation.chosen),
            )
        self.rotation = rotation

    def view(self, config: TableConfig) -> GamesView | None:
        """For mix and choice tables (None for a table dealing one game)."""
        upcoming = games.upcoming(config.game, config.games, config.hands_per_game, self.rotation)
        if upcoming is None:
            return None
        return GamesView(
            config.game,
            config.games,
            upcoming.game,
            upcoming.hand,
            upcoming.of,
            upcoming.then,
            self.pending,
            self.note,
            self.hand_config(config)[0].variant,
        )

    def _current(self, config: TableConfig) -> Variant:
        if self.rotation is not None and self.rotation.game in config.games:
            return self.rotation.game
        return config.games[0] if config.variant not in config.games else config.variant
