"""A stand's best move for the scripted AI (``MovePlanner.plan``): its candidate paths
(:mod:`game.ai.paths`) scored as positions (:mod:`game.ai.positions`), each weighed by the
chance of getting there alive and the opportunity fire its way invites (000 07.06.05), and
the look-ahead's other best moves beside it."""

from __future__ import annotations

import math

from game import Move, StandPose, heading_deg
from game.ai.positions import finish
from game.ai.values import Option


def _best_hidden(s, cands, scores: dict, hidden: list[int]) -> Option:
    """The best scoring (stands; the first of equals) of the ``hidden`` candidates, the
    moves of stand ``s`` that end out of every enemy's sight, as an option: the move to its
    end point (inches) facing as planned."""
    h = max(hidden, key=lambda i: (scores[i], -i))
    (hx, hy), hpath, hfacing, _ = cands[h]
    return Option(
        f"move {s.id} to ({hx:.1f}, {hy:.1f}), out of sight",
        scores[h],
        Move(s.side, s.id, hpath, hfacing),
    )


class MovePlanner:
    """A part of :class:`game.ai.scripted.ScriptedAI`: the best move of one stand and the
    score of staying put (``plan``, ``plan_in_action``). Built with the AI's ``level``, its
    ``rng`` (a recruit forgets to turn: one draw per plan), its ``memory``
    (:class:`game.ai.memory.Memory`: ``plans``, ``exposed``, ``plan_exposed``,
    ``stay_exposed``, ``plan_hidden``, ``alternatives``) and the parts it asks:
    ``situation`` (:class:`game.ai.situation.Situation`), ``paths``
    (:class:`game.ai.paths.Paths`) and ``positions``
    (:class:`game.ai.positions.Positions`)."""

    def __init__(self, level, rng, memory, situation, paths, positions) -> None:
        self.level = level
        self.rng = rng
        self.memory = memory
        self.situation = situation
        self.paths = paths
        self.positions = positions

    def plan_in_action(self, battle, s, key) -> tuple[Option | None, float]:
        """``plan`` for a stand of the moving group, remembered for the movement action
        ``key`` while no stand has moved, fired or taken a marker since (asking whether the
        others would go too plans them ahead of their turn). A level that never waits for
        company (``crosses_with`` 0) plans afresh every time, as it always did."""
        if not self.level.crosses_with:
            return self.plan(battle, s)
        where = tuple(
            (o.id, o.x, o.y, o.facing_deg, o.eliminated, o.S, o.D, o.fire_attempts)
            for o in battle.state.stands.values()
        )
        m = self.memory
        if m.plans and next(iter(m.plans))[0] != key:
            m.plans.clear()  # only the movement action at hand is worth remembering
        known = m.plans.get((key, s.id))
        if known is None or known[0] != where:
            best, stay = self.plan(battle, s)
            known = (where, best, stay, m.plan_exposed, m.stay_exposed, m.plan_hidden)
            m.plans[(key, s.id)] = known
        _, best, stay, m.plan_exposed, m.stay_exposed, m.plan_hidden = known
        return best, stay

    def _bounded_scores(
        self, parts, exposed, reckon, caution, n, hidden, marks=None
    ) -> dict[int, float]:
        """The scores (stands) of those of the candidate moves ``0..n-1`` that could be the best one
        or, if ``hidden``, the best one out of every enemy's sight (``exposed``, per pose): a move's
        position (``parts``, ``finish``) weighed by the chance of getting there alive, less
        ``caution`` times the opportunity fire its way invites (``reckon``, from
        ``Positions.risk_reckoner``). A way's risks only lower a score, so the moves are weighed
        from the best score free of risk down, and the rest are left unweighed once, even free of
        risk, they score below the best (and the best hidden) weighed so far: the best (and the best
        hidden) are those weighing every way gives, to the last bit and on ties. ``marks``
        (optional, ``Positions.marker_reckoner``): per move, what the impact markers it drives into
        take (stands, and the chance of getting there alive lost to them), which also only lowers a
        score. Returns {index: score} of the moves weighed; never raises."""
        free = [finish(parts[i], 1.0) for i in range(n)]
        order = sorted(range(n), key=lambda i: -free[i])
        scores: dict[int, float] = {}
        best = best_hidden = None
        for i in order:
            wanted = best is None or free[i] >= best
            if hidden and not exposed[i] and (best_hidden is None or free[i] >= best_hidden):
                wanted = True
            if not wanted:
                if not hidden or (best_hidden is not None and free[i] < best_hidden):
                    break  # (the rest score even less free of risk)
                continue  # still looking for the best move out of sight
            risk, kill = reckon(i)
            if marks is None:
                scores[i] = finish(parts[i], 1.0 - kill) - caution * risk
            else:
                loss, lost = marks(i)
                scores[i] = finish(parts[i], (1.0 - kill) * (1.0 - lost)) - caution * risk - loss
            best = scores[i] if best is None else max(best, scores[i])
            if not exposed[i]:
                best_hidden = scores[i] if best_hidden is None else max(best_hidden, scores[i])
        return scores

    def plan(self, battle, s, worth=None) -> tuple[Option | None, float]:
        """The best move for one stand and the score of staying put. Also sets the memory's
        ``plan_exposed`` (the best move ends in an enemy's sight), ``stay_exposed`` (the stand
        is in sight now) and ``plan_hidden`` (its best move ending out of every enemy's sight,
        or None), from the same scores.

        ``worth`` (optional): a function of (the best move's score, staying's score), stands,
        that only grows with the first; when even the best move's score were its way free of
        opportunity fire gives it no more than -1e-9, the way there is not weighed and
        (None, staying's score) is returned: the move would not be worth it anyway (a way's
        risks only lower a score). Only the answer's worth is then known, not the move."""
        m = self.memory
        m.plan_exposed, m.stay_exposed, m.plan_hidden = False, False, None
        side = s.side
        enemies = self.situation.enemies(battle, side)
        mp = battle.movement_points(s.id)
        goal = self.paths.goal(battle, s, enemies)
        cands = self.paths.candidates(battle, s, mp, goal)
        if not cands:
            return None, 0.0
        poses = []
        for end, _path, facing, _ in cands:
            poses.append(StandPose(s.id, side, end[0], end[1], facing))
        stay_pose = s.pose() if s.on_table else None
        if stay_pose is not None:
            poses.append(stay_pose)
        parts = self.positions.position_parts(battle, s, poses, enemies, goal)
        if worth is not None:
            # the scores were the ways free of risk (the risks only lower them)
            free = [finish(part, 1.0) for part in parts]
            stay = free[-1] if stay_pose is not None else -3.0
            if worth(max(free[: len(cands)]), stay) <= -1e-9:
                if self.level.faces_threat < 1.0:
                    self.rng.random()  # as a whole plan draws it: the stream stays the same
                return None, stay
        caution = self.situation.caution(battle, side, self.situation.pressure(battle, side))
        exposed = m.exposed
        n = len(cands)  # the ways are sighted from the best score free of risk down
        order = sorted(range(n), key=lambda i: -finish(parts[i], 1.0))
        reckon = self.positions.risk_reckoner(battle, s, [c[3] for c in cands], enemies, order)
        # the best move out of sight is asked for only where company is waited for (the
        # movement chooser's company check: a level that waits, not where stands take postures)
        want_hidden = bool(self.level.crosses_with) and not battle.rules.postures
        marks = self.positions.marker_reckoner(battle, s, cands)  # impact markers on the way
        scores = self._bounded_scores(parts, exposed, reckon, caution, n, want_hidden, marks)
        stay = finish(parts[-1], 1.0) if stay_pose is not None else -3.0
        best_i = max(scores, key=lambda i: (scores[i], -i))
        if self.level.lookahead and battle.state.moving is not None:
            # the few best moves, for the look-ahead to weigh in this movement action
            m.alternatives[s.id] = (
                stay,
                self._alternative_moves(s, cands, parts, order, scores, reckon, marks, caution),
            )
        m.plan_exposed = exposed[best_i]
        m.stay_exposed = stay_pose is not None and exposed[-1]
        hidden = [i for i in scores if not exposed[i]] if want_hidden else []
        if hidden:  # only a level that waits for company takes it, and it never forgets to turn
            m.plan_hidden = _best_hidden(s, cands, scores, hidden)
        end, path, facing, _ = cands[best_i]
        if self.level.faces_threat < 1.0 and self.rng.random() >= self.level.faces_threat:
            (x0, y0), (x1, y1) = path[-2:]
            facing = heading_deg(x0, y0, x1, y1) % 360  # forgot to turn
        label = f"move {s.id} to ({end[0]:.1f}, {end[1]:.1f})"
        if self.level.open_cost and self.positions.covered(battle, poses[best_i]):
            label += ", into cover" if exposed[best_i] else ", into cover out of sight"
        return Option(label, scores[best_i], Move(side, s.id, path, facing)), stay

    def _alternative_moves(self, s, cands, parts, order, scores, reckon, marks, caution):
        """The look-ahead's candidates for stand ``s`` (``Level.lookahead``): the best moves by
        their score as a position (stands, the way's opportunity fire and impact markers
        weighed as ``_bounded_scores`` weighs them), the end points at least 1" apart, at most
        ``Level.lookahead`` of them, best first. Never raises."""
        full = dict(scores)
        for i in order[: 4 * self.level.lookahead]:
            if i not in full:
                risk, kill = reckon(i)
                loss, lost = marks(i) if marks is not None else (0.0, 0.0)
                full[i] = finish(parts[i], (1.0 - kill) * (1.0 - lost)) - caution * risk - loss
        kept: list[Option] = []
        ends: list[tuple[float, float]] = []
        for i in sorted(full, key=lambda i: (-full[i], i)):
            (x, y), path, facing, _ = cands[i]
            if any(math.hypot(x - ex, y - ey) < 1.0 for ex, ey in ends):
                continue
            ends.append((x, y))
            label = f"move {s.id} to ({x:.1f}, {y:.1f})"
            kept.append(Option(label, full[i], Move(s.side, s.id, path, facing)))
            if len(kept) >= self.level.lookahead:
                break
        return kept
