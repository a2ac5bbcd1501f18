"""Hand pages of hands the engine played, for the page's tests (Python and browser).

A hand is one of tests/history's seeded random hands (played through the engine); its proof
document is the one the table service builds (``tables.proofs.record_of`` over the engine's
events, then ``document_for_viewer``) and its hand the viewer's ``view_of``, as the service
produces them. ``allowed`` is what the engine itself let the viewer see, an oracle that owes
nothing to either of those.
"""

from __future__ import annotations

import dataclasses
import json
import random
import re
from dataclasses import dataclass
from typing import Any

from dealerbot.engine import events
from dealerbot.fairness import HandRef, ProofDocument, SaltedDeck, document_for_viewer
from dealerbot.fairness.html_proof import hand_page, script_json
from dealerbot.history.from_engine import history_of, player_names
from dealerbot.history.model import Hand, view_of
from dealerbot.tables.proofs import record_of
from tests.history.test_from_engine import Played, allowed_cards, dealt_cards, random_hand

DATA_BLOCK = re.compile(
    r'(<script type="application/json" id="hand-data">)(.*?)(</script>)', re.DOTALL
)
CARD_TEXT = re.compile(r"(?<![A-Za-z0-9])[2-9TJQKA][cdhs](?![a-z])")

SIDE_POTS_SEED = 4  # 8 players of stud/8: 4 fold, 4 show down, 4 pots
ALL_SHOWN_SEED = 0  # 8 players reach 7th street (a community card) and all show: the largest


@dataclass(frozen=True)
class Page:
    played: Played
    doc: ProofDocument
    view: Hand
    viewer: str | None  # the viewer's name in the hand, None for a spectator
    html: str

    @property
    def allowed(self) -> set[str]:
        """Every card the engine let the viewer see."""
        return allowed_cards(self.played, self.viewer)

    @property
    def secret(self) -> set[str]:
        """Cards dealt in the hand that the viewer never saw."""
        return dealt_cards(self.played) - self.allowed


def salted(played: Played, seed: int) -> SaltedDeck:
    rng = random.Random(f"salts {seed}")
    return SaltedDeck(played.hand.deck, tuple(rng.randbytes(16) for _ in range(52)))


def folded_seats(played: Played) -> list[int]:
    """Seats (engine labels) that folded, in the order they did."""
    return [
        e.seat for e in played.events if isinstance(e, events.ActionTaken) and e.kind.name == "FOLD"
    ]


def build(seed: int, viewer_seat: int | None, **names: str) -> Page:
    """The page of random hand ``seed`` for the player at engine seat ``viewer_seat`` (None:
    a spectator). ``names`` renames players (``p3="</script>"``: seat 3's display name)."""
    played = random_hand(seed)
    if names:
        seats = tuple(
            dataclasses.replace(s, name=names.get(f"p{s.seat}", s.name)) for s in played.hand.seats
        )
        played = Played(dataclasses.replace(played.hand, seats=seats), played.events)
    record = record_of(played.hand.deck, played.events)
    display = {s.seat: s.name for s in played.hand.seats}
    ref = HandRef("111111111111111111", "222222222222222222", played.hand.number % 50 + 1)
    doc = document_for_viewer(ref, salted(played, seed), record, display, viewer_seat)
    user = next((s.user_id for s in played.hand.seats if s.seat == viewer_seat), None)
    viewer = None if user is None else player_names(played.hand)[user]
    view = view_of(history_of(played.hand), viewer)
    return Page(played, doc, view, viewer, hand_page(doc, view))


def page_data(html: str) -> dict[str, Any]:
    """The JSON the page embeds."""
    match = DATA_BLOCK.search(html)
    assert match is not None, "no data block in the page"
    data: dict[str, Any] = json.loads(match.group(2))
    return data


def with_data(html: str, data: dict[str, Any]) -> str:
    """The page with other data embedded (a tampered file), escaped as the module does."""
    return DATA_BLOCK.sub(lambda m: m.group(1) + script_json(data) + m.group(3), html, count=1)
