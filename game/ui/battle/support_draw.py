"""The battle screen's overlays of fire support (the full games' artillery, smoke and air
strikes): impact markers and smoke, plotted missions (their owner's only), where this turn's
missions landed (deviation arrows, the aircraft's tracks), and the aircraft flying; the
replay draws the same with the same functions; and the small drawing helpers the fire
support modes share (``game.ui.battle.support``)."""

from __future__ import annotations

import math
from typing import Protocol

import pygame

from game import IMPACT_DIAMETER_IN
from game.ui.battle.netplay import own_missions
from game.ui.battle.turns import CurtainMode
from game.ui.logtext import DIRECTIONS
from game.ui.paint.models import aircraft_sprite
from game.ui.paint.support import impact_sprite, smoke_sprite
from game.ui.render import INK, SIDE_COLOURS, table_style

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


def map_label(surface, tv, text: str, at, colour, leftwards: bool = False) -> None:
    """A map label on a dark box, so it reads on any ground: starting at pixel ``at``, or
    ending there when ``leftwards`` (a point near the table's right edge)."""
    img = tv.label(text, colour)
    box = pygame.Rect(0, 0, img.get_width() + 6, img.get_height() + 2)
    if leftwards:
        box.midright = (int(at[0]), int(at[1]))
    else:
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


def side_colour(sides, side) -> tuple:
    """The colour of ``side`` (one of the battle's ``sides``), orange when it is not one."""
    return SIDE_COLOURS[sides.index(side) % 2] if side in sides else IMPACT


def mission_of(marker_id: str) -> str:
    """The mission an impact marker or smoke area belongs to ("m3" of "m3.2")."""
    return marker_id.rsplit(".", 1)[0]


def draw_markers(surface, tv, b, hidden=()) -> None:
    """Smoke areas as grey clouds and impact markers as rings in the firing side's
    colour (painted style: drifting puffs, and craters with fire), the first of each
    mission labelled, of battle ``b`` (its ``state`` and ``sides``)
    on table view ``tv``: the battle screen's and the replay's. The markers of the missions
    in ``hidden`` (ids) are left out: the screen has not shown them landing yet. Only
    what lies on the table is drawn (a marker 2" from the edge no longer spills past it)."""
    table = tv.table  # what lies past the table's edge is not drawn
    (x0, y0), (x1, y1) = tv.to_px(0, 0), tv.to_px(table.width, table.depth)
    edge = pygame.Rect(min(x0, x1), min(y0, y1), abs(x1 - x0) + 1, abs(y1 - y0) + 1)
    clip = surface.get_clip()
    surface.set_clip(edge.clip(clip))
    try:
        _draw_markers(surface, tv, b, hidden)
    finally:
        surface.set_clip(clip)


def _draw_markers(surface, tv, b, hidden) -> None:
    r_px = RADIUS_IN * tv.view.scale
    st = b.state
    if table_style() == "painted":  # drifting puffs, craters and fire
        _draw_painted_markers(surface, tv, b, hidden, r_px)
        return
    for a in st.smoke:
        if mission_of(a.id) not in hidden:
            alpha_circle(surface, SMOKE, tv.to_px(a.x, a.y), r_px)
    for imp in st.impacts:
        if imp.mission in hidden:
            continue
        c = tv.to_px(imp.x, imp.y)
        own = side_colour(b.sides, imp.side)
        pygame.draw.circle(surface, IMPACT, c, max(3, int(r_px)), 3)
        pygame.draw.circle(surface, own, c, max(2, int(r_px) - 3), 2)
        pygame.draw.line(surface, IMPACT, (c[0] - 5, c[1] - 5), (c[0] + 5, c[1] + 5), 2)
        pygame.draw.line(surface, IMPACT, (c[0] - 5, c[1] + 5), (c[0] + 5, c[1] - 5), 2)
        if imp.id.endswith(".1"):
            map_label(surface, tv, imp.mission, (c[0] + r_px + 2, c[1]), own)


def _draw_painted_markers(surface, tv, b, hidden, r_px: float) -> None:
    """The painted style's smoke and impact markers (:mod:`game.ui.paint.support`), the first
    of each mission labelled as in the plain style."""
    for a in b.state.smoke:
        if mission_of(a.id) not in hidden:
            pic = smoke_sprite(r_px, a.id)
            surface.blit(pic, pic.get_rect(center=tv.to_px(a.x, a.y)))
    for imp in b.state.impacts:
        if imp.mission in hidden:
            continue
        c = tv.to_px(imp.x, imp.y)
        own = side_colour(b.sides, imp.side)
        pic = impact_sprite(r_px, imp.id, own)
        surface.blit(pic, pic.get_rect(center=c))
        if imp.id.endswith(".1"):
            map_label(surface, tv, imp.mission, (c[0] + r_px + 2, c[1]), own)


def mission_groups(events) -> list[dict]:
    """The missions among battle-log lines, in the order they landed or fired: each
    ``artillery`` or ``air_strike`` line with the ``impact`` lines of its landing that follow
    it, and ``last``, the index in ``events`` of its last line: ``{"line": ..., "impacts":
    [...], "last": int}`` (the screen shows them one at a time)."""
    out: list[dict] = []
    for i, ev in enumerate(events):
        if ev["event"] in ("artillery", "air_strike"):
            out.append({"line": ev, "impacts": [], "last": i})
        elif (
            ev["event"] == "impact"
            and ev.get("cause") == "landing"
            and out
            and out[-1]["last"] == i - 1
            and ev.get("mission") == out[-1]["line"].get("mission")
        ):
            out[-1]["impacts"].append(ev)
            out[-1]["last"] = i
    return out


def aim_of(ev: dict):
    """The point (inches) an ``artillery`` line's mission was aimed at (its first marker's
    place) or an ``air_strike`` line's point of attack, or None where the line has none."""
    if ev["event"] == "air_strike":
        path = ev.get("path") or ()
        return tuple(path[1][:2]) if len(path) == 3 else None
    aim = ev.get("aim") or (ev.get("sheaf") or [None])[0]
    return tuple(aim[:2]) if aim else None


def deviated_to(ev: dict):
    """Where a mission deviated to (inches: its aim moved by the deviation roll's dx, dy), or
    None when no deviation roll was made or it passed (the mission is on the aim)."""
    dev, aim = ev.get("deviation"), aim_of(ev)
    if not dev or dev.get("passed") or aim is None:
        return None
    return aim[0] + dev.get("dx", 0.0), aim[1] + dev.get("dy", 0.0)


def deviation_label(ev: dict) -> str:
    """A deviation arrow's label: 'm3: 3" up-right' (the mission, the distance and the
    direction die's direction)."""
    dev = ev["deviation"]
    way = DIRECTIONS[(dev["direction_die"] - 1) % 8] if dev.get("direction_die") else "off"
    return f'{ev["mission"]}: {dev["distance_in"]:g}" {way}'


def draw_landing(surface, tv, sides, ev: dict, strong: bool = False) -> list[tuple]:
    """Where a mission of an ``artillery`` or ``air_strike`` line landed, on table view
    ``tv``: the aircraft's track (entry, point of attack, exit) and the deviation arrow from
    the aim to where it fell, labelled with its distance and direction, in the firing side's
    colour (``sides``: the battle's). ``strong``: the mission being shown now (thicker, its
    aim marked). Returns what it drew: ("track", mission, points) and ("arrow", mission,
    aim, to) (the battle screen and the replays draw it alike)."""
    own = side_colour(sides, ev.get("side"))
    drawn: list[tuple] = []
    path = ev.get("path") if ev["event"] == "air_strike" else None
    if path and len(path) >= 2:
        points = [tuple(p[:2]) for p in path]
        tv.polyline(surface, points, own, 2 if strong else 1)
        ends = [(points[0], "in"), (points[-1], "out")]
        if math.dist(points[0], points[-1]) < 1.0:  # in and out by the same place
            ends = [(points[0], "in and out")]
        for p, word in ends:
            c = tv.to_px(*p)
            pygame.draw.circle(surface, own, c, 5)
            left = c[0] > tv.rect.centerx
            at = (c[0] - 8, c[1]) if left else (c[0] + 8, c[1])
            map_label(surface, tv, f"{ev['mission']} {word}", at, own, left)
        drawn.append(("track", ev["mission"], points))
    aim, to = aim_of(ev), deviated_to(ev)
    if strong and aim is not None:
        c = tv.to_px(*aim)
        pygame.draw.circle(surface, (255, 255, 255), c, 7, 2)
        pygame.draw.line(surface, (255, 255, 255), (c[0] - 10, c[1]), (c[0] + 10, c[1]), 2)
        pygame.draw.line(surface, (255, 255, 255), (c[0], c[1] - 10), (c[0], c[1] + 10), 2)
    if to is not None:
        p0, p1 = tv.to_px(*aim), tv.to_px(*to)
        if strong:
            arrow(surface, INK, p0, p1, 6)
        arrow(surface, own, p0, p1, 3)
        left = p1[0] > tv.rect.centerx
        at = (p1[0] - 10, p1[1] - 14) if left else (p1[0] + 10, p1[1] - 14)
        map_label(surface, tv, deviation_label(ev), at, own, left)
        drawn.append(("arrow", ev["mission"], aim, to))
    return drawn


def draw_plotted(surface, tv, plots, colour_of=None) -> None:
    """Plotted missions not landed yet, dashed: each marker of an artillery mission's sheaf,
    an air strike's point of attack and its track from entry to exit, labelled with the
    mission, what it is and its landing turn. ``plots`` are the battle's missions or the
    log's ``plot`` lines; ``colour_of(side)`` the label's colour (PLOTTED when None)."""
    r_px = RADIUS_IN * tv.view.scale
    for m in plots:
        get = m.get if isinstance(m, dict) else lambda k, m=m: getattr(m, k, None)
        kind, path = get("kind"), [tuple(p[:2]) for p in get("path") or ()]
        points = [tuple(p[:2]) for p in get("sheaf") or ()]
        if kind == "air" and len(path) == 3:
            points = [path[1]]
        if not points:
            continue
        for x, y in points:
            dashed_circle(surface, PLOTTED, tv.to_px(x, y), r_px)
        if kind == "air":
            tv.polyline(surface, path, PLOTTED, 1)
        what = "air strike" if kind == "air" else str(get("ammo") or "he").upper()
        px, py = tv.to_px(*points[0])
        mid = get("mission") or get("id")
        colour = colour_of(get("side")) if colour_of else PLOTTED
        text = f"{mid} {what}, turn {get('lands_turn')}"
        map_label(surface, tv, text, (px + r_px + 4, py), colour)


class SupportScreen(Protocol):
    """What :class:`SupportOverlay` reads of the battle screen: its battle, table view,
    current mode (the curtain, the missions still to be shown), network session (or None),
    AI players and the AI's speed (0: nothing flies)."""

    battle: object
    tv: object
    mode: object
    net: object
    ai: dict
    ai_speed: float


class SupportOverlay:
    """The battle screen's fire support overlays and the aircraft's flights (its
    ``support``): ``flights`` holds the air strikes shown flying ([log line, seconds
    flown]); ``drawn`` what the last frame drew of the landings."""

    def __init__(self, screen: SupportScreen):
        self.screen = screen
        self.flights: list[list] = []
        self.drawn: list[tuple] = []
        self._landings: list[dict] = []
        self._landings_key: tuple | None = None

    @property
    def battle(self):
        """The screen's battle."""
        return self.screen.battle

    def plot_viewer(self) -> str | None:
        """The side whose plotted missions the screen may show, or None: against the AI the
        player's side; in a hotseat battle the side plotting now, in the joint plot phase
        only (the other player has handed the screen over behind the curtain); over the
        network this machine's side."""
        b, screen = self.battle, self.screen
        if screen.net is not None:
            return screen.net.side
        humans = [s for s in b.sides if s not in screen.ai]
        if len(humans) == 1:
            return humans[0]
        if not humans or b.state.phase != "plot" or isinstance(screen.mode, CurtainMode):
            return None
        return b.to_act

    def visible_missions(self) -> list:
        """The plotted missions (not yet landed) the screen shows: the viewer's only; over the
        network this machine's, its hidden ones as its secrets keep them."""
        if self.screen.net is not None:
            return own_missions(self.screen.net, self.battle)
        viewer = self.plot_viewer()
        return [m for m in self.battle.state.missions if m.side == viewer]

    def queue_flight(self, ev: dict) -> None:
        """Show an air strike's aircraft flying its path (a line of the log)."""
        if self.screen.ai_speed > 0:
            self.flights.append([ev, 0.0])

    def advance_flights(self, dt: float) -> None:
        """Move the aircraft being shown on (one at a time); drop it once it has left."""
        if self.flights:
            self.flights[0][1] += dt
            if self.flights[0][1] * FLIGHT_IN_S >= path_length(self.flights[0][0]["path"]):
                self.flights.pop(0)

    def landings(self) -> list[dict]:
        """This turn's artillery lines (where missions landed) and, in the phase they flew
        in only, its air strike lines (their tracks were left drawn over the later phases)."""
        b = self.battle
        key = (len(b.log.events), b.state.turn, b.state.phase)
        if self._landings_key != key:
            turn, phase = b.state.turn, b.state.phase
            self._landings = [
                e
                for e in b.log.events[-400:]
                if e.get("turn") == turn
                and (
                    e["event"] == "artillery"
                    or (e["event"] == "air_strike" and e.get("phase") == phase)
                )
            ]
            self._landings_key = key
        return self._landings

    def draw(self, surface) -> None:
        """Smoke as grey clouds, impact markers as rings in the firing side's colour, the viewer's plotted
        missions dashed, this turn's deviations as arrows from the aim to where the markers
        fell and the aircraft's tracks, and aircraft in flight. While the screen shows the
        missions that landed one at a time (``mode.unshown``: those still to come)
        their markers and arrows wait."""
        b, tv = self.battle, self.screen.tv
        hidden = set(self.screen.mode.unshown)
        draw_markers(surface, tv, b, hidden)
        draw_plotted(surface, tv, self.visible_missions())
        self.drawn = []  # what this frame drew of the landings (the replay's too)
        for e in self.landings():
            if e.get("mission") not in hidden:
                self.drawn += draw_landing(surface, tv, b.sides, e)
        if self.flights:
            ev, t = self.flights[0]
            self._draw_aircraft(surface, ev, t * FLIGHT_IN_S)

    def _draw_aircraft(self, surface, ev: dict, flown: float) -> None:
        path = ev["path"]
        tv = self.screen.tv
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
                if tv.style() == "symbols":
                    pygame.draw.polygon(surface, own, [nose, wing[0], c, wing[1]])
                    pygame.draw.polygon(surface, INK, [nose, wing[0], c, wing[1]], 1)
                else:  # the aircraft painted, its shadow on the ground
                    span = max(44, int(tv.view.scale * 2))
                    heading = math.degrees(math.atan2(q[1] - p[1], q[0] - p[0]))
                    for shadow, off in ((True, span // 4), (False, 0)):
                        img = aircraft_sprite(own, span, heading, shadow)
                        surface.blit(img, img.get_rect(center=(c[0] + off, c[1] + off)))
                map_label(surface, tv, ev["aircraft"], (c[0] + 16, c[1] - 14), own)
                return
            flown -= seg


def path_length(path) -> float:
    """The length of a path of table points (inches)."""
    return sum(math.dist(p, q) for p, q in zip(path, path[1:], strict=False))
