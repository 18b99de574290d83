"""Graphviz DOT for one machine: the judge's drawing (sentences, who acts, guard sentences,
citations, links between machines) and the engine's (event, actor, guard and callback names).
The styling is described in :mod:`ygo_fsm.render`."""

from __future__ import annotations

import re
from collections.abc import Sequence

from ygo_fsm.diagram_text import (
    _CHECKS_ATTACK_TEXT,
    _EDGE_COLOR,
    _HIGHLIGHT_FILL,
    _LIFTED_TEXT,
    _PHASE_TEXT,
    _PRIORITY_TEXT,
    _RESTRICTED_TEXT,
    _SUBMACHINE_COLOR,
    _TERMINAL_COLOR,
    _TERMINAL_TEXT,
    DETAILS,
    EDGE_COLUMNS,
    Context,
    _actor_text,
    _callback_text,
    _citation_lines,
    _engine_summary,
    _guard_text,
    _judge_tooltip,
    _profile_text,
    _shown,
    _state_lines,
    _texts,
    _tooltip,
)
from ygo_fsm.drawing import (
    _LIMIT_TEXT,
    FONTNAME,
    _dot_attrs,
    _dot_label,
    _dot_quote,
    _languages,
)
from ygo_fsm.spec import (
    DONE_EVENT,
    Actor,
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
    display,
    guard_lines,
    official,
    profile_mark,
    transition_profiles,
    wrap,
)


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

