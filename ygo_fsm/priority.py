"""Who must act: the player named by the innermost state that declares a ``priority:`` role.

The roles (``ygo_fsm.spec.Role``): the turn player, the opponent, the *responder* (the player
who did not add the newest chain link), the *last activator* (who did), and the *trigger
player* (whose simultaneous triggers are being put on the chain, 000 ※…发动时点的出现条件).
"""

from __future__ import annotations

from typing import cast

from .chain import current_tier
from .game import other_player
from .spec import Role
from .state import _UNSET, GameState


def holder(game: GameState) -> str | None:
    """The player who must act now (holds priority or must choose), or ``None`` (cached until
    :meth:`GameState.forget <ygo_fsm.state.GameState.forget>`)."""
    cached = game.priority_cache
    if cached is _UNSET:
        found = game.priority_cache = _find(game)
        return found
    return cast("str | None", cached)  # only _find's results are cached


def acting(game: GameState) -> str:
    """The player taking the action being applied, else the one who must act, else the turn player."""
    return game.actor or holder(game) or game.turn_player


def _find(game: GameState) -> str | None:
    frames = game.frames
    if game.is_over or not frames:
        return None
    # the innermost frame's state: every state further out runs a machine, and a state running a
    # machine declares no role (ygo_fsm.loader.check_machine), so none further out names anyone
    frame = frames[-1]
    at = frame.at
    role = at.role if at is not None else game.state_specs[(frame.machine, frame.state)].priority
    return role_holder(game, role) if role is not None else None


def role_holder(game: GameState, role: Role) -> str | None:
    """The player a ``priority:`` role names now."""
    if role is Role.turn_player:
        return game.turn_player
    if role is Role.opponent:
        return game.opponent
    if role is Role.responder:
        return other_player(game.chain[-1].controller) if game.chain else game.opponent
    if role is Role.last_activator:
        return game.chain[-1].controller if game.chain else game.turn_player
    tier = current_tier(game)
    return tier.player if tier is not None else None
