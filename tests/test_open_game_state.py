"""What the turn player may do only in the open game state, and the window after a position change
(000 ●メインフェイズ１【２】◇回合玩家可以进行的行为; 000 在卡／效果的发动时点内，不能进行的其他行为;
000 ※主要流程1中每次进行了不进入连锁的行为之后，『～时』的发动时点; 000 ●バトルフェイズ【２】).

Summons, position changes and attack declarations are actions of the open game state: while a
chain is being built, or in the timing window after it, the turn player may only activate or
pass. Expected values come from the rule text.
"""

from __future__ import annotations

from typing import Any

import pytest
from helpers import card_spec, judge_duel

from ygo_fsm import Duel, Setup
from ygo_fsm.cards import default_library

VANILLA = card_spec("vanilla", "monster")
QUICK = card_spec("quick", "spell", {"kind": "quick_play_spell", "location": "hand",
                                     "resolution": [{"op": "recover", "amount": 100, "to": "controller"}]})
"""A quick-play spell: activating it starts a chain; after the chain a timing window opens."""
LIB = {**default_library(), "vanilla": VANILLA, "quick": QUICK}


def duel_of(a_cards: list[dict[str, Any]], *, phase: str = "main_phase_1", b_monsters: int = 1) -> Duel:
    setup = Setup.model_validate({
        "profile": "ocg2008", "turn": 3, "phase": phase,
        "players": {"A": {"cards": a_cards},
                    "B": {"monsters": [{"name": f"B{i}", "atk": 3000, "def": 3000} for i in range(b_monsters)]}}})
    return judge_duel(setup, library=LIB)


def names(duel: Duel) -> set[str]:
    return {action.name for action in duel.legal_actions()}


def quick_spells(count: int = 2) -> list[dict[str, Any]]:
    return [{"card": "quick", "zone": "hand"} for _ in range(count)]


FACE_DOWN = {"card": "vanilla", "zone": "monster", "position": "defence", "face_up": False, "set_turn": 2}
"""Set on an earlier turn: it may be flip summoned (000 反转***)."""
FACE_UP = {"card": "vanilla", "zone": "monster", "position": "attack", "set_turn": 2}
"""On the field since an earlier turn: its position may be changed (002 ●主要阶段1【场上怪兽的表示形式变更】)."""
CYBER_DRAGON = {"card": "cyber_dragon", "zone": "hand"}
"""「サイバー・ドラゴン」: special summoned by its own procedure while only the opponent controls monsters."""

CASES = [
    pytest.param("flip_summon", [FACE_DOWN], id="flip_summon"),
    pytest.param("change_position", [FACE_UP], id="change_position"),
    pytest.param("special_summon", [CYBER_DRAGON], id="special_summon"),
]


def chain_confirming_then_window(duel: Duel) -> list[set[str]]:
    """Activate a quick-play spell, let the opponent pass, and return the turn player's actions
    (1) while the chain is being built (the turn player may add a link) and (2) in the timing
    window after the chain resolved."""
    duel.apply("activate quick")
    seen: list[set[str]] = []
    for _ in range(10):
        if duel.priority == duel.turn_player and "pass" in names(duel) and len(names(duel)) > 1:
            seen.append(names(duel))
            if len(seen) == 2:
                return seen
        duel.apply("pass")
    raise AssertionError(f"the turn player never held priority twice; now in {duel.state}")


@pytest.mark.parametrize(("action", "cards"), CASES)
def test_main_phase_action_is_offered_in_the_open_game_state(action: str, cards: list[dict[str, Any]]) -> None:
    """000 ●メインフェイズ１【２】◇回合玩家可以进行的行为: flip summon, special summon by its own procedure and
    a change of battle position are what the turn player may do holding priority in the Main Phase."""
    duel = duel_of([*cards, *quick_spells()])
    assert action in names(duel)


@pytest.mark.parametrize(("action", "cards"), CASES)
def test_main_phase_action_is_withheld_during_a_chain_and_its_window(action: str,
                                                                      cards: list[dict[str, Any]]) -> None:
    """000 ◇回合玩家可以进行的行为 / 000 在卡／效果的发动时点内，不能进行的其他行为: while a chain is being built,
    and in the timing window after it, the turn player may only activate (or pass) — no flip summon,
    special summon by a procedure or change of battle position."""
    duel = duel_of([*cards, *quick_spells()])
    during_chain, in_window = chain_confirming_then_window(duel)
    assert action not in during_chain, "offered while the chain is being built"
    assert action not in in_window, "offered in the timing window after the chain"
    assert {"activate", "respond"} & (during_chain | in_window), "the turn player could activate meanwhile"
    duel.apply("pass")
    duel.apply("pass")
    assert action in names(duel), "offered again once the open game state returns"


def test_declare_attack_is_withheld_during_a_chain_and_its_window() -> None:
    """000 ●バトルフェイズ【２】バトルステップ / 000 在卡／效果的发动时点内，不能进行的其他行为: an attack is
    declared by the turn player holding priority in the Battle Step's open game state, never while a
    chain is being built or in the window after it (ocg2008)."""
    duel = duel_of([FACE_UP, *quick_spells()], phase="battle_phase", b_monsters=0)
    for _ in range(10):
        if "declare_attack" in names(duel):
            break
        duel.apply("pass")
    assert "declare_attack" in names(duel), f"no attack offered in {duel.state}"
    during_chain, in_window = chain_confirming_then_window(duel)
    assert "declare_attack" not in during_chain
    assert "declare_attack" not in in_window
    duel.apply("pass")
    duel.apply("pass")
    assert "declare_attack" in names(duel), "offered again once the open game state returns"


def test_a_position_change_opens_a_timing_window_before_the_next_action() -> None:
    """000 ※主要流程1中每次进行了不进入连锁的行为之后，『～时』的发动时点（时点结束后，回合玩家才能续继进行流程／阶段的
    其他行为）: after changing a monster's battle position a timing window opens; in it the turn player
    may not yet normal summon, and both must pass before the Main Phase goes on."""
    duel = duel_of([FACE_UP, {"card": "vanilla", "zone": "hand"}, *quick_spells(1)])
    assert "normal_summon" in names(duel)
    duel.apply("change_position vanilla")
    assert names(duel) == {"activate", "pass"}, "only the window's actions right after the change"
    duel.apply("pass")
    assert duel.priority == "B", "the opponent may answer in the window"
    duel.apply("pass")
    assert "normal_summon" in names(duel), "the window is over: the turn player goes on"


def test_the_trace_tells_the_new_battle_position() -> None:
    """002 ●主要阶段1【场上怪兽的表示形式变更】: the state trace narrates a position change with the
    position the monster is now in (攻击表示 → 守备表示)."""
    duel = duel_of([FACE_UP])
    duel.apply("change_position vanilla")
    told = [text for record in duel.trace if record.event == "change_position" for text in record.detail]
    assert any("守备表示" in text for text in told), told


def test_a_trap_answering_an_event_waits_for_that_event() -> None:
    """A card that is activated 「…時」 — 「聖なるバリア －ミラーフォース－」, 对方怪兽的攻击宣言时 — is activated only
    at the timing of that event (000 ※卡／效果的发动时点: 『～时』的发动时点; 000 ●バトルフェイズ【２】攻击宣言时的
    发动时点): not with priority in the open game state of the Main Phase, where no attack has
    been declared; it is offered once an opponent's monster declares an attack."""
    setup = Setup.model_validate({"profile": "ocg2008", "turn": 3, "phase": "main_phase_1", "players": {
        "A": {"cards": [FACE_UP]}, "B": {"cards": [{"card": "mirror_force", "zone": "spell_trap"}]}}})
    duel = judge_duel(setup, library=LIB)
    duel.apply("pass")
    assert duel.state == "main_phase_1.open.opponent"
    assert "activate mirror_force" not in [str(a) for a in duel.legal_actions()]
    duel.apply("pass")
    duel.apply("enter_battle_phase")
    for _ in range(10):
        if "declare_attack" in names(duel):
            break
        duel.apply("pass")
    duel.apply("declare_attack vanilla")
    duel.apply("choose_target direct")
    for _ in range(4):
        if duel.priority == "B":
            break
        duel.apply("pass")
    assert "activate mirror_force" in [str(a) for a in duel.legal_actions()]
