"""Actions: what a side may do, as small frozen dataclasses.

The window, the AI, the random player and saved games all produce the same actions, and
``Battle.apply`` is the one place that carries them out. Each action converts to and from a
plain dict (``to_dict`` / :func:`action_from_dict`) for save files.
"""

from __future__ import annotations

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
    )
}


def action_from_dict(d: dict) -> Action:
    """Rebuild an action from :meth:`Action.to_dict` output.

    Raises ValueError for an unknown kind or missing/unknown fields.
    """
    d = dict(d)
    kind = d.pop("kind", None)
    cls = ACTIONS.get(kind)
    if cls is None:
        raise ValueError(f"unknown action kind {kind!r}")
    names = {f.name for f in fields(cls)}
    if set(d) != names:
        raise ValueError(f"action {kind!r} needs fields {sorted(names)}, got {sorted(d)}")
    for k, v in d.items():
        if isinstance(v, list):
            d[k] = tuple(tuple(x) if isinstance(x, list) else x for x in v)
    return cls(**d)
