"""Continuous effects under ``modern``: Equip Spells equipped to a monster, Field Spells' ATK/DEF
changes, piercing battle damage and battle protection in damage calculation, and special
summons forbidden by a continuous effect.

Sources: Yugipedia "Equip Spell Card" and "Equip Card" (an Equip Spell targets a face-up monster
when activated and is equipped to it; its effect applies to that monster while equipped; once the
equipped monster is no longer face-up on the field the Equip Card is immediately destroyed);
Yugipedia "Field Spell Card" (ATK/DEF of monsters of a Type, while the card is face-up in the
Field Zone); Yugipedia "Piercing"; 004 ●伤害计算 (damage calculation: ATK against DEF) and
●…战斗的判定是按照伤害计算时这一时点的攻击力和守备力进行的; 000 ●スタンバイフェイズ 例1 (「昇霊術師
ジョウゲン」: 双方不能特殊召唤) with PR17 pp.133–134 (an effect is activated only when what its
resolution does can be done). The cards are the generic pool's (tests/scenarios/cards/pool.yaml).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from helpers import judge_duel, legal, pass_to

from ygo_fsm import Duel, IllegalActionError, Setup
from ygo_fsm.cards import default_library, merge, read_card_file
from ygo_fsm.effects import activation_refusals
from ygo_fsm.game import Zone

POOL, _ = read_card_file(Path(__file__).resolve().parent / "scenarios" / "cards" / "pool.yaml")
CARDS = merge(default_library(), POOL)


def card(card_id: str, zone: str = "hand", **extra: Any) -> dict[str, Any]:
    return {"card": card_id, "zone": zone, **extra}


def duel(a: list[dict[str, Any]], b: list[dict[str, Any]] | None = None, *, phase: str = "main_phase_1",
         turn: int = 3) -> Duel:
    players = {"A": {"cards": a}, "B": {"cards": b or []}}
    return judge_duel(Setup.model_validate({"profile": "modern", "turn": turn, "phase": phase,
                                            "players": players}), library=CARDS)


def resolve(d: Duel) -> None:
    """Both players pass until the chain has resolved."""
    while d.game.chain:
        d.apply("pass")


def atk(d: Duel, uid: str) -> int:
    """The ATK the views show (continuous effects included)."""
    found = d.game.find(uid)
    assert found is not None
    side = d.observation(found[0]).side(found[0])
    return next(c.atk for c in side.monsters if c.uid == uid)  # type: ignore[return-value]


def equip(d: Duel, equip_card: str, monster: str) -> None:
    d.apply(f"activate {equip_card}>{monster}")
    resolve(d)


# --- Equip Spells ---------------------------------------------------------------------------------


def test_yugipedia_equip_spell_targets_only_a_face_up_monster() -> None:
    """Yugipedia "Equip Spell Card": all Equip Spells must target a face-up monster at activation —
    a face-down monster is not offered, and with none face-up the card cannot be activated."""
    d = duel([card("iron_blade"), card("plain_warrior", "monster", face_up=False, position="defence")],
             [card("plain_beast", "monster")])
    assert [a for a in legal(d) if a.startswith("activate iron_blade")] == ["activate iron_blade>plain_beast"]
    alone = duel([card("iron_blade"), card("plain_warrior", "monster", face_up=False, position="defence")])
    assert not [a for a in legal(alone) if a.startswith("activate iron_blade")]


def test_yugipedia_equip_spell_is_equipped_and_its_atk_change_applies_while_equipped() -> None:
    """Yugipedia "Equip Spell Card": on resolution it is equipped to the target and stays face-up;
    its effect (+500 ATK) applies to that monster as long as it is equipped — gone once the Equip
    Spell leaves the field (「サイクロン」 destroys it)."""
    d = duel([card("iron_blade"), card("plain_warrior", "monster")], [card("cyclone", "spell_trap")])
    equip(d, "iron_blade", "plain_warrior")
    blade = d.game.find("iron_blade")
    assert blade is not None and blade[1] is Zone.spell_trap and blade[2].face_up
    assert atk(d, "plain_warrior") == 2000
    assert d.players["A"].monsters[0].atk == 1500, "the monster's own ATK is not changed"
    pass_to(d, "main_phase_1.open.opponent")
    d.apply("activate cyclone>iron_blade")
    resolve(d)
    assert d.where("iron_blade") == ("A", Zone.graveyard)
    assert atk(d, "plain_warrior") == 1500


def test_yugipedia_equip_card_is_destroyed_when_the_equipped_monster_leaves_the_field() -> None:
    """Yugipedia "Equip Card": if the equipped monster is no longer face-up on the field, the Equip
    Card is immediately destroyed — by the rules (no chain link), as soon as the monster has left."""
    d = duel([card("iron_blade"), card("plain_warrior", "monster")], [card("ring_of_destruction", "spell_trap")])
    equip(d, "iron_blade", "plain_warrior")
    pass_to(d, "main_phase_1.open.opponent")
    d.apply("activate ring_of_destruction>plain_warrior")
    d.apply("pass")
    d.apply("pass")
    assert d.where("plain_warrior") == ("A", Zone.graveyard)
    assert d.where("iron_blade") == ("A", Zone.graveyard), "destroyed as the monster left"
    blade = d.game.find("iron_blade")
    assert blade is not None and blade[2].destroyed_turn == 3, "destroyed, not merely sent"


def test_yugipedia_equip_card_is_destroyed_when_the_equipped_monster_is_turned_face_down() -> None:
    """Yugipedia "Equip Card": a monster turned face-down is no longer face-up on the field — its
    Equip Card is destroyed."""
    d = duel([card("iron_blade"), card("plain_warrior", "monster")], [card("moon_veil", "spell_trap")])
    equip(d, "iron_blade", "plain_warrior")
    pass_to(d, "main_phase_1.open.opponent")
    d.apply("activate moon_veil>plain_warrior")
    resolve(d)
    assert not d.game.find("plain_warrior")[2].face_up  # type: ignore[index]
    assert d.where("iron_blade") == ("A", Zone.graveyard)


def test_yugipedia_equip_spell_whose_target_is_gone_on_resolution_goes_to_the_graveyard() -> None:
    """Yugipedia "Equip Card": with its target gone when it resolves, the Equip Spell has no monster
    to be equipped to and is sent to the graveyard (destroyed by the rules) — it does not stay."""
    d = duel([card("iron_blade"), card("plain_warrior", "monster")], [card("ring_of_destruction", "spell_trap")])
    d.apply("activate iron_blade>plain_warrior")
    d.apply("respond ring_of_destruction>plain_warrior")
    resolve(d)
    assert d.where("plain_warrior") == ("A", Zone.graveyard)
    assert d.where("iron_blade") == ("A", Zone.graveyard)


def test_yugipedia_negate_an_equip_spell_whose_activation_is_negated_is_sent_not_destroyed() -> None:
    """Yugipedia "Negate": a Spell Card whose activation is negated is sent to the GY once the chain
    has resolved — not destroyed by the Equip Card rule."""
    d = duel([card("iron_blade"), card("plain_warrior", "monster")], [card("spell_seal", "spell_trap")])
    d.apply("activate iron_blade>plain_warrior")
    d.apply("respond spell_seal")
    resolve(d)
    blade = d.game.find("iron_blade")
    assert blade is not None and blade[1] is Zone.graveyard and blade[2].destroyed_turn is None


def test_equip_spells_attachment_is_saved_and_loaded() -> None:
    """The monster an Equip Card is equipped to is part of the game document."""
    d = duel([card("iron_blade"), card("plain_warrior", "monster")])
    equip(d, "iron_blade", "plain_warrior")
    loaded = Duel.from_json(d.to_json(), library=CARDS)
    assert loaded == d and atk(loaded, "plain_warrior") == 2000


# --- Field Spells --------------------------------------------------------------------------------


def test_yugipedia_field_spell_changes_atk_def_of_the_monsters_it_names_while_face_up() -> None:
    """Yugipedia "Field Spell Card": +200 ATK/DEF to Warriors on both fields while 「戦士の闘技場」 is
    face-up in the Field Zone; a Beast is unchanged; a Warrior summoned later gets it too."""
    d = duel([card("warrior_arena"), card("plain_warrior", "monster"), card("unbreakable_knight")],
             [card("plain_beast", "monster"), card("plain_warrior", "monster", uid="b_warrior")])
    d.apply("activate warrior_arena")
    resolve(d)
    assert (atk(d, "plain_warrior"), atk(d, "b_warrior"), atk(d, "plain_beast")) == (1700, 1700, 1200)
    view = d.observation("A").side("A")
    assert next(c.defence for c in view.monsters if c.uid == "plain_warrior") == 1400
    pass_to(d, "main_phase_1.open.turn_player")
    d.apply("normal_summon unbreakable_knight")
    pass_to(d, "main_phase_1.open.turn_player")
    assert atk(d, "unbreakable_knight") == 1000, "a monster arriving later gets it"


def test_yugipedia_field_spell_effect_stops_when_it_leaves_the_field() -> None:
    """Yugipedia "Field Spell Card": the change applies only while the card is face-up in the Field
    Zone — destroyed by 「サイクロン」, the Warriors are back to their own ATK."""
    d = duel([card("warrior_arena", "field_zone", face_up=True), card("plain_warrior", "monster")],
             [card("cyclone", "spell_trap")])
    assert atk(d, "plain_warrior") == 1700
    pass_to(d, "main_phase_1.open.opponent")
    d.apply("activate cyclone>warrior_arena")
    resolve(d)
    assert atk(d, "plain_warrior") == 1500


def test_yugipedia_field_spell_set_face_down_changes_nothing() -> None:
    """Yugipedia "Field Spell Card": a Field Spell applies once activated (face-up); Set face-down in
    the Field Zone it does nothing."""
    d = duel([card("warrior_arena", "field_zone"), card("plain_warrior", "monster")])
    assert atk(d, "plain_warrior") == 1500


def test_the_library_s_mountain_gives_dragons_200() -> None:
    """「山」 (Yugipedia "Field Spell Card"): Dragon, Winged Beast and Thunder monsters gain 200 ATK/DEF."""
    d = duel([card("mountain", "field_zone", face_up=True), card("plain_dragon", "monster"),
              card("plain_warrior", "monster")])
    assert (atk(d, "plain_dragon"), atk(d, "plain_warrior")) == (2600, 1500)


def test_004_damage_calculation_uses_the_atk_continuous_effects_give() -> None:
    """004 ●…战斗的判定是按照伤害计算时这一时点的攻击力和守备力进行的: 「通常戦士」 (1500, +200 from
    「戦士の闘技場」) attacks 「通常獣」 (1200 ATK, not a Warrior): B takes 1700 − 1200 = 500."""
    d = duel([card("warrior_arena", "field_zone", face_up=True), card("plain_warrior", "monster")],
             [card("plain_beast", "monster")], phase="battle_phase")
    pass_to(d, "battle_phase.battle_step.turn_player")
    d.apply("declare_attack plain_warrior")
    d.apply("choose_target plain_beast")
    pass_to(d, "battle_phase.end_step")
    assert d.players["B"].lp == 8000 - (1700 - 1200)


# --- piercing and battle protection --------------------------------------------------------------


def to_battle_phase(d: Duel) -> None:
    for _ in range(20):
        if "enter_battle_phase" in legal(d):
            d.apply("enter_battle_phase")
            return
        d.apply("pass")
    raise AssertionError(d.state)


def _attack(d: Duel, attacker: str, target: str) -> None:
    pass_to(d, "battle_phase.battle_step.turn_player")
    d.apply(f"declare_attack {attacker}")
    d.apply(f"choose_target {target}")
    pass_to(d, "battle_phase.end_step")


def test_yugipedia_piercing_deals_the_difference_over_def_as_battle_damage() -> None:
    """Yugipedia "Piercing": 「槍の獣」 (1800 ATK) attacks a Defense Position monster with 1200 DEF:
    the monster is destroyed and its controller takes the difference, 600."""
    d = duel([card("spear_beast", "monster")], [card("plain_warrior", "monster", position="defence")],
             phase="battle_phase")
    _attack(d, "spear_beast", "plain_warrior")
    assert d.where("plain_warrior") == ("B", Zone.graveyard)
    assert d.players["B"].lp == 7400


def test_004_damage_calculation_without_piercing_a_defense_position_monster_takes_no_damage() -> None:
    """004 ●伤害计算: ATK higher than the defender's DEF destroys it and deals no battle damage."""
    d = duel([card("plain_dragon", "monster")], [card("plain_warrior", "monster", position="defence")],
             phase="battle_phase")
    _attack(d, "plain_dragon", "plain_warrior")
    assert d.where("plain_warrior") == ("B", Zone.graveyard)
    assert d.players["B"].lp == 8000


def test_yugipedia_piercing_given_by_an_equip_spell() -> None:
    """Yugipedia "Piercing" (Equip Spells that give it): 「貫きの槍」 equipped to 「通常竜」 (2400)
    attacking 「通常戦士」 in Defense Position (1200 DEF) deals 1200."""
    d = duel([card("piercing_lance"), card("plain_dragon", "monster")],
             [card("plain_warrior", "monster", position="defence")], phase="main_phase_1")
    equip(d, "piercing_lance", "plain_dragon")
    to_battle_phase(d)
    _attack(d, "plain_dragon", "plain_warrior")
    assert d.players["B"].lp == 6800


def test_004_damage_calculation_a_monster_that_cannot_be_destroyed_by_battle_stays_and_damage_is_dealt() -> None:
    """004 ●伤害计算 with "this card cannot be destroyed by battle": 「不壊の騎士」 (800 ATK) attacked
    by 「通常竜」 (2400) in Attack Position is not destroyed; its controller still takes 1600."""
    d = duel([card("plain_dragon", "monster")], [card("unbreakable_knight", "monster")], phase="battle_phase")
    _attack(d, "plain_dragon", "unbreakable_knight")
    assert d.where("unbreakable_knight") == ("B", Zone.monster)
    assert d.players["B"].lp == 6400


def test_004_damage_calculation_battle_protection_against_a_piercing_attacker() -> None:
    """Yugipedia "Piercing": the difference is dealt whether or not the defender is destroyed —
    「槍の獣」 (1800) against 「不壊の騎士」 in Defense Position (1900 DEF) pierces nothing (the DEF is
    higher: A takes 100); 「通常竜」 (2400) with 「貫きの槍」 against it deals 500 and the knight,
    which cannot be destroyed by battle, stays."""
    d = duel([card("spear_beast", "monster")], [card("unbreakable_knight", "monster", position="defence")],
             phase="battle_phase")
    _attack(d, "spear_beast", "unbreakable_knight")
    assert (d.players["A"].lp, d.players["B"].lp) == (7900, 8000)
    lance = duel([card("piercing_lance"), card("plain_dragon", "monster")],
                 [card("unbreakable_knight", "monster", position="defence")])
    equip(lance, "piercing_lance", "plain_dragon")
    to_battle_phase(lance)
    _attack(lance, "plain_dragon", "unbreakable_knight")
    assert lance.where("unbreakable_knight") == ("B", Zone.monster)
    assert lance.players["B"].lp == 7500


# --- special summons forbidden ----------------------------------------------------------------------


def test_000_standby_example_1_jougen_no_special_summoning_effect_is_offered() -> None:
    """000 ●スタンバイフェイズ 例1 (「昇霊術師 ジョウゲン」: neither player can special summon) and PR17
    pp.133–134: an effect whose resolution special summons is not offered while it is face-up —
    「羊の囲い」 (tokens: special summoned) neither — and the refusal names the card; without it,
    it is offered."""
    d = duel([card("sheep_pen")], [card("jougen", "monster"), card("ring_of_destruction", "spell_trap")])
    assert "activate sheep_pen" not in legal(d)
    assert [r.code for r in activation_refusals(d.game, "A", "sheep_pen")] == ["special_summon_forbidden"]
    with pytest.raises(IllegalActionError, match="昇霊術師 ジョウゲン"):
        d.apply("activate sheep_pen")
    assert "activate sheep_pen" in legal(duel([card("sheep_pen")], [card("plain_beast", "monster")]))


def test_yugipedia_battle_damage_halved_by_a_battler() -> None:
    """Yugipedia "Battle damage" (battle damage becomes halved): 「通常竜」 (2400) attacks 「半減のゴーレム」
    (1000 ATK, halves the battle damage of its battles): B takes 1400 / 2 = 700; attacked in Defense
    Position (DEF 2000) by 「槍の獣」 (1800), A takes 200 / 2 = 100."""
    d = duel([card("plain_dragon", "monster")], [card("half_shield_golem", "monster")], phase="battle_phase")
    _attack(d, "plain_dragon", "half_shield_golem")
    assert d.players["B"].lp == 7300
    d = duel([card("spear_beast", "monster")], [card("half_shield_golem", "monster", position="defence")],
             phase="battle_phase")
    _attack(d, "spear_beast", "half_shield_golem")
    assert d.players["A"].lp == 7900


# --- the vocabulary's checks ---------------------------------------------------------------------


@pytest.mark.parametrize(("effects", "problem"), [
    ([{"kind": "continuous_spell", "location": "hand", "grants": {"atk": 100}}], "grants: only a continuous effect"),
    ([{"kind": "continuous_spell", "location": "hand"},
      {"kind": "continuous", "grants": {"monsters": "equipped", "atk": 100}}], "grants.monsters: equipped"),
    ([{"kind": "normal_spell", "location": "hand", "target": "face_up_monster", "resolution": [{"op": "equip"}]}],
     "resolution: equip"),
    ([{"kind": "equip_spell", "location": "hand", "resolution": [{"op": "equip"}]}], "acts on the target"),
])
def test_card_files_refuse_grants_and_equips_that_cannot_mean_what_they_say(effects: list[dict[str, Any]],
                                                                             problem: str) -> None:
    """A grant only on a continuous effect; ``equipped`` and ``op: equip`` only on an Equip Spell,
    which targets the monster it equips (Yugipedia "Equip Spell Card": it must target a face-up monster)."""
    from ygo_fsm.cards import parse_cards

    _, problems = parse_cards([{"id": "odd", "name_ja": "odd", "name_zh": "odd", "type": "spell",
                                "effects": effects}], source="cards.yaml")
    assert len(problems) == 1 and problem in problems[0], problems


def test_the_narration_of_an_atk_change_gives_the_atk_with_the_field_spell() -> None:
    """What a player is told a monster's ATK becomes is its ATK on the field: 「突進」 (+700) on a
    Warrior under 「戦士の闘技場」 (+200) says 2400 (1500 + 200 + 700)."""
    d = duel([card("warrior_arena", "field_zone", face_up=True), card("plain_warrior", "monster"),
              card("rush_recklessly", "spell_trap")])
    d.apply("activate rush_recklessly>plain_warrior")
    resolve(d)
    assert atk(d, "plain_warrior") == 2400
    assert any("攻击力变成2400" in line for record in d.trace for line in (record.detail or ()))


def test_a_setup_places_an_equip_spell_equipped_to_a_monster() -> None:
    """A setup may start with an Equip Spell equipped (``equipped_to:``): its effect applies at once,
    and it is destroyed as soon as the monster leaves (Yugipedia "Equip Card"); naming a monster
    that is not a face-up monster on the field is refused."""
    d = duel([card("iron_blade", "spell_trap", face_up=True, equipped_to="plain_warrior"),
              card("plain_warrior", "monster")], [card("ring_of_destruction", "spell_trap")])
    assert atk(d, "plain_warrior") == 2000
    pass_to(d, "main_phase_1.open.opponent")
    d.apply("activate ring_of_destruction>plain_warrior")
    resolve(d)
    assert d.where("iron_blade") == ("A", Zone.graveyard)
    with pytest.raises(ValueError, match="equipped_to"):
        duel([card("iron_blade", "spell_trap", face_up=True, equipped_to="plain_beast"),
              card("plain_beast", "monster", face_up=False, position="defence")])


def test_yugipedia_negate_a_monster_whose_effects_are_negated_loses_its_piercing() -> None:
    """Yugipedia "Negate" (negating effects): a face-up monster whose effects are negated does not
    apply its continuous effects while they are — 「沈黙の帳」 negates 「槍の獣」's effects until the
    end of the turn, so its attack on a Defense Position monster deals no piercing damage."""
    d = duel([card("spear_beast", "monster")],
             [card("plain_warrior", "monster", position="defence"), card("veil_of_silence", "spell_trap")])
    d.apply("pass")
    assert d.priority == "B"
    d.apply("activate veil_of_silence>spear_beast")
    resolve(d)
    to_battle_phase(d)
    _attack(d, "spear_beast", "plain_warrior")
    assert d.where("plain_warrior") == ("B", Zone.graveyard)
    assert d.players["B"].lp == 8000


def test_yugipedia_equip_spell_a_set_equip_spell_is_equipped_to_nothing_and_stays() -> None:
    """Yugipedia "Equip Spell Card": an Equip Spell is equipped when its activation resolves; one
    merely Set face-down in the Spell & Trap Zone is equipped to nothing and is not destroyed for it
    while play goes on (a monster is summoned, the turn moves to the Battle Phase)."""
    d = duel([card("iron_blade", "spell_trap"), card("plain_warrior", "monster"), card("plain_beast")])
    d.apply("normal_summon plain_beast")
    to_battle_phase(d)
    assert d.where("iron_blade") == ("A", Zone.spell_trap)
    assert not d.game.find("iron_blade")[2].face_up  # type: ignore[index]


def test_yugipedia_piercing_over_a_monster_with_0_def_deals_the_whole_atk() -> None:
    """Yugipedia "Piercing" and "DEF" (DEF is never below 0, and 0 is a DEF like any other):
    「槍の獣」 (1800 ATK) attacks 「怨念の影」, a 0 DEF monster in Defense Position — the difference
    over its DEF is all of the 1800."""
    d = duel([card("spear_beast", "monster")], [card("grudge_shade", "monster", position="defence")],
             phase="battle_phase")
    _attack(d, "spear_beast", "grudge_shade")
    assert d.where("grudge_shade") == ("B", Zone.graveyard)
    assert d.players["B"].lp == 8000 - 1800
