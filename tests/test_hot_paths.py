"""The functions the engine runs on every transition, every option search and every settle make no
closure cells. Under Python 3.11 a comprehension or generator inside a function makes a cell of each
local it reads, created on every call of that function and read more slowly than a local, even on
calls that return before the comprehension runs: the option search, settling and the checks asked
after every transition keep their comprehensions in functions of their own. (The instructions this
saved are in the ``full_duels`` benchmark; this holds the layout, not a timing.)"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from ygo_fsm import chain, effects, equips, in_play
from ygo_fsm.runtime import DuelRuntime
from ygo_fsm.state import GameState

HOT: dict[str, Callable[..., Any]] = {
    "DuelRuntime._take": DuelRuntime._take,
    "DuelRuntime._settle": DuelRuntime._settle,
    "DuelRuntime._find_options": DuelRuntime._find_options,
    "GameState.check_lp": GameState.check_lp,
    "in_play.effects_of_sort": in_play.effects_of_sort,
    "effects.pending_phase_effects": effects.pending_phase_effects,
    "chain.current_tier": chain.current_tier,
    "chain.open_window": chain.open_window,
    "equips.unequipped": equips.unequipped,
}
"""Each is called thousands of times a duel (``python -m cProfile`` on the ``full_duels`` workload)."""


@pytest.mark.parametrize("name", sorted(HOT))
def test_a_function_run_on_every_transition_makes_no_closure_cells(name: str) -> None:
    assert HOT[name].__code__.co_cellvars == (), (
        f"{name} makes closure cells {HOT[name].__code__.co_cellvars} on every call: move the comprehension "
        "that reads them into a function of its own")
