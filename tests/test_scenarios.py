"""Scenario files: the worked examples pass, broken files are refused with one line naming
file and item, and failures say which step and field, with the trace tail."""

from __future__ import annotations

import inspect
import re
import textwrap
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ygo_fsm import Duel, ScenarioError, Setup, scenario_play
from ygo_fsm import scenario as scenario_module
from ygo_fsm.scenario import (
    PASS_LIMIT,
    Outcome,
    load_scenario,
    parse_scenario,
    run_file,
    run_scenario,
    scenario_json_schema,
)

SCENARIOS = Path(__file__).resolve().parent / "scenarios"
GOOD = sorted(SCENARIOS.glob("*.yaml"))
RULE = "rule: 004 ●先攻第1回合游戏玩家的抽卡階段不能通常抽卡\n"


def scenario_text(steps: str, setup: str = "") -> str:
    return f"name: inline\n{RULE}{setup}steps:\n{textwrap.indent(textwrap.dedent(steps), '  ')}"


def run_inline(steps: str, setup: str = "", lang: str = "en") -> scenario_module.ScenarioResult:
    return run_scenario(parse_scenario(scenario_text(steps, setup), source="inline.yaml"), lang=lang)


# --- the worked examples --------------------------------------------------------------


def test_the_issue_s_scenarios_exist() -> None:
    names = {path.name for path in GOOD}
    wanted = {"sample_turn.yaml", "modern_first_turn.yaml", "ocg2008_first_turn.yaml", "hand_size.yaml",
              "hand_limit_tablet.yaml", "hand_limit_mist.yaml", "hand_limit_infinite.yaml", "deck_out.yaml",
              "skip_draw_phase.yaml", "skip_standby_phase.yaml", "skip_main_phase_1.yaml",
              "skip_battle_phase.yaml", "cannot_enter_battle_phase.yaml", "skip_turn.yaml"}
    assert wanted <= names


@pytest.mark.parametrize("path", GOOD, ids=[path.name for path in GOOD])
def test_scenario_passes(path: Path) -> None:
    result = run_file(path, lang="en")
    assert result.passed, result.report()
    assert result.exit_code == 0
    assert result.trace, "a scenario plays at least one transition"


@pytest.mark.parametrize("path", GOOD, ids=[path.name for path in GOOD])
def test_scenario_cites_a_seed_clause(path: Path) -> None:
    scenario = load_scenario(path)
    seed, _, clause = scenario.rule.partition(" ")
    assert all(number in {"000", "001", "002", "003", "004"} for number in seed.split("/"))
    assert clause.strip()


# --- broken files ---------------------------------------------------------------------

BROKEN = {
    "bad_yaml.yaml": "line 5",
    "unknown_field.yaml": "steps[1].expect.life_points: unknown field",
    "unknown_action.yaml": "steps[1].expect.legal[1]: unknown action 'win_the_duel_at_once'",
    "unknown_state.yaml": "steps[0].pass_until: unknown state path 'main_phase_3'",
    "missing_rule.yaml": "rule: required field is missing",
    "bad_setup.yaml": "setup.players.A.hand_limit:",
    "unknown_card_uid.yaml": "steps[0].expect: unknown card 'dark_hole'",
}


def test_every_broken_file_is_listed() -> None:
    assert {path.name for path in (SCENARIOS / "broken").glob("*.yaml")} == set(BROKEN)


@pytest.mark.parametrize("name", sorted(BROKEN))
def test_broken_scenario_names_file_and_item(name: str) -> None:
    path = SCENARIOS / "broken" / name
    with pytest.raises(ScenarioError) as caught:
        load_scenario(path)
    message = str(caught.value)
    assert "\n" not in message
    assert message.startswith(f"{path}: ")
    assert BROKEN[name] in message


@pytest.mark.parametrize(
    ("text", "item"),
    [
        ("- a list\n", "(file): expected a mapping"),
        ("name: x\n" + RULE + "steps: []\n", "steps: List should have at least 1 item"),
        ("name: x\n" + RULE + "steps:\n  - {do: pass, expect: {turn: 1}}\n", "steps[0]: a step is a mapping with "
         "exactly one of: do, expect, refuse, pass_until"),
        ("name: x\n" + RULE + "steps:\n  - {frobnicate: 1}\n", "steps[0]: a step is a mapping"),
        ("name: x\n" + RULE + "steps:\n  - {do: 3}\n", "steps[0].do: expected an action name or a list"),
        ("name: x\n" + RULE + "steps:\n  - {do: [pass, nope]}\n", "steps[0].do[1]: unknown action 'nope'"),
        ("name: x\n" + RULE + "steps:\n  - {refuse: pass, by: C}\n", "steps[0].by: Input should be 'A' or 'B'"),
        ("name: x\n" + RULE + "steps:\n  - expect: {lp: {C: 1}}\n", "steps[0].expect.lp.C (key)"),
        ("name: x\n" + RULE + "steps:\n  - expect: {taken: [no_such_transition]}\n",
         "steps[0].expect.taken[0]: unknown transition 'no_such_transition'"),
        ("name: x\n" + RULE + "steps:\n  - expect: {state: main_phase_1.nowhere}\n",
         "steps[0].expect.state: unknown state path"),
        ("name: x\n" + RULE + "setup: {phase: main}\nsteps:\n  - do: pass\n", "setup.phase: unknown phase 'main'"),
        ("name: x\n" + RULE + "setup: {players: {C: {}}}\nsteps:\n  - do: pass\n", "setup: unknown player(s) C"),
        ("name: x\nrule: see the rulebook\nsteps:\n  - do: pass\n", "rule: String should match pattern"),
        ("name: x\n" + RULE + "steps:\n  - do: pass\n    do: pass\n",
         "line 5, column 5: invalid YAML: duplicate key 'do'"),
    ],
)
def test_invalid_scenario_text(text: str, item: str) -> None:
    with pytest.raises(ScenarioError) as caught:
        parse_scenario(text, source="x.yaml")
    message = str(caught.value)
    assert "\n" not in message
    assert message.startswith("x.yaml: ")
    assert item in message


def test_unreadable_file(tmp_path: Path) -> None:
    with pytest.raises(ScenarioError, match="cannot read"):
        load_scenario(tmp_path / "missing.yaml")
    binary = tmp_path / "binary.yaml"
    binary.write_bytes(b"\xff\xfe\x00")
    with pytest.raises(ScenarioError, match=r"binary.yaml: \(file\): cannot read"):
        load_scenario(binary)


def test_several_problems_are_counted_on_one_line() -> None:
    with pytest.raises(ScenarioError) as caught:
        parse_scenario("name: x\nsteps:\n  - expect: {turnn: 1}\n", source="x.yaml")
    assert "(and 1 more problem)" in str(caught.value)


# --- failures and errors ----------------------------------------------------------------


def test_expectation_failure_names_step_field_and_trace_tail() -> None:
    path = SCENARIOS / "failing" / "wrong_hand.yaml"
    result = run_file(path, lang="en")
    assert result.outcome is Outcome.failed
    assert result.exit_code == 1
    assert result.step == 1
    assert result.message == f"{path}: steps[1].expect.hand.A: expected 6, found 5"
    tail = result.trace_tail.splitlines()
    assert 0 < len(tail) <= 8
    assert "First turn: the first player does not draw" in tail[-1]
    report = result.report()
    assert report.startswith(result.message)
    assert "First turn: the first player does not draw" in report
    assert result.report_detail().startswith("steps[1].expect.hand.A")


def test_unexpected_illegal_action_is_an_error() -> None:
    path = SCENARIOS / "failing" / "unexpected_illegal_action.yaml"
    result = run_file(path)
    assert result.outcome is Outcome.error
    assert result.exit_code == 2
    assert result.step == 1
    assert result.message.startswith(f"{path}: steps[1].do[2]: illegal action 'enter_battle_phase' in end_phase.open")
    assert "legal: pass" in result.message


def test_every_mismatch_is_reported() -> None:
    result = run_inline("""
        - do: [pass, pass]
        - expect: {state: main_phase_1, priority: B, turn: 2, turn_player: B, lp: {A: 100}, deck: {B: 1},
                   graveyard: {A: 3}, winner: A, over: true, legal: [discard], not_legal: [pass]}
    """)
    assert result.outcome is Outcome.failed
    for part in ("steps[1].expect.state: expected main_phase_1, found draw_phase.open.turn_player",
                 "steps[1].expect.priority: expected B, found A",
                 "steps[1].expect.turn: expected 2, found 1",
                 "steps[1].expect.turn_player: expected B, found A",
                 "steps[1].expect.lp.A: expected 100, found 8000",
                 "steps[1].expect.deck.B: expected 1, found 35",
                 "steps[1].expect.graveyard.A: expected 3, found 0",
                 "steps[1].expect.winner: expected A, found the duel is not over",
                 "steps[1].expect.over: expected over, found not over",
                 "steps[1].expect.legal[0]: expected 'discard' to be offered",
                 "steps[1].expect.not_legal[0]: expected 'pass' not to be offered"):
        assert part in result.message


def test_taken_looks_at_the_trace_since_the_previous_expect() -> None:
    passed = run_inline("""
        - do: [pass, pass]
        - expect: {taken: [first_turn_no_draw, draw_phase.before_draw_applied], not_taken: [card_drawn]}
        - do: [pass, pass]
        - expect: {taken: [draw_phase_over], not_taken: [first_turn_no_draw]}
    """)
    assert passed.passed, passed.report()
    failed = run_inline("""
        - do: [pass, pass]
        - expect: {}
        - do: [pass, pass]
        - expect: {taken: [first_turn_no_draw]}
    """)
    assert failed.step == 3
    assert "steps[3].expect.taken[0]: expected transition 'first_turn_no_draw'" in failed.message


def test_by_must_be_the_player_who_acts() -> None:
    result = run_inline("- {do: pass, by: B}\n")
    assert result.outcome is Outcome.error
    assert "steps[0].do: illegal action 'pass'" in result.message
    assert "B does not hold priority (A must act)" in result.message


def test_refuse() -> None:
    assert run_inline("""
        - refuse: discard
        - {refuse: pass, by: B}
        - expect: {priority: A, state: draw_phase.before_draw_window.turn_player}
    """).passed
    offered = run_inline("- refuse: pass\n")
    assert offered.outcome is Outcome.failed
    assert "steps[0].refuse: expected 'pass' to be refused, but it is offered to A" in offered.message
    reason = run_inline("- {refuse: pass, by: B, reason: first_turn}\n")
    assert reason.outcome is Outcome.failed
    assert "steps[0].reason: expected the refusal to mention 'first_turn'" in reason.message
    assert run_inline("- {refuse: pass, by: B, reason: does not hold priority}\n").passed


def test_refusal_reason_names_who_must_act() -> None:
    result = run_inline("""
        - pass_until: choose_next_phase
        - {refuse: enter_battle_phase, by: A, reason: A does not hold priority (B must act)}
        - {do: enter_battle_phase, by: B}
    """, setup="setup: {turn: 2, turn_player: B}\n")
    assert result.passed, result.report()


def test_pass_until() -> None:
    assert run_inline("- pass_until: draw_phase\n- expect: {turn: 1, state: draw_phase.before_draw_window}\n").passed
    choice = run_inline("- pass_until: battle_phase\n", setup="setup: {turn: 2, turn_player: B}\n")
    assert choice.outcome is Outcome.failed
    assert ("steps[0].pass_until: in choose_next_phase B must choose (enter_battle_phase, enter_end_phase)"
            in choice.message)
    over = run_inline("- pass_until: standby_phase\n", setup="setup: {turn: 2, players: {A: {deck: 0}}}\n")
    assert over.outcome is Outcome.failed
    assert "the duel ended in draw_phase.deck_out (deck_out, winner B)" in over.message


def test_pass_until_gives_up(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(scenario_play, "PASS_LIMIT", 3)
    result = run_inline("- pass_until: end_phase\n")
    assert result.outcome is Outcome.failed
    assert "end_phase not reached within 3 passes" in result.message
    assert PASS_LIMIT == 500


def test_priority_null_and_winner() -> None:
    result = run_inline("""
        - do: [pass, pass]
        - expect: {over: true, winner: B, priority: null, state: draw_phase.deck_out}
    """, setup="setup: {profile: ocg2008, players: {A: {deck: 0}}}\n")
    assert result.passed, result.report()
    draw = run_inline("- do: [pass, pass]\n- expect: {winner: draw}\n",
                      setup="setup: {profile: ocg2008, players: {A: {deck: 0}}}\n")
    assert "steps[1].expect.winner: expected draw, found B" in draw.message


def test_trace_tail_language() -> None:
    result = run_inline("- do: pass\n- expect: {turn: 9}\n", lang="zh")
    assert "回合玩家 A" in result.trace_tail


# --- the format reference -----------------------------------------------------------------


def _docstring_example() -> str:
    doc = inspect.getdoc(scenario_module) or ""
    match = re.search(r"::\n\n(.*?)\n\nEvery step may also carry", doc, re.S)
    assert match, "the module docstring holds the format example"
    return textwrap.dedent(match.group(1))


def test_the_documented_example_is_a_valid_scenario() -> None:
    scenario = parse_scenario(_docstring_example(), source="docstring")
    assert [type(step).__name__ for step in scenario.steps] == [
        "DoStep", "DoStep", "DoStep", "DoStep", "DoStep", "ExpectStep", "RefuseStep", "PassUntilStep"]
    assert {c.card for c in scenario.setup.players["B"].cards} >= {"jougen", "last_battle"}


def test_json_schema() -> None:
    schema = scenario_json_schema()
    assert schema["$schema"].startswith("https://json-schema.org/")
    assert {"name", "rule", "steps"} <= set(schema["required"])
    assert schema["additionalProperties"] is False
    definitions = schema["$defs"]
    assert {"DoStep", "ExpectStep", "RefuseStep", "PassUntilStep", "Expectation", "Setup"} <= set(definitions)
    assert set(definitions["Expectation"]["properties"]) >= {
        "state", "priority", "legal", "not_legal", "winner", "chain", "resolved", "cards", "attack"}


# --- a property: a recorded random walk replays as a passing scenario --------------------


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    profile=st.sampled_from(["modern", "ocg2008"]),
    hand=st.integers(0, 9),
    choices=st.lists(st.integers(0, 3), max_size=80),
)
def test_random_walk_replays(profile: str, hand: int, choices: list[int]) -> None:
    setup = Setup.model_validate({"profile": profile, "players": {"A": {"hand": hand}, "B": {"deck": 2}}})
    duel = Duel(setup)
    lines = []
    for choice in choices:
        legal = duel.legal_actions()
        if not legal:
            break
        action = legal[choice % len(legal)]
        duel.apply(action)
        lines.append(f"  - {{do: {action.name}, by: {action.player}}}")
    priority = duel.priority or "null"
    lines.append(f"  - expect: {{state: {duel.state}, turn: {duel.turn}, turn_player: {duel.turn_player}, "
                 f"priority: {priority}, over: {str(duel.is_over).lower()}, "
                 f"hand: {{A: {duel.players['A'].hand}, B: {duel.players['B'].hand}}}, "
                 f"graveyard: {{A: {duel.players['A'].graveyard}}}, deck: {{B: {duel.players['B'].deck}}}}}")
    text = (f"name: walk\n{RULE}setup: {setup.model_dump_json(by_alias=True)}\nsteps:\n" + "\n".join(lines) + "\n")
    result = run_scenario(parse_scenario(text, source="walk.yaml"))
    assert result.passed, result.report()
    assert result.trace == duel.trace


# --- option items cannot pass vacuously (issue 7) ---------------------------------------------

_CYCLONE_IN_DRAW_WINDOW = """\
setup:
  profile: ocg2008
  turn: 5
  phase: draw_phase
  players:
    A: {cards: [{card: cyclone, zone: hand}]}
    B: {cards: [{card: soul_rope, zone: spell_trap, uid: b_set_trap}]}
"""
"""000 ●ドローフェイズ【情况Ａ】: in the 『抽卡时』 window 「サイクロン」 is offered only with its target."""


def test_an_option_item_names_the_options_of_that_card() -> None:
    """`activate cyclone` names `activate cyclone>b_set_trap`: `legal` holds, `not_legal` fails."""
    steps = "- do: [pass, pass]\n- expect: {state: draw_phase.draw_window, legal: [activate cyclone]}\n"
    assert run_inline(steps, setup=_CYCLONE_IN_DRAW_WINDOW).passed
    vacuous = run_inline("- do: [pass, pass]\n- expect: {not_legal: [activate cyclone]}\n",
                         setup=_CYCLONE_IN_DRAW_WINDOW)
    assert vacuous.outcome is Outcome.failed
    assert "steps[1].expect.not_legal[0]: expected 'activate cyclone' not to be offered" in vacuous.message


def test_a_refuse_item_without_the_target_fails_when_a_targeted_option_is_offered() -> None:
    result = run_inline("- do: [pass, pass]\n- refuse: activate cyclone\n", setup=_CYCLONE_IN_DRAW_WINDOW)
    assert result.outcome is Outcome.failed
    assert "steps[1].refuse: expected 'activate cyclone' to be refused, but it is offered to A" in result.message


def test_an_option_item_does_not_name_another_card_sharing_its_prefix() -> None:
    """`activate cyclon` is not `activate cyclone>…`; `activate cyclone>b_set` is not `…>b_set_trap`."""
    steps = "- do: [pass, pass]\n- expect: {not_legal: [activate cyclon, activate cyclone>b_set]}\n"
    assert run_inline(steps, setup=_CYCLONE_IN_DRAW_WINDOW).passed
