"""Discord's rules for message components: rows, buttons, selects, emoji, custom ids.

Layout (classic messages): at most 5 action rows; a row holds 1 to 5 buttons or one
select. Every interactive component needs a custom_id of 1 to 100 characters, unique in
the message; a link button needs a url and no custom_id. With IS_COMPONENTS_V2 the
top-level list may hold containers and sections, which are walked for the same checks.
"""

from __future__ import annotations

from typing import Any

from .form_errors import FormErrors, Path, is_snowflake
from .models import JSON
from .validation_emoji import check_partial_emoji

ACTION_ROW = 1
BUTTON = 2
STRING_SELECT = 3
TEXT_INPUT = 4
SELECT_TYPES = frozenset({3, 5, 6, 7, 8})
LINK_STYLE = 5
PREMIUM_STYLE = 6
BUTTON_STYLES = frozenset(range(1, 7))
URL_SCHEMES = ("http", "https", "discord")
MAX_ROWS = 5
MAX_ROW_WIDTH = 5
MAX_OPTIONS = 25


def check_components(errs: FormErrors, rows: Any, *, v2: bool) -> None:
    """Record every component rule broken by a message's `components` list."""
    if not isinstance(rows, list):
        errs.add(["components"], "LIST_TYPE_CONVERT", "Only iterables may be used in a ListType")
        return
    if not v2 and len(rows) > MAX_ROWS:
        errs.add(["components"], "BASE_TYPE_MAX_LENGTH", f"Must be {MAX_ROWS} or fewer in length.")
    seen: set[str] = set()
    for i, row in enumerate(rows):
        path: Path = ["components", i]
        if not isinstance(row, dict):
            errs.add(path, "MODEL_TYPE_CONVERT", "Only dictionaries may be used in a ModelType")
            continue
        if not v2 and row.get("type") != ACTION_ROW:
            errs.add([*path, "type"], "UNION_TYPE_CHOICES", "Value must be an action row.")
            continue
        check_component(errs, row, path, seen)


def check_component(errs: FormErrors, comp: JSON, path: Path, seen: set[str]) -> None:
    """One component and, recursively, what it contains."""
    if "type" not in comp:
        errs.required([*path, "type"])
        return
    kind = comp.get("type")
    if kind == ACTION_ROW:
        _check_row(errs, comp, path)
    elif kind == BUTTON:
        _check_button(errs, comp, path, seen)
        return
    elif kind in SELECT_TYPES:
        _check_select(errs, comp, path, seen)
        return
    elif kind == TEXT_INPUT:
        # Unconfirmed code: a text input belongs in a modal, never in a message.
        errs.add([*path, "type"], "COMPONENT_TYPE_INVALID", "Component type is invalid here")
        return
    elif comp.get("custom_id") is not None:
        check_custom_id(errs, comp.get("custom_id"), [*path, "custom_id"], seen)
    for key in ("components", "accessory", "component"):
        nested = comp.get(key)
        if isinstance(nested, dict):
            check_component(errs, nested, [*path, key], seen)
        elif isinstance(nested, list):
            for j, child in enumerate(nested):
                if isinstance(child, dict):
                    check_component(errs, child, [*path, key, j], seen)


def _check_row(errs: FormErrors, row: JSON, path: Path) -> None:
    children = row.get("components")
    if not isinstance(children, list) or not 1 <= len(children) <= MAX_ROW_WIDTH:
        errs.bad_len([*path, "components"], children, 1, MAX_ROW_WIDTH)
        return
    selects = [c for c in children if isinstance(c, dict) and c.get("type") in SELECT_TYPES]
    if selects and len(children) > 1:
        errs.add(
            [*path, "components"],
            "COMPONENT_LAYOUT_WIDTH_EXCEEDED",
            "The specified component exceeds the maximum width",
        )


def check_custom_id(errs: FormErrors, custom_id: Any, path: Path, seen: set[str]) -> None:
    """1 to 100 characters, not used by another component of the same message."""
    if custom_id is None:
        errs.required(path)
        return
    if not isinstance(custom_id, str) or not 1 <= len(custom_id) <= 100:
        errs.bad_len(path, custom_id, 1, 100)
        return
    if custom_id in seen:
        errs.add(path, "COMPONENT_CUSTOM_ID_DUPLICATED", "Component custom id cannot be duplicated")
    seen.add(custom_id)


def _check_button(errs: FormErrors, comp: JSON, path: Path, seen: set[str]) -> None:
    style = comp.get("style")
    if style not in BUTTON_STYLES or isinstance(style, bool):
        errs.add([*path, "style"], "BASE_TYPE_CHOICES", "Value must be one of {1, 2, 3, 4, 5, 6}.")
        return
    label, emoji = comp.get("label"), comp.get("emoji")
    if label is not None and errs.string([*path, "label"], label):
        errs.max_len([*path, "label"], label, 80)
    if emoji is not None:
        check_partial_emoji(errs, [*path, "emoji"], emoji)
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
    if url is None or url == "":
        errs.required(path)
        return
    if not errs.string(path, url):
        return
    errs.max_len(path, url, 512)
    scheme = url.split(":", 1)[0].lower() if ":" in url else ""
    if scheme not in URL_SCHEMES:
        errs.add(
            path,
            "URL_TYPE_INVALID_SCHEME",
            f'Scheme "{scheme}" is not supported. Scheme must be one of {URL_SCHEMES}.',
        )


def _check_select(errs: FormErrors, comp: JSON, path: Path, seen: set[str]) -> None:
    check_custom_id(errs, comp.get("custom_id"), [*path, "custom_id"], seen)
    placeholder = comp.get("placeholder")
    if placeholder is not None and errs.string([*path, "placeholder"], placeholder):
        errs.max_len([*path, "placeholder"], placeholder, 150)
    low, high = comp.get("min_values"), comp.get("max_values")
    if low is not None:
        errs.int_range([*path, "min_values"], low, 0, MAX_OPTIONS)
    if high is not None:
        errs.int_range([*path, "max_values"], high, 1, MAX_OPTIONS)
    lo = low if isinstance(low, int) else 1
    hi = high if isinstance(high, int) else 1
    if lo > hi:
        # Unconfirmed code.
        errs.add([*path, "min_values"], "SELECT_COMPONENT_MIN_GREATER_THAN_MAX", "min > max")
    if comp.get("type") != STRING_SELECT:
        return
    options = comp.get("options")
    if not isinstance(options, list) or not 1 <= len(options) <= MAX_OPTIONS:
        errs.bad_len([*path, "options"], options, 1, MAX_OPTIONS)
        return
    if len(options) < hi <= MAX_OPTIONS:
        # Unconfirmed code: more picks allowed than there are options.
        errs.add(
            [*path, "max_values"],
            "NUMBER_TYPE_MAX",
            f"int value should be less than or equal to {len(options)}.",
        )
    values: set[str] = set()
    for j, option in enumerate(options):
        _check_option(errs, option, [*path, "options", j], values)


def _check_option(errs: FormErrors, option: Any, path: Path, values: set[str]) -> None:
    if not isinstance(option, dict):
        errs.add(path, "MODEL_TYPE_CONVERT", "Only dictionaries may be used in a ModelType")
        return
    for key in ("label", "value"):
        text = option.get(key)
        if text is None:
            errs.required([*path, key])
        else:
            errs.bad_len([*path, key], text, 1, 100)
    description = option.get("description")
    if description is not None and errs.string([*path, "description"], description):
        errs.max_len([*path, "description"], description, 100)
    if option.get("emoji") is not None:
        check_partial_emoji(errs, [*path, "emoji"], option["emoji"])
    value = option.get("value")
    if isinstance(value, str):
        if value in values:
            errs.add(
                path,
                "SELECT_COMPONENT_OPTION_VALUE_DUPLICATED",
                "The specified option value is already used",
            )
        values.add(value)
