#!/usr/bin/env python3
"""Wall time of the reference scaling sweep (docs/sweeps.md; ReferenceScalingSweep in
validation/sweep/parallel_sweep.h: ellipsoid_wall, dt = 1e-6 s, theta_deg = 0:75:6 x e_cn = 0.3,0.5,0.7,0.9,
24 cases) with 1 and 2 threads through `impactlab sweep`, best of N repeats, with the CPU time of each run
and the 1-minute load average before the measurement (the machine may be shared).

Usage: scripts/sweep_scaling.py [IMPACTLAB_BINARY] [REPEATS]"""
import json, os, resource, shutil, subprocess, sys, tempfile

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
binary = sys.argv[1] if len(sys.argv) > 1 else os.path.join(root, "build", "impactlab")
repeats = int(sys.argv[2]) if len(sys.argv) > 2 else 3
scenario = os.path.join(root, "validation", "scenarios", "ellipsoid_wall.toml")


def run(threads, out):
    shutil.rmtree(out, ignore_errors=True)
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    p = subprocess.run([binary, "sweep", scenario, "--set", "dt=1e-6", "--vary", "theta_deg=0:75:6", "--vary",
                        "e_cn=0.3,0.5,0.7,0.9", "--threads", str(threads), "--out", out, "--json"],
                       check=True, capture_output=True, text=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return json.loads(p.stdout)["wall_time_s"], cpu


with tempfile.TemporaryDirectory() as tmp:
    load = os.getloadavg()[0]
    best = {}
    for _ in range(repeats):
        for t in (1, 2):
            w, c = run(t, os.path.join(tmp, "out"))
            if t not in best or w < best[t][0]:
                best[t] = (w, c)
    print(f"load_before={load:.2f} rows=24 repeats={repeats} "
          f"wall_1_thread_s={best[1][0]:.3f} (cpu {best[1][1]:.3f} s) "
          f"wall_2_threads_s={best[2][0]:.3f} (cpu {best[2][1]:.3f} s) speedup={best[1][0] / best[2][0]:.3f}")
