"""Overrun and close assault, the full games' fighting at arm's length (002/004 8.6 and 8.7;
rules-decisions "Overrun", "Close assault").

An overrun is a vehicle's move whose walked path crosses an enemy stand's footprint: the path
is its declaration. After the move (and the opportunity fire at it) each enemy stand crossed
is overrun once: the defender rolls cohesion, a failure costs it an attack on the CRT's +6
column; then the overrunning stand rolls, a failure costs it an attack on the +2 column.

A close assault is declared once a movement action is over, against an enemy stand in base
contact with stands of the group that moved: all of them assault it together. The defender,
unless it carries a movement marker, rolls cohesion and on a success attacks one assaulter of
its choice at -3; then each assaulter still standing rolls and on a success attacks at -3,
with the further modifiers of the card. A defender is close-assaulted once a movement phase.

Units: inches, degrees; a roll is the battle log's roll object (``combat.cohesion_roll``).
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

import numpy as np
import shapely

from game.rules.actions import CloseAssault, EndCloseAssaults
from game.rules.context import IllegalAction
from game.rules.files.log import mods_json
from game.rules.procedures import combat
from game.rules.procedures.combat import (
    Mod,
    halved_up,
    marker_mods,
    read_cell,
    target_terrain_mods,
)
from game.rules.procedures.transport import carry
from game.rules.rulesets.cards import MODERN_ASSAULT, AssaultCard
from game.rules.state import CloseAssaultState, MovingGroup, StandState
from game.rules.table.geometry import OVERLAP_SQ_IN, aspect, base_contact, footprint

if TYPE_CHECKING:
    from game.rules.context import BattleContext

OVERRUN_DEFENDER_COLUMN = 6  # 002 8.6 step 3: the defender suffers an attack at +6
OVERRUN_ATTACKER_COLUMN = 2  # 002 8.6 step 5: a failed attacker suffers an attack at +2
TRACKED_MOD = 3  # 002 8.6 step 2: +3 to the defender's roll against a tracked vehicle
IFV_LOADED_MOD = 2  # 002 8.6 step 2: +2 against an IFV carrying troops
ASSAULT_MOD = -3  # 002 8.7: every close-assault attack, the defender's and the assaulters'
ENGINEER_MOD = -3  # 002 8.7: engineers and "type S" infantry
CAVALRY_MOD = -3  # 002 8.7: mounted cavalry against a defender that is not armoured
CLOSING_MOD = -1  # 002 8.7: the assaulters closed the range to under 100 m


def overrun_crossed(ctx: BattleContext, mover: StandState, points, headings) -> list[str]:
    """The enemy stands a vehicle's walked path overruns (002/004 8.6; RD "Overrun"): those
    whose footprint its footprint overlaps (more than 1e-6 sq in) at some step point after
    the start, in the order first met. ``points``: (x, y) inches actually walked, start
    first (a crossing walked back is not in them), ``headings``: degrees at each. The start
    does not count (ruling R4): a stand the mover began beside, turned towards its path
    there, is not crossed unless the move itself drives into it. A foot stand overruns
    nobody; nothing in the intro rulesets."""
    if not ctx.rules.has("overrun") or mover.unit.movement_class == "F" or len(points) < 2:
        return []
    enemies = [e for e in ctx.state.stands.values() if e.active and e.side != mover.side]
    if not enemies:
        return []
    xs = np.array([p[0] for p in points])
    ys = np.array([p[1] for p in points])
    out: list[str] = []
    for e in enemies:
        near = np.flatnonzero((np.abs(xs - e.x) < 1.5) & (np.abs(ys - e.y) < 1.5))
        near = near[near > 0]  # after the start (ruling R4)
        if not len(near):
            continue
        efp = footprint(e.x, e.y, e.facing_deg)
        for k in near:
            fp = footprint(points[k][0], points[k][1], headings[k])
            if shapely.area(shapely.intersection(fp, efp)) > OVERLAP_SQ_IN:
                out.append((int(k), e.id))
                break
    return [sid for _, sid in sorted(out)]


def attack_fields(
    ctx: BattleContext,
    attacker: StandState,
    target: StandState,
    column: int | None,
    mods: list[Mod],
) -> dict | None:
    """One attack of an overrun or a close assault, rolled and applied: 2D6 plus ``mods``
    plus the target's terrain effects, on the CRT at ``column`` (an overrun's fixed column)
    or at the combat differential of the attacker's AP or HE firepower against the target's
    defence (armour by aspect, personnel halved while carrying a movement marker: 002 8.7,
    fire step 3). Returns the battle log's attack fields, or None when the attacker has no
    firepower against the target's class or the differential is below the CRT (no attack)."""
    apose, tpose = attacker.pose(), target.pose()
    fields: dict = {"attacker": attacker.id, "target": target.id}
    if column is None:
        if not may_attack(attacker, target, ctx.crt.columns[0], ctx.rules.assault):
            return None
        fields.update(assault_differential(attacker, target, ctx.rules.assault))
        differential = fields["differential"]
    else:
        differential = column
        fields.update(column=column, differential=column)
    all_mods = list(mods) + target_terrain_mods(ctx, apose, tpose)
    dice = ctx.dice.roll(2, 6)
    total = min(19, max(0, sum(dice) + sum(v for _, v in all_mods)))
    cell = ctx.crt.lookup(differential, total)
    result, target.S, target.D, elim = combat.crt_result(
        read_cell(cell, ctx.rules.fire.dash_s(attacker.unit)), target.S, target.D
    )
    if elim:
        ctx.eliminate(target)
    fields.update(
        combat={"dice": dice, "mods": mods_json(all_mods), "total": total},
        crt=ctx.crt.printed(cell),
        result=result,
        target_markers_after=target.markers(),
    )
    return fields


def assault_differential(
    attacker: StandState, target: StandState, card: AssaultCard = MODERN_ASSAULT
) -> dict | None:
    """A close-assault attack's numbers where the two stand: ``firepower`` (AP against
    armoured, HE against personnel), ``defense_base``, ``aspect`` (the side of the target the
    attacker is on), ``defense`` and ``differential``; None when the attacker has no
    firepower against the target's class. ``card``, the ruleset's close-assault card: 002's
    halves armour on the flank and personnel carrying a movement marker (002 8.7, fire step
    3); 004's (Wehrmacht '47 notes) armour at 50% rounded up whatever the aspect, cavalry's
    firepower doubled except against armour, personnel as in 002."""
    gun = attacker.unit.fire_against(target.unit.defense_class)
    if gun is None:
        return None
    base = target.unit.defense
    face = aspect(target.pose(), attacker.x, attacker.y)
    firepower = gun[0]
    if target.personnel:
        defense = halved_up(base) if target.movement_marker else base
    elif not card.armour_by_aspect:
        defense = halved_up(base)
    else:
        defense = base if face == "front" else halved_up(base)
    if (
        card.cavalry_doubled
        and "cavalry" in attacker.unit.flags
        and target.unit.defense_class != "armoured"
    ):
        firepower *= 2
    return {
        "firepower": firepower,
        "defense_base": base,
        "aspect": face,
        "defense": defense,
        "differential": firepower - defense,
    }


def may_attack(
    attacker: StandState, target: StandState, crt_low: int, card: AssaultCard = MODERN_ASSAULT
) -> bool:
    """Whether ``attacker`` could make a close-assault attack on ``target`` where they stand:
    a firepower against its class and a combat differential of ``crt_low`` or more
    (:func:`assault_differential` by the ``card``'s procedure)."""
    d = assault_differential(attacker, target, card)
    return d is not None and d["differential"] >= crt_low


def attack_problem(ctx: BattleContext, attacker: StandState, target: StandState) -> str | None:
    """Why ``attacker`` could not make a close-assault attack on ``target`` where they stand
    (:func:`may_attack`), in words ending with the rule in brackets, or None when it could
    (002/004 8.7): no firepower against the target's class, or a combat differential below
    the CRT's lowest column."""
    card = ctx.rules.assault
    low = ctx.crt.columns[0]
    d = assault_differential(attacker, target, card)
    if d is None:
        return (
            f"{attacker.id} has no close-assault firepower against "
            f"{target.unit.defense_class} stands ({card.cite('8.7')})"
        )
    if d["differential"] < low:
        return (
            f"{attacker.id}'s combat differential against {target.id} would be "
            f"{d['differential']:+d} (firepower {d['firepower']} against defence "
            f"{d['defense']}), below {low:+d} ({card.cite('8.7')})"
        )
    return None


def close_assault_problem(ctx: BattleContext, side: str | None, defender_id: str) -> str | None:
    """Why ``side`` may not close-assault ``defender_id`` now, in words ending with the rule
    in brackets, or None when it may (002/004 8.7; the checks :func:`do_close_assault`
    makes)."""
    st = ctx.state
    card = ctx.rules.assault
    group = st.assault_open
    if group is None or st.assault is not None or group.side != side:
        return f"close assaults are declared when a movement action ends ({card.cite('8.7')})"
    if defender_id in assault_targets(ctx, group):
        return None
    if defender_id in st.assaulted:
        return f"{defender_id} has been close-assaulted this phase already ({card.cite('8.7')})"
    d = ctx.stand(defender_id)
    touching = [
        ctx.stand(i)
        for i in group.stands
        if ctx.stand(i).active and base_contact(ctx.stand(i).pose(), d.pose())
    ]
    if d.side == side or not touching:
        return f"no stand of this movement action is in base contact with {defender_id} ({card.cite('8.7')})"
    return "; ".join(attack_problem(ctx, s, d) or "" for s in touching)


def resolve_overruns(ctx: BattleContext, mover: StandState, crossed: list[str]) -> None:
    """Each enemy stand the mover crossed is overrun once (002 8.6): the defender's cohesion
    roll (+4 S, +3 D, +3 against a tracked vehicle, +2 against an IFV carrying troops), a
    failure an attack on the +6 column with the defender's terrain; then the mover's roll
    (+4 S, +3 D), a failure an attack on it on the +2 column with its own terrain."""
    for did in crossed:
        if mover.eliminated:
            return
        d = ctx.stand(did)
        if d.eliminated:
            continue
        mods = marker_mods(d.S, d.D)
        if mover.unit.movement_class == "T":
            mods.append(("tracked", TRACKED_MOD))
        if (
            ctx.rules.assault.loaded_ifv_bonus
            and mover.unit.carrier
            and any(
                r.carried_by == mover.id and not r.eliminated for r in ctx.state.stands.values()
            )
        ):
            mods.append(("ifv_loaded", IFV_LOADED_MOD))  # Modern only (004 8.6: tracked only)
        droll = combat.cohesion_roll(ctx, mods, ctx.cohesion_level(d.side))
        on_defender = None
        if not droll["passed"]:
            on_defender = attack_fields(ctx, mover, d, OVERRUN_DEFENDER_COLUMN, [])
        aroll = combat.cohesion_roll(
            ctx, marker_mods(mover.S, mover.D), ctx.cohesion_level(mover.side)
        )
        on_attacker = None
        if not aroll["passed"]:
            on_attacker = attack_fields(ctx, d, mover, OVERRUN_ATTACKER_COLUMN, [])
        ctx.event(
            "overrun",
            rule=ctx.rules.assault.cite("8.6"),
            side=mover.side,
            mover=mover.id,
            defender=d.id,
            defender_roll=droll,
            attack_on_defender=on_defender,
            attacker_roll=aroll,
            attack_on_attacker=on_attacker,
        )


# ------------------------------------------------------------------------------ close assault


def assault_targets(ctx: BattleContext, group: MovingGroup) -> dict[str, list[str]]:
    """Enemy stands the stands of ``group`` may close-assault now (002 8.7; RD "Close
    assault"): defender id -> the group's stands in base contact with it that could attack
    it (a firepower against its class), for every enemy stand not close-assaulted yet this
    movement phase. Empty outside the full games."""
    if not ctx.rules.has("close_assault"):
        return {}
    st = ctx.state
    ours = [st.stands[i] for i in group.stands if st.stands[i].active]
    enemies = [
        e
        for e in st.stands.values()
        if e.active and e.side != group.side and e.id not in st.assaulted
    ]
    out: dict[str, list[str]] = {}
    low = ctx.crt.columns[0]
    for e in enemies:
        ep = e.pose()
        joined = [
            s.id
            for s in ours
            if abs(s.x - e.x) < 1.6
            and abs(s.y - e.y) < 1.6
            and base_contact(s.pose(), ep)
            and may_attack(s, e, low, ctx.rules.assault)
        ]
        if joined:
            out[e.id] = joined
    return out


def open_assaults(ctx: BattleContext, group: MovingGroup) -> bool:
    """A movement action is over: if its stands may close-assault, the moving side decides
    now (the window stays open until it ends it). Returns whether it opened."""
    if assault_targets(ctx, group):
        ctx.state.assault_open = group
        ctx.state.to_act = group.side
        return True
    return False


def close_window(ctx: BattleContext) -> None:
    """The moving side makes no more close assaults: the other side acts."""
    st = ctx.state
    side = st.assault_open.side
    st.assault_open = None
    st.to_act = ctx.other(side)


def do_close_assault(ctx: BattleContext, a) -> None:
    """Close-assault ``a.defender`` with every stand of the ended movement action in base
    contact with it (002 8.7). The defender rolls first when it carries no movement marker;
    passing, it chooses whom it attacks (:func:`do_assault_reply`)."""
    st = ctx.state
    group = st.assault_open
    if group is None or st.assault is not None or group.side != a.side:
        raise IllegalAction("close assaults are declared when a movement action ends (002 8.7)")
    targets = assault_targets(ctx, group)
    if a.defender not in targets:
        raise IllegalAction(close_assault_problem(ctx, a.side, a.defender))
    st.assaulted.add(a.defender)
    d = ctx.stand(a.defender)
    assaulters = targets[a.defender]
    droll = None
    if not d.movement_marker:
        droll = combat.cohesion_roll(ctx, marker_mods(d.S, d.D), ctx.cohesion_level(d.side))
        low = ctx.crt.columns[0]
        if droll["passed"] and any(
            may_attack(d, ctx.stand(i), low, ctx.rules.assault) for i in assaulters
        ):
            st.assault = CloseAssaultState(a.side, d.id, assaulters, droll)
            st.to_act = d.side
            return
    finish_assault(ctx, a.side, d, assaulters, droll, None)


def reply_options(ctx: BattleContext) -> list[str]:
    """The assaulting stands the close-assaulted defender may attack (002 8.7)."""
    ca = ctx.state.assault
    if ca is None:
        return []
    d = ctx.stand(ca.defender)
    low = ctx.crt.columns[0]
    return [i for i in ca.assaulters if may_attack(d, ctx.stand(i), low, ctx.rules.assault)]


def do_assault_reply(ctx: BattleContext, a) -> None:
    """The defender, its roll passed, attacks one assaulter of its choice at -3 (002 8.7);
    then the assaulters attack."""
    st = ctx.state
    ca = st.assault
    if ca is None:
        raise IllegalAction("there is no close assault to answer")
    d = ctx.stand(ca.defender)
    if a.side != d.side:
        raise IllegalAction(f"{d.id} is not {a.side}'s stand")
    if a.target not in reply_options(ctx):
        if a.target in ca.assaulters:
            raise IllegalAction(attack_problem(ctx, d, ctx.stand(a.target)))
        raise IllegalAction(
            f"{a.target} is not one of the stands assaulting {d.id} ({ctx.rules.assault.cite('8.7')})"
        )
    st.assault = None
    reply = attack_fields(ctx, d, ctx.stand(a.target), None, defender_mods(ctx, d))
    finish_assault(ctx, ca.side, d, ca.assaulters, ca.defender_roll, reply)


def defender_mods(ctx: BattleContext, d: StandState) -> list[Mod]:
    """The die modifiers of a close-assaulted defender's attack on one assaulter (002/004
    8.7 step 2): -3; in Wehrmacht '47 also the range chart's 0" band (its 1" band: -1) of
    the defender's tech level, since every roll of the 004 close assault is at zero range
    (004 close assault notes)."""
    mods: list[Mod] = [("close_assault", ASSAULT_MOD)]
    if ctx.rules.assault.zero_range_band:
        mods.append(_zero_range(ctx, d))
    return mods


def _zero_range(ctx: BattleContext, s: StandState) -> Mod:
    """The range modifier of an attack at 0" (the 1" band) by a stand of ``s``'s tech level
    (004 range chart: -1 for TL1 and TL2 weapons)."""
    return ("range", ctx.data.range_chart(ctx.scenario.ruleset, s.tech_level).modifier(1))


def assaulter_mods(ctx: BattleContext, s: StandState, d: StandState) -> list[Mod]:
    """The die modifiers of an assaulter's attack (002/004 8.7): -3 for every assault, a
    further -3 for engineers and "type S" infantry; then in Modern (002) -3 for mounted
    cavalry against a defender that is not armoured and -1 for closing the range, in
    Wehrmacht '47 (004 notes) the range chart's 0" band (its 1" band: -1) of the attacker's
    tech level, cavalry being doubled instead (:func:`assault_differential`)."""
    mods: list[Mod] = [("close_assault", ASSAULT_MOD)]
    flags = s.unit.flags
    if "engineer" in flags or "type_s" in flags:
        mods.append(("engineer", ENGINEER_MOD))
    if ctx.rules.assault.zero_range_band:
        mods.append(_zero_range(ctx, s))
        return mods
    if "cavalry" in flags and d.unit.defense_class != "armoured":
        mods.append(("cavalry", CAVALRY_MOD))
    mods.append(("closing", CLOSING_MOD))
    return mods


def finish_assault(ctx: BattleContext, side, d: StandState, assaulters, droll, reply) -> None:
    """The assaulters' rolls and attacks, then the battle log's ``close_assault`` line
    (002 8.7); the moving side may then declare another, or end."""
    st = ctx.state
    rolls: dict[str, dict] = {}
    attacks: list[dict] = []
    for sid in assaulters:
        s = ctx.stand(sid)
        if s.eliminated:
            continue
        r = combat.cohesion_roll(ctx, marker_mods(s.S, s.D), ctx.cohesion_level(s.side))
        rolls[sid] = r
        if r["passed"] and not d.eliminated:
            fields = attack_fields(ctx, s, d, None, assaulter_mods(ctx, s, d))
            if fields is not None:
                attacks.append(fields)
    ctx.event(
        "close_assault",
        rule=ctx.rules.assault.cite("8.7"),
        side=side,
        defender=d.id,
        assaulters=list(assaulters),
        defender_roll=droll,
        defender_attack=reply,
        assaulter_rolls=rolls,
        assaulter_attacks=attacks,
        retreat=retreat(ctx, d, assaulters) if ctx.rules.assault.defender_retreat else None,
    )
    st.to_act = side
    if not assault_targets(ctx, st.assault_open):
        close_window(ctx)


RETREAT_IN = 1.0
"""How far a defender left disorganized by a close assault moves away (004 notes: 1")."""


def retreat(ctx: BattleContext, d: StandState, assaulters) -> list | None:
    """Wehrmacht '47 (004 close assault step 5): a defender left disorganized (and not
    eliminated) moves :data:`RETREAT_IN` directly away from the assaulters' centre, keeping
    its facing; where it cannot (off the table, onto ground it may not enter, or onto
    another stand) it is eliminated. Returns the log's ``retreat``: the path walked (start
    first), only the start when it could not move, None when it does not retreat."""
    if d.eliminated or not d.D:
        return None
    start = [d.x, d.y]
    spot = retreat_spot(ctx, d, assaulters)
    if spot is None:
        ctx.eliminate(d)
        return [start]
    d.x, d.y = spot
    carry(ctx, d)  # riders aboard a carrier that falls back go with it
    return [start, list(spot)]


def retreat_spot(ctx: BattleContext, d: StandState, assaulters) -> tuple[float, float] | None:
    """Where ``d`` would fall back to, 1" directly away from the assaulters' centre (inches),
    or None where it cannot (004 close assault step 5; :func:`retreat`)."""
    near = [ctx.stand(i) for i in assaulters]
    cx = sum(s.x for s in near) / len(near)
    cy = sum(s.y for s in near) / len(near)
    dx, dy = d.x - cx, d.y - cy
    length = math.hypot(dx, dy) or 1.0
    x = round(d.x + RETREAT_IN * dx / length, 6)
    y = round(d.y + RETREAT_IN * dy / length, 6)
    t = ctx.table
    costs, _ = t.move_costs_at([x], [y], d.unit.movement_class)
    ok = (
        0.5 <= x <= t.width - 0.5
        and 0.5 <= y <= t.depth - 0.5
        and math.isfinite(float(costs[0]))
        and not t.crosses_impassable(((d.x, d.y), (x, y)))
        and ctx.room_at(x, y, d.facing_deg, ignore=d.id)
    )
    return (x, y) if ok else None


def assault_options(ctx: BattleContext, side: str) -> list:
    """The close assaults open to the moving side, and ending them (002 8.7)."""
    group = ctx.state.assault_open
    if group is None:
        return []
    return [EndCloseAssaults(side)] + [
        CloseAssault(side, d) for d in sorted(assault_targets(ctx, group))
    ]


def do_end_close_assaults(ctx: BattleContext, a) -> None:
    """The moving side declares no (more) close assaults (002 8.7)."""
    st = ctx.state
    if st.assault_open is None or st.assault is not None or st.assault_open.side != a.side:
        raise IllegalAction("there are no close assaults to end")
    close_window(ctx)
