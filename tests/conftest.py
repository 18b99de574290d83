"""Shared fixtures: the shipped rulebook, a writer for small machine files, and a driver that
plays a duel by passing priority (nobody activates anything)."""

from __future__ import annotations

import copy
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import settings

from ygo_fsm import Duel, Rulebook, default_rulebook

# Property tests draw the same examples on every run in CI (CI is set there) and in the mutation
# run (HYPOTHESIS_PROFILE=ci), so a result can be reproduced; elsewhere they draw fresh examples.
settings.register_profile("ci", derandomize=True, database=None, print_blob=True)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE") or ("ci" if os.environ.get("CI") else "default"))

RULE = "000 ●ドローフェイズ【１】"
"""A well-formed citation for hand-written test machines."""


def label(text: str) -> dict[str, str]:
    return {"zh": text, "en": text}


def minimal_machine(machine_id: str = "mini") -> dict[str, Any]:
    """The smallest valid machine: the turn player acts once (guarded, with a callback) and it ends."""
    return {
        "id": machine_id,
        "label": label(machine_id),
        "rule": RULE,
        "initial": "start",
        "states": [
            {"id": "start", "label": label("start"), "rule": RULE, "priority": "turn_player"},
            {"id": "end", "label": label("end"), "rule": RULE, "final": True},
        ],
        "transitions": [
            {
                "id": "go",
                "event": "go",
                "actor": "turn_player",
                "source": "start",
                "dest": "end",
                "guards": ["known_guard"],
                "unless": ["other_guard"],
                "callbacks": ["known_callback"],
                "label": label("go"),
                "rule": RULE,
            }
        ],
    }


def parent_machine(child: str = "mini", machine_id: str = "outer") -> dict[str, Any]:
    """A machine whose state ``running`` runs ``child`` and leaves on ``done``."""
    return {
        "id": machine_id,
        "label": label(machine_id),
        "rule": RULE,
        "initial": "running",
        "states": [
            {"id": "running", "label": label("running"), "rule": RULE, "machine": child},
            {"id": "end", "label": label("end"), "rule": RULE, "final": True},
        ],
        "transitions": [
            {
                "id": "finished",
                "event": "done",
                "actor": "engine",
                "source": "running",
                "dest": "end",
                "label": label("finished"),
                "rule": RULE,
            }
        ],
    }


GUARD_NAMES = frozenset({"known_guard", "other_guard"})
CALLBACK_NAMES = frozenset({"known_callback"})


@pytest.fixture
def fresh_machine() -> Callable[[], dict[str, Any]]:
    """A fresh, deep-copied minimal machine for each call (tests may mutate it)."""
    return lambda: copy.deepcopy(minimal_machine())


@pytest.fixture
def write_machine(tmp_path: Path) -> Callable[..., Path]:
    """``write_machine(data, name="mini")`` writes ``data`` (a dict, or raw YAML text) into
    ``tmp_path/<name>.yaml`` and returns the path."""

    def write(data: dict[str, Any] | str, name: str = "mini") -> Path:
        path = tmp_path / f"{name}.yaml"
        text = data if isinstance(data, str) else yaml.safe_dump(data, allow_unicode=True, sort_keys=False)
        path.write_text(text, encoding="utf-8")
        return path

    return write


@pytest.fixture(scope="session")
def rulebook() -> Rulebook:
    return default_rulebook()


def pass_until(duel: Duel, done: Callable[[Duel], bool], *, limit: int = 100) -> list[str]:
    """Apply ``pass`` for whoever holds priority until ``done(duel)``; return the states seen
    (the starting one included). Fails if ``pass`` is not legal on the way or ``limit`` is hit."""
    seen = [duel.state]
    for _ in range(limit):
        if done(duel):
            return seen
        assert "pass" in [a.name for a in duel.legal_actions()], f"cannot pass in {duel.state}"
        duel.apply("pass")
        seen.append(duel.state)
    if done(duel):
        return seen
    raise AssertionError(f"condition not reached after {limit} passes; now in {duel.state}")


def step(duel: Duel, *, battle: bool = False) -> str:
    """Take one "do nothing" action: pass; at the choice after Main Phase 1 go to the Battle
    Phase when ``battle`` (else the End Phase); discard when the hand must be adjusted."""
    legal = [action.name for action in duel.legal_actions()]
    if "pass" in legal:
        choice = "pass"
    elif battle and "enter_battle_phase" in legal:
        choice = "enter_battle_phase"
    elif "enter_end_phase" in legal:
        choice = "enter_end_phase"
    elif "discard" in legal:
        choice = "discard"
    else:
        raise AssertionError(f"no do-nothing action in {duel.state}: {legal}")
    duel.apply(choice)
    return choice


def play_until(duel: Duel, done: Callable[[Duel], bool], *, battle: bool = False, limit: int = 200) -> None:
    """Take do-nothing actions (:func:`step`) until ``done(duel)``."""
    for _ in range(limit):
        if done(duel):
            return
        step(duel, battle=battle)
    if not done(duel):
        raise AssertionError(f"condition not reached after {limit} actions; now in {duel.state}")
