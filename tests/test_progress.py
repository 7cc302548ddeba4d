"""Tests of the progress protocol and the command line's terminal bar (mechdesign.progress)."""

import io

from mechdesign.progress import TerminalProgress, report, terminal_progress


class FakeTerminal(io.StringIO):
    """A text stream that says it is a terminal."""

    def isatty(self):
        return True


def test_report_calls_the_callback_and_none_is_silent():
    calls = []
    report(lambda *args: calls.append(args), 2, 5, "step")
    report(None, 3, 5, "ignored")
    assert calls == [(2, 5, "step")]


def test_bar_is_drawn_on_a_terminal_only_and_silenced_by_quiet():
    terminal = FakeTerminal()
    with terminal_progress(stream=terminal) as progress:
        assert isinstance(progress, TerminalProgress)
        progress(1, 3, "first")
        progress(3, 3, "last")
    assert "first" in terminal.getvalue() and "3/3" in terminal.getvalue()
    with terminal_progress(quiet=True, stream=FakeTerminal()) as progress:
        assert progress is None
    pipe = io.StringIO()
    with terminal_progress(stream=pipe) as progress:
        assert progress is None
    assert pipe.getvalue() == ""


def test_bar_follows_an_unknown_total_and_a_restart():
    terminal = FakeTerminal()
    bar = TerminalProgress(terminal)
    bar(1, None, "MILP improvement")
    bar(2, None, "MILP improvement")
    bar(1, 4, "new stage")  # a new total starts a new bar
    bar.close()
    bar.close()  # closing twice is harmless
    assert "MILP improvement: 2" in terminal.getvalue() and "new stage" in terminal.getvalue()
