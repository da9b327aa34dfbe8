"""The save file's own fields (hulldown-save/2, and the older /1): what each must hold, and
the digests that tie a save to its scenario and seed and to its actions as written.
The replay itself is Battle.load's."""

from __future__ import annotations

import hashlib
import json
import os
import re
from collections.abc import Callable

from game.rules.actions import Action, ActionFieldError, action_from_dict, describe_value
from game.rules.files.engine import describe as describe_engine
from game.rules.files.engine import engine_stamp, stamp_problem
from game.rules.files.journal import JOURNAL_FORMAT, is_journal, read_journal
from game.rules.files.jsonfile import JsonFileError, is_json_int, read_json_file
from game.rules.files.scenario import Scenario, ScenarioError, parse_scenario

SAVE_FORMAT = "hulldown-save/2"
"""Saves written now: ``scenario_hash`` and ``actions_hash`` are required."""
OLD_SAVE_FORMAT = "hulldown-save/1"
"""Older saves: ``actions_hash`` may be missing; they load as before (the
scenario they carry is validated and must match their ``scenario_hash``, every action is
checked field by field, and the replay must reach their state hash). ``scenario_hash`` is
required: without it a ``/1`` file loaded an edited scenario (100 turns, more
sorties) as the battle that was saved, silently, and a ``/2`` save with its digests deleted
and its format made ``/1`` did the same. Those written after the digests came in carry it; older
ones cannot be told from edited ones, so they are refused with one line."""

__all__ = [
    "AI_LEVEL_NAME",
    "AI_SPEED_MAX",
    "AI_SPEED_MIN",
    "OLD_SAVE_FORMAT",
    "SAVE_FORMAT",
    "SaveError",
    "actions_hash",
    "ai_speed_problem",
    "meta_problem",
    "read_save",
    "save_field_problem",
    "scenario_hash",
]


def scenario_hash(raw: dict, seed) -> str:
    """A digest of what a battle is (its scenario as the file holds it, and its seed), kept in
    saves so that one edited after saving is refused rather than loaded as another battle."""
    text = json.dumps({"scenario": raw, "seed": seed}, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def actions_hash(actions: list) -> str:
    """A digest of a battle's actions as the file holds them (a list of action objects),
    kept in saves so that an action edited after saving (a move's facing turned by 90
    degrees, which a later move may hide from the final state hash) is refused."""
    text = json.dumps(actions, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


AI_LEVEL_NAME = re.compile(r"[a-z0-9][a-z0-9-]{0,31}")
"""The shape of an AI level's name in a save's ``meta.ai``. Which levels there are is the AI's
to say (``game.ai.levels``, read by ``game.load_battle``): the rules know nothing of the AI."""
AI_SPEED_MIN, AI_SPEED_MAX = 1.0, 1000.0
"""A save's ``meta.ai_speed`` (inches a second the AI's moves are shown at): 0 (not shown) or
from AI_SPEED_MIN to AI_SPEED_MAX; slower than 1"/s a move would take minutes to show and
hold up the battle (1e-300 froze it for good)."""


def save_field_problem(doc: dict) -> str | None:
    """``$.path: what is wrong`` with the save's own fields (the scenario has its own
    checks; meta is checked once the scenario's sides are known), or None."""
    if not is_json_int(doc["seed"]):
        return f"$.seed: must be a whole number, not {describe_value(doc['seed'])}"
    actions = doc["actions"]
    if not isinstance(actions, list):
        return f"$.actions: must be a list of actions, not {describe_value(actions)}"
    for i, a in enumerate(actions):
        if not isinstance(a, dict | Action):  # a journal's lines' come made (read_save)
            return f"$.actions[{i}]: must be an action (an object), not {describe_value(a)}"
    if not isinstance(doc["state_hash"], str):
        return f"$.state_hash: must be text, not {describe_value(doc['state_hash'])}"
    auto = doc.get("auto_pass", False)
    if not isinstance(auto, bool):
        return f"$.auto_pass: must be true or false, not {describe_value(auto)}"
    path = doc.get("scenario_path")
    if path is not None and not isinstance(path, str):
        return f"$.scenario_path: must be text, not {describe_value(path)}"
    if "engine" in doc and (problem := stamp_problem(doc["engine"])) is not None:
        return f"$.engine{'' if problem.startswith('.') else ': '}{problem}"
    return None


def hashes_problem(value, actions: int) -> str | None:
    """What is wrong with a save's ``state_hashes`` (the state hash after each of its
    ``actions`` header actions: a list of that many texts; none in saves written before
    they were kept), or None."""
    if value is None:
        return None
    if not isinstance(value, list) or not all(isinstance(h, str) for h in value):
        return f"must be a list of texts, not {describe_value(value)}"
    if len(value) != actions:
        return f"holds {len(value)} state hashes for {actions} actions"
    return None


def ai_speed_problem(value) -> str | None:
    """What is wrong with an AI speed (inches a second), or None: a finite number, 0 (not
    shown) or from AI_SPEED_MIN to AI_SPEED_MAX."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return f"must be a number of inches a second, not {describe_value(value)}"
    if value != 0 and not AI_SPEED_MIN <= value <= AI_SPEED_MAX:  # NaN fails this too
        return (
            f"must be 0 (moves not shown) or from {AI_SPEED_MIN:g} to {AI_SPEED_MAX:g} inches "
            f"a second, not {describe_value(value)}"
        )
    return None


def meta_problem(meta, sides: list[str]) -> str | None:
    """``$.meta...: what is wrong`` with a save's meta (who plays each side and how fast the
    AI's moves are shown; other keys are kept as they are), or None."""
    if not isinstance(meta, dict):
        return f"$.meta: must be an object, not {describe_value(meta)}"
    if "ai" in meta:
        ai = meta["ai"]
        if not isinstance(ai, dict):
            return f"$.meta.ai: must be an object of side: level, not {describe_value(ai)}"
        for side, level in ai.items():
            if side not in sides:
                return (
                    f"$.meta.ai: no side {describe_value(side)} (the sides are {', '.join(sides)})"
                )
            if not isinstance(level, str) or not AI_LEVEL_NAME.fullmatch(level):
                return (
                    f"$.meta.ai.{side}: must be an AI level's name (small letters, digits "
                    f"and dashes), not {describe_value(level)}"
                )
    if "ai_speed" in meta:
        problem = ai_speed_problem(meta["ai_speed"])
        if problem:
            return f"$.meta.ai_speed: {problem}"
    return None


class SaveError(ValueError):
    """A save file that cannot be loaded; the message names the file, the field and the
    problem."""


class SaveDiverged(SaveError):
    """A save whose replay parts from its recorded state hashes: the engine that wrote it
    played its actions otherwise (the rules changed since). ``agreed`` actions of
    ``total`` replay to the hashes recorded after them (the battle may go on from there:
    ``Battle.load(path, upto=agreed)``); ``written_by`` is the file's engine stamp (None
    before files recorded one; :func:`game.rules.files.engine.describe`)."""

    def __init__(self, message: str, agreed: int, total: int, written_by, note: str = ""):
        super().__init__(message)
        self.agreed, self.total, self.written_by = agreed, total, written_by
        self.note = note
        """Why so few actions can be shown to agree, or "": a save written before saves kept
        the state hash after each action records only the last."""


def diverged(
    where: str, i: int | None, doc: dict, total: int, agreed: int, what: str
) -> SaveDiverged:
    """The :class:`SaveDiverged` of a replay that ``what`` at action ``i`` (0-based; None:
    at the end, its ``state_hash``): one line naming the file and the field, what the replay
    did, the engine that wrote the file and this one, and how many actions agree."""
    ours, theirs = engine_stamp(), doc.get("engine")
    if theirs == ours:
        who = f"the file was written by this engine, {describe_engine(ours)}, and changed since"
    else:
        who = f"the file was written by {describe_engine(theirs)}; this is {describe_engine(ours)}"
    field, at = ("$.state_hash", total) if i is None else (f"$.actions[{i}]", i + 1)
    words = (
        f"{where}: {field}: the replay {what} than the file records (action {at} of {total}); "
        f"{who}; the first {agreed} actions agree: the battle may go on from action {agreed}"
    )
    note = ""
    if "state_hashes" not in doc and doc.get("format") != JOURNAL_FORMAT and total:
        note = (
            "This save records the battle's state only after its last action (it was written "
            "before saves kept it after each), so no earlier action can be shown to agree"
        )
        words += f" ({note[0].lower()}{note[1:]})"
    return SaveDiverged(words, agreed, total, theirs, note)


def go_on_note(doc: dict, upto: int | None, total: int) -> list[str]:
    """What a battle loaded from its first ``upto`` actions of ``total`` says it dropped
    (nothing when it replayed them all)."""
    if upto is None or upto >= total:
        return []
    return [
        f"Went on from action {upto} of {total}: the {total - upto} after it were played "
        f"otherwise by {describe_engine(doc.get('engine'))} and are dropped"
    ]


def _check_save_fields(doc, where: str) -> None:
    """The document read from save ``where`` is a hulldown save (``hulldown-save/2``, the
    older ``/1`` or the autosave journal) with every required field (``actions_hash`` but
    in ``/1`` saves) and each field of its type (:func:`save_field_problem`). Raises
    SaveError naming the file and the field, and telling a ``/1`` save without
    ``scenario_hash`` to start the battle again."""
    formats = (SAVE_FORMAT, OLD_SAVE_FORMAT, JOURNAL_FORMAT)
    if not isinstance(doc, dict) or doc.get("format") not in formats:
        raise SaveError(
            f"{where}: $.format: not a hulldown save ({SAVE_FORMAT} or /1, or the autosave)"
        )
    required = ["scenario", "seed", "actions", "state_hash", "scenario_hash"]
    if doc["format"] != OLD_SAVE_FORMAT:  # /2 saves always keep actions_hash
        required += ["actions_hash"]
    for field_name in required:
        if field_name not in doc:
            if field_name == "scenario_hash" and doc["format"] == OLD_SAVE_FORMAT:
                raise SaveError(
                    f"{where}: $.scenario_hash: required field is missing (a {OLD_SAVE_FORMAT} "
                    "file without it cannot be told from one whose scenario was edited; start "
                    "the battle again from its scenario)"
                )
            raise SaveError(f"{where}: $.{field_name}: required field is missing")
    problem = save_field_problem(doc)
    if problem:
        raise SaveError(f"{where}: {problem}")


def _save_scenario(doc: dict, where: str) -> Scenario:
    """The scenario a save holds, validated, and still the one it was saved with: its
    digest with the seed matches ``scenario_hash``. Raises SaveError naming the file and the
    first problem."""
    try:
        scenario = parse_scenario(doc["scenario"], doc.get("scenario_path", where))
    except ScenarioError as err:
        raise SaveError(f"{where}: $.scenario: {err.problems[0]}") from None
    if doc["scenario_hash"] != scenario_hash(doc["scenario"], doc["seed"]):
        raise SaveError(
            f"{where}: $.scenario: the scenario or the seed was changed after the battle "
            "was saved (they no longer match $.scenario_hash)"
        )
    return scenario


def read_save(
    path: str | os.PathLike,
    notes: list[str] | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> tuple[dict, dict[int, str], Scenario, list[Action]]:
    """A save's document (``hulldown-save/2``, the older ``/1``, or the autosave journal
    ``hulldown-journal/1``), checked before any replay: the state hashes to reach on the way
    (after a number of actions; a journal's lines, empty for a save), its scenario and its
    actions, every field checked (:func:`game.rules.actions.action_from_dict`).

    Raises SaveError, one line naming the file, the field and the problem: a file the JSON
    reader refuses, an unknown format, a missing field (``scenario_hash`` always,
    ``actions_hash`` but in ``/1`` saves), a field of the wrong type, a scenario that does not
    validate, an action field of the wrong type, a digest that does not match, a bad
    ``meta``; a ``/1`` save without ``scenario_hash`` (:data:`OLD_SAVE_FORMAT`). The
    document's ``actions`` are the action objects returned.
    ``notes`` (when given) gets one line for what was dropped from a journal whose tail a
    power cut filled with zeros (:func:`game.rules.files.journal.read_journal`).
    ``progress``, if given, is called as a journal is read with the bytes read so far and
    the file's size.
    """
    where = str(path)
    checks: dict[int, str] = {}

    def convert(i: int, raw) -> Action:
        try:
            return action_from_dict(raw)
        except ActionFieldError as err:
            raise SaveError(f"{where}: $.actions[{i}].{err}") from None
        except ValueError as err:
            raise SaveError(f"{where}: $.actions[{i}]: {err}") from None

    try:
        if is_journal(path):
            doc, checks = read_journal(path, progress, convert, notes)
        else:
            doc = read_json_file(path, allow_nan=False)
    except JsonFileError as err:
        raise SaveError(str(err)) from None
    _check_save_fields(doc, where)
    scenario = _save_scenario(doc, where)
    # each action object replaces its JSON in the list, so the two are never held whole
    # together (a 62 MB journal took 1 GB); the digest is of the header's JSON, kept
    actions = doc["actions"]
    header = actions[: len(actions) - (len(checks) - 1 if checks else 0)]
    for i, raw in enumerate(header):  # a journal's lines' actions come made (convert)
        actions[i] = convert(i, raw)
    problem = hashes_problem(doc.get("state_hashes"), len(header))
    if problem:
        raise SaveError(f"{where}: $.state_hashes: {problem}")
    for i, h in enumerate(doc.get("state_hashes") or ()):  # a journal's lines come after
        checks.setdefault(i + 1, h)
    if "actions_hash" in doc and doc["actions_hash"] != actions_hash(header):
        raise SaveError(
            f"{where}: $.actions: the actions were changed after the battle was saved "
            "(they no longer match $.actions_hash)"
        )
    sides = [s.id for s in scenario.spec.sides]
    problem = meta_problem(doc.get("meta", {}), sides)
    if problem:
        raise SaveError(f"{where}: {problem}")
    return doc, checks, scenario, actions
