"""Who must act (a trace record's ``priority``) is the player named by the innermost state of the
record's path that declares a ``priority:`` role (:mod:`ygo_fsm.priority`): the turn player, the
opponent, or by the chain's newest link the responder (the other player) and the last activator
(its controller). Worked out here from the declared machines and the record alone, at every record
of random full duels, including a duel saved and loaded halfway."""

from __future__ import annotations

import pytest
from helpers import play_randomly

from ygo_fsm import Duel, default_rulebook
from ygo_fsm.bench_duels import MIXED_DECK, VANILLA_DECK
from ygo_fsm.spec import Role
from ygo_fsm.trace import TraceRecord


def _declared_holder(record: TraceRecord) -> tuple[str | None, Role | None]:
    """Who the declarations say must act after ``record``, and the role that says so; for a trigger
    player's role, the record's own holder (the tier being placed is not in the record)."""
    rulebook = default_rulebook()
    machine: str | None = "turn"
    role: Role | None = None
    for state_id in record.state.split("."):
        assert machine is not None, f"{record.state}: a state below one that runs no machine"
        spec = rulebook.state(machine, state_id)
        role = spec.priority if spec.priority is not None else role  # the innermost declared role
        machine = spec.machine
    opponent = "B" if record.turn_player == "A" else "A"
    newest = record.chain[-1].controller if record.chain else None
    if role is Role.turn_player:
        return record.turn_player, role
    if role is Role.opponent:
        return opponent, role
    if role is Role.responder:
        return (("B" if newest == "A" else "A") if newest else opponent), role
    if role is Role.last_activator:
        return newest or record.turn_player, role
    return (record.priority if role is Role.trigger_player else None), role


@pytest.mark.parametrize(("deck", "seed"), [(MIXED_DECK, 3), (MIXED_DECK, 11), (VANILLA_DECK, 4)])
def test_the_holder_is_named_by_the_innermost_state_with_a_role(deck: tuple[str, ...], seed: int) -> None:
    duel = Duel.new_game(list(deck), list(deck), seed=seed, auto_pass=True)
    play_randomly(duel, seed, 150)
    loaded = Duel.from_json(duel.to_json(trace=True), auto_pass=True)
    play_randomly(loaded, seed + 1, 2000)
    trace = loaded.trace
    if loaded.is_over:  # nobody acts once the duel is decided
        assert trace[-1].priority is None
        trace = trace[:-1]
    roles: dict[Role | None, int] = {}
    for record in trace:
        expected, role = _declared_holder(record)
        assert record.priority == expected, f"record {record.seq} in {record.state}: {record.priority}"
        roles[role] = roles.get(role, 0) + 1
    assert len(trace) > 2000
    assert roles.get(None, 0) > 100 and roles.get(Role.turn_player, 0) > 100 and roles.get(Role.opponent, 0) > 100
    if deck is MIXED_DECK:  # cards were activated: chains were built and answered
        assert roles.get(Role.responder, 0) > 0 and roles.get(Role.last_activator, 0) + roles.get(
            Role.trigger_player, 0) > 0
