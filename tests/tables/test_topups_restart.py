"""Queued top-ups survive a restart (issue 8, follow-up P7b): chips added during a hand are
shown on the seat and kept as a row; after a restart they still join the stack before the
next deal, with their ledger row, and a closing table or a leaver drops them unmoved."""

from __future__ import annotations

from dealerbot.store import tables as tables_db
from dealerbot.store import topups as topups_db
from dealerbot.tables import events as ev

from .helpers import CHANNEL, GUILD, passive, play_hand, seat_players


async def queued_rows(h) -> list[tuple]:
    return await h.fetch("SELECT user_id, amount FROM queued_topups ORDER BY user_id")


async def top_up_ledger_rows(h, user_id: int) -> int:
    rows = await h.fetch(
        "SELECT COUNT(*) FROM ledger WHERE user_id = ? AND account = 'wallet'"
        " AND note LIKE 'added chips%'",
        (user_id,),
    )
    return int(rows[0][0])


async def test_a_top_up_queued_before_a_restart_joins_the_stack_before_the_next_deal(harness):
    h = harness
    s = h.service
    await seat_players(s, [1, 2, 3], buy_in=200)
    await s.start(GUILD, CHANNEL)
    await s.add_chips(GUILD, CHANNEL, 1, 60)
    await s.add_chips(GUILD, CHANNEL, 1, 40)  # one queued total: 100
    queued = (await s.table_view(GUILD, CHANNEL)).seat_of(1)
    assert queued is not None and queued.queued == 100  # the table shows it
    assert (await s.table_view(GUILD, CHANNEL)).seat_of(2).queued == 0
    wallet = (await s.balance(GUILD, 1)).chips
    ledger = await top_up_ledger_rows(h, 1)
    assert await queued_rows(h) == [(1, 100)]

    await h.restart()
    seat = (await h.service.table_view(GUILD, CHANNEL)).seat_of(1)
    assert seat is not None and seat.queued == 100  # still shown after the restart
    assert (await h.service.balance(GUILD, 1)).chips == wallet  # nothing moved yet
    ended = await play_hand(h, passive)
    view = await h.service.table_view(GUILD, CHANNEL)
    seat = view.seat_of(1)
    assert seat is not None and seat.stack == dict(ended.final_stacks)[seat.seat] + 100
    assert seat.queued == 0 and await queued_rows(h) == []
    assert (await h.service.balance(GUILD, 1)).chips == wallet - 100
    assert await top_up_ledger_rows(h, 1) == ledger + 1  # its ledger row, exactly one
    starts = len(h.recorder.of(ev.HandStarted))
    await h.advance(60)  # the next deal, with the topped-up stack
    assert len(h.recorder.of(ev.HandStarted)) == starts + 1
    await h.audit_ok()


async def test_a_queue_left_between_hands_is_applied_as_the_table_loads(harness):
    """A crash after the hand settled but before its top-ups moved: the row is still there
    and the restarted table applies it before it schedules a deal."""
    h = harness
    await seat_players(h.service, [1, 2], buy_in=200)
    record = await tables_db.find_table(h.db, GUILD, CHANNEL)
    assert record is not None
    await topups_db.set_queued_top_up(h.db, record.id, 2, 150)
    wallet = (await h.service.balance(GUILD, 2)).chips
    await h.restart()
    seat = (await h.service.table_view(GUILD, CHANNEL)).seat_of(2)
    assert seat is not None and (seat.stack, seat.queued) == (350, 0)
    assert (await h.service.balance(GUILD, 2)).chips == wallet - 150
    assert await queued_rows(h) == [] and await top_up_ledger_rows(h, 2) == 1
    await h.restart()  # applied once only
    seat = (await h.service.table_view(GUILD, CHANNEL)).seat_of(2)
    assert seat is not None and seat.stack == 350
    await h.audit_ok()


async def test_a_leaver_and_a_closing_table_drop_the_queue_unmoved(harness):
    h = harness
    s = h.service
    await seat_players(s, [1, 2, 3], buy_in=200)
    await s.start(GUILD, CHANNEL)
    wallets = {user: (await s.balance(GUILD, user)).chips for user in (1, 2)}
    await s.add_chips(GUILD, CHANNEL, 1, 100)
    await s.add_chips(GUILD, CHANNEL, 2, 100)
    await s.leave(GUILD, CHANNEL, 2)
    assert await s.close_table(GUILD, CHANNEL) is False  # closes after this hand
    await h.restart()
    await play_hand(h, passive)
    assert h.recorder.of(ev.TableClosed)
    assert await queued_rows(h) == []
    assert await top_up_ledger_rows(h, 1) == 0 and await top_up_ledger_rows(h, 2) == 0
    for user, before in wallets.items():  # all his chips are back: nothing was added
        left = [e for e in h.recorder.of(ev.PlayerLeft) if e.user_id == user]
        assert left and (await h.service.balance(GUILD, user)).chips == before + left[-1].cashed_out
    await h.audit_ok()
