"""The overview diagram: the job of Konami's Fast Effect Timing chart, done from the machines.

It shows, on one page:

* the phase/step rail — the states of ``turn`` that run a phase machine, in declaration order,
  with the Battle Phase's steps beside it (each box links to its machine);
* the open game state and the response windows, labelled with the chart's boxes A–E, each
  box naming the machine state that plays it (:data:`FET_BOXES`);
* the chain, with the spell speeds a response needs, and the trigger priority list;
* the Damage Step's activation limits, read from the states' ``activation_limit``;
* where the summon and attack procedures plug in (the states that run them).

Every state the overview names must exist (:func:`check_overview`), so the overview cannot
drift from the machines without a test failing.

The chart's boxes (Konami, "Fast Effect Timing" chart, as the Yugipedia article on fast effect
timing explains it): A the open game state, where every phase and step begins and the turn
player may take any action; B the turn player's chance to activate a spell speed 2+ effect
after their own action or after a chain resolved; C the opponent's chance after B; D building a
chain, the player who did not add the newest link acting; E the opponent's chance after the
turn player passed in A (both passing moves the duel to the next phase or step).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from itertools import pairwise

from .drawing import (
    _LIMIT_TEXT,
    FONTNAME,
    _dot_attrs,
    _dot_label,
    _dot_quote,
    _languages,
    _mermaid_text,
)
from .spec import Label, Lang, MachineSpec
from .wording import COLUMNS, display, display_citation, official, wrap, wrapped

__all__ = ["FET_BOXES", "FetBox", "check_overview", "overview_dot", "overview_mermaid"]

FET_SOURCE = "Konami Fast Effect Timing chart (boxes A–E)"


@dataclass(frozen=True)
class FetBox:
    """One box of the Fast Effect Timing chart and the machine states that play it."""

    letter: str
    label: Label
    states: tuple[str, ...]
    """``machine.state`` ids."""
    rule: str


FET_BOXES: tuple[FetBox, ...] = (
    FetBox("A", Label(zh="A 开放的游戏状态：回合玩家可以进行任何行为（召唤、SET、发动、攻击宣言、进入下一阶段）",
                      en="A The open game state: the turn player may take any action (summon, set, activate, "
                         "declare an attack, move on)"),
           ("priority.turn_player",),
           "000 ◇持有优先权的回合玩家可以进行的行为; FET chart box A"),
    FetBox("B", Label(zh="B 行为或连锁处理之后：回合玩家可以先发动2速以上的卡",
                      en="B After an action or a chain: the turn player may activate spell speed 2+ first"),
           ("trigger_window.turn_player",),
           "000 卡／效果发动的优先顺序 ５・７; FET chart box B"),
    FetBox("C", Label(zh="C 回合玩家不发动：对方可以发动2速以上的卡", en="C The turn player did not: the opponent may"),
           ("trigger_window.opponent",),
           "000 卡／效果发动的优先顺序 ７; FET chart box C"),
    FetBox("D", Label(zh="D 组成连锁：没有发动最新连锁块的玩家可以连锁",
                      en="D Building a chain: the player who did not add the newest link may respond"),
           ("chain.building", "chain.confirming"),
           "000 ◇·发动2速以上的卡（进入连锁）; FET chart box D"),
    FetBox("E", Label(zh="E 回合玩家放弃优先权：对方可以发动；双方都放弃则进入下一阶段或步骤",
                      en="E The turn player passed: the opponent may activate; both passing ends the phase or step"),
           ("priority.opponent",),
           "000 ◇因为回合玩家的放弃优先权而得到优先权的对方玩家可以进行的行为; FET chart box E"),
)

_SPELL_SPEEDS = Label(
    zh="咒文速度：1 通常魔法・装备・场地・仪式・永续魔法、起动效果、诱发效果；"
       "2 速攻魔法、通常・永续陷阱、诱发即时效果；3 反击陷阱。回应的卡必须是2速以上，且不低于最新的连锁块",
    en="Spell speed: 1 normal/equip/field/ritual/continuous spells, ignition and trigger effects; 2 quick-play "
       "spells, normal/continuous traps, quick effects; 3 counter traps. A response needs spell speed 2+, "
       "not lower than the newest link",
)
_PRIORITY_LIST = Label(
    zh="同时诱发的优先顺序：1 回合玩家的必发（含反转） 2 对方的必发 3 回合玩家的任意发动 4 对方的任意发动 "
       "5 回合玩家的起动效果（只限主要阶段且CHAIN1未被占） 6・7 2速以上的卡",
    en="Simultaneous triggers: 1 turn player's mandatory (flip included) 2 opponent's mandatory 3 turn player's "
       "optional 4 opponent's optional 5 turn player's ignition (Main Phase, CHAIN1 free) 6–7 spell speed 2+",
)
_PRIORITY_RULE = "000 卡／效果的发动时点内，卡／效果发动的优先顺序（组成一组连锁）１–７"


def check_overview(specs: Mapping[str, MachineSpec]) -> list[str]:
    """Problems: a ``machine.state`` the overview names that the machines do not have."""
    problems = []
    for box in FET_BOXES:
        for name in box.states:
            machine, _, state = name.partition(".")
            if machine not in specs or state not in specs[machine].state_ids():
                problems.append(f"FET box {box.letter}: no state {name!r}")
    if "turn" not in specs:
        problems.append("no machine 'turn' for the phase rail")
    return problems


def _lines(label: Label, langs: Sequence[Lang], columns: int = COLUMNS) -> list[str]:
    """An overview text (in the official words already) wrapped."""
    return wrapped((official(label, lang) for lang in langs), columns)


def _machine_lines(label: Label, langs: Sequence[Lang], columns: int = COLUMNS) -> list[str]:
    """A machine file's label (in the seeds' words), shown in the official ones, wrapped."""
    return wrapped((display(label, lang) for lang in langs), columns)


def _cite(rule: str, columns: int = COLUMNS) -> list[str]:
    return wrap(f"[{display_citation(rule)}]", columns)


def _node(name: str, lines: list[str], **attrs: str) -> str:
    pairs = [("id", _dot_quote(name)), ("label", _dot_label(lines))]
    pairs += [(key, _dot_quote(value)) for key, value in attrs.items()]
    return f"        {_dot_quote(name)} {_dot_attrs(pairs)};"


def _edge(source: str, dest: str, text: str = "", **attrs: str) -> str:
    pairs = [("label", _dot_quote(text))] if text else []
    pairs += [(key, _dot_quote(value)) for key, value in attrs.items()]
    return f"    {_dot_quote(source)} -> {_dot_quote(dest)}" + (f" {_dot_attrs(pairs)}" if pairs else "") + ";"


def _both(zh: str, en: str, langs: Sequence[Lang], joint: str = "\n") -> str:
    return joint.join(zh if lang is Lang.zh else en for lang in langs)


def overview_dot(specs: Mapping[str, MachineSpec], *, lang: str = "both", link: str = "{machine}.svg") -> str:
    """DOT text of the overview (see the module doc). ``ValueError`` when it names a missing state."""
    problems = check_overview(specs)
    if problems:
        raise ValueError("; ".join(problems))
    langs = _languages(lang)
    font = _dot_quote(FONTNAME)
    title = [_both("规则总览（快速效果时点表的内容，由状态机生成）",
                   "Overview (the Fast Effect Timing chart's job, from the machines)", langs, "\n")]
    out = [
        "// Generated by ygo-fsm from the machines; do not edit by hand.",
        'digraph "overview" {',
        "    graph " + _dot_attrs([("id", _dot_quote("overview")), ("charset", _dot_quote("UTF-8")),
                                    ("rankdir", _dot_quote("TB")), ("nodesep", _dot_quote("0.25")),
                                    ("ranksep", _dot_quote("0.35")), ("fontname", font),
                                    ("fontsize", _dot_quote("16")), ("labelloc", _dot_quote("t")),
                                    ("label", _dot_label(title)), ("compound", _dot_quote("true"))]) + ";",
        "    node " + _dot_attrs([("fontname", font), ("fontsize", _dot_quote("11")), ("shape", _dot_quote("box")),
                                   ("style", _dot_quote("rounded"))]) + ";",
        "    edge " + _dot_attrs([("fontname", font), ("fontsize", _dot_quote("9"))]) + ";",
    ]
    # the phase/step rail
    turn = specs["turn"]
    rail = [state for state in turn.states if state.machine is not None]
    out += ["    subgraph cluster_rail {",
            "        graph " + _dot_attrs([("label", _dot_quote(_both("阶段的顺序", "Phases in order", langs))),
                                            ("style", _dot_quote("rounded")), ("color", _dot_quote("#2e6b30"))]) + ";"]
    for state in rail:
        assert state.machine is not None
        lines = _machine_lines(state.label, langs, 24)
        out.append(_node(f"rail_{state.id}", lines, URL=link.format(machine=state.machine), target="_top",
                         tooltip=state.rule, color="#2e6b30"))
    battle = specs.get("battle_phase")
    steps = [state for state in battle.states if not state.final] if battle is not None else []
    out.append("    }")
    if steps:
        out += ["    subgraph cluster_battle {",
                "        graph " + _dot_attrs([("label", _dot_quote(_both("战斗阶段的步骤", "Battle Phase steps",
                                                                                  langs))),
                                                ("style", _dot_quote("rounded,dashed"))]) + ";"]
        for state in steps:
            attrs = {"tooltip": state.rule}
            if state.machine is not None:
                attrs.update(URL=link.format(machine=state.machine), target="_top")
            out.append(_node(f"step_{state.id}", _machine_lines(state.label, langs, 24), **attrs))
        out.append("    }")
    for before, after in pairwise(rail):
        out.append(_edge(f"rail_{before.id}", f"rail_{after.id}", weight="10"))
    for before, after in pairwise(steps):
        out.append(_edge(f"step_{before.id}", f"step_{after.id}", style="dashed"))
    battle_runner = next((state for state in rail if state.machine == "battle_phase"), None)
    if steps and battle_runner is not None:
        out.append(_edge(f"rail_{battle_runner.id}", f"step_{steps[0].id}", style="dotted", arrowhead="none"))
    # the FET boxes
    out += ["    subgraph cluster_fet {",
            "        graph " + _dot_attrs([("label", _dot_quote(_both(
                                                    "每个阶段・步骤中：优先权与连锁（快速效果时点表 A–E）",
                                                                   "In every phase and step: priority and the chain "
                                                                   "(Fast Effect Timing chart A–E)", langs))),
                                            ("style", _dot_quote("rounded")), ("color", _dot_quote("#7a3fa8"))]) + ";"]
    for box in FET_BOXES:
        machine = box.states[0].partition(".")[0]
        lines = _lines(box.label, langs, 34) + wrap("＝ " + "、".join(box.states), 34) + _cite(box.rule, 34)
        fill = "#e3f4e1" if box.letter == "A" else "#eef2fb"
        out.append(_node(f"fet_{box.letter}", lines, URL=link.format(machine=machine), target="_top",
                         tooltip=box.rule, style="rounded,filled", fillcolor=fill))
    chain_title = Label(zh="连锁：逆算（从最新的连锁块开始处理）", en="Chain: resolves newest link first")
    chain_lines = (_lines(chain_title, langs, 34)
                   + _lines(_SPELL_SPEEDS, langs, 34) + _cite("000 ◇·发动2速以上的卡（进入连锁）", 34))
    out.append(_node("chain", chain_lines, URL=link.format(machine="chain"), target="_top", shape="box3d"))
    trigger_lines = _lines(_PRIORITY_LIST, langs, 34) + _cite(_PRIORITY_RULE, 34)
    out.append(_node("triggers", trigger_lines, URL=link.format(machine="trigger_window"), target="_top",
                     shape="note"))
    both_node = [*_lines(Label(zh="本阶段・步骤结束", en="this phase or step ends"), langs, 34), *_cite(
        "004 ●每个阶段或步骤，需要在双方玩家互相放弃发动卡的优先权且效果处理全部进行完毕时才能终了", 34)]
    out.append(_node("phase_over", both_node, peripheries="2"))
    out.append("    }")
    say = {
        "action": _both("不进入连锁的行为（召唤等）", "an action that starts no chain (a summon …)", langs, "\n"),
        "activate": _both("发动（CHAIN1）", "activates (CHAIN1)", langs, "\n"),
        "pass": _both("放弃优先权", "passes", langs, "\n"),
        "pass_b": _both("不发动", "does not activate", langs, "\n"),
        "both": _both("双方都放弃：下一阶段・步骤", "both passed: next phase or step", langs, "\n"),
        "resolve": _both("双方都放弃：逆算", "both passed: resolve", langs, "\n"),
        "respond": _both("连锁（2速以上）", "responds (spell speed 2+)", langs, "\n"),
        "window": _both("诱发效果先组成连锁", "triggers go on the chain first", langs, "\n"),
        "back": _both("都不发动：回到A", "nobody activates: back to A", langs, "\n"),
    }
    out += [
        _edge("fet_A", "triggers", say["action"], color="#1f5fbf", fontcolor="#1f5fbf"),
        _edge("fet_A", "chain", say["activate"], color="#1f5fbf", fontcolor="#1f5fbf"),
        _edge("fet_A", "fet_E", say["pass"], color="#1f5fbf", fontcolor="#1f5fbf"),
        _edge("triggers", "fet_B", say["window"], style="dashed"),
        _edge("fet_B", "fet_C", say["pass_b"], color="#1f5fbf", fontcolor="#1f5fbf"),
        _edge("fet_C", "fet_A", say["back"], color="#b8322a", fontcolor="#b8322a", constraint="false"),
        _edge("fet_B", "fet_D", say["activate"], color="#1f5fbf", fontcolor="#1f5fbf"),
        _edge("fet_C", "fet_D", say["activate"], color="#b8322a", fontcolor="#b8322a"),
        _edge("fet_E", "fet_D", say["activate"], color="#b8322a", fontcolor="#b8322a"),
        _edge("chain", "fet_D", say["respond"], style="dashed"),
        _edge("fet_D", "triggers", say["resolve"], style="dashed"),
    ]
    out.append(_edge("fet_E", "phase_over", say["both"], color="#b8322a", fontcolor="#b8322a"))
    # the procedures that plug in, and the Damage Step limits
    plugged = []
    for machine in ("summon_procedure", "attack_declaration", "damage_step"):
        spec = specs.get(machine)
        if spec is None:
            continue
        runners = [f"{parent.id}.{state.id}" for parent in specs.values() for state in parent.states
                   if state.machine == machine]
        entered = _both("从此进入：", "entered from: ", langs, " / ") + "、".join(runners)
        lines = _machine_lines(spec.label, langs, 30) + wrap(entered, 30)
        if machine == "damage_step":
            limited = [state for state in spec.states if state.activation_limit is not None]
            for value in dict.fromkeys(state.activation_limit.value for state in limited if state.activation_limit):
                where = "、".join(display(state.label, langs[0]) for state in limited
                                 if state.activation_limit and state.activation_limit.value == value)
                lines += wrap(f"{where}：", 30) + _lines(_LIMIT_TEXT[value], langs, 30)
            lines += _cite("004 ●伤害步骤中，基本上…不能发动卡片", 30)
        out.append(_node(f"proc_{machine}", lines, URL=link.format(machine=machine), target="_top", shape="box3d",
                         color="#2e6b30", tooltip=spec.rule))
        plugged.append(machine)
    for upper, lower in pairwise(plugged):
        out.append(_edge(f"proc_{upper}", f"proc_{lower}", style="invis"))
    for machine in plugged:
        runner = next(((parent, state) for parent in specs.values() for state in parent.states
                       if state.machine == machine), None)
        if runner is None:
            continue
        parent, state = runner
        source = (f"rail_{state.id}" if parent.id == "turn" else f"step_{state.id}" if parent.id == "battle_phase"
                  else f"rail_{next((s.id for s in rail if s.machine == parent.id), rail[0].id)}")
        out.append(_edge(source, f"proc_{machine}", style="dotted", arrowhead="vee", constraint="false"))
    out.append("}")
    return "\n".join(out) + "\n"


def overview_mermaid(specs: Mapping[str, MachineSpec], *, lang: str = "both") -> str:
    """Mermaid ``flowchart`` text of the overview: the phase rail and the boxes A–E."""
    problems = check_overview(specs)
    if problems:
        raise ValueError("; ".join(problems))
    langs = _languages(lang)

    def text(lines: list[str]) -> str:
        return "<br/>".join(_mermaid_text(line).replace("*", "#42;") for line in lines)

    out = ["flowchart TB", "    %% overview: generated by ygo-fsm, do not edit by hand",
           f'    subgraph rail["{text([_both("阶段的顺序", "Phases in order", langs)])}"]', "    direction LR"]
    rail = [state for state in specs["turn"].states if state.machine is not None]
    for state in rail:
        out.append(f'    rail_{state.id}["{text(_machine_lines(state.label, langs, 24))}"]')
    out.append("    " + " --> ".join(f"rail_{state.id}" for state in rail))
    out.append("    end")
    out.append(f'    subgraph fet["{text([_both("快速效果时点表 A–E", "Fast Effect Timing chart A–E", langs)])}"]')
    for box in FET_BOXES:
        out.append(f'    fet_{box.letter}["{text([*_lines(box.label, langs, 34), "＝ " + "、".join(box.states)])}"]')
    out.append(f'    chain[["{text(_lines(_SPELL_SPEEDS, langs, 34))}"]]')
    out.append(f'    triggers["{text(_lines(_PRIORITY_LIST, langs, 34))}"]')
    out += [
        f'    fet_A -->|"{text([_both("不进入连锁的行为", "action, no chain", langs)])}"| triggers',
        f'    fet_A -->|"{text([_both("发动", "activates", langs)])}"| fet_D',
        f'    fet_A -->|"{text([_both("放弃优先权", "passes", langs)])}"| fet_E',
        "    triggers --> fet_B",
        f'    fet_B -->|"{text([_both("不发动", "does not activate", langs)])}"| fet_C',
        "    fet_B --> fet_D", "    fet_C --> fet_D", "    fet_E --> fet_D", "    chain --- fet_D",
        f'    fet_D -->|"{text([_both("逆算", "resolve", langs)])}"| triggers',
        f'    fet_C -->|"{text([_both("都不发动", "nobody activates", langs)])}"| fet_A',
        "    end",
    ]
    for box in FET_BOXES:
        out.append(f'    click fet_{box.letter} "{box.states[0].partition(".")[0]}.svg"')
    for state in rail:
        out.append(f'    click rail_{state.id} "{state.machine}.svg"')
    return "\n".join(out) + "\n"
