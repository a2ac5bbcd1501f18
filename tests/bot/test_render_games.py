"""Mixed-games wording (bot/games_text.py) and the dealer's-choice buttons' layout."""

from __future__ import annotations

import dataclasses

from dealerbot.bot import buttons, games_text
from dealerbot.tables import ChoiceView, GameMode, GamesView, TableConfig, Variant

from .table_values import seat, waiting

STUD, STUD8, RAZZ = Variant.STUD, Variant.STUD8, Variant.RAZZ
ROTATION = (STUD, RAZZ, STUD8)


def games(hand: int = 3, then: Variant | None = STUD8, choice: ChoiceView | None = None):
    mode = "mix" if then is not None else "choice"
    return GamesView(mode, ROTATION, RAZZ, hand, 8, then, choice, None, RAZZ)


def test_the_rotation_line() -> None:
    assert games_text.game_line(games()) == "Razz — hand 3 of 8, then Stud Hi/Lo"
    assert games_text.game_line(games(then=None)) == "Razz — hand 3 of 8, then dealer's choice"
    assert games_text.game_line(games(hand=0)) == "Razz — 8 hands, then Stud Hi/Lo"


def test_the_settings_in_words() -> None:
    mix = TableConfig().replace(game="mix", hands_per_game=1)
    assert games_text.game_mode_text(mix) == "Mixed: Stud → Razz → Stud Hi/Lo, 1 hand each, in turn"
    choice = TableConfig().replace(game="choice", games="razz stud8", choice_seconds=30)
    assert games_text.game_mode_text(choice) == (
        "Dealer's choice among Razz or Stud Hi/Lo: the player on the button picks the game "
        "for the next 8 hands (30 s to choose)"
    )
    assert games_text.game_mode_text(TableConfig().replace(game="razz")) == "Razz"
    assert TableConfig().replace(game="razz").game is GameMode.RAZZ


def test_each_game_has_its_rules() -> None:
    assert "highest up card brings in" in games_text.rules_text(RAZZ)
    assert "lowest up card brings in" in games_text.rules_text(STUD)
    assert "8 or lower" in games_text.rules_text(STUD8)


def test_choice_buttons_only_while_a_pick_waits() -> None:
    view = waiting(seat(0, "alice"), seat(1, "bob"))
    choice = ChoiceView(42, "alice", 1, ROTATION, 1000.0)
    pending = dataclasses.replace(view, games=games(then=None, choice=choice))
    layout = buttons.table_buttons(pending, None)
    assert layout is not None
    ids = [item.custom_id for item in layout.children if hasattr(item, "custom_id")]
    table_id = view.table_id
    assert [i for i in ids if i.startswith("stud:game:")] == [
        f"stud:game:{table_id}:stud",
        f"stud:game:{table_id}:razz",
        f"stud:game:{table_id}:stud8",
    ]
    done = dataclasses.replace(pending, games=games(then=None))
    none = buttons.table_buttons(done, None)
    assert none is None or not any(
        getattr(item, "custom_id", "").startswith("stud:game:") for item in none.children
    )
    text = games_text.choice_text(choice, RAZZ, "<t:1000:R>")
    assert text.startswith("<@42> is on the button and chooses") and "Razz continues" in text
