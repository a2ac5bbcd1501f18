"""A regular (non-editable) install works: the wheel carries the migrations and the CLI.

The wheel is built from a copy of the project's packaging inputs (a stale ``build/`` folder
in the checkout could otherwise leak deleted modules into it), installed into a fresh
virtual environment, and ``dealerbot db upgrade`` / ``dealerbot db check`` run from a directory
outside the checkout, as an operator would. The new environment borrows the dependencies
from the running one through a ``.pth`` file, so nothing is downloaded; ``.pth`` files in
a borrowed folder are not processed, so an editable install there cannot stand in for the
wheel (and ``test_the_installed_copy_is_the_one_that_runs`` checks it does not).
"""

from __future__ import annotations

import os
import shutil
import site
import subprocess
import sys
import sysconfig
import zipfile
from dataclasses import dataclass
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
PACKAGING_INPUTS = ("pyproject.toml", "setup.py", "README.md", "dealerbot", "migrations")


@dataclass(frozen=True)
class Installed:
    wheel: Path
    venv: Path
    workdir: Path

    @property
    def bin(self) -> Path:
        return self.venv / ("Scripts" if os.name == "nt" else "bin")

    def run(self, *argv: str) -> subprocess.CompletedProcess[str]:
        env = {k: v for k, v in os.environ.items() if not k.startswith("PYTHON")}
        env["DATABASE_PATH"] = str(self.workdir / "operator.sqlite3")
        env["PATH"] = os.pathsep.join([str(self.bin), env.get("PATH", "")])
        return subprocess.run(
            list(argv),
            cwd=self.workdir,
            env=env,
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        )


def run_checked(*argv: str | Path) -> None:
    result = subprocess.run(
        [str(a) for a in argv], capture_output=True, text=True, timeout=300, check=False
    )
    assert result.returncode == 0, f"{argv} failed:\n{result.stdout}\n{result.stderr}"


def borrow_dependencies(python: Path) -> None:
    """Put the running environment's site-packages after the new environment's own."""
    probe = "import sysconfig; print(sysconfig.get_paths()['purelib'])"
    result = subprocess.run(
        [str(python), "-c", probe], capture_output=True, text=True, timeout=60, check=True
    )
    purelib = Path(result.stdout.strip())
    ours = dict.fromkeys([*site.getsitepackages(), sysconfig.get_paths()["purelib"]])
    folders = [folder for folder in ours if Path(folder).is_dir()]
    (purelib / "_dealerbot_test_dependencies.pth").write_text("\n".join(folders) + "\n")


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Installed:
    root = tmp_path_factory.mktemp("packaging")
    source = root / "source"
    source.mkdir()
    for name in PACKAGING_INPUTS:
        origin = REPO / name
        if origin.is_dir():
            ignore = shutil.ignore_patterns("__pycache__", "*.pyc")
            shutil.copytree(origin, source / name, ignore=ignore)
        else:
            shutil.copy2(origin, source / name)
    wheels = root / "wheels"
    run_checked(sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", wheels, source)
    (wheel,) = wheels.glob("dealerbot-*.whl")
    venv = root / "venv"
    run_checked(sys.executable, "-m", "venv", "--without-pip", venv)
    python = venv / ("Scripts/python.exe" if os.name == "nt" else "bin/python")
    borrow_dependencies(python)
    run_checked(
        sys.executable, "-m", "pip", "--python", python, "install", "-q", "--no-deps", wheel
    )
    workdir = root / "operator"
    workdir.mkdir()
    return Installed(wheel, venv, workdir)


def test_the_wheel_carries_every_migration_byte_for_byte(installed: Installed) -> None:
    prefix = "dealerbot/migrations/"
    with zipfile.ZipFile(installed.wheel) as wheel:
        shipped = {
            name.removeprefix(prefix): wheel.read(name)
            for name in wheel.namelist()
            if name.startswith(prefix) and name.endswith(".sql")
        }
    folder = REPO / "migrations"
    source = {
        path.relative_to(folder).as_posix(): path.read_bytes() for path in folder.rglob("*.sql")
    }
    assert source, "no migrations in the top-level folder"
    assert shipped == source


def test_the_wheel_carries_every_package(installed: Installed) -> None:
    with zipfile.ZipFile(installed.wheel) as wheel:
        names = set(wheel.namelist())
    packages = sorted(
        init.parent.relative_to(REPO).as_posix() for init in REPO.glob("dealerbot/**/__init__.py")
    )
    missing = [p for p in packages if f"{p}/__init__.py" not in names]
    assert packages
    assert missing == []


def test_the_installed_copy_is_the_one_that_runs(installed: Installed) -> None:
    probe = (
        "import importlib.resources as r, dealerbot; "
        "print(dealerbot.__file__); print(r.files('dealerbot.migrations'))"
    )
    result = installed.run(str(installed.bin / "python"), "-c", probe)
    assert result.returncode == 0, result.stderr
    module, migrations = result.stdout.splitlines()
    venv = installed.venv.resolve()
    assert Path(module).resolve().is_relative_to(venv)
    assert Path(migrations).resolve().is_relative_to(venv)


def test_db_upgrade_then_check_from_outside_the_checkout(installed: Installed) -> None:
    database = installed.workdir / "operator.sqlite3"
    latest = max(int(path.name[:4]) for path in (REPO / "migrations").glob("*.sql"))

    upgrade = installed.run("dealerbot", "db", "upgrade")
    assert upgrade.returncode == 0, upgrade.stdout + upgrade.stderr
    assert "applied 0001_init.sql" in upgrade.stdout
    assert f"schema version {latest}" in upgrade.stdout
    assert database.is_file()

    check = installed.run("dealerbot", "db", "check")
    assert check.returncode == 0, check.stdout + check.stderr
    assert "pending migrations: none" in check.stdout
    assert "db check: ok" in check.stdout

    again = installed.run("dealerbot", "db", "upgrade")
    assert again.returncode == 0, again.stdout + again.stderr
    assert "already up to date" in again.stdout
