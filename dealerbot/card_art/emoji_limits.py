"""Discord's limits on an application's own emoji, in one place.

From Discord's developer documentation (Emoji resource: "An application can own up to 2000
emojis"; Create Application Emoji: "Emojis and animated emojis have a maximum file size of
256 KiB") and its OpenAPI spec (``name``: 2 to 32 characters). The characters a name may
hold are not in the spec; Discord's emoji object documentation said "at least 2 characters
long and can only contain alphanumeric characters and underscores", and Discord refuses
others (50035, ``STRING_TYPE_REGEX`` on ``name``).
"""

from __future__ import annotations

import re

NAME_MIN = 2  # characters of an emoji's name
NAME_MAX = 32
NAME_CHARACTERS = re.compile(r"[A-Za-z0-9_]+")
"""What a whole name is made of (ASCII letters, digits, underscore)."""
IMAGE_BYTES = 256 * 1024  # one emoji's image file, as uploaded
PER_APPLICATION = 2000  # emoji one application may own


def name_problem(name: str) -> str | None:
    """Why Discord would refuse ``name`` for an emoji, or None when it is fine."""
    if not NAME_MIN <= len(name) <= NAME_MAX:
        return f"an emoji name has {NAME_MIN} to {NAME_MAX} characters, not {len(name)}"
    if NAME_CHARACTERS.fullmatch(name) is None:
        return "an emoji name holds only letters A-Z, a-z, digits and _"
    return None
