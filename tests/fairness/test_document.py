"""The JSON proof document: shape, round trip, narrow errors, the one-line check."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest

from dealerbot.fairness import (
    ProofDocumentError,
    check_summary,
    document_for_viewer,
    first_failure,
    out_of_order,
    parse_document,
)
from dealerbot.fairness.document import document_from_obj

from .helpers import HAND, PLAYERS, sample_record, vector_deck

COMMITMENT = "34afec4526d0c5a8c2e39cac544b4d5955e39db6b515d8ebf1ce49771fbfe839"


def doc_obj(viewer: int | None = 1) -> dict[str, Any]:
    doc = document_for_viewer(HAND, vector_deck(), sample_record(), PLAYERS, viewer)
    return json.loads(doc.to_json())


def test_document_has_the_shape_of_fairness_md() -> None:
    obj = doc_obj(1)
    assert obj["scheme"] == "dealerbot-merkle-v1"
    assert obj["hand"] == {"guild_id": "123456789012345678901", "channel_id": "456", "number": 17}
    assert obj["commitment"] == COMMITMENT
    first = obj["cards"][0]
    assert first == {
        "position": 0,
        "card": "2c",
        "salt": "f1726c91b8c845da8bbf8e22abc7ee89",
        "path": [
            "4611b69c9d52c13155828235db9da4e3a7eaad3f4db43cc71dd2d1cd57ad3e01",
            "e20652893b1c810a7b5b4d4045e2a89c61439aa4504cebd1276bce8ae58f7c28",
            "b2d8e4504f650257f8cee84375eabe1b4c7a8096d3a86d610c2a59056b97737b",
            "b34490935eae44ef1996c2c40571d32e4ff69ff78cb6f988dedcca7b054e6267",
            "da3576bf6f4cfc983fe040eaae0cddc63263cc22d68a785d27aeadf93a4ddf0b",
            "5d20be317dda4eed2440c7257504974578febe432bffd326571707f6617a53d6",
        ],
        "seat": 1,
        "player": "alice",
        "street": 3,
        "face": "down",
    }


def test_the_viewer_gets_exactly_their_own_and_the_public_positions() -> None:
    # sample_record: positions 0-5 down (seats 1, 2, 5 twice), 6-8 up, 9-11 up on 4th, ...
    alice = [c["position"] for c in doc_obj(1)["cards"]]
    anyone = [c["position"] for c in doc_obj(None)["cards"]]
    assert alice[:3] == [0, 2, 3] and 1 not in alice and 4 not in alice
    assert anyone[:3] == [2, 5, 6]  # seat 5 showed: its down cards 2 and 5 are public


def test_round_trip() -> None:
    doc = document_for_viewer(HAND, vector_deck(), sample_record(), PLAYERS, 2)
    assert parse_document(doc.to_json()) == doc
    assert parse_document(doc.to_json().encode()) == doc


def test_every_card_of_a_built_document_checks() -> None:
    doc = parse_document(json.dumps(doc_obj(2)))
    assert first_failure(doc) is None
    assert (
        check_summary(doc)
        == f"All {len(doc.cards)} card proofs check against commitment {COMMITMENT}."
    )


def test_a_tampered_card_is_named() -> None:
    obj = doc_obj(2)
    obj["cards"][3]["card"] = "Ah"
    doc = parse_document(json.dumps(obj))
    failed = first_failure(doc)
    assert failed is not None and failed.proof.position == obj["cards"][3]["position"]
    assert check_summary(doc).startswith(f"Proof FAILED for Ah at position {failed.proof.position}")


def test_extra_keys_are_ignored() -> None:
    obj = doc_obj(2)
    obj["note"] = "hello"
    obj["cards"][0]["extra"] = 1
    assert first_failure(parse_document(json.dumps(obj))) is None


def mutate(path: tuple[Any, ...], value: Any) -> dict[str, Any]:
    obj = copy.deepcopy(doc_obj(1))
    target: Any = obj
    for key in path[:-1]:
        target = target[key]
    if value is KeyError:
        del target[path[-1]]
    else:
        target[path[-1]] = value
    return obj


@pytest.mark.parametrize(
    ("path", "value", "message"),
    [
        (("scheme",), "sha256-deck", "scheme"),
        (("scheme",), KeyError, "scheme"),
        (("hand",), [], "hand"),
        (("hand", "guild_id"), 123, "hand.guild_id"),
        (("hand", "number"), "17", "hand.number"),
        (("commitment",), COMMITMENT.upper(), "commitment"),
        (("commitment",), COMMITMENT[:-2], "commitment"),
        (("cards",), {}, "cards"),
        (("cards", 0), "2c", "cards[0]"),
        (("cards", 0, "position"), True, "cards[0].position"),
        (("cards", 0, "position"), "0", "cards[0].position"),
        (("cards", 1, "card"), "as", "cards[1].card"),
        (("cards", 1, "card"), "10s", "cards[1].card"),
        (("cards", 1, "card"), "Xx", "cards[1].card"),
        (("cards", 1, "card"), KeyError, "cards[1].card"),
        (("cards", 2, "salt"), "f1726c91", "cards[2].salt"),
        (("cards", 2, "path"), "abc", "cards[2].path"),
        (("cards", 2, "path", 1), "zz" * 32, "cards[2].path[1]"),
        (("cards", 2, "seat"), "1", "cards[2].seat"),
        (("cards", 2, "player"), 7, "cards[2].player"),
        (("cards", 2, "street"), 8, "cards[2].street"),
        (("cards", 2, "face"), "sideways", "cards[2].face"),
    ],
)
def test_malformed_documents_name_the_field(
    path: tuple[Any, ...], value: Any, message: str
) -> None:
    with pytest.raises(ProofDocumentError, match=message.replace("[", r"\[").replace(".", r"\.")):
        document_from_obj(mutate(path, value))


def test_not_json_and_not_an_object() -> None:
    for text in ("", "{", "[1, 2]", "null", '"x"', b"\xff\xfe"):
        with pytest.raises(ProofDocumentError):
            parse_document(text)


def test_a_position_twice_is_refused() -> None:
    obj = doc_obj(1)
    obj["cards"].append(obj["cards"][0])
    with pytest.raises(ProofDocumentError, match="position 0 appears twice"):
        parse_document(json.dumps(obj))


def test_a_repr_of_the_salted_deck_shows_no_card() -> None:
    deck = vector_deck()
    assert repr(deck) == f"SaltedDeck(commitment='{COMMITMENT}')"


def test_a_card_placed_on_an_earlier_street_than_its_position_allows_fails() -> None:
    obj = doc_obj(2)
    assert out_of_order(parse_document(json.dumps(obj))) is None
    # a 4th-street up card relabelled as 3rd street, after 4th-street cards were dealt
    late = next(i for i, c in enumerate(obj["cards"]) if c["street"] == 5)
    obj["cards"][late]["street"] = 3
    doc = parse_document(json.dumps(obj))
    misplaced = out_of_order(doc)
    assert misplaced is not None and misplaced.proof.position == obj["cards"][late]["position"]
    assert first_failure(doc) is None  # every proof still checks: only the order is wrong
    assert "earlier street" in check_summary(doc)


def test_streets_may_repeat_and_the_document_order_does_not_matter() -> None:
    obj = doc_obj(None)
    obj["cards"].reverse()
    assert out_of_order(parse_document(json.dumps(obj))) is None
