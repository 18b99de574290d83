"""An OpenSpiel Python game over the integer action space (the ``openspiel`` extra).

Importing this module registers ``python_ygo_fsm``: ``pyspiel.load_game("python_ygo_fsm",
{"seed": 3})``. Players 0 and 1 are the duel's A and B; the player to move is the one who must
act (auto-pass on, so only real choices are asked); actions are :mod:`ygo_fsm.actions` indices;
the returns are +1 / −1 (0 for a draw) at the end. Both decks are :data:`ygo_fsm.env.DEFAULT_DECK`,
shuffled with the ``seed`` parameter, so the game is deterministic given its parameters. The
information state is :func:`ygo_fsm.env.information_state_string` (and, as a tensor,
:func:`ygo_fsm.env.observation_vector`): only what that player may know.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pyspiel

from .actions import NUM_DISTINCT_ACTIONS, ActionEncodingError, decode
from .duel import Duel
from .env import DEFAULT_DECK, OBSERVATION_SIZE, information_state_string, observation_vector
from .game import PLAYERS

__all__ = ["GAME_TYPE", "YgoGame", "YgoState"]

MAX_GAME_LENGTH = 100_000
"""An upper bound on the decisions of one duel (a deck-out ends every duel long before)."""

GAME_TYPE = pyspiel.GameType(
    short_name="python_ygo_fsm",
    long_name="ygo-fsm duel (Python)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.DETERMINISTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=2,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification={"seed": 0},
)
_GAME_INFO = pyspiel.GameInfo(
    num_distinct_actions=NUM_DISTINCT_ACTIONS,
    max_chance_outcomes=0,
    num_players=2,
    min_utility=-1.0,
    max_utility=1.0,
    utility_sum=0.0,
    max_game_length=MAX_GAME_LENGTH,
)


class YgoGame(pyspiel.Game):  # type: ignore[misc]  # pyspiel ships no type information
    """The game: a duel from :data:`~ygo_fsm.env.DEFAULT_DECK` for both players, seeded by ``seed``."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        super().__init__(GAME_TYPE, _GAME_INFO, params or {})
        self.seed = int(self.get_parameters()["seed"])

    def new_initial_state(self) -> YgoState:
        # no trace: search clones states constantly, and a state's history replays its trace
        return YgoState(self, Duel.new_game(list(DEFAULT_DECK), list(DEFAULT_DECK), seed=self.seed, auto_pass=True,
                                            trace=False))

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> DuelObserver:
        if params:
            raise ValueError(f"observation parameters are not supported: {params}")
        return DuelObserver()


class YgoState(pyspiel.State):  # type: ignore[misc]
    """One point of the duel."""

    def __init__(self, game: YgoGame, duel: Duel) -> None:
        super().__init__(game)
        self._held = _Held(duel)

    @property
    def duel(self) -> Duel:
        return self._held.duel

    def current_player(self) -> int:
        if self.duel.is_over:
            return int(pyspiel.PlayerId.TERMINAL)
        return PLAYERS.index(self.duel.priority or self.duel.turn_player)

    def _legal_actions(self, player: int) -> list[int]:
        if self.duel.is_over or PLAYERS[player] != self.duel.priority:
            return []
        return sorted(self.duel.legal_action_indices())

    def _apply_action(self, action: int) -> None:
        self.duel.apply_index(int(action))

    def _action_to_string(self, player: int, action: int) -> str:
        try:
            name, choice = decode(self.duel.game, PLAYERS[player], int(action))
        except ActionEncodingError:
            return f"#{action}"
        return f"{PLAYERS[player]}: {name} {choice}" if choice else f"{PLAYERS[player]}: {name}"

    def is_terminal(self) -> bool:
        return self.duel.is_over

    def returns(self) -> list[float]:
        winner = self.duel.winner
        if not self.duel.is_over or winner is None:
            return [0.0, 0.0]
        return [1.0 if player == winner else -1.0 for player in PLAYERS]

    def __str__(self) -> str:
        return repr(self.duel)


class _Held:
    """The state's duel: OpenSpiel clones a Python state by deep-copying its attributes, and a
    duel's own :meth:`~ygo_fsm.duel.Duel.copy` is the cheap, independent copy."""

    __slots__ = ("duel",)

    def __init__(self, duel: Duel) -> None:
        self.duel = duel

    def __deepcopy__(self, memo: dict[int, Any]) -> _Held:
        return _Held(self.duel.copy())


class DuelObserver:
    """OpenSpiel's observer interface: what one player may know, as a tensor and as text."""

    def __init__(self) -> None:
        self.tensor = np.zeros(OBSERVATION_SIZE, np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: YgoState, player: int) -> None:
        self.tensor[:] = observation_vector(state.duel, PLAYERS[player])

    def string_from(self, state: YgoState, player: int) -> str:
        return information_state_string(state.duel, PLAYERS[player])


pyspiel.register_game(GAME_TYPE, YgoGame)
