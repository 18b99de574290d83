"""Special summons by a monster's own procedure pay their costs at step 2
(000 【怪兽通常***、反转***、特殊***的处理】２支付…特殊***的条件: 「青眼の光龍」等的场上的特定怪兽作祭品、
「メガロック・ドラゴン」等的墓地的特定怪兽除外)."""

from __future__ import annotations

from helpers import card_spec, library

from ygo_fsm import Duel, Setup
from ygo_fsm.cards import default_library
from ygo_fsm.game import Zone, card_id_uids


def legal(duel: Duel) -> list[str]:
    return [str(action) for action in duel.legal_actions()]


def main_phase(players: dict[str, object], cards: dict | None = None) -> Duel:
    setup = Setup.model_validate({"profile": "ocg2008", "turn": 3, "phase": "main_phase_1", "players": players})
    return Duel(card_id_uids(setup), library=cards)


def test_shining_dragon_tributes_only_the_named_monster() -> None:
    """000 ２「青眼の光龍」等的场上的特定怪兽作祭品: only 「青眼の究極竜」 may be tributed."""
    duel = main_phase({"A": {"monsters": [{"name": "Other", "atk": 100}],
                             "cards": [{"card": "blue_eyes_shining_dragon", "zone": "hand"},
                                       {"card": "blue_eyes_ultimate_dragon", "zone": "monster"}]}})
    assert "special_summon blue_eyes_shining_dragon" in legal(duel)
    assert "normal_summon blue_eyes_shining_dragon" not in legal(duel), "a special summon monster"
    duel.apply("special_summon blue_eyes_shining_dragon")
    assert duel.state == "main_phase_1.summon.pay_conditions"
    assert legal(duel) == ["tribute blue_eyes_ultimate_dragon"]
    duel.apply("tribute blue_eyes_ultimate_dragon")
    assert duel.in_state("main_phase_1.summon.negation_window")
    assert duel.where("blue_eyes_ultimate_dragon") == ("A", Zone.graveyard)


def test_shining_dragon_is_not_offered_without_its_tribute() -> None:
    """000 ２: the condition cannot be paid, so there is no special summon to declare."""
    duel = main_phase({"A": {"monsters": [{"name": "Other", "atk": 100}],
                             "cards": [{"card": "blue_eyes_shining_dragon", "zone": "hand"}]}})
    assert not any(action.startswith("special_summon") for action in legal(duel))


ROCK = card_spec("rock", "monster", race="rock")


def test_megarock_banishes_from_the_graveyard_at_step_2() -> None:
    """000 ２「メガロック・ドラゴン」等的墓地的特定怪兽除外."""
    cards = {**library(ROCK), "megarock_dragon": default_library()["megarock_dragon"]}
    duel = main_phase({"A": {"cards": [{"card": "megarock_dragon", "zone": "hand"},
                                       {"card": "rock", "zone": "graveyard"}]}}, cards)
    duel.apply("special_summon megarock_dragon")
    assert duel.in_state("main_phase_1.summon.negation_window"), "no tribute to choose: step 2 is paid at once"
    assert duel.where("rock") == ("A", Zone.banished)
    duel.apply("pass")
    duel.apply("pass")
    assert duel.where("megarock_dragon") == ("A", Zone.monster)


def test_megarock_needs_a_rock_in_the_graveyard() -> None:
    """000 ２: with no rock monster to banish it cannot be special summoned."""
    cards = {**library(ROCK), "megarock_dragon": default_library()["megarock_dragon"]}
    duel = main_phase({"A": {"cards": [{"card": "megarock_dragon", "zone": "hand"}]}}, cards)
    assert "special_summon megarock_dragon" not in legal(duel)
