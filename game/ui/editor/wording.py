"""The scenario check's problem lines in a player's words: "$.max_sighting_in: Input
should be less than or equal to 1000" becomes "Sighting distance must be at most 1000
inches." The JSON path is put as the item and the field it names ("Stand A6, starts aboard",
"Side 1 (Blue): cohesion"), and each kind of message pydantic gives the scenario's shape
check (its error types, see :data:`PYDANTIC_KINDS`) as a plain sentence; the checker's own
lines keep their words, after the path in words."""

from __future__ import annotations

import re

from game.ui.editor.layout import _pretty

INCHES, DEGREES, PERCENT = " inches", " degrees", " percent"

TOP_FIELDS: dict[tuple, tuple[str, str]] = {
    ("format",): ("format", ""),
    ("title",): ("title", ""),
    ("description",): ("briefing", ""),
    ("ruleset",): ("ruleset", ""),
    ("table",): ("table size", ""),
    ("table", "width"): ("table width", INCHES),
    ("table", "depth"): ("table depth", INCHES),
    ("table", "ground"): ("table's ground (grass or sand)", ""),
    ("max_sighting_in",): ("sighting distance", INCHES),
    ("turns",): ("number of turns", ""),
    ("victory",): ("victory conditions", ""),
    ("victory", "type"): ("kind of victory", ""),
    ("victory", "destroy_at_least_pct"): ("share of the enemy to destroy", PERCENT),
    ("victory", "lose_at_most_pct"): ("share a winner may lose", PERCENT),
    ("terrain",): ("terrain", ""),
    ("terrain", "type"): ("kind of terrain collection", ""),
    ("terrain", "features"): ("list of terrain features", ""),
    ("sides",): ("list of sides", ""),
    ("stands",): ("list of stands", ""),
}
"""The scenario's own fields (a JSON path below ``$``) in words, with the unit of a number."""

ITEM_FIELDS: dict[str, dict[tuple, tuple[str, str]]] = {
    "stands": {
        ("id",): ("id", ""),
        ("side",): ("side", ""),
        ("unit",): ("unit", ""),
        ("x",): ("x", INCHES),
        ("y",): ("y", INCHES),
        ("facing_deg",): ("facing", DEGREES),
        ("group",): ("battle group", ""),
        ("hq",): ("HQ", ""),
        ("ghq",): ("GHQ", ""),
        ("on_table",): ("on the table at the start", ""),
        ("carried_by",): ("starts aboard", ""),
    },
    "features": {
        ("type",): ("kind", ""),
        ("properties",): ("properties", ""),
        ("properties", "terrain"): ("terrain type", ""),
        ("properties", "level"): ("hill level", ""),
        ("properties", "name"): ("name", ""),
        ("geometry",): ("shape", ""),
        ("geometry", "type"): ("kind of shape", ""),
        ("geometry", "coordinates"): ("corners", INCHES),
    },
    "sides": {
        ("id",): ("id", ""),
        ("name",): ("name", ""),
        ("cohesion",): ("cohesion", ""),
        ("generation",): ("generation", ""),
        ("command_value",): ("GHQ command value", ""),
        ("entry_edge",): ("entry edge", ""),
        ("air_support",): ("air support", ""),
        ("aircraft",): ("aircraft", ""),
        ("sorties",): ("sorties", ""),
    },
}
"""The fields of a stand, a terrain feature and a side in words, with a number's unit."""

PATTERNS = {
    "sides": "a letter, then up to 15 letters, digits, _ or -",
    "stands": "a letter or digit, then up to 15 letters, digits, _ or -",
}
"""What an id's pattern (scenario_file.py) asks, in words."""


def _one_of(m) -> str:
    names = re.findall(r"'([^']*)'", m.group(1))
    return "must be " + (
        names[0] if len(names) == 1 else ", ".join(names[:-1]) + " or " + names[-1]
    )


def _count(n: str, noun: str) -> str:
    return (
        f"{n} {noun}"
        if n == "1"
        else f"{n} {noun[:-1]}ies"
        if noun.endswith("y")
        else f"{n} {noun}s"
    )


PYDANTIC_KINDS: list[tuple[str, str, object]] = [
    # (pydantic error type, its message as the checker writes it, the predicate in words)
    ("less_than_equal", r"Input should be less than or equal to (\S+)", "must be at most {0}{u}"),
    (
        "greater_than_equal",
        r"Input should be greater than or equal to (\S+)",
        "must be at least {0}{u}",
    ),
    ("less_than", r"Input should be less than (\S+)", "must be less than {0}{u}"),
    ("greater_than", r"Input should be greater than (\S+)", "must be more than {0}{u}"),
    ("int_type", r"Input should be a valid integer.*", "must be a whole number"),
    ("float_type", r"Input should be a valid number.*", "must be a number"),
    ("finite_number", r"Input should be a finite number", "must be a finite number"),
    ("string_type", r"Input should be a valid string", "must be text"),
    ("bool_type", r"Input should be a valid boolean.*", "must be true or false"),
    ("list_type", r"Input should be a valid list", "must be a list"),
    ("model_type", r"Input should be a valid dictionary.*", "must be an object ({{...}})"),
    ("dict_type", r"Input should be an object", "must be an object ({{...}})"),
    ("none_required", r"Input should be None", "must be left out"),
    ("literal_error", r"Input should be ((?:'[^']*'(?:, | or )?)+)", _one_of),
    ("string_too_short", r"String should have at least 1 character", "cannot be empty"),
    (
        "string_too_short",
        r"String should have at least (\d+) characters",
        "must have at least {0} characters",
    ),
    (
        "string_too_long",
        r"String should have at most (\d+) characters?",
        "must have at most {0} characters",
    ),
    ("string_pattern_mismatch", r"String should match pattern .*", "must be {pattern}"),
    (
        "too_short",
        r"List should have at least (\d+) items? after validation, not (\d+)",
        lambda m: f"needs at least {_count(m.group(1), 'entry')} (it has {m.group(2)})",
    ),
    (
        "too_long",
        r"(?:List|Value) should have at most (\d+) items?(?: after validation)?, not (\d+)",
        lambda m: f"may have at most {_count(m.group(1), 'entry')} (it has {m.group(2)})",
    ),
    ("missing", r"(?:Field required|required field is missing)", "is missing: it must be given"),
    (
        "extra_forbidden",
        r"(?:Extra inputs are not permitted|unknown field)",
        "is not a field of a scenario file (a misspelt name?)",
    ),
    (
        "string_unicode",
        r"(?:Input should be a valid string, unable to parse raw data as a unicode string|"
        r"a lone surrogate.*)",
        "holds a broken character (half of a UTF-16 pair): type it again",
    ),
    ("value_error", r"Value error, (.*)", "is wrong: {0}"),
]
"""Each kind of message the scenario's shape check gives (the pydantic error types of
scenario_file.py's strict models, and the checker's own rewording of some), the pattern of
its text and the words put in its place ("{0}" the first number, "{u}" the field's unit)."""

_KINDS = [(kind, re.compile(rf"^{pat}$", re.S), words) for kind, pat, words in PYDANTIC_KINDS]


def plain_predicate(msg: str, unit: str = "", pattern: str = "") -> str | None:
    """A pydantic message (``msg``) as what the field must be ("must be at most 1000
    inches"), or None when it is not one of :data:`PYDANTIC_KINDS` (the checker's own
    words). ``unit`` follows a number of the field; ``pattern`` says what an id must be."""
    for _kind, rx, words in _KINDS:
        m = rx.match(msg.strip())
        if m:
            if callable(words):
                return words(m)
            if m.groups() and m.group(1) in ("1", "1.0") and unit.endswith("es"):
                unit = unit[:-2]  # 1 inch
            return words.format(*m.groups(), u=unit, pattern=pattern or "as the format says")
    return None


def _short(value) -> str | None:
    """A name from the file fit to name an item in a sentence (printable, cut to 24
    characters), or None."""
    if not isinstance(value, str) or not value.strip() or not value.isprintable():
        return None
    return value if len(value) <= 24 else value[:21] + "..."


def _item(segs: list, raw: dict) -> tuple[str, str | None, list]:
    """The item a path names (in words, and which kind of item), and the path below it."""
    if segs[:1] == ["stands"] and len(segs) > 1 and isinstance(segs[1], int):
        seq, i = raw.get("stands"), segs[1]
        st = seq[i] if isinstance(seq, list) and i < len(seq) else None
        sid = _short(st.get("id")) if isinstance(st, dict) else None
        return f"Stand {sid or i + 1}", "stands", segs[2:]
    if segs[:2] == ["terrain", "features"] and len(segs) > 2 and isinstance(segs[2], int):
        feats = (
            raw.get("terrain", {}).get("features") if isinstance(raw.get("terrain"), dict) else None
        )
        i = segs[2]
        f = feats[i] if isinstance(feats, list) and i < len(feats) else None
        props = f.get("properties") if isinstance(f, dict) else None
        kind = _short(props.get("terrain")) if isinstance(props, dict) else None
        kind = f" ({_pretty(kind)})" if kind else ""
        return f"Feature {i + 1}{kind}", "features", segs[3:]
    if segs[:1] == ["sides"] and len(segs) > 1 and isinstance(segs[1], int):
        seq, i = raw.get("sides"), segs[1]
        sd = seq[i] if isinstance(seq, list) and i < len(seq) else None
        name = _short(sd.get("name")) if isinstance(sd, dict) else None
        name = f" ({name})" if name else ""
        return f"Side {i + 1}{name}", "sides", segs[2:]
    return "", None, segs


def _field(kind: str | None, rest: list) -> tuple[str, str]:
    """The field a path below an item (or the file) names, in words, and its unit."""
    table = ITEM_FIELDS.get(kind, {}) if kind else TOP_FIELDS
    words: list[str] = []
    unit = ""
    keys = [s for s in rest if isinstance(s, str)]
    if kind == "sides" and rest[:1] == ["air_support"] and len(rest) > 1:
        words.append(f"air support {rest[1] + 1}" if isinstance(rest[1], int) else "")
        keys = keys[1:]
    if kind == "features" and keys[:2] == ["geometry", "coordinates"]:
        keys = keys[:2]  # a corner's indices are not words
    if keys:
        key = tuple(keys)
        if key in table:
            name, unit = table[key]
        elif key[-1:] in [k[-1:] for k in table] and kind:
            name, unit = next(v for k, v in table.items() if k[-1:] == key[-1:])
        else:
            name = " ".join(_pretty(k) for k in keys)
        words.append(name)
    return ", ".join(w for w in words if w), unit


def problem_words(text: str, raw: dict) -> str:
    """One problem line of the scenario check (without its file name) in a player's words:
    the JSON path as the item and field it names, a pydantic message as a plain sentence
    ("Sighting distance must be at most 1000 inches."); the checker's own words are kept
    after the path in words ("Stand A6, starts aboard: no stand 'A99'")."""
    m = re.match(r"^\$([\w.\[\]-]*): (.*)$", text, re.S)
    if not m:
        return text
    path, msg = m.groups()
    segs = [int(i) if i else k for k, i in re.findall(r"\.([\w-]+)|\[(\d+)\]", path)]
    item, kind, rest = _item(segs, raw)
    field, unit = _field(kind, rest)
    said = plain_predicate(msg, unit, PATTERNS.get(kind or "", ""))
    if said is not None and said.startswith("is not a field") and rest:
        field = f'"{_short(str(rest[-1])) or "?"}"'  # an unknown key is named as it is written
    if said is None:  # the checker's own words, its field names in words
        head = ", ".join(w for w in (item, field) if w)
        return f"{_cap(head or 'The file')}: {_KEYS.sub(lambda k: KEY_WORDS[k.group()], msg)}"
    if item:
        if field:
            return f"{item}: {field} {said}."
        return f"{item} {said}."
    return f"{_cap(field or 'the file')} {said}."


KEY_WORDS = {
    "entry_edge": "entry edge",
    "carried_by": "starts aboard",
    "facing_deg": "facing",
    "max_sighting_in": "sighting distance",
    "on_table": "on the table",
    "command_value": "GHQ command value",
    "air_support": "air support",
}
"""The file's field names the checker's own lines use, in words."""
_KEYS = re.compile(r"\b(?:" + "|".join(KEY_WORDS) + r")\b")


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]
