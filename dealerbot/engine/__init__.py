"""The rules engine: pure, deterministic, standard library only.

Nothing here knows about Discord, SQLite, asyncio, the clock or global randomness;
randomness is passed in. Given a deck and a list of actions, a hand always ends
the same way. Other packages import what they need from here (``__all__``); the
hand-script tool is ``python -m dealerbot.engine.replay``.
"""

from . import events
from .cards import (
    ALL_CARDS,
    Card,
    RandomSource,
    Rank,
    Suit,
    deck_commitment,
    deck_text,
    format_cards,
    new_deck,
    parse_cards,
    parse_deck_text,
    shuffled_deck,
    validate_deck,
    verify_commitment,
)
from .errors import (
    ActionError,
    CardError,
    EngineError,
    HandOverError,
    IllegalActionError,
    NotYourTurnError,
    SetupError,
    StakesError,
)
from .evaluate import HandCategory, HighHand, LowHand, best_high, best_low, high_rank, low_rank
from .events import Action, ActionKind, Event, LegalAction, LegalActions
from .hand_facts import PlayNotes, SeatFacts, note_events, seat_facts, shown_hand_name
from .lowball import RazzHand, best_razz, razz_rank
from .opener import next_button
from .showdown import HandResult, PotResult
from .sight import CardView, HandView, SeatSight, player_view, public_view
from .state import HandState, SeatSpec, apply, legal_actions, option_for, start_hand
from .variants import (
    LAST_STREET,
    MAX_PLAYERS,
    MIN_PLAYERS,
    Stakes,
    Variant,
    dealt_face_up,
    has_down_card,
    is_face_up,
)

__all__ = [
    "ALL_CARDS",
    "LAST_STREET",
    "MAX_PLAYERS",
    "MIN_PLAYERS",
    "Action",
    "ActionError",
    "ActionKind",
    "Card",
    "CardError",
    "CardView",
    "EngineError",
    "Event",
    "HandCategory",
    "HandOverError",
    "HandResult",
    "HandState",
    "HandView",
    "HighHand",
    "IllegalActionError",
    "LegalAction",
    "LegalActions",
    "LowHand",
    "NotYourTurnError",
    "PlayNotes",
    "PotResult",
    "RandomSource",
    "Rank",
    "RazzHand",
    "SeatFacts",
    "SeatSight",
    "SeatSpec",
    "SetupError",
    "Stakes",
    "StakesError",
    "Suit",
    "Variant",
    "apply",
    "best_high",
    "best_low",
    "best_razz",
    "dealt_face_up",
    "deck_commitment",
    "deck_text",
    "events",
    "format_cards",
    "has_down_card",
    "high_rank",
    "is_face_up",
    "legal_actions",
    "low_rank",
    "new_deck",
    "next_button",
    "note_events",
    "option_for",
    "parse_cards",
    "parse_deck_text",
    "player_view",
    "public_view",
    "razz_rank",
    "seat_facts",
    "shown_hand_name",
    "shuffled_deck",
    "start_hand",
    "validate_deck",
    "verify_commitment",
]
