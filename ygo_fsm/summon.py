"""Summons: the summon in progress through the summon procedure (steps 1–7), and the Main
Phase rules around it.

The ``summon_procedure`` machine orders the steps; this module does what each step does:

1. the summon is declared (normal summon, normal set, flip summon, or a monster's own special
   summon procedure — 条件召喚, 「サイバー・ドラゴン」…);
2. its conditions are paid: tributes (one for level 5–6, two for level 7+). Mandatory
   triggers met now activate in step 7's window; optional ones met now do not
   (000 【怪兽通常***…】２);
3. the monster is taken out of its place and is in no location until it lands;
4. the summon negation window (only summon-negating cards may start CHAIN1);
5. 情况Ａ the summon succeeds, 6 continuous effects apply, 7 the success window; or 情况Ｂ it
   was negated: the monster goes to the graveyard without being "destroyed", and the
   failure window opens for the mandatory triggers met before the summon would have
   succeeded.

Main Phase rules (002 ●主要阶段1): one normal summon or set per turn; a monster's battle
position changes once per turn by its controller, not the turn it was summoned and not after
it attacked; a Set monster may be flip summoned from the turn after it was Set.
"""

from __future__ import annotations

from dataclasses import replace

from .cards import CardSpec, CardType, EffectKind, Event, SpecialSummonCost
from .continuous import special_summons_forbidden
from .effects import find
from .events import emit
from .game import MONSTER_ZONES, SPELL_TRAP_ZONES, Position, Zone
from .operations import to_graveyard
from .state import CardInstance, Choice, GameState, Summon, SummonKind, card_choice

KIND_TEXT = {"normal": "通常召唤", "set": "里侧表示通常召唤（SET）", "flip": "反转召唤", "special": "特殊召唤"}


def tributes_for(card: CardInstance) -> int:
    """Tributes a normal summon or set needs: 1 for level 5–6, 2 for level 7 or more
    (000 【怪兽通常***…】２ 等级5以上的怪兽通常***的祭品)."""
    return 0 if card.level <= 4 else 1 if card.level <= 6 else 2


def _hand_monsters(game: GameState) -> list[CardInstance]:
    player = game.players[game.turn_player]
    monster = CardType.monster  # read once, not per card (an enum member read from its class is slow)
    return [c for c in player.hand_cards if c.card is not None and c.card.type == monster
            and not c.card.special_summon_only]


def normal_summonable(game: GameState) -> list[Choice]:
    """Monsters in the hand that can be normal summoned or set now: enough monsters to tribute,
    and a free monster zone once they are tributed."""
    available = len(game.players[game.turn_player].monsters)
    return [card_choice(c) for c in _hand_monsters(game)
            for tributes in (tributes_for(c),) if tributes <= available and available - tributes < MONSTER_ZONES]


def flip_summonable(game: GameState) -> list[Choice]:
    """Face-down Defense Position monsters Set before this turn whose position has not changed
    this turn (002 ●主要阶段1 「反转召唤」)."""
    return [card_choice(m) for m in game.players[game.turn_player].monsters
            if not m.face_up and m.set_turn < game.turn and m.position_changed_turn != game.turn]


def _cost_payable(game: GameState, spec: CardSpec) -> bool:
    cost = spec.special_summon_cost
    if cost is None:
        return False
    player = game.players[game.turn_player]
    tributes = [m for m in player.monsters if _fits_tribute(m, cost)]
    banishable = [c for c in player.graveyard_cards if _fits_banish(c, cost)]
    return len(tributes) >= cost.tribute and len(banishable) >= cost.banish_from_graveyard


def _fits_tribute(monster: CardInstance, cost: SpecialSummonCost | None) -> bool:
    return cost is None or not cost.tribute_card or (monster.card is not None and monster.card.id == cost.tribute_card)


def _fits_banish(card: CardInstance, cost: SpecialSummonCost) -> bool:
    return card.card is not None and card.card.type.value == "monster" and (
        not cost.banish_race or card.race == cost.banish_race)


def special_summonable(game: GameState) -> list[Choice]:
    """Monsters in the hand whose own procedure allows a special summon now (000 特殊***)."""
    player, opponent = game.players[game.turn_player], game.players[game.opponent]
    choices: list[Choice] = []
    for card in player.hand_cards:
        if card.card is not None and card.card.special_summon_procedure:
            break
    else:
        return choices  # no monster in the hand has a procedure of its own
    if special_summons_forbidden(game):
        return choices
    for card in player.hand_cards:
        spec = card.card
        if spec is None or not spec.special_summon_procedure:
            continue
        freed = spec.special_summon_cost.tribute if spec.special_summon_cost is not None else 0
        if len(player.monsters) - freed >= MONSTER_ZONES:
            continue
        procedure = spec.special_summon_procedure
        if (procedure == "opponent_controls_monsters_you_control_none" and opponent.monsters and not player.monsters) \
                or (procedure == "cost" and _cost_payable(game, spec)):
            choices.append(card_choice(card))
    return choices


def position_changeable(game: GameState) -> list[Choice]:
    """Face-up monsters whose position may change: once per turn, not the turn they were
    summoned, not after they attacked (002 ●主要阶段1【场上怪兽的表示形式变更】)."""
    return [card_choice(m) for m in game.players[game.turn_player].monsters
            if m.face_up and m.summoned_turn != game.turn and m.position_changed_turn != game.turn
            and m.attacked_turn != game.turn]


def begin(game: GameState, uid: str, kind: SummonKind) -> None:
    """Step 1: the summon is declared."""
    found = find(game, uid)
    assert found is not None, uid
    card = found[2]
    cost = card.card.special_summon_cost if card.card is not None and kind == "special" else None
    needed = tributes_for(card) if kind in ("normal", "set") else cost.tribute if cost is not None else 0
    game.summon = Summon(uid, kind, game.turn_player, needed, cost=cost)
    if kind in ("normal", "set"):
        game.normal_summon_turn = game.turn
    shown = "" if kind == "set" else f"「{card.name}」"
    game.say(f"回合玩家{game.turn_player}{KIND_TEXT[kind]}{shown}的宣言")


def tribute_candidates(game: GameState) -> list[Choice]:
    summon = game.summon
    if summon is None:
        return []
    return [card_choice(m) for m in game.players[summon.player].monsters
            if m.uid not in summon.tributes and m.uid != summon.uid and _fits_tribute(m, summon.cost)]


def tributes_missing(game: GameState) -> bool:
    summon = game.summon
    return summon is not None and len(summon.tributes) < summon.tributes_needed


def pay_tribute(game: GameState, uid: str) -> None:
    summon = game.summon
    assert summon is not None
    found = find(game, uid)
    assert found is not None, uid
    summon.tributes.append(uid)
    to_graveyard(game, found[2], destroyed=False)
    game.say(f"把「{found[2].name}」做祭品")


def conditions_paid(game: GameState) -> None:
    """End of step 2: what paying the conditions caused waits for step 7 (mandatory triggers only)."""
    summon = game.summon
    assert summon is not None
    cost = summon.cost
    if cost is not None and cost.banish_from_graveyard:
        graveyard = game.players[summon.player].graveyard_cards
        banished = [c for c in graveyard if _fits_banish(c, cost)][:cost.banish_from_graveyard]
        for card in banished:
            graveyard.remove(card)
            game.players[summon.player].banished.append(card)
        game.say("从墓地把" + "".join(f"「{c.name}」" for c in banished) + "除外")
    summon.deferred.extend(replace(o, deferred=True) for o in game.events)
    game.events.clear()


def take_out(game: GameState) -> None:
    """Step 3: the monster is taken out (revealed unless Set) and is in no location until it lands."""
    summon = game.summon
    assert summon is not None
    found = find(game, summon.uid)
    if found is not None:
        game.players[found[0]].zone_list(found[1]).remove(found[2])
        summon.card = found[2]
    if summon.kind != "set":
        emit(game, Event.summon_attempted, summon.player, summon.uid)


def is_set(game: GameState) -> bool:
    return game.summon is not None and game.summon.kind == "set"


def negated(game: GameState) -> bool:
    return game.summon is not None and game.summon.negated


def succeed(game: GameState) -> None:
    """Step 5 (情况Ａ): the monster lands; the summon succeeded."""
    summon = game.summon
    assert summon is not None
    card = summon.card
    if card is None:  # a Set is not taken out: it goes straight from the hand
        found = find(game, summon.uid)
        assert found is not None, summon.uid
        card = found[2]
        game.players[found[0]].zone_list(found[1]).remove(card)
    summon.card = None
    if summon.kind != "flip":  # a flip summon turns a monster already on the field face-up
        card.arrive()
    game.players[summon.player].monsters.append(card)
    if summon.kind == "flip":
        card.face_up = True
        card.position = Position.attack
        card.position_changed_turn = game.turn
        event = Event.flip_summoned
    else:
        card.summoned_turn = game.turn
        if summon.kind == "set":
            card.face_up, card.position, card.set_turn = False, Position.defence, game.turn
            event = Event.set_card
        else:
            card.face_up, card.position = True, Position.attack
            event = Event.special_summoned if summon.kind == "special" else Event.normal_summoned
    game.events[:0] = summon.deferred
    emit(game, event, summon.player, card.uid)
    if summon.kind == "normal" and summon.tributes:  # normal summoned with tributes: one thing happening
        emit(game, Event.tribute_summoned, summon.player, card.uid, together=True)
    if summon.kind == "flip":  # flip summoned and flipped face-up: one thing happening
        emit(game, Event.flipped, summon.player, card.uid, together=True)
    game.last_action_summon = summon.kind != "set"
    shown = "怪兽" if summon.kind == "set" else f"「{card.name}」"
    game.say(f"{shown}{KIND_TEXT[summon.kind]}成功")


def fail(game: GameState) -> None:
    """Step 5 (情况Ｂ): the summon failed; the mandatory triggers met before it wait in the failure window."""
    summon = game.summon
    assert summon is not None
    game.events[:0] = summon.deferred
    emit(game, Event.summon_negated, summon.player, summon.uid)


def finish(game: GameState) -> None:
    game.summon = None


def change_position(game: GameState, uid: str) -> None:
    found = find(game, uid)
    assert found is not None, uid
    card = found[2]
    card.position = Position.defence if card.position is Position.attack else Position.attack
    card.position_changed_turn = game.turn
    emit(game, Event.position_changed, game.turn_player, uid)
    shown = "守备" if card.position is Position.defence else "攻击"
    game.say(f"回合玩家{game.turn_player}把「{card.name}」变成{shown}表示")



_SPELL_TRAP_TYPES = (CardType.spell, CardType.trap)


def settable_spell_traps(game: GameState) -> list[Choice]:
    player = game.players[game.turn_player]
    return [card_choice(c) for c in player.hand_cards
            if c.card is not None and c.card.type in _SPELL_TRAP_TYPES
            and (is_field_spell(c) or len(player.spell_traps) < SPELL_TRAP_ZONES)]


def is_field_spell(card: CardInstance) -> bool:
    """A Field Spell Card: it is Set and activated in the Field Zone, never a Spell & Trap Zone
    (Yugipedia "Field Zone")."""
    return card.card is not None and any(e.kind is EffectKind.field_spell for e in card.card.effects)


def set_spell_trap(game: GameState, uid: str) -> None:
    """Set a spell or trap card face-down; it counts as Set this turn."""
    found = find(game, uid)
    assert found is not None, uid
    card = found[2]
    if is_field_spell(card):  # a card already in the Field Zone is sent to the graveyard first
        for old in list(game.players[game.turn_player].field_spells):
            to_graveyard(game, old, destroyed=False)
    game.players[found[0]].hand_cards.remove(card)
    game.players[game.turn_player].zone_list(Zone.field_zone if is_field_spell(card) else Zone.spell_trap).append(card)
    card.face_up = False
    card.set_turn = game.turn
    emit(game, Event.set_card, game.turn_player, uid)
    game.say(f"回合玩家{game.turn_player}覆盖放置1张魔法陷阱卡")
