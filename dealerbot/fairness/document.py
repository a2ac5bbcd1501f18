"""The JSON proof document of docs/fairness.md: build it, parse it, check it.

Parsing is strict about shape (a malformed file is :class:`ProofDocumentError`, a
one-line message naming the field) but leaves the cryptography to :func:`first_failure`,
so a tampered card, salt, position or path is a card that fails, named as such.
Ids are strings: Discord snowflakes exceed what some JSON readers hold exactly.

A document comes from anywhere (a player pastes it, a file is crafted), so reading it is
bounded: UTF-8 of at most :data:`MAX_DOCUMENT_BYTES`, no number longer than
:data:`MAX_NUMBER_DIGITS`, nesting only as deep as the JSON reader takes, each refused as a
:class:`ProofDocumentError`; and what a message quotes from it goes through
:func:`printable` (no control, bidi or escape character reaches a terminal).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from ..engine.cards import Card
from .deal import SCHEME, CardProof, SaltedDeck, is_hash_hex, is_salt_hex
from .visibility import FIRST_STREET, LAST_STREET, DealingRecord, DealtCard, Face, visible_cards

_STREET_NAMES = {3: "3rd", 4: "4th", 5: "5th", 6: "6th", 7: "7th"}

MAX_DOCUMENT_BYTES = 1 << 20
"""A whole deck opened, with 32-character names, is about 40 KB: 1 MiB is ample."""
MAX_NUMBER_DIGITS = 20
"""Every number in a document (position, seat, street, hand number) fits in 64 bits."""
MAX_QUOTED = 80
"""Characters of a text field that a message quotes before cutting it short."""


class ProofDocumentError(ValueError):
    """The text is not a ``dealerbot-merkle-v1`` proof document."""


@dataclass(frozen=True, slots=True)
class HandRef:
    """Which hand a document is about."""

    guild_id: str
    channel_id: str
    number: int


@dataclass(frozen=True, slots=True)
class CardEntry:
    """One opened card and where it went."""

    proof: CardProof
    seat: int | None
    player: str | None
    street: int
    face: Face

    def describe(self) -> str:
        """``As at position 51 (seat 2 alice, 7th street, down)`` for messages."""
        where = "community" if self.seat is None else f"seat {self.seat}"
        if self.player is not None:
            where += f" {self.player}"
        return (
            f"{self.proof.card} at position {self.proof.position}"
            f" ({where}, {_STREET_NAMES[self.street]} street, {self.face.value})"
        )


@dataclass(frozen=True, slots=True)
class ProofDocument:
    hand: HandRef
    commitment: str
    cards: tuple[CardEntry, ...]

    def to_json_obj(self) -> dict[str, Any]:
        return {
            "scheme": SCHEME,
            "hand": {
                "guild_id": self.hand.guild_id,
                "channel_id": self.hand.channel_id,
                "number": self.hand.number,
            },
            "commitment": self.commitment,
            "cards": [_entry_obj(e) for e in self.cards],
        }

    def to_json(self) -> str:
        return json.dumps(self.to_json_obj(), indent=2) + "\n"


def _entry_obj(entry: CardEntry) -> dict[str, Any]:
    return {
        "position": entry.proof.position,
        "card": str(entry.proof.card),
        "salt": entry.proof.salt.hex(),
        "path": [h.hex() for h in entry.proof.path],
        "seat": entry.seat,
        "player": entry.player,
        "street": entry.street,
        "face": entry.face.value,
    }


def build_document(
    hand: HandRef, deck: SaltedDeck, cards: Iterable[DealtCard], players: Mapping[int, str]
) -> ProofDocument:
    """Proofs for exactly ``cards`` (already chosen for the viewer), in deck order."""
    entries = tuple(
        CardEntry(
            deck.proof(c.position),
            c.seat,
            None if c.seat is None else players.get(c.seat),
            c.street,
            c.face,
        )
        for c in sorted(cards, key=lambda c: c.position)
    )
    return ProofDocument(hand, deck.commitment(), entries)


def document_for_viewer(
    hand: HandRef,
    deck: SaltedDeck,
    record: DealingRecord,
    players: Mapping[int, str],
    viewer_seat: int | None = None,
) -> ProofDocument:
    """The document a viewer may have for a finished hand (see :mod:`.visibility`)."""
    return build_document(hand, deck, visible_cards(record, viewer_seat), players)


def first_failure(doc: ProofDocument) -> CardEntry | None:
    """The first card whose proof does not lead to the document's commitment, if any."""
    for entry in doc.cards:
        if not entry.proof.verifies(doc.commitment):
            return entry
    return None


def out_of_order(doc: ProofDocument) -> CardEntry | None:
    """The first card dealt from an earlier position than a card of an earlier street.

    The engine deals street by street from the top of the deck, so a card's street can
    never go down as its position goes up; a document that says otherwise misplaces cards.
    """
    latest: CardEntry | None = None
    for entry in sorted(doc.cards, key=lambda e: e.proof.position):
        if latest is not None and entry.street < latest.street:
            return entry
        if latest is None or entry.street > latest.street:
            latest = entry
    return None


def check_summary(doc: ProofDocument) -> str:
    """One line for players: do all the proofs check against the commitment?"""
    failed = first_failure(doc)
    if failed is not None:
        return f"Proof FAILED for {failed.describe()}: it does not match the commitment."
    misplaced = out_of_order(doc)
    if misplaced is not None:
        return f"Proof FAILED for {misplaced.describe()}: dealt before a card of an earlier street."
    count = len(doc.cards)
    noun = "proof" if count == 1 else "proofs"
    return f"All {count} card {noun} check against commitment {doc.commitment}."


def printable(text: str, limit: int = MAX_QUOTED) -> str:
    """``text`` safe to print on one line of a terminal, at most ``limit`` characters.

    Why: a crafted name holding a newline, a carriage return, an ANSI escape or a bidi
    override could otherwise print a fake verdict line. Every character ``repr`` would
    escape (controls, format and bidi marks, separators, surrogates, unassigned) and the
    backslash itself are written as ``repr`` writes them, so the text stays readable and
    unambiguous.
    """
    cut = f"... ({len(text)} characters)" if len(text) > limit else ""
    return "".join(repr(ch)[1:-1] for ch in text[:limit]) + cut


def _quoted(obj: object) -> str:
    """A field's value for a message: a string quoted and cleaned, else its JSON type."""
    if isinstance(obj, str):
        return f"'{printable(obj)}'"
    if obj is None:
        return "missing"
    names = {bool: "true/false", int: "a number", float: "a number", list: "a list"}
    return names.get(type(obj), "an object")


# Parsing


def parse_document(text: str | bytes) -> ProofDocument:
    """Read a proof document; :class:`ProofDocumentError` naming what is wrong."""
    if len(text) > MAX_DOCUMENT_BYTES:
        raise ProofDocumentError(
            f"larger than {MAX_DOCUMENT_BYTES} bytes (a whole deck's proofs are about 40 KB)"
        )
    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8-sig")  # a byte order mark is tolerated
        except UnicodeDecodeError as exc:
            bad = exc.object[exc.start]
            raise ProofDocumentError(f"not UTF-8 text (byte 0x{bad:02x} at {exc.start})") from None
    try:
        obj = json.loads(text, parse_int=_whole_number, parse_constant=_no_constant)
    except json.JSONDecodeError as exc:
        raise ProofDocumentError(f"not JSON: {exc}") from None
    except RecursionError:
        raise ProofDocumentError("nested too deeply (a proof document is 4 levels)") from None
    return document_from_obj(obj)


def _whole_number(text: str) -> int:
    """JSON integers, refused past 64 bits before ``int`` spends time (or refuses) on them."""
    digits = len(text.lstrip("-"))
    if digits > MAX_NUMBER_DIGITS:
        raise ProofDocumentError(
            f"a number of {digits} digits: no number in a proof document has more than "
            f"{MAX_NUMBER_DIGITS}"
        )
    return int(text)


def _no_constant(name: str) -> object:
    raise ProofDocumentError(f"not JSON: {name} is not a JSON number")


def document_from_obj(obj: object) -> ProofDocument:
    top = _mapping(obj, "the document")
    scheme = top.get("scheme")
    if scheme != SCHEME:
        raise ProofDocumentError(f"scheme is {_quoted(scheme)}: this checker reads {SCHEME!r} only")
    hand_obj = _mapping(top.get("hand"), "hand")
    hand = HandRef(
        _string(hand_obj.get("guild_id"), "hand.guild_id"),
        _string(hand_obj.get("channel_id"), "hand.channel_id"),
        _integer(hand_obj.get("number"), "hand.number"),
    )
    commitment = _string(top.get("commitment"), "commitment")
    if not is_hash_hex(commitment):
        raise ProofDocumentError("commitment: expected 64 lowercase hex characters")
    cards_obj = top.get("cards")
    if not isinstance(cards_obj, list):
        raise ProofDocumentError("cards: expected a list")
    entries = tuple(_entry(item, f"cards[{i}]") for i, item in enumerate(cards_obj))
    seen: set[int] = set()
    for entry in entries:
        if entry.proof.position in seen:
            raise ProofDocumentError(f"position {entry.proof.position} appears twice")
        seen.add(entry.proof.position)
    return ProofDocument(hand, commitment, entries)


def _entry(obj: object, where: str) -> CardEntry:
    item = _mapping(obj, where)
    position = _integer(item.get("position"), f"{where}.position")
    card_text = _string(item.get("card"), f"{where}.card")
    try:
        card = Card.parse(card_text)
    except ValueError:  # the engine's CardError
        card = None
    if card is None or str(card) != card_text:
        raise ProofDocumentError(
            f"{where}.card: {_quoted(card_text)} is not a card written like 'As'"
        )
    salt = _string(item.get("salt"), f"{where}.salt")
    if not is_salt_hex(salt):
        raise ProofDocumentError(f"{where}.salt: expected 32 lowercase hex characters")
    path_obj = item.get("path")
    if not isinstance(path_obj, list):
        raise ProofDocumentError(f"{where}.path: expected a list")
    path = []
    for j, step in enumerate(path_obj):
        text = _string(step, f"{where}.path[{j}]")
        if not is_hash_hex(text):
            raise ProofDocumentError(f"{where}.path[{j}]: expected 64 lowercase hex characters")
        path.append(bytes.fromhex(text))
    seat_obj, player_obj = item.get("seat"), item.get("player")
    seat = None if seat_obj is None else _integer(seat_obj, f"{where}.seat")
    player = None if player_obj is None else _string(player_obj, f"{where}.player")
    street = _integer(item.get("street"), f"{where}.street")
    if not FIRST_STREET <= street <= LAST_STREET:
        raise ProofDocumentError(f"{where}.street: expected 3 to 7, not {street}")
    face_text = _string(item.get("face"), f"{where}.face")
    try:
        face = Face(face_text)
    except ValueError:
        raise ProofDocumentError(
            f"{where}.face: expected down, up or community, not {_quoted(face_text)}"
        ) from None
    proof = CardProof(position, card, bytes.fromhex(salt), tuple(path))
    return CardEntry(proof, seat, player, street, face)


def _mapping(obj: object, where: str) -> Mapping[str, object]:
    if not isinstance(obj, dict):
        raise ProofDocumentError(f"{where}: expected a JSON object")
    return obj


def _string(obj: object, where: str) -> str:
    if not isinstance(obj, str):
        raise ProofDocumentError(f"{where}: expected a string")
    return obj


def _integer(obj: object, where: str) -> int:
    if isinstance(obj, bool) or not isinstance(obj, int):
        raise ProofDocumentError(f"{where}: expected a whole number")
    return obj
