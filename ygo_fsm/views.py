"""What one player may know: the per-player view of a duel, and masking of what they may not.

A player knows their own hand, every face-up card, both graveyards and the banished cards,
both LP, the chain (activated cards are face-up), their own Set cards, and the counts of the
opponent's hand and of both decks. They do not know the cards in the opponent's hand, the
identity of the opponent's face-down cards, or the order (or contents) of any deck: a Set card
or monster is "a face-down card in zone N" to the opponent (001 【怪兽通常召唤…】３ 公开确认…
（里侧表示通常召唤的场合不公开）; the official rules on looking at cards, as Yugipedia's "Look"
gives them: neither player may look at either Main Deck, nor at the opponent's hand or
face-down cards; each may look at their own hand and face-down cards, both at the graveyards
and face-up banished cards — https://yugipedia.com/wiki/Look).

:func:`observe` builds that knowledge as an :class:`Observation`: frozen dataclasses of plain
values (ints, strings, bools, tuples), equal whenever the player's knowledge is equal — two
duels that differ only in what the player may not know give equal observations. The parts:
:mod:`ygo_fsm.hiding` (which cards are hidden from a viewer, and their places),
:mod:`ygo_fsm.observation` (the observation) and this module (masking keys, labels and narration).

A card hidden from a player is named, wherever that player is shown it (an option key or
label of ``Duel.legal_actions()``, a line of ``Duel.trace_for(player)``), by its place:
``B.spell_trap.2`` — player, zone, and its place in the zone counted from 1 in the order the
cards came there (the model keeps each zone as an ordered list, not as fixed slots). The
place is public; the card's uid is not, since a uid follows a card through hidden moves.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import lru_cache
from operator import attrgetter
from typing import NamedTuple, TypeVar

from .game import PLAYERS, Zone
from .hiding import HIDING_ZONES, Hidden, hidden_from, hidden_of, known_to, place_ref, place_text
from .observation import CardView, ChainLinkView, Observation, PlayerView, observe
from .state import ZONE_ATTRIBUTES, CardInstance, GameState, PlayerState

__all__ = [
    "CardView",
    "ChainLinkView",
    "Hidden",
    "Observation",
    "PlayerView",
    "Sight",
    "SightKeeper",
    "hidden_among",
    "hidden_from",
    "key_uids",
    "known_to",
    "mask_key",
    "mask_label",
    "mask_text",
    "observe",
    "place_ref",
    "place_text",
    "record_views",
    "sight",
]


def hidden_among(game: GameState, viewer: str, uids: Iterable[str] = (),
                 lines: Iterable[str] = ()) -> dict[str, Hidden]:
    """The part of :func:`hidden_from` that masking ``uids`` and ``lines`` reads:
    the hidden cards among ``uids`` and, for each name that appears quoted (「…」) in one of
    ``lines``, the first hidden card of that name. :func:`mask_key`, :func:`mask_label` and
    :func:`mask_text` give the same text with it as with all of :func:`hidden_from` for keys
    naming only ``uids`` and for those lines."""
    texts = tuple(lines)
    if texts:
        return _masking(sight(game), viewer, uids, texts)[0]
    return _hidden_named(game, viewer, set(uids))


def _hidden_named(game: GameState, viewer: str, wanted: set[str]) -> dict[str, Hidden]:
    """:func:`hidden_among` for keys only: the hidden cards among ``wanted``, read from the live game
    (:func:`~ygo_fsm.hiding.hidden_of`)."""
    if not wanted or game.all_in_zones_but_deck(viewer, wanted):
        return {}  # all in the viewer's own zones but the deck: known to them (known_to)
    return hidden_of(game, viewer, wanted)


_ZONE_CARDS = tuple((zone, zone in HIDING_ZONES) for zone in ZONE_ATTRIBUTES)
"""Each zone, in :data:`~ygo_fsm.state.ZONE_ATTRIBUTES` order, and whether a card there may be hidden."""


class Sight(NamedTuple):
    """What masking reads of a game at one moment (:func:`sight`): the cards of every zone in
    order (a card keeps its uid and name), whether each monster and Spell/Trap is face-up, and
    the summon in progress."""

    zones: tuple[tuple[tuple[CardInstance, ...], ...], ...]
    """Per player (A, B), per zone in :data:`~ygo_fsm.state.ZONE_ATTRIBUTES` order."""
    face_up: tuple[tuple[tuple[bool, ...], ...], ...]
    """Per player: the monsters', then the Spells/Traps'."""
    summon: tuple[str, str, str, CardInstance | None] | None
    """The summon in progress: its uid, kind, player and the monster taken out."""


def sight(game: GameState, before: Sight | None = None) -> Sight:
    """What masking reads of ``game`` now, kept as it is while the game goes on. Where a player's
    zones (or one zone) hold the very cards they held in ``before``, an earlier sight of the same
    game, its tuples are kept instead of new equal ones, and where nothing differs ``before`` itself
    is the sight: a trace's sights share what did not change."""
    a, b = game.players["A"], game.players["B"]
    zones_a, zones_b = a.zone_tuples(), b.zone_tuples()
    if before is None:
        return Sight((zones_a, zones_b), (_face_ups(a), _face_ups(b)), _summoned(game))
    return _unless_same(before, _kept(zones_a, before.zones[0]), _kept(zones_b, before.zones[1]), game)


def _face_ups(player: PlayerState) -> tuple[tuple[bool, ...], ...]:
    """Whether each of ``player``'s monsters, then each of their Spells/Traps, is face-up."""
    return tuple(map(_FACE_UP, player.monsters)), tuple(map(_FACE_UP, player.spell_traps))


def _summoned(game: GameState) -> tuple[str, str, str, CardInstance | None] | None:
    summon = game.summon
    return None if summon is None else (summon.uid, summon.kind, summon.player, summon.card)


def _unless_same(before: Sight, zones_a: tuple[tuple[CardInstance, ...], ...],
                 zones_b: tuple[tuple[CardInstance, ...], ...], game: GameState) -> Sight:
    """The sight of ``game`` with these zones (``before``'s tuples where they did not change), or
    ``before`` itself when nothing differs from it."""
    # _face_ups, _kept and _summoned written out: this runs for every trace row that narrates or has a choice
    old_up_a, old_up_b = before.face_up
    a, b = game.players["A"], game.players["B"]
    now_a: tuple[tuple[bool, ...], ...] = tuple(map(_FACE_UP, a.monsters)), tuple(map(_FACE_UP, a.spell_traps))
    face_up_a = old_up_a if now_a == old_up_a else _kept(now_a, old_up_a)
    now_b: tuple[tuple[bool, ...], ...] = tuple(map(_FACE_UP, b.monsters)), tuple(map(_FACE_UP, b.spell_traps))
    face_up_b = old_up_b if now_b == old_up_b else _kept(now_b, old_up_b)
    summon = game.summon
    summoned = None if summon is None else (summon.uid, summon.kind, summon.player, summon.card)
    if (zones_a is before.zones[0] and zones_b is before.zones[1] and face_up_a is old_up_a
            and face_up_b is old_up_b and summoned == before.summon):
        return before
    return Sight((zones_a, zones_b), (face_up_a, face_up_b), summoned)


_T = TypeVar("_T")


def _kept(now: tuple[tuple[_T, ...], ...], before: tuple[tuple[_T, ...], ...]) -> tuple[tuple[_T, ...], ...]:
    """One player's ``now`` (per zone), or ``before`` when it is equal; else ``before``'s tuple of each
    zone that is equal (cards compare by identity)."""
    if now == before:
        return before
    return tuple([old if new == old else new for new, old in zip(now, before, strict=True)])


class SightKeeper:
    """Takes a trace's sights one after another: each is :func:`sight` of the game with the one
    before. A player's zones are read as :meth:`~ygo_fsm.state.PlayerState.zone_tuples` gives them,
    the same tuples until a zone changes, so an unchanged zone (a deck of 35 cards) is neither
    copied nor compared, and where nothing changed the sight before is the sight."""

    __slots__ = ("last",)

    def __init__(self) -> None:
        self.last: Sight | None = None
        """The newest sight taken."""

    def copy(self) -> SightKeeper:
        """A keeper that goes on from the same sight."""
        clone = SightKeeper()
        clone.last = self.last
        return clone

    def see(self, game: GameState) -> Sight:
        """What masking reads of ``game`` now: equal to :func:`sight` of it, sharing the zone tuples
        the sight before holds where a zone's cards did not change (that sight itself where nothing did)."""
        last = self.last
        if last is None:
            seen = self.last = sight(game)
            return seen
        a, b = game.players["A"], game.players["B"]
        zones_a, zones_b = a._kept.zones, b._kept.zones
        if zones_a is None:
            zones_a = a.zone_tuples()
        if zones_b is None:
            zones_b = b.zone_tuples()
        seen = _unless_same(last, zones_a, zones_b, game)
        if seen is not last:
            self.last = seen
        return seen


_FACE_UP = attrgetter("face_up")


_QUOTED = re.compile(r"「([^「」]*)」")
"""A quoted name without brackets of its own: ``「{name}」`` is in a line exactly when it is one of them."""

_INDEX_LIMIT = 512
_ZoneIndex = tuple[dict[str, int], dict[str, int], tuple[str, ...]]
_zone_indexes: dict[tuple[CardInstance, ...], _ZoneIndex] = {}


def _bracketed(name: str) -> bool:
    return "「" in name or "」" in name


def _zone_index(cards: tuple[CardInstance, ...]) -> _ZoneIndex:
    """A zone's first place of each name, the place of each uid, and the names with brackets of
    their own. Cards keep their uid and name, so the index of the same cards in the same order is
    looked up, not rebuilt."""
    found = _zone_indexes.get(cards)
    if found is None:
        if len(_zone_indexes) >= _INDEX_LIMIT:
            _zone_indexes.clear()
        firsts: dict[str, int] = {}
        places: dict[str, int] = {}
        for index, card in enumerate(cards):
            firsts.setdefault(card.name, index)
            places.setdefault(card.uid, index)
        found = _zone_indexes[cards] = (firsts, places, tuple(name for name in firsts if _bracketed(name)))
    return found


def _masking(seen: Sight, viewer: str, uids: Iterable[str],
             lines: tuple[str, ...]) -> tuple[dict[str, Hidden], set[str]]:
    """One pass over the zones: :func:`hidden_among`, and the names quoted in ``lines`` that a
    card ``viewer`` may see bears (the shown names :func:`mask_text` takes)."""
    wanted = set(uids)
    hidden: dict[str, Hidden] = {}
    shown: set[str] = set()
    first: set[str] = set()
    tokens = {token for line in lines for token in _QUOTED.findall(line)}

    def hit(name: str) -> bool:
        """``「{name}」`` is in one of the lines."""
        return name in tokens or (_bracketed(name) and any(f"「{name}」" in line for line in lines))

    summon = seen.summon
    summoned = summon[0] if summon is not None and summon[1] != "set" else None
    for player, zones, (monsters_up, spell_traps_up) in zip(PLAYERS, seen.zones, seen.face_up, strict=True):
        other = player != viewer
        for (zone, may_hide), cards in zip(_ZONE_CARDS, zones, strict=True):
            if not cards:
                continue
            if not may_hide:  # graveyard, banished, lingering, Field Zone: seen by both
                if lines:
                    firsts, _, odd = _zone_index(cards)
                    shown.update(name for name in (*tokens, *odd) if name in firsts and hit(name))
                continue
            if zone is Zone.deck:  # hidden from both players (known_to)
                firsts, places, odd = _zone_index(cards)
                if summoned not in places:
                    names = (*tokens, *odd) if lines else ()
                    entries = sorted({*(places[uid] for uid in wanted if uid in places),
                                      *(firsts[name] for name in names
                                        if name in firsts and name not in first and hit(name))})
                    for index in entries:
                        card = cards[index]
                        hidden[card.uid] = Hidden(card.uid, card.name, player, zone, index)
                        first.add(card.name)
                    continue
            elif not (lines or wanted):
                continue
            face_up = monsters_up if zone is Zone.monster else spell_traps_up
            for index, card in enumerate(cards):  # the same tests as known_to's
                uid = card.uid
                if ((zone is Zone.deck or (other and (zone is Zone.hand or not face_up[index])))
                        and uid != summoned):
                    if uid in wanted or (lines and card.name not in first and hit(card.name)):
                        hidden[uid] = Hidden(uid, card.name, player, zone, index)
                        first.add(card.name)
                elif lines and hit(card.name):
                    shown.add(card.name)
    taken_out = summon[3] if summon is not None else None
    if summon is not None and taken_out is not None:
        _, kind, summoner, _ = summon
        if kind == "set" and summoner != viewer:
            if taken_out.uid in wanted or (lines and taken_out.name not in first and hit(taken_out.name)):
                hidden[taken_out.uid] = Hidden(taken_out.uid, taken_out.name, summoner, None, 0)
        elif lines and hit(taken_out.name):
            shown.add(taken_out.name)
    return hidden, shown


_KEY_PARTS = re.compile(r"([>+#])")


def mask_key(key: str, hidden: dict[str, Hidden]) -> str:
    """An option key with every uid of a hidden card replaced by its place
    (``cyclone>mirror_force`` → ``cyclone>B.spell_trap.1``)."""
    if not hidden or not any(uid in key for uid in hidden):
        return key
    parts = _KEY_PARTS.split(key)
    for number, part in enumerate(parts):
        prefix = "until_" if part.startswith("until_") else ""
        found = hidden.get(part[len(prefix):])
        if found is not None:
            parts[number] = prefix + found.ref
    return "".join(parts)


@lru_cache(maxsize=4096)
def key_uids(key: str) -> tuple[str, ...]:
    """The parts of an option key that may name a card (``cyclone>until_x`` → cyclone, x; worked
    out once per key)."""
    return tuple(part.removeprefix("until_") for part in _KEY_PARTS.split(key))


def mask_label(label: str, key: str, hidden: dict[str, Hidden]) -> str:
    """An option label with the name of every hidden card its key names replaced by its place.
    A target's name is replaced after the arrow (``「サイクロン」 → 「…」``); a label that would
    still name a hidden card becomes the masked key."""
    masked = label
    for uid in key_uids(key):
        found = hidden.get(uid)
        if found is None:
            continue
        quoted, place = f"「{found.name}」", f"「{found.text}」"
        head, arrow, tail = masked.partition(" → ")
        if arrow and quoted in tail:
            masked = head + arrow + tail.replace(quoted, place, 1)
        else:
            masked = masked.replace(quoted, place, 1)
    head, arrow, tail = masked.partition(" → ")
    checked = tail if arrow else masked  # the card before the arrow is the acting player's own
    if any(f"「{found.name}」" in checked for found in (hidden.get(uid) for uid in key_uids(key)) if found):
        return mask_key(key, hidden)
    return masked


_TARGETING = ("选择", "攻击对象为", "把", "里侧表示的")


def mask_text(line: str, hidden: dict[str, Hidden], shown_names: Iterable[str] = (),
              chosen_names: Iterable[str] = ()) -> str:
    """A narration line with the names of hidden cards replaced by their places. When a card
    the viewer may see has the same name, only the names right after 选择 / 攻击对象为 / 把 /
    里侧表示的 (a target, a tribute, a face-down card) are replaced — unless the record's option
    names a card of that name the viewer may see (``chosen_names``): the line is about that card,
    and its name stays."""
    if not hidden:
        return line
    shown = set(shown_names)
    done: set[str] = set(chosen_names) & shown
    for found in hidden.values():
        name = found.name
        if name in done:  # the first hidden card of a name has replaced it already, or the line is about a seen one
            continue
        quoted = f"「{name}」"
        if quoted not in line:
            continue
        done.add(name)
        place = f"「{found.text}」"
        if name not in shown:
            line = line.replace(quoted, place)
        else:
            for lead in _TARGETING:
                line = line.replace(lead + quoted, lead + place)
    return line


# --- the observation -----------------------------------------------------------------


def mask_record(game: GameState | Sight, viewer: str, choice: str | None,
                detail: Iterable[str]) -> tuple[str | None, tuple[str, ...]] | None:
    """A trace record's option and narration as ``viewer`` may see them now (hidden cards
    named by their place), or ``None`` when they reveal nothing hidden.

    "Now" is once the transition is taken: a card that the transition hides (Set, or returned
    to a hand) is masked in its own narration too — the view errs on the side of hiding.
    Narration names cards by their printed names; when a card the viewer may see has the same
    name as a hidden one, only the names right after 选择 / 攻击对象为 / 把 are masked
    (:func:`mask_text`). ``game`` may be what :func:`sight` kept of it at that moment."""
    lines = tuple(detail)
    seen = game if isinstance(game, Sight) else sight(game)
    named = key_uids(choice) if choice is not None else ()
    hidden, shown = _masking(seen, viewer, named, lines)
    if not hidden:
        return None
    masked_choice = mask_key(choice, hidden) if choice is not None else None
    if any(f"「{found.name}」" in line for line in lines for found in hidden.values()):
        chosen = _names(seen, {uid for uid in named if uid not in hidden})
        masked_lines = tuple(mask_text(line, hidden, shown, chosen) for line in lines)
    else:
        masked_lines = lines
    if masked_choice == choice and masked_lines == lines:
        return None
    return masked_choice, masked_lines


def _names(seen: Sight, uids: set[str]) -> set[str]:
    """The names of the cards ``uids`` where :func:`sight` saw them (the monster taken out for a
    summon included)."""
    if not uids:
        return set()
    names = {card.name for zones in seen.zones for cards in zones for card in cards if card.uid in uids}
    taken_out = seen.summon[3] if seen.summon is not None else None
    if taken_out is not None and taken_out.uid in uids:
        names.add(taken_out.name)
    return names


def record_views(seen: Sight, choice: str | None, detail: tuple[str, ...]) -> tuple[dict[str, object], ...]:
    """Each player's view of a trace record (its option and narration) where it names a card
    hidden from that player, from what :func:`sight` kept once the transition was taken."""
    if choice is None and not detail:
        return ()
    views: list[dict[str, object]] = []
    for player in PLAYERS:
        masked = mask_record(seen, player, choice, detail)
        if masked is not None:
            views.append({"player": player, "choice": masked[0], "detail": masked[1]})
    return tuple(views)
