"""Fault injection: make the next matching request(s) fail with a chosen status."""

from __future__ import annotations

import fnmatch
from dataclasses import dataclass, field
from typing import Any

JSON = dict[str, Any]


@dataclass
class FaultRule:
    """Fail `times` requests matching `method` and the glob `pattern` (path after /api/v10)."""

    method: str
    pattern: str
    status: int = 429
    retry_after: float = 0.05
    code: int | None = None
    message: str | None = None
    is_global: bool = False
    body: JSON | None = None
    headers: dict[str, str] = field(default_factory=dict)
    times: int = 1
    via: bool = True
    """Send the `Via` header; without it discord.py takes a 429 for a Cloudflare ban."""
    hits: int = 0

    def matches(self, method: str, path: str) -> bool:
        """Whether a request is one this rule should fail."""
        if self.hits >= self.times:
            return False
        if self.method != "*" and self.method.upper() != method.upper():
            return False
        return fnmatch.fnmatchcase(path, self.pattern)

    def response_body(self) -> JSON:
        """The JSON body of the injected failure."""
        if self.body is not None:
            return dict(self.body)
        if self.status == 429:
            data: JSON = {
                "message": self.message or "You are being rate limited.",
                "retry_after": self.retry_after,
                "global": self.is_global,
            }
            if self.code is not None:
                data["code"] = self.code
            return data
        return {
            "message": self.message or f"{self.status}: Injected failure",
            "code": self.code or 0,
        }


class FaultInjector:
    """Holds pending fault rules; the first live match wins."""

    def __init__(self) -> None:
        self.rules: list[FaultRule] = []

    def add(self, rule: FaultRule) -> FaultRule:
        self.rules.append(rule)
        return rule

    def take(self, method: str, path: str) -> FaultRule | None:
        """The rule to apply to this request, consuming one of its uses."""
        for rule in self.rules:
            if rule.matches(method, path):
                rule.hits += 1
                return rule
        return None

    def pending(self) -> list[FaultRule]:
        """Rules with uses left."""
        return [r for r in self.rules if r.hits < r.times]
