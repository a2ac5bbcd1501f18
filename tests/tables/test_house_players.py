"""House players at a cash table (issue 20, the service part), on both backends: they sit
and leave as the settings say, buy in from and cash out to the house bankroll with ledger
rows, act through the table's own path after their delay, survive a restart mid-hand,
never sit at a tournament table, and are on no leaderboard or board."""

from __future__ import annotations

import logging
import random
from collections.abc import AsyncIterator

import pytest

from dealerbot.house import HouseStyle
from dealerbot.store.house import HouseBook
from dealerbot.tables import (
    AmountError,
    ConfigError,
    SeatPromisedError,
    SeatView,
    StatsPeriod,
    TableError,
    is_house_user,
)
from dealerbot.tables import events as ev
from dealerbot.tables.seating import check_name

from .helpers import CHANNEL, GUILD, Harness, make_harness, passive, pick, snapshot

QUICK = HouseStyle(delay_range=(0.0, 0.0), samples=40)  # no thinking time in tests
FUND = 10_000
MEMBERS = (1001, 1002, 1003, 1004, 1005)


@pytest.fixture
async def h(db_url: str) -> AsyncIterator[Harness]:
    harness = await make_harness(db_url, house_style=QUICK)
    try:
        yield harness
    finally:
        await harness.close()


async def house_seats(h: Harness) -> list[SeatView]:
    view = await h.service.table_view(GUILD, CHANNEL)
    return [seat for seat in view.seats if seat.is_house]


async def book(h: Harness) -> HouseBook:
    return await h.service.house.book(GUILD)


async def settle(h: Harness, step: float = 0.0) -> None:
    """Let house players act until a member is to act or no hand waits for anyone."""
    for _ in range(60):
        await h.service.wait_idle()
        turn = h.recorder.last_turn()
        if turn is None or not is_house_user(turn.user_id):
            return
        await h.advance(step)
    raise AssertionError("the house players did not act")


async def play_hands(
    h: Harness, hands: int, rng: random.Random, *, step: float = 0.0, policy=None
) -> None:
    """Deal ``hands`` hands and play the members' turns (random legal moves, or
    ``policy``); house players act by themselves. A busted member is given chips again."""
    for _ in range(hands):
        view = await h.service.table_view(GUILD, CHANNEL)
        for seat in view.seats:
            if not seat.is_house and seat.stack == 0 and not seat.in_hand:
                await h.service.admin_adjust(GUILD, seat.user_id, 1000)
                await h.service.rebuy(GUILD, CHANNEL, seat.user_id)
        before = len(h.recorder.of(ev.HandEnded))
        if (await h.service.table_view(GUILD, CHANNEL)).hand_id is None:
            await h.service.start(GUILD, CHANNEL)
        for _ in range(400):
            await settle(h, step)
            if len(h.recorder.of(ev.HandEnded)) > before:
                break
            turn = h.recorder.last_turn()
            assert turn is not None and not is_house_user(turn.user_id)
            kind = policy(turn) if policy is not None else pick(turn, rng)
            await h.service.act(GUILD, CHANNEL, turn.user_id, turn.hand_id, turn.seq, kind)
        else:
            raise AssertionError("the hand did not end")


async def house_ledger(h: Harness) -> list[tuple]:
    return await h.fetch(
        "SELECT user_id, account, delta, reason FROM ledger WHERE user_id < 0 ORDER BY id"
    )


# --- who sits ---------------------------------------------------------------------------


async def test_house_players_sit_and_leave_as_the_settings_say(h: Harness) -> None:
    await h.service.house.fund(GUILD, FUND, "for the tests")
    await h.service.config_set(GUILD, CHANNEL, house_players=3, house_fill_to=4)
    await h.service.join(GUILD, CHANNEL, MEMBERS[0], "alice")
    seated = await house_seats(h)
    assert [s.name for s in seated] == ["Ace (house)", "Bea (house)", "Cy (house)"]
    assert all(is_house_user(s.user_id) and s.stack == 100 for s in seated)
    assert (await book(h)).balance == FUND - 300
    # one ledger row each way: the bankroll's wallet -100, the house player's table +100
    rows = await house_ledger(h)
    assert rows[0] == (-1, "wallet", FUND, "admin")
    assert sorted(rows[1:]) == sorted(
        [(-1, "wallet", -100, "buy_in")] * 3
        + [(user, "table", 100, "buy_in") for user in (-2, -3, -4)]
    )

    await h.service.join(GUILD, CHANNEL, MEMBERS[1], "bob")  # between hands: one leaves now
    assert [s.name for s in await house_seats(h)] == ["Ace (house)", "Bea (house)"]
    left = h.recorder.of(ev.PlayerLeft)
    assert [(e.name, e.cashed_out) for e in left] == [("Cy (house)", 100)]
    await h.service.join(GUILD, CHANNEL, MEMBERS[2], "carol")
    await h.service.join(GUILD, CHANNEL, MEMBERS[3], "dave")  # the members alone fill to 4
    assert await house_seats(h) == []
    assert (await book(h)).balance == FUND

    await h.service.leave(GUILD, CHANNEL, MEMBERS[3])
    await h.service.leave(GUILD, CHANNEL, MEMBERS[2])
    assert [s.name for s in await house_seats(h)] == ["Ace (house)", "Bea (house)"]
    await h.service.leave(GUILD, CHANNEL, MEMBERS[1])
    await h.service.leave(GUILD, CHANNEL, MEMBERS[0])  # nobody left to play with
    assert await house_seats(h) == []
    assert (await book(h)).balance == FUND
    await h.audit_ok()


async def test_none_sit_until_the_bankroll_is_funded(h: Harness) -> None:
    await h.service.config_set(GUILD, CHANNEL, house_players=2)
    await h.service.join(GUILD, CHANNEL, MEMBERS[0], "alice")
    assert await house_seats(h) == []
    assert "No house player is seated now" in await h.service.house.rules(GUILD, CHANNEL)
    book_now = await h.service.house.fund(GUILD, 150)  # one buy-in's worth: one sits now
    assert (book_now.balance, book_now.at_tables, book_now.funded) == (50, 100, 150)
    assert [s.name for s in await house_seats(h)] == ["Ace (house)"]
    await h.service.house.fund(GUILD, 1000)
    assert len(await house_seats(h)) == 2
    await h.audit_ok()


async def test_house_players_do_not_play_among_themselves(h: Harness) -> None:
    await h.service.house.fund(GUILD, FUND)
    await h.service.config_set(GUILD, CHANNEL, house_players=3, between_hands_seconds=0)
    await h.service.join(GUILD, CHANNEL, MEMBERS[0], "alice")
    await h.service.sit_out(GUILD, CHANNEL, MEMBERS[0])
    assert len(await house_seats(h)) == 3
    await h.advance(10)
    assert h.recorder.of(ev.HandStarted) == []
    with pytest.raises(TableError):
        await h.service.start(GUILD, CHANNEL)
    await h.service.sit_in(GUILD, CHANNEL, MEMBERS[0])
    await h.advance(1)
    assert len(h.recorder.of(ev.HandStarted)) == 1


async def test_a_member_takes_a_house_seat_when_the_hand_ends(h: Harness) -> None:
    await h.service.house.fund(GUILD, FUND)
    await h.service.config_set(GUILD, CHANNEL, seats=4, house_players=3, house_fill_to=8)
    await h.service.join(GUILD, CHANNEL, MEMBERS[0], "alice")
    assert len(await house_seats(h)) == 3  # the table is full
    await h.service.start(GUILD, CHANNEL)
    await settle(h)
    snap = await snapshot(h)
    with pytest.raises(SeatPromisedError, match="gives you its seat when this hand ends"):
        await h.service.join(GUILD, CHANNEL, MEMBERS[1], "bob", 200)
    assert await snapshot(h) == snap  # promised, nothing written yet
    await play_hands(h, 1, random.Random(3))  # the hand under way, to its end
    view = await h.service.table_view(GUILD, CHANNEL)
    bob = view.seat_of(MEMBERS[1])
    assert bob is not None and bob.stack == 200 and not bob.is_house
    assert len(await house_seats(h)) == 2
    joined = h.recorder.of(ev.PlayerJoined)
    assert joined[-1].user_id == MEMBERS[1]
    await h.audit_ok()


async def test_a_member_takes_a_house_seat_between_hands_at_once(h: Harness) -> None:
    await h.service.house.fund(GUILD, FUND)
    await h.service.config_set(GUILD, CHANNEL, seats=3, house_players=2, house_fill_to=8)
    await h.service.join(GUILD, CHANNEL, MEMBERS[0], "alice")
    assert len(await house_seats(h)) == 2
    mine = await h.service.join(GUILD, CHANNEL, MEMBERS[1], "bob")
    assert mine.stack == 100 and len(await house_seats(h)) == 1
    await h.audit_ok()


async def test_a_tournament_table_seats_no_house_player(h: Harness) -> None:
    await h.service.house.fund(GUILD, FUND)
    await h.service.join(GUILD, CHANNEL, MEMBERS[0], "alice")
    h.service._tables[(GUILD, CHANNEL)].house.tournament = True
    await h.service.config_set(GUILD, CHANNEL, house_players=3)
    assert await house_seats(h) == []
    await h.service.join(GUILD, CHANNEL, MEMBERS[1], "bob")
    assert await house_seats(h) == []
    assert (await book(h)).balance == FUND


# --- acting -------------------------------------------------------------------------------


async def test_a_house_player_acts_after_its_delay_and_never_times_out(db_url: str) -> None:
    style = HouseStyle(delay_range=(2.0, 2.0), samples=40)
    h = await make_harness(db_url, house_style=style)
    try:
        await h.service.house.fund(GUILD, FUND)
        await h.service.config_set(GUILD, CHANNEL, house_players=1, turn_seconds=10)
        await h.service.join(GUILD, CHANNEL, MEMBERS[0], "alice")
        await h.service.start(GUILD, CHANNEL)
        await h.service.wait_idle()
        turn = h.recorder.last_turn()
        assert turn is not None
        if not is_house_user(turn.user_id):
            await h.service.act(GUILD, CHANNEL, turn.user_id, turn.hand_id, turn.seq, passive(turn))
        turn = h.recorder.last_turn()
        assert turn is not None and is_house_user(turn.user_id)
        await h.advance(1.9)
        assert h.recorder.last_turn() == turn  # still thinking: not faster than a person
        await h.advance(0.2)
        acted = [e for e in h.recorder.of(ev.ActionTaken) if e.seq == turn.seq]
        assert len(acted) == 1 and acted[0].user_id == turn.user_id and acted[0].auto is None
        assert h.recorder.of(ev.PlayerTimedOut) == []
    finally:
        await h.close()


async def test_a_restart_mid_hand_resumes_the_house_players(db_url: str) -> None:
    style = HouseStyle(delay_range=(3.0, 3.0), samples=40)
    h = await make_harness(db_url, house_style=style)
    try:
        await h.service.house.fund(GUILD, FUND)
        await h.service.config_set(GUILD, CHANNEL, house_players=3)
        await h.service.join(GUILD, CHANNEL, MEMBERS[0], "alice")
        await h.service.start(GUILD, CHANNEL)
        await h.service.wait_idle()
        for _ in range(20):  # until a house player is thinking
            turn = h.recorder.last_turn()
            assert turn is not None
            if is_house_user(turn.user_id):
                break
            await h.service.act(GUILD, CHANNEL, turn.user_id, turn.hand_id, turn.seq, passive(turn))
        hand_id, seq = turn.hand_id, turn.seq
        await h.restart()
        await h.advance(3.0)
        acted = [e for e in h.recorder.of(ev.ActionTaken) if (e.hand_id, e.seq) == (hand_id, seq)]
        assert len(acted) == 1 and is_house_user(acted[0].user_id)
        await play_hands(h, 1, random.Random(5), step=3.0, policy=passive)
        ended = h.recorder.of(ev.HandEnded)
        assert ended[-1].hand_id == hand_id and not ended[-1].cancelled
        await h.audit_ok()
    finally:
        await h.close()


async def test_house_decisions_are_fixed_by_the_seed(tmp_path) -> None:
    """Two services with the same seed, the member playing the same way: the same hands,
    action for action (the house's randomness comes from its own seeded source)."""
    logs = []
    for name in ("a.sqlite3", "b.sqlite3"):
        h = await make_harness(tmp_path, seed=7, name=name, house_style=QUICK)
        try:
            await h.service.house.fund(GUILD, FUND)
            await h.service.config_set(GUILD, CHANNEL, house_players=3)
            await h.service.join(GUILD, CHANNEL, MEMBERS[0], "alice")
            await play_hands(h, 4, random.Random(1), policy=passive)
            logs.append(await h.fetch("SELECT hand_id, seq, seat, action FROM hand_actions"))
        finally:
            await h.close()
    assert logs[0] == logs[1] and len(logs[0]) > 20


async def test_hands_with_house_players_keep_every_chip(h: Harness, caplog) -> None:
    """Many random hands: every house turn answered by the house itself (a legal option:
    the engine applies it), no chip made or lost, the bankroll's book matching its rows."""
    caplog.set_level(logging.WARNING)
    rng = random.Random(11)
    await h.service.house.fund(GUILD, FUND)
    await h.service.config_set(
        GUILD, CHANNEL, game="mix", house_players=5, house_fill_to=6, hands_per_game=2
    )
    await h.service.join(GUILD, CHANNEL, MEMBERS[0], "alice")
    await h.service.join(GUILD, CHANNEL, MEMBERS[1], "bob")
    await play_hands(h, 18, rng)
    turns = [t for t in h.recorder.of(ev.Turn) if is_house_user(t.user_id)]
    answered = {(a.hand_id, a.seq): a for a in h.recorder.of(ev.ActionTaken)}
    assert len(turns) > 50
    for turn in turns:
        action = answered[(turn.hand_id, turn.seq)]
        assert action.user_id == turn.user_id and action.auto is None
        assert action.kind in {o.kind for o in turn.options}
    assert not [r for r in caplog.records if "house player" in r.getMessage()]
    assert {e.variant.value for e in h.recorder.of(ev.HandEnded)} == {"stud", "razz", "stud8"}
    assert all(event.private_to is None or event.private_to > 0 for event in h.recorder.events)
    await h.audit_ok()
    now = await book(h)
    assert now.balance + now.at_tables == now.funded + now.net
    assert {day.variant for day in now.days} == {"stud", "razz", "stud8"}
    assert sum(day.hands for day in now.days) == len(h.recorder.of(ev.HandEnded))


# --- rankings and names ---------------------------------------------------------------------


async def test_no_board_lists_a_house_player_and_members_keep_every_hand(h: Harness) -> None:
    await h.service.house.fund(GUILD, FUND)
    await h.service.config_set(GUILD, CHANNEL, house_players=3)
    await h.service.join(GUILD, CHANNEL, MEMBERS[0], "alice")
    await play_hands(h, 6, random.Random(2))
    board = await h.service.leaderboard(GUILD)
    assert [e.user_id for e in board.entries] == [MEMBERS[0]] and board.total_players == 1
    assert (await h.service.rank_of(GUILD, MEMBERS[0])).rank == 1
    for period in StatsPeriod:
        page = await h.service.stats.winnings(GUILD, period)
        assert [e.user_id for e in page.entries] == [MEMBERS[0]] and page.total_players == 1
    with pytest.raises(TableError):
        await h.service.rank_of(GUILD, -2)
    report = await h.service.stats.report(GUILD, MEMBERS[0])
    assert report.hands == 6 == len(h.recorder.of(ev.HandEnded))
    await h.audit_ok()


async def test_house_names_carry_their_mark_and_members_cannot(h: Harness) -> None:
    await h.service.house.fund(GUILD, FUND)
    await h.service.config_set(GUILD, CHANNEL, house_players=2)
    me = await h.service.join(GUILD, CHANNEL, MEMBERS[0], "\N{ROBOT FACE} Ace (house)")
    assert me.table.seat_of(MEMBERS[0]).name == "Ace"
    assert check_name("Bob (House)", MEMBERS[1]) == "Bob"
    await play_hands(h, 1, random.Random(4), policy=passive)
    files = await h.service.records.hand_files(GUILD, MEMBERS[0], last=1)
    assert "Ace (house)" in files[0].text and "Bea (house)" in files[0].text
    rules = await h.service.house.rules(GUILD, CHANNEL)
    assert "Ace (house) in seat 2, Bea (house) in seat 3" in rules
    assert "never sees another player's down cards" in rules


# --- bad input ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "changes",
    [
        {"house_players": 8},
        {"house_players": -1},
        {"house_fill_to": 1},
        {"house_fill_to": 9},
        {"house_players": "three"},
        {"house_fill_to": True},
    ],
)
async def test_house_settings_out_of_range_are_refused(h: Harness, changes: dict) -> None:
    await h.service.join(GUILD, CHANNEL, MEMBERS[0], "alice")
    before = await h.service.config_get(GUILD, CHANNEL)
    snap = await snapshot(h)
    with pytest.raises(ConfigError, match=r"house players"):
        await h.service.config_set(GUILD, CHANNEL, **changes)
    assert await h.service.config_get(GUILD, CHANNEL) == before
    assert await snapshot(h) == snap


@pytest.mark.parametrize("amount", [0, -5, 10**12 + 1, True, "100", 2.5])
async def test_a_bad_fund_is_refused(h: Harness, amount: object) -> None:
    await h.service.house.fund(GUILD, 100)
    snap = await snapshot(h)
    with pytest.raises(AmountError, match="house fund must be a whole number"):
        await h.service.house.fund(GUILD, amount)  # type: ignore[arg-type]
    assert await snapshot(h) == snap
    assert (await book(h)).balance == 100
