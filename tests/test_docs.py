"""What a newcomer reads says what the code does.

Every rule id cited in the code, the tests and the README is stated in docs/rules.md; the
links of the README and of docs/ lead to files (and headings) in the repository; nothing
points at the team's documents outside it; docs/replay.md's example is what the replay tool
answers; and the program's descriptions of itself name every game it deals. These read
only the repository's own files: the docs are part of the product.
"""

from __future__ import annotations

import json
import re
import tomllib
from collections.abc import Iterable, Iterator
from pathlib import Path

import pytest

from dealerbot import cli
from dealerbot.bot.cogs.stud import StudCog
from dealerbot.engine.events import ActionKind
from dealerbot.engine.replay import replay_script
from dealerbot.settings import DEFAULT_API_BASE, DEFAULT_GATEWAY_URL

from .engine.test_rule_map import documented_rules, documented_sections, rule_ids

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
DOCS = ROOT / "docs"
RULES_DOC = DOCS / "rules.md"

CITING_DIRS = ("dealerbot", "tests", "benchmarks", "migrations", "docs")
CITING_SUFFIXES = frozenset({".py", ".md", ".sql"})

_SECTION_REF = re.compile(r"(?:\bR|§)(\d+)\b(?!\.\d)")
"""A whole section: ``R12`` or ``§12``, not the ``R12`` of ``R12.1``."""
_OUTSIDE_DOC = re.compile(r"\b(?:RULES|FAIRNESS|REPLAY)\.md\b")
"""The team's documents, which live outside the repository."""


def citing_files() -> Iterator[Path]:
    """Every file whose text may cite a rule: code, tests, scripts, migrations, docs, README."""
    yield README
    for name in CITING_DIRS:
        for path in sorted((ROOT / name).rglob("*")):
            if path.suffix in CITING_SUFFIXES and path.is_file():
                yield path


def citations(paths: Iterable[Path], root: Path = ROOT) -> dict[str, str]:
    """Cited rule id (``R3.1``) or section (``§3``) -> where it is first cited (file:line)."""
    cited: dict[str, str] = {}
    for path in paths:
        lines = path.read_text(encoding="utf-8").splitlines()
        for number, line in enumerate(lines, start=1):
            where = f"{path.relative_to(root)}:{number}"
            try:
                rules = rule_ids(line)
            except ValueError:  # a range across sections: each end is still a citation
                rules = set(re.findall(r"\bR\d+\.\d+", line))
            for rule in sorted(rules):
                cited.setdefault(rule, where)
            for section in _SECTION_REF.findall(line):
                cited.setdefault(f"§{section}", where)
    return cited


def missing_from(cited: dict[str, str], rules_text: str) -> list[str]:
    """The citations a rules page does not state, each with where it was cited."""
    stated = set(documented_rules(rules_text)) | {f"§{n}" for n in documented_sections(rules_text)}
    return [
        f"{ref} (cited at {where})" for ref, where in sorted(cited.items()) if ref not in stated
    ]


def test_every_cited_rule_and_section_is_in_docs_rules() -> None:
    cited = citations(citing_files())
    assert "R3.1" in cited and "§14" in cited, "the scan found none of the usual citations"
    missing = missing_from(cited, RULES_DOC.read_text(encoding="utf-8"))
    assert not missing, f"cited but not stated in docs/rules.md: {missing}"


def test_a_rule_missing_from_the_page_is_reported() -> None:
    text = RULES_DOC.read_text(encoding="utf-8")
    without = re.sub(r"^- \*\*R7\.5\*\*.*$", "", text, flags=re.MULTILINE)
    without = without.replace("## 12 Community card", "## Community card")
    cited = {"R7.5": "x.py:1", "R7.4": "x.py:2", "§12": "x.py:3", "§7": "x.py:4"}
    assert missing_from(cited, text) == []
    assert missing_from(cited, without) == ["R7.5 (cited at x.py:1)", "§12 (cited at x.py:3)"]


def test_citations_expand_ranges_and_tell_sections_from_rules(tmp_path: Path) -> None:
    page = tmp_path / "example.py"
    page.write_text("# R14.2-R14.4 and §9; R12 alone\n# R12.1 is no section; RFC 9162 no rule\n")
    found = citations([page], root=tmp_path)
    assert found == {
        "R14.2": "example.py:1",
        "R14.3": "example.py:1",
        "R14.4": "example.py:1",
        "§9": "example.py:1",
        "§12": "example.py:1",
        "R12.1": "example.py:2",
    }


def test_the_rules_page_numbers_its_rules_in_order_once_each() -> None:
    text = RULES_DOC.read_text(encoding="utf-8")
    sections = documented_sections(text)
    assert sections == list(range(1, len(sections) + 1)), "sections are 1, 2, 3, ... in order"
    rules = documented_rules(text)
    expected = []
    for section in sections:
        count = sum(1 for rule in rules if rule.startswith(f"R{section}."))
        assert count, f"section {section} states no rule"
        expected += [f"R{section}.{n}" for n in range(1, count + 1)]
    assert rules == expected, "each section's rules are numbered 1, 2, 3, ... once each"


def test_nothing_points_at_the_team_documents_outside_the_repository() -> None:
    stale = []
    for path in citing_files():
        if path.suffix == ".sql":
            continue  # an applied migration is never edited, its comments included
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if _OUTSIDE_DOC.search(line):
                stale.append(f"{path.relative_to(ROOT)}:{number}")
    assert not stale, f"these cite a document outside the repository (use docs/): {stale}"


# Links

_LINK = re.compile(r"(?<!!)\[[^\]]*\]\(([^)\s]+)\)")
_FENCE = re.compile(r"^```.*?^```", re.MULTILINE | re.DOTALL)


def heading_anchors(text: str) -> set[str]:
    """The anchors GitHub gives a Markdown file's headings (``#where-each-rule-lives``)."""
    anchors: set[str] = set()
    seen: dict[str, int] = {}
    for heading in re.findall(r"^#{1,6} (.+?)\s*$", _FENCE.sub("", text), re.MULTILINE):
        slug = re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")
        count = seen.get(slug, 0)
        seen[slug] = count + 1
        anchors.add(slug if count == 0 else f"{slug}-{count}")
    return anchors


def broken_links(page: Path, root: Path = ROOT) -> list[str]:
    """The links of a Markdown page that lead to no file or heading in the repository."""
    text = page.read_text(encoding="utf-8")
    broken = []
    for target in _LINK.findall(_FENCE.sub("", text)):
        if re.match(r"[a-z]+:", target):
            continue  # https:, mailto: lead outside
        file_part, _, anchor = target.partition("#")
        linked = (page.parent / file_part).resolve() if file_part else page
        if not linked.is_relative_to(root) or not linked.is_file():
            broken.append(f"{target} (no such file in the repository)")
        elif anchor and anchor not in heading_anchors(linked.read_text(encoding="utf-8")):
            broken.append(f"{target} (no such heading)")
    return broken


@pytest.mark.parametrize(
    "page", [README, *sorted(DOCS.glob("*.md"))], ids=lambda page: page.relative_to(ROOT).as_posix()
)
def test_links_lead_to_files_and_headings_in_the_repository(page: Path) -> None:
    assert not broken_links(page)


def test_the_readme_links_the_rules_and_the_fairness_scheme() -> None:
    targets = {t.partition("#")[0] for t in _LINK.findall(README.read_text(encoding="utf-8"))}
    assert {"docs/rules.md", "docs/fairness.md"} <= targets


def test_a_broken_link_is_reported(tmp_path: Path) -> None:
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "rules.md").write_text("# The rules\n## 1 Setup\n", encoding="utf-8")
    far = "../" * len(tmp_path.parts) + "etc/hosts"  # a file outside the repository
    page = tmp_path / "docs" / "page.md"
    page.write_text(
        "# Top\n[ok](rules.md#1-setup) [up](#top) [web](https://example.com)\n"
        f"[gone](nothing.md) [far]({far}) [lost](rules.md#no-such-heading)\n",
        encoding="utf-8",
    )
    assert broken_links(page, root=tmp_path) == [
        "nothing.md (no such file in the repository)",
        f"{far} (no such file in the repository)",
        "rules.md#no-such-heading (no such heading)",
    ]


# docs/replay.md


def replay_doc_block(heading: str, language: str) -> str:
    text = (DOCS / "replay.md").read_text(encoding="utf-8")
    section = text[text.index(heading) :]
    match = re.search(rf"```{language}\n(.*?)```", section, re.DOTALL)
    assert match is not None, f"docs/replay.md shows a {language} block under {heading!r}"
    return match.group(1)


def test_the_replay_example_gives_the_result_the_page_shows() -> None:
    script = json.loads(replay_doc_block("## The script", "json"))
    shown = json.loads(replay_doc_block("## The result", "json"))
    assert replay_script(script) == shown


def test_the_replay_page_lists_every_action_name() -> None:
    names = replay_doc_block("## The script", "text").split()
    assert names == [kind.value for kind in ActionKind]


# What the program says it is


def names_every_game(text: str) -> bool:
    return all(game in text for game in ("Seven Card Stud", "Hi/Lo", "Razz"))


def test_the_package_description_names_every_game() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    assert names_every_game(project["description"])


def test_dealerbot_help_names_every_game() -> None:
    assert names_every_game(cli.build_parser().description or "")


def command_description_limit() -> int:
    """The longest command description Discord takes, from its published OpenAPI spec."""
    spec = json.loads((ROOT / "tests" / "data" / "discord-openapi" / "openapi.json").read_text())
    request = spec["components"]["schemas"]["ApplicationCommandCreateRequest"]
    return int(request["properties"]["description"]["maxLength"])


def test_the_stud_group_names_every_game_within_discords_limit() -> None:
    description = StudCog.__cog_group_description__
    assert names_every_game(description)
    assert 1 <= len(description) <= command_description_limit()


def test_dealerbot_db_alone_shows_its_sub_commands_and_exits_2(
    capsys: pytest.CaptureFixture[str],
) -> None:
    with pytest.raises(SystemExit) as stop:
        cli.main(["db"])
    assert stop.value.code == 2
    err = capsys.readouterr().err
    assert "usage: dealerbot db" in err
    assert all(name in err for name in ("upgrade", "check", "copy", "prune"))
    assert "db_command" not in err


def test_the_env_example_leaves_the_discord_urls_unset_and_shows_their_defaults() -> None:
    lines = (ROOT / ".env.example").read_text(encoding="utf-8").splitlines()
    for name, default in (
        ("DISCORD_API_BASE", DEFAULT_API_BASE),
        ("DISCORD_GATEWAY_URL", DEFAULT_GATEWAY_URL),
    ):
        assert not [line for line in lines if line.startswith(f"{name}=")], f"{name} is set"
        assert f"# {name}={default}" in lines, f"{name} is not shown as an optional setting"
