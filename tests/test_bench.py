"""Smoke tests of ygo_fsm.bench with tiny sizes: the JSON's shape and the baseline's fidelity.

No timing is asserted: these check that every figure is there and positive, and that the
bare dict-dispatch replay (c) reproduces the transitions recorded by random play (b).
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from ygo_fsm import bench
from ygo_fsm.engine import default_rulebook


def _positive(value: object) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and value > 0


def test_run_benchmark_reports_every_figure() -> None:
    result = bench.run_benchmark(seed=7, turns=2, duels=20, repeats=1, full_duels=1)
    json.dumps(result)  # JSON-ready
    for key in ("benchmark", "python", "transitions_version", "machines", "seed", "creation", "random_play",
                "dict_dispatch", "render", "notes"):
        assert key in result
    assert result["machines"] == len(default_rulebook().specs)
    assert result["seed"] == 7

    creation = result["creation"]
    for key in ("create_us_per_duel", "create_bytes_per_duel"):
        assert _positive(creation[key])
        assert _positive(creation["targets"][key])
        assert isinstance(creation["meets_targets"][key], bool)

    play = result["random_play"]
    assert play["turns"] >= 2
    for key in ("turns_per_s", "transitions_per_s", "actions_per_s", "us_per_transition"):
        assert _positive(play[key])

    dispatch = result["dict_dispatch"]
    assert dispatch["verified"] is True
    assert dispatch["transitions"] == play["transitions"]
    assert _positive(dispatch["us_per_transition"])
    assert _positive(dispatch["ratio"])
    low, high = dispatch["ratio_runs"]
    assert low <= dispatch["ratio"] <= high  # the median of the pairs' ratios
    assert dispatch["ratio_of_bests"] == round(play["us_per_transition"] / dispatch["us_per_transition"], 2)
    assert isinstance(dispatch["meets_targets"]["ratio"], bool)
    assert dispatch["targets"]["agents_ratio"] == 3.0  # the agents' issue: within 3× of the replay
    assert isinstance(dispatch["meets_targets"]["agents_ratio"], bool)

    full = result["full_duels"]
    for run in ("vanilla_auto_pass_off", "vanilla_auto_pass_on", "vanilla_auto_pass_on_no_trace",
                "mixed_auto_pass_off", "mixed_auto_pass_on", "mixed_auto_pass_on_no_trace"):
        figures = full[run]
        assert figures["duels"] == 1
        for key in ("duels_per_s", "duels_per_s_play", "duels_per_cpu_s", "decisions_per_s",
                    "multi_option_decisions_per_s", "us_per_transition", "dispatch_us_per_transition",
                    "dispatch_ratio"):
            assert _positive(figures[key])
        assert figures["dispatch_verified"] is True  # the replay took the played duel's every transition
        assert figures["meets_agents_ratio"] is (figures["dispatch_ratio"] <= 3.0)
    assert full["vanilla_auto_pass_off"]["forced_passes_per_duel"] == 0
    assert full["vanilla_auto_pass_on"]["forced_passes_per_duel"] > 0
    for deck in ("vanilla", "mixed"):  # the same duels with and without a trace
        with_trace, without = full[f"{deck}_auto_pass_on"], full[f"{deck}_auto_pass_on_no_trace"]
        for key in ("transitions_per_duel", "decisions_per_duel", "forced_passes_per_duel", "winners"):
            assert with_trace[key] == without[key]

    environment = result["environment"]  # the env extra is installed with the test extras
    assert environment["duels"] == 1
    assert environment["steps_per_duel"] > 0 and 0 < environment["observe_share"] < 1
    for key in ("duels_per_s", "steps_per_s"):
        assert _positive(environment[key])

    rendering = result["render"]
    assert _positive(rendering["render_s_without_svg"])
    if shutil.which("dot") is None:
        assert rendering["render_s"] is None and "note" in rendering
    else:
        assert _positive(rendering["render_s"])
        assert isinstance(rendering["meets_targets"]["render_s"], bool)


@pytest.mark.parametrize("deck", [1, 40])
def test_dict_replay_reproduces_recorded_play(deck: int) -> None:
    # deck 1: duels end by deck-out within a few turns, so several duels are replayed
    specs = default_rulebook().specs
    play = bench.random_play(turns=8, seed=3, setup=bench.bench_setup(deck=deck))
    assert play.transitions == sum(len(segment) for segment in play.segments) > 0
    if deck == 1:
        assert play.duels > 1
    table = bench.build_dispatch_table(specs)
    assert bench.verify_replay(play, table, specs) == []
    events = {step[2] for segment in play.segments for step in segment}
    assert "card_drawn" in events and "next_turn" in events


def test_verify_replay_catches_a_wrong_record() -> None:
    specs = default_rulebook().specs
    play = bench.random_play(turns=3, seed=0)
    table = bench.build_dispatch_table(specs)
    segment = play.segments[0]
    index = next(i for i, step in enumerate(segment) if step[2] == "card_drawn")
    machine, source, event, _, choice, actor = segment[index]
    segment[index] = (machine, source, event, "deck_out", choice, actor)
    problems = bench.verify_replay(play, table, specs)
    assert problems and f"step {index}:" in problems[0]


def test_main_writes_json(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "bench.json"
    assert bench.main(["--seed", "1", "--turns", "2", "--duels", "10", "--repeats", "1", "--full-duels", "1",
                       "--out", str(out)]) == 0
    printed = json.loads(capsys.readouterr().out)
    assert json.loads(out.read_text(encoding="utf-8")) == printed


def test_full_duels_record_the_steps_each_timed_duel_took() -> None:
    """(f) records a duel's steps from a replay of its history, after its timing: they are the steps
    the timed duel itself took (auto-pass on, its passes replayed as actions), in the same order,
    and the duel's teardown is timed on its own."""
    import random

    from ygo_fsm import Duel
    from ygo_fsm.bench_duels import VANILLA_DECK, deck_setup, play_full_duels

    recorded: list = []
    run = play_full_duels(VANILLA_DECK, 2, 11, auto_pass=True, recorded=recorded)
    assert run.teardown_s > 0 and len(recorded) == 2
    seeds = random.Random(11)
    for setup, steps, _ in recorded:
        shuffle_seed, agent_seed = seeds.randrange(2**32), seeds.randrange(2**32)
        choose = random.Random(agent_seed).choice
        duel = Duel(deck_setup(VANILLA_DECK, VANILLA_DECK, shuffle_seed), auto_pass=True)
        while not duel.is_over:
            duel.apply(choose(duel.legal_actions()))
        assert setup == duel.setup
        assert steps == [(r.machine, r.source, r.event, r.dest, r.choice, r.actor) for r in duel.trace]


def test_full_duels_give_the_quickest_of_identical_runs(monkeypatch: pytest.MonkeyPatch) -> None:
    """(f) plays each setting's duels ``repeats`` times and gives the quickest run's figures, as (b)
    and (c) give their best: here the second of three runs is the quickest and its times are the ones
    printed; the steps are recorded from the first run only."""
    from ygo_fsm import bench_duels

    real = bench_duels.play_full_duels
    played: list[bool] = []
    times = iter([3.0, 1.0, 2.0] * 6)  # per setting: first, second, third run

    def timed(*args: Any, recorded: list[Any] | None = None, **kwargs: Any) -> bench_duels.DuelsResult:
        played.append(recorded is not None)
        run = real(*args, recorded=recorded, **kwargs)
        run.setup_s, run.play_s, run.teardown_s = 0.0, next(times), 0.0
        return run

    monkeypatch.setattr(bench_duels, "play_full_duels", timed)
    full = bench_duels.measure_full_duels(1, 5, repeats=3)
    assert full["runs"] == 3
    assert played.count(True) == 4  # the four traced settings record once each
    assert len(played) == 18
    for name in ("vanilla", "mixed"):
        for setting in ("auto_pass_off", "auto_pass_on", "auto_pass_on_no_trace"):
            assert full[f"{name}_{setting}"]["duels_per_s"] == 1.0  # one duel in the quickest run's 1 s


def test_full_duels_pair_each_run_with_a_replay_and_give_the_median_ratio(monkeypatch: pytest.MonkeyPatch) -> None:
    """(f)'s ``dispatch_ratio``: each run of a setting is followed by one replay of the same transitions,
    and the ratio is the median of the runs' ratios to their own replays (not the quickest run's over
    the quickest replay's, ``dispatch_ratio_of_bests``): here three runs of 3, 1 and 2 units a transition
    are paired with replays of 1, 1 and 0.5 units, ratios 3, 1 and 4, median 3; the bests give 1 / 0.5 = 2."""
    from ygo_fsm import bench_duels

    real = bench_duels.play_full_duels
    times = iter([3.0, 1.0, 2.0] * 6)
    replays = iter([1.0, 1.0, 0.5] * 6)

    def timed(*args: Any, recorded: list[Any] | None = None, **kwargs: Any) -> bench_duels.DuelsResult:
        run = real(*args, recorded=recorded, **kwargs)
        run.setup_s, run.play_s, run.teardown_s = 0.0, next(times) * run.transitions / 1e6, 0.0
        return run

    monkeypatch.setattr(bench_duels, "play_full_duels", timed)
    monkeypatch.setattr(bench_duels.DuelsReplay, "run", lambda self: next(replays))
    full = bench_duels.measure_full_duels(1, 5, repeats=3)
    for name in ("vanilla", "mixed"):
        for setting in ("auto_pass_off", "auto_pass_on", "auto_pass_on_no_trace"):
            figures = full[f"{name}_{setting}"]
            assert figures["dispatch_ratio"] == 3.0
            assert figures["dispatch_ratio_runs"] == [1.0, 4.0]
            assert figures["dispatch_ratio_of_bests"] == 2.0
            assert figures["dispatch_us_per_transition"] == 0.5
            assert figures["meets_agents_ratio"] is True  # within 3×: 3 is
