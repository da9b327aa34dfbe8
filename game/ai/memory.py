"""What the scripted AI remembers from one decision to the next: one object that every part
of it is handed (:class:`Memory`), so what a part keeps and what another reads of it is
written in one place, each field with what it holds and its key."""

from __future__ import annotations

from dataclasses import dataclass, field

from game.ai.values import Option


@dataclass
class Memory:
    """The scripted AI's memory across its decisions of one battle. Every part of the AI
    (:mod:`game.ai.scripted`) is built with the same instance; nothing here is a rule, and
    nothing is ever drawn from the battle's dice. Units: stands (scores), inches (places),
    seconds (the look-ahead's clock). Never raises."""

    # -- the movement phase (game.ai.movement, game.ai.planner)
    stay: set = field(default_factory=set)
    """((turn, group), stand) that chose to stay where it is in that movement action."""
    waiting: set = field(default_factory=set)
    """((turn, group), stand) kept from going into the enemy's sight with too little company."""
    plans: dict = field(default_factory=dict)
    """((turn, group), stand) -> (the table then, its best move, staying's score, and the
    three sight answers below): the plans of the movement action at hand."""
    settled: set = field(default_factory=set)
    """(turn, side, group) given the chance to move with nothing worth moving."""
    exposed: list[bool] = field(default_factory=list)
    """Per pose last scored (``Positions.position_parts``): in an enemy's sight."""
    plan_exposed: bool = False
    """The last planned move ends in an enemy's sight."""
    stay_exposed: bool = False
    """The last planned stand is in an enemy's sight where it stands."""
    plan_hidden: Option | None = None
    """The last planned stand's best move out of every enemy's sight, or None."""
    alternatives: dict[str, tuple] = field(default_factory=dict)
    """Stand -> (staying's score, its best moves): the look-ahead's candidates."""
    path_kill: list[float] = field(default_factory=list)
    """Per path last weighed (``Positions.path_risks``): the best chance (0..1) of
    eliminating the stand on it."""
    # -- the posture phase (game.ai.posture)
    moved_better: dict[tuple, float] = field(default_factory=dict)
    """(turn, stand) -> what moving gains over its shot (``PostureChooser.better_moved``)."""
    offense: dict[str, float] = field(default_factory=dict)
    """Stand -> its best shot where it stands (``Situation.urgency``, asked last)."""
    # -- how the battle stands (game.ai.situation, game.ai.outcome, game.ai.positions)
    snap: dict[int, dict] = field(default_factory=dict)
    """Turn -> {stand id: (x, y, side)} as that turn began (for ``Situation.approach``)."""
    pace: dict[tuple, float] = field(default_factory=dict)
    """(turn, side, turns seen) -> ``Situation.approach``'s answer."""
    outlooks: dict[tuple, object] = field(default_factory=dict)
    """(turn, side, kills, losses) -> ``Outcome.outlook``'s answer."""
    hidden_at: dict[tuple, bool] = field(default_factory=dict)
    """(x, y) -> whether a stand there is deep inside terrain that blocks sight."""
    known_plots: dict[str, dict] = field(default_factory=dict)
    """A network battle's own hidden plots, by commitment ({"plot": action dict, ...}),
    which the engine holds only as commitments: set by the side's session."""
    # -- the look-ahead (game.ai.elite)
    spent: dict[tuple, float] = field(default_factory=dict)
    """(turn, side) -> seconds of look-ahead spent (this turn's only)."""
    looked: dict[str, list[int]] = field(default_factory=dict)
    """Decision kind -> [decisions searched, choices changed, rounds played]."""
    thought: object = None
    """What the last searched decision weighed (``game.ai.search.Thought``), or None."""
