"""The map editor's Import OpenStreetMap dialog: a preview of the extract, a box dragged on it,
the table it makes in inches and kilometres, the scale and the ruleset, and Import.

The import itself is the model's (game.editor.osm.import_osm, the same as ``hulldown
import-osm``); this window only draws the extract and reads the mouse.
"""

from __future__ import annotations

import math
from pathlib import Path

import pygame
from pygame_gui.elements import (
    UIButton,
    UIDropDownMenu,
    UIImage,
    UILabel,
    UITextEntryLine,
    UIWindow,
)

from game import RULESET_IDS
from game.editor.osm import (
    DEFAULT_SCALE_M,
    SCALE_RANGE_M,
    Extract,
    OSMImportError,
    import_osm,
    preview_kinds,
    table_for,
)

PREVIEW_COLOURS = {
    "impassable": (92, 140, 196),
    "marsh": (120, 150, 120),
    "woods": (60, 110, 55),
    "grove": (110, 150, 80),
    "rough_1": (160, 150, 110),
    "rough_2": (150, 135, 100),
    "rough_3": (140, 120, 90),
    "buildings": (120, 112, 108),
    "good_road": (70, 70, 70),
    "poor_road": (150, 120, 90),
    "track": (170, 140, 100),
    "coastline": (40, 80, 150),
}
"""The preview's colours for each kind of terrain the import makes (RGB)."""

MIN_DRAG_PX = 6
"""A drag shorter than this each way is a click, not a new box."""


class OSMDialog:
    """The dialog: ``window`` (a UIWindow the editor keeps among its dialogs), the preview
    image, the box (degrees, west, south, east, north) and the fields. ``on_import(result)``
    gets the :class:`game.editor.osm.ImportResult` when Import succeeds; ``say(text, error)``
    reports a problem in the editor's status line."""

    def __init__(self, manager, size, path: Path, extract: Extract, ruleset, on_import, say):
        w, h = size
        self.path, self.ext, self.on_import, self.say = path, extract, on_import, say
        ww, wh = min(1200, w - 80), min(840, h - 80)
        self.window = UIWindow(
            pygame.Rect((w - ww) // 2, (h - wh) // 2, ww, wh),
            manager,
            f"Import OpenStreetMap: {path.name}",
        )
        c = self.window
        inner_w = ww - 32
        side = 250
        pw, ph = inner_w - side - 10, wh - 80
        self.view = pygame.Rect(0, 0, pw, ph)
        self.image = UIImage(
            pygame.Rect(8, 8, pw, ph), pygame.Surface((pw, ph)), manager, container=c
        )
        x = 8 + pw + 10
        UILabel(pygame.Rect(x, 8, side, 22), "Drag a box on the map.", manager, container=c)
        UILabel(pygame.Rect(x, 36, 150, 26), "Metres to the inch", manager, container=c)
        self.scale = UITextEntryLine(pygame.Rect(x + 160, 36, side - 160, 28), manager, container=c)
        self.scale.set_text(f"{DEFAULT_SCALE_M:g}")
        UILabel(pygame.Rect(x, 70, 80, 26), "Ruleset", manager, container=c)
        self.ruleset = UIDropDownMenu(
            list(RULESET_IDS),
            ruleset if ruleset in RULESET_IDS else "modern",
            pygame.Rect(x + 90, 70, side - 90, 28),
            manager,
            container=c,
        )
        self.size_label = UILabel(pygame.Rect(x, 108, side, 24), "", manager, container=c)
        self.km_label = UILabel(pygame.Rect(x, 134, side, 24), "", manager, container=c)
        self.box_label = UILabel(pygame.Rect(x, 160, side, 24), "", manager, container=c)
        self.ok_button = UIButton(pygame.Rect(x, 200, side, 34), "Import", manager, container=c)
        self.cancel = UIButton(pygame.Rect(x, 240, side, 30), "Cancel", manager, container=c)
        UILabel(
            pygame.Rect(8, ph + 14, pw, 22),
            "Map data © OpenStreetMap contributors (ODbL)",
            manager,
            container=c,
        )
        # the extract's extent with a margin, drawn at its true shape (degrees of longitude
        # shrink by the cosine of the latitude)
        fw, fs, fe, fn = extract.bounds
        self.k = math.cos(math.radians((fs + fn) / 2))
        span_x, span_y = (fe - fw) * self.k, fn - fs
        self.ppd = min(pw / span_x, ph / span_y) * 0.96  # pixels per degree of latitude
        self.origin = (
            fw - (pw / self.ppd / self.k - (fe - fw)) / 2,
            fn + (ph / self.ppd - span_y) / 2,
        )
        self.bbox = extract.bounds
        self._drag_from: tuple[int, int] | None = None
        self._drag_to: tuple[int, int] | None = None
        self.base = self._draw_extract()
        self.refresh()

    # ------------------------------------------------------------------ geometry

    def to_px(self, lon: float, lat: float) -> tuple[float, float]:
        """Degrees to preview pixels."""
        return (lon - self.origin[0]) * self.k * self.ppd, (self.origin[1] - lat) * self.ppd

    def to_deg(self, x: float, y: float) -> tuple[float, float]:
        """Preview pixels to degrees (longitude, latitude)."""
        return self.origin[0] + x / (self.k * self.ppd), self.origin[1] - y / self.ppd

    def _draw_extract(self) -> pygame.Surface:
        surf = pygame.Surface(self.view.size)
        surf.fill((225, 222, 205))
        fw, fs, fe, fn = self.ext.bounds
        x0, y0 = self.to_px(fw, fn)
        x1, y1 = self.to_px(fe, fs)
        pygame.draw.rect(surf, (236, 234, 220), pygame.Rect(x0, y0, x1 - x0, y1 - y0))
        layers = sorted(preview_kinds(self.ext), key=lambda kg: kg[0] not in ("impassable",))
        for kind, geom in layers:
            colour = PREVIEW_COLOURS.get(kind, (150, 150, 150))
            for part in getattr(geom, "geoms", [geom]):
                if part.geom_type == "Polygon":
                    pts = [self.to_px(x, y) for x, y in part.exterior.coords]
                    if len(pts) >= 3:
                        pygame.draw.polygon(surf, colour, pts)
                elif part.geom_type == "LineString":
                    pts = [self.to_px(x, y) for x, y in part.coords]
                    width = 2 if kind == "good_road" else 1
                    if len(pts) >= 2:
                        pygame.draw.lines(surf, colour, False, pts, width)
        pygame.draw.rect(surf, (90, 90, 90), pygame.Rect(x0, y0, x1 - x0, y1 - y0), 1)
        return surf

    # ------------------------------------------------------------------ state

    def scale_m(self) -> float | None:
        """The scale typed, metres to the inch, or None if it is not a number in range."""
        try:
            v = float(self.scale.get_text())
        except ValueError:
            return None
        lo, hi = SCALE_RANGE_M
        return v if math.isfinite(v) and lo <= v <= hi else None

    def chosen_ruleset(self) -> str:
        choice = self.ruleset.selected_option
        return choice[0] if isinstance(choice, tuple) else choice

    def table_text(self) -> tuple[str, str, bool]:
        """The table the box makes, in inches and in km, and whether it can be made."""
        scale = self.scale_m()
        if scale is None:
            lo, hi = SCALE_RANGE_M
            return f"Scale: a number of metres, {lo:g} to {hi:g}", "", False
        try:
            (tw, td), (kw, kd) = table_for(self.bbox, scale)
        except OSMImportError as err:
            return str(err).split(": ", 1)[-1], "", False
        ok = 6 <= tw <= 1000 and 6 <= td <= 1000
        inches = f'Table {tw:g}" x {td:g}"' + ("" if ok else " (6 to 1000 each way)")
        return inches, f"{kw:.2f} x {kd:.2f} km at {scale:g} m to the inch", ok

    def refresh(self) -> None:
        """Redraw the preview with the box and say the table it makes."""
        surf = self.base.copy()
        if self._drag_from and self._drag_to:
            a, b = self._drag_from, self._drag_to
            rect = pygame.Rect(min(a[0], b[0]), min(a[1], b[1]), abs(a[0] - b[0]), abs(a[1] - b[1]))
        else:
            w, s, e, n = self.bbox
            x0, y0 = self.to_px(w, n)
            x1, y1 = self.to_px(e, s)
            rect = pygame.Rect(round(x0), round(y0), round(x1 - x0), round(y1 - y0))
        shade = pygame.Surface(self.view.size, pygame.SRCALPHA)
        shade.fill((0, 0, 0, 90))
        shade.fill((0, 0, 0, 0), rect)
        surf.blit(shade, (0, 0))
        pygame.draw.rect(surf, (230, 60, 40), rect, 2)
        self.image.set_image(surf)
        inches, km, ok = self.table_text()
        self.size_label.set_text(inches)
        self.km_label.set_text(km)
        w, s, e, n = self.bbox
        self.box_label.set_text(f"{w:.4f}, {s:.4f} to {e:.4f}, {n:.4f}")
        if ok:
            self.ok_button.enable()
        else:
            self.ok_button.disable()

    # ------------------------------------------------------------------ events

    def on_mouse(self, ev) -> bool:
        """A mouse event on the preview: a drag draws a new box, cut to the extract's data
        (a box wholly off it is dropped). True if the event was taken."""
        if not self.window.alive():
            return False
        rect = self.image.get_abs_rect()
        pos = getattr(ev, "pos", None)
        if pos is None:
            return False
        local = (pos[0] - rect.x, pos[1] - rect.y)
        inside = rect.collidepoint(pos)
        if ev.type == pygame.MOUSEBUTTONDOWN and ev.button == 1 and inside:
            self._drag_from = self._drag_to = local
            return True
        if ev.type == pygame.MOUSEMOTION and self._drag_from is not None:
            self._drag_to = (
                min(max(local[0], 0), rect.w - 1),
                min(max(local[1], 0), rect.h - 1),
            )
            self.refresh()
            return True
        if ev.type == pygame.MOUSEBUTTONUP and ev.button == 1 and self._drag_from is not None:
            a, b = self._drag_from, self._drag_to or self._drag_from
            self._drag_from = self._drag_to = None
            if abs(a[0] - b[0]) >= MIN_DRAG_PX and abs(a[1] - b[1]) >= MIN_DRAG_PX:
                lon0, lat0 = self.to_deg(min(a[0], b[0]), max(a[1], b[1]))
                lon1, lat1 = self.to_deg(max(a[0], b[0]), min(a[1], b[1]))
                fw, fs, fe, fn = self.ext.bounds  # the box stays on the extract's data
                box = (max(lon0, fw), max(lat0, fs), min(lon1, fe), min(lat1, fn))
                if box[0] < box[2] and box[1] < box[3]:
                    self.bbox = box
            self.refresh()
            return True
        return False

    def do_import(self) -> None:
        """Import the box: the editor gets the result; a problem is said in its status line
        and the dialog stays open."""
        scale = self.scale_m()
        if scale is None:
            self.refresh()
            return
        try:
            result = import_osm(
                self.path, self.bbox, ruleset=self.chosen_ruleset(), scale_m=scale, extract=self.ext
            )
        except OSMImportError as err:
            self.say(f"Not imported: {err}", True)
            return
        self.window.kill()
        self.on_import(result)
