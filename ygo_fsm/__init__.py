"""ygo-fsm: the Yu-Gi-Oh! OCG turn structure as explicit, declared finite-state machines.

>>> from ygo_fsm import Duel
>>> duel = Duel(profile="ocg2008")
>>> duel.state
'draw_phase.before_draw_window.turn_player'
"""

from .duel import Action, Duel
from .engine import Rulebook, default_rulebook
from .errors import (
    EngineError,
    IllegalActionError,
    MachineDefinitionError,
    ScenarioError,
    TraceFormatError,
    YgoFsmError,
)
from .game import HandLimitEffect, Monster, PlayerSetup, Position, Profile, Setup, TurnEffect
from .trace import TraceRecord
from .views import Observation

__all__ = [
    "Action",
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
    "TraceFormatError",
    "TraceRecord",
    "TurnEffect",
    "YgoFsmError",
    "default_rulebook",
]
__version__ = "0.1.0"
