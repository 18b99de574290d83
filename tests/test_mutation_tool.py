"""`make mutation`'s own machinery: the YAML mutants it makes, its fixed sample, and the fixed
Hypothesis profile CI runs with (a run can be reproduced)."""

from __future__ import annotations

import importlib.util
import os
import sys
from pathlib import Path
from typing import Any

import pytest
from conftest import minimal_machine
from hypothesis import settings

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def run() -> Any:
    spec = importlib.util.spec_from_file_location("mutation_run", ROOT / "mutation" / "run.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["mutation_run"] = module
    spec.loader.exec_module(module)
    return module


OPERATORS = ["drop-guard", "drop-unless", "guard-to-unless", "unless-to-guard", "change-dest", "change-actor",
             "delete-transition"]


def test_yaml_mutants_cover_each_operator_once_per_item(run: Any, write_machine: Any) -> None:
    """One mutant per guard, per unless name, per transition's dest, actor and presence; a changed
    dest is another state than the source and the dest (the next one declared)."""
    machine = minimal_machine()
    machine["states"].append({**machine["states"][0], "id": "later"})
    path = write_machine(machine)
    mutants = {m.mutant: doc for m, doc in run.yaml_mutants(path, OPERATORS)}
    assert set(mutants) == {
        "mini.go drop-guard known_guard", "mini.go drop-unless other_guard",
        "mini.go guard-to-unless known_guard", "mini.go unless-to-guard other_guard",
        "mini.go change-dest to later", "mini.go change-actor to opponent", "mini.go delete-transition"}
    negated = mutants["mini.go guard-to-unless known_guard"]["transitions"][0]
    assert "guards" not in negated and negated["unless"] == ["other_guard", "known_guard"]
    assert mutants["mini.go delete-transition"]["transitions"] == []
    assert mutants["mini.go change-actor to opponent"]["transitions"][0]["actor"] == "opponent"


def test_the_sample_is_fixed_and_keeps_every_operator_of_every_file(run: Any) -> None:
    keys = [(f"f{f}", f"op{o}", f"f{f} op{o} #{i}") for f in range(3) for o in range(4) for i in range(30)]
    first = run.sampled(keys, 0.1)
    assert first == run.sampled(list(reversed(keys)), 0.1), "the same mutants whatever the order"
    assert all(any(n.startswith(f"f{f} op{o} ") for n in first) for f in range(3) for o in range(4))
    assert len(first) < len(keys) / 4
    assert run.sampled(keys, 1) == {name for _, _, name in keys}


def test_hypothesis_draws_fixed_examples_in_ci() -> None:
    """CI (and the mutation run) load the ``ci`` profile: derandomised, no example database."""
    profile = settings.get_profile("ci")
    assert profile.derandomize and profile.database is None
    if os.environ.get("CI") or os.environ.get("HYPOTHESIS_PROFILE") == "ci":
        assert settings.default.derandomize
