"""Small table-service values for the bot's unit tests (renderer, table-message planner)."""

from __future__ import annotations

import dataclasses
from typing import Any

from dealerbot.tables import (
    ActionKind,
    Card,
    OptionView,
    SeatView,
    StakesView,
    TablePhase,
    TableView,
    Variant,
)
from dealerbot.tables import events as ev

GUILD, CHANNEL, TABLE = 10, 20, 30


def stakes(**changes: Any) -> StakesView:
    base = StakesView(
        variant=Variant.STUD,
        title="Seven Card Stud",
        ante=1,
        bring_in=2,
        small_bet=5,
        big_bet=10,
        min_buy_in=100,
        max_buy_in=1000,
        seats=8,
        turn_seconds=30.0,
        delay_seconds=5.0,
    )
    return dataclasses.replace(base, **changes)


def seat(number: int, name: str, **changes: Any) -> SeatView:
    base = SeatView(
        seat=number,
        user_id=100 + number,
        name=name,
        stack=200,
        cards=(),
        bet=0,
        in_hand=False,
        folded=False,
        all_in=False,
        sitting_out=False,
        leaving=False,
        button=False,
        to_act=False,
    )
    return dataclasses.replace(base, **changes)


def waiting(*seats: SeatView, **changes: Any) -> TableView:
    base = TableView(
        guild_id=GUILD,
        channel_id=CHANNEL,
        table_id=TABLE,
        stakes=stakes(),
        seats=seats,
        status=TablePhase.WAITING,
        hand_id=None,
        hand_number=None,
        commitment=None,
        street=None,
        pot=0,
        community=None,
        to_act_seat=None,
        to_act_user=None,
        deadline=None,
        seq=None,
        next_hand_at=None,
        last_actions=(),
    )
    return dataclasses.replace(base, **changes)


def cards(text: str) -> tuple[Card | None, ...]:
    """``"?? ?? Kh"``: hidden cards as ``??``."""
    return tuple(None if part == "??" else Card.parse(part) for part in text.split())


def playing(hand_id: int = 7, seq: int = 3, to_act: int = 0, **changes: Any) -> TableView:
    """A hand on 3rd street between alice (seat 0) and bob (seat 1); ``to_act`` is a seat."""
    names = ("alice", "bob")
    seats = tuple(
        seat(
            number,
            name,
            in_hand=True,
            cards=cards("?? ?? Kh" if number == 0 else "?? ?? 2c"),
            to_act=number == to_act,
        )
        for number, name in enumerate(names)
    )
    base = waiting(
        *seats,
        status=TablePhase.PLAYING,
        hand_id=hand_id,
        hand_number=5,
        commitment="ab" * 32,
        street=3,
        pot=12,
        to_act_seat=to_act,
        to_act_user=100 + to_act,
        deadline=2_000_000_030.0,
        seq=seq,
        last_actions=("bob brings in 2",),
    )
    return dataclasses.replace(base, **changes)


def turn(view: TableView, *kinds: ActionKind, **changes: Any) -> ev.Turn:
    """The service's Turn event matching ``view`` (the player to act and his options)."""
    assert view.hand_id is not None and view.seq is not None and view.to_act_user is not None
    options = tuple(OptionView(kind, kind.value.title(), 0, 0, False) for kind in kinds)
    base = ev.Turn(
        guild_id=GUILD,
        channel_id=CHANNEL,
        hand_id=view.hand_id,
        seq=view.seq,
        seat=view.to_act_seat or 0,
        user_id=view.to_act_user,
        name="alice",
        options=options,
        to_call=2,
        deadline=view.deadline or 0.0,
        time_bank=0.0,
        street=3,
    )
    return dataclasses.replace(base, **changes)
