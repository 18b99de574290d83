"""The OpenSpiel registration (the ``openspiel`` extra): OpenSpiel's own random simulation test,
and a duel played to its end through pyspiel's API."""

from __future__ import annotations

import random

import pytest

pyspiel = pytest.importorskip("pyspiel")

import ygo_fsm.openspiel  # noqa: E402,F401  (registers python_ygo_fsm)
from ygo_fsm import Duel  # noqa: E402


def test_openspiel_random_sim_test() -> None:
    game = pyspiel.load_game("python_ygo_fsm", {"seed": 2})
    pyspiel.random_sim_test(game, num_sims=1, serialize=False, verbose=False)


def test_a_duel_through_pyspiel_matches_the_duel() -> None:
    game = pyspiel.load_game("python_ygo_fsm", {"seed": 5})
    assert game.num_distinct_actions() == Duel.num_distinct_actions
    state = game.new_initial_state()
    choose = random.Random(5).choice
    while not state.is_terminal():
        player = state.current_player()
        legal = state.legal_actions()
        assert legal == sorted(state.duel.legal_action_indices())
        assert state.legal_actions(1 - player) == []
        state.apply_action(choose(legal))
    returns = state.returns()
    assert sum(returns) == 0 and sorted(returns) in ([-1.0, 1.0], [0.0, 0.0])
    winner = state.duel.winner
    assert winner is None or returns["AB".index(winner)] == 1.0
    assert state.information_state_string(0) != state.information_state_string(1)
