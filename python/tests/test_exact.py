# Feng's exact solution through impactlab.exact(), and its agreement with CVODE runs (physics, not types).
import math

import numpy as np
import pytest

import impactlab


def test_exact_restitution_is_the_calibrated_target():
    for p in (1.0, 1.5, 2.5):
        for e in (0.3, 0.8, 0.99):
            assert impactlab.exact(p=p, e=e)["restitution"] == pytest.approx(e, rel=1e-12)


def test_exact_linear_undamped_is_the_harmonic_half_period():
    m, k, v0 = 0.2, 5e4, 1.7
    s = impactlab.exact(p=1.0, alpha=0.0, m=m, k=k, v0=v0)
    assert s["t_contact"] == pytest.approx(math.pi * math.sqrt(m / k), rel=1e-12)
    assert s["delta_max"] == pytest.approx(v0 * math.sqrt(m / k), rel=1e-12)


def test_exact_undamped_trajectory_conserves_energy():
    m, k, p, v0 = 1.0, 2.0, 1.5, 0.7
    s = impactlab.exact(p=p, alpha=0.0, m=m, k=k, v0=v0, samples=400)
    energy = 0.5 * m * s["delta_dot"] ** 2 + k * s["delta"] ** (p + 1) / (p + 1)
    assert np.max(np.abs(energy - 0.5 * m * v0**2)) <= 1e-10 * 0.5 * m * v0**2


def test_exact_trajectory_starts_and_ends_on_the_wall():
    s = impactlab.exact(p=1.5, e=0.6, v0=2.0, samples=200)
    assert s["t"][0] == 0.0 and s["delta"][0] == 0.0 and s["delta_dot"][0] == pytest.approx(2.0, rel=1e-14)
    assert s["t"][-1] == pytest.approx(s["t_contact"], rel=1e-12)
    assert s["delta_dot"][-1] == pytest.approx(-0.6 * 2.0, rel=1e-9)
    assert np.max(s["delta"]) == pytest.approx(s["delta_max"], rel=1e-4)  # sampled, so below the located max


def test_exact_dissipation_splits_loading_and_unloading():
    s = impactlab.exact(p=1.5, e=0.7, m=2.0, v0=1.5)
    total = s["energy_dissipated_loading"] + s["energy_dissipated_unloading"]
    assert total == pytest.approx(s["energy_initial"] * (1 - 0.7**2), rel=1e-12)


@pytest.mark.parametrize("e", [1.0, 0.8])
def test_exact_agrees_with_cvode_run(unit_hertz, e):
    sc = dict(unit_hertz, e=e, cvode_rtol=1e-13, cvode_atol=1e-16)
    r = impactlab.run(sc, integrators=["cvode_bdf"]).run_summary("cvode_bdf")
    ex = impactlab.exact(p=1.5, e=e, m=1.0, k=1.0, v0=1.0)
    assert r["restitution"] == pytest.approx(ex["restitution"], rel=1e-9, abs=0)
    assert r["max_overlap"] == pytest.approx(ex["delta_max"], rel=1e-9, abs=0)
    assert r["contact_duration"] == pytest.approx(ex["t_contact"], rel=1e-9, abs=0)


def test_exact_trajectory_agrees_with_cvode_trajectory(unit_hertz):
    # CVODE at rtol 1e-13 against the exact state at every recorded step inside the contact (q = y = −δ).
    sc = dict(unit_hertz, e=0.8, cvode_rtol=1e-13, cvode_atol=1e-16)
    tr = impactlab.run(sc, integrators=["cvode_bdf"])["cvode_bdf"]
    ex = impactlab.exact(p=1.5, e=0.8)
    inside = tr.t <= ex["t_contact"]
    assert np.count_nonzero(inside) > 100
    ref = impactlab.exact(p=1.5, e=0.8, times=tr.t[inside])
    assert np.max(np.abs(-tr.q[inside, 0] - ref["delta_at_times"])) <= 1e-9 * ex["delta_max"]
    assert np.max(np.abs(-tr.v[inside, 0] - ref["delta_dot_at_times"])) <= 1e-9 * 1.0
