"""The editor's geometry: what a tool does to terrain features and stands, as commands.

Everything here works on the scenario file's own JSON shapes (GeoJSON coordinates in table
inches, stands as their file dicts) and returns new values or :mod:`game.editor.commands`;
nothing changes a document in place. Table inches: origin bottom-left, y up; facings in
degrees counter-clockwise from +x (rules-decisions.md, "Coordinates and stands").

A *ref* names an item: ``("feature", index)`` or ``("stand", index)``. A *vertex address*
is the tuple of indices into a geometry's ``coordinates`` down to one point: ``(i,)`` on a
LineString, ``(ring, i)`` on a Polygon, ``(part, i)`` on a MultiLineString, ``(part, ring,
i)`` on a MultiPolygon.
"""

from __future__ import annotations

import copy
import math
import re
from collections.abc import Callable, Iterable, Sequence

import shapely
from shapely.geometry import Point

from game import GeometryProblem, edge_point, heading_deg, safe_shape
from game.editor.commands import Batch, Command, Insert, Kind, Replace, items, removals

Ref = tuple[Kind, int]
Address = tuple[int, ...]
DECIMALS = 4  # coordinates are kept to 0.0001": float noise from rotations never reaches a file
ROUND_LOT_SIDES = 24
AREA_TYPES = ("Polygon", "MultiPolygon")
LINE_TYPES = ("LineString", "MultiLineString")


def tidy(v: float) -> float | int:
    """A coordinate rounded to 0.0001" (an integral value as an int, as hand-written files
    have it)."""
    r = round(float(v), DECIMALS) + 0.0  # + 0.0 turns -0.0 into 0.0
    return int(r) if r.is_integer() else r


def finite_number(v) -> bool:
    """Whether ``v`` is an int or float (not a bool) and finite (a usable coordinate of a
    file that may hold anything)."""
    return isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v)


def _map_points(coords, fn: Callable[[float, float], tuple[float, float]]):
    if not isinstance(coords, list):
        raise ValueError("its coordinates are not nested lists of numbers")
    if coords and not isinstance(coords[0], list):  # a position: x, y (a height is dropped)
        if len(coords) < 2 or not all(finite_number(v) for v in coords[:2]):
            raise ValueError(f"its point {coords!r:.40} is not two numbers")
        x, y = fn(coords[0], coords[1])
        if not (math.isfinite(x) and math.isfinite(y)):
            raise ValueError("a point would go beyond any number")
        return [tidy(x), tidy(y)]
    return [_map_points(c, fn) for c in coords]


def map_feature(feature: dict, fn: Callable[[float, float], tuple[float, float]]) -> dict:
    """A copy of a terrain feature with every point (x, y) replaced by ``fn(x, y)`` (inches).

    Raises ValueError when its coordinates are not nested lists of finite numbers, or a
    point would not be a finite number after ``fn`` (a broken feature of an invalid file)."""
    out = copy.deepcopy(feature)
    out["geometry"]["coordinates"] = _map_points(feature["geometry"]["coordinates"], fn)
    return out


# ----------------------------------------------------------------------------- transforms


def translation(dx: float, dy: float) -> Callable[[float, float], tuple[float, float]]:
    """Move by (dx, dy) inches."""
    return lambda x, y: (x + dx, y + dy)


def rotation(
    angle_deg: float, cx: float, cy: float
) -> Callable[[float, float], tuple[float, float]]:
    """Turn by ``angle_deg`` (counter-clockwise) about (cx, cy)."""
    a = math.radians(angle_deg)
    c, s = math.cos(a), math.sin(a)
    return lambda x, y: (cx + (x - cx) * c - (y - cy) * s, cy + (x - cx) * s + (y - cy) * c)


def scaling(factor: float, cx: float, cy: float) -> Callable[[float, float], tuple[float, float]]:
    """Scale by ``factor`` about (cx, cy). Raises ValueError for a factor <= 0."""
    if not factor > 0:
        raise ValueError(f"scale factor must be positive, not {factor}")
    return lambda x, y: (cx + (x - cx) * factor, cy + (y - cy) * factor)


def half_turn(width: float, depth: float) -> Callable[[float, float], tuple[float, float]]:
    """Turn 180 degrees about the table's centre: how the seed sheets' "each half alike"
    is met on the shipped maps (a stand's facing turns by 180 too)."""
    return lambda x, y: (width - x, depth - y)


def mirror_across(
    width: float, depth: float, axis: str
) -> Callable[[float, float], tuple[float, float]]:
    """Reflect across the table's centre line: ``axis`` "vertical" (x -> width - x) or
    "horizontal" (y -> depth - y). Raises ValueError for another axis."""
    if axis == "vertical":
        return lambda x, y: (width - x, y)
    if axis == "horizontal":
        return lambda x, y: (x, depth - y)
    raise ValueError(f"mirror axis must be 'vertical' or 'horizontal', not {axis!r}")


def _facing_after(fn, x: float, y: float, facing: float) -> float:
    """A stand's facing (degrees) after a transform, read off where a point 1" ahead goes."""
    a = math.radians(facing)
    x0, y0 = fn(x, y)
    x1, y1 = fn(x + math.cos(a), y + math.sin(a))
    return round(heading_deg(x0, y0, x1, y1) % 360.0, DECIMALS) % 360.0


def map_stand(stand: dict, fn) -> dict:
    """A copy of a stand moved by a transform: its centre mapped, its facing turned with it.
    A scaling moves the centre only (a stand is always 1"x1").

    Raises ValueError when its x, y or facing is not a finite number."""
    if not all(finite_number(stand.get(k)) for k in ("x", "y")) or not finite_number(
        stand.get("facing_deg", 0)
    ):
        raise ValueError("its x, y and facing are not all numbers")
    out = dict(stand)
    x, y = fn(stand["x"], stand["y"])
    out["x"], out["y"] = tidy(x), tidy(y)
    f = _facing_after(fn, stand["x"], stand["y"], stand.get("facing_deg", 0))
    out["facing_deg"] = tidy(f)
    return out


def transform(raw: dict, refs: Iterable[Ref], fn, label: str) -> Command:
    """One command applying a transform to every referenced feature and stand in place.

    Raises ValueError naming an item that cannot be mapped (see :func:`mapped`)."""
    cmds: list[Command] = []
    for kind, i in refs:
        item = items(raw, kind)[i]
        new = mapped(kind, i, item, fn)
        cmds.append(Replace(kind, i, new, label))
    return Batch(tuple(cmds), label)


def mapped(kind: Kind, i: int, item: dict, fn) -> dict:
    """``item`` (feature or stand ``i``) mapped by ``fn`` (:func:`map_feature`,
    :func:`map_stand`).

    Raises ValueError naming the item ("feature 3: its point ... is not two numbers") when
    it cannot be mapped."""
    try:
        return map_feature(item, fn) if kind == "feature" else map_stand(item, fn)
    except (ValueError, KeyError, TypeError) as err:
        raise ValueError(f"{kind} {i + 1}: {str(err).strip(chr(39))}") from None


def bounds_of(raw: dict, refs: Iterable[Ref]) -> tuple[float, float, float, float] | None:
    """The box (x0, y0, x1, y1) in inches around the referenced items (a stand counts as its
    centre +- 0.5"), or None for no refs; items without a usable position are left out."""
    xs: list[float] = []
    ys: list[float] = []
    for kind, i in refs:
        item = items(raw, kind)[i]
        if kind == "feature":
            g = feature_geometry(item)
            if g is None:
                continue  # nothing to frame of a feature that cannot be built
            pts = shapely.get_coordinates(g)
            xs += list(pts[:, 0])
            ys += list(pts[:, 1])
        elif finite_number(item.get("x")) and finite_number(item.get("y")):
            xs += [item["x"] - 0.5, item["x"] + 0.5]
            ys += [item["y"] - 0.5, item["y"] + 0.5]
    if not xs:
        return None
    return min(xs), min(ys), max(xs), max(ys)


def centre_of(raw: dict, refs: Iterable[Ref]) -> tuple[float, float] | None:
    """The centre (inches) of the box around the referenced items, or None."""
    b = bounds_of(raw, refs)
    return None if b is None else ((b[0] + b[2]) / 2, (b[1] + b[3]) / 2)


# ----------------------------------------------------------------------------- stands


def next_stand_id(raw: dict, side: str, taken: Iterable[str] = ()) -> str:
    """The next free stand id of a side: its id followed by the lowest number not in use
    (A1, A2, ...)."""
    used = {s.get("id") for s in raw.get("stands", [])} | set(taken)
    n = 1
    while f"{side}{n}" in used:
        n += 1
    return f"{side}{n}"


def copies(raw: dict, refs: Sequence[Ref], fn, other_side: bool, label: str) -> list[Command]:
    """Commands adding copies of the referenced items mapped by ``fn``. Features go after
    the last feature; stands get fresh ids and, with ``other_side``, belong to the other
    side (a mirrored force), as entering stands when that side has an entry edge.

    A carrier's riders (stands starting aboard it, full games) are copied with it, aboard
    the copy.

    Raises ValueError naming an item that cannot be mapped (see :func:`mapped`)."""
    return copies_of(
        raw,
        [(kind, i, items(raw, kind)[i]) for kind, i in with_riders(raw, refs)],
        fn,
        other_side,
        label,
    )


def with_riders(raw: dict, refs: Sequence[Ref]) -> list[Ref]:
    """``refs`` and, after each carrier among them, the stands starting aboard it that are
    not among them already (rules-decisions "Transport": a rider is where its carrier is and
    is not drawn, so copying a carrier copies what it carries)."""
    stands = items(raw, "stand")
    out = list(dict.fromkeys(refs))
    for kind, i in list(out):
        if kind != "stand" or stands[i].get("id") is None:
            continue
        for k, st in enumerate(stands):
            rider = isinstance(st, dict) and st.get("carried_by") == stands[i]["id"]
            if rider and ("stand", k) not in out:
                out.append(("stand", k))
    return out


def copies_of(
    raw: dict, originals: Sequence[tuple[Kind, int, dict]], fn, other_side: bool, label: str
) -> list[Command]:
    """Commands adding copies of ``originals`` (kind, index it had, item) mapped by ``fn``,
    as :func:`copies` does; the items need not be in ``raw`` any more (a paste of what was
    copied before).

    A copied rider (a stand with ``carried_by``) rides the copy of its carrier when that is
    copied too; copied without it onto the other side, it is set down 1.2" beside where it
    was; else it stays aboard the same carrier.

    Raises ValueError naming an item that cannot be mapped (see :func:`mapped`)."""
    cmds: list[Command] = []
    n_feat = len(items(raw, "feature"))
    n_stand = len(items(raw, "stand"))
    sides = [s["id"] for s in raw.get("sides", [])]
    taken: list[str] = []
    new_ids: dict = {}  # an original stand's id -> its copy's
    riders: list[dict] = []
    for kind, i, item in originals:
        if kind == "feature":
            cmds.append(Insert("feature", n_feat, mapped(kind, i, item, fn), label))
            n_feat += 1
            continue
        new = mapped(kind, i, item, fn)
        if other_side and len(sides) == 2 and item.get("side") in sides:
            new["side"] = sides[1 - sides.index(item["side"])]
        new["id"] = next_stand_id(raw, str(new.get("side", "")), taken)
        new["ghq"] = False
        taken.append(new["id"])
        if isinstance(item.get("id"), str):
            new_ids[item["id"]] = new["id"]
        if new.get("carried_by") is not None:
            riders.append(new)
        cmds.append(Insert("stand", n_stand, new, label))
        n_stand += 1
    for new in riders:  # the commands hold these dicts: remapped before they are done
        carrier = new["carried_by"]
        if carrier in new_ids:
            new["carried_by"] = new_ids[carrier]
        elif other_side:
            del new["carried_by"]
            if finite_number(new.get("y")):
                new["y"] = tidy(new["y"] + 1.2)
    return cmds


def delete(refs: Iterable[Ref]) -> Command:
    """One command deleting the referenced features and stands."""
    refs = list(refs)
    cmds = removals("feature", [i for k, i in refs if k == "feature"])
    cmds += removals("stand", [i for k, i in refs if k == "stand"])
    return Batch(tuple(cmds), "delete")


def entry_point(raw: dict, side_id: str, x: float, y: float) -> tuple[float, float] | None:
    """Where a stand of ``side_id`` entering from its side's edge waits: the point of that
    edge nearest (x, y), kept 0.5" from the corners (docs/formats.md: an entering stand's
    x, y lie on its side's entry edge). None when the side has no entry edge."""
    side = next((s for s in raw.get("sides", []) if s.get("id") == side_id), None)
    edge = side and side.get("entry_edge")
    if not edge:
        return None
    px, py = edge_point(edge, raw["table"]["width"], raw["table"]["depth"], x, y)
    return tidy(px), tidy(py)


def edge_facing(edge: str | None) -> float:
    """The facing (degrees) of a stand coming on from an edge: into the table."""
    return {"left": 0.0, "right": 180.0, "bottom": 90.0, "top": 270.0}.get(edge or "", 0.0)


# ----------------------------------------------------------------------------- shapes


def rectangle(x0: float, y0: float, x1: float, y1: float) -> list[list[list[float]]]:
    """Polygon coordinates of the box between two corners (inches), counter-clockwise."""
    a, b = sorted((x0, x1))
    c, d = sorted((y0, y1))
    ring = [[a, c], [b, c], [b, d], [a, d], [a, c]]
    return [[[tidy(x), tidy(y)] for x, y in ring]]


def round_lot(cx: float, cy: float, diameter: float, sides: int = ROUND_LOT_SIDES) -> list:
    """Polygon coordinates of a round lot of ``diameter`` inches centred on (cx, cy), as a
    regular polygon of ``sides`` vertices. Raises ValueError for a diameter <= 0."""
    if not diameter > 0:
        raise ValueError(f"a round lot needs a diameter > 0, not {diameter}")
    r = diameter / 2
    ring = [
        [
            tidy(cx + r * math.cos(2 * math.pi * k / sides)),
            tidy(cy + r * math.sin(2 * math.pi * k / sides)),
        ]
        for k in range(sides)
    ]
    return [ring + [ring[0]]]


def make_feature(terrain: str, geometry_type: str, coordinates, level: int | None = None) -> dict:
    """A terrain feature dict in the scenario file's shape."""
    props: dict = {"terrain": terrain}
    if level is not None:
        props["level"] = int(level)
    return {
        "type": "Feature",
        "properties": props,
        "geometry": {"type": geometry_type, "coordinates": coordinates},
    }


def polygon_fault(
    points: Sequence[tuple[float, float]],
) -> tuple[str, tuple[float, float] | None] | None:
    """Why a polygon drawn through ``points`` (inches, not closed) would be invalid, in words
    a player reads ("two edges cross at (45.1, 8.5)"), and where (inches) when Shapely names
    a point; None if it is a valid polygon with area."""
    if len(points) < 3:
        return "a polygon needs at least 3 corners", None
    if shapely.MultiPoint(list(points)).convex_hull.area <= 1e-9:
        return "the polygon has no area (its corners are on one line)", None
    poly = shapely.Polygon(points)
    if poly.is_valid:
        return None
    reason = shapely.is_valid_reason(poly)
    m = re.match(r"(.*?)\[([-\d.e]+) ([-\d.e]+)\]$", reason)
    if not m:
        return reason, None
    what, x, y = m.group(1), float(m.group(2)), float(m.group(3))
    words = {"Self-intersection": "two edges cross", "Ring Self-intersection": "two edges touch"}
    return f"{words.get(what, what)} at ({x:.1f}, {y:.1f})", (x, y)


def polygon_problem(points: Sequence[tuple[float, float]]) -> str | None:
    """The words of :func:`polygon_fault`, or None for a valid polygon."""
    fault = polygon_fault(points)
    return None if fault is None else fault[0]


def closed_ring(points: Sequence[tuple[float, float]]) -> list[list[float]]:
    """A GeoJSON ring through ``points`` (inches), closed, counter-clockwise."""
    ring = [[tidy(x), tidy(y)] for x, y in points]
    if shapely.Polygon(ring).exterior.is_ccw is False:
        ring.reverse()
    return ring + [ring[0]]


# ----------------------------------------------------------------------------- vertices


def vertices(feature: dict) -> list[tuple[Address, tuple[float, float]]]:
    """Every vertex of a feature with its address; a ring's closing point is left out. A
    feature whose coordinates are not nested as its type needs, or hold anything but
    finite numbers, has none (it cannot be edited point by point; the check names it)."""
    try:
        return _vertices(feature)
    except (KeyError, TypeError, IndexError, AttributeError):
        return []


def _vertices(feature: dict) -> list[tuple[Address, tuple[float, float]]]:
    geom = feature["geometry"]
    gtype, coords = geom["type"], geom["coordinates"]
    out: list[tuple[Address, tuple[float, float]]] = []

    def line(prefix, pts, ring):
        n = len(pts) - 1 if ring else len(pts)
        for i in range(n):
            x, y = pts[i][0], pts[i][1]
            if not all(finite_number(v) for v in (x, y)):
                raise TypeError("not a point")
            out.append(((*prefix, i), (x, y)))

    if gtype == "LineString":
        line((), coords, False)
    elif gtype == "MultiLineString":
        for p, pts in enumerate(coords):
            line((p,), pts, False)
    elif gtype == "Polygon":
        for r, pts in enumerate(coords):
            line((r,), pts, True)
    elif gtype == "MultiPolygon":
        for p, poly in enumerate(coords):
            for r, pts in enumerate(poly):
                line((p, r), pts, True)
    return out


def _is_ring(gtype: str) -> bool:
    return gtype in AREA_TYPES


def line_of(coords, addr: Address) -> list:
    """The list of points (a line or a ring) that the vertex at ``addr`` belongs to.

    Raises IndexError or TypeError when ``coords`` does not hold that address."""
    seq = coords
    for k in addr[:-1]:
        seq = seq[k]
    return seq


def move_vertex(feature: dict, addr: Address, x: float, y: float) -> dict:
    """A copy of the feature with the vertex at ``addr`` moved to (x, y) inches (a ring's
    first vertex moves its closing point with it)."""
    out = copy.deepcopy(feature)
    pts = line_of(out["geometry"]["coordinates"], addr)
    i = addr[-1]
    pts[i] = [tidy(x), tidy(y)]
    if _is_ring(out["geometry"]["type"]) and i == 0:
        pts[-1] = [tidy(x), tidy(y)]
    return out


def insert_vertex(feature: dict, addr: Address, x: float, y: float) -> dict:
    """A copy of the feature with a vertex at (x, y) inserted after the vertex at ``addr``
    (on the edge that starts there)."""
    out = copy.deepcopy(feature)
    pts = line_of(out["geometry"]["coordinates"], addr)
    pts.insert(addr[-1] + 1, [tidy(x), tidy(y)])
    return out


def delete_vertex(feature: dict, addr: Address) -> dict:
    """A copy of the feature without the vertex at ``addr``.

    Raises ValueError when that would leave a ring with fewer than 3 corners or a line with
    fewer than 2 points."""
    out = copy.deepcopy(feature)
    gtype = out["geometry"]["type"]
    pts = line_of(out["geometry"]["coordinates"], addr)
    i = addr[-1]
    if _is_ring(gtype):
        if len(pts) - 1 <= 3:
            raise ValueError("a polygon keeps at least 3 corners")
        del pts[i]
        if i == 0:
            pts[-1] = list(pts[0])
    else:
        if len(pts) <= 2:
            raise ValueError("a road keeps at least 2 points")
        del pts[i]
    return out


def nearest_vertex(
    feature: dict, x: float, y: float, within: float
) -> tuple[Address, tuple[float, float]] | None:
    """The feature's vertex nearest (x, y) within ``within`` inches, or None."""
    best = None
    best_d = within
    for addr, (vx, vy) in vertices(feature):
        d = math.hypot(vx - x, vy - y)
        if d <= best_d:
            best, best_d = (addr, (vx, vy)), d
    return best


def nearest_edge(
    feature: dict, x: float, y: float, within: float
) -> tuple[Address, tuple[float, float]] | None:
    """The edge of the feature nearest (x, y) within ``within`` inches: the address of its
    first vertex and the nearest point on it, or None."""
    best = None
    best_d = within
    verts = vertices(feature)
    geom = feature["geometry"]
    for addr, _ in verts:
        pts = line_of(geom["coordinates"], addr)
        i = addr[-1]
        if i + 1 >= len(pts):
            continue
        (ax, ay), (bx, by) = pts[i][:2], pts[i + 1][:2]
        dx, dy = bx - ax, by - ay
        l2 = dx * dx + dy * dy
        t = 0.0 if l2 == 0 else max(0.0, min(1.0, ((x - ax) * dx + (y - ay) * dy) / l2))
        px, py = ax + t * dx, ay + t * dy
        d = math.hypot(px - x, py - y)
        if d <= best_d:
            best, best_d = (addr, (px, py)), d
    return best


# ----------------------------------------------------------------------------- picking


def feature_geometry(feature: dict):
    """The feature's Shapely geometry (:func:`game.rules.files.shapes.safe_shape`: well-formed
    coordinates, valid or not, so that a self-intersecting polygon can still be picked and
    mended), or None when it cannot be built safely (an empty hole crashed GEOS)."""
    try:
        return safe_shape(feature["geometry"])
    except (GeometryProblem, KeyError, TypeError):  # a broken feature: it cannot be picked
        return None


def feature_at(raw: dict, x: float, y: float, tolerance: float) -> int | None:
    """The index of the terrain feature under (x, y) inches: a road whose centre line is
    within ``tolerance``, else the area drawn on top there, else the highest hill; or None."""
    feats = items(raw, "feature")
    p = Point(x, y)
    best: tuple[int, int] | None = None  # (priority, index)
    for i, f in enumerate(feats):
        g = feature_geometry(f)
        if g is None or g.is_empty:
            continue
        kind = f["properties"].get("terrain")
        if f["geometry"]["type"] in LINE_TYPES:
            if g.distance(p) <= tolerance:
                prio = 3
            else:
                continue
        elif g.covers(p):
            prio = 1 if kind == "hill" else 2
        else:
            continue
        if best is None or (prio, i) >= best:
            best = (prio, i)
    return None if best is None else best[1]


def refs_in_box(raw: dict, x0: float, y0: float, x1: float, y1: float) -> list[Ref]:
    """The features and stands wholly inside the box between two corners (inches)."""
    box = shapely.box(min(x0, x1), min(y0, y1), max(x0, x1), max(y0, y1))
    out: list[Ref] = []
    for i, f in enumerate(items(raw, "feature")):
        g = feature_geometry(f)
        if g is not None and not g.is_empty and box.covers(g):
            out.append(("feature", i))
    for i, s in enumerate(items(raw, "stand")):
        usable = finite_number(s.get("x")) and finite_number(s.get("y"))
        if usable and box.covers(Point(s["x"], s["y"])):
            out.append(("stand", i))
    return out
