"""The attack target chosen by the opponent under 「ノーブル・ド・ノワール」: the rest of the declaration
goes on as usual, and after a replay the opponent chooses again (000 【怪兽的攻击宣言的场合，直到进入
伤害阶段之前的处理】２·３; 000 ※攻击中止、战斗回卷的处理). Under ``ocg2008``; expected values come from the
rule text.
"""

from __future__ import annotations

from typing import Any

from helpers import judge_duel
from test_battle import LIB, activate_and_resolve, at, in_state, mon, pass_until, set_card

from ygo_fsm import Duel, Setup

BATTLE_STEP = "battle_phase.battle_step.turn_player"
BY_OPPONENT = "battle_phase.attack_declaration.target_chosen_by_opponent"


def duel_with(b_cards: list[dict[str, Any]], b_monsters: list[dict[str, Any]]) -> Duel:
    setup = Setup.model_validate({
        "profile": "ocg2008", "turn": 3, "phase": "battle_phase", "effects": ["opponent_chooses_attack_target"],
        "players": {"A": {"monsters": [mon(1900, name="Attacker")]},
                    "B": {"monsters": b_monsters, "cards": b_cards}}})
    return judge_duel(setup, library=LIB)


def test_post_declaration_effects_apply_after_the_opponent_chooses_the_target() -> None:
    """000 【怪兽的攻击宣言…】２·对方「ノーブル・ド・ノワール」的效果适用的场合，攻击对象由对方选择, then
    ３攻击宣言后处理的效果·表侧表示的「銀幕の鏡壁」等的效果在此时适用: with the target chosen by the
    opponent, 「銀幕の鏡壁」 still halves the attacker's ATK before the 『攻击宣言时』 window opens."""
    duel = duel_with([{"card": "silver_screen_mirror_wall", "zone": "spell_trap", "face_up": True}],
                     [mon(500, name="Target")])
    pass_until(duel, in_state(BATTLE_STEP))
    duel.apply("declare_attack a_monster_1")
    assert duel.state == BY_OPPONENT
    duel.apply("choose_target b_monster_1")
    assert duel.in_state("battle_phase.attack_declaration.declaration_window")
    assert duel.players["A"].monsters[0].atk == 950


def test_after_a_replay_the_opponent_chooses_the_new_target() -> None:
    """000 ※攻击中止、战斗回卷的处理·…战斗回卷，返回“２攻击怪兽的攻击对象” with ２·对方「ノーブル・ド・ノワール」的效果
    适用的场合，攻击对象由对方选择: the replay goes back to step 2, where the opponent again chooses the
    target among their monsters, the new one included."""
    duel = duel_with([set_card("call_of_the_haunted"), at("vanilla", "graveyard")], [mon(1000, name="First")])
    pass_until(duel, in_state(BATTLE_STEP))
    duel.apply("declare_attack a_monster_1")
    duel.apply("choose_target b_monster_1")
    pass_until(duel, in_state("battle_phase.attack_declaration.declaration_window.opponent"))
    activate_and_resolve(duel, "call_of_the_haunted")
    assert len(duel.players["B"].monsters) == 2
    pass_until(duel, lambda d: not d.in_state("battle_phase.attack_declaration.declaration_window"))
    assert duel.state == BY_OPPONENT
    assert duel.priority == "B"
    assert {a.choice for a in duel.legal_actions() if a.name == "choose_target"} == {"b_monster_1", "vanilla"}
