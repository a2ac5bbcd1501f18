"""The public story of each hand of a table, folded from service events for its result.

A result message needs the hand's number, commitment, variant, the players' names, the
showdown and the chip changes; they arrive in several events. :class:`HandStories`
keeps them per hand until the result is shown. A hand resumed after a restart had its
``HandStarted`` in the old process: its story is rebuilt from the table view.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from dealerbot.tables import TableView
from dealerbot.tables import events as ev

MAX_PENDING_RESULTS = 10  # results kept for a channel the bot cannot post in


@dataclass(slots=True)
class HandStory:
    """What a finished hand's result message needs, gathered from its public events."""

    hand_id: int
    number: int
    commitment: str
    variant: str
    names: dict[int, str] = field(default_factory=dict)  # seat -> name
    users: dict[int, str] = field(default_factory=dict)  # user id -> name
    showdown: ev.Showdown | None = None
    ended: ev.HandEnded | None = None
    last_actions: tuple[str, ...] = ()

    def name_of_seat(self, seat: int) -> str:
        return self.names.get(seat, f"seat {seat + 1}")


class HandStories:
    """Stories of the hands in play and of finished hands whose result is not shown yet."""

    def __init__(self, max_pending: int = MAX_PENDING_RESULTS) -> None:
        self.stories: dict[int, HandStory] = {}
        self.finished: list[int] = []  # oldest first
        self.max_pending = max_pending

    def get(self, hand_id: int) -> HandStory | None:
        return self.stories.get(hand_id)

    def started(self, event: ev.HandStarted, variant: str) -> None:
        story = HandStory(event.hand_id, event.number, event.commitment, variant)
        for player in event.players:
            story.names[player.seat] = player.name
            story.users[player.user_id] = player.name
        self.stories[event.hand_id] = story

    def showdown(self, event: ev.Showdown) -> None:
        found = self.stories.get(event.hand_id)
        if found is not None:
            found.showdown = event
            found.names.update(dict(event.names))

    def ended(self, event: ev.HandEnded) -> None:
        story = self.stories.get(event.hand_id)
        if story is None:  # a hand resumed after a restart: its start was before
            story = HandStory(event.hand_id, event.number, "", "stud")
            self.stories[event.hand_id] = story
        story.ended = event
        self.finished.append(event.hand_id)
        while len(self.finished) > self.max_pending:  # a channel unusable for long
            self.forget(self.finished[0])

    def seen(self, view: TableView) -> None:
        """A new table view: adopt a resumed hand, fill what its start event would have said."""
        if view.hand_id is not None and view.hand_id not in self.stories:
            story = HandStory(
                view.hand_id, view.hand_number or 0, view.commitment or "", view.stakes.variant
            )
            for seat in view.seats:
                if seat.in_hand:
                    story.names[seat.seat] = seat.name
                    story.users[seat.user_id] = seat.name
            self.stories[view.hand_id] = story
        for story in self.stories.values():
            if story.hand_id == view.hand_id:
                story.variant = view.stakes.variant
                if not story.commitment and view.commitment:
                    story.commitment = view.commitment
                if view.hand_number is not None:
                    story.number = view.hand_number
            elif story.ended is not None and not story.last_actions and view.hand_id is None:
                story.last_actions = view.last_actions

    def forget(self, hand_id: int) -> None:
        """The result is shown (or given up on): drop the story."""
        if hand_id in self.finished:
            self.finished.remove(hand_id)
        self.stories.pop(hand_id, None)
