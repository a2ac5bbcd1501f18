"""The Merkle code against a direct transcription of RFC 9162's recursive definitions."""

from __future__ import annotations

import hashlib

import pytest

from dealerbot.fairness.merkle import MerkleTree, root_from_path, split_point, verify_inclusion


def mth(leaves: list[bytes]) -> bytes:
    """MTH(D[n]) exactly as RFC 9162 2.1.1 writes it."""
    n = len(leaves)
    if n == 0:
        return hashlib.sha256(b"").digest()
    if n == 1:
        return hashlib.sha256(b"\x00" + leaves[0]).digest()
    k = 1
    while k * 2 < n:
        k *= 2
    return hashlib.sha256(b"\x01" + mth(leaves[:k]) + mth(leaves[k:])).digest()


def rfc_path(m: int, leaves: list[bytes]) -> list[bytes]:
    """PATH(m, D[n]) exactly as RFC 9162 2.1.3.1 writes it."""
    n = len(leaves)
    if n == 1:
        return []
    k = 1
    while k * 2 < n:
        k *= 2
    if m < k:
        return [*rfc_path(m, leaves[:k]), mth(leaves[k:])]
    return [*rfc_path(m - k, leaves[k:]), mth(leaves[:k])]


def data(n: int) -> list[bytes]:
    return [f"leaf {i}".encode() for i in range(n)]


@pytest.mark.parametrize("n", [*range(1, 20), 31, 32, 33, 52, 64, 65])
def test_root_and_every_path_match_the_rfc(n: int) -> None:
    leaves = data(n)
    tree = MerkleTree(leaves)
    root = mth(leaves)
    assert tree.root() == root
    for m in range(n):
        path = tree.audit_path(m)
        assert list(path) == rfc_path(m, leaves)
        assert verify_inclusion(m, n, tree.leaf(m), path, root)


def test_empty_tree_root_is_hash_of_nothing() -> None:
    assert MerkleTree([]).root() == hashlib.sha256(b"").digest()


@pytest.mark.parametrize("n", [2, 5, 52])
def test_paths_fail_for_another_index_or_when_cut(n: int) -> None:
    leaves = data(n)
    tree = MerkleTree(leaves)
    root = tree.root()
    for m in range(n):
        path = tree.audit_path(m)
        for other in range(n):
            if other != m:
                assert not verify_inclusion(other, n, tree.leaf(m), path, root)
        assert root_from_path(m, n, tree.leaf(m), path[:-1]) != root


def test_out_of_range_and_malformed_inputs_lead_nowhere() -> None:
    tree = MerkleTree(data(4))
    leaf, path = tree.leaf(0), tree.audit_path(0)
    assert root_from_path(4, 4, leaf, path) is None
    assert root_from_path(-1, 4, leaf, path) is None
    assert root_from_path(0, 4, leaf[:-1], path) is None
    assert root_from_path(0, 4, leaf, (path[0][:-1], path[1])) is None
    with pytest.raises(IndexError):
        tree.audit_path(4)


def test_split_point() -> None:
    assert [split_point(n) for n in (2, 3, 4, 5, 8, 9, 52)] == [1, 2, 2, 4, 4, 8, 32]
    with pytest.raises(ValueError):
        split_point(1)
