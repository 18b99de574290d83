"""Scenarios: YAML files that play a duel step by step and check it against the rules.

A scenario is a worked example turned into a test: where the duel starts, what the players
do, and what must hold along the way. ``ygo-fsm run FILE...`` plays them; the library entry
points are :func:`load_scenario` and :func:`run_scenario`. This docstring is the reference
for the format (version 3: cards, chains and battle); ``ygo-fsm schema scenario`` prints its
JSON Schema.

The format
==========
::

    name: Modern first turn has no draw and no Battle Phase     # required
    rule: 004 ●先攻第1回合游戏玩家的抽卡階段不能通常抽卡          # required: the clause it checks
    description: free text                                      # optional
    cards:                     # the scenario's own cards (library format); optional
      - {id: my_vanilla, name_ja: 通常モンスター, name_zh: 通常怪兽, type: monster, atk: 1500, level: 4}
    setup:                     # where the duel starts (a ygo_fsm.game.Setup); all optional
      profile: modern          # modern (004) | ocg2008 (000/001/002/003)
      turn: 1                  # turn number
      turn_player: A           # A | B
      phase: turn_start        # a state of the turn machine: turn_start, draw_phase, … end_phase
      players:                 # per player; unnamed fields keep their defaults
        A: {lp: 8000, hand: 5, deck: 35, hand_limit: hieroglyph_tablet, monsters: [{name: X, atk: 1000}]}
        B:
          hand: 1              # hand, deck, graveyard: cards no action names
          cards:               # library cards (ygo_fsm/data/cards.yaml), each named by its uid
            - {card: jougen, zone: monster}                      # no uid: named by its card id
            - {card: last_battle, zone: spell_trap}              # Set before this turn
            - {card: my_body_as_a_shield, zone: spell_trap, set_turn: 3}   # Set this turn
            - {card: apophis_avatar, zone: monster, position: defence, face_up: false, uid: face_down}
            - {card: dol_dora, zone: graveyard, destroyed_this_turn: true}
      effects: [skip_draw_phase]           # turn effects applying to the starting turn
      effects_on_turn: {2: [skip_turn]}    # turn effects applying to later turns
    steps:                     # required, at least one; run in order
      - do: pass                           # an action, or a list of actions taken in order
        by: A                              # optional: who takes it (must be the one who acts)
      - do: [pass, pass, pass]
      - do: activate last_battle>jougen    # an action with its option: which effect (uid, uid#2 for a
                                           # card's second effect) and, after '>', its target
      - do: [respond my_body_as_a_shield, pass, pass]   # chain responses; both pass: 逆算
      - do: [declare_attack sapphire_dragon, choose_target direct]
      - expect:                            # every field is optional; all given must hold
          state: main_phase_1.open         # the state path is this one or inside it
          priority: A                      # who must act (null: nobody; the duel is over)
          turn: 1
          turn_player: A
          lp: {B: 8000}
          hand: {A: 5}
          deck: {A: 35}
          graveyard: {A: 0}
          winner: B                        # A | B | draw (the duel is over with that result)
          over: false                      # whether the duel is over
          legal: [pass]                    # these actions must be offered now
          not_legal: [enter_battle_phase]  # these must not be offered now
          taken: [first_turn_no_draw]      # transitions taken since the previous expect step
          not_taken: [card_drawn]          # transitions not taken since the previous expect step
          chain: [{card: last_battle, by: B}]   # now, CHAIN1 first (card uids)
          resolved: [{card: my_body_as_a_shield, negated: true}, last_battle]
                                           # links resolved since the previous expect step, in order
          cards: {jougen: graveyard}       # zones of named cards (hand, monster, spell_trap, graveyard …)
          monsters: {A: 1, B: 0}           # monsters each player controls
          positions: {face_down: face_down_defence}   # attack | defence | face_down_defence
          atk: {jougen: 200}               # ATK / DEF of named monsters on the field
          def: {jougen: 1300}
          attack: {attacker: a_monster_1, target: face_down, outcome: fought,
                   replayed: false, battle_damage: {A: 300}, destroyed: []}
                                           # the attack in progress, or else the last one
                                           # (outcome: in_progress | cancelled | stopped | fought | no_battle)
          attacked: [a_monster_1]          # monsters that declared an attack this turn
                                           # (players.X.monsters are a_monster_1, a_monster_2 …)
      - refuse: enter_battle_phase         # this action must be refused (and leave the duel as it was)
        by: B                              # optional: refused to that player
        reason: B does not hold priority   # optional: text the refusal (Duel.why_not's reason) must contain
      - pass_until: main_phase_2           # pass (only pass) until the state path is inside this state

Every step may also carry ``note:`` (free text). The value of ``setup.players.*.hand_limit``
is one of ``hieroglyph_tablet`` (limit 7), ``mist_of_weakness`` (5) or ``infinite_cards``
(no limit); the turn effects are the values of :class:`~ygo_fsm.game.TurnEffect`
(``skip_turn``, ``skip_draw_phase``, ``draw_replaced``, ``skip_standby_phase``,
``skip_main_phase_1``, ``skip_battle_phase``, ``cannot_enter_battle_phase``,
``cannot_attack``).

Cards come from the built-in library (``ygo_fsm/data/cards.yaml``), the files given with
``ygo-fsm run --cards FILE``, the scenario's ``library: [file.yaml, …]`` (card files in the
library format, relative to the scenario file) and its ``cards:``, in that order; a card id
given twice (a scenario card named like a built-in one included) makes the file invalid
rather than silently replacing a card. Every card is checked semantically
(:func:`ygo_fsm.cards.card_problems`); the vocabulary is ``docs/effects.md``.

Semantics
=========
* Cards are named by uid. A card in ``setup.players.*.cards`` given no ``uid`` is named by its
  card id, ``_2``, ``_3`` … for later copies of the same card in the setup (a duel built from a
  :class:`~ygo_fsm.game.Setup` outside a scenario names it by its starting place instead,
  ``b_spell_trap_1``: see :func:`~ygo_fsm.game.placement_uids`). The scenario is the judge's
  view: its names may say what a face-down card is; what each player is shown
  (``Duel.observation``, the option keys of ``Duel.legal_actions``, ``Duel.trace_for``) never does.
* ``do`` applies each action with :meth:`Duel.apply <ygo_fsm.duel.Duel.apply>`. Without
  ``by`` the action is taken by the player who must act; with ``by`` that player must be
  the one who acts (for every action of a list). An action the duel refuses is an
  **error**: the scenario expected it to be legal.
* ``expect`` checks every field given, against the duel as it is now; a mismatch is a
  **failure** naming the step and each field, expected against found. ``taken`` and
  ``not_taken`` look at the trace since the previous ``expect`` step (or the start of the
  duel, including the transitions the engine took while creating it); a transition is
  named by its id in the machine file (``first_turn_no_draw``) or as ``machine.id``.
* ``refuse`` is a failure when the action is offered; otherwise the duel must raise
  :class:`~ygo_fsm.errors.IllegalActionError` and stay exactly as it was. Its message holds
  :meth:`Duel.why_not <ygo_fsm.duel.Duel.why_not>`'s reason (``was Set this turn``,
  ``cost is 1500 LP and B has 1000``, ``B does not hold priority`` …), which ``reason`` matches.
* An option may name a card by its uid (the judge's name) or by its place as the acting
  player is shown it (``activate cyclone>A.spell_trap.1``); ``legal`` and ``not_legal``
  accept both forms.
* ``legal``, ``not_legal`` and ``refuse`` name offered actions: a bare name (``activate``)
  names every option of the action; a name with an option names that option and every
  option extending it on the same card (``activate x`` names ``activate x``,
  ``activate x>target`` and ``activate x#2>target``), so an item never misses an option only
  because it left out the target.
* ``pass_until`` takes ``pass`` while the state path is not inside the given state. Already
  inside it, it does nothing. It is a failure when a player who must act is not offered
  ``pass`` (a choice is needed: use ``do``), when the duel ends first, or when the state is
  not reached within :data:`PASS_LIMIT` passes.

Every action name (``do``, ``refuse``, ``legal``, ``not_legal``) must be a player event
declared in the machines, every transition
(``taken``, ``not_taken``) a declared transition, and every state (``expect.state``,
``pass_until``) a state path from the ``turn`` machine down (``battle_phase.end_step``);
``setup.phase`` must be a state of the ``turn`` machine. Otherwise — as for malformed YAML
(a key given twice in one mapping included) or a field the format does not know — loading raises
:class:`~ygo_fsm.errors.ScenarioError` with one line naming the file and the item, e.g.
``tests/scenarios/x.yaml: steps[3].expect.lp.C (key): Input should be 'A' or 'B'``.
Steps are numbered from 0.

Limits
======
No real scenario comes near them; they keep any file from making the reader or the engine
loop or allocate without bound. The file: at most 1 MiB of UTF-8 YAML, nested at most 50
deep, integers of at most 18 digits, no duplicate or non-scalar keys, few aliases
(:mod:`ygo_fsm.yamlio`). The scenario: at most :data:`MAX_STEPS` (2000) steps and
:data:`MAX_STEP_ACTIONS` (200) actions per ``do``. The setup (:mod:`ygo_fsm.game`): LP at most
1,000,000; hand, deck and graveyard at most 100 cards each; at most 12 library cards per
player; turn numbers (``turn``, ``set_turn``, ``effects_on_turn``) at most 1000; ATK/DEF at
most 1,000,000; at most 20 turn effects per turn.

Outcomes and exit codes
=======================
:func:`run_scenario` stops at the first step that does not hold and returns a
:class:`ScenarioResult`: ``passed`` (exit code 0), ``failed`` — an expectation did not hold
(1) — or ``error`` — an action the scenario expected to be legal was refused, or the engine
could not go on (2). Its ``message`` names the file, the step and the item; ``trace_tail``
holds the last lines of the narrated trace; ``trace`` the whole trace.

>>> scenario = parse_scenario('''
... name: first turn
... rule: 004 ●先攻第1回合游戏玩家不能进行战斗阶段
... steps:
...   - pass_until: end_phase
...   - expect: {turn: 1, hand: {A: 5}, not_legal: [enter_battle_phase]}
... ''', source="example.yaml")
>>> run_scenario(scenario).outcome
<Outcome.passed: 'passed'>
"""

from __future__ import annotations

from .scenario_format import (
    MAX_STEP_ACTIONS,
    MAX_STEPS,
    PASS_LIMIT,
    SCENARIO_CITATION,
    STEP_KINDS,
    TRACE_TAIL_LINES,
    ActionList,
    ActionName,
    AttackExpectation,
    ChainLinkExpectation,
    DoStep,
    Expectation,
    ExpectStep,
    PassUntilStep,
    Player,
    RefuseStep,
    ResolvedExpectation,
    Scenario,
    StatePath,
    Step,
    TransitionName,
    scenario_json_schema,
)
from .scenario_load import load_scenario, parse_scenario, player_actions, scenario_library
from .scenario_play import Outcome, ScenarioResult, names_option, run_file, run_scenario

__all__ = [
    "MAX_STEPS",
    "MAX_STEP_ACTIONS",
    "PASS_LIMIT",
    "SCENARIO_CITATION",
    "STEP_KINDS",
    "TRACE_TAIL_LINES",
    "ActionList",
    "ActionName",
    "AttackExpectation",
    "ChainLinkExpectation",
    "DoStep",
    "ExpectStep",
    "Expectation",
    "Outcome",
    "PassUntilStep",
    "Player",
    "RefuseStep",
    "ResolvedExpectation",
    "Scenario",
    "ScenarioResult",
    "StatePath",
    "Step",
    "TransitionName",
    "load_scenario",
    "names_option",
    "parse_scenario",
    "player_actions",
    "run_file",
    "run_scenario",
    "scenario_json_schema",
    "scenario_library",
]
