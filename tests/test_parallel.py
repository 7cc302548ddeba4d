"""Dask collections privatized and estimated partition by partition (mechdesign/parallel.py, issue 34 item 4)."""

import subprocess
import sys
import warnings

import numpy as np
import pytest

pytest.importorskip("dask.dataframe", reason="the parallel extra (dask[dataframe], pyarrow) is not installed")
distributed = pytest.importorskip("distributed", reason="the parallel extra (dask.distributed) is not installed")

import dask.dataframe as dd  # noqa: E402
import pandas as pd  # noqa: E402

from mechdesign import Privatizer  # noqa: E402
from mechdesign.exceptions import MechDesignError, UnknownCategoryError  # noqa: E402
from mechdesign.parallel import partition_generator, seed_entropy  # noqa: E402
from mechdesign.randomness import SeededReleaseWarning  # noqa: E402


@pytest.fixture(scope="module")
def client():
    """A local cluster of two in-process workers (the distributed scheduler, its serialization of tasks)."""
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=False, dashboard_address=None) as cluster, \
            distributed.Client(cluster) as connected:
        yield connected


def _data(size, categories, seed=0):
    rng = np.random.default_rng(seed)
    weights = np.arange(1, len(categories) + 1, dtype=float)
    return np.asarray(categories, dtype=object)[rng.choice(len(categories), size, p=weights / weights.sum())]


def _seeded(privatizer, seed):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", SeededReleaseWarning)
        return privatizer.set_params(random_state=seed)


CASES = [
    # (categories, objective): dense distortion design, k-RR labels, subset tuples, unlisted oracle reports
    (list("abc"), "distortion"),
    (list("abcd"), "estimation"),
    ([f"c{i}" for i in range(12)], "estimation"),
    ([f"c{i}" for i in range(300)], "estimation"),
]


@pytest.mark.parametrize(("categories", "objective"), CASES)
def test_same_draws_give_the_in_memory_outputs_and_counts(client, categories, objective):
    """Issue 34 item 4: seeded (test mode), partition i draws from the i-th stream spawned from the seed, so
    each partition's labels are the in-memory transform of it with that stream, and the estimate from the
    counts summed on the workers equals the in-memory estimate of all the labels (identical counts)."""
    privatizer = Privatizer("dp", 1.0, categories=categories, objective=objective).fit(categories)
    values = _data(4_000, categories)
    series = dd.from_pandas(pd.Series(values, name="edu"), npartitions=5)
    _seeded(privatizer, 11)
    with pytest.warns(SeededReleaseWarning, match="partition i from the i-th"):
        private = privatizer.transform(series)
    computed = private.compute()
    assert computed.dtype == object and computed.name == "edu" and computed.index.equals(series.index.compute())
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", SeededReleaseWarning)
        entropy = seed_entropy(11)
    expected = []
    for number, part in enumerate(series.to_delayed()):
        privatizer.set_params(random_state=partition_generator(entropy, number))
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", SeededReleaseWarning)
            expected.extend(privatizer.transform(part.compute().tolist()).tolist())
    assert computed.tolist() == expected
    privatizer.set_params(random_state=None)
    by_dask = privatizer.estimate_frequencies(private)
    in_memory = privatizer.estimate_frequencies(computed.tolist())
    for name in ("estimate", "standard_error", "projected"):
        assert np.array_equal(getattr(by_dask, name), getattr(in_memory, name))
    assert by_dask.n_samples == 4_000 and by_dask.categories == tuple(categories)


def test_a_data_frame_of_two_columns(client):
    """Issue 34 item 4: a DataFrame keeps its columns and index; one estimate per column, as in memory."""
    frame = pd.DataFrame({"edu": _data(3_000, list("abc")), "sex": _data(3_000, ["F", "M"], seed=1)},
                         index=np.arange(3_000) * 2)
    data = dd.from_pandas(frame, npartitions=4)
    privatizer = _seeded(Privatizer("dp", 2.0, categories=[list("abc"), ["F", "M"]]).fit(frame), 3)
    with pytest.warns(SeededReleaseWarning):
        private = privatizer.transform(data)
    computed = private.compute()
    assert list(computed.columns) == ["edu", "sex"] and computed.index.equals(frame.index)
    assert (computed.dtypes == object).all()
    estimates = privatizer.estimate_frequencies(private)
    expected = privatizer.estimate_frequencies(computed)
    assert [estimate.estimate.tolist() for estimate in estimates] == [estimate.estimate.tolist() for estimate in expected]


def test_partitions_draw_from_the_operating_system_independently(client):
    """Issue 34 item 4: unseeded, no warning; partitions holding the same values get different draws, and so
    do two releases of the same collection (nothing derived from a shared seed, no cached release reused)."""
    categories = [f"c{i}" for i in range(50)]
    privatizer = Privatizer("dp", 0.5, categories=categories).fit(categories)
    block = list(_data(500, categories))
    series = dd.from_pandas(pd.Series(block * 4), npartitions=4, sort=False)
    with warnings.catch_warnings():
        warnings.simplefilter("error", SeededReleaseWarning)
        first, second = privatizer.transform(series).compute().tolist(), privatizer.transform(series).compute().tolist()
    parts = [first[start:start + 500] for start in range(0, 2_000, 500)]
    assert len({tuple(part) for part in parts}) == 4
    assert first != second


def test_an_unseen_category_names_its_partition(client):
    """Issue 34, bad input: a Dask frame with a value not declared is a named error naming the partition
    (raised when the collection is computed), in transform and in estimate_frequencies."""
    privatizer = Privatizer("dp", 1.0, categories=list("ab")).fit(list("ab"))
    values = ["a", "b"] * 40
    values[65] = "zz"
    series = dd.from_pandas(pd.Series(values, name="edu"), npartitions=4)
    with pytest.raises(UnknownCategoryError, match=r"partition 3 of the Dask collection: .*'zz'"):
        privatizer.transform(series).compute()
    with pytest.raises(UnknownCategoryError, match=r"partition 3 of the Dask collection: .*'zz'"):
        privatizer.estimate_frequencies(series)


def test_columns_are_checked_on_the_metadata_before_anything_runs():
    """Issue 34, bad input: a frame with other columns is refused by transform itself (no computation)."""
    privatizer = Privatizer("dp", 1.0, categories=list("ab")).fit(pd.DataFrame({"edu": list("ab")}))
    frame = dd.from_pandas(pd.DataFrame({"other": list("ab") * 5}), npartitions=2)
    with pytest.raises(MechDesignError, match="feature names should match"):
        privatizer.transform(frame)
    with pytest.raises(MechDesignError, match="X has 2 features"):
        privatizer.transform(dd.from_pandas(pd.DataFrame({"edu": list("ab"), "x": list("ab")}), npartitions=1))


def test_empty_partitions_count_nothing(client):
    """Partitions left empty (e.g. by a filter) are privatized to nothing and counted as 0 rows."""
    privatizer = _seeded(Privatizer("dp", 1.0, categories=list("abc")).fit(list("abc")), 0)
    series = dd.from_pandas(pd.Series(list("abc") * 20), npartitions=3)
    filtered = series[series.index < 20]  # the later partitions are empty
    with pytest.warns(SeededReleaseWarning):
        private = privatizer.transform(filtered)
    assert len(private.compute()) == 20
    assert privatizer.estimate_frequencies(private).n_samples == 20
    with pytest.raises(MechDesignError, match="X_private has no rows"):
        privatizer.estimate_frequencies(series[series.index < 0])


def test_import_mechdesign_does_not_load_dask():
    """Issue 34 item 4: Dask is imported only when a Dask collection is passed."""
    code = "import sys, mechdesign; print(sorted(name for name in sys.modules if name.split('.')[0] in ('dask', 'distributed', 'pyarrow')))"
    printed = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert printed.strip() == "[]"


@pytest.mark.slow
def test_worker_processes_on_a_local_cluster():
    """Issue 34 item 4: with worker processes (tasks pickled to them, as to a remote scheduler's workers) the
    seeded labels and the counts are the same as with in-process workers."""
    categories = [f"c{i}" for i in range(40)]
    privatizer = Privatizer("dp", 1.0, categories=categories).fit(categories)
    series = dd.from_pandas(pd.Series(_data(20_000, categories)), npartitions=6)
    results = []
    for processes in (True, False):
        with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=processes,
                                      dashboard_address=None) as cluster, distributed.Client(cluster):
            _seeded(privatizer, 5)
            with pytest.warns(SeededReleaseWarning):
                private = privatizer.transform(series)
            results.append((private.compute().tolist(), privatizer.estimate_frequencies(private).estimate.tolist()))
    assert results[0] == results[1]
