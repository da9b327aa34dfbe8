"""What the painted table puts on each terrain feature, worked out once per table in
table inches: tree crowns in woods and groves, houses in built-up areas, pools and reeds in
marsh, stones in rough ground, foxholes, trenches and bunkers in improved positions, coils of
wire, mines, the ruts of tracks, the steps of hills. Every feature's decoration comes from a
``random.Random`` seeded by a hash of the feature's kind and coordinates, never the battle's
dice: the same map looks the same every time."""

from __future__ import annotations

import math
import random
import weakref
import zlib
from dataclasses import dataclass, field

import numpy as np
import shapely

_DECOR: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def feature_seed(kind: str, geometry) -> int:
    """The seed of one feature's painting: a CRC-32 of its kind and its coordinates (WKT to 6
    decimals), so a feature keeps its look wherever it is listed in the file."""
    return zlib.crc32(f"{kind}:{shapely.to_wkt(geometry, rounding_precision=6)}".encode())


@dataclass
class Decor:
    """One feature's decoration, inches. ``items`` maps a part name to a numpy array of rows
    (what a row holds depends on the part: see :func:`decorate`); ``lines`` to lists of
    polylines (lists of (x, y)); ``rings`` are extra outlines (shapely geometries)."""

    kind: str
    seed: int
    bounds: tuple[float, float, float, float]
    items: dict[str, np.ndarray] = field(default_factory=dict)
    lines: dict[str, list[list[tuple[float, float]]]] = field(default_factory=dict)
    shapes: dict[str, object] = field(default_factory=dict)
    rings: dict[tuple, list] = field(default_factory=dict)

    def rings_of(self, name: str, geom) -> list[tuple[np.ndarray, list[np.ndarray]]]:
        """The rings of ``geom`` (this feature's outline or one of its ``shapes``, known as
        ``name``) as (exterior, holes) numpy arrays of (x, y) inches, worked out once."""
        key = ("rings", name)
        got = self.rings.get(key)
        if got is None:
            got = [
                (
                    shapely.get_coordinates(p.exterior),
                    [shapely.get_coordinates(r) for r in p.interiors],
                )
                for p in getattr(geom, "geoms", [geom])
                if p.geom_type == "Polygon" and not p.is_empty
            ]
            self.rings[key] = got
        return got

    def dashes_of(self, name: str, geom, dash: float) -> np.ndarray:
        """The dashes along the outlines of ``geom`` (known as ``name``), ``dash`` inches
        long with gaps as long: rows (x0, y0, x1, y1) inches, worked out once."""
        key = ("dashes", name, dash)
        got = self.rings.get(key)
        if got is None:
            rows = []
            for ext, holes in self.rings_of(name, geom):
                for ring in [ext, *holes]:
                    line = shapely.LineString(ring)
                    n = int(line.length / dash)
                    for k in range(0, n, 2):
                        a, b = line.interpolate(k * dash), line.interpolate((k + 1) * dash)
                        rows.append((a.x, a.y, b.x, b.y))
            got = np.array(rows, dtype=float).reshape(-1, 4)
            self.rings[key] = got
        return got


@dataclass
class TableDecor:
    """The decoration of a whole table: ``areas`` and ``roads`` in the table's order, and per
    hill its slope band and crest (shapely, inches)."""

    areas: list[Decor]
    roads: list[Decor]
    hills: list[Decor]


def _axis(geom) -> float:
    """The direction (radians) of the longer side of a geometry's least rotated rectangle."""
    rect = shapely.minimum_rotated_rectangle(geom)
    if rect.geom_type != "Polygon" or rect.is_empty:  # nothing left (a sliver shrunk away)
        return 0.0
    (x0, y0), (x1, y1), (x2, y2) = list(rect.exterior.coords)[:3]
    if math.hypot(x1 - x0, y1 - y0) >= math.hypot(x2 - x1, y2 - y1):
        return math.atan2(y1 - y0, x1 - x0)
    return math.atan2(y2 - y1, x2 - x1)


def _grid_points(geom, rng: random.Random, spacing: float, jitter: float, angle: float = 0.0):
    """Points on a jittered grid of ``spacing`` inches turned by ``angle``, inside ``geom``."""
    if geom.is_empty:
        return np.zeros((0, 2))
    c = geom.centroid
    x0, y0, x1, y1 = geom.bounds
    half = math.hypot(x1 - x0, y1 - y0) / 2 + spacing
    n = int(2 * half / spacing) + 1
    if n * n > 40000:  # a huge feature: a coarser grid rather than a slow start
        spacing = 2 * half / 200
        n = 201
    g = (np.arange(n) * spacing) - half
    gx, gy = np.meshgrid(g, g)
    ca, sa = math.cos(angle), math.sin(angle)
    nrng = np.random.default_rng(rng.getrandbits(32))
    jx = gx + nrng.uniform(-jitter, jitter, gx.shape) * spacing
    jy = gy + nrng.uniform(-jitter, jitter, gy.shape) * spacing
    xs = c.x + jx * ca - jy * sa
    ys = c.y + jx * sa + jy * ca
    xs, ys = xs.ravel(), ys.ravel()
    keep = (xs >= x0) & (xs <= x1) & (ys >= y0) & (ys <= y1)
    xs, ys = xs[keep], ys[keep]
    inside = shapely.contains_xy(geom, xs, ys)
    return np.c_[xs[inside], ys[inside]]


def _trees(geom, rng, spacing, r_lo, r_hi, keep_share) -> np.ndarray:
    """Tree crowns: rows (x, y, radius, shade 0-3) inside ``geom`` pulled in by a crown's
    half width, so the crowns stay within the edge the rules use."""
    inner = shapely.buffer(geom, -r_lo * 0.6)
    pts = _grid_points(inner, rng, spacing, 0.35)
    nrng = np.random.default_rng(rng.getrandbits(32))
    pts = pts[nrng.random(len(pts)) < keep_share]
    radius = nrng.uniform(r_lo, r_hi, len(pts))
    shade = nrng.integers(0, 4, len(pts))
    return np.c_[pts, radius, shade]


def _houses(geom, rng, heavy: bool) -> np.ndarray:
    """Buildings: rows (x, y, half length, half width, angle radians, colour 0-2, roof kind:
    0 pitched, 1 flat) on lots along the area's long side."""
    angle = _axis(geom)
    lot = 1.5 if heavy else 0.85
    inner = shapely.buffer(geom, -0.35 if heavy else -0.12)
    pts = _grid_points(inner, rng, lot, 0.08, angle)
    nrng = np.random.default_rng(rng.getrandbits(32))
    if not heavy:
        pts = pts[nrng.random(len(pts)) < 0.8]
    n = len(pts)
    hl = nrng.uniform(0.55, 0.68, n) * lot * (1.0 if heavy else 0.62)
    hw = nrng.uniform(0.42, 0.55, n) * lot * (1.0 if heavy else 0.5)
    ang = angle + np.where(nrng.random(n) < 0.15, math.pi / 2, 0.0)
    colour = nrng.integers(0, 3, n)
    flat = (nrng.random(n) < (0.75 if heavy else 0.0)).astype(float)
    rows = np.c_[pts, hl, hw, ang, colour, flat]
    # a house stays inside the area (its edge is where the rules' cover starts): shrunk
    # until it fits, or left out
    kept = []
    for row in rows:
        for shrink in (1.0, 0.8, 0.6):
            x, y, a = row[0], row[1], row[4]
            ca, sa = math.cos(a), math.sin(a)
            hl_, hw_ = row[2] * shrink, row[3] * shrink
            corners = [
                (x + u * hl_ * ca - v * hw_ * sa, y + u * hl_ * sa + v * hw_ * ca)
                for u, v in ((-1, -1), (1, -1), (1, 1), (-1, 1))
            ]
            if geom.contains(shapely.Polygon(corners)):
                kept.append([x, y, hl_, hw_, a, row[5], row[6]])
                break
    if not kept:  # a small area: one house at its heart, as large as fits
        p = geom.representative_point()
        side = max(0.15, min(0.5, math.sqrt(max(geom.area, 0.0)) * 0.3))
        kept.append([p.x, p.y, side, side * 0.7, angle, 0.0, 0.0])
    return np.array(kept, dtype=float)


def _scatter(geom, rng, spacing, lo, hi, keep_share=1.0, jitter=0.45) -> np.ndarray:
    """Rows (x, y, size, variant 0-3) scattered in ``geom`` on a jittered grid."""
    pts = _grid_points(geom, rng, spacing, jitter, rng.uniform(0, math.pi))
    nrng = np.random.default_rng(rng.getrandbits(32))
    pts = pts[nrng.random(len(pts)) < keep_share]
    return np.c_[pts, nrng.uniform(lo, hi, len(pts)), nrng.integers(0, 4, len(pts))]


def _parallel_lines(geom, rng, gap: float, zigzag: float = 0.0) -> list[list[tuple]]:
    """Lines across ``geom`` along its long side, ``gap`` inches apart, clipped to it; with
    ``zigzag`` (inches) each line zigzags that far either side (a trench). No lines for an empty
    ``geom`` (a strip narrower than the inset it was shrunk by)."""
    if geom.is_empty:
        return []
    angle = _axis(geom)
    c = geom.centroid
    x0, y0, x1, y1 = geom.bounds
    half = math.hypot(x1 - x0, y1 - y0) / 2 + gap
    ca, sa = math.cos(angle), math.sin(angle)
    out = []
    offsets = np.arange(-half, half + 1e-9, gap) + rng.uniform(0, gap)
    for off in offsets:
        n = max(2, int(2 * half / 0.45))
        pts = []
        for k in range(n + 1):
            u = -half + 2 * half * k / n
            v = off + (zigzag * (1 if k % 2 else -1) if zigzag else 0.0)
            pts.append((c.x + u * ca - v * sa, c.y + u * sa + v * ca))
        clipped = shapely.intersection(shapely.LineString(pts), geom)
        for part in getattr(clipped, "geoms", [clipped]):
            # a trench's peaks clipped at the edge are stubs that read as chevrons
            if part.geom_type == "LineString" and part.length > (1.2 if zigzag else 0.3):
                out.append(list(part.coords))
    return out


_BY_SHAPE: dict[tuple[str, bytes], Decor] = {}
_MOST_SHAPES = 4096


def decorate(kind: str, geometry) -> Decor:
    """One area's decoration, kept per kind and shape (the editor builds a new table on every
    edit: only the feature edited is worked out again); see :func:`_decorate`."""
    key = (kind, shapely.to_wkb(geometry))
    got = _BY_SHAPE.get(key)
    if got is None:
        if len(_BY_SHAPE) >= _MOST_SHAPES:
            _BY_SHAPE.clear()
        got = _BY_SHAPE[key] = _decorate(kind, geometry)
    return got


def _decorate(kind: str, geometry) -> Decor:
    """One area's decoration (inches), seeded by :func:`feature_seed`. Parts by kind: woods
    and grove ``trees`` (x, y, r, shade); buildings ``houses`` (:func:`_houses`); marsh
    ``pools`` and ``reeds``; rough ``stones`` and ``tufts``; improved positions ``holes``,
    ``trench`` lines and ``bunkers``; wire ``coil`` lines and ``stakes``; minefield ``mines``
    and ``signs``; water ``ripples``; clear ground ``furrows``; smoke ``puffs``."""
    seed = feature_seed(kind, geometry)
    rng = random.Random(seed)
    d = Decor(kind, seed, tuple(geometry.bounds))
    if kind == "woods":
        d.items["trees"] = _trees(geometry, rng, 0.5, 0.3, 0.44, 1.0)
    elif kind == "grove":
        d.items["trees"] = _trees(geometry, rng, 0.95, 0.24, 0.36, 0.75)
    elif kind in ("light_buildings", "heavy_buildings"):
        d.items["houses"] = _houses(geometry, rng, kind == "heavy_buildings")
    elif kind == "marsh":
        d.items["pools"] = _scatter(geometry.buffer(-0.3), rng, 1.4, 0.25, 0.5, 0.7)
        d.items["reeds"] = _scatter(geometry.buffer(-0.1), rng, 0.45, 0.12, 0.2, 0.8)
    elif kind.startswith("rough_"):
        level = int(kind[-1]) if kind[-1].isdigit() else 1
        spacing = {1: 0.8, 2: 0.62, 3: 0.48}.get(level, 0.62)
        big = {1: 0.13, 2: 0.16, 3: 0.22}.get(level, 0.16)
        d.items["stones"] = _scatter(geometry.buffer(-0.08), rng, spacing, big * 0.5, big)
        d.items["tufts"] = _scatter(geometry.buffer(-0.1), rng, 0.6, 0.12, 0.2, 0.7)
    elif kind == "light_improved_position":
        d.items["holes"] = _scatter(geometry.buffer(-0.25), rng, 0.9, 0.16, 0.2)
    elif kind == "medium_improved_position":
        d.lines["trench"] = _parallel_lines(geometry.buffer(-0.2), rng, 1.3, 0.22)
    elif kind == "heavy_improved_position":
        d.lines["trench"] = _parallel_lines(geometry.buffer(-0.25), rng, 1.6, 0.2)
        d.items["bunkers"] = _scatter(geometry.buffer(-0.45), rng, 1.8, 0.26, 0.32, 0.9, 0.2)
    elif kind == "barbed_wire":
        d.lines["coil"] = _parallel_lines(geometry.buffer(-0.12), rng, 0.55)
    elif kind == "minefield":
        d.items["mines"] = _scatter(geometry.buffer(-0.15), rng, 0.5, 0.06, 0.08, 0.85, 0.25)
        edge = geometry.exterior if geometry.geom_type == "Polygon" else geometry.boundary
        n = max(3, int(edge.length / 1.5))
        signs = [edge.interpolate(k / n, normalized=True) for k in range(n)]
        d.items["signs"] = np.array([(p.x, p.y) for p in signs])
    elif kind == "impassable":
        d.lines["ripples"] = _parallel_lines(geometry.buffer(-0.3), rng, 0.7)
    elif kind == "clear":
        d.lines["furrows"] = _parallel_lines(geometry.buffer(-0.1), rng, 0.3)
    elif kind == "smoke":
        d.items["puffs"] = _scatter(geometry.buffer(-0.4), rng, 0.55, 0.25, 0.4, 1.0, 0.5)
    return d


def decorate_road(kind: str, geometry) -> Decor:
    """A road's decoration: for a track its two ``ruts`` (polylines 0.11" either side of the
    middle, inches)."""
    d = Decor(kind, feature_seed(kind, geometry), tuple(geometry.bounds))
    if kind == "track":
        ruts = []
        for line in getattr(geometry, "geoms", [geometry]):
            for off in (0.11, -0.11):
                r = shapely.offset_curve(line, off, join_style="round")
                for part in getattr(r, "geoms", [r]):
                    if not part.is_empty:
                        ruts.append(list(part.coords))
        d.lines["ruts"] = ruts
    return d


def decorate_hill(geometry, crest) -> Decor:
    """A hill's steps: ``shapes["top"]`` the crest (hilltop, inches), ``shapes["inner"]`` the
    hill pulled in 0.08" (its painted top inside the cut edge)."""
    d = Decor("hill", feature_seed("hill", geometry), tuple(geometry.bounds))
    d.shapes["inner"] = shapely.buffer(geometry, -0.08, join_style="mitre")
    d.shapes["top"] = crest
    return d


def table_decor(table) -> TableDecor:
    """The decoration of ``table`` (its ``areas``, ``roads``, ``hills``, ``hill_crests``),
    worked out once and kept while the table lives."""
    got = _DECOR.get(table)
    if got is None:
        got = TableDecor(
            [decorate(f.kind, f.geometry) for f in table.areas],
            [decorate_road(f.kind, f.geometry) for f in table.roads],
            [
                decorate_hill(h.geometry, c)
                for h, c in zip(table.hills, table.hill_crests, strict=True)
            ],
        )
        _DECOR[table] = got
    return got
