"""Priority with activations and phase effects, the chain and the timing windows (registered by
name in :mod:`ygo_fsm.registry`)."""

from __future__ import annotations

from . import chain, effects, multi_target, priority
from .registry import _acting, _choice, callback, cards_stay, chooser, guard, lists_effects_of_sort
from .state import Choice, Frame

# --- priority with activations and phase effects (issue: chains) ----------------------------


@chooser
@lists_effects_of_sort("open_state")
def open_state_activations(frame: Frame) -> list[Choice]:
    """What the player with priority may activate in the open game state (000 every ◇ block)."""
    game = frame.game
    return effects.open_state_activations(game, priority.holder(game) or game.turn_player)


@chooser
def phase_processing(frame: Frame) -> list[Choice]:
    """Phase effects handled without a chain link (000 ●スタンバイフェイズ【２】·『准备流程时～』的效果的处理)."""
    game = frame.game
    if game.effect_cards is False and not game.expiring:  # (GameState.has_effect_cards, as found)
        return []  # no card of the duel has an effect, and none lasts until a phase: nothing to process
    return effects.phase_processing(game, priority.holder(game) or game.turn_player)


@chooser
@lists_effects_of_sort("open_state")
def pending_phase_activations(frame: Frame) -> list[Choice]:
    """The phase effects the player must now handle, to activate (000 例2: 回合玩家先处理)."""
    game = frame.game
    player = priority.holder(game) or game.turn_player
    return [c for c in effects.open_state_activations(game, player) if effects.is_phase_choice(game, c.key)]


@guard
def turn_player_has_pending_effects(frame: Frame) -> bool:
    """Both passed while effects are pending: the turn player handles theirs first (000 ●スタンバイフェイズ 例2)."""
    game = frame.game
    return effects.pending_phase_effects(game, game.turn_player)


@guard
def opponent_has_pending_effects(frame: Frame) -> bool:
    """The opponent still has a phase effect to handle (000 ●スタンバイフェイズ【２】◇持有优先权的对方玩家…)."""
    game = frame.game
    return effects.pending_phase_effects(game, game.opponent)


@callback
def activate_effect(frame: Frame) -> None:
    """Activate the chosen effect: costs, the card onto the field, a new chain link (000 CHAIN n)."""
    chain.activate(frame.game, _acting(frame), _choice(frame))


@callback
def process_phase_effect(frame: Frame) -> None:
    """Process the chosen phase effect without a chain link (000 ·…的效果的处理（不进入连锁）)."""
    chain.process_phase_effect(frame.game, _acting(frame), _choice(frame))


# --- the chain ------------------------------------------------------------------------------


@chooser
@lists_effects_of_sort("response")
def chain_responses(frame: Frame) -> list[Choice]:
    """Spell speed 2+ effects not below the newest link (000 2速以上的卡; counter traps answer only 3)."""
    game = frame.game
    return effects.chain_responses(game, priority.holder(game) or game.turn_player)


@guard
def declaring_targets(frame: Frame) -> bool:
    """The newest link's effect takes several targets and its player is still choosing them: they
    are all chosen on activation, before anyone may respond (Yugipedia "Target")."""
    return effects.declaring(frame.game) is not None


@guard
def may_add_target(frame: Frame) -> bool:
    """The link being activated has room for another target and a card that fits is left
    (「～を２枚まで対象として」: up to N; Yugipedia "Target")."""
    return bool(effects.further_targets(frame.game))


@guard
def enough_targets(frame: Frame) -> bool:
    """The link being activated has as many targets as its effect needs (one for "up to N", N for
    "exactly N": 「～２枚を対象として」; Yugipedia "Target")."""
    being_declared = effects.declaring(frame.game)
    return being_declared is not None and multi_target.enough(being_declared[0], being_declared[3])


@chooser
def further_targets(frame: Frame) -> list[Choice]:
    """The cards that fit the effect being activated and are not its targets yet (Yugipedia "Target")."""
    return effects.further_targets(frame.game)


@callback
@cards_stay
def add_target(frame: Frame) -> None:
    """Add the chosen card to the targets of the effect being activated (Yugipedia "Target")."""
    chain.add_target(frame.game, _choice(frame))


@callback
@cards_stay
def finish_targets(frame: Frame) -> None:
    """The targets are declared; the other player may now respond (Yugipedia "Target")."""
    chain.finish_targets(frame.game)


@guard
def chain_has_links(frame: Frame) -> bool:
    """Links remain on the chain (000 逆算: resolve the newest link first)."""
    return bool(frame.game.chain)


@callback
def begin_resolution(frame: Frame) -> None:
    """Both passed in succession: the chain resolves, newest link first (000 逆算)."""
    chain.begin_resolution(frame.game)


@callback
def resolve_top_link(frame: Frame) -> None:
    """Resolve the newest link; a negated link is skipped (000 CHAIN2「我が身を盾に」被无效不处理)."""
    chain.resolve_top_link(frame.game)


@callback
def finish_chain(frame: Frame) -> None:
    """The chain is resolved; priority returns to the turn player after the window (000 （优先权归还给回合玩家）)."""
    chain.finish_chain(frame.game)


# --- timing windows -------------------------------------------------------------------------


@callback
@cards_stay
def collect_triggers(frame: Frame) -> None:
    """Open a timing window for what just happened and sort the triggers it met into the
    priority list (000 ※回合的流程/阶段中，卡／效果的发动时点的出现条件)."""
    game = frame.game
    restricted = ends_after_chain = False
    if frame.parent is not None and frame.invoked_as is not None:
        state = game.state_specs[(frame.parent, frame.invoked_as)]
        restricted, ends_after_chain = state.restricts_chain1, state.restriction_ends_after_chain
    chain.open_window(game, restricted=restricted, ends_after_chain=ends_after_chain)


@callback
@cards_stay
def close_window(frame: Frame) -> None:
    """Nobody started a CHAIN1: the window is over (000 双方都不发动卡／效果，都放弃优先权，时点结束)."""
    chain.close_window(frame.game)


@guard
def triggers_to_place(frame: Frame) -> bool:
    """Simultaneous triggers met by the window's events are still to be put on the chain (000 priority list 1–4)."""
    return chain.current_tier(frame.game) is not None


@guard
def optional_tier(frame: Frame) -> bool:
    """The triggers being placed are optional ones (000 任意发动的诱发效果): they may be declined."""
    tier = chain.current_tier(frame.game)
    return tier is not None and not tier.mandatory


@chooser
def tier_triggers(frame: Frame) -> list[Choice]:
    """The current tier's triggers; the player orders their own (000 卡／效果发动的优先顺序)."""
    return chain.tier_choices(frame.game)


@callback
def place_trigger(frame: Frame) -> None:
    """Put the chosen trigger on the chain (000 CHAIN n 回合玩家发动…的诱发效果)."""
    chain.place_trigger(frame.game, _acting(frame), _choice(frame))


@callback
def decline_triggers(frame: Frame) -> None:
    """The player does not activate their remaining optional triggers (000 任意发动)."""
    chain.decline_tier(frame.game)


@chooser
@lists_effects_of_sort("chain1")
def window_chain1(frame: Frame) -> list[Choice]:
    """CHAIN1 once the triggers are placed: the turn player's ignition effect (Main Phase; after a
    chain only if its last action was a summon — 001 例1/例2), then spell speed 2+ (000 5–7)."""
    game = frame.game
    return effects.window_chain1(game, priority.holder(game) or game.turn_player)


@chooser
@lists_effects_of_sort("chain1")
def window_fast_effects(frame: Frame) -> list[Choice]:
    """CHAIN1 once the triggers are placed, fast effects only: after a summon that starts no chain
    and after a chain the turn player may respond only with spell speed 2+; an ignition effect
    needs the open game state (FET; PR17 p.109)."""
    game = frame.game
    return effects.window_chain1(game, priority.holder(game) or game.turn_player, ignition=False)
