"""(a) duel creation, (d) rendering and (e) the duel as a value: how fast and how small a duel is
made, the diagrams drawn, and a duel copied, saved, loaded and keyed (:mod:`ygo_fsm.bench`)."""

from __future__ import annotations

import gc
import random
import shutil
import time
import tracemalloc
from collections.abc import Callable, Sequence
from typing import Any

from .bench_base import DEFAULT_DUELS, DEFAULT_REPEATS, TARGETS, bench_setup
from .duel import Duel
from .engine import default_rulebook
from .game import Setup
from .spec import MachineSpec

__all__ = ["measure_creation", "measure_render", "measure_state", "sample_positions"]


def measure_creation(count: int = DEFAULT_DUELS, repeats: int = DEFAULT_REPEATS) -> dict[str, Any]:
    """Time and memory to create ``count`` default duels (best of ``repeats`` timings)."""
    default_rulebook()  # loaded before timing
    Duel()  # warm-up: first-call costs (imports, caches) are not part of a duel's creation
    best = float("inf")
    for _ in range(max(1, repeats)):
        start = time.perf_counter()
        duels = [Duel() for _ in range(count)]
        elapsed = time.perf_counter() - start
        best = min(best, elapsed)
        del duels
    gc.collect()
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        alive = [Duel() for _ in range(count)]
        after = tracemalloc.get_traced_memory()[0]
    finally:
        tracemalloc.stop()
    bytes_per_duel = (after - before) / count
    del alive
    us_per_duel = best / count * 1e6
    targets = {"create_us_per_duel": TARGETS["create_us_per_duel"],
               "create_bytes_per_duel": TARGETS["create_bytes_per_duel"]}
    return {
        "duels": count,
        "repeats": max(1, repeats),
        "create_us_per_duel": round(us_per_duel, 3),
        "create_bytes_per_duel": round(bytes_per_duel, 1),
        "targets": targets,
        "meets_targets": {
            "create_us_per_duel": us_per_duel <= targets["create_us_per_duel"],
            "create_bytes_per_duel": bytes_per_duel <= targets["create_bytes_per_duel"],
        },
    }


# --- (d) rendering ---------------------------------------------------------------------------


def measure_render(specs: Sequence[MachineSpec]) -> dict[str, Any]:
    """(d): time :func:`ygo_fsm.render.render_all` with and without SVG, in memory."""
    figures: dict[str, Any] = {
        "render_s": None,
        "render_s_without_svg": None,
        "files": None,
        "targets": {"render_s": TARGETS["render_s"]},
        "meets_targets": {"render_s": None},
    }
    try:
        from . import render
    except ImportError as error:
        figures["note"] = f"renderer not available: {error}"
        return figures
    specs = list(specs)
    start = time.perf_counter()
    files = render.render_all(specs, svg=False)
    figures["render_s_without_svg"] = round(time.perf_counter() - start, 6)
    figures["files"] = len(files)
    if shutil.which("dot") is None:
        figures["note"] = "Graphviz 'dot' not found on PATH: SVG rendering not measured"
        return figures
    try:
        start = time.perf_counter()
        files = render.render_all(specs, svg=True)
        seconds = time.perf_counter() - start
    except RuntimeError as error:
        figures["note"] = f"SVG rendering failed: {error}"
        return figures
    figures["render_s"] = round(seconds, 6)
    figures["files"] = len(files)
    figures["meets_targets"] = {"render_s": seconds <= TARGETS["render_s"]}
    return figures


# --- (e) the duel as a value ------------------------------------------------------------------


def sample_positions(setup: Setup, seed: int, count: int) -> list[Duel]:
    """``count`` positions of random legal play from ``setup`` (a copy every few actions)."""
    rng = random.Random(seed)
    positions: list[Duel] = []
    duel = Duel(setup)
    while len(positions) < count:
        if duel.is_over:
            duel = Duel(setup)
        for _ in range(rng.randrange(1, 25)):
            if duel.is_over:
                break
            duel.apply(rng.choice(duel.legal_actions()))
        positions.append(duel.copy())
    return positions


def measure_state(seed: int, count: int = 60, repeats: int = DEFAULT_REPEATS,
                  setup: Setup | None = None) -> dict[str, Any]:
    """Microseconds per duel for ``copy()``, ``to_json()``, ``Duel.from_json()`` and
    ``state_key()`` over ``count`` positions of random play (best of ``repeats``)."""
    positions = sample_positions(setup if setup is not None else bench_setup(), seed, count)
    texts = [duel.to_json() for duel in positions]

    def best(work: Callable[[], object]) -> float:
        fastest = float("inf")
        for _ in range(max(1, repeats)):
            start = time.perf_counter()
            work()
            fastest = min(fastest, time.perf_counter() - start)
        return round(fastest / len(positions) * 1e6, 2)

    copy_us = best(lambda: [duel.copy() for duel in positions])
    figures = {
        "positions": len(positions),
        "mean_trace_records": round(sum(len(d.trace) for d in positions) / len(positions), 1),
        "copy_us": copy_us,
        "to_json_us": best(lambda: [duel.to_json() for duel in positions]),
        "from_json_us": best(lambda: [Duel.from_json(text) for text in texts]),
        "state_key_us": best(lambda: [duel.state_key() for duel in positions]),
        "targets": {"copy_us": TARGETS["copy_us"]},
        "meets_targets": {"copy_us": copy_us <= TARGETS["copy_us"]},
    }
    return figures
