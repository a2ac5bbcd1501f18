"""4th to 7th street: the made hand against the board's threat.

A hand that is clearly best (a full house; trips or a made straight or flush where no board
shows a pair or a draw; in razz a made six low, or a made low no opponent's board can beat;
in stud/8 a low with a straight or better) is PREMIUM: bet and raise. A hand that clearly
cannot win facing a bet (no pair and no draw where a board shows a pair, a hand a board
beats on its face on 7th street, no low possible without a high hand) is TRASH: fold. The
rest is close and goes to the Monte Carlo equity (strategy.py).
"""

from __future__ import annotations

from collections import Counter

from dealerbot.engine.evaluate import HandCategory, best_high, best_low
from dealerbot.engine.opener import board_rank, low_board_rank

from .reading import (
    Opponent,
    Plan,
    Reading,
    Tier,
    cards_text,
    high_of,
    low_of,
    low_text,
    plural,
    singular,
)

__all__ = ["later"]

_LOW = 8  # the eight-or-better qualifier (R10.2)
_FINAL_CARDS = 7  # every hand that reaches the showdown plays seven cards (R12.1 included)
# Board classes of opener.board_rank (high card .. quads) as the hand categories they show.
_BOARD_CATEGORY = (
    HandCategory.HIGH_CARD,
    HandCategory.PAIR,
    HandCategory.TWO_PAIR,
    HandCategory.TRIPS,
    HandCategory.FULL_HOUSE,
    HandCategory.QUADS,
)


def later(reading: Reading) -> Plan:
    """The plan of the seat's hand on 4th to 7th street."""
    if reading.lowball:
        return _razz(reading)
    if reading.split_low:
        return _stud8(reading)
    return _stud(reading)


# --- the high hand ---------------------------------------------------------------------


def _made(reading: Reading) -> tuple[HandCategory, str, int]:
    """(category, name, rank of its biggest group) of the seat's cards so far."""
    cards = reading.playing
    counts = Counter(high_of(card) for card in cards)
    groups = sorted(((n, rank) for rank, n in counts.items()), reverse=True)
    size, top = groups[0]
    if len(cards) >= 5:
        hand = best_high(cards)
        return hand.category, hand.name[0].lower() + hand.name[1:], top
    if size == 4:
        return HandCategory.QUADS, f"four {plural(top)}", top
    if size == 3:
        return HandCategory.TRIPS, f"three of a kind, {plural(top)}", top
    if size == 2 and groups[1][0] == 2:
        return HandCategory.TWO_PAIR, f"two pair, {plural(top)} and {plural(groups[1][1])}", top
    if size == 2:
        return HandCategory.PAIR, f"pair of {plural(top)}", top
    return HandCategory.HIGH_CARD, f"{singular(top)} high", top


def _suited(cards: tuple[int, ...]) -> int:
    """The most cards of one suit."""
    return max(Counter(card % 4 for card in cards).values(), default=0)


def _straightish(cards: tuple[int, ...], size: int) -> bool:
    """``size`` different ranks within five (A-2-3-4 counts, the ace low)."""
    for ace in (14, 1):
        ranks = sorted({ace if high_of(c) == 14 else high_of(c) for c in cards})
        for i in range(len(ranks) - size + 1):
            if ranks[i + size - 1] - ranks[i] <= 4:
                return True
    return False


def _has_draw(reading: Reading) -> bool:
    """Four to a flush or a straight with a card to come."""
    each, community = reading.to_come
    if not each and not community:
        return False
    cards = reading.playing
    return _suited(cards) >= 4 or _straightish(cards, 4)


def _board_text(opponent: Opponent) -> str:
    value = board_rank(opponent.up)
    kind = value[0]
    show = f"seat {opponent.seat} shows {cards_text(opponent.up)}"
    if kind == 1:
        return f"{show}, a pair of {plural(value[1])}"
    if kind == 2:
        return f"{show}, two pair"
    if kind >= 3:
        return f"{show}, {plural(value[1])} or better"
    if _suited(opponent.up) >= 3:
        return f"{show}, three suited"
    if len(opponent.up) >= 3 and _straightish(opponent.up, 3):
        return f"{show}, three to a straight"
    return show


def _strongest_board(reading: Reading) -> Opponent:
    return max(reading.opponents, key=lambda o: (board_rank(o.up), -o.seat))


def _drawish(opponent: Opponent) -> bool:
    up = opponent.up
    return len(up) >= 3 and (_suited(up) >= 3 or _straightish(up, 3))


def _high_plan(reading: Reading) -> tuple[Plan | None, str, HandCategory, str]:
    """The clear high-hand cases, and the words for the rest (threat, category, name)."""
    category, name, top = _made(reading)
    strongest = _strongest_board(reading)
    board = board_rank(strongest.up)
    showing = _BOARD_CATEGORY[board[0]]
    no_pair = showing == HandCategory.HIGH_CARD
    drawish = any(_drawish(o) for o in reading.opponents)
    threat = "opponents show no pair or draw" if no_pair and not drawish else _board_text(strongest)
    if category >= HandCategory.FULL_HOUSE or (
        category >= HandCategory.TRIPS and no_pair and not drawish
    ):
        return Plan(Tier.PREMIUM, f"{name}, {threat}"), threat, category, name
    if reading.to_call > 0:
        each, community = reading.to_come
        last = not each and not community
        beaten = showing > category or (showing == category == HandCategory.PAIR and board[1] > top)
        if category == HandCategory.HIGH_CARD and not _has_draw(reading) and (last or not no_pair):
            return Plan(Tier.TRASH, f"{name} and no draw; {threat}"), threat, category, name
        if last and beaten and not reading.split_low:
            return Plan(Tier.TRASH, f"{name}; {threat}, which beats it"), threat, category, name
    return None, threat, category, name


def _stud(reading: Reading) -> Plan:
    plan, threat, _, name = _high_plan(reading)
    return plan if plan is not None else Plan(Tier.PLAYABLE, f"{name}; {threat}")


# --- the lows ----------------------------------------------------------------------------


def _cards_to_come(reading: Reading) -> int:
    each, community = reading.to_come
    return each + (1 if community else 0)


def _dead_on_board(opponent: Opponent, top: int) -> bool:
    """His up cards alone keep him from five different ranks no higher than ``top``: more of
    them are higher or pair his others than the two a seven-card hand may leave out."""
    lows = [low_of(card) for card in opponent.up]
    bad = sum(1 for r in lows if r > top) + sum(n - 1 for n in Counter(lows).values() if n > 1)
    return bad > _FINAL_CARDS - 5


def _best_low_board(reading: Reading) -> Opponent:
    return max(reading.opponents, key=lambda o: (low_board_rank(o.up), -o.seat))


def _smooth(opponent: Opponent) -> bool:
    """Three or more up cards, all different and all eight or lower."""
    lows = [low_of(card) for card in opponent.up]
    return len(lows) >= 3 and len(set(lows)) == len(lows) and max(lows) <= _LOW


def _razz(reading: Reading) -> Plan:
    lows = sorted({low_of(card) for card in reading.playing})
    small = [r for r in lows if r <= _LOW]
    best = _best_low_board(reading)
    threat = f"seat {best.seat} shows {cards_text(best.up)}"
    if len(lows) >= 5:
        made = lows[:5]
        top = made[-1]
        name = f"a made {singular(top)} low ({low_text(made)})"
    else:
        top = 0
        name = f"{len(small)} low cards ({low_text(small)})" if small else "no low cards"
    if reading.to_call > 0 and len(small) + _cards_to_come(reading) < 5 and _smooth(best):
        return Plan(Tier.TRASH, f"{name}, no eight low possible; {threat}")
    if top and top <= 6:
        return Plan(Tier.PREMIUM, f"{name}; {threat}")
    if top and all(_dead_on_board(o, top) for o in reading.opponents):
        return Plan(Tier.PREMIUM, f"{name}; no opponent's board can beat it")
    return Plan(Tier.PLAYABLE, f"{name}; {threat}")


def _stud8(reading: Reading) -> Plan:
    plan, threat, category, name = _high_plan(reading)
    small = sorted({low_of(card) for card in reading.playing if low_of(card) <= _LOW})
    low = best_low(reading.playing) if len(reading.playing) >= 5 else None
    low_name = f"a low ({low.name})" if low is not None else f"{len(small)} low cards"
    if low is not None and category >= HandCategory.STRAIGHT:
        return Plan(Tier.PREMIUM, f"{name} and {low_name}")
    if plan is not None and plan.tier == Tier.PREMIUM:
        return plan
    possible = len(small) + _cards_to_come(reading) >= 5
    if plan is not None and not possible:
        return Plan(Tier.TRASH, f"{plan.reason}; no low possible")
    best = _best_low_board(reading)
    low_threat = f"seat {best.seat} shows {cards_text(best.up)}" if _smooth(best) else ""
    words = "; ".join(part for part in (threat, low_threat) if part)
    return Plan(Tier.PLAYABLE, f"{name}, {low_name}; {words}")
