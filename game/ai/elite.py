"""The elite level's choosers: the veteran's candidates for a decision, weighed by
continuations played on copies of the battle (:mod:`game.ai.search`), within a thinking budget
per turn."""

from __future__ import annotations

import os
import time
from collections.abc import Callable

from game import Action, EndMoves, LetPass, Move
from game.ai.search import SEARCHED, THINKING, choose_by_lookahead
from game.ai.search_pool import LOCAL, rollout_runner
from game.ai.values import Option

MIN_DECISION_S = 0.05
"""Below this many seconds left of the turn's budget, a decision is the scorers' own."""
DECISION_SHARE = 0.5
"""The share of what is left of the turn's budget that one decision may spend."""

UNTIMED_ENV = "HULLDOWN_LOOKAHEAD_UNTIMED"
"""Set to 1, the look-ahead plays every round its samples ask for whatever the clock says
(the gauntlet and tuning tools measure strength so, the same on a loaded machine as on a quiet
one, and report the thinking time beside it); the game never sets it."""


class LookaheadChooser:
    """A part of :class:`game.ai.scripted.ScriptedAI`: for a level with ``lookahead``, the
    decisions of :data:`game.ai.search.SEARCHED` are taken by play on copies of the battle.
    Built with the AI's ``level``, its ``rng`` (the continuations' samples are drawn from
    it), its ``memory`` (:class:`game.ai.memory.Memory`: ``spent``, ``looked``, ``thought``,
    ``alternatives``, ``stay``), the parts it asks: ``choosers`` (the scorers' options,
    ``Choosers.options`` in :mod:`game.ai.scripted`), ``opportunity``
    (:class:`game.ai.opportunity.OpportunityChooser`) and ``outcome``
    (:class:`game.ai.outcome.Outcome`); ``thinking`` ("quick", "normal", "long"): the
    setting "AI thinking time"; ``make_base``: makes the AI that plays the continuations'
    fire from a seed (the scripted AI's :func:`game.ai.scripted.veteran_fire`; a
    module-level function, so workers unpickle it)."""

    def __init__(
        self,
        level,
        rng,
        memory,
        choosers,
        opportunity,
        outcome,
        thinking: str,
        make_base: Callable[[int], object],
    ) -> None:
        self.level = level
        self.rng = rng
        self.memory = memory
        self.choosers = choosers
        self.opportunity = opportunity
        self.outcome = outcome
        self.thinking = thinking
        self.make_base = make_base

    def look_ahead(
        self, battle, decision, options: list[Option]
    ) -> tuple[Action, list[Option]] | None:
        """(the action the look-ahead takes for ``decision``, the top three rows it weighed
        as options for the explain overlay), or None to leave it to the scorers (not a
        searched kind, one candidate only, or no time left this turn). Sets the memory's
        ``thought`` to what a searched decision weighed."""
        if decision.kind not in SEARCHED:
            return None
        side = decision.side
        runner = rollout_runner()
        try:  # the workers' start is not thinking: it is not charged to the turn's budget
            runner.prepare(battle)
        except RuntimeError:
            runner = LOCAL
        for _ in range(64):  # a stand better off staying hands the choice to the next one
            cands, priors, stay_of, baseline = self._lookahead_candidates(
                battle, side, decision.kind, options
            )
            if len(cands) < 2:
                return None
            untimed = os.environ.get(UNTIMED_ENV) == "1"
            left = self._budget_left(battle, side)
            if left < MIN_DECISION_S and not untimed:
                return None
            deadline = None if untimed else time.monotonic() + left * DECISION_SHARE
            picked = self._search(
                battle, side, decision.kind, cands, priors, baseline, runner, deadline
            )
            if picked is None:
                return None
            i, thought = picked
            rows = self._remember(decision.kind, thought, cands, i)
            if stay_of is not None and i == len(cands) - 1:
                key = (battle.state.turn, battle.state.moving.group)
                self.memory.stay.add((key, stay_of))  # the next stand of the group, if any
                options = self.choosers.options(battle)
                continue
            return cands[i].action, rows
        return None

    def _search(self, battle, side, kind, cands, priors, baseline, runner, deadline):
        """Play the continuations of ``cands`` for ``side``'s ``kind`` decision
        (``choose_by_lookahead``) on ``runner``'s workers until ``deadline``
        (``time.monotonic`` seconds, None: untimed), and charge the time taken to the side's
        budget. A worker that fails hands the same
        rounds to this process, the rng put back where it was, so the draws are the same.
        Returns (the index picked, the thought) or None."""
        weights = self._continuation_weights(battle, side)
        t0 = time.monotonic()
        kw = dict(
            rng=self.rng,
            level=self.level,
            weights=weights,
            make_base=self.make_base,
            deadline=deadline,
            scale=THINKING.get(self.thinking, 1.0),
            baseline=baseline,
        )
        state = self.rng.getstate()
        try:
            picked = choose_by_lookahead(battle, side, kind, cands, priors, runner=runner, **kw)
        except RuntimeError:  # a worker failed: the same rounds, in this process
            self.rng.setstate(state)
            picked = choose_by_lookahead(battle, side, kind, cands, priors, runner=LOCAL, **kw)
        self._charge(battle, side, time.monotonic() - t0)
        return picked

    def _remember(self, kind, thought, cands, i) -> list[Option]:
        """Keep what a search of a ``kind`` decision weighed (the memory's ``thought`` and its
        tally: searched, changed, rounds played) and return the top three rows as options
        for the explain overlay, the taken one (``cands[i]``) marked."""
        self.memory.thought = thought
        tally = self.memory.looked.setdefault(kind, [0, 0, 0])
        tally[0] += 1  # searched, changed, rounds played
        tally[1] += thought.changed is not None
        tally[2] += thought.rounds
        return [
            Option(
                f"{label}{' (taken)' if j == i else ''}: continuations {mean:+.2f}, "
                f"scorers {prior:+.2f}",
                mean + self.level.prior * prior,
                cands[j].action,
            )
            for label, mean, prior, j in thought.rows[:3]
        ]

    def _lookahead_candidates(self, battle, side, kind, options):
        """(candidates, their scorers' scores in stands, the stand whose staying is the last
        candidate or None, the index of the scorers' own choice) for a decision of
        ``kind``."""
        k = self.level.lookahead
        none = [], [], None, 0
        top = sorted(options, key=lambda o: -o.score)  # (stable: as ``choose`` sorts them)
        if kind == "fire":
            return top[:k], [o.score for o in top[:k]], None, 0
        if kind == "opportunity_fire":
            steps = sorted(self.opportunity.steps(battle, side), key=lambda o: -o.score)
            cands = steps[: k - 1] + [next(o for o in options if isinstance(o.action, LetPass))]
            own = next((i for i, o in enumerate(cands) if o.action == top[0].action), 0)
            return cands, [o.score for o in cands], None, own
        # a stand's move: the veteran's, its other best moves, and staying where it is
        moves = [o for o in options if isinstance(o.action, Move)]
        if len(moves) != 1 or not any(isinstance(o.action, EndMoves) for o in options):
            return none
        mv = moves[0]
        s = battle.stand(mv.action.stand)
        known = self.memory.alternatives.get(s.id)
        if not s.on_table or known is None:
            return none
        stay, alts = known
        own = next((i for i, a in enumerate(alts) if a.action == mv.action), None)
        if own is None:
            return none  # a move of another kind (a gun's, a ride): the scorers'
        cands = [*alts, Option(f"{s.id} stays", 0.0, EndMoves(side))]
        priors = [a.score - stay for a in alts] + [0.0]
        return cands, priors, s.id, own

    def _continuation_weights(self, battle, side) -> tuple[float, float]:
        """(what a stand's worth of damage to the enemy counts, what one to ours counts) in
        a continuation's score: the outlook's weights of one more kill and one more loss
        (:mod:`game.ai.outcome`), or 1 and the level's caution for a level that does not
        weigh the outcome."""
        if self.level.weighs_outcome:
            o = self.outcome.outlook(battle, side)
            return o.kill, o.loss
        return 1.0, self.level.caution

    def _budget_left(self, battle, side) -> float:
        """Seconds of this turn's thinking budget (``Level.turn_budget_s`` scaled by the
        thinking time) that ``side`` has not spent."""
        budget = self.level.turn_budget_s * THINKING.get(self.thinking, 1.0)
        spent = self.memory.spent.get((battle.state.turn, side), 0.0)
        return budget - spent

    def _charge(self, battle, side, seconds: float) -> None:
        """Count ``seconds`` against this turn's budget."""
        key = (battle.state.turn, side)
        self.memory.spent = {key: self.memory.spent.get(key, 0.0) + seconds}

    def thinking_budget(self, battle, side) -> tuple[float, float] | None:
        """(seconds of look-ahead ``side`` has left this turn, the turn's whole budget), or
        None for a level that does not look ahead: what the battle screen shows while the AI
        thinks."""
        if not self.level.lookahead:
            return None
        whole = self.level.turn_budget_s * THINKING.get(self.thinking, 1.0)
        return max(0.0, self._budget_left(battle, side)), whole

    def thought_text(self) -> str | None:
        """The overlay's line on the last searched decision, or None."""
        thought = self.memory.thought
        return None if thought is None else "Looked ahead: " + thought.text()
