"""Operations: what resolving an effect does to the game, in the small vocabulary of
:class:`~ygo_fsm.cards.Op` (damage, recover, draw, destroy, special summon, negate …), and the
card movements they share with the rules (:mod:`ygo_fsm.movements`: to the graveyard,
drawing, discarding; re-exported here).

Each operation returns what happened in the seeds' words (``「…」破坏``), or ``""`` when it
did nothing; whether the chain's last action was a summon (001 例1/例2) follows the last
operation that did something.
"""

from __future__ import annotations

__all__ = ["ORIGINS", "discard", "draw_card", "run_operation", "to_graveyard"]

from . import continuous
from .cards import RESOLUTIONS, CardSpec, CardType, Cause, EffectKind, Event, Op, Operation
from .continuous import special_summons_forbidden
from .durations import lasting
from .effects import find, move, player_text
from .events import emit, face_of
from .game import FIELD_ZONES, MONSTER_ZONES, Position, TurnEffect, Zone, other_player
from .legality import matches
from .movements import ORIGINS, discard, draw_card, to_graveyard
from .state import CardInstance, Expiry, GameState, Link
from .targeting import operands

_SKIPS = {"draw_phase": TurnEffect.skip_draw_phase, "standby_phase": TurnEffect.skip_standby_phase,
          "main_phase_1": TurnEffect.skip_main_phase_1, "battle_phase": TurnEffect.skip_battle_phase}
"""``skip_phase``'s ``what``: the phase skipped in the affected player's next turn."""


def _player_for(game: GameState, link: Link, who: str) -> str:
    if who == "controller":
        return link.controller
    if who == "turn_player":
        return game.turn_player
    return other_player(link.controller)


def _summon(game: GameState, card: CardInstance, player: str, position: Position, *, own_effect: bool,
            by: str = "", face_down: bool = False) -> None:
    where = find(game, card.uid)
    origin = ORIGINS.get(where[1], "") if where is not None else ""
    again = where is not None and where[1] is Zone.monster
    if again:
        card.leave_field()
    move(game, card, Zone.monster, player=player)
    if again:
        card.arrive()  # summoned anew: a new monster (004 ●…也视为怪兽数量发生变化)
    card.face_up = not face_down
    if face_down:
        card.set_turn = game.turn
    card.position = position
    card.summoned_by_own_effect = own_effect
    card.summoned_turn = game.turn
    emit(game, Event.special_summoned, player, card.uid, cause=Cause.effect.value, by=by, origin=origin)
    game.last_action_summon = True


def run_operation(game: GameState, op: Operation, link: Link, card: CardInstance) -> str:
    """Run one operation; returns what happened, in the seeds' words ('' when nothing).

    Whether the chain's last action was a summon (001 例1/例2) follows the last operation that
    did something."""
    result = _operate(game, op, link, card)
    if result and op.op is not Op.special_summon:
        game.last_action_summon = False
    game.check_lp()  # the duel ends the moment a player's LP reach 0 (PR17 p.43)
    return result


def _amount(game: GameState, op: Operation, link: Link) -> int:
    if op.amount_of == "attacker_atk":
        attacker = find(game, game.attack.attacker) if game.attack is not None else None
        return continuous.atk(game, attacker[2]) if attacker is not None else 0
    if op.amount_of == "target_atk":
        return link.target_atk
    return op.amount


_ON_THIS_CARD = (Op.modify_atk, Op.return_to_hand, Op.banish)
"""Operations that can act on "this card" (``what: self``)."""


def _still_this_card(game: GameState, link: Link, card: CardInstance) -> bool:
    """A monster activated on the field is still that monster: one that left the field (and perhaps
    came back) is a new card (004 ●…也视为怪兽数量发生变化)."""
    if not link.source_identity:
        return True
    where = find(game, card.uid)
    return where is not None and where[1] is Zone.monster and card.identity == link.source_identity


def _operate(game: GameState, op: Operation, link: Link, card: CardInstance) -> str:
    kind = op.op
    if op.what == "self" and kind in _ON_THIS_CARD and not _still_this_card(game, link, card):
        return ""
    if kind is Op.damage:
        amount = _amount(game, op, link)
        players = [game.turn_player, game.opponent] if op.to == "both" else [_player_for(game, link, op.to)]
        for player in players:
            game.lose_lp(player, amount)
            emit(game, Event.damage_taken, player)
        return "、".join(players) + f"受到{amount}分伤害"
    if kind is Op.recover:
        player = _player_for(game, link, op.to)
        amount = _amount(game, op, link)
        game.players[player].lp += amount
        return f"{player}的基本分恢复{amount}"
    if kind is Op.change_position:
        return _change_position(game, op, link, card)
    if kind is Op.draw:
        return _draw(game, op, link)
    if kind in (Op.return_to_hand, Op.return_to_deck):
        return _return(game, op, link, card)
    if kind is Op.destroy:
        return _destroy(game, op, link, card)
    if kind is Op.send_to_graveyard:
        if op.what == "all_except_target":
            return _send_all_but_target(game, link)
        sent = [c for c in operands(game, op, link, card) if _zone(game, c) is not Zone.graveyard]
        for victim in sent:
            to_graveyard(game, victim, destroyed=False, cause=Cause.effect.value, by=link.controller)
        return "".join(f"「{v.name}」" for v in sent) + "送去墓地" if sent else ""
    if kind is Op.special_summon:
        return _special_summon(game, op, link, card)
    if kind is Op.tribute:
        own = [m for m in game.players[link.controller].monsters if m is not card]
        if not own:
            return ""
        to_graveyard(game, own[0], destroyed=False)
        return f"「{own[0].name}」作为祭品"
    if kind is Op.negate_activation:
        return _negate_previous(game, op, link)
    if kind is Op.negate_effect:
        return _negate_effect(game)
    if kind is Op.negate_summon:
        return _negate_summon(game)
    if kind is Op.last_battle_judgement:
        return _last_battle(game)
    if kind is Op.replace_draw:
        player = game.turn_player
        game.replace_draw()
        state = game.players[player]
        if state.deck - len(state.deck_cards) > 0:  # a card is added from the deck: not a draw
            state.deck -= 1
            state.hand += 1
        return f"{player}代替通常的抽卡，从卡组把1张卡加入手卡"
    if kind is Op.pay_lp:
        player = _player_for(game, link, op.to)
        game.lose_lp(player, op.amount)
        return f"{player}支付{op.amount}基本分"
    if kind is Op.halve_atk:
        attack = game.attack
        found = find(game, attack.attacker) if attack is not None else None
        if found is None:
            return ""
        halved = found[2]
        before = halved.atk
        halved.atk //= 2
        lasting(game, op, link, halved, "atk", atk=halved.atk - before)
        return f"「{found[2].name}」的攻击力变成一半（{continuous.atk(game, found[2])}）"
    if kind is Op.discard:
        player = _player_for(game, link, op.to)
        before = game.players[player].hand
        discard(game, player, min(op.amount or 1, before), cause=Cause.effect.value, by=link.controller)
        return f"{player}丢弃{before - game.players[player].hand}张手卡"
    if kind is Op.banish:
        return _banish(game, op, link, card)
    if kind is Op.skip_phase:
        player = _player_for(game, link, op.to)
        next_turn = game.turn + (2 if player == game.turn_player else 1)
        game.add_turn_effect(_SKIPS[op.what], next_turn)
        return f"{player}的下一个回合跳过{op.what}"
    if kind is Op.end_battle_phase:
        game.add_turn_effect(TurnEffect.battle_phase_ended)
        return "战斗阶段结束"
    if kind is Op.cannot_attack:
        game.add_turn_effect(TurnEffect.cannot_attack)
        return "这个回合怪兽不能攻击"
    if kind in (Op.modify_atk, Op.modify_def):
        return _modify(game, op, link, card)
    if kind is Op.take_control:
        return _take_control(game, op, link, card)
    if kind is Op.token:
        return _tokens(game, op, link)
    if kind is Op.search:
        return _search(game, op, link)
    if kind is Op.negate_effects:
        negated = [c for c in operands(game, op, link, card) if _zone(game, c) is Zone.monster]
        for monster in negated:
            lasting(game, op, link, monster, "negated")
        return "".join(f"「{m.name}」" for m in negated) + "的效果无效" if negated else ""
    if kind is Op.no_battle_damage:
        player = _player_for(game, link, op.to if "to" in op.model_fields_set else "controller")
        game.expiring.append(_player_expiry(game, op, link, player))
        return f"{player}不受战斗伤害"
    if kind is Op.equip:
        return _equip(game, op, link, card)
    if kind is Op.win:
        game.end_duel(winner=link.controller, reason="effect")
        return f"{link.controller}获得决斗的胜利"
    if kind is Op.draw_duel:
        game.end_duel(winner=None, reason="draw")
        return "平局"
    if kind is Op.callable:
        RESOLUTIONS[op.name](game, link)
        return op.name
    return ""


def _draw(game: GameState, op: Operation, link: Link) -> str:
    """Each player concerned draws; one who must draw more cards than their deck holds draws
    what there is and loses, at once — both at the same moment is a draw (PR17 p.43; 004
    ●卡组没有卡在需要抽卡却无卡可抽的场合，该玩家决斗败北)."""
    players = [game.turn_player, game.opponent] if op.to == "both" else [_player_for(game, link, op.to)]
    wanted = op.amount or 1
    short: list[str] = []
    texts = []
    for player in players:
        drawn = sum(draw_card(game, player) for _ in range(wanted))
        if drawn < wanted:
            short.append(player)
        texts.append(f"{player}抽{drawn}张卡")
    if short:
        game.check_lp(cannot_draw=tuple(short))
    return "，".join(texts)


def _destroy(game: GameState, op: Operation, link: Link, card: CardInstance) -> str:
    if op.what in ("self", "event_card", "target"):
        victims = [c for c in operands(game, op, link, card) if _zone(game, c) in FIELD_ZONES]
    elif op.what == "all_monsters":
        victims = [m for p in (game.turn_player, game.opponent) for m in list(game.players[p].monsters)]
    elif op.what == "opponent_attack_position_monsters":
        victims = [m for m in game.players[other_player(link.controller)].monsters if m.position is Position.attack]
    elif op.what == "attacker":
        # 000 ※攻击中止: a monster changed to Defense Position is no longer the attacking monster
        attack = game.attack
        found = find(game, attack.attacker) if attack is not None else None
        victims = ([found[2]] if found is not None and found[1] is Zone.monster
                   and found[2].position is Position.attack else [])
    else:
        victims = []
    for number, victim in enumerate(victims):  # all at once
        to_graveyard(game, victim, destroyed=True, cause=Cause.effect.value, by=link.controller, together=number > 0)
    if not victims:
        return ""
    if op.what == "all_monsters":
        return "场上存在的全部怪兽破坏"
    return "".join(f"「{v.name}」" for v in victims) + "破坏"


def _send_all_but_target(game: GameState, link: Link) -> str:
    """Every other card on both fields and in both hands goes to the graveyard."""
    sent = []
    for player in (game.turn_player, game.opponent):
        state = game.players[player]
        for zone in (Zone.hand, *FIELD_ZONES):
            for card in list(state.zone_list(zone)):
                if card.uid != link.target and card.uid != link.uid:
                    to_graveyard(game, card, destroyed=False)
                    sent.append(card.name)
        state.graveyard += state.unnamed_hand
        state.hand = len(state.hand_cards)
    return "双方的其他的场上和手上的卡全部送去墓地" + (f"（{'、'.join(f'「{n}」' for n in sent)}）" if sent else "")


def _special_summon(game: GameState, op: Operation, link: Link, card: CardInstance) -> str:
    player = _player_for(game, link, op.to) if "to" in op.model_fields_set else link.controller
    if len(game.players[player].monsters) >= MONSTER_ZONES:
        return ""  # no free monster zone
    forbidding = special_summons_forbidden(game)
    if forbidding:
        return f"因为「{forbidding}」，不能特殊召唤"
    if op.what == "self":
        summoned = card
    elif op.what in ("target", "event_card"):
        chosen = operands(game, op, link, card)
        if not chosen or chosen[0].card is None or chosen[0].card.type is not CardType.monster:
            return ""
        summoned = chosen[0]
    else:
        sources = {"deck": game.players[link.controller].deck_cards,
                   "graveyard": game.players[link.controller].graveyard_cards}
        source = sources.get(op.from_, game.players[link.controller].hand_cards)
        summoned_or_none = next((c for c in source if matches(c, op.what)), None)
        if summoned_or_none is None:
            return ""
        summoned = summoned_or_none
    origin = _zone(game, summoned)
    position = Position.attack if op.position == "attack" else Position.defence
    if op.amount:
        summoned.atk = summoned.defence = op.amount
    _summon(game, summoned, player, position, own_effect=op.what == "self", by=link.controller,
            face_down=op.position == "face_down_defence")
    if op.what in ("target", "event_card"):
        where = {Zone.deck: "卡组", Zone.hand: "手卡", Zone.graveyard: "墓地", Zone.banished: "除外的"}.get(
            origin, "") if origin is not None else ""
    else:
        where = {"deck": "卡组", "hand": "手卡", "graveyard": "墓地"}.get(op.from_, "")
    shown = {"defence": "守备表示", "face_down_defence": "里侧守备表示"}.get(op.position, "")
    return f"{player}{where}的「{summoned.name}」{shown}特殊召唤"


def _zone(game: GameState, card: CardInstance) -> Zone | None:
    found = find(game, card.uid)
    return found[1] if found is not None else None


def _change_position(game: GameState, op: Operation, link: Link, card: CardInstance) -> str:
    """Change the battle position of the operands (``all_face_up``: every face-up monster,
    「重力解除」), or set it to ``position:`` when given (``face_down_defence``: 里侧守备表示)."""
    if op.what == "all_face_up":
        monsters = [m for p in (game.turn_player, game.opponent) for m in game.players[p].monsters if m.face_up]
    else:
        monsters = [m for m in operands(game, op, link, card) if _zone(game, m) is Zone.monster]
    changed = []
    for monster in monsters:
        was_face_down = not monster.face_up
        if "position" in op.model_fields_set:
            monster.position = Position.attack if op.position == "attack" else Position.defence
            monster.face_up = op.position != "face_down_defence"
        else:
            monster.position = Position.defence if monster.position is Position.attack else Position.attack
        shown = "里侧守备" if not monster.face_up else "守备" if monster.position is Position.defence else "攻击"
        changed.append(f"「{monster.name}」变成{shown}表示")
        emit(game, Event.position_changed, link.controller, monster.uid, cause=Cause.effect.value, by=link.controller)
        if was_face_down and monster.face_up:  # turned face-up by an effect: flipped (its FLIP effect answers)
            owner = next(p for p in (game.turn_player, game.opponent) if monster in game.players[p].monsters)
            emit(game, Event.flipped, owner, monster.uid, cause=Cause.effect.value, by=link.controller, together=True)
    return "，".join(changed)


def _return(game: GameState, op: Operation, link: Link, card: CardInstance) -> str:
    """Return the operands to their owner's hand (or the top of the deck)."""
    to_hand = op.op is Op.return_to_hand
    moved = []
    for returned in operands(game, op, link, card):
        where = find(game, returned.uid)
        if where is None or where[1] is (Zone.hand if to_hand else Zone.deck):
            continue
        face = face_of(returned, where[1])
        if where[1] is Zone.monster:
            returned.leave_field()
        returned.face_up = True
        game.players[where[0]].zone_list(where[1]).remove(returned)
        if returned.card is None:  # a token (or an unnamed monster) that leaves the field is gone
            moved.append(returned.name)
            continue
        owner = game.players[returned.owner]
        if to_hand:
            owner.hand_cards.append(returned)
            emit(game, Event.returned_to_hand, where[0], returned.uid, cause=Cause.effect.value,
                      by=link.controller, origin=ORIGINS.get(where[1], ""), face=face)
        else:
            owner.deck_cards.insert(0, returned)
        moved.append(returned.name)
    if not moved:
        return ""
    return "".join(f"「{n}」" for n in moved) + ("回到手卡" if to_hand else "回到卡组")


def _banish(game: GameState, op: Operation, link: Link, card: CardInstance) -> str:
    banished = []
    for victim in operands(game, op, link, card):
        where = find(game, victim.uid)
        if where is None or where[1] is Zone.banished:
            continue
        face = face_of(victim, where[1])
        if where[1] is Zone.monster:
            victim.leave_field()
        victim.face_up = True
        move(game, victim, Zone.banished, player=victim.owner)
        emit(game, Event.banished, where[0], victim.uid, cause=Cause.effect.value, by=link.controller,
                  origin=ORIGINS.get(where[1], ""), face=face)
        if where[1] is Zone.monster:
            lasting(game, op, link, victim, "banished")
        banished.append(victim.name)
    return "".join(f"「{n}」" for n in banished) + "除外" if banished else ""


def _equip(game: GameState, op: Operation, link: Link, card: CardInstance) -> str:
    """The Equip Spell is equipped to its target, a face-up monster on the field, and stays face-up
    in its zone; its effects apply to that monster while it is equipped (Yugipedia "Equip Spell
    Card": all Equip Spells target a face-up monster at activation and then equip themselves to
    it). A target no longer face-up on the field is equipped with nothing, and the rules then
    destroy the card (:func:`ygo_fsm.equips.destroy_unequipped`)."""
    if _zone(game, card) is not Zone.spell_trap:
        return ""
    for monster in operands(game, op, link, card):
        if _zone(game, monster) is Zone.monster and monster.face_up:
            card.equipped_to = monster.identity
            return f"「{card.name}」装备给「{monster.name}」"
    return ""


def _modify(game: GameState, op: Operation, link: Link, card: CardInstance) -> str:
    changed = []
    for modified in operands(game, op, link, card):
        if _zone(game, modified) is not Zone.monster:
            continue
        if op.op is Op.modify_atk:
            before = modified.atk
            modified.atk = max(0, modified.atk + op.amount)
            lasting(game, op, link, modified, "atk", atk=modified.atk - before)
            changed.append(f"「{modified.name}」的攻击力变成{continuous.atk(game, modified)}")
        else:
            before = modified.defence
            modified.defence = max(0, modified.defence + op.amount)
            lasting(game, op, link, modified, "atk", defence=modified.defence - before)
            changed.append(f"「{modified.name}」的守备力变成{continuous.defence(game, modified)}")
    return "，".join(changed)


def _take_control(game: GameState, op: Operation, link: Link, card: CardInstance) -> str:
    taker = link.controller
    taken = []
    for monster in operands(game, op, link, card):
        where = find(game, monster.uid)
        if where is None or where[1] is not Zone.monster or where[0] == taker:
            continue
        if len(game.players[taker].monsters) >= MONSTER_ZONES:
            break
        game.players[where[0]].monsters.remove(monster)
        game.players[taker].monsters.append(monster)
        lasting(game, op, link, monster, "control")
        taken.append(monster.name)
    return "".join(f"「{n}」" for n in taken) + f"的控制权转移给{taker}" if taken else ""


def _tokens(game: GameState, op: Operation, link: Link) -> str:
    """Special summon ``amount`` tokens (monsters that exist only on the field)."""
    player = _player_for(game, link, op.to) if "to" in op.model_fields_set else link.controller
    state = game.players[player]
    made = 0
    for _ in range(op.amount or 1):
        if len(state.monsters) >= MONSTER_ZONES or special_summons_forbidden(game):
            break
        uid = f"{link.uid}_token_{sum(1 for m in state.monsters if '_token_' in m.uid) + made + 1}"
        token = CardInstance(uid, player, name=op.name or "衍生物", atk=op.atk, defence=op.defence,
                             position=Position.attack if op.position == "attack" else Position.defence)
        token.summoned_turn = game.turn
        state.monsters.append(token)
        emit(game, Event.special_summoned, player, uid, cause=Cause.effect.value, by=link.controller)
        game.last_action_summon = True
        made += 1
    return f"{player}的场上特殊召唤{made}只「{op.name or '衍生物'}」" if made else ""


def _search(game: GameState, op: Operation, link: Link) -> str:
    """A card matching ``what`` from the controller's deck to the hand: not a draw."""
    state = game.players[link.controller]
    found = next((c for c in state.deck_cards if matches(c, op.what)), None)
    if found is None:
        return ""
    state.deck_cards.remove(found)
    state.hand_cards.append(found)
    return f"{link.controller}从卡组把「{found.name}」加入手卡"


def _player_expiry(game: GameState, op: Operation, link: Link, player: str) -> Expiry:
    until = op.until.value if op.until is not None else "end_of_turn"
    return Expiry(until, link.controller, player, 0, link.name, kind="no_battle_damage",
                  turn=game.turn + op.turns if op.turns else 0)


def _negate_previous(game: GameState, op: Operation, link: Link) -> str:
    if not game.chain:
        return ""
    negated = game.chain[-1]
    negated.negated = True
    negated.negation = "activation"
    found = find(game, negated.uid)
    if found is not None and op.destroy and found[1] in (Zone.spell_trap, Zone.field_zone, Zone.monster):
        to_graveyard(game, found[2], destroyed=True, cause=Cause.effect.value, by=link.controller)
    own = find(game, link.uid)
    spec: CardSpec | None = own[2].card if own is not None else None
    if (spec is not None and spec.effects[link.effect].kind is EffectKind.counter_trap
            and negated.controller != link.controller):
        emit(game, Event.activation_negated_by_counter_trap, negated.controller, negated.uid)
    return f"「{negated.name}」发动无效" + ("并且破坏" if op.destroy else "")


def _negate_effect(game: GameState) -> str:
    """The previous link's effect is negated: its activation stands (its cost stays paid, a
    once-per-turn use is spent, a Normal Spell still goes to the graveyard after it), but it
    resolves nothing (PR17 p.153; Yugipedia "Negate")."""
    if not game.chain:
        return ""
    negated = game.chain[-1]
    if negated.negated:
        return ""
    negated.negated = True
    negated.negation = "effect"
    return f"「{negated.name}」的效果无效"


def _negate_summon(game: GameState) -> str:
    """The summon in progress is negated: the monster goes to the graveyard, not "destroyed"
    (000 【怪兽通常***…】４·***被无效的怪兽，不被视为从任何地方破坏送去墓地)."""
    summon = game.summon
    if summon is None or summon.negated:
        return ""
    summon.negated = True
    card = summon.card
    if card is None:
        return ""
    summon.card = None
    card.face_up = True
    game.players[card.owner].graveyard_cards.append(card)
    return f"「{card.name}」的召唤无效，送去墓地"


def _last_battle(game: GameState) -> str:
    holders = [p for p in (game.turn_player, game.opponent) if game.players[p].monsters]
    if len(holders) == 1:
        game.end_duel(winner=holders[0], reason="last_battle")
        return f"场上还存在怪兽的{player_text(game, holders[0])}获得决斗的胜利"
    if not holders:
        game.end_duel(winner=None, reason="draw")
        return "双方场上都不存在怪兽，平局"
    return "双方场上都存在怪兽"
