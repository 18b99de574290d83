"""The machines and the card library ship inside the wheel, and the package finds them there."""

from __future__ import annotations

import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("wheel")
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "--no-build-isolation",
                    "-w", str(out), str(ROOT)], check=True, capture_output=True)
    (built,) = out.glob("ygo_fsm-*.whl")
    return built


def test_wheel_contains_every_machine_and_the_card_library(wheel: Path) -> None:
    names = set(zipfile.ZipFile(wheel).namelist())
    for machine in (ROOT / "machines").glob("*.yaml"):
        assert f"ygo_fsm/machines/{machine.name}" in names
    assert "ygo_fsm/data/cards.yaml" in names
    assert "ygo_fsm/py.typed" in names


def test_installed_package_finds_its_packaged_machines(wheel: Path, tmp_path: Path) -> None:
    """Unpacked away from the checkout, the package loads the machines it carries."""
    zipfile.ZipFile(wheel).extractall(tmp_path)
    code = ("from ygo_fsm import Duel; from ygo_fsm.loader import machines_dir; "
            "print(machines_dir()); print(Duel().state)")
    result = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, env={"PYTHONPATH": str(tmp_path)},
                            check=True, capture_output=True, text=True)
    where, state = result.stdout.split()
    assert Path(where) == tmp_path / "ygo_fsm" / "machines"
    assert state == "draw_phase.before_draw_window.turn_player"
