"""The scripted AI's fire support (the full games' joint artillery and plot phases): which
direct artillery it fires, where it plots HE for next turn (where the enemy stands or must
pass), when it lays smoke in front of its own advance, and where it sends its air strikes (the
enemy's best stands, away from its own and from the enemy's AA). Every number it weighs comes
from the engine (``Battle.mission_outcomes`` and ``strike_outcomes``, the odds over every
place a mission or a strike may come down, ``fire_support_problem``, ``strike_aa``): the AI
computes no rule itself."""

from __future__ import annotations

import math

from game import ArtilleryFire, Pass, PlotAirStrike, PlotMission
from game.ai.values import Option, stand_value

FIRE_AT = 0.12
"""A direct artillery attack or a mission is made when what it is expected to do to the
enemy, less its risk to our own stands, is above this (in stands)."""
LEAD = 0.5
"""How far along its move the AI expects an enemy stand that may move to be when a mission
plotted now lands (a share of its speed, towards our stands)."""
RESULT_WORTH = {"E": 1.0, "D": 0.45, "S": 0.15, "none": 0.0}
"""What each result does to a stand, in stands (as the fire chooser weighs it)."""
FRIENDLY_CLEAR_IN = 3.5
"""Our stands this close to an aim point make it a risk (a deviated mission, the nearest stand
of an air strike)."""
SMOKE_NEAR_IN = 16.0
"""Smoke is laid on an enemy stand that has this many of our moving stands within this
distance (inches) and sight of them."""
AA_COST = 0.35
"""What each enemy AA stand along a strike's path costs it (in stands)."""
SHEAF_REACH_IN = 7.5
"""A stand of ours further than this (inches) from every marker centre of a sheaf cannot come
under a marker however the sheaf deviates (1D8/2": at most 4", the marker's 1" radius, a
stand's half diagonal): its outcomes are not asked."""
OWN_WEIGHT = 1.5
"""How much more our own stands' expected losses to our own fire weigh than the enemy's."""


class FireSupportChooser:
    """A part of :class:`game.ai.scripted.ScriptedAI` for the fire support decisions: direct
    artillery (``artillery``) and the plot phase (``plot``). Built with the AI's ``level``;
    it asks no other part (every number comes from the engine)."""

    def __init__(self, level) -> None:
        self.level = level

    def _worth(self, battle, side: str, odds: dict) -> float:
        """What a mission's odds over every place it may land (``Battle.mission_outcomes``)
        are worth: the enemy's losses less our own, which weigh half as much again."""
        gain, own = self.harm_split(battle, side, odds)
        return gain - OWN_WEIGHT * own

    def harm_split(self, battle, side: str, odds: dict) -> tuple[float, float]:
        """(the enemy's expected losses, ours), stands, from the odds of how each stand ends
        (``Battle.mission_outcomes``, ``strike_outcomes``)."""
        gain = own = 0.0
        for sid, dist in odds["stands"].items():
            t = battle.stand(sid)
            v = sum(p * RESULT_WORTH[r] for r, p in dist.items()) * stand_value(t)
            if t.side == side:
                own += v
            else:
                gain += v
        return gain, own

    def expected_places(self, battle, side: str) -> dict[str, tuple[float, float]]:
        """Where each stand is expected to be when a plot made now lands (``_expected_at``):
        the enemy's part of his move towards our nearest stand, ours part of theirs towards
        his (both sides move before it lands: our own stands that drove up to where the enemy
        was expected were the nearest stands when the strikes came down)."""
        return {
            s.id: self._expected_at(battle, battle.other(s.side), s)
            for s in battle.state.stands.values()
            if s.active
        }

    def artillery(self, battle, side) -> list[Option]:
        """Direct artillery: each attack the engine lists, weighed by its exact odds over
        every place it may land (a mortar's deviates)."""
        opts = [Option("hold the guns", FIRE_AT, Pass(side))]
        for a in battle.legal_actions():
            if not isinstance(a, ArtilleryFire):
                continue
            odds = battle.mission_outcomes(side, a.firers, a.sheaf, a.ammo, "direct")
            opts.append(
                Option(f"direct fire by {', '.join(a.firers)}", self._worth(battle, side, odds), a)
            )
        return opts

    def _expected_at(self, battle, side: str, s) -> tuple[float, float]:
        """Where enemy stand ``s`` is likely to be when a mission plotted now lands: where it
        is, or (a stand that may move) part of its move towards our nearest stand; a stand
        waiting to enter, a little way in from its edge."""
        own = [o for o in battle.state.stands.values() if o.side == side and not o.eliminated]
        if not own or "artillery" in getattr(s.unit, "flags", ()):
            return s.x, s.y
        near = min(own, key=lambda o: math.hypot(o.x - s.x, o.y - s.y))
        d = math.hypot(near.x - s.x, near.y - s.y)
        step = min(LEAD * float(s.unit.speed), max(0.0, d - 10.0))
        if d <= 1e-9 or step <= 0:
            return s.x, s.y
        x, y = s.x + (near.x - s.x) * step / d, s.y + (near.y - s.y) * step / d
        t = battle.table
        return min(max(x, 0.5), t.width - 0.5), min(max(y, 0.5), t.depth - 0.5)

    def target_worth(self, battle, e) -> float:
        """What hitting enemy stand ``e`` with fire support is worth (stands): its worth, and
        for a level that fights counter-battery (``Level.counter_battery``) that much more
        again for a gun (its HE will come down on us next turn and the turns after) and for an
        AA stand while we have air strikes left (it guards the enemy from them)."""
        v = stand_value(e)
        cb = self.level.counter_battery
        if not cb:
            return v
        if battle.indirect_reach(e.id) is not None:
            return v * (1.0 + cb)
        if "aa" in e.unit.flags and battle.sorties_left(battle.other(e.side)):
            return v * (1.0 + 0.5 * cb)
        return v

    def aims(self, battle, side: str) -> list[tuple[float, float, float]]:
        """Candidate aim points (x, y, value): each enemy stand's expected place, weighed
        by the enemy stands expected within 2" of it, less ours near it."""
        enemies = [
            s
            for s in battle.state.stands.values()
            if s.side != side and not s.eliminated and s.carried_by is None
        ]
        spots = [
            (self._expected_at(battle, side, e), self.target_worth(battle, e)) for e in enemies
        ]
        own = [s for s in battle.state.stands.values() if s.side == side and s.active]
        out = []
        for (x, y), _ in spots:
            if not battle.table.on_table(x, y):
                continue
            value = sum(v for (ex, ey), v in spots if math.hypot(ex - x, ey - y) <= 2.0)
            if any(math.hypot(o.x - x, o.y - y) < FRIENDLY_CLEAR_IN for o in own):
                continue
            out.append((x, y, value))
        out.sort(key=lambda e: -e[2])
        return out

    def plot(self, battle, side) -> list[Option]:
        """The plot phase: HE at the enemy's likely places for next turn, smoke on the enemy
        stand that watches most of our advance, an air strike at the best target away from
        the enemy's AA; or pass."""
        st = battle.state
        opts = [Option("plot nothing more", 0.05, Pass(side))]
        lands = st.turn + 1
        aims = self.aims(battle, side)[:6]
        free = battle.free_artillery(side, lands)
        held = self.held_for_direct(battle, side, free, aims)
        free = [g for g in free if g not in held]
        if free and aims:
            opts += self._he_options(battle, side, free, aims, lands)
            smoke = self._smoke_option(battle, side, free, lands)
            if smoke is not None:
                opts.append(smoke)
        mine = [m for m in st.missions if m.side == side and m.kind == "air"]
        left = battle.sorties_left(side)
        if left and aims and not any(m.lands_turn == lands for m in mine):
            opts += self._air_options(battle, side, sorted(left)[0], aims, lands)
        return opts

    def held_for_direct(self, battle, side: str, free, aims) -> dict[str, str]:
        """The guns of ``free`` kept back from this plot phase to fire direct next turn, each
        with why: a gun with an enemy stand in its direct range and sight now
        (``Battle.direct_aim_problem``) whose direct fire at it (``mission_outcomes``, its
        place now), at ``Level.fires_direct`` of its worth (the enemy may move out of sight
        before then), is worth more than ``FIRE_AT`` and than the gun's best mission alone at
        ``aims`` (their expected places). A gun plotted for a turn fires its mission as that
        turn's artillery phase begins, and is not free to fire direct."""
        keep = self.level.fires_direct
        if not keep or not free:
            return {}
        enemies = sorted(
            (
                e
                for e in battle.state.stands.values()
                if e.side != side and e.active and e.on_table and e.carried_by is None
            ),
            key=lambda e: e.id,
        )
        where = None
        held = {}
        for g in free:
            direct, target = FIRE_AT, None
            for e in enemies:
                if battle.direct_aim_problem(g, e.x, e.y) is not None:
                    continue
                odds = battle.mission_outcomes(side, (g,), ((e.x, e.y),), "he", "direct")
                v = keep * self._worth(battle, side, odds)
                if v > direct:
                    direct, target = v, e.id
            if target is None:
                continue
            where = where or self.expected_places(battle, side)
            plot = 0.0
            for x, y, _ in aims:
                if battle.indirect_problem(g, x, y) is not None:
                    continue
                odds = battle.mission_outcomes(side, (g,), ((x, y),), "he", "indirect", where)
                plot = max(plot, self._worth(battle, side, odds))
            if direct > plot:
                held[g] = (
                    f"{g} keeps its fire for {target}, in its sight: {direct:.2f} > {plot:.2f}"
                )
        return held

    def _he_options(self, battle, side, free, aims, lands) -> list[Option]:
        opts = []
        where = self.expected_places(battle, side)
        for x, y, value in aims:
            guns = [g for g in free if battle.indirect_problem(g, x, y) is None]
            if not guns:
                continue
            across = self._across(battle, side, x, y)
            sheaf = battle.line_sheaf((x, y), len(guns), across)
            a = PlotMission(side, tuple(guns), sheaf, "he", lands)
            if battle.fire_support_problem(a):
                a = PlotMission(side, (guns[0],), ((x, y),), "he", lands)
                if battle.fire_support_problem(a):
                    continue
            near = any(
                math.dist(where[o.id], c) <= SHEAF_REACH_IN
                for o in battle.state.stands.values()
                if o.side == side and o.id in where
                for c in a.sheaf
            )
            if near:  # one of ours may come under a marker, on the aim or deviated
                laid = battle.mission_outcomes(side, a.firers, a.sheaf, "he", "indirect", where)
                gain, own = self.harm_split(battle, side, laid)
                if own > 0 and own >= gain:
                    continue  # the sheaf would hurt us more than him
            else:
                laid, own = battle.mission_odds(side, a.firers, a.sheaf, "he", "indirect"), 0.0
            share = sum(laid["p_laid"].values()) / max(1, len(laid["p_laid"]))
            score = 0.35 * value * share * laid["p_on_aim"] - OWN_WEIGHT * own
            opts.append(Option(f"HE at ({x:.0f}, {y:.0f}) from {len(a.firers)}", score, a))
        return opts

    def _across(self, battle, side: str, x: float, y: float) -> float:
        """The heading (degrees) across the enemy's line of advance at (x, y): at right
        angles to the way from there to our stands' centre."""
        own = [s for s in battle.state.stands.values() if s.side == side and not s.eliminated]
        cx = sum(s.x for s in own) / len(own) if own else x
        cy = sum(s.y for s in own) / len(own) if own else y
        return math.degrees(math.atan2(cy - y, cx - x)) + 90.0

    def _smoke_option(self, battle, side, free, lands) -> Option | None:
        """Smoke from one free gun on the enemy stand that would see most of our stands
        that are moving up (within :data:`SMOKE_NEAR_IN`), when there are two or more."""
        movers = [
            s
            for s in battle.state.stands.values()
            if s.side == side
            and not s.eliminated
            and s.carried_by is None
            and "artillery" not in getattr(s.unit, "flags", ())
        ]
        best, best_n = None, 1
        for e in battle.state.stands.values():
            if e.side == side or not e.active:
                continue
            n = sum(1 for s in movers if math.hypot(s.x - e.x, s.y - e.y) <= SMOKE_NEAR_IN)
            if n > best_n:
                best, best_n = e, n
        if best is None:
            return None
        for g in sorted(free, key=lambda g: -battle.stand(g).unit.speed):
            a = PlotMission(side, (g,), ((best.x, best.y),), "smoke", lands)
            if battle.fire_support_problem(a) is None:
                return Option(f"smoke on {best.id} ({best_n} of ours near)", 0.1 * best_n, a)
        return None

    def _air_options(self, battle, side, aircraft, aims, lands) -> list[Option]:
        """A strike at each good aim from the entry that flies past the fewest enemy AA,
        less what it is expected to do to our own stands (it attacks the stand nearest where
        it comes down, friend or foe, on the aim or deviated up to 10": the engine's
        ``strike_outcomes``, the enemy where he is expected to be); none where that harm
        outweighs what it is expected to do to the enemy."""
        t = battle.table
        opts = []
        where = self.expected_places(battle, side)
        for x, y, value in aims[:4]:
            entries = [
                battle.home_edge_point(side, x, y),
                (x, 0.0),
                (x, t.depth),
            ]
            best = None
            for p in entries:
                path = (p, (x, y), p)
                aa = len(battle.strike_aa(side, path))
                a = PlotAirStrike(side, aircraft, path, lands)
                if battle.fire_support_problem(a):
                    continue
                score = 0.6 * value - AA_COST * aa
                if best is None or score > best.score:
                    best = Option(f"{aircraft} at ({x:.0f}, {y:.0f}), {aa} AA", score, a)
            if best is None:
                continue
            odds = battle.strike_outcomes(side, aircraft, best.action.path, where)
            gain, own = self.harm_split(battle, side, odds)
            if own > 0 and own >= gain:
                continue  # it would more likely hurt us than him
            opts.append(Option(best.label, best.score - OWN_WEIGHT * own, best.action))
        return opts
