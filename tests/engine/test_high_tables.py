"""The shipped high-hand tables (high_tables_data.py) are exactly what the builder computes.

The data module is generated (``python -m dealerbot.engine.high_tables``); if the builder or
the encoding changes without regenerating it, these fail.
"""

from __future__ import annotations

from dealerbot.engine import evaluate
from dealerbot.engine.high_tables import (
    build_high_tables,
    data_module,
    decode_high_tables,
    encode_high_tables,
)
from dealerbot.engine.high_tables_data import HIGH_TABLES


def test_shipped_tables_equal_the_built_ones() -> None:
    small, seven, flush, starts = build_high_tables()
    assert decode_high_tables(HIGH_TABLES) == (small, seven, flush, starts)
    assert (small, seven) == (evaluate._NON_FLUSH, evaluate._NON_FLUSH_7)
    assert (flush, starts) == (evaluate._FLUSH, evaluate._CATEGORY_STARTS)
    assert len(seven) == 49_205 and max(flush) == 7462


def test_encoding_round_trips_and_the_data_module_is_current() -> None:
    tables = ({8: 1, 1 << 38: 7462}, {3: 2}, [0, 5, 9], [1, 2])
    assert decode_high_tables(encode_high_tables(tables)) == tables
    assert f'HIGH_TABLES = "{HIGH_TABLES}"' in data_module()
