"""Mixed games through the table service (R15.1): a rotation, dealer's choice, the game of
each hand in the log, the rotation across a restart, and the settings' refusals."""

from __future__ import annotations

import json

import pytest

from dealerbot.engine import Variant
from dealerbot.tables import ChoiceError, ConfigError, GameMode
from dealerbot.tables import events as ev

from .helpers import CHANNEL, GUILD, Harness, passive, play_hand, seat_players

STUD, STUD8, RAZZ = Variant.STUD, Variant.STUD8, Variant.RAZZ


async def logged_variants(h: Harness) -> list[str]:
    rows = await h.fetch("SELECT config_json FROM hands ORDER BY id")
    return [json.loads(row[0])["variant"] for row in rows]


async def play_hands(h: Harness, count: int) -> list[Variant]:
    """Deal and play ``count`` hands (each started by the between-hands delay)."""
    games = []
    for _ in range(count):
        await h.advance(5)
        games.append(h.recorder.of(ev.HandStarted)[-1].variant)
        await play_hand(h, passive)
    return games


async def test_mix_rotates_every_n_hands_and_each_hand_logs_its_own_game(harness) -> None:
    h = harness
    s = h.service
    config = await s.config_set(GUILD, CHANNEL, game="mix", hands_per_game=1)
    assert (config.game, config.games, config.variant) == (GameMode.MIX, (STUD, RAZZ, STUD8), STUD)
    await seat_players(s, [1, 2], buy_in=500)
    view = await s.table_view(GUILD, CHANNEL)
    assert view.games is not None and (view.games.game, view.games.hand) == (STUD, 0)
    assert await play_hands(h, 4) == [STUD, RAZZ, STUD8, STUD]
    assert await logged_variants(h) == ["stud", "razz", "stud8", "stud"]
    stats = await h.fetch("SELECT DISTINCT hand_id, variant FROM hand_players ORDER BY hand_id")
    assert [variant for _, variant in stats] == ["stud", "razz", "stud8", "stud"]  # stats too
    ended = h.recorder.of(ev.HandEnded)
    assert [e.variant for e in ended] == [STUD, RAZZ, STUD8, STUD]
    view = await s.table_view(GUILD, CHANNEL)
    assert view.games is not None
    assert (view.games.game, view.games.hand, view.games.of, view.games.then) == (STUD, 1, 1, RAZZ)
    assert view.games.next_game is RAZZ
    assert view.stakes.variant is RAZZ  # between hands: the game dealt next
    await h.audit_ok()


async def test_the_rotation_survives_a_restart(harness) -> None:
    h = harness
    await h.service.config_set(GUILD, CHANNEL, game="mix", hands_per_game=2, games="razz stud8")
    await seat_players(h.service, [1, 2], buy_in=500)
    assert await play_hands(h, 3) == [RAZZ, RAZZ, STUD8]
    await h.restart()
    view = await h.service.table_view(GUILD, CHANNEL)
    assert view.games is not None and (view.games.game, view.games.hand) == (STUD8, 1)
    assert await play_hands(h, 2) == [STUD8, RAZZ]
    await h.audit_ok()


async def test_a_fixed_game_deals_only_that_game(harness) -> None:
    h = harness
    config = await h.service.config_set(GUILD, CHANNEL, game="razz")
    assert (config.game, config.variant) == (GameMode.RAZZ, RAZZ)
    await seat_players(h.service, [1, 2], buy_in=500)
    assert await play_hands(h, 2) == [RAZZ, RAZZ]
    assert (await h.service.table_view(GUILD, CHANNEL)).games is None


async def offered(h: Harness):
    view = await h.service.table_view(GUILD, CHANNEL)
    assert view.games is not None and view.games.choice is not None
    return view.games.choice


async def test_dealers_choice_the_button_player_picks_others_are_refused(harness) -> None:
    h = harness
    s = h.service
    await s.config_set(GUILD, CHANNEL, game="choice", hands_per_game=2, choice_seconds=20)
    await seat_players(s, [1, 2, 3], buy_in=500)
    await h.advance(5)
    assert not h.recorder.of(ev.HandStarted)  # waiting for the pick
    choice = await offered(h)
    assert choice.options == (STUD, RAZZ, STUD8)
    assert choice.deadline == h.clock.now() + 20
    button_player = choice.user_id
    other = next(u for u in (1, 2, 3) if u != button_player)
    before = await h.fetch("SELECT COUNT(*) FROM hands")
    with pytest.raises(ChoiceError, match=f"Only player{button_player}, on the button"):
        await s.choose_game(GUILD, CHANNEL, other, "razz")
    with pytest.raises(ChoiceError, match="Choose one of the table's games"):
        await s.choose_game(GUILD, CHANNEL, button_player, "holdem")
    assert await h.fetch("SELECT COUNT(*) FROM hands") == before
    await s.choose_game(GUILD, CHANNEL, button_player, "razz")
    await h.advance(0)
    (started,) = h.recorder.of(ev.HandStarted)
    assert started.variant is RAZZ
    assert next(p.seat for p in started.players if p.user_id == button_player) == (
        started.button_seat
    )
    view = await s.table_view(GUILD, CHANNEL)
    assert view.games is not None and view.games.note == f"player{button_player} chose Razz"
    with pytest.raises(ChoiceError, match="No game is being chosen"):
        await s.choose_game(GUILD, CHANNEL, button_player, "stud")
    await play_hand(h, passive)
    assert await play_hands(h, 1) == [RAZZ]  # the second hand of the stint
    # The stint is over: the next button player chooses; time runs out: razz continues.
    await h.advance(5)
    assert len(h.recorder.of(ev.HandStarted)) == 2
    choice = await offered(h)
    await h.advance(19)
    assert len(h.recorder.of(ev.HandStarted)) == 2
    await h.advance(1)
    assert h.recorder.of(ev.HandStarted)[-1].variant is RAZZ
    view = await s.table_view(GUILD, CHANNEL)
    assert view.games is not None and view.games.choice is None
    assert view.games.note == f"player{choice.user_id} did not choose in time: Razz continues"
    await play_hand(h, passive)
    assert await logged_variants(h) == ["razz", "razz", "razz"]
    await h.audit_ok()


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"game": "holdem"}, "unknown game 'holdem': choose 'stud', 'stud8', 'razz', 'mix'"),
        ({"games": ""}, "list of games is empty: name one or more of 'stud', 'stud8', 'razz'"),
        ({"games": "stud omaha"}, "unknown game 'omaha' in the list"),
        ({"games": "stud stud"}, "name each game once"),
        ({"hands_per_game": 0}, "hands per game must be between 1 and 50"),
        ({"hands_per_game": 51}, "hands per game must be between 1 and 50"),
        ({"game": "choice", "games": "razz"}, "dealer's choice needs two or more"),
        ({"choice_seconds": 2}, "between 5 and 120"),
    ],
)
async def test_bad_game_settings_are_refused_saying_what_is_allowed(
    harness, changes: dict[str, object], message: str
) -> None:
    h = harness
    await seat_players(h.service, [1, 2], buy_in=500)
    before = await h.service.config_get(GUILD, CHANNEL)
    with pytest.raises(ConfigError) as info:
        await h.service.config_set(GUILD, CHANNEL, **changes)
    assert message.lower() in str(info.value).lower()
    assert await h.service.config_get(GUILD, CHANNEL) == before


async def test_a_new_game_setting_applies_from_the_next_hand(harness) -> None:
    h = harness
    s = h.service
    await seat_players(s, [1, 2], buy_in=500)
    await h.advance(5)
    await s.config_set(GUILD, CHANNEL, game="mix", games="stud8,razz", hands_per_game=1)
    view = await s.table_view(GUILD, CHANNEL)
    assert view.stakes.variant is STUD  # the hand being played keeps its game
    await play_hand(h, passive)
    assert await play_hands(h, 2) == [STUD8, RAZZ]
    assert await logged_variants(h) == ["stud", "stud8", "razz"]


async def test_a_restart_during_a_pick_offers_it_again(harness) -> None:
    h = harness
    await h.service.config_set(GUILD, CHANNEL, game="choice", games="stud8 razz")
    await seat_players(h.service, [1, 2], buy_in=500)
    await h.advance(5)
    first = await offered(h)
    await h.restart()
    await h.advance(5)
    again = await offered(h)
    assert (again.user_id, again.options) == (first.user_id, (STUD8, RAZZ))
    await h.service.choose_game(GUILD, CHANNEL, again.user_id, "stud8")
    await h.advance(0)
    assert h.recorder.of(ev.HandStarted)[-1].variant is STUD8


async def test_server_defaults_set_the_game_of_tables_without_their_own(harness) -> None:
    h = harness
    await seat_players(h.service, [1, 2], buy_in=500)
    await h.service.guild_defaults_set(GUILD, game="mix", games="razz,stud", hands_per_game=1)
    assert await play_hands(h, 3) == [RAZZ, STUD, RAZZ]
