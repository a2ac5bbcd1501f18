"""A :class:`~dealerbot.history.model.Hand` written in the Poker Hand History format (PHH).

PHH is the TOML notation pokerkit reads (``pokerkit.HandHistory.loads``): the game's
fields, the starting stacks in seat order (``p1`` is the lowest seat, where the deal starts),
and one action per string: ``d dh p1 ????7h`` deals cards (``??`` an unknown card),
``p1 pb`` posts the bring-in, ``p1 cbr 8`` completes, bets or raises *to* 8 on the street,
``p1 cc`` checks or calls, ``p1 f`` folds, ``p1 sm 7h7d...`` shows and ``p1 sm`` mucks.

Cards are written as the model knows them: a viewer's model yields a viewer's file. A
community card (R12) is written ``d db``, which pokerkit's stud games do not deal.
"""

from __future__ import annotations

import json
from collections.abc import Iterable

from .model import DOOR_INDEX, Game, Hand, Move, Street

__all__ = ["PHH_VARIANTS", "write_phh", "write_phh_hands"]

PHH_VARIANTS = {Game.STUD: "F7S", Game.STUD8: "F7S/8", Game.RAZZ: "FR"}
UNKNOWN = "??"


def write_phh(hand: Hand) -> str:
    """One hand as a PHH document."""
    return "\n".join(_fields(hand)) + "\n"


def write_phh_hands(hands: Iterable[Hand]) -> str:
    """Several hands as one PHHS document: numbered tables (``[1]``, ``[2]``...), which
    ``pokerkit.HandHistory.loads_all`` reads."""
    parts = [f"[{index}]\n{write_phh(hand)}" for index, hand in enumerate(hands, start=1)]
    return "\n".join(parts)


def _fields(hand: Hand) -> list[str]:
    stakes = hand.stakes
    if stakes.bring_in is None:
        raise ValueError(f"hand #{hand.hand_id}: the bring-in is not known")
    seats = hand.seats
    fields: dict[str, object] = {
        "variant": PHH_VARIANTS[hand.game],
        "antes": [stakes.ante] * len(seats),
        "bring_in": stakes.bring_in,
        "small_bet": stakes.small_bet,
        "big_bet": stakes.big_bet,
        "starting_stacks": [seat.stack for seat in seats],
        "actions": _actions(hand),
        "hand": hand.hand_id,
        "players": [seat.name for seat in seats],
        "seats": [seat.number for seat in seats],
        "finishing_stacks": [hand.final_stacks()[seat.name] for seat in seats],
    }
    if hand.max_seats is not None:
        fields["seat_count"] = hand.max_seats
    if hand.table:
        fields["table"] = hand.table
    if stakes.currency is not None:
        fields["currency"] = stakes.currency
    if hand.rake:
        fields["_rake"] = hand.rake  # user-defined (underscore): the site's rake
    return [f"{name} = {_toml(value)}" for name, value in fields.items()]


def _toml(value: object) -> str:
    """A TOML value: JSON's strings, integers and arrays are TOML's too."""
    if isinstance(value, list):
        return "[" + ", ".join(_toml(item) for item in value) + "]"
    return json.dumps(value, ensure_ascii=False)


def _actions(hand: Hand) -> list[str]:
    label = {seat.name: f"p{index}" for index, seat in enumerate(hand.seats, start=1)}
    folded: set[str] = set()
    actions: list[str] = []
    last = max(len(hole.cards) for hole in hand.hole_cards)
    if hand.community is not None:
        last = int(Street.SEVENTH)
    for street in Street:
        if street > last:
            break
        for hole in hand.hole_cards:
            if hole.player in folded:
                continue
            if street is Street.THIRD:
                cards = hole.cards[: DOOR_INDEX + 1]
            elif street is Street.SEVENTH and hand.community is not None:
                continue
            else:
                cards = hole.cards[int(street) - 1 : int(street)]
            actions.append(f"d dh {label[hole.player]} {_cards(cards)}")
        if street is Street.SEVENTH and hand.community is not None:
            actions.append(f"d db {hand.community}")
        for action in hand.actions_on(street):
            who = label[action.player]
            match action.move:
                case Move.BRING_IN:
                    actions.append(f"{who} pb")
                case Move.CHECK | Move.CALL:
                    actions.append(f"{who} cc")
                case Move.FOLD:
                    actions.append(f"{who} f")
                    folded.add(action.player)
                case Move.BET | Move.RAISE:
                    actions.append(f"{who} cbr {action.total}")
    live = [seat.name for seat in hand.seats if seat.name not in folded]
    if len(live) > 1:
        for name in live:
            if name in hand.showed:
                actions.append(f"{label[name]} sm {_cards(hand.cards_of(name).cards)}")
            else:
                actions.append(f"{label[name]} sm")
    return actions


def _cards(cards: tuple[str | None, ...]) -> str:
    return "".join(UNKNOWN if card is None else card for card in cards)
