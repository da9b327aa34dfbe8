"""Data lost or a battle made unplayable (issue #42): each case opened through the command a
user would run (the main menu, ``hulldown play --resume``, ``render``, ``generate``, a load),
with the one line it must give."""

from __future__ import annotations

from pathlib import Path

import pytest

from game.cli import main

ROOT = Path(__file__).resolve().parents[1]
SKIRMISH = ROOT / "maps" / "modern-skirmish.json"
FIXTURES = ROOT / "tests" / "fixtures" / "hostile42" / "loss"


# ---------------------------------------------------------------- 1. a long seed in the menu


@pytest.mark.usefixtures("data_dir")
def test_a_30_digit_seed_typed_in_the_menu_is_refused(app):
    """Before: the battle started, and its autosave and saves held a 30-digit integer that
    the save reader refuses (at most 20 digits): it could never be resumed or loaded."""
    from game.ui.menu import MenuScreen

    menu = MenuScreen(app)
    app.show(menu)
    menu.chosen = SKIRMISH
    menu.seed.set_text("1" * 30)
    menu.start_new()
    assert menu.message == "The seed must be a whole number of at most 18 digits."
    assert app.screen is menu


@pytest.mark.usefixtures("data_dir")
def test_the_longest_seed_the_menu_takes_is_resumed(app, capsys):
    """18 nines, the longest seed the menu, Quick battle and ``--seed`` take: its autosave
    resumes with ``hulldown play --resume``."""
    from game.ui.battle import BattleScreen
    from game.ui.menu import MenuScreen

    menu = MenuScreen(app)
    app.show(menu)
    menu.chosen = SKIRMISH
    menu.seed.set_text("9" * 18)
    menu.start_new()
    assert isinstance(app.screen, BattleScreen)
    assert app.screen.battle.seed == 10**18 - 1
    assert main(["play", "--resume", "--frames", "1"]) == 0
    assert "Traceback" not in capsys.readouterr().err
