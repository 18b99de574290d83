"""The runtime of one duel: its frames moved through the shared machines, the options of the
player who must act, settling, and the trace records — :class:`DuelRuntime`, the base of
:class:`~ygo_fsm.duel.Duel` (the engine's semantics: :mod:`ygo_fsm.engine`).

The options of a state are enumerated once and kept until the next transition; what the rules
compute about a state that holds still is kept in the game's ``scans`` while options are enumerated,
and a player's effects and their sorts (``card_scans``) across transitions that move no card
(:data:`~ygo_fsm.registry.CARDS_STAY`); options and offered actions are values made once per content
(:func:`~ygo_fsm.state.card_choice`, :func:`offered_action`). A trace record is kept as a row, one
reference to a head its transition shares with every duel, and beside it, by seq, its context where
that changed and its option, narration and the players' sights where it has them
(:mod:`ygo_fsm.trace_rows`); it is validated when the trace is read.

What the declarations settle once is read from the rulebook rather than found again at each step:
a frame keeps its state's :class:`~ygo_fsm.engine.StateRuntime` (``Frame.at``); transitions whose
declarations keep them apart are not all evaluated (:func:`~ygo_fsm.engine.exclusive`); and a
state's option search notes the events it offers only where a tie or a nested state's same event
is possible (:data:`~ygo_fsm.engine.OptionPlan`).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from operator import attrgetter
from typing import TYPE_CHECKING

from .cards import CardSpec
from .engine import CompiledTransition, Rulebook, StateRuntime, settle_cycle
from .equips import destroy_unequipped
from .errors import EngineError, TraceNotKeptError
from .game import PLAYERS, Profile, Setup, TurnEffect, Zone
from .priority import find_holder
from .priority import holder as priority_holder
from .spec import DONE_EVENT, Role
from .state import _UNSET, Attack, Choice, Expiry, Frame, GameState, Link, PlayerState, Summon, Window
from .trace import Refusal, TraceRecord
from .trace_rows import RowContext, RowExtra, RowHead, chain_snapshot, records_of_rows
from .views import SightKeeper

__all__ = ["PASS", "RECORD_FIELDS", "SETTLE_ROUNDS", "Action", "DuelRuntime", "Option", "auto_pass_players",
           "offered_action", "settle_limit"]


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


_ACTIONS: dict[tuple[str, str, str | None, str], Action] = {}
_ACTIONS_LIMIT = 8192


def offered_action(name: str, player: str, choice: str | None = None, label: str = "") -> Action:
    """``Action(name, player, choice, label)``. Actions are values, so one is made per event,
    player, option and label and given again (a bounded table, emptied when full)."""
    key = (name, player, choice, label)
    found = _ACTIONS.get(key)
    if found is None:
        if len(_ACTIONS) >= _ACTIONS_LIMIT:
            _ACTIONS.clear()
        found = _ACTIONS[key] = Action(name, player, choice, label)
    return found


PASS = "pass"
"""The event of passing priority, the one action auto-pass takes for a player."""
_PASSES = {player: Action(PASS, player) for player in PLAYERS}
"""Each player's ``pass`` (actions are values: auto-pass records the same one each time)."""
_TRIGGER_PLAYER = Role.trigger_player
"""A module constant, as in :mod:`ygo_fsm.priority`: an enum member read from its class costs more under Python 3.11."""

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


_STATE_OF = attrgetter("state")


RECORD_FIELDS = ("seq", "turn", "turn_player", "machine", "source", "dest", "event", "transition",
                 "actor", "priority", "chain", "rule", "state", "choice", "detail", "auto_pass", "lp", "hand",
                 "views")
"""The :class:`~ygo_fsm.trace.TraceRecord` fields."""
Option = tuple[str, int, CompiledTransition, Choice | None]
"""One option of the player who must act: (player, frame level, transition, its choice or ``None``)."""


def auto_pass_players(auto_pass: bool | Iterable[str]) -> frozenset[str]:
    """The players auto-pass passes for: ``True`` both, ``False`` none, or the players named."""
    if auto_pass is True:
        return frozenset(PLAYERS)
    if auto_pass is False:
        return frozenset()
    if not isinstance(auto_pass, Iterable):
        raise TypeError(f"auto_pass takes True, False or the players it passes for (A, B), not "
                        f"{type(auto_pass).__name__}: {auto_pass!r}")
    players = frozenset(auto_pass)
    unknown = sorted(players - set(PLAYERS))
    if unknown:
        raise ValueError(f"auto_pass: unknown player(s) {', '.join(unknown)}; players are A and B")
    return players


# of their own: the option search and settling make no closure cells (tests/test_hot_paths.py)
def _with_choices(holder: str, level: int, transition: CompiledTransition, choices: list[Choice]) -> list[Option]:
    return [(holder, level, transition, choice) for choice in choices]


def _enabled(transitions: Iterable[CompiledTransition], frame: Frame) -> list[CompiledTransition]:
    return [t for t in transitions if t.check is None or t.check(frame)]


class DuelRuntime:
    """The runtime around one :class:`~ygo_fsm.state.GameState`: the frames, the options of the
    player who must act, taking transitions and settling, the history and the trace records.
    :class:`~ygo_fsm.duel.Duel` builds on it."""

    rulebook: Rulebook
    game: GameState
    setup: Setup
    auto_pass: frozenset[str]
    _refusals: list[Refusal] | None

    __slots__ = ("rulebook", "game", "setup", "_history", "_records", "_trace", "_seq", "_option_cache",
                 "resolutions", "auto_pass", "auto_passes", "_refusals", "_view_cache", "_index_cache",
                 "keeps_trace", "_path_base", "_sights", "_context", "_contexts", "_extras", "_row_context",
                 "_read_context")

    def _start_runtime(self, *, keeps_trace: bool = True) -> None:
        self.keeps_trace = keeps_trace
        """Whether a record is kept of every transition taken (``Duel(trace=False)`` keeps none)."""
        self._history: list[Action] = []
        self._records: list[RowHead] = []
        # beside the rows not yet read, by seq: a context from the row it first holds for, and the extras
        self._contexts: dict[int, RowContext] = {}
        self._extras: dict[int, RowExtra] = {}
        self._row_context: RowContext | None = None  # the newest row's
        self._read_context: RowContext | None = None  # in force after the last row read into the trace
        self._trace: list[TraceRecord] = []
        self._option_cache: list[Option] | None = None
        self._view_cache: tuple[list[Option], tuple[Action, ...]] | None = None
        self._index_cache: tuple[list[Option], tuple[int, ...]] | None = None
        self._seq = 0
        self._path_base: tuple[str, ...] = ()
        """The states of the frames the first row not yet read into :attr:`trace` starts from (a row keeps
        where its transition left the frames): as the duel started or was loaded, or the trace last read."""
        self._sights = SightKeeper()
        """Takes the rows' sights (:class:`~ygo_fsm.views.Sight`; each shares what the one before saw unchanged)."""
        self._context: RowContext | None = None
        """The newest row's context while it holds for the rows after it: until a transition that may
        change it (one that may move a card) or a player's action (``None``: the game may have been
        changed from outside before it)."""
        self.resolutions: list[tuple[int, int, str, bool]] = []
        """Every chain link resolved: (trace seq, chain number, card uid, negated)."""
        self._refusals = None
        self.auto_passes = 0
        """How many passes auto-pass took so far (each is in the history and the trace)."""

    # --- the game state, read through the duel -----------------------------------------

    @property
    def profile(self) -> Profile:
        return self.game.profile

    if TYPE_CHECKING:  # turn and is_over, asked after every action by a player loop, read with no Python call
        @property
        def turn(self) -> int: ...

        @property
        def is_over(self) -> bool: ...
    else:
        turn = property(attrgetter("game.turn"), doc="The turn number.")
        is_over = property(attrgetter("game.is_over"), doc="Whether the duel is over.")

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
    def transitions_taken(self) -> int:
        """How many transitions the duel has taken (its trace's length)."""
        return self._seq

    @property
    def history(self) -> tuple[Action, ...]:
        """The actions applied so far, in order."""
        return tuple(self._history)

    @property
    def trace(self) -> tuple[TraceRecord, ...]:
        """One record per transition taken so far (:class:`~ygo_fsm.errors.TraceNotKeptError` for a
        duel that keeps none: its history replays it with one)."""
        if not self.keeps_trace:
            raise TraceNotKeptError("this duel keeps no trace (Duel(trace=False)); its history replays it "
                                    "with one: Duel.replay(duel.setup, duel.history)")
        trace = self._trace
        kept = self._records[len(trace):]
        if not kept:
            return tuple(trace)
        trace += records_of_rows(kept, self._seq - len(kept) + 1, self._path_base, self.rulebook.runtime,
                                 self._contexts, self._extras, self._read_context)  # the newest is _seq
        self._contexts, self._extras, self._read_context = {}, {}, self._row_context
        self._rows_start_here()
        return tuple(trace)

    def _rows_start_here(self) -> None:
        """The next row starts from the frames as they are now. Between two actions they stay as the
        last transition left them, but for the frame of a finished machine, left before its
        ``done``; a row's level leaves such a frame out of its path."""
        self._path_base = tuple(map(_STATE_OF, self.game.frames))

    def effect_applies(self, effect: TurnEffect) -> bool:
        """Whether a turn effect applies to the current turn."""
        return self.game.effect_applies(effect)

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
        self.game.card_scans = self.game.effect_cards = None
        self._option_cache = None
        self._context = None

    # --- the engine -------------------------------------------------------------------

    def _options(self) -> list[Option]:
        """Enabled player transitions for the player who must act, innermost frame first."""
        if self._option_cache is None:
            self._option_cache = self._find_options()
        return self._option_cache

    def _find_options(self) -> list[Option]:
        game = self.game
        cached = game.priority_cache
        holder: str | None
        if cached is _UNSET:
            holder = game.priority_cache = find_holder(game)  # (priority.holder, not called)
        else:
            holder = cached  # type: ignore[assignment]  # only find_holder's results are cached
        if holder is None:
            return []
        turn_player = holder == game.turn_player
        if game.scans is None:
            game.scans = {}  # the state holds still while its options are enumerated
        card_scans = game.card_scans
        if card_scans is None:
            card_scans = game.card_scans = {}
        frames = game.frames
        runtime = self.rulebook.runtime
        options: list[Option] = []
        handled: set[str] | None = None  # the events an inner frame offers (they hide the same event further out)
        for level in range(len(frames) - 1, -1, -1):
            frame = frames[level]
            state: StateRuntime | None = frame.at
            if state is None:
                state = frame.at = runtime[frame.machine][frame.state]
            entries, notes = state.turn_player_plan if turn_player else state.opponent_plan
            if not entries:
                continue
            if not notes and handled is None:  # no event here can tie, hide or be hidden
                for transition, _, check, chooser, sort_keys in entries:
                    if check is not None and not check(frame):
                        continue
                    if chooser is None:
                        options.append((holder, level, transition, None))
                    elif sort_keys is None or card_scans.get(sort_keys[holder], True):  # (engine.PlanEntry)
                        listed = chooser(frame)
                        if listed:
                            options += _with_choices(holder, level, transition, listed)
                continue
            here: list[str] | None = None
            for transition, event, check, chooser, sort_keys in entries:
                if (handled is not None and event in handled) or (check is not None and not check(frame)):
                    continue
                chosen: list[Choice] | None = None
                if chooser is not None:
                    if sort_keys is not None and not card_scans.get(sort_keys[holder], True):
                        continue  # the player has no effect of the sort it lists (engine.PlanEntry)
                    chosen = chooser(frame)
                    if not chosen:
                        continue
                if here is None:
                    here = [event]
                elif event in here:
                    raise EngineError(
                        f"{self.state}: transitions for {event!r} in {frame.machine}.{frame.state} are "
                        f"enabled together with no declared precedence")
                else:
                    here.append(event)
                if chosen is None:
                    options.append((holder, level, transition, None))
                else:
                    options += _with_choices(holder, level, transition, chosen)
            if here is not None:
                if handled is None:
                    handled = set(here)
                else:
                    handled.update(here)
        return options

    def _enter_children(self) -> None:
        """Push the machines run by the innermost state, recursively, at their initial states."""
        game = self.game
        frame = game.frames[-1]
        for entry in self.rulebook.frame_entries(frame.machine, frame.state):
            game.frames.append(Frame(game, *entry))

    def _take(self, level: int, transition: CompiledTransition, actor: str, auto: bool = False) -> None:
        game = self.game
        frames = game.frames
        if game.narration:
            game.narration = []  # the lines of the transition before (kept in its record)
        scans = game.scans
        game.scans = None  # the transition changes the game: nothing is kept while it runs
        moves_cards = transition.moves_cards
        if moves_cards:
            game.card_scans = None  # its callbacks may move cards
        # through its ``transitions`` object (engine.DeclaredTransition: its dest and its declared callbacks);
        # its guards were found to hold on this very state
        moved, frame = transition.transition, frames[level]
        frame.state, frame.at = moved.dest, moved.dest_at  # type: ignore[assignment]  # declared: always a dest
        for func in moved.frame_callbacks:
            func(frame)
        if moves_cards:
            if not game.is_over:
                destroy_unequipped(game)  # an Equip Card equipped to nothing is destroyed at once (the rules)
            game.card_scans = {}
        if game.lp_lost:  # after a transition in which a player lost LP (checked on every settle too)
            game.lp_lost = False
            game.check_lp()
        if len(frames) > level + 1:
            del frames[level + 1:]  # leaving the source state leaves the machines it ran
        # a duel decided by this transition ends where it leads (PR17 p.43)
        if transition.enters and not game.is_over:  # the machines its destination runs start
            for child, initial, invoked_as, parent, at in transition.transition.enters_at:
                frames.append(Frame(game, child, initial, invoked_as, parent, at))
        seats = transition.final_seats  # where the turn player alone says it, it is not searched for
        game.priority_cache = _UNSET if seats is None or game.is_over else seats[game.turn_player]
        if scans is None:
            scans = {}
        else:
            scans.clear()  # what was kept of the state before is stale
        game.scans = scans
        self._option_cache = None
        self._seq = seq = self._seq + 1
        if game.resolved_now:
            for number, uid, negated in game.resolved_now:
                self.resolutions.append((seq, number, uid, negated))
            game.resolved_now = []
        if not self.keeps_trace:
            return
        if self._context is None or moves_cards:  # only a transition that may move a card changes these
            a, b = game.players["A"], game.players["B"]
            fresh = (game.turn, game.turn_player, chain_snapshot(game.chain) if game.chain else (), a.lp, b.lp,
                     a._hand + len(a.hand_cards), b._hand + len(b.hand_cards))  # PlayerState.hand, read as it is
            if fresh == self._row_context:  # the rows share it
                self._context = self._row_context
            else:
                self._contexts[seq] = self._context = self._row_context = fresh
        narration = game.narration
        choice = game.choice
        if choice is not None or narration:  # and what masking reads when the trace is read
            self._extras[seq] = (choice, tuple(narration), self._sights.see(game))
        # who must act now: the role of the state the frames end in where the row's own turn player and
        # chain name that player (worked out when the trace is read), else the player found now
        holder: str | Role | None = None  # (none once the duel is over)
        if not game.is_over:
            holder = transition.final_role
            if holder is _TRIGGER_PLAYER:
                holder = game.priority_cache = find_holder(game)
            elif actor == "engine":  # one row head by level (the level says how many frames there are)
                row = (rows := transition.engine_rows).get(level)
                if row is None:
                    row = rows[level] = (transition.record_head, actor, holder, level, len(frames), False)
                self._records.append(row)
                return
        # one row (its seq is its place), a TraceRecord when the trace is read: a reference to its head
        key = (actor, holder, level, len(frames), auto)
        row = transition.row_heads.get(key)
        if row is None:
            row = transition.row_heads[key] = (transition.record_head, *key)
        self._records.append(row)

    def _settle(self) -> None:
        """Take engine transitions until a player must act or the duel is over; more than
        :func:`settle_limit` of them in a row raise :class:`EngineError` naming the cycle."""
        rulebook = self.rulebook
        game = self.game
        frames = game.frames
        limit = settle_limit(rulebook)
        taken = 0
        runaway: list[CompiledTransition] = []
        runtime = rulebook.runtime
        take = self._take
        # between transitions the state holds still (each transition taken leaves both kept anew)
        if game.scans is None:
            game.scans = {}
        if game.card_scans is None:
            game.card_scans = {}
        players = game.players  # LP may also have been set outside a transition, before the action being applied
        if players["A"].lp <= 0 or players["B"].lp <= 0:
            game.check_lp()  # (and the duel judged: GameState.check_lp)
        while not game.is_over:
            taken += 1
            if taken > limit:
                self._runaway(runaway, limit)
            frame = frames[-1]
            here: StateRuntime | None = frame.at
            if here is None:
                here = frame.at = runtime[frame.machine][frame.state]
            if here.terminal:
                game.end_duel(winner=None, reason=f"{frame.machine}.{frame.state}")
                return
            checks = here.engine_checks
            chosen = None
            if checks is not None:  # at most one can be enabled (engine.exclusive): the first is it
                for check, engine in checks:
                    if check is None or check(frame):
                        chosen = engine
                        break
            else:
                for engine in here.engine:
                    check = engine.check
                    if check is None or check(frame):
                        if chosen is not None:
                            raise EngineError(f"{self.state}: engine transitions "
                                              f"{', '.join(t.spec.id for t in _enabled(here.engine, frame))} "
                                              "are enabled together with no declared precedence")
                        chosen = engine
            if chosen is not None:
                if taken > limit:
                    runaway.append(chosen)
                take(len(frames) - 1, chosen, "engine")
                continue
            if here.final and len(frames) > 1:
                frames.pop()
                game.priority_cache = _UNSET  # (one machine fewer: who must act is found again)
                if game.scans is not None:
                    game.scans.clear()  # one machine fewer: what the rules read may differ
                parent = frames[-1]
                outer: StateRuntime | None = parent.at
                if outer is None:
                    outer = parent.at = runtime[parent.machine][parent.state]
                done_checks = outer.done_checks
                if done_checks is not None:  # at most one can be enabled (engine.exclusive)
                    done = []
                    for check, candidate in done_checks:
                        if check is None or check(parent):
                            done = [candidate]
                            break
                else:
                    done = _enabled(outer.done, parent)
                if len(done) != 1:
                    problem = "no" if not done else "more than one"
                    raise EngineError(f"{self.state}.{frame.state}: {problem} '{DONE_EVENT}' transition "
                                      f"enabled in {parent.machine}.{parent.state}")
                if taken > limit:
                    runaway.append(done[0])
                take(len(frames) - 1, done[0], "engine")
                continue
            options = self._option_cache = self._find_options()  # (as _options: a transition was just taken)
            if not options:
                raise EngineError(f"{self.state}: stuck — no legal action and no engine transition")
            if self.auto_pass and len(options) == 1:
                holder, level, transition, option = options[0]
                if option is None and transition.event_name == PASS and holder in self.auto_pass:
                    self._history.append(_PASSES[holder])
                    game.actor = holder
                    try:
                        take(level, transition, holder, True)
                    finally:
                        game.actor = None
                    self.auto_passes += 1
                    taken, runaway = 0, []  # a player's action (taken for them): settling starts again
                    continue
            return

    def _runaway(self, taken: list[CompiledTransition], limit: int) -> None:
        """Past the settle limit: watch a few more steps, then raise naming the cycle they repeat."""
        cycle = settle_cycle(self.rulebook, taken)
        if cycle is not None:
            raise EngineError(f"{self.state}: more than {limit} engine transitions in a row with no player acting "
                              f"(the settle limit), {cycle}")
