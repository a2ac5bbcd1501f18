"""Busts and places: who finished where, and how tied places share their prizes.

A player out of chips finishes in the place equal to the number of players left before his
bust. Players busted in the same hand are ranked by their stacks at the start of that hand,
the bigger stack the better place. Equal stacks tie: each still gets a place of his own
(the earlier seat from the button the better one, so places stay 1..N), and the group
shares its places' prizes: added, split evenly in whole chips, each odd chip to a different
player from the earlier seat from the button on (as R11.1 gives odd chips of a pot). The
last player with chips is 1st; a hand cannot bust everyone (someone wins its pots).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from itertools import groupby

from .errors import StandingsError
from .seats import Stack, check_players, check_stacks, seat_order


@dataclass(frozen=True, slots=True)
class Finish:
    """A player's place; ``shares``: the places his tie group shares (his own alone if none)."""

    player: int
    place: int
    shares: tuple[int, ...]


def bust_places(players_left: int, busts: Sequence[Stack], button: int) -> tuple[Finish, ...]:
    """The places of the players busted in one hand (``busts``: their stacks at its start),
    ``players_left`` being the players still in before it, the hand's button ``button``."""
    if not isinstance(players_left, int) or isinstance(players_left, bool) or players_left < 2:
        raise StandingsError(f"a hand needs 2 or more players left (got {players_left!r})")
    if not busts:
        return ()
    check_stacks(busts, button)
    if len(busts) >= players_left:
        raise StandingsError(
            f"{len(busts)} busts among {players_left} players: someone wins the hand's chips"
        )
    ranked = sorted(busts, key=lambda b: (-b.chips, seat_order(b.seat, button)))
    best = players_left - len(busts) + 1
    finishes: list[Finish] = []
    for _, tied in groupby(ranked, key=lambda b: b.chips):
        group = list(tied)
        first = best + len(finishes)
        shares = tuple(range(first, first + len(group)))
        pairs = zip(group, shares, strict=True)
        finishes.extend(Finish(b.player, place, shares) for b, place in pairs)
    return tuple(finishes)


@dataclass(frozen=True, slots=True)
class Standings:
    """The field and the finishes so far; :meth:`after_hand` returns the next standings."""

    entrants: tuple[int, ...]
    finishes: tuple[Finish, ...] = ()

    def __post_init__(self) -> None:
        check_players(self.entrants)

    @classmethod
    def start(cls, entrants: Sequence[int]) -> Standings:
        return cls(tuple(entrants))

    @property
    def left(self) -> tuple[int, ...]:
        """Players still in, in entry order."""
        out = {f.player for f in self.finishes}
        return tuple(p for p in self.entrants if p not in out)

    @property
    def over(self) -> bool:
        return len(self.finishes) == len(self.entrants)

    def after_hand(self, busts: Sequence[Stack], button: int) -> Standings:
        """The standings once the players in ``busts`` (stacks at the hand's start) are out;
        the last one left is 1st."""
        if self.over:
            raise StandingsError("the tournament is over")
        left = self.left
        strangers = [b.player for b in busts if b.player not in left]
        if strangers:
            raise StandingsError(f"not in the tournament any more: {strangers}")
        new = bust_places(len(left), busts, button)
        finishes = (*self.finishes, *new)
        if len(left) - len(new) == 1:
            (winner,) = (p for p in left if p not in {f.player for f in new})
            finishes = (*finishes, Finish(winner, 1, (1,)))
        return replace(self, finishes=finishes)

    def place_of(self, player: int) -> Finish | None:
        return next((f for f in self.finishes if f.player == player), None)


def award(finishes: Iterable[Finish], prizes: Sequence[int]) -> dict[int, int]:
    """Each finisher's prize, ``prizes[k]`` being the prize of place k + 1 (places past the
    table pay nothing); a tie group splits its places' prizes (see the module's note)."""
    ordered = sorted(finishes, key=lambda f: f.place)
    paid: dict[int, int] = {}
    for shares, tied in groupby(ordered, key=lambda f: f.shares):
        group = list(tied)
        if tuple(f.place for f in group) != shares:
            raise StandingsError(f"places {shares} are shared but held by {len(group)} players")
        total = sum(prizes[p - 1] for p in shares if p <= len(prizes))
        each, odd = divmod(total, len(group))
        for k, finish in enumerate(group):  # in place order: the earlier seat first
            paid[finish.player] = each + (1 if k < odd else 0)
    return paid
