"""Proofs of a fair deal from the table service (``service.proofs``, docs/fairness.md).

Random hands (stud and stud/8, short stacks: all-ins, exposed hands, side pots, fold-outs,
timeouts) are played through the service; for every finished hand, every player dealt in
and a stranger ask for the proof. Each document checks against the commitment the
HandStarted event showed, opens exactly the cards the service's own events showed that
viewer (never another player's unshown down card, never an undealt card), and passes the
offline verifier. Refusals change nothing.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from dealerbot import verify
from dealerbot.engine.cards import deck_commitment
from dealerbot.fairness import SCHEME, Face, first_failure, parse_document
from dealerbot.store import history as history_db
from dealerbot.store import proofs as proofs_db
from dealerbot.tables import ProofRefused
from dealerbot.tables import events as ev
from tests.fairness.hand_pages import page_data
from tests.fairness.test_readme_check import readme_checker

from .helpers import CHANNEL, GUILD, Harness, seat_players, snapshot
from .test_records import OTHER_GUILD, PLAYERS, STRANGER, play_random_hands, seen_by


def started_of(h: Harness, hand_id: int) -> ev.HandStarted:
    found: list[ev.HandStarted] = h.recorder.of(ev.HandStarted)
    (started,) = [e for e in found if e.hand_id == hand_id]
    return started


@pytest.mark.parametrize("variant", ["stud", "stud8"])
async def test_every_proof_checks_and_opens_exactly_what_its_viewer_saw(
    harness: Harness, variant: str, tmp_path: Path
) -> None:
    h = harness
    readme_check = readme_checker()
    ended = await play_random_hands(h, 20, seed=11, variant=variant)
    assert len(ended) >= 15
    exposed = h.recorder.of(ev.CardsExposed)
    showdowns = [e for e in ended if e.showdown is not None and e.showdown.shown]
    assert showdowns and exposed  # the hands went where proofs differ most
    for end in ended:
        started = started_of(h, end.hand_id)
        seats = {p.user_id: p.seat for p in started.players}
        for viewer in (*PLAYERS, STRANGER):
            answer = await h.service.proofs.verify(GUILD, viewer, end.hand_id)
            assert answer.scheme == SCHEME and answer.verified, answer.verdict
            assert answer.commitment == started.commitment
            assert answer.verdict.startswith(f"All {answer.cards} card proof")
            assert answer.document is not None
            doc = parse_document(answer.document)
            assert doc.commitment == started.commitment
            assert (doc.hand.guild_id, doc.hand.channel_id) == (str(GUILD), str(CHANNEL))
            assert doc.hand.number == started.number
            opened = {str(entry.proof.card) for entry in doc.cards}
            assert opened == seen_by(h, end.hand_id, viewer)
            own_down = [e for e in doc.cards if e.face is Face.DOWN and e.seat == seats.get(viewer)]
            assert answer.own_down_cards <= len(own_down)
            if viewer in seats:
                assert len(own_down) >= 2  # 3rd street's two down cards at least
            else:
                assert answer.own_down_cards == 0
            obj = json.loads(answer.document)  # the README's few lines agree
            assert all(readme_check(obj, card) for card in obj["cards"])
            path = tmp_path / answer.filename
            path.write_text(answer.document)
            assert verify.main([str(path)]) == verify.EXIT_OK


async def test_no_proof_before_the_end_nor_elsewhere_and_nothing_changes(
    harness: Harness,
) -> None:
    h = harness
    await seat_players(h.service, PLAYERS[:2], buy_in=None)
    await h.service.start(GUILD, CHANNEL)
    (started,) = h.recorder.of(ev.HandStarted)
    before = await snapshot(h)
    refusals = {
        started.hand_id: "still being played",
        started.hand_id + 1: f"no hand {started.hand_id + 1} in this server",
    }
    for hand_id, words in refusals.items():
        for viewer in (PLAYERS[0], STRANGER):
            with pytest.raises(ProofRefused, match=words):
                await h.service.proofs.verify(GUILD, viewer, hand_id)
    with pytest.raises(ProofRefused, match="in this server"):
        await h.service.proofs.verify(OTHER_GUILD, PLAYERS[0], started.hand_id)
    for bad in (0, -3, 2**63, "1", 1.0, True, None):
        with pytest.raises(ProofRefused, match="whole number"):
            await h.service.proofs.verify(GUILD, PLAYERS[0], bad)
    assert await snapshot(h) == before


async def test_a_hand_logged_before_merkle_proofs_says_why_it_has_none(
    harness: Harness,
) -> None:
    """An old row, as migration 0004 leaves it: one salt, the whole-deck SHA-256."""
    h = harness
    (end,) = await play_random_hands(h, 1, seed=3)
    sealed = await proofs_db.sealed_hand(h.db, GUILD, end.hand_id)
    assert sealed is not None and sealed.deck is not None
    salt = bytes(range(16))
    old_commitment = deck_commitment(sealed.deck, salt)
    await h.execute(
        "UPDATE hands SET commitment_scheme = 'sha256-deck', deck_salts = NULL, salt_hex = ?,"
        " commitment = ? WHERE id = ?",
        (salt.hex(), old_commitment, end.hand_id),
    )
    before = await snapshot(h)
    answer = await h.service.proofs.verify(GUILD, PLAYERS[0], end.hand_id)
    assert answer.document is None and not answer.verified and answer.cards == 0
    assert answer.scheme == "sha256-deck" and answer.commitment == old_commitment
    assert "cannot be checked without revealing every card" in answer.verdict
    assert await snapshot(h) == before
    # The old hand keeps working elsewhere: its history line and its file.
    (line,) = await h.service.records.history(GUILD, PLAYERS[0])
    assert line.hand_id == end.hand_id
    (file,) = await h.service.records.hand_files(GUILD, PLAYERS[0], end.hand_id)
    assert f"PokerStars Hand #{end.hand_id}:" in file.text


async def test_a_pruned_hand_has_no_proofs_any_more(harness: Harness) -> None:
    h = harness
    (end,) = await play_random_hands(h, 1, seed=4)
    assert (await h.service.proofs.verify(GUILD, PLAYERS[0], end.hand_id)).verified
    await history_db.prune(h.db, h.clock.now() + 1)
    with pytest.raises(ProofRefused, match="deleted"):
        await h.service.proofs.verify(GUILD, PLAYERS[0], end.hand_id)


async def test_a_tampered_deck_fails_against_the_commitment_shown(harness: Harness) -> None:
    """The verdict is checked against the commitment shown at the start, not a fresh one."""
    h = harness
    (end,) = await play_random_hands(h, 1, seed=6)
    started = started_of(h, end.hand_id)
    other = random.Random(1).randbytes(16 * 52).hex()
    await h.execute("UPDATE hands SET deck_salts = ? WHERE id = ?", (other, end.hand_id))
    answer = await h.service.proofs.verify(GUILD, PLAYERS[0], end.hand_id)
    assert not answer.verified and answer.commitment == started.commitment
    assert answer.verdict.startswith("Proof FAILED for ")
    # Seats from 1, as the hand file and /stud join number them (the document keeps 0..).
    doc = parse_document(answer.document or "")
    failed = first_failure(doc)
    assert failed is not None and failed.seat is not None
    assert f"(seat {failed.seat + 1} {failed.player}, " in answer.verdict, answer.verdict


async def test_the_hand_page_holds_the_viewers_proofs_and_says_who_played(
    harness: Harness,
) -> None:
    """verify and hand attach the page: built from the viewer's own document and view."""
    h = harness
    ended = await play_random_hands(h, 3, seed=11)
    for end in ended:
        for viewer in (*PLAYERS, STRANGER):
            answer = await h.service.proofs.verify(GUILD, viewer, end.hand_id, {CHANNEL: "#t"})
            assert answer.page is not None and answer.document is not None
            assert answer.page.filename == f"hand-{end.hand_id}.html"
            assert answer.dealt_in == (viewer in PLAYERS)
            data = page_data(answer.page.text)
            assert data["proof"] == json.loads(answer.document)
            page = await h.service.proofs.page(GUILD, viewer, end.hand_id)
            assert page is not None and page_data(page.text)["proof"] == data["proof"]
    assert await h.service.proofs.page(GUILD, PLAYERS[0], ended[-1].hand_id + 99) is None
