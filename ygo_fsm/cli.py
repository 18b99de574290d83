"""The ``ygo-fsm`` command line (also ``python -m ygo_fsm``).

Commands
========
``check [--machines DIR] [--cards FILE]...``
    Load and validate the machine declarations; print ``ok: N machines, S states,
    T transitions``, or each problem on its own line (file, machine, item) on stderr. With
    ``--cards``, check card files instead: ``ok: N cards`` per file, or one line per problem
    (file, card, effect, field) on stderr and exit 2.
``cards [FILE...]``
    List cards (the built-in library, or the files given): id, type, names, and for each
    effect its kind, spell speed and what it responds to.
``list [--lang zh|en]``
    Every machine with its label and its states.
``explain STATE [--lang zh|en|both]``
    A state — by full path (``main_phase_1.open.turn_player``), ``machine.state``
    (``end_phase.hand_size_adjustment``) or a state id found in one machine only — with its
    rule, the machine it runs, who must act there, its transitions out and what each player
    may do there.
``render [--out DIR] [--lang zh|en|both] [--no-svg] [--detail judge|engine] [--profile modern|ocg2008]``
    Write the diagrams (``<machine>.dot``, ``.mmd``, ``.svg``, the ``overview`` and
    ``README.md``) into DIR (default ``diagrams``). SVG needs Graphviz's ``dot``. Labels are
    for judges (sentence, who acts, guard sentences, citation) unless ``--detail engine``;
    ``--profile`` draws one rule profile only.
``site [--out DIR] [--examples DIR]``
    Write the static rule-review site into DIR (default ``site``): the overview, every
    machine's diagram with zoom and pan, search, each state's page, the activation matrix and
    trace playback (the seed examples built in); see :mod:`ygo_fsm.site`.
``run FILE... [--cards FILE]... [--narrate] [--story] [--lang zh|en] [--trace OUT.jsonl] [--quiet]``
    Play scenario files (a directory stands for its ``*.yaml`` files) with the cards of the
    ``--cards`` files added to the built-in library; see :mod:`ygo_fsm.scenario` for the format.
    With several scenarios, ``--trace`` names a directory and each trace is written to
    ``OUT/<scenario>.jsonl``.
``schema scenario|trace|machine|cards|state``
    Print a JSON Schema.
``reference``
    Print the effect vocabulary's reference page (``docs/effects.md``, Markdown).
``narrate TRACE.jsonl [--lang zh|en] [--story]``
    Print the narration of a JSON Lines trace (``--story``: told as the seeds tell their
    examples). A trace with no records is an error. ``run --trace`` writes a header line with
    the setup first; files without it are read too.

Exit codes: 0 ok; 1 an expectation in a scenario failed; 2 invalid input (bad YAML, schema
error, unknown state, an illegal action the scenario did not expect, …), reported as one
line on stderr that names the file and the item — never a traceback; 3 an internal error
(a bug in ygo-fsm), also one line (``--debug``, before or after the command, prints the
traceback).

``list``, ``explain``, ``run`` and ``narrate`` take ``--machines DIR`` too (default: the
shipped declarations), like ``check`` and ``render``.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import shutil
import sys
import traceback
from collections.abc import Callable
from pathlib import Path
from typing import Any

from . import __version__
from .cards import card_file_json_schema, default_library, responds_to
from .cli_io import UsageError, card_files, err, out, rulebook_of, utf8
from .cli_scenarios import _cmd_narrate, _cmd_run, _one_line
from .engine import Rulebook, default_rulebook
from .errors import MachineDefinitionError, YgoFsmError
from .explain import StateNameError, _langs, _resolve, explain_lines
from .loader import load_guard_sentences
from .reference import reference_page
from .scenario import scenario_json_schema
from .snapshot import duel_json_schema
from .spec import Lang, MachineSpec, StateSpec
from .trace import TraceRecord

PROG = "ygo-fsm"
BROKEN_PIPE = 141
"""Exit code when stdout is closed early (as a shell reports a process killed by SIGPIPE)."""
INTERNAL_ERROR = 3
"""Exit code of an unexpected error inside ygo-fsm (a bug): one line on stderr, ``--debug`` for the traceback."""
INTERRUPTED = 130
"""Exit code when interrupted (Ctrl-C), as a shell reports SIGINT."""
_GENERATED_SUFFIXES = (".dot", ".mmd", ".svg")


def _cmd_check(args: argparse.Namespace) -> int:
    if args.cards:
        _, problems, counts = card_files(args.cards)
        for problem in problems:
            err(problem)
        if problems:
            return 2
        for path, count in counts:
            out(f"ok: {path}: {count} cards")
        return 0
    try:
        rulebook = Rulebook.load(args.machines)
    except MachineDefinitionError as exc:
        for issue in exc.issues:
            err(str(issue))
        return 2
    specs = rulebook.specs.values()
    states = sum(len(spec.states) for spec in specs)
    transitions = sum(len(spec.transitions) for spec in specs)
    out(f"ok: {len(rulebook.specs)} machines, {states} states, {transitions} transitions")
    return 0


# --- cards ------------------------------------------------------------------------------


def _cmd_cards(args: argparse.Namespace) -> int:
    if args.files:
        cards, problems, _ = card_files(args.files)
        if problems:
            for problem in problems:
                err(problem)
            return 2
    else:
        cards = default_library()
    for card in cards.values():
        stats = f" ATK {card.atk} DEF {card.defence} level {card.level}" if card.type.value == "monster" else ""
        out(f"{card.id} — {card.type.value}{stats} 「{card.name_ja}」 {card.name_zh}")
        for number, effect in enumerate(card.effects, start=1):
            speed = f"spell speed {effect.spell_speed}" if effect.spell_speed else "not activated"
            out(f"    {number}. {effect.kind.value} ({speed}); {effect.location.value}; "
                 f"responds to: {responds_to(effect)}")
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
    for number, spec in enumerate(rulebook_of(args).specs.values()):
        if number:
            out()
        out(f"{spec.id} — {spec.label.text(lang)}  [{spec.rule}]")
        width = max(len(state.id) for state in spec.states)
        for state in spec.states:
            marks = _state_marks(state, state.id == spec.initial)
            out(f"    {state.id:<{width}}  {state.label.text(lang)}{marks}")
    return 0


def _cmd_explain(args: argparse.Namespace) -> int:
    rulebook = rulebook_of(args)
    langs = _langs(args.lang)
    try:
        lines = explain_lines(rulebook, args.state, langs)
        _, machine, state = _resolve(rulebook, args.state)
    except StateNameError as exc:
        raise UsageError(str(exc)) from None
    for line in lines:
        out(line)
    if args.dot:
        from . import render  # lazily: rendering is optional for the rest of the CLI

        out()
        out(render.to_dot(rulebook.specs[machine], lang=args.lang, highlight=state.id).rstrip("\n"))
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
    sentences = load_guard_sentences(args.machines)
    try:
        files = render.render_all(list(rulebook.specs.values()), lang=args.lang, svg=svg, detail=args.detail,
                                  sentences=sentences, profile=args.profile)
    except (RuntimeError, ValueError) as exc:
        raise UsageError(f"render: {exc}") from exc
    directory: Path = args.out
    try:
        directory.mkdir(parents=True, exist_ok=True)
        for name, text in files.items():
            target = directory / name
            target.write_text(text, encoding="utf-8", newline="\n")
            out(str(target))
        for stale in sorted(directory.iterdir()):
            if (stale.suffix in _GENERATED_SUFFIXES and stale.is_file() and stale.stem not in rulebook.specs
                    and stale.name not in files and _is_generated(stale)):
                stale.unlink()
                out(f"removed {stale} (no such machine)")
    except OSError as exc:
        raise UsageError(f"render: {directory}: {exc.strerror or exc}") from exc
    return 0


# --- site -------------------------------------------------------------------------------

_SEED_EXAMPLES = Path(__file__).resolve().parent.parent / "tests" / "scenarios" / "seed"


def _cmd_site(args: argparse.Namespace) -> int:
    try:
        from . import site  # lazily: the rest of the CLI works without it
    except ImportError as exc:
        raise UsageError(f"site: the site builder is not available ({exc})") from exc
    if shutil.which("dot") is None:
        raise UsageError("site: Graphviz's 'dot' is not installed; install Graphviz (e.g. 'sudo apt-get install "
                         "graphviz' or 'brew install graphviz')")
    examples: Path | None = args.examples
    if examples is None and _SEED_EXAMPLES.is_dir():
        examples = _SEED_EXAMPLES
    if examples is not None and not examples.is_dir():
        raise UsageError(f"site: --examples {examples}: not a directory")
    rulebook = Rulebook.load(args.machines) if args.machines else default_rulebook()
    directory: Path = args.out
    try:
        written = site.build_site(directory, rulebook, load_guard_sentences(args.machines), examples_dir=examples)
    except (RuntimeError, ValueError) as exc:
        raise UsageError(f"site: {exc}") from exc
    except OSError as exc:
        raise UsageError(f"site: {directory}: {exc.strerror or exc}") from exc
    for path in written:
        out(str(path))
    out(f"open {(directory / 'index.html').resolve()}")
    return 0


# --- schema and narrate -----------------------------------------------------------------


def _cmd_schema(args: argparse.Namespace) -> int:
    schemas: dict[str, Callable[[], dict[str, Any]]] = {
        "scenario": scenario_json_schema,
        "trace": TraceRecord.model_json_schema,
        "machine": MachineSpec.model_json_schema,
        "cards": card_file_json_schema,
        "state": duel_json_schema,
    }
    out(json.dumps(schemas[args.kind](), indent=2, ensure_ascii=False))
    return 0


def _cmd_reference(args: argparse.Namespace) -> int:
    out(reference_page().rstrip("\n"))
    return 0


# --- the parser -------------------------------------------------------------------------


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog=PROG,
        description="The Yu-Gi-Oh! OCG turn structure as declared finite-state machines.",
        epilog="Exit codes: 0 ok, 1 a scenario expectation failed, 2 invalid input, 3 internal error.",
    )
    parser.add_argument("--version", action="version", version=f"{PROG} {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")

    check = commands.add_parser("check", help="load and validate the machine declarations")
    check.add_argument("--machines", type=Path, metavar="DIR", help="declarations directory (default: shipped)")
    check.add_argument("--cards", type=Path, action="append", metavar="FILE",
                       help="check this card file instead (repeatable)")
    check.set_defaults(handler=_cmd_check)

    cards = commands.add_parser("cards", help="list cards: kinds, spell speeds, what each effect responds to")
    cards.add_argument("files", nargs="*", type=Path, metavar="FILE", help="card files (default: the built-in library)")
    cards.set_defaults(handler=_cmd_cards)

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
    render.add_argument("--detail", choices=("judge", "engine"), default="judge",
                        help="judge: sentences, who acts, guard sentences, citations (default); "
                             "engine: event, guard and callback names")
    render.add_argument("--profile", choices=("modern", "ocg2008"),
                        help="draw one rule profile only (default: both, one-profile items marked ◆)")
    render.set_defaults(handler=_cmd_render)

    site_cmd = commands.add_parser("site", help="write the static rule-review site (opens from the file system)")
    site_cmd.add_argument("--out", type=Path, default=Path("site"), metavar="DIR")
    site_cmd.add_argument("--examples", type=Path, metavar="DIR",
                          help="seed scenarios to play as built-in traces (default: tests/scenarios/seed)")
    site_cmd.add_argument("--machines", type=Path, metavar="DIR", help="declarations directory (default: shipped)")
    site_cmd.set_defaults(handler=_cmd_site)

    run = commands.add_parser("run", help="play scenario files")
    run.add_argument("files", nargs="+", metavar="FILE", help="scenario file, or a directory of *.yaml files")
    run.add_argument("--cards", type=Path, action="append", metavar="FILE",
                     help="a card file whose cards the scenarios may use (repeatable)")
    run.add_argument("--narrate", action="store_true", help="print each scenario's narrated trace")
    run.add_argument("--story", action="store_true",
                     help="print each scenario's trace told as the seeds tell their examples")
    run.add_argument("--golden", type=Path, metavar="DIR",
                     help="write each scenario's story to DIR/<scenario>.txt (the golden traces)")
    run.add_argument("--lang", choices=("zh", "en"), default="zh", help="language of the narration")
    run.add_argument("--trace", type=Path, metavar="OUT.jsonl",
                     help="write the trace (JSON Lines); for several scenarios OUT is a directory and each "
                          "trace goes to OUT/<scenario>.jsonl")
    run.add_argument("--quiet", action="store_true", help="print only failures and errors")
    run.set_defaults(handler=_cmd_run)

    schema = commands.add_parser("schema", help="print a JSON Schema")
    schema.add_argument("kind", choices=("scenario", "trace", "machine", "cards", "state"))
    schema.set_defaults(handler=_cmd_schema)

    reference = commands.add_parser("reference", help="print the effect vocabulary's reference page (Markdown)")
    reference.set_defaults(handler=_cmd_reference)

    narrate_cmd = commands.add_parser("narrate", help="narrate a JSON Lines trace")
    narrate_cmd.add_argument("trace", type=Path, metavar="TRACE.jsonl")
    narrate_cmd.add_argument("--lang", choices=("zh", "en"), default="zh")
    narrate_cmd.add_argument("--story", action="store_true", help="tell the trace as the seeds tell their examples")
    narrate_cmd.set_defaults(handler=_cmd_narrate)
    for name in ("list", "explain", "run", "narrate"):
        commands.choices[name].add_argument("--machines", type=Path, metavar="DIR",
                                            help="declarations directory (default: shipped)")
    for command in (parser, *commands.choices.values()):
        command.add_argument("--debug", action="store_true", default=argparse.SUPPRESS,
                             help="on an unexpected error, print the traceback")
    return parser


def _exit_code(code: object) -> int:
    if code is None:
        return 0
    return code if isinstance(code, int) else 2


def main(argv: list[str] | None = None) -> int:
    """Run the command line with ``argv`` (default ``sys.argv[1:]``); return the exit code."""
    utf8(sys.stdout)
    utf8(sys.stderr)
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
            err(str(issue))
        return 2
    except (UsageError, YgoFsmError) as exc:
        _debug(args)
        err(_one_line(str(exc)))
        return 2
    except OSError as exc:  # a file or directory named on the command line
        _debug(args)
        where = f"{exc.filename}: " if exc.filename else ""
        err(f"{PROG}: {where}{exc.strerror or exc}")
        return 2
    except KeyboardInterrupt:
        return INTERRUPTED
    except Exception as exc:  # the last resort: one line, never a traceback unless asked
        _debug(args)
        hint = "" if getattr(args, "debug", False) else " (run with --debug for the traceback)"
        err(f"{PROG}: internal error: {type(exc).__name__}: {_one_line(str(exc)) or '(no message)'}{hint}")
        return INTERNAL_ERROR


def _debug(args: argparse.Namespace) -> None:
    if getattr(args, "debug", False):
        traceback.print_exc()
