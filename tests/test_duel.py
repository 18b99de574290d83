"""The Duel contract (DESIGN "Contracts"): illegal actions, copy, history, the trace and its
JSONL form, the narrator, machines built once, and the engine refusing to guess."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
import transitions
from conftest import pass_until, play_until, step

from ygo_fsm import (
    Action,
    Duel,
    EngineError,
    IllegalActionError,
    Monster,
    Rulebook,
    Setup,
    TraceFormatError,
    TraceRecord,
    YgoFsmError,
    default_rulebook,
)
from ygo_fsm.loader import CITATION
from ygo_fsm.spec import DONE_EVENT, Actor, Label, MachineSpec, Role, StateSpec, TransitionSpec
from ygo_fsm.trace import dumps, loads, narrate, read_jsonl, write_jsonl

DESIGN_TRACE_FIELDS = ("seq", "turn", "machine", "source", "dest", "event", "actor", "priority", "chain", "rule")


def snapshot(duel: Duel) -> dict[str, Any]:
    """Everything an illegal action must leave as it was."""
    return {
        "state": duel.state,
        "priority": duel.priority,
        "history": duel.history,
        "trace": duel.trace,
        "turn": duel.turn,
        "turn_player": duel.turn_player,
        "legal": duel.legal_actions(),
        "over": (duel.is_over, duel.winner),
        "players": {p: (s.lp, s.hand, s.deck, s.graveyard, len(s.monsters)) for p, s in duel.players.items()},
    }


def played_duel(passes: int = 12) -> Duel:
    """Turn 2 of a modern duel, partway through the Draw and Standby Phases."""
    duel = Duel(turn=2)
    for _ in range(passes):
        step(duel)
    return duel


# --- illegal actions ----------------------------------------------------------------------


def test_illegal_action_names_state_action_and_legal_actions():
    """DESIGN Contracts: an illegal action raises a specific exception naming the state, the
    action and the legal actions (here: 000 ●ドローフェイズ【３】 offers only passing/2速 cards)."""
    duel = Duel(turn=2)
    before = snapshot(duel)
    with pytest.raises(IllegalActionError) as caught:
        duel.apply("enter_battle_phase")
    error = caught.value
    assert isinstance(error, ValueError) and isinstance(error, YgoFsmError)
    message = str(error)
    assert duel.state in message
    assert "enter_battle_phase" in message
    for action in before["legal"]:
        assert action.name in message
    assert error.state == before["state"]
    assert error.action == "enter_battle_phase"
    assert list(error.legal) == [a.name for a in before["legal"]]
    assert snapshot(duel) == before


@pytest.mark.parametrize("name", ["discard", "enter_end_phase", "done", "card_drawn", "no_such_action", ""])
def test_illegal_action_leaves_duel_exactly_as_it_was(name):
    duel = played_duel(3)
    before = snapshot(duel)
    with pytest.raises(IllegalActionError):
        duel.apply(name)
    assert snapshot(duel) == before
    duel.apply("pass")  # and it still plays on
    assert len(duel.history) == len(before["history"]) + 1


def test_engine_event_is_not_a_player_action():
    """Engine transitions (e.g. the draw, 002 ●抽卡阶段【２】) cannot be applied by a player."""
    duel = Duel(turn=2)
    for engine_event in ("card_drawn", "turn_begun", "before_draw_effects_applied"):
        with pytest.raises(IllegalActionError):
            duel.apply(engine_event)


def test_action_by_player_without_priority_is_refused():
    """000 ◇持有优先权的回合玩家可以进行的行为: only the player holding priority acts."""
    duel = Duel(turn=2)
    assert duel.priority == "A"
    before = snapshot(duel)
    with pytest.raises(IllegalActionError) as caught:
        duel.apply(Action("pass", "B"))
    assert "pass" in str(caught.value) and duel.state in str(caught.value)
    assert snapshot(duel) == before
    duel.apply(Action("pass", "A"))
    assert duel.priority == "B"
    with pytest.raises(IllegalActionError):
        duel.apply(Action("pass", "A"))
    duel.apply(Action("pass", "B"))


def test_legal_actions_name_the_player_who_holds_priority():
    duel = Duel(turn=2, turn_player="B")
    assert duel.legal_actions() == [Action("pass", "B")]
    duel.apply("pass")
    assert duel.legal_actions() == [Action("pass", "A")]


def test_bad_setup_is_refused():
    with pytest.raises(ValueError):
        Setup(turn_player="C")
    with pytest.raises(ValueError):
        Duel(phase="lunch_phase")
    with pytest.raises(ValueError):
        Duel(players={"C": {}})


# --- copy and history -----------------------------------------------------------------------


def test_copy_is_independent():
    """DESIGN/STYLE 4: ``copy()`` — applying actions to one leaves the other as it was."""
    duel = played_duel(2)  # after the before-draw window: the card has been drawn
    original = snapshot(duel)
    clone = duel.copy()
    assert snapshot(clone) == original
    assert clone.rulebook is duel.rulebook
    play_until(clone, lambda d: d.turn == 3)
    assert clone.turn == 3
    assert snapshot(duel) == original
    duel.players["A"].hand += 4
    duel.players["A"].monsters.append(Monster(name="new"))
    assert clone.players["A"].hand == original["players"]["A"][1]
    assert len(clone.players["A"].monsters) == original["players"]["A"][4]


def test_copy_copies_monsters():
    duel = Duel(turn=2, players={"A": {"monsters": [{"name": "x", "atk": 100}]}})
    clone = duel.copy()
    clone.players["A"].monsters[0].atk = 9999
    assert duel.players["A"].monsters[0].atk == 100


def test_history_records_applied_actions():
    """STYLE 4 (OpenSpiel): ``history`` is the actions applied, in order, with their player."""
    duel = Duel(turn=2, turn_player="B")
    assert duel.history == ()
    duel.apply("pass")
    duel.apply(Action("pass", "A"))
    assert duel.history == (Action("pass", "B"), Action("pass", "A"))
    with pytest.raises(IllegalActionError):
        duel.apply("discard")
    assert len(duel.history) == 2


def test_replaying_history_reproduces_the_duel():
    """A duel is determined by its setup and its history (no hidden randomness)."""
    setup = Setup(turn=2, phase="main_phase_1", players={"A": {"hand": 9, "monsters": [{"name": "m", "atk": 1}]}})
    duel = Duel(setup)
    duel.apply("pass")
    duel.apply("pass")
    duel.apply("enter_battle_phase")
    pass_until(duel, lambda d: "discard" in [a.name for a in d.legal_actions()])
    duel.apply("discard")
    replay = Duel(setup)
    for action in duel.history:
        replay.apply(action)
    assert snapshot(replay) == snapshot(duel)


# --- the trace ------------------------------------------------------------------------------


def test_trace_records_have_design_fields():
    """DESIGN Trace: seq, turn, machine, source, dest, event, actor, priority, chain, rule."""
    duel = played_duel(20)
    records = duel.trace
    assert records
    for field in DESIGN_TRACE_FIELDS:
        assert field in TraceRecord.model_fields, field
    dumped = json.loads(records[0].model_dump_json())
    assert set(DESIGN_TRACE_FIELDS) <= set(dumped)


def test_trace_seq_increases_by_one_and_cites_rules(rulebook):
    duel = played_duel(20)
    records = duel.trace
    assert [r.seq for r in records] == list(range(1, len(records) + 1))
    for record in records:
        assert record.rule.strip()
        assert CITATION.match(record.rule), record.rule
        spec = rulebook.specs[record.machine]
        (declared,) = [t for t in spec.transitions if t.id == record.transition]
        assert (declared.source, declared.dest, declared.event, declared.rule) == (
            record.source, record.dest, record.event, record.rule)


def test_trace_actors_and_priority():
    """Player actions record the player; engine transitions record ``engine``; the last record
    of each step shows the state and the priority holder the duel stopped in."""
    duel = Duel(turn=2)
    for _ in range(30):
        before = len(duel.trace)
        holder = duel.priority
        taken = step(duel, battle=True)
        new = duel.trace[before:]
        assert new[0].actor == holder and new[0].event == taken
        assert all(r.actor == "engine" for r in new[1:])
        assert new[-1].state == duel.state
        assert new[-1].priority == duel.priority
        assert [r.turn for r in new] == sorted(r.turn for r in new)
    assert {r.actor for r in duel.trace} == {"A", "B", "engine"}


def test_trace_is_a_tuple_snapshot():
    duel = played_duel(2)
    trace = duel.trace
    duel.apply("pass")
    assert len(duel.trace) > len(trace)


def test_trace_jsonl_round_trip(tmp_path):
    duel = played_duel(25)
    records = list(duel.trace)
    text = dumps(records)
    assert len(text.splitlines()) == len(records)
    assert all(json.loads(line) for line in text.splitlines())
    assert loads(text) == records
    path = tmp_path / "trace.jsonl"
    write_jsonl(records, path)
    assert read_jsonl(path) == records


def test_trace_loads_ignores_blank_lines():
    records = list(played_duel(3).trace)
    text = dumps(records).replace("\n", "\n\n")
    assert loads(text) == records


@pytest.mark.parametrize("bad", ["{not json", '{"seq": 1}', "[]"])
def test_trace_loads_bad_line_names_it(bad):
    records = list(played_duel(3).trace)
    lines = dumps(records).splitlines()
    lines.insert(2, bad)
    with pytest.raises(TraceFormatError) as caught:
        loads("\n".join(lines), source="t.jsonl")
    assert isinstance(caught.value, ValueError)
    assert "line 3" in str(caught.value)
    assert "t.jsonl" in str(caught.value)


def test_read_jsonl_bad_file_names_file_and_line(tmp_path):
    path = tmp_path / "broken.jsonl"
    path.write_text(dumps(played_duel(1).trace) + '{"seq": "x"}\n', encoding="utf-8")
    with pytest.raises(TraceFormatError) as caught:
        read_jsonl(path)
    lines = len(path.read_text(encoding="utf-8").splitlines())
    assert str(path) in str(caught.value) and f"line {lines}" in str(caught.value)


def test_read_jsonl_missing_file(tmp_path):
    with pytest.raises(TraceFormatError):
        read_jsonl(tmp_path / "absent.jsonl")


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_narrator_mentions_labels(rulebook, lang):
    duel = Duel(turn=2, phase="main_phase_1")
    pass_until(duel, lambda d: d.state == "choose_next_phase")
    duel.apply("enter_battle_phase")
    play_until(duel, lambda d: d.turn == 3, battle=True)
    text = narrate(duel.trace, rulebook.specs, lang=lang)
    lines = text.splitlines()
    assert len([line for line in lines if line.strip()]) >= len(duel.trace)
    for record in duel.trace:
        spec = rulebook.specs[record.machine]
        (declared,) = [t for t in spec.transitions if t.id == record.transition]
        assert declared.label.text(lang) in text
        assert record.rule in text
    other = "en" if lang == "zh" else "zh"
    passes = [t for t in rulebook.specs["priority"].transitions if t.event == "pass"]
    assert all(t.label.text(other) not in text for t in passes)
    # the narration starts with the turn and its turn player
    assert re.search(r"(?<!\d)2(?!\d)", lines[0]) and "A" in lines[0]


def test_narrator_without_rules(rulebook):
    duel = played_duel(2)
    text = narrate(duel.trace, rulebook.specs, lang="en", rules=False)
    assert all(record.rule not in text for record in duel.trace)


# --- machines are built once ----------------------------------------------------------------


def test_duels_share_the_rulebook_and_build_no_machine(monkeypatch):
    """DESIGN Package stack: build machines once and share them; creating a duel must not rebuild."""
    shared = default_rulebook()

    def refuse(*args: object, **kwargs: object) -> None:
        raise AssertionError("a transitions.Machine was built while creating or playing a duel")

    monkeypatch.setattr(transitions.Machine, "__init__", refuse)
    first = Duel()
    second = Duel(profile="ocg2008", turn=3, turn_player="B")
    assert first.rulebook is shared and second.rulebook is shared
    play_until(second, lambda d: d.turn == 4, battle=True)
    clone = first.copy()
    clone.apply("pass")
    assert clone.rulebook is shared
    assert default_rulebook() is shared


# --- the engine refuses to guess --------------------------------------------------------------

RULE = "000 ●ドローフェイズ【１】"


def _label(text: str) -> Label:
    return Label(zh=text, en=text)


def _state(sid: str, **extra: Any) -> StateSpec:
    return StateSpec(id=sid, label=_label(sid), rule=RULE, **extra)


def _transition(tid: str, source: str, dest: str, *, event: str | None = None, actor: Actor = Actor.engine,
                **extra: Any) -> TransitionSpec:
    return TransitionSpec(id=tid, event=event or tid, actor=actor, source=source, dest=dest, label=_label(tid),
                          rule=RULE, **extra)


def _turn(states: list[StateSpec], transitions_: list[TransitionSpec]) -> Rulebook:
    spec = MachineSpec(id="turn", label=_label("turn"), rule=RULE, initial="turn_start", states=tuple(states),
                       transitions=tuple(transitions_))
    return Rulebook({"turn": spec})


def test_two_enabled_engine_transitions_raise_engine_error():
    """engine docstring "Ties and errors": no declared precedence → EngineError, not file order."""
    rulebook = _turn(
        [_state("turn_start"), _state("left", terminal=True), _state("right", terminal=True)],
        [_transition("go_left", "turn_start", "left"), _transition("go_right", "turn_start", "right")],
    )
    with pytest.raises(EngineError) as caught:
        Duel(rulebook=rulebook)
    assert isinstance(caught.value, RuntimeError)
    assert "go_left" in str(caught.value) and "go_right" in str(caught.value)


def test_guard_resolves_the_tie():
    """The same two transitions with ``unless:`` declaring precedence: no error, the guard decides."""
    rulebook = _turn(
        [_state("turn_start"), _state("left", terminal=True), _state("right", terminal=True)],
        [_transition("go_left", "turn_start", "left", guards=("turn_skip_applies",)),
         _transition("go_right", "turn_start", "right", unless=("turn_skip_applies",))],
    )
    assert Duel(rulebook=rulebook).state == "right"
    assert Duel(rulebook=rulebook, effects=["skip_turn"]).state == "left"


def test_two_enabled_player_transitions_for_same_event_raise_engine_error():
    rulebook = _turn(
        [_state("turn_start", priority=Role.turn_player), _state("left", terminal=True),
         _state("right", terminal=True)],
        [_transition("pass_left", "turn_start", "left", event="pass", actor=Actor.turn_player),
         _transition("pass_right", "turn_start", "right", event="pass", actor=Actor.turn_player)],
    )
    with pytest.raises(EngineError):
        Duel(rulebook=rulebook)


def test_stuck_state_raises_engine_error():
    """A state that is neither final nor terminal and offers no action nor engine transition."""
    rulebook = _turn(
        [_state("turn_start"), _state("limbo")],
        [_transition("drift", "turn_start", "limbo")],
    )
    with pytest.raises(EngineError):
        Duel(rulebook=rulebook)


def test_two_enabled_done_transitions_raise_engine_error():
    child = MachineSpec(
        id="child", label=_label("child"), rule=RULE, initial="start",
        states=(_state("start"), _state("end", final=True)),
        transitions=(_transition("finish", "start", "end"),),
    )
    turn = MachineSpec(
        id="turn", label=_label("turn"), rule=RULE, initial="turn_start",
        states=(_state("turn_start", machine="child"), _state("left", terminal=True), _state("right", terminal=True)),
        transitions=(_transition("done_left", "turn_start", "left", event=DONE_EVENT),
                     _transition("done_right", "turn_start", "right", event=DONE_EVENT)),
    )
    with pytest.raises(EngineError):
        Duel(rulebook=Rulebook({"turn": turn, "child": child}))


def test_terminal_state_ends_the_duel_with_no_legal_action():
    rulebook = _turn([_state("turn_start"), _state("over", terminal=True)], [_transition("end", "turn_start", "over")])
    duel = Duel(rulebook=rulebook)
    assert duel.is_over and duel.legal_actions() == [] and duel.priority is None
    with pytest.raises(IllegalActionError):
        duel.apply("pass")


def test_setup_refuses_impossible_starting_positions() -> None:
    """A setup must be a position the rules can reach: no spell in the monster zone, no face-down
    Attack Position monster (002 ●主要阶段1), no Battle Phase on the modern first turn (004)."""
    import pydantic

    from ygo_fsm import Setup

    with pytest.raises(ValueError, match="not a monster"):
        Duel(Setup.model_validate({"players": {"A": {"cards": [{"card": "cyclone", "zone": "monster"}]}}}))
    with pytest.raises(ValueError, match="is a monster"):
        Duel(Setup.model_validate({"players": {"A": {"cards": [{"card": "jougen", "zone": "spell_trap"}]}}}))
    with pytest.raises(pydantic.ValidationError, match="Defense Position"):
        Setup.model_validate({"players": {"A": {"monsters": [{"name": "X", "face_up": False}]}}})
    with pytest.raises(pydantic.ValidationError, match="first turn has no Battle Phase"):
        Setup.model_validate({"profile": "modern", "turn": 1, "phase": "battle_phase"})
    assert Setup.model_validate({"profile": "ocg2008", "turn": 1, "phase": "battle_phase"}).phase == "battle_phase"
