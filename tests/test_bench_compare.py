"""``make bench-compare`` (:mod:`ygo_fsm.bench_compare`): the driver it runs on each tree plays the
very duels of ``make bench``'s full-duels section, and its opcode counts, the figure that does not
drift with the machine's load, are the same on every run."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from ygo_fsm import bench_compare
from ygo_fsm.bench_duels import MIXED_DECK, VANILLA_DECK, play_full_duels

TREE = Path(bench_compare.__file__).resolve().parent.parent


@pytest.mark.parametrize(("deck", "trace"), [(VANILLA_DECK, False), (MIXED_DECK, True)])
def test_the_driver_plays_the_duels_of_the_full_duels_section(deck: tuple[str, ...], trace: bool) -> None:
    """Same decks and seed: a fresh process running the driver on this tree takes as many
    transitions and decisions as ``play_full_duels`` does here, so two trees compared play the
    bench's workload; its duels keep a trace as asked."""
    figures = bench_compare.run_tree(TREE, deck=deck, duels=2, seed=5, auto_pass=True, trace=trace)
    played = play_full_duels(deck, 2, 5, auto_pass=True, trace=trace)
    assert (figures["transitions"], figures["decisions"]) == (played.transitions, played.decisions)
    assert figures["trace"] is trace
    assert Path(figures["package"]).resolve().parent == TREE / "ygo_fsm"


def test_opcode_counts_do_not_change_from_run_to_run() -> None:
    """The opcodes of the same duels, counted in two fresh processes, are the same number; a trace
    kept costs opcodes of its own."""
    counts = [bench_compare.run_tree(TREE, deck=VANILLA_DECK, duels=1, seed=9, auto_pass=True, trace=trace,
                                     opcodes=True)["opcodes"] for trace in (False, False, True)]
    assert counts[0] == counts[1]
    assert counts[2] > counts[0] > 0


def test_a_folder_without_the_package_is_refused_in_one_line(tmp_path: Path,
                                                              capsys: pytest.CaptureFixture[str]) -> None:
    assert bench_compare.main([str(tmp_path), "--duels", "1", "--runs", "1"]) == 2
    error = capsys.readouterr().err.strip()
    assert error == f"bench_compare: {tmp_path} holds no ygo_fsm package"


def _fake_valgrind(folder: Path, per_duel: int, start_up: int, disturbed: int) -> None:
    """A ``valgrind`` that runs the command after its options and reports, as callgrind does, a count
    of ``start_up`` plus ``per_duel`` for each duel the driver's config asks for; its first run
    reports ``disturbed`` more (a run that took millions more, as one now and then does)."""
    script = folder / "valgrind"
    script.write_text(
        "#!/bin/sh\n"
        "while [ \"${1#--}\" != \"$1\" ]; do shift; done\n"
        "\"$@\" || exit $?\n"
        "for config; do :; done\n"
        "duels=$(printf '%s' \"$config\" | sed 's/.*\"duels\": \\([0-9]*\\).*/\\1/')\n"
        f"extra=0; [ -e {folder}/ran ] || extra={disturbed}; touch {folder}/ran\n"
        f"echo \"==42== Collected : $(({start_up} + {per_duel} * duels + extra))\" >&2\n", encoding="utf-8")
    script.chmod(0o755)


def test_instructions_are_the_duels_count_less_the_warm_up_run(tmp_path: Path,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    """The count of a run playing only the warm-up duel is taken off the run playing the duels, so
    start-up is not in the figure, and of each the lowest of its runs is taken, so a disturbed run
    does not move it: runs reporting 1,000 + 70 a duel (one of them 500 more) give 70 a duel."""
    _fake_valgrind(tmp_path, per_duel=70, start_up=1000, disturbed=500)
    monkeypatch.setenv("PATH", f"{tmp_path}:{os.environ['PATH']}")
    assert bench_compare.count_instructions(TREE, deck=VANILLA_DECK, duels=3, seed=5, auto_pass=True,
                                            trace=False, repeats=2) == 3 * 70


def test_counting_instructions_without_valgrind_is_refused_in_one_line(tmp_path: Path,
                                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PATH", str(tmp_path))
    refusal = r"^counting instructions needs valgrind and setarch \(Debian: apt-get install valgrind util-linux\)$"
    with pytest.raises(RuntimeError, match=refusal):
        bench_compare.count_instructions(TREE, deck=VANILLA_DECK, duels=1, seed=5, auto_pass=True, trace=False)


_OLD_PACKAGE = '''
"""A stand-in for a version older than Setup.from_decks and auto-pass: a Duel asks for a pass
three times, then ends; the setup it was given is written where the test reads it."""
import json, os


class Setup:
    @classmethod
    def model_validate(cls, data):
        setup = cls()
        setup.data = data
        return setup


class Duel:
    def __init__(self, setup):
        with open(os.environ["DEALT"], "a", encoding="utf-8") as out:
            out.write(json.dumps(setup.data) + "\\n")
        self._seq, self.asked = 0, 0

    @property
    def is_over(self):
        return self.asked == 3

    def legal_actions(self):
        return ["pass"]

    def apply(self, action):
        assert action == "pass"
        self.asked += 1
        self._seq += 2
'''


def test_a_version_without_decks_or_auto_pass_is_dealt_by_hand_and_asked_every_pass(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """For a version older than the agents' issue (no ``Setup.from_decks``, no ``auto_pass``) the driver
    deals each deck itself — five named cards in the hand, the rest named in the deck, no unnamed
    cards, ``modern`` — and the agent is asked for every pass; the figures say nobody passed for it."""
    (tmp_path / "ygo_fsm").mkdir()
    (tmp_path / "ygo_fsm" / "__init__.py").write_text(_OLD_PACKAGE, encoding="utf-8")
    dealt = tmp_path / "dealt.jsonl"
    monkeypatch.setenv("DEALT", str(dealt))
    figures = bench_compare.run_tree(tmp_path, deck=VANILLA_DECK, duels=2, seed=5, auto_pass=True, trace=True)
    assert (figures["decisions"], figures["transitions"]) == (2 * 3, 2 * 6)
    assert figures["passed_for_players"] is False and figures["trace"] is True
    setups = [json.loads(line) for line in dealt.read_text(encoding="utf-8").splitlines()]
    assert len(setups) == 1 + 2  # the warm-up duel, then the two timed
    for setup in setups:
        assert setup["profile"] == "modern"
        for player in ("A", "B"):
            given = setup["players"][player]
            assert (given["hand"], given["deck"]) == (0, 0)
            zones = [card["zone"] for card in given["cards"]]
            assert zones == ["hand"] * 5 + ["deck"] * 35
            assert sorted(card["card"] for card in given["cards"]) == sorted(VANILLA_DECK)
    assert setups[1]["players"]["A"]["cards"] != setups[2]["players"]["A"]["cards"]  # each duel shuffled anew


def test_this_version_passes_for_the_players_when_asked() -> None:
    figures = bench_compare.run_tree(TREE, deck=VANILLA_DECK, duels=1, seed=5, auto_pass=True, trace=False)
    assert figures["passed_for_players"] is True
    assert bench_compare.run_tree(TREE, deck=VANILLA_DECK, duels=1, seed=5, auto_pass=False,
                                  trace=False)["passed_for_players"] is False
