"""What a diagram says, whatever its format: the labels, sentences and colours that the DOT
and Mermaid renderers (:mod:`ygo_fsm.render_dot`, :mod:`ygo_fsm.render_mermaid`) share,
and the :class:`Context` a judge diagram reads besides its own machine."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from ygo_fsm.drawing import (
    _LIMIT_TEXT,
)
from ygo_fsm.spec import (
    Actor,
    GuardSentence,
    Label,
    Lang,
    MachineSpec,
    Role,
    StateSpec,
    TransitionSpec,
)
from ygo_fsm.wording import (
    COLUMNS,
    display_citation,
    source_note,
    transition_profiles,
    wrap,
    wrapped,
)

#: ``judge``: sentence first, who acts, guard sentences, wrapped citation (the default);
#: ``engine``: event, actor, guard and callback names, then the label and citation.
DETAILS = ("judge", "engine")

#: Display names of the phases whose 『…时』 effects an open game state handles.
_PHASE_TEXT: dict[str, Label] = {
    "standby_phase": Label(zh="准备阶段", en="Standby Phase"),
    "battle_end_step": Label(zh="战斗阶段的结束步骤", en="End Step of the Battle Phase"),
    "end_phase": Label(zh="结束阶段", en="End Phase"),
    "battle_start_step": Label(zh="战斗阶段开始", en="Start of the Battle Phase"),
}


@dataclass(frozen=True)
class Context:
    """What a judge diagram shows besides its own machine.

    ``specs``: every machine (for links, "entered from" and what follows each final state);
    ``sentences``: the guard sentences; ``profile``: draw that rule profile only (``None``:
    every profile, items of one profile marked ◆); ``link``: the file a machine id links to.
    """

    specs: Mapping[str, MachineSpec] = field(default_factory=dict)
    sentences: Mapping[str, GuardSentence] = field(default_factory=dict)
    profile: str | None = None
    link: str = "{machine}.svg"

    def parents(self, machine: str) -> list[tuple[MachineSpec, StateSpec]]:
        """The states, in any machine, that run ``machine``."""
        return [(spec, state) for spec in self.specs.values() for state in spec.states if state.machine == machine]

    def shows(self, transition: TransitionSpec) -> bool:
        """Whether ``transition`` is drawn: always, unless a profile is picked and it is not in it."""
        return self.profile is None or self.profile in transition_profiles(transition, self.sentences)

_ACTOR_TEXT: dict[Actor, Label] = {
    Actor.turn_player: Label(zh="回合玩家", en="turn player"),
    Actor.opponent: Label(zh="对方", en="opponent"),
    Actor.priority_holder: Label(zh="持有优先权的玩家", en="player with priority"),
    Actor.engine: Label(zh="引擎(自动)", en="engine (automatic)"),
}

_PRIORITY_TEXT: dict[Role, Label] = {
    Role.turn_player: Label(zh="回合玩家行动", en="turn player acts"),
    Role.opponent: Label(zh="对方行动", en="opponent acts"),
    Role.responder: Label(zh="另一方玩家行动（可以连锁）", en="the other player acts (may respond)"),
    Role.last_activator: Label(zh="最后发动的玩家行动", en="the last activator acts"),
    Role.trigger_player: Label(zh="按优先顺序发动诱发效果的玩家行动", en="the player whose triggers are placed acts"),
}

_RESTRICTED_TEXT = Label(zh="✕ 没有特定发动时点的卡不能作为CHAIN1", en="✕ no-timing cards cannot start CHAIN1")
_CHECKS_ATTACK_TEXT = Label(zh="↻ 每个连锁后检查攻击（攻击中止／战斗回卷）",
                            en="↻ the attack is checked after every chain (cancel / replay)")
_LIFTED_TEXT = Label(zh="（连锁处理结束后解除）", en="(lifted once a chain has resolved)")

_TERMINAL_TEXT = Label(zh="■ 决斗结束", en="■ the duel ends")

_EDGE_COLOR: dict[Actor, str] = {
    Actor.turn_player: "#1f5fbf",
    Actor.opponent: "#b8322a",
    Actor.priority_holder: "#7a3fa8",
    Actor.engine: "#555555",
}

_HIGHLIGHT_FILL = "#ffe680"
_TERMINAL_COLOR = "#8b0000"
_SUBMACHINE_COLOR = "#2e6b30"


# --------------------------------------------------------------------------- language


def _texts(label: Label, langs: Sequence[Lang]) -> list[str]:
    """One line per language."""
    return [label.text(lang) for lang in langs]


def _submachine_texts(machine: str, langs: Sequence[Lang]) -> list[str]:
    note = Label(zh=f"▶ 执行子状态机 {machine}", en=f"▶ runs machine {machine}")
    return _texts(note, langs)


def _actor_text(actor: Actor, langs: Sequence[Lang]) -> str:
    return " / ".join(_texts(_ACTOR_TEXT[actor], langs))


def _guard_text(transition: TransitionSpec) -> str:
    """``[g1 ∧ g2 ∧ ¬u1]``, or ``""`` when the transition has no guard."""
    terms = [*transition.guards, *(f"¬{name}" for name in transition.unless)]
    return f"[{' ∧ '.join(terms)}]" if terms else ""


def _profile_text(transition: TransitionSpec) -> str:
    """``«modern»`` for a transition scoped to one rule profile, or ``""`` for every profile."""
    return f"«{transition.profile}»" if transition.profile else ""


def _callback_text(transition: TransitionSpec) -> str:
    """``/ cb1, cb2``, or ``""`` when the transition has no callback."""
    text = f"/ {', '.join(transition.callbacks)}" if transition.callbacks else ""
    if transition.choices:
        text = f"〈{transition.choices}〉 {text}".rstrip()
    return text


def _state_lines(state: StateSpec, langs: Sequence[Lang], *, submachine: bool) -> list[str]:
    """Label lines of a state (without its rule citation)."""
    lines = _texts(state.label, langs)
    if submachine and state.machine is not None:
        lines += _submachine_texts(state.machine, langs)
    if state.priority is not None:
        lines += _texts(_PRIORITY_TEXT[state.priority], langs)
    if state.checks_attack:
        lines += _texts(_CHECKS_ATTACK_TEXT, langs)
    if state.phase_effects is not None:
        lines += _texts(Label(zh=f"◎ 处理『…时』的效果：{state.phase_effects}",
                              en=f"◎ phase effects handled here: {state.phase_effects}"), langs)
    if state.activation_limit is not None:
        lines += _texts(_LIMIT_TEXT[state.activation_limit.value], langs)
    if state.restricts_chain1:
        lines += _texts(_RESTRICTED_TEXT, langs)
        if state.restriction_ends_after_chain:
            lines += _texts(_LIFTED_TEXT, langs)
    if state.terminal:
        lines += _texts(_TERMINAL_TEXT, langs)
    return lines


def _tooltip(rule: str, label: Label, langs: Sequence[Lang]) -> str:
    """The rule citation, or the label when the item cites no rule."""
    return rule or " / ".join(_texts(label, langs))



# --------------------------------------------------------------------------- judge labels


#: Columns an edge label is wrapped at: narrower than a state's, as edges run side by side.
EDGE_COLUMNS = 26


def _shown(texts: Iterable[str], columns: int = COLUMNS) -> list[str]:
    return wrapped(texts, columns)


def _citation_lines(rule: str, columns: int = COLUMNS) -> list[str]:
    """``[rule]`` wrapped, ``***`` shown as 召唤."""
    return wrap(f"[{display_citation(rule)}]", columns) if rule else []


def _judge_tooltip(rule: str) -> str:
    """A tooltip: the citation verbatim (``***`` as the seed writes it) and what its source is."""
    note = source_note(rule)
    return f"{rule} ({note})" if note else rule


def _engine_summary(transition: TransitionSpec) -> str:
    """The engine's view of a transition, for its tooltip: event (actor) [guards] / callbacks."""
    parts = [f"{transition.event} ({transition.actor.value})", _guard_text(transition), _callback_text(transition)]
    return " ".join(part for part in parts if part)

