"""``/stud-admin``: table settings, chips, closing a table (Manage Server only).

``default_permissions`` hides the group from members without Manage Server, but
server admins can override that in the integration settings and discord.py does
not re-check it, so :meth:`AdminCog.interaction_check` checks the member's
permissions on every use.
"""

from __future__ import annotations

from typing import Any, Literal

import discord
from discord import app_commands
from discord.ext import commands

from dealerbot.tables import (
    ADJUSTMENT,
    CHIPS,
    HOUSE_BOOK_DAYS,
    HOUSE_FILL_TO,
    HOUSE_PLAYERS,
    NOTHING_CHANGED,
    SETTING_RULES,
    HouseBook,
    NoTableError,
    TableConfig,
    TableError,
    TablePhase,
    TableView,
    check_changes,
    setting_name,
    tracker_stakes_note,
)

from .. import answers
from ..client import DealerBot
from ..discord_limits import EMBED_TEXT_BUDGET
from ..errors import Reply, UserError, place
from ..games_text import short_title
from ..markup import COLOR_WAITING, name_text
from .base import CogBase, display_name, is_admin
from .options import (
    CONFIG_BOUNDS,
    DECK_CHOICES,
    Adjustment,
    Ante,
    BringIn,
    BuyInSetting,
    Chips,
    ChoiceSeconds,
    HandsPerGame,
    HouseDays,
    HouseFillTo,
    HousePlayers,
    Seats,
    SmallBet,
    TurnSeconds,
    WalletGrant,
)

ECONOMY_KEYS = ("starting_chips", "daily_chips")


@app_commands.guild_only()
@app_commands.default_permissions(manage_guild=True)
class AdminCog(
    CogBase,
    commands.GroupCog,
    group_name="stud-admin",
    group_description="Dealer settings (Manage Server)",
):
    """Table and server settings, wallet adjustments and closing a table, for admins."""

    async def interaction_check(self, interaction: discord.Interaction[Any], /) -> bool:
        if not is_admin(interaction):
            raise app_commands.MissingPermissions(["manage_guild"])
        return True

    @app_commands.command(name="config", description="Show or change the table settings")
    @app_commands.describe(
        game="stud, stud8 (hi/lo), razz, mix (a rotation) or choice (dealer's choice)",
        games="Games of mix/choice, in order, e.g. 'stud razz stud8'",
        hands_per_game=SETTING_RULES["hands_per_game"],  # each rule, the service's words
        choice_seconds=SETTING_RULES["choice_seconds"],
        ante=SETTING_RULES["ante"],
        bring_in=SETTING_RULES["bring_in"],
        small_bet=SETTING_RULES["small_bet"],
        min_buyin=SETTING_RULES["min_buyin"],
        max_buyin=SETTING_RULES["max_buyin"],
        seats=SETTING_RULES["seats"],
        turn_seconds=SETTING_RULES["turn_seconds"],
        starting_chips=SETTING_RULES["starting_chips"],
        daily_chips=SETTING_RULES["daily_chips"],
        house_players=(
            f"The most house players at this table ({HOUSE_PLAYERS.text}), 0 for none; "
            "they sit only with a member seated"
        ),
        house_fill_to=(
            f"House players sit while fewer seats than this are taken ({HOUSE_FILL_TO.text})"
        ),
        scope="This channel's table, or the server default for every table",
        deck="How the table message draws cards: classic, four-colour or text",
    )
    @app_commands.choices(deck=DECK_CHOICES)
    async def config(
        self,
        interaction: discord.Interaction[Any],
        game: Literal["stud", "stud8", "razz", "mix", "choice"] | None = None,
        games: app_commands.Range[str, 1, 100] | None = None,
        hands_per_game: HandsPerGame | None = None,
        choice_seconds: ChoiceSeconds | None = None,
        ante: Ante | None = None,
        bring_in: BringIn | None = None,
        small_bet: SmallBet | None = None,
        min_buyin: BuyInSetting | None = None,
        max_buyin: BuyInSetting | None = None,
        seats: Seats | None = None,
        turn_seconds: TurnSeconds | None = None,
        starting_chips: WalletGrant | None = None,
        daily_chips: WalletGrant | None = None,
        house_players: HousePlayers | None = None,
        house_fill_to: HouseFillTo | None = None,
        scope: Literal["channel", "server"] = "channel",
        deck: app_commands.Choice[str] | None = None,
    ) -> None:
        values: dict[str, Any] = {
            "game": game,
            "games": games,
            "hands_per_game": hands_per_game,
            "choice_seconds": choice_seconds,
            "ante": ante,
            "bring_in": bring_in,
            "small_bet": small_bet,
            "min_buyin": min_buyin,
            "max_buyin": max_buyin,
            "seats": seats,
            "turn_seconds": turn_seconds,
            "starting_chips": starting_chips,
            "daily_chips": daily_chips,
            "house_players": house_players,
            "house_fill_to": house_fill_to,
            "deck": deck.value if deck is not None else None,
        }
        changes = {key: value for key, value in values.items() if value is not None}

        async def work() -> Reply:
            guild_id, channel_id = place(interaction)
            service = self.service
            for key, value in changes.items():  # before anything is stored (see CONFIG_BOUNDS)
                bound = CONFIG_BOUNDS.get(key)
                if bound is not None and value not in bound:
                    raise UserError(
                        f"{NOTHING_CHANGED}: the {setting_name(key)} must be between "
                        f"{bound.low:,} and {bound.high:,}."
                    )
            table = {k: v for k, v in changes.items() if k not in ECONOMY_KEYS}
            economy = {k: v for k, v in changes.items() if k in ECONOMY_KEYS}
            if changes:  # all or nothing: every change checked before any is stored
                current = await (
                    service.guild_defaults_get(guild_id)
                    if scope == "server"
                    else service.config_get(guild_id, channel_id)
                )
                check_changes(current, await service.economy_get(guild_id), table, economy)
            if table:
                if scope == "server":
                    config = await service.guild_defaults_set(guild_id, **table)
                else:
                    config = await service.config_set(guild_id, channel_id, **table)
                    await self._announce(guild_id, channel_id, config, table, interaction)
            elif scope == "server":
                config = await service.guild_defaults_get(guild_id)
            else:
                config = await service.config_get(guild_id, channel_id)
            if economy:
                wallet_rules = await service.economy_set(guild_id, **economy)
            else:
                wallet_rules = await service.economy_get(guild_id)
            label = "server default" if scope == "server" else "this channel"
            embed = answers.config_embed(config, wallet_rules, scope=label, changed=tuple(changes))
            note = tracker_stakes_note(config) if "small_bet" in table else None
            if note is not None:  # stakes FPDB and other trackers do not import
                embed.add_field(name="Hand histories", value=note, inline=False)
            return Reply(embed=embed)

        await self.run(interaction, work)

    async def _announce(
        self,
        guild_id: int,
        channel_id: int,
        config: TableConfig,
        changed: dict[str, Any],
        interaction: discord.Interaction[Any],
    ) -> None:
        """Tell the table (if this channel has one) what changes from the next hand."""
        try:
            await self.service.table_view(guild_id, channel_id)
        except NoTableError:
            return
        text = answers.change_notice(config, tuple(changed), display_name(interaction.user))
        self.relay.messenger(guild_id, channel_id).notice(text)

    @app_commands.command(name="chips", description="Give (or take, with a negative amount) chips")
    @app_commands.describe(member="Whose wallet", amount="Chips to give; negative to take")
    async def chips(
        self,
        interaction: discord.Interaction[Any],
        member: discord.User,
        amount: Adjustment,
    ) -> None:
        async def work() -> Reply:
            guild_id, _ = place(interaction)
            if member.bot:
                raise UserError("Bots do not play.")
            if amount == 0 or amount not in ADJUSTMENT:
                raise UserError(f"The amount must be between 1 and {CHIPS.high:,} (or negative).")
            note = f"by admin {interaction.user.id}"
            wallet = await self.service.admin_adjust(guild_id, member.id, amount, note)
            verb = "Gave" if amount > 0 else "Took"
            return Reply(
                f"{verb} {abs(amount)} chips {'to' if amount > 0 else 'from'} <@{member.id}>; "
                f"their wallet holds {wallet.chips}."
            )

        await self.run(interaction, work)

    @app_commands.command(
        name="house", description="The house bankroll: its balance and result, or fund it"
    )
    @app_commands.describe(
        fund="Chips to add to the bankroll, from nothing (as a grant); leave out to only show it",
        days=f"Days of results to show ({HOUSE_BOOK_DAYS.text}), default the last month",
    )
    async def house(
        self,
        interaction: discord.Interaction[Any],
        fund: Chips | None = None,
        days: HouseDays | None = None,
    ) -> None:
        """``/stud-admin house`` shows the bankroll; ``fund:`` adds to it first (one ledger
        row, the service's check of the amount; a refused amount changes nothing)."""

        async def work() -> Reply:
            guild_id, _ = place(interaction)
            bank = self.service.house

            async def read() -> HouseBook:
                return (
                    await bank.book(guild_id) if days is None else await bank.book(guild_id, days)
                )

            book = await read()  # a bad ``days`` is refused (the service's words) before a fund
            if fund is not None:
                await bank.fund(guild_id, fund, note=f"by admin {interaction.user.id}")
                book = await read()
            return Reply(embed=answers.house_embed(book, funded_now=fund))

        await self.run(interaction, work)

    @app_commands.command(name="close", description="Close a table (after the hand in play)")
    @app_commands.describe(channel="The table's channel (default: this one)")
    async def close(
        self, interaction: discord.Interaction[Any], channel: discord.TextChannel | None = None
    ) -> None:
        async def work() -> Reply:
            guild_id, channel_id = place(interaction)
            if channel is not None:
                channel_id = channel.id
            now = await self.service.close_table(guild_id, channel_id)
            if now:
                return Reply("The table is closed; everyone's chips went back to their wallets.")
            return Reply("The table closes when this hand ends; everyone is then cashed out.")

        await self.run(interaction, work)

    @app_commands.command(name="tables", description="Every table of this server, on one page")
    async def tables(self, interaction: discord.Interaction[Any]) -> None:
        async def work() -> Reply:
            guild_id, _ = place(interaction)
            service = self.service
            views = []
            for channel_id in await service.settings.open_channels(guild_id):
                try:
                    views.append(await service.table_view(guild_id, channel_id))
                except TableError:  # closed meanwhile, or run by another process
                    continue
            return Reply(embed=tables_embed(views))

        await self.run(interaction, work)


def table_line(view: TableView) -> str:
    """``#poker · Stud Hi/Lo 5/10 · 3/8 seated, away: bob · hand #12 in play``."""
    stakes = view.stakes
    away = [seat.name for seat in view.seats if seat.sitting_out]
    seated = f"{len(view.seats)}/{stakes.seats} seated"
    if away:
        seated += ", away: " + ", ".join(name_text(name) for name in away)
    if view.status is TablePhase.CLOSING:
        state = "closing after this hand"
    elif view.hand_number is not None:
        state = f"hand #{view.hand_number} in play"
    else:
        state = "waiting"
    game = short_title(stakes)
    return f"<#{view.channel_id}> · {game} {stakes.small_bet}/{stakes.big_bet} · {seated} · {state}"


def tables_embed(views: list[TableView]) -> discord.Embed:
    """One overview of the server's tables, so an admin need not visit each channel."""
    if not views:
        text = "No table is open in this server: `/stud join` in a channel opens one."
    else:
        lines: list[str] = []
        for line in map(table_line, views):
            if sum(len(x) + 1 for x in lines) + len(line) > EMBED_TEXT_BUDGET:
                lines.append(f"… and {len(views) - len(lines)} more")
                break
            lines.append(line)
        text = "\n".join(lines)
    return discord.Embed(title=f"Tables ({len(views)})", description=text, colour=COLOR_WAITING)


async def setup(bot: commands.Bot) -> None:
    """Extension entry point: the ``/stud-admin`` group (it has no buttons)."""
    if not isinstance(bot, DealerBot):
        raise TypeError("the /stud-admin cog needs a DealerBot")
    await bot.add_cog(AdminCog(bot))
