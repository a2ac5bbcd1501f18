"""The projection: a table's views (:mod:`.views`) built from a snapshot of its values.

:func:`table_view` and :func:`player_view` read a :class:`TableSnapshot` only, never the
run-time table. Cards enter the public view only through the engine's public view and only
where the card's face-up flag is set, so a face-down card can never reach it (R8.1, R8.2);
the player's view adds his own cards through the engine's view for his seat. The events are
split into public and private in :mod:`.narration`; the leak test in tests/tables checks
both over many hands. A Sit & Go's view (:func:`tournament_view`) and its words (a level, a
place, the results) are built here too, from its rows and level clock.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from dealerbot.engine import HandState, HandView, public_view
from dealerbot.engine import player_view as engine_player_view
from dealerbot.engine.pots import build_pots
from dealerbot.store.seats import SeatRow
from dealerbot.store.tables import TableStatus
from dealerbot.store.tournaments import EntryRow, EntryStatus, TournamentRow
from dealerbot.store.validate import is_house_player_id
from dealerbot.tournament import (
    Level,
    LevelClock,
    TournamentSettings,
    level,
    level_line,
    prize_table,
)

from .hand_log import LiveHand
from .limits import MIN_BUYIN_SMALL_BETS
from .rotation import GameMode
from .settings import TableConfig
from .views import (
    EntryView,
    GamesView,
    LevelView,
    OptionView,
    PlayerView,
    PotView,
    SeatView,
    StakesView,
    TablePhase,
    TableView,
    TournamentPhase,
    TournamentView,
)


@dataclass(frozen=True, slots=True)
class TableSnapshot:
    """A table's state at one instant, as values: what the views are built from."""

    guild_id: int
    channel_id: int
    table_id: int
    config: TableConfig
    status: TableStatus
    closed: bool
    button_seat: int | None
    seats: tuple[SeatRow, ...]
    hand: LiveHand | None
    next_hand_at: float | None
    last_actions: tuple[str, ...]
    queued: Mapping[int, int] = field(default_factory=dict)  # top-ups for the next deal
    games: GamesView | None = None  # mixed games: the rotation or dealer's choice


def _stakes_view(table: TableSnapshot) -> StakesView:
    config = table.hand.config if table.hand is not None else table.config
    return StakesView(
        variant=config.variant,
        title=config.variant.title,
        ante=config.ante,
        bring_in=config.bring_in,
        small_bet=config.small_bet,
        big_bet=config.big_bet,
        min_buy_in=config.min_buyin,
        max_buy_in=config.max_buyin,
        seats=config.seats,
        turn_seconds=float(config.turn_seconds),
        delay_seconds=float(config.between_hands_seconds),
    )


def _phase(table: TableSnapshot) -> TablePhase:
    if table.closed:
        return TablePhase.CLOSED
    if table.status is TableStatus.CLOSING:
        return TablePhase.CLOSING
    return TablePhase.PLAYING if table.hand is not None else TablePhase.WAITING


def _seat_views(
    table: TableSnapshot, hand: HandView | None, to_act_seat: int | None
) -> tuple[SeatView, ...]:
    """Every occupied seat, in seat order: in the hand, its part of the engine's public view."""
    live = table.hand
    hand_seats = {seat.seat: seat for seat in hand.seats} if hand is not None else {}
    seats = []
    for seat in sorted(table.seats, key=lambda s: s.seat_no):
        in_hand = live is not None and live.seat_by_user.get(seat.user_id) == seat.seat_no
        hand_seat = hand_seats.get(seat.seat_no) if in_hand else None
        queued = table.queued.get(seat.user_id, 0)  # shown on his seat line: "+50 next hand"
        if live is not None and hand_seat is not None:
            seats.append(
                SeatView(
                    seat=seat.seat_no,
                    user_id=seat.user_id,
                    name=seat.display_name,
                    stack=hand_seat.stack,
                    cards=tuple(card.card if card.face_up else None for card in hand_seat.cards),
                    bet=hand_seat.bet,
                    in_hand=True,
                    folded=hand_seat.folded,
                    all_in=hand_seat.all_in,
                    sitting_out=seat.sitting_out,
                    leaving=seat.leave_after_hand,
                    button=live.state.button_seat == seat.seat_no,
                    to_act=to_act_seat == seat.seat_no,
                    queued=queued,
                    is_house=is_house_player_id(seat.user_id),
                )
            )
        else:
            seats.append(
                SeatView(
                    seat=seat.seat_no,
                    user_id=seat.user_id,
                    name=seat.display_name,
                    stack=seat.stack,
                    cards=(),
                    bet=0,
                    in_hand=False,
                    folded=False,
                    all_in=False,
                    sitting_out=seat.sitting_out,
                    leaving=seat.leave_after_hand,
                    button=live is None and table.button_seat == seat.seat_no,
                    to_act=False,
                    queued=queued,
                    is_house=is_house_player_id(seat.user_id),
                )
            )
    return tuple(seats)


def pot_views(state: HandState) -> tuple[PotView, ...]:
    """Main and side pots while a player in the hand is all-in (R7.4, the engine's levels),
    of the chips gathered so far: this street's bets join the pots when the street ends."""
    live_all_in = any(
        not out and chips == 0 for out, chips in zip(state.folded, state.stacks, strict=True)
    )
    if not live_all_in:
        return ()
    gathered = [c - b for c, b in zip(state.committed, state.street_bets, strict=True)]
    pots = build_pots(gathered, state.folded)
    if len(pots) < 2:
        return ()
    return tuple(PotView(pot.amount, tuple(state.labels[i] for i in pot.eligible)) for pot in pots)


def table_view(table: TableSnapshot) -> TableView:
    """The public view: only up cards (by their face-up flags), never a face-down one."""
    live = table.hand
    stakes = _stakes_view(table)
    games = table.games
    if live is None and games is not None and games.next_game is not None:
        stakes = dataclasses.replace(stakes, variant=games.next_game, title=games.next_game.title)
    if live is None:
        return TableView(
            guild_id=table.guild_id,
            channel_id=table.channel_id,
            table_id=table.table_id,
            stakes=stakes,
            seats=_seat_views(table, None, None),
            status=_phase(table),
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
            next_hand_at=table.next_hand_at,
            last_actions=table.last_actions,
            games=games,
            deck=table.config.deck,
        )
    hand = public_view(live.state)
    to_act = hand.to_act
    return TableView(
        guild_id=table.guild_id,
        channel_id=table.channel_id,
        table_id=table.table_id,
        stakes=stakes,
        seats=_seat_views(table, hand, to_act),
        status=_phase(table),
        hand_id=live.id,
        hand_number=live.record.number,
        commitment=live.record.commitment,
        street=hand.street,
        pot=hand.pot,
        community=hand.community,
        to_act_seat=to_act,
        to_act_user=live.players[to_act].user_id if to_act is not None else None,
        deadline=live.deadline if to_act is not None else None,
        seq=live.seq if to_act is not None else None,
        next_hand_at=table.next_hand_at,
        last_actions=table.last_actions,
        games=games,
        deck=table.config.deck,  # the table's setting, not the hand's: shown at once
        pots=pot_views(live.state),
    )


def player_view(table: TableSnapshot, seat: SeatRow) -> PlayerView:
    """The public view plus the player's own cards (``seat``'s) and, on his turn, his options."""
    public = table_view(table)
    live = table.hand
    seat_no = live.seat_by_user.get(seat.user_id) if live is not None else None
    if live is None or seat_no is None:
        return PlayerView(
            table=public,
            user_id=seat.user_id,
            seat=seat.seat_no,
            stack=seat.stack,
            cards=(),
            face_up=(),
            options=(),
            hand_id=None,
            seq=None,
            time_bank=seat.time_bank_seconds,
        )
    mine = engine_player_view(live.state, seat_no)
    own = next(s for s in mine.seats if s.seat == seat_no)
    my_turn = live.state.seat_to_act == seat_no
    return PlayerView(
        table=public,
        user_id=seat.user_id,
        seat=seat_no,
        stack=own.stack,
        cards=tuple(c.card for c in own.cards if c.card is not None),
        face_up=tuple(c.face_up for c in own.cards if c.card is not None),
        options=tuple(OptionView.of(option) for option in mine.legal.options) if my_turn else (),
        hand_id=live.id,
        seq=live.seq if my_turn else None,
        time_bank=seat.time_bank_seconds,
    )


# --- a Sit & Go ---------------------------------------------------------------------------

LADDER_SHOWN = 16  # levels a view lists: the table (the ladder goes on past it)


def ordinal(n: int) -> str:
    """1st, 2nd, 3rd, 4th, 11th, 21st ..."""
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def level_view(lv: Level) -> LevelView:
    return LevelView(lv.number, lv.game, lv.small_bet, lv.big_bet, lv.ante, lv.bring_in)


def _entry_view(entry: EntryRow) -> EntryView:
    return EntryView(
        user_id=entry.user_id,
        name=entry.display_name,
        seat=entry.seat_no,
        stack=entry.stack,
        status=entry.status.value,
        place=entry.place,
        shares=entry.shares,
        prize=entry.prize,
        refund=entry.refund,
        sitting_out=entry.sitting_out,
    )


def tournament_view(
    row: TournamentRow,
    rules: TournamentSettings,
    entries: Sequence[EntryRow],
    clock: LevelClock,
    now: float,
    hand_number: int | None = None,
) -> TournamentView:
    """Everything anyone may see of a Sit & Go, as of ``now``."""
    phase = TournamentPhase(row.status.value)
    started = row.started_at is not None
    left = [e for e in entries if e.status is EntryStatus.PLAYING and e.place is None]
    out = [e for e in entries if e.place is not None]
    ordered = sorted(left, key=lambda e: (-e.stack, e.seat_no or 0)) + sorted(
        out, key=lambda e: e.place or 0
    )
    if not started:
        ordered = list(entries)
    count = row.entrants or len(entries)
    prizes = prize_table(count * rules.buy_in, count) if count >= 2 else ()
    current: Level | None = None
    line = seconds = ends = None
    if started and phase in (TournamentPhase.RUNNING, TournamentPhase.PAUSED):
        status = clock.status(now)
        current = level(status.level, rules.games)
        seconds = status.seconds_left
        ends = None if status.paused else now + status.seconds_left
        line = level_line(current, seconds, mixed=rules.mixed, paused=status.paused)
    chips = sum(e.stack for e in left)
    return TournamentView(
        tournament_id=row.id,
        guild_id=row.guild_id,
        channel_id=row.channel_id,
        phase=phase,
        game=rules.game_name,
        games=rules.games,
        structure=rules.structure.value,
        buy_in=rules.buy_in,
        starting_chips=rules.starting_chips,
        level_minutes=rules.level_minutes,
        seats=rules.seats,
        turn_seconds=rules.turn_seconds,
        entries=tuple(_entry_view(e) for e in ordered),
        ladder=tuple(level_view(level(n, rules.games)) for n in range(1, LADDER_SHOWN + 1)),
        level=None if current is None else level_view(current),
        level_line=line,
        seconds_left=seconds,
        level_ends_at=ends,
        paused=phase is TournamentPhase.PAUSED,
        players_left=len(left) if started else len(entries),
        average_stack=chips // len(left) if started and left else None,
        pool=row.pool,
        prizes=prizes,
        now=_now_text(row, phase, entries, left, hand_number),
        created_at=row.created_at,
        started_at=row.started_at,
        ended_at=row.ended_at,
        note=row.note,
    )


def _now_text(
    row: TournamentRow,
    phase: TournamentPhase,
    entries: Sequence[EntryRow],
    left: Sequence[EntryRow],
    hand_number: int | None,
) -> str:
    if phase is TournamentPhase.REGISTERING:
        return (
            f"Registering: {len(entries)} of {row.seats} seats taken. It starts when the seats "
            "are full, or when an admin starts it with two or more registered."
        )
    if phase is TournamentPhase.PAUSED:
        return "Paused by the host: no new hand until it resumes; the level clock stands still."
    if phase is TournamentPhase.RUNNING:
        if hand_number is not None:
            return f"Hand #{hand_number} is being played; {len(left)} players left."
        return f"{len(left)} players left; the next hand is dealt shortly."
    if phase is TournamentPhase.FINISHED:
        winner = next((e for e in entries if e.place == 1), None)
        return f"Finished: {winner.display_name if winner else 'nobody'} won."
    return f"Cancelled ({row.note}): the pool went back to the players."


def level_config(settings: TournamentSettings, lv: Level) -> TableConfig:
    """The table settings a hand dealt at ``lv`` plays (the other settings: the defaults)."""
    return TableConfig(
        variant=lv.game,
        game=GameMode(lv.game.value),
        ante=lv.ante,
        bring_in=lv.bring_in,
        small_bet=lv.small_bet,
        min_buyin=MIN_BUYIN_SMALL_BETS * lv.small_bet,  # no buy-in here: the least allowed
        max_buyin=MIN_BUYIN_SMALL_BETS * lv.small_bet,
        seats=settings.seats,
        turn_seconds=settings.turn_seconds,
    )


def level_text(rules: TournamentSettings, lv: Level, clock: LevelClock, now: float) -> str:
    """A level as its first deal announces it (the level line)."""
    left = clock.status(now)
    return level_line(lv, left.seconds_left, mixed=rules.mixed, paused=left.paused)


def finish_text(entry: EntryRow) -> str:
    """``carol finishes 4th``, with the places a tie shares and the prize, if any."""
    assert entry.place is not None
    if entry.place == 1:
        return f"{entry.display_name} wins the Sit & Go and {entry.prize:,} chips"
    text = f"{entry.display_name} finishes {ordinal(entry.place)}"
    if len(entry.shares) > 1:
        low, high = ordinal(entry.shares[0]), ordinal(entry.shares[-1])
        text += f" (tied: places {low} to {high} shared)"
    if entry.status is EntryStatus.FORFEITED:
        text += " (forfeited)"
    return text + (f" and wins {entry.prize:,} chips" if entry.prize else "")


def results_text(row: TournamentRow, entries: Mapping[int, EntryRow]) -> str:
    """The end of a Sit & Go, as announced: who won what."""
    paid = sorted((e for e in entries.values() if e.prize), key=lambda e: e.place or 0)
    prizes = ", ".join(f"{ordinal(e.place or 0)} {e.display_name} {e.prize:,}" for e in paid)
    return f"Sit & Go #{row.id} is over. Prizes: {prizes}."
