"""``hulldown verify LOG``: replay a network battle's log from its ``network`` line and check
it byte for byte, so a die, a hash-chain element, a chain end, the seed, a revealed plot, a
line added, deleted or moved, or any other byte changed anywhere (a byte-order mark, a line
ending) is found, and the line changed is named."""

from __future__ import annotations

import codecs
import json
import os
from pathlib import Path

from game import Battle, NetworkLogError, fair, log_line


def verify_log(path: str | os.PathLike) -> str | None:
    """None when every byte of the network battle's log at ``path`` is what its actions and
    both players' chain elements give: each element hashes to the one before (down to the
    ends committed before turn 1), each die is drawn from its action's seed, each revealed
    plot matches the commitment sent when it was plotted, and each line is the replay's,
    byte for byte. Otherwise one line, ``FILE:LINE: what is wrong``, naming the line that
    was changed (or where one was taken out or put in)."""
    where = str(Path(path))
    try:
        data = Path(path).read_bytes()
    except OSError as err:
        return f"{where}: {err.strerror or err}"
    if data.startswith(codecs.BOM_UTF8):
        return f"{where}:1: a byte-order mark before the first line: the log was changed"
    lines = data.split(b"\n")
    if lines and lines[-1] == b"":
        lines.pop()
    problem = _chains(where, lines)
    if problem:
        return problem
    try:
        battle, _ = Battle.from_network_log(path)
    except NetworkLogError as err:
        return str(err)
    return _compare(where, lines, battle.log.events)


def is_network_log(path: str | os.PathLike) -> bool:
    """Whether the file at ``path`` is a network battle's log: a ``network`` line among its
    first three (a start line, perhaps a byte-order mark, then it). False when unreadable."""
    try:
        with open(path, "rb") as fh:
            head = [fh.readline() for _ in range(3)]
    except OSError:
        return False
    return any(b'"event":"network"' in line for line in head)


def _parsed(text: bytes):
    try:
        value = json.loads(text)
    except ValueError:
        return None
    return value if isinstance(value, dict) else None


def _chains(where: str, lines: list[bytes]) -> str | None:
    """The first break in either side's hash chain, blamed on the line that was changed: an
    element that does not hash to the one before was changed, unless the element after it
    hashes to it, in which case it is genuine (nobody can make an element's preimage) and
    the one before it (or the chain end) was changed. A missing index is a deleted line."""
    docs = [_parsed(t) for t in lines]
    net = next((i for i, d in enumerate(docs) if d and d.get("event") == "network"), None)
    if net is None or not isinstance(docs[net].get("chains"), dict):
        return None  # the replay says what is wrong
    acts = [(i, d) for i, d in enumerate(docs) if d and d.get("event") == "action" and i > net]
    for k, (i, d) in enumerate(acts):
        if d.get("index") != k:
            how = (
                f"action {k}'s line was taken out before this one"
                if isinstance(d.get("index"), int) and d["index"] > k
                else "an action line was moved or changed"
            )
            return f"{where}:{i + 1}: action {d.get('index')} where action {k} should be: {how}"
    for side, end in docs[net]["chains"].items():
        seq = [(net, end)] + [
            (
                i,
                (d.get("elements") or {}).get(side)
                if isinstance(d.get("elements"), dict)
                else None,
            )
            for i, d in acts
        ]
        for n in range(1, len(seq)):
            (pi, prev), (i, element) = seq[n - 1], seq[n]
            if isinstance(element, str) and isinstance(prev, str) and fair.follows(element, prev):
                continue
            after = seq[n + 1][1] if n + 1 < len(seq) else None
            if isinstance(after, str) and isinstance(element, str) and fair.follows(after, element):
                if pi == net:
                    return (
                        f"{where}:{pi + 1}: the network line's chain end for {side} was "
                        "changed: the elements played do not hash to it"
                    )
                return (
                    f"{where}:{pi + 1}: action {n - 2}: {side}'s chain element was changed: "
                    "the next one does not hash to it"
                )
            return (
                f"{where}:{i + 1}: action {n - 1}: {side}'s chain element does not hash to its "
                "element before: the dice would not be fair"
            )
    return None


def _compare(where: str, lines: list[bytes], events: list[dict]) -> str | None:
    """The first line whose bytes are not the replay's, in words; None when all are."""
    expected = [log_line(e).rstrip(b"\n") for e in events]
    net = next((i for i, e in enumerate(events) if e.get("event") == "network"), 0)
    for i in range(max(len(lines), len(expected))):
        if i >= len(lines):
            return (
                f"{where}:{i + 1}: the file ends where the replay has {_a(events[i]['event'])} "
                "line: the lines from here on were taken out"
            )
        if i >= len(expected):
            return f"{where}:{i + 1}: the file goes on past the battle's last line"
        if lines[i] == expected[i]:
            continue
        if i + 1 < len(expected) and lines[i] == expected[i + 1]:
            return f"{where}:{i + 1}: {_a(events[i]['event'])} line was taken out before this one"
        if i + 1 < len(lines) and lines[i + 1] == expected[i]:
            return f"{where}:{i + 1}: this line is not the battle's: it was put in"
        theirs = _parsed(lines[i])
        if theirs is None:
            return f"{where}:{i + 1}: the {events[i]['event']} line is not a JSON object"
        keys = sorted(set(theirs) | set(events[i]))
        bad = [k for k in keys if theirs.get(k) != events[i].get(k)]
        what = ", ".join(bad[:4]) or "its bytes (spacing, order or line ending)"
        if bad and i < net:  # the battle is rebuilt from the network line: one of two changed
            return (
                f"{where}:{net + 1}: the network line and the {events[i]['event']} line "
                f"(line {i + 1}) differ in {what}: one of the two was changed"
            )
        return f"{where}:{i + 1}: the {events[i]['event']} line differs from the replay in {what}"
    return None


def _a(word: str) -> str:
    """``word`` with its indefinite article."""
    return f"{'an' if word[:1] in 'aeiou' else 'a'} {word}"
