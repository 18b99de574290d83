"""Auto-pass: the duel passes for a player whose only legal action is ``pass``
(004 ●每个阶段…双方玩家都放弃优先权 — passing is still each player's act, so every pass stays in
the history and the trace, with ``actor`` and the ``auto_pass`` flag)."""

from __future__ import annotations

import pytest
from helpers import play_randomly

from ygo_fsm import Duel
from ygo_fsm.engine import default_rulebook
from ygo_fsm.trace import narrate

DECK = (["sage_chiron"] * 8 + ["reflect_bounder"] * 8 + ["cyclone"] * 6 + ["sakuretsu_armor"] * 6
        + ["mirror_force"] * 4 + ["spirit_dragon"] * 4 + ["killer_snake"] * 4)


def _auto_duel(auto_pass: object = True, decisions: int = 150, seed: int = 4) -> Duel:
    return play_randomly(Duel.new_game(DECK, DECK, seed=seed, auto_pass=auto_pass), seed, decisions)


def test_auto_pass_is_off_by_default() -> None:
    duel = Duel()
    assert duel.auto_pass == frozenset()
    assert [str(a) for a in duel.legal_actions()] == ["pass"]  # a judge is asked for every pass
    assert duel.auto_passes == 0


def test_auto_pass_passes_only_when_pass_is_the_only_legal_action() -> None:
    auto = _auto_duel()
    flagged = {record.seq for record in auto.trace if record.auto_pass}
    assert flagged and auto.auto_passes == len(flagged)
    manual = Duel(auto.setup)
    for action in auto.history:
        before = manual.transitions_taken
        if before + 1 in flagged:
            assert [str(a) for a in manual.legal_actions()] == ["pass"]
        manual.apply(action)
    assert manual == auto


def test_auto_pass_traces_narrate_like_manual_passes() -> None:
    auto = _auto_duel()
    manual = Duel.replay(auto.setup, auto.history)
    specs = default_rulebook().specs
    for lang, flag in (("zh", "（自动）"), ("en", " (auto)")):
        auto_text = narrate(auto.trace, specs, lang=lang)
        assert flag in auto_text
        assert auto_text.replace(flag, "") == narrate(manual.trace, specs, lang=lang)
    for record, same in zip(auto.trace, manual.trace, strict=True):
        assert record.model_copy(update={"auto_pass": False}) == same
        if record.auto_pass:
            assert record.event == "pass" and record.actor in ("A", "B")


def test_auto_pass_for_one_player() -> None:
    duel = _auto_duel(auto_pass={"B"})
    assert {record.actor for record in duel.trace if record.auto_pass} == {"B"}
    with pytest.raises(ValueError, match="unknown player"):
        Duel(auto_pass={"C"})


@pytest.mark.parametrize("auto_pass", [5, None, 1.0])
def test_auto_pass_that_names_no_players_is_refused_naming_it(auto_pass: object) -> None:
    with pytest.raises(TypeError, match=rf"auto_pass takes True, False or the players it passes for \(A, B\), "
                                        rf"not {type(auto_pass).__name__}"):
        Duel(auto_pass=auto_pass)  # type: ignore[arg-type]


@pytest.mark.parametrize("option", ["trace", "record_refusals"])
@pytest.mark.parametrize("value", ["no", 0, None])
def test_a_duel_option_that_is_not_true_or_false_is_refused_naming_it(option: str, value: object) -> None:
    """``Duel(trace="no")`` would keep a trace (a non-empty text is true): it is refused instead."""
    with pytest.raises(TypeError, match=rf"{option} is True or False, not {type(value).__name__}"):
        Duel(**{option: value})  # type: ignore[arg-type]


def test_auto_pass_survives_copy_and_pickle() -> None:
    import pickle

    duel = _auto_duel(decisions=40)
    for other in (duel.copy(), pickle.loads(pickle.dumps(duel))):
        assert other.auto_pass == duel.auto_pass and other == duel
