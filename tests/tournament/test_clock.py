"""The level clock (issue 18): running time only, the host's level up and down, a new level
only at the next deal, and a restart from the stored dict at the same level and position."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from dealerbot.tournament import ClockError, LevelClock, LevelStatus

FIVE_MINUTES = 300
T0 = 1_750_000_000.0  # any epoch will do; a wall-clock-sized one checks float precision


def start() -> LevelClock:
    return LevelClock.start(FIVE_MINUTES, T0)


def test_the_level_rises_with_running_time() -> None:
    clock = start()
    assert clock.status(T0) == LevelStatus(1, 300, paused=False, dealt=None)
    assert clock.status(T0 + 108).seconds_left == 192
    assert clock.level_at(T0 + 299.5) == 1
    assert clock.status(T0 + 300) == LevelStatus(2, 300, paused=False, dealt=None)
    assert clock.level_at(T0 + 3 * 300 + 1) == 4


def test_paused_time_does_not_count() -> None:
    clock = start().pause(T0 + 100)
    assert clock.status(T0 + 10_000) == LevelStatus(1, 200, paused=True, dealt=None)
    clock = clock.resume(T0 + 10_000)
    assert clock.status(T0 + 10_150).seconds_left == 50
    assert clock.level_at(T0 + 10_200) == 2
    assert clock.running_time(T0 + 10_200) == 300


def test_pause_and_resume_are_refused_twice() -> None:
    paused = start().pause(T0 + 1)
    with pytest.raises(ClockError, match="already paused"):
        paused.pause(T0 + 2)
    with pytest.raises(ClockError, match="already running"):
        paused.resume(T0 + 2).resume(T0 + 3)


def test_level_up_moves_to_the_next_level_with_its_whole_time() -> None:
    clock = start().level_up(T0 + 120)  # 3 minutes were left of level 1
    assert clock.status(T0 + 120) == LevelStatus(2, 300, paused=False, dealt=None)
    assert clock.level_at(T0 + 419) == 2
    assert clock.level_at(T0 + 420) == 3
    assert clock.level_up(T0 + 500).level_up(T0 + 500).level_at(T0 + 500) == 5


def test_level_down_moves_back_and_stops_at_level_one() -> None:
    clock = start()
    at_three = clock.level_at(T0 + 700)
    assert at_three == 3
    down = clock.level_down(T0 + 700)
    assert down.status(T0 + 700) == LevelStatus(2, 300, paused=False, dealt=None)
    with pytest.raises(ClockError, match="level 1: there is no lower level"):
        clock.level_down(T0 + 10)
    with pytest.raises(ClockError, match="no lower level"):
        down.level_down(T0 + 700).level_down(T0 + 700)


def test_a_level_move_while_paused_stays_paused() -> None:
    clock = start().pause(T0 + 60).level_up(T0 + 5_000)
    assert clock.status(T0 + 9_000) == LevelStatus(2, 300, paused=True, dealt=None)
    assert clock.resume(T0 + 9_000).level_at(T0 + 9_300) == 3


def test_a_new_level_reaches_the_table_only_at_the_next_deal() -> None:
    """A hand dealt in level 1 plays to its end at level 1, even when the level ends or the
    host moves it up during the hand; the next deal plays the new level."""
    clock, dealt = start().deal(T0 + 290)
    assert dealt == 1
    # the hand runs past the level's end, and the host moves the level up meanwhile
    clock = clock.level_up(T0 + 320)
    status = clock.status(T0 + 330)
    assert (status.dealt, status.level) == (1, 3)  # the hand in play: 1; the next deal: 3
    clock, dealt = clock.deal(T0 + 340)
    assert dealt == 3 and clock.status(T0 + 340).dealt == 3


def test_time_going_backwards_is_refused_and_changes_nothing() -> None:
    clock = start()
    with pytest.raises(ClockError, match="before the clock last started"):
        clock.status(T0 - 1)
    with pytest.raises(ClockError, match="before the clock last started"):
        clock.level_up(T0 - 1)
    assert clock == start()
    with pytest.raises(ClockError, match="finite number of seconds"):
        LevelClock.start(FIVE_MINUTES, float("nan"))


@pytest.mark.parametrize("seconds", [0, -5, True, 2.5])
def test_a_level_lasts_whole_seconds(seconds: Any) -> None:
    with pytest.raises(ClockError, match="a level lasts at least one second"):
        LevelClock.start(seconds, T0)


def test_a_restart_resumes_the_same_level_and_position() -> None:
    clock = start().level_up(T0 + 100).pause(T0 + 250).resume(T0 + 400)
    clock, _ = clock.deal(T0 + 500)
    before = clock.status(T0 + 500)
    saved = json.loads(json.dumps(clock.to_dict(T0 + 500)))  # what a store keeps
    later = T0 + 86_400  # the bot was down a day: that time does not count
    restored = LevelClock.from_dict(saved, later)
    assert restored.status(later) == before == LevelStatus(2, 50, paused=False, dealt=2)
    assert restored.level_at(later + 50) == 3


def test_a_paused_clock_restarts_paused() -> None:
    clock = start().pause(T0 + 30)
    restored = LevelClock.from_dict(clock.to_dict(T0 + 99), T0 + 5_000)
    assert restored.status(T0 + 9_000) == LevelStatus(1, 270, paused=True, dealt=None)


@pytest.mark.parametrize(
    ("damage", "text"),
    [
        ({"version": 2}, "version 2 is not known"),
        ({"running": "yes"}, "'running' must be true or false"),
        ({"from_level": 0}, "levels are numbered from 1"),
        ({"level_seconds": None}, "a level lasts at least one second"),
        ({"elapsed": -1}, "elapsed must be a number of seconds"),
        ({"from_elapsed": 10**6}, "cannot begin after"),
    ],
)
def test_a_stored_clock_that_does_not_read_is_refused(damage: dict[str, Any], text: str) -> None:
    data = {**start().to_dict(T0 + 10), **damage}
    with pytest.raises(ClockError, match=text):
        LevelClock.from_dict(data, T0 + 20)


def test_a_stored_clock_missing_a_field_is_refused() -> None:
    data = start().to_dict(T0 + 10)
    del data["dealt"]
    with pytest.raises(ClockError, match="not readable"):
        LevelClock.from_dict(data, T0 + 20)


STEPS = st.lists(
    st.tuples(
        st.sampled_from(["pause", "resume", "up", "down", "deal", "save"]), st.floats(0, 2_000)
    ),
    max_size=30,
)


def refused(step: str, status: LevelStatus) -> bool:
    """Whether the clock must refuse ``step`` in ``status``."""
    return (
        (step == "pause" and status.paused)
        or (step == "resume" and not status.paused)
        or (step == "down" and status.level == 1)
    )


@given(STEPS)
def test_any_history_keeps_level_and_time_left_in_range_and_survives_a_restart(
    steps: list[tuple[str, float]],
) -> None:
    clock, now = start(), T0
    for step, wait in steps:
        now += wait
        before = clock.status(now)
        if refused(step, before):
            with pytest.raises(ClockError):
                apply(clock, step, now)
            continue
        clock, now = apply(clock, step, now)
        status = clock.status(now)
        assert status.level == before.level + {"up": 1, "down": -1}.get(step, 0)
        assert status.paused == {"pause": True, "resume": False}.get(step, before.paused)
        if step in ("up", "down"):
            assert status.seconds_left == FIVE_MINUTES
        elif step == "deal":
            assert status.dealt == before.level
        else:
            assert status.seconds_left == pytest.approx(before.seconds_left)
        assert 0 < status.seconds_left <= FIVE_MINUTES


def apply(clock: LevelClock, step: str, now: float) -> tuple[LevelClock, float]:
    if step == "pause":
        return clock.pause(now), now
    if step == "resume":
        return clock.resume(now), now
    if step == "up":
        return clock.level_up(now), now
    if step == "down":
        return clock.level_down(now), now
    if step == "deal":
        return clock.deal(now)[0], now
    later = now + 1_000  # a restart a while later: the time down does not count
    return LevelClock.from_dict(clock.to_dict(now), later), later
