"""Which positions each viewer may open: examples and properties over random deals."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dealerbot.engine.cards import ALL_CARDS
from dealerbot.fairness import (
    DealingRecord,
    DealtCard,
    Face,
    FairnessError,
    document_for_viewer,
    out_of_order,
    parse_document,
    salt_deck,
    visible_cards,
    visible_positions,
)

from .helpers import HAND, PLAYERS, sample_record


def positions_of(record: DealingRecord, seat: int, face: Face) -> set[int]:
    return {c.position for c in record.cards if c.seat == seat and c.face is face}


def test_anyone_sees_up_cards_and_shown_hands_only() -> None:
    record = sample_record()
    public = set(visible_positions(record))
    every_up = {c.position for c in record.cards if c.face is Face.UP}
    assert public == every_up | positions_of(record, 5, Face.DOWN)
    assert not public & positions_of(record, 1, Face.DOWN)
    assert not public & positions_of(record, 2, Face.DOWN)


def test_a_player_also_sees_their_own_down_cards() -> None:
    record = sample_record()
    public = set(visible_positions(record))
    for seat in (1, 2):
        own = positions_of(record, seat, Face.DOWN)
        assert set(visible_positions(record, seat)) == public | own
    assert set(visible_positions(record, 5)) == public


def test_a_seat_not_dealt_in_sees_the_public_cards() -> None:
    record = sample_record()
    assert visible_positions(record, 9) == visible_positions(record, None)


def test_visible_cards_are_in_deck_order() -> None:
    positions = visible_positions(sample_record(), 2)
    assert list(positions) == sorted(positions)


def test_the_community_card_is_public() -> None:
    cards = [DealtCard(0, 1, 3, Face.DOWN), DealtCard(1, 2, 3, Face.DOWN)]
    record = DealingRecord.of([*cards, DealtCard(40, None, 7, Face.COMMUNITY)])
    assert visible_positions(record) == (40,)
    assert visible_positions(record, 1) == (0, 40)


@pytest.mark.parametrize(
    ("position", "seat", "street", "face"),
    [
        (52, 1, 3, Face.DOWN),
        (-1, 1, 3, Face.DOWN),
        (0, 1, 2, Face.DOWN),
        (0, 1, 8, Face.UP),
        (0, None, 3, Face.DOWN),
        (0, 1, 7, Face.COMMUNITY),
    ],
)
def test_impossible_dealt_cards_are_refused(
    position: int, seat: int | None, street: int, face: Face
) -> None:
    with pytest.raises(FairnessError):
        DealtCard(position, seat, street, face)


def test_a_position_dealt_twice_is_refused() -> None:
    with pytest.raises(FairnessError):
        DealingRecord.of([DealtCard(3, 1, 3, Face.DOWN), DealtCard(3, 2, 3, Face.UP)])


STUD_FACES = (Face.DOWN, Face.DOWN, Face.UP, Face.UP, Face.UP, Face.UP, Face.DOWN)
STUD_STREETS = (3, 3, 3, 4, 5, 6, 7)


@st.composite
def records(draw: st.DrawFn) -> DealingRecord:
    """A random stud deal in engine order: players drop out, some show, maybe a community card."""
    seats = draw(st.lists(st.integers(1, 10), min_size=2, max_size=8, unique=True))
    # cards_for[s]: how many cards seat s received (3 to 7), i.e. the street it folded on.
    cards_for = {s: draw(st.integers(3, 7)) for s in seats}
    # R12.1: a community card only when the deck is too short for everyone's 7th card.
    before_7th = sum(min(n, 6) for n in cards_for.values())
    community = before_7th + sum(1 for n in cards_for.values() if n == 7) > 52
    cards: list[DealtCard] = []
    position = 0
    for k in range(7):
        for s in seats:
            if community and k == 6:
                continue
            if cards_for[s] > k:
                cards.append(DealtCard(position, s, STUD_STREETS[k], STUD_FACES[k]))
                position += 1
        if community and k == 6:
            cards.append(DealtCard(position, None, 7, Face.COMMUNITY))
            position += 1
    shown = draw(st.sets(st.sampled_from(seats)))
    return DealingRecord.of(cards, shown)


def allowed(card: DealtCard, record: DealingRecord, viewer: int | None) -> bool:
    if card.face is not Face.DOWN:
        return True
    return card.seat in record.shown_seats or card.seat == viewer


@settings(max_examples=300, deadline=None)
@given(record=records(), data=st.data())
def test_views_hold_exactly_what_the_viewer_may_see(
    record: DealingRecord, data: st.DataObject
) -> None:
    viewer = data.draw(st.one_of(st.none(), st.integers(0, 12)))
    dealt = {c.position: c for c in record.cards}
    view = visible_cards(record, viewer)
    for card in view:
        assert dealt.get(card.position) == card  # never an undealt position
        if card.face is Face.DOWN and card.seat != viewer:
            assert card.seat in record.shown_seats  # never another player's unshown card
    # and nothing the viewer may see is left out
    assert {c.position for c in view} == {
        c.position for c in record.cards if allowed(c, record, viewer)
    }


@settings(max_examples=100, deadline=None)
@given(record=records(), seed=st.randoms(use_true_random=False))
def test_union_of_all_views_never_leaks_an_unshown_down_card(record, seed) -> None:
    deck = tuple(seed.sample(ALL_CARDS, 52))
    salted = salt_deck(deck, seed.randbytes)
    viewers = [None, *sorted(record.seats())]
    received: dict[int | None, set[int]] = {}
    for viewer in viewers:
        doc = parse_document(document_for_viewer(HAND, salted, record, PLAYERS, viewer).to_json())
        assert all(e.proof.verifies(salted.commitment()) for e in doc.cards)
        assert out_of_order(doc) is None
        assert all(e.proof.card == deck[e.proof.position] for e in doc.cards)
        received[viewer] = {e.proof.position for e in doc.cards}
    dealt = {c.position: c for c in record.cards}
    for viewer, positions in received.items():
        assert positions <= set(dealt)
        for p in positions:
            card = dealt[p]
            private = card.face is Face.DOWN and card.seat not in record.shown_seats
            assert not private or card.seat == viewer
