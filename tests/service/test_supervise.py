"""`menagerie worker`'s children die with it, whatever signal handler they inherited."""

from __future__ import annotations

import os
import signal
import subprocess
import sys

import pytest

from tests.support.processes import ROOT, has_ended, wait_for

# A stand-in for the worker: it handles SIGTERM (as RQ's worker does, so a forked child inherits a
# handler that does not exit), forks through the same hook, prints the child's id and waits.
WORKER = """
import os, signal, time
from service.cli.supervise import _die_with_parent
signal.signal(signal.SIGTERM, lambda signum, frame: None)
parent = os.getpid()
os.register_at_fork(after_in_child=lambda: _die_with_parent(parent))
child = os.fork()
if child == 0:
    while True:
        time.sleep(1)
print(child, flush=True)
time.sleep(120)
"""


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="SKIPPED: PR_SET_PDEATHSIG is Linux's")
def test_a_child_forked_by_the_worker_ends_when_the_worker_is_killed_9():
    worker = subprocess.Popen([sys.executable, "-c", WORKER], cwd=ROOT, stdout=subprocess.PIPE)
    assert worker.stdout is not None
    child = int(worker.stdout.readline())
    worker.kill()
    worker.wait(10)
    try:
        wait_for(lambda: has_ended(child), 10, "the child to end with the worker")
    finally:
        if not has_ended(child):
            os.kill(child, signal.SIGKILL)
