"""The ``ygo-fsm run`` and ``ygo-fsm narrate`` commands: playing scenario files and telling traces."""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from pathlib import Path

from .cli_io import UsageError, card_files, err, out, rulebook_of
from .errors import ScenarioError
from .scenario import Outcome, ScenarioResult, load_scenario, run_scenario
from .trace import dumps, narrate, read_jsonl, story


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


def _trace_targets(files: Sequence[Path], trace: Path | None) -> dict[Path, Path]:
    """Where ``run --trace`` writes each scenario's trace: the file given for one scenario; for
    several, one ``<scenario>.jsonl`` each in the directory given."""
    if trace is None:
        return {}
    if len(files) == 1 and not trace.is_dir():
        return {files[0]: trace}
    if trace.suffix == ".jsonl" or (trace.exists() and not trace.is_dir()):
        raise UsageError(f"run: --trace {trace}: {len(files)} scenarios need a directory (one <scenario>.jsonl "
                         "each), not a file")
    stems = [path.stem for path in files]
    repeated = sorted({stem for stem in stems if stems.count(stem) > 1})
    if repeated:
        raise UsageError(f"run: --trace {trace}: several scenarios are named {repeated[0]!r}; their traces "
                         "would overwrite each other")
    return {path: trace / f"{path.stem}.jsonl" for path in files}


def _write(target: Path, text: str, option: str) -> None:
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")
    except OSError as exc:
        raise UsageError(f"run: {option} {target}: {exc.strerror or exc}") from exc


def _cmd_run(args: argparse.Namespace) -> int:
    rulebook = rulebook_of(args)
    extra = None
    if args.cards:
        extra, problems, _ = card_files(args.cards)
        if problems:
            raise UsageError(problems[0] + (f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""))
    results: list[ScenarioResult] = []
    invalid = 0
    files = _scenario_files(args.files)
    traces = _trace_targets(files, args.trace)
    for path in files:
        try:
            scenario = load_scenario(path, rulebook=rulebook, library=extra)
        except ScenarioError as exc:
            err(_one_line(str(exc)))
            invalid += 1
            continue
        result = run_scenario(scenario, rulebook=rulebook, lang=args.lang)
        results.append(result)
        title = f"{path} — {scenario.name}"
        if result.outcome is Outcome.passed:
            if not args.quiet:
                out(f"PASS {title}")
        elif result.outcome is Outcome.failed:
            out(f"FAIL {title}: {result.report_detail()}")
        else:
            err(f"ERROR {title}: {_one_line(result.detail)}")
        if args.narrate:
            out(narrate(result.trace, rulebook.specs, lang=args.lang).rstrip("\n"))
            out()
        if args.story:
            out(story(result.trace, rulebook.specs).rstrip("\n"))
            out()
        if args.golden is not None:
            _write(args.golden / f"{path.stem}.txt", story(result.trace, rulebook.specs), "--golden")
        if path in traces:
            text = result.duel.trace_jsonl() if result.duel is not None else dumps(result.trace)
            _write(traces[path], text, "--trace")  # a header line with the setup, then the records
    errors = invalid + sum(result.outcome is Outcome.error for result in results)
    failed = sum(result.outcome is Outcome.failed for result in results)
    if not args.quiet and invalid + len(results) > 1:
        passed = sum(result.passed for result in results)
        out(f"{invalid + len(results)} scenarios: {passed} passed, {failed} failed, {errors} invalid or in error")
    return 2 if errors else 1 if failed else 0


def _cmd_narrate(args: argparse.Namespace) -> int:
    path: Path = args.trace
    try:
        records = read_jsonl(path)
    except UnicodeDecodeError as exc:
        raise UsageError(f"{path}: not a UTF-8 text file ({exc.reason})") from exc
    if not records:
        raise UsageError(f"{path}: (file): no trace records (an empty trace)")
    specs = rulebook_of(args).specs
    text = story(records, specs) if args.story else narrate(records, specs, lang=args.lang)
    out(text.rstrip("\n"))
    return 0
