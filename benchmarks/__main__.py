"""Run every benchmark: ``python -m benchmarks`` from the repository root.

Each ``bench_*.py`` runs in its own process (so one's tables and caches do not skew the
next) and prints its figures with ratios against a reference measured in the same run.
Extra arguments are passed to every script (e.g. ``--quick`` where a script accepts it).
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path


def main() -> int:
    here = Path(__file__).resolve().parent
    failures = 0
    for script in sorted(here.glob("bench_*.py")):
        print(f"== {script.stem}", flush=True)
        completed = subprocess.run([sys.executable, str(script), *sys.argv[1:]], check=False)
        failures += completed.returncode != 0
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
