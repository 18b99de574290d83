"""Guard sentences (machines/guards.yaml): every guard a transition uses says, in zh and en, what
it asks, with the clause it comes from (DESIGN "Layers" 1: "each guard with a zh/en sentence");
`ygo-fsm check` rejects a guard with none."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
import yaml

from ygo_fsm import MachineDefinitionError, Rulebook
from ygo_fsm.cli import main
from ygo_fsm.game import Profile
from ygo_fsm.loader import GUARD_SENTENCES_FILE, load_guard_sentences, machines_dir
from ygo_fsm.rules import GUARDS
from ygo_fsm.wording import PROFILES


def _copy(tmp_path: Path) -> Path:
    target = tmp_path / "machines"
    shutil.copytree(machines_dir(), target)
    return target


def _edit_sentences(directory: Path, edit) -> Path:  # type: ignore[no-untyped-def]
    path = directory / GUARD_SENTENCES_FILE
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    edit(data["guards"])
    path.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), encoding="utf-8")
    return path


def test_every_shipped_guard_used_has_a_sentence_with_a_citation() -> None:
    sentences = load_guard_sentences()
    used = {name for spec in Rulebook.load().specs.values() for t in spec.transitions
            for name in (*t.guards, *t.unless)}
    assert used, "the shipped machines use guards"
    assert used <= set(sentences), sorted(used - set(sentences))
    for name in used:
        sentence = sentences[name]
        assert sentence.zh.strip() and sentence.en.strip() and sentence.rule[:3].isdigit(), name
        assert sentence.zh != name and sentence.en != name, f"{name}: a sentence, not the guard's name"


def test_sentence_file_is_not_read_as_a_machine() -> None:
    assert "guards" not in Rulebook.load().specs


def test_profile_marks_name_real_profiles_and_cite_the_modern_rule() -> None:
    """004 ●先攻第1回合… and ●重新选择攻击对象时可以…停止攻击 hold under the modern rules only."""
    assert set(PROFILES) == {profile.value for profile in Profile}
    marked = {name: s.profile for name, s in load_guard_sentences().items() if s.profile is not None}
    assert marked == {"first_turn_forbids_battle_phase": "modern", "first_turn_forbids_draw": "modern",
                      "attack_may_be_stopped": "modern"}
    for name in marked:
        assert load_guard_sentences()[name].rule.startswith("004 ")


def test_a_guard_without_a_sentence_is_a_check_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    directory = _copy(tmp_path)
    _edit_sentences(directory, lambda guards: guards.pop("deck_empty"))
    with pytest.raises(MachineDefinitionError) as caught:
        Rulebook.load(directory)
    issues = caught.value.issues
    users = [(spec.id, t.id) for spec in Rulebook.load().specs.values() for t in spec.transitions
             if "deck_empty" in (*t.guards, *t.unless)]
    assert [(issue.machine, issue.item) for issue in issues] == [(m, f"transition {t}") for m, t in users]
    for issue in issues:
        assert issue.file == str(directory / f"{issue.machine}.yaml")
        assert "guard 'deck_empty' has no sentence" in issue.message
    assert main(["check", "--machines", str(directory)]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.splitlines() == [str(issue) for issue in issues]


def test_a_sentence_for_an_unknown_guard_or_without_a_citation_is_reported(tmp_path: Path) -> None:
    directory = _copy(tmp_path)

    def edit(guards: dict) -> None:  # type: ignore[type-arg]
        guards["guard_nobody_wrote"] = {"zh": "某条件", "en": "some condition", "rule": "000 ●ドローフェイズ【１】"}
        guards["deck_empty"]["rule"] = "the rulebook"

    path = _edit_sentences(directory, edit)
    with pytest.raises(MachineDefinitionError) as caught:
        Rulebook.load(directory)
    found = {(issue.file, issue.item, issue.message.split(":")[0]) for issue in caught.value.issues}
    assert (str(path), "guard guard_nobody_wrote", "sentence for an unknown guard") in found
    assert any(item == "guard deck_empty" and "malformed rule citation" in message
               for _, item, message in found)
    assert "guard_nobody_wrote" not in GUARDS


def test_malformed_or_missing_sentence_file_is_one_line_per_problem(tmp_path: Path,
                                                                   capsys: pytest.CaptureFixture[str]) -> None:
    directory = _copy(tmp_path)
    path = directory / GUARD_SENTENCES_FILE
    path.write_text("guards:\n  deck_empty: {zh: 卡组没有卡}\n", encoding="utf-8")
    assert main(["check", "--machines", str(directory)]) == 2
    err = capsys.readouterr().err
    assert str(path) in err and "deck_empty" in err and "Traceback" not in err
    path.unlink()
    assert main(["check", "--machines", str(directory)]) == 2
    lines = capsys.readouterr().err.splitlines()
    assert lines and all(f"has no sentence in {path} (no such file)" in line for line in lines)


def test_machines_using_no_guard_need_no_sentence_file(fresh_machine, write_machine, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    data = fresh_machine()
    data["id"] = "turn"  # a duel starts in the turn machine: a folder needs it
    for key in ("guards", "unless", "callbacks"):
        del data["transitions"][0][key]
    write_machine(data)
    assert list(Rulebook.load(tmp_path).specs) == ["turn"]
