"""The scripted AI's choices of the full games (ruleset ``modern-full``): when its carriers
set their infantry down and take them aboard again, which close assaults it makes, and which
assaulter a close-assaulted stand of its own strikes back at. Every number it weighs comes from the engine
(``Battle.close_assault_odds``, ``legal_actions``); the AI computes no rule itself."""

from __future__ import annotations

import math

from game import CloseAssault, EndCloseAssaults, Mount, Move, StandPose, Unload, base_contact
from game.ai.paths import UNLOAD_NEAR_IN
from game.ai.values import Option, harm, stand_value

UNLOAD_BEFORE_IN = 8.0
"""A carrier sets its riders down once an enemy stand is within :data:`UNLOAD_NEAR_IN`
(inches) after its move, or before its move when one is within this: infantry fight on foot,
and a carrier hit with troops aboard may lose them."""
ASSAULT_AT = 0.15
"""A close assault is made when the chance of eliminating the defender, less the chance of
losing an assaulter to its answer, is above this (in stands)."""
OVERRUN_AT = 0.25
"""An overrun is driven when what it is expected to win (the defender eliminated or
disorganized, at its value) less what it risks (the overrunning stand's own losses, and the
opportunity fire along the way) is above this (in stands)."""
ASSAULT_MOVE_AT = 0.2
"""A foot stand moves into base contact to close-assault when the chance of eliminating the
defender (at its value) less the chance of losing itself to the answer and to opportunity
fire on the way is above this (in stands)."""
RIDE_MARGIN_IN = 1.0
"""A foot stand boards a carrier, or waits beside one for it, when riding takes it at least
this much further (inches) towards where it is needed than its own feet would this phase."""
FETCH_WORTH = 0.04
"""What driving a carrier with room to a foot stand that has far to go is worth, per inch of
the way it saves the stand over the next two turns (stands; the rate at which a position's
score counts the way still to go): it waits this turn, then boards and rides at half the
carrier's allowance, then at its whole, where on foot it walks 2-4" a turn."""
OVERRUN_BEYOND_IN = 1.5
"""How far past the defender's centre an overrun's straight path ends (inches): clear of it,
so the stand need not be walked back."""


class FullGameChooser:
    """A part of :class:`game.ai.scripted.ScriptedAI` for the full games' decisions: rides
    (``unload``, ``mount``, ``fetch``, ``ride_beside``), overruns and assaults. Built with
    the AI's ``level`` and the parts it asks: ``situation``
    (:class:`game.ai.situation.Situation`), ``paths`` (:class:`game.ai.paths.Paths`),
    ``positions`` (:class:`game.ai.positions.Positions`) and ``planner``
    (:class:`game.ai.planner.MovePlanner`, the carrier's own move)."""

    def __init__(self, level, situation, paths, positions, planner) -> None:
        self.level = level
        self.situation = situation
        self.paths = paths
        self.positions = positions
        self.planner = planner

    def unload(self, battle, side) -> list[Option]:
        """Set a rider down when its carrier is near the enemy: the spot farthest from the
        nearest enemy stand (behind the carrier, as a rule). Empty when none should."""
        best: Option | None = None
        for a in battle.legal_actions():
            if not isinstance(a, Unload):
                continue
            c = battle.stand(a.carrier)
            near = UNLOAD_NEAR_IN if c.moved else UNLOAD_BEFORE_IN
            why = ""
            if self.paths.nearest_enemy_in(battle, c.x, c.y, side) > near:
                if not self.carrier_seen(battle, c):
                    continue
                why = f": the enemy sees {a.carrier}"
            x, y = battle.contact_spot(a.carrier, a.spot)
            score = 0.5 + 0.01 * min(self.paths.nearest_enemy_in(battle, x, y, side), 50.0)
            if best is None or score > best.score:
                best = Option(f"set {a.stand} down beside {a.carrier}{why}", score, a)
        return [best] if best is not None else []

    def carrier_seen(self, battle, c) -> bool:
        """Whether carrier ``c``, where it stands, is in the sight and range of an enemy stand
        on the table (the engine's sight matrices), for a level that shields its carriers
        (``Level.shields_carriers``): its riders then get down wherever it is, since a
        carrier hit with troops aboard may lose them. In the breakthrough the veteran's
        halftracks drove into the Pershings' 20" reach with their Panzergrenadiers aboard,
        still 12" off, and died with them."""
        if not self.level.shields_carriers:
            return False
        enemies = [e for e in self.situation.enemies(battle, c.side) if e.on_table]
        if not enemies:
            return False
        _, m_ba = battle.table.sight_matrices(
            [c.pose()],
            [e.pose() for e in enemies],
            battle.poses(),
            battle.sighting_in,
            battle.ruleset_data,
        )
        reach = [float(e.unit.max_range_in) for e in enemies]
        return any(
            m_ba.clear[j, 0] and m_ba.range_band_in[j, 0] <= reach[j] for j in range(len(enemies))
        )

    def _has_shot(self, battle, s) -> bool:
        """Whether an enemy stand on the table is in sight and in range of ``s`` (the
        engine's sight matrix): a stand that could fire does not climb aboard."""
        enemies = self.situation.enemies(battle, s.side)
        if not enemies:
            return False
        m_ab, _ = battle.table.sight_matrices(
            [s.pose()],
            [e.pose() for e in enemies],
            battle.poses(),
            battle.sighting_in,
            battle.ruleset_data,
        )
        return bool((m_ab.clear[0] & (m_ab.range_band_in[0] <= s.unit.max_range_in)).any())

    def _ride_gain(self, battle, s, carrier_id: str) -> float:
        """How much further (inches) foot stand ``s`` gets towards where it is needed riding
        in ``carrier_id`` (at most half the carrier's allowance, ``Battle.carry_reach``) than
        on its own feet this phase; 0 when that is under :data:`RIDE_MARGIN_IN`, when it has
        a shot where it is, or when it is a gun that fires from where it stands."""
        if not s.personnel or battle.indirect_reach(s.id) is not None:
            return 0.0
        way = self.paths.way_to_go(battle, s)
        walk = battle.movement_points(s.id)
        gain = min(way, battle.carry_reach(carrier_id)) - min(way, walk)
        if gain < RIDE_MARGIN_IN or self._has_shot(battle, s):
            return 0.0
        return gain

    def _room_in(self, battle, c) -> bool:
        """Whether ``c`` is a carrier of ours on the table with room for one more rider."""
        return c.active and battle.seats_free(c.id) > 0

    def ride_beside(self, battle, s):
        """A carrier with room in base contact with foot stand ``s`` that would take it
        further than it walks (``_ride_gain``) and will still be there when its next move
        begins (it has moved this phase, or is not of the group moving now: one that is had
        its chance, ``mount``), or None."""
        if not s.personnel or not s.active:
            return None
        mg = battle.state.moving
        moving = set(mg.stands) if mg is not None and mg.side == s.side else set()
        for c in battle.state.stands.values():
            if (
                c.side == s.side
                and (c.moved or c.id not in moving)
                and abs(c.x - s.x) < 1.6
                and abs(c.y - s.y) < 1.6
                and self._room_in(battle, c)
                and base_contact(c.pose(), s.pose())
                and self._ride_gain(battle, s, c.id) > 0
            ):
                return c
        return None

    def mount(self, battle, side, legal, key) -> list[Option]:
        """Take a foot stand aboard a carrier of the moving group as its move begins when the
        ride takes it further towards where it is needed than it would walk (``_ride_gain``)
        and the carrier's own best move (``MovePlanner.plan_in_action``, for the movement action
        ``key``), cut to the half allowance it has once loaded, takes it nearer the enemy by
        that much; the carrier then sets it down near the enemy (``unload``). Empty when
        none should."""
        best: Option | None = None
        for a in legal:
            if not isinstance(a, Mount):
                continue
            s = battle.stand(a.stand)
            gain = self._ride_gain(battle, s, a.carrier)
            if gain <= 0 or (best is not None and gain <= best.score):
                continue
            plan, stay = self.planner.plan_in_action(battle, battle.stand(a.carrier), key)
            if plan is None or plan.score - stay <= 0.02:
                continue  # the carrier would stay: the stand had better walk
            (x0, y0), (x1, y1) = plan.action.path[0], plan.action.path[-1]
            d = math.hypot(x1 - x0, y1 - y0)
            k = min(1.0, battle.carry_reach(a.carrier) / d) if d > 0 else 0.0
            near = self.paths.nearest_enemy_in(battle, s.x, s.y, side)
            there = self.paths.nearest_enemy_in(
                battle, x0 + k * (x1 - x0), y0 + k * (y1 - y0), side
            )
            way, walk = self.paths.way_to_go(battle, s), battle.movement_points(s.id)
            ride = min(way, max(0.0, near - there)) - min(way, walk)
            if math.isinf(near):  # no enemy on the table yet: towards the fight's likely place
                ride = gain
            if ride >= RIDE_MARGIN_IN and (best is None or ride > best.score):
                best = Option(f'{a.stand} boards {a.carrier} ({ride:.0f}" further)', ride, a)
        return [best] if best is not None else []

    def fetch(self, battle, c) -> Option | None:
        """A move of carrier ``c`` (with room, not yet moved) into base contact with a foot
        stand of ours that has far to go and no carrier beside it, the stand behind the
        carrier and the carrier facing where the stand is going, so that next turn it boards
        as the carrier's move begins (rules-decisions "Transport"). Scored as the position
        there (the same measure as every move) plus :data:`FETCH_WORTH` for each inch the ride
        saves the stand over the next two turns, less the
        opportunity fire on the way (``threat_preview``) and the impact markers driven into;
        None when no foot stand is in reach or the carrier has no room."""
        if c.moved or not self._room_in(battle, c):
            return None
        reach = battle.movement_points(c.id)
        enemies = self.situation.enemies(battle, c.side)
        moves, whom, saved = [], {}, {}
        for f in battle.state.stands.values():
            if f.side != c.side or f.id == c.id or not f.personnel or not f.active:
                continue
            if math.hypot(f.x - c.x, f.y - c.y) > reach + 1.5:
                continue
            if self.ride_beside(battle, f) is not None or self._ride_gain(battle, f, c.id) <= 0:
                continue
            way = self.paths.way_to_go(battle, f)
            rides = min(way, battle.carry_reach(c.id) + reach)
            saved[f.id] = rides - min(way, 2 * battle.movement_points(f.id))
            if saved[f.id] <= RIDE_MARGIN_IN:
                continue
            gx, gy = self.paths.goal(battle, f, enemies)
            ahead = math.degrees(math.atan2(gy - f.y, gx - f.x)) % 360.0
            # square to it, so that the footprints touch: the side nearest where it goes
            # first, the carrier facing as near that way as a quarter turn allows
            facing = min(
                ((f.facing_deg + 90.0 * k) % 360.0 for k in range(4)),
                key=lambda h: abs((h - ahead + 180.0) % 360.0 - 180.0),
            )
            spots = []
            for spot in range(4):
                lead, end, _ = battle.contact_approach(f.id, spot)
                spots.append((math.dist(end, (gx, gy)), lead, end))
            for _, lead, end in sorted(spots):
                far = math.dist((c.x, c.y), lead) > 0.25
                path = ((c.x, c.y), lead, end) if far else ((c.x, c.y), end)
                moves.append((path, end, facing))
                whom[len(moves) - 1] = f.id
        if not moves:
            return None
        found = self.paths.exactly_to(battle, c, moves, set())
        best: Option | None = None
        for end, path, facing, walk in found:
            f_id = next(whom[k] for k, m in enumerate(moves) if m[0] == path)
            pose = StandPose(c.id, c.side, end[0], end[1], facing)
            if not base_contact(pose, battle.stand(f_id).pose()):
                continue
            goal = self.paths.goal(battle, c, enemies)
            score = self.positions.score_positions(battle, c, [pose], enemies, goal)[0]
            score += FETCH_WORTH * saved[f_id] * stand_value(battle.stand(f_id))
            threat = battle.threat_preview(c.id, path, facing)
            score -= (threat.get("odds") or {}).get("p_eliminated", 0.0) * stand_value(c)
            score -= self._marker_harm(battle, c, walk, facing)
            if best is None or score > best.score:
                best = Option(f"{c.id} fetches {f_id}", score, Move(c.side, c.id, path, facing))
        return best

    def _marker_harm(self, battle, s, points, facing: float) -> float:
        """What the impact markers a walk through ``points`` would drive ``s`` into are
        expected to do to it (stands), by the engine's odds (``Battle.impact_entry_odds``)."""
        if not battle.state.impacts:
            return 0.0
        odds = battle.impact_entry_odds(s.id, points, facing)
        return harm(odds, stand_value(s)) if odds["markers"] else 0.0

    def overrun(self, battle, s) -> Option | None:
        """The best overrun open to vehicle ``s`` of the moving group: a straight drive
        through an enemy stand in reach and out the other side, scored by the engine's odds
        (``Battle.overrun_odds``, ``threat_preview``); None when none is worth it."""
        if s.unit.movement_class == "F" or not s.on_table or s.moved:
            return None
        reach = battle.movement_points(s.id)
        best: Option | None = None
        for e in self.situation.enemies(battle, s.side):
            d = math.hypot(e.x - s.x, e.y - s.y)
            if d < 0.5 or d + OVERRUN_BEYOND_IN > reach:
                continue
            odds = battle.overrun_odds(s.id, e.id)  # cheap: asked first
            od, om = odds["on_defender"], odds["on_mover"]
            gain = odds["p_defender_fails"] * (od["E"] + 0.45 * od["D"]) * stand_value(e)
            loss = odds["p_mover_fails"] * (om["E"] + 0.45 * om["D"]) * stand_value(s)
            if gain - loss <= OVERRUN_AT or (best is not None and gain - loss <= best.score):
                continue
            ux, uy = (e.x - s.x) / d, (e.y - s.y) / d
            end = (s.x + ux * (d + OVERRUN_BEYOND_IN), s.y + uy * (d + OVERRUN_BEYOND_IN))
            path = ((s.x, s.y), end)
            if battle.path_problem(s.id, path) is not None:
                continue
            walk = battle.preview_move(s.id, path)
            if walk.stopped_by is not None or e.id not in battle.overruns_on(s.id, path):
                continue  # it would not get through
            heading = math.degrees(math.atan2(uy, ux)) % 360
            threat = battle.threat_preview(s.id, path, heading)
            loss += (threat.get("odds") or {}).get("p_eliminated", 0.0) * stand_value(s)
            loss += self._marker_harm(battle, s, walk.points, heading)
            score = gain - loss
            if score > OVERRUN_AT and (best is None or score > best.score):
                best = Option(f"overrun {e.id}", score, Move(s.side, s.id, path, heading))
        return best

    def assault_move(self, battle, s) -> Option | None:
        """The best move of foot stand ``s`` into base contact with an enemy stand to
        close-assault it once its group's moves are over: to each of the four places touching
        the enemy (behind, beside, in front), scored by the engine's odds
        (``Battle.assault_preview``, ``threat_preview``); None when none is worth it."""
        if not s.personnel or not s.on_table or s.moved:
            return None
        reach = battle.movement_points(s.id)
        best: Option | None = None
        for e in self.situation.enemies(battle, s.side):
            if math.hypot(e.x - s.x, e.y - s.y) > reach + 1.5:
                continue
            for spot in range(4):
                near, (x, y), facing = battle.contact_approach(e.id, spot)
                odds = battle.assault_preview(s.id, x, y, facing, e.id)
                if odds is None:
                    continue
                gain = odds["p_eliminate"] * stand_value(e) - odds["p_lose"] * stand_value(s)
                if gain <= ASSAULT_MOVE_AT or (best is not None and gain <= best.score):
                    continue
                # the last leg straight in along the enemy's side, so it arrives touching
                far = math.dist((s.x, s.y), (x, y)) > math.dist(near, (x, y)) + 1e-6
                path = ((s.x, s.y), near, (x, y)) if far else ((s.x, s.y), (x, y))
                if battle.path_problem(s.id, path) is not None:
                    continue
                walk = battle.preview_move(s.id, path)
                if walk.stopped_by is not None or math.dist(walk.points[-1], (x, y)) > 0.01:
                    continue
                if not battle.room_at(x, y, facing, ignore=s.id):
                    continue
                threat = battle.threat_preview(s.id, path, facing)
                risk = (threat.get("odds") or {}).get("p_eliminated", 0.0) * stand_value(s)
                risk += self._marker_harm(battle, s, walk.points, facing)
                if gain - risk > ASSAULT_MOVE_AT and (best is None or gain - risk > best.score):
                    best = Option(
                        f"close in on {e.id} to assault it",
                        gain - risk,
                        Move(s.side, s.id, path, facing),
                    )
        return best

    def close_assaults(self, battle, side) -> list[Option]:
        """Each close assault open, scored by the engine's odds: the chance of eliminating
        the defender (worth its value) less the chance of losing an assaulter to its answer;
        ending them scores 0."""
        options = [Option("no close assault", 0.0, EndCloseAssaults(side))]
        for a in battle.legal_actions():
            if not isinstance(a, CloseAssault):
                continue
            odds = battle.close_assault_odds(a.defender)
            gain = odds["assault"]["p_eliminated"]
            loss = max((r["p_eliminated"] for r in odds["replies"].values()), default=0.0)
            score = gain - loss - ASSAULT_AT
            options.append(Option(f"close-assault {a.defender}", score, a))
        return options

    def assault_replies(self, battle, side) -> list[Option]:
        """A close-assaulted stand strikes back at the assaulter it is likeliest to
        eliminate."""
        options = []
        for a in battle.legal_actions():
            odds = battle.reply_odds(a.target)
            score = odds["E"] + 0.45 * odds["D"] + 0.15 * odds["S"]
            options.append(Option(f"strike back at {a.target}", score, a))
        return options
