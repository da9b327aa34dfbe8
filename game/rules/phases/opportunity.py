"""Opportunity fire and covering fire, the movement phase's interruptions (000 07.06.05; 001
7.4, 7.5): a committed move waits while the other side chooses a point of its path to fire at
(or lets it pass); in WWII the moving side may then answer that fire with covering fire."""

from __future__ import annotations

from typing import TYPE_CHECKING

from game.rules.actions import (
    Action,
    CoveringFire,
    EndCoveringFire,
    LetPass,
    OpportunityFire,
)
from game.rules.context import IllegalAction
from game.rules.procedures import combat, moves, transport
from game.rules.procedures.combat import marker_mods
from game.rules.state import CoveringWindow
from game.rules.table.geometry import StandPose

if TYPE_CHECKING:
    from game.rules.context import BattleContext


def covering_options(ctx: BattleContext, side: str) -> list[Action]:
    """Covering-fire attacks open to the moving side (001 7.5): for each stand that has
    just opportunity-fired and is not yet answered, every eligible stand of ours at once
    and each alone."""
    cw = ctx.state.covering
    acts: list[Action] = []
    if cw is None:
        return acts
    ours = [
        s
        for s in ctx.state.stands.values()
        if s.side == side and s.active and ctx.rules.fire.may_opportunity_fire(s)
    ]
    for target in cw.targets:
        pairs = []
        for s in ours:
            fs = combat.setup_for(ctx, s.id, target, None, "covering")
            if fs.legal:
                pairs.append((s.id, fs.weapon))
        if pairs:
            acts.append(
                CoveringFire(side, target, tuple(a for a, _ in pairs), tuple(w for _, w in pairs))
            )
            if len(pairs) > 1:
                acts += [CoveringFire(side, target, (a,), (w,)) for a, w in pairs]
    return acts


def do_let_pass(ctx: BattleContext, a: LetPass) -> None:
    """The other side lets the committed move pass unfired at; it finishes."""
    pm = ctx.state.pending
    if pm is None:
        raise IllegalAction("there is no move to let pass")
    ctx.state.pending = None
    ctx.state.to_act = pm.side
    moves.finish_move(ctx, pm, None)


def do_opportunity_fire(ctx: BattleContext, a: OpportunityFire) -> None:
    """Opportunity fire at one point of the committed move (000 07.06.05; 001 7.4): the move's
    first part is logged, the attack resolved, then the mover's roll to go on and, in WWII,
    the moving side's chance of covering fire (001 7.5)."""
    st = ctx.state
    pm = st.pending
    if pm is None:
        raise IllegalAction("opportunity fire answers an enemy move")
    if a.step not in pm.offer:
        raise IllegalAction(f"no stand of {a.side} may fire at step {a.step} of the move")
    allowed = set(pm.offer[a.step])
    for f, w in zip(a.attackers, a.weapons, strict=False):
        if (f, w) not in allowed:
            raise IllegalAction(f"{f} may not opportunity fire with its {w} at step {a.step}")
    mover = ctx.stand(pm.stand)
    x, y = pm.points[a.step]
    tpose = StandPose(mover.id, mover.side, x, y, pm.headings[a.step])
    road = pm.road_rate[a.step - 1] if a.step > 0 else False
    setups = combat.check_attack(
        ctx, a.side, mover.id, a.attackers, a.weapons, "opportunity", tpose, road_rate=road
    )
    st.pending = None
    st.to_act = pm.side
    # the first part of the move, up to where the enemy stopped it
    spent = sum(pm.step_costs[: a.step])
    ctx.event(
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
    mover.mp_spent += round(spent, 6)
    mover.x, mover.y, mover.facing_deg, mover.on_table = x, y, pm.headings[a.step], True
    if ctx.rules.has("movement_markers"):
        mover.movement_marker = mover.movement_marker or a.step > 0
    if ctx.rules.has("transport"):
        transport.carry(ctx, mover)
    result = combat.resolve_attack(ctx, setups, "opportunity", "movement", tpose)
    go_on: dict = {"roll": None}
    if not mover.eliminated and ctx.rules.movement.roll_to_go_on(result):
        mods = marker_mods(mover.S, mover.D)
        go_on = combat.cohesion_roll(ctx, mods, ctx.cohesion_level(mover.side))
    if ctx.rules.has("covering_fire"):
        answered = [f for f in a.attackers if ctx.stand(f).active]
        st.covering = CoveringWindow(pm.side, pm, a.step, go_on, answered)
        if covering_options(ctx, pm.side):
            st.to_act = pm.side
            return
        st.covering = None
    moves.go_on(ctx, pm, a.step, go_on)


def do_covering_fire(ctx: BattleContext, a: CoveringFire) -> None:
    """Covering fire at a stand that just opportunity-fired (001 7.5, at +3)."""
    st = ctx.state
    cw = st.covering
    if cw is None:
        raise IllegalAction("covering fire answers the enemy's opportunity fire (001 7.5)")
    if a.target not in cw.targets:
        raise IllegalAction(
            f"{a.target} did not just opportunity-fire, or has been answered already"
        )
    setups = combat.check_attack(ctx, a.side, a.target, a.attackers, a.weapons, "covering")
    combat.resolve_attack(ctx, setups, "covering", "movement")
    cw.targets.remove(a.target)
    cw.targets = [t for t in cw.targets if ctx.stand(t).active]
    if not covering_options(ctx, a.side):
        st.covering = None
        moves.go_on(ctx, cw.move, cw.step, cw.go_on)


def do_end_covering_fire(ctx: BattleContext, a: EndCoveringFire) -> None:
    """The moving side declines (further) covering fire; the move goes on."""
    cw = ctx.state.covering
    if cw is None:
        raise IllegalAction("there is no covering fire to decline")
    ctx.state.covering = None
    moves.go_on(ctx, cw.move, cw.step, cw.go_on)


def opportunity_options(ctx: BattleContext, side: str) -> list[Action]:
    """Let the move pass, or fire at one point of it: with every stand that may fire there,
    or with each alone (000 07.06.05)."""
    acts: list[Action] = [LetPass(side)]
    pending = ctx.state.pending
    if pending is None:  # no move is being made: there is nothing to fire at
        return acts
    for step, firers in sorted(pending.offer.items()):
        ids = tuple(f for f, _ in firers)
        acts.append(OpportunityFire(side, step, ids, tuple(w for _, w in firers)))
        if len(firers) > 1:
            acts += [OpportunityFire(side, step, (f,), (w,)) for f, w in firers]
    return acts


HANDLERS = {
    LetPass: do_let_pass,
    OpportunityFire: do_opportunity_fire,
    CoveringFire: do_covering_fire,
    EndCoveringFire: do_end_covering_fire,
}
