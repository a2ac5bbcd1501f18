"""The hands of one table as its messages need them, straight from the service's events.

``HandEnded`` carries a hand's whole public story (number, commitment, game, players,
showdown, last actions), also for a hand resumed after a restart: finished hands wait
(oldest first, capped) until their result is shown, and the start of each hand in play
(number, game) is kept for the deal DMs, which go out before the table view of the new
hand. For the action list by street, a hand seen from its start also keeps its actions
and what the dealer did (time bank, timeouts); a resumed hand falls back to the last
action lines of the service.
"""

from __future__ import annotations

from dealerbot.tables import ActionKind, TableView
from dealerbot.tables import events as ev

from .action_log import Act
from .render import name_text

MAX_PENDING_RESULTS = 10  # results kept for a channel the bot cannot post in
TIMED_OUT = {
    ActionKind.FOLD: "folded",
    ActionKind.CHECK: "checked",
    ActionKind.BRING_IN: "brought in (forced)",
}


class HandResults:
    """Starts of the hands in play; finished hands whose result is not shown yet."""

    def __init__(self, max_pending: int = MAX_PENDING_RESULTS) -> None:
        self.max_pending = max_pending
        self._playing: dict[int, ev.HandStarted] = {}
        self._ended: dict[int, ev.HandEnded] = {}
        self.finished: list[int] = []  # oldest first
        self._acts: dict[int, list[Act]] = {}  # hand id -> its actions (this process saw)
        self.notes: dict[int, list[str]] = {}  # hand id -> what the dealer did, newest last

    def started(self, event: ev.HandStarted) -> None:
        self._playing[event.hand_id] = event
        self._acts[event.hand_id] = []
        self.notes[event.hand_id] = []

    def acted(self, event: ev.ActionTaken) -> None:
        acts = self._acts.get(event.hand_id)
        if acts is not None:  # a hand resumed after a restart has no full log here
            acts.append(Act.of(event))

    def acts(self, hand_id: int | None) -> list[Act] | None:
        """The hand's actions, or None when this process did not see it from the start."""
        return self._acts.get(hand_id) if hand_id is not None else None

    def story_of(self, hand_id: int | None) -> tuple[list[Act] | None, list[str]]:
        """The hand's actions (None: not seen from its start) and the dealer's notes."""
        if hand_id is None:
            return None, []
        return self._acts.get(hand_id), self.notes.get(hand_id, [])

    def story(
        self,
        event: ev.ActionTaken | ev.TimeBankStarted | ev.PlayerTimedOut,
        turn: ev.Turn | None,
        names: dict[int, str],
    ) -> None:
        """An action, or what the dealer did: kept for the table and the result."""
        if isinstance(event, ev.ActionTaken):
            self.acted(event)
        elif isinstance(event, ev.TimeBankStarted):
            self.time_bank(event, turn, names.get(event.user_id, "someone"))
        else:
            self.timed_out(event)

    def note(self, hand_id: int, text: str) -> None:
        self.notes.setdefault(hand_id, []).append(text)

    def time_bank(self, event: ev.TimeBankStarted, turn: ev.Turn | None, name: str) -> None:
        """``dave is using his time bank: 30 s``."""
        text = f"⏳ **{name_text(name)}** is using the time bank"
        if turn is not None and turn.hand_id == event.hand_id and turn.time_bank > 0:
            text += f": {int(turn.time_bank)} s"
        self.note(event.hand_id, text)

    def timed_out(self, event: ev.PlayerTimedOut) -> None:
        """``dave timed out — folded`` (and sat out after repeated timeouts)."""
        done = TIMED_OUT.get(event.kind, event.kind.value.replace("_", " "))
        text = f"⌛ **{name_text(event.name)}** timed out — {done}"
        if event.sat_out:
            text += "; sitting out from the next hand"
        self.note(event.hand_id, text)

    def deal_labels(self, hand_id: int, view: TableView | None) -> tuple[int | None, str | None]:
        """The hand's number and game title for a DM (a resumed hand: from the table view)."""
        start = self._playing.get(hand_id)
        if start is not None:
            return start.number, start.variant.title
        if view is not None and view.hand_id == hand_id:
            return view.hand_number, view.stakes.title
        return None, view.stakes.title if view is not None else None

    def deal_commitment(self, hand_id: int, view: TableView | None) -> str | None:
        """The deck commitment shown when the hand started (a resumed hand: the view's)."""
        start = self._playing.get(hand_id)
        if start is not None:
            return start.commitment
        if view is not None and view.hand_id == hand_id:
            return view.commitment
        return None

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
        self._acts.pop(hand_id, None)
        self.notes.pop(hand_id, None)
