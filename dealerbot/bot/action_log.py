"""A hand's actions as players read them: by street, with what the dealer did for whom.

Built from the service's :class:`~dealerbot.tables.events.ActionTaken` events (which
carry the street and why the dealer acted for a player). The live table shows the
current street in full under a separator, earlier streets as one line each; the result
shows one line per street (``3rd: dave brings in 2, alice completes to 5, 2 call``).
Pure: no I/O.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from dealerbot.tables import ActionKind, AutoReason
from dealerbot.tables import events as ev

from .discord_limits import EMBED_FIELD_VALUE

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
