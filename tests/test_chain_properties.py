"""Property test: random legal play with random cards from the shipped library always ends every
chain and every timing window, and the chain state stays consistent with the state path.

Rules checked (000 ※回合的流程/阶段中，卡／效果的发动时点的出现条件): a chain is built, then both players
pass and it resolves newest link first (逆算); after it a window opens, and it repeats "直到没有人在
『连锁处理结束后的发动时点』用卡／效果作为CHAIN1发动为止"; then the turn player goes on. Nothing in the
rules lets a chain or a window last forever, and a player always has something to do (at least
pass or decline) while the duel is not over.
"""

from __future__ import annotations

from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from ygo_fsm import Duel, Setup
from ygo_fsm.cards import CardType, EffectKind, default_library
from ygo_fsm.game import PLAYERS, other_player

MAX_ACTIONS = 200
BOUND = 100
"""Actions within which a chain must be resolved and a window left once entered. Every link is a
card activated once (it moves to the field, turns face up or leaves), so with a dozen cards a
chain or a run of windows takes a few dozen actions at most."""

LIBRARY = default_library()
CARD_IDS = sorted(LIBRARY)
START_PHASES = ["draw_phase", "standby_phase", "main_phase_1", "battle_phase", "main_phase_2", "end_phase"]


@st.composite
def placements(draw: st.DrawFn) -> dict[str, object]:
    card_id = draw(st.sampled_from(CARD_IDS))
    if LIBRARY[card_id].type is CardType.monster:
        zone = draw(st.sampled_from(["hand", "monster", "graveyard"]))
        return {"card": card_id, "zone": zone}
    zone = draw(st.sampled_from(["hand", "spell_trap", "spell_trap", "graveyard"]))
    if zone == "spell_trap" and any(e.kind is EffectKind.field_spell for e in LIBRARY[card_id].effects):
        zone = "hand"  # a Field Spell is Set in the Field Zone only (one per player)
    placement: dict[str, object] = {"card": card_id, "zone": zone}
    if zone == "spell_trap":
        placement["set_turn"] = 0
    return placement


@st.composite
def setups(draw: st.DrawFn) -> Setup:
    players: dict[str, dict[str, object]] = {}
    for player in PLAYERS:
        cards = draw(st.lists(placements(), min_size=1, max_size=7))
        on_field = [c for c in cards if c["zone"] == "monster"]
        set_cards = [c for c in cards if c["zone"] == "spell_trap"]
        players[player] = {
            "hand": draw(st.integers(0, 7)),
            "deck": draw(st.integers(1, 8)),
            "lp": draw(st.sampled_from([8000, 8000, 1000])),
            # at most five monsters and five Set spells/traps on a field
            "cards": [c for c in cards if c["zone"] not in ("monster", "spell_trap")] + on_field[:5] + set_cards[:5],
        }
    return Setup.model_validate({
        "profile": draw(st.sampled_from(["ocg2008", "modern"])),
        "turn": draw(st.integers(2, 4)),
        "turn_player": draw(st.sampled_from(PLAYERS)),
        "phase": draw(st.sampled_from(START_PHASES)),
        "players": players,
    })


def machines(duel: Duel) -> list[str]:
    return [frame.machine for frame in duel.frames]


def check_consistent(duel: Duel) -> None:
    """What must hold after every action. Once the duel is over (LP 0 mid-chain, deck-out) play stops
    where it was — the duel ends at once, even during a chain — so only "no action" is checked."""
    if duel.is_over:
        assert duel.legal_actions() == [] and duel.priority is None
        return
    frames = duel.frames
    in_chain = "chain" in machines(duel)
    placing_triggers = frames[-1].machine == "trigger_window" and frames[-1].state == "build"
    if duel.chain:
        # links exist only while a chain is being built or resolved, or while simultaneous
        # triggers are being put on it (000 卡／效果发动的优先顺序（组成一组连锁）)
        assert in_chain or placing_triggers, f"chain {[link.uid for link in duel.chain]} outside a chain: {duel.state}"
        assert [link.number for link in duel.chain] == list(range(1, len(duel.chain) + 1))
    else:
        assert not in_chain, f"in {duel.state} with an empty chain"
    if in_chain:
        chain_frame = next(f for f in frames if f.machine == "chain")
        last = duel.chain[-1].controller
        # each new link hands priority to the other player; after their pass the last activator
        if chain_frame.state == "building":
            assert duel.priority == other_player(last)
        elif chain_frame.state == "confirming":
            assert duel.priority == last
    assert (duel.window is not None) == ("trigger_window" in machines(duel)), duel.state
    legal = duel.legal_actions()
    assert legal, f"stuck in {duel.state}"
    assert all(action.player == duel.priority for action in legal)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(setup=setups(), data=st.data())
def test_random_play_ends_every_chain_and_every_window(setup: Setup, data: st.DataObject) -> None:
    """000 ※…发动时点的出现条件 / every CHAIN n … 逆算 example: chains resolve newest link first and end;
    windows end once nobody starts a CHAIN1; the duel never gets stuck."""
    duel = Duel(setup)
    chain_since: int | None = None
    window_since: int | None = None
    longest_chain = 0
    windows_left = 0
    for step in range(MAX_ACTIONS):
        check_consistent(duel)
        if duel.is_over:
            break
        legal = duel.legal_actions()
        action = legal[data.draw(st.integers(0, len(legal) - 1), label="action")]
        links_before = len(duel.chain)
        resolutions_before = len(duel.resolutions)
        duel.apply(action)
        new = [number for _, number, _, _ in duel.resolutions[resolutions_before:]]
        if duel.is_over:
            break  # the duel ends at once, even in the middle of a chain
        if new and not duel.chain:
            # 逆算: the whole chain resolved, CHAINn first down to CHAIN1
            assert new == list(range(links_before, 0, -1)), (new, links_before)
        elif new:
            raise AssertionError(f"part of a chain resolved and links remain: {new}, {duel.state}")
        longest_chain = max(longest_chain, len(duel.chain))
        if duel.chain:
            chain_since = step if chain_since is None else chain_since
            assert step - chain_since < BOUND, f"chain not resolved after {BOUND} actions: {duel.state}"
        else:
            chain_since = None
        if "trigger_window" in machines(duel):
            window_since = step if window_since is None else window_since
            assert step - window_since < BOUND, f"window not left after {BOUND} actions: {duel.state}"
        elif window_since is not None:
            window_since = None
            windows_left += 1
    check_consistent(duel)
    # then nobody activates anything more: whatever chain or window is open must end
    for _ in range(BOUND):
        if duel.is_over or (not duel.chain and "trigger_window" not in machines(duel)):
            break
        legal = duel.legal_actions()
        quiet = [a for a in legal if a.name in ("pass", "decline")]
        duel.apply((quiet or legal)[0])
        check_consistent(duel)
    assert duel.is_over or (not duel.chain and "trigger_window" not in machines(duel)), duel.state
    event(f"longest chain {min(longest_chain, 3)}{'+' if longest_chain >= 3 else ''}")
    event("a chain resolved" if duel.resolutions else "no chain")
    event("duel over" if duel.is_over else "duel goes on")
