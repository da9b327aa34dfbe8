"""Faults (#26): a save edited after saving is refused, not loaded as another battle; a full
disk does not stop a battle half way through an action; the AI's worker is let finish before
the window closes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from game.rules.actions import ChooseFirst, Pass
from game.rules.battle import Battle, SaveError
from game.rules.dice import FixedDice
from game.rules.files.scenario import parse_scenario
from tests.conftest import scenario_dict

STANDS = [("A1", "A", "T-72", 10, 12, 0), ("B1", "B", "T-72", 30, 12, 180)]


def _battle(fixed: bool = False, **kw) -> Battle:
    """A two-stand battle; saved battles use the seeded dice, since a load replays with them."""
    sc = parse_scenario(scenario_dict(STANDS), "t.json")
    if fixed:
        kw["dice"] = FixedDice([6, 6, 1, 1] * 5)
    return Battle(sc, 0, auto_pass=False, **kw)  # each pass and choice made by hand


@pytest.mark.parametrize(
    "edit",
    [
        lambda d: d["scenario"].update(turns=100),  # 3 turns became 100
        lambda d: d["scenario"].update(max_sighting_in=10),
        lambda d: d["scenario"]["stands"][0].update(unit="M1A2 Abrams"),
        lambda d: d.update(seed=1),
    ],
    ids=["turns", "sighting", "a unit", "the seed"],
)
def test_a_save_edited_after_saving_is_refused(tmp_path, edit):
    b = _battle()
    b.apply(Pass("A"))
    path = tmp_path / "s.json"
    b.save(path)
    assert Battle.load(path).state_hash() == b.state_hash()  # as saved, it loads
    doc = json.loads(path.read_text())
    edit(doc)
    path.write_text(json.dumps(doc))
    with pytest.raises(SaveError, match=r"\$\.scenario: the scenario or the seed was changed"):
        Battle.load(path)


def test_a_save_from_before_the_actions_hash_still_loads(tmp_path):
    """A hulldown-save/1 file written before the actions' digest was kept (#26 to #30) loads
    as before; one without its scenario_hash too is refused (#42,
    tests/hostile/test_data_loss.py)."""
    b = _battle()
    b.apply(Pass("A"))
    path = tmp_path / "s.json"
    b.save(path)
    doc = json.loads(path.read_text())
    doc["format"] = "hulldown-save/1"
    del doc["actions_hash"]
    path.write_text(json.dumps(doc))
    assert Battle.load(path).state_hash() == b.state_hash()


@pytest.mark.parametrize("field", ["scenario_hash", "actions_hash"])
def test_a_new_save_without_its_digests_is_refused(tmp_path, field):
    """#30: deleting a hulldown-save/2 file's digest no longer lets an edited scenario or
    action load as the same battle."""
    b = _battle()
    b.apply(Pass("A"))
    path = tmp_path / "s.json"
    b.save(path)
    doc = json.loads(path.read_text())
    del doc[field]
    path.write_text(json.dumps(doc))
    with pytest.raises(SaveError, match=rf"\$\.{field}: required field is missing"):
        Battle.load(path)


def test_a_full_disk_does_not_stop_the_battle(tmp_path):
    """The autosave's folder cannot be made (a file stands in its place) and the log's file
    fails: each action is still applied whole and in memory, and the battle says why."""
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("x")
    b = _battle(fixed=True, autosave=blocker / "autosave.json")
    events = b.apply(Pass("A"))
    assert [e["event"] for e in events] == ["pass"] and len(b.actions) == 1
    assert "the autosave could not be written" in b.autosave_error

    class FullDisk:
        def write(self, data):
            raise OSError(28, "No space left on device")

        def truncate(self, size):
            pass

        def close(self):
            pass

    b.log._fh = FullDisk()
    b.apply(Pass("B"))  # set-up over: turn 1's initiative is rolled and logged
    assert b.state.turn == 1 and b.log.events[-1]["event"] == "initiative"
    assert "No space left on device" in b.log.error
    b.apply(ChooseFirst("A", "A"))
    assert len(b.actions) == 3


def test_the_window_waits_for_the_ai_to_finish_thinking(monkeypatch):
    import threading

    from game.ui.battle.offframe import OffFrame
    from game.ui.battle.screen import BattleScreen

    class Thinking:
        def __init__(self):
            self.done = threading.Event()
            self.thread = threading.Thread(target=lambda: self.done.wait(0.3) or None)
            self.thread.start()

    screen = BattleScreen.__new__(BattleScreen)
    screen.mode = Thinking()
    screen.battle = None
    screen.work = OffFrame(None, lambda text: None)  # the part that settles off-frame work
    screen.close()
    assert not screen.mode.thread.is_alive()


def test_a_disk_that_fills_mid_line_leaves_only_whole_lines(tmp_path):
    """The disk takes 10 bytes of a line and then is full: the file is cut back to the last
    whole line, so the log on disk is every event up to the failure, each line whole."""
    path = tmp_path / "battle.jsonl"
    b = _battle(fixed=True, log_path=path)
    b.apply(Pass("A"))
    real = b.log._fh

    class FillsUp:
        def write(self, data):
            real.write(data[:10])
            raise OSError(28, "No space left on device")

        def truncate(self, size):
            return real.truncate(size)

        def close(self):
            real.close()

    written = len(b.log.events)
    b.log._fh = FillsUp()
    b.apply(Pass("B"))
    lines = path.read_bytes().split(b"\n")
    assert lines[-1] == b""  # ends on a newline: no half line
    assert [json.loads(x)["seq"] for x in lines[:-1]] == list(range(written))
    assert len(b.log.events) > written  # the battle went on in memory


def test_a_killed_writes_leftover_is_removed_by_the_next_save(tmp_path):
    """A process killed mid-save leaves ``.NAME.xxxx.tmp``; the next save of the same file
    removes it once it is older than a write can last, and leaves young ones (another writer
    at work) and other files' temporaries alone."""
    import os
    import time

    from game.rules.files.jsonfile import STALE_TEMP_S, write_atomic

    target = tmp_path / "autosave.json"
    old = tmp_path / ".autosave.json.abc123.tmp"
    young = tmp_path / ".autosave.json.def456.tmp"
    other = tmp_path / ".other.json.abc123.tmp"
    for f in (old, young, other):
        f.write_text("{half")
    past = time.time() - STALE_TEMP_S - 5
    os.utime(old, (past, past))
    os.utime(other, (past, past))
    write_atomic(target, "{}\n")
    assert target.read_text() == "{}\n"
    assert not old.exists() and young.exists() and other.exists()


def test_a_loaded_battle_writes_the_log_of_the_whole_battle(tmp_path, monkeypatch):
    """A battle saved half way and loaded from the menu writes to the same log file the whole
    battle: byte for byte the log of the same battle played without a break."""
    from game.check.sim import make_players
    from game.rules.files.scenario import load_scenario
    from game.saves import battle_log_path
    from game.ui.battles import continue_log

    monkeypatch.setenv("HULLDOWN_DATA_DIR", str(tmp_path / "data"))
    sc = load_scenario("maps/modern-skirmish.json")
    whole = tmp_path / "whole.jsonl"
    straight = Battle(sc, 5, log_path=whole)
    players = make_players(straight, ("random", "random"))
    while not straight.finished:
        straight.apply(players[straight.to_act].choose(straight))
    straight.log.close()

    half = Battle(sc, 5)
    for action in straight.actions[: len(straight.actions) // 2]:
        half.apply(action)
    half.save(tmp_path / "half.json")
    loaded = continue_log(Battle.load(tmp_path / "half.json"))
    assert loaded.log_path == battle_log_path(sc.path, 5)
    for action in straight.actions[len(loaded.actions) :]:
        loaded.apply(action)
    loaded.log.close()
    assert Path(loaded.log_path).read_bytes() == whole.read_bytes()


def test_battle_log_names_are_safe(tmp_path, monkeypatch):
    from game.saves import battle_log_path

    monkeypatch.setenv("HULLDOWN_DATA_DIR", str(tmp_path))
    assert battle_log_path("../../etc/x y.json", 3).name == "x_y-seed3.jsonl"
    assert battle_log_path("", 3).name == "battle-seed3.jsonl"
    assert battle_log_path("../../etc/x.json", 3).parent == tmp_path / "logs"


@pytest.mark.parametrize("label", ["../../x.json", "/dev/zero", str(Path("maps/nowhere.json"))])
def test_play_again_after_a_load_never_opens_the_saves_scenario_path(tmp_path, monkeypatch, label):
    """A save's scenario_path is a label: "Play again" after loading plays the scenario the
    save carries (seed + 1), whatever file the label names."""
    from game.rules.files.scenario import load_scenario
    from game.ui.battles import new_battle

    monkeypatch.setenv("HULLDOWN_DATA_DIR", str(tmp_path / "data"))
    b = Battle(load_scenario("maps/modern-skirmish.json"), 2)
    b.save(tmp_path / "s.json")
    doc = json.loads((tmp_path / "s.json").read_text())
    doc["scenario_path"] = label
    (tmp_path / "s.json").write_text(json.dumps(doc))
    loaded = Battle.load(tmp_path / "s.json")

    def no_opening(path):
        raise AssertionError(f"opened {path}")

    monkeypatch.setattr("game.load_scenario", no_opening)  # what the menu calls
    again = new_battle(loaded.scenario, loaded.seed + 1)
    assert again.seed == 3 and again.scenario.raw == doc["scenario"]
    assert again.log_path.parent == tmp_path / "data" / "logs"
    again.log.close()


def test_a_new_battle_on_a_full_disk_starts_and_says_why(tmp_path, monkeypatch):
    """Starting a battle wrote its first autosave outside apply(), so a full disk gave a
    traceback before the table appeared; now the battle starts and carries the reason."""
    from game.ui.battles import new_battle

    monkeypatch.setenv("HULLDOWN_DATA_DIR", str(tmp_path / "data"))

    def full(path, text):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr("game.rules.files.journal.write_atomic", full)
    b = new_battle("maps/modern-skirmish.json", 1)
    assert b.autosave_error.endswith(
        "autosave.json: the autosave could not be written (No space left on device)"
    )
    b.log.close()
