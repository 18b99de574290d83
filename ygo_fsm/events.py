"""Events: things that happen in a duel, which triggers and cards with a specific timing
respond to. Each is recorded as it happens; the next timing window collects them
(000 ※回合的流程/阶段中，卡／效果的发动时点的出现条件)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from .cards import Event

if TYPE_CHECKING:
    from .duel import Duel


@dataclass(frozen=True)
class Occurrence:
    """Something that happened: an event, the player it concerns, and the card (if any)."""

    event: Event
    player: str
    uid: str | None = None
    deferred: bool = False
    """Met while paying a summon's conditions (step 2): only mandatory triggers respond to it."""


def emit(duel: Duel, event: Event, player: str, uid: str | None = None) -> None:
    duel.events.append(Occurrence(event, player, uid))
