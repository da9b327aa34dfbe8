"""The joint plot phase of the full games (002 step 5; 004 step 5): the sides alternate
plotting indirect fire missions and air strikes for later turns until both pass (002 7.11,
7.13; 004 7.8, 12.8; rules-decisions "Artillery, smoke and air strikes"). A plot is in the
battle log at once; the screens show it to its owner only."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from game.rules.actions import (
    Action,
    Pass,
    PlotAirStrike,
    PlotHiddenAirStrike,
    PlotHiddenMission,
    PlotMission,
)
from game.rules.context import IllegalAction
from game.rules.fair import is_hex_digest
from game.rules.phases import Phase
from game.rules.procedures import air, artillery
from game.rules.state import Mission

if TYPE_CHECKING:
    from game.rules.context import BattleContext

OPTION_TARGETS = 8
"""The enemy stands (nearest first) the listed plot options aim at: the screens and the AI
plot anywhere; the list is what the random player and the fuzz draw from."""


def committed(ctx: BattleContext, lands_turn: int) -> set[str]:
    """Stands already plotted to fire in a mission landing in turn ``lands_turn``."""
    return {
        f
        for m in ctx.state.missions
        if m.kind == "artillery" and m.lands_turn == lands_turn
        for f in m.firers
    }


def free_artillery(ctx: BattleContext, side: str, lands_turn: int) -> list:
    """``side``'s artillery stands on the table not yet plotted for ``lands_turn``."""
    busy = committed(ctx, lands_turn)
    return [
        s
        for s in ctx.state.stands.values()
        if s.side == side and s.active and artillery.is_artillery(s) and s.id not in busy
    ]


def sorties_left(ctx: BattleContext, side: str) -> dict[str, int]:
    """Air strikes ``side`` may still plot, by aircraft (the scenario's air support less the
    strikes plotted so far)."""
    out: dict[str, int] = {}
    flown = ctx.state.sorties_flown
    for air_row in ctx.side_spec[side].air_support:
        out[air_row.aircraft] = out.get(air_row.aircraft, 0) + air_row.sorties
    used = {k.split(":", 1)[1]: v for k, v in flown.items() if k.startswith(f"{side}:")}
    return {k: v - used.get(k, 0) for k, v in out.items() if v - used.get(k, 0) > 0}


def home_edge_point(ctx: BattleContext, side: str, x: float, y: float) -> tuple[float, float]:
    """The point of ``side``'s own table edge (:func:`home_edge`) nearest (x, y)."""
    t = ctx.table
    return {
        "left": (0.0, y),
        "right": (t.width, y),
        "bottom": (x, 0.0),
        "top": (x, t.depth),
    }[home_edge(ctx, side)]


def home_edge(ctx: BattleContext, side: str) -> str:
    """``side``'s own table edge (left, right, bottom or top): its entry edge, or else the
    edge nearest its stands (where its aircraft come from and go home to)."""
    t = ctx.table
    edge: str | None = ctx.side_spec[side].entry_edge
    if edge is None:
        own = [s for s in ctx.state.stands.values() if s.side == side and not s.eliminated]
        cx = sum(s.x for s in own) / len(own) if own else t.width / 2
        cy = sum(s.y for s in own) / len(own) if own else t.depth / 2
        edge = min(
            (("left", cx), ("right", t.width - cx), ("bottom", cy), ("top", t.depth - cy)),
            key=lambda e: e[1],
        )[0]
    return edge


def turn_problem(ctx: BattleContext, lands_turn: int) -> str | None:
    """Why a mission may not be plotted to land in ``lands_turn``: a later turn of the
    battle."""
    last = ctx.scenario.spec.turns
    if not ctx.state.turn < lands_turn <= last:
        return f"a mission lands in a later turn, {ctx.state.turn + 1} to {last}"
    return None


def _check_open(ctx: BattleContext, side: str, lands_turn: int, what: str, also=None) -> None:
    """Raise IllegalAction unless ``side`` may plot ``what`` landing in ``lands_turn``: the
    plot phase, the side to act, ``also()`` (a plot kind's own check), a later turn."""
    st = ctx.state
    if st.phase != "plot" or side != st.to_act:
        raise IllegalAction(f"{what} are plotted in the joint plot phase, in turn")
    if also is not None:
        also()
    why = turn_problem(ctx, lands_turn)
    if why:
        raise IllegalAction(why)


def _check_firers(ctx: BattleContext, side: str, firers, lands_turn: int) -> None:
    """Raise IllegalAction unless ``firers`` are distinct artillery stands of ``side`` not yet
    plotted to fire in ``lands_turn``."""
    if not firers or len(set(firers)) != len(firers):
        raise IllegalAction("name each firing stand once")
    free = {s.id for s in free_artillery(ctx, side, lands_turn)}
    for sid in firers:
        s = ctx.stand(sid)
        if sid not in free:
            raise IllegalAction(
                f"{sid} is not an artillery stand of {side} free to fire in turn {lands_turn}"
                if s.side == side
                else f"{sid} is not {side}'s"
            )


def _check_ammo(ammo: str) -> None:
    if ammo not in artillery.AMMO:
        raise IllegalAction(f"ammunition is he or smoke, not {ammo!r}")


def _check_sorties(ctx: BattleContext, side: str, aircraft: str) -> None:
    if sorties_left(ctx, side).get(aircraft, 0) <= 0:
        raise IllegalAction(f"{side} has no sortie of {aircraft!r} left")


def check_plot(ctx: BattleContext, a: PlotMission) -> None:
    """Raise IllegalAction unless ``a`` may be plotted: the plot phase, the side to act, HE
    or smoke, a later turn, distinct artillery stands of the side not yet plotted for that
    turn, a good sheaf, and each firer's indirect range to its marker's point now."""
    _check_open(ctx, a.side, a.lands_turn, "missions", lambda: _check_ammo(a.ammo))
    _check_firers(ctx, a.side, a.firers, a.lands_turn)
    why = artillery.sheaf_problem(ctx, a.sheaf, len(a.firers))
    if why:
        raise IllegalAction(why)
    for sid, (x, y) in zip(a.firers, a.sheaf, strict=True):
        why = artillery.indirect_range_problem(ctx, ctx.stand(sid), x, y)
        if why:
            raise IllegalAction(why)


def _new_mission(ctx: BattleContext, side: str, kind: str, lands_turn: int, **fields) -> Mission:
    """The next mission's number and its :class:`Mission`; an air strike uses a sortie."""
    st = ctx.state
    st.missions_plotted += 1
    if kind == "air":
        key = f"{side}:{fields['aircraft']}"
        st.sorties_flown[key] = st.sorties_flown.get(key, 0) + 1
    return Mission(f"m{st.missions_plotted}", side, kind, lands_turn, st.turn, **fields)


def _plotted(ctx: BattleContext, m: Mission, **fields) -> None:
    st = ctx.state
    st.missions.append(m)
    ctx.event(
        "plot",
        rule=artillery.card_rule(ctx, "7.11", "7.8"),
        side=m.side,
        mission=m.id,
        kind=m.kind,
        lands_turn=m.lands_turn,
        **fields,
    )
    st.passes = 0
    st.to_act = ctx.other(m.side)


def do_plot_mission(ctx: BattleContext, a: PlotMission) -> None:
    """Plot an indirect fire mission (002 7.11): checked, kept in the battle's state (and the
    log), landing in turn ``lands_turn``; then the other side acts."""
    check_plot(ctx, a)
    m = _new_mission(
        ctx,
        a.side,
        "artillery",
        a.lands_turn,
        firers=tuple(a.firers),
        sheaf=tuple(tuple(p) for p in a.sheaf),
        ammo=a.ammo,
    )
    _plotted(
        ctx,
        m,
        firers=list(m.firers),
        aim=list(m.sheaf[0]),
        sheaf=[list(p) for p in m.sheaf],
        ammo=m.ammo,
    )


def check_air(ctx: BattleContext, a: PlotAirStrike) -> None:
    """Raise IllegalAction unless ``a`` may be plotted: the plot phase, the side to act, a
    sortie of that aircraft left, a later turn, and a path of three points (entry on a table
    edge, point of attack on the table, exit on a table edge)."""
    _check_open(
        ctx, a.side, a.lands_turn, "air strikes", lambda: _check_sorties(ctx, a.side, a.aircraft)
    )
    check_air_path(ctx, a.path)


def check_air_path(ctx: BattleContext, path) -> None:
    """Raise IllegalAction unless ``path`` (inches) is an air strike's: its entry point on a
    table edge, its point of attack on the table, its exit point on a table edge (002 7.13)."""
    if len(path) != 3:
        raise IllegalAction("an air strike's path is its entry point, point of attack and exit")
    entry, poa, exit_ = path
    if not air.on_edge(ctx.table, *entry) or not air.on_edge(ctx.table, *exit_):
        raise IllegalAction("an air strike enters and leaves at a table edge")
    if not ctx.table.on_table(*poa):
        raise IllegalAction("the point of attack is off the table")


def do_plot_air_strike(ctx: BattleContext, a: PlotAirStrike) -> None:
    """Plot an air strike (002 7.13; 004's optional air strikes): checked, one sortie used,
    arriving in turn ``lands_turn``; then the other side acts."""
    check_air(ctx, a)
    m = _new_mission(
        ctx, a.side, "air", a.lands_turn, aircraft=a.aircraft, path=tuple(tuple(p) for p in a.path)
    )
    _plotted(
        ctx,
        m,
        aircraft=m.aircraft,
        entry=list(m.path[0]),
        aim=list(m.path[1]),
        sheaf=[list(p) for p in m.path[1:2]],
        ammo="he",
        path=[list(p) for p in m.path],
        exit=list(m.path[2]),
    )


def _check_hidden(ctx: BattleContext, a, what: str, also=None) -> None:
    """A hidden plot's open parts: a network battle, the plot phase, the side to act, a
    commitment of 64 hex digits, ``also()``, a later turn."""
    if ctx.state.chains is None:
        raise IllegalAction("plots are hidden only in a network battle")

    def checks() -> None:
        if not is_hex_digest(a.commitment):
            raise IllegalAction("a hidden plot's commitment is 64 lowercase hex digits")
        if also is not None:
            also()

    _check_open(ctx, a.side, a.lands_turn, what, checks)


def do_plot_hidden_mission(ctx: BattleContext, a: PlotHiddenMission) -> None:
    """An indirect fire mission plotted unseen (002 7.11; 004 7.8): its open parts
    checked as :func:`check_plot` checks them (the plot phase, the side to act, a later
    turn, distinct free artillery stands of the side), kept with its commitment, its sheaf
    and ammunition empty; then the other side acts."""
    _check_hidden(ctx, a, "missions")
    _check_firers(ctx, a.side, a.firers, a.lands_turn)
    m = _new_mission(ctx, a.side, "artillery", a.lands_turn, firers=tuple(a.firers), ammo="")
    ctx.state.hidden[m.id] = a.commitment
    _plotted(ctx, m, firers=list(m.firers), commitment=a.commitment)


def do_plot_hidden_air_strike(ctx: BattleContext, a: PlotHiddenAirStrike) -> None:
    """An air strike plotted unseen (002 7.13): a sortie of that aircraft left and a
    later turn, one sortie used, its path kept only as the commitment; then the other side
    acts."""
    _check_hidden(ctx, a, "air strikes", lambda: _check_sorties(ctx, a.side, a.aircraft))
    m = _new_mission(ctx, a.side, "air", a.lands_turn, aircraft=a.aircraft, ammo="")
    ctx.state.hidden[m.id] = a.commitment
    _plotted(ctx, m, aircraft=m.aircraft, commitment=a.commitment)


def options(ctx: BattleContext, side: str, kind: str) -> list[Action]:
    """Pass, or a plot for next turn at one of the enemy stands nearest the side's own
    (:data:`OPTION_TARGETS`): HE from every free artillery stand in range in a line sheaf,
    smoke from the first of them, an air strike of each aircraft with sorties left."""
    st = ctx.state
    acts: list[Action] = [Pass(side)]
    lands = st.turn + 1
    if turn_problem(ctx, lands):
        return acts
    own = [s for s in st.stands.values() if s.side == side and s.active]
    enemies = [e for e in st.stands.values() if e.side != side and e.active]
    if not own or not enemies:
        return acts
    cx, cy = sum(s.x for s in own) / len(own), sum(s.y for s in own) / len(own)
    enemies.sort(key=lambda e: (math.hypot(e.x - cx, e.y - cy), e.id))
    free = free_artillery(ctx, side, lands)
    air_left = sorted(sorties_left(ctx, side))
    for e in enemies[:OPTION_TARGETS]:
        guns = [s.id for s in free if artillery.indirect_range_problem(ctx, s, e.x, e.y) is None]
        if guns:
            sheaf = artillery.line_sheaf((e.x, e.y), len(guns))
            ok = artillery.sheaf_problem(ctx, sheaf, len(guns)) is None and not any(
                artillery.indirect_range_problem(ctx, ctx.stand(g), *p)
                for g, p in zip(guns, sheaf, strict=True)
            )
            if ok:
                acts.append(PlotMission(side, tuple(guns), sheaf, "he", lands))
            else:
                acts.append(PlotMission(side, (guns[0],), ((e.x, e.y),), "he", lands))
            acts.append(PlotMission(side, (guns[0],), ((e.x, e.y),), "smoke", lands))
        for name in air_left:
            home = home_edge_point(ctx, side, e.x, e.y)
            acts.append(PlotAirStrike(side, name, (home, (e.x, e.y), home), lands))
    return acts


def skip(ctx: BattleContext) -> bool:
    """Nothing to plot: no artillery stand on the table and no sortie left on either side, or
    the last turn (nothing could land)."""
    if ctx.state.turn >= ctx.scenario.spec.turns:
        return True
    return not any(
        s.active and artillery.is_artillery(s) for s in ctx.state.stands.values()
    ) and not any(sorties_left(ctx, side) for side in ctx.sides)


PHASE = Phase(
    "plot",
    "joint plot phase",
    kind="plot",
    decide=lambda ctx: "plot",
    options=options,
    handlers={
        PlotMission: do_plot_mission,
        PlotAirStrike: do_plot_air_strike,
        PlotHiddenMission: do_plot_hidden_mission,
        PlotHiddenAirStrike: do_plot_hidden_air_strike,
    },
    skip=skip,
)
