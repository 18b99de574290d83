"""Card movements that operations and the rules share: sending a card to the graveyard (as
destroyed, by battle, by an effect or as a cost), drawing, discarding — each with the events it
records (PR17: what happened, for triggers and for missing the timing)."""

from __future__ import annotations

from .cards import Event
from .effects import find, move
from .events import emit, face_of
from .game import Zone
from .state import CardInstance, GameState, PlayerState

ORIGINS = {Zone.hand: "hand", Zone.monster: "field", Zone.spell_trap: "field", Zone.field_zone: "field",
           Zone.deck: "deck", Zone.graveyard: "graveyard", Zone.banished: "banished"}
"""The :class:`~ygo_fsm.cards.Origin` of a card leaving each zone."""


def to_graveyard(game: GameState, card: CardInstance, *, destroyed: bool, cause: str = "", by: str = "",
                 resolved: bool = False, together: bool = False) -> None:
    """Send ``card`` to its owner's graveyard (``cause``: ``battle``, ``effect`` (``by`` whose
    effect), ``cost``). A spell or trap card that goes there because its activation resolved
    (``resolved``) is not an event: it does not make a "when" trigger miss its timing.
    ``together``: at the same time as what was recorded just before (several monsters destroyed
    by one effect); its events (sent, destroyed, a monster sent) are one thing happening
    (PR17 missing the timing)."""
    where = find(game, card.uid)
    was_monster = where is not None and where[1] is Zone.monster
    face = face_of(card, where[1]) if where is not None else ""
    if where is not None and card.card is not None and not resolved:
        emit(game, Event.sent_to_graveyard, where[0], card.uid, cause=cause, by=by,
             origin=ORIGINS.get(where[1], ""), together=together, face=face)
        together = True
    if destroyed:
        card.destroyed_turn = game.turn
    card.face_up = True
    if was_monster:
        card.leave_field()
    if card.card is None:  # an unnamed monster: it only counts
        if where is not None:
            game.players[where[0]].zone_list(where[1]).remove(card)
        game.players[card.owner].graveyard += 1
    else:
        move(game, card, Zone.graveyard)
    if was_monster and where is not None:
        if destroyed:
            emit(game, Event.destroyed, where[0], card.uid, cause=cause, by=by, origin="field", together=together,
                 face=face)
            together = True
        emit(game, Event.monster_sent_to_graveyard, where[0], card.uid, cause=cause, by=by, origin="field",
             together=together, face=face)


def draw_card(game: GameState, player: str) -> int:
    """Draw the top card (unnamed cards first); 0 when the deck is empty."""
    state: PlayerState = game.players[player]
    if state.deck - len(state.deck_cards) > 0:
        state.deck -= 1
        state.hand += 1
    elif state.deck_cards:
        state.hand_cards.append(state.deck_cards.pop(0))
    else:
        return 0
    emit(game, Event.drawn, player)
    return 1


def discard(game: GameState, player: str, count: int, *, chosen: tuple[str, ...] = (), cause: str = "",
            by: str = "", skip: str | None = None) -> None:
    """Discard ``count`` cards: the named cards ``chosen`` (uids), then unnamed ones, then named
    ones in hand order (never ``skip``). ``cause``: ``effect`` (``by`` whose), ``cost`` or
    ``hand_size_rule``."""
    state = game.players[player]

    def discarded(card: CardInstance) -> None:
        move(game, card, Zone.graveyard)
        emit(game, Event.sent_to_graveyard, player, card.uid, cause=cause, by=by, origin="hand")
        emit(game, Event.discarded, player, card.uid, cause=cause, by=by, origin="hand", together=True)

    for uid in chosen[:count]:
        found = find(game, uid)
        if found is not None and found[1] is Zone.hand:
            discarded(found[2])
    for _ in range(count - len(chosen[:count])):
        if state.unnamed_hand > 0:
            state.hand -= 1
            state.graveyard += 1
            emit(game, Event.discarded, player, cause=cause, by=by, origin="hand")
        else:
            card = next((c for c in state.hand_cards if c.uid != skip), None)
            if card is not None:
                discarded(card)
