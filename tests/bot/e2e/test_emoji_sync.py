"""``dealerbot emoji sync`` as a process against the emulator (issue 19): the card art
becomes the application's own emoji, uploaded only when missing, removed only when ours,
never past Discord's 2,000; and the planner it runs on, unit by unit."""

from __future__ import annotations

import asyncio
import base64
from pathlib import Path

import pytest

from dealerbot.card_art import EmojiArt, emoji_names, emoji_set
from dealerbot.card_art.emoji_limits import IMAGE_BYTES, PER_APPLICATION
from dealerbot.emoji_sync import Existing, NoGo, plan_remove, plan_upload
from tests.bot.emulator import DiscordEmulator

from .test_process import dealerbot, environment, finish

CARDS = len(emoji_names())  # 106: 53 faces in each of two decks
EMOJIS = "/emojis"


async def emoji_sync(
    emulator: DiscordEmulator, tmp_path: Path, *args: str, **env: str
) -> tuple[int, str, str]:
    settings = environment(emulator, tmp_path, **{"DISCORD_TOKEN": emulator.token, **env})
    return await finish(await dealerbot(settings, tmp_path, "emoji", "sync", *args))


def names_there(emulator: DiscordEmulator) -> list[str]:
    return sorted(e.name for e in emulator.world.application_emojis.values())


def uploads(emulator: DiscordEmulator) -> list[str]:
    return [r.json["name"] for r in emulator.requests("POST", EMOJIS) if r.status == 201]


def not_rate_limits(emulator: DiscordEmulator) -> list[str]:
    """Every refusal but a 429 (discord.py waits and sends again)."""
    return [r.describe() for r in emulator.refused if r.status != 429]


async def test_the_first_sync_uploads_the_whole_set_and_a_second_uploads_nothing(
    emulator: DiscordEmulator, tmp_path: Path
) -> None:
    code, out, err = await emoji_sync(emulator, tmp_path)
    assert code == 0, err
    assert out.splitlines() == [f"emoji sync: uploaded {CARDS}, already there 0, removed 0"]
    assert names_there(emulator) == sorted(emoji_names())
    emoji_requests = emulator.requests(path_contains=EMOJIS)
    assert emoji_requests[0].method == "GET"  # it listed what exists before any upload
    art = {a.name: a.png for a in emoji_set()}
    for request in emulator.requests("POST", EMOJIS):  # each image is the card's own PNG
        header, data = request.json["image"].split(",", 1)
        assert header == "data:image/png;base64"
        assert base64.b64decode(data) == art[request.json["name"]]
    assert not_rate_limits(emulator) == []

    posts = len(emulator.requests("POST", EMOJIS))
    code, out, err = await emoji_sync(emulator, tmp_path)
    assert code == 0, err
    assert out.splitlines() == [f"emoji sync: uploaded 0, already there {CARDS}, removed 0"]
    assert len(emulator.requests("POST", EMOJIS)) == posts
    assert names_there(emulator) == sorted(emoji_names())


async def test_remove_takes_away_the_card_emoji_and_leaves_the_operators_own(
    emulator: DiscordEmulator, tmp_path: Path
) -> None:
    logo = emulator.world.add_application_emoji("my_logo")
    code, out, err = await emoji_sync(emulator, tmp_path)
    assert code == 0, err
    assert out.splitlines() == [
        f"emoji sync: uploaded {CARDS}, already there 0, removed 0",
        "left alone: 1 emoji of the application's that are not dealerbot's",
    ]
    code, out, err = await emoji_sync(emulator, tmp_path, "--remove")
    assert code == 0, err
    assert out.splitlines() == [
        f"emoji sync --remove: uploaded 0, already there 0, removed {CARDS}",
        "left alone: 1 emoji of the application's that are not dealerbot's",
    ]
    assert list(emulator.world.application_emojis) == [logo.id]
    deleted = [r.path.rsplit("/", 1)[1] for r in emulator.requests("DELETE", EMOJIS, status=204)]
    assert len(deleted) == CARDS and str(logo.id) not in deleted
    code, out, _ = await emoji_sync(emulator, tmp_path, "--remove")  # nothing of ours left
    assert code == 0 and out.startswith(
        "emoji sync --remove: uploaded 0, already there 0, removed 0"
    )


async def test_an_almost_full_application_is_refused_before_any_upload(
    emulator: DiscordEmulator, tmp_path: Path
) -> None:
    for i in range(1950):
        emulator.world.add_application_emoji(f"theirs_{i}")
    code, out, err = await emoji_sync(emulator, tmp_path)
    assert code == 1
    assert out == "" and "Traceback" not in err
    assert err.strip().splitlines() == [
        "dealerbot: emoji sync: the application owns 1950 emoji of Discord's 2000: 50 free, "
        f"and the card art needs {CARDS} more; remove some of the application's emoji in the "
        "Developer Portal (nothing was uploaded)"
    ]
    assert emulator.requests("POST", EMOJIS) == []
    assert len(emulator.world.application_emojis) == 1950


async def test_a_set_half_there_gets_only_the_rest(
    emulator: DiscordEmulator, tmp_path: Path
) -> None:
    """Only what is missing is uploaded, and there is room when the rest fits exactly."""
    half = emoji_names()[:50]
    for name in half:
        emulator.world.add_application_emoji(name)
    for i in range(PER_APPLICATION - CARDS):  # what is left is exactly the 56 missing
        emulator.world.add_application_emoji(f"theirs_{i}")
    code, out, err = await emoji_sync(emulator, tmp_path)
    assert code == 0, err
    assert out.splitlines()[0] == f"emoji sync: uploaded {CARDS - 50}, already there 50, removed 0"
    assert sorted(uploads(emulator)) == sorted(set(emoji_names()) - set(half))
    assert len(emulator.world.application_emojis) == PER_APPLICATION


async def test_a_refusal_half_way_says_how_far_it_got_and_the_next_run_finishes(
    emulator: DiscordEmulator, tmp_path: Path
) -> None:
    emulator.world.add_application_emoji("my_logo")

    async def refuse_after_ten() -> None:
        await emulator.wait_for(lambda: len(uploads(emulator)) >= 10, 60)
        emulator.fail_next(
            "POST", "/applications/*/emojis", 400, code=50138, message="Failed to resize asset"
        )

    planted = asyncio.create_task(refuse_after_ten())
    code, out, err = await emoji_sync(emulator, tmp_path)
    await planted
    assert code == 1 and out == "" and "Traceback" not in err
    [line] = err.strip().splitlines()
    assert line.startswith("dealerbot: emoji sync: Discord refused (HTTP 400, code 50138: ")
    done = len(uploads(emulator))
    assert 10 <= done < CARDS
    assert line.endswith(f"; uploaded {done}, removed 0 before that")
    code, out, err = await emoji_sync(emulator, tmp_path)
    assert code == 0, err
    assert out.splitlines()[0] == (
        f"emoji sync: uploaded {CARDS - done}, already there {done}, removed 0"
    )
    assert names_there(emulator) == sorted([*emoji_names(), "my_logo"])


async def test_a_rate_limit_is_waited_out(emulator: DiscordEmulator, tmp_path: Path) -> None:
    emulator.fail_next("POST", "/applications/*/emojis", 429, retry_after=0.2, times=2)
    code, out, err = await emoji_sync(emulator, tmp_path)
    assert code == 0, err
    assert out.startswith(f"emoji sync: uploaded {CARDS}, already there 0")
    assert names_there(emulator) == sorted(emoji_names())


async def test_bad_settings_exit_2_and_a_rejected_token_exits_1(
    emulator: DiscordEmulator, tmp_path: Path
) -> None:
    code, _, err = await emoji_sync(emulator, tmp_path, DISCORD_TOKEN="")
    assert code == 2 and err.startswith("dealerbot: DISCORD_TOKEN is not set")
    code, _, err = await emoji_sync(emulator, tmp_path, DISCORD_API_BASE="ftp://nowhere")
    assert code == 2 and "DISCORD_API_BASE must be a https or http URL" in err
    code, _, err = await emoji_sync(emulator, tmp_path, DISCORD_TOKEN="not-the-token")
    assert code == 1
    assert err.strip().splitlines() == [
        "dealerbot: Discord rejected DISCORD_TOKEN: copy a new token from the Developer "
        "Portal (your application -> Bot -> Reset Token) into .env"
    ]
    assert emulator.world.application_emojis == {}
    settings = environment(emulator, tmp_path, DISCORD_TOKEN=emulator.token)
    code, _, err = await finish(await dealerbot(settings, tmp_path, "emoji"))
    assert code == 2 and "{sync}" in err


# ----- the planner, without Discord ----------------------------------------------------


def theirs(count: int) -> list[Existing]:
    return [Existing(i, f"theirs_{i}") for i in range(count)]


def test_there_is_room_for_the_set_up_to_discords_limit_and_not_one_past() -> None:
    art = emoji_set()
    plan = plan_upload(theirs(PER_APPLICATION - CARDS), art)
    assert len(plan.upload) == CARDS and plan.others == PER_APPLICATION - CARDS
    with pytest.raises(NoGo, match=f"{CARDS - 1} free, and the card art needs {CARDS} more"):
        plan_upload(theirs(PER_APPLICATION - CARDS + 1), art)
    with pytest.raises(NoGo, match="0 free"):
        plan_upload(theirs(PER_APPLICATION), art)


def test_our_emoji_already_there_need_no_room() -> None:
    art = emoji_set()
    ours = [Existing(10_000 + i, a.name) for i, a in enumerate(art)]
    plan = plan_upload(ours + theirs(PER_APPLICATION - CARDS), art)
    assert (plan.upload, plan.already, plan.others) == ((), CARDS, PER_APPLICATION - CARDS)


def test_an_image_past_discords_size_is_never_sent() -> None:
    art = emoji_set()
    big = EmojiArt(art[0].name, art[0].deck, art[0].face, b"\x89PNG" + b"\0" * IMAGE_BYTES)
    with pytest.raises(NoGo, match=f"card emoji {art[0].name}: its image is 262148 bytes"):
        plan_upload([], [big, *art[1:]])
    assert len(plan_upload([], art).upload) == CARDS


def test_remove_plans_only_names_of_the_set() -> None:
    listing = [Existing(1, "sc_as"), Existing(2, "my_logo"), Existing(3, "s4_back")]
    listing += [Existing(4, "sc_ts"), Existing(5, "SC_AS")]
    plan = plan_remove(listing)
    assert [e.id for e in plan.remove] == [1, 3] and plan.others == 3
