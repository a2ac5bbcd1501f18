"""docs/replay.md: "a wager the stack cannot cover goes all-in" (with R3.7 and R7.1).

A hand script names what the player did (``complete``, ``bet``, ``raise``, ``call``), not
which button the engine offered him; when his stack cannot cover that wager, the replay
plays the engine's all-in option for what is left: a short bring-in seat that completes
brings in all-in (R3.7), a raise or completion short of the call calls all-in (R7.1).
Each case is played in stud, stud/8 and razz, through :func:`replay_script` as a script
writer would write it; the scripts are written out, not built by the engine's helpers.
Test names carry ``replay_all_in`` (the rule of docs/replay.md) and the docs/rules.md rule met.
"""

from __future__ import annotations

from typing import Any

import pytest

from dealerbot.engine.replay import replay_script

GAMES = ["stud", "stud8", "razz"]
STAKES = {"ante": 1, "bring_in": 2, "small_bet": 5, "big_bet": 10}

# Seat 4 brings in on 3rd street (lowest door in stud and stud/8, highest in razz, R3.1,
# R14.2); seat 1 has the best board on 4th street and acts first there (R6.1, R14.3).
# Seat 1 wins at showdown in every game: four aces in stud and stud/8 (nobody has a low),
# the wheel in razz; seat 2's last three cards are filled by the replay (docs/replay.md).
CARDS: dict[str, dict[str, list[str | None]]] = {
    "stud": {
        "1": ["As", "Ad", "Ah", "Kh", "Ac", "Qd", "2d"],
        "2": ["9c", "8c", "9d", "8h"],
        "4": ["Ks", "Kd", "2s", "3s", "Kc", "Qs", "Qc"],
    },
    "razz": {
        "1": ["3c", "4d", "As", "2s", "5h", "Kd", "Qd"],
        "2": ["9c", "8c", "9d", "8h"],
        "4": ["Jc", "Jd", "Ks", "Qs", "Kc", "Qh", "Js"],
    },
}
CARDS["stud8"] = CARDS["stud"]


def script(game: str, stacks: dict[int, int], actions: list[dict[str, Any]]) -> dict[str, Any]:
    return {
        "variant": game,
        "stakes": STAKES,
        "seats": [{"seat": seat, "stack": stack} for seat, stack in stacks.items()],
        "button": 4,  # seat 1 is dealt first
        "cards": {seat: cards for seat, cards in CARDS[game].items() if int(seat) in stacks},
        "community": None,
        "actions": actions,
    }


def act(action: str, seat: int | None = None, amount: int | None = None) -> dict[str, Any]:
    step: dict[str, Any] = {"action": action}
    if seat is not None:
        step["seat"] = seat
    if amount is not None:
        step["amount"] = amount
    return step


def checks(n: int) -> list[dict[str, Any]]:
    return [act("check") for _ in range(n)]


def pots(result: dict[str, Any]) -> list[tuple[int, list[int]]]:
    assert result["ok"] is True, result
    return [(pot["amount"], pot["eligible"]) for pot in result["pots"]]


# --- bring-in and complete (R3.7) -------------------------------------------------------------


@pytest.mark.parametrize("game", GAMES)
def test_replay_all_in_r3_7_a_short_bring_in_seat_scripted_complete_brings_in_all_in(
    game: str,
) -> None:
    """Seat 4 has 1 chip after the ante: ``complete`` is the all-in bring-in of 1 (R3.7);
    seat 1 still calls the full 2, and the 1 nobody matched goes back (R7.5)."""
    result = replay_script(script(game, {1: 100, 4: 2}, [act("complete", 4), act("call", 1)]))
    assert pots(result) == [(4, [1, 4])]
    assert result["bring_in_seat"] == 4
    assert result["returned"] == {"1": 1}
    assert result["final_stacks"] == {"1": 102, "4": 0}


@pytest.mark.parametrize("game", GAMES)
def test_replay_all_in_r3_7_a_short_complete_checks_its_amount_against_the_all_in(
    game: str,
) -> None:
    """The all-in puts in what is left (1 chip): a script saying so is accepted, one saying
    the full completion (5) is refused in words, and nothing is played past it."""
    stacks = {1: 100, 4: 2}
    accepted = replay_script(script(game, stacks, [act("complete", 4, 1), act("call", 1, 2)]))
    assert accepted["ok"] is True, accepted
    refused = replay_script(script(game, stacks, [act("complete", 4, 5), act("call", 1)]))
    assert refused == {
        "ok": False,
        "error": "complete by seat 4 puts in 1 chips, not 5",
        "action_index": 0,
    }


@pytest.mark.parametrize("game", GAMES)
def test_replay_all_in_r7_1_a_complete_short_of_the_bring_in_calls_all_in(game: str) -> None:
    """Seat 1 faces the bring-in of 2 with 2 chips after the ante: ``complete`` calls all-in;
    seat 2 calls, which ends the round (R3.5), and the other two check it down."""
    actions = [act("bring_in", 4), act("complete", 1, 2), act("call", 2), *checks(8)]
    result = replay_script(script(game, {1: 3, 2: 100, 4: 100}, actions))
    assert pots(result) == [(9, [1, 2, 4])]
    assert result["final_stacks"] == {"1": 9, "2": 97, "4": 97}


# --- bet, raise and call (R7.1) ---------------------------------------------------------------


@pytest.mark.parametrize("game", GAMES)
def test_replay_all_in_r7_1_a_raise_short_of_the_call_on_3rd_street_calls_all_in(game: str) -> None:
    """Seat 1 completes to 5; seat 2, with 3 chips after the ante, scripts a raise: he calls
    his 3 all-in; seat 4 calls, and the two with chips check it down."""
    actions = [act("bring_in", 4), act("complete", 1), act("raise", 2, 3), act("call", 4)]
    result = replay_script(script(game, {1: 100, 2: 4, 4: 100}, actions + checks(8)))
    assert pots(result) == [(12, [1, 2, 4]), (4, [1, 4])]
    assert result["final_stacks"]["2"] == 0


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("wager", ["raise", "call"])
def test_replay_all_in_r7_1_a_raise_or_call_short_of_a_4th_street_bet_calls_all_in(
    game: str, wager: str
) -> None:
    """Everyone calls the bring-in; on 4th street seat 1 bets 5 and seat 4, with 3 chips
    left, scripts a raise or a call: each is his call of 3, all-in."""
    actions = [act("bring_in", 4), act("call", 1), act("call", 2)]
    actions += [act("bet", 1, 5), act("call", 2), act(wager, 4, 3), *checks(6)]
    result = replay_script(script(game, {1: 100, 2: 100, 4: 6}, actions))
    assert pots(result) == [(3 + 6 + 9, [1, 2, 4]), (4, [1, 2])]
    assert result["final_stacks"]["4"] == 0


@pytest.mark.parametrize("game", GAMES)
def test_replay_all_in_r7_1_a_bet_the_stack_cannot_cover_bets_all_in(game: str) -> None:
    """Seat 1 opens 4th street with 2 chips left: his scripted bet is a bet of 2, all-in."""
    actions = [act("bring_in", 4), act("call", 1), act("bet", 1, 2), act("call", 4, 2)]
    result = replay_script(script(game, {1: 5, 4: 100}, actions))
    assert pots(result) == [(10, [1, 4])]
    assert result["final_stacks"] == {"1": 10, "4": 95}


# --- what the rule does not cover ---------------------------------------------------------------


@pytest.mark.parametrize("game", GAMES)
def test_replay_all_in_r4_2_a_raise_past_the_cap_is_refused_when_the_stack_covers_it(
    game: str,
) -> None:
    """A bet and three raises cap the round (R4.2): a fourth raise is refused, not turned
    into a call, because the stack could cover it."""
    actions = [act("bring_in", 4), act("complete", 1), act("raise", 4)]
    actions += [act("raise", 1), act("raise", 4), act("raise", 1)]
    result = replay_script(script(game, {1: 100, 4: 100}, actions))
    assert result["ok"] is False and result["action_index"] == 5
    assert result["error"].startswith("seat 1 cannot raise now; the choices are: Fold, Call")


@pytest.mark.parametrize("game", GAMES)
def test_replay_all_in_r3_4_a_short_stack_scripting_the_wrong_wager_is_refused(game: str) -> None:
    """The all-in stands for the wager the round names (a raise facing a bet); a ``bet``
    facing a bet, or a ``raise`` before the completion, is a wrong script, refused."""
    actions = [act("bring_in", 4), act("call", 1), act("call", 2)]
    actions += [act("bet", 1, 5), act("call", 2), act("bet", 4)]
    result = replay_script(script(game, {1: 100, 2: 100, 4: 6}, actions))
    assert result == {
        "ok": False,
        "error": "seat 4 cannot bet now; the choices are: Fold, Call 3 (all-in)",
        "action_index": 5,
    }
    result = replay_script(script(game, {1: 3, 4: 100}, [act("bring_in", 4), act("raise", 1)]))
    assert result["ok"] is False and result["action_index"] == 1


@pytest.mark.parametrize("game", GAMES)
def test_replay_all_in_r4_6_a_short_stack_cannot_check_a_bet(game: str) -> None:
    """Only wagers go all-in: a check facing the bring-in is refused as before."""
    result = replay_script(script(game, {1: 3, 4: 100}, [act("bring_in", 4), act("check", 1)]))
    assert result == {
        "ok": False,
        "error": "seat 1 cannot check now; the choices are: Fold, Call 2 (all-in)",
        "action_index": 1,
    }
