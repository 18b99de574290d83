"""Events: things that happen in a game, which triggers and cards with a specific timing
respond to. Each is recorded as it happens; the next timing window collects them
(000 ※回合的流程/阶段中，卡／效果的发动时点的出现条件)."""

from __future__ import annotations

from .cards import Event
from .state import GameState, Occurrence


def emit(game: GameState, event: Event, player: str, uid: str | None = None) -> None:
    game.events.append(Occurrence(event, player, uid))


