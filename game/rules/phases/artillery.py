"""The joint artillery fire phase of the full games (002 step 2; 004 step 3): the indirect
missions and air strikes plotted for this turn land, the sides alternating from the one with
the initiative; then the sides alternate direct artillery attacks until both pass (002/004
direct artillery fire procedure; rules-decisions "Artillery, smoke and air strikes")."""

from __future__ import annotations

from typing import TYPE_CHECKING

from game.rules import turns
from game.rules.actions import Action, ArtilleryFire, Pass, RevealAirStrike, RevealMission
from game.rules.context import IllegalAction
from game.rules.phases import Phase, hidden
from game.rules.procedures import air, artillery

if TYPE_CHECKING:
    from game.rules.context import BattleContext


def land_missions(ctx: BattleContext) -> None:
    """The missions plotted to land this turn fly or fire, alternating between the sides
    (the side with the initiative first, each side's in the order plotted): air strikes by
    :func:`game.rules.procedures.air.fly_strike`, artillery by
    :func:`game.rules.procedures.artillery.fire_mission` as indirect fire."""
    st = ctx.state
    held = hidden.hidden_due(ctx)
    if held:  # a network battle's hidden plots are revealed first
        st.to_act = held[0].side
        return
    due = [m for m in st.missions if m.lands_turn <= st.turn]
    if not due:
        return
    st.missions = [m for m in st.missions if m.lands_turn > st.turn]
    first = st.initiative or ctx.sides[0]
    queues = {s: [m for m in due if m.side == s] for s in ctx.sides}
    order, side = [], first
    while queues[ctx.sides[0]] or queues[ctx.sides[1]]:
        if queues[side]:
            order.append(queues[side].pop(0))
        side = ctx.other(side)
    for m in order:
        if m.kind == "air":
            air.fly_strike(ctx, m)
        else:
            artillery.fire_mission(ctx, m.id, m.side, m.firers, m.sheaf, m.ammo, "indirect")


def able(ctx: BattleContext, side: str) -> list:
    """``side``'s artillery stands that may fire direct artillery now."""
    return [
        s
        for s in ctx.state.stands.values()
        if s.side == side
        and artillery.is_artillery(s)
        and artillery.artillery_refusal(ctx, s, side) is None
    ]


def direct_options(ctx: BattleContext, side: str) -> list[Action]:
    """Direct artillery ``side`` may fire now: each able stand at each enemy stand it has
    sight and range to (HE, aimed at the stand's centre), and all of them together at one
    target in a line sheaf where there are several."""
    firers = able(ctx, side)
    if not firers:
        return []
    acts: list[Action] = []
    enemies = sorted(
        (e for e in ctx.state.stands.values() if e.side != side and e.active), key=lambda e: e.id
    )
    for e in enemies:
        shooters = [s.id for s in firers if artillery.direct_problem(ctx, s, e.x, e.y) is None]
        for sid in shooters:
            acts.append(ArtilleryFire(side, (sid,), ((e.x, e.y),), "he"))
        if len(shooters) > 1:
            sheaf = artillery.line_sheaf((e.x, e.y), len(shooters))
            ok = artillery.sheaf_problem(ctx, sheaf, len(shooters)) is None and not any(
                artillery.direct_problem(ctx, ctx.stand(g), *p)
                for g, p in zip(shooters, sheaf, strict=True)
            )
            if ok:
                acts.append(ArtilleryFire(side, tuple(shooters), sheaf, "he"))
    return acts


def check_direct(ctx: BattleContext, a: ArtilleryFire) -> None:
    """Raise IllegalAction unless ``a`` may be fired now: the artillery phase, the side to
    act, HE or smoke, distinct able firers, a good sheaf, and each firer's sight and range to
    its marker's point (002 direct artillery procedure)."""
    st = ctx.state
    if st.phase != "artillery":
        raise IllegalAction("direct artillery fires in the joint artillery fire phase")
    if a.side != st.to_act:
        raise IllegalAction(f"it is {st.to_act}'s turn to act")
    if a.ammo not in artillery.AMMO:
        raise IllegalAction(f"ammunition is he or smoke, not {a.ammo!r}")
    if not a.firers or len(set(a.firers)) != len(a.firers):
        raise IllegalAction("name each firing stand once")
    why = artillery.sheaf_problem(ctx, a.sheaf, len(a.firers))
    if why:
        raise IllegalAction(why)
    for sid, (x, y) in zip(a.firers, a.sheaf, strict=True):
        s = ctx.stand(sid)
        why = artillery.artillery_refusal(ctx, s, a.side) or artillery.direct_problem(ctx, s, x, y)
        if why:
            raise IllegalAction(why)


def do_artillery_fire(ctx: BattleContext, a: ArtilleryFire) -> None:
    """Direct artillery (002/004 direct artillery fire procedure): checked, fired, then the
    other side acts."""
    check_direct(ctx, a)
    st = ctx.state
    st.missions_plotted += 1
    artillery.fire_mission(
        ctx, f"m{st.missions_plotted}", a.side, a.firers, a.sheaf, a.ammo, "direct"
    )
    st.passes = 0
    st.to_act = ctx.other(a.side)
    turns.settle(ctx)


def options(ctx: BattleContext, side: str, kind: str) -> list[Action]:
    """Pass, or a direct artillery attack (:func:`direct_options`); nothing to list while a
    hidden plot is to be revealed (only its owner's machine holds it)."""
    if kind == "reveal":
        return []
    return [Pass(side)] + direct_options(ctx, side)


def has_target(ctx: BattleContext, side: str) -> bool:
    """Whether one of ``side``'s guns has a direct artillery attack now (an able gun with
    sight and range to an enemy stand; 002 7.9, 7.10): what the phase offers besides passing, so a
    side without one is passed for in a battle with automatic passes."""
    return bool(direct_options(ctx, side))


def skip(ctx: BattleContext) -> bool:
    """Nothing to decide: no stand on either side has a direct artillery attack (an able gun
    with sight and range to an enemy stand)."""
    return not any(direct_options(ctx, side) for side in ctx.sides)


PHASE = Phase(
    "artillery",
    "joint artillery fire phase",
    kind="artillery",
    on_begin=land_missions,
    decide=lambda ctx: "reveal" if hidden.hidden_due(ctx) else "artillery",
    options=options,
    handlers={
        ArtilleryFire: do_artillery_fire,
        RevealMission: hidden.do_reveal_mission,
        RevealAirStrike: hidden.do_reveal_air_strike,
    },
    holds=lambda ctx: bool(hidden.hidden_due(ctx)),
    skip=skip,
    able=has_target,
    unable_why=("no gun of either side has a target for direct fire", "no direct-fire target"),
)
