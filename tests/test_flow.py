"""A turn's flow as the seeds give it, driven through the public API by passing priority.

Nobody activates anything in these tests, so every phase and step ends when the turn player
and then the opponent pass (004 ●每个阶段或步骤，需要在双方玩家互相放弃发动卡的优先权…才能终了).
"""

from __future__ import annotations

from collections.abc import Sequence

import pytest
from conftest import pass_until, play_until

from ygo_fsm import Duel, HandLimitEffect, IllegalActionError, Monster, Position, Setup, TurnEffect
from ygo_fsm.game import card_id_uids
from ygo_fsm.trace import TraceRecord

ATTACKER = {"name": "甲虫装甲騎士", "atk": 1900}
ACTIONS_PER_TURN = 60
"""More than a whole turn needs when both players only pass."""


# --- helpers ------------------------------------------------------------------------------


def steps(records: Sequence[TraceRecord], depth: int = 2) -> list[str]:
    """The phase-level states the records went through (the first ``depth`` parts of each
    record's state path), consecutive repeats removed."""
    seen: list[str] = []
    for record in records:
        part = ".".join(record.state.split(".")[:depth])
        if not seen or seen[-1] != part:
            seen.append(part)
    return seen


def in_order(expected: Sequence[str], seen: Sequence[str]) -> bool:
    """``expected`` occurs in ``seen`` in this order (other states may come in between)."""
    position = 0
    for item in seen:
        if position < len(expected) and item == expected[position]:
            position += 1
    return position == len(expected)


def names(duel: Duel) -> list[str]:
    return [action.name for action in duel.legal_actions()]


def new_records(duel: Duel, start: int) -> tuple[TraceRecord, ...]:
    return duel.trace[start:]


def finish_turn(duel: Duel, *, battle: bool = False) -> None:
    """Do nothing (pass; choose the Battle Phase only when ``battle``; discard when required)
    until the turn changes."""
    turn = duel.turn
    play_until(duel, lambda d: d.turn != turn or d.is_over, battle=battle, limit=ACTIONS_PER_TURN)


def to_choice(duel: Duel) -> None:
    """Pass until the turn player must choose the next phase after Main Phase 1."""
    pass_until(duel, lambda d: d.state == "choose_next_phase")


# --- Draw Phase ---------------------------------------------------------------------------


def test_draw_phase_windows_in_order_and_the_draw():
    """000 ●ドローフェイズ【１】◇『抽卡前』的发动时点 → 【情况Ａ】【２】通常的抽卡
    → ◇『抽卡时』的发动时点 → 【３】 → 【４】; 002 ●抽卡阶段【２】卡组最上方抽一张卡加入手牌."""
    duel = Duel(profile="modern", turn=2, players={"A": {"hand": 4, "deck": 10}})
    assert duel.state == "draw_phase.before_draw_window.turn_player"
    assert (duel.players["A"].hand, duel.players["A"].deck) == (4, 10), "no draw before the window"
    pass_until(duel, lambda d: d.in_state("draw_phase.draw_window"))
    assert (duel.players["A"].hand, duel.players["A"].deck) == (5, 9)
    assert (duel.players["B"].hand, duel.players["B"].deck) == (5, 35), "only the turn player draws"
    assert duel.state == "draw_phase.draw_window.turn_player"
    pass_until(duel, lambda d: d.in_state("draw_phase.open"))
    pass_until(duel, lambda d: d.in_state("standby_phase"))
    seen = steps(duel.trace)
    assert in_order(["draw_phase.before_draw", "draw_phase.before_draw_window", "draw_phase.normal_draw",
                     "draw_phase.after_draw", "draw_phase.draw_window", "draw_phase.open", "draw_phase.end",
                     "standby_phase.open"], seen), seen
    assert "draw_phase.replacement_window" not in seen
    assert (duel.players["A"].hand, duel.players["A"].deck) == (5, 9), "exactly one card is drawn"


def test_draw_replaced_case_b_opens_replacement_window_without_drawing():
    """000 ●ドローフェイズ【情况Ｂ】「無敗将軍フリード」「マジックブラスト」「罰ゲーム」的效果适用，
    不能进行抽卡的场合."""
    duel = Duel(profile="modern", turn=2, effects=[TurnEffect.draw_replaced], players={"A": {"hand": 3, "deck": 7}})
    pass_until(duel, lambda d: not d.in_state("draw_phase.before_draw_window"))
    assert duel.state == "draw_phase.replacement_window.turn_player"
    pass_until(duel, lambda d: d.in_state("standby_phase"))
    seen = steps(duel.trace)
    assert in_order(["draw_phase.before_draw_window", "draw_phase.replacement_window", "draw_phase.open",
                     "draw_phase.end"], seen), seen
    assert "draw_phase.normal_draw" not in seen and "draw_phase.draw_window" not in seen
    assert (duel.players["A"].hand, duel.players["A"].deck) == (3, 7)


def test_draw_replaced_with_empty_deck_does_not_lose():
    """000 【情况Ｂ】: the draw is replaced, so nobody must draw from the empty deck
    (004 ●卡组没有卡在需要抽卡却无卡可抽的场合，该玩家决斗败北)."""
    duel = Duel(profile="modern", turn=2, effects=["draw_replaced"], players={"A": {"deck": 0}})
    pass_until(duel, lambda d: d.in_state("standby_phase"))
    assert not duel.is_over


def test_skip_draw_phase_goes_to_end_of_draw_phase():
    """000 ●ドローフェイズ【１】『跳过抽卡流程』适用的场合，不进行以下的处理，进入【４】."""
    duel = Duel(profile="ocg2008", turn=3, turn_player="B", effects=["skip_draw_phase"],
                players={"B": {"hand": 2, "deck": 4}})
    assert duel.state == "standby_phase.open.turn_player"
    assert duel.priority == "B"
    assert (duel.players["B"].hand, duel.players["B"].deck) == (2, 4)
    seen = steps(duel.trace)
    assert in_order(["draw_phase.start", "draw_phase.end", "standby_phase.open"], seen), seen
    assert not any(s in seen for s in ("draw_phase.before_draw_window", "draw_phase.normal_draw", "draw_phase.open"))


def test_skip_draw_phase_with_empty_deck_does_not_lose():
    """000 ●ドローフェイズ【１】 skip → 【４】: no draw, so an empty deck does not lose (002 ●抽卡阶段【２】)."""
    duel = Duel(profile="modern", turn=2, effects=["skip_draw_phase"], players={"A": {"deck": 0}})
    assert not duel.is_over
    assert duel.in_state("standby_phase")


def test_skip_draw_phase_applies_only_to_its_turn():
    """An effect given for a later turn (effects_on_turn) applies on that turn only."""
    duel = Duel(profile="modern", turn=2, effects_on_turn={3: ["skip_draw_phase"]})
    assert duel.in_state("draw_phase.before_draw_window")
    finish_turn(duel)
    assert duel.turn == 3
    assert duel.in_state("standby_phase")


# --- Standby Phase, Main Phase 1 and the choice -------------------------------------------


def test_standby_phase_turn_player_then_opponent_then_main_phase_1():
    """000 ●スタンバイフェイズ【２】 turn player, then the opponent, both pass → 【３】;
    004 ●双方玩家互相放弃发动卡的优先权，准备阶段终了后进入主要阶段1."""
    duel = Duel(phase="standby_phase", turn=2)
    assert duel.state == "standby_phase.open.turn_player" and duel.priority == "A"
    duel.apply("pass")
    assert duel.state == "standby_phase.open.opponent" and duel.priority == "B"
    duel.apply("pass")
    assert duel.state == "main_phase_1.open.turn_player" and duel.priority == "A"
    assert in_order(["standby_phase.open", "standby_phase.end", "main_phase_1.open"], steps(duel.trace))


def test_skip_standby_phase():
    """000 ●スタンバイフェイズ【１】「ソロモンの律法書」等的『跳过准备流程』适用的场合，进入【３】."""
    duel = Duel(phase="standby_phase", turn=2, effects=["skip_standby_phase"])
    assert duel.state == "main_phase_1.open.turn_player"
    seen = steps(duel.trace)
    assert "standby_phase.open" not in seen
    assert in_order(["standby_phase.end", "main_phase_1.open"], seen), seen
    standby = [(r.source, r.dest) for r in duel.trace if r.machine == "standby_phase"]
    assert standby == [("start", "end")]


def test_main_phase_1_ends_with_a_choice_of_battle_or_end_phase():
    """000 ●メインフェイズ１【３】◇选择要进入的下一个流程; 002 【※下一个阶段的选择】."""
    duel = Duel(phase="main_phase_1", turn=2)
    to_choice(duel)
    assert duel.priority == "A"
    assert set(names(duel)) >= {"enter_battle_phase", "enter_end_phase"}
    assert all(action.player == "A" for action in duel.legal_actions())


def test_skip_main_phase_1_still_chooses_next_phase():
    """000 ●メインフェイズ１【１】『跳过主要流程1』→【３】;
    002 【※下一个阶段的选择】◇「タイム・イーター」的効果主要阶段1跳过的场合同样也要选择."""
    duel = Duel(phase="standby_phase", turn=2, effects=["skip_main_phase_1"])
    pass_until(duel, lambda d: not d.in_state("standby_phase"))
    assert duel.state == "choose_next_phase"
    assert set(names(duel)) >= {"enter_battle_phase", "enter_end_phase"}
    seen = steps(duel.trace)
    assert "main_phase_1.open" not in seen
    assert in_order(["main_phase_1.start", "main_phase_1.end", "choose_next_phase"], seen), seen


def test_skip_main_phase_1_does_not_skip_main_phase_2():
    """000 ●メインフェイズ１【１】 names Main Phase 1 only; 002 ●主要阶段2 follows the Battle Phase."""
    duel = Duel(phase="main_phase_1", turn=2, effects=["skip_main_phase_1"])
    assert duel.state == "choose_next_phase"
    duel.apply("enter_battle_phase")
    pass_until(duel, lambda d: not d.in_state("battle_phase"))
    assert duel.state == "main_phase_2.open.turn_player"


# --- Battle Phase -------------------------------------------------------------------------


def battle_phase_without_battle_step(duel: Duel) -> None:
    """From Main Phase 1: enter the Battle Phase, see the Start Step lead straight to the End Step,
    and pass until the Battle Phase is over."""
    to_choice(duel)
    assert "enter_battle_phase" in names(duel)
    duel.apply("enter_battle_phase")
    assert duel.state == "battle_phase.start_step.turn_player"
    pass_until(duel, lambda d: not d.in_state("battle_phase.start_step"))
    assert duel.state == "battle_phase.end_step.turn_player"
    pass_until(duel, lambda d: not d.in_state("battle_phase"))


def test_battle_phase_allowed_with_no_monster_start_step_to_end_step():
    """002 【※下一个阶段的选择】◇自己场上没有攻击可能的怪兽存在的场合也可以进入战斗阶段;
    000 ●バトルフェイズ【１】◇回合场上没可以攻击的怪兽…的场合，进入【４】エンドステップ."""
    duel = Duel(phase="main_phase_1", turn=2)
    battle_phase_without_battle_step(duel)
    seen = steps(duel.trace)
    assert "battle_phase.battle_step" not in seen
    assert in_order(["battle_phase.start_step", "battle_phase.end_step", "battle_phase.end", "main_phase_2.open"],
                    seen), seen


def test_battle_phase_with_attack_position_monster_reaches_battle_step():
    """000 ●バトルフェイズ【１】◇回合场上有可以攻击的怪兽的场合，进入【２】; 【２】放弃优先权（进入【４】）; 【５】."""
    duel = Duel(phase="main_phase_1", turn=2, players={"A": {"monsters": [ATTACKER]}})
    to_choice(duel)
    duel.apply("enter_battle_phase")
    pass_until(duel, lambda d: not d.in_state("battle_phase.start_step"))
    assert duel.state == "battle_phase.battle_step.turn_player"
    assert duel.priority == "A"
    pass_until(duel, lambda d: not d.in_state("battle_phase.battle_step"))
    assert duel.state == "battle_phase.end_step.turn_player"
    pass_until(duel, lambda d: not d.in_state("battle_phase"))
    assert duel.state == "main_phase_2.open.turn_player"
    assert in_order(["battle_phase.start_step", "battle_phase.battle_step", "battle_phase.end_step",
                     "battle_phase.end", "main_phase_2.open"], steps(duel.trace))


@pytest.mark.parametrize("monster", [
    Monster(name="守備", atk=1000, position=Position.defence),
    Monster(name="裏側", atk=1000, position=Position.defence, face_up=False),
], ids=["defence", "face_down"])
def test_monster_not_in_attack_position_cannot_attack(monster):
    """004 ●攻击宣言 1.从自己场上的表侧攻击表示怪兽中选择进行攻击的怪兽; 000 【１】 no monster can attack → 【４】."""
    duel = Duel(Setup(phase="main_phase_1", turn=2, players={"A": {"monsters": [monster]}}))
    to_choice(duel)
    duel.apply("enter_battle_phase")
    pass_until(duel, lambda d: not d.in_state("battle_phase.start_step"))
    assert duel.state == "battle_phase.end_step.turn_player"


def test_opponent_monster_does_not_let_turn_player_attack():
    """000 ●バトルフェイズ【１】: 回合场上 — only the turn player's monsters count."""
    duel = Duel(phase="main_phase_1", turn=2, players={"B": {"monsters": [ATTACKER]}})
    to_choice(duel)
    duel.apply("enter_battle_phase")
    pass_until(duel, lambda d: not d.in_state("battle_phase.start_step"))
    assert duel.state == "battle_phase.end_step.turn_player"


def test_cannot_attack_effect_goes_to_end_step():
    """000 ●バトルフェイズ【１】◇「光の護封剣」等『不能攻击』的效果适用的场合，进入【４】エンドステップ."""
    duel = Duel(phase="main_phase_1", turn=2, effects=["cannot_attack"], players={"A": {"monsters": [ATTACKER]}})
    to_choice(duel)
    duel.apply("enter_battle_phase")
    pass_until(duel, lambda d: not d.in_state("battle_phase.start_step"))
    assert duel.state == "battle_phase.end_step.turn_player"
    assert "battle_phase.battle_step" not in steps(duel.trace)


def test_main_phase_2_only_after_a_battle_phase():
    """002 ●主要阶段2 主要阶段2只会在进行了战斗阶段后发生; ◇不进入战斗阶段的话就直接进入结束阶段."""
    duel = Duel(phase="main_phase_1", turn=2, players={"A": {"monsters": [ATTACKER]}})
    to_choice(duel)
    start = len(duel.trace)
    duel.apply("enter_end_phase")
    assert duel.state == "end_phase.open.turn_player"
    seen = steps(new_records(duel, start))
    assert not any(s.startswith(("battle_phase", "main_phase_2")) for s in seen), seen


def test_battle_phase_then_main_phase_2_then_end_phase():
    """002 ◇进入战斗阶段的场合，结束之后进入主要阶段2; 004 主要阶段2终了后开始进行结束阶段."""
    duel = Duel(phase="main_phase_1", turn=2)
    to_choice(duel)
    duel.apply("enter_battle_phase")
    pass_until(duel, lambda d: d.in_state("end_phase"))
    assert in_order(["choose_next_phase", "battle_phase.start_step", "battle_phase.end", "main_phase_2.open",
                     "main_phase_2.end", "end_phase.open"], steps(duel.trace))


@pytest.mark.parametrize("effect", ["skip_battle_phase", "cannot_enter_battle_phase"])
def test_battle_phase_skipped_or_forbidden_goes_straight_to_end_phase(effect):
    """002 【※下一个阶段的选择】◇「偉大天狗」的“战斗阶段跳过”、「クロス・ソウル」「魔霧雨」等的
    “不能进入战斗阶段”的效果适用的场合，不能进入战斗阶段，直接进入结束阶段."""
    duel = Duel(phase="main_phase_1", turn=2, effects=[effect], players={"A": {"monsters": [ATTACKER]}})
    offered: set[str] = set()
    for _ in range(10):
        if duel.in_state("end_phase"):
            break
        offered.update(names(duel))
        with pytest.raises(IllegalActionError):
            duel.copy().apply("enter_battle_phase")
        duel.apply("enter_end_phase" if "enter_end_phase" in names(duel) else "pass")
    assert duel.state == "end_phase.open.turn_player"
    assert "enter_battle_phase" not in offered
    seen = steps(duel.trace)
    assert not any(s.startswith(("battle_phase", "main_phase_2")) for s in seen), seen


# --- first turn, by profile -----------------------------------------------------------------


def test_modern_first_turn_no_draw_no_battle_phase():
    """004 ●先攻第1回合游戏玩家的抽卡階段不能通常抽卡; ●先攻第1回合游戏玩家不能进行战斗阶段."""
    duel = Duel(profile="modern", players={"A": {"hand": 5, "deck": 30, "monsters": [ATTACKER]}})
    pass_until(duel, lambda d: d.in_state("main_phase_1"))
    assert (duel.players["A"].hand, duel.players["A"].deck) == (5, 30)
    assert "draw_phase.normal_draw" not in steps(duel.trace)
    offered: set[str] = set()
    for _ in range(10):
        if duel.in_state("end_phase"):
            break
        offered.update(names(duel))
        with pytest.raises(IllegalActionError):
            duel.copy().apply("enter_battle_phase")
        duel.apply("pass")
    assert duel.state == "end_phase.open.turn_player"
    assert "enter_battle_phase" not in offered
    assert not any(s.startswith(("battle_phase", "main_phase_2")) for s in steps(duel.trace))


def test_modern_first_turn_with_empty_deck_does_not_lose():
    """004 ●先攻第1回合…不能通常抽卡: there is no draw, so an empty deck does not lose yet."""
    duel = Duel(profile="modern", players={"A": {"deck": 0}})
    pass_until(duel, lambda d: d.in_state("standby_phase"))
    assert not duel.is_over


def test_modern_second_turn_draws_and_may_battle():
    """004: only the first player's first turn lacks the draw and the Battle Phase."""
    duel = Duel(profile="modern")
    finish_turn(duel)
    assert (duel.turn, duel.turn_player) == (2, "B")
    hand, deck = duel.players["B"].hand, duel.players["B"].deck
    pass_until(duel, lambda d: d.in_state("standby_phase"))
    assert (duel.players["B"].hand, duel.players["B"].deck) == (hand + 1, deck - 1)
    to_choice(duel)
    assert "enter_battle_phase" in names(duel)


def test_ocg2008_first_turn_draws_and_may_enter_battle_phase_but_not_attack():
    """002 ●抽卡阶段【２】 (no first-turn exception);
    002 【※下一个阶段的选择】◇先攻的第一回合战斗阶段攻击不可。（进入战斗阶段可能）."""
    duel = Duel(profile="ocg2008", players={"A": {"hand": 5, "deck": 30, "monsters": [ATTACKER]}})
    pass_until(duel, lambda d: d.in_state("standby_phase"))
    assert (duel.players["A"].hand, duel.players["A"].deck) == (6, 29)
    battle_phase_without_battle_step(duel)
    assert duel.state == "main_phase_2.open.turn_player"
    assert "battle_phase.battle_step" not in steps(duel.trace)


def test_ocg2008_second_turn_attacker_reaches_battle_step():
    """002: only the first turn forbids attacks."""
    duel = Duel(profile="ocg2008", turn=2, phase="main_phase_1", players={"A": {"monsters": [ATTACKER]}})
    to_choice(duel)
    duel.apply("enter_battle_phase")
    pass_until(duel, lambda d: not d.in_state("battle_phase.start_step"))
    assert duel.state == "battle_phase.battle_step.turn_player"


# --- priority -------------------------------------------------------------------------------


@pytest.mark.parametrize("turn_player", ["A", "B"])
def test_priority_turn_player_first_then_opponent_then_step_ends(turn_player):
    """000 ●ドローフェイズ【３】◇持有优先权的回合玩家 … 结束宣言，放弃优先权，转让给对方玩家 /
    对方 … 放弃优先权（进入【４】）; a fresh window starts with the turn player again."""
    opponent = "B" if turn_player == "A" else "A"
    duel = Duel(turn=2, turn_player=turn_player)
    windows = 0
    while duel.in_state("draw_phase"):
        window = duel.state.rsplit(".", 1)[0]
        assert duel.state == f"{window}.turn_player"
        assert duel.priority == turn_player, "a fresh priority frame starts with the turn player"
        assert duel.legal_actions() and all(a.player == turn_player for a in duel.legal_actions())
        duel.apply("pass")
        assert duel.state == f"{window}.opponent"
        assert duel.priority == opponent
        assert all(a.player == opponent for a in duel.legal_actions())
        duel.apply("pass")
        assert not duel.in_state(window), "both passed in succession: the window ends"
        windows += 1
    assert windows == 3  # before the draw, when drawn, rest of the Draw Phase
    records = [r for r in duel.trace if r.event == "pass"]
    assert [r.actor for r in records] == [turn_player, opponent] * 3


# --- End Phase: hand size adjustment ------------------------------------------------------


LIMIT_CASES = [
    (None, 6),
    (HandLimitEffect.hieroglyph_tablet, 7),
    (HandLimitEffect.mist_of_weakness, 5),
]


def end_phase_duel(hand: int, limit_effect: HandLimitEffect | None, **extra: object) -> Duel:
    duel = Duel(phase="end_phase", turn=2, players={"A": {"hand": hand, "hand_limit": limit_effect}}, **extra)
    assert duel.state == "end_phase.open.turn_player"
    pass_until(duel, lambda d: not d.in_state("end_phase.open"))
    return duel


@pytest.mark.parametrize(("limit_effect", "limit"), LIMIT_CASES, ids=["default", "hieroglyph", "mist"])
@pytest.mark.parametrize("over", [1, 3])
def test_hand_over_limit_discards_down_to_limit(limit_effect, limit, over):
    """000 ●エンドフェイズ【３】手卡调整 ◇手卡数目超过6张（石版 7 / 衰弱の霧 5）的场合，
    选择手卡丢弃，使手卡数目保持在限制张数; ◇『丢弃时』的发动时点;
    时点结束后·手卡没有超过限制张数的场合，进入【４】."""
    duel = end_phase_duel(limit + over, limit_effect)
    assert duel.state == "end_phase.hand_size_adjustment"
    assert duel.priority == "A"
    assert names(duel) == ["discard"]
    for _ in range(over - 1):  # the cards are chosen one at a time and discarded together
        duel.apply("discard")
        assert duel.state == "end_phase.hand_size_adjustment"
        assert duel.players["A"].hand == limit + over and duel.players["A"].graveyard == 0
    duel.apply("discard")
    assert duel.players["A"].hand == limit
    assert duel.players["A"].graveyard == over
    assert duel.state == "end_phase.discard_window.turn_player"
    pass_until(duel, lambda d: not d.in_state("end_phase.discard_window"))
    assert duel.turn == 3 and duel.turn_player == "B"
    seen = steps(duel.trace)
    assert in_order(["end_phase.hand_size_adjustment", "end_phase.discard_window", "end_phase.hand_size_adjustment",
                     "end_phase.end", "turn_end"], seen), seen
    assert seen.count("end_phase.discard_window") == 1


@pytest.mark.parametrize(("limit_effect", "limit"), LIMIT_CASES, ids=["default", "hieroglyph", "mist"])
def test_hand_at_limit_no_discard(limit_effect, limit):
    """000 ●エンドフェイズ【３】: only a hand *over* the limit is adjusted; 手卡没有超过限制张数的场合，进入【４】."""
    duel = end_phase_duel(limit, limit_effect)
    assert duel.turn == 3, "the turn ended without a discard"
    assert duel.players["A"].hand == limit
    assert duel.players["A"].graveyard == 0
    seen = steps(duel.trace)
    assert "end_phase.discard_window" not in seen
    assert in_order(["end_phase.hand_size_adjustment", "end_phase.end", "turn_end"], seen), seen


def test_infinite_cards_no_limit():
    """000 ●エンドフェイズ【３】·「無限の手札」的效果适用的场合，手卡没有限制张数，不进行手卡丢弃."""
    duel = end_phase_duel(20, HandLimitEffect.infinite_cards)
    assert duel.turn == 3
    assert (duel.players["A"].hand, duel.players["A"].graveyard) == (20, 0)
    assert all(r.event != "discard" for r in duel.trace)


def test_mist_of_weakness_six_cards_must_discard_one():
    """000 【３】·「衰弱の霧」: 6 cards is over the limit of 5 (the default limit would allow it)."""
    duel = end_phase_duel(6, HandLimitEffect.mist_of_weakness)
    assert names(duel) == ["discard"]


def test_hieroglyph_tablet_seven_cards_kept():
    """000 【３】·「ヒエログリフの石版」: 7 cards is within the limit of 7 (the default would discard one)."""
    duel = end_phase_duel(7, HandLimitEffect.hieroglyph_tablet)
    assert duel.turn == 3 and duel.players["A"].hand == 7


def test_only_turn_player_adjusts_hand():
    """000 ●エンドフェイズ【３】◇回合玩家的手卡数目超过6张的场合: the opponent keeps an oversized hand."""
    duel = Duel(phase="end_phase", turn=2, players={"A": {"hand": 3}, "B": {"hand": 10}})
    pass_until(duel, lambda d: d.turn == 3)
    assert duel.players["B"].hand == 10
    assert duel.players["B"].graveyard == 0


def test_discard_not_legal_outside_hand_size_adjustment():
    """000 【３】: discarding for hand size happens only in the hand size adjustment."""
    duel = Duel(phase="end_phase", turn=2, players={"A": {"hand": 9}})
    assert "discard" not in names(duel)
    with pytest.raises(IllegalActionError):
        duel.apply("discard")


# --- skips of whole turns, deck-out, the next turn ------------------------------------------


def test_skip_turn_gamble_goes_to_turn_end_and_next_turn_is_opponents():
    """002 ●回合开始◇「ギャンブル」的"自己回合跳过的效果"适用的场合，从抽卡阶段到结束阶段的手牌调整为止的阶段全部跳过;
    备注: 对手的「光の護封剣」等依然计算回合."""
    duel = Duel(turn=4, effects=["skip_turn"], players={"A": {"hand": 9, "deck": 3}})
    assert duel.turn == 5 and duel.turn_player == "B"
    assert duel.state == "draw_phase.before_draw_window.turn_player"
    assert duel.priority == "B"
    skipped = [r for r in duel.trace if r.turn == 4]
    assert skipped, "the skipped turn is recorded"
    assert all(r.machine == "turn" for r in skipped)
    assert [r.state for r in skipped] == ["turn_end"]
    a = duel.players["A"]
    assert (a.hand, a.deck, a.graveyard) == (9, 3, 0), "no draw, no hand size adjustment"


def test_skip_turn_on_later_turn_only():
    duel = Duel(turn=2, effects_on_turn={3: ["skip_turn"]})
    finish_turn(duel)
    assert (duel.turn, duel.turn_player) == (4, "A")
    assert duel.in_state("draw_phase.before_draw_window")


@pytest.mark.parametrize(("profile", "turn", "turn_player"), [
    ("modern", 2, "A"), ("modern", 5, "B"), ("ocg2008", 1, "A"), ("ocg2008", 2, "B"),
])
def test_deck_out_turn_player_loses(profile, turn, turn_player):
    """002 ●抽卡阶段【２】卡组无卡，不能抽的场合，该玩家告负;
    004 ●卡组没有卡在需要抽卡却无卡可抽的场合，该玩家决斗败北."""
    other = "B" if turn_player == "A" else "A"
    duel = Duel(profile=profile, turn=turn, turn_player=turn_player,
                players={turn_player: {"deck": 0}, other: {"deck": 0}})
    assert not duel.is_over, "the draw happens after the before-draw window"
    pass_until(duel, lambda d: d.is_over, limit=2)
    assert duel.winner == other
    assert duel.priority is None
    assert duel.legal_actions() == []
    state, trace_length = duel.state, len(duel.trace)
    with pytest.raises(IllegalActionError):
        duel.apply("pass")
    assert (duel.state, len(duel.trace), duel.is_over) == (state, trace_length, True)
    assert duel.players[turn_player].hand == 5, "no card was drawn"


def test_last_card_drawn_does_not_lose():
    """002 ●抽卡阶段【２】: drawing the last card is a normal draw; the loss comes only when no card can be drawn."""
    duel = Duel(turn=2, players={"A": {"deck": 1}})
    pass_until(duel, lambda d: d.in_state("standby_phase"))
    assert not duel.is_over
    assert duel.players["A"].deck == 0
    finish_turn(duel)  # B's turn: B still has cards
    assert not duel.is_over
    finish_turn(duel)
    assert duel.turn == 4 and duel.turn_player == "A"
    pass_until(duel, lambda d: d.is_over, limit=2)
    assert duel.winner == "B"


@pytest.mark.parametrize("battle", [False, True])
def test_turn_passes_to_other_player_and_number_increments(battle):
    """000 ●エンドフェイズ【４】回合的结束，进入下一个回合; 004 ●结束阶段终了后开始进行对方玩家的抽卡阶段."""
    duel = Duel(profile="ocg2008", turn=2)
    for expected_turn, expected_player in [(3, "B"), (4, "A"), (5, "B")]:
        finish_turn(duel, battle=battle)
        assert (duel.turn, duel.turn_player) == (expected_turn, expected_player)
        assert duel.state == "draw_phase.before_draw_window.turn_player"
        assert duel.priority == expected_player
    turn_records = [r for r in duel.trace if r.machine == "turn"]
    assert in_order(["end_phase", "turn_end", "turn_start", "draw_phase"],
                    [r.dest for r in turn_records])


def test_whole_turn_order_of_phases():
    """004 ●一个回合游戏由全部6个阶段构成…需要依次进行这6个阶段."""
    duel = Duel(profile="modern", turn=2)
    finish_turn(duel, battle=True)
    turn_states = [r.dest for r in duel.trace if r.machine == "turn" and r.turn == 2]
    assert turn_states[:8] == ["draw_phase", "standby_phase", "main_phase_1", "choose_next_phase", "battle_phase",
                               "main_phase_2", "end_phase", "turn_end"]


def test_hand_size_adjustment_lets_the_turn_player_choose_the_discards() -> None:
    """000 ●エンドフェイズ【３】◇回合玩家的手卡数目超过6张的场合，选择手卡丢弃: the player chooses which cards."""
    from ygo_fsm import Setup

    setup = Setup.model_validate({"profile": "ocg2008", "turn": 3, "phase": "end_phase",
                                  "players": {"A": {"hand": 6, "cards": [{"card": "cyclone", "zone": "hand"},
                                                                         {"card": "dark_hole", "zone": "hand"}]}}})
    duel = Duel(card_id_uids(setup))
    duel.apply("pass")
    duel.apply("pass")
    assert duel.state == "end_phase.hand_size_adjustment"
    offered = sorted(str(action) for action in duel.legal_actions())
    assert offered == ["discard cyclone", "discard dark_hole", "discard unnamed"]  # one card at a time
    duel.apply("discard cyclone")
    assert duel.state == "end_phase.hand_size_adjustment" and duel.players["A"].hand == 8
    assert sorted(str(action) for action in duel.legal_actions()) == ["discard dark_hole", "discard unnamed"]
    duel.apply("discard dark_hole")
    assert duel.players["A"].hand == 6 and duel.players["A"].hand_cards == []
    assert {card.uid for card in duel.players["A"].graveyard_cards} == {"cyclone", "dark_hole"}
