"""The types of every field a battle log's replay reads (``hulldown replay LOG.jsonl``): the
replay's own reading of the lines (:mod:`game.rules.files.logreplay`) and the log panel's sentences
(``game.ui.logtext.describe``), checked before either reads a line, as the save loader checks
a save's fields before its replay.

:func:`check_log_line` (``game.rules.files.log``) holds a line to the log format; this holds it to
what the replay assumes besides: sides and stands that the start line names, whole numbers
where a sentence writes ``{:+d}``, text where it calls a string method, true/false where it
tests. Before this check, 67 hostile logs raised from the panel's sentences
(``initiative.rolls`` a list, ``side`` a list, ``differential`` 2.5, an unknown ``outcome``,
an int ``why``).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from game.rules.actions import MAX_COORD_IN, MAX_PATH_POINTS
from game.rules.files.jsonfile import is_json_int, is_json_number
from game.rules.files.log import CRT_CELLS, STOPPED_BY


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
    font cannot render them (#42: the log panel raised on them)."""
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
    position, drawn by the replay (a 1e308 overflowed the drawing of a full game's stand,
    issue #42)."""
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
    sentence writes is there too (#42: a missing ``distance_in`` raised KeyError)."""
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
"""A step of the command efficiency table in an ``orders`` line (#43)."""
SKIP = _leaf(lambda v, k: is_json_int(v) and v in (1, 2), "1 or 2")
"""Which of the two automatic passes of a skipped phase a ``pass`` line is (#43)."""

FIELDS: dict[str, dict[str, Check]] = {
    "regroup": {"side": SIDE, "stand": STAND, "group": TEXT, "hq": BOOL, "ghq": BOOL},
    "initiative": {
        "rolls": mapping(SIDE, obj({"dice": INTS, "total": INT})),
        "tiebreaks": list_of(mapping(SIDE, INTS)),
        "winner": SIDE,
    },
    "orders": {
        "side": SIDE,
        "dice": INTS,
        "command_value": INT,
        "generation_mod": INT,
        "total": INT,
        "orders": INT,
    },
    "pass": {"side": SIDE},
    "posture": {"side": SIDE, "group": TEXT, "stands": list_of(STAND)},
    "fire": {
        "kind": one_of("standard", "opportunity", "covering"),
        "side": SIDE,
        "attacker": STAND,
        "target": STAND,
        "weapon": TEXT,
        "cohesion": obj(ROLL),
    },
    "move_attempt": {
        "side": SIDE,
        "group": TEXT,
        "ordered": BOOL,
        "roll": INT,
        "per_stand": mapping(STAND, obj({"mods": MODS, "total": INT, "passed": BOOL})),
    },
    "move": {
        "side": SIDE,
        "stand": STAND,
        "path": list_of(POINT, non_empty=True, most=MAX_PATH_POINTS),  # as in saves (#42)
        "mp_spent": NUMBER,
        "mp_allowed": NUMBER,
        "facing_deg": NUMBER,
        "stopped_by": one_of(*sorted(STOPPED_BY, key=str)),
        "entered": BOOL,
    },
    "marker_removal": {
        "stand": STAND,
        "roll": INT,
        "mods": MODS,
        "total": INT,
        "outcome": one_of("recovered", "rallied", "panic", "none"),
        "markers_after": MARKERS,
    },
    "resupply": {"stand": STAND, "roll": INT, "total": INT, "passed": BOOL},
    # the full games (event-log.md "Lines of the full games")
    "overrun": {
        "mover": STAND,
        "defender": STAND,
        "defender_roll": obj(ROLL),
        "attack_on_defender": or_null(ATTACK),
        "attacker_roll": obj(ROLL),
        "attack_on_attacker": or_null(ATTACK),
    },
    "close_assault": {
        "defender": STAND,
        "assaulters": list_of(STAND, non_empty=True),
        "defender_roll": or_null(obj(ROLL)),
        "defender_attack": or_null(ATTACK),
        "assaulter_rolls": mapping(STAND, obj(ROLL)),
        "assaulter_attacks": list_of(ATTACK),
        # 004: the defender falls back
        "retreat": or_null(list_of(POINT, non_empty=True, most=MAX_PATH_POINTS)),
    },
    "mount": {"carrier": STAND, "stand": STAND, "pos": POS},
    "unload": {"carrier": STAND, "stand": STAND, "pos": POS},
    # artillery, smoke and air strikes (event-log.md)
    "plot": {
        "side": SIDE,
        "mission": TEXT,
        "kind": one_of("artillery", "air"),
        "aim": POINT,
        "lands_turn": INT,
    },
    "artillery": {
        "mission": TEXT,
        "kind": one_of("direct", "indirect"),
        "side": SIDE,
        "firers": list_of(STAND),
        "cohesion": mapping(STAND, obj(ROLL)),
        "deviation": DEVIATION,
        "markers": list_of(POINT),
        "ammo": one_of("he", "smoke"),
    },
    "impact": {
        "mission": TEXT,
        "marker": TEXT,
        "side": SIDE,
        "target": STAND,
        "cause": one_of("landing", "entered"),
        **SUPPORT_ATTACK,
    },
    "air_strike": {
        "mission": TEXT,
        "side": SIDE,
        "aircraft": TEXT,
        "arrival": obj(ROLL),
        "aa": list_of(AA_FIRE),
        "deviation": DEVIATION,
        "target": or_null(STAND),
        "aircraft_after": MARKERS,
    },
    "end_turn": {"losses": LOSSES},
    "end": {"winner": SIDE_OR_NULL, "reason": TEXT, "losses": LOSSES},
    # network battles (#45): a hidden plot revealed as it lands
    "reveal": {
        "side": SIDE,
        "mission": TEXT,
        "kind": one_of("artillery", "air"),
        "aim": POINT,
        "commitment": TEXT,
        "salt": TEXT,
    },
}
"""The fields each line's replay and sentence read, with their checks."""

OPTIONAL: dict[str, dict[str, Check]] = {
    "fire": {"depleted": BOOL, "defense_class": one_of("armoured", "personnel")},
    "unload": {"cohesion": obj(ROLL), "markers_after": MARKERS},
    "posture": {"posture": one_of("move", "fire")},
    "move": {
        "cohesion": obj(ROLL),
        "pass_through": obj({**ROLL, "enemy": STAND}),
    },
    "artillery": {"not_fired": mapping(STAND, TEXT)},
    "plot": {"firers": list_of(STAND), "aircraft": TEXT},
    "air_strike": {"friendly": BOOL, "attack_point": POINT, **SUPPORT_ATTACK},
    "pass": {"auto": TEXT, "skip": SKIP},  # #43: the engine passed for the side
    "orders": {"command_table": list_of(STEP)},  # #43: the table the total was read on
}
"""Fields a line may leave out, checked when it has them."""

FIRE_PASSED: dict[str, Check] = {
    "aspect": TEXT,
    "differential": INT,
    "combat": obj({"dice": INTS, "mods": MODS, "total": INT}),
    "crt": one_of(*sorted(CRT_CELLS)),
    "result": one_of("none", "S", "D", "E"),
    "target_markers_after": MARKERS,
}
"""A fire line's fields when its cohesion roll passed."""


START_SIDE = ("side", "name", "cohesion", "generation", "command_value", "entry_edge")
START_STAND = ("id", "side", "unit", "x", "y", "facing_deg", "group", "hq", "ghq", "on_table")
START = obj(
    {
        "scenario": obj({"title": ANY}),
        "sides": list_of(obj(dict.fromkeys(START_SIDE, ANY))),
        "stands": list_of(obj(dict.fromkeys(START_STAND, ANY))),
    },
    {"auto_pass": BOOL},  # #43
)
"""The start line's layout that the replay rebuilds its scenario from; the values are then
checked as a scenario file's are (``game.rules.files.logreplay.scenario_of_start``)."""
NOBODY = Known(frozenset(), frozenset())
"""What a start line is checked against (it names the sides and stands itself)."""

_LINE = {name: obj(fields, OPTIONAL.get(name)) for name, fields in FIELDS.items()}
_HIDDEN_PLOT = obj(
    {k: v for k, v in FIELDS["plot"].items() if k != "aim"} | {"commitment": TEXT},
    OPTIONAL["plot"],
)
"""A network battle's plot line: its commitment in place of its aim (#45)."""
_FIRE_PASSED = obj({**FIELDS["fire"], **FIRE_PASSED}, OPTIONAL["fire"])
_STRIKE_ATTACKS = obj({**FIELDS["air_strike"], **SUPPORT_ATTACK}, OPTIONAL["air_strike"])


def field_problem(event: dict, known: Known) -> str | None:
    """The first field of a log line (already held to the format by ``check_log_line``) that
    the replay or its sentence could not read, as ``"EVENT.FIELD.PATH: must be ..., not
    VALUE"``; None when every field it reads is of its type."""
    name = event["event"]
    check = _LINE.get(name)
    cohesion = event.get("cohesion")
    if name == "fire" and isinstance(cohesion, dict) and cohesion.get("passed") is True:
        check = _FIRE_PASSED
    elif name == "air_strike" and event.get("target") is not None:
        check = _STRIKE_ATTACKS
    elif name == "plot" and "commitment" in event:
        check = _HIDDEN_PLOT  # its sentence reads the attack (#42: KeyError 'result')
    bad = None if check is None else check(event, known)
    if bad is None and name == "plot" and known.turns:
        bad = _lands_turn(event, known.turns)
    return None if bad is None else f"{name}{bad}"


def _lands_turn(event: dict, last: int) -> str | None:
    """A plot lands in a later turn of the battle, as the engine allows it
    (``game.rules.phases.plot.turn_problem``): 185 mutated logs with a lands_turn of 0, -1,
    a past turn or 10**9 replayed silently before #42."""
    turn, lands = event["turn"], event["lands_turn"]
    if turn < lands <= last:
        return None
    if turn >= last:
        return f".lands_turn: must be a later turn of the battle, and turn {turn} is its last"
    return f".lands_turn: must be a later turn of the battle ({turn + 1} to {last}), not {lands}"
