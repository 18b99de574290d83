"""Guard and callback functions, registered by the names the machine files use.

A guard reads the duel and answers one question; a callback changes the duel after a
transition. Both receive the :class:`~ygo_fsm.engine.Frame` of the machine taking the
transition (``frame.game`` is the game, ``frame.invoked_as`` the parent state that runs the
machine, e.g. ``main_phase_1``). Each docstring cites the clause it implements; the
transitions that use them cite it again in ``machines/*.yaml``.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from itertools import combinations

from . import battle, chain, durations, effects, events, operations, priority, summon
from .cards import Cause, Duration, Event
from .game import PROFILE_RULES, TurnEffect
from .state import Choice, Frame

Guard = Callable[["Frame"], bool]
Callback = Callable[["Frame"], None]
Chooser = Callable[["Frame"], list[Choice]]

GUARDS: dict[str, Guard] = {}
CALLBACKS: dict[str, Callback] = {}
CHOOSERS: dict[str, Chooser] = {}


def guard(func: Guard) -> Guard:
    """Register ``func`` as a guard under its own name."""
    GUARDS[func.__name__] = func
    return func


def callback(func: Callback) -> Callback:
    """Register ``func`` as a callback under its own name."""
    CALLBACKS[func.__name__] = func
    return func


def chooser(func: Chooser) -> Chooser:
    """Register ``func`` as a chooser (it lists a player action's options) under its own name."""
    CHOOSERS[func.__name__] = func
    return func


def _acting(frame: Frame) -> str:
    """The player taking the action being applied (or the one who must act)."""
    game = frame.game
    return priority.acting(game)


def _choice(frame: Frame) -> str:
    choice = frame.game.choice
    assert choice is not None, "a transition with choices was taken without one"
    return choice


_CITATION = re.compile(r"\((\d{3}[^()]*(?:\([^()]*\)[^()]*)*)\)")


def guard_citation(name: str) -> str:
    """The clause a guard's docstring cites (the last parenthesised ``NNN …`` in it), or ``""``."""
    func = GUARDS.get(name)
    found = _CITATION.findall(" ".join((func.__doc__ or "").split())) if func else []
    return found[-1] if found else ""


def _applies(frame: Frame, effect: TurnEffect) -> bool:
    return frame.game.effect_applies(effect)


# --- turn -----------------------------------------------------------------------------


@guard
def turn_skip_applies(frame: Frame) -> bool:
    """「ギャンブル」's turn skip applies: everything up to hand size adjustment is skipped (002 ●回合开始)."""
    return _applies(frame, TurnEffect.skip_turn)


@guard
def first_turn_forbids_battle_phase(frame: Frame) -> bool:
    """The first turn of the duel under a profile with no first-turn Battle Phase
    (004 ●先攻第1回合游戏玩家不能进行战斗阶段)."""
    game = frame.game
    return game.turn == 1 and not PROFILE_RULES[game.profile].first_turn_battle_phase


@guard
def battle_phase_skip_applies(frame: Frame) -> bool:
    """「偉大天狗」's "skip the Battle Phase" applies (002 【※下一个阶段的选择】)."""
    return _applies(frame, TurnEffect.skip_battle_phase)


@guard
def battle_phase_cannot_be_entered(frame: Frame) -> bool:
    """「クロス・ソウル」「魔霧雨」's "cannot enter the Battle Phase" applies (002 【※下一个阶段的选择】)."""
    return _applies(frame, TurnEffect.cannot_enter_battle_phase)


@callback
def begin_next_turn(frame: Frame) -> None:
    """The opponent's turn begins (004 ●结束阶段终了后开始进行对方玩家的抽卡阶段); effects lasting
    until the end of the turn end first."""
    durations.end_at(frame.game, Duration.end_of_turn)
    frame.game.begin_next_turn()


# --- draw phase -----------------------------------------------------------------------


@guard
def draw_phase_skip_applies(frame: Frame) -> bool:
    """『跳过抽卡流程』 applies (000 ●ドローフェイズ【１】)."""
    return _applies(frame, TurnEffect.skip_draw_phase)


@guard
def draw_replacement_applies(frame: Frame) -> bool:
    """An effect applies instead of the normal draw (000 ●ドローフェイズ【情况Ｂ】)."""
    return _applies(frame, TurnEffect.draw_replaced)


@guard
def draw_replaced_by_chain(frame: Frame) -> bool:
    """The draw was replaced by an activated effect (「無敗将軍フリード」): its chain's after-chain
    window was 情况Ｂ's window (000 ●ドローフェイズ【情况Ｂ】◇…的连锁处理结束后的发动时点)."""
    game = frame.game
    return game.draw_replaced_turn == game.turn


@guard
def first_turn_forbids_draw(frame: Frame) -> bool:
    """The first player's first turn under a profile with no first-turn draw
    (004 ●先攻第1回合游戏玩家的抽卡階段不能通常抽卡)."""
    return not frame.game.normal_draw_due()


@guard
def deck_empty(frame: Frame) -> bool:
    """The turn player has no card to draw (002 ●抽卡阶段【２】; 004 卡组没有卡…决斗败北)."""
    game = frame.game
    return game.players[game.turn_player].deck == 0


@callback
def draw_card(frame: Frame) -> None:
    """The turn player draws the top card of the deck (002 ●抽卡阶段【２】)."""
    game = frame.game
    operations.draw_card(game, game.turn_player)


@callback
def announce_before_draw(frame: Frame) -> None:
    """The moment before the draw, which 「無敗将軍フリード」 and the like respond to (000 ●ドローフェイズ【１】)."""
    game = frame.game
    events.emit(game, Event.before_draw, game.turn_player)


@callback
def lose_by_deck_out(frame: Frame) -> None:
    """The player who must draw from an empty deck loses (004 ●卡组没有卡…该玩家决斗败北)."""
    game = frame.game
    game.end_duel(winner=game.opponent, reason="deck_out")


# --- standby phase and main phase -------------------------------------------------------


@guard
def standby_phase_skip_applies(frame: Frame) -> bool:
    """『跳过准备流程』 applies (000 ●スタンバイフェイズ【１】)."""
    return _applies(frame, TurnEffect.skip_standby_phase)


@guard
def main_phase_skip_applies(frame: Frame) -> bool:
    """『跳过主要流程1』 applies and this Main Phase is Main Phase 1 (000 ●メインフェイズ１【１】).

    The seeds name no effect that skips Main Phase 2.
    """
    return frame.invoked_as == "main_phase_1" and _applies(frame, TurnEffect.skip_main_phase_1)


# --- battle phase ---------------------------------------------------------------------


@guard
def monster_can_attack(frame: Frame) -> bool:
    """The turn player controls a face-up Attack Position monster (000 ●バトルフェイズ【１】;
    002 ●战斗阶段 攻击宣言按照以下顺序进行 1.)."""
    game = frame.game
    return any(monster.can_declare_attack for monster in game.players[game.turn_player].monsters)


@guard
def first_turn_forbids_attacks(frame: Frame) -> bool:
    """The first turn of the game: no attacks (002 【※下一个阶段的选择】◇先攻的第一回合战斗阶段攻击不可)."""
    game = frame.game
    return game.turn == 1 and not PROFILE_RULES[game.profile].first_turn_attacks


@guard
def battle_phase_ending(frame: Frame) -> bool:
    """An effect ended the Battle Phase: it goes straight to the End Step
    (004 ●『战斗阶段结束』的效果处理的场合，直接进入结束步骤)."""
    game = frame.game
    frames = game.frames
    return (frames[0].state == "battle_phase" and len(frames) > 1 and frames[1].state != "end_step"
            and _applies(frame, TurnEffect.battle_phase_ended))


@guard
def cannot_attack_applies(frame: Frame) -> bool:
    """A 『不能攻击』 effect such as 「光の護封剣」 applies (000 ●バトルフェイズ【１】)."""
    return _applies(frame, TurnEffect.cannot_attack)


# --- end phase ------------------------------------------------------------------------


@callback
def expire_battle_phase_durations(frame: Frame) -> None:
    """『直到战斗阶段结束时』 effects end as the End Step ends, by themselves
    (004 ●『直到战斗阶段结束时』或『战斗阶段中』适用的效果直到双方玩家互相放弃发动卡的优先权
    且全部的卡的处理终了时适用)."""
    durations.end_at(frame.game, Duration.battle_end_step)


@callback
def expire_turn_durations(frame: Frame) -> None:
    """『直到回合游戏结束时』 effects (and the older 『直到结束阶段时』, reworded so in 2014) end once the
    hand size adjustment is over, by themselves
    (004 ●记载了『直到回合游戏结束时』的效果直到双方玩家互相放弃发动卡的优先权，
    手卡调整结束全部的卡的处理终了时为止适用)."""
    durations.end_at(frame.game, Duration.end_phase, Duration.end_of_turn)


@guard
def hand_over_limit(frame: Frame) -> bool:
    """The turn player's hand is over their limit: 6, or 7 / 5 / none under
    「ヒエログリフの石版」「衰弱の霧」「無限の手札」 (000 ●エンドフェイズ【３】)."""
    game = frame.game
    player = game.players[game.turn_player]
    limit = player.hand_size_limit
    return limit is not None and player.hand > limit


@chooser
def discard_choices(frame: Frame) -> list[Choice]:
    """The turn player chooses which cards to discard down to the limit (000 ●エンドフェイズ【３】
    选择手卡丢弃): every set of named cards that, with unnamed ones, makes the excess; ``unnamed``
    when only unnamed cards go."""
    game = frame.game
    player = game.players[game.turn_player]
    limit = player.hand_size_limit
    excess = player.hand - limit if limit is not None else 0
    named = sorted(card.uid for card in player.hand_cards)
    low = max(0, excess - player.unnamed_hand)
    choices = []
    for size in range(low, min(excess, len(named)) + 1):
        for group in combinations(named, size):
            choices.append(Choice("+".join(group) if group else "unnamed",
                                  "、".join(f"「{uid}」" for uid in group) or f"{excess}张手卡"))
    return choices


@callback
def discard_to_hand_limit(frame: Frame) -> None:
    """Discard the chosen cards down to the hand size limit; they go to the graveyard (000 ●エンドフェイズ【３】)."""
    game = frame.game
    player = game.players[game.turn_player]
    limit = player.hand_size_limit
    if limit is not None and player.hand > limit:
        count = player.hand - limit
        choice = game.choice or "unnamed"
        chosen = () if choice == "unnamed" else tuple(choice.split("+"))
        operations.discard(game, game.turn_player, count, chosen=chosen, cause=Cause.hand_size_rule.value)
        game.say(f"回合玩家{game.turn_player}丢弃{count}张手卡，手卡数目为{player.hand}张")


# --- priority with activations and phase effects (issue: chains) ----------------------------


@chooser
def open_state_activations(frame: Frame) -> list[Choice]:
    """What the player with priority may activate in the open game state (000 every ◇ block)."""
    game = frame.game
    return effects.open_state_activations(game, priority.holder(game) or game.turn_player)


@chooser
def phase_processing(frame: Frame) -> list[Choice]:
    """Phase effects handled without a chain link (000 ●スタンバイフェイズ【２】·『准备流程时～』的效果的处理)."""
    game = frame.game
    return effects.phase_processing(game, priority.holder(game) or game.turn_player)


@chooser
def pending_phase_activations(frame: Frame) -> list[Choice]:
    """The phase effects the player must now handle, to activate (000 例2: 回合玩家先处理)."""
    game = frame.game
    player = priority.holder(game) or game.turn_player
    return [c for c in effects.open_state_activations(game, player) if effects.is_phase_choice(game, c.key)]


def _pending(frame: Frame, player: str) -> bool:
    return effects.pending_phase_effects(frame.game, player)


@guard
def mandatory_phase_effects_pending(frame: Frame) -> bool:
    """A player still has a phase effect that must be activated or processed
    (004 ●双方玩家互相放弃发动卡的优先权后，存在有在结束阶段的必发效果或必须处理的效果的场合)."""
    game = frame.game
    return _pending(frame, game.turn_player) or _pending(frame, game.opponent)


@guard
def turn_player_has_pending_effects(frame: Frame) -> bool:
    """Both passed while effects are pending: the turn player handles theirs first (000 ●スタンバイフェイズ 例2)."""
    return _pending(frame, frame.game.turn_player)


@guard
def opponent_has_pending_effects(frame: Frame) -> bool:
    """The opponent still has a phase effect to handle (000 ●スタンバイフェイズ【２】◇持有优先权的对方玩家…)."""
    return _pending(frame, frame.game.opponent)


@callback
def activate_effect(frame: Frame) -> None:
    """Activate the chosen effect: costs, the card onto the field, a new chain link (000 CHAIN n)."""
    chain.activate(frame.game, _acting(frame), _choice(frame))


@callback
def process_phase_effect(frame: Frame) -> None:
    """Process the chosen phase effect without a chain link (000 ·…的效果的处理（不进入连锁）)."""
    chain.process_phase_effect(frame.game, _acting(frame), _choice(frame))


# --- the chain ------------------------------------------------------------------------------


@chooser
def chain_responses(frame: Frame) -> list[Choice]:
    """Spell speed 2+ effects not below the newest link (000 2速以上的卡; counter traps answer only 3)."""
    game = frame.game
    return effects.chain_responses(game, priority.holder(game) or game.turn_player)


@guard
def chain_has_links(frame: Frame) -> bool:
    """Links remain on the chain (000 逆算: resolve the newest link first)."""
    return bool(frame.game.chain)


@callback
def begin_resolution(frame: Frame) -> None:
    """Both passed in succession: the chain resolves, newest link first (000 逆算)."""
    chain.begin_resolution(frame.game)


@callback
def resolve_top_link(frame: Frame) -> None:
    """Resolve the newest link; a negated link is skipped (000 CHAIN2「我が身を盾に」被无效不处理)."""
    chain.resolve_top_link(frame.game)


@callback
def finish_chain(frame: Frame) -> None:
    """The chain is resolved; priority returns to the turn player after the window (000 （优先权归还给回合玩家）)."""
    chain.finish_chain(frame.game)


# --- timing windows -------------------------------------------------------------------------


@callback
def collect_triggers(frame: Frame) -> None:
    """Open a timing window for what just happened and sort the triggers it met into the
    priority list (000 ※回合的流程/阶段中，卡／效果的发动时点的出现条件)."""
    game = frame.game
    restricted = ends_after_chain = False
    if frame.parent is not None and frame.invoked_as is not None:
        state = game.state_specs[(frame.parent, frame.invoked_as)]
        restricted, ends_after_chain = state.restricts_chain1, state.restriction_ends_after_chain
    chain.open_window(game, restricted=restricted, ends_after_chain=ends_after_chain)


@callback
def close_window(frame: Frame) -> None:
    """Nobody started a CHAIN1: the window is over (000 双方都不发动卡／效果，都放弃优先权，时点结束)."""
    chain.close_window(frame.game)


@guard
def triggers_to_place(frame: Frame) -> bool:
    """Simultaneous triggers met by the window's events are still to be put on the chain (000 priority list 1–4)."""
    return chain.current_tier(frame.game) is not None


@guard
def optional_tier(frame: Frame) -> bool:
    """The triggers being placed are optional ones (000 任意发动的诱发效果): they may be declined."""
    tier = chain.current_tier(frame.game)
    return tier is not None and not tier.mandatory


@chooser
def tier_triggers(frame: Frame) -> list[Choice]:
    """The current tier's triggers; the player orders their own (000 卡／效果发动的优先顺序)."""
    return chain.tier_choices(frame.game)


@callback
def place_trigger(frame: Frame) -> None:
    """Put the chosen trigger on the chain (000 CHAIN n 回合玩家发动…的诱发效果)."""
    chain.place_trigger(frame.game, _acting(frame), _choice(frame))


@callback
def decline_triggers(frame: Frame) -> None:
    """The player does not activate their remaining optional triggers (000 任意发动)."""
    chain.decline_tier(frame.game)


@chooser
def window_chain1(frame: Frame) -> list[Choice]:
    """CHAIN1 once the triggers are placed: the turn player's ignition effect (Main Phase; after a
    chain only if its last action was a summon — 001 例1/例2), then spell speed 2+ (000 5–7)."""
    game = frame.game
    return effects.window_chain1(game, priority.holder(game) or game.turn_player)


@chooser
def window_fast_effects(frame: Frame) -> list[Choice]:
    """CHAIN1 once the triggers are placed, fast effects only: after a summon that starts no chain
    and after a chain the turn player may respond only with spell speed 2+; an ignition effect
    needs the open game state (FET; PR17 p.109)."""
    game = frame.game
    return effects.window_chain1(game, priority.holder(game) or game.turn_player, ignition=False)


# --- main phase: a plain normal summon (the summon procedure comes later) ---------------------


@guard
def open_game_state(frame: Frame) -> bool:
    """The turn player holds priority in the open game state, no chain or window going on
    (000 ●メインフェイズ１【２】◇回合玩家可以进行的行为)."""
    game = frame.game
    innermost = game.frames[-1]
    return innermost.machine == "priority" and innermost.state == "turn_player" and not game.chain


@guard
def normal_summon_used(frame: Frame) -> bool:
    """The turn player already normal summoned or set this turn (002 ●主要阶段1 1回合可以进行一次的召唤)."""
    game = frame.game
    return game.normal_summon_turn == game.turn


@chooser
def normal_summonable(frame: Frame) -> list[Choice]:
    """Monsters in the hand that can be normal summoned or set, tributes available
    (002 ●主要阶段1「通常召唤」1回合可以进行一次的召唤、生祭召唤)."""
    return summon.normal_summonable(frame.game)


@chooser
def flip_summonable(frame: Frame) -> list[Choice]:
    """Set monsters that may be flip summoned
    (000 反转***：回合主动把里侧守备表示的怪兽的表示形式改变为表侧攻击表示)."""
    return summon.flip_summonable(frame.game)


@chooser
def special_summonable(frame: Frame) -> list[Choice]:
    """Monsters that can be special summoned by their own procedure (000 特殊***：「サイバー・ドラゴン」等)."""
    return summon.special_summonable(frame.game)


@chooser
def position_changeable(frame: Frame) -> list[Choice]:
    """Monsters whose battle position the turn player may change
    (002 ●主要阶段1【场上怪兽的表示形式变更】)."""
    return summon.position_changeable(frame.game)


@callback
def declare_normal_summon(frame: Frame) -> None:
    """１ 怪兽的通常召唤宣言 (000 【怪兽通常***…】１)."""
    summon.begin(frame.game, _choice(frame), "normal")


@callback
def declare_set(frame: Frame) -> None:
    """１ 里侧表示通常召唤（SET）的宣言 (000 通常***：…里侧表示通常***（SET）)."""
    summon.begin(frame.game, _choice(frame), "set")


@callback
def declare_flip_summon(frame: Frame) -> None:
    """１ 反转召唤宣言 (000 【怪兽通常***、反转***…】１)."""
    summon.begin(frame.game, _choice(frame), "flip")


@callback
def declare_special_summon(frame: Frame) -> None:
    """１ 特殊召唤宣言 (000 特殊***：「青眼の光龍」等条件***怪兽…)."""
    summon.begin(frame.game, _choice(frame), "special")


@callback
def change_position(frame: Frame) -> None:
    """The turn player changes a monster's battle position (no chain link), then a window opens
    (000 ●メインフェイズ１【２】·怪兽表示形式的改变（不进入连锁）)."""
    summon.change_position(frame.game, _choice(frame))


@chooser
def settable_spell_traps(frame: Frame) -> list[Choice]:
    """Spell and trap cards in the hand, while a spell/trap zone is free
    (002 ●主要阶段1 ※魔法、陷阱最多只能放在5个魔法陷阱区域里)."""
    return summon.settable_spell_traps(frame.game)


@callback
def set_spell_trap(frame: Frame) -> None:
    """The turn player Sets a spell or trap card; the window 『魔法陷阱覆盖放置时』 follows
    (000 ※主要流程1中每次进行了不进入连锁的行为之后 例：自己SET魔法陷阱卡之后…对方发动「サイクロン」)."""
    summon.set_spell_trap(frame.game, _choice(frame))


@chooser
def tribute_candidates(frame: Frame) -> list[Choice]:
    """The monsters the summoning player may tribute (000 【怪兽通常***…】２)."""
    return summon.tribute_candidates(frame.game)


@guard
def tributes_missing(frame: Frame) -> bool:
    """More tributes are needed: one for level 5–6, two for level 7+ (000 【怪兽通常***…】２)."""
    return summon.tributes_missing(frame.game)


@callback
def pay_tribute(frame: Frame) -> None:
    """A tribute goes to the graveyard (000 【怪兽通常***…】２ 祭品)."""
    summon.pay_tribute(frame.game, _choice(frame))


@callback
def summon_conditions_paid(frame: Frame) -> None:
    """Mandatory triggers met while paying wait for step 7; optional ones do not activate
    (000 【怪兽通常***…】２·此时满足发动条件的…任意发动的诱发效果不会发动)."""
    summon.conditions_paid(frame.game)


@callback
def take_out_monster(frame: Frame) -> None:
    """３ The monster is taken out and is in no location until it lands (000 【怪兽通常***…】３)."""
    summon.take_out(frame.game)


@guard
def summon_is_set(frame: Frame) -> bool:
    """A normal set: no summon to negate (000 通常***：…里侧表示通常***（SET）; 3 里侧表示的场合不公开)."""
    return summon.is_set(frame.game)


@guard
def summon_negated(frame: Frame) -> bool:
    """A summon-negating effect resolved (000 【情况Ｂ】***被无效的场合)."""
    return summon.negated(frame.game)


@callback
def complete_summon(frame: Frame) -> None:
    """５ The monster lands: the summon succeeded (000 【情况Ａ】５)."""
    summon.succeed(frame.game)


@callback
def fail_summon(frame: Frame) -> None:
    """５ The summon failed (000 【情况Ｂ】５通常***、反转***、特殊***失败的发动时点)."""
    summon.fail(frame.game)


@callback
def finish_summon(frame: Frame) -> None:
    """The summon procedure is over; priority returns to the turn player (000 ※主要流程1中…)."""
    summon.finish(frame.game)


# --- battle: attack declaration, cancel and replay, the Damage Step --------------------------


@callback
def begin_battle_phase(frame: Frame) -> None:
    """A new Battle Phase: each monster may attack once in it (002 ●战斗阶段 ※一次战斗阶段中一个怪兽可以攻击一回)."""
    frame.game.battle_phase_number += 1


@chooser
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
def declare_attack(frame: Frame) -> None:
    """1 怪兽的攻击宣言: the attacker is chosen; it counts as having attacked (000 【怪兽的攻击宣言…】１)."""
    battle.declare(frame.game, _choice(frame))


@callback
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
def end_attack(frame: Frame) -> None:
    """The attack is over; back to the Battle Step (000 ●バトルフェイズ【３】·结束后返回【２】)."""
    battle.end(frame.game)


@callback
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
