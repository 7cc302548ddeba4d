"""Tests of mechdesign._threads: one BLAS thread inside the context, the previous limits after it."""

import numpy as np
import scipy.linalg  # noqa: F401  (scipy's own OpenBLAS is loaded and must be limited too)
from threadpoolctl import threadpool_info

from mechdesign._threads import single_blas_thread


def _blas_threads() -> list[int]:
    return [library["num_threads"] for library in threadpool_info() if library["user_api"] == "blas"]


def test_every_blas_library_runs_one_thread_inside_and_its_own_count_after():
    before = _blas_threads()
    assert before, "no BLAS library found: the test would pass vacuously"
    with single_blas_thread():
        assert _blas_threads() == [1] * len(before)
        assert np.allclose(np.linalg.cholesky(np.array([[4.0, 2.0], [2.0, 5.0]])), [[2.0, 0.0], [1.0, 2.0]])
    assert _blas_threads() == before
