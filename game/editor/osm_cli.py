"""``hulldown import-osm``: the command line of the OpenStreetMap import
(:mod:`game.editor.osm`)."""

from __future__ import annotations

import argparse
import sys


def add_command(sub, number) -> None:
    """Add ``import-osm`` to the ``hulldown`` command's subparsers; ``number(text, lo, hi)``
    is the CLI's bounded-number reader (one line from argparse for a value out of bounds)."""
    _number = number
    io = sub.add_parser(
        "import-osm",
        help="a box of OpenStreetMap ground as a new scenario's table",
        description="Turn a box of an OpenStreetMap extract (.osm.pbf, .osm, or GeoJSON of OSM "
        "features in longitude/latitude) into a scenario's terrain: woods, buildings, roads, "
        "water, marsh and rough ground by the tag table of docs/formats.md, hills from a DEM. "
        "Map data (c) OpenStreetMap contributors (ODbL).",
    )
    io.add_argument("file", help="the extract: .osm.pbf, .osm or GeoJSON (lon/lat)")
    io.add_argument(
        "--bbox", metavar="W,S,E,N", help="the box in degrees (default: all of the file)"
    )
    io.add_argument("--ruleset", default="modern", help="modern, wwii, modern-full or wwii-47")
    io.add_argument(
        "--scale",
        type=lambda t: _number(t, 5.0, 1000.0),
        default=100.0,
        help="metres of ground to the inch, 5 to 1000 (default 100, the rules' scale)",
    )
    io.add_argument("--dem", help="a DEM GeoTIFF: hills from its relief")
    io.add_argument(
        "--level-height",
        type=lambda t: _number(t, 1.0, 50.0),
        default=10.0,
        help="metres of relief to a hill level, 1 to 50 (default 10)",
    )
    io.add_argument("--title", help="the scenario's title (default: the place's name)")
    io.add_argument("--out", required=True, help="the scenario file to write")
    io.set_defaults(func=import_osm_command)


def import_osm_command(args: argparse.Namespace) -> int:
    """``hulldown import-osm``: an OpenStreetMap extract's box as a new scenario's table
    (:func:`game.editor.osm.import_osm`); exit 1 with one line for bad input."""
    # lazy: --help loads this module for its command; the importer loads when it runs
    from game.editor.osm import (
        OSMImportError,
        import_osm,
        parse_bbox,
        read_extract,
        write_scenario_file,
    )

    try:
        ext = read_extract(args.file)
        bbox = parse_bbox(args.bbox) if args.bbox else ext.bounds
        result = import_osm(
            args.file,
            bbox,
            ruleset=args.ruleset,
            scale_m=args.scale,
            dem=args.dem,
            level_height_m=args.level_height,
            extract=ext,
            title=args.title,
        )
        write_scenario_file(args.out, result.scenario)
    except OSMImportError as err:
        print(f"hulldown import-osm: {err}", file=sys.stderr)
        return 1
    w, d = result.table_in
    kw, kd = result.table_km
    kinds = ", ".join(f"{n} {k}" for k, n in sorted(result.counts.items()))
    print(
        f'wrote {args.out}: {result.place}, a {w:g}"x{d:g}" table ({kw:.2f} x {kd:.2f} km at '
        f"{args.scale:g} m to the inch): {kinds}"
    )
    print(f"it has no forces yet: add them with hulldown edit {args.out}")
    return 0
