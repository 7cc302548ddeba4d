"""Shared test configuration: a derandomized hypothesis profile (reproducible CI runs), and Ctrl-C handled as in
an interactive run."""

import signal
import threading

from hypothesis import HealthCheck, settings

settings.register_profile(
    "mechdesign",
    derandomize=True,
    deadline=None,
    max_examples=40,
    suppress_health_check=[HealthCheck.too_slow],
    print_blob=True,
)
settings.load_profile("mechdesign")

# A run started in the background of a non-interactive shell (`nohup … &`, some CI runners) inherits SIGINT ignored;
# Python then leaves it ignored, and so does every child process the tests start: the Ctrl-C tests (tests/test_cli.py,
# test_deploy_cli.py, test_files.py, test_solvers.py) failed so (a child ran on to exit 0; `_thread.interrupt_main`
# did nothing). The suite restores Python's own handler, which an interactive run has.
if threading.current_thread() is threading.main_thread() and signal.getsignal(signal.SIGINT) == signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)
