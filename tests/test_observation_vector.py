"""The environment's observation vector (:func:`ygo_fsm.env.observation_vector`) reads the game
directly, without building the whole observation: at every transition of random duels it is
equal, value for value and for both players, to the vector read from
:meth:`Duel.observation <ygo_fsm.duel.Duel.observation>` (:func:`~ygo_fsm.env.observation_vector_of`),
the one place that decides what a player may know — and what is hidden from a player does not
change theirs.

The duels: random 40-card decks over the built-in cards and the generic pool's (spells, traps,
triggers, an Equip Spell and Field Spells that change ATK/DEF), and the fuzzer's setups that start
in a Battle Phase or a Damage Step, or with a monster to summon, with face-down cards on both fields
and monsters given only by name and stats."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

np = pytest.importorskip("numpy")
pytest.importorskip("pettingzoo")

from ygo_fsm import Duel, Setup, continuous, runtime  # noqa: E402
from ygo_fsm.cards import CardSpec, CardType, default_library, merge, read_card_file  # noqa: E402
from ygo_fsm.env import observation_vector, observation_vector_of  # noqa: E402
from ygo_fsm.fuzz import fuzz_library, random_setup  # noqa: E402
from ygo_fsm.game import PLAYERS, Position, Zone, other_player  # noqa: E402
from ygo_fsm.hiding import known_to  # noqa: E402
from ygo_fsm.state import GameState  # noqa: E402

POOL, _ = read_card_file(Path(__file__).resolve().parent / "scenarios" / "cards" / "pool.yaml")
CARDS = merge(default_library(), POOL)
_GRANTING = sorted(card.id for card in CARDS.values() if any(effect.grants is not None for effect in card.effects))
"""The Equip and Field Spells that change ATK/DEF (「山」, 「森」, the pool's Equip Spells …)."""


class _Seen(Counter[str]):
    """What the compared states held, so that the test knows it met each case it is about."""

    def note(self, game: GameState) -> None:
        self["states"] += 1
        self["chain"] += bool(game.chain)
        self["attack"] += game.attack is not None
        for viewer in PLAYERS:
            owner = other_player(viewer)
            side = game.players[owner]
            self["hidden_monster"] += any(not known_to(viewer, owner, Zone.monster, card) for card in side.monsters)
            self["hidden_spell_trap"] += any(not known_to(viewer, owner, Zone.spell_trap, card)
                                             for card in side.spell_traps)
            for monster in side.monsters:
                self["unnamed_monster"] += monster.card is None
                self["defence_position"] += monster.position is Position.defence
                self["changed_stats"] += continuous.stats(game, monster) != (monster.atk, monster.defence)


def _compare(duel: Duel, seen: _Seen) -> None:
    for player in PLAYERS:
        fast = observation_vector(duel, player)
        reference = observation_vector_of(duel.observation(player), duel.game)
        assert fast.dtype == reference.dtype and fast.shape == reference.shape
        differ = np.flatnonzero(fast != reference)
        assert not differ.size, (f"{player}'s vector differs from the one read from the observation at "
                                 f"{list(differ)}: {fast[differ]} against {reference[differ]} in {duel.state}")
    seen.note(duel.game)


def _random_decks(rng: random.Random) -> tuple[list[str], list[str]]:
    playable = sorted(card_id for card_id, card in CARDS.items() if card.type is CardType.monster)
    others = sorted(card_id for card_id, card in CARDS.items() if card.type is not CardType.monster)

    def deck() -> list[str]:
        cards = [rng.choice(playable) for _ in range(22)] + [rng.choice(others) for _ in range(12)]
        return cards + [rng.choice(_GRANTING) for _ in range(6)]

    return deck(), deck()


def _setups(seed: int) -> Iterator[tuple[Setup, dict[str, CardSpec]]]:
    """Deck duels over the pool, then fuzzer setups (Battle Phase, Damage Step, summons …)."""
    rng = random.Random(seed)
    for _ in range(3):
        deck_a, deck_b = _random_decks(rng)
        yield Setup.from_decks(deck_a, deck_b, seed=rng.randrange(2**31)), CARDS
    library = fuzz_library()
    made = 0
    while made < 12:
        scene = ("battle", "damage_step", "summon", "random")[made % 4]
        data = random_setup(rng, scene)
        if made % 3 == 0:  # monsters given only by name and stats, face-down ones among them
            data["players"]["B"]["monsters"] = [{"name": "通常兽", "atk": 1200, "def": 800},
                                                {"name": "伏兵", "atk": 500, "def": 1900,
                                                 "position": "defence", "face_up": False}]
        try:
            setup = Setup.model_validate(data)
            Duel(setup, library=library)
        except ValueError:  # a setup the rules forbid (the fuzzer's setups are random)
            continue
        made += 1
        yield setup, library


@pytest.mark.parametrize("seed", [1, 2])
def test_the_vector_is_the_one_read_from_the_observation_at_every_transition(
        seed: int, monkeypatch: pytest.MonkeyPatch) -> None:
    seen = _Seen()
    take = runtime.DuelRuntime._take

    def compared_take(self: Duel, *arguments: Any) -> None:
        take(self, *arguments)
        _compare(self, seen)

    monkeypatch.setattr(runtime.DuelRuntime, "_take", compared_take)
    choose = random.Random(seed)
    for setup, library in _setups(seed):
        duel = Duel(setup, library=library, auto_pass=choose.random() < 0.5, trace=False)
        for _ in range(600):
            if duel.is_over:
                break
            _compare(duel, seen)
            duel.apply(choose.choice(duel.legal_actions()))
    for case in ("chain", "attack", "hidden_monster", "hidden_spell_trap", "unnamed_monster", "defence_position",
                 "changed_stats"):
        assert seen[case], f"no state with {case} was compared ({dict(seen)})"


def test_what_is_hidden_from_a_player_does_not_change_their_vector() -> None:
    """The opponent's hand and Set cards and both decks' order and cards, changed in place: the
    player's vector stays; the opponent's own does change (they know their cards)."""
    rng = random.Random(7)
    changed_any = 0
    for setup, library in _setups(3):
        duel = Duel(setup, library=library, auto_pass=True, trace=False)
        for _ in range(rng.randint(0, 40)):
            if duel.is_over:
                break
            duel.apply(rng.choice(duel.legal_actions()))
        for viewer in PLAYERS:
            owner = other_player(viewer)
            before = observation_vector(duel, viewer)
            other = duel.copy()
            side = other.players[owner]
            replacement = library[sorted(library)[rng.randrange(len(library))]]
            hidden = [card for zone, card in side.all_cards() if not known_to(viewer, owner, zone, card)]
            for card in hidden:
                card.card, card.name = replacement, replacement.name_ja
            other.players[viewer].deck_cards.reverse()
            side.deck_cards.reverse()
            assert np.array_equal(observation_vector(other, viewer), before)
            if hidden:
                changed_any += not np.array_equal(observation_vector(other, owner), observation_vector(duel, owner))
    assert changed_any
