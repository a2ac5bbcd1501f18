"""House settings: a table's game and limits, a server's economy, how they are read and
changed (the service's :class:`HouseSettings`), and the stakes whose hand files trackers import.

Construction validates the whole combination and refuses with :class:`ConfigError`,
worded for the admin who typed it. The store keeps plain rows
(:class:`~dealerbot.store.config.ConfigRow`, :class:`~dealerbot.store.config.EconomyRow`);
this module turns them into these values and back; the limits themselves are
:mod:`.limits`. A change to a loaded table applies from its next hand: the service writes
it under that table's lock and hands it to the table (``Table.reconfigure``).

Our PokerStars files import into trackers, but trackers know only PokerStars' own
fixed-limit stakes: FPDB's PokerStars importer looks a cash game's big bet up in its table of
the site's stakes (``Lim_Blinds`` in ``PokerStarsToFpdb.py``, fpdb-3) and drops a hand whose
big bet is not there (``Lim_Blinds has no lookup for '12'`` at 6/12). Our files write play
chips as whole numbers, so the whole-number entries of that table are the ones that count
(:data:`TRACKER_BIG_BETS`); the settings confirmation says when a table's will not import.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass, fields
from typing import Any

from dealerbot.engine import MAX_PLAYERS, Stakes, StakesError, Variant
from dealerbot.store import config as config_db
from dealerbot.store import tables as tables_db
from dealerbot.store.config import GUILD_DEFAULT_CHANNEL, NEW_GUILD_ECONOMY, ConfigRow, EconomyRow
from dealerbot.store.db import Database
from dealerbot.store.tables import TableStatus

from .errors import ConfigError, check_ids, sentence, store_errors_as_table_errors
from .limits import (
    ANTE,
    BETWEEN_HANDS_SECONDS,
    CHOICE_SECONDS,
    DAILY_COOLDOWN_SECONDS,
    HANDS_PER_GAME,
    HOUSE_FILL_TO,
    HOUSE_PLAYERS,
    MAX_BUYIN_SMALL_BETS,
    MIN_BUYIN_SMALL_BETS,
    SEATS,
    SMALL_BET,
    TIME_BANK_SECONDS,
    TURN_SECONDS,
    WALLET_GRANT,
    Bound,
)
from .rotation import (
    DEFAULT_CHOICE_SECONDS,
    DEFAULT_HANDS_PER_GAME,
    DEFAULT_ROTATION,
    GameMode,
    games_text,
    parse_games,
)
from .views import DEFAULT_DECK, DeckStyle

_LABELS = {
    "variant": "game",
    "game": "game",
    "games": "list of games",
    "hands_per_game": "hands per game",
    "choice_seconds": "dealer's choice time (seconds)",
    "ante": "ante",
    "bring_in": "bring-in",
    "small_bet": "small bet",
    "min_buyin": "minimum buy-in",
    "max_buyin": "maximum buy-in",
    "seats": "seats",
    "turn_seconds": "turn time (seconds)",
    "between_hands_seconds": "delay between hands (seconds)",
    "time_bank_seconds": "time bank (seconds)",
    "house_players": "number of house players",
    "house_fill_to": "seats house players fill to",
    "starting_chips": "starting chips",
    "daily_chips": "daily bonus",
    "daily_cooldown_seconds": "daily cooldown (seconds)",
    "deck": "deck",
}


def parse_deck(raw: object) -> DeckStyle:
    """A deck style from its name ("four-colour"; "four-color" too); ConfigError otherwise."""
    if isinstance(raw, DeckStyle):
        return raw
    text = str(raw).strip().lower().replace("color", "colour").replace(" ", "-")
    try:
        return DeckStyle(text)
    except ValueError:
        raise _refuse(f"unknown deck {raw!r}: choose {_decks()}") from None


def _decks() -> str:
    return ", ".join(repr(d.value) for d in DeckStyle)


def _refuse(text: str) -> ConfigError:
    return ConfigError(sentence(text))


def _whole(name: str, value: object) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise _refuse(f"the {_LABELS[name]} must be a whole number, not {value!r}")
    return value


def _between(name: str, value: int, bound: Bound) -> None:
    if value not in bound:
        raise _refuse(
            f"the {_LABELS[name]} must be between {bound.low:,} and {bound.high:,} (got {value:,})"
        )


@dataclass(frozen=True, slots=True)
class TableConfig:
    """A table's game and limits; construction validates (ConfigError says what is allowed)."""

    variant: Variant = Variant.STUD
    ante: int = 1
    bring_in: int = 2
    small_bet: int = 5
    min_buyin: int = 100
    max_buyin: int = 1000
    seats: int = MAX_PLAYERS
    turn_seconds: int = 45
    between_hands_seconds: int = 5
    time_bank_seconds: int = 30
    game: GameMode = GameMode.STUD  # one game, a rotation (mix) or dealer's choice (R15.1)
    games: tuple[Variant, ...] = DEFAULT_ROTATION  # what mix rotates through / choice offers
    hands_per_game: int = DEFAULT_HANDS_PER_GAME
    choice_seconds: int = DEFAULT_CHOICE_SECONDS
    deck: DeckStyle = DEFAULT_DECK  # how the table's own message draws cards
    house_players: int = 0  # the most house players at this table (0: none; issue 20)
    house_fill_to: int = 4  # house players sit while fewer than this many seats are taken

    def __post_init__(self) -> None:
        if not isinstance(self.deck, DeckStyle):
            raise _refuse(f"the deck must be one of {_decks()}")
        if not isinstance(self.variant, Variant):
            games = ", ".join(repr(v.value) for v in Variant)
            raise _refuse(f"the game must be one of {games}")
        if not isinstance(self.game, GameMode):
            raise _refuse(f"the game must be one of {_modes()}")
        if not self.games or not all(isinstance(g, Variant) for g in self.games):
            raise _refuse(f"the list of games must name one or more of {_variants()}")
        for f in fields(self):
            if f.name not in ("variant", "game", "games", "deck"):
                _whole(f.name, getattr(self, f.name))
        fixed = self.game.fixed
        if fixed is not None and self.variant is not fixed:
            raise _refuse(f"a {fixed.value} table deals {fixed.value} only")
        if fixed is None and self.variant not in self.games:
            raise _refuse(f"{self.variant.value} is not in the table's list of games")
        if len(set(self.games)) < len(self.games):
            raise _refuse("name each game once in the list of games")
        if self.game is GameMode.CHOICE and len(self.games) < 2:
            raise _refuse("dealer's choice needs two or more different games in the list")
        _between("hands_per_game", self.hands_per_game, HANDS_PER_GAME)
        _between("choice_seconds", self.choice_seconds, CHOICE_SECONDS)
        _between("ante", self.ante, ANTE)
        _between("small_bet", self.small_bet, SMALL_BET)
        try:
            Stakes.of(self.small_bet, self.ante, self.bring_in)
        except StakesError as exc:
            raise _refuse(str(exc)) from None
        low = MIN_BUYIN_SMALL_BETS * self.small_bet
        high = MAX_BUYIN_SMALL_BETS * self.small_bet
        if self.min_buyin < low:
            raise _refuse(
                f"the minimum buy-in must be at least {MIN_BUYIN_SMALL_BETS} small bets "
                f"({low:,} chips) (got {self.min_buyin:,})"
            )
        if not self.min_buyin <= self.max_buyin <= high:
            raise _refuse(
                f"the maximum buy-in must be between the minimum buy-in ({self.min_buyin:,}) "
                f"and {MAX_BUYIN_SMALL_BETS} small bets ({high:,}) (got {self.max_buyin:,})"
            )
        _between("seats", self.seats, SEATS)
        _between("turn_seconds", self.turn_seconds, TURN_SECONDS)
        _between("between_hands_seconds", self.between_hands_seconds, BETWEEN_HANDS_SECONDS)
        _between("time_bank_seconds", self.time_bank_seconds, TIME_BANK_SECONDS)
        _between("house_players", self.house_players, HOUSE_PLAYERS)
        _between("house_fill_to", self.house_fill_to, HOUSE_FILL_TO)

    @property
    def big_bet(self) -> int:
        return 2 * self.small_bet

    @property
    def stakes(self) -> Stakes:
        return Stakes.of(self.small_bet, self.ante, self.bring_in)

    def replace(self, **changes: Any) -> TableConfig:
        """A copy with ``changes`` parsed (strings allowed) and validated. Setting the game
        to one game sets the variant too; a mixed game deals the list's first until the
        rotation says otherwise (see :mod:`.rotation`)."""
        values = _coerce(TableConfig, changes)
        game = values.get("game", self.game)
        games = values.get("games", self.games)
        if "variant" in values and "game" not in values and self.game.fixed is not None:
            game = values["game"] = GameMode(values["variant"].value)  # the old setting
        fixed = game.fixed
        if fixed is not None:
            values["variant"] = fixed
        elif values.get("variant", self.variant) not in games and games:
            values["variant"] = games[0]
        return dataclasses.replace(self, **values)

    def to_row(self) -> ConfigRow:
        values = {f.name: getattr(self, f.name) for f in fields(self)}
        values["variant"] = self.variant.value
        values["game"] = self.game.value
        values["games"] = games_text(self.games)
        values["deck"] = self.deck.value
        return ConfigRow(**values)

    @property
    def mixed(self) -> bool:
        """A rotation or dealer's choice (the game may change between hands)."""
        return self.game.fixed is None

    @staticmethod
    def from_row(row: ConfigRow | None) -> TableConfig:
        """The settings a stored row holds (None: the built-in settings)."""
        if row is None:
            return DEFAULT_TABLE_CONFIG
        values = dataclasses.asdict(row)
        values["game"] = row.game or row.variant  # a hand logged before mixed games
        return TableConfig().replace(**values)


@dataclass(frozen=True, slots=True)
class GuildEconomy:
    """What a guild hands out: starting balance, daily bonus and its cooldown."""

    starting_chips: int = NEW_GUILD_ECONOMY.starting_chips
    daily_chips: int = NEW_GUILD_ECONOMY.daily_chips
    daily_cooldown_seconds: int = NEW_GUILD_ECONOMY.daily_cooldown_seconds

    def __post_init__(self) -> None:
        for f in fields(self):
            _whole(f.name, getattr(self, f.name))
        _between("starting_chips", self.starting_chips, WALLET_GRANT)
        _between("daily_chips", self.daily_chips, WALLET_GRANT)
        _between("daily_cooldown_seconds", self.daily_cooldown_seconds, DAILY_COOLDOWN_SECONDS)

    def replace(self, **changes: Any) -> GuildEconomy:
        return dataclasses.replace(self, **_coerce(GuildEconomy, changes))

    def to_row(self) -> EconomyRow:
        return EconomyRow(self.starting_chips, self.daily_chips, self.daily_cooldown_seconds)

    @staticmethod
    def from_row(row: EconomyRow) -> GuildEconomy:
        return GuildEconomy(row.starting_chips, row.daily_chips, row.daily_cooldown_seconds)


DEFAULT_TABLE_CONFIG = TableConfig()


def _modes() -> str:
    return ", ".join(repr(m.value) for m in GameMode)


def _variants() -> str:
    return ", ".join(repr(v.value) for v in Variant)


def _coerce(
    kind: type[TableConfig] | type[GuildEconomy], changes: dict[str, Any]
) -> dict[str, Any]:
    """Accept ints/Variants or their text forms ("stud8", "1,000"); refuse unknown keys."""
    known = {f.name for f in fields(kind)}
    out: dict[str, Any] = {}
    for name, raw in changes.items():
        value = raw
        if name not in known:
            allowed = ", ".join(sorted(known))
            raise _refuse(f"unknown setting {name!r}; the settings are: {allowed}")
        if name == "variant":
            if isinstance(value, str):
                try:
                    value = Variant.parse(raw)
                except StakesError as exc:
                    raise _refuse(str(exc)) from None
        elif name == "game":
            if isinstance(value, str):
                try:
                    value = GameMode(raw.strip().lower())
                except ValueError:
                    raise _refuse(f"unknown game {raw!r}: choose {_modes()}") from None
        elif name == "games":
            if isinstance(value, str | list | tuple):
                try:
                    value = parse_games(raw)
                except ValueError as exc:
                    raise _refuse(str(exc)) from None
        elif name == "deck":
            value = parse_deck(raw)
        elif isinstance(value, str):
            text = raw.strip().replace(",", "").replace("_", "")
            if not text.removeprefix("-").isdecimal():  # what int() takes ("²" is a digit)
                raise _refuse(f"the {_LABELS[name]} must be a whole number, not {raw!r}")
            value = int(text)
        out[name] = value
    return out


# --- reading and writing them (each change is one transaction: read, validate, write) -----


async def table_config(db: Database, guild_id: int, channel_id: int) -> TableConfig:
    """Effective settings: the channel's, else the guild's defaults, else the built-in ones."""
    return TableConfig.from_row(await config_db.get_table_config(db, guild_id, channel_id))


async def guild_defaults(db: Database, guild_id: int) -> TableConfig:
    return TableConfig.from_row(await config_db.get_guild_table_defaults(db, guild_id))


async def change_table_config(
    db: Database, guild_id: int, channel_id: int, **changes: Any
) -> TableConfig:
    """Store the channel's effective settings with ``changes``; returns the new settings."""
    async with db.transaction():
        new = (await table_config(db, guild_id, channel_id)).replace(**changes)
        await config_db.put_table_config(db, guild_id, channel_id, new.to_row())
    return new


async def change_guild_defaults(db: Database, guild_id: int, **changes: Any) -> TableConfig:
    """Change the defaults of every channel in the guild that has no settings of its own."""
    async with db.transaction():
        new = (await guild_defaults(db, guild_id)).replace(**changes)
        await config_db.put_table_config(db, guild_id, GUILD_DEFAULT_CHANNEL, new.to_row())
    return new


async def economy(db: Database, guild_id: int) -> GuildEconomy:
    return GuildEconomy.from_row(await config_db.get_economy(db, guild_id))


async def change_economy(db: Database, guild_id: int, **changes: Any) -> GuildEconomy:
    async with db.transaction():
        new = (await economy(db, guild_id)).replace(**changes)
        await config_db.put_economy(db, guild_id, new.to_row())
    return new


class HouseSettings:
    """``service.settings``: a channel's table settings and a server's defaults, read and
    changed (each change one transaction: read, validate, write). Nothing here touches a
    loaded table: the service applies a change to one under its lock."""

    def __init__(self, db: Database) -> None:
        self.db = db

    async def table(self, guild_id: int, channel_id: int) -> TableConfig:
        """The channel's effective settings."""
        check_ids(guild_id, channel_id)
        with store_errors_as_table_errors():
            return await table_config(self.db, guild_id, channel_id)

    async def change_table(self, guild_id: int, channel_id: int, **changes: Any) -> TableConfig:
        """Change this channel's settings; the new settings."""
        check_ids(guild_id, channel_id)
        with store_errors_as_table_errors():
            return await change_table_config(self.db, guild_id, channel_id, **changes)

    async def open_channels(self, guild_id: int) -> list[int]:
        """The channels of the server's tables not closed, in channel order (``/stud-admin
        tables`` shows each as its channel does)."""
        check_ids(guild_id)
        statuses = (TableStatus.OPEN, TableStatus.CLOSING)
        with store_errors_as_table_errors():
            rows = await tables_db.list_tables(self.db, guild_id=guild_id, statuses=statuses)
        return sorted(row.channel_id for row in rows)

    async def guild_defaults(self, guild_id: int) -> TableConfig:
        check_ids(guild_id)
        with store_errors_as_table_errors():
            return await guild_defaults(self.db, guild_id)

    async def change_guild_defaults(self, guild_id: int, **changes: Any) -> TableConfig:
        """Change the guild's defaults (the settings of its channels without their own)."""
        check_ids(guild_id)
        with store_errors_as_table_errors():
            return await change_guild_defaults(self.db, guild_id, **changes)


# --- the stakes trackers import ----------------------------------------------------------

TRACKER_BIG_BETS: tuple[int, ...] = (
    1, 2, 4, 6, 8, 10, 16, 20, 30, 40, 50, 60, 80, 100, 150, 200, 400, 500, 600, 800,
    1000, 2000, 4000, 10_000, 20_000, 40_000,
)  # fmt: skip
"""The whole-number big bets FPDB's PokerStars importer knows for fixed-limit cash games."""

TRACKER_STAKES: dict[int, int] = {big // 2: big for big in TRACKER_BIG_BETS if big % 2 == 0}
"""Small bet to big bet, for the importable stakes a table can deal (its big bet is twice
the small bet: :attr:`TableConfig.big_bet`)."""


def imports_into_trackers(config: TableConfig) -> bool:
    """Whether hand files at this table's stakes import into FPDB."""
    return config.big_bet in TRACKER_BIG_BETS


def nearest_tracker_small_bets(small_bet: int) -> tuple[int, ...]:
    """The importable small bets closest below and above ``small_bet`` (one of them at the
    ends of the list)."""
    below = [small for small in TRACKER_STAKES if small < small_bet]
    above = [small for small in TRACKER_STAKES if small > small_bet]
    return tuple(small for small in (max(below, default=0), min(above, default=0)) if small)


def tracker_stakes_note(config: TableConfig) -> str | None:
    """What the settings confirmation adds when hand files at these stakes will not import
    into trackers; None when they do."""
    if imports_into_trackers(config):
        return None
    nearest = " or ".join(
        f"{small} ({small}/{TRACKER_STAKES[small]})"
        for small in nearest_tracker_small_bets(config.small_bet)
    )
    return (
        f"Hand histories at {config.small_bet}/{config.big_bet} will not import into FPDB, and "
        "may not into other trackers such as PokerTracker: they know only PokerStars' own "
        f"stakes. The nearest small bets that import: {nearest}."
    )


# --- /stud-admin config: all or nothing, each rule said, a confirmation in words ---------

NOTHING_CHANGED = "Nothing was changed"


def check_changes(
    config: TableConfig,
    economy: GuildEconomy,
    table_changes: dict[str, Any],
    economy_changes: dict[str, Any],
) -> tuple[TableConfig, GuildEconomy]:
    """The settings ``config``/``economy`` would become, every change checked before any is
    stored: one refused refuses them all, saying so and why (``Nothing was changed: the
    minimum buy-in must be at least 10 small bets (50 chips) (got 40).``)."""
    try:
        new_config = config.replace(**table_changes) if table_changes else config
        new_economy = economy.replace(**economy_changes) if economy_changes else economy
    except ConfigError as error:
        why = str(error)
        raise ConfigError(f"{NOTHING_CHANGED}: {why[:1].lower()}{why[1:]}") from None
    return new_config, new_economy


def setting_name(key: str) -> str:
    """A setting in words (``the minimum buy-in``), never its option key."""
    return _LABELS.get(key, key.replace("_", " "))


def changed_text(keys: Sequence[str]) -> str:
    """``Changed: the small bet and the minimum buy-in.`` for a confirmation."""
    names = [f"the {setting_name(key)}" for key in dict.fromkeys(keys)]
    listed = names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"
    return f"Changed: {listed}." if names else ""


# The rule of each setting an admin may change, for the option's help (at most 100
# characters, Discord's limit for a description); from the bounds the checks use.
SETTING_RULES: dict[str, str] = {
    "ante": f"Ante per player ({ANTE.text}), at most the bring-in",
    "bring_in": "Bring-in: at least the ante, less than the small bet",
    "small_bet": f"Small bet ({SMALL_BET.text}); the big bet is twice this",
    "min_buyin": f"Smallest buy-in: at least {MIN_BUYIN_SMALL_BETS} small bets",
    "max_buyin": (f"Largest buy-in: from the smallest up to {MAX_BUYIN_SMALL_BETS:,} small bets"),
    "seats": f"Seats at the table ({SEATS.text})",
    "turn_seconds": f"Seconds a player has to act ({TURN_SECONDS.text})",
    "hands_per_game": f"Hands of each game before it changes ({HANDS_PER_GAME.text})",
    "choice_seconds": f"Dealer's choice: seconds to pick ({CHOICE_SECONDS.text})",
    "starting_chips": f"Chips a new player's wallet starts with ({WALLET_GRANT.text}, server-wide)",
    "daily_chips": f"Chips of the /stud daily bonus ({WALLET_GRANT.text}, server-wide)",
}
