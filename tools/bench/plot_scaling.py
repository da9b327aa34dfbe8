"""Draw the output of ``tools/bench/bench_scaling.py`` as a PNG: time and peak memory against stands
a side, on log scales, one line per column (sight matrix, path, any other column added).

    python tools/bench/bench_scaling.py > /tmp/scaling.txt
    python tools/bench/plot_scaling.py /tmp/scaling.txt            # writes docs/scaling.png

The input is the benchmark's output (its JSON object on the last non-empty line; the file may
hold the whole output or just that line). Needs matplotlib, a developer tool and not a game
dependency (``pip install matplotlib``); without it the script says so and exits with 2.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
LABELS = {
    "sight_matrix": 'sight matrix, both ways (30" sighting)',
    "sight_matrix_unlimited": "sight matrix, both ways (unlimited sighting)",
    "path_10in": '10" path in 0.5" steps',
    "ai_decision": "AI decision, median (veteran, first 4 turns)",
    "ai_decision_p95": "AI decision, p95",
}


def read_result(path: Path) -> dict:
    """The benchmark's JSON object: the last non-empty line of the file at ``path``.

    Raises
    ------
    OSError
        The file cannot be read.
    ValueError
        Its last line is not a JSON object with a list of ``rows``.
    """
    lines = [ln for ln in path.read_text(encoding="utf-8").splitlines() if ln.strip()]
    if not lines:
        raise ValueError(f"{path} is empty")
    result = json.loads(lines[-1])
    if not isinstance(result, dict) or not isinstance(result.get("rows"), list):
        raise ValueError(f"{path}: the last line is not bench_scaling's JSON (no 'rows')")
    return result


def series(rows: list[dict], key: str) -> dict[str, tuple[list[int], list[float]]]:
    """For each column, its stands-a-side numbers and the values under ``key``, by size."""
    out: dict[str, tuple[list[int], list[float]]] = {}
    for r in sorted(rows, key=lambda r: r["stands_per_side"]):
        xs, ys = out.setdefault(r["column"], ([], []))
        xs.append(r["stands_per_side"])
        ys.append(max(float(r[key]), 1e-6))  # log scale: no zero
    return out


def plot(result: dict, out: Path) -> None:
    """Draw time (median ms) and peak memory (tracemalloc, MiB) against stands a side, log
    scales, into the PNG ``out``. Raises ImportError without matplotlib."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, (ax_t, ax_m) = plt.subplots(1, 2, figsize=(12, 5), constrained_layout=True)
    for ax, key, title, unit in (
        (ax_t, "median_ms", "time (median of repeats)", "ms"),
        (ax_m, "peak_mb", "peak memory of one call (tracemalloc)", "MiB"),
    ):
        for column, (xs, ys) in series(result["rows"], key).items():
            ax.plot(xs, ys, marker="o", label=LABELS.get(column, column))
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_xlabel("stands a side")
        ax.set_ylabel(unit)
        ax.set_title(title)
        ax.grid(True, which="both", alpha=0.3)
        sizes = sorted({r["stands_per_side"] for r in result["rows"]})
        ax.set_xticks(sizes, [str(s) for s in sizes])
        ax.minorticks_off()
    ax_t.legend(fontsize="small")
    w, d = (f"{v:g}" if isinstance(v, int | float) else "?" for v in result.get("table_in", (0, 0)))
    fig.suptitle(
        f'hulldown scaling: {w}"x{d}" map, '
        f"{result.get('terrain_polygons', '?')} terrain polygons "
        f"(Python {result.get('python', '?')}, Shapely {result.get('shapely', '?')})"
    )
    out.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(out, dpi=110)
    plt.close(fig)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("json", type=Path, help="the output of tools/bench/bench_scaling.py")
    ap.add_argument("--out", type=Path, default=ROOT / "docs" / "scaling.png")
    args = ap.parse_args()
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        print(
            "plot_scaling needs matplotlib, which the game does not depend on: install it "
            "with `.venv/bin/pip install matplotlib` (a developer tool).",
            file=sys.stderr,
        )
        return 2
    try:
        result = read_result(args.json)
    except (OSError, ValueError) as exc:
        print(f"plot_scaling: {exc}", file=sys.stderr)
        return 1
    plot(result, args.out)
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
