#!/usr/bin/env python3
"""Draw the figures of `impactlab converge` / `impactlab workprecision` from their JSON.

Usage: plot_ladder.py LADDER.json convergence|workprecision
Writes <kind>_<metric>.png next to the JSON, one per error metric.
  convergence:   error vs dt (fixed-step schemes, left panel) and error vs tolerance (adaptive schemes, right
                 panel), with dashed reference slopes 1, 2, 4 (and the fitted order in each legend entry).
  workprecision: error vs median wall time, horizontal bars = min-max over the repeats, with dashed
                 reference slopes -1, -2, -4 (error ~ work^-p for a p-th order fixed-step scheme).
With grid shifts (`--grid-shifts K`) a point is the largest error of the K shifted step grids and a thin
vertical bar with ticks shows all K.
Every integrator has its own colour AND marker (17 distinct pairs; readable in grey-scale); points left out
of the fit (at the round-off / reference floor, above the stability estimate, failed) are drawn hollow and
stay visible.
"""
import json
import math
import pathlib
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

# 17+ distinguishable colours (tab20 without the light duplicates first) and markers.
COLOURS = ["#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22",
           "#17becf", "#000000", "#aec7e8", "#98df8a", "#ff9896", "#c5b0d5", "#c49c94", "#f7b6d2", "#dbdb8d"]
MARKERS = ["o", "s", "^", "v", "D", "P", "X", "*", "<", ">", "h", "p", "d", "8", "H", "1", "2", "+"]
LINES = ["-", "--", "-.", ":"]


def style(i):
    return COLOURS[i % len(COLOURS)], MARKERS[i % len(MARKERS)], LINES[(i // 6) % len(LINES)]


def slopes(ax, xs, ys, orders, sign):
    """Dashed guide lines through the geometric middle of the data, one per order."""
    xs = [x for x in xs if x and x > 0]
    ys = [y for y in ys if y and y > 0]
    if len(xs) < 2 or not ys:
        return
    x0, x1 = min(xs), max(xs)
    xm = math.sqrt(x0 * x1)
    ym = math.exp(sum(math.log(y) for y in ys) / len(ys))
    for k, p in enumerate(orders):
        s = sign * p
        ax.plot([x0, x1], [ym * (x0 / xm) ** s, ym * (x1 / xm) ** s], color="0.55", ls=(0, (4, 3)), lw=0.9,
                zorder=0)
        ax.annotate(f"slope {s:g}", (x1, ym * (x1 / xm) ** s), fontsize=7, color="0.35", ha="left", va="center")


def main():
    path = pathlib.Path(sys.argv[1])
    kind = sys.argv[2]
    data = json.loads(path.read_text())
    series = data["series"]
    order_of = {s["integrator"]: i for i, s in enumerate(series)}
    ref = data["reference"]["name"]
    for metric in data["metrics"]:
        if kind == "convergence":
            groups = [("dt", "dt [s]", [s for s in series if not s["adaptive"]]),
                      ("tolerance", "tolerance (rtol)", [s for s in series if s["adaptive"]])]
            groups = [g for g in groups if g[2]]
        else:
            groups = [("wall", "wall time per run [s] (median; bars: min-max)", series)]
        wide = max(len(g[2]) for g in groups) > 6
        fig, axes = plt.subplots(1, len(groups), figsize=((9.0 if wide else 6.4) * len(groups), 4.8), squeeze=False)
        for ax, (which, xlabel, group) in zip(axes[0], groups):
            all_x, all_y = [], []
            for s in group:
                colour, marker, line = style(order_of[s["integrator"]])
                pts = [p for p in s["points"] if p["errors"].get(metric) is not None and p["errors"][metric] > 0]
                if kind == "convergence":
                    xs = [p["x"] for p in pts]
                else:
                    xs = [p["wall_time_s"] for p in pts]
                ys = [p["errors"][metric] for p in pts]
                fit = s["fit"].get(metric)
                label = s["integrator"]
                if fit:
                    word = "slope vs tol" if s["adaptive"] else "order in dt"
                    label += f" ({word} {fit['order']:.2f} ± {fit['standard_error']:.2f})"
                ax.plot(xs, ys, color=colour, ls=line, lw=1.2, zorder=2)
                ax.plot([], [], color=colour, ls=line, lw=1.2, marker=marker, ms=6, label=label)  # legend entry
                used = [(x, y) for x, y, p in zip(xs, ys, pts) if p["excluded"].get(metric) is None]
                out = [(x, y) for x, y, p in zip(xs, ys, pts) if p["excluded"].get(metric) is not None]
                if used:
                    ax.plot(*zip(*used), ls="none", marker=marker, color=colour, ms=6, zorder=3)
                if out:
                    ax.plot(*zip(*out), ls="none", marker=marker, ms=8, markerfacecolor="none",
                            markeredgecolor=colour, markeredgewidth=1.3, zorder=4)
                shifted = [(x, [e for e in p["errors_by_shift"][metric] if e is not None and e > 0])
                           for x, p in zip(xs, pts) if metric in p.get("errors_by_shift", {})]
                for x, es in shifted:  # grid shifts: the point is the largest; the bar spans all K grids
                    if es:
                        ax.plot([x, x], [min(es), max(es)], color=colour, lw=0.8, alpha=0.6, zorder=1)
                        ax.plot([x] * len(es), es, ls="none", marker="_", color=colour, ms=5, alpha=0.6, zorder=1)
                if kind == "workprecision":
                    lo = [x - p["wall_time_min_s"] for x, p in zip(xs, pts)]
                    hi = [p["wall_time_max_s"] - x for x, p in zip(xs, pts)]
                    ax.errorbar(xs, ys, xerr=[lo, hi], ls="none", ecolor=colour, elinewidth=0.8, capsize=2, zorder=1)
                all_x += xs
                all_y += [y for y, p in zip(ys, pts) if p["excluded"].get(metric) is None] or ys
            if which == "dt":
                slopes(ax, all_x, all_y, [1, 2, 4], 1)
            elif which == "tolerance":
                slopes(ax, all_x, all_y, [1], 1)
            else:
                slopes(ax, all_x, all_y, [1, 2, 4], -1)
            ax.set_xscale("log")
            ax.set_yscale("log")
            ax.set_xlabel(xlabel)
            ax.set_ylabel(f"{'absolute' if metric == 'restitution' else 'relative'} error in {metric}\nvs {ref}")
            ax.grid(True, which="major", color="0.9")
            if len(group) > 6:  # many lines: the legend beside the axes, not over the data
                ax.legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.01, 1.0), borderaxespad=0.0)
            else:
                ax.legend(fontsize=7, loc="best")
        title = "convergence" if kind == "convergence" else "work-precision"
        shifts = max((s.get("grid_shifts", 1) for s in series), default=1)
        note = f"\nerror: the largest of {shifts} shifted step grids (bars: all {shifts})" if shifts > 1 else ""
        fig.suptitle(f"{title}: {pathlib.Path(data['scenario']).name}, {metric} (hollow: left out of the fit){note}",
                     fontsize=10)
        fig.tight_layout()
        fig.savefig(path.parent / f"{kind}_{metric}.png", dpi=110)
        plt.close(fig)


if __name__ == "__main__":
    main()
