"""Tests of mechdesign.outputs (atomic writes, output paths checked first); the behaviour of atomic_output and
check_output_paths is tested through their public home mechdesign.files in tests/test_files.py."""

import os

from mechdesign import files, outputs
from mechdesign.outputs import same_file


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
