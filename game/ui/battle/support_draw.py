"""The battle screen's overlays of fire support (the full games' artillery, smoke and air
strikes): impact markers and smoke (also the replay's), plotted missions (their owner's
only), where this turn's missions landed, and the aircraft flying; and the small drawing
helpers the fire support modes share (``game.ui.battle.support``)."""

from __future__ import annotations

import math

import pygame

from game import IMPACT_DIAMETER_IN
from game.ui.battle.turns import CurtainMode
from game.ui.render import INK, SIDE_COLOURS

RADIUS_IN = IMPACT_DIAMETER_IN / 2
SMOKE = (205, 205, 200, 170)
IMPACT = (235, 90, 20)
PLOTTED = (250, 240, 120)
AA_SHADE = (215, 45, 45, 50)
FLIGHT_IN_S = 18.0
"""How fast an air strike is shown flying along its path (inches a second); strikes are shown
one after another, in the order they flew."""


def alpha_circle(surface, colour, centre, radius_px: float) -> None:
    """A see-through disc of ``colour`` (RGBA) centred at pixel ``centre``."""
    r = max(2, int(radius_px))
    disc = pygame.Surface((2 * r + 2, 2 * r + 2), pygame.SRCALPHA)
    pygame.draw.circle(disc, colour, (r + 1, r + 1), r)
    surface.blit(disc, (centre[0] - r - 1, centre[1] - r - 1))


def dashed_circle(surface, colour, centre, radius_px: float, width: int = 2) -> None:
    """A dashed ring at pixel ``centre`` (a plotted marker)."""
    n = max(12, int(radius_px / 3))
    for k in range(0, n, 2):
        a0, a1 = 2 * math.pi * k / n, 2 * math.pi * (k + 1) / n
        p0 = (centre[0] + radius_px * math.cos(a0), centre[1] + radius_px * math.sin(a0))
        p1 = (centre[0] + radius_px * math.cos(a1), centre[1] + radius_px * math.sin(a1))
        pygame.draw.line(surface, colour, p0, p1, width)


class OnTable:
    """Clip drawing to the table itself (range rings and AA reach stop at its edges)."""

    def __init__(self, surface, tv):
        self.surface, self.tv = surface, tv

    def __enter__(self):
        self.old = self.surface.get_clip()
        x0, y0 = self.tv.to_px(0, self.tv.table.depth)
        x1, y1 = self.tv.to_px(self.tv.table.width, 0)
        table = pygame.Rect(int(x0), int(y0), int(x1 - x0) + 1, int(y1 - y0) + 1)
        self.surface.set_clip(table.clip(self.old))
        return self

    def __exit__(self, *exc):
        self.surface.set_clip(self.old)


def map_label(surface, tv, text: str, at, colour) -> None:
    """A map label on a dark box, so it reads on any ground."""
    img = tv.label(text, colour)
    box = pygame.Rect(0, 0, img.get_width() + 6, img.get_height() + 2)
    box.midleft = (int(at[0]), int(at[1]))
    pygame.draw.rect(surface, (30, 32, 30), box)
    surface.blit(img, (box.x + 3, box.y + 1))


def arrow(surface, colour, p0, p1, width: int = 3) -> None:
    """An arrow from pixel ``p0`` to ``p1`` (a deviation)."""
    pygame.draw.line(surface, colour, p0, p1, width)
    a = math.atan2(p1[1] - p0[1], p1[0] - p0[0])
    for da in (2.6, -2.6):
        q = (p1[0] + 12 * math.cos(a + da), p1[1] + 12 * math.sin(a + da))
        pygame.draw.line(surface, colour, p1, q, width)


def draw_markers(surface, tv, b) -> None:
    """Smoke areas as grey clouds and impact markers as orange rings in the firing side's
    colour, the first of each mission labelled, of battle ``b`` (its ``state`` and ``sides``)
    on table view ``tv``: the battle screen's and the replay's."""
    r_px = RADIUS_IN * tv.view.scale
    st = b.state
    for a in st.smoke:
        alpha_circle(surface, SMOKE, tv.to_px(a.x, a.y), r_px)
    for imp in st.impacts:
        c = tv.to_px(imp.x, imp.y)
        own = SIDE_COLOURS[b.sides.index(imp.side) % 2] if imp.side in b.sides else IMPACT
        pygame.draw.circle(surface, IMPACT, c, max(3, int(r_px)), 3)
        pygame.draw.circle(surface, own, c, max(2, int(r_px) - 3), 2)
        pygame.draw.line(surface, IMPACT, (c[0] - 5, c[1] - 5), (c[0] + 5, c[1] + 5), 2)
        pygame.draw.line(surface, IMPACT, (c[0] - 5, c[1] + 5), (c[0] + 5, c[1] - 5), 2)
        if imp.id.endswith(".1"):
            map_label(surface, tv, imp.mission, (c[0] + r_px + 2, c[1]), own)


class SupportDrawing:
    """Mixin of the battle screen: the fire support's overlays and the aircraft's flights."""

    def plot_viewer(self) -> str | None:
        """The side whose plotted missions the screen may show, or None: against the AI the
        player's side; in a hotseat battle the side plotting now, in the joint plot phase
        only (the other player has handed the screen over behind the curtain)."""
        b = self.battle
        humans = [s for s in b.sides if s not in self.ai]
        if len(humans) == 1:
            return humans[0]
        if not humans or b.state.phase != "plot" or isinstance(self.mode, CurtainMode):
            return None
        return b.to_act

    def visible_missions(self) -> list:
        """The plotted missions (not yet landed) the screen shows: the viewer's only."""
        viewer = self.plot_viewer()
        return [m for m in self.battle.state.missions if m.side == viewer]

    def queue_flight(self, ev: dict) -> None:
        """Show an air strike's aircraft flying its path (a line of the log)."""
        if getattr(self, "ai_speed", 1) > 0:
            self.flights.append([ev, 0.0])

    def advance_flights(self, dt: float) -> None:
        """Move the aircraft being shown on (one at a time); drop it once it has left."""
        if self.flights:
            self.flights[0][1] += dt
            if self.flights[0][1] * FLIGHT_IN_S >= path_length(self.flights[0][0]["path"]):
                self.flights.pop(0)

    def landings(self) -> list[dict]:
        """This turn's artillery and air strike lines (where missions landed)."""
        b = self.battle
        key = (len(b.log.events), b.state.turn)
        if getattr(self, "_landings_key", None) != key:
            turn = b.state.turn
            self._landings = [
                e
                for e in b.log.events[-400:]
                if e.get("turn") == turn and e["event"] in ("artillery", "air_strike")
            ]
            self._landings_key = key
        return self._landings

    def draw_fire_support(self, surface) -> None:
        """Smoke as grey clouds, impact markers as orange rings, the viewer's plotted
        missions dashed, this turn's deviations as arrows from the aim to where the markers
        fell, and aircraft in flight."""
        b, tv = self.battle, self.tv
        r_px = RADIUS_IN * tv.view.scale
        draw_markers(surface, tv, b)
        for m in self.visible_missions():
            points = m.sheaf if m.kind == "artillery" else (m.path[1],)
            for x, y in points:
                dashed_circle(surface, PLOTTED, tv.to_px(x, y), r_px)
            if m.kind == "air":
                tv.polyline(surface, list(m.path), PLOTTED, 1)
            x, y = points[0]
            what = "air strike" if m.kind == "air" else m.ammo.upper()
            px, py = tv.to_px(x, y)
            map_label(
                surface, tv, f"{m.id} {what}, turn {m.lands_turn}", (px + r_px + 4, py), PLOTTED
            )
        for e in self.landings():
            dev = e.get("deviation")
            if not dev or dev.get("passed"):
                continue
            aim = e["aim"] if e["event"] == "artillery" else e["path"][1]
            to = (aim[0] + dev["dx"], aim[1] + dev["dy"])
            own = SIDE_COLOURS[b.sides.index(e["side"]) % 2] if e["side"] in b.sides else IMPACT
            arrow(surface, own, tv.to_px(*aim), tv.to_px(*to))
            map_label(
                surface, tv, f'{e["mission"]} off by {dev["distance_in"]:g}"', tv.to_px(*aim), own
            )
        if self.flights:
            ev, t = self.flights[0]
            self._draw_aircraft(surface, ev, t * FLIGHT_IN_S)

    def _draw_aircraft(self, surface, ev: dict, flown: float) -> None:
        path = ev["path"]
        tv = self.tv
        tv.polyline(surface, path, (250, 250, 250), 1)
        for p, q in zip(path, path[1:], strict=False):
            seg = math.dist(p, q)
            if flown <= seg and seg > 0:
                x, y = p[0] + (q[0] - p[0]) * flown / seg, p[1] + (q[1] - p[1]) * flown / seg
                c = tv.to_px(x, y)
                a = math.atan2(-(q[1] - p[1]), q[0] - p[0])
                nose = (c[0] + 14 * math.cos(a), c[1] + 14 * math.sin(a))
                wing = [(c[0] + 9 * math.cos(a + s), c[1] + 9 * math.sin(a + s)) for s in (2, -2)]
                b = self.battle
                own = SIDE_COLOURS[b.sides.index(ev["side"]) % 2] if ev["side"] in b.sides else INK
                pygame.draw.polygon(surface, own, [nose, wing[0], c, wing[1]])
                pygame.draw.polygon(surface, INK, [nose, wing[0], c, wing[1]], 1)
                map_label(surface, tv, ev["aircraft"], (c[0] + 16, c[1] - 14), own)
                return
            flown -= seg


def path_length(path) -> float:
    """The length of a path of table points (inches)."""
    return sum(math.dist(p, q) for p, q in zip(path, path[1:], strict=False))
