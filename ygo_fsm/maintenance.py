"""Maintenance costs (维持COST): what keeps a card on the field, handled without a chain link.

A maintenance cost is not an effect: it is not activated, starts no chain link and cannot be
responded to (000 ●スタンバイフェイズ【２】·『准备流程时～』的维持COST的处理（不进入连锁）; Yugipedia
"Maintenance cost"). Its card's data says which kind it is (``maintenance:``):

- ``optional`` — its controller chooses: pay, or do not pay and the card is destroyed
  (「平和の使者」: 100ライフポイントを払う。または、払わずにこのカードを破壊する);
- ``mandatory`` — it must be paid; only when it cannot be paid is the card destroyed.

Paying LP down to exactly 0 is allowed: that player then loses at once (PR17 p.43). The choice
is the ``process`` action's option: ``uid`` pays, ``uid>destroy`` does not
(:func:`ygo_fsm.effects.phase_processing` offers them: paying only when the cost can be paid,
not paying for an optional cost or one that cannot be paid).
"""

from __future__ import annotations

from .cards import EffectSpec
from .effects import MAINTENANCE_NOT_PAID
from .operations import to_graveyard
from .state import CardInstance, GameState


def handle_maintenance(game: GameState, player: str, card: CardInstance, effect: EffectSpec, option: str | None) -> str:
    """Pay ``card``'s maintenance cost, or (``option`` ``destroy``) leave it unpaid: the card
    is destroyed (by the rules, not by an effect). Returns what happened."""
    if option == MAINTENANCE_NOT_PAID:
        to_graveyard(game, card, destroyed=True)
        return f"不支付维持COST，「{card.name}」破坏"
    cost = effect.cost
    paid = []
    if cost.pay_lp:
        game.lose_lp(player, cost.pay_lp)
        paid.append(f"支付{cost.pay_lp}基本分")
    if cost.pay_half_lp:
        half = game.players[player].lp // 2
        game.lose_lp(player, half)
        paid.append(f"支付一半基本分（{half}）")
    game.check_lp()
    return "，".join(paid)
