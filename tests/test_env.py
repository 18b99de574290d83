"""The PettingZoo environment (the ``env`` extra): PettingZoo's own API test, rewards at the end,
seeded resets, and observations that hide what the observing player may not know."""

from __future__ import annotations

import random

import numpy as np
import pytest

pettingzoo_test = pytest.importorskip("pettingzoo.test")

from ygo_fsm.env import OBSERVATION_SIZE, env, information_state_string, observation_vector, raw_env  # noqa: E402
from ygo_fsm.state import CardInstance  # noqa: E402


def test_pettingzoo_api_test() -> None:
    pettingzoo_test.api_test(env(), num_cycles=400, verbose_progress=False)


def _play_out(environment: raw_env, seed: int) -> dict[str, float]:
    environment.reset(seed=seed)
    choose = random.Random(seed)
    totals = {agent: 0.0 for agent in environment.possible_agents}
    for agent in environment.agent_iter():
        observation, reward, terminated, truncated, _ = environment.last()
        totals[agent] += reward
        if terminated or truncated:
            environment.step(None)
            continue
        legal = np.flatnonzero(observation["action_mask"])
        environment.step(int(choose.choice(legal)))
    return totals


def test_rewards_are_plus_one_and_minus_one_at_the_end() -> None:
    environment = raw_env()
    totals = _play_out(environment, 2)
    duel = environment.duel
    assert duel is not None and duel.is_over
    if duel.winner is None:
        assert totals == {"A": 0.0, "B": 0.0}
    else:
        assert totals[duel.winner] == 1.0 and totals[("B" if duel.winner == "A" else "A")] == -1.0


def test_reset_with_a_seed_is_reproducible() -> None:
    first, second = raw_env(), raw_env()
    first.reset(seed=9)
    second.reset(seed=9)
    assert first.duel is not None and first.duel == second.duel
    third = raw_env()
    third.reset(seed=10)
    assert third.duel != first.duel


def test_the_observation_hides_the_opponents_hand_and_set_cards_and_the_deck_order() -> None:
    environment = raw_env()
    environment.reset(seed=4)
    duel = environment.duel
    assert duel is not None
    seen = observation_vector(duel, "A")
    assert seen.shape == (OBSERVATION_SIZE,) and seen.dtype == np.float32
    changed = duel.copy()
    hand = changed.players["B"].hand_cards
    deck = changed.players["A"].deck_cards
    hand[0], hand[1] = hand[1], hand[0]
    deck.reverse()
    hand[2].card = changed.library["dark_hole"]  # B's hand holds other cards: A cannot tell
    assert np.array_equal(observation_vector(changed, "A"), seen)
    assert not np.array_equal(observation_vector(changed, "B"), observation_vector(duel, "B"))


def test_the_mask_is_the_acting_agents_legal_actions() -> None:
    environment = raw_env()
    environment.reset(seed=5)
    duel = environment.duel
    assert duel is not None
    acting = environment.agent_selection
    assert acting == duel.priority
    assert set(np.flatnonzero(environment.observe(acting)["action_mask"])) == set(duel.legal_action_indices())
    other = "B" if acting == "A" else "A"
    assert not environment.observe(other)["action_mask"].any()



def test_the_information_state_string_names_only_what_the_player_may_know() -> None:
    """The debugging text hides what the vector hides (a player knows their own hand and Set cards,
    not the opponent's: ygo_fsm.hiding.known_to): another card in B's hand and a card Set in B's
    Spell & Trap Zone leave A's text as it was but for one "(Set)", and B's text names both."""
    environment = raw_env()
    environment.reset(seed=4)
    duel = environment.duel
    assert duel is not None and not duel.players["B"].spell_traps
    changed = duel.copy()
    changed.players["B"].hand_cards[0].card = changed.library["sakuretsu_armor"]
    set_card = CardInstance.of_card("b_set", "B", changed.library["mirror_force"])
    set_card.face_up = False
    changed.players["B"].spell_traps.append(set_card)
    before = information_state_string(duel, "A")
    assert "opponent's spells/traps: \n" in before
    assert information_state_string(changed, "A") == before.replace("opponent's spells/traps: \n",
                                                                   "opponent's spells/traps: (Set)\n")
    theirs = information_state_string(changed, "B")
    assert "my spells/traps: mirror_force" in theirs and "sakuretsu_armor" in theirs.partition("my hand: ")[2]


def test_a_step_with_an_action_that_is_not_an_index_is_refused_and_changes_nothing() -> None:
    """Bad input gets a clear error and changes nothing: ``step(2.5)`` is not rounded to an index."""
    environment = raw_env()
    environment.reset(seed=6)
    duel = environment.duel
    assert duel is not None
    before, acting = duel.to_json(), environment.agent_selection
    with pytest.raises(TypeError, match=r"apply_index\(\) takes an action index \(an int\), not float"):
        environment.step(2.5)  # type: ignore[arg-type]
    assert duel.to_json() == before and environment.agent_selection == acting
    environment.step(np.int64(duel.legal_action_indices()[0]))  # a numpy integer is an index


@pytest.mark.parametrize("options", [{"decks": "sage_chiron"}, {"decks": (["sage_chiron"] * 40,)}, {"decks": None},
                                     {"decks": (["sage_chiron"] * 40, ["no_such_card"] * 40)}])
def test_a_reset_with_decks_that_cannot_be_dealt_is_refused_and_changes_nothing(options: dict[str, object]) -> None:
    """Bad input gets a clear error and changes nothing: the environment keeps its duel, and the
    next reset deals what it would have dealt without the refused one."""
    environment, twin = raw_env(), raw_env()
    environment.reset(seed=8)
    twin.reset(seed=8)
    duel = environment.duel
    with pytest.raises(ValueError, match=r'options\["decks"\] takes two deck lists|unknown card'):
        environment.reset(options=options)
    assert environment.duel is duel
    environment.reset()
    twin.reset()
    assert environment.duel == twin.duel


@pytest.mark.parametrize("seed", ["x", 1.5, True])
def test_a_seed_that_is_not_an_integer_is_refused(seed: object) -> None:
    environment = raw_env()
    with pytest.raises(TypeError, match=rf"reset\(\) takes an integer seed or None, not {type(seed).__name__}"):
        environment.reset(seed=seed)  # type: ignore[arg-type]
    assert environment.duel is None
    environment.reset(seed=np.int64(3))  # a numpy integer is a seed
    twin = raw_env()
    twin.reset(seed=3)
    assert environment.duel == twin.duel


def test_the_environment_refuses_an_unknown_agent_and_a_bad_decision_limit() -> None:
    environment = raw_env()
    environment.reset(seed=9)
    for method in (environment.observe, environment.information_state_string):
        with pytest.raises(ValueError, match=r"unknown agent 'C'; agents are A, B"):
            method("C")
    for limit in (0, -1, "many", True):
        with pytest.raises(ValueError, match=r"max_decisions is a number of decisions, at least 1"):
            raw_env(max_decisions=limit)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match=r"decks takes two deck lists"):
        raw_env(decks=("sage_chiron",))  # type: ignore[arg-type]
