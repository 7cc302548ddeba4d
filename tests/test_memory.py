"""Tests of the memory guard (mechdesign.memory): every limit the system enforces is read."""

from __future__ import annotations

import subprocess
import sys
import textwrap

import pytest

from mechdesign import ProblemTooLargeError, memory

MiB = 2**20


@pytest.fixture
def limits(monkeypatch):
    """Pretend limits: set ``limits["system"|"cgroup"|"address_space"]`` (bytes or None)."""
    values = {"system": 8 * 2**30, "cgroup": None, "address_space": None}
    monkeypatch.setattr(memory, "system_memory", lambda: values["system"])
    monkeypatch.setattr(memory, "cgroup_memory", lambda: values["cgroup"])
    monkeypatch.setattr(memory, "address_space_memory", lambda: values["address_space"])
    return values


@pytest.mark.parametrize("tightest", ["system", "cgroup", "address_space"])
def test_available_memory_is_the_tightest_limit(limits, tightest):
    limits.update(cgroup=4 * 2**30, address_space=6 * 2**30)
    limits[tightest] = 100 * MiB
    assert memory.available_memory() == 100 * MiB


def test_check_memory_refuses_beyond_the_tightest_limit(limits):
    limits["cgroup"] = 100 * MiB
    memory.check_memory(100 * MiB, "a fitting table")
    with pytest.raises(ProblemTooLargeError, match=r"a big table needs an estimated 0\.10 GiB but only 0\.10 GiB"):
        memory.check_memory(100 * MiB + 1, "a big table")


def test_check_array_counts_copies_of_float_entries(limits):
    limits["system"] = 4 * memory.FLOAT_BYTES * 1000
    memory.check_array((10, 100), "a 10×100 array")  # 4 copies × 8 bytes × 1000 entries: fits exactly
    with pytest.raises(ProblemTooLargeError, match="a 10×101 array"):
        memory.check_array((10, 101), "a 10×101 array")


def _cgroup_tree(tmp_path, monkeypatch, files):
    for name, text in files.items():
        (tmp_path / name).write_text(text)
    monkeypatch.setattr(memory, "_cgroup_directories", lambda: [tmp_path])


def test_cgroup_v2_allowance_is_limit_minus_usage(tmp_path, monkeypatch):
    _cgroup_tree(tmp_path, monkeypatch, {"memory.max": "1073741824\n", "memory.current": "73741824\n"})
    assert memory.cgroup_memory() == 1_000_000_000


def test_cgroup_v1_allowance_and_no_limit(tmp_path, monkeypatch):
    _cgroup_tree(tmp_path, monkeypatch, {"memory.limit_in_bytes": "2000\n", "memory.usage_in_bytes": "500\n"})
    assert memory.cgroup_memory() == 1500
    (tmp_path / "memory.limit_in_bytes").write_text("9223372036854771712\n")  # v1's "unlimited"
    assert memory.cgroup_memory() is None


def test_cgroup_v2_max_means_no_limit(tmp_path, monkeypatch):
    _cgroup_tree(tmp_path, monkeypatch, {"memory.max": "max\n", "memory.current": "5\n"})
    assert memory.cgroup_memory() is None


def test_the_real_limits_are_readable():
    assert memory.system_memory() > 0
    assert memory.available_memory() <= memory.system_memory()


def test_address_space_limit_is_honoured_before_allocating():
    """Under ``ulimit -v`` the guard refuses what would otherwise die with MemoryError (issue 15).

    A child process lowers RLIMIT_AS to 300 MiB above what it has mapped, then asks for a
    randomized-response mechanism of 6000 × 6000 (4 copies × 288 MB): a ProblemTooLargeError.
    """
    script = textwrap.dedent("""
        import resource
        from mechdesign import ProblemTooLargeError, memory, randomized_response
        mapped = memory._proc_value("/proc/self/status", "VmSize")
        resource.setrlimit(resource.RLIMIT_AS, (mapped + 300 * 2**20, resource.getrlimit(resource.RLIMIT_AS)[1]))
        assert memory.address_space_memory() <= 300 * 2**20, memory.address_space_memory()
        assert memory.available_memory() <= 300 * 2**20
        try:
            randomized_response(6000, 1.0)
        except ProblemTooLargeError as exc:
            print("refused:", exc)
    """)
    completed = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)
    assert completed.returncode == 0, completed.stderr
    assert "refused: randomized_response(6000, …) needs an estimated" in completed.stdout


def test_cgroup_limit_files_are_found_once_and_read_at_every_check(tmp_path, monkeypatch):
    """Issue 31 (item 3): which limit files exist is looked up once per set of cgroup directories (every design
    checks its memory); their values are still read at every check, so a limit or usage that changes is seen."""
    empty = tmp_path / "empty"
    empty.mkdir()
    _cgroup_tree(tmp_path, monkeypatch, {"memory.max": "1000\n", "memory.current": "100\n"})
    monkeypatch.setattr(memory, "_cgroup_directories", lambda: [empty, tmp_path])
    assert memory._limit_files((empty, tmp_path)) == ((tmp_path / "memory.max", tmp_path / "memory.current"),)
    assert memory.cgroup_memory() == 900
    (tmp_path / "memory.current").write_text("400\n")
    (tmp_path / "memory.max").write_text("3000\n")
    assert memory.cgroup_memory() == 2600
