"""Effects in play: which of a player's effects may be activated or processed now.

The machines decide *when* something may happen (which state offers ``activate``, who holds
priority); this module answers *what*: the options of those actions. Rules used here, with
their clauses:

- spell speed: a response must be spell speed 2 or more and not lower than the newest link;
  only spell speed 3 answers spell speed 3 (000 2速以上的卡; ※ notes on counter traps);
- a Set trap or quick-play spell cannot be activated the turn it was Set; a quick-play spell
  from the hand only in its controller's turn (002 ●主要阶段1 ◇使用场上盖放的…);
- spell speed 1 (ignition effects, non-quick-play spells) only by the turn player in the open
  game state of a Main Phase with an empty chain (000 ●メインフェイズ１【２】; 002 ●战斗阶段);
- in a timing window, once its triggers are placed: the turn player's ignition effect as
  CHAIN1 only in a Main Phase (after a chain only if its last action was a summon, 001
  例1/例2), then spell speed 2+ — no-timing cards and ignition effects not as CHAIN1 in
  restricted windows (000 ※ notes);
- phase effects (『准备流程时～』, 『战斗流程结束时～』, 『结束流程时～』) only in that phase's open
  game state, each handled once; they are not activated in the timing windows
  (000 ※准备流程中每1次…);
- in the Damage Step only some activations (004 伤害步骤; :func:`damage_step_allows`).

Activation, chains and windows are :mod:`ygo_fsm.chain`; what resolutions do is
:mod:`ygo_fsm.operations`.
"""

from __future__ import annotations

from collections.abc import Iterator

from . import durations, legality, multi_target, subjects, targeting
from .cards import (
    DURATION_PHASE,
    ENDING_BY_THEMSELVES,
    SPELL_KINDS,
    TRAP_KINDS,
    Duration,
    EffectKind,
    EffectSpec,
    Location,
    Op,
    Phase,
    Target,
    TargetCount,
    Timing,
)
from .continuous import destruction_determined
from .game import FIELD_ZONES, PROFILE_RULES, Zone, other_player
from .in_play import SET_ZONES, SORT_KEYS, EffectInPlay, effects_of_sort
from .in_play import effects_of as effects_of  # a public name of this module before ygo_fsm.in_play
from .spec import ActivationLimit
from .state import CardInstance, Choice, Expiry, GameState, Link


def find(game: GameState, uid: str) -> tuple[str, Zone, CardInstance] | None:
    """The player, zone and instance of the named card ``uid``."""
    return game.find(uid)

def move(game: GameState, card: CardInstance, to: Zone, *, player: str | None = None) -> None:
    """Move a named card to a zone of ``player`` (default: where it is now, else its owner)."""
    where = find(game, card.uid)
    if where is not None:
        game.players[where[0]].zone_list(where[1]).remove(card)
        player = player or (where[0] if to is not Zone.graveyard else card.owner)
    if where is not None and where[1] is Zone.monster and to is not Zone.monster:
        card.leave_field()  # banished, returned …: it is no longer that monster
    if to is Zone.monster and (where is None or where[1] is not Zone.monster):
        card.arrive()
    if to is not Zone.spell_trap:
        card.equipped_to = ""  # an Equip Card that leaves its zone is equipped to nothing
    game.players[player or card.owner].zone_list(to).append(card)


def current_phase(game: GameState) -> str:
    """The turn machine's state: ``main_phase_1``, ``standby_phase`` …"""
    return game.frames[0].state


def in_main_phase(game: GameState) -> bool:
    return current_phase(game) in ("main_phase_1", "main_phase_2")


def in_phase_open_state(game: GameState, phase: Phase) -> bool:
    """The duel is in the open game state that handles ``phase``'s effects (a state declaring
    ``phase_effects:``, whose ``priority`` machine is not inside a chain or window)."""
    frames = game.frames
    for index, frame in enumerate(frames[:-1]):
        if game.state_spec(frame).phase_effects == phase.value:
            inner = frames[index + 1]
            return inner.machine == "priority" and inner.state in _PRIORITY_OPEN_STATES
    return False


def phase_effects_here(game: GameState) -> str | None:
    """The phase whose effects the active states handle (their ``phase_effects:``), if any."""
    for frame in game.frames:
        phase = game.state_spec(frame).phase_effects
        if phase is not None:
            return phase
    return None


_PRIORITY_OPEN_STATES = ("turn_player", "opponent", "turn_player_handles", "opponent_handles")


def activation_limit(game: GameState) -> ActivationLimit | None:
    """The limit declared by the innermost active state that has one (``None``: no limit); it
    depends on the active states only, so it is kept in ``game.scans`` while the state holds still."""
    scans = game.scans
    if scans is not None:
        kept = scans.get(_ACTIVATION_LIMIT, _NOT_KEPT)
        if kept is not _NOT_KEPT:
            return kept  # type: ignore[return-value]  # only this function keeps it
    limit = None
    for frame in reversed(game.frames):
        limit = game.state_spec(frame).activation_limit
        if limit is not None:
            break
    if scans is not None:
        scans[_ACTIVATION_LIMIT] = limit
    return limit


_ACTIVATION_LIMIT = "activation_limit"
"""The ``game.scans`` key of :func:`activation_limit`."""
_NOT_KEPT = object()
_IGNITION = EffectKind.ignition
"""A module constant: an enum member read from its class costs several times a global under Python 3.11."""


_DAMAGE_STEP_TIMINGS = frozenset({Timing.damage_step, Timing.start_of_damage_step, Timing.before_damage_calculation,
                                  Timing.damage_calculation, Timing.after_damage_calculation,
                                  Timing.end_of_damage_step})


def damage_step_allows(game: GameState, effect: EffectSpec) -> bool:
    """004 伤害步骤: only counter traps, effects that negate an activation, ATK/DEF changes (up to
    before damage calculation), mandatory effects, flip effects and the triggers of a monster's
    own summon or destruction may be activated — and effects whose text names a point of the Damage
    Step (``during: [damage_calculation]``: "Effects whose activation condition is specific to the
    Damage Step", Konami's Damage Step rules, yugioh-card.com/eu/play/damage-step-rules); the states
    of ``damage_step`` declare which limit holds (``activation_limit:``)."""
    limit = activation_limit(game)
    if limit is None:
        return True
    if set(effect.conditions.during) & _DAMAGE_STEP_TIMINGS:
        return True  # its text names a point of the Damage Step (Konami, Damage Step rules)
    ops = {operation.op for operation in effect.resolution}
    if Op.modify_atk in ops:
        return limit is ActivationLimit.damage_step
    return (effect.kind in (EffectKind.counter_trap, EffectKind.flip) or Op.negate_activation in ops
            or effect.mandatory or effect.kind is EffectKind.trigger)


def _location_ok(zone: Zone, card: CardInstance, effect: EffectSpec) -> bool:
    location = effect.location
    if location is Location.hand:
        # a spell card activated from the hand may also be Set first and activated later
        return zone is Zone.hand or (effect.kind in SPELL_KINDS and zone in SET_ZONES and not card.face_up)
    if location is Location.set:
        return zone in SET_ZONES and not card.face_up
    if location is Location.field:
        return zone in FIELD_ZONES and card.face_up
    if location is Location.graveyard:
        return zone is Zone.graveyard
    return zone is Zone.lingering


def conditions_hold(game: GameState, controller: str, zone: Zone, card: CardInstance, effect: EffectSpec) -> bool:
    """The effect's location and conditions hold for ``card`` controlled by ``controller``."""
    if not _location_ok(zone, card, effect):
        return False
    conditions = effect.conditions
    turn_player = game.turn_player
    if conditions.own_turn and controller != turn_player:
        return False
    if (conditions.opponent_turn or conditions.opponent_is_turn_player) and controller == turn_player:
        return False
    if conditions.controller_is_turn_player and controller != turn_player:
        return False
    if conditions.lp_at_most is not None and game.players[controller].lp > conditions.lp_at_most:
        return False
    if conditions.destroyed_this_turn and card.destroyed_turn != game.turn:
        return False
    if conditions.summoned_by_own_effect and not card.summoned_by_own_effect:
        return False
    if conditions.normal_draw_due and not game.normal_draw_due():
        return False
    if conditions.controls_monster and not game.players[controller].monsters:
        return False
    if conditions.main_phase and not in_main_phase(game):
        return False
    if not _vocabulary_conditions_hold(game, controller, card, effect):
        return False
    is_set = zone in SET_ZONES and not card.face_up
    if is_set and card.set_turn >= game.turn and effect.kind in TRAP_KINDS | {EffectKind.quick_play_spell}:
        return False  # 002: a Set trap / quick-play spell cannot be activated the turn it was Set
    if effect.kind is EffectKind.quick_play_spell and zone is Zone.hand and controller != turn_player:
        return False  # a quick-play spell from the hand only in its controller's own turn
    if effect.once_per_turn and (once_key(zone, card), effect_index(card, effect), game.turn) in game.used_once:
        return False
    if effect.once_per_turn_name and (name_key(card), effect_index(card, effect), game.turn) in game.used_once:
        return False  # another copy of the card used it this turn (PR17, once per turn by card name)
    # the cost, a zone for the card, what the resolution needs: one check (ygo_fsm.legality)
    return not (effect.starts_chain_link and legality.refusals(game, controller, zone, card, effect))


def activation_refusals(game: GameState, controller: str, uid: str, index: int = 0) -> list[legality.Refusal]:
    """Why ``controller`` may not activate effect ``index`` of the card ``uid`` for what it
    needs (:func:`ygo_fsm.legality.refusals`, and a target that fits), as data for ``why_not``.
    Timing and conditions are the machines' and :func:`conditions_hold`'s."""
    found = find(game, uid)
    if found is None or found[2].card is None or index >= len(found[2].card.effects):
        return [legality.Refusal("unknown", f"没有「{uid}」的第{index + 1}个效果", "")]
    _, zone, card = found
    effect = card.card.effects[index] if card.card is not None else None
    assert effect is not None
    reasons = legality.refusals(game, controller, zone, card, effect)
    if not targets(game, controller, card, effect):
        reasons.append(legality.Refusal("no_target", "没有可以选择的对象", legality.TARGET_RULE))
    return reasons


def name_key(card: CardInstance) -> str:
    """How once-per-turn-per-name marks name a card: every copy shares it."""
    return f"name:{card.card.id if card.card is not None else card.name}"


def once_key(zone: Zone, card: CardInstance) -> str:
    """What once-per-turn bookkeeping is tied to: a monster on the field by its field identity (a
    monster that left the field and came back is a new monster: 004 ●…也视为怪兽数量发生变化),
    any other card by its uid."""
    return card.identity if zone is Zone.monster else card.uid


def _vocabulary_conditions_hold(game: GameState, controller: str, card: CardInstance, effect: EffectSpec) -> bool:
    """The conditions on the phase or step, the attack, the field and LP of the vocabulary
    (:class:`~ygo_fsm.cards.Conditions`); whether its cost can be paid is
    :func:`ygo_fsm.legality.cost_refusals`."""
    conditions = effect.conditions
    state = game.players[controller]
    if conditions.during and not any(frame.state in conditions.during for frame in game.frames):
        return False
    if conditions.attacked_this_turn and card.attacked_turn != game.turn:
        return False
    if conditions.battled_this_turn and card.battled_turn != game.turn:
        return False
    if conditions.attack_is_direct and not (game.attack is not None and game.attack.direct):
        return False
    if conditions.controls_no_monster and state.monsters:
        return False
    if conditions.lp_at_least is not None and state.lp < conditions.lp_at_least:
        return False
    return not (conditions.opponent_lp_at_most is not None
                and game.players[other_player(controller)].lp > conditions.opponent_lp_at_most)


def effect_index(card: CardInstance, effect: EffectSpec) -> int:
    return card.card.effects.index(effect) if card.card is not None else 0


def targets(game: GameState, controller: str, card: CardInstance, effect: EffectSpec) -> list[str | None]:
    """The target options of an effect (``[None]`` when it takes none): the cards that fit it
    (:func:`ygo_fsm.legality.target_fits`); a monster determined to be destroyed by battle is not
    one (004)."""
    options = _single_targets(game, controller, card, effect)
    if effect.target_count is not None:  # several targets: the first is chosen here (ygo_fsm.multi_target)
        return multi_target.first_targets(options, effect.target_count)
    return options


def _single_targets(game: GameState, controller: str, card: CardInstance, effect: EffectSpec) -> list[str | None]:
    """The cards the effect could target one at a time."""
    options = _target_options(game, controller, card, effect)
    if game.attack is not None and game.attack.destroyed:
        options = [uid for uid in options if uid is None or not _determined(game, uid)]
    return options


def declaring(game: GameState) -> tuple[Link, CardInstance, EffectSpec, TargetCount] | None:
    """The newest link, its card, its effect and how many targets it takes, while its player is
    still choosing those targets (:mod:`ygo_fsm.multi_target`); ``None`` otherwise."""
    link = game.chain[-1] if game.chain else None
    found = find(game, link.uid) if link is not None and link.declaring_targets else None
    if link is None or found is None or found[2].card is None:
        return None
    effect = found[2].card.effects[link.effect]
    count = effect.target_count
    return None if count is None else (link, found[2], effect, count)


def further_targets(game: GameState) -> list[Choice]:
    """The cards the newest link's player may add to its targets (:mod:`ygo_fsm.multi_target`):
    those that fit its effect and are not chosen yet, while it has room for more."""
    being_declared = declaring(game)
    if being_declared is None:
        return []
    link, card, effect, count = being_declared
    if not multi_target.room_for_more(link, count):
        return []
    return [Choice(uid, _card_label(game, uid))
            for uid in multi_target.further(link, _single_targets(game, link.controller, card, effect))]


def _card_label(game: GameState, uid: str) -> str:
    found = find(game, uid)
    return f"「{found[2].name if found else uid}」"


def _determined(game: GameState, uid: str) -> bool:
    found = find(game, uid)
    return found is not None and found[1] is Zone.monster and destruction_determined(game, found[2])


def _target_options(game: GameState, controller: str, card: CardInstance, effect: EffectSpec) -> list[str | None]:
    if effect.target is Target.none:
        return [None]
    candidates = _target_candidates(game, controller, card, effect)
    if not effect.needs:
        return candidates
    return [uid for uid in candidates if uid is None or legality.target_fits(game, effect, uid)]


def _target_candidates(game: GameState, controller: str, card: CardInstance, effect: EffectSpec) -> list[str | None]:
    target = effect.target
    opponent = other_player(controller)
    if target is Target.own_monster:
        return [m.uid for m in game.players[controller].monsters]
    if target is Target.opponent_monster:
        return [m.uid for m in game.players[opponent].monsters]
    if target is Target.optional_opponent_monster:
        return [None, *(m.uid for m in game.players[opponent].monsters)]
    if target is Target.any_monster:
        return [m.uid for p in (controller, opponent) for m in game.players[p].monsters if m is not card
                or not effect.cost.tribute_self]
    if target is Target.spell_trap:
        return [c.uid for p in (controller, opponent)
                for c in (*game.players[p].spell_traps, *game.players[p].field_spells) if c is not card]
    return targeting.options(game, controller, card, effect,
                             subjects.event_card(effect, controller, card, subjects.occurrences_now(game)))


def choice_key(card: CardInstance, index: int, target: str | None) -> str:
    key = card.uid if index == 0 else f"{card.uid}#{index + 1}"
    return f"{key}>{target}" if target else key


def parse_key(key: str) -> tuple[str, int, str | None]:
    """``uid``, ``uid#2`` or ``uid>target`` → (uid, effect index, target)."""
    head, _, target = key.partition(">")
    uid, _, number = head.partition("#")
    return uid, (int(number) - 1 if number else 0), (target or None)


def choice_label(game: GameState, card: CardInstance, effect: EffectSpec, target: str | None) -> str:
    text = f"「{card.name}」"
    if target:
        text += " → " + _card_label(game, target)
    return text + (f"：{effect.label}" if effect.label else "")


def _choices(game: GameState, player: str, candidates: Iterator[tuple[CardInstance, int, EffectSpec]]) -> list[Choice]:
    choices = []
    for card, index, effect in candidates:
        for target in targets(game, player, card, effect):
            choices.append(Choice(choice_key(card, index, target), choice_label(game, card, effect, target)))
    return choices


def _phase_effect_pending(game: GameState, card: CardInstance, index: int, effect: EffectSpec) -> bool:
    phase = effect.phase
    return (phase is not None and in_phase_open_state(game, phase)
            and (card.uid, index, game.turn, phase.value) not in game.handled)


def open_state_activations(game: GameState, player: str) -> list[Choice]:
    """What ``player`` may activate with priority in an open game state (empty chain)."""
    found = effects_of_sort(game, player, "open_state")
    if not found:
        return []

    def candidates() -> Iterator[tuple[CardInstance, int, EffectSpec]]:
        # the sort left out triggers and effects answering an event; the cheap tests come first
        for zone, card, index, effect in found:
            if effect.phase is not None:
                if _phase_effect_pending(game, card, index, effect) and conditions_hold(game, player, zone, card,
                                                                                        effect):
                    yield card, index, effect
                continue
            if effect.spell_speed == 1 and not (player == game.turn_player and in_main_phase(game)
                                                and _in_open_state(game)):
                continue
            if damage_step_allows(game, effect) and conditions_hold(game, player, zone, card, effect):
                yield card, index, effect
    return _choices(game, player, candidates())


def _in_open_state(game: GameState) -> bool:
    frames = game.frames
    return len(frames) >= 2 and frames[-1].machine == "priority" and frames[-2].state == "open"


def expiring_now(game: GameState, player: str) -> list[tuple[int, Expiry]]:
    """``player``'s 『…为止』 effects that end in the phase whose open game state the duel is in."""
    # under modern those 004 names end by themselves where it says: nobody ends them
    by_themselves = PROFILE_RULES[game.profile].durations_end_by_themselves
    return [(number, expiry) for number, expiry in enumerate(game.expiring)
            if expiry.controller == player and Duration(expiry.phase) in DURATION_PHASE
            and not (by_themselves and Duration(expiry.phase) in ENDING_BY_THEMSELVES)
            and durations.due(game, expiry) and durations.still_applies(game, expiry)
            and in_phase_open_state(game, DURATION_PHASE[Duration(expiry.phase)])]


def phase_processing(game: GameState, player: str) -> list[Choice]:
    """Phase effects handled without a chain link that ``player`` may process now, and the
    『…为止』 effects ending now (``until_<monster uid>``)."""
    phase_effects = effects_of_sort(game, player, "phase")
    if not phase_effects and not game.expiring:
        return []
    choices = []
    seen: dict[str, int] = {}
    for _, expiry in expiring_now(game, player):
        seen[expiry.uid] = seen.get(expiry.uid, 0) + 1
        suffix = f"#{seen[expiry.uid]}" if seen[expiry.uid] > 1 else ""
        choices.append(Choice(f"until_{expiry.uid}{suffix}", f"「{expiry.source}」的效果结束"))
    for zone, card, index, effect in phase_effects:
        if (effect.kind is EffectKind.processing and _phase_effect_pending(game, card, index, effect)
                and conditions_hold(game, player, zone, card, effect)):
            if effect.maintenance:
                choices.extend(_maintenance_choices(game, player, card, index, effect))
            else:
                choices.append(Choice(choice_key(card, index, None), choice_label(game, card, effect, None)))
    return choices


def _maintenance_choices(game: GameState, player: str, card: CardInstance, index: int,
                         effect: EffectSpec) -> list[Choice]:
    """Pay a maintenance cost, or not and the card is destroyed (:mod:`ygo_fsm.maintenance`)."""
    payable = not legality.cost_refusals(game, player, card, effect)
    choices = []
    if payable:
        choices.append(Choice(choice_key(card, index, None), f"「{card.name}」：支付维持COST"))
    if effect.maintenance == "optional" or not payable:
        choices.append(Choice(choice_key(card, index, MAINTENANCE_NOT_PAID),
                              f"「{card.name}」：不支付维持COST，破坏这张卡"))
    return choices


MAINTENANCE_NOT_PAID = "destroy"
"""The option of ``process`` that leaves a maintenance cost unpaid (the card is destroyed)."""


_PHASE_KEYS = SORT_KEYS["phase"]
"""The ``card_scans`` key of each player's phase effects (:func:`~ygo_fsm.in_play.effects_of_sort`)."""


def pending_phase_effects(game: GameState, player: str) -> bool:
    """``player`` still has mandatory phase effects to activate or process in this phase
    (an effect lasting until this phase must end in it)."""
    if game.effect_cards is False and not game.expiring:  # (GameState.has_effect_cards, as found)
        return False  # no card of the duel has an effect, and none lasts until a phase
    kept = game.card_scans  # (effects_of_sort's kept list read in place: several pass transitions ask this)
    phase_effects: list[EffectInPlay] | None = (  # (what effects_of_sort keeps under the key: its list)
        kept.get(_PHASE_KEYS[player]) if kept is not None else None)  # type: ignore[assignment]
    if phase_effects is None:
        phase_effects = effects_of_sort(game, player, "phase")
    if not phase_effects and not game.expiring:
        return False  # no phase effect and nothing lasting until a phase: nothing can be pending
    scans = game.scans
    key = ("pending_phase_effects", player)
    if scans is not None and key in scans:
        return bool(scans[key])
    pending = bool(game.expiring and expiring_now(game, player)) or _phase_effect_due(game, player, phase_effects)
    if scans is not None:
        scans[key] = pending
    return pending


def _phase_effect_due(game: GameState, player: str, phase_effects: list[EffectInPlay]) -> bool:
    # of its own: pending_phase_effects makes no closure cells (tests/test_hot_paths.py)
    return any(effect.mandatory and _phase_effect_pending(game, card, index, effect)
               and conditions_hold(game, player, zone, card, effect)
               for zone, card, index, effect in phase_effects)


def is_phase_choice(game: GameState, key: str) -> bool:
    uid, index, _ = parse_key(key)
    found = find(game, uid)
    return found is not None and found[2].card is not None and found[2].card.effects[index].phase is not None


def chain_responses(game: GameState, player: str) -> list[Choice]:
    """Effects ``player`` may chain to the newest link (spell speed 2+, not below it)."""
    if not game.chain:
        return []
    found = effects_of_sort(game, player, "response")
    if not found:
        return []
    floor = max(2, game.chain[-1].spell_speed)
    happened = subjects.occurrences_now(game)

    def candidates() -> Iterator[tuple[CardInstance, int, EffectSpec]]:
        for zone, card, index, effect in found:
            if (effect.spell_speed < floor
                    or (effect.events and not any(subjects.answers(effect, player, card, o) for o in happened))
                    or not damage_step_allows(game, effect)):
                continue
            if conditions_hold(game, player, zone, card, effect):
                yield card, index, effect
    return _choices(game, player, candidates())


def window_chain1(game: GameState, player: str, *, ignition: bool = True) -> list[Choice]:
    """CHAIN1 in a timing window once the triggers are placed: the turn player's ignition
    effect where allowed (only with ``ignition``), then spell speed 2+ (no-timing cards not in
    restricted windows)."""
    found = effects_of_sort(game, player, "chain1")
    if not found:
        return []
    window = game.window
    happened = window.events if window is not None else []

    def candidates() -> Iterator[tuple[CardInstance, int, EffectSpec]]:
        for zone, card, index, effect in found:
            if not damage_step_allows(game, effect):
                continue
            if effect.kind is _IGNITION:
                allowed = (ignition and window is not None and window.ignition_allowed
                           and player == game.turn_player)
            elif effect.spell_speed >= 2:
                allowed = (any(subjects.answers(effect, player, card, o) for o in happened) if effect.events
                           else not (window is not None and window.restricted))
            else:
                allowed = False
            if allowed and conditions_hold(game, player, zone, card, effect):
                yield card, index, effect
    return _choices(game, player, candidates())


def player_text(game: GameState, player: str) -> str:
    """How narration names a player: 回合玩家A / 对方B."""
    return f"回合玩家{player}" if player == game.turn_player else f"对方{player}"
