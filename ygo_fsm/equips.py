"""Equip Spells: the rule that destroys an Equip Card equipped to nothing.

An Equip Spell targets a face-up monster when it is activated and, on resolution, is equipped to
it (:func:`ygo_fsm.operations._equip`, ``op: equip``); its continuous effects then apply to that
monster (``grants: {monsters: equipped}``, :mod:`ygo_fsm.continuous`). An Equip Card constantly
needs that monster: once it is no longer face-up on the field — it left the field, was turned
face-down, or came back as a new monster — the Equip Card is immediately destroyed (Yugipedia
"Equip Card": if the equipped monster is no longer face-up on the field, or is no longer a valid
target, the Equip Card is immediately destroyed; "Equip Spell Card"). So is an Equip Spell whose
activation resolved with no monster to equip (its target gone). This destruction is the rules',
not a card effect's: no player's effect caused it and no chain link carries it. The runtime
applies it after every transition that may have moved a card, as it judges LP after one in which
a player lost LP (:meth:`ygo_fsm.runtime.DuelRuntime._take`).
"""

from __future__ import annotations

from .cards import EffectKind
from .continuous import equipped_monster
from .operations import to_graveyard
from .state import CardInstance, GameState


def is_equip_spell(card: CardInstance) -> bool:
    """The card is an Equip Spell (its activation is an ``equip_spell`` effect)."""
    return card.card is not None and any(e.kind is EffectKind.equip_spell for e in card.card.effects)


def unequipped(game: GameState) -> list[CardInstance]:
    """Face-up Equip Spells on the field equipped to no monster now, their activation no longer on
    the chain, and not already due to leave once the chain has resolved (an Equip Spell whose
    activation was negated goes to the GY then, not destroyed: Yugipedia "Negate")."""
    players = game.players
    if not players["A"].spell_traps and not players["B"].spell_traps:
        return []  # no Spell/Trap on the field (the engine asks after every transition that may move a card)
    return _unequipped_on_field(game)


def _unequipped_on_field(game: GameState) -> list[CardInstance]:
    # of its own: unequipped makes no closure cells (tests/test_hot_paths.py)
    players = game.players
    equips = [card for state in players.values() for card in state.spell_traps
              if card.face_up and is_equip_spell(card)]
    if not equips:
        return equips
    waiting = {link.uid for link in game.chain} | {uid for uid, _ in game.leaving_after_chain}
    return [card for card in equips if card.uid not in waiting and equipped_monster(game, card) is None]


def destroy_unequipped(game: GameState) -> bool:
    """Destroy (send to the graveyard, by the rules) every Equip Spell :func:`unequipped` finds;
    whether there was one."""
    found = unequipped(game)
    for index, card in enumerate(found):
        to_graveyard(game, card, destroyed=True, together=index > 0)
        game.say(f"「{card.name}」没有装备的怪兽而被破坏（规则）")
    return bool(found)
