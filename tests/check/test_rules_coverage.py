"""The rules coverage report (tools/coverage/rules_coverage.py): each row's detector against hand-made
log lines (so a detector that never matches fails here, not silently in the report), the
reasons given for rows that cannot happen, and a short real run over the shipped scenarios."""

from __future__ import annotations

import dataclasses
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tools" / "coverage"))

from coverage_facts import Tally, rules_data  # noqa: E402
from coverage_rows import (  # noqa: E402
    RANGE_BUCKETS,
    beyond_reasons,
    build_rows,
    cover_rows,
    crt_row,
)
from coverage_scan import NOT_COUNTED, Scan, scan_events  # noqa: E402
from rules_coverage import Report, explanation, main, render, run, scenario_paths  # noqa: E402

from game.rules.events import EVENTS  # noqa: E402

NO_MODS: list = []
CLEAR = {"type": "FeatureCollection", "features": []}
ROAD_AND_HILL = {
    "type": "FeatureCollection",
    "features": [
        {
            "type": "Feature",
            "properties": {"terrain": "good_road"},
            "geometry": {"type": "LineString", "coordinates": [[0, 20], [48, 20]]},
        },
        {
            "type": "Feature",
            "properties": {"terrain": "hill", "level": 1},
            "geometry": {
                "type": "Polygon",
                "coordinates": [[[30, 0], [40, 0], [40, 8], [30, 8], [30, 0]]],
            },
        },
    ],
}


def unit(cls="T", speed=12, tl=1, defense=6, personnel=False, flags=(), carrier=0, ap=9, he=5):
    """A full-game unit row as a start line writes it."""
    return {
        "movement_class": cls,
        "speed": speed,
        "tech_level": tl,
        "defense": defense,
        "defense_class": "personnel" if personnel else "armoured",
        "flags": list(flags),
        "carrier": carrier,
        "ap_attack": ap,
        "ap_range": 20,
        "he_attack": he,
        "he_range": 20,
        "atgm": None,
    }


class Log:
    """A hand-made battle log: the start line, then lines added with their seq."""

    def __init__(self, ruleset, stands, units=None, terrain=CLEAR, turns=12):
        self.events = [
            {
                "seq": 0,
                "event": "start",
                "turn": 0,
                "phase": "setup",
                "ruleset": ruleset,
                "turns": turns,
                "max_sighting_in": 30.0,
                "table": {"width": 48, "depth": 24},
                "terrain": terrain,
                "units": units or {},
                "stands": [
                    {
                        "id": sid,
                        "side": sid[0],
                        "unit": u,
                        "tech_level": tl,
                        "on_table": on,
                        "carried_by": by,
                        "x": 1.0,
                        "y": 1.0,
                        "facing_deg": 0.0,
                        "group": "1",
                        "hq": False,
                        "ghq": False,
                    }
                    for sid, u, tl, on, by in stands
                ],
            }
        ]

    def add(self, event, turn=1, phase="movement", **fields) -> Log:
        """Add one line (``turn``, ``phase`` and the event's fields)."""
        self.events.append(
            {"seq": len(self.events), "event": event, "turn": turn, "phase": phase, **fields}
        )
        return self

    def tally(self, facts=()) -> Tally:
        """The scanner's tally of the log."""
        return scan_events(self.events, "test", facts)


def roll(passed=True, n=10, mods=NO_MODS, level=15):
    """A roll's fields."""
    return {"roll": n, "mods": mods, "total": n + sum(m["value"] for m in mods), "level": level,
            "passed": passed}  # fmt: skip


def mod(why, value):
    """A modifier as a log line writes it."""
    return {"why": why, "value": value}


def attack(crt="D", result="D", mods=NO_MODS, **more):
    """An attack's CRT fields (as in overrun, close assault, impact and air strike lines)."""
    return {"crt": crt, "result": result, "combat": {"dice": [3, 4], "mods": mods, "total": 7},
            "differential": 3, "target_markers_after": {}, **more}  # fmt: skip


def fire(attacker, target, kind="standard", phase="fire", turn=1, coh=None, mods=NO_MODS, **kw):
    """A fire line's fields."""
    line = {"attack": 1, "kind": kind, "side": attacker[0], "attacker": attacker,
            "target": target, "weapon": "ap", "cohesion": coh or roll(), "aspect": "front",
            **attack(mods=mods), **kw}  # fmt: skip
    return ("fire", turn, phase, line)


def move(stand, path, turn=1, mp_spent=None, mp_allowed=12.0, stopped_by=None, entered=False, **kw):
    """A move line's fields."""
    spent = mp_spent if mp_spent is not None else float(len(path) - 1) / 2
    line = {"side": stand[0], "stand": stand, "path": path, "mp_spent": spent,
            "mp_allowed": mp_allowed, "facing_deg": 0.0, "stopped_by": stopped_by,
            "entered": entered, **kw}  # fmt: skip
    return ("move", turn, "movement", line)


def line_path(x0, y0, x1, y1, step=0.5):
    """The step points of a straight move (inches)."""
    n = max(1, round(((x1 - x0) ** 2 + (y1 - y0) ** 2) ** 0.5 / step))
    return [[x0 + (x1 - x0) * i / n, y0 + (y1 - y0) * i / n] for i in range(n + 1)]


def build(log: Log, lines) -> Log:
    """Add ``(event, turn, phase, fields)`` lines to ``log``; returns it."""
    for event, turn, phase, fields in lines:
        log.add(event, turn, phase, **fields)
    return log


# ---------------------------------------------------------------- the detectors, one by one


def test_a_tl2_stand_that_fires_then_moves_at_half_its_allowance_counts_three_rows():
    units = {"Tiger": unit(speed=8, tl=2), "Panther": unit(speed=12, tl=1)}
    log = Log("wwii-47", [("A1", "Tiger", 2, True, None), ("B1", "Panther", 1, True, None)], units)
    t = build(
        log,
        [
            fire("A1", "B1", turn=2),
            move("A1", line_path(5, 5, 7, 5), turn=2, mp_allowed=4.0),
            move("B1", line_path(9, 5, 12, 5), turn=2),
        ],
    ).tally()
    assert t.counts["004-tl2-fire-move"] == 1
    assert t.counts["004-tl2-half"] == 1
    assert t.counts["004-tl2-moved"] == 1
    assert t.counts["004-tl1-moved"] == 1
    assert t.examples["004-tl2-fire-move"] == "test seq 2"


def test_a_tl2_stand_that_moves_its_whole_allowance_after_firing_is_not_at_half():
    units = {"Tiger": unit(speed=8, tl=2)}
    log = Log("wwii-47", [("A1", "Tiger", 2, True, None), ("B1", "Tiger", 2, True, None)], units)
    t = build(log, [fire("A1", "B1"), move("A1", line_path(5, 5, 9, 5), mp_allowed=8.0)]).tally()
    assert t.counts["004-tl2-fire-move"] == 1
    assert t.counts["004-tl2-half"] == 0
    assert t.counts["004-tl2-moved"] == 1  # on the table from the start: it never entered


def test_a_wheeled_move_on_clear_ground_and_what_it_paid():
    units = {"BTR": unit("W", 20), "Inf": unit("F", 4, personnel=True)}
    log = Log("modern-full", [("A1", "BTR", 3, True, None), ("A2", "Inf", 3, True, None)], units)
    t = build(
        log,
        [
            move("A1", line_path(2, 5, 5, 5), mp_spent=6.0),  # 3" at 2 MP an inch
            move("A1", line_path(5, 5, 8, 5), turn=2, mp_spent=3.0),  # at the tracked rate
            move("A2", line_path(2, 8, 3, 8)),
        ],
    ).tally()
    assert t.counts["wheeled-clear"] == 2
    assert t.counts["wheeled-clear-2mp"] == 1
    assert t.counts["foot-move"] == 1
    assert t.counts["road-W"] == t.counts["road-F"] == 0
    assert {"class:W", "class:F", "modern-full:class:W"} <= t.facts


def test_road_and_hill_steps_are_read_off_the_start_lines_terrain():
    units = {"Tank": unit("T"), "BTR": unit("W", 20)}
    log = Log("modern-full", [("A1", "Tank", 3, True, None), ("A2", "BTR", 3, True, None)],
              units, ROAD_AND_HILL)  # fmt: skip
    t = build(
        log,
        [
            move("A1", line_path(2, 20, 10, 20)),  # along the road
            move("A1", line_path(28, 4, 35, 4), turn=2),  # up the hill
            move("A2", line_path(2, 20.1, 6, 20.1), mp_spent=2.0),  # on the road: not clear
        ],
    ).tally()
    assert t.counts["road-T"] == 1 and t.counts["road-W"] == 1
    assert t.counts["move-hill"] == 1
    assert t.counts["wheeled-clear"] == 0
    assert {"road", "road+W", "hill"} <= t.facts


def test_the_close_assault_branches():
    units = {"Inf": unit("F", 4, personnel=True, flags=["engineer"]), "Tank": unit()}
    log = Log("wwii-47", [("A1", "Inf", 1, True, None), ("B1", "Tank", 1, True, None)], units)
    ca = {"side": "A", "defender": "B1", "assaulters": ["A1"], "rule": "004 8.7"}
    t = build(
        log,
        [
            (
                "close_assault",
                1,
                "movement",
                {
                    **ca,
                    "defender_roll": roll(True),
                    "defender_attack": attack(attacker="B1", target="A1"),
                    "assaulter_rolls": {"A1": roll(False)},
                    "assaulter_attacks": [],
                    "retreat": None,
                },
            ),
            (
                "close_assault",
                2,
                "movement",
                {
                    **ca,
                    "defender_roll": None,
                    "defender_attack": None,
                    "assaulter_rolls": {"A1": roll()},
                    "assaulter_attacks": [attack(attacker="A1", mods=[mod("range", -1)])],
                    "retreat": [[5, 5], [6, 5]],
                },
            ),
            (
                "close_assault",
                3,
                "movement",
                {
                    **ca,
                    "defender_roll": roll(False),
                    "defender_attack": None,
                    "assaulter_rolls": {"A1": roll()},
                    "assaulter_attacks": [attack(attacker="A1")],
                    "retreat": [[5, 5]],
                },
            ),
        ],  # fmt: skip
    ).tally()
    for key, n in {"ca": 3, "ca-def-reply": 1, "ca-ass-failed": 1, "ca-def-moving": 1,
                   "ca-ass-attack": 2, "ca-range": 1, "ca-retreat": 1, "ca-def-failed": 1,
                   "ca-no-room": 1, "ca-engineer": 2}.items():  # fmt: skip
        assert t.counts[f"{key}:wwii-47"] == n, key


def test_an_impact_entered_and_smoke_on_a_line_of_fire():
    units = {"Tank": unit(), "Gun": unit("F", 2, personnel=True, flags=["artillery"])}
    log = Log("modern-full", [("A1", "Tank", 3, True, None), ("B1", "Gun", 3, True, None)], units)
    t = build(
        log,
        [
            (
                "impact",
                1,
                "movement",
                {"mission": "m1", "marker": "m1.1", "target": "A1", "cause": "entered", **attack()},
            ),
            fire("A1", "B1", coh=roll(mods=[mod("smoke", 3)])),
            fire("B1", "A1", mods=[mod("terrain:smoke", 3)]),
        ],  # fmt: skip
    ).tally()
    assert t.counts["impact-entered:modern-full"] == 1
    assert t.counts["impact-landing:modern-full"] == 0
    assert t.counts["smoke-fire"] == 2
    assert t.counts["cover:smoke"] == 0  # smoke has its own row


# ---------------------------------------------------------------- every row has a detector


def _synthetic_battles() -> list[Log]:
    """Hand-made battles, one per ruleset, with a line for every row of the report."""
    full_units = {
        "Tank": unit(tl=3),
        "TL1": unit(tl=1),
        "TL2": unit(tl=2, speed=8),
        "TL5": unit(tl=5),
        "IFV": unit(tl=3, carrier=1),
        "BTR": unit("W", 20, tl=3, carrier=1),
        "Inf": unit("F", 4, tl=3, personnel=True, flags=["engineer", "recon"]),
        "TypeS": unit("F", 4, tl=3, personnel=True, flags=["type_s"]),
        "Cav": unit("F", 8, tl=3, personnel=True, flags=["cavalry"]),
        "Gun": unit("F", 2, tl=3, personnel=True, flags=["artillery", "mortar"], ap=None, he=2),
        "AA": unit("T", 18, tl=4, flags=["aa"]),
        "Big": unit(tl=3, ap=40, defense=30),
    }
    battles = []
    for rs in ("modern-full", "wwii-47"):
        stands = [
            ("A1", "Tank", 3, True, None), ("A2", "TL1", 1, True, None),
            ("A3", "TL2", 2, True, None), ("A4", "TL5", 5, True, None),
            ("A5", "IFV", 3, True, None), ("A6", "Inf", 3, False, "A5"),
            ("A7", "BTR", 3, True, None), ("A8", "TypeS", 3, True, None),
            ("A9", "Cav", 3, True, None), ("A10", "Gun", 3, True, None),
            ("B1", "AA", 4, True, None), ("B2", "Big", 3, False, None),
        ]  # fmt: skip
        terrain = {"type": "FeatureCollection", "features": ROAD_AND_HILL["features"]}
        log = Log(rs, stands, full_units, terrain, turns=5)
        lines = [
            ("posture", 1, "posture", {"side": "B", "group": "1", "stands": ["B2"]}),
            ("posture", 1, "posture", {"side": "A", "group": "M1", "stands": ["A2", "A3"],
             "posture": "move"}),
            ("posture", 1, "posture", {"side": "A", "group": "M2", "stands": ["A1"]}),
            ("posture", 1, "posture", {"side": "A", "group": "", "stands": ["A4"],
             "posture": "fire"}),
            move("B2", line_path(47, 10, 44, 10), entered=True),
            fire("A4", "B1", phase="fire1"),
            fire("A4", "B1", phase="fire2"),
            fire("A4", "B1", phase="fire3", weapon="he", defense_class="personnel",
                 defense=2, defense_base=4),
            fire("A3", "B1", turn=2, defense_class="armoured"),
            move("A3", line_path(5, 5, 7, 5), turn=2, mp_allowed=4.0),
            move("A2", line_path(5, 7, 7, 7), turn=2),
            move("A7", line_path(5, 3, 8, 3), mp_spent=6.0),
            move("A6", line_path(2, 20, 4, 20)),
            ("orders", 2, "movement", {"side": "B", "dice": [], "command_value": 0,
             "generation_mod": 0, "total": 0, "orders": 0}),
            ("plot", 1, "plot", {"side": "A", "mission": "m1", "kind": "artillery", "ammo": "he"}),
            ("plot", 1, "plot", {"side": "A", "mission": "m2", "kind": "artillery",
             "ammo": "smoke"}),
            ("plot", 1, "plot", {"side": "A", "mission": "m3", "kind": "air"}),
            ("artillery", 2, "artillery", {"mission": "m1", "kind": "direct", "side": "A",
             "firers": ["A10"], "cohesion": {"A10": roll(False)}, "not_fired": {"A10": "gone"},
             "deviation": roll(False), "markers": [[5, 5]], "ammo": "smoke"}),
            ("artillery", 2, "artillery", {"mission": "m2", "kind": "indirect", "side": "A",
             "firers": ["A10"], "cohesion": {}, "not_fired": {}, "deviation": None,
             "markers": [], "ammo": "he"}),
            ("impact", 2, "artillery", {"mission": "m2", "marker": "m2.1", "target": "B1",
             "cause": "landing", **attack(), "combat": None}),
            ("impact", 2, "movement", {"mission": "m2", "marker": "m2.1", "target": "B1",
             "cause": "entered", **attack()}),
            ("air_strike", 3, "artillery", {"side": "A", "aircraft": "X", "arrival": roll(),
             "aa": [], "deviation": roll(False), "tie_die": [1], "target": "A1",
             "friendly": True, "aircraft_after": {"eliminated": False}, **attack()}),
            ("air_strike", 3, "artillery", {"side": "A", "arrival": roll(False), "aa": [],
             "target": None, "aircraft_after": {"eliminated": False}}),
            ("air_strike", 3, "artillery", {"side": "A", "arrival": roll(), "aa": [],
             "target": None, "aircraft_after": {"eliminated": False}}),
            ("overrun", 3, "movement", {"side": "A", "mover": "A7", "defender": "B1",
             "defender_roll": roll(mods=[mod("tracked", 3)]), "attack_on_defender": attack(),
             "attacker_roll": roll(False), "attack_on_attacker": attack()}),
            ("close_assault", 3, "movement", {"side": "A", "defender": "B1",
             "assaulters": ["A6", "A8", "A9"], "defender_roll": None, "defender_attack": None,
             "assaulter_rolls": {"A6": roll(False)},
             "assaulter_attacks": [attack(attacker=a) for a in ("A6", "A8", "A9")],
             "retreat": None}),
            ("close_assault", 3, "movement", {"side": "A", "defender": "A1", "assaulters": [],
             "defender_roll": roll(False), "defender_attack": attack(), "assaulter_rolls": {},
             "assaulter_attacks": [], "retreat": None}),
            move("A1", line_path(2, 20, 10, 20), turn=4),
            move("A7", line_path(2, 20, 10, 20), turn=4),
            move("A1", line_path(28, 4, 35, 4), turn=5),
        ]  # fmt: skip
        if rs == "modern-full":
            lines += [
                ("air_strike", 4, "artillery", {"side": "A", "arrival": roll(), "target": "A1",
                 "aa": [{"leg": "out", "stand": "B1", "cohesion": roll(), **attack()}],
                 "aircraft_after": {"eliminated": True}, **attack()}),
                ("air_strike", 4, "artillery", {"side": "A", "arrival": roll(), "target": None,
                 "aa": [], "aircraft_after": {"eliminated": True}}),
                ("overrun", 4, "movement", {"side": "A", "mover": "A5", "defender": "B1",
                 "defender_roll": roll(False, mods=[mod("ifv_loaded", 2)]),
                 "attack_on_defender": None, "attacker_roll": roll(),
                 "attack_on_attacker": None}),
                ("close_assault", 4, "movement", {"side": "A", "defender": "B1",
                 "assaulters": ["A1"], "defender_roll": None, "defender_attack": None,
                 "assaulter_rolls": {"A1": roll()}, "retreat": None,
                 "assaulter_attacks": [attack(attacker="A1", mods=[mod("closing", -1)])]}),
            ]  # fmt: skip
        else:
            lines += [
                ("air_strike", 4, "artillery", {"side": "A", "target": None, "aa": [
                    {"stand": "B1", "cohesion": roll(), "arrival_mod": 1},
                    {"stand": "B1", "cohesion": roll(False), "arrival_mod": 0}],
                 "arrival": roll(False, mods=[mod("aa:B1", 1)]),
                 "aircraft_after": {"eliminated": False}}),
            ] + [
                ("close_assault", 4, "movement", {"side": "A", "defender": "B1",
                 "assaulters": ["A1"], "defender_roll": None, "defender_attack": None,
                 "assaulter_rolls": {"A1": roll()}, "retreat": retreat,
                 "assaulter_attacks": [attack(attacker="A1", mods=[mod("range", -1)])]})
                for retreat in ([[1, 1], [2, 1]], [[1, 1]])
            ]  # fmt: skip
        cells = {"modern-full": [("-S-", "none"), ("-S-", "S")],
                 "wwii-47": [("-S-", "none"), ("-", "S")]}[rs]  # fmt: skip
        cells += [("S", "S"), ("(S)", "S"), ("(S)", "D"), ("(S)", "E"), ("D", "D"), ("D", "E")]
        cells += [("E", "E")]
        lines += [fire("A1", "B1", crt=c, result=r) for c, r in cells]
        lines += _range_fires(rs, "A3" if rs == "wwii-47" else "A1", "tl2")
        if rs == "wwii-47":
            lines += _range_fires(rs, "A2", "tl1")
        battles.append(build(log, lines))
    for rs in ("modern", "wwii"):
        tank = "T-80U / AT-11" if rs == "modern" else "Pz IIIJ-M"
        stands = [(f"A{i}", tank, 4 if rs == "modern" else None, True, None) for i in (1, 2)]
        stands += [("B1", tank, 4 if rs == "modern" else None, True, None)]
        log = Log(rs, stands, terrain={"type": "FeatureCollection", "features": [
            {"type": "Feature", "properties": {"terrain": k},
             "geometry": {"type": "Polygon", "coordinates": [[[0, 0], [1, 0], [1, 1], [0, 0]]]}}
            for k in ("barbed_wire", "minefield")]}, turns=5)  # fmt: skip
        lines = [fire("A1", "B1", crt=c, result=r) for c, r in _cells(rs)]
        lines += _range_fires(rs, "A1", "")
        lines += [fire("A1", "B1", differential=12)]
        battles.append(build(log, lines + _generic_lines(rs)))
    return battles


def _cells(rs):
    cells = [("S", "S"), ("(S)", "S"), ("(S)", "D"), ("(S)", "E"), ("D", "D"), ("D", "E")]
    return cells + [("E", "E")] + ([("-", "none")] if rs == "wwii" else [])


def _range_fires(rs, attacker, tl):
    values = [int(b.split()[0]) for b in RANGE_BUCKETS[rs]]
    return [fire(attacker, "B1", mods=[mod("range", v)]) for v in values]


def _generic_lines(rs):
    """Lines every ruleset may write, for the rows that do not depend on one."""
    wwii = rs == "wwii"
    lines = [
        ("regroup", 0, "setup", {"side": "A", "stand": "A1", "group": "2", "hq": False,
         "ghq": False}),
        ("initiative", 1, "initiative", {"rolls": {}, "tiebreaks": [{"A": [3], "B": [2]}],
         "winner": "A"}),
        ("posture", 1, "posture", {"side": "A", "group": "M1", "stands": ["A1", "A2"]}),
        fire("A1", "B1", coh=roll(False, 20, [mod("hq", -6)])),
        fire("A1", "B1", coh=roll(True, 1, [mod("suppressed", 4), mod("moving_target", 12)])),
        fire("A1", "B1", weapon="atgm", depleted=True, aspect="flank",
             mods=[mod("hilltop", 2), mod("wreck", 1), mod("terrain:smoke", 3)]
             + [mod(f"terrain:{r.key[6:]}", 1) for r in cover_rows(rules_data().terrain)]),
        ("move_attempt", 1, "movement", {"side": "A", "group": "1", "ordered": True, "roll": 20,
         "level": 15, "per_stand": {
             "A1": {"mods": [mod("hq", -2), mod("suppressed", 4), mod("terrain:barbed_wire", 1),
                             mod("terrain:minefield", 2)], "total": 20, "passed": False},
             "A2": {"mods": [mod("hq", -8)], "total": 12, "passed": True}}}),
        ("move_attempt", 1, "movement", {"side": "A", "group": "1'", "ordered": False,
         "roll": 20, "level": 15, "per_stand": {"A1": {"mods": [mod("independent", 3)],
         "total": 23, "passed": False}}}),
        ("move_attempt", 1, "movement", {"side": "A", "group": "2", "ordered": False,
         "roll": 5, "level": 15, "per_stand": {"A1": {"mods": [], "total": 5, "passed": True}}}),
        ("orders", 1, "movement", {"side": "A", "dice": [1, 1], "command_value": 0,
         "generation_mod": 0, "total": 2, "orders": 0}),
        ("orders", 1, "movement", {"side": "B", "dice": [], "command_value": 0,
         "generation_mod": 0, "total": 0, "orders": 0}),
        move("A1", line_path(2, 2, 2, 2.5), stopped_by="opportunity_fire"),
        fire("B1", "A1", kind="opportunity", crt=None, result="none"),
        move("A1", line_path(2, 2.5, 2, 4), stopped_by="mp"),
        move("A2", line_path(4, 2, 4, 2.5), stopped_by="opportunity_fire"),
        fire("B1", "A2", kind="opportunity", crt="S", result="S"),
        fire("A1", "B1", kind="covering", mods=[mod("covering", 3)]),
        move("A2", line_path(4, 2.5, 4, 4), cohesion=roll(), stopped_by="overlap"),
        move("A2", line_path(4, 4, 4, 5), turn=2, cohesion=roll(False), stopped_by="cohesion"),
        move("A1", [[3, 3]], turn=2, stopped_by="enemy",
             pass_through={"enemy": "B1", **roll(False)}),
        move("A1", line_path(3, 3, 3, 4), turn=3, pass_through={"enemy": "B1", **roll()}),
        ("mount", 1, "movement", {"carrier": "A1", "stand": "A2", "pos": [1, 1, 0]}),
        ("unload", 1, "movement", {"carrier": "A1", "stand": "A2", "pos": [1, 1, 0],
         "cause": "unloaded"}),
        ("unload", 1, "movement", {"carrier": "A1", "stand": "A2", "pos": [1, 1, 0],
         "cause": "carrier_eliminated", "cohesion": roll(False),
         "markers_after": {"eliminated": True}}),
        ("unload", 1, "movement", {"carrier": "A1", "stand": "A2", "pos": [1, 1, 0],
         "cause": "carrier_eliminated", "cohesion": roll(), "markers_after": {"D": True}}),
    ]  # fmt: skip
    for outcome in ("recovered", "rallied", "panic", "none"):
        lines.append(("marker_removal", 1, "marker_removal", {"stand": "A1", **roll(),
                      "outcome": outcome, "markers_after": {"eliminated": True}}))  # fmt: skip
    for passed in (True, False):
        lines.append(("resupply", 1, "marker_removal", {"stand": "A1", **roll(passed)}))
    winner = {"winner": None if wwii else "A", "reason": "", "losses": {}}
    lines.append(("end", 2 if not wwii else 5, "end", winner))
    if not wwii:
        lines.append(("end", 5, "end", {**winner, "winner": "A"}))
    return lines


def test_the_scan_reads_every_kind_of_log_line_or_says_why_not():
    """The coverage scan's detectors follow the events' records (``game.rules.events``):
    every kind of line has a handler or a reason it counts no rule, and none is read that
    the log does not have."""
    handled = set(Scan("x").handlers)
    assert handled | set(NOT_COUNTED) == set(EVENTS)
    assert handled & set(NOT_COUNTED) == set()


def test_every_row_of_the_report_has_a_detector_that_matches_a_hand_made_line():
    total = Tally()
    for log in _synthetic_battles():
        total.merge(log.tally(facts={"modern-full:air", "wwii-47:air"}))
    rows = build_rows(rules_data().terrain)
    keys = [r.key for r in rows]
    assert len(keys) == len(set(keys)), "two rows share a key"
    assert sorted(k for k in keys if not total.counts[k]) == []
    assert sorted(k for k in total.counts if k not in set(keys)) == []  # no stray keys


class _LongGunData:
    """The shipped rules data with one Modern unit's gun stretched to ``reach`` inches."""

    def __init__(self, name: str, reach: int):
        self.data, self.name, self.reach = rules_data(), name, reach

    def units_for(self, rs):
        units = dict(self.data.units_for(rs))
        if self.name in units:
            u = units[self.name]
            field = "cannon_range" if hasattr(u, "cannon_range") else "ap_range"
            units[self.name] = dataclasses.replace(u, **{field: self.reach})
        return units

    def range_chart(self, rs, tl):
        return self.data.range_chart(rs, tl)


def test_the_modern_last_band_is_explained_by_the_data_until_a_gun_reaches_it():
    # 000 07.08.02: TL3's last band ends at 41"; the Chieftain Mk5's 35" gun does not reach +4.
    shipped = beyond_reasons(rules_data())
    assert 'TL3: from 42", longest gun 35"' in shipped["modern"]
    assert "modern-full" in shipped
    plus4 = {r.key: r.why for r in build_rows(rules_data().terrain, shipped)}
    assert plus4["range:modern::+4"] == shipped["modern"]
    stretched = beyond_reasons(_LongGunData("Chieftain Mk5", 42))
    assert "modern" not in stretched and "modern-full" not in stretched


def test_a_zero_row_is_explained_only_while_its_needs_are_absent():
    row = next(r for r in build_rows(rules_data().terrain) if r.key == "002-tl1-move")
    assert "TL1" in explanation(row, {"ruleset:modern-full"}, {})
    assert explanation(row, {"modern-full:tl1"}, {}) is None
    assert explanation(row, {"modern-full:tl1"}, {"002-tl1-move": "told"}) == "told"
    assert explanation(crt_row("wwii", "E", "S"), set(), {}) is None  # not on the card


def test_the_report_flags_unexplained_zeros_and_names_the_examples():
    t = Log("wwii-47", [("A1", "Pz VIB", 2, True, None)]).add("move", stand="A1",
                                                               path=[[1, 1]]).tally()  # fmt: skip
    text = render(Report(t, battles=1, scenarios=("maps/x.json",), games=1))
    assert (
        "| rule | where (docs/rules.md section, rule number) | count | example (log, seq) |" in text
    )
    assert "| a stand moves | Movement · 000 08.03 | 1 | test seq 1 |" in text
    assert "| **0** | **never happened** |" in text  # e.g. fire: possible, never happened
    assert "cannot happen here: no played modern-full scenario fields a TL1 stand" in text


# ---------------------------------------------------------------- a real run, briefly


@pytest.fixture(scope="module")
def real_run():
    """Every shipped scenario once, random against random, and two veteran battles."""
    rand = run(scenario_paths(None), (("random", "random"),), games=1, seed=3, jobs=2)
    vet = run(scenario_paths(["wwii-47-breakthrough", "modern-skirmish"]),
              (("veteran", "veteran"),), games=1, seed=3, jobs=2)  # fmt: skip
    rand.tally.merge(vet.tally)
    rand.problems += vet.problems
    return rand


def test_a_short_run_of_the_shipped_scenarios_sees_the_everyday_rules(real_run):
    c = real_run.tally.counts
    assert real_run.problems == []
    assert real_run.tally.battles == len(scenario_paths(None)) + 2
    for key in ("move", "move-entered", "fire-standard", "orders", "attempt-ordered",
                "004-tl2-moved", "004-tl1-move-posture", "group-single"):  # fmt: skip
        assert c[key] > 0, key
    assert sum(c[k] for k in ("mr-recovered", "mr-rallied", "mr-panic", "mr-none")) > 0
    assert sum(c[k] for k in ("draw", "win-early", "win-last")) == real_run.tally.battles
    assert {f"ruleset:{rs}" for rs in ("modern", "modern-full", "wwii", "wwii-47")} <= (
        real_run.tally.facts
    )
    assert {"modern-full:air", "wwii-47:air", "wwii-47:tl2"} <= real_run.tally.facts


def test_the_command_line_writes_the_table_and_require_all_fails_on_a_finding(tmp_path):
    out = tmp_path / "coverage.md"
    why = tmp_path / "why.txt"
    why.write_text("# reasons\nflank: told so\n", encoding="utf-8")
    args = ["--games", "1", "--scenarios", "modern-skirmish", "--pairing", "random,random",
            "--jobs", "1", "--markdown", str(out), "--why", str(why)]  # fmt: skip
    assert main([*args, "--log-dir", str(tmp_path / "logs")]) == 0
    played = out.read_text(encoding="utf-8")
    assert "| rule | where" in played
    assert main([*args, "--require-all"]) == 1  # a skirmish leaves many rules unplayed
    assert main(["--logs", str(tmp_path / "logs"), "--markdown", str(out)]) == 0
    read = out.read_text(encoding="utf-8")
    assert "1 battle logs read from" in read

    def counts(text):
        return [line.split(" | ")[:3] for line in text.splitlines() if line.startswith("| ")]

    assert counts(read) == counts(played)  # the same log read again counts the same
