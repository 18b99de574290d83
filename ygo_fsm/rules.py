"""Guard and callback functions, registered by the names the machine files use.

A guard reads the game and answers one question; a callback changes the game after a
transition; a chooser lists a player action's options. Each receives the
:class:`~ygo_fsm.state.Frame` of the machine taking the transition (``frame.game`` is the
:class:`~ygo_fsm.state.GameState`, ``frame.invoked_as`` the parent state that runs the machine,
e.g. ``main_phase_1``). Each docstring cites the clause it implements; the transitions that use
them cite it again in ``machines/*.yaml``. They live by concern — :mod:`ygo_fsm.turn_rules` (the
turn and its phases), :mod:`ygo_fsm.chain_rules` (priority, chains, windows),
:mod:`ygo_fsm.summon_rules` (summons and sets), :mod:`ygo_fsm.battle_rules` (attacks and the
Damage Step) — and this module loads them all into the registry (:mod:`ygo_fsm.registry`).
"""

from __future__ import annotations

from . import battle_rules, chain_rules, summon_rules, turn_rules
from .registry import (
    CALLBACKS,
    CARDS_STAY,
    CHOOSER_SORTS,
    CHOOSERS,
    GUARDS,
    KNOWN_TO_ACTOR,
    Callback,
    Chooser,
    Guard,
    callback,
    chooser,
    guard,
    guard_citation,
)

RULE_MODULES = (turn_rules, chain_rules, summon_rules, battle_rules)
"""The modules whose functions the registry holds (imported for that)."""

__all__ = [
    "CALLBACKS",
    "CARDS_STAY",
    "CHOOSERS",
    "CHOOSER_SORTS",
    "GUARDS",
    "KNOWN_TO_ACTOR",
    "RULE_MODULES",
    "Callback",
    "Chooser",
    "Guard",
    "callback",
    "chooser",
    "guard",
    "guard_citation",
]
