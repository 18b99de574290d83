"""The scenario file format as pydantic models, with its limits (documented in :mod:`ygo_fsm.scenario`)."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import (
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Discriminator,
    Field,
    PrivateAttr,
    Tag,
    WithJsonSchema,
)

from .cards import CardSpec
from .game import Setup, Zone
from .loader import CITATION

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
_CARD = r"(?:[a-z][a-z0-9_]*|[AB]\.[a-z_]+\.[1-9][0-9]*)"
"""A card in an option: its uid, or its place as a player is shown it (``A.spell_trap.1``)."""
_NAME = rf"^[a-z][a-z0-9_]*( {_CARD}(#[0-9]+)?(>{_CARD})?(\+{_CARD})*)?$"
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
