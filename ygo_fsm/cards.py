"""Cards and effects as data, and the built-in card library (``ygo_fsm/data/cards.yaml``): the
one import of the card layer, re-exporting :mod:`~ygo_fsm.card_enums` (the closed words),
:mod:`~ygo_fsm.card_models` (the pydantic card and effect models), :mod:`~ygo_fsm.card_checks`
(semantic validation) and :mod:`~ygo_fsm.card_library` (reading, loading and merging card files).

An effect has a *kind*; its spell speed follows from the kind (000: 2速以上的卡 = 怪兽诱发即时效果、
速攻魔法、通常陷阱、永续陷阱、反击陷阱; counter traps are spell speed 3). It says where the card must
be, what it responds to (events, a phase, or nothing: "no specific timing"), the conditions
of its activation, its cost, and its resolution: a list of operations from a small
vocabulary (:class:`Op`) — or, for library users, a Python callable registered with
:func:`register_resolution`.

>>> library = default_library()
>>> library["cyclone"].name_ja, library["cyclone"].effects[0].spell_speed
('サイクロン', 2)
>>> library["royal_curse"].effects[0].spell_speed
3
"""

from __future__ import annotations

from .card_checks import (
    card_problems,
)
from .card_enums import (
    CARD_ACTIVATION_KINDS,
    CHAIN1_ONLY_EVENTS,
    DURATION_PHASE,
    ENDING_BY_THEMSELVES,
    SPELL_KINDS,
    SPELL_SPEED,
    TRAP_KINDS,
    CardType,
    Cause,
    Duration,
    EffectKind,
    Event,
    Face,
    Location,
    Op,
    Origin,
    Phase,
    Subject,
    Target,
    Timing,
)
from .card_library import (
    RESOLUTIONS,
    Resolution,
    default_library,
    library_path,
    load_library,
    merge,
    parse_cards,
    read_card_file,
    register_resolution,
)
from .card_models import (
    CardFile,
    CardSpec,
    Conditions,
    Cost,
    EffectSpec,
    Need,
    Operation,
    SpecialSummonCost,
    TargetCount,
    card_file_json_schema,
    responds_to,
)

__all__ = [
    "CARD_ACTIVATION_KINDS",
    "CHAIN1_ONLY_EVENTS",
    "DURATION_PHASE",
    "ENDING_BY_THEMSELVES",
    "RESOLUTIONS",
    "SPELL_KINDS",
    "SPELL_SPEED",
    "TRAP_KINDS",
    "CardFile",
    "CardSpec",
    "CardType",
    "Cause",
    "Conditions",
    "Cost",
    "Duration",
    "EffectKind",
    "EffectSpec",
    "Event",
    "Face",
    "Location",
    "Need",
    "Op",
    "Operation",
    "Origin",
    "Phase",
    "Resolution",
    "SpecialSummonCost",
    "Subject",
    "Target",
    "TargetCount",
    "Timing",
    "card_file_json_schema",
    "card_problems",
    "default_library",
    "library_path",
    "load_library",
    "merge",
    "parse_cards",
    "read_card_file",
    "register_resolution",
    "responds_to",
]
