"""Component emoji: a custom emoji by snowflake id, or one Unicode emoji in Discord's set."""

from __future__ import annotations

import pytest

from tests.bot.emulator.validation import validate_message
from tests.bot.emulator.validation_emoji import is_discord_unicode_emoji

from .helpers import MESSAGES, button, codes_at, refusal, row, through_spec

INVALID = ["BUTTON_COMPONENT_INVALID_EMOJI"]


def send(*buttons: dict[str, object]) -> None:
    message({"components": [row(*buttons)]})


def message(body: dict[str, object]) -> None:
    through_spec("POST", MESSAGES, body)
    validate_message(body, partial=False)


@pytest.mark.parametrize(
    "name",
    [
        "🃏",  # U+1F0CF PLAYING CARD BLACK JOKER: an emoji
        "♠",  # text-default symbol that is in the emoji set
        "♠️",  # ... and with the emoji-presentation selector
        "⚜️",
        "👍🏽",  # skin-tone modifier sequence
        "👨‍👩‍👧",  # ZWJ sequence
        "🏳️‍🌈",
        "🇫🇷",  # flag (regional indicator pair)
        "1️⃣",  # keycap sequence
    ],
)
def test_unicode_emoji_in_discords_set_is_accepted(name: str) -> None:
    send(button(emoji={"name": name}))
    assert is_discord_unicode_emoji(name)


@pytest.mark.parametrize(
    "name",
    [
        "🂠",  # U+1F0A0 PLAYING CARD BACK: a symbol, not an emoji (issue 8)
        "🂡",  # U+1F0A1 PLAYING CARD ACE OF SPADES
        "A",
        "1",
        "black_nib",  # a shortcode is not an emoji
        "🃏🃏",  # two emoji
        "",
        "\ufe0f",
    ],
)
def test_symbol_outside_discords_set_is_refused(name: str) -> None:
    error = refusal(lambda: send(button(emoji={"name": name})))
    assert (error.status, error.code, error.message) == (400, 50035, "Invalid Form Body")
    assert codes_at(error, "components", 0, "components", 0, "emoji", "name") == INVALID


def test_issue_8_my_cards_button_is_refused_at_its_path() -> None:
    table_buttons = (
        button("stud:fold"),
        button("stud:cards", label="My cards", emoji={"name": "🂠"}),
    )
    error = refusal(lambda: send(*table_buttons))
    assert codes_at(error, "components", 0, "components", 1, "emoji", "name") == INVALID
    assert error.body()["errors"]["components"]["0"]["components"]["1"]["emoji"]["name"][
        "_errors"
    ] == [{"code": "BUTTON_COMPONENT_INVALID_EMOJI", "message": "Invalid emoji"}]


def test_empty_emoji_object_is_refused() -> None:
    error = refusal(lambda: send(button(emoji={})))  # the spec: an emoji names itself
    assert codes_at(error, "components", 0, "components", 0, "emoji", "name") == [
        "BASE_TYPE_REQUIRED"
    ]


def test_custom_emoji_needs_a_snowflake_id() -> None:
    send(button(emoji={"id": "112233445566778899", "name": "chip", "animated": False}))
    send(button(emoji={"id": 112233445566778899, "name": "chip"}))
    error = refusal(lambda: send(button(emoji={"id": "chip", "name": "chip"})))
    assert codes_at(error, "components", 0, "components", 0, "emoji", "id") == [
        "NUMBER_TYPE_COERCE"
    ]


def test_emoji_must_be_an_object() -> None:
    error = refusal(lambda: send(button(emoji="🃏")))
    assert codes_at(error, "components", 0, "components", 0, "emoji") == ["MODEL_TYPE_CONVERT"]


def test_select_option_emoji_is_checked_with_the_button_code() -> None:
    select = {
        "type": 3,
        "custom_id": "pick",
        "options": [
            {"label": "Stud", "value": "stud", "emoji": {"name": "🃏"}},
            {"label": "Back", "value": "back", "emoji": {"name": "🂠"}},
        ],
    }
    error = refusal(lambda: message({"components": [row(select)]}))
    path = ("components", 0, "components", 0, "options", 1, "emoji", "name")
    assert codes_at(error, *path) == INVALID
    assert codes_at(error, "components", 0, "components", 0, "options", 0) == []


# --- a custom emoji must be one the bot may use (issue 19) --------------------------------

OWNED = "1234567890123456789"  # 19 digits: an emoji the application owns


def owned_only(emoji_id: str) -> bool:
    return emoji_id == OWNED


def send_with(usable: object, *buttons: dict[str, object]) -> None:
    body = {"components": [row(*buttons)]}
    through_spec("POST", MESSAGES, body)
    validate_message(body, partial=False, usable_emoji=owned_only if usable else None)


def test_the_applications_own_emoji_is_accepted_on_a_button() -> None:
    send_with(True, button(emoji={"id": OWNED, "name": "sc_back"}))


def test_a_custom_emoji_the_application_does_not_own_is_refused_at_its_id() -> None:
    other = str(int(OWNED) + 1)
    error = refusal(
        lambda: send_with(True, button(), button("c", emoji={"id": other, "name": "x"}))
    )
    assert (error.status, error.code) == (400, 50035)
    assert codes_at(error, "components", 0, "components", 1, "emoji", "id") == INVALID


def test_a_select_options_custom_emoji_is_checked_too() -> None:
    select = {
        "type": 3,
        "custom_id": "pick",
        "options": [
            {"label": "a", "value": "a", "emoji": {"id": OWNED, "name": "sc_as"}},
            {"label": "b", "value": "b", "emoji": {"id": "42", "name": "sc_ks"}},
        ],
    }
    body = {"components": [{"type": 1, "components": [select]}]}
    error = refusal(lambda: validate_message(body, partial=False, usable_emoji=owned_only))
    assert codes_at(error, "components", 0, "components", 0, "options", 1, "emoji", "id") == INVALID
    assert codes_at(error, "components", 0, "components", 0, "options", 0, "emoji", "id") == []


def test_an_unknown_custom_emoji_in_message_text_is_not_refused() -> None:
    """Discord shows ``<:name:id>`` it does not know as ``:name:`` in text: no refusal."""
    body = {"content": "<:sc_as:42>", "embeds": [{"description": "<:sc_kd:43> <:sc_back:44>"}]}
    validate_message(body, partial=False, usable_emoji=owned_only)
