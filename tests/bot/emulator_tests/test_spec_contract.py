"""Over HTTP: every body is held to Discord's OpenAPI spec, refused in Discord's shape."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import aiohttp
import pytest
from jsonschema import Draft202012Validator

from tests.bot.emulator import DiscordEmulator
from tests.bot.emulator.faults import FaultInjector
from tests.bot.emulator.ratelimit import RateLimiter
from tests.bot.emulator.recording import ChangeNotifier
from tests.bot.emulator.rest import Reply, Req, RestPipeline
from tests.bot.emulator.spec import SpecValidator, discord_spec

from .helpers import button, raw_interaction, row

INT53 = 2**53 - 1
NUMBER_TYPE_MAX_53 = {
    "_errors": [
        {
            "code": "NUMBER_TYPE_MAX",
            "message": f"int value should be less than or equal to {INT53}.",
        }
    ]
}


@pytest.fixture
async def http(emulator: DiscordEmulator) -> AsyncIterator[aiohttp.ClientSession]:
    auth = {"Authorization": f"Bot {emulator.token}"}
    async with aiohttp.ClientSession(headers=auth) as session:
        yield session


async def call(http: aiohttp.ClientSession, method: str, url: str, body: Any) -> tuple[int, Any]:
    async with http.request(method, url, json=body) as resp:
        return resp.status, None if resp.status == 204 else await resp.json()


def at(answer: Any, *path: str | int) -> list[str]:
    """The `_errors` codes of a 50035 answer at `path`."""
    node = answer["errors"]
    for key in path:
        node = node[str(key)]
    return [e["code"] for e in node["_errors"]]


def stud_command(max_value: int) -> dict[str, Any]:
    """A /stud command whose `hand` subcommand's third option is an integer hand id."""
    hand = {
        "type": 1,
        "name": "hand",
        "description": "Show a hand",
        "options": [
            {"type": 3, "name": "format", "description": "How"},
            {"type": 5, "name": "public", "description": "Post it"},
            {
                "type": 4,
                "name": "hand_id",
                "description": "Which",
                "min_value": 1,
                "max_value": max_value,
            },
        ],
    }
    join = {"type": 1, "name": "join", "description": "Sit down"}
    return {"type": 1, "name": "stud", "description": "Stud", "options": [join, hand]}


# ----- the round-2 bug: an integer option's max_value over Int53 -------------------------


@pytest.mark.parametrize("scope", ["global", "guild"])
async def test_bulk_overwrite_refuses_max_value_2_53_at_its_option(
    emulator: DiscordEmulator, http: aiohttp.ClientSession, scope: str
) -> None:
    guild = emulator.add_guild()
    base = f"{emulator.api_base}/applications/{emulator.application_id}"
    url = f"{base}/commands" if scope == "global" else f"{base}/guilds/{guild.id}/commands"
    status, answer = await call(http, "PUT", url, [stud_command(2**53)])
    assert (status, answer["code"], answer["message"]) == (400, 50035, "Invalid Form Body")
    assert answer["errors"] == {
        "0": {"options": {"1": {"options": {"2": {"max_value": NUMBER_TYPE_MAX_53}}}}}
    }
    assert emulator.commands(None if scope == "global" else guild) == []
    [refused] = emulator.refused
    assert (refused.method, refused.status, refused.code) == ("PUT", 400, 50035)
    status, answer = await call(http, "PUT", url, [stud_command(INT53)])
    assert status == 200
    assert [c["name"] for c in answer] == ["stud"]


async def test_top_level_integer_option_path_is_its_index(
    emulator: DiscordEmulator, http: aiohttp.ClientSession
) -> None:
    options = [
        {"type": 3, "name": "a", "description": "a"},
        {"type": 3, "name": "b", "description": "b"},
        {"type": 4, "name": "n", "description": "n", "max_value": 2**53},
    ]
    cmd = {"name": "limits", "description": "d", "options": options}
    url = f"{emulator.api_base}/applications/{emulator.application_id}/commands"
    status, answer = await call(http, "PUT", url, [cmd, {**cmd, "name": "other"}])
    assert status == 400
    assert answer["errors"]["0"] == {"options": {"2": {"max_value": NUMBER_TYPE_MAX_53}}}
    assert answer["errors"]["1"] == answer["errors"]["0"]
    status, answer = await call(http, "POST", url, {**cmd, "options": options[2:]})
    assert (status, at(answer, "options", 0, "max_value")) == (400, ["NUMBER_TYPE_MAX"])
    low = {"type": 4, "name": "n", "description": "n", "min_value": -(2**53)}
    status, answer = await call(http, "POST", url, {**cmd, "options": [low]})
    assert (status, at(answer, "options", 0, "min_value")) == (400, ["NUMBER_TYPE_MIN"])


# ----- each kind of violation, through the real pipeline ----------------------------------


async def test_string_over_max_length_and_both_bounds(
    emulator: DiscordEmulator, http: aiohttp.ClientSession
) -> None:
    guild = emulator.add_guild()
    url = f"{emulator.api_base}/channels/{emulator.add_text_channel(guild, 't').id}/messages"
    status, _ = await call(http, "POST", url, {"embeds": [{"title": "t" * 256}]})
    assert status == 200
    status, answer = await call(http, "POST", url, {"embeds": [{"title": "t" * 257}]})
    assert (status, at(answer, "embeds", 0, "title")) == (400, ["BASE_TYPE_MAX_LENGTH"])
    assert answer["errors"]["embeds"]["0"]["title"]["_errors"][0]["message"] == (
        "Must be 256 or fewer in length."
    )
    body = {"content": "x", "components": [row(button("c" * 101))]}
    status, answer = await call(http, "POST", url, body)
    path = ("components", 0, "components", 0, "custom_id")
    assert (status, at(answer, *path)) == (400, ["BASE_TYPE_BAD_LENGTH"])


async def test_missing_required_field(
    emulator: DiscordEmulator, http: aiohttp.ClientSession
) -> None:
    url = f"{emulator.api_base}/applications/{emulator.application_id}/commands"
    cmd = {"name": "x", "description": "d", "options": [{"type": 4, "name": "n"}]}
    status, answer = await call(http, "PUT", url, [cmd])
    assert (status, at(answer, 0, "options", 0, "description")) == (400, ["BASE_TYPE_REQUIRED"])
    guild = emulator.add_guild()
    messages = f"{emulator.api_base}/channels/{emulator.add_text_channel(guild, 't').id}/messages"
    body = {"embeds": [{"title": "t", "fields": [{"name": "n"}]}]}
    status, answer = await call(http, "POST", messages, body)
    assert (status, at(answer, "embeds", 0, "fields", 0, "value")) == (400, ["BASE_TYPE_REQUIRED"])


async def test_wrong_types(emulator: DiscordEmulator, http: aiohttp.ClientSession) -> None:
    guild = emulator.add_guild()
    url = f"{emulator.api_base}/channels/{emulator.add_text_channel(guild, 't').id}/messages"
    for body, path, code in (
        ({"content": 5}, ("content",), "STRING_TYPE_CONVERT"),
        ({"content": "x", "flags": "64"}, ("flags",), "NUMBER_TYPE_COERCE"),
        ({"content": "x", "embeds": {"title": "t"}}, ("embeds",), "LIST_TYPE_CONVERT"),
        ({"content": "x", "tts": "yes"}, ("tts",), "BOOLEAN_TYPE_CONVERT"),
        ({"content": "x", "allowed_mentions": []}, ("allowed_mentions",), "MODEL_TYPE_CONVERT"),
    ):
        status, answer = await call(http, "POST", url, body)
        assert (status, answer["code"], at(answer, *path)) == (400, 50035, [code]), body
    dm = f"{emulator.api_base}/users/@me/channels"
    status, answer = await call(http, "POST", dm, {"recipient_id": "alice"})
    assert (status, at(answer, "recipient_id")) == (400, ["NUMBER_TYPE_COERCE"])


async def test_bad_enum_and_unknown_component_type(
    emulator: DiscordEmulator, http: aiohttp.ClientSession
) -> None:
    guild = emulator.add_guild()
    url = f"{emulator.api_base}/channels/{emulator.add_text_channel(guild, 't').id}/messages"
    body = {"content": "x", "components": [row(button(style=9))]}
    status, answer = await call(http, "POST", url, body)
    assert (status, at(answer, "components", 0, "components", 0, "style")) == (
        400,
        ["BASE_TYPE_CHOICES"],
    )
    body = {"content": "x", "allowed_mentions": {"parse": ["users", "here"]}}
    status, answer = await call(http, "POST", url, body)
    assert (status, at(answer, "allowed_mentions", "parse", 1)) == (400, ["BASE_TYPE_CHOICES"])
    body = {"content": "x", "components": [{"type": 99}]}
    status, answer = await call(http, "POST", url, body)
    assert (status, at(answer, "components", 0, "type")) == (400, ["UNION_TYPE_CHOICES"])


async def test_callback_follow_up_and_original_edit_are_checked(
    emulator: DiscordEmulator, http: aiohttp.ClientSession
) -> None:
    guild = emulator.add_guild()
    table = emulator.add_text_channel(guild, "table")
    rec = raw_interaction(emulator, table, emulator.add_member(guild, "alice"))
    callback = f"{emulator.api_base}/interactions/{rec.id}/{rec.token}/callback"
    status, answer = await call(http, "POST", callback, {"type": 4, "data": {"content": 7}})
    assert (status, at(answer, "data", "content")) == (400, ["STRING_TYPE_CONVERT"])
    assert [r.code for r in rec.rejected] == [50035] and rec.callback is None
    status, _ = await call(http, "POST", callback, {"type": 4, "data": {"content": "hi"}})
    assert status == 204
    hook = f"{emulator.api_base}/webhooks/{emulator.application_id}/{rec.token}"
    eleven = [{"title": str(i)} for i in range(11)]
    status, answer = await call(http, "POST", hook, {"embeds": eleven})
    assert (status, at(answer, "embeds")) == (400, ["BASE_TYPE_MAX_LENGTH"])
    status, answer = await call(http, "PATCH", f"{hook}/messages/@original", {"embeds": eleven})
    assert (status, at(answer, "embeds")) == (400, ["BASE_TYPE_MAX_LENGTH"])
    status, _ = await call(http, "PATCH", f"{hook}/messages/@original", {"content": "edited"})
    assert status == 200
    assert [r.code for r in rec.rejected] == [50035, 50035, 50035]


async def test_integer_snowflakes_and_unknown_fields_are_accepted(
    emulator: DiscordEmulator, http: aiohttp.ClientSession
) -> None:
    guild = emulator.add_guild()
    alice = emulator.add_member(guild, "alice")
    status, _ = await call(
        http, "POST", f"{emulator.api_base}/users/@me/channels", {"recipient_id": alice.id}
    )
    assert status == 200
    url = f"{emulator.api_base}/channels/{emulator.add_text_channel(guild, 't').id}/messages"
    body = {"content": "x", "allowed_mentions": {"users": [alice.id]}, "not_in_the_spec": 1}
    status, _ = await call(http, "POST", url, body)
    assert status == 200
    emulator.assert_nothing_refused()


# ----- the spec itself: every route is in it, loaded once, compiled faithfully ------------


async def test_every_route_the_emulator_serves_is_in_the_spec(emulator: DiscordEmulator) -> None:
    assert len(emulator.rest.routes) > 20
    assert emulator.rest.routes_without_operation() == []


async def test_a_route_missing_from_the_spec_is_reported_and_refused_loudly() -> None:
    pipe = RestPipeline(
        token=lambda: "t",
        limiter=RateLimiter(None, None),
        faults=FaultInjector(),
        notifier=ChangeNotifier(),
    )

    async def handler(req: Req) -> Reply:
        return Reply({})

    pipe.add("POST", "/channels/{channel_id}/no-such-thing", handler)
    assert pipe.routes_without_operation() == ["POST /channels/{channel_id}/no-such-thing"]
    with pytest.raises(Exception, match="not in Discord's spec"):
        pipe.check_body(pipe.routes[0], {"x": 1})


def test_the_spec_is_loaded_once_and_each_validator_compiled_once() -> None:
    spec = discord_spec()
    assert discord_spec() is spec
    op = spec.operation("POST", "/channels/{channel_id}/messages")
    assert op is not None and op.operation_id == "create_message"
    assert spec.validator(op) is spec.validator(op)


COMPILED_CASES: list[tuple[str, str, Any]] = [
    ("PUT", "/applications/{a}/commands", [stud_command(INT53)]),
    ("PUT", "/applications/{a}/commands", [stud_command(2**53)]),
    ("PUT", "/applications/{a}/commands", [{"name": "x", "type": 9}]),
    ("POST", "/channels/{c}/messages", {"content": "x", "components": [row(button())]}),
    ("POST", "/channels/{c}/messages", {"components": [row(button(style=7))]}),
    ("POST", "/channels/{c}/messages", {"components": [{"type": 99}]}),
    ("POST", "/channels/{c}/messages", {"components": [{"components": []}]}),
    ("POST", "/channels/{c}/messages", {"allowed_mentions": {"parse": ["here"]}}),
    ("POST", "/interactions/{i}/{t}/callback", {"type": 5, "data": {"flags": 64}}),
    ("POST", "/interactions/{i}/{t}/callback", {"type": 8, "data": {"choices": []}}),
    ("POST", "/interactions/{i}/{t}/callback", {"type": 42}),
]


@pytest.mark.parametrize(("method", "template", "body"), COMPILED_CASES)
def test_the_compiled_schema_gives_the_specs_verdict(method: str, template: str, body: Any) -> None:
    """The speed-ups (inlined refs, tagged unions, enums) change no verdict."""
    spec = discord_spec()
    op = spec.operation(method, template)
    assert op is not None and op.body_schema is not None
    plain = Draft202012Validator(op.body_schema, registry=spec._registry)
    compiled = spec.validator(op)
    assert isinstance(compiled, SpecValidator)
    assert compiled.is_valid(body) == plain.is_valid(body)
