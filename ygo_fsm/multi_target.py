"""Several targets: "target up to N cards" (「～を２枚まで対象として」) and "target N cards"
(「～２枚を対象として」), ``target_count: {up_to: N}`` / ``{exactly: N}``.

Every target is chosen on activation, before anyone may respond; none is chosen again on
resolution (Yugipedia, "Target": the target is declared before players may chain, and is never
re-selected). At resolution a targeting effect applies to the targets still legal — 「そのカードを」
wording, e.g. 「ゴッドバードアタック」 still destroys the one target left — unless its text counts them
(「そのモンスター５体を」, ``all_needed: true``): then one target gone means it does nothing
(「貪欲な壺」: it does nothing once a single one of its five targets has left the graveyard).

The targets are chosen one at a time, so no option list grows with the number of ways to pick
a set: the activation names the first target (``activate twin_strike>plain_warrior``, offered
only when enough cards fit); the chain then waits in its ``declaring_targets`` state, where the
activating player adds the others one by one (``add_target plain_beast``) and, for "up to N",
may stop once one is chosen (``stop_targeting``). With N chosen, or no card left to add, the
targets are declared and the other player may respond.
"""

from __future__ import annotations

from .cards import TargetCount
from .state import Link

__all__ = ["chosen", "enough", "fewest", "first_targets", "further", "most", "room_for_more"]


def fewest(count: TargetCount) -> int:
    """How many targets the effect needs at least: N for "exactly N", one for "up to N"."""
    return count.exactly if count.exactly is not None else 1


def most(count: TargetCount) -> int:
    """How many targets the effect takes at most."""
    return count.exactly if count.exactly is not None else (count.up_to or 1)


def first_targets(singles: list[str | None], count: TargetCount) -> list[str | None]:
    """The first-target options of an effect taking ``count`` targets among ``singles`` (the cards
    it could target one at a time): each of them, when at least :func:`fewest` of them fit; none
    otherwise (it cannot be activated)."""
    uids: list[str | None] = [uid for uid in singles if uid is not None]
    return uids if len(uids) >= fewest(count) else []


def chosen(link: Link) -> tuple[str, ...]:
    """The targets the link has so far."""
    return () if link.target is None else (link.target, *link.more_targets)


def further(link: Link, singles: list[str | None]) -> list[str]:
    """The cards that may still be added as targets: those that fit and are not chosen yet."""
    taken = set(chosen(link))
    return [uid for uid in singles if uid is not None and uid not in taken]


def room_for_more(link: Link, count: TargetCount) -> bool:
    """Fewer than :func:`most` targets are chosen."""
    return len(chosen(link)) < most(count)


def enough(link: Link, count: TargetCount) -> bool:
    """At least :func:`fewest` targets are chosen (for "up to N" the player may stop)."""
    return len(chosen(link)) >= fewest(count)
