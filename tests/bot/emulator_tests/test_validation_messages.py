"""Message bodies: content, embeds, allowed_mentions, flags, files and emptiness."""

from __future__ import annotations

from functools import partial
from typing import Any

import pytest

from tests.bot.emulator.validation import validate_message

from .helpers import MESSAGE, MESSAGES, WEBHOOK, codes_at, refusal, through_spec


def send(body: dict[str, Any], **kw: Any) -> None:
    """The spec's check of the route, then the hand-written rules, as the pipeline runs."""
    partial_edit = kw.pop("partial", False)
    if partial_edit:
        through_spec("PATCH", MESSAGE, body)
    else:
        through_spec("POST", WEBHOOK if kw.get("interaction") else MESSAGES, body)
    validate_message(body, partial=partial_edit, **kw)


# ----- content and emptiness -------------------------------------------------------------


def test_content_2000() -> None:
    send({"content": "x" * 2000})
    error = refusal(partial(send, {"content": "x" * 2001}))
    assert (error.status, error.code) == (400, 50035)
    assert codes_at(error, "content") == ["BASE_TYPE_MAX_LENGTH"]


def test_content_must_be_a_string() -> None:
    error = refusal(partial(send, {"content": ["x"]}))
    assert codes_at(error, "content") == ["STRING_TYPE_CONVERT"]


@pytest.mark.parametrize("body", [{}, {"content": ""}, {"content": "   "}, {"embeds": []}])
def test_empty_message_is_50006(body: dict[str, Any]) -> None:
    error = refusal(partial(send, body))
    assert (error.status, error.code, error.message) == (400, 50006, "Cannot send an empty message")


def test_a_file_alone_is_not_empty() -> None:
    send({}, files=[{"field": "files[0]", "filename": "h.txt", "size": 3}])


def test_an_edit_may_leave_fields_out() -> None:
    send({}, partial=True)


# ----- embeds ------------------------------------------------------------------------------


def embed(**fields: Any) -> dict[str, Any]:
    return {"title": "t", **fields}


@pytest.mark.parametrize(("key", "limit"), [("title", 256), ("description", 4096)])
def test_embed_title_and_description(key: str, limit: int) -> None:
    send({"embeds": [{key: "x" * limit}]})
    error = refusal(partial(send, {"embeds": [{key: "x" * (limit + 1)}]}))
    assert codes_at(error, "embeds", 0, key) == ["BASE_TYPE_MAX_LENGTH"]


def test_embed_footer_2048_and_author_256() -> None:
    send({"embeds": [embed(footer={"text": "f" * 2048}, author={"name": "a" * 256})]})
    error = refusal(partial(send, {"embeds": [embed(footer={"text": "f" * 2049})]}))
    assert codes_at(error, "embeds", 0, "footer", "text") == ["BASE_TYPE_MAX_LENGTH"]
    error = refusal(partial(send, {"embeds": [embed(author={"name": "a" * 257})]}))
    assert codes_at(error, "embeds", 0, "author", "name") == ["BASE_TYPE_MAX_LENGTH"]


def test_embed_footer_and_author_need_their_text() -> None:
    error = refusal(partial(send, {"embeds": [embed(footer={"icon_url": "https://x"})]}))
    assert codes_at(error, "embeds", 0, "footer", "text") == ["BASE_TYPE_REQUIRED"]
    error = refusal(partial(send, {"embeds": [embed(author={"url": "https://x"})]}))
    assert codes_at(error, "embeds", 0, "author", "name") == ["BASE_TYPE_REQUIRED"]


def test_25_fields() -> None:
    fields = [{"name": f"n{i}", "value": "v"} for i in range(25)]
    send({"embeds": [embed(fields=fields)]})
    error = refusal(partial(send, {"embeds": [embed(fields=[*fields, fields[0]])]}))
    assert codes_at(error, "embeds", 0, "fields") == ["BASE_TYPE_MAX_LENGTH"]


def test_field_name_256_value_1024_both_non_empty() -> None:
    send({"embeds": [embed(fields=[{"name": "n" * 256, "value": "v" * 1024}])]})
    for key, text, code in (
        ("name", "n" * 257, "BASE_TYPE_MAX_LENGTH"),
        ("value", "v" * 1025, "BASE_TYPE_MAX_LENGTH"),
        ("name", "", "BASE_TYPE_REQUIRED"),
        ("value", "", "BASE_TYPE_REQUIRED"),
    ):
        field = {"name": "n", "value": "v", key: text}
        error = refusal(partial(send, {"embeds": [embed(fields=[field])]}))
        assert codes_at(error, "embeds", 0, "fields", 0, key) == [code]


def test_ten_embeds() -> None:
    send({"embeds": [embed() for _ in range(10)]})
    error = refusal(partial(send, {"embeds": [embed() for _ in range(11)]}))
    assert codes_at(error, "embeds") == ["BASE_TYPE_MAX_LENGTH"]


def test_6000_characters_over_all_embeds_of_a_message() -> None:
    # Title, description, field names/values, footer text and author name all count.
    one = {
        "title": "t" * 200,
        "description": "d" * 2000,
        "fields": [{"name": "n" * 100, "value": "v" * 500}],
        "footer": {"text": "f" * 100},
        "author": {"name": "a" * 100},
    }  # 3000 characters
    send({"embeds": [one, one]})
    over = {**one, "author": {"name": "a" * 101}}
    error = refusal(partial(send, {"embeds": [one, over]}))
    assert codes_at(error, "embeds") == ["MAX_EMBED_SIZE_EXCEEDED"]


def test_embed_color_is_24_bit() -> None:
    send({"embeds": [embed(color=0xFFFFFF)]})
    error = refusal(partial(send, {"embeds": [embed(color=0x1000000)]}))
    assert codes_at(error, "embeds", 0, "color") == ["NUMBER_TYPE_MAX"]


# ----- allowed_mentions --------------------------------------------------------------------


def mentions(**value: Any) -> dict[str, Any]:
    return {"content": "hi", "allowed_mentions": value}


def test_allowed_mentions_shapes_discord_py_sends() -> None:
    send(mentions(parse=[], replied_user=False))
    send(mentions(parse=["users", "roles", "everyone"]))
    send(mentions(parse=["roles"], users=["123456789012345678"]))


def test_parse_values_are_users_roles_everyone() -> None:
    error = refusal(partial(send, mentions(parse=["users", "here"])))
    assert codes_at(error, "allowed_mentions", "parse", 1) == ["BASE_TYPE_CHOICES"]


@pytest.mark.parametrize("key", ["users", "roles"])
def test_parse_and_explicit_ids_are_mutually_exclusive(key: str) -> None:
    error = refusal(partial(send, mentions(parse=[key], **{key: ["123456789012345678"]})))
    assert codes_at(error, "allowed_mentions") == ["MESSAGE_ALLOWED_MENTIONS_PARSE_EXCLUSIVE"]
    send(mentions(parse=[key], **{key: []}))  # an empty list is no conflict


def test_at_most_100_ids() -> None:
    ids = [str(10**17 + i) for i in range(100)]
    send(mentions(users=ids))
    error = refusal(partial(send, mentions(users=[*ids, str(10**18)])))
    assert codes_at(error, "allowed_mentions", "users") == ["BASE_TYPE_MAX_LENGTH"]
    error = refusal(partial(send, mentions(users=["alice"])))
    assert codes_at(error, "allowed_mentions", "users", 0) == ["NUMBER_TYPE_COERCE"]


# ----- flags -------------------------------------------------------------------------------


def test_ephemeral_only_on_interaction_answers() -> None:
    send({"content": "secret", "flags": 64}, interaction=True)
    error = refusal(partial(send, {"content": "secret", "flags": 64}))
    assert (error.code, codes_at(error, "flags") != []) == (50035, True)


def test_flags_a_channel_message_may_carry() -> None:
    for flag in (1 << 2, 1 << 12, 1 << 15):  # SUPPRESS_EMBEDS, SUPPRESS_NOTIFICATIONS, V2
        body: dict[str, Any] = {"content": "x", "flags": flag}
        if flag == 1 << 15:
            body = {"components": [{"type": 10, "content": "x"}], "flags": flag}
        send(body)
    error = refusal(partial(send, {"content": "x", "flags": 1 << 7}))  # LOADING
    assert codes_at(error, "flags") != []


def test_edits_tolerate_the_flags_discord_py_echoes() -> None:
    send({"content": "x", "flags": 64 | 4}, partial=True)


# ----- files -------------------------------------------------------------------------------


def upload(i: int, size: int = 10) -> dict[str, Any]:
    return {"field": f"files[{i}]", "filename": f"f{i}.txt", "size": size}


def test_ten_files() -> None:
    send({"content": "x"}, files=[upload(i) for i in range(10)])
    error = refusal(partial(send, {"content": "x"}, files=[upload(i) for i in range(11)]))
    assert codes_at(error, "files") == ["BASE_TYPE_MAX_LENGTH"]


def test_file_size_limit_is_413_40005() -> None:
    limit = 10 * 1024 * 1024
    send({}, files=[upload(0, limit)])
    error = refusal(partial(send, {}, files=[upload(0, limit + 1)]))
    assert (error.status, error.code, error.message) == (413, 40005, "Request entity too large")
    send({}, files=[upload(0, limit + 1)], size_limit=limit * 2)


def test_embed_urls_must_be_well_formed_http() -> None:
    send({"embeds": [embed(url="https://example.com/hand/5", image={"url": "attachment://h.png"})]})
    error = refusal(partial(send, {"embeds": [embed(url="example.com")]}))
    assert codes_at(error, "embeds", 0, "url") == ["URL_TYPE_INVALID_URL"]
    error = refusal(partial(send, {"embeds": [embed(url="attachment://h.png")]}))
    assert codes_at(error, "embeds", 0, "url") == ["URL_TYPE_INVALID_SCHEME"]
    error = refusal(partial(send, {"embeds": [embed(thumbnail={"url": "ftp://x/y.png"})]}))
    assert codes_at(error, "embeds", 0, "thumbnail", "url") == ["URL_TYPE_INVALID_SCHEME"]
