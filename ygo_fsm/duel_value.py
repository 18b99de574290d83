"""The duel as a value: an independent copy, equality and the state key, and the JSON document
it is saved as and loaded from (:class:`DuelValue`, a base of :class:`~ygo_fsm.duel.Duel`)."""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from typing import Any, Self

from .cards import CardSpec, default_library
from .engine import Rulebook, default_rulebook
from .errors import StateFormatError
from .runtime import Action, DuelRuntime, auto_pass_players
from .snapshot import FORMAT_VERSION, canonical_json, game_document, game_from_document, read_duel_document, state_key

__all__ = ["DuelValue"]


class DuelValue(DuelRuntime):
    """A duel's runtime as a value: copied, compared, hashed to a key, saved and loaded."""

    __slots__ = ()

    def copy(self) -> Self:
        """An independent copy: applying actions to one leaves the other as it was."""
        clone = type(self).__new__(type(self))
        clone.rulebook = self.rulebook
        clone.setup = self.setup
        clone.game = self.game.copy()
        clone._history = list(self._history)
        clone._records = list(self._records)
        clone._contexts, clone._extras = dict(self._contexts), dict(self._extras)
        clone._row_context, clone._read_context = self._row_context, self._read_context
        clone._trace = list(self._trace)
        clone._path_base = self._path_base
        clone._sights = self._sights.copy()
        clone._context = None
        clone._seq = self._seq
        clone._option_cache = None
        clone._view_cache = clone._index_cache = None
        clone.resolutions = list(self.resolutions)
        clone.auto_pass, clone.auto_passes = self.auto_pass, self.auto_passes
        clone.keeps_trace = self.keeps_trace
        clone._refusals = list(self._refusals) if self._refusals is not None else None
        return clone

    # --- the duel as a value -------------------------------------------------------------

    def __eq__(self, other: object) -> bool:
        """Two duels are equal when their game states are (the trace and history are not compared)."""
        if not isinstance(other, DuelValue):
            return NotImplemented
        return game_document(self.game) == game_document(other.game)

    __hash__ = None  # type: ignore[assignment]  # a duel changes; use state_key() as a key

    def state_key(self) -> str:
        """A stable hash of the game state: equal states have equal keys, in every process."""
        return state_key(self.game)

    def to_json(self, *, trace: bool = False, indent: int | None = None) -> str:
        """The duel as JSON text: its setup, history and game state (and, with ``trace``, every
        trace record). :meth:`from_json` reads it back; the format is ``ygo-fsm schema state``."""
        document: dict[str, Any] = {
            "format": "ygo-fsm/duel",
            "version": FORMAT_VERSION,
            "setup": self.setup.model_dump(mode="json", by_alias=True, exclude_defaults=True),
            "history": [{"name": a.name, "player": a.player, "choice": a.choice} for a in self._history],
            "seq": self._seq,
            "resolutions": [list(row) for row in self.resolutions],
            "game": game_document(self.game),
        }
        if trace:
            document["trace"] = [record.model_dump(mode="json") for record in self.trace]
        if indent is None:
            return canonical_json(document)
        return json.dumps(document, ensure_ascii=False, indent=indent, sort_keys=True)

    @classmethod
    def from_json(cls, text: str | bytes, *, rulebook: Rulebook | None = None,
                  library: Mapping[str, CardSpec] | None = None, auto_pass: bool | Iterable[str] = False,
                  trace: bool = True) -> Self:
        """The duel :meth:`to_json` saved, ready to go on from where it was (``auto_pass`` and
        ``trace`` as for a new :class:`~ygo_fsm.duel.Duel`; the saved records, when there are, start its trace).

        Raises :class:`~ygo_fsm.errors.StateFormatError` naming the field when the document is
        malformed or describes a state the machines and the card library do not allow.
        """
        document = read_duel_document(text)
        duel = cls.__new__(cls)
        duel.rulebook = rulebook or default_rulebook()
        duel.setup = document.setup
        duel.game = game_from_document(document.game, library=default_library() if library is None else library,
                                       state_specs=duel.rulebook.state_specs)
        duel._start_runtime(keeps_trace=trace)
        duel._rows_start_here()
        duel.auto_pass = auto_pass_players(auto_pass)
        duel._history = [Action(a.name, a.player, a.choice) for a in document.history]
        duel._seq = document.seq
        duel.resolutions = list(document.resolutions)
        if document.trace is not None and trace:
            duel._trace = list(document.trace)
            duel._records = [None] * len(document.trace)  # type: ignore[list-item]  # validated already: not read again
        duel._check_settled()
        if duel.auto_pass:
            duel._settle()  # a loaded duel may wait on a pass the duel now takes itself
        return duel

    def _check_settled(self) -> None:
        """A loaded duel must be where a player acts (or over): not in the middle of settling."""
        game = self.game
        if game.is_over:
            return
        frame = game.frames[-1]
        if any(t.enabled(frame) for t in self.rulebook.engine_transitions(frame.machine, frame.state)):
            raise StateFormatError(f"game.frames: {self.state} takes an engine transition at once; "
                                   "a saved duel is where a player must act")
        if game.state_spec(frame).final or not self._options():
            raise StateFormatError(f"game.frames: no player can act in {self.state}")
