"""(c) the bare dict-dispatch baseline: the recorded transitions of random play replayed through a
plain dict of the same declarations, guards and callbacks (:mod:`ygo_fsm.bench`)."""

from __future__ import annotations

import gc
import time
from collections.abc import Callable, Sequence
from typing import Any

from .bench_base import DEFAULT_REPEATS, PlayResult, Step, game_data
from .duel import Duel
from .game import Setup
from .rules import CALLBACKS, GUARDS
from .spec import MachineSpec
from .state import Frame, GameState

__all__ = ["AnyCallback", "AnyGuard", "Candidate", "DispatchTable", "Enters", "build_dispatch_table",
           "fresh_replay_game", "measure_dispatch", "replay", "timed_replay", "verify_replay"]

#: A guard or callback as stored in the dispatch table; it is called with a :class:`Frame`.
AnyGuard = Callable[[Any], bool]
AnyCallback = Callable[[Any], None]
#: Machines a state runs, outermost first: ``(machine id, its initial state, invoked_as)``.
Enters = tuple[tuple[str, str, str], ...]
#: One candidate transition: ``(dest, guards, unless, callbacks, enters of dest)``.
Candidate = tuple[str, tuple[AnyGuard, ...], tuple[AnyGuard, ...], tuple[AnyCallback, ...], Enters]
#: ``(machine, source, event) -> candidates in declaration order``.
DispatchTable = dict[tuple[str, str, str], list[Candidate]]


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
    """Replay each segment on its duel through ``table``; see (c) in :mod:`ygo_fsm.bench`.

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
            if duel.lp_lost:  # as the engine does after a transition in which a player lost LP
                duel.lp_lost = False
                duel.check_lp()
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
        if game_data(duel) != final:
            problems.append(f"duel {number}: replay ends with {game_data(duel)}, play ended with {final}")
    return problems


def timed_replay(play: PlayResult, table: DispatchTable, specs: dict[str, MachineSpec]) -> float:
    """One replay of ``play`` through ``table`` on fresh duels, after a full collection: its seconds."""
    duels = [fresh_replay_game(play.setup) for _ in play.segments]
    gc.collect()  # from a heap without what came before it
    start = time.perf_counter()
    replay(play.segments, table, duels, specs, play.setup.phase)
    return time.perf_counter() - start


def measure_dispatch(play: PlayResult, specs: dict[str, MachineSpec],
                     repeats: int = DEFAULT_REPEATS) -> dict[str, Any]:
    """(c): verify the replay once, then time it (best of ``repeats``, fresh duels each)."""
    table = build_dispatch_table(specs)
    problems = verify_replay(play, table, specs)
    best = min(timed_replay(play, table, specs) for _ in range(max(1, repeats)))
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
