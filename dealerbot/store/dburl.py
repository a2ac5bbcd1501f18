"""Where the database is: a path or a URL, parsed once into a :class:`DatabaseTarget`.

``DATABASE_URL`` takes ``sqlite:///relative/file``, ``sqlite:////absolute/file`` (the usual
SQLAlchemy form) or ``postgresql://user:password@host:port/dbname``; a bare path means
SQLite. A malformed one raises :class:`DatabaseUrlError` with what is wrong.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from urllib.parse import unquote, urlsplit

SQLITE_PREFIX = "sqlite:///"
POSTGRES_SCHEMES = ("postgresql", "postgres")


class DatabaseUrlError(ValueError):
    """The database URL cannot be used; the message says why."""


@dataclass(frozen=True, slots=True)
class DatabaseTarget:
    backend: str  # "sqlite" or "postgresql"
    path: str | None = None  # SQLite: the file
    dsn: str | None = None  # PostgreSQL: the URL as given (with its password)

    @property
    def display(self) -> str:
        """For messages and logs: the file, or the URL without its password."""
        if self.dsn is None:
            return str(self.path)
        parts = urlsplit(self.dsn)
        if parts.password is None:
            return self.dsn
        netloc = parts.netloc.replace(f":{parts.password}@", ":***@", 1)
        return parts._replace(netloc=netloc).geturl()


def sqlite_url(path: str | Path) -> str:
    return SQLITE_PREFIX + str(path)


def parse_target(target: str | Path) -> DatabaseTarget:
    """A path or a URL -> backend and location; DatabaseUrlError if it is malformed."""
    if isinstance(target, Path):
        return DatabaseTarget("sqlite", path=str(target))
    text = target.strip()
    if not text:
        raise DatabaseUrlError("the database URL is empty")
    scheme, sep, _ = text.partition("://")
    if not sep:
        return DatabaseTarget("sqlite", path=text)
    if scheme == "sqlite":
        if not text.startswith(SQLITE_PREFIX) or len(text) == len(SQLITE_PREFIX):
            raise DatabaseUrlError(
                f"a SQLite URL is sqlite:///relative/file or sqlite:////absolute/file, not {text!r}"
            )
        return DatabaseTarget("sqlite", path=text[len(SQLITE_PREFIX) :])
    if scheme in POSTGRES_SCHEMES:
        return DatabaseTarget("postgresql", dsn=_check_postgres(text))
    raise DatabaseUrlError(
        f"the database URL must start with sqlite:/// or postgresql://, not {scheme + '://'!r}"
    )


def _check_postgres(text: str) -> str:
    try:
        parts = urlsplit(text)
    except ValueError as exc:
        raise DatabaseUrlError(f"the PostgreSQL URL is malformed ({exc})") from None
    try:
        port = parts.port
    except ValueError:
        raise DatabaseUrlError(
            "the PostgreSQL URL's port is not a number from 1 to 65535"
        ) from None
    if not parts.hostname:
        raise DatabaseUrlError("the PostgreSQL URL names no host (postgresql://user@host/db)")
    if port is not None and not 0 < port < 65536:
        raise DatabaseUrlError(f"the PostgreSQL URL's port {port} is not a port number")
    name = unquote(parts.path.lstrip("/"))
    if not name or "/" in name:
        raise DatabaseUrlError(
            "the PostgreSQL URL names no database (postgresql://user@host:5432/dbname)"
        )
    return text
