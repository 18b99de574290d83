"""Continuous effects in force: what they forbid and what they give monsters, read from the field.

A continuous effect is not activated; it applies while its card is face-up on the field (PR17,
continuous effects), and stops the moment the card leaves, is turned face-down, has its effects
negated, or — for a monster — is determined to be destroyed by the battle in progress (004
●持有永续效果的怪兽确定被那次战斗破坏的场合，从那个时点开始效果不再适用). Everything here is
computed from the cards on the field when it is asked, so a monster that arrives later gets what
a Field Spell gives, and nothing lingers once the card has gone:

- :func:`special_summons_forbidden` — 「昇霊術師 ジョウゲン」: neither player may special summon;
- :func:`atk` / :func:`defence` — a monster's ATK/DEF with the ``grants:`` of every continuous
  effect that applies to it (an Equip Spell to its equipped monster, Yugipedia "Equip Spell
  Card"; a Field Spell to the monsters it names, Yugipedia "Field Spell Card");
- :func:`piercing`, :func:`battle_indestructible`, :func:`halves_battle_damage` — what damage
  calculation reads (Yugipedia "Piercing"; "cannot be destroyed by battle"; "Battle damage");
- :func:`equipped_monster` — the monster an Equip Card is equipped to, if it is still there.

This module sits at the bottom of the rule layer (it reads only the state model), so the
activation legality (:mod:`ygo_fsm.legality`), the effects, battle and the views all ask it.
"""

from __future__ import annotations

from .cards import CardType, EffectKind, EffectSpec
from .game import FIELD_ZONES, Zone, other_player
from .grants import Grant
from .state import ZONE_ATTRIBUTES, CardInstance, GameState


def destruction_determined(game: GameState, card: CardInstance) -> bool:
    """``card`` was determined to be destroyed by the battle in progress and is still on the field
    until the end of the Damage Step: its continuous effects no longer apply and it cannot be
    targeted by effects (004 ●持有永续效果的怪兽确定被那次战斗破坏的场合，从那个时点开始效果不再适用。
    而且确定破坏的怪兽，直到该伤害步骤结束、被送去墓地时不能成为效果的对象)."""
    attack = game.attack
    return (attack is not None and attack.outcome == "fought" and card.uid in attack.destroyed
            and card.identity in (attack.attacker_identity, attack.target_identity))


def in_force(game: GameState) -> list[tuple[str, Zone, CardInstance, EffectSpec]]:
    """Every continuous effect that applies now: (controller, zone, card, effect) for each face-up
    card on the field, turn player first, whose effects are not negated and which is not
    determined to be destroyed by battle (kept in ``game.scans`` while the state does not change)."""
    scans = game.scans
    if scans is not None:
        cached = scans.get("continuous_in_force")
        if cached is not None:
            return cached  # type: ignore[return-value]
    negated = {e.uid for e in game.expiring if e.kind == "negated"}  # negate_effects … until
    found: list[tuple[str, Zone, CardInstance, EffectSpec]] = []
    for player in (game.turn_player, other_player(game.turn_player)):
        state = game.players[player]
        for zone in FIELD_ZONES:
            for card in getattr(state, ZONE_ATTRIBUTES[zone]):
                spec = card.card
                if (spec is None or not spec.effects or not card.face_up
                        or (card.uid in negated and spec.type is CardType.monster)
                        or destruction_determined(game, card)):
                    continue
                found += [(player, zone, card, effect) for effect in spec.effects
                          if effect.kind is EffectKind.continuous]
    if scans is not None:
        scans["continuous_in_force"] = found
    return found


def special_summons_forbidden(game: GameState) -> str:
    """The name of a face-up card whose continuous effect forbids special summons (「昇霊術師 ジョウゲン」:
    双方不能特殊召唤; 000 ●スタンバイフェイズ 例1), or ``""``."""
    for _, _, card, effect in in_force(game):
        if effect.forbids == "special_summon":
            return card.name
    return ""


def equipped_monster(game: GameState, card: CardInstance) -> CardInstance | None:
    """The monster the Equip Card ``card`` is equipped to, while that same monster is face-up on
    the field (Yugipedia "Equip Card": an Equip Card whose monster is no longer face-up on the
    field is destroyed)."""
    if not card.equipped_to:
        return None
    for state in game.players.values():
        for monster in state.monsters:
            if monster.identity == card.equipped_to:
                return monster if monster.face_up else None
    return None


def _applies(game: GameState, controller: str, source: CardInstance, grant: Grant, monster: CardInstance) -> bool:
    if not monster.face_up or (grant.races and monster.race not in grant.races):
        return False
    if grant.monsters == "self":
        return monster is source
    if grant.monsters == "equipped":
        return bool(source.equipped_to) and monster.identity == source.equipped_to
    if grant.monsters == "all":
        return True
    mine = monster in game.players[controller].monsters
    return mine if grant.monsters == "own" else not mine


def grants_to(game: GameState, monster: CardInstance) -> list[Grant]:
    """What the continuous effects in force give ``monster`` now."""
    found = []
    for controller, _, card, effect in in_force(game):
        grant = effect.grants
        if grant is not None and _applies(game, controller, card, grant, monster):
            found.append(grant)
    return found


def atk(game: GameState, monster: CardInstance) -> int:
    """``monster``'s ATK now: its own (printed, changed by resolved effects) with every continuous
    change in force, never below 0."""
    return max(0, monster.atk + sum(grant.atk for grant in grants_to(game, monster)))


def defence(game: GameState, monster: CardInstance) -> int:
    """``monster``'s DEF now (see :func:`atk`)."""
    return max(0, monster.defence + sum(grant.defence for grant in grants_to(game, monster)))


def stats(game: GameState, monster: CardInstance) -> tuple[int, int]:
    """``monster``'s (:func:`atk`, :func:`defence`), from one reading of the effects in force."""
    grants = grants_to(game, monster)
    if not grants:
        return max(0, monster.atk), max(0, monster.defence)
    return (max(0, monster.atk + sum(grant.atk for grant in grants)),
            max(0, monster.defence + sum(grant.defence for grant in grants)))


def piercing(game: GameState, monster: CardInstance) -> bool:
    """``monster`` inflicts piercing battle damage (Yugipedia "Piercing")."""
    return any(grant.piercing for grant in grants_to(game, monster))


def battle_indestructible(game: GameState, monster: CardInstance) -> bool:
    """``monster`` cannot be destroyed by battle."""
    return any(grant.battle_indestructible for grant in grants_to(game, monster))


def halves_battle_damage(game: GameState, monster: CardInstance) -> bool:
    """Battle damage from ``monster``'s battles is halved (Yugipedia "Battle damage")."""
    return any(grant.halves_battle_damage for grant in grants_to(game, monster))
