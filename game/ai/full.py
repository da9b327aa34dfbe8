"""The scripted AI's choices of the full games (ruleset ``modern-full``): when its carriers
set their infantry down, which close assaults it makes, and which assaulter a close-assaulted
stand of its own strikes back at. Every number it weighs comes from the engine
(``Battle.close_assault_odds``, ``legal_actions``); the AI computes no rule itself."""

from __future__ import annotations

import math

from game import CloseAssault, EndCloseAssaults, Move, Unload
from game.ai.values import Option, stand_value

UNLOAD_NEAR_IN = 12.0
"""A carrier sets its riders down once an enemy stand is this close (inches) after its move,
or before its move when one is within :data:`UNLOAD_BEFORE_IN`: infantry fight on foot, and a
carrier hit with troops aboard may lose them."""
UNLOAD_BEFORE_IN = 8.0
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
OVERRUN_BEYOND_IN = 1.5
"""How far past the defender's centre an overrun's straight path ends (inches): clear of it,
so the stand need not be walked back."""


class FullGameChooser:
    """Mixin of :class:`game.ai.scripted.ScriptedAI` for the full games' decisions."""

    def _nearest_enemy_in(self, battle, x: float, y: float, side: str) -> float:
        enemies = [s for s in battle.state.stands.values() if s.active and s.side != side]
        return min((math.hypot(e.x - x, e.y - y) for e in enemies), default=math.inf)

    def _unload(self, battle, side) -> list[Option]:
        """Set a rider down when its carrier is near the enemy: the spot farthest from the
        nearest enemy stand (behind the carrier, as a rule). Empty when none should."""
        best: Option | None = None
        for a in battle.legal_actions():
            if not isinstance(a, Unload):
                continue
            c = battle.stand(a.carrier)
            near = UNLOAD_NEAR_IN if c.moved else UNLOAD_BEFORE_IN
            if self._nearest_enemy_in(battle, c.x, c.y, side) > near:
                continue
            x, y = battle.contact_spot(a.carrier, a.spot)
            score = 0.5 + 0.01 * min(self._nearest_enemy_in(battle, x, y, side), 50.0)
            if best is None or score > best.score:
                best = Option(f"set {a.stand} down beside {a.carrier}", score, a)
        return [best] if best is not None else []

    def _overrun(self, battle, s) -> Option | None:
        """The best overrun open to vehicle ``s`` of the moving group: a straight drive
        through an enemy stand in reach and out the other side, scored by the engine's odds
        (``Battle.overrun_odds``, ``threat_preview``); None when none is worth it."""
        if s.unit.movement_class == "F" or not s.on_table or s.moved:
            return None
        reach = battle.movement_points(s.id)
        best: Option | None = None
        for e in self._enemies(battle, s.side):
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
            score = gain - loss
            if score > OVERRUN_AT and (best is None or score > best.score):
                best = Option(f"overrun {e.id}", score, Move(s.side, s.id, path, heading))
        return best

    def _assault_move(self, battle, s) -> Option | None:
        """The best move of foot stand ``s`` into base contact with an enemy stand to
        close-assault it once its group's moves are over: to each of the four places touching
        the enemy (behind, beside, in front), scored by the engine's odds
        (``Battle.assault_preview``, ``threat_preview``); None when none is worth it."""
        if not s.personnel or not s.on_table or s.moved:
            return None
        reach = battle.movement_points(s.id)
        best: Option | None = None
        for e in self._enemies(battle, s.side):
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
                if gain - risk > ASSAULT_MOVE_AT and (best is None or gain - risk > best.score):
                    best = Option(
                        f"close in on {e.id} to assault it",
                        gain - risk,
                        Move(s.side, s.id, path, facing),
                    )
        return best

    def _close_assault(self, battle, side) -> list[Option]:
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

    def _assault_reply(self, battle, side) -> list[Option]:
        """A close-assaulted stand strikes back at the assaulter it is likeliest to
        eliminate."""
        options = []
        for a in battle.legal_actions():
            odds = battle.reply_odds(a.target)
            score = odds["E"] + 0.45 * odds["D"] + 0.15 * odds["S"]
            options.append(Option(f"strike back at {a.target}", score, a))
        return options
