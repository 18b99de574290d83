"""Effects in play: what may be activated now, activation (costs, chain links), resolution,
phase effects, events and the simultaneous triggers of a timing window.

The machines decide *when* things may happen (which state offers ``activate``, who holds
priority); this module answers *what*: which of a player's effects fit the moment, and what
activating and resolving one does to the duel. Rules used here, with their clauses:

- spell speed: a response must be spell speed 2 or more and not lower than the newest link;
  only spell speed 3 answers spell speed 3 (000 2速以上的卡; ※ notes on counter traps);
- a Set trap or quick-play spell cannot be activated the turn it was Set; a quick-play spell
  from the hand only in its controller's turn (002 ●主要阶段1 ◇使用场上盖放的…);
- spell speed 1 (ignition effects, non-quick-play spells) only by the turn player in the open
  game state of a Main Phase with an empty chain (000 ●メインフェイズ１【２】; 002 ●战斗阶段);
- in a timing window: triggers in the priority list's tiers, then the turn player's ignition
  effect as CHAIN1 only in a Main Phase (after a chain only if its last action was a summon,
  001 例1/例2), then spell speed 2+ — no-timing cards not as CHAIN1 in restricted windows
  (000 ※ notes);
- phase effects (『准备流程时～』, 『结束流程时～』) only in that phase's open game state, each
  handled once; they are not activated in the timing windows (000 ※准备流程中每1次…).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from .cards import (
    CARD_ACTIVATION_KINDS,
    PHASE_OPEN_STATES,
    SPELL_KINDS,
    TRAP_KINDS,
    CardSpec,
    EffectKind,
    EffectSpec,
    Event,
    Location,
    Op,
    Operation,
    Phase,
    Target,
)
from .game import CardInstance, PlayerState, Position, TurnEffect, Zone, other_player

if TYPE_CHECKING:
    from .duel import Duel


@dataclass(frozen=True)
class Occurrence:
    """Something that happened: an event, the player it concerns, and the card (if any)."""

    event: Event
    player: str
    uid: str | None = None
    deferred: bool = False
    """Met while paying a summon's conditions (step 2): only mandatory triggers respond to it."""


@dataclass
class Link:
    """A chain link."""

    number: int
    uid: str
    effect: int
    controller: str
    spell_speed: int
    name: str
    target: str | None = None
    negated: bool = False
    target_atk: int = 0
    """The target's ATK as the link starts resolving (「破壊輪」 deals it after destroying)."""


@dataclass
class Tier:
    """One tier of the priority list: a player's mandatory or optional triggers."""

    player: str
    mandatory: bool
    entries: list[tuple[str, int]]


@dataclass
class Window:
    """A timing window (发动时点): the events that opened it and the triggers they met."""

    events: list[Occurrence]
    tiers: list[Tier] = field(default_factory=list)
    after_chain: bool = False
    restricted: bool = False
    ignition_allowed: bool = False

    def copy(self) -> Window:
        return Window(list(self.events), [Tier(t.player, t.mandatory, list(t.entries)) for t in self.tiers],
                      self.after_chain, self.restricted, self.ignition_allowed)

    @property
    def event_kinds(self) -> set[Event]:
        return {occurrence.event for occurrence in self.events}


@dataclass(frozen=True)
class Choice:
    """One option of a player action: its key (as actions name it) and a label."""

    key: str
    label: str


# --- finding cards -----------------------------------------------------------------------


def find(duel: Duel, uid: str) -> tuple[str, Zone, CardInstance] | None:
    """The player, zone and instance of the named card ``uid``."""
    for player, state in duel.players.items():
        for zone, card in state.all_cards():
            if card.uid == uid:
                return player, zone, card
    return None


def move(duel: Duel, card: CardInstance, to: Zone, *, player: str | None = None) -> None:
    """Move a named card to a zone of ``player`` (default: where it is now, else its owner)."""
    where = find(duel, card.uid)
    if where is not None:
        duel.players[where[0]].zone_list(where[1]).remove(card)
        player = player or (where[0] if to is not Zone.graveyard else card.owner)
    duel.players[player or card.owner].zone_list(to).append(card)


def current_phase(duel: Duel) -> str:
    """The turn machine's state: ``main_phase_1``, ``standby_phase`` …"""
    return duel.frames[0].state


def in_main_phase(duel: Duel) -> bool:
    return current_phase(duel) in ("main_phase_1", "main_phase_2")


def in_phase_open_state(duel: Duel, phase: Phase) -> bool:
    """The duel is in the open game state where ``phase``'s effects are handled (``standby_phase.open``,
    ``battle_phase.end_step``, ``end_phase.open``), not in a window inside it."""
    frames = duel.frames
    turn_state, phase_state = PHASE_OPEN_STATES[phase]
    return (len(frames) >= 3 and frames[0].state == turn_state and frames[1].state == phase_state
            and frames[2].machine == "priority")


def chain_is_empty(duel: Duel) -> bool:
    return not duel.chain


def damage_substep(duel: Duel) -> str | None:
    """The Damage Step sub-step the duel is in (``None`` outside the Damage Step)."""
    for frame in duel.frames:
        if frame.machine == "damage_step":
            return frame.state
    return None


_BEFORE_CALCULATION = ("start_of_damage_step", "before_damage_calculation")


def damage_step_allows(duel: Duel, effect: EffectSpec) -> bool:
    """004 伤害步骤: only counter traps, effects that negate an activation, ATK/DEF changes (up to
    before damage calculation), mandatory effects, flip effects and the triggers of a monster's
    own summon or destruction may be activated in the Damage Step."""
    substep = damage_substep(duel)
    if substep is None:
        return True
    ops = {operation.op for operation in effect.resolution}
    if Op.modify_atk in ops:
        return substep in _BEFORE_CALCULATION
    return (effect.kind in (EffectKind.counter_trap, EffectKind.flip) or Op.negate_activation in ops
            or effect.mandatory or effect.kind is EffectKind.trigger)


# --- activation conditions ---------------------------------------------------------------


def _location_ok(zone: Zone, card: CardInstance, effect: EffectSpec) -> bool:
    location = effect.location
    if location is Location.hand:
        # a spell card activated from the hand may also be Set first and activated later
        return zone is Zone.hand or (effect.kind in SPELL_KINDS and zone is Zone.spell_trap and not card.face_up)
    if location is Location.set:
        return zone is Zone.spell_trap and not card.face_up
    if location is Location.field:
        return zone in (Zone.monster, Zone.spell_trap) and card.face_up
    if location is Location.graveyard:
        return zone is Zone.graveyard
    return zone is Zone.lingering


def conditions_hold(duel: Duel, controller: str, zone: Zone, card: CardInstance, effect: EffectSpec) -> bool:
    """The effect's location and conditions hold for ``card`` controlled by ``controller``."""
    if not _location_ok(zone, card, effect):
        return False
    conditions = effect.conditions
    turn_player = duel.turn_player
    if conditions.own_turn and controller != turn_player:
        return False
    if (conditions.opponent_turn or conditions.opponent_is_turn_player) and controller == turn_player:
        return False
    if conditions.controller_is_turn_player and controller != turn_player:
        return False
    if conditions.lp_at_most is not None and duel.players[controller].lp > conditions.lp_at_most:
        return False
    if conditions.destroyed_this_turn and card.destroyed_turn != duel.turn:
        return False
    if conditions.summoned_by_own_effect and not card.summoned_by_own_effect:
        return False
    if conditions.main_phase and not in_main_phase(duel):
        return False
    is_set = zone is Zone.spell_trap and not card.face_up
    if is_set and card.set_turn >= duel.turn and effect.kind in TRAP_KINDS | {EffectKind.quick_play_spell}:
        return False  # 002: a Set trap / quick-play spell cannot be activated the turn it was Set
    if effect.kind is EffectKind.quick_play_spell and zone is Zone.hand and controller != turn_player:
        return False  # a quick-play spell from the hand only in its controller's own turn
    if effect.once_per_turn and (card.uid, effect_index(card, effect), duel.turn) in duel.used_once:
        return False
    cost = effect.cost
    if cost.pay_lp and duel.players[controller].lp < cost.pay_lp:
        return False
    if cost.tribute_other:
        others = [m for m in duel.players[controller].monsters if m is not card]
        if len(others) < cost.tribute_other:
            return False
    return True


def effect_index(card: CardInstance, effect: EffectSpec) -> int:
    return card.card.effects.index(effect) if card.card is not None else 0


def _targets(duel: Duel, controller: str, card: CardInstance, effect: EffectSpec) -> list[str | None]:
    """The target options of an effect (``[None]`` when it takes none)."""
    target = effect.target
    if target is Target.none:
        return [None]
    opponent = other_player(controller)
    if target is Target.own_monster:
        return [m.uid for m in duel.players[controller].monsters]
    if target is Target.opponent_monster:
        return [m.uid for m in duel.players[opponent].monsters]
    if target is Target.optional_opponent_monster:
        return [None, *(m.uid for m in duel.players[opponent].monsters)]
    if target is Target.any_monster:
        return [m.uid for p in (controller, opponent) for m in duel.players[p].monsters if m is not card
                or not effect.cost.tribute_self]
    return [c.uid for p in (controller, opponent) for c in duel.players[p].spell_traps if c is not card]


def _key(card: CardInstance, index: int, target: str | None) -> str:
    key = card.uid if index == 0 else f"{card.uid}#{index + 1}"
    return f"{key}>{target}" if target else key


def parse_key(key: str) -> tuple[str, int, str | None]:
    """``uid``, ``uid#2`` or ``uid>target`` → (uid, effect index, target)."""
    head, _, target = key.partition(">")
    uid, _, number = head.partition("#")
    return uid, (int(number) - 1 if number else 0), (target or None)


def _label(duel: Duel, card: CardInstance, effect: EffectSpec, target: str | None) -> str:
    text = f"「{card.name}」"
    if target:
        found = find(duel, target)
        text += f" → 「{found[2].name if found else target}」"
    return text + (f"：{effect.label}" if effect.label else "")


def effects_of(duel: Duel, player: str) -> Iterator[tuple[Zone, CardInstance, int, EffectSpec]]:
    for zone, card in duel.players[player].all_cards():
        if card.card is None:
            continue
        for index, effect in enumerate(card.card.effects):
            yield zone, card, index, effect


def _choices(duel: Duel, player: str, candidates: Iterator[tuple[CardInstance, int, EffectSpec]]) -> list[Choice]:
    choices = []
    for card, index, effect in candidates:
        for target in _targets(duel, player, card, effect):
            choices.append(Choice(_key(card, index, target), _label(duel, card, effect, target)))
    return choices


def _phase_effect_pending(duel: Duel, card: CardInstance, index: int, effect: EffectSpec) -> bool:
    phase = effect.phase
    return (phase is not None and in_phase_open_state(duel, phase)
            and (card.uid, index, duel.turn, phase.value) not in duel.handled)


def open_state_activations(duel: Duel, player: str) -> list[Choice]:
    """What ``player`` may activate with priority in an open game state (empty chain)."""
    def candidates() -> Iterator[tuple[CardInstance, int, EffectSpec]]:
        for zone, card, index, effect in effects_of(duel, player):
            if not effect.starts_chain_link or not conditions_hold(duel, player, zone, card, effect):
                continue
            if effect.phase is not None:
                if _phase_effect_pending(duel, card, index, effect):
                    yield card, index, effect
                continue
            if effect.is_trigger_like or effect.events or not damage_step_allows(duel, effect):
                continue
            if effect.spell_speed == 1:
                if player == duel.turn_player and in_main_phase(duel) and _in_open_state(duel):
                    yield card, index, effect
                continue
            yield card, index, effect
    return _choices(duel, player, candidates())


def _in_open_state(duel: Duel) -> bool:
    frames = duel.frames
    return len(frames) >= 2 and frames[-1].machine == "priority" and frames[-2].state == "open"


def phase_processing(duel: Duel, player: str) -> list[Choice]:
    """Phase effects handled without a chain link that ``player`` may process now."""
    choices = []
    for zone, card, index, effect in effects_of(duel, player):
        if (effect.kind is EffectKind.processing and _phase_effect_pending(duel, card, index, effect)
                and conditions_hold(duel, player, zone, card, effect)):
            choices.append(Choice(_key(card, index, None), _label(duel, card, effect, None)))
    return choices


def pending_phase_effects(duel: Duel, player: str, *, mandatory_only: bool = True) -> bool:
    """``player`` still has phase effects to activate or process in this phase."""
    for zone, card, index, effect in effects_of(duel, player):
        if effect.phase is None or (mandatory_only and not effect.mandatory):
            continue
        if _phase_effect_pending(duel, card, index, effect) and conditions_hold(duel, player, zone, card, effect):
            return True
    return False


def handling_choices(duel: Duel, player: str) -> list[Choice]:
    """When both passed with effects pending: ``player``'s phase effects (activate or process)."""
    return [c for c in open_state_activations(duel, player) if is_phase_choice(duel, c.key)] + \
        phase_processing(duel, player)


def is_phase_choice(duel: Duel, key: str) -> bool:
    uid, index, _ = parse_key(key)
    found = find(duel, uid)
    return found is not None and found[2].card is not None and found[2].card.effects[index].phase is not None


def _events_now(duel: Duel) -> set[Event]:
    kinds = set(duel.chain_events)
    if duel.window is not None:
        kinds |= duel.window.event_kinds
    return kinds


def chain_responses(duel: Duel, player: str) -> list[Choice]:
    """Effects ``player`` may chain to the newest link (spell speed 2+, not below it)."""
    if not duel.chain:
        return []
    floor = max(2, duel.chain[-1].spell_speed)
    events = _events_now(duel)

    def candidates() -> Iterator[tuple[CardInstance, int, EffectSpec]]:
        for zone, card, index, effect in effects_of(duel, player):
            if (effect.spell_speed < floor or effect.phase is not None or effect.is_trigger_like
                    or (effect.events and not set(effect.events) & events)
                    or not damage_step_allows(duel, effect)):
                continue
            if conditions_hold(duel, player, zone, card, effect):
                yield card, index, effect
    return _choices(duel, player, candidates())


def window_chain1(duel: Duel, player: str) -> list[Choice]:
    """CHAIN1 in a timing window once the triggers are placed: the turn player's ignition
    effect where allowed, then spell speed 2+ (no-timing cards not in restricted windows)."""
    window = duel.window
    events = window.event_kinds if window is not None else set()

    def candidates() -> Iterator[tuple[CardInstance, int, EffectSpec]]:
        for zone, card, index, effect in effects_of(duel, player):
            if (effect.phase is not None or effect.is_trigger_like or not effect.starts_chain_link
                    or not damage_step_allows(duel, effect)):
                continue
            if effect.kind is EffectKind.ignition:
                allowed = window is not None and window.ignition_allowed and player == duel.turn_player
            elif effect.spell_speed >= 2:
                allowed = (bool(set(effect.events) & events) if effect.events
                           else not (window is not None and window.restricted))
            else:
                allowed = False
            if allowed and conditions_hold(duel, player, zone, card, effect):
                yield card, index, effect
    return _choices(duel, player, candidates())


# --- events and triggers -----------------------------------------------------------------


def emit(duel: Duel, event: Event, player: str, uid: str | None = None) -> None:
    duel.events.append(Occurrence(event, player, uid))


def open_window(duel: Duel, *, restricted: bool, ends_after_chain: bool = False) -> None:
    """Start a timing window with the events since the last one and sort the triggers they
    met into the priority list's tiers (000 ※…发动时点的出现条件)."""
    after_chain = duel.chain_finished
    duel.chain_finished = False
    events, duel.events = duel.events, []
    window = Window(events, after_chain=after_chain,
                    restricted=restricted and not (after_chain and ends_after_chain))
    window.ignition_allowed = (in_main_phase(duel) and not window.restricted
                               and (not after_chain or duel.last_action_summon))
    tiers = {(p, m): Tier(p, m, []) for p in (duel.turn_player, duel.opponent) for m in (True, False)}
    last = events[-1] if events else None
    for player in (duel.turn_player, duel.opponent):
        for zone, card, index, effect in effects_of(duel, player):
            if not effect.is_trigger_like or effect.phase is not None or not effect.events:
                continue
            met = [o for o in events if o.event in effect.events and (effect.mandatory or not o.deferred)
                   and (not effect.conditions.event_of_opponent or o.player != player)]
            if not met or not conditions_hold(duel, player, zone, card, effect):
                continue
            own_event = effect.kind is EffectKind.flip or effect.conditions.summoned_by_own_effect
            if own_event and not any(o.uid == card.uid for o in met):
                continue  # a flip effect answers its own flip; 「この方法で特殊召喚に成功した時」 its own summon
            if (not effect.mandatory and effect.wording == "when" and last is not None
                    and last.event not in effect.events):
                continue  # 'when … you can': its event was not the last thing to happen — missed
            tiers[(player, effect.mandatory)].entries.append((card.uid, index))
    order = [(duel.turn_player, True), (duel.opponent, True), (duel.turn_player, False), (duel.opponent, False)]
    window.tiers = [tiers[key] for key in order if tiers[key].entries]
    duel.window = window


def close_window(duel: Duel) -> None:
    duel.window = None


def current_tier(duel: Duel) -> Tier | None:
    window = duel.window
    return window.tiers[0] if window is not None and window.tiers else None


def tier_choices(duel: Duel) -> list[Choice]:
    tier = current_tier(duel)
    if tier is None:
        return []
    choices = []
    for uid, index in tier.entries:
        found = find(duel, uid)
        if found is None or found[2].card is None:
            continue
        card, effect = found[2], found[2].card.effects[index]
        for target in _targets(duel, tier.player, card, effect):
            choices.append(Choice(_key(card, index, target), _label(duel, card, effect, target)))
    return choices


def place_trigger(duel: Duel, player: str, key: str) -> None:
    tier = current_tier(duel)
    uid, index, _ = parse_key(key)
    if tier is not None and (uid, index) in tier.entries:
        tier.entries.remove((uid, index))
        if not tier.entries and duel.window is not None:
            duel.window.tiers.pop(0)
    activate(duel, player, key)


def decline_tier(duel: Duel) -> None:
    tier = current_tier(duel)
    if tier is not None and duel.window is not None:
        duel.window.tiers.pop(0)
        names = [find(duel, uid) for uid, _ in tier.entries]
        duel.say(f"{_who(duel, tier.player)}不发动" + "".join(f"「{n[2].name}」" for n in names if n) + "的效果")


# --- activation and resolution -----------------------------------------------------------


def _who(duel: Duel, player: str) -> str:
    return f"回合玩家{player}" if player == duel.turn_player else f"对方{player}"


def activate(duel: Duel, player: str, key: str) -> None:
    """Activate an effect: pay its cost, put the card on the field if it is a spell or trap
    card's activation, and add a chain link (the activation events are recorded)."""
    uid, index, target = parse_key(key)
    found = find(duel, uid)
    assert found is not None and found[2].card is not None, key
    _, zone, card = found
    effect = found[2].card.effects[index]
    state = duel.players[player]
    notes: list[str] = []
    before = len(duel.events)
    if effect.cost.pay_lp:
        state.lp -= effect.cost.pay_lp
        notes.append(f"支付{effect.cost.pay_lp}")
    if effect.cost.pay_half_lp:
        paid = state.lp // 2
        state.lp -= paid
        notes.append(f"支付一半基本分（{paid}）")
    if effect.cost.tribute_self:
        to_graveyard(duel, card, destroyed=False)
        notes.append("把这张卡做祭品")
    for _ in range(effect.cost.tribute_other):
        other = next(m for m in state.monsters if m is not card)
        to_graveyard(duel, other, destroyed=False)
        notes.append(f"把「{other.name}」做祭品")
    # what the cost did (tributes sent to the graveyard) can be responded to in this chain
    duel.chain_events.update(occurrence.event for occurrence in duel.events[before:])
    if effect.kind in CARD_ACTIVATION_KINDS:
        if zone is Zone.hand:
            move(duel, card, Zone.spell_trap, player=player)
        card.face_up = True
    if effect.phase is not None:
        duel.handled.add((card.uid, index, duel.turn, effect.phase.value))
    link = Link(len(duel.chain) + 1, card.uid, index, player, effect.spell_speed, card.name, target)
    duel.chain.append(link)
    if effect.kind in SPELL_KINDS or effect.kind in TRAP_KINDS:
        duel.chain_events.add(Event.spell_trap_activated)
    if _destroys_monsters(effect):
        duel.chain_events.add(Event.monster_destroying_activated)
    if effect.once_per_turn:
        duel.used_once.add((card.uid, index, duel.turn))
    chosen = ""
    if target:
        found_target = find(duel, target)
        chosen = f"，选择「{found_target[2].name if found_target else target}」"
    cost = ("，" + "，".join(notes)) if notes else ""
    duel.say(f"CHAIN{link.number} {_who(duel, player)}发动「{card.name}」{chosen}{cost}")


_MONSTER_TARGETS = (Target.opponent_monster, Target.any_monster, Target.own_monster, Target.optional_opponent_monster)


def _destroys_monsters(effect: EffectSpec) -> bool:
    """The effect destroys monsters (「我が身を盾に」 answers such activations)."""
    for op in effect.resolution:
        if op.op is Op.destroy and (op.what != "target" or effect.target in _MONSTER_TARGETS):
            return True
    return False


def begin_resolution(duel: Duel) -> None:
    duel.last_action_summon = False
    duel.say("逆算")


def resolve_top_link(duel: Duel) -> None:
    """Resolve the newest link (逆算): skipped when negated, else its operations run."""
    link = duel.chain.pop()
    duel.note_resolution(link.number, link.uid, link.negated)
    found = find(duel, link.uid)
    card = found[2] if found else None
    spec = card.card if card is not None else None
    effect = spec.effects[link.effect] if spec is not None else None
    target = find(duel, link.target) if link.target else None
    link.target_atk = target[2].atk if target is not None else 0
    if link.negated:
        duel.say(f"CHAIN{link.number}「{link.name}」被无效不处理")
    elif effect is not None and card is not None:
        results = [run_operation(duel, op, link, card) for op in effect.resolution]
        done = "，".join(r for r in results if r) or "不发"
        duel.say(f"CHAIN{link.number}「{link.name}」效果处理，{done}")
    if card is not None and spec is not None and effect is not None and found is not None:
        _after_resolution(duel, found[1], card, effect, link)


def _after_resolution(duel: Duel, zone: Zone, card: CardInstance, effect: EffectSpec, link: Link) -> None:
    """Normal and quick-play spells and normal traps go to the graveyard once resolved."""
    where = find(duel, card.uid)
    if where is None or where[1] is not Zone.spell_trap:
        return
    if link.negated or effect.kind in (EffectKind.normal_spell, EffectKind.quick_play_spell, EffectKind.normal_trap,
                                       EffectKind.counter_trap):
        lingers = any(e.location is Location.lingering for e in (card.card.effects if card.card else ()))
        if effect.kind is EffectKind.quick_play_spell and lingers and not link.negated:
            move(duel, card, Zone.lingering)
        else:
            to_graveyard(duel, card, destroyed=False)


def finish_chain(duel: Duel) -> None:
    duel.chain_events.clear()
    duel.chain_finished = True


def process_phase_effect(duel: Duel, player: str, key: str) -> None:
    """Handle a phase effect that starts no chain link (000: 效果的处理（不进入连锁）)."""
    uid, index, _ = parse_key(key)
    found = find(duel, uid)
    assert found is not None and found[2].card is not None, key
    card = found[2]
    effect = found[2].card.effects[index]
    assert effect.phase is not None
    duel.handled.add((card.uid, index, duel.turn, effect.phase.value))
    link = Link(0, card.uid, index, player, 0, card.name)
    results = [run_operation(duel, op, link, card) for op in effect.resolution]
    duel.say(f"{_who(duel, player)}处理「{card.name}」的效果，" + "，".join(r for r in results if r))


# --- operations ---------------------------------------------------------------------------


def _player_for(duel: Duel, link: Link, who: str) -> str:
    if who == "controller":
        return link.controller
    if who == "turn_player":
        return duel.turn_player
    return other_player(link.controller)


def to_graveyard(duel: Duel, card: CardInstance, *, destroyed: bool) -> None:
    where = find(duel, card.uid)
    was_monster = where is not None and where[1] is Zone.monster
    if destroyed:
        card.destroyed_turn = duel.turn
    card.face_up = True
    card.summoned_by_own_effect = False
    if card.card is None:  # an unnamed monster: it only counts
        if where is not None:
            duel.players[where[0]].zone_list(where[1]).remove(card)
        duel.players[card.owner].graveyard += 1
    else:
        move(duel, card, Zone.graveyard)
    if was_monster and where is not None:
        if destroyed:
            emit(duel, Event.destroyed, where[0], card.uid)
        emit(duel, Event.monster_sent_to_graveyard, where[0], card.uid)


def _summon(duel: Duel, card: CardInstance, player: str, position: Position, *, own_effect: bool) -> None:
    move(duel, card, Zone.monster, player=player)
    card.face_up = True
    card.position = position
    card.summoned_by_own_effect = own_effect
    card.summoned_turn = duel.turn
    emit(duel, Event.special_summoned, player, card.uid)
    duel.last_action_summon = True


def run_operation(duel: Duel, op: Operation, link: Link, card: CardInstance) -> str:
    """Run one operation; returns what happened, in the seeds' words ('' when nothing).

    Whether the chain's last action was a summon (001 例1/例2) follows the last operation that
    did something."""
    result = _operate(duel, op, link, card)
    if result and op.op is not Op.special_summon:
        duel.last_action_summon = False
    return result


def _amount(duel: Duel, op: Operation, link: Link) -> int:
    if op.amount_of == "attacker_atk":
        attacker = find(duel, duel.attack.attacker) if duel.attack is not None else None
        return attacker[2].atk if attacker is not None else 0
    if op.amount_of == "target_atk":
        return link.target_atk
    return op.amount


def _operate(duel: Duel, op: Operation, link: Link, card: CardInstance) -> str:
    kind = op.op
    if kind is Op.damage:
        amount = _amount(duel, op, link)
        players = [duel.turn_player, duel.opponent] if op.to == "both" else [_player_for(duel, link, op.to)]
        for player in players:
            duel.players[player].lp -= amount
            emit(duel, Event.damage_taken, player)
        for player in players:
            if duel.players[player].lp <= 0 and not duel.is_over:
                duel.players[player].lp = 0
                losers = [p for p in players if duel.players[p].lp <= 0]
                duel.end_duel(winner=None if len(losers) == 2 else other_player(player), reason="lp")
        return "、".join(players) + f"受到{amount}分伤害"
    if kind is Op.recover:
        player = _player_for(duel, link, op.to)
        amount = _amount(duel, op, link)
        duel.players[player].lp += amount
        return f"{player}的基本分恢复{amount}"
    if kind is Op.change_position:
        changed = []
        for p in (duel.turn_player, duel.opponent):
            for monster in duel.players[p].monsters:
                if monster.face_up:
                    monster.position = Position.defence if monster.position is Position.attack else Position.attack
                    shown = "守备" if monster.position is Position.defence else "攻击"
                    changed.append(f"「{monster.name}」变成{shown}表示")
        return "，".join(changed)
    if kind is Op.draw:
        player = _player_for(duel, link, op.to)
        drawn = sum(draw_card(duel, player) for _ in range(op.amount or 1))
        return f"{player}抽{drawn}张卡"
    if kind is Op.return_to_hand:
        move(duel, card, Zone.hand)
        return f"「{card.name}」回到手卡"
    if kind is Op.destroy:
        return _destroy(duel, op, link, card)
    if kind is Op.send_to_graveyard:
        return _send_all_but_target(duel, link)
    if kind is Op.special_summon:
        return _special_summon(duel, op, link, card)
    if kind is Op.tribute:
        own = [m for m in duel.players[link.controller].monsters if m is not card]
        if not own:
            return ""
        to_graveyard(duel, own[0], destroyed=False)
        return f"「{own[0].name}」作为祭品"
    if kind is Op.negate_activation:
        return _negate_previous(duel, op, link)
    if kind is Op.negate_summon:
        from .summon import negate

        return negate(duel)
    if kind is Op.last_battle_judgement:
        return _last_battle(duel)
    if kind is Op.replace_draw:
        player = duel.turn_player
        duel.replace_draw()
        state = duel.players[player]
        if state.deck - len(state.deck_cards) > 0:  # a card is added from the deck: not a draw
            state.deck -= 1
            state.hand += 1
        return f"{player}代替通常的抽卡，从卡组把1张卡加入手卡"
    if kind is Op.pay_lp:
        player = _player_for(duel, link, op.to)
        duel.players[player].lp -= op.amount
        return f"{player}支付{op.amount}基本分"
    if kind is Op.halve_atk:
        attack = duel.attack
        found = find(duel, attack.attacker) if attack is not None else None
        if found is None:
            return ""
        found[2].atk //= 2
        return f"「{found[2].name}」的攻击力变成一半（{found[2].atk}）"
    if kind is Op.cannot_attack:
        duel.add_turn_effect(TurnEffect.cannot_attack)
        return "这个回合怪兽不能攻击"
    if kind is Op.modify_atk:
        found = find(duel, link.target) if op.what == "target" and link.target else (
            find(duel, duel.attack.attacker) if op.what == "attacker" and duel.attack else None)
        modified: CardInstance | None = card if op.what == "self" else (found[2] if found is not None else None)
        if modified is None:
            return ""
        modified.atk = max(0, modified.atk + op.amount)
        return f"「{modified.name}」的攻击力变成{modified.atk}"
    if kind is Op.win:
        duel.end_duel(winner=link.controller, reason="effect")
        return f"{link.controller}获得决斗的胜利"
    if kind is Op.draw_duel:
        duel.end_duel(winner=None, reason="draw")
        return "平局"
    if kind is Op.callable:
        from .cards import RESOLUTIONS

        RESOLUTIONS[op.name](duel, link)
        return op.name
    return ""


def _destroy(duel: Duel, op: Operation, link: Link, card: CardInstance) -> str:
    if op.what == "all_monsters":
        victims = [m for p in (duel.turn_player, duel.opponent) for m in list(duel.players[p].monsters)]
    elif op.what == "opponent_attack_position_monsters":
        victims = [m for m in duel.players[other_player(link.controller)].monsters if m.position is Position.attack]
    elif op.what == "attacker":
        # 000 ※攻击中止: a monster changed to Defense Position is no longer the attacking monster
        attack = duel.attack
        found = find(duel, attack.attacker) if attack is not None else None
        victims = ([found[2]] if found is not None and found[1] is Zone.monster
                   and found[2].position is Position.attack else [])
    else:
        found = find(duel, link.target) if link.target else None
        victims = [found[2]] if found is not None and found[1] in (Zone.monster, Zone.spell_trap) else []
    for victim in victims:
        to_graveyard(duel, victim, destroyed=True)
    if not victims:
        return ""
    if op.what == "all_monsters":
        return "场上存在的全部怪兽破坏"
    return "".join(f"「{v.name}」" for v in victims) + "破坏"


def _send_all_but_target(duel: Duel, link: Link) -> str:
    """Every other card on both fields and in both hands goes to the graveyard."""
    sent = []
    for player in (duel.turn_player, duel.opponent):
        state = duel.players[player]
        for zone in (Zone.hand, Zone.monster, Zone.spell_trap):
            for card in list(state.zone_list(zone)):
                if card.uid != link.target and card.uid != link.uid:
                    to_graveyard(duel, card, destroyed=False)
                    sent.append(card.name)
        state.graveyard += state.unnamed_hand
        state.hand = len(state.hand_cards)
    return "双方的其他的场上和手上的卡全部送去墓地" + (f"（{'、'.join(f'「{n}」' for n in sent)}）" if sent else "")


def _special_summon(duel: Duel, op: Operation, link: Link, card: CardInstance) -> str:
    player = link.controller
    if op.what == "self":
        summoned = card
    else:
        sources = {"deck": duel.players[player].deck_cards, "graveyard": duel.players[player].graveyard_cards}
        source = sources.get(op.from_, duel.players[player].hand_cards)
        summoned_or_none = next((c for c in source if _matches(c, op.what)), None)
        if summoned_or_none is None:
            return ""
        summoned = summoned_or_none
    position = Position.defence if op.position == "defence" else Position.attack
    if op.amount:
        summoned.atk = summoned.defence = op.amount
    _summon(duel, summoned, player, position, own_effect=op.what == "self")
    where = {"deck": "卡组", "hand": "手卡", "graveyard": "墓地"}.get(op.from_, "")
    shown = "守备表示" if position is Position.defence else ""
    return f"{player}{where}的「{summoned.name}」{shown}特殊召唤"


def _matches(card: CardInstance, what: str) -> bool:
    if card.card is None:
        return False
    if what == "monster":
        return card.card.type.value == "monster"
    if what.startswith("level_"):
        return card.card.type.value == "monster" and card.level == int(what.removeprefix("level_"))
    return card.card.id == what or card.race == what


def _negate_previous(duel: Duel, op: Operation, link: Link) -> str:
    if not duel.chain:
        return ""
    negated = duel.chain[-1]
    negated.negated = True
    found = find(duel, negated.uid)
    if found is not None and op.destroy and found[1] is Zone.spell_trap:
        to_graveyard(duel, found[2], destroyed=True)
    own = find(duel, link.uid)
    spec: CardSpec | None = own[2].card if own is not None else None
    if (spec is not None and spec.effects[link.effect].kind is EffectKind.counter_trap
            and negated.controller != link.controller):
        emit(duel, Event.activation_negated_by_counter_trap, negated.controller, negated.uid)
    return f"「{negated.name}」发动无效" + ("并且破坏" if op.destroy else "")


def _last_battle(duel: Duel) -> str:
    holders = [p for p in (duel.turn_player, duel.opponent) if duel.players[p].monsters]
    if len(holders) == 1:
        duel.end_duel(winner=holders[0], reason="last_battle")
        return f"场上还存在怪兽的{_who(duel, holders[0])}获得决斗的胜利"
    if not holders:
        duel.end_duel(winner=None, reason="draw")
        return "双方场上都不存在怪兽，平局"
    return "双方场上都存在怪兽"


# --- drawing and discarding ---------------------------------------------------------------


def draw_card(duel: Duel, player: str) -> int:
    """Draw the top card (unnamed cards first); 0 when the deck is empty."""
    state: PlayerState = duel.players[player]
    if state.deck - len(state.deck_cards) > 0:
        state.deck -= 1
        state.hand += 1
    elif state.deck_cards:
        state.hand_cards.append(state.deck_cards.pop(0))
    else:
        return 0
    emit(duel, Event.drawn, player)
    return 1


def discard(duel: Duel, player: str, count: int) -> None:
    """Discard ``count`` cards (unnamed ones first)."""
    state = duel.players[player]
    for _ in range(count):
        if state.unnamed_hand > 0:
            state.hand -= 1
            state.graveyard += 1
        elif state.hand_cards:
            move(duel, state.hand_cards[0], Zone.graveyard)
        emit(duel, Event.discarded, player)

