"""Actions: what a side may do, as small frozen dataclasses.

The window, the AI, the random player and saved games all produce the same actions, and
``Battle.apply`` is the one place that carries them out. Each action converts to and from a
plain dict (``to_dict`` / :func:`action_from_dict`) for save files.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, fields
from typing import ClassVar


@dataclass(frozen=True)
class Action:
    """Base of every action; ``side`` is the side taking it."""

    side: str
    kind: ClassVar[str] = "action"

    def to_dict(self) -> dict:
        """A JSON-ready dict with the action's ``kind``."""
        d = asdict(self)
        for k, v in d.items():
            if isinstance(v, tuple):
                d[k] = [list(x) if isinstance(x, tuple) else x for x in v]
        return {"kind": self.kind, **d}


@dataclass(frozen=True)
class Pass(Action):
    """Pass the side's turn to act in the current phase (000 07.02.04): the phase ends when both
    sides pass one after the other. In the set-up phase: done organising."""

    kind: ClassVar[str] = "pass"


@dataclass(frozen=True)
class Regroup(Action):
    """Put a stand into another battle group; only before turn 1 (000 05.00 phase 0,
    08.01.01)."""

    stand: str
    group: str
    kind: ClassVar[str] = "regroup"


@dataclass(frozen=True)
class ChooseFirst(Action):
    """The side with the initiative chooses which side acts first in this phase
    (000 07.02.04, 08.02.04)."""

    first: str
    kind: ClassVar[str] = "choose_first"


@dataclass(frozen=True)
class DeclareGroup(Action):
    """Commit stands to the movement posture for this turn as one movement group (WWII,
    001 5.0 step 2, 8.1.2): ``stands`` are the side's stands on the table not yet declared,
    each in base contact with another of them (a chain). A side declares all its groups of two
    or more stands before any one-stand group. Stands never declared are in the firing
    posture."""

    stands: tuple[str, ...]
    kind: ClassVar[str] = "declare_group"


@dataclass(frozen=True)
class Fire(Action):
    """One attack: a target and every stand that fires at it, designated together
    (000 07.04). ``weapons`` gives each attacker's weapon ("cannon" or "atgm"), in order."""

    target: str
    attackers: tuple[str, ...]
    weapons: tuple[str, ...]
    kind: ClassVar[str] = "fire"


@dataclass(frozen=True)
class MoveAttempt(Action):
    """Try to move a battle group: ``ordered`` burns a movement order; otherwise the group
    moves independently at +3, once a phase, when the side has no orders left (000 08.02)."""

    group: str
    ordered: bool
    kind: ClassVar[str] = "move_attempt"


@dataclass(frozen=True)
class Move(Action):
    """Move one stand of the group whose attempt succeeded: ``path`` is the polyline of its
    centre in inches (for a stand entering the table, starting on its side's edge), and
    ``facing_deg`` its facing at the end (000 08.03.08). The stand walks as far as it can pay
    for; the enemy may interrupt it with opportunity fire."""

    stand: str
    path: tuple[tuple[float, float], ...]
    facing_deg: float
    kind: ClassVar[str] = "move"


@dataclass(frozen=True)
class EndMoves(Action):
    """Finish the current movement action (the group's other stands stay where they are)."""

    kind: ClassVar[str] = "end_moves"


@dataclass(frozen=True)
class OpportunityFire(Action):
    """Interrupt the enemy's move at step ``step`` of its path (0 = where it started) and attack
    it there with ``attackers`` (000 07.06.05)."""

    step: int
    attackers: tuple[str, ...]
    weapons: tuple[str, ...]
    kind: ClassVar[str] = "opportunity_fire"


@dataclass(frozen=True)
class LetPass(Action):
    """Let the enemy's move go without opportunity fire."""

    kind: ClassVar[str] = "let_pass"


@dataclass(frozen=True)
class CoveringFire(Action):
    """Answer an enemy stand that has just opportunity-fired at our moving stand: attack it
    with ``attackers`` at +3 to their cohesion rolls (WWII, 001 7.5)."""

    target: str
    attackers: tuple[str, ...]
    weapons: tuple[str, ...]
    kind: ClassVar[str] = "covering_fire"


@dataclass(frozen=True)
class EndCoveringFire(Action):
    """Make no (more) covering fire: the moving stand goes on (001 7.5)."""

    kind: ClassVar[str] = "end_covering_fire"


@dataclass(frozen=True)
class Mount(Action):
    """Full games: personnel stand ``stand``, in base contact with the friendly ``carrier``,
    boards it as the carrier's move begins (rules-decisions "Transport"): the carrier must be
    of the moving group and not have moved yet; it then moves at most half its allowance."""

    carrier: str
    stand: str
    kind: ClassVar[str] = "mount"


@dataclass(frozen=True)
class Unload(Action):
    """Full games: the ``carrier`` (of the moving group), before or after its move, sets down
    ``stand`` in base contact with it at ``spot`` (0 behind it, 1 on its left, 2 on its right,
    3 in front), facing as the carrier does; the stand moves no further this phase
    (rules-decisions "Transport")."""

    carrier: str
    stand: str
    spot: int
    kind: ClassVar[str] = "unload"


@dataclass(frozen=True)
class CloseAssault(Action):
    """Full games: once its movement action is over, the moving side close-assaults the enemy
    stand ``defender`` with every stand of the group that ended its move in base contact with
    it (002/004 8.7)."""

    defender: str
    kind: ClassVar[str] = "close_assault"


@dataclass(frozen=True)
class AssaultReply(Action):
    """Full games: a close-assaulted stand whose cohesion roll passed attacks ``target``, one
    of the stands assaulting it, at -3 on the die (002/004 8.7)."""

    target: str
    kind: ClassVar[str] = "assault_reply"


@dataclass(frozen=True)
class EndCloseAssaults(Action):
    """Full games: make no (more) close assaults; the other side acts (002 8.7)."""

    kind: ClassVar[str] = "end_close_assaults"


@dataclass(frozen=True)
class ArtilleryFire(Action):
    """Direct artillery in the joint artillery fire phase (002/004 direct artillery fire
    procedure): ``firers``, artillery stands with sight and range to their aim points, each
    laying one impact marker of ``ammo`` ("he" or "smoke") centred at its point of
    ``sheaf`` (inches; the first is the aim point, each further one within 2" of one before
    it: rules-decisions "Artillery, smoke and air strikes")."""

    firers: tuple[str, ...]
    sheaf: tuple[tuple[float, float], ...]
    ammo: str
    kind: ClassVar[str] = "artillery_fire"


@dataclass(frozen=True)
class PlotMission(Action):
    """An indirect fire mission plotted in the joint plot phase (002 7.11; 004 7.8): the
    ``firers`` (artillery stands not yet plotted to land that turn), the ``sheaf`` of marker
    centres as for :class:`ArtilleryFire`, ``ammo`` "he" or "smoke", landing in the joint
    artillery phase of turn ``lands_turn`` (a later turn). Each firer needs only range, not
    sight, when it lands."""

    firers: tuple[str, ...]
    sheaf: tuple[tuple[float, float], ...]
    ammo: str
    lands_turn: int
    kind: ClassVar[str] = "plot_mission"


@dataclass(frozen=True)
class PlotAirStrike(Action):
    """An air strike plotted in the joint plot phase (002 7.13; 004 12.8, optional): one
    sortie of the side's air support ``aircraft`` flying ``path`` (inches: its entry point on
    a table edge, its point of attack, its exit point on a table edge), arriving in the joint
    artillery phase of turn ``lands_turn`` (a later turn)."""

    aircraft: str
    path: tuple[tuple[float, float], ...]
    lands_turn: int
    kind: ClassVar[str] = "plot_air_strike"


@dataclass(frozen=True)
class PlotHiddenMission(Action):
    """A network battle's indirect fire mission plotted unseen: the ``firers`` and
    ``lands_turn`` as in :class:`PlotMission`, and the ``commitment``
    (:func:`game.rules.fair.plot_commitment` of the whole :class:`PlotMission` and a salt)
    in place of its sheaf and ammunition, which the other machine never holds before
    :class:`RevealMission` (002 7.11; 004 7.8)."""

    firers: tuple[str, ...]
    lands_turn: int
    commitment: str
    kind: ClassVar[str] = "plot_hidden_mission"


@dataclass(frozen=True)
class PlotHiddenAirStrike(Action):
    """A network battle's air strike plotted unseen: the ``aircraft`` and ``lands_turn``
    as in :class:`PlotAirStrike`, its path only as the ``commitment`` (002 7.13)."""

    aircraft: str
    lands_turn: int
    commitment: str
    kind: ClassVar[str] = "plot_hidden_air_strike"


@dataclass(frozen=True)
class RevealMission(Action):
    """The ``sheaf`` and ``ammo`` of hidden ``mission`` and the commitment's ``salt``, shown
    as it lands, in the joint artillery phase; refused unless they match the
    commitment."""

    mission: str
    sheaf: tuple[tuple[float, float], ...]
    ammo: str
    salt: str
    kind: ClassVar[str] = "reveal_mission"


@dataclass(frozen=True)
class RevealAirStrike(Action):
    """The ``path`` of hidden air strike ``mission`` and the commitment's ``salt``, shown as
    it arrives; refused unless they match the commitment."""

    mission: str
    path: tuple[tuple[float, float], ...]
    salt: str
    kind: ClassVar[str] = "reveal_air_strike"


ACTIONS: dict[str, type[Action]] = {
    cls.kind: cls
    for cls in (
        Pass,
        Regroup,
        ChooseFirst,
        DeclareGroup,
        Fire,
        MoveAttempt,
        Move,
        EndMoves,
        OpportunityFire,
        LetPass,
        CoveringFire,
        EndCoveringFire,
        Mount,
        Unload,
        CloseAssault,
        AssaultReply,
        EndCloseAssaults,
        ArtilleryFire,
        PlotMission,
        PlotAirStrike,
        PlotHiddenMission,
        PlotHiddenAirStrike,
        RevealMission,
        RevealAirStrike,
    )
}


MAX_PATH_POINTS = 1000
"""Most points a move's path may have in a file (a plotted path has a few dozen at the most);
more is refused before any work is done on it (20,000 points took 14 s and 1.7 GB)."""
MAX_COORD_IN = 10_000.0
"""Largest absolute coordinate of a path point in a file, inches (tables are far smaller)."""
MAX_FACING_DEG = 720.0
"""Largest absolute facing a move may name in a file, degrees (the engine takes it modulo
360)."""
MAX_IDS = 400
"""Most stand ids one action may list (a scenario has at most 400 stands)."""
MAX_ID_CHARS = 100
"""Longest id or name text an action field may hold."""


class ActionFieldError(ValueError):
    """An action's field of the wrong type or out of bounds: ``field`` names it (``path``,
    ``facing_deg``, ...) and ``problem`` says what is wrong, e.g. ``[3] must be a number``."""

    def __init__(self, field: str, problem: str):
        sep = "" if problem.startswith("[") else ": "
        super().__init__(f"{field}{sep}{problem}")
        self.field, self.problem = field, problem


def _text_problem(v) -> str | None:
    if not isinstance(v, str):
        return f"must be text, not {describe_value(v)}"
    if not 0 < len(v) <= MAX_ID_CHARS:
        return f"must be 1 to {MAX_ID_CHARS} characters, not {len(v)}"
    return None


def _number_problem(v, bound: float) -> str | None:
    if isinstance(v, bool) or not isinstance(v, int | float):
        return f"must be a number, not {describe_value(v)}"
    if not -bound <= v <= bound:  # NaN and infinities fail this too
        return f"must be a number from {-bound:g} to {bound:g}, not {describe_value(v)}"
    return None


def _field_problem(annotation: str, v) -> str | None:
    """What is wrong with one field's value for its declared type, or None (bools are
    not numbers, ``"yes"`` is not true, every number finite and bounded)."""
    if annotation == "str":
        return _text_problem(v)
    if annotation == "bool":
        return None if isinstance(v, bool) else f"must be true or false, not {describe_value(v)}"
    if annotation == "int":
        if isinstance(v, bool) or not isinstance(v, int):
            return f"must be a whole number, not {describe_value(v)}"
        return None if 0 <= v <= 1_000_000 else f"must be from 0 to 1000000, not {v}"
    if annotation == "float":
        return _number_problem(v, MAX_FACING_DEG)
    if annotation == "tuple[str, ...]":
        if not isinstance(v, list):
            return f"must be a list of ids, not {describe_value(v)}"
        if len(v) > MAX_IDS:
            return f"lists {len(v)} ids, more than {MAX_IDS}"
        for i, x in enumerate(v):
            problem = _text_problem(x)
            if problem:
                return f"[{i}]: {problem}"
        return None
    if annotation == "tuple[tuple[float, float], ...]":
        if not isinstance(v, list) or not v:
            return f"must be a list of [x, y] points, not {describe_value(v)}"
        if len(v) > MAX_PATH_POINTS:
            return f"has {len(v)} points, more than {MAX_PATH_POINTS}"
        for i, pt in enumerate(v):
            if not isinstance(pt, list) or len(pt) != 2:
                return f"[{i}]: must be a point [x, y] in inches, not {describe_value(pt)}"
            for c in pt:
                problem = _number_problem(c, MAX_COORD_IN)
                if problem:
                    return f"[{i}]: {problem}"
        return None
    raise AssertionError(f"no check for an action field of type {annotation}")  # a new field


def describe_value(value) -> str:
    """A value as an error names it: ``null``, ``true``, ``"abc"``, ``2.5``, ``a list``, ``an
    object``; JSON cut short past 30 characters."""
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "an object"
    text = json.dumps(value)
    return text if len(text) <= 30 else f"{text[:24]}...{text[-3:]}"


def action_from_dict(d: dict) -> Action:
    """Rebuild an action from :meth:`Action.to_dict` output (a save's or an autosave's line),
    checking every field's type exactly: text ids of 1 to 100 characters, true/false for
    ``ordered``, whole numbers for ``step``, a facing from -720 to 720 degrees, a path of 1 to
    :data:`MAX_PATH_POINTS` points with coordinates within +-10,000 inches, at most 400 ids in a
    list.

    Raises ValueError naming the field for an unknown kind, missing or unknown fields, or a
    field of the wrong type or out of bounds.
    """
    if not isinstance(d, dict):
        raise ValueError(f"must be an action (an object), not {describe_value(d)}")
    d = dict(d)
    kind = d.pop("kind", None)
    cls = ACTIONS.get(kind) if isinstance(kind, str) else None
    if cls is None:
        raise ValueError(f"unknown action kind {describe_value(kind)}")
    declared = {f.name: f.type for f in fields(cls)}
    if set(d) != set(declared):
        raise ValueError(f"action {kind!r} needs fields {sorted(declared)}, got {sorted(d)}")
    for k, v in d.items():
        problem = _field_problem(str(declared[k]), v)
        if problem:
            raise ActionFieldError(k, problem)
        if isinstance(v, list):
            d[k] = tuple(tuple(x) if isinstance(x, list) else x for x in v)
    return cls(**d)
