"""The types of every field a battle log's replay reads (``hulldown replay LOG.jsonl``): the
replay's own reading of the lines (:mod:`game.rules.files.logreplay`) and the log panel's sentences
(``game.ui.logtext.describe``), checked before either reads a line, as the save loader checks
a save's fields before its replay.

:func:`check_log_line` (``game.rules.files.log``) holds a line to the log format; this holds it to
what the replay assumes besides: sides and stands that the start line names, whole numbers
where a sentence writes ``{:+d}``, text where it calls a string method, true/false where it
tests. Both read each line's fields from its record in :data:`game.rules.events.EVENTS`.
"""

from __future__ import annotations

from game.rules.events import EVENTS
from game.rules.files.fieldchecks import (
    ANY,
    BOOL,
    SUPPORT_ATTACK,
    TEXT,
    Known,
    list_of,
    obj,
)

__all__ = ["NOBODY", "START", "START_SIDE", "START_STAND", "Known", "field_problem"]

START_SIDE = ("side", "name", "cohesion", "generation", "command_value", "entry_edge")
START_STAND = ("id", "side", "unit", "x", "y", "facing_deg", "group", "hq", "ghq", "on_table")
START = obj(
    {
        "scenario": obj({"title": ANY}),
        "sides": list_of(obj(dict.fromkeys(START_SIDE, ANY))),
        "stands": list_of(obj(dict.fromkeys(START_STAND, ANY))),
    },
    {"auto_pass": BOOL},
)
"""The start line's layout that the replay rebuilds its scenario from; the values are then
checked as a scenario file's are (``game.rules.files.logreplay.scenario_of_start``)."""
NOBODY = Known(frozenset(), frozenset())
"""What a start line is checked against (it names the sides and stands itself)."""

_LINE = {name: obj(e.fields, e.optional) for name, e in EVENTS.items()}
_PLOT = EVENTS["plot"]
_HIDDEN_PLOT = obj(
    {k: v for k, v in _PLOT.fields.items() if k != "aim"} | {"commitment": TEXT}, _PLOT.optional
)
"""A network battle's plot line: its commitment in place of its aim."""
_FIRE = EVENTS["fire"]
_FIRE_PASSED = obj({**_FIRE.fields, **_FIRE.passed}, _FIRE.optional)
_STRIKE = EVENTS["air_strike"]
_STRIKE_ATTACKS = obj({**_STRIKE.fields, **SUPPORT_ATTACK}, _STRIKE.optional)


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
        check = _HIDDEN_PLOT  # its sentence reads the attack (KeyError 'result')
    bad = None if check is None else check(event, known)
    if bad is None and name == "plot" and known.turns:
        bad = _lands_turn(event, known.turns)
    return None if bad is None else f"{name}{bad}"


def _lands_turn(event: dict, last: int) -> str | None:
    """A plot lands in a later turn of the battle, as the engine allows it
    (``game.rules.phases.plot.turn_problem``): 185 mutated logs with a lands_turn of 0, -1,
    a past turn or 10**9 were once replayed silently."""
    turn, lands = event["turn"], event["lands_turn"]
    if turn < lands <= last:
        return None
    if turn >= last:
        return f".lands_turn: must be a later turn of the battle, and turn {turn} is its last"
    return f".lands_turn: must be a later turn of the battle ({turn + 1} to {last}), not {lands}"
