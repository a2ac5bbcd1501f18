"""A Discord API emulator for end-to-end tests of dealerbot (discord.py 2.7).

One aiohttp app on 127.0.0.1 (random port) serves REST under ``/api/v10`` and the
gateway websocket at ``/gateway`` (resumes go to ``/gateway/resume``). The real
discord.py client connects to it unchanged::

    emu = DiscordEmulator()            # or the ``emulator`` fixture in tests/bot/conftest.py
    await emu.start()
    guild = emu.add_guild("Stud Club")
    table = emu.add_text_channel(guild, "table-1")
    alice = emu.add_member(guild, "alice")
    bob = emu.add_member(guild, "bob", dm_blocked=True)
    boss = emu.add_member(guild, "boss", admin=True)   # Admin role: ADMINISTRATOR|MANAGE_GUILD
    point_discord_py_at(emu.api_base, emu.gateway_url)   # or discord_py_pointed_at(...)
    # start the bot with emu.token; discord.Client(..., guild_ready_timeout=0.1) is fast
    rec = await emu.slash_command(guild, table, alice, "stud", subcommand="join",
                                  options={"buy_in": 200})
    resp = await rec.response(timeout=5)     # CallbackRecord: type, data, flags, content...
    click = await emu.click(rec.original_message_id, "stud:fold", alice)
    await emu.wait_for(lambda: emu.channel_messages(table)[-1]["content"] == "...")

World building (before or after the bot connects; later additions are dispatched as
GUILD_CREATE / CHANNEL_CREATE / GUILD_MEMBER_ADD where the intents allow):
    ``add_guild(name)``, ``add_text_channel(guild, name, bot_can_send=, bot_can_view=)``,
    ``add_member(guild, name, admin=, dm_blocked=, bot=, extra_permissions=, user=)``,
    ``set_bot_channel_access(channel, can_send=, can_view=)``, ``set_dm_blocked(user)``,
    ``dm_channel(user)``. Entities are the dataclasses ``Guild``, ``Channel``, ``Member``
    (``.id`` is the user id) and ``User``; helpers accept them or plain ids.

Interactions (each returns an ``InteractionRecord``; needs an identified session):
    ``await slash_command(guild, channel, user, name, subcommand=, subgroup=, options=,
    force=)`` (``guild=None``: in the user's DMs) builds the full INTERACTION_CREATE from
    the *registered* schema: option types, required options, choices and bounds are
    checked, user/channel/role options get ``resolved`` data, ``data.guild_id`` is set
    for guild commands, and ``default_member_permissions``/``contexts`` hide commands
    from users as Discord's client does (``force=True`` sends anyway; set
    ``emu.strict_commands = False`` to inject unregistered commands).
    ``await click(message_id, custom_id, user)`` / ``await select(..., values)`` refuse
    missing or disabled components and other users' ephemeral messages, and carry the
    whole message. ``InteractionRecord``: ``payload``, ``callback``, ``await response()``,
    ``original()``, ``followups()``, ``await wait_followups(n)``, ``events`` (callback,
    followup, edit, delete in order), ``rejected`` (refused calls with their codes),
    ``expire()`` (age the token without sleeping), ``age``.
    ``await submit_modal(shown_by, {custom_id: text or [values]})``: the user the bot
    answered with a modal (callback type 9) submits it once; the client's rules
    (required inputs, min/max length, select bounds) raise ValueError first; the
    MODAL_SUBMIT carries the clicked message when the modal came from a component.

Discord's rules enforced:
    callback later than ``emu.interaction_timeout`` (3 s) -> 404 10062; a second
    callback -> 400 40060; callback types checked against the interaction type;
    follow-ups/edits with the token before any callback -> 404 10015, after
    ``emu.followup_ttl`` (15 min) -> 401 50027; the first follow-up after a "thinking"
    defer replaces the placeholder and keeps its visibility. DM to a user with DMs
    blocked (or a bot) -> 403 50007 on the message POST (creating the DM channel
    works). Bot lacking SEND_MESSAGES -> 403 50013, lacking VIEW_CHANNEL -> 403 50001
    (interaction responses still work there). Unknown message 10008 (also for the
    channel route on ephemeral messages), channel 10003, user 10013, member 10007,
    guild 10004, command 10063. Every request body (messages, edits, callbacks,
    follow-ups, command sync, DM channel create) is first checked against Discord's
    published OpenAPI spec (``spec.py``, data in tests/data/discord-openapi): types,
    lengths, ranges (an integer option's max_value past 2**53-1), enums, required
    fields -> 400 50035 with Discord's nested ``errors``; a route the spec lacks is a
    loud 500. Then the rules the spec does not carry (``validation*.py``, each with its
    source): content 2000; 6000 characters over a message's embeds, footer/author/field
    text present, embed url schemes; classic messages 5 action rows, a select alone in
    its row, custom_id present and unique, link/premium button rules, a label or emoji;
    component emoji either a custom emoji id or one Unicode emoji known to the ``emoji``
    package (else BUTTON_COMPONENT_INVALID_EMOJI); select max_values within its
    options, unique option values; components v2 (no content/embeds/poll, 40
    components, 4000 characters); allowed_mentions parse/ids exclusive; flags
    (EPHEMERAL only on interaction answers); at most 10 files, each within the
    attachment size limit (413 40005); modals (1-5 components, one input per row, a
    row's input labelled); callback errors nest under ``data``. Empty message, or an
    edit that empties one -> 50006. Command sync: names in lower case by Discord's
    naming rule, chat-input descriptions, unique names (commands, and options among
    siblings), 100 chat-input commands, 4000 characters a command, option order and
    nesting, autocomplete without choices.
    Missing/wrong bot token -> 401. Privileged intents not granted through
    ``emu.allowed_privileged_intents`` -> gateway close 4014.

Rate limits and faults:
    Every response has X-RateLimit-Limit/Remaining/Reset/Reset-After/Bucket (buckets per
    route and major parameter; generous defaults, ``set_route_limit`` for realistic ones;
    exceeding gives a real 429). Global limit 50/s except interaction routes.
    ``fail_next(method, glob, status=429, retry_after=0.05, code=, message=, times=,
    via=True)`` injects failures; a 429 carries ``Via``, Retry-After, X-RateLimit-* and
    {message, retry_after, global} so discord.py retries it (``via=False`` imitates a
    Cloudflare block). ``invalid_request_count`` counts 401/403/429 answers.
    ``delete_message(id)`` deletes as a moderator (MESSAGE_DELETE; the bot's next edit
    gets 10008).

Gateway:
    HELLO, HEARTBEAT/ACK (``gateway.ack_heartbeats = False`` for zombie tests), IDENTIFY
    -> READY (user, session_id, resume_gateway_url, application {id, flags}, unavailable
    guilds, shard if asked) then GUILD_CREATE per guild (channels, roles, members incl.
    the bot, matching member_count). RESUME replays missed dispatches in sequence then
    RESUMED; unknown session -> op 9. REQUEST_GUILD_MEMBERS answered with one chunk.
    MESSAGE_CREATE/UPDATE/DELETE for the bot's non-ephemeral messages follow the
    GUILD_MESSAGES / DIRECT_MESSAGES intents. Plain JSON text frames (zlib-stream when
    ``gateway.compress = True`` and the client asks). ``await drop_connection(code,
    abrupt=)``, ``hold_reconnects()``/``release_reconnects()`` (keep the bot offline
    while events queue up), ``send_reconnect()``, ``invalidate_session(resumable)``,
    ``gateway_frames``, ``gateway.received(op)``, ``gateway.identify_count``,
    ``gateway.resume_count``.

Recording:
    ``requests(method, path_contains, status=)`` (method, path, query, json, files, time,
    status, response, injected), ``unknown_routes``, ``channel_messages(channel,
    include_deleted=, include_ephemeral=)``, ``dm_messages(user)``,
    ``ephemeral_messages(user)``, ``message(id)``, ``stored_message(id)`` (flags,
    deletion, edit history), ``commands(guild=None)``, ``interactions``,
    ``await wait_for(predicate, timeout=5)`` (re-checked on every change).
    ``refused`` / ``refused_requests(include_injected=, status=, code=)`` list every
    request answered with an error (``RefusedRequest``: method, path, route, status,
    code, message, errors, injected); ``assert_nothing_refused(ignore_codes=)`` is the
    one-line check for a session that must be clean.

REST routes: GET /users/@me, /users/{id}, /oauth2/applications/@me, /applications/@me,
/gateway, /gateway/bot, /guilds/{id}[/channels|/roles|/members/{id}]; application
commands global and per guild (GET/PUT/POST, GET/PATCH/DELETE one; ids kept across
bulk overwrites); GET channel; messages GET list/one, POST (JSON or multipart with
files, served back under /attachments/), PATCH, DELETE; typing; add reaction;
POST /users/@me/channels; POST /interactions/{id}/{token}/callback[?with_response=1]
answering {interaction: {id, type, response_message_id, response_message_loading,
response_message_ephemeral}, resource: {type, message}}; webhook follow-ups POST
/webhooks/{app}/{token} and GET/PATCH/DELETE .../messages/{@original|id}. Responses
use ``Content-Type: application/json`` exactly (discord.py ignores anything else).

Not covered: voice, threads, forum/stage channels, reactions beyond accepting them,
pins, polls, stickers, emojis, presences, invites, bans/kicks/roles management, audit
log, autocomplete injection, user-installed apps, guild member chunking beyond one
chunk, message content for non-bot messages (there are no user messages), the 30046
"old message edit" limit (inject it with ``fail_next(..., code=30046)``), sharding
beyond filtering guilds by shard, ETF encoding, zstd compression. The guild owner is a
synthetic user who is not a member (so nobody in a test has owner powers).
"""

from .client_setup import discord_py_pointed_at, point_discord_py_at
from .emulator import DiscordEmulator
from .interactions import CallbackRecord, InteractionRecord, RejectedCall
from .models import Channel, Guild, Member, StoredMessage, User
from .ratelimit import Limit
from .recording import GatewayFrame, RecordedRequest, RefusedRequest

__all__ = [
    "CallbackRecord",
    "Channel",
    "DiscordEmulator",
    "GatewayFrame",
    "Guild",
    "InteractionRecord",
    "Limit",
    "Member",
    "RecordedRequest",
    "RefusedRequest",
    "RejectedCall",
    "StoredMessage",
    "User",
    "discord_py_pointed_at",
    "point_discord_py_at",
]
