"""What a viewer may not know of a duel: which cards are hidden from them (:func:`known_to`,
:func:`hidden_from`) and how such a card is named instead, by its place (:func:`place_ref`);
the rules are in :mod:`ygo_fsm.views`' docstring."""

from __future__ import annotations

from collections.abc import Iterable
from typing import NamedTuple

from .game import PLAYERS, Zone
from .state import CardInstance, GameState

__all__ = ["FACE_DOWN_ZONES", "HIDING_ZONES", "Hidden", "hidden_from", "hidden_of", "known_to", "place_ref",
           "place_text"]

HIDING_ZONES = (Zone.hand, Zone.monster, Zone.spell_trap, Zone.deck)
"""The zones where a card may be hidden from a player: only the deck from its own player."""


def place_ref(player: str, zone: Zone, index: int) -> str:
    """How a card is named by its place: ``B.spell_trap.2`` (``index`` counts from 0)."""
    return f"{player}.{zone.value}.{index + 1}"


def place_text(player: str, zone: Zone, index: int) -> str:
    """The place in words, for labels and narration: ``B的魔法与陷阱区域第2张里侧表示的卡``."""
    return f"{player}的{_ZONE_TEXT[zone]}第{index + 1}张{'里侧表示的卡' if zone in FACE_DOWN_ZONES else '卡'}"


_ZONE_TEXT = {Zone.hand: "手卡", Zone.monster: "怪兽区域", Zone.spell_trap: "魔法与陷阱区域",
              Zone.graveyard: "墓地", Zone.deck: "卡组", Zone.banished: "除外区", Zone.lingering: "场上"}
FACE_DOWN_ZONES = (Zone.monster, Zone.spell_trap)
_DECK, _HAND = Zone.deck, Zone.hand
"""Module constants: under Python 3.11 an enum member read from its class costs several times a global,
and :func:`known_to` is asked of every card a view shows."""


def known_to(viewer: str, player: str, zone: Zone, card: CardInstance) -> bool:
    """Whether ``viewer`` may know which card ``card`` is, in ``player``'s ``zone``: the hand
    only to its holder; a face-down card on the field only to its controller; no deck card to
    anyone (the order is unknown); graveyard, banished and face-up cards to both."""
    if zone is _DECK:
        return False
    if zone is _HAND:
        return viewer == player
    if zone in FACE_DOWN_ZONES:
        return card.face_up or viewer == player
    return True


class Hidden(NamedTuple):
    """One card hidden from a viewer: what it is (for masking) and where it is."""

    uid: str
    name: str
    player: str
    zone: Zone | None
    """``None`` for a monster being Set, taken out and in no zone."""
    place: int
    """Its place in the zone, from 0."""

    @property
    def ref(self) -> str:
        """``B.spell_trap.2``."""
        return place_ref(self.player, self.zone, self.place) if self.zone is not None else f"{self.player}.summon.1"

    @property
    def text(self) -> str:
        """The place in words."""
        return place_text(self.player, self.zone, self.place) if self.zone is not None else \
            f"{self.player}正在覆盖放置的怪兽"


def hidden_from(game: GameState, viewer: str) -> dict[str, Hidden]:
    """The named cards ``viewer`` may not know, by uid. A monster being summoned (not Set) is
    shown from its declaration (001 【怪兽通常召唤…】３ 公开确认…); a monster being Set stays hidden
    while it is taken out (…里侧表示通常召唤的场合不公开)."""
    hidden: dict[str, Hidden] = {}
    summon = game.summon
    shown = summon.uid if summon is not None and summon.kind != "set" else None
    for player in PLAYERS:
        state = game.players[player]
        for zone in HIDING_ZONES if player != viewer else (Zone.deck,):
            for index, card in enumerate(state.zone_list(zone)):
                if card.uid != shown and not known_to(viewer, player, zone, card):
                    hidden[card.uid] = Hidden(card.uid, card.name, player, zone, index)
    if summon is not None and summon.card is not None and summon.kind == "set" and summon.player != viewer:
        hidden[summon.card.uid] = Hidden(summon.card.uid, summon.card.name, summon.player, None, 0)
    return hidden


def hidden_of(game: GameState, viewer: str, uids: Iterable[str | None]) -> dict[str, Hidden]:
    """The entries of :func:`hidden_from` for ``uids`` only (``None`` names no card), each card
    looked up where it is rather than every zone read: what an observation naming a few cards
    (the chain's, the attack's) needs."""
    hidden: dict[str, Hidden] = {}
    summon = game.summon
    shown = summon.uid if summon is not None and summon.kind != "set" else None
    for uid in uids:
        if uid is None or uid == shown or uid in hidden:
            continue
        found = game.find(uid)
        if found is not None:
            player, zone, card = found
            hiding = HIDING_ZONES if player != viewer else (Zone.deck,)
            if zone in hiding and not known_to(viewer, player, zone, card):
                hidden[uid] = Hidden(uid, card.name, player, zone, game.players[player].zone_list(zone).index(card))
        elif (summon is not None and summon.card is not None and summon.kind == "set" and summon.player != viewer
              and summon.card.uid == uid):
            hidden[uid] = Hidden(uid, summon.card.name, summon.player, None, 0)
    return hidden
