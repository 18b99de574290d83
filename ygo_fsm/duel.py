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
from typing import Any, ClassVar

from .actions import NUM_DISTINCT_ACTIONS, ActionEncodingError, decode, encode
from .cards import CardSpec, CardType, EffectKind, default_library
from .decks import deal
from .effects import activation_refusals, parse_key
from .engine import CompiledTransition, Rulebook, default_rulebook
from .errors import EngineError, IllegalActionError, StateFormatError, TraceFormatError
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
from .refusals import why_not
from .snapshot import FORMAT_VERSION, canonical_json, game_document, game_from_document, read_duel_document, state_key
from .spec import DONE_EVENT, Actor, TransitionSpec
from .state import Attack, CardInstance, Choice, Expiry, Frame, GameState, Link, PlayerState, Summon, Window
from .trace import Refusal, Trace, TraceHeader, TraceRecord, actions, dumps, parse_trace
from .views import (
    Hidden,
    Observation,
    Sight,
    hidden_among,
    hidden_from,
    key_uids,
    mask_key,
    mask_label,
    observe,
    record_views,
    sight,
)


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
PASS = "pass"
"""The event of passing priority, the one action auto-pass takes for a player."""
_PASSES = {player: Action(PASS, player) for player in PLAYERS}
"""Each player's ``pass`` (actions are values: auto-pass records the same one each time)."""

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
    return any(player.cards or player.deck_list for player in setup.players.values())


_RECORD_FIELDS = ("seq", "turn", "turn_player", "machine", "source", "dest", "event", "transition",
                  "actor", "priority", "chain", "rule", "state", "choice", "detail", "auto_pass", "lp", "hand",
                  "views")
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


def _auto_pass_players(auto_pass: bool | Iterable[str]) -> frozenset[str]:
    if auto_pass is True:
        return frozenset(PLAYERS)
    if auto_pass is False:
        return frozenset()
    players = frozenset(auto_pass)
    unknown = sorted(players - set(PLAYERS))
    if unknown:
        raise ValueError(f"auto_pass: unknown player(s) {', '.join(unknown)}; players are A and B")
    return players


class Duel:
    """A duel in progress: the runtime around one :class:`~ygo_fsm.state.GameState`.

    With ``auto_pass=True`` (or a set of players, ``auto_pass={"B"}``) the duel passes for a
    player whose only legal action is ``pass``, as soon as that player would be asked: the
    pass is in the history and in the trace like any other (its record's ``auto_pass`` is
    true), so a narrated trace differs from a manual one only by that flag. Off by default:
    stepping through a ruling shows every pass.

    Create it from a :class:`~ygo_fsm.game.Setup` (or keyword overrides of the default
    setup: ``Duel(profile="ocg2008")``). The machines come from a shared
    :class:`~ygo_fsm.engine.Rulebook`; creating a duel builds none. The duel keeps its
    ``setup``, the ``history`` of actions and the ``trace``; everything else is its ``game``.
    """

    _refusals: list[Refusal] | None

    __slots__ = ("rulebook", "game", "setup", "_history", "_records", "_trace", "_seq", "_option_cache",
                 "resolutions", "auto_pass", "auto_passes", "_refusals", "_view_cache")

    def __init__(self, setup: Setup | None = None, *, rulebook: Rulebook | None = None,
                 library: Mapping[str, CardSpec] | None = None, auto_pass: bool | Iterable[str] = False,
                 record_refusals: bool = False, **overrides: object) -> None:
        self.auto_pass = _auto_pass_players(auto_pass)
        if setup is None:
            setup = Setup.model_validate(overrides) if overrides else _DEFAULT_SETUP
        elif overrides:
            raise TypeError("give a Setup or keyword overrides, not both")
        self.rulebook = rulebook or default_rulebook()
        self.setup = setup
        game = self.game = self.initial_game(setup, rulebook=self.rulebook, library=library)
        self._start_runtime()
        self._refusals = [] if record_refusals else None
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
        self._view_cache: tuple[list[_Option], tuple[Action, ...]] | None = None
        self._seq = 0
        self.resolutions: list[tuple[int, int, str, bool]] = []
        """Every chain link resolved: (trace seq, chain number, card uid, negated)."""
        self._refusals = None
        self.auto_passes = 0
        """How many passes auto-pass took so far (each is in the history and the trace)."""

    @classmethod
    def new_game(cls, deck_a: list[str], deck_b: list[str], *, seed: int, profile: Profile | str = "modern",
                 rulebook: Rulebook | None = None, library: dict[str, CardSpec] | None = None,
                 **options: Any) -> Duel:
        """A duel from two decks and a seed (:meth:`Setup.from_decks <ygo_fsm.game.Setup.from_decks>`);
        ``options`` are the duel's own (``auto_pass``)."""
        return cls(Setup.from_decks(deck_a, deck_b, seed=seed, profile=profile), rulebook=rulebook,
                   library=library, **options)

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
        deal(game, setup, library)
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
    def transitions_taken(self) -> int:
        """How many transitions the duel has taken (its trace's length)."""
        return self._seq

    @property
    def history(self) -> tuple[Action, ...]:
        """The actions applied so far, in order."""
        return tuple(self._history)

    @property
    def trace(self) -> tuple[TraceRecord, ...]:
        """One record per transition taken so far."""
        trace = self._trace
        for row in self._records[len(trace):]:
            fields = dict(zip(_RECORD_FIELDS, row, strict=True))
            lp, hand, seen = row[-3:]
            if isinstance(lp, tuple) and isinstance(hand, tuple):  # as _take keeps them
                fields["lp"] = dict(zip(PLAYERS, lp, strict=True))
                fields["hand"] = dict(zip(PLAYERS, hand, strict=True))
            if isinstance(seen, Sight):
                fields["views"] = record_views(seen, fields["choice"], fields["detail"])  # type: ignore[arg-type]
            trace.append(TraceRecord.model_validate(fields))
        return tuple(trace)

    def effect_applies(self, effect: TurnEffect) -> bool:
        """Whether a turn effect applies to the current turn."""
        return self.game.effect_applies(effect)

    def legal_actions(self, *, judge: bool = False) -> list[Action]:
        """The actions the player who must act may take now (none once the duel is over).

        Their option keys and labels say only what that player may know: a card hidden from
        them (the opponent's Set card, a face-down attack target) is named by its place,
        ``B.spell_trap.1``, never by its uid or name (:mod:`ygo_fsm.views`). ``judge=True``
        gives the judge's keys and labels instead (uids and names of every card); :meth:`apply`
        accepts both.
        """
        options = self._options()
        if judge or all(c is None for _, _, _, c in options):
            return [Action(t.spec.event, player, c.key if c else None, c.label if c else "")
                    for player, _, t, c in options]
        cached = self._view_cache
        if cached is not None and cached[0] is options:
            return list(cached[1])
        hidden = self._hidden_in_options(options)
        actions: list[Action] = []
        for player, _, transition, option in options:
            if option is None:
                actions.append(Action(transition.spec.event, player))
                continue
            key = mask_key(option.key, hidden)
            label = option.label if key == option.key else mask_label(option.label, option.key, hidden)
            actions.append(Action(transition.spec.event, player, key, label))
        self._view_cache = (options, tuple(actions))
        return actions

    def _hidden_in_options(self, options: list[_Option], viewer: str | None = None) -> dict[str, Hidden]:
        """The cards the options' keys name that are hidden from ``viewer`` (default: the player
        the options are for): all that masking those keys reads."""
        uids = {uid for _, _, _, option in options if option is not None for uid in key_uids(option.key)}
        return hidden_among(self.game, options[0][0] if viewer is None else viewer, uids)

    def observation(self, player: str) -> Observation:
        """What ``player`` may know of the duel now: their hand, both fields with the
        opponent's face-down cards as places only, counts of the opponent's hand and both decks,
        graveyards, banished cards, LP, the chain, the state path and who must act
        (:class:`~ygo_fsm.views.Observation`)."""
        return observe(self.game, player)

    def trace_for(self, player: str) -> tuple[TraceRecord, ...]:
        """The trace as ``player`` may see it: options and narration that name a card hidden from
        them at the time name it by its place. :attr:`trace` is the judge's view."""
        if player not in PLAYERS:
            raise ValueError(f"unknown player {player!r}; players are A and B")
        return tuple(record.for_player(player) for record in self.trace)

    @property
    def refusals(self) -> tuple[Refusal, ...]:
        """The refused attempts, when the duel records them (``Duel(record_refusals=True)``)."""
        return tuple(self._refusals or ())

    def trace_header(self) -> TraceHeader:
        """The first line of this duel's trace file: its setup and profile."""
        return TraceHeader(profile=self.setup.profile.value,
                           setup=self.setup.model_dump(mode="json", by_alias=True, exclude_defaults=True))

    def trace_jsonl(self) -> str:
        """The judge's trace as a trace file: the header, then one record per line (and the
        refused attempts, when recorded). ``ygo-fsm narrate`` reads it; :meth:`from_trace` replays it."""
        return dumps(self.trace, header=self.trace_header(), refusals=self.refusals)

    @classmethod
    def from_trace(cls, trace: Trace | str, *, rulebook: Rulebook | None = None,
                   library: dict[str, CardSpec] | None = None) -> Duel:
        """The duel a trace file (its text, or :func:`~ygo_fsm.trace.parse_trace`'s result)
        records, replayed from its header's setup through its players' actions. Raises
        :class:`~ygo_fsm.errors.TraceFormatError` when the file has no header or does not replay
        to the same records."""
        parsed = parse_trace(trace) if isinstance(trace, str) else trace
        if parsed.header is None:
            raise TraceFormatError("trace: no header line: a trace written before headers cannot be replayed")
        try:
            setup = Setup.model_validate(parsed.header.setup)
            duel = cls.replay(setup, [Action(*action) for action in actions(parsed.records)], rulebook=rulebook,
                              library=library)
        except (ValueError, IllegalActionError) as exc:
            raise TraceFormatError(f"trace: does not replay: {exc}") from exc
        if duel.trace != parsed.records:
            seq = next((a.seq for a, b in zip(duel.trace, parsed.records, strict=False) if a != b),
                       min(len(duel.trace), len(parsed.records)) + 1)
            raise TraceFormatError(f"trace: line for seq {seq}: the replay differs from the recorded transition")
        return duel

    def why_not(self, action: Action | str, player: str | None = None) -> str | None:
        """Why ``action`` (an :class:`Action`, or its text: ``"activate cyclone>B.spell_trap.1"``)
        is not legal now, with the clause it comes from; ``None`` when it is legal.

        The reasons, first that applies: the duel is over; ``player`` does not hold priority;
        the action is not offered here (the guard that blocks it, or where it is offered); the
        option is not offered, and why (Set this turn, a cost that cannot be paid, a Quick-Play
        Spell from the hand in the opponent's turn, no legal target, once per turn used, the
        Damage Step's limits, already attacked, zones full …) — :mod:`ygo_fsm.refusals`.
        """
        if isinstance(action, Action):
            name, choice, player = action.name, action.choice, action.player if player is None else player
        else:
            name, choice = Action.parse(action)
        reason = why_not(self.rulebook, self.game, self._options(), name, choice, player)
        return None if reason is None else reason + self._activation_refusals(choice, player)

    # --- the integer action space (ygo_fsm.actions) -----------------------------------

    num_distinct_actions: ClassVar[int] = NUM_DISTINCT_ACTIONS
    """How many action indices there are (:mod:`ygo_fsm.actions` documents the encoding)."""

    def legal_action_indices(self) -> list[int]:
        """The indices of :meth:`legal_actions`, in the same order."""
        game = self.game
        return [encode(game, player, t.spec.event, c.key if c else None) for player, _, t, c in self._options()]

    def legal_action_mask(self) -> list[bool]:
        """``num_distinct_actions`` flags: true at the index of each legal action."""
        mask = [False] * NUM_DISTINCT_ACTIONS
        for index in self.legal_action_indices():
            mask[index] = True
        return mask

    def action_to_string(self, index: int) -> str:
        """The text of the action ``index`` names for the player who must act, as they are shown it
        in :meth:`legal_actions` (a card hidden from them named by its place; :meth:`apply` reads it)."""
        player = self._acting_player()
        name, choice = decode(self.game, player, index)
        if choice is None:
            return name
        return f"{name} {mask_key(choice, hidden_from(self.game, player))}"

    def string_to_action(self, text: str) -> int:
        """The index of the action ``text`` names for the player who must act (the judge's option
        key or the one they are shown; the option may be left out when the action has only one)."""
        name, choice = Action.parse(text)
        options = self._options()
        if choice is not None and not any(o is not None and o.key == choice for _, _, _, o in options):
            hidden = self._hidden_in_options(options, self._acting_player())
            choice = next((o.key for _, _, _, o in options if o is not None and mask_key(o.key, hidden) == choice),
                          choice)
        if choice is None:
            keys = [c.key for _, _, t, c in options if t.spec.event == name and c is not None]
            if len(keys) == 1:
                choice = keys[0]
        return encode(self.game, self._acting_player(), name, choice)

    def apply_index(self, index: int) -> None:
        """Take the action ``index`` names (see :meth:`apply`; an index naming no legal action raises
        :class:`~ygo_fsm.errors.IllegalActionError` and changes nothing)."""
        player = self._acting_player()
        try:
            name, choice = decode(self.game, player, index)
        except ActionEncodingError as error:
            offered = [str(action) for action in self.legal_actions()]
            raise IllegalActionError(f"#{index}", self.state, offered, reason=str(error)) from None
        self.apply(Action(name, player, choice))

    def _acting_player(self) -> str:
        holder = self.priority
        if holder is None:
            raise IllegalActionError("(index)", self.state, [], reason=f"the duel is over ({self.end_reason})")
        return holder

    def explain_illegal(self, name: str) -> str:
        """Why ``name`` (an action name, or its text with the option) is not legal now, or that it is."""
        reason = self.why_not(name)
        return f"{name!r} is legal now" if reason is None else reason

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
        if choice is not None and options and not any(o is not None and o.key == choice for _, _, _, o in options):
            hidden = self._hidden_in_options(options)  # the option named by a hidden card's place
            choice = next((o.key for _, _, _, o in options if o is not None and mask_key(o.key, hidden) == choice),
                          choice)
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
        offered = [str(action) for action in self.legal_actions()]
        reason = why_not(self.rulebook, self.game, options, name, choice, player)
        if reason is None:  # e.g. the option was named by a place that holds another card
            reason = f"{choice!r} is not one of its options" if choice else "choose one of its options"
        reason += self._activation_refusals(choice, player)
        text = f"{name} {choice}" if choice else name
        if self._refusals is not None:
            self._refusals.append(Refusal(after=self._seq, action=text, player=player, reason=reason))
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
        clone._view_cache = None
        clone.resolutions = list(self.resolutions)
        clone.auto_pass, clone.auto_passes = self.auto_pass, self.auto_passes
        clone._refusals = list(self._refusals) if self._refusals is not None else None
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
                  library: Mapping[str, CardSpec] | None = None, auto_pass: bool | Iterable[str] = False) -> Duel:
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
        duel.auto_pass = _auto_pass_players(auto_pass)
        duel._history = [Action(a.name, a.player, a.choice) for a in document.history]
        duel._seq = document.seq
        duel.resolutions = list(document.resolutions)
        if document.trace is not None:
            duel._trace = list(document.trace)
            duel._records = [tuple(getattr(record, name) for name in _RECORD_FIELDS) for record in document.trace]
        duel._check_settled()
        if duel.auto_pass:
            duel._settle()  # a loaded duel may wait on a pass the duel now takes itself
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
        return (_unpickle, (self.to_json(trace=True), library, sorted(self.auto_pass), self.auto_passes))

    @classmethod
    def replay(cls, setup: Setup, history: Iterable[Action | str], *, rulebook: Rulebook | None = None,
               library: Mapping[str, CardSpec] | None = None) -> Duel:
        """The duel that ``setup`` and the actions of ``history`` lead to (each applied in turn;
        without auto-pass, so a history recorded with it replays too)."""
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
        self.game.card_scans = None
        self._option_cache = None

    # --- the engine -------------------------------------------------------------------

    def _options(self) -> list[_Option]:
        """Enabled player transitions for the player who must act, innermost frame first."""
        if self._option_cache is None:
            self._option_cache = self._find_options()
        return self._option_cache

    def _find_options(self) -> list[_Option]:
        game = self.game
        holder = priority_holder(game)
        if holder is None:
            return []
        role = Actor.turn_player if holder == game.turn_player else Actor.opponent
        options: list[_Option] = []
        handled: set[str] = set()
        if game.scans is None:
            game.scans = {}  # the state holds still while its options are enumerated
        if game.card_scans is None:
            game.card_scans = {}
        frames = game.frames
        runtime = self.rulebook.runtime
        for level in range(len(frames) - 1, -1, -1):
            frame = frames[level]
            candidates = runtime[frame.machine][frame.state].by_role[role]
            if not candidates:
                continue
            here: list[str] = []
            for transition in candidates:
                spec = transition.spec
                if spec.event in handled or not (transition.unguarded or transition.enabled(frame)):
                    continue
                chosen: list[Choice] | None = None
                if transition.chooser is not None:
                    chosen = transition.chooser(frame)
                    if not chosen:
                        continue
                if spec.event in here:
                    raise EngineError(
                        f"{self.state}: transitions for {spec.event!r} in {frame.machine}.{frame.state} are "
                        f"enabled together with no declared precedence")
                here.append(spec.event)
                if chosen is None:
                    options.append((holder, level, transition, None))
                else:
                    options.extend([(holder, level, transition, choice) for choice in chosen])
            handled.update(here)
        return options

    def _enter_children(self) -> None:
        """Push the machines run by the innermost state, recursively, at their initial states."""
        game = self.game
        frames = game.frames
        frame = frames[-1]
        invoked_as, parent = frame.state, frame.machine
        for child, initial in self.rulebook.runtime[parent][invoked_as].enters:
            frames.append(Frame(game, child, initial, invoked_as, parent))
            invoked_as, parent = initial, child

    def _take(self, level: int, transition: CompiledTransition, *, actor: str, auto: bool = False) -> None:
        game = self.game
        frames = game.frames
        frame = frames[level]
        spec = transition.spec
        game.narration = []
        game.scans = None  # the transition changes the game
        if transition.moves_cards:
            game.card_scans = None  # its callbacks may move cards
        transition.execute(frame)  # its guards were found to hold on this very state
        players = game.players
        if players["A"].lp <= 0 or players["B"].lp <= 0:
            game.check_lp()
        if len(frames) > level + 1:
            del frames[level + 1:]  # leaving the source state leaves the machines it ran
        # a duel decided by this transition ends where it leads (PR17 p.43)
        if not game.is_over and self.rulebook.runtime[frame.machine][frame.state].enters:
            self._enter_children()
        game.forget()
        self._option_cache = None
        self._seq = seq = self._seq + 1
        if game.resolved_now:
            for number, uid, negated in game.resolved_now:
                self.resolutions.append((seq, number, uid, negated))
            game.resolved_now = []
        a, b = players["A"], players["B"]
        narration = game.narration
        self._records.append((
            seq, game.turn, game.turn_player, frame.machine, spec.source, spec.dest, spec.event,
            spec.id, actor, priority_holder(game), self._chain_snapshot() if game.chain else (), spec.rule,
            ".".join([f.state for f in frames]), game.choice, tuple(narration) if narration else (), auto,
            (a.lp, b.lp), (a.hand, b.hand),
            # the players' views are worked out from this when the trace is read (:attr:`trace`)
            sight(game) if game.choice is not None or narration else (),
        ))

    def _chain_snapshot(self) -> tuple[dict[str, object], ...]:
        if not self.game.chain:
            return ()
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
        runtime = rulebook.runtime
        while not game.is_over:
            taken += 1
            if taken > limit:
                self._runaway(runaway, limit)
            if game.scans is None:
                game.scans = {}  # between transitions the state holds still
            if game.card_scans is None:
                game.card_scans = {}
            frame = frames[-1]
            here = runtime[frame.machine][frame.state]
            state = here.spec
            if state.terminal:
                game.end_duel(winner=None, reason=f"{frame.machine}.{frame.state}")
                return
            enabled = [t for t in here.engine if t.unguarded or t.enabled(frame)] if here.engine else []
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
                game.scans = {}  # one machine fewer: what the rules read may differ
                parent = frames[-1]
                done = [t for t in runtime[parent.machine][parent.state].done if t.unguarded or t.enabled(parent)]
                if len(done) != 1:
                    problem = "no" if not done else "more than one"
                    raise EngineError(f"{self.state}.{frame.state}: {problem} '{DONE_EVENT}' transition "
                                      f"enabled in {parent.machine}.{parent.state}")
                if taken > limit:
                    runaway.append(done[0])
                self._take(len(frames) - 1, done[0], actor="engine")
                continue
            options = self._options()
            if not options:
                raise EngineError(f"{self.state}: stuck — no legal action and no engine transition")
            if self.auto_pass and len(options) == 1:
                holder, level, transition, option = options[0]
                if option is None and transition.spec.event == PASS and holder in self.auto_pass:
                    self._history.append(_PASSES[holder])
                    game.actor = holder
                    try:
                        self._take(level, transition, actor=holder, auto=True)
                    finally:
                        game.actor = None
                    self.auto_passes += 1
                    taken, runaway = 0, []  # a player's action (taken for them): settling starts again
                    continue
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


def _unpickle(text: str, library: dict[str, CardSpec] | None, auto_pass: Iterable[str] = (),
              auto_passes: int = 0) -> Duel:
    duel = Duel.from_json(text, library=library, auto_pass=frozenset(auto_pass))
    duel.auto_passes = auto_passes
    return duel
