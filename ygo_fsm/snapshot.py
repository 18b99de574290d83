"""The canonical document of a game state: JSON out, validated JSON in, equality and a key.

:func:`game_document` turns a :class:`~ygo_fsm.state.GameState` into plain JSON data in one
canonical form — zones in order, sets sorted, enums by their YAML ids, cards by their library
id — so that two states are equal exactly when their documents are, and
:func:`state_key` (a SHA-256 of the canonical JSON text) is the same for equal states in any
process. :func:`game_from_document` reads a document back through the pydantic model
:class:`GameDocument` (which is also the published JSON Schema) and then checks what a schema
cannot: every card id is in the library, no card is in two places, no zone holds more cards
than it has, and the frames are a stack the declared machines can be in. Any problem raises
:class:`~ygo_fsm.errors.StateFormatError` naming the field; nothing half-built escapes.

>>> from ygo_fsm import Duel
>>> duel = Duel()
>>> document = game_document(duel.game)
>>> document["frames"][0]
{'machine': 'turn', 'state': 'draw_phase', 'invoked_as': None, 'parent': None}
>>> game_document(game_from_document(document, library=duel.library,
...                                  state_specs=duel.rulebook.state_specs)) == document
True
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
from collections.abc import Mapping
from enum import Enum
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from .cards import CardSpec, SpecialSummonCost
from .errors import StateFormatError
from .game import (
    FIELD_ZONE_CAPACITY,
    MONSTER_ZONES,
    PLAYERS,
    SPELL_TRAP_ZONES,
    HandLimitEffect,
    Position,
    Profile,
    Setup,
    TurnEffect,
    Zone,
)
from .rng import DuelRandom
from .spec import StateSpec
from .state import (
    ZONE_ATTRIBUTES,
    Attack,
    CardInstance,
    Expiry,
    Frame,
    GameState,
    Link,
    Occurrence,
    PlayerState,
    Summon,
    SummonKind,
    Window,
)
from .trace import TraceRecord

FORMAT_VERSION = 1
"""The version of the state document; a document of another version is refused."""

_ZONE_CAPACITY = {Zone.monster: MONSTER_ZONES, Zone.spell_trap: SPELL_TRAP_ZONES, Zone.field_zone: FIELD_ZONE_CAPACITY}


# --- out: the canonical document ----------------------------------------------------------


def _sort_key(value: Any) -> str:
    return json.dumps(value, sort_keys=True, ensure_ascii=False)


def _encode(value: Any) -> Any:
    """Plain JSON data for one value of the live state, in canonical form."""
    if value is None or isinstance(value, (bool, int, str)):
        return value
    if isinstance(value, Enum):
        return value.value
    if isinstance(value, CardInstance):
        return card_document(value)
    if isinstance(value, (set, frozenset)):
        return sorted((_encode(item) for item in value), key=_sort_key)
    if isinstance(value, (list, tuple)):
        return [_encode(item) for item in value]
    if isinstance(value, dict):
        return {str(_encode(key)): _encode(item) for key, item in value.items()}
    if isinstance(value, BaseModel):
        return value.model_dump(mode="json")
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: _encode(getattr(value, f.name)) for f in dataclasses.fields(value)}
    raise TypeError(f"no canonical form for {type(value).__name__}")


def card_document(card: CardInstance) -> dict[str, Any]:
    """One card: every per-card attribute, the library card by its id."""
    data: dict[str, Any] = {}
    for slot in CardInstance.__slots__:
        value = getattr(card, slot)
        data[slot] = value.id if slot == "card" and value is not None else _encode(value)
    return data


def _player_document(state: PlayerState) -> dict[str, Any]:
    return {
        "lp": state.lp,
        "unnamed": {"hand": state.unnamed_hand, "deck": state.deck - len(state.deck_cards),
                    "graveyard": state.graveyard - len(state.graveyard_cards)},
        "hand_limit": _encode(state.hand_limit),
        "zones": {zone.value: [card_document(card) for card in state.zone_list(zone)] for zone in Zone},
    }


def game_document(game: GameState) -> dict[str, Any]:
    """The canonical document of ``game`` (plain JSON data)."""
    return {
        "profile": game.profile.value,
        "turn": game.turn,
        "turn_player": game.turn_player,
        "players": {player: _player_document(game.players[player]) for player in PLAYERS},
        "turn_effects": {str(turn): sorted(effect.value for effect in effects)
                         for turn, effects in sorted(game.turn_effects.items()) if effects},
        "chain": _encode(game.chain),
        "chain_finished": game.chain_finished,
        "events": _encode(game.events),
        "window": _encode(game.window),
        "handled": _encode(game.handled),
        "last_action_summon": game.last_action_summon,
        "normal_summon_turn": game.normal_summon_turn,
        "attack": _encode(game.attack),
        "last_attack": _encode(game.last_attack),
        "battle_phase_number": game.battle_phase_number,
        "summon": _encode(game.summon),
        "used_once": _encode(game.used_once),
        "draw_replaced_turn": game.draw_replaced_turn,
        "leaving_after_chain": _encode(game.leaving_after_chain),
        "expiring": _encode(game.expiring),
        "discard_chosen": list(game.discard_chosen),
        "frames": [{"machine": f.machine, "state": f.state, "invoked_as": f.invoked_as, "parent": f.parent}
                   for f in game.frames],
        "outcome": {"is_over": game.is_over, "winner": game.winner, "end_reason": game.end_reason},
        "rng": {"state": game.rng.text} if game.rng is not None else None,
    }


def canonical_json(data: Any) -> str:
    """The one JSON text of ``data``: sorted keys, no spaces, UTF-8 characters as they are."""
    return json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def state_key(game: GameState) -> str:
    """A stable hash of the game state: equal states give the same key in every process."""
    return hashlib.sha256(canonical_json(game_document(game)).encode("utf-8")).hexdigest()


# --- in: the validated document -----------------------------------------------------------


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class CardDocument(_Strict):
    """One card in a zone (or the monster being summoned)."""

    uid: str = Field(min_length=1)
    card: str | None
    """The library card's id; ``None`` for a monster given only by its name and stats."""
    name: str
    owner: Literal["A", "B"]
    atk: int = Field(ge=0)
    defence: int = Field(ge=0)
    level: int = Field(ge=0, le=12)
    race: str
    position: Position
    face_up: bool
    set_turn: int = Field(ge=0)
    destroyed_turn: int | None = Field(ge=0)
    summoned_by_own_effect: bool
    attacked_battle_phase: int = Field(ge=0)
    summoned_turn: int = Field(ge=0)
    position_changed_turn: int = Field(ge=0)
    attacked_turn: int = Field(ge=0)
    arrival: int = Field(ge=0)
    battled_turn: int = Field(default=0, ge=0)
    equipped_to: str = ""
    """For an Equip Card: the field identity of the monster it is equipped to."""


class UnnamedCounts(_Strict):
    """Cards no action names: only their number is known."""

    hand: int = Field(ge=0)
    deck: int = Field(ge=0)
    graveyard: int = Field(ge=0)


class PlayerDocument(_Strict):
    lp: int = Field(ge=0)
    unnamed: UnnamedCounts
    hand_limit: HandLimitEffect | None
    zones: dict[Zone, list[CardDocument]]


class SummonDocument(_Strict):
    uid: str
    kind: SummonKind
    player: Literal["A", "B"]
    tributes_needed: int = Field(ge=0)
    tributes: list[str]
    negated: bool
    cost: SpecialSummonCost | None
    card: CardDocument | None
    deferred: list[Occurrence]


class FrameDocument(_Strict):
    machine: str
    state: str
    invoked_as: str | None
    parent: str | None


class OutcomeDocument(_Strict):
    is_over: bool
    winner: Literal["A", "B"] | None
    end_reason: str


class RngDocument(_Strict):
    """The duel's random number generator (:class:`~ygo_fsm.rng.DuelRandom`): its 64-bit state."""

    state: str = Field(pattern=r"^[0-9a-f]{16}$")


class GameDocument(_Strict):
    """The game state of a duel (``Duel.to_json()["game"]``)."""

    profile: Profile
    turn: int = Field(ge=1)
    turn_player: Literal["A", "B"]
    players: dict[Literal["A", "B"], PlayerDocument]
    turn_effects: dict[int, list[TurnEffect]]
    chain: list[Link]
    chain_finished: bool
    events: list[Occurrence]
    window: Window | None
    handled: list[tuple[str, int, int, str]]
    last_action_summon: bool
    normal_summon_turn: int = Field(ge=0)
    attack: Attack | None
    last_attack: Attack | None
    battle_phase_number: int = Field(ge=0)
    summon: SummonDocument | None
    used_once: list[tuple[str, int, int]]
    draw_replaced_turn: int = Field(ge=0)
    leaving_after_chain: list[tuple[str, bool]] = Field(default_factory=list)
    expiring: list[Expiry]
    discard_chosen: list[str] = Field(default_factory=list)
    """The cards chosen so far at the hand size adjustment (uids, ``unnamed``)."""
    frames: list[FrameDocument] = Field(min_length=1)
    outcome: OutcomeDocument
    rng: RngDocument | None = None
    """``None`` (or absent) when the duel has no seed."""


def _location(error: Any) -> str:
    return ".".join(str(part) for part in error["loc"]) or "(document)"


def _card(document: CardDocument, library: Mapping[str, CardSpec], where: str) -> CardInstance:
    spec = None
    if document.card is not None:
        spec = library.get(document.card)
        if spec is None:
            raise StateFormatError(f"{where}.card: unknown card {document.card!r}")
    card = CardInstance(document.uid, document.owner, card=spec)
    for slot in CardInstance.__slots__:
        if slot != "card":
            setattr(card, slot, getattr(document, slot))
    return card


def _player(document: PlayerDocument, player: str, library: Mapping[str, CardSpec]) -> PlayerState:
    state = PlayerState.__new__(PlayerState)
    state.lp = document.lp
    state.hand_limit = document.hand_limit
    for zone in Zone:
        cards = document.zones.get(zone, [])
        capacity = _ZONE_CAPACITY.get(zone)
        if capacity is not None and len(cards) > capacity:
            raise StateFormatError(f"game.players.{player}.zones.{zone.value}: {len(cards)} cards in "
                                   f"{capacity} zones")
        setattr(state, ZONE_ATTRIBUTES[zone],
                [_card(card, library, f"game.players.{player}.zones.{zone.value}[{index}]")
                 for index, card in enumerate(cards)])
    state.hand = document.unnamed.hand + len(state.hand_cards)
    state.deck = document.unnamed.deck + len(state.deck_cards)
    state.graveyard = document.unnamed.graveyard + len(state.graveyard_cards)
    return state


def _check_frames(frames: list[FrameDocument], state_specs: Mapping[tuple[str, str], StateSpec],
                  *, over: bool = False) -> None:
    expected_machine: str | None = "turn"
    parent: FrameDocument | None = None
    for index, frame in enumerate(frames):
        where = f"game.frames[{index}]"
        if expected_machine is None:
            raise StateFormatError(f"{where}: {parent.machine if parent else ''}.{parent.state if parent else ''} "
                                   "runs no machine, so no frame can follow it")
        if frame.machine != expected_machine:
            raise StateFormatError(f"{where}.machine: {frame.machine!r} where {expected_machine!r} runs")
        spec = state_specs.get((frame.machine, frame.state))
        if spec is None:
            raise StateFormatError(f"{where}.state: machine {frame.machine!r} has no state {frame.state!r}")
        want_invoked, want_parent = (parent.state, parent.machine) if parent else (None, None)
        if (frame.invoked_as, frame.parent) != (want_invoked, want_parent):
            raise StateFormatError(f"{where}: entered from {frame.parent}.{frame.invoked_as}, but the frame "
                                   f"below is {want_parent}.{want_invoked}")
        expected_machine, parent = spec.machine, frame
    if expected_machine is not None and parent is not None and not over:  # an ended duel enters no machine
        raise StateFormatError(f"game.frames: {parent.machine}.{parent.state} runs machine "
                               f"{expected_machine!r}, but no frame of it follows")


def game_from_document(data: Any, *, library: Mapping[str, CardSpec],
                       state_specs: Mapping[tuple[str, str], StateSpec]) -> GameState:
    """The game state a document describes; :class:`StateFormatError` naming the field if it
    is not one the declared machines and the card library allow."""
    try:
        document = GameDocument.model_validate(data)
    except ValidationError as exc:
        first = exc.errors()[0]
        raise StateFormatError(f"game.{_location(first)}: {first['msg']}") from None
    players: dict[str, PlayerState] = {p: _player(document.players[p], p, library)
                                       for p in PLAYERS if p in document.players}
    missing = [p for p in PLAYERS if p not in players]
    if missing:
        raise StateFormatError(f"game.players: player {missing[0]} is missing")
    seen: dict[str, str] = {}
    for player, state in players.items():
        for zone, card in state.all_cards():
            where = f"{player}.{zone.value}"
            if card.uid in seen:
                raise StateFormatError(f"game.players.{where}: card {card.uid!r} is also in {seen[card.uid]}")
            seen[card.uid] = where
    _check_frames(document.frames, state_specs, over=document.outcome.is_over)
    game = GameState(profile=document.profile, turn=document.turn, turn_player=document.turn_player,
                     library=library, state_specs=state_specs, players=players)
    game.turn_effects = {turn: frozenset(effects) for turn, effects in document.turn_effects.items()}
    game.chain = list(document.chain)
    game.chain_finished = document.chain_finished
    game.events = list(document.events)
    game.window = document.window
    game.handled = set(document.handled)
    game.last_action_summon = document.last_action_summon
    game.normal_summon_turn = document.normal_summon_turn
    game.attack = document.attack
    game.last_attack = document.last_attack
    game.battle_phase_number = document.battle_phase_number
    if document.summon is not None:
        summon = document.summon
        game.summon = Summon(summon.uid, summon.kind, summon.player, summon.tributes_needed, list(summon.tributes),
                             summon.negated, summon.cost,
                             _card(summon.card, library, "game.summon.card") if summon.card else None,
                             list(summon.deferred))
    game.used_once = set(document.used_once)
    game.draw_replaced_turn = document.draw_replaced_turn
    game.leaving_after_chain = [(uid, lingers) for uid, lingers in document.leaving_after_chain]
    game.expiring = list(document.expiring)
    game.discard_chosen = list(document.discard_chosen)
    game.frames = [Frame(game, f.machine, f.state, f.invoked_as, f.parent) for f in document.frames]
    game.is_over, game.winner = document.outcome.is_over, document.outcome.winner
    game.end_reason = document.outcome.end_reason
    game.rng = DuelRandom.from_text(document.rng.state) if document.rng is not None else None
    return game


def game_json_schema() -> dict[str, Any]:
    """The JSON Schema of the game-state document."""
    return GameDocument.model_json_schema()


# --- the whole duel: setup, history, game state, trace --------------------------------------


class ActionDocument(_Strict):
    """One action of the history: its name, the player who took it and the option chosen."""

    name: str = Field(min_length=1)
    player: Literal["A", "B"]
    choice: str | None = None


class DuelDocument(_Strict):
    """A saved duel (``Duel.to_json()``): where it started, what was done, where it is now.

    ``game`` is the game state (what ``==`` and ``state_key()`` compare); ``setup`` and
    ``history`` let it be replayed (``Duel.replay``); ``seq`` and ``resolutions`` continue the
    trace's numbering; ``trace`` holds the records when saved with ``trace=True``.
    """

    format: Literal["ygo-fsm/duel"]
    version: Literal[1]
    setup: Setup
    history: list[ActionDocument]
    seq: int = Field(ge=0)
    resolutions: list[tuple[int, int, str, bool]]
    game: dict[str, Any]
    trace: list[TraceRecord] | None = None


def duel_json_schema() -> dict[str, Any]:
    """The JSON Schema of a saved duel, its game state included."""
    schema = DuelDocument.model_json_schema()
    game = GameDocument.model_json_schema()
    definitions = schema.setdefault("$defs", {})
    definitions.update(game.pop("$defs", {}))
    definitions["GameDocument"] = game
    schema["properties"]["game"] = {"$ref": "#/$defs/GameDocument"}
    return schema


def read_duel_document(text: str | bytes) -> DuelDocument:
    """Parse and validate a saved duel's outer document (the game state is checked by
    :func:`game_from_document`)."""
    try:
        data = json.loads(text)
    except (ValueError, RecursionError) as exc:
        raise StateFormatError(f"(document): not JSON: {exc}") from None
    try:
        return DuelDocument.model_validate(data)
    except ValidationError as exc:
        first = exc.errors()[0]
        raise StateFormatError(f"{_location(first)}: {first['msg']}") from None
