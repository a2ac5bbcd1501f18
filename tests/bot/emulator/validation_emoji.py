"""Which partial emoji Discord accepts on a button or a select option.

A custom emoji is named by its snowflake `id` and must be one the bot may use: here the
application's own emoji (the emulator's guilds have no emoji of their own), checked when
the route passes `usable` (the world's lookup); anything else must be one Unicode emoji
in Discord's set. The set is the Unicode emoji list as the maintained `emoji` package
knows it (ZWJ sequences, skin tones, flags, keycaps included), not a hand list: U+1F0A0
PLAYING CARD BACK is a plain symbol and Discord answers BUTTON_COMPONENT_INVALID_EMOJI.
"""

from __future__ import annotations

from collections.abc import Callable

import emoji as emoji_data

from .form_errors import FormErrors, Path
from .models import JSON

Usable = Callable[[str], bool]
"""Whether the bot may use the custom emoji of this id (the world's answer)."""

VARIATION_SELECTOR_16 = "\ufe0f"
INVALID_EMOJI = ("BUTTON_COMPONENT_INVALID_EMOJI", "Invalid emoji")


def is_discord_unicode_emoji(name: str) -> bool:
    """One emoji, with or without the emoji-presentation selector Discord tolerates."""
    if emoji_data.is_emoji(name):
        return True
    bare = name.removesuffix(VARIATION_SELECTOR_16)
    return bare != name and bool(bare) and emoji_data.is_emoji(bare)


def check_partial_emoji(
    errs: FormErrors, path: Path, value: JSON, usable: Usable | None = None
) -> None:
    """A Unicode emoji Discord knows, when no custom emoji `id` is given; with an `id`, an
    emoji the bot may use (when `usable` is given).

    A custom emoji the bot cannot use (not the application's, not of a server it is in):
    50035 with "Invalid emoji" at `...emoji.id` (as Discord answered bots that put other
    servers' emoji on select options: `components[0].components[0].options[0].emoji.id:
    Invalid emoji`, Tomato6966/Multipurpose-discord-bot#200 and
    BestGamersH/Multipurpose-Discord-Bot#65; the code is the one Discord gives the same
    message at `emoji.name`, unconfirmed at `emoji.id`). Message text is not refused:
    Discord shows an unknown `<:name:id>` there as `:name:`.

    The object's shape (name required, at most 32 characters; id a snowflake) is the
    spec's. The set is not in the spec: https://discord.com/developers/docs/components/reference#button
    ("emoji: name, id, and animated"); Discord answers BUTTON_COMPONENT_INVALID_EMOJI for a
    name outside its set (issue 8, U+1F0A0).
    """
    emoji_id = value.get("id")
    if emoji_id is not None:
        if usable is not None and not usable(str(emoji_id)):
            errs.add([*path, "id"], *INVALID_EMOJI)
        return
    name = value.get("name")
    if not isinstance(name, str) or not is_discord_unicode_emoji(name):
        errs.add([*path, "name"], *INVALID_EMOJI)
