"""Hidden plots of a network battle: an indirect fire mission or an air strike plotted
in the joint plot phase travels as a commitment, and its aim is revealed when it lands.

Which stands fire (or which aircraft flies) and the turn it lands are open: the other player
at a table would see the plotting player's guns given a mission, and the rules count them
(a gun fires one mission a turn, an aircraft type has so many sorties). Where it lands, with
what ammunition, and an air strike's path are hidden: in the engine of both machines the
mission's ``sheaf``, ``ammo`` and ``path`` stay empty, and the state holds the commitment
(``BattleState.hidden``), so both machines' state hashes agree without either engine holding
the plot. The plotting machine checks the whole plot before it commits to it (the plot
phase's own checks); when it lands, the joint artillery phase waits (decision ``reveal``) for
the owner to reveal each of its hidden missions due, and the reveal is refused unless it
matches the commitment and passes every check that does not depend on the moment of
plotting (ammunition, sheaf, an air strike's path); each firer's range is checked as it
lands, as for every mission (002 7.11, 7.13; 004 7.8, 12.8).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from game.rules import turns
from game.rules.actions import (
    PlotAirStrike,
    PlotHiddenAirStrike,
    PlotHiddenMission,
    PlotMission,
    RevealAirStrike,
    RevealMission,
)
from game.rules.context import IllegalAction
from game.rules.fair import plot_commitment
from game.rules.phases import plot
from game.rules.procedures import artillery
from game.rules.state import Mission

if TYPE_CHECKING:
    from game.rules.context import BattleContext


def hidden_due(ctx: BattleContext) -> list[Mission]:
    """The hidden missions landing now, not yet revealed (in the order plotted): while there
    are any in the joint artillery phase, it waits for their owners to reveal them."""
    st = ctx.state
    if st.phase != "artillery" or not st.hidden:
        return []
    return [m for m in st.missions if m.id in st.hidden and m.lands_turn <= st.turn]


def conceal(plot_action, salt: str) -> PlotHiddenMission | PlotHiddenAirStrike:
    """The hidden form of a plot (what the plotting machine sends and both engines apply):
    its open parts and the commitment to the whole plot with ``salt``. Raises TypeError for
    an action that is not a plot."""
    c = plot_commitment(plot_action.to_dict(), salt)
    if isinstance(plot_action, PlotMission):
        return PlotHiddenMission(
            plot_action.side, tuple(plot_action.firers), plot_action.lands_turn, c
        )
    if isinstance(plot_action, PlotAirStrike):
        return PlotHiddenAirStrike(
            plot_action.side, plot_action.aircraft, plot_action.lands_turn, c
        )
    raise TypeError(f"{plot_action.kind} is not a plot")


def reveal(plot_action, mission: str, salt: str) -> RevealMission | RevealAirStrike:
    """The reveal of a hidden plot as mission ``mission`` (its id in the battle). Raises
    TypeError for an action that is not a plot."""
    if isinstance(plot_action, PlotMission):
        return RevealMission(plot_action.side, mission, plot_action.sheaf, plot_action.ammo, salt)
    if isinstance(plot_action, PlotAirStrike):
        return RevealAirStrike(plot_action.side, mission, plot_action.path, salt)
    raise TypeError(f"{plot_action.kind} is not a plot")


def _due(ctx: BattleContext, a, kind: str) -> Mission:
    due = hidden_due(ctx)
    if not due:
        raise IllegalAction("no hidden plot is landing now")
    m = due[0]
    if a.side != m.side or a.mission != m.id:
        raise IllegalAction(f"{m.side} reveals its mission {m.id} first")
    if m.kind != kind:
        raise IllegalAction(f"mission {m.id} is an {'air strike' if m.kind == 'air' else kind}")
    return m


def _matches(ctx: BattleContext, m: Mission, plotted, salt: str) -> None:
    if plot_commitment(plotted.to_dict(), salt) != ctx.state.hidden[m.id]:
        raise IllegalAction(
            f"the plot revealed for {m.id} does not match the commitment sent when it was plotted"
        )


def _revealed(ctx: BattleContext, m: Mission, **fields) -> None:
    st = ctx.state
    commitment = st.hidden.pop(m.id)
    ctx.event("reveal", side=m.side, mission=m.id, kind=m.kind, commitment=commitment, **fields)
    nxt = hidden_due(ctx)
    if nxt:
        st.to_act = nxt[0].side
        return
    turns.begin_again(ctx)


def do_reveal_mission(ctx: BattleContext, a: RevealMission) -> None:
    """Reveal a hidden indirect fire mission as it lands: it must match its commitment,
    and its ammunition and sheaf pass the plot's checks (002 7.11; rules-decisions
    "Artillery, smoke and air strikes"); the mission then lands with the others."""
    m = _due(ctx, a, "artillery")
    plotted = PlotMission(m.side, m.firers, tuple(a.sheaf), a.ammo, m.lands_turn)
    _matches(ctx, m, plotted, a.salt)
    if a.ammo not in artillery.AMMO:
        raise IllegalAction(f"ammunition is he or smoke, not {a.ammo!r}")
    why = artillery.sheaf_problem(ctx, plotted.sheaf, len(m.firers))
    if why:
        raise IllegalAction(why)
    m.sheaf = tuple(tuple(p) for p in plotted.sheaf)
    m.ammo = a.ammo
    _revealed(
        ctx,
        m,
        firers=list(m.firers),
        aim=list(m.sheaf[0]),
        sheaf=[list(p) for p in m.sheaf],
        ammo=m.ammo,
        salt=a.salt,
    )


def do_reveal_air_strike(ctx: BattleContext, a: RevealAirStrike) -> None:
    """Reveal a hidden air strike as it arrives: it must match its commitment, and its
    path is entry and exit on a table edge with the point of attack on the table (002 7.13)."""
    m = _due(ctx, a, "air")
    plotted = PlotAirStrike(m.side, m.aircraft, tuple(a.path), m.lands_turn)
    _matches(ctx, m, plotted, a.salt)
    plot.check_air_path(ctx, plotted.path)
    entry, poa, exit_ = plotted.path
    m.path = tuple(tuple(p) for p in plotted.path)
    m.ammo = "he"
    _revealed(
        ctx,
        m,
        aircraft=m.aircraft,
        entry=list(entry),
        aim=list(poa),
        path=[list(p) for p in m.path],
        exit=list(exit_),
        salt=a.salt,
    )
