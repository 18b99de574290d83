"""Benchmark v1: how fast and how small the engine is, against a bare dict-dispatch baseline.

Run ``python -m ygo_fsm.bench [--seed N] [--turns N] [--duels N] [--repeats N] [--out FILE]``;
it prints one JSON object (and writes it to ``--out`` when given). The figures:

(a) ``creation`` — duel creation.
    ``create_us_per_duel``: mean microseconds per ``Duel()`` (default setup, the shared
    :func:`~ygo_fsm.engine.default_rulebook` loaded before timing), over ``--duels`` duels,
    best of ``--repeats`` runs. A duel is created *settled*: it has already moved through
    the engine transitions up to the first point where a player must act.
    ``create_bytes_per_duel``: with :mod:`tracemalloc`, the bytes still allocated while
    ``--duels`` duels are alive in a list, minus the bytes before, divided by the count (the
    list's own pointer per duel is included).

(b) ``random_play`` — random legal play. A :class:`random.Random` seeded with ``--seed``
    picks one of ``Duel.legal_actions()`` and ``apply()`` takes it, over and over; each duel
    starts from :func:`bench_setup` (40-card decks, so a duel lasts until a deck-out) and a
    new duel starts when one ends, until ``--turns`` turns are over (a turn is over when the
    next begins or the duel ends). The whole loop is timed — legality enumeration, the
    ``transitions`` machinery, settling, trace records, and creating the next duels — best
    of ``--repeats`` identical runs. ``transitions`` counts trace records (one per
    transition taken); ``us_per_transition`` is elapsed time over that count.

(c) ``dict_dispatch`` — the bare baseline. From the same declarations
    (``rulebook.specs``), :func:`build_dispatch_table` builds a plain dict
    ``(machine, source, event) -> [(dest, guards, unless, callbacks, enters), ...]`` whose
    guard and callback functions are the very ones in :data:`ygo_fsm.rules.GUARDS` and
    :data:`ygo_fsm.rules.CALLBACKS`. :func:`replay` feeds it the transitions recorded in (b)
    — only their machine, source and event — on fresh duels made from the same setup (their
    game data rewound to the setup, see :func:`fresh_replay_game`): for each one it picks the
    first candidate whose guards hold and whose ``unless`` guards do not, sets the frame's
    state, runs the callbacks (so ``draw_card`` and ``begin_next_turn`` change real game
    data and later guards read it), and resets the frames of the machines the new state
    runs (``enters``), so ``frame.invoked_as`` is right for guards such as
    ``main_phase_skip_applies``. The frames are plain :class:`~ygo_fsm.engine.Frame`
    objects (four slots). No ``transitions`` library, no legality enumeration, no trace,
    no settling logic: the sequence is given. Before timing, :func:`verify_replay` runs the
    same replay with checks on and confirms that every step starts from the recorded source
    state, reaches the recorded dest state, and that each duel ends with the same game data
    as the played one. ``ratio`` is (b)'s ``us_per_transition`` over (c)'s.

(d) ``render`` — every diagram of every machine, in memory (no file written), with
    :func:`ygo_fsm.render.render_all`: ``render_s`` including SVG through Graphviz's ``dot``
    (one process per machine), ``render_s_without_svg`` for DOT, Mermaid and the index only.
    Both ``null`` with a note when ``dot`` (or the renderer) is not available.

(e) ``state`` — the duel as a value, over 60 positions of the same random play (a copy of the
    duel every 1–24 actions): microseconds per duel for ``copy()``, ``to_json()``,
    ``Duel.from_json()`` and ``state_key()``, best of ``--repeats`` runs. Target: ``copy()``
    at most 60 µs.

Targets (the foundation issue's Benchmark v1): creation ≤ 100 µs and ≤ 20 KiB per duel,
``ratio`` ≤ 20, rendering ≤ 2 s. They are *measured and reported* (``targets`` and
``meets_targets`` next to each figure), never asserted: the benchmark does not fail when a
target is missed. Timings use :func:`time.perf_counter` and depend on the machine.
"""

from __future__ import annotations

import argparse
import gc
import json
import platform
import random
import shutil
import sys
import time
import tracemalloc
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from importlib import metadata
from pathlib import Path
from typing import Any

from .duel import Duel
from .engine import Rulebook, default_rulebook
from .game import PLAYERS, Setup
from .rules import CALLBACKS, GUARDS
from .spec import MachineSpec
from .state import Frame, GameState

__all__ = [
    "TARGETS",
    "DispatchTable",
    "PlayResult",
    "bench_setup",
    "build_dispatch_table",
    "fresh_replay_game",
    "main",
    "measure_creation",
    "measure_dispatch",
    "measure_render",
    "random_play",
    "replay",
    "run_benchmark",
    "verify_replay",
]

#: The foundation issue's targets: upper bounds, reported next to the figures, not asserted.
TARGETS: dict[str, float] = {
    "create_us_per_duel": 100.0,
    "create_bytes_per_duel": 20 * 1024.0,
    "ratio": 20.0,
    "render_s": 2.0,
    "copy_us": 60.0,
}

DEFAULT_SEED = 20240101
DEFAULT_TURNS = 1000
DEFAULT_DUELS = 1000
DEFAULT_REPEATS = 3

# --- types ---------------------------------------------------------------------------------

#: A guard or callback as stored in the dispatch table; it is called with a :class:`Frame`.
AnyGuard = Callable[[Any], bool]
AnyCallback = Callable[[Any], None]
#: Machines a state runs, outermost first: ``(machine id, its initial state, invoked_as)``.
Enters = tuple[tuple[str, str, str], ...]
#: One candidate transition: ``(dest, guards, unless, callbacks, enters of dest)``.
Candidate = tuple[str, tuple[AnyGuard, ...], tuple[AnyGuard, ...], tuple[AnyCallback, ...], Enters]
#: ``(machine, source, event) -> candidates in declaration order``.
DispatchTable = dict[tuple[str, str, str], list[Candidate]]
Step = tuple[str, str, str, str, str | None, str]
"""(machine, source, event, dest, choice, actor) of one recorded transition."""


@dataclass
class PlayResult:
    """What random play (b) recorded: per duel, the steps taken and the final game data."""

    setup: Setup
    seconds: float
    turns: int
    actions: int
    transitions: int
    segments: list[list[Step]] = field(default_factory=list)
    """One list of steps per duel played, from its creation."""
    finals: list[dict[str, Any]] = field(default_factory=list)
    """:func:`_game_data` of each duel once play stopped."""

    @property
    def duels(self) -> int:
        return len(self.segments)


# --- setup -----------------------------------------------------------------------------------


BENCH_CARDS: tuple[dict[str, Any], ...] = (
    {"card": "cyclone", "zone": "hand"},
    {"card": "rogue_mercenaries", "zone": "hand"},
    {"card": "my_body_as_a_shield", "zone": "spell_trap"},
    {"card": "soul_rope", "zone": "spell_trap"},
    {"card": "reflect_bounder", "zone": "deck"},
)
"""Library cards each player starts with, so random play also builds chains, opens windows
with triggers, summons through the summon procedure and fights with chains in the Battle Step."""


def bench_setup(deck: int = 40, hand: int = 5) -> Setup:
    """The setup of every benchmark duel: modern rules, both players with ``deck`` unnamed cards,
    one face-up Attack Position monster each (so Battle Phases reach the Battle Step) and the
    :data:`BENCH_CARDS`."""
    player = {"deck": deck, "hand": hand, "monsters": [{"name": "Benchmark Monster", "atk": 1000}],
              "cards": list(BENCH_CARDS)}
    return Setup.model_validate({"players": {p: player for p in PLAYERS}})


def _game_data(duel: GameState) -> dict[str, Any]:
    """The game data the guards read and the callbacks change."""
    return {
        "turn": duel.turn,
        "turn_player": duel.turn_player,
        "winner": duel.winner,
        "is_over": duel.is_over,
        "players": {
            p: (state.lp, state.hand, state.deck, state.graveyard, len(state.monsters), len(state.spell_traps))
            for p, state in duel.players.items()
        },
    }


# --- (a) creation ------------------------------------------------------------------------------


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


# --- (b) random legal play ------------------------------------------------------------------


def random_play(turns: int, seed: int, setup: Setup | None = None, *,
                rulebook: Rulebook | None = None) -> PlayResult:
    """Play random legal actions until ``turns`` turns are over; see (b) in the module doc."""
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
    segments = [[(r.machine, r.source, r.event, r.dest, r.choice, r.actor) for r in d.trace] for d in finished]
    return PlayResult(
        setup=setup, seconds=elapsed, turns=played, actions=actions,
        transitions=sum(len(s) for s in segments), segments=segments,
        finals=[_game_data(d.game) for d in finished],
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


# --- (c) bare dict dispatch -------------------------------------------------------------------


def _enters(specs: dict[str, MachineSpec], machine: str, state: str) -> Enters:
    """The machines entering ``machine``'s ``state`` pushes, outermost first."""
    out: list[tuple[str, str, str]] = []
    child = specs[machine].state(state).machine
    while child is not None:
        initial = specs[child].initial
        out.append((child, initial, state))
        machine, state = child, initial
        child = specs[machine].state(state).machine
    return tuple(out)


def _profile_guard(profile: str | None) -> tuple[AnyGuard, ...]:
    """A profile-scoped transition's extra guard: the duel plays that profile."""
    if profile is None:
        return ()

    def plays_profile(frame: Any) -> bool:
        return bool(frame.game.profile == profile)

    return (plays_profile,)


def build_dispatch_table(specs: dict[str, MachineSpec]) -> DispatchTable:
    """``(machine, source, event) -> [(dest, guards, unless, callbacks, enters), ...]`` from
    the declarations, with the registered guard and callback functions."""
    table: DispatchTable = {}
    for spec in specs.values():
        for t in spec.transitions:
            candidate: Candidate = (
                t.dest,
                (*_profile_guard(t.profile), *(GUARDS[g] for g in t.guards)),
                tuple(GUARDS[g] for g in t.unless),
                tuple(CALLBACKS[c] for c in t.callbacks),
                _enters(specs, spec.id, t.dest),
            )
            table.setdefault((spec.id, t.source, t.event), []).append(candidate)
    return table


def fresh_replay_game(setup: Setup) -> GameState:
    """Game data for the replay: made from ``setup`` and not settled.

    ``Duel()`` settles on creation (its callbacks may already have run); the replay replays
    those transitions too, so it starts from the setup's data, not from the settled duel's.
    """
    game = Duel.initial_game(setup)
    game.battle_phase_number = 1 if setup.phase == "battle_phase" else 0
    return game


def replay(segments: Sequence[Sequence[Step]], table: DispatchTable, duels: Sequence[GameState],
           specs: dict[str, MachineSpec], phase: str, *, check: bool = False) -> list[str]:
    """Replay each segment on its duel through ``table``; see (c) in the module doc.

    With ``check``, returns one message per step whose frame was not in the recorded source
    state or whose chosen dest differs from the recorded one (otherwise returns ``[]``).
    """
    problems: list[str] = []
    initials = {machine: spec.initial for machine, spec in specs.items()}
    turn_enters = _enters(specs, "turn", phase)
    for segment, duel in zip(segments, duels, strict=True):
        frames = {machine: Frame(duel, machine, initial, None) for machine, initial in initials.items()}
        frames["turn"].state = phase
        stack = [frames["turn"]]
        for child, initial, invoked_as in turn_enters:
            child_frame = frames[child]
            child_frame.state, child_frame.invoked_as, child_frame.parent = initial, invoked_as, stack[-1].machine
            stack.append(child_frame)
        duel.frames = stack  # the guards that look at the active machines see the replay's
        for index, (machine, source, event, recorded, choice, actor) in enumerate(segment):
            frame = frames[machine]
            for candidate in table[(machine, source, event)]:
                for guard in candidate[1]:
                    if not guard(frame):
                        break
                else:
                    for guard in candidate[2]:
                        if guard(frame):
                            break
                    else:
                        break
            else:
                raise LookupError(f"step {index}: no enabled transition for {machine}.{source} on {event}")
            dest, _, _, callbacks, enters = candidate
            if check and (frame.state != source or dest != recorded):
                problems.append(f"step {index}: {machine} in {frame.state} (recorded {source}), "
                                f"{event} -> {dest} (recorded {recorded})")
            frame.state = dest
            duel.choice, duel.actor = choice, (None if actor == "engine" else actor)
            for callback in callbacks:
                callback(frame)
            duel.check_lp()  # as the engine does after every transition
            duel.forget()
            duel.choice = duel.actor = None
            del stack[stack.index(frame) + 1:]
            for child, initial, invoked_as in enters:
                child_frame = frames[child]
                child_frame.state, child_frame.invoked_as, child_frame.parent = initial, invoked_as, stack[-1].machine
                stack.append(child_frame)
    return problems


def verify_replay(play: PlayResult, table: DispatchTable, specs: dict[str, MachineSpec]) -> list[str]:
    """Replay ``play`` with checks: every step's source and dest as recorded, and every duel
    ending with the played duel's game data. Returns the problems found (``[]`` when none)."""
    duels = [fresh_replay_game(play.setup) for _ in play.segments]
    problems = replay(play.segments, table, duels, specs, play.setup.phase, check=True)
    for number, (duel, final) in enumerate(zip(duels, play.finals, strict=True)):
        if _game_data(duel) != final:
            problems.append(f"duel {number}: replay ends with {_game_data(duel)}, play ended with {final}")
    return problems


def measure_dispatch(play: PlayResult, specs: dict[str, MachineSpec],
                     repeats: int = DEFAULT_REPEATS) -> dict[str, Any]:
    """(c): verify the replay once, then time it (best of ``repeats``, fresh duels each)."""
    table = build_dispatch_table(specs)
    problems = verify_replay(play, table, specs)
    best = float("inf")
    for _ in range(max(1, repeats)):
        duels = [fresh_replay_game(play.setup) for _ in play.segments]
        start = time.perf_counter()
        replay(play.segments, table, duels, specs, play.setup.phase)
        best = min(best, time.perf_counter() - start)
    figures: dict[str, Any] = {
        "repeats": max(1, repeats),
        "transitions": play.transitions,
        "table_keys": len(table),
        "seconds": round(best, 6),
        "us_per_transition": round(best / play.transitions * 1e6, 4),
        "verified": not problems,
    }
    if problems:
        figures["problems"] = problems[:10]
    return figures


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


# --- the whole benchmark --------------------------------------------------------------------


def _version(distribution: str) -> str | None:
    try:
        return metadata.version(distribution)
    except metadata.PackageNotFoundError:
        return None


def run_benchmark(*, seed: int = DEFAULT_SEED, turns: int = DEFAULT_TURNS, duels: int = DEFAULT_DUELS,
                  repeats: int = DEFAULT_REPEATS, setup: Setup | None = None,
                  render: bool = True) -> dict[str, Any]:
    """Every figure of Benchmark v1 as one JSON-ready dict."""
    started = time.perf_counter()
    rulebook = default_rulebook()
    creation = measure_creation(duels, repeats)
    play_figures, play = measure_play(turns, seed, repeats, setup)
    dispatch = measure_dispatch(play, rulebook.specs, repeats)
    ratio = play_figures["us_per_transition"] / dispatch["us_per_transition"]
    dispatch["ratio"] = round(ratio, 2)
    dispatch["targets"] = {"ratio": TARGETS["ratio"]}
    dispatch["meets_targets"] = {"ratio": ratio <= TARGETS["ratio"]}
    state = measure_state(seed, repeats=repeats, setup=setup)
    rendering = measure_render(list(rulebook.specs.values())) if render else None
    notes = [
        "Targets are measured and reported, never asserted; timings depend on the machine.",
        "create_bytes_per_duel counts what tracemalloc sees still allocated while the duels are "
        "alive, including their settled frames and initial trace records.",
        "random_play times everything a player loop does: legal_actions(), apply() (transitions "
        "library, settling, trace records) and creating the next duel when one ends.",
        "dict_dispatch replays the recorded (machine, source, event) sequence with the same guard and "
        "callback functions on real game data; no transitions library, legality enumeration or trace.",
        "ratio = random_play.us_per_transition / dict_dispatch.us_per_transition.",
    ]
    if not dispatch["verified"]:
        notes.append("WARNING: the dict replay did not reproduce the recorded play; ratio is not meaningful.")
    if rendering is not None and "note" in rendering:
        notes.append(str(rendering["note"]))
    return {
        "benchmark": "Benchmark v1",
        "python": f"{platform.python_implementation()} {platform.python_version()}",
        "transitions_version": _version("transitions"),
        "pydantic_version": _version("pydantic"),
        "platform": platform.platform(),
        "machines": len(rulebook.specs),
        "seed": seed,
        "creation": creation,
        "random_play": play_figures,
        "dict_dispatch": dispatch,
        "state": state,
        "render": rendering,
        "total_s": round(time.perf_counter() - started, 3),
        "notes": notes,
    }


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m ygo_fsm.bench", description="Benchmark v1 of ygo-fsm.")
    parser.add_argument("--seed", type=int, default=DEFAULT_SEED, help="seed of the random play (b)")
    parser.add_argument("--turns", type=int, default=DEFAULT_TURNS, help="turns of random play (b)")
    parser.add_argument("--duels", type=int, default=DEFAULT_DUELS, help="duels created in (a)")
    parser.add_argument("--repeats", type=int, default=DEFAULT_REPEATS, help="timing repeats (best is kept)")
    parser.add_argument("--out", type=Path, help="also write the JSON to this file")
    args = parser.parse_args(argv)
    if args.turns < 1 or args.duels < 1 or args.repeats < 1:
        parser.error("--turns, --duels and --repeats must be at least 1")
    result = run_benchmark(seed=args.seed, turns=args.turns, duels=args.duels, repeats=args.repeats)
    text = json.dumps(result, indent=2, ensure_ascii=False)
    print(text)
    if args.out is not None:
        args.out.write_text(text + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
