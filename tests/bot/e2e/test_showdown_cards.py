"""A showdown shows every card of each shown hand, as players read it (issue 16): the five
that play (stud/8: then the five of the low; razz: the five of the ace-to-five low), then
the cards that play in neither, after "not playing". A folded hand shows nothing.

The test reads only what a player can see: the public result in the channel and each
player's own DMs (his seven cards, his down cards). The best fives are worked out here
from a player's seven with the engine's evaluators, as a player checking "cards speak"
would with a hand chart.
"""

from __future__ import annotations

import re

import pytest

from dealerbot.engine import best_high, best_low, best_razz
from dealerbot.engine.cards import ALL_CARDS, Card, Rank

from .driver import Club, action_buttons, is_result, message_text, passive

DEAL_SEED = 5
BY_PRETTY = {card.pretty: card for card in ALL_CARDS}
SPAN = re.compile(r"`([^`]*)`")


def cards_of(span: str) -> list[Card]:
    return [BY_PRETTY[part] for part in span.split()]


def low_rank(card: Card) -> int:
    return 1 if card.rank is Rank.ACE else int(card.rank)


async def play_with_a_folder(club: Club, folder_id: int) -> None:
    """``folder_id`` folds at his first chance; the others complete on 3rd street when they
    may (so a wager faces him even when he brings in), then check or call to the end."""
    for _ in range(200):
        if club.action_message() is None:
            return
        message, user = await club.wait_turn()
        choices = action_buttons(message)
        if user == folder_id:
            custom_id = choices.get("fold") or passive(choices)
        else:
            custom_id = choices.get("complete") or passive(choices)
        await club.click(message, custom_id, user)
        await club.settle()
    raise AssertionError("the hand did not end")


def seven_from_dm(text: str) -> list[Card]:
    """The 7th-street DM: "Your seven cards — hand #1" then the seven in a code span."""
    assert "Your seven cards" in text, text
    return cards_of(SPAN.findall(text)[0])


def down_from_dm(text: str) -> list[Card]:
    """The 3rd-street DM: "Down: `X Y` · Door card: `Z`"."""
    found = re.search(r"Down: `([^`]*)`", text)
    assert found, text
    return cards_of(found.group(1))


@pytest.mark.parametrize("game", ["stud", "stud8", "razz"])
async def test_each_shown_hand_shows_its_seven_and_a_folded_hand_none(
    club: Club, game: str
) -> None:
    answer = await club.text(club.admin, "config", group="stud-admin", game=game)
    assert "Settings changed" in answer
    players = club.players[:4]
    folder = players[3]
    await club.seat(players)
    # The checks below hold for any deal; this seed of the test deck gives two hi/lo hands
    # a low, one of them with every card playing high or low (found by trying seeds).
    club.rng.seed(DEAL_SEED)
    await club.start_hand()
    folded_down = down_from_dm(message_text(club.emu.dm_messages(folder)[0]))
    await play_with_a_folder(club, folder.id)
    await club.settle()
    [result] = [message_text(m) for m in club.public_messages() if is_result(m)]
    lines = result.splitlines()
    lows = 0
    assert not [line for line in lines if line.startswith(f"**{folder.name}** `")], result
    for player in players[:3]:
        seven = seven_from_dm(message_text(club.emu.dm_messages(player)[-1]))
        [line] = [line for line in lines if line.startswith(f"**{player.name}** `")]
        groups = [cards_of(span) for span in SPAN.findall(line)]
        shown = [card for group in groups for card in group]
        assert set(shown) == set(seven), line  # every card of the seven, nothing else
        five = groups[0]
        assert len(five) == 5
        if game == "razz":
            assert tuple(low_rank(card) for card in five) == best_razz(seven).ranks
        else:
            assert best_high(five).rank == best_high(seven).rank, line
        rest = groups[1:]
        low = best_low(seven) if game == "stud8" else None
        if low is not None:
            lows += 1
            assert " · low `" in line and tuple(low_rank(c) for c in rest[0]) == low.ranks
            rest = rest[1:]
        elif game == "stud8":
            assert " · no low" in line
        playing = set(five) | (set(groups[1]) if low is not None else set())
        idle = [card for card in seven if card not in playing]  # in the order dealt
        if idle:
            idle_text = " ".join(card.pretty for card in idle)
            assert rest == [idle] and line.endswith(f" · not playing `{idle_text}`"), line
        else:
            assert rest == [] and "not playing" not in line
        if game != "stud8":
            assert len(idle) == 2
    if game == "stud8":  # the low's branch was read, not skipped
        assert lows, "nobody had a low in this deal: choose another DEAL_SEED"
    # The folded player's down cards are in no public message.
    public = "\n".join(message_text(m) for m in club.public_messages())
    for card in folded_down:
        assert card.pretty not in public, card
    club.emu.assert_nothing_refused()
