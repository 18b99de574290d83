"""The Battle Phase (000 ●バトルフェイズ【１】–【５】, 【怪兽的攻击宣言的场合…】, ※攻击中止、战斗回卷的处理;
002 ●战斗阶段; 004 战斗阶段 / 卷回 / 伤害步骤).

Each test cites the clause it checks. Cards the shipped library lacks are built here with
``CardSpec.model_validate``; expected values come from the rule text, never from engine output.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import pytest
from helpers import card_spec

from ygo_fsm import Duel, Setup, TurnEffect
from ygo_fsm.cards import CardSpec, EffectSpec, default_library, register_resolution
from ygo_fsm.effects import damage_step_allows
from ygo_fsm.game import Position, Zone, card_id_uids

# --- cards --------------------------------------------------------------------------------------


def spec(card_id: str, card_type: str, *effects: dict[str, Any], **extra: Any) -> CardSpec:
    """A card for these tests: monsters default to 500 ATK / 500 DEF."""
    if card_type == "monster":
        extra = {"atk": 500, "def": 500, **extra}
    return card_spec(card_id, card_type, *effects, **extra)


@register_resolution("test_battle_cannot_attack")
def _cannot_attack(duel: Duel, link: Any) -> None:
    """A 「グラヴィティ・バインド」-like effect written as Python: monsters cannot attack for the rest of the turn."""
    duel.add_turn_effect(TurnEffect.cannot_attack)


VANILLA = spec("vanilla", "monster")
GRAVITY_BIND = spec("gravity_bind", "trap", {"kind": "normal_trap", "location": "set", "events": ["attack_declared"],
                                            "resolution": [{"op": "callable", "name": "test_battle_cannot_attack"}]})
"""An attack-declaration trap whose resolution makes monsters unable to attack."""
GRAVITY_BIND_OP = spec("gravity_bind_op", "trap", {"kind": "normal_trap", "location": "set",
                                                  "events": ["attack_declared"],
                                                  "resolution": [{"op": "cannot_attack"}]})
"""The same, written with the vocabulary's own ``cannot_attack`` operation."""
SELF_DESTRUCT = spec("self_destruct", "trap", {"kind": "normal_trap", "location": "set", "target": "own_monster",
                                              "resolution": [{"op": "destroy", "what": "target"}]})
"""Destroys one of its controller's monsters (the attack target leaves the field)."""
SWAP = spec("swap", "trap", {"kind": "normal_trap", "location": "set", "target": "own_monster",
                            "resolution": [{"op": "destroy", "what": "target"},
                                           {"op": "special_summon", "what": "vanilla", "from": "hand"}]})
"""Destroys one of its controller's monsters, then special summons 「vanilla」 from the hand:
the number of monsters is unchanged (004 结果上没有发生怪兽数量增减)."""
OWN_SUMMON = spec("own_summon", "spell", {"kind": "quick_play_spell", "location": "hand",
                                         "resolution": [{"op": "special_summon", "what": "vanilla", "from": "hand"}]})
DS_COUNTER = spec("ds_counter", "trap", {"kind": "counter_trap", "location": "set",
                                        "resolution": [{"op": "special_summon", "what": "vanilla", "from": "hand"}]})
"""A counter trap (allowed in the Damage Step, 004) whose resolution special summons a monster."""
TARGETED_TRAP = spec("targeted_trap", "trap", {"kind": "normal_trap", "location": "set",
                                              "events": ["targeted_for_attack"],
                                              "resolution": [{"op": "recover", "amount": 100, "to": "controller"}]})
"""A 『XX成为攻击对象时』 trap."""
ATK_MOD = spec("atk_mod", "spell", {"kind": "quick_play_spell", "location": "hand",
                                   "resolution": [{"op": "modify_atk", "amount": 500}]})
"""A quick effect that changes ATK (004 增减怪兽的攻击力·守备力的效果)."""
COUNTER = spec("counter", "trap", {"kind": "counter_trap", "location": "set",
                                  "resolution": [{"op": "recover", "amount": 100, "to": "controller"}]})
DUMMY_TRAP = spec("dummy_trap", "trap")
"""A Set card for 「サイクロン」 to target."""

LIB = {**default_library(), **{c.id: c for c in (VANILLA, GRAVITY_BIND, GRAVITY_BIND_OP, SELF_DESTRUCT, SWAP,
                                                  OWN_SUMMON, DS_COUNTER, TARGETED_TRAP, ATK_MOD, COUNTER,
                                                  DUMMY_TRAP)}}


# --- building and driving duels -------------------------------------------------------------------


def mon(atk: int, defence: int = 0, position: str = "attack", face_up: bool = True, name: str = "M") -> dict[str, Any]:
    return {"name": name, "atk": atk, "def": defence, "position": position, "face_up": face_up}


def at(card_id: str, zone: str = "hand", **extra: Any) -> dict[str, Any]:
    return {"card": card_id, "zone": zone, **extra}


def set_card(card_id: str) -> dict[str, Any]:
    """Set on turn 2: usable on turn 3 (002 盖放的陷阱没有经过一回合的话不可以发动)."""
    return at(card_id, "spell_trap", set_turn=2)


def duel_of(a: Sequence[dict[str, Any]] = (), b: Sequence[dict[str, Any]] = (), *,
            a_cards: Sequence[dict[str, Any]] = (), b_cards: Sequence[dict[str, Any]] = (),
            profile: str = "ocg2008", phase: str = "battle_phase", a_lp: int = 8000, b_lp: int = 8000,
            effects: Sequence[str] = ()) -> Duel:
    setup = Setup.model_validate({
        "profile": profile, "turn": 3, "phase": phase, "effects": list(effects),
        "players": {"A": {"lp": a_lp, "monsters": list(a), "cards": list(a_cards)},
                    "B": {"lp": b_lp, "monsters": list(b), "cards": list(b_cards)}}})
    return Duel(card_id_uids(setup), library=LIB)


def acts(duel: Duel) -> list[str]:
    return [str(a) for a in duel.legal_actions(judge=True)]


def options(duel: Duel, name: str) -> set[str]:
    return {a.choice for a in duel.legal_actions(judge=True) if a.name == name and a.choice}


def pass_until(duel: Duel, done: Callable[[Duel], bool], limit: int = 60) -> None:
    for _ in range(limit):
        if done(duel):
            return
        assert "pass" in acts(duel), f"cannot pass in {duel.state}: {acts(duel)}"
        duel.apply("pass")
    assert done(duel), f"not reached; now in {duel.state}"


def in_state(path: str) -> Callable[[Duel], bool]:
    return lambda duel: duel.state == path


BATTLE_STEP = "battle_phase.battle_step.turn_player"


def attack(duel: Duel, attacker: str, target: str) -> None:
    """From the Start Step: go to the Battle Step, declare the attack and choose the target."""
    pass_until(duel, in_state(BATTLE_STEP))
    duel.apply(f"declare_attack {attacker}")
    duel.apply(f"choose_target {target}")


def to_declaration_window_opponent(duel: Duel) -> None:
    pass_until(duel, in_state("battle_phase.attack_declaration.declaration_window.opponent"))


def finish_attack(duel: Duel, limit: int = 60) -> None:
    """Pass until the attack is over (back in the Battle Step, or the duel is over)."""
    pass_until(duel, lambda d: d.is_over or (d.attack is None and d.state == BATTLE_STEP), limit)


def transitions(duel: Duel, machine: str) -> list[tuple[str, str]]:
    return [(r.source, r.dest) for r in duel.trace if r.machine == machine]


def visited(duel: Duel, machine: str) -> set[str]:
    return {state for pair in transitions(duel, machine) for state in pair}


def activate_and_resolve(duel: Duel, key: str) -> None:
    """Activate ``key`` and let the chain resolve (both players pass)."""
    duel.apply(f"activate {key}")
    pass_until(duel, lambda d: not d.chain)


# --- the Start Step ---------------------------------------------------------------------------------


def test_start_step_goes_to_battle_step_when_a_monster_can_attack() -> None:
    """000 ●バトルフェイズ【１】◇·回合场上有可以攻击的怪兽的场合，进入【２】バトルステップ."""
    duel = duel_of([mon(1000)])
    pass_until(duel, in_state(BATTLE_STEP))
    assert ("start_step", "battle_step") in transitions(duel, "battle_phase")
    assert "a_monster_1" in options(duel, "declare_attack")


@pytest.mark.parametrize("monsters", [[], [mon(1000, position="defence")],
                                      [mon(1000, position="defence", face_up=False)]],
                         ids=["no_monster", "defence", "face_down"])
def test_start_step_goes_to_end_step_when_no_monster_can_attack(monsters: list) -> None:
    """000 ●バトルフェイズ【１】◇·回合场上没可以攻击的怪兽…的场合，进入【４】エンドステップ; 004 攻击宣言
    1. 从自己场上的表侧攻击表示怪兽中选择进行攻击的怪兽 (only face-up Attack Position monsters attack)."""
    duel = duel_of(monsters, [mon(100)])
    pass_until(duel, lambda d: d.in_state("battle_phase.end_step"))
    assert ("start_step", "end_step") in transitions(duel, "battle_phase")
    assert "battle_step" not in visited(duel, "battle_phase")


def test_cannot_attack_effect_sends_the_start_step_to_the_end_step() -> None:
    """000 ●バトルフェイズ【１】◇·「光の護封剣」等『不能攻击』的效果适用的场合，进入【４】エンドステップ."""
    duel = duel_of([mon(1000)], effects=["cannot_attack"])
    pass_until(duel, lambda d: d.in_state("battle_phase.end_step"))
    assert ("start_step", "end_step") in transitions(duel, "battle_phase")


# --- attack declaration ---------------------------------------------------------------------------------


def test_each_monster_attacks_once_per_battle_phase() -> None:
    """002 ●战斗阶段◇玩家在自己的战斗阶段，自己场上一个怪兽可以攻击一回 / 攻击过一回的自己怪兽，这个战斗阶段
    中不能再次攻击宣言."""
    duel = duel_of([mon(1000), mon(1200)])
    pass_until(duel, in_state(BATTLE_STEP))
    assert options(duel, "declare_attack") == {"a_monster_1", "a_monster_2"}
    duel.apply("declare_attack a_monster_1")
    duel.apply("choose_target direct")
    finish_attack(duel)
    assert options(duel, "declare_attack") == {"a_monster_2"}
    duel.apply("declare_attack a_monster_2")
    duel.apply("choose_target direct")
    finish_attack(duel)
    assert "declare_attack" not in {a.name for a in duel.legal_actions()}
    assert duel.players["B"].lp == 8000 - 1000 - 1200


def test_direct_attack_only_when_the_opponent_has_no_monster() -> None:
    """002 ●战斗阶段【攻击宣言・选择对象】对手场上没有怪兽存在的话，可以攻击对手玩家 (004 the same)."""
    duel = duel_of([mon(1000)])
    pass_until(duel, in_state(BATTLE_STEP))
    duel.apply("declare_attack a_monster_1")
    assert options(duel, "choose_target") == {"direct"}


@pytest.mark.parametrize("theirs", [[mon(100)], [mon(100), mon(200, 300, "defence")],
                                    [mon(100, 300, "defence", face_up=False)]],
                         ids=["one", "two", "face_down"])
def test_no_direct_attack_while_the_opponent_has_a_monster(theirs: list) -> None:
    """002 ●战斗阶段【攻击宣言・选择对象】被攻击可能的对手怪兽一体; the direct attack only when they have none."""
    duel = duel_of([mon(1000)], theirs)
    pass_until(duel, in_state(BATTLE_STEP))
    duel.apply("declare_attack a_monster_1")
    assert options(duel, "choose_target") == {f"b_monster_{i + 1}" for i in range(len(theirs))}


def test_monster_special_summoned_in_the_battle_phase_may_attack() -> None:
    """002 ●战斗阶段【２】◇在战斗阶段中特殊召唤到自己场上的怪兽可以攻击."""
    duel = duel_of([mon(1000)], a_cards=[at("own_summon"), at("vanilla")])
    pass_until(duel, in_state(BATTLE_STEP))
    assert "vanilla" not in options(duel, "declare_attack")
    activate_and_resolve(duel, "own_summon")
    pass_until(duel, in_state(BATTLE_STEP))
    assert options(duel, "declare_attack") == {"a_monster_1", "vanilla"}


def test_no_normal_summon_or_position_change_in_the_battle_phase() -> None:
    """002 ●战斗阶段◇自己的战斗阶段中不能进行怪兽的通常召唤; ◇战斗阶段中，由玩家的意思改变怪兽不能变更表示形式."""
    duel = duel_of([mon(1000)], a_cards=[at("vanilla")])
    pass_until(duel, in_state(BATTLE_STEP))
    offered = {a.name for a in duel.legal_actions()}
    assert not {"normal_summon", "set_monster", "change_position", "flip_summon"} & offered
    assert "declare_attack" in offered


# --- cancel: the attacker can no longer attack ---------------------------------------------------------


def _cancelled(duel: Duel) -> None:
    """The attack was cancelled (000 ※攻击中止): no Damage Step, no damage, the attack is over."""
    assert ("declaration_window", "attack_cancelled") in transitions(duel, "attack_declaration") or \
        ("battle_step_priority", "attack_cancelled") in transitions(duel, "attack_declaration")
    assert "replay" not in visited(duel, "attack_declaration")
    assert "damage_step" not in visited(duel, "battle_phase")
    assert duel.last_attack is not None and duel.last_attack.outcome == "cancelled"


def test_attacker_changed_to_defence_cancels_the_attack() -> None:
    """000 ※攻击中止·连锁处理结束时，攻击怪兽处于不能攻击的状态的场合（被「重力解除」变成守备表示…），攻击中止."""
    duel = duel_of([mon(1900, name="サファイアドラゴン")], [mon(1000)], b_cards=[set_card("zero_gravity")])
    attack(duel, "a_monster_1", "b_monster_1")
    to_declaration_window_opponent(duel)
    activate_and_resolve(duel, "zero_gravity")
    finish_attack(duel)
    _cancelled(duel)
    assert duel.players["A"].lp == duel.players["B"].lp == 8000


def test_sakuretsu_and_zero_gravity_seed_example() -> None:
    """000 ※攻击中止 例: CHAIN1「炸裂装甲」 CHAIN2「重力解除」; 「サファイアドラゴン」 becomes defence, so it is
    no longer the attacking monster and 「炸裂装甲」 does nothing; the attack is cancelled."""
    duel = duel_of([mon(1900, 1600, name="サファイアドラゴン")], [mon(1000)],
                   b_cards=[set_card("sakuretsu_armor"), set_card("zero_gravity")])
    attack(duel, "a_monster_1", "b_monster_1")
    to_declaration_window_opponent(duel)
    duel.apply("activate sakuretsu_armor")
    duel.apply("pass")  # A does not respond
    duel.apply("respond zero_gravity")
    pass_until(duel, lambda d: not d.chain)
    dragon = duel.players["A"].monsters[0]
    assert dragon.uid == "a_monster_1" and dragon.position is Position.defence
    finish_attack(duel)
    _cancelled(duel)


@pytest.mark.parametrize("when", ["declaration_window", "battle_step_after_declaration"])
def test_attacker_leaving_the_field_cancels_the_attack(when: str) -> None:
    """000 ※攻击中止 (the attacking monster cannot attack); 004 ●…战斗步骤中该怪兽变成守备表示或离场等不可能
    继续进行战斗的场合不进入伤害步骤，不进行伤害计算 — at the declaration (「炸裂装甲」) or later in the Battle
    Step (「破壊輪」, 000 ●バトルフェイズ 例). 「vanilla」 (ATK 500) would deal 400 battle damage; only
    「破壊輪」's own damage (that monster's ATK, to both players) is dealt."""
    duel = duel_of([], [mon(100)], a_cards=[at("vanilla", "monster")],
                   b_cards=[set_card("sakuretsu_armor"), set_card("ring_of_destruction")])
    attack(duel, "vanilla", "b_monster_1")
    if when == "declaration_window":
        to_declaration_window_opponent(duel)
        activate_and_resolve(duel, "sakuretsu_armor")
    else:
        pass_until(duel, in_state("battle_phase.attack_declaration.battle_step_priority.opponent"))
        activate_and_resolve(duel, "ring_of_destruction>vanilla")
    finish_attack(duel)
    assert duel.where("vanilla") == ("A", Zone.graveyard)
    _cancelled(duel)
    ring_damage = 500 if when != "declaration_window" else 0
    assert duel.players["B"].lp == 8000 - ring_damage
    assert duel.players["A"].lp == 8000 - ring_damage


def test_ring_of_destruction_on_an_unnamed_attacker_deals_its_atk() -> None:
    """000 ●バトルフェイズ 例 CHAIN1发动「破壊輪」，选择「甲虫装甲騎士」: its effect (library label) destroys the
    monster and both players take damage equal to its ATK — also for a monster given only by stats."""
    duel = duel_of([mon(1900, name="甲虫装甲騎士")], [mon(1000)], b_cards=[set_card("ring_of_destruction")])
    attack(duel, "a_monster_1", "b_monster_1")
    pass_until(duel, in_state("battle_phase.attack_declaration.battle_step_priority.opponent"))
    activate_and_resolve(duel, "ring_of_destruction>a_monster_1")
    assert duel.players["A"].monsters == []
    assert duel.players["A"].lp == duel.players["B"].lp == 8000 - 1900


def test_cannot_attack_effect_cancels_the_attack() -> None:
    """000 ※攻击中止·连锁处理结束时，攻击怪兽…受「グラヴィティ・バインド－超重力の網－」等不能攻击的效果影响，
    攻击中止."""
    duel = duel_of([mon(1900)], [mon(1000)], b_cards=[set_card("gravity_bind")])
    attack(duel, "a_monster_1", "b_monster_1")
    to_declaration_window_opponent(duel)
    activate_and_resolve(duel, "gravity_bind")
    finish_attack(duel)
    _cancelled(duel)
    assert duel.players["B"].lp == 8000


def test_cannot_attack_operation_cancels_the_attack() -> None:
    """000 ※攻击中止 (as above), with the effect written as ``{op: cannot_attack}``."""
    duel = duel_of([mon(1900)], [mon(1000)], b_cards=[set_card("gravity_bind_op")])
    attack(duel, "a_monster_1", "b_monster_1")
    to_declaration_window_opponent(duel)
    activate_and_resolve(duel, "gravity_bind_op")
    finish_attack(duel)
    _cancelled(duel)


# --- replay: the opponent's monsters changed -------------------------------------------------------------


def _replayed(duel: Duel) -> None:
    """A replay happened: back to ２ choosing the target (000 ※战斗回卷，返回“２攻击怪兽的攻击对象”)."""
    assert duel.state == "battle_phase.attack_declaration.choose_target"
    assert ("replay", "choose_target") in transitions(duel, "attack_declaration")
    assert "attack_cancelled" not in visited(duel, "attack_declaration")


def test_opponent_special_summon_causes_a_replay() -> None:
    """004 ●…对方怪兽离场或其他对方怪兽特殊召唤等对方场上的怪兽数量发生变化时发生「卷回」 (例: 「活死人的呼声」);
    000 ※…连锁处理结束时的发动时点过后，战斗回卷. The new monster is a possible target."""
    duel = duel_of([mon(1900)], [mon(1000)], b_cards=[set_card("call_of_the_haunted"), at("vanilla", "graveyard")])
    attack(duel, "a_monster_1", "b_monster_1")
    to_declaration_window_opponent(duel)
    activate_and_resolve(duel, "call_of_the_haunted")
    pass_until(duel, in_state("battle_phase.attack_declaration.choose_target"))
    _replayed(duel)
    assert options(duel, "choose_target") == {"b_monster_1", "vanilla"}


def test_target_leaving_the_field_causes_a_replay() -> None:
    """000 ※战斗回卷·…对方怪兽离场…的场合…战斗回卷; with no monster left, the attack may become direct
    (002 对手场上没有怪兽存在的话，可以攻击对手玩家)."""
    duel = duel_of([mon(1900)], [], b_cards=[at("vanilla", "monster"), set_card("self_destruct")])
    attack(duel, "a_monster_1", "vanilla")
    to_declaration_window_opponent(duel)
    activate_and_resolve(duel, "self_destruct>vanilla")
    pass_until(duel, in_state("battle_phase.attack_declaration.choose_target"))
    _replayed(duel)
    assert options(duel, "choose_target") == {"direct"}


def test_replay_to_a_direct_attack_deals_the_attackers_atk() -> None:
    """000 ※战斗回卷 + 002 对手场上没有怪兽存在的话，可以攻击对手玩家 + 004 直接攻击…给予对方玩家攻击怪兽的攻击力
    数值的战斗伤害: after the only target left, the replayed attack may go direct."""
    duel = duel_of([mon(1900)], [], b_cards=[at("vanilla", "monster"), set_card("self_destruct")])
    attack(duel, "a_monster_1", "vanilla")
    to_declaration_window_opponent(duel)
    activate_and_resolve(duel, "self_destruct>vanilla")
    pass_until(duel, in_state("battle_phase.attack_declaration.choose_target"))
    duel.apply("choose_target direct")
    finish_attack(duel)
    assert duel.players["B"].lp == 8000 - 1900
    assert duel.last_attack is not None and duel.last_attack.direct and duel.last_attack.replayed


def test_attacking_players_own_effect_removing_an_opponent_monster_causes_a_replay() -> None:
    """004 ●…对方怪兽离场…对方场上的怪兽数量发生变化时发生「卷回」 — whoever's effect removed it: A's own
    「破壊輪」 destroys B's other monster in the Battle Step after the declaration."""
    duel = duel_of([mon(1900)], [mon(1000), mon(300)], a_cards=[set_card("ring_of_destruction")])
    attack(duel, "a_monster_1", "b_monster_1")
    pass_until(duel, in_state("battle_phase.attack_declaration.battle_step_priority.turn_player"))
    activate_and_resolve(duel, "ring_of_destruction>b_monster_2")
    pass_until(duel, in_state("battle_phase.attack_declaration.choose_target"))
    _replayed(duel)
    assert options(duel, "choose_target") == {"b_monster_1"}


def test_replacement_with_the_count_unchanged_causes_a_replay() -> None:
    """004 ●即使因效果处理1只怪兽离场后1只怪兽特殊召唤等结果上没有发生怪兽数量增减的场合，也视为怪兽数量发生变化:
    a monster other than the target is replaced; the count and the target are unchanged — still a replay."""
    duel = duel_of([mon(1900)], [mon(1000), mon(100)], b_cards=[set_card("swap"), at("vanilla")])
    attack(duel, "a_monster_1", "b_monster_1")
    to_declaration_window_opponent(duel)
    activate_and_resolve(duel, "swap>b_monster_2")
    assert len(duel.players["B"].monsters) == 2
    pass_until(duel, in_state("battle_phase.attack_declaration.choose_target"))
    _replayed(duel)


def test_replay_after_a_chain_in_the_battle_step_after_the_declaration() -> None:
    """004 ●自己的怪兽攻击宣言后，那个战斗步骤中…卷回; ●卡的效果处理或连锁处理途中怪兽数量发生变化的场合，
    在那些处理全部终了后发生卷回 — also for a chain in 000 ５攻击宣言后的战斗阶段中."""
    duel = duel_of([mon(1900)], [mon(1000)], b_cards=[set_card("call_of_the_haunted"), at("vanilla", "graveyard")])
    attack(duel, "a_monster_1", "b_monster_1")
    pass_until(duel, in_state("battle_phase.attack_declaration.battle_step_priority.opponent"))
    duel.apply("activate call_of_the_haunted")
    pass_until(duel, lambda d: not d.chain)
    assert duel.state.startswith("battle_phase.attack_declaration.battle_step_priority.window")
    pass_until(duel, in_state("battle_phase.attack_declaration.choose_target"))
    _replayed(duel)


@pytest.mark.parametrize("how", ["own_special_summon", "own_monster_destroyed"])
def test_attacking_players_own_monsters_changing_is_neither_cancel_nor_replay(how: str) -> None:
    """004 ●进行攻击宣言的玩家场上的怪兽数量发生增减的场合不会发生卷回 (and the attacker itself still can
    attack, so no cancel): the attack goes on to the Damage Step against the same target."""
    if how == "own_special_summon":
        duel = duel_of([mon(1900)], [mon(1000)], a_cards=[at("own_summon"), at("vanilla")])
        attack(duel, "a_monster_1", "b_monster_1")
        pass_until(duel, in_state("battle_phase.attack_declaration.battle_step_priority.turn_player"))
        activate_and_resolve(duel, "own_summon")
        assert duel.where("vanilla") == ("A", Zone.monster)
    else:
        duel = duel_of([mon(1900), mon(300)], [mon(1000)], b_cards=[set_card("ring_of_destruction")])
        attack(duel, "a_monster_1", "b_monster_1")
        to_declaration_window_opponent(duel)
        activate_and_resolve(duel, "ring_of_destruction>a_monster_2")
        assert [m.uid for m in duel.players["A"].monsters] == ["a_monster_1"]
    finish_attack(duel)
    assert "replay" not in visited(duel, "attack_declaration")
    assert "attack_cancelled" not in visited(duel, "attack_declaration")
    assert "damage_step" in visited(duel, "battle_phase")
    assert duel.last_attack is not None and duel.last_attack.target == "b_monster_1"
    assert duel.last_attack.outcome == "fought"


def test_no_replay_in_the_damage_step() -> None:
    """004 ●卷回只会发生在战斗步骤。在伤害步骤即使怪兽数量发生变化也不会发生卷回: the opponent special summons
    in the Damage Step (with a counter trap, allowed there); the battle goes on against the target."""
    duel = duel_of([mon(1900)], [mon(1000)], b_cards=[set_card("ds_counter"), at("vanilla")])
    attack(duel, "a_monster_1", "b_monster_1")
    pass_until(duel, in_state("battle_phase.damage_step.start_of_damage_step.opponent"))
    activate_and_resolve(duel, "ds_counter")
    assert duel.where("vanilla") == ("B", Zone.monster)
    finish_attack(duel)
    assert "replay" not in visited(duel, "attack_declaration")
    assert duel.last_attack is not None and duel.last_attack.outcome == "fought"
    assert duel.players["B"].lp == 8000 - 900
    assert duel.where("vanilla") == ("B", Zone.monster)
    assert [m.uid for m in duel.players["B"].monsters] == ["vanilla"]


# --- after a replay ---------------------------------------------------------------------------------------


def _replay_with(profile: str, b_cards: list) -> Duel:
    duel = duel_of([mon(1900)], [mon(1000)], profile=profile,
                   b_cards=[set_card("call_of_the_haunted"), at("vanilla", "graveyard"), *b_cards])
    attack(duel, "a_monster_1", "b_monster_1")
    to_declaration_window_opponent(duel)
    activate_and_resolve(duel, "call_of_the_haunted")
    pass_until(duel, in_state("battle_phase.attack_declaration.choose_target"))
    return duel


def test_after_a_replay_attack_declared_cards_are_not_offered_but_targeted_ones_are() -> None:
    """000 ※战斗回卷·…之后的时点不再是『攻击宣言时』的发动时点，『攻击时』『攻击宣言时』为发动条件的卡／效果不能
    发动; ·重新选择攻击对象之后的时点仍然是『XX成为攻击对象时』的发动时点 (004 例「神圣防护罩-反射镜力-」)."""
    duel = duel_of([mon(1900)], [mon(1000)],
                   b_cards=[set_card("mirror_force"), set_card("targeted_trap")])
    attack(duel, "a_monster_1", "b_monster_1")
    to_declaration_window_opponent(duel)
    before = options(duel, "activate")
    assert {"mirror_force", "targeted_trap"} <= before, "control: both fit the first declaration"

    duel = _replay_with("ocg2008", [set_card("mirror_force"), set_card("targeted_trap")])
    duel.apply("choose_target vanilla")
    to_declaration_window_opponent(duel)
    offered = options(duel, "activate")
    assert "mirror_force" not in offered
    assert "targeted_trap" in offered
    duel.apply("activate targeted_trap")
    duel.apply("pass")  # A does not respond; B may add a link
    assert "mirror_force" not in options(duel, "respond")


def test_modern_attacking_player_may_stop_the_attack_after_a_replay() -> None:
    """004 ●重新选择攻击对象时可以不选择任何怪兽而停止攻击。那个场合也视为进行过攻击宣言不能在同一战斗阶段再度攻击."""
    duel = _replay_with("modern", [])
    assert "stop_attack" in {a.name for a in duel.legal_actions()}
    duel.apply("stop_attack")
    pass_until(duel, in_state(BATTLE_STEP))
    assert duel.last_attack is not None and duel.last_attack.outcome == "stopped"
    assert "damage_step" not in visited(duel, "battle_phase")
    assert "a_monster_1" not in options(duel, "declare_attack")
    assert duel.players["A"].monsters[0].can_declare_attack, "it could attack but for its one attack being used"


def test_modern_no_stop_attack_at_the_first_target_choice() -> None:
    """004 ●重新选择攻击对象时…停止攻击: only when the target is chosen again after a replay."""
    duel = duel_of([mon(1900)], [mon(1000)], profile="modern")
    pass_until(duel, in_state(BATTLE_STEP))
    duel.apply("declare_attack a_monster_1")
    assert "stop_attack" not in {a.name for a in duel.legal_actions()}


def test_ocg2008_no_stop_attack_after_a_replay() -> None:
    """000 ※战斗回卷，返回“２攻击怪兽的攻击对象” (the 2008 rules give no choice to stop; stopping is 004's
    modern rule)."""
    duel = _replay_with("ocg2008", [])
    assert "stop_attack" not in {a.name for a in duel.legal_actions()}
    assert options(duel, "choose_target") == {"b_monster_1", "vanilla"}


def test_cancelled_attack_still_counts_as_the_monsters_attack() -> None:
    """004 ●如果没有任何其他效果适用，1只怪兽1回合游戏只能进行1次攻击宣言攻击无效的场合，基本上在当回合游戏中
    同一怪兽不能再次攻击: after 「重力解除」 cancels the attack, A's own 「重力解除」 turns the monster back to
    Attack Position; it still cannot declare another attack."""
    duel = duel_of([mon(1900)], [mon(1000)], a_cards=[set_card("zero_gravity")],
                   b_cards=[set_card("zero_gravity")])
    attack(duel, "a_monster_1", "b_monster_1")
    to_declaration_window_opponent(duel)
    b_gravity = next(c.uid for c in duel.players["B"].spell_traps)
    activate_and_resolve(duel, b_gravity)
    finish_attack(duel)
    _cancelled(duel)
    a_gravity = next(c.uid for c in duel.players["A"].spell_traps)
    activate_and_resolve(duel, a_gravity)
    pass_until(duel, in_state(BATTLE_STEP))
    assert duel.players["A"].monsters[0].can_declare_attack
    assert "a_monster_1" not in options(duel, "declare_attack")


# --- damage calculation --------------------------------------------------------------------------------


def _fight(a: dict[str, Any], b: dict[str, Any] | None, *, a_lp: int = 8000, b_lp: int = 8000) -> Duel:
    duel = duel_of([a], [b] if b else [], a_lp=a_lp, b_lp=b_lp)
    attack(duel, "a_monster_1", "b_monster_1" if b else "direct")
    finish_attack(duel)
    return duel


DAMAGE_TABLE = [
    # (A's attacker, B's monster, A's LP loss, B's LP loss, A's monster destroyed, B's monster destroyed)
    pytest.param(mon(2000), mon(1500), 0, 500, False, True, id="atk_gt_atk"),
    pytest.param(mon(1500), mon(2000), 500, 0, True, False, id="atk_lt_atk"),
    pytest.param(mon(1500), mon(1500), 0, 0, True, True, id="atk_eq_atk"),
    pytest.param(mon(0), mon(0), 0, 0, False, False, id="both_0_atk"),
    pytest.param(mon(2000), mon(3000, 1500, "defence"), 0, 0, False, True, id="atk_gt_def"),
    pytest.param(mon(1500), mon(100, 2000, "defence"), 500, 0, False, False, id="atk_lt_def"),
    pytest.param(mon(1500), mon(3000, 1500, "defence"), 0, 0, False, False, id="atk_eq_def"),
]


@pytest.mark.parametrize(("a", "b", "a_loss", "b_loss", "a_destroyed", "b_destroyed"), DAMAGE_TABLE)
def test_damage_calculation(a: dict, b: dict, a_loss: int, b_loss: int, a_destroyed: bool, b_destroyed: bool) -> None:
    """004 ●和对方怪兽进行伤害计算的场合: 攻击表示 — the higher ATK deals the difference, the lower is
    destroyed, equal ATK: no battle damage, both destroyed; 守备表示 — ATK against DEF: higher ATK destroys
    the defender (no damage), higher DEF deals the difference to the attacking player, equal: nothing;
    ●双方攻击力为0的攻击表示怪兽进行战斗的场合双方玩家都不受到战斗伤害，怪兽都不破坏."""
    duel = _fight(a, b)
    assert duel.players["A"].lp == 8000 - a_loss
    assert duel.players["B"].lp == 8000 - b_loss
    assert (duel.players["A"].monsters == []) is a_destroyed
    assert (duel.players["B"].monsters == []) is b_destroyed
    assert duel.players["A"].graveyard == int(a_destroyed)
    assert duel.players["B"].graveyard == int(b_destroyed)


def test_direct_attack_deals_the_attackers_atk() -> None:
    """004 ●直接攻击对方玩家的场合，给予对方玩家攻击怪兽的攻击力数值的战斗伤害."""
    duel = _fight(mon(1800), None)
    assert duel.players["B"].lp == 8000 - 1800
    assert duel.players["A"].lp == 8000


@pytest.mark.parametrize(("a", "b", "a_lp", "b_lp", "winner"), [
    pytest.param(mon(1800), None, 8000, 1500, "A", id="seed_example_direct"),
    pytest.param(mon(3000), mon(1000), 8000, 500, "A", id="atk_vs_atk"),
    pytest.param(mon(1000), mon(100, 2000, "defence"), 700, 8000, "B", id="attacker_hits_higher_def"),
])
def test_lp_zero_by_battle_damage_loses(a: dict, b: dict | None, a_lp: int, b_lp: int, winner: str) -> None:
    """000 ●メインフェイズ１ 例 进入战斗流程，「賢者ケイローン」攻击（对方LP 0）: ATK 1800 against LP 1500
    leaves LP 0 (not below) and the example ends there — the player at 0 LP has lost (the basic win
    condition, which the seeds take for granted). Also for damage from a monster battle and for the
    attacking player's own battle damage (004 伤害计算 守备力高的场合，给予攻击玩家那个差值的伤害)."""
    duel = _fight(a, b, a_lp=a_lp, b_lp=b_lp)
    loser = "B" if winner == "A" else "A"
    assert duel.is_over and duel.winner == winner
    assert duel.players[loser].lp == 0
    assert duel.legal_actions() == []


def test_face_down_target_turned_face_up_before_damage_calculation() -> None:
    """004 ●里侧表示的怪兽进行战斗的场合在伤害计算前这一时点变成表侧守备表示 — not before: at the start of the
    Damage Step it is still face-down."""
    duel = duel_of([mon(1000)], [mon(500, 1500, "defence", face_up=False)])
    attack(duel, "a_monster_1", "b_monster_1")
    target = duel.players["B"].monsters[0]
    pass_until(duel, in_state("battle_phase.damage_step.start_of_damage_step.turn_player"))
    assert not target.face_up
    pass_until(duel, in_state("battle_phase.damage_step.before_damage_calculation.turn_player"))
    assert target.face_up and target.position is Position.defence
    finish_attack(duel)
    assert duel.players["A"].lp == 8000 - 500, "ATK 1000 against DEF 1500"


def test_battle_destroyed_monsters_go_to_the_graveyard_at_the_end_of_the_damage_step() -> None:
    """004 ●…攻击力低的怪兽在那个伤害步骤结束时的时点破坏; ●战斗终了，将战斗破坏的怪兽送去墓地的时点 (伤害步骤
    结束时): after damage calculation the destroyed monster is still on the field; at the end of the Damage
    Step it is in the graveyard."""
    duel = duel_of([mon(1500)], b_cards=[at("vanilla", "monster")])
    attack(duel, "a_monster_1", "vanilla")
    pass_until(duel, in_state("battle_phase.damage_step.after_damage_calculation.turn_player"))
    assert duel.players["B"].lp == 8000 - 1000, "damage was calculated"
    assert duel.where("vanilla") == ("B", Zone.monster)
    pass_until(duel, in_state("battle_phase.damage_step.end_of_damage_step.turn_player"))
    assert duel.where("vanilla") == ("B", Zone.graveyard)
    assert duel.players["B"].graveyard_cards[0].destroyed_turn == 3, "destroyed by battle"


# --- Damage Step activations ----------------------------------------------------------------------------

SUBSTEPS = ["start_of_damage_step", "before_damage_calculation", "damage_calculation", "after_damage_calculation",
            "end_of_damage_step"]
BEFORE_CALCULATION = {"start_of_damage_step", "before_damage_calculation"}


def _in_substep(substep: str) -> Duel:
    duel = duel_of([mon(1500)], [mon(1000)], a_cards=[set_card("dummy_trap")],
                   b_cards=[set_card("counter"), at("cyclone", "spell_trap", set_turn=2), set_card("atk_mod")])
    attack(duel, "a_monster_1", "b_monster_1")
    pass_until(duel, in_state(f"battle_phase.damage_step.{substep}.opponent"))
    return duel


@pytest.mark.parametrize("substep", SUBSTEPS)
def test_damage_step_allows_by_substep(substep: str) -> None:
    """004 ●伤害步骤中，基本上即使是得到发动卡的优先权的玩家也不能发动卡片但是…反击陷阱/…增减怪兽的攻击力·守备力
    的效果…可以发动; ●增减怪兽的攻击力·守备力的效果只能在到伤害计算前为止的时点发动. 「サイクロン」 is none
    of these."""
    duel = _in_substep(substep)
    counter = EffectSpec.model_validate({"kind": "counter_trap", "location": "set"})
    cyclone = LIB["cyclone"].effects[0]
    atk_mod = ATK_MOD.effects[0]
    assert damage_step_allows(duel.game, counter)
    assert not damage_step_allows(duel.game, cyclone)
    assert damage_step_allows(duel.game, atk_mod) is (substep in BEFORE_CALCULATION)


def test_damage_step_allows_everything_outside_the_damage_step() -> None:
    """004 (the Damage Step limits apply only in the Damage Step): in the Battle Step after the declaration
    「サイクロン」 and the ATK modifier may be activated."""
    duel = duel_of([mon(1500)], [mon(1000)], a_cards=[set_card("dummy_trap")],
                   b_cards=[set_card("counter"), at("cyclone", "spell_trap", set_turn=2), set_card("atk_mod")])
    attack(duel, "a_monster_1", "b_monster_1")
    pass_until(duel, in_state("battle_phase.attack_declaration.battle_step_priority.opponent"))
    assert damage_step_allows(duel.game, LIB["cyclone"].effects[0])
    offered = options(duel, "activate")
    assert {"counter", "cyclone>dummy_trap", "atk_mod"} <= offered


@pytest.mark.parametrize("substep", SUBSTEPS)
def test_damage_step_offered_activations_by_substep(substep: str) -> None:
    """004 (as above), through what the opponent is offered when they hold priority in each of the five parts:
    the counter trap always, 「サイクロン」 never, the ATK modifier only up to before damage calculation."""
    duel = _in_substep(substep)
    offered = options(duel, "activate")
    assert "counter" in offered
    assert not any(key.startswith("cyclone") for key in offered)
    assert ("atk_mod" in offered) is (substep in BEFORE_CALCULATION)


def test_damage_step_chain_responses_are_limited_too() -> None:
    """004 ●伤害步骤中，基本上即使是得到发动卡的优先权的玩家也不能发动卡片 — responses included: when B activates
    the ATK modifier at the start of the Damage Step, A may chain a counter trap but not 「サイクロン」. (In the
    Battle Step both responses are offered — control.)"""
    def duel_at(state: str) -> Duel:
        duel = duel_of([mon(1500)], [mon(1000)], a_cards=[set_card("counter"), at("cyclone", "spell_trap", set_turn=2)],
                       b_cards=[set_card("atk_mod")])
        attack(duel, "a_monster_1", "b_monster_1")
        pass_until(duel, in_state(state))
        duel.apply("activate atk_mod")
        assert duel.priority == "A"
        return duel

    control = options(duel_at("battle_phase.attack_declaration.battle_step_priority.opponent"), "respond")
    assert {"counter", "cyclone>atk_mod"} <= control
    offered = options(duel_at("battle_phase.damage_step.start_of_damage_step.opponent"), "respond")
    assert "counter" in offered
    assert not any(key.startswith("cyclone") for key in offered)
