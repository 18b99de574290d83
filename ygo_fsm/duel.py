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

from dataclasses import dataclass, field, replace
from functools import lru_cache

from .battle import Attack
from .cards import CardSpec, CardType, default_library
from .chain import Link, Window, current_tier
from .effects import Choice, find
from .engine import CompiledTransition, Frame, Rulebook, default_rulebook
from .errors import EngineError, IllegalActionError
from .events import Expiry, Occurrence
from .game import (
    MONSTER_ZONES,
    PLAYERS,
    PROFILE_RULES,
    SPELL_TRAP_ZONES,
    CardInstance,
    PlayerState,
    Profile,
    Setup,
    TurnEffect,
    Zone,
    other_player,
    placement_uids,
)
from .rules import guard_citation
from .spec import DONE_EVENT, Actor, Role, TransitionSpec
from .summon import Summon
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


class _Unknown:
    """Marks a cached value as not computed yet."""


_UNKNOWN = _Unknown()
_RECORD_FIELDS = ("seq", "turn", "turn_player", "machine", "source", "dest", "event", "transition",
                  "actor", "priority", "chain", "rule", "state", "choice", "detail")
_Option = tuple[str, int, CompiledTransition, Choice | None]


class Duel:
    """A duel in progress.

    Create it from a :class:`~ygo_fsm.game.Setup` (or keyword overrides of the default
    setup: ``Duel(profile="ocg2008")``). The machines come from a shared
    :class:`~ygo_fsm.engine.Rulebook`; creating a duel builds none.
    """

    __slots__ = (
        "rulebook", "profile", "turn", "turn_player", "players", "_effects",
        "_frames", "_history", "_records", "_trace", "winner", "is_over", "end_reason", "_seq",
        "_priority", "_option_cache", "library", "chain", "chain_finished", "events",
        "window", "handled", "last_action_summon", "choice", "actor", "_detail", "normal_summon_turn",
        "resolutions", "attack", "last_attack", "battle_phase_number", "summon", "used_once",
        "draw_replaced_turn", "expiring",
    )

    def __init__(self, setup: Setup | None = None, *, rulebook: Rulebook | None = None,
                 library: dict[str, CardSpec] | None = None, **overrides: object) -> None:
        if setup is None:
            setup = Setup.model_validate(overrides) if overrides else _DEFAULT_SETUP
        elif overrides:
            raise TypeError("give a Setup or keyword overrides, not both")
        self.rulebook = rulebook or default_rulebook()
        self.profile: Profile = setup.profile
        self.turn: int = setup.turn
        self.turn_player: str = setup.turn_player
        self.players: dict[str, PlayerState] = {p: PlayerState(setup.players[p], p) for p in PLAYERS}
        self.library = library if library is not None else (default_library() if _uses_cards(setup) else {})
        self._place_cards(setup)
        self.chain: list[Link] = []
        self.chain_finished = False
        self.events: list[Occurrence] = []
        self.window: Window | None = None
        self.handled: set[tuple[str, int, int, str]] = set()
        self.last_action_summon = False
        self.choice: str | None = None
        self.actor: str | None = None
        self._detail: list[str] = []
        self.normal_summon_turn = 0
        self.attack: Attack | None = None
        """The attack in progress."""
        self.last_attack: Attack | None = None
        """The last attack that ended (cancelled, stopped or fought)."""
        self.summon: Summon | None = None
        self.used_once: set[tuple[str, int, int]] = set()
        self.draw_replaced_turn = 0
        self.expiring: list[Expiry] = []
        """Effects lasting until a phase (『…为止』), ended there without a chain link."""
        self.battle_phase_number = 0
        self.resolutions: list[tuple[int, int, str, bool]] = []
        """Every chain link resolved: (trace seq, chain number, card uid, negated)."""
        self._effects: dict[int, frozenset[TurnEffect]] = {
            turn: frozenset(effects) for turn, effects in setup.effects_on_turn.items()
        }
        if setup.effects:
            self._effects[setup.turn] = self._effects.get(setup.turn, frozenset()) | set(setup.effects)
        self._frames: list[Frame] = []
        self._history: list[Action] = []
        self._records: list[tuple[object, ...]] = []
        self._trace: list[TraceRecord] = []
        self._priority: str | _Unknown | None = _UNKNOWN
        self._option_cache: list[_Option] | None = None
        self.winner: str | None = None
        self.is_over = False
        self.end_reason = ""
        self._seq = 0
        try:
            start = self.rulebook.state("turn", setup.phase)
        except KeyError:
            raise ValueError(f"unknown starting phase {setup.phase!r}; states of the turn machine: "
                             f"{', '.join(self.rulebook.specs['turn'].state_ids())}") from None
        if start.id == "battle_phase":
            self.battle_phase_number = 1  # starting inside a Battle Phase
        self._frames.append(Frame(self, "turn", start.id, None))
        self._enter_children()
        self._settle()

    def _place_cards(self, setup: Setup) -> None:
        uids = placement_uids(setup)
        for player in PLAYERS:
            for index, placement in enumerate(setup.players[player].cards):
                card = self.library.get(placement.card)
                if card is None:
                    raise ValueError(f"players.{player}.cards[{index}]: unknown card {placement.card!r}")
                uid = uids[(player, index)]
                if placement.zone is Zone.monster and card.type is not CardType.monster:
                    raise ValueError(f"players.{player}.cards[{index}]: {card.id} is not a monster; "
                                     "it cannot be placed in the monster zone")
                if placement.zone is Zone.spell_trap and card.type is CardType.monster:
                    raise ValueError(f"players.{player}.cards[{index}]: {card.id} is a monster; "
                                     "it cannot be placed in the spell/trap zone")
                face_down_attack = placement.face_up is False and placement.position.value == "attack"
                if placement.zone is Zone.monster and face_down_attack:
                    raise ValueError(f"players.{player}.cards[{index}]: a face-down monster is in Defense Position")
                zones = {Zone.monster: MONSTER_ZONES, Zone.spell_trap: SPELL_TRAP_ZONES}.get(placement.zone)
                if zones is not None and len(self.players[player].zone_list(placement.zone)) >= zones:
                    raise ValueError(f"players.{player}.cards[{index}]: the {placement.zone.value} zones are full (5)")
                instance = CardInstance.of_card(uid, player, card)
                instance.position = placement.position
                default_face_up = placement.zone is not Zone.spell_trap or card.type is CardType.monster
                instance.face_up = default_face_up if placement.face_up is None else placement.face_up
                instance.set_turn = placement.set_turn if placement.set_turn is not None else setup.turn - 1
                if placement.destroyed_this_turn:
                    instance.destroyed_turn = setup.turn
                self.players[player].zone_list(placement.zone).append(instance)

    # --- reading the duel -------------------------------------------------------------

    @property
    def opponent(self) -> str:
        """The non-turn player."""
        return other_player(self.turn_player)

    @property
    def state(self) -> str:
        """The full state path, e.g. ``main_phase_1.open.turn_player``."""
        return ".".join(frame.state for frame in self._frames)

    def in_state(self, path: str) -> bool:
        """Whether the duel is in ``path`` or in a state nested inside it."""
        state = self.state
        return state == path or state.startswith(path + ".")

    @property
    def priority(self) -> str | None:
        """The player who must act now (holds priority or must choose), or ``None``."""
        holder = self._priority
        if isinstance(holder, _Unknown):
            holder = self._priority = self._find_priority()
        return holder

    def _find_priority(self) -> str | None:
        if self.is_over:
            return None
        for frame in reversed(self._frames):
            role = self.rulebook.state(frame.machine, frame.state).priority
            if role is not None:
                return self._holder(role)
        return None

    def _holder(self, role: Role) -> str | None:
        if role is Role.turn_player:
            return self.turn_player
        if role is Role.opponent:
            return self.opponent
        if role is Role.responder:
            return other_player(self.chain[-1].controller) if self.chain else self.opponent
        if role is Role.last_activator:
            return self.chain[-1].controller if self.chain else self.turn_player
        tier = current_tier(self)
        return tier.player if tier is not None else None

    current_player = priority

    @property
    def frames(self) -> tuple[Frame, ...]:
        """The active machines, the ``turn`` machine first."""
        return tuple(self._frames)

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

    def normal_draw_due(self) -> bool:
        """The turn player draws normally this turn (not the first turn under a profile with no
        first-turn draw, 004 ●先攻第1回合游戏玩家的抽卡階段不能通常抽卡)."""
        return not (self.turn == 1 and not PROFILE_RULES[self.profile].first_turn_draw)

    def effect_applies(self, effect: TurnEffect) -> bool:
        """Whether a turn effect applies to the current turn."""
        return effect in self._effects.get(self.turn, ())

    def legal_actions(self) -> list[Action]:
        """The actions the player who must act may take now (none once the duel is over)."""
        return [Action(t.spec.event, player, c.key if c else None, c.label if c else "")
                for player, _, t, c in self._options()]

    def explain_illegal(self, name: str) -> str:
        """Why ``name`` (an action name, or its text with the option) is not legal now."""
        action, choice = Action.parse(name)
        if choice is not None and any(a.name == action for a in self.legal_actions()):
            return f"{choice!r} is not one of its options"
        return self._refusal(action, None)

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
                self.choice, self.actor = choice, holder
                try:
                    self._take(level, transition, actor=holder)
                finally:
                    self.choice = self.actor = None
                self._settle()
                return
        offered = [str(Action(t.spec.event, p, c.key if c else None)) for p, _, t, c in options]
        if any(t.spec.event == name and player in (None, p) for p, _, t, _ in options):
            reason = f"{choice!r} is not one of its options" if choice else "choose one of its options"
        else:
            reason = self._refusal(name, player)
        text = f"{name} {choice}" if choice else name
        raise IllegalActionError(text, self.state, offered, reason=reason)

    def copy(self) -> Duel:
        """An independent copy: applying actions to one leaves the other as it was."""
        clone = Duel.__new__(Duel)
        clone.rulebook = self.rulebook
        clone.profile, clone.turn, clone.turn_player = self.profile, self.turn, self.turn_player
        clone.players = {p: state.copy() for p, state in self.players.items()}
        clone._effects = dict(self._effects)
        clone._frames = [Frame(clone, f.machine, f.state, f.invoked_as, f.parent) for f in self._frames]
        clone.library = self.library
        clone.chain = [replace(link) for link in self.chain]
        clone.chain_finished = self.chain_finished
        clone.events = list(self.events)
        clone.window = self.window.copy() if self.window is not None else None
        clone.handled = set(self.handled)
        clone.last_action_summon = self.last_action_summon
        clone.choice = clone.actor = None
        clone._detail = []
        clone.normal_summon_turn = self.normal_summon_turn
        clone.resolutions = list(self.resolutions)
        clone.attack = self.attack.copy() if self.attack is not None else None
        clone.last_attack = self.last_attack.copy() if self.last_attack is not None else None
        clone.battle_phase_number = self.battle_phase_number
        clone.summon = self.summon.copy() if self.summon is not None else None
        clone.used_once = set(self.used_once)
        clone.draw_replaced_turn = self.draw_replaced_turn
        clone.expiring = list(self.expiring)
        clone._history = list(self._history)
        clone._records = list(self._records)
        clone._trace = list(self._trace)
        clone._priority = _UNKNOWN
        clone._option_cache = None
        clone.winner, clone.is_over, clone.end_reason = self.winner, self.is_over, self.end_reason
        clone._seq = self._seq
        return clone

    # --- used by callbacks ------------------------------------------------------------

    def begin_next_turn(self) -> None:
        """The next turn begins; the other player becomes the turn player. Effects of resolved
        cards that applied "this turn" (「ラストバトル！」's End Phase) are over: those cards go to
        the graveyard."""
        for state in self.players.values():
            state.graveyard_cards.extend(state.lingering)
            state.lingering.clear()
        self.turn += 1
        self.turn_player = self.opponent

    def where(self, uid: str) -> tuple[str, Zone] | None:
        """The player and zone of the named card ``uid`` (``None`` when there is none)."""
        found = find(self, uid)
        return (found[0], found[1]) if found is not None else None

    def note_resolution(self, number: int, uid: str, negated: bool) -> None:
        """Record a resolved link (the transition being taken gets the next trace seq)."""
        self.resolutions.append((self._seq + 1, number, uid, negated))

    def lose_lp(self, player: str, amount: int) -> None:
        """``player`` loses ``amount`` LP (damage or a payment); see :meth:`check_lp`."""
        self.players[player].lp -= amount

    def check_lp(self) -> None:
        """A player at 0 LP loses; both at 0 is a draw (000 ●メインフェイズ１ 例 …攻击（对方LP 0））.
        Called once an event that changed LP is over, so simultaneous damage is judged together."""
        if self.is_over:
            return
        out = [p for p in PLAYERS if self.players[p].lp <= 0]
        for player in out:
            self.players[player].lp = 0
        if len(out) == 2:
            self.end_duel(winner=None, reason="lp")
            self.say("双方的基本分为0，平局")
        elif out:
            self.end_duel(winner=other_player(out[0]), reason="lp")
            self.say(f"{out[0]}的基本分为0，{other_player(out[0])}获得决斗的胜利")

    def attack_damage(self, player: str, amount: int) -> None:
        """Battle damage to ``player`` from the attack in progress."""
        self.lose_lp(player, amount)
        if self.attack is not None:
            self.attack.battle_damage[player] = self.attack.battle_damage.get(player, 0) + amount

    def say(self, text: str) -> None:
        """Add a line of narration to the transition being taken (the trace's ``detail``)."""
        self._detail.append(text)

    def add_turn_effect(self, effect: TurnEffect, turn: int | None = None) -> None:
        """An effect that applies for the rest of this turn (or to ``turn``), e.g. monsters cannot attack."""
        turn = self.turn if turn is None else turn
        self._effects[turn] = self._effects.get(turn, frozenset()) | {effect}
        self._forget()

    def _forget(self) -> None:
        """Drop the cached priority holder and options (the duel changed outside a transition)."""
        self._priority = _UNKNOWN
        self._option_cache = None

    def replace_draw(self) -> None:
        """An effect replaces this turn's normal draw (000 ●ドローフェイズ【情况Ｂ】)."""
        self.add_turn_effect(TurnEffect.draw_replaced)
        self.draw_replaced_turn = self.turn

    def end_duel(self, *, winner: str | None, reason: str) -> None:
        """The duel is over (``winner`` ``None`` for a draw)."""
        self.winner = winner
        self.is_over = True
        self.end_reason = reason

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
        frames = self._frames
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
        for frame in reversed(self._frames):
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

        return ", ".join([f"{g} does not hold{cite(g)}" for g in failed] + [f"{u} holds{cite(u)}" for u in held])

    def _declared_elsewhere(self, name: str) -> str:
        """Where an action not offered here is declared, and what would block it there."""
        active = {frame.machine: frame for frame in self._frames}
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
        while True:
            frame = self._frames[-1]
            child = self.rulebook.state(frame.machine, frame.state).machine
            if child is None:
                return
            self._frames.append(Frame(self, child, self.rulebook.specs[child].initial, frame.state, frame.machine))

    def _take(self, level: int, transition: CompiledTransition, *, actor: str) -> None:
        frame = self._frames[level]
        self._detail = []
        transition.execute(frame)  # guards re-checked with the inner frames still in place
        self.check_lp()
        del self._frames[level + 1:]  # leaving the source state leaves the machines it ran
        self._enter_children()
        self._priority = _UNKNOWN
        self._option_cache = None
        spec = transition.spec
        self._seq += 1
        self._records.append((
            self._seq, self.turn, self.turn_player, frame.machine, spec.source, spec.dest, spec.event,
            spec.id, actor, self.priority, self._chain_snapshot(), spec.rule, self.state, self.choice,
            tuple(self._detail),
        ))

    def _chain_snapshot(self) -> tuple[dict[str, object], ...]:
        return tuple({"number": link.number, "card": link.name, "controller": link.controller,
                      "spell_speed": link.spell_speed, "negated": link.negated} for link in self.chain)

    def _settle(self) -> None:
        """Take engine transitions until a player must act or the duel is over; more than
        :func:`settle_limit` of them in a row raise :class:`EngineError` naming the cycle."""
        rulebook = self.rulebook
        limit = settle_limit(rulebook)
        taken = 0
        runaway: list[CompiledTransition] = []
        while not self.is_over:
            taken += 1
            if taken > limit:
                self._runaway(runaway, limit)
            frame = self._frames[-1]
            state = rulebook.state(frame.machine, frame.state)
            if state.terminal:
                if not self.is_over:
                    self.end_duel(winner=None, reason=f"{frame.machine}.{frame.state}")
                return
            enabled = [t for t in rulebook.engine_transitions(frame.machine, frame.state) if t.enabled(frame)]
            if len(enabled) > 1:
                raise EngineError(f"{self.state}: engine transitions "
                                  f"{', '.join(t.spec.id for t in enabled)} are enabled together "
                                  "with no declared precedence")
            if enabled:
                if taken > limit:
                    runaway.append(enabled[0])
                self._take(len(self._frames) - 1, enabled[0], actor="engine")
                continue
            if state.final and len(self._frames) > 1:
                self._frames.pop()
                parent = self._frames[-1]
                done = [t for t in rulebook.done_transitions(parent.machine, parent.state) if t.enabled(parent)]
                if len(done) != 1:
                    problem = "no" if not done else "more than one"
                    raise EngineError(f"{self.state}.{frame.state}: {problem} '{DONE_EVENT}' transition "
                                      f"enabled in {parent.machine}.{parent.state}")
                if taken > limit:
                    runaway.append(done[0])
                self._take(len(self._frames) - 1, done[0], actor="engine")
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
