"""Coverage/retention tables (markdown) and plots (PNG, matplotlib) for evaluation rows."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from prover.conformal.evaluate import Row


def _methods(rows: Sequence[Row]) -> list[str]:
    return list(dict.fromkeys(r.method for r in rows))


def markdown_table(rows: Sequence[Row], label: str = "human") -> str:
    """One line per α: target, bounds, then per method coherent factuality (± SE) and % kept."""
    methods = _methods(rows)
    alphas = list(dict.fromkeys(r.alpha for r in rows))
    by = {(r.method, r.alpha): r for r in rows}
    head = ["α", "target 1−α", "upper 1−α+1/(n+1)"]
    extra = label != "proxy" and "proxy" in rows[0].coverage
    for m in methods:
        head += [f"{m}: coherent ({label})"] + ([f"{m}: coherent (proxy)"] if extra else [])
        head += [f"{m}: independent", f"{m}: kept %"]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for a in alphas:
        r0 = by[(methods[0], a)]
        cells = [f"{float(a):.3f}", f"{r0.target:.3f}", f"{r0.upper:.3f}"]
        for m in methods:
            r = by[(m, a)]
            cells.append(f"{r.coverage[label]:.3f} ± {r.coverage_se[label]:.3f}"
                         if r.coverage_se[label] == r.coverage_se[label] else f"{r.coverage[label]:.3f}")
            if extra:
                cells.append(f"{r.coverage['proxy']:.3f}")
            cells += [f"{r.coverage['independent']:.3f}" if "independent" in r.coverage else "—",
                      f"{100 * r.retention:.1f}"]
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


def plot(rows: Sequence[Row], path: str | Path, title: str, label: str = "human",
         target: float | None = 0.9) -> None:
    """Write :func:`plot_figure` as a PNG to ``path``."""
    fig = plot_figure(rows, title, label, target)   # selects the Agg backend first
    import matplotlib.pyplot as plt

    Path(path).parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=120)
    plt.close(fig)


def plot_figure(rows: Sequence[Row], title: str, label: str = "human", target: float | None = 0.9):
    """Left: realized coherent factuality vs target with the conformal bounds; right: retention.

    ``target``: the target coherent factuality 1−α to mark (the evaluated α nearest to it): a
    vertical line and a star per method on the left, the same points starred on the right. The title is wrapped so that it is never clipped."""
    import textwrap

    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(11, 4.8))
    methods = _methods(rows)
    n_cal = rows[0].n_cal
    xs = sorted({r.target for r in rows})
    lo, hi = min(xs) - 0.02, max(xs) + 0.02
    ax1.plot([lo, hi], [lo, hi], "k--", lw=1, label="y = 1−α")
    ax1.plot([lo, hi], [lo + 1 / (n_cal + 1), hi + 1 / (n_cal + 1)], "k:", lw=1, label="y = 1−α+1/(n+1)")
    mark = min(xs, key=lambda x: abs(x - target)) if target is not None and xs else None
    if mark is not None:
        ax1.axvline(mark, color="grey", lw=0.8, alpha=0.6)
    for m in methods:
        rs = sorted((r for r in rows if r.method == m), key=lambda r: r.target)
        cov = [r.coverage[label] for r in rs]
        err = [1.96 * r.coverage_se[label] if r.coverage_se[label] == r.coverage_se[label] else 0 for r in rs]
        line = ax1.errorbar([r.target for r in rs], cov, yerr=err, marker="o", ms=4, capsize=2, label=m)
        ax2.plot([100 * r.retention for r in rs], cov, marker="o", ms=4, label=m)
        at = [r for r in rs if r.target == mark]
        if at:
            colour = line[0].get_color()
            r = at[0]
            ax1.plot([r.target], [r.coverage[label]], marker="*", ms=14, color=colour, mec="black", mew=0.6,
                     zorder=5)
            ax2.plot([100 * r.retention], [r.coverage[label]], marker="*", ms=14, color=colour, mec="black",
                     mew=0.6, zorder=5)
    if mark is not None:
        ax1.plot([], [], "*", color="grey", ms=10, label=f"target 1−α = {mark:.3g}")
        ax2.plot([], [], "*", color="grey", ms=10, label=f"at target {mark:.3g}")
    ax1.set_xlabel("target coherent factuality 1−α")
    ax1.set_ylabel(f"realized coherent factuality ({label} label)")
    ax1.set_title(f"validity (n_cal = {n_cal})")
    ax1.legend(fontsize=8)
    ax2.set_xlabel("claims kept (%)")
    ax2.set_ylabel(f"realized coherent factuality ({label} label)")
    ax2.set_title("retention")
    ax2.legend(fontsize=8)
    wrapped = textwrap.wrap(title, width=120) or [""]
    fig.suptitle("\n".join(wrapped), fontsize=9)
    fig.tight_layout(rect=(0, 0, 1, 1 - 0.025 * len(wrapped)))
    return fig
