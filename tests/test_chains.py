"""Chains, spell speed, priority and timing windows, checked against the seeds' rule text.

Every test builds a small card library of its own (``CardSpec.model_validate``) with exactly
the properties the clause it checks is about, so the tests do not depend on the shipped
library's contents. Expected values come from the rule text cited in each docstring.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest
from helpers import card_spec, library

from ygo_fsm import Action, Duel, IllegalActionError, Setup
from ygo_fsm.cards import SPELL_SPEED, CardSpec, EffectKind, EffectSpec
from ygo_fsm.game import Zone, card_id_uids

# --- building duels -------------------------------------------------------------------------


card = card_spec


def at(card_id: str, zone: str = "hand", **extra: Any) -> dict[str, Any]:
    """A card placement. Spells and traps placed in the spell/trap zone are Set."""
    return {"card": card_id, "zone": zone, **extra}


def duel_of(lib: dict[str, CardSpec], *, a: Sequence[dict[str, Any]] = (), b: Sequence[dict[str, Any]] = (),
            phase: str = "main_phase_1", turn: int = 3, turn_player: str = "A",
            a_setup: dict[str, Any] | None = None, b_setup: dict[str, Any] | None = None) -> Duel:
    players = {"A": {"cards": list(a), **(a_setup or {})}, "B": {"cards": list(b), **(b_setup or {})}}
    setup = Setup.model_validate({"profile": "ocg2008", "turn": turn, "turn_player": turn_player,
                                  "phase": phase, "players": players})
    return Duel(card_id_uids(setup), library=lib)


def offered(duel: Duel, name: str | None = None) -> list[str]:
    """The legal actions as text (``activate x``), optionally only those named ``name``."""
    return [str(action) for action in duel.legal_actions(judge=True) if name is None or action.name == name]


def options(duel: Duel, name: str) -> set[str]:
    """The choices offered for the action ``name`` (card uids / keys)."""
    return {action.choice for action in duel.legal_actions(judge=True) if action.name == name and action.choice}


def pass_until(duel: Duel, state: str, *, limit: int = 30) -> None:
    """Pass (whoever holds priority) until ``duel.state == state``."""
    for _ in range(limit):
        if duel.state == state:
            return
        duel.apply("pass")
    assert duel.state == state, f"{state} not reached; now in {duel.state}"


def chain_uids(duel: Duel) -> list[str]:
    """The chain, CHAIN1 first, as card uids."""
    return [link.uid for link in duel.chain]


def resolved(duel: Duel) -> list[tuple[int, str, bool]]:
    """Resolved links in resolution order: (chain number, uid, negated)."""
    return [(number, uid, negated) for _, number, uid, negated in duel.resolutions]


VANILLA = card("vanilla", "monster")
TARGET = card("target", "monster")


# --- 1. spell speed: who may respond to what ---------------------------------------------------

# The seed's definition (000, last lines): 2速以上的卡 = 怪兽诱发即时效果、速攻魔法、通常陷阱、永续陷阱、
# 反击陷阱; counter traps are spell speed 3; everything else that is activated is spell speed 1.
SEED_SPELL_SPEED = {
    EffectKind.ignition: 1,
    EffectKind.trigger: 1,
    EffectKind.flip: 1,
    EffectKind.normal_spell: 1,
    EffectKind.continuous_spell: 1,
    EffectKind.field_spell: 1,
    EffectKind.equip_spell: 1,
    EffectKind.quick: 2,
    EffectKind.quick_play_spell: 2,
    EffectKind.normal_trap: 2,
    EffectKind.continuous_trap: 2,
    EffectKind.counter_trap: 3,
}
NOT_ACTIVATED = {EffectKind.continuous, EffectKind.processing}
"""永续效果 applies and 效果的处理（不进入连锁） is processed: neither is activated, neither has a spell speed."""

# Responders of player B, one per kind, each with no specific timing (so only spell speed
# decides), placed where they can be activated in A's turn 3 (traps and spells Set on turn 0).
RESPONDERS: dict[str, tuple[CardSpec, dict[str, Any]]] = {
    "quick": (card("r_quick", "monster", {"kind": "quick"}), at("r_quick", "monster")),
    "quick_play_spell": (card("r_qp", "spell", {"kind": "quick_play_spell", "location": "set"}),
                         at("r_qp", "spell_trap", set_turn=0)),
    "normal_trap": (card("r_trap", "trap", {"kind": "normal_trap", "location": "set"}),
                    at("r_trap", "spell_trap", set_turn=0)),
    "continuous_trap": (card("r_ctrap", "trap", {"kind": "continuous_trap", "location": "set"}),
                        at("r_ctrap", "spell_trap", set_turn=0)),
    "counter_trap": (card("r_counter", "trap", {"kind": "counter_trap", "location": "set"}),
                     at("r_counter", "spell_trap", set_turn=0)),
    "ignition": (card("r_ignition", "monster", {"kind": "ignition"}), at("r_ignition", "monster")),
    "trigger": (card("r_trigger", "monster", {"kind": "trigger", "events": ["spell_trap_activated"]}),
                at("r_trigger", "monster")),
    "normal_spell": (card("r_spell", "spell", {"kind": "normal_spell", "location": "hand"}), at("r_spell")),
}
RESPONDER_SPEED = {"quick": 2, "quick_play_spell": 2, "normal_trap": 2, "continuous_trap": 2, "counter_trap": 3,
                   "ignition": 1, "trigger": 1, "normal_spell": 1}
"""From the seed's definition above, written out (not read from the engine)."""

# A's CHAIN1 of each spell speed, activated in A's Main Phase 1 open game state.
STARTERS: dict[int, tuple[CardSpec, dict[str, Any]]] = {
    1: (card("s_spell", "spell", {"kind": "normal_spell", "location": "hand"}), at("s_spell")),
    2: (card("s_qp", "spell", {"kind": "quick_play_spell", "location": "hand"}), at("s_qp")),
    3: (card("s_counter", "trap", {"kind": "counter_trap", "location": "set"}), at("s_counter", "spell_trap",
                                                                                 set_turn=0)),
}


def _responding_duel(link_speed: int) -> tuple[Duel, dict[str, str]]:
    starter, placement = STARTERS[link_speed]
    lib = library(starter, *(spec for spec, _ in RESPONDERS.values()))
    duel = duel_of(lib, a=[placement], b=[p for _, p in RESPONDERS.values()])
    duel.apply(f"activate {starter.id}")
    return duel, {kind: spec.id for kind, (spec, _) in RESPONDERS.items()}


@pytest.mark.parametrize("link_speed", [1, 2, 3])
@pytest.mark.parametrize("kind", list(RESPONDERS))
def test_which_kinds_may_respond_to_a_link_of_each_spell_speed(link_speed: int, kind: str) -> None:
    """000 2速以上的卡 = 怪兽诱发即时效果、速攻魔法、通常陷阱、永续陷阱、反击陷阱: only those chain; a response
    must not be slower than the newest link, so a counter trap (spell speed 3) is answered only by
    a counter trap; ignition effects, trigger effects and normal spells (spell speed 1) never chain."""
    duel, uids = _responding_duel(link_speed)
    assert duel.state == "main_phase_1.open.chain.building"
    assert duel.priority == "B"
    may_respond = RESPONDER_SPEED[kind] >= 2 and RESPONDER_SPEED[kind] >= link_speed
    assert (uids[kind] in options(duel, "respond")) is may_respond, offered(duel)


def test_responses_to_a_spell_speed_3_link_are_counter_traps_only() -> None:
    """000 2速以上的卡; a counter trap (spell speed 3) can only be answered by another counter trap."""
    duel, uids = _responding_duel(3)
    assert options(duel, "respond") == {uids["counter_trap"]}


# --- 2. spell speed by kind --------------------------------------------------------------------


@pytest.mark.parametrize("kind", list(EffectKind), ids=[k.value for k in EffectKind])
def test_spell_speed_of_every_effect_kind_follows_the_seed(kind: EffectKind) -> None:
    """000 (last lines) 2速以上的卡 = 怪兽诱发即时效果、速攻魔法、通常陷阱、永续陷阱、反击陷阱; counter traps
    are spell speed 3; other activated effects are spell speed 1; continuous effects and processing
    (不进入连锁) are not activated and have no spell speed."""
    assert kind in SEED_SPELL_SPEED or kind in NOT_ACTIVATED, f"{kind} is not classified by the seed table"
    effect = EffectSpec(kind=kind)
    if kind in NOT_ACTIVATED:
        assert kind not in SPELL_SPEED
        assert effect.spell_speed == 0
        assert not effect.starts_chain_link
    else:
        assert SPELL_SPEED[kind] == SEED_SPELL_SPEED[kind]
        assert effect.spell_speed == SEED_SPELL_SPEED[kind]
        assert effect.starts_chain_link


# --- 3. activation conditions --------------------------------------------------------------------

SET_TRAP = card("set_trap", "trap", {"kind": "normal_trap", "location": "set"})
SET_QP = card("set_qp", "spell", {"kind": "quick_play_spell", "location": "set"})
HAND_QP = card("hand_qp", "spell", {"kind": "quick_play_spell", "location": "hand"})
HAND_SPELL = card("hand_spell", "spell", {"kind": "normal_spell", "location": "hand"})
IGNITION = card("ignition_monster", "monster", {"kind": "ignition"})


@pytest.mark.parametrize("spec", [SET_TRAP, SET_QP], ids=["trap", "quick_play_spell"])
def test_a_card_set_this_turn_cannot_be_activated(spec: CardSpec) -> None:
    """002 ●主要阶段1 ◇使用场上盖放的陷阱卡（盖放的陷阱没有经过一回合的话不可以发动）; ◇使用场上盖放的魔法卡
    （盖放的速攻魔法没有经过一回合的话不可以发动）. The copy Set on an earlier turn can be."""
    lib = library(spec)
    duel = duel_of(lib, a=[at(spec.id, "spell_trap", set_turn=3, uid="this_turn"),
                          at(spec.id, "spell_trap", set_turn=2, uid="last_turn")])
    assert duel.state == "main_phase_1.open.turn_player"
    assert options(duel, "activate") == {"last_turn"}


def test_a_card_set_this_turn_cannot_respond_either() -> None:
    """002 ●主要阶段1 盖放的陷阱没有经过一回合的话不可以发动 — also as a chain response (here the opponent's
    trap Set during this turn)."""
    lib = library(HAND_QP, SET_TRAP)
    duel = duel_of(lib, a=[at("hand_qp")], b=[at("set_trap", "spell_trap", set_turn=3, uid="fresh"),
                                            at("set_trap", "spell_trap", set_turn=1, uid="old")])
    duel.apply("activate hand_qp")
    assert duel.priority == "B"
    assert options(duel, "respond") == {"old"}


def test_quick_play_spell_from_the_hand_only_in_its_controllers_turn() -> None:
    """002 ●主要阶段1 ◇使用场上盖放的魔法卡 / 速攻魔法: a quick-play spell is activated from the hand only in
    its controller's own turn; in the opponent's turn only once Set (and not the turn it was Set)."""
    lib = library(HAND_QP, SET_QP)
    duel = duel_of(lib, a=[at("hand_qp", uid="a_qp")], b=[at("hand_qp", uid="b_qp"),
                                                        at("set_qp", "spell_trap", set_turn=1, uid="b_set")])
    assert "a_qp" in options(duel, "activate")  # A's own turn
    duel.apply("pass")
    assert duel.state == "main_phase_1.open.opponent"
    assert options(duel, "activate") == {"b_set"}  # B's hand copy: not in B's turn
    duel.apply("activate b_set")
    duel.apply("pass")  # A does not respond
    assert duel.state == "main_phase_1.open.chain.confirming" and duel.priority == "B"
    assert "b_qp" not in options(duel, "respond")


def test_spell_speed_1_only_by_the_turn_player_in_the_main_phase_open_state() -> None:
    """000 ●メインフェイズ１【２】◇回合玩家可以进行的行为·怪兽效果的发动·魔法陷阱的发动 — the turn player's
    spell speed 1 (normal spell, ignition effect) in the open game state; the opponent who receives
    priority may only 发动2速以上的卡."""
    lib = library(HAND_SPELL, IGNITION)
    duel = duel_of(lib, a=[at("hand_spell", uid="a_spell"), at("ignition_monster", "monster", uid="a_ign")],
                   b=[at("hand_spell", uid="b_spell"), at("ignition_monster", "monster", uid="b_ign")])
    assert options(duel, "activate") == {"a_spell", "a_ign"}
    duel.apply("pass")
    assert duel.state == "main_phase_1.open.opponent"
    assert options(duel, "activate") == set()


def test_spell_speed_1_not_as_a_chain_response_by_its_own_controller() -> None:
    """000 2速以上的卡: a response is spell speed 2+ — the turn player's own normal spell or ignition
    effect cannot be added to a chain (here A's own CHAIN1, B passed back)."""
    lib = library(HAND_SPELL, IGNITION, HAND_QP)
    duel = duel_of(lib, a=[at("hand_spell"), at("ignition_monster", "monster"), at("hand_qp")])
    duel.apply("activate hand_qp")
    duel.apply("pass")  # B passes; A may add a link
    assert duel.state == "main_phase_1.open.chain.confirming" and duel.priority == "A"
    assert options(duel, "respond") == set()


@pytest.mark.parametrize("phase, open_state", [
    ("standby_phase", "standby_phase.open.turn_player"),
    ("battle_phase", "battle_phase.start_step.turn_player"),
    ("end_phase", "end_phase.open.turn_player"),
])
def test_outside_the_main_phase_only_spell_speed_2_or_more(phase: str, open_state: str) -> None:
    """000 ●バトルフェイズ【１】◇持有优先权的回合玩家可以进行的行为·发动2速以上的卡 (likewise ●スタンバイフェイズ,
    ●エンドフェイズ): outside the Main Phase the turn player's normal spell and ignition effect are not
    offered, a quick-play spell is."""
    lib = library(HAND_SPELL, IGNITION, HAND_QP)
    duel = duel_of(lib, a=[at("hand_spell"), at("ignition_monster", "monster"), at("hand_qp")], phase=phase)
    assert duel.state == open_state
    assert options(duel, "activate") == {"hand_qp"}


def test_spell_speed_1_in_main_phase_2_too() -> None:
    """000 ●メインフェイズ２ 参考●メインフェイズ１: Main Phase 2 offers the same spell speed 1 activations."""
    lib = library(HAND_SPELL, IGNITION)
    duel = duel_of(lib, a=[at("hand_spell"), at("ignition_monster", "monster")], phase="main_phase_2")
    assert duel.state == "main_phase_2.open.turn_player"
    assert options(duel, "activate") == {"hand_spell", "ignition_monster"}


def test_no_normal_spell_as_chain1_in_a_timing_window() -> None:
    """000 ※…在卡／效果的发动时点内，不能进行的其他行为·通常魔法…的发动: in the window after a chain the turn
    player's normal spell is not offered (the quick-play spell, spell speed 2, is)."""
    lib = library(HAND_SPELL, HAND_QP, card("other_qp", "spell", {"kind": "quick_play_spell", "location": "hand"}))
    duel = duel_of(lib, a=[at("hand_spell"), at("hand_qp"), at("other_qp")])
    duel.apply("activate hand_qp")
    duel.apply("pass")
    duel.apply("pass")
    assert duel.state == "main_phase_1.open.window.turn_player"
    assert options(duel, "activate") == {"other_qp"}


# --- 4. the chain ------------------------------------------------------------------------------

FAST_A = [card(f"qa{i}", "spell", {"kind": "quick_play_spell", "location": "hand"}) for i in (1, 2)]
FAST_B = [card(f"tb{i}", "trap", {"kind": "normal_trap", "location": "set"}) for i in (1, 2)]


def _fast_duel(phase: str = "main_phase_1") -> Duel:
    return duel_of(library(*FAST_A, *FAST_B), a=[at(c.id) for c in FAST_A],
                   b=[at(c.id, "spell_trap", set_turn=0) for c in FAST_B], phase=phase)


def test_each_new_link_hands_priority_to_the_other_player() -> None:
    """000 ※…发动时点的出现条件 例 CHAIN1 回合玩家 / CHAIN2 对方 / CHAIN3 回合玩家: after each link the other
    player may respond."""
    duel = _fast_duel()
    duel.apply("activate qa1")
    assert (duel.state, duel.priority, chain_uids(duel)) == ("main_phase_1.open.chain.building", "B", ["qa1"])
    duel.apply("respond tb1")
    assert (duel.state, duel.priority, chain_uids(duel)) == ("main_phase_1.open.chain.building", "A",
                                                             ["qa1", "tb1"])
    duel.apply("respond qa2")
    assert (duel.priority, chain_uids(duel)) == ("B", ["qa1", "tb1", "qa2"])
    assert [link.number for link in duel.chain] == [1, 2, 3]
    assert [link.controller for link in duel.chain] == ["A", "B", "A"]


def test_one_pass_does_not_resolve_the_chain() -> None:
    """000 ※…例 逆算 comes only after both players pass in succession (004 ●…双方玩家互相放弃…): after the
    responder passes, the last activator may still add a link, and the chain goes on."""
    duel = _fast_duel()
    duel.apply("activate qa1")
    duel.apply("pass")  # B
    assert duel.priority == "A" and chain_uids(duel) == ["qa1"] and resolved(duel) == []
    duel.apply("respond qa2")  # A adds CHAIN2
    assert duel.priority == "B" and chain_uids(duel) == ["qa1", "qa2"]
    duel.apply("respond tb1")  # B answers after all
    assert chain_uids(duel) == ["qa1", "qa2", "tb1"] and resolved(duel) == []


def test_both_passing_resolves_last_link_first() -> None:
    """000 ※…发动时点的出现条件 例 逆算 CHAIN3 … CHAIN2 … CHAIN1: both players pass in succession and the chain
    resolves from the newest link."""
    duel = _fast_duel()
    duel.apply("activate qa1")
    duel.apply("respond tb1")
    duel.apply("respond qa2")
    duel.apply("respond tb2")
    duel.apply("pass")  # A
    assert resolved(duel) == []
    duel.apply("pass")  # B
    assert duel.chain == []
    assert resolved(duel) == [(4, "tb2", False), (3, "qa2", False), (2, "tb1", False), (1, "qa1", False)]


# 000 final 例: 「ブラック・ホール」 / 「我が身を盾に」 / 「王家の呪い」, written as custom cards.
BLACK_HOLE = card("black_hole", "spell", {"kind": "normal_spell", "location": "hand",
                                          "resolution": [{"op": "destroy", "what": "all_monsters"}]})
SHIELD = card("shield", "trap", {"kind": "normal_trap", "location": "set", "events": ["monster_destroying_activated"],
                                 "cost": {"pay_lp": 1500}, "resolution": [{"op": "negate_activation",
                                                                           "destroy": True}]})
ROYAL_CURSE = card("curse", "trap", {"kind": "counter_trap", "location": "set", "events": ["spell_trap_activated"],
                                     "resolution": [{"op": "negate_activation", "destroy": True}]})
VANDALGYON = card("vandal", "monster", {
    "kind": "trigger", "location": "hand", "events": ["activation_negated_by_counter_trap"],
    "resolution": [{"op": "special_summon", "what": "self", "from": "hand"}]}, level=8)


def _final_example(extra_a: Sequence[dict[str, Any]] = (), extra_b: Sequence[dict[str, Any]] = ()) -> Duel:
    lib = library(BLACK_HOLE, SHIELD, ROYAL_CURSE, VANDALGYON, VANILLA, TARGET)
    return duel_of(lib, a=[at("black_hole"), at("curse", "spell_trap", set_turn=0), at("vanilla", "monster"),
                           *extra_a],
                   b=[at("shield", "spell_trap", set_turn=0), at("target", "monster"), *extra_b])


def test_a_negated_link_is_skipped() -> None:
    """000 ※…发动时点的出现条件 例: CHAIN1「ブラック・ホール」 CHAIN2「我が身を盾に」（支付1500） CHAIN3「王家の呪い」
    逆算 CHAIN3 … 「我が身を盾に」发动和效果无效并且破坏 / CHAIN2 被无效不处理 / CHAIN1 场上存在的全部怪兽破坏."""
    duel = _final_example()
    duel.apply("activate black_hole")
    duel.apply("respond shield")
    assert duel.players["B"].lp == 8000 - 1500  # the cost is paid on activation
    duel.apply("respond curse")
    assert chain_uids(duel) == ["black_hole", "shield", "curse"]
    duel.apply("pass")
    duel.apply("pass")
    assert resolved(duel) == [(3, "curse", False), (2, "shield", True), (1, "black_hole", False)]
    # CHAIN2 did not negate CHAIN1: 「ブラック・ホール」 destroyed every monster
    assert duel.players["A"].monsters == [] and duel.players["B"].monsters == []
    assert duel.where("vanilla") == ("A", Zone.graveyard) and duel.where("target") == ("B", Zone.graveyard)
    # 「我が身を盾に」 was destroyed by 「王家の呪い」; the cost stays paid
    assert duel.where("shield") == ("B", Zone.graveyard)
    assert duel.players["B"].lp == 8000 - 1500


@pytest.mark.parametrize("phase, open_prefix", [
    ("main_phase_1", "main_phase_1.open"),
    ("standby_phase", "standby_phase.open"),
    ("battle_phase", "battle_phase.start_step"),
    ("end_phase", "end_phase.open"),
])
def test_priority_returns_to_the_turn_player_after_the_chain_and_its_window(phase: str, open_prefix: str) -> None:
    """000 every ◇ block: 因为回合玩家的放弃优先权…而得到优先权的对方玩家·发动2速以上的卡（…连锁处理结束后
    优先权归还给回合玩家(回合玩家能再次结束宣言)）; 000 ●スタンバイフェイズ 例1（处理之后优先权归还给回合玩家）."""
    duel = _fast_duel(phase)
    assert duel.state == f"{open_prefix}.turn_player"
    duel.apply("pass")  # A declares the end
    assert duel.state == f"{open_prefix}.opponent" and duel.priority == "B"
    duel.apply("activate tb1")
    duel.apply("pass")
    duel.apply("pass")
    assert duel.chain == [] and resolved(duel) == [(1, "tb1", False)]
    # the window after the chain: the turn player first, then the opponent; nobody starts a CHAIN1
    assert duel.state == f"{open_prefix}.window.turn_player" and duel.priority == "A"
    duel.apply("pass")
    assert duel.state == f"{open_prefix}.window.opponent" and duel.priority == "B"
    duel.apply("pass")
    assert duel.state == f"{open_prefix}.turn_player"
    assert duel.priority == "A"
    assert duel.window is None


# --- 5. simultaneous triggers (SEGOC) ----------------------------------------------------------


def _trigger(card_id: str, *, mandatory: bool) -> CardSpec:
    return card(card_id, "monster", {"kind": "trigger", "location": "graveyard", "mandatory": mandatory,
                                     "events": ["special_summoned"]})


SUMMONER = card("summoner", "spell", {"kind": "quick_play_spell", "location": "hand",
                                      "resolution": [{"op": "special_summon", "what": "vanilla", "from": "hand"}]})
SEGOC_CARDS = [_trigger("a_m1", mandatory=True), _trigger("a_m2", mandatory=True), _trigger("b_m", mandatory=True),
               _trigger("a_o", mandatory=False), _trigger("b_o1", mandatory=False), _trigger("b_o2", mandatory=False)]
B_QUICK = card("b_quick", "trap", {"kind": "normal_trap", "location": "set"})
A_QUICK = card("a_quick", "spell", {"kind": "quick_play_spell", "location": "hand"})


def _segoc_duel(triggers: list[str], *, phase: str = "main_phase_1") -> Duel:
    """A special summons 「vanilla」 with a quick-play spell; when the chain has resolved, the
    window after it meets the triggers named (A's start with ``a_``, B's with ``b_``)."""
    lib = library(VANILLA, SUMMONER, IGNITION, B_QUICK, A_QUICK, *SEGOC_CARDS)
    duel = duel_of(lib, phase=phase,
                   a=[at("vanilla"), at("summoner"), at("ignition_monster", "monster"), at("a_quick"),
                      *(at(t, "graveyard") for t in triggers if t.startswith("a_"))],
                   b=[at("b_quick", "spell_trap", set_turn=0),
                      *(at(t, "graveyard") for t in triggers if t.startswith("b_"))])
    duel.apply("activate summoner")
    duel.apply("pass")
    duel.apply("pass")
    assert resolved(duel) == [(1, "summoner", False)] and duel.where("vanilla") == ("A", Zone.monster)
    return duel


def _place(duel: Duel, order: list[str]) -> list[tuple[str | None, str]]:
    """Place triggers in ``order`` ('-' declines the current tier); record who held priority."""
    seen = []
    for item in order:
        assert duel.state.endswith(".window.build"), duel.state
        seen.append((duel.priority, item))
        duel.apply("decline" if item == "-" else f"activate {item}")
    return seen


@pytest.mark.parametrize("a_first, b_first", [("a_m1", "b_o1"), ("a_m2", "b_o2")])
def test_simultaneous_triggers_go_on_the_chain_in_the_priority_list_order(a_first: str, b_first: str) -> None:
    """000 ※…卡／效果的发动时点内，卡／效果发动的优先顺序（组成一组连锁）: １ 回合玩家的必须发动的诱发效果
    ２ 非回合玩家的必须发动的诱发效果 ３ 回合玩家的任意发动的诱发效果 ４ 非回合玩家的任意发动的诱发效果 — and
    each player orders their own effects within a tier (either order)."""
    duel = _segoc_duel(["a_m1", "a_m2", "b_m", "a_o", "b_o1", "b_o2"])
    a_second = "a_m2" if a_first == "a_m1" else "a_m1"
    b_second = "b_o2" if b_first == "b_o1" else "b_o1"
    # tier 1 (A's mandatory): A holds priority and is offered both, with no way to decline
    assert duel.state == "main_phase_1.open.window.build" and duel.priority == "A"
    assert options(duel, "activate") == {"a_m1", "a_m2"} and "decline" not in offered(duel)
    seen = _place(duel, [a_first, a_second])
    # tier 2 (B's mandatory)
    assert duel.priority == "B" and options(duel, "activate") == {"b_m"} and "decline" not in offered(duel)
    seen += _place(duel, ["b_m"])
    # tier 3 (A's optional), tier 4 (B's optional): may be declined
    assert duel.priority == "A" and options(duel, "activate") == {"a_o"} and "decline" in offered(duel)
    seen += _place(duel, ["a_o"])
    assert duel.priority == "B" and options(duel, "activate") == {"b_o1", "b_o2"} and "decline" in offered(duel)
    seen += _place(duel, [b_first, b_second])
    assert [who for who, _ in seen] == ["A", "A", "B", "A", "B", "B"]
    assert chain_uids(duel) == [a_first, a_second, "b_m", "a_o", b_first, b_second]
    assert [link.number for link in duel.chain] == [1, 2, 3, 4, 5, 6]
    # the triggers formed the chain: now spell speed 2+ responses (7 任意发动的2速以上的卡), the
    # player who did not activate the last link first; A's ignition effect is not offered
    assert duel.state == "main_phase_1.open.window.chain.building" and duel.priority == "A"
    assert options(duel, "respond") == {"a_quick"}
    duel.apply("pass")
    assert duel.priority == "B" and options(duel, "respond") == {"b_quick"}
    duel.apply("pass")
    assert [uid for _, uid, _ in resolved(duel)[1:]] == [b_second, b_first, "a_o", "b_m", a_second, a_first]


def test_optional_triggers_may_be_declined() -> None:
    """000 priority list ３/４ 任意发动的诱发效果: optional triggers may be declined (one player declines, the
    other activates one of two); mandatory ones cannot."""
    duel = _segoc_duel(["b_m", "a_o", "b_o1", "b_o2"])
    assert duel.priority == "B" and "decline" not in offered(duel)
    seen = _place(duel, ["b_m", "-", "b_o2", "-"])
    assert [who for who, _ in seen] == ["B", "A", "B", "B"]
    assert chain_uids(duel) == ["b_m", "b_o2"]
    assert duel.state == "main_phase_1.open.window.chain.building"


def test_ignition_effect_only_as_chain1_when_no_trigger_was_activated() -> None:
    """000 priority list ５ 回合玩家的怪兽起动效果（只限于メインフェイズ中，并且没有被占CHAIN1的场合）: with every
    optional trigger declined, the turn player may start CHAIN1 with an ignition effect, and still
    with spell speed 2+ (７)."""
    duel = _segoc_duel(["a_o", "b_o1"])
    _place(duel, ["-", "-"])
    assert duel.state == "main_phase_1.open.window.turn_player" and duel.priority == "A"
    assert options(duel, "activate") == {"ignition_monster", "a_quick"}


def test_ignition_effect_not_offered_once_a_trigger_took_chain1() -> None:
    """000 priority list ５ …并且没有被占CHAIN1的场合: a mandatory trigger takes CHAIN1, so the ignition
    effect cannot be activated in that window — neither as a response (spell speed 1) nor as a
    CHAIN1 in the window after that chain (its last action was not a summon, 001 例1)."""
    duel = _segoc_duel(["a_m1"])
    _place(duel, ["a_m1"])
    assert duel.state == "main_phase_1.open.window.chain.building"
    duel.apply("pass")
    assert "ignition_monster" not in options(duel, "respond")
    duel.apply("pass")
    assert duel.chain == [] and duel.state == "main_phase_1.open.window.turn_player"
    assert "ignition_monster" not in options(duel, "activate")


def test_no_ignition_effect_in_a_window_outside_the_main_phase() -> None:
    """000 priority list ５ …（只限于メインフェイズ中）: in a Battle Phase window the ignition effect is not
    offered even with no trigger activated."""
    duel = _segoc_duel(["a_o"], phase="battle_phase")
    _place(duel, ["-"])
    assert duel.state == "battle_phase.start_step.window.turn_player"
    assert options(duel, "activate") == {"a_quick"}


def test_summon_success_triggers_follow_the_priority_list() -> None:
    """000 【怪兽通常***…的处理】【情况Ａ】７『通常***成功时』的时点 卡／效果发动的优先顺序: 1.回合玩家的必须发动的
    诱发效果 2.非回合玩家的必须发动的诱发效果 3.回合玩家的任意发动的诱发效果 4.非回合玩家的任意发动的诱发效果."""
    def on_summon(card_id: str, mandatory: bool) -> CardSpec:
        return card(card_id, "monster", {"kind": "trigger", "location": "graveyard", "mandatory": mandatory,
                                         "events": ["normal_summoned"]})
    lib = library(VANILLA, on_summon("tp_m", True), on_summon("op_m", True), on_summon("tp_o", False),
                  on_summon("op_o", False))
    duel = duel_of(lib, a=[at("vanilla"), at("tp_m", "graveyard"), at("tp_o", "graveyard")],
                   b=[at("op_m", "graveyard"), at("op_o", "graveyard")])
    duel.apply("normal_summon vanilla")
    for _ in range(10):
        if duel.state.endswith(".success_window.build"):
            break
        duel.apply("pass")
    assert duel.state.endswith(".success_window.build"), duel.state
    seen = []
    while duel.state.endswith(".build"):
        (choice,) = options(duel, "activate")
        seen.append((duel.priority, choice))
        duel.apply(f"activate {choice}")
    assert seen == [("A", "tp_m"), ("B", "op_m"), ("A", "tp_o"), ("B", "op_o")]
    assert chain_uids(duel) == ["tp_m", "op_m", "tp_o", "op_o"]


# --- 6. windows where a no-timing card cannot be CHAIN1 -------------------------------------------

NO_TIMING_QP = card("no_timing_qp", "spell", {"kind": "quick_play_spell", "location": "hand"})
"""「サイクロン」-like: spell speed 2, no specific timing."""
NO_TIMING_TRAP = card("no_timing_trap", "trap", {"kind": "normal_trap", "location": "set"})
"""「破壊輪」-like: spell speed 2, no specific timing."""
ON_DISCARD_TRAP = card("on_discard_trap", "trap", {"kind": "normal_trap", "location": "set", "events": ["discarded"]})
"""「強制接収」-like: a trap with a specific timing (『丢弃时』)."""
BEFORE_DRAW = card("freed", "monster", {"kind": "trigger", "location": "field", "events": ["before_draw"],
                                        "conditions": {"controller_is_turn_player": True}})
"""「無敗将軍フリード」-like: an optional trigger in the 『抽卡前』 window."""


def _window_duel(phase: str, *, a_hand: int = 5, with_freed: bool = False) -> Duel:
    lib = library(NO_TIMING_QP, NO_TIMING_TRAP, ON_DISCARD_TRAP, BEFORE_DRAW)
    a = [at("no_timing_qp")] + ([at("freed", "monster")] if with_freed else [])
    return duel_of(lib, phase=phase, a=a, a_setup={"hand": a_hand},
                   b=[at("no_timing_trap", "spell_trap", set_turn=0), at("on_discard_trap", "spell_trap", set_turn=0)])


def test_before_draw_window_forbids_no_timing_chain1() -> None:
    """000 ●ドローフェイズ【１】◇『抽卡前』的发动时点 ※「無敗将軍フリード」「マジックブラスト」的效果没有发动的场合，
    2速以上的卡在该时点不能作为CHAIN1发动 — for either player."""
    duel = _window_duel("draw_phase")
    assert duel.state == "draw_phase.before_draw_window.turn_player"
    assert offered(duel) == ["pass"]
    duel.apply("pass")
    assert duel.state == "draw_phase.before_draw_window.opponent"
    assert offered(duel) == ["pass"]


def test_draw_window_allows_no_timing_chain1() -> None:
    """000 ●ドローフェイズ【情况Ａ】◇『抽卡时』的发动时点 2. 2速以上的卡「サイクロン」「はたき落とし」等: after the
    normal draw a no-timing card may start CHAIN1 (the window is not restricted)."""
    duel = _window_duel("draw_phase")
    pass_until(duel, "draw_phase.draw_window.turn_player")
    assert "no_timing_qp" in options(duel, "activate")
    duel.apply("pass")
    assert duel.state == "draw_phase.draw_window.opponent"
    assert "no_timing_trap" in options(duel, "activate")


def test_before_draw_window_allows_spell_speed_2_once_the_trigger_is_activated() -> None:
    """000 ●ドローフェイズ【１】『抽卡前』的发动时点 ２「無敗将軍フリード」「マジックブラスト」的效果发动的场合，2速以上
    的卡连锁可能「天罰」「スキルドレイン」「ロスト」「サイクロン」等."""
    duel = _window_duel("draw_phase", with_freed=True)
    assert duel.state == "draw_phase.before_draw_window.build" and duel.priority == "A"
    duel.apply("activate freed")
    assert duel.state == "draw_phase.before_draw_window.chain.building" and duel.priority == "B"
    assert "no_timing_trap" in options(duel, "respond")


def _to_discard_window(duel: Duel) -> None:
    pass_until(duel, "end_phase.hand_size_adjustment")
    duel.apply("discard unnamed")  # keep the quick-play spell (000 【３】选择手卡丢弃), one card at a time:
    duel.apply("discard unnamed")  # 8 cards, 2 over the limit
    assert duel.state == "end_phase.discard_window.turn_player"


def test_discard_window_forbids_no_timing_chain1() -> None:
    """000 ●エンドフェイズ【３】◇『丢弃时』的发动时点 ※满足发动条件的卡／效果（「強制接収」…）没有发动的场合，
    「サイクロン」「破壊輪」等没有特定发动时点的卡不能作为CHAIN1发动 — while a card whose condition is the
    discard (SET的「強制接収」) may."""
    duel = _window_duel("end_phase", a_hand=7)  # 7 unnamed + the quick-play spell: over the limit of 6
    _to_discard_window(duel)
    assert "activate" not in {action.name for action in duel.legal_actions()}
    duel.apply("pass")
    assert duel.state == "end_phase.discard_window.opponent"
    assert options(duel, "activate") == {"on_discard_trap"}


def test_discard_window_after_a_chain_still_forbids_no_timing_chain1() -> None:
    """000 ●エンドフェイズ【３】◇连锁处理结束后的发动时点 … ※符合特定发动条件的卡／效果没有发动的场合，「サイクロン」
    「破壊輪」等没有特定发动时点的卡不能作为CHAIN1发动 (said twice: also ·每次连锁处理结束的发动时点)."""
    duel = _window_duel("end_phase", a_hand=7)
    _to_discard_window(duel)
    duel.apply("pass")
    duel.apply("activate on_discard_trap")
    duel.apply("pass")
    duel.apply("pass")
    assert resolved(duel) == [(1, "on_discard_trap", False)]
    assert duel.state == "end_phase.discard_window.turn_player"
    assert "activate" not in {action.name for action in duel.legal_actions()}


def test_unrestricted_window_after_a_chain_allows_no_timing_chain1() -> None:
    """000 ※主要流程1中每次连锁处理结束后的发动时点 …2速以上的卡发动可能: a Main Phase window after a chain
    lets a no-timing card start CHAIN1 (the counterpart of the restricted windows)."""
    lib = library(NO_TIMING_QP, NO_TIMING_TRAP, HAND_QP)
    duel = duel_of(lib, a=[at("hand_qp"), at("no_timing_qp")], b=[at("no_timing_trap", "spell_trap", set_turn=0)])
    duel.apply("activate hand_qp")
    duel.apply("pass")
    duel.apply("pass")
    assert duel.state == "main_phase_1.open.window.turn_player"
    assert "no_timing_qp" in options(duel, "activate")


def _summoned(duel: Duel) -> list[tuple[str, str | None, list[str]]]:
    """Normal summon 「vanilla」 and pass through the windows it opens, noting in each window state
    who held priority and what they could activate."""
    duel.apply("normal_summon vanilla")
    seen = []
    for _ in range(20):
        if not duel.in_state("main_phase_1.summon"):
            break
        seen.append((duel.state, duel.priority, sorted(options(duel, "activate"))))
        duel.apply("pass")
    assert duel.state == "main_phase_1.open.turn_player"
    return seen


def test_summon_negation_window_forbids_no_timing_chain1() -> None:
    """000 【怪兽通常***…的处理】４无效***的卡发动时点 ※无效***的卡没有发动的场合，「サイクロン」「砂塵の大竜巻」
    等没有特定发动时点的卡不能作为CHAIN1发动."""
    lib = library(NO_TIMING_QP, NO_TIMING_TRAP, VANILLA)
    duel = duel_of(lib, a=[at("vanilla"), at("no_timing_qp")], b=[at("no_timing_trap", "spell_trap", set_turn=0)])
    negation = [(who, acts) for state, who, acts in _summoned(duel) if ".negation_window." in state]
    assert negation == [("A", []), ("B", [])]


def test_window_after_a_normal_summon_allows_no_timing_chain1() -> None:
    """000 【怪兽通常***…的处理】【情况Ａ】７『通常***成功时』的时点 ７任意发动的2速以上的卡「…サイクロン」「破壊輪」:
    after the summon succeeded a no-timing card may start CHAIN1, for either player."""
    lib = library(NO_TIMING_QP, NO_TIMING_TRAP, VANILLA)
    duel = duel_of(lib, a=[at("vanilla"), at("no_timing_qp")], b=[at("no_timing_trap", "spell_trap", set_turn=0)])
    success = [(who, acts) for state, who, acts in _summoned(duel) if ".success_window." in state]
    assert success == [("A", ["no_timing_qp"]), ("B", ["no_timing_trap"])]


MERCENARIES = card("mercenaries", "monster", {"kind": "ignition", "cost": {"tribute_self": True},
                                              "target": "any_monster", "resolution": [{"op": "destroy"}]})
"""「ならず者傭兵部隊」-like: an ignition effect (tribute this card, destroy a monster)."""


def test_ignition_effect_of_the_summoned_monster_in_the_success_window() -> None:
    """000 ●メインフェイズ１ 例: ***「ならず者傭兵部隊」 → 「ならず者傭兵部隊」***成功时的时点 CHAIN1回合发动
    「ならず者傭兵部隊」的起动效果 (priority list ５, no trigger took CHAIN1)."""
    lib = library(MERCENARIES, TARGET)
    duel = duel_of(lib, a=[at("mercenaries")], b=[at("target", "monster")])
    duel.apply("normal_summon mercenaries")
    for _ in range(10):
        if duel.state.endswith(".success_window.turn_player"):
            break
        duel.apply("pass")
    assert duel.state == "main_phase_1.summon.success_window.turn_player", duel.state
    assert "mercenaries>target" in options(duel, "activate")


def test_no_ignition_effect_in_the_summon_negation_window() -> None:
    """000 【怪兽通常***…的处理】４无效***的卡发动时点 1.「神の宣告」「昇天の角笛」… 2. 无效***的卡发动的场合，2速
    以上的卡连锁可能: nothing else starts CHAIN1 there — the ignition effect (priority list ５) belongs to
    the success window (【情况Ａ】７)."""
    lib = library(VANILLA, IGNITION)
    duel = duel_of(lib, a=[at("vanilla"), at("ignition_monster", "monster")])
    negation = [(who, acts) for state, who, acts in _summoned(duel) if ".negation_window." in state]
    assert negation == [("A", []), ("B", [])]


# --- 7. missing the timing ---------------------------------------------------------------------


SUMMON_THEN_DESTROY = card("summon_then_destroy", "spell", {
    "kind": "quick_play_spell", "location": "hand", "target": "optional_opponent_monster",
    "resolution": [{"op": "special_summon", "what": "vanilla", "from": "hand"}, {"op": "destroy", "what": "target"}]})
"""「ディメンション・マジック」-like: special summon, then (optionally) destroy a chosen monster."""
WHEN_OPTIONAL = card("when_optional", "monster", {"kind": "trigger", "location": "graveyard", "wording": "when",
                                                  "events": ["special_summoned"]})
IF_OPTIONAL = card("if_optional", "monster", {"kind": "trigger", "location": "graveyard", "wording": "if",
                                              "events": ["special_summoned"]})
WHEN_MANDATORY = card("when_mandatory", "monster", {"kind": "trigger", "location": "graveyard", "wording": "when",
                                                    "mandatory": True, "events": ["special_summoned"]})


def _missing_timing_duel(destroy: bool) -> Duel:
    lib = library(SUMMON_THEN_DESTROY, WHEN_OPTIONAL, IF_OPTIONAL, WHEN_MANDATORY, VANILLA, TARGET)
    duel = duel_of(lib, a=[at("summon_then_destroy"), at("vanilla"), at("when_optional", "graveyard"),
                           at("if_optional", "graveyard"), at("when_mandatory", "graveyard")],
                   b=[at("target", "monster")])
    duel.apply("activate summon_then_destroy>target" if destroy else "activate summon_then_destroy")
    duel.apply("pass")
    duel.apply("pass")
    assert duel.where("vanilla") == ("A", Zone.monster)
    assert duel.where("target") == ("B", Zone.graveyard if destroy else Zone.monster)
    return duel


def _window_triggers(duel: Duel) -> list[str]:
    """Triggers offered in the window's build, declining optional tiers to see every tier."""
    seen = []
    while duel.state.endswith(".window.build"):
        choices = sorted(options(duel, "activate"))
        seen += choices
        if "decline" in offered(duel):
            duel.apply("decline")
        else:
            duel.apply(f"activate {choices[0]}")
    return sorted(seen)


def test_when_optional_trigger_misses_the_timing() -> None:
    """000 【怪兽通常***…的处理】２ ·此时满足发动条件的「闇・道化師のペーテン」等任意发动的诱发效果不会发动 /
    001 例1 (the last action was not the summon): an optional 'when … you can' trigger whose event
    was not the last thing to happen misses its timing; an 'if' one and a mandatory one do not."""
    duel = _missing_timing_duel(destroy=True)
    assert _window_triggers(duel) == ["if_optional", "when_mandatory"]


def test_when_optional_trigger_is_offered_when_its_event_was_last() -> None:
    """Counterpart: with nothing after the special summon (001 例2), the 'when' trigger is offered."""
    duel = _missing_timing_duel(destroy=False)
    assert _window_triggers(duel) == ["if_optional", "when_mandatory", "when_optional"]


# --- 8. both pass while effects are pending ----------------------------------------------------


def _phase_trigger(card_id: str, phase: str, *, mandatory: bool, whose: str) -> CardSpec:
    conditions = {"controller_is_turn_player": True} if whose == "turn_player" else {"opponent_is_turn_player": True}
    return card(card_id, "monster", {"kind": "trigger", "location": "field", "phase": phase, "mandatory": mandatory,
                                     "conditions": conditions})


def _phase_processing(card_id: str, phase: str, *, whose: str) -> CardSpec:
    conditions = {"controller_is_turn_player": True} if whose == "turn_player" else {"opponent_is_turn_player": True}
    return card(card_id, "spell", {"kind": "processing", "location": "field", "phase": phase, "mandatory": True,
                                   "conditions": conditions, "resolution": [{"op": "recover", "amount": 1000,
                                                                             "to": "opponent"}]})


PHASES = ["standby_phase", "end_phase"]


@pytest.mark.parametrize("phase", PHASES)
def test_both_pass_with_the_turn_players_mandatory_effect_pending(phase: str) -> None:
    """000 ●スタンバイフェイズ【２】·放弃优先权 在自己还有要发动或处理的…的时候，可以先放弃优先权转让给对方…此时得到
    优先权的对方玩家也放弃优先权的场合，回合玩家先处理; 例2 / ●エンドフェイズ 结果Ｃ: the turn player handles
    theirs first and cannot pass again."""
    lib = library(_phase_trigger("golem", phase, mandatory=True, whose="turn_player"))
    duel = duel_of(lib, a=[at("golem", "monster")], phase=phase)
    assert duel.state == f"{phase}.open.turn_player"
    assert set(offered(duel)) >= {"pass", "activate golem"}  # may pass first
    duel.apply("pass")
    duel.apply("pass")
    assert duel.state == f"{phase}.open.turn_player_handles" and duel.priority == "A"
    assert offered(duel) == ["activate golem"]


@pytest.mark.parametrize("phase", PHASES)
def test_both_pass_with_only_the_opponents_mandatory_effect_pending(phase: str) -> None:
    """004 ●双方玩家互相放弃发动卡的优先权后，存在有在结束阶段的必发效果或必须处理的效果的场合…进行发动和处理;
    000 ●スタンバイフェイズ 例2（处理「強奪」的效果）: when only the opponent has one, the opponent handles it
    and may not pass."""
    lib = library(_phase_processing("steal", phase, whose="opponent"))
    duel = duel_of(lib, b=[at("steal", "spell_trap", face_up=True)], phase=phase)
    duel.apply("pass")
    assert duel.state == f"{phase}.open.opponent"
    duel.apply("pass")
    assert duel.state == f"{phase}.open.opponent_handles" and duel.priority == "B"
    assert offered(duel) == ["process steal"]
    duel.apply("process steal")
    assert duel.players["A"].lp == 9000
    # processed: the window, then priority back to the turn player (每1次处理之后优先权归还给回合玩家)
    pass_until(duel, f"{phase}.open.turn_player")


@pytest.mark.parametrize("phase", PHASES)
def test_both_pending_the_turn_player_first_then_the_opponent(phase: str) -> None:
    """000 ●スタンバイフェイズ 例2: 回合玩家 lets the opponent go first, the opponent passes too → 回合玩家先
    处理 CHAIN1「溶岩魔神ラヴァ・ゴーレム」; then the opponent 处理「強奪」的效果; then both pass and the phase ends."""
    lib = library(_phase_trigger("golem", phase, mandatory=True, whose="turn_player"),
                  _phase_processing("steal", phase, whose="opponent"))
    duel = duel_of(lib, a=[at("golem", "monster")], b=[at("steal", "spell_trap", face_up=True)], phase=phase)
    duel.apply("pass")
    duel.apply("pass")
    assert duel.state == f"{phase}.open.turn_player_handles" and duel.priority == "A"
    duel.apply("activate golem")
    duel.apply("pass")
    duel.apply("pass")
    pass_until(duel, f"{phase}.open.turn_player")
    assert "activate golem" not in offered(duel)  # handled once
    duel.apply("pass")  # A has nothing left
    assert duel.state == f"{phase}.open.opponent" and "pass" in offered(duel)
    duel.apply("pass")
    assert duel.state == f"{phase}.open.opponent_handles"
    duel.apply("process steal")
    pass_until(duel, f"{phase}.open.turn_player")
    duel.apply("pass")
    duel.apply("pass")
    assert not duel.state.startswith(f"{phase}.open")


@pytest.mark.parametrize("phase, turn_machine_next", [("standby_phase", "main_phase_1"), ("end_phase", "turn_end")])
def test_optional_phase_effects_do_not_keep_the_phase_open(phase: str, turn_machine_next: str) -> None:
    """000 ●スタンバイフェイズ 例1: 回合玩家 没有要发动…放弃优先权 / 对方 放弃优先权 → 准备流程结束 — an optional
    phase effect (「キラー・スネーク」) need not be activated: both passing ends the phase."""
    lib = library(_phase_trigger("snake", phase, mandatory=False, whose="turn_player"),
                  _phase_trigger("opp_snake", phase, mandatory=False, whose="opponent"))
    duel = duel_of(lib, a=[at("snake", "monster")], b=[at("opp_snake", "monster")], phase=phase)
    assert "activate snake" in offered(duel)
    duel.apply("pass")
    assert "activate opp_snake" in offered(duel)
    seq = len(duel.trace)
    duel.apply("pass")
    turn_steps = [(r.source, r.dest) for r in duel.trace[seq:] if r.machine == "turn"]
    assert turn_steps[0] == (phase, turn_machine_next)
    assert not any(r.event == "activate" for r in duel.trace)


# --- 9. ignition effect after a chain: only if its last action was a summon ---------------------

GUIDE = card("guide", "monster", {"kind": "ignition"}, race="spellcaster", level=2)
"""「ネフティスの導き手」-like: an ignition effect (costless here)."""
DIMENSION_MAGIC = card("dimension_magic", "spell", {
    "kind": "quick_play_spell", "location": "hand", "target": "optional_opponent_monster",
    "resolution": [{"op": "tribute", "what": "own_monster"},
                   {"op": "special_summon", "what": "spellcaster", "from": "hand"},
                   {"op": "destroy", "what": "target"}]})


def _dimension_magic(target: str | None) -> Duel:
    lib = library(GUIDE, DIMENSION_MAGIC, VANILLA, TARGET)
    duel = duel_of(lib, a=[at("dimension_magic"), at("guide"), at("vanilla", "monster")], b=[at("target", "monster")])
    duel.apply("activate dimension_magic" + (f">{target}" if target else ""))
    duel.apply("pass")
    duel.apply("pass")
    assert duel.where("vanilla") == ("A", Zone.graveyard) and duel.where("guide") == ("A", Zone.monster)
    assert duel.state == "main_phase_1.open.window.turn_player"
    return duel


def test_no_ignition_after_a_chain_whose_last_action_was_not_a_summon() -> None:
    """001 主要流程1 例1: CHAIN1 次元魔法 …特殊召唤凤凰神的引导手之后，选择一只对方场上的怪兽破坏 → 因为最后一个动作
    不是特殊召唤怪兽，不能在此时点使用起动效果."""
    duel = _dimension_magic("target")
    assert duel.where("target") == ("B", Zone.graveyard)
    assert "guide" not in options(duel, "activate")


def test_ignition_after_a_chain_whose_last_action_was_a_summon() -> None:
    """001 主要流程1 例2: …没有选择破坏效果 → 连锁处理结束后的时点（怪兽特殊召唤成功时）CHAIN1 回合玩家发动凤凰神的
    引导手的起动效果."""
    duel = _dimension_magic(None)
    assert duel.where("target") == ("B", Zone.monster)
    assert "guide" in options(duel, "activate")


# --- 10. negation by a counter trap is an event -------------------------------------------------


def test_negation_by_a_counter_trap_lets_vandalgyon_trigger() -> None:
    """000 ※…发动时点的出现条件 例: 连锁处理结束后的时点（『对方控制的卡的发动被反击陷阱无效』…）CHAIN1回合玩家发动
    「冥王竜ヴァンダルギオン」的诱发效果 — after 「王家の呪い」 negated 「我が身を盾に」."""
    duel = _final_example(extra_a=[at("vandal")])
    duel.apply("activate black_hole")
    duel.apply("respond shield")
    duel.apply("respond curse")
    duel.apply("pass")
    duel.apply("pass")
    assert duel.state == "main_phase_1.open.window.build" and duel.priority == "A"
    assert options(duel, "activate") == {"vandal"}
    duel.apply("activate vandal")
    duel.apply("pass")
    duel.apply("pass")
    assert duel.where("vandal") == ("A", Zone.monster)


def test_negation_by_a_normal_trap_is_not_a_counter_trap_negation() -> None:
    """000 ●バトルフェイズ 例 CHAIN2「我が身を盾に」…「破壊輪」发动无效: 「我が身を盾に」 is a normal trap, so
    『…被反击陷阱无效』 does not happen and 「冥王竜ヴァンダルギオン」 is not offered."""
    duel = _final_example(extra_a=[at("vandal")])
    duel.apply("activate black_hole")
    duel.apply("respond shield")
    duel.apply("pass")
    duel.apply("pass")
    assert resolved(duel) == [(2, "shield", False), (1, "black_hole", True)]
    assert "vandal" not in options(duel, "activate")
    assert duel.where("vandal") == ("A", Zone.hand)


def test_the_player_whose_card_was_negated_gets_no_vandalgyon_trigger() -> None:
    """000 ※…发动时点的出现条件 例（『对方控制的卡的发动被反击陷阱无效』）: B's card was negated by A's counter trap, so
    only A's 「冥王竜ヴァンダルギオン」 may trigger; B's own copy is not offered (shipped card data)."""
    duel = Duel(card_id_uids(Setup.model_validate({"profile": "ocg2008", "turn": 3, "phase": "main_phase_1",
                                                   "players": {
        "A": {"monsters": [{"name": "M", "atk": 1000}],  # 「ブラック・ホール」 needs a monster to destroy (PR17 p.133)
              "cards": [at("dark_hole"), at("royal_curse", "spell_trap", set_turn=0),
                        at("dark_ruler_vandalgyon", uid="vandal_a")]},
        "B": {"cards": [at("my_body_as_a_shield", "spell_trap", set_turn=0),
                        at("dark_ruler_vandalgyon", uid="vandal_b")]}}})))
    duel.apply("activate dark_hole")
    duel.apply("respond my_body_as_a_shield")
    duel.apply("respond royal_curse")
    duel.apply("pass")
    duel.apply("pass")
    seen = []
    while duel.state.endswith(".window.build"):
        seen += [(duel.priority, uid) for uid in options(duel, "activate")]
        duel.apply("decline")
    assert seen == [("A", "vandal_a")]


# --- 11. illegal activations ---------------------------------------------------------------------


def _snapshot(duel: Duel) -> tuple[Any, ...]:
    zones = {p: {zone.value: [c.uid for c in state.zone_list(zone)] for zone in Zone}
             for p, state in duel.players.items()}
    faces = {c.uid: (c.face_up, c.position) for state in duel.players.values() for _, c in state.all_cards()}
    return (duel.state, duel.priority, [(k.number, k.uid, k.controller, k.negated) for k in duel.chain],
            {p: s.lp for p, s in duel.players.items()}, zones, faces, len(duel.trace), len(duel.history),
            list(duel.resolutions), offered(duel))


@pytest.mark.parametrize("attempt", [
    "respond fresh",              # Set this turn (002 ●主要阶段1 盖放的陷阱没有经过一回合的话不可以发动)
    "respond hand_spell",         # spell speed 1 (000 2速以上的卡)
    "respond no_such_card",
    "activate old",               # `activate` is the open-state action; in a chain it is `respond`
])
def test_illegal_activation_changes_nothing_and_names_the_options(attempt: str) -> None:
    """DESIGN Contracts: an illegal action raises a specific exception naming the state, the action
    and the legal actions, and leaves the duel exactly as it was."""
    lib = library(HAND_QP, SET_TRAP, HAND_SPELL)
    duel = duel_of(lib, a=[at("hand_qp")], b=[at("set_trap", "spell_trap", set_turn=3, uid="fresh"),
                                            at("set_trap", "spell_trap", set_turn=1, uid="old"),
                                            at("hand_spell")])
    duel.apply("activate hand_qp")
    before = _snapshot(duel)
    legal = offered(duel)
    assert set(legal) == {"respond old", "pass"}
    with pytest.raises(IllegalActionError) as caught:
        duel.apply(attempt)
    error = caught.value
    assert error.state == "main_phase_1.open.chain.building"
    assert error.action == attempt
    assert sorted(error.legal) == sorted(legal)
    for option in legal:
        assert option in str(error)
    assert _snapshot(duel) == before
    duel.apply("respond old")  # and it still plays on
    assert chain_uids(duel) == ["hand_qp", "old"]


def test_activation_by_the_player_without_priority_is_refused() -> None:
    """000 ◇持有优先权的…玩家可以进行的行为: in the chain only the player holding priority may respond."""
    lib = library(HAND_QP, SET_TRAP)
    duel = duel_of(lib, a=[at("hand_qp"), at("hand_qp", uid="second")], b=[at("set_trap", "spell_trap", set_turn=0)])
    duel.apply("activate hand_qp")
    before = _snapshot(duel)
    with pytest.raises(IllegalActionError) as caught:
        duel.apply(Action("respond", "A", "second"))
    assert "B" in caught.value.reason
    assert _snapshot(duel) == before


def test_a_response_with_a_specific_timing_answers_only_the_newest_link() -> None:
    """000 ※…发动时点的出现条件 例: 「我が身を盾に」 answers the activation of a card that destroys
    monsters — the newest link; it is not offered once 「サイクロン」 has been chained on top of
    「ブラック・ホール」."""
    from ygo_fsm.cards import default_library

    shipped = default_library()
    setup = Setup.model_validate({
        "profile": "ocg2008", "turn": 3, "phase": "main_phase_1",
        "players": {"A": {"monsters": [{"name": "M", "atk": 1000}],  # something to destroy (PR17 p.133)
                          "cards": [{"card": "dark_hole", "zone": "hand"},
                                    {"card": "soul_rope", "zone": "spell_trap", "uid": "a_set"}]},
                    "B": {"cards": [{"card": "cyclone", "zone": "spell_trap"},
                                    {"card": "my_body_as_a_shield", "zone": "spell_trap"}]}}})
    duel = Duel(card_id_uids(setup),
                library={k: shipped[k] for k in ("dark_hole", "soul_rope", "cyclone", "my_body_as_a_shield")})
    duel.apply("activate dark_hole")
    offered = [str(a) for a in duel.legal_actions()]
    assert "respond my_body_as_a_shield" in offered, "it answers CHAIN1 「ブラック・ホール」"
    duel.apply("respond cyclone>a_set")
    duel.apply("pass")                         # A does not respond
    assert duel.priority == "B"
    assert "respond my_body_as_a_shield" not in [str(a) for a in duel.legal_actions()]


def test_no_draw_to_replace_on_the_modern_first_turn() -> None:
    """004 ●先攻第1回合游戏玩家的抽卡階段不能通常抽卡: 「無敗将軍フリード」's replacement needs a normal draw
    (000 ●ドローフェイズ 情况Ｂ), so it is not offered on the first player's first turn."""
    from ygo_fsm.cards import default_library

    freed = {"freed_the_matchless_general": default_library()["freed_the_matchless_general"]}
    placed = {"A": {"cards": [{"card": "freed_the_matchless_general", "zone": "monster"}]}}
    first = Duel(card_id_uids(Setup.model_validate({"profile": "modern", "turn": 1, "players": placed})), library=freed)
    assert first.state == "draw_phase.before_draw_window.turn_player"
    assert [str(a) for a in first.legal_actions()] == ["pass"]
    later = Duel(card_id_uids(Setup.model_validate({"profile": "modern", "turn": 3, "players": placed})), library=freed)
    assert "activate freed_the_matchless_general" in [str(a) for a in later.legal_actions()]


def test_a_continuous_trap_destroyed_in_response_does_nothing() -> None:
    """000 ●メインフェイズ１ 例 「アポピスの化神」 becomes a monster when it resolves; if a chained
    「サイクロン」 destroys it first, the card is no longer on the field and nothing is summoned."""
    from ygo_fsm.cards import default_library

    shipped = default_library()
    setup = Setup.model_validate({
        "profile": "ocg2008", "turn": 3, "phase": "main_phase_1",
        "players": {"A": {"cards": [{"card": "cyclone", "zone": "hand"}]},
                    "B": {"cards": [{"card": "apophis_avatar", "zone": "spell_trap"}]}}})
    duel = Duel(card_id_uids(setup), library={k: shipped[k] for k in ("cyclone", "apophis_avatar")})
    duel.apply("pass")
    duel.apply("activate apophis_avatar")
    duel.apply("respond cyclone>apophis_avatar")
    duel.apply("pass")
    duel.apply("pass")
    assert duel.where("apophis_avatar") == ("B", Zone.graveyard)
    assert duel.players["B"].monsters == []


def test_setting_a_card_opens_a_window_where_cyclone_may_start_chain1() -> None:
    """000 ※主要流程1中每次进行了不进入连锁的行为之后，『～时』的发动时点 例：自己SET魔法陷阱卡之后，
    『魔法陷阱覆盖放置时』的发动时点，对方发动「サイクロン」破坏SET的魔法陷阱."""
    from ygo_fsm.cards import default_library

    shipped = default_library()
    setup = Setup.model_validate({
        "profile": "ocg2008", "turn": 3, "phase": "main_phase_1",
        "players": {"A": {"cards": [{"card": "soul_rope", "zone": "hand"}]},
                    "B": {"cards": [{"card": "cyclone", "zone": "spell_trap"}]}}})
    duel = Duel(card_id_uids(setup), library={k: shipped[k] for k in ("soul_rope", "cyclone")})
    duel.apply("set_spell_trap soul_rope")
    assert duel.state == "main_phase_1.action_window.turn_player"
    assert duel.where("soul_rope") == ("A", Zone.spell_trap)
    duel.apply("pass")
    assert [str(a) for a in duel.legal_actions(judge=True)] == ["activate cyclone>soul_rope", "pass"]
    duel.apply("activate cyclone>soul_rope")
    duel.apply("pass")
    duel.apply("pass")
    assert duel.where("soul_rope") == ("A", Zone.graveyard)


def test_maintenance_cost_is_processed_without_a_chain_link() -> None:
    """000 ●スタンバイフェイズ【２】·『准备流程时～』的维持COST的处理（不进入连锁）「平和の使者」: the turn player
    pays it with priority; both passing with it still unpaid, the turn player must handle it first."""
    from ygo_fsm.cards import default_library

    setup = Setup.model_validate({
        "profile": "ocg2008", "turn": 3, "phase": "standby_phase",
        "players": {"A": {"cards": [{"card": "messenger_of_peace", "zone": "spell_trap", "face_up": True}]}}})
    duel = Duel(card_id_uids(setup), library={"messenger_of_peace": default_library()["messenger_of_peace"]})
    assert [str(a) for a in duel.legal_actions()] == ["pass", "process messenger_of_peace",
                                                      "process messenger_of_peace>destroy"]  # pay, or do not
    duel.apply("pass")
    duel.apply("pass")
    assert duel.state == "standby_phase.open.turn_player_handles"
    duel.apply("process messenger_of_peace")
    assert duel.players["A"].lp == 7900 and duel.chain == []
    duel.apply("pass")                       # the window after the processing
    duel.apply("pass")
    duel.apply("pass")                       # priority back to the turn player; nothing left
    duel.apply("pass")
    assert duel.in_state("main_phase_1")


def test_an_until_end_phase_effect_ends_there_without_a_chain_link() -> None:
    """000 ●エンドフェイズ【２】·『回合结束为止～』『结束流程为止～』的效果结束（不进入连锁）「突進」等影响怪兽的
    攻击力、守备力的效果结束，怪兽攻击力、守备力复原."""
    from ygo_fsm.cards import default_library

    setup = Setup.model_validate({
        "profile": "ocg2008", "turn": 3, "phase": "main_phase_1",
        "players": {"A": {"monsters": [{"name": "X", "atk": 1000}],
                          "cards": [{"card": "rush_recklessly", "zone": "hand"}]}}})
    duel = Duel(card_id_uids(setup), library={"rush_recklessly": default_library()["rush_recklessly"]})
    duel.apply("activate rush_recklessly>a_monster_1")
    duel.apply("pass")
    duel.apply("pass")
    assert duel.players["A"].monsters[0].atk == 1700
    for _ in range(20):
        if duel.in_state("end_phase.open"):
            break
        duel.apply("pass" if "pass" in {a.name for a in duel.legal_actions()} else "enter_end_phase")
    assert duel.in_state("end_phase.open.turn_player")
    assert [str(a) for a in duel.legal_actions()] == ["pass", "process until_a_monster_1"]
    duel.apply("pass")
    duel.apply("pass")                       # both passed with it pending: the turn player ends it
    assert duel.state == "end_phase.open.turn_player_handles"
    duel.apply("process until_a_monster_1")
    assert duel.players["A"].monsters[0].atk == 1000 and duel.chain == []


def test_last_battles_end_phase_effect_lasts_only_its_turn() -> None:
    """000 ●エンドフェイズ 例: 「ラストバトル！」's effect is processed in the End Phase of the turn it
    resolved; in later turns it is gone (the card is in the graveyard)."""
    from ygo_fsm.cards import default_library

    shipped = default_library()
    setup = Setup.model_validate({
        "profile": "ocg2008", "turn": 2, "phase": "end_phase",
        "players": {"A": {"monsters": [{"name": "X", "atk": 100}, {"name": "Y", "atk": 100}]},
                    "B": {"cards": [{"card": "last_battle", "zone": "lingering"}]}}})
    duel = Duel(card_id_uids(setup), library={"last_battle": shipped["last_battle"]})
    duel.apply("pass")
    assert [str(a) for a in duel.legal_actions()] == ["process last_battle#2", "pass"]
    duel.apply("pass")                      # B passes; it is mandatory: B must process it
    duel.apply("process last_battle#2")
    assert duel.is_over and duel.winner == "A"


def test_last_battle_resolved_waits_for_the_end_phase_and_decides_the_duel_there() -> None:
    """000 ●スタンバイフェイズ 例1 and ●エンドフェイズ 例 结果Ａ: B (1000 LP) activates the Set
    「ラストバトル！」 in A's Standby Phase choosing its own monster; on resolution every other card
    on the field goes to the graveyard, and the card itself stays where its End Phase effect still
    applies (not the graveyard). In that End Phase B, the only player with a monster, wins."""
    setup = Setup.model_validate({
        "profile": "ocg2008", "turn": 3, "phase": "standby_phase",
        "players": {"A": {"cards": [{"card": "beetle_armor_knight", "zone": "monster"}]},
                    "B": {"lp": 1000, "cards": [{"card": "sage_chiron", "zone": "monster"},
                                                {"card": "last_battle", "zone": "spell_trap", "set_turn": 2}]}}})
    duel = Duel(card_id_uids(setup))
    for action in ("pass", "activate last_battle>sage_chiron", "pass", "pass"):
        duel.apply(action)
    assert duel.where("beetle_armor_knight") == ("A", Zone.graveyard)
    assert duel.where("last_battle") == ("B", Zone.lingering)
    while not duel.is_over:
        offered = [str(a) for a in duel.legal_actions()]
        duel.apply("process last_battle#2" if "process last_battle#2" in offered
                   else "enter_end_phase" if "enter_end_phase" in offered else "pass")
    assert duel.winner == "B" and duel.turn == 3 and duel.in_state("end_phase")


def test_a_lingering_effect_is_gone_the_next_turn() -> None:
    """「このターンのエンドフェイズ時」: an effect of a resolved card applies in that turn only."""
    from ygo_fsm.cards import default_library

    setup = Setup.model_validate({
        "profile": "ocg2008", "turn": 2, "phase": "main_phase_2",
        "players": {"B": {"cards": [{"card": "last_battle", "zone": "lingering"}]}}})
    duel = Duel(card_id_uids(setup), library={"last_battle": default_library()["last_battle"]})
    duel.apply("pass")
    duel.apply("pass")
    duel.apply("pass")                      # End Phase: A passes
    duel.apply("pass")                      # B: it is pending and mandatory
    duel.apply("process last_battle#2")
    assert duel.is_over and duel.winner is None  # neither player controls a monster: a draw
    later = Duel(card_id_uids(Setup.model_validate({
                     "profile": "ocg2008", "turn": 2, "phase": "turn_end",
                     "players": {"B": {"cards": [{"card": "last_battle", "zone": "lingering"}]}}})),
                 library={"last_battle": default_library()["last_battle"]})
    assert later.turn == 3 and later.where("last_battle") == ("B", Zone.graveyard)


def _shipped(*ids: str) -> dict[str, Any]:
    from ygo_fsm.cards import default_library

    return {i: default_library()[i] for i in ids}


def test_a_targeting_effect_does_nothing_once_its_target_is_gone() -> None:
    """000 final 例 style: CHAIN1 「破壊輪」 on a monster that CHAIN2 already destroyed does nothing — no
    damage (an effect whose target is gone is not applied: 「炸裂装甲」不发)."""
    setup = Setup.model_validate({"profile": "ocg2008", "turn": 2, "phase": "main_phase_1", "players": {
        "A": {"cards": [{"card": "sage_chiron", "zone": "monster"}]},
        "B": {"cards": [{"card": "ring_of_destruction", "zone": "spell_trap"},
                        {"card": "ring_of_destruction", "zone": "spell_trap"}]}}})
    duel = Duel(card_id_uids(setup), library=_shipped("sage_chiron", "ring_of_destruction"))
    duel.apply("pass")
    duel.apply("activate ring_of_destruction>sage_chiron")
    duel.apply("pass")
    duel.apply("respond ring_of_destruction_2>sage_chiron")
    duel.apply("pass")
    duel.apply("pass")
    assert (duel.players["A"].lp, duel.players["B"].lp) == (8000 - 1800, 8000 - 1800), "once, not twice"


def test_seven_tools_negates_traps_only() -> None:
    """000 【怪兽通常***…】４ 「盗賊の七つ道具」 (a counter trap negating a trap card's activation) does not
    answer a spell's activation."""
    setup = Setup.model_validate({"profile": "ocg2008", "turn": 2, "phase": "main_phase_1", "players": {
        "A": {"cards": [{"card": "cyclone", "zone": "hand"}]},
        "B": {"cards": [{"card": "seven_tools_of_the_bandit", "zone": "spell_trap"},
                        {"card": "toll", "zone": "spell_trap", "face_up": True}]}}})
    duel = Duel(card_id_uids(setup), library=_shipped("cyclone", "seven_tools_of_the_bandit", "toll"))
    duel.apply("activate cyclone>toll")
    assert "respond seven_tools_of_the_bandit" not in [str(a) for a in duel.legal_actions()]


def test_jougen_forbids_special_summons() -> None:
    """000 ●スタンバイフェイズ 例1: 对方场上有「昇霊術師 ジョウゲン」，自己不能从卡组选择怪兽特殊***."""
    setup = Setup.model_validate({"profile": "ocg2008", "turn": 2, "phase": "main_phase_1", "players": {
        "A": {"cards": [{"card": "cyber_dragon", "zone": "hand"}, {"card": "call_of_the_haunted", "zone": "spell_trap"},
                        {"card": "sage_chiron", "zone": "graveyard"}]},
        "B": {"cards": [{"card": "jougen", "zone": "monster"}]}}})
    duel = Duel(card_id_uids(setup), library=_shipped("cyber_dragon", "call_of_the_haunted", "sage_chiron", "jougen"))
    assert "special_summon" not in {a.name for a in duel.legal_actions()}
    # 「リビングデッドの呼び声」 would special summon: with special summons forbidden it cannot be
    # activated (PR17 pp.133–134: what the resolution does must be possible at activation)
    assert "activate call_of_the_haunted" not in [str(a) for a in duel.legal_actions()]
    with pytest.raises(IllegalActionError, match="不能特殊召唤"):
        duel.apply("activate call_of_the_haunted")
    assert duel.where("sage_chiron") == ("A", Zone.graveyard), "nothing is special summoned"


def test_effects_lasting_until_different_phases_each_end_in_their_own() -> None:
    """000 ●バトルフェイズ【４】『战斗流程结束为止～』 and ●エンドフェイズ【２】『回合结束为止～』: the halving of
    「銀幕の鏡壁」 ends in the End Step, 「突進」's +700 only in the End Phase."""
    setup = Setup.model_validate({"profile": "ocg2008", "turn": 2, "phase": "battle_phase", "players": {
        "A": {"cards": [{"card": "sapphire_dragon", "zone": "monster"}]},
        "B": {"monsters": [{"name": "wall", "atk": 0, "position": "defence"}],
              "cards": [{"card": "silver_screen_mirror_wall", "zone": "spell_trap", "face_up": True},
                        {"card": "rush_recklessly", "zone": "spell_trap"}]}}})
    duel = Duel(card_id_uids(setup),
                library=_shipped("sapphire_dragon", "silver_screen_mirror_wall", "rush_recklessly"))

    def atk() -> int:
        return duel.players["A"].monsters[0].atk

    duel.apply("pass")
    duel.apply("activate rush_recklessly>sapphire_dragon")
    duel.apply("pass")
    duel.apply("pass")
    assert atk() == 2600
    pass_until(duel, "battle_phase.battle_step.turn_player")
    duel.apply("declare_attack sapphire_dragon")
    duel.apply("choose_target b_monster_1")
    assert atk() == 1300
    pass_until(duel, "battle_phase.end_step.turn_player")
    while duel.in_state("battle_phase"):
        offered = [str(a) for a in duel.legal_actions()]
        duel.apply(next((a for a in offered if a.startswith("process")), "pass"))
    assert atk() == 2600, "only the halving has ended"
    assert [e.source for e in duel.expiring] == ["突進"]
