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
    citation: str


PROFILE_RULES: dict[Profile, ProfileRules] = {
    Profile.modern: ProfileRules(
        first_turn_draw=False,
        first_turn_battle_phase=False,
        first_turn_attacks=False,
        citation="004 ●先攻第1回合游戏玩家的抽卡階段不能通常抽卡; ●先攻第1回合游戏玩家不能进行战斗阶段",
    ),
    Profile.ocg2008: ProfileRules(
        first_turn_draw=True,
        first_turn_battle_phase=True,
        first_turn_attacks=False,
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


TURN_EFFECT_CARDS: dict[TurnEffect, str] = {
    TurnEffect.skip_turn: "002 ●回合开始 「ギャンブル」",
    TurnEffect.skip_draw_phase: "000 ●ドローフェイズ【１】 「死者への供物」「八汰烏」「刻の封印」「無謀な欲張り」",
    TurnEffect.draw_replaced: "000 ●ドローフェイズ【情况Ｂ】 「無敗将軍フリード」「マジックブラスト」「罰ゲーム」",
    TurnEffect.skip_standby_phase: "000 ●スタンバイフェイズ【１】 「ソロモンの律法書」",
    TurnEffect.skip_main_phase_1: "000 ●メインフェイズ１【１】 「タイム・イーター」",
    TurnEffect.skip_battle_phase: "002 【※下一个阶段的选择】 「偉大天狗」",
    TurnEffect.cannot_enter_battle_phase: "002 【※下一个阶段的选择】 「クロス・ソウル」「魔霧雨」",
    TurnEffect.cannot_attack: "000 ●バトルフェイズ【１】 「光の護封剣」",
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

    @property
    def can_declare_attack(self) -> bool:
        """A face-up Attack Position monster can be chosen to attack (002 ●战斗阶段 1.)."""
        return self.face_up and self.position is Position.attack


class PlayerSetup(_Model):
    """One player's starting counts and cards."""

    lp: int = Field(default=8000, ge=0)
    hand: int = Field(default=5, ge=0)
    deck: int = Field(default=35, ge=0)
    monsters: list[Monster] = Field(default_factory=list, max_length=5)
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
    def _complete_players(self) -> Setup:
        unknown = sorted(set(self.players) - set(PLAYERS))
        if unknown:
            raise ValueError(f"unknown player(s) {', '.join(unknown)}; players are A and B")
        for player in PLAYERS:
            self.players.setdefault(player, PlayerSetup())
        return self


class PlayerState:
    """A player's mutable state during a duel."""

    __slots__ = ("lp", "hand", "deck", "graveyard", "monsters", "hand_limit")

    def __init__(self, setup: PlayerSetup) -> None:
        self.lp = setup.lp
        self.hand = setup.hand
        self.deck = setup.deck
        self.graveyard = 0
        self.monsters = [monster.model_copy() for monster in setup.monsters]
        self.hand_limit = setup.hand_limit

    def copy(self) -> PlayerState:
        clone = PlayerState.__new__(PlayerState)
        clone.lp, clone.hand, clone.deck = self.lp, self.hand, self.deck
        clone.graveyard, clone.hand_limit = self.graveyard, self.hand_limit
        clone.monsters = [monster.model_copy() for monster in self.monsters]
        return clone

    @property
    def hand_size_limit(self) -> int | None:
        """The hand size limit now in force (``None`` for no limit)."""
        return HAND_LIMITS[self.hand_limit]
