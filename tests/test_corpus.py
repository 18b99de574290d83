"""The hostile-input corpus (tests/corpus/cases.yaml): every malformed file, and every broken
machine folder, is refused with its exit code and one line on stderr naming the file and the
item — the README's contract for bad input (exit 2, one line, no traceback)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from ygo_fsm.cards import load_library
from ygo_fsm.cli import main
from ygo_fsm.errors import ScenarioError
from ygo_fsm.yamlio import load_yaml

CORPUS = Path(__file__).resolve().parent / "corpus"
CASES: list[dict[str, Any]] = load_yaml(CORPUS / "cases.yaml")
HEADER = "name: hostile\nrule: 000 ●ドローフェイズ【１】\n"


def _generated(name: str, directory: Path) -> Path:
    """Files too large to keep in the corpus, written for the case that names them."""
    path = directory / f"{name}.yaml"
    if name == "big_scenario":
        steps = "".join("  - {pass_until: end_phase}\n" for _ in range(80_000))
        path.write_text(HEADER + "steps:\n" + steps, encoding="utf-8")
    elif name == "many_steps":
        path.write_text(HEADER + "steps:\n" + "  - {expect: {turn: 1}}\n" * 2001, encoding="utf-8")
    elif name == "many_actions":
        path.write_text(HEADER + "steps:\n  - do: [" + ", ".join(["pass"] * 201) + "]\n", encoding="utf-8")
    else:
        raise AssertionError(f"cases.yaml names an unknown generated file @{name}")
    return path


def _argv(words: list[str], directory: Path) -> list[str]:
    argv = words[:1]
    for word in words[1:]:
        if word.startswith("@"):
            argv.append(str(_generated(word[1:], directory)))
        elif (CORPUS / word).exists():
            argv.append(str(CORPUS / word))
        else:
            argv.append(word)
    return argv


def _case_id(case: dict[str, Any]) -> str:
    return "-".join(Path(word).stem for word in case["argv"] if not word.startswith("-"))


def test_every_corpus_file_is_played_by_a_case() -> None:
    named = {word for case in CASES for word in case["argv"]}
    files = {str(path.relative_to(CORPUS)) for path in CORPUS.rglob("*") if path.is_file() and path.suffix != ".md"}
    files.discard("cases.yaml")
    folders = {str(path.relative_to(CORPUS)) for path in (CORPUS / "machines").iterdir()}
    unplayed = sorted(f for f in files if f not in named and str(Path(f).parent) not in named)
    assert unplayed == [], f"corpus files no case plays: {unplayed}"
    assert folders <= named


@pytest.mark.parametrize("case", CASES, ids=_case_id)
def test_corpus_case_is_refused_in_one_line(case: dict[str, Any], tmp_path: Path,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    argv = _argv(case["argv"], tmp_path)
    if argv[0] == "library":
        with pytest.raises(ScenarioError) as caught:
            load_library(Path(argv[1]))
        code, err = 2, f"{caught.value}\n"
    else:
        code = main(argv)
        err = capsys.readouterr().err
    assert "Traceback" not in err
    assert code == case["exit"], err
    lines = err.splitlines()
    assert len(lines) == 1, f"expected one line on stderr, got {len(lines)}: {err[:500]}"
    assert case["says"] in lines[0]
    file_words = [word for word in argv[1:] if Path(word).suffix in (".yaml", ".jsonl")]
    assert not file_words or any(Path(word).stem in lines[0] for word in file_words), "names the file"
