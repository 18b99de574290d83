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

from collections.abc import Iterable, Mapping
from typing import Any, ClassVar

from .actions import NUM_DISTINCT_ACTIONS, ActionEncodingError, as_integer, card_places, decode, encode
from .cards import CardSpec, default_library
from .duel_value import DuelValue
from .effects import activation_refusals, parse_key
from .engine import CompiledTransition, Rulebook, default_rulebook
from .errors import IllegalActionError, TraceFormatError
from .game import PLAYERS, Profile, Setup
from .placing import initial_game
from .refusals import why_not
from .runtime import PASS, SETTLE_ROUNDS, Action, Option, auto_pass_players, offered_action, settle_limit
from .state import Frame, GameState
from .trace import Refusal, Trace, TraceHeader, TraceRecord, actions, dumps, parse_trace
from .views import Hidden, Observation, hidden_among, hidden_from, key_uids, mask_key, mask_label, observe

__all__ = ["PASS", "SETTLE_ROUNDS", "Action", "Duel", "settle_limit"]
"""``Action``, ``PASS``, ``SETTLE_ROUNDS`` and ``settle_limit`` live in :mod:`ygo_fsm.runtime` and are
named here too, where the duel's users have always found them."""

_DEFAULT_SETUP = Setup()


def _action_index(value: object, method: str) -> int:
    """``value`` as an action index (:func:`~ygo_fsm.actions.as_integer`); anything else raises
    ``TypeError`` naming it."""
    index = as_integer(value)
    if index is None:
        raise TypeError(f"{method}() takes an action index (an int), not {type(value).__name__}: "
                        f"{_short(repr(value))}")
    return index


def _place_of(offered: tuple[Action, ...], action: Action) -> int:
    """Where ``action`` is among the actions ``offered``: the very object, else the first equal to it
    (an action made anew), else ``-1``."""
    for index, candidate in enumerate(offered):
        if candidate is action:
            return index
    try:
        return offered.index(action)
    except ValueError:
        return -1


def _short(text: str, length: int = 60) -> str:
    return text if len(text) <= length else text[:length - 1] + "…"


class Duel(DuelValue):
    """A duel in progress: the runtime around one :class:`~ygo_fsm.state.GameState`.

    With ``auto_pass=True`` (or a set of players, ``auto_pass={"B"}``) the duel passes for a
    player whose only legal action is ``pass``, as soon as that player would be asked: the
    pass is in the history and in the trace like any other (its record's ``auto_pass`` is
    true), so a narrated trace differs from a manual one only by that flag. Off by default:
    stepping through a ruling shows every pass.

    With ``trace=False`` the duel keeps no trace record (an agent playing many duels reads
    none): it plays exactly as with one, and keeps its history, so ``Duel.replay(duel.setup,
    duel.history)`` gives the same duel with its trace. Reading the trace of such a duel raises
    :class:`~ygo_fsm.errors.TraceNotKeptError`.

    Create it from a :class:`~ygo_fsm.game.Setup` (or keyword overrides of the default
    setup: ``Duel(profile="ocg2008")``). The machines come from a shared
    :class:`~ygo_fsm.engine.Rulebook`; creating a duel builds none. The duel keeps its
    ``setup``, the ``history`` of actions and the ``trace``; everything else is its ``game``.
    """

    __slots__ = ()

    def __init__(self, setup: Setup | None = None, *, rulebook: Rulebook | None = None,
                 library: Mapping[str, CardSpec] | None = None, auto_pass: bool | Iterable[str] = False,
                 record_refusals: bool = False, trace: bool = True, **overrides: object) -> None:
        for option, value in (("trace", trace), ("record_refusals", record_refusals)):
            if not isinstance(value, bool):  # Duel(trace="no") would keep a trace
                raise TypeError(f"{option} is True or False, not {type(value).__name__}: {_short(repr(value))}")
        self.auto_pass = auto_pass_players(auto_pass)
        if setup is None:
            setup = Setup.model_validate(overrides) if overrides else _DEFAULT_SETUP
        elif overrides:
            raise TypeError("give a Setup or keyword overrides, not both")
        self.rulebook = rulebook or default_rulebook()
        self.setup = setup
        game = self.game = self.initial_game(setup, rulebook=self.rulebook, library=library)
        self._start_runtime(keeps_trace=trace)
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
        self._rows_start_here()
        self._settle()

    @classmethod
    def new_game(cls, deck_a: list[str], deck_b: list[str], *, seed: int, profile: Profile | str = "modern",
                 rulebook: Rulebook | None = None, library: dict[str, CardSpec] | None = None,
                 **options: Any) -> Duel:
        """A duel from two decks and a seed (:meth:`Setup.from_decks <ygo_fsm.game.Setup.from_decks>`);
        ``options`` are the duel's own (``auto_pass``, ``trace``)."""
        return cls(Setup.from_decks(deck_a, deck_b, seed=seed, profile=profile), rulebook=rulebook,
                   library=library, **options)

    @staticmethod
    def initial_game(setup: Setup, *, rulebook: Rulebook | None = None,
                     library: Mapping[str, CardSpec] | None = None) -> GameState:
        """The game data ``setup`` describes, before any machine runs (no frames yet;
        :func:`ygo_fsm.placing.initial_game`).

        Raises ``ValueError`` naming the placement when a card cannot be where the setup puts it.
        """
        return initial_game(setup, rulebook=rulebook, library=library)

    def legal_actions(self, *, judge: bool = False) -> list[Action]:
        """The actions the player who must act may take now (none once the duel is over).

        Their option keys and labels say only what that player may know: a card hidden from
        them (the opponent's Set card, a face-down attack target) is named by its place,
        ``B.spell_trap.1``, never by its uid or name (:mod:`ygo_fsm.views`). ``judge=True``
        gives the judge's keys and labels instead (uids and names of every card); :meth:`apply`
        accepts both.
        """
        options = self._option_cache  # (DuelRuntime._options, read where it is asked most)
        if options is None:
            options = self._option_cache = self._find_options()
        if judge:
            return [offered_action(t.event_name, player, c.key if c else None, c.label if c else "")
                    for player, _, t, c in options]
        cached = self._view_cache
        if cached is not None and cached[0] is options:
            return list(cached[1])
        if len(options) == 1 and options[0][3] is None:  # one action naming no card: most often a forced pass
            player, _, transition, _ = options[0]
            action = transition.bare_actions.get(player)
            if action is None:
                action = transition.bare_actions[player] = offered_action(transition.event_name, player)
            self._view_cache = (options, (action,))
            return [action]
        turn_player = bool(options) and options[0][0] == self.game.turn_player
        for _, _, transition, option in options:
            if option is not None and not (turn_player and transition.names_known_cards):
                hidden = self._hidden_in_options(options)
                break
        else:  # no option names a card, or each only the turn player's own hand and field (registry.KNOWN_TO_ACTOR)
            hidden = {}
        if not hidden:  # no option names a card hidden from the player: the judge's keys and labels
            actions = [offered_action(t.event_name, player, c.key if c else None, c.label if c else "")
                       for player, _, t, c in options]
            self._view_cache = (options, tuple(actions))
            return actions
        actions = []
        for player, _, transition, option in options:
            if option is None:
                actions.append(offered_action(transition.event_name, player))
                continue
            key = mask_key(option.key, hidden)
            label = option.label if key == option.key else mask_label(option.label, option.key, hidden)
            actions.append(offered_action(transition.event_name, player, key, label))
        self._view_cache = (options, tuple(actions))
        return actions

    def _hidden_in_options(self, options: list[Option], viewer: str | None = None) -> dict[str, Hidden]:
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
        """The indices of :meth:`legal_actions`, in the same order (worked out once per state)."""
        options = self._options()
        cached = self._index_cache
        if cached is not None and cached[0] is options:
            return list(cached[1])
        game = self.game
        places = card_places(game) if any(c is not None for _, _, _, c in options) else None
        indices = [encode(game, player, t.event_name, c.key if c else None, places) for player, _, t, c in options]
        self._index_cache = (options, tuple(indices))
        return indices

    def legal_action_mask(self) -> list[bool]:
        """``num_distinct_actions`` flags: true at the index of each legal action."""
        mask = [False] * NUM_DISTINCT_ACTIONS
        for index in self.legal_action_indices():
            mask[index] = True
        return mask

    def action_to_string(self, index: int) -> str:
        """The text of the action ``index`` names for the player who must act, as they are shown it
        in :meth:`legal_actions` (a card hidden from them named by its place; :meth:`apply` reads it)."""
        index = _action_index(index, "action_to_string")
        player = self._acting_player()
        name, choice = decode(self.game, player, index)
        if choice is None:
            return name
        return f"{name} {mask_key(choice, hidden_from(self.game, player))}"

    def string_to_action(self, text: str) -> int:
        """The index of the action ``text`` names for the player who must act (the judge's option
        key or the one they are shown; the option may be left out when the action has only one)."""
        if not isinstance(text, str):
            raise TypeError(f"string_to_action() takes an action's text (a str), not {type(text).__name__}: "
                            f"{_short(repr(text))}")
        name, choice = Action.parse(text)
        options = self._options()
        if choice is not None and not any(o is not None and o.key == choice for _, _, _, o in options):
            hidden = self._hidden_in_options(options, self._acting_player())
            choice = next((o.key for _, _, _, o in options if o is not None and mask_key(o.key, hidden) == choice),
                          choice)
        if choice is None:
            keys = [c.key for _, _, t, c in options if t.event_name == name and c is not None]
            if len(keys) == 1:
                choice = keys[0]
        return encode(self.game, self._acting_player(), name, choice)

    def apply_index(self, index: int) -> None:
        """Take the action ``index`` names (see :meth:`apply`; an index naming no legal action raises
        :class:`~ygo_fsm.errors.IllegalActionError` and changes nothing; one that is not an integer, a
        ``TypeError`` naming it)."""
        index = _action_index(index, "apply_index")
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
        if isinstance(action, Action):
            options = self._option_cache  # (DuelRuntime._options)
            if options is None:
                options = self._option_cache = self._find_options()
            cached = self._view_cache
            if cached is not None and cached[0] is options:
                offered = cached[1]  # the very one offered is found without calling Action.__eq__ on the others
                index = 0 if offered and offered[0] is action else _place_of(offered, action)
                if index >= 0:  # one of the actions just offered: the option at its place
                    holder, level, transition, option = options[index]
                    if option is None:  # the action offered is the one the history keeps
                        self._take_action(holder, level, transition, None, cached[1][index])
                    else:
                        self._take_action(holder, level, transition, option.key)
                    return
            name, player, choice = action.name, action.player, action.choice
        elif isinstance(action, str):
            (name, choice), player = Action.parse(action), None
            options = self._options()
        else:
            raise TypeError(f"apply() takes an Action or its text (a str), not {type(action).__name__}: "
                            f"{_short(repr(action))}")
        self._apply_named(name, player, choice, options)

    def _apply_named(self, name: str, player: str | None, choice: str | None, options: list[Option]) -> None:
        """:meth:`apply` for an action that is not one of those just offered as they were offered: found
        by its name and option (or refused), as :meth:`apply` says."""
        if choice is not None and options and not any(o is not None and o.key == choice for _, _, _, o in options):
            hidden = self._hidden_in_options(options)  # the option named by a hidden card's place
            choice = next((o.key for _, _, _, o in options if o is not None and mask_key(o.key, hidden) == choice),
                          choice)
        if choice is None:  # an action with a single option may be named without it
            only = [o for _, _, t, o in options if t.event_name == name and o is not None]
            if len(only) == 1 and all(o is not None for _, _, t, o in options if t.event_name == name):
                choice = only[0].key
        for holder, level, transition, option in options:
            if (transition.event_name == name and (player is None or player == holder)
                    and (option.key if option else None) == choice):
                self._take_action(holder, level, transition, choice)
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

    def _take_action(self, holder: str, level: int, transition: CompiledTransition, choice: str | None,
                     action: Action | None = None) -> None:
        """Take a player's transition with the option ``choice`` (its key), then settle; ``action`` is the
        action the history keeps of it when the caller has it already."""
        self._history.append(offered_action(transition.event_name, holder, choice) if action is None else action)
        game = self.game
        game.choice, game.actor = choice, holder
        self._context = None  # the game may have been changed from outside since the last row
        try:
            self._take(level, transition, holder)
        finally:
            game.choice = game.actor = None
        self._settle()

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

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled as its JSON document (trace included) and its cards when they are not the
        built-in library; it is unpickled on the shipped machines (:func:`default_rulebook`)."""
        library = None if self.game.library is default_library() else dict(self.game.library)
        return (_unpickle, (self.to_json(trace=self.keeps_trace), library, sorted(self.auto_pass), self.auto_passes,
                            self.keeps_trace))

    @classmethod
    def replay(cls, setup: Setup, history: Iterable[Action | str], *, rulebook: Rulebook | None = None,
               library: Mapping[str, CardSpec] | None = None) -> Duel:
        """The duel that ``setup`` and the actions of ``history`` lead to (each applied in turn;
        without auto-pass, so a history recorded with it replays too)."""
        duel = cls(setup, rulebook=rulebook, library=library)
        for action in history:
            duel.apply(action)
        return duel

    def __repr__(self) -> str:
        status = f"over, winner {self.winner}" if self.is_over else f"priority {self.priority}"
        return f"<Duel turn {self.turn} ({self.turn_player}) {self.state} {status}>"


def _unpickle(text: str, library: dict[str, CardSpec] | None, auto_pass: Iterable[str] = (),
              auto_passes: int = 0, keeps_trace: bool = True) -> Duel:
    duel = Duel.from_json(text, library=library, auto_pass=frozenset(auto_pass), trace=keeps_trace)
    duel.auto_passes = auto_passes
    return duel
