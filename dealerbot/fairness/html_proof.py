"""The self-contained hand page: one HTML file that replays a hand and checks its proofs.

``/stud verify`` and ``/stud hand`` attach it so a player can check a deal without
installing anything: the file carries its data (the viewer's proof document, exactly as
:mod:`.document` writes it, and the hand as the viewer saw it), its style and its checker
inline, and opens offline in any browser. Its script checks every proof as
``dealerbot verify`` does (docs/fairness.md) with the browser's Web Crypto SHA-256 (or its
own SHA-256 where a browser offers none), and that every card the replay shows is a card a
proof opens, at that seat and street.

What the page may hold is decided before it: ``hand`` is the viewer's view
(``history.model.view_of``) and ``document`` the proofs he may have
(:func:`.document.document_for_viewer`). :func:`hand_page` refuses a hand that shows a card
no proof in the document opens, so the page can never show more than the proofs do.

Safety: the data is JSON in a ``<script type="application/json">`` block with every ``<``,
``>`` and ``&`` escaped (and, being ASCII-only, U+2028/U+2029 too), so no name can close the
block; the script writes every text with ``textContent``; a Content-Security-Policy lets the
page run its own script and style only (by hash) and fetch nothing.

Seats: the document's ``seat`` is the engine's label (from 0); the page numbers seats from 1,
as the hand file (``Seat.number``) and ``/stud join`` do.
"""

from __future__ import annotations

import base64
import hashlib
import json
from typing import Any

from ..engine.cards import Rank, Suit
from ..history.describe import describe
from ..history.from_engine import GAMES
from ..history.model import DOOR_INDEX, UP_INDICES, Action, Hand, Move
from .document import ProofDocument
from .html_proof_script import SCRIPT
from .visibility import Face

__all__ = ["HandPageError", "hand_page", "page_filename", "script_json"]

GAME_TITLES = {game: variant.title for variant, game in GAMES.items()}
STREET_WORDS = {3: "3rd", 4: "4th", 5: "5th", 6: "6th", 7: "7th"}


class HandPageError(ValueError):
    """The hand and the proof document do not describe the same cards for this viewer."""


def page_filename(hand: Hand) -> str:
    """``hand-1234.html``: the hand id players see."""
    return f"hand-{hand.hand_id}.html"


def script_json(obj: object) -> str:
    """JSON that is safe inside a ``<script>`` element: ASCII only, no ``<``, ``>`` or ``&``.

    Why: ``</script>`` or ``<!--`` in a player's name would otherwise end the block or
    change how the browser reads it; U+2028/U+2029 are escaped by ``ensure_ascii``. The
    escapes are JSON's own, so ``JSON.parse`` gives back the very same strings.
    """
    text = json.dumps(obj, ensure_ascii=True, separators=(",", ":"), sort_keys=True)
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def card_street(index: int) -> int:
    """The street on which a player's ``index``-th card (from 0) was dealt."""
    return 3 if index <= DOOR_INDEX else index + 1


def card_face(index: int) -> Face:
    """Down cards are the first two and the 7th; the door and 4th to 6th are up."""
    return Face.UP if index in UP_INDICES else Face.DOWN


def hand_page(document: ProofDocument, hand: Hand) -> str:
    """The page's HTML text for one viewer (see the module docstring for what it holds)."""
    _check_agrees(document, hand)
    data = {"proof": document.to_json_obj(), "hand": _replay(document, hand), "words": _words()}
    return "".join(
        (
            '<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n',
            '<meta name="viewport" content="width=device-width, initial-scale=1">\n',
            f'<meta http-equiv="Content-Security-Policy" content="{_policy()}">\n',
            "<title>Hand proof</title>\n",
            f"<style>{STYLE}</style>\n</head>\n<body>\n{BODY}",
            f'<script type="application/json" id="hand-data">{script_json(data)}</script>\n',
            f"<script>{SCRIPT}</script>\n</body>\n</html>\n",
        )
    )


def _policy() -> str:
    """Only this page's own script and style run; nothing is fetched, no form goes out."""
    return (
        f"default-src 'none'; script-src '{_digest(SCRIPT)}'; style-src '{_digest(STYLE)}'; "
        "base-uri 'none'; form-action 'none'"
    )


def _digest(text: str) -> str:
    return "sha256-" + base64.b64encode(hashlib.sha256(text.encode()).digest()).decode()


def _words() -> dict[str, dict[str, str]]:
    """How the page writes a card (``10♦``): the engine's rank labels and suit symbols."""
    return {
        "ranks": {rank.char: rank.label for rank in Rank if rank.label != rank.char},
        "suits": {suit.char: suit.symbol for suit in Suit},
    }


def _check_agrees(document: ProofDocument, hand: Hand) -> None:
    """Every card the hand shows is opened by a proof, at the same seat, street and face."""
    numbers = {seat.number for seat in hand.seats}
    for entry in document.cards:
        if entry.seat is not None and entry.seat + 1 not in numbers:
            raise HandPageError(
                f"the proof of {entry.proof.card} is for seat {entry.seat + 1}, "
                "which is not a seat of this hand"
            )
    opened = {str(e.proof.card): e for e in document.cards}
    for card, number, street, face in _shown_cards(hand):
        where = "the community card" if number is None else f"seat {number}'s"
        found = opened.get(card)
        if found is None:
            raise HandPageError(f"{card} ({where}) has no proof in the document")
        seat = None if found.seat is None else found.seat + 1
        if (seat, found.street, found.face) != (number, street, face):
            raise HandPageError(f"{card} ({where}) is placed elsewhere by its proof")


def _shown_cards(hand: Hand) -> list[tuple[str, int | None, int, Face]]:
    """(card, seat number or None, street, face) of every card the hand shows."""
    shown: list[tuple[str, int | None, int, Face]] = []
    for hole in hand.hole_cards:
        number = hand.seat_of(hole.player).number
        for index, card in enumerate(hole.cards):
            if card is not None:
                shown.append((card, number, card_street(index), card_face(index)))
    if hand.community is not None:
        shown.append((hand.community, None, 7, Face.COMMUNITY))
    return shown


def _replay(document: ProofDocument, hand: Hand) -> dict[str, Any]:
    """The hand street by street, every player named by his seat number (from 1)."""
    seat_no = {seat.name: seat.number for seat in hand.seats}
    hero = seat_no.get(hand.hero) if hand.hero is not None else None
    seats = []
    for seat in hand.seats:
        hole = hand.cards_of(seat.name).cards
        seats.append(
            {
                "seat": seat.number,
                "name": seat.name,
                "stack": seat.stack,
                "cards": [
                    {"card": card, "street": card_street(i), "face": card_face(i).value}
                    for i, card in enumerate(hole)
                ],
            }
        )
    pot = sum(ante.amount for ante in hand.antes)
    streets = []
    played = {card_street(i) for hole in hand.hole_cards for i in range(len(hole.cards))}
    played |= {int(action.street) for action in hand.actions}
    for street in sorted(played):
        actions = [a for a in hand.actions if a.street == street]
        pot += sum(a.amount for a in actions)
        level = 0
        lines = []
        for action in actions:
            lines.append({"seat": seat_no[action.player], "text": _action_text(action, level)})
            level = max(level, action.total)
        streets.append(
            {"street": street, "name": STREET_WORDS[street], "actions": lines, "pot": pot}
        )
    return {
        "hand_id": hand.hand_id,
        "number": document.hand.number,
        "table": hand.table,
        "started": hand.started,
        "game": GAME_TITLES[hand.game],
        "stakes": _stakes_text(hand),
        "hero": hero,
        "seats": seats,
        "antes": [
            {"seat": seat_no[a.player], "amount": a.amount, "all_in": a.all_in} for a in hand.antes
        ],
        "streets": streets,
        "community": hand.community,
        "result": _result(hand, seat_no),
    }


def _stakes_text(hand: Hand) -> str:
    stakes = hand.stakes
    text = f"{stakes.small_bet:,}/{stakes.big_bet:,}, ante {stakes.ante:,}"
    return text if stakes.bring_in is None else f"{text}, bring-in {stakes.bring_in:,}"


def _action_text(action: Action, level: int) -> str:
    """The hand file's words: ``brings in for 2``, ``raises 5 to 10``, ``and is all-in``."""
    all_in = " and is all-in" if action.all_in else ""
    match action.move:
        case Move.CHECK:
            return "checks"
        case Move.FOLD:
            return "folds"
        case Move.BRING_IN:
            return f"brings in for {action.amount:,}{all_in}"
        case Move.BET:
            return f"bets {action.amount:,}{all_in}"
        case Move.CALL:
            return f"calls {action.amount:,}{all_in}"
        case Move.RAISE:
            by = action.raised_by if action.raised_by is not None else action.total - level
            return f"raises {by:,} to {action.total:,}{all_in}"
    raise AssertionError(action.move)


def _result(hand: Hand, seat_no: dict[str, int]) -> dict[str, Any]:
    """Uncalled bets back, each pot and who took it, the hands shown, every stack after."""
    amounts = list(hand.pots) or [hand.total_pot]
    pots = []
    for index, amount in enumerate(amounts):
        if len(amounts) == 1:
            name = "Pot"
        else:
            name = "Main pot" if index == 0 else f"Side pot {index}"
        winners = [
            {"seat": seat_no[c.player], "amount": c.amount}
            for c in hand.collected
            if c.pot == index
        ]
        pots.append({"name": name, "amount": amount, "winners": winners})
    shown = []
    for name in hand.showed:
        cards = list(hand.cards_of(name).known)
        if hand.community is not None:
            cards.append(hand.community)
        shown.append({"seat": seat_no[name], "hand": describe(hand.game, cards) or ""})
    after = hand.final_stacks()
    return {
        "returned": [{"seat": seat_no[r.player], "amount": r.amount} for r in hand.returned],
        "pots": pots,
        "shown": shown,
        "no_low": hand.no_low_hand,
        "stacks": [
            {"seat": s.number, "before": s.stack, "after": after[s.name]} for s in hand.seats
        ],
    }


STYLE = """
:root{color-scheme:light dark;--ok:#17803d;--bad:#c0262d;--muted:#666;--line:#ccc;
--card:#fff;--ink:#111;--red:#c0262d}
@media (prefers-color-scheme:dark){:root{--ok:#4ccf7a;--bad:#ff6b6b;--muted:#aaa;--line:#444;
--card:#222;--ink:#eee;--red:#ff7b7b}}
*{box-sizing:border-box}
body{margin:0;font:16px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif}
main{max-width:46rem;margin:0 auto;padding:1rem}
h1{font-size:1.35rem;margin:.2rem 0}h2{font-size:1.1rem;margin:1.2rem 0 .4rem}
.muted{color:var(--muted)}.lead{font-size:1.05rem;font-weight:600}
.hex{font-family:ui-monospace,Menlo,Consolas,monospace;word-break:break-all;
padding:.4rem .5rem;border:1px solid var(--line);border-radius:.4rem}
.verdict{margin:1rem 0;padding:.7rem .8rem;border-radius:.5rem;border:2px solid var(--line);
font-weight:600}
.verdict.ok{border-color:var(--ok);color:var(--ok)}.verdict.failed{border-color:var(--bad);
color:var(--bad)}
ul{padding-left:1.2rem;margin:.3rem 0}li{margin:.15rem 0}
.street{border-top:1px solid var(--line);padding-top:.3rem}
.seat{display:flex;flex-wrap:wrap;align-items:center;gap:.3rem;margin:.25rem 0}
.who{min-width:7.5rem;font-weight:600;overflow-wrap:anywhere}
.card{display:inline-block;min-width:2.4rem;padding:.1rem .3rem;border:1px solid var(--line);
border-radius:.3rem;background:var(--card);color:var(--ink);text-align:center;
font-weight:700;white-space:nowrap}
.card.red{color:var(--red)}.card.hidden{color:var(--muted);font-weight:400}
.card.up{box-shadow:0 -3px 0 var(--line) inset}
.card.proved::after{content:" \\2713";color:var(--ok);font-size:.8em}
.card.failed{border-color:var(--bad)}.card.failed::after{content:" \\2717";color:var(--bad)}
.fail{color:var(--bad)}.ok{color:var(--ok)}.verdict .muted{font-weight:400}
.proofs li{overflow-wrap:anywhere}
details{margin:.2rem 0}summary{cursor:pointer}
"""

BODY = """<main>
<h1 id="title">Hand</h1>
<p id="where" class="muted"></p>
<p class="lead">Proof that the cards were fixed before the deal; nobody could swap a card \
later.</p>
<p>Before the first card was dealt, the dealer published a <b>commitment</b>: a fingerprint of \
the whole shuffled deck, each card sealed with its own secret. For every card you saw, this \
file holds its place in the deck and the secret that opens it. This page checks each one \
against the commitment, here in your browser, with no internet and nothing to install. A \
card changed after the commitment would not check.</p>
<h2>The commitment</h2>
<p id="commitment" class="hex"></p>
<p id="compare"></p>
<div id="verdict" class="verdict" role="status">Checking the proofs\u2026</div>
<noscript><p class="fail">This page checks the proofs with JavaScript, which is turned off. \
Turn it on, or check the proof document with <code>dealerbot verify</code>.</p></noscript>
<section id="replay"></section>
<section id="result"></section>
<section id="proofs"></section>
<h2>How the check works</h2>
<p class="muted">Each card's fingerprint is SHA-256 of its place, the card and its secret \
(<code>dealerbot-merkle-v1:place:card:secret</code>); the path hashes it up a Merkle tree of \
all 52 places (RFC 9162). A card checks when its path ends at the commitment. The other \
places enter only as hashes, so nothing here tells a card you did not see. The scheme is \
docs/fairness.md in the dealerbot project.</p>
</main>
"""
