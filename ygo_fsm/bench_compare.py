"""Two versions of the engine on the full-duels workload, side by side: how many times faster this
tree plays it than another (``make bench-compare REF=<commit>``, or
``python -m ygo_fsm.bench_compare OTHER_TREE [--this TREE] [--deck vanilla|mixed] [--duels N]
[--runs K] [--auto-pass on|off] [--no-trace] [--seed N] [--instructions] [--out FILE]``).

Both trees play the same duels (:data:`~ygo_fsm.bench_duels.VANILLA_DECK` or
:data:`~ygo_fsm.bench_duels.MIXED_DECK` on both sides, ``modern``, random legal play seeded as
``make bench`` seeds it) through :mod:`ygo_fsm.bench_driver`, each run a fresh process, the two
trees alternating (this, other; then other, this …) so that a change in the machine's load falls on
both. Each run's process time covers setup and play after one warm-up duel. The figures:

- ``speedup``: the median over the runs of (the other tree's time / this tree's time), beside the
  ratio of the summed times; above 1 this tree is faster. Timings on a shared machine drift, which
  is why the runs are paired and the median is given.
- ``opcode_ratio``: the other tree's Python opcodes over this tree's for the same duels, counted once
  each under ``PYTHONHASHSEED=0`` — the same on every run and every machine, so it shows a change of
  a per cent or two that the timings hide (it does not weigh what an opcode costs).
- ``instruction_ratio`` (with ``--instructions``, where valgrind is installed): the machine
  instructions the other tree's duels take over this tree's, counted by valgrind's callgrind under
  ``PYTHONHASHSEED=0``. It is what the CPU works through, C code included, so it weighs what an
  opcode costs; and like the opcodes it does not move with the load (by a few thousand
  instructions in hundreds of millions: :func:`count_instructions`). A run that plays only the
  warm-up duel is counted too and taken off, so that start-up (imports, the rulebook) is not in it.
- per tree: CPU seconds, opcodes (and instructions, when counted) per duel, transitions and decisions
  per duel, duels per CPU-second, whether its duels kept a trace (a version without
  ``Duel(trace=False)`` always keeps one) and whether auto-pass passed for the players (a version
  without it asks the agent for every pass).

The other tree may be older than ``Setup.from_decks`` and auto-pass — 4b264d2, the engine the agents'
issue measured and set its targets against (``make bench-compare`` takes it unless ``REF`` names
another): the driver then deals the decks itself and the agent passes when asked
(:mod:`ygo_fsm.bench_driver`). Its duels are drawn the same way but are not the same duels, so compare
enough of them (``--duels 20 --runs 6``: the mean length of 120 random duels moves by a few per cent).

A version whose rules differ may play other duels from the same seeds: ``same_duels`` says whether
both trees took the same number of transitions.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import re
import shutil
import statistics
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from . import bench_driver
from .bench_base import DEFAULT_SEED
from .bench_duels import MAX_DECISIONS, MIXED_DECK, VANILLA_DECK

__all__ = ["DECKS", "compare", "count_instructions", "main", "run_tree"]

DECKS = {"vanilla": VANILLA_DECK, "mixed": MIXED_DECK}
"""The decks the comparison can play (both players the same deck)."""

_THIS_TREE = Path(__file__).resolve().parent.parent
_RUN_DRIVER = "import runpy, sys; sys.argv = sys.argv[1:]; runpy.run_path(sys.argv[0], run_name='__main__')"
"""Runs the driver as a script without its own folder on the import path (a script's folder comes
first, and this package's modules must not stand in for the standard library's)."""


_COLLECTED = re.compile(r"^==\d+== Collected : (\d+)$", re.MULTILINE)
"""The line in which callgrind reports the instructions it counted."""


def _driver(tree: Path, config: dict[str, Any], prefix: Sequence[str] = ()) -> subprocess.CompletedProcess[str]:
    """The driver run on ``tree`` with ``config`` in a fresh process (under ``prefix``, e.g. valgrind)."""
    environment = dict(os.environ, PYTHONHASHSEED="0")
    environment.pop("PYTHONPATH", None)
    command = [*prefix, sys.executable, "-c", _RUN_DRIVER, bench_driver.__file__, str(tree.resolve()),
               json.dumps(config)]
    done = subprocess.run(command, capture_output=True, text=True, env=environment, cwd=tree.resolve().parent,
                          check=False)
    if done.returncode != 0:
        last = [line for line in done.stderr.strip().splitlines() if not line.startswith("==")][-1:] or ["no output"]
        raise RuntimeError(f"{tree}: the full-duels workload failed: {last[0]}")
    return done


def _config(deck: Sequence[str], duels: int, seed: int, auto_pass: bool, trace: bool, opcodes: bool) -> dict[str, Any]:
    return {"deck_a": list(deck), "deck_b": list(deck), "duels": duels, "seed": seed, "auto_pass": auto_pass,
            "trace": trace, "opcodes": opcodes, "max_decisions": MAX_DECISIONS}


def run_tree(tree: Path, *, deck: Sequence[str], duels: int, seed: int, auto_pass: bool, trace: bool,
             opcodes: bool = False) -> dict[str, Any]:
    """One run of :mod:`ygo_fsm.bench_driver` on ``tree`` in a fresh process (its JSON figures)."""
    done = _driver(tree, _config(deck, duels, seed, auto_pass, trace, opcodes))
    figures: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    package = Path(figures["package"]).resolve()
    if tree.resolve() not in package.parents:
        raise RuntimeError(f"{tree}: ygo_fsm was imported from {package}, not from the tree")
    return figures


def count_instructions(tree: Path, *, deck: Sequence[str], duels: int, seed: int, auto_pass: bool,
                       trace: bool, repeats: int = 3) -> int:
    """The machine instructions ``tree``'s driver takes for ``duels`` duels, counted by valgrind's
    callgrind: a run playing them after the warm-up duel, less a run playing the warm-up duel only,
    each the lowest of ``repeats`` runs. With address randomisation on, the objects' addresses lay
    out the identity-keyed sets and dicts differently each time and the count moves by several per
    cent; the runs have it off (``setarch -R``) and then agree to a few thousand instructions, but
    now and then one takes millions more in start-up, which the lowest leaves out."""
    valgrind, setarch = shutil.which("valgrind"), shutil.which("setarch")
    if valgrind is None or setarch is None:
        raise RuntimeError("counting instructions needs valgrind and setarch (Debian: apt-get install valgrind "
                           "util-linux)")
    prefix = [setarch, platform.machine(), "-R", valgrind, "--tool=callgrind", f"--callgrind-out-file={os.devnull}"]
    lowest = []
    for played in (0, duels):
        counts = []
        for _ in range(max(1, repeats)):
            done = _driver(tree, _config(deck, played, seed, auto_pass, trace, False), prefix)
            found = _COLLECTED.search(done.stderr)
            if found is None:
                raise RuntimeError(f"{tree}: valgrind reported no instruction count")
            counts.append(int(found.group(1)))
        lowest.append(min(counts))
    return lowest[1] - lowest[0]


def compare(other: Path, this: Path = _THIS_TREE, *, deck: str = "vanilla", duels: int = 10, runs: int = 6,
            seed: int = DEFAULT_SEED, auto_pass: bool = True, trace: bool = True,
            instructions: bool = False) -> dict[str, Any]:
    """The figures of the module docstring for ``this`` tree against ``other``."""
    if runs < 1 or duels < 1:
        raise ValueError("give at least one duel and one run")
    cards = DECKS[deck]
    times: dict[str, list[float]] = {"this": [], "other": []}
    trees = {"this": this, "other": other}
    last: dict[str, dict[str, Any]] = {}
    for number in range(runs):
        for side in ("this", "other") if number % 2 == 0 else ("other", "this"):
            figures = run_tree(trees[side], deck=cards, duels=duels, seed=seed, auto_pass=auto_pass, trace=trace)
            times[side].append(figures["cpu_s"])
            last[side] = figures
    counted = {side: run_tree(trees[side], deck=cards, duels=duels, seed=seed, auto_pass=auto_pass, trace=trace,
                              opcodes=True)["opcodes"] for side in trees}
    machine = ({side: count_instructions(trees[side], deck=cards, duels=duels, seed=seed, auto_pass=auto_pass,
                                         trace=trace) for side in trees} if instructions else None)
    speedups = [o / t for t, o in zip(times["this"], times["other"], strict=True)]
    per_tree = {side: {
        "tree": str(trees[side]),
        "trace": last[side]["trace"],
        "passed_for_players": last[side]["passed_for_players"],
        "cpu_s_per_duel": round(statistics.median(times[side]) / duels, 5),
        "duels_per_cpu_s": round(duels / statistics.median(times[side]), 3),
        "opcodes_per_duel": round(counted[side] / duels),
        "transitions_per_duel": round(last[side]["transitions"] / duels, 1),
        "decisions_per_duel": round(last[side]["decisions"] / duels, 1),
        **({"instructions_per_duel": round(machine[side] / duels)} if machine is not None else {}),
    } for side in trees}
    return {
        "workload": {"deck": deck, "duels_per_run": duels, "runs": runs, "seed": seed, "auto_pass": auto_pass,
                     "trace": trace, "profile": "modern"},
        "speedup": round(statistics.median(speedups), 3),
        "speedup_of_sums": round(sum(times["other"]) / sum(times["this"]), 3),
        "speedup_range": [round(min(speedups), 3), round(max(speedups), 3)],
        "opcode_ratio": round(counted["other"] / counted["this"], 3),
        **({"instruction_ratio": round(machine["other"] / machine["this"], 3)} if machine is not None else {}),
        "same_duels": last["this"]["transitions"] == last["other"]["transitions"],
        "this": per_tree["this"],
        "other": per_tree["other"],
    }


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m ygo_fsm.bench_compare", description=__doc__.splitlines()[0])
    parser.add_argument("other", type=Path, help="a source tree of another version (its ygo_fsm/ inside)")
    parser.add_argument("--this", type=Path, default=_THIS_TREE, help="the tree to measure (default: this one)")
    parser.add_argument("--deck", choices=sorted(DECKS), default="vanilla")
    parser.add_argument("--duels", type=int, default=10, help="duels per run")
    parser.add_argument("--runs", type=int, default=6, help="runs per tree, alternating")
    parser.add_argument("--auto-pass", choices=("on", "off"), default="on")
    parser.add_argument("--no-trace", action="store_true", help="duels keep no trace where the version allows")
    parser.add_argument("--seed", type=int, default=DEFAULT_SEED)
    parser.add_argument("--instructions", action="store_true",
                        help="also count each tree's machine instructions with valgrind (slow: minutes a tree)")
    parser.add_argument("--out", type=Path, help="also write the JSON here")
    args = parser.parse_args(argv)
    for tree in (args.other, args.this):
        if not (tree / "ygo_fsm" / "__init__.py").is_file():
            print(f"bench_compare: {tree} holds no ygo_fsm package", file=sys.stderr)
            return 2
    try:
        figures = compare(args.other, args.this, deck=args.deck, duels=args.duels, runs=args.runs, seed=args.seed,
                          auto_pass=args.auto_pass == "on", trace=not args.no_trace, instructions=args.instructions)
    except (RuntimeError, ValueError) as error:
        print(f"bench_compare: {error}", file=sys.stderr)
        return 2
    text = json.dumps(figures, indent=2)
    print(text)
    if args.out is not None:
        args.out.write_text(text + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
