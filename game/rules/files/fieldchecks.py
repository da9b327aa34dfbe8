"""The checks a battle log's fields are held to: leaves (text, whole numbers, a side or a
stand the start line names, one of some values) and their compositions (lists, objects,
maps), with the shapes the lines share (rolls, modifiers, markers, attacks, deviations).
Each check returns None for a right value, else ``"PATH: must be ..., not VALUE"``.

The lines themselves, each a record of its fields and their checks, are in
:mod:`game.rules.events`; :mod:`game.rules.files.log` and :mod:`game.rules.files.logfields`
hold a line to them.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from game.rules.actions import MAX_COORD_IN
from game.rules.files.jsonfile import is_json_int, is_json_number

STOPPED_BY = {None, "opportunity_fire", "cohesion", "overlap", "mp", "enemy"}
"""Why a ``move`` line's stand stopped (event-log.md)."""
CRT_CELLS = {"-", "S", "(S)", "D", "E", "-S-"}
"""The cells of the combat results tables, as a log line's ``crt`` writes them."""


@dataclass(frozen=True)
class Known:
    """What the start line names: the side ids and the stand ids."""

    sides: frozenset[str]
    stands: frozenset[str]
    turns: int = 0
    """The battle's last turn (a plot lands in a later turn up to it; 0: not checked)."""


Check = Callable[[object, Known], str | None]
"""A field's check: None when the value is right, else ``"PATH: must be ..."`` where PATH
is the part of the field's path below it ("" for the field itself)."""


def _shown(value) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:36] + "...]"


def _leaf(test: Callable[[object, Known], bool], what: str) -> Check:
    def check(value, known: Known) -> str | None:
        return None if test(value, known) else f": must be {what}, not {_shown(value)}"

    return check


_UNREADABLE = re.compile(r"[\x00\ud800-\udfff]")
_STR = _leaf(lambda v, k: isinstance(v, str), "text")


def TEXT(value, known: Known) -> str | None:  # noqa: N802 - a check, named as the others
    """Text, without a NUL or a lone surrogate: no writer of a log puts them there, and the
    font cannot render them (the log panel raised on them)."""
    bad = _STR(value, known)
    if bad is None and (m := _UNREADABLE.search(value)):
        return f": must be text without a NUL or a lone surrogate, not U+{ord(m.group()):04X}"
    return bad


INT = _leaf(lambda v, k: is_json_int(v), "a whole number")
NUMBER = _leaf(lambda v, k: is_json_number(v), "a number")
BOOL = _leaf(lambda v, k: isinstance(v, bool), "true or false")
ANY: Check = lambda v, k: None  # noqa: E731 - read by no sentence or state
SIDE = _leaf(lambda v, k: isinstance(v, str) and v in k.sides, "a side of the start line")
SIDE_OR_NULL = _leaf(
    lambda v, k: v is None or (isinstance(v, str) and v in k.sides),
    "a side of the start line or null",
)
STAND = _leaf(lambda v, k: isinstance(v, str) and v in k.stands, "a stand of the start line")


def one_of(*values: object) -> Check:
    """One of ``values`` (compared as JSON: true is not 1)."""
    words = ", ".join(repr(v) for v in values)
    return _leaf(lambda v, k: isinstance(v, str | type(None)) and v in values, f"one of {words}")


def list_of(item: Check, non_empty: bool = False, most: int | None = None) -> Check:
    """A JSON array whose every item passes ``item`` (and, with ``most``, of at most that
    many items)."""

    def check(value, known: Known) -> str | None:
        if not isinstance(value, list) or (non_empty and not value):
            return f": must be a {'non-empty ' if non_empty else ''}list, not {_shown(value)}"
        if most is not None and len(value) > most:
            return f": must have at most {most:,} items, not {len(value):,}"
        for i, v in enumerate(value):
            bad = item(v, known)
            if bad is not None:
                return f"[{i}]{bad}"
        return None

    return check


def obj(fields: dict[str, Check], optional: dict[str, Check] | None = None) -> Check:
    """A JSON object with each of ``fields`` (and each of ``optional`` it has) passing its
    check; other keys are let be (the format lets fields be added)."""

    def check(value, known: Known) -> str | None:
        if not isinstance(value, dict):
            return f": must be an object, not {_shown(value)}"
        for key, chk in fields.items():
            if key not in value:
                return f".{key}: is missing"
            bad = chk(value[key], known)
            if bad is not None:
                return f".{key}{bad}"
        for key, chk in (optional or {}).items():
            if key in value:
                bad = chk(value[key], known)
                if bad is not None:
                    return f".{key}{bad}"
        return None

    return check


def mapping(key: Check, item: Check) -> Check:
    """A JSON object whose every key passes ``key`` and every value ``item``."""

    def check(value, known: Known) -> str | None:
        if not isinstance(value, dict):
            return f": must be an object, not {_shown(value)}"
        for k, v in value.items():
            bad = key(k, known)
            if bad is not None:
                return f" key {k!r}{bad}"
            bad = item(v, known)
            if bad is not None:
                return f".{k}{bad}"
        return None

    return check


INTS = list_of(INT)
MODS = list_of(obj({"why": TEXT, "value": INT}))
MARKERS = obj({"S": BOOL, "D": BOOL, "eliminated": BOOL})


def _numbers(v, n: int) -> bool:
    """``v`` is a list of ``n`` JSON numbers, each within MAX_COORD_IN of 0: a log's
    position, drawn by the replay (a 1e308 overflowed the drawing of a full game's stand)."""
    return (
        isinstance(v, list)
        and len(v) == n
        and all(is_json_number(x) and abs(x) <= MAX_COORD_IN for x in v)
    )


POINT = _leaf(lambda v, k: _numbers(v, 2), "[x, y] in inches")
ROLL = {"roll": INT, "mods": MODS, "total": INT, "level": INT, "passed": BOOL}
POS = _leaf(lambda v, k: _numbers(v, 3), "a position [x, y, facing_deg]")
ATTACK = obj(
    {
        "attacker": STAND,
        "target": STAND,
        "differential": INT,
        "combat": obj({"dice": INTS, "mods": MODS, "total": INT}),
        "crt": one_of(*sorted(CRT_CELLS)),
        "result": one_of("none", "S", "D", "E"),
        "target_markers_after": MARKERS,
    }
)
"""An attack of an overrun or a close assault (full games)."""


def or_null(check: Check) -> Check:
    """``check``, or null."""

    def either(value, known: Known) -> str | None:
        return None if value is None else check(value, known)

    return either


LOSSES = mapping(SIDE, INT)
_DEVIATION_ROLL = obj(
    ROLL,
    {
        "direction_die": or_null(INT),
        "distance_die": or_null(INT),
        "distance_in": NUMBER,
        "dx": NUMBER,
        "dy": NUMBER,
    },
)
_DEVIATION_DICE = obj({"direction_die": INT, "distance_die": INT, "distance_in": NUMBER})


def _deviation(value, known: Known) -> str | None:
    """A deviation roll, or null; once its dice are there (it failed), the distance its
    sentence writes is there too (a missing ``distance_in`` raised KeyError)."""
    if value is None:
        return None
    bad = _DEVIATION_ROLL(value, known)
    if bad is None and (value.get("direction_die"), value.get("distance_die")) != (None, None):
        bad = _DEVIATION_DICE(value, known)
    return bad


DEVIATION: Check = _deviation
"""A deviation roll (artillery and air strikes): its roll and, when it failed, its dice."""
_AA_FIRE = obj(
    {"stand": STAND, "cohesion": obj(ROLL)},
    {
        "leg": one_of("in", "out"),
        "differential": INT,
        "crt": or_null(one_of(*sorted(CRT_CELLS))),
        "result": one_of("none", "S", "D", "E"),
        "arrival_mod": INT,
    },
)
_AA_HIT = obj(
    {
        "differential": INT,
        "crt": one_of(*sorted(CRT_CELLS)),
        "result": one_of("none", "S", "D", "E"),
    }
)


def _aa_fire(value, known: Known) -> str | None:
    """One AA stand's fire; once it has a CRT cell, its sentence writes the differential and
    the result too (a missing ``differential`` raised KeyError)."""
    bad = _AA_FIRE(value, known)
    if bad is None and value.get("crt"):
        bad = _AA_HIT(value, known)
    return bad


AA_FIRE: Check = _aa_fire
"""One AA stand's fire at an aircraft (002), or its arrival modifier (004)."""
SUPPORT_ATTACK = {
    "firepower": INT,
    "defense": INT,
    "differential": INT,
    "combat": or_null(obj({"dice": INTS, "mods": MODS, "total": INT})),
    "crt": one_of(*sorted(CRT_CELLS)),
    "result": one_of("none", "S", "D", "E"),
    "target_markers_after": MARKERS,
}
"""An impact marker's or an air strike's attack (no dice, ``combat`` null, below the CRT)."""

STEP = _leaf(
    lambda v, k: isinstance(v, list) and len(v) == 2 and all(is_json_int(x) for x in v),
    "a [lowest total, orders] pair of whole numbers",
)
"""A step of the command efficiency table in an ``orders`` line."""
SKIP = _leaf(lambda v, k: is_json_int(v) and v in (1, 2), "1 or 2")
"""Which of the two automatic passes of a skipped phase a ``pass`` line is."""
