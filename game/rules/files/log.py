"""The battle log, format ``hulldown-log/1`` (``../shared/event-log.md``): JSON Lines, one
event a line, written and flushed as the battle goes.

Every event carries ``seq`` (0, 1, 2, ...), ``event``, ``turn`` and ``phase``; the battle adds the
rest. :func:`check_log_line` checks a line against the contract (the tests and ``simulate`` use
it on every line they write).
"""

from __future__ import annotations

import contextlib
import json
import os
from collections.abc import Collection
from typing import IO

from game.rules.events import EVENTS
from game.rules.files.fieldchecks import CRT_CELLS, STOPPED_BY
from game.rules.files.jsonfile import is_json_int, is_json_number, writable_target, write_atomic
from game.rules.rulesets import phase_names

FORMAT = "hulldown-log/1"

REQUIRED = {name: frozenset(e.fields) for name, e in EVENTS.items()}
"""The fields each event must carry beyond seq/event/turn/phase (event-log.md), as its record
in :data:`game.rules.events.EVENTS` gives them."""
FIRE_PASSED = frozenset(EVENTS["fire"].passed)
"""The fields a fire line carries once its cohesion roll passed."""


def mods_json(mods) -> list[dict]:
    """Modifiers as the log writes them: ``[{"why": CODE, "value": INT}, ...]``."""
    return [{"why": why, "value": int(value)} for why, value in mods]


def pos(x: float, y: float, facing: float) -> list[float]:
    """A position as the log writes it: ``[x, y, facing_deg]``, rounded to 1e-6."""
    return [round(x, 6), round(y, 6), round(facing % 360.0, 6)]


def _line(event: dict) -> bytes:
    """One event's line as the log holds it: sorted keys, no spaces, a newline."""
    return (json.dumps(event, sort_keys=True, separators=(",", ":")) + "\n").encode()


def log_line(event: dict) -> bytes:
    """One event's line as the log holds it (sorted keys, no spaces, a newline), for checks
    that compare a log byte for byte (``hulldown verify``)."""
    return _line(event)


class LogWriter:
    """Writes events to a JSON Lines file, one flushed line each, and keeps them in memory.

    ``path`` None keeps them in memory only. Lines are written with sorted keys and no spaces,
    so the same battle gives the same bytes.
    """

    def __init__(self, path: str | os.PathLike | None = None):
        self.events: list[dict] = []
        self.error: str | None = None
        self._fh: IO[bytes] | None = None
        self._whole = 0  # bytes of the file that end on a whole line
        if path is not None:
            self.open_file(path)

    def open_file(self, path: str | os.PathLike) -> None:
        """Start writing to ``path`` (replacing it): every event held so far is written first,
        then each new one, so a battle loaded from a save writes the same bytes as one played
        without a break. The events held so far are written aside and renamed over ``path``
        (:func:`game.rules.files.jsonfile.write_atomic`; a kill -9 while ``play
        --resume`` once rewrote the log left it empty or cut), so at any moment the file is the
        old log or the new one, whole; new events are appended to it. A symbolic link is
        written through. Raises OSError when the file cannot be made (NotARegularFile for a
        FIFO or a device, which an open for writing would block on or clobber); the events
        stay in memory.
        """
        self.close()
        target = writable_target(path)
        data = b"".join(_line(event) for event in self.events)
        if data:
            write_atomic(target, data)
            mode = "ab"
        else:  # nothing held yet (a new battle): an empty file is the new log, whole
            target.parent.mkdir(parents=True, exist_ok=True)
            mode = "wb"
        # unbuffered, so a line is on its way to the disk when write() returns
        self._fh = open(target, mode, buffering=0)  # noqa: SIM115 - kept open for the battle
        self._whole = len(data)
        self.error = None

    def write(self, event: dict) -> dict:
        """Add ``seq`` and write one event; returns it. When the file cannot be written (a
        full disk) the events stay in memory, the file is left, and ``error`` says why: the
        battle goes on rather than stopping half way through an action, and the file is cut
        back to its last whole line so no reader meets half a line."""
        event = {"seq": len(self.events), **event}
        self.events.append(event)
        self._write_line(event)
        return event

    def retract_last(self) -> None:
        """Take back the last event written: out of memory, and the file cut back by its line
        (a network battle's ``action`` line, written before the action it names, when the
        rules refuse that action)."""
        event = self.events.pop()
        if self._fh is not None:
            self._whole -= len(_line(event))
            try:
                self._fh.truncate(self._whole)
                self._fh.seek(self._whole)
            except OSError as err:
                self.error = f"the battle log could not be written ({err.strerror or err})"
                self.close()

    def _write_line(self, event: dict) -> None:
        """Write one event's line to the file, if there is one (see :meth:`write`)."""
        if self._fh is not None:
            data = _line(event)
            try:
                done = 0
                while done < len(data):  # a raw write may take only part of the bytes
                    done += self._fh.write(data[done:]) or 0
                self._whole += len(data)
            except OSError as err:
                self.error = f"the battle log could not be written ({err.strerror or err})"
                # never leave a line cut short: the file ends on the last whole line
                with contextlib.suppress(OSError):
                    self._fh.truncate(self._whole)
                self.close()

    def close(self) -> None:
        """Close the file (the events stay in memory)."""
        if self._fh is not None:
            fh, self._fh = self._fh, None
            try:
                fh.close()
            except OSError as err:
                self.error = (
                    self.error or f"the battle log could not be written ({err.strerror or err})"
                )


def _is_ints(v) -> bool:
    """A list of integers (dice)."""
    return isinstance(v, list) and all(is_json_int(x) for x in v)


def _mods_ok(mods) -> bool:
    """A modifier list as the log writes it: ``[{"why": str, "value": int}, ...]``."""
    return isinstance(mods, list) and all(
        isinstance(m, dict) and set(m) == {"why", "value"} and is_json_int(m["value"]) for m in mods
    )


def _hashable_in(value, known: Collection) -> bool:
    """``value in known``, False for values that cannot be in a set (lists, objects)."""
    return isinstance(value, (str, int, float, bool, type(None))) and value in known


def check_log_line(event: dict, seq: int) -> list[str]:
    """Problems with one log event against hulldown-log/1 (an empty list when it is right).

    Checks the common fields, each event's required fields, that modifier lists are
    ``[{"why", "value"}]``, that each roll's total is its natural roll plus its modifiers, and the
    fire line's fields when cohesion passed. A field of the wrong JSON type is a problem named
    here, never an exception.
    """
    if not isinstance(event, dict):
        return [f"not a JSON object but {type(event).__name__}"]
    problems = []
    name = event.get("event")
    if event.get("seq") != seq:
        problems.append(f"seq {event.get('seq')!r} where {seq} was due")
    if not _hashable_in(name, set(REQUIRED)):
        return problems + [f"unknown event {name!r}"]
    if not is_json_int(event.get("turn")) or event["turn"] < 0:
        problems.append("turn must be an integer >= 0")
    if not _hashable_in(event.get("phase"), phase_names()):
        problems.append(f"unknown phase {event.get('phase')!r}")
    missing = REQUIRED[str(name)] - set(event)
    if name == "plot" and "commitment" in event:  # a network battle's hidden plot
        missing -= {"aim"}
    if missing:
        problems.append(f"{name}: missing {sorted(missing)}")
        return problems
    name = str(name)
    if name == "fire":
        problems += _fire_problems(event)
    elif name in ("marker_removal", "resupply"):
        problems += _roll_problems(name, event["roll"], event["mods"], event["total"])
    elif name in ("overrun", "close_assault", "unload"):  # the full games' rolls
        problems += _assault_problems(name, event)
    elif name in ("artillery", "impact", "air_strike"):  # fire support's rolls
        problems += _support_problems(name, event)
    elif name == "move_attempt":
        problems += _move_attempt_problems(event)
    elif name == "move":
        problems += _move_problems(event)
    elif name == "orders":
        problems += _orders_problems(event)
    elif name == "start" and event["format"] != FORMAT:
        problems.append(f"start: format {event['format']!r}")
    return problems


def _roll_problems(where: str, roll, mods, total) -> list[str]:
    """Problems with one roll of the log at ``where`` (e.g. "fire.cohesion"): modifiers as
    ``[{why, value}]``, an integer roll (or a list of dice) and total, and a total that is
    the natural roll plus the modifiers. Reports the first problem found only."""
    if not _mods_ok(mods):
        return [f"{where}: mods must be [{{why, value}}]"]
    if not (is_json_int(roll) or _is_ints(roll)) or not is_json_int(total):
        return [f"{where}: roll and total must be integers"]
    natural = sum(roll) if isinstance(roll, list) else roll
    if natural + sum(m["value"] for m in mods) != total:
        return [f"{where}: total {total} is not {natural} + modifiers"]
    return []


def _clamped_total_wrong(cb) -> bool:
    """A combat roll ``{dice, mods, total}`` whose dice and modifiers are well formed but
    whose total is not their sum clamped to the CRT's rows 0..19 (000 07.04)."""
    if isinstance(cb, dict) and _is_ints(cb.get("dice")) and _mods_ok(cb.get("mods")):
        natural = sum(cb["dice"]) + sum(m["value"] for m in cb["mods"])
        return cb.get("total") != min(19, max(0, natural))
    return False


def _fire_problems(event: dict) -> list[str]:
    """Problems with a fire line (000 07.04): its cohesion roll and kind and, when cohesion
    passed, the combat roll, the CRT cell and the result."""
    c = event["cohesion"]
    if not isinstance(c, dict):
        return ["fire.cohesion must be an object"]
    problems = _roll_problems("fire.cohesion", c.get("roll"), c.get("mods"), c.get("total"))
    if not _hashable_in(event["kind"], {"standard", "opportunity", "covering"}):
        problems.append(f"fire: unknown kind {event['kind']!r}")
    if not c.get("passed"):
        return problems
    missing = FIRE_PASSED - set(event)
    if missing:
        return problems + [f"fire: cohesion passed but missing {sorted(missing)}"]
    cb = event["combat"]
    if not (
        isinstance(cb, dict)
        and _is_ints(cb.get("dice"))
        and _mods_ok(cb.get("mods"))
        and is_json_int(cb.get("total"))
    ):
        problems.append("fire.combat must be {dice, mods, total} of integers")
    elif _clamped_total_wrong(cb):
        problems.append("fire.combat: total is not the clamped dice + modifiers")
    if not _hashable_in(event["crt"], CRT_CELLS):
        problems.append(f"fire: unknown CRT cell {event['crt']!r}")
    if not _hashable_in(event["result"], {"none", "S", "D", "E"}):
        problems.append(f"fire: unknown result {event['result']!r}")
    return problems


def _assault_problems(name: str, event: dict) -> list[str]:
    """Problems with the rolls of an overrun, close assault or unload line (the full games'
    close combat): each cohesion roll present, and each attack's clamped combat total."""
    rolls = [(f, event.get(f)) for f in ("defender_roll", "attacker_roll", "cohesion")]
    rolls += [(f"assaulter_rolls.{k}", r) for k, r in _items(event.get("assaulter_rolls"))]
    attacks = [event.get(f) for f in ("attack_on_defender", "attack_on_attacker")]
    attacks += [event.get("defender_attack"), *(event.get("assaulter_attacks") or [])]
    return _rolls_and_attacks_problems(name, rolls, attacks)


def _support_problems(name: str, event: dict) -> list[str]:
    """Problems with the rolls of an artillery, impact or air strike line (fire support):
    deviation, arrival, each stand's cohesion and each anti-aircraft roll present, and the
    clamped combat totals of the strike and of each anti-aircraft attack."""
    rolls = [(f, event.get(f)) for f in ("deviation", "arrival")]
    rolls += [(f"cohesion.{k}", r) for k, r in _items(event.get("cohesion"))]
    aa: list = event["aa"] if isinstance(event.get("aa"), list) else []
    rolls += [
        (f"aa[{i}].cohesion", a.get("cohesion")) for i, a in enumerate(aa) if isinstance(a, dict)
    ]
    return _rolls_and_attacks_problems(name, rolls, [event, *aa])


def _rolls_and_attacks_problems(name: str, rolls: list, attacks: list) -> list[str]:
    """Problems with ``rolls``, ``(where, roll object or anything)`` pairs (only objects are
    checked), then with the combat rolls of ``attacks`` (objects with a "combat" field)."""
    problems = []
    for where, r in rolls:
        if isinstance(r, dict):
            problems += _roll_problems(
                f"{name}.{where}", r.get("roll"), r.get("mods"), r.get("total")
            )
    for a in attacks:
        cb = a.get("combat") if isinstance(a, dict) else None
        if _clamped_total_wrong(cb):
            problems.append(f"{name}: an attack's total is not the clamped dice + mods")
    return problems


def _move_attempt_problems(event: dict) -> list[str]:
    """Problems with a move attempt line: one roll, each stand's modifiers and total."""
    per_stand = event["per_stand"]
    if not isinstance(per_stand, dict) or not all(
        isinstance(ps, dict) for ps in per_stand.values()
    ):
        return ["move_attempt.per_stand must map stands to objects"]
    problems = []
    for sid, ps in per_stand.items():
        problems += _roll_problems(
            f"move_attempt.{sid}", event["roll"], ps.get("mods"), ps.get("total")
        )
    return problems


def _move_problems(event: dict) -> list[str]:
    """Problems with a move line: why it stopped, movement points spent within those
    allowed (numbers), and the rolls to go on and to pass through (001 8.3.6)."""
    problems = []
    if not _hashable_in(event["stopped_by"], STOPPED_BY):
        problems.append(f"move: unknown stopped_by {event['stopped_by']!r}")
    if not (is_json_number(event["mp_spent"]) and is_json_number(event["mp_allowed"])):
        problems.append("move: mp_spent and mp_allowed must be numbers")
    elif event["mp_spent"] > event["mp_allowed"] + 1e-9:
        problems.append("move: spent more movement points than allowed")
    for roll_field in ("cohesion", "pass_through"):  # to go on; to pass through (8.3.6)
        r = event.get(roll_field)
        if isinstance(r, dict):
            problems += _roll_problems(
                f"move.{roll_field}", r.get("roll"), r.get("mods"), r.get("total")
            )
    return problems


def _orders_problems(event: dict) -> list[str]:
    """Problems with an orders line: integer dice, command value, generation modifier and
    total, the total their sum."""
    if not (
        _is_ints(event["dice"])
        and all(is_json_int(event[k]) for k in ("command_value", "generation_mod", "total"))
    ):
        return ["orders: dice, command value, generation and total must be integers"]
    if sum(event["dice"]) + event["command_value"] + event["generation_mod"] != event["total"]:
        return ["orders: total is not dice + command value + generation"]
    return []


def _items(value) -> list:
    return list(value.items()) if isinstance(value, dict) else []


def check_log(events: list[dict]) -> list[str]:
    """Problems with a whole log: every line, a start first and an end last."""
    problems = []
    for i, ev in enumerate(events):
        problems += [f"line {i + 1}: {p}" for p in check_log_line(ev, i)]

    def name(ev) -> object:
        return ev.get("event") if isinstance(ev, dict) else None

    if not events or name(events[0]) != "start":
        problems.append("the first line is not a start")
    if events and name(events[-1]) != "end":
        problems.append("the last line is not an end")
    return problems
