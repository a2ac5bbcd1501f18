"""Tournament options: one default and one range each, every refusal naming the option and
its range (issue 18). The service's two bounds are passed in: most tests pass stand-ins
(any range will do), one passes the table service's own ``Bound`` values."""

from __future__ import annotations

from typing import Any

import pytest

from dealerbot.engine import MAX_PLAYERS, MIN_PLAYERS, Variant
from dealerbot.tournament import (
    DEFAULT_MIX,
    SettingsError,
    Span,
    Structure,
    TournamentSettings,
    games_of,
)
from dealerbot.tournament import settings as core

CHIPS = Span(1, 5_000_000)  # stand-ins for the service's bounds: one chip movement ...
TURN_SECONDS = Span(20, 90)  # ... and a table's turn time


def build(**options: Any) -> TournamentSettings:
    structure = options.pop("structure", Structure.TURBO)
    buy_in = options.pop("buy_in", 100)
    return TournamentSettings.of(structure, buy_in, chips=CHIPS, turn_range=TURN_SECONDS, **options)


@pytest.mark.parametrize(
    ("structure", "chips", "minutes"),
    [(Structure.TURBO, 1_500, 5), (Structure.REGULAR, 2_500, 10), (Structure.DEEP, 5_000, 15)],
)
def test_each_structure_has_its_defaults(structure: Structure, chips: int, minutes: int) -> None:
    settings = build(structure=structure)
    assert (settings.starting_chips, settings.level_minutes) == (chips, minutes)
    assert settings.level_seconds == minutes * 60
    assert (settings.seats, settings.turn_seconds) == (8, 30)
    assert settings.games == (Variant.STUD,)
    assert not settings.mixed


def test_the_defaults_sit_inside_the_bounds() -> None:
    for defaults in core.STRUCTURES.values():
        assert defaults.starting_chips in core.STARTING_CHIPS
        assert defaults.level_minutes in core.LEVEL_MINUTES
    assert MIN_PLAYERS <= core.DEFAULT_SEATS <= MAX_PLAYERS
    assert set(core.STRUCTURES) == set(Structure)


def test_the_table_services_own_bounds_fit() -> None:
    """The service passes its ``Bound`` values as they are; the default turn time and the
    seat range fit a table's (the seats are the engine's R1.1 for both)."""
    from dealerbot import tables  # here, not at the top: only this test needs the service

    settings = TournamentSettings.of(
        Structure.REGULAR, 500, chips=tables.CHIPS, turn_range=tables.TURN_SECONDS
    )
    assert settings.turn_seconds == core.DEFAULT_TURN_SECONDS
    with pytest.raises(SettingsError, match=f"buy_in must be from 1 to {tables.CHIPS.high:,}"):
        settings.of(
            Structure.REGULAR,
            tables.CHIPS.high + 1,
            chips=tables.CHIPS,
            turn_range=tables.TURN_SECONDS,
        )
    assert tuple(tables.SEATS) == (MIN_PLAYERS, MAX_PLAYERS)  # one source: the engine's R1.1
    with pytest.raises(SettingsError, match="seats must be from 2 to 8"):
        settings.of(
            Structure.TURBO, 100, seats=9, chips=tables.CHIPS, turn_range=tables.TURN_SECONDS
        )


@pytest.mark.parametrize(
    ("option", "low", "high", "text"),
    [
        ("starting_chips", 100, 100_000, "starting_chips must be from 100 to 100,000"),
        ("level_minutes", 1, 60, "level_minutes must be from 1 to 60"),
        ("seats", 2, 8, "seats must be from 2 to 8"),
        ("buy_in", 1, CHIPS.high, f"buy_in must be from 1 to {CHIPS.high:,}"),
        (
            "turn_seconds",
            TURN_SECONDS.low,
            TURN_SECONDS.high,
            f"turn_seconds must be from {TURN_SECONDS.low} to {TURN_SECONDS.high}",
        ),
    ],
)
def test_each_bound_holds_its_ends_and_refuses_past_them(
    option: str, low: int, high: int, text: str
) -> None:
    assert getattr(build(**{option: low}), option) == low
    assert getattr(build(**{option: high}), option) == high
    for wrong in (low - 1, high + 1):
        with pytest.raises(SettingsError) as refused:
            build(**{option: wrong})
        assert str(refused.value) == f"{text} (got {wrong:,})"


@pytest.mark.parametrize("wrong", [True, 2.5, "100", None])
def test_a_number_option_must_be_a_whole_number(wrong: object) -> None:
    with pytest.raises(SettingsError, match="starting_chips must be a whole number"):
        TournamentSettings(Structure.DEEP, 10, wrong, 5)  # type: ignore[arg-type]


def test_the_constructor_checks_the_core_bounds_and_validate_the_services() -> None:
    with pytest.raises(SettingsError, match="buy_in must be at least 1"):
        TournamentSettings(Structure.DEEP, 0, 5_000, 15)
    big = TournamentSettings(Structure.DEEP, CHIPS.high + 1, 5_000, 15)  # no bound known yet
    with pytest.raises(SettingsError, match="buy_in must be from 1"):
        big.validate(chips=CHIPS, turn_range=TURN_SECONDS)
    with pytest.raises(SettingsError, match="structure must be one of turbo, regular, deep"):
        TournamentSettings("turbo", 10, 1_500, 5)  # type: ignore[arg-type]


def test_games_one_or_a_mix() -> None:
    assert games_of("Razz") == (Variant.RAZZ,)
    assert games_of(" stud8 ") == (Variant.STUD8,)
    assert games_of("mix") == DEFAULT_MIX == (Variant.STUD, Variant.STUD8, Variant.RAZZ)
    with pytest.raises(SettingsError, match="game must be one of stud, stud8, razz or mix"):
        games_of("holdem")
    mixed = build(games=games_of("mix"))
    assert mixed.mixed and mixed.game_name == "mix"
    assert build(games=games_of("razz")).game_name == "razz"


@pytest.mark.parametrize(
    ("games", "text"),
    [
        ((), "games must name one or more of stud, stud8, razz"),
        (("stud",), "games must name one or more of stud, stud8, razz"),
        ((Variant.RAZZ, Variant.RAZZ), "games must name each game once"),
    ],
)
def test_a_wrong_list_of_games_is_refused(games: tuple[Any, ...], text: str) -> None:
    with pytest.raises(SettingsError, match=text):
        build(games=games)


def test_structure_parse() -> None:
    assert Structure.parse(" Deep") is Structure.DEEP
    with pytest.raises(SettingsError, match="structure must be one of turbo, regular, deep"):
        Structure.parse("hyper")


def test_settings_go_to_a_dict_and_back() -> None:
    settings = build(structure=Structure.REGULAR, seats=6, games=(Variant.RAZZ, Variant.STUD))
    data = settings.to_dict()
    assert data["games"] == ["razz", "stud"] and data["structure"] == "regular"
    assert TournamentSettings.from_dict(data) == settings


@pytest.mark.parametrize(
    "damage",
    [{"games": ["holdem"]}, {"structure": "hyper"}, {"seats": 9}, {"buy_in": None}],
)
def test_stored_settings_that_do_not_read_are_refused(damage: dict[str, Any]) -> None:
    data = {**build().to_dict(), **damage}
    with pytest.raises(SettingsError):
        TournamentSettings.from_dict(data)
    broken = build().to_dict()
    del broken["seats"]
    with pytest.raises(SettingsError, match="not readable"):
        TournamentSettings.from_dict(broken)
