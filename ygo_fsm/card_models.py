"""The card and effect models (pydantic): a card, its effects, and each effect's conditions,
cost, targets, needs and resolution operations, composed of the words of
:mod:`ygo_fsm.card_enums`; also a card file's JSON Schema and the short "what it responds to"
line of ``ygo-fsm cards``.

>>> EffectSpec(kind=EffectKind.quick_play_spell).spell_speed
2
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from .card_enums import (
    SPELL_KINDS,
    SPELL_SPEED,
    TRAP_KINDS,
    CardType,
    Cause,
    Duration,
    EffectKind,
    Event,
    Face,
    Location,
    Op,
    Origin,
    Phase,
    Subject,
    Target,
    Timing,
)
from .grants import Grant

# Kinds as module constants: the engine asks these of effects many times a transition, and under
# Python 3.11 reading an enum member from its class costs several times a global.
_NO_CHAIN_LINK = (EffectKind.continuous, EffectKind.processing)
_TRIGGER_LIKE = (EffectKind.trigger, EffectKind.flip)


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
    battled_this_turn: bool = False
    """This card battled this turn: damage calculation was performed with it, as the attacker or
    the attack target (:func:`ygo_fsm.battle.calculate`; "battled" needs damage calculation, "attacked"
    only the declaration: Konami Damage Step rules)."""
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


class TargetCount(_Model):
    """How many cards an effect targets (「～を２枚まで対象として」, 「～２枚を対象として」): all chosen on
    activation (Yugipedia "Target"; :mod:`ygo_fsm.multi_target`)."""

    exactly: int | None = Field(default=None, ge=1, le=5)
    """Exactly N targets: it cannot be activated without N that fit."""
    up_to: int | None = Field(default=None, ge=1, le=5)
    """1 to N targets."""
    all_needed: bool = False
    """「そのカード２枚を」: it does nothing unless every target is still a legal target; without
    it (「そのカードを」) it applies to the targets still legal."""

    @model_validator(mode="after")
    def _one_count(self) -> TargetCount:
        if (self.exactly is None) == (self.up_to is None):
            raise ValueError("give one of exactly: N or up_to: N")
        return self

    @property
    def most(self) -> int:
        return self.exactly or self.up_to or 1


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
    face: Face = Face.any
    """How the event's card was when it happened (face-up / face-down)."""
    phase: Phase | None = None
    """A phase effect: activated or processed in this phase, once."""
    conditions: Conditions = Conditions()
    """Conditions of its activation (table *Conditions*)."""
    cost: Cost = Cost()
    """What it costs, paid on activation (table *Costs*)."""
    target: Target = Target.none
    """What it chooses on activation (table *Targets*)."""
    target_count: TargetCount | None = None
    """Several targets of that kind: ``{exactly: N}`` or ``{up_to: N}`` (one when not given)."""
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
        return self.kind not in _NO_CHAIN_LINK

    @property
    def is_trigger_like(self) -> bool:
        """Trigger and flip effects: they go on the chain in the priority-list tiers."""
        return self.kind in _TRIGGER_LIKE


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
                (("subject", effect.subject), ("cause", effect.cause), ("origin", effect.origin),
                 ("face", effect.face))
                if value.value != "any"]
    return ", ".join(e.value for e in effect.events) + (f" ({'; '.join(narrowed)})" if narrowed else "")
