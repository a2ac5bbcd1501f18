"""Fixed-limit wager sizes: bet sizes, the cap, the open-pair option and short all-ins.

R4.1 (5 on 3rd/4th, 10 from 5th), R4.2-R4.3 (one bet and three raises, heads-up too),
R4.4-R4.5 (open pair on 4th street in stud: 5 or 10; after a 10 everything is 10),
R4.6 (check only with nothing pending, never on 3rd street), R7.1-R7.3 (all-ins:
half a bet or more counts as full and reopens; less neither reopens nor counts).
"""

from __future__ import annotations

from .events import ActionKind, LegalAction


def half_bet(size: int) -> int:
    """R7.2: half a full bet, rounded up (half of 5 is 3)."""
    return (size + 1) // 2


def counts_as_full(increment: int, size: int) -> bool:
    """R7.2/R7.3: a wager of at least half a full bet over the last full level counts as full."""
    return increment >= half_bet(size)


def clamp(kind: ActionKind, to: int, street_bet: int, stack: int) -> LegalAction:
    """An option to reach ``to``; a wager the stack cannot cover goes all-in (R7.1)."""
    amount = to - street_bet
    if amount >= stack:
        return LegalAction(kind, stack, street_bet + stack, True)
    return LegalAction(kind, amount, to, False)


def wager_kinds(street: int, bets_made: int) -> tuple[ActionKind, ActionKind]:
    """The (normal, big) names of an aggressive action at this point of the round."""
    if bets_made == 0:
        if street == 3:
            return ActionKind.COMPLETE, ActionKind.COMPLETE
        return ActionKind.BET, ActionKind.BET_BIG
    return ActionKind.RAISE, ActionKind.RAISE_BIG


BIG_ALIASES = {ActionKind.BET_BIG: ActionKind.BET, ActionKind.RAISE_BIG: ActionKind.RAISE}
