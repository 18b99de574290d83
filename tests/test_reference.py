"""The effect vocabulary's reference page: generated from the declarations, committed, fresh."""

from __future__ import annotations

from pathlib import Path

from ygo_fsm.cards import Cause, Cost, Duration, Event, Op, Subject, Target, Timing
from ygo_fsm.reference import reference_page

PAGE = Path(__file__).resolve().parent.parent / "docs" / "effects.md"


def test_committed_reference_page_is_fresh() -> None:
    """docs/effects.md is what `make docs` writes now."""
    assert PAGE.exists(), f"{PAGE} is missing: run `make docs`"
    assert PAGE.read_text(encoding="utf-8") == reference_page(), f"{PAGE} is stale: run `make docs`"


def test_the_page_names_every_word_with_a_meaning() -> None:
    """Every word of the vocabulary is in the page, each with a description from its declaration."""
    page = reference_page()
    for enum in (Event, Subject, Cause, Target, Timing, Duration, Op):
        for member in enum:
            rows = [line for line in page.splitlines() if line.startswith(f"| `{member.value}` |")]
            assert rows, f"{enum.__name__}.{member.name} is not in the page"
            assert any(row.split("|")[2].strip() for row in rows), f"{enum.__name__}.{member.name} has no meaning"
    for field in Cost.model_fields:
        assert f"| `{field}` |" in page
