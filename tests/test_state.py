"""The duel as a value (DESIGN.md "Contracts: State"): a saved duel loads back equal and plays on
the same; equality compares the game, not the history; the state key is stable; a tampered
document is refused naming its field; and the package's imports form no circle."""

from __future__ import annotations

import ast
import json
import pickle
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from helpers import judge_duel
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import ygo_fsm
from ygo_fsm import Duel, IllegalActionError, Profile, Setup
from ygo_fsm.cards import CardType, EffectKind, default_library
from ygo_fsm.errors import StateFormatError
from ygo_fsm.game import PLAYERS
from ygo_fsm.snapshot import CardDocument, GameDocument
from ygo_fsm.state import CardInstance, GameState

LIBRARY = default_library()
MONSTERS = sorted(card.id for card in LIBRARY.values() if card.type is CardType.monster)
SPELLS_TRAPS = sorted(card.id for card in LIBRARY.values() if card.type is not CardType.monster)
FIELD_SPELLS = sorted(card.id for card in LIBRARY.values()
                      if any(e.kind is EffectKind.field_spell for e in card.effects))
SET_IN_ZONES = [card for card in SPELLS_TRAPS if card not in FIELD_SPELLS]  # Field Spells have their own zone


@st.composite
def library_setups(draw: st.DrawFn) -> Setup:
    """A position with library cards: monsters on the field and in hand, spells and traps Set
    or in hand, some cards in the graveyard, decks of unnamed cards."""
    players: dict[str, Any] = {}
    for player in PLAYERS:
        cards: list[dict[str, Any]] = []
        for card in draw(st.lists(st.sampled_from(MONSTERS), max_size=3)):
            face_up = draw(st.booleans())
            cards.append({"card": card, "zone": "monster", "face_up": face_up,
                          "position": "attack" if face_up and draw(st.booleans()) else "defence"})
        cards += [{"card": card, "zone": "spell_trap"} for card in draw(st.lists(st.sampled_from(SET_IN_ZONES),
                                                                                 max_size=3))]
        cards += [{"card": card, "zone": "field_zone"} for card in draw(st.lists(st.sampled_from(FIELD_SPELLS),
                                                                                 max_size=1))]
        # at most 12 named cards a player (game.MAX_NAMED_CARDS): 3 + 3 + 1 + 3 + 2
        cards += [{"card": card, "zone": "hand"} for card in draw(st.lists(st.sampled_from(MONSTERS + SPELLS_TRAPS),
                                                                           max_size=3))]
        cards += [{"card": card, "zone": "graveyard"} for card in draw(st.lists(st.sampled_from(MONSTERS),
                                                                                max_size=2))]
        players[player] = {"hand": draw(st.integers(0, 3)), "deck": draw(st.integers(0, 12)), "cards": cards,
                           "lp": draw(st.sampled_from([8000, 4000, 1000]))}
    return Setup.model_validate({
        "profile": draw(st.sampled_from([p.value for p in Profile])),
        "turn": draw(st.integers(2, 5)),
        "turn_player": draw(st.sampled_from(PLAYERS)),
        "phase": draw(st.sampled_from(["turn_start", "standby_phase", "main_phase_1", "battle_phase", "end_phase"])),
        "players": players,
    })


def played(setup: Setup, seed: int, steps: int) -> Duel:
    """``setup`` after up to ``steps`` random legal actions."""
    rng = random.Random(seed)
    duel = judge_duel(setup)
    for _ in range(steps):
        if duel.is_over:
            break
        duel.apply(rng.choice(duel.legal_actions()))
    return duel


def actions(duel: Duel) -> list[tuple[str, str, str]]:
    return [(str(a), a.player, a.label) for a in duel.legal_actions()]


PROPERTY = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@PROPERTY
@given(library_setups(), st.integers(0, 2**32), st.integers(0, 120))
def test_a_saved_duel_loads_back_equal_and_plays_on_the_same(setup: Setup, seed: int, steps: int) -> None:
    """from_json(to_json(d)) == d, with the same legal actions, and the same actions on both
    give the same trace (the numbering continues)."""
    duel = played(setup, seed, steps)
    loaded = Duel.from_json(duel.to_json())
    assert loaded == duel
    assert loaded.state == duel.state and loaded.priority == duel.priority
    assert actions(loaded) == actions(duel)
    assert loaded.state_key() == duel.state_key()
    assert loaded.history == duel.history and loaded.setup == duel.setup
    before = len(duel.trace)
    rng = random.Random(seed + 1)
    for _ in range(40):
        if duel.is_over:
            break
        action = str(rng.choice(duel.legal_actions()))
        duel.apply(action)
        loaded.apply(action)
        assert loaded == duel
    assert [r.model_dump() for r in loaded.trace] == [r.model_dump() for r in duel.trace[before:]]
    assert loaded.resolutions == duel.resolutions


@PROPERTY
@given(library_setups(), st.integers(0, 2**32), st.integers(0, 80), st.data())
def test_an_illegal_action_leaves_the_duel_equal(setup: Setup, seed: int, steps: int, data: st.DataObject) -> None:
    """An illegal action raises and changes nothing (DESIGN.md "Contracts: Library"): the
    duel is equal to a copy taken before, history included."""
    duel = played(setup, seed, steps)
    before = duel.copy()
    saved = duel.to_json(trace=True)
    legal = {str(a) for a in duel.legal_actions()}
    events = sorted({t.event for m in duel.rulebook.specs.values() for t in m.transitions})
    name = data.draw(st.sampled_from(events))
    option = data.draw(st.sampled_from(["", " nothing", " " + data.draw(st.sampled_from(MONSTERS + SPELLS_TRAPS))]))
    text = name + option
    if text in legal or (not option and any(a.startswith(name + " ") for a in legal)):
        return
    with pytest.raises(IllegalActionError):
        duel.apply(text)
    assert duel == before
    assert duel.to_json(trace=True) == saved


@settings(max_examples=15, deadline=None)
@given(library_setups(), st.integers(0, 2**32), st.integers(0, 100))
def test_pickle_and_replay_rebuild_the_duel(setup: Setup, seed: int, steps: int) -> None:
    """pickle round-trips (trace included); Duel.replay(setup, history) reaches the same
    state by the same transitions; copy() is independent of the original."""
    duel = played(setup, seed, steps)
    unpickled = pickle.loads(pickle.dumps(duel))
    assert unpickled == duel and unpickled.trace == duel.trace
    replayed = Duel.replay(duel.setup, duel.history)
    assert replayed == duel and replayed.trace == duel.trace
    if not duel.is_over:
        clone = duel.copy()
        document = duel.to_json()
        clone.apply(clone.legal_actions()[-1])
        assert duel.to_json() == document


def test_a_game_state_pickles_and_copies_without_the_runtime() -> None:
    """The game state is data (the state contract): what the runtime keeps on a frame (its state's
    entry in the shared rulebook, which holds the ``transitions`` machines) is not part of a pickle
    or a deep copy, and is looked up again; the copy plays on exactly like the original."""
    import copy

    duel = played(Setup(), 5, 12)
    assert any(frame.at is not None for frame in duel.game.frames)
    for clone in (pickle.loads(pickle.dumps(duel.game)), copy.deepcopy(duel.game)):
        assert [(f.machine, f.state) for f in clone.frames] == [(f.machine, f.state) for f in duel.game.frames]
        assert all(frame.at is None for frame in clone.frames)
        assert all(frame.game is clone for frame in clone.frames)
        again = Duel.from_json(duel.to_json())
        again.game = clone
        assert again == duel and again.legal_actions() == duel.legal_actions()


def test_equality_compares_the_game_not_the_history() -> None:
    """Two duels reaching the same game state are equal although their histories differ in
    length; a duel that moved on is not equal to where it was."""
    start = Duel()
    moved = start.copy()
    moved.apply("pass")
    assert moved != start
    other = Duel.from_json(moved.to_json())
    other._history.clear()  # the same game with no history
    assert other == moved
    with pytest.raises(TypeError):
        hash(start)  # a duel changes; state_key() is its key


def test_the_state_key_is_the_same_in_another_process() -> None:
    duel = played(Setup.model_validate({"turn": 3, "players": {"A": {"cards": [{"card": "cyclone"}]}}}), 7, 30)
    script = ("import sys; from ygo_fsm import Duel; "
              "print(Duel.from_json(sys.stdin.read()).state_key())")
    other = subprocess.run([sys.executable, "-c", script], input=duel.to_json(), capture_output=True, text=True,
                           check=True, env={"PYTHONHASHSEED": "123"})
    assert other.stdout.strip() == duel.state_key()


def test_the_card_document_has_every_card_attribute() -> None:
    """Nothing of a card's state is lost on saving: the document lists every slot."""
    assert list(CardDocument.model_fields) == list(CardInstance.__slots__)
    assert set(GameDocument.model_fields) >= {"players", "chain", "window", "attack", "summon", "frames", "outcome"}


def test_the_schema_command_prints_the_state_document() -> None:
    out = subprocess.run([sys.executable, "-m", "ygo_fsm", "schema", "state"], capture_output=True, text=True,
                         check=True).stdout
    schema = json.loads(out)
    assert "GameDocument" in schema["$defs"] and schema["properties"]["game"] == {"$ref": "#/$defs/GameDocument"}


# --- tampered documents --------------------------------------------------------------------


def _saved() -> dict[str, Any]:
    setup = Setup.model_validate({"turn": 3, "phase": "main_phase_1", "players": {
        "A": {"cards": [{"card": "killer_snake", "zone": "monster"}]},
        "B": {"cards": [{"card": "cyclone", "zone": "spell_trap"}]}}})
    document: dict[str, Any] = json.loads(judge_duel(setup).to_json())
    return document


def _tampered(change: Any) -> str:
    document = _saved()
    change(document)
    return json.dumps(document)


def _set_card(document: dict[str, Any], key: str, value: Any) -> None:
    document["game"]["players"]["A"]["zones"]["monster"][0][key] = value


TAMPERED = {
    "unknown card": (lambda d: _set_card(d, "card", "no_such_card"), "game.players.A.zones.monster[0].card"),
    "one card in two places": (lambda d: d["game"]["players"]["B"]["zones"]["graveyard"].append(
        d["game"]["players"]["A"]["zones"]["monster"][0]), "killer_snake"),
    "six cards in five zones": (lambda d: d["game"]["players"]["A"]["zones"]["monster"].extend(
        [dict(d["game"]["players"]["A"]["zones"]["monster"][0], uid=f"x{i}") for i in range(5)]),
        "game.players.A.zones.monster"),
    "negative LP": (lambda d: d["game"]["players"]["B"].update(lp=-5), "game.players.B.lp"),
    "a state that does not exist": (lambda d: d["game"]["frames"][1].update(state="nowhere"), "game.frames[1].state"),
    "a frame of the wrong machine": (lambda d: d["game"]["frames"][1].update(machine="draw_phase"),
                                     "game.frames[1].machine"),
    "a missing frame": (lambda d: d["game"]["frames"].pop(), "game.frames"),
    "a turn player who does not play": (lambda d: d["game"].update(turn_player="C"), "game.turn_player"),
    "an unknown field": (lambda d: d["game"].update(extra=1), "game.extra"),
    "another version": (lambda d: d.update(version=2), "version"),
}


@pytest.mark.parametrize("case", sorted(TAMPERED))
def test_a_tampered_document_is_refused_naming_the_field(case: str) -> None:
    change, field = TAMPERED[case]
    with pytest.raises(StateFormatError) as error:
        Duel.from_json(_tampered(change))
    message = str(error.value)
    assert field in message and "\n" not in message


def test_a_document_that_is_not_json_is_refused() -> None:
    with pytest.raises(StateFormatError, match="not JSON"):
        Duel.from_json("{")
    with pytest.raises(StateFormatError):
        Duel.from_json("[" * 100_000)


def test_a_duel_saved_in_the_middle_of_settling_is_refused() -> None:
    """A saved duel is where a player acts: frames where an engine transition is due are not one."""
    document = _saved()
    document["game"]["frames"] = [{"machine": "turn", "state": "turn_end", "invoked_as": None, "parent": None}]
    with pytest.raises(StateFormatError, match=r"game\.frames"):
        Duel.from_json(json.dumps(document))


def test_the_game_state_holds_no_reference_to_the_duel() -> None:
    """The rules act on the state model, never on the façade (DESIGN.md "Layers")."""
    duel = Duel()
    assert all(not isinstance(getattr(duel.game, slot, None), Duel) for slot in GameState.__slots__)
    assert all(frame.game is duel.game for frame in duel.frames)


# --- layers --------------------------------------------------------------------------------


def _imports(path: Path, package: str) -> set[str]:
    """The package modules a module imports, typing-only imports included."""
    module = f"{package}.{path.stem}" if path.stem != "__init__" else package
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = module.rsplit(".", node.level)[0] if path.stem != "__init__" else package
                target = f"{base}.{node.module}" if node.module else base
            else:
                target = node.module or ""
            if target == package:
                found.update(f"{package}.{alias.name}" for alias in node.names)
            elif target.startswith(package + "."):
                found.add(target)
        elif isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names if alias.name.startswith(package + "."))
    return found


def import_graph(root: Path) -> dict[str, set[str]]:
    package = root.name
    modules = {f"{package}.{p.stem}" if p.stem != "__init__" else package: p for p in root.glob("*.py")}
    return {name: {m for m in _imports(path, package) if m in modules and m != name}
            for name, path in modules.items()}


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected groups of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for target in sorted(graph[node]):
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            group = []
            while True:
                member = stack.pop()
                group.append(member)
                if member == node:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def test_the_import_circle_check_finds_a_circle(tmp_path: Path) -> None:
    """The check can fail: two modules importing each other (one only for typing) are a circle."""
    package = tmp_path / "pkg"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "low.py").write_text("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from .high import H\n")
    (package / "high.py").write_text("from .low import L\n")
    assert circles(import_graph(package)) == [["pkg.high", "pkg.low"]]


def test_the_package_imports_form_no_circle() -> None:
    """Layers only point down (DESIGN.md "Layers"), typing-only imports included."""
    assert circles(import_graph(Path(ygo_fsm.__file__).parent)) == []


def test_an_occurrence_is_built_from_its_fields_and_stays_frozen() -> None:
    """An occurrence (a thing that happened, which triggers respond to: 000 ※…发动时点的出现条件)
    is a value: its constructor takes exactly its declared fields, in order and with their
    defaults, and it cannot be changed once recorded."""
    import dataclasses
    import inspect

    from ygo_fsm.cards import Event
    from ygo_fsm.state import Occurrence

    parameters = list(inspect.signature(Occurrence).parameters.values())
    fields = dataclasses.fields(Occurrence)
    assert [p.name for p in parameters] == [f.name for f in fields]
    assert [p.default for p in parameters] == [
        inspect.Parameter.empty if f.default is dataclasses.MISSING else f.default for f in fields]
    drawn = Occurrence(Event.drawn, "A", "a1", cause="effect", together=True)
    assert drawn == dataclasses.replace(Occurrence(Event.drawn, "B"), player="A", uid="a1", cause="effect",
                                        together=True)
    assert hash(drawn) == hash(Occurrence(Event.drawn, "A", "a1", False, "effect", "", "", "", True))
    with pytest.raises(dataclasses.FrozenInstanceError):
        drawn.player = "B"  # type: ignore[misc]


@pytest.mark.parametrize("with_trace", [True, False])
def test_a_loaded_duel_numbers_its_new_records_on_from_the_saved_seq(with_trace: bool) -> None:
    """DESIGN trace contract: ``seq`` numbers the transitions of the whole duel, one a transition. A duel
    saved with or without its trace and loaded goes on numbering from the saved ``seq``, and its trace
    reads the same as the trace of the duel that was not saved (its rows keep no seq of their own)."""
    rng = random.Random(11)
    played = Duel.new_game(["sage_chiron"] * 40, ["sage_chiron"] * 40, seed=5)
    for _ in range(12):
        played.apply(rng.choice(played.legal_actions()))
    loaded = Duel.from_json(played.to_json(trace=with_trace))
    assert len(played.trace) == played.transitions_taken  # read before the save point, as the loaded duel's is
    saved_seq = played.transitions_taken
    for _ in range(12):
        action = rng.choice(played.legal_actions())
        played.apply(action)
        loaded.apply(action)
    new = [r for r in loaded.trace if r.seq > saved_seq]
    assert [r.seq for r in new] == list(range(saved_seq + 1, played.transitions_taken + 1))
    assert new == list(played.trace[saved_seq:])
    assert len(loaded.trace) == (played.transitions_taken if with_trace else len(new))
