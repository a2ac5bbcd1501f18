"""Small helpers for the emulator's own tests: call a validator, read Discord's error tree."""

from __future__ import annotations

import secrets
from collections.abc import Callable
from typing import Any

import pytest

from tests.bot.emulator import Channel, DiscordEmulator, InteractionRecord, Member
from tests.bot.emulator.errors import ApiError
from tests.bot.emulator.interactions import base_payload
from tests.bot.emulator.spec import discord_spec

JSON = dict[str, Any]
MESSAGES = "/channels/{channel_id}/messages"
MESSAGE = "/channels/{channel_id}/messages/{message_id}"
WEBHOOK = "/webhooks/{webhook_id}/{webhook_token}"
CALLBACK = "/interactions/{interaction_id}/{interaction_token}/callback"


def through_spec(method: str, template: str, body: Any, *, under: str | None = None) -> None:
    """Discord's spec check as the REST pipeline runs it before any handler.

    `under` unwraps the errors of a body nested in a callback (`data`), so a test can
    read the paths the hand-written check of that nested body uses.
    """
    try:
        discord_spec().check(method, template, body)
    except ApiError as error:
        if under is not None and error.errors and set(error.errors) == {under}:
            raise ApiError(
                error.status, error.code, error.message, errors=error.errors[under]
            ) from None
        raise


def refusal(check: Callable[[], object]) -> ApiError:
    """The ApiError `check()` raises (the test fails if it accepts)."""
    with pytest.raises(ApiError) as caught:
        check()
    return caught.value


def codes_at(error: ApiError, *path: str | int) -> list[str]:
    """The `_errors` codes Discord's tree holds at `path` ([] when none)."""
    node: Any = error.errors or {}
    for key in path:
        if not isinstance(node, dict) or str(key) not in node:
            return []
        node = node[str(key)]
    return [e["code"] for e in node.get("_errors", [])] if isinstance(node, dict) else []


def all_codes(error: ApiError) -> list[str]:
    """Every `_errors` code anywhere in the tree."""
    found: list[str] = []

    def walk(node: Any) -> None:
        if isinstance(node, dict):
            found.extend(e["code"] for e in node.get("_errors", []))
            for key, value in node.items():
                if key != "_errors":
                    walk(value)

    walk(error.errors or {})
    return found


def button(custom_id: str = "b", **extra: Any) -> JSON:
    return {"type": 2, "style": 1, "label": "Go", "custom_id": custom_id, **extra}


def row(*children: JSON) -> JSON:
    return {"type": 1, "components": list(children)}


def raw_interaction(
    emu: DiscordEmulator, channel: Channel, user: Member, *, kind: int = 2
) -> InteractionRecord:
    """Register an interaction without a gateway session, for raw HTTP callback tests."""
    interaction_id = emu.ids.next()
    token = "emu." + secrets.token_urlsafe(24)
    data: JSON = {"id": "1", "name": "demo", "type": 1} if kind == 2 else {"custom_id": "x"}
    payload = base_payload(
        emu.world,
        interaction_id=interaction_id,
        token=token,
        application_id=emu.application_id,
        kind=kind,
        channel_id=channel.id,
        user_id=user.id,
        data=data,
        locale="en-US",
    )
    rec = InteractionRecord(
        id=interaction_id,
        token=token,
        type=kind,
        payload=payload,
        user_id=user.id,
        channel_id=channel.id,
        guild_id=channel.guild_id,
        world=emu.world,
        notifier=emu.notifier,
    )
    emu.ctx.interactions[rec.id] = rec
    emu.ctx.interactions_by_token[token] = rec
    return rec
