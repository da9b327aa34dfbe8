"""The rules data files' common parts: the error every loader raises, strict pydantic
settings, the ATGM mount, and reading CSV and TOML tables with one problem line per bad cell
(``file: field: problem``). :mod:`game.rules.charts.data` and :mod:`game.rules.charts.units` build on them."""

from __future__ import annotations

import csv
import tomllib
from pathlib import Path
from typing import Annotated

from pydantic import ConfigDict, Field, TypeAdapter, ValidationError
from pydantic.dataclasses import dataclass

STRICT = ConfigDict(extra="forbid")
NonNeg = Annotated[int, Field(ge=0)]
Positive = Annotated[int, Field(gt=0)]


class DataError(ValueError):
    """A rules data file is missing, malformed or inconsistent.

    The message is one line per problem: ``file: field: problem``.
    """


@dataclass(frozen=True, config=STRICT)
class Atgm:
    """An ATGM mount (000 07.03): attack value, maximum and minimum range (inches) and the
    depletion number compared with the natural 2D6 combat roll after each shot."""

    attack: NonNeg
    range: Positive
    min_range: NonNeg
    depletion: Annotated[int, Field(ge=0, le=12)]


def problems_of(path: Path, where: str, err: ValidationError) -> list[str]:
    """One line per problem pydantic found: ``file: where.field: message`` (a table's row:
    ``file: line N: column: message``)."""
    out = []
    for e in err.errors():
        loc = ".".join(str(p) for p in e["loc"] if p not in ("function-after",))
        sep = ": " if where.startswith("line ") else "."
        field = f"{where}{sep}{loc}" if loc else where
        out.append(f"{path.name}: {field}: {e['msg']}")
    return out


def validate(adapter: TypeAdapter, raw: object, path: Path, where: str, problems: list[str]):
    try:
        return adapter.validate_python(raw)
    except ValidationError as err:
        problems.extend(problems_of(path, where, err))
        return None


def read_toml(path: Path) -> dict:
    try:
        with path.open("rb") as fh:
            return tomllib.load(fh)
    except FileNotFoundError:
        raise DataError(f"{path.name}: missing file {path}") from None
    except tomllib.TOMLDecodeError as err:
        raise DataError(f"{path.name}: not valid TOML: {err}") from None


def read_csv(path: Path) -> list[tuple[int, dict[str, str]]]:
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise DataError(f"{path.name}: missing file {path}") from None
    numbered = [(n, line) for n, line in enumerate(text.splitlines(), 1) if line.strip()]
    numbered = [(n, line) for n, line in numbered if not line.lstrip().startswith("#")]
    reader = csv.DictReader(line for _, line in numbered)
    rows = []
    for (n, _), row in zip(numbered[1:], reader, strict=False):
        if None in row:
            raise DataError(f"{path.name}: line {n}: more cells than the header has columns")
        rows.append((n, {k: v.strip() for k, v in row.items() if v is not None}))
    return rows


ATGM_COLUMNS = ("atgm_attack", "atgm_range", "atgm_min_range", "atgm_depletion")
