"""What a state is, told for a reader: its labels and clause, where it sits, who acts there,
the transitions out and what each player may do (``ygo-fsm explain`` and the rule-review site's
state pages)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .engine import Rulebook
from .errors import YgoFsmError
from .spec import Actor, Lang, MachineSpec, Role, StateSpec, TransitionSpec


class StateNameError(YgoFsmError, ValueError):
    """A name that is no state of the machines (one line saying how to name one)."""

_ROLE_TEXT = {
    Role.turn_player: "the turn player",
    Role.opponent: "the opponent",
    Role.responder: "the player who may respond to the newest link",
    Role.last_activator: "the player who added the newest link",
    Role.trigger_player: "the player whose triggers are being placed",
}
_ACTOR_TEXT = {Actor.turn_player: "turn player", Actor.opponent: "opponent",
               Actor.priority_holder: "player with priority", Actor.engine: "engine"}


def _langs(lang: str) -> tuple[Lang, ...]:
    return (Lang.zh, Lang.en) if lang == "both" else (Lang(lang),)


def _label(label: Any, langs: Sequence[Lang]) -> str:
    return " / ".join(label.text(lang) for lang in langs)


def _guards(transition: TransitionSpec) -> str:
    terms = [*transition.guards, *(f"¬{name}" for name in transition.unless)]
    return f" [{' ∧ '.join(terms)}]" if terms else ""


def _callbacks(transition: TransitionSpec) -> str:
    return f" / {', '.join(transition.callbacks)}" if transition.callbacks else ""


def _resolve(rulebook: Rulebook, name: str) -> tuple[list[tuple[str, StateSpec]] | None, str, StateSpec]:
    """``(path or None, machine id, state)`` for a full path, ``machine.state`` or a unique id."""
    try:
        path = rulebook.resolve_path(name)
    except KeyError:
        path = None
    if path is not None:
        machine, state = path[-1]
        return path, machine, state
    try:
        machine, state = rulebook.find_state(name)
    except KeyError:
        candidates = [f"{spec.id}.{name}" for spec in rulebook.specs.values() if name in spec.state_ids()]
        if len(candidates) > 1:
            raise StateNameError(f"explain: state {name!r} is in several machines; give one of: "
                             f"{', '.join(candidates)}") from None
        raise StateNameError(f"explain: unknown state {name!r}; give a full path (main_phase_1.open.turn_player), "
                         "machine.state (end_phase.hand_size_adjustment) or a state id; "
                         f"`ygo-fsm list` shows them") from None
    return None, machine, state


def _who_acts(rulebook: Rulebook, path: list[tuple[str, StateSpec]] | None, state: StateSpec) -> str:
    if path is not None:
        for machine, step in reversed(path):
            if step.priority is not None:
                where = "" if step is state else f" (declared by {machine}.{step.id})"
                return f"{_ROLE_TEXT[step.priority]}{where}"
    if state.priority is not None:
        return _ROLE_TEXT[state.priority]
    if state.terminal:
        return "nobody: the duel is over"
    if state.final:
        return "nobody: the machine is finished and the state that runs it receives 'done'"
    if state.machine is not None:
        child = rulebook.specs[state.machine]
        first = child.state(child.initial).priority
        if first is not None:
            return f"the players, in machine {child.id}: {_ROLE_TEXT[first]} first"
        return f"the players act in the states of machine {child.id} (see below)"
    return "nobody: the engine moves on by itself"


def _transition_lines(transition: TransitionSpec, langs: Sequence[Lang], indent: str) -> list[str]:
    actor = _ACTOR_TEXT[transition.actor]
    return [
        f"{indent}{transition.event} ({actor}){_guards(transition)}{_callbacks(transition)} → {transition.dest}"
        f"   [transition {transition.id}]",
        f"{indent}    {_label(transition.label, langs)}",
        f"{indent}    rule: {transition.rule}",
    ]


def _actions_by_role(spec: MachineSpec, state: StateSpec) -> dict[Role, list[TransitionSpec]]:
    found: dict[Role, list[TransitionSpec]] = {role: [] for role in Role}
    for transition in spec.outgoing(state.id):
        if transition.is_player_action:
            role = state.priority if transition.actor is Actor.priority_holder else Role(transition.actor.value)
            if role is not None:
                found[role].append(transition)
    return found


def _action_text(transition: TransitionSpec) -> str:
    return f"{transition.event}{_guards(transition)} → {transition.dest}"


def _player_lines(
    rulebook: Rulebook, path: list[tuple[str, StateSpec]] | None, machine: str, state: StateSpec,
    langs: Sequence[Lang],
) -> list[str]:
    """What each player may do in ``state``."""
    spec = rulebook.specs[machine]
    lines: list[str] = []
    own = _actions_by_role(spec, state)
    hidden = {t.event for transitions in own.values() for t in transitions}
    outer: dict[Role, list[tuple[str, TransitionSpec]]] = {role: [] for role in Role}
    if path is not None:
        for outer_machine, outer_state in reversed(path[:-1]):
            found = _actions_by_role(rulebook.specs[outer_machine], outer_state)
            for role, transitions in found.items():
                outer[role].extend((f"{outer_machine}.{outer_state.id}", t) for t in transitions
                                   if t.event not in hidden)
            hidden |= {t.event for transitions in found.values() for t in transitions}
    if state.priority is not None or any(own.values()) or any(outer.values()):
        shown = [Role.turn_player, Role.opponent]
        shown += [r for r in Role if r not in shown and (own[r] or outer[r] or state.priority is r)]
        for role in shown:
            actions = [_action_text(t) for t in own[role]]
            actions += [f"{_action_text(t)} (from {where})" for where, t in outer[role]]
            if actions:
                lines.append(f"  {_ROLE_TEXT[role]}: {'; '.join(actions)}")
            elif state.priority is not None and state.priority is not role:
                lines.append(f"  {_ROLE_TEXT[role]}: nothing; {_ROLE_TEXT[state.priority]} must act here")
            else:
                lines.append(f"  {_ROLE_TEXT[role]}: nothing")
    if state.machine is not None:
        child = rulebook.specs[state.machine]
        acting = [s for s in child.states if s.priority is not None]
        if acting:
            roles = [s.priority for s in acting if s.priority is not None]
            first = child.state(child.initial).priority
            if first in (Role.turn_player, Role.opponent) and len(set(roles)) > 1:
                second = Role.opponent if first is Role.turn_player else Role.turn_player
                closing = [s for s in child.states if s.final]
                rule = f" [{closing[0].rule}]" if closing and closing[0].rule else ""
                lines.append(f"  Machine {child.id} runs here: {_ROLE_TEXT[first]} acts or passes first, then "
                             f"{_ROLE_TEXT[second]} acts or passes; when both pass in succession it finishes "
                             f"and this state is left by 'done'{rule}.")
            else:
                lines.append(f"  Machine {child.id} runs here; players act in its states:")
            for child_state in acting:
                assert child_state.priority is not None
                actions = [_action_text(t) for t in child.outgoing(child_state.id) if t.is_player_action]
                lines.append(f"    {child.id}.{child_state.id} ({_ROLE_TEXT[child_state.priority]}): "
                             f"{'; '.join(actions) or 'nothing'}")
        else:
            nested = [s for s in child.states if s.machine is not None]
            lines.append(f"  Machine {child.id} runs here; players act inside its states "
                         + ", ".join(f"{child.id}.{s.id} (▶ {s.machine})" for s in nested) + "."
                         if nested else f"  Machine {child.id} runs here; no player acts in it.")
    if not lines:
        if state.terminal:
            lines.append("  nothing: the duel is over")
        elif state.final:
            lines.append(f"  nothing: {machine} is finished here")
        else:
            lines.append("  nothing: no player acts here; the engine moves on")
    return lines


def explain_lines(rulebook: Rulebook, name: str, langs: Sequence[Lang]) -> list[str]:
    """The explanation of the state ``name`` (a full path, ``machine.state`` or a unique state
    id); ``KeyError`` when it names none."""
    path, machine, state = _resolve(rulebook, name)
    lines: list[str] = []
    spec = rulebook.specs[machine]
    lines.append(f"{name} — state {state.id} of machine {machine} ({_label(spec.label, langs)})")
    for lang in langs:
        lines.append(f"  {lang.value}: {state.label.text(lang)}")
    lines.append(f"  rule: {state.rule or '(none)'}")
    if path is not None and len(path) > 1:
        lines.append(f"  path: {' › '.join(f'{owner}.{step.id}' for owner, step in path)}")
        for lang in langs:
            lines.append(f"        {' › '.join(step.label.text(lang) for _, step in path)}")
    kind = []
    if state.id == spec.initial:
        kind.append(f"the initial state of {machine}")
    if state.final:
        kind.append(f"final: {machine} is finished, its parent receives 'done'")
    if state.terminal:
        kind.append("terminal: the duel ends here")
    if kind:
        lines.append(f"  kind: {'; '.join(kind)}")
    if state.machine is not None:
        child = rulebook.specs[state.machine]
        lines.append(f"  runs machine: {child.id} ({_label(child.label, langs)}), starting at {child.initial}")
    else:
        lines.append("  runs machine: none")
    lines.append(f"  who must act: {_who_acts(rulebook, path, state)}")
    outgoing = spec.outgoing(state.id)
    lines.append("transitions out:" if outgoing else "transitions out: none")
    for transition in outgoing:
        lines.extend(_transition_lines(transition, langs, "  "))
    lines.append("what each player may do here:")
    lines.extend(_player_lines(rulebook, path, machine, state, langs))
    return lines
