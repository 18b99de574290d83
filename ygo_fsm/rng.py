"""The duel's own random number generator: seeded, small, and part of the saved game state.

A duel that starts from decks shuffles them with this generator, seeded by ``Setup.seed``,
and keeps it in :attr:`GameState.rng <ygo_fsm.state.GameState.rng>`: anything random later
in the duel draws from the same generator, so a seed and the actions taken decide the whole
duel, and a saved duel goes on exactly as the original would.

The generator is SplitMix64 (one 64-bit word of state, an additive step and an output mix),
chosen for a state that fits in one JSON value and gives the same numbers in every process
and on every platform. It is not for cryptography.

>>> rng = DuelRandom(7)
>>> cards = list(range(10))
>>> rng.shuffle(cards)
>>> cards == sorted(cards)
False
>>> again = DuelRandom(7)
>>> copy = list(range(10))
>>> again.shuffle(copy)
>>> copy == cards
True
"""

from __future__ import annotations

from typing import Any

_MASK = (1 << 64) - 1
_GOLDEN = 0x9E3779B97F4A7C15


class DuelRandom:
    """SplitMix64: ``state`` is the whole generator (an integer in ``[0, 2**64)``)."""

    __slots__ = ("state",)

    def __init__(self, seed: int) -> None:
        self.state = seed & _MASK

    def next_word(self) -> int:
        """The next 64-bit output."""
        self.state = z = (self.state + _GOLDEN) & _MASK
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        return z ^ (z >> 31)

    def below(self, bound: int) -> int:
        """A uniform integer in ``[0, bound)`` (rejection sampling: no modulo bias)."""
        if bound <= 0:
            raise ValueError("bound must be positive")
        limit = (1 << 64) - (1 << 64) % bound
        while True:
            word = self.next_word()
            if word < limit:
                return word % bound

    def shuffle(self, items: list[Any]) -> None:
        """Shuffle ``items`` in place (Fisher–Yates, last position first)."""
        for last in range(len(items) - 1, 0, -1):
            other = self.below(last + 1)
            items[last], items[other] = items[other], items[last]

    def copy(self) -> DuelRandom:
        return DuelRandom(self.state)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, DuelRandom) and other.state == self.state

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"DuelRandom(state={self.state:#018x})"

    @property
    def text(self) -> str:
        """The state as 16 hexadecimal digits (how the game document stores it)."""
        return f"{self.state:016x}"

    @classmethod
    def from_text(cls, text: str) -> DuelRandom:
        return cls(int(text, 16))
