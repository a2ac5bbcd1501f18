"""Turn the store's refusals into table errors, so the front end catches one family.

The store's messages are already fit for users; this only picks the matching
:class:`~dealerbot.tables.errors.TableError` subclass and makes the text a sentence.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from dealerbot.store import errors as store_errors

from . import errors


def sentence(text: str) -> str:
    text = text.strip()
    if not text:
        return text
    text = text[0].upper() + text[1:]
    return text if text[-1] in ".!?" else text + "."


_MAP: tuple[tuple[type[store_errors.StoreError], type[errors.TableError]], ...] = (
    (store_errors.InsufficientChips, errors.InsufficientFundsError),
    (store_errors.InvalidAmount, errors.AmountError),
    (store_errors.AlreadySeated, errors.AlreadySeatedError),
    (store_errors.NotSeated, errors.NotSeatedError),
    (store_errors.SeatTaken, errors.TableFullError),
    (store_errors.UnknownTable, errors.NoTableError),
    (store_errors.TableNotOpen, errors.TableClosingError),
    (store_errors.HandInProgress, errors.HandInProgressError),
    (store_errors.StaleAction, errors.StaleActionError),
    (store_errors.DailyNotReady, errors.DailyNotReadyError),
)


def as_table_error(error: store_errors.StoreError) -> errors.TableError:
    if isinstance(error, store_errors.DailyNotReady):
        return errors.DailyNotReadyError(sentence(error.message), error.retry_at)
    for store_type, table_type in _MAP:
        if isinstance(error, store_type):
            return table_type(sentence(error.message))
    return errors.TableError(sentence(error.message))


@contextmanager
def store_errors_as_table_errors() -> Iterator[None]:
    try:
        yield
    except store_errors.StoreError as error:
        raise as_table_error(error) from error
