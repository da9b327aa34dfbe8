"""``hulldown replay FILE --check``: a battle log or a save read, stepped through at
every position and every line put into words as the replay's log panel shows it, with no
window; users check a log before they send it, and the hostile-input tests use it.

The log is read as ``hulldown replay`` reads it (:class:`game.LogReplay`: every field the
replay and the panel read checked first), so a file this passes is one the replay shows; a
problem is one line naming the file and the line. An exception other than the replay's own
refusal is a bug in the replay: it is reported as :class:`ReplayBug`, still one line, so a
user never meets a traceback and the mutation tests can count it.
"""

from __future__ import annotations

import os
from collections.abc import Callable

from game import LogReplay, LogReplayError, Replay, SaveError
from game.ui.logwords import sentence


class ReplayBug(LogReplayError):
    """The replay or its sentences raised something other than their one-line refusal: a
    bug, named with the file, the line (when known) and the exception."""


def _bug(where: str, err: Exception) -> ReplayBug:
    return ReplayBug(
        f"{where}: the replay cannot show it ({type(err).__name__}: {err}); "
        "this is a bug in hulldown, please report it with the file"
    )


def _names(battle) -> tuple[dict[str, str], dict[str, str]]:
    """The stands' and sides' names as the replay screen writes them."""
    names = {s.id: f"{s.unit_name} {s.id}" for s in battle.state.stands.values()}
    sides = {s: battle.side_spec[s].name for s in battle.sides}
    return names, sides


def check_log(path: str | os.PathLike, progress: Callable[[int, int], None] | None = None) -> str:
    """Check a battle log (``.jsonl``) as the replay reads and shows it: read it
    (:meth:`game.LogReplay.from_file`, ``progress`` called with the bytes read and the
    file's size), step from position 0 to the end one line at a time, put each line into
    the panel's words (:func:`game.ui.logtext.sentence`), then jump back to the start of each
    turn (the checkpoints restored). Returns the one-line summary.

    Raises
    ------
    LogReplayError
        ``FILE: line N: problem`` for a log the replay refuses; :class:`ReplayBug` for any
        other exception on the way.
    """
    where = str(path)
    try:
        r = LogReplay.from_file(path, progress)
    except LogReplayError:
        raise
    except Exception as err:  # noqa: BLE001 - a bug, said in one line
        raise _bug(where, err) from err
    names, sides = _names(r.battle)
    i = 0
    try:
        r.goto(0)
        sentence(r.all_events[0], names, sides)
        for i in range(1, r.length + 1):
            r.goto(i)
            sentence(r.all_events[i], names, sides)
        for start in reversed(r.turn_starts):
            r.goto(start)
    except LogReplayError:
        raise
    except Exception as err:  # noqa: BLE001
        raise _bug(f"{where}: line {i + 1}", err) from err
    last = r.all_events[r.length]
    turns = last["turn"]
    if r.unfinished:
        how = f"but {r.unfinished}"
    elif last.get("winner") is None:
        how = "a draw"
    else:
        how = f"won by {sides.get(last['winner'], last['winner'])}"
    return (
        f"{where}: ok ({r.battle.scenario.ruleset}, {r.length + 1:,} lines replayed and put "
        f"into words, {turns} turn{'' if turns == 1 else 's'}; {how})"
    )


def check_save(path: str | os.PathLike) -> str:
    """Check a save as the replay shows it: its actions played again
    (:meth:`game.Replay.from_save`), every position stepped through, every line of the
    battle's log put into words. Returns the one-line summary.

    Raises
    ------
    SaveError
        As ``Battle.load`` for a save it refuses; :class:`ReplayBug` for any other exception.
    """
    where = str(path)
    try:
        r = Replay.from_save(path)
    except SaveError:
        raise
    except Exception as err:  # noqa: BLE001
        raise _bug(where, err) from err
    names, sides = _names(r.battle)
    try:
        for ev in r.end_events:
            sentence(ev, names, sides)
        r.goto(0)
        for i in range(1, r.length + 1):
            r.goto(i)
    except Exception as err:  # noqa: BLE001
        raise _bug(where, err) from err
    turns = r.battle.state.turn
    return (
        f"{where}: ok ({r.battle.scenario.ruleset}, {r.length:,} actions replayed, "
        f"{len(r.end_events):,} log lines put into words, {turns} turn{'' if turns == 1 else 's'})"
    )
