"""The games in words: short game titles, the rotation line of a mixed table
(``Razz — hand 3 of 8, then Stud Hi/Lo``), the dealer's-choice prompt and ping, each
game's rules and the game mode of a table's settings. Text only, from the values
:mod:`dealerbot.tables` gives."""

from __future__ import annotations

from collections.abc import Sequence

from dealerbot.tables import (
    Card,
    ChoiceView,
    GameMode,
    GamesView,
    StakesView,
    TableConfig,
    Variant,
)

from .markup import name_text, who

SHORT_TITLES = {Variant.STUD: "Stud", Variant.STUD8: "Stud Hi/Lo", Variant.RAZZ: "Razz"}


def short_title(stakes: StakesView | Variant) -> str:
    """``Stud``, ``Stud Hi/Lo``, ``Razz``; another game by its full title."""
    variant = stakes if isinstance(stakes, Variant) else stakes.variant
    return SHORT_TITLES.get(variant, variant.title)


def listed(games: Sequence[Variant], last: str = "or") -> str:
    titles = [short_title(g) for g in games]
    return titles[0] if len(titles) == 1 else f"{', '.join(titles[:-1])} {last} {titles[-1]}"


def hand_count(n: int) -> str:
    return f"{n} hand{'s' if n != 1 else ''}"


def game_line(games: GamesView) -> str:
    """``Razz — hand 3 of 8, then Stud Hi/Lo`` (``then dealer's choice``)."""
    then = "dealer's choice" if games.then is None else short_title(games.then)
    if games.hand == 0:
        return f"{short_title(games.game)} — {hand_count(games.of)}, then {then}"
    return f"{short_title(games.game)} — hand {games.hand} of {games.of}, then {then}"


def picked_text(choice: ChoiceView, games: GamesView) -> str:
    """What the dealer's-choice ping says once the pick is made: ``bob chose Stud Hi/Lo``
    (or the service's note, e.g. a pick whose time ran out)."""
    picked = games.next_game or games.game
    if games.note == f"{choice.name} chose {picked.title}":  # the service's words for a pick
        return f"{name_text(choice.name)} chose {short_title(picked)}"
    return games.note or f"{short_title(picked)} continues"


def choice_text(choice: ChoiceView, current: Variant, deadline_text: str) -> str:
    """The public prompt: who chooses, among what, until when, and what a timeout does."""
    return (
        f"{who(choice.user_id, choice.name)} is on the button and chooses the game of the "
        "next hands: "
        f"{listed(choice.options)}. Time runs out {deadline_text}; then "
        f"{short_title(current)} continues."
    )


def game_mode_text(config: TableConfig) -> str:
    """The game mode of the settings in words: one game, the rotation, or dealer's choice."""
    if config.game is GameMode.MIX:
        order = " → ".join(short_title(g) for g in config.games)
        return f"Mixed: {order}, {hand_count(config.hands_per_game)} each, in turn"
    if config.game is GameMode.CHOICE:
        return (
            f"Dealer's choice among {listed(config.games)}: the player on the button picks "
            f"the game for the next {hand_count(config.hands_per_game)} "
            f"({config.choice_seconds} s to choose)"
        )
    return config.variant.title


DEAL = (
    "Each player antes, gets two cards face down and one face up; then four more streets "
    "(three up, the last down), a betting round on each. Fixed limit: small bets on 3rd "
    "and 4th street, big bets from 5th; one bet and three raises per round."
)
RULES = {
    Variant.STUD: (
        "The lowest up card brings in. Best five-card high hand of seven wins. From 4th "
        "street the best showing hand acts first; an open pair on 4th street allows the big bet."
    ),
    Variant.STUD8: (
        "The lowest up card brings in. The pot is split between the best high hand and the "
        "best low of five different ranks 8 or lower (aces low; straights and flushes do not "
        "spoil a low). With no qualifying low the high hand takes all."
    ),
    Variant.RAZZ: (
        "Lowball: the best ace-to-five low takes the whole pot (aces low, straights and "
        "flushes do not count, pairs count against; no qualifier), e.g. 7-5-4-2-A is a "
        "seven low. The highest up card brings in (king high, ace low); from 4th street the "
        "lowest showing hand acts first; no big bet on 4th street."
    ),
}


def _hand(text: str) -> tuple[Card, ...]:
    return tuple(Card.parse(card) for card in text.split())


EXAMPLES: dict[Variant, tuple[tuple[str, tuple[Card, ...]], ...]] = {
    Variant.STUD: (
        ("Full house, kings full of fives", _hand("Ks Kh Kd 5c 5s")),
        ("Flush, ace high: beats any straight", _hand("Ah Jh 9h 6h 3h")),
    ),
    Variant.STUD8: (
        ("High: straight, nine high", _hand("9s 8d 7h 6c 5s")),
        ("Low: 8-6-4-2-A, an eight low (qualifies)", _hand("8c 6d 4h 2s Ac")),
    ),
    Variant.RAZZ: (
        ("5-4-3-2-A, the best hand (straights do not count)", _hand("5c 4d 3h 2s Ac")),
        ("7-5-4-2-A, a seven low: beats 8-4-3-2-A", _hand("7c 5d 4h 2s Ac")),
    ),
}
"""Example hands of each game's rules, drawn as the reader's deck draws cards."""


def examples(variant: Variant) -> tuple[tuple[str, tuple[Card, ...]], ...]:
    return EXAMPLES.get(variant, ())


def rules_text(variant: Variant) -> str:
    return f"{DEAL}\n\n{RULES.get(variant, '')}".strip()


MIXED_RULES = "The game changes only between hands, never during one; the stakes stay the same."


def choice_ping(choice: ChoiceView) -> str:
    """The channel notice that pings the button player (a mention in an embed does not)."""
    return (
        f"<@{choice.user_id}>, you are on the button: choose the game of the next hands "
        f"with the buttons on the table message ({listed(choice.options)})."
    )
