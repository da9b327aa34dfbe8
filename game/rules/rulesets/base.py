"""What a ruleset is made of: a frozen :class:`Ruleset` (id, title, card, turn, features)
holding its policies: who may fire when (:class:`FirePolicy`), how far a stand moves and
what opportunity fire does to a mover (:class:`MovementPolicy`), and the full games' cards
for close assault (:class:`AssaultCard`) and fire support (:class:`SupportCard`).

The engine's procedures ask these objects; the UI and the AI ask ``battle.rules.has(...)``
and never compare ruleset ids. Each ruleset's own module (``modern.py``, ``wwii.py``,
``modern_full.py``, ``wwii47.py``) builds its ``RULESET`` from them.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from game.rules.phases import Phase, setup
from game.rules.rulesets.cards import AssaultCard, SupportCard
from game.rules.state import StandState

FEATURES = frozenset(
    {
        "postures",  # every stand takes a posture each turn (001 5.0 step 2; 004 step 2)
        "tl1_postures",  # only TL1 stands declare moving or firing (002 step 1, note 1)
        "tl2_fire_and_move",  # a TL2 stand in the movement posture may fire first (004)
        "covering_fire",  # answering opportunity fire (001 7.5)
        "pass_through",  # a nerve roll to pass through an enemy tank stand (001 8.3.6)
        "personnel",  # personnel stands and defence classes (002, 004)
        "transport",  # carriers, riders, loading and unloading (RD "Transport")
        "overrun",  # a vehicle drives through enemy stands (002/004 8.6)
        "close_assault",  # (002/004 8.7)
        "movement_markers",  # (RD "Movement markers")
        "recon_groups",  # an "R" group rolls without the independent +3 (002)
        "obstacles",  # wire and minefields in the cohesion roll to move (RD "Terrain")
        "support_fire",  # artillery, smoke and plotted missions (002, 004)
        "air_strikes",  # (002 air strike procedure; 004 optional air strikes)
        "full_log",  # the log's "Lines of the full games" (event-log.md)
        "hq_points_doubled",  # HQ and GHQ stands count twice in points (000 scenario sheet)
    }
)
"""Every feature a ruleset may play, each with the rule it stands for. ``Ruleset.has`` raises
for a name not listed here, so a misspelt feature is an error rather than a silent "no"."""

FULL_GAME_FEATURES = frozenset(
    {
        "personnel",
        "transport",
        "overrun",
        "close_assault",
        "movement_markers",
        "recon_groups",
        "obstacles",
        "support_fire",
        "air_strikes",
        "full_log",
        "hq_points_doubled",
    }
)
"""What both full games (002 and 004) add to their introductory rules (rules-decisions "The
full games")."""


def tech_level(stand: StandState) -> int:
    """A stand's tech level, 0 when its unit has none (the WWII introductory data)."""
    return stand.tech_level or 0


@dataclass(frozen=True)
class FirePolicy:
    """Who may fire when, and how the combat results table's ``-S-`` cells read: the Modern
    introductory rules (000 05.00, 07.02.03, 07.06.05). Subclasses are the other rulesets'.

    ``clear_after_firing``: a stand that fired is in clear terrain for sight and cohesion for
    the rest of the turn (001 6.1.2); Modern keeps its cover (000 07.01.03)."""

    clear_after_firing: bool = False

    def may_fire_in(self, stand: StandState, phase: str) -> bool:
        """Whether a stand may fire in the fire phase called ``phase`` (000 05.00): in the 1st
        fire phase only TL4 stands; in the 2nd, TL4 stands that have not fired in this phase
        and every other stand that has not tried to fire this turn."""
        if phase in stand.fired_in:
            return False
        if phase == "fire1":
            return self.fires_in_first_phase(stand)
        if tech_level(stand) >= 4:
            return stand.fire_attempts < 2
        return stand.fire_attempts == 0

    def fires_in_first_phase(self, stand: StandState) -> bool:
        """Whether the stand's tech level lets it fire in the 1st fire phase of a turn, before
        any lower tech level can fire (000 05.00 step 2: TL4 only), whatever it did this turn.
        Planning asks this of the next turn; :meth:`may_fire_in` answers for the phase at hand."""
        return tech_level(stand) >= 4

    def shots_per_turn(self, stand: StandState) -> int:
        """How many times a stand may fire in one turn's fire phases (000 05.00): a TL4 stand
        in the 1st and again in the 2nd, any other once."""
        return 2 if tech_level(stand) >= 4 else 1

    def may_opportunity_fire(self, stand: StandState) -> bool:
        """Opportunity fire (000 07.06.05): a TL4 stand that has tried to fire at most once this
        turn, any other stand that has not tried at all; never a TL2 stand that has spent more
        than half its movement points this turn (000 05.00 step 4)."""
        if self.fire_refusal(stand):
            return False
        return stand.fire_attempts <= 1 if tech_level(stand) >= 4 else stand.fire_attempts == 0

    def fire_refusal(self, stand: StandState) -> str | None:
        """Why a stand may not fire at all this turn, or None: a TL2 stand either moves its
        whole allowance or fires once and moves at most half, so one that has spent more than
        half its movement points (movement points) may not fire, opportunity fire included
        (000 05.00 step 4)."""
        if tech_level(stand) <= 2 and stand.mp_spent > stand.unit.speed / 2 + 1e-9:
            return (
                f"{stand.id} is tech level 2 and has spent {stand.mp_spent:.1f} of its "
                f"{stand.unit.speed:g} movement points this turn: more than half, so it may not "
                "fire this turn (000 05.00 step 4)"
            )
        return None

    def attack_refused(self, target: StandState, kind: str, phase: str) -> str | None:
        """Why ``target`` may not be attacked now, or None: once in each fire phase and once
        by opportunity fire in a movement phase (000 07.02.03)."""
        if kind == "standard" and phase in target.attacked_in:
            return f"{target.id} has already been attacked in this phase"
        if kind == "opportunity" and "movement" in target.attacked_in:
            return f"{target.id} has already been attacked by opportunity fire this phase"
        return None

    def dash_s(self, unit) -> str:
        """What a ``-S-`` CRT cell does for a firer of ``unit``: only the full games' tables
        have such cells (002 CRT notes), so outside them it is S."""
        return "S"


@dataclass(frozen=True)
class MovementPolicy:
    """How far a stand moves (movement points, 1 MP = 1 inch of clear ground) and what follows
    opportunity fire on a mover: the Modern introductory rules (000 05.00 step 4, 07.06.05).

    ``transport``: a carrier that loads or unloads this phase moves at most half its speed
    (rules-decisions "Transport"), in the full games."""

    transport: bool = False

    def movement_points(self, stand: StandState) -> float:
        """Movement points this phase: the stand's speed, halved for a TL2 stand that tried to
        fire this turn (000 05.00 step 4)."""
        speed = float(stand.unit.speed)
        mp = speed / 2 if tech_level(stand) <= 2 and stand.fire_attempts > 0 else speed
        return self._loading(stand, mp)

    def _loading(self, stand: StandState, mp: float) -> float:
        if self.transport and stand.loaded:
            return min(mp, float(stand.unit.speed) / 2)
        return mp

    def roll_to_go_on(self, result: str) -> bool:
        """After opportunity fire the mover rolls cohesion to go on, whatever the result
        (000 07.06.05 part 3)."""
        return True


@dataclass(frozen=True)
class Ruleset:
    """One ruleset as the engine plays it.

    id : the id a scenario names ("modern", "wwii", "modern-full", "wwii-47").
    title : its name for a player. card : the seed card whose sequence of play it follows
    ("000", "001", "002", "004"). turn : its phases in order (the set-up is ``setup``).
    initiative_dice : D6 rolled for initiative (000 05.00: 2; 001 5.0: 1).
    features : what it plays, a subset of :data:`FEATURES`. fire, movement : its policies.
    assault, support : the full games' close-assault and fire-support cards (None in the
    introductory rules)."""

    id: str
    title: str
    card: str
    turn: tuple[Phase, ...]
    initiative_dice: int
    fire: FirePolicy
    movement: MovementPolicy
    features: frozenset[str] = frozenset()
    assault: AssaultCard | None = None
    support: SupportCard | None = None
    setup: Phase = field(default=setup.PHASE)

    def __post_init__(self) -> None:
        unknown = self.features - FEATURES
        if unknown:
            raise ValueError(f"{self.id}: unknown features {sorted(unknown)}")

    def has(self, feature: str) -> bool:
        """Whether the ruleset plays ``feature`` (one of :data:`FEATURES`). Raises KeyError for
        a name that is no feature."""
        if feature not in FEATURES:
            raise KeyError(f"no such feature: {feature!r}")
        return feature in self.features

    @property
    def postures(self) -> bool:
        """Whether every stand takes a posture each turn (001 5.0 step 2; 004 step 2). The full
        Modern game's TL1 postures are not this: there only TL1 stands take one."""
        return "postures" in self.features

    @property
    def name(self) -> str:
        """The ruleset's id (the name error messages use)."""
        return self.id

    def phase_named(self, name: str | None) -> Phase | None:
        """The phase of the turn called ``name`` (None for set-up, the end, or no such)."""
        return next((p for p in self.turn if p.name == name), None)

    def phases(self) -> tuple[Phase, ...]:
        """Every phase the ruleset plays, set-up first."""
        return (self.setup, *self.turn)


def half_up_to_step(speed: float) -> float:
    """Half of ``speed`` (inches) rounded up to the table's 0.5" step (004 step 6)."""
    return math.ceil(speed) / 2
