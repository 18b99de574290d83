"""Text primitives of the diagrams: quoting for DOT and Mermaid, the languages a label is shown
in, the font, and the Damage Step's limits as the diagrams word them. The machine diagrams
(:mod:`ygo_fsm.render`) and the overview (:mod:`ygo_fsm.overview`) both draw with them."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from .spec import Label, Lang

#: Font list used in DOT output; the first family covers Chinese and Japanese text.
FONTNAME = "WenQuanYi Micro Hei, Noto Sans CJK SC, Noto Sans, sans-serif"

_LANG_CHOICES = ("zh", "en", "both")

_LIMIT_TEXT = {
    "damage_step": Label(zh="✕ 只能发动：反击陷阱、无效发动、攻守增减、必发、反转、自身召唤/破坏时的效果",
                         en="✕ only counter traps, negations, ATK/DEF changes, mandatory, flip, own summon/destroyed"),
    "damage_step_after_calculation": Label(zh="✕ 同上，但不能发动攻守增减的效果",
                                           en="✕ the same without ATK/DEF changes"),
}

def _languages(lang: str) -> tuple[Lang, ...]:
    """The languages to show for ``lang`` (``zh``, ``en`` or ``both``), in display order."""
    value = lang.value if isinstance(lang, Lang) else lang
    if value == "both":
        return (Lang.zh, Lang.en)
    if value in ("zh", "en"):
        return (Lang(value),)
    raise ValueError(f"unknown lang {lang!r}; expected one of: {', '.join(_LANG_CHOICES)}")


def _dot_quote(text: str) -> str:
    """``text`` as a double-quoted DOT string; line breaks become ``\\n``."""
    escaped = text.replace("\\", "\\\\").replace('"', '\\"')
    escaped = escaped.replace("\r\n", "\n").replace("\r", "\n").replace("\n", "\\n")
    return f'"{escaped}"'


def _dot_label(lines: Iterable[str]) -> str:
    """Lines joined with DOT line breaks, quoted."""
    return _dot_quote("\n".join(lines))


def _dot_attrs(attrs: Sequence[tuple[str, str]]) -> str:
    """``[name="value", …]``; values given already quoted."""
    return "[" + ", ".join(f"{name}={value}" for name, value in attrs) + "]"


#: Characters Mermaid's state-diagram grammar or its HTML labels would misread: ``"`` ends
#: a description (written ``'``); the others become Mermaid entity codes (``;`` → ``#59;``).
_MERMAID_SAFE = str.maketrans(
    {
        '"': "'",
        "#": "#35;",
        ";": "#59;",
        ":": "#58;",
        "%": "#37;",
        "&": "#38;",
        "<": "#60;",
        ">": "#62;",
        "*": "#42;",
    }
)


def _mermaid_text(text: str) -> str:
    """``text`` made safe inside a Mermaid state description, note or transition label.

    >>> _mermaid_text('say "end"; #1')
    "say 'end'#59; #35;1"
    """
    return " ".join(text.split()).translate(_MERMAID_SAFE)
