"""An attack interrupted: an effect that ends the Battle Phase, a cannot-attack effect that starts
in the Battle Step, and a chain that both cancels the attack and changes the opponent's monsters
(004 ●『战斗阶段结束』的效果处理的场合，直接进入结束步骤; 000 ●バトルフェイズ【１】「光の護封剣」;
000 ※攻击中止、战斗回卷的处理; 004 ●卷回). All under ``ocg2008``, whose Battle Step is seed 000's.

Expected values come from the rule text, never from engine output.
"""

from __future__ import annotations

from typing import Any

import pytest
from helpers import card_spec, judge_duel
from test_battle import (
    BATTLE_STEP,
    LIB,
    activate_and_resolve,
    at,
    attack,
    finish_attack,
    in_state,
    mon,
    pass_until,
    set_card,
    transitions,
    visited,
)

from ygo_fsm import Duel, Setup

END_BATTLE = card_spec("end_battle", "trap", {"kind": "normal_trap", "location": "set",
                                              "resolution": [{"op": "end_battle_phase"}]})
"""A 「バトルフェーダー」-like effect as a trap: the Battle Phase ends (004 『战斗阶段结束』的效果)."""
SWORDS = card_spec("swords", "trap", {"kind": "normal_trap", "location": "set",
                                      "resolution": [{"op": "cannot_attack"}]})
"""A 「光の護封剣」-like effect: monsters cannot attack for the rest of the turn (000 『不能攻击』的效果)."""
REINFORCE = card_spec("reinforce", "trap", {"kind": "normal_trap", "location": "set",
                                            "resolution": [{"op": "special_summon", "what": "vanilla",
                                                            "from": "hand"}]})
"""Special summons 「vanilla」 from its controller's hand: the opponent's monster count changes (004 卷回)."""
CARDS = {**LIB, **{c.id: c for c in (END_BATTLE, SWORDS, REINFORCE)}}

DECLARATION_WINDOW = "battle_phase.attack_declaration.declaration_window.opponent"
AFTER_DECLARATION = "battle_phase.attack_declaration.battle_step_priority.opponent"
END_STEP = "battle_phase.end_step.turn_player"


def duel_with(b_cards: list[dict[str, Any]], *, a_monsters: int = 2, b_monsters: int = 1) -> Duel:
    """Turn 3, A's Battle Phase (ocg2008): A has ``a_monsters`` 1900-ATK monsters, B has
    ``b_monsters`` 1000-ATK monsters and ``b_cards`` (traps Set on turn 2, usable now)."""
    setup = Setup.model_validate({
        "profile": "ocg2008", "turn": 3, "phase": "battle_phase",
        "players": {"A": {"monsters": [mon(1900, name=f"A{i}") for i in range(a_monsters)]},
                    "B": {"monsters": [mon(1000, name=f"B{i}") for i in range(b_monsters)], "cards": b_cards}}})
    return judge_duel(setup, library=CARDS)


def names(duel: Duel) -> set[str]:
    return {action.name for action in duel.legal_actions()}


def battle_phase_is_over_without_damage(duel: Duel) -> None:
    """The Battle Phase went straight to its End Step: no Damage Step, no damage, no further attack,
    and passing there ends the Battle Phase."""
    assert duel.state == END_STEP, duel.state
    assert duel.attack is None, "the attack is over"
    assert "damage_step" not in visited(duel, "battle_phase")
    assert duel.players["A"].lp == duel.players["B"].lp == 8000
    assert "declare_attack" not in names(duel), "the other monster cannot attack any more"
    duel.apply("pass")
    duel.apply("pass")
    assert not duel.state.startswith("battle_phase"), duel.state


# --- 004 ●『战斗阶段结束』的效果处理的场合，直接进入结束步骤 ---------------------------------------------------


@pytest.mark.parametrize("window", [DECLARATION_WINDOW, AFTER_DECLARATION],
                         ids=["declaration_window", "battle_step_after_declaration"])
def test_ending_the_battle_phase_during_an_attack_goes_straight_to_the_end_step(window: str) -> None:
    """004 ●『战斗阶段结束』的效果处理的场合，直接进入结束步骤: the Battle Phase ends during an attack (at its
    declaration, or later in the Battle Step): the attack stops without a Damage Step, the Battle
    Phase goes to the End Step, and the turn player's other monster does not attack."""
    duel = duel_with([set_card("end_battle")])
    attack(duel, "a_monster_1", "b_monster_1")
    pass_until(duel, in_state(window))
    activate_and_resolve(duel, "end_battle")
    pass_until(duel, lambda d: not d.state.startswith("battle_phase.attack_declaration"))
    assert ("attack_declaration", "end_step") in transitions(duel, "battle_phase")
    assert ("attack_declaration", "battle_step") not in transitions(duel, "battle_phase")
    battle_phase_is_over_without_damage(duel)


def test_ending_the_battle_phase_in_the_start_step_skips_the_battle_step() -> None:
    """004 ●『战斗阶段结束』的效果处理的场合，直接进入结束步骤 (000 ●バトルフェイズ【１】スタートステップ): activated in
    the Start Step, it sends the Battle Phase to the End Step though a monster could attack."""
    duel = duel_with([set_card("end_battle")])
    duel.apply("pass")                       # A, in the Start Step
    activate_and_resolve(duel, "end_battle")  # B
    pass_until(duel, lambda d: d.state == END_STEP or d.state == BATTLE_STEP)
    assert "battle_step" not in visited(duel, "battle_phase")
    battle_phase_is_over_without_damage(duel)


# --- 000 ●バトルフェイズ【１】「光の護封剣」: a cannot-attack effect during the Battle Step ------------------------


def test_cannot_attack_effect_in_the_battle_step_withholds_every_attack() -> None:
    """000 ●バトルフェイズ【１】◇·「光の護封剣」等『不能攻击』的效果适用的场合 /
    000 ●バトルフェイズ【２】◇·怪兽的攻击宣言: once a cannot-attack effect applies in the Battle
    Step, no monster may declare an attack; the Battle Step ends and the Battle Phase goes on to
    the End Step."""
    duel = duel_with([set_card("swords")])
    pass_until(duel, in_state(BATTLE_STEP))
    assert "declare_attack" in names(duel)
    duel.apply("pass")
    activate_and_resolve(duel, "swords")
    pass_until(duel, in_state(BATTLE_STEP))  # the window after the chain is over: the open game state
    assert "declare_attack" not in names(duel)
    pass_until(duel, in_state(END_STEP))
    assert duel.players["B"].lp == 8000


# --- 000 ※攻击中止、战斗回卷的处理: the cancel is checked at the end of the chain, the replay after its window ----


@pytest.mark.parametrize("window", [DECLARATION_WINDOW, AFTER_DECLARATION],
                         ids=["declaration_window", "battle_step_after_declaration"])
def test_a_chain_that_cancels_and_changes_the_opponents_monsters_cancels(window: str) -> None:
    """000 ※攻击中止、战斗回卷的处理: the cancel is decided when the chain ends (连锁处理结束时，攻击怪兽处于不能攻击
    的状态的场合…攻击中止), a replay only after the window that follows (连锁处理结束时的发动时点过后，战斗回卷). A
    chain that both makes the attacker unable to attack and special summons a monster for the
    opponent cancels the attack: no new target is chosen and no damage is dealt."""
    duel = duel_with([set_card("swords"), set_card("reinforce"), at("vanilla")], a_monsters=1)
    attack(duel, "a_monster_1", "b_monster_1")
    pass_until(duel, in_state(window))
    duel.apply("activate swords")
    duel.apply("pass")                        # A does not respond
    duel.apply("respond reinforce")
    pass_until(duel, lambda d: not d.chain)
    assert len(duel.players["B"].monsters) == 2, "the opponent's monsters changed"
    finish_attack(duel)
    assert "replay" not in visited(duel, "attack_declaration")
    assert "choose_target" not in {dest for _, dest in transitions(duel, "attack_declaration")[2:]}
    assert duel.last_attack is not None and duel.last_attack.outcome == "cancelled"
    assert duel.players["A"].lp == duel.players["B"].lp == 8000


def test_the_replay_follows_the_window_after_the_chain_at_once() -> None:
    """000 ※攻击中止、战斗回卷的处理·在一组连锁处理中，对方怪兽的数量变化…的场合，
    连锁处理结束时的发动时点过后，战斗回卷，返回“２攻击怪兽的攻击对象” (004 ●卷回只会发生在战斗步骤):
    in the Battle Step after the declaration, once both players pass in the window after the
    chain that changed the opponent's monsters, the attacker chooses its target again — the turn
    player does not first receive priority in that Battle Step."""
    duel = duel_with([set_card("reinforce"), at("vanilla")], a_monsters=1)
    attack(duel, "a_monster_1", "b_monster_1")
    pass_until(duel, in_state(AFTER_DECLARATION))
    activate_and_resolve(duel, "reinforce")
    assert duel.state == "battle_phase.attack_declaration.battle_step_priority.window.turn_player"
    duel.apply("pass")
    duel.apply("pass")
    assert duel.state == "battle_phase.attack_declaration.choose_target"
    assert "choose_target" in names(duel)
