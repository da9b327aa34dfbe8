"""The sequence of play common to every ruleset: set-up, turns of phases in the order the
ruleset lists them, passing, choosing who acts first, and the end of each turn with the
victory check (000 05.00; 001 5.0; seed scenario sheets). What a phase does is its own
module's business (``game.rules.phases``).

Automatic passes: in a battle that has them (``BattleContext.auto_pass``; every new
battle, not the saves, journals and logs written before them, which hold the choices the
engine now makes itself), a phase that says what a side may do besides passing
(``Phase.able``) never asks a side that may do nothing else: the engine passes for it, writing
a ``pass`` line with an ``auto`` field that says why; nobody is asked who acts first unless
both sides have something to do (the one that has acts); and a phase in which neither side
has anything to do is skipped, with two such lines (``skip`` 1 and 2)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from game.rules.actions import ChooseFirst, Pass
from game.rules.context import IllegalAction
from game.rules.phases import Phase

if TYPE_CHECKING:
    from game.rules.context import BattleContext


def do_pass(ctx: BattleContext, a: Pass) -> None:
    """A side passes: in set-up, it is ready; in a phase, it does nothing more for now, and
    when both sides have passed in a row the phase ends (000 05.00; 001 5.0)."""
    st = ctx.state
    if st.pending is not None or st.moving is not None:
        raise IllegalAction(
            "finish the movement action under way first: move its stands, or end it"
        )
    if st.assault_open is not None or st.assault is not None:
        raise IllegalAction("finish the close assaults first, or end them (002 8.7)")
    phase = ctx.phase
    if st.phase == "setup":
        ctx.event("pass", side=a.side)
        if a.side == ctx.sides[0]:
            st.to_act = ctx.sides[1]
        else:
            start_turn(ctx)
        return
    if phase is not None and phase.choose_first and not st.first_chosen:
        raise IllegalAction(
            "first choose who acts first in this phase: the side with the initiative "
            "decides (000 07.02.04, 08.02.04)"
        )
    if phase is None or phase.kind is None:
        raise IllegalAction("there is nothing to pass now")
    why = phase.may_pass(ctx, a.side)
    if why:
        raise IllegalAction(why)
    ctx.event("pass", side=a.side)
    st.passes += 1
    if st.passes >= 2:
        next_phase(ctx)
    else:
        st.to_act = ctx.other(a.side)
        settle(ctx)


def do_choose_first(ctx: BattleContext, a: ChooseFirst) -> None:
    """The side with the initiative says who acts first in this phase (000 07.02.04,
    08.02.04; 001 5.0 step 2, 7.1.1, 8.2.4)."""
    st = ctx.state
    phase = ctx.phase
    if phase is None or not phase.choose_first or st.first_chosen:
        raise IllegalAction("there is no choice of who goes first now")
    if a.side != st.initiative:
        raise IllegalAction("only the side with the initiative chooses")
    if a.first not in ctx.sides:
        raise IllegalAction(f"unknown side {a.first!r}")
    st.first_chosen = True
    st.to_act = a.first
    settle(ctx)


def open_phase(ctx: BattleContext, phase: Phase) -> None:
    """A phase that says what each side may do besides passing, just begun in a battle with
    automatic passes: skipped when neither side may do anything (two ``pass`` lines, the
    side with the initiative's first, with ``auto`` saying why and ``skip`` 1 and 2); when one
    side only may, it acts and nobody is asked who goes first (000 07.02.04, 08.02.04: the
    choice is only worth asking when both sides have something to do)."""
    st = ctx.state
    first = st.initiative or ctx.sides[0]
    able = [side for side in (first, ctx.other(first)) if phase.able(ctx, side)]
    if not able:
        for k, side in enumerate((first, ctx.other(first)), start=1):
            ctx.event("pass", side=side, auto=phase.unable_why[0], skip=k)
        next_phase(ctx)
        return
    if len(able) == 1:
        st.first_chosen = True
        st.to_act = able[0]
    settle(ctx)


def settle(ctx: BattleContext) -> None:
    """In a battle with automatic passes, pass for the side to act while the phase
    offers it nothing but Pass (``Phase.able``): a ``pass`` line with ``auto`` saying why;
    when that is the second pass in a row, the phase ends (000 05.00; 001 5.0). Does nothing
    while the side with the initiative has still to choose who acts first."""
    st = ctx.state
    phase = ctx.phase
    if not ctx.auto_pass or phase is None or phase.able is None or st.finished:
        return
    if phase.choose_first and not st.first_chosen:
        return
    while not phase.able(ctx, st.to_act):
        ctx.event("pass", side=st.to_act, auto=phase.unable_why[1])
        st.passes += 1
        if st.passes >= 2:
            next_phase(ctx)
            return
        st.to_act = ctx.other(st.to_act)


def start_turn(ctx: BattleContext) -> None:
    """A new turn: fired and attacked marks off, its first phase begins."""
    st = ctx.state
    st.turn += 1
    for s in st.stands.values():
        s.mp_spent = 0.0
        s.fire_attempts = 0
        s.fired_in.clear()
        s.attacked_in.clear()
        s.artillery_fired = s.aa_fired = False
    enter(ctx, ctx.rules.turn[0])


def enter(ctx: BattleContext, phase: Phase) -> None:
    """Begin a phase: the side with the initiative acts first until it chooses otherwise;
    the phase's own beginning; a phase the engine plays through ends at once."""
    st = ctx.state
    st.phase = phase.name
    st.passes = 0
    st.first_chosen = False
    st.to_act = st.initiative
    phase.on_begin(ctx)
    if phase.holds(ctx):  # hidden plots to be revealed first: begin_again goes on
        return
    _begun(ctx, phase)


def begin_again(ctx: BattleContext) -> None:
    """The current phase's beginning, held until the actions it waited for were taken
    (``Phase.holds``: a network battle's hidden plots revealed), goes on: its own
    beginning again (the missions land), then as :func:`enter` after it."""
    phase = ctx.phase
    ctx.state.to_act = ctx.state.initiative
    phase.on_begin(ctx)
    _begun(ctx, phase)


def _begun(ctx: BattleContext, phase: Phase) -> None:
    st = ctx.state
    if st.finished:
        return
    if phase.auto or phase.skip(ctx):
        next_phase(ctx)
    elif ctx.auto_pass and phase.able is not None:
        open_phase(ctx, phase)


def next_phase(ctx: BattleContext) -> None:
    """End the current phase and begin the next, or end the turn after the last."""
    names = [p.name for p in ctx.rules.turn]
    i = names.index(ctx.state.phase)
    ctx.rules.turn[i].on_end(ctx)
    if i + 1 < len(names):
        enter(ctx, ctx.rules.turn[i + 1])
    else:
        end_turn(ctx)


def end_turn(ctx: BattleContext) -> None:
    """The turn ends: the end-of-turn line with the losses and the state hash, then the end
    of the battle (a side has won, or the last turn is played) or the next turn."""
    st = ctx.state
    for s in st.stands.values():
        s.fire_attempts = 0
        s.fired_in.clear()
        s.attacked_in.clear()
    losses = st.losses(ctx.sides)
    ctx.event("end_turn", losses=losses, state_hash=ctx.state_hash())
    winner, reason = victory(ctx, losses)
    if winner is not None or st.turn >= ctx.scenario.spec.turns:
        st.phase = "end"
        st.finished = True
        st.winner = winner
        st.reason = reason or f"turn {st.turn} of {ctx.scenario.spec.turns} played: a draw"
        st.to_act = None
        ctx.event(
            "end", winner=winner, reason=st.reason, losses=losses, state_hash=ctx.state_hash()
        )
        ctx.log.close()
        return
    start_turn(ctx)


def winner_if_turn_ended(ctx: BattleContext, losses: dict[str, int] | None = None) -> str | None:
    """The side that would win were the turn to end now, by the scenario's victory rule
    (seed scenario sheets; RD "Victory"), or None. ``losses`` (stands eliminated, by side)
    defaults to the battle's own; pass others to ask "what if". Victory is only checked
    at the end of a turn, so a side that holds it mid-turn can still lose it."""
    return victory(ctx, losses if losses is not None else ctx.state.losses(ctx.sides))[0]


def kills_needed(ctx: BattleContext, side: str) -> int:
    """How many enemy stands ``side`` must have destroyed to meet the scenario's share
    (seed scenario sheets: at least 51%; RD "Victory"), by the same test as the victory
    check: 2 of 3, 4 of 7, 6 of 10. More than the enemy has when the share is over 100%."""
    total = ctx.totals[ctx.other(side)]
    pct = ctx.scenario.spec.victory.destroy_at_least_pct
    return next((n for n in range(total + 1) if n / max(1, total) * 100 >= pct - 1e-9), total + 1)


def losses_allowed(ctx: BattleContext, side: str) -> int:
    """How many of its own stands ``side`` may lose and still win: the most whose share stays
    within the scenario's limit (seed scenario sheets: at most 50%; RD "Victory")."""
    total = ctx.totals[side]
    pct = ctx.scenario.spec.victory.lose_at_most_pct
    return max(n for n in range(total + 1) if n / max(1, total) * 100 <= pct + 1e-9)


def victory(ctx: BattleContext, losses: dict[str, int]) -> tuple[str | None, str | None]:
    """A side that destroyed at least the scenario's share of the enemy while losing no
    more than its limit wins (seed scenario sheets; RD "Victory")."""
    v = ctx.scenario.spec.victory
    for side in ctx.sides:
        enemy = ctx.other(side)
        destroyed = losses[enemy] / max(1, ctx.totals[enemy]) * 100
        lost = losses[side] / max(1, ctx.totals[side]) * 100
        if destroyed >= v.destroy_at_least_pct - 1e-9 and lost <= v.lose_at_most_pct + 1e-9:
            return side, (
                f"{ctx.side_spec[side].name} destroyed {destroyed:.0f}% of the "
                f"enemy while losing {lost:.0f}%"
            )
    return None, None
