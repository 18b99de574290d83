"""The registry of rule functions: guards, callbacks and choosers, by the names the machine
files use (``GUARDS``, ``CALLBACKS``, ``CHOOSERS``), and the helpers they share. The functions
themselves live by concern in :mod:`ygo_fsm.turn_rules`, :mod:`ygo_fsm.chain_rules`,
:mod:`ygo_fsm.summon_rules` and :mod:`ygo_fsm.battle_rules`; :mod:`ygo_fsm.rules` loads them all.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from . import priority
from .game import TurnEffect
from .in_play import SORTS
from .state import Choice, Frame

Guard = Callable[["Frame"], bool]
Callback = Callable[["Frame"], None]
Chooser = Callable[["Frame"], list[Choice]]

GUARDS: dict[str, Guard] = {}
CALLBACKS: dict[str, Callback] = {}
CHOOSERS: dict[str, Chooser] = {}


def guard(func: Guard) -> Guard:
    """Register ``func`` as a guard under its own name."""
    GUARDS[func.__name__] = func
    return func


def callback(func: Callback) -> Callback:
    """Register ``func`` as a callback under its own name."""
    CALLBACKS[func.__name__] = func
    return func


CARDS_STAY: set[str] = set()
"""Callbacks that move no card from one zone to another, turn no face-up monster face-down,
change no effect's standing (no negation starts or ends) and change neither the turn, a chain
link, the LP nor the cards in a hand: they open or close a timing window, declare a summon or an
attack, change a monster's battle position, turn an attack target face-up, count a Battle Phase.
What the runtime keeps of a player's effects (``GameState.card_scans``) holds across a transition
that runs only these, no Equip Card can become equipped to nothing in one
(:func:`ygo_fsm.equips.destroy_unequipped` is not asked), and its trace row shares the turn, chain,
LP and hands of the row before (:data:`~ygo_fsm.trace_rows.RowContext`); a test plays random duels
and checks that none of them changes a zone's cards, a monster's face from up to down, the
negations, the turn, the chain, the LP or the hands."""


def cards_stay(func: Callback) -> Callback:
    """Mark the callback ``func`` as one of :data:`CARDS_STAY` (register it with :func:`callback`)."""
    CARDS_STAY.add(func.__name__)
    return func


def chooser(func: Chooser) -> Chooser:
    """Register ``func`` as a chooser (it lists a player action's options) under its own name."""
    CHOOSERS[func.__name__] = func
    return func


CHOOSER_SORTS: dict[str, str] = {}
"""Choosers that list only effects of one sort (:data:`~ygo_fsm.in_play.SORTS`) of the player who
must act, by chooser name: for a player with none of that sort in play they list nothing, so the
option search does not ask them when what the runtime keeps of the player's effects
(``GameState.card_scans``) already says so. A test plays random duels and checks at every
decision that each of them lists nothing whenever the player has no effect of its sort."""


KNOWN_TO_ACTOR: set[str] = set()
"""Choosers whose options name only cards of the turn player's own hand and field, face-down cards
included, which the turn player may know (:func:`~ygo_fsm.hiding.known_to`): never a deck card nor a
card of the opponent's. Offered to the turn player, such an option masks nothing, so
``Duel.legal_actions()`` does not look the cards up when every option with a choice comes from one
of these (offered to the other player, they are looked up). A test plays random duels and checks at
every decision that masking finds no card hidden from the turn player in any such option."""


def lists_known_cards(func: Chooser) -> Chooser:
    """Mark a chooser as one of :data:`KNOWN_TO_ACTOR`."""
    KNOWN_TO_ACTOR.add(func.__name__)
    return func


def lists_effects_of_sort(sort: str) -> Callable[[Chooser], Chooser]:
    """Mark a chooser as one of :data:`CHOOSER_SORTS`, listing only effects of ``sort``."""
    if sort not in SORTS:
        raise ValueError(f"unknown sort of effects {sort!r}; sorts are {', '.join(SORTS)}")

    def mark(func: Chooser) -> Chooser:
        CHOOSER_SORTS[func.__name__] = sort
        return func
    return mark


def _acting(frame: Frame) -> str:
    """The player taking the action being applied (or the one who must act)."""
    game = frame.game
    return priority.acting(game)


def _choice(frame: Frame) -> str:
    choice = frame.game.choice
    assert choice is not None, "a transition with choices was taken without one"
    return choice


_CITATION = re.compile(r"\((\d{3}[^()]*(?:\([^()]*\)[^()]*)*)\)")


def guard_citation(name: str) -> str:
    """The clause a guard's docstring cites (the last parenthesised ``NNN …`` in it), or ``""``."""
    func = GUARDS.get(name)
    found = _CITATION.findall(" ".join((func.__doc__ or "").split())) if func else []
    return found[-1] if found else ""


def _applies(frame: Frame, effect: TurnEffect) -> bool:
    game = frame.game  # (GameState.effect_applies, written out: the guards of the turn's phases ask it)
    return effect in game.turn_effects.get(game.turn, ())


