"""``tools/ai/tune_ai.py --try``: one set of Level weights played against the veteran on
every scenario, seed and seat (docs/ai.md, "Seeking the win")."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tools" / "ai"))

import tune_ai  # noqa: E402

SKIRMISH = str(ROOT / "maps" / "modern-skirmish.json")


class _InProcess:
    """A pool that plays the jobs here, one after another."""

    def map(self, fn, jobs, chunksize=1):
        return [fn(j) for j in jobs]


def test_the_veterans_own_weights_score_exactly_a_half_against_it():
    """The veteran is deterministic, so the same seed's two seats are one battle mirrored:
    whatever each ends in, the two results sum to one."""
    doc = tune_ai.try_weights(_InProcess(), [SKIRMISH], {"caution": 1.1}, [7])
    assert doc["battles"] == 2
    assert doc["score"] == 0.5
    assert doc["wins"] == doc["losses"]
    assert set(doc["per_seat"]) == {"modern-skirmish A", "modern-skirmish B"}
    assert doc["low"] < 0.5 < doc["high"]


def test_a_misspelt_weight_is_refused_before_a_battle_is_played(capsys):
    with pytest.raises(TypeError):
        tune_ai.try_weights(_InProcess(), [SKIRMISH], {"drawworth": 0.2}, [7])
    with pytest.raises(SystemExit) as e:
        tune_ai.main(["--try", '{"drawworth": 0.2}', "--scenarios", SKIRMISH])
    assert "--try" in str(e.value) and "drawworth" in str(e.value)
