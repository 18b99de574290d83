"""Placing a setup's cards: the game data a :class:`~ygo_fsm.game.Setup` describes before any
machine runs — its named cards in their zones (checked against the zones' rules and sizes), the
dealt decks and hands, and the turn effects it names."""

from __future__ import annotations

from collections.abc import Mapping

from .cards import CardSpec, CardType, EffectKind, default_library
from .decks import deal
from .engine import Rulebook, default_rulebook
from .equips import is_equip_spell
from .game import FIELD_ZONE_CAPACITY, MONSTER_ZONES, PLAYERS, SPELL_TRAP_ZONES, Setup, Zone, placement_uids
from .state import CardInstance, GameState, PlayerState

__all__ = ["initial_game", "place_cards", "uses_cards"]


def uses_cards(setup: Setup) -> bool:
    """Whether the setup names library cards (then the default library is loaded)."""
    return any(player.cards or player.deck_list for player in setup.players.values())


def place_cards(game: GameState, setup: Setup) -> None:
    """Put the setup's named library cards in their zones."""
    uids = placement_uids(setup)
    equipping: list[tuple[str, CardInstance, str]] = []
    for player in PLAYERS:
        for index, placement in enumerate(setup.players[player].cards):
            card = game.library.get(placement.card)
            if card is None:
                raise ValueError(f"players.{player}.cards[{index}]: unknown card {placement.card!r}")
            uid = uids[(player, index)]
            if placement.zone is Zone.monster and card.type is not CardType.monster:
                raise ValueError(f"players.{player}.cards[{index}]: {card.id} is not a monster; "
                                 "it cannot be placed in the monster zone")
            if placement.zone is Zone.spell_trap and card.type is CardType.monster:
                raise ValueError(f"players.{player}.cards[{index}]: {card.id} is a monster; "
                                 "it cannot be placed in the spell/trap zone")
            field_spell = any(effect.kind is EffectKind.field_spell for effect in card.effects)
            if (placement.zone is Zone.field_zone) is not field_spell and placement.zone in (Zone.spell_trap,
                                                                                           Zone.field_zone):
                raise ValueError(f"players.{player}.cards[{index}]: a Field Spell goes in the field_zone, "
                                 "and only a Field Spell does")
            face_down_attack = placement.face_up is False and placement.position.value == "attack"
            if placement.zone is Zone.monster and face_down_attack:
                raise ValueError(f"players.{player}.cards[{index}]: a face-down monster is in Defense Position")
            zones = {Zone.monster: MONSTER_ZONES, Zone.spell_trap: SPELL_TRAP_ZONES,
                     Zone.field_zone: FIELD_ZONE_CAPACITY}.get(placement.zone)
            if zones is not None and len(game.players[player].zone_list(placement.zone)) >= zones:
                raise ValueError(f"players.{player}.cards[{index}]: the {placement.zone.value} zones are full "
                                 f"({zones})")
            instance = CardInstance.of_card(uid, player, card)
            instance.position = placement.position
            set_zone = placement.zone in (Zone.spell_trap, Zone.field_zone)
            default_face_up = not set_zone or card.type is CardType.monster
            instance.face_up = default_face_up if placement.face_up is None else placement.face_up
            instance.set_turn = placement.set_turn if placement.set_turn is not None else setup.turn - 1
            if placement.destroyed_this_turn:
                instance.destroyed_turn = setup.turn
            game.players[player].zone_list(placement.zone).append(instance)
            if placement.equipped_to:
                equipping.append((f"players.{player}.cards[{index}]", instance, placement.equipped_to))
    for where, instance, target in equipping:
        monster = next((m for state in game.players.values() for m in state.monsters if m.uid == target), None)
        if not is_equip_spell(instance) or not instance.face_up or monster is None or not monster.face_up:
            raise ValueError(f"{where}: equipped_to: only a face-up Equip Spell is equipped, to a face-up "
                             f"monster on the field ({target!r} is not one, or the card is not)")
        instance.equipped_to = monster.identity


def initial_game(setup: Setup, *, rulebook: Rulebook | None = None,
                 library: Mapping[str, CardSpec] | None = None) -> GameState:
    """The game data ``setup`` describes, before any machine runs (no frames yet).

    Raises ``ValueError`` naming the placement when a card cannot be where the setup puts it.
    """
    if library is None:
        library = default_library() if uses_cards(setup) else {}
    game = GameState(profile=setup.profile, turn=setup.turn, turn_player=setup.turn_player, library=library,
                     state_specs=(rulebook or default_rulebook()).state_specs,
                     players={p: PlayerState(setup.players[p], p) for p in PLAYERS})
    place_cards(game, setup)
    deal(game, setup, library)
    game.turn_effects = {turn: frozenset(effects) for turn, effects in setup.effects_on_turn.items()}
    if setup.effects:
        game.turn_effects[setup.turn] = game.turn_effects.get(setup.turn, frozenset()) | set(setup.effects)
    return game
