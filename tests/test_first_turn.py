"""The first turn under the modern rules combined with effects that would change its Draw Phase or
Battle Phase (004 ●先攻第1回合游戏玩家的抽卡階段不能通常抽卡; 004 ●先攻第1回合游戏玩家不能进行战斗阶段;
000 ●ドローフェイズ【情况Ｂ】; 002 【※下一个阶段的选择】「偉大天狗」「クロス・ソウル」「魔霧雨」).

On the first turn there is no normal draw to replace and no Battle Phase to skip or forbid: the
first-turn rule decides, and the duel goes on. Expected values come from the rule text.
"""

from __future__ import annotations

import pytest
from conftest import pass_until
from helpers import judge_duel

from ygo_fsm import Duel, Setup


def first_turn(*effects: str) -> Duel:
    setup = Setup.model_validate({"profile": "modern", "effects": list(effects),
                                  "players": {"A": {"hand": 5, "deck": 35}}})
    return judge_duel(setup)


def test_first_turn_draw_phase_with_a_draw_replacing_effect() -> None:
    """004 ●先攻第1回合游戏玩家的抽卡階段不能通常抽卡 with 000 ●ドローフェイズ【情况Ｂ】 (an effect that applies
    instead of the normal draw): on the first turn there is no normal draw, so there is nothing to
    replace — the first player neither draws nor gets the replacement's window, and the Draw Phase
    goes on in the open game state."""
    duel = first_turn("draw_replaced")
    assert duel.turn == 1 and duel.turn_player == "A"
    duel.apply("pass")
    duel.apply("pass")
    assert duel.state == "draw_phase.open.turn_player"
    assert duel.players["A"].hand == 5 and duel.players["A"].deck == 35
    assert not any(record.dest == "replacement_window" for record in duel.trace)
    pass_until(duel, lambda d: d.in_state("main_phase_1"))
    assert duel.players["A"].hand == 5


@pytest.mark.parametrize("effect", ["skip_battle_phase", "cannot_enter_battle_phase"])
def test_first_turn_battle_phase_with_a_skip_or_a_ban(effect: str) -> None:
    """004 ●先攻第1回合游戏玩家不能进行战斗阶段 with 002 【※下一个阶段的选择】◇「偉大天狗」的“战斗阶段跳过” /
    「クロス・ソウル」「魔霧雨」等的“不能进入战斗阶段”: on the first turn the first player has no Battle Phase
    anyway; after Main Phase 1 the End Phase follows with no choice offered, and the turn ends."""
    duel = first_turn(effect)
    pass_until(duel, lambda d: d.state == "main_phase_1.open.turn_player")
    assert "enter_battle_phase" not in {a.name for a in duel.legal_actions()}
    pass_until(duel, lambda d: d.in_state("end_phase"))
    assert duel.turn == 1
    assert not any(record.machine == "battle_phase" for record in duel.trace)
    pass_until(duel, lambda d: d.turn == 2)
    assert duel.turn_player == "B"


def test_ocg2008_first_turn_battle_phase_ended_by_an_effect_in_the_start_step() -> None:
    """002 【※下一个阶段的选择】◇先攻的第一回合战斗阶段攻击不可。（进入战斗阶段可能） with 004 ●『战斗阶段结束』的效果
    处理的场合，直接进入结束步骤: under ocg2008 the first player may enter the Battle Phase on turn 1 but
    not attack; an effect ending the Battle Phase in the Start Step changes nothing of that — the
    End Step follows, and the turn goes on to Main Phase 2."""
    from helpers import card_spec, judge_duel

    from ygo_fsm.cards import default_library

    end_battle = card_spec("end_battle_qp", "spell", {"kind": "quick_play_spell", "location": "hand",
                                                      "resolution": [{"op": "end_battle_phase"}]})
    setup = Setup.model_validate({"profile": "ocg2008", "phase": "main_phase_1",
                                  "players": {"A": {"monsters": [{"name": "M", "atk": 1000}],
                                                    "cards": [{"card": "end_battle_qp", "zone": "hand"}]}}})
    duel = judge_duel(setup, library={**default_library(), "end_battle_qp": end_battle})
    assert duel.turn == 1
    pass_until(duel, lambda d: "enter_battle_phase" in {a.name for a in d.legal_actions()})
    duel.apply("enter_battle_phase")
    assert duel.state == "battle_phase.start_step.turn_player"
    duel.apply("activate end_battle_qp")
    pass_until(duel, lambda d: not d.chain)
    pass_until(duel, lambda d: d.state == "battle_phase.end_step.turn_player")
    assert not any(record.dest == "battle_step" for record in duel.trace)
    pass_until(duel, lambda d: d.in_state("main_phase_2"))


def test_ocg2008_first_turn_battle_phase_under_a_cannot_attack_effect() -> None:
    """002 【※下一个阶段的选择】◇先攻的第一回合战斗阶段攻击不可 with 000 ●バトルフェイズ【１】◇·「光の護封剣」等『不能
    攻击』的效果适用的场合，进入【４】エンドステップ: on the ocg2008 first turn, with a cannot-attack effect as well,
    the Start Step goes to the End Step and the turn goes on to Main Phase 2."""
    setup = Setup.model_validate({"profile": "ocg2008", "phase": "battle_phase", "effects": ["cannot_attack"],
                                  "players": {"A": {"monsters": [{"name": "M", "atk": 1000}]}}})
    duel = judge_duel(setup)
    assert duel.turn == 1
    pass_until(duel, lambda d: d.state == "battle_phase.end_step.turn_player")
    assert not any(record.dest == "battle_step" for record in duel.trace)
    pass_until(duel, lambda d: d.in_state("main_phase_2"))
