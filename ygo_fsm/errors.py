"""Exceptions raised by ygo-fsm.

One base class, :class:`YgoFsmError`; each specific error also subclasses the built-in
exception whose meaning it carries (``ValueError`` for bad input, ``RuntimeError`` for an
engine that cannot go on), so callers may catch either.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass


class YgoFsmError(Exception):
    """Base class of every error raised by ygo-fsm."""


@dataclass(frozen=True)
class DefinitionIssue:
    """One problem found in one machine declaration file."""

    file: str
    machine: str
    item: str
    message: str

    def __str__(self) -> str:
        return f"{self.file}: machine {self.machine}: {self.item}: {self.message}"


class MachineDefinitionError(YgoFsmError, ValueError):
    """A machine declaration is malformed or inconsistent.

    ``issues`` holds every problem found; ``str()`` gives one line per problem, each naming
    the file, the machine and the item.
    """

    def __init__(self, issues: Sequence[DefinitionIssue]) -> None:
        self.issues = tuple(issues)
        super().__init__("\n".join(str(issue) for issue in self.issues))


class IllegalActionError(YgoFsmError, ValueError):
    """An action that the current state does not allow; the duel is left unchanged."""

    def __init__(self, action: str, state: str, legal: Sequence[str], *, reason: str = "") -> None:
        self.action = action
        self.state = state
        self.legal = tuple(legal)
        self.reason = reason
        why = f": {reason}" if reason else ""
        offered = ", ".join(self.legal) if self.legal else "none"
        super().__init__(f"illegal action {action!r} in {state}{why}; legal: {offered}")


class EngineError(YgoFsmError, RuntimeError):
    """The declared machines leave the engine with no defined next step.

    Raised when two engine transitions are enabled at once with no declared precedence,
    when a state that is not final offers no action and no engine transition, or when the
    engine takes more transitions in a row than the settle limit (naming the cycle it repeats;
    :func:`ygo_fsm.duel.settle_limit`).
    """


class TraceNotKeptError(YgoFsmError, RuntimeError):
    """The trace of a duel created with ``Duel(trace=False)`` was asked for; its history
    replays it with one (``Duel.replay(duel.setup, duel.history)``)."""


class ScenarioError(YgoFsmError, ValueError):
    """A scenario file is malformed (one line naming the file and the item)."""


class TraceFormatError(YgoFsmError, ValueError):
    """A trace file cannot be read back (one line naming the file and the line)."""


class StateFormatError(YgoFsmError, ValueError):
    """A saved duel (``Duel.from_json``) is malformed or describes no reachable game state (one
    line naming the field)."""
