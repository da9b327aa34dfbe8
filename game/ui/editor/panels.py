"""The map editor screen's side panel: each panel's widgets, and the field parsers that turn typed text into the file's values (a bad value is named, not written)."""

from __future__ import annotations

import html

import pygame
from pygame_gui.elements import (
    UIButton,
    UIDropDownMenu,
    UILabel,
    UISelectionList,
    UITextBox,
    UITextEntryBox,
    UITextEntryLine,
)

from game.editor import edits
from game.editor.analysis import map_statistics
from game.editor.commands import MISSING, Batch, Replace, SetField, items
from game.editor.gate import shape_problem
from game.ui.editor.fields import (
    counted,
    facing,
    not_empty,
    pair,
    stats_html,
    to_mend,
    whole_number,
    without_file,
)
from game.ui.editor.layout import (
    PANEL_W,
    STATUS_H,
    TOP_H,
    _kind_names,
    _pretty,
    mark_of,
    menu_kind,
    menu_name,
)
from game.ui.editor.setup_panels import SetupPanelsMixin
from game.ui.editor.wording import problem_words
from game.ui.kit import user_maps as user_maps_dir

UNIT_MENU_W = 262
"""Pixels of the Item panel's Unit drop-down: the longest unit name of every ruleset ('M4A3E8
"Sherman Easy-Eight"', 200 px) reads whole beside its arrow (names were cut)."""


class PanelsMixin(SetupPanelsMixin):
    """The editor screen's side panel: the selected item, problems, history, the map, forces and the scenario's settings, rebuilt only when what it shows changes."""

    # ---------------------------------------------------------------- the side panel

    def _panel_state(self):
        return (
            self.panel,
            tuple(self.selection),
            self.vertex,
            self._checked_version,  # moves after a change is validated, not during a drag
            self.doc.history.saved_position,  # a save changes the History's "as saved"
            self.place_side,
            self.place_unit,
            self.unit_filter,
            self.views.overlay_name,
            tuple(self.layers.values()),
            (len(self.hidden), len(self.locked)),
            self.app.size,
            self._panel_scroll,
            self.balance.key(),
        )

    def show_panel(self, name: str) -> None:
        """Switch the side panel."""
        self.panel = name
        self._panel_key = None

    def refresh_panel(self, force: bool = False) -> None:
        """Rebuild the side panel's widgets when what it shows changed (never every frame,
        and not under the user's typing)."""
        focus = self.app.manager.get_focus_set() or set()
        typing = any(
            isinstance(e, (UITextEntryLine, UITextEntryBox)) and e in self._panel_widgets
            for e in focus
        )
        if (self.panel, tuple(self.selection)) != self._scrolled_for:
            self._scrolled_for = (self.panel, tuple(self.selection))
            self._panel_scroll = 0  # another panel or item starts at its top
        key = self._panel_state()
        if typing and not force:
            return
        if key == self._panel_key and not force:
            return
        self._panel_key = key
        hist = self._history_list
        if hist is not None and hist.alive() and hist.scroll_bar is not None:
            self._history_scroll = hist.scroll_bar.start_percentage  # kept over a rebuild
        if (
            self.entries.editing in self._panel_widgets
        ):  # a field rebuilt: what was typed is applied
            left, self.entries.editing = self.entries.editing, None
            self.entries.apply(left)
        for wdg in self._panel_widgets:
            self._widgets.pop(wdg, None)
            self._fields.pop(wdg, None)
            self.entries.fields.pop(wdg, None)
            wdg.kill()
        self._panel_widgets = []
        self._py = TOP_H + 80 - self._panel_scroll
        getattr(self, f"_panel_{self.panel.lower()}")()
        self._fit_panel()

    _panel_scroll = 0  # pixels of the panel scrolled up out of sight (a low window)
    _history_list = None  # the History panel's list, and how far down it was scrolled (0-1)
    _history_scroll = 0.0
    _scrolled_for = None  # the panel and selection the scroll belongs to

    def _panel_bottom(self) -> int:
        """The lowest pixel row the side panel may use: above the status line."""
        return self.app.size[1] - STATUS_H - 4

    def _fit_panel(self) -> None:
        """Keep the panel above the status line: when its widgets do not fit (a low window),
        those outside the visible part are left out and a row of "More above" / "More below"
        buttons (or the mouse wheel over the panel) scrolls it."""
        top, bottom = TOP_H + 80, self._panel_bottom()
        rects = [w.rect for w in self._panel_widgets]
        self._panel_max_scroll = 0
        if not rects or (self._panel_scroll == 0 and max(r.bottom for r in rects) <= bottom):
            return
        bottom -= 34  # the row of scroll buttons
        self._panel_max_scroll = max(0, max(r.bottom for r in rects) + self._panel_scroll - bottom)
        for wdg in list(self._panel_widgets):
            if wdg.rect.top < top or wdg.rect.bottom > bottom:
                self._widgets.pop(wdg, None)
                self._fields.pop(wdg, None)
                self.entries.fields.pop(wdg, None)
                self._panel_widgets.remove(wdg)
                wdg.kill()
        self._py = bottom + 4
        step = max(60, bottom - top - 40)
        self._pbutton("More above", lambda: self.scroll_panel(-step), 1)
        self._pbutton("More below", lambda: self.scroll_panel(step), 2)
        up, down = self._panel_widgets[-2:]
        if self._panel_scroll <= 0:
            up.disable()  # nothing above
        if self._panel_scroll >= self._panel_max_scroll:
            down.disable()

    _panel_max_scroll = 0  # how far the panel can scroll (pixels); 0 when it fits

    def scroll_panel(self, pixels: int) -> None:
        """Scroll the side panel by ``pixels`` (+ shows what is below), within what it holds."""
        new = min(max(0, self._panel_scroll + pixels), self._panel_max_scroll)
        if new != self._panel_scroll:
            self._panel_scroll = new
            self.refresh_panel(force=True)

    def _pw(self, widget):
        self._panel_widgets.append(widget)
        return widget

    def _px(self) -> int:
        return self.app.size[0] - PANEL_W + 8

    def _text(self, text: str, height: int | None = None) -> None:
        h = height or 24
        box = UITextBox(text, pygame.Rect(self._px(), self._py, PANEL_W - 16, h), self.app.manager)
        self._pw(box)
        self._fields[box] = self._link
        self._py += h + 4

    def _label(self, text: str) -> None:
        self._pw(
            UILabel(pygame.Rect(self._px(), self._py, PANEL_W - 16, 22), text, self.app.manager)
        )
        self._py += 22

    def _field(self, label: str, value, on_set, choices=None, width=170, live=False) -> None:
        """A labelled entry (or drop-down with ``choices``) whose edits call ``on_set(text)``;
        a returned string is shown as the problem with the value. An entry is applied on
        Enter or when left, Esc takes the typing back; a ``live`` one (a search) calls
        ``on_set`` at every keystroke."""
        m = self.app.manager
        x = self._px()
        self._pw(
            UILabel(
                pygame.Rect(x, self._py, PANEL_W - 20 - width, 28), label, m, object_id="#field"
            )
        )
        rect = pygame.Rect(x + PANEL_W - 16 - width, self._py, width, 28)
        if choices is not None:
            room = max(120, self._panel_bottom() - rect.bottom)  # the list ends in the window
            wdg = UIDropDownMenu(list(choices), str(value), rect, m, expansion_height_limit=room)
        else:
            wdg = UITextEntryLine(rect, m)
            wdg.set_text("" if value is None else str(value))
        if choices is None and not live:
            self.entries.register(self._pw(wdg), label, on_set)
        else:
            self._fields[self._pw(wdg)] = on_set
        self._py += 32

    def _pbutton(self, text: str, fn, half: int = 0) -> None:
        """A panel button; ``half`` 1 or 2 puts two on a row."""
        x = self._px()
        wdt = PANEL_W - 16
        if half:
            wdt = (PANEL_W - 20) // 2
            x += 0 if half == 1 else wdt + 4
        b = self._pw(UIButton(pygame.Rect(x, self._py, wdt, 30), text, self.app.manager))
        self._widgets[b] = fn
        if half != 1:
            self._py += 34

    def _set(self, path, label, parse=None):
        """An ``on_set`` that writes a field of the file through a SetField command."""

        def on_set(text: str):
            try:
                value = parse(text) if parse else text
            except ValueError as err:
                return str(err) or f"not a valid {label}"
            if not self.commit(SetField(tuple(path), value, f"set {label}")):
                return self.message[0]
            return None

        return on_set

    def _panel_item(self) -> None:
        raw = self.doc.raw
        if not self.selection:
            self._text(
                "<b>Nothing selected.</b><br>Pick a tool on the left and draw on the table, or "
                "click a feature or stand with Select (V). The <b>Problems</b> panel lists what "
                "the scenario still needs.",
                124,
            )
            return
        if len(self.selection) > 1:
            self._text(f"<b>{len(self.selection)} items selected.</b>", 30)
        else:
            kind, i = self.selection[0]
            if kind == "feature":
                self._feature_fields(i, items(raw, "feature")[i])
            else:
                self._stand_fields(i, items(raw, "stand")[i])
        self._py += 4
        self._pbutton("Turn 15° (Q)", lambda: self.actions.rotate_selection(15), 1)
        self._pbutton("Turn -15° (E)", lambda: self.actions.rotate_selection(-15), 2)
        self._field("Turn by degrees (+ left)", f"{self.turn_by:g}", self._set_turn_by, width=80)
        self._pbutton(
            "Turn by the degrees typed", lambda: self.actions.rotate_selection(self.turn_by)
        )
        if any(k == "feature" for k, _ in self.selection):  # a stand is always 1"x1"
            self._pbutton("Smaller ([)", lambda: self.actions.scale_selection(0.9), 1)
            self._pbutton("Larger (])", lambda: self.actions.scale_selection(1 / 0.9), 2)
        self._pbutton("Duplicate (Ctrl+D)", self.actions.duplicate_selection, 1)
        self._pbutton("Delete (Del)", self.actions.delete_selection, 2)
        if any(k == "feature" for k, _ in self.selection):
            self._pbutton("Lock feature", self.actions.lock_selection, 1)
            self._pbutton("Hide feature", lambda: self.actions.lock_selection(hide=True), 2)
        self._label("Onto the other half of the table:")
        self._pbutton("Half-turn copy", lambda: self.actions.half_turn_selection(True), 1)
        self._pbutton("Half-turn in place", lambda: self.actions.half_turn_selection(False), 2)
        self._pbutton("Mirror copy |", lambda: self.actions.mirror_selection("vertical"), 1)
        self._pbutton("Mirror copy -", lambda: self.actions.mirror_selection("horizontal"), 2)

    turn_by = 90.0  # degrees the "Turn by" button turns the selection, counter-clockwise

    def _set_turn_by(self, text: str) -> str | None:
        """The angle typed for the "Turn by" button (degrees, + counter-clockwise)."""
        try:
            angle = float(text)
        except ValueError:
            return "Turn by: type a number of degrees, e.g. 45 or -30"
        if not -360 <= angle <= 360:
            return "Turn by: degrees from -360 to 360"
        self.turn_by = angle
        return None

    def _feature_fields(self, i: int, f: dict) -> None:
        props = f.get("properties", {})
        kind = props.get("terrain", "?")
        gtype = f.get("geometry", {}).get("type", "?")
        shape = {"LineString": "a line", "MultiLineString": "lines"}.get(gtype, "an area")
        if kind == "hill":
            shape = "an outline"
        self._text(f"<b>Feature {i + 1}: {_pretty(kind)}</b>, {shape}", 34)
        line = gtype in edits.LINE_TYPES
        kinds = _kind_names(self.doc.data, "road" if line else "area") + ([] if line else ["hill"])
        base = ("terrain", "features", i, "properties")

        def set_kind(text):
            new = menu_kind(text)
            cmds = [SetField((*base, "terrain"), new, f"make it {_pretty(new)}")]
            if new == "hill" and props.get("level") is None:
                cmds.append(SetField((*base, "level"), self.hill_level, "level"))
            if new != "hill" and "level" in props:
                cmds.append(SetField((*base, "level"), MISSING, "level"))
            self.commit(Batch(tuple(cmds), f"make it {_pretty(new)}"))

        self._field("Type", menu_name(kind), set_kind, [menu_name(k) for k in kinds])
        if kind == "hill":
            self._field(
                "Level",
                props.get("level"),
                self._set((*base, "level"), "hill level", whole_number(1, 20)),
            )
        self._field("Name", props.get("name", ""), self._set((*base, "name"), "name", not_empty))
        g = edits.feature_geometry(f)
        centre = _centre(g)
        if centre is not None:
            cx, cy = centre
            self._field(
                "Centre x, y (inches)", f"{cx:.2f}, {cy:.2f}", lambda t: self._move_to(i, t)
            )
            area = f"{g.area:.1f} sq in" if not line else f'{g.length:.1f}" long'
            self._label(f"{area}, {len(edits.vertices(f))} vertices")
        if self.vertex and self.vertex[0] == i:
            addr = self.vertex[1]
            pts = dict(edits.vertices(f))
            if addr in pts:
                vx, vy = pts[addr]
                self._field(
                    "Vertex x, y (inches)", f"{vx:g}, {vy:g}", lambda t: self._vertex_to(i, addr, t)
                )

    def _move_to(self, i: int, text: str) -> str | None:
        """Move feature ``i`` so that its centre is at the typed "x, y" (inches), from where
        it is now (each keystroke is one absolute move, merged into one history line).
        Returns what the field needs while the text is not yet two numbers."""
        try:
            x, y = pair(text)
        except ValueError as err:
            return f"Centre: {err}"
        centre = _centre(edits.feature_geometry(items(self.doc.raw, "feature")[i]))
        if centre is None:
            return "Centre: this feature has no usable geometry to move"
        dx, dy = x - centre[0], y - centre[1]
        if dx or dy:
            self.commit(
                edits.transform(self.doc.raw, [("feature", i)], edits.translation(dx, dy), "move")
            )
        return None

    def _vertex_to(self, i: int, addr, text: str) -> str | None:
        """Move the picked corner of feature ``i`` to the typed "x, y" (inches); returns what
        the field needs while the text is not yet two numbers."""
        try:
            x, y = pair(text)
        except ValueError as err:
            return f"Vertex: {err}"
        new = edits.move_vertex(items(self.doc.raw, "feature")[i], addr, x, y)
        why = shape_problem(new, *self.table_size())  # as the Polygon tool refuses
        if why:
            return why
        self.commit(Replace("feature", i, new, "move a vertex"))
        return None

    def _stand_fields(self, i: int, s: dict) -> None:
        sides = [sd.get("id") for sd in self.doc.raw.get("sides", [])]
        units = sorted(self._ruleset_units())
        self._text(
            f"<b>Stand {html.escape(str(s.get('id')))}</b>: {html.escape(str(s.get('unit')))}", 30
        )
        base = ("stands", i)
        self._field("Id", s.get("id"), self._set((*base, "id"), "stand id"))
        self._field("Side", s.get("side"), self._set((*base, "side"), "side"), sides)
        unit = s.get("unit")
        self._field(
            "Unit",
            unit,
            self._set((*base, "unit"), "unit"),
            units if unit in units else [unit, *units],
            width=UNIT_MENU_W,
        )
        self._field(
            "Battle group", s.get("group"), self._set((*base, "group"), "battle group", not_empty)
        )
        self._field("x, y (inches)", f"{s.get('x')}, {s.get('y')}", lambda t: self._stand_to(i, t))
        self._field(
            "Facing (0=right, 90=up)",
            s.get("facing_deg"),
            self._set((*base, "facing_deg"), "facing", facing),
        )
        yes_no = ["yes", "no"]
        flag = lambda k: self._set((*base, k), k, lambda t: t == "yes")  # noqa: E731
        self._field("HQ", "yes" if s.get("hq") else "no", flag("hq"), yes_no)
        self._field("GHQ (one a side)", "yes" if s.get("ghq") else "no", flag("ghq"), yes_no)
        self._field(
            "Enters on turn 1",
            "no" if s.get("on_table", True) else "yes",
            lambda t: self._entering(i, t == "yes"),
            yes_no,
        )
        self._rider_fields(i, s, unit)

    def _stand_to(self, i: int, text: str) -> str | None:
        """Move stand ``i`` to the typed "x, y" (inches); returns what the field needs while
        the text is not yet two numbers."""
        try:
            x, y = pair(text)
        except ValueError as err:
            return f"Stand position: {err}"
        cmds = (
            SetField(("stands", i, "x"), edits.tidy(x), "move"),
            SetField(("stands", i, "y"), edits.tidy(y), "move"),
        )
        self.commit(Batch(cmds, "move a stand"))
        return None

    def _entering(self, i, entering: bool):
        s = items(self.doc.raw, "stand")[i]
        base = ("stands", i)
        if entering:
            p = edits.entry_point(self.doc.raw, s.get("side"), s.get("x", 0), s.get("y", 0))
            if p is None:
                return "its side has no entry edge (set one in the Forces panel)"
            edge = self.side_spec(s.get("side")).get("entry_edge")
            cmds = [
                SetField((*base, "on_table"), False),
                SetField((*base, "x"), edits.tidy(p[0])),
                SetField((*base, "y"), edits.tidy(p[1])),
                SetField((*base, "facing_deg"), edits.edge_facing(edge)),
            ]
        else:
            w, d = self.table_size()
            x = min(max(s.get("x", 1), 1.5), w - 1.5)
            y = min(max(s.get("y", 1), 1.5), d - 1.5)
            cmds = [
                SetField((*base, "on_table"), True),
                SetField((*base, "x"), edits.tidy(x)),
                SetField((*base, "y"), edits.tidy(y)),
            ]
        self.commit(Batch(tuple(cmds), "enters on turn 1" if entering else "placed on the table"))
        return None

    def _panel_problems(self) -> None:
        self.check()
        if not self.problems:
            self._text(
                "<b>No problems.</b> The scenario passes the same check as hulldown check. "
                "Save it and play it; F5 tries it now.",
                96,
            )
            return
        n, notes = len(to_mend(self.problems)), len(self.problems) - len(to_mend(self.problems))
        head = f"<b>{counted(n, 'problem')} to mend</b> before the scenario can be played"
        if not n:
            head = "<b>No problems to mend.</b> F5 plays it"
        if notes:
            say = "says" if notes == 1 else "say"
            head += f"; {counted(notes, 'line')} below {say} what was mended on opening"
        lines = [f"{head}. Click a line to select and frame what it names."]
        for k, p in enumerate(self.problems):
            text = html.escape(problem_words(without_file(p.text), self.doc.raw))
            lines.append(f"<a href='problem:{k}'>{k + 1}. {text}</a>")
        self._text("<br><br>".join(lines), self._room())

    def _room(self) -> int:
        """The panel's height left below what is laid out (pixels)."""
        return max(80, self.app.size[1] - self._py - STATUS_H - 10)

    def _link(self, target: str) -> None:
        """A link clicked in a panel's text (``problem:K``)."""
        if target.startswith("problem:"):
            self._problem_clicked(int(target.split(":")[1]))
        elif target.startswith("free:"):
            self.actions.free_feature(int(target.split(":")[1]))
        elif target.startswith("move:"):
            self.balance.apply_move(int(target.split(":")[1]))

    def _problem_clicked(self, k: int) -> None:
        p = self.problems[k]
        words = problem_words(without_file(p.text), self.doc.raw)
        self.say(f"Problem {k + 1} of {len(self.problems)}: {words}", error=True)
        if p.ref is not None:
            n = len(items(self.doc.raw, p.ref[0]))
            if p.ref[1] < n:
                self.frame(p.ref)
                self.panel = "Problems"

    def _panel_history(self) -> None:
        h = self.doc.history
        state = "unsaved changes" if h.dirty else "as saved"
        self._text(
            f"<b>History</b>: {h.position} of {len(h.entries)} changes applied ({state}). "
            "Click a line to go back or forward to it; undone lines are marked.",
            96,
        )
        labels = ["0. as opened" + ("  <- now" if h.position == 0 else "")]
        for k, e in enumerate(h.entries):
            mark = "  <- now" if k + 1 == h.position else ("  (undone)" if k >= h.position else "")
            labels.append(f"{k + 1}. {e.label}{mark}")
        lst = self._pw(
            UISelectionList(
                pygame.Rect(self._px(), self._py, PANEL_W - 16, self._room()),
                labels,
                self.app.manager,
            )
        )
        self._fields[lst] = lambda t: self._jump(int(t.split(".")[0]))
        self._history_list = lst
        if lst.scroll_bar is not None:  # a click on a line keeps the list where it was
            lst.scroll_bar.set_scroll_from_start_percentage(self._history_scroll)
            lst.update(0.0)

    def _jump(self, position: int) -> None:
        self.doc.history.jump(position)
        self.say(f"History: {position} change(s) applied")

    def _panel_map(self) -> None:
        views = ["off"] + [
            f"{w} {s.get('id')}" for w in ("sight", "cost") for s in self.doc.raw.get("sides", [])
        ]
        names = {"off": "No balance view"}
        for v in views[1:]:
            w, s = v.split()
            names[v] = f"Ground side {s} sees" if w == "sight" else f"MP for side {s} to reach"
        back = {n: v for v, n in names.items()}
        self._field(
            "Balance view",
            names.get(self.views.overlay_name, names["off"]),
            lambda t: self.views.show_view(back[t]),
            list(names.values()),
            width=200,
        )
        for i, layer in enumerate(self.layers):
            on = self.layers[layer]
            self._pbutton(
                f"{layer}: {'shown' if on else 'hidden'}",
                lambda n=layer: self._toggle_layer(n),
                1 + i % 2,
            )
        if self.hidden or self.locked:
            what = [f"show {len(self.hidden)} hidden"] if self.hidden else []
            what += [f"unlock {len(self.locked)} locked"] if self.locked else []
            self._pbutton(", ".join(what).capitalize(), self.actions.free_features)
            self._locked_list()
        self._pbutton(
            "Export terrain as GeoJSON...",
            lambda: self.files.file_dialog(
                "Export the terrain",
                (self.doc.path or user_maps_dir() / "map.json").with_suffix(".geojson"),
                "export",
                False,
                ".geojson",
            ),
        )
        self.balance.panel()
        try:
            stats = map_statistics(self.doc.raw, self.doc.data)
        except ValueError as err:
            self._text(f"No statistics: {html.escape(str(err))}", 60)
            return
        self._text(stats_html(stats, self.doc.raw), self._room())

    def _locked_list(self) -> None:
        """The features locked or hidden on their own, each with its mark ("[lock] Locked")
        and a link freeing it (a locked feature had no mark)."""
        rows = []
        for i, f in enumerate(items(self.doc.raw, "feature")):
            mark = mark_of(f)
            state = "Hidden" if mark in self.hidden else "Locked" if mark in self.locked else ""
            if state:
                kind = html.escape(_pretty(f.get("properties", {}).get("terrain", "?")))
                verb = "show" if state == "Hidden" else "unlock"
                rows.append(
                    f"<b>[{state.lower()}]</b> Feature {i + 1}, {kind}: "
                    f"<a href='free:{i}'>{verb} it</a>"
                )
        if rows:
            self._text("<br>".join(rows), min(26 + 22 * len(rows), 140))

    def _toggle_layer(self, name: str) -> None:
        self.layers[name] = not self.layers[name]
        self.selection = [r for r in self.selection if self._ref_visible(r)]

    def _ref_visible(self, ref) -> bool:
        if ref[0] == "stand":
            return self.layers["stands"]
        return self.layers[self._layer_of(items(self.doc.raw, "feature")[ref[1]])]


def _centre(g) -> tuple[float, float] | None:
    """The point the Item panel calls a feature's centre (inches): an area's centroid, a
    line's midpoint along its length; None for a missing or empty geometry."""
    if g is None or g.is_empty:
        return None
    c = g.interpolate(0.5, normalized=True) if g.geom_type in edits.LINE_TYPES else g.centroid
    return c.x, c.y
