"""The rule-review site (`ygo-fsm site`): a static site that opens from the file system, checked
for drift against the committed diagrams and driven in a real headless Chromium."""

from __future__ import annotations

import json
import shutil
import tempfile
from pathlib import Path
from typing import Any

import pytest

from ygo_fsm import default_rulebook
from ygo_fsm.cli import main
from ygo_fsm.loader import load_guard_sentences
from ygo_fsm.site import activation_matrix, build_site

ROOT = Path(__file__).resolve().parent.parent
SEED = ROOT / "tests" / "scenarios" / "seed"
DIAGRAMS = ROOT / "diagrams"
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
CHROMEDRIVER = shutil.which("chromedriver")

needs_dot = pytest.mark.skipif(shutil.which("dot") is None, reason="Graphviz 'dot' not installed (make installs it)")


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    if shutil.which("dot") is None:
        pytest.skip("Graphviz 'dot' not installed (make installs it)")
    out = tmp_path_factory.mktemp("site")
    build_site(out, default_rulebook(), load_guard_sentences(), examples_dir=SEED)
    return out


def _data(site: Path) -> dict[str, Any]:
    text = (site / "data.js").read_text(encoding="utf-8")
    prefix = "window.YGO_DATA = "
    assert text.startswith(prefix) and text.endswith(";\n")
    return json.loads(text[len(prefix):-2].replace("<\\/", "</"))  # type: ignore[no-any-return]


# --------------------------------------------------------------------------- the files


def test_site_is_static_and_offline(site: Path) -> None:
    """No server: plain files; the page loads only its own scripts and style, by relative path."""
    assert sorted(p.name for p in site.iterdir()) == ["data.js", "index.html", "site.css", "site.js"]
    page = (site / "index.html").read_text(encoding="utf-8")
    assert '<script src="data.js"></script>' in page and '<script src="site.js"></script>' in page
    for name in ("index.html", "site.js", "site.css"):
        text = (site / name).read_text(encoding="utf-8")
        assert "http://" not in text and "https://" not in text, f"{name} reaches the network"


def test_site_diagrams_are_the_committed_diagrams(site: Path) -> None:
    """The site and diagrams/ come from one renderer: no drift between them."""
    data = _data(site)
    assert (DIAGRAMS / "overview.svg").read_text(encoding="utf-8") == data["overview"]
    for machine, entry in data["machines"].items():
        assert (DIAGRAMS / f"{machine}.svg").read_text(encoding="utf-8") == entry["svg"], machine


def test_state_pages_are_the_explain_text(site: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data = _data(site)
    assert len(data["explain"]) == sum(len(spec.states) for spec in default_rulebook().specs.values())
    assert main(["explain", "end_phase.hand_size_adjustment", "--lang", "both"]) == 0
    assert data["explain"]["end_phase.hand_size_adjustment"] == capsys.readouterr().out


def test_search_covers_states_cards_and_clauses(site: Path) -> None:
    kinds = {item["kind"] for item in _data(site)["search"]}
    assert kinds == {"machine", "state", "card", "clause"}
    texts = " ".join(item["text"] for item in _data(site)["search"] if item["kind"] == "card")
    assert "サイクロン" in texts


def test_seed_examples_are_built_in_with_lp_and_hands(site: Path) -> None:
    examples = {example["id"]: example for example in _data(site)["examples"]}
    assert set(examples) == {path.stem for path in SEED.glob("*.yaml")}
    battle = examples["000_battle_example"]
    assert len(battle["records"]) == len(battle["snapshots"]) == len(battle["storyAt"])
    assert battle["snapshots"][0]["A"]["lp"] == 8000
    lps = [snapshot["B"]["lp"] for snapshot in battle["snapshots"]]
    assert lps[-1] != lps[0], "000 战斗流程 例: the battle changes B's LP"


def test_activation_matrix_follows_the_damage_step_limits() -> None:
    """004 ●伤害步骤中…只能发动反击陷阱、无效发动的效果、攻守增减…; 000 ◇·发动2速以上的卡."""
    rows = {row.label.en: row for row in activation_matrix(default_rulebook().specs)}
    damage = rows["Damage Step (until damage calculation)"]
    limited = [f"damage_step.{s.id}" for s in default_rulebook().specs["damage_step"].states
               if s.activation_limit is not None and s.activation_limit.value == "damage_step"]
    assert damage.states == tuple(limited)
    assert damage.cells["counter_trap"] == "both" and damage.cells["normal_spell"] == "—"
    after = rows["Damage Step (after damage calculation)"]
    assert "ATK/DEF" in damage.cells["quick"] and "ATK/DEF" not in after.cells["quick"]
    chain = rows["Building a chain"]
    assert chain.cells["ignition"] == "—" and "not lower" in chain.cells["quick_play_spell"]
    opponent = rows["Open game state: opponent (after the turn player passed)"]
    assert opponent.states == ("priority.opponent",) and opponent.cells["normal_spell"] == "—"
    assert rows["Open game state: turn player"].states == ("priority.turn_player",)


@needs_dot
def test_site_command_writes_the_site_and_prints_its_path(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["site", "--out", str(tmp_path / "site"), "--examples", str(SEED)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[-1] == f"open {(tmp_path / 'site' / 'index.html').resolve()}"
    assert main(["site", "--out", str(tmp_path / "site"), "--examples", str(tmp_path / "nowhere")]) == 2
    assert "not a directory" in capsys.readouterr().err


# --------------------------------------------------------------------------- the browser


@pytest.fixture(scope="module")
def browser() -> Any:
    webdriver = pytest.importorskip("selenium.webdriver",
                                    reason="selenium is in the test extras: pip install -e '.[test]'")
    if CHROMIUM is None or CHROMEDRIVER is None:
        pytest.skip("Chromium or ChromeDriver is not installed and could not be installed here "
                    "(`make test` installs Debian's chromium and chromium-driver as root)")
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync",
                 "--window-size=1600,1000"):
        options.add_argument(flag)
    profile = tempfile.mkdtemp(prefix="ygo-fsm-chromium-")
    options.add_argument(f"--user-data-dir={profile}")
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
    try:
        yield driver
    finally:
        driver.quit()
        shutil.rmtree(profile, ignore_errors=True)


def _errors(driver: Any) -> list[dict[str, Any]]:
    return [entry for entry in driver.get_log("browser") if entry["level"] == "SEVERE"]


def test_browser_plays_a_seed_trace_to_its_end(site: Path, browser: Any, tmp_path: Path) -> None:
    """000 战斗流程 例, stepped with the → key: at each of several steps the diagram shows the
    record's machine with the record's state and edge highlighted."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    example = next(e for e in _data(site)["examples"] if e["id"] == "000_battle_example")
    records = example["records"]
    browser.get((site / "index.html").as_uri() + "#play/000_battle_example")
    body = browser.find_element(By.TAG_NAME, "body")
    checked = 0
    for index, record in enumerate(records):
        if index:
            body.send_keys(Keys.ARROW_RIGHT)
        if index % 6 and index != len(records) - 1:
            continue
        current = browser.find_element(By.ID, "current-state")
        assert current.get_attribute("data-step") == str(index)
        assert (current.get_attribute("data-machine"), current.get_attribute("data-state")) == (
            record["machine"], record["dest"]), f"step {index}"
        assert current.text == record["state"]
        highlighted = browser.execute_script(
            "return Array.from(document.querySelectorAll('#canvas g.node.current')).map(n => n.id)")
        assert highlighted == [f"state_{record['dest']}"], f"step {index}"
        taken = browser.execute_script(
            "return Array.from(document.querySelectorAll('#canvas g.edge.taken')).map(n => n.getAttribute('class'))")
        assert len(taken) == 1 and f"tr_{record['transition']}" in taken[0].split(), f"step {index}"
        checked += 1
    assert checked >= 8
    assert browser.find_element(By.ID, "position").text == f"{len(records)} / {len(records)}"
    body.send_keys(Keys.ARROW_RIGHT)  # past the end: stays on the last record
    assert browser.find_element(By.ID, "current-state").get_attribute("data-step") == str(len(records) - 1)
    body.send_keys(Keys.ARROW_LEFT)
    assert browser.find_element(By.ID, "current-state").get_attribute("data-step") == str(len(records) - 2)
    assert browser.find_elements(By.CSS_SELECTOR, "#story div.now"), "the story beside the diagram"
    lp = browser.find_element(By.ID, "players").text
    assert str(example["snapshots"][-2]["B"]["lp"]) in lp
    browser.save_screenshot(str(tmp_path / "playback.png"))
    assert (tmp_path / "playback.png").stat().st_size > 0
    assert _errors(browser) == []


def test_browser_navigates_zooms_and_searches(site: Path, browser: Any, tmp_path: Path) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    browser.get((site / "index.html").as_uri() + "#machine/main_phase")
    canvas = browser.find_element(By.ID, "canvas")
    before = canvas.get_attribute("style")
    browser.find_element(By.ID, "zoom-in").click()
    assert canvas.get_attribute("style") != before, "zoom changes the diagram's scale"
    # a "runs machine X" box links to X
    browser.execute_script(
        "document.querySelector('#state_summon a')"
        ".dispatchEvent(new MouseEvent('click', {bubbles: true, cancelable: true}))")
    assert browser.execute_script("return location.hash") == "#machine/summon_procedure"
    search = browser.find_element(By.ID, "search")
    search.send_keys("サイクロン", Keys.ENTER)
    # the results are drawn after the key event: wait for them (a loaded machine is slow), then check
    from selenium.webdriver.support.ui import WebDriverWait

    WebDriverWait(browser, 10).until(lambda b: b.find_elements(By.CSS_SELECTOR, "#results li"))
    results = browser.find_elements(By.CSS_SELECTOR, "#results li")
    assert results and any("サイクロン" in item.text for item in results)
    browser.get((site / "index.html").as_uri() + "#state/end_phase.hand_size_adjustment")
    assert "hand_size_adjustment" in browser.find_element(By.TAG_NAME, "pre").text
    browser.get((site / "index.html").as_uri() + "#matrix")
    assert "counter_trap (3)" in browser.find_element(By.ID, "matrix").text
    browser.save_screenshot(str(tmp_path / "matrix.png"))
    assert _errors(browser) == []


def test_browser_plays_a_loaded_trace_file(site: Path, browser: Any, tmp_path: Path) -> None:
    """A trace written by `ygo-fsm run --trace` loads from disk and plays on the diagrams."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    trace = tmp_path / "trace.jsonl"
    assert main(["run", "--quiet", "--trace", str(trace), str(SEED / "000_standby_example_1.yaml")]) == 0
    header, *lines = trace.read_text(encoding="utf-8").splitlines()
    assert json.loads(header)["format"] == "ygo-fsm/trace"  # the site plays the records after it
    records = [json.loads(line) for line in lines]
    browser.get((site / "index.html").as_uri() + "#play")
    browser.find_element(By.ID, "trace-file").send_keys(str(trace))
    from selenium.webdriver.support.ui import WebDriverWait

    WebDriverWait(browser, 10).until(lambda driver: driver.find_elements(By.ID, "current-state"))
    body = browser.find_element(By.TAG_NAME, "body")
    for index in range(len(records)):
        if index:
            body.send_keys(Keys.ARROW_RIGHT)
        if index % 5 == 0:
            current = browser.find_element(By.ID, "current-state")
            assert current.get_attribute("data-state") == records[index]["dest"], f"step {index}"
            highlighted = browser.execute_script(
                "return Array.from(document.querySelectorAll('#canvas g.node.current')).map(n => n.id)")
            assert highlighted == [f"state_{records[index]['dest']}"]
    assert browser.find_element(By.ID, "position").text == f"{len(records)} / {len(records)}"
    assert "not in the trace file" in browser.find_element(By.ID, "players").text
    assert _errors(browser) == []
