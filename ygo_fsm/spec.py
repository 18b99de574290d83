"""Spec models: typed, validated views of the machine declarations in ``machines/*.yaml``.

A declaration file holds one machine::

    id: standby_phase
    label: {zh: 准备流程, en: Standby Phase}
    rule: 000 ●スタンバイフェイズ
    initial: start
    states:
      - id: start
        label: {zh: 准备流程的开始宣言, en: Standby Phase begins}
        rule: 000 ●スタンバイフェイズ【１】
      - id: open
        machine: priority          # this state runs the priority machine
        ...
    transitions:
      - id: skipped
        event: standby_phase_skipped
        actor: engine
        source: start
        dest: end
        guards: [standby_phase_skip_applies]
        label: {zh: …, en: …}
        rule: 000 ●スタンバイフェイズ【１】

These models are inert data. Cross-item checks (unknown states, unreachable states, unknown
guard names …) live in :mod:`ygo_fsm.loader`.
"""

from __future__ import annotations

from enum import Enum
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

#: Event a parent machine receives when the machine run by its current state reaches a
#: final state.
DONE_EVENT = "done"

_ID = r"^[a-z][a-z0-9_]*$"


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Lang(str, Enum):
    """Label languages."""

    zh = "zh"
    en = "en"


class Label(_Model):
    """A bilingual label: Chinese as in the seeds, and English."""

    zh: str = Field(min_length=1)
    en: str = Field(min_length=1)

    def text(self, lang: Lang | str) -> str:
        """The label in ``lang`` (``zh`` or ``en``)."""
        return self.zh if Lang(lang) is Lang.zh else self.en


class Role(str, Enum):
    """Who must act in a state: a player seen from the turn (回合玩家 / 对方), or a player
    seen from the chain or the timing window."""

    turn_player = "turn_player"
    opponent = "opponent"
    responder = "responder"
    """The player who did not add the newest chain link (they may respond to it)."""
    last_activator = "last_activator"
    """The player who added the newest chain link (after the other player passed)."""
    trigger_player = "trigger_player"
    """The player whose simultaneous triggers are being put on the chain (000 priority list)."""


class Actor(str, Enum):
    """Who causes a transition: one of the players (an action) or the engine (an event).

    ``priority_holder`` is whichever player must act in the source state (its ``priority:``).
    """

    turn_player = "turn_player"
    opponent = "opponent"
    priority_holder = "priority_holder"
    engine = "engine"


class ActivationLimit(str, Enum):
    """Limits on what may be activated in a state (004 ●伤害步骤中，基本上…不能发动卡片。但是…)."""

    damage_step = "damage_step"
    """Counter traps, effects negating an activation, ATK/DEF changes, mandatory effects, flip
    effects and a monster's own summon/destruction triggers."""
    damage_step_after_calculation = "damage_step_after_calculation"
    """The same without ATK/DEF changes (004 ●增减怪兽的攻击力·守备力的效果只能在到伤害计算前为止的时点发动)."""


class StateSpec(_Model):
    """One state of a machine."""

    id: str = Field(pattern=_ID)
    label: Label
    rule: str = ""
    final: bool = False
    """Reaching it finishes the machine; the parent then receives ``done``."""
    terminal: bool = False
    """Reaching it ends the duel."""
    machine: str | None = Field(default=None, pattern=_ID)
    """Id of the machine this state runs; the state is left by its ``done`` transitions."""
    priority: Role | None = None
    """The player who must act in this state (holds priority or must make a choice)."""
    restricts_chain1: bool = False
    """In the timing window this state runs, cards with no specific timing (「サイクロン」…) and
    ignition effects may not start CHAIN1 (000 ※ notes: before the draw, summon negation, discard)."""
    checks_attack: bool = False
    """An attack is checked after every chain inside this state: cancelled as the chain ends when
    the attacker can no longer attack; replayed once the window after the chain is over when the
    opponent's monsters changed (000 ※攻击中止、战斗回卷的处理)."""
    phase_effects: str | None = Field(default=None, pattern=_ID)
    """This open game state handles the phase effects of that phase (『准备流程时～』 …):
    ``standby_phase``, ``battle_end_step`` or ``end_phase`` (000 ●スタンバイフェイズ【２】…)."""
    activation_limit: ActivationLimit | None = None
    """Only some activations are allowed while the duel is in this state (004 伤害步骤)."""
    restriction_ends_after_chain: bool = False
    """The restriction holds only until a chain has resolved in the window (000 ●ドローフェイズ
    【情况Ｂ】: after 「無敗将軍フリード」's chain 「サイクロン」 may be CHAIN1)."""


class TransitionSpec(_Model):
    """One transition: ``event`` moves the machine from ``source`` to ``dest``.

    Player transitions (``actor`` a player) are offered as legal actions to that player when
    they hold priority and every guard holds; engine transitions fire by themselves. All
    ``guards`` must hold and no ``unless`` guard may hold. ``callbacks`` run, in order, after
    the state has changed.
    """

    id: str = Field(pattern=_ID)
    event: str = Field(pattern=_ID)
    actor: Actor
    source: str = Field(pattern=_ID)
    dest: str = Field(pattern=_ID)
    guards: tuple[str, ...] = ()
    unless: tuple[str, ...] = ()
    callbacks: tuple[str, ...] = ()
    choices: str | None = Field(default=None, pattern=_ID)
    """Name of a chooser listing the options of a player action (e.g. which effect to
    activate); the action is offered once per option, and only when there is one."""
    profile: str | None = Field(default=None, pattern=_ID)
    """The rule profile (``modern`` or ``ocg2008``) this transition belongs to; ``None``: every
    profile. A profile-scoped transition is enabled only in a duel of that profile; where the
    profiles differ, each side's transition cites its own clause."""
    label: Label
    rule: str = ""

    @property
    def is_player_action(self) -> bool:
        return self.actor is not Actor.engine


class MachineSpec(_Model):
    """A whole declared machine."""

    id: str = Field(pattern=_ID)
    label: Label
    rule: str = ""
    initial: str = Field(pattern=_ID)
    states: tuple[StateSpec, ...] = ()
    transitions: tuple[TransitionSpec, ...] = ()
    source_file: str = Field(default="", exclude=True)
    """Where the declaration was read from (set by the loader)."""

    def state(self, state_id: str) -> StateSpec:
        """The state with id ``state_id`` (``KeyError`` when there is none)."""
        for state in self.states:
            if state.id == state_id:
                return state
        raise KeyError(state_id)

    def state_ids(self) -> tuple[str, ...]:
        return tuple(state.id for state in self.states)

    def outgoing(self, state_id: str) -> tuple[TransitionSpec, ...]:
        """Transitions leaving ``state_id``, in declaration order."""
        return tuple(t for t in self.transitions if t.source == state_id)


class GuardSentence(_Model):
    """What a guard asks, as a judge would say it (``machines/guards.yaml``).

    The diagrams print ``zh`` / ``en`` on every edge the guard controls (``unless`` guards
    as "unless …"). ``profile`` marks a guard that can hold under that rule profile only:
    the transitions it enables exist in that profile only (DESIGN "Rule profiles").
    """

    zh: str = Field(min_length=1)
    en: str = Field(min_length=1)
    rule: str = ""
    profile: Literal["modern", "ocg2008"] | None = None

    @property
    def label(self) -> Label:
        return Label(zh=self.zh, en=self.en)


class GuardSentences(_Model):
    """The whole guard-sentence file: ``guards: {name: {zh, en, rule, profile}}``."""

    guards: dict[str, GuardSentence] = Field(default_factory=dict)
