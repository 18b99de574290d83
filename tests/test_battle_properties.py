"""Property tests of the Battle Phase with no cards: random monsters, random legal play.

Clauses: 000 ●バトルフェイズ【１】–【５】 (the Battle Phase always goes Start Step → Battle Step /
End Step → its end; 004 ●双方玩家互相放弃发动卡的优先权，结束步骤终了后，开始进行主要阶段2); 002 ●战斗阶段
(each monster attacks once per Battle Phase, so the attacks are finitely many); 004 伤害计算 (battle
damage only ever takes LP away; with no cards nothing gives LP back).
"""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from ygo_fsm import Duel, Setup

ACTIONS_PER_ATTACK = 20
"""Generous upper bound of the actions one attack takes with no cards: declare, choose the target,
two passes in the declaration window, two in the Battle Step, two in each of the five Damage Step
parts (16 in all)."""
ACTIONS_WITHOUT_ATTACKS = 10
"""Start Step, Battle Step and End Step: two passes each (6)."""

positions = st.sampled_from([("attack", True), ("defence", True), ("defence", False)])


@st.composite
def monster(draw: st.DrawFn) -> dict[str, Any]:
    position, face_up = draw(positions)
    return {"name": "M", "atk": draw(st.integers(0, 3000)), "def": draw(st.integers(0, 3000)),
            "position": position, "face_up": face_up}


sides = st.lists(monster(), min_size=0, max_size=3)


@settings(max_examples=40, deadline=None)
@given(data=st.data(), a=sides, b=sides, profile=st.sampled_from(["ocg2008", "modern"]),
       turn_player=st.sampled_from(["A", "B"]), lp=st.integers(1, 8000))
def test_random_battle_phase_ends_without_getting_stuck_and_lp_never_increases(
        data: st.DataObject, a: list, b: list, profile: str, turn_player: str, lp: int) -> None:
    """000 ●バトルフェイズ【１】–【５】; 002 ●战斗阶段 (一个怪兽可以攻击一回 per Battle Phase); 004 伤害计算:
    from the Start Step, any sequence of legal actions reaches Main Phase 2 (or the end of the duel)
    within a bound set by the number of monsters that can attack; a legal action always exists on the
    way; no LP ever goes up; no monster declares a second attack."""
    setup = Setup.model_validate({"profile": profile, "turn": 3, "turn_player": turn_player,
                                  "phase": "battle_phase",
                                  "players": {"A": {"lp": lp, "monsters": a}, "B": {"lp": lp, "monsters": b}}})
    duel = Duel(setup)
    attackers = len([m for m in (a if turn_player == "A" else b) if m["position"] == "attack"])
    bound = ACTIONS_WITHOUT_ATTACKS + ACTIONS_PER_ATTACK * attackers
    declared: list[str] = []
    for _ in range(bound):
        if duel.is_over or duel.in_state("main_phase_2"):
            break
        assert duel.in_state("battle_phase"), duel.state
        legal = duel.legal_actions()
        assert legal, f"stuck in {duel.state}"
        before = {p: duel.players[p].lp for p in ("A", "B")}
        # actions before "pass", so that the simplest draws (which Hypothesis favours) attack
        action = data.draw(st.sampled_from(sorted(legal, key=lambda act: act.name == "pass")))
        if action.name == "declare_attack":
            declared.append(action.choice or "")
        duel.apply(action)
        for p in ("A", "B"):
            assert duel.players[p].lp <= before[p], f"{p}'s LP increased after {action}"
            assert duel.players[p].lp >= 0
    assert duel.is_over or duel.in_state("main_phase_2"), f"Battle Phase not over within {bound}: {duel.state}"
    assert len(declared) == len(set(declared)), f"a monster attacked twice: {declared}"
    assert len(declared) <= attackers
    if duel.is_over:
        assert duel.winner is not None and duel.players[duel.winner].lp > 0
        assert duel.players["A" if duel.winner == "B" else "B"].lp == 0
