"""The autosave as an append-only journal (#30): written whole once, then one line per action;
it loads to the same state hash as the battle, survives a line cut short, refuses an edited
line, and keeps the save format's promises. Action fields in saves are checked exactly."""

from __future__ import annotations

import json

import pytest

from game.ai.random_player import RandomPlayer
from game.rules.actions import action_from_dict
from game.rules.battle import Battle, SaveError
from game.rules.files import journal as journal_module
from game.rules.files.journal import JOURNAL_FORMAT, read_journal
from game.rules.files.replay import Replay
from game.rules.files.scenario import load_scenario


def _play(battle: Battle, n: int, seed: int = 5) -> None:
    players = {s: RandomPlayer(seed + i) for i, s in enumerate(battle.sides)}
    for _ in range(n):
        if battle.finished:
            break
        battle.apply(players[battle.to_act].choose(battle))


@pytest.fixture
def played(tmp_path):
    """A modern-meeting battle, 60 random actions, autosaved to a journal."""
    auto = tmp_path / "autosave.json"
    b = Battle(load_scenario("maps/modern-meeting.json"), 11, autosave=auto)
    b.meta = {"ai": {}, "ai_speed": 12.0}
    _play(b, 60)
    assert not b.finished  # the battle goes on after the load
    b.close_autosave()
    return b, auto


def test_the_journal_is_written_whole_once_then_a_line_per_action(tmp_path, monkeypatch):
    writes = []
    real = journal_module.write_atomic
    monkeypatch.setattr(
        journal_module, "write_atomic", lambda p, t: (writes.append(p), real(p, t))[1]
    )
    auto = tmp_path / "autosave.json"
    b = Battle(load_scenario("maps/modern-meeting.json"), 11, autosave=auto)
    _play(b, 40)
    b.close_autosave()
    assert len(writes) == 1  # the header, at the first action; every other action appends
    lines = auto.read_text().splitlines()
    header = json.loads(lines[0])
    assert header["format"] == JOURNAL_FORMAT and len(header["actions"]) == 1
    assert len(lines) == 1 + len(b.actions) - 1  # one line for each later action
    assert json.loads(lines[-1])["state_hash"] == b.state_hash()


def test_the_journal_loads_to_the_same_battle(played):
    b, auto = played
    loaded = Battle.load(auto)
    assert loaded.state_hash() == b.state_hash()
    assert loaded.actions == b.actions
    assert loaded.log.events == b.log.events
    assert loaded.meta == {"ai": {}, "ai_speed": 12.0}
    assert Replay.from_save(auto).length == len(b.actions)  # hulldown replay AUTOSAVE


def test_resuming_writes_the_journal_anew_and_goes_on(played, tmp_path):
    b, auto = played
    resumed = Battle.load(auto, autosave=auto)
    resumed.meta = {**resumed.meta, "ai": {"B": "veteran"}}  # as `play --resume --ai B`
    resumed.start_autosave()  # as the battle screen does when it opens
    resumed.meta = {**resumed.meta, "ai": {"B": "veteran", "A": "recruit"}}
    _play(resumed, 10, seed=9)
    resumed.close_autosave()
    again = Battle.load(auto)
    assert again.state_hash() == resumed.state_hash()
    assert again.meta["ai"] == {"B": "veteran", "A": "recruit"}  # on the next line
    header = json.loads(auto.read_text().splitlines()[0])
    assert len(header["actions"]) == len(b.actions)


def test_a_line_cut_short_by_a_kill_loses_only_that_action(played):
    b, auto = played
    text = auto.read_text()
    last = text.splitlines()[-1]
    auto.write_text(text + last[: len(last) // 2])  # the next line, half written
    loaded = Battle.load(auto)
    assert loaded.state_hash() == b.state_hash() and len(loaded.actions) == len(b.actions)
    cut = text[: -len(last) // 2 - 1]  # the last line itself half written, no newline
    auto.write_text(cut)
    loaded = Battle.load(auto)
    assert len(loaded.actions) == len(b.actions) - 1


@pytest.mark.parametrize(
    ("edit", "says"),
    [
        (lambda ls, i: ls.__setitem__(i, ls[i][:-5]), "not valid JSON"),
        (lambda ls, i: ls.__setitem__(i, "[1, 2]"), "must be an object"),
        (lambda ls, i: ls.__setitem__(i, '{"action": {}, "state_hash": 3}'), "must be text"),
        (lambda ls, i: ls.__setitem__(i, '{"state_hash": "ab"}'), "$.action: must be"),
        (lambda ls, i: ls.insert(i, ""), "not valid JSON"),
    ],
    ids=["cut mid-file", "a list", "hash not text", "no action", "blank line"],
)
def test_a_broken_line_in_the_middle_is_refused_naming_it(played, edit, says):
    _, auto = played
    lines = auto.read_text().splitlines()
    edit(lines, 5)
    auto.write_text("\n".join(lines) + "\n")
    with pytest.raises(SaveError) as err:
        Battle.load(auto)
    assert f"{auto}: line 6" in str(err.value) and says in str(err.value)


def test_an_action_edited_in_the_journal_is_refused_where_it_is(played):
    """#30: a move's facing turned by 90 degrees loaded with the same final hash; each line's
    state hash now catches it at that action."""
    _, auto = played
    lines = auto.read_text().splitlines()
    n = next(i for i, ln in enumerate(lines[1:], 1) if json.loads(ln)["action"]["kind"] == "move")
    line = json.loads(lines[n])
    line["action"]["facing_deg"] = (line["action"]["facing_deg"] + 90) % 360
    lines[n] = json.dumps(line)
    auto.write_text("\n".join(lines) + "\n")
    header_actions = len(json.loads(lines[0])["actions"])
    with pytest.raises(SaveError, match=rf"\$\.actions\[{header_actions + n - 1}\]: the replay"):
        Battle.load(auto)


def _saved(tmp_path, n: int):
    """A modern-meeting battle of ``n`` random actions saved with Ctrl+S: its path and JSON."""
    b = Battle(load_scenario("maps/modern-meeting.json"), 11)
    _play(b, n)
    path = tmp_path / "s.json"
    b.save(path)
    return path, json.loads(path.read_text())


def test_a_saved_move_turned_90_degrees_is_refused(tmp_path):
    """The same edit in a Ctrl+S save (hulldown-save/2) breaks its actions_hash."""
    path, doc = _saved(tmp_path, 60)
    assert doc["format"] == "hulldown-save/2"
    move = next(a for a in doc["actions"] if a["kind"] == "move")
    move["facing_deg"] = (move["facing_deg"] + 90) % 360
    path.write_text(json.dumps(doc))
    with pytest.raises(SaveError, match=r"\$\.actions: the actions were changed"):
        Battle.load(path)


def test_the_header_is_checked_like_a_save(played):
    _, auto = played
    lines = auto.read_text().splitlines()
    header = json.loads(lines[0])
    header["scenario"]["turns"] = 99
    lines[0] = json.dumps(header, separators=(",", ":"))
    auto.write_text("\n".join(lines) + "\n")
    with pytest.raises(SaveError, match=r"the scenario or the seed was changed"):
        Battle.load(auto)
    del header["scenario_hash"]
    lines[0] = json.dumps(header, separators=(",", ":"))
    auto.write_text("\n".join(lines) + "\n")
    with pytest.raises(SaveError, match=r"\$\.scenario_hash: required field is missing"):
        Battle.load(auto)


def test_read_journal_gives_a_check_per_line(played):
    b, auto = played
    doc, checks = read_journal(auto)
    assert doc["actions"] == [a.to_dict() for a in b.actions]
    assert max(checks) == len(b.actions) and checks[len(b.actions)] == b.state_hash()
    assert len(checks) == len(auto.read_text().splitlines())  # the header's and each line's


MOVE = {"kind": "move", "side": "A", "stand": "A1", "path": [[1, 2], [3, 4]], "facing_deg": 90}


@pytest.mark.parametrize(
    ("change", "says"),
    [
        ({"facing_deg": True}, "facing_deg: must be a number, not true"),
        ({"facing_deg": 1e308}, "facing_deg: must be a number from -720 to 720"),
        ({"facing_deg": "90"}, 'facing_deg: must be a number, not "90"'),
        ({"path": [[1, 2]] * 20_000}, "path: has 20000 points, more than 1000"),
        ({"path": []}, "path: must be a list of [x, y] points"),
        ({"path": [[1, 2], [3]]}, "path[1]: must be a point [x, y] in inches"),
        ({"path": [[1, 2], [True, 4]]}, "path[1]: must be a number, not true"),
        ({"path": [[1, 2], [1e300, 4]]}, "path[1]: must be a number from -10000 to 10000"),
        ({"stand": 7}, "stand: must be text, not 7"),
        ({"stand": ""}, "stand: must be 1 to 100 characters"),
        ({"side": ["A"]}, "side: must be text, not a list"),
    ],
)
def test_a_move_field_of_the_wrong_type_is_refused(change, says):
    with pytest.raises(ValueError) as err:
        action_from_dict({**MOVE, **change})
    assert str(err.value).startswith(says)


@pytest.mark.parametrize(
    ("action", "says"),
    [
        ({"kind": "move_attempt", "side": "A", "group": "1", "ordered": "yes"}, "ordered: must"),
        ({"kind": "move_attempt", "side": "A", "group": "1", "ordered": 1}, "ordered: must"),
        (
            {"kind": "opportunity_fire", "side": "A", "step": True, "attackers": [], "weapons": []},
            "step: must be a whole number",
        ),
        (
            {"kind": "opportunity_fire", "side": "A", "step": 2.0, "attackers": [], "weapons": []},
            "step: must be a whole number",
        ),
        (
            {"kind": "fire", "side": "A", "target": "B1", "attackers": "A1", "weapons": []},
            "attackers: must be a list of ids",
        ),
        (
            {"kind": "fire", "side": "A", "target": "B1", "attackers": [1], "weapons": []},
            "attackers[0]: must be text",
        ),
        ({"kind": 3, "side": "A"}, "unknown action kind 3"),
    ],
)
def test_other_fields_are_checked_exactly(action, says):
    with pytest.raises(ValueError) as err:
        action_from_dict(action)
    assert str(err.value).startswith(says)


def test_a_bad_action_in_a_save_names_its_path(tmp_path):
    path, doc = _saved(tmp_path, 30)
    i = next(i for i, a in enumerate(doc["actions"]) if a["kind"] == "move")
    doc["actions"][i]["facing_deg"] = True
    doc["format"] = "hulldown-save/1"  # no digest: the field check itself must catch it
    del doc["actions_hash"]
    path.write_text(json.dumps(doc))
    with pytest.raises(SaveError) as err:
        Battle.load(path)
    assert str(err.value) == (f"{path}: $.actions[{i}].facing_deg: must be a number, not true")


def test_every_file_written_atomically_gets_the_users_permissions(tmp_path):
    """#30: files came out 0600 (the temporary file's mode); a save, the autosave journal
    and a log copy now get 0666 less the umask, and a file written over keeps its own."""
    import os

    from game.rules.files.jsonfile import write_atomic

    old = os.umask(0o022)
    try:
        auto = tmp_path / "autosave.json"
        b = Battle(load_scenario("maps/modern-skirmish.json"), 11, autosave=auto)
        _play(b, 3)
        b.close_autosave()
        b.save(tmp_path / "s.json")
        assert auto.stat().st_mode & 0o777 == 0o644
        assert (tmp_path / "s.json").stat().st_mode & 0o777 == 0o644
        os.chmod(tmp_path / "s.json", 0o640)
        write_atomic(tmp_path / "s.json", "{}")
        assert (tmp_path / "s.json").stat().st_mode & 0o777 == 0o640
    finally:
        os.umask(old)
