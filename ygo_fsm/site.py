"""The rule-review site: a static HTML site (no server; opens from the file system; works
offline) built from the machines, the diagrams and the seed examples.

``ygo-fsm site --out site/`` writes:

* ``index.html`` — one page with views chosen by the address's ``#``: the overview
  (``#overview``), every machine's diagram with zoom and pan (``#machine/<id>``), each state's
  page (``#state/<machine>.<state>``, the text of ``ygo-fsm explain``), the activation matrix
  (``#matrix``), a search over states, cards and clauses (``#search/<words>``) and trace
  playback (``#play/<example>``);
* ``data.js`` — everything the page shows, as one JavaScript value (a page opened from the
  file system may load scripts but not fetch files);
* ``site.js`` and ``site.css`` — the page's code and style (:mod:`ygo_fsm` ships them).

Trace playback steps through a trace record by record (← / → keys or the buttons): the
record's machine is drawn with the state it reached (``g.node.current``) and the edge it took
(``g.edge.taken``) highlighted, beside the seed-style story up to that record, the chain and,
for the built-in seed examples, both players' LP and hand sizes after the player action that
led to the record. A trace JSON Lines file (``ygo-fsm run --trace``) can be loaded too.

The output depends only on the machines, the cards and the seed scenarios, so building twice
gives the same files.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

from .cards import SPELL_SPEED, EffectKind, default_library
from .duel import Duel
from .engine import Rulebook
from .explain import explain_lines
from .render import Context, render_all, turn_order
from .scenario import load_scenario, run_scenario
from .spec import GuardSentence, Label, Lang, MachineSpec
from .trace import TraceRecord, story
from .wording import ACTOR_TEXT, SOURCES, display, display_citation, official

__all__ = ["ASSETS", "activation_matrix", "build_site", "seed_examples", "site_files"]

#: The page's own files, shipped in the package.
ASSETS = ("site.js", "site.css")

_ACTIVATED_KINDS = tuple(kind for kind in EffectKind if kind in SPELL_SPEED)


@dataclass(frozen=True)
class MatrixRow:
    """One window of the activation matrix: who may activate each kind of effect there."""

    label: Label
    states: tuple[str, ...]
    cells: Mapping[str, str]
    rule: str


def _window_states(specs: Mapping[str, MachineSpec], test: Any, machine: str | None = None) -> tuple[str, ...]:
    return tuple(f"{spec.id}.{state.id}" for spec in specs.values() for state in spec.states
                 if (machine is None or spec.id == machine) and test(state))


def activation_matrix(specs: Mapping[str, MachineSpec]) -> list[MatrixRow]:
    """Who may activate what, in each kind of window, by effect kind (spell speed in brackets).

    Rows: the open game state for each player (000 ◇持有优先权的回合玩家／对方玩家可以进行的行为),
    the timing window's CHAIN1 (000 卡／效果发动的优先顺序 1–7), the windows where cards with no
    specific timing may not be CHAIN1 (the states with ``restricts_chain1``, 000 ※ notes), a chain
    being built (000 ◇·发动2速以上的卡), and the Damage Step (the states with ``activation_limit``, 004).
    """
    rows: list[MatrixRow] = []

    def row(label: Label, states: tuple[str, ...], rule: str, cell: Any) -> None:
        if states:
            rows.append(MatrixRow(label, states, {kind.value: cell(kind, SPELL_SPEED[kind]) for kind in
                                                  _ACTIVATED_KINDS}, rule))

    spells_speed_1 = {EffectKind.normal_spell, EffectKind.continuous_spell, EffectKind.field_spell,
                      EffectKind.equip_spell, EffectKind.ignition}
    responsive = {EffectKind.trigger, EffectKind.flip}

    def open_turn_player(kind: EffectKind, speed: int) -> str:
        if kind in spells_speed_1:
            return "TP (Main Phase, no chain)"
        if kind in responsive:
            return "— (in the window after its event)"
        return "TP"

    def open_opponent(kind: EffectKind, speed: int) -> str:
        return "OP" if speed >= 2 else "—"

    def window(kind: EffectKind, speed: int) -> str:
        if kind in responsive:
            return "both, priority list 1–4 (mandatory first, TP first)"
        if kind is EffectKind.ignition:
            return "TP (Main Phase, CHAIN1 free)"
        return "TP first, then OP" if speed >= 2 else "—"

    def restricted(kind: EffectKind, speed: int) -> str:
        if speed >= 2:
            return "only a card with a specific timing as CHAIN1"
        return window(kind, speed)

    def chain(kind: EffectKind, speed: int) -> str:
        if speed == 3:
            return "the other player (answers any link)"
        if speed == 2:
            return "the other player (not lower than the newest link)"
        return "—"

    def damage(kind: EffectKind, speed: int, *, atk_def: bool = True) -> str:
        if kind is EffectKind.counter_trap:
            return "both"
        if kind in responsive:
            return "mandatory, flip, own summon / destroyed only"
        if speed >= 2:
            return "negating an activation" + (" or changing ATK/DEF" if atk_def else "") + " only"
        return "—"

    row(Label(zh="开放的游戏状态：回合玩家", en="Open game state: turn player"),
        _window_states(specs, lambda s: s.id == "turn_player", "priority"),
        "000 ◇持有优先权的回合玩家可以进行的行为", open_turn_player)
    row(Label(zh="开放的游戏状态：对方（回合玩家放弃优先权后）",
              en="Open game state: opponent (after the turn player passed)"),
        _window_states(specs, lambda s: s.id == "opponent", "priority"),
        "000 ◇因为回合玩家的放弃优先权而得到优先权的对方玩家可以进行的行为", open_opponent)
    row(Label(zh="发动时点：作为CHAIN1", en="Timing window: starting CHAIN1"),
        _window_states(specs, lambda s: s.machine == "trigger_window"),
        "000 卡／效果的发动时点内，卡／效果发动的优先顺序（组成一组连锁）１–７", window)
    row(Label(zh="没有特定发动时点的卡不能作为CHAIN1的时点", en="Windows where no-timing cards cannot be CHAIN1"),
        _window_states(specs, lambda s: s.restricts_chain1),
        "000 ※ 抽卡前・召唤无效・丢弃的时点", restricted)
    row(Label(zh="组成连锁中", en="Building a chain"), _window_states(specs, lambda s: s.machine == "chain"),
        "000 ◇·发动2速以上的卡（进入连锁）", chain)
    row(Label(zh="伤害步骤（伤害计算前为止）", en="Damage Step (until damage calculation)"),
        _window_states(specs, lambda s: s.activation_limit is not None and s.activation_limit.value == "damage_step"),
        "004 ●伤害步骤中，基本上…不能发动卡片。但是…", damage)
    row(Label(zh="伤害步骤（伤害计算后）", en="Damage Step (after damage calculation)"),
        _window_states(specs, lambda s: s.activation_limit is not None
                       and s.activation_limit.value == "damage_step_after_calculation"),
        "004 ●增减怪兽的攻击力·守备力的效果只能在到伤害计算前为止的时点发动",
        lambda kind, speed: damage(kind, speed, atk_def=False))
    return rows


def _snapshot(duel: Duel) -> dict[str, Any]:
    return {player: {"lp": state.lp, "hand": state.hand} for player, state in sorted(duel.players.items())}


def seed_examples(directory: Path, rulebook: Rulebook) -> list[dict[str, Any]]:
    """Every seed scenario in ``directory``, played: its trace, the story up to each record,
    and the players' LP and hands after the action that led to each record."""
    examples = []
    for path in sorted(directory.glob("*.yaml")):
        scenario = load_scenario(path, rulebook=rulebook)
        result = run_scenario(scenario, rulebook=rulebook)
        if result.duel is None:
            continue
        records = list(result.trace)
        replay = Duel(scenario.setup, rulebook=rulebook)
        snapshots = [_snapshot(replay)] * len(replay.trace)
        for action in result.duel.history:
            replay.apply(action)
            snapshots += [_snapshot(replay)] * (len(replay.trace) - len(snapshots))
        snapshots += [_snapshot(replay)] * (len(records) - len(snapshots))
        story_lines = story(records, rulebook.specs).splitlines()
        story_at = [len(story(records[: index + 1], rulebook.specs).splitlines()) for index in range(len(records))]
        examples.append({
            "id": path.stem,
            "name": scenario.name,
            "file": path.name,
            "records": [json.loads(record.model_dump_json()) for record in records],
            "snapshots": snapshots[: len(records)],
            "story": story_lines,
            "storyAt": story_at,
        })
    return examples


def _explain(rulebook: Rulebook, name: str) -> str:
    """A state's page: what ``ygo-fsm explain`` prints for it."""
    return "\n".join(explain_lines(rulebook, name, (Lang.zh, Lang.en))) + "\n"


def _label(label: Label) -> dict[str, str]:
    """A machine file's label, shown in the official words."""
    return {"zh": display(label, Lang.zh), "en": display(label, Lang.en)}


def _own(label: Label) -> dict[str, str]:
    """A text of the site's own (already in the official words)."""
    return {"zh": official(label, Lang.zh), "en": official(label, Lang.en)}


def site_data(
    rulebook: Rulebook,
    sentences: Mapping[str, GuardSentence],
    *,
    examples: Sequence[dict[str, Any]] = (),
) -> dict[str, Any]:
    """Everything the page shows (the value ``data.js`` defines)."""
    specs = list(rulebook.specs.values())
    files = render_all(specs, sentences=sentences)
    context = Context(specs=rulebook.specs, sentences=sentences)
    machines: dict[str, Any] = {}
    explain: dict[str, str] = {}
    search: list[dict[str, str]] = []
    for spec in turn_order(specs):
        machines[spec.id] = {
            "label": _label(spec.label),
            "rule": spec.rule,
            "svg": files[f"{spec.id}.svg"],
            "parents": [f"{parent.id}.{state.id}" for parent, state in context.parents(spec.id)],
            "states": {state.id: {"label": _label(state.label), "rule": state.rule, "machine": state.machine}
                       for state in spec.states},
            "transitions": {t.id: {"label": _label(t.label), "rule": t.rule, "source": t.source, "dest": t.dest,
                                   "actor": _own(ACTOR_TEXT[t.actor])} for t in spec.transitions},
        }
        search.append({"kind": "machine", "text": f"{spec.id} {spec.label.zh} {spec.label.en} "
                       f"{display(spec.label, Lang.zh)}", "href": f"#machine/{spec.id}",
                       "title": f"{spec.id} — {display(spec.label, Lang.zh)} · {spec.label.en}"})
        for state in spec.states:
            name = f"{spec.id}.{state.id}"
            explain[name] = _explain(rulebook, name)
            search.append({"kind": "state", "text": f"{name} {state.label.zh} {state.label.en} "
                           f"{display(state.label, Lang.zh)}", "href": f"#state/{name}",
                           "title": f"{name} — {display(state.label, Lang.zh)} · {state.label.en}"})
        cited: list[tuple[str, str, str]] = [(spec.rule, spec.id, f"#machine/{spec.id}")]
        cited += [(s.rule, f"{spec.id}.{s.id}", f"#state/{spec.id}.{s.id}") for s in spec.states]
        cited += [(t.rule, f"{spec.id}.{t.id}", f"#machine/{spec.id}") for t in spec.transitions]
        for rule, owner, href in cited:
            if rule:
                search.append({"kind": "clause", "text": f"{rule} {display_citation(rule)}", "href": href,
                               "title": f"{display_citation(rule)} ({owner})"})
    for card in default_library().values():
        where = card.seeds or ""
        search.append({"kind": "card", "text": f"{card.id} {card.name_ja} {card.name_zh} {where}",
                       "href": f"#search/{card.name_ja}", "title": f"「{card.name_ja}」 {card.name_zh} ({card.id})"})
    matrix = activation_matrix(rulebook.specs)
    return {
        "order": list(machines),
        "machines": machines,
        "overview": files.get("overview.svg", ""),  # no overview without a turn machine
        "explain": explain,
        "search": search,
        "matrix": {
            "columns": [{"kind": kind.value, "speed": SPELL_SPEED[kind]} for kind in _ACTIVATED_KINDS],
            "rows": [{"label": _own(row.label), "states": list(row.states), "cells": dict(row.cells),
                      "rule": row.rule} for row in matrix],
        },
        "sources": [{"number": number, "label": _own(label)} for number, label in SOURCES],
        "examples": list(examples),
    }


def _asset(name: str) -> str:
    return resources.files("ygo_fsm").joinpath("site_assets", name).read_text(encoding="utf-8")


_INDEX = """<!DOCTYPE html>
<html lang="zh">
<head>
<meta charset="utf-8">
<title>ygo-fsm rule review · 规则审阅</title>
<meta name="generator" content="ygo-fsm">
<link rel="stylesheet" href="site.css">
</head>
<body>
<header>
  <strong>ygo-fsm</strong>
  <nav>
    <a href="#overview">总览 Overview</a>
    <a href="#machines">状态机 Machines</a>
    <a href="#matrix">发动表 Activation matrix</a>
    <a href="#play">回放 Trace playback</a>
  </nav>
  <form id="search-form"><input id="search" type="search" placeholder="搜索 state / card / clause"
    aria-label="search"></form>
</header>
<main id="main"></main>
<noscript>This site needs JavaScript (it runs offline, from the file system).</noscript>
<script src="data.js"></script>
<script src="site.js"></script>
</body>
</html>
"""


def site_files(data: Mapping[str, Any]) -> dict[str, str]:
    """The site's files, by name, from :func:`site_data`'s value."""
    payload = json.dumps(data, ensure_ascii=False, sort_keys=True, separators=(",", ":"))
    payload = payload.replace("</", "<\\/")  # never closes a script element early
    files = {"index.html": _INDEX, "data.js": f"window.YGO_DATA = {payload};\n"}
    for name in ASSETS:
        files[name] = _asset(name)
    return files


def build_site(
    out: Path,
    rulebook: Rulebook,
    sentences: Mapping[str, GuardSentence],
    *,
    examples_dir: Path | None = None,
) -> list[Path]:
    """Write the site into ``out``; returns the files written. ``examples_dir`` holds the seed
    scenarios played as built-in traces (none when ``None``)."""
    examples = seed_examples(examples_dir, rulebook) if examples_dir is not None else []
    files = site_files(site_data(rulebook, sentences, examples=examples))
    out.mkdir(parents=True, exist_ok=True)
    written = []
    for name, text in files.items():
        target = out / name
        target.write_text(text, encoding="utf-8", newline="\n")
        written.append(target)
    return written


def trace_for_site(records: Sequence[TraceRecord]) -> list[dict[str, Any]]:
    """Records as the page reads them (the JSON Lines fields)."""
    return [json.loads(record.model_dump_json()) for record in records]
