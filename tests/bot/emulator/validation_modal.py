"""Discord's modal rules (interaction callback type 9) that its OpenAPI spec does not carry.

The spec (`spec.py`) checks the shapes and lengths: custom_id 1-100, title 1-45, which
component types a modal holds (action row, label, text display), a text input's style,
label 1-45, min_length 0-4000, max_length 1-4000, value 4000, placeholder 100. What
stays here, from
https://discord.com/developers/docs/interactions/receiving-and-responding#interaction-response-object-modal
and https://discord.com/developers/docs/components/reference#text-input:
- at most 5 top-level components (the spec says 40);
- an action row in a modal holds exactly one text input (the spec allows 5);
- a text input in an action row needs its label (in a label component it has none);
- custom ids are unique in the modal.
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
MAX_COMPONENTS = 5


def check_modal(data: JSON) -> None:
    """Raise 50035 when a modal callback's `data` breaks one of Discord's rules."""
    errs = FormErrors()
    seen: set[str] = set()
    check_custom_id(errs, data.get("custom_id"), ["custom_id"], seen)
    components = data.get("components")
    if isinstance(components, list):
        if len(components) > MAX_COMPONENTS:
            errs.bad_len(["components"], components, 1, MAX_COMPONENTS)
        for i, comp in enumerate(components):
            if isinstance(comp, dict):
                _check_top(errs, comp, ["components", i], seen)
    errs.raise_if_any()


def _check_top(errs: FormErrors, comp: JSON, path: Path, seen: set[str]) -> None:
    kind = comp.get("type")
    if kind == ACTION_ROW:
        children = comp.get("components")
        if not isinstance(children, list):
            return
        if len(children) != 1:
            errs.bad_len([*path, "components"], children, 1, 1)
            return
        _check_input(errs, children[0], [*path, "components", 0], seen, labelled=False)
    elif kind == LABEL and isinstance(comp.get("component"), dict):
        _check_input(errs, comp["component"], [*path, "component"], seen, labelled=True)


def _check_input(
    errs: FormErrors, comp: Any, path: Path, seen: set[str], *, labelled: bool
) -> None:
    if not isinstance(comp, dict):
        return
    kind = comp.get("type")
    if kind in SELECT_TYPES:
        check_component(errs, comp, path, seen)
        return
    if kind != TEXT_INPUT:
        return
    check_custom_id(errs, comp.get("custom_id"), [*path, "custom_id"], seen)
    if comp.get("label") is None and not labelled:
        errs.required([*path, "label"])
