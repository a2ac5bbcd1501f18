"""RFC 9162 Merkle tree hash, audit paths and their verification (sections 2.1.1, 2.1.3).

Kept to the letter of the RFC so that any independent implementation of it checks
our proofs: leaves hash as ``SHA-256(0x00 || data)``, inner nodes as
``SHA-256(0x01 || left || right)``, and a list of ``n > 1`` entries splits at the
largest power of two smaller than ``n``.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence

LEAF_PREFIX = b"\x00"
NODE_PREFIX = b"\x01"
HASH_SIZE = 32


def leaf_hash(data: bytes) -> bytes:
    """Hash of one leaf's data (the 0x00 prefix keeps leaves and inner nodes apart)."""
    return hashlib.sha256(LEAF_PREFIX + data).digest()


def node_hash(left: bytes, right: bytes) -> bytes:
    """Hash of an inner node from its two children."""
    return hashlib.sha256(NODE_PREFIX + left + right).digest()


def split_point(n: int) -> int:
    """The largest power of two smaller than ``n`` (``n > 1``)."""
    if n < 2:
        raise ValueError(f"a list of {n} entries is not split")
    return 1 << ((n - 1).bit_length() - 1)


class MerkleTree:
    """The tree over a fixed list of leaf data; subtree hashes are computed once."""

    __slots__ = ("_cache", "_leaves")

    def __init__(self, leaves: Sequence[bytes]) -> None:
        self._leaves = tuple(leaf_hash(data) for data in leaves)
        self._cache: dict[tuple[int, int], bytes] = {}

    @property
    def size(self) -> int:
        return len(self._leaves)

    def root(self) -> bytes:
        """MTH of all leaves; the hash of the empty string for an empty tree."""
        if not self._leaves:
            return hashlib.sha256(b"").digest()
        return self._subtree(0, len(self._leaves))

    def leaf(self, index: int) -> bytes:
        return self._leaves[index]

    def audit_path(self, index: int) -> tuple[bytes, ...]:
        """PATH(index, D[n]): sibling hashes from the leaf up, nearest first."""
        if not 0 <= index < len(self._leaves):
            raise IndexError(f"leaf {index} is not in a tree of {len(self._leaves)}")
        path: list[bytes] = []
        start, end = 0, len(self._leaves)
        while end - start > 1:
            k = split_point(end - start)
            if index < start + k:
                path.append(self._subtree(start + k, end))
                end = start + k
            else:
                path.append(self._subtree(start, start + k))
                start += k
        path.reverse()
        return tuple(path)

    def _subtree(self, start: int, end: int) -> bytes:
        if end - start == 1:
            return self._leaves[start]
        key = (start, end)
        cached = self._cache.get(key)
        if cached is None:
            k = split_point(end - start)
            cached = node_hash(self._subtree(start, start + k), self._subtree(start + k, end))
            self._cache[key] = cached
        return cached


def tree_hash(leaves: Sequence[bytes]) -> bytes:
    """MTH(D[n]) of a list of leaf data."""
    return MerkleTree(leaves).root()


def root_from_path(index: int, size: int, leaf: bytes, path: Sequence[bytes]) -> bytes | None:
    """The root that ``path`` leads to from ``leaf`` (RFC 9162 2.1.3.2), or None if it cannot.

    None when the index is outside the tree, a hash has the wrong length, or the path
    is too long or too short for a leaf at this index in a tree of this size.
    """
    if not 0 <= index < size or len(leaf) != HASH_SIZE:
        return None
    fn, sn, r = index, size - 1, leaf
    for p in path:
        if sn == 0 or len(p) != HASH_SIZE:
            return None
        if fn & 1 or fn == sn:
            r = node_hash(p, r)
            while fn and not fn & 1:  # a right edge: climb past the levels with no sibling
                fn >>= 1
                sn >>= 1
        else:
            r = node_hash(r, p)
        fn >>= 1
        sn >>= 1
    return r if sn == 0 else None


def verify_inclusion(
    index: int, size: int, leaf: bytes, path: Sequence[bytes], root: bytes
) -> bool:
    """True when ``path`` proves ``leaf`` is entry ``index`` of the tree with this root."""
    return root_from_path(index, size, leaf, path) == root
