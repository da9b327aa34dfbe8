"""How the battle stands for the scripted AI's side, as every chooser weighs it: the enemy
stands, how fast they close in, the clock's pressure, the caution the fire a position draws is
weighed with, a win in hand, and each stand's wish to move."""

from __future__ import annotations

import math

from game import sight_info
from game.ai.values import attack_value, first_shot


class Situation:
    """A part of :class:`game.ai.scripted.ScriptedAI`: the judgements the fire, posture and
    movement choosers share. Built with the AI's ``level`` (:class:`game.ai.levels.Level`),
    its ``memory`` (:class:`game.ai.memory.Memory`: ``snap``, ``pace``, ``offense``) and the
    ``outcome`` part (:class:`game.ai.outcome.Outcome`) for a level that weighs the battle's
    outcome."""

    def __init__(self, level, memory, outcome) -> None:
        self.level = level
        self.memory = memory
        self.outcome = outcome

    def enemies(self, battle, side):
        """The enemy stands of ``side`` that are active (``Stand.active``), in the battle's
        order."""
        return [s for s in battle.state.stands.values() if s.active and s.side != side]

    def approach(self, battle, side) -> float:
        """How fast the enemy has been closing in (inches a turn, at least 0): over every pair
        of turns this AI saw begin, the mean amount each enemy stand on the table came nearer to
        where our nearest stand then was, averaged over the turns. An enemy that marches on us
        scores about 1-3; one that wanders or holds back about 0."""
        t = battle.state.turn
        key = (t, side, len(self.memory.snap))
        if key in self.memory.pace:  # asked at every position scored; it changes once a turn
            return self.memory.pace[key]
        total, turns = 0.0, 0
        for u in range(1, t):
            prev, cur = self.memory.snap.get(u), self.memory.snap.get(u + 1)
            if not prev or not cur:
                continue
            ours = [(x, y) for x, y, sd in prev.values() if sd == side]
            closer = []
            for sid, (x, y, sd) in cur.items():
                if sd == side or sid not in prev or not ours:
                    continue
                px, py, _ = prev[sid]
                before = min(math.hypot(px - a, py - b) for a, b in ours)
                after = min(math.hypot(x - a, y - b) for a, b in ours)
                closer.append(before - after)
            if closer:
                total += sum(closer) / len(closer)
                turns += 1
        self.memory.pace[key] = max(0.0, total / turns) if turns else 0.0
        return self.memory.pace[key]

    def pressure(self, battle, side) -> float:
        """0..1: how hard the clock pushes. Early in the battle, or once the kills needed to
        win are in hand, a commander can be patient; late and short of them, he must attack.
        It rises from a quarter of the battle to full at 0.85 of it; in WWII, against an enemy
        that closes in slower than ``Level.hunts_below`` (``approach``, inches a turn), from
        the first turn: he holds back, so the kills must be sought out (docs/ai.md)."""
        spec = battle.scenario.spec
        enemy = battle.other(side)
        if battle.state.losses(battle.sides)[enemy] >= battle.kills_needed(side):
            return 0.0
        done = (battle.state.turn - 1) / max(1, spec.turns - 1)
        start = 0.25
        if (
            battle.rules.postures
            and self.level.hunts_below > 0
            and self.approach(battle, side) < self.level.hunts_below
        ):
            start = 0.0
        return max(0.0, min(1.0, (done - start) / 0.6))

    def caution(self, battle, side, press: float) -> float:
        """How much the fire a position draws weighs: less when the clock pushes (down to a
        fifth: a draw is no better than a loss to a side that came to win), and 30% more
        when one more loss would hand the enemy its victory. A level that weighs the battle's
        outcome (``Level.weighs_outcome``) weighs it instead by what one more loss costs
        the battle's expected score against what one more kill adds (``Outcome.outlook``): a draw
        is worth keeping, so the clock alone no longer makes it careless."""
        if self.level.weighs_outcome:
            o = self.outcome.outlook(battle, side)
            return self.level.caution * o.loss / o.kill
        need = battle.kills_needed(battle.other(side))
        if battle.state.losses(battle.sides)[side] + 1 >= need:
            return self.level.caution * 1.3
        return self.level.caution * max(0.2, 1.0 - 0.8 * press)

    def shot_weight(self, battle, side, press: float) -> float:
        """How much a position's shots weigh (1 and up): 1 plus the clock's pressure; for a
        level that weighs the battle's outcome, 1 plus how much fighting harder raises
        the battle's expected score (``Outlook.press``), so a side at a draw that an attack
        would more likely lose does not fire its way into the enemy's sight late."""
        if self.level.weighs_outcome:
            return 1.0 + self.outcome.outlook(battle, side).press
        return 1.0 + press

    def holding(self, battle, side) -> bool:
        """Whether ``side`` would win were the turn to end now (the engine's victory rule).
        Victory is checked only at the turn's end, so a stand lost to opportunity fire before
        then can still turn the win into a draw; a stand that does not move cannot be shot in
        the movement phase, so the side then stays put."""
        return self.level.holds_win and battle.winner_if_turn_ended() == side

    def urgency(self, battle, side) -> dict[str, float]:
        """How much each stand of ``side`` wants to move (stands): the fire it draws where it
        stands (weighted by caution) against the fire it can give from there, +1.2 when it can
        give none; 3 for a stand waiting to enter, 1.5 while no enemy is on the table. Also
        keeps each stand's best shot from where it stands in the memory's ``offense``."""
        enemies = self.enemies(battle, side)
        mine = [s for s in battle.state.stands.values() if s.side == side and s.active]
        urgency: dict[str, float] = {}
        self.memory.offense = {}
        if enemies and mine:
            # the fire each stand draws where it stands, against the fire it can give
            m_ab, m_ba = battle.table.sight_matrices(
                [s.pose() for s in mine],
                [e.pose() for e in enemies],
                battle.poses(),
                battle.sighting_in,
                battle.ruleset_data,
            )
            for i, s in enumerate(mine):
                offense, threat = 0.0, 0.0
                for j, e in enumerate(enemies):
                    if m_ab.clear[i, j]:
                        info = sight_info(m_ab, i, j)
                        fs = battle.fire_setup(s.id, e.id, "cannon", "planning", sight=info)
                        if fs.legal:
                            offense = max(offense, attack_value(battle, [fs], e))
                    if m_ba.clear[j, i]:
                        info = sight_info(m_ba, j, i)
                        fs = battle.fire_setup(e.id, s.id, "cannon", "planning", sight=info)
                        if fs.legal:
                            threat += first_shot(battle, e, s) * attack_value(battle, [fs], s)
                u = self.level.caution * threat * 3 - offense + (1.2 if offense == 0 else 0.0)
                urgency[s.id] = max(0.0, u)
                self.memory.offense[s.id] = offense
        for s in battle.state.stands.values():
            if s.side == side and not s.on_table and not s.eliminated:
                urgency[s.id] = 3.0
            elif s.side == side and s.active and not enemies:
                urgency[s.id] = 1.5  # nobody to see yet: close up
        return urgency
