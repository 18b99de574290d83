"""Load and validate the machine declarations (``machines/*.yaml``).

Validation happens in two layers:

1. **schema** — each file is read with :func:`ygo_fsm.yamlio.load_yaml` (safe, bounded YAML) and parsed into a
   :class:`~ygo_fsm.spec.MachineSpec`; a pydantic error becomes one line per field;
2. **domain** — checks across items and files: duplicate machine, state or transition ids,
   an initial/source/target state that does not exist, an unknown guard or callback name,
   an unknown sub-machine (or a machine that runs itself), a ``done`` transition from a
   state that runs no machine, an engine transition other than ``done`` from a state that
   runs one, a state that runs a machine and declares a ``priority:`` role (while the
   machine runs, its own states say who acts), a player action from a state where that
   player does not act, a state that cannot be reached from the initial state, a state
   that is neither final nor terminal and has no way out, a machine run as a sub-machine
   that has no final state, a missing or malformed rule citation, a required machine
   (``turn``) that is missing, and a cycle of engine transitions that change nothing
   (:func:`engine_cycle_issues`), on which settling would never end.

Every problem is a :class:`~ygo_fsm.errors.DefinitionIssue` naming the file, the machine
and the item; :func:`load_machines` raises :class:`~ygo_fsm.errors.MachineDefinitionError`
carrying all of them.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterable, Mapping, Sequence
from importlib import resources
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from .errors import DefinitionIssue, MachineDefinitionError
from .spec import DONE_EVENT, Actor, GuardSentence, GuardSentences, MachineSpec, TransitionSpec
from .yamlio import YamlInputError, load_yaml

#: A citation names a seed file (three digits) and a clause marker, e.g.
#: ``000 ●ドローフェイズ【２】`` or ``004 ●先攻第1回合…``.
CITATION = re.compile(r"^(\d{3}(/\d{3})*|PR17|FET|RBv10) \S")
"""A seed file number (``000``) — or, for a ``modern``-only rule the seeds do not state, an official
source: ``PR17`` (OCG Perfect Rulebook 2017), ``FET`` (the Fast Effect Timing chart), ``RBv10``
(Rulebook v10) — then the clause."""


#: The file beside the machine declarations that gives every guard its sentence (it declares
#: no machine).
GUARD_SENTENCES_FILE = "guards.yaml"


def machines_dir() -> Path:
    """Where the declarations are: inside the installed package, else the checkout's ``machines/``."""
    packaged = resources.files("ygo_fsm").joinpath("machines")
    if isinstance(packaged, Path) and packaged.is_dir():
        return packaged
    return Path(__file__).resolve().parent.parent / "machines"


def _schema_issues(file: str, machine: str, error: ValidationError) -> list[DefinitionIssue]:
    issues = []
    for item in error.errors():
        location = _location(item["loc"])
        issues.append(DefinitionIssue(file, machine, location or "(file)", item["msg"]))
    return issues


def _location(loc: Iterable[int | str]) -> str:
    text = ""
    for part in loc:
        text += f"[{part}]" if isinstance(part, int) else (f".{part}" if text else str(part))
    return text


def _describe_items(raw: Mapping[str, Any], loc: str) -> str:
    """Replace ``states[2]`` by ``states[2] (id 'x')`` when the item has an id."""
    match = re.match(r"^(states|transitions)\[(\d+)\](.*)$", loc)
    if not match:
        return loc
    items = raw.get(match.group(1))
    index = int(match.group(2))
    if isinstance(items, list) and index < len(items) and isinstance(items[index], dict):
        item_id = items[index].get("id")
        if item_id is not None:
            return f"{match.group(1)}[{index}] (id {item_id!r}){match.group(3)}"
    return loc


def parse_machine_file(path: Path) -> tuple[MachineSpec | None, list[DefinitionIssue]]:
    """Layer 1: read one file (safe YAML) and parse it into a spec."""
    file = str(path)
    try:
        raw = load_yaml(path)
    except YamlInputError as exc:
        return None, [DefinitionIssue(file, path.stem, exc.where, exc.problem)]
    if not isinstance(raw, dict):
        return None, [DefinitionIssue(file, path.stem, "(file)", "expected a mapping with id, states and transitions")]
    name = str(raw.get("id", path.stem))
    try:
        spec = MachineSpec.model_validate({**raw, "source_file": file})
    except ValidationError as exc:
        issues = _schema_issues(file, name, exc)
        return None, [
            DefinitionIssue(i.file, i.machine, _describe_items(raw, i.item), i.message) for i in issues
        ]
    return spec, []


def _reachable(spec: MachineSpec) -> set[str]:
    seen = {spec.initial}
    todo = [spec.initial]
    while todo:
        state = todo.pop()
        for transition in spec.outgoing(state):
            if transition.dest not in seen:
                seen.add(transition.dest)
                todo.append(transition.dest)
    return seen


def check_machine(
    spec: MachineSpec,
    *,
    machine_ids: Collection[str],
    guards: Collection[str],
    callbacks: Collection[str],
    choosers: Collection[str] = (),
    phases: Collection[str] = (),
    profiles: Collection[str] = (),
) -> list[DefinitionIssue]:
    """Layer 2 for one machine: the checks that need only this spec and the known names."""
    issues: list[DefinitionIssue] = []

    def issue(item: str, message: str) -> None:
        issues.append(DefinitionIssue(spec.source_file, spec.id, item, message))

    def cite(item: str, rule: str) -> None:
        if not rule.strip():
            issue(item, "missing rule citation (rule: seed file + clause, e.g. '000 ●ドローフェイズ【２】')")
        elif not CITATION.match(rule):
            issue(item, f"malformed rule citation {rule!r}: expected seed file number then clause, e.g. '000 ●…'")

    cite("machine", spec.rule)
    if not spec.states:
        issue("states", "a machine needs at least one state")
    state_ids: set[str] = set()
    for state in spec.states:
        if state.id in state_ids:
            issue(f"state {state.id}", "duplicate state id")
        state_ids.add(state.id)
        cite(f"state {state.id}", state.rule)
        if state.machine is not None:
            if state.machine not in machine_ids:
                issue(f"state {state.id}", f"unknown sub-machine {state.machine!r}")
            elif state.machine == spec.id:
                issue(f"state {state.id}", "a machine cannot run itself")
            if state.priority is not None:
                issue(f"state {state.id}", f"runs machine {state.machine!r} and declares priority: who acts "
                      "while it runs is said by the state that machine is in")
        if state.phase_effects is not None and phases and state.phase_effects not in phases:
            issue(f"state {state.id}", f"unknown phase {state.phase_effects!r} for phase_effects "
                  f"(phases: {', '.join(sorted(phases))})")
        if state.final and state.terminal:
            issue(f"state {state.id}", "a state is final or terminal, not both")
    if spec.initial not in state_ids:
        issue("initial", f"unknown initial state {spec.initial!r}")

    transition_ids: set[str] = set()
    for transition in spec.transitions:
        item = f"transition {transition.id}"
        if transition.id in transition_ids:
            issue(item, "duplicate transition id")
        transition_ids.add(transition.id)
        cite(item, transition.rule)
        for end, state_id in (("source", transition.source), ("dest", transition.dest)):
            if state_id not in state_ids:
                issue(item, f"unknown {end} state {state_id!r}")
        for name in (*transition.guards, *transition.unless):
            if name not in guards:
                issue(item, f"unknown guard {name!r}")
        for name in transition.callbacks:
            if name not in callbacks:
                issue(item, f"unknown callback {name!r}")
        if transition.profile is not None and profiles and transition.profile not in profiles:
            issue(item, f"unknown profile {transition.profile!r} (profiles: {', '.join(sorted(profiles))})")
        if transition.choices is not None:
            if transition.choices not in choosers:
                issue(item, f"unknown chooser {transition.choices!r}")
            if not transition.is_player_action:
                issue(item, "only player actions have choices")
        if transition.source not in state_ids:
            continue
        source = spec.state(transition.source)
        if source.final or source.terminal:
            issue(item, f"leaves {'final' if source.final else 'terminal'} state {source.id!r}")
        if transition.event == DONE_EVENT:
            if source.machine is None:
                issue(item, f"'{DONE_EVENT}' from state {source.id!r}, which runs no machine")
            if transition.is_player_action:
                issue(item, f"'{DONE_EVENT}' is an engine event; actor must be engine")
        elif source.machine is not None and not transition.is_player_action:
            issue(item, f"engine event {transition.event!r} from state {source.id!r}, which runs a machine "
                  f"(only '{DONE_EVENT}' leaves it)")
        if transition.is_player_action and source.machine is None and source.priority is None:
            issue(item, f"player action from state {source.id!r}, where no player acts (declare priority:)")
        if (transition.is_player_action and source.priority is not None
                and transition.actor is not Actor.priority_holder
                and source.priority.value != transition.actor.value):
            issue(item, f"actor {transition.actor.value} acts in state {source.id!r}, "
                  f"where {source.priority.value} acts")
        if transition.actor is Actor.priority_holder and source.priority is None:
            issue(item, f"actor priority_holder from state {source.id!r}, which declares no priority")

    if spec.initial in state_ids:
        reachable = _reachable(spec)
        for state in spec.states:
            if state.id not in reachable:
                issue(f"state {state.id}", f"unreachable from initial state {spec.initial!r}")
    for state in spec.states:
        if not (state.final or state.terminal) and not spec.outgoing(state.id):
            issue(f"state {state.id}", "not final and has no way out")
    return issues


def check_machines(
    specs: Iterable[MachineSpec],
    *,
    guards: Collection[str],
    callbacks: Collection[str],
    choosers: Collection[str] = (),
    phases: Collection[str] = (),
    profiles: Collection[str] = (),
) -> list[DefinitionIssue]:
    """Layer 2 for a whole set: per-machine checks plus duplicate ids and sub-machine finals."""
    specs = list(specs)
    issues: list[DefinitionIssue] = []
    by_id: dict[str, MachineSpec] = {}
    for spec in specs:
        if spec.id in by_id:
            issues.append(DefinitionIssue(spec.source_file, spec.id, "id",
                                          f"duplicate machine id (also in {by_id[spec.id].source_file})"))
            continue
        by_id[spec.id] = spec
    for spec in specs:
        issues.extend(check_machine(spec, machine_ids=by_id, guards=guards, callbacks=callbacks, choosers=choosers,
                                    phases=phases, profiles=profiles))
    for spec in specs:
        for state in spec.states:
            child = by_id.get(state.machine or "")
            if child is not None and not any(s.final for s in child.states):
                issues.append(DefinitionIssue(spec.source_file, spec.id, f"state {state.id}",
                                              f"runs machine {child.id!r}, which has no final state"))
    return issues


def _quiet_edges(spec: MachineSpec, quiet_finishers: Collection[str]) -> list[TransitionSpec]:
    """The transitions the engine may take in ``spec`` without changing any game data: engine
    transitions with no callback, and ``done`` with no callback out of a state whose machine can
    finish that way too."""
    edges = []
    for transition in spec.transitions:
        if transition.is_player_action or transition.callbacks:
            continue
        if transition.event == DONE_EVENT:
            source = next((s for s in spec.states if s.id == transition.source), None)
            if source is None or source.machine not in quiet_finishers:
                continue
        edges.append(transition)
    return edges


def _quiet_finishers(by_id: Mapping[str, MachineSpec]) -> set[str]:
    """Machines that can go from their initial state to a final one by quiet engine steps alone."""
    finishers: set[str] = set()
    changed = True
    while changed:
        changed = False
        for spec in by_id.values():
            if spec.id in finishers:
                continue
            edges = _quiet_edges(spec, finishers)
            seen, todo = {spec.initial}, [spec.initial]
            while todo:
                state = todo.pop()
                for edge in edges:
                    if edge.source == state and edge.dest not in seen:
                        seen.add(edge.dest)
                        todo.append(edge.dest)
            if any(state.final and state.id in seen for state in spec.states):
                finishers.add(spec.id)
                changed = True
    return finishers


def _simple_cycles(edges: Sequence[TransitionSpec], limit: int = 20) -> list[list[TransitionSpec]]:
    """Up to ``limit`` elementary cycles of the graph ``edges`` (each once, from its least state)."""
    cycles: list[list[TransitionSpec]] = []
    states = sorted({e.source for e in edges} | {e.dest for e in edges})
    for start in states:
        stack: list[tuple[str, list[TransitionSpec]]] = [(start, [])]
        while stack and len(cycles) < limit:
            state, path = stack.pop()
            for edge in edges:
                if edge.source != state:
                    continue
                if edge.dest == start:
                    cycles.append([*path, edge])
                elif edge.dest > start and all(step.source != edge.dest for step in path):
                    stack.append((edge.dest, [*path, edge]))
    return cycles


def _contradictory(cycle: Sequence[TransitionSpec]) -> bool:
    """A guard that must hold for one step and not hold for another: with nothing changing, the
    cycle cannot be gone round."""
    required = {name for step in cycle for name in step.guards}
    return any(name in required for step in cycle for name in step.unless)


def engine_cycle_issues(specs: Iterable[MachineSpec]) -> list[DefinitionIssue]:
    """Cycles made only of engine transitions that change nothing (no callback on any of them):
    once the engine is on one with its guards holding, the guards hold again the next time round
    and settling never ends. A cycle whose guards contradict each other cannot be gone round and
    is not reported; cycles whose callbacks change the game (a chain link resolving, the next
    turn beginning) are bounded at run time (``EngineError`` beyond the settle limit)."""
    by_id = {spec.id: spec for spec in specs}
    finishers = _quiet_finishers(by_id)
    issues: list[DefinitionIssue] = []
    for spec in by_id.values():
        for cycle in _simple_cycles(_quiet_edges(spec, finishers)):
            if _contradictory(cycle):
                continue
            path = " → ".join([cycle[0].source, *(step.dest for step in cycle)])
            steps = ", ".join(f"{step.id}{_conditions(step)}" for step in cycle)
            issues.append(DefinitionIssue(
                spec.source_file, spec.id, f"transition {cycle[0].id}",
                f"engine-only cycle {path} ({steps}): no transition on it changes the game (no callback), so once "
                "these guards hold the engine goes round forever"))
    return issues


def _conditions(step: TransitionSpec) -> str:
    terms = [*step.guards, *(f"not {name}" for name in step.unless)]
    return f" [{' and '.join(terms)}]" if terms else " [no guard]"


def load_machines(
    directory: Path | None = None,
    *,
    guards: Collection[str],
    callbacks: Collection[str],
    choosers: Collection[str] = (),
    phases: Collection[str] = (),
    profiles: Collection[str] = (),
    required: Collection[str] = (),
    require_guard_sentences: bool = False,
) -> dict[str, MachineSpec]:
    """Read and validate every ``*.yaml`` file in ``directory`` (default :func:`machines_dir`);
    the machine ids in ``required`` must be among them (a duel needs ``turn``).

    Returns the specs by id, in file-name order. The guard sentences
    (:data:`GUARD_SENTENCES_FILE`) are checked too when the directory has that file or
    ``require_guard_sentences`` is set: every guard a transition uses needs one. Raises
    :class:`~ygo_fsm.errors.MachineDefinitionError` listing every problem found.
    """
    directory = machines_dir() if directory is None else directory
    files = [path for path in sorted(directory.glob("*.yaml")) if path.name != GUARD_SENTENCES_FILE]
    issues: list[DefinitionIssue] = []
    specs: list[MachineSpec] = []
    if not files:
        issues.append(DefinitionIssue(str(directory), "-", "(directory)", "no machine declarations (*.yaml)"))
    for path in files:
        spec, found = parse_machine_file(path)
        issues.extend(found)
        if spec is not None:
            specs.append(spec)
    if not issues:
        issues.extend(check_machines(specs, guards=guards, callbacks=callbacks, choosers=choosers, phases=phases,
                                     profiles=profiles))
        found_ids = {spec.id for spec in specs}
        for machine_id in required:
            if files and machine_id not in found_ids:
                message = f"no machine {machine_id!r} (a duel starts in it): add {machine_id}.yaml"
                issues.append(DefinitionIssue(str(directory), machine_id, "(directory)", message))
    if not issues:
        issues.extend(engine_cycle_issues(specs))
    sentences_path = directory / GUARD_SENTENCES_FILE
    if sentences_path.exists():
        sentences, found = parse_guard_sentences(sentences_path)
        issues.extend(found)
        if sentences is not None:
            issues.extend(check_guard_sentences(specs, sentences, guards=guards, file=str(sentences_path)))
    elif require_guard_sentences:
        issues.extend(check_guard_sentences(specs, {}, guards=guards, file=f"{sentences_path} (no such file)"))
    if issues:
        raise MachineDefinitionError(issues)
    return {spec.id: spec for spec in specs}


# --------------------------------------------------------------------------- guard sentences


def parse_guard_sentences(path: Path) -> tuple[dict[str, GuardSentence] | None, list[DefinitionIssue]]:
    """Read the guard-sentence file (safe YAML): ``guards: {name: {zh, en, rule, profile}}``."""
    file = str(path)
    item = "guards"
    if not path.exists():
        return None, [DefinitionIssue(file, item, "(file)", "missing: every guard needs a sentence (zh, en, rule)")]
    try:
        raw = load_yaml(path)
    except YamlInputError as exc:
        return None, [DefinitionIssue(file, item, exc.where, exc.problem)]
    if not isinstance(raw, dict):
        return None, [DefinitionIssue(file, item, "(file)", "expected a mapping 'guards: {name: {zh, en, rule}}'")]
    try:
        parsed = GuardSentences.model_validate(raw)
    except ValidationError as exc:
        return None, _schema_issues(file, item, exc)
    return dict(parsed.guards), []


def check_guard_sentences(
    specs: Iterable[MachineSpec],
    sentences: Mapping[str, GuardSentence],
    *,
    guards: Collection[str],
    file: str,
) -> list[DefinitionIssue]:
    """Every known guard a transition uses has a sentence; every sentence names a known guard
    and cites its rule (DESIGN "Layers" 1: each guard with a zh/en sentence)."""
    issues: list[DefinitionIssue] = []
    for spec in specs:
        for transition in spec.transitions:
            for name in dict.fromkeys((*transition.guards, *transition.unless)):
                if name in guards and name not in sentences:
                    issues.append(DefinitionIssue(spec.source_file, spec.id, f"transition {transition.id}",
                                                  f"guard {name!r} has no sentence in {file}"))
    for name, sentence in sentences.items():
        if name not in guards:
            issues.append(DefinitionIssue(file, "guards", f"guard {name}", "sentence for an unknown guard"))
        if not sentence.rule.strip():
            issues.append(DefinitionIssue(file, "guards", f"guard {name}", "missing rule citation (rule: seed "
                                          "file + clause, e.g. '000 ●ドローフェイズ【２】')"))
        elif not CITATION.match(sentence.rule):
            issues.append(DefinitionIssue(file, "guards", f"guard {name}", f"malformed rule citation "
                                          f"{sentence.rule!r}: expected seed file number then clause"))
    return issues


def load_guard_sentences(directory: Path | None = None) -> dict[str, GuardSentence]:
    """The guard sentences beside the declarations in ``directory`` (default :func:`machines_dir`);
    empty when that directory has no :data:`GUARD_SENTENCES_FILE`. Raises
    :class:`~ygo_fsm.errors.MachineDefinitionError` when the file is malformed."""
    directory = machines_dir() if directory is None else directory
    path = directory / GUARD_SENTENCES_FILE
    if not path.exists():
        return {}
    sentences, issues = parse_guard_sentences(path)
    if issues or sentences is None:
        raise MachineDefinitionError(issues)
    return sentences
