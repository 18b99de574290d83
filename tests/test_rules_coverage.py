"""The rules-coverage table (``docs/rules-coverage.md``) holds: every test it names exists, every
place it names exists (a function in ``ygo_fsm`` or a declared state or transition), every row
has a source and a status, implemented rows name a test, the others say why, and the counts it
states are the table's."""

from __future__ import annotations

import ast
import importlib
import re
from functools import cache
from pathlib import Path

import pytest

from ygo_fsm.engine import default_rulebook

ROOT = Path(__file__).resolve().parent.parent
PAGE = ROOT / "docs" / "rules-coverage.md"
STATUSES = ("yes", "no", "out of scope")


def rows() -> list[dict[str, str]]:
    found = []
    for line in PAGE.read_text(encoding="utf-8").splitlines():
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if not line.startswith("|") or len(cells) != 6 or cells[0] in ("id", "---"):
            continue
        found.append(dict(zip(("id", "rule", "source", "modern", "where", "test"), cells, strict=True)))
    return found


ROWS = rows()


@cache
def defined_functions(path: str) -> frozenset[str]:
    tree = ast.parse((ROOT / "tests" / path).read_text(encoding="utf-8"))
    return frozenset(node.name for node in ast.walk(tree) if isinstance(node, ast.FunctionDef))


def place_exists(place: str) -> bool:
    """``module.attribute[.attribute]`` in ``ygo_fsm``, or ``machine.state`` / ``machine.transition``."""
    head, _, rest = place.partition(".")
    rulebook = default_rulebook()
    if head in rulebook.specs:
        spec = rulebook.specs[head]
        if rest in spec.state_ids() or any(t.id == rest for t in spec.transitions):
            return True
    try:
        target: object = importlib.import_module(f"ygo_fsm.{head}")
    except ImportError:
        return False
    for name in rest.split("."):
        if not hasattr(target, name):
            return False
        target = getattr(target, name)
    return True


def test_the_page_lists_rules_under_each_chapter_the_issue_names() -> None:
    text = PAGE.read_text(encoding="utf-8")
    for chapter in ("Winning and losing", "The turn and its phases", "Chains and activation", "Costs",
                    "Summoning", "Battle"):
        assert f"## {chapter}" in text
    assert len(ROWS) >= 60
    assert len({row["id"] for row in ROWS}) == len(ROWS), "row ids are unique"


@pytest.mark.parametrize("row", ROWS, ids=[row["id"] for row in ROWS])
def test_each_row_has_a_source_a_status_and_holds(row: dict[str, str]) -> None:
    assert row["source"] and row["rule"]
    assert row["modern"] in STATUSES, f"{row['id']}: status {row['modern']!r}"
    if row["modern"] == "yes":
        assert row["test"] not in ("", "—"), f"{row['id']}: an implemented rule names its test"
        for place in row["where"].split(", "):
            assert place_exists(place), f"{row['id']}: no {place!r} in ygo_fsm or the machines"
        for name in row["test"].split(", "):
            path, _, function = name.partition("::")
            assert (ROOT / "tests" / path).is_file(), f"{row['id']}: no test file {path}"
            assert function in defined_functions(path), f"{row['id']}: no test {name}"
    else:
        assert row["where"].startswith("— ") and len(row["where"]) > 10, f"{row['id']}: say why"


def test_the_stated_counts_are_the_tables() -> None:
    stated = re.search(r"Counts: (\d+) rules listed, (\d+) implemented, (\d+) not implemented, (\d+) out of scope",
                       PAGE.read_text(encoding="utf-8"))
    assert stated is not None
    counts = tuple(int(n) for n in stated.groups())
    table = (len(ROWS), *(sum(row["modern"] == status for row in ROWS) for status in STATUSES))
    assert counts == table


def test_the_readme_links_the_page() -> None:
    assert "(docs/rules-coverage.md)" in (ROOT / "README.md").read_text(encoding="utf-8")
