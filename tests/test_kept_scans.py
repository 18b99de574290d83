"""What the runtime keeps of a player's effects between transitions (``GameState.card_scans``:
:func:`ygo_fsm.in_play.effects_of` and its sorts; the effects of a zone's cards, looked up by those
cards) is always what a fresh scan of the cards finds:
a transition that runs only callbacks of ``CARDS_STAY`` moves no card, turns no monster face-down
(so no Equip Card loses its monster), changes no negation, and changes neither the turn, the chain,
the LP nor the hands that a trace row's context holds (``trace_rows.RowContext``, shared by the rows
of such transitions), and every other one drops what was kept; so are the choosers' lists kept with
them (the normal summons and the Sets of the Main Phase). Checked after every transition of
random full duels; and what is kept in ``GameState.scans`` while the state holds still (the Damage
Step's activation limit) is what the declarations give."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from helpers import play_randomly

from ygo_fsm import Duel, effects, in_play, runtime, summon, summon_rules
from ygo_fsm.bench_duels import MIXED_DECK, VANILLA_DECK
from ygo_fsm.game import PLAYERS
from ygo_fsm.in_play import SORTS, effects_of, effects_of_sort
from ygo_fsm.registry import CARDS_STAY
from ygo_fsm.state import ZONE_ATTRIBUTES, GameState


def _scan(entries: list[Any]) -> list[tuple[str, str, int]]:
    return [(zone.value, card.uid, index) for zone, card, index, _ in entries]


def _fresh(game: GameState, player: str, sort: str | None) -> list[tuple[str, str, int]]:
    """A scan of the cards as they are now: nothing kept in the game, no zone's effects nor an
    effect's sorts looked up."""
    kept, game.card_scans = game.card_scans, None
    known, game.effect_cards = game.effect_cards, None
    zones, in_play._ZONE_EFFECTS = in_play._ZONE_EFFECTS, {}
    sorts, in_play._EFFECT_SORTS = in_play._EFFECT_SORTS, {}
    try:
        return _scan(effects_of(game, player) if sort is None else effects_of_sort(game, player, sort))
    finally:
        game.card_scans = kept
        game.effect_cards = known
        in_play._ZONE_EFFECTS = zones
        in_play._EFFECT_SORTS = sorts


def _cards(game: GameState) -> list[tuple[str, str, tuple[str, ...]]]:
    return [(player, attribute, tuple(card.uid for card in getattr(game.players[player], attribute)))
            for player in PLAYERS for attribute in ZONE_ATTRIBUTES.values()]


def _face_up_monsters(game: GameState) -> set[str]:
    return {m.uid for player in PLAYERS for m in game.players[player].monsters if m.face_up}


def _context(game: GameState) -> tuple[Any, ...]:
    """What a trace row says of the turn, the chain, the LP and the hands (``trace_rows.RowContext``)."""
    chain = [(link.number, link.name, link.controller, link.spell_speed, link.negated, link.negation)
             for link in game.chain]
    return (game.turn, game.turn_player, chain, *(game.players[p].lp for p in PLAYERS),
            *(game.players[p].hand for p in PLAYERS))


def _negated(game: GameState) -> list[str]:
    return sorted(expiry.uid for expiry in game.expiring if expiry.kind == "negated")


_KEPT_LISTS: tuple[tuple[Any, Any], ...] = (
    (summon_rules.normal_summonable, summon.normal_summonable),
    (summon_rules.settable_spell_traps, summon.settable_spell_traps),
)
"""Choosers whose lists are kept while no card moves, with what lists them afresh (002 ●主要阶段1:
the monsters that may be normal summoned or set, the spells and traps that may be set)."""


@pytest.fixture
def checked(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[int]]:
    """After every transition: the kept scans equal fresh ones, and a transition whose callbacks
    all keep the cards kept them (the count of transitions checked is yielded)."""
    count = [0]
    take = runtime.DuelRuntime._take

    def checked_take(self: runtime.DuelRuntime, level: int, transition: Any, *options: Any) -> None:
        game = self.game
        before, negated, face_up, context = _cards(game), _negated(game), _face_up_monsters(game), _context(game)
        take(self, level, transition, *options)
        if all(name in CARDS_STAY for name in transition.spec.callbacks):
            assert not transition.moves_cards
            assert _cards(game) == before, f"{transition.spec.id} moved a card"
            assert _context(game) == context, f"{transition.spec.id} changed the turn, chain, LP or a hand"
            assert face_up <= _face_up_monsters(game), f"{transition.spec.id} turned a monster face-down"
            assert _negated(game) == negated, f"{transition.spec.id} changed a negation"
        for player in PLAYERS:
            if game.card_scans is not None and player in game.card_scans:
                assert _scan(effects_of(game, player)) == _fresh(game, player, None), transition.spec.id
            for sort in SORTS:
                if game.card_scans is not None and f"{sort}:{player}" in game.card_scans:
                    assert _scan(effects_of_sort(game, player, sort)) == _fresh(game, player, sort)
        for chooser, lister in _KEPT_LISTS:
            if game.card_scans is not None and chooser in game.card_scans:
                assert game.card_scans[chooser] == lister(game), f"{transition.spec.id}: {chooser.__name__} kept stale"
        count[0] += 1

    monkeypatch.setattr(runtime.DuelRuntime, "_take", checked_take)
    yield count


@pytest.mark.parametrize(("deck", "seed"), [(MIXED_DECK, 3), (MIXED_DECK, 8), (MIXED_DECK, 13), (VANILLA_DECK, 4)])
def test_kept_effects_are_what_a_fresh_scan_finds(checked: list[int], deck: tuple[str, ...], seed: int) -> None:
    duel = Duel.new_game(list(deck), list(deck), seed=seed, auto_pass=True, trace=False)
    play_randomly(duel, seed, 600)
    assert checked[0] > 1000  # whole turns were played and checked


def test_a_duel_of_normal_monsters_has_no_effect_to_scan_and_one_with_a_card_changed_in_from_outside_does() -> None:
    """A Normal Monster has no effect, so in a duel of them no player has one and the scan is skipped
    (``GameState.effect_cards``); a library card with an effect put into a hand from outside is found
    once the duel is told the game changed, and a copy knows what the original knew."""
    from ygo_fsm.cards import default_library
    from ygo_fsm.state import CardInstance

    duel = Duel.new_game(list(VANILLA_DECK), list(VANILLA_DECK), seed=2, auto_pass=True)
    game = duel.game
    assert effects_of(game, "A") == [] and effects_of(game, "B") == []
    assert game.effect_cards is False and duel.copy().game.effect_cards is False
    cyclone = CardInstance.of_card("cyclone", "A", default_library()["cyclone"])
    game.players["A"].hand_cards.append(cyclone)
    duel._forget()
    assert [card.uid for _, card, _, _ in effects_of(game, "A")] == ["cyclone"]
    assert game.effect_cards is True and effects_of(game, "B") == []
    mixed = Duel.new_game(list(MIXED_DECK), list(MIXED_DECK), seed=2, auto_pass=True).game
    assert mixed.has_effect_cards() and mixed.copy().effect_cards is True


def test_the_sorts_are_filters_of_the_effects_in_their_order() -> None:
    duel = play_randomly(Duel.new_game(list(MIXED_DECK), list(MIXED_DECK), seed=21, auto_pass=True), 21, 150)
    game = duel.game
    for player in PLAYERS:
        everything = effects_of(game, player)
        assert everything  # the mixed deck's cards have effects
        for sort, keep in SORTS.items():
            assert _scan(effects_of_sort(game, player, sort)) == _scan([e for e in everything if keep(e[3])])


def _declared_limit(game: GameState) -> object:
    """The activation limit of the innermost active state that declares one, read from the
    declarations (004 伤害步骤: the states of ``damage_step`` declare which limit holds)."""
    for frame in reversed(game.frames):
        limit = game.state_specs[(frame.machine, frame.state)].activation_limit
        if limit is not None:
            return limit
    return None


def test_the_activation_limit_read_while_the_state_holds_still_is_the_declared_one(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The Damage Step's limit on what may be activated (004 伤害步骤), kept in ``game.scans``
    between transitions, is at every option search and after every transition the one the active
    states declare then; the duels reach the states that declare one."""
    seen = {"searches": 0, "limited": 0}
    find, take = runtime.DuelRuntime._find_options, runtime.DuelRuntime._take

    def checked_find(self: runtime.DuelRuntime) -> list[Any]:
        options = find(self)
        declared = _declared_limit(self.game)
        assert effects.activation_limit(self.game) == declared, self.state
        seen["searches"] += 1
        seen["limited"] += declared is not None
        return options

    def checked_take(self: runtime.DuelRuntime, level: int, transition: Any, *options: Any) -> None:
        effects.activation_limit(self.game)  # kept, if anything keeps it, from the state before
        take(self, level, transition, *options)
        assert effects.activation_limit(self.game) == _declared_limit(self.game), transition.spec.id

    monkeypatch.setattr(runtime.DuelRuntime, "_find_options", checked_find)
    monkeypatch.setattr(runtime.DuelRuntime, "_take", checked_take)
    for seed in (3, 8):
        play_randomly(Duel.new_game(list(MIXED_DECK), list(MIXED_DECK), seed=seed, auto_pass=True, trace=False),
                      seed, 600)
    assert seen["searches"] > 500
    assert seen["limited"] > 0  # searches inside the Damage Step were checked


@pytest.mark.parametrize(("deck", "seed"), [(MIXED_DECK, 5), (VANILLA_DECK, 6)])
def test_every_trace_record_says_the_turn_chain_lp_and_hands_as_they_were_after_its_transition(
        monkeypatch: pytest.MonkeyPatch, deck: tuple[str, ...], seed: int) -> None:
    """DESIGN trace contract: a record's ``turn``, ``turn_player``, ``chain``, ``lp`` and ``hand`` are the
    game's right after its transition, also where rows share one context (``trace_rows.RowContext``)
    and where the game was changed from outside between two actions (000 基本规则: LP, 手卡)."""
    after: list[tuple[Any, ...]] = []
    take = runtime.DuelRuntime._take

    def noted_take(self: runtime.DuelRuntime, *arguments: Any) -> None:
        take(self, *arguments)
        after.append(_context(self.game))

    monkeypatch.setattr(runtime.DuelRuntime, "_take", noted_take)
    duel = play_randomly(Duel.new_game(list(deck), list(deck), seed=seed, auto_pass=True), seed, 150)
    duel.players["A"].lp -= 1234  # from outside, between two actions
    duel.players["B"].hand_cards.clear()
    play_randomly(duel, seed + 1, 40)
    said = [(r.turn, r.turn_player, [(c.number, c.card, c.controller, c.spell_speed, c.negated, c.negation)
                                      for c in r.chain], r.lp.A, r.lp.B, r.hand.A, r.hand.B) for r in duel.trace]
    assert len(said) == len(after) > 1000
    assert said == after
