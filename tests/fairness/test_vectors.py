"""docs/fairness.md test vectors (numbers copied from the spec) and single-field tampering."""

from __future__ import annotations

import dataclasses

import pytest

from dealerbot.engine.cards import Card
from dealerbot.fairness import SCHEME, CardProof, leaf_data

from .helpers import vector_deck

COMMITMENT = "34afec4526d0c5a8c2e39cac544b4d5955e39db6b515d8ebf1ce49771fbfe839"
VECTORS = {
    0: (
        "2c",
        "f1726c91b8c845da8bbf8e22abc7ee89",
        [
            "4611b69c9d52c13155828235db9da4e3a7eaad3f4db43cc71dd2d1cd57ad3e01",
            "e20652893b1c810a7b5b4d4045e2a89c61439aa4504cebd1276bce8ae58f7c28",
            "b2d8e4504f650257f8cee84375eabe1b4c7a8096d3a86d610c2a59056b97737b",
            "b34490935eae44ef1996c2c40571d32e4ff69ff78cb6f988dedcca7b054e6267",
            "da3576bf6f4cfc983fe040eaae0cddc63263cc22d68a785d27aeadf93a4ddf0b",
            "5d20be317dda4eed2440c7257504974578febe432bffd326571707f6617a53d6",
        ],
    ),
    37: (
        "Jd",
        "46271e464e47df2cf8d2431bdbbd0c8f",
        [
            "943a1577dc0cb5c5c8f00e5660baa724b32ce595d0de050915e0414852b280e2",
            "d45f5fd0cbd65ebc14bd7e0bb630ad956e275aee41f78a33a5bd73bde4c1e66b",
            "2ee727473b750cddd041ea7c1365364e8fe0d17ef8c65386a8747152d86dcc2a",
            "2cdfdd3c7446c81d79f6dc9c5dc3d2bb88ae823c4e96f98097102b858a95a629",
            "4e722bf1479aefa33b6f6e6c445408e222221500e764ed73098c30c742898bb3",
            "4e0db18e8ad6f448ea5c7fd4531ab265929f807d1fcc79edc042509bf77931dd",
        ],
    ),
    51: (
        "As",
        "ab7d90e6402e370ddc4ee2e90883e5d0",
        [
            "694e3d456f7b522b3f681ec0b3d024fbf856b3b785da26abf03f5fb6fb93f3ab",
            "d83289630e390a8e16caad65ee5978201aa49b416f86488b30255ef178d933c3",
            "a725b455690008aaf450cceab8e2992c5b506e02609826db54c8f4ba59dffa47",
            "4e0db18e8ad6f448ea5c7fd4531ab265929f807d1fcc79edc042509bf77931dd",
        ],
    ),
}


def spec_proof(position: int) -> CardProof:
    card, salt, path = VECTORS[position]
    return CardProof(
        position, Card.parse(card), bytes.fromhex(salt), tuple(bytes.fromhex(h) for h in path)
    )


def test_leaf_data_is_the_spec_text() -> None:
    data = leaf_data(0, Card.parse("2c"), bytes.fromhex("f1726c91b8c845da8bbf8e22abc7ee89"))
    assert data == b"dealerbot-merkle-v1:0:2c:f1726c91b8c845da8bbf8e22abc7ee89"
    assert SCHEME == "dealerbot-merkle-v1"


def test_commitment_of_the_vector_deck() -> None:
    assert vector_deck().commitment() == COMMITMENT


@pytest.mark.parametrize("position", sorted(VECTORS))
def test_vector_proofs_are_built_exactly(position: int) -> None:
    assert vector_deck().proof(position) == spec_proof(position)


@pytest.mark.parametrize("position", sorted(VECTORS))
def test_vector_proofs_verify(position: int) -> None:
    assert spec_proof(position).verifies(COMMITMENT)


def test_position_0_with_2d_fails() -> None:
    proof = dataclasses.replace(spec_proof(0), card=Card.parse("2d"))
    assert not proof.verifies(COMMITMENT)


@pytest.mark.parametrize("position", sorted(VECTORS))
def test_tampered_salt_fails(position: int) -> None:
    proof = spec_proof(position)
    salt = bytes([proof.salt[0] ^ 1]) + proof.salt[1:]
    assert not dataclasses.replace(proof, salt=salt).verifies(COMMITMENT)


@pytest.mark.parametrize("position", sorted(VECTORS))
def test_tampered_position_fails(position: int) -> None:
    proof = spec_proof(position)
    for other in (position - 1, position + 1, 52, -1):
        assert not dataclasses.replace(proof, position=other).verifies(COMMITMENT)


@pytest.mark.parametrize("position", sorted(VECTORS))
def test_tampered_path_fails(position: int) -> None:
    proof = spec_proof(position)
    for i in range(len(proof.path)):
        path = list(proof.path)
        path[i] = bytes([path[i][0] ^ 0x80]) + path[i][1:]
        assert not dataclasses.replace(proof, path=tuple(path)).verifies(COMMITMENT)
    assert not dataclasses.replace(proof, path=proof.path[:-1]).verifies(COMMITMENT)
    assert not dataclasses.replace(proof, path=(*proof.path, proof.path[-1])).verifies(COMMITMENT)
    assert not dataclasses.replace(proof, path=proof.path[::-1]).verifies(COMMITMENT)


def test_a_proof_does_not_verify_against_another_commitment() -> None:
    other = COMMITMENT[:-1] + ("8" if COMMITMENT[-1] != "8" else "9")
    assert not spec_proof(37).verifies(other)
    assert not spec_proof(37).verifies(COMMITMENT.upper())
    assert not spec_proof(37).verifies("not hex")


def test_a_proof_of_one_position_does_not_open_another() -> None:
    deck = vector_deck()
    for position in (1, 36, 50):
        moved = dataclasses.replace(spec_proof(37), position=position)
        assert not moved.verifies(deck.commitment())
