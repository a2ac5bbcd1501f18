"""No public event ever carries a face-down card before it is exposed (R8.2) or shown (R8.1).

Many hands on two tables (stud and stud/8, short stacks so all-ins and exposures happen);
every public event is searched, field by field, for any card that is still face down.
"""

from __future__ import annotations

import dataclasses
import random
from collections import defaultdict
from collections.abc import Iterator

from dealerbot.engine.cards import Card
from dealerbot.tables import events as ev
from dealerbot.tables.views import SeatView, TableView

from .chaos import chaos
from .helpers import GUILD, Recorder, make_harness


def cards_in(value: object) -> Iterator[Card]:
    """Every Card anywhere inside an event (dataclasses, tuples, lists, dicts)."""
    if isinstance(value, Card):
        yield value
    elif dataclasses.is_dataclass(value) and not isinstance(value, type):
        for f in dataclasses.fields(value):
            yield from cards_in(getattr(value, f.name))
    elif isinstance(value, tuple | list | set | frozenset):
        for item in value:
            yield from cards_in(item)
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from cards_in(key)
            yield from cards_in(item)


def leaks(events: list[ev.TableEvent]) -> list[str]:
    """Public events that show a card still face down in the hand they belong to."""
    secret: dict[int, dict[Card, int]] = defaultdict(dict)  # hand -> down card -> seat
    owner: dict[tuple[int, int], int] = {}  # (hand, user) -> seat
    for event in events:
        if isinstance(event, ev.HandStarted):
            for player in event.players:
                owner[(event.hand_id, player.user_id)] = player.seat
        if isinstance(event, ev.PrivateCards):
            seat = owner[(event.hand_id, event.user_id)]
            for card in event.down_cards:
                secret[event.hand_id][card] = seat
    current: dict[int, int] = {}  # channel -> hand being played
    revealed: dict[int, set[int]] = defaultdict(set)  # hand -> seats turned face up
    problems = []
    for index, event in enumerate(events):
        if event.private_to is not None:
            continue
        if isinstance(event, ev.HandStarted):
            current[event.channel_id] = event.hand_id
        hand = getattr(event, "hand_id", None)
        if isinstance(event, ev.TableChanged):
            hand = event.view.hand_id
        if hand is None:
            hand = current.get(event.channel_id)
        if hand is None:
            continue
        if isinstance(event, ev.CardsExposed):
            revealed[hand].add(event.seat)
        if isinstance(event, ev.Showdown):
            revealed[hand].update(shown.seat for shown in event.shown)
        hidden = {c for c, seat in secret[hand].items() if seat not in revealed[hand]}
        shown = set(cards_in(event)) & hidden
        if shown:
            problems.append(f"event {index} {type(event).__name__} shows {sorted(shown)}")
    return problems


def test_the_scanner_finds_a_planted_leak():
    """The scanner must be able to fail: plant a down card in a public view."""
    down = Card.parse("As")
    events: list[ev.TableEvent] = [
        ev.HandStarted(1, 2, 7, 1, "c" * 64, 0, (ev.SeatedPlayer(0, 5, "Ann", 100),)),
        ev.PrivateCards(1, 2, 5, 7, 3, (down, Card.parse("2c"), Card.parse("3d")), (False,) * 3),
    ]
    assert not leaks(events)
    seat = SeatView(0, 5, "Ann", 99, (None, down), 0, True, False, False, False, False, True, True)
    view = TableView(
        1, 2, 1, None, (seat,), "playing", 7, 1, "c", 3, 3, None, 0, 5, 0.0, 0, None, ()
    )  # type: ignore[arg-type]
    events.append(ev.TableChanged(1, 2, view))
    assert leaks(events) == ["event 2 TableChanged shows [Card('As')]"]
    events.append(ev.CardsExposed(1, 2, 7, 0, 5, (down,)))  # once exposed it may be shown
    events.append(ev.TableChanged(1, 2, view))
    assert len(leaks(events)) == 1


async def test_no_public_event_carries_a_down_card(db_url):
    h = await make_harness(db_url, seed=11)
    try:
        await h.service.config_set(GUILD, 402, variant="stud8")
        users = list(range(1, 11))
        for i, user in enumerate(users[:8]):
            await h.service.join(GUILD, (401, 402)[i % 2], user, f"u{user}", 100)
        stats = await chaos(h, [401, 402], users, 80, random.Random(4))
        assert stats.hands >= 80
        recorder: Recorder = h.recorder
        assert recorder.of(ev.CardsExposed), "no all-in exposure happened: widen the test"
        assert any(s.shown for s in recorder.of(ev.Showdown))
        assert leaks(recorder.events) == []
        # Private cards go only to their owner, and only his own cards.
        for event in recorder.of(ev.PrivateCards):
            assert event.private_to == event.user_id
    finally:
        await h.close()
