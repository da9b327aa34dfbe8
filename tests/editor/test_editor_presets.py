"""The editor's New table dialog offers a seed-sheet table for every ruleset, and its
custom-size list of rulesets shows each whole, none behind a scrollbar."""

from __future__ import annotations

import gc

import pytest

from game import RULESET_IDS
from game.editor.document import PRESETS, new_scenario


def test_a_seed_sheet_table_for_every_ruleset():
    assert sorted({r for r, _, _ in PRESETS.values()}) == sorted(RULESET_IDS)


@pytest.mark.parametrize("name", PRESETS)
def test_each_preset_makes_a_table_of_its_ruleset(name):
    ruleset, w, d = PRESETS[name]
    raw = new_scenario(ruleset, w, d)
    assert raw["ruleset"] == ruleset and raw["table"] == {"width": w, "depth": d}
    assert name.split(" ")[0] in ("WWII", "Wehrmacht", "Modern", "Modern,")


@pytest.mark.usefixtures("data_dir")
def test_the_rulesets_list_is_wide_and_tall_enough(app):
    from pygame_gui.elements import UIDropDownMenu

    from game.ui.editor import editor_screen

    app.show(editor_screen(app, None, on_menu=lambda: None))
    (menu,) = [
        o
        for o in gc.get_objects()
        if isinstance(o, UIDropDownMenu)
        and o.alive()
        and o.ui_manager is app.manager  # (another test's screens may still be in memory)
        and list(o.options_list)
        and [t for t, _ in o.options_list] == list(RULESET_IDS)
    ]
    font = menu.ui_manager.get_theme().get_font(["drop_down_menu"])
    widest = max(font.size(r)[0] for r in RULESET_IDS)
    assert menu.rect.w >= widest + 40  # the text and the arrow
    assert menu.expansion_height_limit >= 30 * len(RULESET_IDS)
