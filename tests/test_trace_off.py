"""A duel that keeps no trace (``Duel(trace=False)``, what an agent plays): the same duel as one
that keeps it, its history replaying it with the trace; reading a trace it does not keep fails
clearly instead of giving an empty one."""

from __future__ import annotations

import pickle

import pytest
from helpers import play_randomly

from ygo_fsm import Duel, TraceNotKeptError
from ygo_fsm.bench_duels import MIXED_DECK


def _play(trace: bool, seed: int = 5, decisions: int = 400) -> Duel:
    duel = Duel.new_game(list(MIXED_DECK), list(MIXED_DECK), seed=seed, auto_pass=True, trace=trace)
    return play_randomly(duel, seed, decisions)


@pytest.mark.parametrize("seed", [5, 9])
def test_a_duel_without_a_trace_plays_the_same_duel(seed: int) -> None:
    kept, not_kept = _play(True, seed), _play(False, seed)
    assert not_kept.keeps_trace is False and kept.keeps_trace is True
    assert not_kept == kept and not_kept.state_key() == kept.state_key()
    assert not_kept.history == kept.history
    assert not_kept.transitions_taken == kept.transitions_taken == len(kept.trace)
    assert not_kept.resolutions == kept.resolutions and kept.resolutions  # chains were resolved
    assert not_kept.auto_passes == kept.auto_passes


def test_its_history_replays_it_with_the_trace() -> None:
    kept, not_kept = _play(True), _play(False)
    replayed = Duel.replay(not_kept.setup, not_kept.history)
    assert replayed == not_kept
    # the same records but the auto-pass flag: the replay applies every pass itself
    assert [r.model_copy(update={"auto_pass": False}) for r in kept.trace] == list(replayed.trace)


def test_reading_a_trace_it_does_not_keep_fails_with_the_way_to_get_it() -> None:
    duel = _play(False, decisions=30)
    for read in (lambda: duel.trace, duel.trace_jsonl, lambda: duel.trace_for("A"),
                 lambda: duel.to_json(trace=True)):
        with pytest.raises(TraceNotKeptError, match=r"Duel\.replay\(duel\.setup, duel\.history\)"):
            read()
    assert Duel.from_json(duel.to_json()) == duel  # the state is saved as ever


def test_copies_pickles_and_loads_keep_the_setting() -> None:
    duel = _play(False, decisions=30)
    for other in (duel.copy(), pickle.loads(pickle.dumps(duel)),
                  Duel.from_json(_play(True, decisions=30).to_json(trace=True), trace=False)):
        assert other.keeps_trace is False
        with pytest.raises(TraceNotKeptError):
            other.trace_jsonl()
    loaded = pickle.loads(pickle.dumps(_play(True, decisions=30)))
    assert loaded.keeps_trace and len(loaded.trace) == loaded.transitions_taken


def test_the_agents_environment_keeps_no_trace_unless_asked() -> None:
    pytest.importorskip("pettingzoo")
    from ygo_fsm.env import raw_env

    environment = raw_env()
    environment.reset(seed=1)
    assert environment.duel is not None and environment.duel.keeps_trace is False
    traced = raw_env(trace=True)
    traced.reset(seed=1)
    assert traced.duel is not None and len(traced.duel.trace) == traced.duel.transitions_taken
