"""Targets and operands: what an effect may choose on activation, whether its choice is still
there when it resolves, and which cards an operation's ``what:`` stands for.

A target is chosen on activation (対象をとる) from the cards its kind names; a targeting effect
does nothing once its target is no longer a legal target — it left the field, or the graveyard
it was chosen in — and no new target is chosen (Yugipedia, "Target": the "Monster Reborn" /
"D.D. Crow" and "Offerings to the Doomed" / "Book of Moon" examples). An operation's
``what:`` is the target, this card (``self``), the card of the event the effect answered
(``event_card``), or the attacking monster (``attacker``); group words (``all_monsters`` …)
are the operations' own (:mod:`ygo_fsm.operations`).
"""

from __future__ import annotations

from .cards import EffectSpec, Operation, Target
from .game import FIELD_ZONES, Zone, other_player
from .state import CardInstance, GameState, Link

GRAVEYARD_TARGETS = frozenset({Target.own_graveyard_monster, Target.opponent_graveyard_monster,
                               Target.graveyard_monster})
"""Targets chosen in a graveyard: they must still be there when the effect resolves."""

FIELD_TARGETS = frozenset({Target.opponent_monster, Target.any_monster, Target.own_monster, Target.spell_trap,
                           Target.face_up_monster, Target.opponent_face_up_monster, Target.field_card,
                           Target.set_spell_trap, Target.face_up_spell_trap, Target.face_down_monster})
"""Targets chosen on the field: they must still be on the field when the effect resolves."""


def _monsters_in_graveyard(game: GameState, player: str) -> list[CardInstance]:
    return [c for c in game.players[player].graveyard_cards if c.card is not None and c.card.type.value == "monster"]


def options(game: GameState, controller: str, card: CardInstance, effect: EffectSpec,
            event_card: str | None = None) -> list[str | None]:
    """The target options of the vocabulary's target kinds beyond the original six."""
    target = effect.target
    opponent = other_player(controller)
    both = (controller, opponent)
    if target is Target.face_up_monster:
        return [m.uid for p in both for m in game.players[p].monsters if m.face_up]
    if target is Target.face_down_monster:
        return [m.uid for p in both for m in game.players[p].monsters if not m.face_up]
    if target is Target.opponent_face_up_monster:
        return [m.uid for m in game.players[opponent].monsters if m.face_up]
    if target is Target.own_graveyard_monster:
        return [c.uid for c in _monsters_in_graveyard(game, controller)]
    if target is Target.opponent_graveyard_monster:
        return [c.uid for c in _monsters_in_graveyard(game, opponent)]
    if target is Target.graveyard_monster:
        return [c.uid for p in both for c in _monsters_in_graveyard(game, p)]
    if target is Target.field_card:
        return [c.uid for p in both for c in (*game.players[p].monsters, *_spell_traps(game, p)) if c is not card]
    if target is Target.set_spell_trap:
        return [c.uid for p in both for c in _spell_traps(game, p) if not c.face_up and c is not card]
    if target is Target.face_up_spell_trap:
        return [c.uid for p in both for c in _spell_traps(game, p) if c.face_up and c is not card]
    if target is Target.event_card:
        return [event_card] if event_card is not None else []
    return [None]


def _spell_traps(game: GameState, player: str) -> list[CardInstance]:
    """The Spell/Trap Cards ``player`` has on the field: the Spell & Trap Zones and the Field Zone
    (Yugipedia "Field Zone": a Field Spell there is a Spell Card on the field)."""
    return [*game.players[player].spell_traps, *game.players[player].field_spells]


def chosen_targets(link: Link) -> list[tuple[str, str]]:
    """Every target of the link with its field identity when chosen (:mod:`ygo_fsm.multi_target`)."""
    if link.target is None:
        return []
    return [(link.target, link.target_identity), *zip(link.more_targets, link.more_target_identities, strict=True)]


def target_gone(game: GameState, effect: EffectSpec, link: Link) -> bool:
    """The link's target left the place it was chosen in (a targeting effect then does nothing);
    with several targets: all of them did — or any, when the effect needs every one
    (``all_needed``, :mod:`ygo_fsm.multi_target`)."""
    if link.target is None or effect.target not in GRAVEYARD_TARGETS | FIELD_TARGETS:
        return False
    gone = [_gone(game, effect, uid, identity) for uid, identity in chosen_targets(link)]
    count = effect.target_count
    return any(gone) if count is not None and count.all_needed else all(gone)


def _gone(game: GameState, effect: EffectSpec, uid: str, identity: str) -> bool:
    found = game.find(uid)
    if found is None:
        return True
    if effect.target in GRAVEYARD_TARGETS:
        return found[1] is not Zone.graveyard
    # a target that left the field and came back is a new card, no longer the target (004 ●…也视为怪兽数量发生变化)
    return found[1] not in FIELD_ZONES or (bool(identity) and found[2].identity != identity)


def operands(game: GameState, op: Operation, link: Link, card: CardInstance) -> list[CardInstance]:
    """The cards ``op.what`` names: the target, this card, the event's card or the attacker
    (none when it is gone). One that was a monster on the field when it was chosen (or declared
    the attack) must still be that monster: once it left the field, a monster that comes back is
    a new monster it no longer names (004 ●…也视为怪兽数量发生变化)."""
    what = op.what
    identity = ""
    if what == "self":
        uid: str | None = card.uid
        identity = link.source_identity
    elif what == "target" and link.more_targets:
        effect = card.card.effects[link.effect] if card.card is not None else None
        return [game.find(uid)[2] for uid, identity in chosen_targets(link)  # type: ignore[index]
                if effect is None or not _gone(game, effect, uid, identity)]
    elif what == "target":
        uid, identity = link.target, link.target_identity
    elif what == "event_card":
        uid, identity = link.event_card, link.event_card_identity
    elif what == "attacker":
        uid = game.attack.attacker if game.attack is not None else None
        identity = game.attack.attacker_identity if game.attack is not None else ""
    else:
        return []
    found = game.find(uid) if uid is not None else None
    if found is None:
        return []
    if identity and found[1] is Zone.monster and found[2].identity != identity:
        return []  # it left the field and came back: a new monster
    return [found[2]]
