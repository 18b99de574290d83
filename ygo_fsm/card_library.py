"""Card files and the built-in library: reading a card file (safe YAML) and checking every
card, loading and merging libraries, the packaged library (``ygo_fsm/data/cards.yaml``), and
Python resolutions registered for library users (``{op: callable, name: NAME}``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from .card_checks import card_problems
from .card_models import CardSpec
from .errors import ScenarioError
from .yamlio import YamlInputError, load_yaml

Resolution = Callable[[Any, Any], None]
"""A Python resolution: called with (duel, link)."""

RESOLUTIONS: dict[str, Resolution] = {}


def register_resolution(name: str) -> Callable[[Resolution], Resolution]:
    """Register a Python resolution usable as ``{op: callable, name: NAME}`` in card data."""

    def decorate(func: Resolution) -> Resolution:
        RESOLUTIONS[name] = func
        return func

    return decorate


def library_path() -> Path:
    packaged = resources.files("ygo_fsm").joinpath("data", "cards.yaml")
    return Path(str(packaged))


def read_card_file(path: str | Path) -> tuple[dict[str, CardSpec], list[str]]:
    """Read a card file (safe YAML; the library format: a mapping with a ``cards`` list) and check
    every card. Returns the cards that are valid and one line per problem, each naming the file,
    the card, the effect and the field."""
    path = Path(path)
    try:
        raw = load_yaml(path)
    except YamlInputError as exc:
        return {}, [f"{path}: {exc.where}: card library: {exc.problem}"]
    return parse_cards(raw, source=str(path))


def parse_cards(raw: object, *, source: str) -> tuple[dict[str, CardSpec], list[str]]:
    """Validate already-read card data (``{cards: [...]}`` or a list of cards): the cards that are
    valid, and one line per problem (``source: card ID: effects[i] (kind): field: message``)."""
    items = raw.get("cards") if isinstance(raw, dict) else raw
    if isinstance(raw, dict) and set(raw) - {"cards"}:
        return {}, [f"{source}: unknown field(s) {', '.join(sorted(map(str, set(raw) - {'cards'})))}; "
                    "a card file is a mapping with a 'cards' list"]
    if not isinstance(items, list):
        return {}, [f"{source}: expected a mapping with a 'cards' list"]
    cards: dict[str, CardSpec] = {}
    problems: list[str] = []
    for index, item in enumerate(items):
        name = item.get("id", f"cards[{index}]") if isinstance(item, dict) else f"cards[{index}]"
        try:
            card = CardSpec.model_validate(item)
        except ValidationError as exc:
            for error in exc.errors():
                where = _field_path(error["loc"])
                problems.append(f"{source}: card {name}: {where}: {error['msg'].removeprefix('Value error, ')}")
            continue
        if card.id in cards:
            problems.append(f"{source}: card {card.id}: duplicate card id")
            continue
        found = card_problems(card)
        problems += [f"{source}: card {card.id}: {line}" for line in found]
        if not found:
            cards[card.id] = card
    return cards, problems


def _field_path(loc: tuple[int | str, ...]) -> str:
    text = ""
    for part in loc:
        text += f"[{part}]" if isinstance(part, int) else (f".{part}" if text else str(part))
    return text or "(card)"


def load_library(path: str | Path | None = None) -> dict[str, CardSpec]:
    """Read a card library file (safe YAML) and check it. Raises :class:`ScenarioError` with one
    line naming the file, the card, the effect and the field of the first problem.

    >>> sorted(load_library(library_path()))[:2]
    ['apophis_avatar', 'beetle_armor_knight']
    """
    cards, problems = read_card_file(library_path() if path is None else path)
    if problems:
        more = f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""
        raise ScenarioError(problems[0] + more)
    return cards


def merge(*libraries: Mapping[str, CardSpec], shadow: bool = False) -> dict[str, CardSpec]:
    """One library from several, in order. A card id given twice is an error unless ``shadow``
    (then the later card wins): a user's card never silently replaces a built-in one.

    >>> mine = default_library()["cyclone"].model_copy(update={"name_ja": "my cyclone"})
    >>> merge(default_library(), {"cyclone": mine})
    Traceback (most recent call last):
    ...
    ygo_fsm.errors.ScenarioError: card cyclone: the id is already in the library (give the card its own id)
    """
    merged: dict[str, CardSpec] = {}
    for library in libraries:
        for card_id, card in library.items():
            if card_id in merged and not shadow and merged[card_id] != card:
                raise ScenarioError(f"card {card_id}: the id is already in the library (give the card its own id)")
            merged[card_id] = card
    return merged


@lru_cache(maxsize=1)
def default_library() -> dict[str, CardSpec]:
    """The built-in card library, loaded once."""
    return load_library()
