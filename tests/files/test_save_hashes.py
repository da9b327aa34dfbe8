"""A plain save records the state hash after each of its actions, as the autosave journal
does, so that a save another engine plays otherwise says how many of its actions still agree
(and the battle may go on from there), not "0 of N"."""

from __future__ import annotations

import json

import pytest

from game import Battle, SaveDiverged, SaveError
from tests.helpers import _random_battle

AT = 9  # the first action whose recorded state hash this engine does not reach


def _save(tmp_path, n=30):
    """A battle of n random actions played with an autosave (as the battle screen plays),
    saved plainly; its path and the battle."""
    b = _random_battle(5, n, tmp_path / "auto.json")
    path = tmp_path / "save.json"
    b.save(path)
    return path, b


def _as_another_engine_wrote_it(path, at=AT):
    """The save as an engine whose rules part from this one's at action ``at`` would have
    written it: every state hash from that action on is another."""
    doc = json.loads(path.read_text())
    doc["state_hashes"][at - 1 :] = ["f" * 16] * (len(doc["state_hashes"]) - at + 1)
    doc["state_hash"] = "f" * 16
    doc["engine"] = {"version": "0.0.9", "rules": "0123456789ab"}
    path.write_text(json.dumps(doc))
    return len(doc["actions"])


def test_a_save_records_the_state_hash_after_each_action(tmp_path):
    path, b = _save(tmp_path)
    doc = json.loads(path.read_text())
    assert len(doc["state_hashes"]) == len(doc["actions"]) == len(b.actions)
    assert doc["state_hashes"][-1] == doc["state_hash"] == b.state_hash()
    again = Battle(b.scenario, b.seed)  # the hash after action k is the replay's after k
    for k, action in enumerate(b.actions[:12]):
        again.apply(action)
        assert again.state_hash() == doc["state_hashes"][k]


def test_a_save_that_parts_offers_the_last_action_that_agrees(tmp_path):
    path, _ = _save(tmp_path)
    total = _as_another_engine_wrote_it(path)
    with pytest.raises(SaveDiverged) as err:
        Battle.load(path)
    assert (err.value.agreed, err.value.total) == (AT - 1, total)
    said = str(err.value)
    assert f"$.actions[{AT - 1}]: the replay reached another state" in said
    assert f"the first {AT - 1} actions agree: the battle may go on from action {AT - 1}" in said
    assert err.value.note == ""
    b = Battle.load(path, upto=AT - 1)
    assert len(b.actions) == AT - 1
    assert b.load_note.startswith(f"Went on from action {AT - 1} of {total}")


def test_a_loaded_battle_saves_its_hashes_again(tmp_path):
    path, b = _save(tmp_path)
    loaded = Battle.load(path)  # no autosave: the replay keeps them all the same
    loaded.save(tmp_path / "again.json")
    doc = json.loads((tmp_path / "again.json").read_text())
    assert doc["state_hashes"] == json.loads(path.read_text())["state_hashes"]


def test_a_resumed_autosave_keeps_the_hashes_of_its_header(tmp_path):
    path, b = _save(tmp_path)
    auto = tmp_path / "resumed.json"
    loaded = Battle.load(path, autosave=auto)
    loaded.start_autosave()  # the journal's header holds every action so far
    head = json.loads(auto.read_text().splitlines()[0])
    assert head["state_hashes"] == json.loads(path.read_text())["state_hashes"]


def test_an_older_save_says_why_none_can_be_shown_to_agree(tmp_path):
    path, _ = _save(tmp_path)
    doc = json.loads(path.read_text())
    del doc["state_hashes"]  # as saves were written before they kept them
    doc["state_hash"] = "f" * 16
    path.write_text(json.dumps(doc))
    with pytest.raises(SaveDiverged) as err:
        Battle.load(path)
    assert err.value.agreed == 0
    assert "records the battle's state only after its last action" in err.value.note
    assert "records the battle's state only after its last action" in str(err.value)
    assert "\n" not in str(err.value)


@pytest.mark.parametrize(
    ("value", "problem"),
    [
        (["ab"] * 3, "holds 3 state hashes for 30 actions"),
        ("abc", "must be a list of texts, not"),
        ([1] * 30, "must be a list of texts, not"),
    ],
)
def test_a_bad_state_hashes_field_is_one_line(tmp_path, value, problem):
    path, _ = _save(tmp_path)
    doc = json.loads(path.read_text())
    doc["state_hashes"] = value
    path.write_text(json.dumps(doc))
    with pytest.raises(SaveError) as err:
        Battle.load(path)
    assert f"{path}: $.state_hashes: {problem}" in str(err.value)
    assert not isinstance(err.value, SaveDiverged)
