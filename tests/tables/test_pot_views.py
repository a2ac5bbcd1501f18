"""Pots as PokerStars shows them (issue 22, item 3): the view's main and side pots."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from dealerbot.tables import PotView
from dealerbot.tables.projection import pot_views


def state(committed: list[int], bets: list[int], stacks: list[int], folded: list[bool]) -> Any:
    """The public fields of an engine state that the pots are made of."""
    labels = tuple(range(10, 10 + len(committed)))
    return SimpleNamespace(
        labels=labels, committed=committed, street_bets=bets, stacks=stacks, folded=folded
    )


def test_a_player_all_in_makes_a_main_pot_for_all_and_a_side_pot_without_him() -> None:
    pots = pot_views(state([100, 200, 200], [0, 0, 0], [0, 50, 50], [False] * 3))
    assert pots == (PotView(300, (10, 11, 12)), PotView(200, (11, 12)))


def test_this_streets_bets_join_the_pots_when_the_street_ends() -> None:
    pots = pot_views(state([100, 240, 240], [0, 40, 40], [0, 10, 10], [False] * 3))
    assert pots == (PotView(300, (10, 11, 12)), PotView(200, (11, 12)))
    # All-in on this street: one pot until the street's bets are gathered.
    assert pot_views(state([100, 100, 100], [60, 60, 60], [0, 50, 50], [False] * 3)) == ()


def test_one_pot_while_nobody_in_the_hand_is_all_in() -> None:
    assert pot_views(state([100, 200, 200], [0, 0, 0], [5, 50, 50], [False] * 3)) == ()
    folded_broke = pot_views(state([100, 200, 200], [0, 0, 0], [0, 50, 50], [True, False, False]))
    assert folded_broke == ()  # a folded player's chips stay in, he is in no pot


def test_a_folded_players_chips_stay_in_the_pots_he_reached() -> None:
    pots = pot_views(
        state([50, 100, 200, 200], [0, 0, 0, 0], [0, 0, 9, 9], [False, True] + [False] * 2)
    )
    assert pots == (PotView(200, (10, 12, 13)), PotView(350, (12, 13)))
