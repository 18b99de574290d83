"""The closed words of the effect vocabulary: effect kinds and their spell speeds, locations,
phases, durations, timings, events and what narrows them (subjects, causes, origins, faces),
operations, target kinds and card types — the enums card files name by their YAML ids
(``docs/effects.md`` lists them; :mod:`ygo_fsm.card_models` composes them into cards).

>>> SPELL_SPEED[EffectKind.counter_trap], Event("destroyed").value
(3, 'destroyed')
"""

from __future__ import annotations

from enum import Enum


class EffectKind(str, Enum):
    """What an effect is (000 / DESIGN.md vocabulary)."""

    ignition = "ignition"                  # 起动效果
    trigger = "trigger"                    # 诱发效果
    flip = "flip"                          # 翻转效果
    quick = "quick"                        # 诱发即时效果
    continuous = "continuous"              # 永续效果 (applies, never activated)
    processing = "processing"              # 效果的处理（不进入连锁）: maintenance costs, phase processing
    normal_spell = "normal_spell"
    quick_play_spell = "quick_play_spell"
    continuous_spell = "continuous_spell"
    field_spell = "field_spell"
    equip_spell = "equip_spell"
    normal_trap = "normal_trap"
    continuous_trap = "continuous_trap"
    counter_trap = "counter_trap"


SPELL_SPEED: dict[EffectKind, int] = {
    EffectKind.ignition: 1,
    EffectKind.trigger: 1,
    EffectKind.flip: 1,
    EffectKind.quick: 2,
    EffectKind.normal_spell: 1,
    EffectKind.continuous_spell: 1,
    EffectKind.field_spell: 1,
    EffectKind.equip_spell: 1,
    EffectKind.quick_play_spell: 2,
    EffectKind.normal_trap: 2,
    EffectKind.continuous_trap: 2,
    EffectKind.counter_trap: 3,
}
"""Spell speed by kind; continuous effects and processing are not activated and have none."""

SPELL_KINDS = frozenset({EffectKind.normal_spell, EffectKind.quick_play_spell, EffectKind.continuous_spell,
                         EffectKind.field_spell, EffectKind.equip_spell})
TRAP_KINDS = frozenset({EffectKind.normal_trap, EffectKind.continuous_trap, EffectKind.counter_trap})
CARD_ACTIVATION_KINDS = SPELL_KINDS | TRAP_KINDS
"""Kinds whose activation is the activation of the card itself (it is placed on the field)."""


class Location(str, Enum):
    """Where a card must be for its effect to be activated or processed."""

    hand = "hand"
    """In the hand (a spell activated from the hand may be Set first and activated later)."""
    field = "field"          # face-up on the field (monster or spell/trap zone)
    set = "set"              # Set (face-down) in the spell/trap zone
    graveyard = "graveyard"
    """In the graveyard."""
    lingering = "lingering"  # a resolved card's effect that still applies (e.g. 「ラストバトル！」 at the End Phase)


class Phase(str, Enum):
    """Phases and steps whose 『…时』 phase effects the engine offers (000 ●スタンバイフェイズ【２】,
    ●バトルフェイズ【４】エンドステップ, ●エンドフェイズ【２】)."""

    standby_phase = "standby_phase"
    """『准备阶段时』: the Standby Phase (000 ●スタンバイフェイズ【２】)."""
    battle_end_step = "battle_end_step"
    """『战斗阶段结束时』: the Battle Phase's End Step (000 ●バトルフェイズ【４】)."""
    end_phase = "end_phase"
    """『结束阶段时』: the End Phase (000 ●エンドフェイズ【２】)."""
    battle_start_step = "battle_start_step"
    """『战斗阶段开始时』: the Battle Phase's Start Step (004 ●进行战斗阶段开始时发动和适用的效果的处理)."""


class Duration(str, Enum):
    """How long a change lasts (『…为止』): until the phase or point it names, where it ends
    (:mod:`ygo_fsm.durations` says where under each profile)."""

    standby_phase = "standby_phase"
    """Until the Standby Phase."""
    battle_end_step = "battle_end_step"
    """『直到战斗阶段结束时』: until the end of the Battle Phase."""
    end_phase = "end_phase"
    """『直到结束阶段时』: until the End Phase (000 ●エンドフェイズ【２】; reworded 『直到回合游戏结束时』
    since 2014: 004 *注)."""
    end_of_damage_step = "end_of_damage_step"
    """Until the end of the Damage Step (004 伤害步骤 ⑤伤害步骤结束时)."""
    end_of_turn = "end_of_turn"
    """『直到回合游戏结束时』: until the end of the turn, after the hand size adjustment (004
    ●记载了『直到回合游戏结束时』的效果…手卡调整结束全部的卡的处理终了时为止适用)."""


DURATION_PHASE: dict[Duration, Phase] = {
    Duration.standby_phase: Phase.standby_phase,
    Duration.battle_end_step: Phase.battle_end_step,
    Duration.end_phase: Phase.end_phase,
    Duration.end_of_turn: Phase.end_phase,
}
"""Where a duration is ended by its controller when durations are ended by hand (ocg2008; and
``standby_phase`` under every profile): the open game state of that phase (000 ●バトルフェイズ【４】
『战斗流程结束为止～』的效果结束; ●エンドフェイズ【２】『回合结束为止～』『结束流程为止～』的效果结束（不进入连锁））.
``end_of_damage_step`` is not here: it always ends by itself as the Damage Step ends."""

ENDING_BY_THEMSELVES: frozenset[Duration] = frozenset({Duration.battle_end_step, Duration.end_phase,
                                                       Duration.end_of_turn})
"""The durations 004 says end by themselves (under a profile whose durations do: ``modern``),
nobody choosing to end them (004 ●『直到战斗阶段结束时』…; ●记载了『直到回合游戏结束时』的效果…)."""


class Timing(str, Enum):
    """Named phases and steps a condition may require (``during:``); each is a state id of the
    machines (the test suite checks it)."""

    draw_phase = "draw_phase"
    """The Draw Phase (000 ●ドローフェイズ)."""
    standby_phase = "standby_phase"
    """The Standby Phase (000 ●スタンバイフェイズ)."""
    main_phase_1 = "main_phase_1"
    """Main Phase 1."""
    battle_phase = "battle_phase"
    """The Battle Phase (any of its steps)."""
    main_phase_2 = "main_phase_2"
    """Main Phase 2."""
    end_phase = "end_phase"
    """The End Phase (000 ●エンドフェイズ)."""
    start_step = "start_step"
    """The Battle Phase's Start Step."""
    battle_step = "battle_step"
    """The Battle Step (attack declarations and their windows)."""
    damage_step = "damage_step"
    """The Damage Step (any of its five points, 004 伤害步骤)."""
    start_of_damage_step = "start_of_damage_step"
    """004 ①伤害步骤开始时."""
    before_damage_calculation = "before_damage_calculation"
    """004 ②伤害计算前."""
    damage_calculation = "damage_calculation"
    """004 ③伤害计算时."""
    after_damage_calculation = "after_damage_calculation"
    """004 ④伤害计算后."""
    end_of_damage_step = "end_of_damage_step"
    """004 ⑤伤害步骤结束时."""
    end_step = "end_step"
    """The Battle Phase's End Step."""


class Event(str, Enum):
    """Things that happen; triggers and cards with a specific timing respond to them."""

    drawn = "drawn"
    """A card was drawn (000 ●ドローフェイズ【情况Ａ】『抽卡时』)."""
    normal_summoned = "normal_summoned"
    """A monster was normal summoned (with or without tributes)."""
    special_summoned = "special_summoned"
    """A monster (or a token) was special summoned (``origin:`` where from)."""
    set_card = "set_card"
    """A card was Set (a monster face-down, or a spell/trap)."""
    discarded = "discarded"
    """A card was discarded from the hand (``cause:`` effect, cost or hand_size_rule)."""
    destroyed = "destroyed"
    """A card on the field was destroyed (``cause:`` battle or effect)."""
    monster_sent_to_graveyard = "monster_sent_to_graveyard"
    """A monster on the field was sent to the graveyard (destroyed, tributed or sent)."""
    damage_taken = "damage_taken"
    """A player took damage from an effect."""
    activation_negated_by_counter_trap = "activation_negated_by_counter_trap"
    """An activation was negated by a counter trap (「冥王竜ヴァンダルギオン」)."""
    spell_trap_activated = "spell_trap_activated"
    """A spell or trap card was activated."""
    monster_destroying_activated = "monster_destroying_activated"
    """An effect that destroys monsters was activated (「我が身を盾に」)."""
    before_draw = "before_draw"
    """The Draw Phase before the normal draw (000 ●ドローフェイズ【１】『抽卡前』)."""
    spell_activated = "spell_activated"
    """A spell card was activated."""
    trap_activated = "trap_activated"
    """A trap card was activated."""
    attack_declared = "attack_declared"
    """A monster declared an attack (direct or on a monster: ``conditions.attack_is_direct``)."""
    targeted_for_attack = "targeted_for_attack"
    """A monster became the attack target."""
    battle_damage = "battle_damage"
    """A player took battle damage (the event is that player's)."""
    summon_attempted = "summon_attempted"
    """A summon is being performed (000 【怪兽通常***…】４: the summon negation window)."""
    summon_negated = "summon_negated"
    """A summon was negated."""
    flip_summoned = "flip_summoned"
    """A monster was flip summoned."""
    position_changed = "position_changed"
    """A monster's battle position was changed."""
    flipped = "flipped"
    """A face-down monster was turned face-up (flip effects answer it)."""
    tribute_summoned = "tribute_summoned"
    """A monster was tribute summoned (000 【怪兽通常***…】: a normal summon with tributes)."""
    sent_to_graveyard = "sent_to_graveyard"
    """Any card was sent to the graveyard (from the hand, the field or the deck: ``origin:``)."""
    banished = "banished"
    """A card was banished (``origin:`` where from)."""
    returned_to_hand = "returned_to_hand"
    """A card was returned to the hand (``origin:`` where from)."""
    targeted = "targeted"
    """A card was chosen as the target of an activated effect (the link's target)."""
    card_activated = "card_activated"
    """Any card or effect was activated."""
    monster_effect_activated = "monster_effect_activated"
    """A monster's effect was activated."""
    lp_paid = "lp_paid"
    """A player paid LP (as a cost)."""


class Subject(str, Enum):
    """Whose event a trigger or a "when …" card answers."""

    any = "any"
    """Anyone's event."""
    this_card = "this_card"
    """This card itself (「このカードが破壊され墓地へ送られた時」)."""
    own = "own"
    """A card of the effect's controller (a monster you control …)."""
    opponent = "opponent"
    """A card of the opponent (a monster your opponent controls …)."""


class Cause(str, Enum):
    """What caused an event."""

    any = "any"
    """Whatever caused it."""
    battle = "battle"
    """Destroyed by battle (004 伤害步骤 ⑤: sent to the graveyard at the end of the Damage Step)."""
    effect = "effect"
    """By a card effect (a resolution)."""
    opponent_effect = "opponent_effect"
    """By a card effect the opponent controls."""
    cost = "cost"
    """As a cost (tributed, discarded, banished or sent to pay for an activation)."""
    hand_size_rule = "hand_size_rule"
    """Discarded for the hand size limit (000 ●エンドフェイズ【３】手卡调整)."""


class Origin(str, Enum):
    """Where a card came from for its event (summoned from, sent from)."""

    any = "any"
    """From anywhere."""
    hand = "hand"
    """From the hand."""
    field = "field"
    """From the field (a monster or spell/trap zone)."""
    deck = "deck"
    """From the deck."""
    graveyard = "graveyard"
    """From the graveyard."""
    banished = "banished"
    """From among the banished cards."""


CHAIN1_ONLY_EVENTS: frozenset[Event] = frozenset({Event.summon_attempted})
"""Events answered only by the link activated right after them, CHAIN1: an effect that negates a
summon responds to the summon itself, so later links follow the ordinary spell-speed rules and a
second summon-negating effect cannot be chained to the first (000 【怪兽通常***…】４ 1.无效***的卡
／2.无效***的卡发动的场合，2速以上的卡连锁可能; PR17 pp.77–82). Every other event may be answered
by several links of the one chain that follows it: several 『攻击宣言时』 cards on one chain
(004 ●…但只要在那组连锁上，可以发动复数张『攻击宣言时才能发动』的卡)."""


class Op(str, Enum):
    """Resolution operations (the small vocabulary effects are written in)."""

    damage = "damage"                          # amount → the opponent (or `to: controller`)
    recover = "recover"                        # amount → the controller (or `to: opponent` / `turn_player`)
    draw = "draw"  # `amount` cards drawn by `to` (default: the opponent; `to: controller`)
    discard = "discard"  # `amount` cards discarded from `to`'s hand (by a card effect)
    destroy = "destroy"                        # the chosen target, or `all_monsters`
    send_to_graveyard = "send_to_graveyard"    # the operands; `all_except_target`: every other card on fields and hands
    banish = "banish"  # the operands banished (`until:` then they return to the field)
    return_to_hand = "return_to_hand"          # the operands (the target, this card …) to their owner's hand
    special_summon = "special_summon"          # the operand, or a card by what it is `from:`, to `to`'s field
    change_position = "change_position"  # the operands' position changed (to `position:` if given); or `all_face_up`
    modify_atk = "modify_atk"  # the operands' ATK changed by `amount` (`until:`)
    tribute = "tribute"                        # one of the controller's other monsters goes to the graveyard
    replace_draw = "replace_draw"              # instead of the normal draw: a card from the deck to the hand (情况Ｂ)
    negate_activation = "negate_activation"    # the previous link; `destroy: true` destroys it too
    negate_effect = "negate_effect"            # the previous link's effect: it resolves nothing, its activation stands
    negate_summon = "negate_summon"  # the summon in progress is negated (the monster goes to the graveyard)
    skip_phase = "skip_phase"                  # `what` (draw_phase, standby_phase …) in `to`'s next turn
    end_battle_phase = "end_battle_phase"      # the Battle Phase goes straight to its End Step
    cannot_attack = "cannot_attack"  # monsters cannot attack for the rest of the turn
    win = "win"  # the controller wins the duel
    draw_duel = "draw_duel"  # the duel ends in a draw
    last_battle_judgement = "last_battle_judgement"  # 000 结果Ａ/Ｂ: who controls a monster wins; none → draw
    pay_lp = "pay_lp"                          # amount paid by `to` (not damage)
    halve_atk = "halve_atk"                    # `what: attacker`: its ATK is halved
    modify_def = "modify_def"  # the operands' DEF changed by `amount` (`until:`)
    return_to_deck = "return_to_deck"          # the card to the top of its owner's deck
    take_control = "take_control"              # the target to the controller's field (`until:` it returns)
    token = "token"                            # `amount` tokens (`atk`, `def`, `name`) to `to`'s field
    search = "search"                          # a card matching `what` from the deck to the hand (not a draw)
    negate_effects = "negate_effects"          # the monster's effects are negated (`until:`)
    no_battle_damage = "no_battle_damage"      # the controller takes no battle damage (`until:`)
    equip = "equip"  # this Equip Spell is equipped to the target (a face-up monster); without one it is destroyed
    callable = "callable"                      # a registered Python resolution (library users)


class Target(str, Enum):
    """What an effect chooses on activation."""

    none = "none"
    """It takes no target."""
    opponent_monster = "opponent_monster"
    """A monster the opponent controls."""
    any_monster = "any_monster"
    """A monster on either field."""
    own_monster = "own_monster"
    """A monster the controller controls."""
    spell_trap = "spell_trap"
    """A spell/trap card on either field (Set or face-up)."""
    optional_opponent_monster = "optional_opponent_monster"
    """A monster the opponent controls, or none (「ディメンション・マジック」)."""
    face_up_monster = "face_up_monster"
    """A face-up monster on either field."""
    face_down_monster = "face_down_monster"
    """A face-down monster on either field (「太陽の書」)."""
    opponent_face_up_monster = "opponent_face_up_monster"
    """A face-up monster the opponent controls."""
    own_graveyard_monster = "own_graveyard_monster"
    """A monster in the controller's graveyard."""
    opponent_graveyard_monster = "opponent_graveyard_monster"
    """A monster in the opponent's graveyard."""
    graveyard_monster = "graveyard_monster"
    """A monster in either graveyard."""
    field_card = "field_card"
    """A card on the field of either player."""
    set_spell_trap = "set_spell_trap"
    """A Set spell/trap card on either field."""
    face_up_spell_trap = "face_up_spell_trap"
    """A face-up spell/trap card on either field."""
    event_card = "event_card"
    """The card whose event opened the window the effect answers."""


class Face(str, Enum):
    """How the event's card was on the field when the event happened (「表側表示のモンスターが破壊された時」);
    a card off the field has no face recorded, so ``face:`` never answers it
    (:data:`ygo_fsm.vocabulary.FACE_EVENTS` lists the events that record it)."""

    any = "any"
    """Face-up or face-down."""
    face_up = "face_up"
    """Face-up."""
    face_down = "face_down"
    """Face-down."""


class CardType(str, Enum):
    monster = "monster"
    spell = "spell"
    trap = "trap"
