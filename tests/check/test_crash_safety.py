"""Crash safety (#26): a battle killed with SIGKILL at random moments resumes from its
autosave with every action it had reported done. tools/checks/crash_safety.py runs 50 kills for the
figure in docs/reliability.md; CI runs 4."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "tools" / "checks"))
import crash_safety  # noqa: E402


@pytest.mark.skipif(os.name != "posix", reason="SIGKILL is POSIX")
def test_killed_battles_resume_with_nothing_reported_lost(capsys):
    assert crash_safety.main(["--kills", "4", "--seed", "3"]) == 0
    out = capsys.readouterr().out
    assert "4 kills:" in out and "0 failed, 0 actions reported done and lost" in out
