"""bench_bot's figures from recorded requests (benchmarks/perf_evidence.py), on made-up
records: what each request is, which count against Discord's global limit, the phase-2
window, the DM delay and the turn alerts against the driver's clock."""

from __future__ import annotations

import pytest

from benchmarks.perf_evidence import (
    Kind,
    Places,
    Sent,
    Turn,
    budget,
    check_alerts,
    deals,
    dm_delays,
    does_not_count,
    phase_window,
    sort_request,
)

TABLE, OTHER_TABLE, DM, PLAYER, APP = "100", "101", "900", 7, "555"
PLACES = Places(
    tables=frozenset({TABLE, OTHER_TABLE}),
    dm_users={DM: PLAYER},
    token_channels={"tok": int(TABLE), "dm-tok": 42},
)


def table_embed(title: str) -> dict[str, object]:
    return {"embeds": [{"title": title}]}


def test_every_kind_of_request_and_whether_discord_counts_it_globally() -> None:
    cases = [
        ("POST", f"/channels/{DM}/messages", table_embed("Your cards — hand #3"), Kind.DM),
        ("POST", f"/channels/{DM}/messages", table_embed("Your turn"), Kind.TURN_ALERT),
        ("PATCH", f"/channels/{DM}/messages/5", table_embed("Your cards"), Kind.DM_EDIT),
        ("POST", "/users/@me/channels", {"recipient_id": str(PLAYER)}, Kind.DM_OPEN),
        ("POST", f"/channels/{TABLE}/messages", table_embed("Stud · hand #3"), Kind.TABLE_POST),
        ("PATCH", f"/channels/{TABLE}/messages/5", {}, Kind.TABLE_EDIT),
        ("DELETE", f"/channels/{TABLE}/messages/5", None, Kind.OTHER_REST),
        ("PATCH", f"/webhooks/{APP}/tok/messages/@original", {}, Kind.TABLE_EDIT_TOKEN),
        ("PATCH", f"/webhooks/{APP}/tok/messages/77", {}, Kind.TABLE_EDIT_TOKEN),
        ("POST", f"/webhooks/{APP}/tok", {"content": "x"}, Kind.FOLLOWUP),
        ("DELETE", f"/webhooks/{APP}/tok/messages/77", None, Kind.WEBHOOK_OTHER),
        ("POST", "/interactions/1/tok/callback", {"type": 7, "data": {}}, Kind.CALLBACK),
        ("GET", "/users/@me", None, Kind.OTHER_REST),
    ]
    for method, path, body, kind in cases:
        assert sort_request(1.0, method, path, body, None, PLACES).kind is kind, path
    outside = {k for k in Kind if not k.budgeted}
    assert outside == {
        Kind.CALLBACK,
        Kind.FOLLOWUP,
        Kind.TABLE_EDIT_TOKEN,
        Kind.PRIVATE_EDIT_TOKEN,
        Kind.WEBHOOK_OTHER,
    }


def test_a_token_edit_of_a_private_answer_is_not_a_table_edit() -> None:
    path = f"/webhooks/{APP}/tok/messages/@original"
    private = sort_request(1.0, "PATCH", path, {}, {"flags": 64}, PLACES)
    public = sort_request(1.0, "PATCH", path, {}, {"flags": 0}, PLACES)
    assert (private.kind, public.kind) == (Kind.PRIVATE_EDIT_TOKEN, Kind.TABLE_EDIT_TOKEN)


def test_who_and_which_hand_a_request_concerns() -> None:
    dm = sort_request(
        1.0, "POST", f"/channels/{DM}/messages", table_embed("x — hand #3"), None, PLACES
    )
    assert (dm.user, dm.hand, dm.table, dm.deal) == (PLAYER, 3, None, False)
    post = sort_request(
        1.0, "POST", f"/channels/{TABLE}/messages", table_embed("Stud · hand #4"), None, PLACES
    )
    assert (post.table, post.hand, post.deal) == (int(TABLE), 4, True)
    opened = sort_request(1.0, "POST", "/users/@me/channels", {"recipient_id": "7"}, None, PLACES)
    assert opened.user == PLAYER
    # The ephemeral answer to /stud start marks a deal; another private answer does not.
    start = {"type": 4, "data": {"content": "Dealing hand #5.", "flags": 64}}
    mine = {"type": 4, "data": {"flags": 64, **table_embed("Your cards — hand #5")}}
    click = {"type": 7, "data": table_embed("Stud · hand #5")}
    path = "/interactions/1/tok/callback"
    assert sort_request(1.0, "POST", path, start, None, PLACES).deal
    assert not sort_request(1.0, "POST", path, mine, None, PLACES).deal
    answered = sort_request(1.0, "POST", path, click, None, PLACES)
    assert (answered.table, answered.hand, answered.deal) == (int(TABLE), 5, True)
    # An interaction outside the tables (a DM) concerns no table.
    elsewhere = sort_request(1.0, "POST", "/interactions/1/dm-tok/callback", click, None, PLACES)
    assert (elsewhere.table, elsewhere.deal) == (None, False)


def test_the_window_is_phase_two_less_what_a_finished_table_sent() -> None:
    table = int(TABLE)
    sent = [
        Sent(0.5, Kind.DM, user=PLAYER),  # phase 1
        Sent(1.0, Kind.TABLE_POST, table),
        Sent(5.0, Kind.TABLE_EDIT, table),  # after this table's last result
        Sent(5.0, Kind.DM, user=PLAYER),  # a late DM of its last hand: still counted
        Sent(5.0, Kind.TABLE_EDIT, int(OTHER_TABLE)),  # another table, still playing
        Sent(11.0, Kind.DM, user=PLAYER),  # after phase 2
    ]
    window = phase_window(sent, 1.0, 10.0, {table: 4.0})
    assert window == [sent[1], sent[3], sent[4]]


def test_per_hand_figures_and_the_hands_one_token_carries() -> None:
    window = (
        [Sent(float(i) / 10, Kind.DM) for i in range(40)]  # 40 DMs in 4 s
        + [Sent(0.05, Kind.DM_OPEN)] * 6
        + [Sent(1.0, Kind.TABLE_POST)] * 4
        + [Sent(1.0, Kind.CALLBACK)] * 100
        + [Sent(1.0, Kind.TABLE_EDIT_TOKEN)] * 50
    )
    fig = budget(window, hands=4, seconds=4.0, limit=45)
    assert fig.budgeted == 50 and fig.steady == 44
    assert fig.per_hand(fig.steady) == 11.0
    assert fig.hands_per_second == pytest.approx(45 / 11)
    assert fig.average_rate == 12.5  # 50 per 4 s: = per hand x hands / seconds
    # The busiest second counts only global-budget requests: the 100 callbacks at 1.0 s and
    # the token edits are not in it; 6 opens at 0.05 + DMs 0.0..0.9 + the 4 posts at 1.0.
    assert fig.busiest == 10 + 6 + 4
    assert fig.busiest >= fig.average_rate


def test_no_budget_request_means_no_bound_on_hands() -> None:
    fig = budget([Sent(1.0, Kind.CALLBACK)], hands=2, seconds=1.0, limit=45)
    assert fig.steady == 0 and fig.hands_per_second == float("inf")


def test_dm_delay_runs_from_the_first_sight_of_the_deal_to_the_first_dm() -> None:
    table = int(TABLE)
    sent = [
        Sent(0.1, Kind.TABLE_POST, table, hand=1, deal=True),  # dealt before phase 2
        Sent(0.3, Kind.DM, user=PLAYER, hand=1),
        Sent(2.0, Kind.CALLBACK, table, hand=2, deal=True),  # "Dealing hand #2."
        Sent(2.1, Kind.TABLE_POST, table, hand=2, deal=True),
        Sent(2.5, Kind.DM, user=PLAYER, hand=2),
        Sent(9.0, Kind.DM, user=PLAYER, hand=2),  # his 7th-street DM: not the deal's
        Sent(3.0, Kind.DM, user=99, hand=2),  # a player at no known table
    ]
    assert deals(sent) == {(table, 1): 0.1, (table, 2): 2.0}
    assert dm_delays(sent, {PLAYER: table}, since=1.0) == [pytest.approx(0.5)]


def turn(opened: float, shown: float, acted: float, user: int = PLAYER) -> Turn:
    return Turn(user, opened, shown, acted, acted + 0.01)


def test_turn_alerts_are_matched_to_turns_that_waited() -> None:
    turns = [
        turn(0.0, 0.02, 12.0),  # waited 12 s: its alert is right
        turn(20.0, 20.02, 21.0),  # waited 1 s: an alert at 30 s is not for it
        turn(40.0, 40.02, 60.0),  # waited 20 s: no alert came
        turn(70.0, 70.3, 80.0),  # 9.7 s by the driver's clock, 10.01 s by the bot's
    ]
    alerts = [(PLAYER, 10.05), (PLAYER, 30.0), (PLAYER, 80.05), (8, 5.0)]
    check = check_alerts(alerts, turns, delay=10.0, slack=0.5)
    assert (check.alerts, check.waited, check.near) == (4, 2, 1)
    assert (check.justified, check.early, check.unseen, check.missed) == (2, 1, 1, 1)


def test_no_alert_expected_when_alerts_are_off() -> None:
    check = check_alerts([(PLAYER, 5.0)], [turn(0.0, 0.0, 20.0)], delay=0.0, slack=0.5)
    assert (check.justified, check.early, check.missed) == (0, 1, 0)


def test_a_busy_machine_disowns_the_run() -> None:
    assert does_not_count(0.2) is None
    line = does_not_count(0.25)
    assert line is not None and line.startswith("DOES NOT COUNT:") and "0.25" in line
