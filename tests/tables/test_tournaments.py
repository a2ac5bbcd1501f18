"""Sit & Go tournaments through the table service, on both backends and a fake clock:
registration and its refusals, a whole tournament (levels change between hands only, an
absent player dealt in and folded, busts announced and paid), forfeits, the host's pause,
resume and level moves, cancellation before and after the start, the cash table that waits,
and the pool audit after every step."""

from __future__ import annotations

import random
from collections.abc import AsyncIterator

import pytest

from dealerbot.engine import ActionKind, Variant
from dealerbot.store.seats import SeatRow
from dealerbot.store.stats import Period
from dealerbot.tables import ClosedBecause, TournamentPhase
from dealerbot.tables import events as ev
from dealerbot.tables.errors import TableError, TournamentError
from dealerbot.tables.turns import auto_reason
from dealerbot.tournament import level

from .helpers import CHANNEL, GUILD, Harness, make_harness, snapshot
from .tournament_helpers import info, passive, play_turns, pool_rows, shove

ALICE, BOB, CAROL, DAVE = 11, 12, 13, 14
OTHER = CHANNEL + 1


@pytest.fixture
async def h(db_url: str) -> AsyncIterator[Harness]:
    harness = await make_harness(db_url)
    try:
        yield harness
    finally:
        await harness.close()


async def create(h: Harness, **options: object) -> int:
    view = await h.service.tournaments.create(GUILD, CHANNEL, 1, **options)  # type: ignore[arg-type]
    return view.tournament_id


async def register(h: Harness, *users: int) -> None:
    for user in users:
        await h.service.tournaments.register(GUILD, CHANNEL, user, f"p{user}")


async def wallet(h: Harness, user: int) -> int:
    return (await h.service.balance(GUILD, user)).chips


async def test_registration_and_its_refusals_change_nothing(h: Harness) -> None:
    tid = await create(h, seats=3, buy_in=100)
    view = await info(h)
    assert view.phase is TournamentPhase.REGISTERING and view.entries == ()
    assert view.ladder[3].small_bet == 50 and view.ladder[3].bring_in == 15  # level 4
    before = await snapshot(h)
    with pytest.raises(TournamentError, match="has a Sit & Go already"):
        await create(h)
    with pytest.raises(TournamentError, match="two players or more"):
        await h.service.tournaments.start(GUILD, CHANNEL)
    with pytest.raises(TournamentError, match="not registered"):
        await h.service.tournaments.unregister(GUILD, CHANNEL, ALICE)
    assert await snapshot(h) == before

    await register(h, ALICE)
    assert await wallet(h, ALICE) == 900
    assert await pool_rows(h, tid) == [
        (ALICE, "wallet", "buy_in", -100),
        (ALICE, "pool", "buy_in", 100),
    ]
    before = await snapshot(h)
    with pytest.raises(TournamentError, match="registered for this Sit & Go already"):
        await register(h, ALICE)
    await h.service.balance(GUILD, BOB)  # his wallet, with the starting chips
    await h.service.admin_adjust(GUILD, BOB, -950, "short")
    before = await snapshot(h)
    with pytest.raises(TableError, match="You need 100 chips but your wallet holds 50"):
        await register(h, BOB)
    assert await snapshot(h) == before
    await h.audit_ok()

    view = await h.service.tournaments.unregister(GUILD, CHANNEL, ALICE)
    assert view.entries == () and view.pool == 0 and await wallet(h, ALICE) == 1000
    await h.audit_ok()
    await register(h, ALICE, CAROL)
    assert (await info(h)).prizes == (200,)  # projected: 2 registered, 100 % to 1st
    await register(h, DAVE)  # the third seat: it starts
    view = await info(h)
    assert view.phase is TournamentPhase.RUNNING and view.players_left == 3
    assert sorted(e.seat for e in view.entries) == [0, 1, 2]
    assert {e.stack for e in view.entries} == {view.starting_chips}
    assert view.level_line is not None and view.level_line.startswith("Level 1 · 25/50 · ante 5")
    before = await snapshot(h)
    with pytest.raises(TournamentError, match="started already"):
        await register(h, BOB)
    with pytest.raises(TournamentError, match="no leaving with chips"):
        await h.service.tournaments.unregister(GUILD, CHANNEL, ALICE)
    with pytest.raises(TournamentError, match="no leaving a Sit & Go with chips"):
        await h.service.leave(GUILD, CHANNEL, ALICE)
    with pytest.raises(TournamentError, match="cannot be bought"):
        await h.service.add_chips(GUILD, CHANNEL, ALICE, 10)
    assert await snapshot(h) == before
    await h.audit_ok()


@pytest.mark.parametrize(
    ("options", "says"),
    [
        ({"buy_in": 0}, "Buy_in must be from 1 to"),
        ({"seats": 9}, "Seats must be from 2 to 8"),
        ({"level_minutes": 0}, "Level_minutes must be from 1 to 60"),
        ({"starting_chips": 99}, "Starting_chips must be from 100 to 100,000"),
        ({"turn_seconds": 5}, "Turn_seconds must be from 10 to 300"),
        ({"structure": "hyper"}, "Structure must be one of turbo, regular, deep"),
        ({"game": "holdem"}, "Game must be one of stud, stud8, razz or mix"),
    ],
)
async def test_options_out_of_range_are_refused_by_name(
    h: Harness, options: dict[str, object], says: str
) -> None:
    before = await snapshot(h)
    with pytest.raises(TournamentError, match=says):
        await create(h, **options)
    assert await snapshot(h) == before
    assert await h.fetch("SELECT COUNT(*) FROM tournaments") == [(0,)]


async def test_no_tournament_where_a_cash_hand_is_played_and_the_cash_table_waits(
    h: Harness,
) -> None:
    await h.service.join(GUILD, CHANNEL, 31, "cash1")
    await h.service.join(GUILD, CHANNEL, 32, "cash2")
    await h.service.start(GUILD, CHANNEL, admin=True)
    before = await snapshot(h)
    with pytest.raises(TournamentError, match="A cash hand is being played in this channel"):
        await create(h)
    assert await snapshot(h) == before
    await play_turns(
        h,
        lambda t: passive([o.kind for o in t.options]),
        until=lambda: bool(h.recorder.of(ev.HandEnded)),
    )
    await create(h, seats=2)
    hands = len(h.recorder.of(ev.HandStarted))
    await h.advance(60)  # the cash table's next deal would be due: it waits
    assert len(h.recorder.of(ev.HandStarted)) == hands
    with pytest.raises(TournamentError, match="cash table deals again when it ends"):
        await h.service.join(GUILD, CHANNEL, 33, "cash3")
    with pytest.raises(TableError, match="the cash table deals again when it ends"):
        await h.service.sit_out(GUILD, CHANNEL, 31)
    out = await h.service.leave(GUILD, CHANNEL, 32)  # a cash seat still leaves, cashed out
    assert out.left_now and out.cashed_out > 0
    await h.audit_ok()


async def test_a_whole_tournament_levels_between_hands_an_absent_player_dealt_in(
    h: Harness,
) -> None:
    tid = await create(
        h, structure="turbo", starting_chips=300, level_minutes=1, turn_seconds=300, seats=4
    )
    await register(h, ALICE, BOB, CAROL, DAVE)
    await h.service.sit_out(GUILD, CHANNEL, DAVE)  # away from the start: dealt in anyway
    await h.audit_ok()
    rng = random.Random(5)
    crossed = False
    hands_seen = 0

    def policy(turn: ev.Turn) -> ActionKind:
        kinds = [o.kind for o in turn.options]
        return shove(kinds) if rng.random() < 0.35 else passive(kinds)

    async def after_each() -> None:
        nonlocal crossed, hands_seen
        ended = len(h.recorder.of(ev.HandEnded))
        if ended != hands_seen:
            hands_seen = ended
            await h.audit_ok()
        if not crossed and h.recorder.last_turn() is not None:
            crossed = True
            await h.advance(61)  # level 1 ends while the first hand is played

    def over() -> bool:
        return any(
            n.kind is ev.TournamentNoticeKind.FINISHED for n in h.recorder.of(ev.TournamentNotice)
        )

    await play_turns(h, policy, until=over, after_each=after_each)
    await h.audit_ok()

    hands = await h.fetch(
        "SELECT id, tournament_level, config_json FROM hands WHERE tournament_id = ? ORDER BY id",
        (tid,),
    )
    assert hands[0][1] == 1 and hands[1][1] == 2  # the first hand kept level 1 to its end
    for _, number, config in hands:
        lv = level(number, (Variant.STUD,))
        assert f'"small_bet": {lv.small_bet},' in config and f'"ante": {lv.ante},' in config
    first = hands[0][0]
    completes = [
        a.amount
        for a in h.recorder.of(ev.ActionTaken)
        if a.hand_id == first and a.kind is ActionKind.COMPLETE
    ]
    assert all(amount <= 25 for amount in completes)  # level 1's small bet, not level 2's 30
    levels = [
        n.text
        for n in h.recorder.of(ev.TournamentNotice)
        if n.kind is ev.TournamentNoticeKind.LEVEL
    ]
    assert levels and levels[0].startswith("Level 2 · 30/60")

    started = h.recorder.of(ev.HandStarted)
    away = [a for a in h.recorder.of(ev.ActionTaken) if a.user_id == DAVE]
    assert away and all(a.auto is ev.AutoReason.AWAY for a in away)
    assert {a.kind for a in away} <= {ActionKind.FOLD, ActionKind.CHECK, ActionKind.BRING_IN}
    dealt = [s for s in started if any(p.user_id == DAVE for p in s.players)]
    antes = {a.hand_id for a in h.recorder.of(ev.AntePosted) if a.user_id == DAVE}
    assert dealt and antes == {s.hand_id for s in dealt}  # his ante in every hand he was in

    view = await info(h)
    assert view.phase is TournamentPhase.FINISHED
    places = sorted(e.place for e in view.entries if e.place is not None)
    assert places == [1, 2, 3, 4]
    winner = next(e for e in view.entries if e.place == 1)
    assert winner.prize == 400 and sum(e.prize for e in view.entries) == 400 and view.pool == 0
    assert await wallet(h, winner.user_id) == 1000 - 100 + 400
    finishes = h.recorder.of(ev.PlayerFinished)
    assert len(finishes) == 4 and finishes[-1].place == 1
    assert any(
        f.text.startswith(f"p{f.user_id} finishes {f.place}") for f in finishes if f.place == 4
    )
    rows = await h.fetch(
        "SELECT user_id, delta FROM ledger WHERE tournament_id = ? AND reason = 'prize'"
        " AND account = 'wallet'",
        (tid,),
    )
    assert rows == [(winner.user_id, 400)]  # one prize row, paid once

    # The cash table deals again once the tournament is over.
    await h.service.join(GUILD, CHANNEL, 31, "cash1")
    await h.service.join(GUILD, CHANNEL, 32, "cash2")
    await h.advance(10)
    last = h.recorder.of(ev.HandStarted)[-1]
    assert {p.user_id for p in last.players} == {31, 32}
    await h.audit_ok()


async def test_forfeits_between_hands_and_during_a_hand(h: Harness) -> None:
    await create(h, seats=3, starting_chips=1000, turn_seconds=300)
    with pytest.raises(TournamentError, match="not registered"):
        await h.service.tournaments.forfeit(GUILD, CHANNEL, ALICE)
    await register(h, ALICE)
    with pytest.raises(TournamentError, match="has not started"):
        await h.service.tournaments.forfeit(GUILD, CHANNEL, ALICE)
    await register(h, BOB, CAROL)  # full: starts, the first deal after the pause
    view = await h.service.tournaments.forfeit(GUILD, CHANNEL, CAROL)  # between hands
    carol = view.entry_of(CAROL)
    assert carol is not None and carol.place == 3 and carol.status == "forfeited"
    assert carol.stack == 1000  # his chips stay dead in the count
    await h.audit_ok()
    with pytest.raises(TournamentError, match="over: you finished 3rd"):
        await h.service.tournaments.forfeit(GUILD, CHANNEL, CAROL)
    await h.advance(6)  # the first hand: alice and bob
    started = h.recorder.of(ev.HandStarted)[-1]
    assert {p.user_id for p in started.players} == {ALICE, BOB}
    await h.service.tournaments.forfeit(GUILD, CHANNEL, BOB)  # in the hand: out when it ends
    assert (await info(h)).entry_of(BOB).place is None  # type: ignore[union-attr]
    await play_turns(
        h,
        lambda t: passive([o.kind for o in t.options]),
        until=lambda: bool(h.recorder.of(ev.HandEnded)),
    )
    view = await info(h)
    assert view.phase is TournamentPhase.FINISHED
    assert [
        (e.user_id, e.place, e.status) for e in sorted(view.entries, key=lambda e: e.place or 0)
    ] == [
        (ALICE, 1, "playing"),
        (BOB, 2, "forfeited"),
        (CAROL, 3, "forfeited"),
    ]
    assert view.entry_of(ALICE).prize == 300  # type: ignore[union-attr]
    bob_actions = [a for a in h.recorder.of(ev.ActionTaken) if a.user_id == BOB and a.auto]
    assert all(a.auto is ev.AutoReason.LEAVING for a in bob_actions)
    texts = [f.text for f in h.recorder.of(ev.PlayerFinished)]
    assert texts[0] == "p13 finishes 3rd (forfeited)" and texts[1] == "p12 finishes 2nd (forfeited)"
    await h.audit_ok()


async def test_pause_resume_and_level_moves(h: Harness) -> None:
    await create(h, seats=2, starting_chips=5000, level_minutes=2, turn_seconds=300)
    with pytest.raises(TournamentError, match="has not started"):
        await h.service.tournaments.pause(GUILD, CHANNEL)
    await register(h, ALICE, BOB)
    await h.advance(6)  # the first hand is dealt
    assert h.recorder.last_turn() is not None
    await h.advance(30)
    view = await h.service.tournaments.pause(GUILD, CHANNEL)
    assert (
        view.paused and view.level_line is not None and "clock paused, 1:24 left" in view.level_line
    )
    with pytest.raises(TournamentError, match="paused already"):
        await h.service.tournaments.pause(GUILD, CHANNEL)
    await play_turns(
        h,
        lambda t: passive([o.kind for o in t.options]),
        until=lambda: bool(h.recorder.of(ev.HandEnded)),
    )
    dealt = len(h.recorder.of(ev.HandStarted))
    await h.advance(600)  # paused: no deal, the clock stands still
    assert len(h.recorder.of(ev.HandStarted)) == dealt
    view = await info(h)
    assert (
        view.seconds_left == pytest.approx(84) and view.level is not None and view.level.number == 1
    )
    await h.service.tournaments.resume(GUILD, CHANNEL)
    with pytest.raises(TournamentError, match="is not paused"):
        await h.service.tournaments.resume(GUILD, CHANNEL)
    view = await h.service.tournaments.level_up(GUILD, CHANNEL)
    assert (
        view.level is not None
        and view.level.number == 2
        and view.seconds_left == pytest.approx(120)
    )
    await h.advance(6)
    record = (await h.fetch("SELECT tournament_level FROM hands ORDER BY id DESC LIMIT 1"))[0]
    assert record == (2,)
    await h.service.tournaments.level_down(GUILD, CHANNEL)
    with pytest.raises(TournamentError, match="level 1: there is no lower level"):
        await h.service.tournaments.level_down(GUILD, CHANNEL)
    await h.audit_ok()


async def test_cancel_before_the_start_refunds_every_buy_in(h: Harness) -> None:
    tid = await create(h, seats=4)
    await register(h, ALICE, BOB)
    view = await h.service.tournaments.cancel(GUILD, CHANNEL)
    assert view.phase is TournamentPhase.CANCELLED and view.pool == 0
    assert await wallet(h, ALICE) == 1000 and await wallet(h, BOB) == 1000
    refunds = [r for r in await pool_rows(h, tid) if r[2] == "refund"]
    assert sorted(refunds) == sorted(
        [
            (ALICE, "pool", "refund", -100),
            (ALICE, "wallet", "refund", 100),
            (BOB, "pool", "refund", -100),
            (BOB, "wallet", "refund", 100),
        ]
    )
    await h.audit_ok()
    await create(h)  # the channel is free again


async def test_cancel_after_the_start_splits_the_pool_by_the_chips_in_play(h: Harness) -> None:
    tid = await create(h, seats=3, starting_chips=1000, turn_seconds=300, buy_in=101)
    await register(h, ALICE, BOB, CAROL)
    await h.advance(6)
    await play_turns(
        h,
        lambda t: (
            shove([o.kind for o in t.options])
            if t.street >= 5
            else passive([o.kind for o in t.options])
        ),
        until=lambda: bool(h.recorder.of(ev.HandEnded)),
    )
    await h.advance(6)  # the second hand is being played when the host cancels
    assert h.recorder.last_turn() is not None
    stacks = {e.user_id: e.stack for e in (await info(h)).entries if e.place is None}
    await h.service.tournaments.cancel(GUILD, CHANNEL, "the host had to go")
    ended = h.recorder.of(ev.HandEnded)[-1]
    assert ended.cancelled
    total = sum(stacks.values())
    shares = {u: 303 * s // total for u, s in stacks.items()}
    odd = 303 - sum(shares.values())
    paid = {r[0]: r[3] for r in await pool_rows(h, tid) if r[2] == "refund" and r[1] == "wallet"}
    assert sum(paid.values()) == 303 and set(paid) == set(stacks)
    for user, chips in paid.items():
        assert chips - shares[user] in (0, 1) and sum(paid[u] - shares[u] for u in paid) == odd
    notice = h.recorder.of(ev.TournamentNotice)[-1]
    assert notice.kind is ev.TournamentNoticeKind.CANCELLED and "the host had to go" in notice.text
    await h.audit_ok()


async def test_a_deleted_channel_cancels_the_tournament(h: Harness) -> None:
    tid = await create(h, seats=3)
    await register(h, ALICE, BOB)
    done = await h.service.closing.abandon(GUILD, CHANNEL, ClosedBecause.CHANNEL_DELETED)
    assert len(done) == 1
    assert (await h.fetch("SELECT status FROM tournaments WHERE id = ?", (tid,))) == [
        ("cancelled",)
    ]
    assert await wallet(h, ALICE) == 1000 and await wallet(h, BOB) == 1000
    await h.audit_ok()


async def test_tournament_winnings_and_stats_are_apart_from_cash(h: Harness) -> None:
    await create(h, seats=2, starting_chips=100, turn_seconds=300)
    await register(h, ALICE, BOB)
    await play_turns(
        h,
        lambda t: shove([o.kind for o in t.options]),
        until=lambda: any(
            n.kind is ev.TournamentNoticeKind.FINISHED for n in h.recorder.of(ev.TournamentNotice)
        ),
    )
    view = await info(h)
    winner = next(e.user_id for e in view.entries if e.place == 1)
    loser = ALICE if winner == BOB else BOB
    stats = h.service.stats
    cash = await stats.report(GUILD, winner)
    assert cash.hands == 0 and cash.tournaments.played == 1 and cash.tournaments.wins == 1
    assert cash.tournaments.net == 100 and cash.tournaments.cashes == 1
    played = await stats.report(GUILD, winner, tournament=True)
    assert played.tournament and played.hands == len(h.recorder.of(ev.HandEnded))
    board = await stats.tournament_board(GUILD, Period.ALL)
    assert [(e.rank, e.user_id, e.net) for e in board.entries] == [
        (1, winner, 100),
        (2, loser, -100),
    ]
    assert (await stats.winnings(GUILD, Period.ALL)).entries == ()  # no cash chips won


def test_a_player_away_is_acted_for_at_once_only_where_absent_players_are_dealt_in() -> None:
    """turns.auto_reason: a cash table waits for a sitting-out player's timeouts (it deals
    him out of the next hands anyway); a tournament acts for him at once."""
    seat = SeatRow(1, 0, GUILD, ALICE, "alice", 100, True, 0, 0.0, False, 0.0)
    assert auto_reason(seat) is None
    assert auto_reason(seat, deals_absent=True) is ev.AutoReason.AWAY
    back = SeatRow(1, 0, GUILD, ALICE, "alice", 100, False, 0, 0.0, False, 0.0)
    assert auto_reason(back, deals_absent=True) is None


async def test_a_restart_resumes_registration_the_hand_the_level_and_a_pause(h: Harness) -> None:
    tid = await create(h, seats=3, starting_chips=2000, level_minutes=2, turn_seconds=300)
    await register(h, ALICE, BOB)
    await h.restart()
    view = await info(h)
    assert view.phase is TournamentPhase.REGISTERING and len(view.entries) == 2
    await register(h, CAROL)  # full after the restart: it starts
    await h.advance(6)
    turn = h.recorder.last_turn()
    assert turn is not None
    await h.service.act(
        GUILD,
        CHANNEL,
        turn.user_id,
        turn.hand_id,
        turn.seq,
        passive([o.kind for o in turn.options]),
    )
    before = await info(h)
    await h.restart()
    after = await info(h)
    assert after.level == before.level and after.seconds_left == pytest.approx(before.seconds_left)
    assert [(e.user_id, e.stack, e.seat) for e in after.entries] == [
        (e.user_id, e.stack, e.seat) for e in before.entries
    ]
    resumed = h.recorder.last_turn()
    assert resumed is not None and resumed.hand_id == turn.hand_id and resumed.seq == turn.seq + 1
    await play_turns(
        h,
        lambda t: passive([o.kind for o in t.options]),
        until=lambda: bool(h.recorder.of(ev.HandEnded)),
    )
    await h.service.tournaments.pause(GUILD, CHANNEL)
    paused = await info(h)
    await h.restart()
    await h.advance(300)  # down and paused: none of it counts
    view = await info(h)
    assert view.paused and view.seconds_left == pytest.approx(paused.seconds_left)
    await h.service.tournaments.resume(GUILD, CHANNEL)
    await h.advance(6)
    rows = await h.fetch("SELECT COUNT(*) FROM hands WHERE tournament_id = ?", (tid,))
    assert rows == [(2,)]  # dealt again after the resume
    await h.audit_ok()


async def test_a_mix_changes_the_game_with_the_level(h: Harness) -> None:
    await create(h, seats=2, game="mix", starting_chips=5000, turn_seconds=300)
    await register(h, ALICE, BOB)
    view = await info(h)
    assert view.games == (Variant.STUD, Variant.STUD8, Variant.RAZZ) and view.game == "mix"
    assert [lv.game for lv in view.ladder[:4]] == [*view.games, Variant.STUD]
    assert view.level_line is not None and view.level_line.startswith("Level 1 · Seven Card Stud")
    await h.advance(6)
    await play_turns(
        h,
        lambda t: passive([o.kind for o in t.options]),
        until=lambda: bool(h.recorder.of(ev.HandEnded)),
    )
    await h.service.tournaments.level_up(GUILD, CHANNEL)
    await h.advance(6)
    first, second = h.recorder.of(ev.HandStarted)[:2]
    assert (first.variant, second.variant) == (Variant.STUD, Variant.STUD8)
    table = await h.service.table_view(GUILD, CHANNEL)
    assert table.stakes.variant is Variant.STUD8 and table.stakes.small_bet == 30
    assert table.tournament is not None and table.tournament.level is not None
    assert table.tournament.level.number == 2
    await h.audit_ok()
