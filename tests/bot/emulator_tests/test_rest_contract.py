"""The emulator's raw REST contract (no bot): headers, errors, real rate limits."""

from __future__ import annotations

import aiohttp

from tests.bot.emulator import (
    DiscordEmulator,
)

# ----- raw REST contract ------------------------------------------------------------------


async def test_rest_contract_without_a_bot(emulator: DiscordEmulator) -> None:
    guild = emulator.add_guild()
    channel = emulator.add_text_channel(guild, "t")
    auth = {"Authorization": f"Bot {emulator.token}"}
    async with aiohttp.ClientSession(headers=auth) as http:
        async with http.get(f"{emulator.api_base}/users/@me") as resp:
            assert resp.status == 200
            assert resp.headers["Content-Type"] == "application/json"
            for header in ("Limit", "Remaining", "Reset", "Reset-After", "Bucket"):
                assert f"X-RateLimit-{header}" in resp.headers
            assert (await resp.json())["id"] == str(emulator.bot_user.id)
        async with http.get(f"{emulator.api_base}/no/such/route") as resp:
            assert resp.status == 404
            assert await resp.json() == {"message": "404: Not Found", "code": 0}
        rows = [
            {"type": 1, "components": [{"type": 2, "style": 1, "label": "x", "custom_id": f"b{i}"}]}
            for i in range(6)
        ]
        url = f"{emulator.api_base}/channels/{channel.id}/messages"
        async with http.post(url, json={"content": "x", "components": rows}) as resp:
            assert resp.status == 400
            body = await resp.json()
            assert body["code"] == 50035 and "components" in body["errors"]
        async with http.post(url, json={"content": ""}) as resp:
            assert (await resp.json())["code"] == 50006
        async with http.get(f"{url}/12345") as resp:
            assert (resp.status, (await resp.json())["code"]) == (404, 10008)
        async with http.get(f"{emulator.api_base}/channels/999") as resp:
            assert (resp.status, (await resp.json())["code"]) == (404, 10003)
    async with (
        aiohttp.ClientSession() as http,
        http.get(f"{emulator.api_base}/users/@me") as resp,
    ):
        assert resp.status == 401
    assert ("GET", "/no/such/route") in emulator.unknown_routes
    assert [r.status for r in emulator.requests("GET", "/users/@me")] == [200, 401]


async def test_route_limit_gives_real_429(emulator: DiscordEmulator) -> None:
    guild = emulator.add_guild()
    channel = emulator.add_text_channel(guild, "t")
    emulator.set_route_limit("POST", "/channels/{channel_id}/messages", limit=2, window=60.0)
    url = f"{emulator.api_base}/channels/{channel.id}/messages"
    statuses = []
    remaining = []
    async with aiohttp.ClientSession(headers={"Authorization": f"Bot {emulator.token}"}) as http:
        for n in range(3):
            async with http.post(url, json={"content": str(n)}) as resp:
                statuses.append(resp.status)
                remaining.append(resp.headers.get("X-RateLimit-Remaining"))
                body = await resp.json()
    assert statuses == [200, 200, 429]
    assert remaining == ["1", "0", "0"]
    assert body["global"] is False and body["retry_after"] > 0
    assert len(emulator.channel_messages(channel)) == 2
    [limited] = emulator.refused
    assert (limited.status, limited.route) == (429, "/channels/{channel_id}/messages")
    assert "global=False" in limited.describe()
