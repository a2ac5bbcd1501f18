"""The SQLite file on disk: who may read it, one bot per file, what a bad path means.

The database holds the deck and salts of every hand in progress, so a new database file
is created readable and writable by the bot's user only (0600); SQLite gives its WAL and
SHM companions the same mode. :func:`loose_permissions` lists the files others may read
(``dealerbot db check`` warns about them). :func:`prepare` turns a missing directory or a
file that is not a database into one :class:`DatabaseFileError` before SQLite sees it.
:class:`ProcessLock` keeps a second bot off a database another one is using: an
exclusive ``flock`` on ``<database>.lock``, which holds the owner's process id.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

from .errors import StoreError

SECRET_MODE = 0o600  # the database and its companions
DIRECTORY_MODE = 0o700  # a directory dealerbot creates for a database
SQLITE_HEADER = b"SQLite format 3\x00"
COMPANIONS = ("", "-wal", "-shm", "-journal")


class DatabaseFileError(StoreError):
    """The database path cannot be used (missing directory, not a database, in use)."""


def missing_directory(parent: Path) -> str:
    return f"the directory {parent} does not exist: create it (chmod 700) or change DATABASE_PATH"


def is_memory(path: str | Path) -> bool:
    return str(path) in ("", ":memory:") or str(path).startswith("file:")


def prepare(path: str | Path, *, create_directory: bool = False) -> None:
    """Before SQLite opens ``path``: its directory must exist (or, with
    ``create_directory``, is created 0700), an existing file must be a SQLite database,
    and a new file is created 0600."""
    if is_memory(path):
        return
    path = Path(path)
    parent = path.parent
    if not parent.is_dir():
        if not create_directory:
            raise DatabaseFileError(missing_directory(parent))
        parent.mkdir(mode=DIRECTORY_MODE, parents=True)
    if path.is_dir():
        raise DatabaseFileError(f"{path} is a directory: DATABASE_PATH must name a file")
    try:
        fd = os.open(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY, SECRET_MODE)
    except FileExistsError:
        with path.open("rb") as file:
            head = file.read(len(SQLITE_HEADER))
        if head and head != SQLITE_HEADER:
            raise DatabaseFileError(
                f"{path} is not a SQLite database: point DATABASE_PATH at the bot's "
                "database file (or at a new file)"
            ) from None
    except OSError as error:
        raise DatabaseFileError(f"cannot create {path}: {error.strerror}") from None
    else:
        os.close(fd)


def loose_permissions(path: str | Path) -> list[str]:
    """One line per database file (or companion) that other users may read or write."""
    if is_memory(path):
        return []
    lines = []
    for suffix in COMPANIONS:
        file = Path(f"{path}{suffix}")
        try:
            mode = stat.S_IMODE(file.stat().st_mode)
        except FileNotFoundError:
            continue
        if mode & 0o077:
            lines.append(
                f"{file} has mode {mode:04o}: other users can read the decks of hands in "
                f"progress (run: chmod 600 {file})"
            )
    return lines


class ProcessLock:
    """An exclusive lock on ``<database>.lock`` for as long as this process runs the bot."""

    def __init__(self, database: str | Path) -> None:
        self.path = Path(f"{database}.lock")
        self._fd: int | None = None

    def acquire(self) -> None:
        """Take the lock, or :class:`DatabaseFileError` naming the process that holds it."""
        try:
            import fcntl
        except ImportError:  # no flock on this platform: nothing to hold
            return
        if not self.path.parent.is_dir():
            raise DatabaseFileError(missing_directory(self.path.parent))
        fd = os.open(self.path, os.O_RDWR | os.O_CREAT, SECRET_MODE)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            holder = os.read(fd, 64).decode(errors="replace").strip() or "another process"
            os.close(fd)
            raise DatabaseFileError(
                f"the database is in use by process {holder} (lock file {self.path}); "
                "stop that bot first: two bots on one database disturb each other's tables"
            ) from None
        os.ftruncate(fd, 0)
        os.write(fd, f"{os.getpid()}\n".encode())
        self._fd = fd

    def release(self) -> None:
        """Let another process have the database (the lock file stays, empty of meaning)."""
        fd, self._fd = self._fd, None
        if fd is not None:
            os.close(fd)  # closing the descriptor drops the flock
