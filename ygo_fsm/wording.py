"""What the diagrams and the rule-review site print for a judge: display terms, wrapped lines,
guard sentences, profile marks and the sources of the citations.

Display terms (DESIGN "Vocabulary")
    Seeds 000/001/003 call a phase 流程 and a step 阶段; 002/004 and the official rulebooks call
    them 阶段 and 步骤. Judge labels use the official words, so :func:`display_zh` turns the
    seeds' 流程 into 阶段 and their 阶段 into 步骤, leaving phrases already in the official words
    (『战斗阶段结束』 is 004's "the Battle Phase ends") as they are. Seed 000 writes ``***`` for
    召喚 (a censored word); the labels show 召唤, the tooltips keep the citation verbatim.

Wrapping
    :func:`wrap` breaks a line at about ``columns`` display columns (a CJK character counts as
    two), between words in Latin text and between characters in CJK text, never before closing
    punctuation.

>>> display_zh("战斗流程的结束宣言，进入结束阶段")
'战斗阶段的结束宣言，进入结束步骤'
>>> display_zh("『战斗阶段结束』的效果处理：直接进入结束阶段")
'『战斗阶段结束』的效果处理：直接进入结束步骤'
>>> display_citation("000 【怪兽通常***的处理】")
'000 【怪兽通常召唤的处理】'
>>> wrap("回合玩家持有优先权，可以发动卡片或者进行召唤", 20)
['回合玩家持有优先权，', '可以发动卡片或者进行', '召唤']
>>> wrap("The turn player passes priority to the opponent", 24)
['The turn player passes', 'priority to the opponent']
"""

from __future__ import annotations

import unicodedata
from collections.abc import Collection, Iterable, Mapping, Sequence

from .spec import Actor, GuardSentence, Label, Lang, TransitionSpec

__all__ = [
    "ACTOR_TEXT",
    "CENSORED_SUMMON",
    "PROFILES",
    "SOURCES",
    "display",
    "display_citation",
    "display_zh",
    "guard_lines",
    "official",
    "source_note",
    "text_width",
    "transition_profiles",
    "wrap",
]

#: Columns a judge label is wrapped at (a CJK character is two columns).
COLUMNS = 36

#: How seed 000 writes 召喚 (the forum it comes from censored the word).
CENSORED_SUMMON = "***"

#: Rule profiles a duel can follow (:class:`ygo_fsm.game.Profile`).
PROFILES = ("modern", "ocg2008")

#: Phrases already in the official words (004): kept as they are by :func:`display_zh`.
_OFFICIAL_PHRASES = ("『战斗阶段结束』", "战斗回卷或战斗阶段结束")

ACTOR_TEXT: dict[Actor, Label] = {
    Actor.turn_player: Label(zh="回合玩家", en="turn player"),
    Actor.opponent: Label(zh="对方", en="opponent"),
    Actor.priority_holder: Label(zh="持有优先权的玩家", en="player with priority"),
    Actor.engine: Label(zh="自动进行", en="automatic"),
}

#: What each seed file is (the citations start with its number), and which official texts
#: each profile follows where the seeds are silent.
SOURCES: tuple[tuple[str, Label], ...] = (
    ("000", Label(zh="社区整理的OCG专家规则：各阶段内的发动时点与效果处理（据エキスパートルールHP、"
                     "デュエルハンドブック整理），最完整的一篇；日文卡名",
                  en="community compilation of the OCG expert rules: timing windows and processing in every "
                     "phase (from the Expert Rule site and the Duel Handbook); the fullest; Japanese card names")),
    ("001", Label(zh="同一份专家规则整理的另一个版本（中文卡名，含主要阶段的例子）",
                  en="another version of the same expert-rule compilation (Chinese card names, Main Phase examples)")),
    ("002", Label(zh="『一个回合的详细流程』，CNOCG 社区据エキスパートルールHP翻译；用 阶段/步骤 的说法",
                  en="\"the turn in detail\", a CNOCG community translation from the Expert Rule site; "
                     "uses 阶段/步骤 (phase/step)")),
    ("003", Label(zh="『游戏王基本规则系列·回合流程』：与 000 同一结构，中文卡名",
                  en="\"basic rules: the turn\", the same structure as 000 with Chinese card names")),
    ("004", Label(zh="问答网站上对现行规则的总结：6个阶段、战斗阶段的4个步骤、伤害步骤、先攻第1回合、卷回",
                  en="a community summary of the modern rules: six phases, the Battle Phase's four steps, the "
                     "Damage Step, the first turn, replay")),
)

PROFILE_SOURCES: dict[str, Label] = {
    "ocg2008": Label(zh="按字面执行 000–003（含其例子）", en="plays seeds 000–003 literally, worked examples included"),
    "modern": Label(zh="执行 004；004 没有写到的地方按 OCG Perfect Rulebook 2017、Rulebook v10 与快速效果时点表",
                    en="plays seed 004; where 004 is silent, the OCG Perfect Rulebook 2017, Rulebook v10 and "
                       "the Fast Effect Timing chart"),
}


def source_note(rule: str) -> str:
    """What the seed files a citation starts with are (``000``, ``000/003`` …), for tooltips.

    >>> source_note("004 ●卷回")[:45]
    '004: a community summary of the modern rules:'
    """
    numbers = rule.split(" ", 1)[0].split("/")
    known = dict(SOURCES)
    return "; ".join(f"{number}: {known[number].en}" for number in numbers if number in known)


def text_width(text: str) -> int:
    """Display columns of ``text``: two for a wide (CJK) character, one otherwise.

    >>> text_width("抽卡 draw")
    9
    """
    return sum(2 if unicodedata.east_asian_width(ch) in ("W", "F") else 1 for ch in text)


def display_zh(text: str) -> str:
    """A Chinese label in the official words: the seeds' 流程 → 阶段, their 阶段 → 步骤."""
    kept: list[str] = []
    for number, phrase in enumerate(_OFFICIAL_PHRASES):
        if phrase in text:
            text = text.replace(phrase, f"\x00{number}\x00")
            kept.append(phrase)
    text = text.replace("阶段", "步骤").replace("流程", "阶段")
    for number, phrase in enumerate(_OFFICIAL_PHRASES):
        text = text.replace(f"\x00{number}\x00", phrase)
    return text.replace(CENSORED_SUMMON, "召唤")


def display_citation(rule: str) -> str:
    """A citation as printed on a diagram: verbatim but for ``***`` shown as 召唤."""
    return rule.replace(CENSORED_SUMMON, "召唤")


def official(label: Label, lang: Lang) -> str:
    """``label`` in ``lang``, for texts written in the official words already (guard sentences,
    the diagrams' own notes): only ``***`` is shown as 召唤."""
    text = label.text(lang)
    return text.replace(CENSORED_SUMMON, "召唤" if lang is Lang.zh else "summon")


def display(label: Label, lang: Lang) -> str:
    """``label`` (from a machine file, in the seeds' words) in ``lang`` as a judge reads it
    (:func:`display_zh` for Chinese)."""
    text = label.text(lang)
    return display_zh(text) if lang is Lang.zh else text.replace(CENSORED_SUMMON, "summon")


_NO_BREAK_BEFORE = set("，。、；：？！）》」』】〕,.;:?!)]}…・·")
_NO_BREAK_AFTER = set("（《「『【〔([{")


def _wide(ch: str) -> bool:
    return unicodedata.east_asian_width(ch) in ("W", "F")


def _units(text: str) -> list[str]:
    """Breakable pieces: a Latin word with its trailing spaces, or one CJK character (closing
    punctuation stays with what it closes, opening punctuation with what it opens)."""
    units: list[str] = []
    for ch in text:
        if units and (ch == " " or (not _wide(ch) and not _wide(units[-1][-1]) and units[-1][-1] != " ")):
            units[-1] += ch
        else:
            units.append(ch)
    merged: list[str] = []
    for unit in units:
        if merged and (unit[0] in _NO_BREAK_BEFORE or merged[-1].rstrip()[-1:] in _NO_BREAK_AFTER):
            merged[-1] += unit
        else:
            merged.append(unit)
    return merged


def wrap(text: str, columns: int = COLUMNS) -> list[str]:
    """``text`` as lines of at most about ``columns`` display columns (see the module doc)."""
    text = " ".join(text.split())
    if not text:
        return []
    lines: list[str] = []
    line = ""
    for unit in _units(text):
        if line and text_width(line + unit.rstrip()) > columns:
            lines.append(line.rstrip())
            line = unit.lstrip()
        else:
            line += unit
    if line.strip():
        lines.append(line.rstrip())
    return lines


def wrapped(texts: Iterable[str], columns: int = COLUMNS) -> list[str]:
    """Each text wrapped, the lines one after another."""
    return [line for text in texts for line in wrap(text, columns)]


def transition_profiles(transition: TransitionSpec, sentences: Mapping[str, GuardSentence]) -> frozenset[str]:
    """The profiles in which ``transition`` can be taken.

    A transition declared for some profiles only (a ``profiles:`` or ``profile:`` field) or
    guarded by a guard that holds under one profile only (``profile:`` in the guard
    sentences) exists in those profiles; any other exists in all of them.
    """
    allowed = set(PROFILES)
    declared = getattr(transition, "profiles", None) or getattr(transition, "profile", None)
    if isinstance(declared, str):
        allowed &= {declared}
    elif isinstance(declared, Collection) and declared:
        allowed &= {str(getattr(item, "value", item)) for item in declared}
    for name in transition.guards:
        sentence = sentences.get(name)
        if sentence is not None and sentence.profile is not None:
            allowed &= {sentence.profile}
    return frozenset(allowed)


def profile_mark(profiles: Collection[str], langs: Sequence[Lang]) -> str:
    """``仅 modern / modern only`` for an item of one profile; ``""`` for one of every profile."""
    if set(profiles) >= set(PROFILES):
        return ""
    names = "、".join(sorted(profiles)) or "—"
    label = Label(zh=f"◆ 仅 {names} 规则", en=f"◆ {names} rules only")
    return " / ".join(label.text(lang) for lang in langs)


def guard_lines(
    transition: TransitionSpec,
    sentences: Mapping[str, GuardSentence],
    langs: Sequence[Lang],
    *,
    profile: str | None = None,
) -> list[str]:
    """``若：…`` / ``if: …`` for each guard and ``除非：…`` / ``unless: …`` for each ``unless``
    guard, in judge words (the guard name when it has no sentence). Under ``profile``, an
    ``unless`` guard that never holds in that profile is left out."""
    lines: list[str] = []
    for lang in langs:
        for names, word in ((transition.guards, {Lang.zh: "若：", Lang.en: "if "}),
                            (transition.unless, {Lang.zh: "除非：", Lang.en: "unless "})):
            for name in names:
                sentence = sentences.get(name)
                if (profile is not None and sentence is not None and sentence.profile is not None
                        and sentence.profile != profile and names is transition.unless):
                    continue
                text = official(sentence.label, lang) if sentence is not None else name
                if sentence is not None and sentence.profile is not None and profile is None:
                    text += f"（仅 {sentence.profile}）" if lang is Lang.zh else f" ({sentence.profile} only)"
                lines.append(word[lang] + (text[:1].lower() + text[1:] if lang is Lang.en else text))
    return lines
