"""Per-player views: what each player may know, and nothing more.

The rule: neither player may look at either Main Deck (nor know its order), nor at the
opponent's hand or face-down cards; each knows their own hand and Set cards; face-up cards,
both graveyards and face-up banished cards are public (001 【怪兽通常召唤…】３ 公开确认…（里侧表示
通常召唤的场合不公开）; the official rules on looking at cards, https://yugipedia.com/wiki/Look).
"""

from __future__ import annotations

import contextlib
import re
from typing import Any

import pytest
from hypothesis import HealthCheck, assume, example, given, settings
from hypothesis import strategies as st
from test_chain_properties import setups

from ygo_fsm import Duel, Setup
from ygo_fsm.cards import CardSpec, CardType, EffectKind, default_library
from ygo_fsm.game import PLAYERS, Zone, card_id_uids
from ygo_fsm.trace import TraceRecord
from ygo_fsm.views import Observation, hidden_from

LIBRARY = default_library()
MONSTERS = sorted(k for k, v in LIBRARY.items() if v.type is CardType.monster)
SPELLS_TRAPS = sorted(k for k, v in LIBRARY.items() if v.type is not CardType.monster
                      and not any(e.kind is EffectKind.field_spell for e in v.effects))
"""Cards Set in a Spell & Trap Zone (a Field Spell has the Field Zone of its own)."""


def duel_of(players: dict[str, Any], *, turn_player: str = "A", phase: str = "main_phase_1",
            named: bool = True) -> Duel:
    setup = Setup.model_validate({"profile": "ocg2008", "turn": 3, "turn_player": turn_player, "phase": phase,
                                  "players": players})
    return Duel(card_id_uids(setup) if named else setup)


# --- examples -----------------------------------------------------------------------------


def test_cyclone_on_a_set_card_names_its_place_not_its_name() -> None:
    """「サイクロン」 targeting the opponent's Set 「聖なるバリア －ミラーフォース－」: the acting player sees
    "the face-down card in A's spell/trap zone 1", never the card (Look: the opponent's face-down
    cards may not be looked at)."""
    duel = duel_of({"A": {"cards": [{"card": "mirror_force", "zone": "spell_trap"}]},
                    "B": {"cards": [{"card": "cyclone"}]}}, turn_player="B")
    offered = {str(a): a.label for a in duel.legal_actions()}
    assert "activate cyclone>A.spell_trap.1" in offered
    label = offered["activate cyclone>A.spell_trap.1"]
    assert "ミラーフォース" not in label and "mirror_force" not in label
    assert "A的魔法与陷阱区域第1张里侧表示的卡" in label
    judge = {str(a): a.label for a in duel.legal_actions(judge=True)}
    assert "ミラーフォース" in judge["activate cyclone>mirror_force"]
    duel.apply("activate cyclone>A.spell_trap.1")  # the player's key is accepted
    assert duel.history[-1].choice == "cyclone>mirror_force"  # the judge's record names the card
    activation = next(r for r in reversed(duel.trace) if r.choice)
    assert "ミラーフォース" in activation.detail[0]
    seen_by_b = duel.trace_for("B")[activation.seq - 1]
    assert seen_by_b.choice == "cyclone>A.spell_trap.1"
    assert all("ミラーフォース" not in line for line in seen_by_b.detail)
    seen_by_a = duel.trace_for("A")[activation.seq - 1]  # A knows their own Set card
    assert "ミラーフォース" in seen_by_a.detail[0]


def test_a_face_down_attack_target_is_named_by_its_place() -> None:
    """Choosing to attack a face-down monster does not tell the attacker what it is (002 ●战斗阶段
    【攻击宣言・选择对象】; Look)."""
    duel = duel_of({"A": {"cards": [{"card": "sapphire_dragon", "zone": "monster"}]},
                    "B": {"cards": [{"card": "reflect_bounder", "zone": "monster", "position": "defence",
                                     "face_up": False}]}}, phase="battle_phase")
    while "declare_attack" not in {a.name for a in duel.legal_actions()}:
        duel.apply("pass")  # the Start Step
    duel.apply("declare_attack sapphire_dragon")
    targets = [(a.choice, a.label) for a in duel.legal_actions() if a.name == "choose_target"]
    assert targets == [("B.monster.1", "「B的怪兽区域第1张里侧表示的卡」")]
    duel.apply("choose_target B.monster.1")
    record = next(r for r in reversed(duel.trace_for("A")) if r.event == "choose_target")
    assert record.choice == "B.monster.1"
    assert all("リフレクト" not in line for line in record.detail)


def test_the_opponent_sees_a_set_as_a_place_in_the_trace() -> None:
    """The trace's choice of a Set names the Set card for the judge and its owner only; the
    opponent sees where it went (001 …（里侧表示通常召唤的场合不公开）; Look)."""
    duel = duel_of({"A": {"cards": [{"card": "mirror_force"}, {"card": "beetle_armor_knight"}]}})
    duel.apply("set_spell_trap mirror_force")
    while "set_monster" not in {a.name for a in duel.legal_actions()}:
        duel.apply("pass")
    duel.apply("set_monster beetle_armor_knight")
    sets = [r.seq for r in duel.trace if r.event in ("set_spell_trap", "set_monster")]
    assert [duel.trace[seq - 1].choice for seq in sets] == ["mirror_force", "beetle_armor_knight"]
    assert [duel.trace_for("A")[seq - 1].choice for seq in sets] == ["mirror_force", "beetle_armor_knight"]
    seen_by_b = [duel.trace_for("B")[seq - 1].choice for seq in sets]
    assert seen_by_b[0] == "A.spell_trap.1"
    assert seen_by_b[1] == "A.hand.1"  # declared while still in the hand (step 1)
    assert all("ミラーフォース" not in line and "甲虫装甲騎士" not in line
               for record in duel.trace_for("B") for line in record.detail)


def test_a_face_up_card_keeps_its_name_when_a_copy_is_hidden_in_the_deck() -> None:
    """A face-up monster is public knowledge (Look: only hands, decks and Set cards are hidden):
    changing its position is told with its name to both players, although a copy of the same
    card lies unseen in the deck — the hidden copy is not the card the line is about."""
    duel = duel_of({"A": {"cards": [{"card": "beetle_armor_knight", "zone": "monster"},
                                    {"card": "beetle_armor_knight", "zone": "deck"}]}})
    duel.apply("change_position beetle_armor_knight")
    record = next(r for r in reversed(duel.trace) if r.event == "change_position")
    assert any("「甲虫装甲騎士」" in line for line in record.detail)
    for viewer in PLAYERS:
        seen = duel.trace_for(viewer)[record.seq - 1]
        assert seen.detail == record.detail, viewer
        assert all("卡组" not in line for line in seen.detail), viewer


def test_a_summoned_monster_returned_to_the_hand_is_hidden_again() -> None:
    """A monster being Normal Summoned is shown to both players from its declaration (001
    【怪兽通常召唤…】３ 公开确认), but only while that summon lasts: once it is over and an effect
    returns the monster to its owner's hand, it is a card in the hand, which only its holder may
    look at (Look)."""
    recall = CardSpec.model_validate({"id": "recall", "name_ja": "recall", "name_zh": "recall", "type": "trap",
                                      "effects": [{"kind": "normal_trap", "location": "set", "target": "any_monster",
                                                   "resolution": [{"op": "return_to_hand", "what": "target"}]}]})
    setup = Setup.model_validate({"profile": "ocg2008", "turn": 3, "phase": "main_phase_1", "players": {
        "A": {"hand": 0, "cards": [{"card": "beetle_armor_knight"}]},
        "B": {"cards": [{"card": "recall", "zone": "spell_trap"}]}}})
    duel = Duel(card_id_uids(setup), library={**LIBRARY, "recall": recall})
    duel.apply("normal_summon beetle_armor_knight")
    assert "beetle_armor_knight" not in hidden_from(duel.game, "B"), "a summoned monster is shown"
    for _ in range(10):
        if duel.priority == "B" and not duel.in_state("main_phase_1.summon"):
            break
        duel.apply("pass")
    assert duel.state == "main_phase_1.open.opponent", "the summon is over"
    duel.apply("activate recall>beetle_armor_knight")
    while duel.chain:
        duel.apply("pass")
    assert duel.where("beetle_armor_knight") == ("A", Zone.hand)
    assert "beetle_armor_knight" in hidden_from(duel.game, "B")
    assert "beetle_armor_knight" not in hidden_from(duel.game, "A")

def test_observation_shows_own_hand_and_set_cards_and_only_counts_of_the_opponents_hand() -> None:
    """Each player knows their own hand and Set cards; of the opponent's hand only its size; of
    either deck only its size (Look)."""
    duel = duel_of({"A": {"hand": 2, "deck": 9, "cards": [{"card": "cyclone"}, {"card": "mirror_force",
                                                                                "zone": "spell_trap"}]},
                    "B": {"hand": 1, "deck": 7, "cards": [{"card": "dark_hole"},
                                                          {"card": "soul_rope", "zone": "spell_trap"}]}},
                   named=False)
    seen = duel.observation("A")
    assert seen.to_act == "A" and seen.state == duel.state and seen.phase == "main_phase_1"
    assert [c.card for c in seen.you.hand] == ["cyclone"] and seen.you.hand_count == 3
    assert [(c.card, c.face_up) for c in seen.you.spell_traps] == [("mirror_force", False)]
    assert seen.opponent.hand == () and seen.opponent.hand_count == 2
    assert [(c.place, c.face_up, c.card, c.uid, c.name) for c in seen.opponent.spell_traps] == [
        (1, False, None, None, None)]
    assert (seen.you.deck_count, seen.opponent.deck_count) == (9, 7)
    assert (seen.you.lp, seen.opponent.lp) == (8000, 8000)


def test_default_uids_name_the_starting_place_not_the_card() -> None:
    """A card given no uid is named by where it started (``b_spell_trap_1``); the uid a scenario
    gives is kept (scenario files name a card given none by its card id)."""
    duel = duel_of({"A": {"cards": [{"card": "cyclone"}, {"card": "cyclone"}, {"card": "jougen", "zone": "monster"}]},
                    "B": {"monsters": [{"name": "x"}],
                          "cards": [{"card": "soul_rope", "zone": "spell_trap"},
                                    {"card": "jougen", "zone": "monster", "uid": "mine"}]}}, named=False)
    uids = {p: sorted(c.uid for _, c in duel.players[p].all_cards()) for p in PLAYERS}
    assert uids == {"A": ["a_hand_1", "a_hand_2", "a_monster_1"], "B": ["b_monster_1", "b_spell_trap_1", "mine"]}
    named = duel_of({"A": {"cards": [{"card": "cyclone"}, {"card": "cyclone"}]}})
    assert sorted(c.uid for c in named.players["A"].hand_cards) == ["cyclone", "cyclone_2"]


# --- the properties -------------------------------------------------------------------------


def _hidden_cards(draw: st.DrawFn, fresh: bool, sizes: tuple[int, int, int], deck: list[str]) -> list[dict[str, Any]]:
    """The opponent's hand cards and face-down cards (``sizes``), then the deck: the same cards
    each time unless ``fresh`` (then random cards of the same kind, and the deck shuffled)."""
    def pick(pool: list[str], index: int) -> str:
        return draw(st.sampled_from(pool)) if fresh else pool[index % len(pool)]

    hand, set_monsters, set_cards = sizes
    cards: list[dict[str, Any]] = [{"card": pick(MONSTERS + SPELLS_TRAPS, i)} for i in range(hand)]
    cards += [{"card": pick(MONSTERS, i), "zone": "monster", "position": "defence", "face_up": False}
              for i in range(set_monsters)]
    cards += [{"card": pick(SPELLS_TRAPS, i), "zone": "spell_trap"} for i in range(set_cards)]
    order = draw(st.permutations(deck)) if fresh else deck
    return cards + [{"card": card, "zone": "deck"} for card in order]


@st.composite
def hidden_variants(draw: st.DrawFn) -> tuple[str, dict[str, Any], dict[str, Any]]:
    """A viewer and two setups that differ only in what the viewer may not know: the cards in
    the opponent's hand, which cards the opponent's face-down cards are, and the order of both
    decks."""
    viewer = draw(st.sampled_from(PLAYERS))
    base: dict[str, Any] = {}
    other: dict[str, Any] = {}
    for player in PLAYERS:
        public = [{"card": draw(st.sampled_from(MONSTERS)), "zone": "monster"} for _ in range(draw(st.integers(0, 2)))]
        public += [{"card": draw(st.sampled_from(SPELLS_TRAPS + MONSTERS)), "zone": "graveyard"}
                   for _ in range(draw(st.integers(0, 2)))]
        deck = [draw(st.sampled_from(MONSTERS + SPELLS_TRAPS)) for _ in range(draw(st.integers(0, 4)))]
        if player == viewer:  # the viewer's own hand and Set card are the same in both
            sizes = (0, 0, 0)
            public += [{"card": "cyclone"}, {"card": "soul_rope", "zone": "spell_trap"}][:draw(st.integers(0, 2))]
        else:
            sizes = (draw(st.integers(0, 3)), draw(st.integers(0, 3)), draw(st.integers(0, 3)))
        base[player] = {"hand": 1, "deck": 5, "cards": public + _hidden_cards(draw, False, sizes, deck)}
        other[player] = {"hand": 1, "deck": 5, "cards": public + _hidden_cards(draw, True, sizes, deck)}
    return viewer, base, other


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(variants=hidden_variants(), phase=st.sampled_from(["main_phase_1", "end_phase"]))
def test_states_differing_only_in_hidden_information_look_the_same(
        variants: tuple[str, dict[str, Any], dict[str, Any]], phase: str) -> None:
    """observation(p) of two duels that differ only in what p may not know are equal, and so are
    the options offered to p (Look).
    With the default uids: the card-id names of scenario files are the judge's (a face-up
    ``jougen_2`` says another 「昇霊術師 ジョウゲン」 is somewhere)."""
    viewer, base, other = variants
    first, second = (duel_of(players, turn_player=viewer, phase=phase, named=False) for players in (base, other))
    assert first.observation(viewer) == second.observation(viewer)
    if first.priority == viewer:  # and the options offered to the viewer read the same
        assert [(str(a), a.label) for a in first.legal_actions()] == [(str(a), a.label) for a in second.legal_actions()]


def test_a_difference_the_viewer_may_see_shows() -> None:
    """The same check tells public differences apart: a face-up monster, a graveyard card, the
    viewer's own Set card (the property above could fail)."""
    def seen(card: str, zone: str, owner: str) -> Observation:
        return duel_of({owner: {"cards": [{"card": card, "zone": zone}]}}).observation("A")

    assert seen("jougen", "monster", "B") != seen("killer_snake", "monster", "B")
    assert seen("cyclone", "graveyard", "B") != seen("dark_hole", "graveyard", "B")
    assert seen("mirror_force", "spell_trap", "A") != seen("soul_rope", "spell_trap", "A")
    assert seen("mirror_force", "spell_trap", "B") == seen("soul_rope", "spell_trap", "B")


def _fields(value: Any, keys: tuple[str, ...]) -> list[str]:
    """Every string under one of ``keys`` in nested data."""
    found: list[str] = []
    if isinstance(value, dict):
        for key, item in value.items():
            if key in keys and isinstance(item, str):
                found.append(item)
            found += _fields(item, keys)
    elif isinstance(value, list | tuple):
        for item in value:
            found += _fields(item, keys)
    return found


_TOKENS = re.compile(r"[>+#]")


def _leaks(duel: Duel, player: str) -> tuple[set[str], set[str]]:
    """The uids and names of the cards hidden from ``player`` (names no card they may see has)."""
    hidden = hidden_from(duel.game, player)
    shown = {c.name for p in PLAYERS for _, c in duel.players[p].all_cards() if c.uid not in hidden}
    summon = duel.summon
    if summon is not None and summon.card is not None and summon.card.uid not in hidden:
        shown.add(summon.card.name)  # the monster being summoned, taken out (in no zone)
    return set(hidden), {h.name for h in hidden.values()} - shown


def _check_no_leak(duel: Duel, new_records: list[TraceRecord]) -> None:
    for player in PLAYERS:
        uids, names = _leaks(duel, player)
        seen = duel.observation(player).to_dict()
        shown_uids = set(_fields(seen, ("uid", "target", "attacker", "attack_target")))
        assert not uids & shown_uids, (player, uids & shown_uids)
        seen.pop("chain")  # an activated card was shown face-up: its name stays public
        shown_names = set(_fields(seen, ("name",)))
        assert not names & shown_names, (player, names & shown_names)
        if duel.priority == player:
            for action in duel.legal_actions():
                tokens = {t.removeprefix("until_") for t in _TOKENS.split(action.choice or "")}
                assert not tokens & uids, (str(action), tokens & uids)
                assert not any(f"「{name}」" in action.label for name in names), action.label
        for record in new_records:
            view = record.for_player(player)
            tokens = {t.removeprefix("until_") for t in _TOKENS.split(view.choice or "")}
            assert not tokens & uids, (view.choice, tokens & uids)
            assert not any(f"「{name}」" in line for line in view.detail for name in names), view.detail


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(setup=setups(), data=st.data())
def test_random_play_never_shows_a_player_a_card_hidden_from_them(setup: Setup, data: st.DataObject) -> None:
    """Throughout random legal play, neither a player's observation, nor the options offered to
    them, nor their view of each new trace record names (by uid or name) a card hidden from them
    (Look)."""
    try:
        duel = Duel(card_id_uids(setup) if data.draw(st.booleans(), label="card-id uids") else setup)
    except ValueError:  # the shared strategy may put more than five cards in a zone
        assume(False)
        return
    _check_no_leak(duel, list(duel.trace))
    for _ in range(80):
        if duel.is_over:
            break
        legal = duel.legal_actions()
        action = legal[data.draw(st.integers(0, len(legal) - 1), label="action")]
        before = len(duel.trace)
        duel.apply(action)
        _check_no_leak(duel, list(duel.trace[before:]))
        if duel.is_over:
            break


# --- the trace file ------------------------------------------------------------------------------


def test_each_record_holds_lp_and_hand_counts() -> None:
    """A record says both players' LP and hand size once its transition is taken: activating
    「ブラック・ホール」 from the hand leaves the hand one card smaller (000 CHAIN1 …发动)."""
    duel = duel_of({"A": {"hand": 2, "cards": [{"card": "dark_hole"}, {"card": "jougen", "zone": "monster"}]}})
    first = duel.trace[-1]
    assert first.lp is not None and first.hand is not None
    assert (first.lp.A, first.lp.B, first.hand.A, first.hand.B) == (8000, 8000, 3, 5)
    duel.apply("activate dark_hole")
    assert duel.trace[-1].hand is not None and duel.trace[-1].hand.A == 2


def test_a_trace_file_has_a_header_and_replays_and_narrates_alone(tmp_path: Any) -> None:
    """A trace file starts with the setup (profile included): narrate reads it, a replay from it
    gives the same records; refused attempts are kept when asked for."""
    from ygo_fsm.errors import IllegalActionError, TraceFormatError
    from ygo_fsm.trace import dumps, loads, narrate, read_trace

    setup = card_id_uids(Setup.model_validate({"profile": "ocg2008", "turn": 3, "phase": "main_phase_1",
                                               "players": {"A": {"cards": [{"card": "cyclone"}]}}}))
    duel = Duel(setup, record_refusals=True)
    duel.apply("set_spell_trap cyclone")
    with contextlib.suppress(IllegalActionError):
        duel.apply("enter_battle_phase")
    duel.apply("pass")
    path = tmp_path / "t.jsonl"
    path.write_text(duel.trace_jsonl(), encoding="utf-8")
    read = read_trace(path)
    assert read.header is not None and read.header.profile == "ocg2008"
    assert read.records == duel.trace
    assert [r.action for r in read.refusals] == ["enter_battle_phase"]
    assert "only offered in" in read.refusals[0].reason
    replayed = Duel.from_trace(path.read_text(encoding="utf-8"))
    assert replayed == duel and replayed.trace == duel.trace
    assert narrate(read.records, duel.rulebook.specs) == narrate(duel.trace, duel.rulebook.specs)
    assert loads(dumps(duel.trace)) == list(duel.trace)  # a file without a header reads as before
    try:
        Duel.from_trace(dumps(duel.trace))
    except TraceFormatError as exc:
        assert "no header" in str(exc)
    else:
        raise AssertionError("a trace without a header replayed")


def _deck(duel: Duel, player: str) -> tuple[str, ...]:
    """The player's deck, top first, by uid: a draw leaves the rest of it as it was; a card taken
    from further down means the player looked through it (an effect choosing from the deck)."""
    return tuple(card.uid for card in duel.players[player].deck_cards)


def _public(duel: Duel, viewer: str) -> list[tuple[str, str, str | None, bool]]:
    """What is face-up for everyone, read straight from the game state: each player's face-up
    field cards, graveyard and banished cards (and the viewer's own hand and Set cards)."""
    shown = []
    for player, state in duel.players.items():
        for zone, card in state.all_cards():
            public = zone.value in ("graveyard", "banished", "lingering") or (
                zone.value in ("monster", "spell_trap", "field_zone") and card.face_up)
            if public or (player == viewer and zone.value != "deck"):
                shown.append((player, zone.value, card.card.id if card.card else card.name, card.face_up))
    return sorted(shown, key=str)


def _searched_deck(top: str, second: str) -> dict[str, Any]:
    cards = [{"card": "rogue_mercenaries", "zone": "monster"}, {"card": "rogue_mercenaries", "zone": "monster"},
             {"card": "cyclone"}, {"card": "soul_rope", "zone": "spell_trap"}, {"card": top, "zone": "deck"},
             {"card": second, "zone": "deck"}, *({"card": "beetle_armor_knight", "zone": "deck"},) * 2]
    return {"A": {"hand": 1, "deck": 5, "cards": cards}, "B": {"hand": 1, "deck": 5, "cards": []}}


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(variants=hidden_variants(), seed=st.integers(0, 2**32))
@example(variants=("A", _searched_deck("beetle_armor_knight", "blue_eyes_shining_dragon"),
                   _searched_deck("blue_eyes_shining_dragon", "beetle_armor_knight")), seed=0)
def test_states_differing_only_in_hidden_information_look_the_same_after_play(
        variants: tuple[str, dict[str, Any], dict[str, Any]], seed: int) -> None:
    """The same after play (Look): the viewer takes the same actions — chosen from what they are
    shown — in both duels and the other player passes; as long as the public cards are the same
    in both (nothing hidden has been revealed) and the viewer has not looked through their deck
    (an effect choosing a card from it: its owner sees the whole deck), the viewer's observation and
    options are equal."""
    import random

    viewer, base, other = variants
    first, second = (duel_of(players, turn_player=viewer, named=False) for players in (base, other))
    decks = [_deck(duel, viewer) for duel in (first, second)]
    choose = random.Random(seed).choice
    for _ in range(60):
        if first.is_over or second.is_over or _public(first, viewer) != _public(second, viewer):
            break  # a hidden card was revealed (or the duel ended): the views may now differ
        if any(_deck(duel, viewer) != deck[len(deck) - len(_deck(duel, viewer)):]
               for duel, deck in zip((first, second), decks, strict=True)):
            break  # the viewer searched their deck (「ソウル・ロープ」): they looked through it
        assert first.observation(viewer) == second.observation(viewer)
        if first.priority == viewer:
            offered = [str(a) for a in first.legal_actions()]
            assert offered == [str(a) for a in second.legal_actions()]
            action = choose(offered)
        elif "pass" in [a.name for a in first.legal_actions()]:
            action = "pass"
        else:
            break
        first.apply(action)
        second.apply(action)


def test_a_sight_keeps_the_zones_an_earlier_one_saw_unchanged_and_sees_the_rest_anew() -> None:
    """A record's sight is what masking reads of the game at that moment; where the cards did not
    move since the sight before, the later sight holds the same tuples (one copy of the zones for
    both records), and a zone whose cards moved holds them as they are now."""
    from ygo_fsm.views import sight

    duel = Duel.new_game(["sage_chiron"] * 40, ["reflect_bounder"] * 40, seed=3)
    game = duel.game
    first = sight(game)
    same = sight(game, first)
    assert same.zones is first.zones and same.face_up is first.face_up
    a = game.players["A"]
    drawn = a.deck_cards.pop(0)
    a.hand_cards.append(drawn)
    moved = sight(game, first)
    a_before, a_now = first.zones[0], moved.zones[0]
    changed = [i for i, (old, new) in enumerate(zip(a_before, a_now, strict=True)) if old is not new]
    assert moved.zones[1] is first.zones[1]  # B's zones: nothing moved there
    assert [a_now[i] for i in changed] == [tuple(a.hand_cards), tuple(a.deck_cards)]
    assert a_now == sight(game).zones[0]  # what a fresh sight sees


def _zones_read_afresh(game: Any) -> tuple[tuple[tuple[Any, ...], ...], ...]:
    """Every zone's cards, per player, read from the live lists (no tuple a zone keeps)."""
    from ygo_fsm.state import ZONE_ATTRIBUTES

    return tuple(tuple(tuple(list(getattr(game.players[p], attribute))) for attribute in ZONE_ATTRIBUTES.values())
                 for p in ("A", "B"))


def _shuffle(cards: list[Any]) -> None:
    import random

    random.Random(1).shuffle(cards)


def _set_slice(cards: list[Any]) -> None:
    cards[1:3] = cards[2:0:-1]


def _delete_first(cards: list[Any]) -> None:
    del cards[0]


def _swap_first_two(cards: list[Any]) -> None:
    cards[0], cards[1] = cards[1], cards[0]


def _add_in_place(cards: list[Any]) -> None:
    cards += [cards[0]]


def _double(cards: list[Any]) -> None:
    cards *= 2


_LIST_CHANGES = {
    "append": lambda cards: cards.append(cards[0]), "insert": lambda cards: cards.insert(1, cards[-1]),
    "extend": lambda cards: cards.extend(cards[:2]), "pop": lambda cards: cards.pop(),
    "pop(0)": lambda cards: cards.pop(0),
    "remove": lambda cards: cards.remove(cards[1]), "clear": lambda cards: cards.clear(),
    "sort": lambda cards: cards.sort(key=lambda card: card.uid, reverse=True), "reverse": lambda cards: cards.reverse(),
    "item": _swap_first_two, "slice": _set_slice, "del": _delete_first, "+=": _add_in_place, "*=": _double,
    "shuffle": _shuffle,
}


@pytest.mark.parametrize("change", sorted(_LIST_CHANGES))
def test_a_sight_sees_a_zone_list_changed_from_outside_in_any_way_a_list_changes(change: str) -> None:
    """What a player may know follows every card that moves (Yugipedia "Look": neither player may look at
    a deck, each may look at their own hand): a duel changed from outside, by any method that changes a
    list in place, is masked as its zones are now. A trace's sight after the change holds the cards as
    the lists hold them, never the ones a zone held before."""
    from ygo_fsm.views import SightKeeper, sight

    duel = Duel.new_game(["sage_chiron"] * 40, ["reflect_bounder"] * 40, seed=4)
    game = duel.game
    keeper = SightKeeper()
    keeper.see(game)
    for attribute in ("hand_cards", "deck_cards"):
        before = keeper.see(game)
        cards = getattr(game.players["A"], attribute)
        cards[0] = cards[0]  # the same cards: what a sight holds does not change
        assert keeper.see(game).zones == before.zones
        _LIST_CHANGES[change](cards)
        now = _zones_read_afresh(game)
        assert now != before.zones
        assert keeper.see(game).zones == now and sight(game).zones == now, f"{attribute} after {change}"


def test_a_sight_sees_a_zone_given_a_new_list() -> None:
    """A zone whose list is replaced from outside (``player.hand_cards = [...]``) is masked as the new list
    holds it; the new list goes on being read as the zone (its later changes are seen too)."""
    from ygo_fsm.views import SightKeeper

    duel = Duel.new_game(["sage_chiron"] * 40, ["reflect_bounder"] * 40, seed=4)
    game, keeper = duel.game, SightKeeper()
    keeper.see(game)
    a = game.players["A"]
    a.hand_cards = list(reversed(a.hand_cards))
    assert keeper.see(game).zones == _zones_read_afresh(game)
    a.hand_cards.append(a.deck_cards.pop())
    assert keeper.see(game).zones == _zones_read_afresh(game)
    b = game.players["B"]
    a.monsters = b.hand_cards  # another player's list: copied, so B's hand is still B's alone
    b.hand_cards.pop()
    assert keeper.see(game).zones == _zones_read_afresh(game)
    assert len(a.monsters) == len(b.hand_cards) + 1


def test_every_sight_a_trace_keeps_is_what_a_fresh_sight_sees_at_that_moment(monkeypatch: Any) -> None:
    """A row's sight is what masking reads of the game just after its transition, whether it shares
    the zones of the sight before or not: in random duels with effects, saved and loaded and copied
    halfway, each sight the keeper takes equals one taken afresh."""
    import random

    from ygo_fsm import views
    from ygo_fsm.bench_duels import MIXED_DECK
    from ygo_fsm.views import sight

    checked = {"sights": 0, "shared": 0}
    see = views.SightKeeper.see

    def checked_see(keeper: views.SightKeeper, game: Any) -> Any:
        before = keeper.last
        seen = see(keeper, game)
        assert seen == sight(game), "a kept sight differs from what the game shows now"
        assert seen.zones == _zones_read_afresh(game), "a kept sight differs from the zone lists now"
        checked["sights"] += 1
        checked["shared"] += before is not None and seen.zones is before.zones
        return seen

    monkeypatch.setattr(views.SightKeeper, "see", checked_see)
    for seed in (5, 6):
        duel = Duel.new_game(list(MIXED_DECK), list(MIXED_DECK), seed=seed)
        choose = random.Random(seed).choice
        for step in range(400):
            if duel.is_over:
                break
            if step == 100:
                duel = Duel.from_json(duel.to_json())
            elif step == 200:
                duel = duel.copy()
            duel.apply(choose(duel.legal_actions()))
    assert checked["shared"] > 0 and checked["sights"] > checked["shared"]
