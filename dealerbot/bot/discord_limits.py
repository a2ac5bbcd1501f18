"""Discord's own limits on what the bot sends, in one place (the bot's, not the house's).

From Discord's developer documentation and its OpenAPI spec. A number the table service
decides (chips, seats, seconds) is never here: it comes from ``dealerbot.tables``, and an
option's range is that bound narrowed to what Discord carries (:func:`option_low`,
:func:`option_high`). Discord refuses the whole bulk overwrite of the command list for
one option past its range (400, code 50035): the bot would then have no command at all.
"""

from __future__ import annotations

INTEGER_OPTION_MAX = 2**53 - 1
"""An integer option's ``min_value``/``max_value`` lie within ±(2**53-1) (``Int53Type``)."""
INTEGER_OPTION_MIN = -INTEGER_OPTION_MAX
OPTION_CHOICES = 25  # choices of one option
CUSTOM_ID = 100  # characters of a component's custom_id
BUTTONS_PER_ROW = 5  # buttons in one action row
BUTTON_LABEL = 80  # characters of a button's label
TEXT_INPUT_LABEL = 45  # characters of a modal text input's label
TEXT_INPUT_VALUE = 4000  # characters a modal text input may take
EMBED_TITLE = 256
EMBED_DESCRIPTION = 4096
EMBED_FIELD_VALUE = 1024
EMBED_TOTAL = 6000
"""Characters of an embed in all: title, description, field names and values, footer, author."""
EMBED_TEXT_BUDGET = 4000
"""A long description the bot writes: under EMBED_DESCRIPTION (4096), so the embed's title,
fields and footer stay within the 6,000 characters an embed holds in all."""
MESSAGE_CONTENT = 2000  # characters of a bot's message content
ATTACHMENTS = 10  # files in one message
DEFAULT_UPLOAD_BYTES = 10 * 1024 * 1024  # one attachment, when the interaction does not say


def option_low(low: int) -> int:
    """The ``min_value`` for a bound from ``low``: the bound, or Discord's smallest."""
    return max(low, INTEGER_OPTION_MIN)


def option_high(high: int) -> int:
    """The ``max_value`` for a bound up to ``high``: the bound, or Discord's largest."""
    return min(high, INTEGER_OPTION_MAX)
