"""Rules at their exact limits: LP costs paid with exactly the LP they cost, 「絶対防御将軍」 attacking
with its DEF, the fifth spell/trap zone, who may start CHAIN1 with an ignition effect in a window,
and which cards may be discarded at the hand size limit. Under ``ocg2008``.

Expected values come from the rule text or the official rules cited in each test.
"""

from __future__ import annotations

from typing import Any

import pytest
from helpers import card_spec, judge_duel

from ygo_fsm import Duel, Setup
from ygo_fsm.cards import default_library
from ygo_fsm.game import Zone

VANILLA = card_spec("vanilla", "monster")
PRICEY = card_spec("pricey", "spell", {"kind": "quick_play_spell", "location": "hand", "cost": {"pay_lp": 1000},
                                       "resolution": [{"op": "draw", "amount": 1, "to": "controller"}]})
"""A quick-play spell whose activation costs 1000 LP."""
SET_ME = card_spec("set_me", "spell", {"kind": "quick_play_spell", "location": "hand",
                                       "resolution": [{"op": "draw", "amount": 1, "to": "controller"}]})
IGNITION = card_spec("ign", "monster", {"kind": "ignition",
                                        "resolution": [{"op": "recover", "amount": 100, "to": "controller"}]})
"""A monster with an ignition effect (spell speed 1)."""
LIB = {**default_library(), **{c.id: c for c in (VANILLA, PRICEY, SET_ME, IGNITION)}}


def duel_of(a: dict[str, Any], b: dict[str, Any] | None = None, *, phase: str = "main_phase_1") -> Duel:
    setup = Setup.model_validate({"profile": "ocg2008", "turn": 3, "phase": phase,
                                  "players": {"A": a, "B": b or {}}})
    return judge_duel(setup, library=LIB)


def offered(duel: Duel, name: str) -> set[str]:
    return {a.choice for a in duel.legal_actions() if a.name == name and a.choice}


def pass_until(duel: Duel, state: str, limit: int = 30) -> None:
    for _ in range(limit):
        if duel.state == state:
            return
        duel.apply("pass")
    assert duel.state == state, duel.state


# --- LP costs: 「In the OCG, a player can pay LP equal to their current LP」 -----------------------------------


@pytest.mark.parametrize(("lp", "may"), [(1000, True), (999, False)])
def test_an_lp_cost_may_be_paid_with_exactly_that_many_lp(lp: int, may: bool) -> None:
    """Konami OCG Perfect Rulebook (LP costs; Yugipedia "Pay": a player cannot pay more LP than they
    have, and in the OCG can pay LP equal to their current LP): a card costing 1000 LP may be
    activated with exactly 1000 LP, not with 999."""
    duel = duel_of({"lp": lp, "cards": [{"card": "pricey", "zone": "hand"}]})
    assert ("pricey" in offered(duel, "activate")) is may


@pytest.mark.parametrize(("lp", "may"), [(500, True), (499, False)])
def test_toll_may_be_paid_with_exactly_500_lp(lp: int, may: bool) -> None:
    """000 【怪兽的攻击宣言的场合…】１「通行税」 (the attacking player pays 500 LP when declaring) with the OCG
    rule that a player can pay LP equal to their current LP: with exactly 500 LP the attack may be
    declared; with 499 it may not."""
    duel = duel_of({"lp": lp, "monsters": [{"name": "Attacker", "atk": 1900}],
                    "cards": [{"card": "toll", "zone": "spell_trap", "face_up": True}]},
                   {"monsters": [{"name": "Target", "atk": 1000}]}, phase="battle_phase")
    pass_until(duel, "battle_phase.battle_step.turn_player")
    assert ("a_monster_1" in offered(duel, "declare_attack")) is may


# --- 「絶対防御将軍」 ----------------------------------------------------------------------------------------


def test_total_defense_shogun_attacks_in_defence_position_with_its_def() -> None:
    """000 ※攻击中止（「絶対防御将軍」等守备表示的状态也可以攻击的怪兽）and its card text (このカードは守備表示の
    まま攻撃できる。その場合、守備力を攻撃力として扱いダメージ計算を行う): in face-up Defense Position it may
    declare an attack, and its DEF 2500 is used against a 2000-ATK monster — 500 damage, the
    target destroyed, the Shogun kept."""
    duel = duel_of({"cards": [{"card": "total_defense_shogun", "zone": "monster", "position": "defence",
                               "face_up": True}]},
                   {"monsters": [{"name": "Target", "atk": 2000, "def": 0}]}, phase="battle_phase")
    pass_until(duel, "battle_phase.battle_step.turn_player")
    assert "total_defense_shogun" in offered(duel, "declare_attack")
    duel.apply("declare_attack total_defense_shogun")
    duel.apply("choose_target b_monster_1")
    for _ in range(40):
        if duel.attack is None:
            break
        duel.apply("pass")
    assert duel.players["B"].lp == 8000 - 500
    assert duel.players["A"].lp == 8000
    assert duel.players["B"].monsters == []
    assert duel.where("total_defense_shogun") == ("A", Zone.monster)


# --- 002 ※魔法、陷阱最多只能放在5个魔法陷阱区域里 ------------------------------------------------------------------


@pytest.mark.parametrize(("used", "may"), [(4, True), (5, False)])
def test_a_spell_or_trap_is_set_only_into_a_free_zone(used: int, may: bool) -> None:
    """002 ※包括发动中的魔法、陷阱，魔法、陷阱最多只能放在5个魔法陷阱区域里: with four zones used the fifth
    card may be Set; with all five used it may not."""
    field = [{"card": "set_me", "zone": "spell_trap", "set_turn": 2} for _ in range(used)]
    duel = duel_of({"cards": [*field, {"card": "set_me", "zone": "hand", "uid": "in_hand"}]})
    assert ("in_hand" in offered(duel, "set_spell_trap")) is may


# --- ignition effects in a window: only the turn player's (000 priority list ５; 001 例2) ------------------------


def test_the_opponents_ignition_effect_does_not_start_chain1_in_a_window() -> None:
    """000 卡／效果发动的优先顺序 ５ 回合玩家的怪兽起动效果（只限于メインフェイズ中，并且没有被占CHAIN1的场合）;
    001 例2 (after a summon the turn player may start CHAIN1 with an ignition effect): in the window
    after a normal summon the turn player may activate an ignition effect, the opponent may not."""
    duel = duel_of({"cards": [{"card": "vanilla", "zone": "hand"}, {"card": "ign", "zone": "monster", "uid": "a_ign"}]},
                   {"cards": [{"card": "ign", "zone": "monster", "uid": "b_ign"}]})
    duel.apply("normal_summon vanilla")
    pass_until(duel, "main_phase_1.summon.success_window.turn_player")
    assert "a_ign" in offered(duel, "activate")
    duel.apply("pass")
    assert duel.state == "main_phase_1.summon.success_window.opponent"
    assert "b_ign" not in offered(duel, "activate")


# --- 000 ●エンドフェイズ【３】选择手卡丢弃 --------------------------------------------------------------------------


def _discard_duel(named: int, unnamed: int) -> Duel:
    duel = duel_of({"hand": unnamed, "cards": [{"card": "vanilla", "zone": "hand", "uid": f"c{i}"}
                                               for i in range(named)]}, phase="end_phase")
    pass_until(duel, "end_phase.hand_size_adjustment")
    return duel


def test_discard_choices_are_any_cards_making_the_excess() -> None:
    """000 ●エンドフェイズ【３】◇回合玩家的手卡数目超过6张的场合，选择手卡丢弃，使手卡数目保持在6张: with 8 cards
    (two named, six not) the player chooses two, one at a time: any named card or an unnamed one
    first, then any card still in hand; the two are discarded together and 6 remain."""
    duel = _discard_duel(2, 6)
    assert offered(duel, "discard") == {"c0", "c1", "unnamed"}
    duel.apply("discard c1")
    assert duel.players["A"].hand == 8, "nothing is discarded before the last card is chosen"
    assert offered(duel, "discard") == {"c0", "unnamed"}
    duel.apply("discard unnamed")
    assert duel.players["A"].hand == 6
    assert duel.where("c1")[1].value == "graveyard" and duel.where("c0")[1].value == "hand"


def test_discard_choices_when_few_cards_are_unnamed() -> None:
    """000 ●エンドフェイズ【３】 (as above): with 8 cards of which 7 are named, two must go and only one
    is unnamed: once it is chosen, only named cards are left to choose."""
    duel = _discard_duel(7, 1)
    assert offered(duel, "discard") == {f"c{i}" for i in range(7)} | {"unnamed"}
    duel.apply("discard unnamed")
    assert offered(duel, "discard") == {f"c{i}" for i in range(7)}
    duel.apply("discard c3")
    assert duel.players["A"].hand == 6 and duel.where("c3")[1].value == "graveyard"


# --- 0 LP ------------------------------------------------------------------------------------------------


def test_battle_damage_bringing_lp_to_exactly_0_loses_the_duel() -> None:
    """000 ●メインフェイズ１ 例 进入战斗流程，「賢者ケイローン」攻击（对方LP 0） (a player whose LP becomes 0 has
    lost; Konami OCG Perfect Rulebook, winning the duel): a 1000-ATK direct attack on exactly 1000 LP
    ends the duel, the attacking player winning."""
    duel = duel_of({"monsters": [{"name": "Attacker", "atk": 1000}]}, {"lp": 1000}, phase="battle_phase")
    pass_until(duel, "battle_phase.battle_step.turn_player")
    duel.apply("declare_attack a_monster_1")
    duel.apply("choose_target direct")
    for _ in range(40):
        if duel.is_over:
            break
        duel.apply("pass")
    assert duel.players["B"].lp == 0
    assert duel.is_over and duel.winner == "A"
    assert duel.legal_actions() == []


@pytest.mark.parametrize(("lp", "may"), [(1000, True), (1001, False)])
def test_last_battle_needs_at_most_1000_lp(lp: int, may: bool) -> None:
    """「ラストバトル！」 (000 ●スタンバイフェイズ 例1; its text: 自分のライフポイントが1000ポイント以下の場合、
    相手ターンに発動できる): in the opponent's turn it may be activated with exactly 1000 LP, not with 1001."""
    duel = duel_of({}, {"lp": lp, "monsters": [{"name": "Guard", "atk": 100}],
                        "cards": [{"card": "last_battle", "zone": "spell_trap", "set_turn": 2}]})
    duel.apply("pass")
    assert duel.priority == "B"
    assert any(a.name == "activate" and (a.choice or "").startswith("last_battle")
               for a in duel.legal_actions()) is may


YOLK = card_spec("yolk", "monster", {"kind": "trigger", "mandatory": True, "location": "field",
                                     "events": ["battle_damage"],
                                     "resolution": [{"op": "recover", "amount": 300, "to": "controller"}]},
                 atk=0)
"""A monster with a trigger on battle damage (as 「冥府の使者ゴーズ」 answers damage): its controller gains 300 LP."""


@pytest.mark.parametrize(("atk", "damage"), [(0, 0), (100, 100)])
def test_no_battle_damage_is_dealt_by_a_0_atk_attack(atk: int, damage: int) -> None:
    """004 ·直接攻击对方玩家的场合，给予对方玩家攻击怪兽的攻击力数值的战斗伤害 and the official rule that 0
    battle damage is no damage (Yugipedia "Battle damage": an attack from a 0-ATK monster does not inflict damage, so no
    effect can activate in response): a 0-ATK direct attack neither changes LP nor starts the
    『战斗伤害』 trigger; a 100-ATK one does both."""
    lib = {**LIB, "yolk": YOLK.model_copy(update={"atk": atk})}
    setup = Setup.model_validate({"profile": "ocg2008", "turn": 3, "phase": "battle_phase",
                                  "players": {"A": {"cards": [{"card": "yolk", "zone": "monster"}]}}})
    duel = judge_duel(setup, library=lib)
    pass_until(duel, "battle_phase.battle_step.turn_player")
    duel.apply("declare_attack yolk")
    duel.apply("choose_target direct")
    triggered = False
    for _ in range(40):
        if duel.attack is None:
            break
        legal = [str(a) for a in duel.legal_actions()]
        if "activate yolk" in legal:
            triggered = True
            duel.apply("activate yolk")
        else:
            duel.apply("pass")
    assert duel.players["B"].lp == 8000 - damage
    assert triggered is (damage > 0), "the trigger starts only when damage was dealt"


# --- 000 【怪兽通常***、反转***、特殊***的处理】２ 支付召唤的条件 ----------------------------------------------------


def test_a_normal_summon_pays_no_special_summon_cost() -> None:
    """000 【怪兽通常***、反转***、特殊***的处理（不进入连锁）】２·通常***的祭品 /
    「メガロック・ドラゴン」等的墓地的特定怪兽除外 (a cost of its own special summon procedure): a
    level 4 monster that could also be special summoned by banishing a rock monster from the
    graveyard is normal summoned with no tribute and nothing banished."""
    digger = card_spec("digger", "monster", level=4, special_summon_procedure="cost",
                       special_summon_cost={"banish_from_graveyard": 1, "banish_race": "rock"})
    rock = card_spec("rock", "monster", race="rock")
    setup = Setup.model_validate({"profile": "ocg2008", "turn": 3, "phase": "main_phase_1",
                                  "players": {"A": {"cards": [{"card": "digger", "zone": "hand"},
                                                              {"card": "rock", "zone": "graveyard"}]}}})
    duel = judge_duel(setup, library={**LIB, "digger": digger, "rock": rock})
    duel.apply("normal_summon digger")
    for _ in range(10):
        if duel.state == "main_phase_1.open.turn_player":
            break
        duel.apply("pass")
    assert duel.where("digger") == ("A", Zone.monster)
    assert duel.where("rock") == ("A", Zone.graveyard), "nothing banished for a normal summon"


@pytest.mark.parametrize(("monsters", "may"), [(1, True), (0, False)])
def test_dimension_magic_needs_a_monster_of_its_own(monsters: int, may: bool) -> None:
    """「ディメンション・マジック」 (001 主要流程1 例1/例2; its text: 自分フィールド上のモンスター１体をリリースし…):
    its resolution tributes one of its controller's monsters, so with none it cannot be activated (a
    Spellcaster in hand to summon is there either way: PR17 p.133, what the resolution needs)."""
    duel = duel_of({"monsters": [{"name": f"M{i}", "atk": 100} for i in range(monsters)],
                    "cards": [{"card": "dimension_magic", "zone": "hand"}, {"card": "nephthys_guide", "zone": "hand"}]})
    assert ("dimension_magic" in offered(duel, "activate")) is may


# --- activation conditions and the vocabulary's defaults ---------------------------------------------------


@pytest.mark.parametrize(("turn", "may"), [(3, True), (2, False)])
def test_an_own_turn_condition_allows_the_activation_in_its_controllers_turn_only(turn: int, may: bool) -> None:
    """Conditions ``own_turn`` (「自分のターンに発動できる」, as 002 ●主要阶段1 速攻魔法 from the hand): A's
    Set card may be activated in A's own turn (turn 3), not in B's (turn 2)."""
    mine = card_spec("mine", "trap", {"kind": "normal_trap", "location": "set", "conditions": {"own_turn": True},
                                      "resolution": [{"op": "recover", "amount": 100, "to": "controller"}]})
    setup = Setup.model_validate({"profile": "ocg2008", "turn": turn, "turn_player": "A" if turn == 3 else "B",
                                  "phase": "main_phase_1",
                                  "players": {"A": {"cards": [{"card": "mine", "zone": "spell_trap", "set_turn": 1}]}}})
    duel = judge_duel(setup, library={**LIB, "mine": mine})
    if duel.turn_player == "B":
        duel.apply("pass")
    assert duel.priority == "A"
    assert ("mine" in offered(duel, "activate")) is may


def test_a_draw_with_no_amount_draws_one_card() -> None:
    """The vocabulary's ``{op: draw}`` with no amount draws one card (「カードを１枚ドローする」)."""
    one = card_spec("one", "spell", {"kind": "quick_play_spell", "location": "hand",
                                     "resolution": [{"op": "draw", "to": "controller"}]})
    duel = judge_duel(Setup.model_validate({"profile": "ocg2008", "turn": 3, "phase": "main_phase_1",
                                      "players": {"A": {"hand": 0, "deck": 10, "cards": [{"card": "one",
                                                                                         "zone": "hand"}]}}}),
                library={**LIB, "one": one})
    duel.apply("activate one")
    for _ in range(6):
        if not duel.chain:
            break
        duel.apply("pass")
    assert duel.players["A"].deck == 9 and duel.players["A"].hand == 1


@pytest.mark.parametrize("condition", ["opponent_turn", "opponent_is_turn_player"])
def test_an_opponents_turn_condition_forbids_the_activation_in_its_controllers_turn(condition: str) -> None:
    """Conditions ``opponent_turn`` (「相手ターンに発動できる」, as 「ラストバトル！」 000 ●スタンバイフェイズ 例1) and
    ``opponent_is_turn_player`` (only in the opponent's turn, as 「強奪」's 相手のスタンバイフェイズ毎): in its
    controller's own turn the effect may not be activated; in the opponent's turn it may."""
    theirs = card_spec("theirs", "trap", {"kind": "normal_trap", "location": "set", "conditions": {condition: True},
                                          "resolution": [{"op": "recover", "amount": 100, "to": "controller"}]})
    for turn, turn_player, may in ((3, "A", False), (2, "B", True)):
        setup = Setup.model_validate({"profile": "ocg2008", "turn": turn, "turn_player": turn_player,
                                      "phase": "main_phase_1",
                                      "players": {"A": {"cards": [{"card": "theirs", "zone": "spell_trap",
                                                                   "set_turn": 1}]}}})
        duel = judge_duel(setup, library={**LIB, "theirs": theirs})
        if duel.turn_player == "B":
            duel.apply("pass")
        assert duel.priority == "A"
        assert ("theirs" in offered(duel, "activate")) is may, f"turn {turn}"


def test_a_banish_cost_with_no_race_takes_any_monster() -> None:
    """000 【怪兽通常***…】２「メガロック・ドラゴン」等的墓地的特定怪兽除外 — a procedure that banishes a monster of no
    particular race from the graveyard may use any monster there."""
    anyone = card_spec("anyone", "monster", level=7, special_summon_only=True, special_summon_procedure="cost",
                       special_summon_cost={"banish_from_graveyard": 1})
    setup = Setup.model_validate({"profile": "ocg2008", "turn": 3, "phase": "main_phase_1",
                                  "players": {"A": {"cards": [{"card": "anyone", "zone": "hand"},
                                                              {"card": "warrior", "zone": "graveyard"}]}}})
    warrior = card_spec("warrior", "monster", race="warrior")
    duel = judge_duel(setup, library={**LIB, "anyone": anyone, "warrior": warrior})
    assert "anyone" in offered(duel, "special_summon")


def test_a_replaced_draw_adds_the_last_card_of_the_deck() -> None:
    """000 ●ドローフェイズ【情况Ｂ】「無敗将軍フリード」: instead of the normal draw, a card is added from the deck
    to the hand — with exactly one card left in the deck, that card is added (the deck is not
    required to hold more than the card the effect takes)."""
    setup = Setup.model_validate({"profile": "ocg2008", "turn": 3, "phase": "draw_phase",
                                  "players": {"A": {"hand": 2, "deck": 1, "cards": [
                                      {"card": "freed_the_matchless_general", "zone": "monster"}]}}})
    duel = judge_duel(setup, library=LIB)
    assert duel.state == "draw_phase.before_draw_window.build"
    duel.apply("activate freed_the_matchless_general")
    for _ in range(4):
        if not duel.chain:
            break
        duel.apply("pass")
    assert not duel.chain
    assert (duel.players["A"].hand, duel.players["A"].deck) == (3, 0)
    assert not duel.is_over


@pytest.mark.parametrize(("defence", "left"), [(1000, 0), (600, 0), (1400, 400)])
def test_def_lowered_below_0_becomes_0(defence: int, left: int) -> None:
    """Konami OCG Perfect Rulebook (ATK/DEF changes; Yugipedia "DEF": a monster's DEF cannot
    become lower than 0 — a decrease larger than its DEF leaves it at 0): lowering a 1000 / 600 /
    1400 DEF monster's DEF by 1000 leaves 0 / 0 / 400."""
    lower = card_spec("lower", "spell", {"kind": "quick_play_spell", "location": "hand", "target": "face_up_monster",
                                         "resolution": [{"op": "modify_def", "what": "target", "amount": -1000}]})
    wall = card_spec("wall", "monster", **{"def": defence})
    setup = Setup.model_validate({"profile": "ocg2008", "turn": 3, "phase": "main_phase_1", "players": {
        "A": {"cards": [{"card": "lower", "zone": "hand"}]},
        "B": {"cards": [{"card": "wall", "zone": "monster"}]}}})
    duel = judge_duel(setup, library={**LIB, "lower": lower, "wall": wall})
    duel.apply("activate lower>wall")
    for _ in range(4):
        if not duel.chain:
            break
        duel.apply("pass")
    assert not duel.chain
    assert [m.defence for m in duel.players["B"].monsters] == [left]
