"""Over HTTP: the rules reach the wire, and every refusal is recorded for tests to assert on."""

from __future__ import annotations

import asyncio
import io
from collections.abc import AsyncIterator
from typing import Any

import aiohttp
import discord
import discord.http
import pytest

from tests.bot.emulator import DiscordEmulator, discord_py_pointed_at

from .helpers import button, raw_interaction, row

CARD_BACK_BUTTON = button("stud:cards", label="My cards", emoji={"name": "🂠"})


@pytest.fixture
async def http(emulator: DiscordEmulator) -> AsyncIterator[aiohttp.ClientSession]:
    auth = {"Authorization": f"Bot {emulator.token}"}
    async with aiohttp.ClientSession(headers=auth) as session:
        yield session


@pytest.fixture
async def dpy(emulator: DiscordEmulator) -> AsyncIterator[discord.http.HTTPClient]:
    """discord.py's own REST client, logged in to the emulator (no gateway needed)."""
    with discord_py_pointed_at(emulator.api_base, emulator.gateway_url):
        client = discord.http.HTTPClient(asyncio.get_running_loop())
        await client.static_login(emulator.token)
        try:
            yield client
        finally:
            await client.close()


async def post(http: aiohttp.ClientSession, url: str, body: Any) -> tuple[int, Any]:
    async with http.post(url, json=body) as resp:
        return resp.status, await resp.json() if resp.status != 204 else None


async def test_issue_8_table_message_is_refused_and_recorded(
    emulator: DiscordEmulator, http: aiohttp.ClientSession
) -> None:
    guild = emulator.add_guild()
    table = emulator.add_text_channel(guild, "table")
    url = f"{emulator.api_base}/channels/{table.id}/messages"
    body = {"content": "table", "components": [row(button("stud:fold"), CARD_BACK_BUTTON)]}
    status, answer = await post(http, url, body)
    assert (status, answer["code"], answer["message"]) == (400, 50035, "Invalid Form Body")
    assert answer["errors"] == {
        "components": {
            "0": {
                "components": {
                    "1": {
                        "emoji": {
                            "name": {
                                "_errors": [
                                    {
                                        "code": "BUTTON_COMPONENT_INVALID_EMOJI",
                                        "message": "Invalid emoji",
                                    }
                                ]
                            }
                        }
                    }
                }
            }
        }
    }
    assert emulator.channel_messages(table) == []  # the whole message is refused
    [refused] = emulator.refused
    assert (refused.method, refused.route, refused.status, refused.code) == (
        "POST",
        "/channels/{channel_id}/messages",
        400,
        50035,
    )
    assert refused.errors == answer["errors"]
    with pytest.raises(AssertionError, match="BUTTON_COMPONENT_INVALID_EMOJI"):
        emulator.assert_nothing_refused()
    emulator.assert_nothing_refused(ignore_codes=frozenset({50035}))


async def test_a_clean_session_records_nothing(
    emulator: DiscordEmulator, http: aiohttp.ClientSession
) -> None:
    guild = emulator.add_guild()
    table = emulator.add_text_channel(guild, "table")
    url = f"{emulator.api_base}/channels/{table.id}/messages"
    joker = button("stud:cards", label="My cards", emoji={"name": "🃏"})
    status, _ = await post(http, url, {"content": "t", "components": [row(joker)]})
    assert status == 200
    assert emulator.refused == []
    emulator.assert_nothing_refused()


async def test_injected_faults_are_not_the_bots_refusals(
    emulator: DiscordEmulator, http: aiohttp.ClientSession
) -> None:
    guild = emulator.add_guild()
    table = emulator.add_text_channel(guild, "table")
    emulator.fail_next("POST", "/channels/*/messages", status=500, code=0, message="boom")
    url = f"{emulator.api_base}/channels/{table.id}/messages"
    assert (await post(http, url, {"content": "x"}))[0] == 500
    async with http.get(f"{emulator.api_base}/nope") as resp:
        assert resp.status == 404
    assert [(r.status, r.route) for r in emulator.refused] == [(404, None)]
    injected = emulator.refused_requests(include_injected=True, status=500)
    assert [(r.injected, r.route) for r in injected] == [(True, "/channels/{channel_id}/messages")]


async def test_ephemeral_flag_refused_on_a_channel_message(
    emulator: DiscordEmulator, http: aiohttp.ClientSession
) -> None:
    guild = emulator.add_guild()
    table = emulator.add_text_channel(guild, "table")
    url = f"{emulator.api_base}/channels/{table.id}/messages"
    status, answer = await post(http, url, {"content": "secret", "flags": 64})
    assert (status, answer["code"], "flags" in answer["errors"]) == (400, 50035, True)


async def test_edit_that_empties_a_message_is_50006(
    emulator: DiscordEmulator, http: aiohttp.ClientSession
) -> None:
    guild = emulator.add_guild()
    table = emulator.add_text_channel(guild, "table")
    url = f"{emulator.api_base}/channels/{table.id}/messages"
    _, sent = await post(http, url, {"content": "x", "components": [row(button())]})
    async with http.patch(f"{url}/{sent['id']}", json={"components": []}) as resp:
        assert resp.status == 200  # content still shows
    async with http.patch(f"{url}/{sent['id']}", json={"content": ""}) as resp:
        assert (resp.status, (await resp.json())["code"]) == (400, 50006)
    assert emulator.message(sent["id"])["content"] == "x"


async def test_callback_errors_nest_under_data_and_do_not_acknowledge(
    emulator: DiscordEmulator, http: aiohttp.ClientSession
) -> None:
    guild = emulator.add_guild()
    table = emulator.add_text_channel(guild, "table")
    alice = emulator.add_member(guild, "alice")
    rec = raw_interaction(emulator, table, alice)
    url = f"{emulator.api_base}/interactions/{rec.id}/{rec.token}/callback?with_response=1"
    bad = {"type": 4, "data": {"content": "x", "components": [row(CARD_BACK_BUTTON)]}}
    status, answer = await post(http, url, bad)
    assert (status, answer["code"]) == (400, 50035)
    assert "BUTTON_COMPONENT_INVALID_EMOJI" in str(answer["errors"]["data"]["components"])
    assert [r.code for r in rec.rejected] == [50035]
    assert rec.callback is None  # Discord did not take the answer: a fixed one still may
    status, answer = await post(http, url, {"type": 4, "data": {"content": "ok", "flags": 64}})
    assert status == 200 and answer["interaction"]["response_message_ephemeral"] is True
    assert [r.code for r in emulator.refused] == [50035]


async def test_modal_callback_is_checked(
    emulator: DiscordEmulator, http: aiohttp.ClientSession
) -> None:
    guild = emulator.add_guild()
    table = emulator.add_text_channel(guild, "table")
    alice = emulator.add_member(guild, "alice")
    rec = raw_interaction(emulator, table, alice)
    url = f"{emulator.api_base}/interactions/{rec.id}/{rec.token}/callback"
    text = {"type": 4, "custom_id": "amount", "style": 1, "label": "Amount"}
    data = {"custom_id": "buyin", "title": "t" * 46, "components": [row(text)]}
    status, answer = await post(http, url, {"type": 9, "data": data})
    assert (status, answer["code"]) == (400, 50035)
    assert answer["errors"]["data"]["title"]["_errors"][0]["code"] == "BASE_TYPE_BAD_LENGTH"
    status, _ = await post(http, url, {"type": 9, "data": {**data, "title": "Sit down"}})
    assert status == 204


async def test_followup_may_be_ephemeral_and_is_checked(
    emulator: DiscordEmulator, http: aiohttp.ClientSession
) -> None:
    guild = emulator.add_guild()
    table = emulator.add_text_channel(guild, "table")
    alice = emulator.add_member(guild, "alice")
    rec = raw_interaction(emulator, table, alice)
    callback = f"{emulator.api_base}/interactions/{rec.id}/{rec.token}/callback"
    assert (await post(http, callback, {"type": 5, "data": {"flags": 64}}))[0] == 204
    hook = f"{emulator.api_base}/webhooks/{emulator.application_id}/{rec.token}?wait=true"
    status, answer = await post(http, hook, {"content": "x" * 2001})
    assert (status, answer["code"]) == (400, 50035)
    status, answer = await post(http, hook, {"content": "your cards", "flags": 64})
    assert status == 200
    assert [r.code for r in rec.rejected] == [50035]


async def test_discord_py_multipart_upload_is_accepted(
    emulator: DiscordEmulator, dpy: discord.http.HTTPClient
) -> None:
    guild = emulator.add_guild()
    table = emulator.add_text_channel(guild, "table")
    files = [
        discord.File(io.BytesIO(b"Ah Kd 7c"), "hand-1.txt"),
        discord.File(io.BytesIO(b"{}"), "proof.json"),
    ]
    with discord.http.handle_message_parameters(content="history", files=files) as params:
        sent = await dpy.send_message(table.id, params=params)
    assert [a["filename"] for a in sent["attachments"]] == ["hand-1.txt", "proof.json"]
    assert [a["size"] for a in sent["attachments"]] == [8, 2]
    assert emulator.refused == []


async def test_discord_py_upload_over_the_limit_is_413(
    emulator: DiscordEmulator, dpy: discord.http.HTTPClient
) -> None:
    guild = emulator.add_guild()
    table = emulator.add_text_channel(guild, "table")
    emulator.config.attachment_size_limit = 64
    fits = discord.File(io.BytesIO(b"x" * 64), "fits.txt")
    with discord.http.handle_message_parameters(file=fits) as params:
        await dpy.send_message(table.id, params=params)
    big = discord.File(io.BytesIO(b"x" * 65), "big.txt")
    with (
        pytest.raises(discord.HTTPException) as caught,
        discord.http.handle_message_parameters(file=big) as params,
    ):
        await dpy.send_message(table.id, params=params)
    assert (caught.value.status, caught.value.code) == (413, 40005)
    eleven = [discord.File(io.BytesIO(b"x"), f"f{i}.txt") for i in range(11)]
    with (
        pytest.raises(discord.HTTPException) as caught,
        discord.http.handle_message_parameters(files=eleven) as params,
    ):
        await dpy.send_message(table.id, params=params)
    assert (caught.value.status, caught.value.code) == (400, 50035)
    assert [(r.status, r.code) for r in emulator.refused] == [(413, 40005), (400, 50035)]


@pytest.mark.parametrize(
    ("kind", "response_type"),
    [
        (2, 7),  # a slash command has no message to update
        (2, 6),
        (2, 8),  # autocomplete choices answer only autocomplete
        (5, 9),  # a modal cannot answer a modal submit
        (2, 1),  # PONG answers only PING
    ],
)
async def test_response_type_must_suit_the_interaction(
    emulator: DiscordEmulator, http: aiohttp.ClientSession, kind: int, response_type: int
) -> None:
    guild = emulator.add_guild()
    table = emulator.add_text_channel(guild, "table")
    alice = emulator.add_member(guild, "alice")
    rec = raw_interaction(emulator, table, alice, kind=kind)
    url = f"{emulator.api_base}/interactions/{rec.id}/{rec.token}/callback"
    body = {"type": response_type, **CALLBACK_DATA.get(response_type, {})}
    status, answer = await post(http, url, body)
    assert (status, answer["code"]) == (400, 50035)
    assert answer["errors"]["type"]["_errors"][0]["code"] == "INTERACTION_RESPONSE_TYPE_INVALID"
    assert rec.callback is None


MODAL_DATA = {
    "custom_id": "buyin",
    "title": "Sit down",
    "components": [row({"type": 4, "custom_id": "amount", "style": 1, "label": "Amount"})],
}
CALLBACK_DATA: dict[int, dict[str, Any]] = {
    7: {"data": {"content": "x"}},
    8: {"data": {"choices": []}},
    9: {"data": MODAL_DATA},
}
"""A body of each callback type that Discord's spec accepts (the type is what is wrong)."""


async def test_unknown_response_type_is_refused_by_the_spec(
    emulator: DiscordEmulator, http: aiohttp.ClientSession
) -> None:
    guild = emulator.add_guild()
    table = emulator.add_text_channel(guild, "table")
    alice = emulator.add_member(guild, "alice")
    rec = raw_interaction(emulator, table, alice)
    url = f"{emulator.api_base}/interactions/{rec.id}/{rec.token}/callback"
    status, answer = await post(http, url, {"type": 42, "data": {"content": "x"}})
    assert (status, answer["code"]) == (400, 50035)
    assert answer["errors"]["type"]["_errors"][0]["code"] == "UNION_TYPE_CHOICES"
    assert [r.code for r in rec.rejected] == [50035]
    assert rec.callback is None


async def test_discord_py_edit_replaces_attachments(
    emulator: DiscordEmulator, dpy: discord.http.HTTPClient
) -> None:
    guild = emulator.add_guild()
    table = emulator.add_text_channel(guild, "table")
    first = discord.File(io.BytesIO(b"hand 1"), "hand-1.txt")
    with discord.http.handle_message_parameters(content="history", file=first) as params:
        sent = await dpy.send_message(table.id, params=params)
    second = discord.File(io.BytesIO(b"hand 2!"), "hand-2.txt")
    with discord.http.handle_message_parameters(attachments=[second]) as params:
        edited = await dpy.edit_message(table.id, sent["id"], params=params)
    assert [(a["filename"], a["size"]) for a in edited["attachments"]] == [("hand-2.txt", 7)]
    with (
        discord.http.handle_message_parameters(content="", attachments=[]) as params,
        pytest.raises(discord.HTTPException) as caught,
    ):
        await dpy.edit_message(table.id, sent["id"], params=params)
    assert (caught.value.status, caught.value.code) == (400, 50006)
