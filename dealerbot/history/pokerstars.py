"""PokerStars hand histories (text) read into :class:`~dealerbot.history.model.Hand`.

7 Card Stud, 7 Card Stud Hi/Lo and Razz are read (the games the engine replays); other games
in a file (mixed games) are passed over. The reader is strict about what matters for a
replay (every action, amount and card must make sense, or :class:`ParseError` names the hand
and line) and lenient about what does not (chat, joins and leaves, connection notices,
trailing spaces, CRLF, a BOM). Money becomes whole chips of the smallest unit: cents for
``$`` games, chips otherwise.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from collections.abc import Set as AbstractSet
from dataclasses import dataclass, field, replace
from decimal import Decimal, InvalidOperation
from pathlib import Path

from .model import (
    CARDS_AFTER_STREET,
    DOOR_INDEX,
    MAX_CARDS,
    Action,
    Ante,
    Collection,
    Game,
    Hand,
    HoleCards,
    Move,
    Returned,
    Seat,
    Stakes,
    Street,
)
from .script import to_hand_script

__all__ = [
    "ALL_GAMES",
    "REPLAYABLE_GAMES",
    "REVEALED_NOTE",
    "HistoryFile",
    "ParseError",
    "game_of_header",
    "hand_texts",
    "infer_bring_ins",
    "iter_hands",
    "load_history",
    "parse_hand",
    "parse_history",
    "read_history_text",
    "stud_hand_texts",
    "to_hand_script",
]


REPLAYABLE_GAMES: frozenset[Game] = frozenset({Game.STUD, Game.STUD8, Game.RAZZ})
"""The games read by default: those the engine can replay."""
ALL_GAMES: frozenset[Game] = frozenset(Game)


class ParseError(ValueError):
    """A hand that cannot be read faithfully (damaged or not a stud hand); callers skip it."""

    def __init__(
        self, message: str, hand_id: int | None = None, line_no: int | None = None
    ) -> None:
        where = f"hand #{hand_id}" if hand_id is not None else "hand"
        if line_no is not None:
            where += f", line {line_no}"
        super().__init__(f"{where}: {message}")
        self.hand_id = hand_id
        self.line_no = line_no
        self.reason = message


HEADER_RE = re.compile(r"^PokerStars\b[^#]*?\b(?:Hand|Game) #(?P<id>\d+):\s*(?P<rest>.*)$")
STAKES_RE = re.compile(
    r"[(,]\s*(?P<s1>[$€£]?)(?P<small>\d[\d,]*(?:\.\d+)?)/(?P<s2>[$€£]?)(?P<big>\d[\d,]*(?:\.\d+)?)"
    r"(?:\s+(?P<code>[A-Z]{3}))?\)"
)
TOURNAMENT_RE = re.compile(r"Tournament #(?P<id>\d+)", re.IGNORECASE)
DATE_RE = re.compile(r"\d{4}/\d{1,2}/\d{1,2}\b.*$")
TABLE_RE = re.compile(r"^Table '(?P<name>.*)' (?P<max>\d+)-max\b")
SEAT_RE = re.compile(
    r"^Seat (?P<seat>\d+): (?P<name>.+) \((?P<stack>[$€£]?[\d.,]+) in chips(?:, [^)]*)?\)"
    r"(?P<rest>.*)$"
)
STREET_RE = re.compile(r"^\*\*\* (?P<name>[^*]+?) \*\*\*\s*(?P<rest>.*)$")
MONEY_RE = re.compile(r"(?P<symbol>[$€£]?)(?P<number>\d[\d,]*(?:\.\d+)?)")
CARD_RE = re.compile(r"[2-9TJQKA][cdhs]")
GROUP_RE = re.compile(r"\[([^\]]*)\]")
UNCALLED_RE = re.compile(r"^Uncalled bet \((?P<amount>[^)]+)\) returned to (?P<name>.+)$")
COLLECTED_RE = re.compile(
    r"^(?P<name>.+) collected (?P<amount>\S+) from (?P<pot>pot|main pot|side pot(?:-(?P<k>\d+))?)$"
)
TOTAL_RE = re.compile(r"^Total pot (?P<total>\S+)(?P<pots>.*?)\s*\|\s*Rake (?P<rake>\S+)")
SIDE_POTS_RE = re.compile(
    r"(?P<label>Main pot|Side pot(?:-(?P<k>\d+))?) (?P<amount>\S+?)\.(?=\s|$)"
)
WON_RE = re.compile(r"\b(?:won|collected) \((?P<amount>[^)]+)\)")

STREETS = {
    "3rd STREET": Street.THIRD,
    "4th STREET": Street.FOURTH,
    "5th STREET": Street.FIFTH,
    "6th STREET": Street.SIXTH,
    "7th STREET": Street.SEVENTH,
    "RIVER": Street.SEVENTH,
}
STREET_NAMES = {street: f"{int(street)}{'rd' if street == 3 else 'th'}" for street in Street}
SHOWDOWN, SUMMARY = "SHOW DOWN", "SUMMARY"
CURRENCIES = {"$": "USD", "€": "EUR", "£": "GBP"}
PAIR_ON_BOARD = "Pair on board - a double bet is allowed"
NO_LOW = "No low hand qualified"

WAGER_RES: dict[Move, re.Pattern[str]] = {
    Move.BRING_IN: re.compile(r"^brings in for (?P<amount>\S+)(?P<all_in> and is all-in)?$"),
    Move.BET: re.compile(r"^bets (?P<amount>\S+)(?P<all_in> and is all-in)?$"),
    Move.CALL: re.compile(r"^calls (?P<amount>\S+)(?P<all_in> and is all-in)?$"),
    Move.RAISE: re.compile(r"^raises (?P<by>\S+) to (?P<amount>\S+)(?P<all_in> and is all-in)?$"),
}
ANTE_RE = re.compile(r"^posts the ante (?P<amount>\S+)(?P<all_in> and is all-in)?$")
SHOWS_RE = re.compile(r"^shows \[(?P<cards>[^\]]*)\](?: \((?P<note>.*)\))?$")
REVEALED_NOTE = "revealed by the full export, not shown at the table"
"""What follows the cards of a ``shows`` line that only an operator's full export writes:
cards the table never saw (a folder's, an uncalled winner's). They are the player's cards,
but he did not show them (``Hand.showed``)."""
# "name: ..." lines that are neither actions nor cards.
QUIET_VERBS = re.compile(
    r"^(?:mucks hand|doesn't show hand|sits out|is sitting out|has timed out.*|"
    r"is disconnected|is connected|has returned|leaves the table|will be allowed to play.*)$"
)


def read_history_text(path: str | Path) -> str:
    """A history file's text: UTF-8 with or without BOM (PokerStars' own), else Latin-1."""
    data = Path(path).read_bytes()
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        return data.decode("latin-1")


def _clean_lines(text: str) -> list[str]:
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    return [line.lstrip("\ufeff").rstrip() for line in text.split("\n")]


def hand_texts(text: str) -> Iterator[str]:
    """Every hand in a history text (any game), one block per hand, lines cleaned."""
    block: list[str] = []
    for line in _clean_lines(text):
        if HEADER_RE.match(line):
            if block:
                yield "\n".join(block).strip("\n")
            block = [line]
        elif block:
            block.append(line)
    if block:
        yield "\n".join(block).strip("\n")


# PokerStars' name of each game in the header; "hi/lo" is tested before plain stud.
GAME_NAMES = {
    Game.STUD8: "7 Card Stud Hi/Lo Limit",
    Game.STUD: "7 Card Stud Limit",
    Game.RAZZ: "Razz Limit",
}


def game_of_header(header: str) -> Game | None:
    """The stud game a header line names, or None for any other game."""
    low = header.lower()
    for game, name in GAME_NAMES.items():
        if name.lower() in low:
            return game
    return None


def stud_hand_texts(text: str, games: AbstractSet[Game] = REPLAYABLE_GAMES) -> Iterator[str]:
    """The hands of ``games`` in a history text (stud, stud/8 and razz by default), others left
    out."""
    for block in hand_texts(text):
        if game_of_header(block.split("\n", 1)[0]) in games:
            yield block


def parse_hand(text: str, games: AbstractSet[Game] = REPLAYABLE_GAMES) -> Hand:
    """Read one hand; :class:`ParseError` when it is not a hand of ``games`` or is damaged."""
    return _HandReader(text, games).read()


def iter_hands(text: str, games: AbstractSet[Game] = REPLAYABLE_GAMES) -> Iterator[Hand]:
    """The hands of ``games`` in a history text in order; raises :class:`ParseError` at a
    damaged hand. To skip damaged hands, call :func:`parse_hand` on :func:`stud_hand_texts`
    yourself or use :func:`parse_history`."""
    for block in stud_hand_texts(text, games):
        yield parse_hand(block, games)


@dataclass(frozen=True, slots=True)
class HistoryFile:
    """The readable stud hands of a history and the errors of the hands that were skipped."""

    hands: tuple[Hand, ...]
    damaged: tuple[ParseError, ...] = field(default=())


def parse_history(text: str, games: AbstractSet[Game] = REPLAYABLE_GAMES) -> HistoryFile:
    """Every hand of ``games`` in a text; damaged ones are set aside with their error, and
    missing bring-ins are learned from the other hands at the same stakes
    (:func:`infer_bring_ins`)."""
    hands: list[Hand] = []
    damaged: list[ParseError] = []
    for block in stud_hand_texts(text, games):
        try:
            hands.append(parse_hand(block, games))
        except ParseError as error:
            damaged.append(error)
    return HistoryFile(infer_bring_ins(hands), tuple(damaged))


def load_history(path: str | Path, games: AbstractSet[Game] = REPLAYABLE_GAMES) -> HistoryFile:
    return parse_history(read_history_text(path), games)


def infer_bring_ins(hands: Iterable[Hand]) -> tuple[Hand, ...]:
    """Fill a missing bring-in (the low card completed at once, so the hand never shows it)
    from the other hands at the same stakes, when they agree on one amount."""
    hands = tuple(hands)
    seen: dict[tuple[str | None, int, int, int, int], set[int]] = {}
    for hand in hands:
        if hand.stakes.bring_in is not None:
            seen.setdefault(hand.stakes.key, set()).add(hand.stakes.bring_in)
    filled: list[Hand] = []
    for hand in hands:
        known = seen.get(hand.stakes.key, set())
        if hand.stakes.bring_in is None and len(known) == 1:
            stakes = replace(hand.stakes, bring_in=next(iter(known)))
            filled.append(replace(hand, stakes=stakes))
        else:
            filled.append(hand)
    return tuple(filled)


class _HandReader:
    """One pass over one hand's lines; keeps the running state the checks need."""

    def __init__(self, text: str, games: AbstractSet[Game]) -> None:
        self.lines = _clean_lines(text)
        self.games = games
        self.hand_id: int | None = None
        self.line_no = 0
        self.symbol = ""
        self.per_unit = 1
        # seat lines, by name; dealt-in players are decided on 3rd street
        self.candidates: dict[str, Seat] = {}
        self.names: list[str] = []
        self.antes: list[Ante] = []
        self.actions: list[Action] = []
        self.slots: dict[str, list[str | None]] = {}
        self.dealt: dict[str, int] = {}
        self.dealt_this_street: set[str] = set()
        self.used_cards: dict[str, str] = {}
        self.folded: set[str] = set()
        self.remaining: dict[str, int] = {}
        self.street_total: dict[str, int] = {}
        self.level = 0
        self.street: Street | None = None
        self.section = "header"
        self.community: str | None = None
        self.double_bet = False
        self.no_low = False
        self.hero: str | None = None
        self.returned: list[Returned] = []
        self.collected: list[Collection] = []
        self.showed: list[str] = []
        self.summary_won: dict[str, int] = {}
        self.total_pot: int | None = None
        self.rake = 0
        self.pots: list[int] = []
        self.board: str | None = None
        self.table = ""
        self.max_seats: int | None = None
        self.game = Game.STUD
        self.currency: str | None = None
        self.small_bet = 0
        self.big_bet = 0
        self.tournament_id: int | None = None
        self.started = ""

    # --- errors and small readers -------------------------------------------------------

    def fail(self, message: str) -> ParseError:
        return ParseError(message, self.hand_id, self.line_no or None)

    def chips(self, text: str) -> int:
        """Money text to whole chips of the hand's unit (``$0.04`` -> 4 in a cents hand)."""
        match = MONEY_RE.fullmatch(text)
        if not match:
            raise self.fail(f"{text!r} is not an amount")
        if match["symbol"] != self.symbol:
            raise self.fail(f"amount {text!r} is not in this hand's currency")
        try:
            value = Decimal(match["number"].replace(",", "")) * self.per_unit
        except InvalidOperation:
            raise self.fail(f"{text!r} is not an amount") from None
        if value != value.to_integral_value():
            raise self.fail(f"amount {text!r} is finer than the hand's smallest unit")
        return int(value)

    def cards(self, text: str) -> list[str]:
        cards = text.split()
        for card in cards:
            if not CARD_RE.fullmatch(card):
                raise self.fail(f"{card!r} is not a card")
        return cards

    def player_prefix(self, line: str, separator: str) -> tuple[str, str] | None:
        """(name, rest) when the line starts with a seated player's name and ``separator``."""
        for name in self.names:
            if line.startswith(name + separator):
                return name, line[len(name) + len(separator) :]
        return None

    def known_player(self, name: str) -> str:
        if name not in self.candidates:
            raise self.fail(f"{name!r} has no seat in this hand")
        return name

    # --- the pass ------------------------------------------------------------------------

    def read(self) -> Hand:
        lines = iter(enumerate(self.lines, start=1))
        for self.line_no, line in lines:
            if line:
                self.header(line)
                break
        else:
            raise ParseError("empty hand text")
        for self.line_no, line in lines:
            if line:
                self.dispatch(line)
        self.line_no = 0
        return self.finish()

    def header(self, line: str) -> None:
        match = HEADER_RE.match(line)
        if not match:
            raise self.fail("no PokerStars hand header")
        self.hand_id = int(match["id"])
        rest = match["rest"]
        game = game_of_header(line)
        if game is None or game not in self.games:
            names = [GAME_NAMES[g].removesuffix(" Limit") for g in Game if g in self.games]
            raise self.fail(f"not a {' or '.join(names)} hand")
        self.game = game
        stakes = STAKES_RE.search(rest)
        if not stakes:
            raise self.fail("no stakes in the header")
        if stakes["s1"] != stakes["s2"]:
            raise self.fail("stakes in two currencies")
        self.symbol = stakes["s1"]
        self.per_unit = 100 if self.symbol else 1
        self.currency = stakes["code"] or CURRENCIES.get(self.symbol)
        self.small_bet = self.chips(stakes["s1"] + stakes["small"])
        self.big_bet = self.chips(stakes["s2"] + stakes["big"])
        tournament = TOURNAMENT_RE.search(rest)
        self.tournament_id = int(tournament["id"]) if tournament else None
        date = DATE_RE.search(rest)
        self.started = date.group(0) if date else ""

    def dispatch(self, line: str) -> None:
        street = STREET_RE.match(line)
        if street:
            self.enter(street["name"], street["rest"])
        elif self.section == "header":
            self.pre_deal(line)
        elif self.section == SUMMARY:
            self.summary(line)
        else:
            self.in_play(line)

    def enter(self, name: str, rest: str) -> None:
        if name in STREETS:
            street = STREETS[name]
            if self.section not in ("header", "street") or (
                self.street is not None and street <= self.street
            ):
                raise self.fail(f"*** {name} *** out of order")
            if self.street is None:
                self.start_dealing()
            else:
                self.check_dealt()
            self.street = street
            self.section = "street"
            self.street_total = {}
            self.level = 0
            self.dealt_this_street = set()
            live = [player for player in self.dealt if player not in self.folded]
            if street is Street.SEVENTH:
                groups = GROUP_RE.findall(rest)
                if groups:
                    cards = self.cards(" ".join(groups))
                    if len(cards) != 1:
                        raise self.fail(f"one community card, not {rest!r}")
                    self.claim(cards[0], "community")
                    self.community = cards[0]
                else:
                    for player in live:
                        self.dealt[player] = MAX_CARDS
            elif street is not Street.THIRD:
                for player in live:
                    self.dealt[player] = CARDS_AFTER_STREET[street]
        elif name in (SHOWDOWN, SUMMARY):
            if self.street is None:
                raise self.fail(f"*** {name} *** before any cards")
            if self.section == "street":
                self.check_dealt()
            if name == SUMMARY:
                self.section = SUMMARY
            elif self.section == "street":
                self.section = SHOWDOWN
            else:
                raise self.fail(f"*** {name} *** out of order")
        else:
            raise self.fail(f"*** {name} *** is not a stud street")

    # --- before the deal -------------------------------------------------------------------

    def pre_deal(self, line: str) -> None:
        table = TABLE_RE.match(line)
        if table:
            self.table = table["name"]
            self.max_seats = int(table["max"])
            return
        seat = SEAT_RE.match(line)
        if seat:
            number, name = int(seat["seat"]), seat["name"]
            if name in self.candidates or any(s.number == number for s in self.candidates.values()):
                raise self.fail(f"seat {number} or player {name!r} listed twice")
            sitting_out = "sitting out" in seat["rest"]
            self.candidates[name] = Seat(number, name, self.chips(seat["stack"]), sitting_out)
            self.names = sorted(self.candidates, key=len, reverse=True)
            return
        said = self.player_prefix(line, ": ")
        if said is None:
            return  # table noise
        name, rest = said
        ante = ANTE_RE.match(rest)
        if ante:
            amount = self.chips(ante["amount"])
            if any(a.player == name for a in self.antes):
                raise self.fail(f"{name} posts the ante twice")
            if amount > self.candidates[name].stack:
                raise self.fail(f"{name} posts more than his stack")
            self.antes.append(Ante(name, amount, bool(ante["all_in"])))
        elif not QUIET_VERBS.match(rest):
            raise self.fail(f"unexpected before the deal: {line!r}")

    def start_dealing(self) -> None:
        posted = {ante.player: ante.amount for ante in self.antes}
        for name, seat in self.candidates.items():
            self.remaining[name] = seat.stack - posted.get(name, 0)
            if name in posted:
                self.dealt[name] = CARDS_AFTER_STREET[Street.THIRD]
                self.slots[name] = [None] * MAX_CARDS

    def check_dealt(self) -> None:
        """Every live player must have been shown dealt on 3rd-6th street."""
        if self.street is None or self.street is Street.SEVENTH:
            return
        live = {name for name in self.dealt if name not in self.folded}
        if self.street is Street.THIRD:
            live = set(self.dealt) | self.dealt_this_street
        missing = sorted(live - self.dealt_this_street)
        if missing:
            street = STREET_NAMES[self.street]
            raise self.fail(f"no cards shown dealt to {', '.join(missing)} on {street} street")

    # --- during play -------------------------------------------------------------------------

    def in_play(self, line: str) -> None:
        if line.startswith("Dealt to "):
            self.dealt_line(line[len("Dealt to ") :])
            return
        if line == PAIR_ON_BOARD:
            if self.street is not Street.FOURTH or self.game is not Game.STUD:
                raise self.fail("a double bet is only allowed on 4th street in stud")
            self.double_bet = True
            return
        if line == NO_LOW:
            if self.game is not Game.STUD8:
                raise self.fail("a low hand notice in a high-only game")
            self.no_low = True
            return
        uncalled = UNCALLED_RE.match(line)
        if uncalled:
            name = self.known_player(uncalled["name"])
            amount = self.chips(uncalled["amount"])
            self.returned.append(Returned(name, amount))
            self.remaining[name] += amount
            return
        collected = COLLECTED_RE.match(line)
        if collected and collected["name"] in self.candidates:
            pot = 0 if collected["pot"] in ("pot", "main pot") else int(collected["k"] or 1)
            amount = self.chips(collected["amount"])
            self.collected.append(Collection(collected["name"], amount, pot))
            return
        said = self.player_prefix(line, ": ")
        if said is None:
            return  # dealer notices, chat, joins and leaves
        name, rest = said
        shows = SHOWS_RE.match(rest)
        if shows:
            self.show(name, self.cards(shows["cards"]))
            if shows["note"] != REVEALED_NOTE:
                self.showed.append(name)
        elif self.section == "street":
            self.action(name, rest, line)
        elif not QUIET_VERBS.match(rest):
            raise self.fail(f"unexpected at showdown: {line!r}")

    def dealt_line(self, text: str) -> None:
        found = self.player_prefix(text, " [")
        if found is None:
            raise self.fail(f"cards dealt to an unknown player: {text!r}")
        name = found[0]
        if name not in self.dealt and self.street is Street.THIRD:
            # dealt in without posting an ante (a game without antes)
            self.dealt[name] = CARDS_AFTER_STREET[Street.THIRD]
            self.slots[name] = [None] * MAX_CARDS
        if name not in self.dealt or name in self.folded:
            raise self.fail(f"cards dealt to {name}, who is not in the hand")
        if name in self.dealt_this_street:
            raise self.fail(f"cards dealt twice to {name}")
        rest = text[len(name) + 1 :]
        groups = GROUP_RE.findall(rest)
        if GROUP_RE.sub("", rest).strip():
            raise self.fail(f"unreadable dealt cards {rest!r}")
        groups_cards = [self.cards(group) for group in groups]
        street = self.street
        assert street is not None
        if street is Street.THIRD:
            if len(groups_cards) != 1 or len(groups_cards[0]) not in (1, 3):
                raise self.fail(f"3rd street deals 3 cards, shows the door: {rest!r}")
            first = groups_cards[0]
            start = DOOR_INDEX if len(first) == 1 else 0
            if len(first) == 3:
                self.hero = name
            for index, card in enumerate(first, start=start):
                self.put(name, index, card)
        else:
            if len(groups_cards) != 2 or len(groups_cards[1]) != 1:
                raise self.fail(f"expected [earlier cards] [new card]: {rest!r}")
            earlier, (new,) = groups_cards
            held = int(street) - 1
            if len(earlier) == held:
                start = 0
            elif len(earlier) == held - DOOR_INDEX:
                start = DOOR_INDEX
            else:
                raise self.fail(
                    f"{len(earlier)} earlier cards on {STREET_NAMES[street]} street: {rest!r}"
                )
            for index, card in enumerate(earlier, start=start):
                self.put(name, index, card)
            if self.dealt.get(name, 0) != held + 1:
                raise self.fail(f"{name} gets no card on {STREET_NAMES[street]} street")
            self.put(name, held, new)
        self.dealt_this_street.add(name)

    def put(self, name: str, index: int, card: str) -> None:
        slots = self.slots[name]
        if slots[index] is not None and slots[index] != card:
            raise self.fail(f"{name}'s card {index + 1} is {slots[index]}, not {card}")
        if slots[index] is None:
            self.claim(card, f"{name}:{index}")
            slots[index] = card

    def claim(self, card: str, owner: str) -> None:
        if card in self.used_cards and self.used_cards[card] != owner:
            raise self.fail(f"card {card} appears twice")
        self.used_cards[card] = owner

    def show(self, name: str, cards: list[str]) -> None:
        if name not in self.dealt:
            raise self.fail(f"{name} shows cards but was not dealt in")
        if len(cards) != self.dealt[name]:
            raise self.fail(f"{name} shows {len(cards)} cards but holds {self.dealt[name]}")
        for index, card in enumerate(cards):
            self.put(name, index, card)

    def action(self, name: str, rest: str, line: str) -> None:
        street = self.street
        assert street is not None
        if name not in self.dealt or name in self.folded:
            raise self.fail(f"{name} acts but is not in the hand")
        if rest == "checks":
            self.actions.append(Action(street, name, Move.CHECK, 0, self.street_total.get(name, 0)))
            return
        if rest == "folds" or rest.startswith("folds ["):
            self.folded.add(name)
            self.actions.append(Action(street, name, Move.FOLD, 0, self.street_total.get(name, 0)))
            return
        for move, pattern in WAGER_RES.items():
            match = pattern.match(rest)
            if match:
                self.wager(street, name, move, match)
                return
        if not QUIET_VERBS.match(rest):
            raise self.fail(f"unknown action: {line!r}")

    def wager(self, street: Street, name: str, move: Move, match: re.Match[str]) -> None:
        before = self.street_total.get(name, 0)
        written = self.chips(match["amount"])
        raised_by: int | None = None
        if move is Move.RAISE:
            raised_by = self.chips(match["by"])
            if written - raised_by != self.level:
                raise self.fail(f"raise to {written} by {raised_by} over a bet of {self.level}")
            amount, total = written - before, written
        else:
            amount, total = written, before + written
        if move is Move.BRING_IN and (street is not Street.THIRD or self.level):
            raise self.fail("a bring-in after the first wager")
        if move in (Move.BET, Move.BRING_IN) and self.level and street is not Street.THIRD:
            raise self.fail(f"{name} bets into a bet")
        if move is Move.CALL and total > self.level and not self.short_bring_in(street):
            raise self.fail(f"{name} calls more than the bet")
        if amount <= 0:
            raise self.fail(f"{name} puts in nothing")
        if amount > self.remaining[name]:
            raise self.fail(f"{name} puts in {amount}, more than the {self.remaining[name]} left")
        self.remaining[name] -= amount
        all_in = bool(match["all_in"])
        if all_in and self.remaining[name]:
            raise self.fail(f"{name} is all-in with {self.remaining[name]} left")
        self.street_total[name] = total
        self.level = max(self.level, total)
        self.actions.append(Action(street, name, move, amount, total, all_in, raised_by))

    def short_bring_in(self, street: Street) -> bool:
        """R3.7 (dealerbot): over a bring-in all in for less, players call the full bring-in
        (a call all in for less in between changes nothing) until someone completes."""
        wagers = [action for action in self.actions if action.street is street and action.amount]
        return (
            street is Street.THIRD
            and bool(wagers)
            and (wagers[0].move, wagers[0].all_in) == (Move.BRING_IN, True)
            and all(a.move is Move.CALL for a in wagers[1:])
        )

    # --- summary ------------------------------------------------------------------------------

    def summary(self, line: str) -> None:
        total = TOTAL_RE.match(line)
        if total:
            self.total_pot = self.chips(total["total"])
            self.rake = self.chips(total["rake"])
            self.pots = [self.chips(m["amount"]) for m in SIDE_POTS_RE.finditer(total["pots"])]
            return
        if line.startswith("Board "):
            groups = GROUP_RE.findall(line)
            self.board = " ".join(self.cards(" ".join(groups)))
            return
        if not line.startswith("Seat "):
            return
        number_text, _, rest = line[len("Seat ") :].partition(": ")
        seat = next((s for s in self.candidates.values() if str(s.number) == number_text), None)
        if seat is None or not rest.startswith(seat.name):
            raise self.fail(f"summary line for an unknown seat: {line!r}")
        rest = rest[len(seat.name) :]
        shown = re.search(r"\b(?:showed|mucked) \[(?P<cards>[^\]]*)\]", rest)
        if shown:
            self.show(seat.name, self.cards(shown["cards"]))
        won = WON_RE.search(rest)
        if won:
            self.summary_won[seat.name] = self.chips(won["amount"])

    # --- the result ---------------------------------------------------------------------------

    def finish(self) -> Hand:
        if self.street is None:
            raise self.fail("no cards were dealt")
        if self.total_pot is None:
            raise self.fail("no 'Total pot' line in the summary")
        if self.board is not None and self.board != self.community:
            raise self.fail(f"summary board [{self.board}] is not the community card")
        collected: dict[str, int] = {}
        for collection in self.collected:
            collected[collection.player] = collected.get(collection.player, 0) + collection.amount
        if collected != self.summary_won:
            raise self.fail(f"collected {collected} but the summary says {self.summary_won}")
        seats = tuple(
            sorted(
                (seat for name, seat in self.candidates.items() if name in self.dealt),
                key=lambda seat: seat.number,
            )
        )
        if len(seats) < 2:
            raise self.fail("fewer than two players dealt in")
        full_antes = [ante.amount for ante in self.antes if not ante.all_in]
        antes = full_antes or [ante.amount for ante in self.antes]
        bring_ins = [
            action.amount
            for action in self.actions
            if action.move is Move.BRING_IN and not action.all_in
        ]
        stakes = Stakes(
            small_bet=self.small_bet,
            big_bet=self.big_bet,
            ante=max(antes, default=0),
            bring_in=bring_ins[0] if bring_ins else None,
            currency=self.currency,
            chips_per_unit=self.per_unit,
        )
        hole_cards = tuple(
            HoleCards(seat.name, tuple(self.slots[seat.name][: self.dealt[seat.name]]))
            for seat in seats
        )
        assert self.hand_id is not None
        return Hand(
            hand_id=self.hand_id,
            game=self.game,
            stakes=stakes,
            seats=seats,
            antes=tuple(self.antes),
            actions=tuple(self.actions),
            hole_cards=hole_cards,
            total_pot=self.total_pot,
            rake=self.rake,
            collected=tuple(self.collected),
            returned=tuple(self.returned),
            pots=tuple(self.pots),
            community=self.community,
            double_bet_allowed=self.double_bet,
            no_low_hand=self.no_low,
            hero=self.hero,
            table=self.table,
            max_seats=self.max_seats,
            tournament_id=self.tournament_id,
            started=self.started,
            showed=tuple(self.showed),
        )
