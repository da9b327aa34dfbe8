"""Proof that ``pip install .`` (not editable) carries what hulldown needs besides its Python:
builds the wheel from a copy of the source tree (so no ``build/`` is left in the checkout),
lists its files, and checks the rules' tables, the shipped scenarios and the window's theme
are in it. With ``--install`` it also installs the wheel into a throwaway venv and runs
``hulldown check maps/modern-meeting.json`` there from a folder outside the repo (the
dependencies come from pip's configured index). Issue #30: before, the wheel held no
``assets/data`` and every command of an installed hulldown failed.

    .venv/bin/python tools/checks/check_wheel.py [--out /tmp/h2/wheel] [--install]

Exit status 0 when every check passes; one line per missing file otherwise.
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SOURCES = ("pyproject.toml", "README.md", "game", "assets", "maps")
SHARE = "share/hulldown"


def expected_files() -> list[str]:
    """The non-Python files the wheel must hold, as paths inside it (the data files under
    ``NAME-VERSION.data/data/``): every rules table, every shipped scenario, the theme."""
    data = sorted(p.name for p in (ROOT / "assets" / "data").iterdir() if p.is_file())
    maps = sorted(p.name for p in (ROOT / "maps").glob("*.json"))
    return (
        [f"data/{SHARE}/assets/data/{n}" for n in data]
        + [f"data/{SHARE}/maps/{n}" for n in maps]
        + ["game/ui/theme.json"]
    )


def build_wheel(out: Path) -> Path:
    """Build the wheel of a copy of the source tree into ``out``; returns its path. Raises
    CalledProcessError when pip fails."""
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="hulldown-src-") as tmp:
        for name in SOURCES:
            src = ROOT / name
            if src.is_dir():
                shutil.copytree(src, Path(tmp) / name, ignore=shutil.ignore_patterns("__pycache__"))
            else:
                shutil.copy2(src, Path(tmp) / name)
        subprocess.run(
            [sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(out), tmp],
            check=True,
        )
    return max(out.glob("hulldown-*.whl"), key=lambda p: p.stat().st_mtime)


def missing_from(wheel: Path) -> list[str]:
    """The expected files that the wheel lacks (data files may sit under any
    ``*.data/`` folder)."""
    names = zipfile.ZipFile(wheel).namelist()
    have = {n.split(".data/", 1)[1] if ".data/" in n else n for n in names}
    return [f for f in expected_files() if f not in have]


def install_and_check(wheel: Path, where: Path) -> str:
    """Install ``wheel`` into a new venv under ``where`` and run ``hulldown check`` on a
    copy of maps/modern-meeting.json from a folder outside the repo; returns its output.
    Raises CalledProcessError when a step fails."""
    venv = where / "venv"
    shutil.rmtree(venv, ignore_errors=True)
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    subprocess.run([str(venv / "bin" / "pip"), "install", "-q", str(wheel)], check=True)
    outside = where / "outside"
    (outside / "maps").mkdir(parents=True, exist_ok=True)
    shutil.copy2(ROOT / "maps" / "modern-meeting.json", outside / "maps")
    done = subprocess.run(
        [str(venv / "bin" / "hulldown"), "check", "maps/modern-meeting.json"],
        cwd=outside,
        capture_output=True,
        text=True,
        check=True,
    )
    return done.stdout.strip()


def main(argv: list[str] | None = None) -> int:
    """Build, list, check (and with ``--install`` install and run); the exit status."""
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--out", default="/tmp/h2/wheel", help="where the wheel is written")
    p.add_argument("--install", action="store_true", help="install it in a throwaway venv")
    args = p.parse_args(argv)
    wheel = build_wheel(Path(args.out))
    print(f"{wheel}:")
    for name in zipfile.ZipFile(wheel).namelist():
        if not name.endswith(".py"):
            print(f"  {name}")
    missing = missing_from(wheel)
    for name in missing:
        print(f"{wheel}: missing {name}", file=sys.stderr)
    if missing:
        return 1
    if args.install:
        print(install_and_check(wheel, Path(args.out).parent / "wheel-venv"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
