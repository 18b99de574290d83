"""The ``ygo-fsm`` command line (also ``python -m ygo_fsm``).

Commands
========
``check [--machines DIR]``
    Load and validate the machine declarations; print ``ok: N machines, S states,
    T transitions``, or each problem on its own line (file, machine, item) on stderr.
``list [--lang zh|en]``
    Every machine with its label and its states.
``explain STATE [--lang zh|en|both]``
    A state — by full path (``main_phase_1.open.turn_player``), ``machine.state``
    (``end_phase.hand_size_adjustment``) or a state id found in one machine only — with its
    rule, the machine it runs, who must act there, its transitions out and what each player
    may do there.
``render [--out DIR] [--lang zh|en|both] [--no-svg]``
    Write the diagrams (``<machine>.dot``, ``.mmd``, ``.svg`` and ``README.md``) into DIR
    (default ``diagrams``). SVG needs Graphviz's ``dot``.
``run FILE... [--narrate] [--lang zh|en] [--trace OUT.jsonl] [--quiet]``
    Play scenario files (a directory stands for its ``*.yaml`` files); see
    :mod:`ygo_fsm.scenario` for the format.
``schema scenario|trace|machine``
    Print a JSON Schema.
``narrate TRACE.jsonl [--lang zh|en]``
    Print the narration of a JSON Lines trace (``run --trace`` writes a header line with the
    setup first; files without it are read too).

Exit codes: 0 ok; 1 an expectation in a scenario failed; 2 invalid input (bad YAML, schema
error, unknown state, an illegal action the scenario did not expect, …), reported as one
line on stderr that names the file and the item — never a traceback.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import shutil
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, TextIO

from . import __version__
from .engine import Rulebook, default_rulebook
from .errors import MachineDefinitionError, ScenarioError, YgoFsmError
from .scenario import Outcome, ScenarioResult, load_scenario, run_scenario, scenario_json_schema
from .spec import Actor, Lang, MachineSpec, Role, StateSpec, TransitionSpec
from .trace import TraceRecord, narrate, read_jsonl, story, write_jsonl

PROG = "ygo-fsm"
BROKEN_PIPE = 141
"""Exit code when stdout is closed early (as a shell reports a process killed by SIGPIPE)."""
_GENERATED_SUFFIXES = (".dot", ".mmd", ".svg")


class UsageError(Exception):
    """A user error the CLI reports as one line on stderr, exit code 2."""


def _utf8(stream: TextIO) -> None:
    encoding = (getattr(stream, "encoding", None) or "").lower().replace("-", "").replace("_", "")
    reconfigure: Callable[..., None] | None = getattr(stream, "reconfigure", None)
    if encoding != "utf8" and reconfigure is not None:
        with contextlib.suppress(ValueError, OSError):  # a stream already written in another encoding
            reconfigure(encoding="utf-8")


def _out(text: str = "") -> None:
    print(text)


def _err(text: str) -> None:
    print(text, file=sys.stderr)


# --- check ------------------------------------------------------------------------------


def _cmd_check(args: argparse.Namespace) -> int:
    try:
        rulebook = Rulebook.load(args.machines)
    except MachineDefinitionError as exc:
        for issue in exc.issues:
            _err(str(issue))
        return 2
    specs = rulebook.specs.values()
    states = sum(len(spec.states) for spec in specs)
    transitions = sum(len(spec.transitions) for spec in specs)
    _out(f"ok: {len(rulebook.specs)} machines, {states} states, {transitions} transitions")
    return 0


# --- list -------------------------------------------------------------------------------


def _state_marks(state: StateSpec, initial: bool) -> str:
    marks = []
    if initial:
        marks.append("initial")
    if state.machine is not None:
        marks.append(f"▶ runs {state.machine}")
    if state.priority is not None:
        marks.append(f"{state.priority.value} acts")
    if state.final:
        marks.append("final")
    if state.terminal:
        marks.append("terminal: the duel ends")
    return f"  ({'; '.join(marks)})" if marks else ""


def _cmd_list(args: argparse.Namespace) -> int:
    lang = Lang(args.lang)
    for number, spec in enumerate(default_rulebook().specs.values()):
        if number:
            _out()
        _out(f"{spec.id} — {spec.label.text(lang)}  [{spec.rule}]")
        width = max(len(state.id) for state in spec.states)
        for state in spec.states:
            marks = _state_marks(state, state.id == spec.initial)
            _out(f"    {state.id:<{width}}  {state.label.text(lang)}{marks}")
    return 0


# --- explain ----------------------------------------------------------------------------

_ROLE_TEXT = {
    Role.turn_player: "the turn player",
    Role.opponent: "the opponent",
    Role.responder: "the player who may respond to the newest link",
    Role.last_activator: "the player who added the newest link",
    Role.trigger_player: "the player whose triggers are being placed",
}
_ACTOR_TEXT = {Actor.turn_player: "turn player", Actor.opponent: "opponent",
               Actor.priority_holder: "player with priority", Actor.engine: "engine"}


def _langs(lang: str) -> tuple[Lang, ...]:
    return (Lang.zh, Lang.en) if lang == "both" else (Lang(lang),)


def _label(label: Any, langs: Sequence[Lang]) -> str:
    return " / ".join(label.text(lang) for lang in langs)


def _guards(transition: TransitionSpec) -> str:
    terms = [*transition.guards, *(f"¬{name}" for name in transition.unless)]
    return f" [{' ∧ '.join(terms)}]" if terms else ""


def _callbacks(transition: TransitionSpec) -> str:
    return f" / {', '.join(transition.callbacks)}" if transition.callbacks else ""


def _resolve(rulebook: Rulebook, name: str) -> tuple[list[tuple[str, StateSpec]] | None, str, StateSpec]:
    """``(path or None, machine id, state)`` for a full path, ``machine.state`` or a unique id."""
    try:
        path = rulebook.resolve_path(name)
    except KeyError:
        path = None
    if path is not None:
        machine, state = path[-1]
        return path, machine, state
    try:
        machine, state = rulebook.find_state(name)
    except KeyError:
        candidates = [f"{spec.id}.{name}" for spec in rulebook.specs.values() if name in spec.state_ids()]
        if len(candidates) > 1:
            raise UsageError(f"explain: state {name!r} is in several machines; give one of: "
                             f"{', '.join(candidates)}") from None
        raise UsageError(f"explain: unknown state {name!r}; give a full path (main_phase_1.open.turn_player), "
                         "machine.state (end_phase.hand_size_adjustment) or a state id; "
                         f"`{PROG} list` shows them") from None
    return None, machine, state


def _who_acts(rulebook: Rulebook, path: list[tuple[str, StateSpec]] | None, state: StateSpec) -> str:
    if path is not None:
        for machine, step in reversed(path):
            if step.priority is not None:
                where = "" if step is state else f" (declared by {machine}.{step.id})"
                return f"{_ROLE_TEXT[step.priority]}{where}"
    if state.priority is not None:
        return _ROLE_TEXT[state.priority]
    if state.terminal:
        return "nobody: the duel is over"
    if state.final:
        return "nobody: the machine is finished and the state that runs it receives 'done'"
    if state.machine is not None:
        child = rulebook.specs[state.machine]
        first = child.state(child.initial).priority
        if first is not None:
            return f"the players, in machine {child.id}: {_ROLE_TEXT[first]} first"
        return f"the players act in the states of machine {child.id} (see below)"
    return "nobody: the engine moves on by itself"


def _transition_lines(transition: TransitionSpec, langs: Sequence[Lang], indent: str) -> list[str]:
    actor = _ACTOR_TEXT[transition.actor]
    return [
        f"{indent}{transition.event} ({actor}){_guards(transition)}{_callbacks(transition)} → {transition.dest}"
        f"   [transition {transition.id}]",
        f"{indent}    {_label(transition.label, langs)}",
        f"{indent}    rule: {transition.rule}",
    ]


def _actions_by_role(spec: MachineSpec, state: StateSpec) -> dict[Role, list[TransitionSpec]]:
    found: dict[Role, list[TransitionSpec]] = {role: [] for role in Role}
    for transition in spec.outgoing(state.id):
        if transition.is_player_action:
            role = state.priority if transition.actor is Actor.priority_holder else Role(transition.actor.value)
            if role is not None:
                found[role].append(transition)
    return found


def _action_text(transition: TransitionSpec) -> str:
    return f"{transition.event}{_guards(transition)} → {transition.dest}"


def _player_lines(
    rulebook: Rulebook, path: list[tuple[str, StateSpec]] | None, machine: str, state: StateSpec,
    langs: Sequence[Lang],
) -> list[str]:
    """What each player may do in ``state``."""
    spec = rulebook.specs[machine]
    lines: list[str] = []
    own = _actions_by_role(spec, state)
    hidden = {t.event for transitions in own.values() for t in transitions}
    outer: dict[Role, list[tuple[str, TransitionSpec]]] = {role: [] for role in Role}
    if path is not None:
        for outer_machine, outer_state in reversed(path[:-1]):
            found = _actions_by_role(rulebook.specs[outer_machine], outer_state)
            for role, transitions in found.items():
                outer[role].extend((f"{outer_machine}.{outer_state.id}", t) for t in transitions
                                   if t.event not in hidden)
            hidden |= {t.event for transitions in found.values() for t in transitions}
    if state.priority is not None or any(own.values()) or any(outer.values()):
        shown = [Role.turn_player, Role.opponent]
        shown += [r for r in Role if r not in shown and (own[r] or outer[r] or state.priority is r)]
        for role in shown:
            actions = [_action_text(t) for t in own[role]]
            actions += [f"{_action_text(t)} (from {where})" for where, t in outer[role]]
            if actions:
                lines.append(f"  {_ROLE_TEXT[role]}: {'; '.join(actions)}")
            elif state.priority is not None and state.priority is not role:
                lines.append(f"  {_ROLE_TEXT[role]}: nothing; {_ROLE_TEXT[state.priority]} must act here")
            else:
                lines.append(f"  {_ROLE_TEXT[role]}: nothing")
    if state.machine is not None:
        child = rulebook.specs[state.machine]
        acting = [s for s in child.states if s.priority is not None]
        if acting:
            roles = [s.priority for s in acting if s.priority is not None]
            first = child.state(child.initial).priority
            if first in (Role.turn_player, Role.opponent) and len(set(roles)) > 1:
                second = Role.opponent if first is Role.turn_player else Role.turn_player
                closing = [s for s in child.states if s.final]
                rule = f" [{closing[0].rule}]" if closing and closing[0].rule else ""
                lines.append(f"  Machine {child.id} runs here: {_ROLE_TEXT[first]} acts or passes first, then "
                             f"{_ROLE_TEXT[second]} acts or passes; when both pass in succession it finishes "
                             f"and this state is left by 'done'{rule}.")
            else:
                lines.append(f"  Machine {child.id} runs here; players act in its states:")
            for child_state in acting:
                assert child_state.priority is not None
                actions = [_action_text(t) for t in child.outgoing(child_state.id) if t.is_player_action]
                lines.append(f"    {child.id}.{child_state.id} ({_ROLE_TEXT[child_state.priority]}): "
                             f"{'; '.join(actions) or 'nothing'}")
        else:
            nested = [s for s in child.states if s.machine is not None]
            lines.append(f"  Machine {child.id} runs here; players act inside its states "
                         + ", ".join(f"{child.id}.{s.id} (▶ {s.machine})" for s in nested) + "."
                         if nested else f"  Machine {child.id} runs here; no player acts in it.")
    if not lines:
        if state.terminal:
            lines.append("  nothing: the duel is over")
        elif state.final:
            lines.append(f"  nothing: {machine} is finished here")
        else:
            lines.append("  nothing: no player acts here; the engine moves on")
    return lines


def _cmd_explain(args: argparse.Namespace) -> int:
    rulebook = default_rulebook()
    langs = _langs(args.lang)
    path, machine, state = _resolve(rulebook, args.state)
    spec = rulebook.specs[machine]
    _out(f"{args.state} — state {state.id} of machine {machine} ({_label(spec.label, langs)})")
    for lang in langs:
        _out(f"  {lang.value}: {state.label.text(lang)}")
    _out(f"  rule: {state.rule or '(none)'}")
    if path is not None and len(path) > 1:
        _out(f"  path: {' › '.join(f'{owner}.{step.id}' for owner, step in path)}")
        for lang in langs:
            _out(f"        {' › '.join(step.label.text(lang) for _, step in path)}")
    kind = []
    if state.id == spec.initial:
        kind.append(f"the initial state of {machine}")
    if state.final:
        kind.append(f"final: {machine} is finished, its parent receives 'done'")
    if state.terminal:
        kind.append("terminal: the duel ends here")
    if kind:
        _out(f"  kind: {'; '.join(kind)}")
    if state.machine is not None:
        child = rulebook.specs[state.machine]
        _out(f"  runs machine: {child.id} ({_label(child.label, langs)}), starting at {child.initial}")
    else:
        _out("  runs machine: none")
    _out(f"  who must act: {_who_acts(rulebook, path, state)}")
    outgoing = spec.outgoing(state.id)
    _out("transitions out:" if outgoing else "transitions out: none")
    for transition in outgoing:
        for line in _transition_lines(transition, langs, "  "):
            _out(line)
    _out("what each player may do here:")
    for line in _player_lines(rulebook, path, machine, state, langs):
        _out(line)
    if args.dot:
        from . import render  # lazily: rendering is optional for the rest of the CLI

        _out()
        _out(render.to_dot(spec, lang=args.lang, highlight=state.id).rstrip("\n"))
    return 0


# --- render -----------------------------------------------------------------------------


def _is_generated(path: Path) -> bool:
    try:
        with path.open(encoding="utf-8", errors="replace") as handle:
            return "ygo-fsm" in handle.read(2000)
    except OSError:
        return False


def _cmd_render(args: argparse.Namespace) -> int:
    try:
        from . import render  # lazily: the rest of the CLI works without it
    except ImportError as exc:
        raise UsageError(f"render: diagram rendering is not available ({exc})") from exc
    svg = not args.no_svg
    if svg and shutil.which("dot") is None:
        raise UsageError("render: Graphviz's 'dot' is not installed; install Graphviz (e.g. 'sudo apt-get install "
                         "graphviz' or 'brew install graphviz') or pass --no-svg")
    rulebook = Rulebook.load(args.machines) if args.machines else default_rulebook()
    try:
        files = render.render_all(list(rulebook.specs.values()), lang=args.lang, svg=svg)
    except (RuntimeError, ValueError) as exc:
        raise UsageError(f"render: {exc}") from exc
    out: Path = args.out
    try:
        out.mkdir(parents=True, exist_ok=True)
        for name, text in files.items():
            target = out / name
            target.write_text(text, encoding="utf-8", newline="\n")
            _out(str(target))
        for stale in sorted(out.iterdir()):
            if (stale.suffix in _GENERATED_SUFFIXES and stale.is_file() and stale.stem not in rulebook.specs
                    and _is_generated(stale)):
                stale.unlink()
                _out(f"removed {stale} (no such machine)")
    except OSError as exc:
        raise UsageError(f"render: {out}: {exc.strerror or exc}") from exc
    return 0


# --- run --------------------------------------------------------------------------------


def _scenario_files(arguments: Sequence[str]) -> list[Path]:
    files: list[Path] = []
    for argument in arguments:
        path = Path(argument)
        if path.is_dir():
            found = sorted(path.glob("*.yaml"))
            if not found:
                raise UsageError(f"run: {path}: no scenario files (*.yaml)")
            files.extend(found)
        else:
            files.append(path)
    return files


def _one_line(text: str) -> str:
    return text.splitlines()[0] if text else text


def _cmd_run(args: argparse.Namespace) -> int:
    rulebook = default_rulebook()
    results: list[ScenarioResult] = []
    invalid = 0
    last: ScenarioResult | None = None
    for path in _scenario_files(args.files):
        try:
            scenario = load_scenario(path, rulebook=rulebook)
        except ScenarioError as exc:
            _err(_one_line(str(exc)))
            invalid += 1
            continue
        result = run_scenario(scenario, rulebook=rulebook, lang=args.lang)
        results.append(result)
        last = result
        title = f"{path} — {scenario.name}"
        if result.outcome is Outcome.passed:
            if not args.quiet:
                _out(f"PASS {title}")
        elif result.outcome is Outcome.failed:
            _out(f"FAIL {title}: {result.report_detail()}")
        else:
            _err(f"ERROR {title}: {_one_line(result.detail)}")
        if args.narrate:
            _out(narrate(result.trace, rulebook.specs, lang=args.lang).rstrip("\n"))
            _out()
        if args.story:
            _out(story(result.trace, rulebook.specs).rstrip("\n"))
            _out()
        if args.golden is not None:
            args.golden.mkdir(parents=True, exist_ok=True)
            (args.golden / f"{path.stem}.txt").write_text(story(result.trace, rulebook.specs), encoding="utf-8")
    if args.trace is not None and last is not None:
        try:
            if last.duel is not None:  # a header line with the setup, then the records
                args.trace.write_text(last.duel.trace_jsonl(), encoding="utf-8")
            else:
                write_jsonl(last.trace, args.trace)
        except OSError as exc:
            raise UsageError(f"run: --trace {args.trace}: {exc.strerror or exc}") from exc
    errors = invalid + sum(result.outcome is Outcome.error for result in results)
    failed = sum(result.outcome is Outcome.failed for result in results)
    if not args.quiet and invalid + len(results) > 1:
        passed = sum(result.passed for result in results)
        _out(f"{invalid + len(results)} scenarios: {passed} passed, {failed} failed, {errors} invalid or in error")
    return 2 if errors else 1 if failed else 0


# --- schema and narrate -----------------------------------------------------------------


def _cmd_schema(args: argparse.Namespace) -> int:
    schemas: dict[str, Callable[[], dict[str, Any]]] = {
        "scenario": scenario_json_schema,
        "trace": TraceRecord.model_json_schema,
        "machine": MachineSpec.model_json_schema,
    }
    _out(json.dumps(schemas[args.kind](), indent=2, ensure_ascii=False))
    return 0


def _cmd_narrate(args: argparse.Namespace) -> int:
    path: Path = args.trace
    try:
        records = read_jsonl(path)
    except UnicodeDecodeError as exc:
        raise UsageError(f"{path}: not a UTF-8 text file ({exc.reason})") from exc
    text = narrate(records, default_rulebook().specs, lang=args.lang)
    if text:
        _out(text.rstrip("\n"))
    return 0


# --- the parser -------------------------------------------------------------------------


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog=PROG,
        description="The Yu-Gi-Oh! OCG turn structure as declared finite-state machines.",
        epilog="Exit codes: 0 ok, 1 a scenario expectation failed, 2 invalid input.",
    )
    parser.add_argument("--version", action="version", version=f"{PROG} {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")

    check = commands.add_parser("check", help="load and validate the machine declarations")
    check.add_argument("--machines", type=Path, metavar="DIR", help="declarations directory (default: shipped)")
    check.set_defaults(handler=_cmd_check)

    listing = commands.add_parser("list", help="list the machines and their states")
    listing.add_argument("--lang", choices=("zh", "en"), default="zh")
    listing.set_defaults(handler=_cmd_list)

    explain = commands.add_parser("explain", help="explain one state: rule, who acts, transitions out")
    explain.add_argument("state", metavar="STATE",
                         help="full path (main_phase_1.open.turn_player), machine.state or a unique state id")
    explain.add_argument("--lang", choices=("zh", "en", "both"), default="both")
    explain.add_argument("--dot", action="store_true", help="also print the machine's DOT with the state highlighted")
    explain.set_defaults(handler=_cmd_explain)

    render = commands.add_parser("render", help="write the diagrams (DOT, Mermaid, SVG, README.md)")
    render.add_argument("--out", type=Path, default=Path("diagrams"), metavar="DIR")
    render.add_argument("--lang", choices=("zh", "en", "both"), default="both")
    render.add_argument("--no-svg", action="store_true", help="skip SVG (which needs Graphviz's dot)")
    render.add_argument("--machines", type=Path, metavar="DIR", help="declarations directory (default: shipped)")
    render.set_defaults(handler=_cmd_render)

    run = commands.add_parser("run", help="play scenario files")
    run.add_argument("files", nargs="+", metavar="FILE", help="scenario file, or a directory of *.yaml files")
    run.add_argument("--narrate", action="store_true", help="print each scenario's narrated trace")
    run.add_argument("--story", action="store_true",
                     help="print each scenario's trace told as the seeds tell their examples")
    run.add_argument("--golden", type=Path, metavar="DIR",
                     help="write each scenario's story to DIR/<scenario>.txt (the golden traces)")
    run.add_argument("--lang", choices=("zh", "en"), default="zh", help="language of the narration")
    run.add_argument("--trace", type=Path, metavar="OUT.jsonl", help="write the last scenario's trace (JSON Lines)")
    run.add_argument("--quiet", action="store_true", help="print only failures and errors")
    run.set_defaults(handler=_cmd_run)

    schema = commands.add_parser("schema", help="print a JSON Schema")
    schema.add_argument("kind", choices=("scenario", "trace", "machine"))
    schema.set_defaults(handler=_cmd_schema)

    narrate_cmd = commands.add_parser("narrate", help="narrate a JSON Lines trace")
    narrate_cmd.add_argument("trace", type=Path, metavar="TRACE.jsonl")
    narrate_cmd.add_argument("--lang", choices=("zh", "en"), default="zh")
    narrate_cmd.set_defaults(handler=_cmd_narrate)
    return parser


def _exit_code(code: object) -> int:
    if code is None:
        return 0
    return code if isinstance(code, int) else 2


def main(argv: list[str] | None = None) -> int:
    """Run the command line with ``argv`` (default ``sys.argv[1:]``); return the exit code."""
    _utf8(sys.stdout)
    _utf8(sys.stderr)
    parser = _parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:  # --help, --version, or a usage error argparse already printed
        return _exit_code(exc.code)
    handler: Callable[[argparse.Namespace], int] | None = getattr(args, "handler", None)
    if handler is None:
        parser.print_help(sys.stderr)
        return 2
    try:
        return handler(args)
    except BrokenPipeError:  # the reader went away (`ygo-fsm list | head`): stop quietly
        with contextlib.suppress(OSError):
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return BROKEN_PIPE
    except MachineDefinitionError as exc:
        for issue in exc.issues:
            _err(str(issue))
        return 2
    except (UsageError, YgoFsmError) as exc:
        _err(_one_line(str(exc)))
        return 2
