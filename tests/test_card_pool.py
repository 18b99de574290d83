"""The generic card pool (tests/scenarios/cards/pool.yaml) and its scenarios: cards written only
in YAML, each scenario citing the official rule or seed clause it checks."""

from __future__ import annotations

from pathlib import Path

import pytest

from ygo_fsm.cards import Op, read_card_file
from ygo_fsm.scenario import load_scenario, run_file

CARDS = Path(__file__).resolve().parent / "scenarios" / "cards"
SCENARIOS = sorted(path for path in CARDS.glob("*.yaml") if path.name != "pool.yaml")


def test_the_pool_is_valid_and_needs_no_python() -> None:
    """Every card of the pool passes the semantic checks and none uses a registered Python resolution."""
    cards, problems = read_card_file(CARDS / "pool.yaml")
    assert problems == []
    assert len(cards) >= 20
    assert not [c.id for c in cards.values() for e in c.effects for op in e.resolution if op.op is Op.callable]


@pytest.mark.parametrize("path", SCENARIOS, ids=[path.name for path in SCENARIOS])
def test_pool_scenario_passes(path: Path) -> None:
    scenario = load_scenario(path)
    assert scenario.library == ["pool.yaml"]
    result = run_file(path, lang="en")
    assert result.passed, result.report()


def test_a_trigger_on_this_card_s_destruction_answers_only_this_card() -> None:
    """Regression: a trigger on "this card is destroyed and sent to the graveyard" answered the
    destruction of any monster (Yugipedia, "Trigger Effect")."""
    result = run_file(CARDS / "this_card_destroyed.yaml", lang="en")
    assert result.passed, result.report()


def test_return_to_hand_of_the_target_returns_the_target() -> None:
    """Regression: ``return_to_hand`` with ``what: target`` returned the effect's own card."""
    result = run_file(CARDS / "return_to_hand_target.yaml", lang="en")
    assert result.passed, result.report()
    assert result.duel is not None and result.duel.where("sudden_recall") is not None
    assert result.duel.where("sudden_recall")[1].value == "graveyard"


def test_change_position_of_the_target_turns_only_the_target() -> None:
    """Regression: ``change_position`` ignored its target and turned every face-up monster."""
    result = run_file(CARDS / "change_position_target.yaml", lang="en")
    assert result.passed, result.report()
