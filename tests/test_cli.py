"""The ``ygo-fsm`` command line, called in-process: output and exit codes 0 / 1 / 2."""

from __future__ import annotations

import importlib.util
import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from ygo_fsm import MachineDefinitionError, Rulebook, default_rulebook
from ygo_fsm.cli import main
from ygo_fsm.loader import machines_dir
from ygo_fsm.scenario import run_file
from ygo_fsm.trace import narrate, read_jsonl, story

ROOT = Path(__file__).resolve().parent.parent
SCENARIOS = ROOT / "tests" / "scenarios"
SAMPLE = SCENARIOS / "sample_turn.yaml"
FAILING = SCENARIOS / "failing" / "wrong_hand.yaml"
ILLEGAL = SCENARIOS / "failing" / "unexpected_illegal_action.yaml"
BROKEN = SCENARIOS / "broken" / "unknown_field.yaml"

needs_render = pytest.mark.skipif(importlib.util.find_spec("ygo_fsm.render") is None,
                                  reason="ygo_fsm.render is not there yet")
needs_dot = pytest.mark.skipif(shutil.which("dot") is None, reason="Graphviz 'dot' not installed")


def run_cli(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    captured = capsys.readouterr()
    assert "Traceback" not in captured.err
    return code, captured.out, captured.err


# --- check ------------------------------------------------------------------------------


def test_check_ok(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run_cli(capsys, "check")
    specs = default_rulebook().specs.values()
    states = sum(len(spec.states) for spec in specs)
    transitions = sum(len(spec.transitions) for spec in specs)
    assert (code, err) == (0, "")
    assert out == f"ok: {len(specs)} machines, {states} states, {transitions} transitions\n"


def _broken_machines(tmp_path: Path) -> Path:
    directory = tmp_path / "machines"
    shutil.copytree(machines_dir(), directory)
    path = directory / "standby_phase.yaml"
    text = path.read_text(encoding="utf-8")
    text = text.replace("guards: [standby_phase_skip_applies]", "guards: [no_such_guard]", 1)
    text = text.replace("dest: end\n", "dest: nowhere\n", 1)
    path.write_text(text, encoding="utf-8")
    return directory


def test_check_broken_machines(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    directory = _broken_machines(tmp_path)
    with pytest.raises(MachineDefinitionError) as caught:
        Rulebook.load(directory)
    code, out, err = run_cli(capsys, "check", "--machines", str(directory))
    assert code == 2
    assert out == ""
    lines = err.splitlines()
    assert lines == [str(issue) for issue in caught.value.issues]
    assert len(lines) >= 2
    for line in lines:
        assert line.startswith(f"{directory / 'standby_phase.yaml'}: machine standby_phase: ")
    assert any("unknown guard 'no_such_guard'" in line for line in lines)
    assert any("unknown dest state 'nowhere'" in line for line in lines)


def test_check_bad_yaml_and_empty_dir(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    directory = tmp_path / "machines"
    shutil.copytree(machines_dir(), directory)
    (directory / "turn.yaml").write_text("id: turn\nstates: [\n", encoding="utf-8")
    code, _, err = run_cli(capsys, "check", "--machines", str(directory))
    assert code == 2
    assert "turn.yaml: machine turn: line" in err and "invalid YAML" in err
    code, _, err = run_cli(capsys, "check", "--machines", str(tmp_path / "empty"))
    assert code == 2
    assert "no machine declarations" in err


# --- list and explain -------------------------------------------------------------------------


def test_list(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run_cli(capsys, "list", "--lang", "en")
    assert code == 0
    for spec in default_rulebook().specs.values():
        assert f"{spec.id} — {spec.label.en}" in out
        for state in spec.states:
            assert f"    {state.id}" in out
    assert "main_phase_1" in out and "Main Phase 1" in out
    code, out, _ = run_cli(capsys, "list")
    assert code == 0 and "主要流程1" in out


def test_explain_full_path(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run_cli(capsys, "explain", "main_phase_1.open.turn_player")
    assert (code, err) == (0, "")
    assert "state turn_player of machine priority" in out
    assert "持有优先权的回合玩家" in out and "Turn player holds priority" in out
    assert "rule: 000 ●ドローフェイズ【３】" in out
    assert "who must act: the turn player" in out
    assert "pass (turn player) → opponent" in out
    assert "path: turn.main_phase_1 › main_phase.open › priority.turn_player" in out
    assert "the opponent: nothing; the turn player must act here" in out


def test_explain_machine_state_with_guards_and_callbacks(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run_cli(capsys, "explain", "end_phase.hand_size_adjustment", "--lang", "en")
    assert code == 0
    assert ("discard (turn player) [hand_over_limit ∧ discard_choice_completes] / discard_to_hand_limit "
            "→ discard_window") in out
    assert ("discard (turn player) [hand_over_limit ∧ ¬discard_choice_completes] / choose_discard "
            "→ hand_size_adjustment") in out  # 000 【３】: the cards are chosen one at a time
    assert "hand_within_limit (engine) [¬hand_over_limit] → end" in out
    assert "discard [hand_over_limit ∧ discard_choice_completes] → discard_window" in out
    assert "en: Hand size adjustment" in out
    assert "zh: " not in out  # --lang en


def test_explain_unique_state_id(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run_cli(capsys, "explain", "choose_next_phase")
    assert code == 0
    assert "[¬first_turn_forbids_battle_phase ∧ ¬battle_phase_skip_applies ∧ ¬battle_phase_cannot_be_entered]" in out
    assert "battle_phase_unavailable (engine) [first_turn_forbids_battle_phase] → end_phase" in out
    assert "004 ●先攻第1回合游戏玩家不能进行战斗阶段" in out


def test_explain_state_running_priority(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run_cli(capsys, "explain", "main_phase.open", "--lang", "en")
    assert code == 0
    assert "runs machine: priority" in out
    assert "the turn player acts or passes first, then the opponent acts or passes" in out
    assert "priority.turn_player (the turn player): pass → opponent" in out
    assert "pass [¬turn_player_has_pending_effects ∧ ¬opponent_has_pending_effects] → closed" in out


def test_explain_terminal_state(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run_cli(capsys, "explain", "draw_phase.deck_out", "--lang", "zh")
    assert code == 0
    assert "terminal: the duel ends here" in out
    assert "transitions out: none" in out


@pytest.mark.parametrize(("state", "message"), [
    ("nowhere", "explain: unknown state 'nowhere'"),
    ("main_phase_1.nowhere", "explain: unknown state 'main_phase_1.nowhere'"),
    ("open", "explain: state 'open' is in several machines; give one of: draw_phase.open"),
])
def test_explain_unknown(capsys: pytest.CaptureFixture[str], state: str, message: str) -> None:
    code, out, err = run_cli(capsys, "explain", state)
    assert code == 2
    assert out == ""
    assert err.count("\n") == 1
    assert err.startswith(message)


@needs_render
def test_explain_dot(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run_cli(capsys, "explain", "end_phase.discard_window", "--dot", "--lang", "en")
    assert code == 0
    assert 'digraph "end_phase"' in out


# --- render -------------------------------------------------------------------------------


@needs_render
def test_render_text_only(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    from ygo_fsm.loader import load_guard_sentences
    from ygo_fsm.render import render_all

    out_dir = tmp_path / "diagrams"
    (out_dir).mkdir()
    (out_dir / "gone_machine.dot").write_text("// Generated by ygo-fsm from machine 'gone_machine'\n")
    (out_dir / "mine.svg").write_text("<svg/>\n")
    code, out, err = run_cli(capsys, "render", "--out", str(out_dir), "--no-svg")
    assert (code, err) == (0, "")
    expected = render_all(list(default_rulebook().specs.values()), svg=False, sentences=load_guard_sentences())
    for name, text in expected.items():
        assert (out_dir / name).read_text(encoding="utf-8") == text
        assert str(out_dir / name) in out
    assert (out_dir / "turn.dot").exists() and (out_dir / "turn.mmd").exists() and (out_dir / "README.md").exists()
    assert not (out_dir / "turn.svg").exists()
    assert not (out_dir / "gone_machine.dot").exists(), "a stale generated file is removed"
    assert (out_dir / "mine.svg").exists(), "a file ygo-fsm did not generate is kept"


@needs_render
@needs_dot
def test_render_svg(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code, _, _ = run_cli(capsys, "render", "--out", str(tmp_path), "--lang", "en")
    assert code == 0
    for machine in default_rulebook().specs:
        assert (tmp_path / f"{machine}.svg").read_text(encoding="utf-8").lstrip().startswith("<?xml")


@needs_render
def test_render_without_dot(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                            monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("ygo_fsm.cli.shutil.which", lambda name: None)
    code, out, err = run_cli(capsys, "render", "--out", str(tmp_path / "d"))
    assert code == 2
    assert out == ""
    assert err.count("\n") == 1 and "install Graphviz" in err
    assert not (tmp_path / "d").exists()


# --- run ----------------------------------------------------------------------------------


def test_run_pass(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run_cli(capsys, "run", str(SAMPLE))
    assert (code, err) == (0, "")
    assert out.startswith(f"PASS {SAMPLE} — Sample turns")


def test_run_directory_and_quiet(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run_cli(capsys, "run", str(SCENARIOS))
    assert code == 0
    count = len(list(SCENARIOS.glob("*.yaml")))
    assert out.count("PASS ") == count
    assert out.splitlines()[-1] == f"{count} scenarios: {count} passed, 0 failed, 0 invalid or in error"
    code, out, err = run_cli(capsys, "run", "--quiet", str(SCENARIOS))
    assert (code, out, err) == (0, "", "")


def test_run_failing_expectation(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run_cli(capsys, "run", "--lang", "en", str(FAILING))
    assert code == 1
    assert err == ""
    first, *rest = out.splitlines()
    assert first == f"FAIL {FAILING} — Deliberately failing expectation: steps[1].expect.hand.A: expected 6, found 5"
    assert rest[0] == "  last transitions:"
    assert "First turn: the first player does not draw" in rest[-1]


def test_run_invalid_file(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run_cli(capsys, "run", str(BROKEN))
    assert code == 2
    assert out == ""
    assert err == f"{BROKEN}: steps[1].expect.life_points: unknown field\n"


@pytest.mark.parametrize("path", sorted((SCENARIOS / "broken").glob("*.yaml")), ids=lambda p: p.name)
def test_run_every_broken_file(capsys: pytest.CaptureFixture[str], path: Path) -> None:
    code, _, err = run_cli(capsys, "run", str(path))
    assert code == 2
    assert err.count("\n") == 1 and err.startswith(f"{path}: ")


def test_run_unexpected_illegal_action(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run_cli(capsys, "run", str(ILLEGAL))
    assert code == 2
    assert out == ""
    assert err.count("\n") == 1
    assert err.startswith(f"ERROR {ILLEGAL} — Deliberately illegal action: steps[1].do[2]: "
                          "illegal action 'enter_battle_phase'")


def test_run_missing_file(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code, _, err = run_cli(capsys, "run", str(tmp_path / "nope.yaml"))
    assert code == 2
    assert err.startswith(f"{tmp_path / 'nope.yaml'}: (file): cannot read")


def test_run_worst_outcome_wins(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run_cli(capsys, "run", str(SAMPLE), str(FAILING))
    assert code == 1
    assert out.splitlines()[-1] == "2 scenarios: 1 passed, 1 failed, 0 invalid or in error"
    code, _, _ = run_cli(capsys, "run", str(FAILING), str(BROKEN), str(SAMPLE))
    assert code == 2


def test_run_narrate(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run_cli(capsys, "run", "--narrate", "--lang", "en", str(SAMPLE))
    assert code == 0
    result = run_file(SAMPLE)
    narration = narrate(result.trace, default_rulebook().specs, lang="en")
    assert narration in out
    assert "Turn 2 (turn player B)" in out
    code, out, _ = run_cli(capsys, "run", "--narrate", str(SAMPLE))
    assert "第2回合（回合玩家 B）" in out


def test_run_trace_then_narrate_round_trip(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    trace = tmp_path / "sample.jsonl"
    code, _, _ = run_cli(capsys, "run", "--trace", str(trace), str(SAMPLE))
    assert code == 0
    records = read_jsonl(trace)
    assert tuple(records) == run_file(SAMPLE).trace
    header, *lines = trace.read_text(encoding="utf-8").splitlines()
    assert json.loads(header)["format"] == "ygo-fsm/trace"  # the setup, so narrate and a replay need nothing else
    for line in lines:
        assert set(json.loads(line)) >= {"seq", "turn", "machine", "source", "dest", "event", "actor",
                                          "priority", "chain", "rule"}
    code, out, err = run_cli(capsys, "narrate", str(trace), "--lang", "en")
    assert (code, err) == (0, "")
    assert out == narrate(records, default_rulebook().specs, lang="en")


def test_run_trace_of_several_scenarios_writes_one_file_each(capsys: pytest.CaptureFixture[str],
                                                             tmp_path: Path) -> None:
    out_dir = tmp_path / "traces"
    code, _, _ = run_cli(capsys, "run", "--trace", str(out_dir), str(FAILING), str(SAMPLE))
    assert code == 1
    assert sorted(p.name for p in out_dir.iterdir()) == ["sample_turn.jsonl", "wrong_hand.jsonl"]
    assert tuple(read_jsonl(out_dir / "sample_turn.jsonl")) == run_file(SAMPLE).trace
    assert tuple(read_jsonl(out_dir / "wrong_hand.jsonl")) == run_file(FAILING).trace


def test_run_trace_refuses_one_file_for_several_scenarios(capsys: pytest.CaptureFixture[str],
                                                          tmp_path: Path) -> None:
    trace = tmp_path / "all.jsonl"
    code, out, err = run_cli(capsys, "run", "--trace", str(trace), str(FAILING), str(SAMPLE))
    assert code == 2 and out == "" and not trace.exists()
    assert len(err.splitlines()) == 1 and "need a directory" in err


def test_narrate_story_and_empty_trace(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    trace = tmp_path / "sample.jsonl"
    run_cli(capsys, "run", "--trace", str(trace), str(SAMPLE))
    code, out, err = run_cli(capsys, "narrate", "--story", str(trace))
    assert (code, err) == (0, "")
    assert out == story(read_jsonl(trace), default_rulebook().specs)
    empty = tmp_path / "empty.jsonl"
    empty.write_text("", encoding="utf-8")
    code, out, err = run_cli(capsys, "narrate", str(empty))
    assert code == 2 and out == ""
    assert err == f"{empty}: (file): no trace records (an empty trace)\n"


def test_machines_option_on_every_command_that_reads_machines(capsys: pytest.CaptureFixture[str],
                                                              tmp_path: Path) -> None:
    """``--machines DIR`` is read by list, explain, run and narrate too: a broken folder is refused."""
    directory = _broken_machines(tmp_path)
    trace = tmp_path / "sample.jsonl"
    run_cli(capsys, "run", "--trace", str(trace), str(SAMPLE))
    for argv in (["list"], ["explain", "main_phase_1"], ["run", str(SAMPLE)], ["narrate", str(trace)]):
        code, out, err = run_cli(capsys, *argv, "--machines", str(directory))
        assert code == 2 and out == "", argv
        assert "unknown guard 'no_such_guard'" in err, argv
        code, _, err = run_cli(capsys, *argv, "--machines", str(machines_dir()))
        assert (code, err) == (0, ""), argv


def test_golden_into_an_unwritable_place_is_one_line(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("", encoding="utf-8")
    code, _, err = run_cli(capsys, "run", "--quiet", "--golden", str(blocker / "x"), str(SAMPLE))
    assert code == 2
    assert len(err.splitlines()) == 1 and err.startswith("run: --golden")


def test_unexpected_error_is_one_line_exit_3(capsys: pytest.CaptureFixture[str],
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(_args: object) -> int:
        raise RecursionError("maximum recursion depth exceeded")

    monkeypatch.setattr("ygo_fsm.cli._cmd_list", broken)
    code, out, err = run_cli(capsys, "list")
    assert (code, out) == (3, "")
    assert err == ("ygo-fsm: internal error: RecursionError: maximum recursion depth exceeded "
                   "(run with --debug for the traceback)\n")
    code = main(["list", "--debug"])
    err = capsys.readouterr().err
    assert code == 3 and "Traceback" in err and "RecursionError" in err


# --- schema and narrate ---------------------------------------------------------------------


def test_schema_scenario(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run_cli(capsys, "schema", "scenario")
    assert code == 0
    schema = json.loads(out)
    assert "steps" in schema["properties"]
    assert "Expectation" in schema["$defs"]
    assert "\\u" not in out  # ensure_ascii=False


@pytest.mark.parametrize(("kind", "field"), [("trace", "seq"), ("machine", "states")])
def test_schema_trace_and_machine(capsys: pytest.CaptureFixture[str], kind: str, field: str) -> None:
    code, out, _ = run_cli(capsys, "schema", kind)
    assert code == 0
    assert field in json.loads(out)["properties"]


def test_narrate_bad_files(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"seq": 1}\n', encoding="utf-8")
    code, out, err = run_cli(capsys, "narrate", str(bad))
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and err.startswith(f"{bad}: line 1: ")
    binary = tmp_path / "binary.jsonl"
    binary.write_bytes(b"\xff\xfe\x00")
    code, _, err = run_cli(capsys, "narrate", str(binary))
    assert code == 2 and err.count("\n") == 1
    code, _, err = run_cli(capsys, "narrate", str(tmp_path / "missing.jsonl"))
    assert code == 2 and "cannot read" in err


# --- usage ----------------------------------------------------------------------------------


def test_usage_errors(capsys: pytest.CaptureFixture[str]) -> None:
    assert main([]) == 2
    assert main(["frobnicate"]) == 2
    assert main(["schema", "nothing"]) == 2
    assert main(["list", "--lang", "fr"]) == 2
    assert main(["--version"]) == 0
    assert main(["--help"]) == 0
    captured = capsys.readouterr()
    assert "Traceback" not in captured.err
    assert "ygo-fsm" in captured.out


def test_python_dash_m(tmp_path: Path) -> None:
    completed = subprocess.run([sys.executable, "-m", "ygo_fsm", "check"], capture_output=True, text=True,
                               encoding="utf-8", cwd=tmp_path, check=False)
    assert completed.returncode == 0, completed.stderr
    assert completed.stdout.startswith("ok: ")
    ascii_env = {"PYTHONIOENCODING": "ascii", "PATH": ""}
    completed = subprocess.run([sys.executable, "-m", "ygo_fsm", "explain", "choose_next_phase"],
                               capture_output=True, text=True, encoding="utf-8", cwd=tmp_path, check=False,
                               env=ascii_env)
    assert completed.returncode == 0, completed.stderr
    assert "选择要进入的下一个流程" in completed.stdout, "output is UTF-8 whatever the locale"
    completed = subprocess.run([sys.executable, "-m", "ygo_fsm", "explain", "nowhere"], capture_output=True,
                               text=True, encoding="utf-8", cwd=tmp_path, check=False, env=ascii_env)
    assert completed.returncode == 2
    assert completed.stderr.count("\n") == 1 and "Traceback" not in completed.stderr
