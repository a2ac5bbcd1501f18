"""House players' strategy: pure, deterministic, reading only what its seat may see.

A house player decides from a :class:`Situation`, built from the engine's sight line for its
seat (``player_view``) and the public actions, never from the hand state or the deck. The
decision is one of the legal options the engine offers, with a short reason. Randomness (the
Monte Carlo deals, the bluffs) comes from the random source passed in (a ``random.Random``):
the package imports only the engine and the pure part of the standard library (no random
module, no clock). Seating house players, their delays and their chips are the table
service's business.
"""

from .situation import Situation, SituationError
from .strategy import Decision, decide
from .style import MAX_SAMPLES, HouseRandom, HouseStyle

__all__ = [
    "MAX_SAMPLES",
    "Decision",
    "HouseRandom",
    "HouseStyle",
    "Situation",
    "SituationError",
    "decide",
]
