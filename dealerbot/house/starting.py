"""3rd street: which starting hands the house plays, and how hard, in each game.

Stud: rolled-up trips; pairs by their rank and kicker against the door cards showing; three to
a flush or a straight while the cards it needs are live (few of them on other boards). Razz:
three different low cards, rated by the worst of them. Stud/8: three low cards (better with
an ace), high pairs (better with a low card). A hand whose pair or low is beaten by the door
card that completed or raised in front of it is dominated and drops to TRASH.
"""

from __future__ import annotations

from collections import Counter

from .reading import (
    Plan,
    Reading,
    Tier,
    a_card,
    cards_text,
    high_of,
    low_of,
    low_text,
    plural,
    singular,
)

__all__ = ["start"]

_LOW = 8  # the eight-or-better qualifier (R10.2), and a razz hand worth playing
_BIG_PAIR = 10  # tens or better
_DEAD_LOWS = 5  # razz/stud8: this many of the low cards a hand needs seen elsewhere


def start(reading: Reading) -> Plan:
    """The starting-hand plan of the seat's three 3rd-street cards."""
    if reading.lowball:
        return _razz(reading)
    if reading.split_low:
        return _stud8(reading)
    return _stud(reading)


# --- shared pieces -------------------------------------------------------------------------


def _doors(reading: Reading) -> list[int]:
    """The live opponents' door cards, ace high."""
    return [high_of(o.up[0]) for o in reading.opponents if o.up]


def _down(tier: Tier) -> Tier:
    return Tier(max(Tier.TRASH, tier - 1))


def _pair(reading: Reading, pair: int, kicker: int) -> Plan:
    """A stud pair: by its rank and kicker against the door cards, and how live it is."""
    doors = _doors(reading)
    higher = [d for d in doors if d > pair]
    name = f"pair of {plural(pair)}"
    aggressor = reading.aggressor
    if aggressor is not None and high_of(aggressor.up[0]) > max(pair, kicker):
        door = a_card(high_of(aggressor.up[0]))
        return Plan(Tier.TRASH, f"{name} facing a raise from {door}: dominated")
    out = reading.dead_count(frozenset({pair}))
    if not higher:
        tier = Tier.PREMIUM if pair >= _BIG_PAIR else Tier.STRONG
        reason = f"{name}, opponents show nothing higher"
    else:
        top = max(higher)
        tier = Tier.PLAYABLE if pair >= _BIG_PAIR or kicker > top else Tier.MARGINAL
        reason = f"{name}, {a_card(top)} shows higher"
    if out == 2:
        return Plan(_down(_down(tier)), f"{reason}; both other {plural(pair)} are out")
    return Plan(tier, reason)


def _flush(reading: Reading) -> Plan | None:
    suits = {card % 4 for card in reading.mine}
    if len(suits) != 1:
        return None
    out = reading.dead_suit(suits.pop())
    tier = Tier.PLAYABLE if out <= 2 else Tier.MARGINAL if out <= 4 else Tier.TRASH
    return Plan(tier, f"three to a flush, {out} of the suit out")


def _straight(reading: Reading) -> Plan | None:
    """Three ranks within five (A-2-3 counts, the ace low): live while few needed cards show."""
    for ace in (14, 1):
        ranks = sorted({ace if high_of(c) == 14 else high_of(c) for c in reading.mine})
        if len(ranks) == 3 and ranks[-1] - ranks[0] <= 4:
            needed = frozenset(
                r for r in range(max(ranks[-1] - 4, 1), min(ranks[0] + 4, 14) + 1) if r not in ranks
            )
            out = reading.dead_count(frozenset(14 if r == 1 else r for r in needed))
            connected = ranks[-1] - ranks[0] == 2
            tier = Tier.PLAYABLE if connected and out <= 3 else Tier.MARGINAL
            return Plan(tier, f"three to a straight, {out} of the cards it needs are out")
    return None


# --- the games ---------------------------------------------------------------------------


def _stud(reading: Reading) -> Plan:
    ranks = sorted((high_of(c) for c in reading.mine), reverse=True)
    counts = Counter(ranks)
    if len(counts) == 1:
        return Plan(Tier.PREMIUM, f"rolled-up {plural(ranks[0])}")
    if len(counts) == 2:
        pair = next(r for r, n in counts.items() if n == 2)
        kicker = next(r for r, n in counts.items() if n == 1)
        return _pair(reading, pair, kicker)
    draws = [plan for plan in (_flush(reading), _straight(reading)) if plan is not None]
    draw = max(draws, key=lambda plan: plan.tier, default=None)
    if draw is not None and draw.tier > Tier.TRASH:
        return draw
    doors = _doors(reading)
    if ranks[1] >= 12 and ranks[1] > max(doors, default=0):
        return Plan(
            Tier.MARGINAL, f"{singular(ranks[0])}-{singular(ranks[1])} high, over every door card"
        )
    if draw is not None:  # a dead draw
        return draw
    return Plan(Tier.TRASH, f"no pair and no draw ({cards_text(reading.mine)})")


def _razz(reading: Reading) -> Plan:
    lows = [low_of(c) for c in reading.mine]
    counts = Counter(lows)
    text = low_text(lows)
    if len(counts) < 3:
        pair = next(r for r, n in counts.items() if n >= 2)
        return Plan(Tier.TRASH, f"paired {plural(pair)} ({text})")
    worst = max(lows)
    if worst <= 5:
        tier = Tier.PREMIUM
    elif worst <= 7:
        tier = Tier.STRONG
    elif worst == _LOW:
        tier = Tier.PLAYABLE
    elif worst <= 10 and sorted(lows)[1] <= 5:
        tier = Tier.MARGINAL
    else:
        return Plan(Tier.TRASH, f"a rough {singular(worst)} ({text})")
    if tier == Tier.MARGINAL:
        reason = f"two low cards and {a_card(worst)} ({text})"
    else:
        reason = f"three low cards to {a_card(worst)} ({text})"
    aggressor = reading.aggressor
    if aggressor is not None and low_of(aggressor.up[0]) < worst and worst > 6:
        door = a_card(low_of(aggressor.up[0]))
        return Plan(Tier.TRASH, f"{reason} facing a raise from {door}: dominated")
    out = reading.dead_count(frozenset(r for r in range(1, _LOW + 1) if r not in lows), True)
    if out >= _DEAD_LOWS:
        return Plan(_down(tier), f"{reason}; {out} of the low cards it needs are out")
    return Plan(tier, reason)


def _stud8(reading: Reading) -> Plan:
    ranks = sorted((high_of(c) for c in reading.mine), reverse=True)
    counts = Counter(ranks)
    lows = sorted({low_of(c) for c in reading.mine if low_of(c) <= _LOW})
    if len(counts) == 1:
        return Plan(Tier.PREMIUM, f"rolled-up {plural(ranks[0])}")
    if len(lows) == 3:
        worst = lows[-1]
        text = low_text(lows)
        if 1 in lows:
            tier = Tier.PREMIUM if worst <= 5 else Tier.STRONG
            return Plan(tier, f"three low cards with an ace ({text})")
        aggressor = reading.aggressor
        if aggressor is not None and high_of(aggressor.up[0]) == 14:
            return Plan(Tier.TRASH, f"three low cards ({text}) facing a raise from an ace")
        tier = Tier.STRONG if worst <= 6 else Tier.PLAYABLE
        out = reading.dead_count(frozenset(r for r in range(1, _LOW + 1) if r not in lows), True)
        if out >= _DEAD_LOWS:
            return Plan(_down(tier), f"three low cards ({text}); {out} of the low cards are out")
        return Plan(tier, f"three low cards ({text})")
    if len(counts) == 2:
        pair = next(r for r, n in counts.items() if n == 2)
        kicker = next(r for r, n in counts.items() if n == 1)
        low_kicker = kicker == 14 or kicker <= _LOW
        if pair == 14:
            tier = Tier.PREMIUM if low_kicker else Tier.STRONG
            return Plan(tier, "pair of aces" + (" with a low card" if low_kicker else ""))
        if pair >= _BIG_PAIR:
            plan = _pair(reading, pair, kicker)
            if plan.tier == Tier.TRASH:
                return plan
            tier = plan.tier if low_kicker else _down(plan.tier)
            return Plan(Tier(min(tier, Tier.STRONG)), plan.reason)
        if low_kicker and pair <= _LOW:
            return Plan(Tier.MARGINAL, f"low pair of {plural(pair)} with a low card")
    draw = _flush(reading)
    if draw is not None and len(lows) >= 2 and draw.tier > Tier.TRASH:
        return Plan(draw.tier, f"{draw.reason}, with two low cards")
    if len(lows) == 2 and 1 in lows:
        return Plan(Tier.MARGINAL, f"an ace and a low card ({low_text(lows)})")
    return Plan(Tier.TRASH, f"no low, no big pair ({cards_text(reading.mine)})")
