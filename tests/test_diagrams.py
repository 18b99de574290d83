"""The committed diagrams are exactly what ``make diagrams`` would write now."""

from __future__ import annotations

from pathlib import Path

import pytest

from ygo_fsm import default_rulebook
from ygo_fsm.loader import load_guard_sentences
from ygo_fsm.render import dot_digest, render_all, svg_source_digest

DIAGRAMS = Path(__file__).resolve().parent.parent / "diagrams"


def _expected() -> dict[str, str]:
    return render_all(list(default_rulebook().specs.values()), svg=False, sentences=load_guard_sentences())


@pytest.mark.parametrize("name", sorted(_expected()))
def test_committed_text_diagram_is_fresh(name: str) -> None:
    """diagrams/<machine>.dot, .mmd and README.md match the machines (run `make diagrams`)."""
    path = DIAGRAMS / name
    assert path.exists(), f"{path} is missing: run `make diagrams`"
    assert path.read_text(encoding="utf-8") == _expected()[name], f"{path} is stale: run `make diagrams`"


@pytest.mark.parametrize("machine", [*sorted(default_rulebook().specs), "overview"])
def test_committed_svg_was_rendered_from_current_dot(machine: str) -> None:
    """Each SVG carries the digest of the DOT it was rendered from; it must be today's DOT."""
    svg = DIAGRAMS / f"{machine}.svg"
    assert svg.exists(), f"{svg} is missing: run `make diagrams`"
    expected = dot_digest(_expected()[f"{machine}.dot"])
    assert svg_source_digest(svg.read_text(encoding="utf-8")) == expected, f"{svg} is stale: run `make diagrams`"


def test_no_leftover_diagrams() -> None:
    """diagrams/ holds only generated files for machines that exist."""
    wanted = set(_expected()) | {f"{m}.svg" for m in [*default_rulebook().specs, "overview"]}
    present = {p.name for p in DIAGRAMS.iterdir() if p.is_file()}
    assert present - wanted == set()
