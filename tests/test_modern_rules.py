"""Where ``modern`` (004 and the current official rules: PR17, FET) and ``ocg2008`` (000–003
literally) differ — each rule tested on both sides, citing the clause of each.

Expected values come from the rule text; the cards are the shipped library's or built here.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from helpers import card_spec, judge_duel, legal, library
from helpers import pass_to as pass_until

from ygo_fsm import Duel, Setup
from ygo_fsm.cards import CardSpec, default_library, register_resolution
from ygo_fsm.effects import find, move
from ygo_fsm.game import Zone


def battle(profile: str, cards_a: Sequence[dict[str, Any]] = (), cards_b: Sequence[dict[str, Any]] = (),
           *, attacker_atk: int = 1900, target_atk: int = 1000, extra: dict[str, CardSpec] | None = None) -> Duel:
    """Turn 3, A's Battle Step: A's 「Attacker」 against B's 「Target」."""
    setup = Setup.model_validate({
        "profile": profile, "turn": 3, "phase": "battle_phase",
        "players": {"A": {"monsters": [{"name": "Attacker", "atk": attacker_atk}], "cards": list(cards_a)},
                    "B": {"monsters": [{"name": "Target", "atk": target_atk}], "cards": list(cards_b)}}})
    duel = judge_duel(setup, library={**default_library(), **(extra or {})}) if extra else judge_duel(setup)
    pass_until(duel, "battle_phase.battle_step")
    return duel


def declare(duel: Duel, target: str = "b_monster_1") -> None:
    duel.apply("declare_attack a_monster_1")
    duel.apply(f"choose_target {target}")


def passes_to(duel: Duel, path: str, limit: int = 12) -> int:
    """Pass until ``path``; the number of passes it took."""
    for count in range(limit + 1):
        if duel.in_state(path):
            return count
        duel.apply("pass")
    raise AssertionError(f"{path} not reached; now {duel.state}")


# --- rule 1: the Battle Step after an attack declaration -----------------------------------------


def test_modern_two_passes_after_the_declaration_reach_the_damage_step() -> None:
    """004 ●攻击宣言进行后双方玩家互相放弃发动卡的优先权，战斗步骤终了后进入伤害步骤; FET: after the
    declaration the turn player, then the opponent, may act; both passing once moves on."""
    duel = battle("modern")
    declare(duel)
    assert duel.state == "battle_phase.attack_declaration.declaration_window.turn_player"
    assert passes_to(duel, "battle_phase.damage_step") == 2
    assert "battle_step_priority" not in {record.dest for record in duel.trace}


def test_ocg2008_keeps_the_seed_s_step_4_window_and_step_5_priority() -> None:
    """000 【怪兽的攻击宣言…】４『攻击宣言时』的发动时点, then ５攻击宣言后的战斗阶段中 (its own ◇ blocks),
    as in 000 ●バトルフェイズ 例: four passes with nothing activated."""
    duel = battle("ocg2008")
    declare(duel)
    assert passes_to(duel, "battle_phase.attack_declaration.battle_step_priority") == 2
    assert passes_to(duel, "battle_phase.damage_step") == 2


def test_modern_after_a_chain_in_the_battle_step_two_passes_reach_the_damage_step() -> None:
    """FET: after a chain priority returns to the turn player; both pass → the Damage Step
    (004 ●攻击宣言进行后双方玩家互相放弃发动卡的优先权…进入伤害步骤)."""
    duel = battle("modern", cards_b=[{"card": "holy_javelin", "zone": "spell_trap"}])
    declare(duel)
    duel.apply("pass")                      # A
    duel.apply("activate holy_javelin")     # B: CHAIN1 on the declaration
    duel.apply("pass")
    duel.apply("pass")                      # 逆算
    assert duel.players["B"].lp == 8000 + 1900
    assert duel.priority == "A", "priority returns to the turn player after the chain"
    assert passes_to(duel, "battle_phase.damage_step") == 2


def test_ocg2008_after_the_declaration_chain_step_5_still_follows() -> None:
    """000 ●バトルフェイズ 例: after 「ホーリージャベリン」's chain, 攻击宣言后的战斗阶段中 — both pass
    there again before the Damage Step."""
    duel = battle("ocg2008", cards_b=[{"card": "holy_javelin", "zone": "spell_trap"}])
    declare(duel)
    duel.apply("pass")
    duel.apply("activate holy_javelin")
    duel.apply("pass")
    duel.apply("pass")
    assert passes_to(duel, "battle_phase.attack_declaration.battle_step_priority") == 2
    assert passes_to(duel, "battle_phase.damage_step") == 2


def test_the_battle_step_transitions_are_scoped_to_their_profile(rulebook: Any) -> None:
    """The difference is declared in machines/attack_declaration.yaml: one transition per profile,
    each citing its side (000 ５ for ocg2008; 004 for modern)."""
    scoped = {t.spec.id: t.spec for t in rulebook.machines_transitions("attack_declaration") if t.spec.profile}
    assert scoped["declaration_window_over"].profile == "ocg2008"
    assert scoped["declaration_window_over"].rule.startswith("000 ")
    assert scoped["declaration_window_to_damage_step"].profile == "modern"
    assert scoped["declaration_window_to_damage_step"].rule.startswith("004 ")



# --- rule 2: no damage calculation when a battler is gone ------------------------------------------

BANISHER = card_spec("banisher", "trap", {
    "kind": "counter_trap", "location": "set", "target": "any_monster",
    "resolution": [{"op": "banish", "what": "target"}]})
"""A Set card the Damage Step allows (004 ●伤害步骤中…反击陷阱), banishing a monster: it makes a
battler leave the field during the Damage Step."""


def _banish_in_damage_step(profile: str, victim: str, state: str) -> Duel:
    duel = battle(profile, cards_b=[{"card": "banisher", "zone": "spell_trap"}], extra=library(BANISHER))
    declare(duel)
    pass_until(duel, f"battle_phase.damage_step.{state}.opponent")
    duel.apply(f"activate banisher>{victim}")
    duel.apply("pass")
    duel.apply("pass")
    return duel


def test_no_damage_calculation_when_the_attacker_left_at_the_start_of_the_damage_step() -> None:
    """004 ●未进行伤害计算的战斗不视为『进行战斗』; PR17 Damage Step: the attacker is gone before damage
    calculation — none happens, the Damage Step goes on to its end, the battle is not fought."""
    duel = _banish_in_damage_step("modern", "a_monster_1", "start_of_damage_step")
    pass_until(duel, "battle_phase.battle_step")
    transitions = {record.transition for record in duel.trace}
    assert "battler_gone_at_start" in transitions and "damage_calculated" not in transitions
    assert "to_end_of_damage_step" not in transitions, "nothing was determined destroyed by battle"
    assert duel.last_attack is not None and duel.last_attack.outcome == "no_battle"
    assert duel.last_attack.battle_damage == {} and duel.last_attack.destroyed == []
    assert duel.players["A"].lp == duel.players["B"].lp == 8000
    assert [m.uid for m in duel.players["B"].monsters] == ["b_monster_1"]


def test_no_damage_calculation_when_the_target_left_before_damage_calculation() -> None:
    """004 ●未进行伤害计算的战斗不视为『进行战斗』: the attack target left the field in 伤害计算前."""
    duel = _banish_in_damage_step("modern", "b_monster_1", "before_damage_calculation")
    pass_until(duel, "battle_phase.damage_step.end_of_damage_step")
    assert duel.players["B"].lp == 8000
    assert "battler_gone_before_calculation" in {record.transition for record in duel.trace}
    pass_until(duel, "battle_phase.battle_step")
    assert duel.last_attack is not None and duel.last_attack.outcome == "no_battle"
    assert duel.players["B"].lp == 8000, "no battle damage: no direct attack either"


def test_with_both_battlers_on_the_field_damage_is_calculated() -> None:
    """004 ●和对方怪兽进行伤害计算的场合…攻击力高的怪兽给予对方玩家那个差值的伤害 (the control case)."""
    duel = battle("modern")
    declare(duel)
    pass_until(duel, "battle_phase.battle_step")
    assert duel.last_attack is not None and duel.last_attack.outcome == "fought"
    assert duel.players["B"].lp == 8000 - 900


# --- rule 5: ignition effects need the open game state ------------------------------------------


def _summoned_mercenaries(profile: str) -> Duel:
    """A normal summons 「ならず者傭兵部隊」 (an ignition effect); nobody negates it."""
    duel = judge_duel(Setup.model_validate({
        "profile": profile, "turn": 3, "phase": "main_phase_1",
        "players": {"A": {"cards": [{"card": "rogue_mercenaries"}, {"card": "dark_hole"}]},
                    "B": {"monsters": [{"name": "Target", "atk": 1000}]}}}))
    duel.apply("normal_summon rogue_mercenaries")
    pass_until(duel, "main_phase_1.summon.success_window.turn_player")
    return duel


def test_modern_no_ignition_effect_in_the_window_after_a_summon() -> None:
    """FET; PR17 p.109: after a summon that starts no chain the turn player may respond only with
    fast effects — neither the ignition effect nor a spell speed 1 spell is offered there."""
    duel = _summoned_mercenaries("modern")
    assert legal(duel) == ["pass"]
    duel.apply("pass")
    duel.apply("pass")
    assert duel.state == "main_phase_1.open.turn_player"
    assert "activate rogue_mercenaries>b_monster_1" in legal(duel), "the open game state allows it"
    assert "activate dark_hole" in legal(duel)


def test_ocg2008_ignition_effect_may_start_chain1_in_the_window_after_a_summon() -> None:
    """000 卡／效果发动的优先顺序 ５回合玩家的怪兽起动效果（只限于メインフェイズ中，并且没有被占CHAIN1的场合）;
    a spell speed 1 spell is still not offered there
    (000 在卡／效果的发动时点内，不能进行的其他行为·通常魔法…的发动)."""
    duel = _summoned_mercenaries("ocg2008")
    assert legal(duel) == ["activate rogue_mercenaries>b_monster_1", "pass"]


def test_modern_no_ignition_effect_in_the_window_after_a_chain_that_ended_with_a_summon() -> None:
    """FET: after a chain, an ignition effect needs the open game state even when the chain's last
    action was a summon (the 001 例2 case plays differently under modern)."""
    setup = Setup.model_validate({
        "profile": "modern", "turn": 3, "phase": "main_phase_1",
        "players": {"A": {"hand": 0,
                          "monsters": [{"name": "祭品的怪兽", "atk": 1000}, {"name": "自己的怪兽", "atk": 1200}],
                          "cards": [{"card": "dimension_magic"}, {"card": "nephthys_guide"},
                                    {"card": "sacred_phoenix_of_nephthys", "zone": "deck"}]},
                    "B": {"hand": 0, "monsters": [{"name": "对方的怪兽", "atk": 1500}]}}})
    duel = judge_duel(setup)
    duel.apply("activate dimension_magic")
    pass_until(duel, "main_phase_1.open.window")
    assert duel.players["A"].monsters[-1].uid == "nephthys_guide", "the chain ended with the summon"
    assert not any(a.startswith("activate nephthys_guide") for a in legal(duel))
    pass_until(duel, "main_phase_1.open.turn_player")
    assert "activate nephthys_guide" in legal(duel)


# --- rule 7: summon negation responds to the summon itself ---------------------------------------


def _summon_against_two_solemns(profile: str) -> Duel:
    duel = judge_duel(Setup.model_validate({
        "profile": profile, "turn": 3, "phase": "main_phase_1",
        "players": {"A": {"cards": [{"card": "beetle_armor_knight"}]},
                    "B": {"cards": [{"card": "solemn_judgment", "zone": "spell_trap"},
                                    {"card": "solemn_judgment", "zone": "spell_trap"},
                                    {"card": "seven_tools_of_the_bandit", "zone": "spell_trap"}]}}}))
    duel.apply("normal_summon beetle_armor_knight")
    duel.apply("pass")
    return duel


def test_a_second_summon_negation_cannot_be_chained_to_the_first() -> None:
    """PR17 pp.77–82 (Negating Summons): only CHAIN1 negates the summon; later links follow the
    ordinary spell-speed rules (000 【怪兽通常***…】４ 1.「神の宣告」… 2.无效***的卡发动的场合，2速以上的卡连锁可能)."""
    for profile in ("modern", "ocg2008"):
        duel = _summon_against_two_solemns(profile)
        assert {"activate solemn_judgment", "activate solemn_judgment_2"} <= set(legal(duel)), "CHAIN1 may negate"
        duel.apply("activate solemn_judgment")
        duel.apply("pass")                         # A does not respond
        assert duel.priority == "B"
        assert "respond solemn_judgment_2" not in legal(duel), profile
        assert "respond seven_tools_of_the_bandit" in legal(duel), "a counter trap still answers the activation"


def test_several_attack_declaration_cards_share_one_chain() -> None:
    """004 ●『攻击宣言时才能发动』的卡，只能在攻击宣言那个时点发动但只要在那组连锁上，可以发动复数张
    『攻击宣言时才能发动』的卡: 「炸裂装甲」 chained to 「神圣防护罩-反射镜力-」."""
    for profile in ("modern", "ocg2008"):
        duel = battle(profile, cards_b=[{"card": "mirror_force", "zone": "spell_trap"},
                                        {"card": "sakuretsu_armor", "zone": "spell_trap"}])
        declare(duel)
        duel.apply("pass")
        duel.apply("activate mirror_force")
        duel.apply("pass")
        assert "respond sakuretsu_armor" in legal(duel), profile


def test_the_difference_is_a_declared_property_of_the_event() -> None:
    """The summon attempt is the one event answered only as CHAIN1; 『攻击宣言时』 is not."""
    from ygo_fsm.cards import CHAIN1_ONLY_EVENTS, Event

    assert Event.summon_attempted in CHAIN1_ONLY_EVENTS
    assert Event.attack_declared not in CHAIN1_ONLY_EVENTS


# --- rule 4: every arrival is a new monster ------------------------------------------------------


@register_resolution("test_modern_banish_and_return")
def _banish_and_return(duel: Duel, link: Any) -> None:
    """「亜空間物質回送装置」-like: the target is banished, then returns to the field at once — one
    resolution, no change in the number of monsters."""
    found = find(duel, link.target)
    assert found is not None
    owner, _, monster = found
    move(duel, monster, Zone.banished, player=owner)
    move(duel, monster, Zone.monster, player=owner)


FLICKER = card_spec("flicker", "trap", {
    "kind": "normal_trap", "location": "set", "target": "any_monster",
    "resolution": [{"op": "callable", "name": "test_modern_banish_and_return"}]})
"""A Set trap: banish a monster and return it at once."""
SHOGUN_OPT = card_spec("opt_monster", "monster", {
    "kind": "ignition", "location": "field", "once_per_turn": True,
    "resolution": [{"op": "recover", "amount": 100, "to": "controller"}]})
"""A monster whose ignition effect may be used once per turn."""


def test_a_target_that_leaves_and_returns_in_one_resolution_causes_a_replay() -> None:
    """004 ●即使因效果处理1只怪兽离场后1只怪兽特殊召唤等结果上没有发生怪兽数量增减的场合，也视为怪兽数量
    发生变化: the attack target is banished and comes back in one resolution — a new monster, so the
    attack replays."""
    duel = battle("modern", cards_b=[{"card": "flicker", "zone": "spell_trap"}], extra=library(FLICKER))
    declare(duel)
    duel.apply("pass")
    duel.apply("activate flicker>b_monster_1")
    duel.apply("pass")
    duel.apply("pass")
    assert [m.uid for m in duel.players["B"].monsters] == ["b_monster_1"], "the same card is back"
    pass_until(duel, "battle_phase.attack_declaration.choose_target")
    assert "declaration_window_replay" in {record.transition for record in duel.trace}
    assert duel.attack is not None and duel.attack.replayed


def test_an_effect_s_target_that_left_and_returned_is_no_longer_its_target() -> None:
    """004 ●…也视为怪兽数量发生变化 (a returning card is a new monster): 「破壊輪」's target came back
    during the chain — the new monster is not its target, the effect does nothing."""
    duel = judge_duel(Setup.model_validate({
        "profile": "modern", "turn": 3, "phase": "main_phase_1",
        "players": {"A": {"cards": [{"card": "ring_of_destruction", "zone": "spell_trap"}]},
                    "B": {"monsters": [{"name": "Target", "atk": 1000}],
                          "cards": [{"card": "flicker", "zone": "spell_trap"}]}}}),
        library={**default_library(), **library(FLICKER)})
    duel.apply("activate ring_of_destruction>b_monster_1")
    duel.apply("respond flicker>b_monster_1")
    duel.apply("pass")
    duel.apply("pass")
    assert [m.uid for m in duel.players["B"].monsters] == ["b_monster_1"]
    assert duel.players["A"].lp == duel.players["B"].lp == 8000


def test_a_position_change_keeps_the_same_monster_no_replay() -> None:
    """004 卷回 counts monsters leaving or arriving; a monster that only changes position is the same
    monster (000 ※攻击中止 例: 「重力解除」 changes positions; 「絶対防御将軍」 still attacks)."""
    setup = Setup.model_validate({
        "profile": "modern", "turn": 3, "phase": "battle_phase",
        "players": {"A": {"cards": [{"card": "total_defense_shogun", "zone": "monster"}]},
                    "B": {"monsters": [{"name": "Target", "atk": 1000}],
                          "cards": [{"card": "zero_gravity", "zone": "spell_trap"}]}}})
    duel = judge_duel(setup)
    pass_until(duel, "battle_phase.battle_step")
    duel.apply("declare_attack total_defense_shogun")
    duel.apply("choose_target b_monster_1")
    duel.apply("pass")
    duel.apply("activate zero_gravity")
    duel.apply("pass")
    duel.apply("pass")
    assert duel.players["B"].monsters[0].position.value == "defence"
    pass_until(duel, "battle_phase.damage_step")
    assert "declaration_window_replay" not in {record.transition for record in duel.trace}


def test_once_per_turn_is_tied_to_the_monster_not_the_card() -> None:
    """A monster that left the field and came back is a new monster (004 ●…也视为怪兽数量发生变化):
    its once-per-turn effect may be used again; the same monster may not."""
    duel = judge_duel(Setup.model_validate({
        "profile": "modern", "turn": 3, "phase": "main_phase_1",
        "players": {"A": {"cards": [{"card": "opt_monster", "zone": "monster"},
                                    {"card": "flicker", "zone": "spell_trap"}]}}}),
        library=library(FLICKER, SHOGUN_OPT))
    duel.apply("activate opt_monster")
    pass_until(duel, "main_phase_1.open.turn_player")
    assert duel.players["A"].lp == 8100
    assert "activate opt_monster" not in legal(duel), "once per turn"
    duel.apply("activate flicker>opt_monster")
    pass_until(duel, "main_phase_1.open.turn_player")
    assert "activate opt_monster" in legal(duel), "a new monster: its effect is unused"


# --- rule 3: battle destruction is determined, not done -------------------------------------------


def test_a_monster_determined_destroyed_by_battle_cannot_be_targeted_until_the_end_of_the_damage_step() -> None:
    """004 ●确定破坏的怪兽，直到该伤害步骤结束、被送去墓地时不能成为效果的对象: after damage calculation
    the loser is still on the field but no longer a target; the winner still is."""
    duel = battle("modern", cards_b=[{"card": "banisher", "zone": "spell_trap"}], extra=library(BANISHER))
    declare(duel)
    pass_until(duel, "battle_phase.damage_step.after_damage_calculation.opponent")
    assert [m.uid for m in duel.players["B"].monsters] == ["b_monster_1"], "still on the field"
    assert duel.attack is not None and duel.attack.destroyed == ["b_monster_1"]
    assert [a for a in legal(duel) if a.startswith("activate")] == ["activate banisher>a_monster_1"]


def test_before_damage_calculation_both_battlers_may_be_targeted() -> None:
    """The control case: before damage calculation nothing is determined (004 ●伤害计算前)."""
    duel = battle("modern", cards_b=[{"card": "banisher", "zone": "spell_trap"}], extra=library(BANISHER))
    declare(duel)
    pass_until(duel, "battle_phase.damage_step.before_damage_calculation.opponent")
    assert {"activate banisher>a_monster_1", "activate banisher>b_monster_1"} <= set(legal(duel))


def test_the_continuous_effect_of_a_monster_determined_destroyed_no_longer_applies() -> None:
    """004 ●持有永续效果的怪兽确定被那次战斗破坏的场合，从那个时点开始效果不再适用: 「昇霊術師 ジョウゲン」
    (200 ATK) loses to 1900 ATK — after damage calculation special summons are no longer forbidden."""
    from ygo_fsm.continuous import special_summons_forbidden

    duel = battle("modern", cards_b=[{"card": "jougen", "zone": "monster"}])
    duel.apply("declare_attack a_monster_1")
    duel.apply("choose_target jougen")
    pass_until(duel, "battle_phase.damage_step.damage_calculation")
    assert special_summons_forbidden(duel.game) == "昇霊術師 ジョウゲン"
    pass_until(duel, "battle_phase.damage_step.after_damage_calculation")
    assert duel.players["B"].monsters[-1].uid == "jougen", "not yet sent to the graveyard"
    assert special_summons_forbidden(duel.game) == ""


# --- rule 6: durations end where the rule says, by themselves --------------------------------------

UNTIL_END_OF_TURN = card_spec("until_end_of_turn", "spell", {
    "kind": "quick_play_spell", "location": "hand", "target": "any_monster",
    "resolution": [{"op": "modify_atk", "what": "target", "amount": 500, "until": "end_of_turn"}]})
"""『直到回合游戏结束时』: a target gains 500 ATK until the end of the turn."""


def _walk_to_end_phase(duel: Duel) -> None:
    for _ in range(40):
        if duel.in_state("end_phase.open"):
            return
        offered = {a.name for a in duel.legal_actions()}
        duel.apply("pass" if "pass" in offered else "enter_end_phase")
    raise AssertionError(duel.state)


def test_modern_until_the_end_of_the_battle_phase_lasts_through_the_end_step_and_ends_by_itself() -> None:
    """004 ●『直到战斗阶段结束时』或『战斗阶段中』适用的效果直到双方玩家互相放弃发动卡的优先权且全部的卡的处理
    终了时适用: 「銀幕の鏡壁」's halving holds in the End Step; nobody ends it; both pass and it ends."""
    duel = battle("modern", cards_b=[{"card": "silver_screen_mirror_wall", "zone": "spell_trap", "face_up": True}],
                  target_atk=500)
    declare(duel)
    assert duel.players["A"].monsters[0].atk == 950
    pass_until(duel, "battle_phase.end_step.turn_player")
    assert legal(duel) == ["pass"], "nothing to end by hand"
    duel.apply("pass")
    assert duel.priority == "B" and legal(duel) == ["pass"]
    assert duel.players["A"].monsters[0].atk == 950, "still halved in the End Step"
    duel.apply("pass")
    assert not duel.in_state("battle_phase")
    assert duel.players["A"].monsters[0].atk == 1900 and duel.expiring == []


def _rushed(profile: str, card: str = "rush_recklessly", extra: dict[str, CardSpec] | None = None) -> Duel:
    duel = judge_duel(Setup.model_validate({
        "profile": profile, "turn": 3, "phase": "main_phase_1",
        "players": {"A": {"hand": 2, "monsters": [{"name": "X", "atk": 1000}], "cards": [{"card": card}]}}}),
        library={**default_library(), **(extra or {})})
    duel.apply(f"activate {card}>a_monster_1")
    duel.apply("pass")
    duel.apply("pass")
    _walk_to_end_phase(duel)
    return duel


def test_modern_until_the_end_of_the_turn_lasts_until_the_hand_size_adjustment_is_over() -> None:
    """004 ●记载了『直到回合游戏结束时』的效果直到双方玩家互相放弃发动卡的优先权，手卡调整结束全部的卡的处理终了时
    为止适用: in the End Phase the +500 holds, nobody ends it, passing is not forced into
    『回合玩家先处理』; after the hand size adjustment it has ended."""
    duel = _rushed("modern", "until_end_of_turn", library(UNTIL_END_OF_TURN))
    assert duel.players["A"].monsters[0].atk == 1500
    assert legal(duel) == ["pass"]
    duel.apply("pass")
    duel.apply("pass")
    assert "turn_player_handles" not in duel.state
    assert duel.turn == 4 and duel.players["A"].monsters[0].atk == 1000
    assert "hand_within_limit" in {record.transition for record in duel.trace}


def test_modern_the_older_until_the_end_phase_wording_ends_with_the_turn() -> None:
    """004 *从2014年7月10日起…原先写着『直到结束阶段时』的效果全部改订为『直到回合游戏结束时』: 「突進」."""
    duel = _rushed("modern")
    assert duel.players["A"].monsters[0].atk == 1700 and legal(duel) == ["pass"]
    duel.apply("pass")
    duel.apply("pass")
    assert duel.turn == 4 and duel.players["A"].monsters[0].atk == 1000


def test_ocg2008_until_the_end_of_the_turn_is_ended_by_its_controller_in_the_end_phase() -> None:
    """000 ●エンドフェイズ【２】·『回合结束为止～』…的效果结束（不进入连锁）; both passing with it pending,
    the turn player handles it first (000 例 结果Ｃ)."""
    duel = _rushed("ocg2008", "until_end_of_turn", library(UNTIL_END_OF_TURN))
    assert legal(duel) == ["pass", "process until_a_monster_1"]
    duel.apply("pass")
    duel.apply("pass")
    assert duel.state == "end_phase.open.turn_player_handles"
    duel.apply("process until_a_monster_1")
    assert duel.players["A"].monsters[0].atk == 1000


def test_end_of_turn_is_a_duration_of_the_vocabulary() -> None:
    """The missing duration `end_of_turn` (004 『直到回合游戏结束时』) is in the card vocabulary."""
    from ygo_fsm.cards import Duration

    assert {d.value for d in Duration} == {"standby_phase", "battle_end_step", "end_phase", "end_of_damage_step",
                                           "end_of_turn"}


# --- 004 手卡调整 例: the discard's cause --------------------------------------------------------

DISCARDER = card_spec("discarder", "spell", {
    "kind": "normal_spell", "location": "hand",
    "resolution": [{"op": "discard", "amount": 1, "to": "controller"}]})
"""A card effect that discards 1 card from its controller's hand."""


def test_grapha_discarded_by_a_card_effect_does_activate() -> None:
    """The control case of 004 手卡调整 例: 「暗黑界的龙神 格拉法」 discarded by a card effect meets
    『这张卡被卡的效果从手卡丢弃去墓地的场合』 (the hand size discard does not:
    tests/scenarios/seed/004_hand_size_example_grapha.yaml)."""
    duel = judge_duel(Setup.model_validate({
        "profile": "modern", "turn": 3, "phase": "main_phase_1",
        "players": {"A": {"hand": 0, "cards": [{"card": "discarder"},
                                               {"card": "grapha_dragon_lord_of_dark_world", "uid": "grapha"}]},
                    "B": {"monsters": [{"name": "Target", "atk": 1000}]}}}),
        library={**default_library(), **library(DISCARDER)})
    duel.apply("activate discarder")
    duel.apply("pass")
    duel.apply("pass")
    assert duel.where("grapha") == ("A", Zone.graveyard)
    assert "activate grapha>b_monster_1" in legal(duel)


# --- rule 8: simultaneous events are simultaneous ------------------------------------------------

WATCHER = card_spec("watcher", "monster", {
    "kind": "trigger", "location": "field", "wording": "when", "events": ["attack_declared"],
    "subject": "opponent",
    "resolution": [{"op": "recover", "amount": 100, "to": "controller"}]})
"""『对方怪兽的攻击宣言时，可以…』: an optional 'when … you can' trigger on the attack declaration."""
LAST_WORDS = card_spec("last_words", "monster", {
    "kind": "trigger", "location": "graveyard", "wording": "when", "events": ["destroyed"],
    "subject": "this_card",
    "resolution": [{"op": "draw", "amount": 1, "to": "controller"}]})
"""『这张卡被破坏送去墓地时，可以抽1张卡』: an optional 'when … you can' trigger on its own destruction."""


def test_a_when_trigger_on_the_attack_declaration_does_not_miss_the_timing() -> None:
    """PR17 missing the timing: the attack declaration and "becomes the attack target" happen at the
    same time (000 ４『攻击宣言时』『XX成为攻击对象时』的发动时点 is one window), so a 'when … you can'
    trigger on the declaration is met even though the target was recorded after it."""
    for profile in ("modern", "ocg2008"):
        duel = battle(profile, cards_b=[{"card": "watcher", "zone": "monster"}], extra=library(WATCHER))
        declare(duel)
        assert duel.state == "battle_phase.attack_declaration.declaration_window.build", profile
        assert legal(duel) == ["activate watcher", "decline"]


def test_monsters_destroyed_by_one_effect_are_destroyed_at_the_same_time() -> None:
    """PR17 missing the timing: 「ブラック・ホール」 destroys every monster at once; a 'when … you can'
    trigger of the first monster destroyed is still met (the others' destruction is not later)."""
    duel = judge_duel(Setup.model_validate({
        "profile": "modern", "turn": 3, "phase": "main_phase_1",
        "players": {"A": {"cards": [{"card": "last_words", "zone": "monster"}, {"card": "dark_hole"}]},
                    "B": {"monsters": [{"name": "Other", "atk": 1000}]}}}),
        library={**default_library(), **library(LAST_WORDS)})
    duel.apply("activate dark_hole")
    duel.apply("pass")
    duel.apply("pass")
    assert duel.where("last_words") == ("A", Zone.graveyard) and duel.players["B"].monsters == []
    assert "activate last_words" in legal(duel)


def test_a_card_discarded_by_an_effect_is_sent_to_the_graveyard_at_the_same_time() -> None:
    """PR17 missing the timing; Yugipedia "Discard" (to discard is to send a card from the hand to
    the GY): being discarded and being sent to the GY are one thing happening, so a 'when this card
    is sent to the GY … you can' trigger of a card discarded by an effect is still met."""
    mourner = card_spec("mourner", "monster", {
        "kind": "trigger", "location": "graveyard", "wording": "when", "events": ["sent_to_graveyard"],
        "subject": "this_card", "resolution": [{"op": "draw", "amount": 1, "to": "controller"}]})
    tax = card_spec("tax", "spell", {"kind": "normal_spell", "location": "hand",
                                     "resolution": [{"op": "discard", "amount": 1, "to": "opponent"}]})
    duel = judge_duel(Setup.model_validate({
        "profile": "modern", "turn": 3, "phase": "main_phase_1",
        "players": {"A": {"cards": [{"card": "tax"}]}, "B": {"hand": 0, "cards": [{"card": "mourner"}]}}}),
        library=library(mourner, tax))
    duel.apply("activate tax")
    duel.apply("pass")
    duel.apply("pass")
    assert duel.where("mourner") == ("B", Zone.graveyard)
    assert "activate mourner" in legal(duel)


def test_a_tribute_paid_for_a_summon_is_not_simultaneous_with_the_summon() -> None:
    """000 【怪兽通常***…】２·此时满足发动条件的「闇・道化師のペーテン」等任意发动的诱发效果不会发动 (PR17 agrees:
    the tribute is paid before the summon): an optional trigger on the tribute does not activate."""
    tribute_fodder = card_spec("fodder", "monster", {
        "kind": "trigger", "location": "graveyard", "wording": "when", "events": ["monster_sent_to_graveyard"],
        "subject": "this_card", "resolution": [{"op": "draw", "amount": 1, "to": "controller"}]})
    big = card_spec("big", "monster", level=5, atk=2000)
    duel = judge_duel(Setup.model_validate({
        "profile": "modern", "turn": 3, "phase": "main_phase_1",
        "players": {"A": {"cards": [{"card": "fodder", "zone": "monster"}, {"card": "big"}]}}}),
        library=library(tribute_fodder, big))
    duel.apply("normal_summon big")
    duel.apply("tribute fodder")
    pass_until(duel, "main_phase_1.summon.success_window")
    assert duel.where("fodder") == ("A", Zone.graveyard)
    assert not any(a.startswith("activate fodder") for a in legal(duel))


def test_the_refusal_names_the_profile_that_would_allow_it() -> None:
    """An ignition effect refused in the window under modern: the refusal says the transition that
    would allow it is declared for ocg2008 only, with its clause (000 …５回合玩家的怪兽起动效果)."""
    import pytest

    from ygo_fsm.errors import IllegalActionError

    duel = _summoned_mercenaries("modern")
    with pytest.raises(IllegalActionError) as refused:
        duel.apply("activate rogue_mercenaries>b_monster_1")
    assert "declared for the ocg2008 profile only (this duel plays modern)" in str(refused.value)
    assert "５回合玩家的怪兽起动效果" in str(refused.value)


SELF_BOOST = card_spec("self_boost", "monster", {
    "kind": "quick", "location": "field",
    "resolution": [{"op": "modify_atk", "what": "self", "amount": 500, "until": "end_of_turn"}]})
"""『这张卡的攻击力直到回合结束时上升500』: a quick effect on "this card"."""


def test_this_card_is_the_monster_that_activated_not_the_one_that_came_back() -> None:
    """A returning card is a new monster (004 ●…也视为怪兽数量发生变化): a monster's effect on "this
    card" does not apply to it once it left the field and came back during the chain."""
    duel = judge_duel(Setup.model_validate({
        "profile": "modern", "turn": 3, "phase": "main_phase_1",
        "players": {"A": {"cards": [{"card": "self_boost", "zone": "monster"}]},
                    "B": {"cards": [{"card": "flicker", "zone": "spell_trap"}]}}}),
        library=library(SELF_BOOST, FLICKER))
    duel.apply("activate self_boost")
    duel.apply("respond flicker>self_boost")
    duel.apply("pass")
    duel.apply("pass")
    assert duel.where("self_boost") == ("A", Zone.monster)
    assert duel.players["A"].monsters[0].atk == 1000 and duel.expiring == []


SUMMON_SNARE = card_spec("summon_snare", "trap", {
    "kind": "normal_trap", "location": "set", "events": ["normal_summoned"], "subject": "opponent",
    "resolution": [{"op": "destroy", "what": "event_card"}]})
"""『对方怪兽召唤时，那只怪兽破坏』: a trap acting on the event's card, not a target."""
SUMMONED = card_spec("summoned", "monster")


def _snare_the_summon(*, flicker: bool) -> Duel:
    """A normal summons 「summoned」; B answers with 「summon_snare」; A may chain 「flicker」 on it."""
    duel = judge_duel(Setup.model_validate({
        "profile": "modern", "turn": 3, "phase": "main_phase_1",
        "players": {"A": {"cards": [{"card": "summoned"}, {"card": "flicker", "zone": "spell_trap"}]},
                    "B": {"cards": [{"card": "summon_snare", "zone": "spell_trap"}]}}}),
        library=library(SUMMONED, SUMMON_SNARE, FLICKER))
    duel.apply("normal_summon summoned")
    pass_until(duel, "main_phase_1.summon.success_window.opponent")
    duel.apply("activate summon_snare")
    duel.apply("respond flicker>summoned" if flicker else "pass")
    pass_until(duel, "main_phase_1.open.turn_player")
    return duel


def test_the_event_s_card_is_the_monster_of_the_event_not_the_one_that_came_back() -> None:
    """A returning card is a new monster (004 ●…也视为怪兽数量发生变化): an effect acting on the
    event's card (『那只怪兽』) does nothing to the monster that left the field and came back during
    the chain; without that, it destroys the summoned monster."""
    assert _snare_the_summon(flicker=False).where("summoned") == ("A", Zone.graveyard)
    duel = _snare_the_summon(flicker=True)
    assert duel.where("summoned") == ("A", Zone.monster)


def test_a_duration_does_not_follow_its_monster_off_the_field_and_back() -> None:
    """「突進」's +700 was on the monster that left; the new monster is at its printed ATK and the end
    of the turn takes nothing from it (004 ●…也视为怪兽数量发生变化)."""
    duel = judge_duel(Setup.model_validate({
        "profile": "ocg2008", "turn": 3, "phase": "main_phase_1",
        "players": {"A": {"cards": [{"card": "beetle_armor_knight", "zone": "monster"},
                                    {"card": "rush_recklessly"}]},
                    "B": {"cards": [{"card": "flicker", "zone": "spell_trap"}]}}}),
        library={**default_library(), **library(FLICKER)})
    duel.apply("activate rush_recklessly>beetle_armor_knight")
    duel.apply("pass")
    duel.apply("pass")
    assert duel.players["A"].monsters[0].atk == 2600
    pass_until(duel, "main_phase_1.open.opponent")
    duel.apply("activate flicker>beetle_armor_knight")
    pass_until(duel, "main_phase_1.open.turn_player")
    assert duel.players["A"].monsters[0].atk == 1900, "a new monster: printed ATK"
    _walk_to_end_phase(duel)
    assert legal(duel) == ["pass"], "nothing left to end on the new monster"
    duel.apply("pass")
    duel.apply("pass")
    assert duel.turn == 4 and duel.players["A"].monsters[0].atk == 1900


def test_the_summon_negation_window_holds_one_chain() -> None:
    """PR17 pp.77–82 (Negating Summons): once the chain answering the summon attempt has resolved
    (「神の宣告」 negated by 「盗賊の七つ道具」), no second summon-negating chain can start; the summon
    succeeds (000 【怪兽通常***…】４ → 【情况Ａ】５)."""
    duel = judge_duel(Setup.model_validate({
        "profile": "modern", "turn": 3, "phase": "main_phase_1",
        "players": {"A": {"cards": [{"card": "beetle_armor_knight"},
                                    {"card": "seven_tools_of_the_bandit", "zone": "spell_trap"}]},
                    "B": {"cards": [{"card": "solemn_judgment", "zone": "spell_trap"},
                                    {"card": "solemn_judgment", "zone": "spell_trap"}]}}}))
    duel.apply("normal_summon beetle_armor_knight")
    duel.apply("pass")
    duel.apply("activate solemn_judgment")
    duel.apply("respond seven_tools_of_the_bandit")
    duel.apply("pass")
    duel.apply("pass")
    duel.apply("pass")                           # A, the window after the chain
    assert duel.priority == "B" and legal(duel) == ["pass"], "no new CHAIN1 with the second 「神の宣告」"
    duel.apply("pass")
    assert duel.where("beetle_armor_knight") == ("A", Zone.monster)
