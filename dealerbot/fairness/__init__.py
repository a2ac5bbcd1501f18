"""Proofs of a fair deal, scheme ``dealerbot-merkle-v1`` (docs/fairness.md): pure, stdlib only.

:mod:`.merkle` is RFC 9162's tree hash and audit paths; :mod:`.deal` salts a deck
and commits to it; :mod:`.visibility` decides which positions a viewer may open;
:mod:`.document` is the JSON proof document players receive and check.
"""

from .deal import (
    DECK_SIZE,
    SALT_SIZE,
    SCHEME,
    CardProof,
    FairnessError,
    SaltedDeck,
    SaltSource,
    draw_salts,
    leaf_data,
    parse_salts_text,
    salt_deck,
    salts_text,
)
from .document import (
    CardEntry,
    HandRef,
    ProofDocument,
    ProofDocumentError,
    build_document,
    check_summary,
    document_for_viewer,
    first_failure,
    out_of_order,
    parse_document,
)
from .visibility import DealingRecord, DealtCard, Face, visible_cards, visible_positions

__all__ = [
    "DECK_SIZE",
    "SALT_SIZE",
    "SCHEME",
    "CardEntry",
    "CardProof",
    "DealingRecord",
    "DealtCard",
    "Face",
    "FairnessError",
    "HandRef",
    "ProofDocument",
    "ProofDocumentError",
    "SaltSource",
    "SaltedDeck",
    "build_document",
    "check_summary",
    "document_for_viewer",
    "draw_salts",
    "first_failure",
    "leaf_data",
    "out_of_order",
    "parse_document",
    "parse_salts_text",
    "salt_deck",
    "salts_text",
    "visible_cards",
    "visible_positions",
]
