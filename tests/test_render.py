"""Tests of ygo_fsm.render: DOT, Mermaid, SVG and the diagrams index, on hand-built specs."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from ygo_fsm import render
from ygo_fsm.spec import (
    DONE_EVENT,
    Actor,
    Label,
    MachineSpec,
    Role,
    StateSpec,
    TransitionSpec,
)

needs_dot = pytest.mark.skipif(shutil.which("dot") is None, reason="Graphviz 'dot' not installed")

RULE_START = "000 ●ドローフェイズ【１】"
RULE_WINDOW = "000 ●ドローフェイズ【２】"
RULE_DRAW = "001 ●通常のドロー"
RULE_DECK_OUT = "002 ●デッキ切れ"


def _label(zh: str, en: str) -> Label:
    return Label(zh=zh, en=en)


def sample_machine() -> MachineSpec:
    """Start → (engine, guarded) draw → window (runs priority) → done → end; deck-out → lost."""
    return MachineSpec(
        id="draw_phase",
        label=_label("抽卡阶段", "Draw Phase"),
        rule="000 ●ドローフェイズ",
        initial="start",
        states=(
            StateSpec(
                id="start",
                label=_label("抽卡阶段开始", "Draw Phase begins"),
                rule=RULE_START,
                priority=Role.turn_player,
            ),
            StateSpec(
                id="window",
                label=_label("抽卡后的时点", "after the draw"),
                rule=RULE_WINDOW,
                machine="priority",
            ),
            StateSpec(id="end", label=_label("抽卡阶段结束", "Draw Phase ends"), final=True),
            StateSpec(
                id="deck_out",
                label=_label("卡组耗尽", "deck out"),
                rule=RULE_DECK_OUT,
                terminal=True,
            ),
        ),
        transitions=(
            TransitionSpec(
                id="normal_draw",
                event="card_drawn",
                actor=Actor.engine,
                source="start",
                dest="window",
                guards=("deck_not_empty",),
                unless=("draw_skipped",),
                callbacks=("draw_card", "log_draw"),
                label=_label("回合玩家抽1张卡", "turn player draws 1 card"),
                rule=RULE_DRAW,
            ),
            TransitionSpec(
                id="declare_end",
                event="pass",
                actor=Actor.turn_player,
                source="start",
                dest="end",
                label=_label('宣言 "结束"', 'say "end"; go on'),
                rule="000 ●ドローフェイズ【３】",
            ),
            TransitionSpec(
                id="window_closed",
                event=DONE_EVENT,
                actor=Actor.engine,
                source="window",
                dest="end",
                label=_label("时点结束", "the window closes"),
                rule=RULE_WINDOW,
            ),
            TransitionSpec(
                id="decked_out",
                event="deck_emptied",
                actor=Actor.engine,
                source="start",
                dest="deck_out",
                unless=("deck_not_empty",),
                label=_label("无法抽卡", "cannot draw"),
                rule=RULE_DECK_OUT,
            ),
        ),
    )


def small_machine() -> MachineSpec:
    return MachineSpec(
        id="standby_phase",
        label=_label("准备阶段", "Standby Phase"),
        rule="000 ●スタンバイフェイズ",
        initial="start",
        states=(
            StateSpec(id="start", label=_label("准备阶段开始", "Standby Phase begins")),
            StateSpec(id="end", label=_label("准备阶段结束", "Standby Phase ends"), final=True),
        ),
        transitions=(
            TransitionSpec(
                id="proceed",
                event="standby_done",
                actor=Actor.engine,
                source="start",
                dest="end",
                label=_label("进入下一阶段", "move on"),
            ),
        ),
    )


def _dot_statement(dot: str, marker: str) -> str:
    """The one DOT line holding ``marker`` (an ``id="…"`` attribute)."""
    lines = [line for line in dot.splitlines() if marker in line]
    assert len(lines) == 1, (marker, lines)
    return lines[0]


# --------------------------------------------------------------------------- DOT


def test_dot_names_every_state_and_transition_with_stable_ids() -> None:
    spec = sample_machine()
    dot = render.to_dot(spec, detail="engine")
    assert dot.startswith("// ") and 'digraph "draw_phase" {' in dot
    for state in spec.states:
        assert f'"{state.id}" [id="state_{state.id}"' in dot
    for transition in spec.transitions:
        line = _dot_statement(dot, f'id="tr_{transition.id}"')
        assert line.strip().startswith(f'"{transition.source}" -> "{transition.dest}"')
    assert '"__start__" -> "start"' in dot
    assert 'charset="UTF-8"' in dot and 'rankdir="TB"' in dot
    assert "Noto Sans CJK SC" in dot


def test_dot_cites_rules_in_labels_and_tooltips() -> None:
    dot = render.to_dot(sample_machine(), detail="engine")
    start = _dot_statement(dot, 'id="state_start"')
    assert f"\\n[{RULE_START}]" in start
    assert f'tooltip="{RULE_START}"' in start
    draw = _dot_statement(dot, 'id="tr_normal_draw"')
    assert f"[{RULE_DRAW}]" in draw and f'tooltip="{RULE_DRAW}"' in draw
    # the graph label carries the machine's labels and rule
    assert 'label="抽卡阶段\\nDraw Phase\\n[000 ●ドローフェイズ]"' in dot


def test_dot_edge_shows_event_actor_guards_callbacks() -> None:
    dot = render.to_dot(sample_machine(), detail="engine", lang="en")
    draw = _dot_statement(dot, 'id="tr_normal_draw"')
    assert "card_drawn (engine (automatic))" in draw
    assert "[deck_not_empty ∧ ¬draw_skipped]" in draw
    assert "/ draw_card, log_draw" in draw
    assert 'style="dashed"' in draw
    only_unless = _dot_statement(dot, 'id="tr_decked_out"')
    assert "[¬deck_not_empty]" in only_unless
    player = _dot_statement(dot, 'id="tr_declare_end"')
    assert 'style="solid"' in player and "pass (turn player)" in player
    assert "[" not in player.split("label=")[1].split("\\n")[1]  # no guard line
    done = _dot_statement(dot, 'id="tr_window_closed"')
    assert 'style="dotted"' in done


def test_dot_zh_actor_names() -> None:
    dot = render.to_dot(sample_machine(), detail="engine", lang="zh")
    assert "card_drawn (引擎(自动))" in _dot_statement(dot, 'id="tr_normal_draw"')
    assert "pass (回合玩家)" in _dot_statement(dot, 'id="tr_declare_end"')


def test_dot_node_styles() -> None:
    dot = render.to_dot(sample_machine(), detail="engine", lang="both")
    window = _dot_statement(dot, 'id="state_window"')
    assert 'shape="box3d"' in window
    assert "▶ 执行子状态机 priority\\n▶ runs machine priority" in window
    end = _dot_statement(dot, 'id="state_end"')
    assert 'peripheries="2"' in end and "octagon" not in end
    deck_out = _dot_statement(dot, 'id="state_deck_out"')
    assert 'shape="octagon"' in deck_out and "peripheries" not in deck_out
    start = _dot_statement(dot, 'id="state_start"')
    assert "回合玩家行动\\nturn player acts" in start
    assert 'id="start"' in _dot_statement(dot, 'shape="point"')


def test_dot_language_selection() -> None:
    spec = sample_machine()
    english = render.to_dot(spec, detail="engine", lang="en")
    chinese = render.to_dot(spec, detail="engine", lang="zh")
    both = render.to_dot(spec, detail="engine", lang="both")
    for text in ("抽卡阶段开始", "回合玩家抽1张卡", "回合玩家", "执行子状态机"):
        assert text not in english
        assert text in chinese and text in both
    for text in (
        "Draw Phase begins",
        "turn player draws 1 card",
        "runs machine",
        "engine",
    ):
        assert text not in chinese
        assert text in english and text in both
    # rule citations are language-independent
    assert RULE_START in english and RULE_START in chinese
    # zh line, then en line
    assert "抽卡阶段开始\\nDraw Phase begins" in both


def test_dot_escapes_quotes_and_backslashes() -> None:
    spec = sample_machine()
    dot = render.to_dot(spec, detail="engine", lang="en")
    assert 'say \\"end\\"; go on' in _dot_statement(dot, 'id="tr_declare_end"')
    odd = spec.model_copy(update={"label": _label("反\\斜杠", 'a "quoted"\\name')})
    odd_dot = render.to_dot(odd, detail="engine", lang="en")
    assert 'label="a \\"quoted\\"\\\\name\\n' in odd_dot
    # every double quote in the output is either a delimiter or escaped: the quoted
    # strings of each line pair up once escapes are removed
    for line in odd_dot.splitlines():
        assert line.replace("\\\\", "").replace('\\"', "").count('"') % 2 == 0, line


def test_dot_highlight() -> None:
    spec = sample_machine()
    plain = render.to_dot(spec, detail="engine")
    highlighted = render.to_dot(spec, detail="engine", highlight="window")
    assert "filled" not in plain
    window = _dot_statement(highlighted, 'id="state_window"')
    assert "filled" in window and "bold" in window
    assert "filled" not in _dot_statement(highlighted, 'id="state_start"')
    with pytest.raises(ValueError, match="no_such_state"):
        render.to_dot(spec, detail="engine", highlight="no_such_state")


def test_unknown_lang_is_rejected() -> None:
    with pytest.raises(ValueError, match="ja"):
        render.to_dot(sample_machine(), detail="engine", lang="ja")
    with pytest.raises(ValueError, match="ja"):
        render.to_mermaid(sample_machine(), lang="ja")


def test_outputs_are_deterministic_and_in_declaration_order() -> None:
    spec = sample_machine()
    assert render.to_dot(spec, detail="engine") == render.to_dot(sample_machine(), detail="engine")
    assert render.to_mermaid(spec) == render.to_mermaid(sample_machine())
    assert render.index_markdown([spec]) == render.index_markdown([sample_machine()])
    dot = render.to_dot(spec, detail="engine")
    positions = [dot.index(f'id="state_{s.id}"') for s in spec.states]
    assert positions == sorted(positions)
    positions = [dot.index(f'id="tr_{t.id}"') for t in spec.transitions]
    assert positions == sorted(positions)
    assert dot.endswith("}\n") and not dot.endswith("\n\n")


# --------------------------------------------------------------------------- Mermaid


def test_mermaid_structure() -> None:
    spec = sample_machine()
    mermaid = render.to_mermaid(spec, lang="both", detail="engine")
    lines = mermaid.splitlines()
    assert lines[0] == "stateDiagram-v2"
    assert "    [*] --> start" in lines
    assert "    end --> [*]" in lines
    assert "    deck_out --> [*]" not in lines  # terminal, not final
    assert "    start --> window : card_drawn [deck_not_empty ∧ ¬draw_skipped] / draw_card, log_draw" in lines
    assert "    start --> end : pass" in lines
    assert f"    window --> end : {DONE_EVENT}" in lines
    assert "    start --> deck_out : deck_emptied [¬deck_not_empty]" in lines
    note = [line for line in lines if line.startswith("    note right of window : ")]
    assert len(note) == 1 and "priority" in note[0]
    state_line = next(line for line in lines if line.endswith(" as start"))
    assert state_line.startswith('    state "抽卡阶段开始<br/>Draw Phase begins<br/>')
    assert "[000 ●ドローフェイズ【１】]" in state_line
    assert mermaid.endswith("\n") and not mermaid.endswith("\n\n")


def test_mermaid_is_safe() -> None:
    spec = sample_machine()
    nasty = spec.model_copy(
        update={
            "states": (
                spec.states[0].model_copy(update={"label": _label('他说 "好"; #1', 'he said "ok": a; #1 %% <b>')}),
                *spec.states[1:],
            )
        }
    )
    mermaid = render.to_mermaid(nasty, lang="both", detail="engine")
    state_line = next(line for line in mermaid.splitlines() if line.endswith(" as start"))
    description = state_line[len('    state "') : -len('" as start')]
    assert '"' not in description
    bare = re.sub(r"#\d+;", "", description)  # what is left outside entity codes
    for char in ";:#%<>":
        assert char not in bare.replace("<br/>", ""), char
    assert "he said 'ok'#58; a#59; #35;1 #37;#37; #60;b#62;" in description
    assert "他说 '好'#59; #35;1" in description
    for line in mermaid.splitlines()[1:]:
        if " --> " in line and " : " in line:
            text = line.split(" : ", 1)[1]
            assert ":" not in text and '"' not in text


def test_mermaid_language_selection() -> None:
    english = render.to_mermaid(sample_machine(), lang="en", detail="engine")
    chinese = render.to_mermaid(sample_machine(), lang="zh", detail="engine")
    assert "Draw Phase begins" in english and "抽卡阶段开始" not in english
    assert "抽卡阶段开始" in chinese and "Draw Phase begins" not in chinese
    assert "执行子状态机" in chinese and "runs machine" not in chinese


def test_mermaid_renames_ids_it_would_read_as_keywords() -> None:
    spec = small_machine()
    states = (spec.states[0], spec.states[1].model_copy(update={"id": "default_end"}))
    transition = spec.transitions[0].model_copy(update={"dest": "default_end"})
    mermaid = render.to_mermaid(spec.model_copy(update={"states": states, "transitions": (transition,)}),
                                detail="engine")
    assert "as s_default_end" in mermaid
    assert "start --> s_default_end : standby_done" in mermaid
    assert not re.search(r"(^|\s)default_end", mermaid)


# --------------------------------------------------------------------------- index


def test_index_markdown() -> None:
    specs = [sample_machine(), small_machine()]
    text = render.index_markdown(specs, lang="both")
    assert text.startswith("# ygo-fsm rule-flow diagrams")
    assert "make diagrams" in text and "规则流程图" in text
    assert text.endswith("\n") and not text.endswith("\n\n")
    assert text.count("```mermaid\n") == 2
    # each machine's Mermaid diagram is embedded verbatim, in the given order
    blocks = re.findall(r"```mermaid\n(.*?)```", text, flags=re.DOTALL)
    assert blocks == [render.to_mermaid(spec, lang="both") for spec in specs]
    for spec in specs:
        assert f"[{spec.id}.svg]({spec.id}.svg)" in text
        assert f"[{spec.id}.dot]({spec.id}.dot)" in text
    assert text.index(" · Draw Phase \\[") < text.index(" · Standby Phase \\[")
    # the sample's labels are read in seed 000's words (阶段 = Step), shown in the official ones
    assert "## 抽卡步骤 · Draw Phase \\[000 ●ドローフェイズ\\]" in text
    assert f"| `start` | 抽卡步骤开始 | Draw Phase begins | {RULE_START} |" in text
    assert "| `deck_out` | 卡组耗尽 | deck out | 002 ●デッキ切れ |" in text


def test_render_all_without_svg() -> None:
    specs = [sample_machine(), small_machine()]
    files = render.render_all(specs, svg=False)
    assert list(files) == [
        "draw_phase.dot",
        "draw_phase.mmd",
        "standby_phase.dot",
        "standby_phase.mmd",
        "README.md",
    ]
    assert files["draw_phase.dot"] == render.to_dot(specs[0])
    assert files["standby_phase.mmd"] == render.to_mermaid(specs[1])
    assert files["README.md"] == render.index_markdown(specs)
    with pytest.raises(ValueError, match="draw_phase"):
        render.render_all([sample_machine(), sample_machine()], svg=False)


# --------------------------------------------------------------------------- SVG


def test_digest_helpers() -> None:
    assert render.dot_digest("digraph {}") != render.dot_digest("digraph { a }")
    assert re.fullmatch(r"[0-9a-f]{64}", render.dot_digest("digraph {}"))
    assert render.svg_source_digest("<svg></svg>") is None


@needs_dot
def test_dot_to_svg_records_digest_and_tooltips() -> None:
    dot = render.to_dot(sample_machine(), detail="engine", lang="both")
    svg = render.dot_to_svg(dot)
    assert render.svg_source_digest(svg) == render.dot_digest(dot)
    assert svg.index("<!-- ygo-fsm dot-sha256:") < svg.index("<svg")
    head = svg[: svg.index("<!-- ygo-fsm dot-sha256:")]
    assert "<!DOCTYPE" in head or "<?xml" in head
    assert 'id="state_window"' in svg and 'id="tr_normal_draw"' in svg
    assert RULE_DRAW in svg and RULE_START in svg  # tooltips (xlink:title) and labels
    assert re.search(r'xlink:title="' + re.escape(RULE_DECK_OUT), svg)
    assert "抽卡阶段开始" in svg
    other = render.to_dot(sample_machine(), detail="engine", lang="en")
    assert render.svg_source_digest(svg) != render.dot_digest(other)


@needs_dot
def test_render_all_with_svg() -> None:
    files = render.render_all([small_machine()], lang="en")
    assert list(files) == [
        "standby_phase.dot",
        "standby_phase.mmd",
        "standby_phase.svg",
        "README.md",
    ]
    assert render.svg_source_digest(files["standby_phase.svg"]) == render.dot_digest(files["standby_phase.dot"])


def test_dot_to_svg_without_dot_binary(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("PATH", str(tmp_path))
    with pytest.raises(RuntimeError, match=r"(?i)graphviz") as raised:
        render.dot_to_svg("digraph { a -> b }")
    assert "apt-get install graphviz" in str(raised.value)
    assert "'dot'" in str(raised.value)
