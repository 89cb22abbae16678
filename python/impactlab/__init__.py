"""impactlab: time integration of contact problems, from Python (docs/python.md).

    import impactlab
    impactlab.list()                                   # integrators (with traits), laws, models
    r = impactlab.run("hertz_impact.toml", integrators=["velocity_verlet", "cvode_bdf"], overrides={"e": 0.8})
    r.summary["runs"][0]["restitution"]; r["cvode_bdf"].t, .q, .v, .energy, .dissipated, .balance_residual
    impactlab.exact(p=1.5, e=0.8, m=1, k=1e6, v0=1)    # Feng's exact solution with its trajectory arrays
    impactlab.converge(scenario, "velocity_verlet", dts=[...])
    impactlab.sweep(scenario, vary={"e": [0.5, 0.8]}, integrators=[...])   # pandas DataFrame
    impactlab.register_normal_law("my_law", "…", factory, keys={"k": None})  # a law written in Python

Bad input raises impactlab.InvalidParameterError (a ValueError) with the one-line message the command
line prints; a step that cannot be completed raises impactlab.StepFailureError (a RuntimeError).
Units are SI throughout.
"""

from __future__ import annotations

import itertools
import json
import os
from dataclasses import dataclass
from typing import Any, Iterable, Mapping, Sequence

import numpy as np

from . import _impactlab as _core
from ._impactlab import InvalidParameterError, StepFailureError

__version__ = _core.version()

__all__ = [
    "InvalidParameterError", "StepFailureError", "Trajectory", "RunResult", "list", "run", "exact", "converge",
    "sweep", "register_normal_law", "audit_order", "check_contract", "cli", "build_info", "scenario_path",
]

_builtin_list = list


def build_info() -> dict:
    """Version of impactlab and of the libraries it was built against (as `impactlab --version`)."""
    return {"impactlab": _core.version(), **dict(_core.dependency_versions())}


def scenario_path(name: str) -> str:
    """Path of a shipped scenario ("hertz_impact" or "hertz_impact.toml"): the installed share/impactlab/
    scenarios/ next to this package, else the source tree's validation/scenarios/."""
    file = name if name.endswith(".toml") else name + ".toml"
    here = os.path.dirname(os.path.abspath(__file__))
    candidates = [
        os.path.join(here, "..", "..", "..", "..", "share", "impactlab", "scenarios", file),  # <prefix>/lib/python3/dist-packages/impactlab
        os.path.join(here, "..", "..", "..", "validation", "scenarios", file),  # build/python/impactlab in the tree
    ]
    for c in candidates:
        if os.path.isfile(c):
            return os.path.normpath(c)
    raise InvalidParameterError(f"invalid scenario = \"{name}\" (valid: a shipped scenario name; looked in "
                                f"{', '.join(os.path.normpath(os.path.dirname(c)) for c in candidates)})")


def list() -> dict:  # noqa: A001 - the name of the CLI command
    """Registered integrators (name, summary, declared traits), normal laws, damping laws and models."""
    return json.loads(_core.list_json())


@dataclass
class Trajectory:
    """One integrator's run: every recorded accepted step (NumPy arrays, SI units)."""
    integrator: str
    t: np.ndarray            # [s], shape (n,)
    q: np.ndarray            # generalized coordinates, shape (n, nq)
    v: np.ndarray            # generalized velocities, shape (n, nv)
    kinetic: np.ndarray      # T [J]
    potential: np.ndarray    # V [J]
    energy: np.ndarray       # E = T + V [J] (the model's total energy)
    dissipated: np.ndarray   # D [J], cumulative dashpot (damping) work
    friction_work: np.ndarray    # W_f [J], cumulative slip work of the tangential laws
    generated_work: np.ndarray   # W_g [J], energy a non-conservative law creates by itself (signed)
    external_work: np.ndarray    # W_ext [J], work of external forces that are not potentials
    balance_residual: np.ndarray  # (books - books0) / |E0|, books = E + D + W_f - W_g - W_ext (the ledger's)
    initial_energy: float    # E0 [J]
    events: dict             # contact events: t, overlap, overlap_rate, contact, kind, located_by

    @property
    def energy_error(self) -> np.ndarray:
        """(E - E0) / |E0|."""
        scale = abs(self.initial_energy) if self.initial_energy != 0 else 1.0
        return (self.energy - self.initial_energy) / scale


class RunResult:
    """What run() returns: `summary` (the dict `impactlab run --json` prints) and one Trajectory per
    integrator, by name: result["cvode_bdf"], or result.trajectories (in run order)."""

    def __init__(self, summary: dict, trajectories: Sequence[Trajectory]):
        self.summary = summary
        self.trajectories = _builtin_list(trajectories)

    def __getitem__(self, integrator: str) -> Trajectory:
        for t in self.trajectories:
            if t.integrator == integrator:
                return t
        raise KeyError(integrator)

    def run_summary(self, integrator: str) -> dict:
        for r in self.summary["runs"]:
            if r["integrator"] == integrator:
                return r
        raise KeyError(integrator)

    def table(self):
        """The per-integrator summary as a pandas DataFrame (one row per integrator, events left out)."""
        import pandas as pd
        return pd.DataFrame([{k: v for k, v in r.items() if k != "events"} for r in self.summary["runs"]])

    def __repr__(self) -> str:
        names = ", ".join(t.integrator for t in self.trajectories)
        return f"RunResult(model={self.summary.get('model')!r}, integrators=[{names}])"


def _scenario_arg(scenario: str | os.PathLike | Mapping[str, Any]):
    if isinstance(scenario, os.PathLike):
        return os.fspath(scenario)
    if isinstance(scenario, Mapping):
        return dict(scenario)
    return scenario


def run(scenario: str | os.PathLike | Mapping[str, Any], integrators: Iterable[str] | None = None,
        overrides: Mapping[str, Any] | None = None, dt: float | None = None, record_every: int = 1,
        strict: bool = False, out_dir: str | None = None) -> RunResult:
    """Runs a scenario (a TOML path or a dict of scenario keys) with each integrator (default: the
    scenario's list) — exactly `impactlab run`, plus the recorded trajectory of every accepted step."""
    summary_json, trajs = _core.run(_scenario_arg(scenario), _builtin_list(integrators or []),
                                    dict(overrides or {}), dt, int(record_every), bool(strict), out_dir or "")
    return RunResult(json.loads(summary_json), [Trajectory(**t) for t in trajs])


def exact(p: float, e: float | None = None, m: float = 1.0, k: float = 1.0, v0: float = 1.0, *,
          alpha: float | None = None, samples: int = 1000, times: Sequence[float] | None = None) -> dict:
    """Feng's exact solution of m δ'' + α √(mk) δ^((p-1)/2) δ' + k δ^p = 0, δ(0) = 0, δ'(0) = v0 (give the
    restitution e or Tsuji's alpha). Scalars (restitution, delta_max, t_contact, …) and, when the body
    rebounds, the trajectory arrays t, delta, delta_dot over the contact (t from first touch); with `times`
    also delta_at_times, delta_dot_at_times at those times (each within [0, t_contact])."""
    return _core.exact(float(p), None if e is None else float(e), None if alpha is None else float(alpha),
                       float(m), float(k), float(v0), int(samples),
                       [float(t) for t in (times if times is not None else [])])


def converge(scenario: str | os.PathLike | Mapping[str, Any], integrator: str, dts: Sequence[float],
             overrides: Mapping[str, Any] | None = None) -> dict:
    """Errors of `integrator` against the exact solution (1-D power-law oscillator scenarios) at each dt:
    restitution, delta_max, t_contact, trajectory; observed orders (least-squares slopes)."""
    return _core.converge(_scenario_arg(scenario), integrator, [float(x) for x in dts], dict(overrides or {}))


def sweep(scenario: str | os.PathLike | Mapping[str, Any], vary: Mapping[str, Sequence[Any]],
          integrators: Iterable[str] | None = None, overrides: Mapping[str, Any] | None = None,
          dt: float | None = None):
    """Runs the Cartesian product of `vary` (key -> values) and returns a pandas DataFrame: one row per
    (point, integrator) with the varied keys and the run summary's scalar columns."""
    import pandas as pd
    keys = _builtin_list(vary.keys())
    if not keys:
        raise InvalidParameterError("invalid vary = {} (valid: at least one key with a list of values)")
    rows = []
    for values in itertools.product(*(vary[k] for k in keys)):
        point = dict(zip(keys, values))
        res = run(scenario, integrators, {**dict(overrides or {}), **point}, dt=dt, record_every=1 << 30)
        for r in res.summary["runs"]:
            row = dict(point)
            row.update({k: v for k, v in r.items() if not isinstance(v, (dict, _builtin_list))})
            rows.append(row)
    df = pd.DataFrame(rows)
    for c in df.columns:  # None (e.g. no rebound) -> NaN in numeric columns
        if df[c].dtype == object:
            try:
                df[c] = pd.to_numeric(df[c])
            except (ValueError, TypeError):
                pass
    return df


def register_normal_law(name: str, summary: str, factory, keys: Mapping[str, float | None]) -> None:
    """Registers a normal contact law written in Python under `name` (then `normal_law = name` works in
    any scenario of the contact_oscillator model, in run(), converge(), sweep() and cli()).

    `keys` maps each scenario key the law reads to its default (None: required). factory(**values) returns
    an object with potential(d) = W(δ) [J], force(d) = W'(δ) [N], stiffness(d) = W''(δ) [N/m] for δ > 0
    and, optionally, effective_stiffness(d) (default W'²/2W), coefficient() and exponent() (the power-law
    k, p used by the Tsuji damping calibration), reference(). Slow: every force evaluation calls Python
    (docs/python.md gives the measured cost)."""
    _core.register_normal_law(name, summary, factory, dict(keys))


def audit_order(integrator: str, options: Mapping[str, Any] | None = None, n0: int = 64, levels: int = 4) -> dict:
    """Measured order of a registered integrator on the undamped harmonic oscillator (audit/integrator_audit.h)."""
    return _core.audit_order(integrator, dict(options or {}), int(n0), int(levels))


def check_contract(integrator: str) -> dict:
    """The integrator contract (audit/integrator_audit.h): {'ok': bool, 'failures': [...], ...}."""
    return _core.check_contract(integrator)


def cli(*args: str) -> int:
    """Runs the impactlab command line in this process (so laws registered here are known); returns the
    exit status. Output goes to the process's stdout / stderr."""
    return _core.cli([str(a) for a in args])
