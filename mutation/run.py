"""The mutation run behind ``make mutation``: would the behaviour tests notice a wrong rule?

Two kinds of mutant, each tested by running the suite (``[run] test-command`` in
mutation/config.toml, the diagram-drift tests left out) on a copy of the checkout in .mutation/:

- machines/*.yaml, mutated here: a guard or ``unless`` dropped or negated, a ``dest`` or
  ``actor`` changed, a transition deleted (``[yaml] operators``);
- the functions of the guard and rule modules (``[python] modules``; module-level code such as
  data-class declarations is not mutated), mutated by Cosmic Ray with the operators
  in ``[python] operators`` (a condition negated, a comparison or constant changed, a condition
  or a line removed).

A mutant is killed when the suite fails (or hangs past the timeout). Mutants that cannot change
behaviour are listed with their reason in mutation/equivalent.yaml and left out of the score;
nothing else is. The report gives the score per file and per operator and each survivor with the
clause it breaks, and is written to .mutation/report.txt.

Usage: python mutation/run.py [--only yaml|python] [--files PATTERN ...] [--jobs 1|2] [--report-only]
"""

from __future__ import annotations

import argparse
import ast
import copy
import fnmatch
import hashlib
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import time
from collections import defaultdict
from collections.abc import Iterator
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import yaml

try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10
    import toml as tomllib  # type: ignore[no-redef]

ROOT = Path(__file__).resolve().parent.parent
CONFIG = ROOT / "mutation" / "config.toml"
EQUIVALENT = ROOT / "mutation" / "equivalent.yaml"
WORK = ROOT / ".mutation"
COPIED = ("ygo_fsm", "machines", "tests", "diagrams", "docs", "mutation", "pyproject.toml", "README.md")
ACTOR_SWAP = {"turn_player": "opponent", "opponent": "turn_player", "priority_holder": "turn_player",
              "engine": "turn_player"}


@dataclass
class Mutant:
    """One mutant and, once run, its outcome."""

    file: str
    operator: str
    mutant: str
    """How the report and mutation/equivalent.yaml name it (stable across line moves)."""
    rule: str
    """The clause the mutated rule implements."""
    outcome: str = ""
    """killed, survived, timeout or incompetent (the mutated code cannot be loaded or run)."""
    detail: str = ""
    """The first failing test, or the diff of a Python mutant."""
    equivalent: str = ""
    """The reason from mutation/equivalent.yaml, when listed there."""
    extra: dict[str, Any] = field(default_factory=dict)


def load_config() -> dict[str, Any]:
    return tomllib.loads(CONFIG.read_text(encoding="utf-8"))


def prepare_tree(name: str) -> Path:
    """A fresh copy of the checkout's package, machines and tests in .mutation/<name>."""
    tree = WORK / name
    if tree.exists():
        shutil.rmtree(tree)
    tree.mkdir(parents=True)
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc", "build", "*.egg-info")
    for item in COPIED:
        source = ROOT / item
        if source.is_dir():
            shutil.copytree(source, tree / item, ignore=ignore)
        elif source.exists():
            shutil.copy2(source, tree / item)
    return tree


def test_env() -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    env["HYPOTHESIS_PROFILE"] = "ci"
    return env


def suite_timeout(cfg: dict[str, Any]) -> float:
    """Seconds after which a mutant's suite counts as hanging: set by the last check of the
    unmutated suite (``[run] timeout-factor`` times its duration), at least ``[run] timeout``."""
    measured = WORK / "timeout"
    floor = float(cfg["run"]["timeout"])
    return max(floor, float(measured.read_text())) if measured.exists() else floor


def run_suite(tree: Path, command: str, timeout: float) -> tuple[str, str]:
    """Run the suite in ``tree``: ("passed" | "failed" | "timeout", first failing test or tail)."""
    argv = shlex.split(command)
    if argv[0] == "python":
        argv[0] = sys.executable
    proc = subprocess.Popen(argv, cwd=tree, env=test_env(), stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                            text=True, start_new_session=True)
    try:
        out, _ = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, 9)
        proc.communicate()
        return "timeout", ""
    if proc.returncode == 0:
        return "passed", ""
    failed = re.findall(r"^(?:FAILED|ERROR) (\S+)", out, re.MULTILINE)
    return "failed", failed[0] if failed else out.strip().splitlines()[-1] if out.strip() else ""


# --- sampling ----------------------------------------------------------------------------


def _rank(name: str) -> float:
    """A fixed pseudo-random number in [0, 1) for a mutant's name (the same on every run)."""
    return int(hashlib.sha256(name.encode("utf-8")).hexdigest()[:12], 16) / 16**12


def sampled(keys: list[tuple[str, str, str]], fraction: float, *, per_file: bool = True) -> set[str]:
    """The names, among ``(file, operator, name)``, that a run with ``fraction`` tests: those whose
    rank is below it, and at least one of each operator (in each file, with ``per_file``).
    ``fraction >= 1``: all."""
    if fraction >= 1:
        return {name for _, _, name in keys}
    strata: dict[tuple[str, str], list[str]] = defaultdict(list)
    for file, operator, name in keys:
        strata[(file if per_file else "", operator)].append(name)
    chosen: set[str] = set()
    for names in strata.values():
        ranked = sorted(names, key=_rank)
        chosen.update([n for n in ranked if _rank(n) < fraction] or ranked[:1])
    return chosen


# --- machines/*.yaml ---------------------------------------------------------------------


def yaml_mutants(path: Path, operators: list[str]) -> Iterator[tuple[Mutant, dict[str, Any]]]:
    """Every mutant of one machine file, with the mutated document (none for the guard-sentence
    file beside the machines, which declares no machine)."""
    original = yaml.safe_load(path.read_text(encoding="utf-8"))
    if not isinstance(original, dict) or "transitions" not in original:
        return
    machine = original["id"]
    states = [state["id"] for state in original["states"]]
    file = f"machines/{path.name}"
    for index, transition in enumerate(original["transitions"]):
        name = f"{machine}.{transition['id']}"
        rule = transition.get("rule", "")

        def mutated(change: Any, index: int = index) -> dict[str, Any]:
            document = copy.deepcopy(original)
            change(document["transitions"], document["transitions"][index])
            return document

        for key, operator, other in (("guards", "drop-guard", None), ("unless", "drop-unless", None),
                                     ("guards", "guard-to-unless", "unless"),
                                     ("unless", "unless-to-guard", "guards")):
            if operator not in operators:
                continue
            for name_in_list in transition.get(key, []):
                def change(_all: Any, t: Any, key: str = key, item: str = name_in_list,
                           other: str | None = other) -> None:
                    t[key] = [n for n in t[key] if n != item]
                    if not t[key]:
                        del t[key]
                    if other:
                        t[other] = [*t.get(other, []), item]
                yield Mutant(file, operator, f"{name} {operator} {name_in_list}", rule), mutated(change)
        if "change-dest" in operators:
            start = states.index(transition["dest"])
            candidates = [s for s in states[start + 1:] + states[:start] if s not in {transition["dest"],
                                                                                       transition["source"]}]
            if candidates:
                new_dest = candidates[0]

                def change_dest(_all: Any, t: Any, new: str = new_dest) -> None:
                    t["dest"] = new
                yield Mutant(file, "change-dest", f"{name} change-dest to {new_dest}", rule), mutated(change_dest)
        if "change-actor" in operators:
            new_actor = ACTOR_SWAP[transition["actor"]]

            def change_actor(_all: Any, t: Any, new: str = new_actor) -> None:
                t["actor"] = new
            yield Mutant(file, "change-actor", f"{name} change-actor to {new_actor}", rule), mutated(change_actor)
        if "delete-transition" in operators:
            def delete(all_transitions: Any, t: Any) -> None:
                all_transitions.remove(t)
            yield Mutant(file, "delete-transition", f"{name} delete-transition", rule), mutated(delete)


def recheck_yaml(cfg: dict[str, Any], log: Any) -> None:
    """Run the last run's surviving YAML mutants again against the tests as they are now."""
    results_file = WORK / "yaml-results.json"
    previous = [Mutant(**m) for m in json.loads(results_file.read_text(encoding="utf-8"))]
    survivors = {m.mutant for m in previous if m.outcome in ("survived", "timeout")}
    tree = prepare_tree("tree-yaml")
    command, timeout = cfg["run"]["test-command"], suite_timeout(cfg)
    documents = {m.mutant: doc for path in sorted(ROOT.glob(cfg["yaml"]["files"]))
                 for m, doc in yaml_mutants(path, cfg["yaml"]["operators"]) if m.mutant in survivors}
    for mutant in previous:
        if mutant.mutant not in documents:
            continue
        target = tree / mutant.file
        original_text = (ROOT / mutant.file).read_text(encoding="utf-8")
        target.write_text(yaml.safe_dump(documents[mutant.mutant], allow_unicode=True, sort_keys=False),
                          encoding="utf-8")
        try:
            status, detail = run_suite(tree, command, timeout)
        finally:
            target.write_text(original_text, encoding="utf-8")
        mutant.outcome = {"passed": "survived", "failed": "killed", "timeout": "timeout"}[status]
        mutant.detail = detail
        log(f"yaml {mutant.outcome:9} {mutant.mutant} (again)")
    results_file.write_text(json.dumps([asdict(m) for m in previous], ensure_ascii=False, indent=1),
                            encoding="utf-8")


def recheck_python(cfg: dict[str, Any], log: Any) -> None:
    """Run the last run's surviving Python mutants again against the tests as they are now."""
    import sqlite3

    session = WORK / "python-session.sqlite"
    if not session.exists():
        return
    with sqlite3.connect(session) as db:
        count = db.execute("DELETE FROM work_results WHERE test_outcome = 'SURVIVED' OR output = 'timeout'").rowcount
    log(f"python mutants: {count} survivors and hangs to run again")
    tree = prepare_tree("tree-python")
    config = WORK / "cosmic-ray.toml"
    config.write_text(cosmic_ray_config(cfg, cfg["python"]["modules"]), encoding="utf-8")
    bindir = Path(sys.executable).parent
    subprocess.run([str(bindir / "cosmic-ray"), "exec", str(config), str(session)], cwd=tree, env=test_env(),
                   check=True)


def run_yaml(cfg: dict[str, Any], patterns: list[str], fraction: float, log: Any, match: str = "") -> list[Mutant]:
    tree = prepare_tree("tree-yaml")
    command, timeout = cfg["run"]["test-command"], suite_timeout(cfg)
    files = sorted(ROOT.glob(cfg["yaml"]["files"]))
    files = [f for f in files if not patterns or any(fnmatch.fnmatch(f"machines/{f.name}", p) for p in patterns)]
    results: list[Mutant] = []
    every = [pair for path in files for pair in yaml_mutants(path, cfg["yaml"]["operators"])]
    chosen = sampled([(m.file, m.operator, m.mutant) for m, _ in every], fraction)
    if match:
        chosen = {m.mutant for m, _ in every if match in m.mutant}
    log(f"yaml mutants: {len(chosen)} of {len(every)}")
    for mutant, document in every:
        if mutant.mutant not in chosen:
            continue
        target = tree / mutant.file
        original_text = (ROOT / mutant.file).read_text(encoding="utf-8")
        target.write_text(yaml.safe_dump(document, allow_unicode=True, sort_keys=False), encoding="utf-8")
        try:
            status, detail = run_suite(tree, command, timeout)
        finally:
            target.write_text(original_text, encoding="utf-8")
        mutant.outcome = {"passed": "survived", "failed": "killed", "timeout": "timeout"}[status]
        mutant.detail = detail
        results.append(mutant)
        log(f"yaml {mutant.outcome:9} {mutant.mutant}")
    (WORK / "yaml-results.json").write_text(json.dumps([asdict(m) for m in results], ensure_ascii=False, indent=1),
                                            encoding="utf-8")
    return results


# --- the guard and rule modules (Cosmic Ray) ----------------------------------------------


def cosmic_ray_config(cfg: dict[str, Any], modules: list[str]) -> str:
    command = cfg["run"]["test-command"].replace("python ", f"{sys.executable} ", 1)
    lines = [
        "[cosmic-ray]",
        f"module-path = {json.dumps(modules)}",
        f"timeout = {suite_timeout(cfg)}",
        "excluded-modules = []",
        f"test-command = {json.dumps(command)}",
        "",
        "[cosmic-ray.distributor]",
        'name = "local"',
        "",
    ]
    return "\n".join(lines)


def run_python(cfg: dict[str, Any], patterns: list[str], fraction: float, log: Any) -> None:
    tree = prepare_tree("tree-python")
    modules = [m for m in cfg["python"]["modules"] if not patterns or any(fnmatch.fnmatch(m, p) for p in patterns)]
    if not modules:
        return
    config = WORK / "cosmic-ray.toml"
    config.write_text(cosmic_ray_config(cfg, modules), encoding="utf-8")
    session = WORK / "python-session.sqlite"
    session.unlink(missing_ok=True)
    bindir = Path(sys.executable).parent
    env = test_env()
    subprocess.run([str(bindir / "cosmic-ray"), "init", str(config), str(session)], cwd=tree, env=env, check=True)
    select_jobs(session, cfg["python"]["operators"], fraction, log)
    log("python mutants: running Cosmic Ray (progress: cr-report .mutation/python-session.sqlite)")
    subprocess.run([str(bindir / "cosmic-ray"), "exec", str(config), str(session)], cwd=tree, env=env, check=True)


def select_jobs(session: Path, operators: list[str], fraction: float, log: Any) -> None:
    """Mark as skipped (Cosmic Ray then leaves them) the mutants of other operators, those outside
    functions, and those outside the sample."""
    from cosmic_ray.work_db import WorkDB, use_db
    from cosmic_ray.work_item import WorkerOutcome, WorkResult

    with use_db(str(session), WorkDB.Mode.open) as db:
        pending = list(db.pending_work_items)
        described = describe_python([(item.job_id, item.mutations[0]) for item in pending])
        in_functions = {job_id: m for job_id, m in described.items()
                        if m.operator in operators and not m.mutant.startswith("(module)")}
        chosen = sampled([(d.file, d.operator, d.mutant) for d in in_functions.values()], fraction, per_file=False)
        left_out = [job_id for job_id, mutant in described.items() if mutant.mutant not in chosen]
        db.set_multiple_results(left_out, WorkResult(output="not sampled", worker_outcome=WorkerOutcome.SKIPPED))
        log(f"python mutants: {len(chosen)} of {len(in_functions)} (the operators', in functions)")


def describe_python(jobs: list[tuple[str, Any]]) -> dict[str, Mutant]:
    """job id → a Mutant named ``function: operator on `line``` (``#n`` for the n-th alike), with
    the clause the enclosing function's docstring cites."""
    sources: dict[str, tuple[list[str], dict[int, tuple[str, str]]]] = {}
    seen: dict[tuple[str, str], int] = defaultdict(int)
    described: dict[str, Mutant] = {}
    for job_id, spec in sorted(jobs, key=lambda job: (str(job[1].module_path), job[1].start_pos,
                                                      job[1].operator_name, job[1].occurrence)):
        file = str(spec.module_path)
        if file not in sources:
            text = (ROOT / file).read_text(encoding="utf-8")
            sources[file] = (text.splitlines(), _innermost(text))
        lines, functions = sources[file]
        line_no = spec.start_pos[0]
        function, citation = functions.get(line_no, ("(module)", ""))
        base = f"{function}: {spec.operator_name} on `{lines[line_no - 1].strip()}`"
        seen[(file, base)] += 1
        name = base if seen[(file, base)] == 1 else f"{base} #{seen[(file, base)]}"
        described[job_id] = Mutant(file, spec.operator_name, name, citation, extra={"line": line_no})
    return described


def python_results() -> list[Mutant]:
    session = WORK / "python-session.sqlite"
    if not session.exists():
        return []
    from cosmic_ray.work_db import WorkDB, use_db
    from cosmic_ray.work_item import TestOutcome, WorkerOutcome

    with use_db(str(session), WorkDB.Mode.open) as db:
        done = {item.job_id: result for item, result in db.completed_work_items}
        described = describe_python([(item.job_id, item.mutations[0]) for item in db.work_items])
    results: list[Mutant] = []
    for job_id, mutant in described.items():
        result = done.get(job_id)
        if result is None or result.worker_outcome == WorkerOutcome.SKIPPED:
            continue
        if result.worker_outcome == WorkerOutcome.NO_TEST:
            continue
        if result.worker_outcome != WorkerOutcome.NORMAL:
            mutant.outcome = "incompetent"
        elif result.output == "timeout":
            mutant.outcome = "timeout"
        else:
            mutant.outcome = {TestOutcome.KILLED: "killed", TestOutcome.SURVIVED: "survived",
                              TestOutcome.INCOMPETENT: "incompetent"}[result.test_outcome]
        diff = "\n".join(result.diff) if isinstance(result.diff, list) else (result.diff or "")
        mutant.detail = diff if mutant.outcome == "survived" else _first_failure(result.output or "")
        results.append(mutant)
    return results


def _innermost(source: str) -> dict[int, tuple[str, str]]:
    """Line number → (innermost enclosing function, the clause its docstring cites)."""
    spans: list[tuple[int, int, str, str]] = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            doc = " ".join((ast.get_docstring(node) or "").split())
            cited = re.findall(r"\((\d{3}[^()]*(?:\([^()]*\)[^()]*)*)\)", doc)
            citation = cited[-1] if cited else doc.split(". ")[0][:160]
            spans.append((node.lineno, node.end_lineno or node.lineno, node.name, citation))
    found: dict[int, tuple[str, str]] = {}
    for start, end, name, citation in sorted(spans, key=lambda s: s[1] - s[0], reverse=True):
        for line in range(start, end + 1):
            found[line] = (name, citation)
    return found


def ordered_command(command: str, last: list[str]) -> str:
    """``command`` on every test file, the doctests and README first, then ``last``: with ``-x`` a
    mutant whose first failure is in ``last`` is one the other tests let survive."""
    ignored = set(re.findall(r"--ignore=(\S+)", command))
    first = [str(p.relative_to(ROOT)) for p in sorted((ROOT / "tests").glob("test_*.py"))]
    first = [p for p in first if p not in last and p not in ignored]
    return " ".join([command, *first, "ygo_fsm", "README.md", *last])


def _first_failure(output: str) -> str:
    failed = re.findall(r"^(?:FAILED|ERROR) (\S+)", output, re.MULTILINE)
    return failed[0] if failed else ""


# --- the report ---------------------------------------------------------------------------


def load_equivalents() -> list[dict[str, str]]:
    if not EQUIVALENT.exists():
        return []
    entries = yaml.safe_load(EQUIVALENT.read_text(encoding="utf-8")) or []
    for entry in entries:
        if not {"file", "mutant", "reason"} <= set(entry) or not str(entry["reason"]).strip():
            raise SystemExit(f"{EQUIVALENT.name}: every entry needs file, mutant and reason: {entry}")
    return entries


def all_mutant_names(cfg: dict[str, Any]) -> set[tuple[str, str]]:
    """(file, name) of every mutant the configuration makes, sampled or not."""
    names = {(m.file, m.mutant) for path in sorted(ROOT.glob(cfg["yaml"]["files"]))
             for m, _ in yaml_mutants(path, cfg["yaml"]["operators"])}
    session = WORK / "python-session.sqlite"
    if session.exists():
        from cosmic_ray.work_db import WorkDB, use_db

        with use_db(str(session), WorkDB.Mode.open) as db:
            jobs = [(item.job_id, item.mutations[0]) for item in db.work_items]
        names |= {(m.file, m.mutant) for m in describe_python(jobs).values()}
    return names


def report(mutants: list[Mutant], min_score: float, last: list[str] | None = None,
           known: set[tuple[str, str]] | None = None) -> tuple[str, float]:
    equivalents = load_equivalents()
    by_key = {(e["file"], e["mutant"]): e["reason"] for e in equivalents}
    used: set[tuple[str, str]] = set()
    for mutant in mutants:
        reason = by_key.get((mutant.file, mutant.mutant))
        if reason:
            mutant.equivalent = " ".join(str(reason).split())
            used.add((mutant.file, mutant.mutant))
    out: list[str] = []

    def table(title: str, key: Any) -> None:
        groups: dict[str, list[Mutant]] = defaultdict(list)
        for mutant in mutants:
            groups[key(mutant)].append(mutant)
        out.append(f"\n{title:44} {'mutants':>7} {'killed':>6} {'survived':>8} {'equiv.':>6} {'score':>7}")
        for name in sorted(groups):
            out.append(_row(name, groups[name]))
        out.append(_row("all", mutants))

    table("by file", lambda m: m.file)
    table("by operator", lambda m: ("yaml " if m.file.endswith(".yaml") else "python ") + m.operator)
    survivors = [m for m in mutants if m.outcome == "survived" and not m.equivalent]
    out.append(f"\nsurvivors ({len(survivors)}):")
    for mutant in survivors:
        out.append(f"- {mutant.file}: {mutant.mutant}\n    rule: {mutant.rule or '(no citation)'}")
    hung = [m for m in mutants if m.outcome == "timeout"]
    out.append(f"\nhung past the timeout, counted as killed ({len(hung)}):")
    out.extend(f"- {m.file}: {m.mutant}" for m in hung)
    listed = [m for m in mutants if m.equivalent]
    out.append(f"\nequivalent, left out of the score ({len(listed)}; reasons in mutation/equivalent.yaml):")
    for mutant in listed:
        note = "" if mutant.outcome == "survived" else f"  (but {mutant.outcome}: remove it from the list)"
        out.append(f"- {mutant.file}: {mutant.mutant}{note}")
    stale = [key for key in by_key if known is not None and key not in known]
    for file, name in stale:
        out.append(f"- stale entry in mutation/equivalent.yaml (no such mutant now): {file}: {name}")
    if last:
        def only_last(m: Mutant) -> bool:
            return m.outcome == "killed" and any(m.detail.startswith(f) for f in last)
        without = [Mutant(m.file, m.operator, m.mutant, m.rule, "survived" if only_last(m) else m.outcome,
                          equivalent=m.equivalent) for m in mutants]
        out.append(f"\nwithout {', '.join(last)} (the same mutants; killed only by those: "
                   f"{sum(only_last(m) for m in mutants)}):")
        groups: dict[str, list[Mutant]] = defaultdict(list)
        for mutant in without:
            groups[mutant.file].append(mutant)
        out.append(f"{'by file':44} {'mutants':>7} {'killed':>6} {'survived':>8} {'equiv.':>6} {'score':>7}")
        for name in sorted(groups):
            out.append(_row(name, groups[name]))
        out.append(_row("all", without))
        kinds: dict[str, list[Mutant]] = defaultdict(list)
        for mutant in without:
            kinds[("yaml " if mutant.file.endswith(".yaml") else "python ") + mutant.operator].append(mutant)
        out.append(f"{'by operator':44}")
        for name in sorted(kinds):
            out.append(_row(name, kinds[name]))
    score = _score(mutants)
    out.append(f"\nscore: {score:.1f} % killed of {len([m for m in mutants if not m.equivalent])} "
               f"non-equivalent mutants (required: {min_score:g} %)")
    return "\n".join(out).lstrip("\n") + "\n", score


def _score(mutants: list[Mutant]) -> float:
    counted = [m for m in mutants if not m.equivalent]
    killed = [m for m in counted if m.outcome != "survived"]
    return 100.0 * len(killed) / len(counted) if counted else 100.0


def _row(name: str, mutants: list[Mutant]) -> str:
    killed = sum(m.outcome != "survived" for m in mutants)
    equivalent = sum(bool(m.equivalent) for m in mutants)
    survived = len(mutants) - killed - equivalent
    return f"{name:44} {len(mutants):7} {killed:6} {survived:8} {equivalent:6} {_score(mutants):6.1f}%"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", choices=["yaml", "python"], help="run one kind of mutant")
    parser.add_argument("--files", nargs="*", default=[],
                        help="glob(s) of the files to mutate, e.g. machines/turn.yaml")
    parser.add_argument("--jobs", type=int, default=2, choices=[1, 2],
                        help="2 runs the YAML and the Python mutants side by side")
    parser.add_argument("--sample", type=float, default=None,
                        help="share of the mutants to run (default: `sample` in mutation/config.toml; 1 = all)")
    parser.add_argument("--match", default="", help="run only the YAML mutants whose name contains this")
    parser.add_argument("--tests", default="", help="run these tests instead of the suite (e.g. tests/test_x.py)")
    parser.add_argument("--last", nargs="*", default=[],
                        help="run these test files after all others, and also score the run without them "
                             "(the mutants whose first failure is in them)")
    parser.add_argument("--recheck", action="store_true",
                        help="run the last run's survivors again against the tests as they are now")
    parser.add_argument("--report-only", action="store_true", help="report the last run again")
    parser.add_argument("--no-report", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    cfg = load_config()
    if args.tests:
        cfg["run"]["test-command"] = f"python -m pytest -x -q -p no:cacheprovider --assert=plain {args.tests}"
    elif args.last:
        cfg["run"]["test-command"] = ordered_command(cfg["run"]["test-command"], args.last)
    WORK.mkdir(exist_ok=True)
    started = time.monotonic()
    yaml_share = float(cfg["yaml"]["sample"]) if args.sample is None else args.sample
    python_share = float(cfg["python"]["sample"]) if args.sample is None else args.sample

    def log(text: str) -> None:
        print(f"[{time.monotonic() - started:6.0f}s] {text}", flush=True)

    if args.no_report:  # the Python half of a two-job run
        if args.recheck:
            recheck_python(cfg, log)
        else:
            run_python(cfg, args.files, python_share, log)
        return 0
    if args.recheck:
        python_job = subprocess.Popen([sys.executable, __file__, "--recheck", "--no-report", "--last", *args.last,
                                       *(["--tests", args.tests] if args.tests else [])])
        recheck_yaml(cfg, log)
        if python_job.wait() != 0:
            print("the Python mutation run failed", file=sys.stderr)
            return 2
    elif not args.report_only:
        tree = prepare_tree("tree-check")
        began = time.monotonic()
        status, detail = run_suite(tree, cfg["run"]["test-command"], 3600)
        if status != "passed":
            print(f"the suite fails without any mutation ({detail}): fix it first", file=sys.stderr)
            return 2
        shutil.rmtree(tree)
        took = time.monotonic() - began
        timeout = max(float(cfg["run"]["timeout"]), float(cfg["run"]["timeout-factor"]) * took)
        (WORK / "timeout").write_text(f"{timeout:.0f}\n", encoding="utf-8")
        log(f"the suite takes {took:.0f} s without mutation: a mutant hangs after {timeout:.0f} s")
        (WORK / "yaml-results.json").unlink(missing_ok=True)
        (WORK / "python-session.sqlite").unlink(missing_ok=True)
        python_job = None
        if args.only != "yaml":
            if args.jobs == 2 and args.only is None:
                python_job = subprocess.Popen([sys.executable, __file__, "--only", "python", "--no-report",
                                               "--sample", str(python_share), "--files", *args.files,
                                               "--last", *args.last, *(["--tests", args.tests] if args.tests else [])])
            else:
                run_python(cfg, args.files, python_share, log)
        if args.only != "python":
            run_yaml(cfg, args.files, 1.0 if args.match else yaml_share, log, args.match)
        if python_job is not None and python_job.wait() != 0:
            print("the Python mutation run failed", file=sys.stderr)
            return 2
    mutants: list[Mutant] = []
    yaml_file = WORK / "yaml-results.json"
    if yaml_file.exists():
        mutants += [Mutant(**m) for m in json.loads(yaml_file.read_text(encoding="utf-8"))]
    mutants += python_results()
    text, score = report(mutants, float(cfg["run"]["min-score"]), args.last, all_mutant_names(cfg))
    (WORK / "report.txt").write_text(text, encoding="utf-8")
    print(text, end="")
    if not args.report_only:
        log("done")
    return 0 if score >= float(cfg["run"]["min-score"]) else 1


if __name__ == "__main__":
    sys.exit(main())
