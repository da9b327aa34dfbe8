"""check_log on logs with a field of the wrong type (#26): every problem is a line in the
list it returns, never an exception. Before the mend, 418 of 2,000 one-field mutations of real
logs raised TypeError or AttributeError. And the replay of a log (#30): every field it reads
checked, lines out of order refused, a log cut by a kill said, a long log streamed."""

from __future__ import annotations

import copy
import json
import random
from pathlib import Path

import pytest

from game.rules.battle import Battle
from game.rules.files.log import check_log, check_log_line

CORPUS = Path(__file__).resolve().parents[1] / "corpus"
WRONG = [None, "x", [], {}, 1.5, -1, True, [1], {"a": 1}]


@pytest.fixture(scope="module")
def logs() -> list[list[dict]]:
    """The events of three corpus battles, replayed (the log is written in memory)."""
    saves = sorted(CORPUS.glob("*.save.json"))[:3]
    return [Battle.load(p).log.events for p in saves]


def test_real_logs_are_clean(logs):
    assert all(check_log(events) == [] for events in logs)


@pytest.mark.parametrize(
    "event, field, value, problem",
    [
        ("pass", "phase", [], "unknown phase []"),
        ("fire", "event", {}, "unknown event {}"),
        ("move", "mp_spent", "3", "move: mp_spent and mp_allowed must be numbers"),
        ("move", "stopped_by", ["mp"], "move: unknown stopped_by ['mp']"),
        ("fire", "cohesion", 1.5, "fire.cohesion must be an object"),
        ("move_attempt", "per_stand", [1], "move_attempt.per_stand must map stands to objects"),
        ("move_attempt", "roll", None, "roll and total must be integers"),
        ("orders", "dice", {"a": 1}, "orders: dice, command value, generation and total"),
        ("marker_removal", "roll", True, "marker_removal: roll and total must be integers"),
    ],
)
def test_a_field_of_the_wrong_type_is_named(logs, event, field, value, problem):
    events = copy.deepcopy(next(e for e in logs if any(x["event"] == event for x in e)))
    i = next(i for i, x in enumerate(events) if x["event"] == event)
    events[i][field] = value
    found = check_log(events)
    assert any(f"line {i + 1}: " in p and problem in p for p in found), found


def test_two_thousand_mutations_raise_nothing(logs):
    rng = random.Random(26)
    flagged = 0
    for _ in range(2000):
        events = copy.deepcopy(rng.choice(logs))
        ev = rng.choice(events)
        ev[rng.choice(list(ev))] = rng.choice(WRONG)
        flagged += bool(check_log(events))  # raises on the old code
    assert flagged > 1000  # most wrong types are also reported, not just survived


def test_lines_that_are_not_objects(logs):
    events = [*copy.deepcopy(logs[0][:-1]), ["end"]]
    found = check_log(events)
    assert f"line {len(events)}: not a JSON object but list" in found
    assert "the last line is not an end" in found


# ---------------------------------------------------------------- the replay of a log (#30)
# ``hulldown replay LOG.jsonl`` reads every field its lines and the log panel's sentences
# use; before the mend 67 hostile logs raised from the sentences (initiative.rolls a list,
# side a list, differential 2.5, an unknown outcome, an int why) and logs out of order
# replayed silently.


def _nth(events, name, n=0):
    return [i for i, e in enumerate(events) if e["event"] == name][n]


def _set(name, path, value, pick=lambda e: True):
    """Set ``path`` (keys) of the first line of event ``name`` that ``pick`` accepts."""

    def spoil(events):
        i = next(i for i, e in enumerate(events) if e["event"] == name and pick(e))
        target = events[i]
        for key in path[:-1]:
            target = target[key]
        target[path[-1]] = value
        return i

    return spoil


def _passed(e):
    return e["cohesion"]["passed"] is True


FIELD_CASES = {
    "initiative.rolls a list": (
        _set("initiative", ["rolls"], [1, 2]),
        "initiative.rolls: must be an object, not [1, 2]",
    ),
    "initiative.rolls of an unknown side": (
        _set("initiative", ["rolls"], {"Z": {"dice": [1], "total": 1}}),
        "initiative.rolls key 'Z': must be a side of the start line, not 'Z'",
    ),
    "initiative.winner a list": (
        _set("initiative", ["winner"], ["A"]),
        "initiative.winner: must be a side of the start line, not ['A']",
    ),
    "pass.side a list": (_set("pass", ["side"], ["A"]), "pass.side: must be a side of the start"),
    "fire.side unknown": (_set("fire", ["side"], "C"), "fire.side: must be a side of the start"),
    "fire.differential 2.5": (
        _set("fire", ["differential"], 2.5, _passed),
        "fire.differential: must be a whole number, not 2.5",
    ),
    "fire.differential true": (
        _set("fire", ["differential"], True, _passed),
        "fire.differential: must be a whole number, not True",
    ),
    "fire.cohesion.mods why an int": (
        _set("fire", ["cohesion", "mods", 0, "why"], 3, lambda e: e["cohesion"]["mods"]),
        "fire.cohesion.mods[0].why: must be text, not 3",
    ),
    "fire.cohesion.passed 'yes'": (
        _set("fire", ["cohesion", "passed"], "yes", _passed),
        "fire.cohesion.passed: must be true or false, not 'yes'",
    ),
    "fire.target_markers_after a list": (
        _set("fire", ["target_markers_after"], [], _passed),
        "fire.target_markers_after: must be an object, not []",
    ),
    "fire.depleted 'yes'": (
        _set("fire", ["depleted"], "yes"),
        "fire.depleted: must be true or false, not 'yes'",
    ),
    "marker_removal.outcome unknown": (
        _set("marker_removal", ["outcome"], "fled"),
        "marker_removal.outcome: must be one of 'recovered', 'rallied', 'panic', 'none', not "
        "'fled'",
    ),
    "marker_removal.outcome a list": (
        _set("marker_removal", ["outcome"], ["none"]),
        "marker_removal.outcome: must be one of",
    ),
    "marker_removal.markers_after.S null": (
        _set("marker_removal", ["markers_after", "S"], None),
        "marker_removal.markers_after.S: must be true or false, not None",
    ),
    "move.path empty": (_set("move", ["path"], []), "move.path: must be a non-empty list, not []"),
    "move.path of 3-D points": (
        _set("move", ["path"], [[1, 2, 3]]),
        "move.path[0]: must be [x, y] in inches, not [1, 2, 3]",
    ),
    "move.entered 0": (_set("move", ["entered"], 0), "move.entered: must be true or false, not 0"),
    "move.facing_deg text": (
        _set("move", ["facing_deg"], "90"),
        "move.facing_deg: must be a number, not '90'",
    ),
    "move_attempt.per_stand.passed 'no'": (
        lambda ev: _set(
            "move_attempt",
            ["per_stand", next(iter(ev[_nth(ev, "move_attempt")]["per_stand"])), "passed"],
            "no",
        )(ev),
        "must be true or false, not 'no'",
    ),
    "move_attempt.ordered null": (
        _set("move_attempt", ["ordered"], None),
        "move_attempt.ordered: must be true or false, not None",
    ),
    "orders.orders 1.5": (_set("orders", ["orders"], 1.5), "orders.orders: must be a whole number"),
    "end_turn.losses a list": (
        _set("end_turn", ["losses"], [0, 1]),
        "end_turn.losses: must be an object, not [0, 1]",
    ),
    "end_turn.losses of 1.5": (
        _set("end_turn", ["losses"], {"A": 1.5}),
        "end_turn.losses.A: must be a whole number, not 1.5",
    ),
    "end.winner a number": (
        _set("end", ["winner"], 1),
        "end.winner: must be a side of the start line or null, not 1",
    ),
    "end.reason a list": (_set("end", ["reason"], []), "end.reason: must be text, not []"),
    "start.sides an object": (
        _set("start", ["sides"], {"A": {}}),
        "line 1 (start): start.sides: must be a list, not {'A': {}}",
    ),
    "start.stands without a unit": (
        lambda ev: ev[0]["stands"][1].pop("unit") and 0,
        "line 1 (start): start.stands[1].unit: is missing",
    ),
    "start.scenario text": (
        _set("start", ["scenario"], "Meeting"),
        "line 1 (start): start.scenario: must be an object, not 'Meeting'",
    ),
    "start.sides[0].name with a NUL": (
        _set("start", ["sides", 0, "name"], "Blue\x00"),
        "line 1 (start): $.sides[0].name: a control character (U+0000) at character 4",
    ),
    "regroup.hq 'true'": (
        _set("regroup", ["hq"], "true"),
        "regroup.hq: must be true or false, not 'true'",
    ),
    "resupply.passed null": (
        _set("resupply", ["passed"], None),
        "resupply.passed: must be true or false, not None",
    ),
}


def _renumber(events):
    for k, e in enumerate(events):
        e["seq"] = k


def _reversed(events):
    events[1:] = events[1:][::-1]
    _renumber(events)


def _turn_back(events):
    i = _nth(events, "initiative", 2)
    events[i:] = [{**e, "turn": e["turn"] - 2} if k == 0 else e for k, e in enumerate(events[i:])]


def _skip_a_turn(events):
    i = _nth(events, "initiative", 1)
    for e in events[i:]:
        e["turn"] += 1


def _second_start(events):
    events.insert(5, copy.deepcopy(events[0]))
    _renumber(events)


def _after_the_end(events):
    events.append({**events[-2], "seq": len(events)})


def _past_the_last_turn(events):
    events[0]["turns"] = events[-1]["turn"] - 1


def _phase_back(events):
    i = next(
        k
        for k, e in enumerate(events[:-1])
        if e["phase"] == "fire1" and events[k + 1]["phase"] in ("fire1", "fire2")
    )
    events[i]["phase"] = "movement"


def _no_initiative(events):
    del events[_nth(events, "initiative", 2)]
    _renumber(events)


def _within_a_turn_reversed(events):
    a, b = _nth(events, "initiative", 2), _nth(events, "end_turn", 2)
    events[a + 1 : b] = events[a + 1 : b][::-1]
    _renumber(events)


ORDER_CASES = {
    "lines reversed": (_reversed, "line 2: turn"),
    "turns going back": (_turn_back, "the turns go back"),
    "a turn skipped": (_skip_a_turn, "a turn is missing"),
    "a second start line": (_second_start, "line 6: a second start line (a log holds one battle)"),
    "a line after the end": (_after_the_end, "a line after the end"),
    "a turn past the battle's last": (_past_the_last_turn, "the battle's last turn is"),
    "phases going back": (_phase_back, "phase of turn 1: the phases go back"),
    "a turn without its initiative roll": (_no_initiative, "not its initiative roll"),
    "a turn's lines reversed": (_within_a_turn_reversed, "the phases go back"),
}


def log_with_every_kind() -> list[dict]:
    """A corpus battle with every kind of line the cases spoil (resupply, regroup, ATGMs)."""
    for p in sorted(CORPUS.glob("*.save.json")):
        events = Battle.load(p).log.events
        kinds = {e["event"] for e in events}
        if {"resupply", "regroup", "marker_removal", "move_attempt", "orders"} <= kinds and any(
            "depleted" in e for e in events
        ):
            return events
    raise AssertionError("no corpus battle has every kind of line")


@pytest.fixture(scope="module")
def wwii_log() -> list[dict]:
    """The events of :func:`log_with_every_kind`."""
    return log_with_every_kind()


def long_log(events: list[dict], lines: int):
    """A log of about ``lines`` lines: ``events`` with each pass line repeated (renumbered),
    yielded one JSON line at a time (a stand-in for a very long battle)."""
    reps = max(1, lines // max(1, sum(e["event"] == "pass" for e in events)))
    seq = 0
    for e in events:
        for _ in range(reps if e["event"] == "pass" else 1):
            yield json.dumps({**e, "seq": seq}, separators=(",", ":")) + "\n"
            seq += 1


def _replay_says(tmp_path, events, capsys) -> str:
    """The one line ``LogReplay.from_file`` raises, and ``hulldown replay`` says with exit 1."""
    from game.cli import main
    from game.rules.files.logreplay import LogReplay, LogReplayError

    path = tmp_path / "hostile.jsonl"
    path.write_text("".join(json.dumps(e) + "\n" for e in events), encoding="utf-8")
    with pytest.raises(LogReplayError) as err:
        LogReplay.from_file(path)
    said = str(err.value)
    assert said.startswith(f"{path}: line ") and "\n" not in said
    assert main(["replay", str(path)]) == 1
    out = capsys.readouterr()
    assert out.err.splitlines() == [said] and "Traceback" not in out.err
    return said


@pytest.mark.parametrize("name", FIELD_CASES)
def test_a_field_the_replay_reads_of_the_wrong_type_is_named(tmp_path, capsys, wwii_log, name):
    spoil, words = FIELD_CASES[name]
    events = copy.deepcopy(wwii_log)
    i = spoil(events)
    said = _replay_says(tmp_path, events, capsys)
    if isinstance(i, int):
        assert f": line {i + 1}: " in said or f": line {i + 1} (start): " in said, said
    assert words in said, said


@pytest.mark.parametrize("name", ORDER_CASES)
def test_a_log_out_of_order_is_refused(tmp_path, capsys, wwii_log, name):
    spoil, words = ORDER_CASES[name]
    events = copy.deepcopy(wwii_log)
    spoil(events)
    assert not any(check_log_line(e, i) for i, e in enumerate(events))  # each line is right
    said = _replay_says(tmp_path, events, capsys)
    assert words in said, said


def replayed_or_refused(events) -> bool:
    """Replay a (mutated) log and put every line into words: True when it replays, False
    when the replay refuses it with its one line; anything else raised fails the test."""
    from game.rules.files.logreplay import LogReplay, LogReplayError
    from game.ui.logwords import describe

    try:
        r = LogReplay(events, "m.jsonl")
    except LogReplayError:
        return False
    names = {s: s for s in r.battle.state.stands}
    sides = {s: s for s in r.battle.sides}
    for e in r.all_events:
        describe(e, names, sides)
    r.goto(0)
    r.goto(r.length)
    return True


def test_six_hundred_mutations_never_raise_from_the_replay_or_its_sentences(logs):
    """Every one-field mutation of a real log is refused with its one line, or replays and
    puts every line into words; nothing else is raised (67 tracebacks before the mend)."""
    rng = random.Random(30)
    refused = 0
    for _ in range(600):
        events = copy.deepcopy(rng.choice(logs))
        ev = rng.choice(events[1:])
        target = ev
        key = rng.choice(list(ev))
        while isinstance(target[key], dict) and target[key] and rng.random() < 0.6:
            target, key = target[key], rng.choice(list(target[key]))
        target[key] = rng.choice(WRONG)
        refused += not replayed_or_refused(events)
    assert refused > 400


def test_a_log_cut_by_a_kill_says_it_ends_before_the_battle(tmp_path, capsys, logs):
    from game.cli import main
    from game.rules.files.logreplay import UNFINISHED, LogReplay
    from game.ui.replay import Sentences

    whole = LogReplay(logs[0])
    assert whole.unfinished is None
    cut = logs[0][:100]
    r = LogReplay(cut)
    assert r.unfinished == (
        f"{UNFINISHED}: its last line is in turn {cut[-1]['turn']} ({cut[-1]['phase']}) and "
        "no end line follows"
    )
    shown = Sentences(r.all_events, r.length, {}, {}, r.unfinished)
    assert shown[-1] == f"{r.unfinished[0].upper()}{r.unfinished[1:]}."
    assert len(shown) == r.length + 2  # the start line's sentence, one a line, the note
    path = tmp_path / "killed.jsonl"
    path.write_text("".join(json.dumps(e) + "\n" for e in cut), encoding="utf-8")
    assert main(["replay", str(path), "--frames", "2"]) == 0
    assert capsys.readouterr().err.splitlines() == [f"{path}: {r.unfinished}"]


def test_a_long_log_is_read_as_a_stream_in_bounded_memory(tmp_path, logs):
    """A log of 60,000 lines (pass lines repeated): the lines are kept compressed and the
    checkpoints thinned, so memory does not follow the log (780k lines took 1.4 GB before);
    progress is reported as it is read; a jump anywhere re-reads a bounded stretch."""
    import time
    import tracemalloc

    from game.rules.files.logreplay import MAX_CHECKPOINTS, LogReplay

    events = logs[0]
    path = tmp_path / "long.jsonl"
    with path.open("w", encoding="utf-8") as fh:
        fh.writelines(long_log(events, 60_000))
    seq = sum(1 for _ in path.open(encoding="utf-8"))
    seen = []
    tracemalloc.start()
    r = LogReplay.from_file(path, progress=lambda done, size: seen.append((done, size)))
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    size = path.stat().st_size
    assert r.length == seq - 1
    assert len(seen) >= 3 and seen[-1] == (size, size)
    assert [d for d, _ in seen] == sorted(d for d, _ in seen)
    assert len(r._marks) <= MAX_CHECKPOINTS
    assert peak < 16 * 2**20, (peak, size)  # 4 MB of lines; as a list of objects 80 MB
    t0 = time.perf_counter()
    for p in (r.length // 2, 3, r.length, r.length // 3):
        r.goto(p)
        assert r.events[-1]["seq"] == p
    assert time.perf_counter() - t0 < 2.0
    r.goto(r.length)
    assert r.battle.state.turn == events[-1]["turn"]


def test_fire_support_lines_mutated_never_raise_from_the_replay_or_its_sentences():
    """The plot, artillery, impact and air_strike lines (#32): any one field, nested ones
    too, of the wrong type is refused with its line or replays and is put into words."""
    saves = sorted(CORPUS.glob("modern-fire-support-*.save.json"))[:3]
    logs = [Battle.load(p).log.events for p in saves]
    kinds = ("plot", "artillery", "impact", "air_strike")
    assert all(any(e["event"] in kinds for e in ev) for ev in logs)
    rng = random.Random(32)
    refused = 0
    for _ in range(600):
        events = copy.deepcopy(rng.choice(logs))
        ev = rng.choice([e for e in events if e["event"] in kinds])
        target, key = ev, rng.choice(list(ev))
        while True:
            inner = target[key]
            if isinstance(inner, dict) and inner and rng.random() < 0.7:
                target, key = inner, rng.choice(list(inner))
            elif isinstance(inner, list) and inner and rng.random() < 0.7:
                target, key = inner, rng.randrange(len(inner))
            else:
                break
        target[key] = rng.choice(WRONG)
        refused += not replayed_or_refused(events)
    assert refused > 100
