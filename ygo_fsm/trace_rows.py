"""The rows a duel keeps of its transitions (:meth:`ygo_fsm.runtime.DuelRuntime._take`) read as
:class:`~ygo_fsm.trace.TraceRecord` records when its trace is read.

A row is one reference: to a :data:`RowHead`, what every record of its transition says the same
(``CompiledTransition.record_head``), who acted and whether auto-pass did, who must act as the
innermost state's role when the row's own turn player and chain name that player
(:func:`~ygo_fsm.priority.seat_holder`), and where the transition left the frames (the level of the
frame that moved and how many frames there were after it), from which the state path is worked out.
A transition keeps one row head for each of these it is seen with, shared by every duel. What the
rows of most transitions do not have is kept beside them, by seq: the option chosen, the narration
and the players' views (:data:`RowExtra`), and the turn, the chain, the LP and the hands
(:data:`RowContext`) where they differ from the row before.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any, cast

from .priority import seat_holder
from .spec import Role
from .trace import TraceRecord
from .views import Sight, record_views

if TYPE_CHECKING:
    from .engine import StateRuntime
    from .state import Link

RowHead = tuple[tuple[str, str, str, str, str, str], str, Any, int, int, bool]
"""A row: ``(record head, actor, who must act, level, frames, auto-pass)``. A duel keeps its rows one
after another in one list, one reference each (fewer objects for the collector to follow, and less
memory written a transition). A row's seq is not kept: it is its place, as the duel takes one row a
transition."""

RowContext = tuple[int, str, tuple[dict[str, object], ...], int, int, int, int]
"""What a row says of the game around its transition: the turn, the turn player, the chain, the LP
of A and B and the cards in their hands. Only a transition that may move a card (one with a callback
outside :data:`~ygo_fsm.registry.CARDS_STAY`) changes them, and a player's action takes them anew
(the game may have been changed from outside before it); a duel keeps a context by the seq of the
first row it holds for, and the rows after it share it until the next one."""

RowExtra = tuple[str | None, tuple[str, ...], Any]
"""What a row of a transition with a chosen option or narration says besides: the option's key, the
narration lines and what masking reads of the game then (a :class:`~ygo_fsm.views.Sight`)."""

_NO_EXTRA: RowExtra = (None, (), ())


def chain_snapshot(chain: Iterable[Link]) -> tuple[dict[str, object], ...]:
    """The chain as a row's context says it: each link's number, card, controller, spell speed and negation."""
    return tuple({"number": link.number, "card": link.name, "controller": link.controller,
                  "spell_speed": link.spell_speed, "negated": link.negated, "negation": link.negation}
                 for link in chain)


def records_of_rows(rows: Iterable[RowHead], first_seq: int, path_base: tuple[str, ...],
                    runtime: Mapping[str, Mapping[str, StateRuntime]], contexts: Mapping[int, RowContext],
                    extras: Mapping[int, RowExtra], context: RowContext | None) -> list[TraceRecord]:
    """The records of ``rows``, the first of them numbered ``first_seq`` and starting from the frames'
    states ``path_base``; ``contexts`` and ``extras`` by seq, ``context`` the one in force before the
    first row (``None`` when the first row has its own)."""
    records = []
    states = list(path_base)
    for seq, row in enumerate(rows, first_seq):
        head, actor, holder, level, depth, auto = row
        context = contexts.get(seq, context)
        assert context is not None  # the first row a duel keeps has its context
        choice, detail, seen = extras.get(seq, _NO_EXTRA)
        turn, turn_player, chain, lp_a, lp_b, hand_a, hand_b = context
        machine, source, dest, event, transition, rule = head
        if isinstance(holder, Role):  # a role read from the seats when the row was kept
            holder = seat_holder(holder, turn_player, cast(str, chain[-1]["controller"]) if chain else None)
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
