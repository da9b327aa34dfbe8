"""Every kind of battle-log line, once: its name, the fields it must carry with their checks,
the fields it may carry, and for a ``fire`` line the fields it carries once its cohesion roll
passed (event-log.md, ``hulldown-log/1``).

The log's checker (:func:`game.rules.files.log.check_log_line`: which fields a line needs) and
the replay's field checks (:func:`game.rules.files.logfields.field_problem`: their types) are
both read from :data:`EVENTS`, and the log panel's sentences are keyed by its names (a test
holds ``game.ui.logtext`` to it). A new field is one edit here, plus its words.

``ANY`` marks a field whose presence the format requires and that no reader of the replay
looks into (the start line's are checked as a scenario file's, ``logreplay.scenario_of_start``).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from game.rules.actions import MAX_PATH_POINTS
from game.rules.files.fieldchecks import (
    AA_FIRE,
    ANY,
    ATTACK,
    BOOL,
    CRT_CELLS,
    DEVIATION,
    INT,
    INTS,
    LOSSES,
    MARKERS,
    MODS,
    NUMBER,
    POINT,
    POS,
    ROLL,
    SIDE,
    SIDE_OR_NULL,
    SKIP,
    STAND,
    STEP,
    STOPPED_BY,
    SUPPORT_ATTACK,
    TEXT,
    Check,
    list_of,
    mapping,
    obj,
    one_of,
    or_null,
)

RESULT = one_of("none", "S", "D", "E")
COMBAT = obj({"dice": INTS, "mods": MODS, "total": INT})


@dataclass(frozen=True)
class Event:
    """One kind of log line.

    name : its ``event``. fields : the fields every such line carries (beyond ``seq``,
    ``event``, ``turn``, ``phase``) with their checks, in the order a check reports the first
    wrong one. optional : fields it may carry, checked when there. passed : (``fire``) the
    fields it carries once its cohesion roll passed. section : where event-log.md lists it."""

    name: str
    fields: dict[str, Check]
    optional: dict[str, Check] = field(default_factory=dict)
    passed: dict[str, Check] = field(default_factory=dict)
    section: str = "Lines"


def _any(*names: str) -> dict[str, Check]:
    return dict.fromkeys(names, ANY)


_EVENTS = (
    Event(
        "start",
        _any(
            "format",
            "ruleset",
            "seed",
            "scenario",
            "table",
            "max_sighting_in",
            "turns",
            "sides",
            "terrain",
            "stands",
        ),
    ),
    Event("regroup", {"side": SIDE, "stand": STAND, "group": TEXT, "hq": BOOL, "ghq": BOOL}),
    Event(
        "initiative",
        {
            "rolls": mapping(SIDE, obj({"dice": INTS, "total": INT})),
            "tiebreaks": list_of(mapping(SIDE, INTS)),
            "winner": SIDE,
        },
    ),
    Event(
        "posture",
        {"side": SIDE, "group": TEXT, "stands": list_of(STAND)},
        optional={"posture": one_of("move", "fire")},  # the full games
    ),
    Event(
        "orders",
        {
            "side": SIDE,
            "dice": INTS,
            "command_value": INT,
            "generation_mod": INT,
            "total": INT,
            "orders": INT,
        },
        optional={"command_table": list_of(STEP)},  # the table the total was read on
    ),
    Event(
        "fire",
        {
            "kind": one_of("standard", "opportunity", "covering"),
            "side": SIDE,
            "attacker": STAND,
            "target": STAND,
            "weapon": TEXT,
            "cohesion": obj(ROLL),
            **_any("attack", "attacker_pos", "target_pos", "range_in", "range_band_in"),
        },
        optional={"depleted": BOOL, "defense_class": one_of("armoured", "personnel")},
        passed={
            "firepower": ANY,
            "defense_base": ANY,
            "aspect": TEXT,
            "defense": ANY,
            "differential": INT,
            "combat": COMBAT,
            "crt": one_of(*sorted(CRT_CELLS)),
            "result": RESULT,
            "target_markers_after": MARKERS,
        },
    ),
    Event(
        "move_attempt",
        {
            "side": SIDE,
            "group": TEXT,
            "ordered": BOOL,
            "roll": INT,
            "per_stand": mapping(STAND, obj({"mods": MODS, "total": INT, "passed": BOOL})),
            **_any("level"),
        },
    ),
    Event(
        "move",
        {
            "side": SIDE,
            "stand": STAND,
            "path": list_of(POINT, non_empty=True, most=MAX_PATH_POINTS),  # as in saves
            "mp_spent": NUMBER,
            "mp_allowed": NUMBER,
            "facing_deg": NUMBER,
            "stopped_by": one_of(*sorted(STOPPED_BY, key=str)),
            "entered": BOOL,
        },
        optional={"cohesion": obj(ROLL), "pass_through": obj({**ROLL, "enemy": STAND})},
    ),
    Event("pass", {"side": SIDE}, optional={"auto": TEXT, "skip": SKIP}),  # engine's passes
    Event(
        "marker_removal",
        {
            "stand": STAND,
            "roll": INT,
            "mods": MODS,
            "total": INT,
            "outcome": one_of("recovered", "rallied", "panic", "none"),
            "markers_after": MARKERS,
            **_any("level"),
        },
    ),
    Event(
        "resupply",
        {"stand": STAND, "roll": INT, "total": INT, "passed": BOOL, **_any("mods", "level")},
    ),
    Event("end_turn", {"losses": LOSSES}),
    Event("end", {"winner": SIDE_OR_NULL, "reason": TEXT, "losses": LOSSES}),
    # the full games
    Event(
        "overrun",
        {
            "mover": STAND,
            "defender": STAND,
            "defender_roll": obj(ROLL),
            "attack_on_defender": or_null(ATTACK),
            "attacker_roll": obj(ROLL),
            "attack_on_attacker": or_null(ATTACK),
        },
        section="Lines of the full games",
    ),
    Event(
        "close_assault",
        {
            "defender": STAND,
            "assaulters": list_of(STAND, non_empty=True),
            "defender_roll": or_null(obj(ROLL)),
            "defender_attack": or_null(ATTACK),
            "assaulter_rolls": mapping(STAND, obj(ROLL)),
            "assaulter_attacks": list_of(ATTACK),
            # 004: the defender falls back
            "retreat": or_null(list_of(POINT, non_empty=True, most=MAX_PATH_POINTS)),
        },
        section="Lines of the full games",
    ),
    Event(
        "mount",
        {"carrier": STAND, "stand": STAND, "pos": POS},
        section="Lines of the full games",
    ),
    Event(
        "unload",
        {"carrier": STAND, "stand": STAND, "pos": POS},
        optional={"cohesion": obj(ROLL), "markers_after": MARKERS},
        section="Lines of the full games",
    ),
    Event(
        "plot",
        {
            "side": SIDE,
            "mission": TEXT,
            "kind": one_of("artillery", "air"),
            "aim": POINT,  # a network battle's hidden plot carries its commitment instead
            "lands_turn": INT,
        },
        optional={"firers": list_of(STAND), "aircraft": TEXT},
        section="Lines of the full games",
    ),
    Event(
        "artillery",
        {
            "mission": TEXT,
            "kind": one_of("direct", "indirect"),
            "side": SIDE,
            "firers": list_of(STAND),
            "cohesion": mapping(STAND, obj(ROLL)),
            "deviation": DEVIATION,
            "markers": list_of(POINT),
            "ammo": one_of("he", "smoke"),
        },
        optional={"not_fired": mapping(STAND, TEXT)},
        section="Lines of the full games",
    ),
    Event(
        "impact",
        {
            "mission": TEXT,
            "marker": TEXT,
            "side": SIDE,
            "target": STAND,
            "cause": one_of("landing", "entered"),
            **SUPPORT_ATTACK,
            **_any("defense_base"),
        },
        section="Lines of the full games",
    ),
    Event(
        "air_strike",
        {
            "mission": TEXT,
            "side": SIDE,
            "aircraft": TEXT,
            "arrival": obj(ROLL),
            "aa": list_of(AA_FIRE),
            "deviation": DEVIATION,
            "target": or_null(STAND),
            "aircraft_after": MARKERS,
        },
        optional={"friendly": BOOL, "attack_point": POINT, **SUPPORT_ATTACK},
        section="Lines of the full games",
    ),
    # network battles: the chains' ends and the scenario, each action with both players'
    # hash-chain elements, each hidden plot's reveal
    Event(
        "network",
        _any("format", "chains", "length", "seed", "scenario_file"),
        section="Network battles",
    ),
    Event("action", _any("index", "side", "action", "elements"), section="Network battles"),
    Event(
        "reveal",
        {
            "side": SIDE,
            "mission": TEXT,
            "kind": one_of("artillery", "air"),
            "aim": POINT,
            "commitment": TEXT,
            "salt": TEXT,
        },
        section="Network battles",
    ),
)

EVENTS: dict[str, Event] = {e.name: e for e in _EVENTS}
"""Every kind of log line by its ``event`` name, in the order event-log.md lists them."""
