"""The resolution vocabulary (issue: effects as data): each operation does what its name says.
Cards are built here with exactly the operation under test; expected values follow the text of
the operation and the clause cited."""

from __future__ import annotations

from typing import Any

from helpers import card_spec, library

from ygo_fsm import Duel, Setup
from ygo_fsm.game import TurnEffect, Zone, card_id_uids


def quick(card_id: str, *ops: dict[str, Any], target: str = "none") -> Any:
    return card_spec(card_id, "spell", {"kind": "quick_play_spell", "location": "hand", "target": target,
                                         "resolution": list(ops)})


def resolve(duel: Duel, action: str) -> None:
    """The turn player activates, nobody responds, the chain resolves."""
    duel.apply(action)
    duel.apply("pass")
    duel.apply("pass")


def duel_in(phase: str, cards: Any, players: dict[str, Any]) -> Duel:
    setup = Setup.model_validate({"profile": "ocg2008", "turn": 3, "phase": phase, "players": players})
    return Duel(card_id_uids(setup), library=cards)


def test_discard_makes_the_opponent_discard() -> None:
    """Op discard: the affected player discards that many cards from the hand to the graveyard."""
    cards = library(quick("forceful", {"op": "discard", "amount": 2, "to": "opponent"}))
    duel = duel_in("main_phase_1", cards, {"A": {"cards": [{"card": "forceful", "zone": "hand"}]},
                                            "B": {"hand": 3}})
    resolve(duel, "activate forceful")
    assert (duel.players["B"].hand, duel.players["B"].graveyard) == (1, 2)


def test_banish_removes_the_target() -> None:
    """Op banish: the target is banished (it goes to neither the graveyard nor the hand)."""
    cards = library(quick("banisher", {"op": "banish", "what": "target"}, target="opponent_monster"),
                    card_spec("victim", "monster"))
    duel = duel_in("main_phase_1", cards, {"A": {"cards": [{"card": "banisher", "zone": "hand"}]},
                                            "B": {"cards": [{"card": "victim", "zone": "monster"}]}})
    resolve(duel, "activate banisher>victim")
    assert duel.where("victim") == ("B", Zone.banished)


def test_skip_phase_skips_it_in_the_affected_players_next_turn() -> None:
    """Op skip_phase (e.g. 「刻の封印」: the opponent's next Draw Phase is skipped, 000 ●ドローフェイズ【１】)."""
    cards = library(quick("seal", {"op": "skip_phase", "what": "draw_phase", "to": "opponent"}))
    duel = duel_in("main_phase_1", cards, {"A": {"cards": [{"card": "seal", "zone": "hand"}]}, "B": {"deck": 5}})
    resolve(duel, "activate seal")
    assert not duel.effect_applies(TurnEffect.skip_draw_phase), "not this turn"
    for _ in range(60):
        if duel.turn == 4 and duel.in_state("standby_phase"):
            break
        names = [a.name for a in duel.legal_actions()]
        duel.apply("pass" if "pass" in names else "enter_end_phase" if "enter_end_phase" in names else names[0])
    assert duel.turn == 4 and duel.turn_player == "B" and duel.in_state("standby_phase")  # past the Draw Phase
    assert duel.players["B"].deck == 5, "B's Draw Phase of turn 4 was skipped"


def test_end_battle_phase_goes_straight_to_the_end_step() -> None:
    """004 ●『战斗阶段结束』的效果处理的场合，直接进入结束步骤."""
    cards = library(card_spec("stop", "trap", {"kind": "normal_trap", "location": "set",
                                               "resolution": [{"op": "end_battle_phase"}]}))
    duel = duel_in("battle_phase", cards, {"A": {"monsters": [{"name": "X", "atk": 1000}]},
                                            "B": {"cards": [{"card": "stop", "zone": "spell_trap"}]}})
    duel.apply("pass")                    # A passes in the Start Step
    duel.apply("pass")                    # B too: the Battle Step
    assert duel.in_state("battle_phase.battle_step")
    duel.apply("pass")                    # A
    for action in ("activate stop", "pass", "pass"):  # B activates it; both pass: it resolves
        duel.apply(action)
    duel.apply("pass")                    # the window after the chain
    duel.apply("pass")
    assert duel.in_state("battle_phase.end_step"), duel.state
    assert not any(a.name == "declare_attack" for a in duel.legal_actions())
