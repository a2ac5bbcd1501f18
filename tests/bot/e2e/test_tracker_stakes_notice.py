"""/stud-admin config says when hand files at the new stakes will not import into trackers
(the table service's wording, dealerbot.tables.tracker_stakes_note), and names the nearest
small bets that do."""

from __future__ import annotations

from .driver import Club

WARNING = "will not import into FPDB"


async def test_a_small_bet_trackers_do_not_know_is_flagged(club: Club) -> None:
    changed = await club.text(club.admin, "config", group="stud-admin", small_bet=6)
    assert "Settings changed" in changed and "6/12 fixed limit" in changed
    assert f"Hand histories: Hand histories at 6/12 {WARNING}" in changed
    assert "The nearest small bets that import: 5 (5/10) or 8 (8/16)." in changed

    fine = await club.text(club.admin, "config", group="stud-admin", small_bet=10)
    assert "Settings changed" in fine and WARNING not in fine
    other = await club.text(club.admin, "config", group="stud-admin", small_bet=6)
    assert WARNING in other
    shown = await club.text(club.admin, "config", group="stud-admin")  # nothing set: no note
    assert "6/12" in shown and WARNING not in shown
    turn = await club.text(club.admin, "config", group="stud-admin", turn_seconds=60)
    assert "Settings changed" in turn and WARNING not in turn  # only a new small bet

    server = await club.text(club.admin, "config", group="stud-admin", scope="server", small_bet=7)
    assert "server default" in server and "Hand histories at 7/14" in server
