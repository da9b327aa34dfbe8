"""Reading a JSON file that a user hands the program (a scenario, a save, a GeoJSON map, the
editor's autosave): one reader, so every kind of file says what is wrong with it in the same
words, and no file can make it hang, run out of memory or raise anything but its one line;
and writing any file atomically, so a crash never leaves half of one.

The reader's limits (docs/formats.md, "Limits"): a regular file (never a folder, a FIFO or a
device, which are refused before they are opened), at most :data:`MAX_BYTES` long, UTF-8 with
or without a byte-order mark, arrays and objects nested at most :data:`MAX_DEPTH` deep,
integers of at most :data:`MAX_INT_DIGITS` digits, no key twice in one object, and (for
saves) finite numbers only."""

from __future__ import annotations

import codecs
import glob
import json
import math
import os
import re
import stat
import tempfile
import time
from collections.abc import Iterator
from functools import partial
from itertools import accumulate
from pathlib import Path
from typing import IO, Any

MAX_BYTES = 16 * 1024 * 1024
"""The largest file the reader reads (16 MB); the largest map of the corpus is 0.1 MB."""
MAX_DEPTH = 64
"""Arrays and objects inside one another, at most (a scenario needs 7)."""
MAX_INT_DIGITS = 20
"""Digits of an integer, at most (a seed is at most 20 digits: 2**64 has 20)."""
SEED_DIGITS = 18
"""Digits of a battle's seed, at most, wherever one is typed (``--seed``, the main menu, Quick
battle): a seed of 18 digits and the seeds after it (``simulate`` and "Play again"
add 1) stay within :data:`MAX_INT_DIGITS`, so its saves and autosave load again (a 30-digit
seed typed in the menu made a battle that could never be resumed or saved)."""
MAX_SEED = 10**SEED_DIGITS - 1
"""The largest seed that may be typed (:data:`SEED_DIGITS` nines); the smallest is its
negative on the command line, 0 in the screens."""


class JsonFileError(ValueError):
    """A file cannot be read as JSON; the message is one line naming the file and the
    problem (no such file, cannot be read and why, not valid JSON with its line and column,
    or the JSON path of a duplicate key or a number out of bounds)."""


_STRING = re.compile(rb'"[^"\\]*(?:\\.[^"\\]*)*"', re.DOTALL)
_NOT_BRACKETS = bytes(c for c in range(256) if c not in b"[]{}")
_STEP = [1 if c in b"[{" else -1 if c in b"]}" else 0 for c in range(256)]
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")
_COLON = re.compile(rb"\s*:")


def read_json_file(
    path: str | os.PathLike, encoding: str = "utf-8-sig", *, allow_nan: bool = True
) -> Any:
    """The JSON value a file holds.

    ``encoding`` is that of the text once the checks below have passed; the default,
    ``utf-8-sig``, reads UTF-8 with or without a byte-order mark. ``allow_nan`` False refuses
    ``NaN``, ``Infinity``, ``-Infinity`` and numbers too large for a float (``1e400``) with
    their JSON path (saves); True passes them on as floats for a validator that reports them
    beside the file's other problems (scenarios and GeoJSON check every number is finite).

    Raises
    ------
    JsonFileError
        One line naming the file: ``file: no such file``; ``file: cannot be read (why)`` for a
        folder, a FIFO, a device, a file over 16 MB, UTF-16 or UTF-32 text, bytes that are
        not UTF-8; ``file: not valid JSON (the file is empty)``; ``file: line L column C: not
        valid JSON (why)``; ``file: nested deeper than 64 ...``; and ``file: $.json.path:
        duplicate key``, ``... an integer of N digits ...`` or (``allow_nan`` False) ``... not
        a finite number``.
    """
    where = str(path)
    if where == "":
        raise JsonFileError("(empty path): no file name given")
    data = _read_regular_file(path, where)
    text = _decode(data, where, encoding)
    if not text.strip():
        raise JsonFileError(f"{where}: not valid JSON (the file is empty)")
    return _parse(data, text, where, allow_nan)


def _parse(data: bytes, text: str, where: str, allow_nan: bool) -> Any:
    """``text`` (the decoded ``data``) parsed with the reader's checks; errors name ``where``."""
    depth = _depth(data)
    if depth > MAX_DEPTH:
        raise JsonFileError(
            f"{where}: nested deeper than {MAX_DEPTH} levels (arrays and objects inside one "
            f"another {depth} deep)"
        )
    flags: list[bool] = []  # a refused number or key was met: find its path
    hooks: dict[str, Any] = {
        "object_pairs_hook": partial(_object, flags),
        "parse_int": partial(_int, flags),
    }
    if not allow_nan:
        hooks.update(parse_float=partial(_float, flags), parse_constant=partial(_constant, flags))
    try:
        value = json.loads(text, **hooks)
    except json.JSONDecodeError as err:
        raise JsonFileError(
            f"{where}: line {err.lineno} column {err.colno}: not valid JSON ({err.msg})"
        ) from None
    except RecursionError:  # not reached after the depth scan; kept as a last guard
        raise JsonFileError(f"{where}: nested deeper than {MAX_DEPTH} levels") from None
    if flags:
        at, why = _first_problem(value)
        raise JsonFileError(f"{where}: {at}: {why}")
    return value


MAX_LINES_BYTES = 64 * 1024 * 1024
"""Largest JSON Lines file read (a 12-turn battle's log is under 1 MB)."""


def read_json_lines(path: str | os.PathLike, max_bytes: int = MAX_LINES_BYTES) -> list[Any]:
    """The JSON values of a JSON Lines file (a battle log), one per line, with the checks of
    :func:`read_json_file` on each line (``allow_nan`` False). A last line cut short (a battle
    log being written when the program stopped) is a problem like any other.

    Raises
    ------
    JsonFileError
        As :func:`iter_json_lines`.
    """
    return [value for _, value in iter_json_lines(path, max_bytes)]


LINES_CHUNK_BYTES = 1024 * 1024
"""How much of a JSON Lines file is read at a time (memory does not grow with the file)."""


LOG_CONTAINERS = (250_000, 10_000)
"""Arrays and objects a battle log's line may hold: its start line (the scenario's terrain,
at most 100,000 positions, and its stands), then any other line (a move's path, at most
1,000 points). A real log's start line holds a few hundred, its other lines at most a few
dozen (an unknown key holding 20 million empty lists took 1.7 GB)."""


def container_problem(raw: bytes, cap: int) -> str | None:
    """``$.field: N arrays and objects in it (T in the line, at most CAP)`` when the JSON
    text ``raw`` (one object) holds more than ``cap`` arrays and objects, naming the
    top-level field that holds the most; None
    otherwise. Counted on the bytes before any is parsed (an empty list costs 2 bytes in the
    file and 56 in memory), in time linear in ``raw``; brackets inside strings do not count.
    """
    if raw.count(b"[") + raw.count(b"{") <= cap:
        return None
    bare = _STRING.sub(lambda m: b'"' + b"_" * (len(m.group()) - 2) + b'"', raw)
    total = bare.count(b"[") + bare.count(b"{")
    if total <= cap:
        return None
    keys, depth, at = [], 0, 0  # the top-level keys: (name, where its value begins)
    for m in _STRING.finditer(raw):
        seg = bare[at : m.start()]
        depth += seg.count(b"[") + seg.count(b"{") - seg.count(b"]") - seg.count(b"}")
        at = m.end()
        if depth == 1 and _COLON.match(raw, m.end()):
            keys.append((m.group(), m.end()))
    best, most = "$", 0
    for k, (name, start) in enumerate(keys):
        end = keys[k + 1][1] if k + 1 < len(keys) else len(bare)
        n = bare.count(b"[", start, end) + bare.count(b"{", start, end)
        if n > most:
            try:
                best, most = _join("$", json.loads(name)), n
            except ValueError:
                best, most = "$", n
    return f"{best}: {most:,} arrays and objects in it ({total:,} in the line, at most {cap:,})"


def iter_json_lines(
    path: str | os.PathLike,
    max_bytes: int = MAX_LINES_BYTES,
    max_containers: tuple[int, int] | None = None,
) -> Iterator[tuple[bytes, Any]]:
    """Each line of a JSON Lines file as it is read: (the line's UTF-8 bytes without its
    newline, its JSON value), with the checks of :func:`read_json_file` on each line
    (``allow_nan`` False). The file is read :data:`LINES_CHUNK_BYTES` at a time, so a long
    battle log is never held whole; a problem is raised when its line is reached.
    ``max_containers`` (the first line's, the others'), if given, caps the arrays and objects
    of a line before it is parsed (:func:`container_problem`; a battle log's are
    :data:`LOG_CONTAINERS`).

    Raises
    ------
    JsonFileError
        ``file: ...`` as :func:`read_json_file` for the file (no such file, not a regular file,
        over ``max_bytes``, UTF-16 or UTF-32, not UTF-8 or a NUL byte with the byte's offset in
        the file, ``not valid JSON Lines (the file is empty)``), or ``file: line N: ...`` for a
        line that is blank (``a blank line (JSON Lines has none)``) or not valid JSON
        (``column C: not valid JSON (why)``, and the reader's other per-value problems, and
        ``$.field: N arrays and objects in it (T in the line, at most M)``).
    """
    where = str(path)
    if where == "":
        raise JsonFileError("(empty path): no file name given")
    with _open_regular_file(path, where, max_bytes) as fh:
        n = 0
        seen_text, first_blank = False, 0  # blank lines before any text: all blank is empty
        for raw, offset in _raw_lines(fh, where, max_bytes):
            n += 1
            if max_containers is not None:  # before its text is made: memory
                cap = max_containers[0] if n == 1 else max_containers[1]
                problem = container_problem(raw, cap)
                if problem:
                    raise JsonFileError(f"{where}: line {n}: {problem}")
            text = _decode(raw, where, "utf-8", at=offset)
            if not text.strip():
                if seen_text:
                    raise JsonFileError(f"{where}: line {n}: a blank line (JSON Lines has none)")
                first_blank = first_blank or n
                continue
            if first_blank:
                raise JsonFileError(
                    f"{where}: line {first_blank}: a blank line (JSON Lines has none)"
                )
            seen_text = True
            try:
                value = _parse(raw, text, f"{where}: line {n}", False)
            except JsonFileError as err:
                # "line N: line 1 column C" reads badly: keep the column only
                raise JsonFileError(str(err).replace(": line 1 column ", ": column ")) from None
            yield raw, value
    if not seen_text:
        raise JsonFileError(f"{where}: not valid JSON Lines (the file is empty)")


def _raw_lines(fh, where: str, max_bytes: int) -> Iterator[tuple[bytes, int]]:
    """The lines of open binary file ``fh`` as they are read, :data:`LINES_CHUNK_BYTES` at
    a time: (a line's bytes without its newline, its byte offset in the file), a UTF-8 BOM
    skipped, a last line without its newline included. Raises JsonFileError naming the
    file when it cannot be read, is UTF-16 or UTF-32, or grows over ``max_bytes``."""
    rest: list[bytes] = []  # the line being read, in the blocks it came in
    offset, size = 0, 0
    while True:
        try:
            block = fh.read(LINES_CHUNK_BYTES)
        except OSError as err:
            raise JsonFileError(f"{where}: cannot be read ({_why(err)})") from None
        if size == 0:
            _check_wide(block, where)
            if block.startswith(codecs.BOM_UTF8):
                offset = size = len(codecs.BOM_UTF8)
                block = block[offset:]
        size += len(block)
        if size > max_bytes:  # grown since it was opened
            raise JsonFileError(f"{where}: cannot be read ({_too_large(None, max_bytes)})")
        if block and b"\n" not in block:
            rest.append(block)  # a long line: joined once, when it ends
            continue
        data = b"".join([*rest, block])
        rest = []
        if block:
            lines = data.split(b"\n")
            del data  # its lines are copies
            rest = [lines.pop()]
        else:
            lines = [data] if data else []  # a last line with no newline
        for raw in lines:
            yield raw, offset
            offset += len(raw) + 1
        if not block:
            break


def _read_regular_file(path: str | os.PathLike, where: str, max_bytes: int = MAX_BYTES) -> bytes:
    """The bytes of a regular file of at most ``max_bytes`` (see :func:`_open_regular_file`)."""
    with _open_regular_file(path, where, max_bytes) as fh:
        try:
            data = fh.read(max_bytes + 1)
        except OSError as err:
            raise JsonFileError(f"{where}: cannot be read ({_why(err)})") from None
    if len(data) > max_bytes:
        raise JsonFileError(f"{where}: cannot be read ({_too_large(None, max_bytes)})")
    return data


def _open_regular_file(path: str | os.PathLike, where: str, max_bytes: int = MAX_BYTES) -> IO:
    """A regular file of at most ``max_bytes`` open for reading in binary, checked by ``stat``
    before it is opened (so a FIFO never blocks and a device is never read) and again once it
    is open. Raises JsonFileError naming the file."""
    try:
        st = os.stat(path)
    except FileNotFoundError:
        raise JsonFileError(f"{where}: no such file") from None
    except NotADirectoryError:
        raise JsonFileError(f"{where}: no such file (a part of the path is not a folder)") from None
    except (OSError, ValueError) as err:
        raise JsonFileError(f"{where}: cannot be read ({_why(err)})") from None
    _check_kind(st, where, max_bytes)
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0)
    try:
        fd = os.open(path, flags)
    except OSError as err:
        raise JsonFileError(f"{where}: cannot be read ({_why(err)})") from None
    fh = os.fdopen(fd, "rb")
    try:
        _check_kind(os.fstat(fh.fileno()), where, max_bytes)  # replaced since the stat?
    except OSError as err:
        fh.close()
        raise JsonFileError(f"{where}: cannot be read ({_why(err)})") from None
    except JsonFileError:
        fh.close()
        raise
    return fh


def _check_kind(st: os.stat_result, where: str, max_bytes: int = MAX_BYTES) -> None:
    mode = st.st_mode
    if stat.S_ISREG(mode):
        if st.st_size > max_bytes:
            raise JsonFileError(f"{where}: cannot be read ({_too_large(st.st_size, max_bytes)})")
        return
    raise JsonFileError(f"{where}: cannot be read (it is {_kind(mode)}, not a regular file)")


def _kind(mode: int) -> str:
    """What a file that is not a regular one is, in words (``a FIFO``)."""
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISFIFO(mode):
        return "a FIFO"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "something else"


def _too_large(size: int | None, max_bytes: int = MAX_BYTES) -> str:
    mb = max_bytes // (1024 * 1024)
    if size is None:
        return f"larger than the limit of {mb} MB"
    return f"{size / (1024 * 1024):.1f} MB, larger than the limit of {mb} MB"


def _why(err: Exception) -> str:
    if isinstance(err, OSError) and err.strerror:
        return err.strerror
    return str(err)


def _decode(data: bytes, where: str, encoding: str, at: int = 0) -> str:
    """The text of the bytes; UTF-16 and UTF-32 (by their byte-order mark, or by the NUL
    bytes of their first characters) are named as such rather than read as garbage. ``at``:
    where ``data`` begins in its file, for the byte offsets in the errors."""
    if at == 0:
        _check_wide(data, where)
    if b"\x00" in data:
        nul = at + data.index(b"\x00")
        raise JsonFileError(f"{where}: cannot be read (a NUL byte at byte {nul}: not text)")
    try:
        return data.decode(encoding)
    except UnicodeDecodeError as err:
        bad = data[err.start : err.start + 1].hex()
        raise JsonFileError(
            f"{where}: cannot be read (not UTF-8 text: byte 0x{bad} at byte {at + err.start})"
        ) from None


def _check_wide(data: bytes, where: str) -> None:
    """Raises JsonFileError when the bytes begin as UTF-16 or UTF-32 text."""
    if data.startswith((codecs.BOM_UTF32_LE, codecs.BOM_UTF32_BE)):
        wide = "UTF-32"
    elif data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        wide = "UTF-16"
    elif b"\x00" in data[:4]:  # JSON begins with an ASCII character (RFC 8259, 8.1)
        wide = "UTF-32" if data[:4].count(b"\x00") == 3 else "UTF-16"
    else:
        wide = ""
    if wide:
        raise JsonFileError(f"{where}: cannot be read ({wide} text; save it as UTF-8)")


def _depth(data: bytes) -> int:
    """How deep arrays and objects nest, counted on the brackets outside strings, so that
    ``json.loads`` is never asked to recurse deeper than MAX_DEPTH. Counted on the UTF-8
    bytes (no byte of a multi-byte character is a bracket or a quote): 0.15 s for 16 MB."""
    if data.count(b"[") + data.count(b"{") <= MAX_DEPTH:
        return 0  # cannot nest deeper than the limit
    brackets = _STRING.sub(b"", data).translate(None, _NOT_BRACKETS)
    return max(accumulate(map(_STEP.__getitem__, brackets)), default=0)


class _Bad:
    """Stands in the parsed value for a number the reader refuses, until its path is found."""

    __slots__ = ("why",)

    def __init__(self, why: str):
        self.why = why


class _DupDict(dict):
    """An object with a key given twice (``dup``), until its path is found."""

    dup = ""


def _object(flags: list[bool], pairs: list[tuple[str, Any]]) -> dict:
    out = dict(pairs)
    if len(out) == len(pairs):
        return out
    seen: set[str] = set()
    for key, _ in pairs:
        if key in seen:
            break
        seen.add(key)
    marked = _DupDict(out)
    marked.dup = key
    flags.append(True)
    return marked


def _short(literal: str) -> str:
    return literal if len(literal) <= 24 else f"{literal[:12]}... ({len(literal)} characters)"


def _int(flags: list[bool], literal: str) -> int | _Bad:
    digits = len(literal) - literal.startswith("-")
    if digits > MAX_INT_DIGITS:
        flags.append(True)
        return _Bad(f"an integer of {digits} digits (at most {MAX_INT_DIGITS})")
    return int(literal)


def _float(flags: list[bool], literal: str) -> float | _Bad:
    value = float(literal)
    if not math.isfinite(value):
        flags.append(True)
        return _Bad(f"{_short(literal)} is not a finite number (too large)")
    return value


def _constant(flags: list[bool], literal: str) -> _Bad:
    flags.append(True)
    return _Bad(f"{literal} is not a finite number (JSON has no {literal})")


def _join(path: str, key: str) -> str:
    return f"{path}.{key}" if _NAME.match(key) else f"{path}[{json.dumps(key)}]"


def _first_problem(value: Any) -> tuple[str, str]:
    """The JSON path and the problem of the first refused number or duplicate key, in the
    order of the file (the value is at most MAX_DEPTH deep, so the walk is short)."""
    stack: list[tuple[Any, str]] = [(value, "$")]
    while stack:
        v, at = stack.pop()
        if isinstance(v, _Bad):
            return at, v.why
        if isinstance(v, _DupDict):
            return _join(at, v.dup), "duplicate key"
        if isinstance(v, dict):
            stack.extend(reversed([(x, _join(at, k)) for k, x in v.items()]))
        elif isinstance(v, list):
            stack.extend(reversed([(x, f"{at}[{i}]") for i, x in enumerate(v)]))
    return "$", "refused"  # not reached: a flag is raised only with a marker in the value


def is_json_int(value: Any) -> bool:
    """A JSON integer as ``json.loads`` gives it: an int that is not a bool (``true`` is not 1
    here)."""
    return isinstance(value, int) and not isinstance(value, bool)


def is_json_number(value: Any) -> bool:
    """A JSON number: an int or float that is not a bool."""
    return isinstance(value, int | float) and not isinstance(value, bool)


STALE_TEMP_S = 60.0
"""Age (seconds) after which a temporary file left beside a target is a crash's leftover: a
write in progress lasts milliseconds."""


def _user_mode(target: Path) -> int:
    """The permissions a file written at ``target`` gets: the existing file's own, else those
    of any file the user makes (0666 less the umask; the temporary file's 0600 would hide a
    shared scenario or save from other users)."""
    try:
        return target.stat().st_mode & 0o7777
    except OSError:
        mask = os.umask(0o022)  # read it back: the only portable way to learn it
        os.umask(mask)
        return 0o666 & ~mask


class NotARegularFile(OSError):
    """A file is to be written where something that is not a regular file stands (a FIFO, a
    device, a folder, a socket): ``str()`` is one line naming it; nothing was written."""


def writable_target(path: str | os.PathLike) -> Path:
    """Where a file written at ``path`` really goes: the file a symbolic link leads to (the
    link is kept and its target replaced; ``generate --out`` once put a regular file in place
    of the link), else ``path``. Raises :class:`NotARegularFile` when a FIFO, a device, a
    folder or a socket stands there (a FIFO or ``/dev/null`` was once replaced by a
    regular file), OSError when the path cannot be looked at (a loop of links)."""
    p = Path(path)
    if p.is_symlink():
        p = Path(os.path.realpath(p))
    try:
        mode = os.stat(p).st_mode
    except (FileNotFoundError, NotADirectoryError):
        return p  # a new file (a missing folder is made, or refused, by the writer)
    if not stat.S_ISREG(mode):
        raise NotARegularFile(
            f"{path}: it is {_kind(mode)}, not a regular file; nothing was written there"
        )
    return p


def write_atomic(path: str | os.PathLike, text: str | bytes, mode: int | None = None) -> None:
    """Write ``text`` (UTF-8; or ``bytes`` as they are: a PNG) to ``path`` atomically: a
    temporary file in the same folder, flushed and synced, then renamed over the target and
    the folder synced, so a crash never leaves a half-written file and the rename survives a
    power cut. The file keeps the permissions of the one it replaces, or gets those of a new
    file of the user's (the umask's); ``mode`` (e.g. 0o600 for a secret) overrides both, and
    the file never exists with other permissions. A symbolic link is written through: the file it leads to
    is replaced and the link kept (:func:`writable_target`).

    Temporary files of the same target older than :data:`STALE_TEMP_S` (left by a killed
    process) are removed first. Raises OSError when the folder or file cannot be written (a
    full disk: the temporary file is removed), :class:`NotARegularFile` when a FIFO, a
    device or a folder stands at ``path``; the target is then unchanged.
    """
    p = writable_target(path)
    p.parent.mkdir(parents=True, exist_ok=True)
    remove_stale_temps(p)
    mode = _user_mode(p) if mode is None else mode
    fd, tmp = tempfile.mkstemp(prefix=f".{p.name}.", suffix=".tmp", dir=p.parent)
    try:
        if hasattr(os, "fchmod"):
            os.fchmod(fd, mode)
        binary = isinstance(text, bytes)
        with os.fdopen(fd, "wb" if binary else "w", encoding=None if binary else "utf-8") as fh:
            fh.write(text)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, p)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    _fsync_folder(p.parent)


def remove_stale_temps(path: str | os.PathLike, older_than_s: float = STALE_TEMP_S) -> int:
    """Remove the temporary files :func:`write_atomic` left beside ``path`` when a process was
    killed mid-write (``.NAME.*.tmp`` older than ``older_than_s`` seconds); returns how many.
    Files that vanish or cannot be removed are skipped: cleaning never stops a save."""
    p = Path(path)
    return remove_old_files(p.parent, f".{glob.escape(p.name)}.*.tmp", older_than_s)


def remove_old_files(folder: str | os.PathLike, pattern: str, older_than_s: float) -> int:
    """Remove the files of ``folder`` matching the glob ``pattern`` that are older than
    ``older_than_s`` seconds (by their modification time); returns how many. A folder that
    cannot be read and files that vanish or cannot be removed are skipped: never raises."""
    now = time.time()
    removed = 0
    try:
        candidates = list(Path(folder).glob(pattern))
    except OSError:
        return 0
    for leftover in candidates:
        try:
            if leftover.is_file() and now - leftover.stat().st_mtime > older_than_s:
                leftover.unlink()
                removed += 1
        except OSError:
            continue
    return removed


def _fsync_folder(folder: Path) -> None:
    """Sync a folder so a rename in it is on the disk (POSIX); a no-op where folders cannot be
    opened (Windows)."""
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)
