"""Artillery in the full games (002 direct artillery and indirect fire procedures, 7.9-7.11;
004 7.6-7.9; rules-decisions "Artillery, smoke and air strikes"): the sheaf of impact markers
a mission lays, the deviation roll, the attack of an impact marker on every stand under it
(and on a stand that enters it while it lasts), smoke areas, and the exact odds of a mission
before it is fired. Units: inches, degrees.

An impact marker is a 2" circle; a mission of several stands lays one per stand, each centred
at its point of the sheaf, and the sheaf deviates as one. HE attacks; smoke makes a smoke
area (the chart's smoke row) until the marker removal phase of the next turn.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

import shapely

from game.rules.charts.fire_data import IMPACT_DIAMETER_IN
from game.rules.context import IllegalAction
from game.rules.files.log import mods_json
from game.rules.procedures import combat
from game.rules.procedures.combat import Mod, halved_up, marker_mods, target_terrain_mods
from game.rules.procedures.odds import read_cell
from game.rules.state import Impact, SmokeArea, StandState
from game.rules.table.geometry import (
    StandPose,
    footprint,
    footprints,
)
from game.rules.table.smoke import MARKER_RADIUS_IN, marker_circle, on_marker

if TYPE_CHECKING:
    from game.rules.context import BattleContext

SHEAF_TOUCH_IN = IMPACT_DIAMETER_IN + 1e-6
"""Each marker of a sheaf after the first touches one laid before it: centres at most 2"
apart (rules-decisions: "each touching the next")."""
AMMO = ("he", "smoke")


def card_rule(ctx: BattleContext, modern: str, wwii: str) -> str:
    """The rule a log line cites: ``"002 <modern>"`` in the full Modern game, else
    ``"004 <wwii>"`` (Wehrmacht '47)."""
    return ctx.rules.support.cite(modern, wwii)


def is_artillery(s: StandState) -> bool:
    """An artillery stand (its unit row is flagged ``artillery``)."""
    return "artillery" in getattr(s.unit, "flags", ())


def sheaf_problem(ctx: BattleContext, sheaf, n_firers: int) -> str | None:
    """Why a sheaf may not be laid, or None: one marker centre per firing stand, each on the
    table, each further one touching (centres within 2") one laid before it
    (rules-decisions "Artillery, smoke and air strikes")."""
    if len(sheaf) != n_firers:
        return f"a sheaf needs one marker per firing stand: {n_firers} stands, {len(sheaf)} markers"
    for k, (x, y) in enumerate(sheaf):
        if not ctx.table.on_table(x, y):
            return f"marker {k + 1} at ({x:.1f}, {y:.1f}) is off the table"
        if k and not any(math.dist((x, y), sheaf[j]) <= SHEAF_TOUCH_IN for j in range(k)):
            return f'marker {k + 1} does not touch the markers before it (centres within 2")'
    return None


def line_sheaf(aim: tuple[float, float], n: int, heading_deg: float = 0.0) -> tuple:
    """``n`` marker centres in a line through ``aim`` (inches), each touching the next (2"
    apart), the line running at ``heading_deg`` (counter-clockwise from +x), centred on the
    aim with the first marker on it: aim, then alternately either side."""
    dx, dy = math.cos(math.radians(heading_deg)), math.sin(math.radians(heading_deg))
    out = [aim]
    for k in range(1, n):
        step = (k + 1) // 2 * IMPACT_DIAMETER_IN * (1 if k % 2 else -1)
        out.append((round(aim[0] + dx * step, 6), round(aim[1] + dy * step, 6)))
    return tuple(out)


def aim_terrain_mods(ctx: BattleContext, x: float, y: float) -> list[Mod]:
    """The terrain effects at an aim point, as an artillery stand's cohesion roll takes them
    (002 direct and indirect procedures, "modified for terrain"): each area there with its
    "otherwise" value (house reading: the aim is a place, not a personnel target)."""
    mods: list[Mod] = []
    for kind in ctx.table.terrain_at(x, y).effect_areas:
        tt = ctx.data.terrain[kind]
        if tt.combat_when == "target_moving":
            continue
        value = tt.combat_effect(ctx.scenario.ruleset, False)
        if value:
            mods.append((f"terrain:{kind}", value))
    return mods


def indirect_range_problem(ctx: BattleContext, s: StandState, x: float, y: float) -> str | None:
    """Why artillery stand ``s`` cannot fire indirectly at (x, y), or None: its indirect range
    (fire_support.toml) from its centre."""
    r = ctx.data.fire_support.artillery.get(s.unit_name)
    if r is None:
        return f"{s.id} ({s.unit_name}) has no indirect range"
    d = math.hypot(x - s.x, y - s.y)
    if d > r.max_range + 1e-9:
        return f'{s.id} reaches {r.max_range}" indirectly: the aim is {d:.1f}" away'
    if d < r.min_range - 1e-9:
        return f'{s.id} fires indirectly from {r.min_range}": the aim is {d:.1f}" away'
    return None


def artillery_refusal(ctx: BattleContext, s: StandState, side: str) -> str | None:
    """Why ``s`` may not fire as artillery now, or None: an active artillery stand of
    ``side`` that has not fired as artillery this turn, may fire in this turn's phases (its
    posture and tech level: the ruleset's ``may_fire_in``), and is not in a movement posture
    (002 check list note 2: no artillery stand fires and moves in one turn)."""
    if s.side != side:
        return f"{s.id} is not {side}'s"
    if not is_artillery(s):
        return f"{s.id} is not an artillery stand"
    if not s.active:
        return f"{s.id} is not on the table"
    if s.artillery_fired:
        return f"{s.id} has already fired as artillery this turn"
    if s.moved or s.mp_spent:
        return f"{s.id} has moved this turn (002 check list note 2)"
    if s.posture == "movement":
        return f"{s.id} is in the movement posture: artillery does not fire and move in one turn"
    if not ctx.rules.fire.may_fire_in(s, "artillery"):
        return f"{s.id} may not fire again this turn"
    return None


def direct_range(s: StandState) -> int:
    """How far (inches) an artillery stand fires directly: its HE range, or its AP range
    where that is longer (002 direct artillery procedure; house reading, docs/rules.md)."""
    return max(s.unit.he_range or 0, s.unit.ap_range or 0)


def direct_problem(ctx: BattleContext, s: StandState, x: float, y: float) -> str | None:
    """Why ``s`` cannot fire direct artillery at (x, y), or None: range (its HE range, or AP
    where it has no HE) and a clear sight line to a stand-sized place there, as the fire check
    draws it (002 direct artillery procedure steps 1-3)."""
    rng = direct_range(s)
    d = math.hypot(x - s.x, y - s.y)
    if d > rng + 1e-9:
        return f'{s.id} reaches {rng}" with direct fire: the aim is {d:.1f}" away'
    spot = StandPose("aim", "", x, y, 0.0)
    blockers = [p for p in ctx.poses(exclude=s.id) if not p.wreck]
    sight = ctx.table.sight(s.pose(), spot, blockers, ctx.sighting_in, ctx.ruleset_data)
    if not sight.clear:
        what = sight.blocked_by[0] if sight.blocked_by else ("terrain",)
        by = {"stand": "a stand", "terrain": "terrain", "hill": "a hill"}.get(what[0], what[0])
        return f"{s.id} has no sight of the aim point: {by} in the way"
    return None


def deviation(ctx: BattleContext, side: str, mods: list[Mod], distance_sides: int, halved: bool) -> dict:
    """A deviation roll (002/004 indirect fire procedure steps 3-4; air strike steps 5-7): a
    cohesion roll of the firing side with ``mods``; on failure 1D8 for the direction (1 towards
    the top edge, then clockwise in 45-degree steps) and a die of ``distance_sides`` for the
    distance in inches, halved and rounded up when ``halved`` (artillery: 1D8/2). Returns the
    roll fields with ``direction_die``, ``distance_die``, ``distance_in``, ``dx``, ``dy``
    (None and 0 when the roll passed)."""
    r = combat.cohesion_roll(ctx, mods, ctx.cohesion_level(side))
    out = {**r, "direction_die": None, "distance_die": None, "distance_in": 0, "dx": 0.0, "dy": 0.0}
    if r["passed"]:
        return out
    direction = ctx.dice.die(8)
    dist_die = ctx.dice.die(distance_sides)
    dist = math.ceil(dist_die / 2) if halved else dist_die
    dx, dy = deviation_offset(direction, dist)
    out.update(direction_die=direction, distance_die=dist_die, distance_in=dist, dx=dx, dy=dy)
    return out


def deviation_offset(direction: int, distance_in: float) -> tuple[float, float]:
    """(dx, dy) inches of a deviation: ``direction`` 1-8 (1 towards the top edge, then
    clockwise in 45-degree steps), ``distance_in`` inches (002/004 deviation)."""
    bearing = math.radians((direction - 1) * 45.0)  # clockwise from the top edge (+y)
    return round(math.sin(bearing) * distance_in, 6), round(math.cos(bearing) * distance_in, 6)


def deviation_offsets(distance_sides: int, halved: bool) -> list[tuple[tuple[float, float], float]]:
    """Every (dx, dy) a failed deviation roll may give (:func:`deviation`), each with its
    chance: 1D8 for the direction, a die of ``distance_sides`` for the distance, halved and
    rounded up when ``halved``."""
    p = 1.0 / (8 * distance_sides)
    out: dict[tuple[float, float], float] = {}
    for direction in range(1, 9):
        for die in range(1, distance_sides + 1):
            off = deviation_offset(direction, math.ceil(die / 2) if halved else die)
            out[off] = out.get(off, 0.0) + p
    return list(out.items())


def stands_under(ctx: BattleContext, x: float, y: float) -> list[StandState]:
    """Active stands whose footprint overlaps the 2" marker at (x, y) (inches) by more than
    ``OVERLAP_SQ_IN`` square inches, by id: touching its rim is no hit (rules-decisions
    "Artillery, smoke and air strikes": overlap as stands overlap)."""
    near = [
        s
        for s in ctx.state.stands.values()
        if s.active and math.hypot(s.x - x, s.y - y) <= MARKER_RADIUS_IN + 0.75
    ]
    if not near:
        return []
    circle = marker_circle(x, y)
    fps = footprints([s.pose() for s in near])
    # overlapping by a positive area, as stands overlap; touching is not (RD "Artillery")
    hit = on_marker(fps, circle)
    return sorted((s for s, h in zip(near, hit, strict=True) if h), key=lambda s: s.id)


def impact_defense(ctx: BattleContext, t: StandState, indirect: bool) -> tuple[int, int]:
    """(base, modified) defence of ``t`` against an impact marker: armoured halved rounded up
    (002 direct step 7, indirect step 7); a personnel target carrying a movement marker
    halved too in the full Modern game's indirect fire (002 indirect step 7; 004 halves
    armour only)."""
    base = t.unit.defense
    if not t.personnel:
        return base, halved_up(base)
    if indirect and t.movement_marker and ctx.rules.support.indirect_marker_personnel_halved:
        return base, halved_up(base)
    return base, base


def impact_setup(ctx: BattleContext, firer: StandState, t: StandState, x: float, y: float, indirect: bool):
    """The numbers of a marker's attack on ``t`` before the dice: ``firepower`` (the firing
    stand's AP against armoured, HE against personnel), ``defense_base``, ``defense``,
    ``differential``, the die ``mods`` (the target's terrain as seen from the marker), and
    ``below`` (the differential is under the CRT: only artillery attacks there, and the
    result is S). None when the firer has no firepower against the target's class."""
    gun = firer.unit.fire_against(t.unit.defense_class)
    if gun is None:
        return None
    base, defense = impact_defense(ctx, t, indirect)
    return attack_numbers(ctx, t, gun[0], base, defense, (x, y), firer.side)


def attack_numbers(ctx: BattleContext, t: StandState, firepower: int, base: int, defense: int, at, side):
    """An artillery or air attack's numbers on ``t`` from the point ``at`` (inches) of
    ``side``'s marker or aircraft: ``firepower``, ``defense_base``, ``defense``,
    ``differential``, the die ``mods`` (the target's terrain, seen from ``at``) and
    ``below`` (under the CRT's first column: the result is S, 002/004 CRT notes)."""
    spot = StandPose("marker", side, at[0], at[1], 0.0)
    differential = firepower - defense
    return {
        "firepower": firepower,
        "defense_base": base,
        "defense": defense,
        "differential": differential,
        "mods": target_terrain_mods(ctx, spot, t.pose()),
        "below": differential < ctx.crt.columns[0],
    }


def resolve_on(ctx: BattleContext, t: StandState, setup: dict, dash_s: str = "S") -> dict:
    """Roll and apply an artillery or air attack of ``setup`` (:func:`impact_setup`'s
    numbers) on ``t``: 2D6 plus the die modifiers on the CRT (a ``-S-`` cell as ``dash_s``:
    S for artillery and air strikes, 002 and 004 CRT notes); below the CRT's first column no
    dice, the result is S (002/004 CRT notes). Returns the log's attack fields."""
    fields = {k: setup[k] for k in ("firepower", "defense_base", "defense", "differential")}
    if setup["below"]:
        cell, combat_fields = "S", None
    else:
        dice = ctx.dice.roll(2, 6)
        total = min(19, max(0, sum(dice) + sum(v for _, v in setup["mods"])))
        cell = ctx.crt.lookup(setup["differential"], total)
        combat_fields = {"dice": dice, "mods": mods_json(setup["mods"]), "total": total}
    result, t.S, t.D, elim = combat.crt_result(read_cell(cell, dash_s), t.S, t.D)
    if elim:
        ctx.eliminate(t)
    fields.update(
        combat=combat_fields,
        crt=ctx.crt.printed(cell),
        result=result,
        target_markers_after=t.markers(),
    )
    return fields


def impact_attack(ctx: BattleContext, impact: Impact, t: StandState, cause: str, indirect: bool) -> None:
    """Impact marker ``impact`` attacks ``t`` once (``cause`` "landing" or "entered"), and
    the ``impact`` log line tells it. A firer with no firepower against the target's class
    makes no attack (nothing is logged)."""
    impact.hit.add(t.id)
    firer = ctx.stand(impact.firer)
    setup = impact_setup(ctx, firer, t, impact.x, impact.y, indirect)
    if setup is None:
        return
    fields = resolve_on(ctx, t, setup)
    ctx.event(
        "impact",
        rule=card_rule(ctx, "7.10", "7.8"),
        side=impact.side,
        mission=impact.mission,
        marker=impact.id,
        firer=firer.id,
        target=t.id,
        cause=cause,
        defense_class=t.unit.defense_class,
        **fields,
    )


def fire_mission(ctx: BattleContext, mission_id: str, side: str, firers, sheaf, ammo: str, kind: str) -> None:
    """Fire a mission (``kind`` "direct" or "indirect"): each firing stand rolls cohesion
    (its S and D, the terrain at its aim point, and for indirect fire its tech level's
    modifier from data); those that pass lay their markers; then the deviation roll (indirect
    fire, and direct fire by mortars) moves the sheaf as one; HE markers attack every stand
    under them, smoke markers become smoke areas. A firer gone from the table, in the
    movement posture (002 check list note 2), or (indirect) out of range does not fire. The
    ``artillery`` line, then one ``impact`` line per attack (002/004 direct artillery and
    indirect fire procedures)."""
    st = ctx.state
    level = ctx.cohesion_level(side)
    rolls: dict[str, dict] = {}
    not_fired: dict[str, str] = {}
    laid: list[tuple[str, tuple[float, float]]] = []
    for sid, (x, y) in zip(firers, sheaf, strict=True):
        s = ctx.stand(sid)
        why = None if s.active else f"{sid} is not on the table"
        if why is None and s.posture == "movement":  # 002 check list note 2
            why = f"{sid} is in the movement posture: it does not fire and move in one turn"
        if why is None and kind == "indirect":
            why = indirect_range_problem(ctx, s, x, y)
        if why:
            not_fired[sid] = why
            continue
        mods = marker_mods(s.S, s.D) + aim_terrain_mods(ctx, x, y)
        if kind == "indirect":
            tl_mod = ctx.data.fire_support.indirect_mod(ctx.scenario.ruleset, s.tech_level)
            if tl_mod:
                mods.append(("tech_level", tl_mod))
        rolls[sid] = combat.cohesion_roll(ctx, mods, level)
        s.artillery_fired = True
        s.fire_attempts += 1
        s.fired_in.add("artillery")
        if rolls[sid]["passed"]:
            laid.append((sid, (x, y)))
    deviates = kind == "indirect" or any("mortar" in ctx.stand(f).unit.flags for f, _ in laid)
    dev = deviation(ctx, side, [], 8, halved=True) if laid and deviates else None
    dx, dy = (dev["dx"], dev["dy"]) if dev else (0.0, 0.0)
    markers = [(sid, (round(x + dx, 6), round(y + dy, 6))) for sid, (x, y) in laid]
    ctx.event(
        "artillery",
        rule=card_rule(ctx, "7.10", "7.8"),
        mission=mission_id,
        kind=kind,
        side=side,
        firers=list(firers),
        aim=[round(sheaf[0][0], 6), round(sheaf[0][1], 6)],
        sheaf=[[round(x, 6), round(y, 6)] for x, y in sheaf],
        cohesion=rolls,
        not_fired=not_fired,
        deviation=dev,
        markers=[[x, y] for _, (x, y) in markers],
        ammo=ammo,
    )
    new: list[Impact] = []
    for k, (sid, (x, y)) in enumerate(markers):
        mid = f"{mission_id}.{k + 1}"
        if ammo == "smoke":
            st.smoke.append(SmokeArea(mid, x, y, st.turn + 1))
        else:
            new.append(Impact(mid, mission_id, side, sid, x, y))
    st.impacts += new
    for imp in new:
        for t in stands_under(ctx, imp.x, imp.y):
            if t.active and t.id not in imp.hit:
                impact_attack(ctx, imp, t, "landing", kind == "indirect")


def entered_impacts(ctx: BattleContext, s: StandState, points, headings) -> None:
    """A stand that moved into an impact marker is attacked by it, once per marker (002 step
    6: "stands entering artillery impact markers roll for effect"): ``points`` and
    ``headings`` are its walked path's step centres and facings (inches, degrees). Its swept
    footprint must overlap the marker by a positive area (touching it is not entering)."""
    for imp in entered_markers(ctx, s, points, headings):
        if not s.active:
            return
        impact_attack(ctx, imp, s, "entered", True)


def entered_markers(ctx: BattleContext, s: StandState, points, headings) -> list:
    """The impact markers on the table that a stand walked through ``points`` (step centres,
    inches) at ``headings`` (degrees at each) enters and that have not attacked it yet (002
    step 6: once per marker): its swept footprint overlaps each by a positive area. The one
    test of entering a marker, for the move and for its odds before it."""
    reach = MARKER_RADIUS_IN + 0.75  # no footprint point is farther from its centre
    todo = [
        i
        for i in ctx.state.impacts
        if s.id not in i.hit and any(math.hypot(x - i.x, y - i.y) <= reach for x, y in points)
    ]
    if not todo:
        return []
    fps = [footprint(x, y, h) for (x, y), h in zip(points, headings, strict=False)]
    swept = shapely.union_all(fps)
    return [i for i in todo if on_marker(swept, marker_circle(i.x, i.y))]


def clear_markers(ctx: BattleContext) -> None:
    """Marker removal (002 step 8, 004 step 7): impact markers off; smoke areas whose last
    turn this is go too (rules-decisions: smoke lasts to the marker removal of the turn after
    it lands)."""
    clear_markers_of(ctx.state)


def clear_markers_of(st) -> None:
    """:func:`clear_markers` on a :class:`~game.rules.state.BattleState` (the log replay's
    too)."""
    st.impacts = []
    st.smoke = [a for a in st.smoke if a.until_turn > st.turn]


def mission_odds(ctx: BattleContext, side: str, firers, sheaf, ammo: str, kind: str) -> dict:
    """The exact odds of a mission before it is fired, if it lands where aimed: ``p_laid``
    (firer -> the chance its cohesion roll passes), ``p_on_aim`` (the deviation roll passes;
    1 where none is rolled), and ``stands`` (id -> {"none", "S", "D", "E"}: how each stand
    under the markers now ends: unchanged, suppressed, disorganized (and not eliminated) or
    eliminated, every marker over it attacking it in turn, each only when its firer's
    cohesion roll passes). Raises IllegalAction when the sheaf is not one marker per firer."""
    if len(firers) != len(sheaf):
        raise IllegalAction("a sheaf needs one marker per firing stand")
    level = ctx.cohesion_level(side)
    p_laid = {}
    for sid, (x, y) in zip(firers, sheaf, strict=True):
        s = ctx.stand(sid)
        mods = marker_mods(s.S, s.D) + aim_terrain_mods(ctx, x, y)
        if kind == "indirect":
            mods.append(
                ("tl", ctx.data.fire_support.indirect_mod(ctx.scenario.ruleset, s.tech_level))
            )
        p_laid[sid] = combat.p_cohesion(sum(v for _, v in mods), level)
    mortar = any("mortar" in ctx.stand(f).unit.flags for f in firers)
    p_on = combat.p_cohesion(0, level) if kind == "indirect" or mortar else 1.0
    out: dict[str, dict[str, float]] = {}
    if ammo != "he":
        return {"p_laid": p_laid, "p_on_aim": p_on, "stands": out}
    attacks: dict[str, list] = {}  # stand -> (chance, setup) of each marker over it, in order
    for sid, (x, y) in zip(firers, sheaf, strict=True):
        firer = ctx.stand(sid)
        for t in stands_under(ctx, x, y):
            setup = impact_setup(ctx, firer, t, x, y, kind == "indirect")
            if setup is not None:
                attacks.setdefault(t.id, []).append((p_laid[sid], setup))
    for tid, marks in attacks.items():
        out[tid] = result_chances(ctx, ctx.stand(tid), marks)
    return {"p_laid": p_laid, "p_on_aim": p_on, "stands": out}


def result_chances(ctx: BattleContext, t: StandState, attacks) -> dict[str, float]:
    """How ``t`` ends after ``attacks`` (each (its chance of being made, its setup as
    :func:`impact_setup` or :func:`attack_numbers` give it), made in turn): the chance of
    each of "none", "S", "D" (and not eliminated) and "E", as :func:`mission_odds` gives
    them."""
    dist = {(t.S, t.D, False): 1.0}  # (S, D, eliminated) -> chance
    for p, setup in attacks:
        dist = _after_attack(ctx, dist, p, setup)
    final = {"none": 0.0, "S": 0.0, "D": 0.0, "E": 0.0}
    for (s, d, e), q in dist.items():
        key = "E" if e else "D" if d and not t.D else "S" if s and not t.S else "none"
        final[key] += q
    return final


def _after_attack(ctx: BattleContext, dist: dict, p: float, setup: dict) -> dict:
    """The chances of a stand's markers after one more impact attack, made with chance ``p``
    (its firer's cohesion): below the CRT an S; else each cell of 2D6 plus the die mods."""
    if setup["below"]:
        cells = {"S": 1.0}
    else:
        mod = sum(v for _, v in setup["mods"])
        cells = combat.cell_probabilities(ctx.crt, setup["differential"], mod)
    out: dict = {}
    for (s, d, e), q in dist.items():
        if e:
            out[(s, d, e)] = out.get((s, d, e), 0.0) + q
            continue
        out[(s, d, e)] = out.get((s, d, e), 0.0) + q * (1 - p)
        for cell, c in cells.items():
            _, s2, d2, e2 = combat.crt_result(read_cell(cell, "S"), s, d)
            out[(s2, d2, e2)] = out.get((s2, d2, e2), 0.0) + q * p * c
    return out
