"""The fire procedure (000 07.04; 001 fire procedure chart): who may fire at whom, every
modifier, the combat differential, the CRT and its result, and the exact odds before rolling.

:func:`fire_setup` is the one place that works out an attacker's shot; the engine's fire check,
its odds, the window's fire panel and the AI all read it.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING

import shapely

from game.rules.charts.units import FullUnit
from game.rules.context import IllegalAction
from game.rules.files.log import mods_json, pos
from game.rules.procedures.odds import (  # noqa: F401 - the CRT's arithmetic, read as combat.* too
    attack_odds,
    cell_probabilities,
    cohesion_passes,
    crt_result,
    p_cohesion,
    read_cell,
)
from game.rules.table.geometry import STAND_SIZE_IN, StandPose, engaged, footprint, in_front_arc

if TYPE_CHECKING:
    from game.rules.context import BattleContext
    from game.rules.state import StandState

Mod = tuple[str, int]  # (why, value): a modifier as the battle log writes it

SUPPRESSED_MOD = 4  # 000 07.06.01
DISORGANIZED_MOD = 3  # 000 07.06.03
COMBAT_MOD_CAP = 7  # 000 CRT: combined combat-result modifiers never exceed +7
ATGM_COHESION = {
    3: 2,
    4: 1,
}  # 000 07.03.01: TL3 missile +2, TL4 +1; TL5 0 (house value, docs/rules.md)
HILLTOP_MOD = 2  # 002 chart: hilltop +2 when fired on from below
WRECK_MOD = 1  # 002 chart: wreck +1


def marker_mods(S: bool, D: bool) -> list[Mod]:
    """Cohesion modifiers from a stand's own combat results: S +4, D +3, together never more
    than +7 (000 07.06.01, 07.06.03, CRT notes)."""
    mods: list[Mod] = []
    if S:
        mods.append(("suppressed", SUPPRESSED_MOD))
    if D:
        mods.append(("disorganized", DISORGANIZED_MOD))
    over = sum(v for _, v in mods) - COMBAT_MOD_CAP
    if over > 0:  # cannot happen with the intro's +4/+3, kept for later rulesets
        mods[-1] = (mods[-1][0], mods[-1][1] - over)
    return mods


def halved_up(value: int) -> int:
    """Half a defence value, rounded up (000 07.08.01: 50% retained, rounded up)."""
    return math.ceil(value / 2)


@dataclass(frozen=True)
class FireSetup:
    """Everything about one stand's shot before the dice.

    ``legal`` False gives ``reason``. Ranges in inches; modifiers as (why, value) pairs;
    ``level`` is the firing side's cohesion level. Full games: ``defense_class`` of the
    target, ``ammo`` the gun's "ap" or "he" (None in the intro rules), and ``dash_s`` what a
    ``-S-`` cell does to the target for this firer ("S" or "-", 002 CRT notes).
    """

    attacker: str
    target: str
    weapon: str
    legal: bool
    reason: str | None
    range_in: float = 0.0
    range_band_in: int = 0
    aspect: str = "front"
    cohesion_mods: tuple[Mod, ...] = ()
    level: int = 0
    firepower: int = 0
    defense_base: int = 0
    defense: int = 0
    differential: int = 0
    combat_mods: tuple[Mod, ...] = ()
    defense_class: str = "armoured"
    ammo: str | None = None
    dash_s: str = "S"

    @property
    def cohesion_total_mod(self) -> int:
        """Sum of the cohesion modifiers."""
        return sum(v for _, v in self.cohesion_mods)

    @property
    def combat_total_mod(self) -> int:
        """Sum of the combat-roll modifiers."""
        return sum(v for _, v in self.combat_mods)


def illegal(attacker: str, target: str, weapon: str, reason: str) -> FireSetup:
    """A shot that may not be taken, and why."""
    return FireSetup(attacker, target, weapon, False, reason)


# ---------------------------------------------------------------------------------- the fire
# procedure on a battle: who may fire at whom and with what, resolved with the battle's dice

COVERING_FIRE_MOD = 3  # cohesion penalty of covering fire: little time to sight (001 7.5.3)


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


def cohesion_roll(ctx: BattleContext, mods: list[Mod], level: int, roll: int | None = None) -> dict:
    """A cohesion roll (000 04.00): a D20 from the battle's dice (or ``roll``, when one die
    serves several stands) plus ``mods`` against ``level``; a natural 1 passes and a natural
    20 fails. Returns the battle log's roll object: ``roll``, ``mods``, ``total``, ``level``,
    ``passed``."""
    if roll is None:
        roll = ctx.dice.d20()
    total = roll + sum(v for _, v in mods)
    return {
        "roll": roll,
        "mods": mods_json(mods),
        "total": total,
        "level": level,
        "passed": cohesion_passes(roll, total, level),
    }


def fire_setup(
    ctx: BattleContext,
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
    a, t = ctx.stand(attacker_id), ctx.stand(target_id)
    no = lambda why: illegal(attacker_id, target_id, weapon, why)  # noqa: E731
    if attacker_pose is not None and kind != "planning":
        raise ValueError("a firer placed elsewhere is for planning only")
    if next_turn and kind != "planning":
        raise ValueError("a shot of the next turn is for planning only")
    refused = _may_not_fire(ctx, a, t, weapon, kind, attacker_pose, target_pose)
    if refused:
        return no(refused)
    unit = a.unit
    tpose = target_pose or t.pose()
    apose = attacker_pose or a.pose()
    refused = _may_not_aim(ctx, a, t, apose, tpose, engaged_check=attacker_pose is None)
    if refused:
        return no(refused)
    if sight is None:
        sight = _sight_of(ctx, t, apose, tpose)
    if not sight.clear:
        return no(f"{a.id} has no line of sight to {t.id}")
    personnel = ctx.rules.has("personnel") and t.personnel
    if personnel and ctx.table.personnel_cover_blocks(apose, tpose):
        return no(f"{a.id} has no line of sight to {t.id}: rough ground hides personnel")
    band = sight.range_band_in
    weapon_stats = _weapon_against(ctx, a, t, weapon, band)
    if isinstance(weapon_stats, str):
        return no(weapon_stats)
    firepower, ammo = weapon_stats
    cohesion_mods, combat_mods = _fire_mods(
        ctx, a, t, weapon, kind, band, apose, tpose, road_rate, next_turn
    )
    defense_base = t.unit.defense
    defense = _target_defense(t, kind, personnel, sight.aspect)
    differential = firepower - defense
    if differential < ctx.crt.columns[0]:
        return no(
            f"combat differential {differential:+d} is below "
            f"{ctx.crt.columns[0]:+d}: no direct fire"
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
        level=ctx.cohesion_level(a.side),
        firepower=firepower,
        defense_base=defense_base,
        defense=defense,
        differential=differential,
        combat_mods=tuple(combat_mods),
        defense_class=t.unit.defense_class,
        ammo=ammo,
        dash_s=ctx.rules.fire.dash_s(unit),
    )


def _sight_of(ctx: BattleContext, t: StandState, apose: StandPose, tpose: StandPose) -> SightInfo:
    """The sight from a firer at ``apose`` to target ``t`` at ``tpose`` (000 07.01, 07.08):
    every other stand on the table may stand in the way, the target counted where
    ``tpose`` places it."""
    s = ctx.table.sight(
        apose,
        tpose,
        ctx.poses(exclude=t.id) + [tpose],
        ctx.sighting_in,
        ctx.ruleset_data,
    )
    return SightInfo(s.clear, s.range_in, s.range_band_in, s.aspect, s.in_contact)


def _may_not_fire(
    ctx: BattleContext,
    a: StandState,
    t: StandState,
    weapon: str,
    kind: str,
    attacker_pose: StandPose | None,
    target_pose: StandPose | None,
) -> str | None:
    """Why stand ``a`` may not fire ``weapon`` at ``t`` at all this phase, whatever the
    geometry, or None: both on the table (unless placed elsewhere for planning), opposing
    sides, a fire phase and a stand free to fire in it (000 07.04; 001 5.0) for a
    ``kind`` "standard" shot, free to opportunity or covering fire for those (000 07.06.05;
    001 7.4.1), a target that may be attacked so, and a weapon it has (an ATGM not used up).
    """
    if not a.active and attacker_pose is None:
        return f"{a.id} is not on the table"
    if not t.active and target_pose is None:
        return f"{t.id} is not on the table"
    if a.side == t.side:
        return f"{t.id} is on the same side"
    if kind == "standard":
        if ctx.phase is None or ctx.phase.kind != "fire":
            return "it is not a fire phase"
        if not ctx.rules.fire.may_fire_in(a, ctx.state.phase):
            if a.posture == "movement":
                return f"{a.id} is in the movement posture this turn (001 5.0)"
            return (
                f"{a.id} may not fire in this phase (tech level {a.tech_level}, "
                f"fired {a.fire_attempts} time(s) this turn)"
            )
    elif kind in ("opportunity", "covering") and not ctx.rules.fire.may_opportunity_fire(a):
        if a.posture == "movement":
            return f"{a.id} is in the movement posture this turn (001 7.4.1)"
        why = ctx.rules.fire.fire_refusal(a)
        return why or f"{a.id} may not {kind} fire (fired {a.fire_attempts} time(s))"
    if kind != "planning":
        refused = ctx.rules.fire.attack_refused(t, kind, ctx.state.phase)
        if refused:
            return refused
    if weapon == "atgm":
        if a.unit.atgm is None:
            return f"{a.id} has no ATGM"
        if a.depleted:
            return f"{a.id} has used up its ATGMs"
    elif weapon != "cannon":
        return f"unknown weapon {weapon!r}"
    return None


def _may_not_aim(
    ctx: BattleContext,
    a: StandState,
    t: StandState,
    apose: StandPose,
    tpose: StandPose,
    engaged_check: bool,
) -> str | None:
    """Why ``a`` at ``apose`` may not aim at ``t`` at ``tpose``, or None: an engaged stand
    fires only at those it is engaged with (000 07.08.04; not checked without
    ``engaged_check``, for a firer placed elsewhere), and a gun restricted to the front arc
    fires only into it (the 90 degrees ahead)."""
    engaged_to = engaged_with(ctx, a.id) if engaged_check else set()
    if engaged_to and t.id not in engaged_to:
        return f"{a.id} is engaged and may fire only at {', '.join(sorted(engaged_to))}"
    if a.unit.facing_restricted and not in_front_arc(apose, tpose.x, tpose.y):
        return f"{a.id}'s gun fires only into its front arc"
    return None


def _weapon_against(
    ctx: BattleContext, a: StandState, t: StandState, weapon: str, band: int
) -> tuple[int, str | None] | str:
    """``(firepower, ammo)`` of ``a``'s ``weapon`` against ``t`` at range band ``band``
    (whole inches), or why it may not: in full games (000 07.02.05) an ATGM attacks armour
    only and a gun fires AP at armour, HE at personnel (``ammo`` "ap"/"he", None in basic
    games and for ATGMs), each with its own firepower and range; beyond the weapon's range,
    or inside the ATGM's minimum range, no shot."""
    unit = a.unit
    full = ctx.rules.has("personnel")  # defence classes: AP against armour, HE personnel
    personnel = full and t.personnel
    ammo = None
    atgm = unit.atgm if weapon == "atgm" else None  # (a unit with one: checked before)
    max_range, firepower = (atgm.range, atgm.attack) if atgm else (unit.gun_range, unit.firepower)
    if full and weapon == "atgm" and personnel:
        return f"{a.id}'s ATGMs attack armoured targets only, and {t.id} is personnel"
    if full and weapon != "atgm" and isinstance(unit, FullUnit):
        gun = unit.fire_against(t.unit.defense_class)
        ammo = "he" if personnel else "ap"
        if gun is None:
            return (
                f"{a.id} has no {ammo.upper()} firepower to attack {t.id} "
                f"({t.unit.defense_class}, 000 07.02.05)"
            )
        firepower, max_range = gun
    if band > max_range:
        return f'{t.id} is beyond {a.id}\'s {weapon} range ({band}" > {max_range}")'
    if atgm and band < atgm.min_range:
        return f'{t.id} is inside the ATGM\'s minimum range ({band}" < {atgm.min_range}")'
    return firepower, ammo


def _fire_mods(
    ctx: BattleContext,
    a: StandState,
    t: StandState,
    weapon: str,
    kind: str,
    band: int,
    apose: StandPose,
    tpose: StandPose,
    road_rate: bool,
    next_turn: bool,
) -> tuple[list[Mod], list[Mod]]:
    """The shot's ``(cohesion_mods, combat_mods)`` (000 07.04 steps A and F; 002 terrain
    chart; RD): the firer's markers, the ATGM's tech-level penalty and covering fire's
    (001 7.5.3) on the firing cohesion roll; the cannon's range-chart modifier at ``band``
    on the combat roll; and the target's terrain on both, but on the cohesion roll only
    while the target has not tried to fire (000 07.01.03; ``next_turn`` counts its fired
    marker as gone). A target moving at ``road_rate`` has no terrain."""
    cohesion_mods = marker_mods(a.S, a.D)
    if weapon == "atgm":
        cohesion_mods.append(("atgm", ATGM_COHESION.get(a.tech_level or 0, 0)))
    if kind == "covering":
        cohesion_mods.append(("covering", COVERING_FIRE_MOD))  # 001 7.5.3
    terrain_mods = [] if road_rate else target_terrain_mods(ctx, apose, tpose)
    target_fired = t.fire_attempts > 0 and not next_turn
    if not target_fired:
        cohesion_mods += terrain_mods
    combat_mods: list[Mod] = []
    if weapon == "cannon":
        chart = ctx.data.range_chart(ctx.scenario.ruleset, a.tech_level)
        combat_mods.append(("range", chart.modifier(band)))
    combat_mods += terrain_mods
    return cohesion_mods, combat_mods


def _target_defense(t: StandState, kind: str, personnel: bool, aspect: str) -> int:
    """The target's defence against this shot: personnel have no facing, and moving (a
    movement marker or posture, or an opportunity shot) their defence is halved, rounded up
    (002 fire step 3); a vehicle's is halved unless the shot strikes its front
    (``aspect`` "front", 000 07.02)."""
    defense_base = t.unit.defense
    if personnel:
        moving = t.movement_marker or t.posture == "movement" or kind == "opportunity"
        return halved_up(defense_base) if moving else defense_base
    return defense_base if aspect == "front" else halved_up(defense_base)


def target_terrain_mods(
    ctx: BattleContext, firer: StandPose, tpose: StandPose
) -> list[tuple[str, int]]:
    """Effects of the terrain a target stands in, cumulative (002 chart; RD "Range and
    fire"): each area under its centre, hilltop +2 when its centre is on a hilltop (not the
    1" slope band) higher than the firer's ground (terrain chart **; RD "Hills"), wreck +1
    when its centre is on a wreck, smoke +3 once when either or both are in smoke, however
    many smoke areas overlap (ruling R3). A personnel target (full games) takes the chart's
    "if personnel" values. Returns (code, value) pairs, e.g. ("terrain:woods", 2)."""
    here = ctx.table.terrain_at(tpose.x, tpose.y)
    mods = []
    target = ctx.state.stands.get(tpose.id)
    personnel = target is not None and target.personnel
    for kind in here.effect_areas:
        tt = ctx.data.terrain[kind]
        # "target moving": only a target in the movement posture (WWII: 001 terrain chart)
        # or carrying a movement marker (full games)
        if tt.combat_when == "target_moving" and (
            target is None or (target.posture != "movement" and not target.movement_marker)
        ):
            continue
        value = tt.combat_effect(ctx.scenario.ruleset, personnel)
        if value:
            mods.append((f"terrain:{kind}", value))
    on_top = here.hill_zone == "hilltop"
    if on_top and here.ground_level > ctx.table.terrain_at(firer.x, firer.y).ground_level:
        mods.append(("hilltop", HILLTOP_MOD))
    reach = STAND_SIZE_IN / math.sqrt(2) + 1e-9  # no point farther is on a footprint
    if any(
        math.hypot(w.x - tpose.x, w.y - tpose.y) <= reach
        and shapely.intersects_xy(footprint(w.x, w.y, w.facing_deg), tpose.x, tpose.y)
        for w in ctx.state.wrecks
    ):
        mods.append(("wreck", WRECK_MOD))
    if "smoke" not in here.areas and "smoke" in ctx.table.terrain_at(firer.x, firer.y).areas:
        mods.append(("smoke", ctx.data.terrain["smoke"].combat_vehicle))
    return mods


def engaged_with(ctx: BattleContext, stand_id: str) -> set[str]:
    """Enemy stands this stand is engaged with (000 07.08.04)."""
    s = ctx.stand(stand_id)
    if not s.active:
        return set()
    me = s.pose()
    return {
        e.id
        for e in ctx.state.stands.values()
        if e.active
        and e.side != s.side
        and abs(e.x - s.x) < 1.5
        and abs(e.y - s.y) < 1.5
        and engaged(me, e.pose())
    }


def setup_for(
    ctx: BattleContext,
    attacker: str,
    target: str,
    weapon: str | None,
    kind: str,
    pose: StandPose | None = None,
    road: bool = False,
) -> FireSetup:
    """The shot an attacker would take at a target: with ``weapon``, or its cannon, or its
    ATGM where only that may fire (000 07.03, 07.04)."""
    if weapon:
        return fire_setup(ctx, attacker, target, weapon, kind, pose, road_rate=road)
    first = fire_setup(ctx, attacker, target, "cannon", kind, pose, road_rate=road)
    if first.legal or ctx.stand(attacker).unit.atgm is None:
        return first
    second = fire_setup(ctx, attacker, target, "atgm", kind, pose, road_rate=road)
    return second if second.legal else first


def fire_options(
    ctx: BattleContext, side: str | None = None, first_only: bool = False
) -> dict[str, list[FireSetup]]:
    """Every legal shot of ``side`` (by default the side to act) in a fire phase, by target:
    each eligible attacker's :class:`FireSetup` with each weapon it may use (000 07.04; one
    sight matrix for all pairs). Empty outside the fire phases. ``first_only``: stop at the
    first legal shot (whether a side has one at all: the automatic passes)."""
    st = ctx.state
    side = st.to_act if side is None else side
    phase = ctx.phase
    if phase is None or phase.kind != "fire" or side is None:
        return {}
    attackers = [
        s
        for s in st.stands.values()
        if s.active and s.side == side and ctx.rules.fire.may_fire_in(s, st.phase)
    ]
    targets = [
        s
        for s in st.stands.values()
        if s.active and s.side != side and st.phase not in s.attacked_in
    ]
    if not attackers or not targets:
        return {}
    m = ctx.table.sight_matrix(
        [a.pose() for a in attackers],
        [t.pose() for t in targets],
        ctx.poses(),
        ctx.sighting_in,
        ctx.ruleset_data,
    )
    out: dict[str, list[FireSetup]] = {}
    for j, t in enumerate(targets):
        for i, a in enumerate(attackers):
            if not m.clear[i, j]:
                continue
            info = sight_info(m, i, j)
            for weapon in ("cannon", "atgm") if a.unit.atgm else ("cannon",):
                fs = fire_setup(ctx, a.id, t.id, weapon, sight=info)
                if fs.legal:
                    out.setdefault(t.id, []).append(fs)
                    if first_only:
                        return out
    return out


def check_attack(
    ctx: BattleContext, side, target, attackers, weapons, kind, target_pose=None, sights=None, road_rate=False
) -> list[FireSetup]:
    """The fire setups of an attack as declared, or IllegalAction with the first reason it
    may not be made: attackers named once each, one weapon each, all of the side, each shot
    legal (000 07.04, 07.06.05; 001 7.4, 7.5)."""
    if not attackers:
        raise IllegalAction("an attack needs at least one attacking stand")
    if len(weapons) != len(attackers):
        raise IllegalAction("give one weapon per attacking stand")
    if len(set(attackers)) != len(attackers):
        raise IllegalAction("a stand is named twice in the attack")
    t = ctx.stand(target)
    if t.side == side:
        raise IllegalAction(f"{target} is one of {side}'s own stands")
    setups = []
    for i, (aid, weapon) in enumerate(zip(attackers, weapons, strict=True)):
        if ctx.stand(aid).side != side:
            raise IllegalAction(f"{aid} is not {side}'s stand")
        fs = fire_setup(
            ctx, aid, target, weapon, kind, target_pose, sights[i] if sights else None, road_rate
        )
        if not fs.legal:
            raise IllegalAction(fs.reason)
        setups.append(fs)
    return setups


def resolve_attack(
    ctx: BattleContext, setups: list[FireSetup], kind: str, phase: str, target_pose: StandPose | None = None
) -> str:
    """Each firing stand is a combat event (000 07.04); returns the last result that did
    something ("none" when none did)."""
    st = ctx.state
    st.attacks += 1
    t = ctx.stand(setups[0].target)
    t.attacked_in.add(phase)
    tpose = target_pose or t.pose()
    last = "none"
    for fs in setups:
        if t.eliminated:
            break  # nothing left to shoot at: the rest hold their fire
        a = ctx.stand(fs.attacker)
        a.fire_attempts += 1
        a.fired_in.add(phase)
        coh = cohesion_roll(ctx, list(fs.cohesion_mods), fs.level)
        passed = coh["passed"]
        markers_before = t.markers()
        ev = dict(
            attack=st.attacks,
            kind=kind,
            side=a.side,
            attacker=a.id,
            target=t.id,
            weapon=fs.ammo if fs.ammo and fs.weapon == "cannon" else fs.weapon,
            attacker_pos=pos(a.x, a.y, a.facing_deg),
            target_pos=pos(tpose.x, tpose.y, tpose.facing_deg),
            range_in=round(fs.range_in, 6),
            range_band_in=fs.range_band_in,
            cohesion=coh,
        )
        if passed:
            dice = ctx.dice.roll(2, 6)
            ctotal = min(19, max(0, sum(dice) + fs.combat_total_mod))
            cell = ctx.crt.lookup(fs.differential, ctotal)
            result, t.S, t.D, elim = crt_result(read_cell(cell, fs.dash_s), t.S, t.D)
            if elim:
                ctx.eliminate(t)
            if result != "none":
                last = result
            ev.update(
                firepower=fs.firepower,
                defense_base=fs.defense_base,
                aspect=fs.aspect,
                defense=fs.defense,
                differential=fs.differential,
                combat={"dice": dice, "mods": mods_json(fs.combat_mods), "total": ctotal},
                crt=ctx.crt.printed(cell),
                result=result,
                target_markers_after=t.markers(),
            )
            if fs.weapon == "atgm" and a.unit.atgm is not None:
                depleted = sum(dice) <= a.unit.atgm.depletion  # 000 07.03.03
                a.depleted = a.depleted or depleted
                ev["depleted"] = depleted
        if ctx.rules.has("full_log"):
            ev.update(defense_class=fs.defense_class, markers_before=markers_before)
        ctx.event("fire", **ev)
    return last
