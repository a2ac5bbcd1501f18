"""Display names as every front end shows them: cleaned once, when a player sits down.

A name comes from the chat platform and may hold anything: newlines (a fake seat line
with the turn marker), zero-width or bidirectional-override characters (text that reads
differently than it is), long runs of whitespace. :func:`clean_name` keeps what a reader
sees as the name: control, format (zero-width, bidi controls) and separator characters
go, whitespace collapses to single spaces, and the result is cut at a character
boundary to :data:`MAX_NAME` characters. Front ends then only escape it for their markup.
"""

from __future__ import annotations

import unicodedata

MAX_NAME = 32  # Discord's own limit for display names and nicknames
_DROPPED = frozenset(
    {"Cc", "Cf", "Cs", "Co", "Cn"}
)  # control, format, surrogate, private, unassigned
_SPACES = frozenset({"Zs", "Zl", "Zp"})


def clean_name(name: str, *, limit: int = MAX_NAME) -> str:
    """The name without invisible or layout-changing characters, at most ``limit`` long."""
    kept: list[str] = []
    for char in name:
        category = unicodedata.category(char)
        if char in "\t\n\r\v\f" or category in _SPACES:
            kept.append(" ")
        elif category not in _DROPPED:
            kept.append(char)
    return " ".join("".join(kept).split())[:limit].rstrip()


def fallback_name(user_id: int) -> str:
    """What to call a player whose name has nothing visible in it."""
    return f"player {user_id % 10_000:04d}"


def shown_name(name: str, user_id: int) -> str:
    """The name as a seat shows it: cleaned, or the fallback when nothing visible is left
    (for a name shown outside a seat, e.g. the title of ``/stud stats``)."""
    return clean_name(name) or fallback_name(user_id)
