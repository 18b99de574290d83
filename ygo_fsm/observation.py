"""A player's observation of a duel (:func:`observe`): frozen dataclasses of plain values,
equal whenever the player's knowledge is equal (what they may know: :mod:`ygo_fsm.views`)."""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

from . import continuous
from .card_enums import CardType
from .game import PLAYERS, Zone
from .hiding import FACE_DOWN_ZONES, hidden_of, known_to
from .priority import holder
from .state import CardInstance, GameState

__all__ = ["CardView", "ChainLinkView", "Observation", "PlayerView", "observe"]


@dataclass(frozen=True)
class CardView:
    """A card as a player sees it. A card hidden from the player has only its ``place``,
    ``face_up`` (``False``) and, for a monster, its battle ``position`` (a face-down monster
    is in Defense Position, which both see); every other field is ``None``."""

    place: int
    """Its place in the zone, from 1."""
    face_up: bool
    position: str | None = None
    """``attack`` or ``defence`` for a card in the monster zone, else ``None``."""
    uid: str | None = None
    card: str | None = None
    """The library card id (``""`` for a monster given only by name and stats)."""
    name: str | None = None
    atk: int | None = None
    defence: int | None = None
    level: int | None = None
    set_this_turn: bool = False
    """A card on the field Set (or Set-summoned) this turn: both players saw it happen."""

    @property
    def hidden(self) -> bool:
        return self.uid is None


@dataclass(frozen=True)
class PlayerView:
    """One player's side as the viewer sees it."""

    player: str
    lp: int
    hand_count: int
    hand: tuple[CardView, ...]
    """The named cards in the hand: the viewer's own (the opponent's hand: ``()``, only its count)."""
    deck_count: int
    monsters: tuple[CardView, ...]
    spell_traps: tuple[CardView, ...]
    graveyard_count: int
    graveyard: tuple[CardView, ...]
    """The named cards in the graveyard, in order (public)."""
    banished: tuple[CardView, ...]
    lingering: tuple[CardView, ...]
    """Resolved cards whose effect still applies this turn (「ラストバトル！」), public."""


@dataclass(frozen=True)
class ChainLinkView:
    """A chain link: the activated card is face-up, so all of it is public but a hidden target."""

    number: int
    controller: str
    uid: str
    """The activated card's uid (its place, should it be hidden again: back in a hand or Set)."""
    card: str
    name: str
    spell_speed: int
    target: str | None
    """The target's uid, or its place (``B.spell_trap.1``) when the viewer may not know it."""
    negated: bool
    more_targets: tuple[str, ...] = ()
    """Its other targets, named as ``target`` is, for an effect taking several (``target_count:``)."""


@dataclass(frozen=True)
class Observation:
    """What ``player`` may know of the duel now (see the module docstring).

    ``players`` holds both sides, ``A`` first; ``you`` and ``opponent`` pick them. ``to_act``
    is the player who must act (``None`` once the duel is over). ``attacker`` and
    ``attack_target`` name the attack in progress (uids, or the place of a face-down target;
    ``"direct"`` for a direct attack). :meth:`to_dict` gives plain JSON-able data.
    """

    player: str
    turn: int
    turn_player: str
    phase: str
    """The ``turn`` machine's state: ``main_phase_1``, ``battle_phase`` …"""
    state: str
    """The full state path (public: both players see the game's procedure)."""
    to_act: str | None
    players: tuple[PlayerView, PlayerView]
    chain: tuple[ChainLinkView, ...]
    attacker: str | None
    attack_target: str | None
    is_over: bool
    winner: str | None

    @property
    def you(self) -> PlayerView:
        return self.side(self.player)

    @property
    def opponent(self) -> PlayerView:
        return self.side("B" if self.player == "A" else "A")

    def side(self, player: str) -> PlayerView:
        return self.players[PLAYERS.index(player)]

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def _card_view(game: GameState, viewer: str, player: str, zone: Zone, index: int, card: CardInstance) -> CardView:
    position = card.position.value if zone is Zone.monster else None
    set_this_turn = zone in FACE_DOWN_ZONES and not card.face_up and card.set_turn == game.turn
    if not known_to(viewer, player, zone, card):
        key: tuple[object, ...] = (index, position, set_this_turn)
        found = _HIDDEN_VIEWS.get(key)
        if found is None:
            found = _HIDDEN_VIEWS[key] = CardView(index + 1, False, position, set_this_turn=set_this_turn)
        return found
    # on the field, ATK/DEF with the continuous effects in force (an Equip Spell, a Field Spell …)
    atk, defence = continuous.stats(game, card) if zone is Zone.monster else (card.atk, card.defence)
    key = (card, index, card.face_up, position, set_this_turn, atk, defence, card.level, card.name)
    found = _FIELD_VIEWS.get(key)
    if found is None:
        if len(_FIELD_VIEWS) >= _VIEWS_LIMIT:
            _FIELD_VIEWS.clear()
        stats = card.card is None or card.card.type is CardType.monster
        found = _FIELD_VIEWS[key] = CardView(
            index + 1, card.face_up, position, card.uid, card.card.id if card.card else "", card.name,
            atk if stats else None, defence if stats else None, card.level if stats else None, set_this_turn)
    return found


def _zone(game: GameState, viewer: str, player: str, zone: Zone) -> tuple[CardView, ...]:
    cards = game.players[player].zone_list(zone)
    if zone in _OPEN_ZONES or (zone is Zone.hand and viewer == player):  # known_to: the viewer knows each
        views = []
        table = _KNOWN_VIEWS
        for index, card in enumerate(cards):
            found = table.get((card, index, card.face_up, card.atk, card.defence, card.level))
            views.append(found if found is not None else _known_view(index, card))
        return tuple(views)
    return tuple(_card_view(game, viewer, player, zone, index, card) for index, card in enumerate(cards))


_OPEN_ZONES = (Zone.graveyard, Zone.banished, Zone.lingering)
_VIEWS_LIMIT = 8192
_KNOWN_VIEWS: dict[tuple[CardInstance, int, bool, int, int, int], CardView] = {}
"""The views of known cards off the field, by the card itself and what of it may change (a bounded
table, emptied when full; a view is a value, so the same card seen the same way is given again)."""
_FIELD_VIEWS: dict[tuple[object, ...], CardView] = {}
"""The same for a card on the field the viewer may know, by the card, its place and all the view
shows of it (ATK/DEF as the continuous effects make them)."""
_HIDDEN_VIEWS: dict[tuple[object, ...], CardView] = {}
"""The views of hidden cards, by all they show: a place, a position, whether Set this turn (a few)."""


def _known_view(index: int, card: CardInstance) -> CardView:
    key = (card, index, card.face_up, card.atk, card.defence, card.level)
    found = _KNOWN_VIEWS.get(key)
    if found is None:
        if len(_KNOWN_VIEWS) >= _VIEWS_LIMIT:
            _KNOWN_VIEWS.clear()
        spec = card.card
        stats = (card.atk, card.defence, card.level) if spec is None or spec.type is CardType.monster else ()
        found = _KNOWN_VIEWS[key] = CardView(index + 1, card.face_up, None, card.uid, spec.id if spec else "",
                                             card.name, *stats)
    return found


def _player_view(game: GameState, viewer: str, player: str) -> PlayerView:
    state = game.players[player]
    return PlayerView(
        player=player, lp=state.lp, hand_count=state.hand,
        hand=_zone(game, viewer, player, Zone.hand) if viewer == player else (),
        deck_count=state.deck,
        monsters=_zone(game, viewer, player, Zone.monster),
        spell_traps=_zone(game, viewer, player, Zone.spell_trap),
        graveyard_count=state.graveyard, graveyard=_zone(game, viewer, player, Zone.graveyard),
        banished=_zone(game, viewer, player, Zone.banished), lingering=_zone(game, viewer, player, Zone.lingering))


def observe(game: GameState, player: str) -> Observation:
    """What ``player`` may know of ``game`` now."""
    if player not in PLAYERS:
        raise ValueError(f"unknown player {player!r}; players are A and B")
    # what is hidden from the player matters here only for the cards the chain and the attack name
    attack = game.attack
    named = [uid for link in game.chain for uid in (link.uid, link.target, *link.more_targets)]
    if attack is not None:
        named += (attack.attacker, attack.target)
    hidden = hidden_of(game, player, named) if named else {}

    def ref(uid: str | None) -> str | None:
        found = hidden.get(uid) if uid is not None else None
        return found.ref if found is not None else uid

    chain = tuple(ChainLinkView(link.number, link.controller, ref(link.uid) or link.uid, _card_id(game, link.uid),
                                link.name, link.spell_speed, ref(link.target), link.negated,
                                tuple(ref(uid) or uid for uid in link.more_targets)) for link in game.chain)
    target = None if attack is None else ("direct" if attack.direct else ref(attack.target))
    attacker = ref(attack.attacker) if attack is not None else None
    return Observation(
        player=player, turn=game.turn, turn_player=game.turn_player,
        phase=game.frames[0].state if game.frames else "", state=game.path, to_act=holder(game),
        players=(_player_view(game, player, "A"), _player_view(game, player, "B")),
        chain=chain, attacker=attacker, attack_target=target,
        is_over=game.is_over, winner=game.winner)


def _card_id(game: GameState, uid: str) -> str:
    found = game.find(uid)
    card = found[2].card if found is not None else None
    return card.id if card is not None else ""
