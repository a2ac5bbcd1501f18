"""How a PokerStars tracker reads a stud hand history, as far as our files depend on it.

Written from reading FPDB's PokerStars importer (``PokerStarsToFpdb.py`` and the stud hand in
``Hand.py``, fpdb-3), not copied from it; these are the rules it applies that decide what a
tracker stores from one of our files:

- the start time is the last ``YYYY/MM/DD H:MM:SS`` in the header, taken as US Eastern time
  (the ``[... ET]`` bracket when the line has one, else the only time, whatever zone it names);
- fixed-limit cash stakes are looked up by the big bet in the importer's table of PokerStars
  stakes (``Lim_Blinds``); a big bet it does not list drops the hand;
- on 3rd street a ``Dealt to X [a b c]`` line (three cards) makes X the hero, two down cards
  and the door; ``Dealt to X [c]`` is an up card; on later streets ``Dealt to X [old] [new]``
  records ``new`` as dealt up and ``old`` as the cards already held;
- a ``shows``/``mucks``/``showed``/``mucked [cards]`` line for anyone but the hero replaces
  that player's cards when it holds seven cards, and is passed over otherwise;
- a player's hand is the 3rd-street cards, the up cards of 4th to 6th street and, on the
  river, the hero's dealt card or the cards a non-hero's river line held before it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import UTC, datetime
from zoneinfo import ZoneInfo

EASTERN = ZoneInfo("America/New_York")
TRACKER_TIME = re.compile(r"(\d{4})/(\d{2})/(\d{2})[- ]+(\d+):(\d+):(\d+)")
STREET = re.compile(r"^\*\*\* (3rd STREET|4th STREET|5th STREET|6th STREET|RIVER) \*\*\*")
STREETS = ("3rd STREET", "4th STREET", "5th STREET", "6th STREET", "RIVER")
DEALT = re.compile(r"^Dealt to (?P<name>.+?)(?: \[(?P<old>[^\]]+)\])? \[(?P<new>[^\]]+)\]$")
SHOWN = re.compile(r"^(?P<name>.+?): (?:shows|mucks|mucked|showed) \[(?P<cards>.*)\]")
SUMMARY_SHOWN = re.compile(r"^Seat \d+: (?P<name>.+?) (?:showed|mucked) \[(?P<cards>[^\]]*)\]")
STAKES = re.compile(r"\((?:[$€£]?)(?P<small>[\d.]+)/(?:[$€£]?)(?P<big>[\d.]+)(?: [A-Z]{3})?\)")


def tracker_start(header: str) -> datetime:
    """The hand's start in UTC as the tracker stores it."""
    found = TRACKER_TIME.findall(header)
    assert found, f"no time a tracker reads in {header!r}"
    year, month, day, hour, minute, second = (int(part) for part in found[-1])
    local = datetime(year, month, day, hour, minute, second, tzinfo=EASTERN)
    return local.astimezone(UTC)


def tracker_big_bet(header: str) -> str:
    """The text the tracker looks its stakes table up by (the big bet as written)."""
    stakes = STAKES.search(header)
    assert stakes, header
    return stakes["big"]


@dataclass
class TrackerHand:
    """What the tracker keeps of one stud hand: the hero and each player's cards by street
    as (up, held before) pairs, and the cards a player's hand is stored with."""

    hero: str | None = None
    streets: dict[str, dict[str, tuple[list[str], list[str]]]] = field(default_factory=dict)

    def cards(self, name: str) -> list[str]:
        cards: list[str] = []
        for street in STREETS:
            seen = self.streets.get(street, {}).get(name)
            if seen is None:
                continue
            up, held = seen
            if street == "3rd STREET":
                cards += held + up
            elif street == "RIVER":
                cards += up if name == self.hero else held
            else:
                cards += up
        return cards


def tracker_read(text: str) -> TrackerHand:
    """One hand's text as the tracker reads its cards."""
    hand = TrackerHand()
    street: str | None = None
    shown: list[tuple[str, list[str]]] = []
    for line in text.splitlines():
        heading = STREET.match(line)
        if heading:
            street = heading[1]
            hand.streets.setdefault(street, {})
            continue
        if line.startswith("*** "):
            street = None
        dealt = DEALT.match(line)
        if dealt and street is not None:
            name, new = dealt["name"], dealt["new"].split()
            old = dealt["old"].split() if dealt["old"] else []
            if street == "3rd STREET" and len(new) == 3:
                hand.hero = name
                hand.streets[street][name] = (new[2:], new[:2])
            else:
                hand.streets[street][name] = (new, old)
            continue
        for pattern in (SHOWN, SUMMARY_SHOWN):
            match = pattern.match(line)
            if match:
                shown.append((match["name"], match["cards"].split()))
    for name, cards in shown:
        if name != hand.hero and len(cards) == 7:
            for index, street in enumerate(STREETS[:4]):
                held = cards[:2] if index == 0 else cards[2 : index + 2]
                hand.streets.setdefault(street, {})[name] = ([cards[index + 2]], held)
            hand.streets.setdefault("RIVER", {})[name] = ([], [cards[6]])
    return hand
