"""Whole hands through the service: events, private cards, settlement, ledger, button."""

from __future__ import annotations

from dealerbot.engine import ActionKind, Variant
from dealerbot.fairness import SCHEME
from dealerbot.store import ledger as ledger_db
from dealerbot.store import wallets as wallets_db
from dealerbot.tables import events as ev

from .helpers import CHANNEL, GUILD, passive, play_hand, seat_players


async def test_a_full_hand_to_showdown(harness):
    h = harness
    s = h.service
    await seat_players(s, [1, 2], buy_in=200)
    assert not h.recorder.of(ev.HandStarted)
    await h.advance(5)  # the between-hands delay starts the first hand
    (started,) = h.recorder.of(ev.HandStarted)
    assert started.number == 1 and len(started.commitment) == 64

    # During the hand each player sees his own down cards, and only he gets them.
    private = h.recorder.of(ev.PrivateCards)
    assert {p.user_id for p in private} == {1, 2}
    for p in private:
        assert p.street == 3 and len(p.cards) == 3 and len(p.down_cards) == 2
        mine = await s.my_cards(GUILD, CHANNEL, p.user_id)
        assert mine.down_cards == p.down_cards
        table_seat = mine.table.seat_of(p.user_id)
        assert table_seat is not None
        assert table_seat.cards == (None, None, p.cards[2])

    ended = await play_hand(h, passive)
    assert ended.hand_id == started.hand_id and not ended.cancelled
    assert sum(delta for _, delta in ended.results) == 0

    sevens = [p for p in h.recorder.of(ev.PrivateCards) if p.street == 7]
    assert {p.user_id: len(p.cards) for p in sevens} == {1: 7, 2: 7}
    (showdown,) = h.recorder.of(ev.Showdown)
    assert {shown.user_id for shown in showdown.shown} == {1, 2}
    for shown in showdown.shown:
        (seven,) = [p for p in sevens if p.user_id == shown.user_id]
        assert shown.cards == seven.cards
    assert sum(pot.amount for pot in showdown.pots) == sum(
        chips for pot in showdown.pots for _, chips in pot.shares
    )
    # The end event tells the whole story by itself (the bot keeps no per-hand fold).
    assert (ended.number, ended.commitment) == (started.number, started.commitment)
    assert ended.variant is started.variant is Variant.STUD
    assert ended.players == started.players and ended.showdown == showdown

    # Settled: the view, the wallets, the ledger and the log agree.
    view = await s.table_view(GUILD, CHANNEL)
    assert ended.last_actions == view.last_actions and ended.last_actions
    deltas = dict(ended.results)
    for seat in view.seats:
        assert seat.stack == 200 + deltas[seat.user_id]
        wallet = await wallets_db.get_wallet(h.db, GUILD, seat.user_id)
        assert wallet.table_chips == seat.stack and wallet.chips == 800
    rows = await ledger_db.entries_for_hand(h.db, started.hand_id)
    assert sum(r.delta for r in rows) == 0
    assert {r.user_id: r.delta for r in rows if r.delta} == {u: d for u, d in deltas.items() if d}
    # The commitment shown is dealerbot-merkle-v1's root; its proofs check (test_proofs.py).
    proof = await s.proofs.verify(GUILD, 1, started.hand_id)
    assert proof.scheme == SCHEME and proof.commitment == started.commitment and proof.verified
    await h.audit_ok()


async def test_next_hand_starts_by_itself_and_on_demand(harness):
    h = harness
    s = h.service
    await seat_players(s, [1, 2, 3])
    view = await s.start(GUILD, CHANNEL)  # no need to wait for the delay
    assert view.status == "playing" and view.hand_number == 1
    await play_hand(h, passive)
    view = await s.table_view(GUILD, CHANNEL)
    assert view.status == "waiting" and view.next_hand_at is not None
    await h.advance(view.next_hand_at - h.clock.now())
    assert len(h.recorder.of(ev.HandStarted)) == 2
    await h.audit_ok()


async def test_r13_1_button_moves_clockwise_to_the_next_player_dealt_in(harness):
    h = harness
    s = h.service
    await seat_players(s, [1, 2, 3, 4])  # seats 0..3

    async def one_hand() -> int:
        await s.start(GUILD, CHANNEL)
        started = h.recorder.of(ev.HandStarted)[-1]
        await play_hand(h, _fold_fast)
        return started.button_seat

    buttons = [await one_hand(), await one_hand()]
    await s.sit_out(GUILD, CHANNEL, 1)  # seat 0 is not dealt in
    buttons.append(await one_hand())
    buttons.append(await one_hand())
    assert buttons == [3, 0, 1, 2]
    buttons.append(await one_hand())  # seat 0 still out: after seat 2 comes seat 3
    assert buttons[-1] == 3
    await h.audit_ok()


def _fold_fast(turn: ev.Turn) -> ActionKind:
    kinds = [o.kind for o in turn.options]
    if ActionKind.FOLD in kinds:
        return ActionKind.FOLD
    return passive(turn)


async def test_hand_result_ledger_rows_sum_to_zero_over_many_hands(harness):
    h = harness
    s = h.service
    await seat_players(s, [1, 2, 3], buy_in=300)
    for _ in range(10):
        if len([seat for seat in (await s.table_view(GUILD, CHANNEL)).seats if seat.stack]) < 2:
            break
        await s.start(GUILD, CHANNEL)
        ended = await play_hand(h)
        rows = await ledger_db.entries_for_hand(h.db, ended.hand_id)
        assert sum(r.reason.value == "hand_result" and r.delta for r in rows) == 0
        assert sum(d for _, d in ended.results) == 0
        await h.audit_ok()
