"""Several targets (``target_count:``) chosen one at a time: the activation names the first, the
activating player adds the others in the chain's (or the timing window's) ``declaring_targets``
state, and only then may anyone respond (000 ●バトルフェイズ【２】例: 「CHAIN1发动「破壊輪」，选择
「甲虫装甲騎士」」 — the target is chosen with the activation, before CHAIN2; PR17, targets:
"up to N" is 1 to N cards, "N" is exactly N)."""

from __future__ import annotations

import random

import pytest
from helpers import check_action_encoding, judge_duel, legal

from ygo_fsm import Duel, Setup
from ygo_fsm.actions import KIND_BASE, NO_TARGET, ActionEncodingError, decode
from ygo_fsm.cards import CardSpec, default_library
from ygo_fsm.errors import IllegalActionError
from ygo_fsm.game import Zone


def _trap(card_id: str, count: dict[str, int], op: str = "destroy") -> CardSpec:
    return CardSpec.model_validate({
        "id": card_id, "name_ja": card_id, "name_zh": card_id, "type": "trap",
        "effects": [{"kind": "normal_trap", "label": "以场上的怪兽为对象", "location": "set",
                     "target": "any_monster", "target_count": count,
                     "resolution": [{"op": op, "what": "target"}]}]})


VOLLEY = _trap("volley", {"up_to": 3})
"""「以场上最多3只怪兽为对象，那些怪兽破坏」."""
PAIR = _trap("pair_exile", {"exactly": 2}, "banish")
"""「以场上2只怪兽为对象，那些怪兽除外」."""
SUMMONER = CardSpec.model_validate({
    "id": "twin_summoner", "name_ja": "twin_summoner", "name_zh": "twin_summoner", "type": "monster",
    "atk": 1000, "def": 1000, "level": 4,
    "effects": [{"kind": "trigger", "label": "这张卡召唤成功时，以场上最多2只怪兽为对象，那些怪兽破坏",
                 "location": "field", "events": ["normal_summoned"], "subject": "this_card",
                 "target": "any_monster", "target_count": {"up_to": 2},
                 "resolution": [{"op": "destroy", "what": "target"}]}]})
LIBRARY = {**default_library(), **{card.id: card for card in (VOLLEY, PAIR, SUMMONER)}}

_A_MONSTERS = ("sage_chiron", "beetle_armor_knight", "sapphire_dragon")


def _duel(trap: str = "volley", a_monsters: tuple[str, ...] = _A_MONSTERS, b_monsters: int = 1) -> Duel:
    """A's Main Phase 1 with A's monsters and a Set 「サイクロン」; B has the Set trap and
    ``b_monsters`` 「スピリット・ドラゴン」. A passes: B may activate the trap."""
    setup = Setup.model_validate({"profile": "modern", "turn": 3, "phase": "main_phase_1", "players": {
        "A": {"hand": 0, "cards": [*({"card": m, "zone": "monster"} for m in a_monsters),
                                   {"card": "cyclone", "zone": "spell_trap"}]},
        "B": {"hand": 0, "cards": [{"card": trap, "zone": "spell_trap"},
                                   *({"card": "spirit_dragon", "zone": "monster"} for _ in range(b_monsters))]}}})
    duel = judge_duel(setup, library=LIBRARY)
    duel.apply("pass")
    return duel


def test_the_activation_names_one_target_and_the_others_are_added_before_anyone_may_respond() -> None:
    """000 ●バトルフェイズ【２】例 (the target with the activation, before CHAIN2): B activates
    「volley」 on one monster; while B chooses the others, A is offered nothing and may not
    respond; with three chosen (the most it takes) the targets are declared and A may respond."""
    duel = _duel()
    first = [a for a in legal(duel) if a.startswith("activate volley")]
    assert sorted(first) == sorted(f"activate volley>{m}" for m in (*_A_MONSTERS, "spirit_dragon"))
    duel.apply("activate volley>sage_chiron")
    assert duel.state == "main_phase_1.open.chain.declaring_targets" and duel.priority == "B"
    assert sorted(legal(duel)) == sorted(["add_target beetle_armor_knight", "add_target sapphire_dragon",
                                          "add_target spirit_dragon", "stop_targeting"])
    before = duel.to_json()
    with pytest.raises(IllegalActionError, match="declaring_targets"):
        duel.apply("respond cyclone>volley")
    assert duel.to_json() == before
    duel.apply("add_target sapphire_dragon")
    assert duel.priority == "B" and "add_target sapphire_dragon" not in legal(duel)
    duel.apply("add_target spirit_dragon")
    assert duel.state == "main_phase_1.open.chain.building" and duel.priority == "A"
    assert "respond cyclone>volley" in legal(duel)
    link = duel.chain[0]
    assert (link.target, link.more_targets) == ("sage_chiron", ("sapphire_dragon", "spirit_dragon"))
    duel.apply("pass")
    duel.apply("pass")
    assert [duel.where(m)[1] for m in ("sage_chiron", "sapphire_dragon", "spirit_dragon")] == [Zone.graveyard] * 3
    assert duel.where("beetle_armor_knight") == ("A", Zone.monster)


def test_up_to_n_targets_may_stop_at_one() -> None:
    """PR17 (targets: "up to N" is 1 to N cards): B stops after the first target; only it is
    destroyed."""
    duel = _duel()
    duel.apply("activate volley>beetle_armor_knight")
    duel.apply("stop_targeting")
    assert duel.priority == "A" and duel.chain[0].more_targets == ()
    duel.apply("pass")
    duel.apply("pass")
    assert duel.where("beetle_armor_knight") == ("A", Zone.graveyard)
    assert [duel.where(m)[1] for m in ("sage_chiron", "sapphire_dragon", "spirit_dragon")] == [Zone.monster] * 3


def test_exactly_n_targets_cannot_stop_short() -> None:
    """PR17 (targets: "N" cards is exactly N): after the first target B must add a second;
    ``stop_targeting`` is refused, naming the state and what is legal, and changes nothing."""
    duel = _duel("pair_exile")
    duel.apply("activate pair_exile>sage_chiron")
    assert duel.priority == "B" and "stop_targeting" not in legal(duel)
    before = duel.to_json()
    with pytest.raises(IllegalActionError) as refused:
        duel.apply("stop_targeting")
    assert "declaring_targets" in str(refused.value) and "add_target spirit_dragon" in str(refused.value)
    assert duel.to_json() == before
    duel.apply("add_target spirit_dragon")
    assert duel.priority == "A" and duel.chain[0].more_targets == ("spirit_dragon",)


def test_exactly_n_targets_needs_n_cards_to_be_activated() -> None:
    """PR17 (targets: "N" cards): with one monster on the field 「pair_exile」 (exactly 2) is not offered."""
    duel = _duel("pair_exile", a_monsters=(), b_monsters=1)
    assert not [a for a in legal(duel) if a.startswith("activate pair_exile")]


def test_the_choices_grow_with_the_cards_not_with_the_sets_of_them() -> None:
    """The issue's rule for set choices (one card at a time): with 8 monsters that fit and up to 3
    targets, no step offers more than one option per card (plus stopping), where every set of
    1–3 of them would be 8 + 28 + 56 = 92 options."""
    duel = _duel(a_monsters=("sage_chiron", "beetle_armor_knight", "sapphire_dragon", "reflect_bounder",
                             "sacred_phoenix_of_nephthys"), b_monsters=3)
    counts = [len([a for a in legal(duel) if a.startswith("activate volley")])]
    duel.apply("activate volley>sage_chiron")
    while duel.state.endswith("declaring_targets"):
        counts.append(len(legal(duel)))
        duel.apply(next(a for a in duel.legal_actions() if a.name == "add_target"))
    assert counts == [8, 7 + 1, 6 + 1]


def test_every_target_choice_has_an_integer_index() -> None:
    """Each option while targets are chosen has its own index, naming the same action
    (``action_to_string``), and ``apply_index`` takes that action."""
    duel = _duel()
    duel.apply("activate volley>sage_chiron")
    indices = duel.legal_action_indices()
    assert len(set(indices)) == len(indices) == len(duel.legal_actions())
    assert [duel.action_to_string(i) for i in indices] == [str(a) for a in duel.legal_actions()]
    for index, action in zip(indices, duel.legal_actions(), strict=True):
        by_index, by_name = duel.copy(), duel.copy()
        by_index.apply_index(index)
        by_name.apply(action)
        assert by_index == by_name


def test_a_trigger_s_targets_are_chosen_before_the_chain_goes_on() -> None:
    """000 卡／效果发动的优先顺序 (the triggers go on the chain one by one) with the targets chosen on
    activation: A's 「twin_summoner」 is summoned, its trigger names a first target, and A adds the
    second in the timing window before B may respond."""
    setup = Setup.model_validate({"profile": "modern", "turn": 3, "phase": "main_phase_1", "players": {
        "A": {"hand": 0, "cards": [{"card": "twin_summoner", "zone": "hand"},
                                   {"card": "sage_chiron", "zone": "monster"}]},
        "B": {"hand": 0, "cards": [{"card": "spirit_dragon", "zone": "monster"},
                                   {"card": "volley", "zone": "spell_trap"}]}}})
    duel = judge_duel(setup, library=LIBRARY)
    duel.apply("normal_summon twin_summoner")
    while not any(a.name == "activate" for a in duel.legal_actions()):
        duel.apply("pass")
    duel.apply("activate twin_summoner>spirit_dragon")
    assert duel.state == "main_phase_1.summon.success_window.declaring_targets" and duel.priority == "A"
    assert sorted(legal(duel)) == ["add_target sage_chiron", "add_target twin_summoner", "stop_targeting"]
    duel.apply("add_target sage_chiron")
    assert duel.state == "main_phase_1.summon.success_window.chain.building" and duel.priority == "B"
    assert duel.chain[0].more_targets == ("sage_chiron",)
    details = [line for record in duel.trace for line in record.detail]
    assert "CHAIN1 回合玩家A再选择「賢者ケイローン」为对象" in details


def test_an_add_target_index_names_a_card() -> None:
    """``add_target`` names a card: the index of its "no target" slot names no action."""
    duel = _duel()
    duel.apply("activate volley>sage_chiron")
    with pytest.raises(ActionEncodingError, match="no target"):
        decode(duel.game, "B", KIND_BASE["add_target"] + NO_TARGET)
    before = duel.to_json()
    with pytest.raises(IllegalActionError):
        duel.apply_index(KIND_BASE["add_target"] + NO_TARGET)
    assert duel.to_json() == before


def test_both_players_see_every_target_of_a_link() -> None:
    """The targets are declared (public): a player's observation of the chain names all of them,
    a face-down target by its place only."""
    setup = Setup.model_validate({"profile": "modern", "turn": 3, "phase": "main_phase_1", "players": {
        "A": {"hand": 0, "cards": [{"card": "sage_chiron", "zone": "monster"},
                                   {"card": "beetle_armor_knight", "zone": "monster", "position": "defence",
                                    "face_up": False}]},
        "B": {"hand": 0, "cards": [{"card": "volley", "zone": "spell_trap"}]}}})
    duel = judge_duel(setup, library=LIBRARY)
    duel.apply("pass")
    duel.apply("activate volley>sage_chiron")
    duel.apply("add_target beetle_armor_knight")
    for viewer, second in (("A", "beetle_armor_knight"), ("B", "A.monster.2")):
        link = duel.observation(viewer).chain[0]
        assert (link.target, link.more_targets) == ("sage_chiron", (second,))


@pytest.mark.parametrize("seed", [1])
def test_the_encoding_is_a_bijection_while_targets_are_chosen(seed: int) -> None:
    """Random duels with cards taking several targets (a trap up to 3, a trap exactly 2, a trigger
    up to 2): in every state the indices are a bijection on the legal actions, targets included."""
    deck = ["volley"] * 8 + ["pair_exile"] * 6 + ["twin_summoner"] * 10 + ["sage_chiron"] * 8 + ["cyclone"] * 8
    duel = Duel.new_game(deck, deck, seed=seed, library=LIBRARY)
    choose = random.Random(seed).choice
    kinds: set[str] = set()
    for _ in range(500):
        if duel.is_over:
            break
        kinds |= check_action_encoding(duel)
        duel.apply(choose(duel.legal_actions()))
    assert {"add_target", "stop_targeting"} <= kinds


def test_a_refused_target_says_why() -> None:
    """PR17 (targets): a card already chosen cannot be chosen again, and a card the effect cannot
    target is not one — the refusal says which, and changes nothing."""
    duel = _duel()
    duel.apply("activate volley>sage_chiron")
    before = duel.to_json()
    with pytest.raises(IllegalActionError, match="already a target of CHAIN1"):
        duel.apply("add_target sage_chiron")
    with pytest.raises(IllegalActionError, match="does not fit the target of CHAIN1"):
        duel.apply("add_target cyclone")
    assert duel.to_json() == before
