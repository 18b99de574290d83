"""The :class:`Duel`: one point in play, driven by ``legal_actions()`` / ``apply()``.

>>> duel = Duel()                      # modern rules, turn 1, A's turn
>>> duel.state
'draw_phase.before_draw_window.turn_player'
>>> [str(action) for action in duel.legal_actions()]
['pass']
>>> duel.apply("pass")
>>> duel.priority
'B'
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from .cards import CardSpec, CardType, EffectKind, default_library
from .effects import activation_refusals, parse_key
from .engine import CompiledTransition, Rulebook, default_rulebook
from .errors import EngineError, IllegalActionError, StateFormatError
from .game import (
    FIELD_ZONE_CAPACITY,
    MONSTER_ZONES,
    PLAYERS,
    SPELL_TRAP_ZONES,
    Profile,
    Setup,
    TurnEffect,
    Zone,
    placement_uids,
)
from .priority import holder as priority_holder
from .rules import guard_citation
from .snapshot import FORMAT_VERSION, canonical_json, game_document, game_from_document, read_duel_document, state_key
from .spec import DONE_EVENT, Actor, TransitionSpec
from .state import Attack, CardInstance, Choice, Expiry, Frame, GameState, Link, PlayerState, Summon, Window
from .trace import TraceRecord


@dataclass(frozen=True)
class Action:
    """A player action: the event name, the player who takes it, and the option chosen
    (e.g. which effect to activate: ``Action("activate", "B", "cyclone>apophis_avatar")``).

    ``str(action)`` is the text form ``apply`` also accepts: ``"activate cyclone>apophis_avatar"``.
    """

    name: str
    player: str
    choice: str | None = None
    label: str = field(default="", compare=False)

    def __str__(self) -> str:
        return f"{self.name} {self.choice}" if self.choice else self.name

    @staticmethod
    def parse(text: str) -> tuple[str, str | None]:
        """``"activate cyclone"`` → (``"activate"``, ``"cyclone"``)."""
        name, _, choice = text.strip().partition(" ")
        return name, (choice.strip() or None)


_DEFAULT_SETUP = Setup()

SETTLE_ROUNDS = 100
"""Settling (the engine moving on by itself between two player actions) takes at most this many
engine transitions per engine transition declared in the machines (:func:`settle_limit`)."""


@lru_cache(maxsize=8)
def settle_limit(rulebook: Rulebook) -> int:
    """The most engine transitions one settle may take: :data:`SETTLE_ROUNDS` times the number of
    engine (and ``done``) transitions the machines declare. A real duel needs far fewer: even
    the longest run of skipped turns a setup allows (:data:`~ygo_fsm.game.MAX_TURN`) stays below it."""
    engine = sum(not t.is_player_action for spec in rulebook.specs.values() for t in spec.transitions)
    return SETTLE_ROUNDS * max(engine, 1)


def _short(text: str, length: int = 60) -> str:
    return text if len(text) <= length else text[:length - 1] + "…"


def _guard_text(spec: TransitionSpec) -> str:
    terms = [*spec.guards, *(f"not {name}" for name in spec.unless)]
    return f" [{' and '.join(terms)}]" if terms else ""


def _uses_cards(setup: Setup) -> bool:
    return any(player.cards for player in setup.players.values())


_RECORD_FIELDS = ("seq", "turn", "turn_player", "machine", "source", "dest", "event", "transition",
                  "actor", "priority", "chain", "rule", "state", "choice", "detail")
_Option = tuple[str, int, CompiledTransition, Choice | None]


def _place_cards(game: GameState, setup: Setup) -> None:
    """Put the setup's named library cards in their zones."""
    uids = placement_uids(setup)
    for player in PLAYERS:
        for index, placement in enumerate(setup.players[player].cards):
            card = game.library.get(placement.card)
            if card is None:
                raise ValueError(f"players.{player}.cards[{index}]: unknown card {placement.card!r}")
            uid = uids[(player, index)]
            if placement.zone is Zone.monster and card.type is not CardType.monster:
                raise ValueError(f"players.{player}.cards[{index}]: {card.id} is not a monster; "
                                 "it cannot be placed in the monster zone")
            if placement.zone is Zone.spell_trap and card.type is CardType.monster:
                raise ValueError(f"players.{player}.cards[{index}]: {card.id} is a monster; "
                                 "it cannot be placed in the spell/trap zone")
            field_spell = any(effect.kind is EffectKind.field_spell for effect in card.effects)
            if (placement.zone is Zone.field_zone) is not field_spell and placement.zone in (Zone.spell_trap,
                                                                                           Zone.field_zone):
                raise ValueError(f"players.{player}.cards[{index}]: a Field Spell goes in the field_zone, "
                                 "and only a Field Spell does")
            face_down_attack = placement.face_up is False and placement.position.value == "attack"
            if placement.zone is Zone.monster and face_down_attack:
                raise ValueError(f"players.{player}.cards[{index}]: a face-down monster is in Defense Position")
            zones = {Zone.monster: MONSTER_ZONES, Zone.spell_trap: SPELL_TRAP_ZONES,
                     Zone.field_zone: FIELD_ZONE_CAPACITY}.get(placement.zone)
            if zones is not None and len(game.players[player].zone_list(placement.zone)) >= zones:
                raise ValueError(f"players.{player}.cards[{index}]: the {placement.zone.value} zones are full "
                                 f"({zones})")
            instance = CardInstance.of_card(uid, player, card)
            instance.position = placement.position
            set_zone = placement.zone in (Zone.spell_trap, Zone.field_zone)
            default_face_up = not set_zone or card.type is CardType.monster
            instance.face_up = default_face_up if placement.face_up is None else placement.face_up
            instance.set_turn = placement.set_turn if placement.set_turn is not None else setup.turn - 1
            if placement.destroyed_this_turn:
                instance.destroyed_turn = setup.turn
            game.players[player].zone_list(placement.zone).append(instance)


class Duel:
    """A duel in progress: the runtime around one :class:`~ygo_fsm.state.GameState`.

    Create it from a :class:`~ygo_fsm.game.Setup` (or keyword overrides of the default
    setup: ``Duel(profile="ocg2008")``). The machines come from a shared
    :class:`~ygo_fsm.engine.Rulebook`; creating a duel builds none. The duel keeps its
    ``setup``, the ``history`` of actions and the ``trace``; everything else is its ``game``.
    """

    __slots__ = ("rulebook", "game", "setup", "_history", "_records", "_trace", "_seq", "_option_cache",
                 "resolutions")

    def __init__(self, setup: Setup | None = None, *, rulebook: Rulebook | None = None,
                 library: Mapping[str, CardSpec] | None = None, **overrides: object) -> None:
        if setup is None:
            setup = Setup.model_validate(overrides) if overrides else _DEFAULT_SETUP
        elif overrides:
            raise TypeError("give a Setup or keyword overrides, not both")
        self.rulebook = rulebook or default_rulebook()
        self.setup = setup
        game = self.game = self.initial_game(setup, rulebook=self.rulebook, library=library)
        self._start_runtime()
        try:
            start = self.rulebook.state("turn", setup.phase)
        except KeyError:
            raise ValueError(f"unknown starting phase {setup.phase!r}; states of the turn machine: "
                             f"{', '.join(self.rulebook.specs['turn'].state_ids())}") from None
        if start.id == "battle_phase":
            game.battle_phase_number = 1  # starting inside a Battle Phase
        game.frames.append(Frame(game, "turn", start.id, None))
        self._enter_children()
        self._settle()

    def _start_runtime(self) -> None:
        self._history: list[Action] = []
        self._records: list[tuple[object, ...]] = []
        self._trace: list[TraceRecord] = []
        self._option_cache: list[_Option] | None = None
        self._seq = 0
        self.resolutions: list[tuple[int, int, str, bool]] = []
        """Every chain link resolved: (trace seq, chain number, card uid, negated)."""

    @staticmethod
    def initial_game(setup: Setup, *, rulebook: Rulebook | None = None,
                     library: Mapping[str, CardSpec] | None = None) -> GameState:
        """The game data ``setup`` describes, before any machine runs (no frames yet).

        Raises ``ValueError`` naming the placement when a card cannot be where the setup puts it.
        """
        if library is None:
            library = default_library() if _uses_cards(setup) else {}
        game = GameState(profile=setup.profile, turn=setup.turn, turn_player=setup.turn_player, library=library,
                         state_specs=(rulebook or default_rulebook()).state_specs,
                         players={p: PlayerState(setup.players[p], p) for p in PLAYERS})
        _place_cards(game, setup)
        game.turn_effects = {turn: frozenset(effects) for turn, effects in setup.effects_on_turn.items()}
        if setup.effects:
            game.turn_effects[setup.turn] = game.turn_effects.get(setup.turn, frozenset()) | set(setup.effects)
        return game

    # --- the game state, read through the duel -----------------------------------------

    @property
    def profile(self) -> Profile:
        return self.game.profile

    @property
    def turn(self) -> int:
        return self.game.turn

    @property
    def turn_player(self) -> str:
        return self.game.turn_player

    @property
    def players(self) -> dict[str, PlayerState]:
        return self.game.players

    @property
    def library(self) -> Mapping[str, CardSpec]:
        return self.game.library

    @property
    def chain(self) -> list[Link]:
        return self.game.chain

    @property
    def window(self) -> Window | None:
        return self.game.window

    @property
    def attack(self) -> Attack | None:
        """The attack in progress."""
        return self.game.attack

    @property
    def last_attack(self) -> Attack | None:
        """The last attack that ended (cancelled, stopped or fought)."""
        return self.game.last_attack

    @property
    def summon(self) -> Summon | None:
        """The summon in progress."""
        return self.game.summon

    @property
    def expiring(self) -> list[Expiry]:
        """Effects lasting until a phase (『…为止』), ended there without a chain link."""
        return self.game.expiring

    @property
    def winner(self) -> str | None:
        return self.game.winner

    @property
    def is_over(self) -> bool:
        return self.game.is_over

    @property
    def end_reason(self) -> str:
        return self.game.end_reason

    # --- reading the duel -------------------------------------------------------------

    @property
    def opponent(self) -> str:
        """The non-turn player."""
        return self.game.opponent

    @property
    def state(self) -> str:
        """The full state path, e.g. ``main_phase_1.open.turn_player``."""
        return self.game.path

    def in_state(self, path: str) -> bool:
        """Whether the duel is in ``path`` or in a state nested inside it."""
        state = self.state
        return state == path or state.startswith(path + ".")

    @property
    def priority(self) -> str | None:
        """The player who must act now (holds priority or must choose), or ``None``."""
        return priority_holder(self.game)

    current_player = priority

    @property
    def frames(self) -> tuple[Frame, ...]:
        """The active machines, the ``turn`` machine first."""
        return tuple(self.game.frames)

    @property
    def history(self) -> tuple[Action, ...]:
        """The actions applied so far, in order."""
        return tuple(self._history)

    @property
    def trace(self) -> tuple[TraceRecord, ...]:
        """One record per transition taken so far."""
        trace = self._trace
        for row in self._records[len(trace):]:
            trace.append(TraceRecord.model_validate(dict(zip(_RECORD_FIELDS, row, strict=True))))
        return tuple(trace)

    def effect_applies(self, effect: TurnEffect) -> bool:
        """Whether a turn effect applies to the current turn."""
        return self.game.effect_applies(effect)

    def legal_actions(self) -> list[Action]:
        """The actions the player who must act may take now (none once the duel is over)."""
        return [Action(t.spec.event, player, c.key if c else None, c.label if c else "")
                for player, _, t, c in self._options()]

    def explain_illegal(self, name: str) -> str:
        """Why ``name`` (an action name, or its text with the option) is not legal now."""
        action, choice = Action.parse(name)
        if choice is not None and any(a.name == action for a in self.legal_actions()):
            return f"{choice!r} is not one of its options" + self._activation_refusals(choice, None)
        return self._refusal(action, None) + self._activation_refusals(choice, None)

    # --- acting -----------------------------------------------------------------------

    def apply(self, action: Action | str) -> None:
        """Take ``action`` (an :class:`Action`, or its text for the player who must act:
        ``"pass"``, ``"activate cyclone>apophis_avatar"``; an action with a single option may be
        named without it).

        Raises :class:`~ygo_fsm.errors.IllegalActionError` naming the state, the action and
        the legal actions when it is not legal, and ``TypeError`` naming what it got when
        ``action`` is neither an :class:`Action` nor a string; the duel is then left exactly
        as it was.
        """
        if not isinstance(action, Action | str):
            raise TypeError(f"apply() takes an Action or its text (a str), not {type(action).__name__}: "
                            f"{_short(repr(action))}")
        if isinstance(action, Action):
            name, player, choice = action.name, action.player, action.choice
        else:
            (name, choice), player = Action.parse(action), None
        options = self._options()
        if choice is None:  # an action with a single option may be named without it
            only = [o for _, _, t, o in options if t.spec.event == name and o is not None]
            if len(only) == 1 and all(o is not None for _, _, t, o in options if t.spec.event == name):
                choice = only[0].key
        for holder, level, transition, option in options:
            if (transition.spec.event == name and (player is None or player == holder)
                    and (option.key if option else None) == choice):
                self._history.append(Action(name, holder, choice))
                game = self.game
                game.choice, game.actor = choice, holder
                try:
                    self._take(level, transition, actor=holder)
                finally:
                    game.choice = game.actor = None
                self._settle()
                return
        offered = [str(Action(t.spec.event, p, c.key if c else None)) for p, _, t, c in options]
        if any(t.spec.event == name and player in (None, p) for p, _, t, _ in options):
            reason = f"{choice!r} is not one of its options" if choice else "choose one of its options"
        else:
            reason = self._refusal(name, player)
        reason += self._activation_refusals(choice, player)
        text = f"{name} {choice}" if choice else name
        raise IllegalActionError(text, self.state, offered, reason=reason)

    def _activation_refusals(self, choice: str | None, player: str | None) -> str:
        """What the named card's effect lacks to be activated (its cost, a zone, what its
        resolution needs, a target: :func:`ygo_fsm.effects.activation_refusals`), as a clause
        to add to a refusal; ``""`` when nothing is lacking or the option names no card."""
        if not choice:
            return ""
        uid, index, _ = parse_key(choice)
        holder = player or self.priority
        if holder is None or self.game.find(uid) is None:
            return ""
        reasons = activation_refusals(self.game, holder, uid, index)
        return "".join(f"; {uid}: {r.text} ({r.rule})" for r in reasons if r.code != "unknown")

    def copy(self) -> Duel:
        """An independent copy: applying actions to one leaves the other as it was."""
        clone = Duel.__new__(Duel)
        clone.rulebook = self.rulebook
        clone.setup = self.setup
        clone.game = self.game.copy()
        clone._history = list(self._history)
        clone._records = list(self._records)
        clone._trace = list(self._trace)
        clone._seq = self._seq
        clone._option_cache = None
        clone.resolutions = list(self.resolutions)
        return clone

    # --- the duel as a value -------------------------------------------------------------

    def __eq__(self, other: object) -> bool:
        """Two duels are equal when their game states are (the trace and history are not compared)."""
        if not isinstance(other, Duel):
            return NotImplemented
        return game_document(self.game) == game_document(other.game)

    __hash__ = None  # type: ignore[assignment]  # a duel changes; use state_key() as a key

    def state_key(self) -> str:
        """A stable hash of the game state: equal states have equal keys, in every process."""
        return state_key(self.game)

    def to_json(self, *, trace: bool = False, indent: int | None = None) -> str:
        """The duel as JSON text: its setup, history and game state (and, with ``trace``, every
        trace record). :meth:`from_json` reads it back; the format is ``ygo-fsm schema state``."""
        document: dict[str, Any] = {
            "format": "ygo-fsm/duel",
            "version": FORMAT_VERSION,
            "setup": self.setup.model_dump(mode="json", by_alias=True, exclude_defaults=True),
            "history": [{"name": a.name, "player": a.player, "choice": a.choice} for a in self._history],
            "seq": self._seq,
            "resolutions": [list(row) for row in self.resolutions],
            "game": game_document(self.game),
        }
        if trace:
            document["trace"] = [record.model_dump(mode="json") for record in self.trace]
        if indent is None:
            return canonical_json(document)
        return json.dumps(document, ensure_ascii=False, indent=indent, sort_keys=True)

    @classmethod
    def from_json(cls, text: str | bytes, *, rulebook: Rulebook | None = None,
                  library: Mapping[str, CardSpec] | None = None) -> Duel:
        """The duel :meth:`to_json` saved, ready to go on from where it was.

        Raises :class:`~ygo_fsm.errors.StateFormatError` naming the field when the document is
        malformed or describes a state the machines and the card library do not allow.
        """
        document = read_duel_document(text)
        duel = cls.__new__(cls)
        duel.rulebook = rulebook or default_rulebook()
        duel.setup = document.setup
        duel.game = game_from_document(document.game, library=default_library() if library is None else library,
                                       state_specs=duel.rulebook.state_specs)
        duel._start_runtime()
        duel._history = [Action(a.name, a.player, a.choice) for a in document.history]
        duel._seq = document.seq
        duel.resolutions = list(document.resolutions)
        if document.trace is not None:
            duel._trace = list(document.trace)
            duel._records = [tuple(getattr(record, name) for name in _RECORD_FIELDS) for record in document.trace]
        duel._check_settled()
        return duel

    def _check_settled(self) -> None:
        """A loaded duel must be where a player acts (or over): not in the middle of settling."""
        game = self.game
        if game.is_over:
            return
        frame = game.frames[-1]
        if any(t.enabled(frame) for t in self.rulebook.engine_transitions(frame.machine, frame.state)):
            raise StateFormatError(f"game.frames: {self.state} takes an engine transition at once; "
                                   "a saved duel is where a player must act")
        if game.state_spec(frame).final or not self._options():
            raise StateFormatError(f"game.frames: no player can act in {self.state}")

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled as its JSON document (trace included) and its cards when they are not the
        built-in library; it is unpickled on the shipped machines (:func:`default_rulebook`)."""
        library = None if self.game.library is default_library() else dict(self.game.library)
        return (_unpickle, (self.to_json(trace=True), library))

    @classmethod
    def replay(cls, setup: Setup, history: Iterable[Action | str], *, rulebook: Rulebook | None = None,
               library: Mapping[str, CardSpec] | None = None) -> Duel:
        """The duel that ``setup`` and the actions of ``history`` lead to (each applied in turn)."""
        duel = cls(setup, rulebook=rulebook, library=library)
        for action in history:
            duel.apply(action)
        return duel

    # --- changing the game from outside a transition ------------------------------------

    def where(self, uid: str) -> tuple[str, Zone] | None:
        """The player and zone of the named card ``uid`` (``None`` when there is none)."""
        found = self.game.find(uid)
        return (found[0], found[1]) if found is not None else None

    def add_turn_effect(self, effect: TurnEffect, turn: int | None = None) -> None:
        """An effect that applies for the rest of this turn (or to ``turn``), e.g. monsters cannot attack."""
        self.game.add_turn_effect(effect, turn)
        self._forget()

    def _forget(self) -> None:
        """Drop the cached priority holder and options (the duel changed outside a transition)."""
        self.game.forget()
        self._option_cache = None

    # --- the engine -------------------------------------------------------------------

    def _player_of(self, actor: Actor) -> str | None:
        if actor is Actor.priority_holder:
            return self.priority
        return self.turn_player if actor is Actor.turn_player else self.opponent

    def _options(self) -> list[_Option]:
        """Enabled player transitions for the player who must act, innermost frame first."""
        if self._option_cache is None:
            self._option_cache = self._find_options()
        return self._option_cache

    def _find_options(self) -> list[_Option]:
        holder = self.priority
        if holder is None:
            return []
        role = Actor.turn_player if holder == self.turn_player else Actor.opponent
        options: list[_Option] = []
        handled: set[str] = set()
        frames = self.game.frames
        for level in range(len(frames) - 1, -1, -1):
            frame = frames[level]
            candidates = self.rulebook.player_transitions(frame.machine, frame.state)
            if not candidates:
                continue
            here: list[str] = []
            for transition in candidates:
                spec = transition.spec
                if ((spec.actor is not role and spec.actor is not Actor.priority_holder)
                        or spec.event in handled or not transition.enabled(frame)):
                    continue
                choices: list[Choice | None] = [None]
                if transition.chooser is not None:
                    choices = list(transition.chooser(frame))
                    if not choices:
                        continue
                if spec.event in here:
                    raise EngineError(
                        f"{self.state}: transitions for {spec.event!r} in {frame.machine}.{frame.state} are "
                        f"enabled together with no declared precedence")
                here.append(spec.event)
                options.extend((holder, level, transition, choice) for choice in choices)
            handled.update(here)
        return options

    def _refusal(self, name: str, player: str | None) -> str:
        if self.is_over:
            return f"the duel is over ({self.end_reason})"
        holder = self.priority
        if player is not None and player != holder:
            return f"{player} does not hold priority ({holder} must act)"
        for frame in reversed(self.game.frames):
            for transition in self.rulebook.outgoing(frame.machine, frame.state):
                spec = transition.spec
                if spec.event != name:
                    continue
                if spec.is_player_action and self._player_of(spec.actor) != holder:
                    continue
                if not spec.is_player_action:
                    return "the engine takes that step, not a player"
                reasons = self._blocking_guards(transition, frame)
                if reasons:
                    return f"{reasons} [{spec.rule}]"
        return self._declared_elsewhere(name)

    @staticmethod
    def _blocking_guards(transition: CompiledTransition, frame: Frame) -> str:
        spec = transition.spec
        failed = [g for g, check in zip(spec.guards, transition.guards, strict=True) if not check(frame)]
        held = [u for u, check in zip(spec.unless, transition.unless, strict=True) if check(frame)]
        def cite(name: str) -> str:
            citation = guard_citation(name)
            return f" ({citation})" if citation else ""

        scoped = ([f"declared for the {spec.profile} profile only (this duel plays {frame.game.profile.value})"]
                  if spec.profile is not None and frame.game.profile != spec.profile else [])
        return ", ".join(scoped + [f"{g} does not hold{cite(g)}" for g in failed]
                         + [f"{u} holds{cite(u)}" for u in held])

    def _declared_elsewhere(self, name: str) -> str:
        """Where an action not offered here is declared, and what would block it there."""
        active = {frame.machine: frame for frame in self.game.frames}
        places: list[str] = []
        for machine_id in self.rulebook.specs:
            for transition in self.rulebook.machines_transitions(machine_id):
                if transition.spec.event != name or not transition.spec.is_player_action:
                    continue
                where = f"{machine_id}.{transition.spec.source}"
                frame = active.get(machine_id)
                blocked = self._blocking_guards(transition, frame) if frame is not None else ""
                places.append(f"{where}, where {blocked}" if blocked else where)
        if not places:
            return "no machine declares that action"
        return "only offered in " + "; ".join(places)

    def _enter_children(self) -> None:
        """Push the machines run by the innermost state, recursively, at their initial states."""
        game = self.game
        frames = game.frames
        while True:
            frame = frames[-1]
            child = self.rulebook.state(frame.machine, frame.state).machine
            if child is None:
                return
            frames.append(Frame(game, child, self.rulebook.specs[child].initial, frame.state, frame.machine))

    def _take(self, level: int, transition: CompiledTransition, *, actor: str) -> None:
        game = self.game
        frame = game.frames[level]
        game.narration = []
        transition.execute(frame)  # guards re-checked with the inner frames still in place
        game.check_lp()
        del game.frames[level + 1:]  # leaving the source state leaves the machines it ran
        if not game.is_over:  # a duel decided by this transition ends where it leads (PR17 p.43)
            self._enter_children()
        game.forget()
        self._option_cache = None
        spec = transition.spec
        self._seq += 1
        for number, uid, negated in game.resolved_now:
            self.resolutions.append((self._seq, number, uid, negated))
        game.resolved_now = []
        self._records.append((
            self._seq, game.turn, game.turn_player, frame.machine, spec.source, spec.dest, spec.event,
            spec.id, actor, self.priority, self._chain_snapshot(), spec.rule, game.path, game.choice,
            tuple(game.narration),
        ))

    def _chain_snapshot(self) -> tuple[dict[str, object], ...]:
        return tuple({"number": link.number, "card": link.name, "controller": link.controller,
                      "spell_speed": link.spell_speed, "negated": link.negated, "negation": link.negation}
                     for link in self.game.chain)

    def _settle(self) -> None:
        """Take engine transitions until a player must act or the duel is over; more than
        :func:`settle_limit` of them in a row raise :class:`EngineError` naming the cycle."""
        rulebook = self.rulebook
        game = self.game
        frames = game.frames
        limit = settle_limit(rulebook)
        taken = 0
        runaway: list[CompiledTransition] = []
        while not game.is_over:
            taken += 1
            if taken > limit:
                self._runaway(runaway, limit)
            frame = frames[-1]
            state = rulebook.state(frame.machine, frame.state)
            if state.terminal:
                game.end_duel(winner=None, reason=f"{frame.machine}.{frame.state}")
                return
            enabled = [t for t in rulebook.engine_transitions(frame.machine, frame.state) if t.enabled(frame)]
            if len(enabled) > 1:
                raise EngineError(f"{self.state}: engine transitions "
                                  f"{', '.join(t.spec.id for t in enabled)} are enabled together "
                                  "with no declared precedence")
            if enabled:
                if taken > limit:
                    runaway.append(enabled[0])
                self._take(len(frames) - 1, enabled[0], actor="engine")
                continue
            if state.final and len(frames) > 1:
                frames.pop()
                parent = frames[-1]
                done = [t for t in rulebook.done_transitions(parent.machine, parent.state) if t.enabled(parent)]
                if len(done) != 1:
                    problem = "no" if not done else "more than one"
                    raise EngineError(f"{self.state}.{frame.state}: {problem} '{DONE_EVENT}' transition "
                                      f"enabled in {parent.machine}.{parent.state}")
                if taken > limit:
                    runaway.append(done[0])
                self._take(len(frames) - 1, done[0], actor="engine")
                continue
            if not self._options():
                raise EngineError(f"{self.state}: stuck — no legal action and no engine transition")
            return

    def _runaway(self, taken: list[CompiledTransition], limit: int) -> None:
        """Past the settle limit: watch a few more steps, then raise naming the cycle they repeat."""
        window = 2 * sum(len(spec.transitions) for spec in self.rulebook.specs.values()) + 2
        if len(taken) < window:
            return
        machine_ids = {id(machine): machine_id for machine_id, machine in self.rulebook.machines.items()}
        names = [f"{machine_ids[id(t.machine)]}.{t.spec.id}" for t in taken]
        period = next((p for p in range(1, len(names) // 2 + 1)
                       if all(names[i] == names[i - p] for i in range(p, len(names)))), None)
        if period is None:
            count, what = 8, "without repeating; the last ones"
        else:
            count, what = period, "going round the cycle"
        cycle = " → ".join(f"{name}{_guard_text(t.spec)}" for name, t in zip(names[-count:], taken[-count:],
                                                                                strict=True))
        raise EngineError(f"{self.state}: more than {limit} engine transitions in a row with no player acting "
                          f"(the settle limit), {what}: {cycle}")

    def __repr__(self) -> str:
        status = f"over, winner {self.winner}" if self.is_over else f"priority {self.priority}"
        return f"<Duel turn {self.turn} ({self.turn_player}) {self.state} {status}>"


def _unpickle(text: str, library: dict[str, CardSpec] | None) -> Duel:
    return Duel.from_json(text, library=library)
