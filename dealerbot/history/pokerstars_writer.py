"""A :class:`~dealerbot.history.model.Hand` written as PokerStars hand-history text.

The text follows the site's own files (shared/data/handhistories) line for line, so the
trackers and replayers that read PokerStars stud histories read ours, and our reader
(:mod:`dealerbot.history.pokerstars`) gives back the same model. What the model does not
hold (chat, hand descriptions the reader ignores, where a notice appeared) is left out.

The text shows exactly the cards the model holds: the hero's down cards in the ``Dealt to``
lines, other players' down cards only where the model knows them (shown or mucked at the
showdown). Unknown cards are omitted, as PokerStars omits them.

``full=True`` (operator audits) writes every known down card in a form trackers read: the
``Dealt to`` lines stay one player's view (the hero's, or nobody's: PokerStars gives down
cards to the hero alone, and a tracker takes whoever has them as the hero), a player who
mucked at the showdown has his cards in the summary as the site writes them, and every
other hand the table never saw comes last in the play as a ``shows`` line noted
:data:`~dealerbot.history.pokerstars.REVEALED_NOTE` (what our reader keeps apart from a
hand that was shown).
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import UTC, datetime
from zoneinfo import ZoneInfo

from .describe import describe
from .model import Action, Game, Hand, HoleCards, Move, Stakes, Street
from .pokerstars import REVEALED_NOTE

__all__ = ["GAME_TITLES", "format_money", "pokerstars_time", "write_hand", "write_hands"]

GAME_TITLES = {
    Game.STUD: "7 Card Stud Limit",
    Game.STUD8: "7 Card Stud Hi/Lo Limit",
    Game.RAZZ: "Razz Limit",
}
SYMBOLS = {"USD": "$", "EUR": "€", "GBP": "£"}
# PokerStars' ET: New York's clock, EST or EDT (the tz database: the system's or ``tzdata``).
EASTERN = ZoneInfo("America/New_York")
DOWN_CARDS = 2
DOOR_CARDS = 3  # cards held after 3rd street
RIVER_CARDS = 7
STREET_TITLES = {
    Street.THIRD: "3rd STREET",
    Street.FOURTH: "4th STREET",
    Street.FIFTH: "5th STREET",
    Street.SIXTH: "6th STREET",
    Street.SEVENTH: "RIVER",
}
SUMMARY_STREETS = {
    Street.THIRD: "3rd Street",
    Street.FOURTH: "4th Street",
    Street.FIFTH: "5th Street",
    Street.SIXTH: "6th Street",
    Street.SEVENTH: "River",
}
HAND_SEPARATOR = "\n\n\n\n"  # PokerStars leaves three blank lines between hands


def format_money(chips: int, stakes: Stakes) -> str:
    """Chips as the site writes money: ``$0.04``, ``$60`` (whole units lose the cents),
    ``1500`` for play or tournament chips."""
    if stakes.currency is None:
        if stakes.chips_per_unit != 1:
            raise ValueError("chips without a currency must be whole units")
        return str(chips)
    symbol = SYMBOLS.get(stakes.currency)
    if symbol is None or stakes.chips_per_unit != 100:
        unit = f"1/{stakes.chips_per_unit}"
        raise ValueError(f"no PokerStars notation for {stakes.currency} in {unit}")
    units, cents = divmod(chips, 100)
    return f"{symbol}{units}" if cents == 0 else f"{symbol}{units}.{cents:02d}"


def pokerstars_time(when: datetime) -> str:
    """A start time as the site writes it: the player's zone (ours is UTC), then the same
    moment in US Eastern time in brackets, ``2026/11/30 14:13:20 UTC [2026/11/30 9:13:20 ET]``.
    Trackers store the bracketed time (a line without one they take as Eastern time, which
    put our hands 4-5 hours late). Standard and daylight time are both written ``ET``; the
    hour has no leading zero."""
    return f"{_clock(when.astimezone(UTC))} UTC [{_clock(when.astimezone(EASTERN))} ET]"


def _clock(when: datetime) -> str:
    return f"{when:%Y/%m/%d} {when.hour}:{when:%M:%S}"


def write_hands(hands: Iterable[Hand], *, full: bool = False) -> str:
    """Several hands as one history file's text (LF line ends, a final newline)."""
    return HAND_SEPARATOR.join(write_hand(hand, full=full).rstrip("\n") for hand in hands) + "\n"


def write_hand(hand: Hand, *, full: bool = False) -> str:
    """One hand as PokerStars text; ``full`` shows every known down card as dealt."""
    return "\n".join(_Writer(hand, full).lines()) + "\n"


class _Writer:
    def __init__(self, hand: Hand, full: bool) -> None:
        self.hand = hand
        self.full = full
        self.out: list[str] = []
        for text in (hand.table, hand.started, *(seat.name for seat in hand.seats)):
            if any(char in text for char in "\r\n\x85\u2028\u2029"):
                raise ValueError(f"hand #{hand.hand_id}: a line break in {text!r}")
        self.folded_on: dict[str, Street] = {}
        for action in hand.actions:
            if action.move is Move.FOLD:
                self.folded_on[action.player] = action.street

    def money(self, chips: int) -> str:
        return format_money(chips, self.hand.stakes)

    def lines(self) -> list[str]:
        self.header()
        for street in self.streets():
            self.street(street)
        self.end_of_play()
        self.summary()
        return self.out

    # --- before the deal ---------------------------------------------------------------------

    def header(self) -> None:
        hand, stakes = self.hand, self.hand.stakes
        limits = f"{self.money(stakes.small_bet)}/{self.money(stakes.big_bet)}"
        if stakes.currency is not None:
            limits += f" {stakes.currency}"
        game = f"{GAME_TITLES[hand.game]} ({limits})"
        if hand.tournament_id is not None and hand.tournament_level:
            line = f"PokerStars Hand #{hand.hand_id}: {self.tournament_title()}"
        else:
            if hand.tournament_id is not None:
                game = f"Tournament #{hand.tournament_id}, {game}"
            line = f"PokerStars Hand #{hand.hand_id}:  {game}"
        if hand.started:
            line += f" - {hand.started}"
        self.out.append(line)
        table = f"Table '{hand.table}'"
        if hand.max_seats is not None:
            table += f" {hand.max_seats}-max"
        self.out.append(table)
        for seat in hand.seats:
            line = f"Seat {seat.number}: {seat.name} ({self.money(seat.stack)} in chips)"
            self.out.append(line + (" is sitting out" if seat.sitting_out else ""))
        for ante in hand.antes:
            line = f"{ante.player}: posts the ante {self.money(ante.amount)}"
            self.out.append(line + (" and is all-in" if ante.all_in else ""))

    def tournament_title(self) -> str:
        """A tournament hand's first line up to its time, as the site writes one:
        ``Tournament #3540610518, $0.98+$0.12 USD HORSE (7 Card Stud Hi/Lo Limit) - Level V
        (200/400)``; play chips have no currency (``100+9 8-Game (Razz Limit)``), one game
        no mix name (``$10+$1 7 CARD STUD HI/LO LIMIT - LEVEL I (25/50)``, the 2009 form)."""
        hand = self.hand
        title = GAME_TITLES[hand.game]
        if hand.tournament_mix:
            title = f"{hand.tournament_mix} ({title})"
        buy_in = f"{hand.tournament_buy_in} " if hand.tournament_buy_in else ""
        return f"Tournament #{hand.tournament_id}, {buy_in}{title} - {hand.tournament_level}"

    # --- the streets ---------------------------------------------------------------------------

    def streets(self) -> list[Street]:
        """Every street on which cards were dealt: as far as the longest hand, or the river
        when a community card was dealt."""
        held = max((len(hole.cards) for hole in self.hand.hole_cards), default=DOOR_CARDS)
        last = RIVER_CARDS if self.hand.community is not None else held
        return [street for street in Street if street <= last]

    def live_on(self, street: Street) -> list[HoleCards]:
        """Players still in when the street's cards are dealt, in seat order."""
        return [
            hole
            for hole in self.hand.hole_cards
            if hole.player not in self.folded_on or self.folded_on[hole.player] >= street
        ]

    def shows_down_cards(self, hole: HoleCards) -> bool:
        """Down cards are dealt to the hero alone (a full file reveals the others' later)."""
        return hole.player == self.hand.hero and None not in hole.cards[:DOWN_CARDS]

    def street(self, street: Street) -> None:
        title = f"*** {STREET_TITLES[street]} ***"
        community = self.hand.community
        if street is Street.SEVENTH and community is not None:
            title += f" [{community}]"
        self.out.append(title)
        for hole in self.live_on(street):
            line = self.dealt_line(hole, street)
            if line is not None:
                self.out.append(line)
        if street is Street.FOURTH and self.hand.double_bet_allowed:
            self.out.append("Pair on board - a double bet is allowed")
        level = 0
        for action in self.hand.actions_on(street):
            self.out.append(f"{action.player}: {self.action_text(action, level)}")
            level = max(level, action.total)

    def dealt_line(self, hole: HoleCards, street: Street) -> str | None:
        held = int(street)
        if street is Street.SEVENTH:
            held = DOOR_CARDS + 3
        cards = hole.cards
        seen_down = self.shows_down_cards(hole)
        if street is Street.SEVENTH:
            if self.hand.community is not None or not seen_down or len(cards) < RIVER_CARDS:
                return None  # the river is dealt down: only its owner sees it
            return f"Dealt to {hole.player} [{_cards(cards[:held])}] [{_cards(cards[held:])}]"
        if len(cards) < held:
            raise ValueError(f"hand #{self.hand.hand_id}: {hole.player} lacks a card on {street}")
        if street is Street.THIRD:
            shown = cards[:DOOR_CARDS] if seen_down else cards[DOWN_CARDS:DOOR_CARDS]
            return f"Dealt to {hole.player} [{_cards(shown)}]"
        earlier = cards[: held - 1] if seen_down else cards[DOWN_CARDS : held - 1]
        return f"Dealt to {hole.player} [{_cards(earlier)}] [{_cards(cards[held - 1 : held])}]"

    def action_text(self, action: Action, level: int) -> str:
        all_in = " and is all-in" if action.all_in else ""
        match action.move:
            case Move.CHECK:
                return "checks"
            case Move.FOLD:
                return "folds"
            case Move.BRING_IN:
                return f"brings in for {self.money(action.amount)}{all_in}"
            case Move.BET:
                return f"bets {self.money(action.amount)}{all_in}"
            case Move.CALL:
                return f"calls {self.money(action.amount)}{all_in}"
            case Move.RAISE:
                by = action.raised_by if action.raised_by is not None else action.total - level
                return f"raises {self.money(by)} to {self.money(action.total)}{all_in}"
        raise AssertionError(action.move)

    # --- after the last action ------------------------------------------------------------------

    def end_of_play(self) -> None:
        hand = self.hand
        for back in hand.returned:
            self.out.append(f"Uncalled bet ({self.money(back.amount)}) returned to {back.player}")
        live = [seat.name for seat in hand.seats if seat.name not in self.folded_on]
        if len(live) > 1:
            self.out.append("*** SHOW DOWN ***")
            for name in hand.showed:
                self.out.append(self.shows_line(name))
            for name in live:
                if name not in hand.showed:
                    self.out.append(f"{name}: mucks hand")
        for collection in hand.collected:
            pot = self.pot_name(collection.pot)
            amount = self.money(collection.amount)
            self.out.append(f"{collection.player} collected {amount} from {pot}")
        if len(live) <= 1:
            for name in hand.showed:
                self.out.append(self.shows_line(name))
        if hand.no_low_hand:
            self.out.append("No low hand qualified")
        if self.full:
            for name in self.unseen(live):
                cards = _cards(hand.cards_of(name).cards)
                self.out.append(f"{name}: shows [{cards}] ({REVEALED_NOTE})")

    def unseen(self, live: list[str]) -> list[str]:
        """Players whose known hand no line shows: not the hero, not shown, and not mucked
        at a showdown (the summary shows those)."""
        hand = self.hand
        showdown = len(live) > 1
        return [
            hole.player
            for hole in hand.hole_cards
            if hole.complete
            and hole.player != hand.hero
            and hole.player not in hand.showed
            and not (showdown and hole.player in live)
        ]

    def hand_name(self, name: str) -> str | None:
        cards = list(self.hand.cards_of(name).known)
        if self.hand.community is not None:
            cards.append(self.hand.community)
        return describe(self.hand.game, cards)

    def shows_line(self, name: str) -> str:
        line = f"{name}: shows [{_cards(self.hand.cards_of(name).cards)}]"
        described = self.hand_name(name)
        return f"{line} ({described})" if described else line

    def pot_name(self, pot: int) -> str:
        side_pots = len(self.hand.pots) - 1
        if side_pots < 1:
            return "pot"
        if pot == 0:
            return "main pot"
        return "side pot" if side_pots == 1 else f"side pot-{pot}"

    def summary(self) -> None:
        hand = self.hand
        self.out.append("*** SUMMARY ***")
        line = f"Total pot {self.money(hand.total_pot)}"
        if len(hand.pots) > 1:
            line += f" Main pot {self.money(hand.pots[0])}."
            for index, amount in enumerate(hand.pots[1:], start=1):
                label = "Side pot" if len(hand.pots) == 2 else f"Side pot-{index}"
                line += f" {label} {self.money(amount)}."
        self.out.append(f"{line} | Rake {self.money(hand.rake)}")
        if hand.community is not None:
            self.out.append(f"Board [{hand.community}]")
        won = hand.collected_by()
        for seat in hand.seats:
            self.out.append(f"Seat {seat.number}: {seat.name} {self.seat_result(seat.name, won)}")

    def seat_result(self, name: str, won: dict[str, int]) -> str:
        hand = self.hand
        hole = hand.cards_of(name)
        showdown = sum(1 for seat in hand.seats if seat.name not in self.folded_on) > 1
        outcome = f"won ({self.money(won[name])})" if name in won else "lost"
        street = self.folded_on.get(name)
        if name in hand.showed and (showdown or name not in won):
            described = self.hand_name(name)
            with_hand = f" with {described}" if described else ""
            return f"showed [{_cards(hole.cards)}] and {outcome}{with_hand}"
        if street is not None:
            text = f"folded on the {SUMMARY_STREETS[street]}"
            if street is Street.THIRD and not any(
                action.amount for action in hand.actions_on(street) if action.player == name
            ):
                text += " (didn't bet)"
            return text
        if name in won and not showdown:
            return f"collected ({self.money(won[name])})"
        if hole.complete:  # at the showdown without showing
            mucked = f"mucked [{_cards(hole.cards)}]"
            return f"{mucked} and won ({self.money(won[name])})" if name in won else mucked
        if name in won:
            return f"collected ({self.money(won[name])})"
        return "mucked"


def _cards(cards: tuple[str | None, ...]) -> str:
    known = [card for card in cards if card is not None]
    if len(known) != len(cards):
        raise ValueError("a card to be written is unknown")
    return " ".join(known)
