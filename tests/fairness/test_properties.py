"""Random decks and salts: every proof of every position verifies; any flipped byte fails."""

from __future__ import annotations

import dataclasses

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dealerbot.engine.cards import ALL_CARDS, Card
from dealerbot.fairness import (
    CardProof,
    FairnessError,
    SaltedDeck,
    parse_salts_text,
    salt_deck,
    salts_text,
)

decks = st.permutations(ALL_CARDS).map(tuple)
salts = st.lists(st.binary(min_size=16, max_size=16), min_size=52, max_size=52).map(tuple)


def flip(data: bytes, index: int, bit: int) -> bytes:
    i = index % len(data)
    return data[:i] + bytes([data[i] ^ (1 << bit)]) + data[i + 1 :]


@settings(max_examples=60, deadline=None)
@given(deck=decks, salt_list=salts)
def test_every_position_of_a_random_deck_proves(
    deck: tuple[Card, ...], salt_list: tuple[bytes, ...]
) -> None:
    salted = SaltedDeck(deck, salt_list)
    commitment = salted.commitment()
    for position in range(52):
        proof = salted.proof(position)
        assert proof.card == deck[position] and proof.salt == salt_list[position]
        assert proof.verifies(commitment)


@settings(max_examples=300, deadline=None)
@given(
    deck=decks,
    salt_list=salts,
    position=st.integers(0, 51),
    target=st.sampled_from(["salt", "path", "commitment"]),
    index=st.integers(0, 10_000),
    bit=st.integers(0, 7),
)
def test_flipping_any_byte_fails(
    deck: tuple[Card, ...],
    salt_list: tuple[bytes, ...],
    position: int,
    target: str,
    index: int,
    bit: int,
) -> None:
    salted = SaltedDeck(deck, salt_list)
    proof, commitment = salted.proof(position), salted.commitment()
    if target == "salt":
        proof = dataclasses.replace(proof, salt=flip(proof.salt, index, bit))
    elif target == "path":
        path = list(proof.path)
        step = index % len(path)
        path[step] = flip(path[step], index // len(path), bit)
        proof = dataclasses.replace(proof, path=tuple(path))
    else:
        commitment = flip(bytes.fromhex(commitment), index, bit).hex()
    assert not proof.verifies(commitment)


@settings(max_examples=200, deadline=None)
@given(deck=decks, salt_list=salts, position=st.integers(0, 51), data=st.data())
def test_another_card_or_position_fails(
    deck: tuple[Card, ...], salt_list: tuple[bytes, ...], position: int, data: st.DataObject
) -> None:
    salted = SaltedDeck(deck, salt_list)
    proof, commitment = salted.proof(position), salted.commitment()
    card = data.draw(st.sampled_from(ALL_CARDS).filter(lambda c: c != proof.card))
    other = data.draw(st.integers(-3, 60).filter(lambda p: p != position))
    assert not dataclasses.replace(proof, card=card).verifies(commitment)
    assert not dataclasses.replace(proof, position=other).verifies(commitment)


@settings(max_examples=50, deadline=None)
@given(deck=decks, seed=st.randoms(use_true_random=False))
def test_salts_come_from_the_injected_source_and_store_as_text(
    deck: tuple[Card, ...], seed
) -> None:
    calls: list[int] = []

    def source(n: int) -> bytes:
        calls.append(n)
        return seed.randbytes(n)

    salted = salt_deck(deck, source)
    assert calls == [16] * 52
    text = salts_text(salted.salts)
    assert len(text) == 52 * 32
    assert SaltedDeck(deck, parse_salts_text(text)).commitment() == salted.commitment()


def test_production_salts_are_fresh() -> None:
    deck = tuple(ALL_CARDS)
    first, second = salt_deck(deck), salt_deck(deck)
    assert len(set(first.salts)) == 52
    assert first.commitment() != second.commitment()


@pytest.mark.parametrize(
    "make",
    [
        lambda: SaltedDeck(tuple(ALL_CARDS[:51]), (b"\0" * 16,) * 52),
        lambda: SaltedDeck((*ALL_CARDS[:51], ALL_CARDS[0]), (b"\0" * 16,) * 52),
        lambda: SaltedDeck(tuple(ALL_CARDS), (b"\0" * 16,) * 51),
        lambda: SaltedDeck(tuple(ALL_CARDS), (b"\0" * 15,) * 52),
        lambda: salt_deck(tuple(ALL_CARDS), lambda n: b"\0" * (n - 1)),
        lambda: SaltedDeck(tuple(ALL_CARDS), (b"\0" * 16,) * 52).proof(52),
        lambda: parse_salts_text("00" * 16 * 51),
        lambda: parse_salts_text("AB" * 16 * 52),
    ],
)
def test_bad_decks_salts_and_positions_are_refused(make) -> None:
    with pytest.raises(FairnessError):
        make()


def test_a_proof_with_a_short_salt_leads_nowhere() -> None:
    salted = SaltedDeck(tuple(ALL_CARDS), (b"\1" * 16,) * 52)
    proof = salted.proof(3)
    assert isinstance(proof, CardProof)
    assert not dataclasses.replace(proof, salt=proof.salt[:-1]).verifies(salted.commitment())
