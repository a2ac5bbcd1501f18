"""A real headless browser for the hand page's tests: the system's Chromium, nothing downloaded.

The page is opened from a file (``file://`` is a secure context in Chromium, so Web Crypto
works there) with ``--dump-dom``, which prints the DOM once the page's script has run
(``--virtual-time-budget`` lets its promises settle), and read back with ``html.parser``.

Where no Chromium is installed the tests are skipped with how to install it, unless
``DEALERBOT_REQUIRE_BROWSER=1`` (``.ci/run`` sets it): then they fail, so CI cannot pass by
skipping them.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path

import pytest

INSTALL = "apt-get install chromium (Debian's package; or set DEALERBOT_CHROMIUM to a Chromium)"
REQUIRE = "DEALERBOT_REQUIRE_BROWSER"


def chromium_path() -> str | None:
    named = os.environ.get("DEALERBOT_CHROMIUM")
    if named:
        return named if Path(named).is_file() else None
    return shutil.which("chromium") or shutil.which("chromium-browser")


def chromium_or_skip() -> str:
    """The browser, or the test is skipped (failed under DEALERBOT_REQUIRE_BROWSER=1)."""
    path = chromium_path()
    if path is None:
        message = f"no Chromium for the hand page's browser tests: {INSTALL}"
        if os.environ.get(REQUIRE) == "1":
            pytest.fail(f"{message} ({REQUIRE}=1: this run must not skip them)")
        pytest.skip(message)
    return path


@dataclass
class Node:
    tag: str
    attrs: dict[str, str]
    children: list[Node | str] = field(default_factory=list)

    def text(self) -> str:
        return "".join(c if isinstance(c, str) else c.text() for c in self.children)

    def walk(self) -> list[Node]:
        found = [self]
        for child in self.children:
            if isinstance(child, Node):
                found.extend(child.walk())
        return found

    def by_id(self, name: str) -> Node:
        for node in self.walk():
            if node.attrs.get("id") == name:
                return node
        raise KeyError(name)

    def visible_text(self) -> str:
        """The text a reader sees: no script, style or noscript element."""
        if self.tag in {"script", "style", "noscript"}:
            return ""
        return "".join(c if isinstance(c, str) else c.visible_text() for c in self.children)


VOID = {"meta", "link", "br", "img", "input", "hr", "wbr", "source", "area", "base", "col"}


class _TreeBuilder(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.root = Node("#document", {})
        self.stack = [self.root]

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        node = Node(tag, {k: v or "" for k, v in attrs})
        self.stack[-1].children.append(node)
        if tag not in VOID:
            self.stack.append(node)

    def handle_endtag(self, tag: str) -> None:
        for depth in range(len(self.stack) - 1, 0, -1):
            if self.stack[depth].tag == tag:
                del self.stack[depth:]
                return

    def handle_data(self, data: str) -> None:
        self.stack[-1].children.append(data)


def parse_dom(text: str) -> Node:
    builder = _TreeBuilder()
    builder.feed(text)
    builder.close()
    return builder.root


def rendered(chromium: str, html: str, tmp: Path) -> Node:
    """The page's DOM after its script ran in headless Chromium, offline, from a file."""
    page = tmp / "page.html"
    page.write_text(html, encoding="utf-8")
    with tempfile.TemporaryDirectory(dir=tmp) as profile:
        result = subprocess.run(
            [
                chromium,
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--no-first-run",
                f"--user-data-dir={profile}",
                "--virtual-time-budget=10000",
                "--dump-dom",
                page.as_uri(),
            ],
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        )
    assert result.returncode == 0, f"chromium exited {result.returncode}:\n{result.stderr[-2000:]}"
    assert "<html" in result.stdout, f"chromium printed no DOM:\n{result.stderr[-2000:]}"
    return parse_dom(result.stdout)
