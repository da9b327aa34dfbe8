"""The map editor's side panels that set the scenario up: Forces (a side's settings and the
unit list to place stands from) and Scenario (title, ruleset, turns, sighting, table size,
victory and the briefing). Built by :class:`~game.ui.editor.panels.PanelsMixin`'s helpers."""

from __future__ import annotations

import re

import pygame
from pygame_gui.elements import (
    UIButton,
    UIDropDownMenu,
    UILabel,
    UISelectionList,
    UITextEntryBox,
    UITextEntryLine,
)

from game import GROUNDS, RULESET_IDS
from game import ruleset as ruleset_of
from game.editor import edits
from game.editor.commands import MISSING, Batch, SetField, items
from game.ui.editor.fields import counted, not_empty, number, whole_number
from game.ui.editor.layout import PANEL_W, STATUS_H
from game.ui.editor.modes import StandMode

BOX_WORD_CHARS = 100
"""The longest word (characters without a space) the briefing box is given: the scenario
check's limit (``MAX_WORD_CHARS``); pygame_gui takes seconds to wrap a longer one."""
MAX_AIR_SUPPORT = 10  # aircraft a side's air support may call (scenario_file.py, formats.md)
MIN_TABLE_IN = 6  # the scenario check's bounds (scenario_file.py, docs/formats.md), inches
MIN_SIGHTING_IN = 1
_LONG_WORD = re.compile(rf"\S{{{BOX_WORD_CHARS + 1},}}")


class SetupPanelsMixin:
    """The Forces and Scenario panels (the rest of the panel machinery is in PanelsMixin)."""

    def _panel_forces(self) -> None:
        raw = self.doc.raw
        sides = raw.get("sides", [])
        ids = [s.get("id") for s in sides]
        if self.place_side not in ids and ids:
            self.place_side = ids[0]
        self._field("Side to edit", self.place_side, lambda t: setattr(self, "place_side", t), ids)
        k = ids.index(self.place_side) if self.place_side in ids else 0
        if sides:
            self._side_fields(k, sides[k])
        self._field("Find a unit", self.unit_filter, self._filter_units, live=True)
        self._unit_list_field()
        own = [st for st in raw.get("stands", []) if st.get("side") == self.place_side]
        self._label(
            f"{len(own)} stand(s) of side {self.place_side}; click the table with Stand (S)."
        )

    def _side_fields(self, k: int, s: dict) -> None:
        """The fields of side ``k`` (its dict ``s`` in the scenario): name, cohesion (1-20),
        generation (none or 1-4), the GHQ's command value (-5 to 5), entry edge (none or an
        edge), then its air support; each change one step of the undo history."""
        base = ("sides", k)
        self._field("Name", s.get("name"), self._set((*base, "name"), "side name", not_empty))
        self._field(
            "Cohesion (1-20)",
            s.get("cohesion"),
            self._set((*base, "cohesion"), "cohesion", whole_number(1, 20)),
        )
        gens = ["none", "1", "2", "3", "4"]
        gen = s.get("generation")
        self._field(
            "Generation",
            "none" if gen is None else str(gen),
            self._set(
                (*base, "generation"), "generation", lambda t: None if t == "none" else int(t)
            ),
            gens,
        )
        self._field(
            "GHQ command value",
            s.get("command_value", 0),
            self._set((*base, "command_value"), "command value", whole_number(-5, 5)),
        )
        edges = ["none", "left", "right", "top", "bottom"]
        self._field(
            "Entry edge",
            s.get("entry_edge") or "none",
            self._set((*base, "entry_edge"), "entry edge", lambda t: None if t == "none" else t),
            edges,
        )
        self._air_support_fields(k, s)

    def _unit_list_field(self) -> None:
        """The list of units to place (those the find field lets through, with their points),
        filling the panel down to the status line (at least 120 pixels high); the unit picked
        is the one Stand (S) places."""
        shown, labels = self._unit_rows()
        h = max(120, self.app.size[1] - self._py - STATUS_H - 40)
        sel = None
        if self.place_unit in shown:
            sel = labels[shown.index(self.place_unit)]
        lst = self._pw(
            UISelectionList(
                pygame.Rect(self._px(), self._py, PANEL_W - 16, h),
                labels,
                self.app.manager,
                default_selection=sel,
            )
        )
        self._unit_list = lst
        self._fields[lst] = lambda t: self._pick_unit(t.split("  (")[0])
        self._py += h + 4

    def _air_support_fields(self, k: int, side: dict) -> None:
        """The side's air support (full games; docs/formats.md ``air_support``, rules-decisions
        "Artillery, smoke and air strikes"): a row per aircraft called (which aircraft, how
        many sorties, a Remove button) and an Add button; the aircraft are the scenario's
        ruleset's rows of fire_support.toml (the editor had no widget for it)."""
        ruleset = self.doc.raw.get("ruleset")
        flies = ruleset in RULESET_IDS and ruleset_of(ruleset).has("air_strikes")
        rows = side.get("air_support")
        rows = rows if isinstance(rows, list) else []
        if not flies and not rows:
            return  # only the full games fly air strikes
        known = list(self.doc.data.fire_support.aircraft_for(ruleset)) if ruleset else []
        self._label(
            f"Air support: {counted(len(rows), 'aircraft')} called"
            if flies
            else "Air support (only the full games fly it):"
        )
        base = ("sides", k, "air_support")
        m = self.app.manager
        for j, row in enumerate(rows):
            row = row if isinstance(row, dict) else {}
            name = str(row.get("aircraft", ""))
            x = self._px()
            menu_rect = pygame.Rect(x, self._py, PANEL_W - 16 - 150, 28)
            menu = UIDropDownMenu(known if name in known else [name, *known], name, menu_rect, m)
            self._fields[self._pw(menu)] = lambda t, j=j: self.commit(
                SetField((*base, j, "aircraft"), t, f"air support: {t}")
            )
            self._pw(UILabel(pygame.Rect(menu_rect.right + 2, self._py, 54, 28), "sorties", m))
            entry = UITextEntryLine(pygame.Rect(menu_rect.right + 58, self._py, 40, 28), m)
            entry.set_text(str(row.get("sorties", "")))
            self.entries.register(
                self._pw(entry),
                f"Sorties of {name or 'the aircraft'}",
                self._set((*base, j, "sorties"), "sorties", whole_number(1, 20)),
            )
            remove = self._pw(
                UIButton(
                    pygame.Rect(x + PANEL_W - 66, self._py, 50, 28),
                    "X",
                    m,
                    tool_tip_text=f"Remove {name or 'this aircraft'} from the air support",
                )
            )
            self._widgets[remove] = lambda j=j: self._remove_air_support(k, j)
            self._py += 32
        if flies and len(rows) < MAX_AIR_SUPPORT and known:
            self._pbutton("Add air support", lambda: self._add_air_support(k, known[0]))

    def _add_air_support(self, k: int, aircraft: str) -> None:
        """Give side ``k`` one more aircraft's sorties (1 sortie of ``aircraft`` to start)."""
        rows = self.doc.raw["sides"][k].get("air_support")
        rows = list(rows) if isinstance(rows, list) else []
        rows.append({"aircraft": aircraft, "sorties": 1})
        self.commit(SetField(("sides", k, "air_support"), rows, "add air support"))

    def _remove_air_support(self, k: int, j: int) -> None:
        """Take row ``j`` off side ``k``'s air support (the key goes with the last row)."""
        rows = list(self.doc.raw["sides"][k].get("air_support") or [])
        if 0 <= j < len(rows):
            rows.pop(j)
            self.commit(
                SetField(("sides", k, "air_support"), rows or MISSING, "remove air support")
            )

    def _unit_rows(self) -> tuple[list[str], list[str]]:
        """The units of the scenario's ruleset whose name holds the filter, and their rows."""
        units = self._ruleset_units()
        shown = [u for u in sorted(units) if self.unit_filter.lower() in u.lower()]
        return shown, [f"{u}  ({units[u].points} pts)" for u in shown]

    def _ruleset_units(self) -> dict:
        """The units of the scenario's ruleset by name; none for a ruleset not known (the
        Problems panel says so)."""
        try:
            return self.doc.data.units_for(self.doc.raw.get("ruleset", "modern"))
        except (KeyError, TypeError):
            return {}

    def _filter_units(self, text: str):
        """Filter the unit list as the player types (the list is updated, not rebuilt)."""
        self.unit_filter = text
        self._unit_list.set_item_list(self._unit_rows()[1])
        self._panel_key = self._panel_state()
        return None

    def _pick_unit(self, unit: str) -> None:
        self.place_unit = unit
        self.set_mode(StandMode())
        self.say(f"Placing {unit} for side {self.place_side}: click the table.")

    def _table_fields(self, t: dict) -> None:
        """The Scenario panel's fields of the table ``t`` (the file's ``table``): its width
        and depth (inches) and how its ground is painted (grass or sand)."""
        self._field(
            'Table width (")',
            t.get("width"),
            self._set(("table", "width"), "table width", number(MIN_TABLE_IN, 1000)),
        )
        self._field(
            'Table depth (")',
            t.get("depth"),
            self._set(("table", "depth"), "table depth", number(MIN_TABLE_IN, 1000)),
        )
        self._field(
            "Ground (painted)",
            t.get("ground", "grass"),
            self._set(("table", "ground"), "table's ground"),
            list(GROUNDS),
        )

    def _panel_scenario(self) -> None:
        raw = self.doc.raw
        self._field(
            "Title", raw.get("title", ""), self._set(("title",), "title", not_empty), width=220
        )
        self._field(
            "Ruleset",
            raw.get("ruleset", "modern"),
            self._set(("ruleset",), "ruleset"),
            list(RULESET_IDS),
        )
        self._field(
            "Turns (1-100)", raw.get("turns"), self._set(("turns",), "turns", whole_number(1, 100))
        )
        self._field(
            'Sighting distance (")',
            raw.get("max_sighting_in"),
            self._set(("max_sighting_in",), "sighting distance", number(MIN_SIGHTING_IN, 1000)),
        )
        self._table_fields(raw.get("table", {}))
        v = raw.get("victory", {})
        self._field(
            "Win: destroy at least %",
            v.get("destroy_at_least_pct", 51),
            self._set(("victory", "destroy_at_least_pct"), "victory", number(1, 100)),
        )
        self._field(
            "...while losing at most %",
            v.get("lose_at_most_pct", 50),
            self._set(("victory", "lose_at_most_pct"), "victory", number(0, 100)),
        )
        self._label("Briefing shown to the players:")
        text = raw.get("description") or ""
        if _LONG_WORD.search(text):  # pygame_gui takes seconds to wrap one such word
            self._text(
                f"The briefing has a word longer than {BOX_WORD_CHARS} characters; the "
                "scenario check refuses it and the box cannot wrap it. Break such words with "
                "spaces to edit it here (one history line; Ctrl+Z takes it back).",
                96,
            )
            self._pbutton("Break its long words", self._break_long_words)
            return
        box = self._pw(
            UITextEntryBox(
                pygame.Rect(self._px(), self._py, PANEL_W - 16, 150),
                text,
                self.app.manager,
            )
        )
        self.entries.register(box, "Briefing", self._set(("description",), "briefing"))
        self._py += 154

    def _break_long_words(self) -> None:
        """Put a space after every :data:`BOX_WORD_CHARS` characters of the briefing's words
        that are longer, as one change."""
        text = self.doc.raw.get("description") or ""
        fixed = _LONG_WORD.sub(
            lambda m: " ".join(
                m.group()[k : k + BOX_WORD_CHARS] for k in range(0, len(m.group()), BOX_WORD_CHARS)
            ),
            text,
        )
        self.commit(SetField(("description",), fixed, "break the briefing's long words"))

    def _rider_fields(self, i: int, s: dict, unit) -> None:
        """The full games' stand fields (rules-decisions "Transport"): a carrier's buttons
        selecting its riders (they are not drawn on the table), a personnel stand's "Starts
        aboard" and a button selecting its carrier."""
        stands = items(self.doc.raw, "stand")
        for k, r in enumerate(stands):  # riders are not drawn: reach them from their carrier
            if r.get("carried_by") == s.get("id") and s.get("id") is not None:
                self._pbutton(
                    f"Select {r.get('id')} ({r.get('unit')}), aboard",
                    lambda k=k: self._select_stand(k),
                )
        row = self._ruleset_units().get(unit) if isinstance(unit, str) else None
        if getattr(row, "personnel", False):  # full games: it may start aboard a carrier
            all_units = self._ruleset_units()
            carriers = [
                str(c.get("id"))
                for c in items(self.doc.raw, "stand")
                if c.get("side") == s.get("side")
                and getattr(all_units.get(c.get("unit")), "carrier", 0)
            ]
            k_carrier = next(
                (k for k, c in enumerate(stands) if c.get("id") == s.get("carried_by")), None
            )
            if k_carrier is not None:
                self._pbutton(
                    f"Select its carrier {s.get('carried_by')}",
                    lambda: self._select_stand(k_carrier),
                )
            now = s.get("carried_by") if isinstance(s.get("carried_by"), str) else "(none)"
            self._field(
                "Starts aboard",
                now,
                lambda t: self._aboard(i, None if t == "(none)" else t),
                ["(none)", *carriers]
                if now in ("(none)", *carriers)
                else [now, "(none)", *carriers],
            )

    def _select_stand(self, k: int) -> None:
        """Select stand ``k`` (a rider, which is not drawn on the table)."""
        self.selection = [("stand", k)]
        self._panel_key = None

    def _aboard(self, i: int, carrier_id: str | None) -> str | None:
        """Stand ``i`` starts aboard ``carrier_id`` (full games; rules-decisions "Transport"):
        it takes the carrier's place, entry and battle group; None sets it down 1.2" beside
        the carrier (above it on the table)."""
        stands = items(self.doc.raw, "stand")
        s = stands[i]
        base = ("stands", i)
        ref = s.get("carried_by") if carrier_id is None else carrier_id
        c = next((c for c in stands if c.get("id") == ref), None)
        if carrier_id is not None and c is None:
            return f"there is no stand {carrier_id}"
        cmds = [SetField((*base, "carried_by"), carrier_id)]
        if c is not None and carrier_id is not None:
            for k in ("x", "y", "facing_deg", "on_table", "group"):
                if k in c:
                    cmds.append(SetField((*base, k), c[k]))
        elif c is not None:
            cmds.append(SetField((*base, "y"), edits.tidy(float(c.get("y", 0)) + 1.2)))
        what = f"aboard {carrier_id}" if carrier_id else "set down from its carrier"
        self.commit(Batch(tuple(cmds), what))
        self._panel_key = self._panel_state()
        return None
