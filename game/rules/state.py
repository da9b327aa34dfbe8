"""The battle state: stands with their markers, wrecks, the turn and phase, and who acts.

Plain mutable dataclasses owned by a :class:`game.rules.battle.Battle`; only the battle changes
them, through actions. :func:`state_hash` digests the whole state so a replay can prove it reached
the same place.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
from dataclasses import dataclass, field

from game.rules.charts.data import UnitType
from game.rules.table.geometry import StandPose


@dataclass
class StandState:
    """One stand during a battle.

    Position in inches (centre), ``facing_deg`` in degrees; markers ``S`` (suppressed), ``D``
    (disorganized); ``fire_attempts``: how many times it has tried to fire this turn (the fired
    marker, 000 07.06.05); ``fired_in``: the phases of this turn it tried to fire in;
    ``attacked_in``: the phases of this turn it was attacked in (000 07.02.03); ``moved``: it has
    moved this movement phase; ``depleted``: its ATGMs are used up (000 07.03.03);
    ``mp_spent``: movement points it has spent this turn (000 05.00 step 4).
    ``posture`` (WWII only, None in Modern and before it is set): "movement" or "firing" for
    this turn (001 5.0 step 2); in WWII ``group`` is then the stand's movement group for the
    turn ("" in the firing posture). ``clear_after_firing``: once it has fired this turn the
    stand counts as in clear terrain for sight (001 6.1.2).
    Full games (rules-decisions "The full games"): ``carried_by`` the carrier it rides in
    (it is then off the table's play: not active); ``movement_marker`` it moved this turn (or
    is in the movement posture) until marker removal; ``loaded`` as a carrier it loaded or
    unloaded this movement phase, so it moves at most half its allowance.
    ``artillery_fired`` it fired as artillery this turn, so it does not move (002 check list
    note 2); ``aa_fired`` (004) it fired at aircraft this turn, so it fires at no ground target.
    """

    id: str
    side: str
    unit_name: str
    unit: UnitType
    x: float
    y: float
    facing_deg: float
    on_table: bool
    group: str
    hq: bool = False
    ghq: bool = False
    S: bool = False
    D: bool = False
    eliminated: bool = False
    fire_attempts: int = 0
    fired_in: set[str] = field(default_factory=set)
    attacked_in: set[str] = field(default_factory=set)
    moved: bool = False
    depleted: bool = False
    posture: str | None = None
    clear_after_firing: bool = False
    mp_spent: float = 0.0
    carried_by: str | None = None
    movement_marker: bool = False
    loaded: bool = False
    artillery_fired: bool = False
    aa_fired: bool = False

    @property
    def active(self) -> bool:
        """On the table, not eliminated and not riding in a carrier."""
        return self.on_table and not self.eliminated and self.carried_by is None

    @property
    def personnel(self) -> bool:
        """A personnel stand (full games: infantry and teams); tanks are armoured."""
        return self.unit.defense_class == "personnel"

    @property
    def tech_level(self) -> int | None:
        """The stand's tech level (Modern), None for WWII tanks."""
        return self.unit.tech_level

    def pose(self) -> StandPose:
        """Where the stand is, for the geometry."""
        return StandPose(
            self.id,
            self.side,
            self.x,
            self.y,
            self.facing_deg,
            in_clear=self.clear_after_firing and self.fire_attempts > 0,
        )

    def markers(self) -> dict:
        """The markers as the battle log writes them: ``{"S", "D", "eliminated"}``."""
        return {"S": self.S, "D": self.D, "eliminated": self.eliminated}


@dataclass
class Wreck:
    """A wreck where a stand was eliminated (000 09.01): cover, never overlap, never blocks
    sight."""

    stand: str
    x: float
    y: float
    facing_deg: float

    def pose(self) -> StandPose:
        """The wreck as the geometry sees it."""
        return StandPose(f"wreck:{self.stand}", "", self.x, self.y, self.facing_deg, wreck=True)


@dataclass
class MovingGroup:
    """A movement action under way: the group whose cohesion roll passed and the stands that may
    move in it (stragglers left out, 000 08.02.09)."""

    side: str
    group: str
    ordered: bool
    stands: list[str]


@dataclass
class PendingMove:
    """A declared move waiting for the enemy's opportunity-fire answer (000 07.06.05).

    ``points`` are the step points the stand can walk, ``headings`` its heading at each, and
    ``offer`` maps a step index to the enemy stands (with weapon) that could fire there.
    ``blocker``: the enemy stand whose footprint stops the walk, when the stand will roll its
    nerve there to pass through it (001 8.3.6), and ``rest`` the path beyond that point;
    ``passed``: enemy stands already passed through in this move; ``walked_in``: inches walked
    in the move's earlier parts (they use up the free 1" move, 001 8.3.3).
    """

    side: str
    stand: str
    path: tuple[tuple[float, float], ...]
    facing_deg: float
    points: tuple[tuple[float, float], ...]
    headings: tuple[float, ...]
    step_costs: tuple[float, ...]
    mp_allowed: float
    stopped_by: str | None
    road_rate: tuple[bool, ...]
    entered: bool
    offer: dict[int, list[tuple[str, str]]]
    start_facing: float = 0.0
    setups: dict = field(default_factory=dict)
    blocker: str | None = None
    rest: tuple[tuple[float, float], ...] = ()
    passed: tuple[str, ...] = ()
    walked_in: float = 0.0


@dataclass
class CoveringWindow:
    """After an opportunity-fire attack, the moving side may answer each stand that took part
    with one covering-fire attack before its stand goes on (001 7.5). ``targets``: the
    opportunity firers not yet answered; ``step`` and ``go_on``: where the move was stopped and
    the mover's roll to go on, to finish the move with."""

    side: str
    move: PendingMove
    step: int
    go_on: dict
    targets: list[str]


@dataclass
class Mission:
    """A fire mission plotted in the joint plot phase for a later turn (002 7.11, 7.13;
    rules-decisions "Artillery, smoke and air strikes"): ``id`` ("m1", "m2", ...), the
    plotting ``side``, ``kind`` "artillery" or "air"; artillery: the ``firers`` (stand ids),
    one marker centre per firer in ``sheaf`` (inches; the first is the aim point), ``ammo``
    "he" or "smoke"; air: the ``aircraft`` row and its ``path`` (entry point on a table edge,
    point of attack, exit point); ``lands_turn`` the turn whose artillery phase it lands in.
    ``plotted_turn`` the turn it was plotted in."""

    id: str
    side: str
    kind: str
    lands_turn: int
    plotted_turn: int
    firers: tuple[str, ...] = ()
    sheaf: tuple[tuple[float, float], ...] = ()
    ammo: str = "he"
    aircraft: str | None = None
    path: tuple[tuple[float, float], ...] = ()


@dataclass
class Impact:
    """An impact marker on the table until marker removal (002 step 8): a 2" circle centred at
    (``x``, ``y``) inches, laid by ``firer`` (a stand id) of ``mission``; every stand it
    attacked (on landing, or on entering it in the movement phase) is in ``hit``, so none is
    attacked twice by one marker (rules-decisions "Artillery, smoke and air strikes")."""

    id: str
    mission: str
    side: str
    firer: str
    x: float
    y: float
    hit: set[str] = field(default_factory=set)


@dataclass
class SmokeArea:
    """A smoke area laid by a smoke mission: a 2" circle at (``x``, ``y``) inches that is smoke
    terrain (the chart's smoke row) until the marker removal phase of turn ``until_turn``
    (rules-decisions: the turn after it lands)."""

    id: str
    x: float
    y: float
    until_turn: int


@dataclass
class CloseAssaultState:
    """A close assault waiting for the defender's choice of which assaulting stand it attacks
    (002/004 8.7): ``side`` the assaulting side, ``defender``, the ``assaulters``, and the
    defender's cohesion roll, which passed."""

    side: str
    defender: str
    assaulters: list[str]
    defender_roll: dict


@dataclass
class BattleState:
    """Everything that changes during a battle.

    Full games: ``assault_open`` the movement action just ended, whose stands in base contact
    with the enemy may now close-assault (002 8.7); ``assault`` a close
    assault waiting for its defender's choice; ``assaulted`` the defenders close-assaulted in
    this movement phase (once each). ``missions`` plotted and not yet landed (the count of
    all ever plotted in ``missions_plotted``), ``impacts`` the impact markers on the table,
    ``smoke`` the smoke areas, ``sorties_flown`` each side's air strikes plotted so far.

    Network battles: ``hidden`` the commitment of each mission plotted unseen and not
    yet revealed (its sheaf, ammunition or path are then empty here, on both machines);
    ``chains`` each side's last hash-chain element used (the end it committed to, before
    the first action), None in other battles."""

    stands: dict[str, StandState]
    turn: int = 0
    phase: str = "setup"
    to_act: str | None = None
    initiative: str | None = None
    first_chosen: bool = False
    passes: int = 0
    orders: dict[str, int] = field(default_factory=dict)
    independent_used: set[str] = field(default_factory=set)
    groups_moved: set[str] = field(default_factory=set)
    moving: MovingGroup | None = None
    pending: PendingMove | None = None
    covering: CoveringWindow | None = None
    singles_declared: set[str] = field(default_factory=set)
    straggled: dict[str, str] = field(default_factory=dict)
    wrecks: list[Wreck] = field(default_factory=list)
    assault_open: MovingGroup | None = None
    assault: CloseAssaultState | None = None
    assaulted: set[str] = field(default_factory=set)
    attacks: int = 0
    missions: list[Mission] = field(default_factory=list)
    missions_plotted: int = 0
    impacts: list[Impact] = field(default_factory=list)
    smoke: list[SmokeArea] = field(default_factory=list)
    sorties_flown: dict[str, int] = field(default_factory=dict)
    hidden: dict[str, str] = field(default_factory=dict)
    chains: dict[str, str] | None = None
    finished: bool = False
    winner: str | None = None
    reason: str | None = None

    def losses(self, sides: list[str]) -> dict[str, int]:
        """Stands eliminated so far, by side."""
        return {
            s: sum(1 for st in self.stands.values() if st.side == s and st.eliminated)
            for s in sides
        }


def state_hash(state: BattleState, dice_digest: str) -> str:
    """A hex digest (16 characters) of the whole battle state and the dice's position."""
    doc = {
        "turn": state.turn,
        "phase": state.phase,
        "to_act": state.to_act,
        "initiative": state.initiative,
        "passes": state.passes,
        "orders": state.orders,
        "independent_used": sorted(state.independent_used),
        "groups_moved": sorted(state.groups_moved),
        "stands": [_stand_row(s) for s in state.stands.values()],
        "wrecks": [[w.stand, w.x, w.y, w.facing_deg] for w in state.wrecks],
        "moving": None if state.moving is None else [state.moving.group, state.moving.stands],
        "pending": None if state.pending is None else [state.pending.stand, state.pending.points],
        "finished": state.finished,
        **_optional_parts(state),
        "winner": state.winner,
        "dice": dice_digest,
    }
    text = json.dumps(doc, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def _stand_row(s: StandState) -> list:
    """One stand as ``state_hash`` digests it: id, group, place (inches, degrees), markers,
    fire and move bookkeeping (the sets sorted), then each of its other parts only when set:
    posture, movement points spent (rounded to 1e-6), carrier, movement marker, load, fire
    support fired."""
    return (
        [
            s.id,
            s.group,
            s.x,
            s.y,
            s.facing_deg,
            s.on_table,
            s.S,
            s.D,
            s.eliminated,
            s.fire_attempts,
            sorted(s.fired_in),
            sorted(s.attacked_in),
            s.moved,
            s.depleted,
        ]
        + ([s.posture] if s.posture is not None else [])
        + ([round(s.mp_spent, 6)] if s.mp_spent else [])
        + ([f"in:{s.carried_by}"] if s.carried_by else [])
        + (["moving"] if s.movement_marker else [])
        + (["loaded"] if s.loaded else [])
        + (["artillery_fired"] if s.artillery_fired else [])
        + (["aa_fired"] if s.aa_fired else [])
    )


def _optional_parts(state: BattleState) -> dict:
    """The parts of the state ``state_hash`` digests only when they are set (covering
    fire, single declarations, stragglers, close assaults, fire support, smoke, sorties,
    hidden stands, chains), as a dict to merge into its document; sets and maps sorted."""
    return {
        **(
            {"covering": [state.covering.step, state.covering.targets]}
            if state.covering is not None
            else {}
        ),
        **({"singles": sorted(state.singles_declared)} if state.singles_declared else {}),
        **({"straggled": sorted(state.straggled.items())} if state.straggled else {}),
        **(
            {"assault_open": [state.assault_open.group, state.assault_open.stands]}
            if state.assault_open
            else {}
        ),
        **(
            {"assault": [state.assault.defender, state.assault.assaulters]} if state.assault else {}
        ),
        **({"assaulted": sorted(state.assaulted)} if state.assaulted else {}),
        **(
            {"missions": [dataclasses.astuple(m) for m in state.missions]} if state.missions else {}
        ),
        **({"plotted": state.missions_plotted} if state.missions_plotted else {}),
        **(
            {"impacts": [[i.id, i.x, i.y, sorted(i.hit)] for i in state.impacts]}
            if state.impacts
            else {}
        ),
        **({"smoke": [[a.id, a.x, a.y, a.until_turn] for a in state.smoke]} if state.smoke else {}),
        **({"sorties": sorted(state.sorties_flown.items())} if state.sorties_flown else {}),
        **({"hidden": sorted(state.hidden.items())} if state.hidden else {}),
        **({"chains": sorted(state.chains.items())} if state.chains is not None else {}),
    }
