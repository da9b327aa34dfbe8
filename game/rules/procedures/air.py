"""Air strikes and anti-aircraft fire in the full games (002 air strike and AA fire procedures,
7.13-7.14; 004's optional air strikes and AA; rules-decisions "Artillery, smoke and air
strikes"). Aircraft are not stands: a strike is plotted (entry point, point of attack, exit
point) and flies in a later turn's joint artillery phase. Units: inches.

002: an arrival roll (failure cancels); enemy AA stands in range of the inbound leg fire as it
flies in (cohesion with the range effect for guns, HE firepower against the aircraft's
defence, the AA table's column shift, 2D6 on the CRT with ``-S-`` as no effect); at the point
of attack the deviation roll (+4 if the aircraft is suppressed, +3 disorganized), 1D8 and
1D10"; the stand nearest the point, friend or foe, is attacked with armour and moving
personnel at 25%; then the AA fires again as it flies out.
004: enemy AA stands in the firing posture within range of the point of attack each add +1
(40 mm and under) or +2 to the arrival roll when their own cohesion roll passes, and then fire
at no ground target that turn; deviation 1D8 and 1D8"; armour at 50%.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from game.rules.charts.fire_data import aa_column_shift, shifted_differential
from game.rules.procedures import combat
from game.rules.procedures.artillery import attack_numbers, card_rule, deviation, resolve_on
from game.rules.procedures.combat import marker_mods
from game.rules.procedures.odds import crt_result, read_cell
from game.rules.state import Mission, StandState

if TYPE_CHECKING:
    from game.rules.context import BattleContext

AA_LIGHT_MOD = 1  # 004 AA chart: each AA stand 40 mm and under
AA_HEAVY_MOD = 2  # 004 AA chart: each AA stand over 40 mm
AIR_SUPPRESSED_MOD = 4  # 002 rulings: S on an aircraft adds +4 to its deviation roll
AIR_DISORGANIZED_MOD = 3  # D adds +3
EDGE_TOLERANCE_IN = 0.01


def on_edge(table, x: float, y: float) -> bool:
    """True when (x, y) lies on a table edge (within 0.01")."""
    tol = EDGE_TOLERANCE_IN
    inside = -tol <= x <= table.width + tol and -tol <= y <= table.depth + tol
    near = min(abs(x), abs(y), abs(table.width - x), abs(table.depth - y)) <= tol
    return inside and near


def is_aa(s: StandState) -> bool:
    """An AA stand (its unit row is flagged ``aa``)."""
    return "aa" in getattr(s.unit, "flags", ())


def _closest_on_leg(a, b, px: float, py: float) -> tuple[float, float, float]:
    """(t, x, y): the point of segment a-b nearest (px, py), t from 0 at a to 1 at b."""
    dx, dy = b[0] - a[0], b[1] - a[1]
    n = dx * dx + dy * dy
    t = 0.0 if n == 0 else max(0.0, min(1.0, ((px - a[0]) * dx + (py - a[1]) * dy) / n))
    return t, a[0] + t * dx, a[1] + t * dy


def aa_range(s: StandState) -> int:
    """How far an AA stand reaches aircraft (inches): its HE range (house reading: AA fires
    its HE value at aircraft, 002 AA procedure step 3)."""
    return s.unit.he_range or 0


def aa_firers(ctx: BattleContext, side: str, a, b) -> list[tuple[float, StandState, tuple[float, float]]]:
    """The AA stands of the side opposing ``side`` with range to the leg a-b, in the order
    the aircraft meets them: (t along the leg, stand, the nearest point of the leg). Each fires
    once on a leg (house reading of "may attack as you do", 002 air strike step 4)."""
    out = []
    for s in ctx.state.stands.values():
        if s.side == side or not s.active or not is_aa(s) or s.unit.he_attack is None:
            continue
        t, x, y = _closest_on_leg(a, b, s.x, s.y)
        if math.hypot(x - s.x, y - s.y) <= aa_range(s) + 1e-9:
            out.append((t, s, (x, y)))
    out.sort(key=lambda e: (e[0], e[1].id))
    return out


def aa_setup(ctx: BattleContext, s: StandState, aircraft, at) -> tuple[list, int, int]:
    """(cohesion modifiers, column shift, differential after the shift) of AA stand ``s``
    firing at ``aircraft`` at point ``at`` (inches): its S and D and, for a gun, the range
    effect of its tech level's chart; HE firepower less the aircraft's defence, shifted by
    the AA table (002 AA fire procedure steps 2-4)."""
    band = max(1, math.ceil(math.hypot(at[0] - s.x, at[1] - s.y) - 1e-9))
    mods = marker_mods(s.S, s.D)
    if "aa_missile" not in s.unit.flags:
        charts = ctx.data.range_charts[ctx.ruleset_data.range]
        chart = charts[min(max(s.tech_level or 1, min(charts)), max(charts))]
        rmod = chart.modifier(band)
        if rmod:
            mods.append(("range", rmod))
    shift = aa_column_shift(s.tech_level or 1, aircraft.tech_level)
    diff = shifted_differential(s.unit.he_attack - aircraft.defense, shift, ctx.crt.columns[0])
    return mods, shift, diff


def aa_attack(ctx: BattleContext, s: StandState, aircraft, craft: dict, at) -> dict:
    """One AA stand fires at the aircraft at point ``at`` (002 AA fire procedure): cohesion
    (its S and D, a gun's range effect; missiles none), differential HE - the aircraft's
    defence with the AA table's column shift (left never below -3), 2D6 on the CRT (``-S-`` no
    effect). ``craft`` holds the aircraft's S, D and eliminated and is changed. Returns the
    log's AA fields."""
    mods, shift, diff = aa_setup(ctx, s, aircraft, at)
    r = combat.cohesion_roll(ctx, mods, ctx.cohesion_level(s.side))
    s.aa_fired = True
    fields: dict = {"stand": s.id, "at": [round(at[0], 6), round(at[1], 6)], "cohesion": r}
    if not r["passed"]:
        return fields
    fields.update(
        firepower=s.unit.he_attack, defense=aircraft.defense, column_shift=shift, differential=diff
    )
    if diff < ctx.crt.columns[0]:
        fields.update(combat=None, crt=None, result="none")
        return fields
    dice = ctx.dice.roll(2, 6)
    total = min(19, max(0, sum(dice)))
    cell = ctx.crt.lookup(diff, total)
    result, craft["S"], craft["D"], elim = crt_result(read_cell(cell, "-"), craft["S"], craft["D"])
    craft["eliminated"] = craft["eliminated"] or elim
    fields.update(
        combat={"dice": dice, "mods": [], "total": total}, crt=ctx.crt.printed(cell), result=result
    )
    return fields


def arrival_aa_004(ctx: BattleContext, m: Mission, aircraft) -> tuple[list[tuple[str, int]], list[dict]]:
    """004 AA: each enemy AA stand in the firing posture within range of the point of attack
    rolls cohesion; each that passes adds +1 (40 mm and under) or +2 (over) to the strike's
    arrival roll, and fires at no ground target this turn (004 AA procedure)."""
    mods, lines = [], []
    for s in flak_in_range(ctx, m.side, m.path[1]):
        r = combat.cohesion_roll(ctx, marker_mods(s.S, s.D), ctx.cohesion_level(s.side))
        s.aa_fired = True
        value = AA_HEAVY_MOD if "aa_heavy" in s.unit.flags else AA_LIGHT_MOD
        lines.append({"stand": s.id, "cohesion": r, "arrival_mod": value if r["passed"] else 0})
        if r["passed"]:
            mods.append((f"aa:{s.id}", value))
    return mods, lines


def nearest_stand(ctx: BattleContext, x: float, y: float) -> tuple[StandState | None, list[int] | None]:
    """The active stand nearest (x, y) by centre distance, friend or foe; several at the same
    distance (to 1e-6") are decided by a die roll (002 air strike step 8). Returns the stand
    and the tie's die (None when there was no tie)."""
    tied = nearest_stands(ctx, x, y)
    if not tied:
        return None, None
    if len(tied) == 1:
        return tied[0], None
    k = ctx.dice.die(len(tied))
    return tied[k - 1], [k]


def nearest_stands(ctx: BattleContext, x: float, y: float, stands=None) -> list[StandState]:
    """The active stands nearest (x, y) by centre distance, friend or foe, those at the same
    distance (to 1e-6") all of them, by id (002 air strike step 8). ``stands``: the stands to
    choose among (the odds place them where they are expected to be), else the battle's."""
    pool = ctx.state.stands.values() if stands is None else stands
    cands = sorted(
        ((math.hypot(s.x - x, s.y - y), s.id, s) for s in pool if s.active),
        key=lambda e: (e[0], e[1]),
    )
    return [c[2] for c in cands if c[0] <= cands[0][0] + 1e-6] if cands else []


def air_defense(ctx: BattleContext, t: StandState) -> tuple[int, int]:
    """(base, modified) defence against an air strike: 002 armour and personnel carrying a
    movement marker at 25% rounded up (air strike step 11); 004 armour at 50% rounded up."""
    base = t.unit.defense
    return base, ctx.rules.support.air_defense(base, t.personnel, t.movement_marker)


def fly_strike(ctx: BattleContext, m: Mission) -> None:
    """An air strike arrives (002 air strike procedure; 004 optional air strikes): the arrival
    roll, the AA on the way in, the deviation roll at the point of attack, the attack on the
    stand nearest where it lands, the AA on the way out; one ``air_strike`` line."""
    card = ctx.rules.support
    aircraft = ctx.data.fire_support.aircraft[m.aircraft]
    entry, poa, exit_ = m.path
    craft = {"S": False, "D": False, "eliminated": False}
    aa_lines: list[dict] = []
    arrival_mods: list = []
    if card.flak_spoils_arrival:
        arrival_mods, aa_lines = arrival_aa_004(ctx, m, aircraft)
    arrival = combat.cohesion_roll(ctx, arrival_mods, ctx.cohesion_level(m.side))
    fields: dict = {"arrival": arrival, "aa": aa_lines, "deviation": None, "target": None}
    if arrival["passed"] and not card.flak_spoils_arrival:
        for _, s, at in aa_firers(ctx, m.side, entry, poa):
            aa_lines.append({"leg": "in", **aa_attack(ctx, s, aircraft, craft, at)})
            if craft["eliminated"]:
                break
    if arrival["passed"] and not craft["eliminated"]:
        mods = []
        if craft["S"]:
            mods.append(("suppressed", AIR_SUPPRESSED_MOD))
        if craft["D"]:
            mods.append(("disorganized", AIR_DISORGANIZED_MOD))
        dev = deviation(ctx, m.side, mods, card.deviation_die, halved=False)
        x, y = round(poa[0] + dev["dx"], 6), round(poa[1] + dev["dy"], 6)
        t, tie = nearest_stand(ctx, x, y)
        fields.update(deviation=dev, attack_point=[x, y], tie_die=tie)
        if t is not None:
            base, defense = air_defense(ctx, t)
            firepower = aircraft.ordnance(t.unit.defense_class)
            setup = attack_numbers(ctx, t, firepower, base, defense, (x, y), m.side)
            fields.update(
                target=t.id,
                defense_class=t.unit.defense_class,
                friendly=t.side == m.side,
                **resolve_on(ctx, t, setup),
            )
        if not card.flak_spoils_arrival:
            for _, s, at in aa_firers(ctx, m.side, poa, exit_):
                aa_lines.append({"leg": "out", **aa_attack(ctx, s, aircraft, craft, at)})
                if craft["eliminated"]:
                    break
    ctx.event(
        "air_strike",
        rule=card_rule(ctx, "7.13", "12.8"),
        mission=m.id,
        side=m.side,
        aircraft=m.aircraft,
        path=[[round(px, 6), round(py, 6)] for px, py in m.path],
        aircraft_after=craft,
        **fields,
    )


def flak_in_range(ctx: BattleContext, side: str, poa) -> list[StandState]:
    """004: the enemy AA stands in the firing posture within range of the point of attack,
    by id (those that may spoil the strike's arrival)."""
    return [
        s
        for s in sorted(ctx.state.stands.values(), key=lambda s: s.id)
        if s.side != side
        and s.active
        and is_aa(s)
        and s.posture == "firing"
        and math.hypot(poa[0] - s.x, poa[1] - s.y) <= aa_range(s) + 1e-9
    ]


def strike_odds(ctx: BattleContext, side: str, aircraft_name: str, path) -> dict:
    """The exact odds of an air strike flying ``path`` (entry, point of attack, exit) now:
    ``p_arrives`` (its arrival roll passes; 004: each flak stand's cohesion chance weighed
    in), ``p_down_first`` (it arrives and the AA flying in shoots it down before it attacks;
    0 in 004) and ``p_on_aim`` (it arrives, is not shot down, and its deviation roll, with
    +4 S and +3 D from the AA, passes). 002 air strike and AA procedures; 004 AA chart."""
    aircraft = ctx.data.fire_support.aircraft[aircraft_name]
    level = ctx.cohesion_level(side)
    entry, poa, _ = (tuple(p) for p in path)
    if ctx.rules.support.flak_spoils_arrival:
        mods = {0: 1.0}
        for s in flak_in_range(ctx, side, poa):
            p = combat.p_cohesion(
                sum(v for _, v in marker_mods(s.S, s.D)), ctx.cohesion_level(s.side)
            )
            v = AA_HEAVY_MOD if "aa_heavy" in s.unit.flags else AA_LIGHT_MOD
            nxt: dict = {}
            for m, q in mods.items():
                nxt[m] = nxt.get(m, 0.0) + q * (1 - p)
                nxt[m + v] = nxt.get(m + v, 0.0) + q * p
            mods = nxt
        arrives = sum(q * combat.p_cohesion(m, level) for m, q in mods.items())
        return {
            "p_arrives": arrives,
            "p_down_first": 0.0,
            "p_on_aim": arrives * combat.p_cohesion(0, level),
        }
    arrives = combat.p_cohesion(0, level)
    craft = {(False, False, False): 1.0}
    for _, s, at in aa_firers(ctx, side, entry, poa):
        mods_s, _, diff = aa_setup(ctx, s, aircraft, at)
        if diff < ctx.crt.columns[0]:
            continue
        p = combat.p_cohesion(sum(v for _, v in mods_s), ctx.cohesion_level(s.side))
        cells = combat.cell_probabilities(ctx.crt, diff, 0)
        nxt = {}
        for (cs, cd, ce), q in craft.items():
            if ce:
                nxt[(cs, cd, ce)] = nxt.get((cs, cd, ce), 0.0) + q
                continue
            nxt[(cs, cd, ce)] = nxt.get((cs, cd, ce), 0.0) + q * (1 - p)
            for cell, c in cells.items():
                _, s2, d2, e2 = crt_result(read_cell(cell, "-"), cs, cd)
                nxt[(s2, d2, e2)] = nxt.get((s2, d2, e2), 0.0) + q * p * c
        craft = nxt
    down = sum(q for (_, _, e), q in craft.items() if e)
    on_aim = sum(
        q * combat.p_cohesion(AIR_SUPPRESSED_MOD * cs + AIR_DISORGANIZED_MOD * cd, level)
        for (cs, cd, e), q in craft.items()
        if not e
    )
    return {"p_arrives": arrives, "p_down_first": arrives * down, "p_on_aim": arrives * on_aim}
