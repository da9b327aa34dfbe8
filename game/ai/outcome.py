"""The score of a battle, not of a shot: what one more enemy stand destroyed, or one more
of ours lost, is worth to the scripted AI's chance of winning the battle, by the scenario's
victory rule and the turns left.

A battle scores 1 for a win, ½ for a draw and 0 for a loss. The rest of the battle is modelled
plainly: the enemy stands we still destroy and the stands we still lose are two Poisson counts
over the turns left, at the pace seen so far (kills and losses a turn, with a prior of half the
smaller side over the battle). The engine's own victory test (``Battle.winner_if_turn_ended``
with the losses asked about) scores every end. From that come:

- ``kill``: how much one more kill raises the expected score, and ``loss``: how much one more
  loss lowers it. Their ratio weighs the fire a position draws against the shots it gives: a
  side about to win guards its stands; a side that has already lost on losses has nothing left
  to guard and only kills can save a draw.
- ``press`` (0..1): whether fighting harder (both counts a quarter higher) raises the expected
  score. Between equal sides at a draw it does not: a draw is worth keeping, so the AI waits in
  cover rather than attack late into a line that holds. Behind, or with the exchange going its
  way, it presses; a side that would lose were the turn to end now presses at least as much
  as a kill outweighs a loss (it has little left to lose).

Nothing here computes a rule: the victory test is the engine's.
"""

from __future__ import annotations

import math
from dataclasses import dataclass


@dataclass(frozen=True)
class Outlook:
    """How the battle stands for one side. kill, loss: the expected battle score (win 1,
    draw ½, loss 0) one more enemy stand destroyed adds and one more of ours lost takes away,
    normalised so that the two sum to 2 (1 and 1 when both matter alike). press: 0..1, how
    much fighting harder raises the expected score. expected: the expected score (0..1) as
    things stand; now: the score were the turn to end now."""

    kill: float
    loss: float
    press: float
    expected: float
    now: float


PRIOR_SHARE = 0.5
"""The share of the smaller side the model expects to be destroyed over a whole battle before
any stand has been lost (the prior of each side's losses a turn)."""
PRIOR_TURNS = 2.0
"""How many turns of play the prior counts as, against the kills and losses seen so far."""
HARDER = 1.25
"""How much more fighting 'pressing' means in the model: both counts scaled by this (and the
waiting counts by its inverse)."""
MATTERS = 0.03
"""A floor (share of a win) added to what one more kill and one more loss are each worth
before they are weighed against each other, so that when neither changes the expected
score by much, both weigh about the same."""
PRESS_SCALE = 8.0
"""How the gain in expected score from pressing (win 1) becomes the pressure 0..1: a gain of
1/8 of a win presses fully."""


def _poisson(mu: float, cap: int) -> list[float]:
    """P(0..cap) of a Poisson count of mean ``mu``, the tail folded into ``cap``."""
    if cap <= 0:
        return [1.0]
    p = [math.exp(-mu)]
    for i in range(1, cap):
        p.append(p[-1] * mu / i)
    p.append(max(0.0, 1.0 - sum(p)))
    return p


class Outcome:
    """A part of :class:`game.ai.scripted.ScriptedAI`: the battle's outlook (:class:`Outlook`)
    for a side, worked out once per turn and losses (``outlook``) and kept in the AI's
    memory (``Memory.outlooks``). ``level``: the AI's :class:`game.ai.levels.Level`."""

    def __init__(self, level, memory) -> None:
        self.level = level
        self.memory = memory

    def outlook(self, battle, side: str) -> Outlook:
        """The :class:`Outlook` of ``side`` now. Cached per turn and losses, so asking it for
        every position scored costs nothing."""
        st = battle.state
        enemy = battle.other(side)
        losses = st.losses(battle.sides)
        k, lo = losses[enemy], losses[side]
        key = (st.turn, side, k, lo)
        cache = self.memory.outlooks
        if key in cache:
            return cache[key]
        spec = battle.scenario.spec
        n_us = sum(1 for s in st.stands.values() if s.side == side)
        n_them = sum(1 for s in st.stands.values() if s.side == enemy)
        left = max(0, spec.turns - st.turn + 1)
        done = max(0, st.turn - 1)
        prior = PRIOR_SHARE * min(n_us, n_them) / max(1, spec.turns)
        kill_rate = (k + prior * PRIOR_TURNS) / (done + PRIOR_TURNS)
        loss_rate = (lo + prior * PRIOR_TURNS) / (done + PRIOR_TURNS)
        ends: dict[tuple[int, int], float] = {}
        draw = self.level.draw_worth

        def score(kk: int, ll: int) -> float:
            if (kk, ll) not in ends:
                w = battle.winner_if_turn_ended({side: ll, enemy: kk})
                ends[(kk, ll)] = 1.0 if w == side else 0.0 if w == enemy else draw
            return ends[(kk, ll)]

        def expect(kk: int, ll: int, scale: float = 1.0) -> float:
            kk, ll = min(kk, n_them), min(ll, n_us)
            pk = _poisson(kill_rate * left * scale, n_them - kk)
            pl = _poisson(loss_rate * left * scale, n_us - ll)
            return sum(
                a * b * score(kk + i, ll + j)
                for i, a in enumerate(pk)
                if a > 1e-9
                for j, b in enumerate(pl)
                if b > 1e-9
            )

        base = expect(k, lo)
        v_kill = max(0.0, expect(k + 1, lo) - base) if k < n_them else 0.0
        v_loss = max(0.0, base - expect(k, lo + 1)) if lo < n_us else 0.0
        # both marginals tiny (the threshold far off either way) means neither matters much:
        # the floor keeps their ratio near 1 there instead of swinging on the model's tails
        mean = (v_kill + v_loss) / 2 + MATTERS
        kill = min(1.5, max(0.5, (v_kill + MATTERS) / mean))
        loss = 2.0 - kill
        gain = expect(k, lo, HARDER) - expect(k, lo, 1.0 / HARDER)
        press = max(0.0, min(1.0, gain * PRESS_SCALE))
        w_now = battle.winner_if_turn_ended({side: lo, enemy: k})
        now = 1.0 if w_now == side else 0.0 if w_now == enemy else 0.5
        if now == 0.0:  # losing now: little is left to lose, kills alone can save the battle
            press = max(press, 1.0 - loss / kill)
        out = cache[key] = Outlook(kill, loss, press, base, now)
        return out

    def outlook_text(self, battle, side: str) -> str | None:
        """One line for the explain overlay (X): how the battle stands for ``side`` and what
        that makes of the AI's weights. None for a level that does not weigh the
        outcome, or a finished battle."""
        if not self.level.weighs_outcome or battle.finished:
            return None
        o = self.outlook(battle, side)
        now = {1.0: "a win", 0.5: "a draw", 0.0: "a loss"}[o.now]
        ratio = o.loss / o.kill
        if o.press >= 0.3:
            plan = "it must attack"
        elif o.now == 1.0:
            plan = "it guards the win"
        elif ratio > 1.1:
            plan = "it waits in cover"
        else:
            plan = "it takes only fights that pay"
        return (
            f"Battle: {now} now, {o.expected:.2f} of a win expected; "
            f"a loss weighs {ratio:.1f} kills: {plan}"
        )
