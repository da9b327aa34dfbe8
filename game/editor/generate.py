"""Quick-battle tables from the seed sheets' recipe ("Create your own Tank Scenario", 000 and
001): a fresh, seeded table with 10-30% woods in lots 4-6" across, two small towns
of about 7 sq in in all, a good road from one narrow edge to the other and a hill in each half,
the two halves alike (the right half is the left turned half a turn about the table's centre),
and two forces of the tank types asked for, entering from the narrow edges, balanced by the
sheets' points (:mod:`game.editor.points`).

Pure functions of their arguments and the seed (their own ``random.Random``); no pygame. Units:
inches. ``hulldown generate`` writes one.
"""

from __future__ import annotations

import math
import random

import shapely
from shapely.geometry import LineString, Polygon, box

from game import RulesData
from game.editor.points import forces, ratio

DENSITY = {"light": 0.14, "medium": 0.20, "heavy": 0.27}
"""The share of the table under woods that each density aims at (the sheets: 10-30%). The
lots keep an inch apart and clear of the road, town, hill and entry edges, so a heavy table
gets as much as fits (about 19-23% on the sheets' tables)."""
LOT_RADIUS_IN = (2.0, 3.0)
"""A wood lot's radius (inches): 4-6" across, as the sheets advise."""
TOWN_IN = (2.0, 1.75)
"""Each half's town (width, depth, inches): 3.5 sq in, 7 in all (the sheets: about 7)."""
EDGE_CLEAR_IN = 3.0
"""Ground kept open along the narrow edges where the forces enter (inches)."""
GAP_IN = 1.0
"""Room kept between features and around the road (inches): a stand passes between lots."""
WOBBLE_POINTS = 8
MIN_WOODS = 0.105
"""A layout whose woods come to less than this share of the table (the sheets' 10%, with a
margin) is laid out again from the same random stream."""


NATURAL_POINTS = 28
"""Corners of a natural outline (a wood lot or hill): enough that no regular polygon shows."""
NATURAL_SPAN = (0.75, 1.0)
"""A natural outline's radius runs between these shares of its circle's (it stays inside
the circle, which the placement tests against)."""


def _lot(rng: random.Random, cx: float, cy: float, r: float, natural: bool = True) -> Polygon:
    """A wood lot or hill within the circle of radius ``r`` inches about (cx, cy): a natural
    outline (:func:`natural_outline`), or with ``natural`` False the older wobbly octagon (whose
    random stream tools/maps/make_breakthrough.py keeps, so that its shipped map's lots stay
    where they were; it redraws their outlines natural)."""
    if natural:
        return natural_outline(rng, cx, cy, r)
    pts = []
    for k in range(WOBBLE_POINTS):
        a = 2 * math.pi * k / WOBBLE_POINTS
        w = rng.uniform(0.85, 1.0)
        pts.append((round(cx + r * w * math.cos(a), 3), round(cy + r * w * math.sin(a), 3)))
    return Polygon(pts)


def natural_outline(rng: random.Random, cx: float, cy: float, r: float) -> Polygon:
    """An irregular, rounded outline as a painted table's woods and hills have: the radius a
    sum of two- to five-lobed waves of random phase and strength, scaled into
    :data:`NATURAL_SPAN` of ``r``, at :data:`NATURAL_POINTS` corners a little off even
    spacing. Star-shaped about the centre, so always a valid polygon."""
    waves = [(k, rng.uniform(0, 2 * math.pi), rng.uniform(0.3, 1.0) / k) for k in (2, 3, 4, 5)]
    angles = [
        2 * math.pi * (k + rng.uniform(-0.3, 0.3)) / NATURAL_POINTS for k in range(NATURAL_POINTS)
    ]
    raw = [1 + sum(a * math.cos(k * t + ph) for k, ph, a in waves) for t in angles]
    lo, hi = min(raw), max(raw)
    a, b = NATURAL_SPAN
    pts = []
    for t, v in zip(angles, raw, strict=True):
        rr = r * (a + (b - a) * (v - lo) / (hi - lo or 1.0))
        pts.append((round(cx + rr * math.cos(t), 3), round(cy + rr * math.sin(t), 3)))
    return Polygon(pts)


def _turned(g, width: float, depth: float):
    return shapely.transform(g, lambda c: [[width, depth]] - c)


def _ring(g: Polygon) -> list[list[float]]:
    g = shapely.geometry.polygon.orient(g, 1.0)
    return [[round(x, 3), round(y, 3)] for x, y in g.exterior.coords]


def _feature(terrain: str, geom, **props) -> dict:
    if isinstance(geom, LineString):
        g = {
            "type": "LineString",
            "coordinates": [[round(x, 3), round(y, 3)] for x, y in geom.coords],
        }
    else:
        g = {"type": "Polygon", "coordinates": [_ring(geom)]}
    return {"type": "Feature", "properties": {"terrain": terrain, **props}, "geometry": g}


def generate_terrain(
    width: float, depth: float, seed: int, density: str = "medium", natural: bool = True
) -> list[dict]:
    """The terrain features (GeoJSON Feature dicts) of a fresh table ``width`` x ``depth``
    inches (the narrow edges left and right), from ``seed``: the road first (edge to centre,
    then turned), the hill, the town beside the road, then wood lots until the woods reach
    the share :data:`DENSITY` gives ``density``, each kept :data:`GAP_IN` from the others and
    the road and :data:`EDGE_CLEAR_IN` from the entry edge. Woods and hills have natural
    outlines (:func:`natural_outline`) unless ``natural`` is False (the older wobbly octagons, kept for
    the layout of tools/maps/make_breakthrough.py's shipped map, which redraws their outlines
    natural). Raises ValueError for an unknown
    density or a table too small for the recipe (under 24" x 16")."""
    if density not in DENSITY:
        raise ValueError(f"density must be one of {', '.join(DENSITY)}, not {density!r}")
    if width < 24 or depth < 16:
        raise ValueError(f'the recipe needs a table of at least 24"x16", not {width:g}"x{depth:g}"')
    rng = random.Random(seed)
    for _ in range(20):
        features, woods = _layout(rng, width, depth, density, natural)
        if woods >= MIN_WOODS * width * depth / 2:
            break
    return features


class _Halves:
    """The features of a layout as they are placed, each with its twin turned half a turn
    about the table's centre (the halves alike): what is placed so far, and the ground each
    piece and a :data:`GAP_IN` margin round it take."""

    def __init__(self, width: float, depth: float, road: LineString):
        self.width, self.depth = width, depth
        self.inner = box(0, 0, width / 2, depth).buffer(-0.5)
        self.taken = [road.buffer(GAP_IN)]
        self.features = [_feature("good_road", road)]

    def free(self, g) -> bool:
        """Whether ``g`` (a shape in the left half, inches) fits: inside the half 0.5" in and
        :data:`EDGE_CLEAR_IN` off the entry edge, clear of its own twin by the gap, and
        neither it nor its twin touching ground already taken."""
        inside = self.inner.contains(g) and g.bounds[0] >= EDGE_CLEAR_IN
        twin = _turned(g, self.width, self.depth)  # its copy in the other half
        return (
            inside
            and not g.buffer(GAP_IN).intersects(twin)
            and not any(g.intersects(t) or twin.intersects(t) for t in self.taken)
        )

    def place(self, kind: str, make, tries: int = 400, **props):
        """Place a ``kind`` feature and its twin: the first of up to ``tries`` shapes from
        ``make()`` that is :meth:`free`, or None when none is (``props`` go on both)."""
        for _ in range(tries):
            g = make()
            if self.free(g):
                for gg in (g, _turned(g, self.width, self.depth)):
                    self.taken.append(gg.buffer(GAP_IN))
                    self.features.append(_feature(kind, gg, **props))
                return g
        return None


def _road(rng: random.Random, width: float, depth: float) -> tuple[LineString, LineString]:
    """The road: from a point of the left edge (30-70% of its depth) by a bend in the left
    half to the table's centre, and on, turned half a turn, to the right edge; the left
    half's part and the whole (inches)."""
    half_w = width / 2
    y0 = rng.uniform(depth * 0.3, depth * 0.7)
    mid = (half_w * rng.uniform(0.35, 0.65), rng.uniform(depth * 0.35, depth * 0.65))
    road_half = LineString([(0, y0), mid, (half_w, depth / 2)])
    road = LineString(
        list(road_half.coords) + list(_turned(road_half, width, depth).coords)[::-1][1:]
    )
    return road_half, road


def _woods(rng: random.Random, halves: _Halves, density: str, natural: bool) -> float:
    """Woods lots (and their twins) placed until the woods of one half reach ``density``'s
    share of it (:data:`DENSITY`), within 2,000 tries; their area in one half (sq in). A lot
    lies within its circle: a centre is tried against the circles (and the road, hill and
    town) first, and only one that may fit is drawn and tested exactly."""
    width, depth = halves.width, halves.depth
    half_w = width / 2
    target = DENSITY[density] * width * depth / 2  # woods in one half, sq in
    woods = 0.0
    circles: list[tuple[float, float, float]] = []
    for _ in range(2000):
        if woods >= target:
            break
        r = rng.uniform(*LOT_RADIUS_IN)
        cx, cy = (
            rng.uniform(EDGE_CLEAR_IN + r, half_w - 0.5 - r),
            rng.uniform(0.5 + r, depth - 0.5 - r),
        )
        tx, ty = width - cx, depth - cy
        if math.hypot(tx - cx, ty - cy) < 2 * r + GAP_IN:
            continue
        if any(
            min(math.hypot(cx - x, cy - y), math.hypot(tx - x, ty - y)) < r + q + GAP_IN
            for x, y, q in circles
        ):
            continue
        g = halves.place("woods", lambda r=r, cx=cx, cy=cy: _lot(rng, cx, cy, r, natural), tries=1)
        if g is not None:
            woods += g.area
            circles += [(cx, cy, r), (tx, ty, r)]
    return woods


def _layout(
    rng: random.Random, width: float, depth: float, density: str, natural: bool = True
) -> tuple[list[dict], float]:
    """One layout of :func:`generate_terrain` and the woods' area in one half (sq in): the
    road, a hill, a town by the road, then the woods, each with its twin."""
    half_w = width / 2
    road_half, road = _road(rng, width, depth)
    halves = _Halves(width, depth, road)

    def hill():
        r = rng.uniform(3.0, 4.5) * min(1.0, depth / 36 + 0.25)
        return _lot(rng, rng.uniform(0, half_w), rng.uniform(0, depth), r, natural)

    halves.place("hill", hill, level=1)

    def town():
        t = road_half.interpolate(rng.uniform(0.3, 0.8), normalized=True)
        side = rng.choice((-1, 1)) * rng.uniform(GAP_IN + 1.2, GAP_IN + 2.5)
        w, d = TOWN_IN
        return box(t.x - w / 2, t.y + side - d / 2, t.x + w / 2, t.y + side + d / 2)

    halves.place("light_buildings", town)
    woods = _woods(rng, halves, density, natural)
    return halves.features, woods


def _check_quick_battle(
    data: RulesData,
    ruleset: str,
    unit_a: str,
    unit_b: str,
    stands_a: int,
    cohesion: tuple[int, int],
) -> None:
    """Refuse a quick battle the tables cannot make: raises ValueError for a ruleset not
    known, a unit not in its tables, ``stands_a`` not 1 to 30, or a cohesion level not 1 to
    20."""
    units = data.units_for(ruleset) if ruleset in data.rulesets else None
    if units is None:
        raise ValueError(f"unknown ruleset {ruleset!r} (known: {', '.join(data.rulesets)})")
    for u in (unit_a, unit_b):
        if u not in units:
            raise ValueError(f"{u!r} is not a unit of the {ruleset} tables")
    if not 1 <= stands_a <= 30:
        raise ValueError(f"stands_a must be 1 to 30, not {stands_a}")
    if not all(1 <= c <= 20 for c in cohesion):
        raise ValueError(f"cohesion levels are 1 to 20, not {cohesion}")


def _entry_line(side: str, unit: str, n: int, x: float, depth: float) -> list[dict]:
    """``n`` stands of ``unit`` for ``side``, waiting to enter at ``x`` (inches: 0, the left
    edge, facing 0 degrees; else the right, facing 180): a column centred on the table's
    ``depth``, at most 1.5" apart, in groups of four, the first its GHQ."""
    step = min(1.5, (depth - 1) / max(n, 1))
    first = depth / 2 - step * (n - 1) / 2
    return [
        {
            "id": f"{side}{k + 1}",
            "side": side,
            "unit": unit,
            "x": x,
            "y": round(first + step * k, 3),
            "facing_deg": 0 if x == 0 else 180,
            "group": str(1 + k // 4),
            "ghq": k == 0,
            "on_table": False,
        }
        for k in range(n)
    ]


def _balanced_stands(
    raw: dict, data: RulesData, unit_a: str, unit_b: str, stands_a: int
) -> list[dict]:
    """The stands of both sides for ``raw``: ``stands_a`` of ``unit_a`` on the left and as
    many of ``unit_b`` on the right (1 to 3 x ``stands_a``, fewer than the table's depth in
    inches) as bring the scenario sheets' points nearest even (the first of equal ratios)."""
    width, depth = raw["table"]["width"], raw["table"]["depth"]
    best = None
    for n_b in range(1, min(3 * stands_a, int(depth - 1)) + 1):
        raw["stands"] = _entry_line("A", unit_a, stands_a, 0.0, depth) + _entry_line(
            "B", unit_b, n_b, width, depth
        )
        fs = forces(raw, data)
        r = ratio(fs[0].value, fs[1].value)
        if best is None or r < best[0] - 1e-12:
            best = (r, n_b)
    return _entry_line("A", unit_a, stands_a, 0.0, depth) + _entry_line(
        "B", unit_b, best[1], width, depth
    )


def generate_scenario(
    data: RulesData,
    ruleset: str,
    unit_a: str,
    unit_b: str,
    seed: int,
    stands_a: int = 8,
    cohesion: tuple[int, int] = (15, 15),
    density: str = "medium",
    table: tuple[float, float] | None = None,
) -> dict:
    """A quick-battle scenario dict (``hulldown-scenario/1``): :func:`generate_terrain`'s
    table (default 60"x36" Modern, 48"x24" WWII: the sheets' sizes), ``stands_a`` stands of
    ``unit_a`` entering from the left edge and as many of ``unit_b`` from the right as bring
    the sheets' points nearest even (1 to 3 x ``stands_a``), one of each force its GHQ, 12
    turns, sighting 30" (Modern) or 20" (WWII). Raises ValueError for a unit not in the
    ruleset's tables, a ruleset not known, or out-of-range numbers."""
    _check_quick_battle(data, ruleset, unit_a, unit_b, stands_a, cohesion)
    wwii = ruleset.startswith("wwii")
    width, depth = table or ((48.0, 24.0) if wwii else (60.0, 36.0))
    raw = {
        "format": "hulldown-scenario/1",
        "title": f"Quick battle: {unit_a} against {unit_b}",
        "description": (
            f"A generated table (seed {seed}, {density} woods), the halves alike. "
            f"{unit_a} enter from the left, {unit_b} from the right, balanced by the "
            "scenario sheets' points."
        ),
        "ruleset": ruleset,
        "table": {"width": width, "depth": depth},
        "max_sighting_in": 20 if wwii else 30,
        "turns": 12,
        "terrain": {
            "type": "FeatureCollection",
            "features": generate_terrain(width, depth, seed, density),
        },
        "sides": [
            {
                "id": "A",
                "name": unit_a,
                "cohesion": cohesion[0],
                "entry_edge": "left",
                "generation": None if wwii else 3,
                "command_value": 0,
            },
            {
                "id": "B",
                "name": unit_b,
                "cohesion": cohesion[1],
                "entry_edge": "right",
                "generation": None if wwii else 3,
                "command_value": 0,
            },
        ],
        "stands": [],
    }
    raw["stands"] = _balanced_stands(raw, data, unit_a, unit_b, stands_a)
    return raw
