"""A trace record's ``state`` is the full state path the duel is in after its transition (the trace
contract): the newest record read after each action names the state the duel is in, however often
the trace is read, in a copy, and in a duel saved and loaded halfway; and reading the trace once at
the end gives the same records as reading it after every action."""

from __future__ import annotations

import random

import pytest

from ygo_fsm import Duel
from ygo_fsm.bench_duels import MIXED_DECK, VANILLA_DECK


def _play_reading(duel: Duel, seed: int, decisions: int, every: int | None) -> None:
    """Random play, reading the newest record after every ``every``-th action (``None``: never)."""
    choose = random.Random(seed).choice
    for step in range(decisions):
        if duel.is_over:
            return
        duel.apply(choose(duel.legal_actions()))
        if every is not None and step % every == 0:
            assert duel.trace[-1].state == duel.state, f"after {duel.history[-1]}"


@pytest.mark.parametrize(("deck", "seed"), [(MIXED_DECK, 2), (VANILLA_DECK, 8)])
def test_the_newest_record_names_the_state_the_duel_is_in(deck: tuple[str, ...], seed: int) -> None:
    for auto_pass in (False, True):
        read_often = Duel.new_game(list(deck), list(deck), seed=seed, auto_pass=auto_pass)
        read_once = Duel.new_game(list(deck), list(deck), seed=seed, auto_pass=auto_pass)
        _play_reading(read_often, seed, 300, every=1)
        _play_reading(read_once, seed, 300, every=10**6)  # read only at its first action
        assert read_once.trace == read_often.trace
        states = {record.state for record in read_often.trace}
        assert len(states) > 40 and any(state.count(".") >= 3 for state in states)

        copied = read_often.copy()
        loaded = Duel.from_json(read_often.to_json(trace=True), auto_pass=auto_pass)
        unread = Duel.from_json(read_often.to_json(trace=False), auto_pass=auto_pass)
        for duel in (read_often, copied, loaded, unread):
            _play_reading(duel, seed + 1, 200, every=7)
        assert copied.trace == read_often.trace == loaded.trace
        assert unread.trace == read_often.trace[len(read_often.trace) - len(unread.trace):]


@pytest.mark.parametrize(("deck", "seed"), [(MIXED_DECK, 4), (VANILLA_DECK, 5)])
def test_a_copy_taken_with_records_unread_goes_on_with_its_own(deck: tuple[str, ...], seed: int) -> None:
    """A duel is a value (its copy is independent): copied while its newest records are not read yet,
    the copy and the duel each go on by themselves, and each reads the records a replay of its own
    history reads (the turn, LP, hands, choices and narration of every transition)."""
    duel = Duel.new_game(list(deck), list(deck), seed=seed)
    _play_reading(duel, seed, 150, every=10**6)  # its trace read only at its first action
    _play_reading(duel, seed, 50, every=None)
    copied = duel.copy()
    _play_reading(duel, seed + 1, 150, every=None)
    _play_reading(copied, seed + 2, 150, every=None)
    assert duel.history != copied.history
    for played in (duel, copied):
        assert played.trace == Duel.replay(played.setup, played.history).trace
