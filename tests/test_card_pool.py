"""The generic card pool (tests/scenarios/cards/pool.yaml) and its scenarios: cards written only
in YAML, each scenario citing the official rule or seed clause it checks."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import judge_duel

from ygo_fsm import Duel, Setup, continuous
from ygo_fsm.cards import Op, default_library, read_card_file
from ygo_fsm.game import Zone
from ygo_fsm.scenario import load_scenario, run_file

CARDS = Path(__file__).resolve().parent / "scenarios" / "cards"
SCENARIOS = sorted(path for path in CARDS.glob("*.yaml") if path.name != "pool.yaml")


def test_the_pool_is_valid_and_needs_no_python() -> None:
    """Every card of the pool passes the semantic checks and none uses a registered Python resolution."""
    cards, problems = read_card_file(CARDS / "pool.yaml")
    assert problems == []
    assert len(cards) >= 20
    assert not [c.id for c in cards.values() for e in c.effects for op in e.resolution if op.op is Op.callable]


@pytest.mark.parametrize("path", SCENARIOS, ids=[path.name for path in SCENARIOS])
def test_pool_scenario_passes(path: Path) -> None:
    scenario = load_scenario(path)
    assert scenario.library == ["pool.yaml"]
    result = run_file(path, lang="en")
    assert result.passed, result.report()


def test_a_trigger_on_this_card_s_destruction_answers_only_this_card() -> None:
    """Regression: a trigger on "this card is destroyed and sent to the graveyard" answered the
    destruction of any monster (Yugipedia, "Trigger Effect")."""
    result = run_file(CARDS / "this_card_destroyed.yaml", lang="en")
    assert result.passed, result.report()


def test_return_to_hand_of_the_target_returns_the_target() -> None:
    """Regression: ``return_to_hand`` with ``what: target`` returned the effect's own card."""
    result = run_file(CARDS / "return_to_hand_target.yaml", lang="en")
    assert result.passed, result.report()
    assert result.duel is not None and result.duel.where("sudden_recall") is not None
    assert result.duel.where("sudden_recall")[1].value == "graveyard"


def test_change_position_of_the_target_turns_only_the_target() -> None:
    """Regression: ``change_position`` ignored its target and turned every face-up monster."""
    result = run_file(CARDS / "change_position_target.yaml", lang="en")
    assert result.passed, result.report()



def _passes(scenario: str) -> None:
    result = run_file(CARDS / scenario, lang="en")
    assert result.passed, result.report()


def test_up_to_two_targets_are_chosen_on_activation_and_the_rest_still_applies() -> None:
    """Yugipedia "Target": every target is declared on activation and never chosen again; an
    effect on "those cards" applies to the targets still legal."""
    _passes("up_to_two_targets.yaml")


def test_an_effect_counting_its_targets_does_nothing_once_one_is_gone() -> None:
    """Konami rulings for 「貪欲な壺」: 「そのモンスター５体を」 does nothing once one target left the
    graveyard; exactly N targets need N that fit to be activated."""
    _passes("exactly_two_targets.yaml")


def test_the_attacked_monster_battled_once_damage_calculation_was_performed() -> None:
    """Konami Damage Step rules: "battled" needs damage calculation, for the attack target too."""
    _passes("battled_this_turn.yaml")


def test_a_face_up_monster_destroyed_is_not_a_set_one() -> None:
    """"If a face-up monster you control is destroyed" does not answer a Set monster's destruction."""
    _passes("face_up_destroyed.yaml")


def test_a_start_of_the_battle_phase_effect_is_activated_in_the_start_step() -> None:
    """004 ●进行战斗阶段开始时发动和适用的效果的处理: in the Start Step, once; and an End Step effect there."""
    _passes("battle_phase_starts_and_ends.yaml")


def test_a_monster_whose_attack_stopped_on_a_replay_did_not_battle() -> None:
    """Konami Damage Step rules: "attacked" is the declaration, "battled" needs damage calculation."""
    _passes("attacked_but_not_battled.yaml")


def test_a_face_down_monster_turned_face_up_by_an_effect_is_flipped() -> None:
    """Yugipedia "FLIP": flipped face-up by a card effect, its FLIP effect activates; a face-down
    target is not "a face-up monster targeted"."""
    _passes("face_down_target_flipped.yaml")


def _pool_duel(players: dict[str, object]) -> Duel:

    cards, problems = read_card_file(CARDS / "pool.yaml")
    assert problems == []
    setup = Setup.model_validate({"profile": "modern", "turn": 3, "phase": "main_phase_1", "players": players})
    return judge_duel(setup, library={**default_library(), **cards})


def test_every_target_chosen_is_affected_when_all_are_still_there() -> None:
    """Yugipedia, "Target" (every target is declared on activation and the effect affects the cards
    chosen): 「双撃の罠」 on both of A's monsters, nobody responds — both are destroyed, B's stays."""
    duel = _pool_duel({"A": {"hand": 0, "cards": [{"card": "plain_warrior", "zone": "monster"},
                                                  {"card": "plain_beast", "zone": "monster"}]},
                       "B": {"hand": 0, "cards": [{"card": "twin_strike", "zone": "spell_trap"},
                                                  {"card": "plain_dragon", "zone": "monster"}]}})
    for action in ("pass", "activate twin_strike>plain_warrior", "add_target plain_beast", "pass", "pass"):
        duel.apply(action)
    where = duel.where
    assert where("plain_warrior") == ("A", Zone.graveyard) and where("plain_beast") == ("A", Zone.graveyard)
    assert where("plain_dragon") == ("B", Zone.monster)


@pytest.mark.parametrize(("lp", "offered"), [(3999, False), (4000, True)])
def test_an_lp_at_least_condition_holds_from_exactly_that_lp(lp: int, offered: bool) -> None:
    """The card's own activation condition (「墓守の追放者」: 自己基本分4000以上的场合, ``lp_at_least``):
    with 3999 LP its graveyard effect is not offered, with exactly 4000 it is."""
    duel = _pool_duel({"A": {"lp": lp, "hand": 0, "cards": [{"card": "grave_exile", "zone": "graveyard"}]},
                       "B": {"hand": 0, "cards": [{"card": "lasting_banner", "zone": "spell_trap",
                                                   "face_up": True}]}})
    actions = [str(a) for a in duel.legal_actions()]
    assert ("activate grave_exile>lasting_banner" in actions) is offered


def test_a_monster_returned_to_the_hand_comes_back_as_a_new_monster() -> None:
    """004 ●…也视为怪兽数量发生变化 (a monster that left the field and comes back is a new monster):
    「突進」 raises 「通常戦士」 to 2200 until the End Phase; 「急な呼び戻し」 returns it to the hand and
    A summons it again — the raise no longer applies, it has its printed 1500."""
    duel = _pool_duel({"A": {"hand": 0, "cards": [{"card": "plain_warrior", "zone": "monster"},
                                                  {"card": "rush_recklessly", "zone": "hand"},
                                                  {"card": "sudden_recall", "zone": "spell_trap", "set_turn": 1}]},
                       "B": {"hand": 0}})

    def then(action: str) -> None:
        duel.apply(action)
        while duel.state != "main_phase_1.open.turn_player":
            duel.apply("pass")

    then("activate rush_recklessly>plain_warrior")
    warrior = duel.game.find("plain_warrior")
    assert warrior is not None and continuous.atk(duel.game, warrior[2]) == 2200
    then("activate sudden_recall>plain_warrior")
    assert duel.where("plain_warrior") == ("A", Zone.hand)
    then("normal_summon plain_warrior")
    warrior = duel.game.find("plain_warrior")
    assert warrior is not None and warrior[1] is Zone.monster and continuous.atk(duel.game, warrior[2]) == 1500
