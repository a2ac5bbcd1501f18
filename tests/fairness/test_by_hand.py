"""The by-hand check offered for the README, run as written against documents we build.

It uses only hashlib and json, nothing from dealerbot, so it is an independent verifier
of our proof documents as well as a check that the snippet is right.
"""

from __future__ import annotations

import json

from dealerbot.fairness import document_for_viewer

from .helpers import HAND, PLAYERS, sample_record, vector_deck

BY_HAND = """
import hashlib, json

def card_checks(doc, c):
    h = lambda b: hashlib.sha256(b).digest()
    r = h(b"\\x00" + f"dealerbot-merkle-v1:{c['position']}:{c['card']}:{c['salt']}".encode())
    fn, sn = c["position"], 51
    for p in map(bytes.fromhex, c["path"]):
        if sn == 0:
            return False
        if fn % 2 == 1 or fn == sn:
            r = h(b"\\x01" + p + r)
            while fn % 2 == 0 and fn != 0:
                fn, sn = fn // 2, sn // 2
        else:
            r = h(b"\\x01" + r + p)
        fn, sn = fn // 2, sn // 2
    return sn == 0 and r.hex() == doc["commitment"]
"""


def by_hand_checker():  # the snippet's function, defined from its text
    namespace: dict[str, object] = {}
    exec(BY_HAND, namespace)
    return namespace["card_checks"]


def test_the_by_hand_check_accepts_every_card_we_hand_out() -> None:
    card_checks = by_hand_checker()
    for viewer in (None, 1, 2, 5):
        doc = json.loads(
            document_for_viewer(HAND, vector_deck(), sample_record(), PLAYERS, viewer).to_json()
        )
        assert doc["cards"]
        assert all(card_checks(doc, c) for c in doc["cards"])


def test_the_by_hand_check_refuses_a_tampered_card() -> None:
    card_checks = by_hand_checker()
    doc = json.loads(
        document_for_viewer(HAND, vector_deck(), sample_record(), PLAYERS, 1).to_json()
    )
    for field, value in (("card", "Kh"), ("salt", "ff" * 16), ("position", 40)):
        card = dict(doc["cards"][2], **{field: value})
        assert not card_checks(doc, card)
