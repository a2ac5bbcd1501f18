"""The hands of one table as its messages need them, straight from the service's events.

``HandEnded`` carries a hand's whole public story (number, commitment, game, players,
showdown, last actions), also for a hand resumed after a restart, so nothing is folded
here: finished hands wait (oldest first, capped) until their result is shown, and the
start of each hand in play (number, game) is kept for the deal DMs, which go out before
the table view of the new hand.
"""

from __future__ import annotations

from dealerbot.tables import TableView
from dealerbot.tables import events as ev

MAX_PENDING_RESULTS = 10  # results kept for a channel the bot cannot post in


class HandResults:
    """Starts of the hands in play; finished hands whose result is not shown yet."""

    def __init__(self, max_pending: int = MAX_PENDING_RESULTS) -> None:
        self.max_pending = max_pending
        self._playing: dict[int, ev.HandStarted] = {}
        self._ended: dict[int, ev.HandEnded] = {}
        self.finished: list[int] = []  # oldest first

    def started(self, event: ev.HandStarted) -> None:
        self._playing[event.hand_id] = event

    def deal_labels(self, hand_id: int, view: TableView | None) -> tuple[int | None, str | None]:
        """The hand's number and game title for a DM (a resumed hand: from the table view)."""
        start = self._playing.get(hand_id)
        if start is not None:
            return start.number, start.variant.title
        if view is not None and view.hand_id == hand_id:
            return view.hand_number, view.stakes.title
        return None, view.stakes.title if view is not None else None

    def ended(self, event: ev.HandEnded) -> None:
        self._playing.pop(event.hand_id, None)
        self._ended[event.hand_id] = event
        self.finished.append(event.hand_id)
        while len(self.finished) > self.max_pending:  # a channel unusable for long
            self.forget(self.finished[0])

    def result(self, hand_id: int) -> ev.HandEnded:
        """The end of a hand in :attr:`finished` (KeyError for any other)."""
        return self._ended[hand_id]

    def forget(self, hand_id: int) -> None:
        """The result is shown (or given up on)."""
        if hand_id in self.finished:
            self.finished.remove(hand_id)
        self._ended.pop(hand_id, None)
