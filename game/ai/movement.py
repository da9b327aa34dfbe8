"""The scripted AI's movement phase: which group to give an order or let try independently,
which of the moving group's stands to move where, and when to end the movement action; each
stand's best move is the planner's (:mod:`game.ai.planner`)."""

from __future__ import annotations

from game import EndMoves, Move, MoveAttempt, Pass
from game.ai.values import Option


class MovementChooser:
    """A part of :class:`game.ai.scripted.ScriptedAI`: movement orders and moves, and going
    into the enemy's sight only in company (``Level.crosses_with``). Built with the AI's
    ``level``, its ``memory`` (:class:`game.ai.memory.Memory`: ``stay``, ``waiting``,
    ``settled``, and the planner's answers ``plan_exposed``, ``stay_exposed``,
    ``plan_hidden``) and the parts it asks: ``situation``
    (:class:`game.ai.situation.Situation`), ``planner``
    (:class:`game.ai.planner.MovePlanner`), ``posture``
    (:class:`game.ai.posture.PostureChooser`, what moving gains), ``guns``
    (:class:`game.ai.guns.Guns`) and ``full`` (:class:`game.ai.full.FullGameChooser`, rides,
    overruns and assaults)."""

    def __init__(self, level, memory, situation, planner, posture, guns, full) -> None:
        self.level = level
        self.memory = memory
        self.situation = situation
        self.planner = planner
        self.posture = posture
        self.guns = guns
        self.full = full

    def attempts(self, battle, side) -> list[Option]:
        """The movement phase's options for ``side`` (000 08.02; 001 8.2): which group to
        give an order or let try independently, scored by how much its stands want to move,
        or no more movement."""
        legal = battle.legal_actions()
        if self.situation.holding(battle, side) and Pass(side) in legal:
            return [Option("hold still: the victory is ours if the turn ends now", 1.0, Pass(side))]
        # the engine refuses to stop while a group may still bring waiting stands on
        options = [Option("no more movement", 0.5, Pass(side))] if Pass(side) in legal else []
        attempts = [a for a in legal if isinstance(a, MoveAttempt)]
        spec = battle.scenario.spec
        last_turn = battle.state.turn >= spec.turns
        if not attempts or (spec.victory.type == "destroy_percent" and last_turn):
            # after the last turn's fire phases a move can win nothing and only draws fire
            return options
        urgency = self.situation.urgency(battle, side)
        for a in attempts:
            if (battle.state.turn, side, a.group) in self.memory.settled:
                continue  # it was given the chance and every stand chose to stay
            members = [
                s
                for s in battle.state.stands.values()
                if s.side == side and s.group == a.group and not s.moved and not s.eliminated
            ]
            u = sum(urgency.get(s.id, 0.0) for s in members)
            u += sum(2.0 for s in members if self.guns.gun_exposed(battle, s))
            if battle.rules.postures:
                # a stand in the movement posture may not fire this turn (001 5.0): trying
                # costs nothing, so every group declared to move tries, the most urgent first
                # (it gets an order); each stand still stays if staying is better
                u += 1.0 + sum(self.posture.gain(battle, s.id) for s in members)
            how = "ordered" if a.ordered else "independent"
            options.append(Option(f"{how} move of group {a.group}", u, a))
        return options

    def moves(self, battle, side) -> list[Option]:
        """Move the group's stands one by one, each to its best position, skipping those
        better off where they are; end the action when none is left to move (the engine does
        not let it end while a stand waiting to enter has a way on)."""
        mg = battle.state.moving
        key = (battle.state.turn, mg.group)
        transport = battle.rules.has("transport")
        if transport:
            unload = self.full.unload(battle, side)  # riders off near the enemy
            if unload:
                return unload
        legal = battle.legal_actions()
        if transport:
            mount = self.full.mount(battle, side, legal, key)  # far from the fight: aboard
            if mount:
                return mount
        end = Option("end the movement action", 0.0, EndMoves(side))
        if self.situation.holding(battle, side) and end.action in legal:
            return [end]
        for sid in mg.stands:
            s = battle.stand(sid)
            if s.moved or s.eliminated or (key, sid) in self.memory.stay:
                continue
            move = self._stand_move(battle, s, key, transport)
            if move is not None:
                return [end, move] if end.action in legal else [move]
        if end.action not in legal:
            a = next(a for a in legal if isinstance(a, Move) and not battle.stand(a.stand).on_table)
            return [Option(f"bring {a.stand} on", 0.0, a)]
        self.memory.settled.add((battle.state.turn, side, mg.group))
        waiting = sorted(
            sid for k, sid in self.memory.waiting if k == key and not battle.stand(sid).moved
        )
        if waiting:
            verb = "waits" if len(waiting) == 1 else "wait"
            why = f"{', '.join(waiting)} {verb} for the others to go into the enemy's sight"
            return [Option(f"end the movement action: {why}", 0.0, end.action)]
        return [end]

    def _stand_move(self, battle, s, key, transport: bool) -> Option | None:
        """The move stand ``s`` of the moving group (``key``: turn, group) makes next, or None
        when it is better off where it is (then remembered in the memory's ``stay``): a gun
        on the table spreads out or gets away once found; in the full games an overrun or a
        move to close assault when worth it, or it waits to board a carrier; else its best
        planned position (``MovePlanner.plan_in_action``) worth more than staying by over
        0.02 stands, out of sight while it is short of company, or a ride fetched for a
        foot stand far from the fight."""
        sid = s.id
        if s.on_table and battle.indirect_reach(sid) is not None:
            gun = self.guns.gun_move(battle, s)  # spread out, or away once found
            if gun is not None:
                return gun
            self.memory.stay.add((key, sid))  # guns on the table fire from where they are
            return None
        if battle.rules.has("overrun"):  # an overrun, or closing in to assault, when worth it
            special = self.full.overrun(battle, s) or self.full.assault_move(battle, s)
            if special is not None:
                return special
            if self.full.ride_beside(battle, s) is not None:
                self.memory.stay.add((key, sid))  # it boards as that carrier's move begins
                return None
        best, stay = self.planner.plan_in_action(battle, s, key)
        hidden = self.memory.plan_hidden  # (asking the others below plans them too)
        if best is not None and best.score - stay > 0.02 and self._short_of_company(battle, s, key):
            self.memory.waiting.add((key, sid))
            best = hidden  # its best move that stays out of sight, if any
        fetch = self.full.fetch(battle, s) if transport and s.on_table else None
        if fetch is not None and fetch.score - stay > max(
            0.02, best.score - stay if best is not None else 0.0
        ):
            best = fetch  # a foot stand far from the fight gets a ride next turn
        if best is not None and best.score - stay > 0.02:
            return Option(best.label, best.score - stay, best.action)
        self.memory.stay.add((key, sid))  # better where it is: do not ask again this phase
        return None

    def _short_of_company(self, battle, s, key) -> bool:
        """Whether the move just planned for ``s`` (``MovePlanner.plan``) would take it from out of
        the
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
            or not self.memory.plan_exposed
            or self.memory.stay_exposed
            or self.situation.pressure(battle, side) >= self.level.crosses_alone
            # WWII groups are formed each turn from stands in contact, so company from the
            # same group seldom comes: waiting for it only lost time (docs/performance.md)
            or battle.rules.postures
        ):
            return False
        others = [
            o for o in battle.state.stands.values() if o.side == side and o.active and o.id != s.id
        ]
        need = min(self.level.crosses_with, len(others))
        enemies = self.situation.enemies(battle, side)
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
            if o.moved or o.group != s.group or (key, o.id) in self.memory.stay:
                continue
            if o.id not in battle.state.moving.stands:
                continue
            best, stay = self.planner.plan_in_action(battle, o, key)
            if best is not None and best.score - stay > 0.02 and self.memory.plan_exposed:
                company += 1  # it will go too
        return company < need
