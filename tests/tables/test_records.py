"""Hand records from the table service: histories, files for every viewer, export, prune.

Random hands are played through the service (random legal actions, short stacks that go all
in, timeouts); then, for every hand and every viewer (each player and a member who was not
dealt in), the file the service hands out is read back by the project's PokerStars reader
and must hold the same hand as that viewer's model of the engine's record; no file may hold
a card the service's own events never showed that viewer.
"""

from __future__ import annotations

import random
import re

import pytest

from dealerbot.history import model
from dealerbot.history.from_engine import history_of
from dealerbot.history.pokerstars import REVEALED_NOTE, iter_hands, parse_hand
from dealerbot.store import history as history_db
from dealerbot.tables import HandRecordError, HistoryFormat
from dealerbot.tables import events as ev
from dealerbot.tables.records import played_hand

from .helpers import CHANNEL, GUILD, Harness, pick, play_hand, seat_players, snapshot

CARD = re.compile(r"(?<![A-Za-z0-9])[2-9TJQKA][cdhs](?![a-z])")
PLAYERS = (11, 12, 13, 14)
STRANGER = 99  # a member of the server who never sat down
OTHER_GUILD = 333


async def play_random_hands(
    h: Harness, hands: int, seed: int, variant: str = "stud"
) -> list[ev.HandEnded]:
    """Hands with random legal actions; stacks are short so all-ins and side pots happen."""
    rng = random.Random(seed)
    await h.service.config_set(GUILD, CHANNEL, variant=variant)
    await seat_players(h.service, PLAYERS, buy_in=None)
    ended: list[ev.HandEnded] = []
    for number in range(hands):
        if h.recorder.last_turn() is None:
            await h.service.start(GUILD, CHANNEL)
        if number % 7 == 3:  # the player to act lets his clock (and time bank) run out
            timeouts = len(h.recorder.of(ev.PlayerTimedOut))
            while len(h.recorder.of(ev.PlayerTimedOut)) == timeouts:
                await h.advance(5)
        ended.append(await play_hand(h, lambda turn: pick(turn, rng)))
        table = await h.service.table_view(GUILD, CHANNEL)
        for seat in table.seats:  # the busted and the timed-out come back
            if seat.sitting_out:
                await h.service.sit_in(GUILD, CHANNEL, seat.user_id)
            if seat.stack == 0:
                await h.service.add_chips(GUILD, CHANNEL, seat.user_id, 100)
    return [e for e in ended if not e.cancelled]


def seen_by(h: Harness, hand_id: int, viewer: int) -> set[str]:
    """Every card the service's events showed ``viewer`` in this hand (public or his own)."""
    cards: set[str] = set()
    for event in h.recorder.events:
        if getattr(event, "hand_id", None) != hand_id:
            continue
        if event.private_to not in (None, viewer):
            continue
        if isinstance(event, ev.StreetDealt):
            cards |= {str(card) for _, card in event.up_cards}
            if event.community is not None:
                cards.add(str(event.community))
        elif isinstance(event, ev.PrivateCards | ev.CardsExposed):
            cards |= {str(card) for card in event.cards}
        elif isinstance(event, ev.Showdown):
            cards |= {str(card) for shown in event.shown for card in shown.cards}
    return cards


async def full_record(h: Harness, hand_id: int) -> model.Hand:
    [logged] = await history_db.load_hands(h.db, [hand_id])
    return history_of(played_hand(logged, f"channel {CHANNEL}"))


@pytest.mark.parametrize("variant", ["stud", "stud8"])
async def test_every_viewer_gets_his_own_hand_back_and_nothing_more(
    harness: Harness, variant: str
) -> None:
    h = harness
    ended = await play_random_hands(h, 24, seed=5, variant=variant)
    assert len(ended) >= 20
    checked = 0
    for end in ended:
        full = await full_record(h, end.hand_id)
        names = {p.user_id: p.name for p in end.players}
        for viewer in (*PLAYERS, STRANGER):
            [file] = await h.service.records.hand_files(GUILD, viewer, end.hand_id)
            assert file.hand_ids == (end.hand_id,) and file.filename.endswith(".txt")
            back = parse_hand(file.text)
            name = names.get(viewer)
            expected = model.view_of(full, name)
            assert back.hand_id == end.hand_id
            assert back.seats == expected.seats and back.antes == expected.antes
            assert back.actions == expected.actions
            assert back.hole_cards == expected.hole_cards
            assert back.collected_by() == expected.collected_by()
            assert back.final_stacks() == expected.final_stacks()
            assert back.hero == (name if viewer in names else None)
            assert set(CARD.findall(file.text)) <= seen_by(h, end.hand_id, viewer), (
                f"hand {end.hand_id}: viewer {viewer} got a card he never saw"
            )
            checked += 1
        # the final stacks are the ones the service settled
        stacks = dict(end.final_stacks)
        seat_of = {p.name: p.seat for p in end.players}
        assert {seat_of[n]: s for n, s in full.final_stacks().items()} == stacks
    assert checked == len(ended) * (len(PLAYERS) + 1)
    await h.audit_ok()


async def test_last_hands_in_one_file_and_the_history_lines(harness: Harness) -> None:
    h = harness
    ended = await play_random_hands(h, 12, seed=8)
    mine = [e for e in ended if any(p.user_id == 11 for p in e.players)]
    [file] = await h.service.records.hand_files(GUILD, 11, last=5)
    assert file.filename == "hands-last-5.txt"
    assert file.hand_ids == tuple(e.hand_id for e in mine[-5:])
    assert [hand.hand_id for hand in iter_hands(file.text)] == list(file.hand_ids)
    lines = await h.service.records.history(GUILD, 11, 50)
    assert [line.hand_id for line in lines] == [e.hand_id for e in reversed(mine)]
    for line, end in zip(lines, reversed(mine), strict=True):
        assert line.channel_id == CHANNEL and line.game == "Seven Card Stud"
        assert line.net == dict(end.results).get(11, 0)
        assert " won " in line.winners
    assert len(await h.service.records.history(GUILD, 11)) == min(10, len(mine))
    [phh] = await h.service.records.hand_files(GUILD, 11, last=3, fmt="phh")
    assert phh.filename == "hands-last-3.phh" and phh.text.startswith("[1]\n")


async def test_files_split_to_fit_an_attachment_limit(harness: Harness) -> None:
    h = harness
    await play_random_hands(h, 8, seed=2)
    [whole] = await h.service.records.hand_files(GUILD, 12, last=8)
    limit = len(whole.text.encode()) // 3
    parts = await h.service.records.hand_files(GUILD, 12, last=8, max_bytes=limit)
    assert len(parts) >= 3
    assert all(len(part.text.encode()) <= limit for part in parts)
    assert sum((part.hand_ids for part in parts), ()) == whole.hand_ids
    with pytest.raises(HandRecordError, match="more than 2 files"):
        await h.service.records.hand_files(GUILD, 12, last=8, max_bytes=limit, max_files=2)
    with pytest.raises(HandRecordError, match="larger than Discord accepts"):
        await h.service.records.hand_files(GUILD, 12, last=8, max_bytes=100)


async def test_bad_requests_are_refused_and_change_nothing(harness: Harness) -> None:
    h = harness
    ended = await play_random_hands(h, 2, seed=3)
    await h.service.join(OTHER_GUILD, 444, 11, "p11")
    await h.service.join(OTHER_GUILD, 444, 12, "p12")
    await h.service.start(OTHER_GUILD, 444)
    live = h.recorder.of(ev.HandStarted, 444)[-1].hand_id
    before = await snapshot(h)
    records = h.service.records
    cases = [
        (records.hand_files(GUILD, 11, 10**9), "There is no hand 1000000000 in this server"),
        (records.hand_files(GUILD, 11, live), f"There is no hand {live} in this server"),
        (records.hand_files(OTHER_GUILD, 11, live), "still being played"),
        (records.hand_files(OTHER_GUILD, 11, ended[0].hand_id), "There is no hand"),
        (records.hand_files(GUILD, 11, 0), "whole number"),
        (records.hand_files(GUILD, 11, ended[0].hand_id, "xml"), "Unknown format"),
        (records.hand_files(GUILD, 11, last=0), "from 1 to 100"),
        (records.hand_files(GUILD, 11, last=101), "from 1 to 100"),
        (records.hand_files(GUILD, 11), "by its `id`"),
        (records.hand_files(GUILD, STRANGER, last=3), "no finished hand"),
        (records.history(GUILD, 11, 0), "from 1 to 50"),
        (records.history(GUILD, 11, 51), "from 1 to 50"),
    ]
    for call, text in cases:
        with pytest.raises(HandRecordError, match=re.escape(text)):
            await call
    assert await snapshot(h) == before
    assert await records.history(GUILD, STRANGER) == []


async def test_export_and_prune_keep_results_and_the_audit(harness: Harness) -> None:
    h = harness
    ended = await play_random_hands(h, 6, seed=4)
    files, skipped = await h.service.records.export(GUILD, fmt=HistoryFormat.POKERSTARS)
    assert skipped == []
    assert sum((f.hand_ids for f in files), ()) == tuple(e.hand_id for e in ended)
    public = [hand for f in files for hand in iter_hands(f.text)]
    assert all(hand.hero is None for hand in public)
    full, _ = await h.service.records.export(GUILD, full=True)
    fully = [hand for f in full for hand in iter_hands(f.text)]
    assert all(all(hole.complete for hole in hand.hole_cards) for hand in fully)
    # in the form trackers read: nobody's hero, hidden hands revealed as noted shows lines
    assert all(hand.hero is None for hand in fully)
    assert any(REVEALED_NOTE in f.text for f in full)
    assert [h.showed for h in fully] == [h.showed for h in public]
    ledger = (await snapshot(h))["ledger"]
    lines_before = await h.service.records.history(GUILD, 11, 50)

    ends = await h.fetch("SELECT id, ended_at FROM hands ORDER BY id")
    cutoff = ends[-1][1]  # the last hand's end: the hands that ended before it go
    older = [hand_id for hand_id, end in ends if end < cutoff]
    assert 0 < len(older) < len(ends)
    report = await history_db.prune(h.db, cutoff)
    assert report.hands == len(older)
    [kept] = await h.service.records.hand_files(GUILD, 11, ends[-1][0])
    assert parse_hand(kept.text).hand_id == ends[-1][0]
    report = await history_db.prune(h.db, h.clock.now() + 1)
    assert report.hands == len(ends) - len(older) and report.actions > 0
    assert (await history_db.prune(h.db, h.clock.now() + 1)).hands == 0  # once is enough
    after = await snapshot(h)
    assert after["ledger"] == ledger and after["actions"] == []
    await h.audit_ok()
    lines = await h.service.records.history(GUILD, 11, 50)
    assert [(x.hand_id, x.net) for x in lines] == [(x.hand_id, x.net) for x in lines_before]
    with pytest.raises(HandRecordError, match="only its result is left"):
        await h.service.records.hand_files(GUILD, 11, ended[-1].hand_id)
    files, skipped = await h.service.records.export(GUILD)
    assert files == [] and len(skipped) == len(ended)
