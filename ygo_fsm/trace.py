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
from typing import Any, Literal

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


class Counts(BaseModel):
    """A number per player (LP, cards in hand) once a transition is taken."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    A: int
    B: int


class RecordView(BaseModel):
    """What one player is shown of a record where it differs from the judge's record: the option
    and the narration with every card hidden from that player named by its place
    (``B.spell_trap.1``, :mod:`ygo_fsm.views`)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    player: str
    choice: str | None = None
    detail: tuple[str, ...] = ()


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
    auto_pass: bool = False
    """The duel passed for ``actor``, whose only legal action was ``pass`` (``Duel(auto_pass=…)``)."""
    lp: Counts | None = None
    """Both players' LP once the transition is taken (``None`` in traces written before it was recorded)."""
    hand: Counts | None = None
    """The number of cards in each player's hand once the transition is taken."""
    views: tuple[RecordView, ...] = ()
    """The players' views of ``choice`` and ``detail`` where they name a card hidden from that
    player; a player not listed is shown the record as it is (``Duel.trace_for``)."""

    def for_player(self, player: str) -> TraceRecord:
        """The record as ``player`` may see it (hidden cards named by their place)."""
        view = next((v for v in self.views if v.player == player), None)
        if view is None:
            return self.model_copy(update={"views": ()}) if self.views else self
        return self.model_copy(update={"choice": view.choice, "detail": view.detail, "views": ()})


TRACE_FORMAT: Literal["ygo-fsm/trace"] = "ygo-fsm/trace"
TRACE_VERSION = 1


class TraceHeader(BaseModel):
    """The first line of a trace file: what the duel started from (its setup, profile
    included), so that narrating it or replaying it needs nothing else. The actions are the
    records' player transitions (:func:`actions`)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    format: Literal["ygo-fsm/trace"] = TRACE_FORMAT
    version: int = TRACE_VERSION
    profile: str
    setup: dict[str, Any]
    """The :class:`~ygo_fsm.game.Setup` as JSON (``Setup.model_validate`` reads it back)."""


class Refusal(BaseModel):
    """An action a duel refused (recorded when the duel keeps them: ``Duel(record_refusals=True)``)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    after: int
    """The seq of the last transition taken before the attempt (0: before any)."""
    action: str
    player: str | None = None
    reason: str


class Trace(BaseModel):
    """A trace file read back: its header (``None`` for files written before headers), its
    records, and the refused attempts it holds."""

    model_config = ConfigDict(frozen=True)

    header: TraceHeader | None = None
    records: tuple[TraceRecord, ...] = ()
    refusals: tuple[Refusal, ...] = ()


def dumps(records: Iterable[TraceRecord], *, header: TraceHeader | None = None,
          refusals: Iterable[Refusal] = ()) -> str:
    """JSON Lines text: the header (if given), then one record per line; each refused attempt
    follows the record it came after, as ``{"refused": {...}}``."""
    lines = [header.model_dump_json() + "\n"] if header is not None else []
    waiting = sorted(refusals, key=lambda refusal: refusal.after)
    lines += ['{"refused":' + r.model_dump_json() + "}\n" for r in waiting if r.after <= 0]
    waiting = [r for r in waiting if r.after > 0]
    for record in records:
        lines.append(record.model_dump_json() + "\n")
        while waiting and waiting[0].after <= record.seq:
            lines.append('{"refused":' + waiting.pop(0).model_dump_json() + "}\n")
    lines += ['{"refused":' + r.model_dump_json() + "}\n" for r in waiting]
    return "".join(lines)


def write_jsonl(records: Iterable[TraceRecord], path: Path, *, header: TraceHeader | None = None,
                refusals: Iterable[Refusal] = ()) -> None:
    path.write_text(dumps(records, header=header, refusals=refusals), encoding="utf-8")


def parse_trace(text: str, *, source: str = "<trace>") -> Trace:
    """Parse a trace file: an optional header line, then records (and refused attempts); a bad
    line raises :class:`TraceFormatError` naming it."""
    header: TraceHeader | None = None
    records: list[TraceRecord] = []
    refusals: list[Refusal] = []
    seen_line = False
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            if not seen_line and f'"format":"{TRACE_FORMAT}"' in line.replace(" ", ""):
                header = TraceHeader.model_validate_json(line)
            elif line.lstrip().startswith('{"refused"'):
                refusals.append(_RefusalLine.model_validate_json(line).refused)
            else:
                records.append(TraceRecord.model_validate_json(line))
        except ValidationError as exc:
            first = exc.errors()[0]
            where = ".".join(str(part) for part in first["loc"]) or "(record)"
            raise TraceFormatError(f"{source}: line {number}: {where}: {first['msg']}") from exc
        seen_line = True
    return Trace(header=header, records=tuple(records), refusals=tuple(refusals))


class _RefusalLine(BaseModel):
    model_config = ConfigDict(extra="forbid")

    refused: Refusal


def loads(text: str, *, source: str = "<trace>") -> list[TraceRecord]:
    """The records of JSON Lines trace text (a header line, if any, and refused attempts are
    skipped); a bad line raises :class:`TraceFormatError` naming it."""
    return list(parse_trace(text, source=source).records)


def read_trace(path: Path) -> Trace:
    """A trace file with its header (see :func:`parse_trace`)."""
    try:
        text = read_text(path, limit=MAX_TRACE_BYTES)  # UTF-8, bounded
    except YamlInputError as exc:
        raise TraceFormatError(str(exc)) from exc
    return parse_trace(text, source=str(path))


def read_jsonl(path: Path) -> list[TraceRecord]:
    """The records of a trace file (with or without a header)."""
    return list(read_trace(path).records)


def actions(records: Iterable[TraceRecord]) -> list[tuple[str, str, str | None]]:
    """The player actions a trace records, in order — (event, player, option): every
    transition a player took (the engine's follow from them). With the header's setup they
    replay the duel (``Duel.from_trace``)."""
    return [(record.event, record.actor, record.choice) for record in records if record.actor != "engine"]


_ACTOR = {
    Lang.zh: {"engine": "", "turn_player": "回合玩家", "opponent": "对方玩家"},
    Lang.en: {"engine": "", "turn_player": "turn player", "opponent": "opponent"},
}


_AUTO_PASS = {Lang.zh: "（自动）", Lang.en: " (auto)"}
"""How :func:`narrate` flags a pass the duel took for the player (auto-pass)."""


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
        if record.auto_pass:
            choice += _AUTO_PASS[lang]
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
