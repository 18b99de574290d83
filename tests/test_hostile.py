"""Hostile calls and setups: each fails with a clear error and leaves nothing half done, and no
input makes the engine loop or allocate without bound."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from pydantic import ValidationError

from ygo_fsm import Duel, Rulebook
from ygo_fsm.cards import load_library
from ygo_fsm.duel import SETTLE_ROUNDS, settle_limit
from ygo_fsm.errors import EngineError, MachineDefinitionError, ScenarioError
from ygo_fsm.game import MAX_CARDS, MAX_LP, MAX_NAMED_CARDS, MAX_TURN, Setup
from ygo_fsm.loader import GUARD_SENTENCES_FILE, engine_cycle_issues, parse_machine_file
from ygo_fsm.yamlio import MAX_DEPTH, YamlInputError, parse_yaml

CORPUS = Path(__file__).resolve().parent / "corpus"


def _observed(duel: Duel) -> tuple[object, ...]:
    return (duel.state, duel.priority, duel.trace, duel.history, {p: (s.lp, s.hand, s.deck, s.graveyard)
                                                                  for p, s in duel.players.items()})


@pytest.mark.parametrize("thing", [None, 0, ["pass"], b"pass", {"name": "pass"}, 1.5])
def test_apply_refuses_what_is_not_an_action_with_type_error(thing: object) -> None:
    """``apply`` takes an Action or its text; anything else is a TypeError naming the type, and the
    duel is as before (STANDARDS: bad input changes nothing)."""
    duel = Duel()
    before = _observed(duel)
    with pytest.raises(TypeError, match=rf"not {type(thing).__name__}"):
        duel.apply(thing)  # type: ignore[arg-type]
    assert _observed(duel) == before
    duel.apply("pass")  # and the duel goes on


def _rulebook_without_checks(folder: Path) -> Rulebook:
    specs = {}
    for path in sorted(p for p in folder.glob("*.yaml") if p.name != GUARD_SENTENCES_FILE):
        spec, issues = parse_machine_file(path)
        assert spec is not None and not issues
        specs[spec.id] = spec
    return Rulebook(specs)


def test_a_cycle_with_callbacks_passes_check_but_settling_is_bounded() -> None:
    """A cycle whose callbacks change nothing the guards read cannot be told statically from a chain
    resolving link after link; settling stops at the limit with an EngineError naming the cycle."""
    rulebook = Rulebook.load(CORPUS / "machines" / "runaway")
    assert settle_limit(rulebook) == SETTLE_ROUNDS * 2
    with pytest.raises(EngineError, match=r"more than 200 engine transitions .* going round the cycle: "
                                          r"turn\.there \[not deck_empty\] → turn\.back \[not hand_over_limit\]"):
        Duel(rulebook=rulebook)


def test_an_engine_cycle_that_changes_nothing_fails_check_and_is_bounded_anyway() -> None:
    folder = CORPUS / "machines" / "engine_loop"
    with pytest.raises(MachineDefinitionError, match="engine-only cycle draw_phase → turn_start → draw_phase"):
        Rulebook.load(folder)
    with pytest.raises(EngineError, match="going round the cycle"):
        Duel(rulebook=_rulebook_without_checks(folder))


def test_a_cycle_whose_guards_contradict_is_not_reported(tmp_path: Path) -> None:
    """With nothing changing, ``[deck_empty]`` then ``[not deck_empty]`` cannot both hold: no loop."""
    folder = tmp_path / "machines"
    shutil.copytree(CORPUS / "machines" / "engine_loop", folder)
    path = folder / "turn.yaml"
    path.write_text(path.read_text(encoding="utf-8").replace("unless: [hand_over_limit]", "guards: [deck_empty]"),
                    encoding="utf-8")
    spec, issues = parse_machine_file(path)
    assert spec is not None and not issues
    assert engine_cycle_issues([spec]) == []


def test_shipped_engine_cycles_all_make_progress(rulebook: Rulebook) -> None:
    """The shipped machines do loop through engine transitions (a chain resolves link after link,
    000 逆算; skipped turns follow each other) — each such cycle runs a callback."""
    assert engine_cycle_issues(rulebook.specs.values()) == []
    link = next(t for t in rulebook.specs["chain"].transitions if t.id == "link_resolves")
    assert link.source == link.dest and link.callbacks


def test_the_longest_settle_a_setup_allows_stays_under_the_limit() -> None:
    """Every turn a setup may name skipped (002 ●回合开始 「ギャンブル」): the engine moves through
    them all in one settle, below the settle limit."""
    setup = Setup(effects_on_turn={turn: ["skip_turn"] for turn in range(1, MAX_TURN + 1)})
    duel = Duel(setup)
    assert duel.turn == MAX_TURN + 1 and duel.priority is not None
    assert len(duel.trace) < settle_limit(duel.rulebook)


@pytest.mark.parametrize(("players", "field"), [
    ({"A": {"hand": MAX_CARDS + 1}}, "hand"),
    ({"B": {"deck": MAX_CARDS + 1}}, "deck"),
    ({"A": {"graveyard": MAX_CARDS + 1}}, "graveyard"),
    ({"A": {"lp": MAX_LP + 1}}, "lp"),
    ({"A": {"cards": [{"card": "cyclone"}] * (MAX_NAMED_CARDS + 1)}}, "cards"),
])
def test_setup_counts_are_bounded(players: dict[str, object], field: str) -> None:
    """A player owns at most 90 cards (Main Deck 40–60, Extra and Side Deck 15 each, Konami OCG
    rules); counts past the documented bounds are refused at load."""
    with pytest.raises(ValidationError, match=field):
        Setup.model_validate({"players": players})


def test_setup_bounds_admit_the_largest_allowed_values() -> None:
    duel = Duel(Setup.model_validate({"turn": MAX_TURN, "players": {
        "A": {"hand": MAX_CARDS, "deck": MAX_CARDS, "graveyard": MAX_CARDS, "lp": MAX_LP}}}))
    assert duel.players["A"].hand == MAX_CARDS and duel.turn == MAX_TURN


@pytest.mark.parametrize("key", ["turn", "set_turn"])
def test_turn_numbers_are_bounded(key: str) -> None:
    data: dict[str, object] = ({"turn": MAX_TURN + 1} if key == "turn" else
                               {"players": {"A": {"cards": [{"card": "cyclone", "set_turn": MAX_TURN + 1}]}}})
    with pytest.raises(ValidationError):
        Setup.model_validate(data)
    with pytest.raises(ValidationError):
        Setup.model_validate({"effects_on_turn": {MAX_TURN + 1: ["skip_turn"]}})


def test_yaml_nesting_limit_is_exact() -> None:
    ok = "[" * (MAX_DEPTH - 1) + "]" * (MAX_DEPTH - 1)
    assert parse_yaml(f"a: {ok}") is not None
    with pytest.raises(YamlInputError, match="nested more than"):
        parse_yaml(f"a: [{ok}]")


def test_int_and_str_spellings_of_one_key_are_duplicates() -> None:
    for text in ("{2: a, '2': b}", "{2: a, 0x2: b}", '{"x": 1, x: 2}'):
        with pytest.raises(YamlInputError, match="duplicate key"):
            parse_yaml(text)
    assert parse_yaml("{2: a, '3': b}") == {2: "a", "3": "b"}


def test_load_library_errors_are_one_line(tmp_path: Path) -> None:
    path = tmp_path / "cards.yaml"
    path.write_bytes(b"cards:\n  - id: \xff\n")
    with pytest.raises(ScenarioError) as caught:
        load_library(path)
    assert str(caught.value) == f"{path}: (file): card library: cannot read: not UTF-8 text (byte 0xff at offset 15)"
