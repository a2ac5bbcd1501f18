"""``python -m dealerbot.verify FILE``: check a proof of a fair deal offline.

Exit 0 when every card proof in the document leads to its commitment and the streets
follow the dealing order; 1 naming the first card that does not; 2 when the file
cannot be read or is not a proof document.
``main(argv)`` is what the ``dealerbot verify FILE`` subcommand calls.

Checking one card by hand (docs/fairness.md): ``r = SHA-256(0x00 || "dealerbot-merkle-v1:
{position}:{card}:{salt}")``; then, with ``fn = position`` and ``sn = 51``, for each
path entry ``p``: if ``fn`` is odd or ``fn == sn``, ``r = SHA-256(0x01 || p || r)`` and
halve ``fn`` and ``sn`` while ``fn`` is even and non-zero; otherwise
``r = SHA-256(0x01 || r || p)``; then halve both once more. The card checks when ``sn``
ends at 0 and ``r`` in hex is the commitment.
"""

from __future__ import annotations

import argparse
import dataclasses
import io
import sys
from collections.abc import Sequence

from .fairness.document import (
    MAX_DOCUMENT_BYTES,
    ProofDocument,
    ProofDocumentError,
    out_of_order,
    parse_document,
    printable,
)

EXIT_OK = 0
EXIT_FAILED = 1
EXIT_BAD_INPUT = 2


def build_parser(prog: str = "python -m dealerbot.verify") -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog=prog, description="Check a dealerbot proof of a fair deal (JSON) offline."
    )
    parser.add_argument("file", help="the proof document, or - for standard input")
    return parser


def verify_file(path: str) -> int:
    """Check one document, print one line per card and a verdict; the exit code."""
    try:
        data = _read(path)
    except OSError as exc:
        print(f"error: cannot read {path}: {exc.strerror or exc}", file=sys.stderr)
        return EXIT_BAD_INPUT
    try:
        doc = _for_printing(parse_document(data))
    except ProofDocumentError as exc:
        print(f"error: {path} is not a proof document: {exc}", file=sys.stderr)
        return EXIT_BAD_INPUT
    hand = doc.hand
    print(
        f"hand {hand.number} (server {hand.guild_id}, channel {hand.channel_id}),"
        f" commitment {doc.commitment}"
    )
    if not doc.cards:
        print("FAILED: the document opens no card, so it proves nothing")
        return EXIT_FAILED
    first_bad = None
    for entry in doc.cards:
        ok = entry.proof.verifies(doc.commitment)
        print(f"{'ok  ' if ok else 'FAIL'} {entry.describe()}")
        if not ok and first_bad is None:
            first_bad = entry
    if first_bad is not None:
        print(f"FAILED: {first_bad.describe()} does not match the commitment")
        return EXIT_FAILED
    misplaced = out_of_order(doc)
    if misplaced is not None:
        print(f"FAILED: {misplaced.describe()} is dealt before a card of an earlier street")
        return EXIT_FAILED
    print(f"OK: all {len(doc.cards)} cards match the commitment, in dealing order")
    return EXIT_OK


def _read(path: str) -> bytes:
    """The file (or stdin), read no further than one byte past what a document may be."""
    if path == "-":
        return sys.stdin.buffer.read(MAX_DOCUMENT_BYTES + 1)
    with open(path, "rb") as file:
        return file.read(MAX_DOCUMENT_BYTES + 1)


def _for_printing(doc: ProofDocument) -> ProofDocument:
    """The document with the texts it only reports (ids, player names) made printable.

    None of them is in a proof (a leaf is position, card and salt), so the check is the
    same; a crafted name can no longer print a line of its own.
    """
    hand = dataclasses.replace(
        doc.hand, guild_id=printable(doc.hand.guild_id), channel_id=printable(doc.hand.channel_id)
    )
    cards = tuple(
        entry
        if entry.player is None
        else dataclasses.replace(entry, player=printable(entry.player))
        for entry in doc.cards
    )
    return dataclasses.replace(doc, hand=hand, cards=cards)


def main(argv: Sequence[str] | None = None) -> int:
    """The command line; returns the exit code instead of exiting (2 on bad usage too)."""
    try:
        args = build_parser().parse_args(argv)
    except SystemExit as exc:  # argparse has printed usage or help
        return exc.code if isinstance(exc.code, int) else EXIT_BAD_INPUT
    for stream in (sys.stdout, sys.stderr):  # a name the terminal cannot show is escaped
        if isinstance(stream, io.TextIOWrapper):
            stream.reconfigure(errors="backslashreplace")
    return verify_file(args.file)


if __name__ == "__main__":
    sys.exit(main())
