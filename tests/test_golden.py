"""The seeds' worked examples, played as scenarios, tell the same story as their golden traces.

Each ``tests/scenarios/seed/*.yaml`` file names its seed clause and marks the outcomes the
seed gives; ``tests/golden/<scenario>.txt`` is its trace told the seeds' way
(``ygo_fsm.trace.story``). ``make golden`` rewrites the golden files; review the diff.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from ygo_fsm import default_rulebook
from ygo_fsm.scenario import load_scenario, run_scenario
from ygo_fsm.trace import story
from ygo_fsm.yamlio import read_text

HERE = Path(__file__).resolve().parent
SEED_SCENARIOS = sorted((HERE / "scenarios" / "seed").glob("*.yaml"))
GOLDEN = HERE / "golden"


@pytest.mark.parametrize("path", SEED_SCENARIOS, ids=lambda p: p.stem)
def test_seed_example_passes_and_matches_its_golden_trace(path: Path) -> None:
    scenario = load_scenario(path)
    result = run_scenario(scenario)
    assert result.passed, result.report()
    golden = GOLDEN / f"{path.stem}.txt"
    assert golden.exists(), f"{golden} is missing: run `make golden`"
    assert story(result.trace, default_rulebook().specs) == read_text(golden), (
        f"{golden} is stale: run `make golden` and review the diff")


def test_every_golden_trace_has_its_scenario() -> None:
    stems = {p.stem for p in SEED_SCENARIOS}
    assert {p.stem for p in GOLDEN.glob("*.txt")} <= stems
