"""Discord's component rules that its OpenAPI spec does not carry.

The spec (`spec.py`) already checks the shapes: which component types go where, a row
of 1 to 5 children, button styles, label 80, custom_id 1-100, url 512, select options
1-25 with label/value 1-100, min/max values, placeholder 150. What stays here, with the
page of Discord's documentation that states it
(https://discord.com/developers/docs/components/reference unless noted):
- classic messages: at most 5 rows, every top-level component an action row (the spec
  allows v2 layouts in any message);
- a select fills its row alone;
- custom_id present on every interactive component and unique in the message;
- a link button has a url (http, https or discord) and no custom_id; another button has
  a custom_id and no url; a premium button has only its sku_id; a button shows a label
  or an emoji;
- a component emoji is a custom emoji id or a Unicode emoji in Discord's set; a custom
  one must be an emoji the bot may use (the application's own: `validation_emoji.py`);
- select: min_values <= max_values <= number of options; option values unique;
- components v2 (flags 1<<15): no content, embeds, poll or stickers; at most 40
  components in all (nested ones count); at most 4000 characters of text in all.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from .form_errors import FormErrors, Path, is_snowflake
from .models import JSON
from .validation_emoji import Usable, check_partial_emoji

ACTION_ROW = 1
BUTTON = 2
STRING_SELECT = 3
TEXT_INPUT = 4
TEXT_DISPLAY = 10
SELECT_TYPES = frozenset({3, 5, 6, 7, 8})
LINK_STYLE = 5
PREMIUM_STYLE = 6
URL_SCHEMES = ("http", "https", "discord")
MAX_ROWS = 5
"""Action rows in a classic message (the spec's 40 is the components v2 total)."""
MAX_V2_COMPONENTS = 40
MAX_V2_TEXT = 4000
V2_FORBIDDEN = ("content", "embeds", "poll", "sticker_ids")
NESTED = ("components", "accessory", "component")


def check_components(
    errs: FormErrors, rows: list[Any], *, v2: bool, usable: Usable | None = None
) -> None:
    """Record every component rule broken by a message's `components` list (`usable`: which
    custom emoji the bot may use; None: not checked)."""
    if not v2 and len(rows) > MAX_ROWS:
        errs.add(["components"], "BASE_TYPE_MAX_LENGTH", f"Must be {MAX_ROWS} or fewer in length.")
    seen: set[str] = set()
    for i, row in enumerate(rows):
        path: Path = ["components", i]
        if not isinstance(row, dict):
            continue
        if not v2 and row.get("type") != ACTION_ROW:
            errs.add([*path, "type"], "UNION_TYPE_CHOICES", "Value must be an action row.")
            continue
        check_component(errs, row, path, seen, usable)


def check_components_v2(errs: FormErrors, body: JSON) -> None:
    """IS_COMPONENTS_V2: components replace content and embeds; 40 of them, 4000 chars."""
    for key in V2_FORBIDDEN:
        if body.get(key):
            # Unconfirmed code: Discord's docs say these fields "will no longer work".
            errs.add([key], "MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2", "Not allowed")
    rows = body.get("components")
    every = list(_walk(rows)) if isinstance(rows, list) else []
    if len(every) > MAX_V2_COMPONENTS:
        # Unconfirmed code.
        errs.add(
            ["components"],
            "BASE_TYPE_MAX_LENGTH",
            f"Must be {MAX_V2_COMPONENTS} or fewer in length (nested components count).",
        )
    text = sum(
        len(c["content"])
        for c in every
        if c.get("type") == TEXT_DISPLAY and isinstance(c.get("content"), str)
    )
    if text > MAX_V2_TEXT:
        # Unconfirmed code.
        errs.add(
            ["components"],
            "COMPONENTS_V2_TEXT_TOO_LONG",
            f"Text of all components must be {MAX_V2_TEXT} or fewer in length.",
        )


def _walk(components: list[Any]) -> Iterator[JSON]:
    for comp in components:
        if not isinstance(comp, dict):
            continue
        yield comp
        for key in NESTED:
            nested = comp.get(key)
            if isinstance(nested, dict):
                yield from _walk([nested])
            elif isinstance(nested, list):
                yield from _walk(nested)


def check_component(
    errs: FormErrors, comp: JSON, path: Path, seen: set[str], usable: Usable | None = None
) -> None:
    """One component and, recursively, what it contains."""
    kind = comp.get("type")
    if kind == ACTION_ROW:
        _check_row(errs, comp, path)
    elif kind == BUTTON:
        _check_button(errs, comp, path, seen, usable)
        return
    elif kind in SELECT_TYPES:
        _check_select(errs, comp, path, seen, usable)
        return
    elif kind == TEXT_INPUT:
        return  # the spec has no text input in a message: it refused the body already
    elif comp.get("custom_id") is not None:
        check_custom_id(errs, comp.get("custom_id"), [*path, "custom_id"], seen)
    for key in ("components", "accessory", "component"):
        nested = comp.get(key)
        if isinstance(nested, dict):
            check_component(errs, nested, [*path, key], seen, usable)
        elif isinstance(nested, list):
            for j, child in enumerate(nested):
                if isinstance(child, dict):
                    check_component(errs, child, [*path, key, j], seen, usable)


def _check_row(errs: FormErrors, row: JSON, path: Path) -> None:
    children = row.get("components")
    if not isinstance(children, list):
        return
    selects = [c for c in children if isinstance(c, dict) and c.get("type") in SELECT_TYPES]
    if selects and len(children) > 1:
        # https://discord.com/developers/docs/components/reference#action-row
        # ("up to 5 buttons ... or a single select component").
        errs.add(
            [*path, "components"],
            "COMPONENT_LAYOUT_WIDTH_EXCEEDED",
            "The specified component exceeds the maximum width",
        )


def check_custom_id(errs: FormErrors, custom_id: Any, path: Path, seen: set[str]) -> None:
    """Present, and not used by another component of the same message (or modal).

    The 1-100 length is the spec's; presence (the spec makes a button's custom_id
    optional) and uniqueness are from the components reference ("must be unique").
    """
    if custom_id is None:
        errs.required(path)
        return
    if not isinstance(custom_id, str):
        return
    if custom_id in seen:
        errs.add(path, "COMPONENT_CUSTOM_ID_DUPLICATED", "Component custom id cannot be duplicated")
    seen.add(custom_id)


def _check_button(
    errs: FormErrors, comp: JSON, path: Path, seen: set[str], usable: Usable | None
) -> None:
    """https://discord.com/developers/docs/components/reference#button (field rules)."""
    style = comp.get("style")
    label, emoji = comp.get("label"), comp.get("emoji")
    if isinstance(emoji, dict):
        check_partial_emoji(errs, [*path, "emoji"], emoji, usable)
    if style == PREMIUM_STYLE:
        if not is_snowflake(comp.get("sku_id")):
            errs.required([*path, "sku_id"])
        for key in ("custom_id", "url", "label", "emoji"):
            if comp.get(key) is not None:
                # Unconfirmed code: premium buttons carry only their SKU.
                errs.add([*path, key], "BUTTON_COMPONENT_FIELD_NOT_ALLOWED", "Not allowed here")
        return
    if not label and emoji is None:
        # Unconfirmed code: Discord needs something to draw on the button.
        errs.add(path, "BUTTON_COMPONENT_LABEL_OR_EMOJI_REQUIRED", "A label or emoji is required")
    if style == LINK_STYLE:
        _check_url(errs, [*path, "url"], comp.get("url"))
        if comp.get("custom_id") is not None:
            # Unconfirmed code; Discord: "a custom id and url cannot both be specified".
            errs.add(
                [*path, "custom_id"],
                "BUTTON_COMPONENT_CUSTOM_ID_URL_EXCLUSIVE",
                "A custom id and url cannot both be specified",
            )
        return
    if comp.get("url") is not None:
        errs.add(
            [*path, "url"],
            "BUTTON_COMPONENT_CUSTOM_ID_URL_EXCLUSIVE",
            "A custom id and url cannot both be specified",
        )
    check_custom_id(errs, comp.get("custom_id"), [*path, "custom_id"], seen)


def _check_url(errs: FormErrors, path: Path, url: Any) -> None:
    """A link button's url: required, and http, https or discord (the spec: `format: uri`)."""
    if url is None or url == "":
        errs.required(path)
        return
    if not isinstance(url, str):
        return
    scheme = url.split(":", 1)[0].lower() if ":" in url else ""
    if scheme not in URL_SCHEMES:
        errs.add(
            path,
            "URL_TYPE_INVALID_SCHEME",
            f'Scheme "{scheme}" is not supported. Scheme must be one of {URL_SCHEMES}.',
        )


def _check_select(
    errs: FormErrors, comp: JSON, path: Path, seen: set[str], usable: Usable | None
) -> None:
    """https://discord.com/developers/docs/components/reference#string-select (counts)."""
    check_custom_id(errs, comp.get("custom_id"), [*path, "custom_id"], seen)
    low, high = comp.get("min_values"), comp.get("max_values")
    lo = low if isinstance(low, int) else 1
    hi = high if isinstance(high, int) else 1
    if lo > hi:
        # Unconfirmed code.
        errs.add([*path, "min_values"], "SELECT_COMPONENT_MIN_GREATER_THAN_MAX", "min > max")
    if comp.get("type") != STRING_SELECT:
        return
    options = comp.get("options")
    if not isinstance(options, list):
        return
    if len(options) < hi:
        # Unconfirmed code: more picks allowed than there are options.
        errs.add(
            [*path, "max_values"],
            "NUMBER_TYPE_MAX",
            f"int value should be less than or equal to {len(options)}.",
        )
    values: set[str] = set()
    for j, option in enumerate(options):
        if isinstance(option, dict):
            _check_option(errs, option, [*path, "options", j], values, usable)


def _check_option(
    errs: FormErrors, option: JSON, path: Path, values: set[str], usable: Usable | None
) -> None:
    if isinstance(option.get("emoji"), dict):
        check_partial_emoji(errs, [*path, "emoji"], option["emoji"], usable)
    value = option.get("value")
    if isinstance(value, str):
        if value in values:
            errs.add(
                path,
                "SELECT_COMPONENT_OPTION_VALUE_DUPLICATED",
                "The specified option value is already used",
            )
        values.add(value)
