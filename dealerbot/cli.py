"""Command line: run the bot (default), ``sync``, ``emoji sync``, ``db upgrade|check|copy``,
``audit``.

Exit codes: 0 fine, 1 a problem was found (pending migrations, integrity or audit
failures, a database too new), 2 bad usage or settings.
"""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import importlib
import inspect
import logging
import sys
from collections.abc import Sequence
from pathlib import Path

from . import cli_hands, logs, verify
from .settings import Settings, SettingsError, load_settings
from .store import files, migrate
from .store.audit import audit
from .store.copy import db_copy
from .store.db import Database, fetch_all
from .store.dburl import DatabaseUrlError, parse_target
from .store.errors import DatabaseUnavailable, StoreError
from .store.opening import open_database
from .tables.stats import backfill as backfill_stats

log = logging.getLogger("dealerbot")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="dealerbot",
        description="A Discord dealer for Seven Card Stud, Stud Hi/Lo eight-or-better and Razz,"
        " fixed limit, one game or mixed.",
    )
    parser.add_argument("--env-file", default=".env", help="settings file (default: .env)")
    parser.add_argument(
        "--database", help="database file or URL (overrides DATABASE_URL and DATABASE_PATH)"
    )
    commands = parser.add_subparsers(dest="command")
    commands.add_parser("run", help="run the Discord bot (the default)")
    db = commands.add_parser("db", help="database maintenance")
    db_commands = db.add_subparsers(dest="db_command", required=True)
    db_commands.add_parser("upgrade", help="apply pending migrations")
    db_commands.add_parser("check", help="report schema version, pending migrations, integrity")
    copy = db_commands.add_parser(
        "copy", help="copy a whole card room to an empty database (SQLite <-> PostgreSQL)"
    )
    copy.add_argument("--from", dest="source", required=True, help="source file or URL")
    copy.add_argument("--to", dest="destination", required=True, help="target file or URL")
    commands.add_parser("audit", help="check that every chip is accounted for")
    check = commands.add_parser("verify", help="check a proof of a fair deal (JSON) offline")
    check.add_argument("file", help="the proof document /stud verify gave, or - for stdin")
    sync = commands.add_parser("sync", help="publish the slash commands to Discord (globally)")
    sync.add_argument("--guild", type=int, help="only to this server (instant; for testing)")
    sync.add_argument(
        "--clear-guild", type=int, help="first remove the server-only copies from this server"
    )
    emoji = commands.add_parser("emoji", help="the card art as the application's own emoji")
    emoji_commands = emoji.add_subparsers(dest="emoji_command", required=True)
    emoji_commands.metavar = "{sync}"
    emoji_sync = emoji_commands.add_parser("sync", help="upload the card emoji that are missing")
    emoji_sync.add_argument(
        "--remove", action="store_true", help="remove dealerbot's card emoji (only those)"
    )
    cli_hands.add_commands(commands, db_commands)  # export-hands, db prune
    # `dealerbot db` alone names the sub-commands it wants, not the internal dest.
    db_commands.metavar = "{" + ",".join(db_commands.choices) + "}"
    return parser


def _database(settings: Settings, args: argparse.Namespace) -> str:
    """--database (a file or a URL), else DATABASE_URL, else DATABASE_PATH."""
    return str(args.database) if args.database else settings.database


def _display(target: str) -> str:
    return parse_target(target).display


async def db_upgrade(target: str) -> int:
    if parse_target(target).backend == "sqlite":  # a new database's directory is made 0700
        files.prepare(str(parse_target(target).path), create_directory=True)
    async with await open_database(target, migrate_now=False) as db:
        applied = await migrate.upgrade(db)
        version = await migrate.current_version(db)
        recorded, skipped = await backfill_stats(db)
    for m in applied:
        print(f"applied {m.name}")
    if recorded or skipped:
        print(f"player stats: {recorded} older hands recorded, {skipped} could not be replayed")
    print(
        f"{_display(target)}: schema version {version}"
        + ("" if applied else " (already up to date)")
    )
    return 0


async def _integrity(db: Database) -> list[str]:
    """Problems the database itself can find (SQLite's checks; PostgreSQL enforces on write)."""
    if db.backend != "sqlite":
        return []
    problems: list[str] = []
    async with db.reading() as conn:
        integrity = [r[0] for r in await fetch_all(conn, "PRAGMA integrity_check")]
        if integrity != ["ok"]:
            problems.append("integrity_check: " + "; ".join(map(str, integrity[:10])))
        for row in (await fetch_all(conn, "PRAGMA foreign_key_check"))[:10]:
            problems.append(f"foreign_key_check: {row[0]} row {row[1]} -> {row[2]} missing")
    return problems


async def db_check(target: str) -> int:
    problems = 0
    async with await open_database(target, migrate_now=False) as db:
        state = await migrate.status(db)
        print(
            f"{_display(target)} ({db.backend}): schema version {state.current}, "
            f"code knows {state.latest}"
        )
        if state.pending:
            problems += 1
            names = ", ".join(m.name for m in state.pending)
            print(f"pending migrations: {names} (run `dealerbot db upgrade`)")
        else:
            print("pending migrations: none")
        found = await _integrity(db)
        problems += len(found)
        for line in found:
            print(line)
        if not found and db.backend == "sqlite":
            print("integrity_check: ok\nforeign_key_check: ok")
        elif not found:
            print("constraints: enforced by PostgreSQL on every write")
    if parse_target(target).backend == "sqlite":  # warn only: the data itself is fine
        loose = files.loose_permissions(str(parse_target(target).path))
        for line in loose:
            print(f"WARNING permissions: {line}")
        if not loose:
            print("permissions: ok (only the owner can read the database)")
    print("db check: " + ("FAILED" if problems else "ok"))
    return 1 if problems else 0


async def run_audit(target: str) -> int:
    async with await open_database(target, migrate_now=False) as db:
        state = await migrate.status(db)
        if state.pending:
            print(
                f"{_display(target)}: schema version {state.current} needs "
                "`dealerbot db upgrade` first"
            )
            return 1
        report = await audit(db)
    print(f"audit of {_display(target)}")
    print(report.render())
    return 0 if report.ok else 1


def run(settings: Settings) -> int:
    """Start the bot: imported lazily so maintenance commands work without Discord code."""
    settings.require_token()
    module = importlib.import_module("dealerbot.runner")
    result = module.run_bot(settings)
    if inspect.isawaitable(result):
        asyncio.run(result)  # type: ignore[arg-type]
    return result if isinstance(result, int) else 0


def sync(settings: Settings, guild: int | None, clear_guild: int | None) -> int:
    """Publish the commands on demand (the bot syncs only DEV_GUILD_ID at start)."""
    settings.require_token()
    module = importlib.import_module("dealerbot.runner")
    return int(module.sync_commands(settings, guild_id=guild, clear_guild=clear_guild))


def emoji(settings: Settings, *, remove: bool) -> int:
    """Upload (or remove) the card emoji; imported lazily, as ``sync`` is."""
    settings.require_token()
    module = importlib.import_module("dealerbot.emoji_sync")
    return int(module.sync_emoji(settings, remove=remove))


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    if args.command == "verify":  # offline: no settings, no database
        return verify.main([args.file])
    try:
        settings = load_settings(env_file=args.env_file)
        logs.configure(settings.log_level, secrets=settings.log_secrets)  # no card, any level
        if args.command == "emoji":  # Discord only: no database
            return emoji(settings, remove=args.remove)
        target = _database(settings, args)
        if args.command == "db" and args.db_command == "upgrade":
            return asyncio.run(db_upgrade(target))
        if args.command == "db" and args.db_command == "copy":
            return asyncio.run(db_copy(args.source, args.destination))
        parsed = parse_target(target)
        missing = parsed.backend == "sqlite" and not Path(parsed.path or "").is_file()
        if args.command in ("db", "audit") and missing:
            print(f"{parsed.path}: no database here (`dealerbot db upgrade` creates one)")
            return 1
        handled = cli_hands.dispatch(args, target)
        if handled is not None:
            return handled
        if args.command == "db":
            return asyncio.run(db_check(target))
        if args.command == "audit":
            return asyncio.run(run_audit(target))
        if args.command == "sync":
            return sync(settings, args.guild, args.clear_guild)
        if args.database and "://" not in target:
            settings = dataclasses.replace(settings, database_path=Path(target), database_url=None)
        elif args.database:
            settings = dataclasses.replace(settings, database_url=target)
        return run(settings)
    except SettingsError as exc:
        print(f"dealerbot: {exc}", file=sys.stderr)
        return 2
    except DatabaseUrlError as exc:
        print(f"dealerbot: --database: {exc}", file=sys.stderr)
        return 2
    except DatabaseUnavailable as exc:
        print(f"dealerbot: {_setting_named(args)}: {exc.message}", file=sys.stderr)
        return 1
    except StoreError as exc:
        print(f"dealerbot: {exc.message}", file=sys.stderr)
        return 1


def _setting_named(args: argparse.Namespace) -> str:
    """Which setting named the database that failed, for the one-line error."""
    if args.command == "db" and args.db_command == "copy":
        return "db copy"
    return "--database" if args.database else "DATABASE_URL"
