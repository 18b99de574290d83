"""Scenarios: YAML files that play a duel step by step and check it against the rules.

A scenario is a worked example turned into a test: where the duel starts, what the players
do, and what must hold along the way. ``ygo-fsm run FILE...`` plays them; the library entry
points are :func:`load_scenario` and :func:`run_scenario`. This docstring is the reference
for the format (version 3: cards, chains and battle); ``ygo-fsm schema scenario`` prints its
JSON Schema.

The format
==========
::

    name: Modern first turn has no draw and no Battle Phase     # required
    rule: 004 ●先攻第1回合游戏玩家的抽卡階段不能通常抽卡          # required: the clause it checks
    description: free text                                      # optional
    cards:                     # the scenario's own cards (library format); optional
      - {id: my_vanilla, name_ja: 通常モンスター, name_zh: 通常怪兽, type: monster, atk: 1500, level: 4}
    setup:                     # where the duel starts (a ygo_fsm.game.Setup); all optional
      profile: modern          # modern (004) | ocg2008 (000/001/002/003)
      turn: 1                  # turn number
      turn_player: A           # A | B
      phase: turn_start        # a state of the turn machine: turn_start, draw_phase, … end_phase
      players:                 # per player; unnamed fields keep their defaults
        A: {lp: 8000, hand: 5, deck: 35, hand_limit: hieroglyph_tablet, monsters: [{name: X, atk: 1000}]}
        B:
          hand: 1              # hand, deck, graveyard: cards no action names
          cards:               # library cards (ygo_fsm/data/cards.yaml), each named by its uid
            - {card: jougen, zone: monster}                      # default uid: the card id
            - {card: last_battle, zone: spell_trap}              # Set before this turn
            - {card: my_body_as_a_shield, zone: spell_trap, set_turn: 3}   # Set this turn
            - {card: apophis_avatar, zone: monster, position: defence, face_up: false, uid: face_down}
            - {card: dol_dora, zone: graveyard, destroyed_this_turn: true}
      effects: [skip_draw_phase]           # turn effects applying to the starting turn
      effects_on_turn: {2: [skip_turn]}    # turn effects applying to later turns
    steps:                     # required, at least one; run in order
      - do: pass                           # an action, or a list of actions taken in order
        by: A                              # optional: who takes it (must be the one who acts)
      - do: [pass, pass, pass]
      - do: activate last_battle>jougen    # an action with its option: which effect (uid, uid#2 for a
                                           # card's second effect) and, after '>', its target
      - do: [respond my_body_as_a_shield, pass, pass]   # chain responses; both pass: 逆算
      - do: [declare_attack sapphire_dragon, choose_target direct]
      - expect:                            # every field is optional; all given must hold
          state: main_phase_1.open         # the state path is this one or inside it
          priority: A                      # who must act (null: nobody; the duel is over)
          turn: 1
          turn_player: A
          lp: {B: 8000}
          hand: {A: 5}
          deck: {A: 35}
          graveyard: {A: 0}
          winner: B                        # A | B | draw (the duel is over with that result)
          over: false                      # whether the duel is over
          legal: [pass]                    # these actions must be offered now
          not_legal: [enter_battle_phase]  # these must not be offered now
          taken: [first_turn_no_draw]      # transitions taken since the previous expect step
          not_taken: [card_drawn]          # transitions not taken since the previous expect step
          chain: [{card: last_battle, by: B}]   # now, CHAIN1 first (card uids)
          resolved: [{card: my_body_as_a_shield, negated: true}, last_battle]
                                           # links resolved since the previous expect step, in order
          cards: {jougen: graveyard}       # zones of named cards (hand, monster, spell_trap, graveyard …)
          monsters: {A: 1, B: 0}           # monsters each player controls
          positions: {face_down: face_down_defence}   # attack | defence | face_down_defence
          atk: {jougen: 200}               # ATK / DEF of named monsters on the field
          def: {jougen: 1300}
          attack: {attacker: a_monster_1, target: face_down, outcome: fought,
                   replayed: false, battle_damage: {A: 300}, destroyed: []}
                                           # the attack in progress, or else the last one
                                           # (outcome: in_progress | cancelled | stopped | fought | no_battle)
          attacked: [a_monster_1]          # monsters that declared an attack this turn
                                           # (players.X.monsters are a_monster_1, a_monster_2 …)
      - refuse: enter_battle_phase         # this action must be refused (and leave the duel as it was)
        by: B                              # optional: refused to that player
        reason: B does not hold priority   # optional: text the refusal must contain
      - pass_until: main_phase_2           # pass (only pass) until the state path is inside this state

Every step may also carry ``note:`` (free text). The value of ``setup.players.*.hand_limit``
is one of ``hieroglyph_tablet`` (limit 7), ``mist_of_weakness`` (5) or ``infinite_cards``
(no limit); the turn effects are the values of :class:`~ygo_fsm.game.TurnEffect`
(``skip_turn``, ``skip_draw_phase``, ``draw_replaced``, ``skip_standby_phase``,
``skip_main_phase_1``, ``skip_battle_phase``, ``cannot_enter_battle_phase``,
``cannot_attack``).

Cards come from the built-in library (``ygo_fsm/data/cards.yaml``), the files given with
``ygo-fsm run --cards FILE``, the scenario's ``library: [file.yaml, …]`` (card files in the
library format, relative to the scenario file) and its ``cards:``, in that order; a card id
given twice (a scenario card named like a built-in one included) makes the file invalid
rather than silently replacing a card. Every card is checked semantically
(:func:`ygo_fsm.cards.card_problems`); the vocabulary is ``docs/effects.md``.

Semantics
=========
* ``do`` applies each action with :meth:`Duel.apply <ygo_fsm.duel.Duel.apply>`. Without
  ``by`` the action is taken by the player who must act; with ``by`` that player must be
  the one who acts (for every action of a list). An action the duel refuses is an
  **error**: the scenario expected it to be legal.
* ``expect`` checks every field given, against the duel as it is now; a mismatch is a
  **failure** naming the step and each field, expected against found. ``taken`` and
  ``not_taken`` look at the trace since the previous ``expect`` step (or the start of the
  duel, including the transitions the engine took while creating it); a transition is
  named by its id in the machine file (``first_turn_no_draw``) or as ``machine.id``.
* ``refuse`` is a failure when the action is offered; otherwise the duel must raise
  :class:`~ygo_fsm.errors.IllegalActionError` and stay exactly as it was.
* ``legal``, ``not_legal`` and ``refuse`` name offered actions: a bare name (``activate``)
  names every option of the action; a name with an option names that option and every
  option extending it on the same card (``activate x`` names ``activate x``,
  ``activate x>target`` and ``activate x#2>target``), so an item never misses an option only
  because it left out the target.
* ``pass_until`` takes ``pass`` while the state path is not inside the given state. Already
  inside it, it does nothing. It is a failure when a player who must act is not offered
  ``pass`` (a choice is needed: use ``do``), when the duel ends first, or when the state is
  not reached within :data:`PASS_LIMIT` passes.

Every action name (``do``, ``refuse``, ``legal``, ``not_legal``) must be a player event
declared in the machines, every transition
(``taken``, ``not_taken``) a declared transition, and every state (``expect.state``,
``pass_until``) a state path from the ``turn`` machine down (``battle_phase.end_step``);
``setup.phase`` must be a state of the ``turn`` machine. Otherwise — as for malformed YAML
(a key given twice in one mapping included) or a field the format does not know — loading raises
:class:`~ygo_fsm.errors.ScenarioError` with one line naming the file and the item, e.g.
``tests/scenarios/x.yaml: steps[3].expect.lp.C (key): Input should be 'A' or 'B'``.
Steps are numbered from 0.

Limits
======
No real scenario comes near them; they keep any file from making the reader or the engine
loop or allocate without bound. The file: at most 1 MiB of UTF-8 YAML, nested at most 50
deep, integers of at most 18 digits, no duplicate or non-scalar keys, few aliases
(:mod:`ygo_fsm.yamlio`). The scenario: at most :data:`MAX_STEPS` (2000) steps and
:data:`MAX_STEP_ACTIONS` (200) actions per ``do``. The setup (:mod:`ygo_fsm.game`): LP at most
1,000,000; hand, deck and graveyard at most 100 cards each; at most 12 library cards per
player; turn numbers (``turn``, ``set_turn``, ``effects_on_turn``) at most 1000; ATK/DEF at
most 1,000,000; at most 20 turn effects per turn.

Outcomes and exit codes
=======================
:func:`run_scenario` stops at the first step that does not hold and returns a
:class:`ScenarioResult`: ``passed`` (exit code 0), ``failed`` — an expectation did not hold
(1) — or ``error`` — an action the scenario expected to be legal was refused, or the engine
could not go on (2). Its ``message`` names the file, the step and the item; ``trace_tail``
holds the last lines of the narrated trace; ``trace`` the whole trace.

>>> scenario = parse_scenario('''
... name: first turn
... rule: 004 ●先攻第1回合游戏玩家不能进行战斗阶段
... steps:
...   - pass_until: end_phase
...   - expect: {turn: 1, hand: {A: 5}, not_legal: [enter_battle_phase]}
... ''', source="example.yaml")
>>> run_scenario(scenario).outcome
<Outcome.passed: 'passed'>
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import Enum
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import (
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Discriminator,
    Field,
    PrivateAttr,
    Tag,
    ValidationError,
    WithJsonSchema,
)

from .cards import CardSpec, default_library, merge, parse_cards, read_card_file
from .duel import Action, Duel
from .engine import Rulebook, default_rulebook
from .errors import EngineError, IllegalActionError, ScenarioError
from .game import Setup, Zone, monster_uid, placement_uids
from .loader import CITATION
from .trace import TraceRecord, narrate
from .yamlio import YamlInputError, parse_yaml, read_text

__all__ = [
    "MAX_STEPS",
    "MAX_STEP_ACTIONS",
    "PASS_LIMIT",
    "DoStep",
    "ExpectStep",
    "Expectation",
    "Outcome",
    "PassUntilStep",
    "RefuseStep",
    "Scenario",
    "ScenarioResult",
    "Step",
    "load_scenario",
    "parse_scenario",
    "run_file",
    "run_scenario",
    "scenario_json_schema",
]

SCENARIO_CITATION = rf"({CITATION.pattern}|^official: \S)"
"""A scenario's ``rule:``: a seed citation, or ``official: <source>``."""

PASS_LIMIT = 500
"""How many passes ``pass_until`` takes at most before it gives up."""

MAX_STEPS = 2000
"""The most steps a scenario may have (the longest shipped one has 41)."""
MAX_STEP_ACTIONS = 200
"""The most actions one ``do`` step may list."""

TRACE_TAIL_LINES = 8
"""How many lines of the narrated trace a result's ``trace_tail`` keeps."""

Player = Literal["A", "B"]
_NAME = r"^[a-z][a-z0-9_]*( [a-z][a-z0-9_]*(#[0-9]+)?(>[a-z][a-z0-9_]*)?(\+[a-z][a-z0-9_]*)*)?$"
ActionName = Annotated[str, Field(pattern=_NAME)]
"""An action: its name, optionally followed by the option chosen (``activate cyclone>apophis_avatar``)."""
TransitionName = Annotated[str, Field(pattern=r"^([a-z][a-z0-9_]*\.)?[a-z][a-z0-9_]*$")]
StatePath = Annotated[str, Field(pattern=r"^[a-z][a-z0-9_]*(\.[a-z][a-z0-9_]*)*$")]


def _one_or_many(value: object) -> object:
    if isinstance(value, str):
        return [value]
    if not isinstance(value, list):
        raise ValueError("expected an action name or a list of action names")
    return value


ActionList = Annotated[
    list[ActionName],
    BeforeValidator(_one_or_many),
    Field(min_length=1, max_length=MAX_STEP_ACTIONS),
    WithJsonSchema({
        "anyOf": [
            {"type": "string", "pattern": _NAME},
            {"type": "array", "items": {"type": "string", "pattern": _NAME}, "minItems": 1,
             "maxItems": MAX_STEP_ACTIONS},
        ],
        "description": "An action (name, optionally followed by the chosen option, e.g. "
                       "'activate last_battle>jougen'), or a list of actions taken in order.",
    }),
]


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid")


class ChainLinkExpectation(_Model):
    """One expected chain link."""

    card: str
    """The uid of the card whose effect the link is."""
    by: Player | None = None
    """The player who activated it."""
    negated: bool | None = None


class ResolvedExpectation(_Model):
    """One expected resolution."""

    card: str
    negated: bool | None = None


class AttackExpectation(_Model):
    """The attack in progress, or else the last one that ended."""

    attacker: str | None = None
    target: str | None = None
    """The target's uid, or ``direct``."""
    outcome: Literal["in_progress", "cancelled", "stopped", "fought", "no_battle"] | None = None
    replayed: bool | None = None
    battle_damage: dict[Player, int] | None = None
    """Battle damage each player took in it (players not named took none)."""
    destroyed: list[str] | None = None
    """Monsters destroyed by the battle (uids)."""


class Expectation(_Model):
    """What must hold now; every field given is checked."""

    state: StatePath | None = None
    """The current state path is this one or inside it (``Duel.in_state``)."""
    priority: Player | None = None
    """The player who must act; ``null`` when nobody does (the duel is over)."""
    turn: int | None = Field(default=None, ge=1)
    turn_player: Player | None = None
    lp: dict[Player, int] = Field(default_factory=dict)
    hand: dict[Player, int] = Field(default_factory=dict)
    deck: dict[Player, int] = Field(default_factory=dict)
    graveyard: dict[Player, int] = Field(default_factory=dict)
    winner: Literal["A", "B", "draw"] | None = None
    """The duel is over and this player won (``draw``: over with no winner)."""
    over: bool | None = None
    legal: list[ActionName] = Field(default_factory=list)
    """Actions that must be offered now."""
    not_legal: list[ActionName] = Field(default_factory=list)
    """Actions that must not be offered now."""
    chain: list[ChainLinkExpectation] | None = None
    """The chain now, CHAIN1 first (``[]``: no chain)."""
    resolved: list[str | ResolvedExpectation] | None = None
    """The links resolved since the previous ``expect`` step, in resolution order (card uid,
    or ``{card: uid, negated: true}``)."""
    cards: dict[str, Zone] = Field(default_factory=dict)
    """Where named cards are now: ``{killer_snake: hand}``."""
    monsters: dict[Player, int] = Field(default_factory=dict)
    """How many monsters each player controls."""
    positions: dict[str, Literal["attack", "defence", "face_down_defence"]] = Field(default_factory=dict)
    """Battle positions of named monsters: ``{sapphire_dragon: defence}``."""
    atk: dict[str, int] = Field(default_factory=dict)
    """ATK of named monsters on the field: ``{sapphire_dragon: 1900}``."""
    defence: dict[str, int] = Field(default_factory=dict, alias="def")
    """DEF of named monsters on the field."""
    attack: AttackExpectation | None = None
    """The attack in progress, or the last one that ended."""
    attacked: list[str] | None = None
    """The monsters that have declared an attack this turn (uids)."""
    taken: list[TransitionName] = Field(default_factory=list)
    """Transitions (``id`` or ``machine.id``) that must have been taken since the previous
    ``expect`` step (or the start)."""
    not_taken: list[TransitionName] = Field(default_factory=list)
    """Transitions that must not have been taken since the previous ``expect`` step."""


class DoStep(_Model):
    """Take one action, or several in order."""

    do: ActionList
    by: Player | None = None
    """Who takes the action(s); must be the player who acts."""
    note: str = ""


class ExpectStep(_Model):
    """Check the duel."""

    expect: Expectation
    note: str = ""


class RefuseStep(_Model):
    """An action that must be refused."""

    refuse: ActionName
    by: Player | None = None
    """The player it is refused to (default: the player who acts)."""
    reason: str | None = Field(default=None, min_length=1)
    """Text the refusal (the IllegalActionError message) must contain."""
    note: str = ""


class PassUntilStep(_Model):
    """Pass until the state path is inside the given state."""

    pass_until: StatePath
    note: str = ""


STEP_KINDS: tuple[str, ...] = ("do", "expect", "refuse", "pass_until")


def _step_kind(value: Any) -> str | None:
    if isinstance(value, BaseModel):
        return next((kind for kind in STEP_KINDS if kind in type(value).model_fields), None)
    if not isinstance(value, dict):
        return None
    kinds = [kind for kind in STEP_KINDS if kind in value]
    return kinds[0] if len(kinds) == 1 else None


Step = Annotated[
    Annotated[DoStep, Tag("do")]
    | Annotated[ExpectStep, Tag("expect")]
    | Annotated[RefuseStep, Tag("refuse")]
    | Annotated[PassUntilStep, Tag("pass_until")],
    Discriminator(
        _step_kind,
        custom_error_type="step_kind",
        custom_error_message="a step is a mapping with exactly one of: do, expect, refuse, pass_until",
    ),
]


class Scenario(_Model):
    """A scenario file (format version 3)."""

    name: str = Field(min_length=1)
    rule: str = Field(pattern=SCENARIO_CITATION)
    """The clause the scenario checks: seed file and clause marker, e.g. ``004 ●先攻…``, or for a
    rule no seed states, ``official: `` and the official source (modern profile)."""
    description: str = ""
    library: list[str] = Field(default_factory=list)
    """Card files (the library format) whose cards the scenario uses, relative to the scenario file."""
    cards: list[CardSpec] = Field(default_factory=list)
    """Cards of the scenario's own (the library format). Neither these nor a ``library:`` file's
    may reuse a built-in card's id: a clash is an invalid file."""
    setup: Setup = Field(default_factory=Setup)
    steps: list[Step] = Field(min_length=1, max_length=MAX_STEPS)

    _file: str = PrivateAttr(default="<scenario>")
    _cards: dict[str, CardSpec] | None = PrivateAttr(default=None)

    @property
    def file(self) -> str:
        """The file the scenario was read from."""
        return self._file

    @property
    def card_library(self) -> dict[str, CardSpec] | None:
        """The built-in library with the scenario's own cards (``None``: the built-in one)."""
        return self._cards


def scenario_json_schema() -> dict[str, Any]:
    """The JSON Schema of a scenario file."""
    schema = Scenario.model_json_schema()
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "ygo-fsm scenario (version 3)",
        "description": "A duel's setup and the steps that play and check it; see ygo_fsm.scenario.",
        **{key: value for key, value in schema.items() if key not in ("title", "description")},
    }


# --- loading ------------------------------------------------------------------------


def _location(loc: Sequence[int | str]) -> str:
    """``('steps', 3, 'expect', 'expect', 'lp', 'C')`` → ``steps[3].expect.lp.C``."""
    parts = list(loc)
    text = ""
    for index, part in enumerate(parts):
        if index == 2 and parts[0] == "steps" and isinstance(parts[1], int) and part in STEP_KINDS:
            continue  # the tag of the step's kind, which pydantic puts before the field
        if part == "[key]":
            text += " (key)"
        elif isinstance(part, int):
            text += f"[{part}]"
        else:
            text += f".{part}" if text else str(part)
    return text or "(file)"


def _schema_error(source: str, error: ValidationError) -> ScenarioError:
    errors = error.errors()
    first = errors[0]
    more = f" (and {len(errors) - 1} more problem{'s' if len(errors) > 2 else ''})" if len(errors) > 1 else ""
    message = first["msg"].removeprefix("Value error, ")
    if first["type"] == "missing":
        message = "required field is missing"
    elif first["type"] == "extra_forbidden":
        message = "unknown field"
    return ScenarioError(f"{source}: {_location(first['loc'])}: {message}{more}")


def player_actions(rulebook: Rulebook) -> list[str]:
    """Every action name a player can take in ``rulebook``'s machines, sorted."""
    return sorted({t.event for spec in rulebook.specs.values() for t in spec.transitions if t.is_player_action})


def _check_names(scenario: Scenario, rulebook: Rulebook, source: str) -> None:
    """The domain layer: actions and states must exist in the machines."""
    actions = set(player_actions(rulebook))
    transitions = {t.id for spec in rulebook.specs.values() for t in spec.transitions}
    transitions |= {f"{spec.id}.{t.id}" for spec in rulebook.specs.values() for t in spec.transitions}

    def action(item: str, text: str) -> None:
        name = text.split(" ", 1)[0]
        if name not in actions:
            raise ScenarioError(f"{source}: {item}: unknown action {name!r}; actions: {', '.join(sorted(actions))}")

    def state(item: str, path: str) -> None:
        try:
            rulebook.resolve_path(path)
        except KeyError:
            raise ScenarioError(f"{source}: {item}: unknown state path {path!r}; a path starts with a state "
                                f"of the turn machine: {', '.join(rulebook.specs['turn'].state_ids())}") from None

    try:
        uids = set(placement_uids(scenario.setup).values())
    except ValueError as exc:
        raise ScenarioError(f"{source}: setup.{exc}") from None
    uids |= {monster_uid(p, i) for p in scenario.setup.players for i in range(len(scenario.setup.players[p].monsters))}

    def card(item: str, uid: str) -> None:
        if uid not in uids:
            raise ScenarioError(f"{source}: {item}: unknown card {uid!r}; the setup names: {', '.join(sorted(uids))}")

    turn_states = rulebook.specs["turn"].state_ids()
    if scenario.setup.phase not in turn_states:
        raise ScenarioError(f"{source}: setup.phase: unknown phase {scenario.setup.phase!r}; "
                            f"states of the turn machine: {', '.join(turn_states)}")
    for index, step in enumerate(scenario.steps):
        where = f"steps[{index}]"
        if isinstance(step, DoStep):
            for number, name in enumerate(step.do):
                action(f"{where}.do" if len(step.do) == 1 else f"{where}.do[{number}]", name)
        elif isinstance(step, RefuseStep):
            action(f"{where}.refuse", step.refuse)
        elif isinstance(step, PassUntilStep):
            state(f"{where}.pass_until", step.pass_until)
        else:
            expect = step.expect
            if expect.state is not None:
                state(f"{where}.expect.state", expect.state)
            for key in ("legal", "not_legal"):
                for number, name in enumerate(getattr(expect, key)):
                    action(f"{where}.expect.{key}[{number}]", name)
            for uid in (*expect.cards, *expect.positions, *expect.atk, *expect.defence, *(expect.attacked or ())):
                card(f"{where}.expect", uid)
            for link in expect.chain or ():
                card(f"{where}.expect.chain", link.card)
            for resolved in expect.resolved or ():
                card(f"{where}.expect.resolved", resolved if isinstance(resolved, str) else resolved.card)
            if expect.attack is not None:
                for uid in (expect.attack.attacker, expect.attack.target, *(expect.attack.destroyed or ())):
                    if uid is not None and uid != "direct":
                        card(f"{where}.expect.attack", uid)
            for key in ("taken", "not_taken"):
                for number, name in enumerate(getattr(expect, key)):
                    if name not in transitions:
                        raise ScenarioError(f"{source}: {where}.expect.{key}[{number}]: unknown transition {name!r}; "
                                            "give a transition id from machines/*.yaml (or machine.id)")


def parse_scenario(text: str, *, source: str = "<scenario>", rulebook: Rulebook | None = None,
                   library: Mapping[str, CardSpec] | None = None) -> Scenario:
    """Parse scenario YAML text; ``source`` names it in errors (and locates its ``library:``
    files). ``library``: more cards to play with (``ygo-fsm run --cards``). Raises
    :class:`ScenarioError`."""
    try:
        raw = parse_yaml(text, source=source)
    except YamlInputError as exc:
        raise ScenarioError(str(exc)) from exc
    if not isinstance(raw, dict):
        raise ScenarioError(f"{source}: (file): expected a mapping with name, rule, setup and steps")
    try:
        scenario = Scenario.model_validate(raw)
    except ValidationError as exc:
        raise _schema_error(source, exc) from exc
    scenario._cards = scenario_library(scenario, raw, source, extra=library)
    _check_placements(scenario, source)
    _check_names(scenario, rulebook or default_rulebook(), source)
    scenario._file = source
    return scenario


def scenario_library(scenario: Scenario, raw: dict[str, Any], source: str,
                     extra: Mapping[str, CardSpec] | None = None) -> dict[str, CardSpec] | None:
    """The library a scenario plays with: the built-in cards, ``extra`` (cards given on the
    command line), the cards of its ``library:`` files (relative to ``source``), then its own
    ``cards:``. A card id given twice — a scenario card reusing a built-in id included — is an
    error naming the file and the card; so is any card that fails the semantic checks."""
    if not scenario.library and not scenario.cards and extra is None:
        return None
    base = Path(source).parent
    layers: list[tuple[str, Mapping[str, CardSpec]]] = [("the built-in library", default_library())]
    if extra is not None:
        layers.append(("--cards", extra))
    for number, name in enumerate(scenario.library):
        found, problems = read_card_file(base / name)
        if problems:
            raise ScenarioError(f"{source}: library[{number}]: {problems[0]}")
        layers.append((name, found))
    if scenario.cards:
        own, problems = parse_cards(raw.get("cards"), source=f"{source}: cards")
        if problems:
            raise ScenarioError(problems[0])
        layers.append(("cards", own))
    merged: dict[str, CardSpec] = {}
    origin: dict[str, str] = {}
    for where, cards in layers:
        for card_id, card in cards.items():
            if card_id in merged and merged[card_id] != card:
                raise ScenarioError(f"{source}: {where}: card {card_id}: the id is already used by {origin[card_id]} "
                                    "(a scenario's cards may not shadow another card: give it its own id)")
            merged[card_id] = card
            origin.setdefault(card_id, where)
    return merge(merged)


def _check_placements(scenario: Scenario, source: str) -> None:
    """Every card the setup places is in the scenario's library."""
    library = scenario.card_library or default_library()
    for player, setup in scenario.setup.players.items():
        for index, placement in enumerate(setup.cards):
            if placement.card not in library:
                raise ScenarioError(f"{source}: setup.players.{player}.cards[{index}].card: unknown card "
                                    f"{placement.card!r}; give it in cards: or a library: file")


def load_scenario(path: Path | str, *, rulebook: Rulebook | None = None,
                  library: Mapping[str, CardSpec] | None = None) -> Scenario:
    """Read and validate a scenario file. Raises :class:`ScenarioError` (one line)."""
    path = Path(path)
    try:
        text = read_text(path)
    except YamlInputError as exc:
        raise ScenarioError(str(exc)) from exc
    return parse_scenario(text, source=str(path), rulebook=rulebook, library=library)


# --- running ------------------------------------------------------------------------


class Outcome(str, Enum):
    """How a scenario run ended; ``exit_code`` is the CLI's."""

    passed = "passed"
    failed = "failed"
    error = "error"

    @property
    def exit_code(self) -> int:
        return {Outcome.passed: 0, Outcome.failed: 1, Outcome.error: 2}[self]


@dataclass(frozen=True)
class ScenarioResult:
    """The result of playing one scenario."""

    scenario: Scenario
    outcome: Outcome
    message: str = ""
    """Empty when passed; else one line naming the file, the step, the item, expected vs found."""
    step: int | None = None
    """Index of the step that did not hold."""
    trace: tuple[TraceRecord, ...] = ()
    trace_tail: str = ""
    """The last lines of the narrated trace."""
    duel: Duel | None = field(default=None, compare=False, repr=False)
    """The duel as the scenario left it (``None`` if it could not be created)."""

    @property
    def passed(self) -> bool:
        return self.outcome is Outcome.passed

    @property
    def detail(self) -> str:
        """The message without the leading file name (for output that already names the file)."""
        prefix = f"{self.scenario.file}: "
        return self.message.removeprefix(prefix)

    @property
    def exit_code(self) -> int:
        return self.outcome.exit_code

    def report(self) -> str:
        """The message, then the trace tail (indented), or ``"passed"``."""
        if self.passed:
            return "passed"
        return self._with_tail(self.message)

    def _with_tail(self, message: str) -> str:
        if not self.trace_tail:
            return message
        tail = "\n".join("    " + line for line in self.trace_tail.splitlines())
        return f"{message}\n  last transitions:\n{tail}"

    def report_detail(self) -> str:
        """Like :meth:`report`, without the leading file name."""
        return "passed" if self.passed else self._with_tail(self.detail)


class _StepProblem(Exception):
    def __init__(self, outcome: Outcome, message: str) -> None:
        super().__init__(message)
        self.outcome = outcome
        self.message = message


def _fail(message: str) -> _StepProblem:
    return _StepProblem(Outcome.failed, message)


def _names(actions: Iterable[Action]) -> list[str]:
    return [action.name for action in actions]


def _listed(names: Iterable[str]) -> str:
    return ", ".join(names) or "none"


def _do(duel: Duel, step: DoStep, where: str) -> None:
    for number, name in enumerate(step.do):
        item = f"{where}.do" if len(step.do) == 1 else f"{where}.do[{number}]"
        try:
            action_name, choice = Action.parse(name)
            duel.apply(Action(action_name, step.by, choice) if step.by else name)
        except IllegalActionError as exc:
            raise _StepProblem(Outcome.error, f"{item}: {exc}") from exc


def _refuse(duel: Duel, step: RefuseStep, where: str) -> None:
    item = f"{where}.refuse"
    offered = [a for a in duel.legal_actions() if names_option(step.refuse, a) and step.by in (None, a.player)]
    if offered:
        raise _fail(f"{item}: expected {step.refuse!r} to be refused{f' to {step.by}' if step.by else ''}, "
                    f"but it is offered to {offered[0].player} in {duel.state} "
                    f"(legal: {_listed(_names(duel.legal_actions()))})")
    before = (duel.state, duel.priority, len(duel.trace), len(duel.history))
    try:
        name, choice = Action.parse(step.refuse)
        duel.apply(Action(name, step.by, choice) if step.by else step.refuse)
    except IllegalActionError as exc:
        after = (duel.state, duel.priority, len(duel.trace), len(duel.history))
        if after != before:
            raise _fail(f"{item}: the refused action changed the duel ({before[0]} → {after[0]})") from exc
        if step.reason is not None and step.reason not in str(exc):
            raise _fail(f"{where}.reason: expected the refusal to mention {step.reason!r}, found: {exc}") from exc
        return
    raise _fail(f"{item}: expected {step.refuse!r} to be refused, but the duel accepted it")


def names_option(item: str, action: Action) -> bool:
    """Whether a scenario item (``legal``, ``not_legal``, ``refuse``) names the offered ``action``.

    A bare name (``activate``) names every option of that action. An item with an option names
    that option and every option that extends it on the same card: ``activate x`` names
    ``activate x``, ``activate x>target`` and ``activate x#2…``; ``activate x#2`` names
    ``activate x#2>target`` — so ``not_legal: [activate x]`` cannot pass vacuously because ``x``
    happens to be offered only with a target.
    """
    name, choice = Action.parse(item)
    if name != action.name:
        return False
    if choice is None:
        return True
    offered = action.choice or ""
    return offered == choice or (offered.startswith(choice) and offered[len(choice)] in ">#")


def _pass_until(duel: Duel, step: PassUntilStep, where: str) -> None:
    item = f"{where}.pass_until"
    target = step.pass_until
    for taken in range(PASS_LIMIT + 1):
        if duel.in_state(target):
            return
        if duel.is_over:
            raise _fail(f"{item}: the duel ended in {duel.state} ({duel.end_reason}, winner "
                        f"{duel.winner or 'none'}) before reaching {target}")
        names = _names(duel.legal_actions())
        if "pass" not in names:
            raise _fail(f"{item}: in {duel.state} {duel.priority} must choose ({_listed(names)}) before "
                        f"reaching {target}; pass_until only passes (use do:)")
        if taken == PASS_LIMIT:
            break
        duel.apply("pass")
    raise _fail(f"{item}: {target} not reached within {PASS_LIMIT} passes (now in {duel.state})")


def _expected_vs(item: str, expected: object, found: object) -> str:
    return f"{item}: expected {expected}, found {found}"


def _taken(records: Sequence[TraceRecord], name: str) -> bool:
    return any(name in (record.transition, f"{record.machine}.{record.transition}") for record in records)


def _check(duel: Duel, expect: Expectation, where: str, since: int) -> list[str]:
    """Every mismatch between ``expect`` and the duel, one message each; ``since`` is where
    the trace window of ``taken`` / ``not_taken`` starts."""
    item = f"{where}.expect"
    problems: list[str] = []
    given = expect.model_fields_set
    if expect.state is not None and not duel.in_state(expect.state):
        problems.append(_expected_vs(f"{item}.state", expect.state, duel.state))
    if "priority" in given and duel.priority != expect.priority:
        problems.append(_expected_vs(f"{item}.priority", expect.priority or "nobody", duel.priority or "nobody"))
    if expect.turn is not None and duel.turn != expect.turn:
        problems.append(_expected_vs(f"{item}.turn", expect.turn, duel.turn))
    if expect.turn_player is not None and duel.turn_player != expect.turn_player:
        problems.append(_expected_vs(f"{item}.turn_player", expect.turn_player, duel.turn_player))
    for key in ("lp", "hand", "deck", "graveyard"):
        expected_counts: dict[str, int] = getattr(expect, key)
        for player, expected in expected_counts.items():
            found = getattr(duel.players[player], key)
            if found != expected:
                problems.append(_expected_vs(f"{item}.{key}.{player}", expected, found))
    if expect.winner is not None:
        result = ("draw" if duel.winner is None else duel.winner) if duel.is_over else "the duel is not over"
        if result != expect.winner:
            problems.append(_expected_vs(f"{item}.winner", expect.winner, result))
    if expect.over is not None and duel.is_over != expect.over:
        found_over = f"over ({duel.end_reason})" if duel.is_over else "not over"
        problems.append(_expected_vs(f"{item}.over", "over" if expect.over else "not over", found_over))
    legal_now = duel.legal_actions()
    offered = _names(legal_now)
    offered_text = [str(action) for action in legal_now]

    def is_offered(text: str) -> bool:
        return any(names_option(text, action) for action in legal_now)

    for number, name in enumerate(expect.legal):
        if not is_offered(name):
            why = duel.explain_illegal(name)
            problems.append(f"{item}.legal[{number}]: expected {name!r} to be offered in {duel.state}, "
                            f"offered: {_listed(offered)}{f' ({why})' if why else ''}")
    for number, name in enumerate(expect.not_legal):
        if is_offered(name):
            problems.append(f"{item}.not_legal[{number}]: expected {name!r} not to be offered in {duel.state}, "
                            f"offered: {_listed(offered_text)}")
    problems += _check_cards(duel, expect, item, since)
    window = duel.trace[since:]
    seen = _listed(dict.fromkeys(record.transition for record in window))
    for number, name in enumerate(expect.taken):
        if not _taken(window, name):
            problems.append(f"{item}.taken[{number}]: expected transition {name!r} since the previous expect step, "
                            f"taken: {seen}")
    for number, name in enumerate(expect.not_taken):
        if _taken(window, name):
            problems.append(f"{item}.not_taken[{number}]: expected transition {name!r} not to be taken since the "
                            f"previous expect step, taken: {seen}")
    return problems


def _check_cards(duel: Duel, expect: Expectation, item: str, since: int) -> list[str]:
    """The chain, the resolutions since ``since`` (a trace position), named cards' zones, monster counts."""
    problems: list[str] = []
    if expect.chain is not None:
        found_chain = [(link.uid, link.controller, link.negated) for link in duel.chain]
        wanted = [(e.card, e.by, e.negated) for e in expect.chain]
        same = len(found_chain) == len(wanted) and all(
            f[0] == w[0] and w[1] in (None, f[1]) and w[2] in (None, f[2])
            for f, w in zip(found_chain, wanted, strict=True))
        if not same:
            problems.append(_expected_vs(f"{item}.chain", _links(wanted), _links(found_chain)))
    if expect.resolved is not None:
        found_resolved = [(uid, negated) for seq, _, uid, negated in duel.resolutions if seq > since]
        wanted_resolved = [(e, None) if isinstance(e, str) else (e.card, e.negated) for e in expect.resolved]
        same = len(found_resolved) == len(wanted_resolved) and all(
            f[0] == w[0] and w[1] in (None, f[1]) for f, w in zip(found_resolved, wanted_resolved, strict=True))
        if not same:
            problems.append(_expected_vs(f"{item}.resolved", _resolutions(wanted_resolved),
                                         _resolutions(found_resolved)))
    for uid, zone in expect.cards.items():
        where = duel.where(uid)
        if where is None or where[1] is not zone:
            problems.append(_expected_vs(f"{item}.cards.{uid}", zone.value,
                                         f"{where[1].value} of {where[0]}" if where else "not a card of this duel"))
    for uid, wanted_position in expect.positions.items():
        found_card = next((c for p in duel.players.values() for c in p.monsters if c.uid == uid), None)
        shown = ("not on the field" if found_card is None else
                 "face_down_defence" if not found_card.face_up else found_card.position.value)
        if shown != wanted_position:
            problems.append(_expected_vs(f"{item}.positions.{uid}", wanted_position, shown))
    for key, wanted_stats in (("atk", expect.atk), ("def", expect.defence)):
        for uid, value in wanted_stats.items():
            monster = next((c for p in duel.players.values() for c in p.monsters if c.uid == uid), None)
            found_value = "not on the field" if monster is None else (monster.atk if key == "atk" else monster.defence)
            if found_value != value:
                problems.append(_expected_vs(f"{item}.{key}.{uid}", value, found_value))
    if expect.attack is not None:
        problems += _check_attack(duel, expect.attack, f"{item}.attack")
    if expect.attacked is not None:
        found_attacked = sorted(c.uid for p in duel.players.values() for z, c in p.all_cards()
                                if c.attacked_turn == duel.turn)
        if found_attacked != sorted(expect.attacked):
            problems.append(_expected_vs(f"{item}.attacked", sorted(expect.attacked), found_attacked))
    for player, count in expect.monsters.items():
        if len(duel.players[player].monsters) != count:
            problems.append(_expected_vs(f"{item}.monsters.{player}", count, len(duel.players[player].monsters)))
    return problems


def _check_attack(duel: Duel, expect: AttackExpectation, item: str) -> list[str]:
    attack = duel.attack or duel.last_attack
    if attack is None:
        return [f"{item}: expected an attack, found none"]
    problems = []
    outcome = attack.outcome or "in_progress"
    target = "direct" if attack.direct else attack.target
    found = {"attacker": attack.attacker, "target": target, "outcome": outcome, "replayed": attack.replayed,
             "battle_damage": attack.battle_damage, "destroyed": attack.destroyed}
    for key, wanted in expect.model_dump(exclude_none=True).items():
        if found[key] != wanted:
            problems.append(_expected_vs(f"{item}.{key}", wanted, found[key]))
    return problems


def _links(links: Sequence[tuple[str, str | None, bool | None]]) -> str:
    if not links:
        return "no chain"
    return ", ".join(f"CHAIN{n} {uid}{f' by {by}' if by else ''}{' (negated)' if neg else ''}"
                     for n, (uid, by, neg) in enumerate(links, start=1))


def _resolutions(items: Sequence[tuple[str, bool | None]]) -> str:
    return ", ".join(f"{uid}{' (negated)' if negated else ''}" for uid, negated in items) or "nothing"


def _tail(records: Sequence[TraceRecord], rulebook: Rulebook, lang: str, lines: int) -> str:
    text = narrate(records, rulebook.specs, lang=lang)
    return "\n".join(text.splitlines()[-lines:])


def run_scenario(
    scenario: Scenario,
    *,
    rulebook: Rulebook | None = None,
    lang: str = "zh",
    tail: int = TRACE_TAIL_LINES,
) -> ScenarioResult:
    """Play ``scenario``; stop at the first step that does not hold.

    ``lang`` (``zh`` or ``en``) is the language of the narrated ``trace_tail``, which keeps
    ``tail`` lines.
    """
    rulebook = rulebook or default_rulebook()
    source = scenario.file
    try:
        duel = Duel(scenario.setup, rulebook=rulebook, library=scenario.card_library)
    except (EngineError, ValueError) as exc:
        return ScenarioResult(scenario, Outcome.error, f"{source}: setup: {exc}", step=None)
    problem: _StepProblem | None = None
    failed_step: int | None = None
    since = 0
    for index, step in enumerate(scenario.steps):
        where = f"steps[{index}]"
        try:
            if isinstance(step, DoStep):
                _do(duel, step, where)
            elif isinstance(step, RefuseStep):
                _refuse(duel, step, where)
            elif isinstance(step, PassUntilStep):
                _pass_until(duel, step, where)
            else:
                mismatches = _check(duel, step.expect, where, since)
                since = len(duel.trace)
                if mismatches:
                    raise _fail("; ".join(mismatches))
        except _StepProblem as exc:
            problem, failed_step = exc, index
        except EngineError as exc:
            problem, failed_step = _StepProblem(Outcome.error, f"{where}: engine error: {exc}"), index
        if problem is not None:
            break
    trace = duel.trace
    if problem is None:
        return ScenarioResult(scenario, Outcome.passed, trace=trace, duel=duel)
    return ScenarioResult(
        scenario,
        problem.outcome,
        f"{source}: {problem.message}",
        step=failed_step,
        trace=trace,
        trace_tail=_tail(trace, rulebook, lang, tail),
        duel=duel,
    )


def run_file(path: Path | str, *, rulebook: Rulebook | None = None, lang: str = "zh") -> ScenarioResult:
    """Load and play one scenario file (``ScenarioError`` when it is invalid)."""
    return run_scenario(load_scenario(path, rulebook=rulebook), rulebook=rulebook, lang=lang)

