"""The action fuzzer (``make fuzz`` runs 100,000 actions; here a seeded slice) and the checks it
relies on, each shown to catch what it is for."""

from __future__ import annotations

import random

import pytest

from ygo_fsm import Duel, Setup
from ygo_fsm.duel import Action
from ygo_fsm.errors import IllegalActionError
from ygo_fsm.fuzz import SCENES, fuzz_library, invariant_problems, random_setup, run_fuzz, snapshot

SLICE_ACTIONS = 40_000
SLICE_SEED = 1


def test_fuzz_slice_finds_nothing_and_takes_every_declared_transition() -> None:
    """STANDARDS: an illegal action leaves the duel exactly as before; the engine keeps its
    invariants; replay and copy() are deterministic; every declared transition can be reached."""
    report = run_fuzz(SLICE_ACTIONS, SLICE_SEED)
    assert report.actions == SLICE_ACTIONS
    assert (report.corruptions, report.crashes, report.hangs) == (0, 0, 0), "\n".join(report.problems)
    assert report.missing == []
    assert report.refusals > SLICE_ACTIONS // 5
    assert report.summary() == (f"{SLICE_ACTIONS} actions, {report.refusals} refusals, 0 corruptions, 0 crashes, "
                                f"0 hangs, coverage {len(report.declared)}/{len(report.declared)} transitions")


def _uids(duel: Duel) -> frozenset[str]:
    return frozenset(card.uid for player in duel.players.values() for _, card in player.all_cards())


def test_snapshot_sees_a_change_to_any_card() -> None:
    duel = Duel(Setup.model_validate({"phase": "main_phase_1", "players": {
        "A": {"cards": [{"card": "sapphire_dragon", "zone": "monster"}]}}}))
    before = snapshot(duel)
    assert snapshot(duel.copy()) == before
    duel.players["A"].monsters[0].atk += 1
    assert snapshot(duel) != before


def test_invariants_catch_a_sixth_monster_and_a_lost_card() -> None:
    """000/002: five monster zones a side; a card is always somewhere."""
    duel = Duel(Setup.model_validate({"phase": "main_phase_1", "players": {
        "A": {"cards": [{"card": "sapphire_dragon", "zone": "monster"}]}}}))
    uids = _uids(duel)
    assert invariant_problems(duel, uids) == []
    monster = duel.players["A"].monsters[0]
    duel.players["A"].monsters.extend(monster.copy() for _ in range(5))
    assert any("6 monsters" in p for p in invariant_problems(duel, uids))
    duel.players["A"].monsters.clear()
    assert any("lost" in p for p in invariant_problems(duel, uids))


def test_fuzzer_counts_a_refusal_that_changes_the_duel(monkeypatch: pytest.MonkeyPatch) -> None:
    """A broken ``apply`` that changes LP before refusing is reported as a corruption."""
    original = Duel.apply

    def leaky(self: Duel, action: Action | str) -> None:
        try:
            original(self, action)
        except IllegalActionError:
            self.players["A"].lp -= 1
            raise

    monkeypatch.setattr(Duel, "apply", leaky)
    report = run_fuzz(300, 1)
    assert report.corruptions > 0 and "changed the duel" in report.problems[0]


def test_every_scene_makes_valid_setups() -> None:
    rng = random.Random(0)
    library = fuzz_library()
    for scene in SCENES:
        made = 0
        for _ in range(20):
            try:
                Duel(Setup.model_validate(random_setup(rng, scene)), library=library)
            except ValueError:
                continue
            made += 1
        assert made >= 10, scene
