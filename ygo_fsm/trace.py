"""State traces: one frozen record per transition, JSON Lines on disk, and a narrator.

A record says which machine moved, from which state to which, on which event, who caused
it (``A``, ``B`` or ``engine``), who holds priority once it is taken, what is on the chain
(CHAIN1 first), and the rule clause the transition implements. ``state`` is the full state
path once the transition (and the entry into any machine its target runs) is done.

>>> record = TraceRecord(seq=1, turn=1, turn_player="A", machine="priority",
...     source="turn_player", dest="opponent", event="pass", transition="turn_player_passes",
...     actor="A", priority="B", rule="000 ●…", state="main_phase_1.open.opponent")
>>> TraceRecord.model_validate_json(record.model_dump_json()) == record
True
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, ValidationError

from .english import english_detail
from .errors import TraceFormatError
from .spec import Lang, MachineSpec
from .yamlio import YamlInputError, read_text

MAX_TRACE_BYTES = 64 * 1024 * 1024
"""The largest trace file read (64 MiB)."""


class ChainLink(BaseModel):
    """One link of a chain as the trace records it."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    number: int
    card: str
    controller: str
    spell_speed: int
    negated: bool = False
    negation: Literal["", "activation", "effect"] = ""
    """How it was negated: its activation, or its effect (PR17 p.153)."""


class TraceRecord(BaseModel):
    """One transition."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    seq: int
    turn: int
    turn_player: str
    machine: str
    source: str
    dest: str
    event: str
    transition: str
    actor: str
    priority: str | None
    chain: tuple[ChainLink, ...] = ()
    rule: str
    state: str
    choice: str | None = None
    """The option the player chose (which effect, which target), for actions with choices."""
    detail: tuple[str, ...] = ()
    """What happened in game terms, in the seeds' words (``CHAIN1 …``, ``逆算``, ``… 效果处理``)."""


def dumps(records: Iterable[TraceRecord]) -> str:
    """JSON Lines text: one record per line."""
    return "".join(record.model_dump_json() + "\n" for record in records)


def write_jsonl(records: Iterable[TraceRecord], path: Path) -> None:
    path.write_text(dumps(records), encoding="utf-8")


def loads(text: str, *, source: str = "<trace>") -> list[TraceRecord]:
    """Parse JSON Lines text; a bad line raises :class:`TraceFormatError` naming it."""
    records = []
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            records.append(TraceRecord.model_validate_json(line))
        except ValidationError as exc:
            first = exc.errors()[0]
            where = ".".join(str(part) for part in first["loc"]) or "(record)"
            raise TraceFormatError(f"{source}: line {number}: {where}: {first['msg']}") from exc
    return records


def read_jsonl(path: Path) -> list[TraceRecord]:
    """Read a JSON Lines trace (UTF-8, at most :data:`MAX_TRACE_BYTES`)."""
    try:
        text = read_text(path, limit=MAX_TRACE_BYTES)
    except YamlInputError as exc:
        raise TraceFormatError(str(exc)) from exc
    return loads(text, source=str(path))


_ACTOR = {
    Lang.zh: {"engine": "", "turn_player": "回合玩家", "opponent": "对方玩家"},
    Lang.en: {"engine": "", "turn_player": "turn player", "opponent": "opponent"},
}


def narrate(
    records: Sequence[TraceRecord],
    specs: dict[str, MachineSpec],
    *,
    lang: Lang | str = Lang.zh,
    rules: bool = True,
) -> str:
    """The trace as readable text, one line per transition, in the seeds' style.

    Each line gives the turn, the phase (from the state path), who acted, what happened
    (the transition's label) and, with ``rules``, the clause cited. A turn header starts
    each turn. In English (``lang="en"``) what happened in game terms (the records' ``detail``)
    is told in English too (:func:`ygo_fsm.english.english_detail`); the clauses cited stay
    as the seeds write them.
    """
    lang = Lang(lang)
    lines: list[str] = []
    turn_seen: int | None = None
    for record in records:
        if record.turn != turn_seen:
            turn_seen = record.turn
            header = (f"第{record.turn}回合（回合玩家 {record.turn_player}）" if lang is Lang.zh
                      else f"Turn {record.turn} (turn player {record.turn_player})")
            lines.append("━━ " + header + " ━━")
        spec = specs.get(record.machine)
        label = record.event
        where = record.machine
        if spec is not None:
            where = _where(record, specs, lang)
            for transition in spec.transitions:
                if transition.id == record.transition:
                    label = transition.label.text(lang)
                    break
        who = ""
        if record.actor != "engine":
            role = "turn_player" if record.actor == record.turn_player else "opponent"
            who = f"{_ACTOR[lang][role]} {record.actor}: "
        choice = f" ‹{record.choice}›" if record.choice else ""
        line = f"{record.seq:>4}  [{where}] {who}{label}{choice}"
        if rules:
            line += f"  〔{record.rule}〕" if lang is Lang.zh else f"  [{record.rule}]"
        lines.append(line)
        lines.extend(f"        {english_detail(text) if lang is Lang.en else text}" for text in record.detail)
    return "\n".join(lines) + ("\n" if lines else "")


_QUIET_MACHINES = ("chain",)
_STEP_MACHINES = ("draw_phase", "end_phase", "battle_phase", "attack_declaration", "damage_step", "summon_procedure")
"""Machines whose steps the story names as they begin (the seeds' ↓ 进入伤害阶段, 『抽卡时』的时点 …)."""


def story(records: Sequence[TraceRecord], specs: dict[str, MachineSpec]) -> str:
    """The trace told the way the seeds tell their examples (Chinese, one step a line):
    the phases entered, what each player did with priority, every chain link
    (``CHAIN1 对方B发动「…」``), ``逆算`` and each link's resolution, and when a window closed.

    Engine steps that change nothing a player sees (entering a state, a window opening) and
    the passes inside a chain are left out; :func:`narrate` gives every transition.
    """
    lines: list[str] = []
    turn_seen: int | None = None
    for record in records:
        if record.turn != turn_seen:
            turn_seen = record.turn
            lines.append(f"━━ 第{record.turn}回合（回合玩家 {record.turn_player}）")
        spec = specs.get(record.machine)
        transition = next((t for t in spec.transitions if t.id == record.transition), None) if spec else None
        if (record.machine in _STEP_MACHINES and transition is not None and record.actor == "engine"
                and spec is not None and spec.state(record.dest).machine is not None):
            lines.extend(record.detail)  # what the step just left did (e.g. the damage calculation)
            lines.append(f"▸{spec.state(record.dest).label.zh}")
            continue
        if record.detail:
            lines.extend(record.detail)
            continue
        if record.machine == "turn" and transition is not None:
            state = specs["turn"].state(record.dest)
            if state.machine is not None or record.dest == "turn_end":
                lines.append(f"●{state.label.zh}")
            continue
        if record.transition == "priority_returns":
            lines.append("（优先权归还给回合玩家）")
            continue
        if transition is None or record.machine in _QUIET_MACHINES:
            continue
        if record.actor != "engine":
            role = "回合玩家" if record.actor == record.turn_player else "对方玩家"
            lines.append(f"{role}{record.actor}：{transition.label.zh}")
    return "\n".join(lines) + ("\n" if lines else "")


def _where(record: TraceRecord, specs: dict[str, MachineSpec], lang: Lang) -> str:
    """The phase/step label the record happened in: labels along its path, priority omitted."""
    names: list[str] = []
    machine = "turn"
    for part in record.state.split("."):
        spec = specs.get(machine)
        if spec is None:
            break
        try:
            state = spec.state(part)
        except KeyError:
            break
        if state.machine is not None or machine == record.machine:
            names.append(state.label.text(lang))
        if machine == record.machine:
            break
        machine = state.machine or ""
    return " › ".join(names[:2]) if names else record.machine


def records_to_json(records: Iterable[TraceRecord]) -> list[dict[str, object]]:
    """Plain JSON-able dicts (for tools that do not want pydantic objects)."""
    return [json.loads(record.model_dump_json()) for record in records]
