"""ygo-fsm: the Yu-Gi-Oh! OCG turn structure as explicit, declared finite-state machines.

>>> from ygo_fsm import Duel
>>> duel = Duel(profile="ocg2008")
>>> duel.state
'draw_phase.before_draw_window.turn_player'

The modules form layers; each imports only from the layers above it in this list (a test
fails on any import circle, typing-only imports included):

1. Declarations and their models — ``errors``; ``spec`` (machine specs), ``loader`` (reads
   ``machines/``); ``grants`` (what continuous effects give monsters); ``cards`` (card specs and
   the effect vocabulary: the façade over ``card_enums`` (its closed words), ``card_models``
   (the pydantic card and effect models), ``card_checks`` (semantic validation) and
   ``card_library`` (reading, loading, merging card files), with ``vocabulary`` (the rules of
   composition)); ``game`` (the setup, rule profiles and the closed vocabularies of the game).
2. The state model — ``state`` (:class:`~ygo_fsm.state.GameState`: all game data of a duel,
   and the frames); ``trace`` (trace records); ``snapshot`` (the canonical document of a state:
   JSON, equality, the state key).
3. The rules — ``continuous`` (the continuous effects in force, read by the others), ``in_play``
   (which effects of a player's cards can be used where they are), ``multi_target`` (several
   targets, chosen one at a time), ``effects``, ``equips``, ``events``, ``movements`` (card
   movements the rules share), ``operations``, ``chain``, ``battle``, ``summon``, ``priority``
   and ``rules`` (the guards, callbacks and choosers the machines name): small functions that
   read and change a ``GameState``.
4. The runtime — ``engine`` (the declared machines built once into ``transitions`` machines);
   ``placing`` (a setup's cards put in their zones); ``runtime`` (one duel's frames: options,
   taking transitions, settling, trace records); ``duel_value`` (copy, equality, save/load).
5. The façade — ``duel`` (:class:`Duel`: legal actions, apply, the integer action space, views,
   trace files).
6. The interfaces — ``scenario``, ``render`` (over ``diagram_text``, ``render_dot`` and
   ``render_mermaid``), ``cli`` (over ``cli_io`` and ``cli_scenarios``), ``bench`` (with its
   sections ``bench_base``, ``bench_play``, ``bench_dispatch``, ``bench_value``, ``bench_duels``,
   ``bench_env``).
"""

from .cards import CardSpec, default_library, load_library, merge
from .duel import Action, Duel
from .engine import Rulebook, default_rulebook
from .errors import (
    EngineError,
    IllegalActionError,
    MachineDefinitionError,
    ScenarioError,
    StateFormatError,
    TraceFormatError,
    TraceNotKeptError,
    YgoFsmError,
)
from .game import HandLimitEffect, Monster, PlayerSetup, Position, Profile, Setup, TurnEffect
from .trace import TraceRecord
from .views import Observation

__all__ = [
    "Action",
    "CardSpec",
    "Duel",
    "EngineError",
    "HandLimitEffect",
    "IllegalActionError",
    "MachineDefinitionError",
    "Monster",
    "Observation",
    "PlayerSetup",
    "Position",
    "Profile",
    "Rulebook",
    "ScenarioError",
    "Setup",
    "StateFormatError",
    "TraceFormatError",
    "TraceNotKeptError",
    "TraceRecord",
    "TurnEffect",
    "YgoFsmError",
    "default_library",
    "default_rulebook",
    "load_library",
    "merge",
]
__version__ = "0.1.0"
