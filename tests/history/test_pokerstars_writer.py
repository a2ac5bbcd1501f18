"""The PokerStars writer: every real hand written back reads line for line as the site wrote
it, and read again is the same hand, for the recording player and for every other player's
view; no view leaks a hidden down card."""

from __future__ import annotations

import dataclasses
import re
from datetime import UTC, datetime, timedelta, timezone

import pytest

from dealerbot.history.model import (
    Action,
    Ante,
    Collection,
    Game,
    Hand,
    HoleCards,
    Move,
    Returned,
    Seat,
    Stakes,
    Street,
    view_of,
)
from dealerbot.history.pokerstars import (
    ALL_GAMES,
    ParseError,
    load_history,
    parse_hand,
    parse_history,
    read_history_text,
    stud_hand_texts,
)
from dealerbot.history.pokerstars_writer import (
    format_money,
    pokerstars_time,
    write_hand,
    write_hands,
)

from .real_hands import history_files, real_hands

CARD = re.compile(r"\b[2-9TJQKA][cdhs]\b")


def hand_ids() -> list[int]:
    return sorted(real_hands())


def read_back(text: str, original: Hand) -> Hand:
    """The written text read again. A hand whose low card completes at once shows no
    bring-in; the reader learns it from other hands, so it is compared as unknown."""
    back = parse_hand(text, ALL_GAMES)
    if not any(action.move is Move.BRING_IN for action in original.actions):
        assert back.stakes.bring_in is None
        back = dataclasses.replace(
            back, stakes=dataclasses.replace(back.stakes, bring_in=original.stakes.bring_in)
        )
    return back


def test_all_three_games_are_among_the_real_hands() -> None:
    games = [hand.game for hand in real_hands().values()]
    assert games.count(Game.STUD) == 29  # 30 less the damaged Triple Stud hand
    assert games.count(Game.STUD8) == 29  # 30 less the repeated hand
    assert games.count(Game.RAZZ) == 19  # all in the 8-Game file


@pytest.mark.parametrize("hand_id", hand_ids())
def test_round_trip_of_the_recorded_view(hand_id: int) -> None:
    hand = real_hands()[hand_id]
    text = write_hand(hand)
    assert read_back(text, hand) == hand


@pytest.mark.parametrize("hand_id", hand_ids())
def test_round_trip_and_privacy_of_every_players_view(hand_id: int) -> None:
    hand = real_hands()[hand_id]
    viewers = [None, *(seat.name for seat in hand.seats)]
    for viewer in viewers:
        view = view_of(hand, viewer)
        text = write_hand(view)
        assert read_back(text, view) == view, viewer
        allowed = {card for hole in view.hole_cards for card in hole.known}
        if view.community:
            allowed.add(view.community)
        hidden = {card for hole in hand.hole_cards for card in hole.known} - allowed
        assert not hidden & set(CARD.findall(text)), viewer
        # what is hidden is exactly other players' unshown down cards
        for hole, seen in zip(hand.hole_cards, view.hole_cards, strict=True):
            if hole.player in (viewer, *hand.showed):
                assert seen == hole
            else:
                assert seen.cards[2:6] == hole.cards[2:6]
                assert all(card is None for card in seen.cards[:2] + seen.cards[6:])


def test_a_spectator_sees_no_down_card_and_is_no_hero() -> None:
    hand = real_hands()[60974484959]
    view = view_of(hand, "someone else")
    assert view.hero is None and view == view_of(hand, None)
    text = write_hand(view)
    assert "Dealt to steffen780 [9s]" in text  # only the door card
    assert "Ks" not in text and "7h" not in text


@pytest.mark.parametrize("path", history_files(), ids=lambda path: path.name[:30])
def test_a_whole_file_written_back_reads_the_same(path: object) -> None:
    original = load_history(path, ALL_GAMES)  # type: ignore[arg-type]
    text = write_hands(original.hands)
    assert parse_history(text, ALL_GAMES).hands == original.hands
    assert text.count("\n\n\n\n") == max(len(original.hands) - 1, 0)


# Lines the model does not keep: chat, table events, a winner's choice not to show.
NOISE = re.compile(
    r' said, "|joins the table|leaves the table|removed from the table'
    r"|^(?!Seat \d+: ).* is sitting out$|is (?:dis)?connected$|doesn't show hand$"
    r"|^Betting is capped$"
)


def site_texts() -> dict[int, str]:
    texts: dict[int, str] = {}
    for path in history_files():
        for block in stud_hand_texts(read_history_text(path), ALL_GAMES):
            hand_id = int(re.search(r"#(\d+):", block)[1])  # type: ignore[index]
            texts.setdefault(hand_id, block)
    return texts


def split_at_showdown(lines: list[str]) -> tuple[list[str], list[str], list[str]]:
    """Play, showdown (or the end of play) up to the summary, and the summary."""
    summary = lines.index("*** SUMMARY ***")
    show = lines.index("*** SHOW DOWN ***") if "*** SHOW DOWN ***" in lines else summary
    return lines[:show], lines[show:summary], lines[summary:]


@pytest.mark.parametrize("hand_id", hand_ids())
def test_lines_follow_the_site(hand_id: int) -> None:
    """Every real hand written back reads line for line as the site wrote it, bar the header
    (our own form), trailing spaces and the noise the model does not keep. At a showdown the
    site settles each pot in turn (mucks and collections interleaved); we write the same
    lines, shows and mucks first."""
    site = [line.rstrip() for line in site_texts()[hand_id].split("\n")[1:] if line.strip()]
    site = [line for line in site if not NOISE.search(line)]
    ours = write_hand(real_hands()[hand_id]).splitlines()[1:]
    site_play, site_showdown, site_summary = split_at_showdown(site)
    our_play, our_showdown, our_summary = split_at_showdown(ours)
    assert our_play == site_play
    assert sorted(our_showdown) == sorted(site_showdown)
    assert our_summary == site_summary


def test_header_follows_the_site() -> None:
    hand = real_hands()[60974484959]
    site = site_texts()[60974484959].split("\n", 1)[0].rstrip()
    assert site.startswith("PokerStars Game #60974484959:  7 Card Stud Limit ($0.04/$0.08 USD)")
    assert write_hand(hand).split("\n", 1)[0] == site.replace("Game #", "Hand #")


def test_money_as_the_site_writes_it() -> None:
    usd = Stakes(4, 8, 1, 2, "USD", 100)
    assert format_money(4, usd) == "$0.04"
    assert format_money(160, usd) == "$1.60"
    assert format_money(6000, usd) == "$60"
    assert format_money(5112564, usd) == "$51125.64"
    assert format_money(0, usd) == "$0"
    chips = Stakes(20, 40, 2, 5)
    assert format_money(1500, chips) == "1500"
    with pytest.raises(ValueError):
        format_money(1, Stakes(20, 40, 2, 5, "XTS", 100))


def test_header_time_is_utc_then_eastern_without_leading_zero_hour() -> None:
    when = datetime(2026, 12, 1, 9, 5, 7, tzinfo=timezone(timedelta(hours=2)))
    assert pokerstars_time(when) == "2026/12/01 7:05:07 UTC [2026/12/01 2:05:07 ET]"
    assert (
        pokerstars_time(datetime(2026, 1, 2, 23, 0, tzinfo=UTC))
        == "2026/01/02 23:00:00 UTC [2026/01/02 18:00:00 ET]"
    )


def dealerbot_hand(game: Game) -> Hand:
    """A play-chip hand as the bot would record it: two players, a fold on 4th street."""
    third, fourth = Street.THIRD, Street.FOURTH
    return Hand(
        hand_id=4201,
        game=game,
        stakes=Stakes(small_bet=20, big_bet=40, ante=2, bring_in=5),
        seats=(Seat(1, "alice", 500), Seat(4, "bob", 300)),
        antes=(Ante("alice", 2), Ante("bob", 2)),
        actions=(
            Action(third, "bob", Move.BRING_IN, 5, 5),
            Action(third, "alice", Move.RAISE, 20, 20, raised_by=15),
            Action(third, "bob", Move.CALL, 15, 20),
            Action(fourth, "alice", Move.BET, 20, 20),
            Action(fourth, "bob", Move.FOLD, 0, 0),
        ),
        hole_cards=(
            HoleCards("alice", ("Ah", "Kd", "Qs", "7c")),
            HoleCards("bob", (None, None, "2c", "9d")),
        ),
        total_pot=44,
        rake=0,
        collected=(Collection("alice", 44),),
        returned=(Returned("alice", 20),),
        hero="alice",
        table="#stud-1",
        max_seats=8,
        started=pokerstars_time(datetime(2026, 12, 1, 15, 20, tzinfo=UTC)),
    )


@pytest.mark.parametrize(
    ("game", "title"),
    [(Game.STUD, "7 Card Stud Limit"), (Game.STUD8, "7 Card Stud Hi/Lo Limit"),
     (Game.RAZZ, "Razz Limit")],
)  # fmt: skip
def test_a_dealerbot_hand(game: Game, title: str) -> None:
    hand = dealerbot_hand(game)
    text = write_hand(hand)
    assert text.splitlines()[:4] == [
        f"PokerStars Hand #4201:  {title} (20/40)"
        " - 2026/12/01 15:20:00 UTC [2026/12/01 10:20:00 ET]",
        "Table '#stud-1' 8-max",
        "Seat 1: alice (500 in chips)",
        "Seat 4: bob (300 in chips)",
    ]
    assert "bob: brings in for 5\nalice: raises 15 to 20\nbob: calls 15\n" in text
    assert "Dealt to alice [Ah Kd Qs] [7c]\nDealt to bob [2c] [9d]\n" in text
    assert "Uncalled bet (20) returned to alice\nalice collected 44 from pot\n" in text
    assert "*** SHOW DOWN ***" not in text
    assert text.endswith(
        "*** SUMMARY ***\nTotal pot 44 | Rake 0\nSeat 1: alice collected (44)\n"
        "Seat 4: bob folded on the 4th Street\n"
    )
    assert parse_hand(text, ALL_GAMES) == hand


def test_raise_without_the_sites_increment_is_written_from_the_level() -> None:
    hand = dealerbot_hand(Game.STUD)
    actions = list(hand.actions)
    actions[1] = dataclasses.replace(actions[1], raised_by=None)
    text = write_hand(dataclasses.replace(hand, actions=tuple(actions)))
    assert "alice: raises 15 to 20" in text


def test_an_unknown_card_that_must_be_written_is_refused() -> None:
    hand = dealerbot_hand(Game.STUD)
    holes = (hand.hole_cards[0], HoleCards("bob", (None, None, None, "9d")))
    with pytest.raises(ValueError, match="unknown"):
        write_hand(dataclasses.replace(hand, hole_cards=holes))


def test_razz_is_read_by_default_and_games_can_leave_it_out() -> None:
    razz = write_hand(dealerbot_hand(Game.RAZZ))
    assert parse_hand(razz).game is Game.RAZZ  # the engine replays razz (issue 10)
    assert parse_history(razz).hands == (parse_hand(razz, ALL_GAMES),)
    stud_only = frozenset({Game.STUD, Game.STUD8})
    with pytest.raises(ParseError, match="not a 7 Card Stud or 7 Card Stud Hi/Lo hand"):
        parse_hand(razz, stud_only)
    assert parse_history(razz, stud_only).hands == ()


@pytest.mark.parametrize("name", ["bob\nalice: shows [As Ad]", "bob\r", "bob\u2028x"])
def test_a_name_cannot_write_a_line_of_its_own(name: str) -> None:
    hand = dealerbot_hand(Game.STUD)
    seats = (hand.seats[0], dataclasses.replace(hand.seats[1], name=name))
    with pytest.raises(ValueError, match="line break"):
        write_hand(dataclasses.replace(hand, seats=seats))
