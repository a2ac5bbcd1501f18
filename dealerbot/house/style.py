"""How a house player plays: its bluff rate, its thinking delay and its Monte Carlo budget.

A frozen value so a table can hold one and every decision reads the same settings. The delay
range is not used here (the strategy has no clock): the table service waits that long before
it applies the house's action, so a house player does not answer instantly.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol, TypeVar

__all__ = ["MAX_SAMPLES", "HouseRandom", "HouseStyle"]

T = TypeVar("T")


class HouseRandom(Protocol):
    """The house's own random source, passed in (a ``random.Random``): the Monte Carlo deals
    and the bluffs draw on it and on nothing else, so a seed fixes every decision."""

    def random(self) -> float: ...

    def sample(self, population: Sequence[T], k: int) -> list[T]: ...


MAX_SAMPLES = 2000
"""The most Monte Carlo deals one decision may ask for (the latency target's bound)."""


@dataclass(frozen=True, slots=True)
class HouseStyle:
    """``bluff_rate``: the chance of betting a weak hand when its board looks the strongest
    (0 never, 1 always); ``delay_range``: seconds the service waits before acting (min, max);
    ``samples``: Monte Carlo deals for a close decision."""

    bluff_rate: float = 0.1
    delay_range: tuple[float, float] = (1.5, 4.0)
    samples: int = 500

    def __post_init__(self) -> None:
        rate = self.bluff_rate
        if isinstance(rate, bool) or not isinstance(rate, int | float) or not 0 <= rate <= 1:
            raise ValueError(f"the bluff rate is a number from 0 to 1, not {rate!r}")
        delays = self.delay_range
        if (
            not isinstance(delays, tuple)
            or len(delays) != 2
            or any(isinstance(d, bool) or not isinstance(d, int | float) for d in delays)
            or not 0 <= delays[0] <= delays[1]
        ):
            raise ValueError(
                f"the delay range is (min, max) seconds with 0 <= min <= max, not {delays!r}"
            )
        samples = self.samples
        if isinstance(samples, bool) or not isinstance(samples, int):
            raise ValueError(f"samples is a whole number, not {samples!r}")
        if not 1 <= samples <= MAX_SAMPLES:
            raise ValueError(f"samples must be 1 to {MAX_SAMPLES}, not {samples}")
