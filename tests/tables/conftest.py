from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from .helpers import Harness, make_harness


@pytest.fixture
async def harness(db_url: str) -> AsyncIterator[Harness]:
    """A started service on each backend (tests/conftest.py runs the test once per backend)."""
    h = await make_harness(db_url)
    try:
        yield h
    finally:
        await h.close()
