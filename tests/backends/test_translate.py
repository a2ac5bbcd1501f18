"""The one SQL dialect the store writes (``?`` / ``:name``) as PostgreSQL receives it."""

from __future__ import annotations

import pytest

from dealerbot.store.dburl import DatabaseUrlError, parse_target
from dealerbot.store.postgres_db import translate


def test_question_marks_become_numbered_parameters() -> None:
    sql, names = translate("SELECT * FROM t WHERE a = ? AND b IN (?, ?)")
    assert sql == "SELECT * FROM t WHERE a = $1 AND b IN ($2, $3)" and names is None


def test_names_get_one_number_each_in_order_of_first_use() -> None:
    sql, names = translate("INSERT INTO t SELECT :hand, :seq WHERE x = :hand AND :seq > 0")
    assert sql == "INSERT INTO t SELECT $1, $2 WHERE x = $1 AND $2 > 0"
    assert names == ("hand", "seq")


def test_quoted_text_and_casts_are_left_alone() -> None:
    sql, _ = translate("SELECT '?', 'a:b', \"we?ird\", x::text, 'it''s ?' FROM t WHERE y = ?")
    assert sql == "SELECT '?', 'a:b', \"we?ird\", x::text, 'it''s ?' FROM t WHERE y = $1"


def test_mixing_both_styles_is_refused() -> None:
    with pytest.raises(ValueError, match="mixes"):
        translate("SELECT ? WHERE :a")


@pytest.mark.parametrize(
    ("target", "kind", "where"),
    [
        ("cards.sqlite3", "sqlite", "cards.sqlite3"),
        ("sqlite:///cards.sqlite3", "sqlite", "cards.sqlite3"),
        ("sqlite:////var/lib/cards.sqlite3", "sqlite", "/var/lib/cards.sqlite3"),
        ("postgresql://bot:pw@db:5432/cards", "postgresql", "postgresql://bot:***@db:5432/cards"),
        ("postgres://bot@db/cards", "postgresql", "postgres://bot@db/cards"),
    ],
)
def test_targets(target: str, kind: str, where: str) -> None:
    parsed = parse_target(target)
    assert (parsed.backend, parsed.display) == (kind, where)


@pytest.mark.parametrize(
    "bad",
    ["", "mysql://x/y", "sqlite://x", "postgresql:///db", "postgresql://h", "postgresql://h:0/d"],
)
def test_bad_targets(bad: str) -> None:
    with pytest.raises(DatabaseUrlError):
        parse_target(bad)
