"""Game data the guards read: players, monsters, rule profiles, turn effects, and the setup.

Closed vocabularies are enums whose values are the ids used in YAML scenario files.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

PLAYERS: tuple[str, str] = ("A", "B")
"""Player ids. ``A`` and ``B``; either may be the turn player."""


def other_player(player: str) -> str:
    """The other player's id."""
    return "B" if player == "A" else "A"


class Profile(str, Enum):
    """Rule profile: which era's rules a duel follows (DESIGN.md "Rule profiles")."""

    modern = "modern"
    """004: the first player neither draws nor conducts a Battle Phase on turn 1."""
    ocg2008 = "ocg2008"
    """000/001/002/003: the first player draws and may enter the Battle Phase on turn 1, but
    cannot attack."""


@dataclass(frozen=True)
class ProfileRules:
    """What a profile decides, each with the clause it comes from."""

    first_turn_draw: bool
    first_turn_battle_phase: bool
    first_turn_attacks: bool
    replay_may_stop_attack: bool
    citation: str


PROFILE_RULES: dict[Profile, ProfileRules] = {
    Profile.modern: ProfileRules(
        first_turn_draw=False,
        first_turn_battle_phase=False,
        first_turn_attacks=False,
        replay_may_stop_attack=True,
        citation="004 ●先攻第1回合游戏玩家的抽卡階段不能通常抽卡; ●先攻第1回合游戏玩家不能进行战斗阶段; "
                 "●重新选择攻击对象时可以不选择任何怪兽而停止攻击",
    ),
    Profile.ocg2008: ProfileRules(
        first_turn_draw=True,
        first_turn_battle_phase=True,
        first_turn_attacks=False,
        replay_may_stop_attack=False,
        citation="002 【※下一个阶段的选择】◇先攻的第一回合战斗阶段攻击不可。（进入战斗阶段可能）",
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


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid")


class Monster(_Model):
    """A monster on the field."""

    name: str = Field(min_length=1)
    atk: int = Field(default=0, ge=0)
    defence: int = Field(default=0, ge=0, alias="def")
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
    """How actions and expectations name this copy (default: the card id, ``_2`` … for repeats)."""
    face_up: bool | None = None
    """Default: face-up for monsters, Set (face-down) for spells and traps in the spell/trap zone."""
    position: Position = Position.attack
    set_turn: int | None = Field(default=None, ge=0)
    """The turn a Set card was Set (default: before the starting turn)."""
    destroyed_this_turn: bool = False


class PlayerSetup(_Model):
    """One player's starting counts and cards. ``hand``, ``deck`` and ``graveyard`` count the
    cards no action names; named cards go in ``cards``."""

    lp: int = Field(default=8000, ge=1)
    hand: int = Field(default=5, ge=0)
    deck: int = Field(default=35, ge=0)
    graveyard: int = Field(default=0, ge=0)
    monsters: list[Monster] = Field(default_factory=list, max_length=5)
    cards: list[CardPlacement] = Field(default_factory=list)
    hand_limit: HandLimitEffect | None = None


class Setup(_Model):
    """Where a duel starts: profile, turn, turn player, phase, and each player's state."""

    profile: Profile = Profile.modern
    turn: int = Field(default=1, ge=1)
    turn_player: str = "A"
    phase: str = "turn_start"
    """A state of the ``turn`` machine (``turn_start``, ``draw_phase``, ``main_phase_1`` …)."""
    players: dict[str, PlayerSetup] = Field(default_factory=dict)
    effects: list[TurnEffect] = Field(default_factory=list)
    """Turn effects applying to the starting turn."""
    effects_on_turn: dict[int, list[TurnEffect]] = Field(default_factory=dict)
    """Turn effects applying to later turns, by turn number."""

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
    ``uid``, else its card id, with ``_2``, ``_3`` … for later copies. Raises ``ValueError`` for
    a uid given twice."""
    taken = {monster_uid(p, i) for p in PLAYERS for i in range(len(setup.players[p].monsters))}
    uids: dict[tuple[str, int], str] = {}
    for player in PLAYERS:
        for index, placement in enumerate(setup.players[player].cards):
            uid = placement.uid or placement.card
            number = 2
            while uid in taken and placement.uid is None:
                uid, number = f"{placement.card}_{number}", number + 1
            if uid in taken:
                raise ValueError(f"players.{player}.cards[{index}]: duplicate uid {uid!r}")
            taken.add(uid)
            uids[(player, index)] = uid
    return uids
