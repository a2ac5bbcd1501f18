"""A modal (interaction callback type 9) and its text inputs, as Discord checks them.

Modal: custom_id 1-100, title 1-45, 1 to 5 top-level components. Each is an action row
holding one text input, a label (type 18) wrapping one input, or a text display.
Text input: custom_id 1-100, style 1 (short) or 2 (paragraph), label 1-45 when it sits
in a row, min_length 0-4000, max_length 1-4000, value and placeholder bounded.
"""

from __future__ import annotations

from typing import Any

from .form_errors import FormErrors, Path
from .models import JSON
from .validation_components import (
    ACTION_ROW,
    SELECT_TYPES,
    TEXT_INPUT,
    check_component,
    check_custom_id,
)

LABEL = 18
TEXT_DISPLAY = 10
MAX_TEXT = 4000


def check_modal(data: JSON) -> None:
    """Raise 50035 when a modal callback's `data` breaks one of Discord's rules."""
    errs = FormErrors()
    seen: set[str] = set()
    check_custom_id(errs, data.get("custom_id"), ["custom_id"], seen)
    title = data.get("title")
    if title is None:
        errs.required(["title"])
    else:
        errs.bad_len(["title"], title, 1, 45)
    components = data.get("components")
    if not isinstance(components, list) or not 1 <= len(components) <= 5:
        errs.bad_len(["components"], components, 1, 5)
    else:
        for i, comp in enumerate(components):
            _check_top(errs, comp, ["components", i], seen)
    errs.raise_if_any()


def _check_top(errs: FormErrors, comp: Any, path: Path, seen: set[str]) -> None:
    if not isinstance(comp, dict):
        errs.add(path, "MODEL_TYPE_CONVERT", "Only dictionaries may be used in a ModelType")
        return
    kind = comp.get("type")
    if kind == ACTION_ROW:
        children = comp.get("components")
        if not isinstance(children, list) or len(children) != 1:
            errs.bad_len([*path, "components"], children, 1, 1)
            return
        _check_input(errs, children[0], [*path, "components", 0], seen, labelled=False)
    elif kind == LABEL:
        label = comp.get("label")
        if label is None:
            errs.required([*path, "label"])
        else:
            errs.bad_len([*path, "label"], label, 1, 45)
        description = comp.get("description")
        if description is not None:
            errs.max_len([*path, "description"], description, 100)
        inner = comp.get("component")
        if not isinstance(inner, dict):
            errs.required([*path, "component"])
            return
        _check_input(errs, inner, [*path, "component"], seen, labelled=True)
    elif kind == TEXT_DISPLAY:
        content = comp.get("content")
        if content is None:
            errs.required([*path, "content"])
        else:
            errs.bad_len([*path, "content"], content, 1, MAX_TEXT)
    else:
        errs.add([*path, "type"], "UNION_TYPE_CHOICES", "Value must be a modal component.")


def _check_input(
    errs: FormErrors, comp: Any, path: Path, seen: set[str], *, labelled: bool
) -> None:
    if not isinstance(comp, dict):
        errs.add(path, "MODEL_TYPE_CONVERT", "Only dictionaries may be used in a ModelType")
        return
    kind = comp.get("type")
    if kind in SELECT_TYPES:
        check_component(errs, comp, path, seen)
        return
    if kind != TEXT_INPUT:
        errs.add([*path, "type"], "UNION_TYPE_CHOICES", "Value must be a text input or select.")
        return
    check_custom_id(errs, comp.get("custom_id"), [*path, "custom_id"], seen)
    if comp.get("style") not in (1, 2):
        errs.add([*path, "style"], "BASE_TYPE_CHOICES", "Value must be one of {1, 2}.")
    label = comp.get("label")
    if label is None and not labelled:
        errs.required([*path, "label"])
    elif label is not None:
        errs.bad_len([*path, "label"], label, 1, 45)
    low, high = comp.get("min_length"), comp.get("max_length")
    if low is not None:
        errs.int_range([*path, "min_length"], low, 0, MAX_TEXT)
    if high is not None:
        errs.int_range([*path, "max_length"], high, 1, MAX_TEXT)
    for key, limit in (("value", MAX_TEXT), ("placeholder", 100)):
        text = comp.get(key)
        if text is not None and errs.string([*path, key], text):
            errs.max_len([*path, key], text, limit)
