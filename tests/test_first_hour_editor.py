"""The map editor tried as a new user would (issue #43, the editor's paragraph): each stop
met on the real editor screen (dummy video driver) and mended."""

from __future__ import annotations

import json
from pathlib import Path

import pygame
import pytest

from game.editor.document import Document
from game.editor.history import History
from game.ui.editor import editor_screen
from tests.test_editor_ui import click, frame, key, new_editor, press

ROOT = Path(__file__).resolve().parents[1]

pytestmark = pytest.mark.usefixtures("data_dir")


def open_map(app, name="modern-combined-arms"):
    """The editor on a shipped map (a fresh copy of its dict)."""
    raw = json.loads((ROOT / "maps" / f"{name}.json").read_text())
    s = editor_screen(app, Document(History(raw)))
    app.show(s)
    frame(s)
    return s


def stand(s, stand_id):
    """The stand dict of ``stand_id`` in the editor's document."""
    return next(st for st in s.doc.raw["stands"] if st.get("id") == stand_id)


@pytest.mark.parametrize("how", ["half-turn copy", "duplicate", "copy and paste"])
def test_a_carrier_copied_with_its_rider_carries_the_copied_rider(app, how):
    """(#43) A carrier copied (half-turn copy, Ctrl+D, Ctrl+C/Ctrl+V) left the copied rider
    aboard the original carrier (or the rider was not copied at all): the copy of the rider
    rides the copy of the carrier."""
    s = open_map(app)
    carrier = stand(s, "A5")
    click(s, carrier["x"] + 0.2, carrier["y"])  # the carrier is drawn; its rider is not
    assert s.selection == [("stand", 4)]
    before = len(s.doc.raw["stands"])
    if how == "half-turn copy":
        press(s, "Half-turn copy")
    elif how == "duplicate":
        key(s, pygame.K_d, pygame.KMOD_CTRL)
    else:
        key(s, pygame.K_c, pygame.KMOD_CTRL)
        key(s, pygame.K_v, pygame.KMOD_CTRL)
    new = s.doc.raw["stands"][before:]
    assert [st["unit"] for st in new] == [carrier["unit"], "US Mech Infantry"]
    copied_carrier, copied_rider = new
    assert copied_rider["carried_by"] == copied_carrier["id"] != "A5"
    assert (copied_rider["x"], copied_rider["y"]) == (copied_carrier["x"], copied_carrier["y"])
    assert stand(s, "A6")["carried_by"] == "A5"  # the original still rides the original
    assert not any("carried_by" in p.text for p in s.problems)


def shown(menu):
    """The entry a drop-down shows."""
    opt = menu.selected_option
    return opt[0] if isinstance(opt, tuple) else opt


@pytest.mark.parametrize("tool", [pygame.K_r, pygame.K_p, pygame.K_o])
def test_after_the_hill_tool_the_area_tools_draw_what_the_drop_down_shows(app, tool):
    """(#43) After the Hill tool, R, P or O still drew hills while the drop-down showed
    woods: the drop-down shows the type the tools draw, and the area tools draw areas again."""
    s = new_editor(app)
    key(s, pygame.K_h)
    assert shown(s.area_menu) == "hill"
    key(s, tool)
    assert shown(s.area_menu) == "woods"
    if tool == pygame.K_r:
        from tests.test_editor_ui import drag

        drag(s, (10, 10), (16, 15))
    elif tool == pygame.K_o:
        click(s, 20, 20)
    else:
        for x, y in [(10, 10), (16, 10), (16, 15)]:
            click(s, x, y)
        key(s, pygame.K_RETURN)
    feats = s.doc.raw["terrain"]["features"]
    assert [f["properties"]["terrain"] for f in feats] == ["woods"]
    assert "level" not in feats[0]["properties"]


def test_a_hill_picked_with_the_rectangle_draws_a_rectangular_hill_and_says_so(app):
    """(#43) The drop-down and the tool agree the other way too: "hill" picked while the
    Rectangle tool is in hand draws a rectangular hill, and the drop-down keeps showing it."""
    from tests.test_editor_ui import choose, drag

    s = new_editor(app)
    key(s, pygame.K_r)
    choose(s, s.area_menu, "hill")
    assert shown(s.area_menu) == "hill" and type(s.mode).__name__ == "RectMode"
    drag(s, (10, 10), (16, 15))
    props = s.doc.raw["terrain"]["features"][0]["properties"]
    assert props["terrain"] == "hill" and props["level"] == 1
