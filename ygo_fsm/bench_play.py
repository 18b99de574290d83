"""(b) random legal play: random legal actions from :func:`~ygo_fsm.bench_base.bench_setup`
until a number of turns are over, timed as a player loop (:mod:`ygo_fsm.bench`)."""

from __future__ import annotations

import gc
import random
import time
from typing import Any

from .bench_base import DEFAULT_REPEATS, PlayResult, bench_setup, game_data, steps_of
from .bench_dispatch import build_dispatch_table, timed_replay
from .duel import Duel
from .engine import Rulebook, default_rulebook
from .game import Setup

__all__ = ["measure_play", "paired_ratios", "random_play"]


def random_play(turns: int, seed: int, setup: Setup | None = None, *,
                rulebook: Rulebook | None = None) -> PlayResult:
    """Play random legal actions until ``turns`` turns are over; see (b) in :mod:`ygo_fsm.bench`."""
    setup = setup if setup is not None else bench_setup()
    rulebook = rulebook or default_rulebook()
    rng = random.Random(seed)
    choose = rng.choice
    finished: list[Duel] = []
    played = 0
    actions = 0
    start = time.perf_counter()
    duel = Duel(setup, rulebook=rulebook)
    turn = duel.turn
    while played < turns:
        duel.apply(choose(duel.legal_actions()))
        actions += 1
        if duel.turn != turn:
            played += duel.turn - turn
            turn = duel.turn
        if duel.is_over:
            played += 1
            finished.append(duel)
            if played < turns:
                duel = Duel(setup, rulebook=rulebook)
                turn = duel.turn
    elapsed = time.perf_counter() - start
    if not duel.is_over:
        finished.append(duel)
    segments = [steps_of(d) for d in finished]
    return PlayResult(
        setup=setup, seconds=elapsed, turns=played, actions=actions,
        transitions=sum(len(s) for s in segments), segments=segments,
        finals=[game_data(d.game) for d in finished],
    )


def measure_play(turns: int, seed: int, repeats: int = DEFAULT_REPEATS,
                 setup: Setup | None = None) -> tuple[dict[str, Any], PlayResult]:
    """(b): best of ``repeats`` identical runs (same seed); the figures and the run itself."""
    best: PlayResult | None = None
    for _ in range(max(1, repeats)):
        result = random_play(turns, seed, setup)
        if best is not None and result.segments != best.segments:
            raise AssertionError("random play with the same seed took different transitions")
        if best is None or result.seconds < best.seconds:
            best = result
    assert best is not None
    seconds = best.seconds
    figures = {
        "seed": seed,
        "repeats": max(1, repeats),
        "setup": best.setup.model_dump(mode="json"),
        "turns": best.turns,
        "duels": best.duels,
        "actions": best.actions,
        "transitions": best.transitions,
        "seconds": round(seconds, 6),
        "turns_per_s": round(best.turns / seconds, 1),
        "transitions_per_s": round(best.transitions / seconds, 1),
        "actions_per_s": round(best.actions / seconds, 1),
        "us_per_transition": round(seconds / best.transitions * 1e6, 4),
    }
    return figures, best


def paired_ratios(play: PlayResult, turns: int, seed: int, repeats: int = DEFAULT_REPEATS) -> list[float]:
    """(b) over (c), run by run: ``repeats`` times, the random play of ``play`` again (its ``turns`` and
    ``seed``) and at once one replay of its transitions through (c)'s table, so that both sides of
    each ratio see the same load on the machine; each side starts after a full collection. Returns each
    pair's ``us_per_transition`` ratio."""
    rulebook = default_rulebook()
    table = build_dispatch_table(rulebook.specs)
    ratios = []
    for _ in range(max(1, repeats)):
        gc.collect()  # each side starts from a heap without the other's leftovers
        run = random_play(turns, seed, play.setup, rulebook=rulebook)
        if run.segments != play.segments:
            raise AssertionError("random play with the same seed took different transitions")
        seconds = run.seconds
        del run  # its steps, freshly made, are not for the replay's collections to walk
        ratios.append(seconds / timed_replay(play, table, rulebook.specs))  # the same transitions on both sides
    return ratios
