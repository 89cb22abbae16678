# Normal contact laws written in Python (impactlab.register_normal_law) against the built-in ones.
import itertools

import numpy as np
import pytest

import impactlab

_ids = itertools.count()


class PyHertz:
    """F = k δ^{3/2}: W = k δ^{5/2} / (5/2), W'' = 3/2 k δ^{1/2} — the built-in HertzLaw's closed forms."""

    def __init__(self, k):
        if not k > 0:
            raise ValueError(f"k = {k} must be > 0")
        self.k = k

    def potential(self, d):
        return self.k * d**2.5 / 2.5

    def force(self, d):
        return self.k * d**1.5

    def stiffness(self, d):
        return 1.5 * self.k * d**0.5

    def effective_stiffness(self, d):
        return 1.25 * self.k * d**0.5  # (p + 1)/2 k δ^{p−1}

    def coefficient(self):
        return self.k

    def exponent(self):
        return 1.5


def register_py_hertz():
    name = f"py_hertz_{next(_ids)}"
    impactlab.register_normal_law(name, "Hertz written in Python (test)", PyHertz, keys={"k": None})
    return name


@pytest.mark.parametrize("integrator,e", [("velocity_verlet", 1.0), ("rk4", 0.8), ("simo_tarnow", 1.0), ("cvode_bdf", 0.8)])
def test_python_hertz_reproduces_the_builtin_hertz(unit_hertz, integrator, e):
    name = register_py_hertz()
    sc = dict(unit_hertz, k=3.0, e=e, t_end=2.5)
    ref = impactlab.run(sc, integrators=[integrator])
    py = impactlab.run(dict(sc, normal_law=name), integrators=[integrator])
    a, b = ref[integrator], py[integrator]
    dmax = ref.run_summary(integrator)["max_overlap"]
    assert a.t.shape == b.t.shape
    assert np.max(np.abs(a.q - b.q)) <= 1e-12 * dmax
    assert np.max(np.abs(a.v - b.v)) <= 1e-12
    assert py.run_summary(integrator)["restitution"] == pytest.approx(ref.run_summary(integrator)["restitution"], rel=1e-12)


def test_python_law_is_listed_and_known_to_the_in_process_cli(capfd, scenario):
    name = register_py_hertz()
    assert any(l["name"] == name for l in impactlab.list()["normal_laws"])
    status = impactlab.cli("run", scenario("hertz_unit_exact"), "--set", f"normal_law={name}", "--integrator", "rk4", "--json")
    out = capfd.readouterr().out
    assert status == 0
    assert '"restitution"' in out


def test_python_law_parameters_are_validated_by_its_factory(unit_hertz):
    name = register_py_hertz()
    with pytest.raises(ValueError, match=r"k = -1\.0 must be > 0"):
        impactlab.run(dict(unit_hertz, normal_law=name, k=-1.0), integrators=["rk4"])


def test_a_registered_name_cannot_be_replaced():
    with pytest.raises(ValueError, match=r"invalid normal_law = \"hertz\""):
        impactlab.register_normal_law("hertz", "x", PyHertz, keys={"k": None})
    with pytest.raises(ValueError, match=r"\[a-z0-9_\]"):
        impactlab.register_normal_law("Bad Name", "x", PyHertz, keys={"k": None})
