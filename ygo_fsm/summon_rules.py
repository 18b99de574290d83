"""The Main Phase's summons, sets and position changes, and the summon procedure (registered by
name in :mod:`ygo_fsm.registry`)."""

from __future__ import annotations

from collections.abc import Callable

from . import summon
from .registry import Chooser, _choice, callback, cards_stay, chooser, guard, lists_known_cards
from .state import Choice, Frame, GameState

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
@lists_known_cards
def normal_summonable(frame: Frame) -> list[Choice]:
    """Monsters in the hand that can be normal summoned or set, tributes available
    (002 ●主要阶段1「通常召唤」1回合可以进行一次的召唤、生祭召唤). One option search asks it
    for the normal summon and for the Set, and again while no card moves: they are given the list
    the first got (:func:`_while_cards_stay`)."""
    return _while_cards_stay(frame, normal_summonable, summon.normal_summonable)


def _while_cards_stay(frame: Frame, chooser: Chooser, lister: Callable[[GameState], list[Choice]]) -> list[Choice]:
    """``lister(game)``, kept in ``GameState.card_scans`` under ``chooser`` while no card moves: for a
    chooser whose list reads only which cards are where, the turn player and the cards' own data,
    none of which a transition of :data:`~ygo_fsm.registry.CARDS_STAY` callbacks changes."""
    game = frame.game
    kept = game.card_scans
    if kept is None:  # (a transition that may move cards is running)
        return lister(game)
    found = kept.get(chooser)  # type: ignore[call-overload]  # keyed by the chooser itself
    if found is None:
        found = kept[chooser] = lister(game)  # type: ignore[index]
    return found  # type: ignore[no-any-return]  # only the lister's lists are kept under it


@chooser
@lists_known_cards
def flip_summonable(frame: Frame) -> list[Choice]:
    """Set monsters that may be flip summoned
    (000 反转***：回合主动把里侧守备表示的怪兽的表示形式改变为表侧攻击表示)."""
    return summon.flip_summonable(frame.game)


@chooser
@lists_known_cards
def special_summonable(frame: Frame) -> list[Choice]:
    """Monsters that can be special summoned by their own procedure (000 特殊***：「サイバー・ドラゴン」等)."""
    return summon.special_summonable(frame.game)


@chooser
@lists_known_cards
def position_changeable(frame: Frame) -> list[Choice]:
    """Monsters whose battle position the turn player may change
    (002 ●主要阶段1【场上怪兽的表示形式变更】)."""
    return summon.position_changeable(frame.game)


@callback
@cards_stay
def declare_normal_summon(frame: Frame) -> None:
    """１ 怪兽的通常召唤宣言 (000 【怪兽通常***…】１)."""
    summon.begin(frame.game, _choice(frame), "normal")


@callback
@cards_stay
def declare_set(frame: Frame) -> None:
    """１ 里侧表示通常召唤（SET）的宣言 (000 通常***：…里侧表示通常***（SET）)."""
    summon.begin(frame.game, _choice(frame), "set")


@callback
@cards_stay
def declare_flip_summon(frame: Frame) -> None:
    """１ 反转召唤宣言 (000 【怪兽通常***、反转***…】１)."""
    summon.begin(frame.game, _choice(frame), "flip")


@callback
@cards_stay
def declare_special_summon(frame: Frame) -> None:
    """１ 特殊召唤宣言 (000 特殊***：「青眼の光龍」等条件***怪兽…)."""
    summon.begin(frame.game, _choice(frame), "special")


@callback
@cards_stay
def change_position(frame: Frame) -> None:
    """The turn player changes a monster's battle position (no chain link), then a window opens
    (000 ●メインフェイズ１【２】·怪兽表示形式的改变（不进入连锁）)."""
    summon.change_position(frame.game, _choice(frame))


@chooser
@lists_known_cards
def settable_spell_traps(frame: Frame) -> list[Choice]:
    """Spell and trap cards in the hand, while a spell/trap zone is free
    (002 ●主要阶段1 ※魔法、陷阱最多只能放在5个魔法陷阱区域里); kept while no card moves."""
    return _while_cards_stay(frame, settable_spell_traps, summon.settable_spell_traps)


@callback
def set_spell_trap(frame: Frame) -> None:
    """The turn player Sets a spell or trap card; the window 『魔法陷阱覆盖放置时』 follows
    (000 ※主要流程1中每次进行了不进入连锁的行为之后 例：自己SET魔法陷阱卡之后…对方发动「サイクロン」)."""
    summon.set_spell_trap(frame.game, _choice(frame))


@chooser
@lists_known_cards
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
@cards_stay
def finish_summon(frame: Frame) -> None:
    """The summon procedure is over; priority returns to the turn player (000 ※主要流程1中…)."""
    summon.finish(frame.game)
