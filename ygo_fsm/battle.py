"""Battle: the attack in progress, attack cancel and replay, and damage calculation.

The machines (``attack_declaration``, ``damage_step``) decide when each step happens; this
module answers what it does. Rules used here:

- a face-up Attack Position monster attacks once per Battle Phase; a direct attack only when
  the opponent controls no monster (002 ●战斗阶段【攻击宣言・选择对象】);
- after every chain in the Battle Step: the attack is **cancelled** when the attacker can no
  longer attack (changed to defence, under a cannot-attack effect, left the field); a
  **replay** (back to choosing the target) happens when the opponent's monsters changed —
  their number, or one replaced even with the number unchanged (004), or the target left —
  and never for the attacking player's own monsters (000 ※攻击中止、战斗回卷的处理; 004 卷回);
- damage calculation (004 伤害步骤): ATK against ATK — the higher deals the difference to
  the other's controller, the lower is destroyed, equal ATK destroys both with no damage, two
  0-ATK monsters do nothing; ATK against DEF — higher ATK destroys the defender with no
  damage, higher DEF deals the difference to the attacker's controller, equal does nothing;
  a direct attack deals the attacker's ATK. Monsters destroyed by battle go to the graveyard
  at the end of the Damage Step.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Literal

from .cards import Event, Op
from .chain import Link
from .effects import Choice, conditions_hold, effects_of, find
from .events import emit
from .game import CardInstance, Position, TurnEffect, Zone, other_player
from .operations import run_operation, to_graveyard

if TYPE_CHECKING:
    from .duel import Duel


@dataclass
class Attack:
    """The attack in progress."""

    attacker: str
    player: str
    target: str | None = None
    """The attack target's uid; ``None`` for a direct attack (or before it is chosen)."""
    direct: bool = False
    opponent_monsters: tuple[str, ...] = ()
    """The opponent's monsters when the target was chosen, by field identity (for replay): a
    monster that left the field and came back is a new monster (004 ●即使因效果处理1只怪兽离场后
    1只怪兽特殊召唤等…也视为怪兽数量发生变化)."""
    attacker_identity: str = ""
    """The attacker's field identity (``CardInstance.identity``) when it declared the attack."""
    target_identity: str = ""
    """The attack target's field identity when it was chosen."""
    replayed: bool = False
    outcome: Literal["", "cancelled", "stopped", "fought", "no_battle"] = ""
    """``""`` while it goes on; ``cancelled``, ``stopped`` or ``fought`` once over; ``no_battle``
    when a battler left the field in the Damage Step before damage calculation (004
    ●未进行伤害计算的战斗不视为『进行战斗』)."""
    destroyed: list[str] = field(default_factory=list)
    battle_damage: dict[str, int] = field(default_factory=dict)
    applied: set[str] = field(default_factory=set)
    """The points (``attack_declaration``, ``after_attack_declaration``) whose continuous effects
    were applied; a replay does not apply them again."""
    revealed: str | None = None
    """A face-down target turned face-up before damage calculation: its flip effect waits until
    after damage calculation (004 ●…即使持有反转时发动的效果的场合，也不会在这一时点发动)."""

    def copy(self) -> Attack:
        return replace(self, destroyed=list(self.destroyed), battle_damage=dict(self.battle_damage),
                       applied=set(self.applied))


def _monster(duel: Duel, uid: str | None) -> CardInstance | None:
    if uid is None:
        return None
    found = find(duel, uid)
    return found[2] if found is not None and found[1] is Zone.monster else None


def _battler(duel: Duel, uid: str | None, identity: str) -> CardInstance | None:
    """The monster ``uid`` if it is still the same monster on the field (its field identity
    unchanged since it became the attacker or the target)."""
    monster = _monster(duel, uid)
    return monster if monster is not None and monster.identity == identity else None


def attackers(duel: Duel) -> list[Choice]:
    """The turn player's monsters that may declare an attack now."""
    if not _can_pay_declaration_costs(duel):
        return []
    return [Choice(m.uid, f"「{m.name}」") for m in duel.players[duel.turn_player].monsters
            if m.can_declare_attack and m.attacked_battle_phase != duel.battle_phase_number]


def _can_pay_declaration_costs(duel: Duel) -> bool:
    """LP the declaration costs (「通行税」) must be payable."""
    cost = 0
    for player in (duel.turn_player, duel.opponent):
        for zone, card, _, effect in effects_of(duel, player):
            if effect.applies_at == "attack_declaration" and conditions_hold(duel, player, zone, card, effect):
                cost += sum(op.amount for op in effect.resolution if op.op is Op.pay_lp and op.to == "turn_player")
    return duel.players[duel.turn_player].lp >= cost


def targets(duel: Duel) -> list[Choice]:
    """The attack targets: each of the opponent's monsters, or a direct attack when they have none."""
    monsters = duel.players[duel.opponent].monsters
    if not monsters:
        return [Choice("direct", "直接攻击")]
    return [Choice(m.uid, f"「{m.name}」") for m in monsters]


def declare(duel: Duel, uid: str) -> None:
    """Step 1: the attacker is declared; the attack counts as that monster's attack from now on."""
    monster = _monster(duel, uid)
    assert monster is not None, uid
    monster.attacked_battle_phase = duel.battle_phase_number
    monster.attacked_turn = duel.turn
    duel.attack = Attack(uid, duel.turn_player, attacker_identity=monster.identity)
    duel.say(f"回合玩家{duel.turn_player}的「{monster.name}」攻击宣言")


def choose_target(duel: Duel, key: str) -> None:
    """Step 2: the target (or a direct attack) is chosen."""
    attack = duel.attack
    assert attack is not None
    attack.direct = key == "direct"
    attack.target = None if attack.direct else key
    attack.opponent_monsters = tuple(m.identity for m in duel.players[other_player(attack.player)].monsters)
    target = _monster(duel, attack.target)
    attack.target_identity = target.identity if target is not None else ""
    duel.say("直接攻击" if attack.direct else f"攻击对象为「{target.name if target else key}」")


def apply_continuous_effects(duel: Duel, point: str) -> None:
    """Continuous effects applied at ``point`` of the attack, without a chain link: on the
    declaration (「通行税」: 000 【怪兽的攻击宣言…】１…此时进行处理（不进入连锁）) or right after it
    (「銀幕の鏡壁」: ３攻击宣言后处理的效果)."""
    attack = duel.attack
    if attack is None or point in attack.applied:
        return
    attack.applied.add(point)
    for player in (duel.turn_player, duel.opponent):
        for zone, card, index, effect in effects_of(duel, player):
            if effect.applies_at != point or not conditions_hold(duel, player, zone, card, effect):
                continue
            link = Link(0, card.uid, index, player, 0, card.name, target=attack.attacker)
            results = [run_operation(duel, op, link, card) for op in effect.resolution]
            duel.say(f"「{card.name}」的效果适用（不进入连锁），" + "，".join(r for r in results if r))


def announce(duel: Duel) -> None:
    """Step 3→4: the window 『攻击宣言时』『成为攻击对象时』 opens. After a replay it is no longer
    『攻击宣言时』, but 『成为攻击对象时』 still is (000 ※战斗回卷)."""
    attack = duel.attack
    assert attack is not None
    if not attack.replayed:
        emit(duel, Event.attack_declared, attack.player, attack.attacker)
    if attack.target is not None:  # at the same time as the declaration (PR17 missing the timing)
        emit(duel, Event.targeted_for_attack, other_player(attack.player), attack.target, together=not attack.replayed)


def attacker_cannot_attack(duel: Duel) -> bool:
    """The attacker left the field, is in Defense Position, or a cannot-attack effect applies."""
    attack = duel.attack
    if attack is None or attack.outcome:
        return False
    monster = _battler(duel, attack.attacker, attack.attacker_identity)
    return (monster is None or not monster.can_declare_attack
            or duel.effect_applies(TurnEffect.cannot_attack) or duel.effect_applies(TurnEffect.battle_phase_ended))


def replay_needed(duel: Duel) -> bool:
    """The opponent's monsters changed since the target was chosen (count, replacement, target gone)."""
    attack = duel.attack
    if attack is None or attack.outcome:
        return False
    now = tuple(m.identity for m in duel.players[other_player(attack.player)].monsters)
    if set(now) != set(attack.opponent_monsters):
        return True
    return attack.target is not None and _battler(duel, attack.target, attack.target_identity) is None


def begin_replay(duel: Duel) -> None:
    attack = duel.attack
    assert attack is not None
    attack.replayed = True
    attack.target = None
    attack.target_identity = ""
    attack.direct = False
    duel.say("对方怪兽的数量发生变化，战斗回卷，重新选择攻击对象")


def is_cancelled(duel: Duel) -> bool:
    """The attack was cancelled, or its attacker can no longer attack."""
    attack = duel.attack
    return attack is not None and (attack.outcome == "cancelled" or attacker_cannot_attack(duel))


def cancel(duel: Duel) -> None:
    attack = duel.attack
    assert attack is not None
    if attack.outcome == "cancelled":
        return
    attack.outcome = "cancelled"
    monster = find(duel, attack.attacker)
    duel.say(f"连锁处理结束，「{monster[2].name if monster else attack.attacker}」处于不能攻击的状态，攻击中止")


def stop(duel: Duel) -> None:
    attack = duel.attack
    assert attack is not None
    attack.outcome = "stopped"
    duel.say("战斗回卷时不选择攻击对象，停止攻击（视为进行过攻击宣言）")


def reveal_target(duel: Duel) -> None:
    """Before damage calculation a face-down target is turned face-up (its flip effect waits)."""
    attack = duel.attack
    target = _battler(duel, attack.target, attack.target_identity) if attack else None
    if target is not None and not target.face_up and duel.attack is not None:
        target.face_up = True
        duel.attack.revealed = target.uid
        duel.say(f"里侧表示的「{target.name}」变成表侧守备表示")


def battler_gone(duel: Duel) -> bool:
    """In the Damage Step before damage calculation: the attacker, or the target of an attack
    that is not direct, is no longer on the field."""
    attack = duel.attack
    if attack is None or attack.outcome:
        return False
    return (_battler(duel, attack.attacker, attack.attacker_identity) is None
            or (not attack.direct and _battler(duel, attack.target, attack.target_identity) is None))


def skip_calculation(duel: Duel) -> None:
    """No damage calculation: the battle is not fought (004 ●未进行伤害计算的战斗不视为『进行战斗』)."""
    attack = duel.attack
    assert attack is not None
    attack.outcome = "no_battle"
    gone = "攻击怪兽" if _battler(duel, attack.attacker, attack.attacker_identity) is None else "攻击对象"
    duel.say(f"{gone}已经不在场上，不进行伤害计算（不视为进行战斗）")


def calculate(duel: Duel) -> None:
    """Damage calculation (004 伤害计算)."""
    attack = duel.attack
    assert attack is not None
    attacker = _battler(duel, attack.attacker, attack.attacker_identity)
    attack.outcome = "fought"
    if attacker is None:
        return
    player, opponent = attack.player, other_player(attack.player)
    target = _battler(duel, attack.target, attack.target_identity)
    lines = []
    # a monster attacking in Defense Position (「絶対防御将軍」) uses its DEF
    power = attacker.defence if attacker.position is Position.defence else attacker.atk
    shown = f"「{attacker.name}」{'守' if attacker.position is Position.defence else '攻'}{power}"
    if target is None:
        if attack.direct:
            _battle_damage(duel, opponent, power)
            lines.append(f"{shown} 直接攻击")
    elif target.position is Position.attack:
        lines.append(f"{shown} VS 「{target.name}」攻{target.atk}")
        if power > target.atk:
            _battle_damage(duel, opponent, power - target.atk)
            attack.destroyed.append(target.uid)
        elif power < target.atk:
            _battle_damage(duel, player, target.atk - power)
            attack.destroyed.append(attacker.uid)
        elif power > 0:
            attack.destroyed += [attacker.uid, target.uid]
    else:
        lines.append(f"{shown} VS 「{target.name}」守{target.defence}")
        if power > target.defence:
            attack.destroyed.append(target.uid)
        elif power < target.defence:
            _battle_damage(duel, player, target.defence - power)
    for who, amount in attack.battle_damage.items():
        lines.append(f"{who}受到{amount}分战斗伤害")
    if attack.destroyed:
        lines.append("战斗破坏确定：" + "".join(f"「{_name(duel, uid)}」" for uid in attack.destroyed))
    duel.say("，".join(lines))
    if attack.revealed is not None:  # flip effects activate after damage calculation
        emit(duel, Event.flipped, opponent, attack.revealed)


def _name(duel: Duel, uid: str) -> str:
    found = find(duel, uid)
    return found[2].name if found else uid


def _battle_damage(duel: Duel, player: str, amount: int) -> None:
    if amount <= 0:
        return
    duel.attack_damage(player, amount)
    emit(duel, Event.battle_damage, player)


def send_destroyed(duel: Duel) -> None:
    """End of the Damage Step: monsters destroyed by battle go to the graveyard now."""
    attack = duel.attack
    if attack is None:
        return
    sent: list[str] = []
    battlers = (attack.attacker_identity, attack.target_identity)
    for uid in attack.destroyed:
        monster = _monster(duel, uid)
        if monster is not None and monster.identity in battlers:
            to_graveyard(duel, monster, destroyed=True, together=bool(sent))  # both at once
            sent.append(monster.name)
    if sent:
        duel.say("伤害阶段结束时，战斗破坏的" + "".join(f"「{n}」" for n in sent) + "送去墓地")


def end(duel: Duel) -> None:
    duel.last_attack = duel.attack
    duel.attack = None
