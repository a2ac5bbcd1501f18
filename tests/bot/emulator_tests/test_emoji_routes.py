"""The application's own emoji over HTTP: list, create, get, modify, delete, and each rule
Discord applies at its limit and one past it (sources in routes_emoji.py)."""

from __future__ import annotations

import base64
from collections.abc import AsyncIterator
from typing import Any

import aiohttp
import pytest

from tests.bot.emulator import DiscordEmulator
from tests.bot.emulator.routes_emoji import IMAGE_BYTES, PER_APPLICATION

PNG = b"\x89PNG\r\n\x1a\n" + b"\0" * 56
JSON = dict[str, Any]


@pytest.fixture
async def http(emulator: DiscordEmulator) -> AsyncIterator[aiohttp.ClientSession]:
    auth = {"Authorization": f"Bot {emulator.token}"}
    async with aiohttp.ClientSession(headers=auth) as session:
        yield session


def data_uri(data: bytes, kind: str = "image/png") -> str:
    return f"data:{kind};base64,{base64.b64encode(data).decode()}"


async def call(
    http: aiohttp.ClientSession, method: str, url: str, body: JSON | None = None
) -> tuple[int, Any]:
    async with http.request(method, url, json=body) as resp:
        return resp.status, None if resp.status == 204 else await resp.json()


def emojis_url(emulator: DiscordEmulator, application_id: int | None = None) -> str:
    return f"{emulator.api_base}/applications/{application_id or emulator.application_id}/emojis"


async def create(
    emulator: DiscordEmulator, http: aiohttp.ClientSession, name: str, image: str | None = None
) -> tuple[int, Any]:
    body = {"name": name, "image": data_uri(PNG) if image is None else image}
    return await call(http, "POST", emojis_url(emulator), body)


def form_codes(answer: JSON, field: str) -> list[str]:
    assert (answer["code"], answer["message"]) == (50035, "Invalid Form Body"), answer
    return [e["code"] for e in answer["errors"][field]["_errors"]]


async def test_an_emoji_is_created_listed_read_renamed_and_deleted(
    emulator: DiscordEmulator, http: aiohttp.ClientSession
) -> None:
    url = emojis_url(emulator)
    assert await call(http, "GET", url) == (200, {"items": []})
    status, made = await create(emulator, http, "sc_as")
    assert status == 201
    assert made["name"] == "sc_as" and made["user"]["id"] == str(emulator.bot_user.id)
    assert (made["roles"], made["managed"], made["available"]) == ([], False, True)
    stored = emulator.world.application_emoji(made["id"])
    assert stored is not None and stored.image == PNG and stored.content_type == "image/png"
    status, listing = await call(http, "GET", url)
    assert status == 200 and [e["id"] for e in listing["items"]] == [made["id"]]
    one = f"{url}/{made['id']}"
    assert await call(http, "GET", one) == (200, made)
    status, renamed = await call(http, "PATCH", one, {"name": "sc_ace_of_spades"})
    assert status == 200 and renamed["name"] == "sc_ace_of_spades"
    assert await call(http, "PATCH", one, {"name": "sc_ace_of_spades"}) == (200, renamed)
    assert await call(http, "DELETE", one) == (204, None)
    assert emulator.world.application_emoji(made["id"]) is None
    for method in ("GET", "PATCH", "DELETE"):
        status, answer = await call(
            http, method, one, {"name": "xx"} if method == "PATCH" else None
        )
        assert (status, answer["code"], answer["message"]) == (404, 10014, "Unknown Emoji")


async def test_another_applications_emoji_are_missing_access(
    emulator: DiscordEmulator, http: aiohttp.ClientSession
) -> None:
    other = emojis_url(emulator, emulator.application_id + 1)
    for method, url in (("GET", other), ("GET", f"{other}/123")):
        status, answer = await call(http, method, url)
        assert (status, answer["code"]) == (403, 50001)
    status, answer = await call(http, "POST", other, {"name": "xx", "image": data_uri(PNG)})
    assert (status, answer["code"]) == (403, 50001)
    assert emulator.world.application_emojis == {}


@pytest.mark.parametrize(("length", "taken"), [(2, True), (32, True), (1, False), (33, False)])
async def test_a_name_has_2_to_32_characters(
    emulator: DiscordEmulator, http: aiohttp.ClientSession, length: int, taken: bool
) -> None:
    status, answer = await create(emulator, http, "n" * length)
    if taken:
        assert status == 201
        return
    assert status == 400 and form_codes(answer, "name") == ["BASE_TYPE_BAD_LENGTH"]
    assert emulator.world.application_emojis == {}


async def test_a_name_is_too_long_to_rename_to(
    emulator: DiscordEmulator, http: aiohttp.ClientSession
) -> None:
    _, made = await create(emulator, http, "sc_as")
    one = f"{emojis_url(emulator)}/{made['id']}"
    assert (await call(http, "PATCH", one, {"name": "n" * 32}))[0] == 200
    status, answer = await call(http, "PATCH", one, {"name": "n" * 33})
    assert status == 400 and form_codes(answer, "name") == ["BASE_TYPE_BAD_LENGTH"]
    assert emulator.world.application_emoji(made["id"]).name == "n" * 32


@pytest.mark.parametrize("name", ["sc-as", "sc as", "sc_a♠", "ás", "sc.as"])
async def test_a_name_holds_only_letters_digits_and_underscores(
    emulator: DiscordEmulator, http: aiohttp.ClientSession, name: str
) -> None:
    status, answer = await create(emulator, http, name)
    assert status == 400 and form_codes(answer, "name") == ["STRING_TYPE_REGEX"]
    assert (await create(emulator, http, "Az_09"))[0] == 201
    _, made = await create(emulator, http, "az_10")
    status, answer = await call(
        http, "PATCH", f"{emojis_url(emulator)}/{made['id']}", {"name": name}
    )
    assert status == 400 and form_codes(answer, "name") == ["STRING_TYPE_REGEX"]


async def test_a_name_is_taken_once_per_application(
    emulator: DiscordEmulator, http: aiohttp.ClientSession
) -> None:
    _, first = await create(emulator, http, "sc_as")
    status, answer = await create(emulator, http, "sc_as")
    assert status == 400 and form_codes(answer, "name") == ["APPLICATION_EMOJI_NAME_ALREADY_TAKEN"]
    _, second = await create(emulator, http, "sc_ks")
    one = f"{emojis_url(emulator)}/{second['id']}"
    status, answer = await call(http, "PATCH", one, {"name": "sc_as"})
    assert status == 400 and form_codes(answer, "name") == ["APPLICATION_EMOJI_NAME_ALREADY_TAKEN"]
    assert await call(http, "DELETE", f"{emojis_url(emulator)}/{first['id']}") == (204, None)
    assert (await create(emulator, http, "sc_as"))[0] == 201  # free again once deleted
    assert sorted(e.name for e in emulator.world.application_emojis.values()) == ["sc_as", "sc_ks"]


@pytest.mark.parametrize(
    "image",
    [
        base64.b64encode(PNG).decode(),  # base64 without the data: prefix
        "https://example.com/card.png",
        "data:image/png;base64,not base64!",
        "data:text/plain;base64," + base64.b64encode(PNG).decode(),
        "",
    ],
)
async def test_the_image_is_a_data_uri(
    emulator: DiscordEmulator, http: aiohttp.ClientSession, image: str
) -> None:
    status, answer = await create(emulator, http, "sc_as", image)
    assert status == 400 and form_codes(answer, "image") == ["BINARY_TYPE_INVALID_DATA_URI"]
    assert emulator.world.application_emojis == {}


MAGIC = {
    "png": PNG,
    "jpeg": b"\xff\xd8\xff\xe0\0\x10JFIF\0" + b"\0" * 20,
    "gif": b"GIF89a" + b"\0" * 20,
    "webp": b"RIFF\x10\0\0\0WEBPVP8 " + b"\0" * 20,
    "avif": b"\0\0\0\x1cftypavif" + b"\0" * 20,
}


@pytest.mark.parametrize("kind", sorted(MAGIC))
async def test_jpeg_png_gif_webp_and_avif_are_taken_by_their_bytes(
    emulator: DiscordEmulator, http: aiohttp.ClientSession, kind: str
) -> None:
    status, made = await create(emulator, http, f"e_{kind}", data_uri(MAGIC[kind], "image/png"))
    assert status == 201
    assert emulator.world.application_emoji(made["id"]).content_type == f"image/{kind}"


@pytest.mark.parametrize("data", [b"just some text", b"BM" + b"\0" * 60, b""])
async def test_bytes_that_are_no_image_are_refused(
    emulator: DiscordEmulator, http: aiohttp.ClientSession, data: bytes
) -> None:
    status, answer = await create(emulator, http, "sc_as", data_uri(data))
    assert status == 400 and form_codes(answer, "image") == ["IMAGE_INVALID"]


async def test_a_bad_name_and_a_bad_image_are_told_together(
    emulator: DiscordEmulator, http: aiohttp.ClientSession
) -> None:
    status, answer = await create(emulator, http, "sc-as", "not a uri")
    assert status == 400
    assert form_codes(answer, "name") == ["STRING_TYPE_REGEX"]
    assert form_codes(answer, "image") == ["BINARY_TYPE_INVALID_DATA_URI"]


@pytest.mark.parametrize(("size", "taken"), [(IMAGE_BYTES, True), (IMAGE_BYTES + 1, False)])
async def test_an_image_is_at_most_256_kib(
    emulator: DiscordEmulator, http: aiohttp.ClientSession, size: int, taken: bool
) -> None:
    assert IMAGE_BYTES == 262144
    image = PNG + b"\0" * (size - len(PNG))
    status, answer = await create(emulator, http, "big", data_uri(image))
    if taken:
        assert status == 201
        return
    assert (status, answer["code"]) == (400, 50138)
    assert answer["message"] == "Failed to resize asset below the maximum size: 262144"
    assert emulator.world.application_emojis == {}


async def test_an_application_owns_at_most_2000_emoji(
    emulator: DiscordEmulator, http: aiohttp.ClientSession
) -> None:
    assert PER_APPLICATION == 2000
    for i in range(PER_APPLICATION - 1):
        emulator.world.add_application_emoji(f"old_{i}")
    status, _ = await create(emulator, http, "the_last")
    assert status == 201  # the 2,000th
    status, answer = await create(emulator, http, "one_more")
    assert (status, answer["code"], answer["message"]) == (
        400,
        30008,
        "Maximum number of emojis reached",
    )
    assert len(emulator.world.application_emojis) == PER_APPLICATION
    status, listing = await call(http, "GET", emojis_url(emulator))
    assert status == 200 and len(listing["items"]) == PER_APPLICATION


async def test_a_button_may_show_only_an_emoji_the_application_owns(
    emulator: DiscordEmulator, http: aiohttp.ClientSession
) -> None:
    """The route asks the world: the application's own emoji passes, any other id is 50035
    at ``emoji.id`` (validation_emoji.py has the source), and nothing is posted."""
    guild = emulator.add_guild()
    channel = emulator.add_text_channel(guild, "table")
    mine = emulator.world.add_application_emoji("sc_back", PNG)
    url = f"{emulator.api_base}/channels/{channel.id}/messages"

    def body(emoji_id: int) -> JSON:
        emoji = {"id": str(emoji_id), "name": "sc_back"}
        button = {"type": 2, "style": 2, "label": "My cards", "custom_id": "c", "emoji": emoji}
        return {"content": "t", "components": [{"type": 1, "components": [button]}]}

    status, _ = await call(http, "POST", url, body(mine.id))
    assert status == 200
    status, error = await call(http, "POST", url, body(mine.id + 1))
    assert (status, error["code"]) == (400, 50035)
    at = error["errors"]["components"]["0"]["components"]["0"]["emoji"]["id"]["_errors"]
    assert at == [{"code": "BUTTON_COMPONENT_INVALID_EMOJI", "message": "Invalid emoji"}]
    assert len([m for m in emulator.world.messages.values() if m.channel_id == channel.id]) == 1
