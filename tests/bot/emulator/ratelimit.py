"""Per-route buckets and the global limit, reported in X-RateLimit-* headers.

Buckets are keyed like Discord's: route template plus its major parameter (channel,
guild, webhook/interaction). Limits default to generous values so tests stay fast;
`set_route_limit` makes one route realistic. When a bucket or the global allowance
runs out the request gets a real 429 (with a `Via` header, as Discord's edge adds).
"""

from __future__ import annotations

import hashlib
import math
import time
from dataclasses import dataclass, field

MAJOR_PARAMS = ("channel_id", "guild_id", "webhook_id", "webhook_token", "interaction_id")


@dataclass
class Limit:
    """`limit` requests per `window` seconds."""

    limit: int
    window: float


@dataclass
class _Bucket:
    limit: Limit
    count: int = 0
    started: float = field(default_factory=time.monotonic)

    def roll(self, now: float) -> None:
        if now >= self.started + self.limit.window:
            self.started = now
            self.count = 0

    def reset_after(self, now: float) -> float:
        return max(0.0, self.started + self.limit.window - now)


@dataclass
class Verdict:
    """Outcome of charging one request: headers to send, and whether it is a 429."""

    headers: dict[str, str]
    limited: bool = False
    is_global: bool = False
    retry_after: float = 0.0


class RateLimiter:
    """Counts requests per bucket and globally."""

    def __init__(self, default: Limit | None = None, global_per_second: int | None = 50) -> None:
        self.default = default or Limit(50, 1.0)
        self.global_per_second = global_per_second
        self._route_limits: dict[str, Limit] = {}
        self._buckets: dict[str, _Bucket] = {}
        self._global_count = 0
        self._global_started = time.monotonic()

    def set_route_limit(self, method: str, template: str, limit: int, window: float) -> None:
        """Use `limit` per `window` s for one route template.

        Example: ("PATCH", "/channels/{channel_id}/messages/{message_id}").
        """
        self._route_limits[f"{method.upper()} {template}"] = Limit(limit, window)
        self._buckets.clear()

    @staticmethod
    def bucket_hash(route_key: str) -> str:
        """A stable opaque hash per route, like Discord's X-RateLimit-Bucket."""
        return hashlib.sha1(route_key.encode()).hexdigest()[:16]

    def charge(
        self, method: str, template: str, params: dict[str, str], *, counts_globally: bool
    ) -> Verdict:
        """Count one request against its bucket (and the global limit)."""
        now = time.monotonic()
        route_key = f"{method.upper()} {template}"
        bucket_id = self.bucket_hash(route_key)
        major = "+".join(params[p] for p in MAJOR_PARAMS if p in params)
        key = f"{bucket_id}:{major}"
        limit = self._route_limits.get(route_key, self.default)
        bucket = self._buckets.get(key)
        if bucket is None:
            bucket = self._buckets[key] = _Bucket(limit=limit, started=now)
        bucket.roll(now)
        if counts_globally and self.global_per_second is not None:
            if now >= self._global_started + 1.0:
                self._global_started = now
                self._global_count = 0
            if self._global_count >= self.global_per_second:
                retry = max(0.001, self._global_started + 1.0 - now)
                return Verdict(
                    headers={"X-RateLimit-Global": "true", "X-RateLimit-Scope": "global"},
                    limited=True,
                    is_global=True,
                    retry_after=retry,
                )
            self._global_count += 1
        limited = bucket.count >= limit.limit
        if not limited:
            bucket.count += 1
        reset_after = bucket.reset_after(now)
        headers = self.headers(limit.limit, limit.limit - bucket.count, reset_after, bucket_id)
        if limited:
            headers["X-RateLimit-Scope"] = "user"
        return Verdict(headers=headers, limited=limited, retry_after=max(0.001, reset_after))

    @staticmethod
    def headers(limit: int, remaining: int, reset_after: float, bucket_id: str) -> dict[str, str]:
        """The X-RateLimit-* header set."""
        reset_after = math.ceil(reset_after * 1000) / 1000
        return {
            "X-RateLimit-Limit": str(limit),
            "X-RateLimit-Remaining": str(max(0, remaining)),
            "X-RateLimit-Reset": f"{time.time() + reset_after:.3f}",
            "X-RateLimit-Reset-After": f"{reset_after:.3f}",
            "X-RateLimit-Bucket": bucket_id,
        }
