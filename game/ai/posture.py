"""The scripted AI's posture phase (WWII, 001 5.0 step 2): which stands take the movement
posture this turn, and which stay in the firing posture."""

from __future__ import annotations

from game import DeclareGroup, Pass, base_contact
from game.ai.values import Option


class PostureChooser:
    """A part of :class:`game.ai.scripted.ScriptedAI`: the movement groups it declares, from
    each stand's wish to move (``Situation.urgency``) and what a better position gains over
    its shot (``better_moved``, which plans the move with ``MovePlanner.plan``). Built with
    the AI's ``level``, its ``memory`` (:class:`game.ai.memory.Memory`: ``moved_better``,
    ``offense``) and the parts it asks: ``situation``
    (:class:`game.ai.situation.Situation`) and ``planner``
    (:class:`game.ai.planner.MovePlanner`)."""

    def __init__(self, level, memory, situation, planner) -> None:
        self.level = level
        self.memory = memory
        self.situation = situation
        self.planner = planner

    def groups(self, battle, side) -> list[Option]:
        """Which stands to commit to the movement posture this turn (WWII, 001 5.0 step 2). A stand
        that wants to move (``Situation.urgency`` over ``Level.moves_at``: it has no shot, or draws
        more fire than it gives) goes into a movement group with those of its chain of base contact
        that want to move too, and so does a stand whose best move gains more over the turns left
        than its shot now is worth (``better_moved``; a group of those scores that gain only for a
        level that repositions); the rest stay to fire and to opportunity-fire. Nobody moves on the
        last turn or while the victory is ours if the turn ends now."""
        options = [Option("the rest stay in the firing posture", 0.0, Pass(side))]
        spec = battle.scenario.spec
        if self.situation.holding(battle, side) or (
            spec.victory.type == "destroy_percent" and battle.state.turn >= spec.turns
        ):
            return options
        urgency = self.situation.urgency(battle, side)
        why: dict[str, str] = {}  # mover -> why it moves
        todo = []  # stands whose better position is still to be planned this turn
        for s in battle.undeclared(side):
            if battle.indirect_reach(s.id) is not None:
                continue  # guns stay to fire (artillery never fires and moves in one turn)
            if urgency.get(s.id, 0.0) > self.level.moves_at:
                why[s.id] = "no shot" if self.memory.offense.get(s.id, 0.0) <= 0 else "under fire"
            elif (battle.state.turn, s.id) not in self.memory.moved_better:
                todo.append(s)
            elif self.better_moved(battle, s) > 0:
                why[s.id] = "a better position"
        for s in self.within_budget(battle, side, todo, why):
            if self.better_moved(battle, s) > 0:
                why[s.id] = "a better position"
        order = [s.id for s in battle.undeclared(side)]
        why = {i: why[i] for i in order if i in why}  # in the stands' order, as ever
        if not why:
            return options
        singles_only = side in battle.state.singles_declared  # 001 5.0: groups first
        gain = self.gain if self.level.repositions else lambda battle, i: 0.0
        for chain in battle.contact_chains(list(why)):
            parts = [[i] for i in chain] if singles_only or len(chain) == 1 else [chain]
            for part in parts:
                # scored by the wish to move and, for a level that repositions, by what the
                # better position gains: otherwise a group the enemy cannot hit where it stands
                # scores 0 and so loses to staying
                options.append(
                    Option(
                        "movement group of " + ", ".join(f"{i} ({why[i]})" for i in part),
                        sum(urgency[i] + gain(battle, i) for i in part),
                        DeclareGroup(side, tuple(part)),
                    )
                )
        return options

    def within_budget(self, battle, side, todo, why):
        """Yield the stands of ``todo`` (undeclared, not yet planned this turn) to plan for a better
        position (``better_moved``) in this posture decision, within ``Level.plan_budget``: a plan
        weighs every enemy stand on the table from each of its candidate places and ways, and the
        side has about as many stands to plan, so a plan costs the square of the enemy stands on the
        table over 9 (9 against nine, 178 against 40; at least 1) and a decision plans while less
        than the budget is spent. First those in base contact with a stand that moves already
        (``why``, which the caller fills as it goes): a movement group is a chain of stands in
        contact, and one declared before its neighbours are weighed goes without them; then the
        likeliest movers (the smallest shot where they stand, the memory's ``offense``). Those left
        are planned in the side's next posture decisions of the turn (each stand once a turn, as
        before). Once the budget is spent with no movement group to declare yet (``why`` empty),
        planning goes on up to one and a half times the budget, so that the side does not pass,
        which may end the phase, with stands it never weighed; past that it passes, and plans the
        rest if it gets another decision. A plan for a stand off the table or with no turn left
        after this one costs nothing."""
        left = battle.scenario.spec.turns - battle.state.turn
        cost = max(1.0, sum(1 for e in self.situation.enemies(battle, side) if e.on_table) ** 2 / 9)
        budget = self.level.plan_budget
        spent = 0.0
        rest = sorted(todo, key=lambda s: self.memory.offense.get(s.id, 0.0))
        while rest:
            if spent >= budget and (why or spent >= 1.5 * budget):
                return
            movers = [battle.stand(i).pose() for i in why]
            s = next(
                (s for s in rest if s.on_table and any(base_contact(s.pose(), m) for m in movers)),
                rest[0],
            )
            rest.remove(s)
            yield s
            if s.on_table and left > 0:
                spent += cost

    def better_moved(self, battle, s) -> float:
        """How much better off (stands; > 0 when it is) a stand that has a shot from where it stands
        would be to give it up this turn and move (WWII: a stand in the movement posture does not
        fire, 001 5.0): the gain in the worth of its position from its best move
        (``MovePlanner.plan``, stands a turn), earned in each turn left after this one (at most
        three), less this turn's shot (the memory's ``offense``, weighed by the clock as positions
        are) and a margin of 0.05. Decided once a turn for each stand. A stand that trades shots
        where its own hardly hurt goes round to a flank or closes in (docs/performance.md)."""
        key = (battle.state.turn, s.id)
        if key not in self.memory.moved_better:
            left = min(3, battle.scenario.spec.turns - battle.state.turn)
            shot = self.memory.offense.get(s.id, 0.0) * self.situation.shot_weight(
                battle, s.side, self.situation.pressure(battle, s.side)
            )
            margin = -1.0
            if left > 0 and s.on_table:

                def worth(best: float, stay: float) -> float:
                    return (best - stay) * left - shot - 0.05

                # only a margin above 0 counts (``gain``): a plan that cannot reach it
                # stops before weighing the opportunity fire on the way
                best, stay = self.planner.plan(battle, s, worth)
                if best is not None:
                    margin = worth(best.score, stay)
            self.memory.moved_better[key] = margin
        return self.memory.moved_better[key]

    def gain(self, battle, sid: str) -> float:
        """What moving a stand gains over its shot this turn (stands, ``better_moved``), as
        already decided for this turn; 0 where it gains nothing or was not asked."""
        return max(0.0, self.memory.moved_better.get((battle.state.turn, sid), 0.0))
