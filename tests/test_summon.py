"""The summon procedure (000 【怪兽通常***、反转***、特殊***的处理（不进入连锁）】, *** = 召喚,
steps 1–7, 情况Ａ/Ｂ) and the Main Phase rules around summons and battle positions
(002 ●主要阶段1, ●主要阶段2; 004 主要阶段2).

Each test cites the clause it checks. Cards the shipped library lacks are built here with
``CardSpec.model_validate``; expected values come from the rule text, never from engine output.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest
from helpers import card_spec

from ygo_fsm import Duel, Setup
from ygo_fsm.cards import CardSpec, default_library
from ygo_fsm.game import Position, Zone, card_id_uids
from ygo_fsm.state import CardInstance

# --- building duels ---------------------------------------------------------------------------


spec = card_spec


VANILLA = spec("vanilla", "monster")
"""A level 4 monster: no tribute (000 ２ only level 5+ needs tributes)."""
FODDER = spec("fodder", "monster", level=3)
LEVEL5 = spec("level5", "monster", level=5, atk=2000)
LEVEL6 = spec("level6", "monster", level=6, atk=2200)
LEVEL7 = spec("level7", "monster", level=7, atk=2500)
LEVEL8 = spec("level8", "monster", level=8, atk=2800)

CRITTER = spec("critter", "monster", {
    "kind": "trigger", "mandatory": True, "location": "graveyard", "events": ["monster_sent_to_graveyard"],
    "resolution": [{"op": "draw", "amount": 1, "to": "controller"}]}, level=3)
"""「クリッター」-like: a mandatory trigger when a monster is sent to the graveyard."""
PETEN = spec("peten", "monster", {
    "kind": "trigger", "location": "graveyard", "events": ["monster_sent_to_graveyard"],
    "resolution": [{"op": "draw", "amount": 1, "to": "controller"}]}, level=3)
"""「闇・道化師のペーテン」-like: an optional trigger when a monster is sent to the graveyard."""
DESTROYED_WATCHER = spec("destroyed_watcher", "monster", {
    "kind": "trigger", "mandatory": True, "location": "field", "events": ["destroyed"],
    "resolution": [{"op": "damage", "amount": 100, "to": "opponent"}]})
"""A mandatory trigger responding to any monster being destroyed."""
SENT_WATCHER = spec("sent_watcher", "monster", {
    "kind": "trigger", "mandatory": True, "location": "field", "events": ["monster_sent_to_graveyard"],
    "resolution": [{"op": "damage", "amount": 100, "to": "opponent"}]})
"""A mandatory trigger responding to any monster being sent to the graveyard."""
OWN_SUMMON = spec("own_summon", "spell", {
    "kind": "quick_play_spell", "location": "hand",
    "resolution": [{"op": "special_summon", "what": "vanilla", "from": "hand"}]})
"""A quick-play spell that special summons 「vanilla」 from the hand."""
MASS_DESTRUCTION = spec("mass_destruction", "spell", {
    "kind": "quick_play_spell", "location": "hand", "resolution": [{"op": "destroy", "what": "all_monsters"}]})


def library(*cards: CardSpec) -> dict[str, CardSpec]:
    lib = dict(default_library())
    lib.update({card.id: card for card in cards})
    return lib


LIB = library(VANILLA, FODDER, LEVEL5, LEVEL6, LEVEL7, LEVEL8, CRITTER, PETEN, DESTROYED_WATCHER, SENT_WATCHER,
              MASS_DESTRUCTION, OWN_SUMMON)


def at(card_id: str, zone: str = "hand", **extra: Any) -> dict[str, Any]:
    return {"card": card_id, "zone": zone, **extra}


def set_trap(card_id: str) -> dict[str, Any]:
    """A trap Set on turn 2, so it may be activated on turn 3 (002 盖放的陷阱没有经过一回合的话不可以发动)."""
    return at(card_id, "spell_trap", set_turn=2)


def face_down(card_id: str, set_turn: int = 2) -> dict[str, Any]:
    return at(card_id, "monster", position="defence", face_up=False, set_turn=set_turn)


def duel_of(a: Sequence[dict[str, Any]] = (), b: Sequence[dict[str, Any]] = (), *, phase: str = "main_phase_1",
            turn: int = 3, profile: str = "ocg2008", lib: dict[str, CardSpec] | None = None) -> Duel:
    setup = Setup.model_validate({"profile": profile, "turn": turn, "phase": phase,
                                  "players": {"A": {"cards": list(a)}, "B": {"cards": list(b)}}})
    return Duel(card_id_uids(setup), library=LIB if lib is None else lib)


def options(duel: Duel, name: str) -> set[str]:
    return {a.choice for a in duel.legal_actions() if a.name == name and a.choice}


def names(duel: Duel) -> set[str]:
    return {a.name for a in duel.legal_actions()}


def summon_path(duel: Duel, since: int) -> list[str]:
    """The states of ``summon_procedure`` visited since trace index ``since`` (declare first)."""
    records = [r for r in duel.trace[since:] if r.machine == "summon_procedure"]
    assert records, "no summon_procedure transition"
    return [records[0].source, *(r.dest for r in records)]


def pass_through_summon(duel: Duel, limit: int = 30) -> None:
    """Pass (whoever must act) until the summon procedure is over."""
    for _ in range(limit):
        if not duel.in_state("main_phase_1.summon") and not duel.in_state("main_phase_2.summon"):
            return
        duel.apply("pass")
    raise AssertionError(f"summon not over; now in {duel.state}")


def summon(duel: Duel, action: str, *tributes: str) -> int:
    """Apply a summon action, pay the tributes, pass through the windows; return the trace index before."""
    start = len(duel.trace)
    duel.apply(action)
    for uid in tributes:
        duel.apply(f"tribute {uid}")
    pass_through_summon(duel)
    return start


def monster(duel: Duel, uid: str) -> CardInstance:
    found = [m for p in duel.players.values() for m in p.monsters if m.uid == uid]
    assert found, f"{uid} is not on the field"
    return found[0]


FULL_PATH = ["declare", "pay_conditions", "take_out", "negation_window", "success", "apply_continuous",
             "success_window", "done"]
"""000 【情况Ａ】: 1 declare, 2 pay the conditions, 3 take out, 4 negation window, 5 success,
6 continuous effects, 7 the window; then the procedure is over."""


# --- steps 1–7 for each kind of summon ------------------------------------------------------------


def test_normal_summon_passes_steps_1_to_7_and_lands_face_up_attack() -> None:
    """000 【怪兽通常***…】１–４, 【情况Ａ】５–７: a normal summon (表侧表示通常召唤) goes through every
    step; the monster lands face-up (表侧) — the summon puts it in Attack Position."""
    duel = duel_of([at("vanilla")])
    start = summon(duel, "normal_summon vanilla")
    assert summon_path(duel, start) == FULL_PATH
    card = monster(duel, "vanilla")
    assert duel.where("vanilla") == ("A", Zone.monster)
    assert card.face_up and card.position is Position.attack
    assert duel.state == "main_phase_1.open.turn_player"


@pytest.mark.parametrize("card_id", ["level5", "level6"])
def test_level_5_and_6_need_one_tribute(card_id: str) -> None:
    """000 【怪兽通常***…】２ 等级5以上的怪兽通常***的祭品: level 5–6 need one tribute. With one
    monster it is offered; the tribute is paid in step 2 and the summon then goes on."""
    duel = duel_of([at(card_id), at("fodder", "monster")])
    assert card_id in options(duel, "normal_summon")
    start = len(duel.trace)
    duel.apply(f"normal_summon {card_id}")
    assert duel.state == "main_phase_1.summon.pay_conditions"
    assert options(duel, "tribute") == {"fodder"}
    duel.apply("tribute fodder")
    assert "tribute" not in names(duel), "one tribute is enough for level 5–6"
    pass_through_summon(duel)
    path = summon_path(duel, start)
    assert path == ["declare", "pay_conditions", "pay_conditions", *FULL_PATH[2:]]
    assert duel.where("fodder") == ("A", Zone.graveyard)
    assert duel.where(card_id) == ("A", Zone.monster)


@pytest.mark.parametrize("card_id", ["level5", "level6", "level7", "level8"])
def test_tribute_summon_not_offered_without_monsters(card_id: str) -> None:
    """000 ２ / 002 ●主要阶段1 生祭召唤: with no monster to tribute, a level 5+ monster can be neither
    normal summoned nor Set."""
    duel = duel_of([at(card_id)])
    assert card_id not in options(duel, "normal_summon")
    assert card_id not in options(duel, "set_monster")


@pytest.mark.parametrize("card_id", ["level7", "level8"])
def test_level_7_or_more_not_offered_with_only_one_monster(card_id: str) -> None:
    """000 ２: level 7+ needs two tributes; one monster is not enough."""
    duel = duel_of([at(card_id), at("fodder", "monster")])
    assert card_id not in options(duel, "normal_summon")
    assert card_id not in options(duel, "set_monster")


def test_level_7_needs_two_tributes_tribute_offered_until_enough() -> None:
    """000 ２: level 7+ needs two tributes; ``tribute`` stays offered (and the procedure stays in
    step 2) until both are paid; only the summoning player's own monsters can be tributed."""
    duel = duel_of([at("level7"), at("fodder", "monster", uid="f1"), at("fodder", "monster", uid="f2"),
                    at("fodder", "monster", uid="f3")], [at("vanilla", "monster")])
    start = len(duel.trace)
    duel.apply("normal_summon level7")
    assert options(duel, "tribute") == {"f1", "f2", "f3"}
    duel.apply("tribute f2")
    assert duel.state == "main_phase_1.summon.pay_conditions"
    assert options(duel, "tribute") == {"f1", "f3"}
    duel.apply("tribute f3")
    assert "tribute" not in names(duel)
    pass_through_summon(duel)
    assert summon_path(duel, start) == ["declare", "pay_conditions", "pay_conditions", "pay_conditions",
                                        *FULL_PATH[2:]]
    assert {duel.where("f2"), duel.where("f3")} == {("A", Zone.graveyard)}
    assert duel.where("f1") == ("A", Zone.monster)
    assert duel.where("vanilla") == ("B", Zone.monster)
    assert duel.where("level7") == ("A", Zone.monster)


def test_tributes_are_not_destroyed() -> None:
    """000 ２ a tribute is a cost of the summon, not destruction: 『破坏』 is not recorded for it."""
    duel = duel_of([at("level5"), at("fodder", "monster")])
    summon(duel, "normal_summon level5", "fodder")
    assert duel.where("fodder") == ("A", Zone.graveyard)
    assert duel.players["A"].graveyard_cards[0].destroyed_turn is None


def test_set_skips_the_negation_window_and_lands_face_down_defence() -> None:
    """000 【怪兽通常***…】３ 里侧表示通常***的场合不公开 / ４: a Set is not revealed, so there is no
    summon to negate — no negation window; the monster lands face-down in Defense Position
    (通常***：…里侧表示通常***（SET）)."""
    duel = duel_of([at("vanilla")], [set_trap("solemn_judgment")])
    start = summon(duel, "set_monster vanilla")
    path = summon_path(duel, start)
    assert path == ["declare", "pay_conditions", "take_out", "success", "apply_continuous", "success_window", "done"]
    assert "negation_window" not in path
    card = monster(duel, "vanilla")
    assert not card.face_up and card.position is Position.defence
    assert card.set_turn == duel.turn


def test_set_of_a_level_5_monster_also_needs_a_tribute() -> None:
    """000 通常***：…里侧表示通常***（SET）is a normal summon: its conditions (２ 祭品) are the same."""
    duel = duel_of([at("level5"), at("fodder", "monster")])
    duel.apply("set_monster level5")
    assert duel.state == "main_phase_1.summon.pay_conditions"
    assert options(duel, "tribute") == {"fodder"}
    duel.apply("tribute fodder")
    pass_through_summon(duel)
    card = monster(duel, "level5")
    assert not card.face_up and card.position is Position.defence


def test_flip_summon_of_a_monster_set_on_an_earlier_turn() -> None:
    """000 反转***：回合主动把里侧守备表示的怪兽的表示形式改变为表侧攻击表示; it goes through every
    step (000 １–７) and the monster ends face-up in Attack Position."""
    duel = duel_of([face_down("vanilla", set_turn=2)])
    assert "vanilla" in options(duel, "flip_summon")
    assert "vanilla" not in options(duel, "change_position"), "a Set monster turned face-up attack is a flip summon"
    start = summon(duel, "flip_summon vanilla")
    assert summon_path(duel, start) == FULL_PATH
    card = monster(duel, "vanilla")
    assert card.face_up and card.position is Position.attack


@pytest.mark.parametrize("how", ["placed", "set_this_turn"])
def test_no_flip_summon_the_turn_the_monster_was_set(how: str) -> None:
    """002 ●主要阶段1 反转召唤 (a Set monster is flip summoned from a later turn; like Set cards,
    002 盖放的…没有经过一回合的话不可以): a monster Set this turn cannot be flip summoned."""
    if how == "placed":
        duel = duel_of([face_down("vanilla", set_turn=3)])
    else:
        duel = duel_of([at("vanilla")])
        summon(duel, "set_monster vanilla")
    assert "vanilla" not in options(duel, "flip_summon")


def test_cyber_dragon_special_summon_by_its_own_procedure() -> None:
    """000 特殊***：「サイバー・ドラゴン」…等可以用特殊***的方式出场的怪兽 (the opponent controls a monster
    and you control none): offered, through steps 1–7, and it lands face-up."""
    duel = duel_of([at("cyber_dragon")], [at("vanilla", "monster")])
    assert "cyber_dragon" in options(duel, "special_summon")
    start = summon(duel, "special_summon cyber_dragon")
    assert summon_path(duel, start) == FULL_PATH
    assert duel.where("cyber_dragon") == ("A", Zone.monster)
    assert monster(duel, "cyber_dragon").face_up


@pytest.mark.parametrize(("mine", "theirs"), [([], []), ([at("fodder", "monster")], [at("vanilla", "monster")]),
                                              ([at("fodder", "monster")], [])])
def test_cyber_dragon_procedure_needs_opponent_monster_and_none_of_yours(mine: list, theirs: list) -> None:
    """「サイバー・ドラゴン」's own procedure: only when the opponent controls a monster and you control none."""
    duel = duel_of([at("cyber_dragon"), *mine], theirs)
    assert "cyber_dragon" not in options(duel, "special_summon")


def test_special_summon_only_monster_cannot_be_normal_summoned() -> None:
    """000 特殊***：「青眼の光龍」等条件***怪兽: a monster that can only be special summoned is never
    normal summoned or Set, even with tributes available."""
    duel = duel_of([at("blue_eyes_shining_dragon"), at("fodder", "monster", uid="f1"),
                    at("fodder", "monster", uid="f2")])
    assert "blue_eyes_shining_dragon" not in options(duel, "normal_summon")
    assert "blue_eyes_shining_dragon" not in options(duel, "set_monster")


# --- 情况Ｂ: the summon is negated -----------------------------------------------------------------


def test_negated_summon_goes_to_failure_window_and_graveyard_not_destroyed() -> None:
    """000 ４「神の宣告」 / 【情况Ｂ】: the negated summon fails (failure window, not steps 5–7 of
    情况Ａ); ·***被无效的怪兽，不被视为从任何地方破坏送去墓地 — it is in the graveyard but was not
    destroyed, and 「クリッター」等 (triggers on destruction / on leaving the field) do not activate."""
    duel = duel_of([at("vanilla")], [set_trap("solemn_judgment"), at("destroyed_watcher", "monster"),
                                     at("sent_watcher", "monster")])
    start = len(duel.trace)
    duel.apply("normal_summon vanilla")
    assert duel.state == "main_phase_1.summon.negation_window.turn_player"
    duel.apply("pass")
    assert "solemn_judgment" in options(duel, "activate")
    duel.apply("activate solemn_judgment")
    assert duel.players["B"].lp == 4000, "「神の宣告」: pay half of the LP"
    seen_activations = set()
    for _ in range(20):
        if not duel.in_state("main_phase_1.summon"):
            break
        seen_activations |= options(duel, "activate")
        duel.apply("pass")
    path = summon_path(duel, start)
    assert path == ["declare", "pay_conditions", "take_out", "negation_window", "failure_window", "done"]
    assert duel.where("vanilla") == ("A", Zone.graveyard)
    card = duel.players["A"].graveyard_cards[-1]
    assert card.uid == "vanilla" and card.destroyed_turn is None
    assert not {"destroyed_watcher", "sent_watcher"} & seen_activations
    assert duel.players["A"].lp == 8000, "no watcher's trigger resolved"


@pytest.mark.parametrize(("kind", "mine", "theirs", "uid"), [
    ("flip_summon", [face_down("vanilla")], [], "vanilla"),
    ("special_summon", [at("cyber_dragon")], [at("fodder", "monster")], "cyber_dragon"),
])
def test_flip_and_special_summons_can_be_negated_too(kind: str, mine: list, theirs: list, uid: str) -> None:
    """000 ４ 无效***的卡 (「神の宣告」) / 【情况Ｂ】 apply to 反转*** and 特殊*** as well (【怪兽通常***、反转***、
    特殊***的处理】): the summon fails and the monster goes to the graveyard, not destroyed."""
    duel = duel_of(mine, [set_trap("solemn_judgment"), *theirs])
    start = len(duel.trace)
    duel.apply(f"{kind} {uid}")
    duel.apply("pass")
    duel.apply("activate solemn_judgment")
    pass_through_summon(duel)
    assert summon_path(duel, start) == ["declare", "pay_conditions", "take_out", "negation_window", "failure_window",
                                        "done"]
    assert duel.where(uid) == ("A", Zone.graveyard)
    assert duel.players["A"].graveyard_cards[-1].destroyed_turn is None


def test_monster_taken_out_is_in_no_location_during_the_negation_window() -> None:
    """000 【怪兽通常***…】３ 从要进行通常***（手卡）…的地方取出要***的怪兽…·取出的怪兽，直到出场前，这段时间内
    视为不在任何地方: in step 4 the monster being normal summoned is no longer in the hand."""
    duel = duel_of([at("vanilla")])
    hand = duel.players["A"].hand
    duel.apply("normal_summon vanilla")
    assert duel.state.startswith("main_phase_1.summon.negation_window")
    assert duel.where("vanilla") != ("A", Zone.hand)
    assert duel.players["A"].hand == hand - 1


def test_summon_negation_can_itself_be_negated_by_a_counter_trap() -> None:
    """000 ４ 2. ·「神の宣告」…发动的场合，「盗賊の七つ道具」「王宮の陥落」等反击陷阱: the summoning player
    answers with a counter trap; 「神の宣告」 is negated and the summon succeeds (情况Ａ)."""
    duel = duel_of([at("vanilla"), set_trap("seven_tools_of_the_bandit")], [set_trap("solemn_judgment")])
    start = len(duel.trace)
    duel.apply("normal_summon vanilla")
    duel.apply("pass")
    duel.apply("activate solemn_judgment")
    assert options(duel, "respond") == {"seven_tools_of_the_bandit"}
    duel.apply("respond seven_tools_of_the_bandit")
    pass_through_summon(duel)
    assert summon_path(duel, start) == FULL_PATH
    assert duel.where("vanilla") == ("A", Zone.monster)


def test_only_summon_negating_cards_start_chain1_in_the_negation_window() -> None:
    """000 ４ ※无效***的卡没有发动的场合，「サイクロン」「砂塵の大竜巻」等没有特定发动时点的卡不能作为CHAIN1
    发动: in the negation window 「神の宣告」 is offered but 「サイクロン」 is not; in step 7's window
    (no such restriction) 「サイクロン」 may start CHAIN1."""
    duel = duel_of([at("vanilla"), set_trap("mirror_force")],
                   [set_trap("solemn_judgment"), at("cyclone", "spell_trap", set_turn=2)])
    duel.apply("normal_summon vanilla")
    duel.apply("pass")
    assert duel.state == "main_phase_1.summon.negation_window.opponent"
    offered = options(duel, "activate")
    assert "solemn_judgment" in offered
    assert not any(key.startswith("cyclone") for key in offered)
    duel.apply("pass")
    assert duel.state.startswith("main_phase_1.summon.success_window")
    while duel.priority != "B":
        duel.apply("pass")
    assert any(key.startswith("cyclone") for key in options(duel, "activate"))


# --- triggers met in step 2 ---------------------------------------------------------------------


def _tribute_critter_and_peten(negate: bool) -> tuple[Duel, list[tuple[str, set[str], set[str]]]]:
    """Summon 「level7」 tributing 「critter」 and 「peten」; pass through; note per state the
    ``activate`` and ``decline`` options of whoever must act."""
    b = [set_trap("solemn_judgment")] if negate else []
    duel = duel_of([at("level7"), at("critter", "monster"), at("peten", "monster")], b)
    duel.apply("normal_summon level7")
    duel.apply("tribute critter")
    duel.apply("tribute peten")
    seen: list[tuple[str, set[str], set[str]]] = []
    for _ in range(30):
        if not duel.in_state("main_phase_1.summon"):
            break
        seen.append((duel.state, options(duel, "activate"), {a.name for a in duel.legal_actions()}))
        acts = [str(a) for a in duel.legal_actions()]
        if negate and "activate solemn_judgment" in acts:
            duel.apply("activate solemn_judgment")
        elif "activate critter" in acts:
            duel.apply("activate critter")
        else:
            duel.apply("pass")
    return duel, seen


def test_mandatory_trigger_met_in_step_2_activates_in_step_7_optional_does_not() -> None:
    """000 【怪兽通常***…】２·此时满足发动条件的「クリッター」…等必须发动的诱发效果在***怪兽出场后的
    『通常***…成功时』的发动时点发动; ·此时满足发动条件的「闇・道化师のペーテン」等任意发动的诱发效果不会发动."""
    duel, seen = _tribute_critter_and_peten(negate=False)
    critter_states = [state for state, acts, _ in seen if "critter" in acts]
    assert critter_states, "the mandatory trigger met while paying the tributes must activate"
    assert all(".success_window." in state for state in critter_states)
    build = [(state, names_) for state, acts, names_ in seen if "critter" in acts]
    assert all("decline" not in names_ for _, names_ in build), "a mandatory trigger cannot be declined"
    assert not any("peten" in acts for _, acts, _ in seen)
    assert not any("critter" in acts for state, acts, _ in seen if ".negation_window." in state)
    assert [uid for _, _, uid, _ in duel.resolutions] == ["critter"]
    assert duel.where("level7") == ("A", Zone.monster)


def test_mandatory_trigger_met_in_step_2_activates_in_the_failure_window() -> None:
    """000 【情况Ｂ】５ 通常***…失败的发动时点: 「クリッター」…等在***成功前满足发动条件的必须发动的诱发效果."""
    duel, seen = _tribute_critter_and_peten(negate=True)
    critter_states = [state for state, acts, _ in seen if "critter" in acts]
    assert critter_states and all(".failure_window." in state for state in critter_states)
    assert not any("peten" in acts for _, acts, _ in seen)
    assert duel.where("level7") == ("A", Zone.graveyard)


def test_control_optional_trigger_activates_when_its_event_is_not_a_summon_cost() -> None:
    """Control for the test above (000 ※每次连锁处理结束后的发动时点 — triggers met during a chain may be
    activated after it): outside step 2 the same optional 「peten」 trigger is offered."""
    duel = duel_of([at("mass_destruction"), at("critter", "monster"), at("peten", "monster")])
    duel.apply("activate mass_destruction")
    offered: set[str] = set()
    for _ in range(10):
        offered |= options(duel, "activate")
        if "critter" in offered and "peten" in offered:
            break
        acts = [str(a) for a in duel.legal_actions()]
        duel.apply("activate critter" if "activate critter" in acts else "pass")
    assert {"critter", "peten"} <= offered


# --- once per turn normal summon / set --------------------------------------------------------------


@pytest.mark.parametrize("first", ["normal_summon", "set_monster"])
def test_one_normal_summon_or_set_per_turn(first: str) -> None:
    """002 ●主要阶段1「通常召唤」1回合可以进行一次的召唤、生祭召唤; 000 通常***：表侧表示通常***（***）、
    里侧表示通常***（SET）— a Set is the turn's normal summon too."""
    duel = duel_of([at("vanilla", uid="v1"), at("vanilla", uid="v2")])
    assert options(duel, "normal_summon") == {"v1", "v2"} == options(duel, "set_monster")
    summon(duel, f"{first} v1")
    assert "normal_summon" not in names(duel)
    assert "set_monster" not in names(duel)


def test_special_and_flip_summons_do_not_use_the_normal_summon() -> None:
    """002 ●主要阶段1「特殊召唤」1回合可以进行任意次;「反转召唤」1回合可以进行任意次: neither uses the
    once-per-turn normal summon."""
    duel = duel_of([at("cyber_dragon"), at("vanilla")], [at("fodder", "monster")])
    summon(duel, "special_summon cyber_dragon")
    assert "vanilla" in options(duel, "normal_summon")
    duel = duel_of([face_down("fodder"), at("vanilla")])
    summon(duel, "flip_summon fodder")
    assert "vanilla" in options(duel, "normal_summon")


def _to_main_phase_2(duel: Duel) -> None:
    for _ in range(40):
        if duel.in_state("main_phase_2.open.turn_player"):
            return
        acts = [a.name for a in duel.legal_actions()]
        duel.apply("enter_battle_phase" if "enter_battle_phase" in acts else "pass")
    raise AssertionError(duel.state)


def test_normal_summon_used_in_main_phase_1_not_again_in_main_phase_2() -> None:
    """002 ●主要阶段2·主要阶段1中进行过一回合一次的通常召唤的场合，不能再次通常召唤 (004 the same)."""
    duel = duel_of([at("vanilla", uid="v1"), at("vanilla", uid="v2")])
    summon(duel, "normal_summon v1")
    _to_main_phase_2(duel)
    assert "normal_summon" not in names(duel) and "set_monster" not in names(duel)


def test_normal_summon_unused_in_main_phase_1_allowed_in_main_phase_2() -> None:
    """002 ●主要阶段2 限制一回合1次的行动在主要阶段1没有进行的场合，可以在此时进行."""
    duel = duel_of([at("vanilla")])
    _to_main_phase_2(duel)
    assert "vanilla" in options(duel, "normal_summon")


# --- battle positions -------------------------------------------------------------------------------


def test_position_change_once_per_turn_and_never_face_down() -> None:
    """002 ●主要阶段1【场上怪兽的表示形式变更】在主要阶段可以变更表示形式一次; 不可以变为里侧表示."""
    duel = duel_of([at("vanilla", "monster")])
    assert "vanilla" in options(duel, "change_position")
    duel.apply("change_position vanilla")
    pass_until_open(duel)
    card = monster(duel, "vanilla")
    assert card.position is Position.defence and card.face_up
    assert "vanilla" not in options(duel, "change_position")


def pass_until_open(duel: Duel) -> None:
    for _ in range(10):
        if duel.state.endswith(".open.turn_player"):
            return
        duel.apply("pass")
    raise AssertionError(duel.state)


def test_no_position_change_for_the_second_time_in_main_phase_2() -> None:
    """002 ●主要阶段2·…表示形式变更过的怪兽…不能表示形式变更."""
    duel = duel_of([at("vanilla", "monster")])
    duel.apply("change_position vanilla")
    pass_until_open(duel)
    _to_main_phase_2(duel)
    assert "vanilla" not in options(duel, "change_position")


@pytest.mark.parametrize("action", ["normal_summon", "special_summon"])
def test_no_position_change_the_turn_the_monster_was_summoned(action: str) -> None:
    """002 ●主要阶段1 该回合出场的怪兽，不可以在此回合变更表示形式 (主要阶段2 the same): the summoned
    monster is not offered, in Main Phase 1 or 2."""
    if action == "normal_summon":
        duel = duel_of([at("vanilla")])
        summon(duel, "normal_summon vanilla")
        uid = "vanilla"
    else:
        duel = duel_of([at("cyber_dragon")], [at("fodder", "monster")])
        summon(duel, "special_summon cyber_dragon")
        uid = "cyber_dragon"
    assert uid not in options(duel, "change_position")
    _to_main_phase_2(duel)
    assert uid not in options(duel, "change_position")


def _resolve_in_main_phase(duel: Duel, key: str) -> None:
    duel.apply(f"activate {key}")
    pass_until_open(duel)


@pytest.mark.parametrize(("cards", "key"), [
    ([set_trap("call_of_the_haunted"), at("vanilla", "graveyard")], "call_of_the_haunted"),
    ([at("own_summon"), at("vanilla")], "own_summon"),
], ids=["call_of_the_haunted", "quick_play_spell"])
def test_no_position_change_the_turn_a_card_effect_special_summoned_it(cards: list, key: str) -> None:
    """002 ●主要阶段1 该回合出场的怪兽，不可以在此回合变更表示形式 — 出场 by any summon, also a special summon
    by a card's effect."""
    duel = duel_of(cards)
    _resolve_in_main_phase(duel, key)
    assert duel.where("vanilla") == ("A", Zone.monster)
    assert "vanilla" not in options(duel, "change_position")


def test_position_change_by_an_effect_does_not_use_the_once_per_turn_change() -> None:
    """002 ●主要阶段1 在主要阶段可以变更表示形式一次（不包括因为效果变更的次数）: after 「重力解除」 changed the
    monster's position, its controller may still change it once."""
    duel = duel_of([at("vanilla", "monster"), set_trap("zero_gravity")])
    _resolve_in_main_phase(duel, "zero_gravity")
    assert monster(duel, "vanilla").position is Position.defence
    assert "vanilla" in options(duel, "change_position")
    duel.apply("change_position vanilla")
    pass_until_open(duel)
    assert monster(duel, "vanilla").position is Position.attack
    assert "vanilla" not in options(duel, "change_position")


def test_no_position_change_after_a_flip_summon() -> None:
    """002 ●主要阶段1【怪兽的召唤】「反转召唤」（表示形式的变更）: a flip summon is the monster's position
    change this turn, so it cannot change again."""
    duel = duel_of([face_down("vanilla")])
    summon(duel, "flip_summon vanilla")
    assert "vanilla" not in options(duel, "change_position")


def test_no_position_change_after_attacking() -> None:
    """002 ●战斗阶段◇参加了攻击的怪兽，这个回合不能因为玩家的意思变更表示形式; ●主要阶段2 战斗阶段攻击过的
    怪兽，不能表示形式变更. A monster that did not attack still may."""
    duel = duel_of([at("vanilla", "monster", uid="attacker"), at("vanilla", "monster", uid="idle")],
                   phase="battle_phase")
    for _ in range(40):
        acts = [str(a) for a in duel.legal_actions()]
        if "declare_attack attacker" in acts:
            duel.apply("declare_attack attacker")
        elif "choose_target direct" in acts:
            duel.apply("choose_target direct")
        elif duel.in_state("main_phase_2.open.turn_player"):
            break
        else:
            duel.apply("pass")
    assert duel.players["B"].lp == 7000, "the direct attack happened"
    assert duel.in_state("main_phase_2.open.turn_player")
    offered = options(duel, "change_position")
    assert "attacker" not in offered
    assert "idle" in offered


def test_five_monster_zones() -> None:
    """002 ●主要阶段1 / 000: a player has five monster zones — no normal summon, and no special summon
    by an effect, while all five are used."""
    setup = Setup.model_validate({
        "profile": "ocg2008", "turn": 3, "phase": "main_phase_1",
        "players": {"A": {"monsters": [{"name": f"M{i}", "atk": 100} for i in range(5)],
                          "cards": [{"card": "rogue_mercenaries", "zone": "hand"}]}}})
    duel = Duel(card_id_uids(setup))
    assert "normal_summon" not in {action.name for action in duel.legal_actions()}
