"""Chains and timing windows: activating an effect (costs, the card onto the field, a new
link), resolving the chain newest link first (逆算), phase effects processed without a chain
link, and the simultaneous triggers a timing window collects, in the priority list's tiers
(000 ※回合的流程/阶段中，卡／效果的发动时点的出现条件: turn player's mandatory → opponent's
mandatory → turn player's optional → opponent's optional; each player orders their own).

An optional "when … you can" trigger whose event was not the last thing to happen misses its
timing; optional triggers met while paying a summon's conditions do not activate (000).
"""

from __future__ import annotations

from . import continuous, durations, multi_target, subjects
from .cards import (
    CARD_ACTIVATION_KINDS,
    DURATION_PHASE,
    SPELL_KINDS,
    TRAP_KINDS,
    CardType,
    Cause,
    Duration,
    EffectKind,
    EffectSpec,
    Event,
    Location,
    Op,
    Target,
)
from .effects import (
    choice_key,
    choice_label,
    conditions_hold,
    find,
    in_main_phase,
    move,
    name_key,
    once_key,
    parse_key,
    phase_effects_here,
    player_text,
    targets,
)
from .events import emit, face_of, last_happened
from .game import Zone
from .in_play import EffectInPlay, effects_of_sort
from .legality import ON_FIELD_KINDS, needs_card_on_field, on_field
from .maintenance import handle_maintenance
from .operations import discard, run_operation, to_graveyard
from .state import CardInstance, Choice, GameState, Link, Occurrence, Tier, Window
from .targeting import target_gone


def open_window(game: GameState, *, restricted: bool, ends_after_chain: bool = False) -> None:
    """Start a timing window with the events since the last one and sort the triggers they
    met into the priority list's tiers (000 ※…发动时点的出现条件)."""
    after_chain = game.chain_finished
    game.chain_finished = False
    events, game.events = game.events, []
    window = Window(events, after_chain=after_chain,
                    restricted=restricted and not (after_chain and ends_after_chain))
    window.ignition_allowed = (in_main_phase(game) and not window.restricted
                               and (not after_chain or game.last_action_summon))
    players = (game.turn_player, game.opponent)
    triggers = [effects_of_sort(game, players[0], "trigger"), effects_of_sort(game, players[1], "trigger")] \
        if events else [[], []]  # not a comprehension: no closure cell (tests/test_hot_paths.py)
    if triggers[0] or triggers[1]:
        _sort_triggers(game, window, events, players, triggers)
    game.window = window  # else nothing happened, or no trigger on either side: no tier to sort


def _sort_triggers(game: GameState, window: Window, events: list[Occurrence], players: tuple[str, str],
                   triggers: list[list[EffectInPlay]]) -> None:
    """Put the triggers of ``players`` that met ``events`` into ``window``'s tiers (:func:`open_window`,
    which makes no closure cells (tests/test_hot_paths.py))."""
    tiers = {(p, m): Tier(p, m, []) for p in players for m in (True, False)}
    last = last_happened(events)
    for player, found in zip(players, triggers, strict=True):
        for zone, card, index, effect in found:
            conditions = effect.conditions
            met = [o for o in events if subjects.answers(effect, player, card, o)
                   and (effect.mandatory or not o.deferred)]
            if not met or not conditions_hold(game, player, zone, card, effect):
                continue
            own_event = effect.kind is EffectKind.flip or conditions.summoned_by_own_effect
            if own_event and not any(o.uid == card.uid for o in met):
                continue  # a flip effect answers its own flip; 「この方法で特殊召喚に成功した時」 its own summon
            if (not effect.mandatory and effect.wording == "when" and last
                    and not any(subjects.answers(effect, player, card, o) for o in last)):
                continue  # 'when … you can': its event was not (among) the last thing to happen — missed
            if not targets(game, player, card, effect):
                continue  # nothing it could target: it cannot be activated
            tiers[(player, effect.mandatory)].entries.append((card.uid, index))
    order = [(game.turn_player, True), (game.opponent, True), (game.turn_player, False), (game.opponent, False)]
    window.tiers = [tiers[key] for key in order if tiers[key].entries]


def close_window(game: GameState) -> None:
    game.window = None


def _still_activatable(game: GameState, player: str, uid: str, index: int) -> bool:
    found = find(game, uid)
    if found is None or found[2].card is None:
        return False
    effect = found[2].card.effects[index]
    return conditions_hold(game, player, found[1], found[2], effect) and bool(targets(game, player, found[2], effect))


def current_tier(game: GameState) -> Tier | None:
    """The tier being placed; triggers that can no longer be activated (their card left, was
    tributed by an earlier link's cost, or has nothing to target) drop out of it."""
    window = game.window
    if window is None:
        return None
    while window.tiers:
        tier = window.tiers[0]
        tier.entries = _activatable(game, tier)
        if tier.entries:
            return tier
        window.tiers.pop(0)
    return None


def _activatable(game: GameState, tier: Tier) -> list[tuple[str, int]]:
    # of its own: current_tier makes no closure cells (tests/test_hot_paths.py)
    return [(uid, i) for uid, i in tier.entries if _still_activatable(game, tier.player, uid, i)]


def tier_choices(game: GameState) -> list[Choice]:
    tier = current_tier(game)
    if tier is None:
        return []
    choices = []
    for uid, index in tier.entries:
        found = find(game, uid)
        if found is None or found[2].card is None:
            continue
        card, effect = found[2], found[2].card.effects[index]
        for target in targets(game, tier.player, card, effect):
            choices.append(Choice(choice_key(card, index, target), choice_label(game, card, effect, target)))
    return choices


def place_trigger(game: GameState, player: str, key: str) -> None:
    tier = current_tier(game)
    uid, index, _ = parse_key(key)
    if tier is not None and (uid, index) in tier.entries:
        tier.entries.remove((uid, index))
        if not tier.entries and game.window is not None:
            game.window.tiers.pop(0)
    activate(game, player, key)


def decline_tier(game: GameState) -> None:
    tier = current_tier(game)
    if tier is not None and game.window is not None:
        game.window.tiers.pop(0)
        names = [find(game, uid) for uid, _ in tier.entries]
        game.say(f"{player_text(game, tier.player)}不发动" + "".join(f"「{n[2].name}」" for n in names if n) + "的效果")


def activate(game: GameState, player: str, key: str) -> None:
    """Activate an effect: pay its cost, put the card on the field if it is a spell or trap
    card's activation, and add a chain link (the activation events are recorded)."""
    uid, index, target = parse_key(key)
    found = find(game, uid)
    assert found is not None and found[2].card is not None, key
    _, zone, card = found
    effect = found[2].card.effects[index]
    state = game.players[player]
    notes: list[str] = []
    before = len(game.events)
    event_card = subjects.event_card(effect, player, card, subjects.occurrences_now(game)) if effect.events else None
    event_found = find(game, event_card) if event_card is not None else None
    event_identity = event_found[2].identity if event_found is not None and event_found[1] is Zone.monster else ""
    once = once_key(zone, card)  # before a cost moves the card
    source = card.identity if zone is Zone.monster else ""
    cost = effect.cost
    if cost.pay_lp:
        game.lose_lp(player, cost.pay_lp)
        emit(game, Event.lp_paid, player, card.uid, cause=Cause.cost.value)
        notes.append(f"支付{cost.pay_lp}")
    if cost.pay_half_lp:
        paid = state.lp // 2
        game.lose_lp(player, paid)
        emit(game, Event.lp_paid, player, card.uid, cause=Cause.cost.value)
        notes.append(f"支付一半基本分（{paid}）")
    if cost.tribute_self:
        to_graveyard(game, card, destroyed=False, cause=Cause.cost.value)
        notes.append("把这张卡做祭品")
    for _ in range(cost.tribute_other):
        other = next(m for m in state.monsters if m is not card
                     and (not cost.tribute_named or (m.card is not None and m.card.id == cost.tribute_named)))
        to_graveyard(game, other, destroyed=False, cause=Cause.cost.value)
        notes.append(f"把「{other.name}」做祭品")
    notes += _vocabulary_costs(game, player, card, effect, target)
    game.check_lp()  # LP may be paid down to exactly 0: that player loses at once (PR17 p.43)
    if game.is_over:
        game.say(f"{player_text(game, player)}发动「{card.name}」，" + "，".join(notes))
        return
    # what the cost did (tributes sent to the graveyard) can be responded to, with the activation
    answered = {occurrence.event for occurrence in game.events[before:]}
    answered.add(Event.card_activated)
    if effect.kind in SPELL_KINDS or effect.kind in TRAP_KINDS:
        answered.add(Event.spell_trap_activated)
        answered.add(Event.spell_activated if effect.kind in SPELL_KINDS else Event.trap_activated)
    elif card.card is not None and card.card.type is CardType.monster:
        answered.add(Event.monster_effect_activated)
    if target:
        answered.add(Event.targeted)
    if _destroys_monsters(effect):
        answered.add(Event.monster_destroying_activated)
    card_activation = effect.kind in CARD_ACTIVATION_KINDS and (zone is Zone.hand or not card.face_up)
    if effect.kind in CARD_ACTIVATION_KINDS:
        if effect.kind is EffectKind.field_spell:
            notes.extend(place_field_spell(game, player, card))
        elif zone is Zone.hand:
            move(game, card, Zone.spell_trap, player=player)
        card.face_up = True
    if effect.phase is not None:
        game.handled.add((card.uid, index, game.turn, effect.phase.value))
    chosen_target = find(game, target) if target else None
    count = effect.target_count
    link = Link(len(game.chain) + 1, card.uid, index, player, effect.spell_speed, card.name, target,
                declaring_targets=target is not None and count is not None and multi_target.most(count) > 1,
                events=frozenset(answered), card_activation=card_activation, event_card=event_card,
                event_card_identity=event_identity,
                target_identity=(chosen_target[2].identity if chosen_target is not None
                                 and chosen_target[1] is Zone.monster else ""),
                source_identity=source)
    game.chain.append(link)
    if effect.once_per_turn:
        game.used_once.add((once, index, game.turn))
    if effect.once_per_turn_name:
        game.used_once.add((name_key(card), index, game.turn))
    chosen = ""
    if chosen_target is not None:
        chosen = f"，选择「{chosen_target[2].name}」"
    costs = ("，" + "，".join(notes)) if notes else ""
    game.say(f"CHAIN{link.number} {player_text(game, player)}发动「{card.name}」{chosen}{costs}")


def add_target(game: GameState, uid: str) -> None:
    """The newest link's player adds ``uid`` to its targets (:mod:`ygo_fsm.multi_target`), with the
    card's field identity when it is a monster on the field (a card that leaves and comes back is
    no longer the target: 004 ●…也视为怪兽数量发生变化)."""
    link = game.chain[-1]
    found = find(game, uid)
    identity = found[2].identity if found is not None and found[1] is Zone.monster else ""
    link.more_targets = (*link.more_targets, uid)
    link.more_target_identities = (*link.more_target_identities, identity)
    name = found[2].name if found is not None else uid
    game.say(f"CHAIN{link.number} {player_text(game, link.controller)}再选择「{name}」为对象")


def finish_targets(game: GameState) -> None:
    """The newest link's targets are declared: now the other player may respond."""
    link = game.chain[-1]
    link.declaring_targets = False
    names = "".join(f"「{found[2].name if found else uid}」"
                    for uid in multi_target.chosen(link) for found in (find(game, uid),))
    game.say(f"CHAIN{link.number}「{link.name}」的对象是{names}")


def _vocabulary_costs(game: GameState, player: str, card: CardInstance, effect: EffectSpec,
                      target: str | None) -> list[str]:
    """Pay the costs that move cards: discard (N, or this card), banish (this card, or N from the
    graveyard), send monsters you control to the graveyard — never the effect's own target when
    another card can pay. Returns what was paid."""
    cost = effect.cost
    state = game.players[player]
    notes = []
    if cost.discard_self:
        discard(game, player, 1, chosen=(card.uid,), cause=Cause.cost.value)
        notes.append("把这张卡丢弃")
    if cost.discard:
        discard(game, player, cost.discard, skip=card.uid, cause=Cause.cost.value)
        notes.append(f"丢弃{cost.discard}张手卡")
    if cost.banish_self:
        where = find(game, card.uid)
        face = face_of(card, where[1]) if where is not None else ""
        if where is not None and where[1] is Zone.monster:
            card.leave_field()
        move(game, card, Zone.banished, player=card.owner)
        emit(game, Event.banished, player, card.uid, cause=Cause.cost.value, face=face)
        notes.append("把这张卡除外")
    for _ in range(cost.banish_from_graveyard):
        banished = _payer([c for c in state.graveyard_cards if c is not card], target)
        move(game, banished, Zone.banished, player=banished.owner)
        emit(game, Event.banished, player, banished.uid, cause=Cause.cost.value, origin="graveyard")
        notes.append(f"把墓地的「{banished.name}」除外")
    for _ in range(cost.send_own_monster):
        sent = _payer([m for m in state.monsters if m is not card], target)
        to_graveyard(game, sent, destroyed=False, cause=Cause.cost.value)
        notes.append(f"把「{sent.name}」送去墓地")
    return notes


def _payer(candidates: list[CardInstance], target: str | None) -> CardInstance:
    """The card that pays a cost: the first candidate that is not the effect's target, if any."""
    return next((c for c in candidates if c.uid != target), candidates[0])


def place_field_spell(game: GameState, player: str, card: CardInstance) -> list[str]:
    """A Field Spell goes to its player's Field Zone (one per player, apart from the Spell & Trap
    Zones); a card already there is first sent to the graveyard — by the rules, not destroyed
    and not by an effect (Yugipedia "Field Zone": send the current Field Spell to the GY to
    activate or Set another; Master Rule 3 onwards each player has their own)."""
    notes = []
    for old in list(game.players[player].field_spells):
        if old is not card:
            to_graveyard(game, old, destroyed=False)
            notes.append(f"原来的场地魔法「{old.name}」送去墓地")
    if find(game, card.uid) is None or find(game, card.uid)[1] is not Zone.field_zone:  # type: ignore[index]
        move(game, card, Zone.field_zone, player=player)
    return notes


_MONSTER_TARGETS = (Target.opponent_monster, Target.any_monster, Target.own_monster, Target.optional_opponent_monster)


def _destroys_monsters(effect: EffectSpec) -> bool:
    """The effect destroys monsters (「我が身を盾に」 answers such activations)."""
    for op in effect.resolution:
        if op.op is Op.destroy and (op.what != "target" or effect.target in _MONSTER_TARGETS):
            return True
    return False


def begin_resolution(game: GameState) -> None:
    game.last_action_summon = False
    game.say("逆算")


_LOCATION_ZONE = {Location.graveyard: Zone.graveyard, Location.hand: Zone.hand}
_LOCATION_TEXT = {Location.graveyard: "墓地", Location.hand: "手卡"}


def resolve_top_link(game: GameState) -> None:
    """Resolve the newest link (逆算): a link whose activation or effect was negated resolves
    nothing, an effect whose card must be on the field and is not does nothing, else its
    operations run — until the duel is decided."""
    link = game.chain.pop()
    game.note_resolution(link.number, link.uid, link.negated)
    found = find(game, link.uid)
    card = found[2] if found else None
    spec = card.card if card is not None else None
    effect = spec.effects[link.effect] if spec is not None else None
    target = find(game, link.target) if link.target else None
    link.target_atk = continuous.atk(game, target[2]) if target is not None else 0
    results: list[str] = []
    if link.negation == "effect":
        game.say(f"CHAIN{link.number}「{link.name}」的效果被无效，不处理")
    elif link.negated:
        game.say(f"CHAIN{link.number}「{link.name}」被无效不处理")
    elif (effect is not None and card is not None and needs_card_on_field(card, effect, link.card_activation)
          and not on_field(game, card.uid)):
        game.say(f"CHAIN{link.number}「{link.name}」已经不在场上，效果不处理")
    elif effect is not None and target_gone(game, effect, link):
        game.say(f"CHAIN{link.number}「{link.name}」的对象已经不在，效果不处理")
    elif (effect is not None and found is not None and effect.location in (Location.graveyard, Location.hand)
          and any(op.what == "self" for op in effect.resolution) and found[1] is not _LOCATION_ZONE[effect.location]):
        game.say(f"CHAIN{link.number}「{link.name}」已经离开{_LOCATION_TEXT[effect.location]}，效果不处理")
    elif effect is not None and card is not None:
        results = run_resolution(game, effect, link, card)
        # a continuous card whose activation only starts its effect says what now applies
        lasting = effect.label if effect.kind in ON_FIELD_KINDS and not effect.resolution else ""
        done = "，".join(r for r in results if r) or lasting or "不发"
        game.say(f"CHAIN{link.number}「{link.name}」效果处理，{done}")
    if game.is_over:  # the duel ended: the rest of the resolution and of the chain is not resolved
        if (effect is not None and len(results) < len(effect.resolution)) or game.chain:
            game.say("决斗结束，之后的效果处理和连锁不进行")
        return
    if card is not None and spec is not None and effect is not None and found is not None:
        _after_resolution(game, card, effect, link)


def run_resolution(game: GameState, effect: EffectSpec, link: Link, card: CardInstance) -> list[str]:
    """Run an effect's operations in order, stopping the moment the duel is decided: the rest of
    the resolution does not happen (PR17 p.43: the duel ends as soon as a player's LP reach 0
    or a player cannot draw)."""
    results = []
    for op in effect.resolution:
        results.append(run_operation(game, op, link, card))
        if game.is_over:
            break
    return results


def _after_resolution(game: GameState, card: CardInstance, effect: EffectSpec, link: Link) -> None:
    """Which card leaves the field once the whole chain has resolved (:func:`send_resolved_cards`):
    a resolved Normal or Quick-Play Spell, Normal or Counter Trap (its effect negated or not: the
    activation stands), and a Spell/Trap Card whose own activation was negated — sent, not
    destroyed. A face-up card whose effect's activation was negated stays (PR17 p.153; Yugipedia
    "Negate": a Spell/Trap whose activation is negated is sent to the GY after the entire Chain
    resolves; the activation of an effect negated, the card remains where it is)."""
    where = find(game, card.uid)
    if where is None or where[1] not in (Zone.spell_trap, Zone.field_zone):
        return
    if link.negation == "activation":
        if link.card_activation:
            game.leaving_after_chain.append((card.uid, False))
        return
    if effect.kind in _SENT_AFTER_RESOLUTION and link.card_activation:
        lingers = any(e.location is Location.lingering for e in (card.card.effects if card.card else ()))
        game.leaving_after_chain.append(
            (card.uid, effect.kind is EffectKind.quick_play_spell and lingers and not link.negated))


def send_resolved_cards(game: GameState) -> None:
    """Once the whole chain has resolved, the cards :func:`_after_resolution` marked that are still
    on the field go to the graveyard (or stay applying, 「ラストバトル！」): a card not removed by
    another link's effect stays on the field until the entire chain has resolved (Yugipedia
    "Negate"; "Extended Game Mechanics" ch. 6, yomifrog.lima-city.de)."""
    leaving, game.leaving_after_chain = game.leaving_after_chain, []
    for uid, lingers in leaving:
        found = find(game, uid)
        if found is None or found[1] not in (Zone.spell_trap, Zone.field_zone):
            continue  # it already left the field (destroyed by a later-resolving link …)
        if lingers:
            move(game, found[2], Zone.lingering)
        else:
            to_graveyard(game, found[2], destroyed=False, resolved=True)


_SENT_AFTER_RESOLUTION = (EffectKind.normal_spell, EffectKind.quick_play_spell, EffectKind.normal_trap,
                          EffectKind.counter_trap)


def finish_chain(game: GameState) -> None:
    send_resolved_cards(game)
    game.chain_finished = True


def process_phase_effect(game: GameState, player: str, key: str) -> None:
    """Handle a phase effect that starts no chain link (000: 效果的处理（不进入连锁）), or end an
    effect that lasted until this phase (000: 『…为止～』的效果结束（不进入连锁））."""
    if key.startswith("until_"):
        _end_expiry(game, player, key.removeprefix("until_"))
        return
    uid, index, option = parse_key(key)
    found = find(game, uid)
    assert found is not None and found[2].card is not None, key
    card = found[2]
    effect = found[2].card.effects[index]
    assert effect.phase is not None
    game.handled.add((card.uid, index, game.turn, effect.phase.value))
    if effect.maintenance:
        game.say(f"{player_text(game, player)}处理「{card.name}」的维持COST：" + handle_maintenance(
            game, player, card, effect, option))
        if game.is_over or option is not None or not effect.resolution:
            return
    link = Link(0, card.uid, index, player, 0, card.name)
    results = run_resolution(game, effect, link, card)
    game.say(f"{player_text(game, player)}处理「{card.name}」的效果，" + "，".join(r for r in results if r))


def _end_expiry(game: GameState, player: str, key: str) -> None:
    """End the effect named ``<uid>`` (or ``<uid>#<n>``, the n-th on that monster)."""
    uid, _, number = key.partition("#")
    phase = phase_effects_here(game)
    ending = [e for e in game.expiring if e.controller == player and DURATION_PHASE.get(Duration(e.phase)) == phase
              and e.uid == uid and durations.due(game, e) and durations.still_applies(game, e)]
    expiry = ending[int(number or 1) - 1]
    game.say(durations.undo(game, expiry))
