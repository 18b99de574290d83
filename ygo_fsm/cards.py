"""Cards and effects as data, and the built-in card library (``ygo_fsm/data/cards.yaml``).

An effect has a *kind*; its spell speed follows from the kind (000: 2速以上的卡 = 怪兽诱发即时效果、
速攻魔法、通常陷阱、永续陷阱、反击陷阱; counter traps are spell speed 3). It says where the card must
be, what it responds to (events, a phase, or nothing: "no specific timing"), the conditions
of its activation, its cost, and its resolution: a list of operations from a small
vocabulary (:class:`Op`) — or, for library users, a Python callable registered with
:func:`register_resolution`.

>>> library = default_library()
>>> library["cyclone"].name_ja, library["cyclone"].effects[0].spell_speed
('サイクロン', 2)
>>> library["royal_curse"].effects[0].spell_speed
3
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from enum import Enum
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from . import vocabulary
from .errors import ScenarioError
from .grants import Grant
from .yamlio import YamlInputError, load_yaml


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
    battle_end_step = "battle_end_step"
    end_phase = "end_phase"


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


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Operation(_Model):
    """One step of a resolution."""

    op: Op
    """The operation (table *Operations*)."""
    amount: int = 0
    """How much (damage, LP, cards, tokens) or, for ``special_summon``, the ATK/DEF it gets."""
    amount_of: str = ""
    """Take the amount from the duel instead: ``attacker_atk`` (the attacking monster's ATK) or
    ``target_atk`` (the link's target's ATK)."""
    to: Literal["opponent", "controller", "turn_player", "both"] = "opponent"
    """Whom it affects, relative to the link's controller (``both``: each player)."""
    what: str = "target"
    """What it affects: ``target``, ``self``, ``event_card`` (the card whose event the effect
    answers), ``attacker``, ``all_monsters``, ``all_except_target``, ``own_monster``,
    a card id, a race (``spellcaster``) or ``level_N``; :mod:`ygo_fsm.vocabulary` says which
    operation takes which."""
    from_: Literal["hand", "deck", "graveyard", "spell_trap_zone"] = Field(default="hand", alias="from")
    """For ``special_summon`` of a card by what it is: where it is taken from."""
    position: Literal["attack", "defence", "face_down_defence"] = "attack"
    """The battle position it is summoned in or changed to."""
    destroy: bool = False
    """For ``negate_activation``: the negated card is destroyed too."""
    until: Duration | None = None
    """The change lasts until then (『…为止』) and is undone without a chain link."""
    turns: int = Field(default=0, ge=0)
    """With ``until``: it lasts that many of the controller's turns more (『…ターン』)."""
    atk: int = 0
    """For ``token``: its ATK."""
    defence: int = Field(default=0, alias="def")
    """For ``token``: its DEF."""
    name: str = ""
    """For ``callable``: the registered resolution's name."""

    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=True)


class Cost(_Model):
    """Costs paid on activation (they happen at once, before any response)."""

    pay_lp: int = 0
    """LP paid (a fixed amount)."""
    pay_half_lp: bool = False
    """Half the controller's LP paid (「神の宣告」)."""
    tribute_self: bool = False
    """This card tributed."""
    tribute_other: int = 0
    """Number of other monsters of the controller tributed."""
    tribute_named: str = ""
    """…each of them this card (its id), when given."""
    discard: int = Field(default=0, ge=0)
    """Cards discarded from the hand."""
    discard_self: bool = False
    """This card is discarded (an effect activated from the hand)."""
    banish_self: bool = False
    """This card banished (from the hand, the field or the graveyard)."""
    banish_from_graveyard: int = Field(default=0, ge=0)
    """Cards of the controller's graveyard banished."""
    send_own_monster: int = Field(default=0, ge=0)
    """Monsters the controller controls sent to the graveyard (not tributed)."""

    @property
    def is_free(self) -> bool:
        return self == Cost()


class Conditions(_Model):
    """Activation conditions beyond timing."""

    own_turn: bool = False
    """Only in the controller's own turn."""
    opponent_turn: bool = False
    """Only in the opponent's turn."""
    lp_at_most: int | None = None
    """The controller has at most this many LP (「ラストバトル！」: 1000)."""
    main_phase: bool = False
    """Only in a Main Phase."""
    destroyed_this_turn: bool = False
    """This card was destroyed this turn (「ドル・ドラ」)."""
    controller_is_turn_player: bool = False
    """A phase effect that happens only in its controller's own turn (『自己的准备流程』)."""
    opponent_is_turn_player: bool = False
    """A phase effect that happens only in the opponent's turn (「強奪」: 相手のスタンバイフェイズ毎)."""
    controls_monster: bool = False
    """The controller controls a monster (「ディメンション・マジック」 tributes one on resolution)."""
    normal_draw_due: bool = False
    """A normal draw is due this turn (effects that replace it need one: not on the first
    player's first turn under 004, 先攻第1回合游戏玩家的抽卡階段不能通常抽卡)."""
    summoned_by_own_effect: bool = False
    """The card was special summoned by its own effect (「冥王竜ヴァンダルギオン」: この方法で特殊召喚に成功した時)."""
    during: tuple[Timing, ...] = ()
    """Only during one of these phases or steps (with ``own_turn`` / ``opponent_turn``: whose)."""
    attacked_this_turn: bool = False
    """This card declared an attack this turn."""
    attack_is_direct: bool = False
    """The attack in progress is a direct attack."""
    controls_no_monster: bool = False
    """The controller controls no monster."""
    lp_at_least: int | None = None
    """The controller has at least this many LP."""
    opponent_lp_at_most: int | None = None
    """The opponent has at most this many LP."""


class Need(_Model):
    """Something an effect's resolution needs, checked when it would be activated: a card or
    effect cannot be activated unless what its resolution does can be done (PR17 pp.133–134).

    Most needs follow from the resolution itself (:func:`ygo_fsm.legality.requirements`:
    draws need cards in the deck, special summons a free Monster Zone …); ``needs:`` in the
    card data declares the rest, e.g. a target that must be face-up."""

    what: Literal["deck_cards", "hand_cards", "monster_on_field", "free_monster_zone", "card_in_deck",
                  "card_in_hand", "card_in_graveyard", "face_up_target"]
    """``deck_cards`` / ``hand_cards``: that many cards in the deck / hand; ``monster_on_field``;
    ``free_monster_zone``; ``card_in_deck`` / ``card_in_hand`` / ``card_in_graveyard``: a card
    that is ``card``; ``face_up_target``: the target must be face-up."""
    amount: int = Field(default=1, ge=1)
    """How many."""
    who: Literal["controller", "opponent", "both", "either"] = "controller"
    """Whose deck, hand, zones or cards (relative to the activating player)."""
    card: str = ""
    """For ``card_in_*``: what the card must be (a card filter)."""


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


class EffectSpec(_Model):
    """One effect of a card."""

    kind: EffectKind
    """What the effect is (table *Effect kinds*)."""
    label: str = ""
    """The effect's text, for narration."""
    mandatory: bool = False
    """A mandatory effect (必发): it must be activated or processed."""
    wording: str = Field(default="if", pattern="^(if|when)$")
    """'when … you can' optional triggers miss their timing when their event was not the last thing to happen."""
    location: Location = Location.field
    """Where the card must be (table *Locations*)."""
    events: tuple[Event, ...] = ()
    """Events it responds to; empty with no phase = no specific timing (like 「サイクロン」)."""
    subject: Subject = Subject.any
    """Whose event it answers (``this_card``: only this card's own)."""
    cause: Cause = Cause.any
    """What must have caused the event."""
    origin: Origin = Origin.any
    """Where the event's card came from."""
    phase: Phase | None = None
    """A phase effect: activated or processed in this phase, once."""
    conditions: Conditions = Conditions()
    """Conditions of its activation (table *Conditions*)."""
    cost: Cost = Cost()
    """What it costs, paid on activation (table *Costs*)."""
    target: Target = Target.none
    """What it chooses on activation (table *Targets*)."""
    once_per_turn: bool = False
    """Activated at most once per turn (per copy of the card)."""
    once_per_turn_name: bool = False
    """Activated at most once per turn for all copies of the card together (『…同名カード…』; PR17)."""
    forbids: str = Field(default="", pattern="^(|special_summon)$")
    """For a continuous effect of a face-up card: what neither player may do while it applies
    (「昇霊術師 ジョウゲン」: special summons)."""
    applies_at: str = Field(default="", pattern="^(|attack_declaration|after_attack_declaration)$")
    """For continuous effects applied at a point of the attack, without a chain link: on the
    declaration (「通行税」, 000 【怪兽的攻击宣言…】１) or right after it (「銀幕の鏡壁」, ３)."""
    grants: Grant | None = None
    """For a continuous effect: what the monsters it applies to get while its card is face-up on
    the field — ATK/DEF, piercing, battle protection, halved battle damage (table *Grants*)."""
    resolution: tuple[Operation, ...] = ()
    """What it does, in order (table *Operations*)."""
    needs: tuple[Need, ...] = ()
    """What its resolution needs at activation beyond what its operations imply (draws need cards
    in the deck, searches a card that fits, special summons and tokens free Monster Zones …):
    items ``{what: face_up_target}``, ``{what: card_in_graveyard, card: <filter>}`` … (PR17
    pp.133–134)."""
    maintenance: Literal["", "optional", "mandatory"] = ""
    """For a processing effect whose ``cost`` keeps its card on the field (维持COST): ``optional``
    — its controller pays or the card is destroyed; ``mandatory`` — it is paid, and the card is
    destroyed only when it cannot be (Yugipedia "Maintenance cost"; 000 ●スタンバイフェイズ【２】)."""

    @property
    def spell_speed(self) -> int:
        """1, 2 or 3 (0 for continuous effects and processing, which are not activated)."""
        return SPELL_SPEED.get(self.kind, 0)

    @property
    def starts_chain_link(self) -> bool:
        return self.kind not in (EffectKind.continuous, EffectKind.processing)

    @property
    def is_trigger_like(self) -> bool:
        """Trigger and flip effects: they go on the chain in the priority-list tiers."""
        return self.kind in (EffectKind.trigger, EffectKind.flip)


class SpecialSummonCost(_Model):
    """What a monster's own special summon costs at step 2 (000 【怪兽通常***…】２: 「青眼の光龍」等的
    场上的特定怪兽作祭品、「メガロック・ドラゴン」等的墓地的特定怪兽除外)."""

    tribute: int = 0
    """Monsters of the summoning player to tribute."""
    tribute_card: str = ""
    """…each of them this card (its id), when given."""
    banish_from_graveyard: int = 0
    """Cards to banish from the summoning player's graveyard."""
    banish_race: str = ""
    """…each a monster of this race, when given."""


class CardType(str, Enum):
    monster = "monster"
    spell = "spell"
    trap = "trap"


class CardSpec(_Model):
    """A card of the library: names as in the seeds, type, stats, effects."""

    id: str = Field(pattern=r"^[a-z][a-z0-9_]*$")
    name_ja: str
    name_zh: str
    type: CardType
    atk: int = 0
    defence: int = Field(default=0, alias="def")
    level: int = 0
    race: str = ""
    special_summon_only: bool = False
    """A monster that cannot be normal summoned or set."""
    attacks_in_defence: bool = False
    """It may attack in Defense Position, its DEF used as its attack value (「絶対防御将軍」)."""
    special_summon_procedure: str = ""
    """Its own way to be special summoned: ``opponent_controls_monsters_you_control_none``
    (「サイバー・ドラゴン」), or ``cost`` — paying :attr:`special_summon_cost` (条件召喚)."""
    special_summon_cost: SpecialSummonCost | None = None
    effects: tuple[EffectSpec, ...] = ()
    seeds: str = ""
    """Where the seeds use it."""

    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=True)

    @model_validator(mode="after")
    def _spells_and_traps_have_a_kind(self) -> CardSpec:
        for effect in self.effects:
            if self.type is CardType.spell and effect.kind in TRAP_KINDS:
                raise ValueError(f"spell {self.id} has a trap effect kind {effect.kind.value}")
            if self.type is CardType.trap and effect.kind in SPELL_KINDS:
                raise ValueError(f"trap {self.id} has a spell effect kind {effect.kind.value}")
        return self

    def name(self, lang: str = "zh") -> str:
        """The seeds' name: Japanese (as in 000) for ``ja``/``zh`` narration, Chinese with ``zh_cn``."""
        return self.name_zh if lang == "zh_cn" else self.name_ja


class CardFile(_Model):
    """A card file: the built-in library's format, and users' card files (``--cards``, a scenario's
    ``library:``)."""

    cards: tuple[CardSpec, ...]


def card_file_json_schema() -> dict[str, Any]:
    """The JSON Schema of a card file (``ygo-fsm schema cards``)."""
    schema = CardFile.model_json_schema()
    return {"$schema": "https://json-schema.org/draft/2020-12/schema", "title": "ygo-fsm card file",
            "description": "Cards and their effects; the vocabulary is docs/effects.md.",
            **{key: value for key, value in schema.items() if key not in ("title", "description")}}


def responds_to(effect: EffectSpec) -> str:
    """What an effect responds to, in short: its events (with subject, cause, origin), its phase,
    ``no specific timing``, or ``applies`` for effects that are not activated."""
    if effect.kind is EffectKind.continuous:
        return f"applies at {effect.applies_at}" if effect.applies_at else "applies"
    if effect.phase is not None:
        return f"phase {effect.phase.value}"
    if not effect.events:
        return "no specific timing"
    narrowed = [f"{name} {value.value}" for name, value in
                (("subject", effect.subject), ("cause", effect.cause), ("origin", effect.origin))
                if value.value != "any"]
    return ", ".join(e.value for e in effect.events) + (f" ({'; '.join(narrowed)})" if narrowed else "")


Resolution = Callable[[Any, Any], None]
"""A Python resolution: called with (duel, link)."""

RESOLUTIONS: dict[str, Resolution] = {}


def register_resolution(name: str) -> Callable[[Resolution], Resolution]:
    """Register a Python resolution usable as ``{op: callable, name: NAME}`` in card data."""

    def decorate(func: Resolution) -> Resolution:
        RESOLUTIONS[name] = func
        return func

    return decorate


def library_path() -> Path:
    packaged = resources.files("ygo_fsm").joinpath("data", "cards.yaml")
    return Path(str(packaged))


# --- semantic checks ----------------------------------------------------------------------


def _what_allowed(op: str, what: str) -> bool:
    allowed = vocabulary.OPERATION_WHAT.get(op, frozenset())
    if what in allowed:
        return True
    return "*" in allowed and what not in ("target", "self", "event_card", "attacker")


def _effect_problems(card: CardSpec, effect: EffectSpec) -> list[tuple[str, str]]:
    """(field, message) for each way ``effect`` of ``card`` cannot mean what it says."""
    problems: list[tuple[str, str]] = []
    kind = effect.kind.value
    lasting_card = any(e.kind.value in vocabulary.LASTING_CARD_KINDS for e in card.effects)
    if kind not in vocabulary.KINDS_BY_CARD_TYPE[card.type.value] and not (
            lasting_card and effect.location is Location.field and kind in vocabulary.LASTING_CARD_EFFECT_KINDS):
        problems.append(("kind", f"a {card.type.value} card cannot have a {kind} effect; "
                                 f"kinds: {', '.join(sorted(vocabulary.KINDS_BY_CARD_TYPE[card.type.value]))}"))
    answers_events = bool(effect.events)
    for name, value in (("subject", effect.subject is not Subject.any), ("cause", effect.cause is not Cause.any),
                        ("origin", effect.origin is not Origin.any)):
        if value and not answers_events:
            problems.append((name, f"{name} narrows the events the effect answers, but it answers none (give events:)"))
    if effect.kind in (EffectKind.trigger, EffectKind.flip) and not effect.events and effect.phase is None \
            and effect.kind is EffectKind.trigger:
        problems.append(("events", "a trigger effect needs events: (or a phase:) to answer"))
    if not effect.starts_chain_link and (effect.once_per_turn or effect.once_per_turn_name):
        problems.append(("once_per_turn", f"a {kind} effect is not activated; once per turn means nothing here"))
    if effect.kind is not EffectKind.continuous and (effect.forbids or effect.applies_at or effect.grants):
        problems.append(("forbids" if effect.forbids else "applies_at" if effect.applies_at else "grants",
                         "only a continuous effect forbids, applies or grants"))
    equips = any(e.kind is EffectKind.equip_spell for e in card.effects)
    if effect.grants is not None and effect.grants.monsters == "equipped" and not equips:
        problems.append(("grants.monsters", "equipped: only an Equip Spell is equipped to a monster"))
    if any(op.op is Op.equip for op in effect.resolution) and effect.kind is not EffectKind.equip_spell:
        problems.append(("resolution", "equip: only an Equip Spell's activation equips it"))
    if effect.target is Target.event_card and not answers_events:
        problems.append(("target", "event_card targets the card of the event it answers, but it answers none"))
    cost = effect.cost
    for name, locations in vocabulary.COST_LOCATIONS.items():
        if getattr(cost, name) and effect.location.value not in locations:
            problems.append((f"cost.{name}", f"never payable: the card is in the {effect.location.value} "
                                             f"(it must be in the {' or '.join(sorted(locations))})"))
    if cost.tribute_self and card.type is not CardType.monster:
        problems.append(("cost.tribute_self", "never payable: only a monster can be tributed"))
    if cost.pay_lp < 0:
        problems.append(("cost.pay_lp", "never payable: a negative amount"))
    for index, operation in enumerate(effect.resolution):
        where = f"resolution[{index}]"
        op = operation.op.value
        given = operation.model_fields_set
        what = operation.what if "what" in given else vocabulary.DEFAULT_WHAT.get(op, "target")
        allowed = vocabulary.OPERATION_WHAT.get(op)
        if "what" in given and allowed is None:
            problems.append((f"{where}.what", f"{op} takes no what: (it would be ignored)"))
        elif allowed is not None and not _what_allowed(op, what):
            shown = sorted(w if w != "*" else vocabulary.CARD_FILTERS for w in allowed)
            problems.append((f"{where}.what", f"{op} does not take what: {what}; it takes {', '.join(shown)}"))
        if allowed is not None and what == "target" and effect.target is Target.none:
            problems.append((f"{where}.what", f"{op} acts on the target, but the effect takes none (give target:)"))
        if what == "event_card" and not answers_events:
            problems.append((f"{where}.what", "event_card is the card of the event the effect answers, "
                                              "but it answers none (give events:)"))
        if operation.amount_of and operation.amount_of not in vocabulary.AMOUNTS_OF:
            problems.append((f"{where}.amount_of", f"unknown amount_of {operation.amount_of!r}; "
                                                   f"known: {', '.join(sorted(vocabulary.AMOUNTS_OF))}"))
        if operation.amount_of in vocabulary.TARGETED_AMOUNTS and effect.target is Target.none:
            problems.append((f"{where}.amount_of",
                             f"{operation.amount_of} reads the target, but the effect takes none"))
        if "until" in given and op not in vocabulary.LASTING_OPERATIONS:
            problems.append((f"{where}.until", f"{op} does not last; until: would be ignored"))
        if op in vocabulary.NEEDS_DURATION and operation.until is None:
            problems.append((f"{where}.until", f"{op} needs until: (how long it lasts)"))
        if "turns" in given and operation.until is None:
            problems.append((f"{where}.turns", "turns: counts turns of a lasting effect (give until:)"))
        if "position" in given and op not in vocabulary.POSITION_OPERATIONS:
            problems.append((f"{where}.position", f"{op} takes no position: (it would be ignored)"))
        if "from_" in given and op not in vocabulary.SOURCE_OPERATIONS:
            problems.append((f"{where}.from", f"{op} takes no from: (it would be ignored)"))
        for name, readers in vocabulary.OPERATION_FIELDS.items():
            if name in given and op not in readers:
                field_name = "def" if name == "defence" else name
                problems.append((f"{where}.{field_name}", f"{op} does not read {field_name}: (it would be ignored)"))
        if op == "callable" and not operation.name:
            problems.append((f"{where}.name", "callable needs the registered resolution's name"))
    return problems


def card_problems(card: CardSpec) -> list[str]:
    """Each way the card's effects cannot mean what they say, as ``effects[i] (kind): field: message``:
    an effect kind that does not fit the card type, an operation acting on a target the effect does
    not take, a ``what:`` the operation does not take, a field that would be ignored, a cost that
    can never be paid (:mod:`ygo_fsm.vocabulary` holds the tables)."""
    lines = []
    for index, effect in enumerate(card.effects):
        for where, message in _effect_problems(card, effect):
            lines.append(f"effects[{index}] ({effect.kind.value}): {where}: {message}")
    return lines


# --- reading card files ---------------------------------------------------------------------


def read_card_file(path: str | Path) -> tuple[dict[str, CardSpec], list[str]]:
    """Read a card file (safe YAML; the library format: a mapping with a ``cards`` list) and check
    every card. Returns the cards that are valid and one line per problem, each naming the file,
    the card, the effect and the field."""
    path = Path(path)
    try:
        raw = load_yaml(path)
    except YamlInputError as exc:
        return {}, [f"{path}: {exc.where}: card library: {exc.problem}"]
    return parse_cards(raw, source=str(path))


def parse_cards(raw: object, *, source: str) -> tuple[dict[str, CardSpec], list[str]]:
    """Validate already-read card data (``{cards: [...]}`` or a list of cards): the cards that are
    valid, and one line per problem (``source: card ID: effects[i] (kind): field: message``)."""
    items = raw.get("cards") if isinstance(raw, dict) else raw
    if isinstance(raw, dict) and set(raw) - {"cards"}:
        return {}, [f"{source}: unknown field(s) {', '.join(sorted(map(str, set(raw) - {'cards'})))}; "
                    "a card file is a mapping with a 'cards' list"]
    if not isinstance(items, list):
        return {}, [f"{source}: expected a mapping with a 'cards' list"]
    cards: dict[str, CardSpec] = {}
    problems: list[str] = []
    for index, item in enumerate(items):
        name = item.get("id", f"cards[{index}]") if isinstance(item, dict) else f"cards[{index}]"
        try:
            card = CardSpec.model_validate(item)
        except ValidationError as exc:
            for error in exc.errors():
                where = _field_path(error["loc"])
                problems.append(f"{source}: card {name}: {where}: {error['msg'].removeprefix('Value error, ')}")
            continue
        if card.id in cards:
            problems.append(f"{source}: card {card.id}: duplicate card id")
            continue
        found = card_problems(card)
        problems += [f"{source}: card {card.id}: {line}" for line in found]
        if not found:
            cards[card.id] = card
    return cards, problems


def _field_path(loc: tuple[int | str, ...]) -> str:
    text = ""
    for part in loc:
        text += f"[{part}]" if isinstance(part, int) else (f".{part}" if text else str(part))
    return text or "(card)"


def load_library(path: str | Path | None = None) -> dict[str, CardSpec]:
    """Read a card library file (safe YAML) and check it. Raises :class:`ScenarioError` with one
    line naming the file, the card, the effect and the field of the first problem.

    >>> sorted(load_library(library_path()))[:2]
    ['apophis_avatar', 'beetle_armor_knight']
    """
    cards, problems = read_card_file(library_path() if path is None else path)
    if problems:
        more = f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""
        raise ScenarioError(problems[0] + more)
    return cards


def merge(*libraries: Mapping[str, CardSpec], shadow: bool = False) -> dict[str, CardSpec]:
    """One library from several, in order. A card id given twice is an error unless ``shadow``
    (then the later card wins): a user's card never silently replaces a built-in one.

    >>> mine = default_library()["cyclone"].model_copy(update={"name_ja": "my cyclone"})
    >>> merge(default_library(), {"cyclone": mine})
    Traceback (most recent call last):
    ...
    ygo_fsm.errors.ScenarioError: card cyclone: the id is already in the library (give the card its own id)
    """
    merged: dict[str, CardSpec] = {}
    for library in libraries:
        for card_id, card in library.items():
            if card_id in merged and not shadow and merged[card_id] != card:
                raise ScenarioError(f"card {card_id}: the id is already in the library (give the card its own id)")
            merged[card_id] = card
    return merged


@lru_cache(maxsize=1)
def default_library() -> dict[str, CardSpec]:
    """The built-in card library, loaded once."""
    return load_library()
