"""Users' card files: the library API, semantic validation (one line naming file, card, effect
and field), scenarios that carry their own cards, and the CLI's doors (run --cards, check
--cards, cards, schema cards)."""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

import pytest
from helpers import judge_duel

import ygo_fsm
from ygo_fsm import ScenarioError, Setup, default_library, load_library, merge
from ygo_fsm.cards import Timing, card_problems, parse_cards, read_card_file
from ygo_fsm.cli import main
from ygo_fsm.engine import default_rulebook
from ygo_fsm.scenario import load_scenario, parse_scenario, run_scenario

POOL = Path(__file__).resolve().parent / "scenarios" / "cards" / "pool.yaml"
CARD = {"id": "x", "name_ja": "X", "name_zh": "X"}


def problems_of(**card: object) -> list[str]:
    _, problems = parse_cards({"cards": [{**CARD, **card}]}, source="my.yaml")
    return problems


def run_cli(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    captured = capsys.readouterr()
    assert "Traceback" not in captured.err
    return code, captured.out, captured.err


# --- the library API ------------------------------------------------------------------


def test_the_library_api_is_exported() -> None:
    for name in ("load_library", "default_library", "merge", "Duel", "CardSpec"):
        assert name in ygo_fsm.__all__
        assert hasattr(ygo_fsm, name)


def test_load_library_takes_a_string_or_a_path() -> None:
    assert load_library(str(POOL)) == load_library(POOL)
    assert "plain_warrior" in load_library(str(POOL))


def test_merge_refuses_to_shadow_a_built_in_card() -> None:
    mine = default_library()["cyclone"].model_copy(update={"name_ja": "別のサイクロン"})
    with pytest.raises(ScenarioError, match="card cyclone: the id is already in the library"):
        merge(default_library(), {"cyclone": mine})
    assert merge(default_library(), {"cyclone": mine}, shadow=True)["cyclone"] is mine


def test_a_duel_plays_with_a_user_library() -> None:
    library = merge(default_library(), load_library(POOL))
    setup = Setup.model_validate({"profile": "modern", "turn": 3, "phase": "main_phase_1",
                                  "players": {"A": {"cards": [{"card": "flame_caster", "zone": "monster"}]}}})
    duel = judge_duel(setup, library=library)
    duel.apply("activate flame_caster")
    duel.apply("pass")
    duel.apply("pass")
    assert duel.players["B"].lp == 7700


def test_every_timing_is_a_state_of_the_machines() -> None:
    """``during:`` names phases and steps; each must be a state id declared in machines/."""
    states = {state.id for spec in default_rulebook().specs.values() for state in spec.states}
    assert {timing.value for timing in Timing} <= states


# --- semantic validation ----------------------------------------------------------------


def test_a_card_that_stays_on_the_field_may_have_a_trigger_effect_there() -> None:
    """000 ●エンドフェイズ【３】例: the face-up 「強制接収」 (a continuous trap) activates as CHAIN1 when
    its controller discards: a spell or trap card that stays on the field may have a trigger effect
    at location: field."""
    assert problems_of(type="trap", effects=[{"kind": "continuous_trap", "location": "set"},
                                             {"kind": "trigger", "events": ["discarded"], "subject": "own"}]) == []


def test_the_built_in_library_and_the_pool_pass_the_checks() -> None:
    assert [p for c in default_library().values() for p in card_problems(c)] == []
    assert read_card_file(POOL)[1] == []


@pytest.mark.parametrize(("card", "expected"), [
    ({"type": "spell", "effects": [{"kind": "trigger", "events": ["destroyed"]}]},
     "my.yaml: card x: effects[0] (trigger): kind: a spell card cannot have a trigger effect"),
    ({"type": "trap", "effects": [{"kind": "continuous_trap", "location": "set"},
                                  {"kind": "trigger", "location": "hand", "events": ["discarded"]}]},
     "my.yaml: card x: effects[1] (trigger): kind: a trap card cannot have a trigger effect"),
    ({"type": "trap", "effects": [{"kind": "normal_trap", "resolution": [{"op": "destroy", "what": "target"}]}]},
     "my.yaml: card x: effects[0] (normal_trap): resolution[0].what: destroy acts on the target, but the effect "
     "takes none (give target:)"),
    ({"type": "spell", "effects": [{"kind": "normal_spell", "target": "any_monster",
                                    "resolution": [{"op": "return_to_hand", "what": "all_monsters"}]}]},
     "my.yaml: card x: effects[0] (normal_spell): resolution[0].what: return_to_hand does not take what: "
     "all_monsters; it takes event_card, self, target"),
    ({"type": "spell", "effects": [{"kind": "normal_spell", "resolution": [{"op": "draw", "what": "self"}]}]},
     "my.yaml: card x: effects[0] (normal_spell): resolution[0].what: draw takes no what: (it would be ignored)"),
    ({"type": "monster", "effects": [{"kind": "quick", "location": "field", "cost": {"discard_self": True}}]},
     "my.yaml: card x: effects[0] (quick): cost.discard_self: never payable: the card is in the field "
     "(it must be in the hand)"),
    ({"type": "spell", "effects": [{"kind": "normal_spell", "cost": {"tribute_self": True}}]},
     "my.yaml: card x: effects[0] (normal_spell): cost.tribute_self: never payable: only a monster can be tributed"),
    ({"type": "monster", "effects": [{"kind": "ignition", "subject": "this_card"}]},
     "my.yaml: card x: effects[0] (ignition): subject: subject narrows the events the effect answers, but it "
     "answers none (give events:)"),
    ({"type": "spell", "effects": [{"kind": "normal_spell", "target": "any_monster",
                                    "resolution": [{"op": "destroy", "until": "end_phase"}]}]},
     "my.yaml: card x: effects[0] (normal_spell): resolution[0].until: destroy does not last; until: would be "
     "ignored"),
    ({"type": "trap", "effects": [{"kind": "normal_trap", "target": "face_up_monster",
                                   "resolution": [{"op": "negate_effects"}]}]},
     "my.yaml: card x: effects[0] (normal_trap): resolution[0].until: negate_effects needs until: (how long it lasts)"),
    ({"type": "spell", "effects": [{"kind": "normal_spell",
                                    "resolution": [{"op": "draw", "amount": 2, "destroy": True}]}]},
     "my.yaml: card x: effects[0] (normal_spell): resolution[0].destroy: draw does not read destroy: (it would be "
     "ignored)"),
    ({"type": "monster", "effects": [{"kind": "trigger", "location": "graveyard"}]},
     "my.yaml: card x: effects[0] (trigger): events: a trigger effect needs events: (or a phase:) to answer"),
])
def test_a_card_that_cannot_mean_what_it_says_is_one_line(card: dict[str, object], expected: str) -> None:
    problems = problems_of(**card)
    assert problems and problems[0].startswith(expected), problems


@pytest.mark.parametrize(("card", "expected"), [
    ({"type": "spell", "effects": [{"kind": "normal_spell", "target": "any_monster", "target_count": {"exactly": 0},
                                    "resolution": [{"op": "destroy"}]}]},
     "my.yaml: card x: effects[0].target_count.exactly: Input should be greater than or equal to 1"),
    ({"type": "spell", "effects": [{"kind": "normal_spell", "target": "any_monster",
                                    "target_count": {"exactly": 2, "up_to": 2}, "resolution": [{"op": "destroy"}]}]},
     "my.yaml: card x: effects[0].target_count: give one of exactly: N or up_to: N"),
    ({"type": "spell", "effects": [{"kind": "normal_spell", "target_count": {"up_to": 2},
                                    "resolution": [{"op": "draw", "amount": 1}]}]},
     "my.yaml: card x: effects[0] (normal_spell): target_count: target none is one card at most"),
    ({"type": "trap", "effects": [{"kind": "normal_trap", "events": ["normal_summoned"], "target": "event_card",
                                   "target_count": {"exactly": 2}, "resolution": [{"op": "destroy"}]}]},
     "my.yaml: card x: effects[0] (normal_trap): target_count: target event_card is one card at most"),
    ({"type": "monster", "effects": [{"kind": "ignition", "face": "face_down"}]},
     "my.yaml: card x: effects[0] (ignition): face: face narrows the events the effect answers, but it answers "
     "none (give events:)"),
    ({"type": "monster", "effects": [{"kind": "trigger", "events": ["discarded"], "face": "face_up"}]},
     "my.yaml: card x: effects[0] (trigger): face: face is known only for banished, destroyed, "
     "monster_sent_to_graveyard, returned_to_hand, sent_to_graveyard, targeted; not for discarded"),
    ({"type": "spell", "effects": [{"kind": "quick_play_spell", "conditions": {"battled_this_turn": True}}]},
     "my.yaml: card x: effects[0] (quick_play_spell): conditions.battled_this_turn: only a monster attacks or "
     "battles; a spell never does"),
])
def test_several_targets_faces_and_battles_misused_are_one_line(card: dict[str, object], expected: str) -> None:
    """``target_count`` (Yugipedia "Target": 1 or more cards, of a kind that may be several),
    ``face`` (only where the event records the card's face) and the battle conditions (only a
    monster battles) cannot be given where they would mean nothing."""
    problems = problems_of(**card)
    assert problems and problems[0].startswith(expected), problems


@pytest.mark.parametrize(("effect", "field"), [
    ({"kind": "trigger", "events": ["no_such_event"]}, "effects[0].events[0]"),
    ({"kind": "quick", "conditions": {"during": ["no_such_step"]}}, "effects[0].conditions.during[0]"),
    ({"kind": "quick", "resolution": [{"op": "modify_atk", "until": "forever"}]}, "effects[0].resolution[0].until"),
    ({"kind": "trigger", "events": ["destroyed"], "subject": "everyone"}, "effects[0].subject"),
])
def test_unknown_vocabulary_names_the_field(effect: dict[str, object], field: str) -> None:
    problems = problems_of(type="monster", effects=[effect])
    assert len(problems) >= 1
    assert problems[0].startswith(f"my.yaml: card x: {field}: "), problems


# --- scenarios with their own cards --------------------------------------------------------


SCENARIO = """\
name: own cards
rule: "official: Yugipedia, \\"Card effect\\""
{cards}setup:
  profile: modern
  turn: 3
  phase: main_phase_1
  players:
    A: {{cards: [{{card: {card}, zone: monster}}]}}
steps:
  - do: [activate {card}, pass, pass]
  - expect: {{lp: {{B: 7900}}}}
"""

OWN_CARD = """\
cards:
  - id: {id}
    name_ja: 火花
    name_zh: 火花
    type: monster
    atk: 100
    level: 1
    effects:
      - kind: ignition
        resolution: [{{op: damage, amount: 100}}]
"""


def test_a_scenario_carries_its_own_cards() -> None:
    text = SCENARIO.format(cards=OWN_CARD.format(id="spark"), card="spark")
    result = run_scenario(parse_scenario(text, source="own.yaml"))
    assert result.passed, result.report()


def test_a_scenario_card_may_not_shadow_a_built_in_card() -> None:
    text = SCENARIO.format(cards=OWN_CARD.format(id="cyclone"), card="cyclone")
    with pytest.raises(ScenarioError, match=r"^own.yaml: cards: card cyclone: the id is already used by "
                                            r"the built-in library"):
        parse_scenario(text, source="own.yaml")


def test_a_scenario_library_file_is_relative_to_the_scenario(tmp_path: Path) -> None:
    (tmp_path / "mine.yaml").write_text(OWN_CARD.format(id="spark"), encoding="utf-8")
    path = tmp_path / "s.yaml"
    path.write_text(SCENARIO.format(cards="library: [mine.yaml]\n", card="spark"), encoding="utf-8")
    scenario = load_scenario(path)
    assert scenario.card_library is not None and "spark" in scenario.card_library
    assert run_scenario(scenario).passed


def test_a_scenario_with_a_broken_card_is_invalid() -> None:
    broken = OWN_CARD.format(id="spark").replace("kind: ignition", "kind: trigger")
    with pytest.raises(ScenarioError, match=r"own.yaml: cards: card spark: effects\[0\] \(trigger\): events: "):
        parse_scenario(SCENARIO.format(cards=broken, card="spark"), source="own.yaml")


def test_a_scenario_placing_an_unknown_card_is_invalid() -> None:
    with pytest.raises(ScenarioError, match=r"setup.players.A.cards\[0\].card: unknown card 'spark'"):
        parse_scenario(SCENARIO.format(cards="", card="spark"), source="own.yaml")


# --- the command line ---------------------------------------------------------------------


def _files(tmp_path: Path) -> tuple[Path, Path]:
    cards = tmp_path / "my.yaml"
    cards.write_text(OWN_CARD.format(id="spark"), encoding="utf-8")
    scenario = tmp_path / "scenario.yaml"
    scenario.write_text(SCENARIO.format(cards="", card="spark"), encoding="utf-8")
    return cards, scenario


def test_run_with_cards(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    cards, scenario = _files(tmp_path)
    code, out, err = run_cli(capsys, "run", "--cards", str(cards), str(scenario))
    assert (code, err) == (0, ""), err
    assert out.startswith("PASS ")
    code, _, err = run_cli(capsys, "run", str(scenario))
    assert code == 2 and "unknown card 'spark'" in err


def test_run_with_a_malformed_card_file_is_one_line_and_exit_2(tmp_path: Path,
                                                               capsys: pytest.CaptureFixture[str]) -> None:
    cards, scenario = _files(tmp_path)
    cards.write_text(OWN_CARD.format(id="spark").replace("op: damage", "op: explode"), encoding="utf-8")
    code, out, err = run_cli(capsys, "run", "--cards", str(cards), str(scenario))
    assert code == 2 and out == ""
    assert len(err.splitlines()) == 1
    assert err.startswith(f"{cards}: card spark: effects[0].resolution[0].op: ")


def test_check_cards(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    cards, _ = _files(tmp_path)
    assert run_cli(capsys, "check", "--cards", str(cards)) == (0, f"ok: {cards}: 1 cards\n", "")
    cards.write_text(textwrap.dedent("""\
        cards:
          - {id: a, name_ja: A, name_zh: A, type: spell, effects: [{kind: trigger, events: [destroyed]}]}
          - {id: b, name_ja: B, name_zh: B, type: trap,
             effects: [{kind: normal_trap, resolution: [{op: return_to_hand, what: target}]}]}
          - {id: cyclone, name_ja: C, name_zh: C, type: spell}
        """), encoding="utf-8")
    code, out, err = run_cli(capsys, "check", "--cards", str(cards))
    assert (code, out) == (2, "")
    lines = err.splitlines()
    assert len(lines) == 3
    assert lines[0].startswith(f"{cards}: card a: effects[0] (trigger): kind: ")
    assert lines[1].startswith(f"{cards}: card b: effects[0] (normal_trap): resolution[0].what: ")
    assert lines[2] == f"{cards}: card cyclone: the id is a built-in card's (give the card its own id)"


def test_cards_lists_kinds_spell_speeds_and_what_each_effect_answers(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run_cli(capsys, "cards", str(POOL))
    assert code == 0
    assert "last_word_lamp — monster ATK 800 DEF 600 level 3" in out
    assert "    1. trigger (spell speed 1); graveyard; responds to: destroyed (subject this_card)" in out
    code, out, _ = run_cli(capsys, "cards")
    assert "royal_curse — trap" in out and "counter_trap (spell speed 3)" in out
    assert "cyclone — spell" in out and "responds to: no specific timing" in out


def test_schema_cards(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run_cli(capsys, "schema", "cards")
    schema = json.loads(out)
    assert code == 0 and schema["title"] == "ygo-fsm card file"
    assert "cards" in schema["properties"]
    assert "subject" in json.dumps(schema)


def test_the_readme_s_judge_workflow_is_true(capsys: pytest.CaptureFixture[str]) -> None:
    """The README's card file, situation and story are the files in tests/scenarios/judge/ and
    what `ygo-fsm run --cards … --story …` prints for them."""
    root = Path(__file__).resolve().parent.parent
    readme = (root / "README.md").read_text(encoding="utf-8")
    judge = root / "tests" / "scenarios" / "judge"
    code, out, err = run_cli(capsys, "run", "--cards", str(judge / "my_cards.yaml"), "--story",
                             str(judge / "situation.yaml"))
    assert (code, err) == (0, "")
    story_lines = out.replace(str(judge / "situation.yaml"), "situation.yaml").rstrip("\n")
    assert story_lines in readme
    assert "  - do: [activate lightning_strike>sapphire_dragon, respond escape_hatch>sapphire_dragon, pass, pass]" \
        in (judge / "situation.yaml").read_text(encoding="utf-8")
    for card in load_library(judge / "my_cards.yaml").values():
        assert f"  - id: {card.id}" in readme


def test_run_a_scenario_whose_card_shadows_a_built_in_one_is_exit_2(tmp_path: Path,
                                                                     capsys: pytest.CaptureFixture[str]) -> None:
    scenario = tmp_path / "clash.yaml"
    scenario.write_text(SCENARIO.format(cards=OWN_CARD.format(id="dark_hole"), card="dark_hole"), encoding="utf-8")
    code, out, err = run_cli(capsys, "run", str(scenario))
    assert code == 2 and out == ""
    assert err == (f"{scenario}: cards: card dark_hole: the id is already used by the built-in library "
                   "(a scenario's cards may not shadow another card: give it its own id)\n")
