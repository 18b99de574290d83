"""Builders the rule tests share: library cards with exactly the properties a test needs."""

from __future__ import annotations

import random
from typing import Any

from ygo_fsm import Duel, Setup
from ygo_fsm.actions import NUM_DISTINCT_ACTIONS, decode
from ygo_fsm.cards import CardSpec
from ygo_fsm.game import card_id_uids


def card_spec(card_id: str, card_type: str, *effects: dict[str, Any], **extra: Any) -> CardSpec:
    """A library card with the given effects; monsters default to level 4, 1000 ATK / 1000 DEF
    (``extra`` overrides any field, e.g. ``level=5`` or ``**{"def": 0}``)."""
    data: dict[str, Any] = {"id": card_id, "name_ja": card_id, "name_zh": card_id, "type": card_type,
                            "effects": list(effects)}
    if card_type == "monster":
        data.update(level=4, atk=1000, **{"def": 1000})
    data.update(extra)
    return CardSpec.model_validate(data)


def library(*cards: CardSpec) -> dict[str, CardSpec]:
    """A card library holding exactly ``cards``."""
    return {card.id: card for card in cards}


def judge_duel(setup: Setup | None = None, **options: Any) -> Duel:
    """A duel whose cards given no uid are named by their card id, as scenario files name them
    (:func:`ygo_fsm.game.card_id_uids`): the judge's names, for tests that name cards."""
    return Duel(card_id_uids(setup) if setup is not None else None, **options)


def play_randomly(duel: Duel, seed: int, decisions: int) -> Duel:
    """Apply up to ``decisions`` legal actions chosen by a ``random.Random(seed)`` (fewer when the
    duel ends first); the same duel and seed always play the same actions."""
    choose = random.Random(seed).choice
    for _ in range(decisions):
        if duel.is_over:
            break
        duel.apply(choose(duel.legal_actions()))
    return duel


def legal(duel: Duel) -> list[str]:
    """The legal actions' texts."""
    return [str(action) for action in duel.legal_actions()]


def pass_to(duel: Duel, path: str, limit: int = 60) -> None:
    """Pass (whoever holds priority) until the duel is in ``path`` or a state inside it."""
    for _ in range(limit):
        if duel.in_state(path):
            return
        duel.apply("pass")
    raise AssertionError(f"{path} not reached; now {duel.state}")


def check_action_encoding(duel: Duel) -> set[str]:
    """Assert the integer action space is a bijection on ``duel``'s legal actions, that the mask
    matches them and that each index decodes, prints and parses back to its action; returns the
    kinds of the legal actions."""
    legal = duel.legal_actions()
    indices = duel.legal_action_indices()
    assert len(set(indices)) == len(legal)  # no two legal actions share an index
    assert len(set(legal)) == len(legal)  # nor are two equal (apply finds the one offered by identity)
    mask = duel.legal_action_mask()
    assert len(mask) == NUM_DISTINCT_ACTIONS == Duel.num_distinct_actions
    assert {i for i, flag in enumerate(mask) if flag} == set(indices)
    judged = duel.legal_actions(judge=True)  # the same actions, every card named by its uid
    for action, judge, index in zip(legal, judged, indices, strict=True):
        assert decode(duel.game, action.player, index) == (judge.name, judge.choice)
        assert duel.action_to_string(index) == str(action)  # as the acting player is shown it
        assert duel.string_to_action(str(action)) == index == duel.string_to_action(str(judge))
    return {action.name for action in legal}
