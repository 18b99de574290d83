"""The turn and its phases: skips, the draw, the Standby and Main Phases, entering the Battle Phase
and the End Phase with its hand size adjustment (registered by name in :mod:`ygo_fsm.registry`)."""

from __future__ import annotations

from . import durations, events, operations
from .cards import Cause, Duration, Event
from .game import PROFILE_RULES, TurnEffect
from .registry import _applies, callback, cards_stay, chooser, guard, lists_known_cards
from .state import Choice, Frame, GameState

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
@cards_stay
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
@lists_known_cards
def discard_choices(frame: Frame) -> list[Choice]:
    """The turn player chooses the cards to discard down to the limit one at a time
    (000 ●エンドフェイズ【３】选择手卡丢弃): any named card in hand not chosen yet, or ``unnamed``
    (one of the cards no action names) while unchosen unnamed cards remain — one option per
    card, so the options grow with the hand, never with its subsets."""
    game = frame.game
    player = game.players[game.turn_player]
    chosen = game.discard_chosen
    choices = [Choice(card.uid, f"「{card.name}」") for card in sorted(player.hand_cards, key=lambda c: c.uid)
               if card.uid not in chosen]
    if player.unnamed_hand > chosen.count(UNNAMED_DISCARD):
        choices.append(Choice(UNNAMED_DISCARD, "一张手卡"))
    return choices


UNNAMED_DISCARD = "unnamed"
"""The option key for discarding one of the cards no action names."""


def _discard_excess(game: GameState) -> int:
    player = game.players[game.turn_player]
    limit = player.hand_size_limit
    return player.hand - limit if limit is not None else 0


@guard
def discard_choice_completes(frame: Frame) -> bool:
    """This choice is the last card needed: with it, discarding the chosen cards leaves the hand at
    the limit (000 ●エンドフェイズ【３】…使手卡数目保持在6张)."""
    game = frame.game
    return len(game.discard_chosen) + 1 >= _discard_excess(game)


@callback
def choose_discard(frame: Frame) -> None:
    """The turn player chooses one more card to discard; nothing is discarded yet
    (000 ●エンドフェイズ【３】选择手卡丢弃)."""
    game = frame.game
    game.discard_chosen.append(game.choice or UNNAMED_DISCARD)


@callback
def discard_to_hand_limit(frame: Frame) -> None:
    """Discard the chosen cards together, down to the hand size limit; they go to the graveyard
    (000 ●エンドフェイズ【３】)."""
    game = frame.game
    player = game.players[game.turn_player]
    chosen = [*game.discard_chosen, game.choice or UNNAMED_DISCARD]
    game.discard_chosen = []
    count = _discard_excess(game)
    if count > 0:
        named = tuple(key for key in chosen if key != UNNAMED_DISCARD)
        operations.discard(game, game.turn_player, count, chosen=named, cause=Cause.hand_size_rule.value)
        game.say(f"回合玩家{game.turn_player}丢弃{count}张手卡，手卡数目为{player.hand}张")
