"""Activation legality: whether a card or effect may be activated now, as data.

A card or effect can be activated only when its cost can be paid and what its resolution needs
exists at that moment (PR17 pp.133–134, p.145; Yugipedia "Cost": a cost that cannot be paid in
full cannot be paid at all, and the effect cannot be activated). What an effect needs is declared:
the operations of its resolution imply most of it (:func:`requirements`), and the card data adds
the rest (``needs:``, :class:`~ygo_fsm.cards.Need`). This module is the one place that checks
it: :func:`refusals` lists, as data, every reason an activation is refused — the choosers in
:mod:`ygo_fsm.effects` offer an effect only when the list is empty, the error of an illegal
activation quotes it (``Duel.apply``), and :func:`ygo_fsm.effects.activation_refusals` hands it
to whatever explains refusals (``why_not``).

An effect whose resolution special summons (tokens included) is refused while a continuous
effect forbids special summons (「昇霊術師 ジョウゲン」, 000 ●スタンバイフェイズ 例1): what forbids
them is read from :mod:`ygo_fsm.continuous`, below this module, so the check needs nothing from
the effects that offer activations.

Mandatory effects are activated whatever their resolution can still do (a player made to draw
from too small a deck then loses, Yugipedia "DRAW": 「Morphing Jar」): for them only the
declared ``needs:`` and the cost count. Which effects must still have their card on the field
when they resolve is :func:`needs_card_on_field`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from .cards import CARD_ACTIVATION_KINDS, CardType, EffectKind, EffectSpec, Location, Need, Op
from .continuous import special_summons_forbidden
from .game import FIELD_ZONES, MONSTER_ZONES, SPELL_TRAP_ZONES, Zone, other_player
from .state import CardInstance, GameState


@dataclass(frozen=True)
class Refusal:
    """One reason an activation is not allowed now: a stable ``code``, a sentence, its source."""

    code: str
    text: str
    rule: str


_COST_RULE = 'PR17 pp.133–134, p.145; Yugipedia "Cost" (a cost that cannot be paid in full cannot be paid)'
_NEED_RULE = "PR17 pp.133–134 (what the resolution does must be possible at activation)"
TARGET_RULE = "PR17 pp.133–134 (a targeting effect needs a target that fits)"
_ZONE_RULE = "002 ●主要阶段1 ※魔法、陷阱最多只能放在5个魔法陷阱区域里"

ON_FIELD_KINDS = (EffectKind.continuous_spell, EffectKind.continuous_trap, EffectKind.field_spell,
                   EffectKind.equip_spell)
"""Card activations whose card stays on the field: their resolution needs the card there."""


_REQUIREMENTS: dict[int, tuple[EffectSpec, tuple[Need, ...]]] = {}
""":func:`requirements` by effect (the effect is kept with them, so its id stays its own)."""


def requirements(effect: EffectSpec) -> tuple[Need, ...]:
    """What ``effect``'s resolution needs: the declared ``needs`` and, for an effect activated by
    choice, what its operations imply (draws, searches, special summons, discards, destroying
    every monster). Card data never changes, so each effect's list is worked out once."""
    known = _REQUIREMENTS.get(id(effect))
    if known is not None and known[0] is effect:
        return known[1]
    needs = _requirements(effect)
    _REQUIREMENTS[id(effect)] = (effect, needs)
    return needs


def _requirements(effect: EffectSpec) -> tuple[Need, ...]:
    implied: list[Need] = []
    if not effect.mandatory:
        frees_zone = False  # a monster tributed earlier in the resolution frees its zone (「ディメンション・マジック」)
        for op in effect.resolution:
            if op.op is Op.tribute:
                frees_zone = True
            if op.op is Op.draw:
                implied.append(Need(what="deck_cards", amount=op.amount or 1, who=_who(op.to)))
            elif op.op is Op.replace_draw:
                implied.append(Need(what="deck_cards"))
            elif op.op is Op.discard:
                implied.append(Need(what="hand_cards", amount=op.amount or 1, who=_who(op.to)))
            elif op.op is Op.destroy and op.what == "all_monsters":
                implied.append(Need(what="monster_on_field", who="either"))
            elif op.op is Op.special_summon:
                if not frees_zone:
                    implied.append(Need(what="free_monster_zone"))
                source = _SOURCE_NEEDS.get(op.from_)
                if op.what not in _OPERANDS and source is not None:
                    implied.append(Need(what=source, card=op.what))
            elif op.op is Op.search:
                implied.append(Need(what="card_in_deck", card=op.what))
            elif op.op is Op.token:
                who = _who(op.to) if "to" in op.model_fields_set else "controller"  # tokens: own field by default
                implied.append(Need(what="free_monster_zone", amount=op.amount or 1, who=who))
    return (*effect.needs, *implied)


_OPERANDS = ("self", "target", "event_card", "attacker")
"""Special summons of a card the effect names otherwise than by what it is (no deck/hand/graveyard need)."""

_SOURCE_NEEDS: dict[str, Literal["card_in_deck", "card_in_hand", "card_in_graveyard"]] = {
    "deck": "card_in_deck", "hand": "card_in_hand", "graveyard": "card_in_graveyard"}
"""Where a special summon takes its monster from, and the need that implies."""


def _who(to: str) -> Literal["controller", "opponent", "both"]:
    if to in ("opponent", "both"):
        return "opponent" if to == "opponent" else "both"
    return "controller"


def _players(game: GameState, controller: str, who: str) -> list[str]:
    if who == "controller":
        return [controller]
    if who == "opponent":
        return [other_player(controller)]
    return [controller, other_player(controller)]


def matches(card: CardInstance, what: str) -> bool:
    """Whether ``card`` is what an operation or need names: ``monster``/``spell``/``trap``, a
    card id, a race or ``level_N``."""
    spec = card.card
    if spec is None:
        return False
    if what in ("monster", "spell", "trap"):
        return spec.type.value == what
    if what.startswith("level_"):
        return spec.type is CardType.monster and card.level == int(what.removeprefix("level_"))
    return spec.id == what or card.race == what


def _need_met(game: GameState, controller: str, card: CardInstance, need: Need) -> bool:
    players = _players(game, controller, need.who)
    test = any if need.who == "either" else all
    if need.what == "deck_cards":
        return test(game.players[p].deck >= need.amount for p in players)
    if need.what == "hand_cards":
        return test(game.players[p].hand >= need.amount for p in players)
    if need.what == "monster_on_field":
        return test(len(game.players[p].monsters) >= need.amount for p in players)
    if need.what == "free_monster_zone":
        return test(MONSTER_ZONES - len(game.players[p].monsters) >= need.amount for p in players)
    if need.what == "face_up_target":
        return True  # a property of each target: see target_fits
    zone = {"card_in_deck": "deck_cards", "card_in_hand": "hand_cards", "card_in_graveyard": "graveyard_cards"}
    return test(sum(1 for c in getattr(game.players[p], zone[need.what]) if c is not card and matches(c, need.card))
                >= need.amount for p in players)


_NEED_TEXT = {
    "deck_cards": "卡组的卡不足，不能抽卡或检索",
    "hand_cards": "手卡不足",
    "monster_on_field": "场上没有怪兽",
    "free_monster_zone": "没有空的怪兽区域",
    "card_in_deck": "卡组里没有符合的卡",
    "card_in_hand": "手卡里没有符合的卡",
    "card_in_graveyard": "墓地里没有符合的卡",
    "face_up_target": "没有表侧表示的对象",
}


def cost_refusals(game: GameState, controller: str, card: CardInstance, effect: EffectSpec) -> list[Refusal]:
    """The parts of ``effect``'s cost that cannot be paid now. LP may be paid down to exactly
    0 (that player then loses at once, PR17 p.43); not below."""
    cost = effect.cost
    state = game.players[controller]
    found: list[Refusal] = []
    if cost.pay_lp and state.lp < cost.pay_lp:
        found.append(Refusal("cost_lp", f"基本分不足以支付{cost.pay_lp}", _COST_RULE))
    if cost.tribute_self and not any(m is card for m in state.monsters):
        found.append(Refusal("cost_tribute_self", "这张卡不在怪兽区域，不能做祭品", _COST_RULE))
    if cost.tribute_other and len([m for m in state.monsters if m is not card]) < cost.tribute_other:
        found.append(Refusal("cost_tribute", f"没有{cost.tribute_other}只可以做祭品的其他怪兽", _COST_RULE))
    if cost.tribute_named and len([m for m in state.monsters if m is not card and m.card is not None
                                   and m.card.id == cost.tribute_named]) < max(1, cost.tribute_other):
        found.append(Refusal("cost_tribute", f"没有可以做祭品的「{cost.tribute_named}」", _COST_RULE))
    if cost.discard and state.hand - (1 if card in state.hand_cards else 0) < cost.discard:
        found.append(Refusal("cost_discard", f"没有{cost.discard}张可以丢弃的手卡", _COST_RULE))
    banishable = [c for c in state.graveyard_cards if c is not card]
    if cost.banish_from_graveyard and len(banishable) < cost.banish_from_graveyard:
        found.append(Refusal("cost_banish", f"墓地没有{cost.banish_from_graveyard}张可以除外的卡", _COST_RULE))
    if cost.send_own_monster and len([m for m in state.monsters if m is not card]) < cost.send_own_monster:
        found.append(Refusal("cost_send", f"没有{cost.send_own_monster}只可以送去墓地的其他怪兽", _COST_RULE))
    return found


def refusals(game: GameState, controller: str, zone: Zone, card: CardInstance, effect: EffectSpec) -> list[Refusal]:
    """Every reason ``controller`` may not activate ``effect`` of ``card`` (in ``zone``) now,
    beyond its timing and conditions: the cost, the zone its card needs, what its resolution
    needs. Empty when it may be activated."""
    found = cost_refusals(game, controller, card, effect)
    state = game.players[controller]
    if (effect.kind in CARD_ACTIVATION_KINDS and effect.kind is not EffectKind.field_spell and zone is Zone.hand
            and len(state.spell_traps) >= SPELL_TRAP_ZONES):
        found.append(Refusal("zone", "魔法陷阱区域已满", _ZONE_RULE))
    for need in requirements(effect):
        if not _need_met(game, controller, card, need):
            found.append(Refusal(need.what, _NEED_TEXT[need.what], _NEED_RULE))
    if not effect.mandatory and special_summons(effect):
        forbidding = special_summons_forbidden(game)
        if forbidding:
            found.append(Refusal("special_summon_forbidden", f"因为「{forbidding}」，不能特殊召唤", _FORBIDDEN_RULE))
    return found


_FORBIDDEN_RULE = ("000 ●スタンバイフェイズ 例1 (「昇霊術師 ジョウゲン」: 双方不能特殊召唤); PR17 pp.133–134 "
                   "(what the resolution does must be possible at activation)")


def special_summons(effect: EffectSpec) -> bool:
    """The effect's resolution special summons (a monster or tokens: tokens are special summoned,
    PR17 Tokens)."""
    return any(op.op in (Op.special_summon, Op.token) for op in effect.resolution)


def target_fits(game: GameState, effect: EffectSpec, uid: str) -> bool:
    """Whether the card ``uid`` fits ``effect``'s target as declared (``needs: face_up_target``:
    「選択場上1只表侧表示怪兽」)."""
    if not any(need.what == "face_up_target" for need in effect.needs):
        return True
    found = game.find(uid)
    return found is not None and found[2].face_up


def needs_card_on_field(card: CardInstance, effect: EffectSpec, card_activation: bool) -> bool:
    """Whether resolving needs the card face-up on the field: a Continuous, Field or Equip
    Spell/Trap's own activation, and any effect of a Spell/Trap Card activated on the field
    (a Continuous Spell/Trap's trigger effect included) — once the card has left the field, it
    does not resolve (Yugipedia "Continuous Trap Card": it must remain face-up on the field to
    resolve its activated on-field effect; "Extended Game Mechanics" ch. 6)."""
    spec = card.card
    if spec is None or spec.type is CardType.monster:
        return False
    if card_activation:
        return effect.kind in ON_FIELD_KINDS
    return effect.location is Location.field


def on_field(game: GameState, uid: str) -> bool:
    """The card ``uid`` is face-up on the field."""
    found = game.find(uid)
    return found is not None and found[1] in FIELD_ZONES and found[2].face_up
