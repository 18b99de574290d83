"""Activation legality (:mod:`ygo_fsm.legality`) for the operations and costs of the effect
vocabulary: a card or effect can be activated only when its cost can be paid in full and what its
resolution does can be done at that moment (PR17 pp.133–134, p.145; Yugipedia "Cost": a cost
that cannot be paid in full cannot be paid). Cards from the generic pool
(tests/scenarios/cards/pool.yaml)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from helpers import judge_duel

from ygo_fsm import Duel, Setup, default_library, load_library, merge
from ygo_fsm.effects import activation_refusals
from ygo_fsm.game import Zone

POOL = Path(__file__).resolve().parent / "scenarios" / "cards" / "pool.yaml"
LIBRARY = merge(default_library(), load_library(POOL))


def duel(a: list[dict[str, Any]], b: list[dict[str, Any]] | None = None, **a_setup: Any) -> Duel:
    players = {"A": {"cards": a, **a_setup}, "B": {"cards": b or []}}
    setup = Setup.model_validate({"profile": "modern", "turn": 3, "phase": "main_phase_1", "players": players})
    return judge_duel(setup, library=LIBRARY)


def _offered(duel: Duel, card: str) -> bool:
    return any(str(action).startswith(f"activate {card}") for action in duel.legal_actions())


def _codes(duel: Duel, card: str) -> list[str]:
    return [reason.code for reason in activation_refusals(duel.game, "A", card)]


def test_pr17_p133_a_search_needs_a_card_that_fits_in_the_deck() -> None:
    """「斥候の号令」 adds a beast from the deck to the hand: with no beast in the deck it cannot be
    activated; with one it can (PR17 pp.133–134)."""
    hand = [{"card": "scout_call", "zone": "hand"}, {"card": "plain_warrior", "zone": "hand"}]
    without = duel(hand, hand=0, deck=3)
    assert not _offered(without, "scout_call")
    assert _codes(without, "scout_call") == ["card_in_deck"]
    with_beast = duel([*hand, {"card": "deck_beast", "zone": "deck"}], hand=0, deck=3)
    assert _offered(with_beast, "scout_call")
    assert _codes(with_beast, "scout_call") == []


def test_yugipedia_cost_a_discard_cost_needs_another_card_in_the_hand() -> None:
    """「斥候の号令」's cost is discarding 1 card: the card itself does not pay it, so alone in the
    hand it cannot be activated (Yugipedia "Cost"; PR17 p.145)."""
    alone = duel([{"card": "scout_call", "zone": "hand"}, {"card": "deck_beast", "zone": "deck"}], hand=0, deck=3)
    assert not _offered(alone, "scout_call")
    assert _codes(alone, "scout_call") == ["cost_discard"]


def test_pr17_p133_tokens_need_free_monster_zones() -> None:
    """「羊の囲い」 special summons 2 tokens: with only 1 free Monster Zone it cannot be activated
    (PR17 pp.133–134: what the resolution does must be possible)."""
    four = [{"card": "plain_warrior", "zone": "monster"} for _ in range(4)]
    crowded = duel([{"card": "sheep_pen", "zone": "hand"}, *four])
    assert not _offered(crowded, "sheep_pen")
    assert _codes(crowded, "sheep_pen") == ["free_monster_zone"]
    roomy = duel([{"card": "sheep_pen", "zone": "hand"}, *four[:3]])
    assert _offered(roomy, "sheep_pen")


def test_yugipedia_field_zone_a_set_field_spell_is_a_set_spell_on_the_field() -> None:
    """A Field Spell in the Field Zone is a Spell Card on the field (Yugipedia "Field Zone"): B's
    「罠砕き」 (target 1 Set Spell/Trap on the field) may choose A's Set 「山」 and destroys it."""
    game = duel([{"card": "mountain", "zone": "field_zone"}],
                [{"card": "trap_breaker", "zone": "spell_trap"}])
    for action in ["pass", "activate trap_breaker>mountain", "pass", "pass"]:
        game.apply(action)
    assert game.where("mountain") == ("A", Zone.graveyard)


def test_grave_call_targets_only_the_monsters_in_the_graveyards() -> None:
    """「墓所の呼び声」 选择双方墓地1只怪兽 (target: graveyard_monster): the target options are the monsters in
    either graveyard; a spell card there is not a monster and cannot be chosen (Yugipedia "Target":
    only a card that fits what the effect targets can be chosen)."""
    game = duel([{"card": "grave_call", "zone": "hand"}, {"card": "cyclone", "zone": "graveyard"}],
                [{"card": "plain_warrior", "zone": "graveyard"}, {"card": "soul_rope", "zone": "graveyard"}])
    offered = sorted(str(a) for a in game.legal_actions() if str(a).startswith("activate grave_call"))
    assert offered == ["activate grave_call>plain_warrior"]


def test_a_cost_naming_the_monster_to_tribute_tributes_that_monster() -> None:
    """「供物の騎士」 把自己场上1只「通常獣」解放 (cost tribute_named): the monster tributed for the cost is
    a 「通常獣」, not another monster that happens to come first (Yugipedia "Cost": the cost is
    what the card says)."""
    game = duel([{"card": "offering_knight", "zone": "monster"}, {"card": "plain_warrior", "zone": "monster"},
                 {"card": "plain_beast", "zone": "monster"}, {"card": "plain_dragon", "zone": "deck"}], deck=10)
    game.apply("activate offering_knight")
    assert game.where("plain_beast") == ("A", Zone.graveyard)
    assert game.where("plain_warrior") == ("A", Zone.monster)


def test_that_monster_is_the_one_whose_event_the_effect_answers() -> None:
    """「献身の鏡」 自己场上的怪兽成为效果的对象时…那只怪兽除外 (what: event_card): 'that monster' is the monster
    whose targeting the trap answers, not the newest card anything happened to — here the monster
    Normal Summoned just before, whose summon opened the window (Yugipedia "Target"; 000 ※卡／效果的
    发动时点: a card answers the event named in its text)."""
    game = duel([{"card": "plain_warrior", "zone": "monster"}, {"card": "plain_beast", "zone": "hand"},
                 {"card": "sacrifice_mirror", "zone": "spell_trap"}, {"card": "plain_dragon", "zone": "graveyard"}],
                [{"card": "sudden_recall", "zone": "spell_trap"}])
    game.apply("normal_summon plain_beast")
    for _ in range(10):
        if "activate sudden_recall>plain_warrior" in [str(a) for a in game.legal_actions()]:
            break
        game.apply("pass")
    game.apply("activate sudden_recall>plain_warrior")
    game.apply("respond sacrifice_mirror")
    while game.chain:
        game.apply("pass")
    assert game.where("plain_warrior") == ("A", Zone.banished)
    assert game.where("plain_beast") == ("A", Zone.monster)
