"""Operations: what resolving an effect does to the duel, in the small vocabulary of
:class:`~ygo_fsm.cards.Op` (damage, recover, draw, destroy, special summon, negate …), and the
card movements they share with the rules (to the graveyard, drawing, discarding).

Each operation returns what happened in the seeds' words (``「…」破坏``), or ``""`` when it
did nothing; whether the chain's last action was a summon (001 例1/例2) follows the last
operation that did something.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .cards import RESOLUTIONS, CardSpec, EffectKind, Event, Op, Operation
from .effects import find, move, player_text, special_summons_forbidden
from .events import Expiry, emit
from .game import MONSTER_ZONES, CardInstance, PlayerState, Position, TurnEffect, Zone, other_player

if TYPE_CHECKING:
    from .chain import Link
    from .duel import Duel


_SKIPS = {"draw_phase": TurnEffect.skip_draw_phase, "standby_phase": TurnEffect.skip_standby_phase,
          "main_phase_1": TurnEffect.skip_main_phase_1, "battle_phase": TurnEffect.skip_battle_phase}
"""``skip_phase``'s ``what``: the phase skipped in the affected player's next turn."""


def _player_for(duel: Duel, link: Link, who: str) -> str:
    if who == "controller":
        return link.controller
    if who == "turn_player":
        return duel.turn_player
    return other_player(link.controller)


def to_graveyard(duel: Duel, card: CardInstance, *, destroyed: bool, together: bool = False) -> None:
    """Send ``card`` to the graveyard (``destroyed``: by destruction); ``together``: at the same
    time as what was recorded just before (several monsters destroyed by one effect)."""
    where = find(duel, card.uid)
    was_monster = where is not None and where[1] is Zone.monster
    if destroyed:
        card.destroyed_turn = duel.turn
    card.face_up = True
    if was_monster:
        card.leave_field()
    if card.card is None:  # an unnamed monster: it only counts
        if where is not None:
            duel.players[where[0]].zone_list(where[1]).remove(card)
        duel.players[card.owner].graveyard += 1
    else:
        move(duel, card, Zone.graveyard)
    if was_monster and where is not None:
        if destroyed:
            emit(duel, Event.destroyed, where[0], card.uid, together=together)
        # destroyed and sent to the graveyard is one thing happening (PR17 missing the timing)
        emit(duel, Event.monster_sent_to_graveyard, where[0], card.uid, together=together or destroyed)


def _summon(duel: Duel, card: CardInstance, player: str, position: Position, *, own_effect: bool) -> None:
    move(duel, card, Zone.monster, player=player)
    card.face_up = True
    card.position = position
    card.summoned_by_own_effect = own_effect
    card.summoned_turn = duel.turn
    emit(duel, Event.special_summoned, player, card.uid)
    duel.last_action_summon = True


def run_operation(duel: Duel, op: Operation, link: Link, card: CardInstance) -> str:
    """Run one operation; returns what happened, in the seeds' words ('' when nothing).

    Whether the chain's last action was a summon (001 例1/例2) follows the last operation that
    did something."""
    result = _operate(duel, op, link, card)
    if result and op.op is not Op.special_summon:
        duel.last_action_summon = False
    return result


def _amount(duel: Duel, op: Operation, link: Link) -> int:
    if op.amount_of == "attacker_atk":
        attacker = find(duel, duel.attack.attacker) if duel.attack is not None else None
        return attacker[2].atk if attacker is not None else 0
    if op.amount_of == "target_atk":
        return link.target_atk
    return op.amount


_ON_THIS_CARD = (Op.modify_atk, Op.return_to_hand, Op.banish)
"""Operations that can act on "this card" (``what: self``)."""


def _still_this_card(duel: Duel, link: Link, card: CardInstance) -> bool:
    """A monster activated on the field is still that monster: one that left the field (and perhaps
    came back) is a new card (004 ●…也视为怪兽数量发生变化)."""
    if not link.source_identity:
        return True
    where = find(duel, card.uid)
    return where is not None and where[1] is Zone.monster and card.identity == link.source_identity


def _operate(duel: Duel, op: Operation, link: Link, card: CardInstance) -> str:
    kind = op.op
    if op.what == "self" and kind in _ON_THIS_CARD and not _still_this_card(duel, link, card):
        return ""
    if kind is Op.damage:
        amount = _amount(duel, op, link)
        players = [duel.turn_player, duel.opponent] if op.to == "both" else [_player_for(duel, link, op.to)]
        for player in players:
            duel.lose_lp(player, amount)
            emit(duel, Event.damage_taken, player)
        return "、".join(players) + f"受到{amount}分伤害"
    if kind is Op.recover:
        player = _player_for(duel, link, op.to)
        amount = _amount(duel, op, link)
        duel.players[player].lp += amount
        return f"{player}的基本分恢复{amount}"
    if kind is Op.change_position:
        changed = []
        for p in (duel.turn_player, duel.opponent):
            for monster in duel.players[p].monsters:
                if monster.face_up:
                    monster.position = Position.defence if monster.position is Position.attack else Position.attack
                    shown = "守备" if monster.position is Position.defence else "攻击"
                    changed.append(f"「{monster.name}」变成{shown}表示")
        return "，".join(changed)
    if kind is Op.draw:
        player = _player_for(duel, link, op.to)
        drawn = sum(draw_card(duel, player) for _ in range(op.amount or 1))
        return f"{player}抽{drawn}张卡"
    if kind is Op.return_to_hand:
        card.leave_field()
        move(duel, card, Zone.hand)
        return f"「{card.name}」回到手卡"
    if kind is Op.destroy:
        return _destroy(duel, op, link, card)
    if kind is Op.send_to_graveyard:
        return _send_all_but_target(duel, link)
    if kind is Op.special_summon:
        return _special_summon(duel, op, link, card)
    if kind is Op.tribute:
        own = [m for m in duel.players[link.controller].monsters if m is not card]
        if not own:
            return ""
        to_graveyard(duel, own[0], destroyed=False)
        return f"「{own[0].name}」作为祭品"
    if kind is Op.negate_activation:
        return _negate_previous(duel, op, link)
    if kind is Op.negate_summon:
        return _negate_summon(duel)
    if kind is Op.last_battle_judgement:
        return _last_battle(duel)
    if kind is Op.replace_draw:
        player = duel.turn_player
        duel.replace_draw()
        state = duel.players[player]
        if state.deck - len(state.deck_cards) > 0:  # a card is added from the deck: not a draw
            state.deck -= 1
            state.hand += 1
        return f"{player}代替通常的抽卡，从卡组把1张卡加入手卡"
    if kind is Op.pay_lp:
        player = _player_for(duel, link, op.to)
        duel.lose_lp(player, op.amount)
        return f"{player}支付{op.amount}基本分"
    if kind is Op.halve_atk:
        attack = duel.attack
        found = find(duel, attack.attacker) if attack is not None else None
        if found is None:
            return ""
        halved = found[2]
        before = halved.atk
        halved.atk //= 2
        if op.until is not None:
            duel.expiring.append(Expiry(op.until.value, link.controller, halved.uid, halved.atk - before, link.name,
                                        identity=halved.identity))
        return f"「{found[2].name}」的攻击力变成一半（{found[2].atk}）"
    if kind is Op.discard:
        player = _player_for(duel, link, op.to)
        before = duel.players[player].hand
        discard(duel, player, min(op.amount or 1, before), by_effect=True)
        return f"{player}丢弃{before - duel.players[player].hand}张手卡"
    if kind is Op.banish:
        victim = card.uid if op.what == "self" else link.target
        found = find(duel, victim) if victim else None
        if found is None or found[1] is Zone.banished:
            return ""
        move(duel, found[2], Zone.banished, player=found[2].owner)
        return f"「{found[2].name}」除外"
    if kind is Op.skip_phase:
        player = _player_for(duel, link, op.to)
        next_turn = duel.turn + (2 if player == duel.turn_player else 1)
        duel.add_turn_effect(_SKIPS[op.what], next_turn)
        return f"{player}的下一个回合跳过{op.what}"
    if kind is Op.end_battle_phase:
        duel.add_turn_effect(TurnEffect.battle_phase_ended)
        return "战斗阶段结束"
    if kind is Op.cannot_attack:
        duel.add_turn_effect(TurnEffect.cannot_attack)
        return "这个回合怪兽不能攻击"
    if kind is Op.modify_atk:
        found = find(duel, link.target) if op.what == "target" and link.target else (
            find(duel, duel.attack.attacker) if op.what == "attacker" and duel.attack else None)
        modified: CardInstance | None = card if op.what == "self" else (found[2] if found is not None else None)
        if modified is None:
            return ""
        before = modified.atk
        modified.atk = max(0, modified.atk + op.amount)
        if op.until is not None:
            change = modified.atk - before
            duel.expiring.append(Expiry(op.until.value, link.controller, modified.uid, change, link.name,
                                        identity=modified.identity))
        return f"「{modified.name}」的攻击力变成{modified.atk}"
    if kind is Op.win:
        duel.end_duel(winner=link.controller, reason="effect")
        return f"{link.controller}获得决斗的胜利"
    if kind is Op.draw_duel:
        duel.end_duel(winner=None, reason="draw")
        return "平局"
    if kind is Op.callable:
        RESOLUTIONS[op.name](duel, link)
        return op.name
    return ""


def _destroy(duel: Duel, op: Operation, link: Link, card: CardInstance) -> str:
    if op.what == "all_monsters":
        victims = [m for p in (duel.turn_player, duel.opponent) for m in list(duel.players[p].monsters)]
    elif op.what == "opponent_attack_position_monsters":
        victims = [m for m in duel.players[other_player(link.controller)].monsters if m.position is Position.attack]
    elif op.what == "attacker":
        # 000 ※攻击中止: a monster changed to Defense Position is no longer the attacking monster
        attack = duel.attack
        found = find(duel, attack.attacker) if attack is not None else None
        victims = ([found[2]] if found is not None and found[1] is Zone.monster
                   and found[2].position is Position.attack else [])
    else:
        found = find(duel, link.target) if link.target else None
        victims = [found[2]] if found is not None and found[1] in (Zone.monster, Zone.spell_trap) else []
    for number, victim in enumerate(victims):
        to_graveyard(duel, victim, destroyed=True, together=number > 0)  # all at once
    if not victims:
        return ""
    if op.what == "all_monsters":
        return "场上存在的全部怪兽破坏"
    return "".join(f"「{v.name}」" for v in victims) + "破坏"


def _send_all_but_target(duel: Duel, link: Link) -> str:
    """Every other card on both fields and in both hands goes to the graveyard."""
    sent = []
    for player in (duel.turn_player, duel.opponent):
        state = duel.players[player]
        for zone in (Zone.hand, Zone.monster, Zone.spell_trap):
            for card in list(state.zone_list(zone)):
                if card.uid != link.target and card.uid != link.uid:
                    to_graveyard(duel, card, destroyed=False)
                    sent.append(card.name)
        state.graveyard += state.unnamed_hand
        state.hand = len(state.hand_cards)
    return "双方的其他的场上和手上的卡全部送去墓地" + (f"（{'、'.join(f'「{n}」' for n in sent)}）" if sent else "")


def _special_summon(duel: Duel, op: Operation, link: Link, card: CardInstance) -> str:
    player = link.controller
    if len(duel.players[player].monsters) >= MONSTER_ZONES:
        return ""  # no free monster zone
    forbidding = special_summons_forbidden(duel)
    if forbidding:
        return f"因为「{forbidding}」，不能特殊召唤"
    if op.what == "self":
        summoned = card
    else:
        sources = {"deck": duel.players[player].deck_cards, "graveyard": duel.players[player].graveyard_cards}
        source = sources.get(op.from_, duel.players[player].hand_cards)
        summoned_or_none = next((c for c in source if _matches(c, op.what)), None)
        if summoned_or_none is None:
            return ""
        summoned = summoned_or_none
    position = Position.defence if op.position == "defence" else Position.attack
    if op.amount:
        summoned.atk = summoned.defence = op.amount
    _summon(duel, summoned, player, position, own_effect=op.what == "self")
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


def _negate_previous(duel: Duel, op: Operation, link: Link) -> str:
    if not duel.chain:
        return ""
    negated = duel.chain[-1]
    negated.negated = True
    found = find(duel, negated.uid)
    if found is not None and op.destroy and found[1] is Zone.spell_trap:
        to_graveyard(duel, found[2], destroyed=True)
    own = find(duel, link.uid)
    spec: CardSpec | None = own[2].card if own is not None else None
    if (spec is not None and spec.effects[link.effect].kind is EffectKind.counter_trap
            and negated.controller != link.controller):
        emit(duel, Event.activation_negated_by_counter_trap, negated.controller, negated.uid)
    return f"「{negated.name}」发动无效" + ("并且破坏" if op.destroy else "")


def _negate_summon(duel: Duel) -> str:
    """The summon in progress is negated: the monster goes to the graveyard, not "destroyed"
    (000 【怪兽通常***…】４·***被无效的怪兽，不被视为从任何地方破坏送去墓地)."""
    summon = duel.summon
    if summon is None or summon.negated:
        return ""
    summon.negated = True
    card = summon.card
    if card is None:
        return ""
    summon.card = None
    card.face_up = True
    duel.players[card.owner].graveyard_cards.append(card)
    return f"「{card.name}」的召唤无效，送去墓地"


def _last_battle(duel: Duel) -> str:
    holders = [p for p in (duel.turn_player, duel.opponent) if duel.players[p].monsters]
    if len(holders) == 1:
        duel.end_duel(winner=holders[0], reason="last_battle")
        return f"场上还存在怪兽的{player_text(duel, holders[0])}获得决斗的胜利"
    if not holders:
        duel.end_duel(winner=None, reason="draw")
        return "双方场上都不存在怪兽，平局"
    return "双方场上都存在怪兽"


def draw_card(duel: Duel, player: str) -> int:
    """Draw the top card (unnamed cards first); 0 when the deck is empty."""
    state: PlayerState = duel.players[player]
    if state.deck - len(state.deck_cards) > 0:
        state.deck -= 1
        state.hand += 1
    elif state.deck_cards:
        state.hand_cards.append(state.deck_cards.pop(0))
    else:
        return 0
    emit(duel, Event.drawn, player)
    return 1


def discard(duel: Duel, player: str, count: int, *, chosen: tuple[str, ...] = (), by_effect: bool = False) -> None:
    """Discard ``count`` cards: the named cards ``chosen`` (uids), then unnamed ones, then named
    ones in hand order. ``by_effect``: a card effect discards them (the hand size adjustment does
    not: 004 手卡调整 ●…不视为「因效果从手卡丢弃」「因效果从手卡送去墓地」)."""
    state = duel.players[player]
    for uid in chosen[:count]:
        found = find(duel, uid)
        if found is not None and found[1] is Zone.hand:
            move(duel, found[2], Zone.graveyard)
            emit(duel, Event.discarded, player, uid, by_effect=by_effect)
    for _ in range(count - len(chosen[:count])):
        if state.unnamed_hand > 0:
            state.hand -= 1
            state.graveyard += 1
            emit(duel, Event.discarded, player, by_effect=by_effect)
        elif state.hand_cards:
            card = state.hand_cards[0]
            move(duel, card, Zone.graveyard)
            emit(duel, Event.discarded, player, card.uid, by_effect=by_effect)
