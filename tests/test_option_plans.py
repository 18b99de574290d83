"""What the rulebook works out once from the declarations so that settling and the option search
do less per step, held to the engine's semantics (:mod:`ygo_fsm.engine`, "Player actions" and
"Ties and errors"):

- transitions that cannot be enabled together, by declaration (:func:`ygo_fsm.engine.exclusive`):
  a guard of one is an ``unless`` of the other, or they are scoped to different profiles;
- which states' option search must note the events it offers: an event that an inner frame
  offers hides the same event further out, and two enabled transitions for one event tie.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from test_duel import RULE, _label, _state, _transition

from ygo_fsm import Duel
from ygo_fsm.bench_duels import MIXED_DECK
from ygo_fsm.engine import Rulebook, default_rulebook, exclusive
from ygo_fsm.errors import EngineError
from ygo_fsm.game import Setup
from ygo_fsm.rules import GUARDS
from ygo_fsm.spec import Actor, MachineSpec, Role, StateSpec, TransitionSpec


def _machine(mid: str, initial: str, states: list[StateSpec], transitions: list[TransitionSpec]) -> MachineSpec:
    return MachineSpec(id=mid, label=_label(mid), rule=RULE, initial=initial, states=tuple(states),
                       transitions=tuple(transitions))


def _engine_of(rulebook: Rulebook, machine: str, state: str) -> tuple[Any, ...]:
    return rulebook.runtime[machine][state].engine


def _start(guards: dict[str, tuple[tuple[str, ...], tuple[str, ...], str | None]]) -> Rulebook:
    """A turn machine whose start state has one engine transition per entry: (guards, unless, profile)."""
    states = [_state("turn_start"), *(_state(name, terminal=True) for name in guards)]
    transitions = [_transition(f"go_{name}", "turn_start", name, guards=g, unless=u, profile=p)
                   for name, (g, u, p) in guards.items()]
    return Rulebook({"turn": _machine("turn", "turn_start", states, transitions)})


def test_a_guard_against_its_unless_and_two_profiles_are_exclusive() -> None:
    """Precedence declared with ``unless:`` (engine "Ties and errors"), or a transition per profile
    (engine "Rule profiles"): no two can hold on the same state."""
    split = _start({"left": (("turn_skip_applies",), (), None), "right": ((), ("turn_skip_applies",), None)})
    assert exclusive(_engine_of(split, "turn", "turn_start"))
    assert split.runtime["turn"]["turn_start"].engine_exclusive
    profiles = _start({"left": ((), (), "ocg2008"), "right": ((), (), "modern")})
    assert exclusive(_engine_of(profiles, "turn", "turn_start"))


def test_transitions_the_declarations_do_not_split_are_not_exclusive() -> None:
    """Two unguarded transitions, or two with different guards, may hold together: the engine must
    look at all of them (and raise on a tie) rather than take the first."""
    bare = _start({"left": ((), (), None), "right": ((), (), None)})
    assert not exclusive(_engine_of(bare, "turn", "turn_start"))
    assert not bare.runtime["turn"]["turn_start"].engine_exclusive
    with pytest.raises(EngineError, match=r"go_left, go_right are enabled together"):
        Duel(rulebook=bare)
    different = _start({"left": (("turn_skip_applies",), (), None), "right": (("main_phase_skip_applies",), (), None)})
    assert not exclusive(_engine_of(different, "turn", "turn_start"))
    one_profile = _start({"left": ((), (), "modern"), "right": ((), (), None)})
    assert not exclusive(_engine_of(one_profile, "turn", "turn_start"))


def _nested(inner_event: str) -> Rulebook:
    """The turn machine's first state offers the turn player ``pass`` and runs ``child``, whose
    ``ask`` state offers ``inner_event``."""
    child = _machine("child", "ask", [_state("ask", priority=Role.turn_player), _state("answered", final=True)],
                     [_transition("child_acts", "ask", "answered", event=inner_event, actor=Actor.turn_player)])
    turn = _machine(
        "turn", "turn_start",
        [_state("turn_start", priority=Role.turn_player, machine="child"), _state("left", terminal=True),
         _state("after", terminal=True)],
        [_transition("turn_passes", "turn_start", "left", event="pass", actor=Actor.turn_player),
         _transition("child_done", "turn_start", "after", event="done")],
    )
    return Rulebook({"turn": turn, "child": child})


def test_an_inner_frame_offering_an_event_hides_the_same_event_further_out() -> None:
    """engine "Player actions": an event that an inner frame handles hides the same event further
    out (as in statecharts). Both states can be active together, so the search notes their events."""
    rulebook = _nested("pass")
    duel = Duel(rulebook=rulebook)
    assert [str(action) for action in duel.legal_actions()] == ["pass"]
    duel.apply("pass")
    assert duel.state == "after"  # the child's pass was taken (its machine finished), not the turn's
    assert rulebook.runtime["turn"]["turn_start"].turn_player_plan[1]
    assert rulebook.runtime["child"]["ask"].turn_player_plan[1]


def test_different_events_in_nested_frames_are_all_offered() -> None:
    """With no event in common, the inner frame hides nothing and neither search needs to note."""
    rulebook = _nested("answer")
    duel = Duel(rulebook=rulebook)
    assert sorted(str(action) for action in duel.legal_actions()) == ["answer", "pass"]
    duel.apply("pass")
    assert duel.state == "left"
    assert not rulebook.runtime["turn"]["turn_start"].turn_player_plan[1]
    assert not rulebook.runtime["child"]["ask"].turn_player_plan[1]


def _may_tie(first: TransitionSpec, second: TransitionSpec) -> bool:
    """Nothing in the two declarations keeps them apart: no guard of one is an ``unless`` of the
    other, and they are not scoped to two different profiles."""
    split = bool(set(first.guards) & set(second.unless) or set(second.guards) & set(first.unless))
    profiles = first.profile is not None and second.profile is not None and first.profile != second.profile
    return not (split or profiles)


def test_the_shipped_machines_note_exactly_the_states_that_can_tie_or_hide() -> None:
    """Worked out again here, state by state: a state's search notes its events when two of its
    transitions for one event are not split by their declarations, or when a state that can be
    active in a frame further in or further out (one runs the other's machine, directly or through
    others) declares a player transition for one of its events. Both answers, yes and no, must agree."""
    rulebook = default_rulebook()
    runs = {(m, s.id): s.machine for m, spec in rulebook.specs.items() for s in spec.states if s.machine}

    def inner_states(key: tuple[str, str]) -> set[tuple[str, str]]:
        found: set[tuple[str, str]] = set()
        todo = [runs[key]] if key in runs else []
        while todo:
            child = todo.pop()
            for s in rulebook.specs[child].states:
                if (child, s.id) not in found:
                    found.add((child, s.id))
                    if s.machine:
                        todo.append(s.machine)
        return found

    keys = [(m, s.id) for m, spec in rulebook.specs.items() for s in spec.states]
    together = {key: inner_states(key) | {outer for outer in keys if key in inner_states(outer)} for key in keys}

    def events(key: tuple[str, str]) -> set[str]:
        return {t.event for t in rulebook.specs[key[0]].transitions if t.source == key[1] and t.is_player_action}

    checked = {True: 0, False: 0}
    for key in keys:
        here = rulebook.runtime[key[0]][key[1]]
        for actions, (entries, notes) in ((here.turn_player_actions, here.turn_player_plan),
                                          (here.opponent_actions, here.opponent_plan)):
            if not actions:
                continue
            mine = {t.event_name for t in actions}
            tie = any(_may_tie(first.spec, second.spec) for first in actions for second in actions
                      if first is not second and first.event_name == second.event_name)
            shared = any(mine & events(other) for other in together[key])
            assert notes == (tie or shared), key
            assert [entry[0] for entry in entries] == list(actions)
            checked[notes] += 1
    assert checked[False]  # the shipped states need not note (their ties are split by declaration)


def test_the_opponents_three_passes_are_kept_apart_by_their_declarations() -> None:
    """004 ●每个阶段或步骤…双方玩家互相放弃…且效果处理全部进行完毕时才能终了 and 000 ●スタンバイフェイズ 例2: the
    opponent's pass ends the step only when neither player has an effect to handle, leads to the turn
    player handling theirs first when they have one, and else to the opponent handling theirs. The three
    never hold together, and the declarations say so: settling and the option search need not look for a tie."""
    rulebook = default_rulebook()
    here = rulebook.runtime["priority"]["opponent"]
    passes = tuple(t for t in here.opponent_actions if t.event_name == "pass")
    assert sorted(t.spec.id for t in passes) == ["opponent_passes", "opponent_passes_opponent_handles",
                                                 "opponent_passes_turn_player_first"]
    assert exclusive(passes)
    assert not here.opponent_plan[1]


def _declared_enabled(transition: Any, frame: Any) -> bool:
    """A transition enabled on a frame as its declaration says (engine "Rule profiles", "Player
    actions"): the duel plays its profile, if it names one; every guard holds; no ``unless`` holds."""
    spec = transition.spec
    return ((spec.profile is None or frame.game.profile == spec.profile)
            and all(GUARDS[name](frame) for name in spec.guards)
            and not any(GUARDS[name](frame) for name in spec.unless))


def test_each_transitions_check_is_its_declared_guards_unless_and_profile_on_the_states_of_random_duels() -> None:
    """What settling and the option search call to know whether a transition is enabled
    (``CompiledTransition.check``, made once from the declaration) agrees with the declaration on
    every frame of every state two random duels with cards of every kind stop in, for every
    transition leaving that frame's state, under both profiles."""
    rulebook = default_rulebook()
    compared = 0
    for profile, seed in (("modern", 5), ("ocg2008", 6)):
        duel = Duel(Setup.from_decks(list(MIXED_DECK), list(MIXED_DECK), seed=seed, profile=profile),
                    rulebook=rulebook, auto_pass=True, trace=False)
        choose = random.Random(seed).choice
        for _ in range(400):
            if duel.is_over:
                break
            for frame in duel.game.frames:
                for transition in rulebook.outgoing(frame.machine, frame.state):
                    check = transition.check
                    assert (check is None or check(frame)) == _declared_enabled(transition, frame), \
                        f"{transition.spec.id} in {duel.state}"
                    compared += 1
            duel.apply(choose(duel.legal_actions()))
    assert compared > 1000


def test_every_shipped_state_declares_which_engine_transition_it_takes() -> None:
    """In the shipped machines no two engine transitions leaving a state, and no two ``done``
    transitions of a state running a machine, can be enabled together by declaration (engine "Ties
    and errors": precedence is declared with ``unless:``). A pair the declarations leave open would
    be a rule the machines do not state, e.g. the trigger window's 'no trigger was activated' next to
    'a trigger taking several targets declares them' (000 卡／效果发动的优先顺序 ５–７; PR17 targets)."""
    rulebook = default_rulebook()
    open_pairs = [f"{machine}.{state}" for machine, states in rulebook.runtime.items()
                  for state, here in states.items()
                  if (here.engine and not exclusive(here.engine)) or (here.done and not exclusive(here.done))]
    assert open_pairs == []
