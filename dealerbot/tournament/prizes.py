"""The prize pool: what each place pays, the split when a started tournament is cancelled,
and the audit of the pool's figures.

The pool is the buy-ins, nothing taken off (no fee, no rake). Every split here is in whole
chips and adds up to exactly what it splits.
"""

from __future__ import annotations

from collections.abc import Sequence

from .errors import StandingsError
from .places import Finish, award
from .seats import Stack, check_stacks, seat_order
from .settings import Span

PAYOUTS: tuple[tuple[Span, tuple[int, ...]], ...] = (
    # entrants -> percent of the pool for 1st, 2nd, 3rd
    (Span(2, 4), (100,)),
    (Span(5, 6), (65, 35)),
    (Span(7, 8), (50, 30, 20)),
)


def payout_percents(entrants: int) -> tuple[int, ...]:
    """The percent of the pool each paid place gets, 1st first."""
    for field, percents in PAYOUTS:
        if entrants in field:
            return percents
    sizes = ", ".join(f"{field.low}-{field.high}" for field, _ in PAYOUTS)
    raise StandingsError(f"prizes are set for {sizes} entrants (got {entrants!r})")


def prize_table(pool: int, entrants: int) -> tuple[int, ...]:
    """The prize of each paid place: each share floored, what is left over to 1st."""
    _chips("the pool", pool)
    shares = [pool * percent // 100 for percent in payout_percents(entrants)]
    shares[0] += pool - sum(shares)
    return tuple(shares)


def payouts(finishes: Sequence[Finish], pool: int, entrants: int) -> dict[int, int]:
    """Every finisher's prize (0 out of the money) once all ``entrants`` have finished."""
    if len(finishes) != entrants:
        raise StandingsError(f"{len(finishes)} of {entrants} players have finished")
    if sorted(f.place for f in finishes) != list(range(1, entrants + 1)):
        raise StandingsError(f"the places are not 1 to {entrants}")
    return award(finishes, prize_table(pool, entrants))


def cancel_split(pool: int, stacks: Sequence[Stack], button: int) -> dict[int, int]:
    """A cancelled tournament's pool shared in proportion to the chips of the players left.

    Each share is floored; the chips left over (fewer than the players) go one each to the
    biggest stacks, equal stacks the earlier seat from the button (``button``: the last
    hand's) first.
    """
    _chips("the pool", pool)
    if not stacks:
        raise StandingsError("nobody is left to share the pool")
    check_stacks(stacks, button)
    total = sum(s.chips for s in stacks)
    shares = {s.player: pool * s.chips // total for s in stacks}
    odd = pool - sum(shares.values())
    for stack in sorted(stacks, key=lambda s: (-s.chips, seat_order(s.seat, button)))[:odd]:
        shares[stack.player] += 1
    return shares


def audit(
    *,
    buy_ins: int,
    refunds: int,
    prizes: int,
    pool_left: int,
    entrants: int,
    starting_chips: int,
    chips_in_play: int | None,
) -> list[str]:
    """The problems in a tournament's figures, in words (none: an empty list).

    ``buy_ins`` - ``refunds`` - ``prizes`` must be the ``pool_left``; while it runs, the
    chips in play must be ``entrants`` x ``starting_chips`` (``chips_in_play`` None: not
    checked, as once the chips have left the table).
    """
    figures = {
        "buy-ins": buy_ins,
        "refunds": refunds,
        "prizes": prizes,
        "the pool left": pool_left,
        "entrants": entrants,
        "starting chips": starting_chips,
    }
    if chips_in_play is not None:
        figures["chips in play"] = chips_in_play
    problems = [
        f"{name} must be a whole number, 0 or more (got {value!r})"
        for name, value in figures.items()
        if not _whole(value) or value < 0
    ]
    if problems:
        return problems
    expected = buy_ins - refunds - prizes
    if expected != pool_left:
        problems.append(
            f"buy-ins {buy_ins:,} - refunds {refunds:,} - prizes {prizes:,} = {expected:,}, "
            f"but the pool left is {pool_left:,} ({_off(pool_left - expected)})"
        )
    if chips_in_play is not None and chips_in_play != entrants * starting_chips:
        problems.append(
            f"{chips_in_play:,} chips in play, but {entrants} entrants x {starting_chips:,} "
            f"starting chips = {entrants * starting_chips:,} "
            f"({_off(chips_in_play - entrants * starting_chips)})"
        )
    return problems


def _off(difference: int) -> str:
    return f"{difference:,} too many" if difference > 0 else f"{-difference:,} missing"


def _whole(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _chips(name: str, value: object) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise StandingsError(f"{name} must be a whole number of chips, 0 or more (got {value!r})")
