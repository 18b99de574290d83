"""Decks and seeds: a duel from two deck lists and a seed (Konami Official Rulebook v10, "Deck":
40 to 60 cards; "Starting the Duel": shuffle, then draw 5), its generator part of the game state."""

from __future__ import annotations

import subprocess
import sys

import pytest
from helpers import play_randomly
from pydantic import ValidationError

from ygo_fsm import Duel
from ygo_fsm.game import Setup

DECK = ["sage_chiron"] * 10 + ["reflect_bounder"] * 10 + ["beetle_armor_knight"] * 10 + ["sapphire_dragon"] * 10
OTHER = ["spirit_dragon"] * 20 + ["sacred_phoenix_of_nephthys"] * 20


def _order(duel: Duel, player: str) -> list[str]:
    state = duel.players[player]
    return [card.uid for card in state.hand_cards + state.deck_cards]


def test_from_decks_deals_an_opening_hand_of_five_from_the_shuffled_deck() -> None:
    """Rulebook v10 "Starting the Duel": each player shuffles and draws 5; the rest is the deck.
    Every card is named: no unnamed card is added to either zone."""
    duel = Duel.new_game(DECK, OTHER, seed=3)
    for player, deck in (("A", DECK), ("B", OTHER)):
        state = duel.players[player]
        assert (state.hand, state.deck) == (5, len(deck) - 5)
        assert state.unnamed_hand == 0 and state.deck == len(state.deck_cards)
        assert sorted(card.card.id for card in state.hand_cards + state.deck_cards if card.card) == sorted(deck)


def test_the_seed_decides_the_shuffle() -> None:
    first, again = Duel.new_game(DECK, OTHER, seed=3), Duel.new_game(DECK, OTHER, seed=3)
    assert _order(first, "A") == _order(again, "A") and first == again
    assert _order(Duel.new_game(DECK, OTHER, seed=4), "A") != _order(first, "A")
    dealt = [card.card.id for card in first.players["A"].hand_cards + first.players["A"].deck_cards if card.card]
    assert dealt != DECK  # shuffled, not dealt in list order


@pytest.mark.parametrize("size", [39, 61])
def test_a_deck_holds_40_to_60_cards(size: int) -> None:
    """Rulebook v10 "Deck": the Main Deck is 40 to 60 cards."""
    with pytest.raises(ValidationError, match="40 to 60"):
        Setup.from_decks(["sage_chiron"] * size, OTHER, seed=1)


def test_a_deck_list_needs_a_seed_and_known_cards() -> None:
    with pytest.raises(ValidationError, match="seed"):
        Setup.model_validate({"players": {"A": {"deck_list": DECK}}})
    with pytest.raises(ValueError, match=r"players\.B\.deck_list\[39\]: unknown card 'no_such_card'"):
        Duel(Setup.from_decks(DECK, [*OTHER[:-1], "no_such_card"], seed=1))


def test_named_cards_never_silently_add_to_a_default_count() -> None:
    """A setup naming a hand card and giving no count has only that card in hand; the deck keeps
    its default; an explicit count still adds that many unnamed cards."""
    named = Duel(players={"A": {"cards": [{"card": "cyclone", "zone": "hand"}]}})
    assert (named.players["A"].hand, named.players["A"].deck) == (1, 35)
    counted = Duel(players={"A": {"hand": 2, "cards": [{"card": "cyclone", "zone": "hand"},
                                                       {"card": "sage_chiron", "zone": "deck"}]}})
    assert (counted.players["A"].hand, counted.players["A"].deck) == (3, 1)
    assert (Duel().players["A"].hand, Duel().players["A"].deck) == (5, 35)


def _play(duel: Duel, seed: int, steps: int) -> Duel:
    return play_randomly(duel, seed, steps)


def test_a_seeded_duel_is_reproducible_across_processes() -> None:
    here = _play(Duel.new_game(DECK, OTHER, seed=21), 5, 300).state_key()
    code = ("import random\nfrom ygo_fsm import Duel\n"
            f"duel = Duel.new_game({DECK!r}, {OTHER!r}, seed=21)\n"
            "choose = random.Random(5).choice\n"
            "for _ in range(300):\n"
            "    if duel.is_over: break\n"
            "    duel.apply(choose(duel.legal_actions()))\n"
            "print(duel.state_key())\n")
    there = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                           env={"PYTHONHASHSEED": "123"}).stdout.strip()
    assert there == here


def test_the_generator_is_part_of_the_saved_state() -> None:
    duel = Duel.new_game(DECK, OTHER, seed=8)
    assert duel.game.rng is not None
    loaded = Duel.from_json(duel.to_json())
    assert loaded == duel and loaded.state_key() == duel.state_key()
    assert loaded.game.rng is not None and loaded.game.rng.state == duel.game.rng.state
    moved = duel.copy()
    assert moved.game.rng is not None
    moved.game.rng.next_word()  # only the generator differs
    assert moved != duel and moved.state_key() != duel.state_key()
    assert duel.copy().game.rng is not duel.game.rng
