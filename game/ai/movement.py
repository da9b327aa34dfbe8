"""The scripted AI's movement phase: which group to give an order or let try independently,
which of the moving group's stands to move where, and when to end the movement action; a
stand's best move (``_plan``) from the candidate paths (:mod:`game.ai.paths`) scored as
positions (:mod:`game.ai.positions`)."""

from __future__ import annotations

import math

from game import EndMoves, Move, MoveAttempt, Pass, StandPose, heading_deg
from game.ai.positions import finish
from game.ai.values import Option


class MovementChooser:
    """Mixin of :class:`game.ai.scripted.ScriptedAI`: movement orders and moves, and going
    into the enemy's sight only in company (``Level.crosses_with``)."""

    def _attempt(self, battle, side) -> list[Option]:
        legal = battle.legal_actions()
        if self._holding(battle, side) and Pass(side) in legal:
            return [Option("hold still: the victory is ours if the turn ends now", 1.0, Pass(side))]
        # the engine refuses to stop while a group may still bring waiting stands on
        options = [Option("no more movement", 0.5, Pass(side))] if Pass(side) in legal else []
        attempts = [a for a in legal if isinstance(a, MoveAttempt)]
        spec = battle.scenario.spec
        last_turn = battle.state.turn >= spec.turns
        if not attempts or (spec.victory.type == "destroy_percent" and last_turn):
            # after the last turn's fire phases a move can win nothing and only draws fire
            return options
        urgency = self._urgency(battle, side)
        for a in attempts:
            if (battle.state.turn, side, a.group) in self._settled:
                continue  # it was given the chance and every stand chose to stay
            members = [
                s
                for s in battle.state.stands.values()
                if s.side == side and s.group == a.group and not s.moved and not s.eliminated
            ]
            u = sum(urgency.get(s.id, 0.0) for s in members)
            u += sum(2.0 for s in members if self._gun_exposed(battle, s))
            if battle.rules.postures:
                # a stand in the movement posture may not fire this turn (001 5.0): trying
                # costs nothing, so every group declared to move tries, the most urgent first
                # (it gets an order); each stand still stays if staying is better
                u += 1.0 + sum(self._gain(battle, s.id) for s in members)
            how = "ordered" if a.ordered else "independent"
            options.append(Option(f"{how} move of group {a.group}", u, a))
        return options

    def _move(self, battle, side) -> list[Option]:
        """Move the group's stands one by one, each to its best position, skipping those
        better off where they are; end the action when none is left to move (the engine does
        not let it end while a stand waiting to enter has a way on)."""
        mg = battle.state.moving
        if battle.rules.has("transport"):
            unload = self._unload(battle, side)  # riders off near the enemy
            if unload:
                return unload
        legal = battle.legal_actions()
        if battle.rules.has("transport"):
            mount = self._mount(
                battle, side, legal, (battle.state.turn, mg.group)
            )  # foot stands far from the fight aboard
            if mount:
                return mount
        end = Option("end the movement action", 0.0, EndMoves(side))
        if self._holding(battle, side) and end.action in legal:
            return [end]
        key = (battle.state.turn, mg.group)
        for sid in mg.stands:
            s = battle.stand(sid)
            if s.moved or s.eliminated or (key, sid) in self._stay:
                continue
            if s.on_table and battle.indirect_reach(sid) is not None:
                gun = self._gun_move(battle, s)  # spread out, or away once found
                if gun is not None:
                    return [end, gun] if end.action in legal else [gun]
                self._stay.add((key, sid))  # guns on the table fire from where they are
                continue
            if battle.rules.has("overrun"):  # an overrun, or closing in to assault, when worth it
                special = self._overrun(battle, s) or self._assault_move(battle, s)
                if special is not None:
                    return [end, special] if end.action in legal else [special]
                if self._ride_beside(battle, s) is not None:
                    self._stay.add((key, sid))  # it boards as that carrier's move begins
                    continue
            best, stay = self._plan_in_action(battle, s, key)
            hidden = self._plan_hidden  # (asking the others below plans them too)
            if (
                best is not None
                and best.score - stay > 0.02
                and self._short_of_company(battle, s, key)
            ):
                self._waiting.add((key, sid))
                best = hidden  # its best move that stays out of sight, if any
            fetch = self._fetch(battle, s) if battle.rules.has("transport") and s.on_table else None
            if fetch is not None and fetch.score - stay > max(
                0.02, best.score - stay if best is not None else 0.0
            ):
                best = fetch  # a foot stand far from the fight gets a ride next turn
            if best is not None and best.score - stay > 0.02:
                move = Option(best.label, best.score - stay, best.action)
                return [end, move] if end.action in legal else [move]
            self._stay.add((key, sid))  # better where it is: do not ask again this phase
        if end.action not in legal:
            a = next(a for a in legal if isinstance(a, Move) and not battle.stand(a.stand).on_table)
            return [Option(f"bring {a.stand} on", 0.0, a)]
        self._settled.add((battle.state.turn, side, mg.group))
        waiting = sorted(
            sid for k, sid in self._waiting if k == key and not battle.stand(sid).moved
        )
        if waiting:
            verb = "waits" if len(waiting) == 1 else "wait"
            why = f"{', '.join(waiting)} {verb} for the others to go into the enemy's sight"
            return [Option(f"end the movement action: {why}", 0.0, end.action)]
        return [end]

    def _short_of_company(self, battle, s, key) -> bool:
        """Whether the move just planned for ``s`` (``_plan``) would take it from out of the
        enemy's sight into it with too little company while the clock still allows waiting
        (``Level.crosses_with``, ``Level.crosses_alone``): fewer other stands of ours than
        ``crosses_with`` (or than it has) are in an enemy's sight now or would go into it too
        (the moving group's stands still to move, each asked for its own best move). One stand
        that shows itself to three draws all their opportunity fire and all their shots in the
        next fire phases; three that show themselves together share that fire and give three
        times as many shots back."""
        side = s.side
        if (
            not s.on_table  # a stand waiting to enter must come on (the engine says so)
            or not self._plan_exposed
            or self._stay_exposed
            or self._pressure(battle, side) >= self.level.crosses_alone
            # WWII groups are formed each turn from stands in contact, so company from the
            # same group seldom comes: waiting for it only lost time (docs/performance.md)
            or battle.rules.postures
        ):
            return False
        others = [
            o for o in battle.state.stands.values() if o.side == side and o.active and o.id != s.id
        ]
        need = min(self.level.crosses_with, len(others))
        enemies = self._enemies(battle, side)
        company = 0
        if need and enemies:
            _, m_ba = battle.table.sight_matrices(
                [o.pose() for o in others],
                [e.pose() for e in enemies],
                battle.poses(),
                battle.sighting_in,
                battle.ruleset_data,
            )
            company = int(m_ba.clear.any(axis=0).sum())  # ours seen already share the fire
        for o in others:
            if company >= need:
                return False
            if o.moved or o.group != s.group or (key, o.id) in self._stay:
                continue
            if o.id not in battle.state.moving.stands:
                continue
            best, stay = self._plan_in_action(battle, o, key)
            if best is not None and best.score - stay > 0.02 and self._plan_exposed:
                company += 1  # it will go too
        return company < need

    def _plan_in_action(self, battle, s, key) -> tuple[Option | None, float]:
        """``_plan`` for a stand of the moving group, remembered for the movement action
        ``key`` while no stand has moved, fired or taken a marker since (asking whether the
        others would go too plans them ahead of their turn). A level that never waits for
        company (``crosses_with`` 0) plans afresh every time, as it always did."""
        if not self.level.crosses_with:
            return self._plan(battle, s)
        where = tuple(
            (o.id, o.x, o.y, o.facing_deg, o.eliminated, o.S, o.D, o.fire_attempts)
            for o in battle.state.stands.values()
        )
        if self._plans and next(iter(self._plans))[0] != key:
            self._plans.clear()  # only the movement action at hand is worth remembering
        known = self._plans.get((key, s.id))
        if known is None or known[0] != where:
            best, stay = self._plan(battle, s)
            known = (where, best, stay, self._plan_exposed, self._stay_exposed, self._plan_hidden)
            self._plans[(key, s.id)] = known
        _, best, stay, self._plan_exposed, self._stay_exposed, self._plan_hidden = known
        return best, stay

    def _bounded_scores(
        self, parts, exposed, reckon, caution, n, hidden, marks=None
    ) -> dict[int, float]:
        """The scores (stands) of those of the candidate moves ``0..n-1`` that could be the
        best one or, if ``hidden``, the best one out of every enemy's sight (``exposed``, per
        pose): a move's position (``parts``, ``finish``) weighed by the chance of getting there
        alive, less ``caution`` times the opportunity fire its way invites (``reckon``, from
        ``_risk_reckoner``). A way's risks only lower a score, so the moves are weighed from
        the best score free of risk down, and the rest are left unweighed once, even free of
        risk, they score below the best (and the best hidden) weighed so far: the best (and
        the best hidden) are those weighing every way gives, to the last bit and on ties.
        ``marks`` (optional, ``_marker_reckoner``): per move, what the impact markers it
        drives into take (stands, and the chance of getting there alive lost to them), which
        also only lowers a score. Returns {index: score} of the moves weighed; never
        raises."""
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

    def _plan(self, battle, s, worth=None) -> tuple[Option | None, float]:
        """The best move for one stand and the score of staying put. Also sets
        ``_plan_exposed`` (the best move ends in an enemy's sight), ``_stay_exposed`` (the
        stand is in sight now) and ``_plan_hidden`` (its best move ending out of every enemy's
        sight, or None), from the same scores.

        ``worth`` (optional): a function of (the best move's score, staying's score), stands,
        that only grows with the first; when even the best move's score were its way free of
        opportunity fire gives it no more than -1e-9, the way there is not weighed and
        (None, staying's score) is returned: the move would not be worth it anyway (a way's
        risks only lower a score). Only the answer's worth is then known, not the move."""
        self._plan_exposed, self._stay_exposed, self._plan_hidden = False, False, None
        side = s.side
        enemies = self._enemies(battle, side)
        mp = battle.movement_points(s.id)
        goal = self._goal(battle, s, enemies)
        cands = self._candidates(battle, s, mp, goal)
        if not cands:
            return None, 0.0
        poses = []
        for end, _path, facing, _ in cands:
            poses.append(StandPose(s.id, side, end[0], end[1], facing))
        stay_pose = s.pose() if s.on_table else None
        if stay_pose is not None:
            poses.append(stay_pose)
        parts = self._position_parts(battle, s, poses, enemies, goal)
        if worth is not None:
            # the scores were the ways free of risk (the risks only lower them)
            free = [finish(part, 1.0) for part in parts]
            stay = free[-1] if stay_pose is not None else -3.0
            if worth(max(free[: len(cands)]), stay) <= -1e-9:
                if self.level.faces_threat < 1.0:
                    self.rng.random()  # as a whole plan draws it: the stream stays the same
                return None, stay
        caution = self._caution(battle, side, self._pressure(battle, side))
        exposed = self._exposed
        n = len(cands)  # the ways are sighted from the best score free of risk down
        order = sorted(range(n), key=lambda i: -finish(parts[i], 1.0))
        reckon = self._risk_reckoner(battle, s, [c[3] for c in cands], enemies, order)
        # the best move out of sight is asked for only where company is waited for
        # (``_short_of_company``: a level that waits, and not where stands take postures)
        want_hidden = bool(self.level.crosses_with) and not battle.rules.postures
        marks = self._marker_reckoner(battle, s, cands)  # impact markers on the way
        scores = self._bounded_scores(
            parts, exposed, reckon, caution, len(cands), want_hidden, marks
        )
        stay = finish(parts[-1], 1.0) if stay_pose is not None else -3.0
        best_i = max(scores, key=lambda i: (scores[i], -i))
        if self.level.lookahead and battle.state.moving is not None:
            # the few best moves, for the look-ahead to weigh in this movement action
            self._alternatives[s.id] = (
                stay,
                self._alternative_moves(s, cands, parts, order, scores, reckon, marks, caution),
            )
        self._plan_exposed = exposed[best_i]
        self._stay_exposed = stay_pose is not None and exposed[-1]
        hidden = [i for i in scores if not exposed[i]] if want_hidden else []
        if hidden:  # only a level that waits for company takes it, and it never forgets to turn
            h = max(hidden, key=lambda i: (scores[i], -i))
            (hx, hy), hpath, hfacing, _ = cands[h]
            self._plan_hidden = Option(
                f"move {s.id} to ({hx:.1f}, {hy:.1f}), out of sight",
                scores[h],
                Move(side, s.id, hpath, hfacing),
            )
        end, path, facing, _ = cands[best_i]
        if self.level.faces_threat < 1.0 and self.rng.random() >= self.level.faces_threat:
            (x0, y0), (x1, y1) = path[-2:]
            facing = heading_deg(x0, y0, x1, y1) % 360  # forgot to turn
        label = f"move {s.id} to ({end[0]:.1f}, {end[1]:.1f})"
        if self.level.open_cost and self._covered(battle, poses[best_i]):
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
