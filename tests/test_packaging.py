"""The built distributions (slow): the wheel ships the package data and the type marker, and carries
the version written once in mechdesign/_version.py. CI also installs this wheel into a fresh venv and
runs the demo and the test suite against it (.ci/run)."""

import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

import mechdesign

REPOSITORY = Path(__file__).resolve().parent.parent


@pytest.mark.slow
def test_wheel_contains_package_data_type_marker_and_version(tmp_path):
    pytest.importorskip("build", reason="building the wheel needs the 'build' package (the test extra)")
    build = subprocess.run([sys.executable, "-m", "build", "--wheel", "--outdir", str(tmp_path), str(REPOSITORY)],
                           check=True, capture_output=True, text=True)
    wheel, = tmp_path.glob("mechdesign-*.whl")
    log = build.stdout + build.stderr  # e.g. "`project.license` as a TOML table is deprecated" (setuptools >= 77)
    assert "is deprecated" not in log and "DeprecationWarning" not in log
    assert wheel.name.startswith(f"mechdesign-{mechdesign.__version__}-")
    names = set(zipfile.ZipFile(wheel).namelist())
    assert {"mechdesign/data/adult.csv.gz", "mechdesign/py.typed", "mechdesign/progress.py",
            "mechdesign/schemas/mechanism-file-v1.json", f"mechdesign-{mechdesign.__version__}.dist-info/licenses/LICENSE"} <= names
    assert not any(name.startswith(("tests/", "docs/", "notebooks/", "benchmarks/")) for name in names)
    metadata = zipfile.ZipFile(wheel).read(f"mechdesign-{mechdesign.__version__}.dist-info/METADATA").decode()
    assert "License-Expression: MIT" in metadata.splitlines()  # the SPDX expression, not a license table
    requirements = [line for line in metadata.splitlines() if line.startswith("Requires-Dist:") and "extra" not in line]
    # Compatible ranges: a floor and no patch-series pin (~=) or exact pin (==).
    assert requirements and all(">=" in line and "~=" not in line and "==" not in line for line in requirements)
