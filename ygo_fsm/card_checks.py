"""Semantic checks of cards: each way a card's effects cannot mean what they say, one line per
problem naming the effect and the field (an effect kind that does not fit the card type, an
operation acting on a target the effect does not take, a field that would be ignored, a cost
that can never be paid …). The tables they read are :mod:`ygo_fsm.vocabulary`.
"""

from __future__ import annotations

from . import vocabulary
from .card_enums import CardType, Cause, EffectKind, Face, Location, Op, Origin, Subject, Target
from .card_models import CardSpec, EffectSpec


def _what_allowed(op: str, what: str) -> bool:
    allowed = vocabulary.OPERATION_WHAT.get(op, frozenset())
    if what in allowed:
        return True
    return "*" in allowed and what not in ("target", "self", "event_card", "attacker")


def _effect_problems(card: CardSpec, effect: EffectSpec) -> list[tuple[str, str]]:
    """(field, message) for each way ``effect`` of ``card`` cannot mean what it says."""
    problems: list[tuple[str, str]] = []
    kind = effect.kind.value
    lasting_card = any(e.kind.value in vocabulary.LASTING_CARD_KINDS for e in card.effects)
    if kind not in vocabulary.KINDS_BY_CARD_TYPE[card.type.value] and not (
            lasting_card and effect.location is Location.field and kind in vocabulary.LASTING_CARD_EFFECT_KINDS):
        problems.append(("kind", f"a {card.type.value} card cannot have a {kind} effect; "
                                 f"kinds: {', '.join(sorted(vocabulary.KINDS_BY_CARD_TYPE[card.type.value]))}"))
    answers_events = bool(effect.events)
    for name, value in (("subject", effect.subject is not Subject.any), ("cause", effect.cause is not Cause.any),
                        ("origin", effect.origin is not Origin.any), ("face", effect.face is not Face.any)):
        if value and not answers_events:
            problems.append((name, f"{name} narrows the events the effect answers, but it answers none (give events:)"))
    problems += _new_word_problems(card, effect)
    if effect.kind in (EffectKind.trigger, EffectKind.flip) and not effect.events and effect.phase is None \
            and effect.kind is EffectKind.trigger:
        problems.append(("events", "a trigger effect needs events: (or a phase:) to answer"))
    if not effect.starts_chain_link and (effect.once_per_turn or effect.once_per_turn_name):
        problems.append(("once_per_turn", f"a {kind} effect is not activated; once per turn means nothing here"))
    if effect.kind is not EffectKind.continuous and (effect.forbids or effect.applies_at or effect.grants):
        problems.append(("forbids" if effect.forbids else "applies_at" if effect.applies_at else "grants",
                         "only a continuous effect forbids, applies or grants"))
    equips = any(e.kind is EffectKind.equip_spell for e in card.effects)
    if effect.grants is not None and effect.grants.monsters == "equipped" and not equips:
        problems.append(("grants.monsters", "equipped: only an Equip Spell is equipped to a monster"))
    if any(op.op is Op.equip for op in effect.resolution) and effect.kind is not EffectKind.equip_spell:
        problems.append(("resolution", "equip: only an Equip Spell's activation equips it"))
    if effect.target is Target.event_card and not answers_events:
        problems.append(("target", "event_card targets the card of the event it answers, but it answers none"))
    cost = effect.cost
    for name, locations in vocabulary.COST_LOCATIONS.items():
        if getattr(cost, name) and effect.location.value not in locations:
            problems.append((f"cost.{name}", f"never payable: the card is in the {effect.location.value} "
                                             f"(it must be in the {' or '.join(sorted(locations))})"))
    if cost.tribute_self and card.type is not CardType.monster:
        problems.append(("cost.tribute_self", "never payable: only a monster can be tributed"))
    if cost.pay_lp < 0:
        problems.append(("cost.pay_lp", "never payable: a negative amount"))
    for index, operation in enumerate(effect.resolution):
        where = f"resolution[{index}]"
        op = operation.op.value
        given = operation.model_fields_set
        what = operation.what if "what" in given else vocabulary.DEFAULT_WHAT.get(op, "target")
        allowed = vocabulary.OPERATION_WHAT.get(op)
        if "what" in given and allowed is None:
            problems.append((f"{where}.what", f"{op} takes no what: (it would be ignored)"))
        elif allowed is not None and not _what_allowed(op, what):
            shown = sorted(w if w != "*" else vocabulary.CARD_FILTERS for w in allowed)
            problems.append((f"{where}.what", f"{op} does not take what: {what}; it takes {', '.join(shown)}"))
        if allowed is not None and what == "target" and effect.target is Target.none:
            problems.append((f"{where}.what", f"{op} acts on the target, but the effect takes none (give target:)"))
        if what == "event_card" and not answers_events:
            problems.append((f"{where}.what", "event_card is the card of the event the effect answers, "
                                              "but it answers none (give events:)"))
        if operation.amount_of and operation.amount_of not in vocabulary.AMOUNTS_OF:
            problems.append((f"{where}.amount_of", f"unknown amount_of {operation.amount_of!r}; "
                                                   f"known: {', '.join(sorted(vocabulary.AMOUNTS_OF))}"))
        if operation.amount_of in vocabulary.TARGETED_AMOUNTS and effect.target is Target.none:
            problems.append((f"{where}.amount_of",
                             f"{operation.amount_of} reads the target, but the effect takes none"))
        if "until" in given and op not in vocabulary.LASTING_OPERATIONS:
            problems.append((f"{where}.until", f"{op} does not last; until: would be ignored"))
        if op in vocabulary.NEEDS_DURATION and operation.until is None:
            problems.append((f"{where}.until", f"{op} needs until: (how long it lasts)"))
        if "turns" in given and operation.until is None:
            problems.append((f"{where}.turns", "turns: counts turns of a lasting effect (give until:)"))
        if "position" in given and op not in vocabulary.POSITION_OPERATIONS:
            problems.append((f"{where}.position", f"{op} takes no position: (it would be ignored)"))
        if "from_" in given and op not in vocabulary.SOURCE_OPERATIONS:
            problems.append((f"{where}.from", f"{op} takes no from: (it would be ignored)"))
        for name, readers in vocabulary.OPERATION_FIELDS.items():
            if name in given and op not in readers:
                field_name = "def" if name == "defence" else name
                problems.append((f"{where}.{field_name}", f"{op} does not read {field_name}: (it would be ignored)"))
        if op == "callable" and not operation.name:
            problems.append((f"{where}.name", "callable needs the registered resolution's name"))
    return problems


def _new_word_problems(card: CardSpec, effect: EffectSpec) -> list[tuple[str, str]]:
    """The checks of the face narrowing, several targets and the battle conditions."""
    problems = []
    unrecorded = [e.value for e in effect.events if e.value not in vocabulary.FACE_EVENTS]
    if effect.face is not Face.any and effect.events and unrecorded:
        problems.append(("face", f"face is known only for {', '.join(sorted(vocabulary.FACE_EVENTS))}; "
                                 f"not for {', '.join(unrecorded)}"))
    if effect.target_count is not None and effect.target.value in vocabulary.SINGLE_TARGETS:
        problems.append(("target_count", f"target {effect.target.value} is one card at most; "
                                         "target_count needs a target kind that may be several cards"))
    for name in ("attacked_this_turn", "battled_this_turn"):
        if getattr(effect.conditions, name) and card.type is not CardType.monster:
            problems.append((f"conditions.{name}", f"only a monster attacks or battles; a {card.type.value} "
                                                   "never does"))
    return problems


def card_problems(card: CardSpec) -> list[str]:
    """Each way the card's effects cannot mean what they say, as ``effects[i] (kind): field: message``:
    an effect kind that does not fit the card type, an operation acting on a target the effect does
    not take, a ``what:`` the operation does not take, a field that would be ignored, a cost that
    can never be paid (:mod:`ygo_fsm.vocabulary` holds the tables)."""
    lines = []
    for index, effect in enumerate(card.effects):
        for where, message in _effect_problems(card, effect):
            lines.append(f"effects[{index}] ({effect.kind.value}): {where}: {message}")
    return lines
