"""Busts and places (issue 18): the place is the number of players left before the bust;
busts of one hand rank by their stacks at its start; equal stacks share their places'
prizes, odd chips from the earlier seat from the button; the last player left is 1st."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from dealerbot.tournament import (
    Finish,
    Stack,
    Standings,
    StandingsError,
    award,
    bust_places,
    payouts,
    prize_table,
    seat_order,
)


def places(finishes: tuple[Finish, ...]) -> dict[int, int]:
    return {f.player: f.place for f in finishes}


def test_a_bust_finishes_in_the_place_of_the_players_left() -> None:
    assert bust_places(8, [Stack(11, 3, 40)], button=0) == (Finish(11, 8, (8,)),)
    assert places(bust_places(3, [Stack(11, 3, 40)], button=0)) == {11: 3}


def test_a_double_bust_ranks_the_bigger_starting_stack_better() -> None:
    busts = [Stack(1, 2, 300), Stack(2, 4, 800)]
    assert places(bust_places(5, busts, button=0)) == {2: 4, 1: 5}


def test_a_triple_bust() -> None:
    busts = [Stack(1, 0, 200), Stack(2, 1, 1_000), Stack(3, 2, 500)]
    got = bust_places(6, busts, button=5)
    assert places(got) == {2: 4, 3: 5, 1: 6}
    assert all(len(f.shares) == 1 for f in got)


def test_equal_stacks_share_their_places_the_earlier_seat_from_the_button_first() -> None:
    """Button on seat 5: clockwise from its left the seats run 6, 7, 0, 1, 2 ... so seat 6
    comes before seat 2."""
    busts = [Stack(1, 2, 300), Stack(2, 6, 300)]
    got = bust_places(4, busts, button=5)
    assert got == (Finish(2, 3, (3, 4)), Finish(1, 4, (3, 4)))
    assert bust_places(4, busts, button=1) == (Finish(1, 3, (3, 4)), Finish(2, 4, (3, 4)))


def test_the_earlier_seat_from_the_button() -> None:
    assert sorted(range(8), key=lambda seat: seat_order(seat, 5)) == [6, 7, 0, 1, 2, 3, 4, 5]
    assert seat_order(0, 7) == 0 and seat_order(7, 7) == 7


def test_a_tie_group_among_other_busts() -> None:
    busts = [Stack(1, 0, 100), Stack(2, 1, 500), Stack(3, 2, 100), Stack(4, 3, 900)]
    got = {f.player: f for f in bust_places(6, busts, button=3)}
    assert (got[4].place, got[2].place) == (3, 4)
    assert (got[1].place, got[3].place, got[1].shares) == (5, 6, (5, 6))  # seat 0 before seat 2


def test_the_last_player_left_is_first() -> None:
    standings = Standings.start([10, 20, 30])
    standings = standings.after_hand([Stack(30, 2, 50)], button=0)
    assert standings.left == (10, 20) and not standings.over
    standings = standings.after_hand([Stack(10, 0, 2_000)], button=1)
    assert standings.over
    assert places(standings.finishes) == {30: 3, 10: 2, 20: 1}
    assert standings.place_of(20) == Finish(20, 1, (1,))


def test_a_double_bust_heads_up_is_impossible_and_one_at_three_ends_it() -> None:
    """Two busted in one hand of three leave a winner; the hand cannot bust everyone."""
    standings = Standings.start([1, 2, 3])
    done = standings.after_hand([Stack(1, 0, 500), Stack(2, 1, 500)], button=2)
    assert places(done.finishes) == {1: 2, 2: 3, 3: 1}
    assert done.finishes[0].shares == (2, 3)
    with pytest.raises(StandingsError, match="someone wins the hand's chips"):
        standings.after_hand([Stack(1, 0, 5), Stack(2, 1, 5), Stack(3, 2, 5)], button=2)


@pytest.mark.parametrize(
    ("busts", "text"),
    [
        ([Stack(9, 0, 5)], "not in the tournament any more: \\[9\\]"),
        ([Stack(1, 0, 0)], "player 1 needs chips"),
        ([Stack(1, 0, 5), Stack(1, 1, 5)], "a player appears twice"),
        ([Stack(1, 0, 5), Stack(2, 0, 5)], "two players in one seat"),
        ([Stack(1, 8, 5)], "seats are 0 to 7"),
    ],
)
def test_wrong_busts_are_refused_and_change_nothing(busts: list[Stack], text: str) -> None:
    standings = Standings.start([1, 2, 3, 4])
    with pytest.raises(StandingsError, match=text):
        standings.after_hand(busts, button=3)
    assert standings == Standings.start([1, 2, 3, 4])


def test_no_bust_after_the_end_and_none_twice() -> None:
    standings = Standings.start([1, 2]).after_hand([Stack(1, 0, 10)], button=1)
    with pytest.raises(StandingsError, match="the tournament is over"):
        standings.after_hand([Stack(2, 1, 10)], button=1)
    three = Standings.start([1, 2, 3]).after_hand([Stack(1, 0, 10)], button=1)
    with pytest.raises(StandingsError, match="not in the tournament any more"):
        three.after_hand([Stack(1, 0, 10)], button=1)
    with pytest.raises(StandingsError, match="a player can enter a tournament once"):
        Standings.start([1, 1])
    with pytest.raises(StandingsError, match="2 or more players"):
        Standings.start([1])


def test_tied_places_add_their_prizes_and_split_them() -> None:
    """7 entrants at 101: 354 / 212 / 141 (707, the odd chip to 1st). Three bust together
    with equal stacks at four left: places 2-4 share 212 + 141 + 0 = 353, 118 / 118 / 117,
    the odd chips one each from the earlier seat from the button: button on seat 1,
    seat 2 (player 3) first, then seat 0 (player 1), then the button's own seat (player 2)."""
    prizes = prize_table(7 * 101, 7)
    assert prizes == (354, 212, 141)
    standings = Standings.start(range(1, 8))
    for player in (7, 6, 5):
        standings = standings.after_hand([Stack(player, player - 1, 10)], button=0)
    busts = [Stack(1, 0, 400), Stack(2, 1, 400), Stack(3, 2, 400)]
    standings = standings.after_hand(busts, button=1)
    paid = payouts(standings.finishes, 7 * 101, 7)
    assert paid == {4: 354, 3: 118, 1: 118, 2: 117, 5: 0, 6: 0, 7: 0}
    assert sum(paid.values()) == 707


def test_a_tie_across_the_money_shares_the_paid_place() -> None:
    """Two tie for 3rd and 4th of 7: 3rd's 20% is split; 4th pays nothing."""
    finishes = [
        Finish(1, 1, (1,)),
        Finish(2, 2, (2,)),
        Finish(3, 3, (3, 4)),
        Finish(4, 4, (3, 4)),
    ]
    assert award(finishes, (50, 30, 21)) == {1: 50, 2: 30, 3: 11, 4: 10}


def test_award_refuses_a_tie_group_that_does_not_hold_its_places() -> None:
    with pytest.raises(StandingsError, match="shared but held by 1 players"):
        award([Finish(1, 1, (1, 2))], (10,))


@st.composite
def tournaments(draw: st.DrawFn) -> tuple[int, Standings, list[tuple[list[Stack], int]]]:
    """A field of 2-8 and hands that bust some (never all) of the players left, with stacks
    from a small set so that ties happen."""
    entrants = draw(st.integers(2, 8))
    seat_of = dict(zip(range(100, 100 + entrants), draw(st.permutations(range(8))), strict=False))
    standings = Standings.start(list(seat_of))
    hands = []
    while not standings.over:
        left = list(standings.left)
        out = draw(st.lists(st.sampled_from(left), min_size=1, max_size=len(left) - 1, unique=True))
        busts = [Stack(p, seat_of[p], draw(st.sampled_from([100, 200, 300]))) for p in out]
        button = seat_of[draw(st.sampled_from(left))]
        hands.append((busts, button))
        standings = standings.after_hand(busts, button)
    return entrants, standings, hands


@given(tournaments(), st.integers(1, 100_000))
def test_places_are_1_to_n_and_the_prizes_are_the_pool(
    game: tuple[int, Standings, list[tuple[list[Stack], int]]], buy_in: int
) -> None:
    entrants, standings, hands = game
    assert sorted(f.place for f in standings.finishes) == list(range(1, entrants + 1))
    pool = entrants * buy_in
    paid = payouts(standings.finishes, pool, entrants)
    assert sum(paid.values()) == pool
    place = {f.player: f.place for f in standings.finishes}
    for k, (busts, button) in enumerate(hands):
        for a in busts:
            for b in busts:  # a bigger starting stack finishes better; equal: the earlier seat
                key_a = (-a.chips, seat_order(a.seat, button))
                key_b = (-b.chips, seat_order(b.seat, button))
                assert (place[a.player] < place[b.player]) == (key_a < key_b)
            for later, _ in hands[k + 1 :]:  # a later bust finishes better
                assert all(place[c.player] < place[a.player] for c in later)
    groups: dict[tuple[int, ...], list[int]] = {}
    for f in standings.finishes:
        groups.setdefault(f.shares, []).append(paid[f.player])
    for members in groups.values():  # a tie group splits evenly, odd chips one each
        assert max(members) - min(members) <= 1
