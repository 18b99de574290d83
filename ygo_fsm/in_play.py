"""A player's effects in play: which effects of which of their cards can be used from where
those cards are — the scan every activation chooser starts from (:func:`effects_of`), and its
sorts by what the card data says (:func:`effects_of_sort`: open-state, phase, trigger,
response, CHAIN1), kept in ``game.card_scans`` while no card moves
(:data:`~ygo_fsm.registry.CARDS_STAY`)."""

from __future__ import annotations

from collections.abc import Callable, Collection

from .cards import CardSpec, CardType, EffectSpec, Location
from .game import FIELD_ZONES, PLAYERS, Zone
from .state import ZONE_ATTRIBUTES, CardInstance, GameState

__all__ = ["LOCATION_ZONES", "SET_ZONES", "SORTS", "SORT_KEYS", "EffectInPlay", "effects_of", "effects_of_sort"]

SET_ZONES = (Zone.spell_trap, Zone.field_zone)
"""Where a Spell/Trap Card can be Set: a Spell & Trap Zone, or the Field Zone for a Field Spell."""

LOCATION_ZONES: dict[Location, tuple[Zone, ...]] = {
    Location.hand: (Zone.hand, *SET_ZONES),  # a spell may be Set first, then activated
    Location.field: FIELD_ZONES,
    Location.set: SET_ZONES,
    Location.graveyard: (Zone.graveyard,),
    Location.lingering: (Zone.lingering,),
}
"""The zones a card must be in for an effect of each location."""
assert set(LOCATION_ZONES) == set(Location), "every effect location needs its zones"
_EFFECT_ZONES: tuple[tuple[Zone, str], ...] = tuple(
    (zone, ZONE_ATTRIBUTES[zone]) for zone in Zone if any(zone in zones for zones in LOCATION_ZONES.values()))
"""The zones a card with effects can use them from, in zone order: never the deck or the banished cards, so
the scan of a player's effects does not walk a 40-card deck on every call."""


_USABLE: dict[Zone, dict[int, tuple[CardSpec, tuple[tuple[int, EffectSpec], ...]]]] = {
    zone: {} for zone, _ in _EFFECT_ZONES}
"""For each zone, by card spec: the spec's effects whose location allows that zone
(an effect is never used from another) and any effect that forbids something (read
wherever the card is), worked out once per card spec."""


def _usable_effects(spec: CardSpec, zone: Zone) -> tuple[tuple[int, EffectSpec], ...]:
    table = _USABLE[zone]
    entry = table.get(id(spec))
    if entry is None or entry[0] is not spec:
        usable = tuple((index, effect) for index, effect in enumerate(spec.effects)
                       if zone in LOCATION_ZONES[effect.location] or effect.forbids)
        entry = table[id(spec)] = (spec, usable)
    return entry[1]


EffectInPlay = tuple[Zone, CardInstance, int, EffectSpec]


def effects_of(game: GameState, player: str) -> list[tuple[Zone, CardInstance, int, EffectSpec]]:
    """Every effect of ``player``'s cards in a zone some effect location allows, zone by zone
    (kept in ``game.card_scans`` while no card moves; none at once in a duel none of whose cards has
    an effect, :meth:`~ygo_fsm.state.GameState.has_effect_cards`)."""
    scans = game.card_scans
    if scans is not None:
        cached = scans.get(player)
        if cached is not None:
            return cached  # type: ignore[return-value]
    found = _scanned(game, player) if game.has_effect_cards() else []  # Normal Monsters only: nothing to scan
    if scans is not None:
        scans[player] = found
        if not found:  # nor has the player any effect of a sort (:func:`effects_of_sort`)
            for sort_key in _PLAYER_SORT_KEYS[player]:
                scans[sort_key] = found
    return found


def _scanned(game: GameState, player: str) -> list[EffectInPlay]:
    """:func:`effects_of`, scanned zone by zone."""
    state = game.players[player]
    negated = {e.uid for e in game.expiring if e.kind == "negated"} if game.expiring else ()  # negate_effects … until
    found: list[EffectInPlay] = []
    for zone, attribute in _EFFECT_ZONES:
        cards = getattr(state, attribute)
        if not cards:
            continue
        if negated and zone is Zone.monster:
            found += _zone_effects(zone, cards, negated)
            continue
        key = (zone, tuple(cards))
        entries = _ZONE_EFFECTS.get(key)
        if entries is None:
            if len(_ZONE_EFFECTS) >= _ZONE_EFFECTS_LIMIT:
                _ZONE_EFFECTS.clear()
            entries = _ZONE_EFFECTS[key] = tuple(_zone_effects(zone, cards, ()))
        found += entries
    return found


_ZONE_EFFECTS: dict[tuple[Zone, tuple[CardInstance, ...]], tuple[EffectInPlay, ...]] = {}
""":func:`_zone_effects` of a zone holding these very cards in this order, with no negation: a card
keeps its library card, so the same cards give the same effects (a bounded table, emptied when full;
it holds the cards themselves, so an entry never stands for other cards)."""
_ZONE_EFFECTS_LIMIT = 4096


def _zone_effects(zone: Zone, cards: list[CardInstance], negated: Collection[str]) -> list[EffectInPlay]:
    """The usable effects of ``cards`` in ``zone``, card by card; a monster whose uid is in
    ``negated`` has none (its effects are negated)."""
    table = _USABLE[zone]
    found: list[EffectInPlay] = []
    for card in cards:
        spec = card.card
        if spec is None or not spec.effects:
            continue
        if negated and card.uid in negated and zone is Zone.monster and spec.type is CardType.monster:
            continue  # its effects are negated
        entry = table.get(id(spec))
        usable = entry[1] if entry is not None and entry[0] is spec else _usable_effects(spec, zone)
        for index, effect in usable:
            found.append((zone, card, index, effect))
    return found


SORTS: dict[str, Callable[[EffectSpec], bool]] = {
    "open_state": lambda effect: effect.starts_chain_link and (
        effect.phase is not None or not (effect.is_trigger_like or effect.events)),
    "phase": lambda effect: effect.phase is not None,
    "trigger": lambda effect: effect.is_trigger_like and effect.phase is None and bool(effect.events),
    "response": lambda effect: effect.phase is None and not effect.is_trigger_like,
    "chain1": lambda effect: effect.phase is None and not effect.is_trigger_like and effect.starts_chain_link,
}
"""Sorts of effects by what their card data says (never by the game): each chooser below reads only
its sort (a trigger, a phase effect …) and skips the rest before looking at the game."""


SORT_KEYS = {sort: {player: f"{sort}:{player}" for player in PLAYERS} for sort in SORTS}
"""The ``card_scans`` key of each sort and player, made once (a key looked up is not built again)."""
_PLAYER_SORT_KEYS = {player: tuple(keys[player] for keys in SORT_KEYS.values()) for player in PLAYERS}
"""A player's keys of every sort."""


_EFFECT_SORTS: dict[int, tuple[EffectSpec, frozenset[str]]] = {}
"""By effect: the sorts of :data:`SORTS` it belongs to, worked out once per effect (they read only
its card data; the entry holds the effect itself, so it never stands for another; a bounded table)."""


def _sorts_of(effect: EffectSpec) -> frozenset[str]:
    entry = _EFFECT_SORTS.get(id(effect))
    if entry is None or entry[0] is not effect:
        if len(_EFFECT_SORTS) >= _ZONE_EFFECTS_LIMIT:
            _EFFECT_SORTS.clear()  # bounded, as the zones' table is
        entry = _EFFECT_SORTS[id(effect)] = (effect, frozenset(sort for sort, keep in SORTS.items() if keep(effect)))
    return entry[1]


def effects_of_sort(game: GameState, player: str, sort: str) -> list[EffectInPlay]:
    """The effects of :func:`effects_of` of one sort of :data:`SORTS`, in the same order: the
    choosers return at once for a player with none (kept in ``game.card_scans`` beside
    :func:`effects_of`'s list, of which it is a fixed filter, so it holds exactly as long)."""
    scans = game.card_scans
    key = SORT_KEYS[sort][player]
    if scans is not None:
        cached = scans.get(key)
        if cached is not None:
            return cached  # type: ignore[return-value]
    found = effects_of(game, player)
    if found:
        found = _of_sort(found, sort)
    if scans is not None:
        scans[key] = found
    return found


def _of_sort(found: list[EffectInPlay], sort: str) -> list[EffectInPlay]:
    # of its own: effects_of_sort makes no closure cells (tests/test_hot_paths.py)
    return [entry for entry in found if sort in _sorts_of(entry[3])]
