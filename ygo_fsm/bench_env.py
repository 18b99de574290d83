"""(g) the agents' environment: whole duels through the PettingZoo AEC environment
(:mod:`ygo_fsm.env`), as an agent plays them (:mod:`ygo_fsm.bench`)."""

from __future__ import annotations

import random
import time
from typing import Any

__all__ = ["measure_environment"]


def measure_environment(count: int, seed: int) -> dict[str, Any] | None:
    """``count`` duels of ``ygo_fsm.env.raw_env()`` (its default decks, auto-pass on, no trace),
    each step's action drawn by a :class:`random.Random` seeded with ``seed`` among the acting
    duel's ``legal_action_indices()``: duels and steps per second, and the share of the time spent
    in ``observe`` (the observation vector and the action mask). ``None`` when the ``env`` extra
    is not installed."""
    try:
        from .env import raw_env
    except ImportError:
        return None
    environment = raw_env()
    choose = random.Random(seed).choice
    steps = 0
    observing = 0.0
    started = time.perf_counter()
    for number in range(count):
        environment.reset(seed=seed + number)
        for _ in environment.agent_iter():
            before = time.perf_counter()
            _, _, terminated, truncated, _ = environment.last()
            observing += time.perf_counter() - before
            if terminated or truncated:
                environment.step(None)
                continue
            duel = environment.duel
            assert duel is not None
            environment.step(choose(duel.legal_action_indices()))
            steps += 1
    elapsed = time.perf_counter() - started
    return {
        "duels": count,
        "duels_per_s": round(count / elapsed, 3),
        "steps_per_duel": round(steps / max(count, 1), 1),
        "steps_per_s": round(steps / elapsed, 1),
        "observe_share": round(observing / elapsed, 3),
    }
