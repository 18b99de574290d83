"""Decks: the cards of a ``deck_list`` become named cards, shuffled by the duel's generator,
and the opening hand is drawn (Konami Official Rulebook v10, "Deck": 40 to 60 cards;
"Starting the Duel": each player shuffles the deck and draws 5 cards).

Copy limits and the Forbidden & Limited list are not checked: a benchmark or a test may use
a deck of any 40–60 library cards.

>>> from ygo_fsm import Duel
>>> from ygo_fsm.game import Setup
>>> deck = ["sage_chiron"] * 20 + ["reflect_bounder"] * 20
>>> duel = Duel(Setup.from_decks(deck, deck, seed=11))
>>> duel.players["A"].hand, duel.players["A"].deck   # 5 drawn, 35 left; A draws nothing on turn 1
(5, 35)
>>> Duel(Setup.from_decks(deck, deck, seed=11)) == duel
True
"""

from __future__ import annotations

from collections.abc import Mapping

from .cards import CardSpec
from .game import OPENING_HAND, PLAYERS, Setup, monster_uid, placement_uids
from .rng import DuelRandom
from .state import CardInstance, GameState

__all__ = ["deal", "deck_uids"]


def deck_uids(setup: Setup) -> dict[str, list[str]]:
    """The uid of each card of each player's ``deck_list``, in list order: its card id, with
    ``_2``, ``_3`` … for later copies, never one a placement or a named monster already has."""
    taken = set(placement_uids(setup).values())
    taken |= {monster_uid(p, i) for p in PLAYERS for i in range(len(setup.players[p].monsters))}
    counts: dict[str, int] = {}
    out: dict[str, list[str]] = {}
    for player in PLAYERS:
        uids = out[player] = []
        for card in setup.players[player].deck_list:
            while True:
                number = counts[card] = counts.get(card, 0) + 1
                uid = card if number == 1 else f"{card}_{number}"
                if uid not in taken:
                    break
            taken.add(uid)
            uids.append(uid)
    return out


def deal(game: GameState, setup: Setup, library: Mapping[str, CardSpec]) -> None:
    """Start the generator from ``setup.seed``; for each player with a ``deck_list`` (A first),
    shuffle it into the deck and draw the opening hand of 5 from its top.

    Raises ``ValueError`` naming the item for a card id the library does not have.
    """
    if setup.seed is None:
        return
    game.rng = rng = DuelRandom(setup.seed)
    uids = deck_uids(setup)
    for player in PLAYERS:
        cards = setup.players[player].deck_list
        if not cards:
            continue
        deck: list[CardInstance] = []
        for index, (card_id, uid) in enumerate(zip(cards, uids[player], strict=True)):
            spec = library.get(card_id)
            if spec is None:
                raise ValueError(f"players.{player}.deck_list[{index}]: unknown card {card_id!r}")
            deck.append(CardInstance.of_card(uid, player, spec))
        rng.shuffle(deck)
        state = game.players[player]
        state.hand_cards.extend(deck[:OPENING_HAND])
        state.deck_cards.extend(deck[OPENING_HAND:])
