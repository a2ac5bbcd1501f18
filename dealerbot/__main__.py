"""``python -m dealerbot`` and the ``dealerbot`` script: the command line in :mod:`cli`."""

from __future__ import annotations

import sys

from .cli import main as _cli_main


def main() -> None:
    sys.exit(_cli_main())


if __name__ == "__main__":
    main()
