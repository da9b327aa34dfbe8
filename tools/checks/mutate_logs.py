"""One-field mutations of real battle logs, each checked as ``hulldown replay FILE --check``
does (#42): the replay must refuse it in one line or show it, never raise anything else.

The logs are battles of the regression corpus (tests/corpus/), played again in memory, of
every ruleset (``LOGS_OF``: modern, modern-full, wwii, wwii-47), a full Modern one with every
kind of line (tests/hostile/test_log_hostile.py's ``log_with_every_kind``) and fire-support ones
(plot, artillery, impact, air_strike lines).
Each mutation changes one thing in one line:

- ``wrong type``: a field, at any depth, given a value of another type or shape;
- ``type swap``: a field, at any depth, given the same value as another type (a number as
  text or in a list, text as a number, a list as its first item, an object as a list, null);
- ``start shape``: a field of the start line (its scenario, table, sides, stands, terrain),
  at any depth, given a value of another shape;
- ``missing``: a field of a fire or impact line (or of an artillery or air strike's
  deviation: ``distance_in``), at any depth, taken out;
- ``text``: a text field, at any depth, given a NUL, a lone surrogate or 200,000 letters;
- ``lands_turn``: a plot line's ``plot.lands_turn`` set to 0, -1, the turn it is plotted in
  (a past turn for its missions), an earlier turn, one past the battle's last, or 10**9.
  These must be refused: a plot lands in a later turn of the battle (plot.turn_problem).

Usage: python tools/checks/mutate_logs.py [--count 6500] [--seed 42] [--screen] [--keep DIR]
(``--screen`` draws each accepted log's panel at its end with pygame, headless; ``--keep``
copies each mutated log found wrong into DIR, to replay by hand.)

``--sweep [--start]`` mutates every field instead of drawing them: each field, at any depth
(of a list, its first item), of the first line of each shape in the logs, given every value
of ``SWEPT`` and of ``swaps``; ``--start`` adds the start line's (its scenario's) fields. Prints the
outcomes per kind and every exception; exits 1 on an exception or a silent acceptance of a
mutation that must be refused.
"""

from __future__ import annotations

import copy
import json
import random
import sys
import tempfile
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
WRONG = [None, "x", [], {}, 1.5, -1, 0, True, [1], {"a": 1}, [[]], [None, None], "", 10**9]
"""Values of another type or shape than the field they replace."""
TEXTS = ["a\x00b", "\ud800", "x\udfffy", "w" * 200_000]
"""Text a log's text field may not hold or the panel must cut: NUL, lone surrogates, a
200,000-letter word."""
LOGS_OF = (
    ("modern-skirmish", 1),  # modern
    ("modern-combined-arms", 1),  # modern-full
    ("modern-fire-support", 2),  # modern-full, with plots, missions and air strikes
    ("wwii-meeting", 1),  # wwii
    ("wwii-47-breakthrough", 1),  # wwii-47
)
"""The corpus battles the mutations start from: every ruleset."""
KINDS = ("wrong type", "type swap", "start shape", "missing", "text", "lands_turn")
MUST_REFUSE = {"lands_turn"}
"""Kinds every mutation of which the replay must refuse."""


def corpus_logs() -> list[list[dict]]:
    """The logs the mutations start from (see the module's docstring)."""
    sys.path.insert(0, str(ROOT))
    from game import Battle
    from tests.hostile.test_log_hostile import log_with_every_kind

    saves = sorted((ROOT / "tests/corpus").glob("*.save.json"))
    pick = []
    for name, n in LOGS_OF:
        pick += [p for p in saves if p.name.startswith(name)][:n]
    return [log_with_every_kind()] + [Battle.load(p).log.events for p in pick]


def _walk(value, rng: random.Random, deeper: float):
    """A (container, key) pair inside ``value`` (an object or a list), reached by going
    deeper with probability ``deeper`` at each step; None when there is nothing inside."""
    target = value
    if not target:
        return None
    key = rng.choice(list(target)) if isinstance(target, dict) else rng.randrange(len(target))
    while True:
        inner = target[key]
        if isinstance(inner, dict | list) and inner and rng.random() < deeper:
            target = inner
            key = rng.choice(list(inner)) if isinstance(inner, dict) else rng.randrange(len(inner))
        else:
            return target, key


def _texts(value, at=()) -> Iterator[tuple]:
    """The paths of every text value inside ``value``, keys included as (path, "key")."""
    if isinstance(value, dict):
        for k, v in value.items():
            if isinstance(v, str):
                yield (*at, k)
            else:
                yield from _texts(v, (*at, k))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            if isinstance(v, str):
                yield (*at, i)
            else:
                yield from _texts(v, (*at, i))


def swaps(value) -> list:
    """The same value given another JSON type: a number as text, in a list, as true or as a
    fraction; text as a number or a list; a list as its first item or as an object; an object
    as a list of its values; and null."""
    out: list = [None]
    if isinstance(value, bool):
        out += [int(value), str(value).lower(), [value]]
    elif isinstance(value, int | float):
        out += [str(value), [value], [value, value], True, float(value) + 0.5]
        if isinstance(value, float) and value.is_integer():
            out.append(int(value))
    elif isinstance(value, str):
        out += [len(value), [value], {value: value}, 1.5]
    elif isinstance(value, list):
        out += [value[0] if value else 0, {str(i): v for i, v in enumerate(value)}, len(value)]
    elif isinstance(value, dict):
        out += [list(value.values()), list(value), 1]
    return out


def _short(value) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:56] + "...]"


def mutate(events: list[dict], kind: str, rng: random.Random) -> str | None:
    """Change one thing of ``events`` (in place) as ``kind`` says; returns what was done,
    or None when the log has no line to do it to."""
    if kind == "wrong type":
        i = rng.randrange(1, len(events))
        target, key = _walk(events[i], rng, 0.6)
        value = rng.choice(WRONG)
        target[key] = value
        return f"line {i + 1}: {key!r} = {value!r}"
    if kind == "type swap":
        i = rng.randrange(1, len(events))
        target, key = _walk(events[i], rng, 0.6)
        value = rng.choice(swaps(target[key]))
        target[key] = value
        return f"line {i + 1}: {key!r} = {_short(value)}"
    if kind == "start shape":
        start = events[0]
        key = rng.choice(["scenario", "table", "sides", "stands", "terrain", "turns", "seed"])
        target, k = start, key
        found = _walk(start[key], rng, 0.7) if isinstance(start[key], dict | list) else None
        if found is not None and rng.random() < 0.8:
            target, k = found
        value = rng.choice(WRONG)
        target[k] = value
        return f"line 1: {key}...{k!r} = {value!r}"
    if kind == "missing":
        lines = [
            i
            for i, e in enumerate(events)
            if e["event"] in ("fire", "impact", "artillery", "air_strike")
        ]
        if not lines:
            return None
        i = rng.choice(lines)
        ev = events[i]
        dev = ev.get("deviation")
        if isinstance(dev, dict) and "distance_in" in dev and rng.random() < 0.5:
            del dev["distance_in"]
            return f"line {i + 1}: deviation.distance_in taken out"
        if "result" in ev and rng.random() < 0.5:
            del ev["result"]
            return f"line {i + 1}: result taken out"
        found = _walk(ev, rng, 0.5)
        target, key = found
        if isinstance(target, list):
            del target[key]
        else:
            del target[key]
        return f"line {i + 1}: {key!r} taken out"
    if kind == "text":
        i = rng.randrange(len(events))
        paths = list(_texts(events[i]))
        if not paths:
            return None
        path = rng.choice(paths)
        target = events[i]
        for k in path[:-1]:
            target = target[k]
        text = rng.choice(TEXTS)
        old = target[path[-1]]
        target[path[-1]] = old[:1] + text + old[1:] if len(text) < 10 else text
        return f"line {i + 1}: {'.'.join(map(str, path))} given {text[:6]!r}"
    if kind == "lands_turn":
        lines = [i for i, e in enumerate(events) if e["event"] == "plot"]
        if not lines:
            return None
        i = rng.choice(lines)
        turn, last = events[i]["turn"], events[0]["turns"]
        value = rng.choice([0, -1, turn, max(0, turn - 1), last + 1, 10**9])
        events[i]["lands_turn"] = value
        return f"line {i + 1}: plot.lands_turn {value} in turn {turn}"
    raise ValueError(kind)


def check(events: list[dict], folder: Path, screen: bool = False) -> tuple[str, str]:
    """``hulldown replay FILE --check`` on the log: ("ok", summary), ("refused", the one
    line) or ("bug", the line naming the exception). ``screen``: an accepted log's panel is
    also drawn at its end (pygame, headless)."""
    from game import LogReplayError
    from game.check.replaycheck import ReplayBug, check_log

    path = folder / "mutated.jsonl"
    # ensure_ascii: a lone surrogate is written as its \\u escape, as any JSON writer would
    path.write_text("".join(json.dumps(e) + "\n" for e in events), encoding="utf-8")
    try:
        said = check_log(path)
    except ReplayBug as err:
        return "bug", str(err)
    except LogReplayError as err:
        return "refused", str(err)
    if screen:
        try:
            draw_panel(path)
        except Exception as err:  # noqa: BLE001 - counted and printed
            return "bug", f"{path}: the panel: {type(err).__name__}: {err}"
    return "ok", said


def draw_panel(path: Path) -> None:
    """The replay screen's log panel at the end of the log, drawn once (headless)."""
    import pygame

    from game import LogReplay
    from game.ui.logview import LogView
    from game.ui.replay import Sentences

    if not pygame.get_init():
        pygame.init()
    r = LogReplay.from_file(path)
    names = {s.id: f"{s.unit_name} {s.id}" for s in r.battle.state.stands.values()}
    sides = {s: r.battle.side_spec[s].name for s in r.battle.sides}
    view = LogView(pygame.Rect(0, 0, 348, 700))
    view.lines = Sentences(r.all_events, r.length, names, sides, r.unfinished)
    surface = pygame.Surface((348, 700))
    for scroll in range(0, len(view.lines), 12):  # every sentence drawn once
        view.scroll = scroll
        view._box = None
        view.draw(surface)


def run(
    count: int, seed: int, screen: bool = False, out=sys.stdout, keep: Path | None = None
) -> Counter:
    """``count`` mutations, the kinds in turn (each on a log that has a line of its kind),
    each log found wrong copied into ``keep`` if given; returns the outcomes counted as
    (kind, outcome), with ("lands_turn", "ok") the silent acceptances."""
    rng = random.Random(seed)
    logs = corpus_logs()
    counts: Counter = Counter()
    with tempfile.TemporaryDirectory() as tmp:
        for n in range(count):
            kind = KINDS[n % len(KINDS)]
            what = None
            while what is None:  # a log with a line of the kind (plot lines: fire support)
                events = copy.deepcopy(rng.choice(logs))
                what = mutate(events, kind, rng)
            outcome, said = check(events, Path(tmp), screen)
            counts[kind, outcome] += 1
            if outcome == "bug" or (outcome == "ok" and kind in MUST_REFUSE):
                print(f"{kind}: {what}: {outcome}: {said[:300]}", file=out)
                if keep is not None:
                    keep.mkdir(parents=True, exist_ok=True)
                    kept = keep / f"mutation-{n}.jsonl"
                    kept.write_bytes((Path(tmp) / "mutated.jsonl").read_bytes())
                    print(f"  kept as {kept}", file=out)
    return counts


def _leaves(value, at=()) -> Iterator[tuple]:
    """The path of every value inside ``value`` (containers included), depth first; of a
    list's items only the first (the others are of its shape)."""
    items = value.items() if isinstance(value, dict) else enumerate(value[:1])
    for k, v in items:
        yield (*at, k)
        if isinstance(v, dict | list) and v:
            yield from _leaves(v, (*at, k))


SWEPT = [None, "x", "", [], {}, [1], {"a": 1}, 1.5, -1, True, 10**9]
"""The values of WRONG a sweep gives every field (beside its own :func:`swaps`)."""


def _unique(values: list) -> list:
    out = []
    for v in values:
        if not any(type(v) is type(u) and v == u for u in out):
            out.append(v)
    return out


def sweep(out=sys.stdout, keep: Path | None = None, start_line: bool = False) -> Counter:
    """Every field, at any depth, of the first line of each shape (its event and its keys)
    in the logs, given each value of SWEPT and each of :func:`swaps`; the log is cut after
    the mutated line (a log without its end replays as unfinished), so a line early in the
    log costs little. ``start_line``: the start line's fields too (its scenario: many).
    Returns the outcomes counted as ("sweep", outcome)."""
    counts: Counter = Counter()
    with tempfile.TemporaryDirectory() as tmp:
        seen = set()
        for log in corpus_logs():
            for i, line in enumerate(log):
                shape = (line["event"], tuple(sorted(line)))
                if shape in seen or (i == 0 and not start_line):
                    continue
                seen.add(shape)
                for path in _leaves(line):
                    if path[0] in ("event", "seq"):
                        continue
                    target = line
                    for k in path[:-1]:
                        target = target[k]
                    old = target[path[-1]]
                    for value in _unique([*SWEPT, *swaps(old)]):
                        events = copy.deepcopy(log[: i + 1])
                        t = events[i]
                        for k in path[:-1]:
                            t = t[k]
                        t[path[-1]] = value
                        outcome, said = check(events, Path(tmp))
                        counts["sweep", outcome] += 1
                        if outcome == "bug":
                            print(
                                f"line {i + 1} {'.'.join(map(str, path))} = "
                                f"{_short(value)}: {said[:300]}",
                                file=out,
                            )
                            if keep is not None:
                                keep.mkdir(parents=True, exist_ok=True)
                                kept = keep / f"sweep-{sum(counts.values())}.jsonl"
                                kept.write_bytes((Path(tmp) / "mutated.jsonl").read_bytes())
    return counts


def main() -> int:
    """Run the mutations and print the figures; exit 1 on an exception or a silent accept."""
    args = sys.argv[1:]
    count = int(args[args.index("--count") + 1]) if "--count" in args else 6500
    seed = int(args[args.index("--seed") + 1]) if "--seed" in args else 42
    keep = Path(args[args.index("--keep") + 1]) if "--keep" in args else None
    if "--sweep" in args:
        counts = sweep(keep=keep, start_line="--start" in args)
        row = ", ".join(f"{o} {counts['sweep', o]}" for o in ("ok", "refused", "bug"))
        print(f"sweep        {row}")
        return 1 if counts["sweep", "bug"] else 0
    counts = run(count, seed, "--screen" in args, keep=keep)
    for kind in KINDS:
        row = ", ".join(f"{o} {counts[kind, o]}" for o in ("ok", "refused", "bug"))
        print(f"{kind:12} {row}")
    bugs = sum(v for (_, o), v in counts.items() if o == "bug")
    silent = sum(counts[k, "ok"] for k in MUST_REFUSE)
    print(f"{sum(counts.values())} mutations: {bugs} exceptions, {silent} silently accepted")
    return 1 if bugs or silent else 0


if __name__ == "__main__":
    raise SystemExit(main())
