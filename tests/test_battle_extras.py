"""Battle rules beyond the attack itself: the opponent choosing the target, flip effects waiting
until after damage calculation, and phase effects of the Battle Phase's End Step."""

from __future__ import annotations

from typing import Any

from helpers import legal
from helpers import pass_to as pass_until

from ygo_fsm import Duel, Setup
from ygo_fsm.cards import CardSpec
from ygo_fsm.game import Zone, card_id_uids


def library(*cards: dict[str, Any]) -> dict[str, CardSpec]:
    return {card["id"]: CardSpec.model_validate(card) for card in cards}


def test_opponent_chooses_the_target_under_noble_de_noir() -> None:
    """000 【怪兽的攻击宣言…】２·对方「ノーブル・ド・ノワール」的效果适用的场合，攻击对象由对方选择."""
    setup = Setup.model_validate({
        "turn": 3, "phase": "battle_phase", "effects": ["opponent_chooses_attack_target"],
        "players": {"A": {"monsters": [{"name": "Attacker", "atk": 1900}]},
                    "B": {"monsters": [{"name": "Weak", "atk": 500}, {"name": "Strong", "atk": 2500}]}}})
    duel = Duel(card_id_uids(setup))
    pass_until(duel, "battle_phase.battle_step")
    duel.apply("declare_attack a_monster_1")
    assert duel.state == "battle_phase.attack_declaration.target_chosen_by_opponent"
    assert duel.priority == "B"
    assert legal(duel) == ["choose_target b_monster_1", "choose_target b_monster_2"]
    duel.apply("choose_target b_monster_2")
    assert duel.attack is not None and duel.attack.target == "b_monster_2"


def test_without_noble_de_noir_the_attacking_player_chooses() -> None:
    """000 【怪兽的攻击宣言…】２ 攻击怪兽的攻击对象: the turn player chooses."""
    setup = Setup.model_validate({
        "turn": 3, "phase": "battle_phase",
        "players": {"A": {"monsters": [{"name": "Attacker", "atk": 1900}]},
                    "B": {"monsters": [{"name": "Weak", "atk": 500}]}}})
    duel = Duel(card_id_uids(setup))
    pass_until(duel, "battle_phase.battle_step")
    duel.apply("declare_attack a_monster_1")
    assert duel.state == "battle_phase.attack_declaration.choose_target" and duel.priority == "A"


FLIP = {"id": "flip_monster", "name_ja": "リバース", "name_zh": "反转怪兽", "type": "monster", "atk": 300,
        "def": 2000, "level": 3,
        "effects": [{"kind": "flip", "mandatory": True, "events": ["flipped"], "location": "field",
                     "resolution": [{"op": "damage", "amount": 500, "to": "opponent"}]}]}


def test_flip_effect_waits_until_after_damage_calculation() -> None:
    """004 ●里侧表示的怪兽进行战斗的场合在伤害计算前这一时点变成表侧守备表示。即使持有反转时发动的效果的
    场合，也不会在这一时点发动; ●『伤害计算后』…『反转时发动』的效果依照优先度组成连锁发动."""
    setup = Setup.model_validate({
        "turn": 3, "phase": "battle_phase",
        "players": {"A": {"monsters": [{"name": "Attacker", "atk": 1000}]},
                    "B": {"cards": [{"card": "flip_monster", "zone": "monster", "position": "defence",
                                     "face_up": False, "set_turn": 2}]}}})
    duel = Duel(card_id_uids(setup), library=library(FLIP))
    pass_until(duel, "battle_phase.battle_step")
    duel.apply("declare_attack a_monster_1")
    duel.apply("choose_target flip_monster")
    pass_until(duel, "battle_phase.damage_step.before_damage_calculation")
    monster = duel.players["B"].monsters[0]
    assert monster.face_up and monster.position.value == "defence", "turned face-up, still in defence"
    assert "activate flip_monster" not in legal(duel), "its flip effect does not activate yet"
    pass_until(duel, "battle_phase.damage_step.after_damage_calculation")
    assert duel.state == "battle_phase.damage_step.after_damage_calculation.build"
    assert duel.priority == "B" and legal(duel) == ["activate flip_monster"]
    assert duel.players["A"].lp == 8000 - 1000, "1000 ATK against 2000 DEF: A takes the difference"
    duel.apply("activate flip_monster")
    pass_until(duel, "battle_phase.damage_step.after_damage_calculation.turn_player")
    assert duel.players["A"].lp == 8000 - 1000 - 500, "then the flip effect's 500"


STEP_EFFECT = {"id": "goblin_like", "name_ja": "ゴブリン突撃部隊", "name_zh": "哥布林突击部队", "type": "monster",
               "atk": 2300, "def": 0, "level": 4,
               "effects": [{"kind": "processing", "mandatory": True, "phase": "battle_end_step",
                            "location": "field", "conditions": {"controller_is_turn_player": True},
                            "resolution": [{"op": "recover", "amount": 100, "to": "controller"}]}]}


def test_end_step_phase_effects_are_handled_before_the_battle_phase_ends() -> None:
    """000 ●バトルフェイズ【４】エンドステップ◇…『战斗流程结束时～』的效果处理（不进入连锁）「ゴブリン突撃部隊」;
    both passing with it pending, the turn player handles it first."""
    setup = Setup.model_validate({
        "turn": 3, "phase": "battle_phase",
        "players": {"A": {"cards": [{"card": "goblin_like", "zone": "monster", "position": "defence"}]}}})
    duel = Duel(card_id_uids(setup), library=library(STEP_EFFECT))
    pass_until(duel, "battle_phase.end_step")
    assert legal(duel) == ["pass", "process goblin_like"]
    duel.apply("pass")
    duel.apply("pass")
    assert duel.state == "battle_phase.end_step.turn_player_handles"
    duel.apply("process goblin_like")
    assert duel.players["A"].lp == 8100
    pass_until(duel, "main_phase_2")
    assert duel.in_state("main_phase_2")


def _attack_with(cards_a: list[dict[str, Any]], cards_b: list[dict[str, Any]], target_atk: int = 1000,
                 profile: str = "modern") -> Duel:
    setup = Setup.model_validate({
        "profile": profile, "turn": 3, "phase": "battle_phase",
        "players": {"A": {"monsters": [{"name": "Attacker", "atk": 1900}], "cards": cards_a},
                    "B": {"monsters": [{"name": "Target", "atk": target_atk}], "cards": cards_b}}})
    duel = Duel(card_id_uids(setup))
    pass_until(duel, "battle_phase.battle_step")
    return duel


def test_toll_is_paid_on_the_declaration_without_a_chain_link() -> None:
    """000 【怪兽的攻击宣言…】１·「…通行税…」等的效果适用的场合，此时进行处理（不进入连锁）."""
    duel = _attack_with([{"card": "toll", "zone": "spell_trap", "face_up": True}], [])
    duel.apply("declare_attack a_monster_1")
    assert duel.state == "battle_phase.attack_declaration.choose_target"
    assert duel.players["A"].lp == 7500, "paid when the attack is declared, before the target"
    assert duel.chain == [], "no chain link"


def test_silver_screen_applies_after_the_declaration() -> None:
    """000 【怪兽的攻击宣言…】３攻击宣言后处理的效果·表侧表示的「銀幕の鏡壁」等的效果在此时适用."""
    duel = _attack_with([], [{"card": "silver_screen_mirror_wall", "zone": "spell_trap", "face_up": True}],
                        target_atk=500, profile="ocg2008")  # 000: B ends the halving by hand in the End Step
    duel.apply("declare_attack a_monster_1")
    assert duel.players["A"].monsters[0].atk == 1900, "not yet at step 2"
    duel.apply("choose_target b_monster_1")
    assert duel.in_state("battle_phase.attack_declaration.declaration_window")
    assert duel.players["A"].monsters[0].atk == 950
    assert duel.chain == []
    pass_until(duel, "battle_phase.end_step")
    duel.apply("pass")                      # A; B ends the halving, which lasts until the End Step
    assert duel.priority == "B" and "process until_a_monster_1" in [str(a) for a in duel.legal_actions()]
    duel.apply("process until_a_monster_1")
    assert duel.players["A"].monsters[0].atk == 1900


def test_cancel_is_checked_after_a_chain_started_in_the_window_after_another_chain() -> None:
    """000 ※攻击中止·连锁处理结束时，攻击怪兽处于不能攻击的状态的场合…攻击中止 — after *every* chain in
    the Battle Step, including one started in the window that follows an earlier chain."""
    duel = _attack_with([], [{"card": "holy_javelin", "zone": "spell_trap"},
                             {"card": "zero_gravity", "zone": "spell_trap"}])
    duel.apply("declare_attack a_monster_1")
    duel.apply("choose_target b_monster_1")
    duel.apply("pass")                         # A, declaration window
    duel.apply("activate holy_javelin")        # B: a chain that leaves the attacker able to attack
    duel.apply("pass")
    duel.apply("pass")
    assert duel.attack is not None and duel.attack.outcome == ""
    assert duel.in_state("battle_phase.attack_declaration.declaration_window")
    duel.apply("pass")                         # A, in the window after that chain
    duel.apply("activate zero_gravity")        # B starts CHAIN1 there: the attacker goes to defence
    duel.apply("pass")
    duel.apply("pass")
    assert duel.attack is not None and duel.attack.outcome == "cancelled", "cancelled as that chain ends"
    pass_until(duel, "battle_phase.battle_step")
    assert duel.last_attack is not None and duel.last_attack.outcome == "cancelled"
    assert duel.players["B"].monsters, "no Damage Step: the target survived"


def test_the_window_after_the_chain_opens_even_when_the_attack_is_cancelled() -> None:
    """000 ※…发动时点的出现条件◇每次连锁处理结束后…出现『连锁处理结束后的发动时点』: the attack is cancelled
    as the chain ends, and the window after that chain still opens (000's step 5: ocg2008)."""
    duel = _attack_with([], [{"card": "zero_gravity", "zone": "spell_trap"}], profile="ocg2008")
    duel.apply("declare_attack a_monster_1")
    duel.apply("choose_target b_monster_1")
    pass_until(duel, "battle_phase.attack_declaration.battle_step_priority.opponent")
    duel.apply("activate zero_gravity")
    duel.apply("pass")
    duel.apply("pass")
    assert duel.attack is not None and duel.attack.outcome == "cancelled"
    assert duel.state == "battle_phase.attack_declaration.battle_step_priority.window.turn_player"


def test_a_monster_that_attacks_in_defence_keeps_attacking_when_changed_to_defence() -> None:
    """000 ※攻击中止…（「絶対防御将軍」等守备表示的状态也可以攻击的怪兽变成守备表示的场合，攻击仍有效）."""
    setup = Setup.model_validate({
        "profile": "ocg2008", "turn": 3, "phase": "battle_phase",
        "players": {"A": {"cards": [{"card": "total_defense_shogun", "zone": "monster"}]},
                    "B": {"monsters": [{"name": "Target", "atk": 2000}],
                          "cards": [{"card": "zero_gravity", "zone": "spell_trap"}]}}})
    duel = Duel(card_id_uids(setup))
    pass_until(duel, "battle_phase.battle_step")
    duel.apply("declare_attack total_defense_shogun")
    duel.apply("choose_target b_monster_1")
    pass_until(duel, "battle_phase.attack_declaration.battle_step_priority.opponent")
    duel.apply("activate zero_gravity")      # it goes to Defense Position
    duel.apply("pass")
    duel.apply("pass")
    assert duel.players["A"].monsters[0].position.value == "defence"
    assert duel.attack is not None and duel.attack.outcome == "", "the attack goes on"
    pass_until(duel, "battle_phase.damage_step.after_damage_calculation")
    # its DEF 2500 against the target, now in Defense Position (DEF 0): the target is destroyed
    assert duel.attack is not None and duel.attack.destroyed == ["b_monster_1"]


def test_a_monster_that_left_the_field_and_returned_may_attack_again() -> None:
    """002 ●战斗阶段◇攻击过一回的自己怪兽，这个战斗阶段中不能再次攻击宣言 — a monster destroyed in battle
    and special summoned again is a new monster; it may declare an attack."""
    setup = Setup.model_validate({
        "profile": "ocg2008", "turn": 2, "phase": "battle_phase",
        "players": {"A": {"cards": [{"card": "sapphire_dragon", "zone": "monster"},
                                    {"card": "call_of_the_haunted", "zone": "spell_trap"}]},
                    "B": {"cards": [{"card": "beetle_armor_knight", "zone": "monster"}]}}})
    duel = Duel(card_id_uids(setup))
    pass_until(duel, "battle_phase.battle_step")
    duel.apply("declare_attack sapphire_dragon")
    duel.apply("choose_target beetle_armor_knight")   # 1900 against 1900: both are destroyed
    pass_until(duel, "battle_phase.battle_step")
    assert duel.where("sapphire_dragon") == ("A", Zone.graveyard)
    duel.apply("activate call_of_the_haunted")
    duel.apply("pass")
    duel.apply("pass")
    pass_until(duel, "battle_phase.battle_step.turn_player")
    assert "declare_attack sapphire_dragon" in legal(duel)


def test_a_monster_special_summoned_in_the_battle_phase_may_attack() -> None:
    """002 ●战斗阶段【２】◇在战斗阶段中特殊召唤到自己场上的怪兽可以攻击."""
    setup = Setup.model_validate({
        "profile": "ocg2008", "turn": 2, "phase": "battle_phase",
        "players": {"A": {"monsters": [{"name": "First", "atk": 1000}],
                          "cards": [{"card": "call_of_the_haunted", "zone": "spell_trap"},
                                    {"card": "sapphire_dragon", "zone": "graveyard"}]}}})
    duel = Duel(card_id_uids(setup))
    pass_until(duel, "battle_phase.battle_step")
    duel.apply("activate call_of_the_haunted")
    duel.apply("pass")
    duel.apply("pass")
    pass_until(duel, "battle_phase.battle_step.turn_player")
    assert "declare_attack sapphire_dragon" in legal(duel)
