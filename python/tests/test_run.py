# impactlab.run(): the recorded arrays obey the mechanics (energy books, events, kinematics).
import numpy as np
import pytest

import impactlab


def test_dict_scenario_reproduces_the_file_scenario(scenario):
    path = scenario("hertz_unit_exact")
    a = impactlab.run(path, integrators=["velocity_verlet"])
    b = impactlab.run({"model": "contact_oscillator", "normal_law": "hertz", "k": 1.0, "m": 1.0, "v0": 1.0,
                       "e": 1.0, "damping": "tsuji", "initial_gap": 0.0, "t_end": 5.0, "dt": 0.01},
                      integrators=["velocity_verlet"])
    assert np.array_equal(a["velocity_verlet"].q, b["velocity_verlet"].q)
    assert a.run_summary("velocity_verlet")["restitution"] == b.run_summary("velocity_verlet")["restitution"]


def test_energy_is_kinetic_plus_potential_and_kinetic_is_half_m_v2(unit_hertz):
    m = 2.5
    tr = impactlab.run(dict(unit_hertz, m=m), integrators=["rk4"])["rk4"]
    assert np.allclose(tr.energy, tr.kinetic + tr.potential, rtol=1e-15, atol=0)
    assert np.allclose(tr.kinetic, 0.5 * m * tr.v[:, 0] ** 2, rtol=1e-14, atol=0)
    # Hertz potential W = k δ^{5/2} / (5/2) with δ = −y where y < 0, k = 1
    delta = np.maximum(-tr.q[:, 0], 0.0)
    assert np.allclose(tr.potential, delta**2.5 / 2.5, rtol=1e-13, atol=1e-300)


def test_ledger_arrays_satisfy_the_balance_and_match_the_summary(unit_hertz):
    r = impactlab.run(dict(unit_hertz, e=0.7), integrators=["cvode_bdf", "velocity_verlet"])
    for name in ("cvode_bdf", "velocity_verlet"):
        tr = r[name]
        residual = (tr.energy + tr.dissipated - tr.initial_energy) / abs(tr.initial_energy)
        assert np.array_equal(residual, tr.balance_residual)
        # the summary's maximum is the maximum of these arrays (the ledger sees every step, so does the recorder)
        assert np.max(np.abs(residual)) == pytest.approx(r.run_summary(name)["energy_balance_residual_max"], rel=1e-12)
    assert np.max(np.abs(r["cvode_bdf"].balance_residual)) < 1e-6


def test_damped_run_dissipates_exactly_the_lost_kinetic_energy(unit_hertz):
    e = 0.8
    tr = impactlab.run(dict(unit_hertz, e=e, cvode_rtol=1e-12, cvode_atol=1e-15), integrators=["cvode_bdf"])["cvode_bdf"]
    assert tr.initial_energy == pytest.approx(0.5)
    # after separation all energy is kinetic: E_end = ½ m (e v0)², D_end = E0 (1 − e²)
    assert tr.dissipated[-1] == pytest.approx(tr.initial_energy * (1 - e**2), rel=1e-7)
    assert np.all(np.diff(tr.dissipated) >= 0.0)  # Tsuji power C δ̇² ≥ 0


def test_undamped_run_books_no_dissipation(unit_hertz):
    tr = impactlab.run(unit_hertz, integrators=["velocity_verlet"])["velocity_verlet"]
    assert np.all(tr.dissipated == 0.0)


def test_simo_tarnow_conserves_energy_on_the_undamped_impact(unit_hertz):
    tr = impactlab.run(unit_hertz, integrators=["simo_tarnow"])["simo_tarnow"]
    assert np.max(np.abs(tr.energy_error)) < 1e-10


def test_velocity_verlet_energy_error_is_second_order(unit_hertz):
    errs = [impactlab.run(unit_hertz, integrators=["velocity_verlet"], dt=dt).run_summary("velocity_verlet")["energy_error_max"]
            for dt in (0.02, 0.01, 0.005)]
    ratios = [errs[0] / errs[1], errs[1] / errs[2]]
    assert all(3.5 < q < 4.5 for q in ratios), ratios


def test_contact_events_are_located_in_order(unit_hertz):
    r = impactlab.run(dict(unit_hertz, e=0.8), integrators=["rk4"])
    ev = r["rk4"].events
    assert list(ev["kind"][:3]) == ["start", "max_overlap", "end"]
    assert abs(ev["overlap"][0]) < 1e-12 and abs(ev["overlap"][2]) < 1e-12
    assert abs(ev["overlap_rate"][1]) < 1e-9  # δ̇ = 0 at the maximum
    s = r.run_summary("rk4")
    assert ev["overlap"][1] == pytest.approx(s["max_overlap"], rel=1e-15)
    assert -ev["overlap_rate"][2] / ev["overlap_rate"][0] == pytest.approx(s["restitution"], rel=1e-14)


def test_velocity_is_the_time_derivative_of_position(unit_hertz):
    tr = impactlab.run(dict(unit_hertz, dt=0.001), integrators=["rk4"])["rk4"]
    dqdt = np.gradient(tr.q[:, 0], tr.t)
    # central differences are O(h²): |q'''| ≤ ~1 in unit scales, h = 1e-3
    assert np.max(np.abs(dqdt[1:-1] - tr.v[1:-1, 0])) < 1e-5


def test_overrides_set_the_restitution(scenario):
    r = impactlab.run(scenario("hertz_unit_exact"), integrators=["cvode_bdf"], overrides={"e": 0.5, "cvode_rtol": 1e-10})
    assert r.run_summary("cvode_bdf")["restitution"] == pytest.approx(0.5, rel=1e-6)


def test_two_body_momentum_is_conserved(scenario):
    r = impactlab.run(scenario("two_body"), integrators=["simo_tarnow"])
    assert r.run_summary("simo_tarnow")["momentum_drift_max"] < 1e-12
    tr = r["simo_tarnow"]
    assert tr.q.shape == (tr.t.size, tr.v.shape[1])
