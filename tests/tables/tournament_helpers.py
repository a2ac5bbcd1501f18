"""Helpers for the Sit & Go tests: a service whose deck can be rigged, a driver that plays a
tournament's turns by a policy, and a deck search that makes a chosen hand come true.

A rigged deck goes through the service's own path: the service shuffles with the injected
random source (``RiggedRandom``), which hands out the queued deck instead of shuffling one;
the seat draw and the salts still draw on it as always. ``deck_for`` finds such a deck by
playing candidate decks through the engine with the same policy the test then plays.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from dealerbot.engine import (
    Action,
    ActionKind,
    Card,
    SeatSpec,
    Stakes,
    Variant,
    apply,
    legal_actions,
    new_deck,
    start_hand,
)
from dealerbot.store.opening import open_database
from dealerbot.tables import events as ev
from dealerbot.tables.service import TableService
from dealerbot.tables.timers import FakeClock
from dealerbot.tables.views import TournamentView

from .helpers import CHANNEL, GUILD, Harness, Recorder

Policy = Callable[[int, Sequence[ActionKind]], ActionKind]  # (seat, options) -> the action


class RiggedRandom(random.Random):
    """A seeded source whose next shuffles of a whole deck deal the queued decks."""

    def __init__(self, seed: int) -> None:
        super().__init__(seed)
        self.decks: list[list[Card]] = []

    def shuffle(self, x: list[Any]) -> None:  # type: ignore[override]
        if len(x) == 52 and self.decks:
            x[:] = self.decks.pop(0)
            return
        super().shuffle(x)


async def rigged_harness(where: Path | str, seed: int = 1) -> tuple[Harness, RiggedRandom]:
    """A started service (as tests/tables/helpers.make_harness) with a rigged source."""
    path = where / "t.sqlite3" if isinstance(where, Path) else where
    clock = FakeClock()
    db = await open_database(path, clock=clock.now)
    rng = RiggedRandom(seed)
    service = TableService(db, clock=clock, rng=rng)
    recorder = Recorder()
    service.subscribe(recorder)
    await service.startup()
    return Harness(path, db, clock, service, recorder), rng


def passive(kinds: Sequence[ActionKind]) -> ActionKind:
    """Check, else call, else the forced bring-in."""
    for kind in (ActionKind.CHECK, ActionKind.CALL, ActionKind.BRING_IN):
        if kind in kinds:
            return kind
    return kinds[0]


def fold(kinds: Sequence[ActionKind]) -> ActionKind:
    """Fold when he may, else check, else the forced bring-in."""
    for kind in (ActionKind.FOLD, ActionKind.CHECK):
        if kind in kinds:
            return kind
    return kinds[0]


def shove(kinds: Sequence[ActionKind]) -> ActionKind:
    """Always the biggest wager on offer, else call (chips go in fast)."""
    for kind in (
        ActionKind.RAISE_BIG,
        ActionKind.BET_BIG,
        ActionKind.RAISE,
        ActionKind.BET,
        ActionKind.COMPLETE,
        ActionKind.CALL,
        ActionKind.CHECK,
    ):
        if kind in kinds:
            return kind
    return kinds[0]


def deck_for(
    variant: Variant,
    stakes: Stakes,
    stacks: dict[int, int],
    button: int,
    policy: Policy,
    want: Callable[[dict[int, int]], bool],
    seed: int = 0,
    tries: int = 20_000,
) -> list[Card]:
    """A deck whose hand, played by ``policy`` (each seat's), ends with final stacks
    (seat -> chips) that ``want`` accepts."""
    rng = random.Random(seed)
    seats = [SeatSpec(seat, chips) for seat, chips in sorted(stacks.items())]
    for _ in range(tries):
        deck = new_deck()
        rng.shuffle(deck)
        state, _ = start_hand(variant, stakes, seats, tuple(deck), button)
        while not state.is_over:
            seat = state.seat_to_act
            assert seat is not None
            kinds = [o.kind for o in legal_actions(state).options]
            state, _ = apply(state, Action(seat, policy(seat, kinds)))
        assert state.result is not None
        if not state.result.cancelled and want(dict(state.result.final_stacks)):
            return deck
    raise AssertionError("no deck gives that hand")


async def play_turns(
    h: Harness,
    policy: Callable[[ev.Turn], ActionKind],
    *,
    until: Callable[[], bool],
    step: float = 6.0,
    limit: int = 3000,
    after_each: Callable[[], Any] | None = None,
) -> None:
    """Answer every turn by ``policy`` (time moving on between hands) until ``until()``."""
    for _ in range(limit):
        if until():
            return
        turn = h.recorder.last_turn()
        if turn is None:
            await h.advance(step)
            continue
        await h.service.act(GUILD, CHANNEL, turn.user_id, turn.hand_id, turn.seq, policy(turn))
        if after_each is not None:
            await after_each()
    raise AssertionError("the tournament did not get there")


async def info(h: Harness) -> TournamentView:
    return await h.service.tournaments.info(GUILD, CHANNEL)


async def pool_rows(h: Harness, tournament_id: int) -> list[tuple[Any, ...]]:
    return await h.fetch(
        "SELECT user_id, account, reason, delta FROM ledger WHERE tournament_id = ? ORDER BY id",
        (tournament_id,),
    )
