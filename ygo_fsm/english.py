"""English for the narration's detail lines.

The engine tells what happened in the seeds' words (Chinese, card names in Japanese as 000
gives them: ``CHAIN1 对方B发动「破壊輪」，选择「甲虫装甲騎士」``). :func:`english_detail` turns
such a line into English for ``narrate --lang en``: each phrase the engine writes has an
English form here, and each library card is named by its id in words (``Ring Of
Destruction``). A name the library does not know (a monster a setup names) is kept as given.

>>> english_detail("CHAIN1 对方B发动「破壊輪」，选择「甲虫装甲騎士」")
'CHAIN1: opponent B activates "Ring Of Destruction", targeting "Beetle Armor Knight"'
>>> english_detail("A的基本分为0，B获得决斗的胜利")
"A's LP are 0: B wins the duel"
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import lru_cache

__all__ = ["english_detail"]

_NAME = re.compile(r"「([^「」]*)」")
_PLAYER = r"(回合玩家[AB]|对方玩家[AB]|对方[AB]|[AB])"
_CARD = r"(«\d+»)"
_CARDS = r"(«\d+»(?:、?«\d+»)*)"
_N = r"(\d+)"
_KINDS = {"通常召唤": "normal summon", "里侧表示通常召唤（SET）": "Set", "反转召唤": "flip summon",
          "特殊召唤": "special summon"}
_KIND = "(" + "|".join(re.escape(kind) for kind in sorted(_KINDS, key=len, reverse=True)) + ")"
_POSITIONS = {"守备": "Defense Position", "攻击": "Attack Position"}
_PLACES = {"卡组": " from the deck", "手卡": " from the hand", "墓地": " from the graveyard",
           "除外的": " from among the banished cards", "": ""}
_PHASES = {"draw_phase": "Draw Phase", "standby_phase": "Standby Phase", "main_phase_1": "Main Phase 1",
           "battle_phase": "Battle Phase", "main_phase_2": "Main Phase 2", "end_phase": "End Phase"}


def _player(text: str) -> str:
    if text.startswith("回合玩家"):
        return f"turn player {text[-1]}"
    if text.startswith("对方"):
        return f"opponent {text[-1]}"
    return text


def _players(text: str) -> str:
    return " and ".join(_player(part) for part in text.split("、"))


def _cards(text: str) -> str:
    return ", ".join(re.findall(r"«\d+»", text))


def _plural(count: str, word: str) -> str:
    return f"{count} {word}" + ("" if count == "1" else "s")


_Rule = tuple[re.Pattern[str], Callable[[re.Match[str]], str]]


def _rules(table: list[tuple[str, Callable[[re.Match[str]], str]]]) -> list[_Rule]:
    return [(re.compile(f"^{pattern}$"), make) for pattern, make in table]


_WHOLE_LINES: list[_Rule] = _rules([
    ("对方怪兽的数量发生变化，战斗回卷，重新选择攻击对象",
     lambda m: "the opponent's monsters changed: the attack replays and a target is chosen again"),
    (f"连锁处理结束，{_CARD}处于不能攻击的状态，攻击中止",
     lambda m: f"the chain has resolved and {m[1]} can no longer attack: the attack is cancelled"),
    ("战斗回卷时不选择攻击对象，停止攻击（视为进行过攻击宣言）",
     lambda m: "no target chosen after the replay: the attack stops (it counts as declared)"),
    (f"伤害阶段结束时，战斗破坏的{_CARDS}送去墓地",
     lambda m: f"at the end of the Damage Step, {_cards(m[1])} (destroyed by battle) go to the graveyard"),
    (f"CHAIN{_N}{_CARD}已经不在场上，效果不处理",
     lambda m: f"CHAIN{m[1]}: {m[2]} is no longer on the field: no effect"),
    (f"CHAIN{_N}{_CARD}的对象已经不在，效果不处理", lambda m: f"CHAIN{m[1]}: {m[2]}'s target is gone: no effect"),
    (f"CHAIN{_N}{_CARD}已经离开(墓地|手卡)，效果不处理",
     lambda m: f"CHAIN{m[1]}: {m[2]} has left the {'graveyard' if m[3] == '墓地' else 'hand'}: no effect"),
    (f"{_CARD}的效果结束，{_CARD}的攻击力复原（{_N}）",
     lambda m: f"{m[1]}'s effect ends: {m[2]}'s ATK returns to {m[3]}"),
    (f"{_CARD}的效果结束，{_CARD}的守备力复原（{_N}）",
     lambda m: f"{m[1]}'s effect ends: {m[2]}'s DEF returns to {m[3]}"),
    (f"{_CARD}的效果结束，{_CARD}的控制权回到{_PLAYER}",
     lambda m: f"{m[1]}'s effect ends: control of {m[2]} returns to {_player(m[3])}"),
    (f"{_CARD}的效果结束，除外的{_CARD}回到场上",
     lambda m: f"{m[1]}'s effect ends: the banished {m[2]} returns to the field"),
    ("双方的基本分为0，平局", lambda m: "both players' LP are 0: the duel is a draw"),
    ("双方同时决斗败北，平局", lambda m: "both players lose at the same moment: the duel is a draw"),
    (f"{_PLAYER}必须抽卡却不能抽卡，{_PLAYER}获得决斗的胜利",
     lambda m: f"{_player(m[1])} must draw and cannot: {_player(m[2])} wins the duel"),
    ("决斗结束，之后的效果处理和连锁不进行",
     lambda m: "the duel is over: the rest of the resolution and of the chain does not happen"),
    (f"CHAIN{_N}{_CARD}的效果被无效，不处理",
     lambda m: f"CHAIN{m[1]}: {m[2]}'s effect was negated and does not resolve"),
    (f"{_PLAYER}的基本分为0，{_PLAYER}获得决斗的胜利",
     lambda m: f"{_player(m[1])}'s LP are 0: {_player(m[2])} wins the duel"),
    (f"{_PLAYER}代替通常的抽卡，从卡组把1张卡加入手卡",
     lambda m: f"instead of the normal draw, {_player(m[1])} adds 1 card from the deck to the hand"),
    (f"因为{_CARD}，不能特殊召唤", lambda m: f"{m[1]} forbids special summons: none takes place"),
    (f"{_CARD}的召唤无效，送去墓地", lambda m: f"{m[1]}'s summon is negated and it goes to the graveyard"),
    ("双方场上都不存在怪兽，平局", lambda m: "neither player controls a monster: the duel is a draw"),
    (f"回合玩家{_PLAYER}丢弃{_N}张手卡，手卡数目为{_N}张",
     lambda m: f"turn player {m[1]} discards {_plural(m[2], 'card')}, keeping {_plural(m[3], 'card')} in hand"),
])

_PHRASES: list[_Rule] = _rules([
    (f"回合玩家{_PLAYER}的{_CARD}攻击宣言", lambda m: f"turn player {m[1]}'s {m[2]} declares an attack"),
    ("直接攻击", lambda m: "a direct attack"),
    (f"攻击对象为{_CARD}", lambda m: f"the attack target is {m[1]}"),
    (f"{_CARD}的效果适用（不进入连锁）", lambda m: f"{m[1]}'s effect applies (no chain link)"),
    (f"里侧表示的{_CARD}变成表侧守备表示", lambda m: f"the face-down {m[1]} is turned face-up in Defense Position"),
    (f"{_CARD}(守|攻){_N} 直接攻击",
     lambda m: f"{m[1]} ({'DEF' if m[2] == '守' else 'ATK'} {m[3]}) attacks directly"),
    (f"{_CARD}(守|攻){_N} VS {_CARD}(守|攻){_N}",
     lambda m: f"{m[1]} ({'DEF' if m[2] == '守' else 'ATK'} {m[3]}) vs {m[4]} "
               f"({'DEF' if m[5] == '守' else 'ATK'} {m[6]})"),
    (f"{_PLAYER}受到{_N}分战斗伤害", lambda m: f"{_player(m[1])} takes {m[2]} battle damage"),
    (f"战斗破坏确定：{_CARDS}", lambda m: f"destroyed by battle: {_cards(m[1])}"),
    (f"{_PLAYER}不发动{_CARDS}的效果", lambda m: f"{_player(m[1])} does not activate {_cards(m[2])}"),
    (f"CHAIN{_N} {_PLAYER}再选择{_CARD}为对象", lambda m: f"CHAIN{m[1]}: {_player(m[2])} also targets {m[3]}"),
    (f"CHAIN{_N}{_CARD}的对象是{_CARDS}", lambda m: f"CHAIN{m[1]}: {m[2]} targets {_cards(m[3])}"),
    (f"CHAIN{_N} {_PLAYER}发动{_CARD}", lambda m: f"CHAIN{m[1]}: {_player(m[2])} activates {m[3]}"),
    (f"选择{_CARDS}", lambda m: f"targeting {_cards(m[1])}"),
    (f"支付一半基本分（{_N}）", lambda m: f"paying half their LP ({m[1]})"),
    (f"支付{_N}", lambda m: f"paying {m[1]} LP"),
    ("把这张卡做祭品", lambda m: "tributing this card"),
    ("把这张卡除外", lambda m: "banishing this card"),
    ("把这张卡丢弃", lambda m: "discarding this card"),
    (f"丢弃{_N}张手卡", lambda m: f"discarding {_plural(m[1], 'card')}"),
    (f"把墓地的{_CARD}除外", lambda m: f"banishing {m[1]} from the graveyard"),
    (f"把{_CARD}送去墓地", lambda m: f"sending {m[1]} to the graveyard"),
    (f"把{_CARD}做祭品", lambda m: f"tributing {m[1]}"),
    ("逆算", lambda m: "the chain resolves, last link first"),
    (f"CHAIN{_N}{_CARD}被无效不处理", lambda m: f"CHAIN{m[1]}: {m[2]} was negated and does not resolve"),
    (f"CHAIN{_N}{_CARD}效果处理", lambda m: f"CHAIN{m[1]}: {m[2]} resolves"),
    ("不发", lambda m: "nothing happens"),
    (f"{_PLAYER}处理{_CARD}的效果", lambda m: f"{_player(m[1])} applies {m[2]}'s effect"),
    (f"{_PLAYER}处理{_CARD}的维持COST：不支付维持COST",
     lambda m: f"{_player(m[1])} handles {m[2]}'s maintenance cost: not paid"),
    (f"{_PLAYER}处理{_CARD}的维持COST：支付{_N}基本分",
     lambda m: f"{_player(m[1])} handles {m[2]}'s maintenance cost: paying {m[3]} LP"),
    (f"{_PLAYER}处理{_CARD}的维持COST：支付一半基本分（{_N}）",
     lambda m: f"{_player(m[1])} handles {m[2]}'s maintenance cost: paying half their LP ({m[3]})"),
    (f"{_PLAYER}处理{_CARD}的维持COST：", lambda m: f"{_player(m[1])} handles {m[2]}'s maintenance cost"),
    (f"{_PLAYER}发动{_CARD}", lambda m: f"{_player(m[1])} activates {m[2]}"),
    (f"原来的场地魔法{_CARD}送去墓地", lambda m: f"the Field Spell already there, {m[1]}, is sent to the graveyard"),
    (f"{_CARD}的效果结束", lambda m: f"{m[1]}'s effect ends"),
    (f"([AB](?:、[AB])*)受到{_N}分伤害", lambda m: f"{_players(m[1])} take {m[2]} damage"),
    (f"{_PLAYER}的基本分恢复{_N}", lambda m: f"{_player(m[1])} gains {m[2]} LP"),
    (f"{_CARD}变成(守备|攻击)表示", lambda m: f"{m[1]} is changed to {_POSITIONS[m[2]]}"),
    (f"{_PLAYER}抽{_N}张卡", lambda m: f"{_player(m[1])} draws {_plural(m[2], 'card')}"),
    (f"{_CARD}回到手卡", lambda m: f"{m[1]} returns to the hand"),
    (f"{_CARD}作为祭品", lambda m: f"{m[1]} is tributed"),
    (f"{_PLAYER}支付{_N}基本分", lambda m: f"{_player(m[1])} pays {m[2]} LP"),
    (f"{_CARD}的攻击力变成一半（{_N}）", lambda m: f"{m[1]}'s ATK is halved ({m[2]})"),
    (f"{_PLAYER}丢弃{_N}张手卡", lambda m: f"{_player(m[1])} discards {_plural(m[2], 'card')}"),
    (f"{_CARD}除外", lambda m: f"{m[1]} is banished"),
    (f"{_PLAYER}从卡组把{_CARD}加入手卡", lambda m: f"{_player(m[1])} adds {m[2]} from the deck to the hand"),
    (f"{_CARD}变成里侧守备表示", lambda m: f"{m[1]} is changed to face-down Defense Position"),
    (f"{_CARDS}的控制权转移给{_PLAYER}", lambda m: f"{_player(m[2])} takes control of {_cards(m[1])}"),
    (f"{_CARD}的守备力变成{_N}", lambda m: f"{m[1]}'s DEF becomes {m[2]}"),
    (f"{_CARDS}的效果无效", lambda m: f"the effects of {_cards(m[1])} are negated"),
    (f"{_PLAYER}不受战斗伤害", lambda m: f"{_player(m[1])} takes no battle damage"),
    (f"{_CARD}装备给{_CARD}", lambda m: f"{m[1]} is equipped to {m[2]}"),
    (f"{_CARD}没有装备的怪兽而被破坏（规则）",
     lambda m: f"{m[1]} is equipped to no monster and is destroyed (by the rules)"),
    (f"{_CARD}不会被战斗破坏", lambda m: f"{m[1]} cannot be destroyed by battle"),
    (f"{_CARDS}送去墓地", lambda m: f"{_cards(m[1])} sent to the graveyard"),
    (f"{_CARDS}回到卡组", lambda m: f"{_cards(m[1])} returned to the deck"),
    (f"{_PLAYER}的场上特殊召唤{_N}只{_CARD}",
     lambda m: f"{m[2]} {m[3]} special summoned to {_player(m[1])}'s field"),
    (f"{_PLAYER}的下一个回合跳过([a-z_0-9]+)",
     lambda m: f"{_player(m[1])} skips the {_PHASES.get(m[2], m[2])} of their next turn"),
    ("战斗阶段结束", lambda m: "the Battle Phase ends"),
    ("这个回合怪兽不能攻击", lambda m: "monsters cannot attack this turn"),
    (f"{_CARD}的攻击力变成{_N}", lambda m: f"{m[1]}'s ATK becomes {m[2]}"),
    (f"场上还存在怪兽的{_PLAYER}获得决斗的胜利",
     lambda m: f"{_player(m[1])}, who still controls a monster, wins the duel"),
    (f"{_PLAYER}获得决斗的胜利", lambda m: f"{_player(m[1])} wins the duel"),
    ("平局", lambda m: "the duel is a draw"),
    ("场上存在的全部怪兽破坏", lambda m: "every monster on the field is destroyed"),
    (f"{_CARDS}破坏", lambda m: f"{_cards(m[1])} destroyed"),
    (f"双方的其他的场上和手上的卡全部送去墓地(?:（{_CARDS}）)?",
     lambda m: "every other card on both fields and in both hands goes to the graveyard"
               + (f" ({_cards(m[1])})" if m[1] else "")),
    (f"{_PLAYER}(卡组|手卡|墓地|除外的)?的{_CARD}(守备表示|里侧守备表示)?特殊召唤",
     lambda m: f"{_player(m[1])} special summons {m[3]}{_PLACES[m[2] or '']}"
               + ({"守备表示": " in Defense Position", "里侧守备表示": " in face-down Defense Position"}
                  .get(m[4] or "", ""))),
    (f"{_CARD}发动无效(并且破坏)?",
     lambda m: f"{m[1]}'s activation is negated" + (" and it is destroyed" if m[2] else "")),
    ("双方场上都存在怪兽", lambda m: "both players control monsters"),
    (f"回合玩家{_PLAYER}{_KIND}{_CARD}?的宣言",
     lambda m: f"turn player {m[1]} declares a {_KINDS[m[2]]}" + (f" of {m[3]}" if m[3] else "")),
    (f"从墓地把{_CARDS}除外", lambda m: f"banishing {_cards(m[1])} from the graveyard"),
    (f"({_CARD}|怪兽){_KIND}成功",
     lambda m: f"the {_KINDS[m[3]]} of {m[2] or 'a monster'} succeeds"),
    (f"回合玩家{_PLAYER}把{_CARD}变成(守备|攻击)表示",
     lambda m: f"turn player {m[1]} changes {m[2]} to {_POSITIONS[m[3]]}"),
    (f"回合玩家{_PLAYER}覆盖放置1张魔法陷阱卡", lambda m: f"turn player {m[1]} sets 1 spell or trap card"),
])


_RULES = _WHOLE_LINES + _PHRASES


@lru_cache(maxsize=1)
def _card_names() -> dict[str, str]:
    from .cards import default_library  # the library loads lazily, on the first English line

    names: dict[str, str] = {}
    for card in default_library().values():
        english = card.id.replace("_", " ").title()
        names[card.name_ja] = names[card.name_zh] = english
    return names


@lru_cache(maxsize=1)
def _effect_texts() -> frozenset[str]:
    """The library cards' effect texts (their ``label``): a continuous card's resolution says
    which of them now applies, in the card's own words."""
    from .cards import default_library

    return frozenset(effect.label for card in default_library().values() for effect in card.effects)


def _translate(text: str, rules: list[_Rule]) -> str | None:
    for pattern, make in rules:
        match = pattern.match(text)
        if match:
            return make(match)
    if text in _effect_texts():  # a card's own text: quoted as printed, like a card name
        return f'its effect now applies ("{text}")'
    return None


def english_detail(text: str) -> str:
    """``text`` (a trace record's detail line) in English; a phrase without an English form is
    kept as written."""
    names: list[str] = []

    def hold(match: re.Match[str]) -> str:
        names.append(match.group(1))
        return f"«{len(names) - 1}»"

    parts = _NAME.sub(hold, text).split("，")
    told: list[str] = []
    start = 0
    while start < len(parts):  # the longest run of phrases that has an English form, from the left
        for end in range(len(parts), start, -1):
            english = _translate("，".join(parts[start:end]), _RULES)
            if english is not None:
                break
        else:
            end, english = start + 1, parts[start]
        told.append(english)
        start = end
    whole = ", ".join(told)
    if whole.startswith("CHAIN") and " resolves, " in whole:
        whole = whole.replace(" resolves, ", " resolves: ", 1)
    known = _card_names()
    return re.sub(r"«(\d+)»", lambda m: f'"{known.get(names[int(m.group(1))], names[int(m.group(1))])}"', whole)
