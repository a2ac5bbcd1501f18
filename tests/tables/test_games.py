"""The mixed-games policy (R15.1, tables.games): which game the next hand is, when the
button player chooses, and what the table says comes next. Pure values, no table."""

from __future__ import annotations

import pytest

from dealerbot.engine import Variant
from dealerbot.tables.rotation import (
    DEFAULT_ROTATION,
    GameMode,
    Rotation,
    choice_due,
    chosen,
    next_hand,
    parse_games,
    upcoming,
)

STUD, STUD8, RAZZ = Variant.STUD, Variant.STUD8, Variant.RAZZ


def deal(mode: GameMode, games: tuple[Variant, ...], n: int, hands: int) -> list[Variant]:
    """The games of ``hands`` consecutive hands from a fresh rotation."""
    rotation: Rotation | None = None
    dealt = []
    for _ in range(hands):
        nxt = next_hand(mode, games, n, rotation)
        dealt.append(nxt.game)
        rotation = nxt.rotation
    return dealt


def test_default_rotation_is_stud_razz_stud8() -> None:
    assert DEFAULT_ROTATION == (STUD, RAZZ, STUD8)


def test_mix_deals_n_hands_of_each_game_in_list_order_and_wraps() -> None:
    assert deal(GameMode.MIX, DEFAULT_ROTATION, 2, 7) == [
        STUD, STUD, RAZZ, RAZZ, STUD8, STUD8, STUD
    ]  # fmt: skip
    assert deal(GameMode.MIX, DEFAULT_ROTATION, 1, 4) == [STUD, RAZZ, STUD8, STUD]


def test_mix_counts_hands_within_the_current_game() -> None:
    rotation = next_hand(GameMode.MIX, DEFAULT_ROTATION, 8, None).rotation
    assert rotation == Rotation(STUD, 1)
    rotation = next_hand(GameMode.MIX, DEFAULT_ROTATION, 8, Rotation(STUD, 7)).rotation
    assert rotation == Rotation(STUD, 8)
    assert next_hand(GameMode.MIX, DEFAULT_ROTATION, 8, Rotation(STUD, 8)).rotation == Rotation(
        RAZZ, 1
    )


def test_mix_with_a_game_no_longer_in_the_list_restarts_at_its_first() -> None:
    nxt = next_hand(GameMode.MIX, (STUD8, STUD), 4, Rotation(RAZZ, 2))
    assert (nxt.game, nxt.rotation) == (STUD8, Rotation(STUD8, 1))


@pytest.mark.parametrize("mode", [GameMode.STUD, GameMode.STUD8, GameMode.RAZZ])
def test_a_fixed_game_is_always_that_game(mode: GameMode) -> None:
    assert deal(mode, DEFAULT_ROTATION, 1, 5) == [Variant(mode.value)] * 5
    assert upcoming(mode, DEFAULT_ROTATION, 1, None) is None
    assert not choice_due(mode, DEFAULT_ROTATION, 1, Rotation(STUD))


def test_choice_is_due_first_and_after_each_stint_of_n_hands() -> None:
    games, n = DEFAULT_ROTATION, 3
    assert choice_due(GameMode.CHOICE, games, n, Rotation(STUD))  # nobody picked yet
    rotation = chosen(RAZZ, Rotation(STUD), STUD)
    assert rotation == Rotation(RAZZ, 0, True)
    for k in range(n):
        assert not choice_due(GameMode.CHOICE, games, n, rotation)
        nxt = next_hand(GameMode.CHOICE, games, n, rotation)
        assert nxt.game is RAZZ
        rotation = nxt.rotation
        assert rotation.hands_played == k + 1
    assert choice_due(GameMode.CHOICE, games, n, rotation)


def test_choice_timeout_keeps_the_game_for_a_new_stint() -> None:
    rotation = chosen(None, Rotation(STUD8, 4, True), STUD)
    assert rotation == Rotation(STUD8, 0, True)
    assert not choice_due(GameMode.CHOICE, DEFAULT_ROTATION, 4, rotation)
    assert next_hand(GameMode.CHOICE, DEFAULT_ROTATION, 4, rotation).game is STUD8


def test_choice_with_one_game_never_asks() -> None:
    assert not choice_due(GameMode.CHOICE, (RAZZ, RAZZ), 1, Rotation(RAZZ))


def test_upcoming_says_the_game_hand_k_of_n_and_what_follows() -> None:
    up = upcoming(GameMode.MIX, DEFAULT_ROTATION, 8, Rotation(RAZZ, 3))
    assert up is not None and (up.game, up.hand, up.of, up.then) == (RAZZ, 3, 8, STUD8)
    up = upcoming(GameMode.MIX, DEFAULT_ROTATION, 8, Rotation(STUD8, 8))
    assert up is not None and up.then is STUD  # wraps
    up = upcoming(GameMode.MIX, DEFAULT_ROTATION, 8, None)
    assert up is not None and (up.game, up.hand) == (STUD, 0)
    up = upcoming(GameMode.CHOICE, DEFAULT_ROTATION, 8, Rotation(RAZZ, 2, True))
    assert up is not None and (up.game, up.hand, up.then) == (RAZZ, 2, None)


def test_parse_games_reads_lists_and_names_what_is_allowed() -> None:
    assert parse_games("stud, razz stud8") == (STUD, RAZZ, STUD8)
    assert parse_games(["RAZZ", STUD]) == (RAZZ, STUD)
    with pytest.raises(ValueError, match="empty"):
        parse_games(" , ")
    with pytest.raises(ValueError, match=r"unknown game 'omaha'.*'stud', 'stud8', 'razz'"):
        parse_games("stud omaha")
    with pytest.raises(ValueError, match=r"each game once.*razz"):
        parse_games("razz stud razz")
