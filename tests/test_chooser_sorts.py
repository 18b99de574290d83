"""Choosers that list only one sort of the acting player's effects (``registry.CHOOSER_SORTS``) are
not asked by the option search when what the runtime keeps of that player's effects says they have
none of that sort. Checked at every search of random full duels: each such chooser lists nothing
whenever a fresh scan finds no effect of its sort, and the search finds the same options as one
that keeps nothing and asks every chooser."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from helpers import play_randomly

from ygo_fsm import Duel, in_play, priority, runtime
from ygo_fsm.bench_duels import MIXED_DECK, VANILLA_DECK
from ygo_fsm.in_play import SORTS, effects_of_sort
from ygo_fsm.registry import CHOOSER_SORTS, CHOOSERS, lists_effects_of_sort
from ygo_fsm.state import GameState


def _fresh_sort(game: GameState, player: str, sort: str) -> list[Any]:
    """The player's effects of ``sort`` as the cards are now, nothing kept."""
    kept, game.card_scans = game.card_scans, None
    zones, in_play._ZONE_EFFECTS = in_play._ZONE_EFFECTS, {}
    try:
        return effects_of_sort(game, player, sort)
    finally:
        game.card_scans = kept
        in_play._ZONE_EFFECTS = zones


@pytest.fixture
def searched(monkeypatch: pytest.MonkeyPatch) -> Iterator[dict[str, int]]:
    """At every option search: the choosers of CHOOSER_SORTS list nothing for a player with no
    effect of their sort, and a search with nothing kept finds the same options."""
    counts = {"searches": 0, "none_of_the_sort": 0, "listed": 0}
    find = runtime.DuelRuntime._find_options

    def checked_find(self: runtime.DuelRuntime) -> list[Any]:
        options = find(self)
        game = self.game
        holder = priority.holder(game)
        if holder is None:
            return options
        counts["searches"] += 1
        frame = game.frames[-1]
        for name, sort in CHOOSER_SORTS.items():
            listed = CHOOSERS[name](frame)
            if not _fresh_sort(game, holder, sort):
                assert listed == [], f"{name} listed {listed} for {holder} with no effect of sort {sort!r}"
                counts["none_of_the_sort"] += 1
            elif listed:
                counts["listed"] += 1
        kept, game.card_scans = game.card_scans, {}
        scans, game.scans = game.scans, {}
        try:
            assert find(self) == options, "asking every chooser finds other options"
        finally:
            game.card_scans, game.scans = kept, scans
        return options

    monkeypatch.setattr(runtime.DuelRuntime, "_find_options", checked_find)
    yield counts


@pytest.mark.parametrize(("deck", "seed"), [(MIXED_DECK, 5), (MIXED_DECK, 17), (VANILLA_DECK, 6)])
def test_a_chooser_of_one_sort_lists_nothing_without_effects_of_it(
        searched: dict[str, int], deck: tuple[str, ...], seed: int) -> None:
    duel = Duel.new_game(list(deck), list(deck), seed=seed, auto_pass=True, trace=False)
    play_randomly(duel, seed, 500)
    assert searched["searches"] > 500
    assert searched["none_of_the_sort"] > 500
    if deck is MIXED_DECK:
        assert searched["listed"] > 0  # the mixed deck's cards are activated: the sorts are not all empty


def test_only_a_known_sort_can_be_declared() -> None:
    assert set(CHOOSER_SORTS.values()) <= set(SORTS)
    with pytest.raises(ValueError, match="unknown sort of effects 'quick'"):
        lists_effects_of_sort("quick")
