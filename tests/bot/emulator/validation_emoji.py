"""Which partial emoji Discord accepts on a button or a select option.

A custom emoji is named by its snowflake `id`; anything else must be one Unicode emoji
in Discord's set. The set is the Unicode emoji list as the maintained `emoji` package
knows it (ZWJ sequences, skin tones, flags, keycaps included), not a hand list: U+1F0A0
PLAYING CARD BACK is a plain symbol and Discord answers BUTTON_COMPONENT_INVALID_EMOJI.
"""

from __future__ import annotations

from typing import Any

import emoji as emoji_data

from .form_errors import FormErrors, Path, is_snowflake

VARIATION_SELECTOR_16 = "\ufe0f"
INVALID_EMOJI = ("BUTTON_COMPONENT_INVALID_EMOJI", "Invalid emoji")


def is_discord_unicode_emoji(name: str) -> bool:
    """One emoji, with or without the emoji-presentation selector Discord tolerates."""
    if emoji_data.is_emoji(name):
        return True
    bare = name.removesuffix(VARIATION_SELECTOR_16)
    return bare != name and bool(bare) and emoji_data.is_emoji(bare)


def check_partial_emoji(errs: FormErrors, path: Path, value: Any) -> None:
    """Record what Discord refuses in a component's `emoji` object."""
    if not isinstance(value, dict):
        errs.add(path, "MODEL_TYPE_CONVERT", "Only dictionaries may be used in a ModelType")
        return
    emoji_id = value.get("id")
    if emoji_id is not None:
        if not is_snowflake(emoji_id):
            errs.add([*path, "id"], "NUMBER_TYPE_COERCE", f'Value "{emoji_id}" is not snowflake.')
        return
    name = value.get("name")
    if not isinstance(name, str) or not is_discord_unicode_emoji(name):
        errs.add([*path, "name"], *INVALID_EMOJI)
