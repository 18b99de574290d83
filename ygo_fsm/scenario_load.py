"""Reading a scenario file: safe YAML, the format's models, its cards, and the names it uses
(documented in :mod:`ygo_fsm.scenario`)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from pydantic import (
    ValidationError,
)

from .cards import CardSpec, default_library, merge, parse_cards, read_card_file
from .engine import Rulebook, default_rulebook
from .errors import ScenarioError
from .game import card_id_uids, monster_uid, placement_uids
from .scenario_format import (
    STEP_KINDS,
    DoStep,
    PassUntilStep,
    RefuseStep,
    Scenario,
)
from .yamlio import YamlInputError, parse_yaml, read_text

# --- loading ------------------------------------------------------------------------


def _location(loc: Sequence[int | str]) -> str:
    """``('steps', 3, 'expect', 'expect', 'lp', 'C')`` → ``steps[3].expect.lp.C``."""
    parts = list(loc)
    text = ""
    for index, part in enumerate(parts):
        if index == 2 and parts[0] == "steps" and isinstance(parts[1], int) and part in STEP_KINDS:
            continue  # the tag of the step's kind, which pydantic puts before the field
        if part == "[key]":
            text += " (key)"
        elif isinstance(part, int):
            text += f"[{part}]"
        else:
            text += f".{part}" if text else str(part)
    return text or "(file)"


def _schema_error(source: str, error: ValidationError) -> ScenarioError:
    errors = error.errors()
    first = errors[0]
    more = f" (and {len(errors) - 1} more problem{'s' if len(errors) > 2 else ''})" if len(errors) > 1 else ""
    message = first["msg"].removeprefix("Value error, ")
    if first["type"] == "missing":
        message = "required field is missing"
    elif first["type"] == "extra_forbidden":
        message = "unknown field"
    return ScenarioError(f"{source}: {_location(first['loc'])}: {message}{more}")


def player_actions(rulebook: Rulebook) -> list[str]:
    """Every action name a player can take in ``rulebook``'s machines, sorted."""
    return sorted({t.event for spec in rulebook.specs.values() for t in spec.transitions if t.is_player_action})


def _check_names(scenario: Scenario, rulebook: Rulebook, source: str) -> None:
    """The domain layer: actions and states must exist in the machines."""
    actions = set(player_actions(rulebook))
    transitions = {t.id for spec in rulebook.specs.values() for t in spec.transitions}
    transitions |= {f"{spec.id}.{t.id}" for spec in rulebook.specs.values() for t in spec.transitions}

    def action(item: str, text: str) -> None:
        name = text.split(" ", 1)[0]
        if name not in actions:
            raise ScenarioError(f"{source}: {item}: unknown action {name!r}; actions: {', '.join(sorted(actions))}")

    def state(item: str, path: str) -> None:
        try:
            rulebook.resolve_path(path)
        except KeyError:
            raise ScenarioError(f"{source}: {item}: unknown state path {path!r}; a path starts with a state "
                                f"of the turn machine: {', '.join(rulebook.specs['turn'].state_ids())}") from None

    try:
        placement_uids(scenario.setup)
    except ValueError as exc:
        raise ScenarioError(f"{source}: setup.{exc}") from None
    scenario.setup = card_id_uids(scenario.setup)  # a card given no uid is named by its card id
    uids = set(placement_uids(scenario.setup).values())
    uids |= {monster_uid(p, i) for p in scenario.setup.players for i in range(len(scenario.setup.players[p].monsters))}

    def card(item: str, uid: str) -> None:
        if uid not in uids:
            raise ScenarioError(f"{source}: {item}: unknown card {uid!r}; the setup names: {', '.join(sorted(uids))}")

    turn_states = rulebook.specs["turn"].state_ids()
    if scenario.setup.phase not in turn_states:
        raise ScenarioError(f"{source}: setup.phase: unknown phase {scenario.setup.phase!r}; "
                            f"states of the turn machine: {', '.join(turn_states)}")
    for index, step in enumerate(scenario.steps):
        where = f"steps[{index}]"
        if isinstance(step, DoStep):
            for number, name in enumerate(step.do):
                action(f"{where}.do" if len(step.do) == 1 else f"{where}.do[{number}]", name)
        elif isinstance(step, RefuseStep):
            action(f"{where}.refuse", step.refuse)
        elif isinstance(step, PassUntilStep):
            state(f"{where}.pass_until", step.pass_until)
        else:
            expect = step.expect
            if expect.state is not None:
                state(f"{where}.expect.state", expect.state)
            for key in ("legal", "not_legal"):
                for number, name in enumerate(getattr(expect, key)):
                    action(f"{where}.expect.{key}[{number}]", name)
            for uid in (*expect.cards, *expect.positions, *expect.atk, *expect.defence, *(expect.attacked or ())):
                card(f"{where}.expect", uid)
            for link in expect.chain or ():
                card(f"{where}.expect.chain", link.card)
            for resolved in expect.resolved or ():
                card(f"{where}.expect.resolved", resolved if isinstance(resolved, str) else resolved.card)
            if expect.attack is not None:
                for uid in (expect.attack.attacker, expect.attack.target, *(expect.attack.destroyed or ())):
                    if uid is not None and uid != "direct":
                        card(f"{where}.expect.attack", uid)
            for key in ("taken", "not_taken"):
                for number, name in enumerate(getattr(expect, key)):
                    if name not in transitions:
                        raise ScenarioError(f"{source}: {where}.expect.{key}[{number}]: unknown transition {name!r}; "
                                            "give a transition id from machines/*.yaml (or machine.id)")


def parse_scenario(text: str, *, source: str = "<scenario>", rulebook: Rulebook | None = None,
                   library: Mapping[str, CardSpec] | None = None) -> Scenario:
    """Parse scenario YAML text; ``source`` names it in errors (and locates its ``library:``
    files). ``library``: more cards to play with (``ygo-fsm run --cards``). Raises
    :class:`ScenarioError`."""
    try:
        raw = parse_yaml(text, source=source)
    except YamlInputError as exc:
        raise ScenarioError(str(exc)) from exc
    if not isinstance(raw, dict):
        raise ScenarioError(f"{source}: (file): expected a mapping with name, rule, setup and steps")
    try:
        scenario = Scenario.model_validate(raw)
    except ValidationError as exc:
        raise _schema_error(source, exc) from exc
    scenario._cards = scenario_library(scenario, raw, source, extra=library)
    _check_placements(scenario, source)
    _check_names(scenario, rulebook or default_rulebook(), source)
    scenario._file = source
    return scenario


def scenario_library(scenario: Scenario, raw: dict[str, Any], source: str,
                     extra: Mapping[str, CardSpec] | None = None) -> dict[str, CardSpec] | None:
    """The library a scenario plays with: the built-in cards, ``extra`` (cards given on the
    command line), the cards of its ``library:`` files (relative to ``source``), then its own
    ``cards:``. A card id given twice — a scenario card reusing a built-in id included — is an
    error naming the file and the card; so is any card that fails the semantic checks."""
    if not scenario.library and not scenario.cards and extra is None:
        return None
    base = Path(source).parent
    layers: list[tuple[str, Mapping[str, CardSpec]]] = [("the built-in library", default_library())]
    if extra is not None:
        layers.append(("--cards", extra))
    for number, name in enumerate(scenario.library):
        found, problems = read_card_file(base / name)
        if problems:
            raise ScenarioError(f"{source}: library[{number}]: {problems[0]}")
        layers.append((name, found))
    if scenario.cards:
        own, problems = parse_cards(raw.get("cards"), source=f"{source}: cards")
        if problems:
            raise ScenarioError(problems[0])
        layers.append(("cards", own))
    merged: dict[str, CardSpec] = {}
    origin: dict[str, str] = {}
    for where, cards in layers:
        for card_id, card in cards.items():
            if card_id in merged and merged[card_id] != card:
                raise ScenarioError(f"{source}: {where}: card {card_id}: the id is already used by {origin[card_id]} "
                                    "(a scenario's cards may not shadow another card: give it its own id)")
            merged[card_id] = card
            origin.setdefault(card_id, where)
    return merge(merged)


def _check_placements(scenario: Scenario, source: str) -> None:
    """Every card the setup places is in the scenario's library."""
    library = scenario.card_library or default_library()
    for player, setup in scenario.setup.players.items():
        for index, placement in enumerate(setup.cards):
            if placement.card not in library:
                raise ScenarioError(f"{source}: setup.players.{player}.cards[{index}].card: unknown card "
                                    f"{placement.card!r}; give it in cards: or a library: file")


def load_scenario(path: Path | str, *, rulebook: Rulebook | None = None,
                  library: Mapping[str, CardSpec] | None = None) -> Scenario:
    """Read and validate a scenario file. Raises :class:`ScenarioError` (one line)."""
    path = Path(path)
    try:
        text = read_text(path)
    except YamlInputError as exc:
        raise ScenarioError(str(exc)) from exc
    return parse_scenario(text, source=str(path), rulebook=rulebook, library=library)
