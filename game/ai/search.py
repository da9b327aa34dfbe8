"""The elite level's look-ahead: the scorers propose, continuations played on copies of the
battle decide.

For a decision that matters (a stand's move, a fire phase's attack, opportunity fire) the
veteran's own scorers give their best few candidates (``Level.lookahead``). Each candidate is
applied to a copy of the battle (:class:`game.rules.sandbox.Sandbox`: the battle as the
player at this seat knows it, with dice seeded from the AI's own random stream, never the
battle's) and played forward by a fast base policy for both sides (:class:`BasePolicy`)
through the enemy's answer: the rest of the movement phase with its opportunity fire, and the
next turn's fire phases (a fire decision: the rest of this turn's fire phases). The same
sampled dice serve every candidate (common random numbers), so the candidates are compared on
the same luck. Each continuation ends scored by what it did to both sides (stands destroyed,
disorganized, suppressed, by their worth), weighed by what one more kill and one more loss do
to the battle's expected result (:mod:`game.ai.outcome`); a continuation that ends the battle
adds :data:`TERMINAL`. A candidate's score is the mean of its continuations plus
``Level.prior`` times the scorers' own score of it.

Sampling goes round by round (one sample of the dice for every candidate a round) until
``Level.samples`` rounds are done, scaled by the thinking time, or the decision's share of the
turn's budget is spent (anytime: a round cut short is not counted, so every candidate has the
same samples). The rounds are spread over worker processes (:mod:`game.ai.search_pool`) when
the AI is given a pool.

Nothing here computes a rule: every continuation is the engine's, every candidate is an
action the engine takes.
"""

from __future__ import annotations

import hashlib
import time
import weakref
from collections.abc import Callable
from dataclasses import dataclass

from game import EndMoves, IllegalAction, Move, MoveAttempt, Pass, Sandbox, seat_view
from game.ai.greedy import MOVE_MARGIN, GreedyPlayer
from game.ai.values import Option, stand_value, worth

SEARCHED = ("plot_move", "fire", "opportunity_fire")
"""The kinds of decision the elite plays forward (the others are the veteran's)."""
MOVING = ("plot_move", "opportunity_fire")
"""The kinds whose continuations pass through the rest of a movement phase: with
``Level.base_moves`` the stands still to move there follow their expected moves."""
MAX_STEPS = 800
"""Most actions one continuation takes before it is scored where it stands."""
TERMINAL = 3.0
"""What winning the battle inside a continuation adds to its score (stands; losing takes as
much away): a house value, about three enemy stands destroyed."""
THINKING = {"quick": 0.4, "normal": 1.0, "long": 2.5}
"""The setting "AI thinking time": how it scales the samples and the turn's budget."""


@dataclass
class Thought:
    """What the look-ahead weighed at one decision, for the explain overlay (X): the
    decision's ``kind``, how many ``candidates`` and continuations each (``rounds``), the
    seconds it took (``seconds``), and per candidate (best first) its label, mean result of
    its continuations (stands), the scorers' own score (stands) and its index among the
    candidates. ``changed``: the scorers' own choice (its label) when the look-ahead took
    another, else None."""

    kind: str
    rounds: int
    seconds: float
    rows: list[tuple[str, float, float, int]]
    changed: str | None = None

    def text(self) -> str:
        """The overlay's lines (one, or two when the look-ahead changed the choice), e.g.
        "5 moves, 8 continuations each through the next fire phases (1.2 s)" and "the
        scorers alone would have taken: move A3 to (20.5, 13.5)"."""
        what = {"plot_move": "moves", "fire": "attacks", "opportunity_fire": "answers"}
        until = "the rest of the fire phases" if self.kind == "fire" else "the next fire phases"
        text = (
            f"{len(self.rows)} {what.get(self.kind, 'options')}, {self.rounds} continuations "
            f"each through {until} ({self.seconds:.1f} s)"
        )
        if self.changed:
            text += f"\nthe scorers alone would have taken: {self.changed}"
        return text


def damage(battle, side: str) -> tuple[float, float]:
    """(what the enemy's stands have suffered, what ours have), in stands: a stand destroyed
    counts its worth (``stand_value``), a D or an S a share of it (``values.worth``). Never
    raises."""
    them = us = 0.0
    for st in battle.state.stands.values():
        if not (st.S or st.D or st.eliminated):
            continue
        w = worth(st.S, st.D, st.eliminated, stand_value(st))
        if st.side == side:
            us += w
        else:
            them += w
    return them, us


class BasePolicy:
    """The fast policy that plays both sides of a continuation: the veteran's fire, opportunity
    fire, covering fire, close assaults and who goes first (cheap: the engine's exact odds);
    no new postures or fire plots (each hold is the same for every candidate, so it cancels
    out of the comparison); the stands that must come on come on straight. Movement: a
    stand with an expected move in ``plans`` (stand id -> :class:`game.Move`, from
    :func:`expected_moves`) makes it when its battle group moves (the group's attempt is
    made for it), each stand once; every other stand holds. ``fire_ai``: a veteran
    ``ScriptedAI``. ``before`` is called with each action just before it is applied
    (:func:`play_out` seeds its dice there)."""

    def __init__(self, fire_ai, plans: dict | None = None):
        self.ai = fire_ai
        self.plans = dict(plans or {})
        self.before = lambda action: None  # called with each action just before it is applied
        self._tried: set = set()  # (turn, group) attempts and stand moves already tried

    def _apply(self, battle, action) -> None:
        self.before(action)
        battle.apply(action)

    def _planned(self, battle, d) -> bool:
        """Make the next expected move this decision allows (an attempt of a group with a
        stand still to make its move, or that stand's move); whether one was made."""
        turn = battle.state.turn
        if d.kind == "move_attempt":
            due = {
                battle.stand(sid).group
                for sid in self.plans
                if battle.stand(sid).side == d.side and not battle.stand(sid).moved
            }
            for a in d.options:
                key = (turn, a.group) if isinstance(a, MoveAttempt) else None
                if key and a.group in due and key not in self._tried:
                    self._tried.add(key)
                    self._apply(battle, a)
                    return True
            return False
        for sid in battle.state.moving.stands:
            if sid not in self.plans or (turn, sid) in self._tried:
                continue
            self._tried.add((turn, sid))
            st = battle.stand(sid)
            if st.moved or st.eliminated or not st.on_table:
                continue
            try:
                self._apply(battle, self.plans[sid])
                return True
            except IllegalAction:
                continue
        return False

    def step(self, battle) -> None:
        """Apply one action for the side to act. Raises IllegalAction only if the engine
        refuses every answer tried (a fault of the engine's listings)."""
        d = battle.decision()
        side, kind = d.side, d.kind
        if kind in ("move_attempt", "plot_move") and self.plans and self._planned(battle, d):
            return
        if kind in ("move_attempt", "plot_move", "posture", "plot", "artillery", "setup"):
            hold = EndMoves(side) if kind == "plot_move" else Pass(side)
            try:
                self._apply(battle, hold)
                return
            except IllegalAction:
                pass
            if kind == "move_attempt":
                due = set(battle.entry_due(side))
                tries = [a for a in d.options if isinstance(a, MoveAttempt)]
                tries.sort(key=lambda a: a.group not in due)
                if tries:
                    self._apply(battle, tries[0])
                    return
            if kind == "plot_move":
                for a in d.options:
                    if isinstance(a, Move) and not battle.stand(a.stand).on_table:
                        self._apply(battle, a)
                        return
        self._apply(battle, self.ai.choose(battle))


@dataclass(frozen=True)
class Continuation:
    """Makes a continuation's base policy from a sample's seed: ``fire(seed)`` is the AI that
    plays its fire (a module-level function, so that it travels to the workers by name),
    ``plans`` the expected moves its stands make (stand id -> Move). Picklable."""

    fire: Callable[[int], object]
    plans: tuple = ()

    def __call__(self, seed: int) -> BasePolicy:
        return BasePolicy(self.fire(seed), dict(self.plans))


_EXPECTED: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def expected_moves(battle) -> dict:
    """Stand id -> the :class:`game.Move` each stand of either side that has not moved this
    turn is expected to make (the independent greedy player's quick plan: its best end point
    within its movement points, without the opportunity fire on the way), for stands whose
    move beats staying by the greedy player's margin; guns that can fire indirect, riders and
    stands off the table are left out. Worked out once a turn for a battle (0.1-0.3 s for
    both sides of a shipped scenario) and read by every continuation of that turn; a stand
    that has moved since drops out. Uses only what both players see: the table and the
    stands on it."""
    turn = battle.state.turn
    known = _EXPECTED.get(battle)
    if known is None or known[0] != turn:
        planner = GreedyPlayer(0)
        plans = {}
        for s in battle.state.stands.values():
            if not (s.active and s.on_table) or s.moved or s.carried_by is not None:
                continue
            if battle.indirect_reach(s.id) is not None:
                continue
            gain, move = planner.plan(battle, s, careful=False)
            if move is not None and gain > MOVE_MARGIN:
                plans[s.id] = move
        known = _EXPECTED[battle] = (turn, plans)
    return {sid: m for sid, m in known[1].items() if not battle.stand(sid).moved}


def horizon(battle) -> tuple[int, bool]:
    """Where continuations from ``battle``'s decision stop, as (its turn, whether it is a fire
    decision): see :func:`stopped`."""
    return battle.state.turn, battle.decision().kind == "fire"


def stopped(b, turn: int, fire: bool) -> bool:
    """Whether a continuation from a decision of ``turn`` (a fire decision if ``fire``) is
    over in ``b``: a fire decision's at the start of this turn's movement (or plot) phase,
    any other once the next turn's fire phases are over (the start of its movement or plot
    phase); the battle's end ends every one."""
    if b.state.finished:
        return True
    ph = b.phase
    if ph is None or ph.kind not in ("movement", "plot"):
        return False
    return b.state.turn > turn or (fire and b.state.turn == turn)


def reseed(box, sample: int, action) -> None:
    """Seed the fork's dice for ``action`` from the sample's seed and the moment (turn, phase,
    side to act) and the action itself: the same attack at the same moment rolls the same
    dice in every candidate's continuation, even where an earlier attack in one of them
    rolled more dice (common random numbers that stay common). Never raises."""
    st = box.state
    key = f"{sample}|{st.turn}|{st.phase}|{st.to_act}|{action!r}"
    box.dice.reseed(int.from_bytes(hashlib.blake2b(key.encode(), digest_size=8).digest(), "big"))


def play_out(box, side: str, action, stop, base: BasePolicy, weights, sample: int = 0):
    """Apply ``action`` to the fork ``box`` and play it forward by ``base`` until
    ``stopped(box, *stop)`` (``stop`` from :func:`horizon`);
    the continuation's score for ``side`` (stands: ``weights`` = (kill, loss) times the
    damage each side suffered, :data:`TERMINAL` for a battle won or lost in it), or None
    when the engine refuses ``action`` there. Every action's dice are seeded by
    :func:`reseed` from ``sample``."""
    base.before = lambda a: reseed(box, sample, a)
    try:
        base.before(action)
        box.apply(action)
    except IllegalAction:
        return None
    steps = 0
    while not stopped(box, *stop) and steps < MAX_STEPS:
        base.step(box)
        steps += 1
    them, us = damage(box, side)
    score = weights[0] * them - weights[1] * us
    if box.state.finished and box.state.winner is not None:
        score += TERMINAL if box.state.winner == side else -TERMINAL
    return score


def play_rounds(sandbox, view, side, actions, seeds, weights, stop, make_base, deadline):
    """Per sample seed (a round), each action's continuation score from the seat's view
    ``view`` (:func:`game.rules.sandbox.seat_view`), played on ``sandbox``; the rounds stop
    at ``deadline`` (``time.monotonic()`` seconds, or None) and a round cut short is dropped.
    ``make_base(seed)``: the base policy (a :class:`Continuation` makes one), or the veteran
    whose fire a base policy that moves nobody plays."""
    rounds = []
    for seed in seeds:
        row = []
        for a in actions:
            if deadline is not None and time.monotonic() > deadline:
                return rounds
            box = sandbox.fork_state(view, seed)
            made = make_base(seed)
            base = made if isinstance(made, BasePolicy) else BasePolicy(made)
            row.append(play_out(box, side, a, stop, base, weights, seed))
        rounds.append(row)
    return rounds


class LocalRollouts:
    """Continuations played in this process, one after the other."""

    def __init__(self):
        self._box: tuple[object, Sandbox] | None = None

    def prepare(self, battle) -> None:
        """Build the sandbox of ``battle``'s scenario now, if it is not built."""
        if self._box is None or self._box[0] is not battle.scenario:
            self._box = (battle.scenario, Sandbox(battle))

    def run(self, battle, side, actions, seeds, weights, make_base, deadline) -> list[list]:
        """:func:`play_rounds` on a sandbox of ``battle``'s scenario (built at the first call
        for a scenario), from the view of ``side``."""
        self.prepare(battle)
        view = seat_view(battle.state, side)
        stop = horizon(battle)
        return play_rounds(
            self._box[1], view, side, actions, seeds, weights, stop, make_base, deadline
        )


def choose_by_lookahead(
    battle,
    side: str,
    kind: str,
    cands: list[Option],
    priors: list[float],
    *,
    rng,
    level,
    weights,
    make_base,
    runner,
    deadline,
    scale: float = 1.0,
    baseline: int = 0,
) -> tuple[int, Thought] | None:
    """The index of the candidate to take (of ``cands``, whose scorers' scores are
    ``priors``), and what was weighed; None when no round of continuations could be played
    in time. ``rng``: the AI's own random stream, which seeds every continuation's dice.

    Each candidate's value in a round is its continuation's score plus ``level.prior`` times
    its prior. The scorers' own choice (``baseline``) is kept unless another candidate beats
    it in the paired rounds (the same dice) by more than ``level.margin`` standard errors of
    the difference: a choice is changed on evidence, not on one lucky round."""
    t0 = time.monotonic()
    if level.base_moves and kind in MOVING:
        plans = expected_moves(battle)
        if level.base_moves == "enemy":
            plans = {sid: m for sid, m in plans.items() if battle.stand(sid).side != side}
        make_base = Continuation(make_base, tuple(sorted(plans.items())))
    n = max(1, round(level.samples * scale))
    seeds = [rng.getrandbits(62) for _ in range(n)]
    rounds = runner.run(
        battle, side, [c.action for c in cands], seeds, weights, make_base, deadline
    )
    if not rounds:
        return None
    ok = [i for i in range(len(cands)) if all(r[i] is not None for r in rounds)]
    if not ok:
        return None
    value = {i: [r[i] + level.prior * priors[i] for r in rounds] for i in ok}
    means = {i: sum(v) / len(v) for i, v in value.items()}
    base = baseline if baseline in ok else max(ok, key=lambda i: (means[i], -i))
    best, gain = base, 0.0
    for i in ok:
        if i == base:
            continue
        d = [a - b for a, b in zip(value[i], value[base], strict=True)]
        mean = sum(d) / len(d)
        sd = (sum((x - mean) ** 2 for x in d) / max(1, len(d) - 1)) ** 0.5
        if mean > level.margin * sd / len(d) ** 0.5 and mean > gain:
            best, gain = i, mean
    order = sorted(ok, key=lambda i: (i != best, -means[i]))
    rows = [(cands[i].label, means[i] - level.prior * priors[i], priors[i], i) for i in order]
    changed = cands[base].label if best != base else None
    return best, Thought(kind, len(rounds), time.monotonic() - t0, rows, changed)
