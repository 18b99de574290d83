"""Game data the guards read: players, monsters, rule profiles, turn effects, and the setup.

Closed vocabularies are enums whose values are the ids used in YAML scenario files.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import Annotated

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

PLAYERS: tuple[str, str] = ("A", "B")
"""Player ids. ``A`` and ``B``; either may be the turn player."""


def other_player(player: str) -> str:
    """The other player's id."""
    return "B" if player == "A" else "A"


class Profile(str, Enum):
    """Rule profile: which era's rules a duel follows (DESIGN.md "Rule profiles")."""

    modern = "modern"
    """004 and, where 004 is silent, the current official rules (PR17, Rulebook v10, the Fast
    Effect Timing chart): e.g. the first player neither draws nor conducts a Battle Phase on
    turn 1."""
    ocg2008 = "ocg2008"
    """000/001/002/003 literally, worked examples included: e.g. the first player draws and may
    enter the Battle Phase on turn 1, but cannot attack."""


@dataclass(frozen=True)
class ProfileRules:
    """What a profile decides, each with the clause it comes from."""

    first_turn_draw: bool
    first_turn_battle_phase: bool
    first_turn_attacks: bool
    replay_may_stop_attack: bool
    durations_end_by_themselves: bool
    """『直到战斗阶段结束时』 / 『直到回合游戏结束时』 effects end at the point the rule names, nobody
    choosing to end them (modern: 004); otherwise their controller ends them in the open game state
    of that phase (ocg2008: 000 ●バトルフェイズ【４】, ●エンドフェイズ【２】)."""
    citation: str


PROFILE_RULES: dict[Profile, ProfileRules] = {
    Profile.modern: ProfileRules(
        first_turn_draw=False,
        first_turn_battle_phase=False,
        first_turn_attacks=False,
        replay_may_stop_attack=True,
        durations_end_by_themselves=True,
        citation="004 ●先攻第1回合游戏玩家的抽卡階段不能通常抽卡; ●先攻第1回合游戏玩家不能进行战斗阶段; "
                 "●重新选择攻击对象时可以不选择任何怪兽而停止攻击; "
                 "●『直到战斗阶段结束时』…直到双方玩家互相放弃发动卡的优先权且全部的卡的处理终了时适用; "
                 "●记载了『直到回合游戏结束时』的效果…手卡调整结束全部的卡的处理终了时为止适用",
    ),
    Profile.ocg2008: ProfileRules(
        first_turn_draw=True,
        first_turn_battle_phase=True,
        first_turn_attacks=False,
        replay_may_stop_attack=False,
        durations_end_by_themselves=False,
        citation="002 【※下一个阶段的选择】◇先攻的第一回合战斗阶段攻击不可。（进入战斗阶段可能）; "
                 "000 ●バトルフェイズ【４】·『战斗流程结束为止～』的效果结束; "
                 "●エンドフェイズ【２】·『回合结束为止～』的效果结束（不进入连锁）",
    ),
}


class TurnEffect(str, Enum):
    """Effects that change a turn's flow, modelled as flags on the turn they apply to.

    Each value names what happens; the cards the seeds give for it are in :data:`TURN_EFFECT_CARDS`.
    """

    skip_turn = "skip_turn"
    skip_draw_phase = "skip_draw_phase"
    draw_replaced = "draw_replaced"
    skip_standby_phase = "skip_standby_phase"
    skip_main_phase_1 = "skip_main_phase_1"
    skip_battle_phase = "skip_battle_phase"
    cannot_enter_battle_phase = "cannot_enter_battle_phase"
    cannot_attack = "cannot_attack"
    opponent_chooses_attack_target = "opponent_chooses_attack_target"
    battle_phase_ended = "battle_phase_ended"


TURN_EFFECT_CARDS: dict[TurnEffect, str] = {
    TurnEffect.skip_turn: "002 ●回合开始 「ギャンブル」",
    TurnEffect.skip_draw_phase: "000 ●ドローフェイズ【１】 「死者への供物」「八汰烏」「刻の封印」「無謀な欲張り」",
    TurnEffect.draw_replaced: "000 ●ドローフェイズ【情况Ｂ】 「無敗将軍フリード」「マジックブラスト」「罰ゲーム」",
    TurnEffect.skip_standby_phase: "000 ●スタンバイフェイズ【１】 「ソロモンの律法書」",
    TurnEffect.skip_main_phase_1: "000 ●メインフェイズ１【１】 「タイム・イーター」",
    TurnEffect.skip_battle_phase: "002 【※下一个阶段的选择】 「偉大天狗」",
    TurnEffect.cannot_enter_battle_phase: "002 【※下一个阶段的选择】 「クロス・ソウル」「魔霧雨」",
    TurnEffect.cannot_attack: "000 ●バトルフェイズ【１】 「光の護封剣」",
    TurnEffect.opponent_chooses_attack_target: "000 【怪兽的攻击宣言…】２ 对方「ノーブル・ド・ノワール」",
    TurnEffect.battle_phase_ended: "004 ●『战斗阶段结束』的效果处理的场合，直接进入结束步骤",
}


class HandLimitEffect(str, Enum):
    """Effects that change a player's hand size limit (000 ●エンドフェイズ【３】)."""

    hieroglyph_tablet = "hieroglyph_tablet"
    """「ヒエログリフの石版」: the limit is 7."""
    mist_of_weakness = "mist_of_weakness"
    """「衰弱の霧」: the limit is 5."""
    infinite_cards = "infinite_cards"
    """「無限の手札」: no limit, no discarding."""


DEFAULT_HAND_LIMIT = 6
HAND_LIMITS: dict[HandLimitEffect | None, int | None] = {
    None: DEFAULT_HAND_LIMIT,
    HandLimitEffect.hieroglyph_tablet: 7,
    HandLimitEffect.mist_of_weakness: 5,
    HandLimitEffect.infinite_cards: None,
}


class Position(str, Enum):
    """Battle position of a monster."""

    attack = "attack"
    defence = "defence"


MAX_LP = 1_000_000
"""The most LP a setup may give a player (a duel starts at 8000)."""
MAX_CARDS = 100
"""The most cards a setup may count in one player's hand, deck or graveyard (a player owns at
most 90: a Main Deck of 60, an Extra Deck and a Side Deck of 15 each)."""
MAX_NAMED_CARDS = 60
"""The most library cards a setup may place for one player with ``cards`` (a Main Deck's most;
a ``deck_list`` holds its own 40–60). The options a player is offered grow with them at most
linearly: at the hand-size adjustment the cards to discard are chosen one at a time
(000 ●エンドフェイズ【３】)."""
MAX_TURN = 1000
"""The highest turn number a setup may name (starting turn, ``set_turn``, ``effects_on_turn``)."""
MAX_STAT = 1_000_000
"""The highest ATK or DEF a setup may give a monster."""
MAX_TURN_EFFECTS = 20
"""The most turn effects a setup may list for one turn."""


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid")


class Monster(_Model):
    """A monster on the field."""

    name: str = Field(min_length=1)
    atk: int = Field(default=0, ge=0, le=MAX_STAT)
    defence: int = Field(default=0, ge=0, le=MAX_STAT, alias="def")
    level: int = Field(default=4, ge=0, le=12)
    position: Position = Position.attack
    face_up: bool = True

    model_config = ConfigDict(extra="forbid", populate_by_name=True)

    @model_validator(mode="after")
    def _face_down_is_defence(self) -> Monster:
        if not self.face_up and self.position is Position.attack:
            raise ValueError("a face-down monster is in Defense Position (002 ●主要阶段1 不可以变为里侧表示…)")
        return self


class Zone(str, Enum):
    """Where a card is."""

    hand = "hand"
    monster = "monster"
    spell_trap = "spell_trap"
    graveyard = "graveyard"
    deck = "deck"
    banished = "banished"
    lingering = "lingering"
    """Not a zone of the rules: a resolved card whose effect still applies (「ラストバトル！」)."""
    field_zone = "field_zone"
    """The Field Zone: a player's one zone for a Field Spell Card, apart from the five Spell &
    Trap Zones (Konami OCG Perfect Rulebook 2017, the game mat; Yugipedia "Field Zone")."""


FIELD_ZONES = (Zone.monster, Zone.spell_trap, Zone.field_zone)
"""The zones that make up a player's field (cards there are "on the field")."""


class CardPlacement(_Model):
    """A library card placed in a zone at the start of a scenario."""

    card: str = Field(min_length=1)
    """The card's id in the card library (``ygo_fsm/data/cards.yaml``)."""
    zone: Zone = Zone.hand
    uid: str | None = Field(default=None, pattern=r"^[a-z][a-z0-9_]*$")
    """How actions and expectations name this copy. Default: its starting place
    (``b_spell_trap_1``, :func:`placement_uids`); scenario files default to the card id
    (``_2`` … for repeats, :func:`card_id_uids`)."""
    face_up: bool | None = None
    """Default: face-up for monsters, Set (face-down) for spells and traps in the spell/trap zone."""
    position: Position = Position.attack
    set_turn: int | None = Field(default=None, ge=0, le=MAX_TURN)
    """The turn a Set card was Set (default: before the starting turn)."""
    destroyed_this_turn: bool = False
    equipped_to: str = ""
    """For a face-up Equip Spell in the spell/trap zone: the uid of the face-up monster on the field
    it is equipped to (an Equip Spell equipped to nothing is destroyed at once: Yugipedia "Equip Card")."""


DECK_MIN, DECK_MAX = 40, 60
"""A Main Deck holds 40 to 60 cards (Konami, Yu-Gi-Oh! TRADING CARD GAME Official Rulebook v10, "Deck")."""
OPENING_HAND = 5
"""Each player shuffles the deck and draws 5 cards to start the duel (Official Rulebook v10,
"Starting the Duel")."""
DEFAULT_UNNAMED_HAND, DEFAULT_UNNAMED_DECK = 5, 35
"""The unnamed cards a setup that names no card in that zone gives a player."""


class PlayerSetup(_Model):
    """One player's starting counts and cards. ``hand``, ``deck`` and ``graveyard`` count the
    cards no action names; named cards go in ``cards``, or the whole deck in ``deck_list``.

    When ``hand`` (or ``deck``) is not given, it is 5 (35) unnamed cards — unless the setup names
    cards in that zone (in ``cards``, or a ``deck_list``), and then it is 0: named cards never
    silently add to a default count. A count that is given always adds that many unnamed cards.
    Every count is bounded (:data:`MAX_LP`, :data:`MAX_CARDS`, :data:`MAX_NAMED_CARDS`) so that no
    setup makes the engine loop or allocate without limit.
    """

    lp: int = Field(default=8000, ge=1, le=MAX_LP)
    hand: int | None = Field(default=None, ge=0, le=MAX_CARDS)
    deck: int | None = Field(default=None, ge=0, le=MAX_CARDS)
    graveyard: int = Field(default=0, ge=0, le=MAX_CARDS)
    monsters: list[Monster] = Field(default_factory=list, max_length=5)
    cards: list[CardPlacement] = Field(default_factory=list, max_length=MAX_NAMED_CARDS)
    hand_limit: HandLimitEffect | None = None
    deck_list: list[str] = Field(default_factory=list)
    """The deck as card ids of the library (40–60): shuffled by the duel's random number
    generator at the start, the top 5 cards drawn as the opening hand."""

    @field_validator("deck_list")
    @classmethod
    def _deck_size(cls, value: list[str]) -> list[str]:
        if value and not DECK_MIN <= len(value) <= DECK_MAX:
            raise ValueError(f"a deck holds {DECK_MIN} to {DECK_MAX} cards, not {len(value)} "
                             "(Official Rulebook v10, \"Deck\")")
        return value

    def _names(self, zone: Zone) -> bool:
        return bool(self.deck_list) or any(placement.zone is zone for placement in self.cards)

    @property
    def unnamed_hand(self) -> int:
        """The unnamed cards in the starting hand (see the class docstring)."""
        if self.hand is not None:
            return self.hand
        return 0 if self._names(Zone.hand) else DEFAULT_UNNAMED_HAND

    @property
    def unnamed_deck(self) -> int:
        """The unnamed cards in the starting deck (see the class docstring)."""
        if self.deck is not None:
            return self.deck
        return 0 if self._names(Zone.deck) else DEFAULT_UNNAMED_DECK


class Setup(_Model):
    """Where a duel starts: profile, turn, turn player, phase, and each player's state."""

    profile: Profile = Profile.modern
    turn: int = Field(default=1, ge=1, le=MAX_TURN)
    turn_player: str = "A"
    phase: str = "turn_start"
    """A state of the ``turn`` machine (``turn_start``, ``draw_phase``, ``main_phase_1`` …)."""
    players: dict[str, PlayerSetup] = Field(default_factory=dict)
    effects: list[TurnEffect] = Field(default_factory=list, max_length=MAX_TURN_EFFECTS)
    """Turn effects applying to the starting turn."""
    effects_on_turn: dict[
        Annotated[int, Field(ge=1, le=MAX_TURN)], Annotated[list[TurnEffect], Field(max_length=MAX_TURN_EFFECTS)]
    ] = Field(default_factory=dict)
    """Turn effects applying to later turns, by turn number."""
    seed: int | None = Field(default=None, ge=0, lt=2**64)
    """Seeds the duel's random number generator, which shuffles the decks (``deck_list``) and
    stays part of the game state."""

    @classmethod
    def from_decks(cls, deck_a: list[str], deck_b: list[str], *, seed: int,
                   profile: Profile | str = Profile.modern, **fields: object) -> Setup:
        """A duel from two decks (card ids, 40–60 each) and a seed: each deck shuffled by the
        duel's generator, an opening hand of 5 each, 8000 LP, turn 1 at its start (``fields``
        may set any other :class:`Setup` field, e.g. ``turn_player``).

        >>> deck = ["sage_chiron"] * 40
        >>> setup = Setup.from_decks(deck, deck, seed=1)
        >>> setup.players["A"].unnamed_hand, setup.players["A"].unnamed_deck
        (0, 0)
        """
        players = {"A": {"deck_list": list(deck_a)}, "B": {"deck_list": list(deck_b)}}
        return cls.model_validate({"profile": profile, "seed": seed, "players": players, **fields})

    @field_validator("turn_player")
    @classmethod
    def _known_player(cls, value: str) -> str:
        if value not in PLAYERS:
            raise ValueError(f"unknown player {value!r}; players are A and B")
        return value

    @model_validator(mode="after")
    def _phase_exists_this_turn(self) -> Setup:
        if (self.phase == "battle_phase" and self.turn == 1
                and not PROFILE_RULES[self.profile].first_turn_battle_phase):
            raise ValueError("the first turn has no Battle Phase under this profile "
                             "(004 ●先攻第1回合游戏玩家不能进行战斗阶段)")
        return self

    @model_validator(mode="after")
    def _complete_players(self) -> Setup:
        unknown = sorted(set(self.players) - set(PLAYERS))
        if unknown:
            raise ValueError(f"unknown player(s) {', '.join(unknown)}; players are A and B")
        for player in PLAYERS:
            self.players.setdefault(player, PlayerSetup())
        if self.seed is None and any(p.deck_list for p in self.players.values()):
            raise ValueError("a deck_list is shuffled by the duel's random number generator: give a seed")
        return self


MONSTER_ZONES = 5
"""Monster card zones per player (002 ●主要阶段1; 000)."""
SPELL_TRAP_ZONES = 5
"""Spell and trap card zones per player (002 ●主要阶段1 ※魔法、陷阱最多只能放在5个魔法陷阱区域里)."""


FIELD_ZONE_CAPACITY = 1
"""One Field Zone per player (Yugipedia "Field Zone": each player has one Field Zone)."""


def monster_uid(player: str, index: int) -> str:
    """The uid of a monster given in ``players.<player>.monsters`` (by its place, from 1)."""
    return f"{player.lower()}_monster_{index + 1}"


def placement_uids(setup: Setup) -> dict[tuple[str, int], str]:
    """The uid of each library card placed by ``setup``, by (player, index in ``cards``): its
    ``uid``, else its starting place — ``{owner}_{zone}_{n}``, the n-th card of that player's
    zone in the setup (``b_spell_trap_1``, ``a_hand_2``; the monster zone counts the
    ``monsters`` first, as :func:`monster_uid` names them). A default uid names where the card
    began, never which card it is, so it tells a player nothing about a hidden card. Raises
    ``ValueError`` for a uid given twice."""
    taken = {monster_uid(p, i) for p in PLAYERS for i in range(len(setup.players[p].monsters))}
    uids: dict[tuple[str, int], str] = {}
    for player in PLAYERS:
        for index, placement in enumerate(setup.players[player].cards):
            if placement.uid is None:
                continue
            if placement.uid in taken:
                raise ValueError(f"players.{player}.cards[{index}]: duplicate uid {placement.uid!r}")
            taken.add(placement.uid)
            uids[(player, index)] = placement.uid
    for player in PLAYERS:
        counts = {Zone.monster: len(setup.players[player].monsters)}
        for index, placement in enumerate(setup.players[player].cards):
            number = counts[placement.zone] = counts.get(placement.zone, 0) + 1
            if placement.uid is not None:
                continue
            uid = f"{player.lower()}_{placement.zone.value}_{number}"
            while uid in taken:
                number += 1
                uid = f"{player.lower()}_{placement.zone.value}_{number}"
            counts[placement.zone] = number
            taken.add(uid)
            uids[(player, index)] = uid
    return dict(sorted(uids.items()))


def card_id_uids(setup: Setup) -> Setup:
    """``setup`` with every placement that has no ``uid`` named by its card id (``_2``, ``_3``
    … for later copies): how scenario files name the cards they give no uid. A uid given
    elsewhere in the setup keeps its card."""
    taken = {monster_uid(p, i) for p in PLAYERS for i in range(len(setup.players[p].monsters))}
    taken |= {c.uid for p in PLAYERS for c in setup.players[p].cards if c.uid is not None}
    players: dict[str, PlayerSetup] = {}
    for player in PLAYERS:
        cards = []
        for placement in setup.players[player].cards:
            if placement.uid is None:
                uid, number = placement.card, 2
                while uid in taken:
                    uid, number = f"{placement.card}_{number}", number + 1
                taken.add(uid)
                placement = placement.model_copy(update={"uid": uid})
            cards.append(placement)
        players[player] = setup.players[player].model_copy(update={"cards": cards})
    return setup.model_copy(update={"players": players})
