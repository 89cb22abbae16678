# Bad input: ValueError (impactlab.InvalidParameterError) with exactly the CLI's one-line message.
import subprocess

import pytest

import impactlab


def cli_error_line(exe, *args):
    p = subprocess.run([exe, *args], capture_output=True, text=True)
    assert p.returncode == 2, p.stderr
    lines = p.stderr.strip().splitlines()
    assert len(lines) == 1
    prefix = "impactlab: error: "
    assert lines[0].startswith(prefix)
    return lines[0][len(prefix):]


def test_bad_value_gives_the_cli_message(impactlab_exe, scenario):
    path = scenario("hertz_impact")
    with pytest.raises(ValueError) as info:
        impactlab.run(path, integrators=["rk4"], overrides={"m": -1.0})
    assert isinstance(info.value, impactlab.InvalidParameterError)
    assert str(info.value) == cli_error_line(impactlab_exe, "run", path, "--integrator", "rk4", "--set", "m=-1")
    assert "invalid m = -1" in str(info.value)


def test_unknown_integrator_gives_the_cli_message(impactlab_exe, scenario):
    path = scenario("hertz_impact")
    with pytest.raises(ValueError) as info:
        impactlab.run(path, integrators=["rk5"])
    assert str(info.value) == cli_error_line(impactlab_exe, "run", path, "--integrator", "rk5")
    assert "one of:" in str(info.value) and "rk4" in str(info.value)


def test_unknown_key_gives_the_cli_message(impactlab_exe, scenario):
    path = scenario("hertz_impact")
    with pytest.raises(ValueError) as info:
        impactlab.run(path, integrators=["rk4"], overrides={"vo": 2.0})
    assert str(info.value) == cli_error_line(impactlab_exe, "run", path, "--integrator", "rk4", "--set", "vo=2")


def test_exact_rejects_a_restitution_outside_its_range(impactlab_exe):
    with pytest.raises(ValueError) as info:
        impactlab.exact(p=1.5, e=1.5)
    assert str(info.value) == cli_error_line(impactlab_exe, "exact", "--p", "1.5", "--e", "1.5")


def test_bad_argument_types_raise_value_error():
    with pytest.raises(ValueError, match="invalid scenario"):
        impactlab.run(42)
    with pytest.raises(ValueError, match="invalid record_every"):
        impactlab.run({"t_end": 1.0, "dt": 0.1}, record_every=0)


def test_version_matches_the_executable(impactlab_exe):
    out = subprocess.run([impactlab_exe, "--version"], capture_output=True, text=True, check=True).stdout
    lines = out.strip().splitlines()
    assert lines[0] == f"impactlab {impactlab.__version__}"
    info = impactlab.build_info()
    for lib in ("Eigen", "SUNDIALS", "Boost", "Ceres"):
        assert f"{lib} {info[lib]}" in lines
