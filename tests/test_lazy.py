"""Tests of mechdesign._lazy: cvxpy and scipy.stats are imported only by the paths that use them (issue 13)."""

import json
import subprocess
import sys

import pytest

from mechdesign._lazy import LazyModule

#: Modules that ``import mechdesign`` and the fast paths must not load (issue 13, item 7).
HEAVY = ("cvxpy", "scipy.stats", "scipy.optimize")
#: Loaded only when an LP is built (0.1 s of a 0.4 s command, numpy.testing with it).
SPARSE = "scipy.sparse"
#: Run in a fresh interpreter: which heavy modules are loaded after the snippet.
_PROBE = """
import json, sys
{snippet}
print(json.dumps({{name: name in sys.modules for name in %r}}))
""" % (HEAVY + (SPARSE,),)


def _loaded_after(snippet: str) -> dict[str, bool]:
    run = subprocess.run([sys.executable, "-c", _PROBE.format(snippet=snippet)], capture_output=True, text=True,
                         check=True)
    return json.loads(run.stdout.strip().splitlines()[-1])


@pytest.mark.parametrize("snippet", [
    "import mechdesign",
    "import mechdesign.cli",
    # Random costs: the warm-started direct LP (HiGHS), certified, without cvxpy.
    ("from mechdesign import *\nimport numpy as np\n"
     "cost = np.random.default_rng(0).uniform(size=(6, 6))\n"
     "r = design(DifferentialPrivacy(), 0.7, ExpectedDistortion(Prior.uniform(6), cost))\n"
     "assert (r.method, r.status) == ('direct-lp', 'optimal'), r.message"),
    ("from mechdesign import *\n"
     "r = design(MaximalLeakage(), 0.7, ExpectedDistortion(Prior.uniform(60)))\n"
     "assert (r.method, r.status) == ('closed-form', 'optimal'), r.message"),
], ids=["import", "import-cli", "direct-lp", "closed-form"])
def test_import_and_fast_paths_do_not_load_cvxpy(snippet):
    loaded = _loaded_after(snippet)
    assert {name: loaded[name] for name in HEAVY} == dict.fromkeys(HEAVY, False)


@pytest.mark.parametrize("snippet", [
    "import mechdesign",
    "import mechdesign.cli",
    ("from mechdesign import *\n"
     "r = design(DifferentialPrivacy(), 0.7, ExpectedDistortion(Prior.uniform(60)))\n"
     "assert (r.method, r.status) == ('closed-form', 'optimal'), r.message"),
    "from mechdesign.cli import main\nassert main(['design', '--notion', 'dp', '--n', '60', '--epsilon', '1']) == 0",
], ids=["import", "import-cli", "closed-form", "cli-design"])
def test_import_and_closed_forms_do_not_load_scipy_sparse(snippet):
    assert not _loaded_after(snippet)[SPARSE]


def test_an_lp_loads_scipy_sparse():
    snippet = ("from mechdesign import *\nimport numpy as np\n"
               "cost = np.random.default_rng(0).uniform(size=(6, 6))\n"
               "r = design(DifferentialPrivacy(), 0.7, ExpectedDistortion(Prior.uniform(6), cost))")
    assert _loaded_after(snippet)[SPARSE]


def test_the_cvxpy_path_still_loads_it():
    snippet = ("from mechdesign import *\n"
               "r = design(DifferentialPrivacy(), 0.7, ExpectedDistortion(Prior.uniform(3)), method='cvxpy')\n"
               "assert r.status == 'optimal'")
    assert _loaded_after(snippet)["cvxpy"]


def test_a_lazy_module_imports_on_first_attribute_read():
    module = LazyModule("json")
    assert "not imported yet" in repr(module)
    assert module.dumps([1]) == "[1]"
    assert "(imported)" in repr(module)
