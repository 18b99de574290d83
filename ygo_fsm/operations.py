"""Operations: what resolving an effect does to the game, in the small vocabulary of
:class:`~ygo_fsm.cards.Op` (damage, recover, draw, destroy, special summon, negate …), and the
card movements they share with the rules (to the graveyard, drawing, discarding).

Each operation returns what happened in the seeds' words (``「…」破坏``), or ``""`` when it
did nothing; whether the chain's last action was a summon (001 例1/例2) follows the last
operation that did something.
"""

from __future__ import annotations

from .cards import RESOLUTIONS, CardSpec, EffectKind, Event, Op, Operation
from .effects import find, move, player_text, special_summons_forbidden
from .events import emit
from .game import FIELD_ZONES, MONSTER_ZONES, Position, TurnEffect, Zone, other_player
from .state import CardInstance, Expiry, GameState, Link, PlayerState

_SKIPS = {"draw_phase": TurnEffect.skip_draw_phase, "standby_phase": TurnEffect.skip_standby_phase,
          "main_phase_1": TurnEffect.skip_main_phase_1, "battle_phase": TurnEffect.skip_battle_phase}
"""``skip_phase``'s ``what``: the phase skipped in the affected player's next turn."""


def _player_for(game: GameState, link: Link, who: str) -> str:
    if who == "controller":
        return link.controller
    if who == "turn_player":
        return game.turn_player
    return other_player(link.controller)


def to_graveyard(game: GameState, card: CardInstance, *, destroyed: bool) -> None:
    where = find(game, card.uid)
    was_monster = where is not None and where[1] is Zone.monster
    if destroyed:
        card.destroyed_turn = game.turn
    card.face_up = True
    if was_monster:
        card.leave_field()
    if card.card is None:  # an unnamed monster: it only counts
        if where is not None:
            game.players[where[0]].zone_list(where[1]).remove(card)
        game.players[card.owner].graveyard += 1
    else:
        move(game, card, Zone.graveyard)
    if was_monster and where is not None:
        if destroyed:
            emit(game, Event.destroyed, where[0], card.uid)
        emit(game, Event.monster_sent_to_graveyard, where[0], card.uid)


def _summon(game: GameState, card: CardInstance, player: str, position: Position, *, own_effect: bool) -> None:
    move(game, card, Zone.monster, player=player)
    card.face_up = True
    card.position = position
    card.summoned_by_own_effect = own_effect
    card.summoned_turn = game.turn
    emit(game, Event.special_summoned, player, card.uid)
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
        return attacker[2].atk if attacker is not None else 0
    if op.amount_of == "target_atk":
        return link.target_atk
    return op.amount


def _operate(game: GameState, op: Operation, link: Link, card: CardInstance) -> str:
    kind = op.op
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
        changed = []
        for p in (game.turn_player, game.opponent):
            for monster in game.players[p].monsters:
                if monster.face_up:
                    monster.position = Position.defence if monster.position is Position.attack else Position.attack
                    shown = "守备" if monster.position is Position.defence else "攻击"
                    changed.append(f"「{monster.name}」变成{shown}表示")
        return "，".join(changed)
    if kind is Op.draw:
        return _draw(game, op, link)
    if kind is Op.return_to_hand:
        card.leave_field()
        move(game, card, Zone.hand)
        return f"「{card.name}」回到手卡"
    if kind is Op.destroy:
        return _destroy(game, op, link, card)
    if kind is Op.send_to_graveyard:
        return _send_all_but_target(game, link)
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
        if op.until is not None:
            game.expiring.append(Expiry(op.until.value, link.controller, halved.uid, halved.atk - before, link.name))
        return f"「{found[2].name}」的攻击力变成一半（{found[2].atk}）"
    if kind is Op.discard:
        player = _player_for(game, link, op.to)
        before = game.players[player].hand
        discard(game, player, min(op.amount or 1, before))
        return f"{player}丢弃{before - game.players[player].hand}张手卡"
    if kind is Op.banish:
        victim = card.uid if op.what == "self" else link.target
        found = find(game, victim) if victim else None
        if found is None or found[1] is Zone.banished:
            return ""
        move(game, found[2], Zone.banished, player=found[2].owner)
        return f"「{found[2].name}」除外"
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
    if kind is Op.modify_atk:
        found = find(game, link.target) if op.what == "target" and link.target else (
            find(game, game.attack.attacker) if op.what == "attacker" and game.attack else None)
        modified: CardInstance | None = card if op.what == "self" else (found[2] if found is not None else None)
        if modified is None:
            return ""
        before = modified.atk
        modified.atk = max(0, modified.atk + op.amount)
        if op.until is not None:
            change = modified.atk - before
            game.expiring.append(Expiry(op.until.value, link.controller, modified.uid, change, link.name))
        return f"「{modified.name}」的攻击力变成{modified.atk}"
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
    if op.what == "all_monsters":
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
        found = find(game, link.target) if link.target else None
        victims = [found[2]] if found is not None and found[1] in FIELD_ZONES else []
    for victim in victims:
        to_graveyard(game, victim, destroyed=True)
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
    player = link.controller
    if len(game.players[player].monsters) >= MONSTER_ZONES:
        return ""  # no free monster zone
    forbidding = special_summons_forbidden(game)
    if forbidding:
        return f"因为「{forbidding}」，不能特殊召唤"
    if op.what == "self":
        summoned = card
    else:
        sources = {"deck": game.players[player].deck_cards, "graveyard": game.players[player].graveyard_cards}
        source = sources.get(op.from_, game.players[player].hand_cards)
        summoned_or_none = next((c for c in source if _matches(c, op.what)), None)
        if summoned_or_none is None:
            return ""
        summoned = summoned_or_none
    position = Position.defence if op.position == "defence" else Position.attack
    if op.amount:
        summoned.atk = summoned.defence = op.amount
    _summon(game, summoned, player, position, own_effect=op.what == "self")
    where = {"deck": "卡组", "hand": "手卡", "graveyard": "墓地"}.get(op.from_, "")
    shown = "守备表示" if position is Position.defence else ""
    return f"{player}{where}的「{summoned.name}」{shown}特殊召唤"


def _matches(card: CardInstance, what: str) -> bool:
    if card.card is None:
        return False
    if what == "monster":
        return card.card.type.value == "monster"
    if what.startswith("level_"):
        return card.card.type.value == "monster" and card.level == int(what.removeprefix("level_"))
    return card.card.id == what or card.race == what


def _negate_previous(game: GameState, op: Operation, link: Link) -> str:
    if not game.chain:
        return ""
    negated = game.chain[-1]
    negated.negated = True
    negated.negation = "activation"
    found = find(game, negated.uid)
    if found is not None and op.destroy and found[1] in (Zone.spell_trap, Zone.field_zone):
        to_graveyard(game, found[2], destroyed=True)
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


def draw_card(game: GameState, player: str) -> int:
    """Draw the top card (unnamed cards first); 0 when the deck is empty."""
    state: PlayerState = game.players[player]
    if state.deck - len(state.deck_cards) > 0:
        state.deck -= 1
        state.hand += 1
    elif state.deck_cards:
        state.hand_cards.append(state.deck_cards.pop(0))
    else:
        return 0
    emit(game, Event.drawn, player)
    return 1


def discard(game: GameState, player: str, count: int, *, chosen: tuple[str, ...] = ()) -> None:
    """Discard ``count`` cards: the named cards ``chosen`` (uids), then unnamed ones, then named
    ones in hand order."""
    state = game.players[player]
    for uid in chosen[:count]:
        found = find(game, uid)
        if found is not None and found[1] is Zone.hand:
            move(game, found[2], Zone.graveyard)
            emit(game, Event.discarded, player, uid)
    for _ in range(count - len(chosen[:count])):
        if state.unnamed_hand > 0:
            state.hand -= 1
            state.graveyard += 1
            emit(game, Event.discarded, player)
        elif state.hand_cards:
            card = state.hand_cards[0]
            move(game, card, Zone.graveyard)
            emit(game, Event.discarded, player, card.uid)
