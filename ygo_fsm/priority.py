"""Who must act: the player named by the innermost state that declares a ``priority:`` role.

The roles (``ygo_fsm.spec.Role``): the turn player, the opponent, the *responder* (the player
who did not add the newest chain link), the *last activator* (who did), and the *trigger
player* (whose simultaneous triggers are being put on the chain, 000 ※…发动时点的出现条件).
"""

from __future__ import annotations

from .chain import current_tier
from .game import PLAYERS, other_player
from .spec import Role
from .state import _UNSET, GameState

# The roles as module constants: under Python 3.11 reading an enum member from its class goes
# through ``EnumType.__getattr__``'s hook, several times the cost of a global, and who must act is
# asked after every transition.
_TURN_PLAYER, _OPPONENT, _RESPONDER = Role.turn_player, Role.opponent, Role.responder
_LAST_ACTIVATOR, _TRIGGER_PLAYER = Role.last_activator, Role.trigger_player
_OTHER = {player: other_player(player) for player in PLAYERS}
"""Each player's opponent (:func:`~ygo_fsm.game.other_player`, looked up: who must act is asked often)."""


def holder(game: GameState) -> str | None:
    """The player who must act now (holds priority or must choose), or ``None`` (cached until
    :meth:`GameState.forget <ygo_fsm.state.GameState.forget>`)."""
    cached = game.priority_cache
    if cached is _UNSET:
        found = game.priority_cache = find_holder(game)
        return found
    return cached  # type: ignore[return-value]  # only find_holder's results are cached


def acting(game: GameState) -> str:
    """The player taking the action being applied, else the one who must act, else the turn player."""
    return game.actor or holder(game) or game.turn_player


def find_holder(game: GameState) -> str | None:
    """The player who must act now, found again (what :func:`holder` caches): the player the
    innermost state's ``priority:`` role names."""
    frames = game.frames
    if game.is_over or not frames:
        return None
    # the innermost frame's state: every state further out runs a machine, and a state running a
    # machine declares no role (ygo_fsm.loader.check_machine), so none further out names anyone
    frame = frames[-1]
    at = frame.at
    role = at.role if at is not None else game.state_specs[(frame.machine, frame.state)].priority
    if role is None:
        return None
    if role is _TRIGGER_PLAYER:
        tier = current_tier(game)
        return tier.player if tier is not None else None
    chain = game.chain
    return seat_holder(role, game.turn_player, chain[-1].controller if chain else None)


def seat_holder(role: Role, turn_player: str, newest_link_controller: str | None) -> str:
    """The player a role other than the trigger player's names, from the turn player and the
    controller of the newest chain link (``None`` with no chain): all that those roles read."""
    if role is _TURN_PLAYER:
        return turn_player
    if role is _OPPONENT:
        return _OTHER[turn_player]
    if role is _RESPONDER:
        return _OTHER[newest_link_controller or turn_player]
    if role is _LAST_ACTIVATOR:
        return newest_link_controller or turn_player
    raise ValueError(f"{role.value} names the player of the triggers being placed, not one read from the seats")
