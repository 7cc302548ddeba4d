"""The repository's own text (issue 33 item 5): no tracked text file names a path of the machine it
was written on. Project text names files by repository path (``benchmarks/RESULTS.md``,
``tests/test_docs.py``); an absolute path under a home, work or temporary directory is true on one
machine only. Read from a git checkout: CI's wheel suite runs a copy of ``tests/`` alone, where these
tests are skipped with their reason."""

import re
import shutil
import subprocess
from pathlib import Path

import pytest

REPOSITORY = Path(__file__).resolve().parent.parent

#: An absolute path under a directory that exists on one machine: it starts the path (after a space,
#: a quote, a bracket or the line's start — not inside a URL or a relative path) and goes on with a name.
MACHINE_PATH = re.compile(r"(?<![\w./~:-])/(?:work|tmp|home|Users|root|mnt|scratch|private/var|var/folders)/[\w.~-]")

#: The suffixes of the tracked files read as text.
TEXT_SUFFIXES = {".md", ".py", ".ipynb", ".toml", ".txt", ".rst", ".cfg", ".ini", ".json", ".yml", ".yaml", ".sh"}


def tracked_text_files() -> list[Path]:
    """The tracked files with a text suffix, by ``git ls-files`` (skips without a git checkout)."""
    git = shutil.which("git")
    if git is None or not (REPOSITORY / ".git").exists():
        pytest.skip("the repository is not beside the tests (CI's wheel suite runs a copy of tests/ alone)")
    listed = subprocess.run([git, "ls-files", "-z"], cwd=REPOSITORY, check=True, capture_output=True).stdout
    names = [name for name in listed.decode("utf-8").split("\0") if name]
    return [REPOSITORY / name for name in names
            if Path(name).suffix in TEXT_SUFFIXES and (REPOSITORY / name).is_file()]


# The machine paths of these examples are assembled from pieces so that this file names none itself.
@pytest.mark.parametrize("text", ["results in " + "/" + "tmp/run.csv", "`" + "/" + "work/main/README.md`",
                                  "(" + "/" + "home/user/data)", "\"" + "/" + "Users/x/y\""])
def test_the_pattern_finds_a_machine_path(text):
    assert MACHINE_PATH.search(text)


@pytest.mark.parametrize("text", ["the tmp_path fixture", "https://example.org/tmp/x.csv", "../tmp/x.csv",
                                  "benchmarks/tmp/x.csv", "${TMPDIR:-/tmp}/demo", "a `/tmp` scratch script",
                                  "assert \"/work/\" not in readme"])
def test_the_pattern_leaves_what_is_not_a_machine_path(text):
    assert not MACHINE_PATH.search(text)


def test_no_tracked_text_file_names_a_machine_path():
    files = tracked_text_files()
    assert any(path.name == "README.md" for path in files)  # the listing found the repository's files
    found = []
    for path in files:
        for number, line in enumerate(path.read_text(encoding="utf-8", errors="replace").splitlines(), 1):
            if MACHINE_PATH.search(line):
                found.append(f"{path.relative_to(REPOSITORY)}:{number}: {line.strip()[:120]}")
    assert not found, "machine paths in tracked files (name files by repository path):\n" + "\n".join(found)
