"""The flat rows a duel keeps of its transitions (:meth:`ygo_fsm.runtime.DuelRuntime._take`) read
as :class:`~ygo_fsm.trace.TraceRecord` records when its trace is read.

A row (:data:`ROW_WIDTH` items) says what every record of its transition says the same once
(``CompiledTransition.record_head``), where the transition left the frames (the level of the frame
that moved and how many frames there were after it), from which the state path is worked out, and
who must act as the innermost state's role when the row's own turn player and chain name that player
(:func:`~ygo_fsm.priority.seat_holder`). The turn, the chain, the LP and the hands are one
:data:`RowContext`, shared by the rows of transitions that cannot change them.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any

from .priority import seat_holder
from .spec import Role
from .trace import TraceRecord
from .views import Sight, record_views

if TYPE_CHECKING:
    from .engine import StateRuntime

ROW_WIDTH = 10
"""The items of a row: a duel keeps its rows one after another in one list, not as an object each
(fewer objects for the collector to follow), and reads them back in groups of this many. A row's seq
is not kept: it is its place, as the duel takes one row a transition."""

RowContext = tuple[int, str, tuple[dict[str, object], ...], int, int, int, int]
"""What a row says of the game around its transition: the turn, the turn player, the chain, the LP
of A and B and the cards in their hands. Only a transition that may move a card (one with a callback
outside :data:`~ygo_fsm.registry.CARDS_STAY`) changes them, so the rows of the others share the
context of the row before, and a player's action takes it anew (the game may have been changed from
outside before it)."""


def records_of_rows(rows: Iterable[tuple[Any, ...]], first_seq: int, path_base: tuple[str, ...],
                    runtime: Mapping[str, Mapping[str, StateRuntime]]) -> list[TraceRecord]:
    """The records of ``rows``, the first of them numbered ``first_seq`` and starting from the frames'
    states ``path_base``."""
    records = []
    states = list(path_base)
    for seq, row in enumerate(rows, first_seq):
        head, actor, holder, level, depth, choice, detail, auto, context, seen = row
        turn, turn_player, chain, lp_a, lp_b, hand_a, hand_b = context
        machine, source, dest, event, transition, rule = head
        if isinstance(holder, Role):  # a role read from the seats when the row was kept
            holder = seat_holder(holder, turn_player, chain[-1]["controller"] if chain else None)
        # the frames further out stay; the one that moved is at dest; the machines it entered start
        del states[level:]
        states.append(dest)
        if depth > level + 1:
            states += [initial for _, initial in runtime[machine][dest].enters[:depth - level - 1]]
        records.append(TraceRecord.model_validate({
            "seq": seq, "turn": turn, "turn_player": turn_player, "machine": machine, "source": source,
            "dest": dest, "event": event, "transition": transition, "actor": actor, "priority": holder,
            "chain": chain, "rule": rule, "state": ".".join(states), "choice": choice, "detail": detail,
            "auto_pass": auto, "lp": {"A": lp_a, "B": lp_b}, "hand": {"A": hand_a, "B": hand_b},
            "views": record_views(seen, choice, detail) if isinstance(seen, Sight) else (),
        }))
    return records
