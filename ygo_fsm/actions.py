"""The integer action space: every player action as one integer, from the acting player's side.

An action is an event (``pass``, ``activate`` …) and, for events with choices, an option key
naming cards by uid (``activate cyclone>apophis_avatar``). The integer names the same action
by *where* its cards are, seen from the player who must act — so the same legal action in the
same position always gets the same index, whoever the card is:

``kind``
    The event. The kinds and their order are fixed (:data:`SIMPLE_KINDS`, :data:`CARD_KINDS`,
    :data:`TARGET_KINDS`, :data:`EFFECT_KINDS`); every player event the machines declare has one
    (a test checks it), and :data:`KIND_BASE` gives each kind's first index.
source slot
    One of the acting player's own card slots (:data:`OWN_ZONES`, in this order): hand 0–59,
    monster zones 0–4, spell/trap zones 0–4, the Field Zone, graveyard 0–59, lingering 0–4 —
    136 slots, plus slot 136 for ``unnamed`` (a card no action names, at the hand size
    adjustment).
effect
    The card's effect number, 0–2 (``uid#2`` is effect 1).
target slot
    A card an effect can target, on either side (:data:`TARGET_ZONES`): own monster zones 0–4,
    own spell/trap zones 5–9, own Field Zone 10, the opponent's monster zones 11–15, spell/trap
    zones 16–20 and Field Zone 21, then the graveyards — own 22–81, the opponent's 82–141; 142 is
    no target (or, for ``choose_target``, a direct attack). An effect taking several targets
    (``target_count:``) names its first one on activation and each further one with its own
    ``add_target`` action (:mod:`ygo_fsm.multi_target`), so every option has one target slot.

Simple kinds take one index; card kinds ``137`` (source slot); target kinds 143 (target
slot); effect kinds ``136 × 3 × 143`` (``(slot × 3 + effect) × 143 + target``), and ``process``
16 more for the 『…为止』 effects ending now (``until_…``, by their place in the duel's list of
such effects). :data:`NUM_DISTINCT_ACTIONS` counts them all. The kinds are laid out in the
order of :data:`KIND_ORDER`; kinds added later (:data:`LATER_KINDS`) come last, so that no index
an earlier kind had moves.

>>> from ygo_fsm import Duel
>>> duel = Duel()
>>> duel.legal_action_indices(), duel.action_to_string(0)
([0], 'pass')
>>> duel.apply_index(0)
>>> duel.priority
'B'
"""

from __future__ import annotations

import operator

from .effects import choice_key, expiring_now, parse_key
from .game import PLAYERS, Zone, other_player
from .state import CardInstance, GameState

__all__ = [
    "CARD_KINDS",
    "EFFECT_KINDS",
    "KIND_BASE",
    "KIND_ORDER",
    "LATER_KINDS",
    "NUM_DISTINCT_ACTIONS",
    "OWN_ZONES",
    "SIMPLE_KINDS",
    "TARGET_KINDS",
    "TARGET_ZONES",
    "ActionEncodingError",
    "as_integer",
    "card_places",
    "decode",
    "encode",
]

def as_integer(value: object) -> int | None:
    """``value`` as an ``int`` when it is an integer: an ``int``, or anything :func:`operator.index`
    takes (the numpy integer an agent's policy returns), but not a bool; else ``None`` (a float is
    never rounded to an index)."""
    if isinstance(value, bool):
        return None
    try:
        return operator.index(value)  # type: ignore[arg-type]  # anything else is not an integer
    except TypeError:
        return None


SIMPLE_KINDS: tuple[str, ...] = ("pass", "decline", "stop_attack", "enter_battle_phase", "enter_end_phase",
                                 "stop_targeting")
"""Events without options: one index each."""
CARD_KINDS: tuple[str, ...] = ("discard", "normal_summon", "set_monster", "flip_summon", "special_summon",
                               "change_position", "set_spell_trap", "tribute", "declare_attack")
"""Events whose option is one of the acting player's cards (a source slot)."""
TARGET_KINDS: tuple[str, ...] = ("choose_target", "add_target")
"""Events whose option is a card on the field or in a graveyard (a target slot); for
``choose_target`` also a direct attack."""
EFFECT_KINDS: tuple[str, ...] = ("activate", "respond", "process")
"""Events whose option is an effect of one of the acting player's cards, with its target."""

OWN_ZONES: tuple[tuple[Zone, int], ...] = (
    (Zone.hand, 60), (Zone.monster, 5), (Zone.spell_trap, 5), (Zone.field_zone, 1), (Zone.graveyard, 60),
    (Zone.lingering, 5))
"""The acting player's card slots, zone by zone, with how many each has (a deck holds at most 60)."""
TARGET_ZONES: tuple[tuple[bool, Zone, int], ...] = (
    (True, Zone.monster, 5), (True, Zone.spell_trap, 5), (True, Zone.field_zone, 1),
    (False, Zone.monster, 5), (False, Zone.spell_trap, 5), (False, Zone.field_zone, 1),
    (True, Zone.graveyard, 60), (False, Zone.graveyard, 60))
"""The target slots: (the acting player's side?, zone, slots)."""

_NAMED_ZONES = tuple(dict.fromkeys([zone for zone, _ in OWN_ZONES] + [zone for _, zone, _ in TARGET_ZONES]))

OWN_SLOTS = sum(size for _, size in OWN_ZONES)
UNNAMED_SLOT = OWN_SLOTS
CARD_SLOTS = OWN_SLOTS + 1
NO_TARGET = sum(size for _, _, size in TARGET_ZONES)
TARGET_SLOTS = NO_TARGET + 1
MAX_EFFECTS = 3
MAX_ENDING = 16
"""『…为止』 effects ending at once that ``process`` can name."""
EFFECT_BLOCK = OWN_SLOTS * MAX_EFFECTS * TARGET_SLOTS

LATER_KINDS: tuple[str, ...] = ("add_target", "stop_targeting")
"""Kinds added after the first layout: they take the indices after it."""
KIND_ORDER: tuple[str, ...] = tuple(
    kind for kind in (*SIMPLE_KINDS, *CARD_KINDS, *TARGET_KINDS, *EFFECT_KINDS) if kind not in LATER_KINDS
) + LATER_KINDS
"""The kinds in the order of their indices."""
_SIZES: dict[str, int] = {
    **{kind: 1 for kind in SIMPLE_KINDS},
    **{kind: CARD_SLOTS for kind in CARD_KINDS},
    **{kind: TARGET_SLOTS for kind in TARGET_KINDS},
    **{kind: EFFECT_BLOCK + (MAX_ENDING if kind == "process" else 0) for kind in EFFECT_KINDS},
}
KIND_BASE: dict[str, int] = {}
"""Each kind's first index, in the fixed order of the kinds (:data:`KIND_ORDER`)."""
_next = 0
for _kind in KIND_ORDER:
    KIND_BASE[_kind] = _next
    _next += _SIZES[_kind]
NUM_DISTINCT_ACTIONS: int = _next
"""How many indices the action space has."""
_KINDS_BY_BASE = sorted(KIND_BASE.items(), key=lambda item: item[1])

_UNNAMED = "unnamed"
_DIRECT = "direct"
_UNTIL = "until_"


class ActionEncodingError(ValueError):
    """An action or index the encoding cannot express, or names no card where it says."""


# --- slots ---------------------------------------------------------------------------------


Places = dict[str, tuple[str, Zone, int]]
"""Where each named card of a game is: uid → (player, zone, index in the zone) (:func:`card_places`)."""


def card_places(game: GameState) -> Places:
    """The place of every named card in a zone an index names cards in (:data:`OWN_ZONES`,
    :data:`TARGET_ZONES`; not the deck nor the banished cards), read in one pass: encoding several
    actions of one state looks each card up there instead of searching the zones again (:func:`encode`)."""
    places: Places = {}
    for player in PLAYERS:
        state = game.players[player]
        for zone in _NAMED_ZONES:
            for index, card in enumerate(state.zone_list(zone)):
                places[card.uid] = (player, zone, index)
    return places


def _place(game: GameState, uid: str, places: Places | None) -> tuple[str, Zone, int] | None:
    if places is not None:
        return places.get(uid)
    found = game.find(uid)
    if found is None:
        return None
    owner, zone, card = found
    return owner, zone, game.players[owner].zone_list(zone).index(card)


def _own_slot(game: GameState, player: str, uid: str, places: Places | None = None) -> int:
    found = _place(game, uid, places)
    if found is None or found[0] != player:
        raise ActionEncodingError(f"card {uid!r} is not in {player}'s zones")
    _, zone, index = found
    base = 0
    for own_zone, size in OWN_ZONES:
        if own_zone is zone:
            if index >= size:
                raise ActionEncodingError(f"card {uid!r} is at {zone.value} {index}, beyond the {size} slots")
            return base + index
        base += size
    raise ActionEncodingError(f"card {uid!r} is in the {zone.value}, where no action names a card")


def _own_card(game: GameState, player: str, slot: int) -> CardInstance:
    base = 0
    for zone, size in OWN_ZONES:
        if slot < base + size:
            cards = game.players[player].zone_list(zone)
            if slot - base >= len(cards):
                raise ActionEncodingError(f"{player}'s {zone.value} has no card {slot - base}")
            return cards[slot - base]
        base += size
    raise ActionEncodingError(f"no card slot {slot}")


def _target_slot(game: GameState, player: str, uid: str | None, places: Places | None = None) -> int:
    if uid is None or uid == _DIRECT:
        return NO_TARGET
    found = _place(game, uid, places)
    if found is not None:
        owner, zone, index = found
        base = 0
        for mine, target_zone, size in TARGET_ZONES:
            if target_zone is zone and (owner == player) == mine and index < size:
                return base + index
            base += size
    raise ActionEncodingError(f"card {uid!r} is in no target slot (the field or a graveyard)")


def _target_uid(game: GameState, player: str, slot: int) -> str | None:
    if slot == NO_TARGET:
        return None
    base = 0
    for mine, zone, size in TARGET_ZONES:
        if slot < base + size:
            cards = game.players[player if mine else other_player(player)].zone_list(zone)
            if slot - base >= len(cards):
                raise ActionEncodingError(f"no card in target slot {slot}")
            return cards[slot - base].uid
        base += size
    raise ActionEncodingError(f"no target slot {slot}")


# --- encode / decode ----------------------------------------------------------------------------


def encode(game: GameState, player: str, name: str, choice: str | None, places: Places | None = None) -> int:
    """The index of ``player``'s action ``name`` with option ``choice`` in ``game`` (``places``:
    the game's :func:`card_places`, when several actions of the same state are encoded)."""
    if player not in PLAYERS:
        raise ActionEncodingError(f"unknown player {player!r}")
    base = KIND_BASE.get(name)
    if base is None:
        raise ActionEncodingError(f"no index for action {name!r}")
    if name in SIMPLE_KINDS:
        if choice is not None:
            raise ActionEncodingError(f"{name} takes no option")
        return base
    if choice is None:
        raise ActionEncodingError(f"{name} needs an option")
    if name in CARD_KINDS:
        return base + (UNNAMED_SLOT if choice == _UNNAMED else _own_slot(game, player, choice, places))
    if name in TARGET_KINDS:
        return base + _target_slot(game, player, choice, places)
    if choice.startswith(_UNTIL):
        if name != "process":
            raise ActionEncodingError(f"{name} cannot end an effect")
        return base + EFFECT_BLOCK + _ending_number(game, player, choice)
    uid, effect, target = parse_key(choice)
    if effect >= MAX_EFFECTS:
        raise ActionEncodingError(f"effect {effect + 1} is beyond the {MAX_EFFECTS} an index names")
    slot = _own_slot(game, player, uid, places)
    return base + (slot * MAX_EFFECTS + effect) * TARGET_SLOTS + _target_slot(game, player, target, places)


def decode(game: GameState, player: str, index: int) -> tuple[str, str | None]:
    """The action (event, option key) that ``index`` names for ``player`` in ``game``."""
    if not 0 <= index < NUM_DISTINCT_ACTIONS:
        raise ActionEncodingError(f"index {index} is outside 0–{NUM_DISTINCT_ACTIONS - 1}")
    name, base = next((kind, start) for kind, start in reversed(_KINDS_BY_BASE) if start <= index)
    offset = index - base
    if name in SIMPLE_KINDS:
        return name, None
    if name in CARD_KINDS:
        return name, (_UNNAMED if offset == UNNAMED_SLOT else _own_card(game, player, offset).uid)
    if name in TARGET_KINDS:
        card = _target_uid(game, player, offset)
        if card is None and name != "choose_target":
            raise ActionEncodingError(f"{name} names a card: slot {offset} is no target")
        return name, (card or _DIRECT)
    if offset >= EFFECT_BLOCK:
        return name, _ending_key(game, player, offset - EFFECT_BLOCK)
    slot_effect, target = divmod(offset, TARGET_SLOTS)
    slot, effect = divmod(slot_effect, MAX_EFFECTS)
    return name, choice_key(_own_card(game, player, slot), effect, _target_uid(game, player, target))


def _ending_number(game: GameState, player: str, key: str) -> int:
    """``until_<uid>[#n]`` → the place of that effect in the duel's list of lasting effects."""
    head, _, count = key[len(_UNTIL):].partition("#")
    wanted = int(count) if count else 1
    seen = 0
    for number, expiry in expiring_now(game, player):
        if expiry.uid == head:
            seen += 1
            if seen == wanted:
                if number >= MAX_ENDING:
                    raise ActionEncodingError(f"ending effect {number} is beyond the {MAX_ENDING} an index names")
                return number
    raise ActionEncodingError(f"no effect of {head!r} ends now")


def _ending_key(game: GameState, player: str, number: int) -> str:
    seen: dict[str, int] = {}
    for place, expiry in expiring_now(game, player):
        seen[expiry.uid] = seen.get(expiry.uid, 0) + 1
        if place == number:
            suffix = f"#{seen[expiry.uid]}" if seen[expiry.uid] > 1 else ""
            return f"{_UNTIL}{expiry.uid}{suffix}"
    raise ActionEncodingError(f"no lasting effect {number} ends now")
