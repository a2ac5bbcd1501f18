"""``/stud verify`` end to end: every proof the bot hands out verifies offline.

Players (and a member who never sat down) ask for the proof of each finished hand; the
test downloads the attached JSON from the URL Discord gives, runs ``dealerbot.verify`` on
it, and checks it opens exactly the cards the service's events showed that member,
against the commitment the deal DMs carried. Refusals answer in words, with no file.
"""

from __future__ import annotations

from pathlib import Path

from dealerbot import verify
from dealerbot.engine.cards import deck_commitment, parse_deck_text
from dealerbot.fairness import parse_document
from dealerbot.store.db import fetch_one
from dealerbot.tables import events as ev
from tests.fairness.hand_pages import page_data

from .driver import Club, message_text, random_chooser
from .test_histories import ask, download, own_cards


async def test_every_proof_the_bot_hands_out_verifies(club: Club, tmp_path: Path) -> None:
    players = club.players[:3]
    stranger = club.players[7]  # in the server, never sat down
    await club.seat(players)
    for _ in range(3):
        await club.start_hand()
        await club.play_hand(random_chooser(club.rng))
        await club.settle()
    started = {e.hand_id: e for e in club.recorder.of(ev.HandStarted)}
    ended = [e for e in club.recorder.of(ev.HandEnded) if not e.cancelled]
    assert len(ended) == 3

    tables = "\n".join(message_text(m) for m in club.public_messages())
    for end in ended:  # the table shows the start of it (its footer may shorten it)
        assert started[end.hand_id].commitment[:12] in tables
    for player in players:  # each deal DM shows its start; the whole one is in the proof
        dms = "\n".join(message_text(m) for m in club.emu.dm_messages(player))
        for end in ended:
            commitment = started[end.hand_id].commitment
            assert f"`{commitment[:12]}…`" in dms and commitment not in dms
            assert f"/stud verify id:{end.hand_id}" in dms

    results = "\n".join(message_text(m) for m in club.public_messages())
    for end in ended:
        assert f" · id {end.hand_id} · deck " in results  # the result message names it
        commitment = started[end.hand_id].commitment
        for user in (*players, stranger):
            answer = await ask(club, user, "verify", id=end.hand_id)
            assert answer["flags"] & 64, "a proof is private"
            text = message_text(answer)
            files = dict(await download(answer))
            name, page_name = f"proof-hand-{end.hand_id}.json", f"hand-{end.hand_id}.html"
            assert set(files) == {name, page_name}
            body = files[name]
            doc = parse_document(body)
            assert "Proof that the cards were fixed before the deal" in text
            deal_dm = f"matches the commitment in your deal DM of hand #{end.number}"
            assert (deal_dm in text) == (user is not stranger), text
            assert f"Open **{page_name}** in any browser" in text
            assert "dealerbot verify" not in text  # a player does not have it
            page = page_data(files[page_name])  # the page's own proofs: the same cards
            assert page["proof"]["commitment"] == commitment
            assert {c["card"] for c in page["proof"]["cards"]} == {
                str(e.proof.card) for e in doc.cards
            }
            assert doc.commitment == commitment
            assert f"check against commitment {commitment}" in text
            assert f"All {len(doc.cards)} card proofs" in text
            opened = {str(entry.proof.card) for entry in doc.cards}
            assert opened == own_cards(club, end.hand_id, user.id), user.name
            path = tmp_path / f"{user.name}-{name}"
            path.write_text(body)
            assert verify.main([str(path)]) == verify.EXIT_OK
    club.emu.assert_nothing_refused()


async def test_refusals_and_old_hands_get_a_clear_answer_and_no_file(club: Club) -> None:
    players = club.players[:2]
    await club.seat(players)
    await club.start_hand()
    await club.play_hand()
    await club.settle()
    (old,) = [e.hand_id for e in club.recorder.of(ev.HandEnded)]
    await club.start_hand()
    live = club.recorder.of(ev.HandStarted)[-1].hand_id

    # A hand logged before proofs existed, as migration 0004 leaves it.
    service = club.bot.service
    assert service is not None
    db = service.db
    async with db.reading() as conn:
        row = await fetch_one(conn, "SELECT deck FROM hands WHERE id = ?", (old,))
    assert row is not None
    salt = bytes(16)
    async with db.transaction() as conn:
        await conn.execute(
            "UPDATE hands SET commitment_scheme = 'sha256-deck', deck_salts = NULL,"
            " salt_hex = ?, commitment = ? WHERE id = ?",
            (salt.hex(), deck_commitment(parse_deck_text(row[0]), salt), old),
        )

    answers = {
        "old": await ask(club, players[0], "verify", id=old),
        "live": await ask(club, players[0], "verify", id=live),
        "unknown": await ask(club, players[1], "verify", id=live + 1000),
    }
    expected = {
        "old": "cannot be checked without revealing every card",
        "live": "still being played",
        "unknown": f"There is no hand {live + 1000} in this server",
    }
    for key, answer in answers.items():
        assert answer["flags"] & 64
        assert not answer.get("attachments"), key
        assert expected[key] in message_text(answer), (key, message_text(answer))
    club.emu.assert_nothing_refused()
