#!/usr/bin/env python3
"""Measures the cost of a normal contact law written in Python (docs/python.md): the same undamped unit
Hertz impact inside the contact (velocity Verlet and RK4, dt = 1e-4, t_end = 3.2 s < t_c: 32000 steps) with the built-in Hertz law and with the
Python one; prints wall time per run, per RHS evaluation, and the ratio (median of 5 runs each).
Usage: PYTHONPATH=<prefix>/lib/python3/dist-packages python3 scripts/measure_python_law.py"""
import statistics
import time

import impactlab


class PyHertz:
    def __init__(self, k):
        self.k = k

    def potential(self, d):
        return self.k * d**2.5 / 2.5

    def force(self, d):
        return self.k * d**1.5

    def stiffness(self, d):
        return 1.5 * self.k * d**0.5

    def coefficient(self):
        return self.k

    def exponent(self):
        return 1.5


impactlab.register_normal_law("py_hertz_measure", "Hertz in Python", PyHertz, keys={"k": None})
sc = {"model": "contact_oscillator", "normal_law": "hertz", "k": 1.0, "m": 1.0, "v0": 1.0, "e": 1.0,
      "t_end": 3.2, "dt": 1e-4}  # in contact for the whole run (t_c = 3.218 s)
for integrator in ("velocity_verlet", "rk4"):
    out = {}
    for law in ("hertz", "py_hertz_measure"):
        walls = []
        for _ in range(5):
            t0 = time.perf_counter()
            r = impactlab.run(dict(sc, normal_law=law), integrators=[integrator], record_every=1 << 30)
            walls.append(time.perf_counter() - t0)
        s = r.run_summary(integrator)
        out[law] = (statistics.median(walls), s["rhs_evaluations"], s["steps"])
    (wb, nb, steps), (wp, npy, _) = out["hertz"], out["py_hertz_measure"]
    print(f"{integrator}: {steps} steps; built-in {wb * 1e3:.1f} ms ({wb / nb * 1e9:.0f} ns/RHS), "
          f"Python law {wp * 1e3:.1f} ms ({wp / npy * 1e9:.0f} ns/RHS): {wp / wb:.0f}x slower")
