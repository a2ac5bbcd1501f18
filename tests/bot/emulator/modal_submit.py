"""What a user's client sends when they fill in and submit a modal the bot showed.

Discord's client enforces the modal's own rules before anything reaches the bot: every
required input filled, lengths within min_length/max_length, select picks within
min/max values and among the options. The submission mirrors the modal's layout (an
action row or a label around each input) with the typed `value` (or picked `values`).
"""

from __future__ import annotations

from typing import Any

from .models import JSON
from .validation_components import ACTION_ROW, SELECT_TYPES, TEXT_INPUT
from .validation_modal import LABEL

Answers = dict[str, str | list[str]]


def modal_submission(modal: JSON, answers: Answers) -> JSON:
    """The `data` of a MODAL_SUBMIT interaction; ValueError for what the client forbids."""
    known: set[str] = set()
    components = [_submitted(top, answers, known) for top in modal.get("components") or []]
    unknown = set(answers) - known
    if unknown:
        raise ValueError(f"the modal has no input with custom_id {sorted(unknown)}")
    return {"custom_id": modal["custom_id"], "components": [c for c in components if c]}


def _submitted(top: JSON, answers: Answers, known: set[str]) -> JSON | None:
    kind = top.get("type")
    if kind == ACTION_ROW:
        inner = [_answer(c, answers, known) for c in top.get("components") or []]
        return {"type": ACTION_ROW, "components": inner}
    if kind == LABEL and isinstance(top.get("component"), dict):
        answered: JSON = {"type": LABEL, "component": _answer(top["component"], answers, known)}
        if "id" in top:
            answered["id"] = top["id"]
        return answered
    return None  # text displays send nothing back


def _answer(comp: JSON, answers: Answers, known: set[str]) -> JSON:
    custom_id = str(comp.get("custom_id"))
    known.add(custom_id)
    kind = comp.get("type")
    given: Any = answers.get(custom_id)
    if kind == TEXT_INPUT:
        value = "" if given is None else given
        if not isinstance(value, str):
            raise ValueError(f"text input {custom_id!r} takes a string")
        _check_text(comp, custom_id, value)
        return {"type": TEXT_INPUT, "custom_id": custom_id, "value": value}
    if kind in SELECT_TYPES:
        picked = [] if given is None else list(given)
        low, high = int(comp.get("min_values", 1)), int(comp.get("max_values", 1))
        if comp.get("required", True) and not low <= len(picked) <= high:
            raise ValueError(f"select {custom_id!r} needs between {low} and {high} values")
        options = {o.get("value") for o in comp.get("options") or []}
        if comp.get("type") == 3 and not set(picked) <= options:
            raise ValueError(f"values {picked} are not among the options of {custom_id!r}")
        return {"type": kind, "custom_id": custom_id, "values": picked}
    raise ValueError(f"component {custom_id!r} of type {kind} takes no input")


def _check_text(comp: JSON, custom_id: str, value: str) -> None:
    required = comp.get("required", True)
    if not value:
        if required:
            raise ValueError(f"text input {custom_id!r} is required")
        return
    low = int(comp.get("min_length") or 0)
    high = int(comp.get("max_length") or 4000)
    if not low <= len(value) <= high:
        raise ValueError(f"text input {custom_id!r} takes {low} to {high} characters")
