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
    CardEntry,
    DealingRecord,
    DealtCard,
    Face,
    FairnessError,
    HandRef,
    ProofDocument,
    SaltedDeck,
    document_for_viewer,
    first_failure,
    out_of_order,
)
from dealerbot.fairness.html_proof import HandPageError, hand_page, page_filename
from dealerbot.history.model import Hand
from dealerbot.store import history as history_db
from dealerbot.store import proofs as proofs_db
from dealerbot.store.db import Database
from dealerbot.store.hands import HandStatus
from dealerbot.store.proofs import SealedHand

from .errors import TableError, check_ids
from .limits import HAND_ID
from .records import UNREADABLE, HistoryFile, viewer_view
from .recovery import logged_action
from .settings import TableConfig

STREET_WORDS = {3: "3rd", 4: "4th", 5: "5th", 6: "6th", 7: "7th"}


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
    dealt_in: bool = False  # the asker played the hand (his deal DM carries the commitment)
    # The self-contained hand page (fairness.html_proof): the hand as the asker saw it and
    # a checker any browser runs offline; None where no page can be made (old scheme, a log
    # that does not replay).
    page: HistoryFile | None = None

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

    async def verify(
        self,
        guild_id: int,
        user_id: int,
        hand_id: object,
        table_names: Mapping[int, str] | None = None,
    ) -> ProofAnswer:
        """The proof document ``user_id`` may have for hand ``hand_id`` of this server, and
        its hand page (``table_names``: channel id to the table name the page prints)."""
        check_ids(guild_id, user_id)
        if not isinstance(hand_id, int) or hand_id not in HAND_ID:
            raise ProofRefused("A hand id is a whole number from 1 (the result message shows it).")
        sealed = await proofs_db.sealed_hand(self.db, guild_id, hand_id)
        if sealed is None:
            raise ProofRefused(f"There is no hand {hand_id} in this server.")
        answer = answer_for(sealed, user_id)
        if answer.document is None:
            return answer
        channel = sealed.channel_id
        name = (table_names or {}).get(channel, f"channel {channel}")
        return dataclasses.replace(answer, page=await self._page(sealed, user_id, name))

    async def page(
        self,
        guild_id: int,
        user_id: int,
        hand_id: int,
        table_names: Mapping[int, str] | None = None,
    ) -> HistoryFile | None:
        """The hand page alone (``/stud hand`` attaches it beside the history file); None
        where the hand has no proofs (refusals are :meth:`verify`'s)."""
        try:
            return (await self.verify(guild_id, user_id, hand_id, table_names)).page
        except ProofRefused:
            return None

    async def _page(self, sealed: SealedHand, user_id: int, table_name: str) -> HistoryFile | None:
        """The viewer's page: his proofs (as :func:`answer_for`) and his view of the hand."""
        record = sealed.record
        logged = await history_db.load_hands(self.db, [record.id])
        if not logged:
            return None
        try:
            view: Hand = viewer_view(logged[0], user_id, table_name)
            doc = viewer_document(sealed, user_id)
            html = hand_page(doc, view)
        except (*UNREADABLE, FairnessError, HandPageError):
            return None  # the JSON answer stands; the page is an extra
        return HistoryFile(page_filename(view), html, (record.id,))


def viewer_document(
    sealed: SealedHand, user_id: int, dealing: DealingRecord | None = None
) -> ProofDocument:
    """The proofs ``user_id`` may have, checked against the commitment shown when the hand
    started (not one recomputed)."""
    record = sealed.record
    assert sealed.deck is not None and sealed.salts is not None
    deck = SaltedDeck(sealed.deck, sealed.salts)
    dealing = dealing if dealing is not None else dealing_record(sealed)
    seat = next((s.seat_no for s in record.seats if s.user_id == user_id), None)
    names: Mapping[int, str] = {s.seat_no: s.display_name for s in record.seats}
    ref = HandRef(str(sealed.guild_id), str(sealed.channel_id), record.number)
    built = document_for_viewer(ref, deck, dealing, names, seat)
    return dataclasses.replace(built, commitment=record.commitment)


def entry_text(entry: CardEntry) -> str:
    """``A♠ at position 51 (seat 3 alice, 7th street, down)``: seats from 1, as the hand
    file and ``/stud join`` number them (the document keeps the engine's label)."""
    where = "community" if entry.seat is None else f"seat {entry.seat + 1}"
    if entry.player is not None:
        where += f" {entry.player}"
    street = STREET_WORDS.get(entry.street, str(entry.street))
    return (
        f"{entry.proof.card.pretty} at position {entry.proof.position}"
        f" ({where}, {street} street, {entry.face.value})"
    )


def verdict_of(doc: ProofDocument) -> str:
    """One line: every proof checks against the commitment, or the first that does not."""
    failed = first_failure(doc)
    if failed is not None:
        return f"Proof FAILED for {entry_text(failed)}: it does not match the commitment."
    misplaced = out_of_order(doc)
    if misplaced is not None:
        return (
            f"Proof FAILED for {entry_text(misplaced)}: dealt before a card of an earlier street."
        )
    count = len(doc.cards)
    noun = "proof" if count == 1 else "proofs"
    return f"All {count} card {noun} check against commitment {doc.commitment}."


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
        dealing = dealing_record(sealed)
        doc = viewer_document(sealed, user_id, dealing)
    except (EngineError, FairnessError, ValueError, KeyError):
        raise ProofRefused(
            f"Hand {hand_id}'s log cannot be read back, so no proof can be made for it."
        ) from None
    seat = next((s.seat_no for s in record.seats if s.user_id == user_id), None)
    own = sum(
        1
        for entry in doc.cards
        if entry.seat == seat and entry.face is Face.DOWN and seat not in dealing.shown_seats
    )
    ok = bool(doc.cards) and first_failure(doc) is None and out_of_order(doc) is None
    return dataclasses.replace(
        base,
        verdict=verdict_of(doc),
        dealt_in=seat is not None,
        document=doc.to_json(),
        cards=len(doc.cards),
        own_down_cards=own,
        verified=ok,
    )
