"""The benchmark's common ground: its targets and defaults, the setup of random play (b) and
what a run of it records (:mod:`ygo_fsm.bench` describes every figure)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from .game import PLAYERS, Setup
from .state import GameState

if TYPE_CHECKING:
    from .duel import Duel

__all__ = ["AGENTS_RATIO", "BENCH_CARDS", "DEFAULT_DUELS", "DEFAULT_REPEATS", "DEFAULT_SEED", "DEFAULT_TURNS",
           "TARGETS", "PlayResult", "Step", "bench_setup", "game_data"]

#: The foundation issue's targets: upper bounds, reported next to the figures, not asserted.
TARGETS: dict[str, float] = {
    "create_us_per_duel": 100.0,
    "create_bytes_per_duel": 20 * 1024.0,
    "ratio": 20.0,
    "render_s": 2.0,
    "copy_us": 60.0,
}

#: The agents' issue's target for the same ratio: random play within 3× of the dict-dispatch replay.
AGENTS_RATIO = 3.0

DEFAULT_SEED = 20240101
DEFAULT_TURNS = 1000
DEFAULT_DUELS = 1000
DEFAULT_REPEATS = 3

Step = tuple[str, str, str, str, str | None, str]
"""(machine, source, event, dest, choice, actor) of one recorded transition."""


def steps_of(duel: Duel) -> list[Step]:
    """The steps ``duel`` took, one per record of its trace."""
    return [(r.machine, r.source, r.event, r.dest, r.choice, r.actor) for r in duel.trace]


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
    """:func:`game_data` of each duel once play stopped."""

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


def game_data(duel: GameState) -> dict[str, Any]:
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
