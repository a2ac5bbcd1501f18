"""A shown hand shows all its cards (issue 16): the five that play first (and the five of
the low in stud/8; in razz the five of the ace-to-five low), then the cards that play in
neither, in dealing order, so "cards speak" (R8.3, R10.1) can be checked at the table.
Only hands shown at showdown are shown: a folded hand's down cards stay hidden."""

from __future__ import annotations

from dealerbot.engine import ActionKind, Card, Variant, parse_cards
from dealerbot.engine import events as engine_events
from dealerbot.tables import events as ev
from dealerbot.tables.narration import not_playing, shown_parts

from .helpers import CHANNEL, GUILD, play_hand, seat_players


def shown(
    cards: str, split_low: bool = False, lowball: bool = False, community: str | None = None
) -> engine_events.HandShown:
    board = Card.parse(community) if community is not None else None
    return engine_events.HandShown(0, parse_cards(cards), board, split_low, lowball)


def test_stud_shows_the_high_five_then_the_two_that_do_not_play() -> None:
    high, low, idle = shown_parts(shown("Ah Ad 7s 2d Kh Kc 9c"))
    assert high == parse_cards("Ah Ad Kh Kc 9c") and low == ()
    assert idle == parse_cards("7s 2d")  # in the order they were dealt


def test_razz_shows_the_five_of_the_low_then_the_kings_and_nine() -> None:
    high, low, idle = shown_parts(shown("Ks 7h 5d 4c 2s Ah 9d", lowball=True))
    assert high == parse_cards("7h 5d 4c 2s Ah") and low == ()
    assert idle == parse_cards("Ks 9d")


def test_hi_lo_a_card_in_either_five_plays_the_rest_play_in_neither() -> None:
    # High: the heart flush A-9-6-3-2; low: 6-4-3-2-A with the 4♣; the K♦ plays in neither.
    high, low, idle = shown_parts(shown("Ah 2h 3h 4c 6h 9h Kd", split_low=True))
    assert high == parse_cards("Ah 9h 6h 3h 2h")
    assert low == parse_cards("6h 4c 3h 2h Ah")
    assert idle == parse_cards("Kd")


def test_hi_lo_the_wheel_plays_both_ways_and_the_kings_in_neither() -> None:
    high, low, idle = shown_parts(shown("As 2d Kc Ks 3h 4c 5d", split_low=True))
    assert set(high) == set(low) == set(parse_cards("As 2d 3h 4c 5d"))
    assert idle == parse_cards("Kc Ks")


def test_hi_lo_when_every_card_plays_for_the_high_or_the_low_none_is_left_over() -> None:
    # The heart flush A-9-7-3-2 for the high, 5-4-3-2-A with the 4♣ and 5♦ for the low.
    high, low, idle = shown_parts(shown("Ah 2h 3h 7h 9h 4c 5d", split_low=True))
    assert set(high) | set(low) == set(parse_cards("Ah 2h 3h 7h 9h 4c 5d"))
    assert idle == ()


def test_hi_lo_with_no_low_the_two_the_high_does_not_use_are_left_over() -> None:
    high, low, idle = shown_parts(shown("Kh Kd Qc Qs 8h Jc 3d", split_low=True))
    assert set(high) == set(parse_cards("Kh Kd Qc Qs Jc")) and low == ()
    assert idle == parse_cards("8h 3d")


def test_the_community_card_is_one_of_the_seven() -> None:
    high, _, idle = shown_parts(shown("Ah Ad 7s 2d Kh Kc", community="9c"))
    assert high == parse_cards("Ah Ad Kh Kc 9c") and idle == parse_cards("7s 2d")
    _, _, idle = shown_parts(shown("Ah Ad 7s 9d Kh Kc", community="2c"))
    assert idle == parse_cards("7s 2c")  # the community card comes last, as it was dealt


def test_with_no_five_known_nothing_is_called_not_playing() -> None:
    assert not_playing(parse_cards("Ah Ad 7s 2d"), (), ()) == ()


# --- through the service ---------------------------------------------------------------------

FOLDER = 3


def fold_or_complete(turn: ev.Turn) -> ActionKind:
    """Player 3 folds at his first chance; the others complete on 3rd street (so a wager
    faces him even when he brings in), then check or call to the end."""
    kinds = [option.kind for option in turn.options]
    if turn.user_id == FOLDER and ActionKind.FOLD in kinds:
        return ActionKind.FOLD
    for kind in (ActionKind.COMPLETE, ActionKind.CHECK, ActionKind.CALL, ActionKind.BRING_IN):
        if kind in kinds and (kind is not ActionKind.COMPLETE or turn.user_id != FOLDER):
            return kind
    return kinds[0]


async def test_each_shown_hand_carries_all_seven_and_a_folded_hand_none(harness) -> None:
    h = harness
    for game, hand_number in ((Variant.STUD, 1), (Variant.STUD8, 2), (Variant.RAZZ, 3)):
        await h.service.config_set(GUILD, CHANNEL, variant=game.value)
        if hand_number == 1:
            await seat_players(h.service, [1, 2, FOLDER], buy_in=200)
        await h.advance(5)  # the between-hands delay deals the next hand
        ended = await play_hand(h, fold_or_complete)
        assert ended.number == hand_number and ended.variant is game
        showdown = ended.showdown
        assert showdown is not None and showdown.community is None
        privates = [p for p in h.recorder.of(ev.PrivateCards) if p.hand_id == ended.hand_id]
        sevens = {p.user_id: p.cards for p in privates if p.street == 7}
        folded = [p.down_cards for p in privates if p.user_id == FOLDER]
        assert {hand.user_id for hand in showdown.shown} == {1, 2} and FOLDER not in sevens
        for hand in showdown.shown:
            seven = sevens[hand.user_id]
            assert hand.cards == seven
            assert len(hand.high_cards) == 5
            playing = set(hand.high_cards) | set(hand.low_cards)
            assert playing.isdisjoint(hand.idle_cards)
            assert playing | set(hand.idle_cards) == set(seven)
            assert hand.idle_cards == tuple(c for c in seven if c not in playing)
            if game is not Variant.STUD8:
                assert len(hand.idle_cards) == 2 and hand.low_cards == ()
        # The folded player's down cards are in no part of the showdown or the result.
        public = {c for hand in showdown.shown for c in (*hand.high_cards, *hand.idle_cards)}
        assert folded and public.isdisjoint(folded[0])
        assert not set(folded[0]) & {c for hand in ended.showdown.shown for c in hand.cards}
