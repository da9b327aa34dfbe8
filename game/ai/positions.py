"""What the scripted AI thinks a stand's position and its path there are worth: the shots it
gives next turn against the fire it draws, the way still to go to find the enemy (seeking
sight of one hidden behind or inside terrain), enemy stands still to enter or that fire first
and are closing in, and the opportunity fire the path invites (000 07.06.05)."""

from __future__ import annotations

import dataclasses
import math
from typing import Any

import numpy as np
from shapely.geometry import Point

from game import StandPose, base_contact, heading_deg, sight_info
from game.ai.values import attack_value, final_odds, first_shot, harm, stand_value

OWN_AIM_CLEAR_IN = 5.0
"""Our stands end their moves at least this far (inches) from where our own air strikes and
HE missions that land next turn aim; nearer, a position loses up to :data:`OWN_AIM_COST`
of the stand's value (the most on the aim point itself)."""
OWN_AIM_COST = 0.5


class Positions:
    """A part of :class:`game.ai.scripted.ScriptedAI`: positions and paths scored, in stands.
    Built with the AI's ``level``, its ``memory`` (:class:`game.ai.memory.Memory`:
    ``hidden_at``, ``exposed``, ``path_kill``, ``known_plots``) and the parts it asks:
    ``situation`` (:class:`game.ai.situation.Situation`), ``fire``
    (:class:`game.ai.fire.FireChooser`, the shots) and ``paths``
    (:class:`game.ai.paths.Paths`)."""

    def __init__(self, level, memory, situation, fire, paths) -> None:
        self.level = level
        self.memory = memory
        self.situation = situation
        self.fire = fire
        self.paths = paths

    def _phantoms(self, battle, side) -> list[tuple]:
        """Where the enemy stands still waiting to enter will likely be once they have come on
        (the scenario sheets bring both sides on on turn 1): 0.9 of a full move (inches, their
        speed in movement points on clear ground) straight in from where they wait, facing in.
        Returns (stand, StandPose) pairs; none once every enemy stand is on the table."""
        out = []
        t = battle.table
        for e in battle.state.stands.values():
            if e.side == side or e.on_table or e.eliminated:
                continue
            edge = battle.side_spec[e.side].entry_edge
            d = 0.9 * e.unit.speed
            x, y, f = {
                "left": (min(d, t.width - 0.5), e.y, 0.0),
                "right": (max(t.width - d, 0.5), e.y, 180.0),
                "bottom": (e.x, min(d, t.depth - 0.5), 90.0),
                "top": (e.x, max(t.depth - d, 0.5), 270.0),
            }.get(edge, (e.x, e.y, e.facing_deg))
            out.append((e, StandPose(e.id, e.side, x, y, f)))
        return out

    def _closing(self, battle, s, enemies, press: float) -> list[tuple]:
        """Where enemy stands that fire before ``s`` (a higher tech level, 000 05.00) and have not
        moved yet this movement phase could be once they have: closer to ``s`` by three times the
        enemy's pace (``Situation.approach``), at most half a move and never nearer than 4", facing
        it. Returns (stand, StandPose, weight) triples; the weight (0.75, fading to 0 as the clock
        presses) is how much the fire it could give from there counts. A stand that stops where a
        faster-firing enemy will see it after closing in is shot first next turn."""
        if not battle.phase or battle.phase.kind != "movement":
            return []
        faster = [
            e for e in enemies if not e.moved and e.on_table and first_shot(battle, e, s) > 1.0
        ]
        pace = 3.0 * self.situation.approach(battle, s.side) if faster else 0.0
        t = battle.table
        out = []
        for e in faster:
            dx, dy = s.x - e.x, s.y - e.y
            d = math.hypot(dx, dy) or 1.0
            k = min(0.5 * e.unit.speed, max(0.0, d - 4.0), pace)
            x = min(max(e.x + k * dx / d, 0.5), t.width - 0.5)
            y = min(max(e.y + k * dy / d, 0.5), t.depth - 0.5)
            pose = StandPose(e.id, e.side, x, y, math.degrees(math.atan2(dy, dx)) % 360)
            out.append((e, pose, 0.75 * (1.0 - press)))
        return out

    def _hidden(self, battle, p) -> bool:
        """Whether a stand at pose ``p`` is deep inside terrain that blocks sight (its centre
        more than 0.8" inside), so that only a stand in base contact can see it (001 6.1).
        Where to go only: whether a shot may be taken is always the engine's answer. Kept per
        point, as enemy stands seldom move between two plans."""
        key = (p.x, p.y)
        if key not in self.memory.hidden_at:
            at = Point(p.x, p.y)
            self.memory.hidden_at[key] = any(
                battle.data.terrain[f.kind].blocks_sight
                and f.geometry.contains(at)
                and f.geometry.boundary.distance(at) > 0.8
                for f in battle.table.areas
            )
        return self.memory.hidden_at[key]

    def idle_carrier(self, battle, s) -> bool:
        """Whether ``s`` is a carrier with nobody aboard and a gun too weak to fight with (firepower
        at most ``Level.shields_carriers``), for a level that keeps such stands out of the fight: it
        is not drawn towards the enemy when it has nothing to shoot. Its work is to fetch foot
        stands (``FullGameChooser.fetch``), so it is not idle while one of ours within its move has
        further to go than it walks in a turn; in the breakthrough a halftrack (3 against a
        Pershing's 11) that drove on after setting its riders down was an easy kill, and the
        scenario is won on the count of stands destroyed."""
        weak = self.level.shields_carriers
        if not weak or not s.unit.carrier or s.unit.firepower > weak:
            return False
        mine = [o for o in battle.state.stands.values() if o.side == s.side and not o.eliminated]
        if any(o.carried_by == s.id for o in mine):
            return False
        # a foot stand within its reach with further to go than it walks in a turn may want a
        # ride (``FullGameChooser.mount``, ``fetch``): then the carrier's way forward still counts
        return not any(
            o.personnel
            and battle.indirect_reach(o.id) is None  # (guns fire from where they stand)
            and o.carried_by is None
            and o.on_table
            and math.hypot(o.x - s.x, o.y - s.y) <= s.unit.speed
            and self.paths.way_to_go(battle, o) > o.unit.speed
            for o in mine
        )

    def covered(self, battle, p) -> bool:
        """Whether a stand at p has cover from the terrain (woods, buildings, a crest...)."""
        here = battle.table.terrain_at(p.x, p.y)
        return here.hill_zone == "hilltop" or any(
            battle.data.terrain[k].combat_vehicle > 0 for k in here.areas
        )

    def path_risks(self, battle, s, walks, enemies) -> list[float]:
        """The opportunity fire each path of ``walks`` invites (stands), every path weighed:
        ``risk_reckoner``'s answer for each. Also sets the memory's ``path_kill``: per path, the
        best chance (0..1) of eliminating the stand on it."""
        reckon = self.risk_reckoner(battle, s, walks, enemies)
        both = [reckon(i) for i in range(len(walks))]
        self.memory.path_kill = [k for _, k in both]
        return [r for r, _ in both]

    def own_aims(self, battle, side) -> list[tuple[float, float]]:
        """The points where our own air strikes and HE missions plotted to land next turn
        aim (each marker centre of a sheaf): an air strike attacks the stand nearest where
        it comes down, friend or foe, and a marker every stand under it, so our stands keep
        clear of them (:data:`OWN_AIM_CLEAR_IN`). In a network battle our own hidden plots
        come from the memory's ``known_plots`` (the engine holds only their commitments)."""
        out: list[tuple[float, float]] = []
        hidden = battle.state.hidden
        for m in battle.state.missions:
            if m.side != side or m.lands_turn > battle.state.turn + 1:
                continue
            path, sheaf, ammo = m.path, m.sheaf, m.ammo
            kept = self.memory.known_plots.get(hidden[m.id]) if m.id in hidden else None
            if kept is not None:  # our own hidden plot: what we kept of it
                plot = kept["plot"]
                path, sheaf = plot.get("path", ()), plot.get("sheaf", ())
                ammo = plot.get("ammo", "he")
            if m.kind == "air" and len(path) == 3:
                out.append(tuple(path[1]))
            elif m.kind == "artillery" and ammo == "he":
                out += [tuple(c) for c in sheaf]
        return out

    def marker_reckoner(self, battle, s, cands):
        """A function of a candidate move's index in ``cands`` (``(end, path, facing,
        walk)``) that gives (what the impact markers on the table it would drive into are
        expected to do to ``s``, stands; their chance, 0..1, of eliminating it), by the
        engine's odds (``Battle.impact_entry_odds``: each marker attacks a stand entering it
        once a turn, 002 step 6), whoever laid them. None when no marker is on the table."""
        if not battle.state.impacts:
            return None
        value = stand_value(s)
        known: dict[int, tuple[float, float]] = {}

        def marks(i: int) -> tuple[float, float]:
            if i not in known:
                _end, _path, facing, walk = cands[i]
                odds = battle.impact_entry_odds(s.id, walk, facing)
                known[i] = (harm(odds, value), odds["E"]) if odds["markers"] else (0.0, 0.0)
            return known[i]

        return marks

    def risk_reckoner(self, battle, s, walks, enemies, order=None):
        """A function of a path's index in ``walks`` that gives (the opportunity fire it
        invites, stands; the best chance, 0..1, of eliminating the stand on it), each path
        weighed only when asked (``MovePlanner.plan`` asks only the paths that could still be best).
        What the paths share is worked out once: the sight of each step point, each firer's
        pose, and the attack at each point once weighed. ``order``: the paths' indices in the
        order they will likely be asked (default: as given); the step points are sighted in
        batches along it (6 paths, then twice as many each time more are asked), so the
        paths never asked are never sighted. Each pose's sight is the engine's answer
        whichever batch asks it.

        The opportunity fire a path invites is the best attack the enemy's eligible stands
        could make at a point of it, the stand facing the way it drives (000 07.06.05).

        ``walks`` are the step points (inches, 0.5" apart, the start first) the engine would
        walk. Sight is checked at every step, the start included (the engine offers that point
        too, so a stand in view invites fire just by moving off), so a brief gap in cover is
        not missed; the attacks are then weighed at every 4th point each firer sees and at the
        last, which bounds the cost. Planned in the posture phase (WWII), before the enemy
        has declared all its movement groups, each enemy stand on the table not yet declared
        to move is asked about as if it stays in the firing posture (the engine's rule)."""
        firers = _opportunity_firers(battle, enemies)
        if not firers or "movement" in s.attacked_in:
            return lambda i: (0.0, 0.0)
        poses, col, starts = _step_poses(s, walks)
        others = [o.pose() for o in battle.state.stands.values() if o.active and o.id != s.id] + [
            w.pose() for w in battle.state.wrecks
        ]
        fposes = [f.pose() for f in firers]
        reach = np.array([f.unit.max_range_in for f in firers], dtype=float)[:, None]
        seen_u = np.zeros((len(firers), len(poses)), dtype=bool)  # firer x pose, once sighted
        sighted: dict[int, tuple] = {}  # pose -> (its sight matrix, its column there)
        order = list(range(len(walks))) if order is None else list(order)
        rank = {i: r for r, i in enumerate(order)}
        batch = [6]  # paths sighted at the next miss
        done: set[int] = set()  # paths whose step points are all sighted

        def sight(i: int) -> None:
            # the step points of path i and of the next paths in ``order``, in one query
            paths = [i] + [j for j in order[rank[i] + 1 :] if j not in done]
            us: list[int] = []
            for j in paths[: batch[0]]:
                done.add(j)
                us.extend(u for u in col[starts[j] : starts[j + 1]] if u not in sighted)
            us = list(dict.fromkeys(us))
            batch[0] *= 2
            part = [poses[u] for u in us]
            battle.table.terrain_at_many([(p.x, p.y) for p in part])  # asked below, at once
            m = battle.table.sight_matrix(
                fposes, part, others, battle.sighting_in, battle.ruleset_data
            )
            seen_u[:, us] = m.clear & (m.range_band_in <= reach)
            for k, u in enumerate(us):
                sighted[u] = (m, k)

        free: list = []  # per firer, ``FireChooser.unengaged_pose``: asked once, when first needed
        # the attack at each pose weighed: (its value, its chance to eliminate), or None
        attack: dict[int, tuple[float, float] | None] = {}

        def reckon(i: int) -> tuple[float, float]:
            start, risk, kill = starts[i], 0.0, 0.0
            if i not in done:
                sight(i)
            weigh = _points_to_weigh(seen_u[:, col[start : starts[i + 1]]])
            if weigh and not free:
                free.extend(self.fire.unengaged_pose(battle, f) for f in firers)
            for k in weigh:
                u = col[start + k]
                if u not in attack:
                    m, c = sighted[u]
                    attack[u] = self._attack_at(battle, s, firers, free, m, c, seen_u, poses, u)
                hit = attack[u]
                if hit is not None:
                    risk = max(risk, hit[0])
                    kill = max(kill, hit[1])
            return risk, kill

        return reckon

    def _attack_at(
        self, battle, s, firers, free, m, c, seen, poses, u
    ) -> tuple[float, float] | None:
        """The enemy's best opportunity attack at ``s`` in pose ``poses[u]`` (``path_risks``): (its
        value in stands, its chance of eliminating ``s``, 0..1), or None when no firer that sees it
        there (``seen``, firer x pose) has a shot. ``m``: the sight matrix with the pose in column
        ``c``. ``free``: per firer, ``FireChooser.unengaged_pose`` (asked once for the whole
        plan)."""
        p = poses[u]
        setups = []
        for j, f in enumerate(firers):
            if seen[j, u]:
                fs = self.fire.best_shot(
                    battle, f, s, sight_info(m, j, c), target_pose=p, attacker_pose=free[j]
                )
                if fs is not None:
                    setups.append(fs)
        if not setups:
            return None
        kill = final_odds(battle, setups, s.S, s.D)["eliminated"]
        return attack_value(battle, setups, s), kill

    def score_positions(self, battle, s, poses, enemies, goal, survive=None) -> list[float]:
        """Each position's worth (stands; ``position_parts``), the shots it gives weighed by
        ``survive`` (per pose, the chance, 0..1, of getting there alive; all 1 if None)."""
        return [
            finish(part, survive[i] if survive else 1.0)
            for i, part in enumerate(self.position_parts(battle, s, poses, enemies, goal))
        ]

    def position_parts(self, battle, s, poses, enemies, goal) -> list[tuple]:
        """Each position's worth: the shots it gives next turn, less the fire it draws
        (cover, hull-down and facing count through the engine's own fire setups), less the
        distance still to cover towards the fight (into range of an enemy it would see from
        there, nearer to one it would not: ``Level.seeks_sight``), less straying from the
        group, plus ``Level.keeps_company`` (WWII) where a stand on its way ends beside one of
        ours. Enemy stands still waiting to enter count where they will likely be after their
        first move (``_phantoms``), so a stand entering on turn 1 does not stop in the open in
        front of where the enemy will arrive; enemy stands that fire first and have yet to move
        count also where they could close in to (``_closing``), as a threat only.

        Returns, per pose, its parts (``finish`` makes them its score in stands, given the
        chance of getting there alive), so that the same positions can be scored with and
        without the risks of the way there."""
        side = s.side
        phantoms = self._phantoms(battle, side)
        self.memory.exposed = [False] * len(poses)  # whether an enemy on the table sees each pose
        if not enemies and not phantoms:  # nobody to see: come forward, from cover to cover
            return [
                (
                    None,
                    -math.hypot(p.x - goal[0], p.y - goal[1]) / 10
                    + (0.6 if self.covered(battle, p) else 0.0),
                    (),
                )
                for p in poses
            ]
        f = self._field(battle, s, poses, enemies, phantoms)
        parts = []
        for i, p in enumerate(poses):
            offense, threat = self._fire_exchange(battle, s, f, i, p)
            self.memory.exposed[i] = any(f.seen_from(j, i) for j in range(f.real))
            offense.sort(reverse=True)
            # shots are only given by a stand that gets there: ``finish`` weighs them
            adjust = self._adjustments(battle, s, f, i, p, offense, threat)
            parts.append(((f.shot_w, sum(offense[: f.shots])), f.caution * threat, adjust))
        return parts

    def _field(self, battle, s, poses, enemies, phantoms) -> _Field:
        """What ``position_parts`` weighs every pose of stand ``s`` against: the enemy
        stands (on the table, then ``phantoms`` waiting to enter, then those that could close
        in, ``_closing``), their poses, the sight matrices both ways between ``poses`` and
        them, and the side's situation (pressure, caution, the weight of a shot), the
        group's centre (inches) and the stand's own aims, cost of the open and company."""
        side = s.side
        real = len(enemies)  # enemy stands on the table; phantoms and closing ones follow
        others = [o.pose() for o in battle.state.stands.values() if o.active and o.id != s.id] + [
            w.pose() for w in battle.state.wrecks
        ]
        press = self.situation.pressure(battle, side)
        closing = self._closing(battle, s, enemies, press)
        # enemies on the table where they are, those waiting where they will likely be, and
        # those that fire first where they could close in to (their fire only, weighed)
        epose = (
            [e.pose() for e in enemies] + [ph for _, ph in phantoms] + [c for _, c, _ in closing]
        )
        placed = [None] * len(enemies) + [ph for _, ph in phantoms] + [c for _, c, _ in closing]
        weight = [1.0] * (len(enemies) + len(phantoms)) + [w for _, _, w in closing]
        targetable = [True] * (len(enemies) + len(phantoms)) + [False] * len(closing)
        enemies = list(enemies) + [e for e, _ in phantoms] + [e for e, _, _ in closing]
        m_ab, m_ba = battle.table.sight_matrices(
            poses, epose, others, battle.sighting_in, battle.ruleset_data
        )
        gx, gy = self._group_centre(battle, s)
        wwii = battle.rules.postures
        need = [1.0 if wwii and self._hidden(battle, q) else 0.8 * s.unit.gun_range for q in epose]
        # where each enemy fires from: placed, or where it stands (asked once, not per shot)
        at = [
            q if q is not None else self.fire.unengaged_pose(battle, e)
            for e, q in zip(enemies, placed, strict=True)
        ]
        caution = self.situation.caution(battle, side, press)
        shot_w = self.situation.shot_weight(battle, side, press)
        idle = self.idle_carrier(battle, s)  # an empty, weak carrier hangs back
        aims = self.own_aims(battle, side)
        shots = battle.rules.fire.shots_per_turn(s)  # the targets it can engage next turn
        # WWII: a stand closing up beside one of ours may move with it next turn on one roll
        bonus = self.level.keeps_company if wwii else 0.0
        company = self.paths.company(battle, s) if bonus else []
        return _Field(
            enemies,
            epose,
            placed,
            weight,
            targetable,
            real,
            m_ab,
            m_ba,
            at,
            need,
            self.level.seeks_sight if wwii else self.level.seeks_modern,
            press,
            caution,
            shot_w,
            self.level.open_cost * stand_value(s),
            idle,
            aims,
            shots,
            bonus,
            company,
            gx,
            gy,
            self._watch(battle, s, poses, enemies[:real], others),
        )

    def _watch(self, battle, s, poses, enemies, others) -> list[float]:
        """Per pose of stand ``s``, the share (0..1) of the ground the enemy must cross to
        reach it that the pose sees within its gun's maximum range (``Level.overwatch``): two
        points on each enemy stand's straight way to ``s``, a third and two thirds of the
        way, each asked of the engine's sight matrices as a stand of the enemy's there,
        facing ``s``. Empty when no enemy stand is on the table, or the level does not weigh
        it (``overwatch`` 0)."""
        if not self.level.overwatch:
            return []
        ghosts = []
        for e in enemies:
            if not e.on_table:
                continue
            dx, dy = s.x - e.x, s.y - e.y
            facing = math.degrees(math.atan2(dy, dx)) % 360
            for k in (1 / 3, 2 / 3):
                ghosts.append(StandPose(e.id, e.side, e.x + k * dx, e.y + k * dy, facing))
        if not ghosts:
            return []
        m_g, _ = battle.table.sight_matrices(
            poses, ghosts, others, battle.sighting_in, battle.ruleset_data
        )
        reach = m_g.range_band_in <= s.unit.max_range_in
        return [float(v) for v in (m_g.clear & reach).mean(axis=1)]

    @staticmethod
    def _group_centre(battle, s) -> tuple[float | None, float | None]:
        """The centre (x, y inches) of the other active stands of ``s``'s battle group, or
        ``(None, None)`` when it has none."""
        group = [
            o
            for o in battle.state.stands.values()
            if o.side == s.side and o.group == s.group and o.active and o.id != s.id
        ]
        gx = sum(o.x for o in group) / len(group) if group else None
        gy = sum(o.y for o in group) / len(group) if group else None
        return gx, gy

    def _fire_exchange(self, battle, s, f: _Field, i: int, p) -> tuple[list[float], float]:
        """The fire between stand ``s`` at pose ``p`` (``poses[i]``) and each enemy of the
        field next turn, through the engine's own fire setups (cover, hull-down, facing):
        ``(offense, threat)``, the value of each shot it could give (stands; unsorted) and
        the fire it draws, each enemy's shot weighed by its weight and by the chance it
        fires first."""
        m_ab, m_ba = f.m_ab, f.m_ba
        offense = []
        threat = 0.0
        for j, e in enumerate(f.enemies):
            if (
                f.targetable[j]
                and m_ab.clear[i, j]
                and m_ab.range_band_in[i, j] <= s.unit.max_range_in
            ):
                info = sight_info(m_ab, i, j)
                fs = self.fire.best_shot(
                    battle, s, e, info, target_pose=f.placed[j], attacker_pose=p, next_turn=True
                )
                offense.append(attack_value(battle, [fs], e) if fs else 0.0)
            if f.seen_from(j, i):
                info = sight_info(m_ba, j, i)
                fs = self.fire.best_shot(
                    battle, e, s, info, target_pose=p, attacker_pose=f.at[j], next_turn=True
                )
                if fs is not None:
                    threat += f.weight[j] * first_shot(battle, e, s) * attack_value(battle, [fs], s)
        return offense, threat

    def _adjustments(self, battle, s, f: _Field, i: int, p, offense, threat) -> tuple:
        """What is added (+1) or taken (-1) from pose ``p``'s (``poses[i]``) worth after its
        shots, in order, as ``(sign, stands)`` pairs: standing in the open in an enemy's
        sight; with no shot from here, the distance still to go towards the fight and, late
        and short of kills, to the nearest enemy; straying over 4" from the group; standing
        where our own fire support comes down; and keeping company (WWII)."""
        adjust = []
        if f.open_cost and not self.covered(battle, p):
            seen_by = (f.seen_from(j, i) for j in range(len(f.enemies)) if f.weight[j] > 0)
            if any(seen_by):  # in the open, in an enemy's sight
                adjust.append((-1, f.open_cost))
        near = min(math.hypot(p.x - q.x, p.y - q.y) for q in f.epose)
        if not offense and not f.idle:  # nothing to shoot from here: find the enemy, within
            # range of one in the open, near one it would not see from here, into
            # contact with one hidden deep in a wood
            gap = min(
                max(0.0, math.hypot(p.x - q.x, p.y - q.y) - f.reach_to(i, j))
                for j, q in enumerate(f.epose)
            )
            adjust.append((-1, (0.04 + 0.02 * f.press) * gap))
            # late and short of kills, any closer point is likelier to see him
            adjust.append((-1, 0.04 * max(0.0, f.press - 0.4) * near))
        if f.gx is not None:
            adjust.append((-1, 0.01 * max(0.0, math.hypot(p.x - f.gx, p.y - f.gy) - 4)))
        for ax, ay in f.aims:  # keep clear of where our own fire support comes down
            d = math.hypot(p.x - ax, p.y - ay)
            if d < OWN_AIM_CLEAR_IN:
                adjust.append((-1, OWN_AIM_COST * stand_value(s) * (1 - d / OWN_AIM_CLEAR_IN)))
        if f.watch and not offense and f.watch[i] > 0 and self.covered(battle, p):
            # in cover, no shot yet, but over the ground the enemy must cross to come on
            adjust.append((1, self.level.overwatch * f.watch[i]))
        if f.bonus and not offense and threat == 0 and any(base_contact(p, q) for q in f.company):
            adjust.append((1, f.bonus))  # on the way: once in the fight, each stand seeks
            # its own shot
        return tuple(adjust)


def _opportunity_firers(battle, enemies) -> list:
    """The enemy stands that may opportunity fire (000 07.06.05). Asked in the posture phase
    (WWII), before the enemy has declared all its movement groups, each enemy stand on the
    table not yet declared to move counts as staying in the firing posture (the engine's
    rule)."""
    may = battle.rules.fire.may_opportunity_fire
    if battle.phase and battle.phase.kind == "posture":
        return [
            e
            for e in enemies
            if e.on_table and may(dataclasses.replace(e, posture=e.posture or "firing"))
        ]
    return [e for e in enemies if may(e)]


def _step_poses(s, walks) -> tuple[list[StandPose], list[int], list[int]]:
    """The step points of every path of ``walks`` (inches) as poses of stand ``s``, facing
    the way it drives (degrees), each distinct pose once: a short straight move is the start
    of the long one the same way, and each path starts where the stand is. Returns
    ``(poses, col, starts)``: the distinct poses, each step point's pose index in order,
    and where each path's step points start in ``col`` (one more than there are paths)."""
    poses: list[StandPose] = []
    at: dict[tuple[float, float, float], int] = {}
    col: list[int] = []  # sample -> its pose in ``poses``
    for pts in walks:
        for k in range(len(pts)):
            (x0, y0), (x1, y1) = (pts[0], pts[1]) if k == 0 else (pts[k - 1], pts[k])
            heading = heading_deg(x0, y0, x1, y1) % 360
            x, y = pts[k]
            u = at.get((x, y, heading))
            if u is None:
                u = at[(x, y, heading)] = len(poses)
                poses.append(StandPose(s.id, s.side, x, y, heading))
            col.append(u)
    starts = [0]
    for pts in walks:
        starts.append(starts[-1] + len(pts))
    return poses, col, starts


def _points_to_weigh(block: np.ndarray) -> set[int]:
    """The step points of a path at which attacks are weighed, from ``block`` (firer x step
    point, True where the firer sees the point within its range): every 4th point each
    firer sees, and the last it sees, which bounds the cost."""
    weigh: set[int] = set()
    for row in block:
        ks = np.flatnonzero(row)
        if len(ks):
            weigh.update(ks[::4].tolist())
            weigh.add(int(ks[-1]))
    return weigh


@dataclasses.dataclass(frozen=True)
class _Field:
    """The enemy and the side's situation as ``Positions.position_parts`` weighs a stand's
    poses against them (built by ``Positions._field``): the enemy stands (``real`` of them
    on the table first), their poses, where each is placed for the shot (None: where it
    stands) and fires from (``at``), each one's weight and whether it may be targeted; the
    sight matrices poses->enemies (``m_ab``) and back (``m_ba``); how near a pose must come
    to each (``need``, inches, and ``seek``, ``Level.seeks_sight``); and the stand's
    situation: pressure, caution, shot weight, cost of the open, idle carrier, own aims
    (x, y inches), shots a turn, company bonus and stands, group centre (inches)."""

    enemies: list
    epose: list
    placed: list
    weight: list
    targetable: list
    real: int
    m_ab: Any
    m_ba: Any
    at: list
    need: list
    seek: float
    press: float
    caution: float
    shot_w: float
    open_cost: float
    idle: bool
    aims: list
    shots: int
    bonus: float
    company: list
    gx: float | None
    gy: float | None
    watch: list

    def seen_from(self, j: int, i: int) -> bool:
        """Whether enemy ``j`` sees pose ``i`` within its maximum range."""
        return bool(
            self.m_ba.clear[j, i]
            and self.m_ba.range_band_in[j, i] <= self.enemies[j].unit.max_range_in
        )

    def reach_to(self, i: int, j: int) -> float:
        """How near (inches) pose ``i`` must come to enemy ``j``: into range if it would see
        it from there; nearer if the engine's sight line is blocked (a wood, a hill, a
        stand)."""
        return (
            self.need[j] if not self.seek or self.m_ab.clear[i, j] else min(self.need[j], self.seek)
        )


def finish(part: tuple, alive: float) -> float:
    """A position's score (stands) from its parts (``Positions.position_parts``) and
    the chance (0..1) of getting there alive, which weighs the shots it gives: worked out in
    the same order, so the same number, as when it was scored in one go. Never raises."""
    shots, drawn, adjust = part
    if shots is None:  # nobody to see: the score does not depend on the way there
        return drawn
    press, offense = shots
    score = press * alive * offense - drawn
    for sign, v in adjust:
        score = score - v if sign < 0 else score + v
    return score
