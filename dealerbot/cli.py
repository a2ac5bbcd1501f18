"""Command line: run the bot (default), ``sync``, ``db upgrade``, ``db check``, ``audit``.

Exit codes: 0 fine, 1 a problem was found (pending migrations, integrity or audit
failures, a database too new), 2 bad usage or settings.
"""

from __future__ import annotations

import argparse
import asyncio
import importlib
import inspect
import logging
import sys
from collections.abc import Sequence
from pathlib import Path

from . import cli_hands
from .settings import Settings, SettingsError, load_settings
from .store import migrate
from .store.audit import audit
from .store.db import Database, fetch_all
from .store.errors import StoreError

log = logging.getLogger("dealerbot")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="dealerbot", description="Seven Card Stud dealer for Discord."
    )
    parser.add_argument("--env-file", default=".env", help="settings file (default: .env)")
    parser.add_argument("--database", help="database file (overrides DATABASE_PATH)")
    commands = parser.add_subparsers(dest="command")
    commands.add_parser("run", help="run the Discord bot (the default)")
    db = commands.add_parser("db", help="database maintenance")
    db_commands = db.add_subparsers(dest="db_command", required=True)
    db_commands.add_parser("upgrade", help="apply pending migrations")
    db_commands.add_parser("check", help="report schema version, pending migrations, integrity")
    commands.add_parser("audit", help="check that every chip is accounted for")
    sync = commands.add_parser("sync", help="publish the slash commands to Discord (globally)")
    sync.add_argument("--guild", type=int, help="only to this server (instant; for testing)")
    sync.add_argument(
        "--clear-guild", type=int, help="first remove the server-only copies from this server"
    )
    cli_hands.add_commands(commands, db_commands)  # export-hands, db prune
    return parser


def _database_path(settings: Settings, args: argparse.Namespace) -> Path:
    return Path(args.database) if args.database else settings.database_path


async def db_upgrade(path: Path) -> int:
    async with await Database.open(path, migrate_now=False) as db:
        applied = await migrate.upgrade(db.conn)
        version = await migrate.current_version(db.conn)
    for m in applied:
        print(f"applied {m.name}")
    print(f"{path}: schema version {version}" + ("" if applied else " (already up to date)"))
    return 0


async def db_check(path: Path) -> int:
    problems = 0
    async with await Database.open(path, migrate_now=False) as db:
        state = await migrate.status(db.conn)
        print(f"{path}: schema version {state.current}, code knows {state.latest}")
        if state.pending:
            problems += 1
            names = ", ".join(m.name for m in state.pending)
            print(f"pending migrations: {names} (run `dealerbot db upgrade`)")
        else:
            print("pending migrations: none")
        integrity = [r[0] for r in await fetch_all(db.conn, "PRAGMA integrity_check")]
        if integrity == ["ok"]:
            print("integrity_check: ok")
        else:
            problems += 1
            print("integrity_check: " + "; ".join(map(str, integrity[:10])))
        fk = await fetch_all(db.conn, "PRAGMA foreign_key_check")
        if fk:
            problems += 1
            for row in fk[:10]:
                print(f"foreign_key_check: {row[0]} row {row[1]} -> {row[2]} missing")
        else:
            print("foreign_key_check: ok")
    print("db check: " + ("FAILED" if problems else "ok"))
    return 1 if problems else 0


async def run_audit(path: Path) -> int:
    async with await Database.open(path, migrate_now=False) as db:
        state = await migrate.status(db.conn)
        if state.pending:
            print(f"{path}: schema version {state.current} needs `dealerbot db upgrade` first")
            return 1
        report = await audit(db)
    print(f"audit of {path}")
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


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        settings = load_settings(env_file=args.env_file)
        logging.basicConfig(
            level=settings.log_level, format="%(asctime)s %(levelname)s %(name)s: %(message)s"
        )
        path = _database_path(settings, args)
        if args.command == "db" and args.db_command == "upgrade":
            return asyncio.run(db_upgrade(path))
        if args.command in ("db", "audit") and not path.is_file():
            print(f"{path}: no database here (`dealerbot db upgrade` creates one)")
            return 1
        handled = cli_hands.dispatch(args, path)
        if handled is not None:
            return handled
        if args.command == "db":
            return asyncio.run(db_check(path))
        if args.command == "audit":
            return asyncio.run(run_audit(path))
        if args.command == "sync":
            return sync(settings, args.guild, args.clear_guild)
        if args.database:
            settings = Settings(
                discord_token=settings.discord_token,
                database_path=path,
                log_level=settings.log_level,
                dev_guild_id=settings.dev_guild_id,
                discord_api_base=settings.discord_api_base,
                discord_gateway_url=settings.discord_gateway_url,
            )
        return run(settings)
    except SettingsError as exc:
        print(f"dealerbot: {exc}", file=sys.stderr)
        return 2
    except StoreError as exc:
        print(f"dealerbot: {exc.message}", file=sys.stderr)
        return 1
