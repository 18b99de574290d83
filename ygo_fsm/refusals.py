"""Why an action is not legal now: the real reason, with the clause it comes from.

:func:`why_not` answers for every refusal a player meets, in this order: the duel is over;
another player must act; the action is not offered in this state (the guard that blocks it,
with its clause, or where it is offered instead); the option is not offered — and then the
card-level reason (a Set trap Set this turn, a cost that cannot be paid with the numbers, a
Quick-Play Spell from the hand outside its controller's turn, no legal target, once per turn
used, the Damage Step's limits, a monster that already attacked, full zones …). A legal
action has no reason: ``None``.

The card-level checks restate, one by one and in the same order, the conditions that
:mod:`ygo_fsm.effects`, :mod:`ygo_fsm.summon` and :mod:`ygo_fsm.battle` apply when they list
the options; each gives its reason in words. Cards hidden from the acting player are named
by their place (:mod:`ygo_fsm.views`), so a reason tells them nothing more than the options do.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from . import multi_target
from .cards import SPELL_KINDS, TRAP_KINDS, EffectKind, EffectSpec, Location
from .continuous import special_summons_forbidden
from .effects import (
    activation_limit,
    damage_step_allows,
    effect_index,
    in_main_phase,
    name_key,
    once_key,
    parse_key,
    targets,
)
from .engine import CompiledTransition, Rulebook
from .game import MONSTER_ZONES, SPELL_TRAP_ZONES, Zone
from .priority import holder as priority_holder
from .rules import guard_citation
from .spec import Actor
from .state import CardInstance, Choice, Frame, GameState
from .summon import tributes_for
from .views import Hidden, hidden_from, mask_key

Option = tuple[str, int, CompiledTransition, Choice | None]
"""(player, frame level, transition, option) as the duel lists what may be done now."""

PRIORITY_CLAUSE = ("000 ◇持有优先权的回合玩家可以进行的行为; "
                   "◇因为回合玩家的放弃优先权…而得到优先权的对方玩家可以进行的行为")
SET_THIS_TURN = "002 ●主要阶段1 ◇盖放的陷阱没有经过一回合的话不可以发动; 盖放的速攻魔法没有经过一回合的话不可以发动"
QUICK_PLAY_HAND = ("Rulebook v7.1 p.18: a Quick-Play Spell is activated from the hand only in its controller's "
                   "own turn (https://yugipedia.com/wiki/Quick-Play_Spell_Card)")
ZONES_FULL = "002 ●主要阶段1 ※包括发动中的魔法、陷阱，魔法、陷阱最多只能放在5个魔法陷阱区域里"
MONSTER_ZONES_FULL = "002 ●主要阶段1 怪兽区域最多5体"
SPELL_SPEED = "000 2速以上的卡 (a response is spell speed 2 or more, not lower than the newest link; 3 only to 3)"
SPEED_1 = "000 ●メインフェイズ１【２】◇回合玩家可以进行的行为 (spell speed 1: the turn player, Main Phase, empty chain)"
DAMAGE_STEP = "004 ●伤害步骤中，基本上即使是得到发动卡的优先权的玩家也不能发动卡片"
ONCE_PER_TURN = "the card's text: 1回合1次 (once per turn)"
TRIGGERS = "000 卡／效果发动的优先顺序 (a trigger effect is put on the chain when its event happens)"
ATTACKED = "002 ●战斗阶段 ◇攻击过一回的自己怪兽，这个战斗阶段中不能再次攻击宣言"
ATTACKER = "002 ●战斗阶段 攻击宣言按照以下顺序进行 1. (a face-up Attack Position monster)"
NORMAL_SUMMON = "000 【怪兽通常***…】２ 等级5以上的怪兽通常***的祭品; 002 ●主要阶段1 1回合可以进行一次的召唤、生祭召唤"
FLIP = "000 反转***：回合主动把里侧守备表示的怪兽的表示形式改变为表侧攻击表示; 002 ●主要阶段1 「反转召唤」"
POSITION = "002 ●主要阶段1【场上怪兽的表示形式变更】"
TARGET = "002 ●战斗阶段【攻击宣言・选择对象】"
TARGETS = "PR17 (targets: each card is chosen once, among those that fit the effect)"

_PLACE = re.compile(r"^([AB])\.([a-z_]+)\.([0-9]+)$")
_EFFECT_ACTIONS = ("activate", "respond", "process")


def why_not(rulebook: Rulebook, game: GameState, options: Sequence[Option], name: str,
            choice: str | None, player: str | None = None) -> str | None:
    """Why ``name`` (with option ``choice``, by ``player`` or the player who must act) may not be
    taken now, with the clause; ``None`` when it is legal."""
    if game.is_over:
        return f"the duel is over ({game.end_reason})"
    holder = priority_holder(game)
    if player is not None and player != holder:
        return f"{player} does not hold priority ({holder} must act) [{PRIORITY_CLAUSE}]"
    named = [option for option in options if option[2].spec.event == name]
    actor = holder or game.turn_player
    hidden = hidden_from(game, actor)
    if named:
        keys = [o.key for _, _, _, o in named if o is not None]
        if choice is None:
            if len(keys) <= 1 and (not keys or all(o is not None for *_, o in named)):
                return None
            return f"choose one of its options: {', '.join(mask_key(k, hidden) for k in keys)}"
        if choice in keys or any(mask_key(key, hidden) == choice for key in keys):
            return None
        return card_reason(game, name, choice, actor) or (
            f"{choice!r} is not one of its options ({', '.join(mask_key(k, hidden) for k in keys)})")
    for frame in reversed(game.frames):
        for transition in rulebook.outgoing(frame.machine, frame.state):
            spec = transition.spec
            if spec.event != name:
                continue
            if not spec.is_player_action:
                return "the engine takes that step, not a player"
            if spec.actor is not Actor.priority_holder and _role_player(game, spec.actor) != holder:
                continue
            blocked = blocking_guards(transition, frame)
            if blocked:
                return f"{blocked} [{spec.rule}]"
            if transition.chooser is not None:  # enabled, but it has no option now
                reason = card_reason(game, name, choice, actor) if choice is not None else None
                return reason or no_options(game, name, actor)
    return declared_elsewhere(rulebook, game, name)


def _role_player(game: GameState, actor: Actor) -> str:
    return game.turn_player if actor is Actor.turn_player else game.opponent


def blocking_guards(transition: CompiledTransition, frame: Frame) -> str:
    """The guards of ``transition`` that fail in ``frame`` (and the ``unless`` guards that hold), with clauses."""
    spec = transition.spec
    failed = [g for g, check in zip(spec.guards, transition.guards, strict=True) if not check(frame)]
    held = [u for u, check in zip(spec.unless, transition.unless, strict=True) if check(frame)]

    def cite(guard: str) -> str:
        citation = guard_citation(guard)
        return f" ({citation})" if citation else ""

    scoped = ([f"declared for the {spec.profile} profile only (this duel plays {frame.game.profile.value})"]
              if spec.profile is not None and frame.game.profile != spec.profile else [])
    return ", ".join(scoped + [f"{g} does not hold{cite(g)}" for g in failed]
                     + [f"{u} holds{cite(u)}" for u in held])


def declared_elsewhere(rulebook: Rulebook, game: GameState, name: str) -> str:
    """Where an action not declared in the current states is declared, and what would block it there."""
    active = {frame.machine: frame for frame in game.frames}
    places: list[str] = []
    for machine_id in rulebook.specs:
        for transition in rulebook.machines_transitions(machine_id):
            if transition.spec.event != name or not transition.spec.is_player_action:
                continue
            where = f"{machine_id}.{transition.spec.source}"
            frame = active.get(machine_id)
            blocked = blocking_guards(transition, frame) if frame is not None else ""
            entry = f"{where}, where {blocked}" if blocked else where
            if entry not in places:
                places.append(entry)
    if not places:
        return "no machine declares that action"
    return "only offered in " + "; ".join(places)


# --- card-level reasons ------------------------------------------------------------------


def _resolve(game: GameState, token: str) -> str:
    """A place (``B.spell_trap.1``) → the uid of the card there; a uid stays as it is."""
    match = _PLACE.match(token)
    if match is None:
        return token
    player, zone_name, number = match.groups()
    try:
        cards = game.players[player].zone_list(Zone(zone_name))
    except ValueError:
        return token
    index = int(number) - 1
    return cards[index].uid if 0 <= index < len(cards) else token


def _named(card: CardInstance, hidden: dict[str, Hidden]) -> str:
    found = hidden.get(card.uid)
    return f"「{found.text}」" if found is not None else f"「{card.name}」"


def no_options(game: GameState, name: str, player: str) -> str:
    """The action is declared here and its guards hold, but nothing can be chosen for it."""
    state = game.players[player]
    if name == "set_spell_trap":
        if len(state.spell_traps) >= SPELL_TRAP_ZONES:
            return f"{player}'s five spell/trap zones are full [{ZONES_FULL}]"
        return f"{player} has no spell or trap card in the hand to Set"
    if name in ("normal_summon", "set_monster"):
        return f"{player} has no monster in the hand that can be normal summoned or Set now [{NORMAL_SUMMON}]"
    if name == "declare_attack":
        return f"none of {player}'s monsters can declare an attack now [{ATTACKER}; {ATTACKED}]"
    if name == "special_summon":
        forbidding = special_summons_forbidden(game)
        if forbidding:
            return f"「{forbidding}」 forbids special summons"
        return f"{player} has no monster whose own procedure allows a special summon now"
    if name in _EFFECT_ACTIONS:
        return f"{player} has no card or effect that can be {'processed' if name == 'process' else 'activated'} now"
    return f"{player} has nothing to choose for {name} now"


def card_reason(game: GameState, name: str, choice: str, player: str) -> str | None:
    """Why the option ``choice`` of ``name`` is not offered to ``player`` (``None``: no card-level reason found)."""
    hidden = hidden_from(game, player)
    if name in _EFFECT_ACTIONS:
        uid, index, target = parse_key(choice)
        return _effect_reason(game, name, _resolve(game, uid), index,
                              _resolve(game, target) if target else None, player, hidden)
    uid = _resolve(game, choice)
    found = game.find(uid)
    if name == "choose_target":
        return _target_reason(game, uid, found, hidden)
    if name == "add_target":
        return _further_target_reason(game, found, hidden)
    if found is None:
        return f"no card {choice!r} in this duel"
    owner, zone, card = found
    shown = _named(card, hidden)
    if owner != player:
        return f"{shown} is not {player}'s card"
    if name == "set_spell_trap":
        if zone is not Zone.hand:
            return f"{shown} is not in {player}'s hand"
        if card.card is None or card.card.type.value == "monster":
            return f"{shown} is not a spell or trap card"
        if len(game.players[player].spell_traps) >= SPELL_TRAP_ZONES:
            return f"{player}'s five spell/trap zones are full [{ZONES_FULL}]"
    elif name in ("normal_summon", "set_monster"):
        return _summon_reason(game, player, zone, card, shown)
    elif name == "flip_summon":
        if zone is not Zone.monster or card.face_up:
            return f"only a face-down monster can be flip summoned; {shown} is not one [{FLIP}]"
        if card.set_turn >= game.turn:
            return f"{shown} was Set this turn: it cannot be flip summoned until a later turn [{FLIP}]"
        if card.position_changed_turn == game.turn:
            return f"{shown}'s battle position already changed this turn [{POSITION}]"
    elif name == "change_position":
        return _position_reason(game, zone, card, shown)
    elif name == "declare_attack":
        return _attacker_reason(game, zone, card, shown)
    return None


def _summon_reason(game: GameState, player: str, zone: Zone, card: CardInstance, shown: str) -> str | None:
    if zone is not Zone.hand:
        return f"{shown} is not in {player}'s hand"
    if card.card is None or card.card.type.value != "monster":
        return f"{shown} is not a monster"
    if card.card.special_summon_only:
        return f"{shown} cannot be normal summoned or Set (it is special summoned only)"
    monsters = len(game.players[player].monsters)
    needed = tributes_for(card)
    if needed > monsters:
        return (f"{shown} is level {card.level}: it needs {needed} tribute(s) and {player} controls "
                f"{monsters} monster(s) [{NORMAL_SUMMON}]")
    if monsters - needed >= MONSTER_ZONES:
        return f"{player}'s five monster zones are full [{MONSTER_ZONES_FULL}]"
    return None


def _position_reason(game: GameState, zone: Zone, card: CardInstance, shown: str) -> str | None:
    if zone is not Zone.monster or not card.face_up:
        return f"only a face-up monster's battle position may be changed; {shown} is not one [{POSITION}]"
    if card.summoned_turn == game.turn:
        return f"{shown} was summoned this turn [{POSITION}]"
    if card.position_changed_turn == game.turn:
        return f"{shown}'s battle position already changed this turn (once per turn) [{POSITION}]"
    if card.attacked_turn == game.turn:
        return f"{shown} attacked this turn [{POSITION}]"
    return None


def _attacker_reason(game: GameState, zone: Zone, card: CardInstance, shown: str) -> str | None:
    if zone is not Zone.monster:
        return f"{shown} is not on the field"
    if not card.can_declare_attack:
        state = "face-down" if not card.face_up else "in Defense Position"
        return f"{shown} is {state}: only a face-up Attack Position monster declares an attack [{ATTACKER}]"
    if card.attacked_battle_phase == game.battle_phase_number:
        return f"{shown} already attacked in this Battle Phase [{ATTACKED}]"
    return None


def _target_reason(game: GameState, uid: str, found: tuple[str, Zone, CardInstance] | None,
                   hidden: dict[str, Hidden]) -> str | None:
    opponent = game.players[game.opponent]
    if uid == "direct":
        if opponent.monsters:
            return f"no direct attack while {game.opponent} controls a monster [{TARGET}]"
        return None
    if found is None or found[0] != game.opponent or found[1] is not Zone.monster:
        if not opponent.monsters:
            return f"{game.opponent} controls no monster: the attack is direct [{TARGET}]"
        return f"{uid!r} is not one of {game.opponent}'s monsters [{TARGET}]"
    return None


def _further_target_reason(game: GameState, found: tuple[str, Zone, CardInstance] | None,
                           hidden: dict[str, Hidden]) -> str | None:
    """Why a card cannot be added to the targets of the effect being activated."""
    link = game.chain[-1] if game.chain else None
    if link is None or found is None:
        return None
    shown = _named(found[2], hidden)
    if found[2].uid in multi_target.chosen(link):
        return f"{shown} is already a target of CHAIN{link.number}「{link.name}」 [{TARGETS}]"
    return f"{shown} does not fit the target of CHAIN{link.number}「{link.name}」 [{TARGETS}]"


def _effect_reason(game: GameState, name: str, uid: str, index: int, target: str | None, player: str,
                   hidden: dict[str, Hidden]) -> str | None:
    if uid.startswith("until_"):
        return None
    found = game.find(uid)
    if found is None:
        return f"no card {uid!r} in this duel"
    owner, zone, card = found
    shown = _named(card, hidden)
    if owner != player:
        return f"{shown} is not {player}'s card"
    if card.card is None or index >= len(card.card.effects):
        return f"{shown} has no effect #{index + 1}"
    effect = card.card.effects[index]
    reason = condition_reason(game, player, zone, card, effect, shown)
    if reason is None:
        reason = _timing_reason(game, name, effect, player, shown)
    if reason is None:
        reason = _target_choice_reason(game, player, card, effect, target, shown, hidden)
    return reason


_LOCATION_TEXT = {Location.hand: "the hand", Location.set: "its Set position in the spell/trap zone",
                  Location.field: "face-up on the field", Location.graveyard: "the graveyard",
                  Location.lingering: "where its resolved effect still applies"}


def condition_reason(game: GameState, controller: str, zone: Zone, card: CardInstance, effect: EffectSpec,
                     shown: str) -> str | None:
    """The first condition of :func:`ygo_fsm.effects.conditions_hold` that fails, in words."""
    location = effect.location
    set_spell = effect.kind in SPELL_KINDS and zone is Zone.spell_trap and not card.face_up
    location_ok = {
        Location.hand: zone is Zone.hand or set_spell,
        Location.set: zone is Zone.spell_trap and not card.face_up,
        Location.field: zone in (Zone.monster, Zone.spell_trap) and card.face_up,
        Location.graveyard: zone is Zone.graveyard,
    }.get(location, zone is Zone.lingering)
    if not location_ok:
        if location is Location.set and zone is Zone.hand:
            return f"{shown} must be Set before it is activated [002 ●主要阶段1 ◇使用场上盖放的陷阱卡]"
        return f"{shown}'s effect is used from {_LOCATION_TEXT[location]}; it is in the {zone.value} zone"
    conditions = effect.conditions
    turn_player = game.turn_player
    lp = game.players[controller].lp
    checks = [
        (conditions.own_turn and controller != turn_player, "only in its controller's turn"),
        ((conditions.opponent_turn or conditions.opponent_is_turn_player) and controller == turn_player,
         "only in the opponent's turn"),
        (conditions.controller_is_turn_player and controller != turn_player, "only in its controller's turn"),
        (conditions.lp_at_most is not None and lp > conditions.lp_at_most,
         f"only while its controller has at most {conditions.lp_at_most} LP ({controller} has {lp})"),
        (conditions.destroyed_this_turn and card.destroyed_turn != game.turn, "only the turn it was destroyed"),
        (conditions.summoned_by_own_effect and not card.summoned_by_own_effect,
         "only after it was special summoned by its own effect"),
        (conditions.normal_draw_due and not game.normal_draw_due(), "only in a turn with a normal draw"),
        (conditions.controls_monster and not game.players[controller].monsters,
         "only while its controller controls a monster"),
        (conditions.main_phase and not in_main_phase(game), "only in a Main Phase"),
    ]
    for failed, text in checks:
        if failed:
            return f"{shown}: {text} (its condition)"
    is_set = zone is Zone.spell_trap and not card.face_up
    if is_set and card.set_turn >= game.turn and effect.kind in TRAP_KINDS | {EffectKind.quick_play_spell}:
        return f"{shown} was Set this turn: it cannot be activated until a later turn [{SET_THIS_TURN}]"
    if effect.kind is EffectKind.quick_play_spell and zone is Zone.hand and controller != turn_player:
        return f"{shown} is a Quick-Play Spell in the hand: only in its controller's turn [{QUICK_PLAY_HAND}]"
    if effect.once_per_turn and (once_key(zone, card), effect_index(card, effect), game.turn) in game.used_once:
        return f"{shown}'s effect was already used this turn [{ONCE_PER_TURN}]"
    if effect.once_per_turn_name and (name_key(card), effect_index(card, effect), game.turn) in game.used_once:
        return f"an effect of a card named {shown} was already used this turn [{ONCE_PER_TURN}]"
    if (effect.kind in SPELL_KINDS | TRAP_KINDS and zone is Zone.hand
            and len(game.players[controller].spell_traps) >= SPELL_TRAP_ZONES):
        return f"{controller}'s five spell/trap zones are full [{ZONES_FULL}]"
    cost = effect.cost
    if cost.pay_lp and lp < cost.pay_lp:
        return f"{shown}'s cost is {cost.pay_lp} LP and {controller} has {lp} [its cost]"
    if cost.tribute_other:
        others = [m for m in game.players[controller].monsters if m is not card]
        if len(others) < cost.tribute_other:
            return (f"{shown}'s cost tributes {cost.tribute_other} other monster(s) and {controller} controls "
                    f"{len(others)} [its cost]")
    return None


def _timing_reason(game: GameState, name: str, effect: EffectSpec, player: str, shown: str) -> str | None:
    if effect.is_trigger_like or (not effect.starts_chain_link and effect.kind is not EffectKind.processing):
        return f"{shown}'s effect is not activated by choice: it answers its event when that happens [{TRIGGERS}]"
    if not damage_step_allows(game, effect):
        limit = activation_limit(game)
        return f"{shown} cannot be activated in this part of the Damage Step ({limit.value if limit else ''}) " \
               f"[{DAMAGE_STEP}]"
    if name == "respond" and game.chain:
        floor = max(2, game.chain[-1].spell_speed)
        if effect.spell_speed < floor:
            return (f"{shown} is spell speed {effect.spell_speed}; CHAIN{len(game.chain)} is spell speed "
                    f"{game.chain[-1].spell_speed} [{SPELL_SPEED}]")
    if (effect.spell_speed == 1 and effect.phase is None and effect.kind is not EffectKind.processing
            and (player != game.turn_player or not in_main_phase(game) or game.chain)):
        return f"{shown} is spell speed 1: only the turn player in a Main Phase with no chain [{SPEED_1}]"
    if effect.phase is not None:
        return f"{shown}'s effect is handled in the {effect.phase.value}, once [000 ※准备流程中每1次…]"
    return None


def _target_choice_reason(game: GameState, player: str, card: CardInstance, effect: EffectSpec,
                          target: str | None, shown: str, hidden: dict[str, Hidden]) -> str | None:
    allowed = targets(game, player, card, effect)
    if allowed == [None]:
        return f"{shown} takes no target" if target is not None else None
    if not [t for t in allowed if t is not None]:
        return f"{shown} has no legal target [{effect.target.value}]"
    if target is None and None not in allowed:
        return f"{shown} needs a target: {', '.join(mask_key(t, hidden) for t in allowed if t)}"
    if target is not None and target not in allowed:
        found = game.find(target)
        what = _named(found[2], hidden) if found is not None else repr(target)
        return f"{shown} cannot target {what} [{effect.target.value}]"
    return None


__all__ = ["blocking_guards", "card_reason", "condition_reason", "declared_elsewhere", "no_options",
           "why_not"]
