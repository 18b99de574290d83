"""The action fuzzer: random setups, mixes of legal and illegal actions, and checks after each.

Run ``python -m ygo_fsm.fuzz [--actions N] [--seed S]`` (``make fuzz``: 100,000 actions). It
prints one summary line::

    N actions, N refusals, N corruptions, N crashes, N hangs, coverage K/T transitions

and exits 1 when a corruption, a crash or a hang was found, or when a declared transition was
never taken (``--no-coverage`` drops that last condition, for short runs).

What it does
============
Each duel starts from a random :class:`~ygo_fsm.game.Setup` (:func:`random_setup`): a profile,
a turn, a starting phase, LP, counts, and library cards placed in every zone; one setup in
three is *biased* towards the rarer rules: monsters on both fields and cards that change the
opponent's field during the Battle Step (「ディメンション・マジック」, 「聖なるバリア－ミラーフォース－」
…) so an attack must be replayed, cancelled or stopped. Each step is one of:

* a **legal** action (one of ``legal_actions()``, as an :class:`~ygo_fsm.duel.Action` or as
  its text);
* an **illegal** one: a declared action that is not legal now, a legal action's name with an
  option it does not have, an action by the player who does not act, a malformed text, or a
  value that is not an action at all (``None``, a number, a list, bytes).

Checks
======
* after every refusal (``IllegalActionError`` or ``TypeError``) the duel is exactly as before
  (:func:`snapshot`: the state path, who acts, LP, every zone's cards in order with their
  per-card state, the chain, the attack, the trace length and the history);
* after every legal action the invariants (:func:`invariant_problems`): somebody must act
  unless the duel is over, at most five monsters and five spells/traps a side, no count
  below zero, every named card in exactly one place, trace numbers 1, 2, 3 … without a gap;
* ``copy()`` behaves as the duel: a copy taken at random is equal to it, and stays equal when
  both take the same action;
* replay is deterministic: at the end of each duel, a new duel from the same setup given the
  same history reaches the same snapshot;
* coverage: every declared transition is taken at least once.

A **crash** is any other exception (an ``EngineError`` included); a **hang** an action that
takes longer than ``--hang-seconds`` (default 10). The first problems are printed with the
seed, the duel number and the history, so each can be replayed.
"""

from __future__ import annotations

import argparse
import functools
import random
import signal
import sys
import threading
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from .cards import CardSpec, CardType, default_library
from .duel import Action, Duel
from .engine import Rulebook, default_rulebook
from .errors import IllegalActionError
from .game import MAX_NAMED_CARDS, MONSTER_ZONES, PLAYERS, SPELL_TRAP_ZONES, Setup, TurnEffect
from .snapshot import game_document

__all__ = ["FuzzReport", "invariant_problems", "main", "random_setup", "run_fuzz", "snapshot"]

DEFAULT_ACTIONS = 100_000
DEFAULT_SEED = 12
ACTIONS_PER_DUEL = 300
"""A ``random`` duel is abandoned (and a new one started) after this many steps."""
ACTIONS_PER_SCENE = 60
"""A biased duel is abandoned after this many steps: what it is biased towards happens early."""
ILLEGAL_SHARE = 0.3
"""The share of steps that try an illegal action."""
COPY_SHARE = 0.03
"""The share of legal steps also taken on a fresh ``copy()`` and compared."""

_START_PHASES = ("turn_start", "draw_phase", "standby_phase", "main_phase_1", "battle_phase", "main_phase_2",
                 "end_phase")
_BATTLE_STEP_CARDS = ("dimension_magic", "mirror_force", "sakuretsu_armor", "zero_gravity", "call_of_the_haunted",
                      "holy_javelin", "ring_of_destruction", "cyclone", "dark_hole", "my_body_as_a_shield",
                      "messenger_of_peace", "rush_recklessly", "silver_screen_mirror_wall", "seven_tools_of_the_bandit",
                      "solemn_judgment", "royal_curse", "reflect_bounder", "total_defense_shogun")
"""Cards the biased setups favour: they change a field while an attack is under way."""
_MALFORMED: tuple[object, ...] = ("", " ", "pass pass pass", "PASS", "activate", "activate >", "activate a>b>c",
                                  "discard +", "\x00", "pass\n", "💥", None, 0, 1.5, ["pass"], b"pass",
                                  ("pass",), {"name": "pass"})


def snapshot(duel: Duel) -> tuple[Any, ...]:
    """Everything a refusal must leave as it was, comparable with ``==``: the game state in its
    canonical form (what ``duel == other`` compares), the history, the trace's length, the
    resolutions and the legal actions."""
    return (game_document(duel.game), duel.history, len(duel.trace), tuple(duel.resolutions),
            tuple(str(action) for action in duel.legal_actions()))

def invariant_problems(duel: Duel, uids: frozenset[str]) -> list[str]:
    """What is wrong with ``duel`` after a legal action (empty when nothing is); ``uids`` are
    the named cards the duel started with."""
    problems = []
    if not duel.is_over and duel.priority is None:
        problems.append(f"nobody must act in {duel.state} and the duel is not over")
    if duel.is_over and duel.legal_actions():
        problems.append("the duel is over but actions are offered")
    seen: list[str] = []
    for player in PLAYERS:
        state = duel.players[player]
        if len(state.monsters) > MONSTER_ZONES:
            problems.append(f"{player} has {len(state.monsters)} monsters on the field")
        if len(state.spell_traps) > SPELL_TRAP_ZONES:
            problems.append(f"{player} has {len(state.spell_traps)} spells/traps on the field")
        for name in ("lp", "hand", "deck", "graveyard", "unnamed_hand"):
            if getattr(state, name) < 0:
                problems.append(f"{player}'s {name} is {getattr(state, name)}")
        if state.deck < len(state.deck_cards) or state.graveyard < len(state.graveyard_cards):
            problems.append(f"{player}'s counts are below their named cards")
        seen.extend(card.uid for _, card in state.all_cards())
    if duel.summon is not None and duel.summon.card is not None:
        seen.append(duel.summon.card.uid)  # taken out while it is summoned: in no zone, still in the duel
    if len(seen) != len(set(seen)):
        doubles = sorted({uid for uid in seen if seen.count(uid) > 1})
        problems.append(f"cards in two places at once: {', '.join(doubles)}")
    if set(seen) != uids:
        problems.append(f"cards lost or appeared: {sorted(uids ^ set(seen))}")
    numbers = [record.seq for record in duel.trace]
    if numbers != list(range(1, len(numbers) + 1)):
        problems.append("trace numbers have a gap")
    return problems


def fuzz_library() -> dict[str, CardSpec]:
    """The built-in cards plus :data:`FUZZ_CARDS`: operations no built-in card uses, so that the
    transitions they lead to are played too."""
    return {**default_library(), **{card.id: card for card in FUZZ_CARDS}}


FUZZ_CARDS: tuple[CardSpec, ...] = (
    CardSpec.model_validate({
        "id": "fuzz_battle_ender", "name_ja": "バトル終了", "name_zh": "战斗结束（测试卡）", "type": "trap",
        "seeds": "004 ●『战斗阶段结束』的效果处理的场合，直接进入结束步骤",
        "effects": [{"kind": "normal_trap", "label": "战斗阶段结束", "location": "set",
                     "resolution": [{"op": "end_battle_phase"}]}]}),
    CardSpec.model_validate({
        "id": "fuzz_banisher", "name_ja": "除外の罠", "name_zh": "除外陷阱（测试卡）", "type": "trap",
        "seeds": "004 ●伤害步骤中…反击陷阱; ●未进行伤害计算的战斗不视为『进行战斗』",
        "effects": [{"kind": "counter_trap", "label": "伤害步骤中：选择场上1只怪兽除外", "location": "set",
                     "target": "any_monster", "conditions": {"during": ["damage_step"]},
                     "resolution": [{"op": "banish", "what": "target"}]}]}),
    CardSpec.model_validate({
        "id": "fuzz_twin_strike", "name_ja": "双撃の罠", "name_zh": "双击陷阱（测试卡）", "type": "trap",
        "seeds": "000 ●バトルフェイズ【２】例 CHAIN1发动「破壊輪」，选择「甲虫装甲騎士」 (targets with the activation)",
        "effects": [{"kind": "normal_trap", "label": "以场上最多2只怪兽为对象，那些怪兽破坏", "location": "set",
                     "target": "any_monster", "target_count": {"up_to": 2},
                     "resolution": [{"op": "destroy", "what": "target"}]}]}),
    CardSpec.model_validate({
        "id": "fuzz_twin_summoner", "name_ja": "双撃の召喚士", "name_zh": "双击召唤师（测试卡）", "type": "monster",
        "atk": 1000, "def": 1000, "level": 4,
        "seeds": "000 卡／效果发动的优先顺序 ３回合玩家的任意发动的诱发效果 (targets with the activation)",
        "effects": [{"kind": "trigger", "label": "这张卡召唤成功时，以场上最多2只怪兽为对象，那些怪兽除外",
                     "location": "field", "events": ["normal_summoned"], "subject": "this_card",
                     "target": "any_monster", "target_count": {"up_to": 2},
                     "resolution": [{"op": "banish", "what": "target"}]}]}),
)
"""Cards the fuzzer adds to the library: a trap that ends the Battle Phase (004 ●『战斗阶段结束』…),
which no card of the seeds' examples does, so an attack can be ended by it; a counter trap
that banishes a monster during the Damage Step only, which the Damage Step allows, so a battler
can leave the field before damage calculation (004 ●未进行伤害计算的战斗不视为『进行战斗』); and two
cards taking several targets, chosen one at a time (:mod:`ygo_fsm.multi_target`) — a trap (up to
2, in a chain) and a monster's trigger (up to 2, in a timing window)."""

_ATTACKERS = ("beetle_armor_knight", "sapphire_dragon", "spirit_dragon", "killer_snake", "dol_dora",
              "total_defense_shogun", "cyber_dragon", "rogue_mercenaries", "sage_chiron")
_ATTACKER_SET = ("ring_of_destruction", "ring_of_destruction", "my_body_as_a_shield", "fuzz_battle_ender",
                 "fuzz_banisher", "zero_gravity", "seven_tools_of_the_bandit", "call_of_the_haunted")
_DEFENDER_SET = ("call_of_the_haunted", "call_of_the_haunted", "mirror_force", "sakuretsu_armor", "fuzz_battle_ender",
                 "fuzz_banisher", "fuzz_twin_strike",
                 "holy_javelin", "ring_of_destruction", "zero_gravity")
_BATTLE_HAND = ("dimension_magic", "rush_recklessly", "cyclone")
_PHASE_FIELD = ("snatch_steal", "messenger_of_peace", "toll", "silver_screen_mirror_wall", "jougen")
_ALL_EFFECTS = tuple(effect.value for effect in TurnEffect)
_EFFECT_PHASES: dict[str, tuple[str, ...]] = {
    "skip_turn": ("turn_start",), "skip_draw_phase": ("turn_start", "draw_phase"),
    "draw_replaced": ("turn_start", "draw_phase"), "skip_standby_phase": ("turn_start", "draw_phase"),
    "skip_main_phase_1": ("draw_phase", "standby_phase"), "skip_battle_phase": ("main_phase_1",),
    "cannot_enter_battle_phase": ("main_phase_1",), "cannot_attack": ("main_phase_1", "battle_phase"),
    "opponent_chooses_attack_target": ("battle_phase",), "battle_phase_ended": ("battle_phase",),
}
"""Where a ``turn_effects`` duel starts for each effect: before the effect is met."""
SCENES = ("random", "battle", "damage_step", "phase_effects", "summon", "turn_effects", "first_turn")
"""The kinds of setup :func:`random_setup` makes; all but ``random`` are biased towards rarer rules."""
_SCENE_ORDER = ("random", "battle", "turn_effects", "damage_step", "phase_effects", "battle", "summon", "battle",
                "turn_effects", "first_turn", "damage_step")
"""The order the fuzzer takes them in, over and over (attacks have the most rules to reach)."""


def random_setup(rng: random.Random, scene: str = "random") -> dict[str, Any]:
    """A random setup (as the data a :class:`~ygo_fsm.game.Setup` is validated from) over
    :func:`fuzz_library`, of the kind ``scene`` (one of :data:`SCENES`):

    * ``random`` — any profile, turn, starting phase, counts, and cards in every zone;
    * ``damage_step`` — attackers, and Set cards that banish a monster, kept for the Damage Step
      (a battler may leave the field before damage calculation: 004 ●未进行伤害计算的战斗…);
    * ``battle`` — the Battle Phase with attackers, and the cards that change a field during an
      attack (「リビングデッドの呼び声」, 「聖なるバリア－ミラーフォース－」, 「破壊輪」,
      「ディメンション・マジック」 …), so attacks are replayed, cancelled, stopped (000 ※战斗回卷;
      004 ●卷回);
    * ``phase_effects`` — face-up cards whose effects happen in the Standby or End Phase, for
      either player (000 ●スタンバイフェイズ【２】);
    * ``summon`` — monsters to summon (with tributes, by their own procedure) against 「神の宣告」;
    * ``turn_effects`` — a turn effect from the start (skipped phases, no Battle Phase …);
    * ``first_turn`` — the duel's first turn (004 ●先攻第1回合…; 002 ◇先攻的第一回合战斗阶段攻击不可).
    """
    library = fuzz_library()
    monsters = sorted(card.id for card in library.values() if card.type is CardType.monster)
    others = sorted(card.id for card in library.values() if card.type is not CardType.monster)
    profile = rng.choice(("modern", "ocg2008"))
    turn = (1 if scene == "first_turn" else rng.choice((1, 1, 2, 3, 4, 5)) if scene in ("random", "turn_effects")
            else rng.randint(2, 5))
    phase = {"battle": rng.choice(("main_phase_1", "battle_phase", "battle_phase")),
             "damage_step": "battle_phase",
             "phase_effects": rng.choice(("turn_start", "draw_phase", "main_phase_2", "end_phase", "end_phase")),
             "summon": "main_phase_1",
             "turn_effects": rng.choice(("turn_start", "turn_start", "draw_phase", "main_phase_1", "battle_phase")),
             "first_turn": rng.choice(("turn_start", "draw_phase", "battle_phase")),
             }.get(scene) or rng.choice(_START_PHASES)
    if phase == "battle_phase" and turn == 1 and profile == "modern":
        phase = "main_phase_1"
    if scene == "first_turn" and phase == "battle_phase":
        profile = "ocg2008"  # 002: the first turn has a Battle Phase without attacks
    turn_player = rng.choice(PLAYERS)
    players: dict[str, Any] = {}
    for player in PLAYERS:
        acting = player == turn_player
        cards: list[dict[str, Any]] = []

        put = functools.partial(_place, cards)

        if scene == "damage_step":  # a battler may leave the field before damage calculation (004)
            for _ in range(2 if acting else 1):  # an attack or two, each with its Damage Step
                put(rng.choice(_ATTACKERS[:4]), "monster")
            for _ in range(2):
                put("fuzz_banisher", "spell_trap")
        elif scene == "battle":
            for _ in range(rng.randint(1, 2) if acting else rng.randint(0, 2)):
                put(rng.choice(_ATTACKERS), "monster",
                    **({} if acting or rng.random() < 0.6 else {"position": "defence", "face_up": False}))
            if rng.random() < 0.5:  # the cards that change the defender's monsters: replays (004 ●卷回)
                put("ring_of_destruction" if acting else "call_of_the_haunted", "spell_trap")
            for _ in range(rng.randint(1, 2)):
                put(rng.choice(_ATTACKER_SET if acting else _DEFENDER_SET), "spell_trap")
            put(rng.choice(_BATTLE_HAND), "hand")
            put(rng.choice(_ATTACKERS), "graveyard")
        elif scene == "phase_effects":
            for _ in range(rng.randint(1, 2)):
                card = rng.choice(_PHASE_FIELD)  # 「昇霊術師 ジョウゲン」 is a monster
                put(card, "monster" if library[card].type is CardType.monster else "spell_trap", face_up=True)
            put(rng.choice(("killer_snake", "lava_golem")), rng.choice(("graveyard", "monster")))
            put("dol_dora", "graveyard", destroyed_this_turn=rng.random() < 0.8)  # its End Phase trigger (000 结果Ａ)
        elif scene == "first_turn":
            if acting:
                put(rng.choice(_ATTACKERS), "monster")
        elif scene == "summon":
            if acting:
                for _ in range(rng.randint(1, 3)):
                    put(rng.choice(monsters), "hand")
                put("cyber_dragon", "hand")
                put("fuzz_twin_summoner", "hand")  # a trigger taking several targets
                for _ in range(rng.randint(0, 2)):
                    put(rng.choice(monsters), "monster")
            else:
                put(rng.choice(("solemn_judgment", "solemn_judgment", "royal_curse")), "spell_trap")
                put(rng.choice(monsters), "monster")
            if rng.random() < 0.5:
                put(rng.choice(monsters), "graveyard")
        else:
            for _ in range(rng.randint(0, 3)):
                defence = rng.random() < 0.3
                put(rng.choice(monsters), "monster", position="defence" if defence else "attack",
                    face_up=not (defence and rng.random() < 0.4))
            for _ in range(rng.randint(0, 3)):
                put(rng.choice(others), "spell_trap", **({"face_up": True} if rng.random() < 0.2 else {}))
            for _ in range(rng.randint(0, 3)):
                put(rng.choice(others + monsters), "hand")
            for zone in ("graveyard", "deck"):
                if rng.random() < 0.3:
                    put(rng.choice(monsters + others), zone)
        players[player] = {
            "lp": rng.choice((8000, 8000, 4000, 1000, 100)),
            "hand": rng.randint(0, 7),
            "deck": rng.choice((0, 1, 2, 5, 10, 30)),
            "graveyard": rng.randint(0, 3),
            "cards": cards[:MAX_NAMED_CARDS],
        }
        if rng.random() < 0.1:
            players[player]["hand_limit"] = rng.choice(("hieroglyph_tablet", "mist_of_weakness", "infinite_cards"))
    effects = [rng.choice(_ALL_EFFECTS) for _ in range(1 if rng.random() < 0.1 else 0)]
    if scene == "turn_effects":
        effects = [rng.choice(_ALL_EFFECTS)]
        phase = rng.choice(_EFFECT_PHASES[effects[0]])
        if phase == "battle_phase" and turn == 1 and profile == "modern":
            profile = "ocg2008"
        players[turn_player]["cards"].insert(0, {"card": rng.choice(_ATTACKERS), "zone": "monster"})
        players[turn_player]["cards"] = players[turn_player]["cards"][:MAX_NAMED_CARDS]
    if scene == "battle" and rng.random() < 0.3:
        effects = ["opponent_chooses_attack_target"]
    later = {turn + 1: [rng.choice(_ALL_EFFECTS)]} if rng.random() < 0.05 else {}
    return {"profile": profile, "turn": turn, "turn_player": turn_player, "phase": phase, "players": players,
            "effects": effects, "effects_on_turn": later}


def _place(cards: list[dict[str, Any]], card: str, zone: str, **extra: Any) -> None:
    cards.append({"card": card, "zone": zone, **extra})


@dataclass
class FuzzReport:
    """What a fuzz run found."""

    actions: int = 0
    refusals: int = 0
    corruptions: int = 0
    crashes: int = 0
    hangs: int = 0
    duels: int = 0
    setups_refused: int = 0
    covered: set[tuple[str, str]] = field(default_factory=set)
    declared: set[tuple[str, str]] = field(default_factory=set)
    problems: list[str] = field(default_factory=list)
    seconds: float = 0.0
    longest_settle: int = 0
    """The most engine transitions taken in a row (between two player actions, or creating a duel)."""

    @property
    def missing(self) -> list[str]:
        return sorted(f"{machine}.{transition}" for machine, transition in self.declared - self.covered)

    @property
    def ok(self) -> bool:
        return not (self.corruptions or self.crashes or self.hangs)

    def summary(self) -> str:
        return (f"{self.actions} actions, {self.refusals} refusals, {self.corruptions} corruptions, "
                f"{self.crashes} crashes, {self.hangs} hangs, coverage {len(self.covered & self.declared)}/"
                f"{len(self.declared)} transitions")


class _Hang(Exception):
    pass


@contextmanager
def _time_limit(seconds: float) -> Iterator[None]:
    """Raise :class:`_Hang` in the block after ``seconds`` (where SIGALRM exists)."""
    if not hasattr(signal, "setitimer") or threading.current_thread() is not threading.main_thread():
        yield
        return

    def expire(_signum: int, _frame: Any) -> None:
        raise _Hang

    previous = signal.signal(signal.SIGALRM, expire)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def _illegal_candidates(duel: Duel, events: Sequence[str], rng: random.Random) -> object:
    legal = duel.legal_actions()
    kind = rng.randrange(5)
    if kind == 0:
        return rng.choice(events)  # declared somewhere, maybe not here
    if kind == 1 and legal:
        action = rng.choice(legal)
        return f"{action.name} {rng.choice(('nosuchcard', 'a_monster_9', 'cyclone>nobody', 'x+y'))}"
    if kind == 2 and legal:
        action = rng.choice(legal)
        other = "B" if action.player == "A" else "A"
        return Action(action.name, other, action.choice)
    if kind == 3:
        return Action(rng.choice(events), rng.choice(PLAYERS), rng.choice((None, "cyclone", "unnamed")))
    return rng.choice(_MALFORMED)


def run_fuzz(actions: int = DEFAULT_ACTIONS, seed: int = DEFAULT_SEED, *, rulebook: Rulebook | None = None,
             hang_seconds: float = 10.0, log: Any = None) -> FuzzReport:
    """Fuzz ``actions`` steps from ``seed``; see the module docstring."""
    rulebook = rulebook or default_rulebook()
    library = fuzz_library()
    rng = random.Random(seed)
    report = FuzzReport(declared={(spec.id, t.id) for spec in rulebook.specs.values() for t in spec.transitions})
    events = sorted({t.event for spec in rulebook.specs.values() for t in spec.transitions if t.is_player_action})
    started = time.perf_counter()

    def problem(kind: str, duel_number: int, history: Sequence[Action], text: str) -> None:
        if len(report.problems) < 20:
            shown = ", ".join(str(a) for a in history[-12:])
            report.problems.append(f"{kind} (seed {seed}, duel {duel_number}): {text}; last actions: {shown}")

    while report.actions < actions:
        scene = _SCENE_ORDER[(report.duels + report.setups_refused) % len(_SCENE_ORDER)]
        try:
            setup = Setup.model_validate(random_setup(rng, scene))
            duel = Duel(setup, rulebook=rulebook, library=library)
        except ValueError:  # a setup the rules forbid (a monster in a spell/trap zone …)
            report.setups_refused += 1
            continue
        report.duels += 1
        patient = rng.random() < 0.5
        uids = frozenset(card.uid for p in PLAYERS for _, card in duel.players[p].all_cards())
        broken = False
        for _ in range(ACTIONS_PER_DUEL if scene == "random" else ACTIONS_PER_SCENE):
            if duel.is_over or report.actions >= actions:
                break
            report.actions += 1
            legal = duel.legal_actions()
            if rng.random() < ILLEGAL_SHARE:
                attempt = _illegal_candidates(duel, events, rng)
                if isinstance(attempt, str | Action) and _is_legal(attempt, legal):
                    continue  # it happens to be legal: not an illegal try
                before = snapshot(duel)
                try:
                    with _time_limit(hang_seconds):
                        duel.apply(attempt)  # type: ignore[arg-type]
                except (IllegalActionError, TypeError):
                    report.refusals += 1
                    if snapshot(duel) != before:
                        report.corruptions += 1
                        problem("corruption", report.duels, duel.history, f"refusing {attempt!r} changed the duel")
                        broken = True
                except _Hang:
                    report.hangs += 1
                    problem("hang", report.duels, duel.history, f"refusing {attempt!r}")
                    broken = True
                except Exception as exc:
                    report.crashes += 1
                    problem("crash", report.duels, duel.history, f"{attempt!r}: {type(exc).__name__}: {exc}")
                    broken = True
                else:
                    report.corruptions += 1
                    problem("corruption", report.duels, duel.history, f"illegal {attempt!r} was accepted")
                    broken = True
                if broken:
                    break
                continue
            if not legal:
                break
            action = _pick(rng, scene, duel, legal, patient=patient)
            chosen: Action | str = action if rng.random() < 0.5 else str(action)
            twin = duel.copy() if rng.random() < COPY_SHARE else None
            try:
                with _time_limit(hang_seconds):
                    duel.apply(chosen)
                    if twin is not None:
                        twin.apply(chosen)
            except _Hang:
                report.hangs += 1
                problem("hang", report.duels, duel.history, f"{chosen}")
                broken = True
                break
            except Exception as exc:
                report.crashes += 1
                problem("crash", report.duels, duel.history, f"{chosen}: {type(exc).__name__}: {exc}")
                broken = True
                break
            found = invariant_problems(duel, uids)
            if twin is not None and snapshot(twin) != snapshot(duel):
                found.append("a copy given the same action differs")
            if found:
                report.corruptions += 1
                problem("corruption", report.duels, duel.history, "; ".join(found))
                broken = True
                break
        report.covered.update((record.machine, record.transition) for record in duel.trace)
        report.longest_settle = max(report.longest_settle, _longest_engine_run(duel))
        if not broken and not _replays(setup, duel, rulebook, library):
            report.corruptions += 1
            problem("corruption", report.duels, duel.history, "replaying the history reached another duel")
        if log is not None and report.duels % 100 == 0:
            print(f"  … {report.summary()}", file=log, flush=True)
    report.seconds = time.perf_counter() - started
    return report


_TO_THE_ATTACK = ("enter_battle_phase", "declare_attack", "choose_target")


def _pick(rng: random.Random, scene: str, duel: Duel, legal: Sequence[Action], *, patient: bool = False) -> Action:
    """The legal action to take: any, in ``random`` duels; biased scenes prefer doing something
    to passing — in ``battle`` duels, only once an attack is declared (cards kept until then), and
    when ``patient`` only from the Battle Step on; in ``damage_step`` duels, on to the attack and
    through its declaration, then anything in the Damage Step (where a battler may be banished
    before damage calculation) — when ``patient``, only from damage calculation on, so that cards
    are left to banish a battler during it."""
    if scene == "random":
        return rng.choice(legal)
    if scene == "damage_step" and "damage_step" not in duel.state:
        onwards = [a for a in legal if a.name in _TO_THE_ATTACK] or [a for a in legal if a.name == "pass"]
        return rng.choice(onwards or legal)
    if scene == "damage_step":  # each of the Damage Step's points gets its turn
        acting = [a for a in legal if a.name != "pass"]
        if patient and "damage_step.damage_calculation" not in duel.state:  # cards kept for damage calculation
            return next((a for a in legal if a.name == "pass"), rng.choice(legal))
        return rng.choice(acting if acting and rng.random() < 0.3 else legal)
    doing = [a for a in legal if a.name != "pass"]
    stopping = [a for a in legal if a.name == "stop_attack"]
    if stopping and rng.random() < 0.5:  # after a replay (004 ●…可以不选择任何怪兽而停止攻击)
        return stopping[0]
    if scene == "battle" and ("attack_declaration" not in duel.state
                              or (patient and "declaration_window" in duel.state)):
        onwards = [a for a in legal if a.name in _TO_THE_ATTACK]
        if onwards and rng.random() < 0.9:
            return rng.choice(onwards)
        passing = [a for a in legal if a.name == "pass"]
        if passing and rng.random() < 0.9:
            return passing[0]
        return rng.choice(legal)
    return rng.choice(doing if doing and rng.random() < 0.7 else legal)


def _longest_engine_run(duel: Duel) -> int:
    longest = run = 0
    for record in duel.trace:
        run = run + 1 if record.actor == "engine" else 0
        longest = max(longest, run)
    return longest


def _is_legal(attempt: str | Action, legal: Sequence[Action]) -> bool:
    """Whether ``apply`` would take ``attempt`` (an action with one option may omit it)."""
    if isinstance(attempt, Action):
        name, choice, player = attempt.name, attempt.choice, attempt.player
    else:
        (name, choice), player = Action.parse(attempt), None
    same = [a for a in legal if a.name == name and player in (None, a.player)]
    if choice is not None:
        return any(a.choice == choice for a in same)
    return any(a.choice is None for a in same) or len(same) == 1


def _replays(setup: Setup, duel: Duel, rulebook: Rulebook, library: dict[str, CardSpec]) -> bool:
    again = Duel(setup, rulebook=rulebook, library=library)
    for action in duel.history:
        again.apply(action)
    return snapshot(again) == snapshot(duel)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m ygo_fsm.fuzz", description=__doc__.splitlines()[0])
    parser.add_argument("--actions", type=int, default=DEFAULT_ACTIONS)
    parser.add_argument("--seed", type=int, default=DEFAULT_SEED)
    parser.add_argument("--hang-seconds", type=float, default=10.0)
    parser.add_argument("--no-coverage", action="store_true", help="do not fail when a transition is not reached")
    parser.add_argument("--progress", action="store_true", help="print a line every 100 duels")
    args = parser.parse_args(argv)
    report = run_fuzz(args.actions, args.seed, hang_seconds=args.hang_seconds,
                      log=sys.stderr if args.progress else None)
    for line in report.problems:
        print(line, file=sys.stderr)
    if report.missing:
        print(f"not reached: {', '.join(report.missing)}", file=sys.stderr)
    print(report.summary())
    print(f"({report.duels} duels, {report.setups_refused} setups refused, longest settle "
          f"{report.longest_settle} engine transitions, {report.seconds:.1f} s)", file=sys.stderr)
    return 0 if report.ok and (args.no_coverage or not report.missing) else 1


if __name__ == "__main__":
    sys.exit(main())
