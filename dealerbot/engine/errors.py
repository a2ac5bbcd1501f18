"""Narrow exceptions the engine raises; each message is fit to show a user."""


class EngineError(ValueError):
    """Base class: something asked of the engine that the rules do not allow."""


class CardError(EngineError):
    """Unknown card text, or a card that appears twice."""


class StakesError(EngineError):
    """Stakes that break R1.2 (0 < ante <= bring-in < small bet, big bet = 2 x small bet)."""


class SetupError(EngineError):
    """A hand that cannot start: too few or too many players, bad stacks, bad button (R1.1)."""


class ActionError(EngineError):
    """An action the rules do not allow now."""


class NotYourTurnError(ActionError):
    """The seat that tried to act is not the seat to act."""


class IllegalActionError(ActionError):
    """The action is not among the legal ones for the seat to act, or its amount is wrong."""


class HandOverError(ActionError):
    """The hand has ended; no more actions are accepted."""
