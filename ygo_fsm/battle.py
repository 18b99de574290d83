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
  at the end of the Damage Step;
- ATK and DEF are those of damage calculation's moment, continuous effects included
  (:mod:`ygo_fsm.continuous`); a piercing attacker deals the difference between its ATK and a
  lower DEF as battle damage (Yugipedia "Piercing"); a monster that "cannot be destroyed by
  battle" stays, the battle damage being dealt all the same; a battler that halves battle damage
  halves what either player takes from that battle (Yugipedia "Battle damage").
"""

from __future__ import annotations

from . import continuous, durations
from .cards import Cause, Event, Op
from .effects import conditions_hold, find
from .events import emit
from .game import Position, TurnEffect, other_player
from .in_play import effects_of
from .operations import run_operation, to_graveyard
from .state import Attack, CardInstance, Choice, GameState, Link, card_choice


def _monster(game: GameState, uid: str | None) -> CardInstance | None:
    """The monster ``uid`` on the field (uids are unique: a card is in one zone), or ``None``."""
    if uid is None:
        return None
    for state in game.players.values():
        for monster in state.monsters:
            if monster.uid == uid:
                return monster
    return None


def _battler(game: GameState, uid: str | None, identity: str) -> CardInstance | None:
    """The monster ``uid`` if it is still the same monster on the field (its field identity
    unchanged since it became the attacker or the target)."""
    monster = _monster(game, uid)
    return monster if monster is not None and monster.identity == identity else None


def attackers(game: GameState) -> list[Choice]:
    """The turn player's monsters that may declare an attack now."""
    if not _can_pay_declaration_costs(game):
        return []
    return [card_choice(m) for m in game.players[game.turn_player].monsters
            if m.can_declare_attack and m.attacked_battle_phase != game.battle_phase_number]


def _can_pay_declaration_costs(game: GameState) -> bool:
    """LP the declaration costs (「通行税」) must be payable."""
    cost = 0
    for player in (game.turn_player, game.opponent):
        for zone, card, _, effect in effects_of(game, player):
            if effect.applies_at == "attack_declaration" and conditions_hold(game, player, zone, card, effect):
                cost += sum(op.amount for op in effect.resolution if op.op is Op.pay_lp and op.to == "turn_player")
    return game.players[game.turn_player].lp >= cost


def targets(game: GameState) -> list[Choice]:
    """The attack targets: each of the opponent's monsters, or a direct attack when they have none."""
    monsters = game.players[game.opponent].monsters
    if not monsters:
        return [Choice("direct", "直接攻击")]
    return [card_choice(m) for m in monsters]


def declare(game: GameState, uid: str) -> None:
    """Step 1: the attacker is declared; the attack counts as that monster's attack from now on."""
    monster = _monster(game, uid)
    assert monster is not None, uid
    monster.attacked_battle_phase = game.battle_phase_number
    monster.attacked_turn = game.turn
    game.attack = Attack(uid, game.turn_player, attacker_identity=monster.identity)
    game.say(f"回合玩家{game.turn_player}的「{monster.name}」攻击宣言")


def choose_target(game: GameState, key: str) -> None:
    """Step 2: the target (or a direct attack) is chosen."""
    attack = game.attack
    assert attack is not None
    attack.direct = key == "direct"
    attack.target = None if attack.direct else key
    attack.opponent_monsters = tuple(m.identity for m in game.players[other_player(attack.player)].monsters)
    target = _monster(game, attack.target)
    attack.target_identity = target.identity if target is not None else ""
    game.say("直接攻击" if attack.direct else f"攻击对象为「{target.name if target else key}」")


def apply_continuous_effects(game: GameState, point: str) -> None:
    """Continuous effects applied at ``point`` of the attack, without a chain link: on the
    declaration (「通行税」: 000 【怪兽的攻击宣言…】１…此时进行处理（不进入连锁）) or right after it
    (「銀幕の鏡壁」: ３攻击宣言后处理的效果)."""
    attack = game.attack
    if attack is None or point in attack.applied:
        return
    attack.applied.add(point)
    for player in (game.turn_player, game.opponent):
        for zone, card, index, effect in effects_of(game, player):
            if effect.applies_at != point or not conditions_hold(game, player, zone, card, effect):
                continue
            link = Link(0, card.uid, index, player, 0, card.name, target=attack.attacker)
            results = [run_operation(game, op, link, card) for op in effect.resolution]
            game.say(f"「{card.name}」的效果适用（不进入连锁），" + "，".join(r for r in results if r))


def announce(game: GameState) -> None:
    """Step 3→4: the window 『攻击宣言时』『成为攻击对象时』 opens. After a replay it is no longer
    『攻击宣言时』, but 『成为攻击对象时』 still is (000 ※战斗回卷)."""
    attack = game.attack
    assert attack is not None
    if not attack.replayed:
        emit(game, Event.attack_declared, attack.player, attack.attacker)
    if attack.target is not None:  # at the same time as the declaration (PR17 missing the timing)
        emit(game, Event.targeted_for_attack, other_player(attack.player), attack.target, together=not attack.replayed)


def attacker_cannot_attack(game: GameState) -> bool:
    """The attacker left the field, is in Defense Position, or a cannot-attack effect applies."""
    attack = game.attack
    if attack is None or attack.outcome:
        return False
    monster = _battler(game, attack.attacker, attack.attacker_identity)
    return (monster is None or not monster.can_declare_attack
            or game.effect_applies(TurnEffect.cannot_attack) or game.effect_applies(TurnEffect.battle_phase_ended))


def replay_needed(game: GameState) -> bool:
    """The opponent's monsters changed since the target was chosen (count, replacement, target gone)."""
    attack = game.attack
    if attack is None or attack.outcome:
        return False
    now = tuple(m.identity for m in game.players[other_player(attack.player)].monsters)
    if set(now) != set(attack.opponent_monsters):
        return True
    return attack.target is not None and _battler(game, attack.target, attack.target_identity) is None


def begin_replay(game: GameState) -> None:
    attack = game.attack
    assert attack is not None
    attack.replayed = True
    attack.target = None
    attack.target_identity = ""
    attack.direct = False
    game.say("对方怪兽的数量发生变化，战斗回卷，重新选择攻击对象")


def is_cancelled(game: GameState) -> bool:
    """The attack was cancelled, or its attacker can no longer attack."""
    attack = game.attack
    return attack is not None and (attack.outcome == "cancelled" or attacker_cannot_attack(game))


def cancel(game: GameState) -> None:
    attack = game.attack
    assert attack is not None
    if attack.outcome == "cancelled":
        return
    attack.outcome = "cancelled"
    monster = find(game, attack.attacker)
    game.say(f"连锁处理结束，「{monster[2].name if monster else attack.attacker}」处于不能攻击的状态，攻击中止")


def stop(game: GameState) -> None:
    attack = game.attack
    assert attack is not None
    attack.outcome = "stopped"
    game.say("战斗回卷时不选择攻击对象，停止攻击（视为进行过攻击宣言）")


def reveal_target(game: GameState) -> None:
    """Before damage calculation a face-down target is turned face-up (its flip effect waits)."""
    attack = game.attack
    target = _battler(game, attack.target, attack.target_identity) if attack else None
    if target is not None and not target.face_up and game.attack is not None:
        target.face_up = True
        game.attack.revealed = target.uid
        game.say(f"里侧表示的「{target.name}」变成表侧守备表示")


def battler_gone(game: GameState) -> bool:
    """In the Damage Step before damage calculation: the attacker, or the target of an attack
    that is not direct, is no longer on the field."""
    attack = game.attack
    if attack is None or attack.outcome:
        return False
    return (_battler(game, attack.attacker, attack.attacker_identity) is None
            or (not attack.direct and _battler(game, attack.target, attack.target_identity) is None))


def skip_calculation(game: GameState) -> None:
    """No damage calculation: the battle is not fought (004 ●未进行伤害计算的战斗不视为『进行战斗』)."""
    attack = game.attack
    assert attack is not None
    attack.outcome = "no_battle"
    gone = "攻击怪兽" if _battler(game, attack.attacker, attack.attacker_identity) is None else "攻击对象"
    game.say(f"{gone}已经不在场上，不进行伤害计算（不视为进行战斗）")


def calculate(game: GameState) -> None:
    """Damage calculation (004 伤害计算)."""
    attack = game.attack
    assert attack is not None
    attacker = _battler(game, attack.attacker, attack.attacker_identity)
    attack.outcome = "fought"
    if attacker is None:
        return
    player, opponent = attack.player, other_player(attack.player)
    target = _battler(game, attack.target, attack.target_identity)
    for battler in (attacker, target):  # both battled: damage calculation is performed with them
        if battler is not None:
            battler.battled_turn = game.turn
    lines = []
    # a monster attacking in Defense Position (「絶対防御将軍」) uses its DEF; ATK/DEF as continuous
    # effects make them at this moment (004 ●…战斗的判定是按照伤害计算时这一时点的攻击力和守备力进行的)
    in_defence = attacker.position is Position.defence
    power = continuous.defence(game, attacker) if in_defence else continuous.atk(game, attacker)
    shown = f"「{attacker.name}」{'守' if attacker.position is Position.defence else '攻'}{power}"
    destroyed: list[CardInstance] = []
    if target is None:
        if attack.direct:
            _battle_damage(game, opponent, power)
            lines.append(f"{shown} 直接攻击")
    elif target.position is Position.attack:
        target_atk = continuous.atk(game, target)
        lines.append(f"{shown} VS 「{target.name}」攻{target_atk}")
        if power > target_atk:
            _battle_damage(game, opponent, power - target_atk)
            destroyed.append(target)
        elif power < target_atk:
            _battle_damage(game, player, target_atk - power)
            destroyed.append(attacker)
        elif power > 0:
            destroyed += [attacker, target]
    else:
        target_def = continuous.defence(game, target)
        lines.append(f"{shown} VS 「{target.name}」守{target_def}")
        if power > target_def:
            if continuous.piercing(game, attacker):  # Yugipedia "Piercing": the difference as battle damage
                _battle_damage(game, opponent, power - target_def)
            destroyed.append(target)
        elif power < target_def:
            _battle_damage(game, player, target_def - power)
    for monster in destroyed:  # "cannot be destroyed by battle": the damage stands, the monster stays
        if continuous.battle_indestructible(game, monster):
            lines.append(f"「{monster.name}」不会被战斗破坏")
        else:
            attack.destroyed.append(monster.uid)
    for who, amount in attack.battle_damage.items():
        lines.append(f"{who}受到{amount}分战斗伤害")
    if attack.destroyed:
        lines.append("战斗破坏确定：" + "".join(f"「{_name(game, uid)}」" for uid in attack.destroyed))
    game.say("，".join(lines))
    if attack.revealed is not None:  # flip effects activate after damage calculation
        emit(game, Event.flipped, opponent, attack.revealed)


def _name(game: GameState, uid: str) -> str:
    found = find(game, uid)
    return found[2].name if found else uid


def _battle_damage(game: GameState, player: str, amount: int) -> None:
    """``player`` takes ``amount`` battle damage: none under "you take no battle damage", half when
    a battler's continuous effect halves it — 0 first, halved after (Yugipedia "Battle damage":
    the order effects that change battle damage are applied in)."""
    if amount <= 0 or durations.applies(game, "no_battle_damage", player):
        return
    if any(continuous.halves_battle_damage(game, monster) for monster in _battlers(game)):
        amount //= 2
    game.attack_damage(player, amount)
    emit(game, Event.battle_damage, player)


def _battlers(game: GameState) -> list[CardInstance]:
    """The attacker and the attack target still on the field as the monsters that battle."""
    attack = game.attack
    if attack is None:
        return []
    found = (_battler(game, attack.attacker, attack.attacker_identity),
             _battler(game, attack.target, attack.target_identity))
    return [monster for monster in found if monster is not None]


def send_destroyed(game: GameState) -> None:
    """End of the Damage Step: monsters destroyed by battle go to the graveyard now."""
    attack = game.attack
    if attack is None:
        return
    sent: list[str] = []
    battlers = (attack.attacker_identity, attack.target_identity)
    for uid in attack.destroyed:
        monster = _monster(game, uid)
        if monster is not None and monster.identity in battlers:
            to_graveyard(game, monster, destroyed=True, cause=Cause.battle.value,
                        together=bool(sent))  # both at once
            sent.append(monster.name)
    if sent:
        game.say("伤害阶段结束时，战斗破坏的" + "".join(f"「{n}」" for n in sent) + "送去墓地")


def end(game: GameState) -> None:
    game.last_attack = game.attack
    game.attack = None
