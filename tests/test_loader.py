"""The loader's two validation layers (DESIGN "Layers" 2): every kind of definition error is
reported as a :class:`~ygo_fsm.errors.DefinitionIssue` naming the file, the machine and the
item, on minimal machines written to a temporary directory."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest
import yaml
from conftest import CALLBACK_NAMES, GUARD_NAMES, RULE, label, parent_machine

from ygo_fsm import MachineDefinitionError, Rulebook
from ygo_fsm.errors import DefinitionIssue
from ygo_fsm.loader import load_machines, machines_dir
from ygo_fsm.rules import CALLBACKS, CHOOSERS, GUARDS


def load(directory: Path) -> dict[str, Any]:
    return load_machines(directory, guards=GUARD_NAMES, callbacks=CALLBACK_NAMES)


def issues_of(directory: Path) -> tuple[DefinitionIssue, ...]:
    with pytest.raises(MachineDefinitionError) as caught:
        load(directory)
    error = caught.value
    assert isinstance(error, ValueError)
    assert error.issues, "a definition error carries at least one issue"
    return error.issues


def only_issue(directory: Path) -> DefinitionIssue:
    issues = issues_of(directory)
    assert len(issues) == 1, "\n".join(map(str, issues))
    return issues[0]


def transition(tid: str, source: str, dest: str, *, event: str | None = None, actor: str = "engine",
               **extra: Any) -> dict[str, Any]:
    return {"id": tid, "event": event or tid, "actor": actor, "source": source, "dest": dest,
            "label": label(tid), "rule": RULE, **extra}


def state(sid: str, **extra: Any) -> dict[str, Any]:
    return {"id": sid, "label": label(sid), "rule": RULE, **extra}


# --- the positive controls ------------------------------------------------------------


def test_minimal_machine_loads(fresh_machine, write_machine, tmp_path):
    """The hand-written base machine is valid, so each test below breaks exactly one thing."""
    write_machine(fresh_machine())
    specs = load(tmp_path)
    assert list(specs) == ["mini"]
    assert specs["mini"].state_ids() == ("start", "end")


def test_parent_and_child_load(fresh_machine, write_machine, tmp_path):
    write_machine(fresh_machine())
    write_machine(parent_machine(), name="outer")
    assert set(load(tmp_path)) == {"mini", "outer"}


def test_shipped_machines_load_without_issue():
    """DESIGN: the declared machines are the single source of truth and load cleanly."""
    rulebook = Rulebook.load()
    for machine in ("turn", "draw_phase", "standby_phase", "main_phase", "battle_phase", "end_phase", "priority"):
        assert machine in rulebook.specs
    specs = load_machines(machines_dir(), guards=GUARDS, callbacks=CALLBACKS, choosers=CHOOSERS)
    assert set(specs) == set(rulebook.specs)


def test_design_vocabulary_states_present(rulebook):
    """DESIGN "Vocabulary": the public state ids each machine must have."""
    required = {
        "turn": ["turn_start", "draw_phase", "standby_phase", "main_phase_1", "battle_phase", "main_phase_2",
                 "end_phase", "turn_end"],
        "draw_phase": ["start", "before_draw", "before_draw_window", "normal_draw", "after_draw", "draw_window",
                       "replacement_window", "open", "end"],
        "standby_phase": ["start", "open", "end"],
        "main_phase": ["start", "open", "end"],
        "end_phase": ["start", "open", "hand_size_adjustment", "discard_window", "end"],
        "priority": ["turn_player", "opponent", "closed"],
        "summon_procedure": ["declare", "pay_conditions", "take_out", "negation_window", "success",
                             "apply_continuous", "success_window", "failure_window", "done"],
        "battle_phase": ["start_step", "battle_step", "attack_declaration", "damage_step", "end_step", "end"],
        "attack_declaration": ["declare_attacker", "choose_target", "post_declaration", "declaration_window",
                               "battle_step_priority", "attack_cancelled", "replay", "done"],
        "damage_step": ["start_of_damage_step", "before_damage_calculation", "damage_calculation",
                        "after_damage_calculation", "end_of_damage_step", "done"],
        "chain": ["building", "resolving", "resolved"],
        "trigger_window": ["collect", "build", "chain", "after_chain_window", "closed"],
    }
    for machine, states in required.items():
        declared = rulebook.specs[machine].state_ids()
        missing = [s for s in states if s not in declared]
        assert not missing, f"{machine} lacks {missing}"


# --- layer 1: YAML and schema -------------------------------------------------------------


def test_yaml_syntax_error_names_file_and_line(write_machine, tmp_path):
    path = write_machine("id: mini\nstates: [\n  - id: start\n")
    issue = only_issue(tmp_path)
    assert issue.file == str(path)
    assert issue.machine == "mini"
    assert "YAML" in issue.message
    assert issue.item.startswith("line ")


def test_yaml_python_tag_is_refused_not_executed(write_machine, tmp_path):
    """DESIGN package stack: PyYAML, safe loading only."""
    marker = tmp_path / "executed"
    write_machine(f"!!python/object/apply:os.system ['touch {marker}']\n")
    issue = only_issue(tmp_path)
    assert "YAML" in issue.message
    assert not marker.exists()


def test_file_that_is_not_a_mapping(write_machine, tmp_path):
    path = write_machine("- just\n- a list\n")
    issue = only_issue(tmp_path)
    assert issue.file == str(path)


def test_schema_errors_one_line_per_issue(fresh_machine, write_machine, tmp_path):
    data = fresh_machine()
    data["states"].append(state("spare", final=True))  # keep one valid state
    data["transitions"].append(transition("to_spare", "start", "spare", actor="turn_player"))
    del data["states"][0]["label"]  # missing field
    data["states"][1]["colour"] = "red"  # unknown field
    data["transitions"][0]["id"] = "Go-Now"  # bad id pattern
    path = write_machine(data)
    with pytest.raises(MachineDefinitionError) as caught:
        load(tmp_path)
    issues = caught.value.issues
    assert len(issues) == 3
    lines = str(caught.value).splitlines()
    assert len(lines) == len(issues)
    for line, issue in zip(lines, issues, strict=True):
        assert issue.file == str(path)
        assert issue.machine == "mini"
        assert str(path) in line and "mini" in line and issue.item in line
    items = [issue.item for issue in issues]
    assert any(item.startswith("states[0]") and item.endswith("label") for item in items)
    assert any(item.startswith("states[1]") and item.endswith("colour") for item in items)
    assert any(item.startswith("transitions[0]") and item.endswith(".id") for item in items)


def test_schema_errors_in_every_state_add_no_spurious_length_issue(fresh_machine, write_machine, tmp_path):
    data = fresh_machine()
    del data["states"][0]["label"]
    data["states"][1]["colour"] = "red"
    write_machine(data)
    issues = issues_of(tmp_path)
    assert all(issue.item != "states" for issue in issues), "\n".join(map(str, issues))
    assert len(issues) == 2


def test_schema_missing_field(fresh_machine, write_machine, tmp_path):
    data = fresh_machine()
    del data["initial"]
    path = write_machine(data)
    issue = only_issue(tmp_path)
    assert (issue.file, issue.machine, issue.item) == (str(path), "mini", "initial")


def test_schema_unknown_field(fresh_machine, write_machine, tmp_path):
    data = fresh_machine()
    data["transitions"][0]["priority_order"] = 1
    write_machine(data)
    issue = only_issue(tmp_path)
    assert issue.item.startswith("transitions[0]") and "go" in issue.item
    assert issue.item.endswith("priority_order")


def test_schema_bad_machine_id(fresh_machine, write_machine, tmp_path):
    data = fresh_machine()
    data["id"] = "Main-Phase"
    write_machine(data)
    issue = only_issue(tmp_path)
    assert issue.machine == "Main-Phase"
    assert issue.item == "id"


def test_schema_bad_state_id(fresh_machine, write_machine, tmp_path):
    data = fresh_machine()
    data["states"][1]["id"] = "End Phase"
    write_machine(data)
    issues = issues_of(tmp_path)
    assert any(i.item.startswith("states[1]") and i.item.endswith(".id") for i in issues)


# --- layer 2: domain checks ---------------------------------------------------------------


def test_unknown_dest_state(fresh_machine, write_machine, tmp_path):
    data = fresh_machine()
    data["transitions"][0]["dest"] = "nowhere"
    write_machine(data)
    issues = issues_of(tmp_path)
    hits = [i for i in issues if i.item == "transition go" and "nowhere" in i.message and "dest" in i.message]
    assert hits, "\n".join(map(str, issues))


def test_unknown_source_state(fresh_machine, write_machine, tmp_path):
    data = fresh_machine()
    data["transitions"].append(transition("stray", "elsewhere", "end"))
    write_machine(data)
    issue = only_issue(tmp_path)
    assert issue.item == "transition stray"
    assert "source" in issue.message and "elsewhere" in issue.message


def test_unknown_initial_state(fresh_machine, write_machine, tmp_path):
    data = fresh_machine()
    data["initial"] = "beginning"
    write_machine(data)
    issues = issues_of(tmp_path)
    assert any(i.item == "initial" and "beginning" in i.message for i in issues)


def test_unknown_guard(fresh_machine, write_machine, tmp_path):
    data = fresh_machine()
    data["transitions"][0]["guards"] = ["no_such_guard"]
    write_machine(data)
    issue = only_issue(tmp_path)
    assert issue.item == "transition go"
    assert "guard" in issue.message and "no_such_guard" in issue.message


def test_unknown_unless_guard(fresh_machine, write_machine, tmp_path):
    data = fresh_machine()
    data["transitions"][0]["unless"] = ["no_such_unless"]
    write_machine(data)
    issue = only_issue(tmp_path)
    assert issue.item == "transition go"
    assert "no_such_unless" in issue.message


def test_unknown_callback(fresh_machine, write_machine, tmp_path):
    data = fresh_machine()
    data["transitions"][0]["callbacks"] = ["no_such_callback"]
    write_machine(data)
    issue = only_issue(tmp_path)
    assert issue.item == "transition go"
    assert "callback" in issue.message and "no_such_callback" in issue.message


def test_unreachable_state(fresh_machine, write_machine, tmp_path):
    data = fresh_machine()
    data["states"].append(state("orphan", final=True))
    write_machine(data)
    issue = only_issue(tmp_path)
    assert issue.item == "state orphan"
    assert "unreachable" in issue.message


def test_non_final_state_with_no_way_out(fresh_machine, write_machine, tmp_path):
    data = fresh_machine()
    data["states"].append(state("stuck", priority="turn_player"))
    data["transitions"].append(transition("get_stuck", "start", "stuck", actor="turn_player"))
    write_machine(data)
    issue = only_issue(tmp_path)
    assert issue.item == "state stuck"
    assert "no way out" in issue.message


def test_terminal_state_needs_no_way_out(fresh_machine, write_machine, tmp_path):
    """A terminal state ends the duel (deck-out, 002 ●抽卡阶段【２】): no way out is fine."""
    data = fresh_machine()
    data["states"].append(state("lost", terminal=True))
    data["transitions"].append(transition("lose", "start", "lost", actor="turn_player"))
    write_machine(data)
    assert "mini" in load(tmp_path)


def test_duplicate_state_id(fresh_machine, write_machine, tmp_path):
    data = fresh_machine()
    data["states"].append(state("end", final=True))
    write_machine(data)
    issue = only_issue(tmp_path)
    assert issue.item == "state end"
    assert "duplicate" in issue.message


def test_duplicate_transition_id(fresh_machine, write_machine, tmp_path):
    data = fresh_machine()
    data["transitions"].append(transition("go", "start", "end", event="go_again", actor="turn_player"))
    write_machine(data)
    issue = only_issue(tmp_path)
    assert issue.item == "transition go"
    assert "duplicate" in issue.message


def test_duplicate_machine_id_across_files(fresh_machine, write_machine, tmp_path):
    first = write_machine(fresh_machine(), name="a_first")
    second = write_machine(fresh_machine(), name="b_second")
    issue = only_issue(tmp_path)
    assert issue.machine == "mini"
    assert "duplicate" in issue.message
    assert issue.file == str(second) and str(first) in issue.message


def test_missing_citation(fresh_machine, write_machine, tmp_path):
    data = fresh_machine()
    del data["transitions"][0]["rule"]
    write_machine(data)
    issue = only_issue(tmp_path)
    assert issue.item == "transition go"
    assert "citation" in issue.message


def test_missing_machine_citation(fresh_machine, write_machine, tmp_path):
    data = fresh_machine()
    data["rule"] = "  "
    write_machine(data)
    issue = only_issue(tmp_path)
    assert issue.item == "machine"
    assert "citation" in issue.message


@pytest.mark.parametrize("rule", ["see the rulebook", "0 ●ドローフェイズ", "000●ドローフェイズ"])
def test_malformed_citation(fresh_machine, write_machine, tmp_path, rule):
    """DESIGN: a citation is the seed file (three digits) then the clause marker."""
    data = fresh_machine()
    data["states"][0]["rule"] = rule
    write_machine(data)
    issue = only_issue(tmp_path)
    assert issue.item == "state start"
    assert "citation" in issue.message


def test_unknown_sub_machine(write_machine, tmp_path):
    write_machine(parent_machine(child="nonexistent"), name="outer")
    issue = only_issue(tmp_path)
    assert (issue.machine, issue.item) == ("outer", "state running")
    assert "nonexistent" in issue.message


def test_machine_running_itself(write_machine, tmp_path):
    write_machine(parent_machine(child="outer"), name="outer")
    issue = only_issue(tmp_path)
    assert (issue.machine, issue.item) == ("outer", "state running")
    assert "itself" in issue.message


def test_done_from_state_running_no_machine(fresh_machine, write_machine, tmp_path):
    data = fresh_machine()
    data["transitions"].append(transition("early", "start", "end", event="done"))
    write_machine(data)
    issue = only_issue(tmp_path)
    assert issue.item == "transition early"
    assert "runs no machine" in issue.message


def test_engine_event_other_than_done_from_state_running_machine(fresh_machine, write_machine, tmp_path):
    write_machine(fresh_machine())
    outer = parent_machine()
    outer["transitions"].append(transition("interrupted", "running", "end"))
    write_machine(outer, name="outer")
    issue = only_issue(tmp_path)
    assert (issue.machine, issue.item) == ("outer", "transition interrupted")
    assert "runs a machine" in issue.message


def test_state_running_a_machine_declares_no_priority(fresh_machine, write_machine, tmp_path):
    """Who must act is named by the innermost state that declares a ``priority:`` role
    (:mod:`ygo_fsm.priority`). While a machine runs, the state running it is never the innermost,
    so a role there could never name anyone: the machine's own states say who acts."""
    write_machine(fresh_machine())
    outer = parent_machine()
    outer["states"][0]["priority"] = "turn_player"
    write_machine(outer, name="outer")
    issue = only_issue(tmp_path)
    assert (issue.machine, issue.item) == ("outer", "state running")
    assert "declares priority" in issue.message


def test_player_action_from_state_where_no_player_acts(fresh_machine, write_machine, tmp_path):
    data = fresh_machine()
    del data["states"][0]["priority"]
    write_machine(data)
    issue = only_issue(tmp_path)
    assert issue.item == "transition go"
    assert "no player acts" in issue.message


def test_actor_not_matching_priority_role(fresh_machine, write_machine, tmp_path):
    data = fresh_machine()
    data["transitions"][0]["actor"] = "opponent"
    write_machine(data)
    issue = only_issue(tmp_path)
    assert issue.item == "transition go"
    assert "opponent" in issue.message and "turn_player" in issue.message


def test_sub_machine_with_no_final_state(write_machine, tmp_path):
    child = {
        "id": "endless",
        "label": label("endless"),
        "rule": RULE,
        "initial": "over",
        "states": [state("over", terminal=True)],
    }
    write_machine(child, name="endless")
    write_machine(parent_machine(child="endless"), name="outer")
    issue = only_issue(tmp_path)
    assert (issue.machine, issue.item) == ("outer", "state running")
    assert "endless" in issue.message and "final" in issue.message


def test_transition_leaving_a_final_state(fresh_machine, write_machine, tmp_path):
    """A final state finishes its machine (the parent receives ``done``); nothing leaves it."""
    data = fresh_machine()
    data["transitions"].append(transition("after_the_end", "end", "start"))
    write_machine(data)
    issue = only_issue(tmp_path)
    assert issue.item == "transition after_the_end"
    assert "final" in issue.message


def test_state_both_final_and_terminal(fresh_machine, write_machine, tmp_path):
    data = fresh_machine()
    data["states"][1]["terminal"] = True
    write_machine(data)
    issue = only_issue(tmp_path)
    assert issue.item == "state end"
    assert "final" in issue.message and "terminal" in issue.message


def test_done_taken_by_a_player(fresh_machine, write_machine, tmp_path):
    """``done`` is the engine's event (a sub-machine finished), never a player's action."""
    write_machine(fresh_machine())
    outer = parent_machine()
    outer["transitions"][0]["actor"] = "turn_player"
    write_machine(outer, name="outer")
    issue = only_issue(tmp_path)
    assert (issue.machine, issue.item) == ("outer", "transition finished")
    assert "engine" in issue.message


def test_all_issues_reported_together(fresh_machine, write_machine, tmp_path):
    """Every problem is listed, not just the first."""
    data = fresh_machine()
    data["transitions"][0]["guards"] = ["nope_one"]
    data["transitions"][0]["callbacks"] = ["nope_two"]
    data["states"].append(state("orphan", final=True))
    write_machine(data)
    issues = issues_of(tmp_path)
    messages = "\n".join(i.message for i in issues)
    assert "nope_one" in messages and "nope_two" in messages and "unreachable" in messages
    assert len(str(MachineDefinitionError(issues)).splitlines()) == len(issues)


def test_empty_directory(tmp_path):
    issues = issues_of(tmp_path)
    assert str(tmp_path) in str(issues[0])


def test_broken_copy_of_shipped_machines(tmp_path):
    """Copy the shipped declarations, break one guard name, and the issue names that file,
    machine and transition."""
    target = tmp_path / "machines"
    shutil.copytree(machines_dir(), target)
    path = target / "draw_phase.yaml"
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    broken = data["transitions"][0]
    broken["guards"] = [*broken.get("guards", []), "guard_nobody_wrote"]
    path.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), encoding="utf-8")
    with pytest.raises(MachineDefinitionError) as caught:
        Rulebook.load(target)
    (issue,) = caught.value.issues
    assert issue.file == str(path)
    assert issue.machine == "draw_phase"
    assert issue.item == f"transition {broken['id']}"
    assert "guard_nobody_wrote" in issue.message
