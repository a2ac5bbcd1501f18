"""Modal callbacks (type 9) and autocomplete results (type 8)."""

from __future__ import annotations

from functools import partial
from typing import Any

import pytest

from tests.bot.emulator.modal_submit import modal_submission
from tests.bot.emulator.validation import check_modal

from .helpers import CALLBACK, codes_at, refusal, through_spec

INPUT = ("components", 0, "components", 0)


def show(data: dict[str, Any]) -> None:
    """A modal callback: the spec's check, then the hand-written rules."""
    through_spec("POST", CALLBACK, {"type": 9, "data": data}, under="data")
    check_modal(data)


def autocomplete(data: dict[str, Any]) -> None:
    """An autocomplete result: the spec carries every rule."""
    through_spec("POST", CALLBACK, {"type": 8, "data": data}, under="data")


def text_input(**extra: Any) -> dict[str, Any]:
    return {"type": 4, "custom_id": "amount", "style": 1, "label": "Amount", **extra}


def modal(*inputs: dict[str, Any], **extra: Any) -> dict[str, Any]:
    rows = [{"type": 1, "components": [i]} for i in inputs] or [
        {"type": 1, "components": [text_input()]}
    ]
    return {"custom_id": "buyin", "title": "Sit down", "components": rows, **extra}


def test_modal_discord_py_sends_is_accepted() -> None:
    show(modal(text_input(min_length=0, max_length=4000, value="v" * 4000)))


def test_modal_title_45_and_required() -> None:
    show(modal(title="t" * 45))
    error = refusal(partial(show, modal(title="t" * 46)))
    assert codes_at(error, "title") == ["BASE_TYPE_BAD_LENGTH"]
    no_title = {k: v for k, v in modal().items() if k != "title"}
    error = refusal(partial(show, no_title))
    assert codes_at(error, "title") == ["BASE_TYPE_REQUIRED"]


def test_modal_custom_id_100() -> None:
    show(modal(custom_id="c" * 100))
    error = refusal(partial(show, modal(custom_id="c" * 101)))
    assert codes_at(error, "custom_id") == ["BASE_TYPE_BAD_LENGTH"]


def test_modal_1_to_5_components() -> None:
    five = [text_input(custom_id=f"i{n}") for n in range(5)]
    show(modal(*five))
    error = refusal(partial(show, modal(*five, text_input(custom_id="i5"))))
    assert codes_at(error, "components") == ["BASE_TYPE_BAD_LENGTH"]
    error = refusal(partial(show, {**modal(), "components": []}))
    assert codes_at(error, "components") == ["BASE_TYPE_BAD_LENGTH"]


def test_text_input_label_45_and_custom_id_100() -> None:
    show(modal(text_input(label="l" * 45, custom_id="c" * 100)))
    error = refusal(partial(show, modal(text_input(label="l" * 46))))
    assert codes_at(error, *INPUT, "label") == ["BASE_TYPE_BAD_LENGTH"]
    error = refusal(partial(show, modal(text_input(custom_id="c" * 101))))
    assert codes_at(error, *INPUT, "custom_id") == ["BASE_TYPE_BAD_LENGTH"]


def test_text_input_lengths_0_to_4000() -> None:
    error = refusal(partial(show, modal(text_input(min_length=4001))))
    assert codes_at(error, *INPUT, "min_length") == ["NUMBER_TYPE_MAX"]
    error = refusal(partial(show, modal(text_input(max_length=0))))
    assert codes_at(error, *INPUT, "max_length") == ["NUMBER_TYPE_MIN"]
    error = refusal(partial(show, modal(text_input(value="v" * 4001))))
    assert codes_at(error, *INPUT, "value") == ["BASE_TYPE_MAX_LENGTH"]


def test_text_input_style_and_duplicate_ids() -> None:
    error = refusal(partial(show, modal(text_input(style=3))))
    assert codes_at(error, *INPUT, "style") == ["BASE_TYPE_CHOICES"]
    error = refusal(partial(show, modal(text_input(), text_input())))
    assert codes_at(error, "components", 1, "components", 0, "custom_id") == [
        "COMPONENT_CUSTOM_ID_DUPLICATED"
    ]


def test_a_row_in_a_modal_holds_one_text_input_with_its_label() -> None:
    two = {"type": 1, "components": [text_input(), text_input(custom_id="other")]}
    through_spec("POST", CALLBACK, {"type": 9, "data": {**modal(), "components": [two]}})
    error = refusal(partial(show, {**modal(), "components": [two]}))
    assert codes_at(error, "components", 0, "components") == ["BASE_TYPE_BAD_LENGTH"]
    error = refusal(partial(show, modal(text_input(label=None))))
    assert codes_at(error, *INPUT, "label") == ["BASE_TYPE_REQUIRED"]


def test_label_component_wraps_an_input() -> None:
    labelled = {"type": 18, "label": "Buy-in", "component": text_input(label=None)}
    show({**modal(), "components": [labelled]})
    error = refusal(partial(show, {**modal(), "components": [{**labelled, "label": ""}]}))
    assert codes_at(error, "components", 0, "label") == ["BASE_TYPE_BAD_LENGTH"]


def test_buttons_do_not_belong_in_a_modal() -> None:
    button = {"type": 2, "style": 1, "label": "x", "custom_id": "b"}
    error = refusal(partial(show, {**modal(), "components": [button]}))
    assert codes_at(error, "components", 0, "type") == ["UNION_TYPE_CHOICES"]


def test_autocomplete_25_choices() -> None:
    choices = [{"name": f"c{i}", "value": i} for i in range(25)]
    autocomplete({"choices": choices})
    error = refusal(partial(autocomplete, {"choices": [*choices, choices[0]]}))
    assert codes_at(error, "choices") == ["BASE_TYPE_MAX_LENGTH"]
    error = refusal(partial(autocomplete, {"choices": [{"name": "", "value": 1}]}))
    assert codes_at(error, "choices", 0, "name") == ["BASE_TYPE_BAD_LENGTH"]


def test_submission_mirrors_rows_and_labels() -> None:
    shown = {
        "custom_id": "sit",
        "title": "Sit down",
        "components": [
            {"type": 1, "components": [text_input()]},
            {"type": 18, "id": 7, "label": "Seat", "component": select_menu()},
            {"type": 10, "content": "Buy-in between 40 and 400"},
        ],
    }
    data = modal_submission(shown, {"amount": "120", "seat": ["3"]})
    assert data == {
        "custom_id": "sit",
        "components": [
            {"type": 1, "components": [{"type": 4, "custom_id": "amount", "value": "120"}]},
            {"type": 18, "id": 7, "component": {"type": 3, "custom_id": "seat", "values": ["3"]}},
        ],
    }
    with pytest.raises(ValueError, match="not among the options"):
        modal_submission(shown, {"amount": "120", "seat": ["9"]})
    with pytest.raises(ValueError, match="no input"):
        modal_submission(shown, {"amount": "120", "seat": ["3"], "other": "x"})


def select_menu() -> dict[str, Any]:
    options = [{"label": f"Seat {n}", "value": str(n)} for n in range(1, 5)]
    return {"type": 3, "custom_id": "seat", "options": options}
