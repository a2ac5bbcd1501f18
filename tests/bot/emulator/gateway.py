"""The gateway websocket: HELLO, heartbeats, IDENTIFY/READY, RESUME with replay.

Each identified session numbers its dispatches and keeps them all, so a client that
lost its connection can RESUME and receive what it missed, then RESUMED. Frames go out
through one writer task per connection, which keeps them in sequence order. Text
frames are plain JSON unless `compress` is on and the client asked for zlib-stream.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import secrets
import zlib
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from aiohttp import WSMsgType, web

from .models import JSON
from .payloads import bot_user_payload, member_payload
from .recording import ChangeNotifier, GatewayFrame
from .world import World

DISPATCH, HEARTBEAT, IDENTIFY, PRESENCE, VOICE_STATE = 0, 1, 2, 3, 4
RESUME, RECONNECT, REQUEST_MEMBERS, INVALID_SESSION, HELLO, HEARTBEAT_ACK = 6, 7, 8, 9, 10, 11

PRIVILEGED_INTENTS = (1 << 1) | (1 << 8) | (1 << 15)
NOT_BUFFERED = frozenset({"READY", "RESUMED"})


@dataclass
class Connection:
    """One websocket connection and its outgoing queue."""

    ws: web.WebSocketResponse
    request: web.Request
    path: str
    compressor: Any = None
    outbox: asyncio.Queue[tuple[str | None, asyncio.Future[bool] | None]] = field(
        default_factory=asyncio.Queue
    )
    session: GatewaySession | None = None
    writer: asyncio.Task[None] | None = None


@dataclass
class GatewaySession:
    """An identified session: its sequence counter and every dispatch it carried."""

    id: str
    intents: int
    shard: list[int] | None
    seq: int = 0
    buffer: list[tuple[int, str, JSON]] = field(default_factory=list)
    connection: Connection | None = None


class Gateway:
    """Serves the gateway websocket and routes dispatches to the current session."""

    def __init__(
        self,
        *,
        world: World,
        notifier: ChangeNotifier,
        token: Callable[[], str],
        application: Callable[[], JSON],
        resume_url: Callable[[], str],
        heartbeat_interval_ms: int = 41250,
    ) -> None:
        self.world = world
        self.notifier = notifier
        self._token = token
        self._application = application
        self._resume_url = resume_url
        self.heartbeat_interval_ms = heartbeat_interval_ms
        self.ack_heartbeats = True
        self.compress = False
        self.allowed_privileged_intents = 0
        self.sessions: dict[str, GatewaySession] = {}
        self.current: GatewaySession | None = None
        self.connections: list[Connection] = []
        self.frames: list[GatewayFrame] = []
        self.identify_count = 0
        self.recommended_shards = 1  # what GET /gateway/bot answers
        self.resume_count = 0
        self.reconnect_gate = asyncio.Event()
        self.reconnect_gate.set()

    # ----- state for tests -------------------------------------------------------
    @property
    def connected(self) -> bool:
        """Whether the current session has a live connection."""
        return self.current is not None and self.current.connection is not None

    def received(self, op: int) -> list[GatewayFrame]:
        """Frames with this opcode the client sent."""
        return [f for f in self.frames if f.direction == "in" and f.op == op]

    # ----- dispatching -------------------------------------------------------------
    def dispatch(
        self, t: str, d: JSON, intent: int | None = None, session: GatewaySession | None = None
    ) -> asyncio.Future[bool] | None:
        """Queue a dispatch; the future resolves once written.

        It goes to ``session`` if given; else a guild's event goes to every sharded session
        whose shard owns the guild (``(guild_id >> 22) % count == shard_id``, as Discord
        routes them) and to the current session if it is not sharded; anything else to
        shard 0's sessions (direct messages), or the current session when none is sharded.
        """
        if session is not None:
            return self._dispatch_to(session, t, d, intent)
        futures = [
            f for s in self._targets(t, d) if (f := self._dispatch_to(s, t, d, intent)) is not None
        ]
        if len(futures) <= 1:
            return futures[0] if futures else None
        every: asyncio.Future[bool] = asyncio.get_running_loop().create_future()

        def done(_: asyncio.Future[bool]) -> None:
            if not every.done() and all(f.done() for f in futures):
                every.set_result(any(f.result() for f in futures))

        for future in futures:
            future.add_done_callback(done)
        return every

    def _targets(self, t: str, d: JSON) -> list[GatewaySession]:
        guild_id = _guild_of(t, d)
        current = [] if self.current is None else [self.current]
        sharded = [s for s in self.sessions.values() if s.shard]
        if not sharded:
            return current
        if guild_id is None:  # direct messages and the like: shard 0 only, as Discord does
            return [s for s in sharded if s.shard and int(s.shard[0]) == 0]
        owners = [s for s in sharded if _on_shard(guild_id, s.shard)]
        return owners + [s for s in current if not s.shard and s not in owners]

    def _dispatch_to(
        self, session: GatewaySession, t: str, d: JSON, intent: int | None
    ) -> asyncio.Future[bool] | None:
        if intent is not None and not session.intents & intent:
            return None
        session.seq += 1
        if t not in NOT_BUFFERED:
            session.buffer.append((session.seq, t, d))
        conn = session.connection
        if conn is None:
            return None
        future: asyncio.Future[bool] = asyncio.get_running_loop().create_future()
        self._send(conn, {"op": DISPATCH, "t": t, "s": session.seq, "d": d}, future)
        return future

    def _send(
        self, conn: Connection, payload: JSON, future: asyncio.Future[bool] | None = None
    ) -> None:
        self.frames.append(
            GatewayFrame("out", payload["op"], payload.get("t"), payload.get("s"), payload.get("d"))
        )
        conn.outbox.put_nowait((json.dumps(payload), future))

    async def _writer(self, conn: Connection) -> None:
        while True:
            text, future = await conn.outbox.get()
            if text is None:
                break
            try:
                if conn.compressor is not None:
                    data = conn.compressor.compress(text.encode())
                    data += conn.compressor.flush(zlib.Z_SYNC_FLUSH)
                    await conn.ws.send_bytes(data)
                else:
                    await conn.ws.send_str(text)
            except (ConnectionError, RuntimeError):
                if future is not None and not future.done():
                    future.set_result(False)
                break
            if future is not None and not future.done():
                future.set_result(True)
        while not conn.outbox.empty():
            _, future = conn.outbox.get_nowait()
            if future is not None and not future.done():
                future.set_result(False)

    # ----- connection lifecycle --------------------------------------------------
    async def handle(self, request: web.Request) -> web.WebSocketResponse:
        """aiohttp handler for /gateway and /gateway/resume."""
        ws = web.WebSocketResponse(max_msg_size=0, timeout=2.0)
        await ws.prepare(request)
        conn = Connection(ws=ws, request=request, path=request.path)
        if self.compress and request.query.get("compress") == "zlib-stream":
            conn.compressor = zlib.compressobj()
        self.connections.append(conn)
        conn.writer = asyncio.create_task(self._writer(conn))
        self._send(conn, {"op": HELLO, "d": {"heartbeat_interval": self.heartbeat_interval_ms}})
        try:
            if request.query.get("encoding", "json") != "json":
                await ws.close(code=4002, message=b"Only JSON encoding is emulated.")
            async for msg in ws:
                if msg.type is WSMsgType.TEXT:
                    await self._on_payload(conn, json.loads(msg.data))
                elif msg.type is WSMsgType.BINARY:
                    await ws.close(code=4002, message=b"Error while decoding payload.")
                else:
                    break
        finally:
            self._detach(conn)
        return ws

    def _detach(self, conn: Connection) -> None:
        if conn.session is not None and conn.session.connection is conn:
            conn.session.connection = None
        if conn in self.connections:
            self.connections.remove(conn)
        conn.outbox.put_nowait((None, None))
        self.notifier.notify()

    async def drop_connection(self, code: int = 4000, *, abrupt: bool = False) -> None:
        """Close the current connection (the session stays resumable)."""
        session = self.current
        conn = session.connection if session else None
        if conn is None:
            raise RuntimeError("no live gateway connection to drop")
        if session is not None:
            session.connection = None
        if abrupt:
            transport = conn.request.transport
            if transport is not None:
                transport.abort()
        else:
            await conn.ws.close(code=code, message=b"Emulator dropped the connection.")
        self.notifier.notify()

    def send_reconnect(self) -> None:
        """Ask the client to reconnect and resume (op 7)."""
        conn = self.current.connection if self.current else None
        if conn is None:
            raise RuntimeError("no live gateway connection")
        self._send(conn, {"op": RECONNECT, "d": None})

    def invalidate_session(self, resumable: bool = False) -> None:
        """Send op 9; when not resumable the session is forgotten."""
        session = self.current
        conn = session.connection if session else None
        if conn is None or session is None:
            raise RuntimeError("no live gateway connection")
        if not resumable:
            self.sessions.pop(session.id, None)
            self.current = None
        self._send(conn, {"op": INVALID_SESSION, "d": resumable})

    async def close_all(self) -> None:
        """Close every connection (emulator shutdown)."""
        self.reconnect_gate.set()
        for conn in list(self.connections):
            with contextlib.suppress(Exception):
                await conn.ws.close(code=1001, message=b"Emulator stopping.")
            if conn.writer is not None:
                conn.writer.cancel()
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await conn.writer

    # ----- opcodes -----------------------------------------------------------------
    async def _on_payload(self, conn: Connection, payload: JSON) -> None:
        op = payload.get("op")
        data = payload.get("d")
        self.frames.append(GatewayFrame("in", int(op or -1), None, None, data))
        self.notifier.notify()
        if op == HEARTBEAT:
            if self.ack_heartbeats:
                self._send(conn, {"op": HEARTBEAT_ACK, "d": None})
        elif op == IDENTIFY:
            await self._identify(conn, data or {})
        elif op == RESUME:
            await self._resume(conn, data or {})
        elif op == REQUEST_MEMBERS:
            self._request_members(conn, data or {})
        elif op in (PRESENCE, VOICE_STATE):
            return
        else:
            await conn.ws.close(code=4001, message=b"Unknown opcode.")

    async def _identify(self, conn: Connection, data: JSON) -> None:
        await self.reconnect_gate.wait()
        if conn.session is not None:
            await conn.ws.close(code=4005, message=b"Already authenticated.")
            return
        if data.get("token") != self._token():
            await conn.ws.close(code=4004, message=b"Authentication failed.")
            return
        intents = int(data.get("intents") or 0)
        if intents & PRIVILEGED_INTENTS & ~self.allowed_privileged_intents:
            await conn.ws.close(code=4014, message=b"Disallowed intent(s).")
            return
        shard = data.get("shard")
        session = GatewaySession(id=secrets.token_hex(16), intents=intents, shard=shard)
        self.sessions[session.id] = session
        self.current = session
        session.connection = conn
        conn.session = session
        self.identify_count += 1
        guilds = [g for g in self.world.guilds.values() if _on_shard(g.id, shard)]
        ready: JSON = {
            "v": 10,
            "user": bot_user_payload(self.world.bot_user),
            "guilds": [{"id": str(g.id), "unavailable": True} for g in guilds],
            "session_id": session.id,
            "session_type": "normal",
            "resume_gateway_url": self._resume_url(),
            "application": self._application(),
            "private_channels": [],
            "relationships": [],
            "presences": [],
            "guild_join_requests": [],
            "geo_ordered_rtc_regions": [],
            "user_settings": {},
            "auth": {},
            "_trace": ["dealerbot-emulator"],
        }
        if shard is not None:
            ready["shard"] = shard
        self.dispatch("READY", ready, session=session)
        for guild in guilds:
            self.dispatch("GUILD_CREATE", self.world.guild_create_payload(guild), session=session)
        self.notifier.notify()

    async def _resume(self, conn: Connection, data: JSON) -> None:
        await self.reconnect_gate.wait()
        session = self.sessions.get(str(data.get("session_id")))
        if data.get("token") != self._token():
            await conn.ws.close(code=4004, message=b"Authentication failed.")
            return
        if session is None or (session is not self.current and not session.shard):
            self._send(conn, {"op": INVALID_SESSION, "d": False})
            return
        last = int(data.get("seq") or 0)
        old = session.connection
        if old is not None and old is not conn:
            old.session = None
            with contextlib.suppress(Exception):
                await old.ws.close(code=4000, message=b"Session resumed elsewhere.")
        for seq, t, d in session.buffer:
            if seq > last:
                self._send(conn, {"op": DISPATCH, "t": t, "s": seq, "d": d})
        session.connection = conn
        conn.session = session
        self.resume_count += 1
        self.dispatch("RESUMED", {"_trace": ["dealerbot-emulator"]}, session=session)
        self.notifier.notify()

    def _request_members(self, conn: Connection, data: JSON) -> None:
        guild = self.world.guilds.get(int(data.get("guild_id") or 0))
        if guild is None or conn.session is None:
            return
        wanted = data.get("user_ids")
        query = str(data.get("query") or "").lower()
        limit = int(data.get("limit") or 0)
        members = []
        not_found: list[str] = []
        if wanted is not None:
            ids = [int(x) for x in (wanted if isinstance(wanted, list) else [wanted])]
            for uid in ids:
                if uid in guild.members:
                    members.append(guild.members[uid])
                else:
                    not_found.append(str(uid))
        else:
            members = [m for m in guild.members.values() if m.name.lower().startswith(query)]
            if limit:
                members = members[:limit]
        chunk: JSON = {
            "guild_id": str(guild.id),
            "members": [member_payload(m) for m in members],
            "chunk_index": 0,
            "chunk_count": 1,
            "not_found": not_found,
        }
        if data.get("nonce") is not None:
            chunk["nonce"] = data["nonce"]
        if data.get("presences"):
            chunk["presences"] = []
        self.dispatch("GUILD_MEMBERS_CHUNK", chunk, session=conn.session)


def _guild_of(t: str, d: JSON) -> int | None:
    """The guild a dispatch is about (None: not a guild's event)."""
    raw = (
        d.get("id") if t in ("GUILD_CREATE", "GUILD_UPDATE", "GUILD_DELETE") else d.get("guild_id")
    )
    return int(raw) if raw is not None else None


def _on_shard(guild_id: int, shard: list[int] | None) -> bool:
    if not shard:
        return True
    shard_id, count = int(shard[0]), int(shard[1])
    return (guild_id >> 22) % count == shard_id
