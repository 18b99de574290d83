"""Guard and callback functions, registered by the names the machine files use.

A guard reads the duel and answers one question; a callback changes the duel after a
transition. Both receive the :class:`~ygo_fsm.engine.Frame` of the machine taking the
transition (``frame.duel`` is the duel, ``frame.invoked_as`` the parent state that runs the
machine, e.g. ``main_phase_1``). Each docstring cites the clause it implements; the
transitions that use them cite it again in ``machines/*.yaml``.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import TYPE_CHECKING

from .game import PROFILE_RULES, TurnEffect

if TYPE_CHECKING:
    from .engine import Frame

Guard = Callable[["Frame"], bool]
Callback = Callable[["Frame"], None]

GUARDS: dict[str, Guard] = {}
CALLBACKS: dict[str, Callback] = {}


def guard(func: Guard) -> Guard:
    """Register ``func`` as a guard under its own name."""
    GUARDS[func.__name__] = func
    return func


def callback(func: Callback) -> Callback:
    """Register ``func`` as a callback under its own name."""
    CALLBACKS[func.__name__] = func
    return func


_CITATION = re.compile(r"\((\d{3}[^()]*(?:\([^()]*\)[^()]*)*)\)")


def guard_citation(name: str) -> str:
    """The clause a guard's docstring cites (the last parenthesised ``NNN …`` in it), or ``""``."""
    func = GUARDS.get(name)
    found = _CITATION.findall(" ".join((func.__doc__ or "").split())) if func else []
    return found[-1] if found else ""


def _applies(frame: Frame, effect: TurnEffect) -> bool:
    return frame.duel.effect_applies(effect)


# --- turn -----------------------------------------------------------------------------


@guard
def turn_skip_applies(frame: Frame) -> bool:
    """「ギャンブル」's turn skip applies: everything up to hand size adjustment is skipped (002 ●回合开始)."""
    return _applies(frame, TurnEffect.skip_turn)


@guard
def first_turn_forbids_battle_phase(frame: Frame) -> bool:
    """The first turn of the duel under a profile with no first-turn Battle Phase
    (004 ●先攻第1回合游戏玩家不能进行战斗阶段)."""
    duel = frame.duel
    return duel.turn == 1 and not PROFILE_RULES[duel.profile].first_turn_battle_phase


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
    """The opponent's turn begins (004 ●结束阶段终了后开始进行对方玩家的抽卡阶段)."""
    frame.duel.begin_next_turn()


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
def first_turn_forbids_draw(frame: Frame) -> bool:
    """The first player's first turn under a profile with no first-turn draw
    (004 ●先攻第1回合游戏玩家的抽卡階段不能通常抽卡)."""
    duel = frame.duel
    return duel.turn == 1 and not PROFILE_RULES[duel.profile].first_turn_draw


@guard
def deck_empty(frame: Frame) -> bool:
    """The turn player has no card to draw (002 ●抽卡阶段【２】; 004 卡组没有卡…决斗败北)."""
    duel = frame.duel
    return duel.players[duel.turn_player].deck == 0


@callback
def draw_card(frame: Frame) -> None:
    """The turn player draws the top card of the deck (002 ●抽卡阶段【２】)."""
    duel = frame.duel
    player = duel.players[duel.turn_player]
    player.deck -= 1
    player.hand += 1


@callback
def lose_by_deck_out(frame: Frame) -> None:
    """The player who must draw from an empty deck loses (004 ●卡组没有卡…该玩家决斗败北)."""
    duel = frame.duel
    duel.end_duel(winner=duel.opponent, reason="deck_out")


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
    duel = frame.duel
    return any(monster.can_declare_attack for monster in duel.players[duel.turn_player].monsters)


@guard
def first_turn_forbids_attacks(frame: Frame) -> bool:
    """The first turn of the duel: no attacks (002 【※下一个阶段的选择】◇先攻的第一回合战斗阶段攻击不可)."""
    duel = frame.duel
    return duel.turn == 1 and not PROFILE_RULES[duel.profile].first_turn_attacks


@guard
def cannot_attack_applies(frame: Frame) -> bool:
    """A 『不能攻击』 effect such as 「光の護封剣」 applies (000 ●バトルフェイズ【１】)."""
    return _applies(frame, TurnEffect.cannot_attack)


# --- end phase ------------------------------------------------------------------------


@guard
def hand_over_limit(frame: Frame) -> bool:
    """The turn player's hand is over their limit: 6, or 7 / 5 / none under
    「ヒエログリフの石版」「衰弱の霧」「無限の手札」 (000 ●エンドフェイズ【３】)."""
    duel = frame.duel
    player = duel.players[duel.turn_player]
    limit = player.hand_size_limit
    return limit is not None and player.hand > limit


@callback
def discard_to_hand_limit(frame: Frame) -> None:
    """Discard down to the hand size limit; the cards go to the graveyard (000 ●エンドフェイズ【３】)."""
    duel = frame.duel
    player = duel.players[duel.turn_player]
    limit = player.hand_size_limit
    if limit is not None and player.hand > limit:
        player.graveyard += player.hand - limit
        player.hand = limit
