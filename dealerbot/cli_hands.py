"""Operator commands for the hand log: ``export-hands`` and ``db prune``.

``export-hands --full`` writes every down card of every hand (audits, disputes); it exists
only here, on the operator's machine: no Discord command reaches it. Its PokerStars files
have no hero, so trackers read them: the cards the table never saw come last in each hand as
``shows`` lines noted as revealed by the export (``dealerbot.history.pokerstars_writer``).
``db prune`` deletes old hands' action logs and decks but keeps every hand row, its result,
the per-player stats rows and every ledger row, then runs the chip audit.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from .store.audit import audit
from .store.files import DIRECTORY_MODE, SECRET_MODE
from .store.history import prune
from .store.opening import open_database
from .tables.errors import TableError
from .tables.records import HandRecords, HistoryFile, HistoryFormat

DAY = 86_400.0
MAX_PRUNE_DAYS = 36_500  # 100 years: older than any hand; the cutoff stays a printable date


def add_commands(commands: Any, db_commands: Any) -> None:
    """Register ``export-hands`` (top level) and ``db prune`` on the CLI's parsers."""
    export = commands.add_parser("export-hands", help="write a server's hand histories to files")
    export.add_argument("--guild", type=int, required=True, help="the server (guild) id")
    export.add_argument("--since", type=since_date, help="only hands started from DATE (UTC)")
    export.add_argument(
        "--format", dest="fmt", choices=[f.value for f in HistoryFormat], default="pokerstars"
    )
    export.add_argument(
        "--full", action="store_true", help="every down card (audits and disputes; never shared)"
    )
    export.add_argument("--out", type=Path, help="folder for the files (default: hands-GUILD)")
    pruning = db_commands.add_parser(
        "prune", help="delete old hands' action logs and decks (results and ledger stay)"
    )
    pruning.add_argument(
        "--older-than",
        dest="days",
        type=days_count,
        required=True,
        metavar="DAYS",
        help=f"hands that ended more than DAYS days ago (1 to {MAX_PRUNE_DAYS})",
    )


def since_date(text: str) -> datetime:
    """``2026-12-01`` (midnight UTC) or an ISO time (UTC unless it names its zone)."""
    try:
        when = datetime.fromisoformat(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a date: {text!r} (use YYYY-MM-DD)") from None
    return when if when.tzinfo is not None else when.replace(tzinfo=UTC)


def days_count(text: str) -> int:
    """1 to MAX_PRUNE_DAYS, checked before anything is pruned (a cutoff further back than
    year 1 cannot even be printed, and a prune reporting it would lose its report)."""
    try:
        days = int(text)
    except ValueError:
        days = 0
    if not 1 <= days <= MAX_PRUNE_DAYS:
        raise argparse.ArgumentTypeError(
            f"DAYS must be a whole number from 1 to {MAX_PRUNE_DAYS}, not {text[:40]!r}"
        )
    return days


def dispatch(args: argparse.Namespace, target: str | Path) -> int | None:
    """Run one of these commands (its exit code), or None when ``args`` is another command."""
    if args.command not in ("export-hands", "db") or (
        args.command == "db" and getattr(args, "db_command", None) != "prune"
    ):
        return None
    if _missing(target):
        print(f"{target}: no database here")
        return 1
    if args.command == "db":
        return asyncio.run(db_prune(target, args.days))
    return export_hands(target, args)


def _missing(target: str | Path) -> bool:
    text = str(target)
    if "://" in text and not text.startswith("sqlite:"):
        return False
    path = Path(text.removeprefix("sqlite:///")) if text.startswith("sqlite:") else Path(text)
    return not path.is_file()


def export_hands(target: str | Path, args: argparse.Namespace) -> int:
    since = None if args.since is None else args.since.timestamp()
    try:
        files, skipped = asyncio.run(_export(target, args.guild, since, args.fmt, args.full))
    except TableError as error:
        print(f"export-hands: {error}")
        return 1
    out: Path = args.out or Path(f"hands-{args.guild}")
    try:
        write_files(out, files)
    except OSError as error:
        reason = "is a file, not a folder" if out.exists() and not out.is_dir() else None
        print(f"export-hands: --out {out}: {reason or error.strerror or error}", file=sys.stderr)
        return 2
    hands = sum(len(file.hand_ids) for file in files)
    view = "every down card (operator only)" if args.full else "public view"
    print(f"wrote {hands} hands in {len(files)} files to {out} ({args.fmt}, {view})")
    for note in skipped:
        print(f"left out {note}")
    return 0


def write_files(out: Path, files: list[HistoryFile]) -> None:
    """Each file readable by the owner only (0600) in ``out``, made 0700 if new.

    Why: a ``--full`` export holds every down card, as the database does (same modes).
    """
    out.mkdir(mode=DIRECTORY_MODE, parents=True, exist_ok=True)
    for file in files:
        fd = os.open(out / file.filename, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, SECRET_MODE)
        with open(fd, "w", encoding="utf-8") as stream:
            os.fchmod(fd, SECRET_MODE)  # a file left by an earlier export keeps no wider mode
            stream.write(file.text)


async def _export(
    target: str | Path, guild: int, since: float | None, fmt: str, full: bool
) -> tuple[list[HistoryFile], list[str]]:
    async with await open_database(target, migrate_now=False) as db:
        return await HandRecords(db).export(guild, since=since, fmt=fmt, full=full)


async def db_prune(target: str | Path, days: int) -> int:
    async with await open_database(target, migrate_now=False) as db:
        cutoff = db.now() - days * DAY
        report = await prune(db, cutoff)
        checked = await audit(db)
    when = datetime.fromtimestamp(cutoff, UTC)
    print(
        f"pruned {report.hands} hands that ended before {when:%Y-%m-%d %H:%M} UTC "
        f"({report.actions} logged actions deleted; results, stats and ledger kept)"
    )
    print("audit: " + ("ok" if checked.ok else "FAILED\n" + checked.render()))
    return 0 if checked.ok else 1
