"""The house's decision: one of the legal options the engine offers, with its reason.

3rd street follows the starting-hand tiers (starting.py): PREMIUM completes and raises to the
cap, STRONG completes and raises a completion once, PLAYABLE completes an unopened pot and
calls a completion, MARGINAL takes the bring-in's cheap look, TRASH folds (or brings in when
forced). Later streets follow the made hand against the boards (later.py). Whatever is left
close (a PLAYABLE hand facing a raise, a MARGINAL one facing a completion, every close later
street) is settled by the Monte Carlo equity: bet or raise for value above the value line,
call at the price the pot lays, fold below it. With no bet to face, a hand that would check
sometimes bets instead when its board looks the strongest (the style's bluff rate).

The reason names the seat's own cards, down cards included: it is as private as they are.
Only the injected random source is used (the Monte Carlo deals and the bluffs), so the same
situation, style and seed give the same decision.
"""

from __future__ import annotations

from dataclasses import dataclass

from dealerbot.engine import Action, ActionKind, LegalAction, LegalActions
from dealerbot.engine.opener import board_rank, low_board_rank

from .equity import equity
from .later import later
from .reading import Plan, Reading, Tier, cards_text, read
from .situation import Situation, SituationError
from .starting import start
from .style import HouseRandom, HouseStyle

__all__ = ["Decision", "decide"]

_VERBS = {
    ActionKind.BRING_IN: "bring in",
    ActionKind.COMPLETE: "complete",
    ActionKind.BET: "bet",
    ActionKind.BET_BIG: "bet",
    ActionKind.RAISE: "raise",
    ActionKind.RAISE_BIG: "raise",
    ActionKind.CALL: "call",
    ActionKind.CHECK: "check",
    ActionKind.FOLD: "fold",
}
# How much of a fair share (1 / players) a call needs besides the pot's price: the bets still
# to come on earlier streets ask for a share of the pot, on 7th street the price is all.
_FAIR_SHARE_TO_CALL = {3: 0.9, 4: 0.85, 5: 0.75, 6: 0.6, 7: 0.0}
_VALUE_EDGE = 0.25  # the value line: a fair share plus this part of the rest
_PER_RAISE = 0.05  # each raise past the first asks this much more
_MAX_BLUFF_OPPONENTS = 2


@dataclass(frozen=True, slots=True)
class Decision:
    """What the house does: the engine option, the action to apply and why."""

    option: LegalAction
    action: Action
    reason: str
    equity: float | None = None  # the Monte Carlo estimate, when the decision needed one


def decide(situation: Situation, rng: HouseRandom, style: HouseStyle | None = None) -> Decision:
    """The seat's decision from its own situation, drawing only on ``rng``."""
    if not isinstance(situation, Situation):
        raise SituationError(
            f"the house decides from a Situation (Situation.from_view), not "
            f"{type(situation).__name__}"
        )
    style = style if style is not None else HouseStyle()
    legal = situation.view.legal
    if len(legal.options) == 1:
        return _decision(situation, legal.options[0], "the only option")
    reading = read(situation)
    if reading.street == 3:
        return _third(situation, reading, start(reading), rng, style)
    return _later(situation, reading, later(reading), rng, style)


# --- the lines ---------------------------------------------------------------------------


def _third(
    situation: Situation, reading: Reading, plan: Plan, rng: HouseRandom, style: HouseStyle
) -> Decision:
    legal = situation.view.legal
    raises = reading.raises
    tier = plan.tier
    if tier == Tier.PREMIUM or (tier == Tier.STRONG and raises <= 1):
        return _push(situation, plan.reason)
    if tier == Tier.STRONG or (tier == Tier.PLAYABLE and raises == 1):
        return _decision(situation, _passive(legal), plan.reason)
    if tier == Tier.PLAYABLE and raises == 0:
        return _push(situation, plan.reason)
    if raises == 0:
        bluff = _bluff(situation, reading, rng, style, "steal")
        if bluff is not None:
            return bluff
        if tier == Tier.MARGINAL:
            return _decision(situation, _passive(legal), plan.reason)
    if tier == Tier.TRASH:
        return _decision(situation, _fold(legal), plan.reason)
    return _close(situation, reading, plan, rng, style)


def _later(
    situation: Situation, reading: Reading, plan: Plan, rng: HouseRandom, style: HouseStyle
) -> Decision:
    legal = situation.view.legal
    if plan.tier == Tier.PREMIUM:
        return _push(situation, plan.reason)
    if plan.tier == Tier.TRASH:  # later.py says TRASH only facing a bet
        return _decision(situation, _fold(legal), plan.reason)
    return _close(situation, reading, plan, rng, style)


def _close(
    situation: Situation, reading: Reading, plan: Plan, rng: HouseRandom, style: HouseStyle
) -> Decision:
    """Bet for value, call at the pot's price or fold, by the Monte Carlo equity."""
    legal = situation.view.legal
    share = equity(reading, rng, style.samples)
    players = len(reading.opponents) + 1
    fair = 1 / players
    value = fair + (1 - fair) * _VALUE_EDGE + _PER_RAISE * max(0, reading.raises - 1)
    to_call = reading.to_call
    price = to_call / (reading.pot + to_call) if to_call else 0.0
    need = max(price, fair * _FAIR_SHARE_TO_CALL[reading.street])
    words = f"{plan.reason}; equity {share:.0%} against {players - 1}"
    words += " opponent" if players == 2 else " opponents"
    if share >= value and _aggressive(legal) is not None:
        return _push(situation, words, share)
    passive = _passive(legal)
    if passive.amount == 0:
        bluff = _bluff(situation, reading, rng, style, "bluff")
        if bluff is not None:
            return bluff
        return _decision(situation, passive, words, share)
    if share >= need:
        return _decision(situation, passive, words, share)
    return _decision(situation, _fold(legal), words, share)


def _bluff(
    situation: Situation, reading: Reading, rng: HouseRandom, style: HouseStyle, word: str
) -> Decision | None:
    """A bet with a hand that would not bet, when the seat's board looks the strongest."""
    legal = situation.view.legal
    aggressive = _aggressive(legal)
    if aggressive is None or not 1 <= len(reading.opponents) <= _MAX_BLUFF_OPPONENTS:
        return None
    strength = low_board_rank if reading.lowball else board_rank
    mine = strength(reading.my_up)
    if not all(mine > strength(o.up) for o in reading.opponents):
        return None
    if rng.random() >= style.bluff_rate:
        return None
    reason = f"{word}: my board {cards_text(reading.my_up)} looks the strongest"
    return _decision(situation, aggressive, reason)


# --- options -----------------------------------------------------------------------------


def _aggressive(legal: LegalActions) -> LegalAction | None:
    """The plain completion, bet or raise, if the round allows one."""
    for kind in (ActionKind.COMPLETE, ActionKind.BET, ActionKind.RAISE):
        option = legal.find(kind)
        if option is not None:
            return option
    return None


def _passive(legal: LegalActions) -> LegalAction:
    """Check, call or bring in: staying in for the least."""
    for kind in (ActionKind.CHECK, ActionKind.CALL, ActionKind.BRING_IN):
        option = legal.find(kind)
        if option is not None:
            return option
    return legal.options[0]  # every round offers one of them (betting.options)


def _fold(legal: LegalActions) -> LegalAction:
    """Fold where a fold costs something to avoid; never fold a free check."""
    if legal.find(ActionKind.CHECK) is None:
        option = legal.find(ActionKind.FOLD)
        if option is not None:
            return option
    return _passive(legal)


def _push(situation: Situation, reason: str, share: float | None = None) -> Decision:
    """Complete, bet or raise; call when the betting is capped."""
    legal = situation.view.legal
    option = _aggressive(legal)
    if option is None:
        return _decision(situation, _passive(legal), f"{reason} (no raise left)", share)
    return _decision(situation, option, reason, share)


def _decision(
    situation: Situation, option: LegalAction, reason: str, share: float | None = None
) -> Decision:
    action = Action(situation.seat, option.kind)
    return Decision(option, action, f"{reason}: {_VERBS[option.kind]}", share)
