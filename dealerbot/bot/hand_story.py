"""A table's hands as its messages tell them: kept from the service's events, read by street.

``HandEnded`` carries a hand's whole public story (number, commitment, game, players,
showdown, last actions), also for a hand resumed after a restart: finished hands wait
(oldest first, capped) until their result is shown, and the start of each hand in play
(number, game) is kept for the deal DMs, which go out before the table view of the new
hand. For the action list by street, a hand seen from its start also keeps its actions
(:class:`Act`, from the service's :class:`~dealerbot.tables.events.ActionTaken`, which
carries the street and why the dealer acted for a player) and what the dealer did (time
bank, timeouts); a resumed hand falls back to the last action lines of the service.

The live table shows the current street in full under a separator, earlier streets as
one line each (:func:`live_lines`); the result shows one line per street
(``3rd: dave brings in 2, alice completes to 5, 2 call``, :func:`summary_lines`). No I/O.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from dealerbot.tables import ActionKind, AutoReason, TableView
from dealerbot.tables import events as ev

from .discord_limits import EMBED_FIELD_VALUE
from .markup import name_text

# --- the actions as players read them ----------------------------------------------------

STREET_SHORT = {3: "3rd", 4: "4th", 5: "5th", 6: "6th", 7: "7th"}
STREET_LONG = {3: "3rd street", 4: "4th street", 5: "5th street", 6: "6th street", 7: "7th street"}
AUTO_MARKS = {
    AutoReason.TIMEOUT: "(timed out)",
    AutoReason.LEAVING: "(left)",
    AutoReason.AWAY: "(sitting out)",
}
GROUPED = {ActionKind.CALL: "call", ActionKind.CHECK: "check", ActionKind.FOLD: "fold"}

Name = Callable[[str], str]


@dataclass(frozen=True, slots=True)
class Act:
    """One action as shown: who, what, and the dealer's mark if he acted for the player."""

    street: int
    name: str
    kind: ActionKind
    amount: int
    to: int
    all_in: bool
    auto: AutoReason | None

    @staticmethod
    def of(event: ev.ActionTaken) -> Act:
        return Act(
            event.street,
            event.name,
            event.kind,
            event.amount,
            event.to,
            event.all_in,
            event.auto,
        )


def verb(act: Act) -> str:
    """``calls 5``, ``raises to 20 (all-in)``, ``folds (timed out)``..."""
    kind = act.kind
    if kind is ActionKind.FOLD:
        text = "folds"
    elif kind is ActionKind.CHECK:
        text = "checks"
    elif kind is ActionKind.CALL:
        text = f"calls {act.amount}"
    elif kind is ActionKind.BRING_IN:
        text = f"brings in {act.amount}"
    elif kind is ActionKind.COMPLETE:
        text = f"completes to {act.to}"
    elif kind in (ActionKind.BET, ActionKind.BET_BIG):
        text = f"bets {act.to}"
    else:
        text = f"raises to {act.to}"
    if act.all_in:
        text += " (all-in)"
    mark = AUTO_MARKS.get(act.auto) if act.auto is not None else None
    return f"{text} {mark}" if mark else text


def line(act: Act, name: Name) -> str:
    return f"{name(act.name)} {verb(act)}"


def by_street(acts: Sequence[Act]) -> list[tuple[int, list[Act]]]:
    streets: list[tuple[int, list[Act]]] = []
    for act in acts:
        if not streets or streets[-1][0] != act.street:
            streets.append((act.street, []))
        streets[-1][1].append(act)
    return streets


def street_summary(acts: Sequence[Act], name: Name) -> str:
    """One street in a line: runs of plain calls, checks or folds are counted (``2 call``)."""
    if acts and all(a.kind is ActionKind.CHECK and a.auto is None for a in acts):
        return "checked"
    parts: list[str] = []
    i = 0
    while i < len(acts):
        act = acts[i]
        j = i
        if act.kind in GROUPED and act.auto is None and not act.all_in:
            while (
                j + 1 < len(acts)
                and acts[j + 1].kind is act.kind
                and acts[j + 1].auto is None
                and not acts[j + 1].all_in
                and acts[j + 1].amount == act.amount
            ):
                j += 1
        if j > i:
            parts.append(f"{j - i + 1} {GROUPED[act.kind]}")
        else:
            parts.append(line(act, name))
        i = j + 1
    return ", ".join(parts)


def summary_lines(acts: Sequence[Act], name: Name) -> list[str]:
    """The result's action list: one line per street."""
    return [
        f"{STREET_SHORT.get(street, str(street))}: {street_summary(group, name)}"
        for street, group in by_street(acts)
    ]


def live_lines(acts: Sequence[Act], street: int | None, name: Name) -> list[str]:
    """The live table: earlier streets in a line each, the current street in full."""
    lines: list[str] = []
    for number, group in by_street(acts):
        if number == street:
            continue
        lines.append(f"{STREET_SHORT.get(number, str(number))}: {street_summary(group, name)}")
    if street is not None:
        lines.append(f"── {STREET_LONG.get(street, f'street {street}')} ──")
        current = [a for a in acts if a.street == street]
        lines.extend(line(a, name) for a in current)
    return lines


def fit(lines: Sequence[str], limit: int = EMBED_FIELD_VALUE) -> str:
    """Join lines, dropping the oldest until they fit an embed field."""
    kept = list(lines)
    while kept and len("\n".join(kept)) > limit:
        kept.pop(0)
    text = "\n".join(kept)
    return text[-limit:] if text else ""


# --- what a table keeps of each hand -----------------------------------------------------

MAX_PENDING_RESULTS = 10  # results kept for a channel the bot cannot post in
TIMED_OUT = {
    ActionKind.FOLD: "folded",
    ActionKind.CHECK: "checked",
    ActionKind.BRING_IN: "brought in (forced)",
}


class HandStories:
    """Starts of the hands in play; finished hands whose result is not shown yet."""

    def __init__(self, max_pending: int = MAX_PENDING_RESULTS) -> None:
        self.max_pending = max_pending
        self._playing: dict[int, ev.HandStarted] = {}
        self._ended: dict[int, ev.HandEnded] = {}
        self.finished: list[int] = []  # oldest first
        self._acts: dict[int, list[Act]] = {}  # hand id -> its actions (this process saw)
        # hand id -> what the dealer is doing or just did, newest last, each while it is
        # true (:meth:`acted`): (text, the player it is about, a timeout's note or not)
        self._notes: dict[int, list[tuple[str, int, bool]]] = {}

    def started(self, event: ev.HandStarted) -> None:
        self._playing[event.hand_id] = event
        self._acts[event.hand_id] = []
        self._notes[event.hand_id] = []

    def acted(self, event: ev.ActionTaken) -> None:
        """An action; the dealer's notes that stop being true with it go: a time bank runs
        until its player acts (or times out), a timeout's note stays until the next action
        (not the one the dealer took for him)."""
        acts = self._acts.get(event.hand_id)
        if acts is not None:  # a hand resumed after a restart has no full log here
            acts.append(Act.of(event))
        own_timeout = event.auto is AutoReason.TIMEOUT
        notes = self._notes.get(event.hand_id)
        if notes:
            notes[:] = [
                note for note in notes if note[2] and own_timeout and note[1] == event.user_id
            ]

    @property
    def notes(self) -> dict[int, list[str]]:
        """Hand id -> the dealer's notes true now, newest last."""
        return {hand: [note[0] for note in notes] for hand, notes in self._notes.items()}

    def acts(self, hand_id: int | None) -> list[Act] | None:
        """The hand's actions, or None when this process did not see it from the start."""
        return self._acts.get(hand_id) if hand_id is not None else None

    def story_of(self, hand_id: int | None) -> tuple[list[Act] | None, list[str]]:
        """The hand's actions (None: not seen from its start) and the dealer's notes."""
        if hand_id is None:
            return None, []
        return self._acts.get(hand_id), [note[0] for note in self._notes.get(hand_id, [])]

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

    def note(self, hand_id: int, text: str, user_id: int = 0, *, timeout: bool = False) -> None:
        self._notes.setdefault(hand_id, []).append((text, user_id, timeout))

    def time_bank(self, event: ev.TimeBankStarted, turn: ev.Turn | None, name: str) -> None:
        """``dave is using his time bank: 30 s``."""
        text = f"⏳ **{name_text(name)}** is using the time bank"
        if turn is not None and turn.hand_id == event.hand_id and turn.time_bank > 0:
            text += f": {int(turn.time_bank)} s"
        self.note(event.hand_id, text, event.user_id)

    def timed_out(self, event: ev.PlayerTimedOut) -> None:
        """``dave timed out — folded`` (and sat out after repeated timeouts)."""
        done = TIMED_OUT.get(event.kind, event.kind.value.replace("_", " "))
        text = f"⌛ **{name_text(event.name)}** timed out — {done}"
        if event.sat_out:
            text += "; sitting out from the next hand"
        # The time bank note of the same player stops being true as he times out.
        notes = self._notes.setdefault(event.hand_id, [])
        notes[:] = [note for note in notes if note[1] != event.user_id]
        self.note(event.hand_id, text, event.user_id, timeout=True)

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
        self._notes.pop(hand_id, None)
