"""A click whose answer fails (10062) still has its service call's outcome retrieved."""

from __future__ import annotations

import asyncio
import gc
import logging
from types import SimpleNamespace
from typing import Any

import pytest

from dealerbot.bot import table_messages
from dealerbot.bot.table_channel import Hub
from dealerbot.bot.table_messages import TableMessenger
from dealerbot.tables.errors import OutOfTurnError


class UnknownInteraction(Exception):
    """Stands for discord.NotFound 10062: the click's 3 seconds are over."""


async def no_op(*_: object) -> None:
    return None


async def nothing(_: int) -> int | None:
    return None


async def test_a_failed_defer_leaves_no_unretrieved_call(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    monkeypatch.setattr(table_messages, "ACT_WAIT", 0.0)  # the call counts as slow at once
    client: Any = SimpleNamespace()
    messenger = TableMessenger(Hub(client, no_op, nothing), 1, 2)

    async def defer() -> None:
        raise UnknownInteraction()

    interaction: Any = SimpleNamespace(response=SimpleNamespace(defer=defer), message=None)
    release = asyncio.Event()

    async def action() -> None:
        await release.wait()
        raise OutOfTurnError()

    seen: list[dict[str, Any]] = []
    asyncio.get_running_loop().set_exception_handler(lambda _loop, context: seen.append(context))
    with pytest.raises(UnknownInteraction):
        await messenger.run_click(interaction, action)
    release.set()
    with caplog.at_level(logging.WARNING, logger="dealerbot.bot"):
        for _ in range(5):
            await asyncio.sleep(0)
    gc.collect()  # an unretrieved failure would reach the loop's handler here
    assert not messenger.lock.locked()
    assert any("OutOfTurnError" in r.getMessage() for r in caplog.records)
    assert all(r.levelno == logging.WARNING for r in caplog.records)
    assert seen == []
