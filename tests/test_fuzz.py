"""Random legal battles must never break a rule (the engine's fuzz; tools/fuzz_battles.py
runs thousands)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from game.ai.random_player import RandomPlayer
from game.check.audit import audit_log, audit_random_battle
from game.rules.battle import Battle
from game.rules.scenario import load_scenario

ROOT = Path(__file__).resolve().parents[1]
BATTLES = int(os.environ.get("HULLDOWN_FUZZ_BATTLES", "200"))
SCENARIO = load_scenario(ROOT / "maps" / "modern-meeting.json")


def play_and_check(seed: int) -> list[str]:
    # a full replay of every fourth battle keeps CI quick
    return audit_random_battle(SCENARIO, seed, replay=seed % 4 == 0)[0]


@pytest.mark.parametrize("chunk", range(10))
def test_random_battles_break_no_rule(chunk):
    per = BATTLES // 10
    for seed in range(chunk * per, (chunk + 1) * per):
        assert play_and_check(seed) == [], f"seed {seed}"


WWII = load_scenario(ROOT / "maps" / "wwii-meeting.json")


@pytest.mark.parametrize("chunk", range(4))
def test_random_wwii_battles_break_no_rule(chunk):
    """The WWII sequence of play (001 5.0) with postures, covering fire and passing through
    enemy stands (8.3.6) under the same audit. Seed 3 once left a stand unable to enter: stands
    driven along the edge blocked the only entry points sampled."""
    per = max(1, BATTLES // 8)
    for seed in range(chunk * per, (chunk + 1) * per):
        assert audit_random_battle(WWII, seed, replay=seed % 4 == 0)[0] == [], f"seed {seed}"


FULL_AT_CLOSE_QUARTERS = load_scenario(ROOT / "tests" / "fixtures" / "full-close-quarters.json")
COMBINED_ARMS = load_scenario(ROOT / "maps" / "modern-combined-arms.json")
WWII47_AT_CLOSE_QUARTERS = load_scenario(ROOT / "tests" / "fixtures" / "wwii47-close-quarters.json")


@pytest.mark.parametrize("chunk", range(4))
def test_random_full_game_battles_break_no_rule(chunk):
    """The full Modern game (002, #31) under the same audit and its own (overrun, close
    assault, carriers, -S-): a small map where every new rule comes up, and the shipped
    scenario; and Wehrmacht '47 (004, #33) on a small map of its own."""
    per = max(1, BATTLES // 8)
    for seed in range(chunk * per, (chunk + 1) * per):
        for sc in (FULL_AT_CLOSE_QUARTERS, COMBINED_ARMS, WWII47_AT_CLOSE_QUARTERS):
            assert audit_random_battle(sc, seed, replay=seed % 4 == 0)[0] == [], f"seed {seed}"


def clean_log(seed: int) -> tuple[list[dict], dict[str, float]]:
    """A random battle's log (copied, to be broken) and the stands' speeds; its audit is clean."""
    b = Battle(SCENARIO, seed)
    players = {s: RandomPlayer(i) for i, s in enumerate(b.sides)}
    while not b.finished:
        b.apply(players[b.to_act].choose(b))
    events = [dict(e) for e in b.log.events]
    speeds = {s.id: float(s.unit.speed) for s in b.state.stands.values()}
    assert audit_log(events, speeds) == []
    return events, speeds


def test_the_audit_finds_a_broken_log():
    events, speeds = clean_log(1)
    move = next(e for e in events if e["event"] == "move")
    move["mp_spent"] = 99
    assert any("MP" in p or "movement points" in p for p in audit_log(events, speeds))


def test_the_audit_finds_a_stand_that_passed_its_roll_but_stayed_off_the_table():
    """docs/rules.md "Entering the table": a waiting stand whose group passed its movement
    roll comes on in that action."""
    events, speeds = clean_log(2)
    entry = next(e for e in events if e["event"] == "move" and e["entered"])
    events.remove(entry)
    problems = audit_log(events, speeds)
    assert any(f"{entry['stand']} passed its group's roll but did not enter" in p for p in problems)
