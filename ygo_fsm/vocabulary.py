"""The effect vocabulary's rules of composition, as data: which operation takes which ``what:``,
which needs a target, which lasts ``until:`` a duration, and which effect kinds a card type may
carry. :func:`ygo_fsm.cards.card_problems` checks card files against these tables, and
:mod:`ygo_fsm.reference` prints them in the generated reference page (``docs/effects.md``).

The words themselves (events, subjects, causes, origins, conditions, targets, costs,
durations) are the enums and models of :mod:`ygo_fsm.cards`; this module names them by their
YAML ids only, so that it depends on nothing.

>>> sorted(OPERATION_WHAT["return_to_hand"])
['event_card', 'self', 'target']
>>> "target" in OPERATION_WHAT["change_position"]
True
"""

from __future__ import annotations

CARD_FILTERS = "a card id, a race (``spellcaster``), ``level_N``, ``monster``, ``spell`` or ``trap``"
"""What ``what:`` may also be for operations that pick a card by what it is (``*`` in the table)."""

OPERATION_WHAT: dict[str, frozenset[str]] = {
    "destroy": frozenset({"target", "self", "event_card", "attacker", "all_monsters",
                          "opponent_attack_position_monsters"}),
    "send_to_graveyard": frozenset({"target", "self", "event_card", "all_except_target"}),
    "banish": frozenset({"target", "self", "event_card"}),
    "return_to_hand": frozenset({"target", "self", "event_card"}),
    "return_to_deck": frozenset({"target", "self", "event_card"}),
    "special_summon": frozenset({"target", "self", "event_card", "*"}),
    "change_position": frozenset({"target", "self", "event_card", "all_face_up"}),
    "modify_atk": frozenset({"target", "self", "event_card", "attacker"}),
    "modify_def": frozenset({"target", "self", "event_card", "attacker"}),
    "halve_atk": frozenset({"attacker", "target"}),
    "take_control": frozenset({"target", "event_card"}),
    "negate_effects": frozenset({"target", "event_card"}),
    "search": frozenset({"*"}),
    "tribute": frozenset({"own_monster"}),
    "equip": frozenset({"target"}),
    "skip_phase": frozenset({"draw_phase", "standby_phase", "main_phase_1", "battle_phase"}),
}
"""The ``what:`` each operation takes (the first is its default where it has one); an
operation not listed takes none, and giving it one is an error."""

DEFAULT_WHAT: dict[str, str] = {"tribute": "own_monster"}
"""Operations whose ``what:`` defaults to something other than ``target``."""

LASTING_OPERATIONS = frozenset({"modify_atk", "modify_def", "halve_atk", "take_control", "banish",
                                "negate_effects", "no_battle_damage"})
"""Operations that may last ``until:`` a duration (and then are undone)."""

OPERATION_FIELDS: dict[str, frozenset[str]] = {
    "amount": frozenset({"damage", "recover", "draw", "discard", "special_summon", "modify_atk", "modify_def",
                         "pay_lp", "token"}),
    "amount_of": frozenset({"damage", "recover"}),
    "to": frozenset({"damage", "recover", "draw", "discard", "skip_phase", "pay_lp", "special_summon", "token",
                     "no_battle_damage"}),
    "name": frozenset({"callable", "token"}),
    "atk": frozenset({"token"}),
    "defence": frozenset({"token"}),
    "destroy": frozenset({"negate_activation"}),
}
"""The operations that read each of these fields; giving it to another operation is an error."""

NEEDS_DURATION = frozenset({"negate_effects"})
"""Operations that only mean something with ``until:``."""

POSITION_OPERATIONS = frozenset({"special_summon", "change_position", "token"})
"""Operations that take ``position:``."""

SOURCE_OPERATIONS = frozenset({"special_summon"})
"""Operations that take ``from:`` (where the card is taken from)."""

TARGETED_AMOUNTS = frozenset({"target_atk"})
"""``amount_of:`` values that read the effect's target."""

AMOUNTS_OF = frozenset({"attacker_atk", "target_atk"})

KINDS_BY_CARD_TYPE: dict[str, frozenset[str]] = {
    "monster": frozenset({"ignition", "trigger", "flip", "quick", "continuous", "processing"}),
    "spell": frozenset({"normal_spell", "quick_play_spell", "continuous_spell", "field_spell", "equip_spell",
                        "continuous", "processing"}),
    "trap": frozenset({"normal_trap", "continuous_trap", "counter_trap", "continuous", "processing"}),
}
"""Effect kinds a card of each type may have (000: 怪兽的效果 — 起动/诱发/诱发即时/翻转/永续;
魔法卡和陷阱卡的发动; a card's continuous effect and its processing without a chain link)."""

LASTING_CARD_KINDS = frozenset({"continuous_spell", "continuous_trap", "field_spell", "equip_spell"})
"""Activations after which the spell or trap card stays face-up on the field."""

LASTING_CARD_EFFECT_KINDS = frozenset({"trigger"})
"""Kinds a spell or trap card that stays on the field (:data:`LASTING_CARD_KINDS`) may have
besides those of its type, at ``location: field``: its face-up card's effect activated when an
event happens, a chain link of its own (000 ●エンドフェイズ【３】例 CHAIN1「強制接収」;
「生還の宝札」)."""

COST_LOCATIONS: dict[str, frozenset[str]] = {
    "discard_self": frozenset({"hand"}),
    "tribute_self": frozenset({"field"}),
    "banish_self": frozenset({"hand", "field", "graveyard"}),
}
"""Where the card must be for a cost paid with the card itself to be payable."""

FACE_EVENTS = frozenset({"destroyed", "sent_to_graveyard", "monster_sent_to_graveyard", "banished",
                         "returned_to_hand", "targeted"})
"""Events whose occurrence records whether the card was face-up when it happened (``face:``)."""

SINGLE_TARGETS = frozenset({"none", "event_card", "optional_opponent_monster"})
"""Target kinds that are one card at most: ``target_count:`` cannot make them several."""
