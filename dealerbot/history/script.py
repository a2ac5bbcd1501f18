"""A recorded hand as an engine hand script (docs/replay.md), so the engine can replay it.

Histories write what the site did; the script says what the engine must be asked. The two
differ in wording only: a completion is the first full wager on 3rd street (R3.4), written
``bets`` or ``raises ... to <small bet>``; on 4th street with an open pair a wager of the big
size is ``bet_big`` / ``raise_big`` (R4.4). Every wager carries the chips it put in, so the
engine checks each bet size against the site's. Stacks cover exactly what the site let a
player put in, and the engine turns a wager the stack cannot cover into an all-in.
"""

from __future__ import annotations

from typing import Any

from .model import Action, Hand, Move, Street

JsonDict = dict[str, Any]


def to_hand_script(hand: Hand, bring_in: int | None = None) -> JsonDict:
    """The hand script for ``hand``; ``bring_in`` overrides a bring-in the hand does not show.

    Seats are listed in seat-number order (clockwise) and the button is the last of them,
    so dealing starts at the lowest seat number, as on PokerStars, which has no button in
    stud. Cards unknown to the history are null; the engine fills them.
    """
    stakes = hand.stakes
    bring_in = bring_in if bring_in is not None else stakes.bring_in
    if bring_in is None:
        raise ValueError(
            f"hand #{hand.hand_id}: the bring-in is not shown; learn it from other hands "
            "at these stakes (infer_bring_ins) or pass bring_in="
        )
    seat_of = {seat.name: seat.number for seat in hand.seats}
    return {
        "variant": hand.game.value,
        "stakes": {
            "ante": stakes.ante,
            "bring_in": bring_in,
            "small_bet": stakes.small_bet,
            "big_bet": stakes.big_bet,
        },
        "seats": [
            {"seat": seat.number, "stack": seat.stack, "name": seat.name} for seat in hand.seats
        ],
        "button": hand.seats[-1].number,
        "cards": {str(seat_of[hole.player]): list(hole.cards) for hole in hand.hole_cards},
        "community": hand.community,
        "actions": [
            _script_action(action, name, seat_of[action.player])
            for action, name in zip(hand.actions, script_action_names(hand), strict=True)
        ],
    }


def script_action_names(hand: Hand) -> list[str]:
    """The hand-script action name of each of the hand's actions, in order."""
    names: list[str] = []
    completed = False  # 3rd street: has the first full wager been made?
    big_made = False  # 4th street: has a big bet or raise been made?
    level = 0  # highest total on the current street
    street: Street | None = None
    for action in hand.actions:
        if action.street is not street:
            street, level, big_made = action.street, 0, False
        names.append(_name(hand, action, level, completed, big_made))
        if action.move in (Move.BET, Move.RAISE):
            if action.street is Street.THIRD:
                completed = True
            increment = action.total - level
            if _is_big(hand, action, increment):
                big_made = True
        level = max(level, action.total)
    return names


def _name(hand: Hand, action: Action, level: int, completed: bool, big_made: bool) -> str:
    move = action.move
    if move in (Move.BRING_IN, Move.CALL, Move.CHECK, Move.FOLD):
        return str(move.value)
    if action.street is Street.THIRD and not completed:
        return "complete"
    increment = action.total - level
    if not big_made and _is_big(hand, action, increment):
        return "bet_big" if move is Move.BET else "raise_big"
    return str(move.value)


def _is_big(hand: Hand, action: Action, increment: int) -> bool:
    """A 4th-street wager above the small bet under an open pair is the big option (R4.4);
    an all-in for less than that still asked for it if it went past the small bet."""
    return (
        hand.double_bet_allowed
        and action.street is Street.FOURTH
        and increment > hand.stakes.small_bet
    )


def _script_action(action: Action, name: str, seat: int) -> JsonDict:
    step: JsonDict = {"seat": seat, "action": name}
    if action.move not in (Move.CHECK, Move.FOLD):
        step["amount"] = action.amount
    return step
