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
from collections.abc import Mapping, Sequence

import graphviz

from ygo_fsm.diagram_text import (
    DETAILS,
    Context,
    _texts,
)
from ygo_fsm.drawing import (
    FONTNAME,
    _languages,
)
from ygo_fsm.render_dot import to_dot
from ygo_fsm.render_mermaid import to_mermaid
from ygo_fsm.spec import (
    GuardSentence,
    Label,
    Lang,
    MachineSpec,
)
from ygo_fsm.wording import (
    ACTOR_TEXT,
    PROFILE_SOURCES,
    PROFILES,
    SOURCES,
    display,
    display_citation,
    guard_lines,
    official,
    profile_mark,
    transition_profiles,
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

_DIGEST_PREFIX = "ygo-fsm dot-sha256:"
_DIGEST_RE = re.compile(r"<!-- " + re.escape(_DIGEST_PREFIX) + r" ([0-9a-f]{64}) -->")
_PROLOG_RE = re.compile(r"\A\s*(?:<\?xml[^>]*\?>\s*)?(?:<!DOCTYPE[^>]*>\s*)?")


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
