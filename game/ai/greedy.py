"""An independent one-ply greedy player: a yardstick for the scripted AI.

It is written from the engine's public queries only (``game``'s names and the battle's
queries: ``fire_options``, ``fire_setup``, the CRT odds ``combat.attack_odds``,
``preview_moves``, ``threat_preview``, ``opportunity_setups``, ``mission_outcomes``,
``strike_outcomes``, ``close_assault_odds``, ``reply_odds``, ``overrun_odds``) and shares
nothing with ``game.ai``'s choosers or values, so that beating it says something about the AI.

Every decision looks one ply ahead and takes the best by a simple measure, in "stands" (an
enemy stand eliminated is 1, a D 0.45, an S 0.15):

- fire (fire phases, opportunity and covering fire): the attack with the best exact expected
  damage, attackers added to it while each adds enough; no attack below a small threshold;
- movement: for each stand a dozen straight moves (six directions at full and half allowance,
  towards the nearest enemy) and points inside nearby cover, each end point scored by the best
  shot it gives next turn less the fire it draws there and the opportunity fire on the way;
- fire support: HE where the expected damage to the enemy, less twice ours, is greatest; an
  air strike likewise; direct artillery at its best attack;
- posture (WWII): a stand with a shot stays to fire, one without moves;
- full games: riders set down near the enemy, close assaults when the odds favour them, the
  reply at the assaulter likeliest to fall, overruns only when the odds favour them.

Deterministic for a seed (its own ``random.Random``; the battle's dice are never touched).
``hulldown simulate --players greedy,veteran`` and ``tools/ai/ai_gauntlet.py`` play it as
"greedy": ``GreedyPlayer(seed).choose(battle)``, the interface of ``game.ai``'s RandomPlayer and
ScriptedAI.
"""

from __future__ import annotations

import math
import random

import game
from game import (
    ArtilleryFire,
    AssaultReply,
    ChooseFirst,
    CloseAssault,
    CoveringFire,
    DeclareGroup,
    EndCloseAssaults,
    EndCoveringFire,
    EndMoves,
    Fire,
    LetPass,
    Move,
    MoveAttempt,
    OpportunityFire,
    Pass,
    PlotAirStrike,
    PlotMission,
    StandPose,
    Unload,
    heading_deg,
    sight_info,
)

FIRE_AT = 0.04
"""Least expected damage (stands) for a fire-phase attack to be made."""
OPPORTUNITY_AT = 0.10
"""Least expected damage (stands) for opportunity or covering fire."""
ADD_AT = 0.05
"""Least extra expected damage one more attacker must add to an attack to join it."""
EXPOSURE = 0.6
"""Weight of the fire an end point draws (the enemy's combined chance of damaging it)."""
MOVE_MARGIN = 0.03
"""How much better (stands) a move must score than staying to be made."""
CLOSE_RATE = 0.01
"""What each inch nearer the nearest enemy is worth (stands) to a stand that has no shot."""
SUPPORT_AT = 0.10
"""Least net expected damage (stands) of an artillery mission or an air strike."""
OWN_WEIGHT = 2.0
"""How much more our own stands' expected losses to our own fire support weigh."""
UNLOAD_NEAR_IN = 12.0
"""Riders are set down once an enemy stand is this close (inches) to their carrier."""
PASS_KINDS = ("pass", "let_pass", "end_covering_fire", "end_moves", "end_close_assaults")
"""Pass-like actions, in the order a decision with nothing better takes them."""
RESULT_WORTH = {"E": 1.0, "D": 0.45, "S": 0.15, "none": 0.0}
"""What each result does to a stand, in stands."""


def marker_worth(S: bool, D: bool) -> float:
    """What a stand's markers have already cost it, in stands (S 0.15, D 0.45)."""
    return 0.15 * S + 0.45 * D


def odds_gain(final: dict, S: bool, D: bool) -> float:
    """Expected damage (stands) of an attack from the engine's ``final`` odds (chances of
    "unchanged", "S", "D", "SD", "eliminated") on a target with markers ``S`` and ``D``."""
    before = marker_worth(S, D)
    after = (
        final["unchanged"] * before
        + final["S"] * marker_worth(True, D)
        + final["D"] * marker_worth(S, True)
        + final["SD"] * marker_worth(True, True)
        + final["eliminated"] * 1.0
    )
    return after - before


def support_worth(battle, side: str, odds: dict) -> float:
    """Net expected damage (stands) of a mission or a strike from its odds over every place it
    may land (``mission_outcomes`` / ``strike_outcomes``): the enemy's losses less
    :data:`OWN_WEIGHT` times ours."""
    total = 0.0
    for sid, dist in odds["stands"].items():
        v = sum(p * RESULT_WORTH.get(r, 0.0) for r, p in dist.items())
        total += -OWN_WEIGHT * v if battle.stand(sid).side == side else v
    return total


class GreedyPlayer:
    """One-ply greedy player for any side of any shipped ruleset; ``choose(battle)`` returns
    one legal action for the side to act (see the module docstring for how it decides)."""

    name = "greedy"

    def __init__(self, seed: int):
        self.rng = random.Random(seed)
        self._odds: dict[tuple, dict] = {}  # attack key -> the engine's final odds
        self._stay: set[tuple] = set()  # (turn, group, stand) better off where it is
        self._settled: set[tuple] = set()  # (turn, side, group) with nothing worth moving
        self._plans: dict[tuple, tuple] = {}  # (stand, table signature) -> (gain, Move)

    # ------------------------------------------------------------------ the decision

    def choose(self, battle) -> game.Action:
        """One legal action for the side to act. Raises ValueError when the battle is over
        (there is no legal action)."""
        decision = battle.decision()
        legal = list(decision.options)
        if not legal:
            raise ValueError("no legal action: the battle is over")
        side = decision.side
        chooser = {
            "choose_first": self._choose_first,
            "fire": self._fire,
            "opportunity_fire": self._opportunity,
            "covering_fire": self._covering,
            "posture": self._posture,
            "move_attempt": self._attempt,
            "plot_move": self._move,
            "close_assault": self._close_assault,
            "assault_reply": self._assault_reply,
            "artillery": self._artillery,
            "plot": self._plot,
        }.get(decision.kind)
        action = chooser(battle, side, legal) if chooser is not None else None
        return action if action is not None else self._pass_like(legal)

    def _pass_like(self, legal: list) -> game.Action:
        """The first pass-like action listed, else the first legal action."""
        for kind in PASS_KINDS:
            for a in legal:
                if a.kind == kind:
                    return a
        return legal[0]

    def _choose_first(self, battle, side, legal):
        """Fire first (fewer enemy guns answer), move second (the enemy shows his hand)."""
        first = side if battle.phase.kind == "fire" else battle.other(side)
        return ChooseFirst(side, first)

    # ------------------------------------------------------------------ shots

    def _final(self, battle, setups: list, S: bool, D: bool) -> dict:
        """The engine's exact final odds of an attack, kept per what they depend on."""
        key = (S, D) + tuple(
            (fs.cohesion_total_mod, fs.level, fs.differential, fs.combat_total_mod, fs.dash_s)
            for fs in setups
        )
        got = self._odds.get(key)
        if got is None:
            if len(self._odds) > 50_000:
                self._odds.clear()
            got = self._odds[key] = game.combat.attack_odds(battle.crt, setups, S, D)["final"]
        return got

    def attack_gain(self, battle, setups: list, target) -> float:
        """Expected damage (stands) of the attack ``setups`` (legal FireSetups) on the stand
        ``target``, by the engine's exact odds."""
        legal = [fs for fs in setups if fs.legal]
        if not legal:
            return 0.0
        return odds_gain(self._final(battle, legal, target.S, target.D), target.S, target.D)

    def best_attack(self, battle, setups: list, target) -> tuple[list, float]:
        """The attack on one target: the best single shot, then each further attacker (its
        best weapon) while it adds at least :data:`ADD_AT`. Returns (setups, expected damage)."""
        best: dict[str, tuple[float, object]] = {}
        for fs in setups:
            if not fs.legal:
                continue
            v = self.attack_gain(battle, [fs], target)
            if fs.attacker not in best or v > best[fs.attacker][0]:
                best[fs.attacker] = (v, fs)
        order = sorted(best, key=lambda a: (-best[a][0], a))
        chosen, value = [], 0.0
        for a in order:
            trial = chosen + [best[a][1]]
            v = self.attack_gain(battle, trial, target)
            if not chosen or v - value >= ADD_AT:
                chosen, value = trial, v
        return chosen, value

    def _fire(self, battle, side, legal):
        """A fire phase: the attack with the best expected damage, or pass."""
        best, best_v = None, FIRE_AT
        for target, setups in sorted(battle.fire_options().items()):
            chosen, v = self.best_attack(battle, setups, battle.stand(target))
            if chosen and v > best_v:
                best_v = v
                best = Fire(
                    side,
                    target,
                    tuple(fs.attacker for fs in chosen),
                    tuple(fs.weapon for fs in chosen),
                )
        return best

    def _opportunity(self, battle, side, legal):
        """Opportunity fire at the step of the enemy's move where the attack is best, or let
        it pass."""
        target = battle.stand(battle.state.pending.stand)
        best, best_v = None, OPPORTUNITY_AT
        for step, setups in sorted(battle.opportunity_setups().items()):
            chosen, v = self.best_attack(battle, setups, target)
            if chosen and v > best_v + 1e-9:
                best_v = v
                best = OpportunityFire(
                    side,
                    step,
                    tuple(fs.attacker for fs in chosen),
                    tuple(fs.weapon for fs in chosen),
                )
        return best or LetPass(side)

    def _covering(self, battle, side, legal):
        """Covering fire (WWII) at the enemy stand whose attack is best, or none."""
        best, best_v = None, OPPORTUNITY_AT
        for a in legal:
            if not isinstance(a, CoveringFire):
                continue
            setups = [
                battle.fire_setup(f, a.target, w, "covering")
                for f, w in zip(a.attackers, a.weapons, strict=True)
            ]
            chosen, v = self.best_attack(battle, setups, battle.stand(a.target))
            if chosen and v > best_v:
                best_v = v
                best = CoveringFire(
                    side,
                    a.target,
                    tuple(fs.attacker for fs in chosen),
                    tuple(fs.weapon for fs in chosen),
                )
        return best or EndCoveringFire(side)

    # ------------------------------------------------------------------ positions

    def _enemies(self, battle, side) -> list:
        return [s for s in battle.state.stands.values() if s.active and s.side != side]

    def _weapons(self, s) -> tuple[str, ...]:
        return ("cannon", "atgm") if s.unit.atgm is not None and not s.depleted else ("cannon",)

    def score_poses(self, battle, s, poses: list) -> list[float]:
        """Each pose's worth (stands) to stand ``s`` next turn: its best shot from there,
        less :data:`EXPOSURE` times the chance the enemy stands that see it there damage it,
        plus (when no pose gives a shot) :data:`CLOSE_RATE` per inch nearer the nearest enemy
        (on the table, or waiting to enter)."""
        enemies = self._enemies(battle, s.side)
        if not enemies:
            return [0.0] * len(poses)
        m_ab, m_ba = battle.table.sight_matrices(
            poses,
            [e.pose() for e in enemies],
            battle.poses(exclude=s.id),
            battle.sighting_in,
            battle.ruleset_data,
        )
        shots, exposure = [], []
        for i, pose in enumerate(poses):
            best = 0.0
            safe = 1.0
            for j, e in enumerate(enemies):
                if m_ab.clear[i, j]:
                    info = sight_info(m_ab, i, j)
                    for w in self._weapons(s):
                        fs = battle.fire_setup(
                            s.id,
                            e.id,
                            w,
                            "planning",
                            attacker_pose=pose,
                            sight=info,
                            next_turn=True,
                        )
                        if fs.legal:
                            best = max(best, self.attack_gain(battle, [fs], e))
                if m_ba.clear[j, i]:
                    info = sight_info(m_ba, j, i)
                    hit = 0.0
                    for w in self._weapons(e):
                        fs = battle.fire_setup(
                            e.id, s.id, w, "planning", target_pose=pose, sight=info, next_turn=True
                        )
                        if fs.legal:
                            hit = max(hit, self.attack_gain(battle, [fs], s))
                    safe *= 1.0 - min(1.0, hit)
            shots.append(best)
            exposure.append(1.0 - safe)
        scores = [shot - EXPOSURE * x for shot, x in zip(shots, exposure, strict=True)]
        if max(shots) <= 0.0:
            for i, pose in enumerate(poses):
                near = min(math.hypot(e.x - pose.x, e.y - pose.y) for e in enemies)
                scores[i] -= CLOSE_RATE * near
        return scores

    def _facing(self, battle, s, x: float, y: float) -> float:
        """The heading (degrees) from (x, y) to the nearest enemy stand, else as it faces."""
        enemies = self._enemies(battle, s.side) or [
            e for e in battle.state.stands.values() if e.side != s.side and not e.eliminated
        ]
        if not enemies:
            return s.facing_deg
        e = min(enemies, key=lambda e: (math.hypot(e.x - x, e.y - y), e.id))
        if math.hypot(e.x - x, e.y - y) < 1e-6:
            return s.facing_deg
        return heading_deg(x, y, e.x, e.y) % 360.0

    def _targets(self, battle, s, mp: float) -> list[tuple[float, float]]:
        """Where stand ``s`` on the table might go: six directions at full and half
        allowance, towards the nearest enemy, and points inside nearby cover."""
        pts = []
        turn0 = self.rng.random() * 60.0
        for k in range(6):
            a = math.radians(turn0 + 60.0 * k)
            for r in (mp, mp / 2):
                pts.append((s.x + r * math.cos(a), s.y + r * math.sin(a)))
        enemies = self._enemies(battle, s.side)
        if enemies:
            e = min(enemies, key=lambda e: (math.hypot(e.x - s.x, e.y - s.y), e.id))
            d = math.hypot(e.x - s.x, e.y - s.y)
            if d > 3.0:
                for r in (mp, mp / 2):
                    k = min(r, d - 2.5) / d
                    pts.append((s.x + k * (e.x - s.x), s.y + k * (e.y - s.y)))
        for f in battle.table.areas:
            tt = battle.data.terrain.get(f.kind)
            if tt is None or tt.combat_vehicle <= 0:
                continue
            c = f.geometry.representative_point()
            if math.hypot(c.x - s.x, c.y - s.y) <= mp:
                pts.append((c.x, c.y))
        t = battle.table
        return [(min(max(x, 0.6), t.width - 0.6), min(max(y, 0.6), t.depth - 0.6)) for x, y in pts]

    def _signature(self, battle) -> tuple:
        return tuple(
            (st.id, round(st.x, 3), round(st.y, 3), st.S, st.D)
            for st in battle.state.stands.values()
            if st.active
        )

    def plan(self, battle, s, careful: bool = True) -> tuple[float, Move | None]:
        """Stand ``s``'s best move this movement action and how much it beats staying
        (stands): (gain, Move), or (0, None) when staying is as good. A stand waiting to
        enter chooses among the engine's sampled entries and half of each (gain then only
        orders them). ``careful``: the two best end points are weighed with the opportunity
        fire on the way (``threat_preview``, ~10 ms each); otherwise the best end point alone,
        without it (a quick estimate, for choosing which group to move)."""
        key = (s.id, careful, battle.state.turn, self._signature(battle))
        if key in self._plans:
            return self._plans[key]
        side = s.side
        mp = battle.movement_points(s.id)
        paths = []
        if not s.on_table:
            for a in battle.decision().options if battle.state.moving else ():
                if isinstance(a, Move) and a.stand == s.id:
                    (x0, y0), (x1, y1) = a.path[0], a.path[-1]
                    paths.append(a.path)
                    paths.append(((x0, y0), ((x0 + x1) / 2, (y0 + y1) / 2)))
        elif mp > 0.5:
            paths = [((s.x, s.y), p) for p in self._targets(battle, s, mp)]
            paths = [p for p in paths if battle.path_problem(s.id, p) is None]
        out: tuple[float, Move | None] = (0.0, None)
        if paths:
            walks = battle.preview_moves(s.id, paths)
            moves = []
            for path, walk in zip(paths, walks, strict=True):
                end = walk.points[-1]
                if s.on_table and math.hypot(end[0] - s.x, end[1] - s.y) < 0.5:
                    continue
                if not s.on_table and len(walk.points) < 2:
                    continue
                facing = self._facing(battle, s, *end)
                moves.append(
                    (tuple(path[:-1]) + (tuple(end),) if walk.stopped_by else path, end, facing)
                )
            poses = [StandPose(s.id, side, x, y, f) for _, (x, y), f in moves]
            stay = s.pose() if s.on_table else None
            scores = self.score_poses(battle, s, poses + ([stay] if stay else []))
            stay_v = scores.pop() if stay else -math.inf
            ranked = sorted(range(len(moves)), key=lambda i: (-scores[i], i))
            for i in ranked[: 2 if careful else 1]:
                path, end, facing = moves[i]
                v = scores[i] - (self._path_risk(battle, s, path, facing) if careful else 0.0)
                if v - stay_v > out[0] + MOVE_MARGIN or (out[1] is None and not s.on_table):
                    out = (v - stay_v, Move(side, s.id, tuple(path), facing))
        self._plans[key] = out
        return out

    def _path_risk(self, battle, s, path, facing: float) -> float:
        """The opportunity fire a move invites (the engine's ``threat_preview``: all firers at
        the step most of them see), the impact markers it drives into, and an overrun the
        odds do not favour, in stands."""
        risk = 0.0
        odds = battle.threat_preview(s.id, path, facing).get("odds")
        if odds:
            f = odds["final"]
            risk += f["eliminated"] + 0.45 * (f["D"] + f["SD"]) + 0.15 * f["S"]
        if battle.rules.has("support_fire") and s.on_table:
            if battle.state.impacts:
                walk = battle.preview_move(s.id, path)
                hit = battle.impact_entry_odds(s.id, walk.points, facing)
                if hit["markers"]:
                    risk += hit["E"] + 0.45 * hit["D"] + 0.15 * hit["S"]
            for e in battle.overruns_on(s.id, path, facing):
                o = battle.overrun_odds(s.id, e)
                od, om = o["on_defender"], o["on_mover"]
                risk -= o["p_defender_fails"] * (od["E"] + 0.45 * od["D"])
                risk += o["p_mover_fails"] * (om["E"] + 0.45 * om["D"])
        return risk

    # ------------------------------------------------------------------ movement

    def _attempt(self, battle, side, legal):
        """Try to move the group whose stands gain most by moving (stands waiting to enter
        first); an order when one is left, else independently. Pass when none gains."""
        attempts = [a for a in legal if isinstance(a, MoveAttempt)]
        best, best_v = None, MOVE_MARGIN
        turn = battle.state.turn
        for a in attempts:
            if (turn, side, a.group) in self._settled:
                continue
            members = [
                s
                for s in battle.state.stands.values()
                if s.side == side and s.group == a.group and not s.moved and not s.eliminated
            ]
            v = 0.0
            for s in members:
                if not s.on_table and s.carried_by is None:
                    v += 10.0
                elif s.active and s.carried_by is None and battle.indirect_reach(s.id) is None:
                    v += self.plan(battle, s, careful=False)[0]
            v += 0.001 * a.ordered
            if v > best_v:
                best, best_v = a, v
        if best is None and Pass(side) not in legal and attempts:
            best = attempts[0]  # stands must enter: the engine allows nothing else
        return best

    def _move(self, battle, side, legal):
        """The moving group's stands one by one: riders set down near the enemy, each stand
        to its best move when it beats staying; then end the action."""
        mg = battle.state.moving
        unload = self._unload(battle, side, legal)
        if unload is not None:
            return unload
        key = (battle.state.turn, mg.group)
        for sid in mg.stands:
            s = battle.stand(sid)
            if s.moved or s.eliminated or s.carried_by is not None or (key, sid) in self._stay:
                continue
            if s.on_table and battle.indirect_reach(sid) is not None:
                self._stay.add((key, sid))  # guns fire from where they stand
                continue
            gain, move = self.plan(battle, s)
            if move is not None and (gain > MOVE_MARGIN or not s.on_table):
                return move
            self._stay.add((key, sid))
        if EndMoves(side) in legal:
            self._settled.add((battle.state.turn, side, mg.group))
            return EndMoves(side)
        return next((a for a in legal if isinstance(a, Move)), None)

    def _unload(self, battle, side, legal):
        """Set a rider down when an enemy stand is within :data:`UNLOAD_NEAR_IN` of its
        carrier, at the free spot farthest from the nearest enemy."""
        best, best_d = None, -1.0
        for a in legal:
            if not isinstance(a, Unload):
                continue
            c = battle.stand(a.carrier)
            enemies = self._enemies(battle, side)
            if not enemies:
                continue
            if min(math.hypot(e.x - c.x, e.y - c.y) for e in enemies) > UNLOAD_NEAR_IN:
                continue
            x, y = battle.contact_spot(a.carrier, a.spot)
            d = min(math.hypot(e.x - x, e.y - y) for e in enemies)
            if d > best_d:
                best, best_d = a, d
        return best

    def _posture(self, battle, side, legal):
        """WWII posture: the largest movement group of stands that have no shot where they
        stand (guns never), or pass."""
        enemies = self._enemies(battle, side)
        movers = set()
        for s in battle.undeclared(side):
            if battle.indirect_reach(s.id) is not None or not enemies:
                continue
            if self.score_poses(battle, s, [s.pose()])[0] <= -CLOSE_RATE * 0.5 or not any(
                battle.fire_setup(s.id, e.id, w, "planning").legal
                for e in enemies
                for w in self._weapons(s)
            ):
                movers.add(s.id)
        best, best_v = None, 0
        for a in legal:
            if isinstance(a, DeclareGroup):
                v = sum(1 if i in movers else -2 for i in a.stands)
                if v > best_v:
                    best, best_v = a, v
        return best

    # ------------------------------------------------------------------ full games

    def _close_assault(self, battle, side, legal):
        """Close-assault when the chance of eliminating the defender beats the chance of
        losing an assaulter to its answer by 0.1; else make no more."""
        best, best_v = None, 0.1
        for a in legal:
            if isinstance(a, CloseAssault):
                o = battle.close_assault_odds(a.defender)
                lose = max((r["p_eliminated"] for r in o["replies"].values()), default=0.0)
                v = o["assault"]["p_eliminated"] - lose
                if v > best_v:
                    best, best_v = a, v
        return best or EndCloseAssaults(side)

    def _assault_reply(self, battle, side, legal):
        """Strike back at the assaulter likeliest to be eliminated or disorganized."""
        best, best_v = None, -1.0
        for a in legal:
            if isinstance(a, AssaultReply):
                o = battle.reply_odds(a.target)
                v = o.get("E", 0.0) + 0.45 * o.get("D", 0.0) + 0.15 * o.get("S", 0.0)
                if v > best_v:
                    best, best_v = a, v
        return best

    def _artillery(self, battle, side, legal):
        """Direct artillery: the HE attack listed with the best net expected damage."""
        best, best_v = None, SUPPORT_AT
        for a in legal:
            if isinstance(a, ArtilleryFire) and a.ammo == "he":
                odds = battle.mission_outcomes(side, a.firers, a.sheaf, a.ammo, "direct")
                v = support_worth(battle, side, odds)
                if v > best_v:
                    best, best_v = a, v
        return best

    def _plot(self, battle, side, legal):
        """The plot phase: HE from the free guns in range at the enemy stand where the
        mission's net expected damage is greatest, or an air strike there; else pass."""
        lands = battle.state.turn + 1
        options = [a for a in legal if isinstance(a, PlotAirStrike | PlotMission)]
        options = [a for a in options if not (isinstance(a, PlotMission) and a.ammo != "he")]
        free = battle.free_artillery(side, lands)
        for e in self._enemies(battle, side)[:12]:
            guns = tuple(g for g in free if battle.indirect_problem(g, e.x, e.y) is None)
            if not guns:
                continue
            sheaf = battle.line_sheaf((e.x, e.y), len(guns), self.rng.random() * 180.0)
            a = PlotMission(side, guns, sheaf, "he", lands)
            if battle.fire_support_problem(a) is not None:
                a = PlotMission(side, guns[:1], ((e.x, e.y),), "he", lands)
            if battle.fire_support_problem(a) is None and a not in options:
                options.append(a)
        best, best_v = None, SUPPORT_AT
        for a in options:
            if isinstance(a, PlotMission):
                odds = battle.mission_outcomes(side, a.firers, a.sheaf, "he", "indirect")
            else:
                odds = battle.strike_outcomes(side, a.aircraft, a.path)
            v = support_worth(battle, side, odds)
            if isinstance(a, PlotAirStrike):
                v -= 0.3 * len(battle.strike_aa(side, a.path))
            if v > best_v:
                best, best_v = a, v
        return best
