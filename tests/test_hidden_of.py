"""The observation works out what is hidden only for the cards the chain and the attack name
(:func:`ygo_fsm.hiding.hidden_of`): for any cards, that is exactly the part of
:func:`~ygo_fsm.hiding.hidden_from` for them (the rules of what a player may know: the hand only
to its holder, a Set card only to its controller, no deck card to anyone, a monster being Set
hidden while it is taken out — 001 【怪兽通常召唤…】３ …里侧表示通常召唤的场合不公开)."""

from __future__ import annotations

import random
from typing import Any

import pytest

from ygo_fsm import Duel, runtime
from ygo_fsm.bench_duels import MIXED_DECK, deck_setup
from ygo_fsm.game import PLAYERS
from ygo_fsm.hiding import hidden_from, hidden_of
from ygo_fsm.state import ZONE_ATTRIBUTES, GameState


def _every_uid(game: GameState) -> list[str]:
    uids = [card.uid for player in PLAYERS for attribute in ZONE_ATTRIBUTES.values()
            for card in getattr(game.players[player], attribute)]
    if game.summon is not None and game.summon.card is not None:
        uids.append(game.summon.card.uid)
    return uids


def _check(game: GameState, picks: random.Random, seen: dict[str, int]) -> None:
    summon = game.summon
    if summon is not None and summon.kind == "set" and summon.card is None:
        # the machines Set a monster straight from the hand; hiding also covers one taken out first
        clone = game.copy()
        assert clone.summon is not None
        found = clone.find(summon.uid)
        if found is not None:
            clone.players[found[0]].zone_list(found[1]).remove(found[2])
            clone.summon.card = found[2]
            _check(clone, picks, seen)
    for viewer in PLAYERS:
        full = hidden_from(game, viewer)
        uids = _every_uid(game)
        assert hidden_of(game, viewer, uids) == full
        some: list[str | None] = [*picks.sample(uids, min(4, len(uids))), None]
        assert hidden_of(game, viewer, some) == {uid: full[uid] for uid in some if uid in full}
        seen["hidden"] += bool(full)
        seen["set_summon"] += any(entry.zone is None for entry in full.values())


@pytest.mark.parametrize("seed", [1, 2])
def test_hidden_of_is_hidden_from_for_the_cards_named(seed: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """Checked after every transition of random duels, so also while a monster being Set is out."""
    picks = random.Random(seed + 100)
    seen = {"hidden": 0, "set_summon": 0}
    take = runtime.DuelRuntime._take

    def checked_take(self: runtime.DuelRuntime, *arguments: Any) -> None:
        take(self, *arguments)
        _check(self.game, picks, seen)

    monkeypatch.setattr(runtime.DuelRuntime, "_take", checked_take)
    duel = Duel(deck_setup(MIXED_DECK, MIXED_DECK, seed), auto_pass=True, trace=False)
    choose = random.Random(seed).choice
    while not duel.is_over:
        duel.apply(choose(duel.legal_actions()))
    assert seen["hidden"] and seen["set_summon"]  # a hand is hidden all along; random play Sets monsters
