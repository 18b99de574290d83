"""Durations (『…为止』) under each profile: which end by themselves and which their controller
ends in a phase's open game state (ygo_fsm.durations)."""

from __future__ import annotations

import pytest
from helpers import card_spec, library

from ygo_fsm import Duel, Setup
from ygo_fsm.cards import CardSpec


def boost_until(duration: str) -> tuple[CardSpec, CardSpec]:
    """A's normal spell raises its monster's ATK by 500 until ``duration``, played in turn 3."""
    boost = card_spec("boost", "spell", {
        "kind": "normal_spell", "location": "hand", "target": "face_up_monster",
        "resolution": [{"op": "modify_atk", "what": "target", "amount": 500, "until": duration}]})
    return boost, card_spec("mon", "monster")


def play(profile: str, duration: str) -> Duel:
    duel = Duel(Setup.model_validate({
        "profile": profile, "turn": 3, "phase": "main_phase_1",
        "players": {"A": {"cards": [{"card": "boost"}, {"card": "mon", "zone": "monster"}]}}}),
        library=library(*boost_until(duration)))
    duel.apply("activate boost>mon")
    return duel


def walk(duel: Duel, until: str) -> list[str]:
    """Pass (skipping the Battle Phase) until an action starting with ``process`` is offered or the
    duel is in ``until``; the offered ``process`` actions seen on the way."""
    offered: list[str] = []
    for _ in range(80):
        actions = [str(a) for a in duel.legal_actions()]
        offered += [a for a in actions if a.startswith("process")]
        if offered or duel.in_state(until):
            return offered
        duel.apply("pass" if "pass" in actions else "enter_end_phase" if "enter_end_phase" in actions else actions[0])
    raise AssertionError(f"never reached {until}")


@pytest.mark.parametrize("profile", ["modern", "ocg2008"])
def test_until_the_standby_phase_is_ended_by_its_controller_there(profile: str) -> None:
    """『直到下次的准备阶段为止』: 004 says nothing of it; under both profiles its controller ends it in
    the Standby Phase's open game state without a chain link, as 000 ●エンドフェイズ【２】 ends
    『回合结束为止～』 effects (不进入连锁)."""
    duel = play(profile, "standby_phase")
    assert walk(duel, "draw_phase") == []
    assert walk(duel, "main_phase_1") == ["process until_mon"]
    assert duel.turn == 4 and duel.in_state("standby_phase")
    duel.apply("process until_mon")
    assert duel.players["A"].monsters[0].atk == 1000


def test_until_the_end_phase_ends_by_itself_under_modern() -> None:
    """004 ●记载了『直到回合游戏结束时』的效果…手卡调整结束全部的卡的处理终了时为止适用 (『直到结束阶段时』
    reworded so since 2014, 004 *注): nobody ends it; the ATK is back once the turn is over."""
    duel = play("modern", "end_phase")
    assert walk(duel, "draw_phase") == []
    assert duel.turn == 4 and duel.players["A"].monsters[0].atk == 1000


def test_until_the_end_phase_is_ended_by_hand_under_ocg2008() -> None:
    """000 ●エンドフェイズ【２】·『回合结束为止～』『结束流程为止～』的效果结束（不进入连锁）: its
    controller ends it in the End Phase's open game state."""
    duel = play("ocg2008", "end_phase")
    assert walk(duel, "draw_phase") == ["process until_mon"]
    assert duel.turn == 3 and duel.in_state("end_phase")
    assert duel.players["A"].monsters[0].atk == 1500
    duel.apply("process until_mon")
    assert duel.players["A"].monsters[0].atk == 1000
