"""Queued top-ups at the edges (issue 23): one queued Rebuy per bust, a top-up that does
not follow a player who leaves, and a word to the player whenever one is dropped."""

from __future__ import annotations

import pytest

from dealerbot.engine.events import ActionKind
from dealerbot.store import tables as tables_db
from dealerbot.store import topups as topups_db
from dealerbot.tables import TableError
from dealerbot.tables import events as ev

from .helpers import CHANNEL, GUILD, Harness, passive, play_hand, seat_players, snapshot


def aggressive(turn: ev.Turn) -> ActionKind:
    kinds = [o.kind for o in turn.options]
    for kind in (ActionKind.RAISE, ActionKind.BET, ActionKind.COMPLETE, ActionKind.CALL):
        if kind in kinds:
            return kind
    return passive(turn)


async def bust_one(h: Harness) -> int:
    """Players 1 and 2 play hard until one of them has no chips; his user id."""
    s = h.service
    for _ in range(30):
        view = await s.table_view(GUILD, CHANNEL)
        broke = [seat.user_id for seat in view.seats if seat.stack == 0]
        if broke:
            return broke[0]
        await s.start(GUILD, CHANNEL)
        await play_hand(h, aggressive)
    raise AssertionError("nobody busted")


async def queued_rows(h: Harness) -> list[tuple]:
    return await h.fetch("SELECT user_id, amount FROM queued_topups ORDER BY user_id")


def dropped(h: Harness, user_id: int) -> list[ev.TopUpDropped]:
    return [e for e in h.recorder.of(ev.TopUpDropped) if e.user_id == user_id]


async def test_rebuy_twice_during_a_hand_queues_one_buy_in(harness: Harness) -> None:
    h, s = harness, harness.service
    await seat_players(s, [1, 2], buy_in=100)
    broke = await bust_one(h)
    await seat_players(s, [3])
    await s.start(GUILD, CHANNEL)  # the other two play; he waits for his rebuy
    view = await s.rebuy(GUILD, CHANNEL, broke)
    seat = view.table.seat_of(broke)
    assert seat is not None and (seat.stack, seat.queued) == (0, 100)
    before = await snapshot(h)
    with pytest.raises(TableError, match="Already queued: 100"):
        await s.rebuy(GUILD, CHANNEL, broke)
    assert await snapshot(h) == before  # the refusal changed nothing
    assert await queued_rows(h) == [(broke, 100)]
    wallet = (await s.balance(GUILD, broke)).chips
    await play_hand(h, passive)
    seat = (await s.table_view(GUILD, CHANNEL)).seat_of(broke)
    assert seat is not None and (seat.stack, seat.queued) == (100, 0)  # one buy-in
    assert (await s.balance(GUILD, broke)).chips == wallet - 100
    await h.audit_ok()


async def test_rebuy_is_for_a_busted_player_and_pressed_twice_between_hands_adds_once(
    harness: Harness,
) -> None:
    h, s = harness, harness.service
    await seat_players(s, [1, 2], buy_in=100)
    with pytest.raises(TableError, match="Rebuy is for a busted player"):
        await s.rebuy(GUILD, CHANNEL, 1)
    broke = await bust_one(h)
    view = await s.rebuy(GUILD, CHANNEL, broke)  # no hand: added at once
    seat = view.table.seat_of(broke)
    assert seat is not None and (seat.stack, seat.queued) == (100, 0)
    with pytest.raises(TableError, match="Rebuy is for a busted player"):
        await s.rebuy(GUILD, CHANNEL, broke)
    seat = (await s.table_view(GUILD, CHANNEL)).seat_of(broke)
    assert seat is not None and seat.stack == 100
    await h.audit_ok()


async def test_a_top_up_queued_then_left_does_not_land_on_the_next_seat(harness: Harness) -> None:
    h, s = harness, harness.service
    await seat_players(s, [1, 2], buy_in=200)
    await s.start(GUILD, CHANNEL)
    await seat_players(s, [3], buy_in=200)  # not dealt in: he leaves at once
    await s.add_chips(GUILD, CHANNEL, 3, 50)
    wallet = (await s.balance(GUILD, 3)).chips
    left = await s.leave(GUILD, CHANNEL, 3)
    assert left.left_now and left.cashed_out == 200 and left.dropped_top_up == 50
    assert await queued_rows(h) == []
    assert (await s.balance(GUILD, 3)).chips == wallet + 200
    await seat_players(s, [3], buy_in=100)  # back in the same hand
    await play_hand(h, passive)
    seat = (await s.table_view(GUILD, CHANNEL)).seat_of(3)
    assert seat is not None and (seat.stack, seat.queued) == (100, 0)
    assert (await s.balance(GUILD, 3)).chips == wallet + 200 - 100
    await h.audit_ok()


async def test_leaving_after_the_hand_drops_the_queued_top_up_at_once(harness: Harness) -> None:
    h, s = harness, harness.service
    await seat_players(s, [1, 2, 3], buy_in=200)
    await s.start(GUILD, CHANNEL)
    await s.add_chips(GUILD, CHANNEL, 2, 70)
    left = await s.leave(GUILD, CHANNEL, 2)  # dealt in: he leaves when the hand ends
    assert not left.left_now and left.dropped_top_up == 70
    assert await queued_rows(h) == []
    assert (await s.table_view(GUILD, CHANNEL)).seat_of(2).queued == 0  # type: ignore[union-attr]
    again = await s.leave(GUILD, CHANNEL, 2)
    assert again.dropped_top_up == 0
    await play_hand(h, passive)
    await h.audit_ok()


async def test_a_top_up_that_no_longer_fits_is_told_to_its_player(harness: Harness) -> None:
    h, s = harness, harness.service
    await seat_players(s, [1, 2], buy_in=200)
    await s.start(GUILD, CHANNEL)
    await s.add_chips(GUILD, CHANNEL, 1, 800)  # room for 800 now
    await s.add_chips(GUILD, CHANNEL, 2, 800)
    ended = await play_hand(h, aggressive)  # one of them wins: his stack grows past 200
    view = await s.table_view(GUILD, CHANNEL)
    final = dict(ended.final_stacks)
    [winner] = [seat for seat in view.seats if final[seat.seat] > 200]
    [loser] = [seat for seat in view.seats if seat is not winner]
    [told] = dropped(h, winner.user_id)
    room = 1000 - final[winner.seat]
    assert (told.queued, told.added, told.channel_id) == (800, room, CHANNEL)
    assert f"{800 - room:,}" in told.text and "wallet" in told.text
    assert winner.stack == 1000 and loser.stack == final[loser.seat] + 800
    assert dropped(h, loser.user_id) == []
    await h.audit_ok()


async def test_a_top_up_the_wallet_can_no_longer_pay_is_told_to_its_player(
    harness: Harness,
) -> None:
    h, s = harness, harness.service
    await seat_players(s, [1, 2], buy_in=200)
    await s.start(GUILD, CHANNEL)
    await s.add_chips(GUILD, CHANNEL, 1, 100)
    wallet = (await s.balance(GUILD, 1)).chips
    await s.join(GUILD, 999, 1, "player1", wallet)  # another table takes the wallet
    await play_hand(h, passive)
    [told] = dropped(h, 1)
    assert (told.queued, told.added) == (100, 0)
    assert "100" in told.text and "nothing left your wallet" in told.text.lower()
    seat = (await s.table_view(GUILD, CHANNEL)).seat_of(1)
    assert seat is not None and seat.queued == 0
    assert await queued_rows(h) == []
    await h.audit_ok()


async def test_a_closing_table_tells_who_had_a_top_up_queued(harness: Harness) -> None:
    h, s = harness, harness.service
    await seat_players(s, [1, 2], buy_in=200)
    await s.start(GUILD, CHANNEL)
    await s.add_chips(GUILD, CHANNEL, 1, 100)
    assert await s.close_table(GUILD, CHANNEL) is False  # after this hand
    await play_hand(h, passive)
    [told] = dropped(h, 1)
    assert (told.queued, told.added) == (100, 0) and "closes" in told.text
    assert dropped(h, 2) == []
    await h.audit_ok()


async def test_dropping_one_players_queued_top_up_keeps_the_others(harness: Harness) -> None:
    h = harness
    await seat_players(h.service, [1, 2], buy_in=200)
    record = await tables_db.find_table(h.db, GUILD, CHANNEL)
    assert record is not None
    await topups_db.set_queued_top_up(h.db, record.id, 1, 40)
    await topups_db.set_queued_top_up(h.db, record.id, 2, 150)
    await topups_db.drop_queued_top_up(h.db, record.id, 2)
    assert await queued_rows(h) == [(1, 40)]
    await topups_db.drop_queued_top_up(h.db, record.id, 2)  # nothing left to drop: no error
    assert await queued_rows(h) == [(1, 40)]


class Died(BaseException):
    """The process dies here: nothing after this point runs (no handler catches it)."""


async def test_a_crash_between_leaving_and_the_queue_drop_lands_no_top_up_later(
    harness: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    """He leaves with a top-up queued and the process dies right after the cash-out, before
    the service's own drop of the queue row; restarted in the middle of the hand, he sits
    down again: the old top-up must not land on his new seat (the cash-out took its row)."""
    h, s = harness, harness.service
    await seat_players(s, [1, 2], buy_in=200)
    await s.start(GUILD, CHANNEL)
    await seat_players(s, [3], buy_in=200)  # not dealt in: he leaves at once
    await s.add_chips(GUILD, CHANNEL, 3, 50)
    wallet = (await s.balance(GUILD, 3)).chips

    async def die(*_: object) -> None:
        raise Died

    monkeypatch.setattr(topups_db, "drop_queued_top_up", die)
    with pytest.raises(Died):
        await s.leave(GUILD, CHANNEL, 3)
    monkeypatch.undo()
    assert await queued_rows(h) == []  # gone with the cash-out's transaction
    await h.restart()  # the hand in progress is resumed
    s = h.service
    assert (await s.balance(GUILD, 3)).chips == wallet + 200
    await seat_players(s, [3], buy_in=100)  # back in the same hand
    await play_hand(h, passive)
    seat = (await s.table_view(GUILD, CHANNEL)).seat_of(3)
    assert seat is not None and (seat.stack, seat.queued) == (100, 0)
    assert (await s.balance(GUILD, 3)).chips == wallet + 200 - 100
    assert dropped(h, 3) == []
    await h.audit_ok()
