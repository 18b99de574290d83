"""Choosers that list only the turn player's own hand and field cards (``registry.KNOWN_TO_ACTOR``),
face-down cards included, which the turn player may know: a player may look at their own hand and Set
cards, never at a deck nor at the opponent's hand or face-down cards (Yugipedia "Look";
:func:`ygo_fsm.hiding.known_to`).
``Duel.legal_actions()`` does not look up the cards of such options, so the declaration is checked
against masking itself at every decision of random full duels."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from ygo_fsm import Duel
from ygo_fsm.bench_duels import MIXED_DECK, VANILLA_DECK
from ygo_fsm.registry import CHOOSERS, KNOWN_TO_ACTOR
from ygo_fsm.views import hidden_among, key_uids


def _play_checking(duel: Duel, seed: int, decisions: int) -> Counter[str]:
    """Random play; at each decision, every option a chooser of KNOWN_TO_ACTOR lists for the turn
    player names no card hidden from them, and the actions offered are those a full lookup masks. Returns
    how many options each chooser listed."""
    listed: Counter[str] = Counter()
    choose = random.Random(seed).choice
    for _ in range(decisions):
        if duel.is_over:
            break
        options = duel._options()
        for holder, _, transition, option in options:
            name = transition.spec.choices
            if option is None or name not in KNOWN_TO_ACTOR or holder != duel.turn_player:
                continue  # (offered to the other player, the cards are looked up)
            listed[name] += 1
            hidden = hidden_among(duel.game, holder, key_uids(option.key))
            assert not hidden, (f"{name} offered {holder} {option.key!r} in {duel.state}, naming "
                                f"{sorted(hidden)} hidden from them")
        actions = duel.legal_actions()
        full = duel._hidden_in_options(options) if any(o is not None for _, _, _, o in options) else {}
        judge = duel.legal_actions(judge=True)
        if full:  # a key names a hidden card: masked by its place
            assert actions != judge
        else:  # nothing hidden: the judge's actions, however they were found
            assert actions == judge
        duel.apply(choose(actions))
    return listed


@pytest.mark.parametrize(("deck", "seed"), [(VANILLA_DECK, 3), (VANILLA_DECK, 8), (MIXED_DECK, 5), (MIXED_DECK, 17)])
def test_a_known_cards_chooser_names_no_card_hidden_from_the_player_it_offers(deck: tuple[str, ...], seed: int) -> None:
    duel = Duel.new_game(list(deck), list(deck), seed=seed, auto_pass=True, trace=False)
    listed = _play_checking(duel, seed, 1500)
    assert sum(listed.values()) > 100
    assert {"normal_summonable", "position_changeable", "attackers"} <= set(listed)


def test_every_known_cards_chooser_is_exercised() -> None:
    """Each declared chooser lists options somewhere in these duels (a declaration no duel reaches is
    not checked)."""
    listed: Counter[str] = Counter()
    for deck, seed in ((MIXED_DECK, 5), (MIXED_DECK, 17), (MIXED_DECK, 29), (VANILLA_DECK, 3)):
        listed += _play_checking(Duel.new_game(list(deck), list(deck), seed=seed, auto_pass=True, trace=False),
                                 seed, 3000)
    assert set(listed) == KNOWN_TO_ACTOR


def test_only_registered_choosers_are_declared() -> None:
    assert set(CHOOSERS) >= KNOWN_TO_ACTOR
    assert "attack_targets" not in KNOWN_TO_ACTOR  # the opponent's face-down monsters are targets too
