"""The thin Discord shell: slash commands and buttons in, table messages and DMs out.

No rules live here. Interactions become calls on the table service
(:mod:`dealerbot.tables`, the only layer this one imports). The rooms:

- the process: :mod:`.client` (discord.py's client, shards, the command sync at start),
  :mod:`.command_sync` (Discord's refusal of the command list), :mod:`.errors` (answering
  an interaction, refusals, failures), :mod:`.discord_limits` (Discord's limits, once);
- what comes in: ``cogs/`` (the ``/stud`` and ``/stud-admin`` commands, every click and
  form in :mod:`.cogs.clicks`), :mod:`.buttons` (the table message's buttons and ids);
- what goes out: :mod:`.relay` (service events to messages and DMs), the table message
  (:mod:`.table_messages`, :mod:`.table_plan`, :mod:`.table_channel`), :mod:`.dm`,
  :mod:`.turn_alerts`, and :mod:`.rest_budget` under both;
- what players read: :mod:`.markup`, :mod:`.games_text`, :mod:`.hand_story`,
  :mod:`.table_embeds` (public) and :mod:`.answers` (one member's).
"""
