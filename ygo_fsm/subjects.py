"""Event subjects: whether an effect answers one thing that happened.

An effect that answers events (a trigger, or a card with a specific timing such as 「～時」)
names them in ``events:`` and narrows them with three orthogonal words:

- ``subject:`` whose event — ``this_card`` (「このカードが破壊された時」: only this card's
  own), ``own`` (a card of the effect's controller), ``opponent`` (a card of the opponent),
  ``any``;
- ``cause:`` what caused it — ``battle``, ``effect`` (a card effect), ``opponent_effect`` (a
  card effect the opponent controls), ``cost``, ``hand_size_rule`` (000 ●エンドフェイズ【３】);
- ``origin:`` where the card came from — ``hand``, ``field``, ``deck``, ``graveyard``,
  ``banished``;
- ``face:`` how the card was when it happened — ``face_up`` (「表側表示のモンスターが破壊された時」)
  or ``face_down``, recorded for the events of :data:`ygo_fsm.vocabulary.FACE_EVENTS`.

Something that happened is an :class:`~ygo_fsm.state.Occurrence` (event, player, card,
cause, by, origin). A chain link's activation is one too: the activated card's (「～が発動した時」),
and its target's when it has one (``targeted``).
"""

from __future__ import annotations

from collections.abc import Iterable

from .cards import CHAIN1_ONLY_EVENTS, Cause, EffectSpec, Event, Face, Origin, Subject
from .events import face_of
from .state import CardInstance, GameState, Link, Occurrence


def answers(effect: EffectSpec, player: str, card: CardInstance, occurrence: Occurrence) -> bool:
    """``effect`` of ``card`` (controlled by ``player``) answers ``occurrence``."""
    if occurrence.event not in effect.events:
        return False
    subject = effect.subject
    if subject is Subject.this_card and occurrence.uid != card.uid:
        return False
    if subject is Subject.own and occurrence.player != player:
        return False
    if subject is Subject.opponent and occurrence.player == player:
        return False
    cause = effect.cause
    if cause is Cause.opponent_effect:
        if occurrence.cause != Cause.effect.value or occurrence.by in ("", player):
            return False
    elif cause is not Cause.any and occurrence.cause != cause.value:
        return False
    if effect.face is not Face.any and occurrence.face != effect.face.value:
        return False
    return effect.origin is Origin.any or occurrence.origin == effect.origin.value


def link_occurrences(game: GameState, link: Link) -> list[Occurrence]:
    """The newest link's activation as things that happened: each event of the activation is the
    activated card's, ``targeted`` is its target's (controlled by whoever controls it)."""
    found = []
    for event in sorted(link.events, key=lambda e: e.value):
        if event is Event.targeted and link.target is not None:
            for target in (link.target, *link.more_targets):  # each target is targeted, together
                where = game.find(target)
                found.append(Occurrence(event, where[0] if where else link.controller, target,
                                        cause=Cause.effect.value, by=link.controller,
                                        together=target != link.target,
                                        face=face_of(where[2], where[1]) if where else ""))
        else:
            found.append(Occurrence(event, link.controller, link.uid, by=link.controller))
    return found


def occurrences_now(game: GameState) -> list[Occurrence]:
    """What a response may answer now: the newest link's activation, then the events that opened
    the current window — but a link after CHAIN1 never answers an event only CHAIN1 answers
    (:data:`~ygo_fsm.cards.CHAIN1_ONLY_EVENTS`: the summon attempt)."""
    found = link_occurrences(game, game.chain[-1]) if game.chain else []
    if game.window is not None:
        found += [o for o in game.window.events if not (game.chain and o.event in CHAIN1_ONLY_EVENTS)]
    return found


def event_card(effect: EffectSpec, player: str, card: CardInstance,
               occurrences: Iterable[Occurrence]) -> str | None:
    """The card of the newest occurrence ``effect`` answers (its ``what: event_card``)."""
    chosen = None
    for occurrence in occurrences:
        if occurrence.uid is not None and answers(effect, player, card, occurrence):
            chosen = occurrence.uid
    return chosen
