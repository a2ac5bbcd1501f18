"""The service words the store's refusals: facts with values in, one sentence for the player out."""

from __future__ import annotations

import pytest

from dealerbot.store import errors as store
from dealerbot.tables import errors
from dealerbot.tables.errors import as_table_error, store_errors_as_table_errors, wait_text


@pytest.mark.parametrize(
    ("seconds", "text"),
    [
        (0.2, "1 s"),
        (1, "1 s"),
        (59.5, "1 min"),
        (61, "1 min"),
        (3600, "1 h 0 min"),
        (5400, "1 h 30 min"),
    ],
)
def test_wait_text(seconds: float, text: str) -> None:
    assert wait_text(seconds) == text


@pytest.mark.parametrize(
    ("fact", "kind", "words"),
    [
        (
            store.InsufficientChips(1500, 800),
            errors.InsufficientFundsError,
            "1,500 chips but your wallet holds 800",
        ),
        (
            store.DailyNotReady(1_000_030.0, 1_000_000.0),
            errors.DailyNotReadyError,
            "come back in 30 s",
        ),
        (store.InvalidAmount("buy-in", -5), errors.AmountError, "at least 1 chip"),
        (store.InvalidAmount("buy-in", "ten"), errors.AmountError, "whole number"),
        (store.InvalidId("user id", 0), errors.TableError, "not a valid id"),
        (store.SeatTaken(2), errors.TableFullError, "Seat 3 is taken"),
        (store.AlreadySeated("user 1 at table 2"), errors.AlreadySeatedError, "already seated"),
        (store.UnknownTable("table 9"), errors.NoTableError, "no table"),
        (store.TableNotOpen("table 9"), errors.TableClosingError, "closing"),
        (store.StaleAction("seq 4"), errors.StaleActionError, "old hand"),
        (store.InvalidSettlement("sum 3"), errors.TableError, "nothing was changed"),
    ],
)
def test_each_fact_gets_its_own_sentence(fact: store.StoreError, kind: type, words: str) -> None:
    refusal = as_table_error(fact)
    assert type(refusal) is kind
    text = str(refusal)
    assert words in text and not text[0].islower() and text.endswith(".")
    assert fact.message not in text  # the store's detail is for logs, not for players


def test_the_daily_refusal_keeps_when_to_come_back() -> None:
    with pytest.raises(errors.DailyNotReadyError) as caught, store_errors_as_table_errors():
        raise store.DailyNotReady(500.0, 400.0)
    assert caught.value.retry_at == 500.0
    assert isinstance(caught.value.__cause__, store.DailyNotReady)


async def test_a_store_refusal_deep_in_a_command_reaches_the_caller_as_a_table_error(
    harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    from dealerbot.tables import hand_log

    from .helpers import CHANNEL, GUILD, seat_players

    await seat_players(harness.service, [1, 2])

    async def closed(*args: object, **kwargs: object) -> None:
        raise store.TableNotOpen("table 1 is closed")

    monkeypatch.setattr(hand_log.hands_db, "start_hand", closed)
    with pytest.raises(errors.TableClosingError) as caught:
        await harness.service.start(GUILD, CHANNEL)
    assert isinstance(caught.value.__cause__, store.TableNotOpen)
