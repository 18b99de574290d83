"""The quick lookups the hot paths use give what the plain ones give: finding a card by uid,
whether option keys name only cards of the viewer's own zones but the deck (which masking then
need not read: ``views.known_to`` — the hand to its holder, the field and graveyard to both, no
deck card to anyone), and options and actions given again as the same values."""

from __future__ import annotations

import random

from helpers import play_randomly

from ygo_fsm import Duel
from ygo_fsm.bench_duels import MIXED_DECK
from ygo_fsm.game import PLAYERS
from ygo_fsm.runtime import Action, offered_action
from ygo_fsm.state import ZONE_ATTRIBUTES, Choice, GameState, card_choice
from ygo_fsm.views import hidden_from


def _duel(seed: int) -> Duel:
    return play_randomly(Duel.new_game(list(MIXED_DECK), list(MIXED_DECK), seed=seed, auto_pass=True), seed, 120)


def _every_card(game: GameState) -> list[tuple[str, str, str]]:
    return [(player, zone.value, card.uid) for player in PLAYERS for zone, attribute in ZONE_ATTRIBUTES.items()
            for card in getattr(game.players[player], attribute)]


def test_find_gives_each_card_where_it_is() -> None:
    game = _duel(4).game
    for player, zone, uid in _every_card(game):
        found = game.find(uid)
        assert found is not None and (found[0], found[1].value, found[2].uid) == (player, zone, uid)
    assert game.find("no_such_card") is None


def test_only_own_cards_outside_the_deck_are_known_without_reading_the_rest() -> None:
    game = _duel(6).game
    cards = _every_card(game)
    pick = random.Random(6).sample
    for viewer in PLAYERS:
        hidden = hidden_from(game, viewer)
        own_open = [uid for player, zone, uid in cards if player == viewer and zone != "deck"]
        others = [uid for player, zone, uid in cards if player != viewer or zone == "deck"]
        assert own_open and others
        for count in (1, 3):
            chosen = set(pick(own_open, min(count, len(own_open))))
            assert game.all_in_zones_but_deck(viewer, chosen)
            assert not chosen & set(hidden)  # and indeed none of them is hidden from the viewer
            assert not game.all_in_zones_but_deck(viewer, chosen | {pick(others, 1)[0]})
        own_deck = [uid for player, zone, uid in cards if player == viewer and zone == "deck"]
        assert own_deck and not game.all_in_zones_but_deck(viewer, {own_deck[0]})  # a deck card is hidden


def test_options_and_actions_given_again_are_the_same_values() -> None:
    card = _duel(8).game.players["A"].hand_cards[0]
    assert card_choice(card) == Choice(card.uid, f"「{card.name}」")
    action = offered_action("activate", "A", card.uid, "「x」")
    assert action == Action("activate", "A", card.uid, "「x」") and action.label == "「x」"
    assert offered_action("pass", "B") == Action("pass", "B") and offered_action("pass", "B").choice is None
