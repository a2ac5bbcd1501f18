"""The games as data: what differs between Stud, Stud Hi/Lo and Razz is a table, not a code path.

Implements: R1.2 (valid stakes).

The variant table holds the flags other modules read (see R4.4, R4.5 for the open-pair
big bet, R10.4 for the hi/lo split, R14 for Razz's ace-to-five low); the street table says
how many cards each street deals and which are face up (see R2.2, R2.3), so dealing and the
table service's privacy split read one source.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from .errors import StakesError


class Variant(Enum):
    """The game; the value is the name used in hand scripts and the database."""

    STUD = "stud"
    STUD8 = "stud8"
    RAZZ = "razz"

    @property
    def rules(self) -> VariantRules:
        return _RULES_BY_VALUE[self._value_]  # a str key: an Enum member hashes in Python

    @property
    def title(self) -> str:
        return self.rules.title

    @staticmethod
    def parse(text: str) -> Variant:
        try:
            return Variant(text.strip().lower())
        except (ValueError, AttributeError):
            raise StakesError(f"unknown game {text!r}: choose {_CHOICES}") from None


@dataclass(frozen=True, slots=True)
class VariantRules:
    title: str
    split_low: bool  # R10: half the pot to the best eight-or-better low
    open_pair_big_bet: bool  # R4.4: an open pair on 4th street allows the big bet
    lowball: bool = False  # R14: the whole pot to the best ace-to-five low, the highest door
    # card brings in, the lowest board acts first, the odd chip by the lowest card


_RULES = {
    Variant.STUD: VariantRules("Seven Card Stud", split_low=False, open_pair_big_bet=True),
    Variant.STUD8: VariantRules(
        "Seven Card Stud Hi/Lo (8 or better)", split_low=True, open_pair_big_bet=False
    ),
    Variant.RAZZ: VariantRules("Razz", split_low=False, open_pair_big_bet=False, lowball=True),
}
_RULES_BY_VALUE = {variant.value: rules for variant, rules in _RULES.items()}
_CHOICES = ", ".join(repr(v.value) for v in list(Variant)[:-1]) + f" or {list(Variant)[-1].value!r}"

# Streets are numbered as players say them: 3rd street .. 7th street.
LAST_STREET = 7
# Face-up flags of the cards dealt on each street (R2.2, R2.3).
STREET_CARDS: dict[int, tuple[bool, ...]] = {
    3: (False, False, True),
    4: (True,),
    5: (True,),
    6: (True,),
    7: (False,),
}


def is_face_up(street: int, card_index: int) -> bool:
    """Whether the ``card_index``-th card (from 0) dealt to a player on ``street`` is face up."""
    return STREET_CARDS[street][card_index]


def has_down_card(street: int) -> bool:
    """Whether ``street`` deals anyone a face-down card (3rd and 7th street: see R2.2, R2.3)."""
    return not all(STREET_CARDS[street])


def dealt_face_up() -> tuple[bool, ...]:
    """Face-up flags of a player's cards in the order received, 3rd to 7th street."""
    return tuple(up for street in sorted(STREET_CARDS) for up in STREET_CARDS[street])


def _up_cards() -> slice:
    """Where a player's up cards sit among his cards: one run, door card first."""
    ups = [k for k, up in enumerate(dealt_face_up()) if up]
    if ups != list(range(ups[0], ups[-1] + 1)):
        raise ValueError("the street table deals the up cards in one run")
    return slice(ups[0], ups[-1] + 1)


UP_CARDS = _up_cards()
"""``cards[UP_CARDS]`` is a player's board: the door card and the 4th-6th street cards."""
MAX_PLAYERS = 8
MIN_PLAYERS = 2
CAP_BETS = 4  # one bet (or completion) and three raises (R4.2)


@dataclass(frozen=True, slots=True)
class Stakes:
    """Fixed-limit stakes in whole chips; validated by R1.2."""

    ante: int
    bring_in: int
    small_bet: int
    big_bet: int

    def __post_init__(self) -> None:
        for name in ("ante", "bring_in", "small_bet", "big_bet"):
            value = getattr(self, name)
            if not isinstance(value, int) or isinstance(value, bool):
                raise StakesError(f"{name.replace('_', ' ')} must be a whole number of chips")
        if not 0 < self.ante <= self.bring_in < self.small_bet:
            raise StakesError(
                "stakes need 0 < ante <= bring-in < small bet "
                f"(got ante {self.ante}, bring-in {self.bring_in}, small bet {self.small_bet})"
            )
        if self.big_bet != 2 * self.small_bet:
            raise StakesError(
                f"the big bet must be twice the small bet ({2 * self.small_bet}), "
                f"not {self.big_bet}"
            )

    @staticmethod
    def of(small_bet: int, ante: int, bring_in: int) -> Stakes:
        return Stakes(ante=ante, bring_in=bring_in, small_bet=small_bet, big_bet=2 * small_bet)
