"""Events: things that happen in a game, which triggers and cards with a specific timing
respond to. Each is recorded as it happens; the next timing window collects them
(000 ※回合的流程/阶段中，卡／效果的发动时点的出现条件)."""

from __future__ import annotations

from .cards import Event
from .game import FIELD_ZONES, Zone
from .state import CardInstance, GameState, Occurrence


def face_of(card: CardInstance, zone: Zone) -> str:
    """How ``card`` is in ``zone`` for an occurrence's ``face`` (``""`` off the field, where a
    card has no battle face to speak of)."""
    if zone not in FIELD_ZONES:
        return ""
    return "face_up" if card.face_up else "face_down"


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
