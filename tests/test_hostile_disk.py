"""Hostile disks (issue #30): ``hulldown simulate`` on a full disk stops with the error and a
non-zero exit instead of printing "logs in ..." over empty logs (before the mend: exit 0, 196
of 200 logs empty). The disk fills after a given number of bytes: the battle log's file
object raises OSError(ENOSPC) as a full tmpfs does."""

from __future__ import annotations

import errno
import io
import json
from pathlib import Path

import pytest

import game.rules.log as log_module
from game.cli import main
from game.rules.log import check_log

ROOT = Path(__file__).resolve().parents[1]
SKIRMISH = str(ROOT / "maps" / "modern-skirmish.json")


class _Disk:
    """A disk that holds ``room`` bytes of battle logs in all, then raises ENOSPC."""

    def __init__(self, room: int):
        self.room = room

    def open(self, path, mode="r", *args, **kwargs):
        fh = io.FileIO(path, mode.replace("b", "") or "r")
        if "w" not in mode:
            return fh
        disk = self

        class Full(io.FileIO):
            def write(self, data):
                if len(data) > disk.room:
                    raise OSError(errno.ENOSPC, "No space left on device")
                disk.room -= len(data)
                return super().write(data)

        fh.close()
        return Full(path, "w")


@pytest.mark.parametrize(
    "room, games, done",
    [(0, 3, 0), (30_000, 3, 1), (60_000, 5, 2)],
    ids=["full from the start", "full in the second battle", "full in the third battle"],
)
def test_simulate_on_a_full_disk_fails_with_the_error(
    tmp_path, monkeypatch, capsys, room, games, done
):
    monkeypatch.setattr(log_module, "open", _Disk(room).open, raising=False)
    logs = tmp_path / "logs"
    code = main(["simulate", SKIRMISH, "--games", str(games), "--log-dir", str(logs), "--quiet"])
    out, err = capsys.readouterr()
    assert code == 1
    assert "logs in" not in out and "battles of" not in out
    bad = logs / f"battle-{done + 1:04d}-seed-{done + 1}.jsonl"
    assert err.splitlines() == [
        f"hulldown simulate: {bad}: the battle log could not be written (No space left on "
        f"device); stopped after {done} of {games} battles (their logs are whole)"
    ]
    for k in range(done):  # the battles before it: whole logs, start to end
        lines = (logs / f"battle-{k + 1:04d}-seed-{k + 1}.jsonl").read_text().splitlines()
        assert check_log([json.loads(x) for x in lines]) == []
    text = bad.read_bytes()
    assert text == b"" or text.endswith(b"\n")  # cut back to its last whole line
    assert not (logs / f"battle-{done + 2:04d}-seed-{done + 2}.jsonl").exists()


def test_simulate_with_room_enough_still_says_where_the_logs_are(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(log_module, "open", _Disk(10**9).open, raising=False)
    logs = tmp_path / "logs"
    assert main(["simulate", SKIRMISH, "--games", "2", "--log-dir", str(logs), "--quiet"]) == 0
    assert f"logs in {logs}/" in capsys.readouterr().out
    assert len(list(logs.iterdir())) == 2
