# pytest fixtures for the impactlab Python module (run by scripts/test_install.sh against an installed prefix:
# PYTHONPATH=<prefix>/lib/python3/dist-packages, IMPACTLAB_PREFIX=<prefix>; or against the build tree with
# PYTHONPATH=build/python and IMPACTLAB_PREFIX unset).
import os
import shutil

import pytest

import impactlab


@pytest.fixture(scope="session")
def scenario():
    """Path of a shipped scenario by name."""
    return impactlab.scenario_path


@pytest.fixture(scope="session")
def impactlab_exe():
    """The impactlab executable of the same install (prefix/bin), else the build tree's, else PATH's."""
    prefix = os.environ.get("IMPACTLAB_PREFIX")
    here = os.path.dirname(os.path.abspath(impactlab.__file__))
    for c in ([os.path.join(prefix, "bin", "impactlab")] if prefix else []) + [os.path.join(here, "..", "..", "impactlab")]:
        if os.path.isfile(c):
            return os.path.normpath(c)
    exe = shutil.which("impactlab")
    if exe is None:
        pytest.fail("no impactlab executable found (set IMPACTLAB_PREFIX)")
    return exe


# Unit Hertz oscillator (m = k = v0 = 1; docs/exact-solution.md) as a dict scenario.
UNIT_HERTZ = {"model": "contact_oscillator", "normal_law": "hertz", "k": 1.0, "m": 1.0, "v0": 1.0, "e": 1.0,
              "damping": "tsuji", "t_end": 5.0, "dt": 0.01}


@pytest.fixture
def unit_hertz():
    return dict(UNIT_HERTZ)
