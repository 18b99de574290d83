"""The official rules under ``modern`` where the seeds are silent: winning and losing, activation
legality, costs and maintenance costs, the Field Zone, negating an activation or an effect, and
Spell/Trap effects that need their card on the field.

Sources: Konami OCG Perfect Rulebook 2017 (PR17; page numbers as the rules-coverage table gives
them, ``docs/rules-coverage.md``) and the Yugipedia pages named in each test.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from helpers import card_spec, judge_duel

from ygo_fsm import Duel, IllegalActionError, Setup
from ygo_fsm.cards import CardSpec, default_library
from ygo_fsm.effects import activation_refusals
from ygo_fsm.game import Zone


def _cards() -> dict[str, CardSpec]:
    custom = [
        card_spec("burn_then_backfire", "spell", {
            "kind": "normal_spell", "location": "hand",
            "resolution": [{"op": "damage", "amount": 8000, "to": "opponent"},
                           {"op": "damage", "amount": 8000, "to": "controller"}]}),
        card_spec("heal_trap", "trap", {"kind": "normal_trap", "location": "set",
                                        "resolution": [{"op": "recover", "amount": 5000, "to": "controller"}]}),
        card_spec("burn_trap", "trap", {"kind": "normal_trap", "location": "set",
                                        "resolution": [{"op": "damage", "amount": 8000, "to": "opponent"}]}),
        card_spec("standby_drawer", "monster", {
            "kind": "trigger", "location": "field", "phase": "standby_phase", "mandatory": True,
            "conditions": {"controller_is_turn_player": True},
            "resolution": [{"op": "draw", "amount": 1, "to": "controller"}]}),
        card_spec("standby_both_draw", "monster", {
            "kind": "trigger", "location": "field", "phase": "standby_phase", "mandatory": True,
            "conditions": {"controller_is_turn_player": True},
            "resolution": [{"op": "draw", "amount": 1, "to": "both"}]}),
        card_spec("lp_trap", "trap", {"kind": "normal_trap", "location": "set", "cost": {"pay_lp": 1000},
                                      "resolution": [{"op": "damage", "amount": 100, "to": "opponent"}]}),
        card_spec("hard_maintenance", "spell",
                  {"kind": "continuous_spell", "location": "hand"},
                  {"kind": "processing", "location": "field", "phase": "standby_phase", "mandatory": True,
                   "maintenance": "mandatory", "conditions": {"controller_is_turn_player": True},
                   "cost": {"pay_lp": 700}}),
        card_spec("standby_quick", "monster", {"kind": "quick", "location": "field", "phase": "standby_phase",
                                               "resolution": [{"op": "damage", "amount": 100, "to": "opponent"}]}),
        card_spec("half_maintenance", "spell",
                  {"kind": "continuous_spell", "location": "hand"},
                  {"kind": "processing", "location": "field", "phase": "standby_phase", "mandatory": True,
                   "maintenance": "mandatory", "conditions": {"controller_is_turn_player": True},
                   "cost": {"pay_half_lp": True}}),
        card_spec("plain_negator", "trap", {"kind": "counter_trap", "location": "set",
                                            "resolution": [{"op": "negate_activation"}]}),
        card_spec("effect_negator", "trap", {"kind": "counter_trap", "location": "set",
                                             "resolution": [{"op": "negate_effect"}]}),
        card_spec("burning_lantern", "spell",
                  {"kind": "continuous_spell", "location": "hand"},
                  {"kind": "ignition", "location": "field", "once_per_turn": True,
                   "resolution": [{"op": "damage", "amount": 500, "to": "opponent"}]}),
        card_spec("lasting_burn", "trap", {"kind": "continuous_trap", "location": "set",
                                           "resolution": [{"op": "damage", "amount": 300, "to": "opponent"}]}),
        card_spec("summon_watcher", "trap",
                  {"kind": "continuous_trap", "location": "set"},
                  {"kind": "trigger", "location": "field", "events": ["normal_summoned"], "mandatory": True,
                   "resolution": [{"op": "damage", "amount": 500, "to": "turn_player"}]}),
        card_spec("hard_once_lantern", "spell",
                  {"kind": "continuous_spell", "location": "hand"},
                  {"kind": "ignition", "location": "field", "once_per_turn_name": True,
                   "resolution": [{"op": "damage", "amount": 100, "to": "opponent"}]}),
        card_spec("costly_spell", "spell", {"kind": "normal_spell", "location": "hand", "cost": {"pay_lp": 1000},
                                            "resolution": [{"op": "damage", "amount": 300, "to": "opponent"}]}),
    ]
    return {**default_library(), **{card.id: card for card in custom}}


CARDS = _cards()


def duel(a: list[dict[str, Any]] | None = None, b: list[dict[str, Any]] | None = None, *,
         phase: str = "main_phase_1", turn: int = 3, profile: str = "modern",
         a_setup: dict[str, Any] | None = None, b_setup: dict[str, Any] | None = None) -> Duel:
    players = {"A": {"cards": a or [], **(a_setup or {})}, "B": {"cards": b or [], **(b_setup or {})}}
    return judge_duel(Setup.model_validate({"profile": profile, "turn": turn, "phase": phase, "players": players}),
                library=CARDS)


def card(card_id: str, zone: str = "hand", **extra: Any) -> dict[str, Any]:
    return {"card": card_id, "zone": zone, **extra}


def offered(d: Duel) -> list[str]:
    return [str(action) for action in d.legal_actions()]


def resolve(d: Duel) -> None:
    """Both players pass until the chain has resolved."""
    while d.chain and not d.is_over:
        d.apply("pass")


# --- 4. winning and losing ---------------------------------------------------------------------


def test_pr17_p43_the_duel_ends_the_moment_lp_reach_0_and_the_rest_does_not_resolve() -> None:
    """PR17 p.43 (winning and losing): the duel ends as soon as a player's LP are 0. The opponent reaches 0
    by the first operation; the second ("and then 8000 to you") never happens: A wins, not a draw."""
    d = duel([card("burn_then_backfire")])
    d.apply("activate burn_then_backfire")
    resolve(d)
    assert d.is_over and d.winner == "A" and d.end_reason == "lp"
    assert (d.players["A"].lp, d.players["B"].lp) == (8000, 0)


def test_pr17_p43_lp_at_0_from_a_saved_duel_end_it_at_the_next_transition() -> None:
    """PR17 p.43: a player whose LP are 0 loses. LP set outside any transition (a saved duel whose
    player B has 0 LP) are judged after the next transition, even one that runs no callback (a pass)."""
    document = json.loads(Duel().to_json())
    document["game"]["players"]["B"]["lp"] = 0
    loaded = Duel.from_json(json.dumps(document))
    assert not loaded.is_over and loaded.state == "draw_phase.before_draw_window.turn_player"
    loaded.apply("pass")
    assert loaded.is_over and loaded.winner == "A" and loaded.end_reason == "lp"
    assert loaded.state == "draw_phase.before_draw_window.opponent"  # ended where that pass led


def test_pr17_p43_lp_set_to_0_in_a_live_duel_end_it_after_the_next_action() -> None:
    """PR17 p.43: a player whose LP are 0 loses. LP set to 0 from outside in a duel under way (after
    transitions in which nobody lost LP) are judged once the next action's transition is taken: the
    duel ends where that pass led."""
    d = Duel()
    d.apply("pass")
    assert d.state == "draw_phase.before_draw_window.opponent"
    d.players["B"].lp = 0
    d.apply("pass")
    assert d.is_over and d.winner == "A" and d.end_reason == "lp"
    assert d.state == "draw_phase.before_draw_window.closed"  # nothing after the window that pass closed
    assert d.trace[-1].transition == "window_closes"


def test_pr17_p43_both_players_at_0_at_the_same_moment_is_a_draw() -> None:
    """PR17 p.43; Yugipedia "DRAW" (「破壊輪」: both players' LP reach 0 simultaneously): damage to
    both players at once leaves both at 0 — the duel is a draw."""
    d = duel([card("ring_of_destruction", "spell_trap")],
             [card("sapphire_dragon", "monster")], a_setup={"lp": 1000}, b_setup={"lp": 1900})
    d.apply("activate ring_of_destruction>sapphire_dragon")
    resolve(d)
    assert d.is_over and d.winner is None
    assert (d.players["A"].lp, d.players["B"].lp) == (0, 0)


def test_pr17_p43_a_chain_stops_where_the_duel_ended() -> None:
    """PR17 p.43: CHAIN2 takes A to 0; CHAIN1 (A recovers 5000) is not resolved — A stays at 0 and
    loses; the trace's last record is CHAIN2's resolution and ``duel.state`` is in the resolving chain."""
    d = duel([card("heal_trap", "spell_trap")], [card("burn_trap", "spell_trap")])
    d.apply("activate heal_trap")
    d.apply("respond burn_trap")
    resolve(d)
    assert d.is_over and d.winner == "B" and d.players["A"].lp == 0
    assert [uid for _, _, uid, _ in d.resolutions] == ["burn_trap"]
    assert d.state == "main_phase_1.open.chain.resolving"
    last = d.trace[-1]
    assert last.transition == "link_resolves" and last.state == d.state
    assert any("B获得决斗的胜利" in line for line in last.detail)
    with pytest.raises(IllegalActionError, match="the duel is over"):
        d.apply("pass")


def test_pr17_p43_battle_damage_ends_the_duel_where_it_is_calculated() -> None:
    """PR17 p.43: the duel ends at damage calculation; no later window is entered (the duel's end is
    not recorded one state late)."""
    d = duel([card("sapphire_dragon", "monster")], phase="battle_phase", b_setup={"lp": 1900})
    while not any(a.name == "declare_attack" for a in d.legal_actions()):
        d.apply("pass")
    d.apply("declare_attack sapphire_dragon")
    d.apply("choose_target direct")
    while not d.is_over:
        d.apply("pass")
    assert d.winner == "A"
    assert d.state == "battle_phase.damage_step.after_damage_calculation"
    assert d.trace[-1].transition == "damage_calculated" and d.trace[-1].state == d.state


def test_pr17_p43_a_player_made_to_draw_from_an_empty_deck_by_an_effect_loses() -> None:
    """PR17 p.43; 004 ●卡组没有卡在需要抽卡却无卡可抽的场合，该玩家决斗败北: a mandatory effect makes A draw
    with an empty deck — it is activated all the same, and A loses when it resolves."""
    d = duel([card("standby_drawer", "monster")], phase="standby_phase", a_setup={"deck": 0})
    assert "activate standby_drawer" in offered(d)
    d.apply("activate standby_drawer")
    resolve(d)
    assert d.is_over and d.winner == "B" and d.end_reason == "deck_out"


def test_yugipedia_draw_both_players_unable_to_draw_at_once_is_a_draw() -> None:
    """Yugipedia "DRAW" (「Morphing Jar」, 「Card Destruction」): an effect makes both players draw and
    neither deck holds enough — both lose at the same moment: a draw."""
    d = duel([card("standby_both_draw", "monster")], phase="standby_phase",
             a_setup={"deck": 0}, b_setup={"deck": 0})
    d.apply("activate standby_both_draw")
    resolve(d)
    assert d.is_over and d.winner is None and d.end_reason == "deck_out"


def test_a_duel_that_ended_saves_and_loads_where_it_ended() -> None:
    """The saved document of a finished duel keeps where it ended (no machine entered after it)."""
    d = duel([card("sapphire_dragon", "monster")], phase="battle_phase", b_setup={"lp": 1900})
    while not any(a.name == "declare_attack" for a in d.legal_actions()):
        d.apply("pass")
    d.apply("declare_attack sapphire_dragon")
    d.apply("choose_target direct")
    while not d.is_over:
        d.apply("pass")
    loaded = Duel.from_json(d.to_json(), library=CARDS)
    assert loaded == d and loaded.state == d.state and loaded.is_over


# --- 3. costs --------------------------------------------------------------------------------------


def test_yugipedia_cost_lp_may_be_paid_to_exactly_0_and_that_player_loses() -> None:
    """Yugipedia "Cost"; PR17 p.43: a cost of 1000 LP with exactly 1000 LP can be paid; the payer
    is then at 0 and loses at once (the activation goes no further)."""
    d = duel([card("lp_trap", "spell_trap")], a_setup={"lp": 1000})
    assert "activate lp_trap" in offered(d)
    d.apply("activate lp_trap")
    assert d.is_over and d.winner == "B" and d.players["A"].lp == 0
    assert d.chain == []


def test_yugipedia_cost_that_cannot_be_paid_in_full_cannot_be_paid_and_the_card_not_activated() -> None:
    """Yugipedia "Cost": if a cost cannot be paid in full, the effect cannot be activated (999 LP
    for a 1000 LP cost); the refusal is data naming the cost."""
    d = duel([card("lp_trap", "spell_trap")], a_setup={"lp": 999})
    assert "activate lp_trap" not in offered(d)
    assert [r.code for r in activation_refusals(d.game, "A", "lp_trap")] == ["cost_lp"]
    with pytest.raises(IllegalActionError):
        d.apply("activate lp_trap")
    assert d.players["A"].lp == 999


def test_yugipedia_cost_is_never_refunded_when_the_activation_is_negated() -> None:
    """Yugipedia "Cost" (costs cannot be refunded, even if the activation is negated): 「我が身を盾に」
    pays 1500 and is negated by 「王家の呪い」; B's LP stay paid."""
    d = duel([card("dark_hole"), card("royal_curse", "spell_trap")],
             [card("my_body_as_a_shield", "spell_trap"), card("sapphire_dragon", "monster")])
    d.apply("activate dark_hole")
    d.apply("respond my_body_as_a_shield")
    assert d.players["B"].lp == 6500
    d.apply("respond royal_curse")
    resolve(d)
    assert d.players["B"].lp == 6500
    assert d.where("sapphire_dragon") == ("B", Zone.graveyard)  # 「ブラック・ホール」 resolved


def _standby(cards_a: list[dict[str, Any]], lp: int = 8000) -> Duel:
    return duel(cards_a, phase="standby_phase", a_setup={"lp": lp})


def test_yugipedia_maintenance_cost_optional_the_payer_pays_and_no_chain_starts() -> None:
    """Yugipedia "Maintenance cost"; 000 ●スタンバイフェイズ【２】·维持COST的处理（不进入连锁）: 「平和の使者」's
    100 LP is paid without a chain link — nothing is on the chain to respond to."""
    d = _standby([card("messenger_of_peace", "spell_trap", face_up=True)])
    assert {"process messenger_of_peace", "process messenger_of_peace>destroy"} <= set(offered(d))
    d.apply("process messenger_of_peace")
    assert d.players["A"].lp == 7900 and d.chain == [] and "respond" not in {a.name for a in d.legal_actions()}
    assert d.where("messenger_of_peace") == ("A", Zone.spell_trap)


def test_yugipedia_maintenance_cost_optional_not_paying_destroys_the_card() -> None:
    """Yugipedia "Maintenance cost" (「平和の使者」: pay 100 LP, or do not and destroy this card)."""
    d = _standby([card("messenger_of_peace", "spell_trap", face_up=True)])
    d.apply("process messenger_of_peace>destroy")
    assert d.players["A"].lp == 8000
    assert d.where("messenger_of_peace") == ("A", Zone.graveyard)
    assert d.game.find("messenger_of_peace")[2].destroyed_turn == 3  # type: ignore[index]


def test_yugipedia_maintenance_cost_mandatory_is_paid_when_it_can_be() -> None:
    """Yugipedia "Maintenance cost": a mandatory cost that can be paid offers no way out."""
    d = _standby([card("hard_maintenance", "spell_trap", face_up=True)])
    assert [a for a in offered(d) if a.startswith("process")] == ["process hard_maintenance#2"]
    d.apply("process hard_maintenance#2")
    assert d.players["A"].lp == 7300 and d.where("hard_maintenance") == ("A", Zone.spell_trap)


def test_yugipedia_maintenance_cost_mandatory_that_cannot_be_paid_destroys_the_card() -> None:
    """Yugipedia "Maintenance cost": 700 LP cannot be paid with 500; the card is destroyed."""
    d = _standby([card("hard_maintenance", "spell_trap", face_up=True)], lp=500)
    assert [a for a in offered(d) if a.startswith("process")] == ["process hard_maintenance#2>destroy"]
    d.apply("process hard_maintenance#2>destroy")
    assert d.players["A"].lp == 500 and d.where("hard_maintenance") == ("A", Zone.graveyard)


def test_yugipedia_maintenance_cost_of_half_the_lp_pays_half() -> None:
    """Yugipedia "Maintenance cost" with a "pay half your LP" cost (the vocabulary's
    ``pay_half_lp``): A pays 3500 of 7000, keeps the card, and nothing starts a chain."""
    d = _standby([card("half_maintenance", "spell_trap", face_up=True)], lp=7000)
    d.apply("process half_maintenance#2")
    assert d.players["A"].lp == 3500 and not d.is_over and d.chain == []
    assert d.where("half_maintenance") == ("A", Zone.spell_trap)


def test_a_phase_effect_is_activated_in_the_open_game_state_not_in_a_timing_window() -> None:
    """000 ※准备流程中每1次…; docs/effects.md "Phases": a phase effect — here a quick effect of B's
    monster 'during the Standby Phase' — is activated in the open game state of its phase, not in
    the timing windows there: not in response to A's trap, not as CHAIN1 in the window after it,
    only once priority is back in the open game state."""
    d = duel([card("heal_trap", "spell_trap", set_turn=1)], [card("standby_quick", "monster")],
             phase="standby_phase")
    d.apply("activate heal_trap")
    assert offered(d) == ["pass"]                      # B may respond: the phase effect is not a response
    d.apply("pass")
    d.apply("pass")
    assert d.state == "standby_phase.open.window.turn_player" and offered(d) == ["pass"]
    d.apply("pass")
    assert d.state == "standby_phase.open.window.opponent" and offered(d) == ["pass"]  # nor CHAIN1 here
    d.apply("pass")
    d.apply("pass")
    assert d.state == "standby_phase.open.opponent" and "activate standby_quick" in offered(d)


def test_pr17_p43_a_maintenance_cost_paid_to_exactly_0_loses() -> None:
    """PR17 p.43; Yugipedia "Maintenance cost": 100 LP paid with exactly 100 — A is at 0 and loses."""
    d = _standby([card("messenger_of_peace", "spell_trap", face_up=True)], lp=100)
    d.apply("process messenger_of_peace")
    assert d.is_over and d.winner == "B" and d.players["A"].lp == 0


# --- 1. activation legality ------------------------------------------------------------------------


def test_pr17_p133_pot_of_greed_needs_two_cards_in_the_deck() -> None:
    """PR17 pp.133–134 (an effect cannot be activated unless its resolution can be performed):
    「強欲な壺」 with one card in the deck is not offered; with two it is."""
    short = duel([card("pot_of_greed")], a_setup={"deck": 1})
    assert "activate pot_of_greed" not in offered(short)
    assert [r.code for r in activation_refusals(short.game, "A", "pot_of_greed")] == ["deck_cards"]
    enough = duel([card("pot_of_greed")], a_setup={"deck": 2})
    enough.apply("activate pot_of_greed")
    resolve(enough)
    assert enough.players["A"].deck == 0 and not enough.is_over


def test_pr17_p133_an_optional_draw_is_not_offered_with_an_empty_deck() -> None:
    """PR17 pp.133–134: 「サイバーデーモン」's optional draw needs a card in the deck; after the normal
    draw took the last card, it is not offered."""
    d = duel([card("cyber_demon", "monster")], phase="draw_phase", a_setup={"deck": 1})
    d.apply("pass")
    d.apply("pass")
    assert d.players["A"].deck == 0
    assert not any("cyber_demon" in a for a in offered(d))


def test_pr17_p133_a_target_must_fit_face_up() -> None:
    """PR17 pp.133–134 (a target must fit the effect): 「破壊輪」 chooses a face-up monster — a face-down
    one is no target, so with only that the card is not offered."""
    down = duel([card("ring_of_destruction", "spell_trap")],
                [card("sapphire_dragon", "monster", face_up=False, position="defence")])
    assert not any(a.startswith("activate ring_of_destruction") for a in offered(down))
    assert "no_target" in [r.code for r in activation_refusals(down.game, "A", "ring_of_destruction")]
    up = duel([card("ring_of_destruction", "spell_trap")], [card("sapphire_dragon", "monster")])
    assert "activate ring_of_destruction>sapphire_dragon" in offered(up)


def test_pr17_p133_dark_hole_needs_a_monster_to_destroy() -> None:
    """PR17 pp.133–134: 「ブラック・ホール」 (destroy all monsters) with no monster on the field."""
    empty = duel([card("dark_hole")])
    assert "activate dark_hole" not in offered(empty)
    assert [r.code for r in activation_refusals(empty.game, "A", "dark_hole")] == ["monster_on_field"]
    assert "activate dark_hole" in offered(duel([card("dark_hole")], [card("sapphire_dragon", "monster")]))


def test_pr17_p133_a_special_summon_from_the_deck_needs_a_card_that_fits() -> None:
    """PR17 pp.133–134: 「魂の綱」 special summons a Level 4 monster from the deck — none there, not
    offered; a Level 4 there, offered."""
    def offered_soul_rope(deck_card: str | None) -> bool:
        b = [card("soul_rope", "spell_trap")] + ([card(deck_card, "deck")] if deck_card else [])
        d = duel([card("rogue_mercenaries", "monster"), card("sapphire_dragon", "monster")], b)
        d.apply("activate rogue_mercenaries>sapphire_dragon")  # a monster is tributed: 『怪兽被送去墓地时』
        return "respond soul_rope" in offered(d)

    assert not offered_soul_rope(None)
    assert not offered_soul_rope("sacred_phoenix_of_nephthys")  # Level 8
    assert offered_soul_rope("reflect_bounder")


def test_pr17_p145_a_spell_needs_a_free_spell_and_trap_zone() -> None:
    """002 ●主要阶段1 ※魔法、陷阱最多只能放在5个魔法陷阱区域里: with five cards there, a spell from the hand
    is not offered; the reason is data."""
    full = [card("heal_trap", "spell_trap", uid=f"t{i}") for i in range(5)]
    d = duel([card("pot_of_greed"), *full])
    assert "activate pot_of_greed" not in offered(d)
    assert [r.code for r in activation_refusals(d.game, "A", "pot_of_greed")] == ["zone"]


# --- 5. the Field Zone -------------------------------------------------------------------------------


def test_yugipedia_field_zone_a_field_spell_takes_the_field_zone_not_a_spell_trap_zone() -> None:
    """Yugipedia "Field Zone": a Field Spell is activated in its own zone — even with all five Spell &
    Trap Zones full."""
    full = [card("heal_trap", "spell_trap", uid=f"t{i}") for i in range(5)]
    d = duel([card("mountain"), *full])
    d.apply("activate mountain")
    resolve(d)
    assert d.where("mountain") == ("A", Zone.field_zone)
    assert len(d.players["A"].spell_traps) == 5


def test_yugipedia_field_zone_a_new_field_spell_sends_the_old_one_to_the_gy_not_destroyed() -> None:
    """Yugipedia "Field Zone": activating 「森」 with 「山」 in the Field Zone sends 「山」 to the
    graveyard by the rules — it is not destroyed."""
    d = duel([card("forest"), card("mountain", "field_zone", face_up=True)])
    d.apply("activate forest")
    assert d.where("mountain") == ("A", Zone.graveyard)
    assert d.game.find("mountain")[2].destroyed_turn is None  # type: ignore[index]
    resolve(d)
    assert d.where("forest") == ("A", Zone.field_zone)


def test_yugipedia_field_zone_each_player_has_their_own() -> None:
    """Yugipedia "Field Zone" (Master Rule 3 on: each player may control a Field Spell): A's 「山」
    stays when A activates nothing there and B holds 「森」 in B's own Field Zone."""
    d = duel([card("mountain")], [card("forest", "field_zone", face_up=True)])
    d.apply("activate mountain")
    resolve(d)
    assert d.where("mountain") == ("A", Zone.field_zone)
    assert d.where("forest") == ("B", Zone.field_zone)


def test_yugipedia_field_zone_a_set_field_spell_is_set_there_and_can_be_targeted() -> None:
    """Yugipedia "Field Zone": a Field Spell is Set in the Field Zone; 「サイクロン」 can destroy it."""
    d = duel([card("mountain")], [card("cyclone", "spell_trap")])
    d.apply("set_spell_trap mountain")
    assert d.where("mountain") == ("A", Zone.field_zone) and not d.game.find("mountain")[2].face_up  # type: ignore[index]
    while "activate cyclone>mountain" not in offered(d):
        d.apply("pass")
    assert d.priority == "B"
    d.apply("activate cyclone>mountain")
    resolve(d)
    assert d.where("mountain") == ("A", Zone.graveyard)
    assert d.game.find("mountain")[2].destroyed_turn == 3  # type: ignore[index]


def test_a_field_spell_placed_outside_the_field_zone_is_refused() -> None:
    """A setup putting a Field Spell in a Spell & Trap Zone is refused, naming the placement."""
    with pytest.raises(ValueError, match="field_zone"):
        duel([card("mountain", "spell_trap")])


def test_the_field_zone_is_saved_and_loaded() -> None:
    """The Field Zone is part of the game document (``ygo-fsm schema state``)."""
    d = duel([card("mountain", "field_zone", face_up=True)])
    loaded = Duel.from_json(d.to_json(), library=CARDS)
    assert loaded == d and loaded.where("mountain") == ("A", Zone.field_zone)


# --- 2. negating an activation vs negating an effect ----------------------------------------------


def test_pr17_p153_a_spell_trap_card_whose_activation_is_negated_goes_to_the_gy_not_destroyed() -> None:
    """PR17 p.153; Yugipedia "Negate" (a Spell/Trap whose activation is negated is sent to the GY):
    a Continuous Trap's own activation negated — it leaves the field, sent, not destroyed."""
    d = duel([card("lasting_burn", "spell_trap")], [card("plain_negator", "spell_trap")])
    d.apply("activate lasting_burn")
    d.apply("respond plain_negator")
    resolve(d)
    assert d.where("lasting_burn") == ("A", Zone.graveyard)
    assert d.game.find("lasting_burn")[2].destroyed_turn is None  # type: ignore[index]
    assert d.players["B"].lp == 8000
    assert d.resolutions[0][2:] == ("plain_negator", False) and d.resolutions[1][2:] == ("lasting_burn", True)
    assert {link.negation for record in d.trace for link in record.chain if link.negated} == {"activation"}


def test_pr17_p153_a_face_up_card_whose_effect_activation_is_negated_stays_on_the_field() -> None:
    """PR17 p.153; Yugipedia "Negate" (if the activation of a card effect is negated, that card
    remains where it is): the face-up Continuous Spell's effect is negated; the card stays."""
    d = duel([card("burning_lantern", "spell_trap", face_up=True)], [card("plain_negator", "spell_trap")])
    d.apply("activate burning_lantern#2")
    d.apply("respond plain_negator")
    resolve(d)
    assert d.where("burning_lantern") == ("A", Zone.spell_trap)
    assert d.players["B"].lp == 8000


def test_pr17_p153_a_negated_activation_still_uses_once_per_turn() -> None:
    """PR17 p.153 (a negated activation still used its once-per-turn activation)."""
    d = duel([card("burning_lantern", "spell_trap", face_up=True)], [card("plain_negator", "spell_trap")])
    d.apply("activate burning_lantern#2")
    d.apply("respond plain_negator")
    resolve(d)
    while d.priority != "A" or not d.in_state("main_phase_1.open.turn_player"):
        d.apply("pass")
    assert "activate burning_lantern#2" not in offered(d)


def test_pr17_p153_an_effect_negated_resolves_nothing_but_its_activation_stands() -> None:
    """PR17 p.153 (negating an effect is not negating its activation): the Normal Spell's effect is
    negated — nothing resolves, its cost stays paid, and as an activated card it goes to the GY;
    the trace says the effect was negated."""
    d = duel([card("costly_spell")], [card("effect_negator", "spell_trap")])
    d.apply("activate costly_spell")
    d.apply("respond effect_negator")
    resolve(d)
    assert any("「costly_spell」的效果被无效，不处理" in line for record in d.trace for line in record.detail)
    assert [(link.card, link.negation) for record in d.trace for link in record.chain
            if link.negated] == [("costly_spell", "effect")]  # the trace of CHAIN2's resolution
    assert d.players["B"].lp == 8000 and d.players["A"].lp == 7000
    assert d.where("costly_spell") == ("A", Zone.graveyard)


def test_pr17_p153_a_continuous_card_whose_effect_is_negated_stays_activated_on_the_field() -> None:
    """PR17 p.153: a Continuous Trap whose effect (not activation) is negated stays on the field."""
    d = duel([card("lasting_burn", "spell_trap")], [card("effect_negator", "spell_trap")])
    d.apply("activate lasting_burn")
    d.apply("respond effect_negator")
    resolve(d)
    assert d.where("lasting_burn") == ("A", Zone.spell_trap)
    assert d.players["B"].lp == 8000


# --- 6. Spell/Trap effects that need their card on the field ----------------------------------------


def test_a_continuous_spell_effect_does_not_resolve_once_its_card_left_the_field() -> None:
    """Yugipedia "Continuous Trap Card" (a card that stays on the field must remain there to resolve):
    「サイクロン」 destroys the Continuous Spell in response to its effect; the effect does nothing."""
    d = duel([card("burning_lantern", "spell_trap", face_up=True)], [card("cyclone", "spell_trap")])
    d.apply("activate burning_lantern#2")
    d.apply("respond cyclone>burning_lantern")
    resolve(d)
    assert d.where("burning_lantern") == ("A", Zone.graveyard)
    assert d.players["B"].lp == 8000


def test_a_normal_trap_still_resolves_after_its_card_was_destroyed() -> None:
    """The contrast (Yugipedia "Negate": destroying a card does not negate its activation): a
    Normal Trap destroyed in response still resolves."""
    d = duel([card("burn_trap", "spell_trap")], [card("cyclone", "spell_trap")])
    d.apply("activate burn_trap")
    d.apply("respond cyclone>burn_trap")
    resolve(d)
    assert d.players["B"].lp == 0 and d.winner == "A"


def test_a_refused_activation_says_what_it_lacks() -> None:
    """The refusal names what the activation lacks, with its source (PR17 pp.133–134), and the
    duel is left as it was."""
    d = duel([card("pot_of_greed")], a_setup={"deck": 1})
    before = d.to_json()
    with pytest.raises(IllegalActionError, match=r"pot_of_greed: 卡组的卡不足.*PR17 pp\.133"):
        d.apply("activate pot_of_greed")
    assert d.to_json() == before
    assert "pot_of_greed: 卡组的卡不足" in d.explain_illegal("activate pot_of_greed")


def test_a_refused_tribute_self_cost_says_the_card_is_not_in_a_monster_zone() -> None:
    """PR17 pp.133–134, p.145 (a cost that cannot be paid in full cannot be paid): 「ならず者傭兵部隊」
    tributes itself as its cost, which it cannot do from the hand — the refusal says so, and the
    duel is left as it was."""
    d = duel([card("rogue_mercenaries"), card("sage_chiron", "monster")])
    before = d.to_json()
    with pytest.raises(IllegalActionError, match=r"rogue_mercenaries: 这张卡不在怪兽区域，不能做祭品.*PR17"):
        d.apply("activate rogue_mercenaries>sage_chiron")
    assert d.to_json() == before
    assert [r.code for r in activation_refusals(d.game, "A", "rogue_mercenaries")] == ["cost_tribute_self"]


def test_a_resolved_normal_trap_stays_on_the_field_until_the_whole_chain_has_resolved() -> None:
    """Yugipedia "Negate"; "Extended Game Mechanics" ch. 6 (a card not removed by another link stays
    on the field until the entire chain has resolved): CHAIN1 「サイクロン」 targets B's Set trap, B
    activates it as CHAIN2; it resolves first and is still on the field when 「サイクロン」 resolves —
    so it is destroyed, not "gone"."""
    d = duel([card("cyclone")], [card("heal_trap", "spell_trap")])
    d.apply("activate cyclone>heal_trap")
    d.apply("respond heal_trap")
    resolve(d)
    assert d.players["B"].lp == 13000
    assert d.where("heal_trap") == ("B", Zone.graveyard)
    assert d.game.find("heal_trap")[2].destroyed_turn == 3  # type: ignore[index]
    assert d.where("cyclone") == ("A", Zone.graveyard)


def test_a_continuous_trap_trigger_does_not_resolve_once_its_card_left_the_field() -> None:
    """Yugipedia "Continuous Trap Card" (Continuous Spell/Trap triggers included): B's face-up
    Continuous Trap triggers on A's Normal Summon; A destroys it with 「サイクロン」 in response — the
    trigger does nothing."""
    d = duel([card("sapphire_dragon"), card("cyclone")], [card("summon_watcher", "spell_trap", face_up=True)])
    d.apply("normal_summon sapphire_dragon")
    while not any(a.startswith("activate summon_watcher") for a in offered(d)):
        d.apply("pass")
    d.apply("activate summon_watcher#2")
    d.apply("respond cyclone>summon_watcher")
    resolve(d)
    assert d.where("summon_watcher") == ("B", Zone.graveyard)
    assert d.players["A"].lp == 8000


def test_pr17_p133_a_summon_after_a_tribute_in_the_same_resolution_needs_no_free_zone_first() -> None:
    """PR17 pp.133–134: 「ディメンション・マジック」 tributes a monster, then special summons a Spellcaster
    from the hand — with all five Monster Zones full it can still be activated; without a
    Spellcaster in the hand it cannot."""
    five = {"monsters": [{"name": f"M{i}", "atk": 100} for i in range(5)]}
    with_caster = duel([card("dimension_magic"), card("nephthys_guide")], a_setup=five)
    assert any(a.startswith("activate dimension_magic") for a in offered(with_caster))
    without = duel([card("dimension_magic")], a_setup=five)
    assert [r.code for r in activation_refusals(without.game, "A", "dimension_magic")] == ["card_in_hand"]


def test_pr17_once_per_turn_by_card_name_counts_every_copy() -> None:
    """PR17 (once per turn by card name: 「○○」の効果は1ターンに1度しか使用できない): once one copy used
    the effect, the other copy cannot this turn."""
    d = duel([card("hard_once_lantern", "spell_trap", face_up=True),
              card("hard_once_lantern", "spell_trap", face_up=True)])
    assert {"activate hard_once_lantern#2", "activate hard_once_lantern_2#2"} <= set(offered(d))
    d.apply("activate hard_once_lantern#2")
    resolve(d)
    while not d.in_state("main_phase_1.open.turn_player"):
        d.apply("pass")
    assert not any(a.startswith("activate hard_once_lantern") for a in offered(d))
