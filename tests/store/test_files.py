"""The SQLite file on disk (issue 12, points 8-10): created 0600, one bot per file, and a
bad path or a file that is not a database named in one line."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from dealerbot import cli
from dealerbot.store.files import DatabaseFileError, ProcessLock, loose_permissions
from dealerbot.store.opening import open_database

pytestmark = pytest.mark.skipif(os.name != "posix", reason="POSIX file modes and flock")


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


async def test_a_new_database_and_its_wal_and_shm_are_private(tmp_path: Path) -> None:
    old = os.umask(0o022)  # the usual umask: files would be world-readable
    try:
        path = tmp_path / "bot.sqlite3"
        db = await open_database(path)
        try:
            async with db.transaction() as conn:
                await conn.execute("CREATE TABLE scratch (x INTEGER)")
            files = [path, Path(f"{path}-wal"), Path(f"{path}-shm")]
            assert all(f.exists() for f in files)
            assert [mode(f) for f in files] == [0o600] * 3
            assert loose_permissions(path) == []
        finally:
            await db.close()
    finally:
        os.umask(old)


def test_db_check_warns_about_a_readable_database(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "bot.sqlite3"
    assert cli.main(["--env-file", "none", "--database", str(path), "db", "upgrade"]) == 0
    assert cli.main(["--env-file", "none", "--database", str(path), "db", "check"]) == 0
    assert "permissions: ok" in capsys.readouterr().out
    path.chmod(0o644)
    cli.main(["--env-file", "none", "--database", str(path), "db", "check"])
    out = capsys.readouterr().out
    assert "WARNING permissions" in out and "0644" in out and "chmod 600" in out


def test_db_upgrade_creates_a_missing_directory_private(tmp_path: Path) -> None:
    path = tmp_path / "new" / "deeper" / "bot.sqlite3"
    assert cli.main(["--env-file", "none", "--database", str(path), "db", "upgrade"]) == 0
    assert mode(path.parent) == 0o700 and mode(path) == 0o600


async def test_a_missing_directory_or_a_foreign_file_is_one_clear_error(tmp_path: Path) -> None:
    with pytest.raises(DatabaseFileError, match="does not exist: create it"):
        await open_database(tmp_path / "missing" / "bot.sqlite3")
    notes = tmp_path / "notes.txt"
    notes.write_text("this is not a database\n")
    with pytest.raises(DatabaseFileError, match="not a SQLite database"):
        await open_database(notes)
    assert notes.read_text() == "this is not a database\n"  # untouched


def test_a_second_lock_on_the_same_database_names_the_holder(tmp_path: Path) -> None:
    first, second = ProcessLock(tmp_path / "bot.sqlite3"), ProcessLock(tmp_path / "bot.sqlite3")
    first.acquire()
    try:
        with pytest.raises(DatabaseFileError, match=f"in use by process {os.getpid()}"):
            second.acquire()
    finally:
        first.release()
    second.acquire()  # free again once the first lets go
    second.release()
    assert mode(tmp_path / "bot.sqlite3.lock") == 0o600
