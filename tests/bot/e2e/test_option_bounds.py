"""The commands offer what the table service accepts (issue 16 part 2): one bound each.

tests/test_bounds.py checks the registered ranges against the service's; these play the
edges through Discord: the largest buy-in a table can have fits the buy-in form, an admin
may set what the service accepts, and a stale client past a bound changes nothing.
"""

from __future__ import annotations

from dealerbot.tables import BUY_IN_SETTING, SMALL_BET, WALLET_GRANT

from .driver import DEFERRED, Club, message_text
from .test_table_talk import seat_id, table_message

MODAL = 9


async def test_the_largest_buy_in_fits_the_buy_in_form_with_commas(club: Club) -> None:
    alice, bob = club.players[:2]
    top = BUY_IN_SETTING.high  # 1000 small bets of the largest small bet
    changed = await club.text(
        club.admin,
        "config",
        group="stud-admin",
        small_bet=SMALL_BET.high,
        min_buyin=top // 100,
        max_buyin=top,
    )
    assert "Settings changed" in changed, changed
    for member in (alice, bob):
        await club.text(club.admin, "chips", group="stud-admin", member=member.id, amount=top)
    await club.seat([alice])
    await club.settle()
    table = table_message(club)
    shown = await club.emu.click(table["id"], seat_id(table, "buyin"), bob)
    assert (await shown.response()).type == MODAL
    typed = f"{top:,}"  # 1,000,000,000: thirteen characters
    submitted = await club.emu.submit_modal(shown, {"amount": typed})
    assert f"You sit down with {top} chips" in (await submitted.response()).content
    club.emu.assert_nothing_refused()


async def test_an_admin_may_set_what_the_service_accepts(club: Club) -> None:
    """Starting chips past the bot's old bound of 10**9 (the service's is 10**12)."""
    service = club.bot.service
    assert service is not None
    big = 5 * 10**9
    assert big in WALLET_GRANT
    answer = await club.text(club.admin, "config", group="stud-admin", starting_chips=big)
    assert "Settings changed" in answer, answer
    assert (await service.economy_get(club.guild.id)).starting_chips == big


async def test_a_stale_client_past_a_bound_changes_nothing(club: Club) -> None:
    """A command list older than the bounds lets a value through: refused before any write."""
    service = club.bot.service
    assert service is not None
    before = await service.config_get(club.guild.id, club.channel.id)
    rec = await club.emu.slash_command(
        club.guild,
        club.channel,
        club.admin,
        "stud-admin",
        subcommand="config",
        options={"ante": 2, "bring_in": 3, "starting_chips": WALLET_GRANT.high + 1},
        unchecked=True,
    )
    response = await rec.response(timeout=10)
    if response.type == DEFERRED:
        [answer] = await rec.wait_followups(1, timeout=10)
        text = message_text(answer)
    else:
        text = message_text(dict(response.data))
    assert f"starting chips must be between 0 and {WALLET_GRANT.high:,}" in text
    assert await service.config_get(club.guild.id, club.channel.id) == before
    assert (await service.economy_get(club.guild.id)).starting_chips == 1000
