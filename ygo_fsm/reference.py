"""The effect vocabulary's reference page (``docs/effects.md``), generated from the declarations.

Every word a card file may use — effect kinds, events, subjects, causes, origins, conditions,
timings, targets, costs, grants, operations and durations — is an enum member or a model field of
:mod:`ygo_fsm.cards` (the grants: of :mod:`ygo_fsm.grants`); its description is the docstring (or
the trailing comment) written next to it there, and the composition rules are the tables of
:mod:`ygo_fsm.vocabulary`. ``make docs`` (``ygo-fsm reference``) rewrites the page; a test fails
when the committed page is stale.

>>> page = reference_page()
>>> page.splitlines()[0]
'# The effect vocabulary'
>>> "| `this_card` |" in page
True
"""

from __future__ import annotations

import ast
import inspect
from enum import Enum

from pydantic import BaseModel

from . import cards, grants, vocabulary
from .cards import SPELL_SPEED, Cause, Duration, EffectKind, Event, Location, Op, Origin, Subject, Target, Timing

LIMITS = (
    "Conjunctions between operations (\"and if you do\", \"then\", \"also\"): a resolution is a list run "
    "in order; an operation that did nothing does not stop the next one.",
    "Choices made on resolution (\"choose 1 monster from your Deck\"): the first matching card is taken.",
    "Leaves the field (to any place), control changes, equips other than an Equip Spell's own, counters, "
    "Attributes and Types other than a race word, levels above or below N, original ATK/DEF, "
    "\"cannot be destroyed\" other than by battle, and \"cannot be targeted\".",
    "Continuous effects other than forbidding special summons, the attack-declaration points and the "
    "grants (ATK/DEF, piercing, battle protection); ATK/DEF changes that depend on a count or on LP; "
    "replacement effects (\"instead\") other than the draw; costs chosen by the player (which card to "
    "discard or banish) — the engine takes them in order.",
    "Negating an effect without negating its activation; \"negate the summon\" for special summons by an effect.",
    "Events of a phase or step starting or ending (a card says `phase:` for its phase effect instead), "
    "and damage-step points as events (they are `during:` conditions).",
    "Battled this turn (only \"attacked this turn\"), face-up / face-down conditions beyond the "
    "effect's location, and LP paid or damage taken by a given amount.",
)
"""What the official effect wording has that the vocabulary cannot state (yet)."""


def _attribute_notes(cls: type) -> dict[str, str]:
    """The docstring under each attribute of ``cls`` (or its trailing ``#`` comment)."""
    source = inspect.getsource(cls)
    lines = source.splitlines()
    body = ast.parse(source).body[0]
    assert isinstance(body, ast.ClassDef)
    notes: dict[str, str] = {}
    statements = body.body
    for index, statement in enumerate(statements):
        if isinstance(statement, ast.Assign) and isinstance(statement.targets[0], ast.Name):
            name = statement.targets[0].id
        elif isinstance(statement, ast.AnnAssign) and isinstance(statement.target, ast.Name):
            name = statement.target.id
        else:
            continue
        following = statements[index + 1] if index + 1 < len(statements) else None
        if (isinstance(following, ast.Expr) and isinstance(following.value, ast.Constant)
                and isinstance(following.value.value, str)):
            notes[name] = " ".join(following.value.value.split())
            continue
        line = lines[statement.end_lineno - 1] if statement.end_lineno else ""
        if "#" in line:
            notes[name] = line.split("#", 1)[1].strip()
    return notes


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("``", "`")


def _enum_table(enum: type[Enum], extra: dict[str, str] | None = None) -> list[str]:
    notes = _attribute_notes(enum)
    rows = ["| word | meaning |", "|---|---|"]
    for member in enum:
        text = notes.get(member.name, "")
        if extra and member.value in extra:
            text = f"{text} {extra[member.value]}".strip()
        rows.append(f"| `{member.value}` | {_cell(text)} |")
    return rows


def _model_table(model: type[BaseModel]) -> list[str]:
    notes = _attribute_notes(model)
    rows = ["| field | type | meaning |", "|---|---|---|"]
    for name, field in model.model_fields.items():
        shown = field.alias or name
        annotation = field.annotation
        kind = getattr(annotation, "__name__", None) or str(annotation).replace("typing.", "")
        rows.append(f"| `{shown}` | `{_cell(kind)}` | {_cell(notes.get(name, ''))} |")
    return rows


def _operations() -> list[str]:
    notes = _attribute_notes(Op)
    rows = ["| op | what it does | `what:` | lasts `until:` | `position:` |", "|---|---|---|---|---|"]
    for member in Op:
        allowed = vocabulary.OPERATION_WHAT.get(member.value)
        what = ("—" if allowed is None else
                ", ".join(f"`{w}`" if w != "*" else "a card filter" for w in sorted(allowed)))
        lasting = "yes" if member.value in vocabulary.LASTING_OPERATIONS else ""
        position = "yes" if member.value in vocabulary.POSITION_OPERATIONS else ""
        rows.append(f"| `{member.value}` | {_cell(notes.get(member.name, ''))} | {what} | {lasting} | {position} |")
    return rows


def _kinds() -> list[str]:
    rows = ["| kind | spell speed | card types |", "|---|---|---|"]
    for kind in EffectKind:
        types = ", ".join(t for t, kinds in vocabulary.KINDS_BY_CARD_TYPE.items() if kind.value in kinds)
        if kind.value in vocabulary.LASTING_CARD_EFFECT_KINDS:
            lasting = "/".join(f"`{k}`" for k in sorted(vocabulary.LASTING_CARD_KINDS))
            types += f"; spell, trap at `location: field` when the card has a {lasting} effect"
        speed = SPELL_SPEED.get(kind, 0)
        rows.append(f"| `{kind.value}` | {speed or 'not activated'} | {types} |")
    return rows


def reference_page() -> str:
    """The reference page's Markdown text."""
    out = [
        "# The effect vocabulary",
        "",
        "<!-- Generated by `make docs` (ygo-fsm reference) from ygo_fsm/card_enums.py, ygo_fsm/card_models.py",
        "     and ygo_fsm/vocabulary.py; do not edit by hand. -->",
        "",
        "A card file (the format of `ygo_fsm/data/cards.yaml`; JSON Schema: `ygo-fsm schema cards`) lists",
        "cards; each card has effects. An effect is a **kind** (which fixes its spell speed), where the card",
        "must be (**location**), what it answers (**events**, narrowed by **subject**, **cause** and",
        "**origin**; or a **phase**; or nothing: no specific timing), **conditions**, a **target**, a",
        "**cost**, and a **resolution**: a list of **operations**, some lasting **until** a **duration**.",
        "The words compose: any event with any subject, cause and origin; any operation on the target, this",
        "card or the event's card. `ygo-fsm check --cards FILE` refuses, one line per problem, a",
        "combination that cannot mean what it says (see *Composition rules*).",
        "",
        "```yaml",
        "cards:",
        "  - id: last_word_lamp",
        "    name_ja: 遺言ランプ",
        "    name_zh: 遗言灯",
        "    type: monster",
        "    atk: 800",
        "    level: 3",
        "    effects:",
        "      - kind: trigger            # when this card is destroyed and sent to the graveyard: draw 1",
        "        location: graveyard",
        "        mandatory: true",
        "        events: [destroyed]",
        "        subject: this_card",
        "        resolution:",
        "          - {op: draw, amount: 1, to: controller}",
        "```",
        "",
        "## Effect kinds",
        "",
        *_kinds(),
        "",
        "## Locations",
        "",
        *_enum_table(Location),
        "",
        "## Events",
        "",
        *_enum_table(Event),
        "",
        "### Subjects: whose event",
        "",
        *_enum_table(Subject),
        "",
        "### Causes: what caused it",
        "",
        *_enum_table(Cause),
        "",
        "### Origins: where its card came from",
        "",
        *_enum_table(Origin),
        "",
        "### Faces: how its card was (`face:`)",
        "",
        "Recorded for " + ", ".join(f"`{e}`" for e in sorted(vocabulary.FACE_EVENTS)) + ".",
        "",
        *_enum_table(cards.Face),
        "",
        "### Phases: phase starts and ends (`phase:`)",
        "",
        "A phase effect is activated (or processed) once, in the open game state of its phase or step, "
        "and not in the timing windows there (000 ※准备流程中每1次…; 004 ●进行战斗阶段开始时发动和适用的效果的处理).",
        "",
        *_enum_table(cards.Phase),
        "",
        "## Conditions",
        "",
        *_model_table(cards.Conditions),
        "",
        "### Timings (`during:`)",
        "",
        *_enum_table(Timing),
        "",
        "## Targets",
        "",
        *_enum_table(Target),
        "",
        "### Several targets (`target_count:`)",
        "",
        "Every target is chosen on activation, before anyone may respond, one at a time: the activation "
        "names the first (`activate twin_strike>plain_dragon`), then the chain waits in `declaring_targets` "
        "while the player adds the others (`add_target plain_beast`) and, for `up_to`, may stop once one "
        "is chosen (`stop_targeting`). No option list grows with the ways to pick a set, and every "
        "choice has an integer index.",
        "",
        *_model_table(cards.TargetCount),
        "",
        "## Costs",
        "",
        *_model_table(cards.Cost),
        "",
        "## Needs (`needs:`)",
        "",
        "An effect is activated only when its cost can be paid in full and what its resolution does "
        "can be done (PR17 pp.133–134): what its operations imply (cards to draw or search, a monster "
        "to destroy, free Monster Zones for special summons and tokens) is checked without saying; "
        "`needs:` declares the rest.",
        "",
        *_model_table(cards.Need),
        "",
        "## Grants (`grants:`)",
        "",
        "A continuous effect's `grants:` applies, without a chain link, while its card is face-up on "
        "the field: to this monster, the monster an Equip Spell is equipped to, or the monsters on the "
        "field it names — those arriving later too, none once the card has left (the values are "
        "computed when read, never stored).",
        "",
        *_model_table(grants.Grant),
        "",
        "## Operations",
        "",
        *_operations(),
        "",
        f"A card filter is {vocabulary.CARD_FILTERS.replace('``', '`')}.",
        "",
        "### Operation fields",
        "",
        *_model_table(cards.Operation),
        "",
        "## Durations (`until:`)",
        "",
        *_enum_table(Duration),
        "",
        "## Effect fields",
        "",
        *_model_table(cards.EffectSpec),
        "",
        "## Composition rules",
        "",
        "- An effect kind must fit the card type (table *Effect kinds*).",
        "- `subject:`, `cause:` and `origin:` narrow `events:`; without events they are refused.",
        "- An operation acting on `target` needs `target:`; on `event_card`, `events:`.",
        "- `what:`, `until:`, `position:` and `from:` are refused where the operation does not take them; "
        + ", ".join(f"`{op}`" for op in sorted(vocabulary.NEEDS_DURATION)) + " needs `until:`.",
        *(f"- `{'def' if name == 'defence' else name}:` is read only by "
          + ", ".join(f"`{op}`" for op in sorted(readers)) + "."
          for name, readers in vocabulary.OPERATION_FIELDS.items()),
        "- A cost paid with the card itself must be payable where the card is "
        + ", ".join(f"(`{name}`: {', '.join(sorted(places))})" for name, places in vocabulary.COST_LOCATIONS.items())
        + ".",
        "- A card id may be given once: a user's card never replaces a built-in one.",
        "",
        "## What the vocabulary cannot state yet",
        "",
        *(f"- {limit}" for limit in LIMITS),
        "",
    ]
    return "\n".join(out)
