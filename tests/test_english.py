"""The English narration (``narrate --lang en``) is English on every line: what happened in game
terms (effects, damage, the winner) too, not only the transitions' labels."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from ygo_fsm import default_rulebook
from ygo_fsm.cards import CardSpec, load_library, merge
from ygo_fsm.english import english_detail
from ygo_fsm.scenario import load_scenario, run_scenario
from ygo_fsm.trace import narrate

SCENARIOS = sorted((Path(__file__).resolve().parent / "scenarios").rglob("*.yaml"))
_CJK = re.compile(r"[\u3040-\u30ff\u3400-\u9fff\uff00-\uffef]")
_QUOTED_OR_CITED = re.compile(r'"[^"]*"|\[\d{3}[^\]]*\]$')


def _card_file(path: Path) -> bool:
    """A card file beside the scenarios (the library format: ``cards:`` and no ``steps:``)."""
    text = path.read_text(encoding="utf-8")
    return text.startswith("cards:") or ("\ncards:" in text and "\nsteps:" not in text)


def _playable(path: Path) -> bool:
    return "broken" not in path.parts and not _card_file(path)


def _cards_beside(path: Path) -> dict[str, CardSpec] | None:
    """The cards of the card files in a scenario's folder, as ``ygo-fsm run --cards`` gives them."""
    files = [p for p in sorted(path.parent.glob("*.yaml")) if _card_file(p)]
    return merge(*(load_library(p) for p in files)) if files else None


@pytest.mark.parametrize("path", [p for p in SCENARIOS if _playable(p)], ids=lambda p: p.stem)
def test_english_narration_has_no_chinese_or_japanese(path: Path) -> None:
    """Only the clauses cited (the seeds' own words) and names a setup gives stay as written."""
    trace = run_scenario(load_scenario(path, library=_cards_beside(path))).trace
    for line in narrate(trace, default_rulebook().specs, lang="en").splitlines():
        assert not _CJK.search(_QUOTED_OR_CITED.sub("", line.rstrip())), line


@pytest.mark.parametrize(("detail", "english"), [
    ("CHAIN2「我が身を盾に」被无效不处理", 'CHAIN2: "My Body As A Shield" was negated and does not resolve'),
    ("「甲虫装甲騎士」攻1900 VS 「スピリット・ドラゴン」攻1000",
     '"Beetle Armor Knight" (ATK 1900) vs "Spirit Dragon" (ATK 1000)'),
    ("B受到900分战斗伤害", "B takes 900 battle damage"),
    ("A的基本分为0，B获得决斗的胜利", "A's LP are 0: B wins the duel"),
    ("对方B处理「ラストバトル！」的效果，场上还存在怪兽的回合玩家A获得决斗的胜利",
     'opponent B applies "Last Battle"\'s effect, turn player A, who still controls a monster, wins the duel'),
    ("回合玩家A丢弃2张手卡，手卡数目为6张", "turn player A discards 2 cards, keeping 6 cards in hand"),
    ("「自作のモンスター」除外", '"自作のモンスター" is banished'),
    ("CHAIN1「鉄の剣」效果处理，「鉄の剣」装备给「通常戦士」",
     'CHAIN1: "鉄の剣" resolves: "鉄の剣" is equipped to "通常戦士"'),
    ("「鉄の剣」没有装备的怪兽而被破坏（规则）", '"鉄の剣" is equipped to no monster and is destroyed (by the rules)'),
    ("「不壊の騎士」不会被战斗破坏", '"不壊の騎士" cannot be destroyed by battle'),
])
def test_detail_lines_in_english(detail: str, english: str) -> None:
    assert english_detail(detail) == english
