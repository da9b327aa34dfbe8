"""Where the folders shipped with hulldown are: the rules' tables (``assets/data``) and the
scenarios (``maps``), in a source tree and in an installed wheel alike. A light module (no
pydantic, no Shapely), so the menu can list the maps before the engine is loaded."""

from __future__ import annotations

import site
import sys
import sysconfig
from pathlib import Path

SHIPPED_SHARE = ("share", "hulldown")
"""Where a wheel install puts the shipped folders, under the installation's data root
(pyproject.toml's ``data-files``: ``share/hulldown/assets/data``, ``share/hulldown/maps``)."""


def shipped_dir(name: str) -> Path:
    """A folder shipped with hulldown, ``assets/data`` (the rules' tables) or ``maps`` (the
    scenarios): in the source tree beside the ``game`` package (a checkout, an editable
    install), else under the installation's data root (``pip install .`` of the wheel, which
    carries them as data files: a venv's ``share/hulldown/NAME``, or the user base's for a
    ``--user`` install). When neither exists, the source tree's path, so an error names it."""
    here = Path(__file__).resolve().parents[3] / name
    if here.is_dir():
        return here
    roots = [sysconfig.get_path("data"), sys.prefix, sys.exec_prefix, site.getuserbase()]
    for root in roots:
        there = Path(root, *SHIPPED_SHARE, name)
        if there.is_dir():
            return there
    return here
