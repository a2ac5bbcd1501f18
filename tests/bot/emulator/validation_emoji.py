"""Which partial emoji Discord accepts on a button or a select option.

A custom emoji is named by its snowflake `id`; anything else must be one Unicode emoji
in Discord's set. The set is the Unicode emoji list as the maintained `emoji` package
knows it (ZWJ sequences, skin tones, flags, keycaps included), not a hand list: U+1F0A0
PLAYING CARD BACK is a plain symbol and Discord answers BUTTON_COMPONENT_INVALID_EMOJI.
"""

from __future__ import annotations

import emoji as emoji_data

from .form_errors import FormErrors, Path
from .models import JSON

VARIATION_SELECTOR_16 = "\ufe0f"
INVALID_EMOJI = ("BUTTON_COMPONENT_INVALID_EMOJI", "Invalid emoji")


def is_discord_unicode_emoji(name: str) -> bool:
    """One emoji, with or without the emoji-presentation selector Discord tolerates."""
    if emoji_data.is_emoji(name):
        return True
    bare = name.removesuffix(VARIATION_SELECTOR_16)
    return bare != name and bool(bare) and emoji_data.is_emoji(bare)


def check_partial_emoji(errs: FormErrors, path: Path, value: JSON) -> None:
    """A Unicode emoji Discord knows, when no custom emoji `id` is given.

    The object's shape (name required, at most 32 characters; id a snowflake) is the
    spec's. The set is not in the spec: https://discord.com/developers/docs/components/reference#button
    ("emoji: name, id, and animated"); Discord answers BUTTON_COMPONENT_INVALID_EMOJI for a
    name outside its set (issue 8, U+1F0A0).
    """
    if value.get("id") is not None:
        return
    name = value.get("name")
    if not isinstance(name, str) or not is_discord_unicode_emoji(name):
        errs.add([*path, "name"], *INVALID_EMOJI)
