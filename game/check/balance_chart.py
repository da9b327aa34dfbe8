"""The balance check's chart (``hulldown balance --chart FILE``): a PNG of each outcome's
share of the battles with its 95% Wilson interval, beside the mean stands each side had lost
by the end of each turn. Drawn with matplotlib's Agg backend (no window)."""

from __future__ import annotations

import io
from pathlib import Path

from game import write_atomic
from game.check.balance import BalanceReport, wilson

SIDE_COLOURS = ("#3a6ea5", "#b5452f")
"""Side A's and side B's colour (the table's counters' blue and red)."""
DRAW_COLOUR = "#8a8a7a"


def chart_png(report: BalanceReport, title: str) -> bytes:
    """The chart of ``report`` as PNG bytes (1200x500 pixels), headed by ``title``."""
    # lazy: matplotlib (about 0.5 s) loads only when a chart is drawn
    import matplotlib

    matplotlib.use("Agg", force=True)
    # lazy: matplotlib (about 0.5 s) loads only when a chart is drawn
    from matplotlib.figure import Figure
    from matplotlib.ticker import PercentFormatter

    fig = Figure(figsize=(12, 5), dpi=100)
    left, right = fig.subplots(1, 2, gridspec_kw={"width_ratios": [1, 1.4]})
    a, b = report.sides
    n = report.games
    names = [a.name or a.side, b.name or b.side, "draws"]
    shares = [a.rate, b.rate, report.draws / n]
    cis = [a.ci, b.ci, wilson(report.draws, n)]
    low = [max(0.0, s - lo) for s, (lo, _) in zip(shares, cis, strict=True)]  # never -1e-17
    high = [max(0.0, hi - s) for s, (_, hi) in zip(shares, cis, strict=True)]
    colours = [*SIDE_COLOURS, DRAW_COLOUR]
    left.bar(range(3), shares, color=colours, yerr=[low, high], capsize=8)
    for i, (s, (_, hi)) in enumerate(zip(shares, cis, strict=True)):
        left.text(i, min(hi + 0.03, 1.02), f"{s:.0%}", ha="center", va="bottom")
    left.set_xticks(range(3), [x if len(x) <= 18 else x[:17] + "…" for x in names])
    left.set_ylim(0, 1.12)
    left.yaxis.set_major_formatter(PercentFormatter(1.0))
    left.set_ylabel("share of battles (95% interval)")
    left.set_title(f"Outcomes of {n} battles: {report.verdict}")
    left.axhline(0.5, color="#555", lw=0.8, ls=":")
    for side, colour in zip(report.sides, SIDE_COLOURS, strict=True):
        curve = side.losses_by_turn
        right.plot(
            range(1, len(curve) + 1),
            curve,
            marker="o",
            color=colour,
            label=f"{side.name or side.side} lost",
        )
    right.set_xlabel("end of turn")
    right.set_ylabel("mean stands lost")
    right.set_title(f"Losses over the turns (mean {report.mean_turns:.1f} turns a battle)")
    right.grid(alpha=0.3)
    right.legend(loc="upper left")
    fig.suptitle(title)
    fig.tight_layout()
    buf = io.BytesIO()
    fig.savefig(buf, format="png")
    return buf.getvalue()


def write_chart(report: BalanceReport, title: str, path: str | Path) -> None:
    """Write :func:`chart_png` to ``path`` atomically. Raises OSError when it cannot be
    written (the file is then unchanged)."""
    write_atomic(path, chart_png(report, title))
