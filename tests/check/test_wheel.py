"""``pip install .`` (not editable) carries the rules' tables, the shipped scenarios and the
window's theme (issue #30: the wheel held no ``assets/data``, so an installed hulldown could
not check, play or render anything). Builds the wheel of a copy of the source tree with pip
(``tools/checks/check_wheel.py``; setuptools comes from pip's configured index), lists its files,
and reads the data the way an installed hulldown finds it."""

from __future__ import annotations

import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tools" / "checks"))

import check_wheel  # noqa: E402


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    try:
        return check_wheel.build_wheel(tmp_path_factory.mktemp("wheel"))
    except subprocess.CalledProcessError as err:  # no index to fetch setuptools from
        pytest.skip(f"pip could not build the wheel ({err})")


def test_the_wheel_holds_every_data_file(wheel):
    assert check_wheel.missing_from(wheel) == []
    names = zipfile.ZipFile(wheel).namelist()
    assert any(n.endswith("share/hulldown/assets/data/modern_tanks.csv") for n in names)
    assert any(n.endswith("share/hulldown/maps/modern-meeting.json") for n in names)
    assert not any(n.startswith(("tests/", "tools/")) for n in names)


def test_an_installed_layout_finds_its_data_under_share(tmp_path, monkeypatch):
    """The wheel's data files unpacked as pip puts them (PREFIX/share/hulldown/...), and the
    package's folder outside the source tree: shipped_dir finds them there."""
    import game.rules.files.shipped as shipped

    prefix = tmp_path / "venv"
    for name in ("assets/data", "maps"):
        (prefix / "share" / "hulldown" / name).mkdir(parents=True)
    monkeypatch.setattr(
        shipped, "__file__", str(tmp_path / "site" / "game" / "rules" / "files" / "x.py")
    )
    monkeypatch.setattr(shipped.sysconfig, "get_path", lambda name: str(prefix))
    assert shipped.shipped_dir("maps") == prefix / "share" / "hulldown" / "maps"
    assert shipped.shipped_dir("assets/data") == prefix / "share" / "hulldown" / "assets/data"
    monkeypatch.setattr(shipped.sysconfig, "get_path", lambda name: str(tmp_path / "none"))
    monkeypatch.setattr(shipped.sys, "prefix", str(tmp_path / "none"))
    monkeypatch.setattr(shipped.sys, "exec_prefix", str(tmp_path / "none"))
    monkeypatch.setattr(shipped.site, "getuserbase", lambda: str(tmp_path / "none"))
    assert shipped.shipped_dir("maps") == tmp_path / "site" / "maps"  # named in the error


def test_in_the_source_tree_the_data_is_the_checkouts():
    from game import shipped_dir

    assert shipped_dir("assets/data") == ROOT / "assets" / "data"
    assert shipped_dir("maps") == ROOT / "maps"
