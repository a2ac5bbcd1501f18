"""Review R (hostile review of phase 2): what one player could learn of another's cards,
and chips through queued top-ups, checked through the table service."""

from __future__ import annotations

import re

from dealerbot.engine.events import ActionKind
from dealerbot.history.pokerstars import parse_hand
from dealerbot.tables import events as ev

from .helpers import CHANNEL, GUILD, Harness, passive, play_hand
from .test_records import CARD, seen_by


async def test_a_name_made_like_a_repeated_name_sees_no_one_elses_down_cards(
    harness: Harness,
) -> None:
    """Two players named Bob become "Bob (n)" in a history; a third who calls himself
    "Bob (n)" must still get only his own down cards in his file of the hand."""
    h = harness
    await h.service.join(GUILD, CHANNEL, 11, "Bob")
    await h.service.join(GUILD, CHANNEL, 12, "Bob")
    victim_seat = h.recorder.of(ev.PlayerJoined)[-1].seat
    await h.service.join(GUILD, CHANNEL, 13, f"Bob ({victim_seat + 1})")

    def victim_folds(turn: ev.Turn) -> ActionKind:
        kinds = [o.kind for o in turn.options]
        if turn.user_id == 12 and ActionKind.FOLD in kinds:
            return ActionKind.FOLD
        return passive(turn)

    await h.service.start(GUILD, CHANNEL)
    end = await play_hand(h, victim_folds)
    for viewer in (11, 12, 13):
        [file] = await h.service.records.hand_files(GUILD, viewer, end.hand_id)
        leaked = set(CARD.findall(file.text)) - seen_by(h, end.hand_id, viewer)
        assert not leaked, f"viewer {viewer} got cards he never saw: {sorted(leaked)}"
        names = re.findall(r"^Seat \d+: (.+) \(\d+ in chips\)", file.text, re.M)
        assert len(names) == 3 and len(set(names)) == 3, names
        assert [seat.name for seat in parse_hand(file.text).seats] == names
    await h.audit_ok()
