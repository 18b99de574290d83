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
from collections.abc import Iterable, Sequence

import graphviz

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

__all__ = [
    "FONTNAME",
    "dot_digest",
    "dot_to_svg",
    "index_markdown",
    "render_all",
    "svg_source_digest",
    "to_dot",
    "to_mermaid",
]

#: Font list used in DOT output; the first family covers Chinese and Japanese text.
FONTNAME = "WenQuanYi Micro Hei, Noto Sans CJK SC, Noto Sans, sans-serif"

_LANG_CHOICES = ("zh", "en", "both")

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
_CHECKS_ATTACK_TEXT = Label(zh="⚔ 每个连锁后检查攻击（攻击中止／战斗回卷）",
                            en="⚔ the attack is checked after every chain (cancel / replay)")
_LIMIT_TEXT = {
    "damage_step": Label(zh="✕ 只能发动：反击陷阱、无效发动、攻守增减、必发、反转、自身召唤/破坏时的效果",
                         en="✕ only counter traps, negations, ATK/DEF changes, mandatory, flip, own summon/destroyed"),
    "damage_step_after_calculation": Label(zh="✕ 同上，但不能发动攻守增减的效果",
                                           en="✕ the same without ATK/DEF changes"),
}
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


def _languages(lang: str) -> tuple[Lang, ...]:
    """The languages to show for ``lang`` (``zh``, ``en`` or ``both``), in display order."""
    value = lang.value if isinstance(lang, Lang) else lang
    if value == "both":
        return (Lang.zh, Lang.en)
    if value in ("zh", "en"):
        return (Lang(value),)
    raise ValueError(f"unknown lang {lang!r}; expected one of: {', '.join(_LANG_CHOICES)}")


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
        text = f"⟨{transition.choices}⟩ {text}".rstrip()
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
        lines += _texts(Label(zh=f"⏱ 处理『…时』的效果：{state.phase_effects}",
                              en=f"⏱ phase effects handled here: {state.phase_effects}"), langs)
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


def _dot_quote(text: str) -> str:
    """``text`` as a double-quoted DOT string; line breaks become ``\\n``."""
    escaped = text.replace("\\", "\\\\").replace('"', '\\"')
    escaped = escaped.replace("\r\n", "\n").replace("\r", "\n").replace("\n", "\\n")
    return f'"{escaped}"'


def _dot_label(lines: Iterable[str]) -> str:
    """Lines joined with DOT line breaks, quoted."""
    return _dot_quote("\n".join(lines))


def _dot_attrs(attrs: Sequence[tuple[str, str]]) -> str:
    """``[name="value", …]``; values given already quoted."""
    return "[" + ", ".join(f"{name}={value}" for name, value in attrs) + "]"


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


def to_dot(spec: MachineSpec, *, lang: str = "both", highlight: str | None = None) -> str:
    """Graphviz DOT text for ``spec`` (no ``dot`` binary needed).

    ``lang`` picks the label language(s): ``"zh"``, ``"en"`` or ``"both"``. ``highlight``
    names a state drawn emphasised (bold, filled); ``ValueError`` when the machine has no
    such state. Nodes and edges appear in declaration order.
    """
    langs = _languages(lang)
    if highlight is not None and highlight not in spec.state_ids():
        raise ValueError(
            f"cannot highlight unknown state {highlight!r} of machine {spec.id!r}; "
            f"states: {', '.join(spec.state_ids())}"
        )
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
    edge_defaults = [("fontname", font), ("fontsize", _dot_quote("9"))]
    out = [
        f"// Generated by ygo-fsm from machine {spec.id!r}; do not edit by hand.",
        f"digraph {_dot_quote(spec.id)} {{",
        f"    graph {_dot_attrs(graph_attrs)};",
        f"    node {_dot_attrs(node_defaults)};",
        f"    edge {_dot_attrs(edge_defaults)};",
        "",
    ]
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

#: Characters Mermaid's state-diagram grammar or its HTML labels would misread: ``"`` ends
#: a description (written ``'``); the others become Mermaid entity codes (``;`` → ``#59;``).
_MERMAID_SAFE = str.maketrans(
    {
        '"': "'",
        "#": "#35;",
        ";": "#59;",
        ":": "#58;",
        "%": "#37;",
        "&": "#38;",
        "<": "#60;",
        ">": "#62;",
    }
)


def _mermaid_text(text: str) -> str:
    """``text`` made safe inside a Mermaid state description, note or transition label.

    >>> _mermaid_text('say "end"; #1')
    "say 'end'#59; #35;1"
    """
    return " ".join(text.split()).translate(_MERMAID_SAFE)


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


def to_mermaid(spec: MachineSpec, *, lang: str = "both") -> str:
    """Mermaid ``stateDiagram-v2`` text for ``spec``, in declaration order.

    Each state is declared as ``state "label<br/>label<br/>[rule]" as id``; transitions
    read ``a --> b : event [guards] / callbacks``; final states lead to ``[*]``; states
    that run a sub-machine get a note. Characters Mermaid would misread are replaced
    (``"`` by ``'``) or written as Mermaid entity codes (``;`` as ``#59;`` …).
    """
    langs = _languages(lang)
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
        Label(zh="小圆点加箭头: 初始状态", en="small dot with an arrow: the initial state"),
        Label(
            zh="双线边框: 终止状态 (父状态机收到 done)",
            en="double border: a final state (the parent machine receives done)",
        ),
        Label(zh="八边形: 决斗结束", en="octagon: the duel ends"),
        Label(zh="立体方框: 执行子状态机", en="3-D box: the state runs a sub-machine"),
        Label(
            zh="实线: 玩家行动 (蓝: 回合玩家, 红: 对方); 虚线: 引擎事件; 点线: done (子状态机结束)",
            en="solid edge: a player action (blue: turn player, red: opponent); "
            "dashed: an engine event; dotted: done (the sub-machine finished)",
        ),
        Label(
            zh="«modern» / «ocg2008»: 只在该规则版本中有效的迁移 (各自引用其规则出处)",
            en="«modern» / «ocg2008»: a transition that holds only under that rule profile (each cites its side)",
        ),
        Label(
            zh="边的标注: 事件 (行动者) [守卫 ∧ ¬除外条件] / 回调, 其后是说明与 [规则出处]",
            en="edge text: event (actor) [guards ∧ ¬unless] / callbacks, then its label and [rule]",
        ),
    )
    return [f"- {' · '.join(_md_text(text) for text in _texts(entry, langs))}" for entry in entries]


def index_markdown(specs: Sequence[MachineSpec], *, lang: str = "both") -> str:
    """The text of ``diagrams/README.md``: every machine in the given order.

    For each machine: a heading with its label(s) and rule citation, links to its
    ``.svg``, ``.dot`` and ``.mmd`` files, its Mermaid diagram (renders on code hosts) and
    a table of its states.
    """
    langs = _languages(lang)
    out = [
        "# ygo-fsm rule-flow diagrams · ygo-fsm 规则流程图",
        "",
        "> Generated by `make diagrams` from the declarations in `machines/`; do not edit by hand.",
        "> 由 `make diagrams` 根据 `machines/` 中的声明生成, 请勿手工编辑.",
        "",
        "## Legend · 图例",
        "",
        *_legend((Lang.zh, Lang.en)),
        "",
        "## Machines · 状态机",
        "",
    ]
    for spec in specs:
        out.append(f"- [`{spec.id}`]({spec.id}.svg) — {_md_text(' · '.join(_texts(spec.label, langs)))}")
    for spec in specs:
        heading = " · ".join(_texts(spec.label, langs))
        if spec.rule:
            heading += f" [{spec.rule}]"
        out += [
            "",
            f"## {_md_text(heading)}",
            "",
            " · ".join(
                [f"Machine `{spec.id}`: [{spec.id}.svg]({spec.id}.svg)"]
                + [f"[{spec.id}.{ext}]({spec.id}.{ext})" for ext in ("dot", "mmd")]
            ),
            "",
            "```mermaid",
            to_mermaid(spec, lang=lang).rstrip("\n"),
            "```",
            "",
            "| State · 状态 | 中文 | English | Rule · 规则 |",
            "| --- | --- | --- | --- |",
        ]
        for state in spec.states:
            cells = (
                f"`{state.id}`",
                _md_text(state.label.zh),
                _md_text(state.label.en),
                _md_text(state.rule),
            )
            out.append(f"| {' | '.join(cells)} |")
    return "\n".join(out) + "\n"


def render_all(specs: Sequence[MachineSpec], *, lang: str = "both", svg: bool = True) -> dict[str, str]:
    """Every diagram file, by relative file name: ``<id>.dot``, ``<id>.mmd``, ``<id>.svg``
    (when ``svg``; needs Graphviz's ``dot``) for each machine, then ``README.md``.

    ``README.md`` always links the ``.svg`` files, so it does not depend on ``svg``.
    ``ValueError`` when two machines share an id.
    """
    _languages(lang)
    seen: set[str] = set()
    files: dict[str, str] = {}
    for spec in specs:
        if spec.id in seen:
            raise ValueError(f"two machines share the id {spec.id!r}; cannot render both")
        seen.add(spec.id)
        dot = to_dot(spec, lang=lang)
        files[f"{spec.id}.dot"] = dot
        files[f"{spec.id}.mmd"] = to_mermaid(spec, lang=lang)
        if svg:
            files[f"{spec.id}.svg"] = dot_to_svg(dot)
    files["README.md"] = index_markdown(specs, lang=lang)
    return files
