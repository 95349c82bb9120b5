"""Issue 21, item 5: temporary files are unmistakably ours, and nothing else is deleted.

A writer holds an exclusive lock on its temporary file for the whole write; cleanup removes
only a file with our marker, owned by this user, whose lock it can take. Odd names in the
output folder never raise or block a write; a writer whose PID we cannot see (another PID
namespace, another machine) keeps its file; SIGTERM/SIGHUP during a write remove the
temporary file and still end the process as the signal does; ``--force`` over a set-id file
never publishes set-id bits.
"""

from __future__ import annotations

import os
import signal
import stat
import subprocess
import sys
import time

import pytest

from animspec.common import atomic
from animspec.common.output import write_output


def temporaries(folder) -> list[str]:
    return sorted(n for n in os.listdir(folder) if n.endswith(".tmp"))


def dead_pid() -> int:
    """A PID no process has in this namespace: one past the kernel's largest."""
    with open("/proc/sys/kernel/pid_max") as f:
        return int(f.read()) + 1


SLOW_WRITER = (
    "import os, signal, sys, time\n"
    "from animspec.common.atomic import write_atomic\n"
    "if sys.argv[2] == 'own-handler':\n"
    "    def handler(signum, frame):\n"
    "        sys.stdout.write('own handler ran\\n'); sys.stdout.flush(); os._exit(7)\n"
    "    signal.signal(signal.SIGHUP, handler)\n"
    "write_atomic(sys.argv[1], b'x' * 100000, verify=lambda written: time.sleep(60))\n"
)


def start_slow_writer(out, mode: str = "plain") -> tuple[subprocess.Popen, str]:
    """A writer stopped in the middle of its write; returns it and its temporary file."""
    proc = subprocess.Popen([sys.executable, "-c", SLOW_WRITER, str(out), mode], stdout=subprocess.PIPE, text=True)
    for _ in range(400):
        found = temporaries(out.parent)
        if found:
            return proc, found[0]
        time.sleep(0.05)
    proc.kill()
    raise AssertionError("the writer made no temporary file")


@pytest.mark.parametrize("odd", [
    ".out.animbin.animspec-\u00b2-x.tmp",  # a digit to str.isdigit, not to int()
    ".out.animbin.animspec-" + "9" * 20 + "-x.tmp",  # past any PID os.kill accepts
])
def test_odd_names_in_the_folder_never_raise_and_never_block_the_output(tmp_path, odd):
    (tmp_path / odd).write_bytes(b"not ours")
    out = tmp_path / "out.animbin"
    write_output(str(out), b"first")
    write_output(str(out), b"second", force=True)
    assert out.read_bytes() == b"second"
    assert (tmp_path / odd).read_bytes() == b"not ours"


def test_a_file_that_only_looks_like_a_stale_temporary_is_kept(tmp_path):
    """The old rule deleted any file of the pattern whose PID was not running."""
    lookalike = tmp_path / f".out.animbin.animspec-{dead_pid()}-abcdefgh.tmp"
    lookalike.write_bytes(b"somebody's notes")
    write_output(str(tmp_path / "out.animbin"), b"data")
    assert lookalike.read_bytes() == b"somebody's notes"
    assert atomic.remove_stale_temporaries(tmp_path / "out.animbin") == []


def test_a_writer_whose_pid_we_cannot_see_keeps_its_temporary_until_it_is_gone(tmp_path):
    """Another PID namespace: the PID in the name is dead here, but the writer lives (and
    holds its lock). Simulated by renaming a live writer's temporary to a dead PID."""
    out = tmp_path / "out.animbin"
    proc, name = start_slow_writer(out)
    prefix = ".out.animbin.animspec-"
    pid_text, rest = name[len(prefix):].split("-", 1)
    assert pid_text == str(proc.pid)
    foreign = tmp_path / f"{prefix}{dead_pid()}-{rest}"
    os.rename(tmp_path / name, foreign)
    try:
        write_output(str(tmp_path / "other.animbin"), b"a")  # another output: not even looked at
        write_output(str(out), b"mine")
        assert foreign.exists(), "a live writer's temporary was deleted mid-write"
        assert atomic.remove_stale_temporaries(out) == []
    finally:
        proc.kill()
        proc.wait(10)
    # Its writer is gone now (lock released): the next write of that name removes it.
    write_output(str(out), b"again", force=True)
    assert not foreign.exists() and temporaries(tmp_path) == []


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGHUP])
def test_sigterm_and_sighup_during_a_write_remove_the_temporary_and_keep_the_signal_status(tmp_path, signum):
    before = signal.getsignal(signum)
    write_output(str(tmp_path / "quick.animbin"), b"data")
    assert signal.getsignal(signum) is before  # handlers only around a write
    out = tmp_path / "out.animbin"
    proc, _ = start_slow_writer(out)
    proc.send_signal(signum)
    assert proc.wait(20) == -signum
    assert temporaries(tmp_path) == [] and not out.exists()


def test_a_programs_own_signal_handler_still_runs_after_the_temporary_is_removed(tmp_path):
    out = tmp_path / "out.animbin"
    proc, _ = start_slow_writer(out, "own-handler")
    proc.send_signal(signal.SIGHUP)
    assert proc.wait(20) == 7
    assert proc.stdout.read() == "own handler ran\n"
    assert temporaries(tmp_path) == [] and not out.exists()


def test_a_file_system_without_locks_still_gets_its_files_written(tmp_path, monkeypatch):
    """Cleanup cannot lock there either, so such a temporary is never removed by a guess."""
    import errno
    import fcntl

    def no_locks(fd, operation):
        raise OSError(errno.ENOLCK, "No locks available")

    monkeypatch.setattr(fcntl, "flock", no_locks)
    lookalike = tmp_path / f".out.animbin.animspec-{dead_pid()}-abcdefgh.tmp"
    lookalike.write_bytes(b"kept")
    write_output(str(tmp_path / "out.animbin"), b"data")
    assert (tmp_path / "out.animbin").read_bytes() == b"data" and lookalike.read_bytes() == b"kept"
    assert temporaries(tmp_path) == [lookalike.name]


def test_force_over_a_set_id_file_never_publishes_set_id_bits(tmp_path):
    """As root over another user's setuid file, the old code made a root-owned setuid file."""
    target = tmp_path / "tool.bin"
    target.write_bytes(b"old")
    if os.geteuid() == 0:
        os.chown(target, 12345, 12345)
    os.chmod(target, 0o6755)
    assert stat.S_IMODE(target.stat().st_mode) == 0o6755  # the file really has both bits
    write_output(str(target), b"new bytes", force=True)
    mode = stat.S_IMODE(target.stat().st_mode)
    assert mode & (stat.S_ISUID | stat.S_ISGID) == 0, oct(mode)
    assert mode == 0o755 and target.read_bytes() == b"new bytes"
    assert target.stat().st_uid == os.geteuid()
