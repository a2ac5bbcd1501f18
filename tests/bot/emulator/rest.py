"""REST plumbing: a small router plus the per-request pipeline.

Pipeline for every /api/v10 request: parse the body (JSON or multipart with
payload_json), record it, check the bot token, apply injected faults, charge the rate
limiter, check the body against the operation's schema in Discord's OpenAPI spec
(`spec.py`; 400 50035 when it does not conform), run the handler, and answer JSON with
`Content-Type: application/json` exactly (discord.py ignores bodies whose content type
carries a charset).
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from aiohttp import BodyPartReader, web

from .errors import ApiError, method_not_allowed, not_found, unauthorized
from .faults import FaultInjector
from .models import JSON
from .ratelimit import RateLimiter
from .recording import ChangeNotifier, RecordedRequest, RefusedRequest
from .spec import DiscordSpec, discord_spec

API_PREFIX = "/api/v10"
INVALID_STATUSES = frozenset({401, 403, 429})


@dataclass
class Req:
    """A parsed request as handlers see it."""

    method: str
    path: str
    params: dict[str, str]
    query: dict[str, str]
    json: Any
    files: list[JSON]
    headers: dict[str, str]
    base_url: str

    @property
    def body(self) -> JSON:
        """The JSON body as a dict ({} when absent)."""
        return self.json if isinstance(self.json, dict) else {}


@dataclass
class Reply:
    """A handler's answer; `body=None` with status 204 means no content."""

    body: Any = None
    status: int = 200
    headers: dict[str, str] = field(default_factory=dict)


Handler = Callable[[Req], Awaitable[Reply]]
RefusalHook = Callable[[Req, ApiError], None]


@dataclass
class Route:
    """One REST route: template, handler and how it is authenticated/limited."""

    method: str
    template: str
    handler: Handler
    needs_bot_token: bool = True
    interaction: bool = False
    on_invalid_body: RefusalHook | None = None
    """Told when the spec refuses the body (interaction routes record it on the record)."""
    regex: re.Pattern[str] = field(init=False)

    def __post_init__(self) -> None:
        pattern = re.sub(r"\{(\w+)\}", r"(?P<\1>[^/]+)", self.template)
        self.regex = re.compile(f"^{pattern}$")


class RestPipeline:
    """Routes /api/v10 requests through recording, auth, faults and rate limits."""

    def __init__(
        self,
        *,
        token: Callable[[], str],
        limiter: RateLimiter,
        faults: FaultInjector,
        notifier: ChangeNotifier,
        spec: DiscordSpec | None = None,
    ) -> None:
        self._token = token
        self.spec = spec or discord_spec()
        self.limiter = limiter
        self.faults = faults
        self.notifier = notifier
        self.routes: list[Route] = []
        self.requests: list[RecordedRequest] = []
        self.unknown_routes: list[tuple[str, str]] = []
        self.invalid_requests = 0
        self.refused: list[RefusedRequest] = []
        self.send_via_header = True

    def add(
        self,
        method: str,
        template: str,
        handler: Handler,
        *,
        needs_bot_token: bool = True,
        interaction: bool = False,
        on_invalid_body: RefusalHook | None = None,
    ) -> None:
        """Register a route; templates are paths after /api/v10 with {name} parts."""
        self.routes.append(
            Route(method, template, handler, needs_bot_token, interaction, on_invalid_body)
        )

    def routes_without_operation(self) -> list[str]:
        """Routes served here that Discord's spec does not have (the tests want none)."""
        return [
            f"{r.method} {r.template}"
            for r in self.routes
            if self.spec.operation(r.method, r.template) is None
        ]

    def check_body(self, route: Route, body: Any) -> None:
        """400 50035 when a sent body breaks the spec; loud when the spec lacks the route."""
        if body is None:
            return
        if self.spec.operation(route.method, route.template) is None:
            raise ApiError(
                500, 0, f"emulator: {route.method} {route.template} is not in Discord's spec"
            )
        self.spec.check(route.method, route.template, body)

    def _match(self, method: str, path: str) -> tuple[Route | None, dict[str, str], bool]:
        path_known = False
        for route in self.routes:
            found = route.regex.match(path)
            if found is None:
                continue
            path_known = True
            if route.method == method:
                return route, found.groupdict(), True
        return None, {}, path_known

    async def handle(self, request: web.Request) -> web.StreamResponse:
        """aiohttp handler for everything under /api/v10."""
        path = request.path[len(API_PREFIX) :] or "/"
        record = RecordedRequest(
            method=request.method,
            path=path,
            query=dict(request.query),
            json=None,
            time=time.monotonic(),
        )
        self.requests.append(record)
        headers: dict[str, str] = {}
        route: Route | None = None
        try:
            body, files = await _read_body(request)
            record.json = body
            record.files = [{k: v for k, v in f.items() if k != "data"} for f in files]
            route, params, path_known = self._match(request.method, path)
            if route is None:
                self.unknown_routes.append((request.method, path))
                raise method_not_allowed() if path_known else not_found()
            if (
                route.needs_bot_token
                and request.headers.get("Authorization") != f"Bot {self._token()}"
            ):
                raise unauthorized()
            rule = self.faults.take(request.method, path)
            if rule is not None:
                record.injected = True
                reply = self._fault_reply(rule.status, rule.response_body(), rule.retry_after)
                reply.headers.update(rule.headers)
                if rule.status == 429 and not rule.is_global:
                    reply.headers.update(self._bucket_headers_exhausted(route, rule.retry_after))
                return self._finish(record, reply, via=rule.via, route=route)
            verdict = self.limiter.charge(
                request.method, route.template, params, counts_globally=not route.interaction
            )
            headers.update(verdict.headers)
            if verdict.limited:
                body_429 = {
                    "message": "You are being rate limited.",
                    "retry_after": round(verdict.retry_after, 3),
                    "global": verdict.is_global,
                }
                reply = self._fault_reply(429, body_429, verdict.retry_after)
                reply.headers.update(headers)
                return self._finish(record, reply, route=route)
            req = Req(
                method=request.method,
                path=path,
                params=params,
                query=dict(request.query),
                json=body,
                files=files,
                headers=dict(request.headers),
                base_url=f"{request.scheme}://{request.host}",
            )
            try:
                self.check_body(route, body)
            except ApiError as error:
                if route.on_invalid_body is not None:
                    route.on_invalid_body(req, error)
                raise
            reply = await route.handler(req)
        except ApiError as exc:
            reply = Reply(exc.body(), exc.status)
        reply.headers = {**headers, **reply.headers}
        return self._finish(record, reply, route=route)

    def _bucket_headers_exhausted(self, route: Route, retry_after: float) -> dict[str, str]:
        key = f"{route.method} {route.template}"
        return RateLimiter.headers(1, 0, retry_after, RateLimiter.bucket_hash(key))

    def _fault_reply(self, status: int, body: JSON, retry_after: float) -> Reply:
        headers: dict[str, str] = {}
        if status == 429:
            headers["Retry-After"] = str(max(1, round(retry_after)))
        return Reply(body, status, headers)

    def _finish(
        self,
        record: RecordedRequest,
        reply: Reply,
        *,
        via: bool = True,
        route: Route | None = None,
    ) -> web.StreamResponse:
        record.status = reply.status
        record.response = reply.body
        if reply.status >= 400:
            self.refused.append(_refusal(record, reply, route))
        if reply.status in INVALID_STATUSES:
            self.invalid_requests += 1
        headers = dict(reply.headers)
        if via and self.send_via_header:
            headers.setdefault("Via", "1.1 google")
        self.notifier.notify()
        if reply.status == 204 or (reply.body is None and reply.status < 300):
            return web.Response(status=204, headers=headers)
        headers["Content-Type"] = "application/json"
        return web.Response(
            status=reply.status, body=json.dumps(reply.body).encode(), headers=headers
        )


def _refusal(record: RecordedRequest, reply: Reply, route: Route | None) -> RefusedRequest:
    body = reply.body if isinstance(reply.body, dict) else {}
    code = body.get("code")
    return RefusedRequest(
        method=record.method,
        path=record.path,
        route=None if route is None else route.template,
        status=reply.status,
        code=int(code) if isinstance(code, int) else None,
        message=body.get("message"),
        errors=body.get("errors"),
        injected=record.injected,
        body=record.json,
        answer=reply.body,
    )


async def _read_body(request: web.Request) -> tuple[Any, list[JSON]]:
    """JSON body, or multipart `payload_json` plus files."""
    if not request.can_read_body:
        return None, []
    content_type = request.content_type
    if content_type.startswith("multipart/"):
        payload: Any = None
        files: list[JSON] = []
        reader = await request.multipart()
        while True:
            part = await reader.next()
            if part is None:
                break
            if not isinstance(part, BodyPartReader):
                continue
            name = part.name
            data = await part.read()
            if name == "payload_json":
                payload = json.loads(bytes(data).decode() or "null")
            else:
                files.append(
                    {
                        "field": name,
                        "filename": part.filename or "file",
                        "content_type": part.headers.get("Content-Type"),
                        "size": len(data),
                        "data": bytes(data),
                        "base_url": f"{request.scheme}://{request.host}",
                    }
                )
        return payload, files
    text = await request.text()
    if not text:
        return None, []
    try:
        return json.loads(text), []
    except json.JSONDecodeError:
        raise ApiError(400, 50109, "The request body contains invalid JSON.") from None
