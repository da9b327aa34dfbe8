"""A scripted opponent that plays like a sensible tank commander, for any side of any ruleset
the engine plays.

It sees the battle only through the engine (``legal_actions``, ``fire_options``, ``fire_setup``,
``opportunity_setups``, ``preview_move``, the table's sight matrices) and answers with the same
actions a player's clicks make. Every choice is a list of scored options; the best is taken
(a recruit adds noise and sometimes takes the second or third), and the top three of the last
decision are kept in ``last`` (its turn and phase in ``last_when``) for the explain overlay.

Values are in "stands": eliminating an enemy stand is worth about 1 (more for a GHQ or a hard
hitter), a D about 0.45 of that, an S 0.15.
"""

from __future__ import annotations

import dataclasses
import math
import random
from dataclasses import dataclass

import numpy as np
from shapely.geometry import Point

from game import (
    Action,
    Battle,
    ChooseFirst,
    CoveringFire,
    DeclareGroup,
    EndCoveringFire,
    EndMoves,
    Fire,
    FireSetup,
    LetPass,
    Move,
    MoveAttempt,
    OpportunityFire,
    Pass,
    StandPose,
    base_contact,
    combat,
    sight_info,
)


@dataclass(frozen=True)
class Level:
    """How well the AI plays.

    noise: random spread added to every score (stands). pick_from: it chooses among this many
    of the best options. reserve: what keeping a stand's shot for later is worth. min_attack:
    attacks worth less are declined. caution: weight of the enemy fire a position draws.
    directions: how many headings it tries for a move. faces_threat: the chance it remembers to
    turn its front towards the enemy at the end of a move (else it faces the way it drove, and
    may show its flank). holds_win: whether it stops moving once it would win were the turn
    to end now (a recruit forgets that victory counts only at the turn's end). crosses_with:
    how many other stands of ours (at most as many as it has) must be in the enemy's sight
    already, or about to go into it in the same movement action, before a stand moves into it,
    until the clock's pressure (0..1, ``_pressure``) reaches crosses_alone. One stand against
    three draws all their fire; a recruit (0) goes piecemeal. moves_at (WWII): a stand whose
    wish to move (stands, ``_urgency``) is above this takes the movement posture;
    posture_caution replaces caution where stands take postures (WWII: an enemy stand fires
    at most once a turn, and not while it moves). repositions (WWII): whether a stand that has
    a shot takes the movement posture whenever its best move is worth more over the turns left
    (``_better_moved``), even where the enemy cannot hit it; a recruit moves only the stands
    that are under fire or have nothing to shoot at. keeps_company (WWII, stands): what ending
    a move that gives no shot and draws no fire in base contact with a stand of ours is worth.
    The two may then be declared as one movement group and move on one cohesion roll (001
    8.1.2, 8.2) and one order; 0 (the recruit): each stand makes its own way. seeks_sight
    (WWII, inches): a stand with no shot closes in to 0.8 of its gun's range of an enemy stand
    it would see from there, but to this distance of one it would not (a wood, a hill or a
    stand blocks the sight line, 001 6.1), so that it goes round or through instead of waiting in range and blind;
    0 (the recruit): 0.8 of its range either way. hunts_below (WWII, inches a turn): while
    the enemy closes in slower than this (``_approach``), the clock (``_pressure``) runs from
    the first turn, since an enemy that holds back must be sought out; 0 (the recruit): the
    clock runs from a quarter of the battle whatever the enemy does.
    """

    name: str
    noise: float
    pick_from: int
    reserve: float
    min_attack: float
    caution: float
    directions: int
    faces_threat: float = 1.0
    holds_win: bool = True
    crosses_with: int = 0
    crosses_alone: float = 0.0
    moves_at: float = 0.8
    posture_caution: float = 0.25
    repositions: bool = False
    keeps_company: float = 0.0
    seeks_sight: float = 0.0
    hunts_below: float = 0.0


LEVELS = {
    "veteran": Level(
        "veteran",
        noise=0.0,
        pick_from=1,
        reserve=0.05,
        min_attack=0.03,
        caution=1.1,
        directions=12,
        crosses_with=2,
        crosses_alone=0.7,
        repositions=True,
        keeps_company=0.15,
        seeks_sight=4.0,
        hunts_below=0.5,
    ),
    "recruit": Level(
        "recruit",
        noise=0.25,
        pick_from=3,
        reserve=0.0,
        min_attack=0.0,
        caution=0.3,
        posture_caution=0.3,
        directions=6,
        faces_threat=0.5,
        holds_win=False,
    ),
}


@dataclass(frozen=True)
class Option:
    """One thing the AI could do, its score (stands) and a label a player can read."""

    label: str
    score: float
    action: Action


def stand_value(st) -> float:
    """What an enemy stand is worth: 1, more for a hard hitter, an ATGM or the GHQ."""
    v = 1.0 + 0.3 * min(st.unit.firepower, 30) / 25
    if st.unit.atgm is not None and not st.depleted:
        v += 0.15
    if st.ghq:
        v += 0.4
    return v


def first_shot(battle: Battle, enemy, stand) -> float:
    """How much more an enemy's gun weighs when it fires before ours can answer: 1.5 when the
    engine says the enemy fires in the 1st fire phase and our stand does not (000 05.00)."""
    first = battle.rules.fires_in_first_phase
    return 1.5 if first(enemy) and not first(stand) else 1.0


def fired(chosen: list[FireSetup]) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The attackers and their weapons of the chosen shots, as an attack action names them."""
    return tuple(fs.attacker for fs in chosen), tuple(fs.weapon for fs in chosen)


def worth(S: bool, D: bool, E: bool, value: float) -> float:
    """The damage done to a stand of ``value`` by its markers."""
    if E:
        return value
    return value * (0.15 * S + 0.45 * D + (0.05 if S and D else 0.0))


def attack_value(battle: Battle, setups: list[FireSetup], target) -> float:
    """Expected damage (stands) of an attack, from the engine's exact odds."""
    if not setups:
        return 0.0
    odds = combat.attack_odds(battle.crt, setups, target.S, target.D)
    v = stand_value(target)
    base = worth(target.S, target.D, False, v)
    f = odds["final"]
    return (
        f["unchanged"] * base
        + f["S"] * worth(True, False, False, v)
        + f["D"] * worth(False, True, False, v)
        + f["SD"] * worth(True, True, False, v)
        + f["eliminated"] * v
    ) - base


class ScriptedAI:
    """The scripted opponent. ``choose(battle)`` returns one legal action for the side to act;
    deterministic for a seed (its own random stream; the battle's dice are never touched)."""

    def __init__(self, seed: int = 0, level: str = "veteran"):
        if level not in LEVELS:
            raise ValueError(f"unknown AI level {level!r} (known: {', '.join(LEVELS)})")
        self.level = LEVELS[level]
        self.name = f"ai:{level}"
        self.rng = random.Random(seed)
        self.last: list[Option] = []
        self.last_when: tuple[int, str] | None = None  # (turn, phase) of the last decision
        self._stay: set = set()  # stands that chose to stay in a movement action
        self._waiting: set = set()  # stands kept from going into sight with too little company
        self._plans: dict = {}  # (movement action, stand) -> (the table then, its plan)
        self._exposed: list[bool] = []  # per pose last scored: in an enemy's sight
        self._plan_exposed = False  # the last planned move ends in an enemy's sight
        self._stay_exposed = False  # the last planned stand is in an enemy's sight now
        self._plan_hidden: Option | None = None  # its best move out of every enemy's sight
        self._settled: set = set()  # (turn, side, group) with nothing worth moving
        self._snap: dict[int, dict] = {}  # turn -> {stand id: (x, y, side)} when it began
        self._pace: dict[tuple, float] = {}  # (turn, side, turns seen) -> _approach's answer
        self._hidden_at: dict[tuple, bool] = {}  # (x, y) -> ``_hidden``
        self._offense: dict[str, float] = {}  # stand -> its best shot where it stands
        self._moved_better: dict[tuple, float] = {}  # (turn, stand) -> ``_better_moved``

    # ---------------------------------------------------------------- choosing

    def choose(self, battle: Battle) -> Action:
        """One legal action for the side to act. Raises ValueError when the battle is over."""
        if battle.finished:
            raise ValueError("the battle is over")
        if battle.state.turn not in self._snap:
            self._snap[battle.state.turn] = {
                st.id: (st.x, st.y, st.side)
                for st in battle.state.stands.values()
                if st.active and st.on_table
            }
        if battle.rules.postures and self.level.caution != self.level.posture_caution:
            # an enemy stand fires at most once a turn, and not at all while it moves
            self.level = dataclasses.replace(self.level, caution=self.level.posture_caution)
        options = self.options(battle)
        if self.level.noise:
            options = [
                Option(o.label, o.score + self.rng.gauss(0, self.level.noise), o.action)
                for o in options
            ]
        options.sort(key=lambda o: -o.score)
        self.last = options[:3]
        self.last_when = (battle.state.turn, battle.state.phase)
        k = min(self.level.pick_from, len(options))
        return options[self.rng.randrange(k)].action if k > 1 else options[0].action

    def options(self, battle: Battle) -> list[Option]:
        """Every option the AI weighs for the decision at hand, scored."""
        st = battle.state
        side = st.to_act
        phase = battle.phase
        if st.phase == "setup":
            return [Option("keep the battle groups", 0.0, Pass(side))]
        if phase and phase.choose_first and not st.first_chosen:
            return self._choose_first(battle, side, phase.kind)
        if st.covering is not None:
            return self._covering(battle, side)
        if st.pending is not None:
            return self._opportunity(battle, side)
        if phase and phase.kind == "posture":
            return self._posture(battle, side)
        if phase and phase.kind == "fire":
            return self._fire(battle, side)
        if phase and phase.kind == "movement":
            if st.moving is not None:
                return self._move(battle, side)
            return self._attempt(battle, side)
        return [Option("pass", 0.0, a) for a in battle.legal_actions()[:1]]

    def _choose_first(self, battle, side, kind) -> list[Option]:
        # shoot first (fewer enemy guns survive to answer); move second (the enemy shows its
        # hand and walks into our opportunity fire)
        me_first = kind == "fire"
        enemy = battle.other(side)
        return [
            Option("we act first", 1.0 if me_first else 0.0, ChooseFirst(side, side)),
            Option("the enemy acts first", 0.0 if me_first else 1.0, ChooseFirst(side, enemy)),
        ]

    # ---------------------------------------------------------------- fire

    def _best_subset(
        self, battle, setups: list[FireSetup], target, reserve: float
    ) -> tuple[list[FireSetup], float]:
        """Which of the possible shots to take at one target: best first, each further stand
        only while it adds more than keeping its shot is worth."""
        by_attacker: dict[str, FireSetup] = {}
        single: dict[str, float] = {}
        for fs in setups:
            v = attack_value(battle, [fs], target)
            if fs.attacker not in single or v > single[fs.attacker]:
                single[fs.attacker] = v
                by_attacker[fs.attacker] = fs
        order = sorted(by_attacker, key=lambda a: -single[a])
        chosen: list[FireSetup] = []
        value = 0.0
        for a in order:
            trial = chosen + [by_attacker[a]]
            v = attack_value(battle, trial, target)
            if not chosen or v - value > reserve:
                chosen, value = trial, v
        return chosen, value - reserve * len(chosen)

    def _fire(self, battle, side) -> list[Option]:
        level = self.level
        # on the last turn (WWII) a shot kept for later can only be taken at a stand that
        # moves, and the victory is counted at the turn's end: any shot worth anything is
        # taken (seeds 5001-5100: against random 83 won -> 84, against the recruit 75 -> 77)
        last = battle.rules.postures and battle.state.turn >= battle.scenario.spec.turns
        options = [Option("hold fire", 0.0 if last else level.min_attack, Pass(side))]
        tl4_again = battle.state.phase == "fire1"
        # once the win is ours if the turn ends now, a shot in the last fire phase only helps
        # by stopping an enemy stand that could still fire in it (and firing bares our cover)
        holding = not tl4_again and self._holding(battle, side)
        for target, setups in battle.fire_options().items():
            t = battle.stand(target)
            if holding and not battle.rules.may_fire_in(t, battle.state.phase):
                continue
            reserve = 0.0 if last else level.reserve * (0.3 if tl4_again else 1.0)
            chosen, score = self._best_subset(battle, setups, t, reserve)
            if chosen:
                names = ", ".join(
                    f"{fs.attacker}{'(ATGM)' if fs.weapon == 'atgm' else ''}" for fs in chosen
                )
                options.append(
                    Option(
                        f"fire at {target} with {names}", score, Fire(side, target, *fired(chosen))
                    )
                )
        return options

    def _opportunity(self, battle, side) -> list[Option]:
        pm = battle.state.pending
        target = battle.stand(pm.stand)
        options = [Option("let it pass", self.level.min_attack + 0.02, LetPass(side))]
        best: Option | None = None
        for step, setups in battle.opportunity_setups().items():
            chosen, score = self._best_subset(battle, setups, target, self.level.reserve)
            if chosen and (best is None or score > best.score):
                best = Option(
                    f"fire at {pm.stand} at step {step} with {', '.join(fired(chosen)[0])}",
                    score,
                    OpportunityFire(side, step, *fired(chosen)),
                )
        if best is not None:
            options.append(best)
        return options

    def _covering(self, battle, side) -> list[Option]:
        """Covering fire at the enemy stands that just opportunity-fired (001 7.5): each
        target's best subset of our eligible stands, by the engine's odds at +3 cohesion."""
        options = [Option("no covering fire", self.level.min_attack, EndCoveringFire(side))]
        targets = {a.target: a for a in battle.legal_actions() if isinstance(a, CoveringFire)}
        for target, a in targets.items():
            t = battle.stand(target)
            setups = [
                battle.fire_setup(f, target, w, "covering")
                for f, w in zip(a.attackers, a.weapons, strict=True)
            ]
            chosen, score = self._best_subset(battle, setups, t, self.level.reserve)
            if chosen:
                options.append(
                    Option(
                        f"covering fire at {target} with {', '.join(fired(chosen)[0])}",
                        score,
                        CoveringFire(side, target, *fired(chosen)),
                    )
                )
        return options

    # ---------------------------------------------------------------- movement

    def _enemies(self, battle, side):
        return [s for s in battle.state.stands.values() if s.active and s.side != side]

    def _phantoms(self, battle, side) -> list[tuple]:
        """Where the enemy stands still waiting to enter will likely be once they have come on
        (the scenario sheets bring both sides on on turn 1): 0.9 of a full move (inches, their
        speed in movement points on clear ground) straight in from where they wait, facing in.
        Returns (stand, StandPose) pairs; none once every enemy stand is on the table."""
        out = []
        t = battle.table
        for e in battle.state.stands.values():
            if e.side == side or e.on_table or e.eliminated:
                continue
            edge = battle.side_spec[e.side].entry_edge
            d = 0.9 * e.unit.speed
            x, y, f = {
                "left": (min(d, t.width - 0.5), e.y, 0.0),
                "right": (max(t.width - d, 0.5), e.y, 180.0),
                "bottom": (e.x, min(d, t.depth - 0.5), 90.0),
                "top": (e.x, max(t.depth - d, 0.5), 270.0),
            }.get(edge, (e.x, e.y, e.facing_deg))
            out.append((e, StandPose(e.id, e.side, x, y, f)))
        return out

    def _approach(self, battle, side) -> float:
        """How fast the enemy has been closing in (inches a turn, at least 0): over every pair
        of turns this AI saw begin, the mean amount each enemy stand on the table came nearer to
        where our nearest stand then was, averaged over the turns. An enemy that marches on us
        scores about 1-3; one that wanders or holds back about 0."""
        t = battle.state.turn
        key = (t, side, len(self._snap))
        if key in self._pace:  # asked at every position scored; it changes once a turn
            return self._pace[key]
        total, turns = 0.0, 0
        for u in range(1, t):
            prev, cur = self._snap.get(u), self._snap.get(u + 1)
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
        self._pace[key] = max(0.0, total / turns) if turns else 0.0
        return self._pace[key]

    def _closing(self, battle, s, enemies, press: float) -> list[tuple]:
        """Where enemy stands that fire before ``s`` (a higher tech level, 000 05.00) and have
        not moved yet this movement phase could be once they have: closer to ``s`` by three
        times the enemy's pace (``_approach``), at most half a move and never nearer than 4",
        facing it. Returns (stand, StandPose, weight) triples; the weight (0.75, fading to 0 as
        the clock presses) is how much the fire it could give from there counts. A stand that
        stops where a faster-firing enemy will see it after closing in is shot first next turn."""
        if not battle.phase or battle.phase.kind != "movement":
            return []
        faster = [
            e for e in enemies if not e.moved and e.on_table and first_shot(battle, e, s) > 1.0
        ]
        pace = 3.0 * self._approach(battle, s.side) if faster else 0.0
        t = battle.table
        out = []
        for e in faster:
            dx, dy = s.x - e.x, s.y - e.y
            d = math.hypot(dx, dy) or 1.0
            k = min(0.5 * e.unit.speed, max(0.0, d - 4.0), pace)
            x = min(max(e.x + k * dx / d, 0.5), t.width - 0.5)
            y = min(max(e.y + k * dy / d, 0.5), t.depth - 0.5)
            pose = StandPose(e.id, e.side, x, y, math.degrees(math.atan2(dy, dx)) % 360)
            out.append((e, pose, 0.75 * (1.0 - press)))
        return out

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
            if battle.rules.postures:
                # a stand in the movement posture may not fire this turn (001 5.0): trying
                # costs nothing, so every group declared to move tries, the most urgent first
                # (it gets an order); each stand still stays if staying is better
                u += 1.0 + sum(self._gain(battle, s.id) for s in members)
            how = "ordered" if a.ordered else "independent"
            options.append(Option(f"{how} move of group {a.group}", u, a))
        return options

    def _urgency(self, battle, side) -> dict[str, float]:
        """How much each stand of ``side`` wants to move (stands): the fire it draws where it
        stands (weighted by caution) against the fire it can give from there, +1.2 when it can
        give none; 3 for a stand waiting to enter, 1.5 while no enemy is on the table. Also
        keeps each stand's best shot from where it stands in ``_offense``."""
        enemies = self._enemies(battle, side)
        mine = [s for s in battle.state.stands.values() if s.side == side and s.active]
        urgency: dict[str, float] = {}
        self._offense = {}
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
                self._offense[s.id] = offense
        for s in battle.state.stands.values():
            if s.side == side and not s.on_table and not s.eliminated:
                urgency[s.id] = 3.0
            elif s.side == side and s.active and not enemies:
                urgency[s.id] = 1.5  # nobody to see yet: close up
        return urgency

    def _posture(self, battle, side) -> list[Option]:
        """Which stands to commit to the movement posture this turn (WWII, 001 5.0 step 2).
        A stand that wants to move (``_urgency`` over ``Level.moves_at``: it has no shot, or
        draws more fire than it gives) goes into a movement group with those of its chain of
        base contact that want to move too, and so does a stand whose best move gains more
        over the turns left than its shot now is worth (``_better_moved``; a group of those
        scores that gain only for a level that repositions); the rest stay to fire and to
        opportunity-fire.
        Nobody moves on the last turn or while the victory is ours if the turn ends now."""
        options = [Option("the rest stay in the firing posture", 0.0, Pass(side))]
        spec = battle.scenario.spec
        if self._holding(battle, side) or (
            spec.victory.type == "destroy_percent" and battle.state.turn >= spec.turns
        ):
            return options
        urgency = self._urgency(battle, side)
        why: dict[str, str] = {}  # mover -> why it moves
        for s in battle.undeclared(side):
            if urgency.get(s.id, 0.0) > self.level.moves_at:
                why[s.id] = "no shot" if self._offense.get(s.id, 0.0) <= 0 else "under fire"
            elif self._better_moved(battle, s) > 0:
                why[s.id] = "a better position"
        if not why:
            return options
        singles_only = side in battle.state.singles_declared  # 001 5.0: groups first
        gain = self._gain if self.level.repositions else lambda battle, i: 0.0
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

    def _better_moved(self, battle, s) -> float:
        """How much better off (stands; > 0 when it is) a stand that has a shot from where it
        stands would be to give it up this turn and move (WWII: a stand in the movement
        posture does not fire, 001 5.0): the gain in the worth of its position from its best
        move (``_plan``, stands a turn), earned in each turn left after this one (at most
        three), less this turn's shot (``_offense``, weighed by the clock as positions are)
        and a margin of 0.05. Decided once a turn for each stand. A stand that trades shots
        where its own hardly hurt goes round to a flank or closes in (docs/performance.md)."""
        key = (battle.state.turn, s.id)
        if key not in self._moved_better:
            left = min(3, battle.scenario.spec.turns - battle.state.turn)
            shot = self._offense.get(s.id, 0.0) * (1.0 + self._pressure(battle, s.side))
            margin = -1.0
            if left > 0 and s.on_table:
                best, stay = self._plan(battle, s)
                if best is not None:
                    margin = (best.score - stay) * left - shot - 0.05
            self._moved_better[key] = margin
        return self._moved_better[key]

    def _gain(self, battle, sid: str) -> float:
        """What moving a stand gains over its shot this turn (stands, ``_better_moved``), as
        already decided for this turn; 0 where it gains nothing or was not asked."""
        return max(0.0, self._moved_better.get((battle.state.turn, sid), 0.0))

    def _holding(self, battle, side) -> bool:
        """Whether ``side`` would win were the turn to end now (the engine's victory rule).
        Victory is checked only at the turn's end, so a stand lost to opportunity fire before
        then can still turn the win into a draw; a stand that does not move cannot be shot in
        the movement phase, so the side then stays put."""
        return self.level.holds_win and battle.winner_if_turn_ended() == side

    def _move(self, battle, side) -> list[Option]:
        """Move the group's stands one by one, each to its best position, skipping those
        better off where they are; end the action when none is left to move (the engine does
        not let it end while a stand waiting to enter has a way on)."""
        mg = battle.state.moving
        legal = battle.legal_actions()
        end = Option("end the movement action", 0.0, EndMoves(side))
        if self._holding(battle, side) and end.action in legal:
            return [end]
        key = (battle.state.turn, mg.group)
        for sid in mg.stands:
            s = battle.stand(sid)
            if s.moved or s.eliminated or (key, sid) in self._stay:
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

    def _plan(self, battle, s) -> tuple[Option | None, float]:
        """The best move for one stand and the score of staying put. Also sets
        ``_plan_exposed`` (the best move ends in an enemy's sight), ``_stay_exposed`` (the
        stand is in sight now) and ``_plan_hidden`` (its best move ending out of every enemy's
        sight, or None), from the same scores."""
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
        risks = self._path_risks(battle, s, [c[3] for c in cands], enemies)
        survive = [1.0 - k for k in self._path_kill] + [1.0]  # staying risks no shot on the way
        scores = self._score_positions(battle, s, poses, enemies, goal, survive)
        caution = self._caution(battle, side, self._pressure(battle, side))
        for i, r in enumerate(risks):
            scores[i] -= caution * r
        stay = scores[-1] if stay_pose is not None else -3.0
        exposed = self._exposed
        best_i = max(range(len(cands)), key=lambda i: scores[i])
        self._plan_exposed = exposed[best_i]
        self._stay_exposed = stay_pose is not None and exposed[-1]
        hidden = [i for i in range(len(cands)) if not exposed[i]]
        if hidden:  # only a level that waits for company takes it, and it never forgets to turn
            h = max(hidden, key=lambda i: scores[i])
            (hx, hy), hpath, hfacing, _ = cands[h]
            self._plan_hidden = Option(
                f"move {s.id} to ({hx:.1f}, {hy:.1f}), out of sight",
                scores[h],
                Move(side, s.id, hpath, hfacing),
            )
        end, path, facing, _ = cands[best_i]
        if self.level.faces_threat < 1.0 and self.rng.random() >= self.level.faces_threat:
            (x0, y0), (x1, y1) = path[-2:]
            facing = math.degrees(math.atan2(y1 - y0, x1 - x0)) % 360  # forgot to turn
        label = f"move {s.id} to ({end[0]:.1f}, {end[1]:.1f})"
        return Option(label, scores[best_i], Move(side, s.id, path, facing)), stay

    def _goal(self, battle, s, enemies) -> tuple[float, float]:
        """Where the fight is: the nearest enemies, or the far side of the table."""
        if enemies:
            near = sorted(enemies, key=lambda e: math.hypot(e.x - s.x, e.y - s.y))[:3]
            return (sum(e.x for e in near) / len(near), sum(e.y for e in near) / len(near))
        t = battle.table
        edge = battle.side_spec[battle.other(s.side)].entry_edge
        return {
            "left": (0.4 * t.width, t.depth / 2),
            "right": (0.6 * t.width, t.depth / 2),
            "bottom": (t.width / 2, 0.4 * t.depth),
            "top": (t.width / 2, 0.6 * t.depth),
        }.get(edge, (t.width / 2, t.depth / 2))

    def _covered(self, battle, p) -> bool:
        """Whether a stand at p has cover from the terrain (woods, buildings, a crest...)."""
        here = battle.table.terrain_at(p.x, p.y)
        return here.hill_zone == "hilltop" or any(
            battle.data.terrain[k].combat_vehicle > 0 for k in here.areas
        )

    def _candidates(self, battle, s, mp, goal) -> list[tuple]:
        """Reachable end points (straight moves and nearby cover) with the straight path there,
        the facing towards ``goal`` and the step points the engine would walk."""
        t = battle.table
        starts = [(s.x, s.y)]
        if not s.on_table:
            edge = battle.side_spec[s.side].entry_edge
            vertical = edge in ("left", "right")
            base = s.y if vertical else s.x
            limit = t.depth if vertical else t.width
            starts = [
                (s.x, v) if vertical else (v, s.y)
                for v in (base, base - 3, base + 3, base - 6, base + 6)
                if 0.5 <= v <= limit - 0.5
            ]
        out = []
        seen = set()
        n = self.level.directions
        targets: list[tuple[tuple, tuple]] = []
        for x0, y0 in starts:
            if not s.on_table:
                inward = math.atan2(goal[1] - y0, goal[0] - x0)
                headings = [inward + math.radians(d) for d in (-40, -20, 0, 20, 40)]
                fracs = (0.5, 1.0)
            else:
                headings = [2 * math.pi * k / n for k in range(n)]
                fracs = (0.4, 1.0)
            for a in headings:
                for f in fracs:
                    x = min(max(x0 + mp * f * math.cos(a), 0.5), t.width - 0.5)
                    y = min(max(y0 + mp * f * math.sin(a), 0.5), t.depth - 0.5)
                    targets.append(((x0, y0), (x, y)))
        if s.on_table:
            for p in self._cover_points(battle, s, mp):
                targets.append(((s.x, s.y), p))
        for start, end in targets:
            path = (start, end)
            if math.dist(start, end) < 0.5 or battle.path_problem(s.id, path) is not None:
                continue
            walk = battle.preview_move(s.id, path)
            if len(walk.points) < 2:
                continue
            ex, ey = walk.points[-1]
            key = (round(ex, 1), round(ey, 1))
            if key in seen:
                continue
            seen.add(key)
            facing = math.degrees(math.atan2(goal[1] - ey, goal[0] - ex)) % 360
            if not battle.room_at(ex, ey, facing, ignore=s.id):
                continue
            out.append(((ex, ey), (start, (ex, ey)), facing, walk.points))
        if s.on_table and battle.rules.postures:
            # (WWII only: in Modern, 100 battles against the recruit went from 72 won to 62)
            out += self._contact_candidates(battle, s, mp, seen)
        moving = battle.phase is not None and battle.phase.kind == "movement"
        if battle.rules.postures and self.level.keeps_company and moving:
            # (not when planning in the posture phase: there only stands that have a shot
            # are planned, and the company counts only where there is none)
            out += self._formation_candidates(battle, s, mp, seen)
        return out

    def _company(self, battle, s) -> list[StandPose]:
        """Where the other stands of our side will be when ``s`` ends its move: those that
        moved already this phase or are not in the movement action under way."""
        mv = battle.state.moving
        still = set(mv.stands) if mv is not None and mv.side == s.side else set()
        return [
            o.pose()
            for o in battle.state.stands.values()
            if o.side == s.side and o.active and o.id != s.id and (o.moved or o.id not in still)
        ]

    def _formation_candidates(self, battle, s, mp, seen) -> list[tuple]:
        """Moves to the side of a stand of ours, square to it and facing as it does, so that
        the two are in base contact and next turn may be one movement group (001 8.1.2).
        Only beside the 4 nearest of ours whose centres are within ``mp`` + 1.5 inches (the
        place beside one is 1" from its centre), and only where the whole footprint stays on
        the table, as for ``_candidates``. Same tuples as ``_candidates``."""
        out = []
        t = battle.table
        near = [f for f in self._company(battle, s) if math.hypot(f.x - s.x, f.y - s.y) <= mp + 1.5]
        near.sort(key=lambda f: math.hypot(f.x - s.x, f.y - s.y))
        for f in near[:4]:
            a = math.radians(f.facing_deg + 90.0)
            for k in (1.0, -1.0):
                end = (f.x + k * math.cos(a), f.y + k * math.sin(a))
                if not (0.5 <= end[0] <= t.width - 0.5 and 0.5 <= end[1] <= t.depth - 0.5):
                    continue
                if s.on_table:
                    start = (s.x, s.y)
                else:
                    edge = battle.side_spec[s.side].entry_edge
                    start = (s.x, end[1]) if edge in ("left", "right") else (end[0], s.y)
                if math.dist(start, end) >= 0.5:
                    out += self._exactly_to(battle, s, (start, end), end, f.facing_deg, seen)
        return out

    def _exactly_to(self, battle, s, path, end, facing, seen) -> list[tuple]:
        """``[(end, path, facing, walk)]`` if the engine would walk ``s`` along ``path``
        (inches) all the way to ``end`` this move and a stand fits there at ``facing``
        (degrees), and no candidate ended there yet (``seen``, which it adds to); else []."""
        if battle.path_problem(s.id, path) is not None:
            return []
        walk = battle.preview_move(s.id, path)
        if len(walk.points) < 2 or math.dist(walk.points[-1], end) > 1e-6:
            return []  # it is there already, or would not get there this move
        key = (round(end[0], 1), round(end[1], 1))
        if key in seen or not battle.room_at(end[0], end[1], facing, ignore=s.id):
            return []
        seen.add(key)
        return [(end, path, facing, walk.points)]

    def _contact_candidates(self, battle, s, mp, seen) -> list[tuple]:
        """Moves into base contact with an enemy stand within reach: square to its front,
        either flank or its rear, the last inch straight in so that the footprints touch
        (edge to edge, 1" centre to centre) and our front faces it. Sight between stands in
        contact is never blocked by the terrain they stand in (000 07.01, 001 6.1), so this is
        the only way to reach a stand hidden deep in a wood. Same tuples as ``_candidates``."""
        out = []
        for e in self._enemies(battle, s.side):
            if not e.on_table or math.hypot(e.x - s.x, e.y - s.y) > mp + 2.0:
                continue
            for turn in (0.0, 90.0, 180.0, 270.0):
                a = math.radians(e.facing_deg + turn)
                nx, ny = math.cos(a), math.sin(a)
                end = (e.x + nx, e.y + ny)
                if math.hypot(end[0] - s.x, end[1] - s.y) > mp + 0.5:
                    continue
                lead = (e.x + 2.0 * nx, e.y + 2.0 * ny)
                far = math.dist((s.x, s.y), lead) > 0.25
                path = ((s.x, s.y), lead, end) if far else ((s.x, s.y), end)
                # (the way in square to a stand at the table's edge may be off it: left out)
                facing = (math.degrees(a) + 180.0) % 360  # our front towards it
                out += self._exactly_to(battle, s, path, end, facing, seen)
        return out

    def _hidden(self, battle, p) -> bool:
        """Whether a stand at pose ``p`` is deep inside terrain that blocks sight (its centre
        more than 0.8" inside), so that only a stand in base contact can see it (001 6.1).
        Where to go only: whether a shot may be taken is always the engine's answer. Kept per
        point, as enemy stands seldom move between two plans."""
        key = (p.x, p.y)
        if key not in self._hidden_at:
            at = Point(p.x, p.y)
            self._hidden_at[key] = any(
                battle.data.terrain[f.kind].blocks_sight
                and f.geometry.contains(at)
                and f.geometry.boundary.distance(at) > 0.8
                for f in battle.table.areas
            )
        return self._hidden_at[key]

    def _cover_points(self, battle, s, mp) -> list[tuple[float, float]]:
        """Points just inside the edges of nearby cover (a stand there sees out) and on hill
        crests."""
        pts = []
        for f in battle.table.areas:
            tt = battle.data.terrain[f.kind]
            if tt.combat_vehicle <= 0 or tt.move_cost(s.unit.movement_class) is None:
                continue
            c = f.geometry.representative_point()
            if math.hypot(c.x - s.x, c.y - s.y) > mp + 4:
                continue
            for vx, vy in list(
                getattr(f.geometry, "exterior", f.geometry.convex_hull.exterior).coords
            )[:-1]:
                d = math.hypot(c.x - vx, c.y - vy) or 1.0
                pts.append((vx + 0.4 * (c.x - vx) / d, vy + 0.4 * (c.y - vy) / d))
        for crest in battle.table.hill_crests:
            if crest.is_empty:
                continue
            c = crest.representative_point()
            if math.hypot(c.x - s.x, c.y - s.y) <= mp + 4:
                pts.append((c.x, c.y))
        pts.sort(key=lambda p: math.hypot(p[0] - s.x, p[1] - s.y))
        return [p for p in pts if math.hypot(p[0] - s.x, p[1] - s.y) <= mp * 1.2][:8]

    def _pressure(self, battle, side) -> float:
        """0..1: how hard the clock pushes. Early in the battle, or once the kills needed to
        win are in hand, a commander can be patient; late and short of them, he must attack.
        It rises from a quarter of the battle to full at 0.85 of it; in WWII, against an enemy
        that closes in slower than ``Level.hunts_below`` (``_approach``, inches a turn), from
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
            and self._approach(battle, side) < self.level.hunts_below
        ):
            start = 0.0
        return max(0.0, min(1.0, (done - start) / 0.6))

    def _caution(self, battle, side, press: float) -> float:
        """How much the fire a position draws weighs: less when the clock pushes (down to a
        fifth: a draw is no better than a loss to a side that came to win), and 30% more
        when one more loss would hand the enemy its victory."""
        need = battle.kills_needed(battle.other(side))
        if battle.state.losses(battle.sides)[side] + 1 >= need:
            return self.level.caution * 1.3
        return self.level.caution * max(0.2, 1.0 - 0.8 * press)

    def _path_risks(self, battle, s, walks, enemies) -> list[float]:
        """The opportunity fire each path invites: the best attack the enemy's eligible stands
        could make at a point of it, the stand facing the way it drives (000 07.06.05).

        ``walks`` are the step points (inches, 0.5" apart, the start first) the engine would
        walk. Sight is checked at every step, the start included (the engine offers that point
        too, so a stand in view invites fire just by moving off), so a brief gap in cover is
        not missed; the attacks are then weighed at every 4th point each firer sees and at the
        last, which bounds the cost. Also sets ``self._path_kill``: per path, the best chance
        of eliminating the stand on it. Planned in the posture phase (WWII), before the enemy
        has declared all its movement groups, each enemy stand on the table not yet declared
        to move is asked about as if it stays in the firing posture (the engine's rule)."""
        may = battle.rules.may_opportunity_fire
        if battle.phase and battle.phase.kind == "posture":
            firers = [
                e
                for e in enemies
                if e.on_table and may(dataclasses.replace(e, posture=e.posture or "firing"))
            ]
        else:
            firers = [e for e in enemies if may(e)]
        self._path_kill = [0.0] * len(walks)
        if not firers or "movement" in s.attacked_in:
            return [0.0] * len(walks)
        samples: list[StandPose] = []
        owner: list[int] = []
        for i, pts in enumerate(walks):
            for k in range(len(pts)):
                (x0, y0), (x1, y1) = (pts[0], pts[1]) if k == 0 else (pts[k - 1], pts[k])
                heading = math.degrees(math.atan2(y1 - y0, x1 - x0)) % 360
                x, y = pts[k]
                samples.append(StandPose(s.id, s.side, x, y, heading))
                owner.append(i)
        others = [o.pose() for o in battle.state.stands.values() if o.active and o.id != s.id] + [
            w.pose() for w in battle.state.wrecks
        ]
        m = battle.table.sight_matrix(
            [f.pose() for f in firers], samples, others, battle.sighting_in, battle.ruleset_data
        )
        reach = np.array([f.unit.max_range_in for f in firers], dtype=float)[:, None]
        seen = m.clear & (m.range_band_in <= reach)  # firer x sample
        weigh: set[int] = set()
        start = 0
        for pts in walks:
            for row in seen[:, start : start + len(pts)]:
                ks = np.flatnonzero(row)
                if len(ks):
                    weigh.update(int(k) + start for k in ks[::4])
                    weigh.add(int(ks[-1]) + start)
            start += len(pts)
        risks = [0.0] * len(walks)
        for k in sorted(weigh):
            p = samples[k]
            setups = []
            for j, f in enumerate(firers):
                if seen[j, k]:
                    fs = self._best_shot(battle, f, s, sight_info(m, j, k), target_pose=p)
                    if fs is not None:
                        setups.append(fs)
            if setups:
                i = owner[k]
                risks[i] = max(risks[i], attack_value(battle, setups, s))
                kill = combat.attack_odds(battle.crt, setups, s.S, s.D)["p_eliminated"]
                self._path_kill[i] = max(self._path_kill[i], kill)
        return risks

    def _best_shot(
        self, battle, firer, target, sight, target_pose=None, attacker_pose=None, next_turn=False
    ):
        """The firer's best legal shot at the target, by expected damage (stands): its
        cannon or, if it carries one that is not depleted, its ATGM (000 07.03.03, 07.04), as
        the engine's planning FireSetup, or None when neither may fire. ``sight`` is the
        line-of-sight answer for the two poses; the poses default to where the stands are.
        ``next_turn``: a shot of the next turn's fire phases, when this turn's fired markers
        are off (the target's cover then counts, 000 07.01.03, 07.07)."""
        weapons = ("cannon", "atgm") if firer.unit.atgm and not firer.depleted else ("cannon",)
        best, value = None, -1.0
        for w in weapons:
            fs = battle.fire_setup(
                firer.id,
                target.id,
                w,
                "planning",
                target_pose=target_pose,
                sight=sight,
                attacker_pose=attacker_pose,
                next_turn=next_turn,
            )
            if fs.legal:
                v = attack_value(battle, [fs], target)
                if v > value:
                    best, value = fs, v
        return best

    def _score_positions(self, battle, s, poses, enemies, goal, survive=None) -> list[float]:
        """Each position's worth: the shots it gives next turn, less the fire it draws
        (cover, hull-down and facing count through the engine's own fire setups), less the
        distance still to cover towards the fight (into range of an enemy it would see from
        there, nearer to one it would not: ``Level.seeks_sight``), less straying from the
        group, plus ``Level.keeps_company`` (WWII) where a stand on its way ends beside one of
        ours. Enemy stands still waiting to enter count where they will likely be after their
        first move (``_phantoms``), so a stand entering on turn 1 does not stop in the open in
        front of where the enemy will arrive; enemy stands that fire first and have yet to move
        count also where they could close in to (``_closing``), as a threat only."""
        side = s.side
        phantoms = self._phantoms(battle, side)
        real = len(enemies)  # enemy stands on the table; phantoms and closing ones follow
        self._exposed = [False] * len(poses)  # whether an enemy on the table sees each pose
        if not enemies and not phantoms:  # nobody to see: come forward, from cover to cover
            return [
                -math.hypot(p.x - goal[0], p.y - goal[1]) / 10
                + (0.6 if self._covered(battle, p) else 0.0)
                for p in poses
            ]
        others = [o.pose() for o in battle.state.stands.values() if o.active and o.id != s.id] + [
            w.pose() for w in battle.state.wrecks
        ]
        press = self._pressure(battle, side)
        closing = self._closing(battle, s, enemies, press)
        # enemies on the table where they are, those waiting where they will likely be, and
        # those that fire first where they could close in to (their fire only, weighed)
        epose = (
            [e.pose() for e in enemies] + [ph for _, ph in phantoms] + [c for _, c, _ in closing]
        )
        placed = [None] * len(enemies) + [ph for _, ph in phantoms] + [c for _, c, _ in closing]
        weight = [1.0] * (len(enemies) + len(phantoms)) + [w for _, _, w in closing]
        targetable = [True] * (len(enemies) + len(phantoms)) + [False] * len(closing)
        enemies = list(enemies) + [e for e, _ in phantoms] + [e for e, _, _ in closing]
        m_ab, m_ba = battle.table.sight_matrices(
            poses, epose, others, battle.sighting_in, battle.ruleset_data
        )
        group = [
            o
            for o in battle.state.stands.values()
            if o.side == side and o.group == s.group and o.active and o.id != s.id
        ]
        gx = sum(o.x for o in group) / len(group) if group else None
        gy = sum(o.y for o in group) / len(group) if group else None
        reach = s.unit.gun_range
        wwii = battle.rules.postures
        need = [1.0 if wwii and self._hidden(battle, q) else 0.8 * reach for q in epose]
        seek = self.level.seeks_sight if wwii else 0.0

        def reach_to(i: int, j: int) -> float:
            # how near pose i must come to enemy j: into range if it would see it from
            # there; nearer if the engine's sight line is blocked (a wood, a hill, a stand)
            return need[j] if not seek or m_ab.clear[i, j] else min(need[j], seek)

        caution = self._caution(battle, side, press)
        shots = battle.rules.shots_per_turn(s)  # the targets it can engage next turn
        # WWII: a stand closing up beside one of ours may move with it next turn on one roll
        bonus = self.level.keeps_company if wwii else 0.0
        company = self._company(battle, s) if bonus else []
        scores = []
        for i, p in enumerate(poses):
            offense = []
            threat = 0.0
            for j, e in enumerate(enemies):
                if (
                    targetable[j]
                    and m_ab.clear[i, j]
                    and m_ab.range_band_in[i, j] <= s.unit.max_range_in
                ):
                    info = sight_info(m_ab, i, j)
                    fs = self._best_shot(
                        battle, s, e, info, target_pose=placed[j], attacker_pose=p, next_turn=True
                    )
                    offense.append(attack_value(battle, [fs], e) if fs else 0.0)
                if m_ba.clear[j, i] and m_ba.range_band_in[j, i] <= e.unit.max_range_in:
                    info = sight_info(m_ba, j, i)
                    fs = self._best_shot(
                        battle, e, s, info, target_pose=p, attacker_pose=placed[j], next_turn=True
                    )
                    if fs is not None:
                        threat += (
                            weight[j] * first_shot(battle, e, s) * attack_value(battle, [fs], s)
                        )
            self._exposed[i] = any(
                m_ba.clear[j, i] and m_ba.range_band_in[j, i] <= enemies[j].unit.max_range_in
                for j in range(real)
            )
            offense.sort(reverse=True)
            alive = survive[i] if survive else 1.0  # shots are only given by a stand that
            score = (1.0 + press) * alive * sum(offense[:shots]) - caution * threat  # gets there
            near = min(math.hypot(p.x - q.x, p.y - q.y) for q in epose)
            if not offense:  # nothing to shoot from here: go and find the enemy, within
                # range of one in the open, near one it would not see from here, into
                # contact with one hidden deep in a wood
                gap = min(
                    max(0.0, math.hypot(p.x - q.x, p.y - q.y) - reach_to(i, j))
                    for j, q in enumerate(epose)
                )
                score -= (0.04 + 0.02 * press) * gap
                # late and short of kills, any closer point is likelier to see him
                score -= 0.04 * max(0.0, press - 0.4) * near
            if gx is not None:
                score -= 0.01 * max(0.0, math.hypot(p.x - gx, p.y - gy) - 4)
            if bonus and not offense and threat == 0 and any(base_contact(p, q) for q in company):
                score += bonus  # on the way: once in the fight, each stand seeks its own shot
            scores.append(score)
        return scores
