"""(f) full duels from decks: whole duels between two random agents, vanilla and mixed decks,
auto-pass off and on (:mod:`ygo_fsm.bench`)."""

from __future__ import annotations

import gc
import random
import statistics
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from .bench_base import AGENTS_RATIO, DEFAULT_REPEATS, DEFAULT_SEED, PlayResult, Step, game_data, steps_of
from .bench_dispatch import build_dispatch_table, fresh_replay_game, replay, verify_replay
from .duel import Duel
from .engine import default_rulebook
from .game import Setup

__all__ = ["DEFAULT_FULL_DUELS", "MAX_DECISIONS", "MIXED_DECK", "VANILLA_DECK", "DuelsReplay", "DuelsResult",
           "Recorded", "deck_setup", "measure_full_duels", "play_full_duels"]

VANILLA_DECK: tuple[str, ...] = (
    ("sage_chiron",) * 8 + ("reflect_bounder",) * 8 + ("beetle_armor_knight",) * 8 + ("sapphire_dragon",) * 8
    + ("spirit_dragon",) * 4 + ("sacred_phoenix_of_nephthys",) * 4
)
"""40 monsters without effects (the workload the agents' issue names)."""

MIXED_DECK: tuple[str, ...] = (
    ("sage_chiron",) * 4 + ("reflect_bounder",) * 4 + ("beetle_armor_knight",) * 4 + ("sapphire_dragon",) * 4
    + ("spirit_dragon",) * 2 + ("sacred_phoenix_of_nephthys",) * 2 + ("cyber_dragon",) * 2
    + ("killer_snake",) * 2 + ("rogue_mercenaries",) * 2 + ("cyclone",) * 3 + ("dark_hole",) * 1
    + ("my_body_as_a_shield",) * 2 + ("sakuretsu_armor",) * 3 + ("mirror_force",) * 2 + ("soul_rope",) * 3
)
"""40 cards, a third of them with effects: spells, traps, a special summon and a trigger."""

DEFAULT_FULL_DUELS = 20
MAX_DECISIONS = 100_000
"""A duel taking more decisions than this is reported as an error (a loop in the engine)."""


def deck_setup(deck_a: Sequence[str], deck_b: Sequence[str], seed: int) -> Setup:
    """Both players' decks, shuffled with ``seed``, an opening hand of 5 each, ``modern`` rules."""
    return Setup.from_decks(list(deck_a), list(deck_b), seed=seed, profile="modern")


@dataclass
class DuelsResult:
    duels: int = 0
    setup_s: float = 0.0
    play_s: float = 0.0
    teardown_s: float = 0.0
    """Dropping each duel once it is over (a traced duel frees its trace rows)."""
    cpu_s: float = 0.0
    """Process time of setup, play and teardown (less sensitive than wall time to other load on the machine)."""
    decisions: int = 0
    multi: int = 0
    forced_passes: int = 0
    transitions: int = 0
    turns: int = 0
    winners: dict[str, int] = field(default_factory=dict)

    @property
    def total_s(self) -> float:
        """Setup, play and teardown: the elapsed time ``duels_per_s`` divides by."""
        return self.setup_s + self.play_s + self.teardown_s


Recorded = tuple[Setup, list[Step], dict[str, Any]]
"""A duel played: its setup, the steps it took (as random play records them) and its final game data."""


def play_full_duels(deck: Sequence[str], count: int, seed: int, *, auto_pass: bool, trace: bool = True,
                    recorded: list[Recorded] | None = None) -> DuelsResult:
    """``count`` random duels between two copies of ``deck``; see (f) in :mod:`ygo_fsm.bench`
    (``trace=False``: the duels keep no trace, as an agent's do). Each duel is timed from its setup
    to its teardown: the setup, the play, and dropping the duel once it is over, each on its own (so
    that one duel's teardown is not counted in the next one's setup). With ``recorded`` (and a trace),
    each duel's steps are added to it after its timing, from a replay of its history: reading a
    duel's trace builds its records, which the timed duel would then have to free."""
    rulebook = default_rulebook()
    gc.collect()  # the run starts from a heap without what came before it, as each replay of it does
    seeds = random.Random(seed)
    result = DuelsResult()
    for _ in range(count):
        shuffle_seed, agent_seed = seeds.randrange(2**32), seeds.randrange(2**32)
        choose = random.Random(agent_seed).choice
        start, cpu_start = time.perf_counter(), time.process_time()
        duel = Duel(deck_setup(deck, deck, shuffle_seed), rulebook=rulebook, auto_pass=auto_pass, trace=trace)
        ready = time.perf_counter()
        decisions = multi = 0
        while not duel.is_over:
            actions = duel.legal_actions()
            decisions += 1
            if len(actions) > 1:
                multi += 1
            duel.apply(choose(actions))
            if decisions > MAX_DECISIONS:
                raise RuntimeError(f"a duel took more than {MAX_DECISIONS} decisions: {duel!r}")
        end = time.perf_counter()
        cpu = time.process_time() - cpu_start
        result.decisions += decisions
        result.multi += multi
        result.transitions += duel.transitions_taken
        result.forced_passes += duel.auto_passes
        result.turns += duel.turn
        winner = duel.winner or "draw"
        result.winners[winner] = result.winners.get(winner, 0) + 1
        setup, history = duel.setup, duel.history
        dropping, cpu_dropping = time.perf_counter(), time.process_time()
        del duel
        result.teardown_s += time.perf_counter() - dropping
        result.cpu_s += cpu + time.process_time() - cpu_dropping
        result.duels += 1
        result.setup_s += ready - start
        result.play_s += end - ready
        if recorded is not None:
            replayed = Duel.replay(setup, history, rulebook=rulebook)
            recorded.append((setup, steps_of(replayed), game_data(replayed.game)))
    return result


class DuelsReplay:
    """The steps of ``recorded`` duels replayed through (c)'s dict-dispatch table, each from its own
    setup: checked once when made (:attr:`verified`: every duel replayed as played), then timed run
    by run (:meth:`run`)."""

    def __init__(self, recorded: Sequence[Recorded]) -> None:
        self.recorded = recorded
        self.specs = default_rulebook().specs
        self.table = build_dispatch_table(self.specs)
        self.transitions = sum(len(steps) for _, steps, _ in recorded)
        self.verified = not any(
            verify_replay(PlayResult(setup=setup, seconds=0.0, turns=0, actions=0, transitions=len(steps),
                                     segments=[steps], finals=[final]), self.table, self.specs)
            for setup, steps, final in recorded)

    def run(self) -> float:
        """One timed replay of every duel, from fresh game data: microseconds a transition."""
        games = [fresh_replay_game(setup) for setup, _, _ in self.recorded]
        gc.collect()  # from a heap without the duels' leftovers, as each run of the duels starts
        start = time.perf_counter()
        for (setup, steps, _), game in zip(self.recorded, games, strict=True):
            replay([steps], self.table, [game], self.specs, setup.phase)
        return (time.perf_counter() - start) / max(1, self.transitions) * 1e6


def measure_full_duels(count: int = DEFAULT_FULL_DUELS, seed: int = DEFAULT_SEED,
                       repeats: int = DEFAULT_REPEATS) -> dict[str, Any]:
    """(f): per deck and auto-pass setting, the duels' rates; and with auto-pass on, the same
    duels keeping no trace (``Duel(trace=False)``, as the agents' environment plays). Each setting's
    duels are played ``repeats`` times (the very same duels: the seeds are the same) and the quickest
    run's figures are given, as (b) and (c) give the best of their runs. Each run is followed at once by
    a replay of the same transitions through (c)'s dict-dispatch table (:class:`DuelsReplay`), so that
    the two see the same load on the machine: ``dispatch_ratio`` is the median over the runs of the
    run's ``us_per_transition`` over its replay's (``dispatch_ratio_runs`` the lowest and highest of
    them), ``dispatch_us_per_transition`` the quickest replay, ``dispatch_ratio_of_bests`` the quickest
    run's over the quickest replay's."""
    figures: dict[str, Any] = {"seed": seed, "duels_per_run": count, "runs": max(1, repeats), "profile": "modern"}
    for name, deck in (("vanilla", VANILLA_DECK), ("mixed", MIXED_DECK)):
        replayed: DuelsReplay | None = None
        for auto_pass, trace in ((False, True), (True, True), (True, False)):
            recorded: list[Recorded] | None = [] if trace else None
            run = play_full_duels(deck, count, seed, auto_pass=auto_pass, trace=trace, recorded=recorded)
            if recorded is not None:  # the same duels, with or without a trace: the same transitions
                replayed = DuelsReplay(recorded)
            assert replayed is not None  # the traced setting of the deck comes first
            replays = [replayed.run()]
            ratios = [run.play_s / max(1, run.transitions) * 1e6 / replays[0]]
            for _ in range(max(1, repeats) - 1):  # the steps are recorded once: the runs play the same duels
                again = play_full_duels(deck, count, seed, auto_pass=auto_pass, trace=trace)
                if again.transitions != run.transitions:
                    raise RuntimeError(f"{name}: a second run of the same seeded duels took other transitions")
                replays.append(replayed.run())
                ratios.append(again.play_s / max(1, again.transitions) * 1e6 / replays[-1])
                if again.total_s < run.total_s:
                    run = again
            total = run.total_s
            us_per_transition = run.play_s / max(1, run.transitions) * 1e6
            ratio = round(statistics.median(ratios), 2)
            figures[f"{name}_auto_pass_{'on' if auto_pass else 'off'}{'' if trace else '_no_trace'}"] = {
                "duels": run.duels,
                "duels_per_s": round(run.duels / total, 3),
                "duels_per_s_play": round(run.duels / run.play_s, 3),
                "duels_per_cpu_s": round(run.duels / run.cpu_s, 3),
                "setup_ms_per_duel": round(run.setup_s / run.duels * 1e3, 3),
                "teardown_ms_per_duel": round(run.teardown_s / run.duels * 1e3, 3),
                "decisions_per_duel": round(run.decisions / run.duels, 1),
                "multi_option_decisions_per_duel": round(run.multi / run.duels, 1),
                "forced_passes_per_duel": round(run.forced_passes / run.duels, 1),
                "turns_per_duel": round(run.turns / run.duels, 1),
                "transitions_per_duel": round(run.transitions / run.duels, 1),
                "decisions_per_s": round(run.decisions / total, 1),
                "multi_option_decisions_per_s": round(run.multi / total, 1),
                "us_per_transition": round(us_per_transition, 3),
                "dispatch_us_per_transition": round(min(replays), 4),
                "dispatch_ratio": ratio,
                "dispatch_ratio_runs": [round(min(ratios), 2), round(max(ratios), 2)],
                "dispatch_ratio_of_bests": round(us_per_transition / min(replays), 2),
                "dispatch_verified": replayed.verified,
                "meets_agents_ratio": ratio <= AGENTS_RATIO,
                "winners": dict(sorted(run.winners.items())),
            }
    return figures
