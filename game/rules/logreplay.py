"""Replaying a battle from its battle log (``hulldown-log/1``, ../shared/event-log.md): the
table as it stood after any line of the log, forward and back.

A log holds what happened, not every choice that led to it (who chose to act first, the end
of a movement action and letting a move pass leave no line, and a move's line holds the
points walked, not the path plotted), so a log is not played again through the engine as a
save is (:mod:`game.rules.replay`). It is read: its ``start`` line gives the table, the
terrain, the sides and the stands, each later line moves stands, sets markers, leaves wrecks
and marks postures as the engine did when it wrote it. The tests hold the two replays of
every battle of the regression corpus to the same stands at every action.

Positions count the log's lines after the ``start`` line: position 0 is the table as it was
set up, position ``length`` after the last line.
"""

from __future__ import annotations

import copy
import os
from dataclasses import dataclass

from game.rules.battle import Battle
from game.rules.jsonfile import JsonFileError, is_json_number, read_json_lines
from game.rules.log import check_log_line
from game.rules.phases.movement import straggler_group
from game.rules.phases.posture import close_postures, open_postures
from game.rules.replay import TurnSteps
from game.rules.scenario import ScenarioError, parse_scenario
from game.rules.state import BattleState, Wreck

CHECKPOINT_EVERY = 25  # lines between checkpoints beside those at each turn's start
SCENARIO_FORMAT = "hulldown-scenario/1"


class LogReplayError(ValueError):
    """A battle log that cannot be replayed; the message names the file, the line and the
    field (``file: line N: what is wrong``)."""


@dataclass
class _View:
    """The state the lines have made, and where the posture bookkeeping stands (WWII)."""

    state: BattleState
    posture_open: int = -1  # the turn whose posture phase has been opened
    posture_closed: int = -1  # the turn whose undeclared stands took the firing posture


def scenario_of_start(start: dict, where: str):
    """The scenario a log's ``start`` line describes (table, terrain, sides and stands as the
    battle began; victory and description are not in a log and take their defaults),
    validated as a scenario file is.

    Raises
    ------
    LogReplayError
        ``where: line 1 (start): ...`` naming the first problem, with the scenario's JSON
        path (the start line uses the same ``terrain``, ``sides`` and ``stands`` layout).
    """
    at = f"{where}: line 1 (start)"
    try:
        raw = {
            "format": SCENARIO_FORMAT,
            "title": start["scenario"]["title"],
            "ruleset": start["ruleset"],
            "table": start["table"],
            "max_sighting_in": start["max_sighting_in"],
            "turns": start["turns"],
            "terrain": start["terrain"],
            "sides": [
                {
                    "id": s["side"],
                    "name": s["name"],
                    "cohesion": s["cohesion"],
                    "generation": s["generation"],
                    "command_value": s["command_value"],
                    "entry_edge": s["entry_edge"],
                }
                for s in start["sides"]
            ],
            "stands": [
                {k: s[k] for k in ("id", "side", "unit", "x", "y", "facing_deg", "group")}
                | {"hq": s["hq"], "ghq": s["ghq"], "on_table": s["on_table"]}
                for s in start["stands"]
            ],
        }
    except (KeyError, TypeError) as err:
        raise LogReplayError(f"{at}: a field is missing or of the wrong type ({err})") from None
    try:
        return parse_scenario(raw, at)
    except ScenarioError as err:
        raise LogReplayError(str(err).splitlines()[0]) from None


class LogReplay(TurnSteps):
    """A battle log that can be shown after any number of its lines.

    ``events`` are the log's lines as JSON objects, the ``start`` line first; ``where`` names
    the log in errors. The attribute interface is that of :class:`game.rules.replay.Replay`
    (``battle``, ``length``, ``position``, ``events``, ``turn_starts``, ``goto``, ``step``,
    ``next_turn``, ``previous_turn``), so the replay screen shows either; ``step_name`` is
    "line".

    Raises
    ------
    LogReplayError
        The first problem met: a line that breaks the log format (``check_log_line``), a stand
        or a field that the start line does not know, a ruleset not built, a start line that
        is not a valid scenario.
    """

    step_name = "line"

    def __init__(self, events: list[dict], where: str = "<log>"):
        self.where = where
        if not events:
            raise LogReplayError(f"{where}: the log is empty")
        for i, ev in enumerate(events):
            problems = check_log_line(ev, i)
            if problems:
                raise LogReplayError(f"{where}: line {i + 1}: {problems[0]}")
        if events[0]["event"] != "start":
            raise LogReplayError(f"{where}: line 1: the first line is not a start")
        start = events[0]
        scenario = scenario_of_start(start, where)
        if not isinstance(start["seed"], int) or isinstance(start["seed"], bool):
            raise LogReplayError(f"{where}: line 1 (start): seed: not a whole number")
        try:
            self.battle = Battle(scenario, start["seed"])
        except ScenarioError as err:
            raise LogReplayError(str(err).splitlines()[0]) from None
        self.all_events = list(events)
        self.wwii = any(p.kind == "posture" for p in self.battle.rules.turn)
        b = self.battle
        b.state = b.ctx.state = self._initial_state()
        self.view = _View(b.state)
        self._checkpoints: list[tuple[int, _View]] = [(0, copy.deepcopy(self.view))]
        # where each turn begins: its first line (the initiative roll) shown, as a save's
        # replay shows a turn's start once the action that began it is applied
        self.turn_starts: list[int] = [0]
        self.position = 0
        turn = 0
        for i in range(1, len(events)):
            ev = events[i]
            if ev["turn"] > turn:
                turn = ev["turn"]
                self.turn_starts.append(i)
                self._checkpoints.append((i - 1, copy.deepcopy(self.view)))
            elif (i - 1) % CHECKPOINT_EVERY == 0 and i > 1:
                self._checkpoints.append((i - 1, copy.deepcopy(self.view)))
            self._apply(ev, i)
            self.position = i
        self.turn_starts = sorted(set(self.turn_starts))

    @classmethod
    def from_file(cls, path: str | os.PathLike) -> LogReplay:
        """The replay of a battle-log file. Raises LogReplayError naming the file."""
        where = str(path)
        try:
            events = read_json_lines(path)
        except JsonFileError as err:
            raise LogReplayError(str(err)) from None
        return cls(events, where)

    def _initial_state(self) -> BattleState:
        """The state before any line after the start: the stands as set up, turn 0."""
        st = copy.deepcopy(self.battle.state)
        st.turn, st.phase, st.wrecks = 0, "setup", []
        return st

    # ------------------------------------------------------------------ reading lines

    def _stand(self, sid, i: int, field: str):
        st = self.view.state
        if not isinstance(sid, str) or sid not in st.stands:
            raise LogReplayError(
                f"{self.where}: line {i + 1}: {field}: {sid!r} is no stand of the start line"
            )
        return st.stands[sid]

    def _bad(self, i: int, field: str, why: str) -> LogReplayError:
        return LogReplayError(f"{self.where}: line {i + 1}: {field}: {why}")

    def _markers(self, s, after, i: int, field: str) -> None:
        if not isinstance(after, dict) or not all(
            isinstance(after.get(k), bool) for k in ("S", "D", "eliminated")
        ):
            raise self._bad(i, field, "must be {S, D, eliminated} of true/false")
        s.S, s.D = after["S"], after["D"]
        if after["eliminated"] and not s.eliminated:
            # where the engine leaves it (000 07.05): the stand's place in the state, which
            # for a stand shot while moving is where its move began
            s.eliminated = True
            self.view.state.wrecks.append(Wreck(s.id, s.x, s.y, s.facing_deg))

    def _postures(self, ev: dict) -> None:
        """WWII: the posture phase opens (every stand on the table undecided, those waiting
        to enter in the movement posture) and closes (the undecided take the firing posture)
        as the engine does it, though neither writes a line of its own (001 5.0 step 2)."""
        v, st = self.view, self.view.state
        turn, phase = ev["turn"], ev["phase"]
        if turn < 1 or phase == "initiative":
            return
        if v.posture_open < turn:
            v.posture_open = turn
            open_postures(st.stands.values())
        if phase != "posture" and v.posture_closed < turn:
            v.posture_closed = turn
            close_postures(st.stands.values())

    def _apply(self, ev: dict, i: int) -> None:
        """Carry one line (index ``i``) into the view's state."""
        st = self.view.state
        name = ev["event"]
        if ev["turn"] > st.turn:
            for s in st.stands.values():  # a new turn (turns.start_turn)
                s.mp_spent, s.fire_attempts = 0.0, 0
        if st.straggled and (ev["phase"] != "movement" or ev["turn"] != st.turn):
            for sid, group in st.straggled.items():  # movement.restore_groups
                st.stands[sid].group = group
            st.straggled.clear()
        st.turn, st.phase = ev["turn"], ev["phase"]
        if self.wwii:
            self._postures(ev)
        if name == "regroup":
            s = self._stand(ev["stand"], i, "stand")
            if not isinstance(ev["group"], str):
                raise self._bad(i, "group", "must be a string")
            s.group, s.hq, s.ghq = ev["group"], bool(ev["hq"]), bool(ev["ghq"])
        elif name == "posture":
            if not isinstance(ev["stands"], list) or not isinstance(ev["group"], str):
                raise self._bad(i, "stands", "must be a list of stand ids with a group name")
            for sid in ev["stands"]:
                s = self._stand(sid, i, "stands")
                s.posture, s.group = "movement", ev["group"]
        elif name == "fire":
            a = self._stand(ev["attacker"], i, "attacker")
            t = self._stand(ev["target"], i, "target")
            a.fire_attempts += 1
            if "target_markers_after" in ev:
                self._markers(t, ev["target_markers_after"], i, "target_markers_after")
            if ev.get("depleted") is True:
                a.depleted = True
        elif name == "move_attempt":
            self._attempt(ev, i)
        elif name == "move":
            self._move(ev, i)
        elif name == "marker_removal":
            s = self._stand(ev["stand"], i, "stand")
            self._markers(s, ev["markers_after"], i, "markers_after")
        elif name == "resupply":
            s = self._stand(ev["stand"], i, "stand")
            if ev["passed"] is True:
                s.depleted = False
        elif name == "end_turn":
            for s in st.stands.values():
                s.fire_attempts = 0

    def _attempt(self, ev: dict, i: int) -> None:
        """Stands of the group that failed while others passed form a new group for the
        rest of the phase, named with a prime (000 08.02.09; movement.split_stragglers)."""
        st = self.view.state
        stands = [self._stand(sid, i, "per_stand") for sid in ev["per_stand"]]
        passed = [s for s in stands if ev["per_stand"][s.id].get("passed") is True]
        stragglers = [s for s in stands if s not in passed]
        if not passed or not stragglers:
            return
        name = straggler_group(st.stands.values(), stragglers[0].side, stragglers[0].group)
        for s in stragglers:
            st.straggled.setdefault(s.id, s.group)
            s.group = name

    def _move(self, ev: dict, i: int) -> None:
        s = self._stand(ev["stand"], i, "stand")
        path = ev["path"]
        if not (
            isinstance(path, list)
            and path
            and all(
                isinstance(p, list) and len(p) == 2 and all(is_json_number(v) for v in p)
                for p in path
            )
        ):
            raise self._bad(i, "path", "must be a list of [x, y] numbers")
        if not is_json_number(ev["facing_deg"]):
            raise self._bad(i, "facing_deg", "must be a number")
        x, y = path[-1]
        if not self.battle.table.on_table(x, y):
            raise self._bad(i, "path", f"ends off the table at ({x}, {y})")
        s.x, s.y, s.facing_deg = float(x), float(y), float(ev["facing_deg"]) % 360.0
        s.on_table = True
        s.mp_spent += float(ev["mp_spent"])

    # ------------------------------------------------------------------ moving about

    @property
    def length(self) -> int:
        """How many lines the log has after its start line."""
        return len(self.all_events) - 1

    @property
    def events(self) -> list[dict]:
        """The log's lines up to the current position (the start line first)."""
        return self.all_events[: self.position + 1]

    def goto(self, position: int) -> None:
        """Show the table after ``position`` lines (clamped to 0..length): the last
        checkpoint at or before it, then the lines up to it."""
        position = max(0, min(self.length, position))
        if position == self.position:
            return
        if position < self.position or position - self.position > CHECKPOINT_EVERY:
            at, view = max((c for c in self._checkpoints if c[0] <= position), key=lambda c: c[0])
            self.view = copy.deepcopy(view)
            self.battle.state = self.battle.ctx.state = self.view.state
            self.position = at
        while self.position < position:
            self.position += 1
            self._apply(self.all_events[self.position], self.position)
