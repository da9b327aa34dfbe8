"""The regression corpus (game/check/corpus.py, recorded by tools/checks/make_corpus.py): every battle
played again gives a byte-identical battle log and the same state hash, and every save loads,
replays to its state hash and writes the same log. A change that should not change play (the
engine renovation) keeps this green; one that should (a rules fix) re-records the corpus in
its own commit and says why."""

from __future__ import annotations

import json

import pytest

from game.check.corpus import CORPUS_DIR, ROOT, cases, digest, load_manifest, play
from game.rules.battle import Battle

MANIFEST = load_manifest()
CASES = cases()


def test_the_manifest_records_every_case_and_no_other():
    assert sorted(MANIFEST) == sorted(c.name for c in CASES)
    assert len(CASES) >= 40
    rulesets = {
        json.loads((ROOT / "maps" / c.scenario).read_text(encoding="utf-8"))["ruleset"]
        for c in CASES
    }
    players = {p for c in CASES for p in c.players}
    assert rulesets == {"modern", "wwii", "modern-full", "wwii-47"}
    assert {"random", "recruit", "veteran", "screen"} <= players


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_a_battle_played_again_gives_the_same_log_bytes(case, tmp_path, monkeypatch):
    monkeypatch.setenv("HULLDOWN_DATA_DIR", str(tmp_path / "data"))
    want = MANIFEST[case.name]
    log = tmp_path / "battle.jsonl"
    battle = play(case, log)
    assert battle.state_hash() == want["state_hash"]
    assert len(battle.actions) == want["actions"]
    assert digest(log) == want["log_sha256"]


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_a_save_replays_to_its_state_hash_and_the_same_log(case, tmp_path):
    want = MANIFEST[case.name]
    log = tmp_path / "replayed.jsonl"
    battle = Battle.load(CORPUS_DIR / f"{case.name}.save.json", log_path=log)
    assert battle.state_hash() == want["state_hash"]
    assert digest(log) == want["log_sha256"]
