"""Property tests: random setups and random legal play never leave the duel stuck, and the
turn structure's invariants from the seeds hold all along."""

from __future__ import annotations

from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from ygo_fsm import Duel, HandLimitEffect, IllegalActionError, Monster, Position, Profile, Setup, TurnEffect
from ygo_fsm.game import PLAYERS, other_player

MAX_ACTIONS = 300
ACTIONS_PER_TURN = 100
"""When nobody activates anything, every phase and step ends after both players pass once
(004 ●每个阶段或步骤…双方玩家互相放弃…才能终了), so a turn takes a few dozen actions at most;
100 leaves room for the declared activities."""

START_PHASES = ["turn_start", "draw_phase", "standby_phase", "main_phase_1", "end_phase"]

monsters = st.sampled_from([(Position.attack, True), (Position.defence, True), (Position.defence, False)]).flatmap(
    lambda shown: st.builds(
        Monster,
        name=st.sampled_from(["甲虫装甲騎士", "スピリット・ドラゴン", "賢者ケイローン"]),
        atk=st.integers(0, 3000),
        position=st.just(shown[0]),
        face_up=st.just(shown[1]),
    ))
"""Face-up in either position, or Set (face-down Defense Position: 002 ●主要阶段1)."""


@st.composite
def setups(draw: st.DrawFn) -> Setup:
    turn = draw(st.integers(1, 4))
    players = {
        player: {
            "hand": draw(st.integers(0, 10)),
            "deck": draw(st.integers(0, 10)),
            "hand_limit": draw(st.sampled_from([None, *HandLimitEffect])),
            "monsters": draw(st.lists(monsters, max_size=2)),
        }
        for player in PLAYERS
    }
    effects = st.lists(st.sampled_from(list(TurnEffect)), max_size=3, unique=True)
    return Setup(
        profile=draw(st.sampled_from(list(Profile))),
        turn=turn,
        turn_player=draw(st.sampled_from(PLAYERS)),
        phase=draw(st.sampled_from(START_PHASES)),
        players=players,
        effects=draw(effects),
        effects_on_turn=draw(st.dictionaries(st.integers(turn + 1, turn + 10), effects, max_size=5)),
    )


def cards(duel: Duel, player: str) -> int:
    """Cards are neither made nor lost: they move between hand, deck, field and graveyard."""
    state = duel.players[player]
    taken_out = duel.summon is not None and duel.summon.card is not None and duel.summon.card.owner == player
    return state.hand + state.deck + state.graveyard + len(state.monsters) + taken_out  # 000 【…***的处理】３


def check_point(duel: Duel) -> None:
    """What must hold at every point of play."""
    legal = duel.legal_actions()
    if duel.is_over:
        assert legal == [] and duel.priority is None
        # 002 ●抽卡阶段【２】/ 004 ●卡组没有卡…该玩家决斗败北: the player who cannot draw loses
        assert duel.winner in PLAYERS
        loser = duel.players[other_player(duel.winner)]
        assert loser.deck == 0 or loser.lp == 0
        return
    assert duel.priority in PLAYERS
    assert legal, f"nothing to do in {duel.state}"
    assert all(action.player == duel.priority for action in legal)
    for action in legal:
        probe = duel.copy()
        probe.apply(action)  # every offered action is applicable
    for player in PLAYERS:
        assert duel.players[player].deck >= 0 and duel.players[player].hand >= 0


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(setup=setups(), data=st.data())
def test_random_play_never_gets_stuck_and_turns_advance(setup: Setup, data: st.DataObject) -> None:
    duel = Duel(setup)
    totals = {player: cards(duel, player) for player in PLAYERS}
    since_turn_change = 0
    for _ in range(MAX_ACTIONS):
        check_point(duel)
        if duel.is_over:
            break
        legal = duel.legal_actions()
        action = legal[data.draw(st.integers(0, len(legal) - 1), label="action")]
        turn, turn_player = duel.turn, duel.turn_player
        decks = {player: duel.players[player].deck for player in PLAYERS}
        duel.apply(action)
        # cards only move between deck, hand and graveyard (draw, discard)
        assert {player: cards(duel, player) for player in PLAYERS} == totals
        if duel.turn == turn:
            since_turn_change += 1
            assert since_turn_change <= ACTIONS_PER_TURN, f"turn {turn} does not end; in {duel.state}"
            # 002 ●抽卡阶段【２】: only the turn player draws, one card
            assert decks[turn_player] - duel.players[turn_player].deck in (0, 1)
            assert duel.players[other_player(turn_player)].deck == decks[other_player(turn_player)]
        else:
            since_turn_change = 0
            # 004 ●结束阶段终了后开始进行对方玩家的抽卡阶段: turns alternate and are counted one by one
            assert duel.turn > turn
            expected = turn_player if (duel.turn - turn) % 2 == 0 else other_player(turn_player)
            assert duel.turn_player == expected
            # 000 ●エンドフェイズ【３】: the turn that just ended adjusted its player's hand
            limit = duel.players[turn_player].hand_size_limit
            if limit is not None:
                assert duel.players[turn_player].hand <= limit
    check_point(duel)
    check_trace(duel, setup)
    event("duel over" if duel.is_over else f"reached turn {duel.turn - setup.turn + 1} of play")
    if any(r.event == "discard" for r in duel.trace):
        event("hand size adjustment discarded")
    if any(r.state.startswith("battle_phase.battle_step") for r in duel.trace):
        event("battle step reached")


def check_trace(duel: Duel, setup: Setup) -> None:
    """Turn-level facts from the whole trace."""
    records = duel.trace
    assert [r.seq for r in records] == list(range(1, len(records) + 1))
    by_turn: dict[int, list[str]] = {}
    states_by_turn: dict[int, list[str]] = {}
    for record in records:
        if record.machine == "turn":
            by_turn.setdefault(record.turn, []).append(record.dest)
        states_by_turn.setdefault(record.turn, []).append(record.state)
    for dests in by_turn.values():
        # 002 ●主要阶段2 主要阶段2只会在进行了战斗阶段后发生
        for index, dest in enumerate(dests):
            if dest == "main_phase_2":
                assert index > 0 and dests[index - 1] == "battle_phase", dests
    for turn, states in states_by_turn.items():
        if turn == 1:
            # 002 先攻的第一回合战斗阶段攻击不可; 004 先攻第1回合…不能进行战斗阶段 / 不能通常抽卡
            assert not any(s.startswith("battle_phase.battle_step") for s in states)
            if setup.profile is Profile.modern:
                assert not any(s.startswith(("battle_phase", "draw_phase.normal_draw")) for s in states)
        effects = set(setup.effects_on_turn.get(turn, ()))
        if turn == setup.turn:
            effects |= set(setup.effects)
        skipped_from_start = turn != setup.turn or setup.phase == "turn_start"
        if TurnEffect.skip_turn in effects and skipped_from_start:
            # 002 ●回合开始「ギャンブル」: the whole turn is skipped
            assert all(s in ("turn_end", "turn_start") or s.startswith("draw_phase.start") for s in states), states
        if TurnEffect.skip_draw_phase in effects:
            # 000 ●ドローフェイズ【１】『跳过抽卡流程』→【４】
            assert not any(s.startswith("draw_phase.normal_draw") for s in states)
        if TurnEffect.cannot_attack in effects:
            # 000 ●バトルフェイズ【１】「光の護封剣」等『不能攻击』→【４】
            assert not any(s.startswith("battle_phase.battle_step") for s in states)
        if effects & {TurnEffect.skip_battle_phase, TurnEffect.cannot_enter_battle_phase}:
            # 002 【※下一个阶段的选择】 偉大天狗 / クロス・ソウル 魔霧雨
            assert not any(s.startswith(("battle_phase", "main_phase_2")) for s in states)


@settings(max_examples=60, deadline=None)
@given(setup=setups(), data=st.data())
def test_illegal_actions_change_nothing(setup: Setup, data: st.DataObject) -> None:
    """DESIGN Contracts: an illegal action leaves the duel exactly as it was, at any point."""
    duel = Duel(setup)
    for _ in range(data.draw(st.integers(0, 60), label="actions first")):
        legal = duel.legal_actions()
        if not legal:
            break
        duel.apply(legal[data.draw(st.integers(0, len(legal) - 1))])
    offered = {action.name for action in duel.legal_actions()}
    candidates = ["pass", "discard", "enter_battle_phase", "enter_end_phase", "done", "card_drawn", "draw"]
    for name in candidates:
        if name in offered:
            continue
        before = (duel.state, duel.priority, duel.history, duel.trace, duel.turn, duel.turn_player,
                  {p: (s.hand, s.deck, s.graveyard) for p, s in duel.players.items()})
        try:
            duel.apply(name)
        except IllegalActionError:
            pass
        else:
            raise AssertionError(f"{name!r} was applied although not offered in {before[0]}")
        after = (duel.state, duel.priority, duel.history, duel.trace, duel.turn, duel.turn_player,
                 {p: (s.hand, s.deck, s.graveyard) for p, s in duel.players.items()})
        assert after == before
