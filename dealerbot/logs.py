"""Logging for the dealerbot process: one format, and no down card or deck at any level.

Below INFO, discord.py logs every request body and gateway event (a player's DMs and
"My cards" answers hold his down cards) and aiosqlite logs every statement with its
parameters (the deck of a hand being dealt). Unless the development switch
``LOG_SECRETS=1`` is set, those libraries are held at INFO whatever ``LOG_LEVEL`` says;
dealerbot's own log lines never carry a card, except at DEBUG on the ``dealerbot.secrets``
loggers (a corrupt deck's bad card, for whoever debugs it), held the same way.
"""

from __future__ import annotations

import logging

FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"
# They dump payloads at DEBUG (dealerbot.secrets: our own card-bearing detail).
PAYLOAD_LOGGERS = ("discord", "aiosqlite", "asyncpg", "dealerbot.secrets")


def configure(level: str, *, secrets: bool = False) -> None:
    """Set up the root logger at ``level``; keep the payload loggers quiet (see above)."""
    logging.basicConfig(level=level, format=FORMAT)
    hold_secrets(not secrets)


def hold_secrets(hold: bool = True) -> None:
    """Hold the payload loggers at INFO or above (or, with ``hold`` False, let them follow
    the root logger's level, DEBUG included)."""
    root = logging.getLogger().getEffectiveLevel()
    level = max(logging.INFO, root) if hold else logging.NOTSET
    for name in PAYLOAD_LOGGERS:
        logging.getLogger(name).setLevel(level)
