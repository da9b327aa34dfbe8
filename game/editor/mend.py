"""Bringing any JSON object into a shape the editor can show, so that it opens a broken
scenario to mend it instead of crashing on it.

The editor works on the scenario file's own dict (:mod:`game.editor.document`). A file may
hold anything: ``terrain`` a string, ``sides`` a number, a stand that is a list, a title with a
lone surrogate (it cannot even be written as UTF-8) or a NUL (no font renders it). What the
editor walks (the containers: the terrain collection, its features with their properties and
geometry, the sides, the stands, the table and victory objects) is put into the shape it
needs, and text it cannot show is made showable; every such change is a note naming the JSON
path, what was there and what the editor did, listed with the scenario's problems. Values of
the right container but a wrong type (a stand's ``x`` of ``"3"``, a level of ``"two"``) are
kept as they are: the scenario check names them and the screen leaves them out of drawing.

Nothing is written by mending: the file on disk is unchanged until the user saves (and saving
a scenario with problems asks first).
"""

from __future__ import annotations

import json
import re
from typing import Any

GEOMETRY_TYPES = ("Polygon", "MultiPolygon", "LineString", "MultiLineString")
"""The GeoJSON geometry types a terrain feature may have."""

_UNSHOWABLE = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f\ud800-\udfff]")
"""Characters no font shows and (for lone surrogates) no UTF-8 file can hold; tabs and line
breaks are kept."""

_ID_FIELDS = ("id", "side", "unit", "group")  # a stand's names: used as keys, so text


def _brief(value: Any) -> str:
    """A value as a short JSON text for a note (at most 40 characters)."""
    try:
        text = json.dumps(value, ensure_ascii=True)
    except (TypeError, ValueError):
        text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _what(value: Any) -> str:
    """A value for a note: its JSON type and a short text of it ("a list [1, 2]", "null")."""
    return "null" if value is None else f"{_kind(value)} {_brief(value)}"


def _kind(value: Any) -> str:
    """The JSON type of a value, in words."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true/false"
    return {dict: "an object", list: "a list", str: "text", int: "a number", float: "a number"}.get(
        type(value), type(value).__name__
    )


def showable(text: str) -> str:
    """``text`` with every character no font shows and no UTF-8 file holds (control
    characters other than tab and line breaks, lone surrogates) replaced by U+FFFD."""
    return _UNSHOWABLE.sub("\ufffd", text)


def mend_shape(raw: dict) -> list[str]:
    """Put the scenario dict ``raw`` (any JSON object, changed in place) into the shape the
    editor walks, and return one note per change, each ``"$.path: what was there; what the
    editor did"``. An empty list: nothing needed changing.

    The changes: text anywhere with unshowable characters gets U+FFFD for them (see
    :func:`showable`); ``terrain`` becomes a FeatureCollection object, its ``features`` a list
    holding only objects, each feature's ``properties`` an object and its ``geometry`` an object
    of a known type (an empty Polygon when it was not an object or of no known type; the
    coordinates are kept otherwise); ``sides`` and ``stands`` lists of objects (other entries
    dropped); a side's ``id`` and a stand's ``id``, ``side``, ``unit`` and ``group`` text;
    ``table`` and ``victory`` objects; ``title``, ``description`` and ``ruleset`` text.

    Raises TypeError when ``raw`` is not a dict (the file readers refuse a non-object first).
    """
    if not isinstance(raw, dict):
        raise TypeError("a scenario is a JSON object")
    notes: list[str] = []
    _mend_text(raw, "$", notes)

    def want(obj: dict, key: str, kind: type, empty, path: str, did: str) -> Any:
        if key in obj and not isinstance(obj[key], kind):
            notes.append(f"{path}.{key}: {_what(obj[key])}; {did}")
            obj[key] = empty() if callable(empty) else empty
        return obj.get(key)

    for key in ("title", "description", "ruleset"):
        if key in raw and raw[key] is not None and not isinstance(raw[key], str):
            notes.append(f"$.{key}: {_what(raw[key])}, not text; emptied")
            raw[key] = ""
    want(raw, "table", dict, dict, "$", "not an object: the editor starts it empty")
    want(raw, "victory", dict, dict, "$", "not an object: the editor starts it empty")
    terrain = raw.get("terrain")
    if "terrain" in raw and not isinstance(terrain, dict):
        notes.append(
            f"$.terrain: {_what(terrain)}, not a FeatureCollection object; "
            "the editor starts it empty"
        )
        raw["terrain"] = {"type": "FeatureCollection", "features": []}
    elif "terrain" not in raw:
        raw["terrain"] = {"type": "FeatureCollection", "features": []}
        notes.append("$.terrain: missing; the editor starts it empty")
    feats = want(raw["terrain"], "features", list, list, "$.terrain", "not a list: emptied")
    if feats is None:
        raw["terrain"]["features"] = feats = []
    _only_objects(feats, "$.terrain.features", "feature", notes)
    for i, f in enumerate(feats):
        path = f"$.terrain.features[{i}]"
        want(f, "properties", dict, dict, path, "not an object: emptied")
        f.setdefault("properties", {})
        geom = f.get("geometry")
        if not isinstance(geom, dict) or geom.get("type") not in GEOMETRY_TYPES:
            what = geom.get("type") if isinstance(geom, dict) else geom
            notes.append(
                f"{path}.geometry: {_kind(geom)} of type {_brief(what)}, not a Polygon, "
                "MultiPolygon, LineString or MultiLineString; the editor makes it an empty "
                "Polygon (draw it again)"
            )
            f["geometry"] = {"type": "Polygon", "coordinates": []}
        else:
            _mend_geometry(f["geometry"], f"{path}.geometry", notes)
    for key, what in (("sides", "side"), ("stands", "stand")):
        seq = want(raw, key, list, list, "$", "not a list: the editor starts it empty")
        if seq is None:
            raw[key] = seq = []
        _only_objects(seq, f"$.{key}", what, notes)
    for i, side in enumerate(raw["sides"]):
        _text_field(side, "id", f"$.sides[{i}]", notes)
    for i, stand in enumerate(raw["stands"]):
        for key in _ID_FIELDS:
            _text_field(stand, key, f"$.stands[{i}]", notes)
    return notes


def _mend_geometry(geom: dict, path: str, notes: list[str]) -> None:
    """Mend what can be mended of a geometry's coordinates (``geom``, a GeoJSON geometry
    object of one of :data:`GEOMETRY_TYPES`, changed in place), noting each change: a
    position's third and further values (a height) are dropped; an empty hole of a polygon,
    an empty polygon (``[]`` or ``[[]]``) of a MultiPolygon and an empty line of a
    MultiLineString are left out when something else remains (GEOS segfaults on an empty
    hole). What is still wrong after that is for
    :func:`game.rules.files.shapes.coordinates_problem` (run by the scenario check) to name,
    and the editor leaves the feature out of its table."""
    gtype, coords = geom["type"], geom.get("coordinates")
    at = f"{path}.coordinates"
    if not isinstance(coords, list):
        return
    if gtype == "MultiLineString":
        _drop_empty(coords, ([],), at, "line", notes)
    if gtype == "MultiPolygon":
        _drop_empty(coords, ([], [[]]), at, "polygon", notes)
    polygons = [(at, coords)] if gtype == "Polygon" else []
    if gtype == "MultiPolygon":
        polygons = [(f"{at}[{k}]", p) for k, p in enumerate(coords)]
    for where, rings in polygons:
        if isinstance(rings, list) and len(rings) > 1:
            holes = rings[1:]
            _drop_empty(holes, ([],), where, "hole", notes, keep_one=False)
            rings[1:] = holes
    if gtype == "LineString":
        lines = [(at, coords)]
    elif gtype == "MultiPolygon":
        lines = [
            (f"{where}[{i}]", r)
            for where, rings in polygons
            if isinstance(rings, list)
            for i, r in enumerate(rings)
        ]
    else:
        lines = [(f"{at}[{i}]", r) for i, r in enumerate(coords)]
    cut: list[str] = []
    for where, line in lines:
        for j, pos in enumerate(line if isinstance(line, list) else ()):
            if isinstance(pos, list) and len(pos) > 2 and all(_number(v) for v in pos):
                cut.append(f"{where}[{j}]: {_brief(pos)}")
                del pos[2:]
    if cut:
        more = f" and {len(cut) - 1} more position(s)" if len(cut) > 1 else ""
        notes.append(
            f"{cut[0]}{more} of 3 or more numbers; the height and anything after it dropped "
            "(a scenario is 2-D)"
        )


def _drop_empty(
    parts: list, empty: tuple, at: str, what: str, notes: list[str], keep_one: bool = True
) -> None:
    """Leave out of ``parts`` (in place) the entries equal to one of ``empty``, noting how
    many under ``at``; with ``keep_one``, only when any other entry remains (a geometry of
    no part is for the scenario check to name)."""
    kept = [p for p in parts if p not in empty]
    if (kept or not keep_one) and len(kept) < len(parts):
        notes.append(f"{at}: {len(parts) - len(kept)} empty {what}(s); left out")
        parts[:] = kept


def _number(v: Any) -> bool:
    """A JSON number (not true/false)."""
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def _text_field(obj: dict, key: str, path: str, notes: list[str]) -> None:
    """Make ``obj[key]`` text when it is there and is not (a name used as a key)."""
    v = obj.get(key)
    if v is not None and not isinstance(v, str):
        obj[key] = json.dumps(v, ensure_ascii=False) if not isinstance(v, (int, float)) else str(v)
        notes.append(f"{path}.{key}: {_what(v)}, not text; made the text {obj[key]!r}")


def _only_objects(seq: list, path: str, what: str, notes: list[str]) -> None:
    """Drop the entries of ``seq`` that are not objects, noting each by its index in the
    file ("stands[0]", without the "$." of a path to an item still there: the index names
    no item left, so the note names and selects none)."""
    keep = []
    for i, item in enumerate(seq):
        if isinstance(item, dict):
            keep.append(item)
        else:
            where = path.removeprefix("$.")
            notes.append(
                f"{where}[{i}]: {_what(item)}, not a {what} object; left out (nothing to select)"
            )
    seq[:] = keep


def _mend_text(value: Any, path: str, notes: list[str]) -> Any:
    """Replace unshowable characters in every string (keys too) under ``value``, in place."""
    if isinstance(value, dict):
        for k in list(value):
            v = value[k]
            nk = showable(k) if isinstance(k, str) else k
            if nk != k:
                notes.append(f"{path}: the key {_brief(k)} has characters no font shows; replaced")
                del value[k]
                value[nk] = v
            if isinstance(v, str):
                shown = showable(v)
                if shown != v:
                    notes.append(
                        f"{path}.{nk}: text with characters no font shows or file holds "
                        "(a control character or a lone surrogate); each is now \ufffd"
                    )
                    value[nk] = shown
            else:
                _mend_text(v, f"{path}.{nk}", notes)
    elif isinstance(value, list):
        for i, v in enumerate(value):
            if isinstance(v, str):
                shown = showable(v)
                if shown != v:
                    notes.append(f"{path}[{i}]: text with characters no font shows; replaced")
                    value[i] = shown
            else:
                _mend_text(v, f"{path}[{i}]", notes)
    return value
