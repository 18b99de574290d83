"""A PettingZoo AEC environment over the integer action space (the ``env`` extra:
``pip install 'ygo-fsm[env]'``).

Two agents, ``"A"`` and ``"B"``; the agent to act is the player who must act in the duel
(who holds priority or must choose), so turns do not simply alternate. Each ``reset(seed=…)``
starts a duel from two decks (:meth:`Setup.from_decks <ygo_fsm.game.Setup.from_decks>`, modern
rules by default) with auto-pass on: an agent is asked only when it has something other than
``pass`` to do, and without a trace (``trace=True`` keeps one; a duel's history replays it
with one either way: ``Duel.replay(duel.setup, duel.history)``). An action is an index of
:mod:`ygo_fsm.actions` (``Discrete(num_distinct_actions)``); the reward is +1 to the winner
and −1 to the loser when the duel ends, 0 otherwise (and for a draw). A duel longer than ``max_decisions`` is truncated.

An observation is ``{"observation": vector, "action_mask": mask}``: ``mask`` (int8, one flag per
index) is the acting agent's legal actions (all zero for the other agent); ``vector``
(float32, :data:`OBSERVATION_SIZE` values, :func:`observation_vector`) holds only what that
player may know. :func:`information_state_string` gives the same as text, for debugging.

The mask has a flag for every index of the action space (:data:`~ygo_fsm.actions.NUM_DISTINCT_ACTIONS`),
and numpy's ``nonzero`` has no fast path for int8: ``np.flatnonzero(mask.view(bool))`` finds the
legal indices about 14 times faster than on ``mask`` itself, and
``environment.duel.legal_action_indices()`` gives them at once.

>>> environment = env()
>>> environment.reset(seed=3)
>>> observation, reward, terminated, truncated, info = environment.last()
>>> observation["observation"].shape == (OBSERVATION_SIZE,), int(observation["action_mask"].sum()) > 0
(True, True)
"""

from __future__ import annotations

import random
import struct
from collections.abc import Sequence
from typing import Any, ClassVar

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from . import continuous
from .actions import NUM_DISTINCT_ACTIONS, as_integer
from .card_enums import CardType
from .duel import Duel
from .engine import default_rulebook
from .game import PLAYERS, Position, Profile, Zone, other_player
from .hiding import known_to
from .observation import Observation
from .priority import holder
from .state import CardInstance, GameState

__all__ = ["DEFAULT_DECK", "OBSERVATION_SIZE", "env", "information_state_string", "observation_vector",
           "observation_vector_of", "raw_env"]

DEFAULT_DECK: tuple[str, ...] = (
    ("sage_chiron",) * 4 + ("reflect_bounder",) * 4 + ("beetle_armor_knight",) * 4 + ("sapphire_dragon",) * 4
    + ("spirit_dragon",) * 2 + ("sacred_phoenix_of_nephthys",) * 2 + ("cyber_dragon",) * 2
    + ("killer_snake",) * 2 + ("rogue_mercenaries",) * 2 + ("cyclone",) * 3 + ("dark_hole",) * 1
    + ("my_body_as_a_shield",) * 2 + ("sakuretsu_armor",) * 3 + ("mirror_force",) * 2 + ("soul_rope",) * 3
)
"""Both players' deck unless ``reset(options={"decks": (deck_a, deck_b)})`` gives others."""

# --- the observation vector --------------------------------------------------------------

HAND_SLOTS = 60
GRAVEYARD_SLOTS = 60
FIELD_SLOTS = 5
CHAIN_SLOTS = 8
_HEADER = 12
_TURN_STATES: tuple[str, ...] = tuple(default_rulebook().specs["turn"].state_ids())
_MACHINES: tuple[str, ...] = tuple(default_rulebook().specs)
_TURN_PLACE = {state: place for place, state in enumerate(_TURN_STATES)}
_MACHINE_PLACE = {machine: place for place, machine in enumerate(_MACHINES)}
_ATTACK = Position.attack.value
# module constants: under Python 3.11 an enum member read from its class costs several times a global
_ATTACK_POSITION, _MONSTER_ZONE, _SPELL_TRAP_ZONE, _MONSTER_CARD = Position.attack, Zone.monster, Zone.spell_trap, \
    CardType.monster
_MONSTER = 6
_SPELL_TRAP = 3
_LINK = 4

_MACHINES_AT = _HEADER + len(_TURN_STATES)
_HAND_AT = _MACHINES_AT + len(_MACHINES)
_MONSTERS_AT = _HAND_AT + HAND_SLOTS
_SPELL_TRAPS_AT = _MONSTERS_AT + 2 * FIELD_SLOTS * _MONSTER
_GRAVEYARDS_AT = _SPELL_TRAPS_AT + 2 * FIELD_SLOTS * _SPELL_TRAP
_CHAIN_AT = _GRAVEYARDS_AT + 2 * GRAVEYARD_SLOTS
OBSERVATION_SIZE = _CHAIN_AT + CHAIN_SLOTS * _LINK
"""The vector's length. Its parts, in order (``me`` is the observing player):

- header (12): my LP / 1000, the opponent's LP / 1000, the turn number, I am the turn player,
  I must act, then the card counts: my hand, the opponent's hand, my deck, the opponent's deck,
  my graveyard, the opponent's graveyard, and the chain's length;
- the ``turn`` machine's state, one-hot (the phase); each machine, 1 while it runs;
- my hand: one card code per slot (60; 0 for an empty slot or a card no action names);
- my monster zones, then the opponent's (5 each): present, card code, ATK / 1000, DEF / 1000,
  Attack Position, face-up — a face-down monster of the opponent shows only present and its
  position;
- my spell/trap zones, then the opponent's (5 each): present, card code, face-up — the
  opponent's Set cards show only present;
- my graveyard, then the opponent's (60 each): card codes (graveyards are public);
- the chain, CHAIN1 first (8 links): present, card code, the link is mine, spell speed.

A card code is the card's place in the sorted ids of the duel's library, from 1. The opponent's
hand and both decks appear only as counts: their cards and the deck order are never shown."""


_PACK_VECTOR = struct.Struct(f"{OBSERVATION_SIZE}f").pack
"""The values as float32 bytes, rounded as numpy rounds them (about half the time of ``np.array`` on a list)."""

_CODES: dict[int, tuple[object, dict[str, int]]] = {}


def _codes(game: GameState) -> dict[str, int]:
    """Card codes of the duel's library (worked out once per library)."""
    library = game.library
    entry = _CODES.get(id(library))
    if entry is None or entry[0] is not library or len(entry[1]) != len(library):
        entry = _CODES[id(library)] = (library, {card_id: n for n, card_id in enumerate(sorted(library), start=1)})
    return entry[1]


def _code(card: str | None, codes: dict[str, int]) -> float:
    """The code of a library card id (0: no card, or one the player may not know)."""
    return float(codes.get(card, 0)) if card is not None else 0.0


def _stat(value: int | None) -> float:
    return value / 1000 if value is not None else 0.0


def observation_vector(duel: Duel, player: str) -> np.ndarray:
    """What ``player`` may know of the duel, as :data:`OBSERVATION_SIZE` float32 values (see there).

    The same values as :func:`observation_vector_of` gives from :meth:`Duel.observation
    <ygo_fsm.duel.Duel.observation>` — the one place that decides what a player may know — read
    from the game without building the whole observation: a card's identity and stats only where
    :func:`~ygo_fsm.hiding.known_to` lets the player know it, as the observation shows them (a test
    compares the two over random duels). A new array each call: one returned is never changed."""
    game = duel.game
    code = _codes(game).get
    opponent = other_player(player)
    me, them = game.players[player], game.players[opponent]
    frames = game.frames
    chain = game.chain
    out = [0.0] * OBSERVATION_SIZE
    out[:_HEADER] = (me.lp / 1000, them.lp / 1000, game.turn, game.turn_player == player, holder(game) == player,
                     me.hand, them.hand, me.deck, them.deck, me.graveyard, them.graveyard, len(chain))
    if frames:
        place = _TURN_PLACE.get(frames[0].state)
        if place is not None:
            out[_HEADER + place] = 1
        for frame in frames:
            out[_MACHINES_AT + _MACHINE_PLACE[frame.machine]] = 1
    # my hand: the player's own, so every card is known to them (known_to)
    hand = [code(card.card.id if card.card is not None else "", 0) for card in me.hand_cards[:HAND_SLOTS]]
    out[_HAND_AT:_HAND_AT + len(hand)] = hand
    sides = ((player, me, 0), (opponent, them, FIELD_SLOTS))
    for owner, side, first in sides:
        for slot, card in enumerate(side.monsters[:FIELD_SLOTS], start=first):
            at = _MONSTERS_AT + slot * _MONSTER
            attack = card.position is _ATTACK_POSITION
            if not known_to(player, owner, _MONSTER_ZONE, card):  # present, and its position
                out[at] = 1
                out[at + 4] = attack
                continue
            spec = card.card
            if spec is None or spec.type is _MONSTER_CARD:
                atk, defence = continuous.stats(game, card)
                out[at:at + _MONSTER] = (1, code(spec.id if spec is not None else "", 0), atk / 1000, defence / 1000,
                                         attack, card.face_up)
            else:
                out[at:at + _MONSTER] = (1, code(spec.id, 0), 0.0, 0.0, attack, card.face_up)
        for slot, card in enumerate(side.spell_traps[:FIELD_SLOTS], start=first):
            at = _SPELL_TRAPS_AT + slot * _SPELL_TRAP
            out[at] = 1
            if known_to(player, owner, _SPELL_TRAP_ZONE, card):  # else only present
                spec = card.card
                out[at + 1] = code(spec.id if spec is not None else "", 0)
                out[at + 2] = card.face_up
    at = _GRAVEYARDS_AT
    for side in (me, them):  # graveyards are public (known_to)
        graveyard = [code(card.card.id if card.card is not None else "", 0)
                     for card in side.graveyard_cards[:GRAVEYARD_SLOTS]]
        out[at:at + len(graveyard)] = graveyard
        at += GRAVEYARD_SLOTS
    for slot, link in enumerate(chain[:CHAIN_SLOTS]):  # an activated card is public
        base = _CHAIN_AT + slot * _LINK
        found = game.find(link.uid)
        spec = found[2].card if found is not None else None
        out[base:base + _LINK] = (1, code(spec.id if spec is not None else "", 0), link.controller == player,
                                  link.spell_speed)
    return np.frombuffer(bytearray(_PACK_VECTOR(*out)), dtype=np.float32)


def observation_vector_of(seen: Observation, game: GameState) -> np.ndarray:
    """The observation vector read from ``seen``, ``game``'s observation for one player (the
    card codes and the machines the game is in are public): the definition of the values
    :func:`observation_vector` gives."""
    player = seen.player
    codes = _codes(game)
    me, them = seen.you, seen.opponent
    out = [0.0] * OBSERVATION_SIZE
    out[:_HEADER] = (me.lp / 1000, them.lp / 1000, seen.turn, seen.turn_player == player, seen.to_act == player,
                     me.hand_count, them.hand_count, me.deck_count, them.deck_count, me.graveyard_count,
                     them.graveyard_count, len(seen.chain))
    at = _HEADER
    phase = game.frames[0].state if game.frames else ""
    if phase in _TURN_PLACE:
        out[at + _TURN_PLACE[phase]] = 1
    at += len(_TURN_STATES)
    for frame in game.frames:
        out[at + _MACHINE_PLACE[frame.machine]] = 1
    at += len(_MACHINES)
    code = codes.get
    hand = [code(view.card, 0) if view.card is not None else 0 for view in me.hand[:HAND_SLOTS]]
    out[at:at + len(hand)] = hand
    at += HAND_SLOTS
    for side in (me, them):
        for slot, view in enumerate(side.monsters[:FIELD_SLOTS]):
            base = at + slot * _MONSTER
            out[base:base + _MONSTER] = (1, _code(view.card, codes), _stat(view.atk), _stat(view.defence),
                                         view.position == _ATTACK, view.face_up)
        at += FIELD_SLOTS * _MONSTER
    for side in (me, them):
        for slot, view in enumerate(side.spell_traps[:FIELD_SLOTS]):
            base = at + slot * _SPELL_TRAP
            out[base:base + _SPELL_TRAP] = (1, _code(view.card, codes), view.face_up)
        at += FIELD_SLOTS * _SPELL_TRAP
    for side in (me, them):
        graveyard = [code(view.card, 0) if view.card is not None else 0 for view in side.graveyard[:GRAVEYARD_SLOTS]]
        out[at:at + len(graveyard)] = graveyard
        at += GRAVEYARD_SLOTS
    for slot, link in enumerate(seen.chain[:CHAIN_SLOTS]):
        base = at + slot * _LINK
        out[base:base + _LINK] = (1, _code(link.card, codes), link.controller == player, link.spell_speed)
    return np.array(out, dtype=np.float32)


def information_state_string(duel: Duel, player: str) -> str:
    """What ``player`` may know, as text (for debugging; the same facts as the vector): a card is named
    only where :func:`~ygo_fsm.hiding.known_to` lets the player know it."""
    game = duel.game
    opponent = other_player(player)
    me, them = game.players[player], game.players[opponent]

    def name(card: CardInstance, shown: bool) -> str:
        if not shown:
            return "(Set)"
        text = card.card.id if card.card is not None else card.name
        if card in me.monsters or card in them.monsters:
            return f"{text} {continuous.atk(game, card)}/{continuous.defence(game, card)}"
        return text

    lines = [f"player {player}; turn {game.turn} (turn player {game.turn_player}); state {duel.state}; "
             f"to act: {duel.priority}",
             f"LP me {me.lp} opponent {them.lp}; hand me {me.hand} opponent {them.hand}; "
             f"deck me {me.deck} opponent {them.deck}",
             "my hand: " + ", ".join(name(c, known_to(player, player, Zone.hand, c)) for c in me.hand_cards)]
    for label, seat, owner in (("my", player, me), ("opponent's", opponent, them)):
        lines.append(f"{label} monsters: " + ", ".join(
            name(c, known_to(player, seat, Zone.monster, c)) + ("" if c.position is Position.attack else " (def)")
            for c in owner.monsters))
        lines.append(f"{label} spells/traps: " + ", ".join(
            name(c, known_to(player, seat, Zone.spell_trap, c)) for c in owner.spell_traps))
        lines.append(f"{label} graveyard: " + ", ".join(
            name(c, known_to(player, seat, Zone.graveyard, c)) for c in owner.graveyard_cards))
    lines.append("chain: " + ", ".join(f"CHAIN{link.number} {link.controller} {link.name}" for link in game.chain))
    return "\n".join(lines)


# --- the environment ------------------------------------------------------------------------


def _two_decks(decks: object, name: str) -> tuple[Sequence[str], Sequence[str]]:
    """``decks`` as A's and B's deck lists (each list's cards are checked when the duel is dealt)."""
    if (isinstance(decks, (str, bytes)) or not isinstance(decks, Sequence) or len(decks) != 2
            or any(isinstance(deck, (str, bytes)) or not isinstance(deck, Sequence) for deck in decks)):
        raise ValueError(f"{name} takes two deck lists of card ids, A's then B's, not {repr(decks)[:60]}")
    return decks[0], decks[1]


class raw_env(AECEnv):  # type: ignore[misc]  # PettingZoo ships no type information
    """The AEC environment (see the module docstring); :func:`env` wraps it in PettingZoo's checks."""

    metadata: ClassVar[dict[str, Any]] = {"render_modes": ["ansi"], "name": "ygo_fsm_v0", "is_parallelizable": False}

    def __init__(self, decks: tuple[Sequence[str], Sequence[str]] | None = None, *,
                 profile: Profile | str = Profile.modern, auto_pass: bool = True, max_decisions: int = 10_000,
                 render_mode: str | None = None, trace: bool = False) -> None:
        super().__init__()
        if isinstance(max_decisions, bool) or not isinstance(max_decisions, int) or max_decisions < 1:
            raise ValueError(f"max_decisions is a number of decisions, at least 1, not {max_decisions!r}")
        self.trace = trace
        self.decks = _two_decks(decks or (DEFAULT_DECK, DEFAULT_DECK), "decks")
        self.profile = Profile(profile)
        self.auto_pass = auto_pass
        self.max_decisions = max_decisions
        self.render_mode = render_mode
        self.possible_agents = list(PLAYERS)
        self._observation_spaces = {agent: spaces.Dict({
            "observation": spaces.Box(low=0.0, high=np.inf, shape=(OBSERVATION_SIZE,), dtype=np.float32),
            "action_mask": spaces.Box(low=0, high=1, shape=(NUM_DISTINCT_ACTIONS,), dtype=np.int8),
        }) for agent in self.possible_agents}
        self._action_spaces = {agent: spaces.Discrete(NUM_DISTINCT_ACTIONS) for agent in self.possible_agents}
        self._seeds = random.Random()
        self.duel: Duel | None = None
        self.decisions = 0

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self._observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self._action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """A new duel: decks from ``options["decks"]`` (else the environment's), shuffled with ``seed``.
        A seed that is not an integer, or decks that cannot be dealt, raise naming them, and the
        environment is left as it was (its duel, and the seeds of the resets to come)."""
        if seed is not None:
            integer = as_integer(seed)
            if integer is None:
                raise TypeError(f"reset() takes an integer seed or None, not {type(seed).__name__}: {seed!r}")
            seed = integer
        decks = _two_decks(options["decks"], 'options["decks"]') if options and "decks" in options else self.decks
        seeds = random.Random()
        if seed is not None:
            seeds.seed(seed)
        else:
            seeds.setstate(self._seeds.getstate())
        self.duel = Duel.new_game(list(decks[0]), list(decks[1]), seed=seeds.randrange(2**63),
                                  profile=self.profile, auto_pass=self.auto_pass, trace=self.trace)
        self._seeds = seeds
        self.decisions = 0
        self.agents = list(self.possible_agents)
        self.rewards = {agent: 0.0 for agent in self.agents}
        self._cumulative_rewards = {agent: 0.0 for agent in self.agents}
        self.terminations = {agent: False for agent in self.agents}
        self.truncations = {agent: False for agent in self.agents}
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self._select()

    def _select(self) -> None:
        assert self.duel is not None
        self.agent_selection = self.duel.priority or self.duel.turn_player

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        duel = self._duel()
        self._check_agent(agent)
        mask = np.zeros(NUM_DISTINCT_ACTIONS, dtype=np.int8)
        if duel.priority == agent and not duel.is_over:
            mask[duel.legal_action_indices()] = 1
        return {"observation": observation_vector(duel, agent), "action_mask": mask}

    def information_state_string(self, agent: str) -> str:
        duel = self._duel()
        self._check_agent(agent)
        return information_state_string(duel, agent)

    def _check_agent(self, agent: str) -> None:
        if agent not in self.possible_agents:
            raise ValueError(f"unknown agent {agent!r}; agents are {', '.join(self.possible_agents)}")

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        duel = self._duel()
        if action is None:
            raise ValueError(f"{agent} must act: give an action index")
        self._cumulative_rewards[agent] = 0.0
        self._clear_rewards()
        duel.apply_index(action)
        self.decisions += 1
        if duel.is_over:
            for player in self.agents:
                self.rewards[player] = 0.0 if duel.winner is None else (1.0 if duel.winner == player else -1.0)
                self.terminations[player] = True
        elif self.decisions >= self.max_decisions:
            for player in self.agents:
                self.truncations[player] = True
        else:
            self._select()
        self._accumulate_rewards()

    def render(self) -> str | None:
        if self.render_mode != "ansi" or self.duel is None:
            return None
        return information_state_string(self.duel, self.agent_selection)

    def close(self) -> None:
        self.duel = None

    def _duel(self) -> Duel:
        if self.duel is None:
            raise RuntimeError("call reset() first")
        return self.duel


def env(**kwargs: Any) -> Any:
    """:class:`raw_env` (same arguments) wrapped in PettingZoo's order and bounds checks."""
    return wrappers.OrderEnforcingWrapper(wrappers.AssertOutOfBoundsWrapper(raw_env(**kwargs)))
