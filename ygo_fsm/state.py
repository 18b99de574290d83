"""The state model: every piece of game data of a duel, in one value.

A :class:`GameState` holds what a duel *is* at one point in play: the turn and the turn
player, both players (LP, each zone's cards in order, per-card state), the chain, the timing
window and the events waiting for it, the attack and the summon in progress, once-per-turn
marks, lingering effects and their expiries, the frames of the active machines, and the
outcome. Nothing else is game state: the runtime's caches, the history of actions and the
trace live in :class:`~ygo_fsm.duel.Duel`.

This module is the bottom of the package's runtime layers: it imports only the declarations
(card and machine specs, the setup vocabulary), and every rule function takes a
:class:`GameState` (never the ``Duel``). The live state is made of mutable, slotted classes
because the rules change it in place and a duel is copied often (an explorer copies every
node): a frozen value would be rebuilt on every change. Its one canonical, validated form is
the JSON document of :mod:`ygo_fsm.snapshot` (``Duel.to_json()``), which defines equality
and the state key.

Each zone's cards are a :class:`ZoneList`: a ``list``, read and changed in place like one (rules,
tests and callers append, pop, remove and shuffle), which also keeps a tuple of its cards until it
next changes. What masking reads of a moment (:func:`ygo_fsm.views.sight`, one per trace row) is
those tuples, so a zone that did not change is neither copied nor compared. A list assigned to a
zone (``player.hand_cards = [...]``) is copied into a new :class:`ZoneList`.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from operator import attrgetter
from typing import Any, Literal, Self, SupportsIndex

from .cards import CardSpec, Event, SpecialSummonCost
from .game import (
    HAND_LIMITS,
    PLAYERS,
    PROFILE_RULES,
    PlayerSetup,
    Position,
    Profile,
    TurnEffect,
    Zone,
    monster_uid,
    other_player,
)
from .rng import DuelRandom
from .spec import StateSpec

# --- cards and players ----------------------------------------------------------------


class CardInstance:
    """One card in a duel: a library card, or a monster given only by its name and stats."""

    __slots__ = ("uid", "card", "name", "owner", "atk", "defence", "level", "race", "position",
                 "face_up", "set_turn", "destroyed_turn", "summoned_by_own_effect", "attacked_battle_phase",
                 "summoned_turn", "position_changed_turn", "attacked_turn", "arrival", "battled_turn",
                 "equipped_to")

    def __init__(self, uid: str, owner: str, *, card: CardSpec | None = None, name: str = "",
                 atk: int = 0, defence: int = 0, level: int = 0, race: str = "",
                 position: Position = Position.attack, face_up: bool = True, set_turn: int = 0) -> None:
        self.uid = uid
        self.card = card
        self.name = name or (card.name_ja if card is not None else uid)
        self.owner = owner
        self.atk, self.defence, self.level, self.race = atk, defence, level, race
        self.position = position
        self.face_up = face_up
        self.set_turn = set_turn
        self.destroyed_turn: int | None = None
        self.summoned_by_own_effect = False
        self.attacked_battle_phase = 0
        """The number of the Battle Phase in which it last declared an attack (0: never)."""
        self.summoned_turn = 0
        self.position_changed_turn = 0
        self.attacked_turn = 0
        self.battled_turn = 0
        """The turn in which damage calculation was last performed with it (0: never)."""
        self.arrival = 0
        """How many times it has arrived on the field (0: placed there by the setup, or never)."""
        self.equipped_to = ""
        """For an Equip Card: the field identity of the monster it is equipped to (``""``: none)."""

    @classmethod
    def of_card(cls, uid: str, owner: str, card: CardSpec) -> CardInstance:
        return cls(uid, owner, card=card, atk=card.atk, defence=card.defence, level=card.level, race=card.race)

    def leave_field(self) -> None:
        """It left the field: back to its printed ATK/DEF, and a new card for battle purposes
        (a monster that returns may attack again)."""
        if self.card is not None:
            self.atk, self.defence = self.card.atk, self.card.defence
        self.attacked_battle_phase = self.attacked_turn = self.position_changed_turn = self.battled_turn = 0
        self.summoned_by_own_effect = False

    def arrive(self) -> None:
        """It arrives on the field: a new monster, whatever card it is (004 ●即使因效果处理1只怪兽离场后
        1只怪兽特殊召唤等结果上没有发生怪兽数量增减的场合，也视为怪兽数量发生变化). A change of battle
        position or turning it face-down is not an arrival."""
        self.arrival += 1

    @property
    def identity(self) -> str:
        """Its identity on the field, ``<uid>@<arrival>``: separate from the card, new on every
        arrival, so the replay check, the attack, an effect's target and once-per-turn bookkeeping
        tied to a monster treat a returning card as a new monster."""
        return f"{self.uid}@{self.arrival}"

    def copy(self) -> CardInstance:
        """An independent copy (every slot; the library card is shared)."""
        clone = CardInstance.__new__(CardInstance)
        clone.uid = self.uid
        clone.card = self.card
        clone.name = self.name
        clone.owner = self.owner
        clone.atk = self.atk
        clone.defence = self.defence
        clone.level = self.level
        clone.race = self.race
        clone.position = self.position
        clone.face_up = self.face_up
        clone.set_turn = self.set_turn
        clone.destroyed_turn = self.destroyed_turn
        clone.summoned_by_own_effect = self.summoned_by_own_effect
        clone.attacked_battle_phase = self.attacked_battle_phase
        clone.summoned_turn = self.summoned_turn
        clone.position_changed_turn = self.position_changed_turn
        clone.attacked_turn = self.attacked_turn
        clone.battled_turn = self.battled_turn
        clone.arrival = self.arrival
        clone.equipped_to = self.equipped_to
        return clone

    @property
    def attacks_in_defence(self) -> bool:
        """It may attack in Defense Position (「絶対防御将軍」, 000 ※攻击中止…)."""
        return self.card is not None and self.card.attacks_in_defence

    @property
    def can_declare_attack(self) -> bool:
        """A face-up Attack Position monster can be chosen to attack (002 ●战斗阶段 1.), or a
        face-up monster that may attack in Defense Position."""
        return self.face_up and (self.position is Position.attack or self.attacks_in_defence)

    def __repr__(self) -> str:
        return f"<{self.uid} {self.name}>"


_ZONE_LISTS = ("hand_cards", "monsters", "spell_traps", "graveyard_cards", "deck_cards", "banished", "lingering",
               "field_spells")
ZONE_ATTRIBUTES: dict[Zone, str] = dict(zip(Zone, _ZONE_LISTS, strict=True))
"""The :class:`PlayerState` attribute holding each zone's cards."""
_ZONE_LISTS_OF = attrgetter(*_ZONE_LISTS)
"""A player's zone lists, in :data:`ZONE_ATTRIBUTES` order."""
_ZONE_NAMES = frozenset(_ZONE_LISTS)


class _KeptZones:
    """A player's zone tuples (:meth:`PlayerState.zone_tuples`) while no zone changes: ``None`` after one did."""

    __slots__ = ("zones",)

    def __init__(self) -> None:
        self.zones: tuple[tuple[CardInstance, ...], ...] | None = None


class ZoneList(list[CardInstance]):
    """One zone's cards in order: a ``list`` (read and changed like one), which keeps a tuple of its
    cards from the moment it is first asked for until the list next changes, and tells its player's
    :meth:`PlayerState.zone_tuples` when it changes. Every method that changes a list in place is
    one that forgets; slicing or copying one gives a plain list."""

    __slots__ = ("_cards", "_kept")

    def __init__(self, cards: Iterable[CardInstance] = (), kept: _KeptZones | None = None) -> None:
        list.__init__(self, cards)
        self._cards: tuple[CardInstance, ...] | None = None
        self._kept = _KeptZones() if kept is None else kept

    def cards(self) -> tuple[CardInstance, ...]:
        """Its cards now, as a tuple: the same tuple until the list changes."""
        cards = self._cards
        if cards is None:
            cards = self._cards = tuple(self)
        return cards

    def _forget(self) -> None:
        self._cards = None
        self._kept.zones = None

    def append(self, card: CardInstance) -> None:
        list.append(self, card)
        self._cards = None
        self._kept.zones = None

    def insert(self, index: SupportsIndex, card: CardInstance) -> None:
        list.insert(self, index, card)
        self._forget()

    def extend(self, cards: Iterable[CardInstance]) -> None:
        list.extend(self, cards)
        self._forget()

    def pop(self, index: SupportsIndex = -1) -> CardInstance:
        card: CardInstance = list.pop(self, index)
        self._forget()
        return card

    def remove(self, card: CardInstance) -> None:
        list.remove(self, card)
        self._cards = None
        self._kept.zones = None

    def clear(self) -> None:
        list.clear(self)
        self._forget()

    def sort(self, *args: Any, **kwargs: Any) -> None:
        list.sort(self, *args, **kwargs)
        self._forget()

    def reverse(self) -> None:
        list.reverse(self)
        self._forget()

    def __setitem__(self, index: Any, value: Any) -> None:
        list.__setitem__(self, index, value)
        self._forget()

    def __delitem__(self, index: Any) -> None:
        list.__delitem__(self, index)
        self._forget()

    def __iadd__(self, cards: Iterable[CardInstance]) -> Self:  # type: ignore[override,misc]
        list.extend(self, cards)
        self._forget()
        return self

    def __imul__(self, times: SupportsIndex) -> Self:
        list.__imul__(self, times)
        self._forget()
        return self


class PlayerState:
    """A player's mutable state during a duel.

    ``hand``, ``deck`` and ``graveyard`` are the numbers of cards there (named and unnamed);
    the named cards are in the zone lists (``hand_cards``, ``monsters``, ``spell_traps`` …).
    """

    __slots__ = ("lp", "_hand", "_deck", "_graveyard", "hand_limit", "_kept", *_ZONE_LISTS)
    _kept: _KeptZones
    """The zone tuples kept while no zone changes (:meth:`zone_tuples`), shared with its :class:`ZoneList` s."""

    def __new__(cls, *args: Any, **kwargs: Any) -> Self:
        state = object.__new__(cls)
        object.__setattr__(state, "_kept", _KeptZones())  # however it is made (copy, snapshot, pickle)
        return state

    def __init__(self, setup: PlayerSetup, player: str = "A") -> None:
        kept = self._kept
        self.lp = setup.lp
        self._hand = setup.unnamed_hand
        self._deck = setup.unnamed_deck
        self._graveyard = setup.graveyard
        self.hand_limit = setup.hand_limit
        self.hand_cards: list[CardInstance] = ZoneList((), kept)
        self.monsters: list[CardInstance] = ZoneList((), kept)
        self.spell_traps: list[CardInstance] = ZoneList((), kept)
        self.graveyard_cards: list[CardInstance] = ZoneList((), kept)
        self.deck_cards: list[CardInstance] = ZoneList((), kept)
        self.banished: list[CardInstance] = ZoneList((), kept)
        self.lingering: list[CardInstance] = ZoneList((), kept)
        self.field_spells: list[CardInstance] = ZoneList((), kept)
        """The Field Zone (at most one card)."""
        for index, monster in enumerate(setup.monsters):
            self.monsters.append(CardInstance(
                monster_uid(player, index), player, name=monster.name, atk=monster.atk,
                defence=monster.defence, level=monster.level, position=monster.position, face_up=monster.face_up))

    def __setattr__(self, name: str, value: Any) -> None:
        if name in _ZONE_NAMES:  # a zone's list is one of this player's ZoneLists (a list given is copied into one)
            kept = self._kept
            if type(value) is not ZoneList or value._kept is not kept:
                value = ZoneList(value, kept)
            kept.zones = None
        object.__setattr__(self, name, value)

    def zone_tuples(self) -> tuple[tuple[CardInstance, ...], ...]:
        """The cards of each zone, in :data:`ZONE_ATTRIBUTES` order: the same tuples until a zone changes."""
        kept = self._kept
        zones = kept.zones
        if zones is None:
            zones = kept.zones = tuple([cards.cards() if cards._cards is None else cards._cards
                                        for cards in _ZONE_LISTS_OF(self)])  # (ZoneList.cards, inlined)
        return zones

    def zone_list(self, zone: Zone) -> list[CardInstance]:
        cards: list[CardInstance] = getattr(self, ZONE_ATTRIBUTES[zone])
        return cards

    def all_cards(self) -> list[tuple[Zone, CardInstance]]:
        """Every named card with its zone, zone by zone."""
        return [(zone, card) for zone, name in ZONE_ATTRIBUTES.items() for card in getattr(self, name)]

    @property
    def hand(self) -> int:
        return self._hand + len(self.hand_cards)

    @hand.setter
    def hand(self, value: int) -> None:
        self._hand = value - len(self.hand_cards)

    @property
    def deck(self) -> int:
        return self._deck + len(self.deck_cards)

    @deck.setter
    def deck(self, value: int) -> None:
        self._deck = value - len(self.deck_cards)

    @property
    def graveyard(self) -> int:
        return self._graveyard + len(self.graveyard_cards)

    @graveyard.setter
    def graveyard(self, value: int) -> None:
        self._graveyard = value - len(self.graveyard_cards)

    @property
    def unnamed_hand(self) -> int:
        return self._hand

    def copy(self) -> PlayerState:
        clone = PlayerState.__new__(PlayerState)
        kept = clone._kept
        clone.lp, clone._hand, clone._deck, clone._graveyard = self.lp, self._hand, self._deck, self._graveyard
        clone.hand_limit = self.hand_limit
        clone.hand_cards = ZoneList([card.copy() for card in self.hand_cards], kept)
        clone.monsters = ZoneList([card.copy() for card in self.monsters], kept)
        clone.spell_traps = ZoneList([card.copy() for card in self.spell_traps], kept)
        clone.graveyard_cards = ZoneList([card.copy() for card in self.graveyard_cards], kept)
        clone.deck_cards = ZoneList([card.copy() for card in self.deck_cards], kept)
        clone.banished = ZoneList([card.copy() for card in self.banished], kept)
        clone.lingering = ZoneList([card.copy() for card in self.lingering], kept)
        clone.field_spells = ZoneList([card.copy() for card in self.field_spells], kept)
        return clone

    @property
    def hand_size_limit(self) -> int | None:
        """The hand size limit now in force (``None`` for no limit)."""
        return HAND_LIMITS[self.hand_limit]


# --- events, chain, windows ---------------------------------------------------------


@dataclass(frozen=True, init=False)
class Occurrence:
    """Something that happened: an event, the player it concerns, and the card (if any)."""

    event: Event
    player: str
    uid: str | None = None
    deferred: bool = False
    """Met while paying a summon's conditions (step 2): only mandatory triggers respond to it."""
    cause: str = ""
    """What caused it (a :class:`~ygo_fsm.cards.Cause` value: ``battle``, ``effect`` (by a card
    effect), ``cost``, ``hand_size_rule`` (a rule, not a card effect: 004 手卡调整
    ●…不视为「因效果从手卡丢弃」); ``""`` when nothing in particular)."""
    by: str = ""
    """The player whose card's effect caused it (``""``: none)."""
    origin: str = ""
    """Where the card came from (an :class:`~ygo_fsm.cards.Origin` value; ``""``: not a move)."""
    face: str = ""
    """``face_up`` / ``face_down``: how its card was when it happened (``""``: not recorded)."""
    together: bool = False
    """It happened at the same time as the occurrence recorded just before it: the attack
    declaration and "becomes the attack target", a monster destroyed and sent to the graveyard,
    several monsters destroyed by one effect. Simultaneous occurrences are all "the last thing to
    happen" for a 'when … you can' trigger (PR17 missing the timing)."""

    def __init__(self, event: Event, player: str, uid: str | None = None, deferred: bool = False, cause: str = "",
                 by: str = "", origin: str = "", face: str = "", together: bool = False) -> None:
        # the fields all at once: the generated __init__ of a frozen dataclass sets each through
        # object.__setattr__, and an occurrence is recorded for every draw, summon and move
        self.__dict__.update(event=event, player=player, uid=uid, deferred=deferred, cause=cause, by=by,
                             origin=origin, face=face, together=together)


@dataclass(frozen=True)
class Expiry:
    """An effect that lasts "until" a phase (『…为止』): it ends there, without a chain link,
    handled by its controller (000 ●エンドフェイズ【２】·『回合结束为止～』…的效果结束（不进入连锁））."""

    phase: str
    """The phase whose open game state ends it (``end_phase`` …)."""
    controller: str
    uid: str
    """The monster it changed."""
    atk: int
    """The ATK change to undo."""
    source: str
    """The card the effect came from (for narration)."""
    kind: str = "atk"
    """What ends: ``atk`` (an ATK/DEF change), ``control`` (the monster returns to its owner),
    ``banished`` (the monster returns from banishment), ``negated`` (its effects apply again),
    ``no_battle_damage`` (the controller takes battle damage again)."""
    defence: int = 0
    """The DEF change to undo."""
    turn: int = 0
    """For effects lasting several turns: the turn in which it ends (0: the first time its point comes)."""
    identity: str = ""
    """The changed monster's field identity: once it has left the field, a monster that comes back
    is a new monster the effect no longer applies to (004 ●…也视为怪兽数量发生变化)."""

    def applies(self, monster_identity: str | None) -> bool:
        """It still applies to the monster whose field identity is ``monster_identity``."""
        return not self.identity or self.identity == monster_identity


@dataclass
class Link:
    """A chain link."""

    number: int
    uid: str
    effect: int
    controller: str
    spell_speed: int
    name: str
    target: str | None = None
    negated: bool = False
    events: frozenset[Event] = frozenset()
    """What its activation was (a spell/trap card's activation, an effect destroying monsters …)
    and what its cost did: the events a response to this link may answer."""
    target_atk: int = 0
    """The target's ATK as the link starts resolving (「破壊輪」 deals it after destroying)."""
    card_activation: bool = False
    """The link is the activation of a Spell/Trap Card itself (from the hand or face-down), not
    the activation of an effect of a card already face-up (PR17 p.153: a card's activation and an
    effect's activation are negated differently)."""
    negation: Literal["", "activation", "effect"] = ""
    """How the link was negated: ``activation`` — its activation was negated (it resolves
    nothing; a Spell/Trap Card whose own activation it was goes to the graveyard); ``effect`` —
    its effect was negated (the activation stands, it resolves nothing, the card is treated as
    resolved). ``negated`` is true for both (Yugipedia "Negate")."""
    event_card: str | None = None
    """The card whose event the effect answered (its ``what: event_card``)."""
    event_card_identity: str = ""
    """The event's card's field identity when the effect answered it on the field: it is that
    monster only, not a new one after it left the field and came back (004 ●…也视为怪兽数量发生变化)."""
    target_identity: str = ""
    """The target's field identity when it was chosen: a target that left the field and came back
    is a new card, no longer the target (004 ●…也视为怪兽数量发生变化)."""
    more_targets: tuple[str, ...] = ()
    """Its targets after the first, for an effect with ``target_count:`` (all chosen on activation)."""
    more_target_identities: tuple[str, ...] = ()
    """Their field identities when chosen ("" for a card off the field)."""
    declaring_targets: bool = False
    """Its player is still choosing its targets, one at a time (``target_count:``; nobody may
    respond until they are declared: :mod:`ygo_fsm.multi_target`)."""
    source_identity: str = ""
    """The activating monster's field identity when it was activated on the field: "this card" in
    its resolution is that monster only, not a new one after it left and came back."""


@dataclass
class Tier:
    """One tier of the priority list: a player's mandatory or optional triggers."""

    player: str
    mandatory: bool
    entries: list[tuple[str, int]]


@dataclass
class Window:
    """A timing window (发动时点): the events that opened it and the triggers they met."""

    events: list[Occurrence]
    tiers: list[Tier] = field(default_factory=list)
    after_chain: bool = False
    restricted: bool = False
    ignition_allowed: bool = False

    def copy(self) -> Window:
        return Window(list(self.events), [Tier(t.player, t.mandatory, list(t.entries)) for t in self.tiers],
                      self.after_chain, self.restricted, self.ignition_allowed)

    @property
    def event_kinds(self) -> set[Event]:
        return {occurrence.event for occurrence in self.events}


@dataclass(frozen=True)
class Choice:
    """One option of a player action: its key (as actions name it) and a label."""

    key: str
    label: str


_CARD_CHOICES: dict[tuple[str, str], Choice] = {}
_CARD_CHOICES_LIMIT = 4096


def card_choice(card: CardInstance) -> Choice:
    """The option naming ``card`` by its uid, labelled 「its name」. Options are values, so one is
    made per uid and name and given again (a bounded table, emptied when full)."""
    key = (card.uid, card.name)
    found = _CARD_CHOICES.get(key)
    if found is None:
        if len(_CARD_CHOICES) >= _CARD_CHOICES_LIMIT:
            _CARD_CHOICES.clear()
        found = _CARD_CHOICES[key] = Choice(card.uid, f"「{card.name}」")
    return found


# --- the attack and the summon in progress ---------------------------------------------


@dataclass
class Attack:
    """The attack in progress."""

    attacker: str
    player: str
    target: str | None = None
    """The attack target's uid; ``None`` for a direct attack (or before it is chosen)."""
    direct: bool = False
    opponent_monsters: tuple[str, ...] = ()
    """The opponent's monsters when the target was chosen, by field identity (for replay): a
    monster that left the field and came back is a new monster (004 ●即使因效果处理1只怪兽离场后
    1只怪兽特殊召唤等…也视为怪兽数量发生变化)."""
    attacker_identity: str = ""
    """The attacker's field identity (``CardInstance.identity``) when it declared the attack."""
    target_identity: str = ""
    """The attack target's field identity when it was chosen."""
    replayed: bool = False
    outcome: Literal["", "cancelled", "stopped", "fought", "no_battle"] = ""
    """``""`` while it goes on; ``cancelled``, ``stopped`` or ``fought`` once over; ``no_battle``
    when a battler left the field in the Damage Step before damage calculation (004
    ●未进行伤害计算的战斗不视为『进行战斗』)."""
    destroyed: list[str] = field(default_factory=list)
    battle_damage: dict[str, int] = field(default_factory=dict)
    applied: set[str] = field(default_factory=set)
    """The points (``attack_declaration``, ``after_attack_declaration``) whose continuous effects
    were applied; a replay does not apply them again."""
    revealed: str | None = None
    """A face-down target turned face-up before damage calculation: its flip effect waits until
    after damage calculation (004 ●…即使持有反转时发动的效果的场合，也不会在这一时点发动)."""

    def copy(self) -> Attack:
        return replace(self, destroyed=list(self.destroyed), battle_damage=dict(self.battle_damage),
                       applied=set(self.applied))


SummonKind = Literal["normal", "set", "flip", "special"]


@dataclass
class Summon:
    """The summon in progress."""

    uid: str
    kind: SummonKind
    player: str
    tributes_needed: int = 0
    tributes: list[str] = field(default_factory=list)
    negated: bool = False
    cost: SpecialSummonCost | None = None
    """A special summon's own cost (tributes of a given card, cards banished from the graveyard)."""
    card: CardInstance | None = None
    """The monster while it is taken out (step 3 until it lands): in no location."""
    deferred: list[Occurrence] = field(default_factory=list)
    """Events of step 2 (paying the conditions): their mandatory triggers wait for step 7."""

    def copy(self) -> Summon:
        return replace(self, tributes=list(self.tributes), deferred=list(self.deferred),
                       card=self.card.copy() if self.card is not None else None)


# --- the frames and the game -------------------------------------------------------------


class Frame:
    """One active machine of a duel: the model a shared ``transitions`` machine moves.

    ``invoked_as`` is the parent's state that runs this machine and ``parent`` the parent's
    machine (both ``None`` for the turn); ``game`` is the state the guards and callbacks read.
    """

    __slots__ = ("game", "machine", "state", "invoked_as", "parent", "at")

    def __init__(self, game: GameState, machine: str, state: str, invoked_as: str | None,
                 parent: str | None = None, at: Any = None) -> None:
        self.game = game
        self.machine = machine
        self.state = state
        self.invoked_as = invoked_as
        self.parent = parent
        self.at: Any = at
        """What the runtime looked up of the state the frame is in (its ``engine.StateRuntime``: the
        runtime layers sit above this module, which names none of their types), kept
        while the frame stays there: set with ``state`` by the transition taken or by the runtime
        entering the frame's machine, or ``None`` until the runtime looks it up."""

    def __getstate__(self) -> tuple[GameState, str, str, str | None, str | None]:
        """What a copy or a pickle keeps: not :attr:`at`, which belongs to the runtime (it is looked up again)."""
        return self.game, self.machine, self.state, self.invoked_as, self.parent

    def __setstate__(self, state: tuple[GameState, str, str, str | None, str | None]) -> None:
        self.game, self.machine, self.state, self.invoked_as, self.parent = state
        self.at = None

    def __repr__(self) -> str:
        return f"Frame({self.machine}:{self.state})"


_ZONE_ITEMS = tuple(ZONE_ATTRIBUTES.items())
_OPEN_ZONE_ATTRIBUTES = tuple(attribute for zone, attribute in _ZONE_ITEMS if zone is not Zone.deck)
_UID = attrgetter("uid")
_SMALL_ZONES = (Zone.hand, Zone.monster, Zone.spell_trap, Zone.field_zone)
_PILES = (Zone.graveyard, Zone.banished, Zone.lingering)
_FIND_ORDER = tuple((zone, attribute, player) for zones in (_SMALL_ZONES, _PILES, (Zone.deck,)) for player in PLAYERS
                    for zone, attribute in _ZONE_ITEMS if zone in zones)
"""Where :meth:`GameState.find` looks: both players' hands and fields, then their graveyards and the
like, then the decks (the longest lists last; a uid names one card, so the order finds the same)."""

_UNSET = object()
"""Marks the cached priority holder as not computed since the last change."""


class GameState:
    """All game data of one duel (see the module docstring for what is and is not in it).

    ``library`` (the card specs) and ``state_specs`` (the declared states, by machine and
    state id) are the declarations the state refers to, shared and never copied. ``choice``,
    ``actor``, ``narration`` and ``resolved_now`` belong to the transition being taken and are
    empty between actions.
    """

    __slots__ = (
        "profile", "turn", "turn_player", "opponent", "players", "turn_effects", "chain", "chain_finished", "events",
        "window", "handled", "last_action_summon", "normal_summon_turn", "attack", "last_attack",
        "battle_phase_number", "summon", "used_once", "draw_replaced_turn", "expiring", "discard_chosen",
        "leaving_after_chain", "frames", "winner", "is_over", "end_reason", "rng",
        "library", "state_specs",
        "choice", "actor", "narration", "resolved_now", "priority_cache", "scans", "card_scans", "lp_lost",
        "effect_cards",
    )

    def __init__(self, *, profile: Profile, turn: int, turn_player: str, library: Mapping[str, CardSpec],
                 state_specs: Mapping[tuple[str, str], StateSpec],
                 players: dict[str, PlayerState] | None = None) -> None:
        self.profile = profile
        self.turn = turn
        self.turn_player = turn_player
        self.opponent = other_player(turn_player)
        """The non-turn player (kept with :attr:`turn_player`, which only :meth:`begin_next_turn` changes)."""
        self.players: dict[str, PlayerState] = players if players is not None else {
            p: PlayerState(PlayerSetup(), p) for p in PLAYERS}
        self.turn_effects: dict[int, frozenset[TurnEffect]] = {}
        self.chain: list[Link] = []
        self.chain_finished = False
        self.events: list[Occurrence] = []
        self.window: Window | None = None
        self.handled: set[tuple[str, int, int, str]] = set()
        """Phase effects handled: (card uid, effect index, turn, phase)."""
        self.last_action_summon = False
        self.normal_summon_turn = 0
        self.attack: Attack | None = None
        """The attack in progress."""
        self.last_attack: Attack | None = None
        """The last attack that ended (cancelled, stopped or fought)."""
        self.battle_phase_number = 0
        self.summon: Summon | None = None
        self.used_once: set[tuple[str, int, int]] = set()
        """Once-per-turn effects used: (card uid, effect index, turn)."""
        self.draw_replaced_turn = 0
        self.leaving_after_chain: list[tuple[str, bool]] = []
        """Resolved Spell/Trap Cards that leave the field once the whole chain has resolved:
        (uid, whether it lingers instead of going to the graveyard) (Yugipedia "Negate")."""
        self.expiring: list[Expiry] = []
        """Effects lasting until a phase (『…为止』), ended there without a chain link."""
        self.discard_chosen: list[str] = []
        """The cards chosen so far at the hand size adjustment, one at a time (uids, ``unnamed`` for
        a card no action names); discarded together with the last one (000 ●エンドフェイズ【３】)."""
        self.frames: list[Frame] = []
        self.winner: str | None = None
        self.is_over = False
        self.end_reason = ""
        self.rng: DuelRandom | None = None
        """The duel's random number generator (seeded by ``Setup.seed``); ``None`` when the setup
        gives no seed."""
        self.library = library
        self.state_specs = state_specs
        self.choice: str | None = None
        self.actor: str | None = None
        self.narration: list[str] = []
        self.resolved_now: list[tuple[int, str, bool]] = []
        self.priority_cache: object = _UNSET
        self.scans: dict[object, object] | None = None
        """What the rules computed about this very state (a player's effects, pending phase
        effects), kept while the state does not change: the runtime turns it on (``{}``) between
        transitions, where option enumeration asks the same questions many times, and off
        (``None``) while a transition changes the game. Not game data."""
        self.lp_lost = True
        """A player may have lost LP since the runtime last judged the duel (:meth:`lose_lp` sets it;
        a new or loaded game starts with it set): the runtime calls :meth:`check_lp` after a
        transition only then. Not game data."""
        self.card_scans: dict[str, object] | None = None
        """Like ``scans``, for what depends only on which cards are in which zones (each player's
        effects): kept across transitions that run no callback, or only callbacks that move no card
        (``ygo_fsm.registry.CARDS_STAY``), dropped by one that may move a card and by
        :meth:`~ygo_fsm.duel.Duel` when the game is changed from outside."""
        self.effect_cards: bool | None = None
        """Whether any card of the duel, in any zone, has an effect (:meth:`has_effect_cards`), once
        asked; ``None`` until then and again once the game is changed from outside. No rule puts a
        card with an effect into a duel (a token has none), so a duel of Normal Monsters stays without.
        Not game data."""

    def has_effect_cards(self) -> bool:
        """Whether any card of the duel, in any zone, is a library card with an effect (worked out once,
        :attr:`effect_cards`)."""
        found = self.effect_cards
        if found is None:
            found = self.effect_cards = any(
                card.card is not None and bool(card.card.effects)
                for state in self.players.values() for cards in _ZONE_LISTS_OF(state) for card in cards)
        return found

    def copy(self) -> GameState:
        """An independent copy (the declarations are shared)."""
        clone = GameState.__new__(GameState)
        clone.profile, clone.turn, clone.turn_player = self.profile, self.turn, self.turn_player
        clone.opponent = self.opponent
        clone.players = {p: state.copy() for p, state in self.players.items()}
        clone.turn_effects = dict(self.turn_effects)
        clone.chain = [replace(link) for link in self.chain]
        clone.chain_finished = self.chain_finished
        clone.events = list(self.events)
        clone.window = self.window.copy() if self.window is not None else None
        clone.handled = set(self.handled)
        clone.last_action_summon = self.last_action_summon
        clone.normal_summon_turn = self.normal_summon_turn
        clone.attack = self.attack.copy() if self.attack is not None else None
        clone.last_attack = self.last_attack.copy() if self.last_attack is not None else None
        clone.battle_phase_number = self.battle_phase_number
        clone.summon = self.summon.copy() if self.summon is not None else None
        clone.used_once = set(self.used_once)
        clone.draw_replaced_turn = self.draw_replaced_turn
        clone.leaving_after_chain = list(self.leaving_after_chain)
        clone.expiring = list(self.expiring)
        clone.discard_chosen = list(self.discard_chosen)
        clone.frames = [Frame(clone, f.machine, f.state, f.invoked_as, f.parent) for f in self.frames]
        clone.winner, clone.is_over, clone.end_reason = self.winner, self.is_over, self.end_reason
        clone.rng = self.rng.copy() if self.rng is not None else None
        clone.library, clone.state_specs = self.library, self.state_specs
        clone.choice = clone.actor = None
        clone.narration = []
        clone.resolved_now = []
        clone.priority_cache = _UNSET
        clone.scans = clone.card_scans = None
        clone.lp_lost = True
        clone.effect_cards = self.effect_cards  # the copy holds the same cards
        return clone

    # --- reading ----------------------------------------------------------------------

    @property
    def path(self) -> str:
        """The full state path, e.g. ``main_phase_1.open.turn_player``."""
        return ".".join([frame.state for frame in self.frames])

    def state_spec(self, frame: Frame) -> StateSpec:
        """The declared state a frame is in."""
        return self.state_specs[(frame.machine, frame.state)]

    def find(self, uid: str) -> tuple[str, Zone, CardInstance] | None:
        """The player, zone and instance of the named card ``uid`` (each zone's uids are compared
        at once; the card is looked for only in the zone that holds it). A uid names one card, so
        the order of the zones does not change what is found: the decks, the longest, come last."""
        players = self.players
        for zone, attribute, player in _FIND_ORDER:
            cards = getattr(players[player], attribute)
            if cards and uid in map(_UID, cards):
                for card in cards:
                    if card.uid == uid:
                        return player, zone, card
        return None

    def all_in_zones_but_deck(self, player: str, uids: set[str]) -> bool:
        """Every uid of ``uids`` names a card in one of ``player``'s own zones other than the deck
        (uids are unique: such a card is in no other player's zone and in no deck)."""
        state = self.players[player]
        remaining = uids
        for attribute in _OPEN_ZONE_ATTRIBUTES:
            cards = getattr(state, attribute)
            if cards:
                remaining = remaining.difference(map(_UID, cards))
                if not remaining:
                    return True
        return False

    def normal_draw_due(self) -> bool:
        """The turn player draws normally this turn (not the first turn under a profile with no
        first-turn draw, 004 ●先攻第1回合游戏玩家的抽卡階段不能通常抽卡)."""
        return not (self.turn == 1 and not PROFILE_RULES[self.profile].first_turn_draw)

    def effect_applies(self, effect: TurnEffect) -> bool:
        """Whether a turn effect applies to the current turn."""
        return effect in self.turn_effects.get(self.turn, ())

    # --- changing ---------------------------------------------------------------------

    def forget(self) -> None:
        """Drop the cached priority holder and scans (the frames, the chain or a window changed)."""
        self.priority_cache = _UNSET
        self.scans = None

    def add_turn_effect(self, effect: TurnEffect, turn: int | None = None) -> None:
        """An effect that applies for the rest of this turn (or to ``turn``), e.g. monsters cannot attack."""
        turn = self.turn if turn is None else turn
        self.turn_effects[turn] = self.turn_effects.get(turn, frozenset()) | {effect}
        self.forget()

    def replace_draw(self) -> None:
        """An effect replaces this turn's normal draw (000 ●ドローフェイズ【情况Ｂ】)."""
        self.add_turn_effect(TurnEffect.draw_replaced)
        self.draw_replaced_turn = self.turn

    def begin_next_turn(self) -> None:
        """The next turn begins; the other player becomes the turn player. Effects of resolved
        cards that applied "this turn" (「ラストバトル！」's End Phase) are over: those cards go to
        the graveyard."""
        for state in self.players.values():
            if state.lingering:
                state.graveyard_cards.extend(state.lingering)
                state.lingering.clear()
        self.turn += 1
        self.turn_player, self.opponent = self.opponent, self.turn_player

    def say(self, text: str) -> None:
        """Add a line of narration to the transition being taken (the trace's ``detail``)."""
        self.narration.append(text)

    def note_resolution(self, number: int, uid: str, negated: bool) -> None:
        """Record a resolved link of the transition being taken."""
        self.resolved_now.append((number, uid, negated))

    def lose_lp(self, player: str, amount: int) -> None:
        """``player`` loses ``amount`` LP (damage or a payment); see :meth:`check_lp`. The rules
        lower LP only through here."""
        self.players[player].lp -= amount
        self.lp_lost = True

    def attack_damage(self, player: str, amount: int) -> None:
        """Battle damage to ``player`` from the attack in progress."""
        self.lose_lp(player, amount)
        if self.attack is not None:
            self.attack.battle_damage[player] = self.attack.battle_damage.get(player, 0) + amount

    def check_lp(self, *, cannot_draw: tuple[str, ...] = ()) -> None:
        """Judge the duel now: a player whose LP are 0 loses, and so does a player who had to
        draw and could not (``cannot_draw``); both at the same moment is a draw (PR17 p.43,
        winning and losing; 000 ●メインフェイズ１ 例 …攻击（对方LP 0）; Yugipedia "DRAW": both
        players' LP reaching 0 simultaneously). Called as soon as an event that can decide the duel is over —
        each cost paid, each operation of a resolution, each damage calculation — so what happens
        at the same moment is judged together and nothing after it happens."""
        players = self.players
        if self.is_over or (not cannot_draw and players["A"].lp > 0 and players["B"].lp > 0):
            return
        self._judge(cannot_draw)

    def _judge(self, cannot_draw: tuple[str, ...]) -> None:
        """:meth:`check_lp` once a player may have lost (of its own: ``check_lp`` makes no closure cells
        (tests/test_hot_paths.py))."""
        out_of_lp = [p for p in PLAYERS if self.players[p].lp <= 0]
        for player in out_of_lp:
            self.players[player].lp = 0
        losers = [p for p in PLAYERS if p in out_of_lp or p in cannot_draw]
        reason = "lp" if out_of_lp else "deck_out"
        if len(losers) == 2:
            self.end_duel(winner=None, reason=reason)
            self.say("双方的基本分为0，平局" if len(out_of_lp) == 2 else "双方同时决斗败北，平局")
        elif losers:
            loser = losers[0]
            self.end_duel(winner=other_player(loser), reason=reason if loser in out_of_lp else "deck_out")
            cause = "的基本分为0" if loser in out_of_lp else "必须抽卡却不能抽卡"
            self.say(f"{loser}{cause}，{other_player(loser)}获得决斗的胜利")

    def end_duel(self, *, winner: str | None, reason: str) -> None:
        """The duel is over (``winner`` ``None`` for a draw)."""
        self.winner = winner
        self.is_over = True
        self.end_reason = reason
