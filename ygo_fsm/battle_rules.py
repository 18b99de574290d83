"""The Battle Phase: attack declaration, cancel and replay, and the Damage Step (registered by
name in :mod:`ygo_fsm.registry`)."""

from __future__ import annotations

from . import battle, durations
from .cards import Duration
from .game import PROFILE_RULES, TurnEffect
from .registry import _applies, _choice, callback, cards_stay, chooser, guard, lists_known_cards
from .state import Choice, Frame

# --- battle: attack declaration, cancel and replay, the Damage Step --------------------------


@callback
@cards_stay
def begin_battle_phase(frame: Frame) -> None:
    """A new Battle Phase: each monster may attack once in it (002 ●战斗阶段 ※一次战斗阶段中一个怪兽可以攻击一回)."""
    frame.game.battle_phase_number += 1


@chooser
@lists_known_cards
def attackers(frame: Frame) -> list[Choice]:
    """The turn player's face-up Attack Position monsters that have not attacked in this Battle Phase
    (002 ●战斗阶段◇攻击过一回的自己怪兽，这个战斗阶段中不能再次攻击宣言)."""
    return battle.attackers(frame.game)


@chooser
def attack_targets(frame: Frame) -> list[Choice]:
    """One of the opponent's monsters, or a direct attack when they control none
    (002 ●战斗阶段【攻击宣言・选择对象】)."""
    return battle.targets(frame.game)


@callback
@cards_stay
def declare_attack(frame: Frame) -> None:
    """1 怪兽的攻击宣言: the attacker is chosen; it counts as having attacked (000 【怪兽的攻击宣言…】１)."""
    battle.declare(frame.game, _choice(frame))


@callback
@cards_stay
def choose_attack_target(frame: Frame) -> None:
    """2 攻击怪兽的攻击对象 (000 【怪兽的攻击宣言…】２)."""
    battle.choose_target(frame.game, _choice(frame))


@callback
def apply_declaration_effects(frame: Frame) -> None:
    """１ Effects applied on the declaration without a chain link (000 【怪兽的攻击宣言…】１
    「通行税」…的效果适用的场合，此时进行处理（不进入连锁）)."""
    battle.apply_continuous_effects(frame.game, "attack_declaration")


@callback
def apply_post_declaration_effects(frame: Frame) -> None:
    """３ Effects applied after the declaration
    (000 【怪兽的攻击宣言…】３ 表侧表示的「銀幕の鏡壁」等的效果在此时适用)."""
    battle.apply_continuous_effects(frame.game, "after_attack_declaration")


@callback
@cards_stay
def announce_attack(frame: Frame) -> None:
    """3→4: 『攻击宣言时』 (not after a replay) and 『成为攻击对象时』 (000 ※战斗回卷)."""
    battle.announce(frame.game)


@guard
def replay_needed(frame: Frame) -> bool:
    """The opponent's monsters changed during the chain: replay (000 ※战斗回卷; 004 ●卷回)."""
    return battle.replay_needed(frame.game)


def _attack_checked_here(frame: Frame) -> bool:
    game = frame.game
    if game.attack is None:
        return False
    return any(game.state_spec(f).checks_attack for f in game.frames)


@callback
def check_attack_after_chain(frame: Frame) -> None:
    """Chain-resolution callback: inside an attack's declaration window or Battle Step, an
    attacker that can no longer attack when the chain ends cancels the attack
    (000 ※攻击中止·连锁处理结束时，攻击怪兽处于不能攻击的状态的场合…攻击中止)."""
    if _attack_checked_here(frame) and battle.attacker_cannot_attack(frame.game):
        battle.cancel(frame.game)


@guard
def attack_interrupted(frame: Frame) -> bool:
    """After a chain and the window after it, inside an attack's Battle Step: the attack was
    cancelled, or the opponent's monsters changed and it replays (000 ※战斗回卷·连锁处理结束时的
    发动时点过后; 004 ●卷回只会发生在战斗步骤)."""
    game = frame.game
    return _attack_checked_here(frame) and (battle.is_cancelled(game) or battle.replay_needed(game))


@guard
def attack_cancelled(frame: Frame) -> bool:
    """The attack was cancelled, or its attacker can no longer attack (000 ※攻击中止)."""
    return battle.is_cancelled(frame.game)


@guard
def opponent_chooses_target(frame: Frame) -> bool:
    """The opponent's 「ノーブル・ド・ノワール」 applies: the opponent chooses the attack target
    (000 【怪兽的攻击宣言…】２·对方「ノーブル・ド・ノワール」的效果适用的场合，攻击对象由对方选择)."""
    return _applies(frame, TurnEffect.opponent_chooses_attack_target)


@guard
def attack_may_be_stopped(frame: Frame) -> bool:
    """Under the modern rules the attacking player may choose no target after a replay and stop
    the attack (004 ●重新选择攻击对象时可以不选择任何怪兽而停止攻击)."""
    game = frame.game
    return game.attack is not None and game.attack.replayed and PROFILE_RULES[game.profile].replay_may_stop_attack


@guard
def attack_goes_on(frame: Frame) -> bool:
    """The attack was neither cancelled nor stopped (002 ●战斗阶段【３】伤害步骤)."""
    attack = frame.game.attack
    return attack is not None and not attack.outcome


@callback
def begin_replay(frame: Frame) -> None:
    """战斗回卷: back to choosing the attack target (000 ※战斗回卷，返回“２攻击怪兽的攻击对象”)."""
    battle.begin_replay(frame.game)


@callback
def cancel_attack(frame: Frame) -> None:
    """攻击中止; the attack still counts as that monster's attack (004 ●攻击无效的场合…不能再次攻击)."""
    battle.cancel(frame.game)


@callback
def stop_attack(frame: Frame) -> None:
    """The attacking player stops the attack after a replay (004)."""
    battle.stop(frame.game)


@callback
@cards_stay
def end_attack(frame: Frame) -> None:
    """The attack is over; back to the Battle Step (000 ●バトルフェイズ【３】·结束后返回【２】)."""
    battle.end(frame.game)


@callback
@cards_stay
def reveal_attack_target(frame: Frame) -> None:
    """Before damage calculation a face-down target is turned face-up; its flip effect waits (004)."""
    battle.reveal_target(frame.game)


@callback
def calculate_damage(frame: Frame) -> None:
    """Damage calculation (004 ●和对方怪兽进行伤害计算的场合，按照以下规则进行伤害计算)."""
    battle.calculate(frame.game)


@callback
def send_battle_destroyed(frame: Frame) -> None:
    """End of the Damage Step: battle-destroyed monsters go to the graveyard
    (004 ●战斗终了，将战斗破坏的怪兽送去墓地的时点); effects lasting until the end of the Damage
    Step end."""
    battle.send_destroyed(frame.game)
    durations.end_at(frame.game, Duration.end_of_damage_step)


@guard
def battler_gone(frame: Frame) -> bool:
    """The attacker, or the attack target of an attack that is not direct, has left the field
    before damage calculation: there is no damage calculation, the Damage Step goes on to its end
    (004 ●未进行伤害计算的战斗不视为『进行战斗』; PR17 Damage Step)."""
    return battle.battler_gone(frame.game)


@callback
def skip_damage_calculation(frame: Frame) -> None:
    """No damage calculation: the battle does not count as fought, nothing is destroyed by battle
    (004 ●未进行伤害计算的战斗不视为『进行战斗』)."""
    battle.skip_calculation(frame.game)
