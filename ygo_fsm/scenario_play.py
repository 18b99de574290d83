"""Playing a scenario: its steps on a duel, its expectations checked, the result and its report
(documented in :mod:`ygo_fsm.scenario`)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from enum import Enum
from pathlib import Path

from . import continuous
from .duel import Action, Duel
from .engine import Rulebook, default_rulebook
from .errors import EngineError, IllegalActionError
from .scenario_format import (
    PASS_LIMIT,
    TRACE_TAIL_LINES,
    AttackExpectation,
    DoStep,
    Expectation,
    PassUntilStep,
    RefuseStep,
    Scenario,
)
from .scenario_load import (
    load_scenario,
)
from .trace import TraceRecord, narrate

# --- running ------------------------------------------------------------------------


class Outcome(str, Enum):
    """How a scenario run ended; ``exit_code`` is the CLI's."""

    passed = "passed"
    failed = "failed"
    error = "error"

    @property
    def exit_code(self) -> int:
        return {Outcome.passed: 0, Outcome.failed: 1, Outcome.error: 2}[self]


@dataclass(frozen=True)
class ScenarioResult:
    """The result of playing one scenario."""

    scenario: Scenario
    outcome: Outcome
    message: str = ""
    """Empty when passed; else one line naming the file, the step, the item, expected vs found."""
    step: int | None = None
    """Index of the step that did not hold."""
    trace: tuple[TraceRecord, ...] = ()
    trace_tail: str = ""
    """The last lines of the narrated trace."""
    duel: Duel | None = field(default=None, compare=False, repr=False)
    """The duel as the scenario left it (``None`` if it could not be created)."""

    @property
    def passed(self) -> bool:
        return self.outcome is Outcome.passed

    @property
    def detail(self) -> str:
        """The message without the leading file name (for output that already names the file)."""
        prefix = f"{self.scenario.file}: "
        return self.message.removeprefix(prefix)

    @property
    def exit_code(self) -> int:
        return self.outcome.exit_code

    def report(self) -> str:
        """The message, then the trace tail (indented), or ``"passed"``."""
        if self.passed:
            return "passed"
        return self._with_tail(self.message)

    def _with_tail(self, message: str) -> str:
        if not self.trace_tail:
            return message
        tail = "\n".join("    " + line for line in self.trace_tail.splitlines())
        return f"{message}\n  last transitions:\n{tail}"

    def report_detail(self) -> str:
        """Like :meth:`report`, without the leading file name."""
        return "passed" if self.passed else self._with_tail(self.detail)


class _StepProblem(Exception):
    def __init__(self, outcome: Outcome, message: str) -> None:
        super().__init__(message)
        self.outcome = outcome
        self.message = message


def _fail(message: str) -> _StepProblem:
    return _StepProblem(Outcome.failed, message)


def _names(actions: Iterable[Action]) -> list[str]:
    return [action.name for action in actions]


def _listed(names: Iterable[str]) -> str:
    return ", ".join(names) or "none"


def _do(duel: Duel, step: DoStep, where: str) -> None:
    for number, name in enumerate(step.do):
        item = f"{where}.do" if len(step.do) == 1 else f"{where}.do[{number}]"
        try:
            action_name, choice = Action.parse(name)
            duel.apply(Action(action_name, step.by, choice) if step.by else name)
        except IllegalActionError as exc:
            raise _StepProblem(Outcome.error, f"{item}: {exc}") from exc


def _refuse(duel: Duel, step: RefuseStep, where: str) -> None:
    item = f"{where}.refuse"
    offered = [a for a in (*duel.legal_actions(judge=True), *duel.legal_actions())
               if names_option(step.refuse, a) and step.by in (None, a.player)]
    if offered:
        raise _fail(f"{item}: expected {step.refuse!r} to be refused{f' to {step.by}' if step.by else ''}, "
                    f"but it is offered to {offered[0].player} in {duel.state} "
                    f"(legal: {_listed(_names(duel.legal_actions()))})")
    before = (duel.state, duel.priority, len(duel.trace), len(duel.history))
    try:
        name, choice = Action.parse(step.refuse)
        duel.apply(Action(name, step.by, choice) if step.by else step.refuse)
    except IllegalActionError as exc:
        after = (duel.state, duel.priority, len(duel.trace), len(duel.history))
        if after != before:
            raise _fail(f"{item}: the refused action changed the duel ({before[0]} → {after[0]})") from exc
        if step.reason is not None and step.reason not in str(exc):
            raise _fail(f"{where}.reason: expected the refusal to mention {step.reason!r}, found: {exc}") from exc
        return
    raise _fail(f"{item}: expected {step.refuse!r} to be refused, but the duel accepted it")


def names_option(item: str, action: Action) -> bool:
    """Whether a scenario item (``legal``, ``not_legal``, ``refuse``) names the offered ``action``.

    A bare name (``activate``) names every option of that action. An item with an option names
    that option and every option that extends it on the same card: ``activate x`` names
    ``activate x``, ``activate x>target`` and ``activate x#2…``; ``activate x#2`` names
    ``activate x#2>target`` — so ``not_legal: [activate x]`` cannot pass vacuously because ``x``
    happens to be offered only with a target.
    """
    name, choice = Action.parse(item)
    if name != action.name:
        return False
    if choice is None:
        return True
    offered = action.choice or ""
    return offered == choice or (offered.startswith(choice) and offered[len(choice)] in ">#")


def _pass_until(duel: Duel, step: PassUntilStep, where: str) -> None:
    item = f"{where}.pass_until"
    target = step.pass_until
    for taken in range(PASS_LIMIT + 1):
        if duel.in_state(target):
            return
        if duel.is_over:
            raise _fail(f"{item}: the duel ended in {duel.state} ({duel.end_reason}, winner "
                        f"{duel.winner or 'none'}) before reaching {target}")
        names = _names(duel.legal_actions())
        if "pass" not in names:
            raise _fail(f"{item}: in {duel.state} {duel.priority} must choose ({_listed(names)}) before "
                        f"reaching {target}; pass_until only passes (use do:)")
        if taken == PASS_LIMIT:
            break
        duel.apply("pass")
    raise _fail(f"{item}: {target} not reached within {PASS_LIMIT} passes (now in {duel.state})")


def _expected_vs(item: str, expected: object, found: object) -> str:
    return f"{item}: expected {expected}, found {found}"


def _taken(records: Sequence[TraceRecord], name: str) -> bool:
    return any(name in (record.transition, f"{record.machine}.{record.transition}") for record in records)


def _check(duel: Duel, expect: Expectation, where: str, since: int) -> list[str]:
    """Every mismatch between ``expect`` and the duel, one message each; ``since`` is where
    the trace window of ``taken`` / ``not_taken`` starts."""
    item = f"{where}.expect"
    problems: list[str] = []
    given = expect.model_fields_set
    if expect.state is not None and not duel.in_state(expect.state):
        problems.append(_expected_vs(f"{item}.state", expect.state, duel.state))
    if "priority" in given and duel.priority != expect.priority:
        problems.append(_expected_vs(f"{item}.priority", expect.priority or "nobody", duel.priority or "nobody"))
    if expect.turn is not None and duel.turn != expect.turn:
        problems.append(_expected_vs(f"{item}.turn", expect.turn, duel.turn))
    if expect.turn_player is not None and duel.turn_player != expect.turn_player:
        problems.append(_expected_vs(f"{item}.turn_player", expect.turn_player, duel.turn_player))
    for key in ("lp", "hand", "deck", "graveyard"):
        expected_counts: dict[str, int] = getattr(expect, key)
        for player, expected in expected_counts.items():
            found = getattr(duel.players[player], key)
            if found != expected:
                problems.append(_expected_vs(f"{item}.{key}.{player}", expected, found))
    if expect.winner is not None:
        result = ("draw" if duel.winner is None else duel.winner) if duel.is_over else "the duel is not over"
        if result != expect.winner:
            problems.append(_expected_vs(f"{item}.winner", expect.winner, result))
    if expect.over is not None and duel.is_over != expect.over:
        found_over = f"over ({duel.end_reason})" if duel.is_over else "not over"
        problems.append(_expected_vs(f"{item}.over", "over" if expect.over else "not over", found_over))
    legal_now = (*duel.legal_actions(judge=True), *duel.legal_actions())  # the judge's names and the player's
    offered = _names(duel.legal_actions())
    offered_text = [str(action) for action in legal_now]

    def is_offered(text: str) -> bool:
        return any(names_option(text, action) for action in legal_now)

    for number, name in enumerate(expect.legal):
        if not is_offered(name):
            why = duel.explain_illegal(name)
            problems.append(f"{item}.legal[{number}]: expected {name!r} to be offered in {duel.state}, "
                            f"offered: {_listed(offered)}{f' ({why})' if why else ''}")
    for number, name in enumerate(expect.not_legal):
        if is_offered(name):
            problems.append(f"{item}.not_legal[{number}]: expected {name!r} not to be offered in {duel.state}, "
                            f"offered: {_listed(offered_text)}")
    problems += _check_cards(duel, expect, item, since)
    window = duel.trace[since:]
    seen = _listed(dict.fromkeys(record.transition for record in window))
    for number, name in enumerate(expect.taken):
        if not _taken(window, name):
            problems.append(f"{item}.taken[{number}]: expected transition {name!r} since the previous expect step, "
                            f"taken: {seen}")
    for number, name in enumerate(expect.not_taken):
        if _taken(window, name):
            problems.append(f"{item}.not_taken[{number}]: expected transition {name!r} not to be taken since the "
                            f"previous expect step, taken: {seen}")
    return problems


def _check_cards(duel: Duel, expect: Expectation, item: str, since: int) -> list[str]:
    """The chain, the resolutions since ``since`` (a trace position), named cards' zones, monster counts."""
    problems: list[str] = []
    if expect.chain is not None:
        found_chain = [(link.uid, link.controller, link.negated) for link in duel.chain]
        wanted = [(e.card, e.by, e.negated) for e in expect.chain]
        same = len(found_chain) == len(wanted) and all(
            f[0] == w[0] and w[1] in (None, f[1]) and w[2] in (None, f[2])
            for f, w in zip(found_chain, wanted, strict=True))
        if not same:
            problems.append(_expected_vs(f"{item}.chain", _links(wanted), _links(found_chain)))
    if expect.resolved is not None:
        found_resolved = [(uid, negated) for seq, _, uid, negated in duel.resolutions if seq > since]
        wanted_resolved = [(e, None) if isinstance(e, str) else (e.card, e.negated) for e in expect.resolved]
        same = len(found_resolved) == len(wanted_resolved) and all(
            f[0] == w[0] and w[1] in (None, f[1]) for f, w in zip(found_resolved, wanted_resolved, strict=True))
        if not same:
            problems.append(_expected_vs(f"{item}.resolved", _resolutions(wanted_resolved),
                                         _resolutions(found_resolved)))
    for uid, zone in expect.cards.items():
        where = duel.where(uid)
        if where is None or where[1] is not zone:
            problems.append(_expected_vs(f"{item}.cards.{uid}", zone.value,
                                         f"{where[1].value} of {where[0]}" if where else "not a card of this duel"))
    for uid, wanted_position in expect.positions.items():
        found_card = next((c for p in duel.players.values() for c in p.monsters if c.uid == uid), None)
        shown = ("not on the field" if found_card is None else
                 "face_down_defence" if not found_card.face_up else found_card.position.value)
        if shown != wanted_position:
            problems.append(_expected_vs(f"{item}.positions.{uid}", wanted_position, shown))
    for key, wanted_stats in (("atk", expect.atk), ("def", expect.defence)):
        for uid, value in wanted_stats.items():
            monster = next((c for p in duel.players.values() for c in p.monsters if c.uid == uid), None)
            found_value = "not on the field" if monster is None else (
                continuous.atk(duel.game, monster) if key == "atk" else continuous.defence(duel.game, monster))
            if found_value != value:
                problems.append(_expected_vs(f"{item}.{key}.{uid}", value, found_value))
    if expect.attack is not None:
        problems += _check_attack(duel, expect.attack, f"{item}.attack")
    if expect.attacked is not None:
        found_attacked = sorted(c.uid for p in duel.players.values() for z, c in p.all_cards()
                                if c.attacked_turn == duel.turn)
        if found_attacked != sorted(expect.attacked):
            problems.append(_expected_vs(f"{item}.attacked", sorted(expect.attacked), found_attacked))
    for player, count in expect.monsters.items():
        if len(duel.players[player].monsters) != count:
            problems.append(_expected_vs(f"{item}.monsters.{player}", count, len(duel.players[player].monsters)))
    return problems


def _check_attack(duel: Duel, expect: AttackExpectation, item: str) -> list[str]:
    attack = duel.attack or duel.last_attack
    if attack is None:
        return [f"{item}: expected an attack, found none"]
    problems = []
    outcome = attack.outcome or "in_progress"
    target = "direct" if attack.direct else attack.target
    found = {"attacker": attack.attacker, "target": target, "outcome": outcome, "replayed": attack.replayed,
             "battle_damage": attack.battle_damage, "destroyed": attack.destroyed}
    for key, wanted in expect.model_dump(exclude_none=True).items():
        if found[key] != wanted:
            problems.append(_expected_vs(f"{item}.{key}", wanted, found[key]))
    return problems


def _links(links: Sequence[tuple[str, str | None, bool | None]]) -> str:
    if not links:
        return "no chain"
    return ", ".join(f"CHAIN{n} {uid}{f' by {by}' if by else ''}{' (negated)' if neg else ''}"
                     for n, (uid, by, neg) in enumerate(links, start=1))


def _resolutions(items: Sequence[tuple[str, bool | None]]) -> str:
    return ", ".join(f"{uid}{' (negated)' if negated else ''}" for uid, negated in items) or "nothing"


def _tail(records: Sequence[TraceRecord], rulebook: Rulebook, lang: str, lines: int) -> str:
    text = narrate(records, rulebook.specs, lang=lang)
    return "\n".join(text.splitlines()[-lines:])


def run_scenario(
    scenario: Scenario,
    *,
    rulebook: Rulebook | None = None,
    lang: str = "zh",
    tail: int = TRACE_TAIL_LINES,
) -> ScenarioResult:
    """Play ``scenario``; stop at the first step that does not hold.

    ``lang`` (``zh`` or ``en``) is the language of the narrated ``trace_tail``, which keeps
    ``tail`` lines.
    """
    rulebook = rulebook or default_rulebook()
    source = scenario.file
    try:
        duel = Duel(scenario.setup, rulebook=rulebook, library=scenario.card_library)
    except (EngineError, ValueError) as exc:
        return ScenarioResult(scenario, Outcome.error, f"{source}: setup: {exc}", step=None)
    problem: _StepProblem | None = None
    failed_step: int | None = None
    since = 0
    for index, step in enumerate(scenario.steps):
        where = f"steps[{index}]"
        try:
            if isinstance(step, DoStep):
                _do(duel, step, where)
            elif isinstance(step, RefuseStep):
                _refuse(duel, step, where)
            elif isinstance(step, PassUntilStep):
                _pass_until(duel, step, where)
            else:
                mismatches = _check(duel, step.expect, where, since)
                since = len(duel.trace)
                if mismatches:
                    raise _fail("; ".join(mismatches))
        except _StepProblem as exc:
            problem, failed_step = exc, index
        except EngineError as exc:
            problem, failed_step = _StepProblem(Outcome.error, f"{where}: engine error: {exc}"), index
        if problem is not None:
            break
    trace = duel.trace
    if problem is None:
        return ScenarioResult(scenario, Outcome.passed, trace=trace, duel=duel)
    return ScenarioResult(
        scenario,
        problem.outcome,
        f"{source}: {problem.message}",
        step=failed_step,
        trace=trace,
        trace_tail=_tail(trace, rulebook, lang, tail),
        duel=duel,
    )


def run_file(path: Path | str, *, rulebook: Rulebook | None = None, lang: str = "zh") -> ScenarioResult:
    """Load and play one scenario file (``ScenarioError`` when it is invalid)."""
    return run_scenario(load_scenario(path, rulebook=rulebook), rulebook=rulebook, lang=lang)
