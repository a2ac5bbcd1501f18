"""Review R (hostile review of phase 2): what one player could learn of another's cards,
and chips through queued top-ups, checked through the table service."""

from __future__ import annotations

import re

import pytest

from dealerbot.engine.events import ActionKind
from dealerbot.history.pokerstars import parse_hand
from dealerbot.store import wallets as wallets_db
from dealerbot.tables import ClosedBecause, errors
from dealerbot.tables import events as ev

from .helpers import CHANNEL, GUILD, Harness, passive, play_hand, seat_players
from .test_records import CARD, PLAYERS, STRANGER, play_random_hands, seen_by


async def test_a_name_made_like_a_repeated_name_sees_no_one_elses_down_cards(
    harness: Harness,
) -> None:
    """Two players named Bob become "Bob (n)" in a history; a third who calls himself
    "Bob (n)" must still get only his own down cards in his file of the hand."""
    h = harness
    await h.service.join(GUILD, CHANNEL, 11, "Bob")
    await h.service.join(GUILD, CHANNEL, 12, "Bob")
    victim_seat = h.recorder.of(ev.PlayerJoined)[-1].seat
    await h.service.join(GUILD, CHANNEL, 13, f"Bob ({victim_seat + 1})")

    def victim_folds(turn: ev.Turn) -> ActionKind:
        kinds = [o.kind for o in turn.options]
        if turn.user_id == 12 and ActionKind.FOLD in kinds:
            return ActionKind.FOLD
        return passive(turn)

    await h.service.start(GUILD, CHANNEL)
    end = await play_hand(h, victim_folds)
    for viewer in (11, 12, 13):
        [file] = await h.service.records.hand_files(GUILD, viewer, end.hand_id)
        leaked = set(CARD.findall(file.text)) - seen_by(h, end.hand_id, viewer)
        assert not leaked, f"viewer {viewer} got cards he never saw: {sorted(leaked)}"
        names = re.findall(r"^Seat \d+: (.+) \(\d+ in chips\)", file.text, re.M)
        assert len(names) == 3 and len(set(names)) == 3, names
        assert [seat.name for seat in parse_hand(file.text).seats] == names
    await h.audit_ok()


OTHER = 333  # a second channel of the same server


async def chips_of(h: Harness, user: int) -> int:
    """All of a player's chips in the server: his wallet and his stacks."""
    wallet = await h.service.balance(GUILD, user)
    return wallet.chips + wallet.table_chips


async def start_and_queue(h: Harness, amount: int = 100) -> dict[int, int]:
    """Players 1 and 2 sit with 200, a hand starts, player 1 queues ``amount``."""
    await seat_players(h.service, [1, 2], buy_in=200)
    await h.service.start(GUILD, CHANNEL)
    total = {user: await chips_of(h, user) for user in (1, 2)}
    view = await h.service.add_chips(GUILD, CHANNEL, 1, amount)
    assert view.table.hand_id is not None  # queued, not moved
    return total


async def test_a_queued_top_up_of_a_player_who_leaves_moves_nothing(harness: Harness) -> None:
    h = harness
    total = await start_and_queue(h)
    await h.service.leave(GUILD, CHANNEL, 1)  # the dealer plays his hand out
    await play_hand(h, passive)
    table = await h.service.table_view(GUILD, CHANNEL)
    assert table.seat_of(1) is None
    wallet = await h.service.balance(GUILD, 1)
    assert wallet.table_chips == 0
    assert sum(total.values()) == await chips_of(h, 1) + await chips_of(h, 2)
    await h.audit_ok()


async def test_a_queued_top_up_dies_with_a_table_that_closes(harness: Harness) -> None:
    h = harness
    total = await start_and_queue(h)
    assert await h.service.close_table(GUILD, CHANNEL) is False  # after this hand
    await play_hand(h, passive)
    for user in (1, 2):
        assert (await h.service.balance(GUILD, user)).table_chips == 0
    assert sum(total.values()) == await chips_of(h, 1) + await chips_of(h, 2)
    await h.audit_ok()


async def test_a_queued_top_up_dies_with_a_deleted_channel(harness: Harness) -> None:
    h = harness
    total = await start_and_queue(h)
    [done] = await h.service.closing.abandon(GUILD, CHANNEL, ClosedBecause.CHANNEL_DELETED)
    assert dict(done.cashed_out) == {1: 200, 2: 200}  # the queued 100 never left the wallet
    for user in (1, 2):
        assert await chips_of(h, user) == total[user]
        assert (await h.service.balance(GUILD, user)).table_chips == 0
    await h.audit_ok()


async def test_a_queued_top_up_survives_a_restart_once(harness: Harness) -> None:
    """Queued top-ups are rows since a8a7763: moved once after the restart, never twice."""
    h = harness
    total = await start_and_queue(h)
    await h.restart()
    await play_hand(h, passive)
    await h.restart()
    table = await h.service.table_view(GUILD, CHANNEL)
    [ended] = h.recorder.of(ev.HandEnded)
    seat = table.seat_of(1)
    assert seat is not None and seat.stack == dict(ended.final_stacks)[seat.seat] + 100
    assert sum(total.values()) == await chips_of(h, 1) + await chips_of(h, 2)
    await h.audit_ok()


async def test_top_ups_queued_at_two_tables_never_overdraw_the_wallet(harness: Harness) -> None:
    """Each table checks the wallet alone: the second top-up to be moved finds it short and
    is dropped, with no chip moved and none made."""
    h = harness
    s = h.service
    await seat_players(s, [1, 2], buy_in=200)
    await seat_players(s, [1, 2], buy_in=200, channel=OTHER)
    await wallets_db.admin_take(h.db, GUILD, 1, (await s.balance(GUILD, 1)).chips - 150)
    await s.start(GUILD, CHANNEL)
    await s.start(GUILD, OTHER)
    total = {user: await chips_of(h, user) for user in (1, 2)}
    await s.add_chips(GUILD, CHANNEL, 1, 100)
    await s.add_chips(GUILD, OTHER, 1, 100)  # 100 + 100 > 150, but each is 100 <= 150
    await play_hand(h, passive)
    await play_hand(h, passive, channel=OTHER)
    wallet = await s.balance(GUILD, 1)
    assert wallet.chips == 50  # one of them moved
    assert sum(total.values()) == await chips_of(h, 1) + await chips_of(h, 2)
    await h.audit_ok()


async def test_add_chips_at_a_table_closing_after_its_hand_is_refused(harness: Harness) -> None:
    """The table deals no next hand: queuing chips 'before the next deal' would be a promise
    the dealer cannot keep."""
    h = harness
    await seat_players(h.service, [1, 2], buy_in=200)
    await h.service.start(GUILD, CHANNEL)
    assert await h.service.close_table(GUILD, CHANNEL) is False
    with pytest.raises(errors.TableClosingError):
        await h.service.add_chips(GUILD, CHANNEL, 1, 100)
    await h.audit_ok()


@pytest.mark.parametrize("text", ["²", "--5", "-²", "1e3", "", "٣x"])
async def test_a_setting_given_as_text_that_is_no_number_is_refused_in_words(
    harness: Harness, text: str
) -> None:
    h = harness
    before = await h.service.config_get(GUILD, CHANNEL)
    with pytest.raises(errors.ConfigError, match="whole number"):
        await h.service.config_set(GUILD, CHANNEL, small_bet=text)
    with pytest.raises(errors.ConfigError, match="whole number"):
        await h.service.guild_defaults_set(GUILD, ante=text)
    assert await h.service.config_get(GUILD, CHANNEL) == before


async def test_a_button_player_who_left_no_longer_picks_the_game(harness: Harness) -> None:
    h = harness
    s = h.service
    await s.config_set(GUILD, CHANNEL, game="choice", choice_seconds=20)
    await seat_players(s, [1, 2, 3], buy_in=500)
    await h.advance(5)
    view = await s.table_view(GUILD, CHANNEL)
    assert view.games is not None and view.games.choice is not None
    chooser = view.games.choice.user_id
    outcome = await s.leave(GUILD, CHANNEL, chooser)
    assert outcome.left_now
    with pytest.raises(errors.TableError):
        await s.choose_game(GUILD, CHANNEL, chooser, "razz")
    await h.advance(0)
    assert not h.recorder.of(ev.HandStarted)  # no hand dealt on his word
    await h.audit_ok()


async def test_phh_files_and_the_public_export_hold_only_cards_the_viewer_saw(
    harness: Harness,
) -> None:
    h = harness
    ended = await play_random_hands(h, 10, seed=21)
    for end in ended:
        for viewer in (*PLAYERS, STRANGER):
            [file] = await h.service.records.hand_files(GUILD, viewer, end.hand_id, "phh")
            leaked = set(CARD.findall(file.text)) - seen_by(h, end.hand_id, viewer)
            assert not leaked, f"hand {end.hand_id} viewer {viewer}: {sorted(leaked)}"
    public, _ = await h.service.records.export(GUILD)
    full, _ = await h.service.records.export(GUILD, full=True)
    bites, checked = False, 0
    for file, whole in zip(public, full, strict=True):
        for part, whole_part in zip(hand_texts(file.text), hand_texts(whole.text), strict=True):
            hand_id, checked = int(part[0]), checked + 1
            assert set(CARD.findall(part[1])) <= seen_by(h, hand_id, STRANGER), hand_id
            bites |= not set(CARD.findall(whole_part[1])) <= seen_by(h, hand_id, STRANGER)
    assert checked == len(ended) and bites  # the full export shows down cards the public never saw


def hand_texts(text: str) -> list[tuple[str, str]]:
    """(hand id, text) of each hand in a PokerStars file."""
    return re.findall(r"PokerStars Hand #(\d+):(.*?)(?=PokerStars Hand #|\Z)", text, re.S)


async def test_a_hand_whose_log_no_longer_replays_does_not_break_the_history(
    harness: Harness,
) -> None:
    """A log the engine cannot play to its end (here: its last action lost) is that hand's
    problem: /stud history still lists every hand, and asking for that hand's file is
    refused in words."""
    h = harness
    await seat_players(h.service, [1, 2], buy_in=200)
    ended = []
    for _ in range(2):
        await h.service.start(GUILD, CHANNEL)
        ended.append(await play_hand(h, passive))
    broken = ended[0].hand_id
    [(last,)] = await h.fetch("SELECT MAX(seq) FROM hand_actions WHERE hand_id = ?", (broken,))
    await h.execute("DELETE FROM hand_actions WHERE hand_id = ? AND seq = ?", (broken, last))
    lines = await h.service.records.history(GUILD, 1)
    assert [line.hand_id for line in lines] == [e.hand_id for e in reversed(ended)]
    assert " won " in lines[-1].winners
    with pytest.raises(errors.TableError, match=str(broken)):
        await h.service.records.hand_files(GUILD, 1, broken)
    [file] = await h.service.records.hand_files(GUILD, 1, ended[1].hand_id)
    assert file.hand_ids == (ended[1].hand_id,)


async def test_add_chips_after_asking_to_leave_is_refused(harness: Harness) -> None:
    """He leaves when the hand ends: 'queued before the next deal' would never happen."""
    h = harness
    await seat_players(h.service, [1, 2], buy_in=200)
    await h.service.start(GUILD, CHANNEL)
    assert not (await h.service.leave(GUILD, CHANNEL, 1)).left_now
    with pytest.raises(errors.TableError, match="leave"):
        await h.service.add_chips(GUILD, CHANNEL, 1, 100)
    await h.audit_ok()
