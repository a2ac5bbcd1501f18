"""Places through real hands with rigged decks (the service's own shuffle hands out a deck
found by playing it through the engine first): a double bust ranked by the stacks the two
had when the hand began, and a double bust of equal stacks sharing paid places (the prizes
added and split, the odd chip to the earlier seat from the button). Five entrants: the pool
of 500 pays 325 and 175 (65/35)."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable, Sequence
from pathlib import Path

import pytest

from dealerbot.engine import ActionKind, Stakes, Variant, next_button
from dealerbot.tables import events as ev
from dealerbot.tournament import seat_order

from .helpers import CHANNEL, GUILD, Harness
from .tournament_helpers import RiggedRandom, deck_for, fold, info, rigged_harness, shove

USERS = (11, 12, 13, 14, 15)
STAKES = Stakes.of(25, 5, 10)  # level 1: nothing here lasts five minutes


@pytest.fixture
async def rigged(db_url: str, tmp_path: Path) -> AsyncIterator[tuple[Harness, RiggedRandom]]:
    h, rng = await rigged_harness(db_url)
    try:
        yield h, rng
    finally:
        await h.close()


async def seats_of(h: Harness) -> dict[int, int]:
    """user -> seat of the players still in."""
    return {e.user_id: e.seat for e in (await info(h)).entries if e.place is None}  # type: ignore[misc]


async def stacks_by_seat(h: Harness) -> dict[int, int]:
    return {
        e.seat: e.stack for e in (await info(h)).entries if e.place is None and e.seat is not None
    }


async def play_rigged(
    h: Harness,
    rng: RiggedRandom,
    button: int,
    plays: Callable[[int], Callable[[Sequence[ActionKind]], ActionKind]],
    want: Callable[[dict[int, int]], bool],
    seed: int,
) -> ev.HandEnded:
    """Deal the next hand from a deck where ``plays`` (seat -> policy) ends as ``want``
    says, and play it by the same policies."""
    stacks = await stacks_by_seat(h)
    deck = deck_for(
        Variant.STUD, STAKES, stacks, button, lambda seat, kinds: plays(seat)(kinds), want, seed
    )
    rng.decks.append(deck)
    ended = len(h.recorder.of(ev.HandEnded))
    await h.advance(6)
    started = h.recorder.of(ev.HandStarted)[-1]
    assert started.button_seat == button
    seat_of = {p.user_id: p.seat for p in started.players}
    while len(h.recorder.of(ev.HandEnded)) == ended:
        turn = h.recorder.last_turn()
        assert turn is not None
        kind = plays(seat_of[turn.user_id])([o.kind for o in turn.options])
        await h.service.act(GUILD, CHANNEL, turn.user_id, turn.hand_id, turn.seq, kind)
    await h.audit_ok()
    return h.recorder.of(ev.HandEnded)[-1]


async def start_five(h: Harness) -> dict[int, int]:
    await h.service.tournaments.create(
        GUILD, CHANNEL, 1, seats=5, starting_chips=100, turn_seconds=300
    )
    for user in USERS:
        await h.service.tournaments.register(GUILD, CHANNEL, user, f"p{user}")
    return await seats_of(h)


async def test_a_double_bust_is_ranked_by_the_stacks_at_the_start_of_the_hand(
    rigged: tuple[Harness, RiggedRandom],
) -> None:
    h, rng = rigged
    seat = await start_five(h)
    a, b, c, d, e = (seat[u] for u in USERS)
    first_button = next_button(None, sorted(seat.values()))

    def hand1(s: int) -> Callable[[Sequence[ActionKind]], ActionKind]:
        return shove if s in (a, d, e) else fold

    # a takes d's and e's chips; b and c fold early, one of them losing more (a bring-in).
    await play_rigged(
        h, rng, first_button, hand1,
        lambda f: f[d] == 0 and f[e] == 0 and 0 < f[b] != f[c] > 0, seed=1,
    )  # fmt: skip
    view = await info(h)
    tied = sorted((x for x in view.entries if x.seat in (d, e)), key=lambda x: x.place or 0)
    assert [x.place for x in tied] == [4, 5]
    assert all(x.shares == (4, 5) and x.prize == 0 for x in tied)  # equal stacks: tied, unpaid
    start = await stacks_by_seat(h)
    bigger, smaller = (b, c) if start[b] > start[c] else (c, b)

    def hand2(s: int) -> Callable[[Sequence[ActionKind]], ActionKind]:
        return shove

    button = next_button(first_button, sorted(start))
    await play_rigged(h, rng, button, hand2, lambda f: f[b] == 0 and f[c] == 0, seed=2)
    view = await info(h)
    by_seat = {x.seat: x for x in view.entries}
    assert (by_seat[bigger].place, by_seat[bigger].shares) == (2, (2,))  # more chips: 2nd
    assert (by_seat[smaller].place, by_seat[smaller].shares) == (3, (3,))
    assert by_seat[a].place == 1
    assert (by_seat[a].prize, by_seat[bigger].prize, by_seat[smaller].prize) == (325, 175, 0)
    texts = [f.text for f in h.recorder.of(ev.PlayerFinished)]
    assert f"{by_seat[smaller].name} finishes 3rd" in texts
    assert f"{by_seat[bigger].name} finishes 2nd and wins 175 chips" in texts


async def test_equal_stacks_busted_together_share_their_places_prizes(
    rigged: tuple[Harness, RiggedRandom],
) -> None:
    h, rng = rigged
    seat = await start_five(h)
    a, b, c, d, e = (seat[u] for u in USERS)
    first_button = next_button(None, sorted(seat.values()))

    def hand1(s: int) -> Callable[[Sequence[ActionKind]], ActionKind]:
        return shove if s in (a, d, e) else fold

    await play_rigged(
        h, rng, first_button, hand1,
        lambda f: f[d] == 0 and f[e] == 0 and f[b] == f[c] > 0, seed=3,
    )  # fmt: skip
    start = await stacks_by_seat(h)
    assert start[b] == start[c]
    button = next_button(first_button, sorted(start))
    await play_rigged(h, rng, button, lambda s: shove, lambda f: f[b] == 0 and f[c] == 0, seed=4)
    view = await info(h)
    by_seat = {x.seat: x for x in view.entries}
    assert by_seat[b].shares == by_seat[c].shares == (2, 3)
    earlier, later = sorted((b, c), key=lambda s: seat_order(s, button))
    assert (by_seat[earlier].place, by_seat[later].place) == (2, 3)
    assert (by_seat[earlier].prize, by_seat[later].prize) == (88, 87)  # 175 split, odd chip
    assert sum(x.prize for x in view.entries) == 500 and view.pool == 0
    rows = await h.fetch(
        "SELECT user_id, delta FROM ledger WHERE reason = 'prize' AND account = 'wallet'"
    )
    assert sorted(delta for _, delta in rows) == [87, 88, 325]
    await h.audit_ok()
