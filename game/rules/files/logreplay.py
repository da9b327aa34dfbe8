"""Replaying a battle from its battle log (``hulldown-log/1``, ../shared/event-log.md): the
table as it stood after any line of the log, forward and back.

A log holds what happened, not every choice that led to it (who chose to act first, the end
of a movement action and letting a move pass leave no line, and a move's line holds the
points walked, not the path plotted), so a log is not played again through the engine as a
save is (:mod:`game.rules.files.replay`). It is read: its ``start`` line gives the table, the
terrain, the sides and the stands, each later line moves stands, sets markers, leaves wrecks
and marks postures as the engine did when it wrote it. The tests hold the two replays of
every battle of the regression corpus to the same stands at every action.

Positions count the log's lines after the ``start`` line: position 0 is the table as it was
set up, position ``length`` after the last line.

A log is read as a stream (``LogReplay.from_file``): each line is checked and applied as it
is read, the lines are kept compressed in blocks, and the checkpoints are thinned as the log
grows, so memory stays bounded however long the log (a 780k-line log took 1.4 GB before).
Every field the replay or the log panel reads is checked first (:mod:`game.rules.files.logfields`),
and so is the order of the lines: one start line, first; turns that never go back nor skip;
nothing after the end. A log with no end line (a battle stopped by a kill) replays what it
holds, and :attr:`LogReplay.unfinished` says so.
"""

from __future__ import annotations

import bisect
import contextlib
import copy
import json
import os
import pickle
import zlib
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass

from game.rules.battle import Battle
from game.rules.files.jsonfile import LOG_CONTAINERS, JsonFileError, iter_json_lines
from game.rules.files.log import check_log_line
from game.rules.files.logfields import (
    NOBODY,
    START,
    START_SIDE,
    START_STAND,
    Known,
    field_problem,
)
from game.rules.files.replay import TurnSteps
from game.rules.files.scenario import ScenarioError, parse_scenario
from game.rules.phases.movement import straggler_group
from game.rules.phases.posture import close_postures, open_postures
from game.rules.procedures.artillery import clear_markers_of
from game.rules.rulesets import phase_order
from game.rules.state import BattleState, Impact, SmokeArea, Wreck

CHECKPOINT_EVERY = 25  # lines between checkpoints beside those at each turn's start, at first
MAX_CHECKPOINTS = 512  # beside the turns' own: past it, every other one goes, the gap doubles
BLOCK_LINES = 256  # lines compressed together (a long log's lines are kept as zlib blocks)
PROGRESS_EVERY = 16384  # lines between two calls of a long read's progress callback
SCENARIO_FORMAT = "hulldown-scenario/1"
UNFINISHED = "the log ends before the battle does"


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
    bad = START(start, NOBODY)
    if bad is not None:
        raise LogReplayError(f"{at}: start{bad}")
    raw = {
        "format": SCENARIO_FORMAT,
        "title": start["scenario"]["title"],
        "ruleset": start["ruleset"],
        "table": start["table"],
        "max_sighting_in": start["max_sighting_in"],
        "turns": start["turns"],
        "terrain": start["terrain"],
        "sides": [{"id": s["side"], **{k: s[k] for k in START_SIDE[1:]}} for s in start["sides"]],
        "stands": [
            {k: s[k] for k in START_STAND}
            | ({"carried_by": s["carried_by"]} if s.get("carried_by") is not None else {})
            for s in start["stands"]
        ],
    }
    try:
        return parse_scenario(raw, at)
    except ScenarioError as err:
        raise LogReplayError(str(err).splitlines()[0]) from None


class _Lines(Sequence):
    """A log's lines, kept as they are read: the parsed objects of a log handed over as a
    list, or (``compress``) the lines' bytes in zlib blocks of BLOCK_LINES lines, parsed
    again when read (the block last read is kept parsed)."""

    def __init__(self, compress: bool):
        self.compress = compress
        self._objects: list[dict] = []
        self._blocks: list[bytes] = []
        self._open: list[bytes] = []  # the lines of the block being filled
        self._n = 0
        self._cached: tuple[int, list[dict]] = (-1, [])

    def add(self, raw: bytes | None, event: dict) -> None:
        """Keep one more line: its bytes as read (None: it came as an object)."""
        self._n += 1
        if not self.compress:
            self._objects.append(event)
            return
        self._open.append(raw if raw is not None else json.dumps(event).encode())
        if len(self._open) == BLOCK_LINES:
            self._blocks.append(zlib.compress(b"\n".join(self._open), 1))
            self._open = []

    def __len__(self) -> int:
        return self._n

    def __getitem__(self, i):
        if isinstance(i, slice):
            return [self[k] for k in range(*i.indices(self._n))]
        if i < 0:
            i += self._n
        if not 0 <= i < self._n:
            raise IndexError(i)
        if not self.compress:
            return self._objects[i]
        block, at = divmod(i, BLOCK_LINES)
        if block == len(self._blocks):
            return json.loads(self._open[at])
        if self._cached[0] != block:
            lines = zlib.decompress(self._blocks[block]).split(b"\n")
            self._cached = (block, [json.loads(x) for x in lines])
        return self._cached[1][at]


class _Prefix(Sequence):
    """The first ``n`` lines of a :class:`_Lines` (the log up to the position shown)."""

    def __init__(self, lines: Sequence, n: int):
        self.lines, self.n = lines, n

    def __len__(self) -> int:
        return self.n

    def __getitem__(self, i):
        if isinstance(i, slice):
            return [self.lines[k] for k in range(*i.indices(self.n))]
        if i < 0:
            i += self.n
        if not 0 <= i < self.n:
            raise IndexError(i)
        return self.lines[i]


class LogReplay(TurnSteps):
    """A battle log that can be shown after any number of its lines.

    ``events`` are the log's lines as JSON objects, the ``start`` line first (any iterable:
    a list, or the lines of a file as they are read); ``where`` names the log in errors;
    ``progress``, if given, is called as lines are read with the count read so far. The
    attribute interface is that of :class:`game.rules.files.replay.Replay` (``battle``, ``length``,
    ``position``, ``events``, ``turn_starts``, ``goto``, ``step``, ``next_turn``,
    ``previous_turn``), so the replay screen shows either; ``step_name`` is "line".
    ``unfinished`` is None for a log that ends with its ``end`` line, else a sentence saying
    the log stops before the battle does (a battle stopped by a kill).

    Raises
    ------
    LogReplayError
        The first problem met, one line naming the log, the line and the field: a line that
        breaks the log format (``check_log_line``); a field the replay or the log panel reads
        that is of the wrong type or names a side or stand that the start line does not
        (:func:`game.rules.files.logfields.field_problem`); lines out of order (a start line that is
        not the first, turns going back or skipping one or past the battle's last, a turn not
        opening with its initiative roll, phases going back within a turn, a line after the
        end); a ruleset not built; a start line that is not a valid scenario.
    """

    step_name = "line"

    def __init__(
        self,
        events: Iterable[dict] | Iterable[tuple[bytes | None, dict]],
        where: str = "<log>",
        progress: Callable[[int], None] | None = None,
        *,
        _raw: bool = False,
    ):
        self.where = where
        pairs: Iterator = iter(events) if _raw else ((None, ev) for ev in events)
        first = next(pairs, None)
        if first is None:
            raise LogReplayError(f"{where}: the log is empty")
        self._check_line(first[1], 0)
        if first[1]["event"] != "start":
            raise LogReplayError(f"{where}: line 1: the first line is not a start")
        start = first[1]
        scenario = scenario_of_start(start, where)
        if not isinstance(start["seed"], int) or isinstance(start["seed"], bool):
            raise LogReplayError(f"{where}: line 1 (start): seed: not a whole number")
        try:
            self.battle = Battle(scenario, start["seed"], auto_pass=start.get("auto_pass") is True)
        except ScenarioError as err:
            raise LogReplayError(str(err).splitlines()[0]) from None
        self.last_turn = scenario.spec.turns
        self.known = Known(
            frozenset(self.battle.sides), frozenset(self.battle.state.stands), self.last_turn
        )
        self.all_events = _Lines(compress=_raw)
        self.all_events.add(first[0], start)
        # WWII's movement groups (001 5.0 step 2), not the full Modern game's TL1 postures
        self.wwii = self.battle.rules.postures
        b = self.battle
        b.state = b.ctx.state = self._initial_state()
        self.view = _View(b.state)
        self._turn_marks: list[tuple[int, bytes]] = [(0, self._saved())]
        self._marks: list[tuple[int, bytes]] = []  # every ``self._every`` lines
        self._every = CHECKPOINT_EVERY
        # where each turn begins: its first line (the initiative roll) shown, as a save's
        # replay shows a turn's start once the action that began it is applied
        self.turn_starts: list[int] = [0]
        self.position = 0
        turn, last = 0, start
        for i, (raw, ev) in enumerate(pairs, 1):
            self._check_line(ev, i)
            self._check_order(last, ev, i)
            self._check_fields(ev, i)
            if ev["turn"] > turn:
                turn = ev["turn"]
                self.turn_starts.append(i)
                self._turn_marks.append((i - 1, self._saved()))
            elif (i - 1) % self._every == 0 and i > 1:
                self._mark(i - 1)
            self._apply(ev, i)
            self.all_events.add(raw, ev)
            self.position, last = i, ev
            if progress is not None and i % PROGRESS_EVERY == 0:
                progress(i)
        self.unfinished = None
        if last["event"] != "end":
            self.unfinished = (
                f"{UNFINISHED}: its last line is in turn {last['turn']} ({last['phase']}) and "
                "no end line follows"
            )

    @classmethod
    def from_file(
        cls, path: str | os.PathLike, progress: Callable[[int, int], None] | None = None
    ) -> LogReplay:
        """The replay of a battle-log file, read as a stream (memory does not grow with the
        log). ``progress``, if given, is called now and then with the bytes read so far and
        the file's size. Raises LogReplayError naming the file."""
        where = str(path)
        size = 0
        with contextlib.suppress(OSError, ValueError):
            size = os.stat(path).st_size
        done = [0]

        def lines():
            for raw, ev in iter_json_lines(path, max_containers=LOG_CONTAINERS):
                done[0] += len(raw) + 1
                yield raw, ev

        report = None if progress is None else (lambda _n: progress(done[0], size))
        try:
            replay = cls(lines(), where, report, _raw=True)
        except JsonFileError as err:
            raise LogReplayError(str(err)) from None
        if progress is not None:
            progress(size, size)
        return replay

    # ------------------------------------------------------------------ checking lines

    def _check_line(self, ev, i: int) -> None:
        """The line against the log format (check_log_line)."""
        problems = check_log_line(ev, i)
        if problems:
            raise LogReplayError(f"{self.where}: line {i + 1}: {problems[0]}")

    def _check_order(self, last: dict, ev: dict, i: int) -> None:
        """Lines in the order a battle writes them: one start, first; turns that neither go
        back nor skip one nor pass the battle's last, each opening with its initiative roll;
        within a turn, phases in their order; nothing after the end."""
        at = f"{self.where}: line {i + 1}"
        if ev["event"] == "start":
            raise LogReplayError(f"{at}: a second start line (a log holds one battle)")
        if last["event"] == "end":
            raise LogReplayError(f"{at}: a line after the end (line {i})")
        turn, before = ev["turn"], last["turn"]
        if turn < before:
            raise LogReplayError(f"{at}: turn {turn} after turn {before}: the turns go back")
        if turn > before + 1:
            raise LogReplayError(f"{at}: turn {turn} after turn {before}: a turn is missing")
        if turn > self.last_turn:
            raise LogReplayError(f"{at}: turn {turn}: the battle's last turn is {self.last_turn}")
        if turn > before and ev["event"] != "initiative":
            raise LogReplayError(
                f"{at}: turn {turn} begins with a {ev['event']} line, not its initiative roll"
            )
        phase, was = ev["phase"], last["phase"]
        if turn == before and phase_order().index(phase) < phase_order().index(was):
            raise LogReplayError(
                f"{at}: the {phase} phase after the {was} phase of turn {turn}: the phases go back"
            )

    def _check_fields(self, ev: dict, i: int) -> None:
        """Every field the replay and the log panel's sentence read, of its type."""
        bad = field_problem(ev, self.known)
        if bad is not None:
            raise LogReplayError(f"{self.where}: line {i + 1}: {bad}")

    # ------------------------------------------------------------------ checkpoints

    def _saved(self) -> bytes:
        """The view as it stands, pickled (a checkpoint)."""
        return pickle.dumps(self.view, protocol=pickle.HIGHEST_PROTOCOL)

    def _mark(self, position: int) -> None:
        """A checkpoint at ``position``; past MAX_CHECKPOINTS every other one is dropped and
        the gap between them doubles, so memory stays bounded however long the log."""
        self._marks.append((position, self._saved()))
        if len(self._marks) > MAX_CHECKPOINTS:
            self._every *= 2
            self._marks = [m for m in self._marks if m[0] % self._every == 0]

    def _initial_state(self) -> BattleState:
        """The state before any line after the start: the stands as set up, turn 0."""
        st = copy.deepcopy(self.battle.state)
        st.turn, st.phase, st.wrecks = 0, "setup", []
        return st

    # ------------------------------------------------------------------ reading lines

    def _stand(self, sid: str, i: int, field: str):
        """The stand a line names (its fields are checked: it is a stand of the start line)."""
        return self.view.state.stands[sid]

    def _bad(self, i: int, field: str, why: str) -> LogReplayError:
        return LogReplayError(f"{self.where}: line {i + 1}: {field}: {why}")

    def _markers(self, s, after: dict) -> None:
        """A stand's markers as a line leaves them (checked: S, D, eliminated of true/false)."""
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
        self._advance(ev)
        if name == "regroup":
            s = self._stand(ev["stand"], i, "stand")
            s.group, s.hq, s.ghq = ev["group"], ev["hq"], ev["ghq"]
        elif name == "posture":
            self._posture_line(ev, i)
        elif name == "fire":
            a = self._stand(ev["attacker"], i, "attacker")
            t = self._stand(ev["target"], i, "target")
            a.fire_attempts += 1
            if "target_markers_after" in ev:
                self._markers(t, ev["target_markers_after"])
            if ev.get("depleted") is True:
                a.depleted = True
        elif name == "move_attempt":
            self._attempt(ev, i)
        elif name == "move":
            self._move(ev, i)
        elif name == "marker_removal":
            s = self._stand(ev["stand"], i, "stand")
            self._markers(s, ev["markers_after"])
        elif name == "resupply":
            s = self._stand(ev["stand"], i, "stand")
            if ev["passed"] is True:
                s.depleted = False
        elif name == "end_turn":
            for s in st.stands.values():
                s.fire_attempts = 0
        elif name in ("overrun", "close_assault"):
            self._close_combat(ev, i)
        elif name in ("impact", "air_strike"):
            if ev.get("target") is not None and "target_markers_after" in ev:
                t = self._stand(ev["target"], i, "target")
                self._markers(t, ev["target_markers_after"])
        elif name == "artillery":
            self._artillery(ev)
        elif name in ("mount", "unload"):
            self._carriage(ev, i)

    def _advance(self, ev: dict) -> None:
        """Bring the view's turn and phase up to line ``ev``'s: a new turn clears movement
        points spent and fire attempts (turns.start_turn); leaving a movement phase gives
        straggled stands back their groups (movement.restore_groups); entering marker
        removal lifts impact markers and smoke at its last turn (002 step 8); in WWII the
        postures follow (``_postures``)."""
        st = self.view.state
        if ev["turn"] > st.turn:
            for s in st.stands.values():  # a new turn (turns.start_turn)
                s.mp_spent, s.fire_attempts = 0.0, 0
        if st.straggled and (ev["phase"] != "movement" or ev["turn"] != st.turn):
            for sid, group in st.straggled.items():  # movement.restore_groups
                st.stands[sid].group = group
            st.straggled.clear()
        removal = ev["phase"] == "marker_removal" and (ev["turn"], "marker_removal") != (
            st.turn,
            st.phase,
        )
        st.turn, st.phase = ev["turn"], ev["phase"]
        if removal:  # impact markers off, and smoke at its last turn (002 step 8)
            clear_markers_of(st)
        if self.wwii:
            self._postures(ev)

    def _posture_line(self, ev: dict, i: int) -> None:
        """A posture line (line ``i``): its stands take the movement or firing posture; in
        WWII and Wehrmacht '47 stands moving form the line's movement group (001 5.0 step
        2), while the full Modern game's TL1 postures keep their battle groups."""
        moving = ev.get("posture", "move") == "move"
        regroup = self.wwii and moving
        for sid in ev["stands"]:
            s = self._stand(sid, i, "stands")
            s.posture = "movement" if moving else "firing"
            if regroup:
                s.group = ev["group"]

    def _close_combat(self, ev: dict, i: int) -> None:
        """An overrun or close assault line (line ``i``): each attack's target takes its
        markers after; a defender driven back (004) goes 1" back with its riders, to the
        last point of the retreat path, or is eliminated where the path is only its start."""
        st = self.view.state
        for attack in (
            ev.get("attack_on_defender"),
            ev.get("attack_on_attacker"),
            ev.get("defender_attack"),
            *ev.get("assaulter_attacks", ()),
        ):
            if attack is not None:
                t = self._stand(attack["target"], i, "target")
                self._markers(t, attack["target_markers_after"])
        back = ev.get("retreat")
        if back:  # 004: 1" back, or eliminated where it could not (a path of its start)
            d = self._stand(ev["defender"], i, "defender")
            if len(back) > 1:
                d.x, d.y = (float(v) for v in back[-1][:2])
                for r in st.stands.values():  # its riders go with it
                    if r.carried_by == d.id:
                        r.x, r.y = d.x, d.y
            else:
                d.eliminated = True

    def _carriage(self, ev: dict, i: int) -> None:
        """A mount or unload line (line ``i``): the stand goes aboard its carrier, or off it,
        at the line's position (x, y inches, facing degrees); unloaded, it takes the markers
        it came off with, and one eliminated aboard leaves no wreck."""
        s = self._stand(ev["stand"], i, "stand")
        s.carried_by = ev["carrier"] if ev["event"] == "mount" else None
        s.x, s.y, s.facing_deg = (float(v) for v in ev["pos"][:3])
        after = ev.get("markers_after") if ev["event"] == "unload" else None
        if after is not None:
            s.S, s.D = after["S"], after["D"]
            s.eliminated = s.eliminated or after["eliminated"]  # lost aboard: no wreck

    def _artillery(self, ev: dict) -> None:
        """A mission lands: its firers have fired (each that rolled), its impact markers (HE)
        or smoke areas lie where they fell."""
        st = self.view.state
        for sid in ev["cohesion"]:
            st.stands[sid].fire_attempts += 1
        for k, (x, y) in enumerate(ev["markers"]):
            mid = f"{ev['mission']}.{k + 1}"
            if ev["ammo"] == "smoke":
                st.smoke.append(SmokeArea(mid, float(x), float(y), ev["turn"] + 1))
            else:
                st.impacts.append(Impact(mid, ev["mission"], ev["side"], "", float(x), float(y)))

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
        x, y = ev["path"][-1]
        if not self.battle.table.on_table(x, y):
            raise self._bad(i, "path", f"ends off the table at ({x}, {y})")
        s.x, s.y, s.facing_deg = float(x), float(y), float(ev["facing_deg"]) % 360.0
        s.on_table = True
        s.mp_spent += float(ev["mp_spent"])
        for r in self.view.state.stands.values():  # riders go where their carrier goes
            if r.carried_by == s.id:
                r.x, r.y, r.facing_deg, r.on_table = s.x, s.y, s.facing_deg, True

    # ------------------------------------------------------------------ moving about

    @property
    def length(self) -> int:
        """How many lines the log has after its start line."""
        return len(self.all_events) - 1

    @property
    def events(self) -> Sequence[dict]:
        """The log's lines up to the current position (the start line first)."""
        return _Prefix(self.all_events, self.position + 1)

    def goto(self, position: int) -> None:
        """Show the table after ``position`` lines (clamped to 0..length): the last
        checkpoint at or before it, then the lines up to it."""
        position = max(0, min(self.length, position))
        if position == self.position:
            return
        if position < self.position or position - self.position > self._every:
            at, saved = self._turn_marks[
                bisect.bisect_right(self._turn_marks, position, key=lambda m: m[0]) - 1
            ]
            k = bisect.bisect_right(self._marks, position, key=lambda m: m[0]) - 1
            if k >= 0 and self._marks[k][0] > at:
                at, saved = self._marks[k]
            if not (at <= self.position <= position):  # else going on from here is shorter
                self.view = pickle.loads(saved)
                self.battle.state = self.battle.ctx.state = self.view.state
                self.position = at
        while self.position < position:
            self.position += 1
            self._apply(self.all_events[self.position], self.position)
