"""The battle engine: one battle's state, rules and dice, moved on by actions.

``Battle(scenario, seed)`` starts a battle; ``legal_actions()`` says what the side to act may do;
``apply(action)`` carries an action out (raising :class:`IllegalAction` with the reason if it
is not allowed) and returns the battle-log events it produced. ``sight``, ``odds`` and
``preview_move`` answer the questions the window and the AI ask, through the same functions
the rules use. ``save`` writes the scenario, seed and actions; ``Battle.load`` replays them and
checks the state hash.
"""

from __future__ import annotations

import json
import math
import os
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import shapely

from game.rules import combat
from game.rules.actions import (
    Action,
    ChooseFirst,
    CoveringFire,
    DeclareGroup,
    EndCoveringFire,
    EndMoves,
    Fire,
    LetPass,
    Move,
    MoveAttempt,
    OpportunityFire,
    Pass,
    Regroup,
    action_from_dict,
)
from game.rules.combat import FireSetup, illegal, marker_mods
from game.rules.dice import Dice
from game.rules.flow import RULESETS, Phase
from game.rules.geometry import (
    FREE_MOVE_IN,
    STAND_SIZE_IN,
    STEP_IN,
    StandPose,
    Walk,
    base_contact,
    engaged,
    footprint,
    footprints,
    in_front_arc,
    overlaps,
    path_after,
)
from game.rules.log import FORMAT, LogWriter, mods_json, pos
from game.rules.scenario import Scenario, ScenarioError, parse_scenario, write_atomic
from game.rules.state import (
    BattleState,
    CoveringWindow,
    MovingGroup,
    PendingMove,
    StandState,
    Wreck,
    state_hash,
)

SAVE_FORMAT = "hulldown-save/1"
COVERING_FIRE_MOD = 3  # cohesion penalty of covering fire: little time to sight (001 7.5.3)
PASS_THROUGH_MOD = (
    3  # cohesion penalty of the nerve roll to pass through an enemy stand (001 8.3.6)
)


class IllegalAction(ValueError):
    """An action the rules do not allow now; the message says why."""


class SaveError(ValueError):
    """A save file that cannot be loaded; the message names the file, the field and the
    problem."""


@dataclass(frozen=True)
class SightInfo:
    """Sight as a fire check needs it: clear, centre range (inches), range band (whole inches),
    aspect ("front"/"flank"), base contact."""

    clear: bool
    range_in: float
    range_band_in: int
    aspect: str
    in_contact: bool


def sight_info(m, i: int, j: int) -> SightInfo:
    """The fire check's view of pair (i, j) of a :class:`SightMatrix` (firer i, target j)."""
    return SightInfo(
        bool(m.clear[i, j]),
        float(m.range_in[i, j]),
        int(m.range_band_in[i, j]),
        "front" if m.front[i, j] else "flank",
        False,
    )


class Battle:
    """One battle of a scenario with a seed.

    Parameters
    ----------
    scenario : Scenario
        A validated scenario (``game.load_scenario``).
    seed : int
        Seeds the battle's dice.
    dice : Dice, optional
        Other dice (tests pass ``FixedDice``).
    log_path : path, optional
        Where to write the battle log (``hulldown-log/1``) as the battle goes.
    autosave : path, optional
        Where to save after every action (atomically).

    Raises
    ------
    ScenarioError
        The scenario's ruleset has no sequence of play built (none so far: Modern and WWII
        both play).
    """

    def __init__(
        self,
        scenario: Scenario,
        seed: int,
        dice: Dice | None = None,
        log_path: str | os.PathLike | None = None,
        autosave: str | os.PathLike | None = None,
    ):
        if scenario.ruleset not in RULESETS:
            raise ScenarioError(
                [
                    f"{scenario.path}: $.ruleset: the {scenario.ruleset} sequence "
                    f"of play is not built yet (built: {', '.join(RULESETS)})"
                ]
            )
        self.scenario = scenario
        self.seed = int(seed)
        self.dice = dice if dice is not None else Dice(self.seed)
        self.rules = RULESETS[scenario.ruleset]
        self.data = scenario.data
        self.table = scenario.table
        self.ruleset_data = self.data.rulesets[scenario.ruleset]
        self.crt = self.data.crts[self.ruleset_data.crt]
        spec = scenario.spec
        self.sides = [s.id for s in spec.sides]
        self.side_spec = {s.id: s for s in spec.sides}
        self.sighting_in = spec.max_sighting_in
        self.totals = {s: sum(1 for st in spec.stands if st.side == s) for s in self.sides}
        stands = {}
        for st in spec.stands:
            stands[st.id] = StandState(
                id=st.id,
                side=st.side,
                unit_name=st.unit,
                unit=scenario.units[st.id],
                x=st.x,
                y=st.y,
                facing_deg=st.facing_deg % 360.0,
                on_table=st.on_table,
                group=st.group,
                hq=st.hq,
                ghq=st.ghq,
                clear_after_firing=self.rules.clear_after_firing,
            )
        self.state = BattleState(stands=stands)
        self.actions: list[Action] = []
        self.autosave = autosave
        self.log_path = log_path
        self.meta: dict = {}  # kept in saves as it is (e.g. who plays each side)
        self.log = LogWriter(log_path)
        self._new: list[dict] = []
        self._event(
            "start",
            format=FORMAT,
            ruleset=scenario.ruleset,
            seed=self.seed,
            scenario={"title": spec.title, "path": scenario.path},
            table={"width": spec.table.width, "depth": spec.table.depth},
            max_sighting_in=spec.max_sighting_in,
            turns=spec.turns,
            sides=[
                {
                    "side": s.id,
                    "name": s.name,
                    "cohesion": s.cohesion,
                    "generation": s.generation,
                    "command_value": s.command_value,
                    "entry_edge": s.entry_edge,
                }
                for s in spec.sides
            ],
            terrain=scenario.raw["terrain"],
            stands=[
                {
                    "id": s.id,
                    "side": s.side,
                    "unit": s.unit_name,
                    "tech_level": s.tech_level,
                    "x": s.x,
                    "y": s.y,
                    "facing_deg": s.facing_deg,
                    "on_table": s.on_table,
                    "group": s.group,
                    "hq": s.hq,
                    "ghq": s.ghq,
                }
                for s in stands.values()
            ],
        )
        self.state.to_act = self.sides[0]
        self._new = []

    # ================================================================== public queries

    @property
    def finished(self) -> bool:
        """True once the battle has ended."""
        return self.state.finished

    @property
    def to_act(self) -> str | None:
        """The side whose decision the battle waits for (None when finished)."""
        return None if self.state.finished else self.state.to_act

    @property
    def phase(self) -> Phase | None:
        """The current phase of the turn (None in set-up and at the end)."""
        return next((p for p in self.rules.turn if p.name == self.state.phase), None)

    def stand(self, stand_id: str) -> StandState:
        """A stand by id. Raises IllegalAction for an unknown id."""
        try:
            return self.state.stands[stand_id]
        except KeyError:
            raise IllegalAction(f"there is no stand {stand_id!r}") from None

    def other(self, side: str) -> str:
        """The other side."""
        return self.sides[1] if side == self.sides[0] else self.sides[0]

    def cohesion_level(self, side: str) -> int:
        """A side's force cohesion level (000 04.00)."""
        return self.side_spec[side].cohesion

    def poses(self, exclude: str | None = None) -> list[StandPose]:
        """Every stand on the table and every wreck, as the geometry needs them."""
        out = [s.pose() for s in self.state.stands.values() if s.active and s.id != exclude]
        return out + [w.pose() for w in self.state.wrecks]

    def sight(self, firer_id: str, target_id: str):
        """What ``firer_id`` sees of ``target_id``: the geometry's :class:`Sight`, which the
        LOS tool shows and the fire check uses (000 07.01, 07.08)."""
        f, t = self.stand(firer_id), self.stand(target_id)
        return self.table.sight(
            f.pose(), t.pose(), self.poses(), self.sighting_in, self.ruleset_data
        )

    def fire_setup(
        self,
        attacker_id: str,
        target_id: str,
        weapon: str = "cannon",
        kind: str = "standard",
        target_pose: StandPose | None = None,
        sight: SightInfo | None = None,
        road_rate: bool = False,
        attacker_pose: StandPose | None = None,
        next_turn: bool = False,
    ) -> FireSetup:
        """Everything about one stand's shot before the dice, or why it may not be taken
        (000 07.04, 07.01, 07.03, 07.08; RD "Range and fire").

        ``kind`` "standard" checks the current fire phase; "opportunity" the opportunity-fire
        rules (000 07.06.05); "planning" neither (a shot the stand could take later, for the
        AI). ``target_pose`` places the target elsewhere (a moving target along its path);
        ``road_rate`` says it is moving at road rate there (no cover). ``attacker_pose`` places
        the firer elsewhere (planning only: the engaged rule is then not checked).
        ``next_turn`` (planning only) plans a shot of the next turn: the target's fired marker
        will have come off at marker removal (000 07.07), so its terrain counts for the firing
        cohesion roll even if it has tried to fire this turn (000 07.01.03).

        Raises ValueError when ``attacker_pose`` or ``next_turn`` is given for a real shot.
        """
        a, t = self.stand(attacker_id), self.stand(target_id)
        no = lambda why: illegal(attacker_id, target_id, weapon, why)  # noqa: E731
        if attacker_pose is not None and kind != "planning":
            raise ValueError("a firer placed elsewhere is for planning only")
        if next_turn and kind != "planning":
            raise ValueError("a shot of the next turn is for planning only")
        if not a.active and attacker_pose is None:
            return no(f"{a.id} is not on the table")
        if not t.active and target_pose is None:
            return no(f"{t.id} is not on the table")
        if a.side == t.side:
            return no(f"{t.id} is on the same side")
        if kind == "standard":
            if self.phase is None or self.phase.kind != "fire":
                return no("it is not a fire phase")
            if not self.rules.may_fire_in(a, self.state.phase):
                if a.posture == "movement":
                    return no(f"{a.id} is in the movement posture this turn (001 5.0)")
                return no(
                    f"{a.id} may not fire in this phase (tech level {a.tech_level}, "
                    f"fired {a.fire_attempts} time(s) this turn)"
                )
            if self.state.phase in t.attacked_in:
                return no(f"{t.id} has already been attacked in this phase")
        elif kind in ("opportunity", "covering") and not self.rules.may_opportunity_fire(a):
            if a.posture == "movement":
                return no(f"{a.id} is in the movement posture this turn (001 7.4.1)")
            return no(f"{a.id} may not {kind} fire (fired {a.fire_attempts} time(s))")
        unit = a.unit
        if weapon == "atgm":
            if unit.atgm is None:
                return no(f"{a.id} has no ATGM")
            if a.depleted:
                return no(f"{a.id} has used up its ATGMs")
        elif weapon != "cannon":
            return no(f"unknown weapon {weapon!r}")
        tpose = target_pose or t.pose()
        apose = attacker_pose or a.pose()
        # engaged stands fire only at those they are engaged with (000 07.08.04)
        engaged_with = self.engaged_with(a.id) if attacker_pose is None else set()
        if engaged_with and t.id not in engaged_with:
            return no(f"{a.id} is engaged and may fire only at {', '.join(sorted(engaged_with))}")
        if unit.facing_restricted and not in_front_arc(apose, tpose.x, tpose.y):
            return no(f"{a.id}'s gun fires only into its front arc")
        if sight is None:
            s = self.table.sight(
                apose,
                tpose,
                self.poses(exclude=t.id) + [tpose],
                self.sighting_in,
                self.ruleset_data,
            )
            sight = SightInfo(s.clear, s.range_in, s.range_band_in, s.aspect, s.in_contact)
        if not sight.clear:
            return no(f"{a.id} has no line of sight to {t.id}")
        band = sight.range_band_in
        max_range = unit.atgm.range if weapon == "atgm" else unit.gun_range
        if band > max_range:
            return no(f'{t.id} is beyond {a.id}\'s {weapon} range ({band}" > {max_range}")')
        if weapon == "atgm" and band < unit.atgm.min_range:
            return no(
                f'{t.id} is inside the ATGM\'s minimum range ({band}" < {unit.atgm.min_range}")'
            )
        # modifiers (000 07.04 steps A and F; 002 terrain chart; RD)
        cohesion_mods = marker_mods(a.S, a.D)
        if weapon == "atgm":
            cohesion_mods.append(("atgm", combat.ATGM_COHESION.get(a.tech_level or 0, 0)))
        if kind == "covering":
            cohesion_mods.append(("covering", COVERING_FIRE_MOD))  # 001 7.5.3
        terrain_mods = [] if road_rate else self.target_terrain_mods(apose, tpose)
        target_fired = t.fire_attempts > 0 and not next_turn
        if not target_fired:
            cohesion_mods += terrain_mods
        combat_mods: list[tuple[str, int]] = []
        if weapon == "cannon":
            chart = self.data.range_chart(self.scenario.ruleset, a.tech_level)
            combat_mods.append(("range", chart.modifier(band)))
        combat_mods += terrain_mods
        firepower = unit.atgm.attack if weapon == "atgm" else unit.firepower
        defense_base = t.unit.defense
        defense = defense_base if sight.aspect == "front" else combat.halved_up(defense_base)
        differential = firepower - defense
        if differential < self.crt.columns[0]:
            return no(
                f"combat differential {differential:+d} is below "
                f"{self.crt.columns[0]:+d}: no direct fire"
            )
        return FireSetup(
            attacker=a.id,
            target=t.id,
            weapon=weapon,
            legal=True,
            reason=None,
            range_in=sight.range_in,
            range_band_in=band,
            aspect=sight.aspect,
            cohesion_mods=tuple(cohesion_mods),
            level=self.cohesion_level(a.side),
            firepower=firepower,
            defense_base=defense_base,
            defense=defense,
            differential=differential,
            combat_mods=tuple(combat_mods),
        )

    def target_terrain_mods(self, firer: StandPose, tpose: StandPose) -> list[tuple[str, int]]:
        """Effects of the terrain a target stands in, cumulative (002 chart; RD "Range and
        fire"): each area under its centre, hilltop +2 when it stands higher than the firer,
        wreck +1 when its centre is on a wreck, smoke when either is in smoke."""
        here = self.table.terrain_at(tpose.x, tpose.y)
        mods = []
        for kind in here.areas:
            tt = self.data.terrain[kind]
            if tt.combat_when == "target_moving":
                # only a target in the movement posture (WWII: 001 terrain chart)
                target = self.state.stands.get(tpose.id)
                if target is None or target.posture != "movement":
                    continue
            value = tt.combat_effect(self.scenario.ruleset)
            if value:
                mods.append((f"terrain:{kind}", value))
        if here.ground_level > self.table.terrain_at(firer.x, firer.y).ground_level:
            mods.append(("hilltop", combat.HILLTOP_MOD))
        reach = STAND_SIZE_IN / math.sqrt(2) + 1e-9  # no point farther is on a footprint
        if any(
            math.hypot(w.x - tpose.x, w.y - tpose.y) <= reach
            and shapely.intersects_xy(footprint(w.x, w.y, w.facing_deg), tpose.x, tpose.y)
            for w in self.state.wrecks
        ):
            mods.append(("wreck", combat.WRECK_MOD))
        if "smoke" not in here.areas and "smoke" in self.table.terrain_at(firer.x, firer.y).areas:
            mods.append(("smoke", self.data.terrain["smoke"].combat_vehicle))
        return mods

    def engaged_with(self, stand_id: str) -> set[str]:
        """Enemy stands this stand is engaged with (000 07.08.04)."""
        s = self.stand(stand_id)
        if not s.active:
            return set()
        me = s.pose()
        return {
            e.id
            for e in self.state.stands.values()
            if e.active
            and e.side != s.side
            and abs(e.x - s.x) < 1.5
            and abs(e.y - s.y) < 1.5
            and engaged(me, e.pose())
        }

    def odds(
        self,
        attackers: list[str],
        target: str,
        weapons: list[str] | None = None,
        kind: str = "standard",
        step: int | None = None,
    ) -> dict:
        """Exact odds of an attack before rolling (see :func:`combat.attack_odds`), with each
        attacker's :class:`FireSetup` under ``"setups"``. ``weapons`` defaults to each
        attacker's cannon, or its ATGM where only that may fire. ``step``: odds of opportunity
        fire at that step of the move waiting for an answer (000 07.06.05)."""
        pose, road = None, False
        if step is not None:
            pm = self.state.pending
            if pm is None or not 0 <= step < len(pm.points):
                raise IllegalAction("there is no such step of a move to fire at")
            pose = StandPose(
                pm.stand, self.stand(pm.stand).side, *pm.points[step], pm.headings[step]
            )
            road = pm.road_rate[step - 1] if step > 0 else False
            kind = "opportunity"
        setups = [
            self._setup_for(a, target, weapons[i] if weapons else None, kind, pose, road)
            for i, a in enumerate(attackers)
        ]
        t = self.stand(target)
        out = combat.attack_odds(self.crt, setups, t.S, t.D)
        out["setups"] = setups
        return out

    def _setup_for(
        self,
        attacker: str,
        target: str,
        weapon: str | None,
        kind: str,
        pose: StandPose | None = None,
        road: bool = False,
    ) -> FireSetup:
        if weapon:
            return self.fire_setup(attacker, target, weapon, kind, pose, road_rate=road)
        first = self.fire_setup(attacker, target, "cannon", kind, pose, road_rate=road)
        if first.legal or self.stand(attacker).unit.atgm is None:
            return first
        second = self.fire_setup(attacker, target, "atgm", kind, pose, road_rate=road)
        return second if second.legal else first

    def movement_points(self, stand_id: str) -> float:
        """Movement points the stand has this phase (000 08.03.01, 05.00 step 4)."""
        return self.rules.movement_points(self.stand(stand_id))

    def preview_move(self, stand_id: str, path) -> Walk:
        """How far a stand would get along ``path`` (inches, its centre first): the walk the
        engine will make, for the window's live preview (000 08.03, 09.00)."""
        s = self.stand(stand_id)
        return self.table.walk(
            path,
            self.movement_points(stand_id),
            s.unit.movement_class,
            no_pass=self._blocking(s)[1],
        )

    def _blocking(self, s: StandState, passed: tuple[str, ...] = ()):
        """(ids, footprints) of the enemy stands ``s`` may not move into, but those it has
        already passed through in this move (001 8.3.6)."""
        enemies = [
            e
            for e in self.state.stands.values()
            if e.active and e.side != s.side and e.id not in passed
        ]
        return [e.id for e in enemies], list(footprints([e.pose() for e in enemies]))

    def pass_through_at(self, stand_id: str, path) -> tuple[str, float] | None:
        """Where a move along ``path`` (inches, the stand's centre first) would stop to roll
        the stand's nerve (001 8.3.6): (the enemy stand it would try to pass through, the
        chance in 0..1 that the cohesion roll at +3 passes), or None when it would not try.

        A WWII stand tries when the engine's walk stops it against an enemy stand and the
        path ends clear of that stand (a path that ends on the enemy asks only for base
        contact). Modern never passes through enemy stands (RD "Movement")."""
        s = self.stand(stand_id)
        if not self.rules.pass_through or not path:
            return None
        ids, fps = self._blocking(s)
        walk = self.table.walk(
            path, self.movement_points(stand_id), s.unit.movement_class, no_pass=fps
        )
        enemy = self._pass_target(walk, path, ids, fps)
        if enemy is None:
            return None
        return enemy, self._nerve_chance(s)

    def _pass_target(self, walk: Walk, path, ids, fps) -> str | None:
        if not self.rules.pass_through or walk.stopped_by != "enemy" or walk.blocker is None:
            return None
        (x0, y0), (x1, y1) = (path[-2], path[-1]) if len(path) > 1 else (path[0], path[0])
        heading = math.degrees(math.atan2(y1 - y0, x1 - x0)) if len(path) > 1 else 0.0
        if overlaps(footprint(x1, y1, heading), fps[walk.blocker]):
            return None  # the path ends on the enemy: the player asked for base contact only
        return ids[walk.blocker]

    def _nerve_chance(self, s: StandState) -> float:
        """The chance (0..1) that the stand's cohesion roll at +3 (and its own S and D) passes:
        a natural 1 always passes, a natural 20 always fails (000 04.00)."""
        mod = PASS_THROUGH_MOD + sum(v for _, v in marker_mods(s.S, s.D))
        level = self.cohesion_level(s.side)
        ok = sum(combat.cohesion_passes(r, r + mod, level) for r in range(1, 21))
        return ok / 20

    def opportunity_setups(self) -> dict[int, list[FireSetup]]:
        """While a move waits for the enemy: step index -> the :class:`FireSetup` of each stand
        that may opportunity-fire there (the shots the offer was built from)."""
        pm = self.state.pending
        if pm is None:
            return {}
        out: dict[int, list[FireSetup]] = {}
        for (k, _), fs in sorted(pm.setups.items()):
            out.setdefault(k, []).append(fs)
        return out

    @property
    def opportunity_offer(self) -> dict[int, list[tuple[str, str]]]:
        """While a move waits for the enemy: step index -> [(firer, weapon)] that may
        opportunity-fire there (empty otherwise)."""
        return dict(self.state.pending.offer) if self.state.pending else {}

    def state_hash(self) -> str:
        """A digest of the whole battle state and the dice's position."""
        return state_hash(self.state, self.dice.digest())

    # ================================================================== legal actions

    def legal_actions(self) -> list[Action]:
        """What the side to act may do now.

        Fire and opportunity-fire actions are listed once with every eligible attacker and once
        per single attacker; any other subset of the eligible attackers is legal too. Moves are
        listed as straight samples (eight directions, full movement; entering stands from a
        few points of their edge); any path the stand can walk is legal. While stands wait to
        enter and may still try, neither Pass nor EndMoves is listed (docs/rules.md, "Entering
        the table").
        """
        st = self.state
        if st.finished:
            return []
        side = st.to_act
        if st.phase == "setup":
            acts: list[Action] = [Pass(side)]
            groups = sorted({s.group for s in st.stands.values() if s.side == side})
            for s in st.stands.values():
                if s.side == side:
                    acts += [Regroup(side, s.id, g) for g in groups if g != s.group]
            return acts
        phase = self.phase
        if phase and phase.choose_first and not st.first_chosen:
            return [ChooseFirst(side, first) for first in self.sides]
        if st.covering is not None:
            return [EndCoveringFire(side)] + self._covering_options(side)
        if phase and phase.kind == "posture":
            return [Pass(side)] + self._declare_options(side)
        if st.pending is not None:
            acts = [LetPass(side)]
            for step, firers in sorted(st.pending.offer.items()):
                ids = tuple(f for f, _ in firers)
                acts.append(OpportunityFire(side, step, ids, tuple(w for _, w in firers)))
                if len(firers) > 1:
                    acts += [OpportunityFire(side, step, (f,), (w,)) for f, w in firers]
            return acts
        if phase and phase.kind == "fire":
            return [Pass(side)] + self._fire_options(side)
        if phase and phase.kind == "movement":
            if st.moving is not None:
                samples = self._move_samples(st.moving)
                if self._still_to_enter(samples):
                    return samples
                return [EndMoves(side)] + samples
            attempts = self._attempt_options(side)
            if self.entry_due(side, attempts):
                return attempts
            return [Pass(side)] + attempts
        return []

    def fire_options(self) -> dict[str, list[FireSetup]]:
        """Every legal shot of the side to act in a fire phase, by target: each eligible
        attacker's :class:`FireSetup` with each weapon it may use (000 07.04; one sight matrix
        for all pairs). Empty outside the fire phases."""
        st = self.state
        side = st.to_act
        phase = self.phase
        if phase is None or phase.kind != "fire" or side is None:
            return {}
        attackers = [
            s
            for s in st.stands.values()
            if s.active and s.side == side and self.rules.may_fire_in(s, st.phase)
        ]
        targets = [
            s
            for s in st.stands.values()
            if s.active and s.side != side and st.phase not in s.attacked_in
        ]
        if not attackers or not targets:
            return {}
        m = self.table.sight_matrix(
            [a.pose() for a in attackers],
            [t.pose() for t in targets],
            self.poses(),
            self.sighting_in,
            self.ruleset_data,
        )
        out: dict[str, list[FireSetup]] = {}
        for j, t in enumerate(targets):
            for i, a in enumerate(attackers):
                if not m.clear[i, j]:
                    continue
                info = sight_info(m, i, j)
                for weapon in ("cannon", "atgm") if a.unit.atgm else ("cannon",):
                    fs = self.fire_setup(a.id, t.id, weapon, sight=info)
                    if fs.legal:
                        out.setdefault(t.id, []).append(fs)
        return out

    def _fire_options(self, side: str) -> list[Action]:
        acts: list[Action] = []
        for target, setups in self.fire_options().items():
            chosen: dict[str, str] = {}
            for fs in setups:
                chosen.setdefault(fs.attacker, fs.weapon)  # the cannon where both may fire
            pairs = list(chosen.items())
            acts.append(Fire(side, target, tuple(a for a, _ in pairs), tuple(w for _, w in pairs)))
            if len(pairs) > 1:
                acts += [Fire(side, target, (a,), (w,)) for a, w in pairs]
        return acts

    def _movable(self, side: str, group: str) -> list[StandState]:
        return [
            s
            for s in self.state.stands.values()
            if s.side == side
            and s.group == group
            and not s.eliminated
            and not s.moved
            and s.posture != "firing"
        ]

    def undeclared(self, side: str) -> list[StandState]:
        """In the posture phase (WWII): ``side``'s stands on the table whose posture is not yet
        declared; those left at the end take the firing posture (001 5.0 step 2)."""
        return [
            s
            for s in self.state.stands.values()
            if s.side == side and s.active and s.posture is None
        ]

    def contact_chains(self, stand_ids: list[str]) -> list[list[str]]:
        """Split stands into chains of base contact (001 8.1.2: a movement group's stands are
        in base contact), largest first, each in the order given; ties keep the order of their
        first stand. Raises IllegalAction for an unknown id."""
        poses = [self.stand(i).pose() for i in stand_ids]
        n = len(poses)
        seen = [False] * n
        chains = []
        for i in range(n):
            if seen[i]:
                continue
            seen[i] = True
            todo, chain = [i], []
            while todo:
                k = todo.pop()
                chain.append(k)
                for j in range(n):
                    if not seen[j] and base_contact(poses[k], poses[j]):
                        seen[j] = True
                        todo.append(j)
            chains.append([stand_ids[k] for k in sorted(chain)])
        return sorted(chains, key=len, reverse=True)

    def _declare_options(self, side: str) -> list[Action]:
        """Movement groups ``side`` may declare now: every whole chain of undeclared stands in
        base contact (two or more, until the side has declared a one-stand group) and every
        single stand (001 5.0 step 2). Any chain-connected part of a chain is legal too."""
        ids = [s.id for s in self.undeclared(side)]
        acts: list[Action] = []
        if side not in self.state.singles_declared:
            acts += [DeclareGroup(side, tuple(c)) for c in self.contact_chains(ids) if len(c) > 1]
        return acts + [DeclareGroup(side, (i,)) for i in ids]

    def _covering_options(self, side: str) -> list[Action]:
        """Covering-fire attacks open to the moving side (001 7.5): for each stand that has
        just opportunity-fired and is not yet answered, every eligible stand of ours at once
        and each alone."""
        cw = self.state.covering
        acts: list[Action] = []
        if cw is None:
            return acts
        ours = [
            s
            for s in self.state.stands.values()
            if s.side == side and s.active and self.rules.may_opportunity_fire(s)
        ]
        for target in cw.targets:
            pairs = []
            for s in ours:
                fs = self._setup_for(s.id, target, None, "covering")
                if fs.legal:
                    pairs.append((s.id, fs.weapon))
            if pairs:
                acts.append(
                    CoveringFire(
                        side, target, tuple(a for a, _ in pairs), tuple(w for _, w in pairs)
                    )
                )
                if len(pairs) > 1:
                    acts += [CoveringFire(side, target, (a,), (w,)) for a, w in pairs]
        return acts

    def _attempt_options(self, side: str) -> list[Action]:
        st = self.state
        groups = sorted({s.group for s in st.stands.values() if s.side == side})
        acts: list[Action] = []
        for g in groups:
            if not self._movable(side, g):
                continue
            key = f"{side}:{g}"
            if st.orders.get(side, 0) > 0:
                acts.append(MoveAttempt(side, g, True))
            elif key not in st.independent_used and key not in st.groups_moved:
                acts.append(MoveAttempt(side, g, False))
        return acts

    def entry_due(self, side: str, attempts: list[Action] | None = None) -> list[str]:
        """Groups of ``side`` that hold stands waiting to enter and may still try to move this
        movement phase (``attempts``: its move attempts, when already listed). Until each has
        tried, the side may not stop moving (scenario sheets: the forces enter on turn 1, so a
        stand comes on as soon as it can; docs/rules.md "Entering the table"). Empty outside
        the movement phase. Raises nothing."""
        phase = self.phase
        if phase is None or phase.kind != "movement":
            return []
        if attempts is None:
            attempts = self._attempt_options(side)
        return [
            a.group for a in attempts if any(not s.on_table for s in self._movable(side, a.group))
        ]

    def _still_to_enter(self, samples: list[Action]) -> list[str]:
        """Stands of the moving group still waiting to enter that have a way on (a sampled
        entry move): the movement action may not end before they have entered."""
        return sorted(
            {
                a.stand
                for a in samples
                if isinstance(a, Move) and not self.state.stands[a.stand].on_table
            }
        )

    def _edge_point(self, s: StandState, v: float) -> tuple[float, float]:
        """The point ``v`` inches along the entry edge of a stand waiting to enter (its x or y
        is already on the edge)."""
        vertical = self.side_spec[s.side].entry_edge in ("left", "right")
        return (s.x, v) if vertical else (v, s.y)

    def _move_samples(self, moving: MovingGroup) -> list[Action]:
        acts: list[Action] = []
        w, d = self.table.width, self.table.depth
        for sid in moving.stands:
            s = self.state.stands[sid]
            if s.moved or s.eliminated:
                continue
            reach = self.movement_points(sid)
            starts = [(s.x, s.y)]
            if not s.on_table:
                vertical = self.side_spec[s.side].entry_edge in ("left", "right")
                base, limit = (s.y, d) if vertical else (s.x, w)
                along = [v for v in (base, base - 3, base + 3) if 0.5 <= v <= limit - 0.5]
                if not any(self.room_at(*self._edge_point(s, v), 0.0) for v in along):
                    # stands in the way there: the nearest points of the edge with room
                    free = [
                        v
                        for v in np.arange(0.5, limit - 0.5 + 1e-9, STEP_IN)
                        if self.room_at(*self._edge_point(s, float(v)), 0.0)
                    ]
                    along = sorted(free, key=lambda v: (abs(v - base), v))[:2]
                starts = [self._edge_point(s, float(v)) for v in along]
            for x0, y0 in starts:
                for k in range(8):
                    a = math.radians(45 * k)
                    dx, dy = math.cos(a), math.sin(a)
                    # stay on the table: shorten the leg to end 0.5" inside every edge
                    lim = reach
                    for v, dv, hi in ((x0, dx, w), (y0, dy, d)):
                        if dv > 1e-9:
                            lim = min(lim, (hi - 0.5 - v) / dv)
                        elif dv < -1e-9:
                            lim = min(lim, (0.5 - v) / dv)
                    if lim < 0.5:
                        continue
                    path = ((x0, y0), (round(x0 + lim * dx, 6), round(y0 + lim * dy, 6)))
                    if self.table.crosses_impassable(path) or (
                        not s.on_table and self.path_problem(sid, path) is not None
                    ):
                        continue
                    acts.append(Move(moving.side, sid, path, float(45 * k)))
        return acts

    # ================================================================== applying actions

    def apply(self, action: Action) -> list[dict]:
        """Carry out an action for the side to act; returns the battle-log events it made.

        Raises IllegalAction (and changes nothing) if the rules do not allow it now.
        """
        st = self.state
        if st.finished:
            raise IllegalAction("the battle is over")
        if action.side != st.to_act:
            raise IllegalAction(f"it is {st.to_act}'s turn to act, not {action.side}'s")
        if st.covering is not None and not isinstance(action, (CoveringFire, EndCoveringFire)):
            raise IllegalAction(
                "the enemy's opportunity fire may first be answered with covering fire "
                "(or decline it) before anything else (001 7.5)"
            )
        self._new = []
        handler = getattr(self, f"_do_{action.kind}", None)
        if handler is None:
            raise IllegalAction(f"unknown action {action.kind!r}")
        handler(action)
        self.actions.append(action)
        if self.autosave is not None:
            self.save(self.autosave)
        return self._new

    def _event(self, name: str, **fields) -> dict:
        ev = self.log.write(
            {"event": name, "turn": self.state.turn, "phase": self.state.phase, **fields}
        )
        self._new.append(ev)
        return ev

    # ---------------------------------------------------------------- setup and flow

    def _do_regroup(self, a: Regroup) -> None:
        if self.state.phase != "setup":
            raise IllegalAction("battle groups are fixed once play starts (000 08.01.01)")
        s = self.stand(a.stand)
        if s.side != a.side:
            raise IllegalAction(f"{a.stand} is not {a.side}'s stand")
        if not a.group:
            raise IllegalAction("a battle group needs a name")
        s.group = a.group

    def _do_pass(self, a: Pass) -> None:
        st = self.state
        if st.pending is not None or st.moving is not None:
            raise IllegalAction("finish the move under way first")
        phase = self.phase
        if st.phase == "setup":
            self._event("pass", side=a.side)
            if a.side == self.sides[0]:
                st.to_act = self.sides[1]
            else:
                self._start_turn()
            return
        if phase is not None and phase.choose_first and not st.first_chosen:
            raise IllegalAction(
                "first choose who acts first in this phase: the side with the initiative "
                "decides (000 07.02.04, 08.02.04)"
            )
        if phase is None or phase.kind is None:
            raise IllegalAction("there is nothing to pass now")
        due = self.entry_due(a.side)
        if due:
            raise IllegalAction(
                f"group {due[0]} still has stands waiting to enter: try to move it first "
                "(every stand enters as soon as it can)"
            )
        self._event("pass", side=a.side)
        st.passes += 1
        if st.passes >= 2:
            self._next_phase()
        else:
            st.to_act = self.other(a.side)

    def _do_choose_first(self, a: ChooseFirst) -> None:
        st = self.state
        phase = self.phase
        if phase is None or not phase.choose_first or st.first_chosen:
            raise IllegalAction("there is no choice of who goes first now")
        if a.side != st.initiative:
            raise IllegalAction("only the side with the initiative chooses")
        if a.first not in self.sides:
            raise IllegalAction(f"unknown side {a.first!r}")
        st.first_chosen = True
        st.to_act = a.first

    def _start_turn(self) -> None:
        st = self.state
        st.turn += 1
        for s in st.stands.values():
            s.fire_attempts = 0
            s.fired_in.clear()
            s.attacked_in.clear()
        self._enter(self.rules.turn[0])

    def _enter(self, phase: Phase) -> None:
        st = self.state
        st.phase = phase.name
        st.passes = 0
        st.first_chosen = False
        st.to_act = st.initiative
        if phase.name == "initiative":
            self._roll_initiative()
        elif phase.kind == "posture":
            self._start_postures()
        elif phase.kind == "fire" and self.rules.postures:
            for s in st.stands.values():  # whoever was not declared fires (001 5.0 step 2)
                if s.active and s.posture is None:
                    s.posture = "firing"
        elif phase.name == "movement":
            self._roll_orders()
        elif phase.name == "marker_removal":
            self._marker_removal()
        if st.finished:
            return
        if phase.auto:
            self._next_phase()

    def _next_phase(self) -> None:
        names = [p.name for p in self.rules.turn]
        i = names.index(self.state.phase)
        if i + 1 < len(names):
            self._enter(self.rules.turn[i + 1])
        else:
            self._end_turn()

    def _start_postures(self) -> None:
        """Open the posture phase (001 5.0 step 2): every stand's posture is undecided again.
        Stands still waiting to enter are in the movement posture in their scenario groups
        (they may do nothing else; RD "Entering the table"), declared here before the sides
        declare the rest."""
        st = self.state
        st.singles_declared.clear()
        for s in st.stands.values():
            if s.eliminated:
                continue
            if s.on_table:
                s.posture, s.group = None, ""
            else:
                s.posture = "movement"
        for side in self.sides:
            waiting: dict[str, list[str]] = {}
            for s in st.stands.values():
                if s.side == side and not s.eliminated and not s.on_table:
                    waiting.setdefault(s.group, []).append(s.id)
            for group, ids in waiting.items():
                self._event("posture", side=side, group=group, stands=ids)

    def _do_declare_group(self, a: DeclareGroup) -> None:
        st = self.state
        if self.phase is None or self.phase.kind != "posture":
            raise IllegalAction("movement groups are declared in the posture phase (001 5.0)")
        if not st.first_chosen:
            raise IllegalAction("first the side with the initiative chooses who declares first")
        ids = list(a.stands)
        if not ids:
            raise IllegalAction("a movement group needs at least one stand")
        if len(set(ids)) != len(ids):
            raise IllegalAction("a stand is named twice in the movement group")
        for i in ids:
            s = self.stand(i)
            if s.side != a.side:
                raise IllegalAction(f"{i} is not {a.side}'s stand")
            if not s.active:
                raise IllegalAction(f"{i} is not on the table")
            if s.posture is not None:
                raise IllegalAction(f"{i} is already in a movement group this turn")
        if len(ids) > 1:
            if a.side in st.singles_declared:
                raise IllegalAction(
                    "groups of two or more stands are declared before any one-stand group "
                    "(001 5.0 step 2)"
                )
            if len(self.contact_chains(ids)) > 1:
                raise IllegalAction(
                    "a movement group's stands must be in base contact, each with another "
                    "(001 8.1.2)"
                )
        else:
            st.singles_declared.add(a.side)
        used = {s.group for s in st.stands.values() if s.side == a.side}
        n = 1
        while f"M{n}" in used:
            n += 1
        group = f"M{n}"
        for i in ids:
            s = self.stand(i)
            s.posture, s.group = "movement", group
        self._event("posture", side=a.side, group=group, stands=ids)
        st.passes = 0
        st.to_act = self.other(a.side)

    def _roll_initiative(self) -> None:
        """nD6 + cohesion each (2D6 Modern, 1D6 WWII); ties re-rolled on the plain dice
        (000 05.00 step 1; 001 5.0 step 1)."""
        n = self.rules.initiative_dice
        rolls = {}
        for side in self.sides:
            dice = self.dice.roll(n, 6)
            rolls[side] = {"dice": dice, "total": sum(dice) + self.cohesion_level(side)}
        a, b = self.sides
        tiebreaks = []
        winner = a if rolls[a]["total"] > rolls[b]["total"] else b
        if rolls[a]["total"] == rolls[b]["total"]:
            while True:
                tb = {side: self.dice.roll(n, 6) for side in self.sides}
                tiebreaks.append(tb)
                if sum(tb[a]) != sum(tb[b]):
                    winner = a if sum(tb[a]) > sum(tb[b]) else b
                    break
        self.state.initiative = winner
        self._event("initiative", rolls=rolls, tiebreaks=tiebreaks, winner=winner)

    def _roll_orders(self) -> None:
        """Movement orders: 2D6 + GHQ command value + generation on the command efficiency
        table; none once the GHQ is eliminated (000 08.02.01-02)."""
        st = self.state
        table = self.data.command_tables[self.ruleset_data.command]
        st.independent_used.clear()
        st.groups_moved.clear()
        for s in st.stands.values():
            s.moved = False
        for side in self.sides:
            cv = self.side_spec[side].command_value
            gen = self.scenario.generation_modifier(side)
            ghq_alive = any(
                s.ghq and not s.eliminated for s in st.stands.values() if s.side == side
            )
            dice = self.dice.roll(2, 6) if ghq_alive else []
            total = sum(dice) + cv + gen
            orders = table.orders(total) if ghq_alive else 0
            st.orders[side] = orders
            self._event(
                "orders",
                side=side,
                dice=dice,
                command_value=cv,
                generation_mod=gen,
                total=total,
                orders=orders,
            )

    def _marker_removal(self) -> None:
        """Fired markers off; each stand with S or D rolls: pass to remove S, natural 1 removes
        both, natural 20 panics to (S); then depleted ATGM stands roll at +4 to resupply
        (000 07.07, 07.03.04)."""
        st = self.state
        for side in self.sides:
            level = self.cohesion_level(side)
            for s in [
                x for x in st.stands.values() if x.side == side and x.active and (x.S or x.D)
            ]:
                roll = self.dice.d20()
                mods = marker_mods(s.S, s.D)
                total = roll + sum(v for _, v in mods)
                if roll == 1:
                    s.S = s.D = False
                    outcome = "rallied"
                elif roll == 20:
                    _, s.S, s.D, elim = combat.crt_result("(S)", s.S, s.D)
                    outcome = "panic"
                    if elim:
                        self._eliminate(s)
                elif total <= level and s.S:
                    s.S = False
                    outcome = "recovered"
                else:
                    outcome = "none"
                self._event(
                    "marker_removal",
                    stand=s.id,
                    roll=roll,
                    mods=mods_json(mods),
                    total=total,
                    level=level,
                    outcome=outcome,
                    markers_after=s.markers(),
                )
            for s in [x for x in st.stands.values() if x.side == side and x.active and x.depleted]:
                roll = self.dice.d20()
                mods = [("resupply", 4)]
                total = roll + 4
                passed = combat.cohesion_passes(roll, total, level)
                if passed:
                    s.depleted = False
                self._event(
                    "resupply",
                    stand=s.id,
                    roll=roll,
                    mods=mods_json(mods),
                    total=total,
                    level=level,
                    passed=passed,
                )

    def _end_turn(self) -> None:
        st = self.state
        for s in st.stands.values():
            s.fire_attempts = 0
            s.fired_in.clear()
            s.attacked_in.clear()
        losses = st.losses(self.sides)
        self._event("end_turn", losses=losses, state_hash=self.state_hash())
        winner, reason = self._victory(losses)
        if winner is not None or st.turn >= self.scenario.spec.turns:
            st.phase = "end"
            st.finished = True
            st.winner = winner
            st.reason = reason or f"turn {st.turn} of {self.scenario.spec.turns} played: a draw"
            st.to_act = None
            self._event(
                "end", winner=winner, reason=st.reason, losses=losses, state_hash=self.state_hash()
            )
            self.log.close()
            return
        self._start_turn()

    def winner_if_turn_ended(self, losses: dict[str, int] | None = None) -> str | None:
        """The side that would win were the turn to end now, by the scenario's victory rule
        (seed scenario sheets; RD "Victory"), or None. ``losses`` (stands eliminated, by side)
        defaults to the battle's own; pass others to ask "what if". Victory is only checked
        at the end of a turn, so a side that holds it mid-turn can still lose it."""
        return self._victory(losses if losses is not None else self.state.losses(self.sides))[0]

    def kills_needed(self, side: str) -> int:
        """How many enemy stands ``side`` must have destroyed to meet the scenario's share
        (seed scenario sheets: at least 51%; RD "Victory"), by the same test as the victory
        check: 2 of 3, 4 of 7, 6 of 10. More than the enemy has when the share is over 100%."""
        total = self.totals[self.other(side)]
        pct = self.scenario.spec.victory.destroy_at_least_pct
        return next(
            (n for n in range(total + 1) if n / max(1, total) * 100 >= pct - 1e-9), total + 1
        )

    def _victory(self, losses: dict[str, int]) -> tuple[str | None, str | None]:
        """A side that destroyed at least the scenario's share of the enemy while losing no
        more than its limit wins (seed scenario sheets; RD "Victory")."""
        v = self.scenario.spec.victory
        for side in self.sides:
            enemy = self.other(side)
            destroyed = losses[enemy] / max(1, self.totals[enemy]) * 100
            lost = losses[side] / max(1, self.totals[side]) * 100
            if destroyed >= v.destroy_at_least_pct - 1e-9 and lost <= v.lose_at_most_pct + 1e-9:
                return side, (
                    f"{self.side_spec[side].name} destroyed {destroyed:.0f}% of the "
                    f"enemy while losing {lost:.0f}%"
                )
        return None, None

    # ---------------------------------------------------------------- fire

    def _do_fire(self, a: Fire) -> None:
        st = self.state
        phase = self.phase
        if phase is None or phase.kind != "fire" or not st.first_chosen:
            raise IllegalAction("attacks are made in the fire phases")
        setups = self._check_attack(a.side, a.target, a.attackers, a.weapons, "standard")
        self._resolve_attack(setups, "standard", st.phase)
        st.passes = 0
        st.to_act = self.other(a.side)

    def _check_attack(
        self, side, target, attackers, weapons, kind, target_pose=None, sights=None, road_rate=False
    ) -> list[FireSetup]:
        if not attackers:
            raise IllegalAction("an attack needs at least one attacking stand")
        if len(weapons) != len(attackers):
            raise IllegalAction("give one weapon per attacking stand")
        if len(set(attackers)) != len(attackers):
            raise IllegalAction("a stand is named twice in the attack")
        t = self.stand(target)
        if t.side == side:
            raise IllegalAction(f"{target} is one of {side}'s own stands")
        setups = []
        for i, (aid, weapon) in enumerate(zip(attackers, weapons, strict=True)):
            if self.stand(aid).side != side:
                raise IllegalAction(f"{aid} is not {side}'s stand")
            fs = self.fire_setup(
                aid, target, weapon, kind, target_pose, sights[i] if sights else None, road_rate
            )
            if not fs.legal:
                raise IllegalAction(fs.reason)
            setups.append(fs)
        return setups

    def _resolve_attack(
        self, setups: list[FireSetup], kind: str, phase: str, target_pose: StandPose | None = None
    ) -> str:
        """Each firing stand is a combat event (000 07.04); returns the last result that did
        something ("none" when none did)."""
        st = self.state
        st.attacks += 1
        t = self.stand(setups[0].target)
        t.attacked_in.add(phase)
        tpose = target_pose or t.pose()
        last = "none"
        for fs in setups:
            if t.eliminated:
                break  # nothing left to shoot at: the rest hold their fire
            a = self.stand(fs.attacker)
            a.fire_attempts += 1
            a.fired_in.add(phase)
            roll = self.dice.d20()
            total = roll + fs.cohesion_total_mod
            passed = combat.cohesion_passes(roll, total, fs.level)
            ev = dict(
                attack=st.attacks,
                kind=kind,
                side=a.side,
                attacker=a.id,
                target=t.id,
                weapon=fs.weapon,
                attacker_pos=pos(a.x, a.y, a.facing_deg),
                target_pos=pos(tpose.x, tpose.y, tpose.facing_deg),
                range_in=round(fs.range_in, 6),
                range_band_in=fs.range_band_in,
                cohesion={
                    "roll": roll,
                    "mods": mods_json(fs.cohesion_mods),
                    "total": total,
                    "level": fs.level,
                    "passed": passed,
                },
            )
            if passed:
                dice = self.dice.roll(2, 6)
                ctotal = min(19, max(0, sum(dice) + fs.combat_total_mod))
                cell = self.crt.lookup(fs.differential, ctotal)
                result, t.S, t.D, elim = combat.crt_result(cell, t.S, t.D)
                if elim:
                    self._eliminate(t)
                if result != "none":
                    last = result
                ev.update(
                    firepower=fs.firepower,
                    defense_base=fs.defense_base,
                    aspect=fs.aspect,
                    defense=fs.defense,
                    differential=fs.differential,
                    combat={"dice": dice, "mods": mods_json(fs.combat_mods), "total": ctotal},
                    crt=cell,
                    result=result,
                    target_markers_after=t.markers(),
                )
                if fs.weapon == "atgm":
                    depleted = sum(dice) <= a.unit.atgm.depletion  # 000 07.03.03
                    a.depleted = a.depleted or depleted
                    ev["depleted"] = depleted
            self._event("fire", **ev)
        return last

    def _eliminate(self, s: StandState) -> None:
        s.eliminated = True
        self.state.wrecks.append(Wreck(s.id, s.x, s.y, s.facing_deg))

    # ---------------------------------------------------------------- movement

    def _do_move_attempt(self, a: MoveAttempt) -> None:
        st = self.state
        if self.phase is None or self.phase.kind != "movement" or not st.first_chosen:
            raise IllegalAction("movement is attempted in the movement phase")
        if st.moving is not None or st.pending is not None:
            raise IllegalAction("finish the movement action under way first")
        stands = self._movable(a.side, a.group)
        if not stands:
            raise IllegalAction(f"group {a.group!r} has no stand left to move")
        key = f"{a.side}:{a.group}"
        if a.ordered:
            if st.orders.get(a.side, 0) <= 0:
                raise IllegalAction("no movement orders left")
            st.orders[a.side] -= 1
        else:
            if st.orders.get(a.side, 0) > 0:
                raise IllegalAction("use up the orders before moving independently (000 08.02.10)")
            if key in st.independent_used or key in st.groups_moved:
                raise IllegalAction(f"group {a.group!r} may not move independently again")
            st.independent_used.add(key)
        level = self.cohesion_level(a.side)
        roll = self.dice.d20()
        hqs = sum(
            1
            for s in st.stands.values()
            if s.side == a.side and s.group == a.group and (s.hq or s.ghq) and not s.eliminated
        )
        group_mods = []
        if hqs:
            group_mods.append(("hq", -2 * hqs))  # 000 08.02.03
        if not a.ordered:
            group_mods.append(("independent", 3))  # 000 08.02.08
        per_stand = {}
        passed_ids = []
        for s in stands:
            mods = group_mods + marker_mods(s.S, s.D)
            total = roll + sum(v for _, v in mods)
            ok = combat.cohesion_passes(roll, total, level)
            per_stand[s.id] = {"mods": mods_json(mods), "total": total, "passed": ok}
            if ok:
                passed_ids.append(s.id)
        self._event(
            "move_attempt",
            side=a.side,
            group=a.group,
            ordered=a.ordered,
            roll=roll,
            level=level,
            per_stand=per_stand,
        )
        st.passes = 0
        if passed_ids:
            st.moving = MovingGroup(a.side, a.group, a.ordered, passed_ids)
        else:
            st.to_act = self.other(a.side)

    def _do_end_moves(self, a: EndMoves) -> None:
        st = self.state
        if st.moving is None or st.pending is not None:
            raise IllegalAction("no movement action is under way")
        waiting = self._still_to_enter(self._move_samples(st.moving))
        if waiting:
            raise IllegalAction(
                f"{waiting[0]} is still waiting to enter: move it onto the table first "
                "(every stand enters as soon as it can)"
            )
        st.moving = None
        st.to_act = self.other(a.side)

    def _do_move(self, a: Move) -> None:
        st = self.state
        if st.moving is None or st.pending is not None:
            raise IllegalAction("move a stand after its group's movement attempt succeeds")
        if a.stand not in st.moving.stands:
            raise IllegalAction(f"{a.stand} is not one of the stands that may move now")
        s = self.stand(a.stand)
        if s.moved or s.eliminated:
            raise IllegalAction(f"{a.stand} has already moved this phase (000 08.03.01)")
        path = tuple((float(x), float(y)) for x, y in a.path)
        if not math.isfinite(a.facing_deg):
            raise IllegalAction("a move needs a finite facing")
        why = self.path_problem(s.id, path)
        if why is not None:
            raise IllegalAction(why)
        entering = not s.on_table
        self._begin_part(
            a.side, s, path, a.facing_deg % 360.0, self.movement_points(s.id), entering
        )

    def _begin_part(
        self,
        side: str,
        s: StandState,
        path,
        facing_deg: float,
        mp: float,
        entering: bool,
        passed: tuple[str, ...] = (),
        walked_in: float = 0.0,
    ) -> None:
        """Walk (a part of) a move and offer it to the enemy's opportunity fire (000 07.06.05).
        A later part, after a nerve roll to pass through an enemy stand (001 8.3.6), starts
        where the stand stopped: that point was offered already, so it is not offered again."""
        ids, fps = self._blocking(s, passed)
        walk = self.table.walk(
            path,
            mp,
            s.unit.movement_class,
            free_in=max(0.0, FREE_MOVE_IN - walked_in),
            no_pass=fps,
        )
        points = walk.points
        headings = [s.facing_deg] * len(points)
        for i in range(1, len(points)):
            headings[i] = (
                math.degrees(
                    math.atan2(points[i][1] - points[i - 1][1], points[i][0] - points[i - 1][0])
                )
                % 360.0
            )
        if len(points) > 1:
            headings[0] = headings[1]
        road = self._road_flags(points)
        blocker = self._pass_target(walk, path, ids, fps)
        pending = PendingMove(
            side,
            s.id,
            path,
            facing_deg,
            points,
            tuple(headings),
            walk.step_costs,
            mp,
            walk.stopped_by,
            road,
            entering,
            {},
            start_facing=headings[0] if entering else s.facing_deg,
            blocker=blocker,
            rest=path_after(path, walk.distance_in) if blocker else (),
            passed=passed,
            walked_in=walked_in,
        )
        pending.offer.update(self._opportunity_offer(s, pending))
        if passed:  # where it stopped to roll was offered already
            pending.offer.pop(0, None)
            pending.setups = {k: fs for k, fs in pending.setups.items() if k[0] != 0}
        if pending.offer:
            self.state.pending = pending
            self.state.to_act = self.other(side)
        else:
            self._finish_move(pending, None)

    def path_problem(self, stand_id: str, path) -> str | None:
        """Why a move along ``path`` (inches, (x, y) points) would be refused for the stand,
        or None if the engine would walk it: every point finite; starting at the stand's
        centre, or for a stand waiting to enter on its side's entry edge with room there
        (RD "Entering the table"); never off the table; never across impassable ground
        (000 09.00.01; RD "Movement"). How far the stand gets is :meth:`preview_move`'s answer.
        """
        s = self.stand(stand_id)
        if not path or not all(math.isfinite(v) for p in path for v in p):
            return "a move needs a path of finite points"
        if not s.on_table:
            try:
                self._check_entry(s, path)
            except IllegalAction as err:
                return str(err)
        elif math.hypot(path[0][0] - s.x, path[0][1] - s.y) > 1e-6:
            return "a path starts at the stand's centre"
        if any(not self.table.on_table(x, y) for x, y in path):
            return "the path leaves the table"
        if self.table.crosses_impassable(path):
            return "the path crosses impassable ground"
        return None

    def _check_entry(self, s: StandState, path) -> None:
        edge = self.side_spec[s.side].entry_edge
        x, y = path[0]
        w, d = self.table.width, self.table.depth
        on_edge = {
            "left": abs(x) < 1e-6 and 0.5 <= y <= d - 0.5,
            "right": abs(x - w) < 1e-6 and 0.5 <= y <= d - 0.5,
            "bottom": abs(y) < 1e-6 and 0.5 <= x <= w - 0.5,
            "top": abs(y - d) < 1e-6 and 0.5 <= x <= w - 0.5,
        }.get(edge, False)
        if not on_edge:
            raise IllegalAction(f"{s.id} enters from the {edge} edge: start the path on it")
        ex, ey = path[-1]
        inside = {"left": ex, "right": w - ex, "bottom": ey, "top": d - ey}.get(edge, STEP_IN)
        if inside < STEP_IN - 1e-9:
            # a stand left on or along the edge would hang half off the table
            raise IllegalAction(
                f'{s.id} must drive onto the table: end its path at least 0.5" in from the edge'
            )
        heading = (
            math.degrees(math.atan2(path[1][1] - y, path[1][0] - x))
            if len(path) > 1
            else s.facing_deg
        )
        if not self.room_at(x, y, heading):
            raise IllegalAction(f"there is no room for {s.id} to enter there")

    def room_at(self, x: float, y: float, facing: float, ignore: str | None = None) -> bool:
        """True when a footprint at (x, y, facing) overlaps no stand on the table but
        ``ignore`` (000 08.03.05; wrecks never count)."""
        fp = footprint(x, y, facing)
        near = [
            o.pose()
            for o in self.state.stands.values()
            if o.active and o.id != ignore and abs(o.x - x) < 1.5 and abs(o.y - y) < 1.5
        ]
        return not any(fp.intersection(o).area > 1e-6 for o in footprints(near))

    def _road_flags(self, points) -> tuple[bool, ...]:
        """For each step point after the first: was the step arriving there paid at a road's
        rate (RD: no cover while moving at road rate)."""
        if len(points) < 2:
            return ()
        mids = np.array(
            [
                ((x0 + x1) / 2, (y0 + y1) / 2)
                for (x0, y0), (x1, y1) in zip(points, points[1:], strict=False)
            ]
        )
        return tuple(self.table.terrain_at(x, y).road is not None for x, y in mids)

    def _opportunity_offer(
        self, mover: StandState, pm: PendingMove
    ) -> dict[int, list[tuple[str, str]]]:
        """Where along the path each eligible enemy stand could fire (000 07.06.05): a stand
        suffers one opportunity-fire attack a movement phase at most."""
        if "movement" in mover.attacked_in:
            return {}
        firers = [
            e
            for e in self.state.stands.values()
            if e.active and e.side != mover.side and self.rules.may_opportunity_fire(e)
        ]
        if not firers:
            return {}
        targets = [
            StandPose(mover.id, mover.side, x, y, h)
            for (x, y), h in zip(pm.points, pm.headings, strict=True)
        ]
        m = self.table.sight_matrix(
            [f.pose() for f in firers],
            targets,
            self.poses(exclude=mover.id),
            self.sighting_in,
            self.ruleset_data,
        )
        offer: dict[int, list[tuple[str, str]]] = {}
        for i, f in enumerate(firers):
            for k in np.nonzero(m.clear[i])[0]:
                info = sight_info(m, i, k)
                road = pm.road_rate[k - 1] if k > 0 else False
                for weapon in ("cannon", "atgm") if f.unit.atgm else ("cannon",):
                    fs = self.fire_setup(
                        f.id, mover.id, weapon, "opportunity", targets[k], info, road
                    )
                    if fs.legal:
                        offer.setdefault(int(k), []).append((f.id, weapon))
                        pm.setups[(int(k), f.id)] = fs
                        break
        return offer

    def _do_let_pass(self, a: LetPass) -> None:
        pm = self.state.pending
        if pm is None:
            raise IllegalAction("there is no move to let pass")
        self.state.pending = None
        self.state.to_act = pm.side
        self._finish_move(pm, None)

    def _do_opportunity_fire(self, a: OpportunityFire) -> None:
        st = self.state
        pm = st.pending
        if pm is None:
            raise IllegalAction("opportunity fire answers an enemy move")
        if a.step not in pm.offer:
            raise IllegalAction(f"no stand of {a.side} may fire at step {a.step} of the move")
        allowed = set(pm.offer[a.step])
        for f, w in zip(a.attackers, a.weapons, strict=False):
            if (f, w) not in allowed:
                raise IllegalAction(f"{f} may not opportunity fire with its {w} at step {a.step}")
        mover = self.stand(pm.stand)
        x, y = pm.points[a.step]
        tpose = StandPose(mover.id, mover.side, x, y, pm.headings[a.step])
        road = pm.road_rate[a.step - 1] if a.step > 0 else False
        setups = self._check_attack(
            a.side, mover.id, a.attackers, a.weapons, "opportunity", tpose, road_rate=road
        )
        st.pending = None
        st.to_act = pm.side
        # the first part of the move, up to where the enemy stopped it
        spent = sum(pm.step_costs[: a.step])
        self._event(
            "move",
            side=pm.side,
            stand=mover.id,
            path=[[round(px, 6), round(py, 6)] for px, py in pm.points[: a.step + 1]],
            mp_spent=round(spent, 6),
            mp_allowed=pm.mp_allowed,
            facing_deg=round(pm.headings[a.step], 6),
            stopped_by="opportunity_fire",
            entered=pm.entered,
        )
        mover.x, mover.y, mover.facing_deg, mover.on_table = x, y, pm.headings[a.step], True
        result = self._resolve_attack(setups, "opportunity", "movement", tpose)
        go_on: dict = {"roll": None}
        if not mover.eliminated and self.rules.roll_to_go_on(result):
            roll = self.dice.d20()
            mods = marker_mods(mover.S, mover.D)
            total = roll + sum(v for _, v in mods)
            level = self.cohesion_level(mover.side)
            go_on = {
                "roll": roll,
                "mods": mods_json(mods),
                "total": total,
                "level": level,
                "passed": combat.cohesion_passes(roll, total, level),
            }
        if self.rules.covering_fire:
            answered = [f for f in a.attackers if self.stand(f).active]
            st.covering = CoveringWindow(pm.side, pm, a.step, go_on, answered)
            if self._covering_options(pm.side):
                st.to_act = pm.side
                return
            st.covering = None
        self._go_on(pm, a.step, go_on)

    def _go_on(self, pm: PendingMove, step: int, go_on: dict) -> None:
        """The mover goes on after opportunity fire (and any covering fire): the rest of its
        move, or nothing if it was eliminated (001 7.4.4, 000 07.06.05)."""
        mover = self.stand(pm.stand)
        if mover.eliminated:
            mover.moved = True
            self._after_move(pm.side)
            return
        self._finish_move(pm, step, go_on)

    def _do_covering_fire(self, a: CoveringFire) -> None:
        st = self.state
        cw = st.covering
        if cw is None:
            raise IllegalAction("covering fire answers the enemy's opportunity fire (001 7.5)")
        if a.target not in cw.targets:
            raise IllegalAction(
                f"{a.target} did not just opportunity-fire, or has been answered already"
            )
        setups = self._check_attack(a.side, a.target, a.attackers, a.weapons, "covering")
        self._resolve_attack(setups, "covering", "movement")
        cw.targets.remove(a.target)
        cw.targets = [t for t in cw.targets if self.stand(t).active]
        if not self._covering_options(a.side):
            st.covering = None
            self._go_on(cw.move, cw.step, cw.go_on)

    def _do_end_covering_fire(self, a: EndCoveringFire) -> None:
        cw = self.state.covering
        if cw is None:
            raise IllegalAction("there is no covering fire to decline")
        self.state.covering = None
        self._go_on(cw.move, cw.step, cw.go_on)

    def _finish_move(
        self, pm: PendingMove, from_step: int | None, go_on: dict | None = None
    ) -> None:
        """Walk the rest of the move (all of it when nothing interrupted it), fit the stand in
        where it ends, and log the part (000 08.03.05, 07.06.05 part 3). A WWII stand stopped
        against an enemy stand it means to pass through rolls its nerve there (cohesion at +3,
        001 8.3.6, logged on the part's ``move`` line as ``pass_through``): if it passes, the
        rest of its path is a new part of the same move; if not, it stays there."""
        s = self.stand(pm.stand)
        start = from_step or 0
        end = len(pm.points) - 1
        stopped = pm.stopped_by
        if go_on and go_on.get("roll") is not None and not go_on["passed"]:
            end, stopped = start, "cohesion"
        last = len(pm.points) - 1
        to_pass = pm.blocker is not None and end == last
        # stopped to test its nerve, the stand still faces the way it drives
        facing = pm.headings[end] if end < last or to_pass else pm.facing_deg
        others = footprints(
            [o.pose() for o in self.state.stands.values() if o.active and o.id != s.id]
        )
        fit = self.table.fit_back(pm.points[: end + 1], facing, list(others))
        if fit < 0:  # fits nowhere turned that way: it stays where it started, as it was
            fit, facing = 0, pm.start_facing
        walked = list(pm.points[start : end + 1])
        if fit < end:
            stopped = "overlap"
            walked = (
                list(pm.points[start : fit + 1])
                if fit >= start
                else [pm.points[start]] + [pm.points[i] for i in range(start - 1, fit - 1, -1)]
            )
        mp_left = pm.mp_allowed - sum(pm.step_costs[:start])
        spent = sum(pm.step_costs[start:end])
        if stopped not in (None, "opportunity_fire", "cohesion", "overlap", "mp", "enemy"):
            stopped = "mp"  # edge and impassable ground are refused when the move is declared
        nerve = None
        if to_pass and stopped == "enemy" and fit == end:
            roll = self.dice.d20()
            mods = [("pass_through", PASS_THROUGH_MOD), *marker_mods(s.S, s.D)]
            total = roll + sum(v for _, v in mods)
            level = self.cohesion_level(s.side)
            nerve = {
                "enemy": pm.blocker,
                "roll": roll,
                "mods": mods_json(mods),
                "total": total,
                "level": level,
                "passed": combat.cohesion_passes(roll, total, level),
            }
            x, y = pm.points[end]
            if not nerve["passed"] and self.room_at(x, y, pm.facing_deg, ignore=s.id):
                facing = pm.facing_deg  # it stays, and may still turn as the player asked
        ev = dict(
            side=pm.side,
            stand=s.id,
            path=[[round(px, 6), round(py, 6)] for px, py in walked],
            mp_spent=round(min(spent, mp_left), 6),
            mp_allowed=round(mp_left, 6),
            facing_deg=round(facing % 360.0, 6),
            stopped_by=stopped,
            entered=pm.entered and from_step is None,
        )
        if go_on and go_on.get("roll") is not None:
            ev["cohesion"] = go_on
        if nerve is not None:
            ev["pass_through"] = nerve
        self._event("move", **ev)
        s.x, s.y = pm.points[fit]
        s.facing_deg = facing % 360.0
        s.on_table = True
        if nerve is not None and nerve["passed"]:
            so_far = pm.walked_in + sum(
                math.dist(p, q) for p, q in zip(pm.points, pm.points[1:], strict=False)
            )
            self._begin_part(
                pm.side,
                s,
                pm.rest,
                pm.facing_deg,
                max(0.0, mp_left - spent),
                False,
                (*pm.passed, pm.blocker),
                so_far,
            )
            return
        s.moved = True
        self.state.groups_moved.add(f"{s.side}:{s.group}")
        self._after_move(pm.side)

    def _after_move(self, side: str) -> None:
        st = self.state
        st.pending = None
        mg = st.moving
        if mg is not None and all(
            self.state.stands[i].moved or self.state.stands[i].eliminated for i in mg.stands
        ):
            st.moving = None
            st.to_act = self.other(side)
        else:
            st.to_act = side

    # ================================================================== saves

    def save(self, path: str | os.PathLike) -> None:
        """Write the battle as scenario + seed + actions, atomically, with the state hash."""
        doc = {
            "format": SAVE_FORMAT,
            "scenario_path": self.scenario.path,
            "scenario": self.scenario.raw,
            "seed": self.seed,
            "actions": [a.to_dict() for a in self.actions],
            "turn": self.state.turn,
            "phase": self.state.phase,
            "state_hash": self.state_hash(),
            "meta": self.meta,
        }
        write_atomic(path, json.dumps(doc, separators=(",", ":")) + "\n")

    @classmethod
    def load(
        cls,
        path: str | os.PathLike,
        log_path: str | os.PathLike | None = None,
        autosave: str | os.PathLike | None = None,
    ) -> Battle:
        """Load a save: rebuild the scenario it carries, replay its actions with its seed and
        check that the state hash matches.

        Raises SaveError naming the file, the field and the problem.
        """
        where = str(path)
        try:
            doc = json.loads(Path(path).read_text(encoding="utf-8"))
        except FileNotFoundError:
            raise SaveError(f"{where}: no such file") from None
        except (OSError, UnicodeDecodeError, json.JSONDecodeError) as err:
            raise SaveError(f"{where}: not a readable save ({err})") from None
        if not isinstance(doc, dict) or doc.get("format") != SAVE_FORMAT:
            raise SaveError(f"{where}: $.format: not a {SAVE_FORMAT} file")
        for field_name in ("scenario", "seed", "actions", "state_hash"):
            if field_name not in doc:
                raise SaveError(f"{where}: $.{field_name}: required field is missing")
        try:
            scenario = parse_scenario(doc["scenario"], doc.get("scenario_path", where))
        except ScenarioError as err:
            raise SaveError(f"{where}: $.scenario: {err.problems[0]}") from None
        battle = cls(scenario, int(doc["seed"]), log_path=log_path)
        for i, raw in enumerate(doc["actions"]):
            try:
                battle.apply(action_from_dict(raw))
            except (ValueError, TypeError) as err:
                raise SaveError(f"{where}: $.actions[{i}]: {err}") from None
        if battle.state_hash() != doc["state_hash"]:
            raise SaveError(
                f"{where}: $.state_hash: the replay reached state "
                f"{battle.state_hash()}, the save says {doc['state_hash']}"
            )
        battle.autosave = autosave
        meta = doc.get("meta", {})
        battle.meta = meta if isinstance(meta, dict) else {}
        return battle
