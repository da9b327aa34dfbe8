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
from tests.helpers import editor_click as click
from tests.helpers import editor_frame as frame
from tests.helpers import editor_key as key
from tests.helpers import editor_press as press
from tests.helpers import new_editor

ROOT = Path(__file__).resolve().parents[2]

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
    assert shown(s.toolbar.area_menu) == "hill"
    key(s, tool)
    assert shown(s.toolbar.area_menu) == "woods"
    if tool == pygame.K_r:
        from tests.helpers import drag

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
    from tests.helpers import choose, drag

    s = new_editor(app)
    key(s, pygame.K_r)
    choose(s, s.toolbar.area_menu, "hill")
    assert shown(s.toolbar.area_menu) == "hill" and type(s.mode).__name__ == "RectMode"
    drag(s, (10, 10), (16, 15))
    props = s.doc.raw["terrain"]["features"][0]["properties"]
    assert props["terrain"] == "hill" and props["level"] == 1


def entry_showing(s, text):
    """The live text field showing ``text`` (panel or tools)."""
    fields = [*s._fields, *s.entries.fields]
    return next(w for w in fields if hasattr(w, "get_text") and w.alive() and w.get_text() == text)


def type_over(s, text, typed):
    """Click the field showing ``text``, clear it and type ``typed`` key by key (no Enter)."""
    from tests.helpers import type_into

    w = entry_showing(s, text) if isinstance(text, str) else text
    pos = w.rect.center
    s.handle(pygame.event.Event(pygame.MOUSEMOTION, pos=pos, rel=(0, 0), buttons=(0, 0, 0)))
    s.handle(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=1))
    s.handle(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=pos, button=1))
    frame(s)
    assert w in s.app.manager.get_focus_set()
    w.set_text("")  # all selected and typed over
    type_into(s, w, typed)
    return w


def scenario_panel(app):
    s = new_editor(app)
    s.show_panel("Scenario")
    frame(s)
    return s


def test_a_refused_number_is_refused_whole_with_the_reason_and_the_old_value_kept(app):
    """(#43) Turns "150" became 15 (the last valid prefix, applied while typing): nothing is
    applied while typing; on Enter the refusal is said in red with the reason, and the field
    shows the value kept."""
    s = scenario_panel(app)
    w = type_over(s, "12", "150")
    assert s.doc.raw["turns"] == 12  # nothing applied while typing
    key(s, pygame.K_RETURN)
    assert s.doc.raw["turns"] == 12 and s.doc.history.entries == []
    text, error = s.message
    assert error and '"150"' in text and "from 1 to 100" in text and "stays 12" in text
    assert w.get_text() == "12" or entry_showing(s, "12")


def test_cohesion_25_left_by_a_click_on_the_table_is_refused_not_cut_to_2(app):
    """(#43) Cohesion "25" became 2: leaving the field (a click on the table) applies it,
    and 25 is refused whole."""
    s = new_editor(app)
    s.show_panel("Forces")
    frame(s)
    before = s.doc.raw["sides"][0]["cohesion"]
    type_over(s, str(before), "25")
    assert s.doc.raw["sides"][0]["cohesion"] == before
    click(s, 30, 18)  # a click on the table leaves the field
    assert s.doc.raw["sides"][0]["cohesion"] == before
    assert s.message[1] and '"25"' in s.message[0] and "20" in s.message[0]
    type_over(s, str(before), "7")
    click(s, 30, 18)
    assert s.doc.raw["sides"][0]["cohesion"] == 7 and len(s.doc.history.entries) == 1


def test_a_centre_typed_with_a_stray_letter_does_not_move_the_wood(app):
    """(#43) A centre "30, 2x" moved the wood to (30, 2): it is refused when applied."""
    s = new_editor(app)
    key(s, pygame.K_r)
    from tests.helpers import drag

    drag(s, (10, 10), (16, 15))
    before = json.dumps(s.doc.raw)
    type_over(s, "13.00, 12.50", "30, 2x")
    assert json.dumps(s.doc.raw) == before
    key(s, pygame.K_RETURN)
    assert json.dumps(s.doc.raw) == before and s.message[1] and "30, 2x" in s.message[0]
    type_over(s, "13.00, 12.50", "30, 20")
    key(s, pygame.K_RETURN)
    ring = s.doc.raw["terrain"]["features"][0]["geometry"]["coordinates"][0]
    assert sorted({p[0] for p in ring}) == [27, 33] and len(s.doc.history.entries) == 2


def test_esc_takes_the_typing_back_and_enter_applies_it_as_one_undo_entry(app):
    """(#43) Esc kept what was typed: it restores the old text and applies nothing; Enter
    applies the edit as one history entry that one Ctrl+Z takes back."""
    s = scenario_panel(app)
    w = type_over(s, "12", "20")
    key(s, pygame.K_ESCAPE)
    assert s.doc.raw["turns"] == 12 and s.doc.history.entries == []
    assert not w.alive() or w.get_text() == "12"
    assert entry_showing(s, "12")
    type_over(s, "12", "20")
    key(s, pygame.K_RETURN)
    assert s.doc.raw["turns"] == 20 and len(s.doc.history.entries) == 1
    assert entry_showing(s, "20")
    key(s, pygame.K_z, pygame.KMOD_CTRL)  # the keys are the editor's again after Enter
    assert s.doc.raw["turns"] == 12


def test_the_tools_settings_wait_for_enter_too(app):
    """(#43) The hill level under the tools: "25" was cut to 2 while typing."""
    s = new_editor(app)
    type_over(s, "1", "25")
    key(s, pygame.K_RETURN)
    assert s.hill_level == 1 and s.message[1] and '"25"' in s.message[0]
    assert s.toolbar.level_entry.get_text() == "1"


@pytest.mark.parametrize(
    "typed, words",
    [("13, 16", "two edges cross"), ("999, 999", 'beyond the 60"x36" table')],
)
def test_the_vertex_field_refuses_what_the_polygon_tool_refuses(app, typed, words):
    """(#43) The vertex field took a self-crossing outline or a corner at (999, 999), which
    the Polygon tool refuses: the same gate refuses it, with the reason."""
    s = new_editor(app)
    key(s, pygame.K_r)
    from tests.helpers import drag

    drag(s, (10, 10), (16, 15))  # corners (10, 10), (16, 10), (16, 15), (10, 15)
    s.vertex = (0, (0, 0))  # the corner at (10, 10) picked
    s.refresh_panel(force=True)
    before = json.dumps(s.doc.raw)
    type_over(s, "10, 10", typed)
    key(s, pygame.K_RETURN)
    assert json.dumps(s.doc.raw) == before
    assert s.message[1] and words in s.message[0] and "stays 10, 10" in s.message[0]
    assert not any("features" in p.text for p in s.problems)
    type_over(s, "10, 10", "9, 9")  # a corner that keeps the outline whole is taken
    key(s, pygame.K_RETURN)
    assert s.doc.raw["terrain"]["features"][0]["geometry"]["coordinates"][0][0] == [9, 9]


def history_list(s):
    """The History panel's list of changes."""
    return next(w for w in s._panel_widgets if type(w).__name__ == "UISelectionList")


def test_the_history_list_keeps_its_scroll_after_a_click(app):
    """(#43) The History list jumped to its top after a click on a line: it stays where it
    was scrolled, the clicked line in view."""
    s = new_editor(app)
    key(s, pygame.K_r)
    from tests.helpers import drag

    drag(s, (10, 10), (16, 15))
    for _ in range(40):
        key(s, pygame.K_RIGHT)  # 40 nudges, 40 history lines
    s.show_panel("History")
    frame(s)
    lst = history_list(s)
    lst.scroll_bar.set_scroll_from_start_percentage(1.0)  # scrolled to the latest lines
    frame(s)
    scrolled = lst.scroll_bar.start_percentage
    assert scrolled > 0.2
    line = next(
        it for it in reversed(lst.item_list) if it["button_element"] and "30." in it["text"]
    )
    at = line["button_element"].rect.center
    for ev in (
        pygame.event.Event(pygame.MOUSEMOTION, pos=at, rel=(0, 0), buttons=(0, 0, 0)),
        pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=at, button=1),
        pygame.event.Event(pygame.MOUSEBUTTONUP, pos=at, button=1),
    ):
        s.handle(ev)
    for _ in range(3):  # the line's button, then the list, post their events
        for posted in pygame.event.get():
            s.handle(posted)
    frame(s)
    assert s.doc.history.position == 30
    now = history_list(s)
    assert now is not lst and abs(now.scroll_bar.start_percentage - scrolled) < 0.01
    shown = [it["text"] for it in now.item_list if it["button_element"] is not None]
    assert any(t.startswith("30.") for t in shown)


def ink_near(s, x, y, colour, r=8):
    """Whether a pixel of ``colour`` is within ``r`` pixels of table point (x, y)."""
    from tests.helpers import px

    cx, cy = px(s, x, y)
    surf = s.app.surface
    return any(
        tuple(surf.get_at((cx + dx, cy + dy)))[:3] == colour
        for dx in range(-r, r + 1)
        for dy in range(-r, r + 1)
    )


def test_a_locked_feature_has_a_lock_mark_on_the_table_and_in_the_map_list(app):
    """(#43) A locked feature had no mark: a padlock is drawn on it, the Map panel lists it
    as locked with a link that unlocks it."""
    s = new_editor(app)
    key(s, pygame.K_r)
    from tests.helpers import drag

    drag(s, (10, 10), (20, 20))
    key(s, pygame.K_v)
    click(s, 15, 15)
    ink = (60, 60, 70)
    assert not ink_near(s, 15, 15, ink)
    press(s, "Lock feature")
    assert s.selection == []
    assert ink_near(s, 15, 15, ink)  # the padlock
    s.show_panel("Map")
    frame(s)
    box = next(w for w in s._fields if "[locked]" in getattr(w, "html_text", ""))
    assert "Feature 1, woods" in box.html_text
    s._link("free:0")
    frame(s)
    assert not s.locked and not ink_near(s, 15, 15, ink)
    click(s, 15, 15)
    assert s.selection == [("feature", 0)]


@pytest.mark.parametrize("ruleset", ["modern", "wwii", "modern-full", "wwii-47"])
def test_every_unit_name_reads_whole_in_the_unit_drop_down(app, ruleset):
    """(#43) Unit names were cut in the Item panel's Unit drop-down (200 px wide): at
    1280x800 every unit name of every ruleset fits beside the drop-down's arrow."""
    s = new_editor(app, ruleset)
    s.show_panel("Forces")
    frame(s)
    units = sorted(s._ruleset_units())
    s._pick_unit(units[0])
    click(s, 30, 18)
    s.selection = [("stand", 0)]
    s.show_panel("Item")
    frame(s)
    menu = next(
        w
        for w in s._panel_widgets
        if type(w).__name__ == "UIDropDownMenu" and units[0] in str(w.selected_option)
    )
    assert menu.rect.right <= app.size[0] - 8
    font = app.manager.get_theme().get_font(menu.combined_element_ids)
    names = [o[0] if isinstance(o, tuple) else o for o in menu.options_list]
    assert sorted(names) == units
    for name in names:
        assert font.size(name)[0] <= menu.rect.width - 24, name


def _set(path, value):
    def change(raw):
        o = raw
        for k in path[:-1]:
            o = o[k]
        if value is _DELETE:
            del o[path[-1]]
        else:
            o[path[-1]] = value

    return change


_DELETE = object()

PYDANTIC_TABLE = [
    # pydantic error type, a change of a shipped full-game map, the sentence shown
    (
        "less_than_equal",
        _set(["max_sighting_in"], 5000),
        "Sighting distance must be at most 1000 inches.",
    ),
    ("greater_than_equal", _set(["table", "width"], 2), "Table width must be at least 6 inches."),
    ("int_type", _set(["turns"], 1.5), "Number of turns must be a whole number."),
    ("float_type", _set(["max_sighting_in"], "far"), "Sighting distance must be a number."),
    (
        "finite_number",
        _set(["stands", 0, "x"], float("nan")),
        "Stand A1: x must be a finite number.",
    ),
    ("string_type", _set(["stands", 5, "carried_by"], 5), "Stand A6: starts aboard must be text."),
    ("bool_type", _set(["stands", 0, "hq"], "yes"), "Stand A1: HQ must be true or false."),
    (
        "list_type",
        _set(["sides", 0, "air_support"], {}),
        "Side 1 (US): air support must be a list.",
    ),
    (
        "model_type",
        _set(["sides", 0, "air_support"], ["A-10"]),
        "Side 1 (US): air support 1 must be an object ({...}).",
    ),
    (
        "literal_error",
        _set(["sides", 0, "entry_edge"], "north"),
        "Side 1 (US): entry edge must be left, right, top or bottom.",
    ),
    (
        "string_too_short",
        _set(["stands", 0, "group"], ""),
        "Stand A1: battle group cannot be empty.",
    ),
    ("string_too_long", _set(["title"], "a" * 300), "Title must have at most 200 characters."),
    (
        "string_pattern_mismatch",
        _set(["stands", 0, "id"], "A 1"),
        "Stand A 1: id must be a letter or digit, then up to 15 letters, digits, _ or -.",
    ),
    (
        "too_short",
        lambda raw: raw["sides"].pop(),
        "List of sides needs at least 2 entries (it has 1).",
    ),
    (
        "too_long",
        _set(
            ["sides", 0, "air_support"], [{"aircraft": "A-10A Thunderbolt II", "sorties": 1}] * 11
        ),
        "Side 1 (US): air support may have at most 10 entries (it has 11).",
    ),
    ("missing", _set(["turns"], _DELETE), "Number of turns is missing: it must be given."),
    (
        "extra_forbidden",
        _set(["bogus"], 1),
        '"bogus" is not a field of a scenario file (a misspelt name?).',
    ),
    (
        "string_unicode",
        _set(["title"], "\ud800"),
        "Title holds a broken character (half of a UTF-16 pair): type it again.",
    ),
]


def problems_panel(app, change):
    """The editor on modern-combined-arms changed by ``change``, its Problems panel's text."""
    import html

    raw = json.loads((ROOT / "maps" / "modern-combined-arms.json").read_text())
    change(raw)
    s = editor_screen(app, Document(History(raw)))
    app.show(s)
    frame(s)
    s.show_panel("Problems")
    frame(s)
    box = next(w for w in s._panel_widgets if "problem" in getattr(w, "html_text", ""))
    return s, html.unescape(box.html_text)


@pytest.mark.parametrize(
    "kind, change, sentence", PYDANTIC_TABLE, ids=[r[0] for r in PYDANTIC_TABLE]
)
def test_each_kind_of_checker_message_is_a_plain_sentence_naming_the_field(
    app, kind, change, sentence
):
    """(#43) Problem lines showed the checker's wording ("Max_sighting_in: Input should be
    less than or equal to 1000"): each kind of message the scenario's shape check gives (a
    pydantic error type) is a plain sentence naming the field in words, with its unit."""
    if kind == "string_unicode":  # the editor mends it on opening: the line as checked
        from game import load_rules_data
        from game.editor.document import validate
        from game.ui.editor.fields import without_file
        from game.ui.editor.wording import problem_words

        raw = json.loads((ROOT / "maps" / "modern-combined-arms.json").read_text())
        change(raw)
        lines = [without_file(p.text) for p in validate(raw, "x.json", load_rules_data())]
        text = " ".join(problem_words(line, raw) for line in lines)
    else:
        _s, text = problems_panel(app, change)
    assert sentence in text, text
    for jargon in (
        "Input should",
        "String should",
        "List should",
        "Value should",
        "Field required",
        "$.",
    ):
        assert jargon not in text


def test_every_pydantic_kind_the_checker_gives_is_in_the_table():
    """(#43) The table above covers each error type the scenario's models can give (their
    fields' constraints, strict types, literals, patterns, lengths) but the three the
    checker words itself (control characters, long words: already sentences; value_error:
    none of its models raises one)."""
    from game.ui.editor.wording import PYDANTIC_KINDS

    tested = {k for k, _, _ in PYDANTIC_TABLE}
    worded = {k for k, _, _ in PYDANTIC_KINDS}
    reachable = {
        "bool_type",
        "extra_forbidden",
        "finite_number",
        "float_type",
        "greater_than_equal",
        "int_type",
        "less_than_equal",
        "list_type",
        "literal_error",
        "missing",
        "model_type",
        "string_pattern_mismatch",
        "string_too_long",
        "string_too_short",
        "string_type",
        "string_unicode",
        "too_long",
        "too_short",
    }  # found by setting every field of a scenario to each kind of wrong value
    assert reachable <= tested <= worded


def test_a_rider_s_problem_says_starts_aboard_not_carried_by(app):
    """(#43) "carried  by" (two spaces): the link's underline hid the underscore of the file's
    field name carried_by; the line names the field in words."""
    s, text = problems_panel(app, _set(["stands", 5, "carried_by"], "A99"))
    assert "Stand A6, starts aboard: no stand 'A99'" in text
    assert "carried" not in text
    s._problem_clicked(0)
    assert s.message[0] == "Problem 1 of 1: Stand A6, starts aboard: no stand 'A99'"


def sorties(s):
    """The sorties field of the first aircraft of the side's air support."""
    return next(w for w, e in s.entries.fields.items() if w.alive() and e[0].startswith("Sorties"))


def test_a_side_s_air_support_is_edited_in_the_forces_panel(app):
    """(#43) The editor had no widget for ``air_support`` (the full games): the Forces panel
    shows each aircraft a side calls, with its sorties; Add, a change of aircraft, the
    sorties typed and X (remove) each write the file as one history entry."""
    from tests.helpers import choose

    s = new_editor(app, "modern-full")
    s.show_panel("Forces")
    frame(s)
    assert "air_support" not in s.doc.raw["sides"][0]
    press(s, "Add air support")
    assert s.doc.raw["sides"][0]["air_support"] == [
        {"aircraft": "A-10A Thunderbolt II", "sorties": 1}
    ]
    menu = next(
        w
        for w in s._panel_widgets
        if type(w).__name__ == "UIDropDownMenu" and "Thunderbolt" in str(w.selected_option)
    )
    choose(s, menu, "Su-25 Frogfoot")
    type_over(s, sorties(s), "4")
    key(s, pygame.K_RETURN)
    assert s.doc.raw["sides"][0]["air_support"] == [{"aircraft": "Su-25 Frogfoot", "sorties": 4}]
    type_over(s, sorties(s), "40")  # more sorties than a side may call: refused, said
    key(s, pygame.K_RETURN)
    assert s.doc.raw["sides"][0]["air_support"][0]["sorties"] == 4 and s.message[1]
    assert not any("air" in p.text for p in s.problems)
    press(s, "X")
    assert "air_support" not in s.doc.raw["sides"][0]
    assert [e.label for e in s.doc.history.entries] == [
        "add air support",
        "air support: Su-25 Frogfoot",
        "set sorties",
        "remove air support",
    ]


def test_the_air_support_rows_fit_the_panel_of_a_shipped_full_game(app):
    """(#43) wwii-47-breakthrough's air support reads whole in the Forces panel at 1280x800,
    and a side of a game without air strikes shows no air support row."""
    s = open_map(app, "wwii-47-breakthrough")
    s.show_panel("Forces")
    frame(s)
    menu = next(
        w
        for w in s._panel_widgets
        if type(w).__name__ == "UIDropDownMenu" and "Hs 129" in str(w.selected_option)
    )
    font = app.manager.get_theme().get_font(menu.combined_element_ids)
    for name in s.doc.data.fire_support.aircraft_for("wwii-47"):
        assert font.size(name)[0] <= menu.rect.width - 24
    assert menu.rect.right <= app.size[0]
    plain = new_editor(app, "modern")
    plain.show_panel("Forces")
    frame(plain)
    assert not any("Air support" in getattr(w, "text", "") for w in plain._panel_widgets)
