"""Tests of mechdesign.outputs (atomic writes, output paths checked first); the behaviour of atomic_output and
check_output_paths is tested through their public home mechdesign.files in tests/test_files.py."""

import os

import pytest

from mechdesign import files, outputs
from mechdesign.exceptions import MechDesignError
from mechdesign.outputs import check_output_directory, same_file


def test_files_serves_the_same_functions():
    """Issue 33: moved to a foundation module (curves.py writes through it, files.py loads curves); the public
    names in mechdesign.files are unchanged."""
    assert (files.atomic_output, files.atomic_write_text, files.check_output_paths) == (
        outputs.atomic_output, outputs.atomic_write_text, outputs.check_output_paths)


def test_same_file_by_resolved_path_and_by_inode(tmp_path):
    first = outputs.atomic_write_text(tmp_path / "a.csv", "x")
    os.symlink(first, tmp_path / "link.csv")
    os.link(first, tmp_path / "hard.csv")
    assert same_file(first, tmp_path / "link.csv") and same_file(tmp_path / "hard.csv", first)
    assert not same_file(first, outputs.atomic_write_text(tmp_path / "b.csv", "x"))
    assert not same_file(first, tmp_path / "missing.csv") and same_file(tmp_path / "new", tmp_path / "." / "new")


def test_an_output_directory_is_refused_before_any_work_naming_the_option(tmp_path):
    """The checks check_output_paths makes of an output's folder, and the demo of its --out folder."""
    assert check_output_directory(str(tmp_path), "--out") == tmp_path
    plain = outputs.atomic_write_text(tmp_path / "plain", "x")
    for directory, message in [(tmp_path / "missing", "does not exist"), (plain, "is not a directory")]:
        with pytest.raises(MechDesignError, match=f"--plot: .*{directory.name}.* {message}"):
            check_output_directory(directory, "--plot")
        with pytest.raises(MechDesignError, match=f"--out: .*{directory.name}.* {message}"):
            outputs.check_output_paths({"--out": directory / "table.csv"})
