"""A table whose channel is gone closes at once: the hand refunded, every seat cashed out."""

from __future__ import annotations

from dealerbot.engine import ActionKind
from dealerbot.tables import events as ev
from dealerbot.tables.abandon import ClosedBecause

from .helpers import CHANNEL, GUILD, Harness, seat_players

OTHER_CHANNEL = 333


async def wallet_chips(h: Harness, user: int) -> tuple[int, int]:
    wallet = await h.service.balance(GUILD, user)
    return wallet.chips, wallet.table_chips


async def test_a_hand_in_progress_is_refunded_and_every_seat_cashed_out(harness: Harness) -> None:
    h = harness
    await seat_players(h.service, [1, 2, 3], buy_in=100)
    before = {user: await wallet_chips(h, user) for user in (1, 2, 3)}
    await h.service.start(GUILD, CHANNEL)
    turn = h.recorder.last_turn()
    assert turn is not None
    kinds = [o.kind for o in turn.options]
    kind = ActionKind.COMPLETE if ActionKind.COMPLETE in kinds else kinds[0]
    await h.service.act(GUILD, CHANNEL, turn.user_id, turn.hand_id, turn.seq, kind)

    [done] = await h.service.closing.abandon(GUILD, CHANNEL, ClosedBecause.CHANNEL_DELETED)

    assert done.hand_number == 1
    assert sorted(done.cashed_out) == [(1, 100), (2, 100), (3, 100)]  # antes and bets refunded
    for user in (1, 2, 3):
        chips, on_tables = await wallet_chips(h, user)
        assert on_tables == 0 and chips == sum(before[user])
    [closed] = h.recorder.of(ev.TableClosed)
    assert sorted(closed.cashed_out) == sorted(done.cashed_out)
    [ended] = h.recorder.of(ev.HandEnded)
    assert ended.cancelled
    notice = done.notice_for(2)
    assert "100 chips" in notice and "deleted" in notice and "called off" in notice
    await h.audit_ok()
    # the channel's table is gone: nothing left to close, nothing left to wait for
    assert await h.service.closing.abandon(GUILD, CHANNEL, ClosedBecause.CHANNEL_DELETED) == []
    await h.advance(600)
    assert len(h.recorder.of(ev.HandStarted)) == 1
    await h.audit_ok()


async def test_the_bot_removed_from_a_server_closes_all_its_tables(harness: Harness) -> None:
    h = harness
    await seat_players(h.service, [1, 2], buy_in=150)
    await seat_players(h.service, [3, 4], buy_in=120, channel=OTHER_CHANNEL)
    await h.service.start(GUILD, CHANNEL)

    assert await h.service.closing.abandon(GUILD, 999, ClosedBecause.CHANNEL_DELETED) == []
    done = await h.service.closing.abandon(GUILD, None, ClosedBecause.BOT_REMOVED)

    assert sorted(d.channel_id for d in done) == [CHANNEL, OTHER_CHANNEL]
    assert sorted(c for d in done for c in d.cashed_out) == [(1, 150), (2, 150), (3, 120), (4, 120)]
    assert "comes back" in done[0].notice_for(1)
    for user in (1, 2, 3, 4):
        assert (await wallet_chips(h, user))[1] == 0
    await h.audit_ok()
    # the wallets stay: a player can sit down again when the bot is back
    view = await h.service.join(GUILD, CHANNEL, 1, "player1", 100)
    assert view.stack == 100
    await h.audit_ok()


async def test_a_restart_after_abandoning_resumes_nothing(harness: Harness) -> None:
    h = harness
    await seat_players(h.service, [1, 2], buy_in=100)
    await h.service.start(GUILD, CHANNEL)
    await h.service.closing.abandon(GUILD, CHANNEL, ClosedBecause.CHANNEL_UNREACHABLE)
    await h.restart()
    await h.advance(600)
    assert len(h.recorder.of(ev.HandStarted)) == 1
    await h.audit_ok()
