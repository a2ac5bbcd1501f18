"""Joining, leaving, sitting out and in, adding chips; bad input is refused and changes nothing."""

from __future__ import annotations

import pytest

from dealerbot.engine import ActionKind, Variant
from dealerbot.store import wallets as wallets_db
from dealerbot.tables import errors
from dealerbot.tables import events as ev

from .helpers import CHANNEL, GUILD, passive, play_hand, seat_players, snapshot

OTHER_CHANNEL = 333


async def test_join_takes_the_buy_in_from_the_wallet(harness):
    s = harness.service
    view = await s.join(GUILD, CHANNEL, 1, "Ann", 250)
    assert view.stack == 250 and view.seat == 0
    wallet = await s.balance(GUILD, 1)
    assert (wallet.chips, wallet.table_chips) == (750, 250)
    default = await s.join(GUILD, CHANNEL, 2, "Bob")  # no amount: the table minimum
    config = await s.config_get(GUILD, CHANNEL)
    assert default.stack == config.min_buyin
    (joined, _) = harness.recorder.of(ev.PlayerJoined)
    assert (joined.user_id, joined.name, joined.buy_in) == (1, "Ann", 250)
    await harness.audit_ok()


@pytest.mark.parametrize(
    "amount",
    [-5, 0, 99, 1001, 10**13, 2**70, 150.0, "150", True, None.__class__],
    ids=[
        "negative",
        "zero",
        "below-min",
        "above-max",
        "huge",
        "enormous",
        "float",
        "text",
        "bool",
        "type",
    ],
)
async def test_bad_buy_in_is_refused_and_changes_nothing(harness, amount):
    s = harness.service
    await s.join(GUILD, CHANNEL, 1, "Ann", 200)  # the table exists
    await s.balance(GUILD, 2)  # and so does the wallet
    before = await snapshot(harness)
    with pytest.raises(errors.TableError) as caught:
        await s.join(GUILD, CHANNEL, 2, "Bob", amount)
    message = str(caught.value)
    assert message[0].isupper() and message.endswith(".")
    assert await snapshot(harness) == before


async def test_buying_in_for_more_than_the_wallet_is_refused(harness):
    s = harness.service
    await s.config_set(GUILD, CHANNEL, max_buyin=5000)
    await s.join(GUILD, CHANNEL, 1, "Ann", 100)
    before = await snapshot(harness)
    with pytest.raises(errors.InsufficientFundsError, match="1,500"):
        await s.join(GUILD, CHANNEL, 2, "Bob", 1500)
    assert await snapshot(harness) == before


async def test_a_failed_first_join_does_not_even_open_the_table(harness):
    s = harness.service
    await s.config_set(GUILD, CHANNEL, max_buyin=5000)
    await s.balance(GUILD, 2)
    before = await snapshot(harness)
    with pytest.raises(errors.InsufficientFundsError):
        await s.join(GUILD, CHANNEL, 2, "Bob", 1500)
    assert await snapshot(harness) == before
    with pytest.raises(errors.NoTableError):
        await s.table_view(GUILD, CHANNEL)


async def test_joining_twice_is_refused(harness):
    s = harness.service
    await s.join(GUILD, CHANNEL, 1, "Ann", 200)
    before = await snapshot(harness)
    with pytest.raises(errors.AlreadySeatedError, match="already seated"):
        await s.join(GUILD, CHANNEL, 1, "Ann", 200)
    assert await snapshot(harness) == before


async def test_several_tables_in_a_guild_only_with_chips_for_each(harness):
    s = harness.service
    await s.join(GUILD, CHANNEL, 1, "Ann", 600)
    before = await snapshot(harness)
    with pytest.raises(errors.InsufficientFundsError):
        await s.join(GUILD, OTHER_CHANNEL, 1, "Ann", 600)
    assert await snapshot(harness) == before
    await s.join(GUILD, OTHER_CHANNEL, 1, "Ann", 400)
    wallet = await s.balance(GUILD, 1)
    assert (wallet.chips, wallet.table_chips) == (0, 1000)
    await harness.audit_ok()


async def test_a_full_table_refuses_more_players(harness):
    s = harness.service
    await s.config_set(GUILD, CHANNEL, seats=2)
    await seat_players(s, [1, 2])
    before = await snapshot(harness)
    with pytest.raises(errors.TableFullError):
        await s.join(GUILD, CHANNEL, 3, "Cy")
    assert await snapshot(harness) == before


async def test_unknown_tables_players_and_ids(harness):
    s = harness.service
    for call in (
        s.leave(GUILD, CHANNEL, 1),
        s.sit_out(GUILD, CHANNEL, 1),
        s.add_chips(GUILD, CHANNEL, 1, 10),
        s.act(GUILD, CHANNEL, 1, 1, 0, ActionKind.CHECK),
        s.start(GUILD, CHANNEL),
        s.table_view(GUILD, CHANNEL),
        s.my_cards(GUILD, CHANNEL, 1),
        s.close_table(GUILD, CHANNEL),
    ):
        with pytest.raises(errors.NoTableError, match="no table"):
            await call
    await s.join(GUILD, CHANNEL, 1, "Ann")
    before = await snapshot(harness)
    for call in (
        s.leave(GUILD, CHANNEL, 9),
        s.sit_out(GUILD, CHANNEL, 9),
        s.sit_in(GUILD, CHANNEL, 9),
        s.add_chips(GUILD, CHANNEL, 9, 10),
        s.my_cards(GUILD, CHANNEL, 9),
        s.act(GUILD, CHANNEL, 9, 1, 0, ActionKind.CHECK),
    ):
        with pytest.raises(errors.NotSeatedError, match="not seated"):
            await call
    for bad in (0, -1, 2**64, "1", 1.0, True):
        with pytest.raises(errors.TableError):
            await s.join(GUILD, CHANNEL, bad, "X")
        with pytest.raises(errors.TableError):
            await s.table_view(bad, CHANNEL)
    with pytest.raises(errors.TableError, match="name"):
        await s.join(GUILD, CHANNEL, 5, "   ")
    assert await snapshot(harness) == before


async def test_leave_between_hands_cashes_out_at_once(harness):
    s = harness.service
    await s.join(GUILD, CHANNEL, 1, "Ann", 300)
    outcome = await s.leave(GUILD, CHANNEL, 1)
    assert outcome.left_now and outcome.cashed_out == 300
    wallet = await s.balance(GUILD, 1)
    assert (wallet.chips, wallet.table_chips) == (1000, 0)
    (left,) = harness.recorder.of(ev.PlayerLeft)
    assert left.cashed_out == 300
    await harness.audit_ok()


async def test_leave_during_a_hand_folds_when_the_action_reaches_him(harness):
    h = harness
    s = h.service
    await seat_players(s, [1, 2, 3], buy_in=200)
    await s.start(GUILD, CHANNEL)
    turn = h.recorder.last_turn()
    assert turn is not None
    leaver = next(u for u in (1, 2, 3) if u != turn.user_id)
    outcome = await s.leave(GUILD, CHANNEL, leaver)
    assert not outcome.left_now
    view = await s.table_view(GUILD, CHANNEL)
    seat = view.seat_of(leaver)
    assert seat is not None and seat.leaving and seat.in_hand
    ended = await play_hand(h, passive)
    autos = [a for a in h.recorder.of(ev.ActionTaken) if a.user_id == leaver]
    assert autos and all(a.auto == "leaving" for a in autos)
    assert all(a.kind in (ActionKind.FOLD, ActionKind.CHECK, ActionKind.BRING_IN) for a in autos)
    (left,) = h.recorder.of(ev.PlayerLeft)
    delta = dict(ended.results)[leaver]
    assert left.user_id == leaver and left.cashed_out == 200 + delta
    wallet = await s.balance(GUILD, leaver)
    assert (wallet.chips, wallet.table_chips) == (1000 + delta, 0)
    assert (await s.table_view(GUILD, CHANNEL)).seat_of(leaver) is None
    await h.audit_ok()


async def test_leave_on_his_turn_acts_at_once(harness):
    h = harness
    s = h.service
    await seat_players(s, [1, 2, 3], buy_in=200)
    await s.start(GUILD, CHANNEL)
    turn = h.recorder.last_turn()
    assert turn is not None
    await s.leave(GUILD, CHANNEL, turn.user_id)
    last = h.recorder.of(ev.ActionTaken)[-1]
    assert (last.user_id, last.seq, last.auto) == (turn.user_id, turn.seq, "leaving")
    new_turn = h.recorder.last_turn()
    assert new_turn is not None and new_turn.user_id != turn.user_id
    await play_hand(h, passive)
    await h.audit_ok()


async def test_sit_out_and_sit_in(harness):
    h = harness
    s = h.service
    await seat_players(s, [1, 2, 3])
    view = await s.sit_out(GUILD, CHANNEL, 3)
    seat = view.table.seat_of(3)
    assert seat is not None and seat.sitting_out
    await s.start(GUILD, CHANNEL)
    started = h.recorder.of(ev.HandStarted)[-1]
    assert {p.user_id for p in started.players} == {1, 2}
    await play_hand(h, passive)
    await s.sit_in(GUILD, CHANNEL, 3)
    await s.start(GUILD, CHANNEL)
    started = h.recorder.of(ev.HandStarted)[-1]
    assert {p.user_id for p in started.players} == {1, 2, 3}
    assert [e.reason for e in h.recorder.of(ev.PlayerSatOut)] == ["asked"]
    assert len(h.recorder.of(ev.PlayerSatIn)) == 1


async def test_a_hand_needs_two_players_not_sitting_out(harness):
    h = harness
    s = h.service
    await seat_players(s, [1, 2])
    await s.sit_out(GUILD, CHANNEL, 2)
    before = await snapshot(h)
    with pytest.raises(errors.NotEnoughPlayersError):
        await s.start(GUILD, CHANNEL)
    await h.advance(60)
    assert not h.recorder.of(ev.HandStarted)
    assert await snapshot(h) == before


async def test_add_chips_during_a_hand_is_queued_for_the_next_deal(harness):
    h = harness
    s = h.service
    await seat_players(s, [1, 2], buy_in=200)
    view = await s.add_chips(GUILD, CHANNEL, 1, 100)
    assert view.stack == 300
    await s.start(GUILD, CHANNEL)
    before = await snapshot(h)
    queued = await s.add_chips(GUILD, CHANNEL, 1, 100)
    assert queued.table.hand_id is not None  # the front end says "queued"
    assert await snapshot(h) == before  # nothing moves during the hand
    with pytest.raises(errors.TableError, match=r"1,000|maximum"):
        await s.add_chips(GUILD, CHANNEL, 1, 700)  # 300 + 100 queued + 700 > 1,000
    await wallets_db.admin_take(h.db, GUILD, 2, 750)  # his wallet keeps 50
    before = await snapshot(h)
    with pytest.raises(errors.InsufficientFundsError):
        await s.add_chips(GUILD, CHANNEL, 2, 100)  # beyond his wallet
    assert await snapshot(h) == before
    wallet = (await s.balance(GUILD, 1)).chips
    await play_hand(h, passive)
    [ended] = h.recorder.of(ev.HandEnded)
    after = dict(ended.final_stacks)
    view = await s.table_view(GUILD, CHANNEL)
    seat = view.seat_of(1)
    assert seat is not None and seat.stack == after[seat.seat] + 100  # moved before the deal
    assert (await s.balance(GUILD, 1)).chips == wallet - 100
    for bad in (0, -10, 10**13, 2.5, "10", False):
        with pytest.raises(errors.AmountError):
            await s.add_chips(GUILD, CHANNEL, 2, bad)
    before = await snapshot(h)
    with pytest.raises(errors.TableError, match=r"1,000|maximum"):
        await s.add_chips(GUILD, CHANNEL, 2, 900)  # beyond the table maximum
    assert await snapshot(h) == before
    await h.audit_ok()


async def test_close_table_between_hands_and_after_a_hand(harness):
    h = harness
    s = h.service
    await seat_players(s, [1, 2], buy_in=200)
    assert await s.close_table(GUILD, CHANNEL) is True
    (closed,) = h.recorder.of(ev.TableClosed)
    assert dict(closed.cashed_out) == {1: 200, 2: 200}
    for user in (1, 2):
        assert (await s.balance(GUILD, user)).chips == 1000
    with pytest.raises(errors.NoTableError):
        await s.table_view(GUILD, CHANNEL)
    await h.audit_ok()

    await seat_players(s, [1, 2], buy_in=200)  # the table reopens
    await s.start(GUILD, CHANNEL)
    assert await s.close_table(GUILD, CHANNEL) is False
    assert (await s.table_view(GUILD, CHANNEL)).status == "closing"
    with pytest.raises(errors.TableClosingError):
        await s.join(GUILD, CHANNEL, 3, "Cy")
    ended = await play_hand(h, passive)
    closed = h.recorder.of(ev.TableClosed)[-1]
    assert dict(closed.cashed_out) == {u: 200 + d for u, d in ended.results}
    await h.advance(60)
    assert len(h.recorder.of(ev.HandStarted)) == 1
    await h.audit_ok()


async def test_config_is_validated_by_the_store(harness):
    s = harness.service
    with pytest.raises(errors.ConfigError, match="bring-in"):
        await s.config_set(GUILD, CHANNEL, ante=3, bring_in=2)
    config = await s.config_set(GUILD, CHANNEL, variant="stud8", small_bet=10, min_buyin=100)
    assert config.variant.value == "stud8" and config.big_bet == 20
    view = await s.join(GUILD, CHANNEL, 1, "Ann")
    assert view.table.stakes.variant is Variant.STUD8 and view.table.stakes.big_bet == 20


async def test_daily_balance_admin_and_leaderboard(harness):
    s = harness.service
    claim = await s.daily(GUILD, 1)
    assert claim.wallet.chips == 1000 + claim.amount
    with pytest.raises(errors.DailyNotReadyError) as caught:
        await s.daily(GUILD, 1)
    assert caught.value.retry_at is not None
    wallet = await s.admin_adjust(GUILD, 2, 500, "prize")
    assert wallet.chips == 1500
    wallet = await s.admin_adjust(GUILD, 2, -200)
    assert wallet.chips == 1300
    for bad in (0, 2.5, "5"):
        with pytest.raises(errors.AmountError):
            await s.admin_adjust(GUILD, 2, bad)
    with pytest.raises(errors.InsufficientFundsError):
        await s.admin_adjust(GUILD, 2, -5000)
    page = await s.leaderboard(GUILD)
    assert [e.user_id for e in page.entries][:2] == [2, 1]
    assert (await wallets_db.get_wallet(harness.db, GUILD, 2)).chips == 1300
    await harness.audit_ok()
