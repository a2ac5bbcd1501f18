"""The pure part of the table message: what it shows and which request comes next.

:class:`~.table_messages.TableMessenger` does the network I/O; every decision it makes
(post, edit, re-post, show a result, which buttons) is taken here from plain values, so it
can be tested without Discord or an event loop. Whether a click may act is the table
service's rule (``TableService.click_refusal``), not decided here.
"""

from __future__ import annotations

import enum
import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import discord

from dealerbot.tables import DEFAULT_DECK, TablePhase, TableView
from dealerbot.tables import events as ev

from .buttons import result_buttons, table_buttons
from .hand_story import Act
from .markup import faces_for
from .table_embeds import closed_embed, result_embed, table_embed


@dataclass(slots=True)
class Payload:
    """What a table message shows; ``key`` tells two renders apart without a request."""

    embeds: list[discord.Embed]
    view: discord.ui.View | None
    content: str | None = None
    version: int = -1  # the messenger's state version it was rendered from
    turn: tuple[int, int] | None = None  # (hand, action number) of the turn its buttons act
    _key: str | None = None

    @property
    def key(self) -> str:
        """Computed only when compared (a click answer never needs it)."""
        if self._key is None:
            components = self.view.to_components() if self.view is not None else None
            self._key = json.dumps(
                [self.content, [e.to_dict() for e in self.embeds], components],
                sort_keys=True,
                default=str,
            )
        return self._key

    def send_kwargs(self) -> dict[str, Any]:
        kwargs: dict[str, Any] = {"content": self.content, "embeds": self.embeds}
        if self.view is not None:
            kwargs["view"] = self.view
        return kwargs

    def edit_kwargs(self) -> dict[str, Any]:
        return {"content": self.content, "embeds": self.embeds, "view": self.view}

    def webhook_kwargs(self) -> dict[str, Any]:
        """A follow-up's fields (no null content, no empty view)."""
        kwargs: dict[str, Any] = {"embeds": self.embeds}
        if self.content is not None:
            kwargs["content"] = self.content
        if self.view is not None:
            kwargs["view"] = self.view
        return kwargs


def table_payload(
    view: TableView,
    turn: ev.Turn | None,
    version: int,
    acts: Sequence[Act] | None = None,
    notes: Sequence[str] = (),
    marks: Mapping[int, str] | None = None,
) -> Payload:
    """The table: seats, pot, whose turn, and buttons for exactly that turn's options;
    the cards in the table's deck; ``marks`` after some players' stacks (closed DMs)."""
    shown = buttons_wanted(view, turn)
    buttons = table_buttons(view, shown)
    embed = table_embed(view, shown, acts, notes, faces_for(view.deck), marks)
    turn_shown = (shown.hand_id, shown.seq) if shown is not None else None
    return Payload([embed], buttons, version=version, turn=turn_shown)


def result_payload(
    ended: ev.HandEnded, acts: Sequence[Act] | None = None, view: TableView | None = None
) -> Payload:
    """The hand's result, its cards in the deck of the table ``view`` shows; its buttons
    for the table as it is now (Sit out / in, Rebuy) and the hand (file, proof)."""
    faces = faces_for(view.deck if view is not None else DEFAULT_DECK)
    buttons = result_buttons(view, ended.hand_id, finished=not ended.cancelled)
    return Payload([result_embed(ended, acts, faces)], buttons)


def closed_payload(event: ev.TableClosed, names: Mapping[int, str]) -> Payload:
    return Payload([closed_embed(event, dict(names))], None)


# An interaction's token answers follow-ups and edits for 15 minutes (Discord), outside the
# global limit of 50 requests/s; dealerbot stops using one a minute before it dies.
TOKEN_LIFE = 15 * 60.0
TOKEN_MARGIN = 60.0


@dataclass(frozen=True, slots=True)
class Token:
    """An interaction at a table, answered, whose token may still send requests that do not
    spend the global budget: follow-ups in its channel (new messages, each then editable
    through it) and edits of ``original``, the message its answer is (a click answered in
    place: the message the button is on; None: an ephemeral or new answer)."""

    value: str
    expires: float  # wall-clock second after which it is not used
    original: int | None = None

    @classmethod
    def of(cls, value: str, created_at: float, original: int | None = None) -> Token:
        return cls(value, created_at + TOKEN_LIFE - TOKEN_MARGIN, original)

    def fresh(self, now: float) -> bool:
        return now < self.expires


class Via(enum.Enum):
    """How a table request goes: through an interaction's token (outside the global limit)
    or by REST (on the bot's budget: only when no token is fresh)."""

    REST = "rest"
    ORIGINAL = "original"  # PATCH .../messages/@original: the message the click was on
    FOLLOWUP = "followup"  # POST a follow-up, or PATCH .../messages/{id} of one it posted


def edit_via(
    message_id: int, clicked: Token | None, poster: Token | None, now: float
) -> tuple[Via, Token | None]:
    """The way to edit a table message: the newest click on it answered in place, else the
    token whose follow-up posted it, else REST."""
    if clicked is not None and clicked.original == message_id and clicked.fresh(now):
        return Via.ORIGINAL, clicked
    if poster is not None and poster.fresh(now):
        return Via.FOLLOWUP, poster
    return Via.REST, None


def post_via(latest: Token | None, now: float) -> tuple[Via, Token | None]:
    """The way to post in the table's channel: a follow-up of its newest interaction."""
    if latest is not None and latest.fresh(now):
        return Via.FOLLOWUP, latest
    return Via.REST, None


@dataclass(slots=True)
class Slot:
    """The table's live message: which hand it shows (None: the waiting table)."""

    message_id: int
    hand_id: int | None
    posted_at: float
    key: str | None = None  # what it shows, to skip an edit that changes nothing
    version: int = -1  # the messenger's state version it shows (skip re-rendering when equal)
    poster: Token | None = None  # the token it was posted through (a follow-up), if any
    answered: Payload | None = None  # a click answer it shows, keyed only if compared

    def shows(self, key: str | None, version: int) -> None:
        """Record what the message now shows."""
        self.key = key
        self.version = version
        self.answered = None

    def answer_shown(self, payload: Payload) -> None:
        """A click answer is what it shows: its key is worked out only if an edit is
        weighed (a click need not pay for it)."""
        self.key = None
        self.version = payload.version
        self.answered = payload

    def shown_key(self) -> str | None:
        if self.key is None and self.answered is not None:
            self.key = self.answered.key
            self.answered = None
        return self.key

    def too_old(self, now: float, max_age: float) -> bool:
        """Discord limits edits of old messages: past ``max_age`` the table is re-posted."""
        return now - self.posted_at > max_age


class MessageStep(enum.Enum):
    """The next request that brings the channel in line with the messenger's memory."""

    NOTHING = "nothing"
    NOTICE = "notice"  # a short channel message (e.g. blocked DMs)
    PING_EDIT = "ping edit"  # the dealer's-choice ping becomes "bob chose Stud Hi/Lo"
    RESULT = "result"  # the oldest finished hand's result
    CLOSED = "closed"  # the table-closed notice
    POST = "post"  # a new table message
    REPOST = "repost"  # a new table message, the old one loses its buttons
    EDIT = "edit"  # the live message is edited


@dataclass(frozen=True, slots=True)
class Pending:
    """What is waiting to be shown besides the live table."""

    notices: int = 0
    finished: int = 0  # hands whose result is not shown yet
    closed: bool = False
    ping_edit: bool = False  # the dealer's-choice ping is to say what was picked


def needs_work(pending: Pending, slot: Slot | None, version: int) -> bool:
    """After a click answer: whether the worker still has something to bring in line."""
    queued = pending.notices or pending.finished or pending.closed or pending.ping_edit
    return bool(queued or slot is None or slot.version != version)


def next_step(
    pending: Pending,
    view: TableView | None,
    slot: Slot | None,
    *,
    version: int,
    now: float,
    max_age: float,
    rendered_key: Callable[[], str],
) -> MessageStep:
    """Decide the next request; ``rendered_key`` renders the table only when it matters."""
    if pending.notices:
        return MessageStep.NOTICE
    if pending.ping_edit:
        return MessageStep.PING_EDIT
    if pending.finished:
        return MessageStep.RESULT
    if pending.closed:
        return MessageStep.CLOSED
    if view is None or view.status is TablePhase.CLOSED:
        return MessageStep.NOTHING
    hand_id = view.hand_id
    if slot is None:
        # A waiting table gets a message only when no hand is about to be dealt:
        # otherwise the hand's own message follows within seconds. A dealer's choice
        # waiting for the button player needs one (its buttons).
        choosing = view.games is not None and view.games.choice is not None
        if hand_id is not None or (view.seats and (view.next_hand_at is None or choosing)):
            return MessageStep.POST
        return MessageStep.NOTHING
    old = slot.too_old(now, max_age)
    if slot.hand_id == hand_id and slot.version == version and not old:
        return MessageStep.NOTHING  # already shows this state (a click answer rendered it)
    if hand_id is not None and slot.hand_id is not None and slot.hand_id != hand_id:
        return MessageStep.REPOST
    if old:
        return MessageStep.REPOST
    if slot.hand_id != hand_id or slot.shown_key() != rendered_key():
        return MessageStep.EDIT
    return MessageStep.NOTHING


class ClickShows(enum.Enum):
    """What the answer to a click on the live message puts in that message."""

    NOTHING = "nothing"  # defer: the worker edits (or the clicked message is not live)
    RESULT = "result"  # the hand it showed is over: its result
    TABLE = "table"  # the table as it is now


def click_shows(
    slot: Slot | None,
    message_id: int,
    finished: Sequence[int],
    view: TableView | None,
    *,
    now: float,
    max_age: float,
) -> ClickShows:
    """The clicked message becomes the result (oldest first) or the live table, or neither."""
    if slot is None or slot.message_id != message_id:
        return ClickShows.NOTHING
    if slot.hand_id is not None and slot.hand_id in finished:
        return ClickShows.RESULT if finished[0] == slot.hand_id else ClickShows.NOTHING
    if view is None or view.hand_id != slot.hand_id or slot.too_old(now, max_age):
        return ClickShows.NOTHING
    return ClickShows.TABLE


def buttons_wanted(view: TableView, turn: ev.Turn | None) -> ev.Turn | None:
    """The turn whose options belong on the table message now, if it matches the view."""
    if turn is None or view.hand_id is None or view.to_act_user is None:
        return None
    if turn.hand_id != view.hand_id or turn.seq != view.seq or turn.user_id != view.to_act_user:
        return None
    return turn
