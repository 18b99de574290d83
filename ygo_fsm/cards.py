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

from collections.abc import Callable
from enum import Enum
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any, Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from .errors import ScenarioError


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
    field = "field"          # face-up on the field (monster or spell/trap zone)
    set = "set"              # Set (face-down) in the spell/trap zone
    graveyard = "graveyard"
    lingering = "lingering"  # a resolved card's effect that still applies (e.g. 「ラストバトル！」 at the End Phase)


class Phase(str, Enum):
    """Phases and steps whose 『…时』 phase effects the engine offers (000 ●スタンバイフェイズ【２】,
    ●バトルフェイズ【４】エンドステップ, ●エンドフェイズ【２】)."""

    standby_phase = "standby_phase"
    battle_end_step = "battle_end_step"
    end_phase = "end_phase"


class Event(str, Enum):
    """Things that happen; triggers and cards with a specific timing respond to them."""

    drawn = "drawn"
    normal_summoned = "normal_summoned"
    special_summoned = "special_summoned"
    set_card = "set_card"
    discarded = "discarded"
    destroyed = "destroyed"
    monster_sent_to_graveyard = "monster_sent_to_graveyard"
    damage_taken = "damage_taken"
    activation_negated_by_counter_trap = "activation_negated_by_counter_trap"
    spell_trap_activated = "spell_trap_activated"
    monster_destroying_activated = "monster_destroying_activated"
    before_draw = "before_draw"
    spell_activated = "spell_activated"
    trap_activated = "trap_activated"
    attack_declared = "attack_declared"
    targeted_for_attack = "targeted_for_attack"
    battle_damage = "battle_damage"
    summon_attempted = "summon_attempted"
    summon_negated = "summon_negated"
    flip_summoned = "flip_summoned"
    position_changed = "position_changed"
    flipped = "flipped"


class Op(str, Enum):
    """Resolution operations (the small vocabulary effects are written in)."""

    damage = "damage"                          # amount → the opponent (or `to: controller`)
    recover = "recover"                        # amount → the controller (or `to: opponent` / `turn_player`)
    draw = "draw"
    discard = "discard"
    destroy = "destroy"                        # the chosen target, or `all_monsters`
    send_to_graveyard = "send_to_graveyard"    # `all_except_target`: every other card on both fields and hands
    banish = "banish"
    return_to_hand = "return_to_hand"          # this card (from the graveyard or field) to its owner's hand
    special_summon = "special_summon"          # this card, or `card:` from hand/deck
    change_position = "change_position"
    modify_atk = "modify_atk"
    tribute = "tribute"                        # one of the controller's other monsters goes to the graveyard
    replace_draw = "replace_draw"              # instead of the normal draw: a card from the deck to the hand (情况Ｂ)
    negate_activation = "negate_activation"    # the previous link; `destroy: true` destroys it too
    negate_effect = "negate_effect"            # the previous link's effect: it resolves nothing, its activation stands
    negate_summon = "negate_summon"
    skip_phase = "skip_phase"                  # `what` (draw_phase, standby_phase …) in `to`'s next turn
    end_battle_phase = "end_battle_phase"      # the Battle Phase goes straight to its End Step
    cannot_attack = "cannot_attack"
    win = "win"
    draw_duel = "draw_duel"
    last_battle_judgement = "last_battle_judgement"  # 000 结果Ａ/Ｂ: who controls a monster wins; none → draw
    pay_lp = "pay_lp"                          # amount paid by `to` (not damage)
    halve_atk = "halve_atk"                    # `what: attacker`: its ATK is halved
    callable = "callable"                      # a registered Python resolution (library users)


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Operation(_Model):
    """One step of a resolution."""

    op: Op
    amount: int = 0
    amount_of: str = ""
    """Take the amount from the duel instead: ``attacker_atk`` (the attacking monster's ATK) or
    ``target_atk`` (the link's target's ATK)."""
    to: Literal["opponent", "controller", "turn_player", "both"] = "opponent"
    """Whom it affects, relative to the link's controller (``both``: each player)."""
    what: str = "target"
    """What it affects: ``target``, ``self``, ``all_monsters``, ``all_except_target``, ``own_monster``,
    a card id, a race (``spellcaster``) or ``level_N``."""
    from_: Literal["hand", "deck", "graveyard", "spell_trap_zone"] = Field(default="hand", alias="from")
    position: str = "attack"
    destroy: bool = False
    until: Phase | None = None
    """For ``modify_atk`` / ``halve_atk``: the change lasts until that phase (『…为止』), where it ends
    without a chain link."""
    name: str = ""
    """For ``callable``: the registered resolution's name."""

    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=True)


class Cost(_Model):
    """Costs paid on activation (they happen at once, before any response)."""

    pay_lp: int = 0
    pay_half_lp: bool = False
    tribute_self: bool = False
    tribute_other: int = 0
    """Number of other monsters of the controller tributed."""


class Conditions(_Model):
    """Activation conditions beyond timing."""

    own_turn: bool = False
    opponent_turn: bool = False
    lp_at_most: int | None = None
    main_phase: bool = False
    destroyed_this_turn: bool = False
    controller_is_turn_player: bool = False
    """A phase effect that happens only in its controller's own turn (『自己的准备流程』)."""
    opponent_is_turn_player: bool = False
    """A phase effect that happens only in the opponent's turn (「強奪」: 相手のスタンバイフェイズ毎)."""
    controls_monster: bool = False
    """The controller controls a monster (「ディメンション・マジック」 tributes one on resolution)."""
    normal_draw_due: bool = False
    """A normal draw is due this turn (effects that replace it need one: not on the first
    player's first turn under 004, 先攻第1回合游戏玩家的抽卡階段不能通常抽卡)."""
    event_of_opponent: bool = False
    """The event must concern the opponent's card
    (「冥王竜ヴァンダルギオン」: 相手がコントロールするカードの発動を…)."""
    summoned_by_own_effect: bool = False
    """The card was special summoned by its own effect (「冥王竜ヴァンダルギオン」: この方法で特殊召喚に成功した時)."""


class Need(_Model):
    """Something an effect's resolution needs, checked when it would be activated: a card or
    effect cannot be activated unless what its resolution does can be done (PR17 pp.133–134).

    Most needs follow from the resolution itself (:func:`ygo_fsm.legality.requirements`:
    draws need cards in the deck, special summons a free Monster Zone …); ``needs:`` in the
    card data declares the rest, e.g. a target that must be face-up."""

    what: Literal["deck_cards", "hand_cards", "monster_on_field", "free_monster_zone", "card_in_deck",
                  "card_in_hand", "card_in_graveyard", "face_up_target"]
    amount: int = Field(default=1, ge=1)
    who: Literal["controller", "opponent", "both", "either"] = "controller"
    """Whose deck, hand, zones or cards (relative to the activating player)."""
    card: str = ""
    """For ``card_in_*``: what the card must be (a card id, a race, ``level_N`` or ``monster``)."""


class Target(str, Enum):
    """What an effect chooses on activation."""

    none = "none"
    opponent_monster = "opponent_monster"
    any_monster = "any_monster"
    own_monster = "own_monster"
    spell_trap = "spell_trap"
    optional_opponent_monster = "optional_opponent_monster"


class EffectSpec(_Model):
    """One effect of a card."""

    kind: EffectKind
    label: str = ""
    mandatory: bool = False
    wording: str = Field(default="if", pattern="^(if|when)$")
    """'when … you can' optional triggers miss their timing when their event was not the last thing to happen."""
    location: Location = Location.field
    events: tuple[Event, ...] = ()
    """Events it responds to; empty with no phase = no specific timing (like 「サイクロン」)."""
    phase: Phase | None = None
    """A phase effect: activated or processed in this phase, once."""
    conditions: Conditions = Conditions()
    cost: Cost = Cost()
    target: Target = Target.none
    once_per_turn: bool = False
    """Activated at most once per turn."""
    once_per_turn_by_name: bool = False
    """Activated at most once per turn for all copies of the card together (「○○」の効果は1ターンに
    1度しか使用できない: PR17, once per turn by card name)."""
    forbids: str = Field(default="", pattern="^(|special_summon)$")
    """For a continuous effect of a face-up card: what neither player may do while it applies
    (「昇霊術師 ジョウゲン」: special summons)."""
    applies_at: str = Field(default="", pattern="^(|attack_declaration|after_attack_declaration)$")
    """For continuous effects applied at a point of the attack, without a chain link: on the
    declaration (「通行税」, 000 【怪兽的攻击宣言…】１) or right after it (「銀幕の鏡壁」, ３)."""
    resolution: tuple[Operation, ...] = ()
    needs: tuple[Need, ...] = ()
    """What its resolution needs beyond what its operations imply (see :class:`Need`)."""
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


def load_library(path: Path | None = None) -> dict[str, CardSpec]:
    """Read a card library file (safe YAML). Errors are one line naming the file and the card."""
    path = library_path() if path is None else path
    try:
        raw = yaml.safe_load(path.read_text(encoding="utf-8"))
    except (OSError, yaml.YAMLError) as exc:
        raise ScenarioError(f"{path}: cannot read card library: {str(exc).splitlines()[0]}") from exc
    if not isinstance(raw, dict) or not isinstance(raw.get("cards"), list):
        raise ScenarioError(f"{path}: expected a mapping with a 'cards' list")
    cards: dict[str, CardSpec] = {}
    for index, item in enumerate(raw["cards"]):
        name = item.get("id", f"cards[{index}]") if isinstance(item, dict) else f"cards[{index}]"
        try:
            card = CardSpec.model_validate(item)
        except ValidationError as exc:
            first = exc.errors()[0]
            where = ".".join(str(p) for p in first["loc"])
            raise ScenarioError(f"{path}: card {name}: {where}: {first['msg']}") from exc
        if card.id in cards:
            raise ScenarioError(f"{path}: card {card.id}: duplicate card id")
        cards[card.id] = card
    return cards


@lru_cache(maxsize=1)
def default_library() -> dict[str, CardSpec]:
    """The built-in card library, loaded once."""
    return load_library()
