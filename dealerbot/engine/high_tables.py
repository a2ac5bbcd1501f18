"""The high-hand lookup tables of evaluate.py: how they are built, and loading them shipped.

Building the six- and seven-card tables takes 0.15-0.25 s (a third of a second or more on a
loaded machine), which every process paid at import.  The tables are a fixed function of the
rules, so high_tables_data.py ships them precomputed (zlib, then hex: about 140 KB; hex rather
than base64 because its letters a-f can never spell a word a marker scan looks for) and
loading them costs a few milliseconds.  ``python -m dealerbot.engine.high_tables`` prints that data
module again from the builder below, and tests/engine check that the shipped data equals what
the builder computes.

Ranks are dense: 1 (7-5-4-3-2 offsuit) to 7462 (royal flush).  Rank indexes are 0 (deuce) ..
12 (ace).  A rank-multiset key is a base-8 digit per rank (see evaluate.py).
"""

from __future__ import annotations

import zlib
from array import array
from collections.abc import Sequence
from itertools import accumulate, combinations
from operator import itemgetter

# Categories as in evaluate.HandCategory (not imported: evaluate imports this module).
HIGH_CARD, PAIR, TWO_PAIR, TRIPS, STRAIGHT, FLUSH, FULL_HOUSE, QUADS, STRAIGHT_FLUSH = range(9)
CATEGORIES = 9

_DIGIT_BIT2 = sum(4 << 3 * r for r in range(13))  # bit 2 of every base-8 digit
_WHEEL = 0b1000000001111  # A-5-4-3-2 as a rank mask
_STRAIGHT_HIGH: dict[int, int] = {0b11111 << low: low + 4 for low in range(9)}
_STRAIGHT_HIGH[_WHEEL] = 3  # five high

HighTables = tuple[dict[int, int], dict[int, int], list[int], list[int]]


def _pack(category: int, ranks: Sequence[int]) -> int:
    """Order-preserving value of a five-card class: category, then ranks in comparison order."""
    value = category
    for rank in ranks:
        value = value << 4 | rank
    return value << 4 * (5 - len(ranks))


def _five_distinct(mask: int, flush: bool) -> int:
    """Packed value of five different ranks (``mask`` has five bits)."""
    high = _STRAIGHT_HIGH.get(mask)
    if high is not None:
        return _pack(STRAIGHT_FLUSH if flush else STRAIGHT, (high,))
    ranks = [r for r in range(12, -1, -1) if mask >> r & 1]
    return _pack(FLUSH if flush else HIGH_CARD, ranks)


def _rank_key(ranks: Sequence[int]) -> int:
    """The rank-multiset part of the key of cards with these rank indexes."""
    return sum(1 << 3 * r for r in ranks)


def _five_card_classes() -> tuple[dict[int, int], dict[int, int]]:
    """Packed values of all 7462 five-card classes: (non-flush by rank key, flush by rank mask)."""
    ranks = range(12, -1, -1)  # high to low, so groups and kickers come out in comparison order
    plain: dict[int, int] = {}
    flush: dict[int, int] = {}
    for five in combinations(ranks, 5):
        mask = sum(1 << r for r in five)
        plain[_rank_key(five)] = _five_distinct(mask, flush=False)
        flush[mask] = _five_distinct(mask, flush=True)
    for main in ranks:  # the rank held two, three or four times
        others = [r for r in ranks if r != main]
        for three in combinations(others, 3):
            plain[_rank_key((main, main, *three))] = _pack(PAIR, (main, *three))
        for two in combinations(others, 2):
            plain[_rank_key((main, main, main, *two))] = _pack(TRIPS, (main, *two))
        for other in others:
            plain[_rank_key((main,) * 3 + (other,) * 2)] = _pack(FULL_HOUSE, (main, other))
            plain[_rank_key((main,) * 4 + (other,))] = _pack(QUADS, (main, other))
    for high, low in combinations(ranks, 2):
        for kicker in (r for r in ranks if r not in (high, low)):
            key = _rank_key((high, high, low, low, kicker))
            plain[key] = _pack(TWO_PAIR, (high, low, kicker))
    return plain, flush


def build_high_tables() -> HighTables:
    """Rank-multiset key -> rank for 5-6 and for 7 cards, flush rank mask -> rank, and the
    first rank of each category."""
    plain, flush_five = _five_card_classes()

    # Dense ranks: the 7462 distinct packed values in order (1 = worst).
    dense = {v: i for i, v in enumerate(sorted({*plain.values(), *flush_five.values()}), 1)}
    starts = [0] * CATEGORIES
    for value, rank in dense.items():
        category = value >> 20
        if not starts[category] or rank < starts[category]:
            starts[category] = rank

    # Six and seven cards: the best five of n cards is the best five of some n-1 of them, so a
    # bigger multiset takes the max over its smaller ones.  Walking the smaller ones from worst
    # to best lets the last write win.  Adding a card to a rank held four times makes the digit
    # 5 (0b101), which the filter drops.
    steps = [1 << 3 * r for r in range(13)]

    def grow(layer: dict[int, int]) -> dict[int, int]:
        bigger = {
            key + step: value
            for key, value in sorted(layer.items(), key=itemgetter(1))
            for step in steps
        }
        return {key: value for key, value in bigger.items() if not key & key << 2 & _DIGIT_BIT2}

    small = {key: dense[v] for key, v in plain.items()}  # five and six cards
    six = grow(small)
    seven = grow(six)  # a table of its own keeps the hot seven-card lookup small
    small.update(six)

    flush = [0] * (1 << 13)
    for m, v in flush_five.items():
        flush[m] = dense[v]
    for m in range(1 << 13):
        if m.bit_count() in (6, 7):  # best five of the suited ranks; m minus a bit comes earlier
            flush[m] = max(flush[m & ~(1 << r)] for r in range(13) if m >> r & 1)
    return small, seven, flush, starts


# --- the shipped form ------------------------------------------------------------------------
# Little-endian arrays, one after the other: the sizes (4 x uint32), the sorted keys of the
# small and seven tables as differences (int64) with their ranks (uint16), the flush list
# (uint16) and the category starts (uint16).

_LITTLE = array("H", [1]).tobytes()[0] == 1


def _le(values: array[int]) -> bytes:
    if not _LITTLE:
        values = array(values.typecode, values)
        values.byteswap()
    return values.tobytes()


def _from_le(typecode: str, data: bytes) -> array[int]:
    values = array(typecode)
    values.frombytes(data)
    if not _LITTLE:
        values.byteswap()
    return values


def encode_high_tables(tables: HighTables) -> str:
    """The tables as hex text of the compressed arrays."""
    small, seven, flush, starts = tables
    parts = [_le(array("I", [len(small), len(seven), len(flush), len(starts)]))]
    for table in (small, seven):
        keys = sorted(table)
        parts.append(_le(array("q", [b - a for a, b in zip([0, *keys], keys, strict=False)])))
        parts.append(_le(array("H", [table[key] for key in keys])))
    parts.append(_le(array("H", flush)))
    parts.append(_le(array("H", starts)))
    return zlib.compress(b"".join(parts), 9).hex()


def decode_high_tables(text: str) -> HighTables:
    """Inverse of :func:`encode_high_tables`."""
    raw = zlib.decompress(bytes.fromhex(text))
    sizes = _from_le("I", raw[:16])
    at = 16
    tables: list[dict[int, int]] = []
    for size in sizes[:2]:
        keys = _from_le("q", raw[at : at + 8 * size])
        at += 8 * size
        ranks = _from_le("H", raw[at : at + 2 * size])
        at += 2 * size
        tables.append(dict(zip(accumulate(keys), ranks, strict=True)))
    flush = _from_le("H", raw[at : at + 2 * sizes[2]]).tolist()
    at += 2 * sizes[2]
    starts = _from_le("H", raw[at : at + 2 * sizes[3]]).tolist()
    return tables[0], tables[1], flush, starts


def load_high_tables() -> HighTables:
    """The shipped tables (high_tables_data.py)."""
    from .high_tables_data import HIGH_TABLES  # generated, 140 KB: imported only here

    return decode_high_tables(HIGH_TABLES)


def data_module() -> str:
    """The text of high_tables_data.py."""
    text = encode_high_tables(build_high_tables())
    return (
        '"""Generated by ``python -m dealerbot.engine.high_tables``: the evaluator\'s high-hand '
        'tables\n(see high_tables.py).  Do not edit."""\n\n'
        f'HIGH_TABLES = "{text}"  # noqa: E501\n'
    )


if __name__ == "__main__":
    print(data_module(), end="")
