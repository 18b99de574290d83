"""The runtime: declared machines built once into ``transitions`` machines, and the frames
that a duel moves through them.

Semantics
=========
This is the one place that says how the engine moves; the tests hold it to these words.

Configuration
    A duel is a stack of *frames*, one per active machine: the ``turn`` machine at the
    bottom, then the machine run by the current turn state (e.g. ``main_phase``), then the
    machine run by that machine's state (e.g. ``priority``), and so on. The full state path
    joins the frames' states with ``.``: ``main_phase_1.open.turn_player`` (the ``turn``
    machine's own id is not part of the path).

Entering a state
    Entering a state that declares ``machine: X`` pushes a frame of ``X`` at its initial
    state (and so on, recursively). Leaving a state pops every frame above it.

Player actions
    The player who must act (``Duel.priority``) is the one named by the ``priority:`` of
    the innermost state that declares one: the turn player, the opponent, the *responder*
    (the player who did not add the newest chain link), the *last activator* (who did), or
    the *trigger player* (whose simultaneous triggers are being put on the chain).
    A transition with ``choices:`` is offered once per option its chooser lists (which effect
    to activate, which target) and not at all when there is none. The legal actions are the player transitions
    whose actor is that player and whose guards hold, looked up from the innermost frame
    outwards; an event that an inner frame handles hides the same event further out (as in
    statecharts). Taking an outer frame's transition leaves the inner frames.

Engine transitions
    After every action the engine settles: while the innermost frame's state has exactly
    one enabled engine transition (other than ``done``), it is taken. When the innermost
    frame is in a final state, that frame is popped and its parent receives ``done``; the
    parent's ``done`` transition whose guards hold is taken. Settling stops in a state where
    a player must act, or when the duel is over.

Priority and passing
    Every phase and step opens the ``priority`` machine: the turn player acts or passes,
    then the opponent acts or passes; both passing in succession finishes it, and the phase
    or step ends (004 ●每个阶段或步骤…). A fresh ``priority`` frame always starts with the
    turn player.

Rule profiles
    A duel follows one profile. ``ocg2008`` plays seeds 000–003 literally, worked examples
    included. ``modern`` plays seed 004 and, where 004 is silent, the current official rules
    (OCG Perfect Rulebook 2017, Rulebook v10, the Fast Effect Timing chart). Where they differ,
    the machines say so: a transition with ``profile:`` is enabled only in a duel of that
    profile (one transition per side, each citing its clause), or a guard reads the profile.
    Under ``modern``: after an attack declaration (or a replay's new target, or a chain in the
    Battle Step) both players passing once leads to the Damage Step, where ``ocg2008`` keeps
    000's step-4 window and step-5 priority; an ignition effect needs the open game state, where
    ``ocg2008`` lets it start CHAIN1 in a Main Phase window (000 priority list 5; 001 例1/例2);
    『直到战斗阶段结束时』 and 『直到回合游戏结束时』 effects end by themselves (at the end of the End
    Step; after the hand size adjustment), where under ``ocg2008`` their controller ends them in
    that phase's open game state.

Ties and errors
    Two enabled transitions for the same event in the same frame, or two enabled engine
    transitions at once, have no declared precedence: the engine raises
    :class:`~ygo_fsm.errors.EngineError` instead of taking file order (precedence is
    declared with ``unless:``). So does a state that is not final or terminal and offers
    neither an action nor an engine transition. Where the declarations themselves rule a tie
    out (each pair is split by a guard one has and the other has as ``unless``, or by
    profile: :func:`exclusive`), the engine takes the first enabled transition without
    evaluating the others: guards are functions of the state, so no other can hold.

Sharing
    A :class:`Rulebook` loads and validates the declarations and builds one
    ``transitions.Machine`` per machine, once; every duel shares it. A duel owns only its
    game data and its frames, which the machines move as their models.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

from transitions import Event, EventData, Machine, State, Transition

from .cards import Phase
from .game import PLAYERS, Profile
from .in_play import SORT_KEYS
from .loader import load_machines
from .priority import seat_holder
from .rules import CALLBACKS, CARDS_STAY, CHOOSER_SORTS, CHOOSERS, GUARDS, KNOWN_TO_ACTOR, Callback, Chooser, Guard
from .spec import DONE_EVENT, Actor, MachineSpec, Role, StateSpec, TransitionSpec
from .state import Frame


class DeclaredTransition(Transition):
    """The ``transitions`` transition class the rulebook's machines use.

    Declared states have no enter/exit callbacks, so taking a transition is: evaluate its
    conditions, set the model's state, run its ``after`` callbacks — without the library's
    per-step logging and enter/exit dispatch. The runtime takes it the same way
    (``runtime.DuelRuntime._take``): it sets the frame's state to :attr:`dest` (and :attr:`dest_at`)
    and calls :attr:`frame_callbacks`, the same declared callbacks, with the frame itself.
    """

    frame_callbacks: tuple[Callback, ...] = ()
    """The declared callbacks, as registered (each takes the frame), in declaration order."""
    dest_at: StateRuntime | None = None
    """What the runtime needs of the destination state (a frame moved there keeps it: ``Frame.at``)."""
    enters_at: tuple[FrameEntry, ...] = ()
    """The frames entering the destination pushes, outermost first (:data:`FrameEntry`)."""

    def execute(self, event_data: EventData) -> bool:
        if not self._eval_conditions(event_data):
            return False
        self.take(event_data)
        return True

    def take(self, event_data: EventData) -> None:
        """Move the model to the destination and run the ``after`` callbacks, its conditions
        already known to hold (the engine evaluated the very same guard functions just before)."""
        frame = event_data.model
        assert isinstance(frame, Frame)
        assert self.dest is not None  # declared transitions always have a target
        frame.state = self.dest  # a frame's state is its model attribute
        frame.at = self.dest_at
        for after in self.after:
            assert callable(after)  # the declared callbacks are functions taking the event data
            after(event_data)


class DeclaredMachine(Machine):
    """A ``transitions`` machine built from one declaration; its models are frames."""

    transition_cls = DeclaredTransition


@dataclass(frozen=True)
class CompiledTransition:
    """A declared transition with its guard functions resolved and its ``transitions`` objects."""

    spec: TransitionSpec
    guards: tuple[Guard, ...]
    unless: tuple[Guard, ...]
    chooser: Chooser | None
    machine: Machine
    transition: DeclaredTransition
    source_state: State
    event: Event
    unguarded: bool = False
    """It has no guard and no ``unless``: always enabled in its source state."""
    moves_cards: bool = False
    """One of its callbacks may move a card (it is not one of :data:`~ygo_fsm.registry.CARDS_STAY`)."""
    profile: str | None = None
    """The profile it is scoped to (its spec's ``profile``), looked up once."""
    enters: tuple[tuple[str, str], ...] = ()
    """The machines entering its destination starts, outermost first: (machine id, initial state)."""
    names_known_cards: bool = False
    """Its chooser lists only the turn player's own hand and field cards (:data:`~ygo_fsm.registry.KNOWN_TO_ACTOR`)."""
    event_name: str = ""
    """Its event (``spec.event``), looked up once."""
    record_head: tuple[str, str, str, str, str, str] = ("", "", "", "", "", "")
    """What every trace record of it says the same: (machine id, source, dest, event, transition id, rule)."""
    row_heads: dict[tuple[Any, ...], tuple[Any, ...]] = field(default_factory=dict, compare=False, repr=False)
    """A trace row of it, one per (actor, who must act, level, frames, auto-pass) seen: the duels share
    them, and a duel keeps one reference a row (:mod:`ygo_fsm.trace_rows`)."""
    bare_actions: dict[str, Any] = field(default_factory=dict, compare=False, repr=False)
    """Its action naming no option, by player, once offered (``runtime.offered_action``, kept at hand)."""
    engine_rows: dict[int, tuple[Any, ...]] = field(default_factory=dict, compare=False, repr=False)
    """Its rows taken by the engine in a duel going on, by level (:attr:`final_role` says who must act
    after it, and the level how many frames there are: the machines it enters start below it)."""
    final_role: Any = field(default=None, init=False, compare=False)
    """The ``priority:`` role of the state the frames end in after it (its destination, or the innermost
    machine its destination enters): who must act then, as a row keeps it, unless it is the trigger
    player's (found on the game). Set once the states' runtimes are built."""
    final_seats: dict[str, str] | None = field(default=None, init=False, compare=False)
    """Who must act after it by the turn player, where :attr:`final_role` names a seat the turn player
    alone gives (the turn player's or the opponent's, :func:`~ygo_fsm.priority.seat_holder`), else ``None``."""
    check: Guard | None = field(default=None, init=False, compare=False)
    """What the runtime calls to know whether it is enabled on a frame: ``None`` when it is
    :attr:`unguarded`, else :meth:`enabled` as one function made from the declaration (:func:`_check_of`;
    the declarations are what the tests hold it to)."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "check", None if self.unguarded else _check_of(self))

    def enabled(self, frame: Frame) -> bool:
        """The duel plays the transition's profile (if it has one), every guard holds and no
        ``unless`` guard holds."""
        profile = self.profile
        if profile is not None and frame.game.profile != profile:
            return False
        for check in self.guards:
            if not check(frame):
                return False
        for check in self.unless:
            if check(frame):
                return False
        return True


def _check_of(transition: CompiledTransition) -> Guard:
    """:meth:`CompiledTransition.enabled` as one function of the frame, made once from the
    declaration: the one guard itself when that is all there is, a closure for the other shapes
    the machines use most (:func:`_guards_check`), else ``enabled``; behind the profile when the
    transition names one."""
    guards, unless, profile = transition.guards, transition.unless, transition.profile
    rest = (_guards_check(guards, unless) or transition.enabled) if guards or unless else None
    if profile is None:
        assert rest is not None  # an unguarded transition has no check
        return rest

    def in_profile(frame: Frame) -> bool:
        return frame.game.profile == profile and (rest is None or rest(frame))
    return in_profile


def _guards_check(guards: tuple[Guard, ...], unless: tuple[Guard, ...]) -> Guard | None:
    """Every guard holds and no ``unless`` guard holds, as one function of the frame, for one
    guard, a guard and an ``unless``, one ``unless`` or two; ``None`` for any other shape."""
    if len(guards) == 1 and not unless:
        return guards[0]
    if len(guards) == 1 and len(unless) == 1:
        guard, unless_guard = guards[0], unless[0]

        def guard_unless(frame: Frame) -> bool:
            return guard(frame) and not unless_guard(frame)
        return guard_unless
    if not guards and len(unless) == 1:
        only = unless[0]

        def not_unless(frame: Frame) -> bool:
            return not only(frame)
        return not_unless
    if not guards and len(unless) == 2:
        first, second = unless

        def neither(frame: Frame) -> bool:
            return not (first(frame) or second(frame))
        return neither
    return None


FrameEntry = tuple[str, str, str, str, "StateRuntime"]
"""A frame a state's entry pushes, as :class:`~ygo_fsm.state.Frame` takes it: its machine, that
machine's initial state, the state running it and that state's machine, and what the runtime
needs of the initial state (its :class:`StateRuntime`, kept as ``Frame.at``)."""


PlanEntry = tuple[CompiledTransition, str, Guard | None, Chooser | None, Mapping[str, str] | None]
"""A player transition as the option search reads it: the transition, its event, its
:attr:`~CompiledTransition.check`, its chooser, and when the chooser lists only effects of one sort
(:data:`~ygo_fsm.registry.CHOOSER_SORTS`) the ``card_scans`` key of that sort for each player
(:data:`~ygo_fsm.in_play.SORT_KEYS`): a player whose kept list of it is empty is offered nothing
by it, and the chooser is not asked."""
OptionPlan = tuple[tuple[PlanEntry, ...], bool]
"""A state's player transitions for one role as the option search reads them, and whether the
search must note the events they offer: two of them for one event are not kept apart by their
declarations (a tie to detect), or a state that can be active in a frame further in or further
out declares one of their events too (whose same event it hides, or is hidden by)."""


def option_plan(actions: tuple[CompiledTransition, ...], nested_events: set[str]) -> OptionPlan:
    """The :data:`OptionPlan` of ``actions``; ``nested_events`` are the events of the player
    transitions of the states that can be active further in or further out than theirs."""
    events = {t.event_name for t in actions}
    tie = any(not exclusive(tuple(t for t in actions if t.event_name == event)) for event in events)
    notes = tie or bool(events & nested_events)
    return tuple((t, t.event_name, t.check, t.chooser, _chooser_sort_keys(t)) for t in actions), notes


def _chooser_sort_keys(transition: CompiledTransition) -> Mapping[str, str] | None:
    sort = CHOOSER_SORTS.get(transition.spec.choices or "")
    return SORT_KEYS[sort] if sort is not None else None


@dataclass(frozen=True)
class StateRuntime:
    """What the runtime needs of one declared state, looked up once per (machine, state)."""

    spec: StateSpec
    players: tuple[CompiledTransition, ...]
    engine: tuple[CompiledTransition, ...]
    done: tuple[CompiledTransition, ...]
    enters: tuple[tuple[str, str], ...]
    """The machines entering this state starts, outermost first: (machine id, initial state)."""
    by_role: dict[Actor, tuple[CompiledTransition, ...]]
    """The player transitions open to the turn player and to the opponent (a ``priority_holder``
    transition is open to both), in declaration order."""
    turn_player_actions: tuple[CompiledTransition, ...] = ()
    """``by_role[Actor.turn_player]``, looked up once."""
    opponent_actions: tuple[CompiledTransition, ...] = ()
    """``by_role[Actor.opponent]``, looked up once."""
    terminal: bool = False
    """``spec.terminal``, looked up once."""
    final: bool = False
    """``spec.final``, looked up once."""
    engine_exclusive: bool = False
    """No two of its engine transitions can be enabled together, by declaration (:func:`exclusive`):
    settling takes the first enabled one without evaluating the rest."""
    done_exclusive: bool = False
    """The same for its ``done`` transitions."""
    turn_player_plan: OptionPlan = ((), False)
    """How the option search reads :attr:`turn_player_actions` (:data:`OptionPlan`)."""
    opponent_plan: OptionPlan = ((), False)
    """The same for :attr:`opponent_actions`."""
    role: Role | None = None
    """``spec.priority`` (whom the state names to act), looked up once."""
    engine_checks: tuple[tuple[Guard | None, CompiledTransition], ...] | None = None
    """When :attr:`engine_exclusive`: each engine transition's :attr:`~CompiledTransition.check`
    beside it, in declaration order (settling takes the first whose check is ``None`` or holds)."""
    done_checks: tuple[tuple[Guard | None, CompiledTransition], ...] | None = None
    """The same for the ``done`` transitions, when :attr:`done_exclusive`."""


def exclusive(transitions: tuple[CompiledTransition, ...]) -> bool:
    """Whether no two of ``transitions`` can be enabled on the same state, as declared: for every
    pair, a guard of one is an ``unless`` of the other, or they are scoped to different profiles.
    Guards are functions of the state alone, so such a pair never holds together: the tie the
    engine raises on cannot arise, and the first enabled transition is the only one."""
    for index, first in enumerate(transitions):
        for second in transitions[index + 1:]:
            if not (set(first.guards) & set(second.unless) or set(second.guards) & set(first.unless)
                    or (first.profile is not None and second.profile is not None
                        and first.profile != second.profile)):
                return False
    return True


def _checks(transitions: tuple[CompiledTransition, ...]) -> tuple[tuple[Guard | None, CompiledTransition], ...] | None:
    """``transitions`` with their checks, for settling, when no two can be enabled together
    (:func:`exclusive`); ``None`` when they must all be evaluated."""
    return tuple((t.check, t) for t in transitions) if exclusive(transitions) else None


def _as_condition(check: Guard) -> Any:
    def condition(event: EventData) -> bool:
        frame = event.model
        assert isinstance(frame, Frame)
        return check(frame)

    condition.__name__ = check.__name__
    return condition


def _as_callback(func: Callback) -> Any:
    def after(event: EventData) -> None:
        frame = event.model
        assert isinstance(frame, Frame)
        func(frame)

    after.__name__ = func.__name__
    return after


class Rulebook:
    """The declared machines, validated and built once; shared by every duel."""

    def __init__(self, specs: dict[str, MachineSpec]) -> None:
        self.specs = specs
        self.machines: dict[str, Machine] = {}
        self._states: dict[tuple[str, str], StateSpec] = {}
        self._outgoing: dict[tuple[str, str], tuple[CompiledTransition, ...]] = {}
        self._engine: dict[tuple[str, str], tuple[CompiledTransition, ...]] = {}
        self._done: dict[tuple[str, str], tuple[CompiledTransition, ...]] = {}
        self._players: dict[tuple[str, str], tuple[CompiledTransition, ...]] = {}
        for spec in specs.values():
            self._build(spec)
        self.runtime: dict[str, dict[str, StateRuntime]] = {machine: {} for machine in specs}
        """Each state's :class:`StateRuntime`, by machine id and state id."""
        for (machine, state), state_spec in self._states.items():
            key = (machine, state)
            players = self._players[key]
            by_role = {role: tuple(t for t in players if t.spec.actor in (role, Actor.priority_holder))
                       for role in (Actor.turn_player, Actor.opponent)}
            nested = self._nested_events(machine, state)
            self.runtime[machine][state] = StateRuntime(
                state_spec, players, self._engine[key], self._done[key], self._enters(machine, state), by_role,
                by_role[Actor.turn_player], by_role[Actor.opponent], state_spec.terminal, state_spec.final,
                exclusive(self._engine[key]), exclusive(self._done[key]),
                option_plan(by_role[Actor.turn_player], nested), option_plan(by_role[Actor.opponent], nested),
                state_spec.priority, _checks(self._engine[key]), _checks(self._done[key]))
        for (machine, _), out in self._outgoing.items():
            for compiled in out:
                compiled.transition.dest_at = self.runtime[machine][compiled.spec.dest]
                compiled.transition.enters_at = entries = self.frame_entries(machine, compiled.spec.dest)
                innermost = entries[-1][4] if entries else compiled.transition.dest_at
                object.__setattr__(compiled, "final_role", innermost.role)
                if innermost.role in (Role.turn_player, Role.opponent):
                    object.__setattr__(compiled, "final_seats",
                                       {player: seat_holder(innermost.role, player, None) for player in PLAYERS})

    @classmethod
    def load(cls, directory: Path | None = None) -> Rulebook:
        """Load, validate and build the machines in ``directory`` (default: the shipped ones)."""
        return cls(load_machines(directory, guards=GUARDS, callbacks=CALLBACKS, choosers=CHOOSERS,
                                 phases=[phase.value for phase in Phase],
                                 profiles=[profile.value for profile in Profile], required=("turn",),
                                 require_guard_sentences=True))

    def _build(self, spec: MachineSpec) -> None:
        machine = DeclaredMachine(
            model=None,
            states=list(spec.state_ids()),
            initial=spec.initial,
            auto_transitions=False,
            send_event=True,
            name=spec.id,
        )
        compiled: dict[str, list[CompiledTransition]] = {state: [] for state in spec.state_ids()}
        for t in spec.transitions:
            machine.add_transition(
                t.event,
                t.source,
                t.dest,
                conditions=[_as_condition(GUARDS[g]) for g in t.guards],
                unless=[_as_condition(GUARDS[g]) for g in t.unless],
                after=[_as_callback(CALLBACKS[c]) for c in t.callbacks],
            )
            transition = machine.events[t.event].transitions[t.source][-1]
            assert isinstance(transition, DeclaredTransition)
            transition.frame_callbacks = tuple(CALLBACKS[c] for c in t.callbacks)
            compiled[t.source].append(
                CompiledTransition(
                    spec=t,
                    guards=tuple(GUARDS[g] for g in t.guards),
                    unless=tuple(GUARDS[g] for g in t.unless),
                    chooser=CHOOSERS[t.choices] if t.choices is not None else None,
                    machine=machine,
                    transition=transition,
                    source_state=machine.get_state(t.source),
                    event=machine.events[t.event],
                    unguarded=not t.guards and not t.unless and t.profile is None,
                    moves_cards=any(c not in CARDS_STAY for c in t.callbacks),
                    profile=t.profile,
                    enters=self._enters(spec.id, t.dest),
                    event_name=t.event,
                    names_known_cards=t.choices in KNOWN_TO_ACTOR,
                    record_head=(spec.id, t.source, t.dest, t.event, t.id, t.rule),
                )
            )
        self.machines[spec.id] = machine
        for state in spec.states:
            key = (spec.id, state.id)
            self._states[key] = state
            out = tuple(compiled[state.id])
            self._outgoing[key] = out
            self._players[key] = tuple(c for c in out if c.spec.is_player_action)
            self._engine[key] = tuple(
                c for c in out if not c.spec.is_player_action and c.spec.event != DONE_EVENT
            )
            self._done[key] = tuple(c for c in out if c.spec.event == DONE_EVENT)

    def _nested_events(self, machine: str, state: str) -> set[str]:
        """The events of the player transitions of every state that can be active at the same
        time as ``machine.state``, in a frame further out (a state running ``machine``, or one
        running such a state's machine, …) or further in (any state of a machine it runs, …)."""
        runs = {key: spec.machine for key, spec in self._states.items() if spec.machine is not None}
        outer: set[tuple[str, str]] = set()  # the states that run this machine, and so on outwards
        machines = {machine}
        while machines:
            found = {key for key, child in runs.items() if child in machines} - outer
            outer |= found
            machines = {m for m, _ in found}
        inner: set[str] = set()  # the machines this state runs, and so on inwards
        child = runs.get((machine, state))
        machines = {child} if child is not None else set()
        while machines:
            inner |= machines
            machines = {child for (m, _), child in runs.items() if m in machines} - inner
        return {t.event_name for key, players in self._players.items() if key in outer or key[0] in inner
                for t in players}

    def _enters(self, machine: str, state: str) -> tuple[tuple[str, str], ...]:
        out: list[tuple[str, str]] = []
        child = self.specs[machine].state(state).machine
        while child is not None:
            initial = self.specs[child].initial
            out.append((child, initial))
            child = self.specs[child].state(initial).machine
        return tuple(out)

    def frame_entries(self, machine: str, state: str) -> tuple[FrameEntry, ...]:
        """The frames entering ``machine.state`` pushes, outermost first (:data:`FrameEntry`)."""
        entries = []
        invoked_as, parent = state, machine
        for child, initial in self._enters(machine, state):
            entries.append((child, initial, invoked_as, parent, self.runtime[child][initial]))
            invoked_as, parent = initial, child
        return tuple(entries)

    def state(self, machine: str, state: str) -> StateSpec:
        return self._states[(machine, state)]

    @property
    def state_specs(self) -> dict[tuple[str, str], StateSpec]:
        """Every declared state, by (machine id, state id): what a game state's frames refer to."""
        return self._states

    def outgoing(self, machine: str, state: str) -> tuple[CompiledTransition, ...]:
        return self._outgoing[(machine, state)]

    def machines_transitions(self, machine: str) -> tuple[CompiledTransition, ...]:
        """Every transition of ``machine``, in declaration order."""
        spec = self.specs[machine]
        return tuple(t for state in spec.state_ids() for t in self._outgoing[(machine, state)])

    def player_transitions(self, machine: str, state: str) -> tuple[CompiledTransition, ...]:
        return self._players[(machine, state)]

    def engine_transitions(self, machine: str, state: str) -> tuple[CompiledTransition, ...]:
        return self._engine[(machine, state)]

    def done_transitions(self, machine: str, state: str) -> tuple[CompiledTransition, ...]:
        return self._done[(machine, state)]

    def resolve_path(self, path: str) -> list[tuple[str, StateSpec]]:
        """Resolve a full state path (``main_phase_1.open.turn_player``) from the ``turn``
        machine down: a list of ``(machine id, state spec)``. ``KeyError`` if it is not one."""
        machine = "turn"
        resolved: list[tuple[str, StateSpec]] = []
        for part in path.split("."):
            if machine not in self.specs or (machine, part) not in self._states:
                raise KeyError(path)
            state = self._states[(machine, part)]
            resolved.append((machine, state))
            machine = state.machine or ""
        return resolved

    def find_state(self, name: str) -> tuple[str, StateSpec]:
        """A state by full path, by ``machine.state``, or by a state id found in exactly one
        machine. ``KeyError`` with the candidates when it is unknown or ambiguous."""
        try:
            return self.resolve_path(name)[-1]
        except KeyError:
            pass
        if "." in name:
            machine, _, state = name.partition(".")
            if (machine, state) in self._states:
                return machine, self._states[(machine, state)]
        matches = [(m, s) for (m, sid), s in self._states.items() if sid == name]
        if len(matches) == 1:
            return matches[0]
        raise KeyError(name)


@lru_cache(maxsize=1)
def default_rulebook() -> Rulebook:
    """The shipped machines, loaded once per process."""
    return Rulebook.load()


def settle_cycle(rulebook: Rulebook, taken: list[CompiledTransition]) -> str | None:
    """What settling past its limit went round, once ``taken`` (the engine transitions past it) is long
    enough to tell: the cycle they repeat, or the last ones when they repeat none (``None`` until then)."""
    window = 2 * sum(len(spec.transitions) for spec in rulebook.specs.values()) + 2
    if len(taken) < window:
        return None
    machine_ids = {id(machine): machine_id for machine_id, machine in rulebook.machines.items()}
    names = [f"{machine_ids[id(t.machine)]}.{t.spec.id}" for t in taken]
    period = next((p for p in range(1, len(names) // 2 + 1)
                   if all(names[i] == names[i - p] for i in range(p, len(names)))), None)
    if period is None:
        count, what = 8, "without repeating; the last ones"
    else:
        count, what = period, "going round the cycle"
    cycle = " → ".join(f"{name}{_guard_text(t.spec)}" for name, t in zip(names[-count:], taken[-count:], strict=True))
    return f"{what}: {cycle}"


def _guard_text(spec: TransitionSpec) -> str:
    terms = [*spec.guards, *(f"not {name}" for name in spec.unless)]
    return f" [{' and '.join(terms)}]" if terms else ""
