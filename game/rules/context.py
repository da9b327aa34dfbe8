"""What the phases of a battle share: its scenario and ruleset, the state, the dice, the
table, the rules data, the battle log and the state hash. The context sits below the phases:
a phase reads and changes the battle only through it and the rule modules beside it
(``combat``, ``moves``), never through the :class:`~game.rules.battle.Battle` facade above.
"""

from __future__ import annotations

import os
from collections.abc import Callable

from game.rules.dice import Dice
from game.rules.files.log import LogWriter
from game.rules.files.scenario import Scenario
from game.rules.state import BattleState, StandState, Wreck, state_hash
from game.rules.table.geometry import StandPose, footprint, footprints, overlaps
from game.rules.table.smoke import smoke_table


class IllegalAction(ValueError):
    """An action the rules do not allow now; the message says why."""


class BattleContext:
    """One battle's shared parts.

    Parameters
    ----------
    scenario : Scenario
        The validated scenario.
    seed : int
        The battle's seed.
    dice : Dice
        The battle's dice (the one source of randomness).
    ruleset
        The :class:`~game.rules.rulesets.base.Ruleset` the scenario plays by.
    log_path : path, optional
        Where the battle log is written as the battle goes.
    bail_out : callable
        ``bail_out(ctx, carrier_id)``: the riders of a carrier just eliminated get out
        (``transport.bail_out``; passed in, as the carriers' rules sit above the context).
    auto_pass : bool
        The engine passes for a side with nothing to do but pass and skips a phase in which
        neither side has anything to do (``game.rules.turns``); False for the battles of
        saves, journals and logs written before it, which hold those passes as choices.
    """

    def __init__(
        self,
        scenario: Scenario,
        seed: int,
        dice: Dice,
        ruleset,
        log_path: str | os.PathLike | None = None,
        *,
        bail_out: Callable[[BattleContext, str], None],
        auto_pass: bool = True,
    ):
        self.scenario = scenario
        self.auto_pass = bool(auto_pass)
        self.seed = int(seed)
        self.dice = dice
        self.rules = ruleset
        self.data = scenario.data
        self.base_table = scenario.table
        self._smoke_seen: tuple = (None, 0)  # the smoke list the table was built for, its length
        self._smoke_table = scenario.table
        self.ruleset_data = self.data.rulesets[scenario.ruleset]
        self.crt = self.data.crts[self.ruleset_data.crt]
        spec = scenario.spec
        self.sides = [s.id for s in spec.sides]
        self.side_spec = {s.id: s for s in spec.sides}
        self.sighting_in = spec.max_sighting_in
        self.totals = {s: sum(1 for st in spec.stands if st.side == s) for s in self.sides}
        stands = {}
        for st in spec.stands:
            stands[st.id] = StandState(
                id=st.id,
                side=st.side,
                unit_name=st.unit,
                unit=scenario.units[st.id],
                x=st.x,
                y=st.y,
                facing_deg=st.facing_deg % 360.0,
                on_table=st.on_table,
                group=st.group,
                hq=st.hq,
                ghq=st.ghq,
                clear_after_firing=ruleset.fire.clear_after_firing,
            )
        for st in spec.stands:  # full games: a stand aboard a carrier is where it is
            if st.carried_by is not None:
                rider, carrier = stands[st.id], stands[st.carried_by]
                rider.carried_by = carrier.id
                rider.x, rider.y, rider.facing_deg = carrier.x, carrier.y, carrier.facing_deg
                rider.on_table = carrier.on_table
        self.state = BattleState(stands=stands)
        self.log = LogWriter(log_path)
        self.new_events: list[dict] = []
        self._bail_outs: list[str] = []  # carriers eliminated with riders aboard
        self._bail_out = bail_out

    # ---------------------------------------------------------------- the log

    def event(self, name: str, **fields) -> dict:
        """Write one battle-log line (``../shared/event-log.md``) with the turn and phase, and
        keep it among the events of the action being applied."""
        ev = self.log.write(
            {"event": name, "turn": self.state.turn, "phase": self.state.phase, **fields}
        )
        self.new_events.append(ev)
        if self._bail_outs:  # riders of a carrier this line eliminated get out after it
            carriers, self._bail_outs = self._bail_outs, []
            for cid in carriers:
                self._bail_out(self, cid)
        return ev

    # ---------------------------------------------------------------- small queries

    @property
    def table(self):
        """The table as the rules see it now: the scenario's terrain, plus a smoke area (the
        chart's smoke row: blocks sight, +3 into and out of, +1 tracked movement) for each
        smoke marker on it (rules-decisions "Artillery, smoke and air strikes"). Built again
        only when the smoke changes (about 2 ms): smoke is only ever added to the state's list
        or the list replaced (marker removal), so the list and its length tell, in O(1) on the
        rules' hot paths."""
        smoke = self.state.smoke
        if not smoke:
            return self.base_table
        seen, n = self._smoke_seen
        if smoke is not seen or len(smoke) != n:
            self._smoke_table = smoke_table(self.base_table, [(a.x, a.y) for a in smoke])
            self._smoke_seen = (smoke, len(smoke))
        return self._smoke_table

    @property
    def phase(self):
        """The current :class:`~game.rules.rulesets.Phase` of the turn (None in set-up and at
        the end)."""
        return self.rules.phase_named(self.state.phase)

    def stand(self, stand_id: str) -> StandState:
        """A stand by id. Raises IllegalAction for an unknown id."""
        try:
            return self.state.stands[stand_id]
        except KeyError:
            raise IllegalAction(f"there is no stand {stand_id!r}") from None

    def other(self, side: str) -> str:
        """The other side."""
        return self.sides[1] if side == self.sides[0] else self.sides[0]

    def cohesion_level(self, side: str) -> int:
        """A side's force cohesion level (000 04.00)."""
        return self.side_spec[side].cohesion

    def poses(self, exclude: str | None = None) -> list[StandPose]:
        """Every stand on the table and every wreck, as the geometry needs them."""
        out = [s.pose() for s in self.state.stands.values() if s.active and s.id != exclude]
        return out + [w.pose() for w in self.state.wrecks]

    def room_at(self, x: float, y: float, facing: float, ignore: str | None = None) -> bool:
        """True when a footprint at (x, y, facing) overlaps no stand on the table but
        ``ignore`` (000 08.03.05; wrecks never count)."""
        fp = footprint(x, y, facing)
        near = [
            o.pose()
            for o in self.state.stands.values()
            if o.active and o.id != ignore and abs(o.x - x) < 1.5 and abs(o.y - y) < 1.5
        ]
        return not any(overlaps(fp, o) for o in footprints(near))

    def eliminate(self, s: StandState) -> None:
        """A stand is eliminated and leaves a wreck where it stood (000 07.05). A carrier's
        riders get out after the log line that tells it (rules-decisions "Transport"). A GHQ
        lost takes its side's orders with it from that moment, the movement phase under way
        included: the side may issue no further orders (000 08.02.02, 004 movement cohesion
        chart); a movement action already ordered goes on."""
        s.eliminated = True
        self.state.wrecks.append(Wreck(s.id, s.x, s.y, s.facing_deg))
        if s.ghq and self.state.orders.get(s.side):
            self.state.orders[s.side] = 0
        if any(r.carried_by == s.id and not r.eliminated for r in self.state.stands.values()):
            self._bail_outs.append(s.id)

    def state_hash(self) -> str:
        """A digest of the whole battle state and the dice's position."""
        return state_hash(self.state, self.dice.digest())

    def movement_points(self, stand_id: str) -> float:
        """Movement points the stand has this phase (000 08.03.01, 05.00 step 4)."""
        return self.rules.movement.movement_points(self.stand(stand_id))
