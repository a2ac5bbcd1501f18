"""The seat draw (issue 18): random seats from an injected source, and the first button as
R13.1's engine function gives it for a first hand (the highest seat taken)."""

from __future__ import annotations

import random
from typing import Any

import pytest

from dealerbot.engine import next_button
from dealerbot.tournament import StandingsError, draw_seats


class Reverse:
    """A source whose 'shuffle' reverses: the draw's result is then known in advance."""

    def shuffle(self, x: list[Any]) -> None:
        x.reverse()


def test_the_draw_uses_the_source_it_is_given() -> None:
    draw = draw_seats([11, 22, 33], seats=6, rng=Reverse())
    assert draw.seat_of == {11: 5, 22: 4, 33: 3}
    assert draw.button == 5  # R13.1 for a first hand: the highest seat taken


@pytest.mark.parametrize("seed", range(20))
def test_every_player_gets_his_own_seat_at_the_table(seed: int) -> None:
    players = list(range(1, 1 + 2 + seed % 7))
    seats = max(len(players), 2 + seed % 7)
    draw = draw_seats(players, seats, random.Random(seed))
    assert sorted(draw.seat_of) == players
    assert len(set(draw.seat_of.values())) == len(players)
    assert all(0 <= seat < seats for seat in draw.seat_of.values())
    assert draw.button == next_button(None, list(draw.seat_of.values()))
    assert draw.button == max(draw.seat_of.values())


def test_every_arrangement_can_be_drawn() -> None:
    seen = {
        tuple(draw_seats([1, 2, 3], 3, random.Random(seed)).seat_of.values()) for seed in range(200)
    }
    assert len(seen) == 6


@pytest.mark.parametrize(
    ("players", "seats", "text"),
    [
        ([1, 2, 3], 2, "3 players do not fit at 2 seats"),
        ([1], 8, "2 or more players"),
        ([1, 1], 8, "a player can enter a tournament once"),
        ([1, 2], 9, "a table has 2 to 8 seats"),
        ([1, 2], 1, "a table has 2 to 8 seats"),
        ([1, True], 8, "whole-number ids"),
    ],
)
def test_a_wrong_draw_is_refused(players: list[int], seats: int, text: str) -> None:
    with pytest.raises(StandingsError, match=text):
        draw_seats(players, seats, Reverse())
