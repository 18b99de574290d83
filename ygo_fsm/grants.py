"""What a continuous effect gives monsters while it applies (``grants:`` of an effect): ATK/DEF
changes, piercing battle damage, "cannot be destroyed by battle", and halved battle damage.

A continuous effect applies, without being activated, for as long as its card is face-up on the
field (PR17, continuous effects): an Equip Spell's to the monster it is equipped to (Yugipedia
"Equip Spell Card": its effect applies to that monster as long as it is equipped), a Field
Spell's or a Continuous Spell/Trap's to every monster it names — monsters that arrive later
included, none once the card has left the field (Yugipedia "Field Spell Card": most Field Spells
change the ATK/DEF of monsters of a Type). The values are computed from the effects in force
whenever they are read (:mod:`ygo_fsm.continuous`), never stored on the monster.

This module is a declaration (the card files' vocabulary); it depends on nothing.

>>> Grant.model_validate({"monsters": "all", "races": ["warrior"], "atk": 200, "def": 200}).defence
200
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field


class Grant(BaseModel):
    """What a continuous effect gives the monsters it applies to, while it applies."""

    monsters: Literal["self", "equipped", "all", "own", "opponent"] = "self"
    """Which monsters: ``self`` (this monster), ``equipped`` (the monster this Equip Card is
    equipped to), ``all`` (every face-up monster on the field), ``own`` / ``opponent`` (the face-up
    monsters the effect's controller / their opponent controls)."""
    races: tuple[str, ...] = ()
    """…only monsters of one of these races (``[dragon, winged_beast]``), when given."""
    atk: int = 0
    """ATK gained (negative: lost); the ATK never goes below 0."""
    defence: int = Field(default=0, alias="def")
    """DEF gained (negative: lost); the DEF never goes below 0."""
    piercing: bool = False
    """Attacking a Defense Position monster whose DEF is lower than its ATK, it inflicts the
    difference as battle damage (Yugipedia "Piercing")."""
    battle_indestructible: bool = False
    """It cannot be destroyed by battle (damage calculation and battle damage still happen)."""
    halves_battle_damage: bool = False
    """Battle damage from the battles it is in is halved (an odd amount rounded down) — after "no
    battle damage", which makes it 0 (Yugipedia "Battle damage": interactions with effects)."""

    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=True)
