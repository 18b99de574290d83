"""The full-duels workload of ``make bench`` (:func:`ygo_fsm.bench_duels.play_full_duels`), run as
a script on whichever ygo-fsm a source tree holds, with the arguments ``TREE CONFIG``
(:func:`ygo_fsm.bench_compare.run_tree` starts it through :mod:`runpy`, so that this folder is not
first on the import path).

It puts ``TREE`` first on the import path and imports ``ygo_fsm`` from there, so it uses only
what older versions offer too — ``Setup.from_decks``, ``Duel(setup, auto_pass=…)``, ``trace=`` where
the version has it, ``legal_actions()``, ``apply()``, ``transitions_taken`` — and imports nothing else
of this package. A version older than the agents' issue (4b264d2, the engine that issue measured) has
none of the first three: there the driver deals the same decks itself, shuffled with the duel's shuffle
seed, five cards to the hand and the rest to the deck as named cards with no unnamed ones (the setup
the issue says its author wrote by hand), and the agent is asked for every pass, as that engine asked
(the figures say ``passed_for_players: false``). Such duels are other duels than the newer versions
play from the same seeds, drawn from the same deal and the same random play.

``CONFIG`` is a JSON object: both decks, the number of duels, the seed, auto-pass
and trace, and whether to count opcodes. It prints one JSON object: the process time of the duels
(setup included, after one warm-up duel), their transitions and decisions, whether auto-pass passed for
the players, and, when asked, the Python opcodes they ran (counted with :func:`sys.settrace` in a further
pass over the same duels, after the timed one; deterministic under a fixed ``PYTHONHASHSEED``).
:mod:`ygo_fsm.bench_compare` runs it on two trees.
"""

from __future__ import annotations

import inspect
import json
import random
import sys
import time
from collections.abc import Callable
from types import FrameType
from typing import Any

Tracer = Callable[[FrameType, str, Any], Any]


def play(config: dict[str, Any], seed: int, count: int) -> tuple[int, int, bool, bool]:
    """``count`` duels seeded as ``play_full_duels`` seeds them: (transitions, decisions, whether
    the duels kept a trace, whether auto-pass passed for the players)."""
    from ygo_fsm import Duel, Setup  # the tree's own package (see the module docstring)

    options = inspect.signature(Duel.__init__).parameters
    keeps: dict[str, Any] = {"trace": bool(config["trace"])} if "trace" in options else {}
    if "auto_pass" in options:
        keeps["auto_pass"] = bool(config["auto_pass"])
    deal = getattr(Setup, "from_decks", None)
    seeds = random.Random(seed)
    transitions = decisions = 0
    for _ in range(count):
        shuffle_seed, agent_seed = seeds.randrange(2**32), seeds.randrange(2**32)
        choose = random.Random(agent_seed).choice
        if deal is not None:
            setup = deal(list(config["deck_a"]), list(config["deck_b"]), seed=shuffle_seed, profile="modern")
        else:
            setup = _dealt_by_hand(Setup, config["deck_a"], config["deck_b"], shuffle_seed)
        duel = Duel(setup, **keeps)
        while not duel.is_over:
            duel.apply(choose(duel.legal_actions()))
            decisions += 1
            if decisions > config["max_decisions"]:
                raise RuntimeError(f"a duel took more than {config['max_decisions']} decisions")
        transitions += duel.transitions_taken if hasattr(duel, "transitions_taken") else duel._seq
    return transitions, decisions, bool(keeps.get("trace", True)), bool(keeps.get("auto_pass", False))


def _dealt_by_hand(setup_class: Any, deck_a: list[str], deck_b: list[str], seed: int) -> Any:
    """For a version without ``Setup.from_decks``: both decks shuffled (A's, then B's, with one
    generator seeded with ``seed``), five cards named in each hand and the rest in each deck, no
    unnamed cards, ``modern`` rules."""
    shuffle = random.Random(seed).shuffle
    players = {}
    for player, deck in (("A", deck_a), ("B", deck_b)):
        cards = list(deck)
        shuffle(cards)
        players[player] = {"hand": 0, "deck": 0, "cards": [
            {"card": card, "zone": "hand" if place < 5 else "deck"} for place, card in enumerate(cards)]}
    return setup_class.model_validate({"profile": "modern", "players": players})


def count_opcodes(run: Callable[[], object]) -> int:
    """The Python opcodes ``run()`` executes (every frame's, C functions not counted)."""
    counted = [0]

    def trace(frame: FrameType, event: str, arg: Any) -> Tracer | None:
        if event == "call":
            frame.f_trace_opcodes = True
            frame.f_trace_lines = False
        elif event == "opcode":
            counted[0] += 1
        return trace

    sys.settrace(trace)
    try:
        run()
    finally:
        sys.settrace(None)
    return counted[0]


def main(argv: list[str]) -> int:
    tree, config = argv[0], json.loads(argv[1])
    sys.path.insert(0, tree)
    seed, count = int(config["seed"]), int(config["duels"])
    play(config, seed + 1, 1)  # warm-up: the rulebook is built and the caches filled once, as in a long run
    started = time.process_time()
    transitions, decisions, traced, passed_for_players = play(config, seed, count)
    cpu_s = time.process_time() - started
    opcodes = count_opcodes(lambda: play(config, seed, count)) if config.get("opcodes") else None
    import ygo_fsm
    print(json.dumps({"package": ygo_fsm.__file__, "duels": count, "cpu_s": cpu_s, "transitions": transitions,
                      "decisions": decisions, "trace": traced, "passed_for_players": passed_for_players,
                      "opcodes": opcodes}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
