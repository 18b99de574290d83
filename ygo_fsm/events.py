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
    by_effect: bool = False
    """Caused by a card effect (a discard by 「…」's effect), not by a rule (the hand size
    adjustment: 004 手卡调整 ●…不视为「因效果从手卡丢弃」)."""
    together: bool = False
    """It happened at the same time as the occurrence recorded just before it: the attack
    declaration and "becomes the attack target", a monster destroyed and sent to the graveyard,
    several monsters destroyed by one effect. Simultaneous occurrences are all "the last thing to
    happen" for a 'when … you can' trigger (PR17 missing the timing)."""


def emit(duel: Duel, event: Event, player: str, uid: str | None = None, *, by_effect: bool = False,
         together: bool = False) -> None:
    """Record an occurrence; ``together``: at the same time as the one recorded just before."""
    duel.events.append(Occurrence(event, player, uid, by_effect=by_effect, together=together and bool(duel.events)))


def last_happened(occurrences: list[Occurrence]) -> list[Occurrence]:
    """The last thing to happen: the final occurrence and those simultaneous with it."""
    group: list[Occurrence] = []
    for occurrence in reversed(occurrences):
        group.append(occurrence)
        if not occurrence.together:
            break
    return group


@dataclass(frozen=True)
class Expiry:
    """An effect that lasts "until" a phase (『…为止』): it ends there, without a chain link,
    handled by its controller (000 ●エンドフェイズ【２】·『回合结束为止～』…的效果结束（不进入连锁））."""

    phase: str
    """The phase whose open game state ends it (``end_phase`` …)."""
    controller: str
    uid: str
    """The monster it changed."""
    atk: int
    """The ATK change to undo."""
    source: str
    """The card the effect came from (for narration)."""
    identity: str = ""
    """The changed monster's field identity: once it has left the field, a monster that comes back
    is a new monster the effect no longer applies to (004 ●…也视为怪兽数量发生变化)."""

    def applies(self, monster_identity: str | None) -> bool:
        """It still applies to the monster whose field identity is ``monster_identity``."""
        return not self.identity or self.identity == monster_identity
