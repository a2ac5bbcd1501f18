"""Who acts first, and where the button goes next.

Implements: R3.1, R3.6 (who brings in), R6.1-R6.4 (the best board acts first),
R12.2 (the community card joins every board on 7th street), R13.1 (the next button),
R14.2 (razz: the highest door card brings in), R14.3 (razz: the lowest board acts first).

Functions take plain per-seat lists indexed in clockwise order so the state machine
can call them without building objects. Board strength is ranks only (no straights,
flushes or suits), so it needs no hand evaluator.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from .cards import RANK_INDEX, Card, ace_low_order
from .lowball import ACE_LOW, razz_shape
from .variants import MAX_PLAYERS

# Board classes of R6.1: high card, pair, two pair, trips, full house (5 cards, R12.2), quads.
_BOARD_CLASS = {
    (1, 1, 1, 1, 1): 0,
    (2, 1, 1, 1): 1,
    (2, 2, 1): 2,
    (3, 1, 1): 3,
    (3, 2): 4,
    (4, 1): 5,
}


BOARD_DIGIT: tuple[int, ...] = tuple(1 << 3 * RANK_INDEX[c] for c in range(52))
"""A card's share of a board key: a board's rank multiset as one int, the sum of its cards'
digits (a base-8 digit per rank; a rank has at most four cards).  The hand state keeps each
seat's key as his up cards are dealt, so the first actor of a street is found without
reading every board again (see :func:`best_board_index`)."""

_HIGH_BOARDS: dict[int, tuple[int, ...]] = {}  # board key -> board_rank; at most 6,187 boards
_LOW_BOARDS: dict[int, tuple[int, ...]] = {}  # board key -> low_board_rank


def board_key(up_cards: Sequence[int]) -> int:
    """The board key (:data:`BOARD_DIGIT`) of 1 to 5 up cards."""
    if not 1 <= len(up_cards) <= 5:
        raise ValueError(f"a board has 1 to 5 up cards, not {len(up_cards)}")
    return sum(map(BOARD_DIGIT.__getitem__, up_cards))


def _rank_indices(key: int) -> list[int]:
    """The rank indices (0 deuce .. 12 ace) a board key holds, lowest first, with repeats."""
    return [rank for rank in range(13) for _ in range(key >> 3 * rank & 7)]


def board_rank(up_cards: Sequence[int]) -> tuple[int, ...]:
    """Strength of 1..5 face-up cards for the order of action (R6.1, R12.2); higher is stronger.

    ``(class, ranks...)`` with class 0 high card, 1 pair, 2 two pair, 3 trips, 4 full house,
    5 quads, then the ranks (2..14) of the groups: sets, then pairs, then kickers, high to low.
    Straights and flushes never count and suits are ignored, so equal boards compare equal.
    Worked out once per rank multiset (suits never matter, and few boards exist).
    """
    key = board_key(up_cards)
    return _HIGH_BOARDS.get(key) or _high_of_key(key)


def _high_of_key(key: int) -> tuple[int, ...]:
    ranks = tuple(rank + 2 for rank in _rank_indices(key))  # 2 (deuce) .. 14 (ace)
    value = _HIGH_BOARDS[key] = _board_rank_of_ranks(ranks)
    return value


def _board_rank_of_ranks(ranks: tuple[int, ...]) -> tuple[int, ...]:
    """board_rank by the sorted ranks alone."""
    counts = Counter(ranks)
    groups = sorted(((n, rank) for rank, n in counts.items()), reverse=True)
    shape = tuple(n for n, _ in groups)
    if shape[0] > 4:
        raise ValueError("a board cannot hold five cards of one rank")
    board_class = _BOARD_CLASS[(*shape, *(1,) * (5 - sum(shape)))]
    return (board_class, *(rank for _, rank in groups))


def low_board_rank(up_cards: Sequence[int]) -> tuple[int, ...]:
    """R14.3: razz strength of 1..5 face-up cards for the order of action; higher is a better low.

    The up cards compare as razz lows do (R14.1): any unpaired board beats any paired one,
    then the groups from the highest down, ace lowest.  Suits are ignored, so equal boards
    compare equal (the first clockwise from the button then acts, R6.2).
    """
    key = board_key(up_cards)
    return _LOW_BOARDS.get(key) or _low_of_key(key)


def _low_of_key(key: int) -> tuple[int, ...]:
    ranks = tuple(sorted(ACE_LOW[rank] for rank in _rank_indices(key)))
    shape, groups = razz_shape(ranks)
    value = _LOW_BOARDS[key] = (-shape, *(-rank for rank in groups))
    return value


# CLOCKWISE[count][start]: the ``count`` seat indices clockwise from ``start``, worked out once
# (dealing, the order of action and the show order walk them on every street).
CLOCKWISE: tuple[tuple[tuple[int, ...], ...], ...] = tuple(
    tuple(tuple((start + k) % count for k in range(count)) for start in range(count))
    for count in range(MAX_PLAYERS + 1)
)


def clockwise_from(start: int, count: int) -> tuple[int, ...]:
    """Seat indices clockwise beginning at ``start``."""
    return CLOCKWISE[count][start % count]


def bring_in_index(door_cards: Sequence[Card | None], highest: bool = False) -> int:
    """R3.1: the lowest door card brings in; ace high; equal ranks by suit ♣ < ♦ < ♥ < ♠.

    A card's integer code already orders rank first, then suit, so the lowest code wins.
    With ``highest`` (razz, R14.2) the highest door card brings in, king highest and ace
    lowest, equal ranks by the higher suit (♠ highest).  ``None`` marks a seat not in the hand.
    """
    if highest:
        live = [
            (-ace_low_order(card), index)
            for index, card in enumerate(door_cards)
            if card is not None
        ]
    else:
        live = [(card, index) for index, card in enumerate(door_cards) if card is not None]
    if not live:
        raise ValueError("nobody has a door card")
    return min(live)[1]


def best_board_index(
    board_keys: Sequence[int],
    folded: Sequence[bool],
    button: int,
    community: Card | None = None,
    lowest: bool = False,
) -> int:
    """R6.1-R6.3: the strongest board acts first; ties go to the first clockwise from the button.

    ``board_keys[i]`` is seat ``i``'s board as a key (:data:`BOARD_DIGIT`), ``folded[i]``
    whether he is out of the hand.  With ``lowest`` (razz, R14.3) the best low board is the
    strongest.  Every street asks this of every live board: the keys, kept as cards are
    dealt, look the strength up in the caches of :func:`board_rank` and
    :func:`low_board_rank` without reading the cards again.
    """
    known, work_out = (_LOW_BOARDS, _low_of_key) if lowest else (_HIGH_BOARDS, _high_of_key)
    extra = 0 if community is None else BOARD_DIGIT[community]
    best_index = -1
    best_value: tuple[int, ...] = ()  # every board's value is above the empty tuple
    for index in CLOCKWISE[len(folded)][(button + 1) % len(folded)]:
        if not folded[index]:
            key = board_keys[index] + extra
            value = known.get(key) or work_out(key)
            if value > best_value:  # strictly: the first of equal boards clockwise keeps it
                best_index, best_value = index, value
    if best_index < 0:
        raise ValueError("nobody is in the hand")
    return best_index


def next_able(start: int, can_act: Sequence[bool]) -> int | None:
    """R3.6, R6.4: the first seat clockwise from ``start`` (inclusive) that can act."""
    for index in CLOCKWISE[len(can_act)][start % len(can_act)]:
        if can_act[index]:
            return index
    return None


def next_button(previous: int | None, dealt_in: Sequence[int]) -> int:
    """R13.1: the next seat clockwise from the last button among the seats dealt in.

    Seats are numbered clockwise; ``previous`` is the last hand's button (None before the
    first hand: the button then goes to the highest seat, so the lowest is dealt first).
    """
    ordered = sorted(dealt_in)
    if not ordered:
        raise ValueError("nobody is dealt in")
    if previous is None:
        return ordered[-1]
    for seat in ordered:
        if seat > previous:
            return seat
    return ordered[0]
