"""Events: things that happen in a game, which triggers and cards with a specific timing
respond to. Each is recorded as it happens; the next timing window collects them
(000 ※回合的流程/阶段中，卡／效果的发动时点的出现条件)."""

from __future__ import annotations

from .cards import Event
from .state import GameState, Occurrence


def emit(game: GameState, event: Event, player: str, uid: str | None = None, *, cause: str = "", by: str = "",
         origin: str = "", together: bool = False, face: str = "") -> None:
    """Record an occurrence (``cause``, ``by``, ``origin``: see
    :class:`~ygo_fsm.state.Occurrence`); ``together``: at the same time as the one recorded just
    before."""
    game.events.append(Occurrence(event, player, uid, cause=cause, by=by, origin=origin, face=face,
                                  together=together and bool(game.events)))


def last_happened(occurrences: list[Occurrence]) -> list[Occurrence]:
    """The last thing to happen: the final occurrence and those simultaneous with it."""
    group: list[Occurrence] = []
    for occurrence in reversed(occurrences):
        group.append(occurrence)
        if not occurrence.together:
            break
    return group
