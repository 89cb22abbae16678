# converge(), sweep(), the integrator audit, and the example notebook.
import os
import subprocess
import sys

import numpy as np
import pytest

import impactlab

HERE = os.path.dirname(os.path.abspath(__file__))


def test_converge_velocity_verlet_is_second_order_on_undamped_hertz(scenario):
    c = impactlab.converge(scenario("hertz_unit_exact"), "velocity_verlet", dts=[0.04, 0.02, 0.01, 0.005, 0.0025])
    assert c["order_delta_max"] == pytest.approx(2.0, abs=0.15)
    assert c["order_t_contact"] == pytest.approx(2.0, abs=0.15)
    assert np.all(np.diff(c["trajectory_error"]) < 0)  # error falls with dt


def test_converge_damped_linear_contact_is_first_order(scenario):
    # Tsuji damping on p = 1 makes the force jump at onset: order min(2, 1 + (p − 1)/2) = 1 (docs/exact-solution.md)
    c = impactlab.converge(scenario("hertz_unit_exact"), "velocity_verlet", dts=[0.02, 0.01, 0.005, 0.0025, 0.00125],
                           overrides={"normal_law": "linear", "e": 0.5})
    assert c["order_delta_max"] == pytest.approx(1.0, abs=0.15)


def test_sweep_returns_the_calibrated_restitution_for_every_point():
    sc = {"model": "contact_oscillator", "normal_law": "hertz", "k": 1e6, "m": 0.01, "v0": 1.0, "damping": "tsuji",
          "t_end": 1e-2, "dt": 1e-5, "stop_after_separation": 1e-4, "cvode_rtol": 1e-11, "cvode_atol": 1e-16}
    df = impactlab.sweep(sc, vary={"e": [0.5, 0.8, 0.95], "v0": [0.5, 2.0]}, integrators=["cvode_bdf"])
    assert len(df) == 6 and set(df.columns) >= {"e", "v0", "integrator", "restitution", "contact_duration"}
    # Tsuji damping calibrated by α(e, p) gives the target e at every impact speed [Feng 2026, Theorem 2]
    assert np.allclose(df["restitution"], df["e"], rtol=1e-6, atol=0)
    # the contact time scales as v0^{-beta}, beta = (p - 1)/(p + 1) = 1/5 for Hertz [Feng 2026, Theorem 1; docs/theory.md §5]
    for e, g in df.groupby("e"):
        t = g.sort_values("v0")["contact_duration"].to_numpy()
        assert t[0] / t[1] == pytest.approx(4.0 ** 0.2, rel=1e-6)


def test_order_audit_of_builtin_schemes():
    for name, order in (("velocity_verlet", 2), ("rk4", 4), ("mclachlan4", 4)):
        a = impactlab.audit_order(name)
        assert a["declared_order"] == order
        assert a["observed_order"] == pytest.approx(order, abs=0.15)
        assert a["passes"]


def test_list_names_the_integrators_on_dense_whole_system_matrices():
    dense = {i["name"] for i in impactlab.list()["integrators"] if i["dense_matrices"]}
    # CVODE's default linear solver is matrix-free GMRES above 64 unknowns ("dense" on request)
    assert dense == {"siconos_event_driven", "siconos_moreau_jean"}


def test_contract_holds_for_every_registered_integrator():
    for i in impactlab.list()["integrators"]:
        c = impactlab.check_contract(i["name"])
        assert c["ok"], (i["name"], c["failures"])


def test_example_notebook_executes(tmp_path):
    nb = os.path.join(HERE, "..", "..", "examples", "python", "compare_integrators.ipynb")
    p = subprocess.run([sys.executable, "-m", "nbconvert", "--to", "notebook", "--execute", "--output-dir", str(tmp_path),
                        "--ExecutePreprocessor.timeout=300", nb], capture_output=True, text=True)
    assert p.returncode == 0, p.stderr[-3000:]
    out = (tmp_path / "compare_integrators.ipynb").read_text()
    assert "energy error" in out and '"output_type": "error"' not in out
