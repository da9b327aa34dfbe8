"""Marker removal, the last phase of a turn (000 07.07, 07.03.04; 001 5.0 step 5): the
engine plays it through with the battle's dice."""

from __future__ import annotations

from typing import TYPE_CHECKING

from game.rules.files.log import mods_json
from game.rules.phases import Phase
from game.rules.procedures import artillery, combat
from game.rules.procedures.combat import marker_mods

if TYPE_CHECKING:
    from game.rules.context import BattleContext

RESUPPLY_MOD = 4  # a depleted ATGM stand's resupply roll (000 07.03.04)


def marker_removal(ctx: BattleContext) -> None:
    """Fired markers off (and in the full games movement markers); each stand with S or D
    rolls: pass to remove S, natural 1 removes
    both, natural 20 panics to (S); then depleted ATGM stands roll at +4 to resupply
    (000 07.07, 07.03.04)."""
    st = ctx.state
    if ctx.rules.has("movement_markers"):  # movement and impact markers off first (002 step 8)
        for s in st.stands.values():
            s.movement_marker = False
        artillery.clear_markers(ctx)
    for side in ctx.sides:
        level = ctx.cohesion_level(side)
        for s in [x for x in st.stands.values() if x.side == side and x.active and (x.S or x.D)]:
            mods = marker_mods(s.S, s.D)
            r = combat.cohesion_roll(ctx, mods, level)
            roll, total = r["roll"], r["total"]
            if roll == 1:
                s.S = s.D = False
                outcome = "rallied"
            elif roll == 20:
                _, s.S, s.D, elim = combat.crt_result("(S)", s.S, s.D)
                outcome = "panic"
                if elim:
                    ctx.eliminate(s)
            elif total <= level and s.S:
                s.S = False
                outcome = "recovered"
            else:
                outcome = "none"
            ctx.event(
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
            r = combat.cohesion_roll(ctx, [("resupply", RESUPPLY_MOD)], level)
            if r["passed"]:
                s.depleted = False
            ctx.event("resupply", stand=s.id, **r)


PHASE = Phase("marker_removal", "marker removal", auto=True, on_begin=marker_removal)
