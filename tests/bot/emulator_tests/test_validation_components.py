"""Rows, buttons and selects: every documented limit, at the limit and one past it."""

from __future__ import annotations

from functools import partial
from typing import Any

import pytest

from tests.bot.emulator.validation import validate_message

from .helpers import MESSAGES, all_codes, button, codes_at, refusal, row, through_spec

B0 = ("components", 0, "components", 0)


def send(*rows: dict[str, Any], flags: int = 0) -> None:
    body = {"components": list(rows), "flags": flags}
    through_spec("POST", MESSAGES, body)
    validate_message(body, partial=False)


def select(**extra: Any) -> dict[str, Any]:
    options = [{"label": f"o{i}", "value": f"v{i}"} for i in range(3)]
    return {"type": 3, "custom_id": "pick", "options": options, **extra}


def test_five_rows_of_five_buttons_pass_six_rows_do_not() -> None:
    rows = [row(*(button(f"b{r}{c}") for c in range(5))) for r in range(5)]
    send(*rows)
    error = refusal(lambda: send(*rows, row(button("extra"))))
    assert codes_at(error, "components") == ["BASE_TYPE_MAX_LENGTH"]


def test_six_buttons_in_a_row_and_an_empty_row_are_refused() -> None:
    error = refusal(lambda: send(row(*(button(f"b{c}") for c in range(6)))))
    assert codes_at(error, "components", 0, "components") == ["BASE_TYPE_BAD_LENGTH"]
    error = refusal(lambda: send(row()))
    assert codes_at(error, "components", 0, "components") == ["BASE_TYPE_BAD_LENGTH"]


def test_top_level_must_be_action_rows_without_components_v2() -> None:
    error = refusal(lambda: send(button("loose")))
    assert codes_at(error, "components", 0, "type") == ["UNION_TYPE_CHOICES"]


def test_a_select_takes_a_whole_row() -> None:
    send(row(select()))
    error = refusal(lambda: send(row(select(), button("b"))))
    assert codes_at(error, "components", 0, "components") == ["COMPONENT_LAYOUT_WIDTH_EXCEEDED"]


def test_button_label_80() -> None:
    send(row(button(label="x" * 80)))
    error = refusal(lambda: send(row(button(label="x" * 81))))
    assert codes_at(error, *B0, "label") == ["BASE_TYPE_MAX_LENGTH"]


def test_custom_id_1_to_100_and_unique() -> None:
    send(row(button("x" * 100)))
    for bad in ("", "x" * 101):
        error = refusal(partial(send, row(button(bad))))
        assert codes_at(error, *B0, "custom_id") == ["BASE_TYPE_BAD_LENGTH"]
    error = refusal(lambda: send(row(button("same")), row(button("same"))))
    assert codes_at(error, "components", 1, "components", 0, "custom_id") == [
        "COMPONENT_CUSTOM_ID_DUPLICATED"
    ]


def test_non_link_button_needs_custom_id_and_no_url() -> None:
    error = refusal(lambda: send(row({"type": 2, "style": 1, "label": "Go"})))
    assert codes_at(error, *B0, "custom_id") == ["BASE_TYPE_REQUIRED"]
    error = refusal(lambda: send(row(button(url="https://example.com"))))
    assert codes_at(error, *B0, "url") != []


def test_link_button_needs_url_and_no_custom_id() -> None:
    link = {"type": 2, "style": 5, "label": "Rules", "url": "https://example.com/rules"}
    send(row(link))
    error = refusal(lambda: send(row({**link, "url": None})))
    assert codes_at(error, *B0, "url") == ["BASE_TYPE_REQUIRED"]
    error = refusal(lambda: send(row({**link, "custom_id": "rules"})))
    assert codes_at(error, *B0, "custom_id") != []
    error = refusal(lambda: send(row({**link, "url": "ftp://example.com"})))
    assert codes_at(error, *B0, "url") == ["URL_TYPE_INVALID_SCHEME"]


@pytest.mark.parametrize("style", [0, 7, "1", None, True])
def test_button_style_must_be_1_to_6(style: object) -> None:
    error = refusal(lambda: send(row(button(style=style))))
    assert codes_at(error, *B0, "style") == ["BASE_TYPE_CHOICES"]


def test_button_needs_a_label_or_an_emoji() -> None:
    send(row({"type": 2, "style": 2, "custom_id": "e", "emoji": {"name": "🃏"}}))
    error = refusal(lambda: send(row({"type": 2, "style": 2, "custom_id": "e"})))
    assert all_codes(error) != []


def test_premium_button_needs_sku_and_nothing_else() -> None:
    send(row({"type": 2, "style": 6, "sku_id": "123456789012345678"}))
    error = refusal(lambda: send(row({"type": 2, "style": 6, "custom_id": "p"})))
    assert codes_at(error, *B0, "sku_id") == ["BASE_TYPE_REQUIRED"]


def test_select_options_1_to_25() -> None:
    many = [{"label": f"o{i}", "value": f"v{i}"} for i in range(25)]
    send(row(select(options=many)))
    for bad in ([], [*many, {"label": "x", "value": "x"}]):
        error = refusal(partial(send, row(select(options=bad))))
        assert codes_at(error, *B0, "options") == ["BASE_TYPE_BAD_LENGTH"]


def test_select_option_label_value_description_limits() -> None:
    ok = {"label": "l" * 100, "value": "v" * 100, "description": "d" * 100}
    send(row(select(options=[ok])))
    for key in ("label", "value"):
        bad = {**ok, key: "x" * 101}
        error = refusal(partial(send, row(select(options=[bad]))))
        assert codes_at(error, *B0, "options", 0, key) == ["BASE_TYPE_BAD_LENGTH"]
        missing = {k: v for k, v in ok.items() if k != key}
        error = refusal(partial(send, row(select(options=[missing]))))
        assert codes_at(error, *B0, "options", 0, key) == ["BASE_TYPE_REQUIRED"]
    error = refusal(lambda: send(row(select(options=[{**ok, "description": "d" * 101}]))))
    assert codes_at(error, *B0, "options", 0, "description") == ["BASE_TYPE_MAX_LENGTH"]


def test_select_option_values_are_unique() -> None:
    options = [{"label": "a", "value": "same"}, {"label": "b", "value": "same"}]
    error = refusal(lambda: send(row(select(options=options))))
    assert codes_at(error, *B0, "options", 1) == ["SELECT_COMPONENT_OPTION_VALUE_DUPLICATED"]


def test_select_min_max_values() -> None:
    send(row(select(min_values=0, max_values=3)))
    error = refusal(lambda: send(row(select(min_values=-1))))
    assert codes_at(error, *B0, "min_values") == ["NUMBER_TYPE_MIN"]
    error = refusal(lambda: send(row(select(max_values=0))))
    assert codes_at(error, *B0, "max_values") == ["NUMBER_TYPE_MIN"]
    many = [{"label": f"o{i}", "value": f"v{i}"} for i in range(25)]
    send(row(select(options=many, max_values=25)))
    error = refusal(lambda: send(row(select(options=many, max_values=26))))
    assert codes_at(error, *B0, "max_values") == ["NUMBER_TYPE_MAX"]
    error = refusal(lambda: send(row(select(max_values=4))))  # only 3 options
    assert codes_at(error, *B0, "max_values") != []
    error = refusal(lambda: send(row(select(min_values=3, max_values=2))))
    assert codes_at(error, *B0, "min_values") != []


def test_select_placeholder_150() -> None:
    send(row(select(placeholder="p" * 150)))
    error = refusal(lambda: send(row(select(placeholder="p" * 151))))
    assert codes_at(error, *B0, "placeholder") == ["BASE_TYPE_MAX_LENGTH"]


def test_entity_selects_need_no_options() -> None:
    send(row({"type": 5, "custom_id": "who", "max_values": 25}))


def test_text_input_does_not_belong_in_a_message() -> None:
    text_input = {"type": 4, "custom_id": "amount", "style": 1, "label": "Amount"}
    error = refusal(lambda: send(row(text_input)))
    assert codes_at(error, *B0, "type") != []


def test_components_v2_containers_are_walked_for_custom_ids() -> None:
    container = {"type": 17, "components": [row(button("dup")), row(button("dup"))]}
    error = refusal(lambda: send(container, flags=1 << 15))
    assert "COMPONENT_CUSTOM_ID_DUPLICATED" in all_codes(error)


# ----- components v2 (flags 1<<15): the docs' rules the spec does not carry --------------

V2 = 1 << 15


def text(content: str) -> dict[str, Any]:
    return {"type": 10, "content": content}


def test_components_v2_has_no_content_or_embeds() -> None:
    send(text("hand 12"), flags=V2)
    for key, value in (("content", "hi"), ("embeds", [{"title": "t"}])):
        body = {"components": [text("hand 12")], "flags": V2, key: value}
        through_spec("POST", MESSAGES, body)
        error = refusal(partial(validate_message, body, partial=False))
        assert codes_at(error, key) != []


def test_components_v2_at_most_40_components_nested_ones_count() -> None:
    # A container of 13 rows of 2 buttons = 1 + 13 + 26 = 40 components.
    rows = [row(button(f"a{i}"), button(f"b{i}")) for i in range(13)]
    send({"type": 17, "components": rows}, flags=V2)
    error = refusal(lambda: send({"type": 17, "components": rows}, text("one more"), flags=V2))
    assert codes_at(error, "components") == ["BASE_TYPE_MAX_LENGTH"]


def test_components_v2_at_most_4000_characters_of_text() -> None:
    send(text("x" * 2000), text("y" * 2000), flags=V2)
    error = refusal(lambda: send(text("x" * 2000), text("y" * 2001), flags=V2))
    assert codes_at(error, "components") != []
