"""The scripted AI's speed-ups (issue #25) change none of its answers: each short cut gives
what the long way gives, across real battles, and nothing kept is served once the battle has
changed under it."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import numpy as np
import pytest

from game import Battle, Pass, StandPose, combat, heading_deg, load_scenario, sight_info
from game.ai import player_seed
from game.ai.positions import finish
from game.ai.scripted import ScriptedAI
from game.ai.values import attack_value, final_odds
from tests.conftest import battle

ROOT = Path(__file__).resolve().parents[2]
WWII = load_scenario(ROOT / "maps" / "wwii-meeting.json")
MODERN = load_scenario(ROOT / "maps" / "modern-meeting.json")


def reference_path_risks(ai, battle, s, walks, enemies):
    """``_path_risks`` as it was before the speed-ups (every step point sighted and weighed
    on its own, the engine asked for every shot and its odds): (risks, chances to kill)."""
    may = battle.rules.fire.may_opportunity_fire
    if battle.phase and battle.phase.kind == "posture":
        firers = [
            e
            for e in enemies
            if e.on_table and may(dataclasses.replace(e, posture=e.posture or "firing"))
        ]
    else:
        firers = [e for e in enemies if may(e)]
    kills = [0.0] * len(walks)
    if not firers or "movement" in s.attacked_in:
        return [0.0] * len(walks), kills
    samples, owner = [], []
    for i, pts in enumerate(walks):
        for k in range(len(pts)):
            (x0, y0), (x1, y1) = (pts[0], pts[1]) if k == 0 else (pts[k - 1], pts[k])
            samples.append(StandPose(s.id, s.side, *pts[k], heading_deg(x0, y0, x1, y1) % 360))
            owner.append(i)
    others = [o.pose() for o in battle.state.stands.values() if o.active and o.id != s.id] + [
        w.pose() for w in battle.state.wrecks
    ]
    m = battle.table.sight_matrix(
        [f.pose() for f in firers], samples, others, battle.sighting_in, battle.ruleset_data
    )
    reach = np.array([f.unit.max_range_in for f in firers], dtype=float)[:, None]
    seen = m.clear & (m.range_band_in <= reach)
    weigh, start = set(), 0
    for pts in walks:
        for row in seen[:, start : start + len(pts)]:
            ks = np.flatnonzero(row)
            if len(ks):
                weigh.update(int(k) + start for k in ks[::4])
                weigh.add(int(ks[-1]) + start)
        start += len(pts)
    risks = [0.0] * len(walks)
    for k in sorted(weigh):
        setups = []
        for j, f in enumerate(firers):
            if seen[j, k]:
                weapons = ("cannon", "atgm") if f.unit.atgm and not f.depleted else ("cannon",)
                best, value = None, -1.0
                for w in weapons:
                    fs = battle.fire_setup(
                        f.id,
                        s.id,
                        w,
                        "planning",
                        target_pose=samples[k],
                        sight=sight_info(m, j, k),
                    )
                    if fs.legal:
                        v = attack_value(battle, [fs], s)
                        if v > value:
                            best, value = fs, v
                if best is not None:
                    setups.append(best)
        if setups:
            i = owner[k]
            risks[i] = max(risks[i], attack_value(battle, setups, s))
            kill = combat.attack_odds(battle.crt, setups, s.S, s.D)["p_eliminated"]
            kills[i] = max(kills[i], kill)
    return risks, kills


def played(scenario, seed, turns, levels=("veteran", "veteran")):
    """Yield (battle, the AI to act) at every decision of the first ``turns`` turns."""
    b = Battle(scenario, seed)
    ais = {
        side: ScriptedAI(player_seed(seed, i), lvl)
        for i, (side, lvl) in enumerate(zip(b.sides, levels, strict=True))
    }
    while not b.finished and b.state.turn <= turns:
        yield b, ais[b.to_act]
        b.apply(ais[b.to_act].choose(b))


@pytest.mark.parametrize("scenario", [WWII, MODERN], ids=["wwii", "modern"])
def test_path_risks_are_those_of_every_step_weighed_on_its_own(scenario):
    """The risks of the ways there (each pose sighted once, the attack at each pose worked
    out once, each firer asked once whether it is engaged) are those of the step-by-step
    reckoning, to the last bit, at every movement decision of a battle's first turns."""
    checked = 0
    for b, ai in played(scenario, 3, 6):
        if b.decision().kind != "plot_move" or checked >= 12:
            continue
        s = next(b.stand(i) for i in b.state.moving.stands if not b.stand(i).moved)
        enemies = ai.situation.enemies(b, s.side)
        goal = ai.paths.goal(b, s, enemies)
        cands = ai.paths.candidates(b, s, b.movement_points(s.id), goal)
        walks = [c[3] for c in cands]
        risks = ai.positions.path_risks(b, s, walks, enemies)
        assert (risks, ai.memory.path_kill) == reference_path_risks(ai, b, s, walks, enemies)
        checked += sum(r > 0 for r in risks) > 0
    assert checked >= 3  # some of them do draw opportunity fire


def test_a_posture_plan_cut_short_only_where_the_move_is_not_worth_it():
    """In the posture phase a plan that cannot gain even with a way free of opportunity fire
    stops early: whenever it does, the whole plan's margin is not above 0, and wherever it
    does not, both give the same best move and the same score of staying."""
    cut = whole = 0
    for b, ai in played(WWII, 2, 6):
        if b.decision().kind != "posture":
            continue
        left = min(3, b.scenario.spec.turns - b.state.turn)
        for s in b.undeclared(b.to_act)[:4]:
            shot = ai.memory.offense.get(s.id, 0.0) * (1.0 + ai.situation.pressure(b, s.side))

            def worth(best, stay, left=left, shot=shot):
                return (best - stay) * left - shot - 0.05

            best, stay = ai.planner.plan(b, s, worth)
            full, full_stay = ai.planner.plan(b, s)
            assert stay == full_stay
            if best is None and full is not None:
                cut += 1
                assert worth(full.score, full_stay) <= 0.0
            else:
                whole += 1
                assert best == full
    assert cut and whole


def test_the_odds_kept_are_the_engines_and_follow_the_target_and_the_shots():
    """``final_odds`` gives the engine's ``attack_odds`` final state for every attack of a
    fire phase, and a different answer when the target's markers or the shots differ (the
    key holds everything the odds depend on)."""
    asked = 0
    for b, _ai in played(WWII, 1, 12):
        if b.decision().kind != "fire" or asked >= 40:
            continue
        for setups in b.fire_options().values():
            for S, D in ((False, False), (True, False), (False, True), (True, True)):
                want = combat.attack_odds(b.crt, setups, S, D)["final"]
                assert final_odds(b, setups, S, D) == want
                asked += 1
    assert asked >= 8


def test_odds_kept_for_one_attack_are_not_served_for_another():
    """Two shots that differ only in a modifier, and a target with other markers, each get
    their own odds."""
    b = battle([("A1", "A", "T-72", 10, 12, 0), ("B1", "B", "T-72", 22, 12, 180)], [])
    fs = b.fire_setup("A1", "B1", "cannon", "planning")
    assert fs.legal
    harder = dataclasses.replace(fs, combat_mods=fs.combat_mods + (("test", 3),))
    clean = final_odds(b, [fs], False, False)
    assert (
        final_odds(b, [harder], False, False)
        == combat.attack_odds(b.crt, [harder], False, False)["final"]
    )
    assert final_odds(b, [harder], False, False) != clean
    assert final_odds(b, [fs], True, False) == combat.attack_odds(b.crt, [fs], True, False)["final"]
    assert final_odds(b, [fs], True, False) != clean
    assert final_odds(b, [fs, fs], False, False) != clean


def test_an_engaged_firer_gets_no_free_pose_and_the_same_shots_either_way():
    """``_unengaged_pose`` is the engine's answer at the time of asking: a stand in base
    contact with an enemy's front is engaged (000 07.08.04) and gets None, so the engine
    checks the engaged rule itself; one that is not gets its own pose, and the engine's
    shot from that pose is the shot it gives when asked without one."""
    b = battle(
        [
            ("A1", "A", "T-72", 10, 12, 0),
            ("B1", "B", "T-72", 11, 12, 180),
            ("A2", "A", "T-72", 10, 20, 0),
            ("B2", "B", "T-72", 22, 20, 180),
        ],
        [],
    )
    ai = ScriptedAI(0)
    assert b.engaged_with("A1") == {"B1"}
    assert ai.fire.unengaged_pose(b, b.stand("A1")) is None
    a2 = b.stand("A2")
    assert not b.engaged_with("A2") and ai.fire.unengaged_pose(b, a2) == a2.pose()
    for target in ("B1", "B2"):
        asked = b.fire_setup("A2", target, "cannon", "planning")
        posed = b.fire_setup("A2", target, "cannon", "planning", attacker_pose=a2.pose())
        assert asked == posed
    # the engaged stand may fire only at B1: the engine says so, with or without the AI
    assert not b.fire_setup("A1", "B2", "cannon", "planning").legal


def _posture_plans(scenario, seed, turns, budget=None):
    """Yield, for each posture decision of the first ``turns`` turns of a veteran-vs-veteran
    battle (with ``Level.plan_budget`` set to ``budget`` if given), (the battle, the AI, the
    plans it made in that decision, the enemy stands on the table, whether it declared)."""
    b = Battle(scenario, seed)
    ais = {side: ScriptedAI(player_seed(seed, i)) for i, side in enumerate(b.sides)}
    for ai in ais.values():
        if budget is not None:
            ai.level = dataclasses.replace(ai.level, plan_budget=budget)
    plans: list[str] = []
    for ai in ais.values():
        plan = ai.planner.plan

        def counted(battle, s, worth=None, plan=plan):
            plans.append(s.id)
            return plan(battle, s, worth)

        ai.planner.plan = counted
    while not b.finished and b.state.turn <= turns:
        ai = ais[b.to_act]
        posture = b.decision().kind == "posture"
        enemies = sum(1 for e in ai.situation.enemies(b, b.to_act) if e.on_table)
        plans.clear()
        action = ai.choose(b)
        if posture:
            yield b, ai, list(plans), enemies, not isinstance(action, Pass)
        b.apply(action)


def test_a_posture_decision_plans_within_its_budget_and_the_rest_later():
    """A posture decision plans for a better position while less than ``Level.plan_budget``
    is spent (a plan costs the square of the enemy stands on the table over 9), and
    beyond that, up to one and a half times the budget, only while it has no group to declare (every
    plan but the last found nothing); the stands it leaves are planned in the side's next
    posture decisions of the turn, and no stand is planned twice in a turn."""
    budget = 10.0  # two plans a decision against nine enemy stands (9 each)
    planned: set[tuple] = set()
    spread: dict[tuple, int] = {}  # (turn, side) -> posture decisions that planned
    for b, ai, plans, enemies, _declared in _posture_plans(WWII, 2, 8, budget):
        cost = max(1.0, enemies**2 / 9)
        assert (len(plans) - 1) * cost < 1.5 * budget  # the last plan may cross the line
        if (len(plans) - 1) * cost >= budget:  # over the budget: nothing found before
            turn = b.state.turn
            assert all(ai.memory.moved_better[(turn, sid)] <= 0 for sid in plans[:-1])
        for sid in plans:
            assert (b.state.turn, sid) not in planned  # each stand once a turn
            planned.add((b.state.turn, sid))
        if plans:
            key = (b.state.turn, b.to_act)
            spread[key] = spread.get(key, 0) + 1
    assert len({t for t, _ in planned}) >= 5
    assert max(spread.values()) > 1  # a side's plans spread over its decisions of a turn


@pytest.mark.parametrize("scenario", [WWII, MODERN], ids=["wwii", "modern"])
def test_a_plan_weighs_fewer_ways_and_finds_what_weighing_them_all_finds(scenario):
    """``_plan`` weighs the ways there from the best score free of risk down and stops once
    the rest cannot win (``_bounded_scores``), sighting their steps in batches: its best move
    (and, where company is waited for, its best move out of sight) and their scores are those
    of every way weighed (``_path_risks``), to the last bit, and it weighs fewer ways."""
    checked = fewer = 0
    for b, ai in played(scenario, 3, 5):
        if b.decision().kind != "plot_move" or checked >= 10:
            continue
        s = next(b.stand(i) for i in b.state.moving.stands if not b.stand(i).moved)
        asked: list[int] = []
        reckoner = ai.positions.risk_reckoner

        def counting(*args, reckoner=reckoner, asked=asked):
            reckon = reckoner(*args)
            return lambda idx: asked.append(idx) or reckon(idx)

        ai.positions.risk_reckoner = counting
        best, _stay = ai.planner.plan(b, s)
        hidden = ai.memory.plan_hidden
        del ai.positions.risk_reckoner
        enemies = ai.situation.enemies(b, s.side)
        goal = ai.paths.goal(b, s, enemies)
        cands = ai.paths.candidates(b, s, b.movement_points(s.id), goal)
        if not cands:
            continue
        poses = [StandPose(s.id, s.side, c[0][0], c[0][1], c[2]) for c in cands]
        parts = ai.positions.position_parts(b, s, poses, enemies, goal)
        exposed = list(ai.memory.exposed)
        risks = ai.positions.path_risks(b, s, [c[3] for c in cands], enemies)
        caution = ai.situation.caution(b, s.side, ai.situation.pressure(b, s.side))
        scores = [
            finish(parts[i], 1.0 - ai.memory.path_kill[i]) - caution * risks[i]
            for i in range(len(cands))
        ]
        i = max(range(len(cands)), key=lambda i: scores[i])
        assert best.score == scores[i] and best.action.path == cands[i][1]
        if ai.level.crosses_with and not b.rules.postures:
            out = [k for k in range(len(cands)) if not exposed[k]]
            if out:
                h = max(out, key=lambda k: scores[k])
                assert hidden.score == scores[h] and hidden.action.path == cands[h][1]
        checked += 1
        fewer += len(asked) < len(cands)
    assert checked >= 5 and fewer >= 3


def test_posture_planning_takes_first_the_stands_in_contact_with_a_mover():
    """Within the budget the stands in base contact with a stand that moves already are
    planned first, whatever their shot: a movement group is a chain of stands in contact
    (001 8.1.2), and a mover declared before its neighbours are weighed goes alone."""
    from game import base_contact

    found = 0
    for b, ai in played(WWII, 2, 8):
        if found >= 2:
            break
        if b.decision().kind != "posture":
            continue
        mine = [s for s in b.undeclared(b.to_act) if s.on_table]
        for m in mine:
            touching = [s for s in mine if s is not m and base_contact(s.pose(), m.pose())]
            apart = [s for s in mine if s is not m and s not in touching]
            if not touching or not apart:
                continue
            ai.situation.urgency(b, b.to_act)  # its shots, as a posture decision has them
            order = sorted(touching + apart, key=lambda s: -ai.memory.offense.get(s.id, 0.0))
            first = next(iter(ai.posture.within_budget(b, b.to_act, order, {m.id: "under fire"})))
            assert first in touching
            found += 1
            break
    assert found >= 1
