"""Several targets: "target up to N cards" (「～を２枚まで対象として」) and "target N cards"
(「～２枚を対象として」), ``target_count: {up_to: N}`` / ``{exactly: N}``.

Every target is chosen on activation, before anyone may respond; none is chosen again on
resolution (Yugipedia, "Target": the target is declared before players may chain, and is never
re-selected). At resolution a targeting effect applies to the targets still legal — 「そのカードを」
wording, e.g. 「ゴッドバードアタック」 still destroys the one target left — unless its text counts them
(「そのモンスター５体を」, ``all_needed: true``): then one target gone means it does nothing
(「貪欲な壺」: it does nothing once a single one of its five targets has left the graveyard).

An option names its targets joined by ``+`` (``volley>plain_warrior+plain_beast``), in the
order the single-target options list them.
"""

from __future__ import annotations

from itertools import combinations

from .cards import TargetCount

SEPARATOR = "+"
"""Joins the targets of one option."""


def options(singles: list[str | None], count: TargetCount) -> list[str | None]:
    """The options of an effect taking ``count`` targets among ``singles`` (the cards it could
    target one at a time): every set of exactly N, or of 1 to N, distinct cards."""
    uids = [uid for uid in singles if uid is not None]
    sizes = [count.exactly] if count.exactly is not None else range(1, (count.up_to or 1) + 1)
    return [SEPARATOR.join(chosen) for size in sizes for chosen in combinations(uids, size)]


def split(target: str | None) -> tuple[str, ...]:
    """The targets an option names (``()`` for none)."""
    return tuple(target.split(SEPARATOR)) if target else ()
