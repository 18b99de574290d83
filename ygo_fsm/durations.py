"""Durations: effects that last until a point of the turn (『…为止』), and their end.

An operation with ``until:`` records an :class:`~ygo_fsm.state.Expiry`; ``turns: N`` puts its
end N turns later. Where it ends:

- ``standby_phase``, ``battle_end_step``, ``end_phase``: in that phase's open game state,
  handled by the controller without a chain link (000 ●エンドフェイズ【２】·『回合结束为止～』…的效果结束
  （不进入连锁）); :func:`ygo_fsm.effects.expiring_now` offers them;
- ``end_of_damage_step``: as the Damage Step ends (004 伤害步骤 ⑤伤害步骤结束时);
- ``end_of_turn``: as the turn ends, after the hand size adjustment (000 ●エンドフェイズ【３】【４】).

Ending one undoes it: the ATK/DEF change is taken back, a monster whose control was taken
returns to its owner's field (Yugipedia, "Change of Heart": control until the End Phase), a
temporarily banished monster returns to the field having forgotten the changes applied to it
("Interdimensional Matter Transporter"; a monster that returns is a new monster, see the issue
on the ``modern`` profile), negated effects apply again, battle damage is taken again.
"""

from __future__ import annotations

from .cards import Duration, Operation
from .game import MONSTER_ZONES, Position, Zone
from .state import CardInstance, Expiry, GameState, Link


def lasting(game: GameState, op: Operation, link: Link, card: CardInstance, kind: str, *,
            atk: int = 0, defence: int = 0) -> None:
    """Record that ``op`` lasts (when it has ``until:``)."""
    if op.until is None:
        return
    ends = game.turn + op.turns if op.turns else 0
    where = game.find(card.uid)
    identity = card.identity if where is not None and where[1] is Zone.monster and kind != "banished" else ""
    game.expiring.append(Expiry(op.until.value, link.controller, card.uid, atk, link.name, kind=kind,
                                defence=defence, turn=ends, identity=identity))


def due(game: GameState, expiry: Expiry) -> bool:
    """Its number of turns, if it has one, is over."""
    return expiry.turn <= game.turn


def still_applies(game: GameState, expiry: Expiry) -> bool:
    """What ``expiry`` changed is still there to carry it: the same monster on the field (not one
    that left it and perhaps came back, a new monster: 004 ●…也视为怪兽数量发生变化), the banished
    card still banished; a player's (``no_battle_damage``) always."""
    if expiry.kind == "no_battle_damage":
        return True
    found = game.find(expiry.uid)
    if expiry.kind == "banished":
        return found is not None and found[1] is Zone.banished
    return found is not None and found[1] is Zone.monster and expiry.applies(found[2].identity)


def applies(game: GameState, kind: str, uid: str) -> bool:
    """A lasting effect of ``kind`` applies to ``uid`` (a card, or a player for ``no_battle_damage``)."""
    return any(e.kind == kind and e.uid == uid and still_applies(game, e) for e in game.expiring)


def undo(game: GameState, expiry: Expiry) -> str:
    """End ``expiry``: undo what it did; returns what happened, in the seeds' words."""
    if expiry in game.expiring:
        game.expiring.remove(expiry)
    found = game.find(expiry.uid)
    if not still_applies(game, expiry):
        return f"「{expiry.source}」的效果结束"
    if expiry.kind == "atk" and found is not None:
        card = found[2]
        card.atk = max(0, card.atk - expiry.atk)
        card.defence = max(0, card.defence - expiry.defence)
        shown = "攻击力" if expiry.atk or not expiry.defence else "守备力"
        value = card.atk if expiry.atk or not expiry.defence else card.defence
        return f"「{expiry.source}」的效果结束，「{card.name}」的{shown}复原（{value}）"
    if expiry.kind == "control" and found is not None and found[1] is Zone.monster and found[0] != found[2].owner:
        card = found[2]
        owner = game.players[card.owner]
        game.players[found[0]].monsters.remove(card)
        if len(owner.monsters) < MONSTER_ZONES:
            owner.monsters.append(card)
        else:
            owner.graveyard_cards.append(card)  # no free zone: it goes to the graveyard
        return f"「{expiry.source}」的效果结束，「{card.name}」的控制权回到{card.owner}"
    if expiry.kind == "banished" and found is not None and found[1] is Zone.banished:
        card = found[2]
        owner = game.players[card.owner]
        if len(owner.monsters) >= MONSTER_ZONES:
            return f"「{expiry.source}」的效果结束，没有空的怪兽区域，「{card.name}」不回到场上"
        owner.banished.remove(card)
        card.arrive()  # a new monster (004 ●…也视为怪兽数量发生变化)
        card.face_up, card.position = True, Position.attack
        card.summoned_turn = game.turn
        owner.monsters.append(card)
        return f"「{expiry.source}」的效果结束，除外的「{card.name}」回到场上"
    return f"「{expiry.source}」的效果结束"


def end_at(game: GameState, *points: Duration) -> None:
    """End by themselves, in the order they began, the effects lasting until one of ``points``
    whose number of turns is over; one whose monster has left the field ends without a word."""
    for expiry in [e for e in game.expiring if Duration(e.phase) in points and due(game, e)]:
        if still_applies(game, expiry):
            game.say(undo(game, expiry))
        else:
            game.expiring.remove(expiry)
