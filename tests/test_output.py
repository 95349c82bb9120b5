"""Issue 12: one output policy for every command that writes (animspec.common.output).

Special files are written into and never replaced, concurrent writers without --force cannot
overwrite each other, plot and convert follow the same --force rule as dump and pack,
symbolic links are followed, stale temporaries of killed writers are cleaned, and errors
name the user's path and the option, never a temporary file.
"""

from __future__ import annotations

import json
import os
import signal
import stat
import subprocess
import sys
import threading
import time

import pytest
from conftest import EXAMPLES

from animspec.common import atomic
from animspec.cli import main

SWING = EXAMPLES / "swing.animbin"
PYTHON = [sys.executable, "-m", "animspec"]


def dump_of(tmp_path, name="dump.json", source=SWING):
    out = tmp_path / name
    assert main(["dump", str(source), "-o", str(out)]) == 0
    return out


def leftovers(folder) -> list[str]:
    return sorted(n for n in os.listdir(folder) if n.endswith(".tmp"))


def temp_free(err: str, tmp_path) -> bool:
    """True when ``err`` names no temporary file (the test folder itself is under /tmp)."""
    return ".tmp" not in err.replace(str(tmp_path), "")


# --------------------------------------------------------------------------- special files


def _read_fifo(path, into: list) -> threading.Thread:
    def reader():
        with open(path, "rb") as f:
            into.append(f.read())

    t = threading.Thread(target=reader, daemon=True)
    t.start()
    return t


@pytest.mark.parametrize("force", [False, True])
def test_a_fifo_output_is_written_into_not_replaced(tmp_path, capsys, force):
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    got: list[bytes] = []
    reader = _read_fifo(fifo, got)
    time.sleep(0.1)  # the reader opens first, as `animspec pack ... -o pipe` would find it
    args = ["pack", str(dump_of(tmp_path)), "-o", str(fifo)] + (["--force"] if force else [])
    assert main(args) == 0, capsys.readouterr().err
    reader.join(5)
    assert got == [SWING.read_bytes()]
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)
    assert leftovers(tmp_path) == []


def test_a_fifo_nobody_reads_is_an_error_not_a_hang(tmp_path, capsys):
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    assert main(["pack", str(dump_of(tmp_path)), "-o", str(fifo)]) == 2
    err = capsys.readouterr().err
    assert f"{fifo} (-o)" in err and "no reader" in err
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)


def _null_device(tmp_path):
    """A character device like /dev/null inside the test folder (needs root): --force may then
    be tried on it without risking the real /dev/null."""
    node = tmp_path / "null"
    try:
        os.mknod(node, stat.S_IFCHR | 0o666, os.makedev(1, 3))
    except (PermissionError, OSError):
        return None
    return node


def test_a_device_output_is_written_into_and_never_replaced(tmp_path, capsys):
    dump = dump_of(tmp_path)
    # Without --force: the real /dev/null, written into (it exists, but nothing is replaced).
    assert main(["pack", str(dump), "-o", os.devnull]) == 0, capsys.readouterr().err
    assert stat.S_ISCHR(os.stat(os.devnull).st_mode)
    node = _null_device(tmp_path)
    if node is not None:  # with --force, on a device node of our own
        assert main(["pack", str(dump), "-o", str(node), "--force"]) == 0
        assert stat.S_ISCHR(os.lstat(node).st_mode)
        assert main(["dump", str(SWING), "-o", str(node), "--force"]) == 0
        assert stat.S_ISCHR(os.lstat(node).st_mode)
    assert leftovers(tmp_path) == []


def test_a_full_device_names_the_output(tmp_path, capsys):
    if not os.path.exists("/dev/full"):
        pytest.skip("no /dev/full here")  # Linux provides it; nothing else can be full on demand
    assert main(["pack", str(dump_of(tmp_path)), "-o", "/dev/full"]) == 2
    err = capsys.readouterr().err
    assert "/dev/full (-o)" in err and "no space left" in err


def test_dash_writes_to_stdout_and_the_report_to_stderr(tmp_path):
    dump = dump_of(tmp_path)
    r = subprocess.run(PYTHON + ["pack", str(dump), "-o", "-"], capture_output=True, timeout=120, cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert r.stdout == SWING.read_bytes()
    assert b"bytes (psyqo madnight engine ANIMBIN)" in r.stderr
    assert not (tmp_path / "-").exists()


@pytest.mark.parametrize("redirect", ["pipe", "file"])
def test_dev_stdout_is_the_descriptor_not_a_file_to_replace(tmp_path, redirect):
    """`-o /dev/stdout > out.json`: the shell's file is written, never renamed over (the
    shell's descriptor would keep the old, empty file)."""
    dump = dump_of(tmp_path)
    if redirect == "pipe":
        r = subprocess.run(PYTHON + ["pack", str(dump), "-o", "/dev/stdout"], capture_output=True, timeout=120, cwd=tmp_path)
        assert r.returncode == 0, r.stderr
        assert r.stdout == SWING.read_bytes()
        return
    out = tmp_path / "shell.animbin"
    with open(out, "wb") as f:
        r = subprocess.run(PYTHON + ["pack", str(dump), "-o", "/dev/stdout"], stdout=f, stderr=subprocess.PIPE, timeout=120)
    assert r.returncode == 0, r.stderr
    assert out.read_bytes() == SWING.read_bytes() and leftovers(tmp_path) == []


def test_dev_fd_writes_into_that_descriptor(tmp_path):
    out = tmp_path / "fd3.animbin"
    dump = dump_of(tmp_path)
    with open(out, "wb") as f:
        r = subprocess.run(PYTHON + ["pack", str(dump), "-o", f"/dev/fd/{f.fileno()}"], pass_fds=[f.fileno()],
                           capture_output=True, timeout=120)
    assert r.returncode == 0, r.stderr
    assert out.read_bytes() == SWING.read_bytes()


# --------------------------------------------------------------------------- races


def test_creating_is_atomic_when_another_writer_wins_meanwhile(tmp_path, capsys, monkeypatch):
    """Another process creates OUT after the existence check and before the rename: without
    --force its file is kept and this write is refused (a rename would have replaced it)."""
    dump = dump_of(tmp_path)
    out = tmp_path / "out.animbin"
    real_fsync = os.fsync

    def fsync_then_lose_the_race(fd):
        real_fsync(fd)
        if not out.exists():
            out.write_bytes(b"the other writer's file")

    monkeypatch.setattr(atomic.os, "fsync", fsync_then_lose_the_race)
    assert main(["pack", str(dump), "-o", str(out)]) == 2
    err = capsys.readouterr().err
    assert f"{out} (-o)" in err and "another process created" in err and temp_free(err, tmp_path)
    assert out.read_bytes() == b"the other writer's file"
    assert leftovers(tmp_path) == []


def test_concurrent_packs_without_force_one_wins_and_nothing_is_replaced(tmp_path):
    """8 processes pack 8 different dumps to one new OUT at once: exactly one succeeds and
    OUT is its file; every other one is refused."""
    dumps = []
    for i in range(8):
        doc = json.loads(dump_of(tmp_path, f"d{i}.json").read_text())
        doc["animations"][0]["flags"] = 1000 + i  # each process's file differs
        path = tmp_path / f"d{i}.json"
        path.write_text(json.dumps(doc))
        dumps.append(path)
    out = tmp_path / "out.animbin"
    procs = [subprocess.Popen(PYTHON + ["pack", str(d), "-o", str(out)], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
             for d in dumps]
    results = [(p.wait(120), p.stderr.read().decode()) for p in procs]
    for p in procs:
        p.stdout.close()
        p.stderr.close()
    winners = [i for i, (code, _) in enumerate(results) if code == 0]
    assert len(winners) == 1, results
    for i, (code, err) in enumerate(results):
        if i != winners[0]:
            assert code == 2 and f"{out} (-o)" in err and temp_free(err, tmp_path), err
    from animspec.animbin import read_file

    assert read_file(out).animations[0].flags == 1000 + winners[0]
    assert leftovers(tmp_path) == []


# --------------------------------------------------------------------------- one rule


@pytest.mark.parametrize("command", ["dump", "pack", "plot", "convert"])
def test_every_command_refuses_an_existing_output_without_force(tmp_path, capsys, command):
    out = tmp_path / ("out.glb" if command == "convert" else "out.bin")
    out.write_bytes(b"keep")
    args = {
        "dump": ["dump", str(SWING), "-o", str(out)],
        "pack": ["pack", str(dump_of(tmp_path)), "-o", str(out)],
        "plot": ["plot", str(SWING), "-o", str(out)],
        "convert": ["convert", str(SWING), "-o", str(out)],
    }[command]
    assert main(args) == 2
    err = capsys.readouterr().err
    assert f"{out} (-o)" in err and "exists; pass --force" in err
    assert out.read_bytes() == b"keep"
    assert main(args + ["--force"]) == 0, capsys.readouterr().err
    assert out.read_bytes() != b"keep" and len(out.read_bytes()) > 100
    assert leftovers(tmp_path) == []


def test_convert_into_a_folder_refuses_existing_outputs_without_force(tmp_path, capsys):
    src = tmp_path / "in"
    src.mkdir()
    (src / "swing.animbin").write_bytes(SWING.read_bytes())
    out = tmp_path / "out"
    assert main(["convert", str(src), "-o", str(out), "--no-progress"]) == 0
    first = (out / "swing.glb").read_bytes()
    (out / "swing.glb").write_bytes(b"edited by hand")
    assert main(["convert", str(src), "-o", str(out), "--no-progress"]) == 2
    assert "exists; pass --force" in capsys.readouterr().err
    assert (out / "swing.glb").read_bytes() == b"edited by hand"
    assert main(["convert", str(src), "-o", str(out), "--no-progress", "--force"]) == 0
    assert (out / "swing.glb").read_bytes() == first


def test_a_symlinked_output_is_written_through_and_stays_a_link(tmp_path, capsys):
    target = tmp_path / "real.animbin"
    target.write_bytes(b"old")
    link = tmp_path / "link.animbin"
    link.symlink_to(target.name)
    dump = dump_of(tmp_path)
    assert main(["pack", str(dump), "-o", str(link)]) == 2
    err = capsys.readouterr().err
    assert f"{link} (-o)" in err and f"a link to {target}" in err and "--force" in err
    assert main(["pack", str(dump), "-o", str(link), "--force"]) == 0
    assert link.is_symlink() and os.readlink(link) == target.name
    assert target.read_bytes() == SWING.read_bytes()
    # A dangling link: the file it names is created, the link left alone.
    dangling = tmp_path / "new-link.animbin"
    dangling.symlink_to("made.animbin")
    assert main(["pack", str(dump), "-o", str(dangling)]) == 0
    assert dangling.is_symlink() and (tmp_path / "made.animbin").read_bytes() == SWING.read_bytes()
    assert leftovers(tmp_path) == []


def test_a_link_to_the_input_is_refused_even_with_force(tmp_path, capsys):
    dump = dump_of(tmp_path)
    link = tmp_path / "link.json"
    link.symlink_to(dump)
    before = dump.read_bytes()
    assert main(["pack", str(dump), "-o", str(link), "--force"]) == 2
    assert "is the input file" in capsys.readouterr().err
    assert dump.read_bytes() == before and link.is_symlink()


# --------------------------------------------------------------------------- temporaries


def test_a_killed_writers_temporary_is_removed_by_the_next_write(tmp_path):
    out = tmp_path / "out.animbin"
    code = (
        "import sys, time\n"
        "from animspec.common.atomic import write_atomic\n"
        "write_atomic(sys.argv[1], b'data', verify=lambda written: time.sleep(60))\n"
    )
    proc = subprocess.Popen([sys.executable, "-c", code, str(out)])
    try:
        for _ in range(300):
            if leftovers(tmp_path):
                break
            time.sleep(0.05)
        [stale] = leftovers(tmp_path)
        assert stale.startswith(".out.animbin.animspec-")
        # A live writer's temporary file is left alone.
        assert atomic.remove_stale_temporaries(out) == [] and leftovers(tmp_path) == [stale]
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait(10)
    assert leftovers(tmp_path) == [stale]  # SIGKILL: nothing could clean up
    from animspec.common.output import write_output

    write_output(str(out), b"new")
    assert leftovers(tmp_path) == [] and out.read_bytes() == b"new"


# --------------------------------------------------------------------------- messages


def test_an_output_folder_is_refused_without_suggesting_force(tmp_path, capsys):
    folder = tmp_path / "outdir"
    folder.mkdir()
    dump = dump_of(tmp_path)
    for extra in ([], ["--force"]):
        assert main(["pack", str(dump), "-o", str(folder)] + extra) == 2
        err = capsys.readouterr().err
        assert f"{folder} (-o): this is a folder; give -o a file name" in err
        assert "pass --force" not in err and temp_free(err, tmp_path)
    assert os.listdir(folder) == []


def test_a_folder_that_cannot_be_written_names_the_users_path(tmp_path, capsys):
    if os.geteuid() == 0:
        out = "/sys/animspec-test-out.animbin"  # root may write anywhere but here
        if not os.path.isdir("/sys"):
            pytest.skip("no /sys to be refused by")
    else:
        locked = tmp_path / "locked"
        locked.mkdir()
        os.chmod(locked, 0o500)
        out = str(locked / "x.animbin")
    assert main(["pack", str(dump_of(tmp_path)), "-o", out]) == 2
    err = capsys.readouterr().err
    assert f"{out} (-o)" in err and "permission denied" in err.lower() and temp_free(err, tmp_path)
    assert not os.path.exists(out)


def test_a_missing_folder_is_named(tmp_path, capsys):
    out = tmp_path / "no" / "such" / "x.animbin"
    assert main(["pack", str(dump_of(tmp_path)), "-o", str(out)]) == 2
    assert f"the folder {out.parent} does not exist" in capsys.readouterr().err


def test_output_error_is_a_write_error_naming_path_and_option(tmp_path):
    from animspec.common.output import OutputError, write_output

    (tmp_path / "x").write_bytes(b"1")
    with pytest.raises(OutputError) as info:
        write_output(str(tmp_path / "x"), b"2", option="--output")
    assert info.value.path == str(tmp_path / "x") and info.value.option == "--output"
    assert str(info.value).startswith(f"cannot write {tmp_path / 'x'} (--output): the file exists")
