"""``/stud verify``: the proof of a fair deal a player may have for a finished hand.

Policy lives here: which hand (this server's, finished), which cards (docs/fairness.md: every
public card, plus the asker's own down cards if they were dealt in; never another
player's unshown down card, never an undealt card) and the one-line verdict, checked
against the commitment that was shown when the hand started. Where each dealt card went
is read from the engine replaying the logged hand, not worked out here.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from dealerbot.engine import Action, Card, EngineError, SeatSpec, apply, start_hand
from dealerbot.engine import events as ev
from dealerbot.fairness import (
    SCHEME,
    DealingRecord,
    DealtCard,
    Face,
    FairnessError,
    HandRef,
    SaltedDeck,
    check_summary,
    document_for_viewer,
    first_failure,
    out_of_order,
)
from dealerbot.store import proofs as proofs_db
from dealerbot.store.db import Database
from dealerbot.store.hands import HandStatus
from dealerbot.store.proofs import SealedHand

from .errors import TableError, check_ids
from .limits import HAND_ID
from .recovery import logged_action
from .settings import TableConfig


class ProofRefused(TableError):
    """No proof for this hand (unknown here, not over, called off, or its deck is gone)."""


@dataclass(frozen=True, slots=True)
class ProofAnswer:
    """What ``/stud verify`` answers: the document (None for an old-scheme hand) and a line."""

    hand_id: int
    number: int  # the hand's number at its table
    channel_id: int
    scheme: str
    commitment: str
    verdict: str  # one line: do all the proofs check against the commitment shown?
    document: str | None = None  # the proof document, JSON (docs/fairness.md)
    cards: int = 0  # cards opened
    own_down_cards: int = 0  # of them, the asker's own unshown down cards
    verified: bool = False

    @property
    def filename(self) -> str:
        return f"proof-hand-{self.hand_id}.json"


def dealing_record(sealed: SealedHand) -> DealingRecord:
    """Where every dealt card went, replayed through the engine from the hand log."""
    record, deck = sealed.record, sealed.deck
    assert deck is not None
    config = TableConfig.from_row(record.config)
    seats = [SeatSpec(s.seat_no, s.stack) for s in record.seats]
    state, events = start_hand(config.variant, config.stakes, seats, deck, record.button_seat)
    played = list(events)
    for logged in sorted(sealed.actions, key=lambda a: a.seq):
        kind, _ = logged_action(logged)
        state, events = apply(state, Action(-1 if logged.seat is None else logged.seat, kind))
        played.extend(events)
    if not state.is_over:
        raise ValueError("the logged actions end before the hand does")
    return record_of(deck, played)


def record_of(deck: tuple[Card, ...], events: Iterable[ev.Event]) -> DealingRecord:
    """The dealing record of a hand from its engine events (cards dealt, hands shown)."""
    position = {card: i for i, card in enumerate(deck)}
    dealt: list[DealtCard] = []
    shown: set[int] = set()
    street = 3
    for event in events:
        if isinstance(event, ev.StreetStarted):
            street = event.street
        elif isinstance(event, ev.CardDealt):
            face = Face.UP if event.face_up else Face.DOWN
            dealt.append(DealtCard(position[event.card], event.seat, event.street, face))
            if event.exposed:
                shown.add(event.seat)
        elif isinstance(event, ev.CommunityCardDealt):
            dealt.append(DealtCard(position[event.card], None, street, Face.COMMUNITY))
        elif isinstance(event, ev.CardsExposed | ev.HandShown):
            shown.add(event.seat)
    return DealingRecord.of(dealt, shown)


class Proofs:
    """The proofs facet of the table service (``service.proofs``); no table lock: the
    hands it reads are over."""

    def __init__(self, db: Database) -> None:
        self.db = db

    async def verify(self, guild_id: int, user_id: int, hand_id: object) -> ProofAnswer:
        """The proof document ``user_id`` may have for hand ``hand_id`` of this server."""
        check_ids(guild_id, user_id)
        if not isinstance(hand_id, int) or hand_id not in HAND_ID:
            raise ProofRefused("A hand id is a whole number from 1 (the result message shows it).")
        sealed = await proofs_db.sealed_hand(self.db, guild_id, hand_id)
        if sealed is None:
            raise ProofRefused(f"There is no hand {hand_id} in this server.")
        return answer_for(sealed, user_id)


def answer_for(sealed: SealedHand, user_id: int) -> ProofAnswer:
    """Refuse what must be refused; otherwise the document and its verdict."""
    record = sealed.record
    hand_id = record.id
    if record.status is HandStatus.IN_PROGRESS:
        raise ProofRefused(
            f"Hand {hand_id} is still being played: its proofs come once it is over."
        )
    if record.status is HandStatus.CANCELLED:
        raise ProofRefused(f"Hand {hand_id} was called off (every chip went back): no proofs.")
    base = ProofAnswer(
        hand_id, record.number, sealed.channel_id, record.commitment_scheme, record.commitment, ""
    )
    if record.commitment_scheme != SCHEME:
        return dataclasses.replace(
            base,
            verdict=f"Hand {hand_id} was dealt before proofs existed: its commitment is one "
            "SHA-256 over the whole deck, which cannot be checked without revealing every "
            "card, folded ones included, so it has no proofs.",
        )
    if sealed.deck is None or sealed.salts is None:
        raise ProofRefused(f"Hand {hand_id}'s deck was deleted (old hands are pruned): no proofs.")
    try:
        deck = SaltedDeck(sealed.deck, sealed.salts)
        dealing = dealing_record(sealed)
    except (EngineError, FairnessError, ValueError, KeyError):
        raise ProofRefused(
            f"Hand {hand_id}'s log cannot be read back, so no proof can be made for it."
        ) from None
    seat = next((s.seat_no for s in record.seats if s.user_id == user_id), None)
    names: Mapping[int, str] = {s.seat_no: s.display_name for s in record.seats}
    ref = HandRef(str(sealed.guild_id), str(sealed.channel_id), record.number)
    built = document_for_viewer(ref, deck, dealing, names, seat)
    # Checked against the commitment shown when the hand started, not one recomputed.
    doc = dataclasses.replace(built, commitment=record.commitment)
    own = sum(
        1
        for entry in doc.cards
        if entry.seat == seat and entry.face is Face.DOWN and seat not in dealing.shown_seats
    )
    ok = bool(doc.cards) and first_failure(doc) is None and out_of_order(doc) is None
    return dataclasses.replace(
        base,
        verdict=check_summary(doc),
        document=doc.to_json(),
        cards=len(doc.cards),
        own_down_cards=own,
        verified=ok,
    )
