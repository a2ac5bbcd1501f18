"""How a hand ends: uncalled chips go back, the last player wins unshown or every live hand
is shown and the pots are paid, or the hand is called off; then its result.

The transitions of state.py call these on the new state they are building (see R7.5, R8.1,
R8.4, R12.3); the rules themselves live in pots.py and showdown.py.
"""

from __future__ import annotations

from .events import Event, HandCancelled, HandEnded, UncalledReturned
from .hand import HandState
from .pots import Award, Pot, build_pots, uncalled_excess
from .showdown import (
    HandResult,
    PotResult,
    pot_results,
    show_order,
    showdown_awards,
    shown_hands,
    unshown_awards,
)

_new = tuple.__new__  # an event without its named tuple's Python-level __new__


def return_uncalled(s: HandState, events: list[Event]) -> None:
    """R7.5: the unmatched top of the largest contribution goes back to its owner.

    Chips that folded players put in above every live player's total (antes when
    everyone with chips folds to an all-in player, R3.6) are in no level anyone can
    win (R7.4, R8.4); they go back to whoever put them in, like an uncalled bet.
    """
    committed, folded = s.committed, s.folded
    top_live = max([chips for chips, out in zip(committed, folded, strict=True) if not out])
    most = max(committed)
    if most == top_live and committed.count(most) > 1:
        return  # the usual round end: the top is matched and nothing is above the live players
    # the lists are shared with the previous state until now (HandState._clone)
    s.committed, s.street_bets, s.stacks = committed[:], s.street_bets[:], s.stacks[:]
    s.returned = s.returned[:]
    committed = s.committed
    excess = uncalled_excess(committed)
    if excess is not None:
        _give_back(s, excess[0], excess[1], events)
    top_live = max([chips for chips, out in zip(committed, folded, strict=True) if not out])
    for i, chips in enumerate(committed):
        if chips > top_live:
            _give_back(s, i, chips - top_live, events)


def _give_back(s: HandState, i: int, chips: int, events: list[Event]) -> None:
    s.committed[i] -= chips
    s.street_bets[i] = max(0, s.street_bets[i] - chips)
    s.stacks[i] += chips
    s.returned[i] += chips
    events.append(UncalledReturned(s.labels[i], chips))


def finish_unshown(s: HandState, events: list[Event]) -> None:
    """R2.4: everyone else folded: no more cards; the last player wins unshown (see R8.4)."""
    s.to_act = None
    return_uncalled(s, events)
    (winner,) = [i for i in range(len(s.labels)) if not s.folded[i]]
    pots = build_pots(s.committed, s.folded)
    _settle(s, pots, unshown_awards(pots, winner), (), events)


def showdown(s: HandState, events: list[Event]) -> None:
    """After 7th street every live hand is shown (see R8.1, R8.3); each pot is awarded."""
    s.to_act = None
    order = show_order(s.button, s.folded, s.seventh_first, s.round.last_aggressor)
    rules = s.variant.rules
    events.extend(shown_hands(s.labels, order, s.cards, s.community, rules))
    pots = build_pots(s.committed, s.folded)
    awards = showdown_awards(pots, order, s.cards, s.community, rules)
    _settle(s, pots, awards, order, events)


def _settle(
    s: HandState,
    pots: list[Pot],
    awards: list[Award],
    order: tuple[int, ...],
    events: list[Event],
) -> None:
    results, payouts, awarded = pot_results(s.labels, pots, awards)
    events.extend(awarded)
    s.stacks = [chips + paid for chips, paid in zip(s.stacks, payouts, strict=True)]
    _close(s, results, payouts, tuple([s.labels[i] for i in order]), False, events)


def cancel(s: HandState, events: list[Event], reason: str) -> None:
    """R12.3: abort and give every chip back."""
    events.append(HandCancelled(reason))
    refunds = s.committed[:]
    s.returned, s.stacks = s.returned[:], s.stacks[:]  # shared with the previous state so far
    for i, chips in enumerate(refunds):
        s.stacks[i] += chips
        s.returned[i] += chips
    _close(s, (), [0] * len(s.labels), (), True, events)


def _close(
    s: HandState,
    pots: tuple[PotResult, ...],
    payouts: list[int],
    order: tuple[int, ...],
    cancelled: bool,
    events: list[Event],
) -> None:
    labels = s.labels
    s.to_act = None
    s.result = HandResult(
        pots=pots,
        returned={labels[i]: c for i, c in enumerate(s.returned) if c},
        payouts={labels[i]: c for i, c in enumerate(payouts) if c},
        final_stacks=dict(zip(labels, s.stacks, strict=True)),
        showdown_order=order,
        cancelled=cancelled,
    )
    final = tuple(zip(labels, s.stacks, strict=True))
    events.append(_new(HandEnded, (tuple(sorted(s.result.payouts.items())), final)))
