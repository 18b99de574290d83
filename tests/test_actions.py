"""The integer action space (ygo_fsm.actions): a bijection on the legal actions of every state,
the mask, apply_index, and the hand size adjustment's one-card-at-a-time discard
(000 ●エンドフェイズ【３】选择手卡丢弃)."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from helpers import check_action_encoding, judge_duel

from ygo_fsm import Duel, IllegalActionError
from ygo_fsm.actions import KIND_BASE, NUM_DISTINCT_ACTIONS, decode
from ygo_fsm.bench import MIXED_DECK
from ygo_fsm.engine import default_rulebook
from ygo_fsm.game import Setup, Zone


def test_every_declared_player_action_has_indices() -> None:
    events = {t.event for spec in default_rulebook().specs.values() for t in spec.transitions if t.is_player_action}
    assert events <= set(KIND_BASE), sorted(events - set(KIND_BASE))


def _random_states(seed: int, steps: int) -> list[Duel]:
    duel = Duel.new_game(list(MIXED_DECK), list(MIXED_DECK), seed=seed)
    choose = random.Random(seed).choice
    states = []
    for _ in range(steps):
        if duel.is_over:
            break
        states.append(duel.copy())
        duel.apply(choose(duel.legal_actions()))
    return states


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_encoding_is_a_bijection_on_legal_actions_and_the_mask_matches(seed: int) -> None:
    kinds_seen: set[str] = set()
    for duel in _random_states(seed, 600):
        kinds_seen |= check_action_encoding(duel)
    assert {"pass", "activate", "normal_summon", "declare_attack"} <= kinds_seen


def test_apply_index_equals_apply() -> None:
    for duel in _random_states(5, 300)[::7]:
        by_index, by_action = duel.copy(), duel.copy()
        index = random.Random(len(duel.history)).choice(duel.legal_action_indices())
        action = duel.legal_actions()[duel.legal_action_indices().index(index)]
        by_index.apply_index(index)
        by_action.apply(action)
        assert by_index == by_action and by_index.history == by_action.history


def test_an_index_naming_no_legal_action_changes_nothing() -> None:
    duel = _random_states(6, 40)[-1]
    before = duel.to_json()
    illegal = next(i for i, flag in enumerate(duel.legal_action_mask()) if not flag)
    with pytest.raises(IllegalActionError):
        duel.apply_index(illegal)
    with pytest.raises(IllegalActionError):
        duel.apply_index(NUM_DISTINCT_ACTIONS)
    assert duel.to_json() == before


@pytest.mark.parametrize("index", ["7", None, 3.0, 2.5, float("nan"), True, [1]])
def test_an_index_that_is_not_an_integer_is_refused_naming_it(index: object) -> None:
    """Bad input gets a clear error and changes nothing: an action index is an integer (a numpy
    integer an agent's policy returns is one), never a float rounded to one, a bool or a text."""
    duel = _random_states(7, 20)[-1]
    before = duel.to_json()
    for method in (duel.apply_index, duel.action_to_string):
        with pytest.raises(TypeError, match=rf"{method.__name__}\(\) takes an action index \(an int\), not "
                                           rf"{type(index).__name__}"):
            method(index)  # type: ignore[arg-type]
    assert duel.to_json() == before


def test_a_numpy_integer_is_an_index() -> None:
    np = pytest.importorskip("numpy")
    duel = _random_states(7, 20)[-1]
    index = duel.legal_action_indices()[0]
    assert duel.action_to_string(np.int64(index)) == duel.action_to_string(index)
    duel.apply_index(np.int32(index))


def test_an_action_text_that_is_not_a_string_is_refused_naming_it() -> None:
    duel = _random_states(7, 20)[-1]
    with pytest.raises(TypeError, match=r"string_to_action\(\) takes an action's text \(a str\), not NoneType"):
        duel.string_to_action(None)  # type: ignore[arg-type]


def test_an_index_names_a_position_not_a_card() -> None:
    """The same action in the same position has the same index: summoning the third card in hand."""
    for first in ("sage_chiron", "reflect_bounder"):
        setup = Setup.model_validate({"phase": "main_phase_1", "turn": 2, "players": {"A": {"cards": [
            {"card": first, "zone": "hand"}, {"card": "cyclone", "zone": "hand"},
            {"card": "beetle_armor_knight", "zone": "hand"}]}}})
        duel = judge_duel(setup)
        assert duel.string_to_action("normal_summon beetle_armor_knight") == KIND_BASE["normal_summon"] + 2


@pytest.mark.parametrize("named", [10, 20, 30])
def test_discard_choices_are_linear_in_the_hand_size(named: int) -> None:
    """000 ●エンドフェイズ【３】: the turn player discards until the hand is at the limit (6),
    choosing one card at a time — n cards in hand give n options, never one per subset."""
    cards = [{"card": "sage_chiron", "zone": "hand"} for _ in range(named)]
    duel = judge_duel(Setup.model_validate({"phase": "end_phase", "turn": 2, "players": {"A": {"cards": cards}}}))
    duel.apply("pass")
    duel.apply("pass")
    for chosen in range(named - 6):
        assert duel.state == "end_phase.hand_size_adjustment"
        options = duel.legal_actions()
        assert len(options) == named - chosen and {a.name for a in options} == {"discard"}
        duel.apply(options[0])
    assert duel.players["A"].hand == 6 and duel.players["A"].graveyard == named - 6
    assert duel.state == "end_phase.discard_window.turn_player"


def test_a_field_spell_in_the_field_zone_is_a_target_slot() -> None:
    """Yugipedia "Field Zone": a Field Spell is a card on the field in its own zone, so
    「サイクロン」 (destroy 1 spell/trap on the field) may target it — that option has an index."""
    duel = judge_duel(Setup.model_validate({"phase": "main_phase_1", "profile": "modern", "players": {
        "A": {"cards": [{"card": "mountain", "zone": "hand"}]},
        "B": {"cards": [{"card": "cyclone", "zone": "spell_trap"}]}}}))
    duel.apply("activate mountain")
    assert [c.uid for c in duel.game.players["A"].zone_list(Zone.field_zone)] == ["mountain"]
    assert duel.priority == "B"
    judged = [a for a in duel.legal_actions(judge=True) if a.name == "respond"]
    assert [a.choice for a in judged] == ["cyclone>mountain"]
    indices = duel.legal_action_indices()
    assert len(indices) == len(duel.legal_actions())
    respond = indices[[a.name for a in duel.legal_actions()].index("respond")]
    assert decode(duel.game, "B", respond) == ("respond", "cyclone>mountain")


def test_a_monster_in_either_graveyard_is_a_target_slot() -> None:
    """A spell that targets a monster in either graveyard (the pool's 「墓所の呼び声」, like
    「死者蘇生」): each graveyard monster is its own option, and each has its own index."""
    from ygo_fsm.cards import default_library, merge, read_card_file

    pool, problems = read_card_file(Path(__file__).resolve().parent / "scenarios" / "cards" / "pool.yaml")
    assert problems == []
    duel = judge_duel(Setup.model_validate({"phase": "main_phase_1", "turn": 2, "profile": "modern", "players": {
        "A": {"cards": [{"card": "grave_call", "zone": "hand"}, {"card": "sage_chiron", "zone": "graveyard"}]},
        "B": {"cards": [{"card": "sapphire_dragon", "zone": "graveyard"}]}}}),
        library=merge(default_library(), pool))
    activations = {a.choice: i for a, i in zip(duel.legal_actions(judge=True), duel.legal_action_indices(),
                                               strict=True) if a.name == "activate"}
    assert set(activations) == {"grave_call>sage_chiron", "grave_call>sapphire_dragon"}
    for choice, index in activations.items():
        assert decode(duel.game, "A", index) == ("activate", choice)


def test_every_built_in_card_s_options_have_indices() -> None:
    """The integer action space covers the built-in library: random play with a deck holding one
    of every built-in card (and as many of its monsters as fill it to 60) never meets a legal
    action without an index."""
    from ygo_fsm.cards import default_library

    library = default_library()
    deck = sorted(library)
    monsters = sorted(card_id for card_id, card in library.items() if card.type.value == "monster")
    deck += (monsters * 3)[: 60 - len(deck)]
    for seed in range(3):
        duel = Duel.new_game(deck, list(reversed(deck)), seed=seed)
        choose = random.Random(seed).choice
        for _ in range(800):
            if duel.is_over:
                break
            indices = duel.legal_action_indices()
            assert len(set(indices)) == len(duel.legal_actions())
            duel.apply_index(choose(indices))
