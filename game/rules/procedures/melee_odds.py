"""The exact odds of an overrun or a close assault before any die is rolled (002/004 8.6 and
8.7): the battle's queries for the screens and the AI, worked out with the procedures of
:mod:`game.rules.procedures.melee` and the CRT's arithmetic of :mod:`game.rules.procedures.combat`.

Units: inches, degrees.
"""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING

from game.rules.context import IllegalAction
from game.rules.procedures import combat
from game.rules.procedures.combat import FireSetup, Mod, marker_mods, read_cell, target_terrain_mods
from game.rules.procedures.melee import (
    IFV_LOADED_MOD,
    OVERRUN_ATTACKER_COLUMN,
    OVERRUN_DEFENDER_COLUMN,
    TRACKED_MOD,
    assault_differential,
    assault_targets,
    assaulter_mods,
    defender_mods,
    may_attack,
    reply_options,
    retreat_spot,
)
from game.rules.state import StandState

if TYPE_CHECKING:
    from game.rules.context import BattleContext


def attack_setup(
    ctx: BattleContext, attacker: StandState, target: StandState, column: int | None, mods: list[Mod]
) -> FireSetup | None:
    """An overrun's or close assault's attack before the dice, as a :class:`FireSetup` that
    :func:`combat.attack_odds` reads: the attacker's cohesion roll (its S and D), the
    differential (``column`` for an overrun, else firepower against defence as
    :func:`melee.attack_fields` works it out), and the die modifiers (``mods`` and the target's
    terrain). None when no attack can be made (002 8.6, 8.7)."""
    apose, tpose = attacker.pose(), target.pose()
    if column is None:
        if not may_attack(attacker, target, ctx.crt.columns[0], ctx.rules.assault):
            return None
        differential = assault_differential(attacker, target, ctx.rules.assault)["differential"]
    else:
        differential = column
    return FireSetup(
        attacker=attacker.id,
        target=target.id,
        weapon="assault",
        legal=True,
        reason=None,
        cohesion_mods=tuple(marker_mods(attacker.S, attacker.D)),
        level=ctx.cohesion_level(attacker.side),
        differential=differential,
        combat_mods=tuple(list(mods) + target_terrain_mods(ctx, apose, tpose)),
        defense_class=target.unit.defense_class,
        dash_s=ctx.rules.fire.dash_s(attacker.unit),
    )


def close_assault_odds(ctx: BattleContext, side: str | None, defender_id: str) -> dict:
    """The exact odds of close-assaulting ``defender_id`` now with the stands of the ended
    movement action in base contact with it (002 8.7), before any die is rolled:
    ``assaulters`` (ids), ``p_defender_fires`` (its cohesion roll passes: 0 when it carries a
    movement marker), ``replies`` {assaulter: the odds of the defender's attack on it, as
    :func:`combat.attack_odds` gives them, its cohesion roll included: absent when it carries
    a movement marker}, and ``assault`` (the odds of the assaulters' attacks on the defender,
    in order, each after its own cohesion roll, their markers as they stand); 004 adds
    ``retreat_room`` (a defender left disorganized could fall back 1" from where it stands;
    else it is eliminated), None in 002. Raises IllegalAction when no close assault on it is
    open."""
    group = ctx.state.assault_open
    targets = assault_targets(ctx, group) if group is not None else {}
    if defender_id not in targets:
        raise IllegalAction(f"no close assault on {defender_id} is open now")
    d = ctx.stand(defender_id)
    ids = targets[defender_id]
    p_fires = 0.0
    if not d.movement_marker:
        p_fires = combat.p_cohesion(
            sum(v for _, v in marker_mods(d.S, d.D)), ctx.cohesion_level(d.side)
        )
    replies = {}
    for i in ids if not d.movement_marker else ():
        fs = attack_setup(ctx, d, ctx.stand(i), None, defender_mods(ctx, d))
        if fs is not None:
            a = ctx.stand(i)
            replies[i] = combat.attack_odds(ctx.crt, [fs], a.S, a.D)
    setups = [
        fs
        for i in ids
        if (fs := attack_setup(ctx, ctx.stand(i), d, None, assaulter_mods(ctx, ctx.stand(i), d)))
    ]
    return {
        "assaulters": ids,
        "p_defender_fires": p_fires,
        "replies": replies,
        "assault": combat.attack_odds(ctx.crt, setups, d.S, d.D),
        "retreat_room": (
            retreat_spot(ctx, d, ids) is not None if ctx.rules.assault.defender_retreat else None
        ),
    }


def overrun_odds(ctx: BattleContext, mover_id: str, defender_id: str) -> dict:
    """The exact odds of an overrun of ``defender_id`` by ``mover_id`` as they stand (002
    8.6): ``p_defender_fails`` its cohesion roll, ``on_defender`` the chances of each result
    of the +6 attack that follows (:func:`sure_attack_odds`), ``p_mover_fails`` and
    ``on_mover`` likewise for the +2 attack on the overrunning stand."""
    m, d = ctx.stand(mover_id), ctx.stand(defender_id)
    mods = sum(v for _, v in marker_mods(d.S, d.D))
    mods += TRACKED_MOD if m.unit.movement_class == "T" else 0
    loaded = (
        ctx.rules.assault.loaded_ifv_bonus
        and m.unit.carrier
        and any(r.carried_by == m.id and not r.eliminated for r in ctx.state.stands.values())
    )
    mods += IFV_LOADED_MOD if loaded else 0
    p_d = 1 - combat.p_cohesion(mods, ctx.cohesion_level(d.side))
    p_m = 1 - combat.p_cohesion(
        sum(v for _, v in marker_mods(m.S, m.D)), ctx.cohesion_level(m.side)
    )

    on_d = sure_attack_odds(ctx, attack_setup(ctx, m, d, OVERRUN_DEFENDER_COLUMN, []), d)
    on_m = sure_attack_odds(ctx, attack_setup(ctx, d, m, OVERRUN_ATTACKER_COLUMN, []), m)
    return {
        "p_defender_fails": p_d,
        "on_defender": on_d,
        "p_mover_fails": p_m,
        "on_mover": on_m,
    }


def sure_attack_odds(ctx: BattleContext, fs: FireSetup, target: StandState) -> dict[str, float]:
    """The chance of each result ("none", "S", "D", "E": what it does to ``target`` as it
    stands) of an attack that is made for certain (an overrun's, after the other stand's
    failed roll): 2D6 plus the setup's die modifiers on the CRT (002 8.6)."""
    out = {"none": 0.0, "S": 0.0, "D": 0.0, "E": 0.0}
    for cell, p in combat.cell_probabilities(ctx.crt, fs.differential, fs.combat_total_mod).items():
        result = combat.crt_result(read_cell(cell, fs.dash_s), target.S, target.D)[0]
        out[result] += p
    return out


def reply_odds(ctx: BattleContext, target_id: str) -> dict[str, float]:
    """While a close-assaulted stand chooses whom to strike back at (its roll passed): the
    chance of each result of its attack on ``target_id`` (002 8.7; :func:`sure_attack_odds`).
    Raises IllegalAction when that is not a choice open now."""
    ca = ctx.state.assault
    if ca is None or target_id not in reply_options(ctx):
        raise IllegalAction(f"no close-assaulted stand may strike back at {target_id} now")
    d, t = ctx.stand(ca.defender), ctx.stand(target_id)
    return sure_attack_odds(ctx, attack_setup(ctx, d, t, None, defender_mods(ctx, d)), t)


def assault_preview(ctx: BattleContext, assaulter_id: str, x: float, y: float, facing: float, defender_id: str):
    """The odds of ``assaulter_id`` close-assaulting ``defender_id`` alone from (x, y,
    facing) (inches, degrees) after a move there (it then carries a movement marker), before
    it moves (002 8.7): ``p_eliminate`` the defender, ``p_lose`` the assaulter to the
    defender's answer (its roll and the -3 attack, none when the defender carries a movement
    marker), or None when the assaulter could not attack it from there. The AI plans its
    assaults with this; the engine's rules are the ones :func:`melee.finish_assault` applies."""
    a, d = ctx.stand(assaulter_id), ctx.stand(defender_id)
    moved = dataclasses.replace(a, x=x, y=y, facing_deg=facing, movement_marker=True)
    low = ctx.crt.columns[0]
    if not may_attack(moved, d, low, ctx.rules.assault):
        return None
    fs = attack_setup(ctx, moved, d, None, assaulter_mods(ctx, moved, d))
    p_fire = combat.p_cohesion(fs.cohesion_total_mod, fs.level)
    p_eliminate = p_fire * sure_attack_odds(ctx, fs, d)["E"]
    p_lose = 0.0
    if not d.movement_marker and may_attack(d, moved, low, ctx.rules.assault):
        reply = attack_setup(ctx, d, moved, None, defender_mods(ctx, d))
        p_d = combat.p_cohesion(
            sum(v for _, v in marker_mods(d.S, d.D)), ctx.cohesion_level(d.side)
        )
        p_lose = p_d * sure_attack_odds(ctx, reply, moved)["E"]
    return {"p_eliminate": p_eliminate, "p_lose": p_lose}
