"""One betting round: what the seat to act may do, for how much, and what a wager changes.

Implements: R3.2-R3.5, R3.7 (the bring-in round's options), R4.1-R4.6 (bet sizes, the cap,
the open-pair big bet, check and fold), R7.1-R7.3 (short all-ins), R14.4 (razz: no big
bet on 4th street; the variant table says so).

A :class:`Round` is the round's wager state as a frozen value; :func:`option` says what one
kind of action may do in it (:func:`options` lists them all) and :func:`after_wager` returns
the round a wager leaves behind. The hand state keeps the chips and calls these, so what is
offered and what is accepted share one source. Who brings in and who acts first come from
opener.py (see R3.1, R6.1).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from .cards import RANK_INDEX, Card
from .events import ActionKind, LegalAction
from .variants import CAP_BETS, MAX_PLAYERS, Stakes, Variant


class Round(NamedTuple):
    """The wager state of one betting round; a wager replaces it, a call or check keeps it.

    A NamedTuple rather than a frozen dataclass: one is built on every wager, and a tuple
    is built several times faster (the engine benchmark's action latency shows it).
    """

    street: int
    stakes: Stakes
    current_bet: int = 0  # what every seat must match
    full_level: int = 0  # the last full bet or raise (R7.2), the base of the next raise
    bets_made: int = 0  # full bets and raises so far, toward the cap (R4.2)
    big_mode: bool = False  # a big bet was made: every raise is big (R4.4)
    open_pair: bool = False  # an open pair shows: the big bet may be chosen (R4.4)
    bring_in_due: bool = False  # 3rd street, nobody has brought in yet (R3.2, R3.6)
    bring_in_forced: bool = False  # the seat to bring in may not fold (R3.2)
    last_aggressor: int | None = None  # seat index of the last bet or raise


def bet_size(stakes: Stakes, street: int) -> int:
    """R4.1: the small bet on 3rd and 4th street, the big bet from 5th."""
    return stakes.small_bet if street <= 4 else stakes.big_bet


def half_bet(size: int) -> int:
    """R7.2: half a full bet, rounded up (half of 5 is 3)."""
    return (size + 1) // 2


def counts_as_full(increment: int, size: int) -> bool:
    """R7.2/R7.3: a wager of at least half a full bet over the last full level counts as full."""
    return increment >= half_bet(size)


def has_open_pair(variant: Variant, boards: Sequence[Sequence[Card] | None]) -> bool:
    """R4.4: a live player's two 4th-street up cards pair (never in stud/8 or razz, R4.5, R14.4)."""
    if not variant.rules.open_pair_big_bet:
        return False
    rank = RANK_INDEX
    for board in boards:
        if board is not None and len(board) == 2 and rank[board[0]] == rank[board[1]]:
            return True
    return False


def clamp(kind: ActionKind, to: int, street_bet: int, stack: int) -> LegalAction:
    """An option to reach ``to``; a wager the stack cannot cover goes all-in (R7.1)."""
    amount = to - street_bet
    if amount >= stack:
        return LegalAction(kind, stack, street_bet + stack, True)
    return LegalAction(kind, amount, to, False)


def wager_kinds(street: int, bets_made: int) -> tuple[ActionKind, ActionKind]:
    """The (normal, big) names of an aggressive action at this point of the round (R3.4)."""
    if bets_made == 0:
        if street == 3:
            return ActionKind.COMPLETE, ActionKind.COMPLETE
        return ActionKind.BET, ActionKind.BET_BIG
    return ActionKind.RAISE, ActionKind.RAISE_BIG


BIG_ALIASES = {ActionKind.BET_BIG: ActionKind.BET, ActionKind.RAISE_BIG: ActionKind.RAISE}


_FOLD, _CHECK, _CALL = ActionKind.FOLD, ActionKind.CHECK, ActionKind.CALL
_BRING_IN, _COMPLETE = ActionKind.BRING_IN, ActionKind.COMPLETE
_new_option = tuple.__new__  # LegalAction without its Python-level __new__: the hot path


def _named_after_bring_in(street: int, bets_made: int) -> tuple[ActionKind, ...]:
    normal, big = wager_kinds(street, bets_made)
    return (_FOLD, _CHECK, _CALL, normal) if big is normal else (_FOLD, _CHECK, _CALL, normal, big)


_BRING_IN_ROUND = (_FOLD, _BRING_IN, _COMPLETE)
_NAMED = {  # (3rd street, no bet yet) -> the kinds that name an action once the bring-in is in
    (street == 3, bets == 0): _named_after_bring_in(street, bets)
    for street in (3, 4)
    for bets in (0, 1)
}


def kinds_named(rnd: Round) -> tuple[ActionKind, ...]:
    """The kinds that can name an action at this point of the round, in the order options
    are listed (passive first, then the wagers as :func:`wager_kinds` names them, the plain
    one before the big); :func:`option` offers no other."""
    if rnd.bring_in_due:
        return _BRING_IN_ROUND
    return _NAMED[rnd.street == 3, rnd.bets_made == 0]


def option(
    rnd: Round, stack: int, street_bet: int, acted: bool, kind: ActionKind
) -> LegalAction | None:
    """The option ``kind`` names for the seat to act, or None when it is not offered.

    ``stack`` behind, ``street_bet`` in this round already, ``acted`` whether it acted since
    the last full bet or raise.  The one rule of what may be done: :func:`options` lists it
    for each kind :func:`kinds_named` names, and the hand's ``apply`` asks it for the one
    kind an action names (building every option on each action cost a sixth of a hand's
    time), so what is offered and what is accepted cannot drift apart.
    """
    if rnd.bring_in_due:  # R3.2 forced bring-in, or R3.6 nobody forced
        stakes = rnd.stakes
        if kind is _FOLD:
            if rnd.bring_in_forced:
                return None
            return _new_option(LegalAction, (_FOLD, 0, street_bet, False))
        if kind is _BRING_IN:
            return clamp(_BRING_IN, stakes.bring_in, street_bet, stack)
        if kind is _COMPLETE:
            complete = clamp(_COMPLETE, stakes.small_bet, street_bet, stack)
            bring = clamp(_BRING_IN, stakes.bring_in, street_bet, stack)
            return complete if complete.to > bring.to else None
        return None
    current = rnd.current_bet
    to_call = current - street_bet
    if kind is _CALL or kind is _FOLD:  # R4.6: fold only facing a wager
        if to_call <= 0:
            return None
        if kind is _FOLD:
            return _new_option(LegalAction, (_FOLD, 0, street_bet, False))
        if to_call >= stack:  # R7.1: a call the stack cannot cover goes all-in
            return _new_option(LegalAction, (_CALL, stack, street_bet + stack, True))
        return _new_option(LegalAction, (_CALL, to_call, current, False))
    if kind is _CHECK:  # R4.6: only with nothing pending (never on 3rd street: the bring-in is)
        return _new_option(LegalAction, (_CHECK, 0, street_bet, False)) if to_call <= 0 else None
    if kind is _BRING_IN or stack <= to_call or acted or rnd.bets_made >= CAP_BETS:  # R4.2, R4.3
        return None
    normal_kind, big_kind = wager_kinds(rnd.street, rnd.bets_made)
    if kind is not normal_kind and kind is not big_kind:
        return None
    stakes = rnd.stakes
    size = stakes.big_bet if rnd.big_mode else bet_size(stakes, rnd.street)
    normal = clamp(normal_kind, rnd.full_level + size, street_bet, stack)
    if kind is normal_kind:
        return normal
    if rnd.open_pair and not rnd.big_mode:
        big = clamp(big_kind, rnd.full_level + stakes.big_bet, street_bet, stack)
        if big.to > normal.to:
            return big
    return None


def options(rnd: Round, stack: int, street_bet: int, acted: bool) -> tuple[LegalAction, ...]:
    """What the seat to act may do: :func:`option` for each kind :func:`kinds_named` names."""
    found = [option(rnd, stack, street_bet, acted, kind) for kind in kinds_named(rnd)]
    return tuple([choice for choice in found if choice is not None])


def pick(choices: Sequence[LegalAction], kind: ActionKind) -> LegalAction | None:
    """The choice ``kind`` names; ``bet_big``/``raise_big`` mean the plain wager where no
    big choice exists (docs/replay.md)."""
    for choice in choices:
        if choice.kind is kind:
            return choice
    alias = BIG_ALIASES.get(kind)
    if alias is not None:
        for choice in choices:
            if choice.kind is alias:
                return choice
    return None


ROUND_KEPT = (_CALL, _CHECK, _FOLD)
"""The actions that leave the round's wager state as it is (most actions): the hand's
``apply`` need not ask :func:`after_wager` about them."""


def after_wager(rnd: Round, option: LegalAction, seat: int) -> tuple[Round, bool]:
    """The round after ``seat`` took ``option``, and whether the wager reopened the betting."""
    kind = option.kind
    if kind in ROUND_KEPT:
        return rnd, False
    if kind is ActionKind.BRING_IN:  # R3.7: others still call the full bring-in
        current = max(rnd.stakes.bring_in, option.to)
        return _replaced(rnd, current, rnd.full_level, rnd.bets_made, rnd.big_mode, None), False
    stakes = rnd.stakes
    big = kind is ActionKind.BET_BIG or kind is ActionKind.RAISE_BIG
    if kind is ActionKind.COMPLETE:
        size = stakes.small_bet
    elif big or rnd.big_mode:
        size = stakes.big_bet
    else:
        size = bet_size(stakes, rnd.street)
    increment = option.to - rnd.full_level
    full_level, bets_made, big_mode = rnd.full_level, rnd.bets_made, rnd.big_mode
    reopened = counts_as_full(increment, size)
    if reopened:  # R7.2: reopens and counts toward the cap
        full_level = option.to
        bets_made += 1
        if big and increment > stakes.small_bet:
            big_mode = True  # R4.4: after a 10, every raise is 10
    current = max(rnd.current_bet, option.to)
    return _replaced(rnd, current, full_level, bets_made, big_mode, seat), reopened


def _replaced(
    rnd: Round, current: int, full_level: int, bets_made: int, big_mode: bool, aggressor: int | None
) -> Round:
    """The round with a wager's effects; the bring-in is no longer due."""
    return Round(
        rnd.street,
        rnd.stakes,
        current,
        full_level,
        bets_made,
        big_mode,
        rnd.open_pair,
        False,
        rnd.bring_in_forced,
        rnd.last_aggressor if aggressor is None else aggressor,
    )


def _seats_after(n: int) -> tuple[tuple[int, ...], ...]:
    """For each seat of ``n``: every seat clockwise after it, ending with itself."""
    return tuple(tuple((last + k) % n for k in range(1, n + 1)) for last in range(n))


_SEATS_AFTER = tuple(_seats_after(n) for n in range(MAX_PLAYERS + 1))  # no modulo per seat


def next_to_act(
    last: int,
    current_bet: int,
    folded: Sequence[bool],
    stacks: Sequence[int],
    acted: Sequence[bool],
    street_bets: Sequence[int],
) -> int | None:
    """The next seat after ``last`` that still owes an action, or None: the round is over.

    A seat owes one if it can act (has chips, has not folded) and has not acted since the
    last full bet or raise, or is short of the bet. After a bring-in that everyone called,
    nobody owes one: the bring-in player gets no option (R3.5; the round's end, see R5.1).
    """
    for j in _SEATS_AFTER[len(folded)][last]:
        if not folded[j] and stacks[j] > 0 and (not acted[j] or street_bets[j] < current_bet):
            return j
    return None
