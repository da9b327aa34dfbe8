"""When the seed sheets' points and a balance check disagree: the points called T-90s
against M2A2 Bradleys in the full Modern game even (1.03 : 1) while the AI battles gave the
T-90s every win. :func:`disagreement` says when the two disagree that much (house values
below), :func:`suggested_move` which of the sheets' balancing moves the check's result
points to. Pure functions of a scenario dict and a balance report; no pygame."""

from __future__ import annotations

from dataclasses import dataclass, replace

from game import RulesData
from game.check.suggest import families
from game.editor.points import Move, changed_force, describe, forces, ratio

POINTS_EVEN = 1.10
"""House value: the points call two forces even when the larger is at most this times the
smaller (within 10%). Points that favour a side by more agree with a check that favours it."""
WIN_SHARE_EVEN = (0.35, 0.65)
"""House value: the check calls two forces even when each side won between 35% and 65% of
the battles either side won (draws left out)."""
HOUSE_RULE = (
    "house values: points within 10% of even or leaning the other way, yet one side winning "
    "more than 65% of the battles either side won"
)
"""The house values above in words, for the screen."""


@dataclass(frozen=True)
class Disagreement:
    """The check found the side ``favoured`` (its id and ``name``) winning ``share`` (0..1)
    of the battles either side won, but the points call the forces even or favour the other
    side: ``points_ratio`` is the larger force's points over the smaller's, ``points_ahead``
    the name of the side with more (equal: "")."""

    favoured: str
    name: str
    share: float
    points_ratio: float
    points_ahead: str = ""

    @property
    def points_say(self) -> str:
        """What the points say, in words: "call this even (1.03 : 1)" or "give M2A2
        Bradley the lead (1.46 : 1)"."""
        if self.points_ratio <= POINTS_EVEN or not self.points_ahead:
            return f"call this even ({self.points_ratio:.2f} : 1)"
        return f"give {self.points_ahead} the lead ({self.points_ratio:.2f} : 1)"


def disagreement(raw: dict, data: RulesData, report) -> Disagreement | None:
    """Whether the points of the scenario dict ``raw`` (:func:`game.editor.points.forces`)
    and a balance ``report`` (:class:`game.check.balance.BalanceReport`) disagree: a side
    wins a share of the battles outside :data:`WIN_SHARE_EVEN` while the points do not
    favour it by more than :data:`POINTS_EVEN`. None when they agree, when no battle was
    won, or without two forces."""
    fs = {f.side_id: f for f in forces(raw, data)}
    if len(fs) != 2 or report is None:
        return None
    a, b = report.sides
    won = a.wins + b.wins
    if won == 0 or a.side not in fs or b.side not in fs:
        return None
    top, low = (a, b) if a.wins >= b.wins else (b, a)
    share = top.wins / won
    if WIN_SHARE_EVEN[0] <= share <= WIN_SHARE_EVEN[1]:
        return None
    mine, theirs = fs[top.side].value, fs[low.side].value
    if theirs > 0 and mine / theirs > POINTS_EVEN:
        return None  # the points favour it too
    ahead = "" if mine == theirs else (fs[top.side] if mine > theirs else fs[low.side])
    ahead = ahead and (ahead.name or ahead.side_id)
    return Disagreement(top.side, top.name or top.side, share, ratio(mine, theirs), ahead)


def suggested_move(raw: dict, data: RulesData, found: Disagreement, who=None):
    """The balancing move the check points to (a :class:`game.editor.points.Move`, or None
    when the sheets allow none): of the moves that weaken the favoured side or strengthen
    the other (:func:`game.check.suggest.families`), the one that shifts the points towards
    the other side by as much as the favoured side's share of the wins is above half (a
    share of 100% asks for 1.5 times the other side's points against the favoured side's
    as they are now, 75% for 1.25 times; house value), fewer stands changed first among
    equals. Check it again to see whether it holds: the points cannot say. ``who`` maps a
    side id to the words naming it in the move ("side B"; default: the side's name)."""
    fs = {f.side_id: f for f in forces(raw, data)}
    if found.favoured not in fs or len(fs) != 2 or fs[found.favoured].value <= 0:
        return None
    other = next(k for k in fs if k != found.favoured)
    target = fs[other].value / fs[found.favoured].value * (1 + (found.share - 0.5))
    best = None
    for family in families(raw, found.favoured):
        for ch in family:
            after = dict(fs)
            after[ch.side_id] = changed_force(fs[ch.side_id], ch)
            fav, oth = after[found.favoured].value, after[other].value
            if fav <= 0:
                continue
            size = ch.n if ch.kind != "cohesion" else 0
            key = (abs(oth / fav - target), size)
            if best is None or key < best[0]:
                order = [after[k].value for k in fs]
                if min(order) > 0:
                    best = (key, ch, (order[0], order[1]), max(order) / min(order))
    if best is None:
        return None
    _key, ch, values, r = best
    force = fs[ch.side_id]
    if who and ch.side_id in who:
        force = replace(force, name=who[ch.side_id])
    return Move(describe(ch, force), values, r, ch)
