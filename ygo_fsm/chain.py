"""Chains and timing windows: activating an effect (costs, the card onto the field, a new
link), resolving the chain newest link first (逆算), phase effects processed without a chain
link, and the simultaneous triggers a timing window collects, in the priority list's tiers
(000 ※回合的流程/阶段中，卡／效果的发动时点的出现条件: turn player's mandatory → opponent's
mandatory → turn player's optional → opponent's optional; each player orders their own).

An optional "when … you can" trigger whose event was not the last thing to happen misses its
timing; optional triggers met while paying a summon's conditions do not activate (000).
"""

from __future__ import annotations

from .cards import CARD_ACTIVATION_KINDS, SPELL_KINDS, TRAP_KINDS, EffectKind, EffectSpec, Event, Location, Op, Target
from .effects import (
    choice_key,
    choice_label,
    conditions_hold,
    effects_of,
    find,
    in_main_phase,
    move,
    name_use_key,
    parse_key,
    phase_effects_here,
    player_text,
    targets,
)
from .game import FIELD_ZONES, Zone
from .legality import needs_card_on_field, on_field
from .maintenance import handle_maintenance
from .operations import run_operation, to_graveyard
from .state import CardInstance, Choice, GameState, Link, Tier, Window


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
    tiers = {(p, m): Tier(p, m, []) for p in (game.turn_player, game.opponent) for m in (True, False)}
    last = events[-1] if events else None
    for player in (game.turn_player, game.opponent):
        for zone, card, index, effect in effects_of(game, player):
            if not effect.is_trigger_like or effect.phase is not None or not effect.events:
                continue
            met = [o for o in events if o.event in effect.events and (effect.mandatory or not o.deferred)
                   and (not effect.conditions.event_of_opponent or o.player != player)]
            if not met or not conditions_hold(game, player, zone, card, effect):
                continue
            own_event = effect.kind is EffectKind.flip or effect.conditions.summoned_by_own_effect
            if own_event and not any(o.uid == card.uid for o in met):
                continue  # a flip effect answers its own flip; 「この方法で特殊召喚に成功した時」 its own summon
            if (not effect.mandatory and effect.wording == "when" and last is not None
                    and last.event not in effect.events):
                continue  # 'when … you can': its event was not the last thing to happen — missed
            if not targets(game, player, card, effect):
                continue  # nothing it could target: it cannot be activated
            tiers[(player, effect.mandatory)].entries.append((card.uid, index))
    order = [(game.turn_player, True), (game.opponent, True), (game.turn_player, False), (game.opponent, False)]
    window.tiers = [tiers[key] for key in order if tiers[key].entries]
    game.window = window


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
        tier.entries = [(uid, i) for uid, i in tier.entries if _still_activatable(game, tier.player, uid, i)]
        if tier.entries:
            return tier
        window.tiers.pop(0)
    return None


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
    if effect.cost.pay_lp:
        game.lose_lp(player, effect.cost.pay_lp)
        notes.append(f"支付{effect.cost.pay_lp}")
    if effect.cost.pay_half_lp:
        paid = state.lp // 2
        game.lose_lp(player, paid)
        notes.append(f"支付一半基本分（{paid}）")
    if effect.cost.tribute_self:
        to_graveyard(game, card, destroyed=False)
        notes.append("把这张卡做祭品")
    for _ in range(effect.cost.tribute_other):
        other = next(m for m in state.monsters if m is not card)
        to_graveyard(game, other, destroyed=False)
        notes.append(f"把「{other.name}」做祭品")
    game.check_lp()  # LP may be paid down to exactly 0: that player loses at once (PR17 p.43)
    if game.is_over:
        game.say(f"{player_text(game, player)}发动「{card.name}」，" + "，".join(notes))
        return
    # what the cost did (tributes sent to the graveyard) can be responded to, with the activation
    answered = {occurrence.event for occurrence in game.events[before:]}
    if effect.kind in SPELL_KINDS or effect.kind in TRAP_KINDS:
        answered.add(Event.spell_trap_activated)
        answered.add(Event.spell_activated if effect.kind in SPELL_KINDS else Event.trap_activated)
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
    link = Link(len(game.chain) + 1, card.uid, index, player, effect.spell_speed, card.name, target,
                events=frozenset(answered), card_activation=card_activation)
    game.chain.append(link)
    if effect.once_per_turn:
        game.used_once.add((card.uid, index, game.turn))
    if effect.once_per_turn_by_name:
        game.used_once.add((name_use_key(card), index, game.turn))
    chosen = ""
    if target:
        found_target = find(game, target)
        chosen = f"，选择「{found_target[2].name if found_target else target}」"
    cost = ("，" + "，".join(notes)) if notes else ""
    game.say(f"CHAIN{link.number} {player_text(game, player)}发动「{card.name}」{chosen}{cost}")


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


_REQUIRED_TARGETS = (Target.opponent_monster, Target.any_monster, Target.own_monster, Target.spell_trap)
_LOCATION_ZONE = {Location.graveyard: Zone.graveyard, Location.hand: Zone.hand}
_LOCATION_TEXT = {Location.graveyard: "墓地", Location.hand: "手卡"}


def _target_gone(game: GameState, link: Link) -> bool:
    """The link's target left the field (a targeting effect then does nothing)."""
    if link.target is None:
        return False
    found = find(game, link.target)
    return found is None or found[1] not in FIELD_ZONES


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
    link.target_atk = target[2].atk if target is not None else 0
    results: list[str] = []
    if link.negation == "effect":
        game.say(f"CHAIN{link.number}「{link.name}」的效果被无效，不处理")
    elif link.negated:
        game.say(f"CHAIN{link.number}「{link.name}」被无效不处理")
    elif (effect is not None and card is not None and needs_card_on_field(card, effect, link.card_activation)
          and not on_field(game, card.uid)):
        game.say(f"CHAIN{link.number}「{link.name}」已经不在场上，效果不处理")
    elif effect is not None and effect.target in _REQUIRED_TARGETS and _target_gone(game, link):
        game.say(f"CHAIN{link.number}「{link.name}」的对象已经不在，效果不处理")
    elif (effect is not None and found is not None and effect.location in (Location.graveyard, Location.hand)
          and any(op.what == "self" for op in effect.resolution) and found[1] is not _LOCATION_ZONE[effect.location]):
        game.say(f"CHAIN{link.number}「{link.name}」已经离开{_LOCATION_TEXT[effect.location]}，效果不处理")
    elif effect is not None and card is not None:
        results = run_resolution(game, effect, link, card)
        done = "，".join(r for r in results if r) or "不发"
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
            to_graveyard(game, found[2], destroyed=False)


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
    ending = [e for e in game.expiring if e.controller == player and e.phase == phase and e.uid == uid]
    expiry = ending[int(number or 1) - 1]
    game.expiring.remove(expiry)
    found = find(game, uid)
    if found is not None:
        found[2].atk = max(0, found[2].atk - expiry.atk)
        game.say(f"「{expiry.source}」的效果结束，「{found[2].name}」的攻击力复原（{found[2].atk}）")
    else:
        game.say(f"「{expiry.source}」的效果结束")
