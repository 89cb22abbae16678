#!/usr/bin/env python3
"""Render every <name>.plot.json under a report directory into <name>.png with matplotlib.

Each spec (written by validation/report/figure_spec.cpp) names CSV files, columns, labels and axis scales; a series
may keep only the rows whose columns hold given texts ("where").
Usage: plot_figures.py REPORT_DIR
"""
import csv
import json
import math
import multiprocessing
import os
import pathlib
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def read_columns(path):
    with open(path, newline="") as f:
        rows = list(csv.DictReader(f))
    return rows


def to_float(x):
    try:
        v = float(x)
        return v if math.isfinite(v) else None
    except (TypeError, ValueError):
        return None


def render(spec_path):
    spec = json.loads(spec_path.read_text())
    folder = spec_path.parent
    fig, ax = plt.subplots(figsize=(6.4, 4.4), dpi=110)
    for s in spec["series"]:
        rows = read_columns(folder / s["csv"])
        # "where": only the rows of a long table whose named columns hold the given texts (one series of several).
        for column, value in s.get("where", {}).items():
            rows = [r for r in rows if r.get(column) == value]
        ycol = s["y"][4:] if s["y"].startswith("abs:") else s["y"]
        pts = [(to_float(r.get(s["x"])), to_float(r.get(ycol))) for r in rows]
        if s["y"].startswith("abs:"):
            pts = [(x, abs(y) if y is not None else None) for x, y in pts]
        pts = [(x, y) for x, y in pts if x is not None and y is not None]
        if spec.get("logy"):
            pts = [(x, y) for x, y in pts if y > 0]
        if spec.get("logx"):
            pts = [(x, y) for x, y in pts if x > 0]
        if not pts:
            continue
        xs, ys = zip(*pts)
        ax.plot(xs, ys, s.get("style", "-"), label=s.get("label", ycol), markersize=4)
    if spec.get("logx"):
        ax.set_xscale("log")
    if spec.get("logy"):
        ax.set_yscale("log")
    ax.set_xlabel(spec.get("xlabel", ""))
    ax.set_ylabel(spec.get("ylabel", ""))
    ax.set_title(spec.get("title", ""), fontsize=10)
    ax.grid(True, which="both", alpha=0.3)
    if len(spec["series"]) > 1:
        ax.legend(fontsize=8)
    fig.tight_layout()
    out = folder / (spec["name"] + ".png")
    tmp = folder / (spec["name"] + ".tmp.png")
    fig.savefig(tmp)
    plt.close(fig)
    tmp.replace(out)


def render_safe(spec):
    """Renders one figure; returns an error text or None (one bad figure must not hide the others)."""
    try:
        render(spec)
        return None
    except Exception as exc:
        return f"plot_figures: {spec}: {exc}"


def main():
    root = pathlib.Path(sys.argv[1])
    specs = sorted(root.rglob("*.plot.json"))
    # Figures are independent: render them on every core (rendering was ~1/3 of a quick validate on one).
    workers = max(1, min(len(specs), os.cpu_count() or 1))
    if workers > 1:
        with multiprocessing.Pool(workers) as pool:
            errors = pool.map(render_safe, specs)
    else:
        errors = [render_safe(s) for s in specs]
    failed = 0
    for e in errors:
        if e:
            failed += 1
            print(e, file=sys.stderr)
    print(f"plot_figures: rendered {len(specs) - failed} of {len(specs)} figures")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
