"""Renderers: machine declarations as Graphviz DOT, Mermaid, SVG and a Markdown index.

Every function here is pure: it takes :class:`~ygo_fsm.spec.MachineSpec` objects and
returns text. Writing the files (``diagrams/``) is the CLI's job. Output is stable: states
and transitions appear in declaration order and nothing depends on the clock or on the
machine running the code, so a test can compare a fresh rendering with the committed one.

What the diagrams show
    A state is drawn with its label(s) and, in brackets, its rule citation. A transition
    is drawn with its profile when it holds under one rule profile only (``«modern»``), its
    event, its actor, its guards (``[g1 ∧ g2 ∧ ¬u1]``: every guard must
    hold and no ``unless`` guard may hold), its callbacks (``/ cb1, cb2``), its label(s)
    and its rule citation. In DOT, every node and edge also carries the rule citation as
    its ``tooltip`` (the SVG tooltip) and a stable ``id`` (``state_<state id>``,
    ``tr_<transition id>``).

DOT styling (the legend is repeated in ``diagrams/README.md``)
    * a small dot with an arrow marks the initial state;
    * a double border marks a final state (the machine is finished, the parent machine
      receives ``done``);
    * an octagon marks a terminal state (the duel ends);
    * a 3-D box marks a state that runs a sub-machine (``▶ runs machine X``);
    * solid edges are player actions (blue: turn player, red: opponent), dashed edges are
      engine events, dotted edges are ``done`` events (the sub-machine finished).

``lang`` is ``"zh"``, ``"en"`` or ``"both"`` (each label as a Chinese line, then an
English line).

SVG files carry a comment ``<!-- ygo-fsm dot-sha256: … -->`` with the SHA-256 of the DOT
text they were made from, so a test can tell an SVG is up to date without running ``dot``:

>>> svg = '<?xml version="1.0"?>\\n' + _digest_comment("digraph {}") + "\\n<svg/>"
>>> svg_source_digest(svg) == dot_digest("digraph {}")
True
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

import graphviz

from ygo_fsm.drawing import (
    _LIMIT_TEXT,
    FONTNAME,
    _dot_attrs,
    _dot_label,
    _dot_quote,
    _languages,
    _mermaid_text,
)
from ygo_fsm.spec import (
    DONE_EVENT,
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
    ACTOR_TEXT,
    COLUMNS,
    PROFILE_SOURCES,
    PROFILES,
    SOURCES,
    display,
    display_citation,
    guard_lines,
    official,
    profile_mark,
    source_note,
    transition_profiles,
    wrap,
    wrapped,
)

__all__ = [
    "DETAILS",
    "FONTNAME",
    "Context",
    "display",
    "display_citation",
    "dot_digest",
    "dot_to_svg",
    "index_markdown",
    "render_all",
    "svg_source_digest",
    "to_dot",
    "to_mermaid",
    "turn_order",
]

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

_DIGEST_PREFIX = "ygo-fsm dot-sha256:"
_DIGEST_RE = re.compile(r"<!-- " + re.escape(_DIGEST_PREFIX) + r" ([0-9a-f]{64}) -->")
_PROLOG_RE = re.compile(r"\A\s*(?:<\?xml[^>]*\?>\s*)?(?:<!DOCTYPE[^>]*>\s*)?")


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


# --------------------------------------------------------------------------- DOT


def _node_attrs(state: StateSpec, langs: Sequence[Lang], *, highlighted: bool) -> list[tuple[str, str]]:
    lines = _state_lines(state, langs, submachine=True)
    if state.rule:
        lines.append(f"[{state.rule}]")
    attrs: list[tuple[str, str]] = [
        ("id", _dot_quote(f"state_{state.id}")),
        ("label", _dot_label(lines)),
        ("tooltip", _dot_quote(_tooltip(state.rule, state.label, langs))),
    ]
    if state.terminal:
        shape = "octagon"
    elif state.machine is not None:
        shape = "box3d"
    else:
        shape = "box"
    styles = ["rounded"] if shape == "box" else []
    if shape != "box":
        attrs.append(("shape", _dot_quote(shape)))
    if state.terminal:
        attrs += [
            ("color", _dot_quote(_TERMINAL_COLOR)),
            ("fontcolor", _dot_quote(_TERMINAL_COLOR)),
        ]
    elif state.machine is not None:
        attrs.append(("color", _dot_quote(_SUBMACHINE_COLOR)))
    if state.final:
        attrs.append(("peripheries", _dot_quote("2")))
    if highlighted:
        styles += ["filled", "bold"]
        attrs += [
            ("fillcolor", _dot_quote(_HIGHLIGHT_FILL)),
            ("penwidth", _dot_quote("2.5")),
        ]
    if styles != ["rounded"]:  # "rounded" is the node default
        attrs.append(("style", _dot_quote(",".join(styles) or "solid")))
    return attrs


def _edge_attrs(transition: TransitionSpec, langs: Sequence[Lang]) -> list[tuple[str, str]]:
    lines = [f"{_profile_text(transition)} {transition.event}".lstrip() + f" ({_actor_text(transition.actor, langs)})"]
    guards = _guard_text(transition)
    if guards:
        lines.append(guards)
    callbacks = _callback_text(transition)
    if callbacks:
        lines.append(callbacks)
    lines += _texts(transition.label, langs)
    if transition.rule:
        lines.append(f"[{transition.rule}]")
    tooltip = _tooltip(transition.rule, transition.label, langs)
    if transition.event == DONE_EVENT:
        style = "dotted"
    elif transition.actor is Actor.engine:
        style = "dashed"
    else:
        style = "solid"
    color = _EDGE_COLOR[transition.actor]
    attrs: list[tuple[str, str]] = [
        ("id", _dot_quote(f"tr_{transition.id}")),
        ("label", _dot_label(lines)),
        ("tooltip", _dot_quote(tooltip)),
        ("labeltooltip", _dot_quote(tooltip)),
        ("style", _dot_quote(style)),
        ("color", _dot_quote(color)),
        ("fontcolor", _dot_quote(color)),
    ]
    if transition.event == DONE_EVENT:
        attrs.append(("penwidth", _dot_quote("1.6")))
    return attrs


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


def _exit_lines(spec: MachineSpec, state: StateSpec, langs: Sequence[Lang], context: Context) -> list[str]:
    """For a final state of a sub-machine: where each parent goes next."""
    lines: list[str] = []
    parents = context.parents(spec.id)
    owners = {parent.id for parent, _ in parents}
    if not parents:
        return lines
    if len(owners) > 2:
        note = Label(zh="之后：运行本状态机的状态收到 done（见上方“从此进入”）",
                     en="then: the state running this machine receives done (see “entered from” above)")
        return _shown(official(note, lang) for lang in langs)
    for parent, runner in parents:
        for transition in parent.outgoing(runner.id):
            if transition.event != DONE_EVENT or not context.shows(transition):
                continue
            dest = parent.state(transition.dest)
            for lang in langs:
                word = "之后" if lang is Lang.zh else "then"
                conditions = guard_lines(transition, context.sentences, (lang,), profile=context.profile)
                when = f"（{'；'.join(conditions)}）" if lang is Lang.zh else f" ({'; '.join(conditions)})"
                lines += wrap(f"→ {word} {parent.id}: {display(dest.label, lang)}" + (when if conditions else ""),
                              COLUMNS)
    return lines


def _judge_state_lines(spec: MachineSpec, state: StateSpec, langs: Sequence[Lang], context: Context) -> list[str]:
    lines = _shown(display(state.label, lang) for lang in langs)
    if state.machine is not None:
        child = context.specs.get(state.machine)
        for lang in langs:
            name = display(child.label, lang) if child is not None else state.machine
            text = f"▶ 执行「{name}」({state.machine})" if lang is Lang.zh else f"▶ runs “{name}” ({state.machine})"
            lines += wrap(text, COLUMNS)
    if state.priority is not None:
        lines += _shown(official(_PRIORITY_TEXT[state.priority], lang) for lang in langs)
    if state.checks_attack:
        lines += _shown(official(_CHECKS_ATTACK_TEXT, lang) for lang in langs)
    if state.phase_effects is not None:
        phase = _PHASE_TEXT.get(state.phase_effects, Label(zh=state.phase_effects, en=state.phase_effects))
        note = Label(zh=f"◎ 在此处理『{phase.zh}时』的效果", en=f"◎ {phase.en} effects are handled here")
        lines += _shown(official(note, lang) for lang in langs)
    if state.activation_limit is not None:
        lines += _shown(official(_LIMIT_TEXT[state.activation_limit.value], lang) for lang in langs)
    if state.restricts_chain1:
        lines += _shown(official(_RESTRICTED_TEXT, lang) for lang in langs)
        if state.restriction_ends_after_chain:
            lines += _shown(official(_LIFTED_TEXT, lang) for lang in langs)
    if state.terminal:
        lines += _shown(official(_TERMINAL_TEXT, lang) for lang in langs)
    if state.final:
        lines += _exit_lines(spec, state, langs, context)
    lines += _open_state_lines(spec, state, langs, context)
    return lines + _citation_lines(state.rule)


def _short_label(label: Label, lang: Lang) -> str:
    """A label without its parenthesised remark."""
    text = display(label, lang)
    return re.split(r"[（(]", text, maxsplit=1)[0].strip() or text


def _open_state_lines(spec: MachineSpec, state: StateSpec, langs: Sequence[Lang], context: Context) -> list[str]:
    """For the turn player's open game state (the initial state of a machine the phases run,
    where the turn player acts): the actions the running states offer there too, so the whole
    of the Fast Effect Timing chart's box A shows in one place."""
    if state.id != spec.initial or state.priority is not Role.turn_player:
        return []
    offered: dict[str, list[TransitionSpec]] = {}
    for parent, runner in context.parents(spec.id):
        for transition in parent.outgoing(runner.id):
            if transition.actor is Actor.turn_player and context.shows(transition):
                offered.setdefault(f"{parent.id}.{runner.id}", []).append(transition)
    if not offered:
        return []
    lines: list[str] = []
    for lang in langs:
        lines += wrap("◇ 快速效果时点表A：回合玩家在这里也可以" if lang is Lang.zh
                      else "◇ FET box A: here the turn player may also", COLUMNS)
        for where, transitions in offered.items():
            joint = "、" if lang is Lang.zh else ", "
            lines += wrap(f"{where}: " + joint.join(_short_label(t.label, lang) for t in transitions), COLUMNS)
    return lines


def _judge_edge_lines(transition: TransitionSpec, langs: Sequence[Lang], context: Context) -> list[str]:
    lines = _shown((display(transition.label, lang) for lang in langs), EDGE_COLUMNS)
    lines.append("— " + " / ".join(official(ACTOR_TEXT[transition.actor], lang) for lang in langs))
    lines += _shown(guard_lines(transition, context.sentences, langs, profile=context.profile), EDGE_COLUMNS)
    if context.profile is None:
        mark = profile_mark(transition_profiles(transition, context.sentences), langs)
        if mark:
            lines.append(mark)
    return lines + _citation_lines(transition.rule, EDGE_COLUMNS)


def _entered_from(spec: MachineSpec, langs: Sequence[Lang], context: Context) -> list[str]:
    parents = context.parents(spec.id)
    if not parents:
        return []
    places = "、".join(f"{parent.id}.{state.id}" for parent, state in parents)
    lines: list[str] = []
    for lang in langs:
        lines += wrap(("从此进入：" if lang is Lang.zh else "entered from: ") + places, 2 * COLUMNS)
    return lines


def _dot_head(spec: MachineSpec, graph_attrs: Sequence[tuple[str, str]],
              node_defaults: Sequence[tuple[str, str]], font: str) -> list[str]:
    """The first lines of a machine's DOT source: the generated-file notice and the defaults."""
    edge_defaults = [("fontname", font), ("fontsize", _dot_quote("9"))]
    return [
        f"// Generated by ygo-fsm from machine {spec.id!r}; do not edit by hand.",
        f"digraph {_dot_quote(spec.id)} {{",
        f"    graph {_dot_attrs(graph_attrs)};",
        f"    node {_dot_attrs(node_defaults)};",
        f"    edge {_dot_attrs(edge_defaults)};",
        "",
    ]


def _judge_dot(spec: MachineSpec, langs: Sequence[Lang], highlight: str | None, context: Context) -> str:
    font = _dot_quote(FONTNAME)
    title = [*_shown(display(spec.label, lang) for lang in langs), *_citation_lines(spec.rule),
             *_entered_from(spec, langs, context)]
    if context.profile is not None:
        title.append(" / ".join(Label(zh=f"规则：{context.profile}", en=f"rules: {context.profile}").text(lang)
                                for lang in langs))
    graph_attrs: list[tuple[str, str]] = [
        ("id", _dot_quote(f"machine_{spec.id}")),
        ("charset", _dot_quote("UTF-8")),
        ("rankdir", _dot_quote("TB")),
        ("nodesep", _dot_quote("0.2")),
        ("ranksep", _dot_quote("0.3")),
        ("fontname", font),
        ("fontsize", _dot_quote("14")),
        ("labelloc", _dot_quote("t")),
        ("label", _dot_label(title)),
        ("tooltip", _dot_quote(spec.rule or spec.label.en)),
    ]
    node_defaults = [
        ("fontname", font),
        ("fontsize", _dot_quote("11")),
        ("shape", _dot_quote("box")),
        ("style", _dot_quote("rounded")),
        ("margin", _dot_quote("0.08,0.04")),
    ]
    out = _dot_head(spec, graph_attrs, node_defaults, font)
    start_attrs: list[tuple[str, str]] = [
        ("id", _dot_quote("start")),
        ("shape", _dot_quote("point")),
        ("width", _dot_quote("0.15")),
        ("label", _dot_quote("")),
        ("tooltip", _dot_quote(spec.rule or spec.label.en)),
    ]
    out.append(f"    {_dot_quote('__start__')} {_dot_attrs(start_attrs)};")
    for state in spec.states:
        attrs = _node_attrs(state, langs, highlighted=state.id == highlight)
        attrs = [(name, value) for name, value in attrs if name not in ("label", "tooltip")]
        attrs[1:1] = [
            ("label", _dot_label(_judge_state_lines(spec, state, langs, context))),
            ("tooltip", _dot_quote(_judge_tooltip(state.rule) or state.label.en)),
        ]
        if state.machine is not None:
            attrs += [("URL", _dot_quote(context.link.format(machine=state.machine))), ("target", _dot_quote("_top"))]
        out.append(f"    {_dot_quote(state.id)} {_dot_attrs(attrs)};")
    out.append("")
    out.append(f"    {_dot_quote('__start__')} -> {_dot_quote(spec.initial)} "
               f"{_dot_attrs([('id', _dot_quote('start_edge'))])};")
    groups: dict[tuple[str, str, Actor], list[TransitionSpec]] = {}
    for transition in spec.transitions:
        if context.shows(transition):
            groups.setdefault((transition.source, transition.dest, transition.actor), []).append(transition)
    for (source, dest, _), members in groups.items():
        # transitions between the same two states by the same actor share one arrow: their
        # labels are stacked (narrower than side by side); every one keeps its id as a class
        first = members[0]
        attrs = _edge_attrs(first, langs)
        blocks = [_judge_edge_lines(transition, langs, context) for transition in members]
        lines = [line for number, block in enumerate(blocks) for line in ([" "] if number else []) + block]
        tooltip = _dot_quote("  ‖  ".join(f"{_judge_tooltip(t.rule)} · {_engine_summary(t)}".strip(" ·")
                                          for t in members))
        replaced = {"label": _dot_label(lines), "tooltip": tooltip, "labeltooltip": tooltip}
        attrs = [(name, replaced.get(name, value)) for name, value in attrs]
        attrs.append(("class", _dot_quote(" ".join(f"tr_{t.id}" for t in members))))
        out.append(f"    {_dot_quote(source)} -> {_dot_quote(dest)} {_dot_attrs(attrs)};")
    out.append("}")
    return "\n".join(out) + "\n"


def to_dot(
    spec: MachineSpec,
    *,
    lang: str = "both",
    highlight: str | None = None,
    detail: str = "judge",
    context: Context | None = None,
) -> str:
    """Graphviz DOT text for ``spec`` (no ``dot`` binary needed).

    ``lang`` picks the label language(s): ``"zh"``, ``"en"`` or ``"both"``. ``highlight``
    names a state drawn emphasised (bold, filled); ``ValueError`` when the machine has no
    such state. Nodes and edges appear in declaration order.

    ``detail="judge"`` (the default) labels each item sentence first, then who acts, the
    guards' sentences and the wrapped citation; sub-machine boxes link to their machine, the
    title says where the machine is entered from and each final state where the parent goes
    next (from ``context``). ``detail="engine"`` shows event, actor, guard and callback names.
    """
    langs = _languages(lang)
    if highlight is not None and highlight not in spec.state_ids():
        raise ValueError(
            f"cannot highlight unknown state {highlight!r} of machine {spec.id!r}; "
            f"states: {', '.join(spec.state_ids())}"
        )
    if detail not in DETAILS:
        raise ValueError(f"unknown detail {detail!r}; expected one of: {', '.join(DETAILS)}")
    if detail == "judge":
        return _judge_dot(spec, langs, highlight, context or Context())
    font = _dot_quote(FONTNAME)
    title = _texts(spec.label, langs)
    if spec.rule:
        title.append(f"[{spec.rule}]")
    graph_attrs: list[tuple[str, str]] = [
        ("id", _dot_quote(f"machine_{spec.id}")),
        ("charset", _dot_quote("UTF-8")),
        ("rankdir", _dot_quote("TB")),
        ("fontname", font),
        ("fontsize", _dot_quote("16")),
        ("labelloc", _dot_quote("t")),
        ("label", _dot_label(title)),
        ("tooltip", _dot_quote(_tooltip(spec.rule, spec.label, langs))),
    ]
    node_defaults = [
        ("fontname", font),
        ("fontsize", _dot_quote("11")),
        ("shape", _dot_quote("box")),
        ("style", _dot_quote("rounded")),
    ]
    out = _dot_head(spec, graph_attrs, node_defaults, font)
    start_tooltip = _dot_quote(_tooltip(spec.rule, spec.label, langs))
    start_attrs: list[tuple[str, str]] = [
        ("id", _dot_quote("start")),
        ("shape", _dot_quote("point")),
        ("width", _dot_quote("0.15")),
        ("label", _dot_quote("")),
        ("tooltip", start_tooltip),
    ]
    out.append(f"    {_dot_quote('__start__')} {_dot_attrs(start_attrs)};")
    for state in spec.states:
        attrs = _node_attrs(state, langs, highlighted=state.id == highlight)
        out.append(f"    {_dot_quote(state.id)} {_dot_attrs(attrs)};")
    out.append("")
    start_edge: list[tuple[str, str]] = [
        ("id", _dot_quote("start_edge")),
        ("tooltip", start_tooltip),
    ]
    out.append(f"    {_dot_quote('__start__')} -> {_dot_quote(spec.initial)} {_dot_attrs(start_edge)};")
    for transition in spec.transitions:
        edge = f"{_dot_quote(transition.source)} -> {_dot_quote(transition.dest)}"
        out.append(f"    {edge} {_dot_attrs(_edge_attrs(transition, langs))};")
    out.append("}")
    return "\n".join(out) + "\n"


# --------------------------------------------------------------------------- Mermaid

def _mermaid_ids(spec: MachineSpec) -> dict[str, str]:
    """Mermaid node id per state id.

    State ids are used as they are, except ids Mermaid's lexer reads as a keyword (it
    reads a leading ``default`` as one, case-insensitively); those get an ``s_`` prefix
    (more ``_`` if that clashes with another state id).
    """
    taken = set(spec.state_ids())
    ids: dict[str, str] = {}
    for state_id in spec.state_ids():
        node = state_id
        if state_id.lower().startswith("default"):
            node = f"s_{state_id}"
            while node in taken:
                node = f"s_{node}"
            taken.add(node)
        ids[state_id] = node
    return ids


def _short(text: str, columns: int) -> str:
    """``text`` cut to about ``columns`` display columns (``…`` marks the cut)."""
    lines = wrap(text, columns)
    return lines[0] + ("…" if len(lines) > 1 else "") if lines else ""


def _judge_mermaid(spec: MachineSpec, langs: Sequence[Lang], context: Context) -> str:
    ids = _mermaid_ids(spec)
    out = [
        "stateDiagram-v2",
        f"    %% {spec.id}: generated by ygo-fsm, do not edit by hand",
        "    direction TB",
        f"    [*] --> {ids[spec.initial]}",
    ]
    for state in spec.states:
        lines = _shown(display(state.label, lang) for lang in langs)
        if state.machine is not None:
            lines += [_submachine_texts(state.machine, langs)[0]]
        if state.priority is not None:
            lines += _shown(official(_PRIORITY_TEXT[state.priority], lang) for lang in langs)
        if state.terminal:
            lines += _shown(official(_TERMINAL_TEXT, lang) for lang in langs)
        if state.rule:
            lines.append(f"[{_short(display_citation(state.rule), COLUMNS)}]")
        description = "<br/>".join(_mermaid_text(line) for line in lines)
        out.append(f'    state "{description}" as {ids[state.id]}')
    for transition in spec.transitions:
        if not context.shows(transition):
            continue
        lines = _shown((display(transition.label, lang) for lang in langs), EDGE_COLUMNS)
        lines.append("— " + " / ".join(official(ACTOR_TEXT[transition.actor], lang) for lang in langs))
        if context.profile is None:
            mark = profile_mark(transition_profiles(transition, context.sentences), langs)
            if mark:
                lines.append(mark)
        if transition.rule:
            lines.append(f"[{_short(display_citation(transition.rule), EDGE_COLUMNS)}]")
        source = ids.get(transition.source, transition.source)
        dest = ids.get(transition.dest, transition.dest)
        out.append(f"    {source} --> {dest} : {'<br/>'.join(_mermaid_text(line) for line in lines)}")
    for state in spec.states:
        if state.final:
            out.append(f"    {ids[state.id]} --> [*]")
    classes = (
        ("terminal", f"stroke:{_TERMINAL_COLOR},stroke-width:3px", [s for s in spec.states if s.terminal]),
        ("submachine", f"stroke:{_SUBMACHINE_COLOR},stroke-width:2px",
         [s for s in spec.states if s.machine and not s.terminal]),
        ("turnplayer", f"fill:#e6eefb,stroke:{_EDGE_COLOR[Actor.turn_player]}",
         [s for s in spec.states if s.priority is Role.turn_player]),
        ("opponent", f"fill:#fbe9e7,stroke:{_EDGE_COLOR[Actor.opponent]}",
         [s for s in spec.states if s.priority is Role.opponent]),
    )
    for name, css, members in classes:
        if members:
            out.append(f"    classDef {name} {css}")
            out.append(f"    class {','.join(ids[s.id] for s in members)} {name}")
    return "\n".join(out) + "\n"


def to_mermaid(spec: MachineSpec, *, lang: str = "both", detail: str = "judge", context: Context | None = None) -> str:
    """Mermaid ``stateDiagram-v2`` text for ``spec``, in declaration order.

    ``detail="judge"`` (the default): each state shows its label(s), who acts and a short
    citation; each transition reads ``sentence — who acts [short citation]``; states where
    the turn player acts are blue, the opponent's red. ``detail="engine"``:

    Each state is declared as ``state "label<br/>label<br/>[rule]" as id``; transitions
    read ``a --> b : event [guards] / callbacks``; final states lead to ``[*]``; states
    that run a sub-machine get a note. Characters Mermaid would misread are replaced
    (``"`` by ``'``) or written as Mermaid entity codes (``;`` as ``#59;``, ``*`` as ``#42;`` …).
    """
    langs = _languages(lang)
    if detail not in DETAILS:
        raise ValueError(f"unknown detail {detail!r}; expected one of: {', '.join(DETAILS)}")
    if detail == "judge":
        return _judge_mermaid(spec, langs, context or Context())
    ids = _mermaid_ids(spec)
    out = [
        "stateDiagram-v2",
        f"    %% {spec.id}: generated by ygo-fsm, do not edit by hand",
        "    direction TB",
        f"    [*] --> {ids[spec.initial]}",
    ]
    for state in spec.states:
        lines = _state_lines(state, langs, submachine=False)
        if state.rule:
            lines.append(f"[{state.rule}]")
        description = "<br/>".join(_mermaid_text(line) for line in lines)
        out.append(f'    state "{description}" as {ids[state.id]}')
    for state in spec.states:
        if state.machine is not None:
            note = "<br/>".join(_mermaid_text(line) for line in _submachine_texts(state.machine, langs))
            out.append(f"    note right of {ids[state.id]} : {note}")
    for transition in spec.transitions:
        parts = [_profile_text(transition), transition.event, _guard_text(transition), _callback_text(transition)]
        text = _mermaid_text(" ".join(part for part in parts if part))
        source = ids.get(transition.source, transition.source)
        dest = ids.get(transition.dest, transition.dest)
        out.append(f"    {source} --> {dest} : {text}")
    for state in spec.states:
        if state.final:
            out.append(f"    {ids[state.id]} --> [*]")
    classes = (
        (
            "terminal",
            f"stroke:{_TERMINAL_COLOR},stroke-width:3px",
            [s for s in spec.states if s.terminal],
        ),
        (
            "submachine",
            f"stroke:{_SUBMACHINE_COLOR},stroke-width:2px",
            [s for s in spec.states if s.machine and not s.terminal],
        ),
    )
    for name, css, members in classes:
        if members:
            out.append(f"    classDef {name} {css}")
            out.append(f"    class {','.join(ids[s.id] for s in members)} {name}")
    return "\n".join(out) + "\n"


# --------------------------------------------------------------------------- SVG


def dot_digest(dot_source: str) -> str:
    """Hex SHA-256 of ``dot_source`` (UTF-8), as recorded in SVG files.

    >>> dot_digest("digraph {}")[:16]
    'cdffdece7b997411'
    """
    return hashlib.sha256(dot_source.encode("utf-8")).hexdigest()


def _digest_comment(dot_source: str) -> str:
    return f"<!-- {_DIGEST_PREFIX} {dot_digest(dot_source)} -->"


def svg_source_digest(svg_text: str) -> str | None:
    """The DOT digest recorded in an SVG made by :func:`dot_to_svg`, or ``None``."""
    match = _DIGEST_RE.search(svg_text)
    return match.group(1) if match else None


def dot_to_svg(dot_source: str) -> str:
    """Render DOT text to SVG text with Graphviz's ``dot`` binary.

    A comment with :func:`dot_digest` of ``dot_source`` is inserted right after the XML
    prolog and doctype. ``RuntimeError`` when the ``dot`` binary is missing or fails.
    """
    try:
        svg = graphviz.Source(dot_source).pipe(format="svg", encoding="utf-8")
    except graphviz.ExecutableNotFound as error:
        raise RuntimeError(
            "cannot render SVG: the Graphviz 'dot' binary was not found on PATH; "
            "install Graphviz (e.g. 'apt-get install graphviz' or 'brew install graphviz')"
        ) from error
    except graphviz.CalledProcessError as error:
        stderr = error.stderr.decode("utf-8", "replace") if isinstance(error.stderr, bytes) else str(error.stderr)
        raise RuntimeError(f"Graphviz 'dot' failed to render the DOT text: {stderr.strip()}") from error
    svg = str(svg).replace("\r\n", "\n")
    prolog = _PROLOG_RE.match(svg)
    end = prolog.end() if prolog else 0
    return svg[:end] + _digest_comment(dot_source) + "\n" + svg[end:]


# --------------------------------------------------------------------------- index


def _md_text(text: str) -> str:
    """``text`` as literal Markdown inline text (also safe in a table cell)."""
    text = " ".join(text.split())
    return re.sub(r"([\\`*_\[\]<>|#])", r"\\\1", text)


def _legend(langs: Sequence[Lang]) -> list[str]:
    entries = (
        Label(zh="SVG：小圆点加箭头是初始状态；双线边框是终止状态（父状态机收到 done，方框里写着之后去哪里）；"
                 "八边形是决斗结束；立体方框执行子状态机（点击打开它）",
              en="SVG: a small dot with an arrow marks the initial state; a double border a final state (the parent "
                 "receives done; the box says where the parent goes next); an octagon the end of the duel; a 3-D box "
                 "runs a sub-machine (click it to open that machine)"),
        Label(zh="SVG 的箭头：实线是玩家的行为（蓝：回合玩家，红：对方，紫：持有优先权的玩家）；"
                 "虚线是自动进行；点线是子状态机结束（done）",
              en="SVG arrows: solid is a player action (blue: turn player, red: opponent, purple: the player with "
                 "priority); dashed happens by itself; dotted: the sub-machine finished (done)"),
        Label(zh="SVG 箭头的文字：先是说明，然后“— 行动者”，“若：／除非：”是条件（守卫）的说明，最后是[规则出处]；"
                 "◆ 标出只在一个规则版本中存在的箭头；鼠标停在上面可以看到出处原文和引擎的名字",
              en="SVG arrow text: the sentence, then “— who acts”, “if / unless” the guards' sentences, then [the "
                 "rule]; ◆ marks an arrow of one rule profile only; hover for the verbatim citation and the engine's "
                 "names"),
        Label(zh="Mermaid：状态里写着说明、行动者与简短出处；蓝底是回合玩家行动的状态，红底是对方；"
                 "箭头写作“说明 — 行动者 [出处]”",
              en="Mermaid: each state shows its label, who acts and a short citation; blue states are the turn "
                 "player's, red ones the opponent's; arrows read “sentence — who acts [citation]”"),
    )
    return [f"- {' · '.join(_md_text(text) for text in _texts(entry, langs))}" for entry in entries]


def turn_order(specs: Sequence[MachineSpec]) -> list[MachineSpec]:
    """The machines in the order a turn meets them: from ``turn``, each sub-machine right
    after the first state that runs it; machines that several machines run (priority, the
    timing window, the chain) after the phases; machines no state runs last, in the given order."""
    by_id = {spec.id: spec for spec in specs}
    owners: dict[str, set[str]] = {}
    for spec in specs:
        for state in spec.states:
            if state.machine is not None:
                owners.setdefault(state.machine, set()).add(spec.id)
    ordered: list[MachineSpec] = []
    shared: list[str] = []

    def visit(machine: str) -> None:
        spec = by_id.get(machine)
        if spec is None or spec in ordered:
            return
        ordered.append(spec)
        for state in spec.states:
            if state.machine is None:
                continue
            if len(owners.get(state.machine, ())) > 1:
                if state.machine not in shared:
                    shared.append(state.machine)
            else:
                visit(state.machine)

    visit("turn")
    while any(by_id.get(machine) not in ordered for machine in shared):
        visit(next(machine for machine in shared if by_id.get(machine) not in ordered))
    return ordered + [spec for spec in specs if spec not in ordered]


def _sources_table() -> list[str]:
    out = ["| Seed · 来源 | 中文 | English |", "| --- | --- | --- |"]
    for number, label in SOURCES:
        out.append(f"| `{number}` | {_md_text(label.zh)} | {_md_text(label.en)} |")
    out += ["", "| Profile · 规则版本 | 中文 | English |", "| --- | --- | --- |"]
    for name, label in PROFILE_SOURCES.items():
        out.append(f"| `{name}` | {_md_text(label.zh)} | {_md_text(label.en)} |")
    return out


def _transition_table(spec: MachineSpec, langs: Sequence[Lang], context: Context) -> list[str]:
    out = [
        "| Transition · 转移 | From → to · 从 → 到 | Sentence · 说明 | Who acts · 行动者 | Guards · 条件 "
        "| Rule · 规则 |",
        "| --- | --- | --- | --- | --- | --- |",
    ]
    for transition in spec.transitions:
        if not context.shows(transition):
            continue
        guards = "; ".join(guard_lines(transition, context.sentences, langs, profile=context.profile))
        mark = ""
        if context.profile is None:
            mark = profile_mark(transition_profiles(transition, context.sentences), langs)
        cells = (
            f"`{transition.id}`",
            f"`{transition.source}` → `{transition.dest}`",
            _md_text(" / ".join(display(transition.label, lang) for lang in langs)),
            _md_text(" / ".join(official(ACTOR_TEXT[transition.actor], lang) for lang in langs)),
            _md_text(" ".join(part for part in (guards, mark) if part)) or "—",
            _md_text(display_citation(transition.rule)),
        )
        out.append(f"| {' | '.join(cells)} |")
    return out


def index_markdown(specs: Sequence[MachineSpec], *, lang: str = "both", context: Context | None = None) -> str:
    """The text of ``diagrams/README.md``.

    It starts with the overview, the sources (what seeds 000–004 are, which official texts
    each profile follows) and the legend; then every machine in turn order (:func:`turn_order`)
    with links to its files, its Mermaid diagram (renders on code hosts), a table of its
    states and a table of its transitions (sentence, who acts, guard sentences, citation).
    """
    langs = _languages(lang)
    context = context or Context(specs={spec.id: spec for spec in specs})
    ordered = turn_order(specs)
    out = [
        "# ygo-fsm rule-flow diagrams · ygo-fsm 规则流程图",
        "",
        "> Generated by `make diagrams` from the declarations in `machines/`; do not edit by hand.",
        "> 由 `make diagrams` 根据 `machines/` 中的声明生成, 请勿手工编辑.",
        "",
        "## Start here · 从这里开始",
        "",
        "- [overview.svg](overview.svg) ([overview.mmd](overview.mmd)) — "
        + _md_text("规则总览：阶段的顺序、快速效果时点表 A–E、连锁与诱发效果的优先顺序、伤害步骤的限制 · "
                   "the overview: phases in order, the Fast Effect Timing chart's boxes A–E, the chain and the "
                   "trigger priority list, the Damage Step limits"),
        "- " + _md_text("然后按回合的顺序阅读各状态机（下面的列表）；图中的立体方框可以点击打开子状态机。 · "
                        "Then read the machines in turn order (the list below); click a 3-D box in a diagram to "
                        "open the machine it runs."),
        "",
        "## Sources · 来源",
        "",
        _md_text("每条出处以来源文件的编号开头（000–004）；这些是OCG规则的社区整理与翻译，不是官方文本。 · "
                 "Every citation starts with the number of its source file (000–004): community compilations and "
                 "translations of the OCG rules, not official texts."),
        "",
        *_sources_table(),
        "",
        "## Legend · 图例",
        "",
        *_legend((Lang.zh, Lang.en)),
        "",
        "## Machines in turn order · 按回合顺序的状态机",
        "",
    ]
    for spec in ordered:
        names = " · ".join(display(spec.label, lang) for lang in langs)
        out.append(f"- [`{spec.id}`]({spec.id}.svg) — {_md_text(names)}")
    for spec in ordered:
        heading = " · ".join(display(spec.label, lang) for lang in langs)
        if spec.rule:
            heading += f" [{display_citation(spec.rule)}]"
        parents = context.parents(spec.id)
        out += [
            "",
            f"## {_md_text(heading)}",
            "",
            " · ".join(
                [f"Machine `{spec.id}`: [{spec.id}.svg]({spec.id}.svg)"]
                + [f"[{spec.id}.{ext}]({spec.id}.{ext})" for ext in ("dot", "mmd")]
            ),
        ]
        if parents:
            out += ["", "Entered from · 从此进入: " + ", ".join(
                f"[`{parent.id}.{state.id}`]({parent.id}.svg)" for parent, state in parents)]
        out += [
            "",
            "```mermaid",
            to_mermaid(spec, lang=lang, context=context).rstrip("\n"),
            "```",
            "",
            "| State · 状态 | 中文 | English | Rule · 规则 |",
            "| --- | --- | --- | --- |",
        ]
        for state in spec.states:
            cells = (
                f"`{state.id}`",
                _md_text(display(state.label, Lang.zh)),
                _md_text(display(state.label, Lang.en)),
                _md_text(display_citation(state.rule)),
            )
            out.append(f"| {' | '.join(cells)} |")
        out += ["", *_transition_table(spec, langs, context)]
    return "\n".join(out) + "\n"


def render_all(
    specs: Sequence[MachineSpec],
    *,
    lang: str = "both",
    svg: bool = True,
    detail: str = "judge",
    sentences: Mapping[str, GuardSentence] | None = None,
    profile: str | None = None,
) -> dict[str, str]:
    """Every diagram file, by relative file name: ``<id>.dot``, ``<id>.mmd``, ``<id>.svg``
    (when ``svg``; needs Graphviz's ``dot``) for each machine, the overview
    (``overview.dot``, ``.mmd``, ``.svg``; when the machines include ``turn``), then ``README.md``.

    ``sentences`` are the guard sentences (judge labels print them); ``profile`` draws one
    rule profile only. ``README.md`` always links the ``.svg`` files, so it does not depend on
    ``svg``. ``ValueError`` when two machines share an id.
    """
    from ygo_fsm.overview import check_overview, overview_dot, overview_mermaid

    _languages(lang)
    if profile is not None and profile not in PROFILES:
        raise ValueError(f"unknown profile {profile!r}; expected one of: {', '.join(PROFILES)}")
    seen: set[str] = set()
    for spec in specs:
        if spec.id in seen:
            raise ValueError(f"two machines share the id {spec.id!r}; cannot render both")
        seen.add(spec.id)
    context = Context(specs={spec.id: spec for spec in specs}, sentences=sentences or {}, profile=profile)
    files: dict[str, str] = {}
    for spec in specs:
        dot = to_dot(spec, lang=lang, detail=detail, context=context)
        files[f"{spec.id}.dot"] = dot
        files[f"{spec.id}.mmd"] = to_mermaid(spec, lang=lang, detail=detail, context=context)
        if svg:
            files[f"{spec.id}.svg"] = dot_to_svg(dot)
    if not check_overview(context.specs):
        dot = overview_dot(context.specs, lang=lang)
        files["overview.dot"] = dot
        files["overview.mmd"] = overview_mermaid(context.specs, lang=lang)
        if svg:
            files["overview.svg"] = dot_to_svg(dot)
    files["README.md"] = index_markdown(specs, lang=lang, context=context)
    return files
