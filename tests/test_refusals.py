"""why_not: the real reason for a refusal, with its clause — and none for a legal action."""

from __future__ import annotations

from typing import Any

from helpers import card_spec
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from test_chain_properties import setups

from ygo_fsm import Action, Duel, IllegalActionError, Setup
from ygo_fsm.cards import default_library
from ygo_fsm.game import PLAYERS, card_id_uids, other_player
from ygo_fsm.scenario import player_actions


def duel_of(players: dict[str, Any], *, turn_player: str = "A", phase: str = "main_phase_1", turn: int = 3,
            library: dict[str, Any] | None = None) -> Duel:
    setup = Setup.model_validate({"profile": "ocg2008", "turn": turn, "turn_player": turn_player, "phase": phase,
                                  "players": players})
    return Duel(card_id_uids(setup), library=library)


def refused(duel: Duel, text: str) -> str:
    """The reason why_not gives; apply must refuse with the same reason and change nothing."""
    reason = duel.why_not(text)
    assert reason, f"{text!r} has no reason but should be refused"
    before = duel.copy()
    try:
        duel.apply(text)
    except IllegalActionError as exc:
        assert reason in str(exc)
    else:
        raise AssertionError(f"{text!r} was accepted")
    assert duel == before
    return reason


def test_a_legal_set_has_no_reason() -> None:
    """Setting 「サイクロン」 in the Main Phase is legal (002 ●主要阶段1): why_not says nothing against it."""
    duel = duel_of({"A": {"cards": [{"card": "cyclone"}]}})
    assert "set_spell_trap cyclone" in [str(a) for a in duel.legal_actions()]
    assert duel.why_not("set_spell_trap cyclone") is None
    assert duel.explain_illegal("set_spell_trap cyclone") == "'set_spell_trap cyclone' is legal now"


def test_wrong_player_is_told_who_must_act() -> None:
    """Only the player with priority acts (000 ◇持有优先权的回合玩家可以进行的行为)."""
    duel = duel_of({})
    reason = duel.why_not(Action("pass", "B"))
    assert reason is not None and reason.startswith("B does not hold priority (A must act)") and "000 ◇" in reason


def test_an_action_of_another_state_says_where_it_is() -> None:
    """Entering the Battle Phase is chosen at the end of Main Phase 1 (002 【※下一个阶段的选择】)."""
    reason = refused(duel_of({}), "enter_battle_phase")
    assert reason.startswith("only offered in turn.choose_next_phase")
    assert "main_phase" not in reason.split("only offered in ")[1].split(";")[0]


def test_a_trap_set_this_turn_cannot_be_activated() -> None:
    """002 ●主要阶段1 ◇盖放的陷阱没有经过一回合的话不可以发动."""
    duel = duel_of({"A": {"cards": [{"card": "dark_hole"}, {"card": "jougen", "zone": "monster"}]},
                    "B": {"cards": [{"card": "my_body_as_a_shield", "zone": "spell_trap", "set_turn": 3}]}})
    duel.apply("activate dark_hole")
    reason = refused(duel, "respond my_body_as_a_shield")
    assert "was Set this turn" in reason and "002 ●主要阶段1" in reason


def test_a_cost_that_cannot_be_paid_gives_the_numbers() -> None:
    """「我が身を盾に」 costs 1500 LP; with 1000 LP it cannot be activated (its cost)."""
    duel = duel_of({"A": {"cards": [{"card": "dark_hole"}, {"card": "jougen", "zone": "monster"}]},
                    "B": {"lp": 1000, "cards": [{"card": "my_body_as_a_shield", "zone": "spell_trap",
                                                 "set_turn": 1}]}})
    duel.apply("activate dark_hole")
    assert "cost is 1500 LP and B has 1000" in refused(duel, "respond my_body_as_a_shield")


def test_a_quick_play_spell_in_the_hand_waits_for_its_controllers_turn() -> None:
    """A Quick-Play Spell is activated from the hand only in its controller's turn (Rulebook v7.1 p.18)."""
    duel = duel_of({"A": {"cards": [{"card": "soul_rope", "zone": "spell_trap"}]},
                    "B": {"cards": [{"card": "cyclone"}]}})
    duel.apply("pass")  # B holds priority in A's Main Phase
    reason = refused(duel, "activate cyclone>soul_rope")
    assert "Quick-Play Spell in the hand" in reason and "Rulebook" in reason


def test_no_legal_target() -> None:
    """「サイクロン」 targets a spell/trap card on the field: with none, it cannot be activated."""
    duel = duel_of({"A": {"cards": [{"card": "cyclone"}]}})
    assert "has no legal target" in refused(duel, "activate cyclone")


def test_once_per_turn_used() -> None:
    """An effect used once this turn cannot be used again (the card's text: 1回合1次)."""
    lib = {"oncer": card_spec("oncer", "monster", {"kind": "ignition", "location": "field", "once_per_turn": True,
                                                   "resolution": [{"op": "draw", "amount": 1, "to": "controller"}]})}
    duel = duel_of({"A": {"cards": [{"card": "oncer", "zone": "monster"}]}}, library=lib)
    duel.apply("activate oncer")
    duel.apply("pass")
    duel.apply("pass")
    while duel.state != "main_phase_1.open.turn_player":  # the open game state (an ignition effect's)
        duel.apply("pass")
    assert "already used this turn" in refused(duel, "activate oncer")


def test_a_monster_that_attacked_cannot_attack_again() -> None:
    """002 ●战斗阶段 ◇攻击过一回的自己怪兽，这个战斗阶段中不能再次攻击宣言."""
    duel = duel_of({"A": {"monsters": [{"name": "x", "atk": 1000}]}}, phase="battle_phase")
    while "declare_attack" not in [a.name for a in duel.legal_actions()]:
        duel.apply("pass")
    duel.apply("declare_attack a_monster_1")
    duel.apply("choose_target direct")
    while "declare_attack" not in [a.name for a in duel.legal_actions()] and duel.in_state("battle_phase"):
        if duel.in_state("battle_phase.battle_step") and duel.priority == "A" and duel.attack is None:
            break
        duel.apply("pass")
    assert "already attacked in this Battle Phase [002 ●战斗阶段" in refused(duel, "declare_attack a_monster_1")


def test_the_damage_step_allows_only_some_activations() -> None:
    """004 ●伤害步骤中，基本上即使是得到发动卡的优先权的玩家也不能发动卡片: 「サイクロン」 waits."""
    duel = duel_of({"A": {"monsters": [{"name": "x", "atk": 1000}],
                          "cards": [{"card": "soul_rope", "zone": "spell_trap", "set_turn": 1}]},
                    "B": {"monsters": [{"name": "y", "atk": 500}],
                          "cards": [{"card": "cyclone", "zone": "spell_trap", "set_turn": 1}]}}, phase="battle_phase")
    while "declare_attack" not in [a.name for a in duel.legal_actions()]:
        duel.apply("pass")
    duel.apply("declare_attack a_monster_1")
    duel.apply("choose_target b_monster_1")
    while not (duel.in_state("battle_phase.damage_step") and duel.priority == "B"):
        duel.apply("pass")
    assert "activate cyclone>soul_rope" not in [str(a) for a in duel.legal_actions(judge=True)]
    assert "Damage Step" in refused(duel, "activate cyclone>soul_rope")


def test_full_spell_trap_zones() -> None:
    """Five spell/trap zones at most (002 ●主要阶段1 ※…最多只能放在5个魔法陷阱区域里)."""
    cards = [{"card": "soul_rope", "zone": "spell_trap"} for _ in range(5)] + [{"card": "cyclone"}]
    reason = refused(duel_of({"A": {"cards": cards}}), "set_spell_trap cyclone")
    assert "five spell/trap zones are full" in reason and "002" in reason


def test_a_hidden_card_in_a_reason_is_named_by_its_place() -> None:
    """A reason tells the acting player nothing the options do not: the opponent's Set card is
    named by its place (Look: https://yugipedia.com/wiki/Look)."""
    duel = duel_of({"A": {"cards": [{"card": "mirror_force", "zone": "spell_trap"}]},
                    "B": {"cards": [{"card": "cyclone"}]}})
    duel.apply("pass")
    reason = duel.why_not("activate cyclone>A.spell_trap.1")
    assert reason is not None and "ミラーフォース" not in reason and "mirror_force" not in reason


# --- the property ------------------------------------------------------------------------------

ACTIONS = player_actions(Duel().rulebook)


def _candidates(duel: Duel, data: st.DataObject) -> list[str]:
    uids = [c.uid for p in PLAYERS for _, c in duel.players[p].all_cards()] + ["direct", "A.spell_trap.1"]
    names = data.draw(st.lists(st.sampled_from(ACTIONS), min_size=1, max_size=4), label="names")
    texts = []
    for name in names:
        choice = data.draw(st.one_of(st.none(), st.sampled_from(uids)), label="choice")
        texts.append(f"{name} {choice}" if choice else name)
    return texts


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(setup=setups(), data=st.data())
def test_why_not_is_none_exactly_for_what_apply_accepts(setup: Setup, data: st.DataObject) -> None:
    """Every legal action (as the player sees it and as the judge names it) has no reason; every
    other action text — random names and cards — has one, apply refuses it with that reason,
    and the duel is unchanged."""
    try:
        duel = Duel(card_id_uids(setup), library=default_library())
    except ValueError:  # the shared strategy may put more than five cards in a zone
        assume(False)
        return
    for _ in range(40):
        if duel.is_over:
            assert duel.why_not("pass") == f"the duel is over ({duel.end_reason})"
            break
        legal = duel.legal_actions()
        for action in [*legal, *duel.legal_actions(judge=True)]:
            assert duel.why_not(action) is None, (str(action), duel.why_not(action))
            assert duel.why_not(str(action)) is None
        assert duel.why_not(Action(legal[0].name, other_player(legal[0].player), legal[0].choice))
        for text in _candidates(duel, data):
            trial = duel.copy()
            try:
                trial.apply(text)
            except IllegalActionError as exc:
                reason = duel.why_not(text)
                assert reason and reason in str(exc), (text, reason, str(exc))
                assert trial == duel
            else:
                assert duel.why_not(text) is None, text
        duel.apply(legal[data.draw(st.integers(0, len(legal) - 1), label="action")])
