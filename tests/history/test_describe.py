"""Shown hands are named as PokerStars names them: checked against every named hand in the
real histories, and on the hands they do not contain."""

from __future__ import annotations

import re

import pytest

from dealerbot.history.describe import describe
from dealerbot.history.model import Game
from dealerbot.history.pokerstars import game_of_header, hand_texts, read_history_text

from .real_hands import history_files

SHOWS = re.compile(r"^.*: shows \[(?P<cards>[^\]]*)\] \((?P<name>.*)\)$", re.MULTILINE)
BOARD = re.compile(r"^\*\*\* RIVER \*\*\* \[(?P<card>..)\]", re.MULTILINE)
DAMAGED = "#91733835979:"  # shows 3 cards of 7 (shared README)


def site_names() -> list[tuple[Game, list[str], str]]:
    named: list[tuple[Game, list[str], str]] = []
    for path in history_files():
        for block in hand_texts(read_history_text(path)):
            header = block.split("\n", 1)[0]
            game = game_of_header(header)
            if game is None or DAMAGED in header:
                continue
            board = BOARD.search(block)
            for shown in SHOWS.finditer(block):
                cards = shown["cards"].split() + ([board["card"]] if board else [])
                named.append((game, cards, shown["name"]))
    return named


def test_every_hand_the_site_named_is_named_the_same() -> None:
    named = site_names()
    assert len(named) == 62  # one hand is in two files
    assert {game for game, _, _ in named} == set(Game)
    for game, cards, name in named:
        assert describe(game, cards) == name, cards


@pytest.mark.parametrize(
    ("game", "cards", "name"),
    [
        (Game.STUD, "Ah Kh Qh Jh Th 2c 3d", "a Royal Flush"),
        (Game.STUD, "9s 8s 7s 6s 5s As Ad", "a straight flush, Five to Nine"),
        (Game.STUD, "Ah 2c 3d 4s 5h Kc Kd", "a straight, Ace to Five"),
        (Game.STUD, "7c 7d 7h 7s 2c 2d Ah", "four of a kind, Sevens"),
        (Game.STUD, "6c 6d 6h 9s 9c 2d Ah", "a full house, Sixes full of Nines"),
        (Game.STUD, "Kc", None),
        (Game.STUD8, "9c 9d Kh Qs Jc Td 2h", "HI: a straight, Nine to King"),
        (Game.RAZZ, "Kc Kd 9h 9s 5c 5d 2h", "Lo: K,9,5,5,2"),
        (Game.RAZZ, "Ac 2d 3h 4s 5c 5d 5h", "Lo: 5,4,3,2,A"),
    ],
)
def test_hands_the_histories_do_not_hold(game: Game, cards: str, name: str | None) -> None:
    assert describe(game, cards.split()) == name
